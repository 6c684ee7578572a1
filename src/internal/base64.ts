/**
 * Base64 of UTF-8 text with the platform-neutral globals (`TextEncoder`,
 * `btoa`) that browsers, Deno, Bun, edge runtimes and Node all have: the core
 * of the library imports no Node module and uses no Node global.
 *
 * @internal
 */
export const utf8ToBase64 = (text: string): string => {
  const bytes = new TextEncoder().encode(text)
  let binary = ""
  // chunks keep String.fromCharCode's argument count bounded
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/**
 * Base64 text in the standard alphabet, padded, as the Anthropic and OpenAI
 * APIs take it: URL-safe digits (`-`, `_`), which a Gemini body may carry
 * (proto3 JSON accepts either alphabet for bytes), become `+` and `/`, and
 * the padding a group of 2 or 3 digits lacks is added. The same bytes, so no
 * conversion is reported; text already standard and padded (the usual case)
 * is returned as it is, not copied. Anything else in the text (line breaks,
 * stray characters) is left where it is, and a last group of one digit,
 * which no padding makes whole, is not padded.
 */
export const standardBase64 = (text: string): string => {
  const standard = /[-_]/.test(text) ? text.replace(/-/g, "+").replace(/_/g, "/") : text
  const body = standard.trimEnd()
  if (body.endsWith("=")) return standard
  const digits = /[^A-Za-z0-9+/]/.test(body) ? body.replace(/[^A-Za-z0-9+/]/g, "").length : body.length
  return digits % 4 < 2 ? standard : body + "==".slice(digits % 4 - 2) + standard.slice(body.length)
}

/**
 * Where base64 text from `start` has its first character that is not an
 * ASCII blank (which decoders skip, as `atob` does): a payload may start
 * with a line break (`data:image/png;base64,\n iVBOR...`), and a reader that
 * finds a byte's place by counting from `start` counts from there.
 */
export const afterBlanks = (text: string, start: number): number => {
  let at = start
  while (isBlank(text.charCodeAt(at))) at++
  return at
}

/** Whether a character code is an ASCII blank, which base64 decoders skip (space, tab, line feed, form feed, carriage return). */
export const isBlank = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9 || c === 12

/** The value of a base64 digit of either alphabet (`+` or `-` 62, `/` or `_` 63) given its character code, else -1. */
export const base64Digit = (c: number): number =>
  c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 71 : c >= 48 && c <= 57 ? c + 4 : c === 43 || c === 45 ? 62 : c === 47 || c === 95 ? 63 : -1

/** A character no base64 text holds: not a digit of either alphabet (`base64Digit`), padding or an ASCII blank (`isBlank`). */
const NOT_BASE64 = /[^A-Za-z0-9+/\-_=\t\n\f\r ]/

/** Whether a text holds a character no base64 text holds (a URL's `:` or `.`, a stray character before a `data:` URL). */
export const hasNonBase64Char = (text: string): boolean => NOT_BASE64.test(text)

/** Below this many characters the decoder below is as fast as the platform's. */
const NATIVE_FROM = 4_096

/**
 * The platform's decoder (`atob`, in every runtime, and native: 10 to 100
 * times faster than a loop here on large data), for text it takes whole:
 * the standard alphabet, ASCII blanks and padding. `undefined` for anything
 * else (the URL-safe alphabet, stray characters), and when it gives fewer
 * bytes than the characters hold (blanks inside the slice), so that a
 * prefix asked for is never cut short.
 */
const nativeDecode = (text: string, start: number, limit: number): Uint8Array | undefined => {
  if (typeof atob !== "function") return undefined
  const end = limit === Infinity ? text.length : Math.min(text.length, start + Math.ceil(limit / 3) * 4)
  let binary: string
  try {
    binary = atob(start === 0 && end === text.length ? text : text.slice(start, end))
  } catch {
    return undefined
  }
  const n = Math.min(binary.length, limit)
  if (n < limit && end < text.length) return undefined
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = binary.charCodeAt(i)
  return out
}

/**
 * The bytes of base64 text from `start`, at most `limit` of them, standard
 * or URL-safe alphabet; anything else (line breaks, padding) is skipped.
 */
export const decodeBase64 = (text: string, start = 0, limit = Infinity): Uint8Array => {
  if (text.length - start >= NATIVE_FROM && limit >= NATIVE_FROM) {
    const native = nativeDecode(text, start, limit)
    if (native !== undefined) return native
  }
  const out = new Uint8Array(Math.max(0, Math.min(limit, Math.ceil(((text.length - start) * 3) / 4))))
  let n = 0
  let acc = 0
  let bits = 0
  for (let i = start; i < text.length && n < out.length; i++) {
    const v = base64Digit(text.charCodeAt(i))
    if (v < 0) continue
    acc = ((acc << 6) | v) & 0xffffff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[n++] = (acc >> bits) & 0xff
    }
  }
  return out.subarray(0, n)
}

/** Bytes as a binary string: a code unit 0-255 a byte, so that a string offset is a byte offset (built in slices). */
export const binaryOfBytes = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as Array<number>)
  return out
}

/**
 * The bytes of base64 text from `start` as a binary string (see
 * `binaryOfBytes`): what the platform's `atob` gives, where it takes the
 * text whole, with no bytes made on the way (a PDF is read as text).
 */
export const decodeBase64Binary = (text: string, start = 0): string => {
  if (typeof atob === "function" && text.length - start >= NATIVE_FROM) {
    try {
      return atob(start === 0 ? text : text.slice(start))
    } catch {
      // the URL-safe alphabet, or stray characters: decoded below
    }
  }
  return binaryOfBytes(decodeBase64(text, start))
}

/**
 * Base64 text as a string (UTF-8), or `undefined` when it is not base64 of
 * UTF-8 text. Either alphabet: proto3 JSON (a Gemini body) may carry bytes
 * in the URL-safe one, which `atob` rejects.
 */
export const decodeBase64Text = (data: string): string | undefined => {
  try {
    const binary = atob(standardBase64(data))
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}
