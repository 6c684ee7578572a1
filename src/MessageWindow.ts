/**
 * The message window: fits a conversation into a token budget without ever
 * breaking it.
 *
 * `fit(messages, budget, options?)` keeps the pinned messages (system
 * messages, the newest user message and everything after it, optionally the
 * first user message and messages you mark) and the longest run of the
 * newest other messages that fits, and reports everything it dropped or
 * changed. The result passes `Conversation.validate` whenever the input
 * does, and `Conversation.validateFor(provider)` with `{ provider }`. On a
 * broken input (results a turn away from their calls) it still never keeps a
 * result whose call it dropped, or drops a result whose call it keeps.
 *
 * Strategies, alone or `clear_tool_results` followed by one of the others:
 *
 * - `drop_oldest`: drops the oldest messages one at a time; an assistant
 *   message with tool calls leaves together with its results.
 * - `drop_oldest_pair`: drops whole turns (a user message and everything up
 *   to the next user message).
 * - `clear_tool_results`: first replaces the content of the oldest tool
 *   results (and, with `clearThinking`, old thinking) with a short note of
 *   what was removed and its size, keeping the newest results intact and
 *   every call and result in place.
 * - `summarize`: drops whole turns and puts a summary of them, written by the
 *   `Summarizer` service, in their place.
 *
 * It works in one pass over prefix sums of the per-message estimates of the
 * `TokenEstimator` service (memoized per message), so a fit is linear in the
 * conversation's length and every message is estimated at most once.
 *
 * `fitRequest(request, budget, options?)` fits a whole request: its messages
 * get what its tool definitions, tool choice, response format and the
 * provider's framing (`TokenEstimator.estimateRequest`) and the `reserve`
 * for the answer leave.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { Message, MessageWindow, TokenEstimator } from "effect-agent-messages"
 *
 * const program = Effect.gen(function* () {
 *   const fitted = yield* MessageWindow.fit([Message.system("Be brief."), Message.user("Hi")], 8_000)
 *   return fitted.messages
 * })
 * program.pipe(Effect.provide(MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))))
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import * as Block from "./Block.js"
import type * as Conversation from "./Conversation.js"
import * as Message from "./Message.js"
import { all as allProviders, isProvider, type Provider } from "./Provider.js"
import * as Request from "./Request.js"
import * as Summarizer from "./Summarizer.js"
import { TokenEstimator } from "./TokenEstimator.js"
import type { RequestEstimate, Service as Estimator } from "./TokenEstimator.js"
import { thinkingLeftOut } from "./internal/requestEstimate.js"
import { isBlank } from "./internal/blank.js"
import { isThinkingBlock } from "./internal/anthropicTurn.js"
import type { Clearing, Layout, Mode, SummaryRole } from "./internal/window.js"
import { isSummaryMessage, SUMMARY_KEY, summariesIn, summaryHeader } from "./internal/summaryMark.js"
import { isReasoningItem } from "./internal/responsesItems.js"
import { missingReasoningItems, profileOptionsOf, requiresReasoningItems } from "./internal/reasoningItems.js"
import { preview } from "./internal/preview.js"
import { systemRunBetweenResults } from "./internal/systemRun.js"
import { layoutOf, plan } from "./internal/window.js"

/**
 * OpenAI Responses, for a model that wants reasoning items: the assistant
 * messages that send an output item with its id before any reasoning item of
 * their own (so they need one from an earlier step of their turn), by index;
 * undefined when the profile wants none. Read by the validator's own rule,
 * each assistant message as if it began a turn.
 */
const unreasonedMessages = (messages: ReadonlyArray<Message.Message>, profile: Conversation.ProfileOptions | undefined): ReadonlySet<number> | undefined => {
  if (!requiresReasoningItems(profile) || profile?.store === false) return undefined
  const turnStart = Message.user("")
  const probe: Array<Message.Message> = []
  const origin: Array<number> = []
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role !== "assistant") continue
    probe.push(turnStart, m)
    origin.push(-1, i)
  }
  const found = new Set<number>()
  for (const issue of missingReasoningItems(probe, { ...profile, continues: false })) found.add(origin[issue.index]!)
  return found
}

// ---------------------------------------------------------------------------
// options
// ---------------------------------------------------------------------------

/**
 * How the window makes room.
 *
 * @since 0.1.0
 */
export type Strategy = "drop_oldest" | "drop_oldest_pair" | "clear_tool_results" | "summarize"

/**
 * Every strategy, in a fixed order.
 *
 * @example
 * const chosen = process.env["WINDOW_STRATEGY"] ?? "drop_oldest"
 * const strategy = MessageWindow.strategies.find((s) => s === chosen) ?? "drop_oldest"
 * const fitted = yield* MessageWindow.fit(history, 8_000, { strategy })
 *
 * @since 0.1.0
 */
export const strategies: ReadonlyArray<Strategy> = ["drop_oldest", "drop_oldest_pair", "clear_tool_results", "summarize"]

/**
 * Options of `fit`.
 *
 * - `strategy`: one strategy, or `clear_tool_results` followed by one of the
 *   others (`["clear_tool_results", "drop_oldest"]`: clear first, then drop
 *   if still over). Default `"drop_oldest"`.
 * - `provider`: the result passes `Conversation.validateFor(provider)`
 *   whenever the input does (Anthropic and Gemini conversations still start
 *   with a user message after a cut; the thinking of the last assistant turn
 *   stays). A cut never makes two messages of one role meet, even for a
 *   provider that would merge them itself, so the result also passes the
 *   generic rules whenever the input does.
 * - `pinFirstUser`: always keep the first user message (the task).
 * - `pin`: messages to keep whatever happens; a marked message keeps its
 *   whole unit (an assistant message with its results, a result with its
 *   call), and is never cleared. A `pin` that throws is a defect, as any
 *   callback's exception is in Effect (the fit dies with it).
 * - `keepToolResults`: how many of the newest tool results
 *   `clear_tool_results` keeps intact (default 3).
 * - `clearThinking`: `clear_tool_results` also clears the thinking of
 *   assistant messages before the newest user message, but never that of
 *   the last assistant turn (its assistant messages and their results, back
 *   to the user message before them), even when the newest user message
 *   comes after it: a provider that joins that turn's results with the
 *   newest user message (Anthropic) wants the turn's thinking back
 *   (default false).
 * - `summaryTokens`: room `summarize` leaves for the summary when it can
 *   (default a quarter of what the messages may use, at most 1,000 tokens);
 *   it always leaves room for at least a short one: the header and 16 tokens
 *   of text (fewer when `summaryTokens` is set lower).
 * - `fixedTokens`: tokens the request spends beside these messages (tool
 *   definitions, framing; `fitRequest` works them out from the request);
 *   `reserve`: tokens kept free for the answer. The messages get
 *   `budget - fixedTokens - reserve`.
 * - `profile`: what `Conversation.validateFor(provider, profile)` is told
 *   about the request (`Conversation.profileOptionsOf`; `fitRequest` reads
 *   it from the request when not given). With `provider: "openai-responses"`
 *   and a model that wants reasoning items (`o3`, `gpt-5`), a step of a turn
 *   is kept only with the reasoning item its output items came after, and
 *   `clearThinking` leaves reasoning items alone, so the result passes
 *   `validateFor(provider, profile)` whenever the input does.
 *
 * @example
 * const fitted = yield* MessageWindow.fit(history, 8_000, { provider: "openai-responses", profile: { model: "o3" } })
 *
 * @since 0.1.0
 */
export interface FitOptions {
  readonly strategy?: Strategy | ReadonlyArray<Strategy>
  readonly provider?: Provider
  readonly pinFirstUser?: boolean
  readonly pin?: (message: Message.Message, index: number) => boolean
  readonly keepToolResults?: number
  readonly clearThinking?: boolean
  readonly summaryTokens?: number
  readonly fixedTokens?: number
  readonly reserve?: number
  readonly profile?: Conversation.ProfileOptions
}

// ---------------------------------------------------------------------------
// errors
// ---------------------------------------------------------------------------

