/**
 * How the adapters name the hints they keep beside a value's kept wire
 * fields (which wire form to write, an id that was made up), and how those
 * fields are kept so that no field can be taken for a hint. Here, apart from
 * the adapters, so that validation, repair and the estimator read a hint by
 * the same rule without loading an adapter.
 *
 * The rule, for the record of `providerOptions[provider]` that holds a wire
 * object's other fields: a hint is stored under its name with a `$` in front
 * (`$syntheticId`); a wire field is stored under its own name, with one more
 * `$` in front when that name starts with one (a sender's `"$noContent"` is
 * kept as `$$noContent`, a `"$"` as `$$`). So a key with one `$` in front is
 * a hint (a record built by hand may name one), a key with two is a field
 * whose name starts with `$`, and no field a sender gives is read as a hint.
 * Only the record's own keys are escaped: the fields of nested objects kept
 * under their key (`function`, `source`) are kept as they came.
 *
 * @internal
 */

/** What every hint's stored key starts with. */
export const HINT_PREFIX = "$"

/** The key a hint named `name` is stored under. */
export const hintKey = (name: string): string => HINT_PREFIX + name

/** The key a wire field named `name` is kept under: its name, with one more `$` in front when it starts with one. */
export const keptKey = (name: string): string => (name.startsWith(HINT_PREFIX) ? HINT_PREFIX + name : name)

/** Whether a stored key is a hint's (one `$` in front), not a kept field's. */
export const isHintKey = (stored: string): boolean => stored.startsWith(HINT_PREFIX) && !stored.startsWith(HINT_PREFIX + HINT_PREFIX)

/** The name of the wire field a stored key that is no hint's stands for (`$$x` is the field `$x`). */
export const wireName = (stored: string): string => (stored.startsWith(HINT_PREFIX + HINT_PREFIX) ? stored.slice(HINT_PREFIX.length) : stored)

/** Sets an own data property, even for `__proto__`. */
const setOwn = (o: { [key: string]: unknown }, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true })
  else o[key] = value
}

/**
 * The record stored for a wire object's fields the model has no place for
 * (`fields`, by their wire names) and the adapter's hints (by name, an
 * `undefined` one left out): each field under `keptKey`, each hint under
 * `hintKey`. `undefined` when there are neither fields (`fields` itself
 * undefined) nor hints.
 */
export const storedRecord = <V>(
  fields: { readonly [key: string]: V } | undefined,
  hints?: { readonly [name: string]: V | undefined }
): { [key: string]: V } | undefined => {
  let out: { [key: string]: V } | undefined
  if (fields !== undefined) {
    out = {}
    for (const name of Object.keys(fields)) setOwn(out, keptKey(name), fields[name])
  }
  if (hints !== undefined) {
    for (const name of Object.keys(hints)) {
      const value = hints[name]
      if (value === undefined) continue
      out ??= {}
      setOwn(out, hintKey(name), value)
    }
  }
  return out
}

/**
 * The wire fields of a stored record, by their wire names: a field kept
 * with a `$` in front (`$$x`) as the field it is (`$x`); a key with one `$`
 * in front that `isHint` names left out (the adapter's hint); any other key
 * as it is (a record built by hand may hold a field under its bare name,
 * `$x`, which gives way to a field kept as `$$x`). `undefined` when none is
 * left.
 */
export const wireFieldsOf = <V>(
  record: { readonly [key: string]: V } | undefined,
  isHint: (name: string) => boolean
): { [key: string]: V } | undefined => {
  if (record === undefined) return undefined
  let out: { [key: string]: V } | undefined
  for (const stored of Object.keys(record)) {
    const escaped = stored.startsWith(HINT_PREFIX + HINT_PREFIX)
    if (!escaped && stored.startsWith(HINT_PREFIX) && isHint(stored.slice(HINT_PREFIX.length))) continue
    const name = escaped ? stored.slice(HINT_PREFIX.length) : stored
    out ??= {}
    // a field kept by its escaped name wins over one a hand-built record gives under the bare name
    if (!escaped && Object.hasOwn(out, name)) continue
    setOwn(out, name, record[stored])
  }
  return out
}

/** No stored key is a hint: every key is a wire field (`wireFieldsOf` for a record of an object no hint is kept on). */
export const noHints = (): boolean => false

/**
 * The hints of the OpenAI Chat adapter (see its module documentation):
 * here, so that the estimator's view of a Chat request body leaves them out
 * as the adapter does.
 */
export const OPENAI_CHAT_HINTS: ReadonlySet<string> = new Set(["dataUrlMediaType", "maxTokensField", "reasoningContent", "nullContent", "noContent", "functions"])

/**
 * The hints of the Anthropic adapter (see `providers/Anthropic.ts`), by
 * name: here, so that validation reads as hints exactly the keys the
 * adapter leaves out, and reports any other `$` key it writes as a field.
 */
export const ANTHROPIC_HINTS: ReadonlySet<string> = new Set(["noName", "separateMessage", "messagePart", "outputFormatField", "container"])

/** Whether a stored key is one of the Anthropic adapter's hints (which it never writes as a field). */
export const isAnthropicHintKey = (stored: string): boolean => isHintKey(stored) && ANTHROPIC_HINTS.has(stored.slice(HINT_PREFIX.length))

/**
 * Whether Anthropic takes no `cache_control` on a block of this `type`:
 * thinking and redacted thinking ("messages.1.content.0.thinking.cache_control:
 * Extra inputs are not permitted"). Here, beside the hints, for the same
 * reason: the writer leaves it out of exactly the blocks validation does not
 * count it on.
 */
export const takesNoAnthropicCache = (type: unknown): boolean => type === "thinking" || type === "redacted_thinking"

