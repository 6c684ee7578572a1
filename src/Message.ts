/**
 * Messages: the four roles of a conversation, how to build them, how to read
 * them, how to persist them, and what makes a single message invalid.
 *
 * A message is one of `SystemMessage`, `UserMessage`, `AssistantMessage` or
 * `ToolMessage` (Effect Schema classes discriminated by `role`). Each holds an
 * ordered array of content blocks restricted by role, so tool calls on a user
 * message or text in a tool message cannot be constructed at all (an
 * assistant message may hold tool results: those of the tools the provider
 * ran itself). Each may carry `metadata` (never interpreted, never lost) and
 * `providerOptions` (replay data for adapters).
 *
 * Build messages with the constructors (`Message.user`, `Message.assistant`,
 * or the flat style's `userMessage`, `assistantMessage(text, toolCalls)`,
 * ...), which return frozen values, and read them with the readers (`textOf`,
 * `toolCallsOf`, `transcriptOf`, ...). Persist them with the codec:
 * `Message.encode` writes the canonical JSON form, and `Message.Codec` (or
 * `Message.decode`) reads it back, along with the flat form (`content` as a
 * string, `toolCalls`, `toolCallId`, ...).
 *
 * @since 0.1.0
 */
import { Effect, Schema, type SchemaAST, SchemaIssue, SchemaTransformation } from "effect"
import * as Block from "./Block.js"
import { copyJson, deepFreeze, errorText, listOf } from "./internal/json.js"
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
import type { DecodeIssue, DecodeProblem, MessageIssue } from "./ValidationError.js"

const Metadata = Schema.optionalKey(Block.JsonObject)
const Options = Schema.optionalKey(Block.ProviderOptions)
const Name = Schema.optionalKey(Schema.String)
const Count = Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)))

/**
 * Token usage a provider reported for the call that produced an assistant
 * message. Every figure is optional (providers report different ones):
 *
 * - `inputTokens`: the whole prompt, cached parts included (OpenAI
 *   `prompt_tokens`; Anthropic `input_tokens` plus both cache figures).
 * - `outputTokens`: the completion, reasoning included.
 * - `cachedInputTokens`: the part of the prompt read from the provider's cache.
 * - `cacheWriteInputTokens`: the part of the prompt written to the cache
 *   (Anthropic `cache_creation_input_tokens`).
 * - `reasoningTokens`: the part of the output spent on reasoning.
 * - `totalTokens`: as reported.
 *
 * The calibrated estimator and the window read `inputTokens`.
 *
 * @example
 * const reply = Message.assistant("Done.", { usage: { inputTokens: 1200, outputTokens: 40, cachedInputTokens: 1024 } })
 * reply.usage?.inputTokens // 1200
 * reply.usage instanceof Message.Usage // true
 *
 * @since 0.1.0
 */
export class Usage extends Schema.Class<Usage>("Usage")({
  inputTokens: Count,
  outputTokens: Count,
  cachedInputTokens: Count,
  cacheWriteInputTokens: Count,
  reasoningTokens: Count,
  totalTokens: Count
}) {}

/**
 * Instructions for the model. Adapters lift system text out of the message
 * list where a provider wants it elsewhere (Anthropic `system`, Gemini
 * `systemInstruction`).
 *
 * @example
 * const system = Message.system("Answer in one sentence.")
 * system.role // "system"
 * system instanceof Message.SystemMessage // true
 *
 * @since 0.1.0
 */
export class SystemMessage extends Schema.Class<SystemMessage>("SystemMessage")({
  role: Schema.Literal("system"),
  content: Schema.Array(Block.SystemBlock),
  name: Name,
  metadata: Metadata,
  providerOptions: Options
}) {}

/**
 * What the user said or sent: text, files (images, documents, audio), and
 * provider data. `name` is OpenAI's participant name.
 *
 * @example
 * const question = Message.user("Who wrote this?", { name: "alice", metadata: { ticket: 4711 } })
 * question.name // "alice"
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
 * What the model produced, in order: text, reasoning, refusals, generated
 * files, tool calls, and the results of tools the provider ran itself.
 * `usage` is what the provider reported for the call that produced it.
 *
 * @example
 * const reply = Message.assistant([Block.text("Let me check."), Block.toolCall("call_1", "get_weather", { city: "Oslo" })])
 * reply.toolCalls.map((call) => call.name) // ["get_weather"]
 *
 * @since 0.1.0
 */
export class AssistantMessage extends Schema.Class<AssistantMessage>("AssistantMessage")({
  role: Schema.Literal("assistant"),
  content: Schema.Array(Block.AssistantBlock),
  name: Name,
  usage: Schema.optionalKey(Usage),
  metadata: Metadata,
  providerOptions: Options
}) {
  /** The tool calls of this message, in order (the flat format's `msg.toolCalls`). */
  get toolCalls(): ReadonlyArray<Block.ToolCallBlock> {
    return toolCallsOf(this)
  }
}

