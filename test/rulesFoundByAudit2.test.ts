/**
 * Rules a second audit of validation and repair found missed: OpenAI
 * arguments text judged by a `parseError` the text may not have, a system
 * message moved by Anthropic's thinking merge without a log entry, and a
 * Responses custom tool output that answers no custom tool call.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { vi } from "vitest"
import { Block, Conversation, Message, Repair, ValidationError } from "../src/index.js"
import { Anthropic, OpenAiChat, OpenAiResponses, ToolArguments } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"

const tags = (items: ReadonlyArray<{ readonly _tag: string }>): Array<string> => items.map((i) => i._tag)
const openAi = ["openai-chat", "openai-responses"] as const

describe("OpenAI: the arguments text that is sent is judged, whatever parseError says", () => {
  const history = (call: Block.ToolCallBlock) => [Message.user("Weather?"), Message.assistant([call]), Message.toolResultMessage(call.id, call.name, "12°C")]

  it("kept text that is not JSON is MalformedToolArguments without a parseError too", () => {
    const calls = [
      Block.toolCall("c1", "f", {}, { rawArgs: "{bad" }),
      Block.toolCall("c1", "weather", { city: "Osl" }, { rawArgs: '{"city": "Osl' }),
      Block.toolCall("c1", "f", {}, { rawArgs: "{'q': 1}" })
    ]
    for (const call of calls) {
      for (const provider of openAi) {
        const issues = Conversation.issuesFor(provider, history(call))
        assert.deepStrictEqual(tags(issues), ["MalformedToolArguments"], `${provider}: ${call.rawArgs}`)
      }
    }
  })

  it("kept text that is a JSON object is no issue, even with a parseError that says otherwise", () => {
    const stale = Block.toolCall("c1", "weather", { city: "Oslo" }, { rawArgs: '{ "city": "Oslo" }', parseError: "Unexpected end of JSON input" })
    for (const provider of openAi) assert.deepStrictEqual(Conversation.issuesFor(provider, history(stale)), [], provider)
  })

  it.effect("repairFor replaces broken text without a parseError, keeps it in the log, and sends the args", () =>
    Effect.gen(function*() {
      const call = Block.toolCall("c1", "weather", { city: "Osl" }, { rawArgs: '{"city": "Osl' })
      for (const provider of openAi) {
        const { actions, messages } = yield* Repair.repairFor(provider)(history(call))
        assert.deepStrictEqual(tags(actions), ["ReplacedToolArguments"], provider)
        const action = actions[0] as Repair.ReplacedToolArguments
        assert.deepStrictEqual([action.original, action.replacement], ['{"city": "Osl', '{"city":"Osl"}'])
        assert.deepStrictEqual(Conversation.issuesFor(provider, messages), [])
        const chat = yield* OpenAiChat.toMessages(messages)
        const sent = (chat.value[1] as { readonly tool_calls: ReadonlyArray<{ readonly function: { readonly arguments: string } }> }).tool_calls[0]!
        assert.strictEqual(sent.function.arguments, '{"city":"Osl"}')
      }
    }))

  it("a kept text is read once, however often the history is validated", () => {
    // JSON that is no object, without the parseError a reader would have set: its args went out as {}
    const call = Block.toolCall("c1", "f", {}, { rawArgs: "[1, 2]" })
    const parse = vi.spyOn(JSON, "parse")
    try {
      for (let k = 0; k < 3; k++) assert.deepStrictEqual(tags(Conversation.issuesFor("openai-chat", history(call))), ["MalformedToolArguments"])
      assert.strictEqual(parse.mock.calls.filter(([text]) => text === "[1, 2]").length, 1)
    } finally {
      parse.mockRestore()
    }
  })

  const rawText = Arbitrary.all([Arb.intBetween(0, 7), Arb.args]).pipe(
    Arbitrary.map(([kind, other]): (args: Schema.Json) => string | undefined => (args) => {
      switch (kind) {
        case 0:
          return undefined
        case 1:
          return JSON.stringify(args)
        case 2:
          return JSON.stringify(args, null, 2)
        case 3:
          return JSON.stringify(other, null, 1) // args edited since the text was read
        case 4:
          return ""
        case 5:
          return '{"city": "Osl'
        case 6:
          return "[1,2]"
        default:
          return "{'q': 1}"
      }
    })
  )

  it.prop(
    "a call is MalformedToolArguments exactly when the text the OpenAI adapters send is not a JSON object (or empty)",
    [Arb.args, rawText, Arb.bool],
    ([args, raw, withError]) => {
      const rawArgs = raw(args)
      const call = Block.toolCall("c1", "f", args, {
        ...(rawArgs === undefined ? {} : { rawArgs }),
        ...(withError ? { parseError: "a reason the reader gave" } : {})
      })
      const sent = ToolArguments.toText(call)
      let object = sent.trim() === ""
      try {
        const value: unknown = JSON.parse(sent)
        object ||= typeof value === "object" && value !== null && !Array.isArray(value)
      } catch {
        // not JSON
      }
      for (const provider of openAi) {
        assert.deepStrictEqual(tags(Conversation.issuesFor(provider, history(call))), object ? [] : ["MalformedToolArguments"], `${provider}: ${sent}`)
      }
    }
  )
})

describe("Anthropic: the thinking merge logs the system messages it moves", () => {
  it.effect("a system message between the merged assistant messages follows the merged message, logged as moved", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Find it."),
        Message.assistant([Block.text("Let me look.")]),
        Message.system("Be brief."),
        Message.assistant([Block.thinking("Search for it.", "sig_1"), Block.toolCall("toolu_1", "search", { q: "effect" })]),
        Message.toolResultMessage("toolu_1", "search", "3 hits")
      ]
      const { actions, messages } = yield* Repair.repairFor("anthropic")(history)
      assert.deepStrictEqual(messages.map((m) => m.role), ["user", "assistant", "system", "tool"])
      assert.deepStrictEqual(tags(actions), ["MovedBlock", "MovedSystemMessage", "MergedConsecutive"])
      const moved = actions[1] as Repair.MovedSystemMessage
      assert.deepStrictEqual([moved.index, moved.to], [2, "after-merged-messages"])
      assert.strictEqual(moved.description, "messages[2]: moved a system message after the messages around it, merged into one")
      // the log is JSON like every other entry
      const encoded = Schema.encodeSync(Schema.Array(Repair.RepairAction))(actions)
      assert.deepStrictEqual(Schema.decodeUnknownSync(Schema.Array(Repair.RepairAction))(encoded), actions)
      // what Anthropic gets is the same either way: the system text goes to the system prompt
      const wire = yield* Anthropic.toMessages(messages)
      assert.deepStrictEqual((wire.value.messages[1]!.content as ReadonlyArray<{ readonly type: string }>).map((b) => b.type), ["thinking", "text", "tool_use"])
    }))

  it.effect("each system message of a turn of three merged assistant messages is logged, in message order", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Find it."),
        Message.assistant("Let me look."),
        Message.system("Be brief."),
        Message.assistant("Still looking."),
        Message.system("Answer in French."),
        Message.assistant([Block.thinking("Search for it.", "sig_1"), Block.toolCall("toolu_1", "search", {})]),
        Message.system("Cite sources."),
        Message.toolResultMessage("toolu_1", "search", "3 hits")
      ]
      const { actions, messages } = yield* Repair.repairFor("anthropic")(history)
      assert.deepStrictEqual(messages.map((m) => m.role), ["user", "assistant", "system", "system", "system", "tool"])
      assert.deepStrictEqual(actions.map((a) => [a._tag, a.index]), [
        ["MovedBlock", 1],
        ["MovedSystemMessage", 2],
        ["MergedConsecutive", 3],
        ["MovedSystemMessage", 4],
        ["MergedConsecutive", 5]
      ])
    }))
})

describe("OpenAI Responses: a custom tool output must answer a custom tool call before it", () => {
  const customCall = (id: string) => Block.providerData("openai-responses", { type: "custom_tool_call", call_id: id, name: "apply_patch", input: "*** Begin Patch" })
  const customOutput = (id: string) => Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: id, output: "done" })

  it("an output with no custom tool call before it is OrphanToolResult; one after its call, in its message or an earlier one, is not", () => {
    const orphan = [Message.user("Patch it."), Message.assistant([customOutput("ct_9"), Block.text("Done.")])]
    const issues = Conversation.issuesFor("openai-responses", orphan)
    assert.deepStrictEqual(tags(issues), ["OrphanToolResult"])
    const issue = issues[0] as ValidationError.OrphanToolResult
    assert.deepStrictEqual([issue.index, issue.blockIndex, issue.toolCallId], [1, 0, "ct_9"])
    assert.strictEqual(issue.message, 'messages[1]: content[0]: custom tool output "ct_9" answers no custom tool call before it (openai-responses)')
    // an output before its call answers nothing either
    assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", [Message.user("Patch it."), Message.assistant([customOutput("ct_1"), customCall("ct_1")])])), ["OrphanToolResult", "MissingToolResult"])
    const answered = [
      [Message.user("Patch it."), Message.assistant([customCall("ct_1"), customOutput("ct_1"), Block.text("Done.")])],
      [Message.user("Patch it."), Message.assistant([customCall("ct_1")]), Message.user("go on"), Message.assistant([customOutput("ct_1")])]
    ]
    for (const history of answered) assert.deepStrictEqual(Conversation.issuesFor("openai-responses", history), [])
  })

  it.effect("read from Responses items: an output whose call is not among them fails validateFor", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiResponses.fromMessages([
        { role: "user", content: "Patch it." },
        { type: "custom_tool_call_output", call_id: "ct_9", output: "done" }
      ])
      const error = yield* Effect.flip(Conversation.validateFor("openai-responses")(read.value))
      assert.strictEqual(error._tag, "OrphanToolResult")
      const paired = yield* OpenAiResponses.fromMessages([
        { role: "user", content: "Patch it." },
        { type: "custom_tool_call", call_id: "ct_1", name: "apply_patch", input: "*** Begin Patch" },
        { type: "custom_tool_call_output", call_id: "ct_1", output: "done" }
      ])
      yield* Conversation.validateFor("openai-responses")(paired.value)
    }))

  it("a continued conversation may open with outputs of the stored response's calls, but not after a user message", () => {
    const opening = [Message.assistant([customOutput("ct_stored")]), Message.user("Thanks."), Message.assistant("Done.")]
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", opening, { continues: true }), [])
    assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", opening)), ["OrphanToolResult"])
    const later = [Message.user("Thanks."), Message.assistant([customOutput("ct_stored"), Block.text("Done.")])]
    assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", later, { continues: true })), ["OrphanToolResult"])
  })

  it.effect("repairFor removes an orphan output, kept whole in the log, and the message it leaves empty", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Patch it."),
        Message.assistant([customCall("ct_1"), customOutput("ct_1"), customOutput("ct_9"), Block.text("Done.")]),
        Message.user("Again."),
        Message.assistant([customOutput("ct_8")]),
        Message.assistant("Nothing to do.")
      ]
      const { actions, messages } = yield* Repair.repairFor("openai-responses")(history)
      assert.deepStrictEqual(actions.map((a) => [a._tag, a.index]), [["RemovedBlock", 1], ["RemovedBlock", 3], ["RemovedEmptyMessage", 3]])
      const removed = actions[0] as Repair.RemovedBlock
      assert.deepStrictEqual([removed.blockIndex, removed.block], [2, customOutput("ct_9")])
      assert.deepStrictEqual((messages[1] as Message.AssistantMessage).content, [customCall("ct_1"), customOutput("ct_1"), Block.text("Done.")])
      assert.deepStrictEqual(messages.map((m) => m.role), ["user", "assistant", "user", "assistant"])
      yield* Conversation.validateFor("openai-responses")(messages)
      // the other profiles send no Responses items: nothing to repair there
      assert.deepStrictEqual(Conversation.issuesFor("openai-chat", history.slice(0, 2)), [])
    }))
})
