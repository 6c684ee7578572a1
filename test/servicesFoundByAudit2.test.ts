import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, Result } from "effect"
import * as Block from "../src/Block.js"
import * as Calibration from "../src/Calibration.js"
import * as Conversation from "../src/Conversation.js"
import * as ConversationContext from "../src/ConversationContext.js"
import * as Message from "../src/Message.js"
import * as MessageWindow from "../src/MessageWindow.js"
import * as Summarizer from "../src/Summarizer.js"
import * as TokenEstimator from "../src/TokenEstimator.js"
import * as Arb from "./arbitraries.js"
import { isValidFor } from "./windowCheck.js"

const Window = MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))

/** A long chat: 40 question/answer pairs and a last question. */
const longChat = (): Array<Message.Message> => {
  const messages: Array<Message.Message> = []
  for (let i = 0; i < 40; i++) messages.push(Message.user(`question ${i} ${"word ".repeat(150)}`), Message.assistant(`answer ${i} ${"text ".repeat(150)}`))
  messages.push(Message.user("and now?"))
  return messages
}

/** A window on `estimator`, with the extractive summarizer or without any. */
const windowOn = (estimator: TokenEstimator.Service, summarizer: boolean): MessageWindow.Service =>
  summarizer
    ? Effect.runSync(MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, estimator), Effect.provide(Summarizer.layerExtractive())))
    : Effect.runSync(MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, estimator)))

const fitWith = (w: MessageWindow.Service, context: ConversationContext.ConversationContext, options?: MessageWindow.FitOptions) =>
  Effect.runSync(Effect.result(ConversationContext.fit(context, options).pipe(Effect.provideService(MessageWindow.MessageWindow, w))))

describe("ConversationContext: absurd usage reports (found by audit)", () => {
  it.effect("a report of 1 input token for a large request is not taken, and a fit after it still counts what it kept", () =>
    Effect.gen(function*() {
      const context = ConversationContext.makeWith(TokenEstimator.heuristic, longChat(), 30)
      const reported = ConversationContext.recordUsage(context, 1)
      // not taken: the very context comes back, as for a report of 0
      expect(reported).toBe(context)
      const { context: fitted } = yield* ConversationContext.fit(reported).pipe(Effect.provide(Window))
      expect(fitted.messages.length).toBeGreaterThan(0)
      expect(fitted.tokens).toBeGreaterThanOrEqual(1)
      expect(fitted.tokens).toBe(fitted.estimated)
      expect(fitted.headroom).toBeGreaterThanOrEqual(0)
    }))

  it("a report at a quarter of the estimate (rounded up) is taken; one token less is not, and the earlier correction stays", () => {
    const context = ConversationContext.makeWith(TokenEstimator.heuristic, longChat(), 100_000)
    const least = Math.ceil(context.estimated / 4)
    const taken = ConversationContext.recordUsage(context, least)
    expect([taken.tokens, taken.correction]).toEqual([least, least - context.estimated])
    expect(ConversationContext.recordUsage(context, { inputTokens: least - 1 })).toBe(context)
    // a later absurd report leaves the correction of the last plausible one
    const over = ConversationContext.recordUsage(context, context.estimated + 500)
    expect(ConversationContext.recordUsage(over, 3)).toBe(over)
    expect(over.correction).toBe(500)
  })

  it.effect("a negative correction scaled down by a fit to a few tokens never takes them to 0", () =>
    Effect.gen(function*() {
      // the lowest plausible report, then a fit that keeps only the last short question
      const context = ConversationContext.makeWith(TokenEstimator.heuristic, longChat(), 30)
      const reported = ConversationContext.recordUsage(context, Math.ceil(context.estimated / 4))
      expect(reported).not.toBe(context)
      const { context: fitted } = yield* ConversationContext.fit(reported).pipe(Effect.provide(Window))
      expect(fitted.messages.map(Message.textOf)).toEqual(["and now?"])
      expect(fitted.tokens).toBeGreaterThanOrEqual(Math.ceil(fitted.estimated / 4))
      expect(fitted.tokens).toBeGreaterThanOrEqual(1)
    }))

  it.effect("a calibrated estimator whose factor fell after a report never takes the context's tokens to 0 or below", () =>
    Effect.gen(function*() {
      const calibration = yield* Calibration.make(TokenEstimator.heuristic, { minFactor: 0.25, maxFactor: 4, initialFactors: { m: 4 }, maxStep: 10, alpha: 1 })
      const estimator = calibration.estimatorFor("m")
      const context = ConversationContext.makeWith(estimator, longChat(), 1_000_000)
      const reported = ConversationContext.recordUsage(context, Math.ceil(context.estimated / 4))
      // a sustained shift down: the factor goes from 4 to a quarter
      for (let i = 0; i < 5; i++) yield* calibration.record("m", 10_000, 625)
      expect(calibration.factor("m")).toBeCloseTo(0.25, 6)
      const refreshed = ConversationContext.refresh(reported)
      expect(refreshed.estimated).toBeLessThan(-reported.correction)
      expect(refreshed.tokens).toBeGreaterThanOrEqual(Math.ceil(refreshed.estimated / 4))
      const fitted = fitWith(windowOn(estimator, false), reported)
      if (Result.isFailure(fitted)) return assert.fail(fitted.failure.message)
      expect(fitted.success.context.tokens).toBeGreaterThanOrEqual(1)
    }))
})

