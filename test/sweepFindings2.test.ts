/**
 * Cases a second sweep of the Anthropic rules' and repair's properties at tens of thousands of runs found, pinned as
 * examples.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"

const tags = (messages: ReadonlyArray<Message.Message>) => Conversation.issuesFor("anthropic", messages).map((issue) => issue._tag)

/** The wire messages' roles and block types, as the Anthropic writer sends them. */
const wireShape = (messages: ReadonlyArray<Message.Message>) =>
  Effect.map(Anthropic.toMessages(messages), (written) =>
    written.value.messages.map((m) => `${m.role}:${typeof m.content === "string" ? "text" : m.content.map((b) => b.type).join(",")}`))

describe("repairFor(\"anthropic\"): a missing result goes before an empty message that opens a wire message of its own", () => {
  // an empty tool message read from a message of its own: the writer sends nothing of it, but the user's next words
  // go into the wire message it opens, not into the results' one
  const separate = Message.tool([], { providerOptions: { anthropic: { $separateMessage: true } } })
  const messages = [
    Message.system("Be brief."),
    Message.user("Weather in Oslo?"),
    Message.assistant([Block.text("Checking."), Block.toolCall("c0", "get_weather", { city: "Oslo" }), Block.toolCall("c1", "get_weather", { city: "Bergen" })]),
    Message.tool([Block.toolResult("c0", "get_weather", "sunny")]),
    separate,
    Message.user("And Bergen?")
  ]

  it.effect("the result goes into the results' wire message, and the empty message and the user's words stay as they are", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* wireShape(messages), ["user:text", "assistant:text,tool_use,tool_use", "user:tool_result", "user:text"])
      assert.deepStrictEqual(tags(messages), ["MissingToolResult"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      // (it merged the empty message into the results, and so the user's words with them, which no issue named)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["InsertedMissingResult", 2]])
      assert.deepStrictEqual(tags(repaired.messages), [])
      assert.strictEqual(repaired.messages[5], separate)
      assert.deepStrictEqual(yield* wireShape(repaired.messages), ["user:text", "assistant:text,tool_use,tool_use", "user:tool_result,tool_result", "user:text"])
      assert.deepStrictEqual((yield* Repair.repairFor("anthropic")(repaired.messages)).actions, [])
    }))
})

describe("repairFor(\"anthropic\"): an empty message read from a message of its own is merged into the results before it only when results follow it", () => {
  // the empty tool messages after it add nothing to its wire message: the user's words alone fill it
  const separate = Message.tool([], { providerOptions: { anthropic: { $separateMessage: true } } })
  const messages = [
    Message.system("Be brief."),
    Message.user("Weather in Oslo?"),
    Message.assistant([Block.text("Checking."), Block.toolCall("c0", "get_weather", { city: "Oslo" }), Block.toolCall("c1", "get_weather", { city: "Bergen" })]),
    Message.tool([]),
    separate,
    Message.tool([]),
    Message.user("And Bergen?")
  ]

  it.effect("the results are inserted and the empty messages stay: the user's words keep their wire message", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* wireShape(messages), ["user:text", "assistant:text,tool_use,tool_use", "user:", "user:text"])
      assert.deepStrictEqual(tags(messages).sort(), ["EmptyMessage", "MissingToolResult"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      // (it merged the separate message into the results, and so the user's words with them, which no issue named)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["InsertedMissingResult", 2], ["InsertedMissingResult", 2]])
      assert.deepStrictEqual(tags(repaired.messages), [])
      assert.deepStrictEqual(yield* wireShape(repaired.messages), ["user:text", "assistant:text,tool_use,tool_use", "user:tool_result,tool_result", "user:text"])
      assert.deepStrictEqual((yield* Repair.repairFor("anthropic")(repaired.messages)).actions, [])
    }))

  it.effect("an empty one followed in its wire message by results is still merged with them into the results before it", () =>
    Effect.gen(function*() {
      const split = [...messages.slice(0, 3), Message.tool([Block.toolResult("c0", "get_weather", "sunny")]), separate, Message.tool([]), Message.tool([Block.toolResult("c1", "get_weather", "rain")]), Message.user("And Bergen?")]
      assert.deepStrictEqual(yield* wireShape(split), ["user:text", "assistant:text,tool_use,tool_use", "user:tool_result", "user:tool_result,text"])
      const repaired = yield* Repair.repairFor("anthropic")(split)
      assert.deepStrictEqual(tags(repaired.messages), [])
      assert.deepStrictEqual(repaired.actions.filter((a) => a._tag === "MergedConsecutive").map((a) => a.index), [4])
      assert.deepStrictEqual(yield* wireShape(repaired.messages), ["user:text", "assistant:text,tool_use,tool_use", "user:tool_result,tool_result,text"])
    }))
})
