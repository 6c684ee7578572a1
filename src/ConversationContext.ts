/**
 * A conversation with its token budget: an immutable value agent code can
 * pass around, append to, and fit, always knowing how much room is left.
 *
 * A context holds the messages, the budget, the running estimate of the
 * messages (from the `TokenEstimator` it was made with) and a correction
 * learned from what the provider reported. `append` estimates only the
 * messages it adds; `fit` runs the `MessageWindow` and returns a new context
 * with what it kept; `recordUsage` takes the input tokens the provider
 * reported for the context that was sent and corrects the running figure by
 * the difference (the tokens a request spends beside its messages: tool
 * definitions, framing), which later fits leave room for. With a calibrated
 * estimator (`Calibration.layerTokenEstimator`), whose figures move as it
 * learns, `fit` and `recordUsage` estimate the whole conversation afresh
 * (memoized messages make that cheap), so the running figure follows the
 * factor from each report on; `refresh` does the same on its own.
 *
 * @example
 * import { Effect } from "effect"
 * import { ConversationContext, Message, TokenEstimator } from "effect-agent-messages"
 *
 * const program = Effect.gen(function* () {
 *   let context = yield* ConversationContext.make([Message.system("Be brief.")], 100_000)
 *   context = ConversationContext.append(context, Message.user("Hi"))
 *   return context.headroom
 * })
 * program.pipe(Effect.provide(TokenEstimator.layer))
 *
 * @since 0.1.0
 */
import { Effect, Inspectable } from "effect"
import { dual } from "effect/Function"
import type * as Message from "./Message.js"
import * as MessageWindow from "./MessageWindow.js"
import { TokenEstimator } from "./TokenEstimator.js"
import type { Service as Estimator } from "./TokenEstimator.js"

/**
 * A budgeted view of a conversation.
 *
 * - `messages`, `budget`: the conversation and its budget in tokens.
 * - `estimated`: the sum of the messages' estimates.
 * - `correction`: the provider's last reported input tokens minus the
 *   estimate of the context that was sent (0 until a report).
 * - `tokens`: `estimated + correction`, the best figure for what sending
 *   these messages costs; `headroom`: `budget - tokens` (negative when over).
 *   A negative correction never takes `tokens` below a quarter of
 *   `estimated` (rounded up, so at least 1 for messages that cost any
 *   tokens): see `recordUsage`.
 * - `estimator`: the estimator the figures come from.
 * - `maxInputTokens`: the most input tokens a report can count (the model's
 *   context window), when the context was made with one (`ContextOptions`);
 *   absent otherwise. Every context made from this one keeps it.
 *
 * `console.log`, `util.inspect`, `String` and `JSON.stringify` show a
 * context as `{ _id: "ConversationContext", messages, budget, estimated,
 * correction, tokens, headroom }`, with `maxInputTokens` last when it is set.
 *
 * @since 0.1.0
 */
export interface ConversationContext {
  readonly messages: ReadonlyArray<Message.Message>
  readonly budget: number
  readonly estimated: number
  readonly correction: number
  readonly tokens: number
  readonly headroom: number
  readonly estimator: Estimator
  readonly maxInputTokens?: number
}

/**
 * How a context is made.
 *
 * - `maxInputTokens`: the model's context window, the most input tokens a
 *   request the provider accepted can have counted. `recordUsage` takes no
 *   report above it (a count of something else, or a wrong one), so that
 *   no correction larger than the window can make `fit` fail. A value that
 *   is not a number (NaN) takes no report at all, as a budget that is not
 *   a number fits nothing. Without it, a report is taken however large.
 *
 * @example
 * import { ConversationContext, Message, TokenEstimator } from "effect-agent-messages"
 *
 * const context = ConversationContext.makeWith(TokenEstimator.heuristic, [Message.user("Hi")], 100_000, { maxInputTokens: 128_000 })
 * ConversationContext.recordUsage(context, 1_000_000) === context // true: no request to this model counts that much
 *
 * @since 0.1.0
 */
