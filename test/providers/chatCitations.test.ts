/**
 * Chat Completions' `annotations` (the web pages a search model cites) are
 * the citations of the message's text: read onto it, written back from it,
 * spelt in each OpenAI format's way, and reported by the formats that cannot
 * carry them. Before, they were kept as an unknown message field, which every
 * other writer left out without a word.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, type Schema } from "effect"
import { Block, Message, Request } from "../../src/index.js"
import { Anthropic, type Conversion, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

const chatCitation = { type: "url_citation", url_citation: { url: "https://example.com/oslo", title: "Oslo weather", start_index: 0, end_index: 12 } }
const responsesCitation = { type: "url_citation", url: "https://example.com/oslo", title: "Oslo weather", start_index: 0, end_index: 12 }
const anthropicCitation = { type: "char_location", cited_text: "Oslo", document_index: 0, document_title: null, start_char_index: 0, end_char_index: 4 }

const chatBody = (assistant: object) => ({ model: "gpt-4o-search-preview", messages: [{ role: "user", content: "Weather in Oslo?" }, { role: "assistant", ...assistant }, { role: "user", content: "Thanks" }] })

const droppedCitations = (warnings: ReadonlyArray<Conversion.ConversionWarning>) =>
  warnings.filter((w) => w._tag === "DroppedContent" && w.message.includes("citations")) as ReadonlyArray<Conversion.DroppedContent>

const citedAnswer = (citations: ReadonlyArray<Schema.Json>, itemId?: string) =>
  Request.make([
    Message.user("Weather in Oslo?"),
    Message.assistant([Block.text("Sunny, 12°C.", { citations, ...(itemId === undefined ? {} : { itemId }) })]),
    Message.user("Thanks")
  ])

describe("Chat Completions annotations", () => {
  it.effect("are read as the citations of the message's one text, whether its content is a string or one text part", () =>
    Effect.gen(function*() {
      for (const content of ["Sunny, 12°C.", [{ type: "text", text: "Sunny, 12°C." }]]) {
        const { value } = yield* OpenAiChat.fromRequest(chatBody({ content, annotations: [chatCitation] }))
        const answer = value.messages[1]!
        assert(answer.role === "assistant")
        const text = answer.content[0]
        assert(text?._tag === "Text")
        expect(text.citations).toEqual([chatCitation])
        expect(answer.providerOptions).toBeUndefined()
      }
    }))

  it.effect("come back as they were read, on the message", () =>
    Effect.gen(function*() {
      for (const content of ["Sunny, 12°C.", [{ type: "text", text: "Sunny, 12°C." }]]) {
        const body = chatBody({ content, annotations: [chatCitation] })
        const { value } = yield* OpenAiChat.fromRequest(body)
        const back = yield* OpenAiChat.toRequest(value)
        expect(back.value.messages[1]).toEqual(body.messages[1])
        expect(back.warnings).toEqual([])
      }
    }))

  it.effect("stay on the message when it has no text or several (and an empty list always does)", () =>
    Effect.gen(function*() {
      const shapes = [
        { content: [{ type: "text", text: "Sunny," }, { type: "text", text: " 12°C." }], annotations: [chatCitation] },
        { content: "Sunny, 12°C.", annotations: [] }
      ]
      for (const shape of shapes) {
        const body = chatBody(shape)
        const { value } = yield* OpenAiChat.fromRequest(body)
        const answer = value.messages[1]!
        assert(answer.role === "assistant")
        expect(answer.content.every((b) => b._tag !== "Text" || b.citations === undefined)).toBe(true)
        expect(answer.providerOptions).toEqual({ "openai-chat": { annotations: shape.annotations } })
        const back = yield* OpenAiChat.toRequest(value)
        expect(back.value.messages[1]).toEqual(body.messages[1])
      }
    }))

  it.effect("are read from a completion, onto its text", () =>
    Effect.gen(function*() {
      const { value } = yield* OpenAiChat.fromResponse({
        id: "chatcmpl-1", object: "chat.completion", created: 1700000000, model: "gpt-4o-search-preview",
        choices: [{ index: 0, message: { role: "assistant", content: "Sunny, 12°C.", refusal: null, annotations: [chatCitation] }, finish_reason: "stop", logprobs: null }]
      })
      const text = value.message.content[0]
      assert(text?._tag === "Text")
      expect(text.citations).toEqual([chatCitation])
    }))

  it.effect("are reported by the formats that cannot carry them, no longer left out without a word", () =>
    Effect.gen(function*() {
      const { value } = yield* OpenAiChat.fromRequest(chatBody({ content: "Sunny, 12°C.", annotations: [chatCitation] }))
      const anthropic = yield* Anthropic.toRequest(value, { maxTokens: 1024 })
      const gemini = yield* Gemini.toRequest(value)
      const responses = yield* OpenAiResponses.toRequest(value)
      for (const { warnings } of [anthropic, gemini, responses]) {
        expect(droppedCitations(warnings).map((w) => [w.index, w.blockIndex])).toEqual([[1, 0]])
      }
    }))
})

describe("annotations of other kinds (a review of the change above)", () => {
  it.effect("Chat: annotations that are not all URL citations stay on the message and come back as they were", () =>
    Effect.gen(function*() {
      // OpenRouter's file annotations, sent back so that a PDF is not parsed (and paid for) again
      const file = { type: "file", file: { hash: "abc", name: "report.pdf", content: [{ type: "text", text: "Page 1" }] } }
      for (const annotations of [[file], [chatCitation, file], [1, "x"], [{ type: "url_citation", url_citation: "x" }]]) {
        const body = chatBody({ content: "Sunny, 12°C.", annotations })
        const { value } = yield* OpenAiChat.fromRequest(body)
        const back = yield* OpenAiChat.toRequest(value)
        expect(back.value.messages[1]).toEqual(body.messages[1])
        expect(back.warnings).toEqual([])
      }
    }))

  it.effect("Responses: citations of a kind it may add are written back as they came", () =>
    Effect.gen(function*() {
      const newKind = { type: "page_citation", page: 3, start_index: 0, end_index: 5 }
      for (const id of [{ type: "message", id: "msg_1", status: "completed" }, {}]) {
        const body = {
          model: "gpt-5",
          input: [
            { role: "user", content: "Weather in Oslo?" },
            { ...id, role: "assistant", content: [{ type: "output_text", text: "Sunny, 12°C.", annotations: [responsesCitation, newKind] }] }
          ]
        }
        const read = yield* OpenAiResponses.fromRequest(body)
        const back = yield* OpenAiResponses.toRequest(read.value)
        expect(back.value.input).toEqual(body.input)
        expect(back.warnings).toEqual([])
      }
    }))

  it.effect("Anthropic citations on one of several texts are reported for their kind, which one text would not fix", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("Q"), Message.assistant([Block.text("A,"), Block.text(" B.", { citations: [anthropicCitation] })])])
      expect(droppedCitations((yield* OpenAiChat.toRequest(request)).warnings).map((w) => w.reason)).toEqual(["Chat Completions cites only web pages (url_citation)"])
    }))
})

describe("URL citations between the two OpenAI formats", () => {
  it.effect("a Responses output text's citations go to Chat in Chat's spelling, and back in Responses'", () =>
    Effect.gen(function*() {
      const body = {
        model: "gpt-5",
        input: [
          { role: "user", content: "Weather in Oslo?" },
          { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Sunny, 12°C.", annotations: [responsesCitation] }] }
        ]
      }
      const read = yield* OpenAiResponses.fromRequest(body)
      const chat = yield* OpenAiChat.toRequest(read.value)
      expect(chat.value.messages[1]).toEqual({ role: "assistant", content: "Sunny, 12°C.", annotations: [chatCitation] })
      expect(chat.warnings).toEqual([])

      const responses = yield* OpenAiResponses.toRequest(citedAnswer([chatCitation], "msg_1"))
      const item = responses.value.input?.[1] as { readonly content: ReadonlyArray<{ readonly annotations: unknown }> }
      expect(item.content[0]!.annotations).toEqual([responsesCitation])
      expect(responses.warnings).toEqual([])
    }))

  it.effect("an output text of an assistant message without an id cites as one with its id", () =>
    Effect.gen(function*() {
      for (const type of [undefined, "message"]) {
        const body = {
          model: "gpt-5",
          input: [
            { role: "user", content: "Weather in Oslo?" },
            { ...(type === undefined ? {} : { type }), role: "assistant", content: [{ type: "output_text", text: "Sunny, 12°C.", annotations: [responsesCitation] }] },
            { role: "user", content: "Thanks" }
          ]
        }
        const read = yield* OpenAiResponses.fromRequest(body)
        const text = read.value.messages[1]?.content[0]
        assert(text?._tag === "Text")
        expect(text.citations).toEqual([responsesCitation])
        const back = yield* OpenAiResponses.toRequest(read.value)
        expect(back.value.input).toEqual(body.input)
        expect(back.warnings).toEqual([])
        expect((yield* OpenAiChat.toRequest(read.value)).value.messages[1]).toEqual({ role: "assistant", content: "Sunny, 12°C.", annotations: [chatCitation] })
        expect(droppedCitations((yield* Anthropic.toRequest(read.value, { maxTokens: 1024 })).warnings).map((w) => [w.index, w.blockIndex])).toEqual([[1, 0]])
      }
    }))

  it.effect("a citation a format has no kind for is left out, reported", () =>
    Effect.gen(function*() {
      const fileCitation = { type: "file_citation", file_id: "file-1", filename: "oslo.pdf", index: 3 }
      for (const citations of [[anthropicCitation], [fileCitation], [chatCitation, fileCitation]]) {
        const chat = yield* OpenAiChat.toRequest(citedAnswer(citations))
        expect(chat.value.messages[1]).toEqual({ role: "assistant", content: "Sunny, 12°C." })
        expect(droppedCitations(chat.warnings).map((w) => w.message)).toEqual([
          "messages[1].content[0]: the citations of a text was left out: Chat Completions cites only web pages (url_citation)"
        ])
      }
      const responses = yield* OpenAiResponses.toRequest(citedAnswer([anthropicCitation], "msg_1"))
      const item = responses.value.input?.[1] as { readonly content: ReadonlyArray<{ readonly annotations: unknown }> }
      expect(item.content[0]!.annotations).toEqual([])
      expect(droppedCitations(responses.warnings).map((w) => [w.index, w.blockIndex])).toEqual([[1, 0]])
    }))

  it.effect("Chat cites on a message of one text only: citations on one of several texts are left out, reported", () =>
    Effect.gen(function*() {
      const request = Request.make([
        Message.user("Weather in Oslo?"),
        Message.assistant([Block.text("Sunny,"), Block.text(" 12°C.", { citations: [chatCitation] })])
      ])
      const chat = yield* OpenAiChat.toRequest(request)
      expect((chat.value.messages[1] as { readonly annotations?: unknown }).annotations).toBeUndefined()
      expect(droppedCitations(chat.warnings).map((w) => [w.index, w.blockIndex, w.message.endsWith("of one text")])).toEqual([[1, 1, true]])
    }))
})
