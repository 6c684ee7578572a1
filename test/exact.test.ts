import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import * as cl100kBase from "gpt-tokenizer/encoding/cl100k_base"
import * as o200kBase from "gpt-tokenizer/encoding/o200k_base"
import { layerCl100k, layerExact, layerO200k, loadTextCounter, makeExact } from "../src/exact/index.js"
import { countInParts, heapMerge, partEnd } from "../src/exact/tokenizer.js"
import { Block, Message } from "../src/index.js"
import { TokenEstimator } from "../src/TokenEstimator.js"
import { intBetween } from "./arbitraries.js"

const samples = [
  "hello world",
  "What's the weather in Oslo tomorrow?",
  "帮我查一下北京到上海的高铁票。",
  "東京の天気を教えてください。",
  "서울 날씨 어때요?",
  "function add(a, b) {\n  return a + b\n}\n",
  "Summarize the last three commits 🚀",
  "{\"city\":\"Oslo\",\"units\":\"celsius\",\"limit\":42}"
]

const countText = (text: string, encoding: "o200k" | "cl100k"): number => Effect.runSync(loadTextCounter(encoding))(text)

describe("exact estimators", () => {
  beforeAll(() => Effect.runPromise(Effect.all([loadTextCounter("o200k"), loadTextCounter("cl100k")])))

  it("count texts exactly as gpt-tokenizer's o200k_base does", async () => {
    const exact = await Effect.runPromise(makeExact({ encoding: "o200k" }))
    for (const s of samples) expect(exact.estimateText(s)).toBe(o200kBase.countTokens(s))
  })

  it("count texts exactly as gpt-tokenizer's cl100k_base does", async () => {
    const exact = await Effect.runPromise(makeExact({ encoding: "cl100k" }))
    for (const s of samples) expect(exact.estimateText(s)).toBe(cl100kBase.countTokens(s))
  })

  it("the two encodings differ where their vocabularies do", () => {
    const s = samples[2]!
    expect(countText(s, "o200k")).not.toBe(countText(s, "cl100k"))
  })

  it("count special-token text as ordinary text instead of throwing", () => {
    expect(() => o200kBase.countTokens("a <|endoftext|> b")).toThrow()
    expect(countText("a <|endoftext|> b", "o200k")).toBeGreaterThan(3)
    expect(countText("a <|endoftext|> b", "cl100k")).toBeGreaterThan(3)
  })

  it("count the empty text as 0", () => {
    expect(countText("", "o200k")).toBe(0)
  })

  it("apply the shared counting rules and a 4-token message overhead by default", async () => {
    const exact = await Effect.runPromise(makeExact({ encoding: "o200k" }))
    const call = Block.toolCall("c1", "get_weather", { city: "Oslo" })
    const m = Message.assistant([Block.text("Let me check."), call])
    const expected =
      4 +
      o200kBase.countTokens("Let me check.") +
      o200kBase.countTokens("get_weather") +
      o200kBase.countTokens(JSON.stringify({ city: "Oslo" }))
    expect(exact.estimateMessage(m)).toBe(expected)
  })

  it.effect("layerExact takes the encoding and the overhead", () =>
    Effect.gen(function* () {
      const estimator = yield* TokenEstimator
      expect(estimator.estimateMessage(Message.user("hello world"))).toBe(cl100kBase.countTokens("hello world") + 1)
    }).pipe(Effect.provide(layerExact({ encoding: "cl100k", messageOverhead: 1 })))
  )

  it.effect("layerO200k counts with o200k", () =>
    Effect.gen(function* () {
      const estimator = yield* TokenEstimator
      for (const s of samples) expect(estimator.estimateText(s)).toBe(o200kBase.countTokens(s))
    }).pipe(Effect.provide(layerO200k))
  )

  it.effect("layerCl100k counts with cl100k", () =>
    Effect.gen(function* () {
      const estimator = yield* TokenEstimator
      for (const s of samples) expect(estimator.estimateText(s)).toBe(cl100kBase.countTokens(s))
    }).pipe(Effect.provide(layerCl100k))
  )

  it.prop(
    "merge a long piece into the tokens gpt-tokenizer's own loop gives, in time near linear (160,000 letters in a row took 24 s)",
    {
      alphabet: Arbitrary.schema(Schema.Literals(["ab", "a", "aé", "é", "0123456789", "中文字", "🚀👍", "a b", "xyz-_", "\u00ff\u0100"])),
      length: intBetween(257, 2_000),
      seed: intBetween(1, 1_000_000)
    },
    ({ alphabet, length, seed }) => {
      const letters = [...alphabet]
      let s = seed
      let text = ""
      for (let i = 0; i < length; i++) {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0
        text += letters[(s >>> 16) % letters.length]
      }
      const piece = new TextEncoder().encode(text)
      for (const api of [o200kBase.default, cl100kBase.default]) {
        const core = (api as unknown as { readonly bytePairEncodingCoreProcessor: { getBpeRankFromBytes: (b: Uint8Array) => number | undefined } }).bytePairEncodingCoreProcessor
        const own = (Object.getPrototypeOf(core) as { bytePairMerge: (p: Uint8Array) => Array<number> }).bytePairMerge.call(core, piece)
        expect(heapMerge(piece, (b) => core.getBpeRankFromBytes(b))).toEqual(own)
      }
    },
    { timeout: 120_000 }
  )

  it("empties a full merge cache rather than walking it for its oldest entry; the counts stay the same", () => {
    countText("warm up", "o200k")
    const core = (o200kBase.default as unknown as {
      readonly bytePairEncodingCoreProcessor: { readonly mergeCache?: Map<string, unknown>; addToMergeCache: unknown }
    }).bytePairEncodingCoreProcessor
    const own = (Object.getPrototypeOf(core) as { addToMergeCache: unknown }).addToMergeCache
    expect(core.addToMergeCache).not.toBe(own)
    // pieces that are not one token each (words of random letters), many more than a small cache holds
    let s = 7
    const words = Array.from({ length: 600 }, () => {
      let w = ""
      for (let i = 0; i < 9; i++) {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0
        w += "qxzjkvwbf"[(s >>> 16) % 9]
      }
      return w
    })
    const text = words.join(" ")
    const alone = words.reduce((n, w, i) => n + o200kBase.countTokens(i === 0 ? w : ` ${w}`), 0)
    try {
      o200kBase.setMergeCacheSize(50)
      o200kBase.clearMergeCache()
      for (let round = 0; round < 3; round++) {
        expect(countText(text, "o200k")).toBe(alone)
        expect(core.mergeCache!.size).toBeLessThanOrEqual(50)
      }
    } finally {
      o200kBase.setMergeCacheSize(100_000)
    }
  })

  it("counts 200,000 letters in a row as gpt-tokenizer's loop would (its figure for 20,000, times ten)", () => {
    // a run of one letter merges into the same tokens every so many letters: ten times the text is ten times the tokens
    expect(countText("a".repeat(200_000), "o200k")).toBe(10 * countText("a".repeat(20_000), "o200k"))
  })
})

