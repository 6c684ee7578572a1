import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, Result } from "effect"
import { Block, Conversation, Message, MessageWindow, Provider, Request, Summarizer, TokenEstimator } from "../src/index.js"
import { unitsOf } from "../src/internal/window.js"
import * as Arb from "./arbitraries.js"
import * as Req from "./requestArbitraries.js"
import { allStrategies, checkClearing, checkFit, checkFitRequest, estimator, fitRequestSync, fitSync, window, windowWithoutSummarizer } from "./windowCheck.js"
import type { Case } from "./windowCheck.js"

const { assistant, system, tool, user } = Message
const call = (id: string, name = "read_file") => Block.toolCall(id, name, { path: `/src/${id}.ts` })
const result = (id: string, content: string, name = "read_file") => Block.toolResult(id, name, content)

/** Every character costs one token, messages nothing: figures you can count. */
const Counted = TokenEstimator.layerTest({ costPerChar: 1 })
const Live = MessageWindow.layer.pipe(Layer.provideMerge(Counted))
const fit = (messages: ReadonlyArray<Message.Message>, budget: number, options?: MessageWindow.FitOptions) =>
  MessageWindow.fit(messages, budget, options).pipe(Effect.provide(Live))
const roles = (ms: ReadonlyArray<Message.Message>) => ms.map((m) => m.role[0]).join("")

// s | u a(2 calls) t t a | u a(1 call) t a | u
const history = [
  system("sys"),
  user("first task"),
  assistant([call("a"), call("b")]),
  tool(result("a", "A".repeat(100))),
  tool(result("b", "B".repeat(100))),
  assistant("done 1"),
  user("second"),
  assistant([call("c")]),
  tool(result("c", "C".repeat(50))),
  assistant("done 2"),
  user("third?")
]
// by character: sys 3, "first task" 10, the two calls 58, their results 109 each, "done 1" 6,
// "second" 6, the third call 29, its result 59, "done 2" 6, "third?" 6: 401 in all
const TOTAL = 401

describe("MessageWindow.fit", () => {
  it.effect("a conversation that fits comes back as it is, the same array", () =>
    Effect.gen(function*() {
      const fitted = yield* fit(history, 10_000)
      expect(fitted.messages).toBe(history)
      expect(fitted.changed).toBe(false)
      expect(fitted.tokensBefore).toBe(TOTAL)
      expect(fitted.tokensAfter).toBe(TOTAL)
    }))

  it.effect("drop_oldest drops an assistant message together with all its results", () =>
    Effect.gen(function*() {
      // one of the two results would still fit, but not the call with both of them
      const fitted = yield* fit(history, 300)
      expect(roles(fitted.messages)).toBe("sauatau")
      expect(fitted.dropped.map((d) => [d.start, d.end])).toEqual([[1, 5]])
      expect(fitted.tokensAfter).toBe(115)
      expect(Conversation.isValid(fitted.messages)).toBe(true)
    }))

  it.effect("drop_oldest goes message by message: an assistant answer can stay without its question", () =>
    Effect.gen(function*() {
      const fitted = yield* fit(history, 115)
      // the first question and its tool step went; its answer "done 1" still fits
      expect(roles(fitted.messages)).toBe("sauatau")
      expect(Message.textOf(fitted.messages[1]!)).toBe("done 1")
    }))

  it.effect("drop_oldest_pair drops whole turns, from one user message to the next", () =>
    Effect.gen(function*() {
      const fitted = yield* fit(history, 115, { strategy: "drop_oldest_pair" })
      expect(roles(fitted.messages)).toBe("suatau")
      expect(fitted.dropped).toHaveLength(1)
      expect([fitted.dropped[0]!.start, fitted.dropped[0]!.end]).toEqual([1, 6])
    }))

  it.effect("system messages, the newest user message and everything after it are always kept", () =>
    Effect.gen(function*() {
      const fitted = yield* fit(history, 9)
      expect(fitted.messages).toEqual([history[0], history[10]])
    }))

  it.effect("pinFirstUser keeps the task, and the cut then starts at an assistant message", () =>
    Effect.gen(function*() {
      const fitted = yield* fit(history, 3 + 10 + 6 + 6 + 1, { pinFirstUser: true })
      expect(fitted.messages.map((m) => Message.textOf(m))).toEqual(["sys", "first task", "done 2", "third?"])
      expect(Conversation.isValid(fitted.messages)).toBe(true)
    }))

  it.effect("a message the caller pins stays with its whole unit", () =>
    Effect.gen(function*() {
      const pinned = history[4]!
      const fitted = yield* fit(history, 400, { pin: (m) => m === pinned })
      // the result pins its call and the sibling result
      expect(fitted.messages.slice(1, 4)).toEqual(history.slice(2, 5))
      expect(Conversation.isValid(fitted.messages)).toBe(true)
    }))

  it.effect("the pinned messages alone over budget fail with BudgetTooSmall naming a budget that works", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(fit(history, 5))
      assert.strictEqual(error._tag, "BudgetTooSmall")
      if (error._tag !== "BudgetTooSmall") return
      expect(error.minimumBudget).toBe(9)
      expect(error.message).toBe("a budget of 5 tokens is too small: the messages that must stay need a budget of at least 9 (the conversation has 401)")
      const fitted = yield* fit(history, error.minimumBudget)
      expect(fitted.tokensAfter).toBe(9)
    }))

  it.effect("fixedTokens and reserve are taken from the budget before the messages", () =>
    Effect.gen(function*() {
      const fitted = yield* fit(history, 1_000, { fixedTokens: 700, reserve: 200 })
      expect(fitted.available).toBe(100)
      expect(fitted.tokensAfter).toBeLessThanOrEqual(100)
      const error = yield* Effect.flip(fit(history, 100, { fixedTokens: 50, reserve: 50 }))
      assert.strictEqual(error._tag, "BudgetTooSmall")
      if (error._tag === "BudgetTooSmall") expect(error.minimumBudget).toBe(109)
    }))

  it.effect("bad options fail with InvalidFitOptions naming the option", () =>
    Effect.gen(function*() {
      const bad = (budget: number, options?: MessageWindow.FitOptions) => Effect.flip(fit(history, budget, options)).pipe(Effect.map((e) => e._tag === "InvalidFitOptions" ? e.option : e._tag))
      expect(yield* bad(-1)).toBe("budget")
      expect(yield* bad(Number.NaN)).toBe("budget")
      expect(yield* bad(100, { strategy: ["drop_oldest", "clear_tool_results"] })).toBe("strategy")
      expect(yield* bad(100, { strategy: ["drop_oldest", "summarize"] })).toBe("strategy")
      expect(yield* bad(100, { strategy: [] })).toBe("strategy")
      expect(yield* bad(100, { keepToolResults: 1.5 })).toBe("keepToolResults")
      expect(yield* bad(100, { reserve: -3 })).toBe("reserve")
      expect(yield* bad(1e308, { fixedTokens: 1e308, reserve: 1e308 })).toBe("reserve")
      // what an untyped caller (JavaScript, a JSON config) can pass: a failure, never a defect
      const untyped = (budget: unknown, options: unknown) => bad(budget as number, options as MessageWindow.FitOptions)
      expect(yield* untyped(100, { strategy: 5 })).toBe("strategy")
      expect(yield* untyped(100, { strategy: { name: "drop_oldest" } })).toBe("strategy")
      expect(yield* untyped(100, { pin: true })).toBe("pin")
      const error = yield* Effect.flip(fit(history, "100" as unknown as number))
      expect(error.message).toBe('invalid window option "budget": expected a finite, non-negative number of tokens, got "100" (a string)')
    }))

  it.effect("a conversation without a user message keeps its newest other message, never only its system messages", () =>
    Effect.gen(function*() {
      const input = [Message.assistant("Hello! I am your assistant. How can I help you today? ".repeat(5)), Message.system("Keep answers short.")]
      for (const strategy of ["drop_oldest", "drop_oldest_pair", "summarize"] as const) {
        const error = yield* Effect.flip(fit(input, 10, { strategy, provider: "openai-chat" }))
        assert(error._tag === "BudgetTooSmall")
        // nothing can go: the assistant message is the newest one that is not a system message
        expect(error.minimumBudget).toBe(error.tokens)
      }
      const longer = [Message.assistant("An old note. ".repeat(20)), ...input]
      const error = yield* Effect.flip(fit(longer, 10, { provider: "openai-chat" }))
      assert(error._tag === "BudgetTooSmall")
      const fitted = yield* fit(longer, error.minimumBudget, { provider: "openai-chat" })
      expect(fitted.messages.map((m) => m.role)).toEqual(["assistant", "system"])
      expect(Conversation.issuesFor("openai-chat", fitted.messages)).toEqual([])
    }))

})

