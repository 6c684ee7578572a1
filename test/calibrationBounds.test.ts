import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect } from "effect"
import * as Calibration from "../src/Calibration.js"
import * as ConversationContext from "../src/ConversationContext.js"
import * as Message from "../src/Message.js"
import * as MessageWindow from "../src/MessageWindow.js"
import * as Request from "../src/Request.js"
import * as TokenEstimator from "../src/TokenEstimator.js"
import * as Arb from "./arbitraries.js"

// one token a character, plus the message overhead: an estimate is easy to aim at
const chars = TokenEstimator.fromTextRule((t) => t.length)
const OVERHEAD = TokenEstimator.DEFAULT_MESSAGE_OVERHEAD
const userOf = (tokens: number) => [Message.user("x".repeat(Math.max(0, tokens - OVERHEAD)))]

/** A conversation of other messages whose calibrated estimate for `model` comes out at `tokens`, if there is one. */
const sameValueAs = (calibration: Calibration.CalibrationService, model: string, tokens: number) => {
  const f = calibration.factor(model)
  for (let n = Math.floor(tokens / f) - 3; n <= Math.ceil(tokens / f) + 3; n++) {
    if (n <= OVERHEAD) continue
    const messages = userOf(n)
    if (calibration.estimatorFor(model).estimateConversation(messages) === tokens) return messages
  }
  return undefined
}

describe("Calibration: a report is matched to the estimate it belongs to, by its handle", () => {
  it.effect("a CalibratedEstimate is measured against its own factor though a later estimate has the same value", () =>
    Effect.gen(function*() {
      const calibration = yield* Calibration.make(chars)
      const a = calibration.estimate("m", userOf(1000))
      expect(a).toEqual({ tokens: 1000, factor: 1 })
      // another request's report moves the factor while the first is in flight
      yield* calibration.record("m", 2000, 4000)
      const moved = calibration.factor("m")
      expect(moved).toBeCloseTo(Math.exp(0.1), 12)
      // a second request of other messages comes out at the same value under the moved factor
      const b = calibration.estimate("m", userOf(904))
      expect(b.tokens).toBe(1000)
      expect(b.factor).toBe(moved)
      // the first request cost what it was estimated at, under the factor it was made with: a step back of half
      // its residual (-0.1, weight 1/2); by value it was taken as the second's and measured as exact (no step)
      const state = yield* calibration.record("m", a, 1000)
      expect(state.accepted).toBe(2)
      expect(calibration.factor("m")).toBeCloseTo(moved * Math.exp(-0.05), 12)
    }))

  it.effect("a RequestEstimate object is measured against its own factor, its framing taken out as recordRequest does", () =>
    Effect.gen(function*() {
      const calibration = yield* Calibration.make(chars)
      const estimator = calibration.estimatorFor("m")
      const a = estimator.estimateRequest(Request.make(userOf(1000)))
      yield* calibration.record("m", 2000, 4000)
      const moved = calibration.factor("m")
      const b = estimator.estimateRequest(Request.make(userOf(904)))
      expect(b.total).toBe(a.total)
      // the provider counted the first request's messages at what they were estimated, plus the framing
      const state = yield* calibration.record("m", a, a.total)
      expect(state.accepted).toBe(2)
      expect(calibration.factor("m")).toBeCloseTo(moved * Math.exp(-0.05), 12)
    }))

  it.effect("a bare number is still matched by value, as before (the later of two equal estimates)", () =>
    Effect.gen(function*() {
      const calibration = yield* Calibration.make(chars)
      const a = calibration.estimatorFor("m").estimateConversation(userOf(1000))
      yield* calibration.record("m", 2000, 4000)
      const moved = calibration.factor("m")
      expect(calibration.estimatorFor("m").estimateConversation(userOf(904))).toBe(a)
      yield* calibration.record("m", a, 1000)
      expect(calibration.factor("m")).toBeCloseTo(moved, 12)
    }))

  it.effect("a handle whose factor is not a positive number is measured against the current factor; a non-number is ignored", () =>
    Effect.gen(function*() {
      const calibration = yield* Calibration.make(chars)
      yield* calibration.record("m", { tokens: 1000, factor: Number.NaN }, 2000)
      expect(calibration.factor("m")).toBeCloseTo(Math.exp(0.1), 12)
      const state = yield* calibration.record("m", null as unknown as number, 2000)
      expect(state.ignored).toBe(1)
      expect(state.accepted).toBe(1)
    }))

  it.prop(
    "with handles, what is learned does not depend on other estimates made meanwhile that came out at the same values",
    [Arbitrary.array(Arbitrary.all([Arb.intBetween(100, 5_000), Arb.intBetween(50, 200)]), { minLength: 2, maxLength: 12 })],
    ([requests]) => {
      // every request is estimated first (all in flight at once), then the reports come back one by one;
      // in the second run, after each report, other conversations are estimated at each pending request's value
      const learn = (decoys: boolean) => {
        const calibration = Effect.runSync(Calibration.make(chars))
        const handles = requests.map(([size]) => calibration.estimate("m", userOf(size)))
        const factors: Array<number> = []
        requests.forEach(([, percent], i) => {
          const handle = handles[i]!
          Effect.runSync(calibration.record("m", handle, Math.round((handle.tokens / handle.factor) * percent / 100)))
          factors.push(calibration.factor("m"))
          if (decoys) {
            for (const pending of handles.slice(i + 1)) {
              const other = sameValueAs(calibration, "m", pending.tokens)
              if (other !== undefined) calibration.estimatorFor("m").estimateConversation(other)
            }
          }
        })
        return factors
      }
      assert.deepStrictEqual(learn(true), learn(false))
    },
    { timeout: 120_000 }
  )
})