/**
 * The messages that must stay (the pinned ones, or the smallest valid cut)
 * do not fit the budget. `minimumBudget` is the smallest budget that works
 * with the same options; `tokens` what the whole conversation costs;
 * `setAside`, when any, the tokens kept beside the messages (`fixedTokens`
 * and `reserve`: tools, the output reserve), of which `usageCorrection` is
 * what a `ConversationContext` added from reported usage (`recordUsage`).
 *
 * @example
 * const fitted = yield* MessageWindow.fit(history, 50).pipe(
 *   Effect.catchTag("BudgetTooSmall", (e) => MessageWindow.fit(history, e.minimumBudget))
 * )
 *
 * @since 0.1.0
 */
export class BudgetTooSmall extends Schema.TaggedError<BudgetTooSmall>()("BudgetTooSmall", {
  budget: Schema.Number,
  minimumBudget: Schema.Number,
  tokens: Schema.Number,
  setAside: Schema.optionalKey(Schema.Number),
  usageCorrection: Schema.optionalKey(Schema.Number)
}) {
  override get message(): string {
    const aside = this.setAside === undefined ? "" : `; ${this.setAside} of the budget are set aside beside the messages${this.usageCorrection === undefined ? "" : `, ${this.usageCorrection} of them for what reported usage showed the estimates miss`}`
    return `a budget of ${this.budget} ${this.budget === 1 ? "token" : "tokens"} is too small: the messages that must stay need a budget of at least ${this.minimumBudget} (the conversation has ${this.tokens}${aside})`
  }
}

/**
 * Options given to `fit` were refused: `option` names the bad one, `reason`
 * says why.
 *
 * @example
 * const error = yield* Effect.flip(MessageWindow.fit(history, 8_000, { strategy: ["drop_oldest", "clear_tool_results"] }))
 * if (error._tag === "InvalidFitOptions") error.message
 * // 'invalid window option "strategy": clear_tool_results runs before drop_oldest: list it first'
 *
 * @since 0.1.0
 */
export class InvalidFitOptions extends Schema.TaggedError<InvalidFitOptions>()("InvalidFitOptions", {
  option: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `invalid window option ${JSON.stringify(this.option)}: ${this.reason}`
  }
}

/**
 * The `TokenEstimator` in context gave a figure for a message or a request
 * that is no number of tokens (`NaN`, an infinity, a negative number or not
 * a number at all): a rule given to `TokenEstimator.make` or `fromTextRule`
 * that returns one. `what` names what it was asked to estimate, `value`
 * shows what it gave. (The window reads messages' and requests' figures: a
 * text rule's small negative figure that a message's overhead makes up for
 * is not seen.)
 *
 * @example
 * const estimator = TokenEstimator.fromTextRule(() => Number.NaN) // a rule that gives no number
 * const error = yield* Effect.flip(MessageWindow.fit(history, 8_000).pipe(
 *   Effect.provide(MessageWindow.layer.pipe(Layer.provide(Layer.succeed(TokenEstimator.TokenEstimator, estimator))))
 * ))
 * error._tag // "InvalidEstimate"
 *
 * @since 0.1.0
 */
export class InvalidEstimate extends Schema.TaggedError<InvalidEstimate>()("InvalidEstimate", {
  what: Schema.String,
  value: Schema.String
}) {
  override get message(): string {
    return `the token estimator gave ${this.value} for ${this.what}: an estimate must be a finite number of tokens, 0 or more (check the rules given to TokenEstimator.make or fromTextRule)`
  }
}

/**
 * Every way `fit` can fail. `SummaryFailed` comes from the `Summarizer`, or
 * from the window when a summarizer answers with blank text (a summary of
 * nothing would replace the dropped turns with a bare header).
 * `InvalidEstimate` comes from an estimator whose rule gives no number of
 * tokens.
 *
 * @since 0.1.0
 */
export type FitError = BudgetTooSmall | InvalidFitOptions | InvalidEstimate | Summarizer.SummaryFailed

// ---------------------------------------------------------------------------
// results
// ---------------------------------------------------------------------------

/**
 * A run of consecutive input messages that was dropped: `messages` is
 * `input.slice(start, end)`, costing `tokens`.
 *
 * @since 0.1.0
 */
export interface Dropped {
  readonly _tag: "Dropped"
  readonly start: number
  readonly end: number
  readonly messages: ReadonlyArray<Message.Message>
  readonly tokens: number
}

/**
 * A message whose tool results (or thinking) were replaced by a note of what
 * was removed: input message `index`, now at `at` in the output, `before`
 * and `after` it, how many results and thinking blocks were cleared, and the
 * tokens saved.
 *
 * @since 0.1.0
 */
export interface Cleared {
  readonly _tag: "Cleared"
  readonly index: number
  readonly at: number
  readonly before: Message.Message
  readonly after: Message.Message
  readonly toolResults: number
  readonly thinking: number
  readonly tokensSaved: number
}

/**
 * The summary that took the dropped messages' place: the `message` at `at`
 * in the output, how many input messages it `replaces` (an earlier summary
 * taken out of a system message, `TakenOut`, counts as one), its `tokens`,
 * whether it was `shortened` to fit, and how many of the oldest dropped
 * messages were too many to show the summarizer (`notShown`, 0 normally:
 * the summarizer sees up to 400,000 characters of the newest dropped
 * messages, each message's text cut to 50,000, so that a pasted log does not
 * hide the task stated before it; earlier summaries are shown whatever their
 * age, within 200,000 characters between them, the newest first).
 *
 * @since 0.1.0
 */
export interface Summarized {
  readonly _tag: "Summarized"
  readonly at: number
  readonly message: Message.Message
  readonly replaces: number
  readonly tokens: number
  readonly shortened: boolean
  readonly notShown: number
}

/**
 * Earlier summaries taken out of a system message. Anthropic (`system`) and
 * Gemini (`systemInstruction`) hold all system text in one prompt, so a
 * history read back from them has the summary the window wrote as one text
 * block of the system message, after the system prompt. The window reads
 * such a message as the system prompt followed by the summary: the summary
 * is dropped, or folded into the next one, as any earlier summary is, and
 * the rest of the system message stays. Input message `index`, now at `at`
 * in the output, `before` and `after` it (its other blocks, name and
 * options as they were), how many summary blocks were taken out, and the
 * tokens saved.
 *
 * @since 0.1.0
 */
export interface TakenOut {
  readonly _tag: "TakenOut"
  readonly index: number
  readonly at: number
  readonly before: Message.Message
  readonly after: Message.Message
  readonly summaries: number
  readonly tokensSaved: number
}

/**
 * Something the caller should know about how the fit went:
 *
 * - `SummarizerUnavailable`: `summarize` was asked for without a `Summarizer`
 *   in context, so whole turns were dropped instead (`drop_oldest_pair`).
 *
 * @since 0.1.0
 */
export type Note = { readonly _tag: "SummarizerUnavailable" }

/**
 * What `fit` returns.
 *
 * - `messages`: the kept conversation (the input array itself when it
 *   already fit, else a new frozen array), pinned messages and a suffix of
 *   the rest, in their order,
 *   with cleared messages in place and the summary before the suffix.
 * - `dropped`, `cleared`, `takenOut`, `summary`: every change; nothing
 *   else differs from the input.
 * - `strategies`: what ran (`summarize` reads `drop_oldest_pair` when it
 *   fell back), `notes` what the caller should know.
 * - `budget` as given, `available` for the messages (`budget - fixedTokens
 *   - reserve`), `tokensBefore` and `tokensAfter` the estimates of the input
 *   and of `messages` (`tokensAfter <= available`).
 *
 * @since 0.1.0
 */
export interface Fitted {
  readonly messages: ReadonlyArray<Message.Message>
  readonly changed: boolean
  readonly dropped: ReadonlyArray<Dropped>
  readonly cleared: ReadonlyArray<Cleared>
  readonly takenOut: ReadonlyArray<TakenOut>
  readonly summary: Summarized | undefined
  readonly strategies: ReadonlyArray<Strategy>
  readonly notes: ReadonlyArray<Note>
  readonly budget: number
  readonly available: number
  readonly tokensBefore: number
  readonly tokensAfter: number
}

const count = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/**
 * What a fit changed, one line each, for logs.
 *
 * @example
 * const fitted = yield* MessageWindow.fit(history, 4_000, { strategy: ["clear_tool_results", "drop_oldest"] })
 * for (const line of MessageWindow.describe(fitted)) console.log(line)
 * // dropped messages[1..8] (8 messages, 2,310 tokens)
 * // cleared 2 tool results in messages[12] (1,020 tokens saved)
 * // 5,210 -> 3,870 tokens (4,000 available)
 *
 * @since 0.1.0
 */
