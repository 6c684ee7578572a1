/**
 * Conversation-level rules: what makes a list of messages something a
 * provider accepts, checked in one linear pass.
 *
 * `validate` succeeds with the conversation branded as `Validated` (so later
 * steps can demand a validated input at the type level) or fails with the
 * first problem as a tagged error; `issuesOf` / `validateAll` report every
 * problem in one pass. These generic rules are the strict, portable set.
 * `validateFor(provider)` checks one provider's profile instead: the generic
 * rules minus what that provider is recorded to accept (`genericRulesFor`),
 * plus its own rules (thinking signatures, system placement, reasoning
 * items...). `Repair.repair` turns a broken history into a valid one and
 * logs every change.
 *
 * Parallel tool calls are valid: an assistant with N calls followed by N
 * results, in any order, in one tool message or several.
 *
 * @since 0.1.0
 */
import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"
import * as Block from "./Block.js"
import * as Message from "./Message.js"
import { issuesOf as messageIssuesOf } from "./Message.js"
import type { Provider } from "./Provider.js"
import { unknownProvider } from "./internal/unknownProvider.js"
import { depthError, listOf, stringify } from "./internal/json.js"
import { followedByIdAfter, isMessagePart, isReasoningItem, itemIdOf, unfollowedReasoning } from "./internal/responsesItems.js"
import { withoutStacks } from "./internal/withoutStacks.js"
import { systemRunBetweenResults } from "./internal/systemRun.js"
import {
  claudeVersion,
  isBreakpoint,
  missingReasoningItems as missingReasoningItemsOf,
  profileOptionsOf as profileOptionsOfRequest,
  reasoningItemRule,
  requiresReasoningItems as requiresReasoningItemsFor
} from "./internal/reasoningItems.js"
import { anthropicImageType, anthropicLeavesOut, isDocumentByReference, isImageType } from "./internal/anthropicFiles.js"
import { ANTHROPIC_IMAGE_TYPES } from "./internal/mediaType.js"
import { ANTHROPIC_RESULT_PASS_TYPES, anthropicRuns, anthropicSent, anthropicWrittenMessages, CONTINUES, FILLED, hasDollarKey, LEFT_OUT, isDollar, OPTIONS_PATH, pushAnthropicFields, UNSENT, walkAnthropicSent, withoutUnsent } from "./internal/anthropicSent.js"
import type { SentValue } from "./internal/anthropicSent.js"
import { base64DataUrlParts } from "./internal/dataUrl.js"
import { inlineFileOf } from "./internal/dataUrlFile.js"
import { geminiTakesUrl, openAiTakesUrl } from "./internal/fileUrls.js"
import { geminiSendsNothing, sendsFunctionCall } from "./internal/geminiSent.js"
import { imageTypeOfBase64 } from "./internal/imageSize.js"
import { ORPHAN, Walker } from "./internal/walker.js"
import type { CallRef as WalkerCallRef } from "./internal/walker.js"
import {
  ConsecutiveRole,
  DuplicateItemId,
  DuplicateToolCallId,
  DuplicateToolResult,
  EmptyConversation,
  EmptyRedactedThinking,
  EmptyTextBlock,
  EmptyToolName,
  InvalidConversation,
  LoneSurrogate,
  MisplacedFunctionCall,
  MissingEncryptedContent,
  MalformedToolArguments,
  MediaTypeMismatch,
  MissingThinkingSignature,
  MissingThoughtSignature,
  MissingToolResult,
  OrphanToolResult,
  ReasoningWithoutOutput,
  SystemNotAtStart,
  TextAfterToolCalls,
  TextBetweenCallAndOutput,
  ThinkingNotFirst,
  MessageDecodeError,
  PrefillNotSupported,
  ThinkingWhileDisabled,
  TooManyCacheBreakpoints,
  TrailingWhitespacePrefill,
  UnknownMessageField,
  UnsupportedMediaType
} from "./ValidationError.js"
import type { CacheBreakpoint, ConversationIssue, DecodeIssue, Issue, IssueFor, ProviderIssue } from "./ValidationError.js"
import { isAnthropicHintKey, takesNoAnthropicCache, wireName } from "./internal/hint.js"
import { isCustomTextCall } from "./internal/customTools.js"
import { customCallOutputs, customItemOf, isChatCustomCall, isCustomOutputsOnly, sentArgumentsProblem } from "./internal/toolArgs.js"
import { loneSurrogatePath } from "./internal/surrogates.js"
import { assistantTurnStart, firstBlockOfRun, isThinkingBlock, nextOnWire, previousOnWire, thinkingSetting, turnStart } from "./internal/anthropicTurn.js"

declare const ValidatedTypeId: unique symbol

/**
 * What a conversation was validated for: the generic rules, or a provider's.
 *
 * @since 0.1.0
 */
export type Target = "generic" | Provider

/**
 * The targets a validation for `T` vouches for: `T` itself, and the generic
 * rules when `T`'s profile applies all of them. Anthropic and Gemini accept
 * some conversations the generic rules reject (two user messages in a row),
 * so a conversation validated for them is not generically valid.
 *
 * @since 0.1.0
 */
export type Implied<T extends Target> = T extends "anthropic" | "gemini" ? T : T | "generic"

/**
 * A conversation that passed validation, branded with what it was validated
 * for. `Validated<"generic">` is what `validate` returns;
 * `Validated<"openai-chat">` what `validateFor("openai-chat")` returns, and
 * since that profile applies every generic rule, it is accepted wherever a
 * `Validated<"generic">` is required. `Validated<"anthropic">` and
 * `Validated<"gemini">` are not: those profiles relax generic rules the
 * providers are recorded to accept (see `genericRulesFor`). The brand exists
 * only in types: at run time it is the same array.
 *
 * @since 0.1.0
 */
export type Validated<T extends Target = "generic"> = ReadonlyArray<Message.Message> & {
  readonly [ValidatedTypeId]: { readonly [K in Implied<T>]: true }
}

/**
 * Options of the generic rules.
 *
 * @since 0.1.0
 */
export interface ValidateOptions {
  /**
   * Accept tool calls at the very end that have no results yet: the state of
   * an agent that is about to run its tools. Default `false`: a conversation
   * sent to a provider must have every call answered.
   */
  readonly allowPendingToolCalls?: boolean
  /**
   * The conversation continues one the provider stored (an OpenAI Responses
   * request with `previous_response_id` or `conversation`): tool results
   * before its first user or assistant message answer calls of the stored
   * response (they are not orphans, and the output items carry no tool
   * name), and it may hold nothing but such results. Its Responses custom
   * tool outputs (`custom_tool_call_output` items, read as an assistant
   * message of them alone) answer the stored custom calls, before or among
   * those results. Default `false`.
   * `profileOptionsOf` sets it from a request.
   */
  readonly continues?: boolean
}

// ---------------------------------------------------------------------------
// codec: conversations and JSONL transcripts
// ---------------------------------------------------------------------------

/**
 * The schema of a conversation read from JSON: an array of messages, each in
 * the canonical or the flat form (`Message.Codec`).
 *
 * @example
 * const Body = Schema.Struct({ sessionId: Schema.String, conversation: Conversation.Codec })
 * const body = yield* Schema.decodeUnknownEffect(Body)({
 *   sessionId: "s1",
 *   conversation: [{ role: "user", content: "hi" }, { role: "assistant", content: "Hello!" }]
 * })
 * body.conversation.length // 2
 *
 * @since 0.1.0
 */
export const Codec: Schema.Codec<ReadonlyArray<Message.Message>, unknown> = Schema.Unknown.pipe(
  Schema.decodeTo(
    Schema.Array(Message.Codec),
    // the list is read as each message is, through a copy that fails with an issue where reading it throws (a
    // revoked proxy, a throwing getter) or where it is no list of messages (a sparse array of a billion places)
    SchemaTransformation.transformEffect({
      decode: (input: unknown) =>
        Effect.suspend(() => {
          const list = listOf(input)
          return "items" in list ? Effect.succeed(list.items) : Effect.fail(new SchemaIssue.InvalidValue({ message: list.reason }, input))
        }),
      encode: (messages: ReadonlyArray<unknown>) => Effect.succeed(messages)
    })
  )
)

/**
 * Decodes a conversation (an array of messages), failing with the first bad
 * message as a tagged error with its `index`.
 *
 * @example
 * const loaded = yield* Conversation.decode(JSON.parse('[{"role":"user","content":"hi"},{"role":"assistant","content":"Hello!"}]'))
 * const error = yield* Effect.flip(Conversation.decode([{ role: "user", content: "hi" }, { role: "robot" }]))
 * error.index // 1
 *
 * @since 0.1.0
 */
export const decode: (raw: unknown) => Effect.Effect<Array<Message.Message>, DecodeIssue> = Message.decodeAll

/**
 * What `decodeEach` returns: the messages that decoded, in order, and a
 * tagged error (with its `index` in the input) for each one that did not.
 *
 * @since 0.1.0
 */
export interface Decoded {
  readonly messages: ReadonlyArray<Message.Message>
  readonly failures: ReadonlyArray<DecodeIssue>
}

/**
 * Decodes every message it can and collects a tagged error for each one it
 * cannot, instead of stopping at the first: a damaged log can be decoded,
 * looked at, and then repaired (`Repair.repair`). Fails only when the
 * input is not an array at all.
 *
 * @example
 * const { messages, failures } = yield* Conversation.decodeEach([
 *   { role: "user", content: "hi" },
 *   { role: "robot", content: "beep" },
 *   { role: "assistant", content: "Hello!" }
 * ])
 * messages.length // 2
 * failures.map((f) => f.index) // [1]
 *
 * @since 0.1.0
 */
export const decodeEach = (raw: unknown): Effect.Effect<Decoded, MessageDecodeError> =>
  Effect.suspend(() => {
    const list = listOf(raw)
    if ("reason" in list) return Effect.fail(new MessageDecodeError({ path: [], reason: list.reason }))
    const items: ReadonlyArray<unknown> = list.items
    return Effect.gen(function*() {
      const messages: Array<Message.Message> = []
      const failures: Array<DecodeIssue> = []
      for (let i = 0; i < items.length; i++) {
        const result = yield* Effect.result(Message.decode(items[i], i))
        if (result._tag === "Success") messages.push(result.success)
        else failures.push(result.failure)
      }
      return { messages, failures }
    })
  })

/**
 * Options of the JSONL readers: `collect` reports every bad line instead of
 * failing at the first.
 *
 * @since 0.1.0
 */
export interface JsonlOptions {
  readonly collect?: boolean
}

const jsonlLines = (text: string): Array<{ readonly line: number; readonly value: unknown } | DecodeIssue> => {
  const out: Array<{ readonly line: number; readonly value: unknown } | DecodeIssue> = []
  let start = 0
  let line = 0
  while (start <= text.length) {
    let end = text.indexOf("\n", start)
    if (end === -1) end = text.length
    const raw = text.slice(start, end).trim()
    const deep = raw === "" ? undefined : depthError(raw)
    if (deep !== undefined) {
      out.push(new MessageDecodeError({ index: line, path: [], reason: `line ${line + 1} is not JSON: ${deep}` }))
    } else if (raw !== "") {
      try {
        out.push({ line, value: JSON.parse(raw) as unknown })
      } catch (cause) {
        out.push(
          new MessageDecodeError({
            index: line,
            path: [],
            reason: `line ${line + 1} is not JSON: ${cause instanceof Error ? cause.message : String(cause)}`
          })
        )
      }
    }
    line++
    start = end + 1
  }
  return out
}

