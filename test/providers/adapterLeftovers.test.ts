/**
 * Adapter items left open by earlier reviews, each settled here: a Responses
 * assistant message whose every block is left out, a streamed Responses item
 * without an id, Gemini requests ending on a model turn, Gemini grounding
 * chunks across stream chunks, and what a transport failure mid-stream keeps.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message } from "../../src/index.js"
import { OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

type Warning = { readonly _tag: string; readonly message: string }

/** The messages reported as left out whole ("messages[i]"). */
const leftOut = (warnings: ReadonlyArray<Warning>): Array<string> =>
  warnings.filter((w) => w._tag === "DroppedContent" && / message was left out: nothing in it could be carried/.test(w.message)).map((w) => w.message.split(":")[0]!)

describe("Responses: an assistant message whose every block is left out", () => {
  // each of these assistant messages has nothing Responses can carry
  const wholly: ReadonlyArray<readonly [string, Message.AssistantMessage]> = [
    ["thinking without a reasoning item id", Message.assistant([Block.thinking("secret", "SIG")])],
    ["redacted thinking", Message.assistant([Block.redactedThinking("RED")])],
    ["another provider's data", Message.assistant([Block.providerData("anthropic", { type: "x" })])],
    ["a generated file", Message.assistant([Block.file(Block.base64("AAAA"), "application/pdf")])],
    ["another provider's executed call", Message.assistant([Block.toolCall("srvtoolu_1", "web_search", { q: "x" }, { providerExecuted: true })])],
    ["thinking and redacted thinking", Message.assistant([Block.thinking("a"), Block.redactedThinking("b")])]
  ]
  for (const [what, message] of wholly) {
    it.effect(`is reported as a message (${what}), as Chat Completions reports it`, () =>
      Effect.gen(function*() {
        const messages = [Message.user("hi"), message, Message.user("again")]
        const responses = yield* OpenAiResponses.toMessages(messages)
        expect(responses.value.filter((item) => (item as { role?: unknown }).role !== "user")).toEqual([])
        expect(leftOut(responses.warnings)).toEqual(["messages[1]"])
        // each block is still reported on its own
        expect(responses.warnings.filter((w) => w._tag === "DroppedContent" && w.message.startsWith("messages[1].content[")).length).toBe(message.content.length)
        const chat = yield* OpenAiChat.toMessages(messages)
        expect(leftOut(chat.warnings)).toEqual(["messages[1]"])
      }))
  }

  it.effect("a message with one block carried is not reported whole", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* OpenAiResponses.toMessages([Message.user("hi"), Message.assistant([Block.redactedThinking("RED"), Block.text("Here.")]), Message.user("x")])
      expect(value).toHaveLength(3)
      expect(leftOut(warnings)).toEqual([])
    }))

  it.effect("an assistant message empty in the input is not reported by the writer (validation reports it)", () =>
    Effect.gen(function*() {
      const { warnings } = yield* OpenAiResponses.toMessages([Message.user("hi"), Message.assistant([]), Message.user("x")])
      expect(leftOut(warnings)).toEqual([])
    }))
})
