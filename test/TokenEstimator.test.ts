import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, Schema } from "effect"
import { Block, Message } from "../src/index.js"
import { estimateTextWith } from "../src/internal/heuristic.js"
import { cl100k, o200k } from "../src/internal/weights.js"
import * as TokenEstimator from "../src/TokenEstimator.js"
import * as Arb from "./arbitraries.js"

const { Calibration } = TokenEstimator
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
  const estimator = TokenEstimator.make({
    estimateText: (text) => {
      calls.push(text)
      return text.length
    },
    messageOverhead: 0
  })
  return { calls, estimator }
}

describe("layerSeed reproduces seed 000", () => {
  const seed = TokenEstimator.makeSeed()

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
    const custom = TokenEstimator.makeSeed({ chineseCharWeight: 1.5, otherCharWeight: 0.5, messageOverhead: 2 })
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

  it.effect("is provided by TokenEstimator.layerSeed", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      // 4 × 0.25 = 1, no overhead
      expect(estimator.estimateMessage(Message.user("你好世界"))).toBe(1)
    }).pipe(Effect.provide(Estimator.layerSeed({ chineseCharWeight: 0.25, messageOverhead: 0 })))
  )
})

describe("counting rules", () => {
  // one token per character, no overhead: the numbers below are string lengths
  const est = TokenEstimator.make({ estimateText: (t) => t.length, messageOverhead: 0 })

  it("a text block counts its text", () => {
    expect(est.estimateBlock(Block.text("hello"))).toBe(5)
  })

  it("a thinking block counts its thinking text, not its signature", () => {
    expect(est.estimateBlock(Block.thinking("ponder", "a-very-long-signature"))).toBe(6)
  })

  it("a thinking block whose text is hidden counts its encrypted content as opaque data", () => {
    const hidden = Block.thinking("", undefined, { encryptedContent: "A".repeat(160) })
    expect(est.estimateBlock(hidden)).toBe(30)
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
    const withOverhead = TokenEstimator.make({ estimateText: (t) => t.length, messageOverhead: 4 })
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
    const small = TokenEstimator.makeTest(1, 0)
    const large = TokenEstimator.makeTest(2, 0)
    expect(small.estimateMessage(m)).toBe(5)
    expect(large.estimateMessage(m)).toBe(10)
  })

  it.prop("a memoized estimate equals a fresh one", [Arb.validConversation], ([conversation]) => {
    const estimator = TokenEstimator.makeHeuristic()
    const first = estimator.estimateConversation(conversation)
    assert.strictEqual(estimator.estimateConversation(conversation), first)
    assert.strictEqual(TokenEstimator.makeHeuristic().estimateConversation(conversation), first)
  })
})

describe("layerHeuristic", () => {
  const sample = "function add(a, b) { return a + b } // 你好, 세계! 🚀 2024-06-01"

  it("uses the fitted o200k table by default", () => {
    expect(TokenEstimator.makeHeuristic().estimateText(sample)).toBe(estimateTextWith(sample, o200k))
  })

  it("uses the cl100k table when asked", () => {
    expect(TokenEstimator.makeHeuristic({ encoding: "cl100k" }).estimateText(sample)).toBe(
      estimateTextWith(sample, cl100k)
    )
  })

  it("counts the empty text as 0 and any other text as at least 1", () => {
    const h = TokenEstimator.makeHeuristic()
    expect(h.estimateText("")).toBe(0)
    expect(h.estimateText("a")).toBeGreaterThanOrEqual(1)
  })

  it("adds a configurable per-message overhead (default 4)", () => {
    const m = Message.user("hello world")
    const text = estimateTextWith("hello world", o200k)
    expect(TokenEstimator.makeHeuristic().estimateMessage(m)).toBe(text + 4)
    expect(TokenEstimator.makeHeuristic({ messageOverhead: 1 }).estimateMessage(m)).toBe(text + 1)
  })

  it.effect("is the default TokenEstimator.layer", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      expect(estimator.estimateText(sample)).toBe(estimateTextWith(sample, o200k))
    }).pipe(Effect.provide(Estimator.layer))
  )

  it.effect("is provided by TokenEstimator.layerHeuristic with options", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      expect(estimator.estimateMessage(Message.user(sample))).toBe(estimateTextWith(sample, cl100k))
    }).pipe(Effect.provide(Estimator.layerHeuristic({ encoding: "cl100k", messageOverhead: 0 })))
  )
})

