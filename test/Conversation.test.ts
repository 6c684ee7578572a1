import { assert, describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Cause, Effect, Exit, Schema } from "effect"
import { Block, Conversation, Message, Repair, Request, ValidationError } from "../src/index.js"
import type { Provider } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"
import { anthropicRuns, LEFT_OUT } from "../src/internal/anthropicSent.js"
import * as Arb from "./arbitraries.js"

const { assistant, assistantMessage, system, tool, toolResultMessage, user } = Message
const call = (id: string, name = "get_weather") => Block.toolCall(id, name, { city: id })
const result = (id: string, name = "get_weather") => Block.toolResult(id, name, `result ${id}`)

const firstTag = (messages: ReadonlyArray<Message.Message>, options?: Conversation.ValidateOptions) =>
  Effect.flip(Conversation.validate(messages, options)).pipe(Effect.map((e) => e._tag))

const parallel = [
  user("Weather in Oslo and Tokyo?"),
  assistant([Block.text("Checking."), call("a"), call("b")]),
  toolResultMessage("b", "get_weather", "18°C"),
  toolResultMessage("a", "get_weather", "4°C"),
  assistantMessage("Done.")
]

describe("Conversation.validate: generic rules", () => {
  it.effect("a conversation with answered parallel calls is valid, results in any order", () =>
    Effect.gen(function* () {
      const valid = yield* Conversation.validate(parallel)
      expect(valid).toBe(parallel)
    }))

  it.effect("the second of several parallel results is not an orphan (seed 000's prev-message bug)", () =>
    Effect.gen(function* () {
      // seed 000 compares each tool message with the message right before it only
      expect(Conversation.issuesOf(parallel)).toEqual([])
    }))

  it.effect("parallel results may also come grouped in one tool message", () =>
    Effect.gen(function* () {
      yield* Conversation.validate([user("q"), assistant([call("a"), call("b")]), tool([result("a"), result("b")]), assistantMessage("ok")])
    }))

  it.effect("OrphanToolResult: a result with no matching call", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Conversation.validate([user("1+1=?"), assistantMessage("Let me calculate."), toolResultMessage("call_xyz", "calculator", "2")]))
      assert.strictEqual(e._tag, "OrphanToolResult")
      expect(e.message).toBe('messages[2]: tool result "call_xyz" (calculator) answers no tool call of the preceding assistant message')
    }))

  it("an orphan result with no tool name is only OrphanToolResult: its name would come from the call it answers", () => {
    // what every adapter reads from a result that answers no call (an Anthropic tool_result, a Chat tool message)
    const orphan = [user("q"), assistantMessage("thinking"), toolResultMessage("toolu_1", "", "42")]
    for (const target of ["generic", "openai-chat", "openai-responses", "anthropic", "gemini"] as const) {
      const issues = target === "generic" ? Conversation.issuesOf(orphan) : Conversation.issuesFor(target, orphan)
      expect(issues.map((i) => i._tag), target).toEqual(["OrphanToolResult"])
      expect(issues[0]!.message).toBe('messages[2]: tool result "toolu_1" answers no tool call of the preceding assistant message')
    }
    // a result that answers its call still needs a name where the call has one to give
    const answered = [user("q"), assistant([call("a")]), toolResultMessage("a", "", "42"), assistantMessage("ok")]
    expect(Conversation.issuesOf(answered).map((i) => i._tag)).toEqual(["EmptyToolName"])
    // as does a result in a message on its own, which has no conversation to take the name from
    expect(Message.issuesOf(toolResultMessage("toolu_1", "", "42")).map((i) => i._tag)).toEqual(["EmptyToolName"])
  })

  it.effect("OrphanToolResult: a result answering a call of an earlier turn", () =>
    Effect.gen(function* () {
      const late = [user("q"), assistant([call("a")]), tool(result("a")), assistantMessage("ok"), user("again"), toolResultMessage("x", "f", "?")]
      expect(yield* firstTag(late)).toBe("OrphanToolResult")
      yield* Conversation.validate(late.slice(0, 5).concat([assistantMessage("fine")]))
    }))

  it.effect("MissingToolResult: a call never answered before the next user message", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Conversation.validate([user("q"), assistant([call("a"), call("b")]), tool(result("a")), user("hello?")]))
      assert.strictEqual(e._tag, "MissingToolResult")
      if (e._tag !== "MissingToolResult") return
      expect(e.toolCallIds).toEqual(["b"])
      expect(e.index).toBe(1)
      expect(e.resumedAt).toBe(3)
    }))

  it.effect("MissingToolResult: a call at the very end, unless pending calls are allowed", () =>
    Effect.gen(function* () {
      const open = [user("q"), assistant([call("a")])]
      expect(yield* firstTag(open)).toBe("MissingToolResult")
      yield* Conversation.validate(open, { allowPendingToolCalls: true })
    }))

  it.effect("MissingToolResult: a system message between a call and its result closes the turn", () =>
    Effect.gen(function* () {
      const issues = Conversation.issuesOf([user("q"), assistant([call("a")]), system("note"), tool(result("a")), assistantMessage("x")])
      expect(issues.map((i) => i._tag)).toEqual(["MissingToolResult", "OrphanToolResult"])
    }))

  it.effect("DuplicateToolResult: a call answered twice", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Conversation.validate([user("q"), assistant([call("a")]), tool(result("a")), tool(result("a")), assistantMessage("x")]))
      assert.strictEqual(e._tag, "DuplicateToolResult")
      if (e._tag === "DuplicateToolResult") expect(e.firstIndex).toBe(2)
    }))

  it.effect("DuplicateToolCallId: one id used by calls in two messages", () =>
    Effect.gen(function* () {
      const twice = [user("q"), assistant([call("a")]), tool(result("a")), assistant([call("a")]), tool(result("a")), assistantMessage("x")]
      const e = yield* Effect.flip(Conversation.validate(twice))
      assert.strictEqual(e._tag, "DuplicateToolCallId")
      if (e._tag === "DuplicateToolCallId") expect([e.index, e.firstIndex]).toEqual([3, 1])
      const distinct = [user("q"), assistant([call("a")]), tool(result("a")), assistant([call("b")]), tool(result("b")), assistantMessage("x")]
      yield* Conversation.validate(distinct)
    }))

  it.effect("ConsecutiveRole: two user messages in a row", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Conversation.validate([user("Hi"), user("Hello?")]))
      expect(e.message).toBe("messages[1]: two user messages in a row (messages[0] and messages[1])")
      yield* Conversation.validate([user("Hi"), assistantMessage("Hello"), user("Hello?"), assistantMessage("Yes")])
    }))

  it.effect("ConsecutiveRole: two assistant messages in a row without tool traffic", () =>
    Effect.gen(function* () {
      expect(yield* firstTag([user("q"), assistantMessage("a"), assistantMessage("b")])).toBe("ConsecutiveRole")
    }))

  it.effect("EmptyConversation: nothing, or only system messages", () =>
    Effect.gen(function* () {
      expect(yield* firstTag([])).toBe("EmptyConversation")
      expect(yield* firstTag([system("s")])).toBe("EmptyConversation")
      yield* Conversation.validate([system("s"), user("q")])
    }))

  it.effect("per-message issues are reported with their index", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Conversation.validate([user("q"), assistant([])]))
      assert.strictEqual(e._tag, "EmptyMessage")
      if (e._tag === "EmptyMessage") expect(e.index).toBe(1)
    }))

  it("issuesOf returns every issue in one pass", () => {
    const broken = [user("a"), user("b"), assistant([call("a")]), toolResultMessage("zz", "f", "x"), user("c")]
    expect(Conversation.issuesOf(broken).map((i) => i._tag)).toEqual(["ConsecutiveRole", "OrphanToolResult", "MissingToolResult"])
  })

  it.effect("validateAll fails with every issue", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Conversation.validateAll([user("a"), user("b"), user("c")]))
      expect(e._tag).toBe("InvalidConversation")
      expect(e.issues.length).toBe(2)
      expect(e.message).toContain("2 issues")
    }))

  it("the validated conversation is branded at the type level", () => {
    const takesValidated = (v: Conversation.Validated) => v.length
    const takesAnthropic = (v: Conversation.Validated<"anthropic">) => v.length
    const takesResponses = (v: Conversation.Validated<"openai-responses">) => v.length
    // @ts-expect-error a plain array is not validated
    takesValidated(parallel)
    const program = Conversation.validateFor("openai-responses")(parallel).pipe(Effect.map((v) => [takesValidated(v), takesResponses(v)]))
    expectTypeOf(program).toEqualTypeOf<Effect.Effect<Array<number>, ValidationError.IssueFor<"openai-responses">>>()
    const anthropic = Conversation.validateFor("anthropic")(parallel).pipe(Effect.map((v) => takesAnthropic(v)))
    expectTypeOf(anthropic).toEqualTypeOf<Effect.Effect<number, ValidationError.IssueFor<"anthropic">>>()
    const generic = Conversation.validate(parallel).pipe(
      // @ts-expect-error validated for the generic rules is not validated for Anthropic
      Effect.map((v) => takesAnthropic(v))
    )
    expect(generic).toBeDefined()
  })

  it.prop("generated valid conversations have no issues", [Arb.validConversation], ([ms]) => {
    expect(Conversation.issuesOf(ms).map((i) => i.message)).toEqual([])
  }, { arbitrary: { runs: 1000 } })
})

