import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, Schema } from "effect"
import { Block, GeminiEstimator, Message } from "../src/index.js"
import { estimateTextWith } from "../src/internal/heuristic.js"
import { cl100k, o200k } from "../src/internal/weights.js"
import * as Calibration from "../src/Calibration.js"
import * as TokenEstimator from "../src/TokenEstimator.js"
import * as Arb from "./arbitraries.js"

const run = Effect.runSync
const makeCalibration = (base: TokenEstimator.Service, options?: Calibration.CalibrationOptions) => run(Calibration.make(base, options))
const Estimator = TokenEstimator.TokenEstimator

/** Seed 000's `TokenEstimator.estimateText`, verbatim. */
const seedEstimateText = (text: string): number => {
  if (!text) return 0
  let tokens = 0
  for (const char of text) {
    if (/[\u4e00-\u9fff]/.test(char)) {
      tokens += 2.0
    } else if (!/\s/.test(char)) {
      tokens += 0.25
    }
  }
  return Math.ceil(tokens)
}

/** Strings mixing everything the seed's rule distinguishes: ASCII, CJK, whitespace of all kinds, astral and lone surrogates. */
const trickyText: Arbitrary.Arbitrary<string> = Arbitrary.array(
  Arbitrary.schema(
    Schema.Literals(["a", "Z", "7", "{", "你", "一", "\u9fff", "\u4dff", "。", "，", " ", "\n", "\t", "\u00a0", "\u2003", "\u3000", "\ufeff", "\u200b", "🚀", "\ud800", "\udc00", "é"])
  ),
  { maxLength: 40 }
).pipe(Arbitrary.map((chars) => chars.join("")))

/** A text estimator that counts how often it is called. */
const spy = () => {
  const calls: Array<string> = []
  const estimator = run(TokenEstimator.make({
    estimateText: (text) => {
      calls.push(text)
      return text.length
    },
    messageOverhead: 0
  }))
  return { calls, estimator }
}

describe("layerCjkWeighted reproduces seed 000", () => {
  const seed = run(TokenEstimator.makeCjkWeighted())

  it("counts each CJK ideograph as 2 tokens: 你好世界 is 8", () => {
    expect(seed.estimateText("你好世界")).toBe(8)
  })

  it("counts other non-space characters as 0.25, rounded up: hello world is ceil(10 × 0.25) = 3", () => {
    expect(seed.estimateText("hello world")).toBe(3)
    expect(seed.estimateText("abcd")).toBe(1)
    expect(seed.estimateText("abcde")).toBe(2)
  })

  it("counts whitespace as nothing and the empty text as 0", () => {
    expect(seed.estimateText("")).toBe(0)
    expect(seed.estimateText(" \n\t\u3000\u00a0")).toBe(0)
  })

  it("adds both weights in mixed text: 你好 world is 2 × 2 + 5 × 0.25 = 5.25 → 6", () => {
    expect(seed.estimateText("你好 world")).toBe(6)
  })

  it("gives the seed's numbers on its own examples", () => {
    // "1+1=?": 5 × 0.25 = 1.25 → 2
    expect(seed.estimateText("1+1=?")).toBe(2)
    // 14 ideographs and "。" (U+3002, outside U+4E00–U+9FFF): 28.25 → 29
    expect(seed.estimateText("帮我查一下北京到上海的高铁票。")).toBe(29)
    // "Let me calculate.": 15 non-space characters → 3.75 → 4
    expect(seed.estimateText("Let me calculate.")).toBe(4)
  })

  it("counts an emoji once, as the seed's for-of over code points does", () => {
    expect(seed.estimateText("🚀")).toBe(1)
    expect(seed.estimateText("🚀🚀🚀🚀🚀")).toBe(2)
  })

  it("adds 4 tokens per message", () => {
    expect(seed.estimateMessage(Message.userMessage("你好世界"))).toBe(12)
    expect(seed.estimateMessage(Message.userMessage("hello world"))).toBe(7)
    expect(seed.estimateConversation([Message.systemMessage("be terse"), Message.userMessage("你好世界")])).toBe(
      4 + 2 + 12
    )
  })

  it("honours its options", () => {
    const custom = run(TokenEstimator.makeCjkWeighted({ chineseCharWeight: 1.5, otherCharWeight: 0.5, messageOverhead: 2 }))
    // 2 × 1.5 + 2 × 0.5 = 4
    expect(custom.estimateText("你好 ab")).toBe(4)
    expect(custom.estimateMessage(Message.user("你好 ab"))).toBe(6)
  })

  it.prop("agrees with the seed's code on arbitrary text", [trickyText], ([text]) => {
    assert.strictEqual(seed.estimateText(text), seedEstimateText(text))
  })

  it.prop("agrees with the seed's code on realistic and random unicode text", [Arb.text], ([text]) => {
    assert.strictEqual(seed.estimateText(text), seedEstimateText(text))
  })

  it.effect("is provided by TokenEstimator.layerCjkWeighted", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      // 4 × 0.25 = 1, no overhead
      expect(estimator.estimateMessage(Message.user("你好世界"))).toBe(1)
    }).pipe(Effect.provide(TokenEstimator.layerCjkWeighted({ chineseCharWeight: 0.25, messageOverhead: 0 })))
  )
})