/**
 * The results of tool calls. One message may hold several results (parallel
 * calls); adapters split or merge them as the provider requires.
 *
 * @example
 * const results = Message.tool([
 *   Block.toolResult("call_1", "get_weather", "12°C"),
 *   Block.toolResult("call_2", "get_weather", "18°C")
 * ])
 * results.content.length // 2
 *
 * @since 0.1.0
 */
export class ToolMessage extends Schema.Class<ToolMessage>("ToolMessage")({
  role: Schema.Literal("tool"),
  content: Schema.Array(Block.ToolBlock),
  metadata: Metadata,
  providerOptions: Options
}) {}

/**
 * Any message, in its canonical form (the form `encode` writes). To decode
 * JSON that may also be in the flat format, use `Message.Codec`.
 *
 * @example
 * const describe = (message: Message.Message): string => {
 *   switch (message.role) {
 *     case "system": return "instructions"
 *     case "user": return "a question"
 *     case "assistant": return `${message.toolCalls.length} tool calls`
 *     case "tool": return `${message.content.length} results`
 *   }
 * }
 * Schema.is(Message.Message)(Message.user("hi")) // true
 *
 * @since 0.1.0
 */
export const Message = Schema.Union([SystemMessage, UserMessage, AssistantMessage, ToolMessage])

/**
 * Any message: `SystemMessage`, `UserMessage`, `AssistantMessage` or
 * `ToolMessage`, discriminated by `role`.
 *
 * @since 0.1.0
 */
export type Message = typeof Message.Type

/**
 * The role of a message: `"system"`, `"user"`, `"assistant"` or `"tool"`.
 *
 * @since 0.1.0
 */
export type Role = Message["role"]

/**
 * The roles, in a fixed order.
 *
 * @example
 * const perRole = Object.fromEntries(Message.roles.map((role) => [role, messages.filter((m) => m.role === role).length]))
 *
 * @since 0.1.0
 */
export const roles: ReadonlyArray<Role> = ["system", "user", "assistant", "tool"]

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
  readonly metadata?: Block.JsonObject
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

/**
 * Options of an assistant message: a name, and the usage its provider
 * reported.
 *
 * @since 0.1.0
 */
export interface AssistantOptions extends NamedOptions {
  readonly usage?: ConstructorParameters<typeof Usage>[0]
}

/**
 * Freezes a message, its content array, its blocks and its JSON values, so
 * that nothing about it can change after it was built (estimates of it are
 * memoized). Every constructor and `decode` return frozen messages; call
 * this on a message you built with `new` yourself.
 *
 * @example
 * const note = Message.freeze(new Message.UserMessage({ role: "user", content: [Block.text("built with new")] }))
 * Object.isFrozen(note.content) // true
 *
 * @since 0.1.0
 */
export const freeze = <M extends Message>(message: M): M => deepFreeze(message)

const copied = (options: Options | undefined): Options | undefined => {
  if (options === undefined) return undefined
  let out: { metadata?: Block.JsonObject; providerOptions?: Block.ProviderOptions } | undefined
  if (options.metadata !== undefined) {
    const copy = copyJson(options.metadata)
    out = { ...options, metadata: "value" in copy ? (copy.value as Block.JsonObject) : options.metadata }
  }
  if (options.providerOptions !== undefined) {
    const copy = copyJson(options.providerOptions)
    out = { ...(out ?? options), providerOptions: "value" in copy ? (copy.value as Block.ProviderOptions) : options.providerOptions }
  }
  return out ?? options
}

const blocksOf = <B>(content: string | ReadonlyArray<B>, wrap: (s: string) => B): ReadonlyArray<B> =>
  typeof content === "string" ? [wrap(content)] : content.slice()

/**
 * A system message.
 *
 * @example
 * Message.system("You are terse.")
 * Message.system([Block.text("You are terse.", { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })])
 *
 * @since 0.1.0
 */
export const system = (content: string | ReadonlyArray<Block.SystemBlock>, options?: NamedOptions): SystemMessage =>
  freeze(new SystemMessage({ ...copied(options), role: "system", content: blocksOf(content, Block.text) }))

/**
 * A user message: text, or blocks (text, images, documents, audio, files).
 *
 * @example
 * Message.user("What is the weather in Oslo?")
 * Message.user([Block.text("What is in this picture?"), Block.image("https://example.com/cat.png")])
 *
 * @since 0.1.0
 */
export const user = (content: string | ReadonlyArray<Block.UserBlock>, options?: NamedOptions): UserMessage =>
  freeze(new UserMessage({ ...copied(options), role: "user", content: blocksOf(content, Block.text) }))

/**
 * An assistant message from its blocks, in order.
 *
 * @example
 * Message.assistant("The capital of Norway is Oslo.")
 * Message.assistant(
 *   [Block.thinking("The user wants the weather.", "EqQBCkgIARAB"), Block.toolCall("call_1", "get_weather", { city: "Oslo" })],
 *   { usage: { inputTokens: 812, outputTokens: 57 } }
 * )
 *
 * @since 0.1.0
 */
