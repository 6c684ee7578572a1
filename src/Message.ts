/**
 * Messages: the four roles of a conversation, how to build them, how to read
 * them, how to persist them, and what makes a single message invalid.
 *
 * A message is one of `SystemMessage`, `UserMessage`, `AssistantMessage` or
 * `ToolMessage` (Effect Schema classes discriminated by `role`). Each holds an
 * ordered array of content blocks restricted by role, so tool calls on a user
 * message or tool results on an assistant message cannot be constructed at
 * all. Each may carry `metadata` (never interpreted, never lost) and
 * `providerOptions` (replay data for adapters).
 *
 * Build messages with the constructors (`Message.user`, `Message.assistant`,
 * or seed 000's `userMessage`, `assistantMessage(text, toolCalls)`, ...) and
 * read them with the readers (`textOf`, `toolCallsOf`, `transcriptOf`, ...).
 *
 * @since 0.1.0
 */
import { Effect, Schema, SchemaIssue } from "effect"
import * as Block from "./Block.js"
import {
  DuplicateToolCallId,
  EmptyMessage,
  EmptyToolCallId,
  EmptyToolName,
  MessageDecodeError,
  MissingToolCallId,
  MissingToolName,
  ToolCallsOnNonAssistant,
  ToolResultFieldsOnNonTool
} from "./ValidationError.js"
import type { DecodeIssue, MessageIssue } from "./ValidationError.js"

const Metadata = Schema.optionalKey(Block.UnknownRecord)
const Options = Schema.optionalKey(Block.ProviderOptions)
const Name = Schema.optionalKey(Schema.String)

/**
 * Instructions for the model. Adapters lift system text out of the message
 * list where a provider wants it elsewhere (Anthropic `system`, Gemini
 * `systemInstruction`).
 *
 * @since 0.1.0
 */
export class SystemMessage extends Schema.Class<SystemMessage>("SystemMessage")({
  role: Schema.Literal("system"),
  content: Schema.Array(Block.TextBlock),
  name: Name,
  metadata: Metadata,
  providerOptions: Options
}) {}

/**
 * What the user said. `name` is OpenAI's participant name.
 *
 * @since 0.1.0
 */
export class UserMessage extends Schema.Class<UserMessage>("UserMessage")({
  role: Schema.Literal("user"),
  content: Schema.Array(Block.UserBlock),
  name: Name,
  metadata: Metadata,
  providerOptions: Options
}) {}

/**
 * What the model produced: text, thinking and tool calls, in order.
 *
 * @since 0.1.0
 */
export class AssistantMessage extends Schema.Class<AssistantMessage>("AssistantMessage")({
  role: Schema.Literal("assistant"),
  content: Schema.Array(Block.AssistantBlock),
  name: Name,
  metadata: Metadata,
  providerOptions: Options
}) {
  /** The tool calls of this message, in order (seed 000's `msg.toolCalls`). */
  get toolCalls(): ReadonlyArray<Block.ToolCallBlock> {
    return toolCallsOf(this)
  }
}

/**
 * The results of tool calls. One message may hold several results (parallel
 * calls); adapters split or merge them as the provider requires.
 *
 * @since 0.1.0
 */
export class ToolMessage extends Schema.Class<ToolMessage>("ToolMessage")({
  role: Schema.Literal("tool"),
  content: Schema.Array(Block.ToolResultBlock),
  metadata: Metadata,
  providerOptions: Options
}) {}

/**
 * Any message.
 *
 * @since 0.1.0
 */
export const Message = Schema.Union([SystemMessage, UserMessage, AssistantMessage, ToolMessage])

/** @since 0.1.0 */
export type Message = typeof Message.Type

/** @since 0.1.0 */
export type Role = Message["role"]

/**
 * The JSON form of a message, as produced by `encode`.
 *
 * @since 0.1.0
 */
export type Encoded = typeof Message.Encoded

// ---------------------------------------------------------------------------
// constructors
// ---------------------------------------------------------------------------

/**
 * Optional fields every constructor accepts.
 *
 * @since 0.1.0
 */
export interface Options {
  readonly metadata?: Readonly<Record<string, unknown>>
  readonly providerOptions?: Block.ProviderOptions
}

/**
 * Options of the roles that may carry a participant `name`.
 *
 * @since 0.1.0
 */
export interface NamedOptions extends Options {
  readonly name?: string
}

const textBlocks = <B>(content: string | ReadonlyArray<B>, wrap: (s: string) => B): ReadonlyArray<B> =>
  typeof content === "string" ? [wrap(content)] : content