export const describe = (fitted: Fitted): Array<string> => {
  const lines: Array<string> = []
  for (const d of fitted.dropped) {
    const n = d.end - d.start
    lines.push(`dropped messages[${d.start}${n > 1 ? `..${d.end - 1}` : ""}] (${count(n)} message${n === 1 ? "" : "s"}, ${count(d.tokens)} tokens)`)
  }
  for (const t of fitted.takenOut) {
    lines.push(
      `took ${count(t.summaries)} earlier summar${t.summaries === 1 ? "y" : "ies"} out of the system message messages[${t.index}] (${count(t.tokensSaved)} tokens saved)`
    )
  }
  for (const c of fitted.cleared) {
    const what = [
      ...(c.toolResults > 0 ? [`${c.toolResults} tool result${c.toolResults === 1 ? "" : "s"}`] : []),
      ...(c.thinking > 0 ? [`${c.thinking} thinking block${c.thinking === 1 ? "" : "s"}`] : [])
    ].join(" and ")
    lines.push(`cleared ${what} in messages[${c.index}] (${count(c.tokensSaved)} tokens saved)`)
  }
  const s = fitted.summary
  if (s !== undefined) {
    lines.push(
      `summarized ${count(s.replaces)} messages into ${s.message.role === "assistant" ? "an" : "a"} ${s.message.role} message at [${s.at}] (${count(s.tokens)} tokens${s.shortened ? ", shortened to fit" : ""})`
    )
  }
  for (const note of fitted.notes) {
    switch (note._tag) {
      case "SummarizerUnavailable":
        lines.push("no Summarizer in context: dropped whole turns instead of summarizing")
        break
      default:
        Block.absurd(note._tag)
    }
  }
  // room is rounded down: a budget of 211.5 holds 211 whole tokens, and "212 available" would read as if 212 fit
  lines.push(`${count(fitted.tokensBefore)} -> ${count(fitted.tokensAfter)} tokens (${count(Math.floor(fitted.available))} available)`)
  return lines
}

/**
 * Whether a message is a summary written by the window: it carries the
 * summary marker in its `metadata`, or, read back from a provider's format
 * (which carries no metadata), it is a system message, or an assistant
 * message (the role a summary takes after the task or tool results), made
 * of the window's summaries only: each of its text blocks opens with the
 * window's header line
 * (`[Summary of 12 earlier messages, removed to fit the context window]`).
 * Summaries are never pinned as system messages: the next summary folds
 * them in.
 *
 * Anthropic and Gemini join all system text into one prompt, so read back
 * from them a summary is one block of the user's system message: that
 * message is not a summary (it is the system prompt too), but `fit` finds
 * the block, reads the message as the system prompt followed by the
 * summary, and folds or drops the summary as it would a separate one,
 * keeping the rest of the system text (`Fitted.takenOut` reports it).
 *
 * @example
 * const fitted = yield* MessageWindow.fit(history, 4_000, { strategy: "summarize" })
 * const summaries = fitted.messages.filter(MessageWindow.isSummary)
 *
 * @since 0.1.0
 */
export const isSummary: (message: Message.Message) => boolean = isSummaryMessage

// ---------------------------------------------------------------------------
// clearing
// ---------------------------------------------------------------------------

/**
 * How a cleared tool result begins. A result whose content already begins
 * with it is not cleared again.
 *
 * @example
 * const fitted = yield* MessageWindow.fit(history, 4_000, { strategy: "clear_tool_results", keepToolResults: 1 })
 * const cleared = fitted.messages
 *   .flatMap(Message.toolResultsOf)
 *   .filter((r) => typeof r.content === "string" && r.content.startsWith(MessageWindow.CLEARED_PREFIX))
 * // each: "[tool result cleared to save context: read_file returned 18,204 characters]"
 *
 * @since 0.1.0
 */
export const CLEARED_PREFIX = "[tool result cleared to save context:"

const THINKING_PREFIX = "[thinking cleared to save context:"

const sizeOf = (content: Block.ToolResultContent): string => {
  if (typeof content === "string") return `${count(content.length)} characters`
  let chars = 0
  let files = 0
  for (const part of content) {
    switch (part._tag) {
      case "Text":
        chars += part.text.length
        break
      case "Json":
        chars += Block.safeStringify(part.value).length
        break
      case "File":
        files++
        break
      default:
        Block.absurd(part)
    }
  }
  const text = `${count(chars)} characters`
  return files === 0 ? text : `${files} file${files === 1 ? "" : "s"} and ${text}`
}

const isCleared = (result: Block.ToolResultBlock): boolean =>
  typeof result.content === "string" && result.content.startsWith(CLEARED_PREFIX)

/** A result with its content replaced by a note; everything else (id, name, error flag, replay data) kept. */
const clearResult = (result: Block.ToolResultBlock): Block.ToolResultBlock => {
  const { _tag: _, content, isError, toolCallId, toolName, ...extras } = result
  return Block.toolResult(toolCallId, toolName, `${CLEARED_PREFIX} ${toolName} returned ${sizeOf(content)}]`, isError, extras)
}

/** The tool message with its results before block `upTo` cleared; undefined when none is left to clear. */
const clearTool = (message: Message.ToolMessage, upTo: number): { readonly message: Message.ToolMessage; readonly results: number } | undefined => {
  let content: Array<Block.ToolResultBlock> | undefined
  let results = 0
  for (let b = 0; b < upTo; b++) {
    const result = message.content[b]!
    if (isCleared(result)) continue
    content ??= message.content.slice()
    content[b] = clearResult(result)
    results++
  }
  if (content === undefined) return undefined
  const { content: _, role: _r, ...options } = message
  return { message: Message.tool(content, options), results }
}

/** The assistant message without its thinking, a note in place of the first thinking block (before any tool call). */
const clearThinkingOf = (message: Message.AssistantMessage): { readonly message: Message.AssistantMessage; readonly thinking: number } | undefined => {
  const content: Array<Block.AssistantBlock> = []
  let thinking = 0
  let chars = 0
  let noteAt = -1
  for (const block of message.content) {
    if (block._tag === "Thinking" || block._tag === "RedactedThinking") {
      if (noteAt === -1) noteAt = content.length
      thinking++
      chars += block._tag === "Thinking" ? block.thinking.length : block.data.length
      continue
    }
    if (block._tag === "ToolCall" && noteAt === -1) noteAt = -2 - content.length
    content.push(block)
  }
  if (thinking === 0) return undefined
  // a note after a tool call would be text after the calls, which Anthropic rejects
  const at = noteAt >= 0 ? noteAt : -2 - noteAt
  content.splice(at, 0, Block.text(`${THINKING_PREFIX} ${count(chars)} characters]`))
  const { content: _, role: _r, usage, ...options } = message
  return { message: Message.assistant(content, { ...options, ...(usage === undefined ? {} : { usage }) }), thinking }
}

interface ClearedVersion {
  readonly message: Message.Message
  readonly toolResults: number
  readonly thinking: number
}

// fully cleared versions, per message (messages are frozen): a context fitted again and again builds each once
const toolCache = new WeakMap<Message.Message, ClearedVersion | null>()
const thinkingCache = new WeakMap<Message.Message, ClearedVersion | null>()

const fullyCleared = (message: Message.Message): ClearedVersion | undefined => {
  const cache = message.role === "tool" ? toolCache : thinkingCache
  const hit = cache.get(message)
  if (hit !== undefined) return hit ?? undefined
  let version: ClearedVersion | undefined
  if (message.role === "tool") {
    const cleared = clearTool(message, message.content.length)
    version = cleared === undefined ? undefined : { message: cleared.message, toolResults: cleared.results, thinking: 0 }
  } else if (message.role === "assistant") {
    const cleared = clearThinkingOf(message)
    version = cleared === undefined ? undefined : { message: cleared.message, toolResults: 0, thinking: cleared.thinking }
  }
  cache.set(message, version ?? null)
  return version
}

interface ClearingState extends Clearing {
  readonly versionOf: (i: number) => ClearedVersion
}

