/**
 * Media types as the library compares them, and the image types Anthropic
 * names: a leaf module, so that the messages of validation errors read them
 * without the file readers of `anthropicFiles`.
 *
 * @internal
 */

/** The image types Anthropic takes, spelled as its API takes them (it matches `media_type` exactly). */
export type AnthropicImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp"

/** The image types Anthropic takes. */
export const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set<AnthropicImageType>(["image/jpeg", "image/png", "image/gif", "image/webp"])

/**
 * A media type as compared: lower case, without parameters. Media types are
 * case-insensitive (RFC 6838), so `IMAGE/PNG` is `image/png`; Anthropic's
 * API takes only the lower-case spelling, which the writer sends.
 */
export const bareMediaType = (mediaType: string): string => {
  const semicolon = mediaType.indexOf(";")
  return (semicolon === -1 ? mediaType : mediaType.slice(0, semicolon)).trim().toLowerCase()
}

/**
 * Whether a media type is a text document's: `text/*`, or JSON, XML, YAML, CSV, JavaScript, shell, SQL or TOML
 * (suffixes such as `+json` included), which a reader takes as text.
 */
export const isTextDocument = (mediaType: string): boolean => {
  const bare = bareMediaType(mediaType)
  return bare.startsWith("text/") || /^application\/([\w.+-]*\+)?(json|xml|yaml|x-yaml|csv|javascript|x-sh|sql|toml)$/.test(bare)
}
