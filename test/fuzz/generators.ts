/**
 * Generators of bad and hostile input for the fuzz suite.
 *
 * Everything is driven by a seeded PRNG (`makeRng`), so a case is replayed by
 * its class and seed. Realistic starting points come from the property-test
 * arbitraries (`test/arbitraries.ts`, the wire-format arbitraries under
 * `test/providers/`) sampled once with a fixed seed, and from the provider
 * fixtures (`test/providers/fixtures/`); each case then breaks one of them the
 * way its class says:
 *
 * - `random-json`: any JSON value, with the field names of every format as keys;
 * - `truncated`: a payload cut short (a container cut at a random entry, all
 *   the way down one path), or JSON text cut at a random character;
 * - `wrong-types`: one field replaced by a value of another type, or removed;
 * - `unknown-tags`: an unknown role, `_tag` or `type`;
 * - `numbers`: NaN, ±Infinity, -0, 1e308, 5e-324, 2^53 + 1 where a value was;
 * - `surrogates`: lone UTF-16 surrogates in strings and keys;
 * - `proto-keys`: own `__proto__` / `constructor` / `prototype` keys, and
 *   objects whose real prototype carries fields;
 * - `hostile-objects`: throwing getters (throwing non-Errors too), Proxies with
 *   throwing or lying traps, revoked proxies, cycles, class instances,
 *   functions, symbols, BigInts, sparse arrays, getters that change value;
 * - `deep`: a value nested thousands of levels deep;
 * - `huge-strings`: one string of megabytes;
 * - `many-messages`: a very long conversation;
 * - `unknown-fields`: extra fields at random places of a valid payload;
 * - `stream-cuts`: SSE text cut at a random point and split at random points;
 * - `random-bytes`: random bytes (invalid UTF-8 included) and random SSE-like text;
 * - `agent-edges`: what real agent traffic carries that the classes above
 *   rarely reach: tool call ids that collide with another once case-folded,
 *   trimmed or rewritten to a provider's alphabet (or are the same), odd ids
 *   and tool names (empty, a BOM, NUL, a lone surrogate, over a provider's
 *   length), argument text with duplicate keys, numbers a double does not
 *   hold (1e309, 2^53 + 1, -0), a BOM, escaped lone surrogates, U+2028;
 *   argument objects with odd values; a list reordered (a tool result before
 *   its call) or an item given twice; BOMs, NUL and line separators in text.
 */
import { Arbitrary, Effect, type Schema } from "effect"
import { Block, Message, Request } from "../../src/index.js"
import { Anthropic, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import { copyJson, stringify } from "../../src/internal/json.js"
import { agentConversation, brokenConversation, message, validConversation } from "../arbitraries.js"
import { anthropicPrompt, chatMessages } from "../providers/adapterArbitraries.js"
import { geminiMessages, responsesItems } from "../providers/responsesGeminiArbitraries.js"
import * as Payloads from "../providers/fixtures/adapterPayloads.js"
import * as AnthropicFixtures from "../providers/fixtures/anthropic.js"
import * as GeminiFixtures from "../providers/fixtures/gemini.js"
import * as ChatFixtures from "../providers/fixtures/openAiChat.js"
import * as ResponsesFixtures from "../providers/fixtures/openAiResponses.js"
import { type Fixture, sseOf } from "../providers/fixtures/sse.js"

// ---------------------------------------------------------------------------
// the PRNG
// ---------------------------------------------------------------------------

/** A seeded pseudo-random source (mulberry32). */
export interface Rng {
  readonly seed: number
  /** A float in [0, 1). */
  readonly next: () => number
  /** An integer in [0, n). */
  readonly int: (n: number) => number
  /** True with probability `p`. */
  readonly chance: (p: number) => boolean
  readonly pick: <A>(values: ReadonlyArray<A>) => A
}

export const makeRng = (seed: number): Rng => {
  let state = (seed ^ 0x9e3779b9) | 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number): number => Math.floor(next() * n)
  return { seed, next, int, chance: (p) => next() < p, pick: (values) => values[int(values.length)]! }
}

// ---------------------------------------------------------------------------
// classes and sizes
// ---------------------------------------------------------------------------

/** Every class of bad input. */
export const caseClasses = [
  "valid",
  "random-json",
  "truncated",
  "wrong-types",
  "unknown-tags",
  "numbers",
  "surrogates",
  "proto-keys",
  "hostile-objects",
  "deep",
  "huge-strings",
  "many-messages",
  "unknown-fields",
  "stream-cuts",
  "random-bytes",
  "agent-edges"
] as const

export type CaseClass = (typeof caseClasses)[number]

/** Classes whose inputs are big: a few cases each, not hundreds. */
export const heavyClasses: ReadonlySet<CaseClass> = new Set(["deep", "huge-strings", "many-messages"])

/** How big the big cases are. */
export interface Sizes {
  /** Nesting levels of the `deep` class. */
  readonly deepLevels: number
  /** Characters of the `huge-strings` class. */
  readonly hugeChars: number
  /** Messages of the `many-messages` class. */
  readonly manyMessages: number
}

export const shortSizes: Sizes = { deepLevels: 10_000, hugeChars: 2_000_000, manyMessages: 2_000 }
export const longSizes: Sizes = { deepLevels: 10_000, hugeChars: 20_000_000, manyMessages: 1_000_000 }

// ---------------------------------------------------------------------------
// strings and numbers
// ---------------------------------------------------------------------------

const LONE_SURROGATES = ["\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uD83D", "\uDE00"] as const
const ODD_CHARS = ["\u0000", "\u2028", "\u2029", "\uFEFF", "\uFFFD", "\u200B", "\\", '"', "\n", "\r", "\t", "é", "日本", "😀", "\u001F"] as const
const WORDS = ["hello", "weather", "Oslo", "call_1", "toolu_01", "get_weather", "{", "}", "[", "]", ":", ",", "null", "true", "data:", "event:", "[DONE]"] as const

