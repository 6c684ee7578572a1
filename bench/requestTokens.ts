import { Effect } from "effect"
/**
 * Whole-request counting against the providers' own figures, through the
 * model and `TokenEstimator.estimateRequest` (skipped, with a note, when
 * ../shared/data is not there):
 *
 * - the 108 recorded Chat Completions requests of ../shared/data/request-tokens
 *   (46 with tool definitions) with the `usage.prompt_tokens` the API
 *   reported, each read with `OpenAiChat.fromRequest`: how many figures the
 *   exact layers reproduce, against the messages-only formula the data's
 *   README computes (what per-message counters do); the heuristic layer's
 *   p50 / p90 / mean / max relative error;
 * - the 1,202 Chat Completions requests of test/data/openai-chat-usage, recorded
 *   from the live API in 2024–26 by fifteen public test suites (the gpt-4o,
 *   gpt-4.1 and gpt-5 families, the o-series, and 76 for gpt-3.5-turbo and
 *   gpt-4): how many figures the exact layer of the model's encoding
 *   reproduces, in all, without parallel calls, with a `json_schema` response
 *   format and on the cl100k models; the heuristic layer's error;
 * - the 321 Anthropic Messages requests of test/data/anthropic-usage,
 *   recorded from the live API by five public test suites: the heuristic
 *   layer's error with the documented and measured framing, and calibrated
 *   on the other suites' reports;
 * - the 264 OpenAI Responses requests without images that five public test
 *   suites recorded from the live API (test/data/openai-responses-usage,
 *   where a sixth suite's and the images are an out-of-sample check): how many figures
 *   the exact layer reproduces (all; plain, with function tools, with a
 *   text format, with reasoning items) and the heuristic layer's error;
 * - the 303 Gemini generateContent requests of test/data/gemini-usage,
 *   recorded from the live API by five public test suites: the heuristic
 *   layer's error;
 * - the agent requests of ../shared/data/transcripts recorded from the four
 *   live APIs with the input the provider reported: the error of each
 *   layer per provider (Anthropic also calibrated, leave-one-out, on the
 *   other recorded Anthropic requests).
 *
 * Speed: requests per second over the recorded set for the exact and the
 * heuristic estimate, as a ratio to the exact messages-only count in the same
 * process. `openai-chat-tokens` (the best existing whole-request counter) is
 * not installed here, so there is no comparison with it.
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs bench/requestTokens.ts
 */
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"
import { pathToFileURL } from "node:url"
import { encodingForModel, makeExact } from "../src/exact/index.js"
import { Calibration, GeminiEstimator, type Request, TokenEstimator } from "../src/index.js"
import type { ChatRequestLike } from "../src/internal/openAiChatPrompt.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../src/providers/index.js"
import { countOptions, hasDefinitions, KNOWN_DEVIATIONS, loadRequestCases } from "../test/fixtures/requestTokensCases.js"
import { loadRecordedRequests, type RecordedRequest } from "../test/fixtures/requestTranscriptCases.js"
import { claudeGeneration, hasParallelCalls, isResponsesInSample, loadUsageSet, priorsLeavingOutEachSuite, type ResponsesKind, responsesKindOf, type ResponsesRequest } from "../test/usageData.js"
import { consume, fmt, table, timePerCall } from "./measure.js"

// the exact layers load gpt-tokenizer's vocabularies when built (top-level await); once built, they run synchronously
const exact = {
  o200k: await Effect.runPromise(makeExact({ encoding: "o200k" })),
  cl100k: await Effect.runPromise(makeExact({ encoding: "cl100k" }))
}
const heuristic = {
  o200k: Effect.runSync(TokenEstimator.makeHeuristic({ encoding: "o200k" })),
  cl100k: Effect.runSync(TokenEstimator.makeHeuristic({ encoding: "cl100k" })),
  gemini: Effect.runSync(GeminiEstimator.make())
}

const plain = { disallowedSpecial: new Set<string>() }

