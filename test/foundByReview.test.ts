/**
 * Issues a review found still open: an OpenAI Responses output item (or
 * content part) added twice, system messages moved by a same-role merge
 * without a log entry, and a Responses custom tool call left unanswered.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair, Request, TokenEstimator, ValidationError } from "../src/index.js"
import { Anthropic, OpenAiResponses, OpenAiResponsesStream, type OpenAiResponsesWire } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"

type ResponsesEvent = OpenAiResponsesWire.StreamEvent

const tags = (items: ReadonlyArray<{ readonly _tag: string }>): Array<string> => items.map((i) => i._tag)

describe("OpenAI Responses stream: events after a second output_item.added or content_part.added", () => {
  const base = { id: "resp_1", object: "response", created_at: 1, model: "gpt-5" }
  const created = { type: "response.created", response: { ...base, status: "in_progress", output: [] } }
  const message = (id: string) => ({ type: "message", id, role: "assistant", status: "in_progress", content: [] })
  const textPart = { type: "output_text", text: "", annotations: [] }
  const partAdded = (output_index: number, content_index: number) => ({ type: "response.content_part.added", output_index, content_index, part: textPart })
  const text = (output_index: number, content_index: number, delta: string) => ({ type: "response.output_text.delta", output_index, content_index, delta })
  const responses = (events: ReadonlyArray<object>) => Effect.flip(OpenAiResponsesStream.fromEvents(events as ReadonlyArray<ResponsesEvent>))
  const textsOf = (item: unknown): Array<string> => ((item as { readonly content: ReadonlyArray<{ readonly text: string }> }).content).map((p) => p.text)

  it.effect("a second item added at an index is a new item: the first keeps only its own text", () =>
    Effect.gen(function*() {
      const events = [
        created,
        { type: "response.output_item.added", output_index: 0, item: message("msg_1") },
        partAdded(0, 0),
        text(0, 0, "Important text"),
        { type: "response.output_item.added", output_index: 0, item: message("msg_2") },
        partAdded(0, 0),
        text(0, 0, "Other text")
      ]
      const error = yield* responses(events)
      assert.strictEqual(error._tag, "StreamProtocolError")
      assert.include(error.message, "output item 0 was added twice")
      if (error._tag !== "StreamProtocolError") return
      // one violation: the second add; the events after it are no further violations
      assert.strictEqual(error.more, 0)
      const output = (error.partial as OpenAiResponsesWire.Response).output
      assert.deepStrictEqual(output.map((item) => (item as { readonly id: string }).id), ["msg_1", "msg_2"])
      assert.deepStrictEqual(output.map(textsOf), [["Important text"], ["Other text"]])
      // the terminal response's output is the server's: an item kept from the second add does not survive it
      const final = { ...message("msg_2"), status: "completed", content: [{ ...textPart, text: "Other text" }] }
      const ended = yield* responses([...events, { type: "response.completed", response: { ...base, status: "completed", output: [final] } }])
      assert.deepStrictEqual<unknown>((ended.partial as OpenAiResponsesWire.Response).output, [final])
    }))

  it.effect("a function call added over a message gets its own arguments, and output_item.done completes the second", () =>
    Effect.gen(function*() {
      const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "search", arguments: "" }
      const error = yield* responses([
        created,
        { type: "response.output_item.added", output_index: 0, item: message("msg_1") },
        partAdded(0, 0),
        text(0, 0, "Let me look."),
        { type: "response.output_item.added", output_index: 0, item: call },
        { type: "response.function_call_arguments.delta", output_index: 0, delta: '{"q": ' },
        { type: "response.function_call_arguments.delta", output_index: 0, delta: '"effect"}' },
        { type: "response.output_item.done", output_index: 0, item: { ...call, arguments: '{"q": "effect"}', status: "completed" } }
      ])
      const output = (error.partial as OpenAiResponsesWire.Response).output
      assert.deepStrictEqual<unknown>(output, [
        { ...message("msg_1"), content: [{ ...textPart, text: "Let me look." }] },
        { ...call, arguments: '{"q": "effect"}', status: "completed" }
      ])
    }))

  it.effect("an index added many times keeps every item, in order, and the items after it follow", () =>
    Effect.gen(function*() {
      const n = 2_000
      const events: Array<object> = [created]
      for (let k = 0; k < n; k++) events.push({ type: "response.output_item.added", output_index: 0, item: message(`msg_${k}`) }, partAdded(0, 0), text(0, 0, `part ${k}`))
      events.push({ type: "response.output_item.added", output_index: 1, item: message("after") }, partAdded(1, 0), text(1, 0, "after"))
      const error = yield* responses(events)
      assert.strictEqual(error._tag, "StreamProtocolError")
      if (error._tag !== "StreamProtocolError") return
      assert.strictEqual(error.more, n - 2)
      const output = (error.partial as OpenAiResponsesWire.Response).output
      assert.deepStrictEqual(output.map(textsOf).flat(), [...Array.from({ length: n }, (_, k) => `part ${k}`), "after"])
    }))

  it.effect("a second content part added at a place is a new part: the first keeps its text, both are in the item in order", () =>
    Effect.gen(function*() {
      const error = yield* responses([
        created,
        { type: "response.output_item.added", output_index: 0, item: message("msg_1") },
        partAdded(0, 0),
        text(0, 0, "Important text"),
        partAdded(0, 0),
        text(0, 0, "Other text"),
        partAdded(0, 1),
        text(0, 1, "Last part")
      ])
      assert.strictEqual(error._tag, "StreamProtocolError")
      assert.include(error.message, "content part 0 of output item 0 was added twice")
      if (error._tag !== "StreamProtocolError") return
      assert.strictEqual(error.more, 0)
      const output = (error.partial as OpenAiResponsesWire.Response).output
      assert.deepStrictEqual(output.map(textsOf), [["Important text", "Other text", "Last part"]])
    }))

  it.effect("a reasoning summary part added twice keeps both parts the same way", () =>
    Effect.gen(function*() {
      const summary = { type: "summary_text", text: "" }
      const delta = (d: string) => ({ type: "response.reasoning_summary_text.delta", output_index: 0, summary_index: 0, delta: d })
      const error = yield* responses([
        created,
        { type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_1", summary: [] } },
        { type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 0, part: summary },
        delta("First thought."),
        { type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 0, part: summary },
        delta("Second thought.")
      ])
      assert.include(error.message, "summary part 0 of output item 0 was added twice")
      const item = (error.partial as OpenAiResponsesWire.Response).output[0] as { readonly summary: ReadonlyArray<{ readonly text: string }> }
      assert.deepStrictEqual(item.summary.map((p) => p.text), ["First thought.", "Second thought."])
    }))
})

describe("Repair: a same-role merge logs the system messages it moves", () => {
  const moves = (actions: ReadonlyArray<Repair.RepairAction>) =>
    actions.flatMap((a) => (a._tag === "MovedSystemMessage" ? [[a.index, a.to]] : []))

  it("a system message between two merged user messages follows the merged message, logged as moved", () => {
    const history = [Message.user("Weather?"), Message.system("Be brief."), Message.user("In Oslo."), Message.assistant("12°C.")]
    const { actions, messages } = Repair.repair(history)
    assert.deepStrictEqual(messages.map((m) => m.role), ["user", "system", "assistant"])
    assert.deepStrictEqual(actions.map((a) => [a._tag, a.index]), [["MovedSystemMessage", 1], ["MergedConsecutive", 2]])
    assert.strictEqual(actions[0]!.description, "messages[1]: moved a system message after the messages around it, merged into one")
    const encoded = Schema.encodeSync(Schema.Array(Repair.RepairAction))(actions)
    assert.deepStrictEqual(Schema.decodeUnknownSync(Schema.Array(Repair.RepairAction))(encoded), actions)
  })

  it("each system message is logged once, however many messages of its run merge after it", () => {
    const history = [
      Message.user("q"),
      Message.assistant("a"),
      Message.system("S1"),
      Message.assistant("b"),
      Message.system("S2"),
      Message.system("S3"),
      Message.assistant("c"),
      Message.assistant("d")
    ]
    const { actions, messages } = Repair.repair(history)
    assert.deepStrictEqual(messages.map((m) => m.role), ["user", "assistant", "system", "system", "system"])
    assert.deepStrictEqual(moves(actions), [[2, "after-merged-messages"], [4, "after-merged-messages"], [5, "after-merged-messages"]])
    // moved by a merge, then out of a turn whose calls merged in after it: logged once, where it ends
    const withCalls = [
      Message.user("q"),
      Message.assistant("Let me look."),
      Message.system("Be brief."),
      Message.assistant("Still looking."),
      Message.system("Use metric units."),
      Message.assistant("Calling."),
      Message.assistantMessage("", [{ id: "c1", name: "weather", args: {} }]),
      Message.toolResultMessage("c1", "weather", "12")
    ]
    const called = Repair.repair(withCalls)
    assert.deepStrictEqual(called.messages.map((m) => m.role), ["user", "assistant", "tool", "system", "system"])
    assert.deepStrictEqual(moves(called.actions), [[2, "after-results"], [4, "after-results"]])
    const pending = Repair.repair(withCalls.slice(0, 7), { allowPendingToolCalls: true })
    assert.deepStrictEqual(pending.messages.map((m) => m.role), ["user", "system", "system", "assistant"])
    assert.deepStrictEqual(moves(pending.actions), [[2, "before-pending-calls"], [4, "before-pending-calls"]])
  })

  it.prop("every system message whose place among the user and assistant content changes is logged as moved, once", [Arb.brokenConversation], ([x]) => {
    const { actions, messages } = Repair.repair(x)
    // a system message's place: how many user and assistant blocks come before it (merges keep every block)
    const placesOf = (ms: ReadonlyArray<Message.Message>) => {
      const places = new Map<Message.Message, number>()
      let seen = 0
      for (const m of ms) {
        if (m.role === "system") places.set(m, seen)
        else if (m.role !== "tool") seen += m.content.length
      }
      return places
    }
    const before = placesOf(x)
    const after = placesOf(messages)
    const moved = actions.flatMap((a) => (a._tag === "MovedSystemMessage" ? [a.index] : []))
    assert.strictEqual(new Set(moved).size, moved.length, "a system message is logged as moved once")
    x.forEach((m, index) => {
      const now = after.get(m)
      if (now !== undefined && now !== before.get(m)) assert.isTrue(moved.includes(index), `messages[${index}] moved unlogged`)
    })
  }, { arbitrary: { runs: 300 } })
})

describe("Anthropic repair: merging results read from two user messages logs the system message between them", () => {
  it.effect("the system message follows the merged results, logged as moved", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromMessages({
        messages: [
          { role: "user", content: "Weather in Oslo and Bergen?" },
          { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "w", input: {} }, { type: "tool_use", id: "c2", name: "w", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "12" }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "c2", content: "9" }] }
        ]
      })
      const history = [...read.value.slice(0, 3), Message.system("Be brief."), read.value[3]!]
      const { actions, messages } = yield* Repair.repairFor("anthropic")(history)
      assert.deepStrictEqual(messages.map((m) => m.role), ["user", "assistant", "tool", "system"])
      assert.deepStrictEqual(actions.map((a) => [a._tag, a.index]), [["MovedSystemMessage", 3], ["MergedConsecutive", 4]])
      assert.strictEqual((actions[0] as Repair.MovedSystemMessage).to, "after-merged-messages")
    }))
})

describe("OpenAI Responses: a custom tool call needs its output, once", () => {
  const customCall = (id: string) => Block.providerData("openai-responses", { type: "custom_tool_call", call_id: id, name: "apply_patch", input: "*** Begin Patch" })
  const customOutput = (id: string, output = "done") => Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: id, output })

  it("a custom call with no output after it, the conversation going on, is MissingToolResult with its blockIndex", () => {
    const history = [Message.user("Patch it."), Message.assistant([Block.text("Patching."), customCall("ct_1")]), Message.user("Well?")]
    const issues = Conversation.issuesFor("openai-responses", history)
    assert.deepStrictEqual(tags(issues), ["MissingToolResult"])
    const issue = issues[0] as ValidationError.MissingToolResult
    assert.deepStrictEqual([issue.index, issue.blockIndex, issue.toolCallIds, issue.resumedAt], [1, 1, ["ct_1"], 2])
    assert.strictEqual(issue.message, 'messages[1]: content[1]: custom tool call "ct_1" has no custom tool output before messages[2] (openai-responses)')
    // at the end of the conversation it is pending: an issue unless pending calls are allowed, as for a function call
    const pending = history.slice(0, 2)
    const atEnd = Conversation.issuesFor("openai-responses", pending)
    assert.deepStrictEqual(tags(atEnd), ["MissingToolResult"])
    assert.strictEqual(atEnd[0]!.message, 'messages[1]: content[1]: custom tool call "ct_1" has no custom tool output before the conversation ends (openai-responses)')
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", pending, { allowPendingToolCalls: true }), [])
    // an output anywhere after the call answers it; the other profiles send no Responses items
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", [...history, Message.assistant([customOutput("ct_1")])]), [])
    assert.deepStrictEqual(Conversation.issuesFor("openai-chat", history), [])
  })

  it.effect("read from Responses items: a custom call without its output fails validateFor", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiResponses.fromMessages([
        { role: "user", content: "Patch it." },
        { type: "custom_tool_call", call_id: "ct_1", name: "apply_patch", input: "*** Begin Patch" },
        { role: "user", content: "Well?" }
      ])
      const error = yield* Effect.flip(Conversation.validateFor("openai-responses")(read.value))
      assert.strictEqual(error._tag, "MissingToolResult")
    }))

  it.effect("repairFor answers it with a custom tool output saying the call was interrupted, right after the call", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Patch both."),
        Message.assistant([customCall("ct_1"), customCall("ct_2"), customOutput("ct_2")]),
        Message.user("Well?"),
        Message.assistant([customCall("ct_3")])
      ]
      const { actions, messages } = yield* Repair.repairFor("openai-responses")(history)
      assert.deepStrictEqual(actions.map((a) => [a._tag, a.index]), [["InsertedMissingResult", 1], ["InsertedMissingResult", 3]])
      const inserted = actions[0] as Repair.InsertedMissingResult
      assert.deepStrictEqual([inserted.toolCallId, inserted.toolName], ["ct_1", "apply_patch"])
      assert.deepStrictEqual((messages[1] as Message.AssistantMessage).content, [
        customCall("ct_1"),
        customOutput("ct_1", Repair.INTERRUPTED),
        customCall("ct_2"),
        customOutput("ct_2")
      ])
      assert.deepStrictEqual((messages[3] as Message.AssistantMessage).content, [customCall("ct_3"), customOutput("ct_3", Repair.INTERRUPTED)])
      yield* Conversation.validateFor("openai-responses")(messages)
      // the items sent: each call followed by its output
      const sent = yield* OpenAiResponses.toMessages(messages)
      assert.deepStrictEqual(
        sent.value.flatMap((item) => ("type" in item && typeof item.type === "string" && item.type.startsWith("custom_tool_call") ? [`${item.type} ${(item as { readonly call_id: string }).call_id}`] : [])),
        ["custom_tool_call ct_1", "custom_tool_call_output ct_1", "custom_tool_call ct_2", "custom_tool_call_output ct_2", "custom_tool_call ct_3", "custom_tool_call_output ct_3"]
      )
      // with pending calls allowed, the call the conversation ends with waits for its output
      const pending = yield* Repair.repairFor("openai-responses", { allowPendingToolCalls: true, interruptedContent: "cancelled" })(history)
      assert.deepStrictEqual(pending.actions.map((a) => [a._tag, a.index]), [["InsertedMissingResult", 1]])
      assert.deepStrictEqual((pending.messages[1] as Message.AssistantMessage).content[1], customOutput("ct_1", "cancelled"))
      assert.deepStrictEqual(pending.messages[3], history[3])
    }))

  it.effect("a second custom output for one call is DuplicateToolResult, as for function outputs, and repairFor removes it", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Patch it."),
        Message.assistant([customCall("ct_1"), customOutput("ct_1")]),
        Message.user("Again?"),
        Message.assistant([customOutput("ct_1", "done again"), Block.text("Done.")])
      ]
      const issues = Conversation.issuesFor("openai-responses", history)
      assert.deepStrictEqual(tags(issues), ["DuplicateToolResult"])
      const issue = issues[0] as ValidationError.DuplicateToolResult
      assert.deepStrictEqual([issue.index, issue.blockIndex, issue.toolCallId, issue.firstIndex], [3, 0, "ct_1", 1])
      assert.strictEqual(issue.message, 'messages[3]: content[0]: custom tool call "ct_1" is answered twice (first at messages[1]) (openai-responses)')
      const { actions, messages } = yield* Repair.repairFor("openai-responses")(history)
      assert.deepStrictEqual(tags(actions), ["RemovedBlock"])
      assert.deepStrictEqual((actions[0] as Repair.RemovedBlock).block, customOutput("ct_1", "done again"))
      assert.deepStrictEqual((messages[3] as Message.AssistantMessage).content, [Block.text("Done.")])
      yield* Conversation.validateFor("openai-responses")(messages)
    }))
})

describe("UnsupportedMediaType names an image an image however its type is spelled", () => {
  it("a leading space, capitals and parameters still read as an image type", () => {
    const issue = new ValidationError.UnsupportedMediaType({
      provider: "openai-chat",
      index: 1,
      blockIndex: 0,
      mediaType: " IMAGE/BMP; q=1",
      supported: ["image/png", "image/jpeg", "image/gif", "image/webp"]
    })
    assert.include(issue.message, "does not take  IMAGE/BMP; q=1 images")
  })
})

describe("audio and video are read however their type is spelled", () => {
  it("a leading space or capitals price a clip as the clip it is, as the writers send it", () => {
    // 16-bit PCM WAV, 16 kHz mono, 3 seconds, with no samples written (only its header is read)
    const header = Buffer.alloc(44)
    header.write("RIFF", 0, "ascii")
    header.writeUInt32LE(36 + 96_000, 4)
    header.write("WAVEfmt ", 8, "ascii")
    header.writeUInt32LE(16, 16)
    header.writeUInt16LE(1, 20)
    header.writeUInt16LE(1, 22)
    header.writeUInt32LE(16_000, 24)
    header.writeUInt32LE(32_000, 28)
    header.writeUInt16LE(2, 32)
    header.writeUInt16LE(16, 34)
    header.write("data", 36, "ascii")
    header.writeUInt32LE(96_000, 40)
    const data = Buffer.concat([header, Buffer.alloc(96_000)]).toString("base64")
    const price = (mediaType: string) => TokenEstimator.heuristic.estimateBlock(Block.file(Block.base64(data), mediaType))
    assert.strictEqual(price(" audio/wav"), price("audio/wav"))
    assert.strictEqual(price("\tAUDIO/WAV; rate=16000"), price("audio/wav"))
  })
})

describe("a Responses tool choice of a hosted tool that cannot be named", () => {
  it.effect("names the tool's type in the warning cut and without a lone surrogate", () =>
    Effect.gen(function*() {
      const type = `x_tool_\ud800${"y".repeat(10_000)}`
      const request = Request.make([Message.user("Hi")], {
        model: "gpt-5",
        tools: [Request.providerTool("mine", "openai-responses", type)],
        toolChoice: { _tag: "Tool", name: "mine" }
      })
      const { warnings } = yield* OpenAiResponses.toRequest(request)
      const dropped = warnings.find((w) => w._tag === "DroppedContent")
      assert.isDefined(dropped)
      assert.isBelow(dropped!.message.length, 400)
      assert.notMatch(dropped!.message, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
      assert.include(dropped!.message, "x_tool_\ufffd")
    }))
})
