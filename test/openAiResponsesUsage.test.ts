/**
 * The request estimate against 373 OpenAI Responses API requests recorded
 * from the live API with the `usage.input_tokens` it reported: the VCR
 * cassettes of six public test suites (pydantic-ai, crewAI, Mirascope and
 * ellmer, MIT; openinference and openllmetry, Apache-2.0), gathered by
 * scripts/collect-responses-usage.py into test/data/openai-responses-usage
 * (see its README for sources and licences). The rules below were found on
 * the first five suites' 264 requests without images; ellmer's 95 and the
 * 19 with inline images were added later and are pinned apart.
 *
 * The Responses API frames a request its own way, and we have not found all
 * of it: these tests pin what is measured, so that a change in either
 * direction is noticed. Some of it cannot be found from the request: the
 * API billed one Mirascope request, replayed with new item ids, 192, 195
 * and 197 tokens.
 *
 * - Plain requests (text, optionally instructions or a system message; 108):
 *   the exact count is the API's figure, except the 12 pinned below.
 * - Function tools (115): exact on 79, within 2 tokens on 100. For gpt-4o and
 *   gpt-4.1 the definitions show their titles, and cost 6 tokens fewer than
 *   on Chat Completions without instructions or a system message to carry
 *   them, 2 fewer with one: every first turn of that kind is exact but
 *   four (two of them broken cassettes); later turns with calls stay 1 to 4
 *   off. The gpt-5 family primes a named tool choice as "auto" (as on Chat);
 *   its definitions show the parameters' description (16 under without it);
 *   from GPT-5.2 on a function call costs 9 tokens over its compact
 *   arguments, as on Chat, and a system message that carries the
 *   definitions 3 more (`# Instructions`): found on ellmer's gpt-5.4-nano
 *   requests, which pydantic-ai's gpt-5.2, 5.4, 5.5 and 5.6 ones confirm;
 *   it counts 1 or 2 off otherwise (not found).
 * - A `json_schema` text format (31): exact on 23, within 2 on 29. An
 *   assistant reply is not addressed to the format, as it is on Chat. On
 *   the gpt-5 family the reply to come is not either (as on Chat), and a
 *   format with no system message or instructions to carry it is no message
 *   of its own: found on ellmer's 26 gpt-5.4-nano and gpt-5.6-terra requests
 *   (4 and 8 over before), which the five suites' one gpt-5.4-mini request
 *   (7 over) and Chat's three gpt-5.4 requests confirm.
 * - Reasoning items (10): the reasoning of the current turn, sent back
 *   encrypted, is estimated from its length (`estimateEncryptedReasoning`);
 *   reasoning from before the newest user message is dropped, as the API
 *   drops it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeExact } from "../src/exact/index.js"
import { TokenEstimator } from "../src/index.js"
import { OpenAiResponses } from "../src/providers/index.js"
import {
  caseNamer,
  expectPinnedSources,
  hasInputImage,
  isResponsesInSample,
  loadUsageSet,
  quantile,
  relativeError,
  RESPONSES_SUITES,
  type ResponsesKind,
  responsesKindOf
} from "./usageSets.js"

interface UsageCase {
  readonly source: { readonly repo: string; readonly path: string; readonly commit: string; readonly interaction: number }
  readonly request: {
    readonly model: string
    readonly input: string | ReadonlyArray<{ readonly type?: string; readonly role?: string }>
    readonly instructions?: string | null
    readonly tools?: ReadonlyArray<unknown>
    readonly text?: { readonly format?: { readonly type?: string } }
  }
  readonly input_tokens: number
}

const cases = loadUsageSet<UsageCase>("openai-responses-usage")
const nameOf: (c: UsageCase) => string = caseNamer(cases)
const exact = await Effect.runPromise(makeExact({ encoding: "o200k" }))
const heuristic = Effect.runSync(TokenEstimator.makeHeuristic({ encoding: "o200k" }))
const all = cases.map((c) => {
  const request = Effect.runSync(OpenAiResponses.fromRequest(c.request)).value
  const options = { provider: "openai-responses" as const, model: c.request.model }
  return {
    c,
    kind: responsesKindOf(c.request),
    delta: exact.estimateRequest(request, options).total - c.input_tokens,
    heuristic: heuristic.estimateRequest(request, options).total
  }
})
/** The five suites' requests without images, which the rules below were found on. */
const read = all.filter((r) => isResponsesInSample(r.c))
const SUITES_OF_FIVE = (r: (typeof all)[number]): boolean => r.c.source.repo !== "tidyverse/ellmer"
/** tidyverse/ellmer's requests: added once the rules had been found, and counted as they came. */
const ellmer = all.filter((r) => !SUITES_OF_FIVE(r))
const ofKind = (kind: ResponsesKind) => read.filter((r) => r.kind === kind)

