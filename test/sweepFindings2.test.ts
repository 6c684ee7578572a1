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

describe("where the properties were wrong rather than repair: behaviour they had not allowed for", () => {
  it.effect("results read from two user messages, the second opened by an empty message of its own, are merged from that message on", () =>
    Effect.gen(function*() {
      const separate = Message.tool([], { providerOptions: { anthropic: { $separateMessage: true } } })
      const messages = [
        Message.user("Weather in Oslo?"),
        Message.assistant([Block.toolCall("c0", "get_weather", { city: "Oslo" })]),
        Message.assistant([Block.toolCall("c1", "get_weather", { city: "Bergen" })]),
        Message.tool([Block.toolResult("c0", "get_weather", "sunny")]),
        separate,
        Message.tool([Block.toolResult("c1", "get_weather", "rain")])
      ]
      assert.deepStrictEqual(yield* wireShape(messages), ["user:text", "assistant:tool_use,tool_use", "user:tool_result", "user:tool_result"])
      // the issue names the calls' message and the message where the results came apart (5), not the empty one (4)
      assert.deepStrictEqual(tags(messages), ["MissingToolResult"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      // the merge is logged at the empty message that opens the second wire message: the results' message follows it
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["MergedConsecutive", 4]])
      assert.deepStrictEqual(yield* wireShape(repaired.messages), ["user:text", "assistant:tool_use,tool_use", "user:tool_result,tool_result"])
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))

  it.effect("an empty user message whose run loses its only content across a left-out run is removed", () =>
    Effect.gen(function*() {
      // the empty user message and the orphan result are one wire message (the assistant run of another provider's
      // data between them is left out); once the orphan goes, the writer would send the user message empty
      const messages = [
        Message.user([]),
        Message.assistant([Block.providerData("gemini", { executableCode: { language: "PYTHON", code: "1" } })]),
        Message.tool([Block.toolResult("call_1", "get_weather", "sunny")])
      ]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]).sort(), [["RemovedEmptyMessage", 0], ["RemovedEmptyMessage", 2], ["RemovedOrphanResult", 2]])
      assert.deepStrictEqual(repaired.messages.map((m) => m.role), ["assistant"])
      assert.deepStrictEqual(yield* wireShape(repaired.messages), [])
    }))
})