describe("layerTest", () => {
  it.effect("costs one token per character and nothing per message by default", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      expect(estimator.estimateMessage(Message.user("hello"))).toBe(5)
      expect(estimator.estimateBlock(Block.redactedThinking("abcd"))).toBe(4)
    }).pipe(Effect.provide(Estimator.layerTest()))
  )

  it.effect("takes a cost per character (rounded up per text) and an overhead", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      expect(estimator.estimateMessage(Message.user("hello"))).toBe(3 + 10)
    }).pipe(Effect.provide(Estimator.layerTest(0.5, 10)))
  )
})

/** A deterministic PRNG (mulberry32). */
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** A standard normal sample (Box–Muller). */
const gaussian = (random: () => number): number =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())

/**
 * Simulates calls to a model whose real token count is `trueFactor` × the base
 * estimate, with log-normal noise and occasional absurd reports, recording each
 * call's calibrated estimate against the reported usage.
 */
const simulate = (
  calibration: TokenEstimator.CalibrationService,
  model: string,
  options: { readonly reports: number; readonly trueFactor: number; readonly noise: number; readonly outlierRate: number; readonly seed: number }
) =>
  Effect.gen(function* () {
    const random = rng(options.seed)
    const estimator = calibration.estimatorFor(model)
    for (let i = 0; i < options.reports; i++) {
      const conversation = [Message.user("x".repeat(200 + Math.floor(random() * 4000)))]
      const base = calibration.base.estimateConversation(conversation)
      let actual = base * options.trueFactor * Math.exp(options.noise * gaussian(random))
      if (random() < options.outlierRate) actual *= random() < 0.5 ? 10 : 0.1
      yield* calibration.record(model, estimator.estimateConversation(conversation), Math.round(actual))
    }
  })

