/**
 * Which URLs each provider takes for a file given by URL, shared by the
 * writers (which leave out, and report, a file at a URL their API refuses)
 * and the validation (which reports the same files), so that the two tell
 * one story.
 *
 * - Anthropic fetches http and https URLs only (`isFetchable`). A file at a
 *   base64 `data:` URL is no file by URL for it: its writer sends the data
 *   the URL holds, as that data given as base64 (`dataUrlFile.inlineFileOf`).
 * - OpenAI (Chat Completions and Responses) fetches http and https URLs and
 *   reads a base64 `data:` URL as the data it holds; any other value is
 *   refused ("Invalid image URL. The URL must be a valid HTTP or HTTPS URL,
 *   or a data URL with base64 encoding"; "Expected a base64-encoded data URL
 *   with an image MIME type ..., but got a value without the 'data:'
 *   prefix").
 * - Neither fetches a Gemini Files API URI
 *   (`https://generativelanguage.googleapis.com/v1beta/files/...`): it is
 *   https, but only the Gemini API reads it, with the key of the project
 *   that uploaded the file (a fetch without one is refused; OpenAI answers
 *   a URL it cannot download with "Error while downloading ...").
 * - Gemini takes a `fileUri` of its Files API (https), a public http(s)
 *   URL, or a `gs://` object (Vertex AI; the Gemini API answers "Invalid or
 *   unsupported file uri" unless the bucket is registered with it), which
 *   the writer cannot tell apart; a URI of another scheme (`data:`,
 *   `file:`, `s3:`) is refused by both. A value without a scheme is sent as
 *   given. A base64 `data:` URL never reaches `geminiTakesUrl`: the writer
 *   sends the data it holds as `inlineData` (`dataUrlFile.inlineFileOf`).
 *
 * @internal
 */
import { base64DataUrlParts } from "./dataUrl.js"

/** A URL's scheme, lower case, without the colon, or `undefined` for a value with none (a relative URL, a name). */
export const schemeOf = (url: string): string | undefined => /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase()

/** Whether a URL is a Gemini Files API URI (`https://generativelanguage.googleapis.com/<version>/files/<id>`), which only Gemini reads. */
export const isGeminiFileUri = (url: string): boolean => /^https:\/\/generativelanguage\.googleapis\.com\/[^/?#]+\/files\//i.test(url)

/**
 * Whether another provider can fetch a file at this URL over the web: http or https, and not a Gemini Files API URI.
 * Anthropic asks it of a URL that is not a base64 `data:` URL (which goes as the data it holds, `inlineFileOf`).
 */
export const isFetchable = (url: string): boolean => /^https?:\/\//i.test(url) && !isGeminiFileUri(url)

/** Why the OpenAI writers leave out a file at a URL OpenAI cannot take (`openAiTakesUrl`). */
export const OPENAI_URLS = "OpenAI fetches http and https URLs only, and reads a base64 data: URL as its data"

/** Why the Anthropic writer leaves out a file at a URL Anthropic cannot take: a base64 `data:` URL is sent as its data. */
export const ANTHROPIC_URLS = "Anthropic fetches http and https URLs only, and a base64 data: URL is sent as its data"

/** Why the Gemini writer leaves out a file at a URI Gemini refuses (`geminiTakesUrl`): a base64 `data:` URL is sent as its data. */
export const GEMINI_URLS = "Gemini takes http, https and gs:// file URIs, and a base64 data: URL is sent as its data"

/** Whether OpenAI takes a file at this URL: one it fetches (`isFetchable`), or a base64 `data:` URL (the data itself). */
export const openAiTakesUrl = (url: string): boolean => isFetchable(url) || base64DataUrlParts(url) !== undefined

/**
 * Whether Gemini may take a file at this URI: http, https, `gs:` (Vertex AI), or one without a scheme (sent as
 * given). Asked of a URL that is not a base64 `data:` URL (which goes as the data it holds, `inlineFileOf`).
 */
export const geminiTakesUrl = (url: string): boolean => {
  const scheme = schemeOf(url)
  return scheme === undefined || scheme === "http" || scheme === "https" || scheme === "gs"
}