/**
 * Decodes a JSONL transcript: one message per line (canonical or flat form),
 * blank lines skipped. Errors carry the line's index (0-based) as `index`.
 * Fails at the first bad line; with `{ collect: true }` use `decodeJsonlEach`.
 *
 * @example
 * const jsonl = '{"role":"user","content":"hi"}\n\n{"role":"assistant","content":"Hello!"}\n'
 * const loaded = yield* Conversation.decodeJsonl(jsonl)
 * loaded.length // 2
 *
 * @since 0.1.0
 */
export const decodeJsonl = (text: string): Effect.Effect<Array<Message.Message>, DecodeIssue> =>
  Effect.suspend(() =>
    Effect.forEach(jsonlLines(text), (entry) => ("value" in entry ? Message.decode(entry.value, entry.line) : Effect.fail(entry)))
  )

/**
 * Decodes a JSONL transcript, collecting a tagged error for every bad line
 * (not JSON, or not a message) instead of failing at the first.
 *
 * @example
 * const { messages, failures } = yield* Conversation.decodeJsonlEach('{"role":"user","content":"hi"}\n{"role":"user",\n')
 * messages.length // 1
 * failures[0]?.message // names line 2, which is not JSON
 *
 * @since 0.1.0
 */
export const decodeJsonlEach = (text: string): Effect.Effect<Decoded> =>
  Effect.suspend(() =>
    Effect.gen(function*() {
      const messages: Array<Message.Message> = []
      const failures: Array<DecodeIssue> = []
      for (const entry of jsonlLines(text)) {
        if (!("value" in entry)) {
          failures.push(entry)
          continue
        }
        const result = yield* Effect.result(Message.decode(entry.value, entry.line))
        if (result._tag === "Success") messages.push(result.success)
        else failures.push(result.failure)
      }
      return { messages, failures }
    })
  )

/**
 * A conversation as a JSONL transcript: one canonical message per line, each
 * line ending with a newline.
 *
 * The text is one string, and a JavaScript string holds at most about 512
 * million characters: for a conversation that large (a million long
 * messages), write the lines of `encodeJsonlLines` one after the other.
 *
 * @example
 * const jsonl = Conversation.encodeJsonl([Message.user("hi"), Message.assistant("Hello!")])
 * // {"role":"user","content":[{"_tag":"Text","text":"hi"}]}
 * // {"role":"assistant","content":[{"_tag":"Text","text":"Hello!"}]}
 * const back = yield* Conversation.decodeJsonl(jsonl)
 *
 * @since 0.1.0
 */
export const encodeJsonl = (messages: ReadonlyArray<Message.Message>): string => encodeJsonlLines(messages).join("")

/**
 * The lines of `encodeJsonl`, each ending with a newline: written one after
 * the other (to a file, a socket, a `Stream`), they make the same text
 * without ever holding it as one string.
 *
 * @example
 * import { Conversation, Message } from "effect-agent-messages"
 * import * as fs from "node:fs"
 *
 * const out = fs.createWriteStream("conversation.jsonl")
 * for (const line of Conversation.encodeJsonlLines([Message.user("hi"), Message.assistant("Hello!")])) out.write(line)
 * out.end()
 *
 * @since 0.1.0
 */
export const encodeJsonlLines = (messages: ReadonlyArray<Message.Message>): Array<string> => {
  const out = new Array<string>(messages.length)
  for (let i = 0; i < messages.length; i++) out[i] = `${stringify(Message.encode(messages[i]!) as Schema.Json)}\n`
  return out
}

// ---------------------------------------------------------------------------
// turns
// ---------------------------------------------------------------------------

/**
 * A tool call and where it is: message `index`, block `blockIndex`.
 *
 * @since 0.1.0
 */
export type CallRef = WalkerCallRef

/**
 * A tool result and where it is.
 *
 * @since 0.1.0
 */
export interface ResultRef {
  readonly index: number
  readonly blockIndex: number
  readonly result: Block.ToolResultBlock
}

/**
 * A turn: one message that is not a tool message, and the tool messages that
 * directly follow it, with any system message that sits between two of
 * them (an agent loop's reminder among a call's results: it belongs to the
 * turn it interrupts; validation accepts it there for Anthropic only, see
 * `GenericRules.systemEndsTurn`). Turns partition a conversation, so a unit
 * that never separates a call from its results is always a whole turn.
 *
 * - `start`, `end`: the turn is `messages.slice(start, end)`.
 * - `calls`: the client-executed calls the turn's assistant message made (empty
 *   for any other turn); provider-executed calls are answered inside their
 *   own message and are not listed.
 * - `results`: the results that answer them, in order of appearance.
 * - `unanswered`: calls without a result in the turn.
 * - `stray`: results in the turn's tool messages that answer none of its calls
 *   (orphans and second answers). A conversation that starts with tool
 *   messages has a first turn made of them alone.
 *
 * @since 0.1.0
 */
export interface Turn {
  readonly start: number
  readonly end: number
  readonly calls: ReadonlyArray<CallRef>
  readonly results: ReadonlyArray<ResultRef>
  readonly unanswered: ReadonlyArray<CallRef>
  readonly stray: ReadonlyArray<ResultRef>
}

const NONE: ReadonlyArray<never> = []

/**
 * The turns of a conversation, in order, in one linear pass (the same
 * reading of calls and results that validation and repair use).
 *
 * @example
 * const turns = Conversation.turnsOf([
 *   Message.user("Weather in Oslo and Bergen?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }, { id: "c2", name: "weather", args: { city: "Bergen" } }]),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ])
 * turns.map((t) => [t.start, t.end]) // [[0, 1], [1, 3]]
 * turns[1]?.unanswered.map((ref) => ref.call.id) // ["c2"]
 *
 * @since 0.1.0
 */
export const turnsOf = (messages: ReadonlyArray<Message.Message>): Array<Turn> => {
  const walker = new Walker(messages.length)
  const turns: Array<Turn> = []
  let start = -1
  let calls: ReadonlyArray<CallRef> = NONE
  let results: Array<ResultRef> | undefined
  let stray: Array<ResultRef> | undefined
  const close = (end: number): void => {
    if (start === -1) return
    turns.push({ start, end, calls, results: results ?? NONE, unanswered: walker.closeTurn(), stray: stray ?? NONE })
    calls = NONE
    results = undefined
    stray = undefined
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role === "tool") {
      if (start === -1) start = i
      for (let b = 0; b < m.content.length; b++) {
        const result = m.content[b]!
        const answer = walker.answer(result.toolCallId, i)
        if (typeof answer === "number") (stray ??= []).push({ index: i, blockIndex: b, result })
        else (results ??= []).push({ index: i, blockIndex: b, result })
      }
      continue
    }
    // a system message among the turn's results (an agent's reminder) is part of the turn
    const next = systemRunBetweenResults(messages, i)
    if (next !== -1) {
      i = next - 1
      continue
    }
    close(i)
    start = i
    if (m.role !== "assistant") continue
    walker.openTurn(i)
    let made: Array<CallRef> | undefined
    for (let b = 0; b < m.content.length; b++) {
      const block = m.content[b]!
      if (block._tag !== "ToolCall") continue
      if (block.providerExecuted === true) {
        walker.registerId(block.id, i)
        continue
      }
      const ref = { index: i, blockIndex: b, call: block }
      walker.addCall(ref)
      ;(made ??= []).push(ref)
    }
    if (made !== undefined) calls = made
  }
  close(messages.length)
  return turns
}

/**
 * The calls an agent must run next: the client-executed calls of the last
 * assistant message that have no result yet (empty when the conversation
 * does not end in an open tool turn).
 *
 * @example
 * const history = [
 *   Message.user("Weather in Oslo?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }])
 * ]
 * const toRun = Conversation.pendingToolCalls(history).map((ref) => ref.call)
 * toRun.map((call) => call.name) // ["weather"]
 *
 * @since 0.1.0
 */
export const pendingToolCalls = (messages: ReadonlyArray<Message.Message>): ReadonlyArray<CallRef> => {
  // only the last turn can be open: find where it starts (tool messages, and system messages among them, before it),
  // then read it alone; it is open only when it runs to the end
  let start = messages.length - 1
  while (start >= 0 && (messages[start]!.role === "tool" || messages[start]!.role === "system")) start--
  if (start < 0 || messages[start]!.role !== "assistant") return NONE
  const last = turnsOf(messages.slice(start))[0]
  if (last === undefined || last.end !== messages.length - start) return NONE
  return last.unanswered.map((ref) => ({ ...ref, index: ref.index + start }))
}

// ---------------------------------------------------------------------------
// which generic rules each profile applies
// ---------------------------------------------------------------------------

/**
 * Which of the generic rules a validation applies. The generic profile
 * (`validate`) applies all of them: the strict, portable set that every
 * provider accepts. A provider's profile (`validateFor`) leaves out what
 * that provider is recorded (or documented) to accept; every other generic
 * rule stays on. Two are relaxed by some provider:
 *
 * | generic rule | `openai-chat` | `openai-responses` | `anthropic` | `gemini` |
 * |---|---|---|---|---|
 * | `ConsecutiveRole`, two user messages | kept | kept | relaxed | relaxed |
 * | `ConsecutiveRole`, two assistant messages | kept | kept | relaxed | kept |
 * | a system message ends a tool turn | kept | kept | relaxed | kept |
 *
 * The Anthropic adapter lifts every system message into the top-level
 * `system`, so calls and results a system message sat between meet on the
 * wire (Gemini's turns a later system message into user text, which would
 * sit between them).
 *
 * Anthropic combines consecutive user or assistant turns into one (its API
 * reference says so; a request with tool results and the user's next words
 * as two user messages was accepted). Gemini merges consecutive user
 * contents (requests with three and four user contents in a row were
 * accepted); two model contents in a row are not recorded, so that half of
 * the rule stays. "Kept" means the provider's verdict is not recorded
 * either way and the portable rule applies.
 *
 * The Anthropic profile also reads the turns as its writer sends them: a
 * run of assistant messages is one message, so calls made across it are
 * one turn (the text of a later message of the run lands after the calls
 * before it: `TextAfterToolCalls`), and an empty message in a run of one
 * role with content is not sent at all (not `EmptyMessage`, and it does
 * not end a turn). The OpenAI profiles keep the generic reading even where
 * their writer leaves an empty message out: what they validate passes the
 * generic rules too.
 *
 * @since 0.1.0
 */
export interface GenericRules {
  /** `ConsecutiveRole` for two user messages in a row. */
  readonly consecutiveUserMessages: boolean
  /** `ConsecutiveRole` for two assistant messages in a row. */
  readonly consecutiveAssistantMessages: boolean
  /**
   * A system message ends a turn: calls before it must be answered before
   * it (`MissingToolResult`, and their results after it are orphans). Not
   * for Anthropic, whose adapter lifts every system message into the
   * top-level `system`, so the calls and results meet on the wire.
   */
  readonly systemEndsTurn: boolean
}

