/**
 * Cases a sweep of every property at tens of thousands of runs found, pinned as examples. Where the property was
 * wrong rather than the code, the example pins the behaviour the property had not allowed for.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"

const tags = (messages: ReadonlyArray<Message.Message>) => Conversation.issuesFor("anthropic", messages).map((issue) => issue._tag)

describe("a user message the Anthropic writer leaves out alone is sent once a later user message joins its run", () => {
  // its only block is another format's provider data; its own fields include one Anthropic rejects
  const leftOut = Message.user([Block.providerData("openai-chat", { type: "input_audio", input_audio: { data: "UklGRiQ=", format: "wav" } })], {
    providerOptions: { anthropic: { cache_control: { type: "ephemeral" }, $x: "v" } }
  })

  it.effect("alone: nothing of it is written, and validation and repair find nothing to do", () =>
    Effect.gen(function*() {
      const written = yield* Anthropic.toMessages([leftOut])
      assert.deepStrictEqual(written.value.messages, [])
      assert.deepStrictEqual(tags([leftOut]), [])
      assert.deepStrictEqual((yield* Repair.repairFor("anthropic")([leftOut])).actions, [])
    }))

  it.effect("followed by a user message: its fields go on the joined wire message, so its \"$x\" is reported and removed", () =>
    Effect.gen(function*() {
      const messages = [leftOut, Message.user("And Tromsø?")]
      const written = yield* Anthropic.toMessages(messages)
      assert.strictEqual(written.value.messages.length, 1)
      assert.strictEqual((written.value.messages[0] as unknown as Record<string, unknown>)["$x"], "v")
      assert.deepStrictEqual(tags(messages), ["UnknownMessageField"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["RemovedMessageField", 0]])
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))
})
