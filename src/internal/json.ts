/**
 * JSON values as the model holds them: copied out of untrusted input without
 * ever throwing, frozen so that memoized estimates cannot go stale, and
 * serialized without recursion so that deeply nested tool arguments never
 * overflow the stack.
 *
 * Every walk here is iterative (an explicit stack), linear in the size of the
 * value, and safe against hostile objects: getters that throw, revoked
 * proxies, cycles, and `__proto__` keys (kept as own data, never turned into
 * a prototype).
 *
 * @internal
 */
import type { Schema } from "effect"

/**
 * Values this package parsed itself from JSON text (the command line's
 * input): plain data all the way down, with no getters, proxies, cycles or
 * class instances, and held by no one else. Readers that copy untrusted input
 * before walking it (`jsonOf` in the adapters) read these as they are: a copy
 * of a million-message body costs as much memory again as the body.
 */
const parsedJson = new WeakSet<object>()

/** Marks a value that `JSON.parse` just returned and nothing else holds (see `parsedJson`). */
export const ownParsedJson = <A>(value: A): A => {
  if (typeof value === "object" && value !== null) parsedJson.add(value)
  return value
}

/** Whether `ownParsedJson` marked this value. */
export const isOwnParsedJson = (value: unknown): boolean => typeof value === "object" && value !== null && parsedJson.has(value)

/** Why a value is not JSON, and where. */
export interface NotJson {
  readonly path: ReadonlyArray<string | number>
  readonly reason: string
}

const isPlainObject = (u: object): boolean => {
  const proto = Object.getPrototypeOf(u)
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null
}

/** Sets an own data property, even for the key `__proto__` (which `o[k] = v` would turn into a prototype). */
export const defineOwn = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  } else {
    target[key] = value
  }
}

const describe = (u: unknown): string => {
  if (u === undefined) return "undefined"
  if (typeof u === "number") return String(u)
  if (typeof u === "bigint") return "a BigInt"
  if (typeof u === "function") return "a function"
  if (typeof u === "symbol") return "a symbol"
  if (typeof u === "object" && u !== null) {
    const name = (Object.getPrototypeOf(u) as { constructor?: { name?: unknown } } | null)?.constructor?.name
    return typeof name === "string" && name !== "" ? `a ${name}` : "an object with a custom prototype"
  }
  return typeof u
}

interface Frame {
  readonly source: object
  readonly target: Record<string, unknown> | Array<unknown>
  readonly keys: ReadonlyArray<string> | number
  index: number
  /** The key of this container in its parent (unused for the root). */
  readonly key: string | number
}

/** The walk's state: the containers being copied, and the key being read in the top one. */
interface Walk {
  readonly base: ReadonlyArray<string | number>
  readonly stack: Array<Frame>
  readonly onPath: Set<object>
  current: string | number | undefined
}

/** The path of the value being read; built only when a problem is reported. */
const pathOf = (walk: Walk): Array<string | number> => {
  const out: Array<string | number> = [...walk.base]
  for (let f = 1; f < walk.stack.length; f++) out.push(walk.stack[f]!.key)
  if (walk.current !== undefined) out.push(walk.current)
  return out
}

const notJson = (walk: Walk, u: unknown): NotJson => ({ path: pathOf(walk), reason: `Expected a JSON value, got ${describe(u)}` })

/** A frame for a container, or why it cannot be one. */
const openFrame = (walk: Walk, u: object, key: string | number): Frame | NotJson => {
  if (walk.onPath.has(u)) return { path: pathOf(walk), reason: "Expected a JSON value, got a cyclic structure" }
  if (Array.isArray(u)) {
    walk.onPath.add(u)
    return { source: u, target: new Array<unknown>(u.length), keys: u.length, index: 0, key }
  }
  if (!isPlainObject(u)) return notJson(walk, u)
  walk.onPath.add(u)
  return { source: u, target: {}, keys: Object.keys(u), index: 0, key }
}

