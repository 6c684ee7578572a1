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

const Index = Schema.optionalKey(Schema.Number)

const at = (index: number | undefined): string => (index === undefined ? "" : `messages[${index}]: `)

// ---------------------------------------------------------------------------
// decoding (data that arrives as unknown JSON)
// ---------------------------------------------------------------------------

/**
 * A value is not a message: `path` names the bad field inside the message
 * (e.g. `["content", 0, "id"]`).
 *
 * @since 0.1.0
 */
export class MessageDecodeError extends Schema.TaggedError<MessageDecodeError>()("MessageDecodeError", {
  index: Index,
  path: Schema.Array(Schema.Union([Schema.String, Schema.Number])),
  reason: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}${formatPath(this.path)}: ${this.reason}`
  }
}

/** Renders a path as `content[0].id`; the empty path is `(message)`. */
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
 * @since 0.1.0
 */
export class MissingToolCallId extends Schema.TaggedError<MissingToolCallId>()("MissingToolCallId", {
  index: Index,
  blockIndex: Schema.Number,
  toolName: Schema.optionalKey(Schema.String)
}) {
  override get message(): string {
    return `${at(this.index)}tool result at content[${this.blockIndex}]${this.toolName === undefined ? "" : ` (${this.toolName})`} has no toolCallId`
  }
}

/**
 * A tool result without a `toolName` (only possible in decoded JSON).
 *
 * @since 0.1.0
 */
export class MissingToolName extends Schema.TaggedError<MissingToolName>()("MissingToolName", {
  index: Index,
  blockIndex: Schema.Number,
  toolCallId: Schema.optionalKey(Schema.String)
}) {
  override get message(): string {
    return `${at(this.index)}tool result at content[${this.blockIndex}]${this.toolCallId === undefined ? "" : ` for ${this.toolCallId}`} has no toolName`
  }
}

/**
 * Tool calls on a message that is not an assistant's.
 *
 * @since 0.1.0
 */
export class ToolCallsOnNonAssistant extends Schema.TaggedError<ToolCallsOnNonAssistant>()("ToolCallsOnNonAssistant", {
  index: Index,
  role: Schema.String,
  toolCallIds: Schema.Array(Schema.String)
}) {
  override get message(): string {
    return `${at(this.index)}only assistant messages can carry tool calls, found ${this.toolCallIds.length} on a ${this.role} message${this.toolCallIds.length > 0 ? ` (${this.toolCallIds.join(", ")})` : ""}`
  }
}

/**
 * Tool-result fields (`toolCallId`, `toolName`, `isError`, tool result
 * blocks) on a message that is not a tool message.
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
    return `${at(this.index)}a ${this.role} message carries tool-result fields (${this.fields.join(", ")}); only tool messages may`
  }
}

// ---------------------------------------------------------------------------
// per message (typed values)
// ---------------------------------------------------------------------------

/**
 * A tool call or tool result whose id is the empty string.
 *
 * @since 0.1.0
 */
export class EmptyToolCallId extends Schema.TaggedError<EmptyToolCallId>()("EmptyToolCallId", {
  index: Index,
  blockIndex: Schema.Number,
  toolName: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}content[${this.blockIndex}] (${this.toolName || "unnamed tool"}) has an empty tool call id`
  }
}

/**
 * A tool call or tool result whose tool name is the empty string.
 *
 * @since 0.1.0
 */