describe("calibration", () => {
  const base = () => TokenEstimator.makeTest(1, 0)

  it.effect("converges to the true factor within 4% despite noise and outliers", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base())
      yield* simulate(calibration, "m", { reports: 60, trueFactor: 1.3, noise: 0.05, outlierRate: 0.05, seed: 7 })
      const factor = calibration.factor("m")
      expect(Math.abs(factor / 1.3 - 1)).toBeLessThan(0.04)
      expect(calibration.stateOf("m").rejected).toBeGreaterThan(0)
    })
  )

  it.effect("converges from below too (a true factor of 0.8)", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base())
      yield* simulate(calibration, "m", { reports: 60, trueFactor: 0.8, noise: 0.05, outlierRate: 0.05, seed: 11 })
      expect(Math.abs(calibration.factor("m") / 0.8 - 1)).toBeLessThan(0.04)
    })
  )

  it.effect("a single absurd report moves a fresh model by at most one capped step", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base())
      yield* calibration.record("m", 1000, 1_000_000)
      expect(calibration.factor("m")).toBeCloseTo(Math.exp(0.1), 10)
    })
  )

  it.effect("a single absurd report does not move a warmed-up model at all", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base())
      yield* simulate(calibration, "m", { reports: 40, trueFactor: 1.3, noise: 0.02, outlierRate: 0, seed: 3 })
      const before = calibration.factor("m")
      const state = yield* calibration.record("m", 1000, 1_000_000)
      expect(state.factor).toBe(before)
      expect(state.rejected).toBe(1)
      yield* calibration.record("m", 1000, 1)
      expect(calibration.factor("m")).toBe(before)
    })
  )

  it.effect("follows a sustained shift that first looked like outliers", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base())
      yield* simulate(calibration, "m", { reports: 30, trueFactor: 1, noise: 0.02, outlierRate: 0, seed: 5 })
      yield* simulate(calibration, "m", { reports: 60, trueFactor: 3, noise: 0.02, outlierRate: 0, seed: 6 })
      expect(Math.abs(calibration.factor("m") / 3 - 1)).toBeLessThan(0.05)
    })
  )

  it.effect("keeps models isolated", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base())
      yield* simulate(calibration, "a", { reports: 40, trueFactor: 1.5, noise: 0.02, outlierRate: 0, seed: 1 })
      yield* simulate(calibration, "b", { reports: 40, trueFactor: 0.7, noise: 0.02, outlierRate: 0, seed: 2 })
      expect(Math.abs(calibration.factor("a") / 1.5 - 1)).toBeLessThan(0.03)
      expect(Math.abs(calibration.factor("b") / 0.7 - 1)).toBeLessThan(0.03)
      expect(calibration.factor("c")).toBe(1)
    })
  )

  it.effect("bounds the factor between minFactor and maxFactor", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base(), { maxFactor: 2 })
      for (let i = 0; i < 200; i++) yield* calibration.record("m", 1000, 10 * calibration.estimatorFor("m").estimateText("x".repeat(1000)))
      expect(calibration.factor("m")).toBeCloseTo(2, 10)
    })
  )

  it.effect("ignores unusable reports", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base())
      yield* calibration.record("m", 0, 100)
      yield* calibration.record("m", 5, 100)
      yield* calibration.record("m", 1000, 0)
      const state = yield* calibration.record("m", 1000, Number.NaN)
      expect(state).toEqual({ model: "m", factor: 1, accepted: 0, rejected: 0, ignored: 4 })
    })
  )

  it.effect("scales estimates by the factor, rounded up per message", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base(), { initialFactors: { m: 1.1 } })
      const estimator = calibration.estimatorFor("m")
      const messages = [Message.user("x".repeat(10)), Message.user("y".repeat(15))]
      expect(estimator.estimateMessage(messages[0]!)).toBe(11)
      expect(estimator.estimateMessage(messages[1]!)).toBe(17)
      expect(estimator.estimateConversation(messages)).toBe(28)
      expect(estimator.estimateText("abc")).toBe(4)
      expect(calibration.estimatorFor("m")).toBe(estimator)
    })
  )

  it.effect("recordConversation estimates the messages itself", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base())
      const state = yield* calibration.recordConversation("m", [Message.user("x".repeat(1000))], 1050)
      expect(state.factor).toBeCloseTo(1.05, 10)
    })
  )

  it.effect("a snapshot restores the learned factors", () =>
    Effect.gen(function* () {
      const calibration = TokenEstimator.makeCalibration(base())
      yield* simulate(calibration, "m", { reports: 20, trueFactor: 1.3, noise: 0.02, outlierRate: 0, seed: 9 })
      const snapshot = calibration.snapshot()
      expect(Object.keys(snapshot)).toEqual(["m"])
      const restored = TokenEstimator.makeCalibration(base(), { initialFactors: snapshot })
      expect(restored.factor("m")).toBeCloseTo(calibration.factor("m"), 10)
    })
  )

  it.effect("layerCalibrated provides a calibrated TokenEstimator and its Calibration", () =>
    Effect.gen(function* () {
      const estimator = yield* Estimator
      const calibration = yield* Calibration
      const messages = [Message.user("x".repeat(1000))]
      expect(estimator.estimateConversation(messages)).toBe(1000)
      yield* calibration.record("gpt-4o", estimator.estimateConversation(messages), 1050)
      expect(estimator.estimateConversation(messages)).toBe(1050)
    }).pipe(Effect.provide(Estimator.layerCalibrated({ model: "gpt-4o" }).pipe(Layer.provide(Estimator.layerTest()))))
  )

  it.effect("Calibration.layer wraps the estimator in context", () =>
    Effect.gen(function* () {
      const calibration = yield* Calibration
      expect(calibration.base.estimateText("hello")).toBe(5)
      expect(calibration.estimatorFor("any").estimateText("hello")).toBe(5)
    }).pipe(Effect.provide(Calibration.layer().pipe(Layer.provide(Estimator.layerTest()))))
  )
})

describe("properties of every estimator", () => {
  const calibrated = TokenEstimator.makeCalibration(TokenEstimator.makeHeuristic(), { initialFactors: { m: 1.37 } })
  const estimators: ReadonlyArray<readonly [string, () => TokenEstimator.Service]> = [
    ["seed", () => TokenEstimator.makeSeed()],
    ["heuristic o200k", () => TokenEstimator.makeHeuristic()],
    ["heuristic cl100k", () => TokenEstimator.makeHeuristic({ encoding: "cl100k" })],
    ["test", () => TokenEstimator.makeTest(0.3, 2)],
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
