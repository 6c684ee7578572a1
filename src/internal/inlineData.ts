/**
 * What is read from a file's inline data (a PDF's pages, a clip's duration),
 * read once per source.
 *
 * @internal
 */
import * as Block from "../Block.js"
import { base64DataUrlParts } from "./dataUrl.js"

/**
 * A reader of the data a file source holds inline (base64 data, or a base64
 * `data:` URL), remembering what it read for each source (sources are
 * immutable, and a window estimates the same messages again and again). A
 * source without inline data (a URL, a file id, text) gives `undefined`.
 */
export const readInlineOnce = <A>(read: (text: string, start: number) => A | undefined): (source: Block.FileSource) => A | undefined => {
  const memo = new WeakMap<Block.FileSource, { readonly value: A | undefined }>()
  return (source) => {
    const known = memo.get(source)
    if (known !== undefined) return known.value
    let value: A | undefined
    switch (source._tag) {
      case "Base64":
        value = read(source.data, 0)
        break
      case "Url": {
        const parts = base64DataUrlParts(source.url)
        value = parts === undefined ? undefined : read(source.url, parts.dataStart)
        break
      }
      case "FileId":
      case "Text":
        value = undefined
        break
      default:
        value = Block.absurd(source)
    }
    memo.set(source, { value })
    return value
  }
}
