/**
 * Where a base64 `data:` URL's parts are, without copying its data (an inline
 * image can be megabytes): the one parser behind `Block.parseDataUrl` and the
 * image header reader.
 *
 * @internal
 */
export const base64DataUrlParts = (value: string): { readonly mediaType: string; readonly dataStart: number } | undefined => {
  if (!value.startsWith("data:")) return undefined
  const comma = value.indexOf(",")
  if (comma === -1) return undefined
  const header = value.slice(5, comma)
  if (!header.endsWith(";base64")) return undefined
  return { mediaType: header.slice(0, -7), dataStart: comma + 1 }
}
