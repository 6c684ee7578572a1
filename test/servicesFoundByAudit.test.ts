import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Calibration from "../src/Calibration.js"
import * as TokenEstimator from "../src/TokenEstimator.js"

const makeCalibration = (options?: Calibration.CalibrationOptions) => Effect.runSync(Calibration.make(TokenEstimator.heuristic, options))

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
})
