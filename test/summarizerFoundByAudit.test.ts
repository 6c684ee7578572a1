/**
 * Found by an audit of the summarizers and the effect/ai bridge: the extractive summary left out a last answer too
 * long for the room (and kept the question), though it promises the last answer always; a summary of invisible
 * characters only (zero-width spaces) was taken as a summary; and a `Tokenizer` made with `Tokenizer.make` whose
 * function throws made every estimate of `EffectAi.layerTokenEstimator` throw, where one that fails falls back to the
 * heuristic, as its doc says.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Tokenizer } from "effect/ai"
import { Message, MessageWindow, Summarizer, TokenEstimator } from "../src/index.js"
import { EffectAi } from "../src/providers/index.js"

describe("the extractive summary's last answer", () => {
  it("is cut to the room left rather than left out", () => {
    const answer = "The root cause is " + "a stale cache entry ".repeat(8)
    const text = Summarizer.extractive([Message.user("What is the root cause?"), Message.assistant(answer)], 30)
    expect(text.startsWith("Assistant: The root cause is a stale cache entry")).toBe(true)
    expect(text.endsWith("…")).toBe(true)
    expect(text.length).toBeLessThanOrEqual(90)
  })

  it("that fits is whole, with the question", () => {
    expect(Summarizer.extractive([Message.user("Why?"), Message.assistant("A stale cache.")], 30)).toBe("User: Why?\nAssistant: A stale cache.")
  })
})

describe("a summary of invisible characters only", () => {
  it.effect("is no summary: the window fails with SummaryFailed", () =>
    Effect.gen(function*() {
      const history = Array.from({ length: 40 }, (_, i) => (i % 2 === 1 ? Message.assistant("answer ".repeat(30)) : Message.user("question ".repeat(30))))
      const summarizer = Layer.succeed(Summarizer.Summarizer, { summarize: () => Effect.succeed("\u200b\u200b\ufeff") })
      const error = yield* Effect.flip(
        MessageWindow.fit(history, 1500, { strategy: "summarize" }).pipe(Effect.provide(MessageWindow.layer.pipe(Layer.provide(Layer.merge(TokenEstimator.layer, summarizer)))))
      )
      expect(error._tag).toBe("SummaryFailed")
    }))
})

describe("EffectAi.layerTokenEstimator over a tokenizer that throws", () => {
  it.effect("falls back to the heuristic, as for one that fails", () =>
    Effect.gen(function*() {
      const throwing = Layer.succeed(Tokenizer.Tokenizer, Tokenizer.make({
        tokenize: () => {
          throw new Error("native tokenizer crashed")
        }
      }))
      const estimator = yield* TokenEstimator.TokenEstimator.pipe(Effect.provide(EffectAi.layerTokenEstimator().pipe(Layer.provide(throwing))))
      expect(estimator.estimateText("hello world")).toBe(TokenEstimator.heuristic.estimateText("hello world"))
    }))
})