/**
 * A system message.
 *
 * @example
 * Message.system("You are terse.")
 *
 * @since 0.1.0
 */
export const system = (content: string | ReadonlyArray<Block.TextBlock>, options?: NamedOptions): SystemMessage =>
  new SystemMessage({ ...options, role: "system", content: textBlocks(content, Block.text) })

/**
 * A user message.
 *
 * @example
 * Message.user("What is the weather in Oslo?")
 *
 * @since 0.1.0
 */
export const user = (content: string | ReadonlyArray<Block.UserBlock>, options?: NamedOptions): UserMessage =>
  new UserMessage({ ...options, role: "user", content: textBlocks(content, Block.text) })

/**
 * An assistant message from its blocks, in order.
 *
 * @example
 * Message.assistant([Block.thinking("...", "sig"), Block.toolCall("c1", "search", { q: "x" })])
 *
 * @since 0.1.0
 */
export const assistant = (
  content: string | ReadonlyArray<Block.AssistantBlock>,
  options?: NamedOptions
): AssistantMessage => new AssistantMessage({ ...options, role: "assistant", content: textBlocks(content, Block.text) })

/**
 * A tool message from one or more results.
 *
 * @example
 * Message.tool(Block.toolResult("c1", "search", "3 hits"))
 *
 * @since 0.1.0
 */
export const tool = (
  results: Block.ToolResultBlock | ReadonlyArray<Block.ToolResultBlock>,
  options?: Options
): ToolMessage =>
  new ToolMessage({ ...options, role: "tool", content: Array.isArray(results) ? results : [results as Block.ToolResultBlock] })

/**
 * A tool call as seed 000 wrote it: a plain `{ id, name, args }` object.
 *
 * @since 0.1.0
 */
export interface ToolCallInput {
  readonly id: string
  readonly name: string
  readonly args?: Readonly<Record<string, unknown>>
}

/**
 * Seed 000's `systemMessage(text)`.
 *
 * @since 0.1.0
 */
export const systemMessage = (text: string, options?: NamedOptions): SystemMessage => system(text, options)

/**
 * Seed 000's `userMessage(text)`.
 *
 * @since 0.1.0
 */
export const userMessage = (text: string, options?: NamedOptions): UserMessage => user(text, options)

/**
 * Seed 000's `assistantMessage(text, toolCalls?)`: the text (omitted when
 * empty and there are tool calls) followed by the calls.
 *
 * @example
 * Message.assistantMessage("Let me check.", [{ id: "c1", name: "weather", args: { city: "Oslo" } }])
 *
 * @since 0.1.0
 */
export const assistantMessage = (
  text: string,
  toolCalls?: ReadonlyArray<Block.ToolCallBlock | ToolCallInput>,
  options?: NamedOptions
): AssistantMessage => {
  const content: Array<Block.AssistantBlock> = []
  if (text !== "" || toolCalls === undefined || toolCalls.length === 0) content.push(Block.text(text))
  if (toolCalls !== undefined) {
    for (const call of toolCalls) {
      content.push(call instanceof Block.ToolCallBlock ? call : Block.toolCall(call.id, call.name, call.args ?? {}))
    }
  }
  return assistant(content, options)
}

/**
 * Seed 000's `toolResultMessage(toolCallId, toolName, content, isError?)`.
 *
 * @since 0.1.0
 */
export const toolResultMessage = (
  toolCallId: string,
  toolName: string,
  content: Block.ToolResultContent,
  isError = false,
  options?: Options
): ToolMessage => tool(Block.toolResult(toolCallId, toolName, content, isError), options)

/**
 * Seed 004's `userText(s)`.
 *
 * @since 0.1.0
 */
export const userText = (text: string): UserMessage => user(text)

/**
 * Seed 004's `assistantMsg(blocks)`.
 *
 * @since 0.1.0
 */
export const assistantMsg = (blocks: ReadonlyArray<Block.AssistantBlock>): AssistantMessage => assistant(blocks)

/**
 * Seed 004's `toolResultMsg(blocks)`.
 *
 * @since 0.1.0
 */
export const toolResultMsg = (blocks: ReadonlyArray<Block.ToolResultBlock>): ToolMessage => tool(blocks)

// ---------------------------------------------------------------------------
// readers
// ---------------------------------------------------------------------------

/**
 * The text of a message: its text blocks concatenated; for a tool message, the
 * text of its results, one per line. Thinking and tool calls are not text.
 *
 * @since 0.1.0
 */