describe("counting rules", () => {
  // one token per character, no overhead: the numbers below are string lengths
  const est = run(TokenEstimator.make({ estimateText: (t) => t.length, messageOverhead: 0 }))

  it("a text block counts its text", () => {
    expect(est.estimateBlock(Block.text("hello"))).toBe(5)
  })

  it("a thinking block counts its thinking text, not its signature", () => {
    expect(est.estimateBlock(Block.thinking("ponder", "a-very-long-signature"))).toBe(6)
  })

  it("a thinking block whose text is hidden counts the reasoning its encrypted content hides: 3 tokens per 20 characters beyond 800", () => {
    const hidden = (n: number) => Block.thinking("", undefined, { encryptedContent: "A".repeat(n) })
    expect(est.estimateBlock(hidden(1100))).toBe(45)
    expect(est.estimateBlock(hidden(2900))).toBe(315)
    // a payload no longer than its framing hides nothing
    expect(est.estimateBlock(hidden(800))).toBe(0)
    expect(TokenEstimator.estimateEncryptedReasoning("")).toBe(0)
    // summary parts are visible text and count as text, on top
    const summarized = Block.thinking("", undefined, { encryptedContent: "A".repeat(1100), summary: ["The user wants the weather."] })
    expect(est.estimateBlock(summarized)).toBeGreaterThan(45)
    // a custom rule replaces the default
    const custom = Effect.runSync(TokenEstimator.make({ estimateText: (t) => t.length, estimateEncryptedReasoning: () => 7 }))
    expect(custom.estimateBlock(hidden(5000))).toBe(7)
  })

  it("a redacted thinking block counts its data as base64 bytes / 4: ceil(length × 3 / 16)", () => {
    expect(est.estimateBlock(Block.redactedThinking("A".repeat(1600)))).toBe(300)
    expect(est.estimateBlock(Block.redactedThinking("AAAA"))).toBe(1)
    expect(TokenEstimator.estimateOpaqueData("")).toBe(0)
  })

  it("a tool call counts its name and the JSON of its args, not its id", () => {
    const call = Block.toolCall("call_123456", "get_weather", { city: "Oslo" })
    expect(est.estimateBlock(call)).toBe("get_weather".length + JSON.stringify({ city: "Oslo" }).length)
  })

  it("a tool call counts rawArgs instead of args when present", () => {
    const call = Block.toolCall("c1", "f", { a: 1 }, { rawArgs: "{ \"a\": 1, oops" })
    expect(est.estimateBlock(call)).toBe(1 + "{ \"a\": 1, oops".length)
  })

  it("a tool result counts its tool name and its string content, not its id", () => {
    expect(est.estimateBlock(Block.toolResult("call_123456", "get_weather", "12°C"))).toBe(11 + 4)
  })

  it("a tool result with text parts counts each part", () => {
    const result = Block.toolResult("c1", "f", [Block.text("ab"), Block.text("cde")])
    expect(est.estimateBlock(result)).toBe(1 + 2 + 3)
  })

  it("a message counts its blocks, its name and the overhead, not metadata or provider options", () => {
    const withOverhead = run(TokenEstimator.make({ estimateText: (t) => t.length, messageOverhead: 4 }))
    const m = Message.user("hello", {
      name: "alice",
      metadata: { sessionId: "a long session identifier" },
      providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } }
    })
    expect(withOverhead.estimateMessage(m)).toBe(4 + 5 + 5)
  })

  it("an assistant message counts all its blocks in order", () => {
    const m = Message.assistant([Block.thinking("hmm"), Block.text("ok"), Block.toolCall("c1", "f", {})])
    expect(est.estimateMessage(m)).toBe(3 + 2 + 1 + 2)
  })

  it("a tool message counts each of its results", () => {
    const m = Message.tool([Block.toolResult("c1", "f", "aa"), Block.toolResult("c2", "g", "bbb")])
    expect(est.estimateMessage(m)).toBe(1 + 2 + 1 + 3)
  })

  it("an empty conversation costs nothing", () => {
    expect(est.estimateConversation([])).toBe(0)
  })
})