export class EmptyToolName extends Schema.TaggedError<EmptyToolName>()("EmptyToolName", {
  index: Index,
  blockIndex: Schema.Number,
  toolCallId: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}content[${this.blockIndex}] (${this.toolCallId || "no id"}) has an empty tool name`
  }
}

/**
 * Two tool calls share an id, inside one message or across the conversation.
 * `firstIndex` is the message of the first use.
 *
 * @since 0.1.0
 */
export class DuplicateToolCallId extends Schema.TaggedError<DuplicateToolCallId>()("DuplicateToolCallId", {
  index: Index,
  toolCallId: Schema.String,
  firstIndex: Index
}) {
  override get message(): string {
    const first = this.firstIndex === undefined || this.firstIndex === this.index ? "earlier in the same message" : `first used at messages[${this.firstIndex}]`
    return `${at(this.index)}tool call id ${JSON.stringify(this.toolCallId)} is used twice (${first})`
  }
}

/**
 * A message with no content blocks at all. Providers reject empty messages.
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
 * @since 0.1.0
 */
export class OrphanToolResult extends Schema.TaggedError<OrphanToolResult>()("OrphanToolResult", {
  index: Schema.Number,
  toolCallId: Schema.String,
  toolName: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}tool result ${JSON.stringify(this.toolCallId)} (${this.toolName}) answers no tool call of the preceding assistant message`
  }
}

/**
 * Tool calls of the assistant message at `index` that were never answered
 * before the conversation went on (at `resumedAt`, absent when the
 * conversation simply ends).
 *
 * @since 0.1.0
 */
export class MissingToolResult extends Schema.TaggedError<MissingToolResult>()("MissingToolResult", {
  index: Schema.Number,
  toolCallIds: Schema.Array(Schema.String),
  resumedAt: Index
}) {
  override get message(): string {
    const where = this.resumedAt === undefined ? "before the conversation ends" : `before messages[${this.resumedAt}]`
    return `${at(this.index)}tool call${this.toolCallIds.length === 1 ? "" : "s"} ${this.toolCallIds.map((id) => JSON.stringify(id)).join(", ")} ${this.toolCallIds.length === 1 ? "has" : "have"} no result ${where}`
  }
}

/**
 * A second result for a tool call that was already answered.
 *
 * @since 0.1.0
 */
export class DuplicateToolResult extends Schema.TaggedError<DuplicateToolResult>()("DuplicateToolResult", {
  index: Schema.Number,
  toolCallId: Schema.String,
  firstIndex: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}tool call ${JSON.stringify(this.toolCallId)} is answered twice (first at messages[${this.firstIndex}])`
  }
}

/**
 * Two user or two assistant messages in a row with no tool traffic between.
 *
 * @since 0.1.0
 */
export class ConsecutiveRole extends Schema.TaggedError<ConsecutiveRole>()("ConsecutiveRole", {
  index: Schema.Number,
  role: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}two ${this.role} messages in a row (messages[${this.index - 1}] and messages[${this.index}])`
  }
}

// ---------------------------------------------------------------------------
// provider rules (validateFor)
// ---------------------------------------------------------------------------

/**
 * The wire formats `validateFor` knows the rules of.
 *
 * @since 0.1.0
 */
export const Provider = Schema.Literals(["openai-chat", "openai-responses", "anthropic", "gemini"])

/** @since 0.1.0 */
export type Provider = typeof Provider.Type

const block = (blockIndex: number): string => `content[${blockIndex}]`

/**
 * Anthropic: a thinking block without a non-empty `signature` (lost or emptied
 * in persistence) cannot be replayed.
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
 * Anthropic with extended thinking: while a tool loop is in progress, the last
 * assistant message must start with a thinking (or redacted thinking) block.
 *
 * @since 0.1.0
 */
export class ThinkingNotFirst extends Schema.TaggedError<ThinkingNotFirst>()("ThinkingNotFirst", {
  provider: Provider,
  index: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}thinking is in use and a tool loop is in progress, so this assistant message must start with a thinking block (${this.provider})`
  }
}

/**
 * Anthropic: a text block with empty text.
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
 * whitespace.
 *
 * @since 0.1.0
 */
export class TrailingWhitespacePrefill extends Schema.TaggedError<TrailingWhitespacePrefill>()("TrailingWhitespacePrefill", {
  provider: Provider,
  index: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}the final assistant message is a prefill, and ${this.provider} rejects a prefill that ends with whitespace`
  }
}

/**
 * Anthropic: text after an assistant's last tool call would sit between the
 * calls and their results.
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
 * the `thoughtSignature` the model returned.
 *
 * @since 0.1.0
 */