const isJsonLeaf = (u: unknown): boolean =>
  u === null || typeof u === "string" || typeof u === "boolean" || (typeof u === "number" && Number.isFinite(u))

/**
 * A deep, frozen copy of a JSON value read from untrusted input, or why it is
 * not JSON. `undefined` object properties are refused, or left out when
 * `skipUndefined` is set (an object built in code, `{ name: undefined }`,
 * means the same as one without the key). Never throws: a getter that throws
 * or a revoked proxy becomes a `NotJson`.
 *
 * One pass, linear in the size of the value; the path of a value is only
 * built when it is reported, so a large payload costs no per-value garbage.
 */
export const copyJson = (
  input: unknown,
  options?: { readonly freeze?: boolean; readonly basePath?: ReadonlyArray<string | number>; readonly skipUndefined?: boolean }
): { readonly value: Schema.Json } | NotJson => {
  const freeze = options?.freeze ?? true
  const skipUndefined = options?.skipUndefined ?? false
  if (typeof input !== "object" || input === null) {
    return isJsonLeaf(input) ? { value: input as Schema.Json } : { path: options?.basePath ?? [], reason: `Expected a JSON value, got ${describe(input)}` }
  }
  const walk: Walk = { base: options?.basePath ?? [], stack: [], onPath: new Set(), current: undefined }
  const stack = walk.stack
  try {
    const rootFrame = openFrame(walk, input, "")
    if (!("source" in rootFrame)) return rootFrame
    stack.push(rootFrame)
    const root = rootFrame.target
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!
      const keys = frame.keys
      const count = typeof keys === "number" ? keys : keys.length
      if (frame.index >= count) {
        stack.pop()
        walk.onPath.delete(frame.source)
        if (freeze) Object.freeze(frame.target)
        walk.current = frame.key
        continue
      }
      const i = frame.index++
      const key: string | number = typeof keys === "number" ? i : keys[i]!
      walk.current = key
      const value: unknown = (frame.source as Record<string | number, unknown>)[key]
      let out: unknown
      if (typeof value === "object" && value !== null) {
        const child = openFrame(walk, value, key)
        if (!("source" in child)) return child
        stack.push(child)
        walk.current = undefined
        out = child.target
      } else if (isJsonLeaf(value)) {
        out = value
      } else if (value === undefined && skipUndefined && typeof keys !== "number") {
        continue
      } else {
        return notJson(walk, value)
      }
      if (typeof keys === "number") (frame.target as Array<unknown>)[i] = out
      else defineOwn(frame.target as Record<string, unknown>, key as string, out)
    }
    return { value: root as Schema.Json }
  } catch (cause) {
    return { path: pathOf(walk), reason: `could not read the value: ${errorText(cause)}` }
  }
}

/**
 * The elements of a list read from untrusted input, copied out once, or why
 * they could not be read: not an array, or a proxy that throws (even when
 * asked whether it is an array, as a revoked one does), or an element behind
 * a throwing getter, becomes a reason, never an exception.
 */
export const listOf = (input: unknown): { readonly items: Array<unknown> } | { readonly reason: string } => {
  try {
    if (!Array.isArray(input)) return { reason: "Expected an array of messages" }
    // grown, not allocated up front, and stopped at the first hole: a sparse array (`a.length = 1e9`) or a proxy
    // whose length lies is not a list of messages, and must not cost its claimed length in memory
    const n = input.length
    const items: Array<unknown> = []
    for (let i = 0; i < n; i++) {
      if (!(i in input)) return { reason: `Expected an array of messages, got a sparse array (no element at ${i} of ${n})` }
      items.push(input[i])
    }
    return { items }
  } catch (cause) {
    return { reason: `could not read the list of messages: ${errorText(cause)}` }
  }
}

