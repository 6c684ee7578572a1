/**
 * Issues a third audit found: Responses custom tool items whose `call_id` is
 * missing, empty or not a string went unflagged (or paired with each other),
 * the log of an inserted result quoted the default text whatever was
 * inserted, a custom call's inserted output was logged at the wrong message
 * after a merge, and a `ConversationContext` printed its messages as
 * `[Getter]`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Equal, Hash, Inspectable, Schema } from "effect"
import * as util from "node:util"
import { Block, Conversation, ConversationContext, Message, Repair, TokenEstimator, ValidationError } from "../src/index.js"
import { OpenAiResponses } from "../src/providers/index.js"

const tags = (items: ReadonlyArray<{ readonly _tag: string }>): Array<string> => items.map((i) => i._tag)

/** A custom tool item with `call_id` set to `id`, or without one when `id` is `undefined`. */
const customItem = (type: "custom_tool_call" | "custom_tool_call_output", id: Schema.Json | undefined, fields: Block.JsonObject) =>
  Block.providerData("openai-responses", { type, ...(id === undefined ? {} : { call_id: id }), ...fields })
const customCall = (id: Schema.Json | undefined) => customItem("custom_tool_call", id, { name: "apply_patch", input: "*** Begin Patch" })
const customOutput = (id: Schema.Json | undefined, output = "done") => customItem("custom_tool_call_output", id, { output })

/** What the API rejects: no call_id, an empty one, one that is not a string. */
const badIds: ReadonlyArray<Schema.Json | undefined> = [undefined, "", 42, null]