const makeClearing = (
  messages: ReadonlyArray<Message.Message>,
  estimates: ReadonlyArray<number>,
  layout: Layout,
  keep: number,
  thinking: boolean,
  keepReasoningItems: boolean,
  estimator: Estimator
): ClearingState => {
  const n = messages.length
  // the newest `keep` results stay: results from (protectMessage, protectBlock) on
  let protectMessage = n
  let protectBlock = 0
  let left = keep
  for (let i = n - 1; i >= 0 && left > 0; i--) {
    const m = messages[i]!
    if (m.role !== "tool") continue
    protectMessage = i
    if (m.content.length <= left) {
      left -= m.content.length
      protectBlock = 0
    } else {
      protectBlock = m.content.length - left
      left = 0
    }
  }
  const tailStart = layout.count === 0 ? n : layout.start[layout.tail]!
  // thinking is cleared before the newest user message, and never in the last assistant turn (its messages and
  // their results, back to the user message before them, a system message among results included): a provider that
  // joins that turn's results with the newest user message (Anthropic) wants the turn's thinking back
  let lastTurn = n
  for (let i = n - 1; i >= 0; i--) {
    if (messages[i]!.role !== "assistant") continue
    lastTurn = i
    while (lastTurn > 0) {
      const role = messages[lastTurn - 1]!.role
      if (role === "assistant" || role === "tool") lastTurn--
      else if (role !== "system") break
      else {
        let k = lastTurn - 1
        while (k > 0 && messages[k - 1]!.role === "system") k--
        if (systemRunBetweenResults(messages, k) === -1) break
        lastTurn = k
      }
    }
    break
  }
  const thinkingFrom = Math.min(tailStart, lastTurn)
  let marked: Uint8Array | undefined
  for (let u = 0; u < layout.count; u++) {
    if (layout.marked[u] !== 1) continue
    marked ??= new Uint8Array(n)
    marked.fill(1, layout.start[u]!, layout.start[u + 1]!)
  }
  const costs = new Float64Array(n).fill(Number.NaN)
  const versions = new Map<number, ClearedVersion>()

  const versionFor = (i: number): ClearedVersion | undefined => {
    if (marked !== undefined && marked[i] === 1) return undefined
    const m = messages[i]!
    if (m.role === "tool") {
      if (i > protectMessage || (i === protectMessage && protectBlock === 0)) return undefined
      if (i < protectMessage) return fullyCleared(m)
      const partial = clearTool(m, protectBlock)
      return partial === undefined ? undefined : { message: partial.message, toolResults: partial.results, thinking: 0 }
    }
    if (m.role === "assistant" && thinking && i < thinkingFrom) {
      // a reasoning model wants the reasoning items its output items came after sent back with them
      if (keepReasoningItems && m.content.some(isReasoningItem)) return undefined
      return fullyCleared(m)
    }
    return undefined
  }

  return {
    clearedCost: (i) => {
      const known = costs[i]!
      if (!Number.isNaN(known)) return known
      const version = versionFor(i)
      let cost = -1
      if (version !== undefined) {
        const estimate = estimator.estimateMessage(version.message)
        if (estimate < estimates[i]!) {
          cost = estimate
          versions.set(i, version)
        }
      }
      costs[i] = cost
      return cost
    },
    versionOf: (i) => versions.get(i)!
  }
}

// ---------------------------------------------------------------------------
// summaries
// ---------------------------------------------------------------------------

/**
 * The least room `summarize` leaves for a summary's text under its header: a bare header would stand in for the
 * dropped turns with nothing (about a dozen words of English).
 */
const LEAST_SUMMARY_TOKENS = 16

/** The most characters of transcript shown to a summarizer (about 100k tokens of English). */
const MAX_TRANSCRIPT_CHARS = 400_000

/** The most characters of one message's line in that transcript: a few such lines still leave room for the rest. */
const MAX_LINE_CHARS = 50_000

/** Below this much room, no further message is shown, not even cut. */
const MIN_LINE_CHARS = 200

/** `line` cut to at most `length` characters, saying how many were left out. */
const cutLine = (line: string, length: number): string => {
  if (line.length <= length) return line
  const note = ` [... ${line.length} characters in all, the rest not shown]`
  return `${cutText(line, Math.max(0, length - note.length))}${note}`
}

const transcriptFor = (messages: ReadonlyArray<Message.Message>): { readonly text: string; readonly notShown: number } => {
  // earlier summaries are shown whatever their age (each carries everything before it), within half the limit
  // between them, the newest first, each cut to what is left of that half: a summary the window wrote under a
  // large budget can be longer than the whole limit
  const summaries = new Map<number, string>()
  let summaryChars = 0
  for (let i = messages.length - 1; i >= 0; i--) {
    if (!isSummaryMessage(messages[i]!)) continue
    const room = MAX_TRANSCRIPT_CHARS / 2 - summaryChars
    if (room < MIN_LINE_CHARS) break
    const line = cutLine(Message.transcriptOf([messages[i]!]), room)
    summaries.set(i, line)
    summaryChars += line.length + 1
  }
  // the other messages newest first, in the rest of the limit
  const lines: Array<string> = []
  let chars = summaryChars
  let notShown = 0
  let full = false
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (isSummaryMessage(m)) {
      const line = summaries.get(i)
      if (line === undefined) notShown++
      else lines.push(line)
      continue
    }
    // once full, the rest is counted, not read
    if (full) {
      notShown++
      continue
    }
    // one long message (a pasted log) is cut, so that it does not hide the task stated before it
    const room = MAX_TRANSCRIPT_CHARS - chars
    if (room < MIN_LINE_CHARS) {
      full = true
      notShown++
      continue
    }
    const line = cutLine(Message.transcriptOf([m]), Math.min(room, MAX_LINE_CHARS))
    chars += line.length + 1
    lines.push(line)
  }
  lines.reverse()
  if (notShown > 0) lines.unshift(`[${notShown} older messages not shown]`)
  return { text: lines.join("\n"), notShown }
}

const summaryMessage = (role: SummaryRole, replaces: number, text: string): Message.Message => {
  const body = `${summaryHeader(replaces)}${text === "" ? "" : `\n${text}`}`
  const options = { metadata: { [SUMMARY_KEY]: { messages: replaces } } }
  return role === "system" ? Message.system(body, options) : Message.assistant(body, options)
}

/** Cuts text to `length` code units without splitting a surrogate pair. */
const cutText = (text: string, length: number): string => {
  if (length >= text.length) return text
  let end = length
  const c = text.charCodeAt(end - 1)
  if (end > 0 && c >= 0xd800 && c <= 0xdbff) end--
  return `${text.slice(0, end)}…`
}

/** The summary message that fits `room`: the whole text, or the longest prefix of it that fits. */
const fitSummary = (
  estimator: Estimator,
  role: SummaryRole,
  replaces: number,
  text: string,
  room: number
): { readonly message: Message.Message; readonly tokens: number; readonly shortened: boolean } => {
  const whole = summaryMessage(role, replaces, text)
  const tokens = estimator.estimateMessage(whole)
  if (tokens <= room) return { message: whole, tokens, shortened: false }
  // the bare message fits (the plan made sure): the longest prefix of the text that still fits
  const bare = summaryMessage(role, replaces, "")
  let found = { message: bare, tokens: estimator.estimateMessage(bare) }
  let lo = 1
  let hi = text.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const message = summaryMessage(role, replaces, cutText(text, mid))
    const t = estimator.estimateMessage(message)
    if (t <= room) {
      found = { message, tokens: t }
      lo = mid + 1
    } else {
      hi = mid - 1
    }
  }
  return { ...found, shortened: true }
}

// ---------------------------------------------------------------------------
// fit
// ---------------------------------------------------------------------------

interface Checked {
  readonly clear: boolean
  readonly mode: Mode | undefined
  readonly strategies: ReadonlyArray<Strategy>
  readonly available: number
  readonly outside: number
  readonly keep: number
}

const isWhole = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0
const isAmount = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0

/**
 * A value as a reason names it: a string quoted, so that `"100"` does not read as the number 100; cut to its start
 * (a 10 MB string, a value 20,000 levels deep), never between the halves of a surrogate pair.
 */
const shown = (value: unknown): string => (typeof value === "string" ? `${preview(value)} (a string)` : preview(value))

