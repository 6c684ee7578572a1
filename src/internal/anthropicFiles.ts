/**
 * Which files the Anthropic writer sends, shared by the writer
 * (`providers/Anthropic.ts`) and the request estimate, so that a file the
 * writer leaves out is never counted as sent, nor one it sends as left out.
 *
 * @internal
 */
import * as Block from "../Block.js"
import { decodeBase64Text } from "./base64.js"
import { inlineFileOf } from "./dataUrlFile.js"
import { isFetchable } from "./fileUrls.js"
import { imageTypeOfBase64 } from "./imageSize.js"
import { ANTHROPIC_IMAGE_TYPES, type AnthropicImageType, bareMediaType } from "./mediaType.js"

const isAnthropicImageType = (type: string | undefined): type is AnthropicImageType => type !== undefined && ANTHROPIC_IMAGE_TYPES.has(type)

/** Whether a file is an image (its type, in any case, is `image/...`). */
export const isImageType = (mediaType: string): boolean => bareMediaType(mediaType).startsWith("image/")

/**
 * The `media_type` the writer sends for an image given as base64 data, or
 * `undefined` when it leaves the image out: the type its bytes show when
 * they show JPEG, PNG, GIF or WebP (Anthropic rejects an image whose bytes
 * are another format than its type: "Image does not match the provided
 * media type"), else its declared type in the spelling Anthropic takes when
 * it is one of those. `relabelled` holds the declared type (as compared:
 * `bareMediaType`) when the type sent is another one (`MediaTypeMismatch` in
 * validation): one Anthropic takes whose bytes show another, or one it does
 * not name (`image/jpg`, a type with an invisible character in it) whose
 * bytes show one it does; the writer sends the type of the bytes, and says
 * so. A type in another case or with parameters is the type sent, and the
 * wildcard `image/*` says only "an image", which the bytes then name: those
 * are not relabelled.
 */
export const anthropicImageType = (
  mediaType: string,
  data: string
): { readonly sent: AnthropicImageType; readonly relabelled: string | undefined } | undefined => {
  const declared = bareMediaType(mediaType)
  const actual = imageTypeOfBase64(data)
  if (isAnthropicImageType(actual)) return { sent: actual, relabelled: declared !== actual && declared !== "image/*" ? declared : undefined }
  return isAnthropicImageType(declared) ? { sent: declared, relabelled: undefined } : undefined
}

/** Whether a document (a file that is not an image) may be given by URL or file id: a PDF or text (an unknown type may be either). */
export const isDocumentByReference = (mediaType: string): boolean => {
  const media = bareMediaType(mediaType)
  return media === "application/pdf" || media.startsWith("text/") || media === "application/octet-stream"
}

/**
 * Whether the writer leaves a file in a user message or a tool result out
 * of the request (each case is one where `fileBlock` reports it dropped):
 * an image of a type Anthropic does not take, at a URL it cannot fetch, or
 * given as text; a document by reference that is not a PDF or text, at a
 * URL it cannot fetch, or given as data that is neither a PDF nor UTF-8
 * text. A file at a base64 `data:` URL is the data it holds (`inlineFileOf`).
 * A file in an assistant message is always left out.
 */
export const anthropicLeavesOut = (given: Block.FileBlock): boolean => {
  const file = inlineFileOf(given) ?? given
  const media = bareMediaType(file.mediaType)
  const source = file.source
  if (media.startsWith("image/")) {
    switch (source._tag) {
      case "Base64":
        return anthropicImageType(media, source.data) === undefined
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