export const assistant = (
  content: string | ReadonlyArray<Block.AssistantBlock>,
  options?: AssistantOptions
): AssistantMessage => {
  const { usage, ...rest } = options ?? {}
  return freeze(
    new AssistantMessage({
      ...copied(rest),
      role: "assistant",
      content: blocksOf(content, Block.text),
      ...(usage === undefined ? {} : { usage: usage instanceof Usage ? usage : new Usage(usage) })
    })
  )
}

/**
 * A tool message from one or more results.
 *
 * @example
 * Message.tool(Block.toolResult("call_1", "search", "3 hits"))
 * Message.tool([Block.toolResult("call_1", "search", "3 hits"), Block.toolResult("call_2", "search", "no hits")])
 *
 * @since 0.1.0
 */
export const tool = (
  results: Block.ToolResultBlock | ReadonlyArray<Block.ToolResultBlock>,
  options?: Options
): ToolMessage =>
  freeze(
    new ToolMessage({
      ...copied(options),
      role: "tool",
      content: Array.isArray(results) ? results.slice() : [results as Block.ToolResultBlock]
    })
  )

/**
 * A tool call in the flat format: a plain `{ id, name, args }` object.
 *
 * @since 0.1.0
 */
export interface ToolCallInput {
  readonly id: string
  readonly name: string
  readonly args?: Schema.Json
}

/**
 * A system message from text (the flat format's `systemMessage(text)`).
 *
 * @example
 * Message.systemMessage("You are a helpful assistant.")
 *
 * @since 0.1.0
 */
export const systemMessage = (text: string, options?: NamedOptions): SystemMessage => system(text, options)

/**
 * A user message from text (the flat format's `userMessage(text)`).
 *
 * @example
 * Message.userMessage("What is the weather in Oslo?")
 *
 * @since 0.1.0
 */
export const userMessage = (text: string, options?: NamedOptions): UserMessage => user(text, options)

/**
 * An assistant message in the flat format's style, `assistantMessage(text,
 * toolCalls?)`: the text (omitted when empty and there are tool calls)
 * followed by the calls.
 *
 * @example
 * Message.assistantMessage("Let me check.", [{ id: "call_1", name: "get_weather", args: { city: "Oslo" } }])
 * Message.assistantMessage("", [{ id: "call_2", name: "list_files" }]).content.length // 1: no empty text
 *
 * @since 0.1.0
 */
