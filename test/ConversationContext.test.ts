import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, pipe } from "effect"
import { Block, Calibration, ConversationContext, Message, MessageWindow, TokenEstimator } from "../src/index.js"
import * as Arb from "./arbitraries.js"

const { assistant, system, tool, user } = Message
const Counted = TokenEstimator.layerTest({ costPerChar: 1 })
const Live = MessageWindow.layer.pipe(Layer.provideMerge(Counted))

describe("ConversationContext", () => {
  it.effect("holds messages, budget, the running estimate and the headroom", () =>
    Effect.gen(function*() {
      const context = yield* ConversationContext.make([system("be brief"), user("hello")], 100)
      expect([context.estimated, context.tokens, context.headroom, context.correction]).toEqual([13, 13, 87, 0])
      expect(Object.isFrozen(context)).toBe(true)
      expect(Object.isFrozen(context.messages)).toBe(true)
    }).pipe(Effect.provide(Counted)))

  it.effect("fit and recordUsage follow a calibrated estimator's factor; refresh does on its own", () =>
    Effect.gen(function*() {
      const estimator = yield* TokenEstimator.TokenEstimator
      const calibration = yield* Calibration.Calibration
      const messages = [system("sys"), ...Array.from({ length: 10 }, (_, i) => [user(`question ${i} ${"word ".repeat(40)}`), assistant(`answer ${i} ${"word ".repeat(40)}`)]).flat(), user("last")]
      const context = yield* ConversationContext.make(messages, 850)
      const base = calibration.base.estimateConversation(messages)
      expect(ConversationContext.isOver(context)).toBe(true)
      // other requests report 0.8 of the estimate: the same messages now fit
      for (let i = 0; i < 5; i++) yield* calibration.record("m", estimator.estimateConversation(messages), Math.round(base * 0.8))
      const fresh = estimator.estimateConversation(messages)
      expect(fresh).toBeLessThan(context.estimated)
      expect(ConversationContext.refresh(context).estimated).toBe(fresh)
      const { context: next, fitted } = yield* ConversationContext.fit(context)
      expect(fitted.changed).toBe(false)
      expect([next.estimated, ConversationContext.isOver(next)]).toEqual([fresh, false])
      const reported = ConversationContext.recordUsage(context, 700)
      expect([reported.estimated, reported.correction, reported.tokens]).toEqual([fresh, 700 - fresh, 700])
    }).pipe(Effect.provide(MessageWindow.layer.pipe(Layer.provideMerge(Calibration.layerTokenEstimator({ model: "m" }).pipe(Layer.provide(TokenEstimator.layer)))))))

  it.effect("fit checks fixedTokens as given, before adding the correction", () =>
    Effect.gen(function*() {
      const context = ConversationContext.recordUsage(yield* ConversationContext.make([user("hello")], 1_000), 300)
      for (const fixedTokens of [-200, "50" as unknown as number]) {
        const error = yield* Effect.flip(ConversationContext.fit(context, { fixedTokens }))
        expect(error._tag).toBe("InvalidFitOptions")
        expect(error.message).toContain(fixedTokens === -200 ? "got -200" : "got \"50\" (a string)")
      }
      // a report of 0 input tokens is no report
      expect(ConversationContext.recordUsage(context, 0)).toBe(context)
    }).pipe(Effect.provide(Live)))

  it.effect("a fixedTokens and a correction whose sum passes the largest number make a budget too small, not an invalid option", () =>
    Effect.gen(function*() {
      const context = ConversationContext.recordUsage(yield* ConversationContext.make([user("hello")], 1_000), Number.MAX_VALUE)
      const error = yield* Effect.flip(ConversationContext.fit(context, { fixedTokens: Number.MAX_VALUE }))
      expect(error._tag).toBe("BudgetTooSmall")
      expect(error.message).not.toContain("Infinity")
    }).pipe(Effect.provide(Live)))

  it("append estimates only the messages it adds and leaves the original as it was", () => {
    const calls: Array<Message.Message> = []
    const base = TokenEstimator.heuristic
    const counting: TokenEstimator.Service = { ...base, estimateMessage: (m) => (calls.push(m), base.estimateMessage(m)) }
    const first = ConversationContext.makeWith(counting, [user("hello")], 1_000)
    const reply = assistant("hi there")
    const second = ConversationContext.append(first, reply)
    expect(calls).toEqual([reply])
    expect(first.messages).toHaveLength(1)
    expect(second.messages).toHaveLength(2)
    expect(second.estimated).toBe(base.estimateConversation(second.messages))
  })

  it.prop("the running estimate after any appends equals estimating the whole conversation", [Arb.agentConversation], ([messages]) => {
    const estimator = TokenEstimator.heuristic
    let context = ConversationContext.makeWith(estimator, [], 10_000)
    for (let i = 0; i < messages.length; i += 3) context = ConversationContext.append(context, messages.slice(i, i + 3))
    expect(context.estimated).toBe(estimator.estimateConversation(messages))
    expect(context.headroom).toBe(10_000 - context.estimated)
  }, { arbitrary: { runs: 200 }, timeout: 300_000 })

  it("recordUsage takes the provider's count for what was sent and keeps the difference for later appends", () => {
    const estimator = TokenEstimator.heuristic
    const sent = ConversationContext.makeWith(estimator, [system("be brief"), user("hello")], 1_000)
    const reported = ConversationContext.recordUsage(sent, { inputTokens: sent.estimated + 120 })
    expect(reported.tokens).toBe(sent.estimated + 120)
    expect(reported.correction).toBe(120)
    const next = ConversationContext.append(reported, assistant("hi"))
    expect(next.tokens).toBe(next.estimated + 120)
    expect(ConversationContext.recordUsage(sent, {})).toBe(sent)
  })

  it.effect("fit leaves room for a positive correction and returns the kept view with its figures", () =>
    Effect.gen(function*() {
      let context = yield* ConversationContext.make([system("sys")], 200)
      for (let i = 0; i < 6; i++) {
        context = ConversationContext.append(context, [
          user(`question ${i}`),
          assistant([Block.toolCall(`c${i}`, "read_file", { path: "a" })]),
          tool(Block.toolResult(`c${i}`, "read_file", "x".repeat(40))),
          assistant(`answer ${i}`)
        ])
      }
      context = ConversationContext.recordUsage(context, context.estimated + 50)
      expect(ConversationContext.isOver(context)).toBe(true)
      const { context: fitted, fitted: result } = yield* ConversationContext.fit(context, { strategy: "drop_oldest_pair" })
      expect(result.available).toBe(150)
      expect(fitted.estimated).toBe(result.tokensAfter)
      expect(fitted.tokens).toBe(result.tokensAfter + 50)
      expect(ConversationContext.isOver(fitted)).toBe(false)
      expect(fitted.messages).toBe(result.messages)
    }).pipe(Effect.provide(Live)))

  it.effect("append, withBudget and fit also read data-last, in a pipe", () =>
    Effect.gen(function*() {
      const start = yield* ConversationContext.make([user("hi")], 100)
      const context = pipe(start, ConversationContext.append([assistant("hello"), user("again")]), ConversationContext.withBudget(8))
      expect([context.messages.length, context.budget, context.headroom]).toEqual([3, 8, -4])
      const { context: fitted } = yield* pipe(context, ConversationContext.fit({ strategy: "drop_oldest" }))
      expect(fitted.messages).toEqual([user("again")])
      expect(fitted.headroom).toBe(3)
    }).pipe(Effect.provide(Live)))
})
