/**
 * `repairFor(provider)` and `validateFor(provider)` agree: repair of a
 * conversation validation accepts changes nothing and logs nothing, and
 * repair's output is one validation accepts (or repair says which rule it
 * cannot mend, one it documents as the caller's). Checked on histories rich
 * in what the writers leave out or keep for another provider: provider
 * options (`$`, `$$` and plain keys, for every provider) on every block, on
 * tool results' parts and on messages, refusals, files, another provider's
 * server tools and provider data, cache breakpoints.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { richConversation } from "./richConversation.js"

/** A copy of a block with more Anthropic options. */
const withAnthropic = <A extends { readonly providerOptions?: Block.ProviderOptions | undefined }>(block: A, anthropic: Record<string, Schema.Json>): A =>
  Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(block) as object) as A, block, {
    providerOptions: { ...block.providerOptions, anthropic: { ...block.providerOptions?.["anthropic"], ...anthropic } }
  }))

/** What `repairFor("anthropic")` removes, as `[index, blockIndex, field]`. */
const removedFields = (actions: ReadonlyArray<Repair.RepairAction>) =>
  actions.flatMap((a) => (a._tag === "RemovedMessageField" ? [[a.index, a.blockIndex, a.field]] : []))

describe("Anthropic: repairFor removes the $ fields of the blocks the writer sends, as validation reads them", () => {
  it.effect("keeps those of a file in an assistant message (the writer leaves it out)", () =>
    Effect.gen(function*() {
      const messages = [Message.user("Chart?"), Message.assistant([withAnthropic(Block.image("https://example.com/chart.png"), { $x: 1 }), Block.text("Here.")]), Message.user("Thanks")]
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages), [])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions, [])
      assert.strictEqual(repaired.messages[1], messages[1])
    }))

  it.effect("keeps those of the result of another provider's server tool, Anthropic options and all (the writer leaves the call out, and so its result)", () =>
    Effect.gen(function*() {
      const call = Block.toolCall("ws_1", "web_search", { query: "oslo" }, { providerExecuted: true, itemId: "ws_1", providerOptions: { "openai-responses": { status: "completed" } } })
      // a result with Anthropic options and none of another provider: unsent all the same, as the answer of an unsent call
      const result = Block.toolResult("ws_1", "web_search", [withAnthropic(Block.text("found"), { $part: 1 })], false, { providerExecuted: true, providerOptions: { anthropic: { type: "web_search_tool_result", $trace: "t" } } })
      const messages = [Message.user("Weather?"), Message.assistant([call, result, Block.text("Sunny.")]), Message.user("Thanks")]
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages), [])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions, [])
      assert.strictEqual(repaired.messages[1], messages[1])
    }))

  it.effect("removes those the writer sends in the same message, and only those", () =>
    Effect.gen(function*() {
      const messages = [
        Message.user("Chart?"),
        Message.assistant([withAnthropic(Block.image("https://example.com/chart.png"), { $x: 1 }), withAnthropic(Block.text("Here."), { $y: 2, $$z: 3 }), withAnthropic(Block.refusal("No more."), { $r: 4 })]),
        Message.user("Thanks")
      ]
      const reported = Conversation.issuesFor("anthropic", messages).flatMap((i) => (i._tag === "UnknownMessageField" ? [[i.index, i.blockIndex, i.field]] : []))
      assert.deepStrictEqual(reported, [[1, 1, "$y"], [1, 1, "$z"]])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(removedFields(repaired.actions), reported)
      const [image, text, refusal] = repaired.messages[1]!.content
      assert.strictEqual(image, messages[1]!.content[0])
      assert.strictEqual(refusal, messages[1]!.content[2])
      assert.deepStrictEqual(text?._tag === "Text" ? text.providerOptions : "not a text", undefined)
    }))
})