export interface ContextOptions {
  readonly maxInputTokens?: number | undefined
}

/**
 * The correction for what a fit kept. A positive one (the estimator counted
 * under the provider) is kept whole, the safe side. A negative one (the
 * estimator counted over) grows with the text it was measured on, so it is
 * scaled to the estimate of what was kept: carried whole, it would make a
 * short history's tokens negative and its headroom larger than the budget.
 */
const correctionAfterFit = (correction: number, before: number, estimated: number): number => {
  if (correction >= 0 || before <= 0) return correction
  return Math.round(correction * (estimated / before))
}

/**
 * What a context's correction was measured on: the messages the provider's
 * report counted, and what the estimator said they cost when it was last
 * measured. A calibrated estimator that learns from the same report closes
 * part of the gap itself; carried unchanged, the correction would count that
 * part twice (a context whose messages were reported at 1,358 tokens
 * figured at 1,459 once the factor moved one step).
 */
interface Anchor {
  readonly sent: ReadonlyArray<Message.Message>
  readonly estimated: number
  /** The share of a move of that estimate the correction takes: a fit scales a negative correction to what it kept, and its moves with it. */
  readonly scale: number
}

/** Beside each context this module built, as its history is (`histories`). */
const anchors = new WeakMap<ConversationContext, Anchor>()

/**
 * The context's correction as the estimator counts now: what the estimate of
 * the reported messages moved since it was measured comes off it (a factor
 * that rose takes its share of the gap), and the anchor to keep.
 */
const remeasured = (self: ConversationContext): { readonly correction: number; readonly anchor: Anchor | undefined } => {
  const anchor = anchors.get(self)
  if (anchor === undefined) return { correction: self.correction, anchor }
  const now = self.estimator.estimateConversation(anchor.sent)
  if (now === anchor.estimated) return { correction: self.correction, anchor }
  return { correction: Math.round(self.correction - anchor.scale * (now - anchor.estimated)), anchor: { ...anchor, estimated: now } }
}

/**
 * The fewest tokens messages estimated at `estimated` can cost: a quarter of
 * the estimate, rounded up (so at least 1 for anything estimated above 0).
 * An estimator more than four times over is not one a report can correct
 * (a calibration's factor stops at a quarter by default too); a count below
 * this is of part of the request (only its uncached tokens, one message of
 * many) or of none of it.
 */
const leastCost = (estimated: number): number => Math.ceil(estimated / 4)

/**
 * The messages of a context: the first `length` of `items`. Contexts appended
 * one from another share one growing array: an append pushes onto it when the
 * context it appends to ends where the array ends, and copies the context's
 * messages first otherwise (the array came from the caller or a fit, or a
 * later append already took that place: a branch), so every context keeps
 * seeing its own messages and a run of appends costs what it adds. The frozen
 * array `messages` hands out is made on first read.
 */
interface History {
  readonly items: ReadonlyArray<Message.Message>
  /** `items` when this module made it and may push onto it. */
  readonly growable: Array<Message.Message> | undefined
  readonly length: number
  view: ReadonlyArray<Message.Message> | undefined
}

/**
 * Where a context this module built keeps its history: beside it, not on it,
 * so that a context spread into a new object by the caller does not carry it
 * (that object's `messages` are what it holds), and Effect's structural
 * `Equal`, which compares every own key, compares contexts by what they show,
 * never by the shared array behind them.
 */
const histories = new WeakMap<ConversationContext, History>()

type Built = { -readonly [K in keyof ConversationContext]: ConversationContext[K] }

/** A history of messages the caller gave (copied, unless frozen) or a fit kept. */
const historyFrom = (messages: ReadonlyArray<Message.Message>): History => {
  const items = Object.isFrozen(messages) ? messages : Object.freeze(messages.slice())
  return { items, growable: undefined, length: items.length, view: items }
}