const check = (budget: number, options: FitOptions | undefined): Checked | InvalidFitOptions => {
  if (!isAmount(budget)) return new InvalidFitOptions({ option: "budget", reason: `expected a finite, non-negative number of tokens, got ${shown(budget)}` })
  const given: unknown = options?.strategy ?? "drop_oldest"
  if (typeof given !== "string" && !Array.isArray(given)) {
    return new InvalidFitOptions({ option: "strategy", reason: `expected a strategy or a list of them, got ${shown(given)}` })
  }
  const list: ReadonlyArray<unknown> = typeof given === "string" ? [given] : given
  if (list.length === 0) return new InvalidFitOptions({ option: "strategy", reason: "expected at least one strategy" })
  const provider: unknown = options?.provider
  if (provider !== undefined && !isProvider(provider)) {
    return new InvalidFitOptions({ option: "provider", reason: `expected one of ${allProviders.join(", ")}, got ${shown(provider)}` })
  }
  const pin: unknown = options?.pin
  if (pin !== undefined && typeof pin !== "function") return new InvalidFitOptions({ option: "pin", reason: `expected a function of a message and its index, got ${shown(pin)}` })
  let clear = false
  let mode: Mode | undefined
  for (const s of list) {
    switch (s) {
      case "clear_tool_results":
        if (clear) return new InvalidFitOptions({ option: "strategy", reason: "clear_tool_results is listed twice" })
        if (mode !== undefined) {
          return new InvalidFitOptions({ option: "strategy", reason: `clear_tool_results runs before ${mode}: list it first` })
        }
        clear = true
        break
      case "drop_oldest":
      case "drop_oldest_pair":
      case "summarize":
        if (mode !== undefined) return new InvalidFitOptions({ option: "strategy", reason: `${mode} and ${s} both drop messages: choose one` })
        mode = s
        break
      default:
        return new InvalidFitOptions({ option: "strategy", reason: `unknown strategy ${preview(s)}: expected one of ${strategies.join(", ")}` })
    }
  }
  for (const key of ["fixedTokens", "reserve"] as const) {
    const value = options?.[key]
    if (value !== undefined && !isAmount(value)) return new InvalidFitOptions({ option: key, reason: `expected a finite, non-negative number of tokens, got ${shown(value)}` })
  }
  for (const key of ["keepToolResults", "summaryTokens"] as const) {
    const value = options?.[key]
    if (value !== undefined && !isWhole(value)) return new InvalidFitOptions({ option: key, reason: `expected a whole number >= 0, got ${shown(value)}` })
  }
  const outside = (options?.fixedTokens ?? 0) + (options?.reserve ?? 0)
  if (!Number.isFinite(outside)) {
    return new InvalidFitOptions({ option: "reserve", reason: `fixedTokens and reserve add up to ${outside}: expected a finite number of tokens` })
  }
  return {
    clear,
    mode,
    strategies: list as ReadonlyArray<Strategy>,
    available: budget - outside,
    outside,
    keep: options?.keepToolResults ?? 3
  }
}

const NONE: ReadonlyArray<never> = []

const unchanged = (messages: ReadonlyArray<Message.Message>, budget: number, checked: Checked, total: number, notes: ReadonlyArray<Note>): Fitted => ({
  messages,
  changed: false,
  dropped: NONE,
  cleared: NONE,
  takenOut: NONE,
  summary: undefined,
  strategies: checked.strategies,
  notes,
  budget,
  available: checked.available,
  tokensBefore: total,
  tokensAfter: total
})

/** Everything `fit` decided before the summary (if any) is written. */
interface Decided {
  readonly messages: ReadonlyArray<Message.Message>
  readonly estimates: ReadonlyArray<number>
  readonly total: number
  readonly budget: number
  readonly checked: Checked
  readonly strategies: ReadonlyArray<Strategy>
  readonly notes: Array<Note>
  readonly cut: number
  readonly clearBelow: number
  readonly layout: Layout
  readonly clearing: ClearingState | undefined
}

/** A dropped run; its messages are sliced from the input when first read (most callers never read them). */
const droppedRun = (input: ReadonlyArray<Message.Message>, start: number, end: number, tokens: number): Dropped => {
  let slice: ReadonlyArray<Message.Message> | undefined
  return Object.freeze({
    _tag: "Dropped",
    start,
    end,
    tokens,
    get messages() {
      return (slice ??= Object.freeze(input.slice(start, end)))
    }
  })
}

const assemble = (decided: Decided, summary: { readonly message: Message.Message; readonly tokens: number; readonly shortened: boolean; readonly notShown: number } | undefined): Fitted => {
  const { clearBelow, clearing, cut, estimates, layout, messages } = decided
  const { pinned, start } = layout
  const out: Array<Message.Message> = []
  const dropped: Array<Dropped> = []
  const cleared: Array<Cleared> = []
  let tokens = 0
  let runStart = -1
  let runTokens = 0
  const flush = (end: number) => {
    if (runStart === -1) return
    dropped.push(droppedRun(messages, runStart, end, runTokens))
    runStart = -1
    runTokens = 0
  }
  /** Keeps message `i`, cleared when the plan cleared it. */
  const keep = (i: number): void => {
    if (clearing !== undefined && i < clearBelow && clearing.clearedCost(i) !== -1) {
      const version = clearing.versionOf(i)
      const cost = clearing.clearedCost(i)
      cleared.push({
        _tag: "Cleared",
        index: i,
        at: out.length,
        before: messages[i]!,
        after: version.message,
        toolResults: version.toolResults,
        thinking: version.thinking,
        tokensSaved: estimates[i]! - cost
      })
      out.push(version.message)
      tokens += cost
    } else {
      out.push(messages[i]!)
      tokens += estimates[i]!
    }
  }
  for (let u = 0; u < cut; u++) {
    const from = start[u]!
    const to = start[u + 1]!
    if (pinned[u] === 1) {
      flush(from)
      for (let i = from; i < to; i++) keep(i)
    } else {
      if (runStart === -1) runStart = from
      for (let i = from; i < to; i++) runTokens += estimates[i]!
    }
  }
  flush(cut < layout.count ? start[cut]! : messages.length)
  let summarized: Summarized | undefined
  if (summary !== undefined) {
    let replaces = 0
    for (const d of dropped) replaces += d.end - d.start
    summarized = {
      _tag: "Summarized",
      at: out.length,
      message: summary.message,
      replaces,
      tokens: summary.tokens,
      shortened: summary.shortened,
      notShown: summary.notShown
    }
    out.push(summary.message)
    tokens += summary.tokens
  }
  const from = cut < layout.count ? start[cut]! : messages.length
  for (let i = from; i < messages.length; i++) keep(i)
  return {
    messages: Object.freeze(out),
    changed: true,
    dropped,
    cleared,
    takenOut: NONE,
    summary: summarized,
    strategies: decided.strategies,
    notes: decided.notes,
    budget: decided.budget,
    available: decided.checked.available,
    tokensBefore: decided.total,
    tokensAfter: tokens
  }
}

/**
 * The conversation as the window plans it when a system message holds
 * summaries among other text (read back from Anthropic or Gemini, which join
 * all system text into one prompt): that message as its prompt, followed by
 * its summaries as a system message of their own. The summaries cost what
 * the whole message costs beyond its prompt, so that keeping both costs what
 * the message does. `origin` maps each planned message to its input index.
 */
interface Split {
  readonly messages: ReadonlyArray<Message.Message>
  readonly estimates: ReadonlyArray<number>
  readonly origin: ReadonlyArray<number>
  /** Each prompt taken apart, by its message: the input index, its cost and what its summaries cost and hold. */
  readonly prompts: Map<Message.Message, Parted>
  /** Each summaries message, by its message: the input index. */
  readonly summaries: Map<Message.Message, number>
}

interface Parted {
  readonly index: number
  readonly tokens: number
  readonly summaryTokens: number
  readonly summaries: number
}

/** The conversation with every system message that holds summaries among other text taken apart; undefined when none does. */
const splitSummaries = (estimator: Estimator, messages: ReadonlyArray<Message.Message>, estimates: ReadonlyArray<number>): Split | undefined => {
  let out: Array<Message.Message> | undefined
  let costs: Array<number> = []
  let origin: Array<number> = []
  const prompts = new Map<Message.Message, Parted>()
  const summaries = new Map<Message.Message, number>()
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    const parts = m.role === "system" ? summariesIn(m) : undefined
    if (parts === undefined) {
      if (out !== undefined) {
        out.push(m)
        costs.push(estimates[i]!)
        origin.push(i)
      }
      continue
    }
    if (out === undefined) {
      out = messages.slice(0, i)
      costs = estimates.slice(0, i)
      origin = Array.from({ length: i }, (_, k) => k)
    }
    const prompt = estimator.estimateMessage(parts.prompt)
    const rest = Math.max(0, estimates[i]! - prompt)
    out.push(parts.prompt, parts.summaries)
    costs.push(prompt, rest)
    origin.push(i, i)
    prompts.set(parts.prompt, { index: i, tokens: prompt, summaryTokens: rest, summaries: parts.count })
    summaries.set(parts.summaries, i)
  }
  return out === undefined ? undefined : { messages: out, estimates: costs, origin, prompts, summaries }
}