export const assistantMessage = (
  text: string,
  toolCalls?: ReadonlyArray<Block.ToolCallBlock | ToolCallInput>,
  options?: AssistantOptions
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
 * A tool message with one result, in the flat format's style:
 * `toolResultMessage(toolCallId, toolName, content, isError?)`.
 *
 * @example
 * Message.toolResultMessage("call_1", "get_weather", "12°C, rain")
 * Message.toolResultMessage("call_2", "get_weather", "city not found", true)
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
 * A user message from text (block-style code's `userText(s)`).
 *
 * @example
 * Message.userText("What is the weather in Oslo?")
 *
 * @since 0.1.0
 */
export const userText = (text: string): UserMessage => user(text)

/**
 * An assistant message from blocks (block-style code's `assistantMsg(blocks)`).
 *
 * @example
 * Message.assistantMsg([Block.text("Let me check."), Block.toolCall("call_1", "get_weather", { city: "Oslo" })])
 *
 * @since 0.1.0
 */
export const assistantMsg = (blocks: ReadonlyArray<Block.AssistantBlock>): AssistantMessage => assistant(blocks)

/**
 * A tool message from result blocks (block-style code's `toolResultMsg(blocks)`).
 *
 * @example
 * Message.toolResultMsg([Block.toolResult("call_1", "get_weather", "12°C")])
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
 * @example
 * Message.textOf(Message.assistant([Block.thinking("hmm"), Block.text("Oslo.")])) // "Oslo."
 * Message.textOf(Message.tool([Block.toolResult("c1", "a", "one"), Block.toolResult("c2", "b", "two")])) // "one\ntwo"
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
 * @example
 * const reply = Message.assistantMessage("", [{ id: "call_1", name: "search", args: { q: "effect" } }])
 * Message.toolCallsOf(reply).map((call) => call.id) // ["call_1"]
 * Message.toolCallsOf(Message.user("hi")) // []
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
 * @example
 * const results = Message.toolResultMessage("call_1", "search", "3 hits")
 * Message.toolResultsOf(results).map((result) => result.toolCallId) // ["call_1"]
 *
 * @since 0.1.0
 */
export const toolResultsOf = (message: Message): ReadonlyArray<Block.ToolResultBlock> =>
  message.role === "tool" ? message.content : []

/**
 * Whether the message is a tool message: the results of the client's tool
 * calls. An assistant message may hold results too, those of the tools the
 * provider ran itself (`providerExecuted`); it is not one.
 *
 * @example
 * const answered = new Set(messages.filter(Message.isToolResultMessage).flatMap((m) => m.content.map((r) => r.toolCallId)))
 *
 * @since 0.1.0
 */
export const isToolResultMessage = (message: Message): message is ToolMessage => message.role === "tool"

/**
 * Whether the message is an assistant message with at least one tool call.
 * Calls the provider ran itself (`providerExecuted`, such as a hosted web
 * search) count too, and their results are already in the message: run only
 * the others.
 *
 * @example
 * const last = messages[messages.length - 1]
 * if (last !== undefined && Message.hasToolCalls(last)) {
 *   const toRun = last.toolCalls.filter((call) => call.providerExecuted !== true)
 *   // run toRun, then append their results
 * }
 *
 * @since 0.1.0
 */
export const hasToolCalls = (message: Message): message is AssistantMessage =>
  message.role === "assistant" && message.content.some((b) => b._tag === "ToolCall")

/**
 * Whether a conversation may safely start (or be cut) at this message: a user
 * message, which in this model never carries tool results. The rule lives
 * here, in one place, for the window and the adapters.
 *
 * @example
 * const cut = messages.findIndex((m, i) => i >= 10 && Message.isCleanUserStart(m))
 *
 * @since 0.1.0
 */
export const isCleanUserStart = (message: Message | undefined): message is UserMessage =>
  message !== undefined && message.role === "user"

/**
 * Re-exported from `Block`, for block-style code.
 *
 * @example
 * Message.blockToText(Block.refusal("No.")) // "[refusal: No.]"
 *
 * @since 0.1.0
 */
export const blockToText = Block.blockToText

/**
 * A message as plain text: each block rendered with `blockToText`, empty
 * renderings skipped, one block per line.
 *
 * @example
 * Message.messageToText(Message.assistantMessage("Let me check.", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]))
 * // Let me check.
 * // [tool call weather({"city":"Oslo"})]
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
 * const transcript = Message.transcriptOf([
 *   Message.user("What is the weather in Oslo?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ], { maxResultLength: 200 })
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

/** The message keys of each role in the canonical form, from the schemas themselves. */
const canonicalKeys: Record<Role, ReadonlySet<string>> = {
  system: new Set(Object.keys(SystemMessage.fields)),
  user: new Set(Object.keys(UserMessage.fields)),
  assistant: new Set(Object.keys(AssistantMessage.fields)),
  tool: new Set(Object.keys(ToolMessage.fields))
}

/** The flat format's tool-result fields, carried on a tool message itself. */
const FLAT_RESULT_FIELDS = ["toolCallId", "toolName", "isError"] as const

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const isRole = (u: unknown): u is Role => u === "system" || u === "user" || u === "assistant" || u === "tool"

/** Marks an issue that a tagged decode error explains better than the schema's own words. */
const TAGGED = "effect-agent-messages/DecodeIssue"

const tagged = (error: DecodeIssue, input: unknown): SchemaIssue.Issue =>
  new SchemaIssue.InvalidValue({ message: error.message, [TAGGED]: error }, input)

const invalid = (path: ReadonlyArray<string | number>, message: string, input: unknown): SchemaIssue.Issue => {
  const leaf = new SchemaIssue.InvalidValue({ message }, input)
  return path.length === 0 ? leaf : new SchemaIssue.Pointer(path, leaf)
}

const idsOf = (items: ReadonlyArray<unknown>, tag?: string): Array<string> => {
  const ids: Array<string> = []
  for (const item of items) {
    if (isRecord(item) && (tag === undefined || item["_tag"] === tag)) ids.push(String(item["id"] ?? ""))
  }
  return ids
}

const flatCall = (call: unknown): unknown => (isRecord(call) ? { _tag: "ToolCall", args: {}, ...call } : call)

/** A tool result block of the flat format must name its call and tool, like a canonical one. */
const checkResultBlock = (block: Record<string, unknown>, blockIndex: number, input: unknown): SchemaIssue.Issue | undefined => {
  const toolCallId = block["toolCallId"]
  const toolName = block["toolName"]
  if (toolCallId === undefined) {
    return tagged(new MissingToolCallId({ blockIndex, ...(typeof toolName === "string" ? { toolName } : {}) }), input)
  }
  if (toolName === undefined) {
    return tagged(new MissingToolName({ blockIndex, ...(typeof toolCallId === "string" ? { toolCallId } : {}) }), input)
  }
  return undefined
}

/**
 * Where the blocks that the flat form's fields became sit in the canonical
 * form, so that a problem found in one is reported where the input has it:
 * flat tool calls are `content[from + j]` for `toolCalls[j]`; a flat tool
 * message's one result is `content[0]`, whose fields are the message's own.
 */
type FlatOrigin =
  | { readonly _tag: "FlatCalls"; readonly from: number; readonly count: number }
  | { readonly _tag: "FlatResult" }

/**
 * Turns a JSON value in either the canonical or the flat form into the
 * canonical encoded form, or an issue. Works on a private copy of the input
 * (`copyJson`), so hostile input (throwing getters, proxies, cycles, class
 * instances) becomes an issue rather than an exception, and nothing the
 * caller holds is shared with the decoded message.
 */
const toCanonical = (
  input: unknown
): { readonly canonical: Record<string, unknown>; readonly origin: FlatOrigin | undefined } | { readonly issue: SchemaIssue.Issue } => {
  const copy = copyJson(input, { freeze: false })
  if (!("value" in copy)) return { issue: invalid(copy.path, copy.reason, input) }
  const raw = copy.value
  if (!isRecord(raw)) return { issue: invalid([], "Expected a message object", input) }
  const role = raw["role"]
  if (!isRole(role)) {
    const got = typeof role === "string" ? `unknown role ${JSON.stringify(role)}` : role === undefined ? "missing role" : "role is not a string"
    const hint = role === "developer" ? ` (OpenAI's "developer" messages are system messages: use role "system")` : ""
    return { issue: invalid(["role"], `${got}: expected one of system, user, assistant, tool${hint}`, input) }
  }

  const flatCalls = raw["toolCalls"]
  if (flatCalls !== undefined) {
    if (!Array.isArray(flatCalls)) return { issue: invalid(["toolCalls"], "Expected an array of tool calls", input) }
    if (role !== "assistant") {
      return { issue: tagged(new ToolCallsOnNonAssistant({ role, toolCallIds: idsOf(flatCalls) }), input) }
    }
    // a flat call is a tool call: one that names another block would be checked as that block, at a place the input does not have
    for (let j = 0; j < flatCalls.length; j++) {
      const call: unknown = flatCalls[j]
      if (isRecord(call) && call["_tag"] !== undefined && call["_tag"] !== "ToolCall") {
        return { issue: invalid(["toolCalls", j, "_tag"], 'Expected "ToolCall" or no _tag: an entry of toolCalls is a tool call', input) }
      }
    }
  }
  const flatResultFields = FLAT_RESULT_FIELDS.filter((f) => raw[f] !== undefined)
  if (flatResultFields.length > 0 && role !== "tool") {
    return { issue: tagged(new ToolResultFieldsOnNonTool({ role, fields: flatResultFields }), input) }
  }

  let content: unknown = raw["content"]
  let origin: FlatOrigin | undefined
  if (role === "tool" && (flatResultFields.length > 0 || !Array.isArray(content))) {
    // the flat format: one result whose fields sit on the message; `content` is that result's content
    if (Array.isArray(content) && content.some((b) => isRecord(b) && b["_tag"] === "ToolResult")) {
      return {
        issue: invalid(["content"], "a tool message cannot have both tool result blocks and flat toolCallId/toolName fields", input)
      }
    }
    const result: Record<string, unknown> = { _tag: "ToolResult", content: content ?? "" }
    for (const f of FLAT_RESULT_FIELDS) if (raw[f] !== undefined) result[f] = raw[f]
    const issue = checkResultBlock(result, 0, input)
    if (issue !== undefined) return { issue }
    content = [result]
    origin = { _tag: "FlatResult" }
  } else if (typeof content === "string") {
    const calls = Array.isArray(flatCalls) ? flatCalls : []
    const blocks: Array<unknown> = content === "" && calls.length > 0 ? [] : [{ _tag: "Text", text: content }]
    if (calls.length > 0) origin = { _tag: "FlatCalls", from: blocks.length, count: calls.length }
    for (const call of calls) blocks.push(flatCall(call))
    content = blocks
  } else if (content === undefined || content === null) {
    content = Array.isArray(flatCalls) ? flatCalls.map(flatCall) : []
    if (Array.isArray(flatCalls) && flatCalls.length > 0) origin = { _tag: "FlatCalls", from: 0, count: flatCalls.length }
  } else if (Array.isArray(content)) {
    if (Array.isArray(flatCalls) && flatCalls.length > 0) {
      origin = { _tag: "FlatCalls", from: content.length, count: flatCalls.length }
      content = [...content, ...flatCalls.map(flatCall)]
    }
    const blocks = content as Array<unknown>
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i]
      if (!isRecord(block)) continue
      const tag = block["_tag"]
      if (tag === "ToolCall" && role !== "assistant") {
        return { issue: tagged(new ToolCallsOnNonAssistant({ role, toolCallIds: idsOf(blocks, "ToolCall") }), input) }
      }
      if (tag === "ToolResult") {
        if (role !== "tool" && role !== "assistant") {
          return { issue: tagged(new ToolResultFieldsOnNonTool({ role, fields: [`content[${i}]`] }), input) }
        }
        const issue = checkResultBlock(block, i, input)
        if (issue !== undefined) return { issue }
      }
    }
  } else {
    // (the schema alone would say "Expected array", though a string is as good)
    return { issue: invalid(["content"], `Expected a string or an array of blocks, got ${typeof content === "object" ? "an object" : `a ${typeof content}`}`, input) }
  }

  const canonical: Record<string, unknown> = {}
  for (const key of Object.keys(raw)) {
    if (key === "content" || key === "toolCalls" || (role === "tool" && (FLAT_RESULT_FIELDS as ReadonlyArray<string>).includes(key))) continue
    if (!canonicalKeys[role].has(key)) {
      return {
        issue: invalid([key], `unknown field ${JSON.stringify(key)}: decoding would lose it (keep extra data in metadata or providerOptions)`, input)
      }
    }
    // a `__proto__` key reaches here only as an unknown field, refused above
    canonical[key] = raw[key]
  }
  canonical["content"] = content
  return { canonical, origin }
}

