/**
 * Writing back the fields the model has no place for (the convention of
 * `internal/adapter`: `providerOptions[provider]` holds a wire object's
 * other fields verbatim, nested objects' fields under their key) when an
 * adapter also keeps a few hints beside them (which wire form to write, an
 * id that was made up): the hints are named per adapter and never written.
 * A hint is stored under its name with a `$` in front (`$syntheticId`); a
 * wire field whose name starts with a `$` is kept with one more in front
 * (a sender's `"$syntheticId"` as `$$syntheticId`, the rule of
 * `internal/hint`), so a field of the sender's, whatever its name, is kept
 * and written back like any other, never read as a hint. `keep` stores a
 * value's fields and hints by that rule, `keptOf` gives its wire fields
 * back, `hintOf` one hint.
 *
 * @internal
 */
import type { Schema } from "effect"
import type * as Block from "../../Block.js"
import { hintKey, storedRecord, wireFieldsOf } from "../../internal/hint.js"
import { setKey } from "./adapter.js"

type Writable = { [key: string]: unknown }

const isPlain = (u: unknown): u is { readonly [key: string]: unknown } => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Writes kept fields (by their wire names, as `keptOf` gives them) over a
 * built wire object: objects present on both sides are merged, anything
 * else is set (a kept field that chooses a wire form, such as `role:
 * "developer"`, replaces the default). Returns `target`.
 */
export const merge = <T extends object>(target: T, kept: { readonly [key: string]: unknown } | undefined): T => {
  if (kept === undefined) return target
  const out = target as Writable
  for (const key of Object.keys(kept)) {
    const value = kept[key]
    const current = out[key]
    if (isPlain(value) && isPlain(current)) setKey(out, key, merge({ ...current }, value))
    else setKey(out, key, value)
  }
  return target
}

export { HINT_PREFIX, hintKey } from "../../internal/hint.js"

/** The kept wire fields of a value for `provider`, by their wire names, without the adapter's hints. */
export const keptOf = (
  value: { readonly providerOptions?: Block.ProviderOptions | undefined } | undefined,
  provider: string,
  hints: ReadonlySet<string>
): { readonly [key: string]: Schema.Json } | undefined => wireFieldsOf(value?.providerOptions?.[provider], (name) => hints.has(name))

/** One hint of a value for `provider`. */
export const hintOf = (value: { readonly providerOptions?: Block.ProviderOptions | undefined } | undefined, provider: string, hint: string): Schema.Json | undefined =>
  value?.providerOptions?.[provider]?.[hintKey(hint)]

/**
 * `{ providerOptions: { [provider]: { ...kept, ...hints } } }`, each kept
 * field (by its wire name) under its kept key (`$x` as `$$x`), each hint
 * that is not undefined under its `hintKey`; `{}` when there is nothing to
 * keep.
 */
export const keep = (
  provider: string,
  kept: { readonly [key: string]: Schema.Json } | undefined,
  hints?: { readonly [key: string]: Schema.Json | undefined }
): { readonly providerOptions?: Block.ProviderOptions } => {
  const out = storedRecord(kept, hints)
  return out === undefined ? {} : { providerOptions: { [provider]: out } }
}

/** Copies only the defined values, so that absent optional fields stay absent. */
export const defined = <A extends Record<string, unknown>>(o: A): { [K in keyof A]?: Exclude<A[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = o[k]
  return out as { [K in keyof A]?: Exclude<A[K], undefined> }
}
