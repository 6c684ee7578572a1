/**
 * The tagged errors of decoding and validation.
 *
 * Each error is a `Schema.TaggedError`: an `Error` you can `yield*`, match with
 * `Effect.catchTag(s)`, and encode to JSON. Every error carries the index of
 * the offending message when it was found inside a conversation, the ids
 * involved, and a readable `message`.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { Provider } from "./Provider.js"
import { messageText, preview, quoteMediaType } from "./internal/preview.js"
import { ANTHROPIC_IMAGE_TYPES, bareMediaType } from "./internal/mediaType.js"
import { isGeminiFileUri } from "./internal/fileUrls.js"

const Index = Schema.optionalKey(Schema.Number)

const at = (index: number | undefined): string => (index === undefined ? "" : `messages[${index}]: `)

/**
 * Text from the conversation cut for a message (a tool call id 10 MB long is no message; the issue's field keeps it
 * whole), never between the halves of a surrogate pair, a lone surrogate written U+FFFD. `preview` does the same for
 * a value shown quoted.
 */
const clip = (text: string, max = 200): string => messageText(text, max)

/** Where a value is inside a message or block: keys and indices. */
const PathSchema = Schema.Array(Schema.Union([Schema.String, Schema.Number]))

/** `content[b]: ` for an issue that names its block, else nothing. */
const blockPrefix = (blockIndex: number | undefined): string => (blockIndex === undefined ? "" : `content[${blockIndex}]: `)

/** `.content[p]` for an issue about a part of a tool result, else nothing. */
const partPrefix = (partIndex: number | undefined): string => (partIndex === undefined ? "" : `.content[${partIndex}]`)

// ---------------------------------------------------------------------------
// decoding (data that arrives as unknown JSON)
// ---------------------------------------------------------------------------

/**
 * One problem found while decoding: where (`path`, inside the message) and
 * what (`message`).
 *
 * @example
 * const error = yield* Effect.flip(Message.decode({ role: "user", content: [{ _tag: "Text", text: 42 }] }))
 * if (error._tag === "MessageDecodeError") {
 *   error.problems?.map((p: ValidationError.DecodeProblem) => `${ValidationError.formatPath(p.path)}: ${p.message}`)
 * }
 *
 * @since 0.1.0
 */
export const DecodeProblem = Schema.Struct({
  path: PathSchema,
  message: Schema.String
})

/**
 * One decoding problem, as a type: `{ path, message }`.
 *
 * @since 0.1.0
 */
export type DecodeProblem = typeof DecodeProblem.Type

/**
 * A value is not a message. `path` and `reason` name the first problem (e.g.
 * `["content", 0, "id"]`, "Expected string"); `problems` lists the problems
 * the schema found, each with its path, the first 100 of them (`moreProblems`
 * then says how many more at least were found and not described: a list of
 * a million bad entries took seconds to describe); `cause` keeps the Schema
 * error itself.
 *
 * @example
 * const error = yield* Effect.flip(Message.decode({ role: "user", content: [{ _tag: "Text", text: 42 }] }, 3))
 * if (error._tag === "MessageDecodeError") {
 *   error.path // ["content", 0, "text"]
 *   error.message // "messages[3]: content[0].text: Expected string"
 * }
 *
 * @since 0.1.0
 */
export class MessageDecodeError extends Schema.TaggedError<MessageDecodeError>()("MessageDecodeError", {
  index: Index,
  path: PathSchema,
  reason: Schema.String,
  problems: Schema.optionalKey(Schema.Array(DecodeProblem)),
  moreProblems: Schema.optionalKey(Schema.Number),
  cause: Schema.optionalKey(Schema.Defect())
}) {
  override get message(): string {
    const others = (this.problems === undefined ? 0 : Math.max(0, this.problems.length - 1)) + (this.moreProblems ?? 0)
    const more = others > 0 ? ` (and ${this.moreProblems === undefined ? "" : "at least "}${others} more problem${others === 1 ? "" : "s"})` : ""
    return `${at(this.index)}${clip(formatPath(this.path), 300)}: ${clip(this.reason)}${more}`
  }
}

/**
 * Renders a path as `content[0].id`; the empty path is `(message)`.
 *
 * @example
 * ValidationError.formatPath(["content", 0, "id"]) // "content[0].id"
 * ValidationError.formatPath([]) // "(message)"
 *
 * @since 0.1.0
 */
export const formatPath = (path: ReadonlyArray<string | number>): string => {
  if (path.length === 0) return "(message)"
  let out = ""
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : out === "" ? key : `.${key}`
  }
  return out
}

/**
 * A tool result without a `toolCallId` (only possible in decoded JSON).
 *
 * @example
 * const error = yield* Effect.flip(Message.decode({ role: "tool", toolName: "search", content: "3 hits" }))
 * error._tag // "MissingToolCallId"
 * error.message // "tool result at content[0] (search) has no toolCallId"
 *
 * @since 0.1.0
 */
export class MissingToolCallId extends Schema.TaggedError<MissingToolCallId>()("MissingToolCallId", {
  index: Index,
  blockIndex: Schema.Number,
  toolName: Schema.optionalKey(Schema.String)
}) {
  override get message(): string {
    return `${at(this.index)}tool result at content[${this.blockIndex}]${this.toolName === undefined ? "" : ` (${clip(this.toolName)})`} has no toolCallId`
  }
}

/**
 * A tool result without a `toolName` (only possible in decoded JSON).
 *
 * @example
 * const error = yield* Effect.flip(Message.decode({ role: "tool", toolCallId: "c1", content: "3 hits" }))
 * error._tag // "MissingToolName"
 * error.message // "tool result at content[0] for c1 has no toolName"
 *
 * @since 0.1.0
 */
export class MissingToolName extends Schema.TaggedError<MissingToolName>()("MissingToolName", {
  index: Index,
  blockIndex: Schema.Number,
  toolCallId: Schema.optionalKey(Schema.String)
}) {
  override get message(): string {
    return `${at(this.index)}tool result at content[${this.blockIndex}]${this.toolCallId === undefined ? "" : ` for ${clip(this.toolCallId)}`} has no toolName`
  }
}

/**
 * Tool calls on a message that is not an assistant's.
 *
 * @example
 * const error = yield* Effect.flip(Message.decode({ role: "user", content: "hi", toolCalls: [{ id: "c1", name: "search" }] }))
 * error._tag // "ToolCallsOnNonAssistant"
 * error.message // "only assistant messages can carry tool calls, found 1 on a user message (c1)"
 *
 * @since 0.1.0
 */
export class ToolCallsOnNonAssistant extends Schema.TaggedError<ToolCallsOnNonAssistant>()("ToolCallsOnNonAssistant", {
  index: Index,
  role: Schema.String,
  toolCallIds: Schema.Array(Schema.String)
}) {
  override get message(): string {
    return `${at(this.index)}only assistant messages can carry tool calls, found ${this.toolCallIds.length} on a ${this.role} message${this.toolCallIds.length > 0 ? ` (${clip(this.toolCallIds.join(", "))})` : ""}`
  }
}

/**
 * Tool-result fields (`toolCallId`, `toolName`, `isError`) on a message that
 * is not a tool message, or tool result blocks in a user or system message
 * (an assistant message may hold the results of tools the provider ran).
 *
 * @example
 * const error = yield* Effect.flip(Message.decode({ role: "user", content: "3 hits", toolCallId: "c1" }))
 * error._tag // "ToolResultFieldsOnNonTool"
 * error.message // "a user message carries tool-result fields (toolCallId); only tool messages may"
 * // a result block in a user message:
 * // "a user message holds a tool result (content[0]); only tool messages, and assistant messages for tools the provider ran, may"
 *
 * @since 0.1.0
 */