// the same shape with long results: 3 + 10 + 58 + 1,009 + 1,009 + 6 + 6 + 29 + 1,009 + 6 + 6 = 3,151;
// a cleared result costs 9 + 74 = 83 (the tool name and the note), saving 926
const big = history.map((m) =>
  m.role === "tool" ? tool(Message.toolResultsOf(m).map((r) => result(r.toolCallId, r.toolCallId.toUpperCase().repeat(1000)))) : m
)

describe("clear_tool_results", () => {
  it.effect("replaces the oldest results with a note of what was removed and its size, calls and results in place", () =>
    Effect.gen(function*() {
      const fitted = yield* fit(big, 2_300, { strategy: "clear_tool_results", keepToolResults: 1 })
      expect(roles(fitted.messages)).toBe(roles(big))
      const cleared = Message.toolResultsOf(fitted.messages[3]!)[0]!
      expect(cleared.content).toBe("[tool result cleared to save context: read_file returned 1,000 characters]")
      expect([cleared.toolCallId, cleared.toolName, cleared.isError]).toEqual(["a", "read_file", false])
      expect(fitted.cleared.map((c) => [c.index, c.tokensSaved])).toEqual([[3, 926]])
      expect(fitted.tokensAfter).toBe(3_151 - 926)
      expect(Conversation.isValid(fitted.messages)).toBe(true)
    }))

  it.effect("keeps the newest results intact, even when that means the budget cannot be met", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(fit(big, 1_000, { strategy: "clear_tool_results", keepToolResults: 3 }))
      assert.strictEqual(error._tag, "BudgetTooSmall")
      if (error._tag === "BudgetTooSmall") expect(error.minimumBudget).toBe(3_151)
    }))

  it.effect("clears first, then drops what still does not fit, then restores what fits", () =>
    Effect.gen(function*() {
      // everything cleared is 373 tokens: over 300, so the oldest turn goes; then only the third result needs clearing
      const fitted = yield* fit(big, 300, { strategy: ["clear_tool_results", "drop_oldest"], keepToolResults: 0 })
      expect(roles(fitted.messages)).toBe("sauatau")
      expect(MessageWindow.describe(fitted)).toEqual([
        "dropped messages[1..4] (4 messages, 2,086 tokens)",
        "cleared 1 tool result in messages[8] (926 tokens saved)",
        "3,151 -> 139 tokens (300 available)"
      ])
      expect(Conversation.isValid(fitted.messages)).toBe(true)
    }))

  it.effect("a result that was already cleared is not cleared again", () =>
    Effect.gen(function*() {
      const once = yield* fit(big, 1_400, { strategy: "clear_tool_results", keepToolResults: 0 })
      expect(once.cleared.map((c) => c.index)).toEqual([3, 4])
      const twice = yield* fit(once.messages, 400, { strategy: "clear_tool_results", keepToolResults: 0 })
      expect(twice.cleared.map((c) => c.index)).toEqual([8])
      expect(twice.messages.slice(0, 8)).toEqual(once.messages.slice(0, 8))
    }))

  it.effect("describes files and structured parts by what they were", () =>
    Effect.gen(function*() {
      const messages = [
        user("look"),
        assistant([call("s", "browse")]),
        tool(Block.toolResult("s", "browse", [Block.text("x".repeat(300)), Block.image("https://example.com/a.png"), Block.json({ ok: true })])),
        assistant("seen"),
        user("next")
      ]
      const fitted = yield* fit(messages, 200, { strategy: "clear_tool_results", keepToolResults: 0 })
      expect(Message.toolResultsOf(fitted.messages[2]!)[0]!.content).toBe(
        "[tool result cleared to save context: browse returned 1 file and 311 characters]"
      )
    }))

  it.effect("clears a result in a turn kept because a late result ties it to the newest user message, and its minimum works", () =>
    Effect.gen(function*() {
      // a broken history: the user spoke before the second result came, so the first turn is kept with the newest
      // user message (dropping it would strand that result), and its long first result is kept only if cleared
      const late = [
        Message.system("You are a coding agent."),
        user("fix the build"),
        assistant([call("a", "read_file"), call("b", "run_tests")]),
        tool(result("a", "export const answer = compute(input, options) // see the notes\n".repeat(60))),
        user("are you there?"),
        tool(result("b", "ok", "run_tests"))
      ]
      const total = estimator.estimateConversation(late)
      const options = { strategy: "clear_tool_results", keepToolResults: 1 } as const
      const error = yield* Effect.flip(fit(late, 100, options))
      assert(error._tag === "BudgetTooSmall")
      expect(error.minimumBudget).toBeLessThan(total - 500)
      const fitted = yield* fit(late, error.minimumBudget, options)
      expect(fitted.messages.length).toBe(late.length)
      expect(fitted.cleared.map((c) => c.index)).toEqual([3])
      expect(Message.toolResultsOf(fitted.messages[3]!)[0]!.content).toBe("[tool result cleared to save context: read_file returned 3,780 characters]")
      expect(fitted.tokensAfter).toBe(error.minimumBudget)
      // with a cut after them: the task and the tied turn stay, pinned before the cut, and the turn is cleared
      const longer = [...late.slice(0, 4), user("and the docs?"), assistant("Docs are fine. ".repeat(100)), ...late.slice(4)]
      const both = yield* fit(longer, error.minimumBudget, { ...options, strategy: ["clear_tool_results", "drop_oldest"], pinFirstUser: true })
      expect(both.messages).toEqual([...fitted.messages.slice(0, 4), ...late.slice(4)])
      expect(both.dropped.map((d) => [d.start, d.end])).toEqual([[4, 6]])
    }))

  it.effect("clearThinking replaces old thinking with a note before the calls, and leaves the last turn's thinking", () =>
    Effect.gen(function*() {
      const messages = [
        user("q1"),
        assistant([Block.thinking("t".repeat(400), "sig"), call("x")]),
        tool(result("x", "r")),
        assistant("a1"),
        user("q2"),
        assistant([Block.thinking("u".repeat(400), "sig"), call("y")]),
        tool(result("y", "r"))
      ]
      const fitted = yield* fit(messages, 540, { strategy: "clear_tool_results", clearThinking: true })
      const first = fitted.messages[1]!
      expect(first.content.map((b) => b._tag)).toEqual(["Text", "ToolCall"])
      expect(Message.textOf(first)).toBe("[thinking cleared to save context: 400 characters]")
      expect(fitted.cleared.map((c) => [c.index, c.thinking])).toEqual([[1, 1]])
      expect(fitted.messages[5]).toBe(messages[5])
      expect(yield* Effect.result(Conversation.validateFor("anthropic")(fitted.messages))).toMatchObject({ _tag: "Success" })
    }))
})

