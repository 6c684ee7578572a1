/**
 * Conversation-level rules: what makes a list of messages something a
 * provider accepts, checked in one linear pass.
 *
 * `validate` succeeds with the conversation branded as `Validated` (so later
 * steps can demand a validated input at the type level) or fails with the
 * first problem as a tagged error; `issuesOf` / `validateAll` report every
 * problem in one pass. `validateFor(provider)` adds that provider's own rules
 * (thinking signatures, system placement, reasoning items...). `Repair.repair` turns
 * a broken history into a valid one and logs every change.
 *
 * Parallel tool calls are valid: an assistant with N calls followed by N
 * results, in any order, in one tool message or several.
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"
import * as Block from "./Block.js"
import * as Message from "./Message.js"
import { hasToolCalls, issuesOf as messageIssuesOf } from "./Message.js"
import type { Provider } from "./Provider.js"
import { listOf, stringify } from "./internal/json.js"
import { ORPHAN, Walker } from "./internal/walker.js"
import type { CallRef as WalkerCallRef } from "./internal/walker.js"
import {
  ConsecutiveRole,
  DuplicateToolCallId,
  DuplicateToolResult,
  EmptyConversation,
  EmptyRedactedThinking,
  EmptyTextBlock,
  InvalidConversation,
  MisplacedFunctionCall,
  MissingEncryptedContent,
  MissingThinkingSignature,
  MissingThoughtSignature,
  MissingToolResult,
  OrphanToolResult,
  ReasoningWithoutOutput,
  SystemNotAtStart,
  TextAfterToolCalls,
  ThinkingNotFirst,
  MessageDecodeError,
  TrailingWhitespacePrefill
} from "./ValidationError.js"
import type { ConversationIssue, DecodeIssue, Issue, IssueFor, ProviderIssue } from "./ValidationError.js"

declare const ValidatedTypeId: unique symbol

/**
 * What a conversation was validated for: the generic rules, or a provider's.
 *
 * @since 0.1.0
 */
export type Target = "generic" | Provider

/**
 * A conversation that passed validation, branded with what it was validated
 * for. `Validated<"generic">` is what `validate` returns;
 * `Validated<"anthropic">` what `validateFor("anthropic")` returns, and since
 * a provider's rules include the generic ones, it is accepted wherever a
 * `Validated<"generic">` is required. The brand exists only in types: at run
 * time it is the same array.
 *
 * @since 0.1.0
 */
export type Validated<T extends Target = "generic"> = ReadonlyArray<Message.Message> & {
  readonly [ValidatedTypeId]: { readonly [K in T | "generic"]: true }
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
}

// ---------------------------------------------------------------------------
// codec: conversations and JSONL transcripts
// ---------------------------------------------------------------------------

/**
 * The schema of a conversation read from JSON: an array of messages, each in
 * the canonical or the flat form (`Message.Codec`).
 *
 * @example
 * const Body = Schema.Struct({ conversation: Conversation.Codec })
 *
 * @since 0.1.0
 */
export const Codec = Schema.Array(Message.Codec)

/**
 * Decodes a conversation (an array of messages), failing with the first bad
 * message as a tagged error with its `index`.
 *
 * @example
 * const messages = yield* Conversation.decode(JSON.parse(text))
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
 * const { messages, failures } = yield* Conversation.decodeEach(JSON.parse(text))
 * for (const f of failures) console.error(f.message)
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
    if (raw !== "") {
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
 * const messages = yield* Conversation.decodeJsonl(fs.readFileSync("session.jsonl", "utf8"))
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
 * @example
 * fs.writeFileSync("session.jsonl", Conversation.encodeJsonl(messages))
 *
 * @since 0.1.0
 */