/**
 * A fit of the split conversation as a fit of the input: a system message
 * whose summaries were kept is the input message again; one whose summaries
 * went is its prompt, reported as `TakenOut`; indices and positions are the
 * input's and the output's.
 */
const rejoin = (split: Split, fitted: Fitted, input: ReadonlyArray<Message.Message>, estimates: ReadonlyArray<number>): Fitted => {
  const keptWhole = new Set<number>()
  for (const m of fitted.messages) {
    const index = split.summaries.get(m)
    if (index !== undefined) keptWhole.add(index)
  }
  const out: Array<Message.Message> = []
  const position = new Int32Array(fitted.messages.length)
  const takenOut: Array<TakenOut> = []
  let tokens = fitted.tokensAfter
  for (let k = 0; k < fitted.messages.length; k++) {
    const m = fitted.messages[k]!
    if (split.summaries.has(m)) {
      // kept: right after its prompt, which the input message already stands for
      position[k] = out.length - 1
      continue
    }
    position[k] = out.length
    const prompt = split.prompts.get(m)
    if (prompt === undefined) {
      out.push(m)
    } else if (keptWhole.has(prompt.index)) {
      tokens += estimates[prompt.index]! - prompt.tokens - prompt.summaryTokens
      out.push(input[prompt.index]!)
    } else {
      takenOut.push({
        _tag: "TakenOut",
        index: prompt.index,
        at: out.length,
        before: input[prompt.index]!,
        after: m,
        summaries: prompt.summaries,
        tokensSaved: estimates[prompt.index]! - prompt.tokens
      })
      out.push(m)
    }
  }
  // dropped runs over the input: a summaries message that went is reported as taken out, not dropped
  const dropped: Array<Dropped> = []
  let replaces = takenOut.length
  for (const d of fitted.dropped) {
    let start = -1
    let end = -1
    let runTokens = 0
    const flush = () => {
      if (start === -1) return
      dropped.push(droppedRun(input, start, end, runTokens))
      replaces += end - start
      start = -1
      runTokens = 0
    }
    for (let j = d.start; j < d.end; j++) {
      const m = split.messages[j]!
      if (split.summaries.has(m) || split.prompts.has(m)) {
        flush()
        continue
      }
      if (start === -1) start = split.origin[j]!
      end = split.origin[j]! + 1
      runTokens += split.estimates[j]!
    }
    flush()
  }
  const summary = fitted.summary
  return {
    ...fitted,
    messages: Object.freeze(out),
    dropped,
    cleared: fitted.cleared.map((c) => ({ ...c, index: split.origin[c.index]!, at: position[c.at]! })),
    takenOut,
    summary: summary === undefined ? undefined : { ...summary, at: position[summary.at]!, replaces },
    tokensAfter: tokens
  }
}

const decide = (
  estimator: Estimator,
  input: ReadonlyArray<Message.Message>,
  budget: number,
  options: FitOptions | undefined,
  checked: Checked,
  summarizer: Summarizer.Service | undefined
): Effect.Effect<Fitted, FitError> => {
  const inputEstimates = estimator.estimateEach(input)
  let total = 0
  for (let i = 0; i < inputEstimates.length; i++) total += inputEstimates[i]!
  const notes: Array<Note> = []
  let mode = checked.mode
  let used = checked.strategies
  if (mode === "summarize" && summarizer === undefined) {
    mode = "drop_oldest_pair"
    used = used.map((s) => (s === "summarize" ? "drop_oldest_pair" : s))
    notes.push({ _tag: "SummarizerUnavailable" })
  }
  if (total <= checked.available) return Effect.succeed(unchanged(input, budget, { ...checked, strategies: used }, total, notes))

  // a system message that holds summaries among other text (read back from Anthropic or Gemini) is planned as its
  // prompt followed by its summaries, so that they fold into the next summary as a separate one does
  const split = splitSummaries(estimator, input, inputEstimates)
  const messages = split === undefined ? input : split.messages
  const estimates = split === undefined ? inputEstimates : split.estimates
  const pin = options?.pin
  const pinOf = split === undefined || pin === undefined ? pin : (_: Message.Message, i: number) => pin(input[split.origin[i]!]!, split.origin[i]!)
  const done = (fitted: Fitted): Fitted => (split === undefined ? fitted : rejoin(split, fitted, input, inputEstimates))

  const provider = options?.provider
  const reasoning = provider === "openai-responses" ? unreasonedMessages(messages, options?.profile) : undefined
  const layout = layoutOf(messages, options?.pinFirstUser === true, pinOf, reasoning)
  const clearing = checked.clear
    ? makeClearing(messages, estimates, layout, checked.keep, options?.clearThinking === true, reasoning !== undefined, estimator)
    : undefined
  const summaryTokens = options?.summaryTokens ?? Math.min(1_000, Math.floor(Math.max(0, checked.available) / 4))
  // room for a short summary, whatever the budget (a fixed figure: the least budget reported stays enough at that
  // budget), unless the caller asked for less
  const leastSummary = Math.min(options?.summaryTokens ?? LEAST_SUMMARY_TOKENS, LEAST_SUMMARY_TOKENS)
  const planned = plan({
    estimates,
    total,
    available: checked.available,
    mode,
    clearing,
    startWithUser: provider === "anthropic" || provider === "gemini",
    systemOnlyAtStart: provider === "gemini",
    summaryTokens,
    // the longest header a summary of these messages can have, in either role, and the least text under it
    summaryFloor: mode === "summarize"
      ? Math.max(
        estimator.estimateMessage(summaryMessage("system", messages.length, "")),
        estimator.estimateMessage(summaryMessage("assistant", messages.length, ""))
      ) + leastSummary
      : 0
  }, layout)
  if (planned._tag === "TooSmall") {
    const setAside = checked.outside > 0 ? { setAside: checked.outside } : {}
    return Effect.fail(new BudgetTooSmall({ budget, minimumBudget: planned.minimum + checked.outside, tokens: total, ...setAside }))
  }
  const decided: Decided = {
    messages,
    estimates,
    total,
    budget,
    checked,
    strategies: used,
    notes,
    cut: planned.cut,
    clearBelow: planned.clearBelow,
    layout,
    clearing
  }
  const role = planned.summaryRole
  if (mode !== "summarize" || summarizer === undefined || role === undefined) return Effect.succeed(done(assemble(decided, undefined)))

  const dropped: Array<Message.Message> = []
  for (let u = 0; u < planned.cut; u++) {
    if (layout.pinned[u] === 1) continue
    for (let i = layout.start[u]!; i < layout.start[u + 1]!; i++) dropped.push(messages[i]!)
  }
  if (dropped.length === 0) return Effect.succeed(done(assemble(decided, undefined)))
  // the plan left room for at least the bare summary message
  const room = checked.available - planned.kept
  const bare = estimator.estimateMessage(summaryMessage(role, dropped.length, ""))
  const { notShown, text: transcript } = transcriptFor(dropped)
  const maxTokens = Math.max(1, Math.min(Math.max(summaryTokens, leastSummary), room - bare))
  return summarizer.summarize({ messages: dropped, transcript, maxTokens }).pipe(
    Effect.flatMap((text) => {
      // (a summarizer written without types can answer with something else than text)
      if (typeof text !== "string") return Effect.fail(new Summarizer.SummaryFailed({ reason: `the summarizer returned ${text === null ? "null" : typeof text}, not text` }))
      const trimmed = text.trim()
      // a summary of nothing (invisible characters included) would stand in for the dropped turns with a bare header
      return isBlank(trimmed)
        ? Effect.fail(new Summarizer.SummaryFailed({ reason: "the summarizer returned an empty summary" }))
        : Effect.succeed(done(assemble(decided, { ...fitSummary(estimator, role, dropped.length, trimmed, room), notShown })))
    })
  )
}

