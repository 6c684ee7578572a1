/**
 * Issues a fifth audit found: block-level issues and repair steps that did
 * not say which block they are about (two calls of one message sharing an
 * id could not be told apart), a Responses custom tool call's name (or
 * call_id) that was not a string replaced without the original kept in the
 * log, and, from a property over custom tool calls mixed with function
 * calls, a continued conversation whose opening outputs repair could not
 * fix (a result without an id) or wrongly removed (a function output after
 * a custom one).
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair, ValidationError } from "../src/index.js"
import { OpenAiResponses } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"

const pickOf = <A>(values: ReadonlyArray<A>): Arbitrary.Arbitrary<A> => Arb.intBetween(0, values.length - 1).pipe(Arbitrary.map((k) => values[k]!))

/** Ids that collide between function and custom calls, and the ones the API rejects (missing, empty, not a string). */
const ids: ReadonlyArray<Schema.Json | undefined> = ["c1", "c2", "c1", "ct_1", "", undefined, 42, null, "42"]
const names: ReadonlyArray<Schema.Json | undefined> = ["apply_patch", "apply_patch", "", 7, undefined, null]

const customItem = (type: "custom_tool_call" | "custom_tool_call_output", id: Schema.Json | undefined, rest: Block.JsonObject) =>
  Block.providerData("openai-responses", { type, ...(id === undefined ? {} : { call_id: id }), ...rest })

const assistantBlock: Arbitrary.Arbitrary<Block.AssistantBlock> = Arbitrary.all([Arb.intBetween(0, 5), pickOf(ids), pickOf(names)]).pipe(
  Arbitrary.map(([kind, id, name]): Block.AssistantBlock => {
    switch (kind) {
      case 0:
        return Block.text("Patching.")
      case 1:
        return Block.thinking("", undefined, { itemId: "rs_1" })
      case 2:
        return Block.toolCall(typeof id === "string" ? id : "", "read_file", {})
      case 3:
        return customItem("custom_tool_call", id, { ...(name === undefined ? {} : { name }), input: "*** Begin Patch" })
      default:
        return customItem("custom_tool_call_output", id, { output: "done" })
    }
  })
)

/** Histories mixing function calls and Responses custom tool items (kept as provider data), ids colliding or unusable. */
const mixedConversation: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.array(
  Arbitrary.all([Arb.intBetween(0, 5), Arbitrary.array(assistantBlock, { minLength: 1, maxLength: 4 }), pickOf(ids)]),
  { minLength: 1, maxLength: 7 }
).pipe(
  Arbitrary.map((steps) =>
    steps.map(([kind, blocks, id]): Message.Message => {
      switch (kind) {
        case 0:
          return Message.user("Go on.")
        case 1:
          return Message.toolResultMessage(typeof id === "string" ? id : "", "read_file", "contents")
        case 5:
          return Message.system("Be brief.")
        default:
          return Message.assistant(blocks)
      }
    })
  )
)

const tags = (items: ReadonlyArray<{ readonly _tag: string }>): Array<string> => items.map((i) => i._tag)
const roundTrips = (actions: ReadonlyArray<Repair.RepairAction>): void => {
  const json = Schema.encodeSync(Schema.Array(Repair.RepairAction))(actions)
  assert.deepStrictEqual(Schema.decodeUnknownSync(Schema.Array(Repair.RepairAction))(json), actions)
}

