import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, Schema } from "effect"
import { Message } from "../src/index.js"
import * as Calibration from "../src/Calibration.js"
import * as TokenEstimator from "../src/TokenEstimator.js"
import { intBetween } from "./arbitraries.js"

const run = Effect.runSync
const makeCalibration = (base: TokenEstimator.Service, options?: Calibration.CalibrationOptions) => run(Calibration.make(base, options))
const Estimator = TokenEstimator.TokenEstimator

/** A deterministic PRNG (mulberry32). */
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** A standard normal sample (Box–Muller). */
const gaussian = (random: () => number): number =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())

/**
 * Simulates calls to a model whose real token count is `trueFactor` × the base
 * estimate, with log-normal noise and occasional absurd reports, recording each
 * call's calibrated estimate against the reported usage.
 */
const simulate = (
  calibration: Calibration.CalibrationService,
  model: string,
  options: { readonly reports: number; readonly trueFactor: number; readonly noise: number; readonly outlierRate: number; readonly seed: number }
) =>
  Effect.gen(function* () {
    const random = rng(options.seed)
    const estimator = calibration.estimatorFor(model)
    for (let i = 0; i < options.reports; i++) {
      const conversation = [Message.user("x".repeat(200 + Math.floor(random() * 4000)))]
      const base = calibration.base.estimateConversation(conversation)
      let actual = base * options.trueFactor * Math.exp(options.noise * gaussian(random))
      if (random() < options.outlierRate) actual *= random() < 0.5 ? 10 : 0.1
      yield* calibration.record(model, estimator.estimateConversation(conversation), Math.round(actual))
    }
  })

