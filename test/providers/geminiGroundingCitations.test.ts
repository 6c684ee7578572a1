/**
 * A grounded Gemini answer (Google Search) names its web sources in the candidate's `groundingMetadata`: each support
 * is a segment of a text part, in UTF-8 bytes, and the chunks it rests on. They were kept only in the response's
 * provider data, so a history written to another format lost them without a word. They are now the citations of the
 * text they support, as URL citations (the metadata is still kept whole): written to Chat Completions as the message's
 * annotations, reported where a format has no URL citation (Anthropic), and left out without a warning when the
 * history goes back to Gemini, whose requests never carry them.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Message } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat } from "../../src/providers/index.js"

// "Zürich" and "—" take more bytes than code units: the byte offsets below are Gemini's, the expected ones UTF-16
const TEXT = "Zürich is in Switzerland — its largest city. Bern is the capital."
const bytes = (s: string) => new TextEncoder().encode(s).length
const segment = (sentence: string) => {
  const start = TEXT.indexOf(sentence)
  return { startIndex: bytes(TEXT.slice(0, start)), endIndex: bytes(TEXT.slice(0, start + sentence.length)), text: sentence }
}
const FIRST = "Zürich is in Switzerland — its largest city."
const SECOND = "Bern is the capital."

const response = {
  candidates: [{
    content: { role: "model", parts: [{ text: TEXT }] },
    finishReason: "STOP",
    groundingMetadata: {
      webSearchQueries: ["largest city in Switzerland"],
      groundingChunks: [
        { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/a", title: "wikipedia.org" } },
        { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/b", title: "admin.ch" } },
        { retrievedContext: { uri: "gs://bucket/doc.pdf", title: "doc" } }
      ],
      groundingSupports: [
        { segment: segment(FIRST), groundingChunkIndices: [0, 2] },
        { segment: segment(SECOND), groundingChunkIndices: [1] }
      ]
    }
  }],
  modelVersion: "gemini-2.5-flash"
}

describe("a grounded Gemini answer's web sources", () => {
  it.effect("are the citations of the text they support, at UTF-16 offsets; the metadata stays whole", () =>
    Effect.gen(function*() {
      const { value } = yield* Gemini.fromResponse(response)
      const text = value.message.content[0]
      expect(text?._tag).toBe("Text")
      if (text?._tag !== "Text") return
      expect(text.citations).toEqual([
        { type: "url_citation", url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/a", title: "wikipedia.org", start_index: 0, end_index: FIRST.length },
        {
          type: "url_citation",
          url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/b",
          title: "admin.ch",
          start_index: TEXT.indexOf(SECOND),
          end_index: TEXT.indexOf(SECOND) + SECOND.length
        }
      ])
      expect(TEXT.slice(text.citations![1]!["start_index" as never], text.citations![1]!["end_index" as never])).toBe(SECOND)
      expect((value.providerData?.["candidate"] as { readonly groundingMetadata?: unknown }).groundingMetadata).toEqual(response.candidates[0]!.groundingMetadata)
    }))

  it.effect("go to Chat Completions as the message's annotations, to Anthropic reported, back to Gemini silently", () =>
    Effect.gen(function*() {
      const { value } = yield* Gemini.fromResponse(response)
      const history = [Message.user("What is the largest city in Switzerland?"), value.message, Message.user("And the capital?")]
      const chat = yield* OpenAiChat.toMessages(history)
      const annotations = (chat.value[1] as { readonly annotations?: ReadonlyArray<{ readonly type: string; readonly url_citation: { readonly url: string } }> }).annotations
      expect(annotations?.map((a) => a.url_citation.url)).toEqual([
        "https://vertexaisearch.cloud.google.com/grounding-api-redirect/a",
        "https://vertexaisearch.cloud.google.com/grounding-api-redirect/b"
      ])
      const anthropic = yield* Anthropic.toMessages(history)
      expect(anthropic.warnings.some((w) => w._tag === "DroppedContent" && w.message.includes("citations"))).toBe(true)
      const gemini = yield* Gemini.toMessages(history)
      expect(gemini.warnings).toEqual([])
      expect(gemini.value.contents[1]).toEqual({ role: "model", parts: [{ text: TEXT }] })
    }))

  it.effect("a support of a part that is no text, or a span past the text, cites nothing", () =>
    Effect.gen(function*() {
      const odd = {
        candidates: [{
          content: { role: "model", parts: [{ text: "Short." }] },
          finishReason: "STOP",
          groundingMetadata: {
            groundingChunks: [{ web: { uri: "https://example.com", title: "example" } }],
            groundingSupports: [
              { segment: { partIndex: 3, startIndex: 0, endIndex: 3 }, groundingChunkIndices: [0] },
              { segment: { startIndex: 0, endIndex: 999 }, groundingChunkIndices: [0] },
              { segment: { startIndex: 0, endIndex: 6 }, groundingChunkIndices: [7] }
            ]
          }
        }]
      }
      const { value } = yield* Gemini.fromResponse(odd)
      const text = value.message.content[0]
      expect(text?._tag === "Text" ? text.citations : "not text").toBeUndefined()
    }))
})