export class ToolResultFieldsOnNonTool extends Schema.TaggedError<ToolResultFieldsOnNonTool>()(
  "ToolResultFieldsOnNonTool",
  {
    index: Index,
    role: Schema.String,
    fields: Schema.Array(Schema.String)
  }
) {
  override get message(): string {
    const article = this.role === "assistant" ? "an" : "a"
    // a result block (`content[i]`) may also sit in an assistant message, for
    // a tool the provider ran; the flat fields belong to tool messages only
    return this.fields.length > 0 && this.fields.every((f) => f.startsWith("content["))
      ? `${at(this.index)}${article} ${this.role} message holds a tool result (${clip(this.fields.join(", "))}); only tool messages, and assistant messages for tools the provider ran, may`
      : `${at(this.index)}${article} ${this.role} message carries tool-result fields (${clip(this.fields.join(", "))}); only tool messages may`
  }
}

// ---------------------------------------------------------------------------
// per message (typed values)
// ---------------------------------------------------------------------------

/**
 * A tool call or tool result whose id is the empty string.
 *
 * @example
 * const [issue] = Message.issuesOf(Message.assistantMessage("", [{ id: "", name: "search" }]), 1)
 * issue?.message // "messages[1]: content[0] (search) has an empty tool call id"
 *
 * @since 0.1.0
 */
export class EmptyToolCallId extends Schema.TaggedError<EmptyToolCallId>()("EmptyToolCallId", {
  index: Index,
  blockIndex: Schema.Number,
  toolName: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}content[${this.blockIndex}] (${clip(this.toolName) || "unnamed tool"}) has an empty tool call id`
  }
}

/**
 * A tool call or tool result whose tool name is the empty string.
 *
 * @example
 * const [issue] = Message.issuesOf(Message.assistantMessage("", [{ id: "c1", name: "" }]), 1)
 * issue?.message // "messages[1]: content[0] (c1) has an empty tool name"
 *
 * @since 0.1.0
 */
export class EmptyToolName extends Schema.TaggedError<EmptyToolName>()("EmptyToolName", {
  index: Index,
  blockIndex: Schema.Number,
  toolCallId: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}content[${this.blockIndex}] (${clip(this.toolCallId) || "no id"}) has an empty tool name`
  }
}

/**
 * Two tool calls share an id, inside one message or across the conversation.
 * `firstIndex` is the message of the first use; `blockIndex`, when set, is
 * the block of the call that uses the id again (in the message at `index`).
 *
 * @example
 * const [issue] = Message.issuesOf(Message.assistantMessage("", [{ id: "c1", name: "a" }, { id: "c1", name: "b" }]))
 * issue?._tag // "DuplicateToolCallId"
 * issue?.message // 'tool call id "c1" is used twice (earlier in the same message)'
 *
 * const [again] = Conversation.issuesOf([
 *   Message.user("Read both."),
 *   Message.assistantMessage("", [{ id: "c1", name: "read_file" }]),
 *   Message.toolResultMessage("c1", "read_file", "A"),
 *   Message.assistantMessage("", [{ id: "c2", name: "read_file" }, { id: "c1", name: "read_file" }]),
 *   Message.tool([Block.toolResult("c2", "read_file", "B"), Block.toolResult("c1", "read_file", "C")])
 * ])
 * again?.message // 'messages[3]: content[1]: tool call id "c1" is used twice (first used at messages[1])'
 *
 * @since 0.1.0
 */
export class DuplicateToolCallId extends Schema.TaggedError<DuplicateToolCallId>()("DuplicateToolCallId", {
  index: Index,
  toolCallId: Schema.String,
  firstIndex: Index,
  blockIndex: Schema.optionalKey(Schema.Number)
}) {
  override get message(): string {
    const first = this.firstIndex === undefined || this.firstIndex === this.index ? "earlier in the same message" : `first used at messages[${this.firstIndex}]`
    return `${at(this.index)}${blockPrefix(this.blockIndex)}tool call id ${preview(this.toolCallId)} is used twice (${first})`
  }
}

/**
 * A message with no content blocks at all. Providers reject empty messages.
 *
 * @example
 * const [issue] = Message.issuesOf(Message.assistant([]), 2)
 * issue?.message // "messages[2]: the assistant message has no content"
 *
 * @since 0.1.0
 */
