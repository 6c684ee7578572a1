/**
 * A message whose every block the target cannot carry is left out and
 * reported, never written empty: every provider rejects an empty message
 * (Anthropic "all messages must have non-empty content", a Chat assistant
 * message without content or calls, a Gemini content without parts).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message, Request } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

const conversation = [
  Message.user("hi"),
  Message.assistant([Block.thinking("secret", "SIG")]),
  Message.user([Block.audio("AAAA", "audio/ogg")]),
  Message.assistant([Block.redactedThinking("RED")]),
  Message.user("again"),
  Message.assistant("Here."),
  Message.user("last")
]
const request = Request.make(conversation, { model: "m", maxOutputTokens: 5 })

const leftOut = (warnings: ReadonlyArray<{ readonly _tag: string; readonly message: string }>): Array<string> =>
  warnings.filter((w) => w._tag === "DroppedContent" && / message was left out: nothing in it could be carried/.test(w.message)).map((w) => w.message.split(":")[0]!)

describe("a message emptied by the conversion", () => {
  it.effect("Chat Completions leaves it out and says so", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* OpenAiChat.toRequest(request)
      expect(value.messages.map((m) => m.role)).toEqual(["user", "user", "assistant", "user"])
      expect(leftOut(warnings)).toEqual(["messages[1]", "messages[2]", "messages[3]"])
    }))

  it.effect("Responses leaves it out and says so", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* OpenAiResponses.toRequest(request)
      const input = value.input as ReadonlyArray<{ readonly content?: unknown }>
      expect(input.every((item) => !Array.isArray(item.content) || item.content.length > 0)).toBe(true)
      expect(leftOut(warnings)).toEqual(["messages[1]", "messages[2]", "messages[3]"])
    }))

  it.effect("Gemini leaves it out and says so", () =>
    Effect.gen(function*() {
      const thinkingOnly = Request.make([Message.user("hi"), Message.assistant([Block.redactedThinking("RED")]), Message.user("again")], { model: "m" })
      const { value, warnings } = yield* Gemini.toRequest(thinkingOnly)
      expect(value.contents.map((c) => c.role)).toEqual(["user", "user"])
      expect(leftOut(warnings)).toEqual(["messages[1]"])
    }))

  it.effect("Anthropic leaves it out and merges the turns that then meet", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* Anthropic.toRequest(request)
      expect(value.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"])
      expect(value.messages.every((m) => typeof m.content === "string" ? m.content !== "" : m.content.length > 0)).toBe(true)
      expect(leftOut(warnings)).toEqual(["messages[2]"])
      // the thinking turns on both sides of the audio message are one assistant turn now
      expect(value.messages[1]!.content).toEqual([{ type: "thinking", thinking: "secret", signature: "SIG" }, { type: "redacted_thinking", data: "RED" }])
    }))

  it.effect("a message empty in the input is written as it was (the validator reports it)", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* OpenAiChat.toMessages([Message.user("hi"), Message.assistant([]), Message.user("again")])
      expect(value).toHaveLength(3)
      expect(leftOut(warnings)).toEqual([])
    }))
})
