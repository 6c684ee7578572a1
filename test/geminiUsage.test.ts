/**
 * The Gemini request estimate against 303 generateContent requests recorded
 * from the live API with the prompt tokens it reported: the VCR cassettes of
 * five public test suites (pydantic-ai, crewAI and Mirascope, MIT;
 * openinference and openllmetry, Apache-2.0), gathered by scripts/collect-gemini-usage.py into
 * test/data/gemini-usage (see its README for sources and licences).
 *
 * Gemini's tokenizer is not public: these are bands, measured, so that a
 * change in either direction is noticed. Requests under 50 tokens are
 * judged apart: one token is a fifth of a 5-token prompt.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TokenEstimator } from "../src/index.js"
import { Gemini } from "../src/providers/index.js"
import { expectPinnedSources, loadUsageSet, quantile, relativeError } from "./usageSets.js"

interface UsageCase {
  readonly source: { readonly repo: string; readonly path: string; readonly commit: string; readonly interaction: number }
  readonly model: string
  readonly request: { readonly generationConfig?: { readonly responseJsonSchema?: unknown; readonly responseSchema?: unknown } }
  readonly prompt_tokens: number
}

const cases = loadUsageSet<UsageCase>("gemini-usage")
const heuristic = Effect.runSync(TokenEstimator.makeHeuristic({ encoding: "o200k" }))
const read = cases.map((c) => ({ c, estimate: heuristic.estimateRequest(Effect.runSync(Gemini.fromRequest(c.request)).value, { provider: "gemini", model: c.model }) }))
const errorOf = (estimate: number, c: UsageCase) => relativeError(estimate, c.prompt_tokens)

describe("Gemini requests recorded with the prompt tokens the API reported (test/data/gemini-usage)", () => {
  it("holds 303 requests from five test suites, each read into the model", () => {
    expect(cases).toHaveLength(303)
    expectPinnedSources(cases)
  })

  it("a response schema is not part of the reported prompt: 26 of the 32 requests with one are within 6 tokens of the figure", () => {
    const withSchema = read.filter(({ c }) => c.request.generationConfig?.responseJsonSchema !== undefined || c.request.generationConfig?.responseSchema !== undefined)
    expect(withSchema).toHaveLength(32)
    for (const { estimate } of withSchema) expect(estimate.responseFormat).toBe(0)
    // counting the schema's JSON put every one of them over by about its size (median 50 tokens)
    expect(withSchema.filter(({ c, estimate }) => Math.abs(estimate.total - c.prompt_tokens) <= 6)).toHaveLength(26)
  })

  it("requests of 50 tokens or more: within 8% at the median, 50% at the 90th percentile; on Gemini 2.5 and later 7% and 22%", () => {
    const big = read.filter(({ c }) => c.prompt_tokens >= 50)
    const errors = big.map(({ c, estimate }) => errorOf(estimate.total, c))
    expect(quantile(errors, 0.5)).toBeLessThanOrEqual(0.08)
    expect(quantile(errors, 0.9)).toBeLessThanOrEqual(0.5)
    const current = big.filter(({ c }) => !/gemini-(1|2\.0)/.test(c.model)).map(({ c, estimate }) => errorOf(estimate.total, c))
    expect(quantile(current, 0.5)).toBeLessThanOrEqual(0.07)
    expect(quantile(current, 0.9)).toBeLessThanOrEqual(0.22)
  })
})