const rejects = (provider: Provider.Provider, messages: ReadonlyArray<Message.Message>, options?: Conversation.ProfileOptions) =>
  Effect.flip(Conversation.validateFor(provider, options)(messages)).pipe(Effect.map((e) => e._tag))
const accepts = (provider: Provider.Provider, messages: ReadonlyArray<Message.Message>, options?: Conversation.ProfileOptions) =>
  Conversation.validateFor(provider, options)(messages)

const thinking = (sig?: string) => Block.thinking("Need the weather.", sig)

describe("validateFor: every provider", () => {
  for (const provider of ["openai-chat", "openai-responses", "anthropic", "gemini"] as const) {
    it.effect(`${provider}: generic rules apply (orphans, missing results)`, () =>
      Effect.gen(function* () {
        expect(yield* rejects(provider, [user("q"), toolResultMessage("x", "f", "1")])).toBe("OrphanToolResult")
        expect(yield* rejects(provider, [user("q"), assistant([call("a")]), user("?")])).toBe("MissingToolResult")
        yield* accepts(provider, parallel)
      }))

    it.prop(
      `${provider}: the profile reports the generic issues in order, minus the rules it relaxes, and never one the generic rules do not`,
      [Arb.brokenConversation],
      ([x]) => {
        const rules = Conversation.genericRulesFor(provider)
        const relaxed = (issue: ValidationError.Issue): boolean =>
          issue._tag === "ConsecutiveRole" && !(issue.role === "user" ? rules.consecutiveUserMessages : rules.consecutiveAssistantMessages)
        const genericTags = new Set<string>(ValidationError.ConversationIssue.members.map((m) => m.identifier))
        const fromProfile = Conversation.issuesFor(provider, x).filter((i) => genericTags.has(i._tag)).map((i) => i.message)
        const expected = Conversation.issuesOf(x).filter((i) => !relaxed(i)).map((i) => i.message)
        // where a system message does not end the turn (Anthropic), a system message inside a tool turn can only
        // take issues away: the profile's are then some of the generic ones, in order
        const systemInTurn = x.some((m, i) => m.role === "system" && i > 0 && (x[i - 1]!.role === "tool" || (x[i - 1]!.role === "assistant" && Message.hasToolCalls(x[i - 1]!))))
        // Anthropic also reads a run of assistant messages as the one message its writer sends, and leaves out an
        // empty message merged into one with content: that too can only take issues away
        const onWire = x.filter((m) => m.role !== "system")
        // and a run the writer sends no block of (unsigned thinking only, another provider's data) ends no turn
        const merged = provider === "anthropic" &&
          (onWire.some((m, i) => m.content.length === 0 || (m.role === "assistant" && onWire[i - 1]?.role === "assistant")) ||
            anthropicRuns(x).some((r) => (r & LEFT_OUT) !== 0))
        if ((rules.systemEndsTurn || !systemInTurn) && !merged) expect(fromProfile).toEqual(expected)
        else {
          // (the turn may then close later, at the next user message, so an issue may be found later, and a late
          // result may be a duplicate rather than an orphan: compared by the message each issue is about, as a
          // multiset: every issue of the profile is one of the generic ones)
          const key = (i: ValidationError.Issue): string => `${"index" in i ? i.index : i._tag}`
          const left = Conversation.issuesOf(x).filter((i) => !relaxed(i)).map(key)
          for (const k of Conversation.issuesFor(provider, x).filter((i) => genericTags.has(i._tag)).map(key)) {
            const at = left.indexOf(k)
            expect(at, `the profile's issue about message ${k} is not among the generic issues`).not.toBe(-1)
            left.splice(at, 1)
          }
        }
      },
      { arbitrary: { runs: 300 }, timeout: 300_000 }
    )
  }
})