/** A short string: words, odd characters, sometimes a lone surrogate. */
export const randomString = (r: Rng, maxParts = 6): string => {
  let out = ""
  const parts = r.int(maxParts + 1)
  for (let i = 0; i < parts; i++) {
    const k = r.int(10)
    out += k < 5 ? r.pick(WORDS) : k < 8 ? r.pick(ODD_CHARS) : k < 9 ? r.pick(LONE_SURROGATES) : String.fromCharCode(r.int(0x10000))
  }
  return out
}

/** A string holding at least one lone surrogate, at the start, the end or inside. */
export const surrogateString = (r: Rng, base = "text"): string => {
  const s = r.pick(LONE_SURROGATES)
  switch (r.int(4)) {
    case 0:
      return s + base
    case 1:
      return base + s
    case 2:
      return base.slice(0, base.length >> 1) + s + base.slice(base.length >> 1)
    default:
      return `${s}${base}${r.pick(LONE_SURROGATES)}`
  }
}

/** A string of about `chars` characters: mixed scripts, escapes, a lone surrogate near the end. */
export const hugeString = (r: Rng, chars: number): string => {
  const unit = r.pick(["The quick brown fox. ", "天气很好，我们去公园吧。", '{"a": [1, 2, "x\\n"]} ', "é😀\t\"\\ ", "a"])
  const times = Math.max(1, Math.floor(chars / unit.length))
  return unit.repeat(times) + (r.chance(0.5) ? r.pick(LONE_SURROGATES) : "")
}

export const ODD_NUMBERS: ReadonlyArray<number> = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -0,
  1e308,
  -1e308,
  5e-324,
  2 ** 53 + 1,
  -(2 ** 53) - 1,
  1e21,
  0.1 + 0.2,
  -1,
  4294967296,
  2147483648
]

// ---------------------------------------------------------------------------
// JSON values and paths
// ---------------------------------------------------------------------------

/** Keys every format uses, so random JSON reaches past the first shape check. */
const FIELD_KEYS = [
  "role", "content", "type", "_tag", "text", "id", "name", "args", "arguments", "input", "tool_calls", "toolCalls",
  "toolCallId", "toolName", "tool_call_id", "tool_use_id", "function", "parts", "functionCall", "functionResponse",
  "contents", "messages", "system", "systemInstruction", "metadata", "providerOptions", "choices", "delta", "index",
  "usage", "output", "item", "call_id", "thinking", "signature", "data", "source", "model", "candidates", "message",
  "content_block", "isError", "is_error", "citations", "status", "summary", "response", "__proto__", "constructor", "prototype"
] as const

const ROLES = ["system", "user", "assistant", "tool", "developer", "model", "function"] as const

/** Any JSON value, up to `depth` levels of containers. */
export const randomJson = (r: Rng, depth = 4): Schema.Json => {
  const k = r.int(depth <= 0 ? 5 : 8)
  switch (k) {
    case 0:
      return null
    case 1:
      return r.chance(0.5)
    case 2:
      return r.chance(0.7) ? r.int(1000) - 100 : r.next() * 1e6
    case 3:
      return r.chance(0.3) ? r.pick(ROLES) : randomString(r)
    case 4:
      return r.pick(["", "x", "user", "assistant", "text", "tool_use", "function_call", "ToolCall", "Text"])
    case 5:
    case 6: {
      const out: Record<string, Schema.Json> = {}
      const n = r.int(5)
      for (let i = 0; i < n; i++) setOwn(out, r.chance(0.8) ? r.pick(FIELD_KEYS) : randomString(r, 2), randomJson(r, depth - 1))
      return out
    }
    default: {
      const n = r.int(5)
      const out: Array<Schema.Json> = []
      for (let i = 0; i < n; i++) out.push(randomJson(r, depth - 1))
      return out
    }
  }
}

/** Sets an own data property, `__proto__` included. */
export const setOwn = (o: Record<string, unknown>, key: string, value: unknown): void => {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true })
}

type Path = ReadonlyArray<string | number>

/** Paths of every node of a JSON value (breadth-first, at most `max`), the root included. */
export const pathsOf = (value: unknown, max = 4000): Array<Path> => {
  const out: Array<Path> = []
  const queue: Array<readonly [unknown, Path]> = [[value, []]]
  for (let q = 0; q < queue.length && out.length < max; q++) {
    const [v, path] = queue[q]!
    out.push(path)
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) queue.push([v[i], [...path, i]])
    else if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) queue.push([(v as Record<string, unknown>)[k], [...path, k]])
  }
  return out
}

export const getAt = (value: unknown, path: Path): unknown => {
  let v = value
  for (const k of path) v = (v as Record<string | number, unknown>)[k]
  return v
}

/** A copy of `value` with the node at `path` replaced by `f(node)` (`remove` deletes it); containers along the path are copied. */
export const updateAt = (value: unknown, path: Path, f: (node: unknown) => unknown, remove = false): unknown => {
  if (path.length === 0) return f(value)
  const copy = (v: unknown): Record<string | number, unknown> =>
    Array.isArray(v) ? [...v] as unknown as Record<number, unknown> : copyObject(v as Record<string, unknown>)
  const root = copy(value)
  let parent = root
  for (let i = 0; i < path.length - 1; i++) {
    const child = copy(parent[path[i]!])
    setOwn(parent as Record<string, unknown>, String(path[i]!), child)
    parent = child
  }
  const last = path[path.length - 1]!
  if (remove) {
    if (Array.isArray(parent) && typeof last === "number") parent.splice(last, 1)
    else delete parent[last]
  } else if (Array.isArray(parent)) {
    parent[last as number] = f(parent[last])
  } else {
    setOwn(parent as Record<string, unknown>, String(last), f(parent[last]))
  }
  return root
}

const copyObject = (o: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(o)) setOwn(out, k, o[k])
  return out
}

const isContainer = (v: unknown): v is object => typeof v === "object" && v !== null

// ---------------------------------------------------------------------------
// hostile values
// ---------------------------------------------------------------------------

