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
  readonly path: ReadonlyArray<string | number>
}

/**
 * A deep, frozen copy of a JSON value read from untrusted input, or why it is
 * not JSON. `undefined` object properties are refused, or left out when
 * `skipUndefined` is set (an object built in code, `{ name: undefined }`,
 * means the same as one without the key). Never throws: a getter that throws
 * or a revoked proxy becomes a `NotJson`.
 */
export const copyJson = (
  input: unknown,
  options?: { readonly freeze?: boolean; readonly basePath?: ReadonlyArray<string | number>; readonly skipUndefined?: boolean }
): { readonly value: Schema.Json } | NotJson => {
  const freeze = options?.freeze ?? true
  const skipUndefined = options?.skipUndefined ?? false
  const base = options?.basePath ?? []
  const onPath = new Set<object>()
  const stack: Array<Frame> = []
  let path: ReadonlyArray<string | number> = base
  try {
    const leaf = (u: unknown, at: ReadonlyArray<string | number>): { ok: true; value: unknown } | NotJson => {
      if (u === null || typeof u === "string" || typeof u === "boolean") return { ok: true, value: u }
      if (typeof u === "number") {
        return Number.isFinite(u) ? { ok: true, value: u } : { path: at, reason: `Expected a JSON value, got ${describe(u)}` }
      }
      return { path: at, reason: `Expected a JSON value, got ${describe(u)}` }
    }
    const open = (u: object, at: ReadonlyArray<string | number>): Frame | NotJson => {
      if (onPath.has(u)) return { path: at, reason: "Expected a JSON value, got a cyclic structure" }
      if (Array.isArray(u)) {
        onPath.add(u)
        return { source: u, target: new Array<unknown>(u.length), keys: u.length, index: 0, path: at }
      }
      if (!isPlainObject(u)) return { path: at, reason: `Expected a JSON value, got ${describe(u)}` }
      onPath.add(u)
      return { source: u, target: {}, keys: Object.keys(u), index: 0, path: at }
    }
    let root: unknown
    if (typeof input === "object" && input !== null) {
      const frame = open(input, base)
      if (!("source" in frame)) return frame
      stack.push(frame)
      root = frame.target
    } else {
      const r = leaf(input, base)
      return "ok" in r ? { value: r.value as Schema.Json } : r
    }
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!
      const keys = frame.keys
      const count = typeof keys === "number" ? keys : keys.length
      if (frame.index >= count) {
        stack.pop()
        onPath.delete(frame.source)
        if (freeze) Object.freeze(frame.target)
        continue
      }
      const i = frame.index++
      const key: string | number = typeof keys === "number" ? i : keys[i]!
      path = [...frame.path, key]
      const value: unknown = (frame.source as Record<string | number, unknown>)[key]
      if (value === undefined && skipUndefined && typeof keys !== "number") continue
      let out: unknown
      if (typeof value === "object" && value !== null) {
        const child = open(value, path)
        if (!("source" in child)) return child
        stack.push(child)
        out = child.target
      } else {
        const r = leaf(value, path)
        if (!("ok" in r)) return r
        out = r.value
      }
      if (Array.isArray(frame.target)) frame.target[i] = out
      else defineOwn(frame.target, key as string, out)
    }
    return { value: root as Schema.Json }
  } catch (cause) {
    return { path, reason: `could not read the value: ${errorText(cause)}` }
  }
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
 * `JSON.stringify` for JSON values, without recursion (V8's own overflows
 * near 10,000 levels of nesting) and without throwing. Output is identical to
 * `JSON.stringify(value)` for every JSON value.
 */
export const stringify = (value: Schema.Json): string => {
  if (typeof value !== "object" || value === null) return JSON.stringify(value)
  let out = ""
  // each frame: the container, its keys (or length), the next index
  const stack: Array<{ o: object; keys: ReadonlyArray<string> | number; i: number }> = []
  const push = (o: object): void => {
    if (Array.isArray(o)) {
      out += "["
      stack.push({ o, keys: o.length, i: 0 })
    } else {
      out += "{"
      stack.push({ o, keys: Object.keys(o), i: 0 })
    }
  }
  push(value)
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!
    const count = typeof frame.keys === "number" ? frame.keys : frame.keys.length
    if (frame.i >= count) {
      out += typeof frame.keys === "number" ? "]" : "}"
      stack.pop()
      continue
    }
    const i = frame.i++
    if (i > 0) out += ","
    let v: unknown
    if (typeof frame.keys === "number") {
      v = (frame.o as ReadonlyArray<unknown>)[i]
    } else {
      const k = frame.keys[i]!
      out += JSON.stringify(k) + ":"
      v = (frame.o as Record<string, unknown>)[k]
    }
    if (typeof v === "object" && v !== null) push(v)
    else out += JSON.stringify(v) ?? "null"
  }
  return out
}

/**
 * `JSON.parse` that never throws and never recurses past what V8 allows:
 * the parsed value, or the parse error's message.
 */
export const parse = (text: string): { readonly value: Schema.Json } | { readonly error: string } => {
  try {
    return { value: JSON.parse(text) as Schema.Json }
  } catch (cause) {
    return { error: errorText(cause) }
  }
}
