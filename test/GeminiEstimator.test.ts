/**
 * The Gemini estimator: the fitted heuristic with the table fitted against
 * Gemma 3's tokenizer, which gives Gemini's billed counts of text. The table's
 * accuracy against the tokenizer itself is measured by the fit
 * (`scripts/corpus/fit.ts --gemini`, which needs the tokenizer); here it is
 * checked against the 303 Gemini requests recorded with the prompt tokens
 * the API reported (test/data/gemini-usage), beside the default o200k table.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { GeminiEstimator, Message, MessageWindow, Request, TokenEstimator } from "../src/index.js"
import { Gemini } from "../src/providers/index.js"
import { loadUsageSet, quantile } from "./usageSets.js"

interface UsageCase {
  readonly source: { readonly repo: string; readonly path: string; readonly commit: string; readonly interaction: number }
  readonly model: string
  readonly request: { readonly contents?: unknown; readonly tools?: unknown }
  readonly prompt_tokens: number
}

const gemini = Effect.runSync(GeminiEstimator.make())

describe("GeminiEstimator", () => {
  it("counts what Gemma 3's tokenizer counts for role names, a greeting and digits (one token a digit)", () => {
    for (const text of ["user", "model", "assistant", "system", "hello", "OK"]) expect(GeminiEstimator.estimateText(text), text).toBe(1)
    expect(GeminiEstimator.estimateText("Hello world")).toBe(2)
    // Gemma splits numbers into digits, where o200k groups them by three
    expect(GeminiEstimator.estimateText("12345678")).toBe(8)
    expect(TokenEstimator.heuristic.estimateText("12345678")).toBe(3)
    expect(GeminiEstimator.estimateText("")).toBe(0)
  })

  it("adds 1 token a message by default, what Gemini 2.5 and later add for each content, and checks its options", () => {
    const m = Message.user("What is the capital of France?")
    expect(gemini.estimateMessage(m)).toBe(GeminiEstimator.estimateText("What is the capital of France?") + 1)
    const bare = Effect.runSync(GeminiEstimator.make({ messageOverhead: 0 }))
    expect(bare.estimateMessage(m)).toBe(gemini.estimateMessage(m) - 1)
    const exit = Effect.runSyncExit(GeminiEstimator.make({ messageOverhead: -1 }))
    assert(Exit.isFailure(exit))
    expect(JSON.stringify(exit.cause)).toContain("InvalidEstimatorOptions")
  })

  it("counts a request as Gemini bills it unless told another provider", () => {
    const request = Request.make([Message.system("Be brief."), Message.user("Weather in Oslo?")], {
      tools: [Request.tool("get_weather", { description: "Current weather", parameters: { type: "object", properties: { city: { type: "string" } } } })]
    })
    expect(gemini.estimateRequest(request, { model: "gemini-2.5-flash" })).toEqual(gemini.estimateRequest(request, { provider: "gemini", model: "gemini-2.5-flash" }))
    expect(gemini.estimateRequest(request).provider).toBe("gemini")
    expect(gemini.estimateRequest(request, { provider: "openai-chat" }).provider).toBe("openai-chat")
  })

  it.effect("is the TokenEstimator service of its layer, which the window fits with", () =>
    Effect.gen(function*() {
      const estimator = yield* TokenEstimator.TokenEstimator
      expect(estimator.estimateText("12345678")).toBe(8)
      const fitted = yield* MessageWindow.fit([Message.system("Be brief."), Message.user("Hi")], 8_000)
      expect(fitted.messages).toHaveLength(2)
    }).pipe(Effect.provide(MessageWindow.layer), Effect.provide(GeminiEstimator.layer)))

  describe("against 303 recorded Gemini requests (test/data/gemini-usage), beside the o200k table", () => {
    const cases = loadUsageSet<UsageCase>("gemini-usage")
    const rows = cases.map((c) => {
      const request = Effect.runSync(Gemini.fromRequest(c.request)).value
      const error = (total: number) => (total - c.prompt_tokens) / c.prompt_tokens
      return {
        c,
        gemini: error(gemini.estimateRequest(request, { model: c.model }).total),
        o200k: error(TokenEstimator.heuristic.estimateRequest(request, { provider: "gemini", model: c.model }).total)
      }
    })
    const big = rows.filter((r) => r.c.prompt_tokens >= 50)
    const abs = (xs: ReadonlyArray<number>, q: number) => quantile(xs.map(Math.abs), q)

    it("all 303: 2.5% at the median and 11.6% at p90, where the o200k table is at 4.8% and 14.3%, and no longer under", () => {
      expect(rows).toHaveLength(303)
      expect([abs(rows.map((r) => r.gemini), 0.5), abs(rows.map((r) => r.gemini), 0.9)]).toEqual([expect.closeTo(0.025, 2), expect.closeTo(0.116, 2)])
      expect([abs(rows.map((r) => r.o200k), 0.5), abs(rows.map((r) => r.o200k), 0.9)]).toEqual([expect.closeTo(0.048, 2), expect.closeTo(0.143, 2)])
      // the o200k table's median is 2.3% under; the Gemini table's is just over zero (0.7% since the count of
      // vowel-ending words goes both ways; it was within 0.5% of zero before)
      expect(quantile(rows.map((r) => r.o200k), 0.5)).toBeLessThan(-0.02)
      expect(quantile(rows.map((r) => r.gemini), 0.5)).toBeGreaterThanOrEqual(0)
      expect(quantile(rows.map((r) => r.gemini), 0.5)).toBeLessThan(0.01)
    })

    it("Gemini 2.5 (85 requests of 50+ tokens): 1.6% at the median and 4.5% at p90, where the o200k table is at 6.5% and 14.4%", () => {
      const current = big.filter((r) => /gemini-2\.5/.test(r.c.model))
      expect(current).toHaveLength(85)
      expect([abs(current.map((r) => r.gemini), 0.5), abs(current.map((r) => r.gemini), 0.9)]).toEqual([expect.closeTo(0.016, 2), expect.closeTo(0.045, 2)])
      expect([abs(current.map((r) => r.o200k), 0.5), abs(current.map((r) => r.o200k), 0.9)]).toEqual([expect.closeTo(0.065, 2), expect.closeTo(0.144, 2)])
    })

    // Gemini 3's misses are its thought signatures and files by uploaded reference (see geminiUsage.test.ts), which
    // neither table explains; the Gemini table puts those over estimates a little higher
    it("Gemini 3 (87 requests of 50+ tokens): 4.5% at the median and 12.3% at p90 (o200k table: 4.1% and 10.1%)", () => {
      const three = big.filter((r) => /gemini-3/.test(r.c.model))
      expect(three).toHaveLength(87)
      expect([abs(three.map((r) => r.gemini), 0.5), abs(three.map((r) => r.gemini), 0.9)]).toEqual([expect.closeTo(0.045, 2), expect.closeTo(0.123, 2)])
    })
  })
})
