/**
 * `maxInputTokens` bounds what `recordUsage` takes: a report above the model's
 * context window is no report (the very context comes back), every context
 * made from a bounded one keeps the bound, and a context made without it
 * behaves as before (a report is taken however large).
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, pipe } from "effect"
import { ConversationContext, Message, MessageWindow, TokenEstimator } from "../src/index.js"
import * as Arb from "./arbitraries.js"

const { assistant, system, user } = Message
const Counted = TokenEstimator.layerTest({ costPerChar: 1 })
const Live = MessageWindow.layer.pipe(Layer.provideMerge(Counted))

/** An estimator whose figures can be scaled, as a calibrated one's move. */
const scalable = () => {
  const base = TokenEstimator.heuristic
  let scale = 1
  const estimator: TokenEstimator.Service = {
    ...base,
    estimateMessage: (m) => Math.round(base.estimateMessage(m) * scale),
    estimateEach: (ms) => ms.map((m) => Math.round(base.estimateMessage(m) * scale)),
    estimateConversation: (ms) => ms.reduce((n, m) => n + Math.round(base.estimateMessage(m) * scale), 0)
  }
  return { estimator, setScale: (s: number) => void (scale = s) }
}

/** The bound is there, and a report just above it is still no report. */
const expectBounded = (context: ConversationContext.ConversationContext, bound: number) => {
  expect(context.maxInputTokens).toBe(bound)
  expect(ConversationContext.recordUsage(context, bound + 1)).toBe(context)
  expect(ConversationContext.recordUsage(context, { inputTokens: bound * 1_000 })).toBe(context)
}