export const encodeJsonl = (messages: ReadonlyArray<Message.Message>): string => {
  let out = ""
  for (const m of messages) out += stringify(Message.encode(m) as Schema.Json) + "\n"
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
 * directly follow it. Turns partition a conversation, so a unit that never
 * separates a call from its results is always a whole turn.
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
 * for (const turn of Conversation.turnsOf(messages)) {
 *   if (turn.unanswered.length > 0) console.log(`messages[${turn.start}] has unanswered calls`)
 * }
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
 * const toRun = Conversation.pendingToolCalls(history).map((ref) => ref.call)
 *
 * @since 0.1.0
 */
export const pendingToolCalls = (messages: ReadonlyArray<Message.Message>): ReadonlyArray<CallRef> => {
  // only the last turn can be open: find where it starts, then read it alone
  let start = messages.length - 1
  while (start >= 0 && messages[start]!.role === "tool") start--
  if (start < 0 || messages[start]!.role !== "assistant") return NONE
  const last = turnsOf(messages.slice(start))[0]
  if (last === undefined) return NONE
  return last.unanswered.map((ref) => ({ ...ref, index: ref.index + start }))
}

// ---------------------------------------------------------------------------
// the generic pass
// ---------------------------------------------------------------------------

/** Receives issues; returns `true` to stop the pass (fail fast). */
type Sink = (issue: ConversationIssue) => boolean

/**
 * The single linear pass behind `validate` and `issuesOf`, on the shared turn
 * walker: nothing is re-scanned.
 *
 * `ConsecutiveRole` looks through system messages: `user, system, user` is
 * two user messages in a row, because the adapters of providers that take
 * system text apart from the conversation (Anthropic, Gemini) lift it out,
 * and the two user messages end up side by side.
 */
const scan = (messages: ReadonlyArray<Message.Message>, options: ValidateOptions | undefined, sink: Sink): void => {
  const walker = new Walker(messages.length)
  const perMessage: Array<ConversationIssue> = []
  let sawTurn = false
  // the last user or assistant message, and whether it made client calls
  let prevRole: "user" | "assistant" | undefined
  let prevCalled = false

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
    for (const issue of perMessage) if (sink(issue)) return

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
        if (closeTurn(i)) return
        break
      case "user":
      case "assistant": {
        sawTurn = true
        if (closeTurn(i)) return
        if (prevRole === m.role && !prevCalled) {
          if (sink(new ConsecutiveRole({ index: i, role: m.role }))) return
        }
        prevCalled = false
        if (m.role === "assistant") {
          walker.openTurn(i)
          const content = m.content
          for (let b = 0; b < content.length; b++) {
            const block = content[b]!
            if (block._tag !== "ToolCall" || block.id === "") continue
            // a provider-executed call is answered inside the assistant message itself
            const first = block.providerExecuted === true ? walker.registerId(block.id, i) : walker.addCall({ index: i, blockIndex: b, call: block })
            if (block.providerExecuted !== true) prevCalled = true
            // a repeat inside one message is reported by the per-message rules
            if (first !== -1 && first !== i && sink(new DuplicateToolCallId({ index: i, toolCallId: block.id, firstIndex: first }))) return
          }
        }
        prevRole = m.role
        break
      }
      default:
        Block.absurd(m)
    }
  }
  if (options?.allowPendingToolCalls !== true && closeTurn(undefined)) return
  if (!sawTurn) sink(new EmptyConversation())
}

/**
 * Every generic issue of a conversation, in the order found, in one pass.
 *
 * @example
 * Conversation.issuesOf(messages).map((issue) => issue.message)
 *
 * @since 0.1.0
 */
export const issuesOf = (messages: ReadonlyArray<Message.Message>, options?: ValidateOptions): Array<ConversationIssue> =>
  withoutStacks(() => {
    const issues: Array<ConversationIssue> = []
    scan(messages, options, (issue) => {
      issues.push(issue)
      return false
    })
    return issues
  })

/**
 * Issues are values reported in bulk, and a JavaScript error captures a stack
 * trace when it is built (several microseconds each, most of the cost of a
 * history with an issue on every message): collecting passes build them
 * without one.
 */
const withoutStacks = <A>(f: () => A): A => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return f()
  } finally {
    Error.stackTraceLimit = limit
  }
}