describe("Anthropic: repairFor replaces the lone surrogates of what the writer sends, as validation reads it", () => {
  it.effect("leaves one in a field the writer leaves out (another provider's citations, an item id) or in a block it leaves out", () =>
    Effect.gen(function*() {
      const half = "\udc00"
      const messages = [
        Message.user("Weather?"),
        Message.assistant([
          Block.toolCall("ws_1", "web_search", { query: `oslo ${half}` }, { providerExecuted: true, itemId: "ws_1" }),
          Block.text("Sunny.", { citations: [{ url: `https://example.com/${half}` }], itemId: `msg_${half}` })
        ]),
        Message.user("Thanks")
      ]
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages), [])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions, [])
      assert.strictEqual(repaired.messages[1], messages[1])
    }))

  it.effect("replaces every one of a block the writer sends with one", () =>
    Effect.gen(function*() {
      const half = "\ud800"
      const messages = [Message.user("Weather?"), Message.assistant([Block.text(`Sunny ${half}`, { itemId: `msg_${half}` })]), Message.user("Thanks")]
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages).map((i) => i._tag), ["LoneSurrogate"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index, a._tag === "ReplacedLoneSurrogates" ? a.count : 0]), [["ReplacedLoneSurrogates", 1, 2]])
    }))
})

describe("Anthropic: repairFor removes a message's fields where the writer writes them, as validation reads them", () => {
  const withMessageOptions = <M extends Message.Message>(m: M, anthropic: Record<string, Schema.Json>): M =>
    Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(m) as object) as M, m, { providerOptions: { anthropic } }))

  it.effect("keeps those of a message merged into the one before it (they go nowhere)", () =>
    Effect.gen(function*() {
      const messages = [Message.user("Hi"), withMessageOptions(Message.user("Use metric units."), { $x: 1, trace: "t" }), Message.assistant("Sure.")]
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages), [])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions, [])
      assert.strictEqual(repaired.messages[1], messages[1])
    }))

  it.effect("removes those of a message that opens its message once repair has removed the one before it", () =>
    Effect.gen(function*() {
      // (a message left empty in a run with content stays: the writer sends nothing of it; one whose every result is
      // an orphan goes)
      const messages = [Message.tool([Block.toolResult("zz", "get_weather", "stale")]), withMessageOptions(Message.user("Hi"), { trace: "t" }), Message.assistant("Sure.")]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["RemovedOrphanResult", 0], ["RemovedEmptyMessage", 0], ["RemovedMessageField", 1]])
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", repaired.messages), [])
    }))
})

const PROVIDERS = ["openai-chat", "openai-responses", "anthropic", "gemini"] as const

/** The issues `repairFor` documents as the caller's to mend (`CannotRepair`). */
const UNREPAIRABLE = ["EmptyConversation", "ThinkingNotFirst", "TooManyCacheBreakpoints", "DuplicateItemId", "PrefillNotSupported", "UnsupportedMediaType", "LoneSurrogate", "MissingReasoningItem", "MediaTypeMismatch"]

describe("repairFor and validateFor agree", () => {
  for (const provider of PROVIDERS) {
    it.effect.prop(
      `${provider}: repair of a history validateFor accepts returns it as it is, with an empty log`,
      [richConversation],
      ([x]) =>
        Effect.gen(function*() {
          if (Conversation.issuesFor(provider, x).length > 0) return
          const { actions, messages } = yield* Repair.repairFor(provider)(x)
          assert.deepStrictEqual(actions.map((a) => a.description), [])
          assert.strictEqual(messages.length, x.length)
          for (let i = 0; i < x.length; i++) assert.strictEqual(messages[i], x[i], `messages[${i}] was rebuilt`)
        }),
      { arbitrary: { runs: 1000 }, timeout: 240_000 }
    )

    it.effect.prop(
      `${provider}: repair gives a history validateFor accepts, or names a rule it documents as the caller's, and a second repair changes nothing`,
      [richConversation],
      ([x]) =>
        Effect.gen(function*() {
          const result = yield* Effect.result(Repair.repairFor(provider)(x))
          if (result._tag === "Failure") {
            assert.include(UNREPAIRABLE, result.failure.issue._tag, result.failure.message)
            return
          }
          assert.deepStrictEqual(Conversation.issuesFor(provider, result.success.messages), [])
          const again = yield* Repair.repairFor(provider)(result.success.messages)
          assert.deepStrictEqual(again.actions.map((a) => a.description), [])
        }),
      { arbitrary: { runs: 300 }, timeout: 180_000 }
    )
  }
})