const NOT_FOUND = "a framing not found"
/** Plain requests whose exact count differs from the API's figure, by how much, and why. */
const PLAIN_DEVIATIONS: Readonly<Record<string, { readonly delta: number; readonly reason: string }>> = {
  "test_openai_responses_reasoning_mode_pro.yaml#0": { delta: -1531, reason: "a pro reasoning mode bills a prompt the request does not show" },
  "test_openai_responses_reasoning_effort.yaml#0": { delta: -59, reason: "o3-mini with a reasoning effort: a prompt the request does not show" },
  "test_openai_responses_system_prompt.yaml#0": { delta: -18, reason: NOT_FOUND },
  "test_openai_responses_thinking_with_modified_history.yaml#2": { delta: -7, reason: NOT_FOUND },
  "test_openai_responses_thinking_part_from_other_model.yaml#1": { delta: -6, reason: NOT_FOUND },
  "test_openai_responses_verbosity.yaml#0": { delta: 3, reason: "gpt-5 with a verbosity setting: " + NOT_FOUND },
  "test_openai_previous_response_id.yaml#0": { delta: 1, reason: "gpt-5, 1 or 2 over like its first turns with tools: " + NOT_FOUND },
  "test_openai_responses_compact_stateful_mode.yaml#2": { delta: 4, reason: NOT_FOUND },
  "test_openai_responses_compact_stateful_mode.yaml#1": { delta: 3, reason: NOT_FOUND },
  "test_responses_usage_limit_not_exceeded.yaml#1": { delta: -1, reason: NOT_FOUND },
  "test_call_with_text_encoded_thoughts/openai_gpt_4o_responses.yaml#0": { delta: -4, reason: "two assistant messages in a row under a developer message: " + NOT_FOUND }
}

/** Requests with images whose exact count differs from the API's figure, by how much, and why. */
const IMAGE_DEVIATIONS: Readonly<Record<string, { readonly delta: number; readonly reason: string }>> = {
  "test_multimodal_tool_return_matrix[direct-binary-image-openai_responses].yaml#1": { delta: -4, reason: "gpt-5-mini with reasoning items, an image in a function call's output: " + NOT_FOUND },
  "test_multimodal_tool_return_matrix[direct-url_force_download-image-openai_responses].yaml#2": { delta: -2, reason: "gpt-5-mini with reasoning items, an image in a function call's output: " + NOT_FOUND },
  "test_multimodal_tool_return_matrix[tool_return_content-binary-image-openai_responses].yaml#1": { delta: -8, reason: "gpt-5-mini with reasoning items: " + NOT_FOUND },
  "test_multimodal_tool_return_matrix[tool_return_content-url_force_download-image-openai_responses].yaml#2": { delta: -9, reason: "gpt-5-mini with reasoning items: " + NOT_FOUND },
  "test_image_as_binary_content_input.yaml#0": { delta: -230, reason: "gpt-4o: " + NOT_FOUND },
  "openai-v2-image.yml#0": { delta: -1, reason: NOT_FOUND },
  "openai-v2-tool-image.yml#1": { delta: -4, reason: "gpt-5.4-nano after a function call, under as its requests without images are" },
  "openai-v2-tool-image.yml#2": { delta: -4, reason: "gpt-5.4-nano after a function call, under as its requests without images are" },
  "openai-v2-tool-image.yml#3": { delta: -4, reason: "gpt-5.4-nano after a function call, under as its requests without images are" },
  "structured-data-examples-image.yml#0": { delta: -1, reason: "gpt-5.6 with a json_schema text format and a 512×149 image: 1 under" }
}