/** The per-message formula (the README's `messages_only_tokens`), the baseline for speed. */
const messagesOnly = (request: ChatRequestLike, count: (text: string) => number): number => {
  let total = 3
  for (const m of request.messages ?? []) {
    total += 3 + count(String(m.role ?? ""))
    if (typeof m.content === "string") total += count(m.content)
    else if (Array.isArray(m.content)) {
      for (const part of m.content as ReadonlyArray<{ readonly text?: unknown }>) if (typeof part.text === "string") total += count(part.text)
    }
    if (typeof m.name === "string") total += count(m.name) + 1
    const fc = m.function_call
    if (fc) total += count(String(fc.name ?? "")) + count(String(fc.arguments ?? ""))
    for (const c of m.tool_calls ?? []) total += count(String(c.function?.name ?? "")) + count(String(c.function?.arguments ?? ""))
  }
  return total
}

const quantile = (sorted: ReadonlyArray<number>, q: number): number => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? NaN
const pct = (x: number) => `${fmt(100 * x)}%`
const errorRow = (label: string, errors: Array<number>): Array<string> => {
  const e = errors.sort((a, b) => a - b)
  return [label, String(e.length), pct(quantile(e, 0.5)), pct(quantile(e, 0.9)), pct(e.reduce((a, b) => a + b, 0) / e.length), pct(e[e.length - 1] ?? NaN)]
}

const runRecordedChat = (): void => {
  const cases = loadRequestCases()
  if (cases.length === 0) {
    console.log("../shared/data/request-tokens is not there: skipped")
    return
  }
  // each body read into the model; the model the figure was measured on (an alias resolved by its date)
  const read = cases.map(({ data }) => {
    const options = countOptions(data)
    return {
      data,
      encoding: options.encoding,
      request: Effect.runSync(OpenAiChat.fromRequest(data.request)).value,
      model: options.format === "0613" ? "gpt-3.5-turbo-0613" : options.model,
      tools: hasDefinitions(data.request)
    }
  })
  const withTools = read.filter((r) => r.tools)
  const exactOk = (subset: typeof read) =>
    subset.filter((r) => exact[r.encoding].estimateRequest(r.request, { model: r.model }).total === r.data.prompt_tokens).length
  const formulaOk = (subset: typeof read) => subset.filter((r) => r.data.messages_only_tokens === r.data.prompt_tokens).length
  console.log(
    `exact layers (estimateRequest): ${exactOk(withTools)}/${withTools.length} with tools, ${exactOk(read)}/${read.length} overall ` +
      `(${Object.keys(KNOWN_DEVIATIONS).length} known deviations, explained in test/fixtures/requestTokensCases.ts)`
  )
  console.log(`messages-only formula: ${formulaOk(withTools)}/${withTools.length} with tools, ${formulaOk(read)}/${read.length} overall`)
  const errors = (subset: typeof read) =>
    subset.map((r) => Math.abs(heuristic[r.encoding].estimateRequest(r.request, { model: r.model }).total - r.data.prompt_tokens) / r.data.prompt_tokens)
  table(["heuristic layer vs API", "requests", "p50", "p90", "mean", "max"], [errorRow("with tools", errors(withTools)), errorRow("overall", errors(read))])

  const counters = { o200k: (t: string) => countO200k(t, plain), cl100k: (t: string) => countCl100k(t, plain) }
  const tBaseline = timePerCall(() => {
    let s = 0
    for (const r of read) s += messagesOnly(r.data.request, counters[r.encoding])
    consume(s)
  })
  const time = (layers: typeof exact) =>
    timePerCall(() => {
      let s = 0
      for (const r of read) s += layers[r.encoding].estimateRequest(r.request, { model: r.model }).total
      consume(s)
    })
  const tExact = time(exact)
  const tHeuristic = time(heuristic)
  const perSecond = (t: number) => fmt((read.length / t) * 1000, 0)
  console.log("")
  table(
    ["counting the recorded set", "requests/s", "time vs exact messages-only"],
    [
      ["exact messages-only (baseline)", perSecond(tBaseline), "1.00x"],
      ["exact estimateRequest", perSecond(tExact), `${fmt(tExact / tBaseline, 2)}x`],
      ["heuristic estimateRequest", perSecond(tHeuristic), `${fmt(tHeuristic / tBaseline, 2)}x`]
    ]
  )
  console.log("openai-chat-tokens is not installed here (no new packages in this run): no speed comparison with it")
}

