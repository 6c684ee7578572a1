import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Message, MessageWindow } from "../src/index.js"

describe("error wording", () => {
  it("BudgetTooSmall says 'a budget of 1 token', not '1 tokens'", () => {
    const one = new MessageWindow.BudgetTooSmall({ budget: 1, minimumBudget: 9, tokens: 40 })
    assert.strictEqual(one.message, "a budget of 1 token is too small: the messages that must stay need a budget of at least 9 (the conversation has 40)")
    const two = new MessageWindow.BudgetTooSmall({ budget: 2, minimumBudget: 9, tokens: 40 })
    assert.isTrue(two.message.startsWith("a budget of 2 tokens is too small"))
  })

  it.effect("a tool result block in a user message names the assistant messages that may hold one", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Message.decode({
        role: "user",
        content: [{ _tag: "ToolResult", toolCallId: "c1", toolName: "search", content: "3 hits" }]
      }))
      assert.strictEqual(error._tag, "ToolResultFieldsOnNonTool")
      assert.strictEqual(
        error.message,
        "a user message holds a tool result (content[0]); only tool messages, and assistant messages for tools the provider ran, may"
      )
    }))

  it.effect("flat tool-result fields on a user message still belong to tool messages only", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Message.decode({ role: "user", content: "3 hits", toolCallId: "c1" }))
      assert.strictEqual(error.message, "a user message carries tool-result fields (toolCallId); only tool messages may")
    }))
})
