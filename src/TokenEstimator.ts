/**
 * Token estimation: how many input tokens a text, a block, a message or a
 * whole conversation will cost, known before the provider says so.
 *
 * "Estimate first, correct later" (seed 000): budgeting and windowing decide
 * on estimates, and the provider's reported usage corrects them afterwards
 * (`layerCalibrated`). Estimation runs on every message an agent adds, so it
 * is synchronous and cheap: plain numbers, one pass over each text, no
 * allocation per character, and per-message results memoized by message
 * identity (messages are immutable), so re-estimating a conversation after an
 * append only scans the new messages.
 *
 * The `TokenEstimator` service is supplied by a Layer:
 * - `TokenEstimator.layerHeuristic()` (the default, also `TokenEstimator.layer`):
 *   a character-class estimator fitted against the o200k / cl100k tokenizers.
 * - `TokenEstimator.layerSeed()`: seed 000's rule exactly, the compatibility baseline.
 * - `layerExact` from `effect-agent-messages/exact`: exact counts with
 *   gpt-tokenizer (an optional peer dependency, loaded only by that entry).
 * - `TokenEstimator.layerCalibrated({ model })`: wraps any of them and learns a
 *   per-model correction factor from provider-reported usage (`Calibration`).
 * - `TokenEstimator.layerTest()`: a fixed cost per character, for tests.
 *
 * Counting rules, the same for every layer (only the text rule differs):
 * - a text block counts its text;
 * - a thinking block counts its thinking text (reasoning is billed); when the
 *   text is hidden (empty, with an OpenAI `encryptedContent`), that payload is
 *   counted as opaque data; signatures are verification data and not counted;
 * - a redacted thinking block counts its opaque `data` (see `estimateOpaqueData`);
 * - a tool call counts its name and its arguments' JSON (`rawArgs` when
 *   present, else the JSON of `args`); a tool result counts its tool name and
 *   its content (a string, or the sum of its text parts). Ids are not counted
 *   on either side (providers render names, not ids, into the prompt);
 * - a message counts its blocks, its participant `name` if any, and a fixed
 *   per-message overhead (role and framing tokens; default 4: OpenAI's chat
 *   format spends 3 framing tokens plus 1 for the role). `metadata` and
 *   `providerOptions` are never sent to the model and never counted.
 *
 * @example
 * import { Effect } from "effect"
 * import { Message, TokenEstimator } from "effect-agent-messages"
 *
 * const program = Effect.gen(function* () {
 *   const estimator = yield* TokenEstimator.TokenEstimator
 *   return estimator.estimateConversation([Message.user("What is the weather in Oslo?")])
 * })
 * program.pipe(Effect.provide(TokenEstimator.TokenEstimator.layerHeuristic()))
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer } from "effect"
import * as Block from "./Block.js"
import type * as Message from "./Message.js"
import { estimateTextWith, type HeuristicTable } from "./internal/heuristic.js"
import { cl100k, o200k } from "./internal/weights.js"

// ---------------------------------------------------------------------------
// service
// ---------------------------------------------------------------------------

/**
 * What a token estimator does. Every method is synchronous and returns a
 * whole, non-negative number of tokens.
 *
 * - `estimateText`: one text, as the model would see it.
 * - `estimateBlock`: one content block, by the counting rules above.
 * - `estimateMessage`: one message, its blocks plus the per-message overhead;
 *   memoized by message identity.
 * - `estimateConversation`: the sum of `estimateMessage` over the messages, so
 *   a window can subtract a dropped message's estimate and stay exact.
 *
 * @since 0.1.0
 */
export interface Service {
  readonly estimateText: (text: string) => number
  readonly estimateBlock: (block: Block.Block) => number
  readonly estimateMessage: (message: Message.Message) => number
  readonly estimateConversation: (messages: ReadonlyArray<Message.Message>) => number
}

/**
 * The tokenizer family a heuristic or exact estimator targets: `"o200k"`
 * (GPT-4o, GPT-4.1, GPT-5, o-series) or `"cl100k"` (GPT-4, GPT-3.5).
 *
 * @since 0.1.0
 */
export type Encoding = "o200k" | "cl100k"

/**
 * The default per-message overhead, in tokens (seed 000's value; OpenAI's chat
 * format spends 3 framing tokens plus 1 for the role).
 *
 * @since 0.1.0
 */
export const DEFAULT_MESSAGE_OVERHEAD = 4