describe("memoization", () => {
  it("estimates a message object once", () => {
    const { calls, estimator } = spy()
    const m = Message.user("hello")
    expect(estimator.estimateMessage(m)).toBe(5)
    expect(estimator.estimateMessage(m)).toBe(5)
    expect(calls).toEqual(["hello"])
  })

  it("re-estimating a conversation after an append scans only the new message", () => {
    const { calls, estimator } = spy()
    const conversation = [Message.user("one"), Message.assistant("two"), Message.user("three")]
    estimator.estimateConversation(conversation)
    calls.length = 0
    const next = [...conversation, Message.assistant("four")]
    expect(estimator.estimateConversation(next)).toBe(3 + 3 + 5 + 4)
    expect(calls).toEqual(["four"])
  })

  it("keys the cache by identity: an equal but distinct message is estimated again", () => {
    const { calls, estimator } = spy()
    estimator.estimateMessage(Message.user("hi"))
    estimator.estimateMessage(Message.user("hi"))
    expect(calls).toEqual(["hi", "hi"])
  })

  it("gives each estimator its own cache", () => {
    const m = Message.user("hello")
    const small = run(TokenEstimator.makeTest({ costPerChar: 1, messageOverhead: 0 }))
    const large = run(TokenEstimator.makeTest({ costPerChar: 2, messageOverhead: 0 }))
    expect(small.estimateMessage(m)).toBe(5)
    expect(large.estimateMessage(m)).toBe(10)
  })

  it.prop("a memoized estimate equals a fresh one", [Arb.validConversation], ([conversation]) => {
    const estimator = run(TokenEstimator.makeHeuristic())
    const first = estimator.estimateConversation(conversation)
    assert.strictEqual(estimator.estimateConversation(conversation), first)
    assert.strictEqual(run(TokenEstimator.makeHeuristic()).estimateConversation(conversation), first)
  })
})

describe("layerHeuristic", () => {
  const sample = "function add(a, b) { return a + b } // 你好, 세계! 🚀 2024-06-01"

  it("uses the fitted o200k table by default", () => {
    expect(run(TokenEstimator.makeHeuristic()).estimateText(sample)).toBe(estimateTextWith(sample, o200k))
  })

  it("uses the cl100k table when asked", () => {
    expect(run(TokenEstimator.makeHeuristic({ encoding: "cl100k" })).estimateText(sample)).toBe(
      estimateTextWith(sample, cl100k)
    )
  })

  it("counts the empty text as 0 and any other text as at least 1", () => {
    const h = run(TokenEstimator.makeHeuristic())
    expect(h.estimateText("")).toBe(0)
    expect(h.estimateText("a")).toBeGreaterThanOrEqual(1)
  })

  it("adds a configurable per-message overhead (default 4)", () => {
    const m = Message.user("hello world")
    const text = estimateTextWith("hello world", o200k)
    expect(run(TokenEstimator.makeHeuristic()).estimateMessage(m)).toBe(text + 4)
    expect(run(TokenEstimator.makeHeuristic({ messageOverhead: 1 })).estimateMessage(m)).toBe(text + 1)
  })

  it.effect("is the default TokenEstimator.layer", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      expect(estimator.estimateText(sample)).toBe(estimateTextWith(sample, o200k))
    }).pipe(Effect.provide(TokenEstimator.layer))
  )

  it.effect("is provided by TokenEstimator.layerHeuristic with options", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      expect(estimator.estimateMessage(Message.user(sample))).toBe(estimateTextWith(sample, cl100k))
    }).pipe(Effect.provide(TokenEstimator.layerHeuristic({ encoding: "cl100k", messageOverhead: 0 })))
  )
})

describe("layerTest", () => {
  it.effect("costs one token per character and nothing per message by default", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      expect(estimator.estimateMessage(Message.user("hello"))).toBe(5)
      expect(estimator.estimateBlock(Block.redactedThinking("abcd"))).toBe(4)
    }).pipe(Effect.provide(TokenEstimator.layerTest()))
  )

  it.effect("takes a cost per character (rounded up per text) and an overhead", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      expect(estimator.estimateMessage(Message.user("hello"))).toBe(3 + 10)
    }).pipe(Effect.provide(TokenEstimator.layerTest({ costPerChar: 0.5, messageOverhead: 10 })))
  )
})