describe("OpenAI Responses: a custom tool item without a usable call_id", () => {
  it("a custom tool output whose call_id is missing, empty or not a string is an OrphanToolResult naming the block", () => {
    for (const id of badIds) {
      const history = [Message.user("Patch it."), Message.assistant([customCall("ct_1"), customOutput("ct_1"), customOutput(id)])]
      const issues = Conversation.issuesFor("openai-responses", history)
      assert.deepStrictEqual(tags(issues), ["OrphanToolResult"], `call_id ${JSON.stringify(id)}`)
      const issue = issues[0] as ValidationError.OrphanToolResult
      assert.deepStrictEqual([issue.index, issue.blockIndex, issue.toolCallId], [1, 2, ""])
      assert.strictEqual(issue.message, "messages[1]: content[2]: custom tool output has no call_id (missing, empty or not a string), so it answers no custom tool call (openai-responses)")
    }
  })

  it("a continued conversation may open with outputs, but not with one that has no call_id", () => {
    const history = [Message.assistant([customOutput("ct_0"), customOutput(undefined)]), Message.user("Next.")]
    assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", history, { continues: true })), ["OrphanToolResult"])
  })

  it("a custom tool call whose call_id is missing, empty or not a string is a MissingToolResult no output can clear", () => {
    for (const id of badIds) {
      // an output with the same unusable id does not answer it: the API rejects both items
      const history = [Message.user("Patch it."), Message.assistant([customCall(id), customOutput(id)]), Message.user("Well?")]
      const issues = Conversation.issuesFor("openai-responses", history)
      assert.deepStrictEqual(tags(issues).sort(), ["MissingToolResult", "OrphanToolResult"], `call_id ${JSON.stringify(id)}`)
      const missing = issues.find((i) => i._tag === "MissingToolResult") as ValidationError.MissingToolResult
      assert.deepStrictEqual([missing.index, missing.blockIndex, missing.toolCallIds], [1, 0, [""]])
      assert.strictEqual(missing.message, "messages[1]: content[0]: custom tool call has no call_id (missing, empty or not a string), so no custom tool output can answer it (openai-responses)")
    }
  })

  it("a custom tool call without a usable call_id at the end is not pending: allowPendingToolCalls still reports it", () => {
    for (const id of badIds) {
      const history = [Message.user("Patch it."), Message.assistant([customCall(id)])]
      assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", history, { allowPendingToolCalls: true })), ["MissingToolResult"], `call_id ${JSON.stringify(id)}`)
    }
    // one with a call_id is pending, as before
    assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", [Message.user("Patch it."), Message.assistant([customCall("ct_1")])], { allowPendingToolCalls: true })), [])
  })

  it.effect("read from Responses items, a custom call without call_id fails validateFor", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiResponses.fromMessages([
        { role: "user", content: "Patch it." },
        { type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch" },
        { role: "user", content: "Well?" }
      ])
      const error = yield* Effect.flip(Conversation.validateFor("openai-responses")(read.value))
      assert.strictEqual(error._tag, "MissingToolResult")
    }))

  it.effect("repairFor gives such a call a fresh call_id, which the output after it without one follows, as for an empty function call id", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Patch it."),
        Message.assistant([customCall(undefined), customOutput(undefined, "patched")]),
        Message.user("And the other file?"),
        Message.assistant([customCall("")]),
        Message.user("Well?")
      ]
      const { actions, messages } = yield* Repair.repairFor("openai-responses")(history)
      assert.deepStrictEqual(actions.map((a) => [a._tag, a.index]), [
        ["RenamedToolCallId", 1],
        ["RenamedToolCallId", 1],
        ["RenamedToolCallId", 3],
        ["InsertedMissingResult", 3]
      ])
      const [call, output] = actions as ReadonlyArray<Repair.RenamedToolCallId>
      assert.deepStrictEqual([call!.from, output!.from, output!.to], ["", "", call!.to])
      assert.deepStrictEqual((messages[1] as Message.AssistantMessage).content, [customCall(call!.to), customOutput(call!.to, "patched")])
      const second = (actions[2] as Repair.RenamedToolCallId).to
      assert.notStrictEqual(second, call!.to)
      assert.deepStrictEqual((messages[3] as Message.AssistantMessage).content, [customCall(second), customOutput(second, Repair.INTERRUPTED)])
      yield* Conversation.validateFor("openai-responses")(messages)
    }))

  it.effect("repairFor removes an output without call_id that no such call comes before, kept whole in the log", () =>
    Effect.gen(function*() {
      const history = [Message.user("Patch it."), Message.assistant([customCall("ct_1"), customOutput("ct_1"), customOutput(42, "stray")])]
      const { actions, messages } = yield* Repair.repairFor("openai-responses")(history)
      assert.deepStrictEqual(tags(actions), ["RemovedBlock"])
      const removed = actions[0] as Repair.RemovedBlock
      assert.deepStrictEqual([removed.index, removed.blockIndex, removed.block], [1, 2, customOutput(42, "stray")])
      assert.include(removed.reason, "no call_id")
      assert.deepStrictEqual((messages[1] as Message.AssistantMessage).content, [customCall("ct_1"), customOutput("ct_1")])
      yield* Conversation.validateFor("openai-responses")(messages)
    }))

  it.effect("a custom tool call without a name is EmptyToolName, and repairFor gives it the stand-in a function call gets", () =>
    Effect.gen(function*() {
      for (const name of [undefined, "", 7]) {
        const call = Block.providerData("openai-responses", { type: "custom_tool_call", call_id: "ct_1", input: "*** Begin Patch", ...(name === undefined ? {} : { name }) })
        const history = [Message.user("Patch it."), Message.assistant([call, customOutput("ct_1")]), Message.user("Thanks.")]
        const issues = Conversation.issuesFor("openai-responses", history)
        assert.deepStrictEqual(tags(issues), ["EmptyToolName"], `name ${JSON.stringify(name)}`)
        const issue = issues[0] as ValidationError.EmptyToolName
        assert.deepStrictEqual([issue.index, issue.blockIndex, issue.toolCallId], [1, 0, "ct_1"])
        const { actions, messages } = yield* Repair.repairFor("openai-responses")(history)
        assert.deepStrictEqual(actions.map((a) => [a._tag, a.index]), [["FilledToolName", 1]])
        assert.strictEqual((messages[1]!.content[0] as Block.ProviderDataBlock).data["name"], "unknown_tool")
        yield* Conversation.validateFor("openai-responses")(messages)
      }
      // without a call_id either: both are fixed, the name logged under the fresh id
      const bare = Block.providerData("openai-responses", { type: "custom_tool_call", input: "x" })
      const { actions } = yield* Repair.repairFor("openai-responses")([Message.user("Go."), Message.assistant([bare]), Message.user("Well?")])
      assert.deepStrictEqual(tags(actions), ["RenamedToolCallId", "FilledToolName", "InsertedMissingResult"])
      const renamed = actions[0] as Repair.RenamedToolCallId
      assert.strictEqual((actions[1] as Repair.FilledToolName).toolCallId, renamed.to)
      assert.include((actions[2] as Repair.InsertedMissingResult).description, "(unknown_tool)")
    }))

  it.effect("a fresh call_id is not one any item of the conversation uses", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Patch it."),
        Message.assistant([customCall("call_repaired_1"), customOutput("call_repaired_1"), customCall("")]),
        Message.user("Well?"),
        Message.assistant([customCall("call_repaired_2"), customOutput("call_repaired_2")])
      ]
      const { actions, messages } = yield* Repair.repairFor("openai-responses")(history)
      const renamed = actions.find((a) => a._tag === "RenamedToolCallId") as Repair.RenamedToolCallId
      assert.notInclude(["call_repaired_1", "call_repaired_2"], renamed.to)
      yield* Conversation.validateFor("openai-responses")(messages)
    }))
})