/** One step of an agent loop: append some messages, report usage for what was sent, or fit. */
type Step =
  | { readonly _tag: "append"; readonly count: number }
  | { readonly _tag: "report"; readonly kind: number; readonly percent: number }
  | { readonly _tag: "fit"; readonly percent: number; readonly fixed: number; readonly reserve: number; readonly strategy: number; readonly summarizer: boolean }

const step: Arbitrary.Arbitrary<Step> = Arb.intBetween(0, 2).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Step> =>
    k === 0
      ? Arb.intBetween(1, 6).pipe(Arbitrary.map((count): Step => ({ _tag: "append", count })))
      : k === 1
      ? Arbitrary.all({ kind: Arb.intBetween(0, 4), percent: Arb.intBetween(1, 400) }).pipe(Arbitrary.map(({ kind, percent }): Step => ({ _tag: "report", kind, percent })))
      : Arbitrary.all({ percent: Arb.intBetween(5, 150), fixed: Arb.intBetween(0, 300), reserve: Arb.intBetween(0, 300), strategy: Arb.intBetween(0, 4), summarizer: Arb.bool }).pipe(
        Arbitrary.map((f): Step => ({ _tag: "fit", ...f }))
      )
  )
)

const strategyOf = (n: number): MessageWindow.Strategy | ReadonlyArray<MessageWindow.Strategy> =>
  (["drop_oldest", "drop_oldest_pair", "clear_tool_results", "summarize", ["clear_tool_results", "summarize"]] as const)[n]!

