/**
 * A call sent as the deprecated single `function_call` has no id on the wire,
 * so its result can only go back as a `role: "function"` message: a `tool`
 * message would answer a `tool_calls` entry that is not there (a 400). That
 * holds for a result the conversation was read with and for one a repair
 * made for an unanswered call.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Conversation, Repair } from "../../src/index.js"
import { OpenAiChat } from "../../src/providers/index.js"

describe("OpenAI Chat: the result of a deprecated function_call (found by review)", () => {
  it.effect("a result repair inserts for an unanswered function_call is written as a role function message", () =>
    Effect.gen(function* () {
      const read = yield* OpenAiChat.fromMessages([
        { role: "user", content: "hi" },
        { role: "assistant", content: null, function_call: { name: "lookup", arguments: "{}" } },
        { role: "user", content: "again" }
      ])
      const { messages } = yield* Repair.repairFor("openai-chat")(read.value)
      const { value } = yield* OpenAiChat.toMessages(messages)
      expect(value.map((m) => m.role)).toEqual(["user", "assistant", "function", "user"])
      expect(value[2]).toMatchObject({ role: "function", name: "lookup", content: Repair.INTERRUPTED })
      // read back, it is valid as it stands
      const back = yield* OpenAiChat.fromMessages(value)
      yield* Conversation.validateFor("openai-chat")(back.value)
    }))

  it.effect("a result of an ordinary tool call in the same conversation stays a tool message", () =>
    Effect.gen(function* () {
      const read = yield* OpenAiChat.fromMessages([
        { role: "user", content: "hi" },
        { role: "assistant", content: null, function_call: { name: "lookup", arguments: "{}" } },
        { role: "function", name: "lookup", content: "found" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "call_1", content: "found again" }
      ])
      const { value } = yield* OpenAiChat.toMessages(read.value)
      expect(value.map((m) => m.role)).toEqual(["user", "assistant", "function", "assistant", "tool"])
    }))
})