/**
 * Tokens of opaque data (Anthropic redacted thinking, OpenAI encrypted
 * reasoning): the data is base64, so its length × 3/4 is its size in bytes,
 * and an encrypted payload costs about one token per 4 bytes of the reasoning
 * it hides, hence `ceil(length × 3 / 16)`. A rough figure: the provider bills
 * the hidden reasoning, which we cannot see; calibration corrects the rest.
 *
 * @example
 * TokenEstimator.estimateOpaqueData("A".repeat(1600)) // 300
 *
 * @since 0.1.0
 */
export const estimateOpaqueData = (data: string): number => Math.ceil((data.length * 3) / 16)

/**
 * What `make` needs: a text rule, and optionally the per-message overhead
 * (default 4) and a rule for opaque data (default `estimateOpaqueData`).
 *
 * @since 0.1.0
 */
export interface MakeOptions {
  readonly estimateText: (text: string) => number
  readonly messageOverhead?: number
  readonly estimateOpaque?: (data: string) => number
}

/**
 * Builds an estimator from a text rule: applies the counting rules to blocks
 * and messages and memoizes message estimates in a `WeakMap` owned by this
 * estimator (so an estimator is cheap to create, and its cache is freed with
 * the messages). Use it to plug in your own tokenizer.
 *
 * @example
 * const words = TokenEstimator.make({ estimateText: (t) => t.split(/\s+/).filter(Boolean).length })
 * words.estimateMessage(Message.user("one two three")) // 3 + 4
 *
 * @since 0.1.0
 */
export const make = (options: MakeOptions): Service => {
  const text = options.estimateText
  const opaque = options.estimateOpaque ?? estimateOpaqueData
  const overhead = options.messageOverhead ?? DEFAULT_MESSAGE_OVERHEAD

  const resultContent = (content: Block.ToolResultContent): number => {
    if (typeof content === "string") return text(content)
    let sum = 0
    for (let i = 0; i < content.length; i++) sum += text(content[i]!.text)
    return sum
  }

  const estimateBlock = (block: Block.Block): number => {
    switch (block._tag) {
      case "Text":
        return text(block.text)
      case "Thinking":
        return block.thinking === "" && block.encryptedContent !== undefined
          ? opaque(block.encryptedContent)
          : text(block.thinking)
      case "RedactedThinking":
        return opaque(block.data)
      case "ToolCall":
        return text(block.name) + text(block.rawArgs ?? Block.safeStringify(block.args))
      case "ToolResult":
        return text(block.toolName) + resultContent(block.content)
      default:
        return Block.absurd(block)
    }
  }

  const compute = (message: Message.Message): number => {
    let sum = overhead
    if (message.role !== "tool" && message.name !== undefined) sum += text(message.name)
    const content: ReadonlyArray<Block.Block> = message.content
    for (let i = 0; i < content.length; i++) sum += estimateBlock(content[i]!)
    return sum
  }

  const cache = new WeakMap<Message.Message, number>()
  const estimateMessage = (message: Message.Message): number => {
    let tokens = cache.get(message)
    if (tokens === undefined) {
      tokens = compute(message)
      cache.set(message, tokens)
    }
    return tokens
  }

  const estimateConversation = (messages: ReadonlyArray<Message.Message>): number => {
    let sum = 0
    for (let i = 0; i < messages.length; i++) sum += estimateMessage(messages[i]!)
    return sum
  }

  return { estimateText: text, estimateBlock, estimateMessage, estimateConversation }
}

// ---------------------------------------------------------------------------
// seed 000's rule
// ---------------------------------------------------------------------------

/**
 * Options of seed 000's rule.
 *
 * - `chineseCharWeight`: tokens per CJK ideograph U+4E00–U+9FFF (default 2.0).
 * - `otherCharWeight`: tokens per other non-whitespace character (default 0.25).
 * - `messageOverhead`: tokens per message (default 4).
 *
 * @since 0.1.0
 */
export interface SeedOptions {
  readonly chineseCharWeight?: number
  readonly otherCharWeight?: number
  readonly messageOverhead?: number
}

/** JavaScript's `\s`, by code unit (the seed tests each character with `/\s/`). */
const isSpace = (c: number): boolean =>
  c <= 0x20
    ? c === 0x20 || (c >= 0x09 && c <= 0x0d)
    : c >= 0xa0 &&
      (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
        c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff)

