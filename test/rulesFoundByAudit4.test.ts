/**
 * Rules a fourth audit of validation and repair found missed, each a
 * documented 400: more than 4 Anthropic cache breakpoints in one request, a
 * lone UTF-16 surrogate in a body sent to Anthropic, and two OpenAI
 * Responses input items with the same id.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair, Request, ValidationError } from "../src/index.js"
import type { Provider } from "../src/index.js"
import { Anthropic, OpenAiResponses } from "../src/providers/index.js"

const tags = (items: ReadonlyArray<{ readonly _tag: string }>): Array<string> => items.map((i) => i._tag)
const providers: ReadonlyArray<Provider.Provider> = ["anthropic", "openai-chat", "openai-responses", "gemini"]

// ---------------------------------------------------------------------------
// 1. Anthropic: at most 4 cache breakpoints
// ---------------------------------------------------------------------------

const cc = { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } }
const ccNull = { providerOptions: { anthropic: { cache_control: null } } }

/** Every non-null `cache_control` in a JSON body, counted the way the API counts them. */
const breakpointsIn = (value: unknown): number => {
  let n = 0
  const stack: Array<unknown> = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v !== "object" || v === null) continue
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x)
      continue
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === "cache_control" && x !== null) n++
      else stack.push(x)
    }
  }
  return n
}

describe("Anthropic: more than 4 cache breakpoints is TooManyCacheBreakpoints", () => {
  // the audit's A4 (six, in fact): "A maximum of 4 blocks with cache_control may be provided. Found 6."
  const six = [
    Message.system([Block.text("sys", cc)]),
    Message.user([Block.text("a", cc)]),
    Message.assistant([Block.text("b", cc)]),
    Message.user([Block.text("c", cc)]),
    Message.assistant([Block.text("d", cc)]),
    Message.user([Block.text("e", cc)])
  ]

  it.effect("six breakpoints are flagged, with every place and the count the body carries", () =>
    Effect.gen(function*() {
      const issues = Conversation.issuesFor("anthropic", six)
      assert.deepStrictEqual(tags(issues), ["TooManyCacheBreakpoints"])
      const issue = issues[0] as ValidationError.TooManyCacheBreakpoints
      assert.strictEqual(issue.count, 6)
      assert.deepStrictEqual(issue.breakpoints.map((p) => [p.index, p.blockIndex]), [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]])
      // the fifth one is the first past the limit
      assert.deepStrictEqual([issue.index, issue.blockIndex], [4, 0])
      const { value: body } = yield* Anthropic.toRequest(Request.make(six, { model: "claude-sonnet-4-5" }), { maxTokens: 1024 })
      assert.strictEqual(breakpointsIn(body), issue.count)
      // the other providers have no such limit
      for (const provider of providers) if (provider !== "anthropic") assert.deepStrictEqual(Conversation.issuesFor(provider, six), [], provider)
    }))

  it("four breakpoints are accepted, and an explicit cache_control: null is none", () => {
    const four = [
      Message.system([Block.text("sys", cc)]),
      Message.user([Block.text("a", ccNull), Block.text("a2", cc)]),
      Message.assistant([Block.text("b", ccNull)]),
      Message.user([Block.text("c", cc)]),
      Message.assistant([Block.text("d", ccNull)]),
      Message.user([Block.text("e", cc)])
    ]
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", four), [])
    const withOneMore = [...four, Message.assistant([Block.text("f", cc)])]
    assert.deepStrictEqual(tags(Conversation.issuesFor("anthropic", withOneMore)), ["TooManyCacheBreakpoints"])
  })

  it("system blocks come first on the wire: a late system message's breakpoint counts before the messages'", () => {
    const messages = [
      Message.user([Block.text("a", cc)]),
      Message.assistant([Block.text("b", cc)]),
      Message.user([Block.text("c", cc)]),
      Message.assistant([Block.text("d", cc)]),
      Message.system([Block.text("late system text", cc)]),
      Message.user("e")
    ]
    const [issue] = Conversation.issuesFor("anthropic", messages) as Array<ValidationError.TooManyCacheBreakpoints | undefined>
    assert.strictEqual(issue?._tag, "TooManyCacheBreakpoints")
    assert.deepStrictEqual(issue!.breakpoints.map((p) => p.index), [4, 0, 1, 2, 3])
    assert.deepStrictEqual([issue!.index, issue!.blockIndex], [3, 0])
  })

  it.effect("breakpoints in tool results, on calls, files, provider data and a system message count; thinking's is not written", () =>
    Effect.gen(function*() {
      const messages = [
        // a system message's own breakpoint goes on its last block
        Message.system([Block.text("sys")], { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } }),
        Message.user([Block.text("Look at this."), Block.image("https://example.com/a.png", cc)]),
        Message.assistant([Block.thinking("hmm", "sig", cc), Block.toolCall("toolu_1", "f", {}, cc)]),
        Message.tool([Block.toolResult("toolu_1", "f", [Block.text("r1", cc)])]),
        Message.user([Block.providerData("anthropic", { type: "text", text: "raw", cache_control: { type: "ephemeral" } })])
      ]
      const [issue] = Conversation.issuesFor("anthropic", messages) as Array<ValidationError.TooManyCacheBreakpoints | undefined>
      assert.strictEqual(issue?._tag, "TooManyCacheBreakpoints")
      // Anthropic takes no cache_control on thinking: the writer leaves it out, and it is not counted
      assert.strictEqual(issue!.count, 5)
      const { value: body } = yield* Anthropic.toRequest(Request.make(messages, { model: "claude-sonnet-4-5" }), { maxTokens: 1024 })
      assert.strictEqual(breakpointsIn(body), 5)
    }))

  it.effect("tool definitions and a top-level cache_control count too: profileOptionsOf says how many", () =>
    Effect.gen(function*() {
      const cached = (name: string) => new Request.ToolDefinition({ name, parameters: { type: "object" }, providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })
      const search = Request.providerTool("web_search", "anthropic", "web_search_20250305", { cache_control: { type: "ephemeral" } })
      const request = Request.make([Message.user([Block.text("a", cc)]), Message.assistant("b"), Message.user([Block.text("c", cc)])], {
        model: "claude-sonnet-4-5",
        tools: [cached("f"), cached("g"), search, new Request.ToolDefinition({ name: "h", providerOptions: { anthropic: { cache_control: null } } })],
        providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } }
      })
      const options = Conversation.profileOptionsOf(request)
      assert.strictEqual(options.cacheBreakpointsOutsideMessages, 4)
      const [issue] = Conversation.issuesFor("anthropic", request.messages, options) as Array<ValidationError.TooManyCacheBreakpoints | undefined>
      assert.strictEqual(issue?._tag, "TooManyCacheBreakpoints")
      assert.strictEqual(issue!.count, 6)
      // all the messages' breakpoints are past the limit: the first is named
      assert.deepStrictEqual([issue!.index, issue!.blockIndex], [0, 0])
      const { value: body } = yield* Anthropic.toRequest(request, { maxTokens: 1024 })
      assert.strictEqual(breakpointsIn(body), 6)
      // without any breakpoint in the messages, five outside them are still too many
      const tools = Conversation.issuesFor("anthropic", [Message.user("hi")], { cacheBreakpointsOutsideMessages: 5 })
      assert.deepStrictEqual(tags(tools), ["TooManyCacheBreakpoints"])
      assert.strictEqual((tools[0] as ValidationError.TooManyCacheBreakpoints).index, undefined)
    }))

  it.effect("repairFor does not choose which breakpoints to drop: CannotRepair names the rule", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Repair.repairFor("anthropic")(six))
      assert.strictEqual(error.issue._tag, "TooManyCacheBreakpoints")
      assert.include(error.reason, "yours to choose")
      const e = yield* Effect.flip(Conversation.validateFor("anthropic")(six))
      assert.strictEqual(e._tag, "TooManyCacheBreakpoints")
    }))
})