/** A report of `ratio` × the estimate, by one of the four ways to record one. */
const recordBy = (
  calibration: Calibration.CalibrationService,
  way: number,
  messages: ReadonlyArray<Message.Message>,
  ratio: number
): Effect.Effect<Calibration.CalibrationState> => {
  switch (way) {
    case 0: {
      const n = calibration.estimatorFor("m").estimateConversation(messages)
      return calibration.record("m", n, n * ratio)
    }
    case 1: {
      const handle = calibration.estimate("m", messages)
      return calibration.record("m", handle, handle.tokens * ratio)
    }
    case 2:
      return calibration.recordConversation("m", messages, calibration.estimatorFor("m").estimateConversation(messages) * ratio)
    default: {
      const request = Request.make(messages)
      const e = calibration.estimatorFor("m").estimateRequest(request)
      return calibration.recordRequest("m", request, (e.total - e.framing) * ratio + e.framing)
    }
  }
}

/** 10^(tenths / 10): from 10^-3 to 10^308, the largest double's order included. */
const powerOfTen = (tenths: number) => Math.min(Number.MAX_VALUE, 10 ** (tenths / 10))

describe("Calibration: one report, however far off, moves later estimates by at most e^maxStep", () => {
  it.prop(
    "after any history, a single report of up to the largest double moves the factor by at most e^maxStep, and every message's estimate with it",
    [
      Arb.intBetween(0, 12), // consistent reports before
      Arb.intBetween(50, 200), // their ratio, in percent
      Arb.intBetween(-30, 3_090), // the report's ratio to its estimate, in tenths of a power of ten
      Arb.intBetween(0, 3), // how it is recorded
      Arb.intBetween(1, 50), // maxStep, in hundredths
      Arbitrary.array(Arb.intBetween(1, 200_000), { minLength: 1, maxLength: 8 }) // later messages, by size
    ],
    ([before, percent, tenths, way, hundredths, sizes]) => {
      const maxStep = hundredths / 100
      const calibration = Effect.runSync(Calibration.make(chars, { maxStep }))
      for (let i = 0; i < before; i++) Effect.runSync(recordBy(calibration, i % 4, userOf(500 + 37 * i), percent / 100))
      const messages = sizes.map((n) => userOf(n)[0]!)
      const estimator = calibration.estimatorFor("m")
      const f0 = calibration.factor("m")
      const was = messages.map((m) => estimator.estimateMessage(m))
      Effect.runSync(recordBy(calibration, way, userOf(300 + (tenths % 700)), powerOfTen(tenths)))
      const f1 = calibration.factor("m")
      const bound = Math.exp(maxStep) * (1 + 1e-12)
      assert.isAtMost(f1 / f0, bound)
      assert.isAtMost(f0 / f1, bound)
      assert.isAtMost(f1, 4)
      assert.isAtLeast(f1, 0.25)
      messages.forEach((m, i) => {
        const now = estimator.estimateMessage(m)
        assert.isAtMost(now, Math.ceil(was[i]! * bound))
        assert.isAtLeast(now, Math.floor((was[i]! - 1) / bound))
      })
    },
    { timeout: 120_000 }
  )

  it.prop(
    "k reports in a row, however large, move a fresh factor by at most e^(k·maxStep), and never past maxFactor",
    [Arb.intBetween(1, 40), Arb.intBetween(0, 3_090), Arb.intBetween(0, 3)],
    ([k, tenths, way]) => {
      const calibration = Effect.runSync(Calibration.make(chars))
      for (let i = 0; i < k; i++) Effect.runSync(recordBy(calibration, (way + i) % 4, userOf(400 + i), powerOfTen(tenths)))
      assert.isAtMost(calibration.factor("m"), Math.min(4, Math.exp(0.1 * k)) * (1 + 1e-12))
    },
    { timeout: 120_000 }
  )

  it.effect("a handle with an absurd factor moves the factor by one capped step too", () =>
    Effect.gen(function*() {
      const calibration = yield* Calibration.make(chars)
      yield* calibration.record("m", { tokens: 1000, factor: Number.MAX_VALUE }, 1000)
      expect(calibration.factor("m")).toBeCloseTo(Math.exp(0.1), 12)
      yield* calibration.record("m", { tokens: 1000, factor: Number.MIN_VALUE }, 1000)
      expect(calibration.factor("m")).toBeCloseTo(Math.exp(0.1 - 0.1), 12)
    }))

  it.effect("consistent reports still converge: a drift from 1.0 to 1.25 with a report of 1e9 in the middle ends within 2%", () =>
    Effect.gen(function*() {
      const calibration = yield* Calibration.make(chars)
      for (let t = 0; t < 200; t++) {
        const ratio = 1 + 0.25 * Math.min(1, t / 100)
        const handle = calibration.estimate("m", userOf(800 + ((t * 131) % 2_000)))
        const base = handle.tokens / handle.factor
        yield* calibration.record("m", handle, t === 120 ? 1e9 : Math.round(base * ratio))
      }
      expect(calibration.stateOf("m").rejected).toBe(1)
      expect(Math.abs(calibration.factor("m") / 1.25 - 1)).toBeLessThan(0.02)
    }))
})