/**
 * Seed 000's text rule: each CJK ideograph (U+4E00–U+9FFF) costs
 * `chineseCharWeight`, every other non-whitespace character `otherCharWeight`,
 * whitespace nothing, and the sum is rounded up. Characters are code points,
 * as in the seed's `for (const char of text)` (an emoji counts once), and the
 * sum is accumulated in the seed's order, so results are identical to the
 * seed's, rounding included. The seed hard-coded 2.0 in its loop and so
 * ignored its own `chineseCharWeight` option; here the option is honoured
 * (the defaults give the seed's numbers).
 *
 * @example
 * const seed = TokenEstimator.seedTextRule()
 * seed("你好世界")    // 8
 * seed("hello world") // 3 (10 × 0.25 = 2.5, rounded up)
 *
 * @since 0.1.0
 */
export const seedTextRule = (options?: SeedOptions): (text: string) => number => {
  const cjk = options?.chineseCharWeight ?? 2.0
  const other = options?.otherCharWeight ?? 0.25
  return (text) => {
    const n = text.length
    if (n === 0) return 0
    let tokens = 0
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i)
      if (c >= 0x4e00 && c <= 0x9fff) {
        tokens += cjk
      } else if (c >= 0xd800 && c <= 0xdbff) {
        // a surrogate pair is one code point: count it once
        const next = i + 1 < n ? text.charCodeAt(i + 1) : 0
        if (next >= 0xdc00 && next <= 0xdfff) i++
        tokens += other
      } else if (!isSpace(c)) {
        tokens += other
      }
    }
    return Math.ceil(tokens)
  }
}

/**
 * An estimator with seed 000's rule (`seedTextRule`) and its per-message
 * overhead: the compatibility baseline. A message costs the overhead plus the
 * rounded-up estimate of each of its texts.
 *
 * @example
 * TokenEstimator.makeSeed().estimateMessage(Message.user("你好世界")) // 8 + 4
 *
 * @since 0.1.0
 */
export const makeSeed = (options?: SeedOptions): Service =>
  make({
    estimateText: seedTextRule(options),
    messageOverhead: options?.messageOverhead ?? DEFAULT_MESSAGE_OVERHEAD
  })

// ---------------------------------------------------------------------------
// the fitted heuristic
// ---------------------------------------------------------------------------

/**
 * Options of the fitted heuristic: the target `encoding` (default `"o200k"`)
 * and the per-message overhead (default 4).
 *
 * @since 0.1.0
 */
export interface HeuristicOptions {
  readonly encoding?: Encoding
  readonly messageOverhead?: number
}

const heuristicTable = (encoding: Encoding): HeuristicTable => (encoding === "cl100k" ? cl100k : o200k)

/**
 * An estimator using the character-class heuristic fitted against the exact
 * tokenizer of `encoding`: one pass over each text with a lookup table, no
 * regex, no allocation. Much closer to real counts than seed 000's rule,
 * especially for code, numbers and CJK, at a similar cost.
 *
 * @example
 * TokenEstimator.makeHeuristic({ encoding: "cl100k" }).estimateText("Hello, world!")
 *
 * @since 0.1.0
 */
export const makeHeuristic = (options?: HeuristicOptions): Service => {
  const table = heuristicTable(options?.encoding ?? "o200k")
  return make({
    estimateText: (text) => estimateTextWith(text, table),
    messageOverhead: options?.messageOverhead ?? DEFAULT_MESSAGE_OVERHEAD
  })
}

// ---------------------------------------------------------------------------
// fixed cost, for tests
// ---------------------------------------------------------------------------

/**
 * An estimator where every character (UTF-16 code unit) of every counted
 * string, opaque data included, costs `costPerChar` (rounded up per text), and
 * every message `messageOverhead`: predictable numbers for your own tests.
 *
 * @example
 * TokenEstimator.makeTest().estimateMessage(Message.user("hello")) // 5
 *
 * @since 0.1.0
 */
export const makeTest = (costPerChar = 1, messageOverhead = 0): Service => {
  const estimateText = (text: string): number => Math.ceil(text.length * costPerChar)
  return make({ estimateText, estimateOpaque: estimateText, messageOverhead })
}

// ---------------------------------------------------------------------------
// the service tag and its layers
// ---------------------------------------------------------------------------

/**
 * The token estimator service. Get it with `yield* TokenEstimator`, provide
 * it with one of its layers.
 *
 * @example
 * const program = Effect.gen(function* () {
 *   const estimator = yield* TokenEstimator.TokenEstimator
 *   return estimator.estimateConversation(messages)
 * })
 * program.pipe(Effect.provide(TokenEstimator.TokenEstimator.layerHeuristic({ encoding: "o200k" })))
 *
 * @since 0.1.0
 */