export const textOf = (message: Message): string => {
  let out = ""
  switch (message.role) {
    case "system":
    case "user":
    case "assistant":
      for (const block of message.content) if (block._tag === "Text") out += block.text
      return out
    case "tool":
      for (let i = 0; i < message.content.length; i++) {
        const text = Block.resultContentText(message.content[i]!.content)
        out = i === 0 ? text : `${out}\n${text}`
      }
      return out
    default:
      return Block.absurd(message)
  }
}

/**
 * The tool calls of a message, in order (empty unless it is an assistant's).
 *
 * @since 0.1.0
 */
export const toolCallsOf = (message: Message): ReadonlyArray<Block.ToolCallBlock> => {
  if (message.role !== "assistant") return []
  const calls: Array<Block.ToolCallBlock> = []
  for (const block of message.content) if (block._tag === "ToolCall") calls.push(block)
  return calls
}

/**
 * The tool results of a message (empty unless it is a tool message).
 *
 * @since 0.1.0
 */
export const toolResultsOf = (message: Message): ReadonlyArray<Block.ToolResultBlock> =>
  message.role === "tool" ? message.content : []

/**
 * Whether the message carries tool results.
 *
 * @since 0.1.0
 */
export const isToolResultMessage = (message: Message): message is ToolMessage => message.role === "tool"

/**
 * Whether the message is an assistant message with at least one tool call.
 *
 * @since 0.1.0
 */
export const hasToolCalls = (message: Message): message is AssistantMessage =>
  message.role === "assistant" && message.content.some((b) => b._tag === "ToolCall")

/**
 * Whether a conversation may safely start (or be cut) at this message: a user
 * message, which in this model never carries tool results. Seed 004 keeps this
 * rule in one place; so do we.
 *
 * @since 0.1.0
 */
export const isCleanUserStart = (message: Message | undefined): message is UserMessage =>
  message !== undefined && message.role === "user"

/**
 * Re-exported from `Block` for seed 004's call sites.
 *
 * @since 0.1.0
 */
export const blockToText = Block.blockToText

/**
 * A message as plain text: each block rendered with `blockToText`, empty
 * renderings skipped, one block per line.
 *
 * @since 0.1.0
 */
export const messageToText = (message: Message, options?: Block.RenderOptions): string => {
  let out = ""
  for (const block of message.content) {
    const text = Block.blockToText(block, options)
    if (text !== "") out = out === "" ? text : `${out}\n${text}`
  }
  return out
}

const roleLabel = (role: Role): string => {
  switch (role) {
    case "system":
      return "System"
    case "user":
      return "User"
    case "assistant":
      return "Assistant"
    case "tool":
      return "Tool"
    default:
      return Block.absurd(role)
  }
}

/**
 * A conversation as a readable transcript, one `Role: text` entry per
 * message, tool traffic rendered rather than lost. Used for summaries.
 *
 * @example
 * Message.transcriptOf(messages, { maxResultLength: 200 })
 * // User: What is the weather in Oslo?
 * // Assistant: [tool call weather({"city":"Oslo"})]
 * // Tool: [tool result weather: 12°C]
 *
 * @since 0.1.0
 */
export const transcriptOf = (messages: ReadonlyArray<Message>, options?: Block.RenderOptions): string => {
  const lines: Array<string> = []
  for (const message of messages) lines.push(`${roleLabel(message.role)}: ${messageToText(message, options)}`)
  return lines.join("\n")
}

// ---------------------------------------------------------------------------
// codec
// ---------------------------------------------------------------------------

const encodeMessage = Schema.encodeSync(Message)
const decodeMessage = Schema.decodeUnknownEffect(Message, { onExcessProperty: "error" })
const toStandard = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * A message as JSON-ready data. `decode(encode(m))` is `m`; absent optional
 * fields stay absent.
 *
 * @since 0.1.0
 */
export const encode = (message: Message): Encoded => encodeMessage(message)

/**
 * Several messages as JSON-ready data.
 *
 * @since 0.1.0
 */
export const encodeAll = (messages: ReadonlyArray<Message>): Array<Encoded> => messages.map(encode)

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const TOOL_RESULT_FIELDS = ["toolCallId", "toolName", "isError"] as const

/**
 * Normalizes one raw value into the canonical encoded shape, reporting the
 * role/field mismatches as their own tagged errors. Accepts seed 000's flat
 * form too (`content` a string, `toolCalls`, `toolCallId`, `toolName`,
 * `isError` on the message).
 */