const runTranscripts = (): void => {
  const cases = loadRecordedRequests()
  if (cases.length === 0) {
    console.log("../shared/data/transcripts is not there: skipped")
    return
  }
  const errorOf = (estimate: number, c: RecordedRequest) => Math.abs(estimate - c.inputTokens) / c.inputTokens
  const estimateWith = (e: TokenEstimator.Service, c: RecordedRequest) => e.estimateRequest(c.request, { provider: c.provider, model: c.model }).total
  const leaveOneOut = (c: RecordedRequest, pool: ReadonlyArray<RecordedRequest>): number => {
    const calibration = Effect.runSync(Calibration.make(heuristic.o200k))
    for (const o of pool) if (o !== c) Effect.runSync(calibration.recordRequest("m", o.request as Request.Request, o.inputTokens, { provider: o.provider, model: o.model }))
    return estimateWith(calibration.estimatorFor("m"), c)
  }
  const rows: Array<Array<string>> = []
  const chat = cases.filter((c) => c.provider === "openai-chat" && c.publicTokenizer)
  rows.push(errorRow(`OpenAI Chat, exact o200k (${chat.filter((c) => estimateWith(exact.o200k, c) === c.inputTokens).length} exact)`, chat.map((c) => errorOf(estimateWith(exact.o200k, c), c))))
  rows.push(errorRow("OpenAI Chat, heuristic", chat.map((c) => errorOf(estimateWith(heuristic.o200k, c), c))))
  const responses = cases.filter((c) => c.provider === "openai-responses" && c.publicTokenizer && !c.serverSide)
  rows.push(errorRow("Responses, heuristic (approximation)", responses.map((c) => errorOf(estimateWith(heuristic.o200k, c), c))))
  const anthropic = cases.filter((c) => c.provider === "anthropic" && !c.serverSide)
  rows.push(errorRow("Anthropic, heuristic + documented tool figures", anthropic.map((c) => errorOf(estimateWith(heuristic.o200k, c), c))))
  rows.push(errorRow("Anthropic, the same calibrated (leave-one-out)", anthropic.map((c) => errorOf(leaveOneOut(c, anthropic), c))))
  const gemini = cases.filter((c) => c.provider === "gemini")
  rows.push(errorRow("Gemini, heuristic", gemini.map((c) => errorOf(estimateWith(heuristic.o200k, c), c))))
  rows.push(errorRow("Gemini, GeminiEstimator", gemini.map((c) => errorOf(estimateWith(heuristic.gemini, c), c))))
  console.log("")
  table(["recorded agent requests vs reported input", "requests", "p50", "p90", "mean", "max"], rows)
  const hidden = cases.filter((c) => c.serverSide).length
  console.log(`(${hidden} requests whose input the provider expands out of sight, server-side tools and MCP servers, are left out)`)
}

interface UsageCase {
  readonly source: { readonly repo: string; readonly commit: string }
  readonly request: ChatRequestLike & { readonly model: string; readonly response_format?: { readonly type?: string } }
  readonly prompt_tokens: number
}

const runCollectedUsage = (): void => {
  const cases = loadUsageSet<UsageCase>("openai-chat-usage").map((c) => {
    const read = Effect.runSync(OpenAiChat.fromRequest(c.request)).value
    const options = { model: c.request.model }
    const encoding = encodingForModel(c.request.model)
    return { ...c, exact: exact[encoding].estimateRequest(read, options).total, heuristic: heuristic[encoding].estimateRequest(read, options).total }
  })
  const parallel = (c: UsageCase) => hasParallelCalls(c.request.messages)
  const withFormat = (c: UsageCase) => c.request.response_format?.type === "json_schema"
  const errorOf = (estimate: number, c: UsageCase) => Math.abs(estimate - c.prompt_tokens) / c.prompt_tokens
  const rows: Array<Array<string>> = []
  const subsets = [
    ["all", cases],
    ["without parallel calls", cases.filter((c) => !parallel(c))],
    ["with a json_schema response format", cases.filter(withFormat)],
    ["cl100k models", cases.filter((c) => encodingForModel(c.request.model) === "cl100k")]
  ] as const
  for (const [label, subset] of subsets) {
    const exactCount = subset.filter((c) => c.exact === c.prompt_tokens).length
    rows.push(errorRow(`exact, ${label} (${exactCount} of ${subset.length} exact)`, subset.map((c) => errorOf(c.exact, c))))
    rows.push(errorRow(`heuristic, ${label}`, subset.map((c) => errorOf(c.heuristic, c))))
  }
  console.log("")
  table(["2024-26 Chat requests (test/data/openai-chat-usage)", "requests", "p50", "p90", "mean", "max"], rows)
}