// ---------------------------------------------------------------------------
// 2. Anthropic: no lone UTF-16 surrogates
// ---------------------------------------------------------------------------

const high = "ok 😀".slice(0, 4) // ends with a lone high surrogate: "ok \ud83d"
const low = "😀".slice(1) // a lone low surrogate

describe("Anthropic: a lone UTF-16 surrogate is LoneSurrogate", () => {
  it("a lone surrogate in user text is flagged for Anthropic only (the audit's S1)", () => {
    const messages = [Message.user(high)]
    const issues = Conversation.issuesFor("anthropic", messages)
    assert.deepStrictEqual(tags(issues), ["LoneSurrogate"])
    const issue = issues[0] as ValidationError.LoneSurrogate
    assert.deepStrictEqual([issue.index, issue.blockIndex, issue.path], [0, 0, ["text"]])
    assert.include(issue.message, "no low surrogate in string")
    for (const provider of providers) if (provider !== "anthropic") assert.deepStrictEqual(Conversation.issuesFor(provider, messages), [], provider)
  })

  it("it is found in system text, thinking, tool names, argument values and keys, and results; a whole emoji is fine", () => {
    const messages = [
      Message.system(`Be brief ${low}`),
      Message.user("Weather 😀 in Oslo?"),
      Message.assistant([
        Block.thinking(`plan ${high}`, "sig"),
        Block.toolCall("toolu_1", `weather${low}`, { city: "Oslo" }),
        Block.toolCall("toolu_2", "weather", { city: { name: ["Oslo", `Bergen ${high}`] } }),
        Block.toolCall("toolu_3", "weather", { [`c${high}`]: 1 })
      ]),
      Message.tool([
        Block.toolResult("toolu_1", "weather", `12°C ${high}`),
        Block.toolResult("toolu_2", "weather", [Block.text("fine"), Block.text(`14°C ${low}`)]),
        Block.toolResult("toolu_3", "weather", [Block.json({ deg: [1, `x${high}`] })])
      ])
    ]
    const issues = Conversation.issuesFor("anthropic", messages) as Array<ValidationError.LoneSurrogate>
    assert.deepStrictEqual(
      issues.map((i) => [i._tag, i.index, i.blockIndex, ValidationError.formatPath(i.path)]),
      [
        ["LoneSurrogate", 0, 0, "text"],
        ["LoneSurrogate", 2, 0, "thinking"],
        ["LoneSurrogate", 2, 1, "name"],
        ["LoneSurrogate", 2, 2, "args.city.name[1]"],
        ["LoneSurrogate", 2, 3, `args.c${high}`],
        ["LoneSurrogate", 3, 0, "content"],
        ["LoneSurrogate", 3, 1, "content[1].text"]
        // a JSON value in a tool result goes as its JSON text, which escapes a lone surrogate ("x\\ud800"): nothing to report
      ]
    )
  })

  it.effect("repairFor replaces each lone surrogate with U+FFFD, keeping the block as it was in the log", () =>
    Effect.gen(function*() {
      const call = Block.toolCall("toolu_1", "weather", { city: `Oslo${high}`, [`k${low}`]: [low, "ok"] })
      const messages = [
        Message.user(`Weather? ${high}${high} 😀`),
        Message.assistant([Block.text("Checking."), call]),
        Message.tool([Block.toolResult("toolu_1", "weather", [Block.text(`12°C${low}`)])])
      ]
      const { actions, messages: repaired } = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(tags(actions), ["ReplacedLoneSurrogates", "ReplacedLoneSurrogates", "ReplacedLoneSurrogates"])
      const [first, second, third] = actions as Array<Repair.ReplacedLoneSurrogates>
      assert.deepStrictEqual([first!.index, first!.blockIndex, first!.count], [0, 0, 2])
      assert.strictEqual(first!.original, messages[0]!.content[0])
      assert.deepStrictEqual([second!.index, second!.blockIndex, second!.count], [1, 1, 3])
      assert.strictEqual(second!.original, call)
      assert.deepStrictEqual([third!.index, third!.blockIndex, third!.count], [2, 0, 1])
      assert.include(first!.description, "U+FFFD")
      assert.strictEqual(Message.textOf(repaired[0]!), "Weather? ok \ufffdok \ufffd 😀")
      assert.deepStrictEqual(Message.toolCallsOf(repaired[1]!)[0]!.args, { city: "Oslook \ufffd", "k\ufffd": ["\ufffd", "ok"] })
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", repaired), [])
      const { value: body } = yield* Anthropic.toRequest(Request.make(repaired), { maxTokens: 1024 })
      assert.notMatch(JSON.stringify(body), /\\ud[89a-f]/i)
      // the log is JSON, the original text in it
      const log = Schema.encodeSync(Schema.Array(Repair.RepairAction))(actions)
      assert.include(JSON.stringify(log), "\\ud83d")
    }))

  it.effect("a value nested deeper than the stack goes is scanned and repaired too", () =>
    Effect.gen(function*() {
      let args: Schema.Json = high
      for (let k = 0; k < 20_000; k++) args = [args]
      const messages = [Message.user("Go."), Message.assistant([Block.toolCall("toolu_1", "f", { deep: args })]), Message.toolResultMessage("toolu_1", "f", "ok")]
      assert.deepStrictEqual(tags(Conversation.issuesFor("anthropic", messages)), ["LoneSurrogate"])
      const { actions, messages: repaired } = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(tags(actions), ["ReplacedLoneSurrogates"])
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", repaired), [])
    }))
})