const ALL_RULES: GenericRules = { consecutiveUserMessages: true, consecutiveAssistantMessages: true, systemEndsTurn: true }
const ANTHROPIC_RULES: GenericRules = { consecutiveUserMessages: false, consecutiveAssistantMessages: false, systemEndsTurn: false }
const GEMINI_RULES: GenericRules = { consecutiveUserMessages: false, consecutiveAssistantMessages: true, systemEndsTurn: true }

/**
 * The generic rules a target applies: all of them for `"generic"`, the
 * OpenAI formats; Anthropic and Gemini relax `ConsecutiveRole` (see
 * `GenericRules` for the evidence).
 *
 * @example
 * Conversation.genericRulesFor("gemini").consecutiveUserMessages // false: Gemini merges them itself
 *
 * @since 0.1.0
 */
export const genericRulesFor = (target: Target): GenericRules => {
  switch (target) {
    case "generic":
    case "openai-chat":
    case "openai-responses":
      return ALL_RULES
    case "anthropic":
      return ANTHROPIC_RULES
    case "gemini":
      return GEMINI_RULES
    default:
      return unknownProvider(target)
  }
}

// ---------------------------------------------------------------------------
// the generic pass
// ---------------------------------------------------------------------------

/** Receives issues; returns `true` to stop the pass (fail fast). */
type Sink = (issue: ConversationIssue) => boolean

/**
 * The single linear pass behind `validate`, `issuesOf` and the generic half
 * of `validateFor`, on the shared turn walker: nothing is re-scanned. `rules`
 * says which generic rules the profile applies; a relaxed rule is not
 * checked at all (not checked and then filtered out).
 *
 * Who enforces each rule (evidence: the recorded requests in the project's
 * test data, and the providers' documented errors):
 *
 * - per-message rules (`EmptyToolCallId`, `EmptyToolName`, `EmptyMessage`,
 *   a repeated id inside one message): kept by every profile; no provider is
 *   recorded accepting them. With `merged` (Anthropic), an empty message
 *   the writer merges into a message with content is neither reported nor
 *   read (it is not sent), nor read is a run of messages of which the
 *   writer sends no block (it leaves the run out), and an assistant message right after another
 *   continues its turn (the writer sends them as one). A tool result that answers no call is not also
 *   `EmptyToolName`: its name comes from the call it would answer, and the
 *   `OrphanToolResult` is what to fix.
 * - `OrphanToolResult`, `MissingToolResult`, `DuplicateToolResult`: every
 *   provider (documented errors; a Responses-compatible server rejected
 *   calls whose outputs did not follow them). Provider-executed calls
 *   (Anthropic server tools, Responses hosted tools) are answered inside
 *   their own message or later by the provider, so they are never missing:
 *   Anthropic accepted a web search whose result was still pending (a
 *   paused turn being continued).
 * - `DuplicateToolCallId`: kept by every profile.
 * - `ConsecutiveRole`: relaxed by Anthropic (both roles) and Gemini (user
 *   messages); see `GenericRules`. It looks through system messages:
 *   `user, system, user` is two user messages in a row, because the
 *   adapters of providers that take system text apart from the conversation
 *   (Anthropic, Gemini) lift it out, and the two user messages end up side
 *   by side. OpenAI Chat accepted system messages in the middle of a
 *   conversation (recorded), which no generic rule forbids.
 * - `EmptyConversation`: every provider.
 */
const scan = (
  messages: ReadonlyArray<Message.Message>,
  options: ValidateOptions | undefined,
  rules: GenericRules,
  sink: Sink,
  runs?: Uint8Array
): void => {
  const walker = new Walker(messages.length)
  const perMessage: Array<ConversationIssue> = []
  const continues = options?.continues === true
  let sawTurn = false
  // the last user or assistant message, and whether it made client calls
  let prevRole: "user" | "assistant" | undefined
  /** Where the message of `prevRole` is. */
  let prevAt = -1
  let prevCalled = false
  // Anthropic: whether a message the writer sends nothing of opened a wire message since the last message read
  let parted = false

  /** Ends the open turn: its unanswered calls are missing their results. */
  const closeTurn = (resumedAt: number | undefined): boolean => {
    const openIndex = walker.openIndex
    const unanswered = walker.closeTurn()
    if (unanswered.length === 0) return false
    return sink(
      new MissingToolResult({
        index: openIndex,
        toolCallIds: unanswered.map((c) => c.call.id),
        ...(resumedAt === undefined ? {} : { resumedAt })
      })
    )
  }

  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    perMessage.length = 0
    messageIssuesOf(m, i, perMessage)
    // the results a continued conversation opens with answer the stored response's calls, which name no tool; its
    // custom tool outputs (an assistant message of them alone) answer the stored custom calls, before or among them
    const stored = continues && !sawTurn && (m.role === "tool" || isCustomOutputsOnly(m))
    // Anthropic: a message of which the writer sends no block adds nothing to a wire message with content (an empty
    // one, or one of data it leaves out, reported as dropped), nor does a run of them it leaves out
    const unseen = runs !== undefined && m.role !== "system" && (runs[i]! & (FILLED | UNSENT)) === (FILLED | UNSENT)
    for (const issue of perMessage) {
      // a result takes its tool's name from the call it answers (every adapter reads it so): one that answers
      // no call has none to take, and `OrphanToolResult` below says what is wrong (it is all the user can fix)
      if (issue._tag === "EmptyToolName" && m.role === "tool" && (stored || !walker.isPending(issue.toolCallId))) continue
      if (unseen && issue._tag === "EmptyMessage") continue
      if (sink(issue)) return
    }
    if (unseen) {
      // (a message with content the writer leaves out still makes the conversation one: its content is what to fix)
      sawTurn ||= m.content.length > 0
      // (one that opens a wire message with content parts the messages after it from those before)
      parted ||= (runs[i]! & (CONTINUES | LEFT_OUT)) === 0
      continue
    }

    if (stored) {
      prevRole = undefined
      continue
    }
    switch (m.role) {
      case "tool": {
        for (const result of m.content) {
          const id = result.toolCallId
          if (id === "") continue // reported as EmptyToolCallId
          const answer = walker.answer(id, i)
          if (typeof answer !== "number") continue
          // a result for a call of an earlier turn is an orphan: it does not follow its call
          const issue = answer === ORPHAN
            ? new OrphanToolResult({ index: i, toolCallId: id, toolName: result.toolName })
            : new DuplicateToolResult({ index: i, toolCallId: id, firstIndex: answer })
          if (sink(issue)) return
        }
        prevRole = undefined
        break
      }
      case "system":
        if (rules.systemEndsTurn && closeTurn(i)) return
        break
      case "user":
      case "assistant": {
        sawTurn = true
        // Anthropic: an assistant message that continues one the writer makes of a run continues its turn
        // (and the message before it the writer sends is an assistant message: after an empty message that opens
        // its run, it adds to no message before it)
        const continues = runs !== undefined && m.role === "assistant" && (runs[i]! & CONTINUES) !== 0 && prevRole === "assistant" && !parted
        parted = false
        if (!continues && closeTurn(i)) return
        if (prevRole === m.role && !prevCalled && (m.role === "user" ? rules.consecutiveUserMessages : rules.consecutiveAssistantMessages)) {
          if (sink(new ConsecutiveRole({ index: i, role: m.role, previousIndex: prevAt }))) return
        }
        prevCalled = false
        if (m.role === "assistant") {
          if (!continues || walker.pendingCount === 0) walker.openTurn(i)
          const content = m.content
          for (let b = 0; b < content.length; b++) {
            const block = content[b]!
            if (block._tag !== "ToolCall" || block.id === "") continue
            // a provider-executed call is answered inside the assistant message itself
            const first = block.providerExecuted === true ? walker.registerId(block.id, i) : walker.addCall({ index: i, blockIndex: b, call: block })
            if (block.providerExecuted !== true) prevCalled = true
            // a repeat inside one message is reported by the per-message rules
            if (first !== -1 && first !== i && sink(new DuplicateToolCallId({ index: i, blockIndex: b, toolCallId: block.id, firstIndex: first }))) return
          }
        }
        prevRole = m.role
        prevAt = i
        break
      }
      default:
        Block.absurd(m)
    }
  }
  if (options?.allowPendingToolCalls !== true && closeTurn(undefined)) return
  if (!sawTurn && !(continues && messages.length > 0)) sink(new EmptyConversation())
}

/**
 * Every generic issue of a conversation, in the order found, in one pass.
 *
 * @example
 * const issues = Conversation.issuesOf([
 *   Message.toolResultMessage("c9", "search", "stale result"),
 *   Message.user("hi"),
 *   Message.user("anyone there?")
 * ])
 * issues.map((issue) => issue._tag) // ["OrphanToolResult", "ConsecutiveRole"]
 *
 * @since 0.1.0
 */
export const issuesOf = (messages: ReadonlyArray<Message.Message>, options?: ValidateOptions): Array<ConversationIssue> =>
  withoutStacks(() => {
    const issues: Array<ConversationIssue> = []
    scan(messages, options, ALL_RULES, (issue) => {
      issues.push(issue)
      return false
    })
    return issues
  })

const firstIssue = (
  messages: ReadonlyArray<Message.Message>,
  options: ValidateOptions | undefined,
  rules: GenericRules = ALL_RULES,
  runs?: Uint8Array
): ConversationIssue | undefined => {
  let found: ConversationIssue | undefined
  scan(messages, options, rules, (issue) => {
    found = issue
    return true
  }, runs)
  return found
}

/**
 * Validates a conversation against the rules every provider enforces. Fails
 * fast with the first problem: `OrphanToolResult`, `MissingToolResult`,
 * `DuplicateToolResult`, `DuplicateToolCallId`, `ConsecutiveRole`,
 * `EmptyConversation`, or a per-message issue (`EmptyToolCallId`,
 * `EmptyToolName`, `EmptyMessage`).
 *
 * @example
 * const valid = yield* Conversation.validate(messages).pipe(
 *   Effect.catchTag("MissingToolResult", (e) => Effect.fail(`answer ${e.toolCallIds.join(", ")} first`))
 * )
 * // later steps can demand a validated conversation
 * const send = (conversation: Conversation.Validated) => conversation.length
 * send(valid)
 *
 * @since 0.1.0
 */
export const validate = (
  messages: ReadonlyArray<Message.Message>,
  options?: ValidateOptions
): Effect.Effect<Validated<"generic">, ConversationIssue> =>
  Effect.suspend(() => {
    const issue = firstIssue(messages, options)
    return issue === undefined ? Effect.succeed(messages as Validated<"generic">) : Effect.fail(issue)
  })

/**
 * Like `validate`, but fails with `InvalidConversation` listing every issue.
 *
 * @example
 * const error = yield* Effect.flip(Conversation.validateAll([Message.user("hi"), Message.user("hello?")]))
 * error.issues.map((issue) => issue._tag) // ["ConsecutiveRole"]
 *
 * @since 0.1.0
 */
export const validateAll = (
  messages: ReadonlyArray<Message.Message>,
  options?: ValidateOptions
): Effect.Effect<Validated<"generic">, InvalidConversation> =>
  Effect.suspend(() => {
    const issues = issuesOf(messages, options)
    return issues.length === 0
      ? Effect.succeed(messages as Validated<"generic">)
      : Effect.fail(new InvalidConversation({ issues }))
  })

