/**
 * Calibration: learning, per model, how far token estimates are from the
 * input tokens the provider reports, and correcting later estimates by it.
 *
 * The estimators count tokens for OpenAI's tokenizers (o200k, cl100k) and,
 * with `GeminiEstimator`, Gemini's. For models whose tokenizer is not public
 * (Claude), or to absorb framing a provider adds, feed each call's reported
 * input tokens to
 * `Calibration.record`: the calibrated estimator multiplies the base
 * estimates by the learned factor.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { Calibration, TokenEstimator } from "effect-agent-messages"
 *
 * const Estimation = Calibration.layerTokenEstimator({ model: "claude-sonnet-4" }).pipe(
 *   Layer.provide(TokenEstimator.layer)
 * )
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import { defineOwn } from "./internal/json.js"
import type * as Message from "./Message.js"
import type * as Request from "./Request.js"
import type { RequestEstimate, RequestEstimateOptions, Service } from "./TokenEstimator.js"
import { checkOptions, InvalidEstimatorOptions, TokenEstimator } from "./TokenEstimator.js"

const Positive = Schema.Finite.check(Schema.isGreaterThan(0))

/**
 * Tuning of the calibration update (see `make` for the rule). Every option is
 * checked when a calibration is built.
 *
 * - `alpha`: EWMA weight of a report once warmed up, in (0, 1] (default 0.1).
 * - `maxStep`: largest change of the log factor per report, > 0 (default 0.1, about ±10%).
 * - `outlierRatio`: a report whose actual/estimate ratio is beyond this
 *   factor either way is an outlier, > 1 (default 2).
 * - `warmup`: accepted reports before outliers are rejected (default 5).
 * - `outlierRun`: consecutive outliers on the same side taken as a real shift
 *   and accepted, at least 1 (default 3).
 * - `minFactor` / `maxFactor`: bounds of the factor, with
 *   0 < minFactor <= 1 <= maxFactor <= 1,000,000 (default 0.25 / 4).
 * - `minEstimate`: reports with a smaller estimate are ignored, being
 *   dominated by fixed request overhead (default 16).
 * - `initialFactors`: starting factor per model (positive), e.g. a previous
 *   `snapshot()`. A model that starts from one is taken as warmed up: its
 *   reports are weighed by `alpha` and outliers rejected from the first
 *   report on, so a restart keeps what was learned rather than starting
 *   the running mean over.
 * - `priorFactors`: starting factor per model (positive) for a cold start: a
 *   model's estimates are scaled by it before any report, and its reports are
 *   weighed as a new model's are (the first one moves the factor toward its
 *   ratio, up to `maxStep`; no outlier is rejected before `warmup`). For a
 *   model whose tokenizer is known to count more or less than the base
 *   estimator, such as Claude against the o200k-fitted heuristic (the README,
 *   "Claude and Gemini", gives a measured one). A key ending in `*` is a
 *   prefix (`"claude-*"`, or `"*"` for every model): a model without a key
 *   of its own takes the prior of the longest prefix it starts with, and
 *   learns a factor of its own from there. A `*` anywhere else is refused.
 *   `initialFactors` wins for a model in both, and a snapshot leaves out a
 *   model no report has moved from its prior (the prior is configuration,
 *   not something learned).
 *
 * @example
 * const calibration = yield* Calibration.make(TokenEstimator.heuristic, {
 *   alpha: 0.05,
 *   initialFactors: { "claude-sonnet-4": 1.18 }, // a snapshot() saved by an earlier run
 *   priorFactors: { "claude-*": 1.22 } // where every other Claude model starts
 * })
 * calibration.factor("claude-sonnet-4") // 1.18
 * calibration.factor("claude-opus-4-1") // 1.22
 *
 * @since 0.1.0
 */
export const CalibrationOptions = Schema.Struct({
  alpha: Schema.optionalKey(Positive.check(Schema.isLessThanOrEqualTo(1))),
  maxStep: Schema.optionalKey(Positive),
  outlierRatio: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(1))),
  warmup: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  outlierRun: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  minFactor: Schema.optionalKey(Positive.check(Schema.isLessThanOrEqualTo(1))),
  maxFactor: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(1), Schema.isLessThanOrEqualTo(1_000_000))),
  minEstimate: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))),
  initialFactors: Schema.optionalKey(Schema.Record(Schema.String, Positive)),
  priorFactors: Schema.optionalKey(Schema.Record(Schema.String, Positive))
})