export class EmptyMessage extends Schema.TaggedError<EmptyMessage>()("EmptyMessage", {
  index: Index,
  role: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}the ${this.role} message has no content`
  }
}

// ---------------------------------------------------------------------------
// per conversation
// ---------------------------------------------------------------------------

/**
 * A conversation with no messages (or only system messages).
 *
 * @example
 * const error = yield* Effect.flip(Conversation.validate([Message.system("You are terse.")]))
 * error._tag // "EmptyConversation"
 *
 * @since 0.1.0
 */
export class EmptyConversation extends Schema.TaggedError<EmptyConversation>()("EmptyConversation", {}) {
  override get message(): string {
    return "the conversation has no user or assistant message"
  }
}

/**
 * A tool result that answers no call of the assistant turn it follows.
 *
 * `blockIndex` is set when the result is a block of an assistant message
 * rather than a tool message: an OpenAI Responses `custom_tool_call_output`
 * item kept as provider data, which answers no `custom_tool_call` before it
 * (the API rejects it: "No tool call found for custom tool call output").
 * An output whose `call_id` is missing, empty or not a string (which the API
 * rejects too) answers no call either: `toolCallId` is then `""`.
 * `validateFor("openai-responses")` reports it, and
 * `Repair.repairFor("openai-responses")` removes it (kept whole in its log),
 * unless a custom tool call without a `call_id` comes before it: both then
 * get a fresh one.
 *
 * @example
 * const error = yield* Effect.flip(Conversation.validate([
 *   Message.user("hi"),
 *   Message.toolResultMessage("c9", "search", "3 hits")
 * ]))
 * error.message // 'messages[1]: tool result "c9" (search) answers no tool call of the preceding assistant message'
 *
 * const output = Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: "ct_9", output: "done" })
 * const [issue] = Conversation.issuesFor("openai-responses", [Message.user("hi"), Message.assistant([output, Block.text("Done.")])])
 * issue?.message // 'messages[1]: content[0]: custom tool output "ct_9" answers no custom tool call before it (openai-responses)'
 *
 * @since 0.1.0
 */
export class OrphanToolResult extends Schema.TaggedError<OrphanToolResult>()("OrphanToolResult", {
  index: Schema.Number,
  toolCallId: Schema.String,
  toolName: Schema.String,
  blockIndex: Schema.optionalKey(Schema.Number)
}) {
  override get message(): string {
    if (this.blockIndex !== undefined) {
      if (this.toolCallId === "") {
        return `${at(this.index)}${block(this.blockIndex)}: custom tool output has no call_id (missing, empty or not a string), so it answers no custom tool call (openai-responses)`
      }
      return `${at(this.index)}${block(this.blockIndex)}: custom tool output ${preview(this.toolCallId)} answers no custom tool call before it (openai-responses)`
    }
    const name = this.toolName === "" ? "" : ` (${clip(this.toolName)})`
    return `${at(this.index)}tool result ${preview(this.toolCallId)}${name} answers no tool call of the preceding assistant message`
  }
}

/**
 * Tool calls of the assistant message at `index` that were never answered
 * before the conversation went on (at `resumedAt`, absent when the
 * conversation simply ends).
 *
 * `blockIndex` is set for an OpenAI Responses `custom_tool_call` item kept
 * as provider data (`toolCallIds` holds its `call_id`) with no
 * `custom_tool_call_output` anywhere after it; `resumedAt` is then the
 * first user or assistant message after the call's. The API rejects it
 * like an unanswered function call ("No tool output found for custom tool
 * call"). `validateFor("openai-responses")` reports it (at the end of the
 * conversation, unless `allowPendingToolCalls`), and
 * `Repair.repairFor("openai-responses")` answers it with an output saying
 * the call was interrupted. A custom tool call whose `call_id` is missing,
 * empty or not a string (which the API rejects) can have no output:
 * `toolCallIds` is then `[""]`, and `repairFor` gives it a fresh `call_id`
 * (`RenamedToolCallId`), as it does an empty function call id.
 *
 * @example
 * const error = yield* Effect.flip(Conversation.validate([
 *   Message.user("Weather in Oslo?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.user("Never mind.")
 * ]))
 * error.message // 'messages[1]: tool call "c1" has no result before messages[2]'
 *
 * const call = Block.providerData("openai-responses", { type: "custom_tool_call", call_id: "ct_1", name: "apply_patch", input: "*** Begin Patch" })
 * const [issue] = Conversation.issuesFor("openai-responses", [Message.user("Patch it."), Message.assistant([call]), Message.user("Well?")])
 * issue?.message // 'messages[1]: content[0]: custom tool call "ct_1" has no custom tool output before messages[2] (openai-responses)'
 *
 * @since 0.1.0
 */
export class MissingToolResult extends Schema.TaggedError<MissingToolResult>()("MissingToolResult", {
  index: Schema.Number,
  toolCallIds: Schema.Array(Schema.String),
  resumedAt: Index,
  blockIndex: Schema.optionalKey(Schema.Number)
}) {
  override get message(): string {
    const where = this.resumedAt === undefined ? "before the conversation ends" : `before messages[${this.resumedAt}]`
    if (this.blockIndex !== undefined) {
      if (this.toolCallIds.every((id) => id === "")) {
        return `${at(this.index)}${block(this.blockIndex)}: custom tool call has no call_id (missing, empty or not a string), so no custom tool output can answer it (openai-responses)`
      }
      return `${at(this.index)}${block(this.blockIndex)}: custom tool call ${clip(this.toolCallIds.map((id) => preview(id)).join(", "), 500)} has no custom tool output ${where} (openai-responses)`
    }
    return `${at(this.index)}tool call${this.toolCallIds.length === 1 ? "" : "s"} ${clip(this.toolCallIds.map((id) => preview(id)).join(", "), 500)} ${this.toolCallIds.length === 1 ? "has" : "have"} no result ${where}`
  }
}

/**
 * A second result for a tool call that was already answered.
 *
 * `blockIndex` is set when the result is an OpenAI Responses
 * `custom_tool_call_output` item kept as provider data, a second output
 * for one `custom_tool_call` (`firstIndex` is the message of the first).
 * `validateFor("openai-responses")` reports it, and
 * `Repair.repairFor("openai-responses")` removes it (kept whole in its log).
 *
 * @example
 * const error = yield* Effect.flip(Conversation.validate([
 *   Message.user("Search."),
 *   Message.assistantMessage("", [{ id: "c1", name: "search" }]),
 *   Message.toolResultMessage("c1", "search", "3 hits"),
 *   Message.toolResultMessage("c1", "search", "3 hits")
 * ]))
 * error.message // 'messages[3]: tool call "c1" is answered twice (first at messages[2])'
 *
 * const call = Block.providerData("openai-responses", { type: "custom_tool_call", call_id: "ct_1", name: "apply_patch", input: "*** Begin Patch" })
 * const output = Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: "ct_1", output: "done" })
 * const [issue] = Conversation.issuesFor("openai-responses", [Message.user("Patch it."), Message.assistant([call, output, output])])
 * issue?.message // 'messages[1]: content[2]: custom tool call "ct_1" is answered twice (first at messages[1]) (openai-responses)'
 *
 * @since 0.1.0
 */
export class DuplicateToolResult extends Schema.TaggedError<DuplicateToolResult>()("DuplicateToolResult", {
  index: Schema.Number,
  toolCallId: Schema.String,
  firstIndex: Schema.Number,
  blockIndex: Schema.optionalKey(Schema.Number)
}) {
  override get message(): string {
    if (this.blockIndex !== undefined) {
      return `${at(this.index)}${block(this.blockIndex)}: custom tool call ${preview(this.toolCallId)} is answered twice (first at messages[${this.firstIndex}]) (openai-responses)`
    }
    return `${at(this.index)}tool call ${preview(this.toolCallId)} is answered twice (first at messages[${this.firstIndex}])`
  }
}

/**
 * Two user or two assistant messages in a row with no tool traffic between.
 *
 * A generic rule that not every provider enforces: Anthropic combines
 * consecutive user or assistant turns itself, and Gemini consecutive user
 * contents, so their profiles (`Conversation.validateFor`) do not report it
 * there (`Conversation.genericRulesFor`). The OpenAI profiles keep it.
 *
 * @example
 * const error = yield* Effect.flip(Conversation.validate([Message.user("hi"), Message.user("anyone there?")]))
 * error.message // "messages[1]: two user messages in a row (messages[0] and messages[1])"
 * Conversation.issuesFor("anthropic", [Message.user("hi"), Message.user("anyone there?")]) // []: Anthropic merges them
 *
 * @since 0.1.0
 */
export class ConsecutiveRole extends Schema.TaggedError<ConsecutiveRole>()("ConsecutiveRole", {
  index: Schema.Number,
  role: Schema.String,
  /** The message of that role before it (system messages between them aside); `index - 1` when not given. */
  previousIndex: Schema.optionalKey(Schema.Number)
}) {
  override get message(): string {
    return `${at(this.index)}two ${this.role} messages in a row (messages[${this.previousIndex ?? this.index - 1}] and messages[${this.index}])`
  }
}

// ---------------------------------------------------------------------------
// provider rules (validateFor)
// ---------------------------------------------------------------------------

const block = (blockIndex: number): string => `content[${blockIndex}]`

/**
 * Anthropic: a thinking block without a non-empty `signature` (lost or emptied
 * in persistence) cannot be replayed.
 *
 * @example
 * const [issue] = Conversation.issuesFor("anthropic", [
 *   Message.user("Weather?"),
 *   Message.assistant([Block.thinking("Look it up."), Block.text("12°C.")])
 * ])
 * issue?._tag // "MissingThinkingSignature"
 *
 * @since 0.1.0
 */
export class MissingThinkingSignature extends Schema.TaggedError<MissingThinkingSignature>()("MissingThinkingSignature", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: ${this.provider} requires thinking blocks to be replayed with their non-empty signature`
  }
}

/**
 * Anthropic: a redacted thinking block must carry its `data`.
 *
 * @example
 * const [issue] = Conversation.issuesFor("anthropic", [
 *   Message.user("Weather?"),
 *   Message.assistant([Block.redactedThinking(""), Block.text("12°C.")])
 * ])
 * issue?._tag // "EmptyRedactedThinking"
 *
 * @since 0.1.0
 */
export class EmptyRedactedThinking extends Schema.TaggedError<EmptyRedactedThinking>()("EmptyRedactedThinking", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: redacted thinking without data cannot be replayed to ${this.provider}`
  }
}

/**
 * Anthropic with manual extended thinking (`thinking: { type: "enabled" }`):
 * the assistant turn a request continues must start with a thinking (or
 * redacted thinking) block. That is a tool loop in progress (the request
 * ends with the results of the assistant's calls) and, when the thinking
 * setting is known, a final assistant message ("When thinking is enabled, a
 * final assistant message must start with a thinking block"). A tool loop is
 * one turn, from the user's words on: only its first assistant message must
 * start with thinking, later steps may go without (a model without
 * interleaved thinking thinks once per turn). `index` is that first
 * message. Adaptive thinking (`thinkingMode: "adaptive"`) never requires it.
 *
 * @example
 * const [issue] = Conversation.issuesFor("anthropic", [
 *   Message.user("Weather in Oslo?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ], { thinking: true })
 * issue?._tag // "ThinkingNotFirst"
 *
 * @since 0.1.0
 */
export class ThinkingNotFirst extends Schema.TaggedError<ThinkingNotFirst>()("ThinkingNotFirst", {
  provider: Provider,
  index: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}thinking is in use and the request continues the assistant turn this message starts (a tool loop in progress, or a final assistant message), so it must start with a thinking block (${this.provider})`
  }
}

/**
 * Anthropic with thinking off: the assistant turn a request ends with (a
 * prefill, or a paused turn sent back to continue it, and the tool loop
 * before it) may hold no thinking or redacted thinking block ("When thinking
 * is disabled, an `assistant` message in the final position cannot contain
 * `thinking`"). Reported only when the setting is known (`thinking: false`,
 * or from `Conversation.profileOptionsOf`). `Repair.repairFor` removes the
 * blocks, each kept whole in its log.
 *
 * @example
 * const [issue] = Conversation.issuesFor("anthropic", [
 *   Message.user("Weather in Oslo?"),
 *   Message.assistant([Block.thinking("Look it up.", "EqQBCkgIARAB"), Block.text("It is")])
 * ], { thinking: false })
 * issue?.message // "messages[1]: content[0]: thinking is off, and anthropic rejects thinking in the assistant turn a request ends with"
 *
 * @since 0.1.0
 */