describe("block-level issues name their block", () => {
  it("a call that reuses the id of an earlier message's call is DuplicateToolCallId with the call's blockIndex", () => {
    const history = [
      Message.user("Read both."),
      Message.assistant([Block.toolCall("c1", "read_file", { path: "a" })]),
      Message.toolResultMessage("c1", "read_file", "A"),
      Message.assistant([Block.text("And the other."), Block.toolCall("c2", "read_file", { path: "b" }), Block.toolCall("c1", "read_file", { path: "c" })]),
      Message.tool([Block.toolResult("c2", "read_file", "B"), Block.toolResult("c1", "read_file", "C")])
    ]
    const issues = Conversation.issuesOf(history)
    assert.deepStrictEqual(tags(issues), ["DuplicateToolCallId"])
    const issue = issues[0] as ValidationError.DuplicateToolCallId
    assert.deepStrictEqual([issue.index, issue.blockIndex, issue.firstIndex], [3, 2, 1])
    assert.strictEqual(issue.message, 'messages[3]: content[2]: tool call id "c1" is used twice (first used at messages[1])')
    assert.deepStrictEqual(Schema.encodeSync(ValidationError.Issue)(issue), { _tag: "DuplicateToolCallId", index: 3, toolCallId: "c1", firstIndex: 1, blockIndex: 2 })
  })

  it("Gemini 3: a call without its thought signature is MissingThoughtSignature with the call's blockIndex", () => {
    const history = [
      Message.user("Weather in Oslo?"),
      Message.assistant([Block.text("Checking."), Block.toolCall("c1", "weather", { city: "Oslo" })]),
      Message.toolResultMessage("c1", "weather", "12°C")
    ]
    const issues = Conversation.issuesFor("gemini", history, { model: "gemini-3-flash-preview" })
    assert.deepStrictEqual(tags(issues), ["MissingThoughtSignature"])
    const issue = issues[0] as ValidationError.MissingThoughtSignature
    assert.deepStrictEqual([issue.index, issue.blockIndex], [1, 1])
    assert.strictEqual(issue.message, 'messages[1]: content[1]: tool call "c1" is the first call of its step in the current turn and has no thoughtSignature (gemini)')
  })

  it("Anthropic: a prefill that ends with whitespace is TrailingWhitespacePrefill with the text block's blockIndex", () => {
    const history = [Message.user("Write a haiku."), Message.assistant([Block.text("Autumn wind \n"), Block.thinking("done", "sig")])]
    const issues = Conversation.issuesFor("anthropic", history)
    const issue = issues.find((i) => i._tag === "TrailingWhitespacePrefill") as ValidationError.TrailingWhitespacePrefill
    assert.deepStrictEqual([issue.index, issue.blockIndex], [1, 0])
    assert.strictEqual(issue.message, "messages[1]: content[0]: the final assistant message is a prefill, and anthropic rejects a prefill that ends with whitespace")
  })
})

