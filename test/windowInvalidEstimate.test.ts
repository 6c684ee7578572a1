/**
 * An estimator of the user's whose rule gives no number of tokens (`NaN`, an infinity, a negative number, a string
 * from untyped code) made the window keep too much (`tokensAfter: -16`), report a budget of `NaN`, blame an option
 * never given (`fixedTokens`), or die in a schema check. Now `fit` and `fitRequest` fail with `InvalidEstimate`,
 * naming what was estimated and what the estimator gave. A rule that throws is still a defect, as any callback's
 * exception is in Effect.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { Block, Message, MessageWindow, Request, TokenEstimator } from "../src/index.js"

const history = [
  Message.system("Be brief."),
  Message.user("Read the file."),
  Message.assistant([Block.toolCall("call_1", "read", { path: "a.txt" })]),
  Message.tool([Block.toolResult("call_1", "read", "x".repeat(400))]),
  Message.assistant("It holds x's."),
  Message.user("Thanks.")
]

const windowOf = (rule: (text: string) => number) =>
  MessageWindow.layer.pipe(Layer.provide(Layer.succeed(TokenEstimator.TokenEstimator, TokenEstimator.fromTextRule(rule))))

const bad: ReadonlyArray<readonly [string, (text: string) => number, string]> = [
  ["NaN", () => Number.NaN, "NaN"],
  ["an infinity", () => Number.POSITIVE_INFINITY, "Infinity"],
  ["a negative number", () => -5, "-"],
  ["a string from untyped code", () => "7" as unknown as number, "(a string)"]
]

describe("a window over an estimator that gives no number of tokens", () => {
  for (const [name, rule, shown] of bad) {
    it.effect(`fit and fitRequest fail with InvalidEstimate: ${name}`, () =>
      Effect.gen(function*() {
        for (const run of [MessageWindow.fit(history, 100), MessageWindow.fitRequest(Request.make(history), 100)]) {
          const error = yield* Effect.flip(run.pipe(Effect.provide(windowOf(rule))))
          assert.strictEqual(error._tag, "InvalidEstimate")
          if (error._tag !== "InvalidEstimate") return
          expect(error.value).toContain(shown)
          expect(error.message).toContain("an estimate must be a finite number of tokens, 0 or more")
        }
      }))
  }

  it.effect("a rule that gives numbers is fitted as before, fractions included", () =>
    Effect.gen(function*() {
      const fitted = yield* MessageWindow.fit(history, 60, { strategy: ["drop_oldest"] }).pipe(Effect.provide(windowOf((t) => t.length / 4)))
      expect(fitted.tokensAfter).toBeLessThanOrEqual(60)
      expect(fitted.tokensAfter).toBeGreaterThan(0)
    }))

  it.effect("a rule that throws is a defect, not an InvalidEstimate", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(MessageWindow.fit(history, 100).pipe(Effect.provide(windowOf(() => {
        throw new Error("boom")
      }))))
      assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
    }))
})