describe("validateFor('anthropic')", () => {
  it.effect("MissingThinkingSignature: thinking without a signature", () =>
    Effect.gen(function* () {
      expect(yield* rejects("anthropic", [user("q"), assistant([thinking(), Block.text("4°C")])])).toBe("MissingThinkingSignature")
      expect(yield* rejects("anthropic", [user("q"), assistant([thinking(""), Block.text("4°C")])])).toBe("MissingThinkingSignature")
      yield* accepts("anthropic", [user("q"), assistant([thinking("EqQBCkgIARAB"), Block.text("4°C")])])
    }))

  it.effect("ThinkingNotFirst: the tool loop is still in progress when the user adds words after the results", () =>
    Effect.gen(function* () {
      const loop = [user("q"), assistant([call("a")]), tool(result("a"))]
      expect(yield* rejects("anthropic", [...loop, user("also check Bergen")], { thinking: true })).toBe("ThinkingNotFirst")
      yield* accepts("anthropic", [user("q"), assistant([thinking("EqQBCkgIARAB"), call("a")]), tool(result("a")), user("also check Bergen")], { thinking: true })
      // a reply closes the loop
      yield* accepts("anthropic", [...loop, assistant("4°C"), user("thanks")], { thinking: true })
    }))

  it.effect("MissingToolResult: a turn's results read from two user messages (the API wants them in the first)", () =>
    Effect.gen(function* () {
      const read = yield* Anthropic.fromMessages([
        { role: "user", content: "weather?" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "w", input: {} }, { type: "tool_use", id: "toolu_2", name: "w", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "sunny" }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_2", content: "rain" }] }
      ])
      const issues = Conversation.issuesFor("anthropic", read.value)
      expect(issues.map((i) => i.message)).toEqual(['messages[1]: tool call "toolu_2" has no result before messages[3]'])
      // built in the model, two tool messages in a row are one user message on the wire: nothing to report
      yield* accepts("anthropic", [user("q"), assistant([call("a"), call("b")]), tool(result("a")), tool(result("b"))])
      const repaired = yield* Repair.repairFor("anthropic")(read.value)
      expect(repaired.actions.map((a) => a.description)).toEqual(["messages[3]: merged this tool message into messages[2]"])
    }))

  it.effect("EmptyTextBlock: blank text inside a tool result too", () =>
    Effect.gen(function* () {
      const blank = Block.toolResult("a", "get_weather", [Block.text("")])
      expect(yield* rejects("anthropic", [user("q"), assistant([call("a")]), tool(blank)])).toBe("EmptyTextBlock")
      yield* accepts("anthropic", [user("q"), assistant([call("a")]), tool(Block.toolResult("a", "get_weather", []))])
    }))

  it.effect("EmptyRedactedThinking: redacted thinking without data", () =>
    Effect.gen(function* () {
      expect(yield* rejects("anthropic", [user("q"), assistant([Block.redactedThinking(""), Block.text("x")])])).toBe("EmptyRedactedThinking")
      yield* accepts("anthropic", [user("q"), assistant([Block.redactedThinking("EmwKAhgB"), Block.text("x")])])
    }))

  it.effect("ThinkingNotFirst: in a tool loop with thinking, the turn's first assistant message starts with thinking", () =>
    Effect.gen(function* () {
      const loop = (first: Block.AssistantBlock[], later: Block.AssistantBlock[] = []) => [
        user("q"),
        assistant([...first, call("a")]),
        tool(result("a")),
        assistant([...later, call("b")]),
        tool(result("b"))
      ]
      expect(yield* rejects("anthropic", loop([Block.text("Let me check Oslo.")], [thinking("s2")]))).toBe("ThinkingNotFirst")
      yield* accepts("anthropic", loop([thinking("s1")], [thinking("s2")]))
      yield* accepts("anthropic", loop([Block.redactedThinking("EmwK")]))
      // the loop is one turn: a later step may go without thinking
      yield* accepts("anthropic", loop([thinking("s1")], [Block.text("Next I check Tokyo.")]))
      // without thinking in use, or once the loop is over, the rule does not apply
      yield* accepts("anthropic", loop([Block.text("Next.")]), { thinking: false })
      yield* accepts("anthropic", [...loop([Block.text("Next.")], [thinking("s2")]), assistantMessage("Done.")])
    }))

  it.effect("EmptyTextBlock: empty text", () =>
    Effect.gen(function* () {
      expect(yield* rejects("anthropic", [user("")])).toBe("EmptyTextBlock")
      expect(yield* rejects("anthropic", [user("q"), assistant([Block.text(""), call("a")]), tool(result("a")), assistantMessage("x")])).toBe("EmptyTextBlock")
      yield* accepts("anthropic", [user("q"), assistant([call("a")]), tool(result("a")), assistantMessage("x")])
    }))

  it.effect("TrailingWhitespacePrefill: a final assistant prefill ending with whitespace", () =>
    Effect.gen(function* () {
      expect(yield* rejects("anthropic", [user("Write JSON"), assistantMessage("{ ")])).toBe("TrailingWhitespacePrefill")
      yield* accepts("anthropic", [user("Write JSON"), assistantMessage("{")])
    }))

  it.effect("TextAfterToolCalls: text between the calls and their results", () =>
    Effect.gen(function* () {
      const after = [user("q"), assistant([call("a"), Block.text("I called it.")]), tool(result("a")), assistantMessage("x")]
      expect(yield* rejects("anthropic", after)).toBe("TextAfterToolCalls")
      yield* accepts("anthropic", [user("q"), assistant([Block.text("I'll call it."), call("a")]), tool(result("a")), assistantMessage("x")])
    }))

  it.effect("TextAfterToolCalls counts client calls only: text after a server tool's result is accepted (recorded)", () =>
    Effect.gen(function* () {
      // recorded 200: web search calls and results interleaved with the text that cites them
      const search = (id: string) => [
        Block.toolCall(id, "web_search", { query: "bitcoin price January 1 2026" }, { providerExecuted: true }),
        Block.toolResult(id, "web_search", [Block.json([])], false, { providerExecuted: true })
      ]
      const cited = [user("Price of bitcoin on Jan 1, 2026?"), assistant([...search("srvtoolu_1"), Block.text("Let me try another search:"), ...search("srvtoolu_2"), Block.text("It opened near $87,400.")]), user("And Ethereum?")]
      yield* accepts("anthropic", cited)
      // a client call after the searches brings the rule back
      const calling = [user("q"), assistant([...search("srvtoolu_1"), call("a"), Block.text("Saved.")]), tool(result("a")), assistantMessage("ok")]
      expect(yield* rejects("anthropic", calling)).toBe("TextAfterToolCalls")
    }))

  it.effect("ConsecutiveRole, relaxed: Anthropic combines consecutive user or assistant turns itself", () =>
    Effect.gen(function* () {
      const twoUsers = [user("Search for the three releases."), user("Then analyze the results."), assistantMessage("Done.")]
      yield* accepts("anthropic", twoUsers)
      yield* accepts("anthropic", [user("q"), assistantMessage("First part."), assistantMessage("Second part.")])
      // the generic profile keeps the portable rule
      expect(yield* firstTag(twoUsers)).toBe("ConsecutiveRole")
      expect(Conversation.genericRulesFor("anthropic")).toEqual({ consecutiveUserMessages: false, consecutiveAssistantMessages: false, systemEndsTurn: false })
    }))

  it.effect("a system message between calls and their results: relaxed, the adapter lifts it into the top-level system", () =>
    Effect.gen(function* () {
      const between = [user("q"), assistant([call("a")]), system("Answer in Celsius."), tool(result("a"))]
      yield* accepts("anthropic", between)
      expect(yield* rejects("openai-chat", between)).toBe("MissingToolResult")
      expect(yield* rejects("gemini", between)).toBe("MissingToolResult")
      const written = yield* Anthropic.toMessages(between)
      expect(written.value.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"])
      expect(written.value.system).toBe("Answer in Celsius.")
    }))
})

describe("validateFor('gemini')", () => {
  it.effect("SystemNotAtStart: system text after the first turn", () =>
    Effect.gen(function* () {
      expect(yield* rejects("gemini", [user("q"), system("be brief"), assistantMessage("ok")])).toBe("SystemNotAtStart")
      yield* accepts("gemini", [system("be brief"), system("and kind"), user("q"), assistantMessage("ok")])
      // other providers accept it
      yield* accepts("openai-chat", [user("q"), system("be brief"), assistantMessage("ok")])
    }))

  it.effect("MisplacedFunctionCall: a call turn must follow a user or function-response turn", () =>
    Effect.gen(function* () {
      expect(yield* rejects("gemini", [system("s"), assistant([call("a")]), tool(result("a")), assistantMessage("x"), user("q"), assistantMessage("y")])).toBe(
        "MisplacedFunctionCall"
      )
      yield* accepts("gemini", [user("q"), assistant([call("a")]), tool(result("a")), assistant([call("b")]), tool(result("b")), assistantMessage("x")])
    }))

  it.effect("MissingThoughtSignature (Gemini 3): the first call of a step in the current turn needs its signature", () =>
    Effect.gen(function* () {
      const gemini3 = { model: "gemini-3-flash-preview" }
      const signed = Block.toolCall("a", "get_weather", {}, { thoughtSignature: "sigA" })
      const unsigned = Block.toolCall("b", "get_weather", {})
      const turn = (second: Block.ToolCallBlock) => [user("q"), assistant([signed]), tool(result("a")), assistant([second]), tool(result("b", "get_weather"))]
      expect(yield* rejects("gemini", turn(unsigned), gemini3)).toBe("MissingThoughtSignature")
      expect(yield* rejects("gemini", turn(unsigned), { thoughtSignatures: "required" })).toBe("MissingThoughtSignature")
      yield* accepts("gemini", turn(Block.toolCall("b", "get_weather", {}, { thoughtSignature: "sigB" })), gemini3)
      // parallel calls: only the first carries one
      yield* accepts("gemini", [user("q"), assistant([signed, unsigned]), tool([result("a"), result("b")])], gemini3)
      // earlier turns are not checked
      yield* accepts("gemini", [user("q"), assistant([unsigned]), tool(result("b")), assistantMessage("x"), user("again"), assistant([signed]), tool(result("a"))], gemini3)
    }))

  it.effect("MissingThoughtSignature is Gemini 3's: Gemini 2.5, or a model not named, accepts the second call unsigned (recorded)", () =>
    Effect.gen(function* () {
      // recorded: gemini-2.5-flash accepted two sequential calls, only the first one signed
      const signed = Block.toolCall("a", "get_weather", { city: "New York" }, { thoughtSignature: "CvgCAb4" })
      const unsigned = Block.toolCall("b", "get_weather", { city: "London" })
      const ms = [user("Weather in New York and London?"), assistant([signed]), tool(result("a")), assistant([unsigned]), tool(result("b"))]
      yield* accepts("gemini", ms, { model: "gemini-2.5-flash" })
      yield* accepts("gemini", ms)
      yield* accepts("gemini", ms, { model: "gemini-3-flash-preview", thoughtSignatures: "optional" })
      expect(Conversation.requiresThoughtSignatures({ model: "models/gemini-3.1-pro" })).toBe(true)
      expect(Conversation.requiresThoughtSignatures({ model: "gemini-2.0-flash" })).toBe(false)
    }))

  it.effect("ConsecutiveRole, relaxed: Gemini merges user contents in a row (recorded), not model contents", () =>
    Effect.gen(function* () {
      // recorded: an agent framework sends its hand-over notes as two more user contents before the model's call
      const handOver = [
        user("What is the weather in New York?"),
        user("For context: root_agent called transfer_to_agent."),
        user("For context: transfer_to_agent returned."),
        assistant([call("a")]),
        tool(result("a"))
      ]
      yield* accepts("gemini", handOver)
      expect(yield* rejects("openai-chat", handOver)).toBe("ConsecutiveRole")
      // two model turns in a row are not recorded: the portable rule stays
      expect(yield* rejects("gemini", [user("q"), assistantMessage("a"), assistantMessage("b")])).toBe("ConsecutiveRole")
    }))
})

describe("validateFor('openai-responses')", () => {
  const reasoning = (extras: { encryptedContent?: string } = {}) => Block.thinking("", undefined, { itemId: "rs_1", ...extras })

  const answer = (text: string, itemId = "msg_1") => Block.text(text, { itemId })

  it.effect("ReasoningWithoutOutput: a reasoning item must be followed by what it produced", () =>
    Effect.gen(function* () {
      expect(yield* rejects("openai-responses", [user("q"), assistant([answer("x"), reasoning()])])).toBe("ReasoningWithoutOutput")
      yield* accepts("openai-responses", [user("q"), assistant([reasoning(), answer("x")])])
      yield* accepts("openai-responses", [user("q"), assistant([reasoning(), Block.toolCall("a", "get_weather", {}, { itemId: "fc_1" })]), tool(result("a")), assistantMessage("ok")])
    }))

  it.effect("ReasoningWithoutOutput: the item after a reasoning item must still carry its id (recorded rejection of an edited message)", () =>
    Effect.gen(function* () {
      // recorded 400: "Item 'rs_…' of type 'reasoning' was provided without its required following item."
      const edited = [user("What is the meaning of life?"), assistant([reasoning(), Block.text("The meaning of life is 42")]), user("Anything to add?")]
      expect(yield* rejects("openai-responses", edited)).toBe("ReasoningWithoutOutput")
      // recorded 200: reasoning, a web search call, reasoning, a message, each item with its id
      const search = Block.toolCall("ws_1", "web_search", { action: { type: "search" } }, { providerExecuted: true, itemId: "ws_1" })
      yield* accepts("openai-responses", [user("q"), assistant([reasoning(), search, Block.thinking("", undefined, { itemId: "rs_2" }), answer("Sunny.")]), user("and Mexico City?")])
    }))

  it.effect("TextBetweenCallAndOutput: text after a call would come between the call and its output (recorded rejection)", () =>
    Effect.gen(function* () {
      // recorded 400 from a Responses-compatible server: "No tool output found for tool call call-a."
      const interleaved = [
        assistant([Block.text("<think>inspect inputs</think>"), call("call-a"), Block.text("<think>inspect views</think>"), call("call-b")]),
        tool([result("call-a"), result("call-b")]),
        user("Reply exactly: done")
      ]
      const e = yield* Effect.flip(Conversation.validateFor("openai-responses")(interleaved))
      expect([e._tag, "toolCallId" in e ? e.toolCallId : ""]).toEqual(["TextBetweenCallAndOutput", "call-a"])
      // recorded 200: text first, then both calls, then their outputs
      yield* accepts("openai-responses", [user("q"), assistant([Block.text("Let me check."), call("a"), call("b")]), tool([result("a"), result("b")])])
      // text after a hosted call's result is the answer, not in the way of an output
      const search = Block.toolCall("ws_1", "web_search", {}, { providerExecuted: true, itemId: "ws_1" })
      yield* accepts("openai-responses", [user("q"), assistant([search, Block.text("Sunny.")])])
    }))

  it.effect("MissingEncryptedContent: with store false, reasoning needs encrypted content", () =>
    Effect.gen(function* () {
      const ms = [user("q"), assistant([reasoning(), answer("x")])]
      expect(yield* rejects("openai-responses", ms, { store: false })).toBe("MissingEncryptedContent")
      yield* accepts("openai-responses", ms)
      yield* accepts("openai-responses", [user("q"), assistant([reasoning({ encryptedContent: "gAAAA" }), answer("x")])], { store: false })
    }))
})

describe("profileOptionsOf and continued conversations", () => {
  it("reads the settings a request body carries", () => {
    const make = (providerOptions: Block.ProviderOptions) => Request.make([Message.user("hi")], { model: "m", providerOptions })
    expect(Conversation.profileOptionsOf(make({ anthropic: { thinking: { type: "enabled", budget_tokens: 1024 } } }))).toEqual({ model: "m", thinking: true, thinkingMode: "enabled" })
    expect(Conversation.profileOptionsOf(make({ anthropic: { thinking: { type: "adaptive" } } }))).toEqual({ model: "m", thinking: true, thinkingMode: "adaptive" })
    expect(Conversation.profileOptionsOf(make({ anthropic: { thinking: { type: "disabled" } } }))).toEqual({ model: "m", thinking: false })
    expect(Conversation.profileOptionsOf(make({ anthropic: { max_tokens: 10 } }), { readFrom: "anthropic" })).toEqual({ model: "m", thinking: false })
    expect(Conversation.profileOptionsOf(make({ anthropic: { max_tokens: 10 } }))).toEqual({ model: "m" })
    expect(Conversation.profileOptionsOf(make({ "openai-responses": { store: false, previous_response_id: "resp_1" } }))).toEqual({ model: "m", store: false, continues: true })
    expect(Conversation.profileOptionsOf(make({ "openai-responses": { conversation: "conv_1", previous_response_id: null } }))).toEqual({ model: "m", continues: true })
  })

  it("a continued conversation may open with results of the stored response's calls, and hold only them", () => {
    const stored = [Message.toolResultMessage("call_1", "", "sunny")]
    expect(Conversation.issuesFor("openai-responses", stored).map((i) => i._tag)).toEqual(["OrphanToolResult", "EmptyConversation"])
    expect(Conversation.issuesFor("openai-responses", stored, { continues: true })).toEqual([])
    // after the first message of the conversation, a result must follow its call as always
    const late = [...stored, Message.user("and tomorrow?"), Message.toolResultMessage("call_2", "weather", "rain")]
    expect(Conversation.issuesFor("openai-responses", late, { continues: true }).map((i) => i._tag)).toEqual(["OrphanToolResult"])
  })
})

describe("validateFor('openai-chat')", () => {
  it.effect("nothing, not even a system message, between calls and results", () =>
    Effect.gen(function* () {
      expect(yield* rejects("openai-chat", [user("q"), assistant([call("a")]), system("s"), tool(result("a")), assistantMessage("x")])).toBe("MissingToolResult")
      yield* accepts("openai-chat", [user("q"), assistant([call("a")]), tool(result("a")), system("s"), assistantMessage("x")])
    }))

  it("issuesFor collects generic and provider issues together", () => {
    const tags = Conversation.issuesFor("openai-responses", [user("x"), user("y"), assistant([Block.text("z"), Block.thinking("", undefined, { itemId: "rs_1" })])]).map((i) => i._tag)
    expect(tags).toEqual(["ConsecutiveRole", "ReasoningWithoutOutput"])
  })

  it("issuesFor applies the provider's profile: Anthropic's issues without the ConsecutiveRole it accepts", () => {
    const ms = [user(""), user("x"), assistant([thinking(), Block.text("y ")])]
    expect(Conversation.issuesFor("anthropic", ms).map((i) => i._tag)).toEqual(["EmptyTextBlock", "MissingThinkingSignature", "TrailingWhitespacePrefill"])
    expect(Conversation.issuesOf(ms).map((i) => i._tag)).toEqual(["ConsecutiveRole"])
  })
})

describe("Conversation codec", () => {
  it.effect("decodeEach decodes what it can and reports every bad message with its index", () =>
    Effect.gen(function* () {
      const { failures, messages } = yield* Conversation.decodeEach([
        { role: "user", content: "hi" },
        { role: "developer", content: "x" },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "f" }] },
        { role: "tool", content: "42" },
        { role: "tool", content: "42", toolCallId: "c1", toolName: "f" }
      ])
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"])
      expect(failures.map((f) => [f._tag, f.index])).toEqual([["MessageDecodeError", 1], ["MissingToolCallId", 3]])
    }))

  it.effect("a damaged log can be decoded, then repaired into a valid conversation", () =>
    Effect.gen(function* () {
      const { messages } = yield* Conversation.decodeEach([
        { role: "user", content: "read both files" },
        { role: "assistant", content: "", toolCalls: [{ id: "a", name: "read" }, { id: "b", name: "read" }] },
        { role: "tool", content: "file a", toolCallId: "a", toolName: "read" },
        "garbage"
      ])
      const repaired = Repair.repair(messages)
      yield* Conversation.validate(repaired.messages)
    }))

  it.effect("a JSONL transcript round-trips, one message per line", () =>
    Effect.gen(function* () {
      const text = Conversation.encodeJsonl(parallel)
      expect(text.split("\n").length).toBe(parallel.length + 1)
      expect(yield* Conversation.decodeJsonl(text)).toEqual(parallel)
    }))

  it.effect("decodeJsonl names the line that is not JSON; decodeJsonlEach collects every bad line", () =>
    Effect.gen(function* () {
      const text = `{"role":"user","content":"hi"}\n\n{not json\n{"role":"bot","content":"x"}\n`
      const first = yield* Effect.flip(Conversation.decodeJsonl(text))
      expect(first.message).toContain("line 3 is not JSON")
      const all = yield* Conversation.decodeJsonlEach(text)
      expect(all.messages.length).toBe(1)
      expect(all.failures.map((f) => f.index)).toEqual([2, 3])
    }))

  it.effect("Conversation.Codec composes with Schema.fromJsonString", () =>
    Effect.gen(function* () {
      const decode = Schema.decodeUnknownEffect(Schema.fromJsonString(Conversation.Codec))
      expect(yield* decode(JSON.stringify(Message.encodeAll(parallel)))).toEqual(parallel)
    }))

  it.effect("Conversation.Codec refuses a list it cannot read with an issue, as each message: no defect", () =>
    Effect.gen(function* () {
      const { proxy, revoke } = Proxy.revocable([], {})
      revoke()
      const throwing: Array<unknown> = []
      Object.defineProperty(throwing, 0, { get: () => { throw new Error("getter boom") }, enumerable: true })
      const sparse: Array<unknown> = []
      sparse.length = 50_000_000
      for (const list of [proxy, throwing, sparse, "not a list"]) {
        const exit = yield* Effect.exit(Schema.decodeUnknownEffect(Conversation.Codec)(list))
        expect(Exit.isFailure(exit) && Cause.hasFails(exit.cause) && !Cause.hasDies(exit.cause)).toBe(true)
      }
      // and encodes as it decodes
      const encoded = yield* Schema.encodeEffect(Conversation.Codec)(parallel)
      expect(yield* Schema.decodeUnknownEffect(Conversation.Codec)(encoded)).toEqual(parallel)
    }))

  it.prop("encode, JSON and decode is the identity for whole conversations", [Arb.validConversation], ([ms]) => {
    const back = Effect.runSync(Conversation.decodeJsonl(Conversation.encodeJsonl(ms)))
    assert.deepStrictEqual(back, ms)
    // the same text line by line, a line per message, each one decoding to its message
    const lines = Conversation.encodeJsonlLines(ms)
    assert.strictEqual(lines.join(""), Conversation.encodeJsonl(ms))
    assert.strictEqual(lines.length, ms.length)
    lines.forEach((line, i) => {
      assert.isTrue(line.endsWith("\n") && line.indexOf("\n") === line.length - 1)
      assert.deepStrictEqual(Effect.runSync(Conversation.decodeJsonl(line)), [ms[i]])
    })
  }, { arbitrary: { runs: 200 }, timeout: 300_000 })
})

