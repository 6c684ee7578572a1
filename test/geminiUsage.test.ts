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
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type Block, Message, type Request, TokenEstimator } from "../src/index.js"
import { Gemini } from "../src/providers/index.js"
import { expectPinnedSources, loadUsageSet, quantile, relativeError } from "./usageSets.js"

interface UsageCase {
  readonly source: { readonly repo: string; readonly path: string; readonly commit: string; readonly interaction: number }
  readonly model: string
  readonly request: {
    readonly contents?: unknown
    readonly tools?: unknown
    readonly generationConfig?: { readonly responseJsonSchema?: unknown; readonly responseSchema?: unknown }
  }
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

  it("a response schema is not part of the reported prompt: 28 of the 32 requests with one are within 6 tokens of the figure", () => {
    const withSchema = read.filter(({ c }) => c.request.generationConfig?.responseJsonSchema !== undefined || c.request.generationConfig?.responseSchema !== undefined)
    expect(withSchema).toHaveLength(32)
    for (const { estimate } of withSchema) expect(estimate.responseFormat).toBe(0)
    // counting the schema's JSON put every one of them over by about its size (median 50 tokens)
    expect(withSchema.filter(({ c, estimate }) => Math.abs(estimate.total - c.prompt_tokens) <= 6)).toHaveLength(28)
  })

  describe("files in tool results, written in snake_case (`inline_data`, `mime_type`, `file_data`) as the recording client writes them", () => {
    const filesOf = (request: Request.Request) =>
      request.messages.flatMap((m) => Message.toolResultsOf(m)).flatMap((r) => (typeof r.content === "string" ? [] : r.content)).filter((p): p is Block.FileBlock => p._tag === "File")
    const withFiles = read.map(({ c, estimate }) => ({ c, estimate, files: filesOf(Effect.runSync(Gemini.fromRequest(c.request)).value) })).filter(({ files }) => files.length > 0)

    it("eleven requests send files in tool results, eight inline, and each file is read as one (they were provider data, uncounted, when only camelCase was read)", () => {
      expect(withFiles).toHaveLength(11)
      for (const { c, files } of withFiles) {
        expect(JSON.stringify(c.request.contents)).toMatch(/"(inline_data|file_data)"/)
        expect(files.length).toBe(JSON.stringify(c.request.contents).match(/"(inline_data|file_data)"/g)?.length)
      }
      expect(withFiles.filter(({ files }) => files.every((f) => f.source._tag === "Base64"))).toHaveLength(8)
    })

    // Gemini bills a PDF by its pages: an inline one is priced so (one page each here, 1,120 tokens on Gemini 3), one by
    // uploaded file, whose pages the request does not show, at the estimator's figure for a referenced file
    const pdfCases = [
      {
        source: "Base64",
        count: 3,
        // one is 4.1% under since its tool, which has no description, is counted as Gemini 3 bills it (4 tokens less):
        // the page's 1,120 tokens are what is under there
        within: [-0.042, 0.01],
        why: "the three inline one-page PDFs are within 4.2% of the reported prompt (83 to 193% over when their bytes were counted as opaque data)"
      },
      {
        source: "Url",
        count: 2,
        within: [0.4, 0.62],
        why: "the two PDFs by uploaded file are over (41 and 61%): an unknown document is charged 1,000 tokens, Gemini billed about 140 and 100 (they were 9% under, unread)"
      }
    ] as const
    for (const { count, source, within, why } of pdfCases) {
      it(why, () => {
        const pdfs = withFiles.filter(({ files }) => files.some((f) => f.mediaType === "application/pdf" && f.source._tag === source))
        expect(pdfs).toHaveLength(count)
        for (const { c, estimate } of pdfs) {
          const signed = estimate.total / c.prompt_tokens - 1
          expect(signed).toBeGreaterThanOrEqual(within[0])
          expect(signed).toBeLessThanOrEqual(within[1])
        }
      })
    }
  })