/**
 * Whether the conversation passes the generic rules.
 *
 * @example
 * if (Conversation.isValid(messages)) {
 *   const valid: Conversation.Validated = messages
 * }
 *
 * @since 0.1.0
 */
export const isValid = (messages: ReadonlyArray<Message.Message>, options?: ValidateOptions): messages is Validated<"generic"> =>
  firstIssue(messages, options) === undefined

// ---------------------------------------------------------------------------
// provider profiles
// ---------------------------------------------------------------------------

/**
 * Options of the provider profiles.
 *
 * @since 0.1.0
 */
export interface ProfileOptions extends ValidateOptions {
  /**
   * Anthropic: whether thinking is on for the next request. Default: on when
   * any assistant message of the conversation holds thinking (then judged as
   * manual thinking, with the rules about a tool loop in progress only: the
   * rules about a final assistant message need the setting).
   */
  readonly thinking?: boolean
  /**
   * Anthropic: how thinking is on, Anthropic's `thinking.type`. `"enabled"`
   * (manual extended thinking, the default when `thinking` is on) wants the
   * assistant turn a request continues to start with a thinking block;
   * `"adaptive"` lets the model skip thinking at any step, so it never
   * does. Given without `thinking`, thinking is on; `thinking: false` wins.
   * `profileOptionsOf` sets it from the request.
   */
  readonly thinkingMode?: "enabled" | "adaptive"
  /**
   * OpenAI Responses: the request's `store` flag. With `store: false`,
   * reasoning items must carry their encrypted content. Default `true`.
   */
  readonly store?: boolean
  /**
   * Gemini: whether the first call of each step of the current turn must
   * carry the thought signature the model returned. Gemini 3 requires it;
   * Gemini 2.5 accepted calls without one (recorded, with signatures in use
   * elsewhere in the same request). Default: `"required"` when `model`
   * names a Gemini 3 or later model, `"optional"` otherwise.
   */
  readonly thoughtSignatures?: "required" | "optional"
  /**
   * OpenAI Responses: whether an output item sent back with its item id
   * needs the reasoning item it was produced after in the request
   * (`MissingReasoningItem`), as reasoning models want. Default:
   * `"required"` when `model` reasons by default (see
   * `requiresReasoningItems`), `"optional"` otherwise.
   * `profileOptionsOf` sets it from the request's `reasoning.effort`
   * (`"optional"` for `"none"`, whose outputs come after no reasoning).
   */
  readonly reasoningItems?: "required" | "optional"
  /**
   * The model the request is for (e.g. `"gemini-3-flash-preview"`), for the
   * defaults that depend on the model generation (`thoughtSignatures`,
   * `reasoningItems`).
   */
  readonly model?: string
  /**
   * Anthropic: how many cache breakpoints the request sets outside its
   * messages (`cache_control` on tool definitions, and a top-level one for
   * automatic caching). They count toward the limit of 4 with those in the
   * messages (`TooManyCacheBreakpoints`). Default 0; `profileOptionsOf`
   * counts them.
   */
  readonly cacheBreakpointsOutsideMessages?: number
}

/**
 * The profile options a whole request implies, for `validateFor`,
 * `issuesFor` and `Repair.repairFor` on what will really be sent:
 *
 * - `model`: the request's model;
 * - `thinking` and `thinkingMode`: Anthropic's `thinking` setting (on for
 *   `enabled` or `adaptive`, with that mode; off for `disabled`); without
 *   one, what the API does by default: adaptive thinking on for a Claude 5
 *   or later `model`, and off for a request read from an Anthropic body
 *   (`readFrom: "anthropic"`);
 * - `store`: `false` when the Responses request says `store: false`;
 * - `reasoningItems`: from the Responses request's `reasoning.effort`, for
 *   a model that can reason (`"optional"` for `"none"`, else
 *   `"required"`);
 * - `continues`: a Responses request with `previous_response_id` or
 *   `conversation`;
 * - `cacheBreakpointsOutsideMessages`: the Anthropic cache breakpoints of
 *   the request's tool definitions and its top-level `cache_control`.
 *
 * @example
 * const request = Request.make([Message.user("hi")], {
 *   model: "claude-sonnet-4-5",
 *   providerOptions: { anthropic: { thinking: { type: "enabled", budget_tokens: 2048 } } }
 * })
 * Conversation.profileOptionsOf(request) // { model: "claude-sonnet-4-5", thinking: true, thinkingMode: "enabled" }
 *
 * @since 0.1.0
 */
export const profileOptionsOf = profileOptionsOfRequest

/** Whether the model rejects a request that ends with an assistant message (a prefill): Claude 4.6 and later. */
const takesNoPrefill = (model: string | undefined): boolean => {
  const version = claudeVersion(model)
  return version !== undefined && (version.major > 4 || (version.major === 4 && version.minor >= 6))
}


/**
 * Whether a Gemini profile with these options requires thought signatures:
 * `thoughtSignatures` when given, otherwise whether `model` names Gemini 3
 * or later (`gemini-3-flash-preview`, `models/gemini-3.1-pro`).
 *
 * @example
 * Conversation.requiresThoughtSignatures({ model: "gemini-2.5-flash" }) // false
 * Conversation.requiresThoughtSignatures({ model: "gemini-3-flash-preview" }) // true
 * Conversation.requiresThoughtSignatures({ model: "gemini-3-flash-preview", thoughtSignatures: "optional" }) // false
 *
 * @since 0.1.0
 */
export const requiresThoughtSignatures = (options?: ProfileOptions): boolean => {
  if (options?.thoughtSignatures !== undefined) return options.thoughtSignatures === "required"
  const generation = options?.model === undefined ? undefined : /(?:^|\/)gemini-(\d+)/.exec(options.model)?.[1]
  return generation !== undefined && Number(generation) >= 3
}

/**
 * Whether an OpenAI Responses profile with these options wants each output
 * item sent with its item id to come with its reasoning item
 * (`MissingReasoningItem`): `reasoningItems` when given (which
 * `profileOptionsOf` sets from a request's `reasoning.effort` for a model
 * that can reason), otherwise whether `model` reasons by default: the
 * o-series, `codex-mini`, GPT-5 and the Codex models (GPT-5.1 and later
 * default to no reasoning; `-chat` variants never reason). Without a
 * model, nothing is required.
 *
 * @example
 * Conversation.requiresReasoningItems({ model: "gpt-5" }) // true
 * Conversation.requiresReasoningItems({ model: "o4-mini" }) // true
 * Conversation.requiresReasoningItems({ model: "gpt-4.1" }) // false
 * Conversation.requiresReasoningItems({ model: "gpt-5.4" }) // false: no reasoning unless the request asks for it
 * const request = Request.make([Message.user("hi")], { model: "gpt-5.4", providerOptions: { "openai-responses": { reasoning: { effort: "high" } } } })
 * Conversation.requiresReasoningItems(Conversation.profileOptionsOf(request)) // true
 *
 * @since 0.1.0
 */
export const requiresReasoningItems = requiresReasoningItemsFor

/** A provider's own issues, and the generic ones only that provider's wire shows. */
type ProviderSink = (issue: ProviderIssue | MissingToolResult | OrphanToolResult | DuplicateToolResult | EmptyToolName) => boolean

/** Anthropic: "text content blocks must contain non-whitespace text". */
const isBlank = (text: string): boolean => text.trim() === ""

/**
 * Anthropic's own rules, each from its documented errors: signed thinking
 * replayed unchanged, redacted thinking with its data, with manual thinking
 * the assistant turn a request continues (a tool loop in progress, a final
 * assistant message) starting with thinking, with thinking off no thinking
 * in a final assistant turn, no prefill for the models that take none, no
 * blank text, no prefill ending in whitespace, no text after the last
 * client call. What it accepts that the
 * rules must not flag (recorded): explicit `citations: null` and
 * `cache_control: null`, `tool_use` ids without the `toolu_` prefix, server
 * tool calls still waiting for their result in a paused turn, text after
 * server tool results.
 */