export class MissingThoughtSignature extends Schema.TaggedError<MissingThoughtSignature>()("MissingThoughtSignature", {
  provider: Provider,
  index: Schema.Number,
  toolCallId: Schema.String
}) {
  override get message(): string {
    return `${at(this.index)}tool call ${JSON.stringify(this.toolCallId)} is the first call of its step in the current turn and has no thoughtSignature (${this.provider})`
  }
}

/**
 * OpenAI Responses: a reasoning item must be followed by the item it produced
 * (text or a function call) in the same assistant message.
 *
 * @since 0.1.0
 */
export class ReasoningWithoutOutput extends Schema.TaggedError<ReasoningWithoutOutput>()("ReasoningWithoutOutput", {
  provider: Provider,
  index: Schema.Number,
  blockIndex: Schema.Number
}) {
  override get message(): string {
    return `${at(this.index)}${block(this.blockIndex)}: a reasoning item must be followed by the output it produced (${this.provider})`
  }
}

/**
 * OpenAI Responses with `store: false`: a reasoning item can only be replayed
 * with its `encryptedContent`.
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

// ---------------------------------------------------------------------------
// unions
// ---------------------------------------------------------------------------

/**
 * What can go wrong turning unknown JSON into a message.
 *
 * @since 0.1.0
 */
export type DecodeIssue =
  | MessageDecodeError
  | MissingToolCallId
  | MissingToolName
  | ToolCallsOnNonAssistant
  | ToolResultFieldsOnNonTool

/**
 * What per-message validation finds in a typed message.
 *
 * @since 0.1.0
 */
export type MessageIssue = EmptyToolCallId | EmptyToolName | DuplicateToolCallId | EmptyMessage

/**
 * What conversation validation finds, on top of the per-message issues.
 *
 * @since 0.1.0
 */
export type ConversationIssue =
  | MessageIssue
  | EmptyConversation
  | OrphanToolResult
  | MissingToolResult
  | DuplicateToolResult
  | ConsecutiveRole

/**
 * What `validateFor` adds to the generic rules.
 *
 * @since 0.1.0
 */
export type ProviderIssue =
  | MissingThinkingSignature
  | EmptyRedactedThinking
  | ThinkingNotFirst
  | EmptyTextBlock
  | TrailingWhitespacePrefill
  | TextAfterToolCalls
  | SystemNotAtStart
  | MisplacedFunctionCall
  | MissingThoughtSignature
  | ReasoningWithoutOutput
  | MissingEncryptedContent

/**
 * Every issue validation can report.
 *
 * @since 0.1.0
 */
export type Issue = ConversationIssue | ProviderIssue

/**
 * All issues of an invalid conversation, for callers who collect rather than
 * fail fast (`Conversation.validateAll`).
 *
 * @since 0.1.0
 */
export class InvalidConversation extends Schema.TaggedError<InvalidConversation>()("InvalidConversation", {
  issues: Schema.Array(
    Schema.Union([
      EmptyToolCallId,
      EmptyToolName,
      DuplicateToolCallId,
      EmptyMessage,
      EmptyConversation,
      OrphanToolResult,
      MissingToolResult,
      DuplicateToolResult,
      ConsecutiveRole,
      MissingThinkingSignature,
      EmptyRedactedThinking,
      ThinkingNotFirst,
      EmptyTextBlock,
      TrailingWhitespacePrefill,
      TextAfterToolCalls,
      SystemNotAtStart,
      MisplacedFunctionCall,
      MissingThoughtSignature,
      ReasoningWithoutOutput,
      MissingEncryptedContent
    ])
  )
}) {
  override get message(): string {
    const shown = this.issues.slice(0, 5).map((i) => i.message)
    const more = this.issues.length > 5 ? `; and ${this.issues.length - 5} more` : ""
    return `${this.issues.length} issue${this.issues.length === 1 ? "" : "s"}: ${shown.join("; ")}${more}`
  }
}