describe("summarize", () => {
  const capture = () => {
    const requests: Array<Summarizer.SummaryRequest> = []
    const layer = Layer.succeed(
      Summarizer.Summarizer,
      Summarizer.Summarizer.of({ summarize: (request) => Effect.sync(() => (requests.push(request), "The user asked twice; files a, b and c were read.")) })
    )
    return { requests, layer }
  }

  it.effect("replaces the dropped turns with one summary message, cutting at a clean user start", () =>
    Effect.gen(function*() {
      const { layer, requests } = capture()
      const fitted = yield* fit(history, 200, { strategy: "summarize", summaryTokens: 100 }).pipe(Effect.provide(layer))
      expect(roles(fitted.messages)).toBe("ssu")
      const summary = fitted.summary!
      expect(summary.at).toBe(1)
      expect(summary.replaces).toBe(9)
      expect(Message.textOf(summary.message)).toBe(
        "[Summary of 9 earlier messages, removed to fit the context window]\nThe user asked twice; files a, b and c were read."
      )
      expect(requests[0]!.messages).toEqual(history.slice(1, 10))
      expect(Conversation.isValid(fitted.messages)).toBe(true)
    }))

  it.effect("renders tool calls and results into the transcript the summarizer reads", () =>
    Effect.gen(function*() {
      const { layer, requests } = capture()
      yield* fit(history, 200, { strategy: "summarize" }).pipe(Effect.provide(layer))
      const transcript = requests[0]!.transcript
      expect(transcript).toContain('Assistant: [tool call read_file({"path":"/src/a.ts"})]')
      expect(transcript).toContain(`Tool: [tool result read_file: ${"A".repeat(100)}]`)
    }))

  it.effect("with the task pinned, the summary is an assistant message between the task and the cut", () =>
    Effect.gen(function*() {
      const { layer } = capture()
      const fitted = yield* fit(history, 250, { strategy: "summarize", pinFirstUser: true, summaryTokens: 60 }).pipe(Effect.provide(layer))
      // the task, the summary, then from the second question on
      expect(roles(fitted.messages)).toBe("suauatau")
      expect(fitted.messages[2]!.role).toBe("assistant")
      expect(Conversation.isValid(fitted.messages)).toBe(true)
    }))

  it.effect("a long summary is shortened to the room left", () =>
    Effect.gen(function*() {
      const long = Layer.succeed(Summarizer.Summarizer, Summarizer.Summarizer.of({ summarize: () => Effect.succeed("word ".repeat(500)) }))
      const fitted = yield* fit(history, 200, { strategy: "summarize" }).pipe(Effect.provide(long))
      expect(fitted.summary?.shortened).toBe(true)
      expect(fitted.tokensAfter).toBeLessThanOrEqual(200)
    }))

  it.effect("an earlier summary is folded into the next one", () =>
    Effect.gen(function*() {
      const { layer, requests } = capture()
      const once = yield* fit(history, 200, { strategy: "summarize" }).pipe(Effect.provide(layer))
      const later = [...once.messages, assistant([call("d")]), tool(result("d", "D".repeat(80))), assistant("done 3"), user("fourth")]
      const twice = yield* fit(later, 200, { strategy: "summarize" }).pipe(Effect.provide(layer))
      expect(requests[1]!.messages[0]).toBe(once.summary!.message)
      expect(twice.messages.filter(MessageWindow.isSummary)).toHaveLength(1)
    }))

  it.effect("a summarizer provided to the layer is used too", () =>
    Effect.gen(function*() {
      const { layer, requests } = capture()
      const WithSummarizer = MessageWindow.layer.pipe(Layer.provide(Layer.merge(Counted, layer)))
      yield* MessageWindow.fit(history, 200, { strategy: "summarize" }).pipe(Effect.provide(WithSummarizer))
      expect(requests).toHaveLength(1)
    }))

  it.effect("without a Summarizer, falls back to dropping whole turns and says so", () =>
    Effect.gen(function*() {
      const fitted = yield* fit(history, 200, { strategy: "summarize" })
      expect(fitted.summary).toBeUndefined()
      expect(fitted.strategies).toEqual(["drop_oldest_pair"])
      expect(fitted.notes).toEqual([{ _tag: "SummarizerUnavailable" }])
      expect(MessageWindow.describe(fitted)).toContain("no Summarizer in context: dropped whole turns instead of summarizing")
    }))

  it.effect("a failing summarizer fails the fit with SummaryFailed", () =>
    Effect.gen(function*() {
      const failing = Layer.succeed(Summarizer.Summarizer, Summarizer.Summarizer.of({ summarize: () => Effect.fail(new Summarizer.SummaryFailed({ reason: "rate limited" })) }))
      const error = yield* Effect.flip(fit(history, 200, { strategy: "summarize" }).pipe(Effect.provide(failing)))
      expect(error._tag).toBe("SummaryFailed")
      expect(error.message).toBe("could not summarize the dropped messages: rate limited")
    }))
})