describe("properties of every estimator", () => {
  const calibrated = makeCalibration(run(TokenEstimator.makeHeuristic()), { initialFactors: { m: 1.37 } })
  const estimators: ReadonlyArray<readonly [string, () => TokenEstimator.Service]> = [
    ["seed", () => run(TokenEstimator.makeCjkWeighted())],
    ["heuristic o200k", () => run(TokenEstimator.makeHeuristic())],
    ["heuristic cl100k", () => run(TokenEstimator.makeHeuristic({ encoding: "cl100k" }))],
    ["gemini", () => run(GeminiEstimator.make())],
    ["test", () => run(TokenEstimator.makeTest({ costPerChar: 0.3, messageOverhead: 2 }))],
    ["calibrated", () => calibrated.estimatorFor("m")]
  ]

  for (const [name, build] of estimators) {
    it.prop(`${name}: a conversation estimate is the sum of its message estimates`, [Arb.validConversation], ([conversation]) => {
      const estimator = build()
      let sum = 0
      for (const m of conversation) sum += estimator.estimateMessage(m)
      assert.strictEqual(estimator.estimateConversation(conversation), sum)
    })

    it.prop(`${name}: appending a message never decreases the estimate`, [Arb.validConversation, Arb.message], ([conversation, extra]) => {
      const estimator = build()
      let previous = 0
      for (let i = 1; i <= conversation.length; i++) {
        const current = estimator.estimateConversation(conversation.slice(0, i))
        assert.isAtLeast(current, previous)
        previous = current
      }
      assert.isAtLeast(estimator.estimateConversation([...conversation, extra]), previous)
    })

    it.prop(`${name}: every estimate is a whole non-negative number`, [Arb.message], ([m]) => {
      const estimator = build()
      const n = estimator.estimateMessage(m)
      assert.isTrue(Number.isInteger(n) && n >= 0)
      for (const b of m.content) {
        const k = estimator.estimateBlock(b)
        assert.isTrue(Number.isInteger(k) && k >= 0)
      }
    })
  }
})

describe("options are checked when a layer is built", () => {
  const refused = (layer: Layer.Layer<TokenEstimator.TokenEstimator, TokenEstimator.InvalidEstimatorOptions>) =>
    Effect.flip(Layer.build(layer).pipe(Effect.scoped))

  it.effect("a negative or fractional message overhead is refused", () =>
    Effect.gen(function* () {
      const negative = yield* refused(TokenEstimator.layerHeuristic({ messageOverhead: -1 }))
      expect([negative._tag, negative.option]).toEqual(["InvalidEstimatorOptions", "messageOverhead"])
      const fractional = yield* refused(TokenEstimator.layerCjkWeighted({ messageOverhead: 2.5 }))
      expect(fractional.option).toBe("messageOverhead")
    }))

  it.effect("a negative or NaN weight is refused", () =>
    Effect.gen(function* () {
      expect((yield* refused(TokenEstimator.layerCjkWeighted({ chineseCharWeight: -2 }))).option).toBe("chineseCharWeight")
      expect((yield* refused(TokenEstimator.layerCjkWeighted({ otherCharWeight: Number.NaN }))).option).toBe("otherCharWeight")
      expect((yield* refused(TokenEstimator.layerTest({ costPerChar: Number.POSITIVE_INFINITY }))).option).toBe("costPerChar")
    }))

  it.effect("an unknown encoding or an unknown option is refused", () =>
    Effect.gen(function* () {
      const encoding = yield* refused(TokenEstimator.layerHeuristic({ encoding: "p50k" as TokenEstimator.Encoding }))
      expect(encoding.option).toBe("encoding")
      const unknown = yield* refused(TokenEstimator.layerHeuristic({ overhead: 3 } as TokenEstimator.HeuristicOptions))
      expect(unknown.message).toContain("overhead")
    }))

  it.effect("calibration options that would give NaN, zero or negative factors are refused", () =>
    Effect.gen(function* () {
      const base = TokenEstimator.heuristic
      for (const [options, option] of [
        [{ alpha: Number.NaN }, "alpha"],
        [{ alpha: 0 }, "alpha"],
        [{ maxFactor: 0 }, "maxFactor"],
        [{ minFactor: -1 }, "minFactor"],
        [{ outlierRatio: 1 }, "outlierRatio"],
        [{ initialFactors: { m: 0 } }, "initialFactors.m"]
      ] as const) {
        const e = yield* Effect.flip(Calibration.make(base, options))
        expect([e._tag, e.option]).toEqual(["InvalidEstimatorOptions", option])
      }
    }))

  it.effect("valid options build the layer", () =>
    Effect.gen(function* () {
      const estimator = yield* TokenEstimator.TokenEstimator
      expect(estimator.estimateMessage(Message.user("hi"))).toBe(estimator.estimateText("hi") + 3)
    }).pipe(Effect.provide(TokenEstimator.layerHeuristic({ encoding: "cl100k", messageOverhead: 3 }))))
})

