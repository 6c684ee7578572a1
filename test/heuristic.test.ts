import { describe, expect, it } from "@effect/vitest"
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import { CATEGORIES, readMessages } from "../scripts/corpus/corpus.js"
import { estimateTextWith, FEATURE_COUNT, FEATURE_NAMES, featuresInto, linearEstimate, rawEstimateWith } from "../src/internal/heuristic.js"
import { cl100k, o200k } from "../src/internal/weights.js"

const feature = (text: string, name: (typeof FEATURE_NAMES)[number]): number => {
  const out = new Float64Array(FEATURE_COUNT)
  featuresInto(text, o200k.classes, out)
  return out[FEATURE_NAMES.indexOf(name)] ?? NaN
}

describe("estimateTextWith", () => {
  it("counts the empty string as zero tokens", () => {
    expect(estimateTextWith("", o200k)).toBe(0)
    expect(estimateTextWith("", cl100k)).toBe(0)
  })

  it("counts any non-empty text as at least one token", () => {
    for (const text of [" ", "\n", "a", ".", "中", "😀"]) {
      expect(estimateTextWith(text, o200k)).toBeGreaterThanOrEqual(1)
    }
  })

  it("grows with the text: a repeated paragraph costs about n times one copy", () => {
    const para = "The quick brown fox jumps over the lazy dog, then naps in the warm afternoon sun.\n\n"
    const one = estimateTextWith(para, o200k)
    let prev = 0
    for (let n = 1; n <= 16; n *= 2) {
      const est = estimateTextWith(para.repeat(n), o200k)
      expect(est).toBeGreaterThan(prev)
      expect(Math.abs(est - n * one)).toBeLessThanOrEqual(n)
      prev = est
    }
  })

  it("is deterministic and independent of earlier calls", () => {
    const text = "const x = { a: 1, b: [2, 3] } // 注释 😀"
    const first = estimateTextWith(text, o200k)
    estimateTextWith("something else entirely 12345", o200k)
    expect(estimateTextWith(text, o200k)).toBe(first)
  })

  it("counts an astral emoji once per code point, not once per surrogate", () => {
    expect(feature("😀", "astral")).toBe(1)
    expect(feature("😀😀😀", "astral")).toBe(3)
    expect(feature("😀", "symbol")).toBe(0)
  })

  it("counts a lone surrogate as one symbol without reading past the end", () => {
    expect(feature("\ud83d", "symbol")).toBe(1)
    expect(feature("\ude00x", "symbol")).toBe(1)
    expect(estimateTextWith("\ud83d", o200k)).toBeGreaterThanOrEqual(1)
  })

  it("agrees exactly with the weighted feature counts the fit sees", () => {
    const features = new Float64Array(FEATURE_COUNT)
    for (const m of readMessages("holdout").filter((_, i) => i % 7 === 0)) {
      for (const table of [o200k, cl100k]) {
        featuresInto(m.text, table.classes, features)
        expect(rawEstimateWith(m.text, table)).toBeCloseTo(linearEstimate(features, table.weights), 6)
      }
    }
  })

  it("prices letters of scripts the corpus lacks (Cyrillic, Greek) above zero", () => {
    const ru = "Быстрая оценка количества токенов для текста"
    const el = "Γρήγορη εκτίμηση του αριθμού των λέξεων"
    expect(estimateTextWith(ru, o200k)).toBeGreaterThan(ru.length / 6)
    expect(estimateTextWith(el, o200k)).toBeGreaterThan(el.length / 6)
  })

  it("splits digit runs into groups of three like o200k", () => {
    expect(feature("1234567", "digitGroups")).toBe(3)
    expect(feature("12 345", "digitGroups")).toBe(2)
  })

  it("starts a new word at a camelCase boundary", () => {
    expect(feature("fooBarBaz", "words")).toBe(3)
    expect(feature("HTTPServer", "words")).toBe(1)
  })

  it("counts the blank before a digit group, which the split regex never joins to the digits", () => {
    expect(feature("in 2019", "digitsAfterSpace")).toBe(1)
    expect(feature("x  12", "digitsAfterSpace")).toBe(1)
    expect(feature("a\n 1", "digitsAfterSpace")).toBe(1)
    expect(feature("v2 x2 (3)", "digitsAfterSpace")).toBe(0)
  })

  it("counts an indentation of two or more blanks after a line break as a run of its own", () => {
    expect(feature("{\n    \"a\": 1,\n    \"b\": 2\n}", "indentRuns")).toBe(2)
    expect(feature("a\n b", "indentRuns")).toBe(0)
    expect(feature("a\n\t\tb", "indentRuns")).toBe(1)
    // Blanks between two line breaks belong to the one newline run.
    expect(feature("a\n   \n\nb", "indentRuns")).toBe(0)
    expect(feature("a\n   \n\nb", "newlineRuns")).toBe(1)
  })

  it("tells path and identifier marks before a word from other marks", () => {
    const url = "https://api.github.com/users/octo-org/subscriptions_url"
    // ".github", ".com", "/users", "/octo", "-org", "/subscriptions", "_url" ("://" is a 3-mark run);
    // four of them have 4+ letters, one 7+.
    expect(feature(url, "wordAfterLink")).toBe(7)
    expect(feature(url, "wordAfterPunct1")).toBe(0)
    expect(feature(url, "linkWordLen4")).toBe(4)
    expect(feature(url, "linkWordLen7")).toBe(1)
    expect(feature("/repos/Codertocat/Hello-World", "capitalAfterLink")).toBe(3)
    expect(feature('say "hi" (now)', "wordAfterQuote")).toBe(1)
    expect(feature('say "hi" (now)', "wordAfterPunct1")).toBe(1)
  })

  it("prices CJK text far above chars/4", () => {
    const zh = "我们需要一个快速而准确的词元估算器，用于大语言模型的文本。"
    const est = estimateTextWith(zh, o200k)
    expect(est).toBeGreaterThan(zh.length / 2)
    expect(Math.abs(est - countTokens(zh)) / countTokens(zh)).toBeLessThan(0.35)
  })

  it("stays within 15% of exact o200k on the total of real holdout messages of every category", () => {
    const holdout = readMessages("holdout")
    for (const category of ["english", "chinese", "japanese", "korean", "code", "json", "emoji"] as const) {
      const sample = holdout.filter((m) => m.category === category).slice(0, 20)
      expect(sample.length).toBeGreaterThan(0)
      let est = 0
      let exact = 0
      for (const m of sample) {
        est += estimateTextWith(m.text, o200k)
        exact += countTokens(m.text)
      }
      expect(Math.abs(est / exact - 1), category).toBeLessThan(0.15)
    }
  })

  it("keeps the p90 error of holdout messages of 200+ characters under 12% in every category, for both encodings", () => {
    const long = readMessages("holdout").filter((m) => m.text.length >= 200)
    for (const [table, count] of [
      [o200k, countTokens],
      [cl100k, countCl100k]
    ] as const) {
      for (const category of CATEGORIES) {
        const errors = long
          .filter((m) => m.category === category)
          .map((m) => {
            const exact = count(m.text)
            return Math.abs(estimateTextWith(m.text, table) - exact) / exact
          })
          .sort((a, b) => a - b)
        expect(errors.length).toBeGreaterThan(20)
        expect(errors[Math.floor(errors.length * 0.9)], `${table.encoding} ${category}`).toBeLessThan(0.12)
      }
    }
  })

  it("keeps most real holdout messages of 200+ characters within 25% of exact o200k", () => {
    const long = readMessages("holdout").filter((m) => m.text.length >= 200)
    let within = 0
    for (const m of long) {
      const exact = countTokens(m.text)
      if (Math.abs(estimateTextWith(m.text, o200k) - exact) / exact <= 0.25) within++
    }
    expect(within / long.length).toBeGreaterThan(0.95)
  })
})