describe("providers", () => {
  it.effect("Anthropic and Gemini conversations still open with a user message after a cut", () =>
    Effect.gen(function*() {
      const budget = 115
      for (const provider of ["anthropic", "gemini"] as const) {
        const fitted = yield* fit(history, budget, { provider })
        expect(roles(fitted.messages)).toBe("suatau")
      }
      const generic = yield* fit(history, budget, { provider: "openai-chat" })
      expect(roles(generic.messages)).toBe("sauatau")
    }))

  it.effect("for Gemini, a summary after kept messages is an assistant message, never a late system message", () =>
    Effect.gen(function*() {
      const fitted = yield* fit(history, 250, { strategy: "summarize", pinFirstUser: true, provider: "gemini" }).pipe(
        Effect.provide(Summarizer.layerExtractive())
      )
      expect(fitted.summary?.message.role).toBe("assistant")
      expect(yield* Effect.result(Conversation.validateFor("gemini")(fitted.messages))).toMatchObject({ _tag: "Success" })
    }))
})

describe("MessageWindow.fitRequest", () => {
  const tools = [
    Request.tool("read_file", { description: "Read a file of the workspace.", parameters: { type: "object", properties: { path: { type: "string", description: "The path, from the workspace root" } }, required: ["path"] } }),
    Request.tool("run_tests", { description: "Run the test suite and report the failures.", parameters: { type: "object", properties: { pattern: { type: "string" }, watch: { type: "boolean" } } } })
  ]
  const request = Request.make(history, { model: "gpt-4o", tools, toolChoice: "auto" })
  const fitRequest = (r: Request.Request, budget: number, options?: MessageWindow.FitOptions) => Effect.runSync(window.fitRequest(r, budget, options))

  it("gives the messages what the tools, the framing and the reserve leave", () => {
    const estimate = estimator.estimateRequest(request)
    const fitted = fitRequest(request, estimate.total, { reserve: 100 })
    expect(fitted.changed).toBe(true)
    expect(fitted.fixedTokens).toBeGreaterThanOrEqual(estimate.tools + estimate.framing)
    expect(fitted.available).toBe(estimate.total - fitted.fixedTokens - 100)
    expect(estimator.estimateRequest(fitted.request).total + 100).toBeLessThanOrEqual(estimate.total)
  })

  it("drops messages, never the tools, the tool choice or the model", () => {
    const fitted = fitRequest(request, estimator.estimateRequest(request).total - 50)
    expect(fitted.request.messages.length).toBeLessThan(history.length)
    expect([fitted.request.model, fitted.request.tools, fitted.request.toolChoice]).toEqual([request.model, request.tools, request.toolChoice])
  })

  it("returns a request that already fits as it is", () => {
    const fitted = fitRequest(request, 100_000, { reserve: 4_000 })
    expect(fitted.changed).toBe(false)
    expect(fitted.request).toBe(request)
  })

  it("counts the tools a window on the messages alone would not see", () => {
    const conversationTotal = estimator.estimateConversation(history)
    const alone = Effect.runSync(window.fit(history, conversationTotal))
    expect(alone.changed).toBe(false)
    expect(fitRequest(request, conversationTotal).changed).toBe(true)
  })

  it("fails with BudgetTooSmall when the tools leave too little, naming a budget that works", () => {
    const error = Effect.runSync(Effect.flip(window.fitRequest(request, 50)))
    assert(error._tag === "BudgetTooSmall")
    expect(fitRequest(request, error.minimumBudget).request.messages.length).toBeGreaterThan(0)
  })

  it("counts an image given by URL as the request count does: a request the count says fits is kept whole", () => {
    for (const model of ["gpt-4o", "gpt-4o-mini", "gpt-5", undefined]) {
      for (const detail of [undefined, "high", "low"] as const) {
        const image = Block.image("https://example.com/cat.png", detail === undefined ? {} : { detail })
        const r = Request.make([user([image]), user([image])], model === undefined ? {} : { model })
        const total = estimator.estimateRequest(r).total
        const fitted = fitRequest(r, total)
        expect(fitted.changed).toBe(false)
        expect(fitted.tokensBefore + fitted.fixedTokens).toBe(total)
      }
    }
  })

  it("counts an inline image as the request count does on gpt-4o, gpt-4.1 and without a model", () => {
    // a PNG header of a 512x512 image: 255 tokens on gpt-4o at high detail, 85 at low
    const header = Buffer.alloc(33)
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(header, 0)
    header.writeUInt32BE(512, 16)
    header.writeUInt32BE(512, 20)
    for (const model of ["gpt-4o", "gpt-4.1", "gpt-4o-mini", undefined]) {
      for (const detail of [undefined, "low"] as const) {
        const image = Block.image(`data:image/png;base64,${header.toString("base64")}`, detail === undefined ? {} : { detail })
        // images alone: a text's estimate may differ by a token between a message alone and its rendering in context
        const r = Request.make([user([image]), user([image])], model === undefined ? {} : { model })
        const total = estimator.estimateRequest(r).total
        const fitted = fitRequest(r, total)
        expect(fitted.changed, `${model} ${detail}`).toBe(false)
        expect(fitted.tokensBefore + fitted.fixedTokens).toBe(total)
      }
    }
  })

  it("with provider anthropic, counts an image at Claude's price when it is the larger figure, and at the estimator's when that is", () => {
    const pngHeader = (width: number, height: number) => {
      const header = Buffer.alloc(33)
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(header, 0)
      header.writeUInt32BE(width, 16)
      header.writeUInt32BE(height, 20)
      return Block.image(`data:image/png;base64,${header.toString("base64")}`)
    }
    const options = { provider: "anthropic" } as const
    // 1000x500: 667 tokens on Claude, 425 by OpenAI's rule; the window must count 667 or it keeps what does not fit
    const wide = pngHeader(1000, 500)
    const large = Request.make([user([wide]), user([wide])], { model: "claude-sonnet-4-5" })
    const total = estimator.estimateRequest(large, options).total
    const kept = fitRequest(large, total, options)
    expect(kept.changed).toBe(false)
    expect(kept.tokensBefore + kept.fixedTokens).toBe(total)
    expect(kept.tokensBefore).toBeGreaterThan(estimator.estimateConversation(large.messages))
    expect(fitRequest(large, total - 1, options).changed).toBe(true)
    // 200x200: 64 tokens on Claude, 255 by OpenAI's rule: the window keeps the estimator's larger figure
    const small = Request.make([user([pngHeader(200, 200)]), user([pngHeader(200, 200)])], { model: "claude-sonnet-4-5" })
    const counted = fitRequest(small, 10_000, options)
    expect(counted.tokensBefore).toBe(estimator.estimateConversation(small.messages))
    expect(counted.tokensBefore).toBeGreaterThan(estimator.estimateRequest(small, options).total)
  })

  it("keeps the request's own output limit free when no reserve is given", () => {
    const limited = Request.make(history, { model: "gpt-4o", tools, maxOutputTokens: 40 })
    const total = estimator.estimateRequest(limited).total
    const fitted = fitRequest(limited, total)
    expect(fitted.available).toBe(total - fitted.fixedTokens - 40)
    expect(fitRequest(limited, total, { reserve: 0 }).request.messages.length).toBeGreaterThanOrEqual(fitted.request.messages.length)
  })

  it("counts a summary under the request's response format: the whole request fits at every budget", () => {
    // under a json_schema response format each assistant reply costs more; the summary the window writes is one
    const responseFormat = { _tag: "JsonSchema", name: "answer", schema: { type: "object", properties: { text: { type: "string" } } } } as const
    const formatted = Request.make(history, { model: "gpt-4o", responseFormat })
    const total = estimator.estimateRequest(formatted).total
    let summarized = 0
    for (let budget = total; budget > total / 2; budget -= 7) {
      const result = Effect.runSync(Effect.result(window.fitRequest(formatted, budget, { strategy: "summarize", pinFirstUser: true, summaryTokens: 8 })))
      if (Result.isFailure(result)) continue
      if (result.success.summary !== undefined) summarized++
      expect(estimator.estimateRequest(result.success.request).total, `budget ${budget}`).toBeLessThanOrEqual(budget)
    }
    expect(summarized).toBeGreaterThan(0)
  })

  it("uses the provider's framing: Anthropic's tool-use system prompt", () => {
    const anthropic = fitRequest(Request.make(history, { model: "claude-sonnet-4-5", tools }), 100_000, { provider: "anthropic" })
    expect(anthropic.fixedTokens).toBeGreaterThanOrEqual(496)
  })
})