const makeFit = (estimator: Estimator, captured: Option.Option<Summarizer.Service>) =>
(
  messages: ReadonlyArray<Message.Message>,
  budget: number,
  options?: FitOptions
): Effect.Effect<Fitted, FitError> =>
  Effect.suspend(() => {
    const checked = check(budget, options)
    if (checked instanceof InvalidFitOptions) return Effect.fail(checked)
    if (checked.mode !== "summarize") return decide(estimator, messages, budget, options, checked, undefined)
    return Effect.flatMap(Effect.serviceOption(Summarizer.Summarizer), (local) =>
      decide(estimator, messages, budget, options, checked, Option.getOrUndefined(Option.orElse(local, () => captured))))
  })

/**
 * What `fitRequest` returns: the fit of the request's messages, the
 * `request` with them (the input request itself when nothing changed), and
 * `fixedTokens`, what the request costs beside its messages' own estimates
 * (see `fitRequest`).
 *
 * @since 0.1.0
 */
export interface FittedRequest extends Fitted {
  readonly request: Request.Request
  readonly fixedTokens: number
}

/** An assistant message without its thinking, for its own estimate where the provider leaves that out. */
const withoutThinking = (m: Message.AssistantMessage): Message.AssistantMessage => {
  const { content, role: _r, usage, ...options } = m
  return Message.assistant(content.filter((b) => !isThinkingBlock(b)), { ...options, ...(usage === undefined ? {} : { usage }) })
}

/**
 * The estimator a request's window works with: each message costs what the
 * provider's rendering of it costs (`estimateRequest`), or its own estimate
 * when that is larger (without thinking the provider does not take as
 * input: `thinkingLeftOut`), so that the kept messages, the fixed part and the
 * reserve add up to no more than the rendered request. The request's
 * messages are read in context, once; a message the window makes (a
 * cleared tool message, a summary) is rendered after the assistant message
 * whose calls it answers and under the request's model and response format,
 * which is all the context a message's rendering depends on (a result is
 * headed by its call's name, and written as JSON when its call was one of
 * several; an assistant reply is marked under a response format).
 */
const renderingEstimator = (estimator: Estimator, request: Request.Request, provider: Provider | undefined, opening: number | undefined): Estimator => {
  const options = provider === undefined ? undefined : { provider }
  const rendered = estimator.estimateRequest(request, options)
  const each = estimator.estimateEach(request.messages)
  const known = new Map<Message.Message, number>()
  // each call by id, with its message and how many calls that message makes (a result of one of several reads differently)
  const callers = new Map<string, { readonly call: Block.ToolCallBlock; readonly caller: Message.AssistantMessage; readonly calls: ReadonlyArray<Block.ToolCallBlock> }>()
  // thinking the provider does not take as input (Claude's of earlier turns) is left out of a message's own estimate
  // too: it stays left out while the window keeps the newest turn, which it always does
  const leftOut = thinkingLeftOut(request, options)
  for (let i = 0; i < each.length; i++) {
    const m = request.messages[i]!
    const own = leftOut?.[i] === true && m.role === "assistant" && m.content.some(isThinkingBlock) ? estimator.estimateMessage(withoutThinking(m)) : each[i]!
    known.set(m, Math.max(own, rendered.messages[i] ?? 0))
    if (m.role === "assistant") {
      const calls = Message.toolCallsOf(m)
      for (const call of calls) callers.set(call.id, { call, caller: m, calls })
    }
  }
  /**
   * The assistant message a new tool message is rendered after: its caller with only the calls the message answers
   * (and one more when the caller made several), so that rendering a result costs its own size, not its caller's.
   */
  const callerOf = (m: Message.ToolMessage): Message.AssistantMessage | undefined => {
    const first = m.content.length > 0 ? callers.get(m.content[0]!.toolCallId) : undefined
    if (first === undefined) return undefined
    const answered: Array<Block.ToolCallBlock> = []
    const seen = new Set<string>()
    for (const result of m.content) {
      const found = callers.get(result.toolCallId)
      if (found === undefined || found.caller !== first.caller || seen.has(result.toolCallId)) continue
      seen.add(result.toolCallId)
      answered.push(found.call)
    }
    if (first.calls.length > 1 && answered.length < 2) {
      // a call the provider runs itself is left out of some formats' calls: one the caller runs counts the same everywhere
      const other = first.calls.find((call) => !seen.has(call.id) && call.providerExecuted !== true) ?? first.calls.find((call) => !seen.has(call.id))
      if (other !== undefined) answered.push(other)
    }
    const { content: _, role: _r, usage, ...options } = first.caller
    return Message.assistant(answered, { ...options, ...(usage === undefined ? {} : { usage }) })
  }
  // a response format changes what an assistant reply costs (OpenAI marks each one): a new message is rendered under it too
  const context = {
    ...(request.model === undefined ? {} : { model: request.model }),
    ...(request.responseFormat === undefined ? {} : { responseFormat: request.responseFormat })
  }
  // a system message the window writes (a summary) may open the result: what the fixed part then costs beyond what
  // was set aside for it is part of its cost
  const { messages: _, ...fields } = request
  const openingCost = (m: Message.Message): number =>
    opening === undefined ? 0 : Math.max(0, fixedOf(estimator.estimateRequest(Request.make([m], fields), options)) - opening)
  const estimateMessage = (m: Message.Message): number => {
    let n = known.get(m)
    if (n === undefined) {
      const caller = m.role === "tool" ? callerOf(m) : undefined
      const alone = estimator.estimateRequest(Request.make(caller === undefined ? [m] : [caller, m], context), options)
      n = Math.max(estimator.estimateMessage(m), alone.messages[caller === undefined ? 0 : 1] ?? 0) + (m.role === "system" ? openingCost(m) : 0)
      known.set(m, n)
    }
    return n
  }
  const estimateEach = (messages: ReadonlyArray<Message.Message>): Array<number> => messages.map(estimateMessage)
  return {
    ...estimator,
    estimateMessage,
    estimateEach,
    estimateConversation: (messages) => {
      let sum = 0
      for (const m of messages) sum += estimateMessage(m)
      return sum
    }
  }
}

const fixedOf = (estimate: RequestEstimate): number => estimate.tools + estimate.responseFormat + estimate.framing

/**
 * The fixed part a request's window sets aside, and whether the system
 * message the request opens with may change. A provider may write the fixed
 * part after that message (OpenAI writes the tool definitions after its
 * content, and they cost what the two cost together beyond what it costs
 * alone), so the fixed part depends on it. It stays as it is when it is a
 * system prompt of the user's (always kept); otherwise the window may drop
 * an earlier summary that opens the request, take one out of it, or open the
 * result with a new one. Then the most the fixed part costs with the
 * message kept, taken apart or gone is set aside, and `opening` is that
 * figure: a summary that opens the result pays what it costs beyond it.
 */
const fixedPartOf = (
  estimator: Estimator,
  request: Request.Request,
  provider: Provider | undefined
): { readonly fixed: number; readonly opening: number | undefined } => {
  const options = provider === undefined ? undefined : { provider }
  const given = fixedOf(estimator.estimateRequest(request, options))
  const first = request.messages[0]
  if (first === undefined || first.role !== "system") return { fixed: given, opening: given }
  const parts = summariesIn(first)
  if (parts === undefined && !isSummaryMessage(first)) return { fixed: given, opening: undefined }
  const { messages: _, ...fields } = request
  const openedBy = (m: Message.Message): number => fixedOf(estimator.estimateRequest(Request.make([m], fields), options))
  const most = Math.max(given, openedBy(Message.user(".")), parts === undefined ? 0 : openedBy(parts.prompt))
  return { fixed: most, opening: most }
}

const makeFitRequest = (estimator: Estimator, captured: Option.Option<Summarizer.Service>) =>
(
  request: Request.Request,
  budget: number,
  options?: FitOptions
): Effect.Effect<FittedRequest, FitError> =>
  Effect.suspend(() => {
    const extra = options?.fixedTokens
    if (extra !== undefined && !isAmount(extra)) {
      return Effect.fail(new InvalidFitOptions({ option: "fixedTokens", reason: `expected a finite, non-negative number of tokens, got ${shown(extra)}` }))
    }
    const provider = options?.provider
    const fixedPart = fixedPartOf(estimator, request, provider)
    const fixedTokens = fixedPart.fixed + (extra ?? 0)
    // the answer's room: as asked, else the request's own output limit (providers refuse input + limit over the context)
    const reserve = options?.reserve ?? request.maxOutputTokens
    const profile = options?.profile ?? profileOptionsOf(request)
    const fit = makeFit(renderingEstimator(estimator, request, provider, fixedPart.opening), captured)
    return fit(request.messages, budget, { ...options, fixedTokens, profile, ...(reserve === undefined ? {} : { reserve }) }).pipe(
      Effect.map((fitted): FittedRequest => {
        if (!fitted.changed) return { ...fitted, request, fixedTokens }
        const { messages: _, ...rest } = request
        return { ...fitted, request: Request.make(fitted.messages, rest), fixedTokens }
      })
    )
  })