/**
 * The calibration tuning, as a type.
 *
 * @since 0.1.0
 */
export type CalibrationOptions = typeof CalibrationOptions.Type

/**
 * Options of `layerTokenEstimator`: the model whose factor the provided
 * estimator applies, and the calibration tuning.
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
 * A calibrated estimate of one request's messages, with the factor it was
 * made with: what `estimate(model, messages)` returns, and the handle to
 * report that request's usage against (`record(model, estimate, actual)`).
 * A report given with its handle is measured against exactly the factor its
 * `tokens` were scaled by, however many other estimates came out at the same
 * number and however the factor moved while the request was in flight.
 *
 * @since 0.1.0
 */
export interface CalibratedEstimate {
  readonly tokens: number
  readonly factor: number
}

/**
 * The calibration service.
 *
 * - `base`: the uncalibrated estimator.
 * - `factor(model)`: the current correction factor (1 for an unseen model).
 * - `estimatorFor(model)`: an estimator whose estimates are the base ones
 *   times the model's factor, rounded up per message (the same object for the
 *   same model; it follows the factor as it learns, and applies one factor
 *   to every message of one `estimateEach` or `estimateConversation` call).
 * - `estimate(model, messages)`: `estimatorFor(model).estimateConversation`
 *   as a `CalibratedEstimate`, the handle to pass to `record`.
 * - `record(model, estimate, actualInputTokens)`: learns from one call;
 *   `estimate` is what was estimated for the prompt, `actualInputTokens`
 *   what the provider reported. Give the handle the estimate came as (a
 *   `CalibratedEstimate` from `estimate`, or the `RequestEstimate` object
 *   of `estimatorFor(model).estimateRequest`, whose `framing` is then taken
 *   out of both figures as `recordRequest` does): the report is measured
 *   against the factor that very estimate was made with. A bare number is
 *   matched to the factor by its value (see `make`).
 * - `recordConversation(model, messages, actualInputTokens)`: the same,
 *   estimating `messages` itself (cheap: message estimates are memoized).
 * - `recordRequest(model, request, actualInputTokens, options?)`: the same
 *   for a whole request (`estimateRequest`), the part the provider adds at
 *   a documented size (`framing`) taken out of both figures first, so the
 *   factor learns only what the estimator reads.
 * - `estimatorFor(model).estimateRequest` scales every part but `framing`.
 * - `stateOf(model)`, `snapshot()`: the learned state; feed a snapshot back as
 *   `initialFactors` to keep what was learned across restarts. A snapshot
 *   holds every model a report was accepted for, and every model of
 *   `initialFactors` whose factor is not 1, those this run never used
 *   included (as clamped to `minFactor`/`maxFactor`); a model still at its
 *   `priorFactors` start is left out.
 *
 * @since 0.1.0
 */
export interface CalibrationService {
  readonly base: Service
  readonly factor: (model: string) => number
  readonly estimatorFor: (model: string) => Service
  readonly estimate: (model: string, messages: ReadonlyArray<Message.Message>) => CalibratedEstimate
  readonly record: (
    model: string,
    estimate: number | CalibratedEstimate | RequestEstimate,
    actualInputTokens: number
  ) => Effect.Effect<CalibrationState>
  readonly recordConversation: (
    model: string,
    messages: ReadonlyArray<Message.Message>,
    actualInputTokens: number
  ) => Effect.Effect<CalibrationState>
  readonly recordRequest: (
    model: string,
    request: Request.Request,
    actualInputTokens: number,
    options?: RequestEstimateOptions
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
  /**
   * Whether the factor started from `initialFactors` (typically a snapshot
   * of an earlier run): it is then taken as warmed up, so the first reports
   * after a restart are weighed as the run that learned it would weigh them.
   */
  readonly restored: boolean
  estimator: Service | undefined
  /**
   * The log factor each recent estimate of `estimatorFor` was made with,
   * by its value (at most `ISSUED_MAX`, oldest dropped first): a report may
   * come back after other reports moved the factor (requests in flight at
   * once), and its residual is then measured against the factor it was made with.
   */
  readonly issued: Map<number, number>
}

/** How many recent estimates a model remembers the factor of (see `ModelState.issued`). */
const ISSUED_MAX = 4096

const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x)

