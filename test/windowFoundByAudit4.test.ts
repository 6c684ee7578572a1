/**
 * What a fourth read of the window found: a system message among a call's
 * results (an agent loop's reminder between two tool messages) ended the
 * call's turn, so the result after it joined the reminder's unit, which is
 * pinned as a system message and pinned the call's whole turn with it; and
 * `clearThinking` took the thinking of the last assistant turn when such a
 * reminder sat among that turn's results.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Result } from "effect"
import { Block, Conversation, Message, MessageWindow, Request, Summarizer, TokenEstimator } from "../src/index.js"
import type { Provider } from "../src/index.js"
import { unitsOf } from "../src/internal/window.js"
import * as Arb from "./arbitraries.js"
import * as Req from "./requestArbitraries.js"
import * as GeminiEstimator from "../src/GeminiEstimator.js"
import { checkFit, estimator, fitRequestSync, fitSync, isValidFor, opensWell, window } from "./windowCheck.js"

const reminder = Message.system("Reminder: keep answers short.")

/** An agent's history with a reminder between the two results of a parallel call, then a new question. */
const withReminder = (leadingSystem: boolean): Array<Message.Message> => [
  ...(leadingSystem ? [Message.system("You are a weather agent.")] : []),
  Message.user("Weather in Oslo and Bergen?"),
  Message.assistant([Block.toolCall("c1", "weather", { city: "Oslo" }), Block.toolCall("c2", "weather", { city: "Bergen" })]),
  Message.toolResultMessage("c1", "weather", "12°C, light rain, wind from the west. ".repeat(8)),
  reminder,
  Message.toolResultMessage("c2", "weather", "9°C"),
  Message.assistant("Oslo has 12°C, Bergen 9°C."),
  Message.user("And Tromsø?"),
  Message.assistant([Block.toolCall("c3", "weather", { city: "Tromsø" })]),
  Message.toolResultMessage("c3", "weather", "2°C")
]

/** Inserts a reminder between two tool messages in a row wherever `bits` says so (one bit per such place). */
const insertReminders = (input: ReadonlyArray<Message.Message>, bits: number): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  let place = 0
  for (let i = 0; i < input.length; i++) {
    out.push(input[i]!)
    if (input[i]!.role === "tool" && input[i + 1]?.role === "tool" && ((bits >>> place++ % 30) & 1) === 1) {
      out.push(Message.system(`Reminder ${place}: stay on the task.`))
    }
  }
  return out
}

/** Agent histories whose parallel calls have reminders among their results (every place, or some). */
const reminded: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.all({
  input: Arb.agentConversation,
  bits: Arb.intBetween(0, 2 ** 30 - 1),
  every: Arb.bool
}).pipe(Arbitrary.map(({ bits, every, input }) => insertReminders(input, every ? 2 ** 30 - 1 : bits)))

/** What a cut at the newest user message keeps: the system messages that head a turn, and the tail. */
const leastKept = (input: ReadonlyArray<Message.Message>): Array<Message.Message> => {
  let tail = input.length
  for (let i = input.length - 1; i >= 0; i--) {
    if (input[i]!.role === "user") {
      tail = i
      break
    }
  }
  const heads = new Set(Conversation.turnsOf(input).map((t) => t.start))
  return input.filter((m, i) => i >= tail || (m.role === "system" && heads.has(i)))
}