class Point {
  constructor(readonly x: number) {}
}

/** A thrown value that is not an Error and cannot be turned into a string. */
const unprintable = (): unknown => Object.create(null)

/** Values no JSON decoder should ever see: each one must become a tagged error (or be skipped), never an exception. */
export const hostileValues: ReadonlyArray<(r: Rng, like: unknown) => unknown> = [
  () => ({ get role(): unknown { throw new Error("getter boom") }, content: "x" }),
  () => ({ role: "user", get content(): unknown { throw unprintable() } }),
  (_r, like) => new Proxy(isContainer(like) ? like : {}, { get: () => { throw new Error("proxy get") } }),
  (_r, like) => new Proxy(isContainer(like) ? like : {}, { ownKeys: () => { throw new Error("proxy ownKeys") } }),
  (_r, like) => new Proxy(isContainer(like) ? like : {}, { getPrototypeOf: () => { throw new Error("proxy getPrototypeOf") } }),
  (_r, like) => new Proxy(isContainer(like) ? like : {}, { getOwnPropertyDescriptor: () => { throw unprintable() } }),
  (_r, like) => new Proxy(isContainer(like) ? like : {}, { has: () => { throw new Error("proxy has") } }),
  // a Proxy whose keys lie: it lists fields it does not have
  () => new Proxy({}, { ownKeys: () => ["role", "content", "type"], getOwnPropertyDescriptor: () => ({ value: "user", enumerable: true, configurable: true }) }),
  () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    return proxy
  },
  // an array Proxy: Array.isArray says yes, reading an element throws
  (_r, like) => new Proxy(Array.isArray(like) ? [...like] : [1, 2, 3], { get: (t, k) => (k === "length" ? Reflect.get(t, k) : (() => { throw new Error("array proxy") })()) }),
  // an array Proxy whose length throws
  () => new Proxy([], { get: (t, k) => (k === "length" ? (() => { throw new Error("length") })() : Reflect.get(t, k)) }),
  (_r, like) => {
    const o: Record<string, unknown> = isContainer(like) && !Array.isArray(like) ? copyObject(like as Record<string, unknown>) : { role: "user" }
    o["self"] = o
    return o
  },
  (_r, like) => {
    const a: Array<unknown> = Array.isArray(like) ? [...like] : [1]
    a.push(a)
    return a
  },
  () => new Date(0),
  () => new Map([["role", "user"]]),
  () => new Set([1]),
  () => /re/g,
  () => new Uint8Array([1, 2, 3]),
  () => new Error("an error value"),
  () => new Point(1),
  () => new String("boxed"),
  () => () => "a function",
  () => Symbol("sym"),
  () => 10n,
  () => undefined,
  () => [1, , 3], // a hole
  () => Object.assign([1, 2], { extra: "field" }),
  () => ({ [Symbol("k")]: 1, role: "user", content: "x" }),
  () => {
    let n = 0
    return { role: "assistant", get content(): unknown { return n++ % 2 === 0 ? "x" : [{ _tag: "Unknown" }] } }
  },
  () => ({ toJSON: () => { throw new Error("toJSON boom") }, role: "user", content: "x" }),
  () => ({ role: "user", content: "x", [Symbol.toPrimitive]: () => { throw new Error("toPrimitive") } }),
  () => Object.create({ role: "user", content: "inherited" }),
  () => Object.assign(Object.create(null), { role: "user", content: "null prototype" }),
  () => Object.freeze({ role: "user", content: "frozen" }),
  () => ({ get length(): number { throw new Error("length getter") }, 0: "x" })
]

export const hostileValue = (r: Rng, like: unknown): unknown => r.pick(hostileValues)(r, like)

/** An array that is hostile itself (a Proxy that throws, a cycle, a hole): still an `Iterable`, for parameters typed as one. */
export const hostileArray = (r: Rng, like: ReadonlyArray<unknown>): Array<unknown> => {
  switch (r.int(5)) {
    case 0:
      return new Proxy([...like], { get: (t, k) => (k === "length" || k === Symbol.iterator ? Reflect.get(t, k) : (() => { throw new Error("array proxy") })()) })
    case 1:
      return new Proxy([...like], { get: (t, k) => (k === Symbol.iterator ? (() => { throw new Error("iterator") })() : Reflect.get(t, k)) })
    case 2: {
      const a: Array<unknown> = [...like]
      a.push(a)
      return a
    }
    case 3:
      return Object.assign([...like, , undefined], { extra: "field" })
    default: {
      const a = [...like]
      Object.defineProperty(a, 0, { get: () => { throw unprintable() }, enumerable: true })
      return a
    }
  }
}

/** `levels` levels of nesting around a leaf: objects, arrays, or both in turn. */
export const deepValue = (levels: number, kind: "object" | "array" | "mixed", leaf: Schema.Json = "leaf"): Schema.Json => {
  let v: Schema.Json = leaf
  for (let i = 0; i < levels; i++) v = kind === "array" || (kind === "mixed" && i % 2 === 1) ? [v] : { a: v }
  return v
}

/** JSON text of `levels` levels of nesting (to be parsed by the code under test). */
export const deepText = (levels: number, kind: "object" | "array"): string =>
  kind === "array" ? "[".repeat(levels) + "1" + "]".repeat(levels) : '{"a":'.repeat(levels) + "1" + "}".repeat(levels)

// ---------------------------------------------------------------------------
// mutations of a valid value, one per class
// ---------------------------------------------------------------------------

const pathOfType = (r: Rng, value: unknown, p: (node: unknown, path: Path) => boolean): Path | undefined => {
  const paths = pathsOf(value).filter((path) => p(getAt(value, path), path))
  return paths.length === 0 ? undefined : r.pick(paths)
}

const anyPath = (r: Rng, value: unknown): Path => r.pick(pathsOf(value))