describe("repair steps about one block name it", () => {
  it("of two calls sharing an id in one message, the renamed one is named by its block, and so is its result", () => {
    const history = [
      Message.user("Read both."),
      Message.assistant([Block.toolCall("c1", "read_file", { path: "a" }), Block.toolCall("c1", "read_file", { path: "b" })]),
      Message.tool([Block.toolResult("c1", "read_file", "A"), Block.toolResult("c1", "read_file", "B")])
    ]
    const { actions, messages } = Repair.repair(history)
    assert.deepStrictEqual(tags(actions), ["RenamedToolCallId", "RenamedToolCallId"])
    const [call, result] = actions as ReadonlyArray<Repair.RenamedToolCallId>
    assert.deepStrictEqual([call!.index, call!.blockIndex, result!.index, result!.blockIndex], [1, 1, 2, 1])
    assert.strictEqual(call!.description, `messages[1].content[1]: renamed tool call id "c1" to ${JSON.stringify(call!.to)}`)
    assert.strictEqual(Message.toolCallsOf(messages[1]!)[1]!.id, call!.to)
    roundTrips(actions)
  })

  it("an empty name filled on a call and on a result names the block", () => {
    const history = [
      Message.user("Weather?"),
      Message.assistant([Block.text("Checking."), Block.toolCall("c1", "")]),
      Message.tool([Block.toolResult("c1", "", "12°C")])
    ]
    const { actions } = Repair.repair(history)
    assert.deepStrictEqual(actions.map((a) => [a._tag, a.index, "blockIndex" in a ? a.blockIndex : undefined]), [["FilledToolName", 1, 1], ["FilledToolName", 2, 0]])
    assert.strictEqual(actions[0]!.description, 'messages[1].content[1]: tool "c1" had an empty name; set to "unknown_tool"')
    roundTrips(actions)
  })

  it("an orphan and a second result removed from a tool message are named by their block", () => {
    const history = [
      Message.user("Weather?"),
      Message.assistant([Block.toolCall("c1", "weather")]),
      Message.tool([Block.toolResult("c1", "weather", "12°C"), Block.toolResult("c9", "weather", "stale"), Block.toolResult("c1", "weather", "12°C again")])
    ]
    const { actions } = Repair.repair(history)
    assert.deepStrictEqual(actions.map((a) => [a._tag, a.index, "blockIndex" in a ? a.blockIndex : undefined]), [["RemovedOrphanResult", 2, 1], ["RemovedDuplicateResult", 2, 2]])
    assert.strictEqual(actions[0]!.description, 'messages[2].content[1]: removed tool result "c9" (weather): it answers no call of the preceding assistant message')
    assert.strictEqual(actions[1]!.description, 'messages[2].content[2]: removed a second result for tool call "c1" (first at messages[2])')
    roundTrips(actions)
  })

  it.effect("Gemini 3: the signature added to a call names the call's block", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Weather in Oslo?"),
        Message.assistant([Block.text("Checking."), Block.toolCall("c1", "weather", { city: "Oslo" })]),
        Message.toolResultMessage("c1", "weather", "12°C")
      ]
      const { actions } = yield* Repair.repairFor("gemini", { model: "gemini-3-flash-preview" })(history)
      assert.deepStrictEqual(tags(actions), ["AddedThoughtSignature"])
      const added = actions[0] as Repair.AddedThoughtSignature
      assert.deepStrictEqual([added.index, added.blockIndex], [1, 1])
      assert.isTrue(added.description.startsWith("messages[1].content[1]: tool call \"c1\" had no thought signature"))
      roundTrips(actions)
    }))

  it.effect("OpenAI Responses: the fresh call_id of a custom tool call and of its output name their blocks", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Patch it."),
        Message.assistant([Block.text("Patching."), customItem("custom_tool_call", undefined, { name: "apply_patch", input: "x" }), customItem("custom_tool_call_output", undefined, { output: "done" })])
      ]
      const { actions } = yield* Repair.repairFor("openai-responses")(history)
      assert.deepStrictEqual(actions.map((a) => [a._tag, "blockIndex" in a ? a.blockIndex : undefined]), [["RenamedToolCallId", 1], ["RenamedToolCallId", 2]])
    }))
})