describe("ConversationContext.recordUsage: a too-high report lasts until the next one", () => {
  it.effect("a report of 1e9 makes fit fail naming the correction; the next report replaces it, and a context made afresh drops it", () =>
    Effect.gen(function*() {
      const history = Array.from({ length: 20 }, (_, i) => Message.user(`question ${i} `.repeat(20)))
      const sent = ConversationContext.makeWith(chars, history, 10_000)
      const wrong = ConversationContext.recordUsage(sent, 1e9)
      assert.strictEqual(wrong.correction, 1e9 - sent.estimated)
      const error = yield* Effect.flip(ConversationContext.fit(wrong, { strategy: "drop_oldest" }))
      assert.isTrue(error._tag === "BudgetTooSmall" && error.usageCorrection === 1e9 - sent.estimated)
      // the next report for the same messages replaces the correction, it does not add to it
      const next = ConversationContext.recordUsage(wrong, sent.estimated + 50)
      assert.strictEqual(next.correction, 50)
      const { context } = yield* ConversationContext.fit(next, { strategy: "drop_oldest" })
      assert.isFalse(ConversationContext.isOver(context))
      const fresh = ConversationContext.makeWith(wrong.estimator, wrong.messages, wrong.budget)
      assert.strictEqual(fresh.correction, 0)
    }).pipe(Effect.provide(MessageWindow.layer), Effect.provide(TokenEstimator.layerTest({ costPerChar: 1, messageOverhead: OVERHEAD }))))
})

describe("bounds that are no powers of two, and weights past what a number counts exactly", () => {
  it.effect("the factor stays within minFactor..maxFactor themselves, not a last bit beyond (exp of a clamped log)", () =>
    Effect.gen(function*() {
      for (const [bounds, report, start] of [[{ minFactor: 0.1, maxFactor: 10 }, 1e9, undefined], [{ minFactor: 0.3, maxFactor: 7 }, 1, undefined], [{ minFactor: 0.1, maxFactor: 10 }, 1e9, 100]] as const) {
        const calibration = yield* Calibration.make(chars, { ...bounds, ...(start === undefined ? {} : { initialFactors: { m: start } }) })
        for (let k = 0; k < 40; k++) calibration.record("m", 1_000, report)
        const factor = calibration.factor("m")
        expect(factor >= bounds.minFactor && factor <= bounds.maxFactor).toBe(true)
        expect(Object.values(calibration.snapshot()).every((f) => f >= bounds.minFactor && f <= bounds.maxFactor)).toBe(true)
      }
    }))

  it.effect("a weight or a factor past 1,000,000 is InvalidEstimatorOptions, where it once made a request's figures Infinity and NaN", () =>
    Effect.gen(function*() {
      for (const made of [
        TokenEstimator.makeTest({ costPerChar: 1e308 }),
        TokenEstimator.makeCjkWeighted({ chineseCharWeight: 1e308 }),
        TokenEstimator.makeTest({ messageOverhead: 1e300 }),
        Calibration.make(chars, { maxFactor: 1e308 })
      ]) {
        const error = yield* Effect.flip(made as Effect.Effect<unknown, { readonly _tag: string }>)
        expect(error._tag).toBe("InvalidEstimatorOptions")
      }
      const largest = yield* TokenEstimator.makeTest({ costPerChar: 1_000_000 })
      const total = largest.estimateRequest(Request.make([Message.user("hi")], { tools: [Request.tool("f")] })).total
      expect(Number.isSafeInteger(total)).toBe(true)
    }))
})