const historyOf = (self: ConversationContext): History => histories.get(self) ?? historyFrom(self.messages)

/** The `messages` of every context, one function read through `this` (a getter per context would cost a closure each). */
function messagesOf(this: Built): ReadonlyArray<Message.Message> {
  const history = histories.get(this)
  // only a context this module built has the getter; called on anything else (a borrowed getter) it holds nothing
  if (history === undefined) return Object.freeze([])
  return (history.view ??= Object.freeze(history.items.slice(0, history.length)))
}

/**
 * How a context prints (`console.log`, `util.inspect`, `String`, `toJSON`):
 * its messages and figures, as Effect's data types print (`_id` first), not
 * the getter that reads them. Kept on a shared prototype, not on the
 * context: its own keys, and so Effect's `Equal` and `Hash`, stay what it
 * shows. The estimator is left out: it is functions.
 */
const ContextProto: Inspectable.Inspectable = {
  ...Inspectable.BaseProto,
  toJSON(this: ConversationContext) {
    return {
      _id: "ConversationContext",
      messages: this.messages,
      budget: this.budget,
      estimated: this.estimated,
      correction: this.correction,
      tokens: this.tokens,
      headroom: this.headroom,
      ...(this.maxInputTokens === undefined ? {} : { maxInputTokens: this.maxInputTokens })
    }
  }
}

const build = (
  estimator: Estimator,
  history: History,
  budget: number,
  estimated: number,
  given: number,
  maxInputTokens: number | undefined,
  anchor: Anchor | undefined
): ConversationContext => {
  // a negative correction never takes the figure below the least the messages can cost: scaled by a fit (rounded),
  // or kept while a calibrated estimator's factor fell, it could otherwise reach 0 or below for messages that cost tokens
  // (an estimate that is no finite figure, which `fit` reports as the estimator's, has no least cost: the given stays)
  const correction = !Number.isFinite(estimated) ? given : estimated > 0 ? Math.max(given, leastCost(estimated) - estimated) : Math.max(given, 0)
  const context = Object.defineProperty(Object.create(ContextProto), "messages", { get: messagesOf, enumerable: true }) as Built
  context.budget = budget
  context.estimated = estimated
  context.correction = correction
  context.tokens = estimated + correction
  context.headroom = budget - estimated - correction
  context.estimator = estimator
  // set only when given: a context made without it has the keys it always had (Equal, printing)
  if (maxInputTokens !== undefined) context.maxInputTokens = maxInputTokens
  histories.set(context, history)
  if (anchor !== undefined) anchors.set(context, anchor)
  return Object.freeze(context)
}

/**
 * A context from messages, a budget and an estimator (outside Effect, or
 * with an estimator you hold), with `ContextOptions` if you like.
 *
 * @example
 * const context = ConversationContext.makeWith(TokenEstimator.heuristic, messages, 100_000)
 * // bounded by the model's context window: recordUsage takes no report above it
 * const bounded = ConversationContext.makeWith(TokenEstimator.heuristic, messages, 100_000, { maxInputTokens: 128_000 })
 *
 * @since 0.1.0
 */
export const makeWith = (
  estimator: Estimator,
  messages: ReadonlyArray<Message.Message>,
  budget: number,
  options?: ContextOptions
): ConversationContext => {
  const history = historyFrom(messages)
  return build(estimator, history, budget, estimator.estimateConversation(history.items), 0, options?.maxInputTokens, undefined)
}

/**
 * A context from messages and a budget, estimated with the `TokenEstimator`
 * in context, with `ContextOptions` if you like.
 *
 * @example
 * const context = yield* ConversationContext.make(history, 100_000)
 * // bounded by the model's context window: recordUsage takes no report above it
 * const bounded = yield* ConversationContext.make(history, 100_000, { maxInputTokens: 128_000 })
 *
 * @since 0.1.0
 */