export class ThinkingWhileDisabled extends Schema.TaggedError<ThinkingWhileDisabled>()("ThinkingWhileDisabled", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: thinking is off, and ${this.provider} rejects thinking in the assistant turn a request ends with`
  }
}

/**
 * Anthropic: the model takes no assistant prefill, and the request ends with
 * an assistant message ("This model does not support assistant message
 * prefill. The conversation must end with a user message."): Claude Opus and
 * Sonnet 4.6, and every later Claude model, as `model` names it. A paused
 * server-tool turn sent back to continue it is no prefill. No repair: the
 * message is the caller's content (end the request with a user message, or
 * use structured outputs instead of a prefill).
 *
 * @example
 * const [issue] = Conversation.issuesFor("anthropic", [Message.user("Give JSON"), Message.assistant("{")], { model: "claude-sonnet-4-6" })
 * issue?._tag // "PrefillNotSupported"
 *
 * @since 0.1.0
 */
export class PrefillNotSupported extends Schema.TaggedError<PrefillNotSupported>()("PrefillNotSupported", {
  provider: Provider,
  index: Schema.Number,
  model: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}${clip(this.model)} takes no assistant prefill: a request to it must end with a user message (${this.provider})`
  }
}

/**
 * Anthropic: a text block whose text is empty or only whitespace ("text
 * content blocks must contain non-whitespace text").
 *
 * @example
 * const [issue] = Conversation.issuesFor("anthropic", [Message.user(" ")])
 * issue?.message // "messages[0]: content[0]: anthropic rejects empty text blocks"
 *
 * @since 0.1.0
 */
export class EmptyTextBlock extends Schema.TaggedError<EmptyTextBlock>()("EmptyTextBlock", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: ${this.provider} rejects empty text blocks`
  }
}

/**
 * Anthropic: a final assistant message (a prefill) whose text ends with
 * whitespace. `blockIndex`, when set, is its last text block, the one that
 * ends with it.
 *
 * @example
 * const [issue] = Conversation.issuesFor("anthropic", [Message.user("Write a haiku."), Message.assistant("Autumn wind \n")])
 * issue?._tag // "TrailingWhitespacePrefill"
 * issue?.message // "messages[1]: content[0]: the final assistant message is a prefill, and anthropic rejects a prefill that ends with whitespace"
 *
 * @since 0.1.0
 */
export class TrailingWhitespacePrefill extends Schema.TaggedError<TrailingWhitespacePrefill>()("TrailingWhitespacePrefill", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.optionalKey(Schema.Number)
}) {
  override get message(): string {
    return `${at(this.index)}${blockPrefix(this.blockIndex)}the final assistant message is a prefill, and ${this.provider} rejects a prefill that ends with whitespace`
  }
}

/**
 * Anthropic: text after an assistant's last client tool call would sit
 * between the calls and their results. Server tools (web search, code
 * execution, MCP) do not count: their results are in the same message, and
 * the text after them is the answer that uses them (accepted, recorded).
 *
 * @example
 * const reply = Message.assistant([Block.toolCall("c1", "search"), Block.text("Searching now.")])
 * const [issue] = Conversation.issuesFor("anthropic", [Message.user("Find it."), reply, Message.toolResultMessage("c1", "search", "3 hits")])
 * issue?._tag // "TextAfterToolCalls"
 *
 * @since 0.1.0
 */
export class TextAfterToolCalls extends Schema.TaggedError<TextAfterToolCalls>()("TextAfterToolCalls", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: text after the last tool call would come between the calls and their results (${this.provider})`
  }
}

/**
 * Gemini: system text can only be the `systemInstruction`, at the start.
 *
 * @example
 * const [issue] = Conversation.issuesFor("gemini", [Message.user("hi"), Message.system("Be brief."), Message.assistant("Hello!")])
 * issue?.message // "messages[1]: gemini only takes system text at the start of the conversation"
 *
 * @since 0.1.0
 */
export class SystemNotAtStart extends Schema.TaggedError<SystemNotAtStart>()("SystemNotAtStart", {
  provider: Provider,
  index: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}${this.provider} only takes system text at the start of the conversation`
  }
}

/**
 * Gemini: a function-call turn must follow a user turn or a function-response
 * turn.
 *
 * @example
 * const [issue] = Conversation.issuesFor("gemini", [
 *   Message.assistantMessage("", [{ id: "c1", name: "weather" }]),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ])
 * issue?.message // "messages[0]: a tool-calling assistant message must follow a user message or tool results (gemini)"
 *
 * @since 0.1.0
 */
export class MisplacedFunctionCall extends Schema.TaggedError<MisplacedFunctionCall>()("MisplacedFunctionCall", {
  provider: Provider,
  index: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}a tool-calling assistant message must follow a user message or tool results (${this.provider})`
  }
}

/**
 * Gemini 3: in the current turn, the first tool call of each step must carry
 * the `thoughtSignature` the model returned. Gemini 2.5 accepts calls
 * without one (recorded), so the Gemini profile reports it only when the
 * options say the model needs them (`thoughtSignatures: "required"`, or a
 * Gemini 3 `model`). `blockIndex`, when set, is the call's block.
 *
 * @example
 * const [issue] = Conversation.issuesFor("gemini", [
 *   Message.user("Weather in Oslo?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ], { model: "gemini-3-flash-preview" })
 * issue?._tag // "MissingThoughtSignature"
 * issue?.message // 'messages[1]: content[0]: tool call "c1" is the first call of its step in the current turn and has no thoughtSignature (gemini)'
 *
 * @since 0.1.0
 */
export class MissingThoughtSignature extends Schema.TaggedError<MissingThoughtSignature>()("MissingThoughtSignature", {
  provider: Provider,
  index: Schema.Number,
  toolCallId: Schema.String,
  blockIndex: Schema.optionalKey(Schema.Number)
}) {
  override get message(): string {
    return `${at(this.index)}${blockPrefix(this.blockIndex)}tool call ${preview(this.toolCallId)} is the first call of its step in the current turn and has no thoughtSignature (${this.provider})`
  }
}

/**
 * OpenAI Responses: a reasoning item must be followed by the item it produced
 * (text or a call) in the same assistant message, and that item must still
 * carry the id the API gave it: a reasoning item followed by an edited
 * assistant message without its `msg_` id is rejected ("provided without its
 * required following item", recorded).
 *
 * @example
 * const reply = Message.assistant([Block.thinking("", undefined, { itemId: "rs_1" }), Block.text("Edited answer.")])
 * const [issue] = Conversation.issuesFor("openai-responses", [Message.user("hi"), reply])
 * issue?._tag // "ReasoningWithoutOutput": the text lost its msg_ id
 *
 * @since 0.1.0
 */
export class ReasoningWithoutOutput extends Schema.TaggedError<ReasoningWithoutOutput>()("ReasoningWithoutOutput", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: a reasoning item must be followed by the output item it produced, with that item's id (${this.provider})`
  }
}

/**
 * OpenAI Responses: text after a function call in the same assistant message
 * is written as a message item between that call and its output, and the
 * server then finds no output for the call ("No tool output found for tool
 * call call-a", recorded from a Responses-compatible server).
 *
 * @example
 * const reply = Message.assistant([Block.toolCall("c1", "search"), Block.text("Searching now.")])
 * const [issue] = Conversation.issuesFor("openai-responses", [Message.user("Find it."), reply, Message.toolResultMessage("c1", "search", "3 hits")])
 * issue?._tag // "TextBetweenCallAndOutput"
 *
 * @since 0.1.0
 */