/**
 * The JSON that can be read from a value given in code, for functions that
 * count a value as far as it can be read rather than reject it: a getter or
 * proxy that throws, a cycle, a value that is not JSON (a function, a Date, a
 * BigInt, `undefined`) is left out, and a list ends at its first hole. Never
 * throws; linear in the size of what is read, iterative at any depth.
 *
 * A walk of its own, not an option of `copyJson`: folded into that walk (a
 * try around each read), it cost every bundle that copies JSON about 120
 * gzipped bytes, over their size budgets, for the one caller that needs it
 * (the exact request counter, in its own entry point).
 */
export const readableJson = (input: unknown): Schema.Json => {
  if (isJsonLeaf(input)) return input as Schema.Json
  interface Open {
    readonly source: object
    readonly target: Array<unknown> | Record<string, unknown>
    readonly keys: ReadonlyArray<string> | number
    index: number
  }
  const onPath = new Set<object>()
  // a container as a frame to fill, or undefined when it cannot be read as one
  const open = (u: unknown): Open | undefined => {
    if (typeof u !== "object" || u === null || onPath.has(u)) return undefined
    try {
      if (Array.isArray(u)) {
        const length = u.length
        onPath.add(u)
        return { source: u, target: [], keys: typeof length === "number" ? length : 0, index: 0 }
      }
      if (!isPlainObject(u)) return undefined
      const keys = Object.keys(u)
      onPath.add(u)
      return { source: u, target: {}, keys, index: 0 }
    } catch {
      return undefined
    }
  }
  const root = open(input)
  if (root === undefined) return null
  const stack: Array<Open> = [root]
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!
    const isList = typeof frame.keys === "number"
    const count = isList ? frame.keys as number : (frame.keys as ReadonlyArray<string>).length
    if (frame.index >= count) {
      stack.pop()
      onPath.delete(frame.source)
      continue
    }
    const i = frame.index++
    let value: unknown
    try {
      if (isList && !(i in frame.source)) {
        // a hole ends the list: a sparse array's claimed length is not read through
        frame.index = count
        continue
      }
      value = (frame.source as Record<string | number, unknown>)[isList ? i : (frame.keys as ReadonlyArray<string>)[i]!]
    } catch {
      continue
    }
    let out: unknown
    if (isJsonLeaf(value)) {
      out = value
    } else {
      const child = open(value)
      if (child === undefined) continue
      stack.push(child)
      out = child.target
    }
    if (isList) (frame.target as Array<unknown>).push(out)
    else defineOwn(frame.target as Record<string, unknown>, (frame.keys as ReadonlyArray<string>)[i]!, out)
  }
  return root.target as Schema.Json
}

/** The message of anything thrown, without ever throwing itself. */
export const errorText = (cause: unknown): string => {
  try {
    if (cause instanceof Error) return cause.message
    return String(cause)
  } catch {
    return "an unreadable error"
  }
}

/**
 * Freezes a JSON value and everything inside it, in place, iteratively.
 * Values that are already frozen are assumed frozen all the way down (they
 * came from `copyJson` or from here).
 */
export const deepFreeze = <A>(value: A): A => {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value
  const stack: Array<object> = [value]
  while (stack.length > 0) {
    const o = stack.pop()!
    Object.freeze(o)
    if (Array.isArray(o)) {
      for (const v of o) if (typeof v === "object" && v !== null && !Object.isFrozen(v)) stack.push(v)
    } else {
      for (const k of Object.keys(o)) {
        const v = (o as Record<string, unknown>)[k]
        if (typeof v === "object" && v !== null && !Object.isFrozen(v)) stack.push(v)
      }
    }
  }
  return value
}

/**
 * `JSON.stringify` for JSON values that does not overflow the stack: V8's
 * own is used (about 5 times as fast on megabytes of JSON) and a value
 * nested too deeply for it (near 10,000 levels) is written by an explicit
 * stack instead. Output is identical to `JSON.stringify(value)` for every
 * JSON value.
 */
export const stringify = (value: Schema.Json): string => {
  if (typeof value !== "object" || value === null) return JSON.stringify(value)
  try {
    return JSON.stringify(value)
  } catch {
    return writeFlat(value, false)
  }
}