  describe("images, priced as Gemini 3 prices them (1,120 tokens each at the default media resolution)", () => {
    const withImages = read.map(({ c, estimate }) => {
      const request = Effect.runSync(Gemini.fromRequest(c.request)).value
      const images = request.messages.flatMap((m) => Message.toolResultsOf(m)).flatMap((r) => (typeof r.content === "string" ? [] : r.content))
        .filter((p): p is Block.FileBlock => p._tag === "File" && p.mediaType.startsWith("image/"))
      return { c, images, estimate }
    }).filter(({ images }) => images.length > 0)

    it("six gemini-3-flash-preview requests send images in tool results, five inline and one by uploaded file", () => {
      expect(withImages).toHaveLength(6)
      for (const { c, images } of withImages) {
        expect(c.model).toBe("gemini-3-flash-preview")
        expect(images.length).toBeGreaterThan(0)
      }
    })

    // read as provider data, uncounted, before the adapter read snake_case: 49 to 93% under
    it("the five with inline images (597x566 and 400x301) are within 4% of the reported prompt (17 to 50% under at OpenAI's price)", () => {
      const inline = withImages.filter(({ images }) => images.every((image) => image.source._tag === "Base64"))
      expect(inline).toHaveLength(5)
      for (const { c, estimate } of inline) expect(errorOf(estimate.total, c)).toBeLessThanOrEqual(0.04)
    })

    it("the one by uploaded file was billed about 50 tokens for it, which no documented figure explains: the estimate stays over", () => {
      const [uploaded, ...others] = withImages.filter(({ images }) => images.some((image) => image.source._tag === "Url"))
      expect(others).toHaveLength(0)
      assert(uploaded !== undefined)
      expect(uploaded.estimate.total).toBeGreaterThan(uploaded.c.prompt_tokens)
    })
  })

  // function declarations, calls and responses counted as Gemini writes them into the prompt (see requestEstimate.ts);
  // counted as their JSON text, the figures were 7.1% / 39.6%, 5.8% / 17.4%, 6.8% / 41.3% and 5.8% / 33.9%; with
  // Gemini 2.5's declarations in Gemini 3's format, 5.1% / 16.9%, 5.0% / 16.2%, 4.9% / 16.3% and 4.9% / 12.6%
  const big = read.filter(({ c }) => c.prompt_tokens >= 50)
  const median = (rs: typeof read) => quantile(rs.map(({ c, estimate }) => errorOf(estimate.total, c)), 0.5)
  const p90 = (rs: typeof read) => quantile(rs.map(({ c, estimate }) => errorOf(estimate.total, c)), 0.9)
  const functionParts = (c: UsageCase) => /"(functionCall|function_call|functionResponse|function_response)"/.test(JSON.stringify(c.request.contents))

  it("requests of 50 tokens or more: within 5.1% at the median, 14.4% at the 90th percentile; on Gemini 2.5 and later 5.1% and 12.4% (PDFs priced by their pages)", () => {
    expect(big).toHaveLength(203)
    expect([median(big), p90(big)]).toEqual([expect.closeTo(0.051, 2), expect.closeTo(0.144, 2)])
    const current = big.filter(({ c }) => !/gemini-(1|2\.0)/.test(c.model))
    expect([median(current), p90(current)]).toEqual([expect.closeTo(0.051, 2), expect.closeTo(0.124, 2)])
  })

  it("with function declarations or function parts: 5.0% and 10.1% with tools (175 requests of 50+), 5.1% and 10.3% with calls and responses (118), Gemini 3 4.1% and 10.3% (87)", () => {
    const tools = big.filter(({ c }) => c.request.tools !== undefined)
    expect(tools).toHaveLength(175)
    expect([median(tools), p90(tools)]).toEqual([expect.closeTo(0.050, 2), expect.closeTo(0.101, 2)])
    const parts = big.filter(({ c }) => functionParts(c))
    expect(parts).toHaveLength(118)
    expect([median(parts), p90(parts)]).toEqual([expect.closeTo(0.051, 2), expect.closeTo(0.103, 2)])
    const gemini3 = big.filter(({ c }) => /gemini-3/.test(c.model))
    expect(gemini3).toHaveLength(87)
    expect([median(gemini3), p90(gemini3)]).toEqual([expect.closeTo(0.041, 2), expect.closeTo(0.103, 2)])
  })

  // Gemini 2.5's declarations by its own measured rule (requestEstimate.ts): in FunctionGemma's format, as Gemini 3
  // writes them, these were 7% over at the median and 18.3% at p90; what is left is mostly the text's (the 22 requests
  // without tools are 7.5% under at the median)
  it("Gemini 2.5 with declarations and no function parts: 3.8% under at the median, 8.3% at the 90th percentile (33 requests of 50+)", () => {
    const declarations = big.filter(({ c }) => /gemini-2\.5/.test(c.model) && c.request.tools !== undefined && !functionParts(c))
    expect(declarations).toHaveLength(33)
    const signed = quantile(declarations.map(({ c, estimate }) => (estimate.total - c.prompt_tokens) / c.prompt_tokens), 0.5)
    expect([signed, p90(declarations)]).toEqual([expect.closeTo(-0.038, 2), expect.closeTo(0.083, 2)])
  })
})