describe("ConversationContext: any sequence of reports (found by audit)", () => {
  it.prop(
    "tokens stay at least 1 for a non-empty conversation, and a fitted context fits its budget beside what was set aside",
    [Arb.agentConversation, Arbitrary.array(step, { minLength: 1, maxLength: 12 }), Arb.bool],
    ([source, steps, calibrated]) => {
      const calibration = Effect.runSync(Calibration.make(TokenEstimator.heuristic))
      const estimator = calibrated ? calibration.estimatorFor("m") : TokenEstimator.heuristic
      const windows = [windowOn(estimator, false), windowOn(estimator, true)] as const
      let next = 1
      let context = ConversationContext.makeWith(estimator, source.slice(0, 1), 1_000)
      const check = (where: string) => {
        if (context.messages.length > 0 && context.estimated > 0) {
          assert.isAtLeast(context.tokens, 1, `${where}: tokens`)
          assert.isAtLeast(context.tokens, Math.ceil(context.estimated / 4), `${where}: a quarter of the estimate`)
        }
      }
      for (const s of steps) {
        switch (s._tag) {
          case "append": {
            context = ConversationContext.append(context, source.slice(next, next + s.count))
            next += s.count
            check("append")
            break
          }
          case "report": {
            const estimate = estimator.estimateConversation(context.messages)
            const actual = s.kind === 0 ? 1 : s.kind === 1 ? 0 : Math.round((estimate * s.percent) / 100)
            // the calibration learns from the same report (sometimes another request's), so the factor moves under the context
            if (calibrated) Effect.runSync(calibration.record("m", s.kind === 4 ? 10_000 : estimate, s.kind === 4 ? Math.round((10_000 * s.percent) / 100) : actual))
            context = ConversationContext.recordUsage(context, actual)
            check("report")
            break
          }
          case "fit": {
            // from the estimate, not the tokens: a fit that keeps part of the messages is the one that scales a correction
            let budget = Math.max(1, Math.round((context.estimated * s.percent) / 100)) + s.fixed + s.reserve
            const w = windows[s.summarizer ? 1 : 0]
            const options: MessageWindow.FitOptions = { strategy: strategyOf(s.strategy), fixedTokens: s.fixed, reserve: s.reserve }
            let r = fitWith(w, ConversationContext.withBudget(context, budget), options)
            if (Result.isFailure(r)) {
              // too small for what must stay: the least budget that works is the tightest fit, and must work
              if (r.failure._tag !== "BudgetTooSmall") return assert.fail(r.failure.message)
              budget = r.failure.minimumBudget
              r = fitWith(w, ConversationContext.withBudget(context, budget), options)
              if (Result.isFailure(r)) return assert.fail(`at the minimum budget: ${r.failure.message}`)
            }
            context = r.success.context
            check("fit")
            // what the messages cost, with the correction the window left room for, beside the tools and the reserve
            assert.isAtMost(context.tokens + s.fixed + s.reserve, budget, "fit: within the budget")
            break
          }
        }
      }
    },
    { arbitrary: { runs: 400 }, timeout: 180_000 }
  )
})

/** The ids of the calls and of the results among `messages`, and those used more than once (a reused id pairs ambiguously). */
const idsOf = (messages: ReadonlyArray<Message.Message>) => {
  const calls = new Set<string>()
  const results = new Set<string>()
  const reused = new Set<string>()
  for (const m of messages) {
    for (const c of Message.toolCallsOf(m)) (calls.has(c.id) ? reused : calls).add(c.id)
    for (const r of Message.toolResultsOf(m)) (results.has(r.toolCallId) ? reused : results).add(r.toolCallId)
  }
  return { calls, results, reused }
}

const providers = [undefined, "anthropic", "openai-chat", "openai-responses", "gemini"] as const