// ---------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------

type Choice = MessageWindow.Strategy | ReadonlyArray<MessageWindow.Strategy>

const caseOf = (choices: ReadonlyArray<Choice>, conversation: Arbitrary.Arbitrary<Array<Message.Message>> = Arb.agentConversation): Arbitrary.Arbitrary<Case> =>
  Arbitrary.all({
    input: conversation,
    choice: Arb.intBetween(0, choices.length - 1),
    percent: Arb.intBetween(1, 110),
    pinFirstUser: Arb.bool,
    markEvery: Arb.intBetween(0, 5),
    keepToolResults: Arb.intBetween(0, 4),
    clearThinking: Arb.bool,
    outside: Arb.intBetween(0, 3),
    summaryTokens: Arb.intBetween(0, 400)
  }).pipe(
    Arbitrary.map(({ choice, clearThinking, input, keepToolResults, markEvery, outside, percent, pinFirstUser, summaryTokens }) => {
      const marked = new Set<Message.Message>()
      if (markEvery >= 4) input.forEach((m, i) => i % (markEvery === 4 ? 11 : 7) === 5 && marked.add(m))
      const budget = Math.ceil((estimator.estimateConversation(input) * percent) / 100)
      const options: MessageWindow.FitOptions = {
        strategy: choices[choice]!,
        pinFirstUser,
        keepToolResults,
        clearThinking,
        ...(marked.size > 0 ? { pin: (m: Message.Message) => marked.has(m) } : {}),
        ...(outside === 1 ? { fixedTokens: 40 } : outside === 2 ? { reserve: 60 } : {}),
        ...(summaryTokens < 200 ? { summaryTokens } : {})
      }
      return { input, budget, options, marked }
    })
  )

