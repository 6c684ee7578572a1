/**
 * Fits the weights of the character-class estimator (`src/internal/heuristic.ts`)
 * against the exact o200k_base and cl100k_base tokenizers on the TRAIN split of
 * `corpus/`, and writes `src/internal/weights.ts`.
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs scripts/corpus/fit.ts
 *
 * Objective: relative error per message. Weighted least squares minimizes the
 * mean squared relative error ((est - exact) / exact)^2, with every category
 * carrying the same total weight (so the many English messages do not drown
 * the Korean ones), plus one pseudo-observation per category that pulls the
 * category's corpus total toward the exact total (keeps the bias small).
 * (Squared rather than absolute relative error: an L1 fit by reweighting was
 * tried and gave a better median but a worse p90 on the holdout. With the
 * regex-mirroring features of `heuristic.ts`, reweighting toward higher powers
 * of the error, other weights for the totals and length-weighted messages were
 * compared by 5-fold cross-validation over TRAIN documents: none was better.)
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"
import {
  CJK_END,
  CJK_START,
  FEATURE_COUNT,
  FEATURE_NAMES,
  type FeatureName,
  featuresInto,
  HANGUL_END,
  HANGUL_START,
  type HeuristicSpec,
  linearEstimate,
  makeHeuristicTable,
  packCosts
} from "../../src/internal/heuristic.js"
import { CATEGORIES, readMessages } from "./corpus.js"
import { type Encoding, exactCounts, saveExactCounts } from "./exact.js"

const ROOT = path.resolve(import.meta.dirname, "..", "..")
const OUT = path.join(ROOT, "src/internal/weights.ts")

/** Cost class (0: 1 token, 1: 2 tokens, 2: 3+) of every code point of a range encoded alone. */
const costMap = (count: (s: string) => number, start: number, end: number): Uint8Array => {
  const out = new Uint8Array(end - start + 1)
  for (let cp = start; cp <= end; cp++) out[cp - start] = Math.min(count(String.fromCharCode(cp)), 3) - 1
  return out
}

/** Solves the symmetric system `a x = b` (Gaussian elimination with partial pivoting). */
const solve = (a: Array<Float64Array>, b: Float64Array): Float64Array => {
  const n = b.length
  const m = a.map((row, i) => {
    const r = new Float64Array(n + 1)
    r.set(row)
    r[n] = b[i] as number
    return r
  })
  for (let col = 0; col < n; col++) {
    let pivot = col
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r
    const tmp = m[col]!
    m[col] = m[pivot]!
    m[pivot] = tmp
    const p = m[col]![col]!
    if (Math.abs(p) < 1e-12) continue
    for (let r = 0; r < n; r++) {
      if (r === col) continue
      const f = m[r]![col]! / p
      if (f === 0) continue
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!
    }
  }
  const x = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const p = m[i]![i]!
    x[i] = Math.abs(p) < 1e-12 ? 0 : m[i]![n]! / p
  }
  return x
}

/**
 * Pinned weights. The corpus has only a few dozen letters outside ASCII, CJK, kana and
 * Hangul (accented Latin, Cyrillic, Hebrew...), far too few to fit; such a letter is priced as a
 * word letter plus 0.3 tokens, which keeps e.g. Cyrillic text near o200k's ~0.3-0.5 tokens per letter
 * instead of at whatever sign a handful of samples would give.
 */
const PRIORS: Partial<Record<FeatureName, number>> = { otherLetter: 0.3 }

interface Sample {
  readonly category: number
  readonly x: Float64Array
  readonly y: number
}

const fitWeights = (samples: ReadonlyArray<Sample>): Float64Array => {
  const nCat = CATEGORIES.length
  const perCategory = new Float64Array(nCat)
  for (const s of samples) perCategory[s.category]!++
  const catTotals = Array.from({ length: nCat }, () => ({ x: new Float64Array(FEATURE_COUNT), y: 0 }))
  for (const s of samples) {
    const t = catTotals[s.category]!
    for (let j = 0; j < FEATURE_COUNT; j++) t.x[j]! += s.x[j]!
    t.y += s.y
  }
  const BIAS_WEIGHT = 2
  const a = Array.from({ length: FEATURE_COUNT }, () => new Float64Array(FEATURE_COUNT))
  const b = new Float64Array(FEATURE_COUNT)
  const add = (x: Float64Array, y: number, w: number): void => {
    for (let i = 0; i < FEATURE_COUNT; i++) {
      const xi = x[i]!
      if (xi === 0) continue
      const wxi = w * xi
      b[i]! += wxi * y
      const row = a[i]!
      for (let j = 0; j < FEATURE_COUNT; j++) row[j]! += wxi * x[j]!
    }
  }
  // Relative error: the row is divided by y, i.e. weighted by 1 / y^2.
  for (const s of samples) add(s.x, s.y, 1 / perCategory[s.category]! / (s.y * s.y))
  // Corpus totals per category, as relative errors, with a fixed weight.
  for (const t of catTotals) if (t.y > 0) add(t.x, t.y, BIAS_WEIGHT / (t.y * t.y))
  // A tiny ridge keeps features absent from the corpus at zero; features the corpus barely has
  // are pinned to a prior instead of being fitted on a handful of characters.
  for (let i = 0; i < FEATURE_COUNT; i++) {
    const prior = PRIORS[FEATURE_NAMES[i] as FeatureName]
    if (prior !== undefined) {
      a[i]![i]! += 1e6
      b[i]! += 1e6 * prior
    } else a[i]![i]! += 1e-9
  }
  return solve(a, b)
}