export class TokenEstimator extends Context.Service<TokenEstimator, Service>()(
  "effect-agent-messages/TokenEstimator"
) {
  /**
   * The default estimator: the fitted heuristic for o200k with a 4-token
   * message overhead (`layerHeuristic()`).
   */
  static readonly layer: Layer.Layer<TokenEstimator> = Layer.sync(TokenEstimator, () => makeHeuristic())

  /**
   * The fitted character-class heuristic (`makeHeuristic`); the default.
   *
   * @example
   * Effect.provide(program, TokenEstimator.layerHeuristic({ encoding: "cl100k", messageOverhead: 3 }))
   */
  static layerHeuristic(options?: HeuristicOptions): Layer.Layer<TokenEstimator> {
    return Layer.sync(TokenEstimator, () => makeHeuristic(options))
  }

  /**
   * Seed 000's rule (`makeSeed`): CJK 2.0, other non-space characters 0.25,
   * 4 tokens per message, all configurable. The compatibility baseline.
   *
   * @example
   * Effect.provide(program, TokenEstimator.layerSeed({ chineseCharWeight: 1.5 }))
   */
  static layerSeed(options?: SeedOptions): Layer.Layer<TokenEstimator> {
    return Layer.sync(TokenEstimator, () => makeSeed(options))
  }

  /**
   * A fixed cost per character and per message (`makeTest`), for tests.
   *
   * @example
   * Effect.provide(program, TokenEstimator.layerTest(1, 0)) // "hello" costs 5
   */
  static layerTest(costPerChar = 1, messageOverhead = 0): Layer.Layer<TokenEstimator> {
    return Layer.sync(TokenEstimator, () => makeTest(costPerChar, messageOverhead))
  }

  /**
   * Wraps the `TokenEstimator` in context with a learned per-model correction:
   * provides a `TokenEstimator` whose estimates for `model` are multiplied by
   * the learned factor, and the `Calibration` that learns it. Feed the
   * provider-reported usage to `Calibration.record` after each call.
   *
   * @example
   * const Estimation = TokenEstimator.layerCalibrated({ model: "gpt-4o" }).pipe(
   *   Layer.provide(TokenEstimator.layerHeuristic())
   * )
   * const step = Effect.gen(function* () {
   *   const estimate = (yield* TokenEstimator).estimateConversation(messages)
   *   const usage = yield* callModel(messages)
   *   yield* (yield* Calibration).record("gpt-4o", estimate, usage.inputTokens)
   * })
   */
  static layerCalibrated(
    options: CalibratedOptions
  ): Layer.Layer<TokenEstimator | Calibration, never, TokenEstimator> {
    return Layer.effectContext(
      Effect.gen(function* () {
        const base = yield* TokenEstimator
        const calibration = makeCalibration(base, options)
        return Context.make(Calibration, calibration).pipe(
          Context.add(TokenEstimator, calibration.estimatorFor(options.model))
        )
      })
    )
  }
}

// ---------------------------------------------------------------------------
// calibration
// ---------------------------------------------------------------------------

/**
 * Tuning of the calibration update (see `makeCalibration` for the rule).
 *
 * - `alpha`: EWMA weight of a report once warmed up (default 0.1).
 * - `maxStep`: largest change of the log factor per report (default 0.1, about ±10%).
 * - `outlierRatio`: a report whose actual/estimate ratio is beyond this factor
 *   either way is an outlier (default 2).
 * - `warmup`: accepted reports before outliers are rejected (default 5).
 * - `outlierRun`: consecutive outliers on the same side taken as a real shift
 *   and accepted (default 3).
 * - `minFactor` / `maxFactor`: bounds of the factor (default 0.25 / 4).
 * - `minEstimate`: reports with a smaller estimate are ignored, being
 *   dominated by fixed request overhead (default 16).
 * - `initialFactors`: starting factor per model, e.g. a previous `snapshot()`.
 *
 * @since 0.1.0
 */
export interface CalibrationOptions {
  readonly alpha?: number
  readonly maxStep?: number
  readonly outlierRatio?: number
  readonly warmup?: number
  readonly outlierRun?: number
  readonly minFactor?: number
  readonly maxFactor?: number
  readonly minEstimate?: number
  readonly initialFactors?: Readonly<Record<string, number>>
}

/**
 * Options of `TokenEstimator.layerCalibrated`: the model whose factor the
 * provided estimator applies, and the calibration tuning.
 *
 * @since 0.1.0
 */
