import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import * as Arb from "./arbitraries.js"

const { assistant, assistantMessage, system, tool, toolResultMessage, user } = Message
const call = (id: string, name = "read_file") => Block.toolCall(id, name, { path: `/tmp/${id}` })
const result = (id: string, name = "read_file") => Block.toolResult(id, name, `contents of ${id}`)
const tags = (r: Repair.RepairResult) => r.actions.map((a) => a._tag)

describe("Conversation.repair", () => {
  it("an interrupted call gets a synthetic error result", () => {
    const r = Repair.repair([user("q"), assistant([call("a"), call("b")]), tool(result("a")), user("still there?")])
    expect(tags(r)).toEqual(["InsertedMissingResult"])
    const inserted = r.messages[3]
    assert.isTrue(inserted !== undefined && Message.isToolResultMessage(inserted))
    if (inserted === undefined || !Message.isToolResultMessage(inserted)) return
    expect(inserted.content[0]).toEqual(Block.toolResult("b", "read_file", "tool call was interrupted", true))
    expect(r.messages[4]).toEqual(user("still there?"))
    expect(r.actions[0]?.description).toBe('messages[1]: tool call "b" (read_file) had no result; inserted an error result "tool call was interrupted"')
  })

  it("calls left open at the end are closed, unless pending calls are allowed", () => {
    const open = [user("q"), assistant([call("a")])]
    expect(tags(Repair.repair(open))).toEqual(["InsertedMissingResult"])
    expect(Repair.repair(open, { allowPendingToolCalls: true }).messages).toBe(open)
    expect(Repair.repair(open, { interruptedContent: "cancelled" }).messages[2]).toEqual(
      tool(Block.toolResult("a", "read_file", "cancelled", true))
    )
  })

  it("an orphan result is removed and kept in the log", () => {
    const orphan = toolResultMessage("zz", "read_file", "stale")
    const r = Repair.repair([user("q"), orphan, assistantMessage("a")])
    expect(r.messages).toEqual([user("q"), assistantMessage("a")])
    const action = r.actions[0]
    assert.strictEqual(action?._tag, "RemovedOrphanResult")
    if (action?._tag === "RemovedOrphanResult") expect(action.result).toBe(orphan.content[0])
  })

  it("a duplicate result is removed, keeping the first", () => {
    const r = Repair.repair([user("q"), assistant([call("a")]), tool(result("a")), tool(Block.toolResult("a", "read_file", "again")), assistantMessage("x")])
    expect(tags(r)).toEqual(["RemovedDuplicateResult", "RemovedEmptyMessage"])
    expect(r.messages.length).toBe(4)
  })

  it("only the orphan is removed from a tool message that also answers a call", () => {
    const r = Repair.repair([user("q"), assistant([call("a")]), tool([result("a"), result("zz")]), assistantMessage("x")])
    expect(Message.toolResultsOf(r.messages[2]!).map((b) => b.toolCallId)).toEqual(["a"])
  })

  it("same-role runs are merged, content in order, the merged-away message in the log", () => {
    const second = user("Hello?", { metadata: { retry: true } })
    const r = Repair.repair([user("Hi", { metadata: { s: 1 } }), second, assistantMessage("Yes")])
    expect(r.messages[0]).toEqual(user([Block.text("Hi"), Block.text("Hello?")], { metadata: { retry: true, s: 1 } }))
    const action = r.actions[0]
    assert.strictEqual(action?._tag, "MergedConsecutive")
    if (action?._tag === "MergedConsecutive") expect([action.index, action.into, action.message]).toEqual([1, 0, second])
  })

  it("empty messages are removed, and what they separated is merged", () => {
    const r = Repair.repair([user("a"), assistant([]), user("b"), assistantMessage("c")])
    expect(tags(r)).toEqual(["RemovedEmptyMessage", "MergedConsecutive"])
    expect(Message.textOf(r.messages[0]!)).toBe("ab")
  })

  it("a system message between calls and results is moved after the results", () => {
    const r = Repair.repair([user("q"), assistant([call("a")]), system("note"), tool(result("a")), assistantMessage("x")])
    expect(tags(r)).toEqual(["MovedSystemMessage"])
    expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "system", "assistant"])
  })

  it("a reused call id is renamed, and its results follow it", () => {
    const r = Repair.repair([
      user("q"),
      assistant([call("a")]),
      tool(result("a")),
      assistant([call("a")]),
      tool(Block.toolResult("a", "read_file", "second")),
      assistantMessage("x")
    ])
    expect(tags(r)).toEqual(["RenamedToolCallId", "RenamedToolCallId"])
    const renamed = Message.toolCallsOf(r.messages[3]!)[0]!.id
    expect(renamed).not.toBe("a")
    expect(Message.toolResultsOf(r.messages[4]!)[0]?.toolCallId).toBe(renamed)
  })

  it("empty ids and names are filled", () => {
    const r = Repair.repair([user("q"), assistant([Block.toolCall("", "")]), tool(Block.toolResult("", "", "x")), assistantMessage("y")])
    expect(new Set(tags(r))).toEqual(new Set(["RenamedToolCallId", "FilledToolName"]))
    expect(Conversation.isValid(r.messages)).toBe(true)
  })

  it("a valid conversation is returned as it is, with an empty log", () => {
    const valid = [user("q"), assistant([call("a"), call("b")]), tool(result("b")), tool(result("a")), assistantMessage("x")]
    const r = Repair.repair(valid)
    expect(r.messages).toBe(valid)
    expect(r.actions).toEqual([])
  })

  it.effect("the repair log encodes to JSON and decodes back", () =>
    Effect.gen(function* () {
      const r = Repair.repair([user("q"), toolResultMessage("zz", "f", "x"), user("again"), assistantMessage("a")])
      const Log = Schema.Array(Repair.RepairAction)
      const json = JSON.parse(JSON.stringify(yield* Schema.encodeEffect(Log)(r.actions)))
      expect(json[0]._tag).toBe("RemovedOrphanResult")
      expect(yield* Schema.decodeUnknownEffect(Log)(json)).toEqual(r.actions)
    }))
})