const normalize = (raw: unknown, index: number | undefined): DecodeIssue | unknown => {
  if (!isRecord(raw)) return decodeError(index, [], "Expected a message object")
  const role = raw["role"]
  if (typeof role !== "string") return raw
  const extra: Record<string, unknown> = {}
  let content = raw["content"]

  // seed 000's flat fields
  const flatCalls = raw["toolCalls"]
  if (flatCalls !== undefined) {
    if (!Array.isArray(flatCalls)) return decodeError(index, ["toolCalls"], "Expected an array")
    if (role !== "assistant" && flatCalls.length > 0) {
      return new ToolCallsOnNonAssistant({ ...idx(index), role: role, toolCallIds: idsOf(flatCalls, "id") })
    }
  }
  const flatResultFields = TOOL_RESULT_FIELDS.filter((f) => raw[f] !== undefined)
  if (role !== "tool" && flatResultFields.length > 0) {
    return new ToolResultFieldsOnNonTool({ ...idx(index), role: role, fields: flatResultFields })
  }

  if (role === "tool" && !Array.isArray(content)) {
    const toolCallId = raw["toolCallId"]
    const toolName = raw["toolName"]
    if (toolCallId === undefined) {
      return new MissingToolCallId({ ...idx(index), blockIndex: 0, ...(typeof toolName === "string" ? { toolName } : {}) })
    }
    if (toolName === undefined) {
      return new MissingToolName({ ...idx(index), blockIndex: 0, ...(typeof toolCallId === "string" ? { toolCallId } : {}) })
    }
    content = [{ _tag: "ToolResult", toolCallId, toolName, content, isError: raw["isError"] ?? false }]
  } else if (typeof content === "string") {
    const calls = Array.isArray(flatCalls) ? flatCalls : []
    const blocks: Array<unknown> = content === "" && calls.length > 0 ? [] : [{ _tag: "Text", text: content }]
    for (const call of calls) blocks.push(isRecord(call) ? { _tag: "ToolCall", args: {}, ...call } : call)
    content = blocks
  } else if ((content === undefined || content === null) && role === "assistant" && Array.isArray(flatCalls)) {
    content = flatCalls.map((call) => (isRecord(call) ? { _tag: "ToolCall", args: {}, ...call } : call))
  }

  if (Array.isArray(content)) {
    for (let i = 0; i < content.length; i++) {
      const block: unknown = content[i]
      if (!isRecord(block)) continue
      const tag = block["_tag"]
      if (tag === "ToolCall" && role !== "assistant") {
        return new ToolCallsOnNonAssistant({ ...idx(index), role: role, toolCallIds: idsOf(content, "id", "ToolCall") })
      }
      if (tag === "ToolResult") {
        if (role !== "tool") {
          return new ToolResultFieldsOnNonTool({ ...idx(index), role: role, fields: [`content[${i}]`] })
        }
        const toolCallId = block["toolCallId"]
        const toolName = block["toolName"]
        if (toolCallId === undefined) {
          return new MissingToolCallId({ ...idx(index), blockIndex: i, ...(typeof toolName === "string" ? { toolName } : {}) })
        }
        if (toolName === undefined) {
          return new MissingToolName({ ...idx(index), blockIndex: i, ...(typeof toolCallId === "string" ? { toolCallId } : {}) })
        }
      }
    }
  }

  for (const key of Object.keys(raw)) {
    if (key === "toolCalls" || key === "toolCallId" || key === "toolName" || key === "isError" || key === "content") continue
    extra[key] = raw[key]
  }
  return { ...extra, content }
}

const idx = (index: number | undefined): { readonly index?: number } => (index === undefined ? {} : { index })

const idsOf = (items: ReadonlyArray<unknown>, key: string, tag?: string): Array<string> => {
  const ids: Array<string> = []
  for (const item of items) {
    if (isRecord(item) && (tag === undefined || item["_tag"] === tag)) ids.push(String(item[key] ?? ""))
  }
  return ids
}

const decodeError = (index: number | undefined, path: ReadonlyArray<string | number>, reason: string) =>
  new MessageDecodeError({ ...idx(index), path, reason })

const UNKNOWN_FIELD = "unknown field: decoding would lose it (keep extra data in metadata or providerOptions)"

const isDecodeIssue = (u: unknown): u is DecodeIssue =>
  u instanceof MessageDecodeError ||
  u instanceof MissingToolCallId ||
  u instanceof MissingToolName ||
  u instanceof ToolCallsOnNonAssistant ||
  u instanceof ToolResultFieldsOnNonTool

