import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"
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
    expect(r.actions[0]?.description).toBe("messages[1]: removed an assistant message with no content left")
    expect(Repair.repair([user("a"), tool([]), assistantMessage("c")]).actions[0]?.description).toBe("messages[1]: removed a tool message with no content left")
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


describe("repair: defects found by an adversarial run", () => {
  it.effect("a continued conversation keeps the results it opens with (they answer a stored response)", () =>
    Effect.gen(function* () {
      const x = [Message.toolResultMessage("call_1", "", "sunny"), user("and tomorrow?")]
      expect(Repair.repair(x).actions.map((a) => a._tag)).toEqual(["RemovedOrphanResult", "RemovedEmptyMessage"])
      const kept = Repair.repair(x, { continues: true })
      expect(kept.actions).toEqual([])
      expect(kept.messages).toBe(x)
      const r = yield* Repair.repairFor("openai-responses", { continues: true })([x[0]!])
      expect(r.messages).toEqual([x[0]])
    }))

  it("two server-run calls sharing an id keep their own results, in order", () => {
    const server = (query: string) => Block.toolCall("srv_1", "web_search", { query }, { providerExecuted: true })
    const found = (text: string) => Block.toolResult("srv_1", "web_search", text, false, { providerExecuted: true })
    const r = Repair.repair([user("q"), assistant([server("oslo"), server("bergen"), found("OSLO"), found("BERGEN"), Block.text("Both found.")])])
    const blocks = r.messages[1]!.content.map((b) => (b._tag === "ToolCall" ? `${b.id} ${JSON.stringify(b.args)}` : b._tag === "ToolResult" ? `${b.toolCallId} ${String(b.content)}` : b._tag))
    expect(blocks).toEqual(['srv_1 {"query":"oslo"}', 'srv_1_repaired_1 {"query":"bergen"}', "srv_1 OSLO", "srv_1_repaired_1 BERGEN", "Text"])
  })

  it("fresh ids avoid every id of the input, and each result stays with its own call", () => {
    const x = [
      user("q"),
      assistant([call("c1", "f"), call("c1", "g")]),
      tool([result("c1", "f"), result("c1", "g")]),
      user("more"),
      assistant([call("c1_repaired_1", "h")]),
      tool(result("c1_repaired_1", "h"))
    ]
    const r = Repair.repair(x)
    const pairs = r.messages.flatMap((m) => Message.toolResultsOf(m)).map((b) => [b.toolCallId, b.toolName])
    const calls = r.messages.flatMap((m) => Message.toolCallsOf(m)).map((b) => [b.id, b.name])
    expect(pairs).toEqual(calls)
    expect(new Set(calls.map(([id]) => id)).size).toBe(3)
    expect(calls[2]).toEqual(["c1_repaired_1", "h"])
    assert.isTrue(Conversation.isValid(r.messages))
  })

  it("with pending calls allowed, a system message after the calls moves before them, and a second repair changes nothing", () => {
    const x = [user("q"), assistant([call("a")]), system("note")]
    const once = Repair.repair(x, { allowPendingToolCalls: true })
    expect(once.messages.map((m) => m.role)).toEqual(["user", "system", "assistant"])
    expect(once.actions.map((a) => a._tag === "MovedSystemMessage" && a.to)).toEqual(["before-pending-calls"])
    expect(Conversation.issuesOf(once.messages, { allowPendingToolCalls: true })).toEqual([])
    const twice = Repair.repair(once.messages, { allowPendingToolCalls: true })
    expect(twice.messages).toBe(once.messages)
    expect(twice.actions).toEqual([])
  })

  it("a tool message whose every result is removed is logged whole, metadata and provider options included", () => {
    const orphans = tool(result("zz"), { metadata: { traceId: "t-1" }, providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })
    const r = Repair.repair([user("q"), orphans, assistantMessage("x")])
    const removed = r.actions.find((a) => a._tag === "RemovedEmptyMessage")
    assert.isTrue(removed !== undefined && removed._tag === "RemovedEmptyMessage" && removed.message === orphans)
  })

  it("a history with no user or assistant content cannot be repaired into a conversation, and validation says so", () => {
    const r = Repair.repair([system("s"), assistant([])])
    expect(Conversation.issuesOf(r.messages).map((i) => i._tag)).toEqual(["EmptyConversation"])
  })

  it("a system message does not separate a run of user messages: they are merged", () => {
    const x = [user("Hi"), system("Be brief."), user("Use metric units.")]
    expect(Conversation.issuesOf(x).map((i) => i._tag)).toEqual(["ConsecutiveRole"])
    const r = Repair.repair(x)
    expect(r.messages.map((m) => m.role)).toEqual(["user", "system"])
    expect(Message.textOf(r.messages[0]!)).toBe("HiUse metric units.")
  })

  it("one id reused by 2,000 calls in one message is renamed call by call, results following in order", () => {
    const n = 2000
    const x = [user("q"), assistant(Array.from({ length: n }, (_, k) => Block.toolCall("same", `tool_${k}`, {}))), tool(Array.from({ length: n }, (_, k) => Block.toolResult("same", `tool_${k}`, `r${k}`)))]
    const r = Repair.repair(x)
    assert.isTrue(Conversation.isValid(r.messages))
    const calls = Message.toolCallsOf(r.messages[1]!)
    const results = Message.toolResultsOf(r.messages[2]!)
    for (let k = 0; k < n; k++) expect([results[k]!.toolCallId, results[k]!.toolName]).toEqual([calls[k]!.id, calls[k]!.name])
  })

  it("the log is in message order", () => {
    const r = Repair.repair([user("q"), assistant([call("a"), call("b")]), tool(result("a")), tool(result("zz")), user("next")])
    expect(r.actions.map((a) => [a._tag, a.index])).toEqual([["InsertedMissingResult", 1], ["RemovedOrphanResult", 3], ["RemovedEmptyMessage", 3]])
  })
})

