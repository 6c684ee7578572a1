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
 * The bytes of base64 text from `start`, at most `limit` of them, standard
 * or URL-safe alphabet; anything else (line breaks, padding) is skipped.
 */
export const decodeBase64 = (text: string, start = 0, limit = Infinity): Uint8Array => {
  const out = new Uint8Array(Math.max(0, Math.min(limit, Math.ceil(((text.length - start) * 3) / 4))))
  let n = 0
  let acc = 0
  let bits = 0
  for (let i = start; i < text.length && n < out.length; i++) {
    const c = text.charCodeAt(i)
    const v = c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 71 : c >= 48 && c <= 57 ? c + 4 : c === 43 || c === 45 ? 62 : c === 47 || c === 95 ? 63 : -1
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