/**
 * `JSON.stringify(value, null, indent)` that never overflows the stack: a
 * value nested too deeply for V8's own (it overflows near 10,000 levels) is
 * written on one line by an explicit stack instead, since indenting 10,000
 * levels would write some hundred million spaces. Either way `undefined`,
 * functions and symbols are left out of objects and written `null` in
 * arrays, as `JSON.stringify` does. Linear in the size of the value.
 */
export const stringifyIndented = (value: unknown, indent: number): string => {
  try {
    return JSON.stringify(value, null, indent) ?? "null"
  } catch {
    // too deep for V8: the same data, on one line
  }
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null"
  return writeFlat(value, true)
}

/**
 * `stringifyIndented(value, indent)` in pieces: the same text once joined,
 * cut between the elements of the outer `levels` containers. A value whose
 * whole text is longer than a JavaScript string can be (V8 stops near 512
 * million characters: a million messages, indented) can still be written
 * piece by piece; each piece is one element of an inner container. The
 * pieces are made as they are asked for, so a writer that lets each one go
 * never holds more than one at a time. `indent` is a number of spaces, 1 to
 * 10.
 */
export const stringifyIndentedChunks = (value: unknown, indent: number, levels = 3): Generator<string, void, undefined> =>
  // JSON.stringify indents by 1 to 10 spaces
  piecesOf(value, " ".repeat(Math.min(10, Math.max(1, Math.floor(indent)))), levels, "")

const hasToJson = (o: object): boolean => {
  try {
    return typeof (o as { readonly toJSON?: unknown }).toJSON === "function"
  } catch {
    return true
  }
}

/**
 * A list whose elements are made when `stringifyIndentedChunks` reaches them
 * and let go once written: the encoded form of a million messages is never
 * held all at once. Any other writer (or one written whole, below the levels
 * cut into pieces) gets the whole array from `toJSON`.
 */
export class LazyList {
  constructor(readonly length: number, readonly at: (index: number) => unknown) {}
  toJSON(): Array<unknown> {
    return Array.from({ length: this.length }, (_, i) => this.at(i))
  }
}

function* piecesOf(value: unknown, step: string, levels: number, pad: string): Generator<string, void, undefined> {
  if (value instanceof LazyList && levels > 0) return yield* listPieces(value.length, value.at, step, levels, pad)
  if (levels === 0 || typeof value !== "object" || value === null || hasToJson(value)) {
    // the inner lines of an element's own text, moved right by the depth it sits at
    const text = stringifyIndented(value, step.length)
    yield pad === "" ? text : text.replaceAll("\n", `\n${pad}`)
    return
  }
  if (Array.isArray(value)) {
    const list: ReadonlyArray<unknown> = value
    return yield* listPieces(list.length, (i) => list[i], step, levels, pad)
  }
  const inner = pad + step
  const record = value as Record<string, unknown>
  const keys = Object.keys(record).filter((k) => !unwritable(record[k]))
  if (keys.length === 0) return yield "{}"
  yield "{\n"
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!
    yield `${inner}${JSON.stringify(k)}: `
    yield* piecesOf(record[k], step, levels - 1, inner)
    yield i < keys.length - 1 ? ",\n" : "\n"
  }
  yield `${pad}}`
}

function* listPieces(n: number, at: (index: number) => unknown, step: string, levels: number, pad: string): Generator<string, void, undefined> {
  if (n === 0) return yield "[]"
  const inner = pad + step
  yield "[\n"
  for (let i = 0; i < n; i++) {
    const v = at(i)
    yield inner
    yield* piecesOf(unwritable(v) ? null : v, step, levels - 1, inner)
    yield i < n - 1 ? ",\n" : "\n"
  }
  yield `${pad}]`
}

/** What `JSON.stringify` leaves out of objects and writes `null` for in arrays. */
const unwritable = (v: unknown): boolean => v === undefined || typeof v === "function" || typeof v === "symbol"