const runs = { arbitrary: { runs: 1000 }, timeout: 120_000 }

/**
 * An agent history broken the way a careless client breaks one: a user
 * message typed between an assistant's calls and their results, or the
 * results sent a turn late (after the next user message); or one of the
 * generic breakages on top.
 */
const brokenAgentConversation: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.all({
  input: Arb.agentConversation,
  at: Arb.intBetween(0, 10_000),
  how: Arb.intBetween(0, 2),
  broken: Arb.brokenConversation
}).pipe(
  Arbitrary.map(({ at, broken, how, input }) => {
    if (how === 2) return broken
    const calls = input.flatMap((m, i) => (Message.hasToolCalls(m) ? [i] : []))
    if (calls.length === 0) return input
    const i = calls[at % calls.length]!
    const out = input.slice()
    if (how === 0) {
      out.splice(i + 1, 0, Message.user("Also check the logs, please."))
      return out
    }
    let j = i + 1
    while (j < out.length && out[j]!.role === "tool") j++
    const results = out.splice(i + 1, j - i - 1)
    const next = out.findIndex((m, k) => k > i && m.role === "user")
    out.splice(next === -1 ? out.length : next + 1, 0, ...results)
    return out
  })
)

/**
 * An agent history with messages of no content inserted where Anthropic takes them: after a user message or tool
 * results (a user message of no content), after an assistant message without calls (an assistant one), or before a
 * user message (opening its run).
 */
const withEmptyMessages: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.all({
  input: Arb.agentConversation,
  places: Arbitrary.array(Arb.intBetween(0, 10_000), { minLength: 1, maxLength: 4 })
}).pipe(
  Arbitrary.map(({ input, places }) => {
    const out = input.slice()
    for (const at of places) {
      const i = at % out.length
      const m = out[i]!
      const next = out[i + 1]
      if ((m.role === "user" || m.role === "tool") && next?.role !== "tool") out.splice(i + 1, 0, Message.user([]))
      else if (m.role === "assistant" && !Message.hasToolCalls(m)) out.splice(i + 1, 0, Message.assistant([]))
      else if (next?.role === "user") out.splice(i + 1, 0, Message.user([]))
    }
    return out
  })
)

/** The results in `output` whose call came before them in `input` but not in `output` (by id). */
const resultsWithoutTheirCall = (output: ReadonlyArray<Message.Message>, input: ReadonlyArray<Message.Message>): Array<string> => {
  const answerable = (messages: ReadonlyArray<Message.Message>): Array<{ readonly id: string; readonly called: boolean }> => {
    const seen = new Set<string>()
    const out: Array<{ id: string; called: boolean }> = []
    for (const m of messages) {
      for (const b of m.content) {
        if (b._tag === "ToolCall") seen.add(b.id)
        else if (b._tag === "ToolResult") out.push({ id: b.toolCallId, called: seen.has(b.toolCallId) })
      }
    }
    return out
  }
  const calledInInput = new Set(answerable(input).filter((r) => r.called).map((r) => r.id))
  return answerable(output).filter((r) => !r.called && calledInInput.has(r.id)).map((r) => r.id)
}

