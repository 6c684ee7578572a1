import { describe, expect, it } from "@effect/vitest"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import { readMessages } from "../scripts/corpus/corpus.js"
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