export class TextBetweenCallAndOutput extends Schema.TaggedError<TextBetweenCallAndOutput>()("TextBetweenCallAndOutput", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number,
  toolCallId: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: this text would be sent between tool call ${preview(this.toolCallId)} and its output (${this.provider} wants the outputs right after the calls)`
  }
}

/**
 * OpenAI Responses with `store: false`: a reasoning item can only be replayed
 * with its `encryptedContent`.
 *
 * @example
 * const reply = Message.assistant([Block.thinking("", undefined, { itemId: "rs_1" }), Block.text("Hello!", { itemId: "msg_1" })])
 * const [issue] = Conversation.issuesFor("openai-responses", [Message.user("hi"), reply], { store: false })
 * issue?._tag // "MissingEncryptedContent"
 *
 * @since 0.1.0
 */
export class MissingEncryptedContent extends Schema.TaggedError<MissingEncryptedContent>()("MissingEncryptedContent", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: with store: false a reasoning item needs its encrypted content to be replayed (${this.provider})`
  }
}

/**
 * OpenAI Chat and Responses: a call's `arguments` go out as text, and that
 * text must be a JSON object. A call read from a model that wrote broken
 * JSON (`{"city": "Osl`) keeps that text, so that a round trip gives it back
 * as it came; sent back to OpenAI it is this issue. `Repair.repairFor`
 * replaces the text with the arguments read from it (kept whole in its log).
 *
 * @example
 * const call = Block.toolCall("c1", "weather", { city: "Osl" }, { rawArgs: '{"city": "Osl', parseError: "Unterminated string in JSON" })
 * const [issue] = Conversation.issuesFor("openai-chat", [Message.user("Weather?"), Message.assistant([call]), Message.toolResultMessage("c1", "weather", "12°C")])
 * issue?._tag // "MalformedToolArguments"
 *
 * @since 0.1.0
 */
export class MalformedToolArguments extends Schema.TaggedError<MalformedToolArguments>()("MalformedToolArguments", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number,
  toolCallId: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: the arguments of tool call ${preview(this.toolCallId)} are not a JSON object (${clip(this.reason)}) (${this.provider})`
  }
}

/**
 * Where a cache breakpoint is: the message and its block (for a part of a
 * tool result, the result's block; for a message's own `cache_control`, the
 * block the adapter puts it on: a system message's last block, another
 * message's own last block that is not thinking).
 *
 * @example
 * const place: ValidationError.CacheBreakpoint = { index: 0, blockIndex: 0 }
 *
 * @since 0.1.0
 */
export const CacheBreakpoint = Schema.Struct({ index: Schema.Number, blockIndex: Schema.Number })

/**
 * Where a cache breakpoint is, as a type: `{ index, blockIndex }`.
 *
 * @since 0.1.0
 */
export type CacheBreakpoint = typeof CacheBreakpoint.Type

/**
 * Anthropic: a request takes at most 4 cache breakpoints ("A maximum of 4
 * blocks with cache_control may be provided. Found 5."). Each block whose
 * `providerOptions.anthropic.cache_control` is set counts (an explicit
 * `cache_control: null` is none), in system messages and tool results too,
 * when the Anthropic adapter sends the block (not on thinking, which takes
 * none: the adapter leaves it out and reports it); so does one set on a
 * whole message, where the adapter writes it (an Anthropic message takes
 * none itself): a system message's on its last block, another message's on
 * its own last block that is not thinking, whether it opens the Anthropic
 * message it is written in or is merged into it, when that block has none
 * of its own, placed at that block;
 * and so do the ones outside the messages that the profile options give
 * (`cacheBreakpointsOutsideMessages`: tool definitions, a top-level
 * `cache_control`).
 *
 * `count` is how many the request has, `breakpoints` where each one in the
 * messages is, in the order of the request body (system blocks first).
 * `index` and `blockIndex` name the first one past the limit, counting the
 * ones outside the messages first (absent when no breakpoint of the messages
 * is past it). `Repair.repairFor` leaves them as they are: which ones to keep
 * is the caller's choice, not a repair's.
 *
 * @example
 * const cached = (text: string) => Block.text(text, { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })
 * const [issue] = Conversation.issuesFor("anthropic", [
 *   Message.system([cached("You are terse.")]),
 *   Message.user([cached("a")]), Message.assistant([cached("b")]), Message.user([cached("c")]), Message.assistant([cached("d")]),
 *   Message.user("e")
 * ])
 * issue?._tag // "TooManyCacheBreakpoints"
 * issue?.message // 'messages[4]: content[0]: 5 cache breakpoints in one request (5 in the messages), and anthropic takes at most 4 ...'
 *
 * @since 0.1.0
 */
export class TooManyCacheBreakpoints extends Schema.TaggedError<TooManyCacheBreakpoints>()("TooManyCacheBreakpoints", {
  provider: Provider,
  count: Schema.Number,
  breakpoints: Schema.Array(CacheBreakpoint),
  index: Index,
  blockIndex: Schema.optionalKey(Schema.Number)
}) {
  override get message(): string {
    return `${at(this.index)}${blockPrefix(this.blockIndex)}${this.count} cache breakpoints in one request (${this.breakpoints.length} in the messages), and ${this.provider} takes at most 4 ("A maximum of 4 blocks with cache_control may be provided. Found ${this.count}.")`
  }
}

/**
 * Anthropic: a string with a lone UTF-16 surrogate (half of a character
 * outside the Basic Multilingual Plane, such as an emoji cut in two by
 * slicing text) makes the request body invalid JSON to the API ("The
 * request body is not valid JSON: no low surrogate in string"). Every
 * string of a block that the Anthropic adapter sends counts (text,
 * thinking, tool names, the values and keys of arguments, tool results,
 * Anthropic's own options); a block or field it leaves out (options kept
 * for another provider, thinking without a signature, empty text, a JSON
 * value it sends as JSON text, which escapes the half character) cannot
 * make the body invalid and is not read. `path` is where the first one is
 * inside the block. The fields of a message the adapter writes count too
 * (its Anthropic options, written on the message, `cache_control` on its
 * last block): then `blockIndex` is absent and `path` starts with
 * `providerOptions.anthropic`. `Repair.repairFor("anthropic")` replaces each
 * lone surrogate of a block with U+FFFD (the block as it was is kept in its
 * log), and removes a message field Anthropic does not take
 * (`UnknownMessageField`); one in a message's `cache_control` is left
 * (`CannotRepair`): the setting is the caller's. The other providers are not recorded rejecting
 * one, so only the Anthropic profile reports it.
 *
 * @example
 * const cut = "Done 😀".slice(0, 6) // the emoji's second half is gone
 * const [issue] = Conversation.issuesFor("anthropic", [Message.user(cut)])
 * issue?._tag // "LoneSurrogate"
 * if (issue?._tag === "LoneSurrogate") ValidationError.formatPath(issue.path) // "text"
 *
 * @since 0.1.0
 */
export class LoneSurrogate extends Schema.TaggedError<LoneSurrogate>()("LoneSurrogate", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.optionalKey(Schema.Number),
  path: PathSchema
}) {
  override get message(): string {
    return `${at(this.index)}${blockPrefix(this.blockIndex)}${clip(formatPath(this.path), 300)} holds a lone UTF-16 surrogate (half of a character, such as an emoji cut in two), and ${this.provider} rejects the body as invalid JSON ("no low surrogate in string")`
  }
}

/**
 * OpenAI Responses: two input items with one id ("Duplicate item found with
 * id rs_… Remove duplicate items from your input"), such as a turn appended
 * to the history twice. The items are those the adapter writes: a reasoning
 * item, a message item (the consecutive text and refusal blocks of one
 * assistant message that share an `itemId` are its parts, one item), a
 * function call, a function call output, an item kept as provider data, an
 * input message read with its `id`. `blockIndex` is the item's first block
 * (absent for an input message); `firstIndex` the message of the first item
 * with that id. `Repair.repairFor("openai-responses")` removes the later
 * item when it is an exact copy of the earlier one; which of two different
 * items to keep is the caller's choice.
 *
 * @example
 * const reasoning = Block.thinking("", undefined, { itemId: "rs_1", summary: [], encryptedContent: "..." })
 * const reply = Message.assistant([reasoning, Block.text("Hello!", { itemId: "msg_1" })])
 * const [issue] = Conversation.issuesFor("openai-responses", [Message.user("hi"), reply, Message.user("hi again"), reply])
 * issue?._tag // "DuplicateItemId"
 * issue?.message // 'messages[3]: content[0]: item id "rs_1" was already sent (first at messages[1]), and openai-responses rejects ...'
 *
 * @since 0.1.0
 */
export class DuplicateItemId extends Schema.TaggedError<DuplicateItemId>()("DuplicateItemId", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.optionalKey(Schema.Number),
  itemId: Schema.String,
  firstIndex: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}${blockPrefix(this.blockIndex)}item id ${preview(this.itemId)} was already sent (first at messages[${this.firstIndex}]), and ${this.provider} rejects a second item with one id ("Duplicate item found with id ${clip(this.itemId, 80)}. Remove duplicate items from your input")`
  }
}