interface AnthropicCase {
  readonly source: { readonly repo: string; readonly commit: string }
  readonly request: { readonly model: string; readonly thinking?: { readonly type?: string } }
  readonly input_tokens: number
}

/** The Anthropic requests of test/data/anthropic-usage: the heuristic with the documented and measured framing, and calibrated on the other suites. */
const runAnthropicUsage = (): void => {
  const read = loadUsageSet<AnthropicCase>("anthropic-usage").map((c) => ({ c, request: Effect.runSync(Anthropic.fromRequest(c.request)).value }))
  const options = (c: AnthropicCase) => ({ provider: "anthropic" as const, model: c.request.model })
  const errorOf = (estimate: number, c: AnthropicCase) => Math.abs(estimate - c.input_tokens) / c.input_tokens
  const calibrated = new Map<AnthropicCase, number>()
  for (const suite of new Set(read.map((x) => x.c.source.repo))) {
    const calibration = Effect.runSync(Calibration.make(heuristic.o200k))
    for (const { c, request } of read) if (c.source.repo !== suite) Effect.runSync(calibration.recordRequest(claudeGeneration(c.request.model), request, c.input_tokens, options(c)))
    for (const { c, request } of read) if (c.source.repo === suite) calibrated.set(c, calibration.estimatorFor(claudeGeneration(c.request.model)).estimateRequest(request, options(c)).total)
  }
  // before any report: one prior for every Claude model ("claude-*", as the README gives it), from the other suites
  // (see priorsLeavingOutEachSuite)
  const requestOf = new Map(read.map(({ c, request }) => [c, request]))
  const priors = priorsLeavingOutEachSuite(read.map((x) => x.c), (c) => heuristic.o200k.estimateRequest(requestOf.get(c)!, options(c)), (c) => c.input_tokens)
  const priming = new Map([...priors].map(([suite, prior]) => [suite, Effect.runSync(Calibration.make(heuristic.o200k, { priorFactors: { "claude-*": prior } }))]))
  const primed = new Map<AnthropicCase, number>()
  for (const { c, request } of read) {
    primed.set(c, priming.get(c.source.repo)!.estimatorFor(c.request.model).estimateRequest(request, options(c)).total)
  }
  const rows: Array<Array<string>> = []
  const subsets = [
    ["all", read],
    ["with client tools", read.filter((x) => x.request.tools !== undefined && x.request.tools.length > 0)],
    ["with extended thinking or a structured output format", read.filter((x) => x.c.request.thinking?.type === "enabled" || x.request.responseFormat !== undefined)],
    ["Mirascope's, the suite added last", read.filter((x) => x.c.source.repo === "Mirascope/mirascope")]
  ] as const
  for (const [label, subset] of subsets) {
    rows.push(errorRow(`heuristic, ${label}`, subset.map(({ c, request }) => errorOf(heuristic.o200k.estimateRequest(request, options(c)).total, c))))
    rows.push(errorRow(`prior from the other suites, no report yet, ${label}`, subset.map(({ c }) => errorOf(primed.get(c)!, c))))
    rows.push(errorRow(`calibrated on the other suites, ${label}`, subset.map(({ c }) => errorOf(calibrated.get(c)!, c))))
  }
  console.log("")
  table(["Anthropic requests (test/data/anthropic-usage)", "requests", "p50", "p90", "mean", "max"], rows)
}

interface ResponsesCase {
  readonly source: { readonly repo: string; readonly commit: string }
  readonly request: ResponsesRequest & { readonly model: string }
  readonly input_tokens: number
}