describe("InsertedMissingResult.description", () => {
  const history = [
    Message.user("Weather?"),
    Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
    Message.user("Never mind.")
  ]

  it("quotes the content that was inserted, clipped when long; the default stays as it was", () => {
    const given = Repair.repair(history, { interruptedContent: "cancelled by the user" })
    const action = given.actions[0] as Repair.InsertedMissingResult
    assert.strictEqual(action.description, 'messages[1]: tool call "c1" (weather) had no result; inserted an error result "cancelled by the user"')
    assert.strictEqual(action.content, "cancelled by the user")
    const long = "x".repeat(1000)
    const clipped = (Repair.repair(history, { interruptedContent: long }).actions[0] as Repair.InsertedMissingResult).description
    assert.isBelow(clipped.length, 300)
    assert.include(clipped, "x…")
    // the default: the same text and the same JSON as before
    const plain = Repair.repair(history).actions[0] as Repair.InsertedMissingResult
    assert.strictEqual(plain.description, 'messages[1]: tool call "c1" (weather) had no result; inserted an error result "tool call was interrupted"')
    assert.deepStrictEqual(Schema.encodeSync(Repair.RepairAction)(plain), { _tag: "InsertedMissingResult", index: 1, toolCallId: "c1", toolName: "weather" })
  })

  it.effect("so does the output repairFor inserts for an unanswered Responses custom tool call", () =>
    Effect.gen(function*() {
      const custom = [Message.user("Patch it."), Message.assistant([customCall("ct_1")]), Message.user("Well?")]
      const { actions } = yield* Repair.repairFor("openai-responses", { interruptedContent: "cancelled" })(custom)
      assert.strictEqual(actions[0]!.description, 'messages[1]: tool call "ct_1" (apply_patch) had no result; inserted an error result "cancelled"')
    }))
})

describe("repairFor('openai-responses'): an unanswered custom tool call in a merged message", () => {
  it.effect("is logged at the message the call came in, as validation reports it and as a function call is", () =>
    Effect.gen(function*() {
      const history = [Message.user("Patch it."), Message.assistant("Let me patch."), Message.assistant([customCall("ct_1")]), Message.user("Well?")]
      const reported = Conversation.issuesFor("openai-responses", history).find((i) => i._tag === "MissingToolResult")
      assert.strictEqual(reported?.index, 2)
      const { actions, messages } = yield* Repair.repairFor("openai-responses")(history)
      assert.deepStrictEqual(actions.map((a) => [a._tag, a.index]), [["MergedConsecutive", 2], ["InsertedMissingResult", 2]])
      assert.deepStrictEqual((messages[1] as Message.AssistantMessage).content, [Block.text("Let me patch."), customCall("ct_1"), customOutput("ct_1", Repair.INTERRUPTED)])
    }))
})

describe("ConversationContext printed", () => {
  const messages = [Message.user("Weather in Oslo?"), Message.assistant("12°C and clear.")]
  const context = ConversationContext.makeWith(TokenEstimator.heuristic, messages, 1000)

  it("console.log, util.inspect, String and toJSON show its messages, as Effect's data types show their values", () => {
    const inspected = util.inspect(context, { depth: 5 })
    assert.notInclude(inspected, "[Getter]")
    assert.include(inspected, "ConversationContext")
    assert.include(inspected, "12°C and clear.")
    assert.include(inspected, "budget: 1000")
    const text = String(context)
    assert.include(text, "Weather in Oslo?")
    assert.include(text, '"budget":1000')
    const json = Inspectable.toJson(context) as { readonly _id: string; readonly messages: ReadonlyArray<Message.Message>; readonly headroom: number }
    assert.strictEqual(json._id, "ConversationContext")
    assert.deepStrictEqual(json.messages, messages)
    assert.strictEqual(json.headroom, context.headroom)
    assert.deepStrictEqual(JSON.parse(JSON.stringify(context)).messages, JSON.parse(JSON.stringify(messages)))
  })

  it("keeps its own keys, Equal and Hash as they were: printing lives beside them", () => {
    const again = ConversationContext.append(ConversationContext.makeWith(TokenEstimator.heuristic, messages.slice(0, 1), 1000), messages[1]!)
    assert.deepStrictEqual(Object.keys(context), ["messages", "budget", "estimated", "correction", "tokens", "headroom", "estimator"])
    assert.deepStrictEqual(Object.getOwnPropertySymbols(context), [])
    assert.isTrue(Equal.equals(context, again))
    assert.strictEqual(Hash.hash(context), Hash.hash(again))
    // printing an appended context shows its own messages, not the shared history's
    const later = ConversationContext.append(again, Message.user("And tomorrow?"))
    assert.notInclude(util.inspect(again, { depth: 5 }), "And tomorrow?")
    assert.include(util.inspect(later, { depth: 5 }), "And tomorrow?")
  })
})