/**
 * OpenAI Responses with a reasoning model: an output item sent back with
 * its item id (a function call's `fc_…`, a message's `msg_…`) when the
 * reasoning item it was produced after is not sent ("Item 'fc_…' of type
 * 'function_call' was provided without its required 'reasoning' item:
 * 'rs_…'", reported from agents on o3 and gpt-5 whose stored history kept
 * the calls but not the reasoning; "Item 'msg_…' of type 'message' was
 * provided without its required 'reasoning' item" from gpt-5.2-codex and
 * gpt-5.5). The API looks the item up by its id and wants its reasoning
 * item in the request too.
 *
 * Checked only when the profile says the model reasons
 * (`Conversation.requiresReasoningItems`: `model` names an o-series model,
 * codex-mini, GPT-5 or a Codex model, or `reasoningItems: "required"`,
 * which `profileOptionsOf` sets from a request's `reasoning.effort`): a
 * model that does not reason produces no reasoning item to miss (a
 * recorded request to gpt-5.4 without an effort, which then does not
 * reason, replayed its `msg_` and `fc_` items alone and was accepted). Not with
 * `store: false` either: the API then keeps no items to look one up by
 * (agents that leave reasoning out of such requests are accepted). A block
 * is reported when no reasoning item (thinking with an `itemId`) comes
 * before it in its turn, from the user's last words on: which reasoning
 * item an output came after is not kept, so any one of the turn will do.
 * Only ids the adapter sends count (`fc…` on a call, `msg…` on text or a
 * refusal; it leaves others out), and the ids of the hosted items the API
 * is recorded rejecting the same way: a web search (`web_search_call`, a
 * provider-executed call or provider data; "Item 'ws_…' of type
 * 'web_search_call' was provided without its required 'reasoning' item")
 * and a generated image (`image_generation_call`, a file or provider data).
 * `blockIndex` is the item's first block (the text and refusal blocks with
 * one `itemId` are the parts of one message item).
 *
 * `Repair.repairFor("openai-responses", { model })` removes the item id
 * from a call's or a message's blocks (`RemovedItemId`, the id kept in its
 * log): the API takes an item without an id as new input, and a call is
 * paired with its output by its call id, not its item id. A web search or
 * a generated image cannot go without its id; send it with its reasoning
 * item.
 *
 * @example
 * const reply = Message.assistant([Block.toolCall("call_1", "weather", { city: "Oslo" }, { itemId: "fc_1" })])
 * const [issue] = Conversation.issuesFor("openai-responses", [Message.user("Weather?"), reply, Message.toolResultMessage("call_1", "weather", "12°C")], { model: "gpt-5" })
 * issue?._tag // "MissingReasoningItem": the reasoning item the call came after is not sent
 *
 * @since 0.1.0
 */
export class MissingReasoningItem extends Schema.TaggedError<MissingReasoningItem>()("MissingReasoningItem", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number,
  itemId: Schema.String,
  itemType: Schema.Literals(["function_call", "message", "web_search_call", "image_generation_call"])
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: the ${clip(this.itemType)} item ${preview(this.itemId)} is sent with its id, but no reasoning item comes before it in its turn, and ${this.provider} rejects it from a reasoning model ("Item '${clip(this.itemId, 80)}' of type '${clip(this.itemType)}' was provided without its required 'reasoning' item")`
  }
}

/** Which URLs a provider takes, as `UnsupportedMediaType` says it of a file at one it does not (`internal/fileUrls`). */
const urlsTaken = (provider: Provider, url: string): string => {
  if (provider === "gemini") return "it takes http, https and gs:// file URIs, and reads base64 data: URLs"
  if (isGeminiFileUri(url)) return "only the Gemini API reads its Files API URIs"
  return "it fetches http and https URLs only, and reads base64 data: URLs"
}

/**
 * A file given inline (base64 data, or a base64 `data:` URL) in a media
 * type the provider does not take, each as it documents:
 *
 * - Anthropic images: `image/jpeg`, `image/png`, `image/gif`, `image/webp`
 *   ("media_type: Input should be 'image/jpeg', 'image/png', 'image/gif'
 *   or 'image/webp'"; `image/jpg` is rejected too). Its adapter sends an
 *   image whose bytes are one of those four with their type, so only an
 *   image whose type and bytes are both another one is reported (its
 *   adapter leaves it out, and the request estimate counts nothing for
 *   it), `image/*` with bytes of none of the four included. Anthropic documents given as data are PDF or
 *   text (`application/pdf`, and `text/*` as UTF-8 text, which the adapter
 *   sends as plain text): another document type is reported. A file at a
 *   base64 `data:` URL, which Anthropic does not fetch, is sent as the data
 *   it holds, of the type the URL declares, and judged as that data.
 * - OpenAI Chat and Responses images: PNG, JPEG, GIF, WebP ("You uploaded
 *   an unsupported image. Please make sure your image has of one the
 *   following formats: ['png', 'jpeg', 'gif', 'webp']"). OpenAI reads the
 *   format from the bytes, so an image is reported when neither its type nor
 *   its bytes are one of those.
 * - Gemini images: `image/png`, `image/jpeg`, `image/webp`, `image/heic`,
 *   `image/heif` ("MIME type must be image/png, image/jpeg, image/webp,
 *   image/heic, or image/heif"; "Unsupported MIME type: image/jpg"). Gemini
 *   judges the declared type. `image/gif`, `image/bmp` and `image/tiff` are
 *   not reported: Gemini 1.5 took GIFs, and the Gemini SDK lists all three.
 *   Gemini's other inline data (audio, video, PDF, text...) is not checked.
 *   A file at a base64 `data:` URL is sent as inline data of the type the
 *   URL declares, and judged as such.
 *
 * The type is compared without case and parameters. A file by URL or file
 * id, an image of unknown type (`image/*`; for Anthropic, one whose bytes
 * show a type it takes) and other files of unknown type
 * (`application/octet-stream`) are not checked, nor audio or video (a
 * provider that takes no audio at all has its adapter report it as lost),
 * except for Anthropic: there every file that its writer leaves out is
 * reported, by the writer's own reading. Given as base64 data: audio,
 * video, data of unknown type and a `text/*` file whose bytes are not
 * UTF-8 text included (Anthropic takes images, PDFs and `text/*` as UTF-8
 * text, and nothing else inline). Given another way, `source` says how:
 * `"url"` for a document by URL that is not a PDF or text, or any file at
 * a URL Anthropic cannot fetch (not http or https, and not a base64 `data:`
 * URL, whose data it sends: a `data:` URL that is not base64, `gs://`,
 * `file:`, a Gemini Files API URI; then `url` holds it); `"fileId"` for a document by file id that
 * is not a PDF or text; `"text"` for an image given as text.
 * Every provider reports a file at a URL its writer leaves out for that
 * URL, with `source: "url"` and the URL in `url`: OpenAI Chat and Responses
 * one that is neither http(s) nor a base64 `data:` URL (which they send as
 * the data it is), or a Gemini Files API URI (audio aside, which they leave
 * out whatever its source); Gemini a URI of a scheme other than http,
 * https and `gs` (a `data:` URL that is not base64, a `file:` URI).
 * Files in user messages and tool results are checked (a Chat tool message
 * holds no files), and for Gemini in assistant messages too, whose files
 * its writer sends as a user message's (the other writers leave an
 * assistant message's files out, and say so). `partIndex` is the file's place in its tool result's
 * content. No repair: the file is the caller's (convert it, or leave it
 * out); `Repair.repairFor` fails with `CannotRepair`.
 *
 * @example
 * const photo = Block.image("data:image/heic;base64,AAAAGGZ0eXBoZWljAAAAAG1pZjE=")
 * const [issue] = Conversation.issuesFor("anthropic", [Message.user([Block.text("What is this?"), photo])])
 * issue?._tag // "UnsupportedMediaType"
 * issue?.message // 'messages[0]: content[1]: anthropic does not take image/heic images (it takes image/jpeg, image/png, image/gif, image/webp)'
 *
 * @since 0.1.0
 */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number,
  partIndex: Schema.optionalKey(Schema.Number),
  mediaType: Schema.String,
  supported: Schema.Array(Schema.String),
  /** How the file is given, when that is why it is not taken (Anthropic): by URL, by file id, or as text. */
  source: Schema.optionalKey(Schema.Literals(["url", "fileId", "text"])),
  /** The URL the provider cannot fetch, when that is why the file is not taken. */
  url: Schema.optionalKey(Schema.String)
}) {
  override get message(): string {
    const type = this.mediaType.trim().toLowerCase()
    const kind = type.startsWith("image/") ? "images" : "files"
    const source = this.source
    // how it is given, when that is why; else, for a text type it takes, the bytes
    if (this.url !== undefined) {
      const takes = this.supported.length === 0 ? "" : `; it takes ${this.supported.join(", ")}`
      return `${at(this.index)}${block(this.blockIndex)}${partPrefix(this.partIndex)}: ${this.provider} does not take ${clip(this.mediaType)} ${kind} at ${preview(this.url)} (${urlsTaken(this.provider, this.url)}${takes})`
    }
    // Gemini: no file id of another provider; it takes every file inline or by URI
    if (source === "fileId" && this.supported.length === 0) {
      return `${at(this.index)}${block(this.blockIndex)}${partPrefix(this.partIndex)}: ${this.provider} does not take ${clip(this.mediaType)} ${kind} by file id (it takes them as inline data or by URI)`
    }
    const how = source === "text"
      ? " given as text (it takes an image as data, by URL or by file id:"
      : source !== undefined
      ? ` by ${source === "url" ? "URL" : "file id"} (by reference it takes`
      : `${type.startsWith("text/") && this.supported.some((t) => t.startsWith("text/")) ? " whose data is not UTF-8 text" : ""} (it takes`
    return `${at(this.index)}${block(this.blockIndex)}${partPrefix(this.partIndex)}: ${this.provider} does not take ${clip(this.mediaType)} ${kind}${how} ${this.supported.join(", ")})`
  }
}