// ---------------------------------------------------------------------------
// 3. OpenAI Responses: no two input items with one id
// ---------------------------------------------------------------------------

const reasoning = (id: string, encrypted = "enc") => Block.thinking("", undefined, { itemId: id, summary: [], encryptedContent: encrypted })
const said = (text: string, id: string) => Block.text(text, { itemId: id })

describe("OpenAI Responses: two items with one id is DuplicateItemId", () => {
  // the audit's R3: "Duplicate item found with id rs_1. Remove duplicate items from your input"
  const twice = [
    Message.user("Q"),
    Message.assistant([reasoning("rs_1"), said("A", "msg_1")]),
    Message.user("Q2"),
    Message.assistant([reasoning("rs_1"), said("A", "msg_1")]),
    Message.user("Q3")
  ]

  it("a reasoning item and a message item sent twice are flagged, for the Responses API only", () => {
    const issues = Conversation.issuesFor("openai-responses", twice) as Array<ValidationError.DuplicateItemId>
    assert.deepStrictEqual(issues.map((i) => [i._tag, i.index, i.blockIndex, i.itemId, i.firstIndex]), [
      ["DuplicateItemId", 3, 0, "rs_1", 1],
      ["DuplicateItemId", 3, 1, "msg_1", 1]
    ])
    assert.include(issues[0]!.message, "Duplicate item found with id rs_1")
    for (const provider of providers) if (provider !== "openai-responses") assert.notInclude(tags(Conversation.issuesFor(provider, twice)), "DuplicateItemId", provider)
  })

  it("the parts of one message item share its id; the same id after another item is a second item", () => {
    const parts = [Message.user("Q"), Message.assistant([reasoning("rs_1"), said("A", "msg_1"), said("B", "msg_1"), Block.refusal("no", { itemId: "msg_1" })])]
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", parts), [])
    const split = [Message.user("Q"), Message.assistant([said("A", "msg_1"), reasoning("rs_1"), said("B", "msg_1")])]
    assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", split)), ["DuplicateItemId"])
  })

  it("function calls, their outputs, input messages and kept items are items too", () => {
    const call = (callId: string) => Block.toolCall(callId, "f", {}, { itemId: "fc_1" })
    const output = (callId: string) => Block.toolResult(callId, "f", "ok", false, { itemId: "fco_1" })
    const asked = (text: string) => Message.user(text, { providerOptions: { "openai-responses": { type: "message", id: "in_1" } } })
    const kept = Block.providerData("openai-responses", { type: "web_search_call", id: "ws_1", status: "completed" })
    const messages = [
      asked("Q"),
      Message.assistant([call("c1")]),
      Message.tool([output("c1")]),
      asked("Q2"),
      Message.assistant([kept, call("c2")]),
      Message.tool([output("c2")]),
      Message.user("Q3"),
      Message.assistant([kept, said("A", "msg_1")])
    ]
    const issues = Conversation.issuesFor("openai-responses", messages).filter((i) => i._tag === "DuplicateItemId") as Array<ValidationError.DuplicateItemId>
    assert.deepStrictEqual(issues.map((i) => [i.index, i.blockIndex, i.itemId]), [
      [3, undefined, "in_1"],
      [4, 1, "fc_1"],
      [5, 0, "fco_1"],
      [7, 0, "ws_1"]
    ])
  })

  it.effect("repairFor drops a later item that is an exact copy of the earlier one, keeping it in the log", () =>
    Effect.gen(function*() {
      const { actions, messages } = yield* Repair.repairFor("openai-responses")(twice)
      const removed = actions.filter((a): a is Repair.RemovedBlock => a._tag === "RemovedBlock")
      assert.deepStrictEqual(removed.map((a) => [a.index, a.blockIndex]), [[3, 0], [3, 1]])
      assert.strictEqual(removed[0]!.block, twice[3]!.content[0])
      assert.strictEqual(removed[1]!.block, twice[3]!.content[1])
      assert.include(removed[0]!.reason, "exact copy")
      assert.deepStrictEqual(Conversation.issuesFor("openai-responses", messages), [])
      const { value: input } = yield* OpenAiResponses.toMessages(messages)
      const ids = input.flatMap((item) => ("id" in item && typeof item.id === "string" ? [item.id] : []))
      assert.deepStrictEqual(ids, ["rs_1", "msg_1"])
    }))

  it.effect("a later item that differs from the earlier one is not dropped: which to keep is the user's choice", () =>
    Effect.gen(function*() {
      const differing = [Message.user("Q"), Message.assistant([reasoning("rs_1"), said("A", "msg_1")]), Message.user("Q2"), Message.assistant([reasoning("rs_1", "other"), said("B", "msg_2")])]
      const error = yield* Effect.flip(Repair.repairFor("openai-responses")(differing))
      assert.strictEqual(error.issue._tag, "DuplicateItemId")
      // a message item is compared whole: one part more is not a copy
      const longer = [Message.user("Q"), Message.assistant([said("A", "msg_1")]), Message.user("Q2"), Message.assistant([said("A", "msg_1"), said("B", "msg_1")])]
      const e2 = yield* Effect.flip(Repair.repairFor("openai-responses")(longer))
      assert.strictEqual(e2.issue._tag, "DuplicateItemId")
    }))
})