describe("Effects do their work when they run", () => {
  it.effect("validate built once sees the history as it is when it runs", () =>
    Effect.gen(function* () {
      const history: Array<Message.Message> = [user("hi")]
      const check = Conversation.validate(history)
      yield* check
      history.push(user("again"))
      const e = yield* Effect.flip(check)
      expect(e._tag).toBe("ConsecutiveRole")
    }))

  it.effect("validateFor and validateAll too", () =>
    Effect.gen(function* () {
      const history: Array<Message.Message> = [user("hi")]
      const forGemini = Conversation.validateFor("gemini")(history)
      const all = Conversation.validateAll(history)
      history.push(system("late"))
      expect((yield* Effect.flip(forGemini))._tag).toBe("SystemNotAtStart")
      history.push(user("x"), user("y"))
      expect((yield* Effect.flip(all))._tag).toBe("InvalidConversation")
    }))
})

describe("validateFor: regressions", () => {
  it.effect("Anthropic rejects whitespace-only text, as the API does", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Conversation.validateFor("anthropic")([user([Block.text("hi"), Block.text(" \n\t")]), assistantMessage("ok")]))
      expect([e._tag, "blockIndex" in e ? e.blockIndex : -1]).toEqual(["EmptyTextBlock", 1])
    }))

  it("the Responses reasoning rule is one pass per message, and reports every reasoning item without output", () => {
    const m = assistant([Block.thinking("a", undefined, { itemId: "rs_1" }), Block.text("out", { itemId: "msg_1" }), Block.thinking("b", undefined, { itemId: "rs_2" }), Block.thinking("c", undefined, { itemId: "rs_3" })])
    const issues = Conversation.issuesFor("openai-responses", [user("q"), m])
    expect(issues.map((i) => ("blockIndex" in i ? i.blockIndex : -1))).toEqual([2, 3])
  })
})
