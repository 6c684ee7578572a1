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