const firstIssue = (messages: ReadonlyArray<Message.Message>, options: ValidateOptions | undefined): ConversationIssue | undefined => {
  let found: ConversationIssue | undefined
  scan(messages, options, (issue) => {
    found = issue
    return true
  })
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
 *   Effect.catchTag("MissingToolResult", (e) => ...)
 * )
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
   * Anthropic: whether extended thinking is on for the next request. Default:
   * on when any assistant message of the conversation holds thinking.
   */
  readonly thinking?: boolean
  /**
   * OpenAI Responses: the request's `store` flag. With `store: false`,
   * reasoning items must carry their encrypted content. Default `true`.
   */
  readonly store?: boolean
}

type ProviderSink = (issue: ProviderIssue) => boolean

/** Anthropic: "text content blocks must contain non-whitespace text". */
const isBlank = (text: string): boolean => text.trim() === ""

const anthropicRules = (messages: ReadonlyArray<Message.Message>, options: ProfileOptions | undefined, sink: ProviderSink): void => {
  const provider = "anthropic"
  let thinkingInUse = options?.thinking
  let lastAssistant = -1
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    switch (m.role) {
      case "system":
      case "user":
        for (let b = 0; b < m.content.length; b++) {
          const block = m.content[b]!
          if (block._tag === "Text" && isBlank(block.text) && sink(new EmptyTextBlock({ provider, index: i, blockIndex: b }))) return
        }
        break
      case "tool":
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
              lastCall = b
              break
            case "Refusal":
            case "File":
            case "ToolResult":
            case "ProviderData":
              break
            default:
              Block.absurd(block)
          }
        }
        if (lastCall !== -1) {
          for (let b = lastCall + 1; b < m.content.length; b++) {
            const block = m.content[b]!
            if (block._tag === "Text" && block.text.trim() !== "" && sink(new TextAfterToolCalls({ provider, index: i, blockIndex: b }))) return
          }
        }
        break
      }
      default:
        Block.absurd(m)
    }
  }
  const last = messages[messages.length - 1]
  if (last === undefined || lastAssistant === -1) return
  // a tool loop is in progress when the conversation ends with the results of the last assistant's calls
  const assistant = messages[lastAssistant] as Message.AssistantMessage
  if (thinkingInUse === true && last.role === "tool" && hasToolCalls(assistant)) {
    const first = assistant.content[0]
    if ((first === undefined || (first._tag !== "Thinking" && first._tag !== "RedactedThinking")) && sink(new ThinkingNotFirst({ provider, index: lastAssistant }))) return
  }
  if (last.role === "assistant") {
    const text = lastText(last)
    if (text !== undefined && text !== text.trimEnd()) sink(new TrailingWhitespacePrefill({ provider, index: messages.length - 1 }))
  }
}

const lastText = (m: Message.AssistantMessage): string | undefined => {
  for (let b = m.content.length - 1; b >= 0; b--) {
    const block = m.content[b]!
    if (block._tag === "Text") return block.text
  }
  return undefined
}

const geminiRules = (messages: ReadonlyArray<Message.Message>, sink: ProviderSink): void => {
  const provider = "gemini"
  let started = false
  let lastUser = -1
  let signaturesInUse = false
  let prev: Message.Message | undefined
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role === "system") {
      if (started && sink(new SystemNotAtStart({ provider, index: i }))) return
      continue
    }
    started = true
    if (m.role === "user") lastUser = i
    if (m.role === "assistant") {
      for (const b of m.content) {
        if ((b._tag === "Text" || b._tag === "Thinking" || b._tag === "ToolCall") && b.thoughtSignature !== undefined) signaturesInUse = true
      }
      if (hasToolCalls(m) && !(prev !== undefined && (prev.role === "user" || prev.role === "tool"))) {
        if (sink(new MisplacedFunctionCall({ provider, index: i }))) return
      }
    }
    prev = m
  }
  if (!signaturesInUse) return
  // Gemini 3 checks the signatures of the current turn: the first call of each step since the last user message
  for (let i = lastUser + 1; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role !== "assistant") continue
    for (const b of m.content) {
      if (b._tag !== "ToolCall") continue
      if ((b.thoughtSignature === undefined || b.thoughtSignature === "") && sink(new MissingThoughtSignature({ provider, index: i, toolCallId: b.id }))) return
      break
    }
  }
}

