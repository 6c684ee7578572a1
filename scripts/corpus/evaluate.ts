/**
 * Accuracy of an estimator on the corpus, per category and split: p50/p90 of
 * the per-message relative error (all messages and messages of 200+ UTF-16
 * code units) and the corpus-total bias. Shared by the fit (to print where it
 * stands) and the estimator bench.
 */
import { CATEGORIES, type Category, type CorpusMessage } from "./corpus.js"
import { type Encoding, exactCountOf } from "./exact.js"

export interface Row {
  readonly n: number
  readonly p50: number
  readonly p90: number
  readonly nLong: number
  readonly p90Long: number
  readonly bias: number
}

const quantile = (sorted: ReadonlyArray<number>, q: number): number =>
  sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number)

export const rowOf = (pairs: ReadonlyArray<{ readonly est: number; readonly exact: number; readonly len: number }>): Row => {
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
  return { n: all.length, p50: quantile(all, 0.5), p90: quantile(all, 0.9), nLong: long.length, p90Long: quantile(long, 0.9), bias: sumExact === 0 ? NaN : sumEst / sumExact - 1 }
}

/** Rows per category (and for `"overall"`) of `estimate` against exact `encoding` counts. */
export const evaluate = (
  messages: ReadonlyArray<CorpusMessage>,
  encoding: Encoding,
  estimate: (text: string) => number,
  key: (m: CorpusMessage) => string = (m) => m.category
): Map<string, Row> => {
  const byKey = new Map<string, Array<{ est: number; exact: number; len: number }>>()
  const all: Array<{ est: number; exact: number; len: number }> = []
  for (const m of messages) {
    const exact = exactCountOf(encoding, m.text)
    const p = { est: estimate(m.text), exact, len: m.text.length }
    const k = key(m)
    byKey.set(k, [...(byKey.get(k) ?? []), p])
    all.push(p)
  }
  const out = new Map<string, Row>()
  const order: ReadonlyArray<string> = key === undefined ? CATEGORIES : [...byKey.keys()]
  for (const c of CATEGORIES as ReadonlyArray<Category>) if (byKey.has(c)) out.set(c, rowOf(byKey.get(c) ?? []))
  for (const k of order) if (!out.has(k)) out.set(k, rowOf(byKey.get(k) ?? []))
  out.set("overall", rowOf(all))
  return out
}

export const pct = (x: number, signed = false): string => (Number.isNaN(x) ? "-" : `${signed && x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`)

export const formatTable = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ")
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n")
}
