/**
 * Text citations in the two OpenAI spellings. Both formats cite a web page
 * as a `url_citation` with the same four fields; Chat Completions nests them
 * under `url_citation` on the message (`{ type, url_citation: { url, title,
 * start_index, end_index } }`), Responses writes them flat on an output
 * text part (`{ type, url, title, start_index, end_index }`), beside three
 * kinds Chat has no spelling for (file, container file and file path
 * citations). A citation read from one is kept as it came; a writer puts
 * it in its own spelling, field for field, so a conversion between the two
 * loses nothing, and leaves out (reported) what it cannot spell.
 *
 * @internal
 */
import type { Schema } from "effect"
import { isObj } from "./adapter.js"

const RESPONSES_TYPES = new Set(["url_citation", "file_citation", "container_file_citation", "file_path"])

/** A citation in Chat Completions' spelling, whatever format it was read from; `undefined` when Chat has none for it. */
export const chatAnnotationOf = (citation: Schema.Json): Schema.Json | undefined => {
  if (!isObj(citation) || citation["type"] !== "url_citation") return undefined
  if (isObj(citation["url_citation"])) return citation
  if (typeof citation["url"] !== "string") return undefined
  const { type, ...fields } = citation
  return { type, url_citation: fields }
}

/** A citation in the Responses API's spelling, whatever format it was read from; `undefined` when Responses has none for it. */
export const responsesAnnotationOf = (citation: Schema.Json): Schema.Json | undefined => {
  if (!isObj(citation) || typeof citation["type"] !== "string" || !RESPONSES_TYPES.has(citation["type"])) return undefined
  const nested = citation["url_citation"]
  if (citation["type"] !== "url_citation" || !isObj(nested)) return citation
  const { url_citation: _, ...rest } = citation
  return { ...rest, ...nested, type: "url_citation" }
}

/** Every citation in one spelling, or `undefined` when one of them has none in it. */
export const allOf = (
  citations: ReadonlyArray<Schema.Json>,
  spell: (citation: Schema.Json) => Schema.Json | undefined
): Array<Schema.Json> | undefined => {
  const out: Array<Schema.Json> = []
  for (const citation of citations) {
    const spelt = spell(citation)
    if (spelt === undefined) return undefined
    out.push(spelt)
  }
  return out
}
