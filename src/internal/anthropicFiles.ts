/**
 * Which files the Anthropic writer sends, shared by the writer
 * (`providers/Anthropic.ts`) and the request estimate, so that a file the
 * writer leaves out is never counted as sent, nor one it sends as left out.
 *
 * @internal
 */
import * as Block from "../Block.js"
import { standardBase64 } from "./base64.js"
import { imageTypeOfBase64 } from "./imageSize.js"

/** The image types Anthropic takes. */
export const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"])

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

/** Whether Anthropic can fetch a URL itself (not `gs://`, `file:`, `data:`, a Gemini file URI). */
export const isFetchable = (url: string): boolean => /^https?:\/\//i.test(url)

/** Whether a document (a file that is not an image) may be given by URL or file id: a PDF or text (an unknown type may be either). */
export const isDocumentByReference = (media: string): boolean =>
  media === "application/pdf" || media.startsWith("text/") || media === "application/octet-stream"

/**
 * Whether the writer leaves a file in a user message or a tool result out
 * of the request (each case is one where `fileBlock` reports it dropped):
 * an image of a type Anthropic does not take, at a URL it cannot fetch, or
 * given as text; a document by reference that is not a PDF or text, at a
 * URL it cannot fetch, or given as data that is neither a PDF nor UTF-8
 * text. A file in an assistant message is always left out.
 */
export const anthropicLeavesOut = (file: Block.FileBlock): boolean => {
  const media = file.mediaType
  const source = file.source
  if (media.startsWith("image/")) {
    switch (source._tag) {
      case "Base64":
        return !ANTHROPIC_IMAGE_TYPES.has(media) && imageTypeOfBase64(source.data) === undefined
      case "Url":
        return !isFetchable(source.url)
      case "FileId":
        return false
      case "Text":
        return true
      default:
        return Block.absurd(source)
    }
  }
  switch (source._tag) {
    case "Base64":
      return media !== "application/pdf" && !(media.startsWith("text/") && decodeBase64Text(source.data) !== undefined)
    case "Url":
      return !isDocumentByReference(media) || !isFetchable(source.url)
    case "FileId":
      return !isDocumentByReference(media)
    case "Text":
      return false
    default:
      return Block.absurd(source)
  }
}