/**
 * Where a place in the canonical form is in the input, for a place in (or
 * under) a block the flat form's fields became; `undefined` for any other
 * place (it is where the input has it).
 */
const inputPathOf = (origin: FlatOrigin, path: ReadonlyArray<PropertyKey>): ReadonlyArray<PropertyKey> | undefined => {
  const index = path[1]
  if (path[0] !== "content" || typeof index !== "number") return undefined
  switch (origin._tag) {
    case "FlatCalls":
      return index >= origin.from && index < origin.from + origin.count ? ["toolCalls", index - origin.from, ...path.slice(2)] : undefined
    case "FlatResult":
      return index === 0 ? path.slice(2) : undefined
    default:
      return Block.absurd(origin)
  }
}

/** Whether problems under a place of the canonical form may lie in a block the flat form's fields became. */
const mayHoldFlat = (path: ReadonlyArray<PropertyKey>): boolean => path.length === 0 || (path.length === 1 && path[0] === "content")

const pointer = (path: ReadonlyArray<PropertyKey>, issue: SchemaIssue.Issue): SchemaIssue.Issue =>
  path.length === 0 ? issue : new SchemaIssue.Pointer(path, issue)

/** The input an issue reported, for a copy of it (`reportInput`). */
const inputOf = (issue: SchemaIssue.Issue): readonly [unknown, SchemaAST.ParseOptions | undefined] =>
  SchemaIssue.hasInput(issue) ? [issue.input, { reportInput: true }] : [undefined, undefined]