describe("OpenAI Responses requests recorded with the input they were billed for (test/data/openai-responses-usage)", () => {
  it("holds 373 requests from six test suites: the five suites' 264 without images (108 plain, 115 with function tools, 31 with a text format, 10 with reasoning items), 14 of theirs with images and tidyverse/ellmer's 95", () => {
    expectPinnedSources(cases, RESPONSES_SUITES)
    expect([cases.length, read.length, ofKind("plain").length, ofKind("tools").length, ofKind("format").length, ofKind("reasoning").length]).toEqual([
      373,
      264,
      108,
      115,
      31,
      10
    ])
    expect(all.filter((r) => SUITES_OF_FIVE(r) && hasInputImage(r.c.request))).toHaveLength(14)
    expect(ellmer).toHaveLength(95)
  })

  it("plain requests: the exact count is the API's figure for 97 of 108; the other 11 are pinned with the reason", () => {
    const misses: Record<string, number> = {}
    for (const r of ofKind("plain")) if (r.delta !== 0) misses[nameOf(r.c)] = r.delta
    expect(misses).toEqual(Object.fromEntries(Object.entries(PLAIN_DEVIATIONS).map(([name, d]) => [name, d.delta])))
  })

  it("function tools: exact on 79 of 115 requests, within 2 tokens on 100, 5% at the 90th percentile", () => {
    const tools = ofKind("tools")
    expect(tools.filter((r) => r.delta === 0)).toHaveLength(79)
    expect(tools.filter((r) => Math.abs(r.delta) <= 2)).toHaveLength(100)
    expect(quantile(tools.map((r) => relativeError(r.delta + r.c.input_tokens, r.c.input_tokens)), 0.9)).toBeLessThanOrEqual(0.05)
  })

  describe("function call items on gpt-4o, gpt-4o-mini and gpt-4.1, by whether they carry the id of a stored output item", () => {
    const withCalls = read.filter((r) => {
      const { input, model } = r.c.request
      return /^gpt-4(o|\.1)/.test(model) && typeof input !== "string" && input.some((i) => i.type === "function_call")
    })
    const calls = (r: (typeof read)[number]) => (typeof r.c.request.input === "string" ? [] : r.c.request.input.filter((i) => i.type === "function_call")) as ReadonlyArray<{ readonly id?: string }>
    const sent = withCalls.filter((r) => calls(r).every((c) => c.id === undefined))
    const stored = withCalls.filter((r) => calls(r).every((c) => c.id !== undefined))

    it("without one, a call is rendered from its arguments as written and 1 token more: the 10 recorded requests are exact (two suites)", () => {
      // and a retry billed 335 where the request counts 119: the reported figure is for more than the recorded request
      expect(sent.map((r) => r.delta).sort((a, b) => a - b)).toEqual([-216, ...new Array<number>(10).fill(0)])
      expect(new Set(sent.filter((r) => r.delta === 0).map((r) => r.c.source.repo)).size).toBe(2)
    })

    it("with one, the API reads the stored item: compact arguments and 4 tokens more, exact on 32 of the 40 with calls one at a time", () => {
      const oneAtATime = stored.filter((r) => {
        const input = r.c.request.input
        return typeof input !== "string" && input.every((item, k) => item.type !== "function_call" || input[k + 1]?.type !== "function_call")
      })
      expect(oneAtATime).toHaveLength(40)
      expect(oneAtATime.filter((r) => r.delta === 0)).toHaveLength(32)
      for (const r of oneAtATime) expect(Math.abs(r.delta), nameOf(r.c)).toBeLessThanOrEqual(3)
      // two calls of one turn: one request, recorded 6 times, 6 over
      expect(stored.filter((r) => !oneAtATime.includes(r)).map((r) => r.delta)).toEqual(new Array<number>(6).fill(6))
    })
  })

  it("gpt-4o and gpt-4.1 first turns with definitions and no system message: exact on 22 of 25, one 1 over, one 9 under and one broken cassette", () => {
    const firstTurns = ofKind("tools").filter((r) => {
      const { input, instructions, model } = r.c.request
      return /^gpt-4(o|\.1)/.test(model) && !(typeof instructions === "string" && instructions.length > 0) && typeof input !== "string" && input.length === 1 && input[0]?.role === "user"
    })
    // -225: a figure of 286 for a 61-token request, whose recorded response likely belongs to a longer exchange
    expect(firstTurns.map((r) => r.delta).sort((a, b) => a - b)).toEqual([-225, -9, ...new Array<number>(22).fill(0), 1])
  })

  it("gpt-4o and gpt-4.1 first turns with definitions (titled or not) under instructions or a system or developer message: exact on 18 of 20, from five suites", () => {
    const firstTurns = read.filter((r) => {
      const { input, instructions, model, tools } = r.c.request
      const items = typeof input === "string" ? [] : input
      const hosted = (typeof instructions === "string" && instructions.length > 0) || items[0]?.role === "system" || items[0]?.role === "developer"
      return /^gpt-4(o|\.1)/.test(model) && (tools?.length ?? 0) > 0 && hosted && items.filter((i) => i.role === "user").length === 1 &&
        items.every((i) => i.role !== undefined)
    })
    expect(new Set(firstTurns.map((r) => r.c.source.repo)).size).toBe(5)
    // Mirascope's one request billed at 36, which is 32 without its definitions and 73 with them (recorded twice)
    const odd = firstTurns.filter((r) => r.c.input_tokens === 36)
    expect(odd.map((r) => r.delta)).toEqual([37, 37])
    expect(firstTurns.filter((r) => !odd.includes(r)).map((r) => r.delta)).toEqual(new Array(18).fill(0))
  })

  it("a json_schema text format: exact on 23 of 31 requests, within 2 tokens on 29; replies are not addressed to the format, nor on the gpt-5 family the reply to come", () => {
    const format = ofKind("format")
    expect(format.filter((r) => r.delta === 0)).toHaveLength(23)
    expect(format.filter((r) => Math.abs(r.delta) <= 2)).toHaveLength(29)
    // an earlier reply under the format, which Chat Completions addresses to it: exact without ` to=` and the name
    const withReply = format.filter((r) => typeof r.c.request.input !== "string" && r.c.request.input.some((i) => i.role === "assistant") && r.c.source.repo === "Mirascope/mirascope")
    expect(withReply.map((r) => r.delta)).toEqual([0, 0, 0, 0])
    // gpt-5.4-mini, 7 over while its reply to come was addressed to the format and the format was a message of its own
    expect(format.filter((r) => r.c.request.model.startsWith("gpt-5")).map((r) => r.delta)).toEqual([0])
    expect(Math.max(...format.map((r) => Math.abs(r.delta)))).toBe(4)
  })

  it("reasoning items: the encrypted reasoning of the current turn is estimated within 8% on 5 of 6 requests, 14% on all; older reasoning is dropped", () => {
    const currentTurn = ofKind("reasoning").filter((r) => {
      const items = typeof r.c.request.input === "string" ? [] : r.c.request.input
      const lastUser = items.map((i) => i.role).lastIndexOf("user")
      return items.some((i, k) => k > lastUser && i.type === "reasoning")
    })
    expect(currentTurn).toHaveLength(6)
    const errors = currentTurn.map((r) => relativeError(r.delta + r.c.input_tokens, r.c.input_tokens))
    expect(errors.filter((e) => e <= 0.08)).toHaveLength(5)
    expect(Math.max(...errors)).toBeLessThanOrEqual(0.14)
    // Reasoning from before the newest user message does not reach the model: counting it would be hundreds over.
    for (const r of ofKind("reasoning").filter((r) => !currentTurn.includes(r))) expect(Math.abs(r.delta), nameOf(r.c)).toBeLessThanOrEqual(2)
  })

  it("the heuristic: within 4.5% of the API's figure at the median and 11% at the 90th percentile; plain requests 9.5%", () => {
    const errors = (rows: typeof read) => rows.map((r) => relativeError(r.heuristic, r.c.input_tokens))
    expect(quantile(errors(read), 0.5)).toBeLessThanOrEqual(0.045)
    expect(quantile(errors(read), 0.9)).toBeLessThanOrEqual(0.11)
    expect(quantile(errors(ofKind("plain")), 0.9)).toBeLessThanOrEqual(0.095)
  })
  it("images given inline: the exact count is the API's figure for 9 of 19 (gpt-4o, gpt-4o-mini, gpt-4.1-nano, o4-mini, and gpt-5-mini with an image in a function call's output, which was 412 under before such images were counted); the other 10 are pinned with the reason", () => {
    const misses: Record<string, number> = {}
    const images = all.filter((r) => hasInputImage(r.c.request))
    expect(images).toHaveLength(19)
    for (const r of images) if (r.delta !== 0) misses[nameOf(r.c)] = r.delta
    expect(misses).toEqual(Object.fromEntries(Object.entries(IMAGE_DEVIATIONS).map(([name, d]) => [name, d.delta])))
  })

  it("gpt-5.4-nano and gpt-5.6 images at 1.2 tokens a 32-pixel patch leave their requests as far off as the same suite's requests without one", () => {
    // gpt-5.4-nano, a 512×512 image in the turn after a function call: 256 patches, 309 tokens; at gpt-5-nano's 1.5
    // (385) the three requests would be 72 over, not 4 under
    const nano = ellmer.filter((r) => hasInputImage(r.c.request) && r.c.request.model === "gpt-5.4-nano").map((r) => r.delta)
    expect(nano).toEqual([-4, -4, -4])
    // its requests without images after a function call: 0 to 12 under
    const nanoCalls = ellmer.filter((r) => !hasInputImage(r.c.request) && r.c.request.model === "gpt-5.4-nano" && JSON.stringify(r.c.request.input).includes("function_call"))
    expect(Math.max(...nanoCalls.map((r) => r.delta))).toBe(0)
    expect(Math.min(...nanoCalls.map((r) => r.delta))).toBe(-12)
    // gpt-5.6-terra, a 512×149 image (80 patches, 97 tokens) under a json_schema text format: 1 under, where 21 of its
    // 22 requests with a format and no image are exact (the other, with a system message, 1 over)
    const terra = ellmer.filter((r) => r.c.request.model === "gpt-5.6-terra" && r.kind === "format")
    expect(terra.filter((r) => hasInputImage(r.c.request)).map((r) => r.delta)).toEqual([-1])
    expect(terra.filter((r) => !hasInputImage(r.c.request)).map((r) => r.delta).sort()).toEqual([...Array<number>(21).fill(0), 1])
  })

  it("tidyverse/ellmer's 90 requests without images: 67 exact, 88 within 2 tokens (32 and 40 as they came, before its json_schema requests gave the gpt-5 family's format rule, its tool requests GPT-5.2's call surcharge and instructions heading, and Chat's rule for the gpt-5 family's assistant messages was found to hold on Responses too); all 27 of its plain requests exact", () => {
    const text = ellmer.filter((r) => !hasInputImage(r.c.request))
    expect(text).toHaveLength(90)
    expect(text.filter((r) => r.delta === 0)).toHaveLength(67)
    expect(text.filter((r) => Math.abs(r.delta) <= 2)).toHaveLength(88)
    const plain = text.filter((r) => r.kind === "plain")
    expect([plain.length, plain.filter((r) => r.delta === 0).length]).toEqual([27, 27])
  })
})