export const make = (
  messages: ReadonlyArray<Message.Message>,
  budget: number,
  options?: ContextOptions
): Effect.Effect<ConversationContext, never, TokenEstimator> =>
  TokenEstimator.use((estimator) => Effect.sync(() => makeWith(estimator, messages, budget, options)))

/**
 * The context with messages added at the end. Only the added messages are
 * estimated, and only they are copied: contexts appended one from another
 * share their messages (a context appended to a second time, a branch, copies
 * its own first), so a history built one message at a time costs what it
 * holds. The context appended to is unchanged: its `messages` are still its
 * own.
 *
 * @example
 * let context = ConversationContext.makeWith(TokenEstimator.heuristic, [Message.system("Be brief.")], 100_000)
 * context = ConversationContext.append(context, Message.user("Weather in Oslo?"))
 * context = ConversationContext.append(context, [
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ])
 * context.messages.length // 4
 *
 * @since 0.1.0
 */
export const append: {
  (messages: Message.Message | ReadonlyArray<Message.Message>): (self: ConversationContext) => ConversationContext
  (self: ConversationContext, messages: Message.Message | ReadonlyArray<Message.Message>): ConversationContext
} = dual(2, (self: ConversationContext, messages: Message.Message | ReadonlyArray<Message.Message>): ConversationContext => {
  const added: ReadonlyArray<Message.Message> = Array.isArray(messages) ? messages : [messages as Message.Message]
  if (added.length === 0) return self
  let estimated = self.estimated
  for (const m of added) estimated += self.estimator.estimateMessage(m)
  const history = historyOf(self)
  // push onto the shared array only where it ends with this context: anywhere else a later context's messages follow
  const items = history.growable !== undefined && history.growable.length === history.length ? history.growable : history.items.slice(0, history.length)
  for (const m of added) items.push(m)
  return build(self.estimator, { items, growable: items, length: items.length, view: undefined }, self.budget, estimated, self.correction, self.maxInputTokens, anchors.get(self))
})

/**
 * The context with its messages estimated afresh. The running figure of
 * `append` stays what the estimator said when each message was added; with
 * a calibrated estimator, whose factor moves with every report, call this
 * (or `fit`, or `recordUsage`, which do it themselves) to bring `tokens`
 * and `headroom` up to date. Message estimates are memoized, so it costs a
 * lookup per message.
 *
 * @example
 * const context = yield* ConversationContext.make(history, 100_000)
 * // ... the calibrated estimator learned from other requests' usage
 * const current = ConversationContext.refresh(context)
 * ConversationContext.isOver(current)
 *
 * @since 0.1.0
 */
export const refresh = (self: ConversationContext): ConversationContext => {
  const estimated = self.estimator.estimateConversation(self.messages)
  const { anchor, correction } = remeasured(self)
  return estimated === self.estimated && correction === self.correction
    ? self
    : build(self.estimator, historyOf(self), self.budget, estimated, correction, self.maxInputTokens, anchor)
}

/**
 * The context with another budget.
 *
 * @example
 * const context = ConversationContext.makeWith(TokenEstimator.heuristic, messages, 128_000)
 * // the next request goes to a model with a smaller window
 * const smaller = ConversationContext.withBudget(context, 32_000)
 * smaller.headroom === context.headroom - 96_000 // true
 *
 * @since 0.1.0
 */
export const withBudget: {
  (budget: number): (self: ConversationContext) => ConversationContext
  (self: ConversationContext, budget: number): ConversationContext
} = dual(2, (self: ConversationContext, budget: number): ConversationContext =>
  build(self.estimator, historyOf(self), budget, self.estimated, self.correction, self.maxInputTokens, anchors.get(self)))