describe("calibration", () => {
  const base = () => run(TokenEstimator.makeTest({ costPerChar: 1, messageOverhead: 0 }))

  it.effect("converges to the true factor within 4% despite noise and outliers", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base())
      yield* simulate(calibration, "m", { reports: 60, trueFactor: 1.3, noise: 0.05, outlierRate: 0.05, seed: 7 })
      const factor = calibration.factor("m")
      expect(Math.abs(factor / 1.3 - 1)).toBeLessThan(0.04)
      expect(calibration.stateOf("m").rejected).toBeGreaterThan(0)
    })
  )

  it.effect("converges from below too (a true factor of 0.8)", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base())
      yield* simulate(calibration, "m", { reports: 60, trueFactor: 0.8, noise: 0.05, outlierRate: 0.05, seed: 11 })
      expect(Math.abs(calibration.factor("m") / 0.8 - 1)).toBeLessThan(0.04)
    })
  )

  it.effect("converges when many requests are in flight at once, each reported against the factor it was estimated with", () =>
    Effect.gen(function* () {
      const random = rng(3)
      for (const inFlight of [8, 32, 64]) {
        const calibration = makeCalibration(base())
        const estimator = calibration.estimatorFor("m")
        const factors: Array<number> = []
        for (let round = 0; round < 12; round++) {
          // every request of the round is estimated before any of them is reported
          const calls = Array.from({ length: inFlight }, () => {
            const conversation = [Message.user("x".repeat(200 + Math.floor(random() * 4000)))]
            return { estimate: estimator.estimateConversation(conversation), actual: Math.round(calibration.base.estimateConversation(conversation) * 1.25) }
          })
          yield* Effect.forEach(calls, ({ actual, estimate }) => calibration.record("m", estimate, actual), { concurrency: "unbounded" })
          factors.push(calibration.factor("m"))
        }
        // no swinging between the clamps: within 2% from the third round on
        for (const f of factors.slice(2)) expect([inFlight, Math.abs(f / 1.25 - 1) < 0.02]).toEqual([inFlight, true])
      }
    })
  )

  it.effect("a model named like an Object.prototype member starts at 1 and snapshots like any other", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base())
      for (const model of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
        expect(calibration.factor(model)).toBe(1)
        yield* calibration.record(model, 1000, 1100)
      }
      const snapshot = calibration.snapshot()
      expect(Object.keys(snapshot).sort()).toEqual(["__proto__", "constructor", "hasOwnProperty", "toString"])
      const restored = makeCalibration(base(), { initialFactors: snapshot })
      for (const model of Object.keys(snapshot)) expect(restored.factor(model)).toBeCloseTo(calibration.factor(model), 10)
      expect(restored.estimatorFor("constructor").estimateText("x".repeat(100))).toBeGreaterThan(100)
    })
  )

  it.effect("a single absurd report moves a fresh model by at most one capped step", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base())
      yield* calibration.record("m", 1000, 1_000_000)
      expect(calibration.factor("m")).toBeCloseTo(Math.exp(0.1), 10)
    })
  )

  it.effect("a single absurd report does not move a warmed-up model at all", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base())
      yield* simulate(calibration, "m", { reports: 40, trueFactor: 1.3, noise: 0.02, outlierRate: 0, seed: 3 })
      const before = calibration.factor("m")
      const state = yield* calibration.record("m", 1000, 1_000_000)
      expect(state.factor).toBe(before)
      expect(state.rejected).toBe(1)
      yield* calibration.record("m", 1000, 1)
      expect(calibration.factor("m")).toBe(before)
    })
  )

  it.effect("follows a sustained shift that first looked like outliers", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base())
      yield* simulate(calibration, "m", { reports: 30, trueFactor: 1, noise: 0.02, outlierRate: 0, seed: 5 })
      yield* simulate(calibration, "m", { reports: 60, trueFactor: 3, noise: 0.02, outlierRate: 0, seed: 6 })
      expect(Math.abs(calibration.factor("m") / 3 - 1)).toBeLessThan(0.05)
    })
  )

  it.effect("keeps models isolated", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base())
      yield* simulate(calibration, "a", { reports: 40, trueFactor: 1.5, noise: 0.02, outlierRate: 0, seed: 1 })
      yield* simulate(calibration, "b", { reports: 40, trueFactor: 0.7, noise: 0.02, outlierRate: 0, seed: 2 })
      expect(Math.abs(calibration.factor("a") / 1.5 - 1)).toBeLessThan(0.03)
      expect(Math.abs(calibration.factor("b") / 0.7 - 1)).toBeLessThan(0.03)
      expect(calibration.factor("c")).toBe(1)
    })
  )

  it.effect("bounds the factor between minFactor and maxFactor", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base(), { maxFactor: 2 })
      for (let i = 0; i < 200; i++) yield* calibration.record("m", 1000, 10 * calibration.estimatorFor("m").estimateText("x".repeat(1000)))
      expect(calibration.factor("m")).toBeCloseTo(2, 10)
    })
  )

  it.effect("ignores unusable reports", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base())
      yield* calibration.record("m", 0, 100)
      yield* calibration.record("m", 5, 100)
      yield* calibration.record("m", 1000, 0)
      const state = yield* calibration.record("m", 1000, Number.NaN)
      expect(state).toEqual({ model: "m", factor: 1, accepted: 0, rejected: 0, ignored: 4 })
      // with minEstimate 0 a zero estimate still says nothing about the ratio
      const anything = makeCalibration(base(), { minEstimate: 0 })
      expect(yield* anything.record("m", 0, 10)).toEqual({ model: "m", factor: 1, accepted: 0, rejected: 0, ignored: 1 })
    })
  )

  it.effect("scales estimates by the factor, rounded up per message", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base(), { initialFactors: { m: 1.1 } })
      const estimator = calibration.estimatorFor("m")
      const messages = [Message.user("x".repeat(10)), Message.user("y".repeat(15))]
      expect(estimator.estimateMessage(messages[0]!)).toBe(11)
      expect(estimator.estimateMessage(messages[1]!)).toBe(17)
      expect(estimator.estimateConversation(messages)).toBe(28)
      expect(estimator.estimateText("abc")).toBe(4)
      expect(calibration.estimatorFor("m")).toBe(estimator)
    })
  )

  it.effect("recordConversation estimates the messages itself", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base())
      const state = yield* calibration.recordConversation("m", [Message.user("x".repeat(1000))], 1050)
      expect(state.factor).toBeCloseTo(1.05, 10)
    })
  )

  it.effect("a snapshot restores the learned factors", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration(base())
      yield* simulate(calibration, "m", { reports: 20, trueFactor: 1.3, noise: 0.02, outlierRate: 0, seed: 9 })
      const snapshot = calibration.snapshot()
      expect(Object.keys(snapshot)).toEqual(["m"])
      const restored = makeCalibration(base(), { initialFactors: snapshot })
      expect(restored.factor("m")).toBeCloseTo(calibration.factor("m"), 10)
    })
  )

  describe("priorFactors: a starting factor learned over as from a cold start", () => {
    it.effect("scales estimates before any report, and the first report moves it as a new model's first would", () =>
      Effect.gen(function* () {
        const calibration = makeCalibration(base(), { priorFactors: { m: 1.1 } })
        expect(calibration.factor("m")).toBeCloseTo(1.1, 10)
        expect(calibration.estimatorFor("m").estimateText("x".repeat(100))).toBe(110)
        expect(calibration.factor("other")).toBe(1)
        // a new model's first report is its running mean: the whole residual, capped at maxStep (0.1 in log space)
        const state = yield* calibration.record("m", 1100, 1150)
        expect(state.factor).toBeCloseTo(1.15, 10)
        expect(state.accepted).toBe(1)
        // restored from initialFactors instead, the same report is weighed by alpha (0.1)
        const restored = makeCalibration(base(), { initialFactors: { m: 1.1 } })
        expect((yield* restored.record("m", 1100, 1150)).factor).toBeCloseTo(1.1 * Math.exp(0.1 * Math.log(1150 / 1100)), 10)
      })
    )

    it.effect("is not taken as warmed up: a far report before warmup is accepted, a step at a time", () =>
      Effect.gen(function* () {
        const prior = makeCalibration(base(), { priorFactors: { m: 1.1 } })
        const first = yield* prior.record("m", 1100, 5000)
        expect(first.rejected).toBe(0)
        expect(first.factor).toBeCloseTo(1.1 * Math.exp(0.1), 10)
        const restored = makeCalibration(base(), { initialFactors: { m: 1.1 } })
        const rejected = yield* restored.record("m", 1100, 5000)
        expect(rejected.rejected).toBe(1)
        expect(rejected.factor).toBeCloseTo(1.1, 10)
      })
    )

    it.effect("initialFactors wins for a model in both; each is clamped to minFactor..maxFactor", () =>
      Effect.gen(function* () {
        const calibration = makeCalibration(base(), { priorFactors: { m: 1.1, n: 9 }, initialFactors: { m: 1.3 } })
        expect(calibration.factor("m")).toBeCloseTo(1.3, 10)
        expect(calibration.factor("n")).toBe(4)
      })
    )

    it.effect("a snapshot leaves out a model still at its prior, and keeps one a report moved", () =>
      Effect.gen(function* () {
        // "__proto__" as an own key, as a parsed configuration file holds it (an object literal would set the prototype)
        const calibration = makeCalibration(base(), { priorFactors: JSON.parse('{"m": 1.1, "n": 1.2, "__proto__": 2}') })
        calibration.estimatorFor("m").estimateText("x".repeat(100))
        expect(calibration.factor("n")).toBeCloseTo(1.2, 10)
        expect(calibration.snapshot()).toEqual({})
        yield* calibration.record("m", 1100, 1150)
        // a report for n that is ignored (too small to say anything) does not make its prior learned
        yield* calibration.record("n", 3, 4)
        expect(calibration.snapshot()).toEqual({ m: calibration.factor("m") })
        // the inherited "__proto__" of a plain object is no model's prior, nor is "constructor"; an own key is
        expect(makeCalibration(base(), { priorFactors: {} }).factor("__proto__")).toBe(1)
        expect(calibration.factor("constructor")).toBe(1)
        expect(calibration.factor("__proto__")).toBe(2)
      })
    )

    it.effect("a key ending in * is a prefix: a model without a key of its own takes the longest one it starts with", () =>
      Effect.gen(function* () {
        const calibration = makeCalibration(base(), {
          priorFactors: { "claude-*": 1.2, "claude-3-haiku*": 1.1, "claude-sonnet-4-5": 1.3, "*": 1.05 }
        })
        expect(calibration.factor("claude-sonnet-4-5")).toBeCloseTo(1.3, 10)
        expect(calibration.factor("claude-opus-4-1")).toBeCloseTo(1.2, 10)
        expect(calibration.factor("claude-3-haiku-20240307")).toBeCloseTo(1.1, 10)
        expect(calibration.factor("claude-")).toBeCloseTo(1.2, 10)
        expect(calibration.factor("gpt-4o")).toBeCloseTo(1.05, 10)
        expect(calibration.estimatorFor("claude-opus-4-1").estimateText("x".repeat(100))).toBe(120)
        // each model learns its own factor from the shared prior: a report for one leaves the others at it
        yield* calibration.record("claude-opus-4-1", 1200, 1250)
        expect(calibration.factor("claude-opus-4-1")).toBeCloseTo(1.25, 10)
        expect(calibration.factor("claude-haiku-4-5")).toBeCloseTo(1.2, 10)
        // only the model a report moved is learned; the others are still at the configured prior
        expect(calibration.snapshot()).toEqual({ "claude-opus-4-1": calibration.factor("claude-opus-4-1") })
        // without a "*" key, a model no key names starts at 1; initialFactors still wins over a prefix
        const some = makeCalibration(base(), { priorFactors: { "claude-*": 1.2 }, initialFactors: { "claude-opus-4-1": 1.4 } })
        expect(some.factor("gpt-4o")).toBe(1)
        expect(some.factor("claude-opus-4-1")).toBeCloseTo(1.4, 10)
        expect(some.factor("Claude-opus-4-1")).toBe(1)
      })
    )

    // model names as agents switch between them: a family, a generation, a size, sometimes a date
    const family = Arbitrary.schema(Schema.Literals(["claude-", "gpt-", "gemini-", "o"]))
    const part = Arbitrary.schema(Schema.Literals(["3", "3-5", "4", "4-5", "5", "sonnet", "opus", "haiku", "mini", "flash", "pro", "20250514"]))
    const modelName = Arbitrary.all([family, Arbitrary.array(part, { minLength: 0, maxLength: 3 })]).pipe(
      Arbitrary.map(([f, parts]) => f + parts.join("-"))
    )

    it.prop(
      "a model's starting factor is its own key's prior, else its longest matching prefix's, else 1, whatever the keys",
      [
        Arbitrary.array(modelName, { minLength: 1, maxLength: 8 }),
        // keys: cuts of the generated names (a prefix, or the whole name), each with a factor in percent
        Arbitrary.array(Arbitrary.all([intBetween(0, 7), intBetween(0, 30), Arbitrary.schema(Schema.Boolean), intBetween(50, 300)]), { maxLength: 10 })
      ],
      ([models, cuts]) => {
        const priorFactors: Record<string, number> = {}
        for (const [which, at, prefix, percent] of cuts) {
          const name = models[which % models.length]!
          priorFactors[prefix ? `${name.slice(0, at)}*` : name] = percent / 100
        }
        const calibration = Effect.runSync(Calibration.make(TokenEstimator.heuristic, { priorFactors }))
        for (const model of [...models, "mistral-large"]) {
          const prefixes = Object.keys(priorFactors).filter((key) => key.endsWith("*") && model.startsWith(key.slice(0, -1)))
          const longest = prefixes.sort((a, b) => b.length - a.length)[0]
          const expected = Object.hasOwn(priorFactors, model) ? priorFactors[model]! : longest !== undefined ? priorFactors[longest]! : 1
          expect(calibration.factor(model)).toBeCloseTo(expected, 10)
        }
        // nothing was learned: a snapshot has no model in it
        expect(calibration.snapshot()).toEqual({})
      },
      { timeout: 60_000 }
    )

    it.effect("a * that does not end a key is refused when the calibration is built, naming the key", () =>
      Effect.gen(function* () {
        for (const key of ["claude-*-sonnet", "*-mini", "**"]) {
          const error = yield* Effect.flip(Calibration.make(base(), { priorFactors: { [key]: 1.2 } }))
          expect(error._tag).toBe("InvalidEstimatorOptions")
          expect(error.message).toContain("priorFactors")
          expect(error.message).toContain(JSON.stringify(key))
        }
        const fine = yield* Calibration.make(base(), { priorFactors: { "claude-*": 1.2, "*": 1.1 } })
        expect(fine.factor("claude-x")).toBeCloseTo(1.2, 10)
      })
    )

    it.effect("a prior that is not a positive finite number is refused when the calibration is built", () =>
      Effect.gen(function* () {
        for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
          const error = yield* Effect.flip(Calibration.make(base(), { priorFactors: { m: bad } }))
          expect(error._tag).toBe("InvalidEstimatorOptions")
          expect(error.message).toContain("priorFactors")
        }
      })
    )
  })

  it.effect("layerCalibrated provides a calibrated TokenEstimator and its Calibration", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      const calibration = yield* Calibration.Calibration
      const messages = [Message.user("x".repeat(1000))]
      expect(estimator.estimateConversation(messages)).toBe(1000)
      yield* calibration.record("gpt-4o", estimator.estimateConversation(messages), 1050)
      expect(estimator.estimateConversation(messages)).toBe(1050)
    }).pipe(Effect.provide(Calibration.layerTokenEstimator({ model: "gpt-4o" }).pipe(Layer.provide(TokenEstimator.layerTest()))))
  )

  it.effect("Calibration.layer wraps the estimator in context", () =>
    Effect.gen(function* () {
      const calibration = yield* Calibration.Calibration
      expect(calibration.base.estimateText("hello")).toBe(5)
      expect(calibration.estimatorFor("any").estimateText("hello")).toBe(5)
    }).pipe(Effect.provide(Calibration.layer().pipe(Layer.provide(TokenEstimator.layerTest()))))
  )
})