/**
 * The issue of decoding a flat-form message's canonical form, its problems
 * moved to where the input has them: a flat tool call's to `toolCalls[j]`
 * rather than `content[from + j]`, a flat tool message's result fields to
 * the message's own fields rather than `content[0]`. Problems elsewhere keep
 * their places; when none moved, the issue is returned as it was.
 */
const relocate = (issue: SchemaIssue.Issue, origin: FlatOrigin | undefined): SchemaIssue.Issue => {
  if (origin === undefined) return issue
  const out: Array<SchemaIssue.Issue> = []
  let moved = false
  const walk = (node: SchemaIssue.Issue, at: ReadonlyArray<PropertyKey>, wrap: (issue: SchemaIssue.Issue) => SchemaIssue.Issue): void => {
    const place = inputPathOf(origin, at)
    if (place !== undefined) {
      moved = true
      out.push(wrap(pointer(place, node)))
      return
    }
    if (!mayHoldFlat(at)) {
      out.push(wrap(pointer(at, node)))
      return
    }
    switch (node._tag) {
      case "Pointer":
        return walk(node.issue, [...at, ...node.path], wrap)
      case "Composite":
        for (const child of node.issues) walk(child, at, wrap)
        return
      case "AnyOf":
        // an AnyOf without issues is itself the problem ("Expected A | B")
        if (node.issues.length === 0) out.push(wrap(pointer(at, node)))
        for (const child of node.issues) walk(child, at, wrap)
        return
      case "Encoding":
        return walk(node.issue, at, (inner) => wrap(new SchemaIssue.Encoding(node.ast, inner, ...inputOf(node))))
      case "Filter":
        // kept around each problem under it: its message stands for theirs
        return walk(node.issue, at, (inner) => wrap(new SchemaIssue.Filter(node.filter, inner, ...inputOf(node))))
      case "InvalidType":
      case "InvalidValue":
      case "MissingKey":
      case "UnexpectedKey":
      case "Forbidden":
      case "OneOf":
        out.push(wrap(pointer(at, node)))
        return
      default:
        return Block.absurd(node)
    }
  }
  walk(issue, [], (inner) => inner)
  const [first, ...rest] = out
  if (!moved || first === undefined) return issue
  return rest.length === 0 ? first : new SchemaIssue.Composite(Message.ast, [first, ...rest], ...inputOf(issue))
}

const strict = { onExcessProperty: "error", errors: "all" } as const
const decodeCanonical = Schema.decodeUnknownEffect(Message)
const encodeCanonical = Schema.encodeEffect(Message)

