import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, Schema, Stream } from "effect"
import { AiError, LanguageModel } from "effect/ai"
import * as Calibration from "../src/Calibration.js"
import * as Conversation from "../src/Conversation.js"
import * as Message from "../src/Message.js"
import * as Repair from "../src/Repair.js"
import * as Summarizer from "../src/Summarizer.js"
import * as TokenEstimator from "../src/TokenEstimator.js"
import * as Arb from "./arbitraries.js"

const makeCalibration = (options?: Calibration.CalibrationOptions) => Effect.runSync(Calibration.make(TokenEstimator.heuristic, options))

/** Reports calls whose base estimate is 1000 tokens and whose true count is `actual`, estimated with the current factor. */
const report = (calibration: Calibration.CalibrationService, actual: number) =>
  calibration.record("m", Math.ceil(1000 * calibration.factor("m")), actual)

describe("Calibration (found by audit)", () => {
  it.effect("a snapshot keeps the starting factor of a model no report or estimate touched this run", () =>
    Effect.gen(function* () {
      // run 1 learned two models; run 2 talks to one of them only; run 3 must still know both
      const run2 = makeCalibration({ initialFactors: { a: 1.3, b: 0.8 } })
      yield* run2.record("a", 1000, 1000)
      const snapshot = run2.snapshot()
      expect(Object.keys(snapshot).sort()).toEqual(["a", "b"])
      expect(snapshot["b"]).toBeCloseTo(0.8, 12)
      const run3 = makeCalibration({ initialFactors: snapshot })
      expect(run3.factor("b")).toBeCloseTo(0.8, 12)
    })
  )

  it.effect("a snapshot gives a starting factor as the calibration uses it: clamped, and leaves out a factor of 1", () =>
    Effect.gen(function* () {
      const calibration = makeCalibration({ initialFactors: { big: 100, one: 1 }, maxFactor: 4 })
      expect(calibration.snapshot()).toEqual({ big: calibration.factor("big") })
      expect(calibration.factor("big")).toBeCloseTo(4, 12)
    })
  )

  it.effect("a factor restored from a snapshot is learned on from, not started over: an absurd first report is rejected", () =>
    Effect.gen(function* () {
      const first = makeCalibration()
      for (let i = 0; i < 100; i++) yield* report(first, 1300)
      const learned = first.factor("m")
      const restored = makeCalibration({ initialFactors: first.snapshot() })
      // the same report to the run that learned the factor and to the one restored from its snapshot
      expect(learned).toBeCloseTo(1.3, 2)
      yield* report(first, 13_000)
      yield* report(restored, 13_000)
      expect(first.factor("m")).toBeCloseTo(learned, 12)
      expect(restored.factor("m")).toBeCloseTo(learned, 12)
      expect(restored.stateOf("m")).toMatchObject({ accepted: 0, rejected: 1 })
    })
  )

  it.effect("a factor restored from a snapshot moves by the EWMA weight on a plausible report, as in the run that learned it", () =>
    Effect.gen(function* () {
      const first = makeCalibration()
      for (let i = 0; i < 100; i++) yield* report(first, 1300)
      const restored = makeCalibration({ initialFactors: first.snapshot() })
      yield* report(first, 1200)
      yield* report(restored, 1200)
      expect(restored.factor("m")).toBeCloseTo(first.factor("m"), 12)
    })
  )
})

/** Every profile option `repairFor` and `validateFor` share, each present or not. */
const profileOptions = Arbitrary.schema(Schema.Struct({
  allowPendingToolCalls: Schema.optionalKey(Schema.Boolean),
  continues: Schema.optionalKey(Schema.Boolean),
  thinking: Schema.optionalKey(Schema.Boolean),
  thinkingMode: Schema.optionalKey(Schema.Literals(["enabled", "adaptive"])),
  store: Schema.optionalKey(Schema.Boolean),
  thoughtSignatures: Schema.optionalKey(Schema.Literals(["required", "optional"])),
  model: Schema.optionalKey(Schema.Literals(["gpt-5", "o3", "gpt-4o", "gemini-3-pro-preview", "gemini-2.5-flash", "claude-sonnet-4"]))
}))

const history = Arb.bool.pipe(Arbitrary.flatMap((broken) => (broken ? Arb.brokenConversation : Arb.agentConversation)))

describe("Repair.repairFor with profile options", () => {
  for (const provider of ["openai-chat", "openai-responses", "anthropic", "gemini"] as const) {
    it.effect.prop(
      `${provider}: the repaired history passes validateFor with the same options, and repairing it again changes nothing`,
      [history, profileOptions],
      ([x, options]) =>
        Effect.gen(function* () {
          const result = yield* Effect.result(Repair.repairFor(provider, options)(x))
          if (result._tag === "Failure") {
            expect(["EmptyConversation", "ThinkingNotFirst", "TooManyCacheBreakpoints", "DuplicateItemId", "PrefillNotSupported", "UnsupportedMediaType"]).toContain(result.failure.issue._tag)
            return
          }
          yield* Conversation.validateFor(provider, options)(result.success.messages)
          const again = yield* Repair.repairFor(provider, options)(result.success.messages)
          expect(again.actions).toEqual([])
        }),
      { arbitrary: { runs: 300 }, timeout: 120_000 }
    )
  }
})

describe("Summarizer.layerLanguageModel (found by audit)", () => {
  it.effect("a model error whose message is huge (a provider echoing the prompt) gives a SummaryFailed whose message is bounded, the error kept whole as its cause", () => {
    const echoed = "the user's words ".repeat(20_000)
    const failure = AiError.make({ module: "Test", method: "generateText", reason: new AiError.UnknownError({ description: echoed }) })
    const model = Layer.effect(
      LanguageModel.LanguageModel,
      LanguageModel.make({ generateText: () => Effect.fail(failure), streamText: () => Stream.empty })
    )
    return Effect.gen(function* () {
      const summarizer = yield* Summarizer.Summarizer
      const error = yield* Effect.flip(summarizer.summarize({ messages: [Message.user("Hi")], transcript: "User: Hi", maxTokens: 100 }))
      expect(error.message.length).toBeLessThan(600)
      expect(error.message).toContain("the user's words")
      expect(error.cause).toBe(failure)
    }).pipe(Effect.provide(Summarizer.layerLanguageModel().pipe(Layer.provide(model))))
  })
})
