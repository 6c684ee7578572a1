/**
 * What knowing an encoding's vocabulary would be worth to the estimator: a
 * study, not part of the fit. The character-class machine cannot tell whether
 * a word is one token of the vocabulary or several (why Welsh or Corsican comes
 * out 20-30% under while Italian does not); this script measures how much of
 * the error a check of each word against the vocabulary would remove.
 *
 * For each category and encoding it fits, on the train split, a correction
 * of the shipped estimate by two counts, by weighted least squares on the
 * relative error (the fit's objective):
 *
 *   estimate' = a * estimate + b * (words the vocabulary lacks) + c * (words it holds)
 *
 * where a word is a run of letters (and marks) of at least `--min-letters`
 * (default 2) that the vocabulary holds, with the blank before it, as one
 * token, or not. A word the text ends with is not checked: a check made when
 * the word ends keeps an estimate that never falls as text is appended only
 * if the last word waits for what follows it. It then prints the held-out p90
 * and total bias before and after.
 *
 * Run: node_modules/.bin/node --import tsx scripts/corpus/vocabulary-study.ts [--min-letters=N]
 *
 * A correction fitted per category after the fact is an upper bound of what a
 * refit with such a count would give, less what the shared costs would give
 * up. The README's "Benchmarks" section gives the figures, and what a check of
 * every word costs the estimator's speed.
 */
import { encode as encodeCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { encode as encodeO200k } from "gpt-tokenizer/encoding/o200k_base"
import { heuristicTextRule } from "../../src/TokenEstimator.js"
import { type CorpusMessage, readMessages } from "./corpus.js"
import { formatTable, pct, rowOf } from "./evaluate.js"
import { exactCountOf } from "./exact.js"
import { solve } from "./solve.js"

type OpenAiEncoding = "o200k" | "cl100k"

const CATEGORIES_STUDIED = ["english", "latin", "cyrillic", "greek", "code", "json"] as const
const minLetters = Number(process.argv.find((a) => a.startsWith("--min-letters="))?.slice("--min-letters=".length) ?? 2)

/** Whether the vocabulary holds " word" as one token, per encoding, memoized. */
const holdsWord = (encoding: OpenAiEncoding): ((word: string) => boolean) => {
  const encode = encoding === "o200k" ? encodeO200k : encodeCl100k
  const memo = new Map<string, boolean>()
  return (word) => {
    let held = memo.get(word)
    if (held === undefined) {
      held = encode(` ${word}`).length === 1
      memo.set(word, held)
    }
    return held
  }
}

interface Observation {
  /** The shipped estimate, the words the vocabulary lacks, the words it holds. */
  readonly x: readonly [number, number, number]
  readonly y: number
  readonly len: number
}

const observe = (messages: ReadonlyArray<CorpusMessage>, encoding: OpenAiEncoding): Array<Observation> => {
  const estimate = heuristicTextRule(encoding)
  const holds = holdsWord(encoding)
  const out: Array<Observation> = []
  for (const m of messages) {
    const y = exactCountOf(encoding, m.text)
    if (y === 0) continue
    let lacking = 0
    let held = 0
    for (const w of m.text.matchAll(/\p{L}[\p{L}\p{M}]*/gu)) {
      const word = w[0]
      if (word.length < minLetters || w.index + word.length === m.text.length) continue
      if (holds(word)) held++
      else lacking++
    }
    out.push({ x: [estimate(m.text), lacking, held], y, len: m.text.length })
  }
  return out
}

/** Weighted least squares of y on x with weights 1 / y^2 (relative error): the normal equations, solved as the fit solves its own. */
const fitCorrection = (train: ReadonlyArray<Observation>): Float64Array => {
  const a = Array.from({ length: 3 }, () => new Float64Array(3))
  const b = new Float64Array(3)
  for (const o of train) {
    const w = 1 / (o.y * o.y)
    for (let i = 0; i < 3; i++) {
      b[i]! += w * o.x[i]! * o.y
      for (let j = 0; j < 3; j++) a[i]![j]! += w * o.x[i]! * o.x[j]!
    }
  }
  return solve(a, b)
}

const rows: Array<Array<string>> = []
const train = readMessages("train")
const holdout = readMessages("holdout")
for (const encoding of ["o200k", "cl100k"] as const) {
  for (const category of CATEGORIES_STUDIED) {
    const trainObs = observe(train.filter((m) => m.category === category), encoding)
    const heldObs = observe(holdout.filter((m) => m.category === category), encoding)
    const [a = 1, b = 0, c = 0] = fitCorrection(trainObs)
    const before = rowOf(heldObs.map((o) => ({ est: o.x[0], exact: o.y, len: o.len })))
    const after = rowOf(heldObs.map((o) => ({ est: Math.max(1, Math.round(a * o.x[0] + b * o.x[1] + c * o.x[2])), exact: o.y, len: o.len })))
    const lacking = heldObs.reduce((s, o) => s + o.x[1], 0)
    const words = heldObs.reduce((s, o) => s + o.x[1] + o.x[2], 0)
    rows.push([
      `${encoding} ${category}`,
      String(before.n),
      pct(words === 0 ? NaN : lacking / words),
      `${a.toFixed(2)} / ${b.toFixed(2)} / ${c.toFixed(2)}`,
      `${pct(before.p90)} → ${pct(after.p90)}`,
      `${pct(before.bias, true)} → ${pct(after.bias, true)}`
    ])
  }
}
console.log(`# a vocabulary check: held-out projects, words of ${minLetters}+ letters, the correction fitted on the train side\n`)
console.log(formatTable(["category", "msgs", "words lacking", "a / b / c", "p90", "bias"], rows))