describe("a system message among a call's results", () => {
  it("is part of the call's turn: the call is answered there, and nothing is stray", () => {
    const turns = Conversation.turnsOf(withReminder(false))
    assert.deepStrictEqual(turns.map((t) => [t.start, t.end]), [[0, 1], [1, 5], [5, 6], [6, 7], [7, 9]])
    assert.deepStrictEqual(turns[1]!.results.map((r) => r.result.toolCallId), ["c1", "c2"])
    assert.deepStrictEqual(turns[1]!.unanswered, [])
    assert.deepStrictEqual(turns[1]!.stray, [])
  })

  it("at the end of a conversation, after the last result, ends the turn as before", () => {
    const history = withReminder(false).slice(0, 4)
    const turns = Conversation.turnsOf([...history, reminder])
    assert.deepStrictEqual(turns.map((t) => [t.start, t.end]), [[0, 1], [1, 3], [3, 4], [4, 5]])
  })

  it("leaves the calls after it pending for the agent to run", () => {
    const history = [
      Message.user("Weather in three cities?"),
      Message.assistant([Block.toolCall("c1", "weather", {}), Block.toolCall("c2", "weather", {}), Block.toolCall("c3", "weather", {})]),
      Message.toolResultMessage("c1", "weather", "12°C"),
      reminder,
      Message.toolResultMessage("c2", "weather", "9°C")
    ]
    assert.deepStrictEqual(Conversation.pendingToolCalls(history).map((ref) => [ref.index, ref.call.id]), [[1, "c3"]])
  })

  it("does not pin the call's turn: Anthropic fits drop the old exchange whole, the reminder with it", () => {
    const input = withReminder(true)
    assert.isTrue(isValidFor("anthropic", input))
    const kept = leastKept(input)
    assert.deepStrictEqual(kept.map((m) => m.role), ["system", "user", "assistant", "tool"])
    const budget = estimator.estimateConversation(kept)
    for (const strategy of ["drop_oldest", "drop_oldest_pair", "summarize"] as const) {
      const r = fitSync(window, input, budget + (strategy === "summarize" ? 40 : 0), { provider: "anthropic", strategy })
      if (Result.isFailure(r)) assert.fail(`${strategy}: ${r.failure.message}`)
      const out = r.success.messages
      assert.isFalse(out.includes(reminder), strategy)
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", out), [], strategy)
    }
  })

  it("does not pin the call's turn in a request either (fitRequest, Anthropic)", () => {
    const input = withReminder(true)
    const request = Request.make(input, { model: "claude-sonnet-4-5" })
    const kept = Request.make(leastKept(input), { model: "claude-sonnet-4-5" })
    const budget = estimator.estimateRequest(kept, { provider: "anthropic" }).total
    assert.isBelow(budget, estimator.estimateRequest(request, { provider: "anthropic" }).total)
    const r = fitRequestSync(window, request, budget, { provider: "anthropic" })
    if (Result.isFailure(r)) return assert.fail(r.failure.message)
    assert.deepStrictEqual(r.success.request.messages.map((m) => m.role), ["system", "user", "assistant", "tool"])
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", r.success.request.messages), [])
  })

  it("keeps the thinking of the last assistant turn when a reminder sits among its results (clearThinking, Anthropic)", () => {
    const input = [
      Message.system("You are a weather agent."),
      Message.user("Weather in Oslo and Bergen?"),
      Message.assistant([
        Block.thinking("Both cities at once. " + "Plan the lookups carefully. ".repeat(12), "c2lnMQ=="),
        Block.toolCall("c1", "weather", { city: "Oslo" }),
        Block.toolCall("c2", "weather", { city: "Bergen" })
      ]),
      Message.toolResultMessage("c1", "weather", "12°C"),
      reminder,
      Message.toolResultMessage("c2", "weather", "9°C"),
      Message.assistant([Block.thinking("Now Tromsø. " + "Check the north too. ".repeat(12), "c2lnMg=="), Block.toolCall("c3", "weather", { city: "Tromsø" })]),
      Message.toolResultMessage("c3", "weather", "2°C"),
      Message.user("Thanks. Anything else?")
    ]
    const profile = { thinking: true }
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", input, profile), [])
    const total = estimator.estimateConversation(input)
    const r = fitSync(window, input, total - 30, { provider: "anthropic", profile, strategy: "clear_tool_results", clearThinking: true, keepToolResults: 0 })
    if (Result.isSuccess(r)) assert.deepStrictEqual(Conversation.issuesFor("anthropic", r.success.messages, profile).map((i) => i.message), [])
    else assert.strictEqual(r.failure._tag, "BudgetTooSmall")
  })

  it.prop("the window's units are still the turns of Conversation.turnsOf", [reminded], ([input]) => {
    const units = unitsOf(input)
    expect(Array.from(units.start.subarray(0, units.count))).toEqual(Conversation.turnsOf(input).map((t) => t.start))
  }, { arbitrary: { runs: 200 }, timeout: 300_000 })

  it.prop("Anthropic: a budget for the leading system messages and the tail always fits, and the result stays valid", [reminded], ([input]) => {
    const kept = leastKept(input)
    const budget = estimator.estimateConversation(kept)
    const r = fitSync(window, input, budget, { provider: "anthropic" })
    if (Result.isFailure(r)) return assert.fail(r.failure.message)
    expect(r.success.tokensAfter).toBeLessThanOrEqual(budget)
    if (isValidFor("anthropic", input)) expect(Conversation.issuesFor("anthropic", r.success.messages).map((i) => i.message)).toEqual([])
  }, { arbitrary: { runs: 150 }, timeout: 120_000 })

  it.prop("every provider and strategy: the window's invariants hold, no call parted from its results", [
    reminded,
    Arb.intBetween(0, 4),
    Arb.intBetween(0, 3),
    Arb.intBetween(10, 100)
  ], ([input, p, s, percent]) => {
    const provider = ([undefined, "anthropic", "openai-chat", "openai-responses", "gemini"] as const)[p] as Provider.Provider | undefined
    const strategy = (["drop_oldest", "drop_oldest_pair", "clear_tool_results", "summarize"] as const)[s]!
    const budget = Math.floor((estimator.estimateConversation(input) * percent) / 100)
    const c = { input, budget, options: { strategy, ...(provider === undefined ? {} : { provider }) }, marked: new Set<Message.Message>() }
    // the shared checker also asks for generic validity when the input is valid for the provider: a reminder among
    // results is valid for Anthropic alone (validation ends a turn at a system message for every other target), so
    // such an input is checked for the provider's verdict, the budget and the honest count here instead
    const anthropicOnly = provider === "anthropic" && isValidFor(provider, input) && !Conversation.isValid(input)
    const r = anthropicOnly ? fitSync(window, input, budget, c.options) : checkFit(c, provider)
    if (Result.isFailure(r)) return
    if (anthropicOnly) {
      expect(Conversation.issuesFor("anthropic", r.success.messages).map((i) => i.message)).toEqual([])
      expect(opensWell(provider, input, r.success.messages)).toBe(true)
      expect(r.success.tokensAfter).toBeLessThanOrEqual(budget)
      expect(r.success.tokensAfter).toBe(estimator.estimateConversation(r.success.messages))
    }
    // every kept result's call is kept, and every kept call's results
    const out = r.success.messages
    const calls = new Set(out.flatMap((m) => Message.toolCallsOf(m).map((c) => c.id)))
    const results = new Set(out.flatMap((m) => Message.toolResultsOf(m).map((x) => x.toolCallId)))
    for (const id of results) expect(calls.has(id)).toBe(true)
    for (const id of calls) if (input.some((m) => Message.toolResultsOf(m).some((x) => x.toolCallId === id))) expect(results.has(id)).toBe(true)
  }, { arbitrary: { runs: 200 }, timeout: 120_000 })
})