/**
 * The calls in `output` that a result answered in `input` but not in `output`. A result answers the latest call
 * before it with its id, so a call is known by the block itself (ids repeat in broken histories: a pinned call
 * that was never answered is not made answered by a later call's result with the same id).
 */
const callsWithoutTheirResult = (output: ReadonlyArray<Message.Message>, input: ReadonlyArray<Message.Message>): Array<string> => {
  const answered = (messages: ReadonlyArray<Message.Message>): Map<Block.ToolCallBlock, boolean> => {
    const calls = new Map<Block.ToolCallBlock, boolean>()
    const latest = new Map<string, Block.ToolCallBlock>()
    for (const m of messages) {
      for (const b of m.content) {
        if (b._tag === "ToolCall") {
          calls.set(b, false)
          latest.set(b.id, b)
        } else if (b._tag === "ToolResult") {
          const call = latest.get(b.toolCallId)
          if (call !== undefined) calls.set(call, true)
        }
      }
    }
    return calls
  }
  const before = answered(input)
  return [...answered(output)].filter(([call, ok]) => !ok && before.get(call) === true).map(([call]) => call.id)
}

const allChoices: ReadonlyArray<Choice> = allStrategies

describe("window properties", () => {
  it.prop("the generated agent histories are valid", [Arb.agentConversation], ([input]) => {
    expect(Conversation.issuesOf(input).map((i) => i.message)).toEqual([])
  }, { arbitrary: { runs: 200 }, timeout: 300_000 })

  for (const choice of allChoices) {
    const name = typeof choice === "string" ? choice : choice.join(" then ")
    it.prop(`${name}: valid, within budget or a working minimum, pinned plus a suffix, minimal`, [caseOf([choice])], ([c]) => {
      checkFit(c, undefined)
    }, runs)
  }

  for (const provider of Provider.all) {
    it.prop(`with provider ${provider}, every strategy keeps validateFor(${provider}) passing`, [caseOf(allChoices)], ([c]) => {
      checkFit({ ...c, options: { ...c.options, provider } }, provider)
    }, runs)
  }

  // Anthropic takes a message of no content inside a run of its role (it merges the run into one message), never alone:
  // the window once kept such a message alone as the newest user message, or as the first one pinFirstUser keeps
  // (the input is valid for Anthropic, not generically: two user messages in a row, one of them empty)
  it.prop("with provider anthropic, messages of no content in runs of their role are never kept alone", [caseOf(allChoices, withEmptyMessages)], ([c]) => {
    const options = { ...c.options, provider: "anthropic" as const }
    const result = fitSync(window, c.input, c.budget, options)
    if (Result.isFailure(result)) {
      expect(result.failure._tag).toBe("BudgetTooSmall")
      if (result.failure._tag === "BudgetTooSmall") expect(Result.isSuccess(fitSync(window, c.input, result.failure.minimumBudget, options))).toBe(true)
      return
    }
    const output = result.success.messages
    if (Conversation.issuesFor("anthropic", c.input).length === 0) expect(Conversation.issuesFor("anthropic", output).map((i) => i.message)).toEqual([])
    expect(result.success.tokensAfter).toBeLessThanOrEqual(result.success.available)
    expect(resultsWithoutTheirCall(output, c.input)).toEqual([])
    expect(callsWithoutTheirResult(output, c.input)).toEqual([])
  }, runs)

  it.prop("without a Summarizer, summarize drops whole turns and stays valid", [caseOf(["summarize"])], ([c]) => {
    const r = fitSync(windowWithoutSummarizer, c.input, c.budget, c.options)
    if (Result.isFailure(r)) return
    expect(r.success.summary).toBeUndefined()
    expect(Conversation.issuesOf(r.success.messages)).toEqual([])
    expect(r.success.tokensAfter).toBeLessThanOrEqual(r.success.available)
  }, { arbitrary: { runs: 300 }, timeout: 300_000 })

  it.prop("on a broken history no strategy keeps a call without its result, or a result without its call", [caseOf(allChoices, brokenAgentConversation)], ([c]) => {
    const r = fitSync(window, c.input, c.budget, c.options)
    if (Result.isFailure(r)) return
    expect(resultsWithoutTheirCall(r.success.messages, c.input)).toEqual([])
    expect(callsWithoutTheirResult(r.success.messages, c.input)).toEqual([])
  }, { arbitrary: { runs: 400 }, timeout: 120_000 })

  // (a unit a late result ties to the pinned tail is pinned too, so `checkFit`'s reading of what is pinned and kept
  // as a suffix does not apply here; the budget, the minimum and what clearing may change do)
  it.prop("on a broken history every strategy fits within the budget, or names a minimum that works", [caseOf(allChoices, brokenAgentConversation)], ([c]) => {
    const r = fitSync(window, c.input, c.budget, c.options)
    if (Result.isFailure(r)) {
      assert.strictEqual(r.failure._tag, "BudgetTooSmall")
      if (r.failure._tag !== "BudgetTooSmall") return
      expect(r.failure.minimumBudget).toBeGreaterThan(c.budget)
      const again = fitSync(window, c.input, r.failure.minimumBudget, c.options)
      assert.isTrue(Result.isSuccess(again), Result.isFailure(again) ? again.failure.message : "")
      return
    }
    const fitted = r.success
    expect(fitted.tokensAfter).toBeLessThanOrEqual(fitted.available)
    expect(fitted.tokensAfter).toBe(estimator.estimateConversation(fitted.messages))
    checkClearing(c, fitted)
  }, { arbitrary: { runs: 1000 }, timeout: 300_000 })

  it.prop("the window's units are the turns of Conversation.turnsOf", [Arb.brokenConversation], ([input]) => {
    const units = unitsOf(input)
    const starts = Array.from(units.start.subarray(0, units.count))
    expect(starts).toEqual(Conversation.turnsOf(input).map((t) => t.start))
  }, { arbitrary: { runs: 300 }, timeout: 300_000 })

  it.prop("every message is estimated at most once per fit", [caseOf(allChoices)], ([c]) => {
    const seen = new Map<Message.Message, number>()
    const note = (m: Message.Message) => seen.set(m, (seen.get(m) ?? 0) + 1)
    const counting: TokenEstimator.Service = {
      ...estimator,
      estimateMessage: (m) => (note(m), estimator.estimateMessage(m)),
      estimateEach: (ms) => (ms.forEach(note), estimator.estimateEach(ms)),
      estimateConversation: (ms) => (ms.forEach(note), estimator.estimateConversation(ms))
    }
    const w = Effect.runSync(MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, counting), Effect.provide(Summarizer.layerExtractive())))
    fitSync(w, c.input, c.budget, c.options)
    for (const [, n] of seen) expect(n).toBe(1)
  }, { arbitrary: { runs: 300 }, timeout: 300_000 })

  it.prop("a fit of a fitted conversation with the same budget changes nothing", [caseOf(["drop_oldest", "drop_oldest_pair", ["clear_tool_results", "drop_oldest"]])], ([c]) => {
    const first = fitSync(window, c.input, c.budget, c.options)
    if (Result.isFailure(first)) return
    const pin = c.options.pin
    const second = fitSync(window, first.success.messages, c.budget, { ...c.options, ...(pin === undefined ? {} : { pin }) })
    assert.isTrue(Result.isSuccess(second))
    if (Result.isSuccess(second)) expect(second.success.changed).toBe(false)
  }, { arbitrary: { runs: 300 }, timeout: 300_000 })

  const requestCase = Arbitrary.all({
    c: caseOf(allChoices),
    fixed: Req.fixedPart,
    provider: Arb.intBetween(0, Provider.all.length),
    percent: Arb.intBetween(1, 110)
  }).pipe(
    Arbitrary.map(({ c, fixed, percent, provider }) => {
      const p = Provider.all[provider]
      const request = Req.requestWith(c.input, fixed, p === "anthropic" ? "claude-sonnet-4-5" : "gpt-4o")
      // the budget scales the whole request, so tools leave some room most of the time
      const budget = Math.ceil((estimator.estimateRequest(request, p === undefined ? undefined : { provider: p }).total * percent) / 100) +
        (c.options.reserve ?? request.maxOutputTokens ?? 0)
      return { c: { ...c, budget, options: { ...c.options, ...(p === undefined ? {} : { provider: p }) } }, request, provider: p }
    })
  )

  it.prop("fitRequest: the messages' fit with the request's fixed part taken first, the request kept, the whole request within budget", [requestCase], ([{ c, provider, request }]) => {
    checkFitRequest(c, request, provider)
  }, runs)

  it.prop("on a broken history, for every provider and a whole request, a named minimum works", [Arbitrary.all({
    c: caseOf(allChoices, brokenAgentConversation),
    fixed: Req.fixedPart,
    provider: Arb.intBetween(0, Provider.all.length),
    whole: Arb.bool
  })], ([{ c, fixed, provider: n, whole }]) => {
    const p = Provider.all[n]
    const options = { ...c.options, ...(p === undefined ? {} : { provider: p }) }
    const request = Req.requestWith(c.input, fixed, p === "anthropic" ? "claude-sonnet-4-5" : "gpt-4o")
    const run = (budget: number) => (whole ? fitRequestSync(window, request, budget, options) : fitSync(window, c.input, budget, options))
    const r = run(c.budget)
    if (Result.isSuccess(r)) return
    assert.strictEqual(r.failure._tag, "BudgetTooSmall", r.failure.message)
    if (r.failure._tag !== "BudgetTooSmall") return
    expect(r.failure.minimumBudget).toBeGreaterThan(c.budget)
    const again = run(r.failure.minimumBudget)
    assert.isTrue(Result.isSuccess(again), Result.isFailure(again) ? again.failure.message : "")
  }, { arbitrary: { runs: 1000 }, timeout: 300_000 })

  it.prop("fitRequest: the request's fixed part never shrinks as its tools grow", [requestCase, Req.toolDefinition], ([{ c, provider, request }, tool]) => {
    const tools = (request.tools ?? []).filter((t) => t.name !== tool.name)
    const { messages: _, ...rest } = request
    const fewer = fitRequestSync(window, Request.make(request.messages, { ...rest, tools }), c.budget, c.options)
    const more = fitRequestSync(window, Request.make(request.messages, { ...rest, tools: [...tools, tool] }), c.budget, c.options)
    if (Result.isSuccess(fewer) && Result.isSuccess(more) && provider !== "openai-chat" && provider !== "openai-responses" && provider !== undefined) {
      expect(more.success.fixedTokens).toBeGreaterThanOrEqual(fewer.success.fixedTokens)
    }
    if (Result.isSuccess(more)) expect(Result.isSuccess(fewer)).toBe(true)
  }, { arbitrary: { runs: 300 }, timeout: 120_000 })
})