describe("ConversationContext.fit on agent traffic (found by audit)", () => {
  it.prop(
    "the fitted context fits beside the tools and the reserve, keeps calls with their results and the newest user message, and stays valid",
    [
      Arb.bool.pipe(Arbitrary.flatMap((broken) => (broken ? Arb.brokenConversation : Arb.agentConversation))),
      Arbitrary.array(step, { minLength: 1, maxLength: 10 }),
      Arbitrary.all({ calibrated: Arb.bool, provider: Arb.intBetween(0, 4), pinFirstUser: Arb.bool, keep: Arb.intBetween(0, 4), start: Arb.intBetween(30, 100) })
    ],
    ([source, steps, { calibrated, keep, pinFirstUser, provider: p, start }]) => {
      const provider = providers[p]
      const calibration = Effect.runSync(Calibration.make(TokenEstimator.heuristic))
      const estimator = calibrated ? calibration.estimatorFor("m") : TokenEstimator.heuristic
      const windows = [windowOn(estimator, false), windowOn(estimator, true)] as const
      // most of the history at once: a fit has turns before the newest user message to work on
      let next = Math.max(1, Math.round((source.length * start) / 100))
      let context = ConversationContext.makeWith(estimator, source.slice(0, next), 1_000)
      for (const s of steps) {
        if (s._tag === "append") {
          context = ConversationContext.append(context, source.slice(next, next + s.count))
          next += s.count
          continue
        }
        if (s._tag === "report") {
          const estimate = estimator.estimateConversation(context.messages)
          const actual = s.kind === 0 ? 1 : s.kind === 1 ? 0 : Math.round((estimate * s.percent) / 100)
          if (calibrated) Effect.runSync(calibration.record("m", estimate, actual))
          context = ConversationContext.recordUsage(context, actual)
          continue
        }
        const input = context.messages
        let budget = Math.max(1, Math.round((context.estimated * s.percent) / 100)) + s.fixed + s.reserve
        const w = windows[s.summarizer ? 1 : 0]
        const options: MessageWindow.FitOptions = {
          strategy: strategyOf(s.strategy),
          fixedTokens: s.fixed,
          reserve: s.reserve,
          pinFirstUser,
          keepToolResults: keep,
          ...(provider === undefined ? {} : { provider })
        }
        let r = fitWith(w, ConversationContext.withBudget(context, budget), options)
        if (Result.isFailure(r)) {
          if (r.failure._tag !== "BudgetTooSmall") return assert.fail(r.failure.message)
          budget = r.failure.minimumBudget
          r = fitWith(w, ConversationContext.withBudget(context, budget), options)
          if (Result.isFailure(r)) return assert.fail(`at the minimum budget: ${r.failure.message}`)
        }
        const out = r.success.context.messages
        assert.isAtMost(r.success.context.tokens + s.fixed + s.reserve, budget, "within the budget")
        assert.strictEqual(r.success.context.estimated, estimator.estimateConversation(out), "counted honestly")
        // a kept call keeps the results it had, a kept result its call
        const before = idsOf(input)
        const after = idsOf(out)
        for (const id of after.calls) if (before.results.has(id) && !before.reused.has(id)) assert.isTrue(after.results.has(id), `the result of ${id} kept`)
        for (const id of after.results) if (before.calls.has(id) && !before.reused.has(id)) assert.isTrue(after.calls.has(id), `the call of ${id} kept`)
        // the newest user message is pinned
        let newest: Message.Message | undefined
        for (const m of input) if (m.role === "user") newest = m
        if (newest !== undefined) assert.isTrue(out.includes(newest), "the newest user message kept")
        if (isValidFor(provider, input)) assert.isTrue(isValidFor(provider, out), `valid for ${provider ?? "generic"}`)
        if (Conversation.isValid(input) && provider === undefined) assert.isTrue(Conversation.isValid(out))
        context = r.success.context
      }
    },
    { arbitrary: { runs: 200 }, timeout: 240_000 }
  )
})

describe("Summarizer.extractive: long tool names (found by audit)", () => {
  const long = `tool_${"x".repeat(10_000)}`
  const history = [
    Message.user("Find why the build fails."),
    Message.assistant([Block.toolCall("c1", long, {}), Block.toolCall("c2", "run_tests", {})]),
    Message.tool([Block.toolResult("c1", long, "exit 2: no such file", true), Block.toolResult("c2", "run_tests", "ok")]),
    Message.assistant("The config is missing.")
  ]

  it("a 10,000-character tool name is cut in the tools line and the failed line, and both lines are kept", () => {
    const lines = Summarizer.extractive(history, 200).split("\n")
    const tools = lines.find((l) => l.startsWith("Tools used: "))
    const failed = lines.find((l) => l.includes(" failed: exit 2"))
    expect(tools).toBeDefined()
    expect(failed).toBeDefined()
    expect(tools).toMatch(/^Tools used: tool_x+… ×1 \(1 failed\), run_tests ×1$/)
    expect(failed).toMatch(/^tool_x+… failed: exit 2: no such file$/)
    expect(lines.join("\n").length).toBeLessThanOrEqual(200 * 3)
  })

  it("a tools line too long for the room is cut rather than left out", () => {
    // forty tools of valid 64-character names: the line alone is longer than the whole room
    const calls = Array.from({ length: 40 }, (_, i) => Block.toolCall(`c${i}`, `${String(i).padStart(2, "0")}_${"n".repeat(61)}`, {}))
    const messages = [
      Message.user("Run everything."),
      Message.assistant(calls),
      Message.tool(calls.map((c) => Block.toolResult(c.id, c.name, "ok"))),
      Message.assistant("All ran.")
    ]
    const text = Summarizer.extractive(messages, 100)
    expect(text.length).toBeLessThanOrEqual(300)
    expect(text).toMatch(/^Tools used: 00_n+ ×1, 01_n+ ×1.*…$/m)
    expect(text).toContain("Assistant: All ran.")
  })
})