describe("OpenAI Responses: a custom tool item's field that is not a string is kept in the log when repair replaces it", () => {
  it.effect("a name that is not a string: FilledToolName keeps it as it came", () =>
    Effect.gen(function*() {
      for (const name of [7, null, { tool: "apply_patch" }, ["apply_patch"]] as const) {
        const call = customItem("custom_tool_call", "ct_1", { name, input: "*** Begin Patch" })
        const history = [Message.user("Patch it."), Message.assistant([call, customItem("custom_tool_call_output", "ct_1", { output: "done" })])]
        const { actions, messages } = yield* Repair.repairFor("openai-responses")(history)
        assert.deepStrictEqual(tags(actions), ["FilledToolName"])
        const filled = actions[0] as Repair.FilledToolName
        assert.deepStrictEqual([filled.index, filled.blockIndex, filled.original], [1, 0, name])
        assert.strictEqual(filled.description, `messages[1].content[0]: tool "ct_1" had a name that is not a string (${JSON.stringify(name)}); set to "unknown_tool"`)
        assert.strictEqual((messages[1]!.content[0] as Block.ProviderDataBlock).data["name"], "unknown_tool")
        roundTrips(actions)
      }
      // an empty or missing name has nothing to keep
      for (const fields of [{ name: "" }, {}]) {
        const call = customItem("custom_tool_call", "ct_1", { ...fields, input: "x" })
        const { actions } = yield* Repair.repairFor("openai-responses")([Message.user("Go."), Message.assistant([call, customItem("custom_tool_call_output", "ct_1", { output: "done" })])])
        assert.deepStrictEqual(tags(actions), ["FilledToolName"])
        assert.isUndefined((actions[0] as Repair.FilledToolName).original)
      }
    }))

  it.effect("a call_id that is not a string: RenamedToolCallId keeps it as it came, apart from a string with the same text", () =>
    Effect.gen(function*() {
      for (const id of [42, null, { id: "ct_1" }] as const) {
        const history = [Message.user("Patch it."), Message.assistant([customItem("custom_tool_call", id, { name: "apply_patch", input: "x" })]), Message.user("Well?")]
        const { actions } = yield* Repair.repairFor("openai-responses")(history)
        assert.deepStrictEqual(tags(actions), ["RenamedToolCallId", "InsertedMissingResult"])
        const renamed = actions[0] as Repair.RenamedToolCallId
        assert.deepStrictEqual([renamed.from, renamed.original], [JSON.stringify(id), id])
        assert.strictEqual(renamed.description, `messages[1].content[0]: renamed tool call id ${JSON.stringify(id)} (not a string) to ${JSON.stringify(renamed.to)}`)
        roundTrips(actions)
      }
      // a missing call_id has nothing to keep
      const bare = [Message.user("Go."), Message.assistant([customItem("custom_tool_call", undefined, { name: "apply_patch", input: "x" })]), Message.user("Well?")]
      const { actions } = yield* Repair.repairFor("openai-responses")(bare)
      assert.isUndefined((actions[0] as Repair.RenamedToolCallId).original)
    }))
})

describe("a continued conversation opening with a result without an id", () => {
  it("repair removes it as an orphan, kept whole in the log: no stored call has the empty id", () => {
    const stray = Block.toolResult("", "read_file", "contents")
    const history = [Message.tool([Block.toolResult("call_stored", "read_file", "A"), stray]), Message.user("Thanks."), Message.assistant("Done.")]
    assert.deepStrictEqual(tags(Conversation.issuesOf(history, { continues: true })), ["EmptyToolCallId"])
    const { actions, messages } = Repair.repair(history, { continues: true })
    assert.deepStrictEqual(actions.map((a) => [a._tag, a.index]), [["RemovedOrphanResult", 0]])
    assert.strictEqual((actions[0] as Repair.RemovedOrphanResult).result, stray)
    assert.deepStrictEqual(Message.toolResultsOf(messages[0]!).map((r) => r.toolCallId), ["call_stored"])
    assert.deepStrictEqual(Conversation.issuesOf(messages, { continues: true }), [])
    // a message of nothing else is removed, kept whole
    const only = Repair.repair([Message.tool([stray]), Message.user("Next.")], { continues: true })
    assert.deepStrictEqual(tags(only.actions), ["RemovedOrphanResult", "RemovedEmptyMessage"])
    assert.deepStrictEqual(only.messages.map((m) => m.role), ["user"])
  })
})

describe("OpenAI Responses: a continued conversation opening with outputs of both kinds, custom first", () => {
  const history = [
    Message.assistant([customItem("custom_tool_call_output", "ct_stored", { output: "patched" })]),
    Message.tool([Block.toolResult("call_stored", "", "12°C")]),
    Message.user("Thanks."),
    Message.assistant("Done.")
  ]

  it("the function output after the custom one answers a stored call too: no issue, in either order", () => {
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", history, { continues: true }), [])
    assert.deepStrictEqual(Conversation.issuesOf(history, { continues: true }), [])
    const swapped = [history[1]!, history[0]!, ...history.slice(2)]
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", swapped, { continues: true }), [])
    // not continued, both answer nothing
    assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", history)), ["OrphanToolResult", "OrphanToolResult"])
  })

  it.effect("repair keeps the function output (it used to remove it as an orphan, and the stored call went unanswered)", () =>
    Effect.gen(function*() {
      const repaired = yield* Repair.repairFor("openai-responses", { continues: true })(history)
      assert.deepStrictEqual(repaired.actions, [])
      assert.strictEqual(repaired.messages, history)
      assert.deepStrictEqual(Repair.repair(history, { continues: true }).actions, [])
    }))

  it.effect("read from Responses items with previous_response_id, the request passes its profile", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiResponses.fromMessages([
        { type: "custom_tool_call_output", call_id: "ct_stored", output: "patched" },
        { type: "function_call_output", call_id: "call_stored", output: "12°C" }
      ])
      yield* Conversation.validateFor("openai-responses", { continues: true })(read.value)
    }))
})