const resultCount = (ms: ReadonlyArray<Message.Message>) => ms.reduce((n, m) => n + Message.toolResultsOf(m).length, 0)
const nonToolBlocks = (ms: ReadonlyArray<Message.Message>) => ms.reduce((n, m) => (m.role === "tool" ? n : n + m.content.length), 0)

describe("repair properties", () => {
  it.effect("the broken-conversation generator really breaks most conversations", () =>
    Effect.gen(function* () {
      const samples = yield* Arbitrary.sampleEffect(Arb.brokenConversation, { count: 300, seed: 7 })
      const broken = samples.filter((x) => !Conversation.isValid(x)).length
      expect(broken / samples.length).toBeGreaterThan(0.6)
    }))

  it.effect.prop(
    "validate(repair(x)) succeeds for broken conversations",
    [Arb.brokenConversation],
    ([x]) => Conversation.validate(Repair.repair(x).messages).pipe(Effect.asVoid),
    { arbitrary: { runs: 1000 } }
  )

  it.prop("repair is idempotent", [Arb.brokenConversation], ([x]) => {
    const once = Repair.repair(x).messages
    const twice = Repair.repair(once)
    expect(twice.actions).toEqual([])
    expect(twice.messages).toBe(once)
  }, { arbitrary: { runs: 1000 } })

  it.prop("repair(x) is x when x is already valid", [Arb.validConversation], ([x]) => {
    const r = Repair.repair(x)
    expect(r.messages).toBe(x)
    expect(r.actions).toEqual([])
  }, { arbitrary: { runs: 1000 } })

  it.prop("nothing is dropped without a log entry", [Arb.brokenConversation], ([x]) => {
    const r = Repair.repair(x)
    const count = (tag: Repair.RepairAction["_tag"]) => r.actions.filter((a) => a._tag === tag).length
    // every result either survives or is in the log; inserted results are logged too
    expect(resultCount(r.messages)).toBe(resultCount(x) - count("RemovedOrphanResult") - count("RemovedDuplicateResult") + count("InsertedMissingResult"))
    // every user/assistant/system block survives (merges concatenate); removed messages had none
    expect(nonToolBlocks(r.messages)).toBe(nonToolBlocks(x))
    // a tool message left with no result is logged whole as RemovedEmptyMessage
    expect(r.messages.length).toBe(
      x.length - count("RemovedEmptyMessage") - count("MergedConsecutive") + new Set(r.actions.filter((a) => a._tag === "InsertedMissingResult").map((a) => a.index)).size
    )
  }, { arbitrary: { runs: 1000 } })
})