const wrongTypeFor = (r: Rng, node: unknown): unknown => {
  const options: Array<unknown> = [null, 0, 1.5, -1, true, false, "", "x", [], {}, [null], { x: 1 }]
  for (let i = 0; i < 8; i++) {
    const v = r.pick(options)
    if (typeof v !== typeof node || Array.isArray(v) !== Array.isArray(node) || (v === null) !== (node === null)) return v
  }
  return "a string where something else was"
}

/** Cuts containers short along one random path: what is left of a payload whose text was cut and then closed. */
export const truncateValue = (r: Rng, value: unknown): unknown => {
  if (Array.isArray(value)) {
    if (value.length === 0) return value
    const keep = r.int(value.length)
    const out = value.slice(0, keep + 1)
    out[keep] = r.chance(0.7) ? truncateValue(r, out[keep]) : out[keep]
    return out
  }
  if (isContainer(value)) {
    const keys = Object.keys(value)
    if (keys.length === 0) return value
    const keep = r.int(keys.length)
    const out: Record<string, unknown> = {}
    for (let i = 0; i <= keep; i++) setOwn(out, keys[i]!, (value as Record<string, unknown>)[keys[i]!])
    if (r.chance(0.7)) setOwn(out, keys[keep]!, truncateValue(r, out[keys[keep]!]))
    return out
  }
  if (typeof value === "string") return value.slice(0, r.int(value.length + 1))
  return value
}

/** Options of `mutate`: how big the big classes are. */
export interface MutateOptions {
  readonly sizes: Sizes
}

/**
 * A broken version of a valid JSON value, in the given class (`valid`
 * returns it as is). Classes that do not apply to one value (`many-messages`,
 * `stream-cuts`, `random-bytes`) fall back to `random-json`.
 */
export const mutate = (cls: CaseClass, r: Rng, value: unknown, options: MutateOptions): unknown => {
  switch (cls) {
    case "valid":
      return value
    case "random-json":
      return r.chance(0.5) ? randomJson(r) : updateAt(value, anyPath(r, value), () => randomJson(r))
    case "truncated":
      return truncateValue(r, value)
    case "wrong-types": {
      const path = anyPath(r, value)
      if (path.length > 0 && r.chance(0.25)) return updateAt(value, path, (v) => v, true)
      return updateAt(value, path, (node) => wrongTypeFor(r, node))
    }
    case "unknown-tags": {
      const path = pathOfType(r, value, (_node, p) => {
        const k = p[p.length - 1]
        return k === "role" || k === "_tag" || k === "type"
      })
      const unknown = r.pick(["", "developer", "function", "model", "Tool", "ToolCall2", "x_unknown_block", "computer_call", "image_generation_call", "__proto__", "constructor", "USER", "text "])
      return path === undefined ? updateAt(value, anyPath(r, value), () => ({ type: unknown })) : updateAt(value, path, () => unknown)
    }
    case "numbers": {
      if (r.chance(0.25)) {
        // a number inside text: an index in a path, a count in a string
        const path = pathOfType(r, value, (node) => typeof node === "string" && /\d/.test(node))
        if (path !== undefined) return updateAt(value, path, (node) => (node as string).replace(/\d+/, r.pick(["4294967294", "2147483648", "99999999999999999999", "1e308", "1e999"])))
      }
      const path = pathOfType(r, value, (node) => typeof node === "number") ?? anyPath(r, value)
      return updateAt(value, path, () => r.pick(ODD_NUMBERS))
    }
    case "surrogates": {
      if (r.chance(0.3)) {
        const path = pathOfType(r, value, (node) => isContainer(node) && !Array.isArray(node))
        if (path !== undefined) {
          return updateAt(value, path, (node) => {
            const o = copyObject(node as Record<string, unknown>)
            setOwn(o, surrogateString(r, "key"), randomJson(r, 1))
            return o
          })
        }
      }
      const path = pathOfType(r, value, (node) => typeof node === "string") ?? anyPath(r, value)
      return updateAt(value, path, (node) => surrogateString(r, typeof node === "string" ? node : "x"))
    }
    case "proto-keys": {
      const key = r.pick(["__proto__", "constructor", "prototype"])
      const payload = r.pick<unknown>([{ polluted: true }, { toString: "x", valueOf: 1 }, "string", null, [1], { prototype: { polluted: true } }])
      if (r.chance(0.25)) {
        // a prototype key as a value: a type, role, name or file name looked up in a table
        const path = pathOfType(r, value, (node) => typeof node === "string") ?? anyPath(r, value)
        return updateAt(value, path, () =>
          r.pick([
            "__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "file.constructor", "image.__proto__",
            // paths into an object, as a stream's argument fragments carry them
            "$.__proto__.polluted", "$['__proto__']['polluted']", "$.constructor.prototype.polluted", "$.a.__proto__.polluted"
          ]))
      }
      const path = pathOfType(r, value, (node) => isContainer(node) && !Array.isArray(node)) ?? []
      switch (r.int(3)) {
        case 0:
          // an own key, as JSON.parse makes it
          return updateAt(value, path, (node) => {
            const o = isContainer(node) && !Array.isArray(node) ? copyObject(node as Record<string, unknown>) : {}
            setOwn(o, key, payload)
            return o
          })
        case 1:
          // the same, from JSON text
          return updateAt(value, path, (node) => {
            const o = isContainer(node) && !Array.isArray(node) ? copyObject(node as Record<string, unknown>) : {}
            const parsed = JSON.parse(`{"${key}": {"polluted": true, "role": "user"}}`) as Record<string, unknown>
            setOwn(o, key, parsed[key])
            return o
          })
        default:
          // an object whose real prototype carries fields
          return updateAt(value, path, (node) => Object.setPrototypeOf(isContainer(node) && !Array.isArray(node) ? copyObject(node as Record<string, unknown>) : {}, { polluted: true, role: "user", type: "text" }))
      }
    }
    case "hostile-objects":
      return r.chance(0.15) ? hostileValue(r, value) : updateAt(value, anyPath(r, value), (node) => hostileValue(r, node))
    case "deep": {
      const kind = r.pick(["object", "array", "mixed"] as const)
      const path = anyPath(r, value)
      return updateAt(value, path, () => deepValue(options.sizes.deepLevels, kind))
    }
    case "huge-strings": {
      const path = pathOfType(r, value, (node) => typeof node === "string") ?? anyPath(r, value)
      return updateAt(value, path, () => hugeString(r, options.sizes.hugeChars))
    }
    case "unknown-fields": {
      let out = value
      const n = 1 + r.int(3)
      for (let i = 0; i < n; i++) {
        const path = pathOfType(r, out, (node) => isContainer(node) && !Array.isArray(node))
        if (path === undefined) break
        out = updateAt(out, path, (node) => {
          const o = copyObject(node as Record<string, unknown>)
          setOwn(o, `x_${r.pick(["vendor", "extra", "new_field", "debug"])}_${r.int(100)}`, randomJson(r, 2))
          return o
        })
      }
      return out
    }
    case "agent-edges":
      return agentEdge(r, value)
    case "many-messages":
    case "stream-cuts":
    case "random-bytes":
      return mutate("random-json", r, value, options)
    default:
      return absurd(cls)
  }
}