/**
 * One-line JSON of an object or array by an explicit stack. With
 * `skipUnwritable`, values JSON cannot hold are treated as `JSON.stringify`
 * treats them; without it the value is known to be JSON.
 */
/**
 * Text built from many small pieces, joined a thousand at a time: millions of pieces held to the end (a value a
 * million levels deep) cost seconds of garbage collection, most of the time it took to write one.
 */
export const pieces = (): { readonly add: (...parts: ReadonlyArray<string>) => void; readonly text: () => string } => {
  let text = ""
  let out: Array<string> = []
  return {
    add: (...parts) => {
      if (out.push(...parts) > 1024) {
        text += out.join("")
        out = []
      }
    },
    text: () => text + out.join("")
  }
}

const writeFlat = (value: object, skipUnwritable: boolean, limit = Infinity): string => {
  const out = pieces()
  // how much is written: with a `limit`, the walk stops once the text is longer
  let length = 0
  const add = (part: string): void => {
    length += part.length
    out.add(part)
  }
  // each frame: the container, its keys (none for an array), the next index
  const stack: Array<{ readonly o: Record<string, unknown>; readonly keys: ReadonlyArray<string> | undefined; i: number }> = []
  // the containers being written: one met again inside itself is a cycle, which JSON cannot hold (JSON.stringify
  // throws a TypeError there too; without this the loop below would never end)
  const onPath = new Set<object>()
  const open = (o: Record<string, unknown>): void => {
    if (onPath.has(o)) throw new TypeError("Converting circular structure to JSON")
    onPath.add(o)
    const keys = Array.isArray(o) ? undefined : Object.keys(o)
    add(keys ? "{" : "[")
    stack.push({ o, keys: keys && skipUnwritable ? keys.filter((k) => !unwritable(o[k])) : keys, i: 0 })
  }
  const quote = (s: string): string => quoteUpTo(s, limit - length + 2)
  open(value as Record<string, unknown>)
  while (stack.length > 0 && length <= limit) {
    const frame = stack[stack.length - 1]!
    const { o, keys } = frame
    const i = frame.i++
    if (i >= (keys ?? o as unknown as ReadonlyArray<unknown>).length) {
      add(keys ? "}" : "]")
      onPath.delete(o)
      stack.pop()
      continue
    }
    if (i > 0) add(",")
    if (keys) {
      add(quote(keys[i]!))
      // a key cut short ends the text: what follows it would not be
      if (length > limit) break
      add(":")
    }
    let v = o[keys ? keys[i]! : i]
    if (!keys && skipUnwritable && unwritable(v)) v = null
    if (typeof v === "object" && v !== null) open(v as Record<string, unknown>)
    else add(typeof v === "string" ? quote(v) : JSON.stringify(v) ?? "null")
  }
  return out.text()
}

/**
 * `JSON.stringify(s)`, or only its first `room` characters and more when `s` is longer than `room`: the quote and
 * the escaped start of `s` (each code unit writes at least one character). Only the last one written may differ
 * from the whole text (the first half of a pair cut from its second is escaped), and it lies past `room`.
 */
const quoteUpTo = (s: string, room: number): string => (s.length > room ? JSON.stringify(s.slice(0, room)).slice(0, -1) : JSON.stringify(s))

/**
 * The start of `stringify(value)`, written only as far as a message shows it: the whole text when it is at most
 * `max` code units long, else a text longer than `max` whose first `max + 1` code units are the whole text's, so
 * that a cut after `max` (`cutText`) gives the same text from either. A 10 MB value cut to 200 characters costs
 * about 200 characters of work.
 */
export const stringifyHead = (value: Schema.Json, max: number): string => {
  // NaN or Infinity: no cut, the whole text
  if (!(max < Infinity)) return stringify(value)
  const limit = Math.max(0, max)
  if (typeof value !== "object" || value === null) return typeof value === "string" ? quoteUpTo(value, limit + 2) : JSON.stringify(value)
  return isSmall(value) ? JSON.stringify(value) : writeFlat(value, false, limit)
}

