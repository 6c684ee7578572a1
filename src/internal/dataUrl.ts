/**
 * Where a base64 `data:` URL's parts are, without copying its data (an inline
 * image can be megabytes): the one parser behind `Block.parseDataUrl` and the
 * image header reader.
 *
 * @internal
 */
export const base64DataUrlParts = (value: string): { readonly mediaType: string; readonly dataStart: number } | undefined => {
  // the scheme, the media type and ";base64" are case-insensitive (RFC 2397): "DATA:IMAGE/PNG;BASE64," is one too
  if (!value.startsWith("data:") && value.slice(0, 5).toLowerCase() !== "data:") return undefined
  const comma = value.indexOf(",")
  if (comma === -1) return undefined
  const header = value.slice(5, comma)
  if (!header.endsWith(";base64") && !header.toLowerCase().endsWith(";base64")) return undefined
  const mediaType = header.slice(0, -7)
  return { mediaType: /[A-Z]/.test(mediaType) ? mediaType.toLowerCase() : mediaType, dataStart: comma + 1 }
}