const anthropicRules = (messages: ReadonlyArray<Message.Message>, runs: Uint8Array, options: ProfileOptions | undefined, sink: ProviderSink): void => {
  const provider = "anthropic"
  let thinkingInUse = options?.thinking
  let lastAssistant = -1
  // the assistant message the writer makes of a run of them: whether it holds a client call yet, and the text
  // blocks after its last one so far (message, block), reported when the run ends with no call after them
  let called = false
  const after: Array<number> = []
  const textAfterCalls = (): boolean => {
    for (let k = 0; k < after.length; k += 2) if (sink(new TextAfterToolCalls({ provider, index: after[k]!, blockIndex: after[k + 1]! }))) return true
    after.length = 0
    return false
  }
  // whether the wire message read is a user message, whether a user message the generic rules read is in it (they
  // end a turn there), and whether it is a user message after one of only results (their calls' turn ended there)
  let userWire = false
  let words = false
  let second = false
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    // a message that opens a wire message (not one the writer joins to the message before, nor one it leaves out)
    const opens = m.role !== "system" && (runs[i]! & (CONTINUES | LEFT_OUT)) === 0
    if (opens) {
      called = false
      if (textAfterCalls()) return
      const user = m.role !== "assistant"
      second = user && userWire && !words
      userWire = user
      words = false
    }
    if (m.role === "user" && (runs[i]! & (FILLED | UNSENT)) !== (FILLED | UNSENT)) words = true
    switch (m.role) {
      case "system":
      case "user":
        for (let b = 0; b < m.content.length; b++) {
          const block = m.content[b]!
          if (block._tag === "Text" && isBlank(block.text) && sink(new EmptyTextBlock({ provider, index: i, blockIndex: b }))) return
        }
        break
      case "tool":
        // the adapter sends a turn's results in one user message; ones in a second user message (one read from a
        // message of its own: the reader marks it) went apart, and the API rejects the first for the calls it does
        // not answer (a system message between them goes to the system prompt, and a run the writer leaves out is
        // joined over: they still meet on the wire). An empty one answers nothing: EmptyMessage says what is wrong.
        if (second && lastAssistant !== -1 && m.content.length > 0) {
          second = false
          if (sink(new MissingToolResult({ index: lastAssistant, toolCallIds: m.content.map((r) => r.toolCallId), resumedAt: i }))) return
        }
        // a result's text blocks are text blocks too ("text content blocks must be non-empty")
        for (let b = 0; b < m.content.length; b++) {
          const content = m.content[b]!.content
          if (typeof content === "string") continue
          for (const part of content) {
            if (part._tag === "Text" && isBlank(part.text) && sink(new EmptyTextBlock({ provider, index: i, blockIndex: b }))) return
          }
        }
        break
      case "assistant": {
        lastAssistant = i
        let lastCall = -1
        for (let b = 0; b < m.content.length; b++) {
          const block = m.content[b]!
          switch (block._tag) {
            case "Text":
              if (isBlank(block.text) && sink(new EmptyTextBlock({ provider, index: i, blockIndex: b }))) return
              break
            case "Thinking":
              if (thinkingInUse === undefined) thinkingInUse = true
              if ((block.signature === undefined || block.signature === "") && sink(new MissingThinkingSignature({ provider, index: i, blockIndex: b }))) return
              break
            case "RedactedThinking":
              if (thinkingInUse === undefined) thinkingInUse = true
              if (block.data === "" && sink(new EmptyRedactedThinking({ provider, index: i, blockIndex: b }))) return
              break
            case "ToolCall":
              // server tools (web search, code execution, MCP) are followed by the text that uses their
              // results: Anthropic accepts that (recorded), so only client calls count
              if (block.providerExecuted !== true) lastCall = b
              break
            case "Refusal":
              // Anthropic has no refusal block: the adapter sends it as text, which the text rules then apply to
              if (isBlank(block.refusal) && sink(new EmptyTextBlock({ provider, index: i, blockIndex: b }))) return
              break
            case "File":
            case "ToolResult":
            case "ProviderData":
              break
            default:
              Block.absurd(block)
          }
        }
        // the text of a message merged into one with calls comes after them, unless calls of its own follow it
        // text before a call of a later message of the run is not after the last call of the message sent
        if (lastCall !== -1) after.length = 0
        if (lastCall !== -1 || called) {
          called = true
          for (let b = lastCall + 1; b < m.content.length; b++) {
            const text = textOnWire(m.content[b]!)
            if (text !== undefined && !isBlank(text)) after.push(i, b)
          }
        }
        break
      }
      default:
        Block.absurd(m)
    }
  }
  if (textAfterCalls()) return
  // the last message on the wire: system messages after it go to the system prompt
  const lastIndex = previousOnWire(messages, messages.length)
  const last = messages[lastIndex]
  if (last === undefined || lastAssistant === -1) return
  // the request continues the last assistant turn when it ends with it (a prefill, or a paused server-tool turn sent
  // back) or with the results of its calls, the user's words after them included (the adapter sends both in one
  // user message): a tool loop in progress. A tool loop is one turn, from the user's words on.
  const endsOnAssistant = last.role === "assistant"
  // (the calls are those of the message the run of assistant messages makes: an empty last one adds nothing)
  const inToolLoop = !endsOnAssistant && messages[nextOnWire(messages, lastAssistant)]?.role === "tool" && holdsCall(messages, assistantTurnStart(messages, lastAssistant), lastAssistant, false)
  const start = turnStart(messages, lastAssistant)
  const setting = thinkingSetting(options)
  // manual thinking: the turn starts with thinking (its first message, merged with the assistant messages right after
  // it; later steps may go without). Thinking in the history says thinking is on for a tool loop; a final assistant
  // message needs the setting. Adaptive thinking may skip thinking at any step.
  const manual = setting === "enabled" || (setting === undefined && thinkingInUse === true && inToolLoop)
  if (manual && (inToolLoop || endsOnAssistant) && !isThinkingBlock(firstBlockOfRun(messages, start))) {
    if (sink(new ThinkingNotFirst({ provider, index: start }))) return
  }
  if (endsOnAssistant) {
    if (setting === "disabled") {
      for (let k = start; k <= lastIndex; k++) {
        const m = messages[k]!
        if (m.role !== "assistant") continue
        for (let b = 0; b < m.content.length; b++) {
          if (isThinkingBlock(m.content[b]) && sink(new ThinkingWhileDisabled({ provider, index: k, blockIndex: b }))) return
        }
      }
    }
    // a paused server-tool turn sent back to continue it is no prefill
    if (options?.model !== undefined && takesNoPrefill(options.model) && !holdsCall(messages, assistantTurnStart(messages, lastIndex), lastIndex, true)) {
      if (sink(new PrefillNotSupported({ provider, index: lastIndex, model: options.model }))) return
    }
  }
  if (last.role === "assistant") {
    // empty assistant messages at the end add nothing to the message the writer makes of the run
    let k = lastIndex
    while (k > 0 && messages[k]!.content.length === 0 && messages[previousOnWire(messages, k)]?.role === "assistant") k = previousOnWire(messages, k)
    const final = messages[k] as Message.AssistantMessage
    const b = lastText(final)
    const text = b === -1 ? undefined : textOnWire(final.content[b]!)
    if (text !== undefined && text !== text.trimEnd()) sink(new TrailingWhitespacePrefill({ provider, index: k, blockIndex: b }))
  }
}

/** Whether the assistant messages from `from` to `to` make a call, or with `server` call a server tool (the turn of a paused server-tool call). */
const holdsCall = (messages: ReadonlyArray<Message.Message>, from: number, to: number, server: boolean): boolean => {
  for (let k = from; k <= to; k++) {
    const m = messages[k]!
    if (m.role === "assistant" && m.content.some((block) => block._tag === "ToolCall" && (block.providerExecuted === true || !server))) return true
  }
  return false
}

/** The text Anthropic gets for an assistant block: its text, a refusal's as text, else none. */
const textOnWire = (block: Block.AssistantBlock): string | undefined =>
  block._tag === "Text" ? block.text : block._tag === "Refusal" ? block.refusal : undefined

/** The index of the last block of an assistant message that goes as text, or -1. */
const lastText = (m: Message.AssistantMessage): number => {
  for (let b = m.content.length - 1; b >= 0; b--) {
    if (textOnWire(m.content[b]!) !== undefined) return b
  }
  return -1
}

/**
 * Gemini's own rules: system text only at the start, a call turn after a
 * user or function-response turn (documented errors), and Gemini 3's
 * thought signatures. What it accepts (recorded): parallel calls answered by
 * separate user contents, an empty text part, Gemini 2.5 calls without a
 * signature.
 */
const geminiRules = (messages: ReadonlyArray<Message.Message>, options: ProfileOptions | undefined, sink: ProviderSink): void => {
  const provider = "gemini"
  let started = false
  let lastUser = -1
  let prev: Message.Message | undefined
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role === "system") {
      if (started && sink(new SystemNotAtStart({ provider, index: i }))) return
      continue
    }
    // a message the writer sends nothing of (another provider's data alone) is no turn on the wire
    if (geminiSendsNothing(m)) continue
    started = true
    if (m.role === "user") lastUser = i
    if (m.role === "assistant") {
      if (sendsFunctionCall(m) && !(prev !== undefined && (prev.role === "user" || prev.role === "tool"))) {
        if (sink(new MisplacedFunctionCall({ provider, index: i }))) return
      }
    }
    prev = m
  }
  if (!requiresThoughtSignatures(options)) return
  // Gemini 3 checks the signatures of the current turn: the first function call of each step since the last user
  // message (a call the provider ran, such as Gemini's code execution or another provider's server tool, is no
  // function call: the writer sends it as its own part or not at all)
  for (let i = lastUser + 1; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role !== "assistant") continue
    for (let b = 0; b < m.content.length; b++) {
      const block = m.content[b]!
      if (block._tag !== "ToolCall" || block.providerExecuted === true) continue
      if ((block.thoughtSignature === undefined || block.thoughtSignature === "") && sink(new MissingThoughtSignature({ provider, index: i, blockIndex: b, toolCallId: block.id }))) return
      break
    }
  }
}

/**
 * The Responses API's own rules, both recorded as rejections: a reasoning
 * item followed by an edited message without its item id, and assistant
 * text between function calls and their outputs; plus, with `store: false`,
 * reasoning without its encrypted content (documented), a custom tool
 * output (kept as provider data) with no custom tool call before it
 * (documented error: "No tool call found for custom tool call output") or
 * for a call already answered (as `DuplicateToolResult` is for function
 * outputs), and a custom tool call with no output after it ("No tool output
 * found for custom tool call", as for a function call; pending at the end
 * unless `allowPendingToolCalls`).
 */
const responsesRules = (messages: ReadonlyArray<Message.Message>, options: ProfileOptions | undefined, sink: ProviderSink): void => {
  const provider = "openai-responses"
  const store = options?.store ?? true
  const custom = customCallOutputs(options?.continues === true)
  /** Reasoning items of the current message without a following item that carries an id, last first (reused). */
  const orphaned: Array<number> = []
  const pushOrphan = (b: number): void => {
    orphaned.push(b)
  }
  /** Whether the item after each message carries an id (read once, at the first assistant message). */
  let after: Array<boolean> | undefined
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    custom.message(m, i)
    if (m.role !== "assistant") continue
    const content = m.content
    // one backward pass: the item that follows each reasoning item (other reasoning items
    // aside) must be there, and must still carry the id the API gave it (recorded: a reasoning
    // item followed by an assistant message without its id is rejected)
    orphaned.length = 0
    unfollowedReasoning(content, pushOrphan, (after ??= followedByIdAfter(messages))[i])
    let next = orphaned.length - 1
    let lastCall: Block.ToolCallBlock | undefined
    for (let b = 0; b < content.length; b++) {
      const block = content[b]!
      const answers = custom.output(block, i, b)
      if (answers !== undefined) {
        const issue = answers._tag === "Orphan"
          ? new OrphanToolResult({ index: i, blockIndex: b, toolCallId: answers.id, toolName: "" })
          : new DuplicateToolResult({ index: i, blockIndex: b, toolCallId: answers.id, firstIndex: answers.firstIndex })
        if (sink(issue)) return
      }
      // a custom tool call kept as provider data needs its name, as a function call does ("Missing required parameter")
      const item = customItemOf(block)
      if (item?.type === "custom_tool_call" && item.name === "" && sink(new EmptyToolName({ index: i, blockIndex: b, toolCallId: item.id ?? "" }))) return
      if (block._tag === "ToolCall" && block.providerExecuted !== true) {
        lastCall = block
        // a custom tool's call sends its input text, as the API's own custom_tool_call item: no arguments to judge
        if (isCustomTextCall(block)) continue
        const problem = sentArgumentsProblem(block)
        if (problem !== undefined && sink(new MalformedToolArguments({ provider, index: i, blockIndex: b, toolCallId: block.id, reason: problem }))) return
        continue
      }
      // text after a client call becomes a message item between the call and its output
      if (lastCall !== undefined && (block._tag === "Text" || block._tag === "Refusal")) {
        if (sink(new TextBetweenCallAndOutput({ provider, index: i, blockIndex: b, toolCallId: lastCall.id }))) return
        continue
      }
      // (thinking the writer leaves out is no reasoning item)
      if (block._tag !== "Thinking" || !isReasoningItem(block)) continue
      if (!store && (block.encryptedContent === undefined || block.encryptedContent === "")) {
        if (sink(new MissingEncryptedContent({ provider, index: i, blockIndex: b }))) return
      }
      if (next >= 0 && orphaned[next] === b) {
        next--
        if (sink(new ReasoningWithoutOutput({ provider, index: i, blockIndex: b }))) return
      }
    }
  }
  for (const call of custom.unanswered()) {
    // a call the conversation ends with is pending: its output is what the caller sends next (one without a call_id is not: no output can answer it)
    if (call.resumedAt === undefined && options?.allowPendingToolCalls === true && call.id !== "") continue
    const where = call.resumedAt === undefined ? {} : { resumedAt: call.resumedAt }
    if (sink(new MissingToolResult({ index: call.index, blockIndex: call.blockIndex, toolCallIds: [call.id], ...where }))) return
  }
}

/**
 * OpenAI Chat's own rule: a call's `arguments` text is a JSON object. The
 * adapter sends the text a call was read with while it still gives the
 * call's `args`, so broken text read from a model goes back as it came.
 */