/** What must hold of `repairFor("openai-responses", options)(x)`. */
const repairsFor = (x: ReadonlyArray<Message.Message>, options: Repair.RepairForOptions) =>
  Effect.gen(function*() {
    const result = yield* Effect.result(Repair.repairFor("openai-responses", options)(x))
    if (result._tag === "Failure") {
      assert.strictEqual(result.failure.issue._tag, "EmptyConversation")
      return
    }
    const { actions, messages } = result.success
    yield* Conversation.validateFor("openai-responses", options)(messages)
    const again = yield* Repair.repairFor("openai-responses", options)(messages)
    assert.deepStrictEqual(again.actions, [])
    assert.deepStrictEqual(again.messages, messages)
    roundTrips(actions)
    // nothing lost: each custom item is sent, or removed and kept whole in the log; the ones added are logged
    const isCustom = (b: Block.Block): b is Block.ProviderDataBlock =>
      b._tag === "ProviderData" && (b.data["type"] === "custom_tool_call" || b.data["type"] === "custom_tool_call_output")
    const isOutput = (b: Block.Block): boolean => b._tag === "ProviderData" && b.data["type"] === "custom_tool_call_output"
    const custom = (ms: ReadonlyArray<Message.Message>) => ms.flatMap((m) => (m.content as ReadonlyArray<Block.Block>).filter(isCustom))
    const said = options.interruptedContent ?? Repair.INTERRUPTED
    const inserted = (ms: ReadonlyArray<Message.Message>) => custom(ms).filter((b) => b.data["output"] === said).length
    const removed = actions.filter((a) => a._tag === "RemovedBlock" && isCustom(a.block)).length
    assert.strictEqual(custom(messages).length, custom(x).length - removed + inserted(messages))
    if (options.continues === true) {
      // the outputs a continued conversation opens with answer the stored response's calls: each with an id is kept
      let opening = 0
      while (opening < x.length && (x[opening]!.role === "tool" || x[opening]!.role === "system" || x[opening]!.content.every(isOutput))) opening++
      const dropped = actions.filter((a) => (a._tag === "RemovedOrphanResult" || a._tag === "RemovedDuplicateResult") && a.index < opening && a.result.toolCallId !== "")
      assert.deepStrictEqual(dropped, [])
    }
    const interruptedResults = messages.flatMap((m) => (m.role === "tool" ? m.content.filter((r) => r.content === said) : []))
    assert.strictEqual(actions.filter((a) => a._tag === "InsertedMissingResult").length, inserted(messages) + interruptedResults.length)
  })

describe("OpenAI Responses: custom tool calls mixed with function calls, ids colliding or unusable", () => {
  const optionSets = [{}, { allowPendingToolCalls: true }, { continues: true }, { store: false, interruptedContent: "cancelled" }] as const
  it.effect.prop(
    "repairFor gives a history validateFor accepts, loses nothing, keeps a continued conversation's opening outputs, and repairing it again changes nothing",
    [mixedConversation],
    ([x]) => Effect.forEach(optionSets, (options) => repairsFor(x, options), { discard: true }),
    { arbitrary: { runs: 1000 }, timeout: 120_000 }
  )
})