/**
 * Whether V8's own writer, about 4 times as fast as the walk above on a small value, may write it whole: at most 64
 * values, and 4,096 code units in its strings and keys. Read without writing anything, and stopped at those bounds.
 */
const isSmall = (value: object): boolean => {
  let count = 0
  let units = 0
  const stack: Array<unknown> = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v === "string") units += v.length
    else if (Array.isArray(v)) {
      if ((count += v.length) > 64) return false
      stack.push(...(v as ReadonlyArray<unknown>))
    } else if (typeof v === "object" && v !== null) {
      const keys = Object.keys(v)
      if ((count += keys.length) > 64) return false
      for (const k of keys) {
        units += k.length
        stack.push((v as Record<string, unknown>)[k])
      }
    }
    if (units > 4096) return false
  }
  return true
}

/**
 * `JSON.parse` that never throws and never recurses past what V8 allows:
 * the parsed value, or the parse error's message. A number too large for a
 * double (`1e999`, which `JSON.parse` reads as `Infinity`) is an error too:
 * the model holds finite numbers only; so is text nested more than 100,000
 * levels deep, which is not given to `JSON.parse` at all (see `MAX_DEPTH`).
 */
export const parse = (text: string): { readonly value: Schema.Json } | { readonly error: string } => {
  if (tooDeep(text)) return { error: `nested deeper than ${MAX_DEPTH.toLocaleString("en-US")} levels` }
  let value: Schema.Json
  try {
    value = JSON.parse(text) as Schema.Json
  } catch (cause) {
    return { error: errorText(cause) }
  }
  return hasInfinity(value) ? { error: "a number is too large to be held (it reads as Infinity)" } : { value }
}

/**
 * The deepest nesting `parse` reads. V8 reads a level about a hundred times as slowly as a character of flat text
 * (1.6 million unclosed `[` took over a second to be refused), and no writer nests so deep: V8's own
 * `JSON.stringify` stops near 10,000 levels. Text nested deeper is not JSON to `parse`, as broken text is not.
 */
const MAX_DEPTH = 100_000

/**
 * Why text is not given to `JSON.parse` (it is nested more than `MAX_DEPTH` levels deep), or `undefined` when it
 * may be: the check `parse` makes first, in its words, for readers that parse text their own way (the command
 * line, which reads numbers too large for a double as the largest one instead of refusing them). Linear, and free
 * for text of at most `MAX_DEPTH` code units.
 */
export const depthError = (text: string): string | undefined =>
  tooDeep(text) ? `nested deeper than ${MAX_DEPTH.toLocaleString("en-US")} levels` : undefined

/** Whether text opens more than `MAX_DEPTH` brackets at once outside its strings; linear, and free for shorter text. */
const tooDeep = (text: string): boolean => {
  if (text.length <= MAX_DEPTH) return false
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // to the quote that ends the string: the first one after an even run of backslashes
      let end = i
      for (;;) {
        end = text.indexOf('"', end + 1)
        if (end < 0) return false
        let slashes = 0
        while (text.charCodeAt(end - 1 - slashes) === 92) slashes++
        if (slashes % 2 === 0) break
      }
      i = end
    } else if (c === 91 || c === 123) {
      if (++depth > MAX_DEPTH) return true
    } else if (c === 93 || c === 125) {
      depth--
    }
  }
  return false
}

/** Whether a parsed JSON value holds a non-finite number; iterative. */
export const hasInfinity = (value: Schema.Json): boolean => {
  if (typeof value === "number") return !Number.isFinite(value)
  if (typeof value !== "object" || value === null) return false
  const stack: Array<object> = [value]
  while (stack.length > 0) {
    const o = stack.pop()!
    const values: ReadonlyArray<unknown> = Array.isArray(o) ? o : Object.values(o)
    for (const v of values) {
      if (typeof v === "number") {
        if (!Number.isFinite(v)) return true
      } else if (typeof v === "object" && v !== null) {
        stack.push(v)
      }
    }
  }
  return false
}
