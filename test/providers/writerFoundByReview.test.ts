import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message } from "../../src/index.js"
import { Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

describe("OpenAI Chat: a tool result whose every part is left out", () => {
  const call = Message.assistant([Block.toolCall("c1", "screenshot", {})])

  it.effect("is sent as empty text, not as an empty list of parts (the API wants at least one part in a list)", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* OpenAiChat.toMessages([
        Message.user("look"),
        call,
        Message.toolResultMessage("c1", "screenshot", [Block.image({ _tag: "Base64", data: "iVBORw0KGgo=" }, { mediaType: "image/png" })])
      ])
      expect(value[2]).toEqual({ role: "tool", tool_call_id: "c1", content: "" })
      expect(warnings.map((w) => w._tag)).toEqual(["DroppedContent"])
    }))

  it.effect("keeps the text parts it can send, and an empty list given as such goes as \"\" too (the API refuses an empty list)", () =>
    Effect.gen(function*() {
      const { value } = yield* OpenAiChat.toMessages([
        Message.user("look"),
        Message.assistant([Block.toolCall("c1", "screenshot", {}), Block.toolCall("c2", "noop", {})]),
        Message.toolResultMessage("c1", "screenshot", [Block.image({ _tag: "Base64", data: "iVBORw0KGgo=" }, { mediaType: "image/png" }), Block.text("a cat")]),
        Message.toolResultMessage("c2", "noop", [])
      ])
      expect(value.slice(2)).toEqual([
        { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "a cat" }] },
        { role: "tool", tool_call_id: "c2", content: "" }
      ])
    }))
})

describe("OpenAI Responses: the result of a call it ran itself, wherever it is in the message", () => {
  const call = Block.toolCall("ci_1", "code_interpreter", { code: "print(2 + 2)" }, {
    providerExecuted: true,
    itemId: "ci_1",
    providerOptions: { "openai-responses": { type: "code_interpreter_call", status: "completed" } }
  })
  const result = (logs: string) => Block.toolResult("ci_1", "code_interpreter", [Block.json({ outputs: [{ type: "logs", logs }] })], false, { providerExecuted: true })
  const written = (content: ReadonlyArray<Block.AssistantBlock>) => OpenAiResponses.toMessages([Message.user("What is 2 + 2?"), Message.assistant(content)])

  it.effect("a result before its call goes inside the call's item, and nothing is said to be left out", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* written([result("4"), call])
      expect(value[1]).toMatchObject({ type: "code_interpreter_call", id: "ci_1", outputs: [{ type: "logs", logs: "4" }] })
      expect(warnings).toEqual([])
    }))

  it.effect("of two results of one call, the other is left out for that reason", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* written([result("3"), call, result("4")])
      expect(value[1]).toMatchObject({ outputs: [{ type: "logs", logs: "4" }] })
      expect(warnings.map((w) => [w._tag, w.message])).toEqual([
        ["DroppedContent", "messages[1].content[0]: the result of the provider-executed call \"code_interpreter\" was left out: a later result of the same call is sent with the call's item"]
      ])
    }))
})

describe("Gemini: an OpenAI audio reply (a response-side audit)", () => {
  it.effect("its transcript, the words of that turn, is reported as left out beside the audio Gemini is sent", () =>
    Effect.gen(function*() {
      const { value } = yield* OpenAiChat.fromResponse({
        id: "chatcmpl-1", object: "chat.completion", created: 1700000000, model: "gpt-4o-audio-preview",
        choices: [{
          index: 0,
          message: { role: "assistant", content: null, refusal: null, audio: { id: "audio_1", data: "UklGRiQAAABXQVZF", transcript: "The capital of France is Paris.", expires_at: 1700003600 } },
          finish_reason: "stop",
          logprobs: null
        }]
      })
      const { warnings } = yield* Gemini.toMessages([Message.user("Capital of France?"), value.message])
      expect(warnings.map((w) => w.message)).toContainEqual(
        "messages[1].content[0]: the transcript of a generated audio reply (The capital of France is Paris.) was left out: a Gemini part is the audio alone"
      )
      // Chat replays the reply by its id, as the API asks, and says nothing
      expect((yield* OpenAiChat.toMessages([Message.user("Capital of France?"), value.message])).warnings).toEqual([])
    }))
})