// ---------------------------------------------------------------------------
// agent edges
// ---------------------------------------------------------------------------

const ID_KEYS: ReadonlySet<string | number> = new Set(["id", "toolCallId", "tool_call_id", "tool_use_id", "call_id", "callId", "item_id"])
const NAME_KEYS: ReadonlySet<string | number> = new Set(["name", "toolName"])
const ARGUMENT_TEXT_KEYS: ReadonlySet<string | number> = new Set(["arguments", "rawArgs", "partial_json"])
const ARGUMENT_VALUE_KEYS: ReadonlySet<string | number> = new Set(["args", "input", "params"])

/** Ids that differ from `id` but collide with it once case-folded, trimmed, stripped of invisible characters or rewritten to `[a-zA-Z0-9_-]`; or `id` itself. */
export const collidingId = (r: Rng, id: string): string =>
  r.pick([
    id,
    id.toUpperCase(),
    id.toLowerCase(),
    ` ${id}`,
    `${id} `,
    `${id}\n`,
    `\uFEFF${id}`,
    `${id}\u0000`,
    `${id}\u200B`,
    id.replace(/_/g, "-"),
    id.replace(/[_-]/g, "."),
    `${id}.`,
    `${id}/`,
    id.normalize("NFD"),
    `${id}${r.pick(LONE_SURROGATES)}`
  ])

/** Tool call ids real traffic (other SDKs, gateways, hand-made histories) carries. */
const ODD_IDS = [
  "", " ", "\u0000", "\uFEFF", "\uFEFFcall_1", "call_1\u2028", "call 1", "call.1", "call/1", "../call", "🙂", "\uD800", "call_1\uDC00",
  "x".repeat(41), "x".repeat(65), "x".repeat(129), "id_".repeat(2000), "__proto__", "constructor", "toString", "0", "NaN", "null", "CALL_1", "call_1 "
] as const

/** Tool names real traffic carries: empty, invisible characters, over a provider's length, prototype keys. */
const ODD_NAMES = [
  "", " ", "\u0000", "get weather", "get_weather\uFEFF", "\uFEFFget_weather", "get_weather ", "GET_WEATHER", "a".repeat(65), "a".repeat(129),
  "__proto__", "constructor", "toString", "hasOwnProperty", "ns.tool:name", "1tool", "ünïcode", "get_weather\u2028", "tool\uD800", "mcp__server__tool"
] as const

/** Tool-argument text as models and gateways send it: duplicate keys, numbers a double does not hold, a BOM, escaped lone surrogates. */
export const EDGE_ARGUMENT_TEXTS: ReadonlyArray<string> = [
  '{"a":1,"a":2}',
  '{"city":"Oslo","city":"Bergen","days":3}',
  '{"a":{"b":1},"a":[2]}',
  '{"__proto__":1,"__proto__":{"polluted":true}}',
  '{"n":1e309}',
  '{"n":-1e309}',
  '{"n":1E400,"m":2}',
  '{"n":-0}',
  '{"n":-0.0e0}',
  '{"n":9007199254740993}',
  '{"n":-9007199254740993}',
  '{"n":123456789012345678901234567890}',
  '{"n":1e-400}',
  '{"n":1.50}',
  '{"n":0.1e1}',
  '[1e309]',
  '1e309',
  '-0',
  '\uFEFF{"a":1}',
  '{"a":1}\uFEFF',
  '\uFEFF',
  '{"s":"\\ud800"}',
  '{"s":"\\udc00x\\ud83d"}',
  '{"\\ud800":1}',
  '{"s":"a\u2028b\u2029c"}',
  '{"s":"\\u2028"}',
  '{"s":"\\u0000"}',
  '{"s":"a\u0000b"}',
  '{"":""}',
  '{"a":1}\n',
  ' \t\r\n{"a":1}\r\n',
  '{"a":1}{"b":2}',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1',
  "",
  " ",
  "null",
  "[]",
  '"a string"',
  "true",
  `{"a":${"[".repeat(20)}1${"]".repeat(20)}}`,
  `{"deep":${"[".repeat(3000)}${"]".repeat(3000)}}`,
  `{${Array.from({ length: 300 }, (_, i) => `"k":${i}`).join(",")}}`
]

/** Argument values with odd leaves: -0, 2^53 + 1, the largest doubles, empty and prototype keys, deep arrays, and values that are not objects. */
const edgeArgumentValue = (r: Rng): unknown => {
  const own = (key: string, value: unknown): Record<string, unknown> => {
    const o: Record<string, unknown> = {}
    setOwn(o, key, value)
    return o
  }
  return r.pick<() => unknown>([
    () => ({ n: -0 }),
    () => ({ n: 2 ** 53 + 1, m: -(2 ** 53) - 1 }),
    () => ({ n: 1.7976931348623157e308, m: 5e-324 }),
    () => ({ "": "" }),
    () => own("__proto__", { polluted: true }),
    () => own("constructor", { prototype: { polluted: true } }),
    () => ({ s: "\u2028\u2029\u0000\uFEFF" }),
    () => ({ s: surrogateString(r) }),
    () => own(surrogateString(r, "key"), 1),
    () => ({ deep: deepValue(2000, "array") }),
    () => [],
    () => [1, 2],
    () => "text",
    () => "",
    () => null,
    () => 0,
    () => ({})
  ])()
}