/**
 * The schema of a message read from JSON: accepts the canonical form written
 * by `encode` and the flat form (`content` as a string, `toolCalls` on an
 * assistant, `toolCallId`/`toolName`/`isError` on a tool message, or both
 * forms at once), decodes it to a frozen `Message`, and encodes a `Message`
 * to the canonical form.
 *
 * Unknown fields are refused at every level, whatever parse options the
 * caller passes (the policy lives here, so `Schema.Array(Message.Codec)`,
 * `Schema.fromJsonString(Message.Codec)`, RPC and HTTP schemas all behave
 * the same). The input is read through a private copy, so a hostile value
 * (a throwing getter, a revoked proxy, a cycle, a `Map` where JSON belongs)
 * is an issue, never an exception. Use `Message.decode` for tagged errors.
 *
 * @example
 * const Transcript = Schema.fromJsonString(Schema.Array(Message.Codec))
 * const loaded = yield* Schema.decodeUnknownEffect(Transcript)('[{"role":"user","content":"hi"}]')
 * loaded[0]?.role // "user"
 *
 * @since 0.1.0
 */
export const Codec: Schema.Codec<Message, unknown> = Schema.Unknown.pipe(
  Schema.decodeTo(
    Schema.toType(Message),
    SchemaTransformation.transformEffect({
      decode: (input: unknown) =>
        Effect.suspend(() => {
          const normalized = toCanonical(input)
          if ("issue" in normalized) return Effect.fail(normalized.issue)
          return decodeCanonical(normalized.canonical, strict).pipe(
            Effect.map(freeze),
            Effect.mapError((error) => relocate(error.issue, normalized.origin))
          )
        }),
      encode: (message: Message) => encodeCanonical(message).pipe(Effect.mapError((error) => error.issue))
    })
  )
)

const toStandard = SchemaIssue.makeFormatterStandardSchemaV1()

/** The tagged error an issue carries, if one of our checks raised it. */
const taggedIn = (issue: SchemaIssue.Issue): DecodeIssue | undefined => {
  const stack: Array<SchemaIssue.Issue> = [issue]
  while (stack.length > 0) {
    const next = stack.pop()!
    switch (next._tag) {
      case "InvalidValue": {
        const found = next.annotations?.[TAGGED]
        if (found !== undefined) return found as DecodeIssue
        break
      }
      case "Filter":
      case "Encoding":
      case "Pointer":
        stack.push(next.issue)
        break
      case "Composite":
      case "AnyOf":
        for (let i = next.issues.length - 1; i >= 0; i--) stack.push(next.issues[i]!)
        break
      default:
        break
    }
  }
  return undefined
}

const withIndex = (error: DecodeIssue, index: number | undefined): DecodeIssue => {
  if (index === undefined || error.index === index) return error
  switch (error._tag) {
    case "MessageDecodeError":
      return new MessageDecodeError({ ...error, index })
    case "MissingToolCallId":
      return new MissingToolCallId({ ...error, index })
    case "MissingToolName":
      return new MissingToolName({ ...error, index })
    case "ToolCallsOnNonAssistant":
      return new ToolCallsOnNonAssistant({ ...error, index })
    case "ToolResultFieldsOnNonTool":
      return new ToolResultFieldsOnNonTool({ ...error, index })
    default:
      return Block.absurd(error)
  }
}

const EXCESS = "Expected no excess property"

/**
 * The tagged error for a failed decode: the one our checks raised, or a
 * `MessageDecodeError` naming the first problem, listing all of them, and
 * keeping the Schema error as its `cause`.
 *
 * @example
 * const error = yield* Effect.flip(
 *   Schema.decodeUnknownEffect(Message.Codec)({ role: "user", content: 42 }).pipe(
 *     Effect.mapError((error) => Message.decodeErrorOf(error, 3))
 *   )
 * )
 * error._tag // "MessageDecodeError"
 * error.message // "messages[3]: content: Expected a string or an array of blocks, got a number"
 *
 * @since 0.1.0
 */
export const decodeErrorOf = (error: Schema.SchemaError, index?: number): DecodeIssue => {
  const found = taggedIn(error.issue)
  if (found !== undefined) return withIndex(found, index)
  const { problems, more } = problemsOf(error.issue)
  const first = problems[0]
  return new MessageDecodeError({
    ...(index === undefined ? {} : { index }),
    path: first?.path ?? [],
    reason: first?.message ?? error.message,
    problems,
    ...(more > 0 ? { moreProblems: more } : {}),
    cause: error
  })
}

/** The most problems a decode error lists: a million bad entries took seconds to describe, one by one. */
const MAX_PROBLEMS = 100

/**
 * The first `MAX_PROBLEMS` problems of an issue, each with its path, and how many more issues were left undescribed
 * (`more`: at least that many further problems). Groups of issues are read child by child, and only the children
 * listed are formatted.
 */