describe("repairFor", () => {
  it.effect("Anthropic: blank text, unsigned thinking and a trailing-space prefill are fixed, each logged", () =>
    Effect.gen(function* () {
      const x = [
        user([Block.text("Hi"), Block.text("  ")]),
        assistant([Block.thinking("unsigned"), Block.text("Hello ")]),
        user("Summarize"),
        assistant("Summary: \n")
      ]
      const r = yield* Repair.repairFor("anthropic")(x)
      expect(r.actions.map((a) => a._tag)).toEqual(["RemovedBlock", "RemovedBlock", "TrimmedPrefill"])
      const thinking = r.actions[1]
      assert.isTrue(thinking?._tag === "RemovedBlock" && thinking.block._tag === "Thinking" && thinking.block.thinking === "unsigned")
      yield* Conversation.validateFor("anthropic")(r.messages)
    }))

  it.effect("Anthropic: blank text inside a tool result is removed and logged; the writer leaves it out too", () =>
    Effect.gen(function* () {
      const x = [user("q"), assistant([call("a")]), tool(Block.toolResult("a", "get_weather", [Block.text(" "), Block.text("4°C")]))]
      const r = yield* Repair.repairFor("anthropic")(x)
      expect(r.actions.map((a) => a.description)).toEqual([
        "messages[2].content[0]: removed a Text block: Anthropic rejects text blocks without non-whitespace text, in the result of get_weather too"
      ])
      yield* Conversation.validateFor("anthropic")(r.messages)
      const written = yield* Anthropic.toMessages([user("q"), assistant([call("a")]), tool(Block.toolResult("a", "get_weather", [Block.text("")]))])
      expect(written.value.messages[2]!.content).toEqual([{ type: "tool_result", tool_use_id: "a" }])
      expect(written.warnings.map((w) => w.message)).toEqual(["messages[2].content[0]: an empty text block in the result of get_weather was left out: Anthropic rejects empty text blocks"])
    }))

  it.effect("Anthropic with thinking on and no thinking in the open tool loop cannot be repaired, and says why", () =>
    Effect.gen(function* () {
      const x = [user("q"), assistant([call("a")]), tool(result("a"))]
      const e = yield* Effect.flip(Repair.repairFor("anthropic", { thinking: true })(x))
      expect([e._tag, e.issue._tag]).toEqual(["CannotRepair", "ThinkingNotFirst"])
      expect(e.message).toContain("thinking off")
    }))

  it.effect("Gemini: a mid-conversation system message moves to the start; a call turn first gets a user turn", () =>
    Effect.gen(function* () {
      const x = [system("s"), assistant([call("a")]), tool(result("a")), user("ok"), system("late"), assistantMessage("done")]
      const r = yield* Repair.repairFor("gemini")(x)
      expect(r.messages.map((m) => m.role)).toEqual(["system", "system", "user", "assistant", "tool", "user", "assistant"])
      expect(r.actions.map((a) => a._tag)).toEqual(["InsertedUserMessage", "MovedSystemMessage"])
    }))

  it.effect("Gemini 3: calls of the current turn without a thought signature get the documented one", () =>
    Effect.gen(function* () {
      const x = [user("q"), assistant([Block.toolCall("a", "f", {}, { thoughtSignature: "sig" })]), tool(result("a", "f")), assistant([call("b", "g")]), tool(result("b", "g"))]
      const r = yield* Repair.repairFor("gemini", { model: "gemini-3-flash-preview" })(x)
      expect(Message.toolCallsOf(r.messages[3]!)[0]!.thoughtSignature).toBe(Repair.GEMINI_SKIP_SIGNATURE)
    }))

  it.effect("Gemini 2.5: calls without a thought signature are left as they are (the API accepts them)", () =>
    Effect.gen(function* () {
      const x = [user("q"), assistant([Block.toolCall("a", "f", {}, { thoughtSignature: "sig" })]), tool(result("a", "f")), assistant([call("b", "g")]), tool(result("b", "g"))]
      const r = yield* Repair.repairFor("gemini", { model: "gemini-2.5-flash" })(x)
      expect([r.messages, r.actions]).toEqual([x, []])
    }))

  it.effect("Gemini and Anthropic: user messages in a row are left as they are (the APIs merge them); the generic repair merges them", () =>
    Effect.gen(function* () {
      const x = [user("What is the weather in New York?"), user("For context: the root agent handed over to the weather agent."), assistantMessage("Sunny.")]
      for (const provider of ["gemini", "anthropic"] as const) {
        const r = yield* Repair.repairFor(provider)(x)
        expect([provider, r.messages, r.actions]).toEqual([provider, x, []])
      }
      expect(Repair.repair(x).actions.map((a) => a._tag)).toEqual(["MergedConsecutive"])
    }))

  it.effect("Anthropic: text after a server tool's result stays where it is; text after a client call moves before the calls", () =>
    Effect.gen(function* () {
      const server = [Block.toolCall("srvtoolu_1", "web_search", { query: "q" }, { providerExecuted: true }), Block.toolResult("srvtoolu_1", "web_search", [Block.json([])], false, { providerExecuted: true })]
      const answered = [user("q"), assistant([...server, Block.text("It is sunny.")]), user("thanks")]
      const kept = yield* Repair.repairFor("anthropic")(answered)
      expect(kept.actions).toEqual([])
      const calling = [user("q"), assistant([...server, call("a"), Block.text("Checking.")]), tool(result("a")), assistantMessage("ok")]
      const moved = yield* Repair.repairFor("anthropic")(calling)
      expect(moved.actions.map((a) => a._tag)).toEqual(["MovedBlock"])
      expect(moved.messages[1]!.content.map((b) => b._tag)).toEqual(["ToolCall", "ToolResult", "Text", "ToolCall"])
    }))

  it.effect("OpenAI Responses: text between a call and its output moves before the calls", () =>
    Effect.gen(function* () {
      const x = [
        assistant([Block.text("<think>inspect inputs</think>"), call("call-a", "read"), Block.text("<think>inspect views</think>"), call("call-b", "view")]),
        tool([result("call-a", "read"), result("call-b", "view")]),
        user("Reply exactly: done")
      ]
      const r = yield* Repair.repairFor("openai-responses")(x)
      expect(r.actions.map((a) => a._tag)).toEqual(["MovedBlock"])
      expect(r.messages[0]!.content.map((b) => (b._tag === "ToolCall" ? b.id : b._tag))).toEqual(["Text", "Text", "call-a", "call-b"])
    }))

  it.effect("OpenAI Responses: reasoning followed by an edited message without its item id is removed, text kept in the log", () =>
    Effect.gen(function* () {
      const reasoning = Block.thinking("", undefined, { itemId: "rs_1", summary: ["Considering perspectives"], encryptedContent: "gAAAA" })
      const x = [user("What is the meaning of life?"), assistant([reasoning, Block.text("The meaning of life is 42")]), user("Anything to add?")]
      const r = yield* Repair.repairFor("openai-responses")(x)
      expect(r.actions.map((a) => a._tag)).toEqual(["RemovedBlock"])
      expect(r.messages[1]!.content.map((b) => b._tag)).toEqual(["Text"])
      // the message as the API produced it, with its id, keeps its reasoning
      const produced = [user("q"), assistant([reasoning, Block.text("42", { itemId: "msg_1" })]), user("more?")]
      expect((yield* Repair.repairFor("openai-responses")(produced)).actions).toEqual([])
    }))

  it.effect("OpenAI Responses: reasoning with no output after it is removed, text kept in the log", () =>
    Effect.gen(function* () {
      const x = [user("q"), assistant([Block.text("A"), Block.thinking("why", undefined, { itemId: "rs_1" })])]
      const r = yield* Repair.repairFor("openai-responses")(x)
      expect(r.actions.map((a) => a._tag)).toEqual(["RemovedBlock"])
    }))

  for (const provider of ["openai-chat", "openai-responses", "anthropic", "gemini"] as const) {
    it.effect.prop(
      `${provider}: validateFor(repairFor(x)) succeeds for every generated history, or repairFor says why it cannot`,
      [Arb.brokenConversation],
      ([x]) =>
        Effect.gen(function* () {
          const result = yield* Effect.result(Repair.repairFor(provider)(x))
          if (result._tag === "Failure") {
            // a file the provider does not take is the caller's to convert or leave out (Anthropic: audio given as data)
            expect(["EmptyConversation", "ThinkingNotFirst", "TooManyCacheBreakpoints", "DuplicateItemId", "PrefillNotSupported", "UnsupportedMediaType"]).toContain(result.failure.issue._tag)
            return
          }
          yield* Conversation.validateFor(provider)(result.success.messages)
          const indexes = result.success.actions.map((a) => a.index)
          expect(indexes).toEqual([...indexes].sort((a, b) => a - b))
          const again = yield* Repair.repairFor(provider)(result.success.messages)
          expect(again.actions).toEqual([])
        }),
      { arbitrary: { runs: 1000 } }
    )
  }
})
