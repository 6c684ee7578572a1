/**
 * How fast calibration learns a provider whose tokenizer is not public.
 *
 * Claude's and Gemini's tokenizers are not published, so the estimator counts
 * in o200k terms and the calibration layer learns a per-model factor from the
 * input-token usage each response reports. This bench simulates that: prompts
 * are built from held-out corpus messages (English, code, JSON), the
 * "provider" reports `exact o200k × ratio(t)` with a little noise for its own
 * framing, and the true ratio follows a scenario:
 *
 * - cold start: the ratio is 1.25 from the first report (a Claude-like gap);
 * - drift: the ratio moves linearly from 1.0 to 1.25 over 100 reports, then stays;
 * - the same drift with every 25th report a wrong one of 1e9 tokens (another
 *   request's or a session's usage, a bad number): what a too-high report costs.
 *
 * Convergence is measured on the factor, not on single prompts: the ideal
 * factor at report t is `ratio(t) × Σ exact / Σ estimate` over the prompt pool
 * (it also absorbs the heuristic's own average bias), and the bench prints how
 * many reports it takes until the learned factor is within 3% of it and stays
 * there, and the largest gap seen afterwards.
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs bench/calibration.ts
 */
import { Effect } from "effect"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import { pathToFileURL } from "node:url"
import { readMessages } from "../scripts/corpus/corpus.js"
import { Calibration, TokenEstimator } from "../src/index.js"

/** A deterministic PRNG (mulberry32), so every run sees the same stream. */
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

interface Prompt {
  readonly estimate: number
  readonly exact: number
}

/** Prompts of 5 to 40 held-out messages each. */
const prompts = (count: number, seed: number): ReadonlyArray<Prompt> => {
  const base = Effect.runSync(TokenEstimator.makeHeuristic({ encoding: "o200k", messageOverhead: 0 }))
  const pool = readMessages("holdout").filter((m) => m.category === "english" || m.category === "code" || m.category === "json")
  const random = rng(seed)
  return Array.from({ length: count }, () => {
    const n = 5 + Math.floor(random() * 36)
    let estimate = 0
    let exact = 0
    for (let i = 0; i < n; i++) {
      const m = pool[Math.floor(random() * pool.length)]
      if (m === undefined) continue
      estimate += base.estimateText(m.text)
      exact += countTokens(m.text)
    }
    return { estimate, exact }
  })
}

interface Scenario {
  readonly name: string
  readonly ratio: (t: number) => number
  /** Whether report `t` is a wrong one of 1e9 tokens. */
  readonly wrong?: (t: number) => boolean
}

const SCENARIOS: ReadonlyArray<Scenario> = [
  { name: "cold start at 1.25", ratio: () => 1.25 },
  { name: "drift 1.00 -> 1.25 over 100 reports", ratio: (t) => 1 + 0.25 * Math.min(1, t / 100) },
  { name: "the same, every 25th report 1e9", ratio: (t) => 1 + 0.25 * Math.min(1, t / 100), wrong: (t) => t % 25 === 24 }
]

const REPORTS = 300

const run = (scenario: Scenario, pool: ReadonlyArray<Prompt>): { readonly until: number; readonly worstAfter: number; readonly finalGap: number } => {
  const calibration = Effect.runSync(Calibration.make(TokenEstimator.heuristic))
  const model = "claude-like"
  const random = rng(99)
  const bias = pool.reduce((s, p) => s + p.exact, 0) / pool.reduce((s, p) => s + p.estimate, 0)
  const gaps: Array<number> = []
  for (let t = 0; t < REPORTS; t++) {
    const p = pool[t % pool.length] as Prompt
    const ratio = scenario.ratio(t)
    // The provider's count: o200k-exact scaled by the hidden ratio, plus up to ±1% of framing noise.
    const noisy = Math.round(p.exact * ratio * (1 + (random() - 0.5) * 0.02))
    const actual = scenario.wrong?.(t) === true ? 1e9 : noisy
    const calibrated = Math.ceil(p.estimate * calibration.factor(model))
    Effect.runSync(calibration.record(model, calibrated, actual))
    const ideal = scenario.ratio(t + 1) * bias
    gaps.push(Math.abs(calibration.factor(model) / ideal - 1))
  }
  // Reports until the factor is within 3% and stays there for the rest of the stream.
  let until = gaps.length
  for (let t = gaps.length - 1; t >= 0; t--) {
    if ((gaps[t] as number) > 0.03) break
    until = t + 1
  }
  const worstAfter = gaps.slice(until).reduce((m, g) => Math.max(m, g), 0)
  return { until, worstAfter, finalGap: gaps[gaps.length - 1] ?? NaN }
}

export const runCalibrationBench = (): void => {
  const pool = prompts(REPORTS, 7)
  const tokens = pool.reduce((s, p) => s + p.exact, 0) / pool.length
  console.log(`\n## calibration convergence (simulated reports, prompts of ~${Math.round(tokens)} o200k tokens, default options)\n`)
  const rows = SCENARIOS.map((s) => {
    const r = run(s, pool)
    return [s.name, String(r.until), `${(r.worstAfter * 100).toFixed(1)}%`, `${(r.finalGap * 100).toFixed(1)}%`]
  })
  const header = ["scenario", "reports until within 3% (and stays)", "worst gap after", "gap at the end"]
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ")
  console.log([line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n"))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runCalibrationBench()
}
