/**
 * Text citations as each format spells them. Anthropic's have types of
 * their own (`char_location`, `web_search_result_location`...). Both OpenAI
 * formats cite a web page as a `url_citation` with the same four fields;
 * Chat Completions nests them under `url_citation` on the message (`{ type,
 * url_citation: { url, title, start_index, end_index } }`), Responses
 * writes them flat on an output text part (`{ type, url, title,
 * start_index, end_index }`), beside kinds Chat has no spelling for (file,
 * container file and file path citations). A citation read from one format
 * is kept as it came; a writer puts a URL citation in its own spelling,
 * field for field, and leaves out (reported) what it cannot spell.
 *
 * @internal
 */
import type { Schema } from "effect"

type Obj = { readonly [key: string]: Schema.Json }

const isObj = (u: Schema.Json | undefined): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)

/** The citation types the Anthropic adapter sends with a text; a text with another one goes without its citations. */
const ANTHROPIC_CITATION_TYPES: ReadonlySet<string> = new Set([
  "char_location",
  "page_location",
  "content_block_location",
  "web_search_result_location",
  "search_result_location"
])

/** A citation of one of Anthropic's types. */
export const isAnthropicCitation = (citation: Schema.Json): boolean => isObj(citation) && typeof citation["type"] === "string" && ANTHROPIC_CITATION_TYPES.has(citation["type"])

/** A URL citation in Chat Completions' spelling (`{ type: "url_citation", url_citation: {...} }`). */
export const isChatAnnotation = (citation: Schema.Json): boolean => isObj(citation) && citation["type"] === "url_citation" && isObj(citation["url_citation"])

/** A citation in Chat Completions' spelling, whatever format it was read from; `undefined` when Chat has none for it. */
export const chatAnnotationOf = (citation: Schema.Json): Schema.Json | undefined => {
  if (isChatAnnotation(citation)) return citation
  if (!isObj(citation) || citation["type"] !== "url_citation" || typeof citation["url"] !== "string") return undefined
  const { type, ...fields } = citation
  return { type, url_citation: fields }
}

/**
 * A citation in the Responses API's spelling, whatever format it was read from: a URL citation in Chat's spelling
 * flattened; `undefined` for Anthropic's, which Responses has none for. Any other goes as it is: one read from
 * Responses, of a kind it may add, is written back as it came.
 */
export const responsesAnnotationOf = (citation: Schema.Json): Schema.Json | undefined => {
  if (isAnthropicCitation(citation)) return undefined
  if (!isChatAnnotation(citation)) return citation
  const { url_citation: nested, ...rest } = citation as Obj
  return { ...rest, ...(nested as Obj), type: "url_citation" }
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