/** A string with a BOM, NUL, a line separator or CRLF put in. */
const edgeText = (r: Rng, s: string): string => {
  const at = r.int(s.length + 1)
  const put = r.pick(["\uFEFF", "\u0000", "\u2028", "\u2029", "\r\n", "\r", "\u200B", "\u0085"])
  return r.chance(0.5) ? put + s : s.slice(0, at) + put + s.slice(at)
}

/**
 * One of the `agent-edges` changes to a JSON value (see the module doc); a
 * text edge in a string when the chosen change finds no place. `typed`: only
 * the changes that keep a typed structure's shape (a string id or name for
 * another, a text edge in a `text`), for values such as an effect/ai `Prompt`.
 */
export const agentEdge = (r: Rng, value: unknown, typed = false): unknown => {
  const keyed = (keys: ReadonlySet<string | number>, type?: "string") =>
    pathsOf(value).filter((p) => p.length > 0 && keys.has(p[p.length - 1]!) && (type === undefined || typeof getAt(value, p) === type))
  switch (r.int(typed ? 3 : 7)) {
    case 0: {
      // two ids that collide after normalizing (or are the same)
      const ids = keyed(ID_KEYS, "string")
      if (ids.length < 1) break
      const from = r.pick(ids)
      const to = r.pick(ids)
      const id = getAt(value, from) as string
      return updateAt(value, to, () => collidingId(r, id))
    }
    case 1: {
      const ids = keyed(ID_KEYS, "string")
      if (ids.length === 0) break
      return updateAt(value, r.pick(ids), () => r.pick(ODD_IDS))
    }
    case 2: {
      const names = keyed(NAME_KEYS, "string")
      if (names.length === 0) break
      return updateAt(value, r.pick(names), () => r.pick(ODD_NAMES))
    }
    case 3: {
      const texts = keyed(ARGUMENT_TEXT_KEYS, "string")
      if (texts.length > 0) return updateAt(value, r.pick(texts), () => r.pick(EDGE_ARGUMENT_TEXTS))
      const values = keyed(ARGUMENT_VALUE_KEYS)
      if (values.length > 0) return updateAt(value, r.pick(values), () => edgeArgumentValue(r))
      break
    }
    case 4: {
      const values = keyed(ARGUMENT_VALUE_KEYS)
      if (values.length === 0) break
      return updateAt(value, r.pick(values), () => edgeArgumentValue(r))
    }
    case 5: {
      // a list reordered (a tool result before its call) or an item given twice
      const lists = pathsOf(value).filter((p) => {
        const node = getAt(value, p)
        return Array.isArray(node) && node.length >= 2
      })
      if (lists.length === 0) break
      return updateAt(value, r.pick(lists), (node) => {
        const list = [...(node as Array<unknown>)]
        const from = r.int(list.length)
        const to = r.int(list.length)
        if (r.chance(0.3)) list.splice(to, 0, list[from])
        else list.splice(to, 0, ...list.splice(from, 1))
        return list
      })
    }
    default:
      break
  }
  const strings = pathsOf(value).filter((p) => typeof getAt(value, p) === "string" && (!typed || p[p.length - 1] === "text"))
  if (strings.length === 0) return typed ? value : updateAt(value, anyPath(r, value), () => edgeArgumentValue(r))
  return updateAt(value, r.pick(strings), (node) => edgeText(r, node as string))
}

const absurd = (x: never): never => {
  throw new Error(`unexpected ${String(x)}`)
}

// ---------------------------------------------------------------------------
// text
// ---------------------------------------------------------------------------

/**
 * JSON text that `JSON.stringify` would write, without recursion (deep
 * values); a value that is not JSON (a cycle, a throwing getter) gives text
 * that is not JSON either.
 */
export const textOf = (value: unknown): string => {
  const copy = copyJson(value, { freeze: false, skipUndefined: true })
  if (!("value" in copy)) return `{"not json": ${JSON.stringify(copy.reason)}`
  try {
    // one flat string: the iterative writer's many small pieces of a million messages make gigabytes of rope
    return JSON.stringify(copy.value)
  } catch {
    // nested too deep for JSON.stringify
    return stringify(copy.value)
  }
}

/** Broken text: cut, spliced, with odd characters or line ends. */
export const mutateText = (r: Rng, text: string): string => {
  const at = r.int(text.length + 1)
  switch (r.int(8)) {
    case 0:
      return text.slice(0, at)
    case 1:
      return text.slice(0, at) + randomString(r) + text.slice(at)
    case 2:
      return text.slice(0, at) + text.slice(Math.min(text.length, at + 1 + r.int(40)))
    case 3:
      return text.replace(/\n/g, r.pick(["\r\n", "\r", "\n\n", ""]))
    case 4:
      return text.slice(0, at) + r.pick(LONE_SURROGATES) + text.slice(at)
    case 5:
      return text.slice(0, at) + "\u0000" + text.slice(at)
    case 6: {
      const end = Math.min(text.length, at + r.int(200))
      return text.slice(0, end) + text.slice(at, end) + text.slice(end)
    }
    default:
      return text.slice(at) + text.slice(0, at)
  }
}

/** Random bytes, invalid UTF-8 included. */
export const randomBytes = (r: Rng, length: number): Uint8Array => {
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) out[i] = r.chance(0.2) ? r.pick([10, 13, 58, 32, 0xef, 0xbb, 0xbf, 0xc3, 0xf0, 0x9f, 0xff, 0x80]) : r.int(256)
  return out
}

