/**
 * A file at a base64 `data:` URL as the file it holds, for the providers
 * that take inline data but fetch no `data:` URL (Anthropic, Gemini): their
 * writers send it, validation judges it and the request estimates count it
 * as this file, so that the three read one file.
 *
 * @internal
 */
import * as Block from "../Block.js"
import { base64DataUrlParts } from "./dataUrl.js"

/** The files already read (blocks are immutable, and a window estimates the same messages again and again). */
const memo = new WeakMap<Block.FileBlock, Block.FileBlock>()

/**
 * A file at a base64 `data:` URL as the same file given as base64 data: the
 * data the URL holds, with the media type the URL declares (the file's own
 * when the URL declares none), and the file's other fields. `undefined` for
 * a file given any other way, or at any other URL (a `data:` URL that is not
 * base64, whose text is percent-encoded, included).
 */
export const inlineFileOf = (file: Block.FileBlock): Block.FileBlock | undefined => {
  const source = file.source
  if (source._tag !== "Url") return undefined
  const parts = base64DataUrlParts(source.url)
  if (parts === undefined) return undefined
  const known = memo.get(file)
  if (known !== undefined) return known
  const inline = Block.freeze(new Block.FileBlock({
    ...file,
    mediaType: /^\s*(;|$)/.test(parts.mediaType) ? file.mediaType : parts.mediaType,
    source: { _tag: "Base64", data: source.url.slice(parts.dataStart) }
  }))
  memo.set(file, inline)
  return inline
}

/**
 * A base64 `data:` URL declaring another media type, its parameters and data
 * as they were (`data:image/png;name=a;base64,...` as `image/jpeg`:
 * `data:image/jpeg;name=a;base64,...`); any other URL as it is.
 */
export const withDataUrlType = (url: string, mediaType: string): string => {
  const parts = base64DataUrlParts(url)
  if (parts === undefined) return url
  // the header between "data:" and ";base64,"
  const header = url.slice(5, parts.dataStart - 8)
  const semicolon = header.indexOf(";")
  return `data:${mediaType}${semicolon === -1 ? "" : header.slice(semicolon)};base64,${url.slice(parts.dataStart)}`
}
