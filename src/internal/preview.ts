/**
 * A value as short, bounded text for a warning's or an error's message.
 *
 * @internal
 */
import { LONE_SURROGATES } from "./surrogates.js"

/** What `preview` writes where a value cannot be read (a getter, proxy or `toJSON` that throws). */
const UNREADABLE = "[unreadable]"

/** A value that could not be read, as `jsonView` and the walk in `preview` mark it. */
const unreadable: unique symbol = Symbol("unreadable")

/** A value read through `toJSON` as `JSON.stringify` reads it, or `unreadable` when that throws. */
const jsonView = (v: unknown): unknown => {
  if (typeof v !== "object" || v === null) return v
  try {
    const toJson = (v as { readonly toJSON?: unknown }).toJSON
    return typeof toJson === "function" ? (toJson as () => unknown).call(v) : v
  } catch {
    return unreadable
  }
}

/**
 * A string cut to `max` code units with "…" marking the cut, never between the two halves of a surrogate pair (the
 * character goes whole). `Block.truncate` is this.
 */
export const cutText = (s: string, max: number): string => {
  if (!(s.length > max)) return s
  let end = Math.max(0, Math.trunc(max))
  // a high surrogate whose low half would be cut off goes with it
  if (end > 0 && isHighSurrogate(s.charCodeAt(end - 1)) && isLowSurrogate(s.charCodeAt(end))) end--
  return `${s.slice(0, end)}…`
}

/**
 * The characters a message escapes: control characters (C0, DEL and C1: U+009B starts a terminal's escape sequence as
 * ESC [ does, U+0085 breaks a line), the line and paragraph separators, and the marks that reorder text on screen
 * (bidirectional embeddings, overrides and isolates: a name could read backwards).
 */