const main = (): void => {
  const maps = {
    o200k: { cjk: costMap(countO200k, CJK_START, CJK_END), hangul: costMap(countO200k, HANGUL_START, HANGUL_END) },
    cl100k: { cjk: costMap(countCl100k, CJK_START, CJK_END), hangul: costMap(countCl100k, HANGUL_START, HANGUL_END) }
  }
  const train = readMessages("train")
  const specs: Record<Encoding, HeuristicSpec> = {} as Record<Encoding, HeuristicSpec>
  for (const encoding of ["o200k", "cl100k"] as const) {
    const cjk = packCosts(maps[encoding].cjk)
    const hangul = packCosts(maps[encoding].hangul)
    const zero = Object.fromEntries(FEATURE_NAMES.map((n) => [n, 0])) as Record<FeatureName, number>
    const table = makeHeuristicTable({ encoding, weights: zero, cjk, hangul })
    const samples: Array<Sample> = []
    for (const m of train) {
      const y = exactCounts(m.text)[encoding === "o200k" ? 0 : 1]
      if (y === 0) continue
      const x = new Float64Array(FEATURE_COUNT)
      featuresInto(m.text, table.classes, x)
      samples.push({ category: CATEGORIES.indexOf(m.category), x, y })
    }
    const beta = fitWeights(samples)
    const weights = Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, Number(beta[i]!.toPrecision(6))])) as Record<FeatureName, number>
    specs[encoding] = { encoding: encoding === "o200k" ? "o200k_base" : "cl100k_base", weights, cjk, hangul }
    // Train-set summary, to see the fit at a glance.
    const fitted = makeHeuristicTable(specs[encoding])
    const line: Array<string> = []
    for (let c = 0; c < CATEGORIES.length; c++) {
      const errs = samples.filter((s) => s.category === c).map((s) => Math.abs(Math.max(1, Math.round(linearEstimate(s.x, fitted.weights))) - s.y) / s.y).sort((a, b) => a - b)
      line.push(`${CATEGORIES[c]} p90=${((errs[Math.floor(errs.length * 0.9)] ?? 0) * 100).toFixed(1)}%`)
    }
    console.log(`${encoding} train: ${line.join("  ")}`)
  }
  saveExactCounts()
  fs.writeFileSync(OUT, render(specs))
  console.log(`wrote ${path.relative(ROOT, OUT)}`)
}

const render = (specs: Record<Encoding, HeuristicSpec>): string => {
  const spec = (name: string, s: HeuristicSpec): string =>
    [
      `/** Fitted against gpt-tokenizer's exact ${s.encoding}. */`,
      `export const ${name}Spec: HeuristicSpec = {`,
      `  encoding: ${JSON.stringify(s.encoding)},`,
      `  weights: {`,
      ...FEATURE_NAMES.map((n) => `    ${n}: ${s.weights[n]},`),
      `  },`,
      `  cjk: ${JSON.stringify(s.cjk)},`,
      `  hangul: ${JSON.stringify(s.hangul)}`,
      `}`,
      ``,
      `/** The ready-to-use ${s.encoding} table. */`,
      `export const ${name}: HeuristicTable = /* @__PURE__ */ makeHeuristicTable(${name}Spec)`,
      ``
    ].join("\n")
  return [
    "/**",
    " * Fitted tables of the character-class token estimator (see `heuristic.ts`).",
    " *",
    " * GENERATED FILE, do not edit. Produced by `scripts/corpus/fit.ts` from the",
    " * train split of `corpus/` (see `corpus/SOURCES.md`) against gpt-tokenizer's",
    " * exact encoders; regenerate with",
    " * `node_modules/.bin/node node_modules/tsx/dist/cli.mjs scripts/corpus/fit.ts`.",
    " * `cjk` / `hangul` pack the single-code-point token cost of U+4E00–U+9FFF and",
    " * U+AC00–U+D7A3 (three code points per character).",
    " *",
    " * @internal",
    " */",
    `import { type HeuristicSpec, type HeuristicTable, makeHeuristicTable } from "./heuristic.js"`,
    "",
    spec("o200k", specs.o200k),
    spec("cl100k", specs.cl100k)
  ].join("\n")
}

main()