/**
 * The context corrected by what the provider reported for it: call it with
 * the context that was sent and the input tokens of the response (a number,
 * or a `Usage` such as an assistant message's `usage`). The running figure
 * becomes the reported count, and the difference from the estimate is kept
 * as `correction` until the next report: later appends add their estimates
 * on top of it, and `fit` leaves room for it when it is positive. A usage
 * without `inputTokens` changes nothing.
 *
 * A report that cannot be a count of the whole request is no report either:
 * 0 or less, not a finite number, or below a quarter of the messages'
 * estimate (rounded up). An estimator more than four times over is not one
 * a report can correct; a count that low is of part of the request (its
 * uncached tokens only, one message of many) or of none of it, and taken
 * it would let later fits keep up to four times what the budget holds. Such
 * a report returns the very context it was given, so `recordUsage(sent,
 * usage) === sent` tells that a report with a count was not taken; the
 * context, and its earlier correction, stay as they were.
 *
 * A report above the estimate is taken up to the context's
 * `maxInputTokens`, the model's context window (`ContextOptions`, given to
 * `make` or `makeWith` and kept by every context made from that one): a
 * request the provider accepted cannot have counted more, so a report above
 * it is no report either, and returns the very context. Without that bound
 * a report is taken however large: what a request spends beside its
 * messages (tool definitions) can be any multiple of a short conversation's
 * estimate, so no ratio tells a wrong count from a true one. A report's
 * effect lasts until the next report, which replaces the correction rather
 * than adding to it. With a calibrated estimator that learns from the same
 * report, `refresh` and `fit` take off the correction what the estimate of
 * the reported messages moved since (the estimator closed that part of the
 * gap), so the figure for those messages stays the reported count whichever
 * of the two was told first. Until the next report, a correction the budget cannot hold makes
 * `fit` fail with `BudgetTooSmall`, whose `usageCorrection` names it. To
 * drop a correction you do not trust, make the context afresh:
 * `makeWith(context.estimator, context.messages, context.budget, context)`
 * (the context as the options keeps its `maxInputTokens`).
 *
 * @example
 * let context = yield* ConversationContext.make([Message.user("Weather in Oslo?")], 100_000)
 * const sent = context
 * const reply = yield* callModel(sent.messages)
 * context = ConversationContext.append(ConversationContext.recordUsage(sent, reply.usage ?? {}), reply)
 * // context.tokens now starts from what the provider counted, not from the estimate
 *
 * @since 0.1.0
 */
export const recordUsage: {
  (usage: number | { readonly inputTokens?: number | undefined }): (self: ConversationContext) => ConversationContext
  (self: ConversationContext, usage: number | { readonly inputTokens?: number | undefined }): ConversationContext
} = dual(2, (self: ConversationContext, usage: number | { readonly inputTokens?: number | undefined }): ConversationContext => {
  // (a usage the provider did not send, null or undefined from untyped code, is no report either)
  const input = typeof usage === "number" ? usage : typeof usage === "object" && usage !== null ? usage.inputTokens : undefined
  // no request costs nothing: a report of 0 (a provider that did not count) is no report
  if (input === undefined || !Number.isFinite(input) || input <= 0) return self
  // a request the provider accepted counted no more than the model's window holds (a bound that is NaN takes nothing)
  if (self.maxInputTokens !== undefined && !(input <= self.maxInputTokens)) return self
  // estimated afresh: a calibrated estimator's figures move with every report it learns from (messages are memoized)
  const estimated = self.estimator.estimateConversation(self.messages)
  // a count below the least these messages can cost is not of this request: taken, it would make later fits keep far too much
  if (input < leastCost(estimated)) return self
  return build(self.estimator, historyOf(self), self.budget, estimated, input - estimated, self.maxInputTokens, { sent: self.messages, estimated, scale: 1 })
})

/**
 * Whether the context is over its budget (a budget that is not a number, NaN,
 * counts as over: nothing is known to fit it).
 *
 * @example
 * const context = ConversationContext.makeWith(TokenEstimator.heuristic, messages, 100_000)
 * if (ConversationContext.isOver(context)) {
 *   // fit it before the next call
 * }
 *
 * @since 0.1.0
 */
export const isOver = (self: ConversationContext): boolean => !(self.headroom >= 0)