describe("memoized estimates cannot go stale", () => {
  it("a message built by hand and not frozen is estimated afresh every time", () => {
    const { calls, estimator } = spy()
    const m = new Message.UserMessage({ role: "user", content: [Block.text("hi")] })
    expect(estimator.estimateMessage(m)).toBe(2)
    ;(m.content as Array<Block.UserBlock>).push(Block.text("more"))
    expect(estimator.estimateMessage(m)).toBe(6)
    expect(calls.length).toBe(3)
  })

  it("once frozen with Message.freeze it is memoized", () => {
    const { calls, estimator } = spy()
    const m = Message.freeze(new Message.UserMessage({ role: "user", content: [Block.text("hi")] }))
    estimator.estimateMessage(m)
    estimator.estimateMessage(m)
    expect(calls).toEqual(["hi"])
  })

  it("estimateEach is the per-message reading estimateConversation sums", () => {
    const ms = [Message.user("hello"), Message.assistant("world!")]
    const each = TokenEstimator.heuristic.estimateEach(ms)
    expect(each.reduce((a, b) => a + b, 0)).toBe(TokenEstimator.heuristic.estimateConversation(ms))
  })
})

describe("counting the new block kinds", () => {
  const est = run(TokenEstimator.make({ estimateText: (t) => t.length, messageOverhead: 0 }))

  it("images cost a fixed amount by detail, text documents their text, inline data as opaque data", () => {
    expect(est.estimateBlock(Block.image("https://x/a.png", { detail: "low" }))).toBe(TokenEstimator.IMAGE_LOW_DETAIL_TOKENS)
    expect(est.estimateBlock(Block.image("https://x/a.png"))).toBe(TokenEstimator.IMAGE_DEFAULT_TOKENS)
    expect(est.estimateBlock(Block.document(Block.textSource("four")))).toBe(4)
    expect(est.estimateBlock(Block.document(Block.base64("A".repeat(160))))).toBe(30)
    expect(est.estimateBlock(Block.document("https://x/a.pdf"))).toBe(TokenEstimator.REFERENCED_FILE_TOKENS)
  })

  it("prices an inline image by the size in its header, as gpt-4o does and the request count does", () => {
    // a PNG header: signature, the IHDR chunk's length and type, width and height
    const png = (width: number, height: number): string => {
      const b = Buffer.alloc(33)
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(b, 0)
      b.writeUInt32BE(width, 16)
      b.writeUInt32BE(height, 20)
      return b.toString("base64")
    }
    expect(est.estimateBlock(Block.image(`data:image/png;base64,${png(512, 512)}`))).toBe(255) // 85 + 1 tile x 170
    expect(est.estimateBlock(Block.file(Block.base64(png(512, 512)), "image/png"))).toBe(255)
    // a data URL kept as a URL, in any case (RFC 2397), as the request count reads it
    expect(est.estimateBlock(Block.file({ _tag: "Url", url: `DATA:image/png;base64,${png(512, 512)}` }, "image/png"))).toBe(255)
    expect(est.estimateBlock(Block.image(`data:image/png;base64,${png(512, 512)}`, { detail: "low" }))).toBe(85)
    expect(est.estimateBlock(Block.image(`data:image/png;base64,${png(2048, 4096)}`))).toBe(1105) // 768 x 1536: 6 tiles
    // an unreadable header is an image of unknown size
    expect(est.estimateBlock(Block.image("data:image/png;base64,AAAA"))).toBe(TokenEstimator.IMAGE_DEFAULT_TOKENS)
  })

  it("refusals, JSON results, summaries and provider data count their text", () => {
    expect(est.estimateBlock(Block.refusal("no"))).toBe(2)
    expect(est.estimateBlock(Block.toolResult("c", "f", [Block.json({ a: 1 })]))).toBe(1 + 7)
    expect(est.estimateBlock(Block.thinking("", undefined, { summary: ["ab", "cd"] }))).toBe(4)
    expect(est.estimateBlock(Block.providerData("anthropic", { type: "x" }))).toBe(JSON.stringify({ type: "x" }).length)
  })

  it("a tool call counts the provider's own argument text when it was kept", () => {
    expect(est.estimateBlock(Block.toolCall("c", "f", { a: 1 }, { rawArgs: '{ "a" : 1 }' }))).toBe(1 + 11)
  })
})