const chatRules = (messages: ReadonlyArray<Message.Message>, sink: ProviderSink): void => {
  const provider = "openai-chat"
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role !== "assistant") continue
    for (let b = 0; b < m.content.length; b++) {
      const block = m.content[b]!
      // a custom tool's call takes free-form text, sent as it is
      if (block._tag !== "ToolCall" || block.providerExecuted === true || isChatCustomCall(block)) continue
      const problem = sentArgumentsProblem(block)
      if (problem !== undefined && sink(new MalformedToolArguments({ provider, index: i, blockIndex: b, toolCallId: block.id, reason: problem }))) return
    }
  }
}

/** No calls (a tool result's parts answer none). */
const NO_CALLS: ReadonlySet<string> = new Set()

/** Anthropic's limit on the blocks with `cache_control` in one request. */
const CACHE_BREAKPOINT_LIMIT = 4

/**
 * The `cache_control` Anthropic gets on a block, as its adapter writes it when it writes the block at all
 * (`anthropicSent`): the block's own, the one in the data of Anthropic provider data, the one of a JSON value sent
 * as a block (a search result, a tool reference or a browser state in a tool result; another JSON value goes as its
 * text). A refusal goes as plain text, without its options, and thinking without its `cache_control`, which Anthropic
 * rejects there (`anthropicTakesCache`).
 */
const blockCache = (block: Block.Block): Schema.Json | undefined => {
  switch (block._tag) {
    case "Text":
    case "File":
    case "ToolCall":
    case "ToolResult":
      return block.providerOptions?.["anthropic"]?.["cache_control"]
    case "ProviderData":
      // (thinking kept as provider data goes without it, as a thinking block does)
      return block.provider === "anthropic" && !takesNoAnthropicCache(block.data["type"]) ? block.data["cache_control"] : undefined
    case "Json": {
      const value = block.value
      if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined
      const object = value as Block.JsonObject
      const type = object["type"]
      return typeof type === "string" && ANTHROPIC_RESULT_PASS_TYPES.has(type) ? object["cache_control"] : undefined
    }
    case "Thinking":
    case "RedactedThinking":
    case "Refusal":
      return undefined
    default:
      return Block.absurd(block)
  }
}

/**
 * Whether Anthropic takes a `cache_control` on a block of a message with `role`, as its adapter writes the block:
 * not on thinking or redacted thinking (the API answers "messages.1.content.0.thinking.cache_control: Extra inputs
 * are not permitted"), nor on a block the adapter writes with such a `type` (Anthropic provider data, or a server
 * tool's block, whose kept `type` is written).
 */
const anthropicTakesCache = (block: Block.Block, role: Message.Role): boolean => {
  switch (block._tag) {
    case "Thinking":
    case "RedactedThinking":
      return false
    case "ProviderData":
      return !takesNoAnthropicCache(block.data["type"])
    case "ToolCall":
      return block.providerExecuted !== true || !takesNoAnthropicCache(block.providerOptions?.["anthropic"]?.["type"])
    case "ToolResult":
      return role !== "assistant" || !takesNoAnthropicCache(block.providerOptions?.["anthropic"]?.["type"])
    default:
      return true
  }
}

/** Where the Anthropic adapter writes cache breakpoints (`anthropicBreakpoints`). */
interface Breakpoints {
  readonly system: Array<CacheBreakpoint>
  readonly others: Array<CacheBreakpoint>
  readonly placed: Uint8Array
}

/**
 * The breakpoints the Anthropic adapter writes in the messages (`system`: in the system prompt; `others`: in the
 * messages), and which user, tool or assistant messages have their own `cache_control` (null included) written on a
 * block (`placed`). A message's own goes on its own last block the adapter writes that takes one
 * (`anthropicTakesCache`), when that block has no `cache_control` of its own, however the messages are merged into
 * Anthropic messages: a message that opens one, one merged into it, one after a message left out alike. The
 * breakpoint is placed at that block.
 */
const anthropicBreakpoints = (messages: ReadonlyArray<Message.Message>): Breakpoints => {
  const system: Array<CacheBreakpoint> = []
  const others: Array<CacheBreakpoint> = []
  const placed = new Uint8Array(messages.length)
  /** Of each message, the place of the last block the adapter writes that takes a `cache_control`, plus one (0: none). */
  const carrier = new Uint32Array(messages.length)
  /** Whether that block has a `cache_control` of its own (null included). */
  const carrierOwn = new Uint8Array(messages.length)
  walkAnthropicSent(messages, (block, i, b) => {
    const role = messages[i]!.role
    const cache = blockCache(block)
    if (anthropicTakesCache(block, role)) {
      carrier[i] = b + 1
      carrierOwn[i] = cache === undefined ? 0 : 1
    }
    const into = role === "system" ? system : others
    if (isBreakpoint(cache)) into.push({ index: i, blockIndex: b })
    if (block._tag !== "ToolResult" || typeof block.content === "string") return false
    const place = role === "assistant" ? "serverResultPart" : "resultPart"
    for (const part of block.content) if (isBreakpoint(blockCache(part)) && anthropicSent(part, place, NO_CALLS)) into.push({ index: i, blockIndex: b })
    return false
  }, false)
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    const cache = m.providerOptions?.["anthropic"]?.["cache_control"]
    if (cache === undefined) continue
    if (m.role === "system") {
      // on its last block the adapter writes (an empty text it leaves out)
      let last = m.content.length - 1
      while (last >= 0 && m.content[last]!._tag === "Text" && (m.content[last] as Block.TextBlock).text === "") last--
      if (last >= 0 && isBreakpoint(cache) && blockCache(m.content[last]!) === undefined) system.push({ index: i, blockIndex: last })
      continue
    }
    if (carrier[i] === 0 || carrierOwn[i] === 1) continue
    placed[i] = 1
    if (isBreakpoint(cache)) others.push({ index: i, blockIndex: carrier[i]! - 1 })
  }
  return { system, others, placed }
}

/**
 * Anthropic: at most 4 cache breakpoints in a request (documented error: "A maximum of 4 blocks with cache_control
 * may be provided. Found 5."), those outside the messages (`cacheBreakpointsOutsideMessages`) included. A block's
 * breakpoint counts (thinking's is not written), a tool result's parts' too, and a message's own where the adapter
 * puts it: a system message's on its last block, when that block has no `cache_control` of its own; another
 * message's on its own last block that takes one (not thinking), when it writes one and that block has none of its
 * own, whether it opens the Anthropic message it is written in or is merged into it (`anthropicBreakpoints`). Each is
 * placed at the block it goes on. An explicit `cache_control: null` is none (recorded accepted). The system prompt
 * comes before the messages in the body, so its breakpoints are listed first.
 */
const cacheBreakpointRule = (options: ProfileOptions | undefined, breakpointsOf: () => Breakpoints, sink: ProviderSink): void => {
  const { system, others } = breakpointsOf()
  const outside = options?.cacheBreakpointsOutsideMessages ?? 0
  const count = outside + system.length + others.length
  if (count <= CACHE_BREAKPOINT_LIMIT) return
  // in message order (a message's own after its blocks'); the sort is stable
  const byMessage = (a: CacheBreakpoint, b: CacheBreakpoint): number => a.index - b.index
  system.sort(byMessage)
  others.sort(byMessage)
  for (const place of others) system.push(place)
  // the first one past the limit, the ones outside the messages (tool definitions first in the body) counted first
  const past = system[Math.max(0, CACHE_BREAKPOINT_LIMIT - outside)]
  sink(new TooManyCacheBreakpoints({ provider: "anthropic", count, breakpoints: system, ...(past === undefined ? {} : past) }))
}


/**
 * Anthropic: no string of the body may hold a lone UTF-16 surrogate (documented error: "The request body is not
 * valid JSON: no low surrogate in string"), which text cut in the middle of an emoji has. Only what the adapter
 * sends is read (`anthropicSent`), once: the fields it leaves out, the blocks it leaves out, and the options kept for
 * other providers cannot make the body invalid. The other providers are not recorded rejecting one.
 */
const loneSurrogateRule = (
  messages: ReadonlyArray<Message.Message>,
  writtenOf: () => Uint8Array,
  breakpointsOf: () => Breakpoints,
  sink: ProviderSink
): void => {
  let stop = false
  walkAnthropicSent(messages, (_block, i, b, sent) => {
    for (const [at, value] of sent) {
      const path = loneSurrogatePath(at, value)
      if (path !== undefined) return (stop = sink(new LoneSurrogate({ provider: "anthropic", index: i, blockIndex: b, path })))
    }
    return false
  }, true)
  if (stop || !messages.some(hasAnthropicOptions)) return
  // the fields of the messages it writes: of a message that opens an Anthropic message, its fields on that message
  // and its breakpoint on a block of its own; of a message merged into the one before it, only its breakpoint
  const written = writtenOf()
  const { placed } = breakpointsOf()
  const sent: Array<SentValue> = []
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    sent.length = 0
    if (written[i] === 1) pushAnthropicFields(m, sent, true, placed[i] === 1)
    else if (placed[i] === 1 || (m.role === "system" && m.content.length > 0 && blockCache(m.content[m.content.length - 1]!) === undefined)) {
      const cache = m.providerOptions?.["anthropic"]?.["cache_control"]
      if (cache !== undefined) sent.push([[...OPTIONS_PATH, "cache_control"], cache])
    }
    for (const [at, value] of sent) {
      const path = loneSurrogatePath(at, value)
      if (path !== undefined && sink(new LoneSurrogate({ provider: "anthropic", index: i, path }))) return
      if (path !== undefined) break
    }
  }
}

/** Whether a message has Anthropic options (most have none: then no message field is written). */
const hasAnthropicOptions = (m: Message.Message): boolean => m.providerOptions?.["anthropic"] !== undefined

/**
 * Anthropic: a message takes no field besides `role` and `content` ("messages.0.cache_control: Extra inputs are not
 * permitted", anthropic-sdk-typescript#553; every recorded accepted body has none). The fields the adapter writes
 * on a message are its Anthropic options but `cache_control` (which goes on its last block) and the adapter's hints,
 * of the messages it writes them on (`anthropicWrittenMessages`).
 */
const unknownMessageFieldRule = (messages: ReadonlyArray<Message.Message>, writtenOf: () => Uint8Array, sink: ProviderSink): void => {
  if (!messages.some(hasAnthropicOptions)) return
  const written = writtenOf()
  for (let i = 0; i < messages.length; i++) {
    if (written[i] !== 1) continue
    const own = messages[i]!.providerOptions?.["anthropic"]
    if (own === undefined) continue
    // a field given both kept (`$$x`) and by its bare name (`$x`) is written once
    const fields = new Set<string>()
    for (const key of Object.keys(own)) {
      if (isAnthropicHintKey(key) || key === "cache_control") continue
      const field = wireName(key)
      if (fields.has(field)) continue
      fields.add(field)
      if (sink(new UnknownMessageField({ provider: "anthropic", index: i, field }))) return
    }
  }
}