/** Random text shaped like SSE: `data:` and `event:` lines, comments, line ends of every kind. */
export const randomSseText = (r: Rng): string => {
  let out = ""
  const lines = r.int(30)
  for (let i = 0; i < lines; i++) {
    const k = r.int(8)
    out += k === 0 ? `event: ${randomString(r, 2)}` : k === 1 ? `: keep-alive` : k === 2 ? "" : k === 3 ? `id: ${r.int(99)}` : `data: ${r.chance(0.5) ? textOf(randomJson(r)) : randomString(r)}`
    out += r.pick(["\n", "\r\n", "\r", "\n\n"])
  }
  return out
}

/** Cuts a text (or bytes) into pieces at random points. */
export const splitRandomly = <A extends string | Uint8Array>(r: Rng, whole: A, maxPieces = 12): Array<A> => {
  const points = new Set<number>()
  const n = r.int(maxPieces)
  for (let i = 0; i < n; i++) points.add(r.int(whole.length + 1))
  const sorted = [...points].sort((a, b) => a - b)
  const out: Array<A> = []
  let from = 0
  for (const p of sorted) {
    out.push(whole.slice(from, p) as A)
    from = p
  }
  out.push(whole.slice(from) as A)
  return out
}

// ---------------------------------------------------------------------------
// realistic starting points
// ---------------------------------------------------------------------------

const sample = <A>(arb: Arbitrary.Arbitrary<A>, count: number, seed: number): ReadonlyArray<A> =>
  Effect.runSync(Arbitrary.sampleEffect(arb, { count, seed }))

const run = <A, E>(effect: Effect.Effect<{ readonly value: A }, E>): A | undefined => {
  const exit = Effect.runSyncExit(effect)
  return exit._tag === "Success" ? exit.value.value : undefined
}

const json = (value: unknown): Schema.Json => JSON.parse(JSON.stringify(value)) as Schema.Json

/** The wire payloads of one provider: conversations, request bodies, responses, stream transcripts. */
export interface WireCorpus {
  readonly messages: ReadonlyArray<Schema.Json>
  readonly requests: ReadonlyArray<Schema.Json>
  readonly responses: ReadonlyArray<Schema.Json>
  readonly streams: ReadonlyArray<Fixture>
}

/** Every realistic starting point, sampled once. */
export interface Corpus {
  /** Conversations in the model: valid, broken, agent-shaped. */
  readonly conversations: ReadonlyArray<ReadonlyArray<Message.Message>>
  /** The same conversations as JSON: canonical, or in the flat format. */
  readonly encoded: ReadonlyArray<Schema.Json>
  readonly wire: {
    readonly "openai-chat": WireCorpus
    readonly anthropic: WireCorpus
    readonly "openai-responses": WireCorpus
    readonly gemini: WireCorpus
  }
}

/** The flat format of a message, where it has one (text-only content, calls as `toolCalls`, one result on the message). */
const flatOf = (m: Message.Message): Schema.Json => {
  const encoded = json(Message.encode(m)) as Record<string, Schema.Json>
  const onlyText = m.content.every((b) => b._tag === "Text" && b.citations === undefined && b.providerOptions === undefined && b.itemId === undefined && b.thoughtSignature === undefined)
  switch (m.role) {
    case "system":
    case "user":
      return onlyText ? { ...encoded, content: Message.textOf(m) } : encoded
    case "assistant": {
      const calls = m.content.filter((b) => b._tag === "ToolCall")
      const rest = m.content.filter((b) => b._tag !== "ToolCall")
      if (!rest.every((b) => b._tag === "Text" && b.citations === undefined && b.providerOptions === undefined)) return encoded
      return { ...encoded, content: rest.map((b) => (b._tag === "Text" ? b.text : "")).join(""), toolCalls: calls.map((c) => json(c)) }
    }
    case "tool": {
      const [only] = m.content
      if (m.content.length !== 1 || only === undefined) return encoded
      const { content: _content, ...fields } = encoded
      return { ...fields, content: json(only.content), toolCallId: only.toolCallId, toolName: only.toolName, isError: only.isError }
    }
  }
}

const requestOf = (messages: ReadonlyArray<Message.Message>): Request.Request =>
  Request.make(messages, {
    model: "model-x",
    tools: [Request.tool("get_weather", { description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } } })],
    toolChoice: "auto"
  })

let cached: Corpus | undefined

/** The corpus, built on first use (a fixed seed: the same inputs every run). */
export const corpus = (): Corpus => {
  if (cached !== undefined) return cached
  const conversations = [
    ...sample(validConversation, 24, 11),
    ...sample(brokenConversation, 24, 12),
    ...sample(agentConversation, 12, 13),
    ...sample(message, 12, 14).map((m) => [m])
  ]
  const encoded = conversations.flatMap((c, i): Array<Schema.Json> => {
    const canonical = json(Message.encodeAll(c))
    return i % 3 === 0 ? [canonical, c.map(flatOf)] : [canonical]
  })
  const model = conversations.slice(0, 30)
  const written = <A>(write: (m: ReadonlyArray<Message.Message>) => A | undefined): Array<Schema.Json> =>
    model.flatMap((c) => {
      const v = write(c)
      return v === undefined ? [] : [json(v)]
    })
  const chatConversations = sample(chatMessages, 20, 21).map(json)
  const anthropicPrompts = sample(anthropicPrompt, 20, 22).map(json)
  const responsesInput = sample(responsesItems, 20, 23).map(json)
  const geminiInput = sample(geminiMessages, 20, 24).map(json)
  cached = {
    conversations,
    encoded,
    wire: {
      "openai-chat": {
        messages: [...chatConversations, ...written((m) => run(OpenAiChat.toMessages(m)))],
        requests: [
          json(Payloads.chatParallelRequest),
          json(Payloads.chatMediaRequest),
          ...written((m) => run(OpenAiChat.toRequest(requestOf(m))))
        ],
        responses: [json(Payloads.chatToolCallsResponse), json(Payloads.chatRefusalResponse), json(Payloads.chatAudioResponse), ...ChatFixtures.all.map((f) => json(f.expected))],
        streams: ChatFixtures.all
      },
      anthropic: {
        messages: [...anthropicPrompts, ...written((m) => run(Anthropic.toMessages(m)))],
        requests: [
          json(Payloads.anthropicToolsRequest),
          json(Payloads.anthropicThinkingRequest),
          json(Payloads.anthropicMediaRequest),
          json(Payloads.anthropicServerToolRequest),
          ...written((m) => run(Anthropic.toRequest(requestOf(m), { maxTokens: 1024 })))
        ],
        responses: [
          json(Payloads.anthropicToolUseResponse),
          json(Payloads.anthropicRefusalResponse),
          json(Payloads.anthropicServerToolResponse),
          ...AnthropicFixtures.all.map((f) => json(f.expected))
        ],
        streams: AnthropicFixtures.all
      },
      "openai-responses": {
        messages: [...responsesInput, ...written((m) => run(OpenAiResponses.toMessages(m)))],
        requests: written((m) => run(OpenAiResponses.toRequest(requestOf(m)))),
        responses: ResponsesFixtures.all.map((f) => json(f.expected)),
        streams: ResponsesFixtures.all
      },
      gemini: {
        messages: [...geminiInput, ...written((m) => run(Gemini.toMessages(m)))],
        requests: written((m) => run(Gemini.toRequest(requestOf(m)))),
        responses: GeminiFixtures.all.map((f) => json(f.expected)),
        streams: GeminiFixtures.all
      }
    }
  }
  return cached
}