/**
 * Anthropic: base64 image data whose bytes are another format than its
 * declared type, such as a JPEG sent as `image/png` ("Image does not match
 * the provided media type image/png"; "The image was specified using the
 * image/jpeg media type, but the image appears to be a image/png image").
 * Also an image declared in a type Anthropic does not name (`image/jpg`)
 * whose bytes show one it does: the API takes `image/jpeg`, `image/png`,
 * `image/gif` and `image/webp` only. `actual` is the type the bytes show
 * (PNG, JPEG, GIF and WebP are read from their first bytes); the type is
 * compared without case and parameters, and `image/*` (any image) is no
 * mismatch. Anthropic's writer sends such an image as the type its bytes
 * show and reports it (`ConvertedContent`); `Repair.repairFor("anthropic")`
 * gives the image that type (`CorrectedMediaType`, the declared type kept).
 *
 * @example
 * const jpeg = Block.file(Block.base64("/9j/4AAQSkZJRgABAQ=="), "image/png")
 * const [issue] = Conversation.issuesFor("anthropic", [Message.user([Block.text("What is this?"), jpeg])])
 * issue?.message // 'messages[0]: content[1]: the image is declared image/png but its bytes are image/jpeg, and anthropic rejects ...'
 *
 * @since 0.1.0
 */
export class MediaTypeMismatch extends Schema.TaggedError<MediaTypeMismatch>()("MediaTypeMismatch", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number,
  partIndex: Schema.optionalKey(Schema.Number),
  mediaType: Schema.String,
  actual: Schema.String
}) {
  override get message(): string {
    const where = `${at(this.index)}${block(this.blockIndex)}${partPrefix(this.partIndex)}`
    if (!ANTHROPIC_IMAGE_TYPES.has(bareMediaType(this.mediaType))) {
      return `${where}: the image is declared ${quoteMediaType(this.mediaType)} but its bytes are ${clip(this.actual)}, and ${this.provider} takes only ${[...ANTHROPIC_IMAGE_TYPES].join(", ")} as an image's media type`
    }
    return `${where}: the image is declared ${clip(this.mediaType)} but its bytes are ${clip(this.actual)}, and ${this.provider} rejects an image that does not match its media type ("Image does not match the provided media type ${clip(this.mediaType)}")`
  }
}

/**
 * Anthropic: a message written with a field besides `role` and `content`
 * (the API answers "messages.0.name: Extra inputs are not permitted"). Such
 * a field is one of the message's Anthropic options (`providerOptions.anthropic`),
 * as `Anthropic.fromMessages` keeps every field it reads so that the
 * message is written back as it was; `cache_control` is not one of them
 * (the adapter puts a message's breakpoint on its last block). Only the
 * messages the adapter writes as messages count: not a system message
 * (its options have no place in the system prompt, which the adapter
 * reports), nor one merged into the message before it. `field` is the
 * field's name as written. `Repair.repairFor("anthropic")` removes it
 * (`Repair.RemovedMessageField`, its value kept in the log).
 *
 * A block's fields count too, when their name starts with `$`: the adapter
 * writes every Anthropic option of a block as a field of the block it
 * sends (it keeps no hint on blocks; a field kept as `$$x` is written as
 * `$x`), and the top-level fields of Anthropic provider data as they are,
 * and no Anthropic block has a field whose name starts with `$`. Only the
 * blocks the adapter sends count (the parts of a tool result too; not a
 * refusal, sent as plain text). Then `blockIndex` is the block, `path` where
 * the field is in it (`providerOptions.anthropic.$$x`, `data.$x`,
 * `content[0].providerOptions.anthropic.$x` for a tool result's part). Other
 * fields of a block are not reported: they are kept from a block read from
 * the wire, and Anthropic adds fields.
 *
 * @example
 * const { value } = yield* Anthropic.fromMessages([{ role: "user", content: "Hi", name: "alice" }])
 * const [issue] = Conversation.issuesFor("anthropic", value)
 * issue?._tag // "UnknownMessageField"
 * issue?.message // 'messages[0]: the message has a field "name", and anthropic takes only role and content ("name: Extra inputs are not permitted")'
 *
 * @since 0.1.0
 */
export class UnknownMessageField extends Schema.TaggedError<UnknownMessageField>()("UnknownMessageField", {
  provider: Provider,
  index: Schema.Number,
  field: Schema.String,
  blockIndex: Schema.optionalKey(Schema.Number),
  path: Schema.optionalKey(PathSchema)
}) {
  override get message(): string {
    const block = this.blockIndex !== undefined
    const where = this.path === undefined ? "" : ` (at ${clip(formatPath(this.path))})`
    return `${at(this.index)}${blockPrefix(this.blockIndex)}the ${block ? "block" : "message"} has a field ${preview(this.field)}${where}, and ${this.provider} takes ${block ? "no field whose name starts with $" : "only role and content"} ("${clip(this.field)}: Extra inputs are not permitted")`
  }
}

// ---------------------------------------------------------------------------
// unions: each defined once, as a Schema; the types are derived from them
// ---------------------------------------------------------------------------

