import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import * as cl100kBase from "gpt-tokenizer/encoding/cl100k_base"
import * as o200kBase from "gpt-tokenizer/encoding/o200k_base"
import { layerCl100k, layerExact, layerO200k, loadTextCounter, makeExact } from "../src/exact/index.js"
import { heapMerge } from "../src/exact/tokenizer.js"
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

  it("counts 200,000 letters in a row as gpt-tokenizer's loop would (its figure for 20,000, times ten)", () => {
    // a run of one letter merges into the same tokens every so many letters: ten times the text is ten times the tokens
    expect(countText("a".repeat(200_000), "o200k")).toBe(10 * countText("a".repeat(20_000), "o200k"))
  })
})
