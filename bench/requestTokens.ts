import { Effect } from "effect"
/**
 * Whole-request counting against the API: the 108 recorded Chat Completions
 * requests of ../shared/data/request-tokens with the `usage.prompt_tokens`
 * the API reported (skipped, with a note, when that folder is not there).
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs bench/requestTokens.ts
 *
 * Accuracy: how many figures the exact counter reproduces (with tools and
 * overall), against the messages-only formula the data's README computes (each
 * message's role, content and name with 3 framing tokens, plus 3 for the
 * reply: what per-message counters do); the heuristic's p50 / p90 / mean / max
 * relative error.
 * Speed: requests per second over the recorded set for the exact and the
 * heuristic count, as a ratio to the exact messages-only count in the same
 * process. `openai-chat-tokens` (the best existing whole-request counter) is
 * not installed here, so there is no comparison with it.
 */
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"
import { pathToFileURL } from "node:url"
import { countOpenAiChatRequest as countRequest } from "../src/exact/index.js"
import type { ChatRequestLike } from "../src/internal/openAiChatPrompt.js"
import { estimateOpenAiChatRequest } from "../src/internal/openAiChatRequestEstimate.js"
import { countOptions, hasDefinitions, KNOWN_DEVIATIONS, loadRequestCases } from "../test/fixtures/requestTokensCases.js"
import { consume, fmt, table, timePerCall } from "./measure.js"

// the exact counter loads gpt-tokenizer's vocabulary lazily; once loaded (top-level await), it runs synchronously
await Effect.runPromise(Effect.all([countRequest({ messages: [] }, { encoding: "o200k" }), countRequest({ messages: [] }, { encoding: "cl100k" })]))
const countOpenAiChatRequest = (...args: Parameters<typeof countRequest>) => Effect.runSync(countRequest(...args))

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

export const runRequestTokensBench = (): void => {
  console.log("\n== whole-request counting (OpenAI Chat) ==")
  const cases = loadRequestCases()
  if (cases.length === 0) {
    console.log("../shared/data/request-tokens is not there: skipped")
    return
  }
  const withTools = cases.filter((c) => hasDefinitions(c.data.request))

  const exactOk = (names: ReadonlyArray<(typeof cases)[number]>) =>
    names.filter(({ data }) => countOpenAiChatRequest(data.request, countOptions(data)).total === data.prompt_tokens).length
  const formulaOk = (names: ReadonlyArray<(typeof cases)[number]>) =>
    names.filter(({ data }) => data.messages_only_tokens === data.prompt_tokens).length
  console.log(
    `exact: ${exactOk(withTools)}/${withTools.length} with tools, ${exactOk(cases)}/${cases.length} overall ` +
      `(${Object.keys(KNOWN_DEVIATIONS).length} known deviations, explained in test/fixtures/requestTokensCases.ts)`
  )
  console.log(`messages-only formula: ${formulaOk(withTools)}/${withTools.length} with tools, ${formulaOk(cases)}/${cases.length} overall`)

  const errors = (subset: ReadonlyArray<(typeof cases)[number]>) =>
    subset
      .map(({ data }) => Math.abs(estimateOpenAiChatRequest(data.request, countOptions(data)).total - data.prompt_tokens) / data.prompt_tokens)
      .sort((a, b) => a - b)
  const pct = (x: number) => `${fmt(100 * x)}%`
  const rows = [
    ["with tools", withTools],
    ["overall", cases]
  ] as const
  table(
    ["heuristic vs API", "requests", "p50", "p90", "mean", "max"],
    rows.map(([label, subset]) => {
      const e = errors(subset)
      return [label, String(e.length), pct(quantile(e, 0.5)), pct(quantile(e, 0.9)), pct(e.reduce((a, b) => a + b, 0) / e.length), pct(e[e.length - 1] ?? NaN)]
    })
  )

  const prepared = cases.map(({ data }) => ({ request: data.request, options: countOptions(data) }))
  const counters = {
    o200k: (t: string) => countO200k(t, plain),
    cl100k: (t: string) => countCl100k(t, plain)
  }
  const tBaseline = timePerCall(() => {
    let s = 0
    for (const p of prepared) s += messagesOnly(p.request, counters[p.options.encoding])
    consume(s)
  })
  const tExact = timePerCall(() => {
    let s = 0
    for (const p of prepared) s += countOpenAiChatRequest(p.request, p.options).total
    consume(s)
  })
  const tHeuristic = timePerCall(() => {
    let s = 0
    for (const p of prepared) s += estimateOpenAiChatRequest(p.request, p.options).total
    consume(s)
  })
  const perSecond = (t: number) => fmt((prepared.length / t) * 1000, 0)
  console.log("")
  table(
    ["counting the recorded set", "requests/s", "time vs exact messages-only"],
    [
      ["exact messages-only (baseline)", perSecond(tBaseline), "1.00x"],
      ["exact whole request", perSecond(tExact), `${fmt(tExact / tBaseline, 2)}x`],
      ["heuristic whole request", perSecond(tHeuristic), `${fmt(tHeuristic / tBaseline, 2)}x`]
    ]
  )
  console.log("openai-chat-tokens is not installed here (no new packages in this run): no speed comparison with it")
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) runRequestTokensBench()