const UNSAFE = /[\0-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/** A character `UNSAFE` matches, written as JSON writes it (`\n`) or as a `\u` escape. */
const escaped = (c: string): string => {
  const json = JSON.stringify(c).slice(1, -1)
  return json !== c ? json : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
}

/**
 * Text made fit to stand unquoted in a one-line message: lone surrogates written U+FFFD, and control characters
 * escaped (`UNSAFE`: `\n`, `\u001b`, `\u009b`), since they would start a line of their own (a tool name
 * `"f\nagent-messages: ..."` forging a line of the command line's output), move a terminal's cursor, or reorder
 * what is shown.
 */
const wellFormedLine = (s: string): string => s.replace(LONE_SURROGATES, "\ufffd").replace(UNSAFE, escaped)

/**
 * User text to stand unquoted in a warning's or an error's message: cut as `cutText` cuts it, every lone
 * surrogate (the user's own; the cut leaves none) written U+FFFD, so the message is well-formed text, and every
 * control character escaped as JSON writes it (`\n`), so the message stays on one line. Only
 * the message changes: the data the text came from is kept as given. The work is bounded by `max`.
 */
export const messageText = (s: string, max = 80): string => wellFormedLine(cutText(s.length > max ? s.slice(0, max + 1) : s, max))

/**
 * `messageText(parts.join(separator), max)` without joining the whole list: at most `max + 1` code units of each
 * part are read, and no part once `max` are joined, so a list of a million long sentences costs about `2 * max`
 * characters of work, not its length.
 */
export const joinedMessageText = (parts: ReadonlyArray<string>, separator: string, max = 80): string => {
  let out = ""
  for (let i = 0; i < parts.length && out.length <= max; i++) out += (i > 0 ? separator : "") + parts[i]!.slice(0, max + 1)
  return messageText(out, max)
}

/**
 * User text (a name, an id, a key, a media type) quoted for a warning's or an error's message: `JSON.stringify` of
 * it cut to `max` code units as `cutText` cuts it, the "…" inside the quotes. Short text reads exactly as
 * `JSON.stringify` writes it, a lone surrogate escaped, so the message is well-formed. The work is bounded by `max`.
 */
export const quote = (s: string, max = 80): string => JSON.stringify(cutText(s.length > max ? s.slice(0, max + 1) : s, max)).replace(UNSAFE, escaped)

/**
 * A media type quoted for a message as `quote` quotes it, with every character outside printable ASCII (which no
 * media type holds) escaped, so that a declared `image/j\u200bpeg` does not read as the `image/jpeg` it was sent as.
 */
export const quoteMediaType = (mediaType: string): string =>
  quote(mediaType).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** A media type for a message: as `messageText` writes it, or quoted by `quoteMediaType` when it holds a character outside printable ASCII. */
export const mediaTypeText = (mediaType: string): string => (/[^\x20-\x7e]/.test(mediaType) ? quoteMediaType(mediaType) : messageText(mediaType))

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff

/**
 * A value as short text for a warning's or an error's message: its JSON (a
 * string quoted), cut after `max` characters with an ellipsis, never between
 * the halves of a surrogate pair. Written by an explicit stack that stops at
 * `max`, so a value of any depth costs no stack and one of any size about
 * `max` characters of work; never throws. Where JSON has no text: a cycle is
 * `[Circular]`, a getter, proxy or `toJSON` that throws `[unreadable]`;
 * `NaN`, `Infinity` and a BigInt are their text, an `Error` its name and
 * message; `undefined`, functions and symbols are left out of objects and
 * `null` in lists, as `JSON.stringify` writes them (on their own:
 * `undefined`, `a function`, the symbol). Lone surrogates are written
 * escaped, as `JSON.stringify` writes them, so the text is well-formed.
 */
export const preview = (value: unknown, max = 80): string => {
  let out = ""
  interface Frame {
    readonly o: object
    readonly keys: ReadonlyArray<string> | undefined
    readonly n: number
    i: number
    written: number
  }
  const stack: Array<Frame> = []
  const onPath = new Set<object>()
  // a string is cut before it is quoted: a 10 MB one costs `max` characters
  const quoted = (s: string): string => JSON.stringify(s.length > max ? s.slice(0, max + 1) : s).replace(UNSAFE, escaped)
  const write = (v: unknown): void => {
    if (v === unreadable) {
      out += UNREADABLE
      return
    }
    switch (typeof v) {
      case "string":
        out += quoted(v)
        return
      // a number as its text: `NaN` and `Infinity` say more in a message than JSON's `null`
      case "number":
      case "boolean":
      case "bigint":
        out += String(v)
        return
      case "undefined":
      case "function":
      case "symbol":
        out += "null"
        return
    }
    if (typeof v !== "object" || v === null) {
      out += "null"
      return
    }
    if (onPath.has(v)) {
      out += "[Circular]"
      return
    }
    try {
      const keys = Array.isArray(v) ? undefined : Object.keys(v)
      const n = keys === undefined ? (v as ReadonlyArray<unknown>).length : keys.length
      onPath.add(v)
      stack.push({ o: v, keys, n: typeof n === "number" ? n : 0, i: 0, written: 0 })
      out += keys === undefined ? "[" : "{"
    } catch {
      out += UNREADABLE
    }
  }
  const top = topLevel(value, max)
  if (top !== undefined) return top
  write(jsonView(value))
  while (stack.length > 0 && out.length <= max) {
    const frame = stack[stack.length - 1]!
    if (frame.i >= frame.n) {
      out += frame.keys === undefined ? "]" : "}"
      onPath.delete(frame.o)
      stack.pop()
      continue
    }
    const i = frame.i++
    const key = frame.keys?.[i]
    let v: unknown
    try {
      v = jsonView((frame.o as Record<string | number, unknown>)[key ?? i])
    } catch {
      v = unreadable
    }
    const unwritable = v === undefined || typeof v === "function" || (typeof v === "symbol" && v !== unreadable)
    if (key !== undefined && unwritable) continue
    if (frame.written++ > 0) out += ","
    if (key !== undefined) out += `${quoted(key)}:`
    write(v)
  }
  return cutText(out, max)
}

/** A value `preview` writes other than as JSON, or `undefined` for one it writes as JSON. */
const topLevel = (value: unknown, max: number): string | undefined => {
  try {
    if (value === undefined) return "undefined"
    if (typeof value === "function") return "a function"
    const text = typeof value === "symbol" ? String(value) : value instanceof Error && typeof value.message === "string" ? `${String(value.name)}: ${value.message}` : undefined
    // cut first: a lone surrogate at the cut is no pair split, and the rest are made well-formed
    return text === undefined ? undefined : wellFormedLine(cutText(text.slice(0, max + 1), max))
  } catch {
    return UNREADABLE
  }
}