describe("a text too long for the tokenizer's one pass", () => {
  beforeAll(() => Effect.runPromise(Effect.all([loadTextCounter("o200k"), loadTextCounter("cl100k")])))

  /**
   * Lines of tool output with the places a part's end must respect: numbers of every kind, line breaks before "/",
   * blanks and marks. Each is at most 40 code units and starts with something other than a blank or "/", so that a
   * piece surely breaks at every line's start.
   */
  const lineOf = Arbitrary.schema(Schema.Literals([
    "Total: 1234567 items\n", "٣12 and ²34 x\n", "!\n/usr/local/bin 42\n", "x  indented 7\r\n", "path/to/file.ts:120:7\n", "x\n\n\n",
    "wörter über 99\n", "a\n  trailing\n", "日本語 2024年\n", "a,b,c\n1,2,3\n", "emoji 🚀👍 5\n", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
    "- bullet\n/ slash\n", "'s 're 'll\n", "abc\ud800\n"
  ]))

  it.prop(
    "counts in parts that end where both encodings' pieces break, so the parts add up to the whole",
    { lines: Arbitrary.array(lineOf, { minLength: 1, maxLength: 60 }), part: intBetween(24, 200) },
    ({ lines, part }) => {
      const text = lines.join("")
      for (const encoding of ["o200k", "cl100k"] as const) {
        const whole = (t: string) => countText(t, encoding)
        // a counter that, like V8's expressions on a piece of millions of characters, gives up on anything longer
        let parts = 0
        const limited = (t: string) => {
          if (t.length > part) throw new RangeError("Maximum call stack size exceeded")
          parts++
          return whole(t)
        }
        const inParts = countInParts(text, limited, part)
        // a part of 80 units or more has a line's start in its second half, where it ends: the parts add up exactly
        if (part >= 80) expect(inParts, `${encoding} ${JSON.stringify(text)}`).toBe(whole(text))
        // shorter parts may end inside a piece: counted all the same, in parts
        else expect(inParts).toBeGreaterThan(0)
        expect(parts).toBeGreaterThanOrEqual(Math.ceil(text.length / part))
      }
    },
    { timeout: 120_000 }
  )

  it("ends a part before a digit after an ASCII character, or after a line break before anything but a blank or /", () => {
    // the last such place in the part's second half
    expect(partEnd("abcde123456", 0, 8)).toBe(5)
    // ٣1 is one run of digits: no break before the 1
    expect(partEnd("abcdef٣123", 0, 8)).toBe(8)
    expect(partEnd("abcdef!123", 0, 8)).toBe(7)
    expect(partEnd("abcd\nxyzwvu", 0, 8)).toBe(5)
    expect(partEnd("abcd\n/yzwvu", 0, 8)).toBe(8)
    expect(partEnd("abcd\n yzwvu", 0, 8)).toBe(8)
    expect(partEnd("ab1d\nxyzwvu", 0, 8)).toBe(5)
    expect(partEnd("a1cdefghijk", 0, 8)).toBe(8)
    // no such place: the part ends at its limit, never between the halves of a surrogate pair
    expect(partEnd("aaaaa🚀aaa", 0, 6)).toBe(5)
    expect(partEnd("aaaa", 0, 9)).toBe(4)
  })

  it("counts a word of 12 million letters that ends in a lone surrogate (V8's expression runs out of room on it in one pass)", () => {
    const text = "a".repeat(12_000_000) + "\ude00"
    // a run of one letter is a token every eight letters, and the surrogate one of its own
    expect(countText(text, "o200k")).toBe(1_500_000 + countText("\ude00", "o200k"))
  }, 300_000)
})