const responsesRules = (messages: ReadonlyArray<Message.Message>, options: ProfileOptions | undefined, sink: ProviderSink): void => {
  const provider = "openai-responses"
  const store = options?.store ?? true
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role !== "assistant") continue
    // one backward pass: is there an output item (text or a call) after each reasoning item?
    const content = m.content
    let outputAfter = false
    let firstMissing = -1
    for (let b = content.length - 1; b >= 0; b--) {
      const block = content[b]!
      if (block._tag === "Text" || block._tag === "ToolCall" || block._tag === "Refusal") outputAfter = true
      else if (block._tag === "Thinking" && block.itemId !== undefined && !outputAfter) firstMissing = b
    }
    for (let b = 0; b < content.length; b++) {
      const block = content[b]!
      if (block._tag !== "Thinking" || block.itemId === undefined) continue
      if (!store && (block.encryptedContent === undefined || block.encryptedContent === "")) {
        if (sink(new MissingEncryptedContent({ provider, index: i, blockIndex: b }))) return
      }
      if (firstMissing !== -1 && b >= firstMissing && sink(new ReasoningWithoutOutput({ provider, index: i, blockIndex: b }))) return
    }
  }
}

const providerScan = (
  provider: Provider,
  messages: ReadonlyArray<Message.Message>,
  options: ProfileOptions | undefined,
  sink: ProviderSink
): void => {
  switch (provider) {
    case "openai-chat":
      // every Chat Completions rule that can fail a request is a generic rule; what the
      // format cannot carry (thinking) is reported by its adapter as a loss
      return
    case "openai-responses":
      return responsesRules(messages, options, sink)
    case "anthropic":
      return anthropicRules(messages, options, sink)
    case "gemini":
      return geminiRules(messages, sink)
    default:
      return Block.absurd(provider)
  }
}

/**
 * Every generic and provider-specific issue of a conversation, in one call.
 *
 * @since 0.1.0
 */
export const issuesFor = (
  provider: Provider,
  messages: ReadonlyArray<Message.Message>,
  options?: ProfileOptions
): Array<Issue> => {
  const issues: Array<Issue> = issuesOf(messages, options)
  withoutStacks(() =>
    providerScan(provider, messages, options, (issue) => {
      issues.push(issue)
      return false
    })
  )
  return issues
}

/**
 * The validator of one provider: the generic rules plus that provider's own
 * (PROVIDER_RULES.md). Fails fast with the first issue; the result is branded
 * for that provider.
 *
 * | provider | adds |
 * |---|---|
 * | `"anthropic"` | `MissingThinkingSignature`, `EmptyRedactedThinking`, `ThinkingNotFirst` (tool loop with thinking), `EmptyTextBlock`, `TrailingWhitespacePrefill`, `TextAfterToolCalls` |
 * | `"gemini"` | `SystemNotAtStart`, `MisplacedFunctionCall`, `MissingThoughtSignature` |
 * | `"openai-responses"` | `ReasoningWithoutOutput`, `MissingEncryptedContent` (with `store: false`) |
 * | `"openai-chat"` | the generic rules only |
 *
 * @example
 * const ready = yield* Conversation.validateFor("anthropic")(messages)
 *
 * @since 0.1.0
 */
export const validateFor = <P extends Provider>(provider: P, options?: ProfileOptions) =>
(messages: ReadonlyArray<Message.Message>): Effect.Effect<Validated<P>, IssueFor<P>> =>
  Effect.suspend(() => {
    const generic = firstIssue(messages, options)
    if (generic !== undefined) return Effect.fail(generic)
    let found: ProviderIssue | undefined
    providerScan(provider, messages, options, (issue) => {
      found = issue
      return true
    })
    // providerScan(provider) only reports provider P's own issues
    return found === undefined ? Effect.succeed(messages as Validated<P>) : Effect.fail(found as IssueFor<P>)
  })