// ---------------------------------------------------------------------------
// a summary shortened to the room left
// ---------------------------------------------------------------------------

/** Estimators of different rules: the default, the CJK-weighted one, Gemini's, and text rules of a caller's (by words, by characters). */
const estimators: ReadonlyArray<TokenEstimator.Service> = [
  estimator,
  Effect.runSync(TokenEstimator.makeCjkWeighted()),
  TokenEstimator.fromTextRule((t) => t.split(/\s+/).filter((w) => w !== "").length),
  TokenEstimator.fromTextRule((t) => Math.ceil(t.length / 3)),
  Effect.runSync(GeminiEstimator.make())
]

const summaryCase = Arbitrary.all({
  input: Arb.agentConversation,
  pieces: Arbitrary.array(Arb.text, { minLength: 1, maxLength: 40 }),
  repeat: Arb.intBetween(1, 300),
  e: Arb.intBetween(0, estimators.length - 1),
  p: Arb.intBetween(0, 4),
  percent: Arb.intBetween(5, 100),
  summaryTokens: Arb.intBetween(0, 200),
  pinFirstUser: Arb.bool,
  clear: Arb.bool,
  pinAt: Arb.intBetween(-1, 40)
})

const providers = [undefined, "anthropic", "openai-chat", "openai-responses", "gemini"] as const