export interface CalibratedOptions extends CalibrationOptions {
  readonly model: string
}

/**
 * What calibration knows about one model: its current `factor`, how many
 * reports it `accepted`, `rejected` as outliers and `ignored` as unusable.
 *
 * @since 0.1.0
 */
export interface CalibrationState {
  readonly model: string
  readonly factor: number
  readonly accepted: number
  readonly rejected: number
  readonly ignored: number
}

/**
 * The calibration service.
 *
 * - `base`: the uncalibrated estimator.
 * - `factor(model)`: the current correction factor (1 for an unseen model).
 * - `estimatorFor(model)`: an estimator whose estimates are the base ones
 *   times the model's factor, rounded up per message (the same object for the
 *   same model; it follows the factor as it learns).
 * - `record(model, estimate, actualInputTokens)`: learns from one call;
 *   `estimate` is what `estimatorFor(model)` (the calibrated `TokenEstimator`)
 *   said for the prompt, `actualInputTokens` what the provider reported.
 * - `recordConversation(model, messages, actualInputTokens)`: the same,
 *   estimating `messages` itself (cheap: message estimates are memoized).
 * - `stateOf(model)`, `snapshot()`: the learned state; feed a snapshot back as
 *   `initialFactors` to keep what was learned across restarts.
 *
 * @since 0.1.0
 */
export interface CalibrationService {
  readonly base: Service
  readonly factor: (model: string) => number
  readonly estimatorFor: (model: string) => Service
  readonly record: (model: string, estimate: number, actualInputTokens: number) => Effect.Effect<CalibrationState>
  readonly recordConversation: (
    model: string,
    messages: ReadonlyArray<Message.Message>,
    actualInputTokens: number
  ) => Effect.Effect<CalibrationState>
  readonly stateOf: (model: string) => CalibrationState
  readonly snapshot: () => Readonly<Record<string, number>>
}

interface ModelState {
  logFactor: number
  factor: number
  accepted: number
  rejected: number
  ignored: number
  outlierRun: number
  outlierSide: number
  estimator: Service | undefined
}

const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x)

/** `n × factor` rounded up, with a tolerance so 10 × 1.1 stays 11. */
const scale = (n: number, factor: number): number => (n <= 0 || factor === 1 ? n : Math.ceil(n * factor - 1e-9))

/**
 * Builds a calibration over a base estimator. Each model has a factor `f`
 * (start: `initialFactors[model]` or 1) kept as `ℓ = ln f`. A report
 * `(estimate, actual)` is handled as follows:
 *
 * 1. Ignored if `estimate < minEstimate`, or `actual` is not a positive finite
 *    number.
 * 2. Residual `r = ln(actual / estimate)`: how far the calibrated estimate was.
 * 3. Outlier rejection: once `warmup` reports were accepted, a report with
 *    `|r| > ln(outlierRatio)` is rejected, unless it is the `outlierRun`-th
 *    (or later) consecutive outlier on the same side: a sustained shift (a new
 *    model version, a different prompt shape) is real and is learned.
 * 4. Step: `α = max(alpha, 1 / (accepted + 1))` (a running mean at first, an
 *    EWMA later), `Δ = clamp(α·r, −maxStep, +maxStep)`.
 * 5. `ℓ ← clamp(ℓ + Δ, ln minFactor, ln maxFactor)`.
 *
 * So one report moves the factor by at most `e^maxStep` (≈10.5% by default)
 * and, once warmed up, an absurd one not at all; noise of σ in log space
 * leaves a steady-state spread of about `σ·√(α/(2−α))` (≈0.23σ by default).
 * Working in log space makes over- and under-estimates symmetric.
 *
 * @example
 * const calibration = TokenEstimator.makeCalibration(TokenEstimator.makeHeuristic())
 * Effect.runSync(calibration.record("claude-sonnet-4", 1000, 1300))
 * calibration.factor("claude-sonnet-4") // ≈ 1.105 (one capped step toward 1.3)
 *
 * @since 0.1.0
 */
