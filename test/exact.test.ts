import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as cl100kBase from "gpt-tokenizer/encoding/cl100k_base"
import * as o200kBase from "gpt-tokenizer/encoding/o200k_base"
import { layerCl100k, layerExact, layerO200k, loadTextCounter, makeExact } from "../src/exact/index.js"
import { Block, Message } from "../src/index.js"
import { TokenEstimator } from "../src/TokenEstimator.js"

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
})

