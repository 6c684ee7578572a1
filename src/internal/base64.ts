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