export const makeCalibration = (base: Service, options?: CalibrationOptions): CalibrationService => {
  const alpha = options?.alpha ?? 0.1
  const maxStep = options?.maxStep ?? 0.1
  const outlierLog = Math.log(options?.outlierRatio ?? 2)
  const warmup = options?.warmup ?? 5
  const outlierRun = options?.outlierRun ?? 3
  const minLog = Math.log(options?.minFactor ?? 0.25)
  const maxLog = Math.log(options?.maxFactor ?? 4)
  const minEstimate = options?.minEstimate ?? 16
  const initial = options?.initialFactors ?? {}
  const models = new Map<string, ModelState>()

  const stateFor = (model: string): ModelState => {
    let state = models.get(model)
    if (state === undefined) {
      const start = initial[model]
      const logFactor = start !== undefined && start > 0 && Number.isFinite(start) ? clamp(Math.log(start), minLog, maxLog) : 0
      state = {
        logFactor,
        factor: Math.exp(logFactor),
        accepted: 0,
        rejected: 0,
        ignored: 0,
        outlierRun: 0,
        outlierSide: 0,
        estimator: undefined
      }
      models.set(model, state)
    }
    return state
  }

  const view = (model: string, s: ModelState): CalibrationState => ({
    model,
    factor: s.factor,
    accepted: s.accepted,
    rejected: s.rejected,
    ignored: s.ignored
  })

  const update = (model: string, estimate: number, actual: number): CalibrationState => {
    const s = stateFor(model)
    if (!(estimate >= minEstimate) || !(actual > 0) || !Number.isFinite(estimate) || !Number.isFinite(actual)) {
      s.ignored++
      return view(model, s)
    }
    const r = Math.log(actual / estimate)
    if (s.accepted >= warmup && Math.abs(r) > outlierLog) {
      const side = r > 0 ? 1 : -1
      s.outlierRun = s.outlierSide === side ? s.outlierRun + 1 : 1
      s.outlierSide = side
      if (s.outlierRun < outlierRun) {
        s.rejected++
        return view(model, s)
      }
    } else {
      s.outlierRun = 0
      s.outlierSide = 0
    }
    const a = Math.max(alpha, 1 / (s.accepted + 1))
    s.logFactor = clamp(s.logFactor + clamp(a * r, -maxStep, maxStep), minLog, maxLog)
    s.factor = Math.exp(s.logFactor)
    s.accepted++
    return view(model, s)
  }

  const estimatorFor = (model: string): Service => {
    const s = stateFor(model)
    if (s.estimator !== undefined) return s.estimator
    const estimator: Service = {
      estimateText: (text) => scale(base.estimateText(text), s.factor),
      estimateBlock: (block) => scale(base.estimateBlock(block), s.factor),
      estimateMessage: (message) => scale(base.estimateMessage(message), s.factor),
      estimateConversation: (messages) => {
        const f = s.factor
        let sum = 0
        for (let i = 0; i < messages.length; i++) sum += scale(base.estimateMessage(messages[i]!), f)
        return sum
      }
    }
    s.estimator = estimator
    return estimator
  }

  return {
    base,
    factor: (model) => stateFor(model).factor,
    estimatorFor,
    record: (model, estimate, actualInputTokens) => Effect.sync(() => update(model, estimate, actualInputTokens)),
    recordConversation: (model, messages, actualInputTokens) =>
      Effect.sync(() => update(model, estimatorFor(model).estimateConversation(messages), actualInputTokens)),
    stateOf: (model) => view(model, stateFor(model)),
    snapshot: () => {
      const out: Record<string, number> = {}
      for (const [model, s] of models) if (s.accepted > 0 || s.logFactor !== 0) out[model] = s.factor
      return out
    }
  }
}

/**
 * Learns, per model, how far the estimates are from provider-reported input
 * tokens (see `makeCalibration` for the update rule). Provided together with
 * a calibrated `TokenEstimator` by `TokenEstimator.layerCalibrated`, or alone
 * by `Calibration.layer` (then build estimators with `estimatorFor(model)`,
 * e.g. when one agent talks to several models).
 *
 * @example
 * const calibration = yield* TokenEstimator.Calibration
 * yield* calibration.record("gpt-4o", estimate, response.usage.input_tokens)
 *
 * @since 0.1.0
 */
export class Calibration extends Context.Service<Calibration, CalibrationService>()(
  "effect-agent-messages/Calibration"
) {
  /**
   * A calibration over the `TokenEstimator` in context.
   *
   * @example
   * Calibration.layer({ alpha: 0.05 }).pipe(Layer.provide(TokenEstimator.layerHeuristic()))
   */
  static layer(options?: CalibrationOptions): Layer.Layer<Calibration, never, TokenEstimator> {
    return Layer.effect(Calibration, TokenEstimator.useSync((base) => makeCalibration(base, options)))
  }
}