describe("Calibration: a report matched to its estimate by value (found by audit)", () => {
  // one token a character, 4 a message: an estimate is easy to aim at
  const chars = TokenEstimator.fromTextRule((t) => t.length)
  const userOf = (tokens: number) => [Message.user("x".repeat(tokens - TokenEstimator.DEFAULT_MESSAGE_OVERHEAD))]

  it.effect("an estimate made before the factor moved is measured against the factor it was made with", () =>
    Effect.gen(function*() {
      const calibration = yield* Calibration.make(chars)
      const estimator = calibration.estimatorFor("m")
      const a = estimator.estimateConversation(userOf(1000))
      // another request's report moves the factor while the first is in flight
      yield* calibration.record("m", 2000, 4000)
      const moved = calibration.factor("m")
      expect(moved).toBeCloseTo(Math.exp(0.1), 12)
      // the first request cost what it was estimated at, under the factor it was made with: no step
      yield* calibration.record("m", a, 1000)
      expect(calibration.factor("m")).toBeCloseTo(moved * Math.exp(-0.05), 12)
    }))

  it.effect("two equal estimates made under different factors are both measured against the later one, and the step stays capped", () =>
    Effect.gen(function*() {
      const calibration = yield* Calibration.make(chars)
      const estimator = calibration.estimatorFor("m")
      const a = estimator.estimateConversation(userOf(1000))
      yield* calibration.record("m", 2000, 4000)
      const moved = calibration.factor("m")
      // another request of other messages comes out at the same value under the new factor
      const b = estimator.estimateConversation(userOf(904))
      expect([a, b]).toEqual([1000, 1000])
      // the report of the first is taken as one of the second: its residual is ln(1000 / 1000) against the later factor
      const state = yield* calibration.record("m", a, 1000)
      expect(state.accepted).toBe(2)
      // (matched to the factor it was made with, it would step to moved × e^-0.05, as above): what is missed is the
      // factor's move while the request was in flight, itself at most one capped step per report in between
      expect(calibration.factor("m")).toBeCloseTo(moved, 12)
    }))
})

describe("ConversationContext.fit with a window on another estimator (found by audit)", () => {
  it.effect("a window that counts under the context's estimator can keep more than the budget by the context's count: isOver tells", () =>
    Effect.gen(function*() {
      // the context counts with a calibrated estimator (factor 1.5), the window with the uncalibrated one
      const calibration = yield* Calibration.make(TokenEstimator.heuristic, { initialFactors: { m: 1.5 } })
      const context = ConversationContext.makeWith(calibration.estimatorFor("m"), longChat(), 3_000)
      const { context: fitted } = yield* ConversationContext.fit(context).pipe(Effect.provide(Window))
      expect(ConversationContext.isOver(fitted)).toBe(true)
      // on the context's own estimator the same fit is within the budget
      const same = fitWith(windowOn(calibration.estimatorFor("m"), false), context)
      if (Result.isFailure(same)) return assert.fail(same.failure.message)
      expect(ConversationContext.isOver(same.success.context)).toBe(false)
    }))
})