/** `n × factor` rounded up, with a tolerance so 10 × 1.1 stays 11. */
const scale = (n: number, factor: number): number => (n <= 0 || factor === 1 ? n : Math.ceil(n * factor - 1e-9))

const build = (base: Service, options: CalibrationOptions): CalibrationService => {
  const alpha = options.alpha ?? 0.1
  const maxStep = options.maxStep ?? 0.1
  const outlierLog = Math.log(options.outlierRatio ?? 2)
  const warmup = options.warmup ?? 5
  const outlierRun = options.outlierRun ?? 3
  const minFactor = options.minFactor ?? 0.25
  const maxFactor = options.maxFactor ?? 4
  const minLog = Math.log(minFactor)
  const maxLog = Math.log(maxFactor)
  /** The factor of a log factor, within the bounds themselves: `exp` of a clamped log can pass a bound by its last bit. */
  const factorOf = (logFactor: number): number => clamp(Math.exp(logFactor), minFactor, maxFactor)
  const minEstimate = options.minEstimate ?? 16
  const initial = options.initialFactors ?? {}
  const prior = options.priorFactors ?? {}
  // the prefix keys ("claude-*"), longest first: a model takes the most specific one it starts with
  const priorPrefixes = Object.keys(prior)
    .filter((key) => key.endsWith("*"))
    .map((key) => ({ prefix: key.slice(0, -1), factor: prior[key]! }))
    .sort((a, b) => b.prefix.length - a.prefix.length)
  const priorOf = (model: string): number | undefined =>
    Object.hasOwn(prior, model) ? prior[model] : priorPrefixes.find(({ prefix }) => model.startsWith(prefix))?.factor
  /** The log factor a starting factor (restored or a prior) gives, clamped to `minFactor`/`maxFactor`; 0 for none. */
  const startLog = (start: number | undefined): number => (start === undefined ? 0 : clamp(Math.log(start), minLog, maxLog))
  const models = new Map<string, ModelState>()
  /** The log factor each request estimate of `estimatorFor` was made with, by the estimate object's identity. */
  const requestFactors = new WeakMap<RequestEstimate, number>()

  const stateFor = (model: string): ModelState => {
    let state = models.get(model)
    if (state === undefined) {
      // own keys only: a model named "constructor" or "__proto__" has no inherited factor
      const restored = Object.hasOwn(initial, model) ? initial[model] : undefined
      const logFactor = startLog(restored ?? priorOf(model))
      state = {
        logFactor,
        factor: factorOf(logFactor),
        accepted: 0,
        rejected: 0,
        ignored: 0,
        outlierRun: 0,
        outlierSide: 0,
        restored: restored !== undefined,
        estimator: undefined,
        issued: new Map()
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

  /** Remembers the log factor an estimate was made with (see `ModelState.issued`); returns the estimate. */
  const issue = (s: ModelState, estimate: number, logFactor: number): number => {
    if (s.issued.has(estimate)) s.issued.delete(estimate)
    else if (s.issued.size >= ISSUED_MAX) s.issued.delete(s.issued.keys().next().value!)
    s.issued.set(estimate, logFactor)
    return estimate
  }

  /** `made`: the log factor the estimate was made with, when known (else the current one). */
  const update = (model: string, estimate: number, actual: number, made?: number): CalibrationState => {
    const s = stateFor(model)
    // a zero estimate (minEstimate: 0) says nothing about the ratio: ln(actual / 0) is infinite
    if (!(estimate >= minEstimate) || !(estimate > 0) || !(actual > 0) || !Number.isFinite(estimate) || !Number.isFinite(actual)) {
      s.ignored++
      return view(model, s)
    }
    // how far the current factor is from the report: the estimate rescaled from the factor it was made with
    const r = Math.log(actual / estimate) + (made ?? s.logFactor) - s.logFactor
    if ((s.restored || s.accepted >= warmup) && Math.abs(r) > outlierLog) {
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
    const a = s.restored ? alpha : Math.max(alpha, 1 / (s.accepted + 1))
    s.logFactor = clamp(s.logFactor + clamp(a * r, -maxStep, maxStep), minLog, maxLog)
    s.factor = factorOf(s.logFactor)
    s.accepted++
    return view(model, s)
  }

  const estimatorFor = (model: string): Service => {
    const s = stateFor(model)
    if (s.estimator !== undefined) return s.estimator
    const estimateEach = (messages: ReadonlyArray<Message.Message>): Array<number> => {
      const f = s.factor // one factor for the whole reading
      const out = base.estimateEach(messages)
      let sum = 0
      for (let i = 0; i < out.length; i++) sum += out[i] = scale(out[i]!, f)
      issue(s, sum, s.logFactor)
      return out
    }
    const estimateRequest = (request: Request.Request, options?: RequestEstimateOptions): RequestEstimate => {
      const f = s.factor
      const raw = base.estimateRequest(request, { ...options, model: options?.model ?? request.model ?? model })
      // the framing is counted in the provider's own tokens (documented figures, special tokens): not scaled
      const messages = raw.messages.map((n) => scale(n, f))
      const tools = scale(raw.tools, f)
      const responseFormat = scale(raw.responseFormat, f)
      let total = tools + responseFormat + raw.framing
      for (let i = 0; i < messages.length; i++) total += messages[i]!
      issue(s, total, s.logFactor)
      const estimate: RequestEstimate = { provider: raw.provider, total, messages, tools, responseFormat, framing: raw.framing }
      requestFactors.set(estimate, s.logFactor)
      return estimate
    }
    const estimator: Service = {
      estimateText: (text) => scale(base.estimateText(text), s.factor),
      estimateBlock: (block) => scale(base.estimateBlock(block), s.factor),
      estimateMessage: (message) => scale(base.estimateMessage(message), s.factor),
      estimateEach,
      estimateConversation: (messages) => {
        const f = s.factor
        let sum = 0
        for (let i = 0; i < messages.length; i++) sum += scale(base.estimateMessage(messages[i]!), f)
        return issue(s, sum, s.logFactor)
      },
      estimateRequest
    }
    s.estimator = estimator
    return estimator
  }

  return {
    base,
    factor: (model) => stateFor(model).factor,
    estimatorFor,
    estimate: (model, messages) => {
      const tokens = estimatorFor(model).estimateConversation(messages)
      return { tokens, factor: stateFor(model).factor }
    },
    record: (model, estimate, actualInputTokens) =>
      Effect.sync(() => {
        // not an object (a number, or what a caller without types passed): matched by value, and ignored unless a usable number
        if (typeof estimate !== "object" || estimate === null) {
          return update(model, estimate, actualInputTokens, stateFor(model).issued.get(estimate))
        }
        if ("total" in estimate) {
          // the framing is exact in the provider's tokens: the factor learns from the rest, as in recordRequest
          return update(model, estimate.total - estimate.framing, actualInputTokens - estimate.framing, requestFactors.get(estimate))
        }
        const f = estimate.factor
        return update(model, estimate.tokens, actualInputTokens, f > 0 && Number.isFinite(f) ? Math.log(f) : undefined)
      }),
    recordConversation: (model, messages, actualInputTokens) =>
      Effect.sync(() => update(model, estimatorFor(model).estimateConversation(messages), actualInputTokens)),
    recordRequest: (model, request, actualInputTokens, options) =>
      Effect.sync(() => {
        const estimate = estimatorFor(model).estimateRequest(request, options)
        // the framing is exact in the provider's tokens: the factor learns from the rest
        return update(model, estimate.total - estimate.framing, actualInputTokens - estimate.framing)
      }),
    stateOf: (model) => view(model, stateFor(model)),
    snapshot: () => {
      const out: Record<string, number> = {}
      // A factor no report moved is a starting one: kept if restored, left out if a prior (given again at the next
      // start). A restored one is left out too where the next start gives it anyway: 1 for a model without a prior,
      // the prior itself for one with (a restored 1 under a prior of 1.22 is kept: it would come back as 1.22).
      const priorLog = (model: string): number => startLog(priorOf(model))
      for (const [model, s] of models) if (s.accepted > 0 || (s.restored && s.logFactor !== priorLog(model))) defineOwn(out, model, s.factor)
      // a starting factor no call of this run touched is still known: dropping it would lose it at the next restart
      for (const model of Object.keys(initial)) {
        if (models.has(model)) continue
        const logFactor = startLog(initial[model])
        if (logFactor !== priorLog(model)) defineOwn(out, model, factorOf(logFactor))
      }
      return out
    }
  }
}

/**
 * Builds a calibration over a base estimator, checking its options. Each
 * model has a factor `f` (start: `initialFactors[model]`, else its prior in
 * `priorFactors`, else 1) kept as
 * `ℓ = ln f`. A report `(estimate, actual)` is handled as follows:
 *
 * 1. Ignored if `estimate < minEstimate`, or `estimate` or `actual` is not a
 *    positive finite number.
 * 2. Residual `r = ln(actual / estimate)`: how far the calibrated estimate was,
 *    measured against the current factor. An estimate made with an earlier
 *    factor (a request in flight while the reports of others moved it) is
 *    rescaled to the current factor first, so a batch of requests estimated
 *    at once does not apply the same correction once per report. A handle
 *    (a `CalibratedEstimate`, or the `RequestEstimate` object of
 *    `estimatorFor(model).estimateRequest`) says exactly which factor that
 *    was. A bare number is matched by its value among the last 4,096
 *    estimates `estimatorFor(model)` made (two in flight at once that came
 *    out at the same value under different factors are both measured
 *    against the later one; the step stays capped); a number it never
 *    made is measured against the current factor.
 * 3. Outlier rejection: once `warmup` reports were accepted (from the first
 *    report for a model that started from `initialFactors`), a report with
 *    `|r| > ln(outlierRatio)` is rejected, unless it is the `outlierRun`-th
 *    (or later) consecutive outlier on the same side: a sustained shift (a new
 *    model version, a different prompt shape) is real and is learned.
 * 4. Step: `α = max(alpha, 1 / (accepted + 1))` (a running mean at first, an
 *    EWMA later; `alpha` from the start for a model that started from
 *    `initialFactors`), `Δ = clamp(α·r, −maxStep, +maxStep)`.
 * 5. `ℓ ← clamp(ℓ + Δ, ln minFactor, ln maxFactor)`.
 *
 * So a report that is far too high (a wrong number, another request's or a
 * whole session's usage, 1e9, the largest double) or far too low is bounded
 * twice over. The step, not the report, is clamped: one report, however far
 * off and by whichever of `record`, `recordConversation` or `recordRequest`,
 * moves the factor by at most `e^maxStep` (≈10.5% by default), and so every
 * later estimate of a message by at most that factor (rounded up); `k`
 * reports move it by at most `e^(k·maxStep)`. And the factor never leaves
 * `minFactor`..`maxFactor`. Once warmed up, an absurd report does not move
 * it at all (step 3), unless `outlierRun` of them come in a row. A bound on
 * the report itself would not do instead: a provider's count really can be
 * several times the estimate (a prompt mix the estimator reads poorly), and
 * a clamped step still learns it, a step at a time. Consistent reports
 * converge: noise of σ in log space leaves a steady-state spread of about
 * `σ·√(α/(2−α))` (≈0.23σ by default), and a ratio drifting from 1.0 to 1.25
 * over 100 reports is followed within 3% from about the 29th report on.
 * Working in log space makes over- and under-estimates symmetric.
 *
 * @example
 * const calibration = yield* Calibration.make(TokenEstimator.heuristic)
 * yield* calibration.record("claude-sonnet-4", 1000, 1300)
 * calibration.factor("claude-sonnet-4") // ≈ 1.105 (one capped step toward 1.3)
 *
 * @since 0.1.0
 */
export const make = (base: Service, options?: CalibrationOptions): Effect.Effect<CalibrationService, InvalidEstimatorOptions> =>
  Effect.suspend(() => checkOptions(CalibrationOptions, options)).pipe(
    Effect.flatMap((checked) => {
      const min = checked.minFactor ?? 0.25
      const max = checked.maxFactor ?? 4
      if (min > max) {
        return Effect.fail(new InvalidEstimatorOptions({ option: "minFactor", reason: `must not exceed maxFactor (${min} > ${max})` }))
      }
      // a "*" inside a key reads as a pattern that would never match: only a prefix ("claude-*") is one
      const glob = Object.keys(checked.priorFactors ?? {}).find((key) => key.indexOf("*") !== -1 && key.indexOf("*") !== key.length - 1)
      return glob !== undefined
        ? Effect.fail(
          new InvalidEstimatorOptions({
            option: "priorFactors",
            reason: `a "*" may only end a key, as a prefix of model names ("claude-*"); got ${JSON.stringify(glob)}`
          })
        )
        : Effect.succeed(build(base, checked))
    })
  )

/**
 * Learns, per model, how far the estimates are from provider-reported input
 * tokens (see `make` for the update rule). Provided alone by
 * `Calibration.layer` (build estimators with `estimatorFor(model)`, e.g. when
 * one agent talks to several models), or together with a calibrated
 * `TokenEstimator` by `Calibration.layerTokenEstimator`.
 *
 * @example
 * const step = Effect.gen(function*() {
 *   const calibration = yield* Calibration.Calibration
 *   // the handle: the report is measured against the factor this estimate was made with
 *   const estimate = calibration.estimate("gpt-4o", messages)
 *   const reply = yield* callModel(messages)
 *   yield* calibration.record("gpt-4o", estimate, reply.usage?.inputTokens ?? 0)
 * })
 * step.pipe(Effect.provide(Calibration.layer().pipe(Layer.provide(TokenEstimator.layer))))
 *
 * @since 0.1.0
 */
export class Calibration extends Context.Service<Calibration, CalibrationService>()("effect-agent-messages/Calibration") {}

/**
 * A calibration over the `TokenEstimator` in context.
 *
 * @example
 * Calibration.layer({ alpha: 0.05 }).pipe(Layer.provide(TokenEstimator.layer))
 *
 * @since 0.1.0
 */
export const layer = (options?: CalibrationOptions): Layer.Layer<Calibration, InvalidEstimatorOptions, TokenEstimator> =>
  Layer.effect(
    Calibration,
    Effect.gen(function*() {
      return yield* make(yield* TokenEstimator, options)
    })
  )

/**
 * Wraps the `TokenEstimator` in context with a learned per-model correction:
 * provides a `TokenEstimator` whose estimates for `model` are multiplied by
 * the learned factor, and the `Calibration` that learns it. Feed the
 * provider-reported usage to `Calibration.record` after each call.
 *
 * @example
 * const Estimation = Calibration.layerTokenEstimator({ model: "gpt-4o" }).pipe(Layer.provide(TokenEstimator.layer))
 * const step = Effect.gen(function*() {
 *   const estimate = (yield* TokenEstimator.TokenEstimator).estimateConversation(messages)
 *   const reply = yield* callModel(messages)
 *   yield* (yield* Calibration.Calibration).record("gpt-4o", estimate, reply.usage?.inputTokens ?? 0)
 * })
 * step.pipe(Effect.provide(Estimation))
 *
 * @since 0.1.0
 */
export const layerTokenEstimator = (
  options: CalibratedOptions
): Layer.Layer<TokenEstimator | Calibration, InvalidEstimatorOptions, TokenEstimator> => {
  const { model, ...tuning } = options
  return Layer.effectContext(
    Effect.gen(function*() {
      const base = yield* TokenEstimator
      const calibration = yield* make(base, tuning)
      return Context.make(Calibration, calibration).pipe(Context.add(TokenEstimator, calibration.estimatorFor(model)))
    })
  )
}
