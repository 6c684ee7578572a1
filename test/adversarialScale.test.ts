/**
 * Work that grew faster than the input on adversarial inputs, made linear:
 * each fix keeps the output of small inputs as it was (checked against the
 * old algorithm, written here as a reference) and its work bounded.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Message, Repair } from "../src/index.js"
import { joinedMessageText, messageText } from "../src/internal/preview.js"
import { IncompleteResponse } from "../src/providers/Conversion.js"
import { IncompleteStream } from "../src/providers/StreamError.js"
import * as Arb from "./arbitraries.js"

describe("IncompleteStream and IncompleteResponse: the message's work is bounded by its length", () => {
  const parts = Arbitrary.schema(Schema.Array(Schema.Union([Schema.String, Schema.Literals(["\ud83d", "\ude00", "😀", "a;b", ""])])))

  it.prop("joinedMessageText is messageText of the joined text", [parts, Arb.intBetween(0, 40), Arbitrary.schema(Schema.Literals(["; ", "", "\ud83d"]))], ([texts, max, separator]) => {
    assert.strictEqual(joinedMessageText(texts, separator, max), messageText(texts.join(separator), max))
  }, { timeout: 300_000 })

  it("a cut list longer than any string reads as its first 1,000 characters, not a RangeError", () => {
    // 600 sentences of a million characters: their join would pass the longest string V8 makes
    const cut = Array.from({ length: 600 }, () => "x".repeat(1_000_000))
    const stream = new IncompleteStream({ provider: "anthropic-messages", cut, events: 3, partial: undefined })
    assert.strictEqual(stream.message, `anthropic-messages stream is incomplete after 3 events: ${"x".repeat(1_000)}…`)
    const response = new IncompleteResponse({ provider: "anthropic", cut, events: 1, warnings: [] })
    assert.strictEqual(response.message, `anthropic stream ended early after 1 event: ${"x".repeat(1_000)}…`)
  })

  it("a short cut list reads whole", () => {
    const stream = new IncompleteStream({ provider: "openai-chat", cut: ["no finish_reason", "call 0 cut"], events: 1, partial: undefined })
    assert.strictEqual(stream.message, "openai-chat stream is incomplete after 1 event: no finish_reason; call 0 cut")
  })
})

describe("Repair for Anthropic: results read from separate user messages merge in one pass", () => {
  const SEPARATE = { providerOptions: { anthropic: { $separateMessage: true } } } as never

  /** The merge as it was written before: from the last message back, a splice per merged message. */
  const reference = (given: ReadonlyArray<Message.Message>): { readonly messages: Array<Message.Message>; readonly merged: Array<Array<number>> } => {
    const out = given.slice()
    const origins = given.map((_, i) => i)
    const merged: Array<Array<number>> = []
    for (let k = out.length - 1; k > 0; k--) {
      const m = out[k]!
      let j = k - 1
      while (j >= 0 && out[j]!.role === "system") j--
      const before = out[j]
      if (m.role !== "tool" || before?.role !== "tool" || m.providerOptions?.["anthropic"]?.["$separateMessage"] !== true) continue
      merged.push([origins[k]!, origins[j]!])
      out[j] = Message.tool([...before.content, ...m.content] as Array<Block.ToolResultBlock>, before.providerOptions === undefined ? undefined : { providerOptions: before.providerOptions } as never)
      out.splice(k, 1)
      origins.splice(k, 1)
    }
    return { messages: out, merged: merged.reverse() }
  }

  /** A turn of `kinds.length` calls answered in order, each result a tool message (`sep`: read from its own user message) or a system message between. */
  const conversation = (kinds: ReadonlyArray<"tool" | "sep" | "system">): Array<Message.Message> => {
    const calls = kinds.filter((k) => k !== "system").length
    const out: Array<Message.Message> = [Message.user("go")]
    if (calls > 0) out.push(Message.assistant(Array.from({ length: calls }, (_, k) => Block.toolCall(`call_${k}`, "read_file", { path: `f${k}` }))))
    let k = 0
    for (const kind of kinds) {
      if (kind === "system") out.push(Message.system(`note ${out.length}`))
      else {
        const result = Block.toolResult(`call_${k}`, "read_file", `content ${k}`)
        k++
        out.push(kind === "sep" ? Message.tool([result], SEPARATE) : Message.tool([result]))
      }
    }
    return out
  }
  const kinds = Arbitrary.schema(Schema.Array(Schema.Literals(["tool", "sep", "system"])).check(Schema.isMaxLength(12)))

  it.prop("the messages are those of the merge from the back, and each merged-away message is logged as it was given", [kinds], ([ks]) => {
    const given = conversation(ks)
    const repaired = Effect.runSync(Repair.repairFor("anthropic")(given))
    const expected = reference(given)
    // system messages after the results go to the system prompt either way; the merge itself is what is compared
    assert.deepStrictEqual(Message.encodeAll(repaired.messages), Message.encodeAll(expected.messages))
    const merges = repaired.actions.filter((a): a is Repair.MergedConsecutive => a._tag === "MergedConsecutive")
    assert.deepStrictEqual(merges.map((a) => [a.index, a.into]), expected.merged)
    for (const a of merges) assert.strictEqual(a.message, given[a.index])
  }, { timeout: 120_000 })

  it("a run of three: the second is logged with its own result only", () => {
    const given = conversation(["tool", "system", "sep", "system", "sep"])
    const { actions, messages } = Effect.runSync(Repair.repairFor("anthropic")(given))
    assert.deepStrictEqual(messages.map((m) => m.role), ["user", "assistant", "tool", "system", "system"])
    assert.deepStrictEqual(actions.map((a) => `${a._tag} ${a.index}`), ["MovedSystemMessage 3", "MergedConsecutive 4", "MovedSystemMessage 5", "MergedConsecutive 6"])
    const second = actions[1] as Repair.MergedConsecutive
    assert.strictEqual(second.into, 2)
    assert.deepStrictEqual(second.message.content.map((b) => (b._tag === "ToolResult" ? b.toolCallId : b._tag)), ["call_1"])
  })

  it("ten thousand results read from separate messages repair into one message", { timeout: 120_000 }, () => {
    const given = conversation(Array.from({ length: 10_000 }, (_, k) => (k === 0 ? "tool" : "sep")))
    const { messages, actions } = Effect.runSync(Repair.repairFor("anthropic")(given))
    assert.strictEqual(messages.length, 3)
    assert.strictEqual(messages[2]!.content.length, 10_000)
    assert.strictEqual(actions.length, 9_999)
  })

  it("twenty thousand system messages before the user's are left as they are", { timeout: 120_000 }, () => {
    // each message looked back over all the system messages before it: quadratic
    const given = [...Array.from({ length: 20_000 }, (_, k) => Message.system(`note ${k}`)), Message.user("go")]
    const { messages, actions } = Effect.runSync(Repair.repairFor("anthropic")(given))
    assert.strictEqual(messages, given)
    assert.strictEqual(actions.length, 0)
  })

  it("Anthropic with thinking off: a final turn of many thinking-only messages is removed in one pass", { timeout: 120_000 }, () => {
    const given = [Message.user("go"), ...Array.from({ length: 2_000 }, () => Message.assistant([Block.thinking("th", "sig")])), Message.assistant("end")]
    const { messages, actions } = Effect.runSync(Repair.repairFor("anthropic", { thinking: false })(given))
    assert.deepStrictEqual(messages.map((m) => m.role), ["user", "assistant"])
    assert.strictEqual(actions.filter((a) => a._tag === "RemovedEmptyMessage").length, 2_000)
  })
})
