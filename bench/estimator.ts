/**
 * Accuracy and speed of the character-class token estimator on the HOLDOUT
 * split of `corpus/` (whole source documents the fit never saw).
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs bench/estimator.ts
 *
 * Accuracy: per category and overall, p50/p90 of |est - exact| / exact per
 * message (all messages, and messages of 200+ UTF-16 code units) and the
 * corpus-total bias (sum est / sum exact - 1), for our o200k and cl100k tables
 * (each against its own exact encoder) and, against exact o200k, the seed rule,
 * chars/4 and tokenx.
 * Speed: UTF-16 code units per second of our estimator, and the ratio to
 * gpt-tokenizer's `countTokens` with its merge cache cleared before each pass.
 */
import { estimateTokenCount as tokenx } from "tokenx"
import * as cl100kExact from "gpt-tokenizer/encoding/cl100k_base"
import * as o200kExact from "gpt-tokenizer/encoding/o200k_base"
import { pathToFileURL } from "node:url"
import { CATEGORIES, type CorpusMessage, readMessages } from "../scripts/corpus/corpus.js"
import { estimateTextWith } from "../src/internal/heuristic.js"
import { cl100k, o200k } from "../src/internal/weights.js"
import { seedTextRule } from "../src/TokenEstimator.js"

/** The seed article's rule (CJK ideograph 2.0, other non-whitespace 0.25), as the seed layer implements it. */
const seedRule = seedTextRule()

const charsOver4 = (text: string): number => Math.ceil(text.length / 4)

interface Estimator {
  readonly name: string
  readonly truth: "o200k" | "cl100k"
  readonly estimate: (text: string) => number
}

const ESTIMATORS: ReadonlyArray<Estimator> = [
  { name: "heuristic o200k", truth: "o200k", estimate: (t) => estimateTextWith(t, o200k) },
  { name: "heuristic cl100k", truth: "cl100k", estimate: (t) => estimateTextWith(t, cl100k) },
  { name: "seed rule", truth: "o200k", estimate: seedRule },
  { name: "chars/4", truth: "o200k", estimate: charsOver4 },
  { name: "tokenx 2.2.0", truth: "o200k", estimate: (t) => tokenx(t) }
]

interface Row {
  readonly p50: number
  readonly p90: number
  readonly p50Long: number
  readonly p90Long: number
  readonly bias: number
  readonly n: number
  readonly nLong: number
}

const quantile = (sorted: ReadonlyArray<number>, q: number): number =>
  sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number)

const rowOf = (pairs: ReadonlyArray<{ readonly est: number; readonly exact: number; readonly len: number }>): Row => {
  const all: Array<number> = []
  const long: Array<number> = []
  let sumEst = 0
  let sumExact = 0
  for (const p of pairs) {
    if (p.exact === 0) continue
    const e = Math.abs(p.est - p.exact) / p.exact
    all.push(e)
    if (p.len >= 200) long.push(e)
    sumEst += p.est
    sumExact += p.exact
  }
  all.sort((a, b) => a - b)
  long.sort((a, b) => a - b)
  return {
    p50: quantile(all, 0.5),
    p90: quantile(all, 0.9),
    p50Long: quantile(long, 0.5),
    p90Long: quantile(long, 0.9),
    bias: sumEst / sumExact - 1,
    n: all.length,
    nLong: long.length
  }
}

const pct = (x: number, signed = false): string =>
  Number.isNaN(x) ? "-" : `${signed && x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ")
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n")
}

const accuracy = (messages: ReadonlyArray<CorpusMessage>): void => {
  const exact = {
    o200k: messages.map((m) => o200kExact.countTokens(m.text)),
    cl100k: messages.map((m) => cl100kExact.countTokens(m.text))
  }
  const groups: ReadonlyArray<string> = [...CATEGORIES, "overall"]
  for (const est of ESTIMATORS) {
    const estimates = messages.map((m) => est.estimate(m.text))
    const rows = groups.map((g) => {
      const pairs = messages.flatMap((m, i) =>
        g === "overall" || m.category === g ? [{ est: estimates[i] as number, exact: exact[est.truth][i] as number, len: m.text.length }] : []
      )
      const r = rowOf(pairs)
      return [g, String(r.n), pct(r.p50), pct(r.p90), String(r.nLong), pct(r.p50Long), pct(r.p90Long), pct(r.bias, true)]
    })
    console.log(`\n## ${est.name} vs exact ${est.truth}_base (holdout)\n`)
    console.log(table(["category", "msgs", "p50", "p90", "msgs200+", "p50 200+", "p90 200+", "total bias"], rows))
  }
}

/** Best-of-rounds throughput of `f` over `texts`, in code units per second. */
const throughput = (texts: ReadonlyArray<string>, f: (t: string) => number, rounds: number, before?: () => void): number => {
  const units = texts.reduce((s, t) => s + t.length, 0)
  let best = Infinity
  let sink = 0
  for (let r = 0; r < rounds; r++) {
    before?.()
    const t0 = process.hrtime.bigint()
    for (const t of texts) sink += f(t)
    const dt = Number(process.hrtime.bigint() - t0) / 1e9
    if (dt < best) best = dt
  }
  if (sink === -1) console.log("unreachable")
  return units / best
}

const speed = (messages: ReadonlyArray<CorpusMessage>): void => {
  const sets: ReadonlyArray<[string, ReadonlyArray<string>]> = [
    ["mixed (all categories)", messages.map((m) => m.text)],
    ["english + code", messages.filter((m) => m.category === "english" || m.category === "code").map((m) => m.text)]
  ]
  const rows = sets.map(([name, texts]) => {
    // Warm up the JIT, then measure.
    throughput(texts, (t) => estimateTextWith(t, o200k), 5)
    const ours = throughput(texts, (t) => estimateTextWith(t, o200k), 20)
    throughput(texts, (t) => o200kExact.countTokens(t), 1)
    const exact = throughput(texts, (t) => o200kExact.countTokens(t), 3, () => o200kExact.clearMergeCache())
    const units = texts.reduce((s, t) => s + t.length, 0)
    return [name, String(units), `${(ours / 1e6).toFixed(1)} M/s`, `${(exact / 1e6).toFixed(2)} M/s`, `${(ours / exact).toFixed(0)}x`]
  })
  console.log("\n## speed (o200k table; gpt-tokenizer countTokens with its merge cache cleared before each pass)\n")
  console.log(table(["text", "code units", "heuristic", "gpt-tokenizer", "ratio"], rows))
}

export const runEstimatorBench = async (): Promise<void> => {
  const holdout = readMessages("holdout")
  const all = readMessages()
  console.log(`# token estimator bench: ${holdout.length} holdout messages, ${holdout.reduce((s, m) => s + m.text.length, 0)} code units`)
  accuracy(holdout)
  speed(all)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await runEstimatorBench()
}