/**
 * Fits the context into its budget with the `MessageWindow` in context:
 * the new context holds what was kept (with the same correction when it is
 * positive, for which the window leaves room; a negative one, an estimator
 * that counts over, scaled to what was kept, never below a quarter of its
 * estimate), and `fitted` says what changed.
 *
 * The window counts with the estimator it was built on, the context with
 * its own: build the window on the estimator the context was made with
 * (`MessageWindow.layer` over the same `TokenEstimator`, a calibrated one
 * included). On another, what the window kept can cost more by the
 * context's count than the budget holds; `isOver` on the result tells.
 *
 * @example
 * const context = yield* ConversationContext.make(history, 100_000)
 * const { context: next, fitted } = yield* ConversationContext.fit(context, { strategy: ["clear_tool_results", "drop_oldest"] })
 * next.headroom >= 0 // true
 * MessageWindow.describe(fitted)
 *
 * @since 0.1.0
 */
export const fit: {
  (options?: MessageWindow.FitOptions): (
    self: ConversationContext
  ) => Effect.Effect<{ readonly context: ConversationContext; readonly fitted: MessageWindow.Fitted }, MessageWindow.FitError, MessageWindow.MessageWindow>
  (
    self: ConversationContext,
    options?: MessageWindow.FitOptions
  ): Effect.Effect<{ readonly context: ConversationContext; readonly fitted: MessageWindow.Fitted }, MessageWindow.FitError, MessageWindow.MessageWindow>
} = dual(
  (args) => typeof args[0] === "object" && args[0] !== null && "estimator" in args[0],
  (self: ConversationContext, options?: MessageWindow.FitOptions) => {
    const given = options?.fixedTokens
    // the correction as the estimator counts now (a calibrated one may have learned part of it since)
    const { anchor, correction } = remeasured(self)
    // an invalid value goes to the window as given, so that its error names what the caller wrote
    const valid = given === undefined || (typeof given === "number" && Number.isFinite(given) && given >= 0)
    // a sum past the largest number is a budget too small by any count, not the Infinity the caller never wrote; a
    // correction that is no finite figure (measured against an estimate that was none) is set aside as nothing, and the
    // window names the estimate that is at fault rather than fixed tokens the caller never gave
    const setAside = Number.isFinite(correction) ? Math.max(0, correction) : 0
    const fixed = valid ? Math.min(Number.MAX_VALUE, (given ?? 0) + setAside) : given
    return MessageWindow.fit(self.messages, self.budget, { ...options, fixedTokens: fixed }).pipe(
      // the correction is set aside as fixed tokens: the error says how much of what is set aside it is
      Effect.mapError((e) =>
        e._tag === "BudgetTooSmall" && correction > 0
          ? new MessageWindow.BudgetTooSmall({ budget: e.budget, minimumBudget: e.minimumBudget, tokens: e.tokens, setAside: e.setAside ?? correction, usageCorrection: correction })
          : e
      ),
      Effect.map((fitted) => {
        // estimated afresh even when nothing changed: a calibrated estimator's figures move with every report it
        // learns from, and the running sum of `append` does not follow them; kept messages are memoized, so this
        // only estimates what the window wrote (cleared results, a summary)
        const estimated = self.estimator.estimateConversation(fitted.messages)
        if (!fitted.changed && estimated === self.estimated && correction === self.correction) return { context: self, fitted }
        // (a negative one scaled from the estimate of the messages it was carried on, at the estimator's count now)
        const before = correction >= 0 ? self.estimated : self.estimator.estimateConversation(self.messages)
        const carried = correctionAfterFit(correction, before, estimated)
        // a scaled correction takes the same share of later moves
        const kept = anchor === undefined || carried === correction || before <= 0 ? anchor : { ...anchor, scale: anchor.scale * (estimated / before) }
        return { context: build(self.estimator, historyFrom(fitted.messages), self.budget, estimated, carried, self.maxInputTokens, kept), fitted }
      })
    )
  }
)