/**
 * Anthropic: no block field whose name starts with `$` (a block takes only the fields of its type: "Extra inputs are
 * not permitted"). The adapter keeps no hint on blocks: every Anthropic option of a block it sends is written as a
 * field (one kept as `$$x` as `$x`, given both ways once), the top-level fields of Anthropic provider data as they
 * are. Read from what the adapter sends (`anthropicSent`): the options of the blocks it sends, of the parts of their
 * tool results, the data of provider data; not a refusal's options (it goes as plain text). Other unknown fields are
 * not reported: the adapter keeps them from blocks read from the wire, and Anthropic adds fields.
 */
const blockFieldRule = (messages: ReadonlyArray<Message.Message>, sink: ProviderSink): void => {
  if (!messages.some((m) => (m.content as ReadonlyArray<Block.Block>).some(hasDollarKey))) return
  const fields = new Set<string>()
  walkAnthropicSent(messages, (block, i, b, sent) => {
    fields.clear()
    if (block._tag === "ProviderData") {
      for (const key of Object.keys(block.data)) {
        if (isDollar(key) && sink(new UnknownMessageField({ provider: "anthropic", index: i, blockIndex: b, field: key, path: ["data", key] }))) return true
      }
      return false
    }
    for (const [at, value] of sent) {
      // the key of an option, sent as the last step of its path: `[...where, "providerOptions", "anthropic", key]`
      const n = at.length
      if (n < 3 || value !== at[n - 1] || at[n - 2] !== "anthropic" || at[n - 3] !== OPTIONS_PATH[0]) continue
      const field = wireName(value as string)
      if (!isDollar(field)) continue
      // a field given both kept (`$$x`) and by its bare name (`$x`) is written once
      const seen = JSON.stringify([at.slice(0, n - 3), field])
      if (fields.has(seen)) continue
      fields.add(seen)
      if (sink(new UnknownMessageField({ provider: "anthropic", index: i, blockIndex: b, field, path: at }))) return true
    }
    return false
  }, true)
}

/**
 * OpenAI Responses: no two input items with one id ("Duplicate item found with id rs_…", reported from agents that
 * appended a turn twice). The items and their ids as the adapter writes them: an input message read with its `id`
 * (kept in its options), a function call output's `itemId`, and an assistant block's (`itemId`, or the `id` of an item
 * kept as provider data), the consecutive text and refusal blocks with one `itemId` being the parts of one message
 * item; a hosted tool's result is written inside its call's item.
 */
const duplicateItemRule = (messages: ReadonlyArray<Message.Message>, sink: ProviderSink): void => {
  const provider = "openai-responses"
  const first = new Map<string, number>()
  /** Registers an item id; reports it when an item had it before. Returns `true` to stop. */
  const sent = (itemId: string | undefined, index: number, blockIndex: number | undefined): boolean => {
    if (itemId === undefined || itemId === "") return false
    const firstIndex = first.get(itemId)
    if (firstIndex === undefined) {
      first.set(itemId, index)
      return false
    }
    return sink(new DuplicateItemId({ provider, index, ...(blockIndex === undefined ? {} : { blockIndex }), itemId, firstIndex }))
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    switch (m.role) {
      case "system":
      case "user": {
        const id = m.providerOptions?.["openai-responses"]?.["id"]
        if (typeof id === "string" && sent(id, i, undefined)) return
        break
      }
      case "tool":
        for (let b = 0; b < m.content.length; b++) if (sent(m.content[b]!.itemId, i, b)) return
        break
      case "assistant": {
        const content = m.content
        for (let b = 0; b < content.length; b++) {
          const block = content[b]!
          if (block._tag === "ToolResult") continue
          const before = content[b - 1]
          if (isMessagePart(block) && isMessagePart(before) && block.itemId === before.itemId) continue
          if (sent(itemIdOf(block), i, b)) return
        }
        break
      }
      default:
        Block.absurd(m)
    }
  }
}


/**
 * The output items of a conversation that OpenAI's reasoning models reject
 * because their reasoning item is not sent (`MissingReasoningItem`), in
 * order: each block written with its item id (a call's `fc…`, the first part
 * of a message's `msg…`, a web search's or a generated image's) with no
 * reasoning item before it in its turn. Empty
 * unless the options say the model wants them (`requiresReasoningItems`);
 * always empty with `store: false` (nothing is stored to look an item up
 * by).
 * The reading `validateFor("openai-responses")` and
 * `Repair.repairFor("openai-responses")` share.
 *
 * @example
 * const history = [
 *   Message.user("Weather in Oslo?"),
 *   Message.assistant([Block.toolCall("call_1", "weather", { city: "Oslo" }, { itemId: "fc_1" })]),
 *   Message.toolResultMessage("call_1", "weather", "12°C")
 * ]
 * Conversation.missingReasoningItems(history, { model: "o3" }).map((issue) => issue.itemId) // ["fc_1"]
 * Conversation.missingReasoningItems(history, { model: "gpt-4.1" }) // []: the model does not reason
 *
 * @since 0.1.0
 */
export const missingReasoningItems = missingReasoningItemsOf

/** The image types OpenAI takes, as the formats of its error: "['png', 'jpeg', 'gif', 'webp']". */
const OPENAI_IMAGE_TYPES: ReadonlyArray<string> = ["image/png", "image/jpeg", "image/gif", "image/webp"]
const OPENAI_IMAGES: ReadonlySet<string> = new Set(OPENAI_IMAGE_TYPES)
/** The image types Anthropic takes, in the order its error lists them. */
const ANTHROPIC_IMAGE_LIST: ReadonlyArray<string> = [...ANTHROPIC_IMAGE_TYPES]
/** The document types Anthropic's writer takes as data: a PDF, and any `text/*` whose bytes are UTF-8 text (sent as plain text). */
const ANTHROPIC_DOCUMENT_LIST: ReadonlyArray<string> = ["application/pdf", "text/* as UTF-8 text"]
/** The document types Anthropic's writer sends by URL or file id (`isDocumentByReference`: a file of unknown type may be either). */
const ANTHROPIC_REFERENCE_LIST: ReadonlyArray<string> = ["application/pdf", "text/*", "application/octet-stream"]
/** The image types Gemini documents ("MIME type must be image/png, image/jpeg, image/webp, image/heic, or image/heif"). */
const GEMINI_IMAGE_LIST: ReadonlyArray<string> = ["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"]
/** Those, and the ones Gemini is not known to reject: GIF (taken by Gemini 1.5), BMP and TIFF (listed by its SDK). */
const GEMINI_IMAGES: ReadonlySet<string> = new Set([...GEMINI_IMAGE_LIST, "image/gif", "image/bmp", "image/tiff"])

/** A media type as providers compare it: lower case, without parameters. */
const bareType = (mediaType: string): string => {
  const semicolon = mediaType.indexOf(";")
  return (semicolon === -1 ? mediaType : mediaType.slice(0, semicolon)).trim().toLowerCase()
}

/** A type that says nothing of the format (`image/*`, `application/octet-stream`): not checked. */
const isUnknownType = (type: string): boolean => type === "" || type.endsWith("/*") || type === "application/octet-stream"

/** A file's inline data as sent: its declared type and where its base64 text starts, or none (a URL, a file id, text). */
const inlineData = (file: Block.FileBlock, dataUrls: boolean): { readonly mediaType: string; readonly text: string; readonly start: number } | undefined => {
  const source = file.source
  switch (source._tag) {
    case "Base64":
      return { mediaType: file.mediaType, text: source.data, start: 0 }
    case "Url": {
      const parts = dataUrls ? base64DataUrlParts(source.url) : undefined
      return parts === undefined ? undefined : { mediaType: parts.mediaType, text: source.url, start: parts.dataStart }
    }
    case "FileId":
    case "Text":
      return undefined
    default:
      return Block.absurd(source)
  }
}

/** What a provider says of a file given inline, as its adapter sends it: nothing, or the issue. */
const mediaIssue = (
  provider: Provider,
  given: Block.FileBlock,
  where: { readonly index: number; readonly blockIndex: number; readonly partIndex?: number }
): UnsupportedMediaType | MediaTypeMismatch | undefined => {
  const unsupported = (mediaType: string, supported: ReadonlyArray<string>) => new UnsupportedMediaType({ provider, ...where, mediaType, supported })
  switch (provider) {
    case "anthropic": {
      // the writer's own reading: a file at a base64 data: URL is the data it holds, of the type the URL declares
      // (inlineFileOf); a file it leaves out (anthropicLeavesOut), for its type or for how it is given (in the order
      // the writer asks: a document by reference is a PDF or text before its URL is read), or an image it sends as
      // the type its bytes show (anthropicImageType)
      const file = inlineFileOf(given) ?? given
      const source = file.source
      const image = isImageType(file.mediaType)
      if (anthropicLeavesOut(file)) {
        switch (source._tag) {
          case "Base64":
            return unsupported(file.mediaType, image ? ANTHROPIC_IMAGE_LIST : ANTHROPIC_DOCUMENT_LIST)
          case "Url":
            // a data: URL that is not base64 is no URL Anthropic fetches either
            return image || isDocumentByReference(file.mediaType)
              ? new UnsupportedMediaType({ provider, ...where, mediaType: file.mediaType, supported: image ? ANTHROPIC_IMAGE_LIST : ANTHROPIC_REFERENCE_LIST, source: "url", url: source.url })
              : new UnsupportedMediaType({ provider, ...where, mediaType: file.mediaType, supported: ANTHROPIC_REFERENCE_LIST, source: "url" })
          case "FileId":
            return new UnsupportedMediaType({ provider, ...where, mediaType: file.mediaType, supported: ANTHROPIC_REFERENCE_LIST, source: "fileId" })
          case "Text":
            return new UnsupportedMediaType({ provider, ...where, mediaType: file.mediaType, supported: ANTHROPIC_IMAGE_LIST, source: "text" })
          default:
            return Block.absurd(source)
        }
      }
      if (source._tag !== "Base64" || !image) return undefined
      const sent = anthropicImageType(file.mediaType, source.data)
      return sent?.relabelled === undefined ? undefined : new MediaTypeMismatch({ provider, ...where, mediaType: file.mediaType, actual: sent.sent })
    }
    case "openai-chat":
    case "openai-responses": {
      const file = given
      const source = file.source
      // the writers' own reading: a file at a URL OpenAI cannot take is left out (audio is left out whatever its source)
      if (source._tag === "Url" && !openAiTakesUrl(source.url) && !bareType(file.mediaType).startsWith("audio/")) {
        return new UnsupportedMediaType({ provider, ...where, mediaType: file.mediaType, supported: isImageType(file.mediaType) ? OPENAI_IMAGE_TYPES : [], source: "url", url: source.url })
      }
      if (!isImageType(file.mediaType)) return undefined
      const inline = inlineData(file, true)
      if (inline === undefined) return undefined
      const type = bareType(inline.mediaType)
      // OpenAI reads the format from the bytes
      if (isUnknownType(type) || OPENAI_IMAGES.has(type) || imageTypeOfBase64(inline.text, inline.start) !== undefined) return undefined
      return unsupported(inline.mediaType, OPENAI_IMAGE_TYPES)
    }
    case "gemini": {
      // the writer's own reading: a file at a base64 data: URL is the data it holds (inlineFileOf), a URI of another
      // scheme Gemini refuses (a data: URL that is not base64, file:) and a file id are left out
      const file = inlineFileOf(given) ?? given
      const source = file.source
      if (source._tag === "Url" && !geminiTakesUrl(source.url)) return new UnsupportedMediaType({ provider, ...where, mediaType: file.mediaType, supported: [], source: "url", url: source.url })
      // another provider's file id is left out too (a message of nothing else with it, which moves where a turn starts)
      if (source._tag === "FileId") return new UnsupportedMediaType({ provider, ...where, mediaType: file.mediaType, supported: [], source: "fileId" })
      // Gemini judges the declared type
      if (source._tag !== "Base64") return undefined
      const type = bareType(file.mediaType)
      return !type.startsWith("image/") || isUnknownType(type) || GEMINI_IMAGES.has(type) ? undefined : unsupported(file.mediaType, GEMINI_IMAGE_LIST)
    }
    default:
      return unknownProvider(provider)
  }
}