/** A case's estimator, a window whose summarizer answers with the case's text, its provider and its fit options. */
const summarizing = (c: typeof summaryCase extends Arbitrary.Arbitrary<infer A> ? A : never) => {
  const joined = c.pieces.join(" ").repeat(c.repeat)
  // a blank summary fails the fit (SummaryFailed): the room a summary gets is about summaries with text
  const text = joined.trim() === "" ? "(nothing)" : joined
  const est = estimators[c.e]!
  const w = Effect.runSync(
    MessageWindow.make.pipe(
      Effect.provideService(TokenEstimator.TokenEstimator, est),
      Effect.provideService(Summarizer.Summarizer, Summarizer.Summarizer.of({ summarize: () => Effect.succeed(text) }))
    )
  )
  const provider = providers[c.p]
  const options: MessageWindow.FitOptions = {
    strategy: c.clear ? ["clear_tool_results", "summarize"] : "summarize",
    summaryTokens: c.summaryTokens,
    pinFirstUser: c.pinFirstUser,
    pin: (_m: Message.Message, i: number) => i === c.pinAt,
    ...(provider === undefined ? {} : { provider })
  }
  return { est, w, provider, options }
}

describe("a summary shortened to the room left", () => {
  it.prop("fit: the result, summary included, is within the budget and counted honestly", [summaryCase], ([c]) => {
    const { est, w, options } = summarizing(c)
    const budget = Math.ceil((est.estimateConversation(c.input) * c.percent) / 100)
    // the least budget that works is the tightest room a summary gets: tried whenever the first is too small
    let b = budget
    let r = fitSync(w, c.input, b, options)
    if (Result.isFailure(r)) {
      if (r.failure._tag !== "BudgetTooSmall") return assert.fail(r.failure.message)
      b = r.failure.minimumBudget
      r = fitSync(w, c.input, b, options)
      if (Result.isFailure(r)) return assert.fail(`at the minimum: ${r.failure.message}`)
    }
    expect(r.success.tokensAfter).toBeLessThanOrEqual(b)
    expect(est.estimateConversation(r.success.messages)).toBe(r.success.tokensAfter)
    if (r.success.summary !== undefined) expect(est.estimateMessage(r.success.summary.message)).toBe(r.success.summary.tokens)
  }, { arbitrary: { runs: 300 }, timeout: 120_000 })

  it.prop("fitRequest: the fitted request, as estimateRequest counts it, is within the budget", [summaryCase, Req.fixedPart], ([c, fixed]) => {
    const { est, w, provider, options } = summarizing(c)
    const request = Req.requestWith(c.input, fixed, provider === "anthropic" ? "claude-sonnet-4-5" : provider === "gemini" ? "gemini-2.5-flash" : "gpt-4o")
    const counted = (req: Request.Request) => est.estimateRequest(req, provider === undefined ? undefined : { provider }).total
    const budget = Math.ceil((counted(request) * c.percent) / 100) + (request.maxOutputTokens ?? 0)
    let b = budget
    let r = fitRequestSync(w, request, b, options)
    if (Result.isFailure(r)) {
      if (r.failure._tag !== "BudgetTooSmall") return assert.fail(r.failure.message)
      b = r.failure.minimumBudget
      r = fitRequestSync(w, request, b, options)
      if (Result.isFailure(r)) return assert.fail(`at the minimum: ${r.failure.message}`)
    }
    expect(counted(r.success.request) + (request.maxOutputTokens ?? 0)).toBeLessThanOrEqual(b)
  }, { arbitrary: { runs: 300 }, timeout: 120_000 })
})