describe("ConversationContext maxInputTokens", () => {
  it("a report above the bound is no report; one at the bound is taken", () => {
    const context = ConversationContext.makeWith(TokenEstimator.heuristic, [user("Weather in Oslo?")], 100_000, { maxInputTokens: 1_000 })
    expect(ConversationContext.recordUsage(context, 1_001)).toBe(context)
    expect(ConversationContext.recordUsage(context, { inputTokens: 50_000_000 })).toBe(context)
    expect(ConversationContext.recordUsage(1_001)(context)).toBe(context)
    const taken = ConversationContext.recordUsage(context, { inputTokens: 1_000 })
    expect([taken.tokens, taken.correction]).toEqual([1_000, 1_000 - context.estimated])
    // the earlier correction stays when a later report is out of bounds
    expect(ConversationContext.recordUsage(taken, 1_001)).toBe(taken)
  })

  it.effect("a count above the window no longer makes fit fail with BudgetTooSmall", () =>
    Effect.gen(function*() {
      const messages = [system("be brief"), user("hello"), assistant("hi"), user("weather?")]
      const unbounded = yield* ConversationContext.make(messages, 1_000)
      const bounded = yield* ConversationContext.make(messages, 1_000, { maxInputTokens: 8_000 })
      // a count of something else (a whole batch, a wrong field) far above the model's window
      const wrong = 2_000_000
      const error = yield* Effect.flip(ConversationContext.fit(ConversationContext.recordUsage(unbounded, wrong)))
      expect(error._tag).toBe("BudgetTooSmall")
      const kept = ConversationContext.recordUsage(bounded, wrong)
      expect(kept).toBe(bounded)
      const { context } = yield* ConversationContext.fit(kept)
      expect(context).toBe(bounded)
      expect(ConversationContext.isOver(context)).toBe(false)
    }).pipe(Effect.provide(Live)))

  it.effect("every operation that rebuilds the context keeps the bound", () =>
    Effect.gen(function*() {
      const bound = 5_000
      const long = Array.from({ length: 12 }, (_, i) => [user(`question ${i} ${"word ".repeat(20)}`), assistant(`answer ${i} ${"word ".repeat(20)}`)]).flat()
      let context = yield* ConversationContext.make([system("sys"), ...long, user("last")], 400, { maxInputTokens: bound })
      expectBounded(context, bound)
      // append, both forms, and a branch (an append to a context appended to before)
      const appended = ConversationContext.append(context, user("more"))
      expectBounded(appended, bound)
      expectBounded(pipe(context, ConversationContext.append([assistant("a"), user("b")])), bound)
      expectBounded(ConversationContext.append(context, assistant("branch")), bound)
      // withBudget, both forms
      expectBounded(ConversationContext.withBudget(context, 100_000), bound)
      expectBounded(pipe(context, ConversationContext.withBudget(200)), bound)
      // a report that is taken
      context = ConversationContext.recordUsage(ConversationContext.withBudget(context, 100_000), context.estimated + 100)
      expect(context.correction).toBe(100)
      expectBounded(context, bound)
      // fit that changes the messages, and fit that changes nothing
      const { context: fitted, fitted: result } = yield* ConversationContext.fit(ConversationContext.withBudget(context, 400))
      expect(result.changed).toBe(true)
      expectBounded(fitted, bound)
      const { context: same } = yield* pipe(fitted, ConversationContext.fit())
      expectBounded(same, bound)
    }).pipe(Effect.provide(Live)))

  it("refresh keeps the bound when the estimator's figures moved", () => {
    const { estimator, setScale } = scalable()
    const context = ConversationContext.makeWith(estimator, [user("hello ".repeat(40)), assistant("hi ".repeat(40))], 10_000, { maxInputTokens: 3_000 })
    setScale(2)
    const refreshed = ConversationContext.refresh(context)
    expect(refreshed).not.toBe(context)
    expect(refreshed.estimated).toBeGreaterThan(context.estimated)
    expectBounded(refreshed, 3_000)
    // the context itself as the options of makeWith: made afresh, the bound stays
    expectBounded(ConversationContext.makeWith(estimator, refreshed.messages, refreshed.budget, refreshed), 3_000)
  })

  it("a context made without the bound behaves as before: no key, and a report is taken however large", () => {
    const context = ConversationContext.makeWith(TokenEstimator.heuristic, [user("hello")], 1_000)
    expect("maxInputTokens" in context).toBe(false)
    expect(Object.keys(context)).not.toContain("maxInputTokens")
    expect(Object.keys(JSON.parse(JSON.stringify(context)) as object)).toEqual(["_id", "messages", "budget", "estimated", "correction", "tokens", "headroom"])
    const taken = ConversationContext.recordUsage(context, 50_000_000)
    expect(taken.tokens).toBe(50_000_000)
    expect("maxInputTokens" in taken).toBe(false)
    // options without the bound are no bound
    const given = ConversationContext.makeWith(TokenEstimator.heuristic, [user("hello")], 1_000, { maxInputTokens: undefined })
    expect("maxInputTokens" in given).toBe(false)
    expect(ConversationContext.recordUsage(given, 50_000_000).tokens).toBe(50_000_000)
  })

  it("the bound prints with the context; a bound that is NaN takes no report", () => {
    const context = ConversationContext.makeWith(TokenEstimator.heuristic, [user("hello")], 1_000, { maxInputTokens: 128_000 })
    expect(JSON.parse(JSON.stringify(context)).maxInputTokens).toBe(128_000)
    const nan = ConversationContext.makeWith(TokenEstimator.heuristic, [user("hello")], 1_000, { maxInputTokens: Number.NaN })
    expect(ConversationContext.recordUsage(nan, 10)).toBe(nan)
  })

  it.prop(
    "a report is taken exactly when it lies between a quarter of the estimate and the bound, and the bound stays",
    [Arb.agentConversation, Arb.intBetween(1, 200_000), Arbitrary.array(Arb.intBetween(-10, 400_000), { minLength: 1, maxLength: 6 })],
    ([messages, bound, reports]) => {
      let context = ConversationContext.makeWith(TokenEstimator.heuristic, messages, 100_000, { maxInputTokens: bound })
      for (const report of reports) {
        const next = ConversationContext.recordUsage(context, { inputTokens: report })
        const least = Math.ceil(context.estimated / 4)
        if (report > 0 && report >= least && report <= bound) {
          // the figure a report sets is never more than the model's window holds
          expect(next.tokens).toBe(report)
          expect(next.tokens).toBeLessThanOrEqual(bound)
          expect(next.correction).toBe(report - context.estimated)
        } else {
          expect(next).toBe(context)
        }
        expect(next.maxInputTokens).toBe(bound)
        context = ConversationContext.append(next, user(`report ${report}`))
      }
    },
    { arbitrary: { runs: 300 }, timeout: 120_000 }
  )
})