/**
 * Decodes unknown JSON into a message. Fails with a tagged error naming what
 * is wrong: `MessageDecodeError` (with the `path` of the bad field) or one of
 * the role/field mismatches (`ToolCallsOnNonAssistant`,
 * `ToolResultFieldsOnNonTool`, `MissingToolCallId`, `MissingToolName`).
 *
 * Accepts the canonical form produced by `encode` and seed 000's flat form
 * (`{ role, content: string, toolCalls?, toolCallId?, toolName?, isError? }`).
 * Unknown fields are an error rather than silently dropped: nothing the
 * caller gave is lost.
 * `index`, when given, is reported in errors (decoding inside a list).
 *
 * @example
 * const m = yield* Message.decode({ role: "user", content: "hi" })
 *
 * @since 0.1.0
 */
export const decode = (raw: unknown, index?: number): Effect.Effect<Message, DecodeIssue> => {
  const normalized = normalize(raw, index)
  if (isDecodeIssue(normalized)) return Effect.fail(normalized)
  return decodeMessage(normalized).pipe(
    Effect.mapError((error) => {
      const first = toStandard(error.issue).issues[0]
      const path = (first?.path ?? []).map((key) => (typeof key === "number" ? key : String(key)))
      const reason = first?.message ?? error.message
      return decodeError(index, path, reason === "Expected no excess property" ? UNKNOWN_FIELD : reason)
    })
  )
}

/**
 * Decodes a list of messages, failing with the first bad one (its `index` set).
 *
 * @since 0.1.0
 */
export const decodeAll = (raw: unknown): Effect.Effect<Array<Message>, DecodeIssue> => {
  if (!Array.isArray(raw)) return Effect.fail(decodeError(undefined, [], "Expected an array of messages"))
  return Effect.forEach(raw, (item, i) => decode(item, i))
}

// ---------------------------------------------------------------------------
// per-message validation
// ---------------------------------------------------------------------------

/**
 * Every per-message issue of a message, in one pass: empty content, empty
 * tool call ids and names (calls and results), and tool call ids used twice
 * within the message. `index` is reported in each issue when given; issues
 * are appended to `into` when given (so a conversation pass reuses one array).
 *
 * @since 0.1.0
 */
export const issuesOf = <I = never>(
  message: Message,
  index?: number,
  into: Array<MessageIssue | I> = []
): Array<MessageIssue | I> => {
  const issues = into
  const at = idx(index)
  if (message.content.length === 0) issues.push(new EmptyMessage({ ...at, role: message.role }))
  switch (message.role) {
    case "system":
    case "user":
      break
    case "assistant": {
      // most messages have zero or one call: the Set is only built from the second on
      let first: string | undefined
      let seen: Set<string> | undefined
      const content = message.content
      for (let i = 0; i < content.length; i++) {
        const block = content[i]!
        if (block._tag !== "ToolCall") continue
        if (block.id === "") issues.push(new EmptyToolCallId({ ...at, blockIndex: i, toolName: block.name }))
        if (block.name === "") issues.push(new EmptyToolName({ ...at, blockIndex: i, toolCallId: block.id }))
        if (block.id === "") continue
        if (first === undefined) {
          first = block.id
          continue
        }
        seen ??= new Set([first])
        if (seen.has(block.id)) {
          issues.push(new DuplicateToolCallId({ ...at, toolCallId: block.id, ...(index === undefined ? {} : { firstIndex: index }) }))
        }
        seen.add(block.id)
      }
      break
    }
    case "tool":
      for (let i = 0; i < message.content.length; i++) {
        const block = message.content[i]!
        if (block.toolCallId === "") issues.push(new EmptyToolCallId({ ...at, blockIndex: i, toolName: block.toolName }))
        if (block.toolName === "") issues.push(new EmptyToolName({ ...at, blockIndex: i, toolCallId: block.toolCallId }))
      }
      break
    default:
      return Block.absurd(message)
  }
  return issues
}

/**
 * Validates one message: succeeds with it, or fails with its first issue.
 * Use `issuesOf` to get all of them.
 *
 * @example
 * yield* Message.validate(m).pipe(Effect.catchTag("EmptyToolCallId", ...))
 *
 * @since 0.1.0
 */
export const validate = <M extends Message>(message: M, index?: number): Effect.Effect<M, MessageIssue> => {
  const issues = issuesOf(message, index)
  return issues.length === 0 ? Effect.succeed(message) : Effect.fail(issues[0]!)
}