/** The effect/ai prompts of the model conversations (the `Prompt` values `fromPrompt` reads). */
export const promptsOf = (conversations: ReadonlyArray<ReadonlyArray<Message.Message>>): Array<unknown> =>
  conversations.flatMap((c) => {
    const p = run(EffectAi.toPrompt(c))
    return p === undefined ? [] : [p]
  })

// ---------------------------------------------------------------------------
// big cases
// ---------------------------------------------------------------------------

/** A long tool-using conversation of `size` messages, as JSON (canonical). */
export const manyMessagesJson = (r: Rng, size: number): Array<Schema.Json> => {
  const out: Array<Schema.Json> = []
  const shape = r.int(4)
  for (let k = 0; out.length < size; k++) {
    switch (shape) {
      case 0: {
        const id = `call_${k}`
        out.push({ role: "user", content: [{ _tag: "Text", text: `step ${k}` }] })
        out.push({ role: "assistant", content: [{ _tag: "ToolCall", id, name: "read_file", args: { path: `f${k}` } }] })
        out.push({ role: "tool", content: [{ _tag: "ToolResult", toolCallId: id, toolName: "read_file", content: "ok" }] })
        break
      }
      case 1:
        // one id reused by every call
        out.push({ role: "assistant", content: [{ _tag: "ToolCall", id: "same", name: "f", args: {} }] })
        out.push({ role: "tool", content: [{ _tag: "ToolResult", toolCallId: "same", toolName: "f", content: "" }] })
        break
      case 2:
        // one long same-role run
        out.push({ role: "user", content: [{ _tag: "Text", text: `u${k}` }] })
        break
      default:
        // a broken history: orphans and unanswered calls
        out.push(k % 2 === 0 ? { role: "tool", content: [{ _tag: "ToolResult", toolCallId: `orphan_${k}`, toolName: "f", content: "x" }] } : { role: "assistant", content: [{ _tag: "ToolCall", id: `c${k}`, name: "f", args: { k } }] })
    }
  }
  out.length = size
  return out
}

/** The model of a JSON conversation, for the big cases (messages that do not decode are left out). */
export const decodedOrEmpty = (raw: ReadonlyArray<Schema.Json>): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  for (const item of raw) {
    const exit = Effect.runSyncExit(Message.decode(item))
    if (exit._tag === "Success") out.push(exit.value)
  }
  return out
}

/** A conversation with one huge message, or tool arguments/metadata nested deep, built directly in the model. */
export const bigModel = (cls: "deep" | "huge-strings" | "many-messages", r: Rng, sizes: Sizes): Array<Message.Message> => {
  switch (cls) {
    case "deep": {
      const deep = deepValue(sizes.deepLevels, r.pick(["object", "array", "mixed"] as const))
      return [
        Message.user("go", { metadata: { trace: deep } }),
        Message.assistant([Block.toolCall("c1", "f", deep)], { metadata: { deep } }),
        Message.tool([Block.toolResult("c1", "f", [Block.json(deep)])])
      ]
    }
    case "huge-strings": {
      const s = hugeString(r, sizes.hugeChars)
      return [Message.user(s), Message.assistant([Block.text(s.slice(0, 100)), Block.toolCall("c1", "f", { s })]), Message.toolResultMessage("c1", "f", s.slice(0, 1000))]
    }
    case "many-messages":
      return decodedOrEmpty(manyMessagesJson(r, sizes.manyMessages))
  }
}

/** The events of a stream fixture, as SDK objects would come (without the `[DONE]` sentinel). */
export const eventsOf = (fixture: Fixture): Array<unknown> => fixture.frames.filter((f) => f.data !== "[DONE]").map((f) => json(f.data))

/** A stream fixture's SSE text. */
export const sseTextOf = (fixture: Fixture): string => sseOf(fixture)

/** One long stream: the fixture's content frames repeated until about `chars` characters of SSE. */
export const longSse = (fixture: Fixture, chars: number): string => {
  const whole = sseOf(fixture)
  const lines = whole.split(/\n\n|\r\n\r\n/).filter((l) => l.trim() !== "")
  if (lines.length < 3) return whole
  const middle = lines.slice(1, -2).map((l) => `${l}\n\n`).join("")
  const head = `${lines[0]}\n\n`
  const tail = lines.slice(-2).map((l) => `${l}\n\n`).join("")
  const times = Math.max(1, Math.floor(chars / Math.max(1, middle.length)))
  return head + middle.repeat(times) + tail
}