/**
 * Files given inline in a media type the provider does not take (`UnsupportedMediaType`), and for Anthropic images
 * whose bytes are another format than their type (`MediaTypeMismatch`), each from the provider's documented errors:
 * in user messages and tool results, where the adapters send files (a Chat tool message holds only text), and for
 * Gemini in assistant messages too, whose files its writer sends (or leaves out) as a user message's; the other
 * writers leave every file of an assistant message out, and say so, whatever its type or URL. For
 * Anthropic the rule is the writer's own reading: every file it leaves out (`anthropicLeavesOut`: audio, video,
 * unknown data and text that is not UTF-8 too, and a file left out for how it is given: `source`), and the images it sends relabelled (each reported by the writer as
 * it writes, as an empty text block is).
 */
const mediaTypeRule = (provider: Provider, messages: ReadonlyArray<Message.Message>, sink: ProviderSink): void => {
  const assistantFiles = provider === "gemini"
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role === "user" || (m.role === "assistant" && assistantFiles)) {
      for (let b = 0; b < m.content.length; b++) {
        const block = m.content[b]!
        if (block._tag !== "File") continue
        const issue = mediaIssue(provider, block, { index: i, blockIndex: b })
        if (issue !== undefined && sink(issue)) return
      }
    } else if (m.role === "tool" && provider !== "openai-chat") {
      for (let b = 0; b < m.content.length; b++) {
        const content = m.content[b]!.content
        if (typeof content === "string") continue
        for (let p = 0; p < content.length; p++) {
          const part = content[p]!
          if (part._tag !== "File") continue
          const issue = mediaIssue(provider, part, { index: i, blockIndex: b, partIndex: p })
          if (issue !== undefined && sink(issue)) return
        }
      }
    }
  }
}

/** Runs a profile's passes one after the other into one sink, until it says stop. */
const passes = (sink: ProviderSink, ...all: ReadonlyArray<(sink: ProviderSink) => void>): void => {
  let stop = false
  const tracked: ProviderSink = (issue) => (stop = sink(issue))
  for (const pass of all) {
    pass(tracked)
    if (stop) return
  }
}

/** How the provider's writer makes wire messages of the messages, where its rules read them so (Anthropic: `anthropicRuns`), read once for the generic pass and the provider's. */
const wireRunsFor = (provider: Provider, messages: ReadonlyArray<Message.Message>): Uint8Array | undefined =>
  provider === "anthropic" ? anthropicRuns(messages) : undefined

const providerScan = (
  provider: Provider,
  messages: ReadonlyArray<Message.Message>,
  options: ProfileOptions | undefined,
  sink: ProviderSink,
  runs: Uint8Array | undefined
): void => {
  switch (provider) {
    case "openai-chat":
      // every other Chat Completions rule that can fail a request is a generic rule; what the
      // format cannot carry (thinking) is reported by its adapter as a loss
      return passes(sink, (s) => chatRules(messages, s), (s) => mediaTypeRule(provider, messages, s))
    case "openai-responses":
      return passes(
        sink,
        (s) => responsesRules(messages, options, s),
        (s) => duplicateItemRule(messages, s),
        (s) => reasoningItemRule(messages, options, s),
        (s) => mediaTypeRule(provider, messages, s)
      )
    case "anthropic": {
      // which messages the adapter writes fields on, and where it writes breakpoints: each read once, by the first
      // rule that needs it
      let written: Uint8Array | undefined
      const wire = runs ?? anthropicRuns(messages)
      const writtenOf = (): Uint8Array => (written ??= anthropicWrittenMessages(messages, wire))
      let breakpoints: Breakpoints | undefined
      const breakpointsOf = (): Breakpoints => (breakpoints ??= anthropicBreakpoints(messages))
      return passes(
        sink,
        (s) => {
          const seen = withoutUnsent(messages, wire)
          return anthropicRules(seen.messages, seen.runs, options, s)
        },
        (s) => cacheBreakpointRule(options, breakpointsOf, s),
        (s) => loneSurrogateRule(messages, writtenOf, breakpointsOf, s),
        (s) => mediaTypeRule(provider, messages, s),
        (s) => unknownMessageFieldRule(messages, writtenOf, s),
        (s) => blockFieldRule(messages, s)
      )
    }
    case "gemini":
      return passes(sink, (s) => geminiRules(messages, options, s), (s) => mediaTypeRule(provider, messages, s))
    default:
      return unknownProvider(provider)
  }
}

/**
 * Every issue of a conversation for one provider, in the order found: the
 * generic rules that provider applies (`genericRulesFor`), then its own.
 *
 * @example
 * const reply = Message.assistant([Block.thinking("The user wants the weather."), Block.text("12°C in Oslo.")])
 * Conversation.issuesFor("anthropic", [Message.user("Weather?"), reply]).map((issue) => issue._tag)
 * // ["MissingThinkingSignature"]: Anthropic wants the signature it gave back unchanged
 *
 * @since 0.1.0
 */
export const issuesFor = (
  provider: Provider,
  messages: ReadonlyArray<Message.Message>,
  options?: ProfileOptions
): Array<Issue> =>
  withoutStacks(() => {
    const issues: Array<Issue> = []
    const collect = (issue: Issue): boolean => {
      issues.push(issue)
      return false
    }
    const runs = wireRunsFor(provider, messages)
    scan(messages, options, genericRulesFor(provider), collect, runs)
    providerScan(provider, messages, options, collect, runs)
    return issues
  })

/**
 * The validator of one provider: its profile, which is the generic rules
 * minus what that provider is recorded to accept (`genericRulesFor`), plus
 * its own rules. Fails fast with the first issue; the result is branded for
 * that provider. The error channel is the generic issues plus the
 * provider's own (`IssueFor<P>`), whether or not the profile relaxes some of
 * the generic ones.
 *
 * | provider | relaxes | adds |
 * |---|---|---|
 * | `"anthropic"` | `ConsecutiveRole`; a system message between calls and results; an empty message the writer merges into one with content; the end of a turn at a second assistant message (the writer sends a run of them as one message, and joins the runs of one role on both sides of a run it leaves out) | `MissingThinkingSignature`, `EmptyRedactedThinking`, `ThinkingNotFirst` (manual thinking: the turn a request continues, a tool loop from the user's words on or a final assistant message, starts with thinking; not with `thinkingMode: "adaptive"`), `ThinkingWhileDisabled` (`thinking: false`: no thinking in a final assistant turn), `PrefillNotSupported` (Claude 4.6 and later, by `model`), `EmptyTextBlock`, `TrailingWhitespacePrefill`, `TextAfterToolCalls` (client calls only, in the message a run of assistant messages makes), `MissingToolResult` (results read from two user messages), `TooManyCacheBreakpoints` (more than 4, where the adapter writes them: on blocks and messages, with `cacheBreakpointsOutsideMessages`), `LoneSurrogate` (half of a character in any string the adapter sends, a message's fields included), `UnsupportedMediaType` (a file the writer leaves out: given as data, an image that is not JPEG, PNG, GIF or WebP by type and bytes, audio, video, data of unknown type, a text file whose bytes are not UTF-8, any other that is not a PDF; by URL or file id, a document that is not a PDF or text; at a URL Anthropic cannot fetch, such as a `data:` URL that is not base64 or a Gemini Files API URI; an image given as text; a file at a base64 `data:` URL is judged as the data it holds, of the type the URL declares), `UnknownMessageField` (a field of a message besides role and content, such as one `Anthropic.fromMessages` kept, which the writer writes back; not `cache_control`; and a field of a block the writer sends whose name starts with `$`, with `blockIndex`), `MediaTypeMismatch` (base64 image bytes of another format than their type, which the writer sends as the type of the bytes and `repairFor` relabels) |
 * | `"gemini"` | `ConsecutiveRole` for user messages | `SystemNotAtStart`, `MisplacedFunctionCall`, `MissingThoughtSignature` (Gemini 3: `thoughtSignatures` / `model`), `UnsupportedMediaType` (in user, tool and assistant messages, whose files the writer sends alike: an inline image of a type Gemini does not document, such as `image/jpg`, a base64 `data:` URL's included; a file at a URI of a scheme Gemini refuses, such as `file:` or a `data:` URL that is not base64, which the writer leaves out) |
 * | `"openai-responses"` | nothing | `ReasoningWithoutOutput`, `TextBetweenCallAndOutput`, `MissingEncryptedContent` (with `store: false`), `MalformedToolArguments`; for custom tool items kept as provider data, `OrphanToolResult` (an output with no custom tool call before it), `DuplicateToolResult` (a second output for one call) and `MissingToolResult` (a call with no output after it); `DuplicateItemId` (two input items with one id); `MissingReasoningItem` (a model that reasons, by `model` or `reasoningItems`, not with `store: false`: an `fc_`/`msg_` item, a web search or a generated image sent with its id and no reasoning item before it in its turn); `UnsupportedMediaType` (an inline image that is not PNG, JPEG, GIF or WebP by type and bytes; a file at a URL OpenAI cannot take, which the writer leaves out: neither http(s) nor a base64 `data:` URL, or a Gemini Files API URI) |
 * | `"openai-chat"` | nothing | `MalformedToolArguments` (a call's arguments text is not a JSON object), `UnsupportedMediaType` (as for Responses, in user messages) |
 *
 * @example
 * const ready = yield* Conversation.validateFor("gemini", { model: "gemini-3-flash-preview" })(messages).pipe(
 *   Effect.catchTag("MissingThoughtSignature", (e) => Effect.fail(`call ${e.toolCallId} lost its signature`))
 * )
 *
 * @since 0.1.0
 */
export const validateFor = <P extends Provider>(provider: P, options?: ProfileOptions) =>
(messages: ReadonlyArray<Message.Message>): Effect.Effect<Validated<P>, IssueFor<P>> =>
  Effect.suspend(() => {
    const runs = wireRunsFor(provider, messages)
    const generic = firstIssue(messages, options, genericRulesFor(provider), runs)
    if (generic !== undefined) return Effect.fail(generic)
    let found: ProviderIssue | MissingToolResult | OrphanToolResult | DuplicateToolResult | EmptyToolName | undefined
    providerScan(provider, messages, options, (issue) => {
      found = issue
      return true
    }, runs)
    // providerScan(provider) only reports provider P's own issues, and generic ones only P's wire shows
    return found === undefined ? Effect.succeed(messages as Validated<P>) : Effect.fail(found as IssueFor<P>)
  })