const problemsOf = (issue: SchemaIssue.Issue): { readonly problems: Array<DecodeProblem>; readonly more: number } => {
  const problems: Array<DecodeProblem> = []
  let more = 0
  const walk = (next: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): void => {
    if (next._tag === "Composite") {
      for (const child of next.issues) {
        if (problems.length >= MAX_PROBLEMS) more++
        else walk(child, path)
      }
      return
    }
    if (next._tag === "Pointer") return walk(next.issue, [...path, ...next.path])
    for (const p of toStandard(next).issues) {
      if (problems.length >= MAX_PROBLEMS) {
        more++
        continue
      }
      problems.push({
        path: [...path, ...(p.path ?? [])].map((key) => (typeof key === "number" ? key : String(key))),
        message: p.message === EXCESS ? "unknown field: decoding would lose it (keep extra data in metadata or providerOptions)" : p.message
      })
    }
  }
  walk(issue, [])
  return { problems, more }
}

const decodeCodec = Schema.decodeUnknownEffect(Codec)

/**
 * Decodes unknown JSON into a message (see `Codec` for the forms accepted).
 * Fails with a tagged error naming what is wrong: `MessageDecodeError` (the
 * path and reason of the first problem, every problem, and the Schema error),
 * or one of the role/field mismatches (`ToolCallsOnNonAssistant`,
 * `ToolResultFieldsOnNonTool`, `MissingToolCallId`, `MissingToolName`),
 * whichever form the mistake came in. `index`, when given, is reported in
 * errors (decoding inside a list). Never throws and never dies, whatever the
 * input.
 *
 * @example
 * const m = yield* Message.decode({ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "search", args: { q: "x" } }] })
 * Message.toolCallsOf(m).length // 1
 * const error = yield* Effect.flip(Message.decode({ role: "user", toolCallId: "c1", content: "3 hits" }))
 * error._tag // "ToolResultFieldsOnNonTool"
 *
 * @since 0.1.0
 */
export const decode = (raw: unknown, index?: number): Effect.Effect<Message, DecodeIssue> =>
  Effect.suspend(() => decodeCodec(raw)).pipe(
    Effect.mapError((error) => decodeErrorOf(error, index)),
    Effect.catchDefect((defect) =>
      Effect.fail(
        new MessageDecodeError({
          ...(index === undefined ? {} : { index }),
          path: [],
          reason: `could not read the message: ${errorText(defect)}`
        })
      )
    )
  )

/**
 * Decodes a list of messages, failing with the first bad one (its `index`
 * set). `Conversation.decodeEach` collects every bad one instead.
 *
 * @example
 * const loaded = yield* Message.decodeAll(JSON.parse('[{"role":"user","content":"hi"},{"role":"assistant","content":"Hello!"}]'))
 * loaded.length // 2
 *
 * @since 0.1.0
 */
export const decodeAll = (raw: unknown): Effect.Effect<Array<Message>, DecodeIssue> =>
  Effect.suspend(() => {
    const list = listOf(raw)
    if ("reason" in list) return Effect.fail(new MessageDecodeError({ path: [], reason: list.reason }))
    return Effect.forEach(list.items, (item, i) => decode(item, i))
  })

const encodeMessage = Schema.encodeSync(Message)

/**
 * A message as JSON-ready data in the canonical form. `decode(encode(m))` is
 * `m`; absent optional fields stay absent.
 *
 * @example
 * Message.encode(Message.user("hi"))
 * // { role: "user", content: [{ _tag: "Text", text: "hi" }] }
 *
 * @since 0.1.0
 */
export const encode = (message: Message): Encoded => encodeMessage(message)

/**
 * Several messages as JSON-ready data.
 *
 * @example
 * const json = JSON.stringify(Message.encodeAll(messages))
 * const back = yield* Message.decodeAll(JSON.parse(json))
 *
 * @since 0.1.0
 */
export const encodeAll = (messages: ReadonlyArray<Message>): Array<Encoded> => messages.map(encode)

// ---------------------------------------------------------------------------
// per-message validation
// ---------------------------------------------------------------------------

/**
 * Every per-message issue of a message, in one pass: empty content, empty
 * tool call ids and names (calls and results), and tool call ids used twice
 * within the message. `index` is reported in each issue when given; issues
 * are appended to `into` when given (so a conversation pass reuses one array).
 *
 * @example
 * const bad = Message.assistantMessage("", [{ id: "", name: "search" }])
 * Message.issuesOf(bad, 4).map((issue) => issue._tag) // ["EmptyToolCallId"]
 *
 * @since 0.1.0
 */
export const issuesOf = <I = never>(
  message: Message,
  index?: number,
  into: Array<MessageIssue | I> = []
): Array<MessageIssue | I> => {
  const issues = into
  const at = index === undefined ? {} : { index }
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
 * const checked = yield* Message.validate(Message.user("hi"))
 * const issue = yield* Effect.flip(Message.validate(Message.assistant([])))
 * issue._tag // "EmptyMessage"
 *
 * @since 0.1.0
 */
export const validate = <M extends Message>(message: M, index?: number): Effect.Effect<M, MessageIssue> =>
  // (read when the Effect runs, as every Effect of the package does its work)
  Effect.suspend(() => {
    const issues = issuesOf(message, index)
    return issues.length === 0 ? Effect.succeed(message) : Effect.fail(issues[0]!)
  })