/**
 * What the window does: `fit` a conversation, or `fitRequest` a whole
 * request (its messages, within what its tools, tool choice, response
 * format and framing leave).
 *
 * @since 0.1.0
 */
export interface Service {
  readonly fit: (messages: ReadonlyArray<Message.Message>, budget: number, options?: FitOptions) => Effect.Effect<Fitted, FitError>
  readonly fitRequest: (request: Request.Request, budget: number, options?: FitOptions) => Effect.Effect<FittedRequest, FitError>
}

/**
 * The message window service. Provide it with `layer` (which needs a
 * `TokenEstimator`); a `Summarizer` provided to the layer or around a `fit`
 * call is used by the `summarize` strategy.
 *
 * @example
 * const trimmed = Effect.gen(function*() {
 *   const window = yield* MessageWindow.MessageWindow
 *   return yield* window.fit(history, 8_000, { provider: "anthropic", pinFirstUser: true })
 * })
 * trimmed.pipe(Effect.provide(MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))))
 *
 * @since 0.1.0
 */
export class MessageWindow extends Context.Service<MessageWindow, Service>()("effect-agent-messages/MessageWindow") {}

/**
 * Builds the window on the `TokenEstimator` in context (and the `Summarizer`,
 * if there is one).
 *
 * @example
 * // a window over an estimator of your choice, without a layer
 * const window = yield* MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, TokenEstimator.heuristic))
 * const fitted = yield* window.fit(history, 8_000)
 *
 * @since 0.1.0
 */
export const make: Effect.Effect<Service, never, TokenEstimator> = Effect.gen(function*() {
  const estimator = checkedEstimates(yield* TokenEstimator)
  const summarizer = yield* Effect.serviceOption(Summarizer.Summarizer)
  const fit = makeFit(estimator, summarizer)
  const fitRequest = makeFitRequest(estimator, summarizer)
  return MessageWindow.of({
    fit: (messages, budget, options) => failOnInvalidEstimate(fit(messages, budget, options)),
    fitRequest: (request, budget, options) => failOnInvalidEstimate(fitRequest(request, budget, options))
  })
})

/** Whether a figure is a number of tokens: finite, 0 or more. */
const isTokenFigure = (n: unknown): n is number => typeof n === "number" && n >= 0 && n < Infinity

/** The figure, or throw the `InvalidEstimate` that `failOnInvalidEstimate` makes the window's failure. */
const figure = (n: unknown, what: () => string): number => {
  if (isTokenFigure(n)) return n
  throw new InvalidEstimate({ what: what(), value: shown(n) })
}

/** "a user message", "an assistant message". */
const roleMessage = (role: string): string => `${role === "assistant" ? "an" : "a"} ${role} message`

/**
 * The estimator with each figure it gives checked: a rule of the user's that gives `NaN` or a negative number would
 * otherwise make the window keep too much, blame an option never given (`fixedTokens`), or report a budget of `NaN`.
 * The built-in estimators give whole non-negative numbers; the checks cost a comparison a figure.
 */
const checkedEstimates = (e: Estimator): Estimator => ({
  estimateText: (text) => figure(e.estimateText(text), () => `a text of ${text.length} characters`),
  estimateBlock: (block) => figure(e.estimateBlock(block), () => `a ${block._tag} block`),
  estimateMessage: (message) => figure(e.estimateMessage(message), () => roleMessage(message.role)),
  estimateEach: (messages) => {
    const out = e.estimateEach(messages)
    // (checked in place: a closure a message would cost a refit of memoized estimates more than the lookups)
    for (let i = 0; i < messages.length; i++) {
      if (!isTokenFigure(out[i])) throw new InvalidEstimate({ what: `messages[${i}] (${roleMessage(messages[i]!.role)})`, value: shown(out[i]) })
    }
    return out
  },
  estimateConversation: (messages) => figure(e.estimateConversation(messages), () => `a conversation of ${messages.length} messages`),
  estimateRequest: (request, options) => {
    const out = e.estimateRequest(request, options)
    const what = (part: string) => () => `the ${part} of a request of ${request.messages.length} messages`
    figure(out.total, what("total"))
    figure(out.tools, what("tools"))
    figure(out.responseFormat, what("response format"))
    figure(out.framing, what("framing"))
    for (let i = 0; i < request.messages.length; i++) {
      if (!isTokenFigure(out.messages[i])) figure(out.messages[i], what(`messages[${i}]`))
    }
    return out
  }
})

/** A window's run whose estimator gave no number of tokens fails with that, rather than dying. */
const failOnInvalidEstimate = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | InvalidEstimate, R> =>
  Effect.catchDefect(effect, (defect) => (defect instanceof InvalidEstimate ? Effect.fail(defect) : Effect.die(defect)))

/**
 * The message window, on the `TokenEstimator` in context.
 *
 * @example
 * const Window = MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))
 * MessageWindow.fit(history, 8_000).pipe(Effect.provide(Window))
 *
 * @since 0.1.0
 */
export const layer: Layer.Layer<MessageWindow, never, TokenEstimator> = Layer.effect(MessageWindow, make)

/**
 * Fits a conversation into a budget with the `MessageWindow` in context.
 *
 * @example
 * const fitted = yield* MessageWindow.fit(history, 100_000, { strategy: ["clear_tool_results", "drop_oldest"] })
 *
 * @since 0.1.0
 */
export const fit = (
  messages: ReadonlyArray<Message.Message>,
  budget: number,
  options?: FitOptions
): Effect.Effect<Fitted, FitError, MessageWindow> => MessageWindow.use((window) => window.fit(messages, budget, options))

/**
 * Fits a whole request into a context window with the `MessageWindow` in
 * context: the messages get what the request's tool definitions, tool
 * choice, response format and the provider's framing leave, after
 * `reserve` tokens kept for the answer.
 *
 * **When to use**
 *
 * When the request carries tools: a few tool definitions often cost more
 * than a short conversation, and a window that budgets the messages alone
 * overflows exactly when an agent has many tools.
 *
 * **Details**
 *
 * Everything is read from `TokenEstimator.estimateRequest` for
 * `options.provider` (default OpenAI Chat): the fixed part (`fixedTokens`
 * in the result) is the tools, response format and framing, plus
 * `options.fixedTokens` if given; each message costs what the provider's
 * rendering of it costs, or its own estimate when that is larger (so
 * `tokensBefore` and `tokensAfter` read messages that way). OpenAI writes
 * the tool definitions after the system message that opens the request, so
 * their cost depends on it: when that message is an earlier summary the
 * window may drop or replace, the fixed part is the most it costs with or
 * without it, and a summary that opens the result counts what it changes
 * in the fixed part as its own cost. The reserve is
 * `options.reserve`, else the request's `maxOutputTokens` (providers refuse
 * a request whose input and output limit exceed the context), else 0. With
 * the same estimator, `estimateRequest(fitted.request).total + reserve`
 * stays within `budget`. The profile (`FitOptions.profile`) is
 * `options.profile`, else `Conversation.profileOptionsOf(request)`: a
 * Responses request to a reasoning model keeps each step with its
 * reasoning item.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { Message, MessageWindow, Request, TokenEstimator } from "effect-agent-messages"
 *
 * const request = Request.make([Message.system("Be brief."), Message.user("Weather in Oslo?")], {
 *   tools: [Request.tool("get_weather", { parameters: { type: "object", properties: { city: { type: "string" } } } })]
 * })
 * const program = MessageWindow.fitRequest(request, 128_000, { reserve: 4_000 })
 * program.pipe(Effect.provide(MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))))
 *
 * @since 0.1.0
 */
export const fitRequest = (
  request: Request.Request,
  budget: number,
  options?: FitOptions
): Effect.Effect<FittedRequest, FitError, MessageWindow> => MessageWindow.use((window) => window.fitRequest(request, budget, options))