/** The Responses requests of test/data/openai-responses-usage: the exact layer's agreement and error, and the heuristic's error. */
const runResponsesUsage = (): void => {
  const read = loadUsageSet<ResponsesCase>("openai-responses-usage").filter(isResponsesInSample).map((c) => {
    const request = Effect.runSync(OpenAiResponses.fromRequest(c.request)).value
    const options = { provider: "openai-responses" as const, model: c.request.model }
    const exactTotal = exact.o200k.estimateRequest(request, options).total
    return {
      kind: responsesKindOf(c.request),
      exact: exactTotal === c.input_tokens,
      exactError: Math.abs(exactTotal - c.input_tokens) / c.input_tokens,
      heuristicError: Math.abs(heuristic.o200k.estimateRequest(request, options).total - c.input_tokens) / c.input_tokens
    }
  })
  const labels: ReadonlyArray<readonly [string, ResponsesKind | undefined]> = [
    ["all", undefined],
    ["plain", "plain"],
    ["with function tools", "tools"],
    ["with a json_schema text format", "format"],
    ["with reasoning items", "reasoning"]
  ]
  const rows: Array<Array<string>> = []
  for (const [label, kind] of labels) {
    const subset = kind === undefined ? read : read.filter((r) => r.kind === kind)
    rows.push(errorRow(`exact layer, ${label}: ${subset.filter((r) => r.exact).length} exact`, subset.map((r) => r.exactError)))
    rows.push(errorRow(`heuristic, ${label}`, subset.map((r) => r.heuristicError)))
  }
  console.log("")
  table(["Responses requests (test/data/openai-responses-usage)", "requests", "p50", "p90", "mean", "max"], rows)
}

interface GeminiCase {
  readonly source: { readonly repo: string; readonly commit: string }
  readonly model: string
  readonly request: { readonly contents?: unknown; readonly tools?: unknown }
  readonly prompt_tokens: number
}

const functionParts = (c: GeminiCase): boolean => /"(functionCall|function_call|functionResponse|function_response)"/.test(JSON.stringify(c.request.contents))

/** The Gemini requests of test/data/gemini-usage: the heuristic estimate, on all and on prompts of 50 tokens or more. */
const runGeminiUsage = (): void => {
  const read = loadUsageSet<GeminiCase>("gemini-usage").map((c) => {
    const request = Effect.runSync(Gemini.fromRequest(c.request)).value
    const errorWith = (e: TokenEstimator.Service) => Math.abs(e.estimateRequest(request, { provider: "gemini", model: c.model }).total - c.prompt_tokens) / c.prompt_tokens
    return { c, error: errorWith(heuristic.o200k), gemini: errorWith(heuristic.gemini) }
  })
  const big = read.filter((x) => x.c.prompt_tokens >= 50)
  const current = big.filter((x) => !/gemini-(1|2\.0)/.test(x.c.model))
  console.log("")
  table(["Gemini requests (test/data/gemini-usage), heuristic", "requests", "p50", "p90", "mean", "max"], [
    errorRow("all", read.map((x) => x.error)),
    errorRow("prompts of 50 tokens or more", big.map((x) => x.error)),
    errorRow("the same on Gemini 2.5 and later", current.map((x) => x.error)),
    errorRow("50 or more, with function declarations", big.filter((x) => x.c.request.tools !== undefined).map((x) => x.error)),
    errorRow("50 or more, with function calls or responses", big.filter((x) => functionParts(x.c)).map((x) => x.error)),
    errorRow("50 or more, Gemini 3", big.filter((x) => /gemini-3/.test(x.c.model)).map((x) => x.error)),
    errorRow(
      "50 or more, Gemini 2.5 with declarations and no function parts",
      big.filter((x) => /gemini-2\.5/.test(x.c.model) && x.c.request.tools !== undefined && !functionParts(x.c)).map((x) => x.error)
    )
  ])
  console.log("")
  table(["the same, GeminiEstimator (the heuristic fitted for Gemini)", "requests", "p50", "p90", "mean", "max"], [
    errorRow("all", read.map((x) => x.gemini)),
    errorRow("prompts of 50 tokens or more", big.map((x) => x.gemini)),
    errorRow("the same on Gemini 2.5 and later", current.map((x) => x.gemini)),
    errorRow("50 or more, Gemini 2.5", big.filter((x) => /gemini-2\.5/.test(x.c.model)).map((x) => x.gemini)),
    errorRow("50 or more, Gemini 3", big.filter((x) => /gemini-3/.test(x.c.model)).map((x) => x.gemini))
  ])
}

export const runRequestTokensBench = (): void => {
  console.log("\n== whole-request counting (estimateRequest) ==")
  runRecordedChat()
  runCollectedUsage()
  runAnthropicUsage()
  runResponsesUsage()
  runGeminiUsage()
  runTranscripts()
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) runRequestTokensBench()