/**
 * What can go wrong turning unknown JSON into a message.
 *
 * @example
 * const explain = (issue: ValidationError.DecodeIssue): string => {
 *   switch (issue._tag) {
 *     case "MessageDecodeError": return `bad field ${ValidationError.formatPath(issue.path)}`
 *     case "MissingToolCallId":
 *     case "MissingToolName": return "incomplete tool result"
 *     case "ToolCallsOnNonAssistant":
 *     case "ToolResultFieldsOnNonTool": return `tool data on a ${issue.role} message`
 *   }
 * }
 *
 * @since 0.1.0
 */
export const DecodeIssue = Schema.Union([
  MessageDecodeError,
  MissingToolCallId,
  MissingToolName,
  ToolCallsOnNonAssistant,
  ToolResultFieldsOnNonTool
])

/**
 * Any decoding error, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type DecodeIssue = typeof DecodeIssue.Type

/**
 * What per-message validation finds in a typed message.
 *
 * @example
 * const issues = Message.issuesOf(Message.assistant([]))
 * issues.every(Schema.is(ValidationError.MessageIssue)) // true
 *
 * @since 0.1.0
 */
export const MessageIssue = Schema.Union([EmptyToolCallId, EmptyToolName, DuplicateToolCallId, EmptyMessage])

/**
 * Any per-message issue, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type MessageIssue = typeof MessageIssue.Type

/**
 * What conversation validation finds: the per-message issues and the rules
 * every provider enforces.
 *
 * @example
 * const fixable = (issue: ValidationError.ConversationIssue): boolean =>
 *   issue._tag === "OrphanToolResult" || issue._tag === "MissingToolResult" || issue._tag === "DuplicateToolResult"
 * Conversation.issuesOf(messages).filter(fixable)
 *
 * @since 0.1.0
 */
export const ConversationIssue = Schema.Union([
  ...MessageIssue.members,
  EmptyConversation,
  OrphanToolResult,
  MissingToolResult,
  DuplicateToolResult,
  ConsecutiveRole
])

/**
 * Any issue of the generic rules, discriminated by `_tag`: what `validate`
 * fails with.
 *
 * @since 0.1.0
 */
export type ConversationIssue = typeof ConversationIssue.Type

/**
 * What `validateFor("anthropic")` adds to the generic rules.
 *
 * @example
 * const anthropicOnly = Conversation.issuesFor("anthropic", messages).filter(Schema.is(ValidationError.AnthropicIssue))
 *
 * @since 0.1.0
 */
export const AnthropicIssue = Schema.Union([
  MissingThinkingSignature,
  EmptyRedactedThinking,
  ThinkingNotFirst,
  ThinkingWhileDisabled,
  PrefillNotSupported,
  EmptyTextBlock,
  TrailingWhitespacePrefill,
  TextAfterToolCalls,
  TooManyCacheBreakpoints,
  LoneSurrogate,
  UnsupportedMediaType,
  MediaTypeMismatch,
  UnknownMessageField
])

/**
 * Any issue of Anthropic's own rules, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type AnthropicIssue = typeof AnthropicIssue.Type

/**
 * What `validateFor("gemini")` adds to the generic rules.
 *
 * @example
 * const geminiOnly = Conversation.issuesFor("gemini", messages).filter(Schema.is(ValidationError.GeminiIssue))
 *
 * @since 0.1.0
 */
export const GeminiIssue = Schema.Union([SystemNotAtStart, MisplacedFunctionCall, MissingThoughtSignature, UnsupportedMediaType])

/**
 * Any issue of Gemini's own rules, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type GeminiIssue = typeof GeminiIssue.Type

/**
 * What `validateFor("openai-responses")` adds to the generic rules.
 *
 * @example
 * const responsesOnly = Conversation.issuesFor("openai-responses", messages).filter(Schema.is(ValidationError.OpenAiResponsesIssue))
 *
 * @since 0.1.0
 */
export const OpenAiResponsesIssue = Schema.Union([
  ReasoningWithoutOutput,
  TextBetweenCallAndOutput,
  MissingEncryptedContent,
  MalformedToolArguments,
  DuplicateItemId,
  MissingReasoningItem,
  UnsupportedMediaType
])

/**
 * Any issue of the Responses API's own rules, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type OpenAiResponsesIssue = typeof OpenAiResponsesIssue.Type

/**
 * What `validateFor("openai-chat")` adds to the generic rules: arguments
 * that are not a JSON object, and images in a format OpenAI does not take
 * (every other Chat Completions rule that fails a request is a generic
 * rule).
 *
 * @example
 * const chatOnly = Conversation.issuesFor("openai-chat", messages).filter(Schema.is(ValidationError.OpenAiChatIssue))
 *
 * @since 0.1.0
 */
export const OpenAiChatIssue = Schema.Union([MalformedToolArguments, UnsupportedMediaType])

/**
 * Any issue of OpenAI Chat's own rules, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type OpenAiChatIssue = typeof OpenAiChatIssue.Type

/**
 * Each provider's own issues, by provider.
 *
 * @example
 * const own = (provider: Provider.Provider) => Conversation.issuesFor(provider, messages).filter(Schema.is(ValidationError.ProviderIssues[provider]))
 *
 * @since 0.1.0
 */
export const ProviderIssues = {
  "openai-chat": OpenAiChatIssue,
  "openai-responses": OpenAiResponsesIssue,
  anthropic: AnthropicIssue,
  gemini: GeminiIssue
} as const satisfies Record<Provider, Schema.Top>

/** A provider's issues without the one every provider has (`UnsupportedMediaType`, listed with the Responses API's). */
const notShared = <M extends Schema.Top>(members: ReadonlyArray<M>): Array<M> => members.filter((m) => m !== (UnsupportedMediaType as Schema.Top))

/**
 * Every provider-specific issue.
 *
 * @example
 * const portable = Conversation.issuesFor("anthropic", messages).filter((issue) => !Schema.is(ValidationError.ProviderIssue)(issue))
 *
 * @since 0.1.0
 */
export const ProviderIssue = Schema.Union([
  // MalformedToolArguments is both OpenAI APIs' own, UnsupportedMediaType every provider's: each listed once, with
  // the Responses API's
  ...OpenAiResponsesIssue.members,
  ...notShared(AnthropicIssue.members),
  ...notShared(GeminiIssue.members)
])

/**
 * Any provider-specific issue, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type ProviderIssue = typeof ProviderIssue.Type

/**
 * The issues `validateFor(provider)` can fail with: the generic ones plus
 * that provider's own, and nothing else.
 *
 * @since 0.1.0
 */
export type IssueFor<P extends Provider> = ConversationIssue | (typeof ProviderIssues)[P]["Type"]

/**
 * Every issue validation can report.
 *
 * @example
 * const Report = Schema.Struct({ file: Schema.String, issues: Schema.Array(ValidationError.Issue) })
 * const report = Schema.encodeSync(Report)({ file: "session.jsonl", issues: Conversation.issuesFor("gemini", messages) })
 * // each issue as JSON: { _tag: "ConsecutiveRole", index: 3, role: "assistant" }, ...
 *
 * @since 0.1.0
 */
export const Issue = Schema.Union([...ConversationIssue.members, ...ProviderIssue.members])

/**
 * Any validation issue, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type Issue = typeof Issue.Type

/**
 * All issues of an invalid conversation, for callers who collect rather than
 * fail fast (`Conversation.validateAll`).
 *
 * @example
 * const error = yield* Effect.flip(Conversation.validateAll([Message.user("hi"), Message.user("hello?"), Message.user("?")]))
 * error.issues.length // 2
 * error.message
 * // "2 issues: messages[1]: two user messages in a row (messages[0] and messages[1]);
 * //  messages[2]: two user messages in a row (messages[1] and messages[2])"
 *
 * @since 0.1.0
 */
export class InvalidConversation extends Schema.TaggedError<InvalidConversation>()("InvalidConversation", {
  issues: Schema.Array(Issue)
}) {
  override get message(): string {
    const shown = this.issues.slice(0, 5).map((i) => i.message)
    const more = this.issues.length > 5 ? `; and ${this.issues.length - 5} more` : ""
    return `${this.issues.length} issue${this.issues.length === 1 ? "" : "s"}: ${shown.join("; ")}${more}`
  }
}
