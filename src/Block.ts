/**
 * Content blocks: the pieces a message is made of.
 *
 * Every block is an Effect Schema class discriminated by `_tag`. The order of
 * blocks inside a message is meaningful (providers replay text, thinking and
 * tool calls in the order they were produced), so messages hold arrays of
 * blocks, never maps.
 *
 * Provider replay data has a typed home where we know its shape (Anthropic
 * thinking `signature` and redacted `data`, OpenAI Responses `itemId` and
 * `encryptedContent`, Gemini `thoughtSignature`) and an open, per-provider
 * `providerOptions` record for everything else (e.g. Anthropic
 * `cache_control`). The core never interprets either; it always carries them.
 *
 * Build blocks with the constructors (`Block.text`, `Block.toolCall`, ...) and
 * branch on them with `Block.match` or an exhaustive `switch` on `_tag`.
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"

/**
 * An open JSON-ish record: never interpreted by the core, always carried.
 *
 * @since 0.1.0
 */
export const UnknownRecord = Schema.Record(Schema.String, Schema.Unknown)

/**
 * Per-provider options, keyed by provider (`"anthropic"`, `"openai"`,
 * `"google"`, ...). Adapters read and write their own key and pass the rest
 * through untouched.
 *
 * @example
 * { anthropic: { cache_control: { type: "ephemeral" } } }
 *
 * @since 0.1.0
 */
export const ProviderOptions = Schema.Record(Schema.String, UnknownRecord)

/** @since 0.1.0 */
export type ProviderOptions = typeof ProviderOptions.Type

const optionalProviderOptions = Schema.optionalKey(ProviderOptions)

/**
 * Plain text.
 *
 * `itemId` is the OpenAI Responses output item the text came from;
 * `thoughtSignature` is a Gemini part-level signature.
 *
 * @since 0.1.0
 */
export class TextBlock extends Schema.TaggedClass<TextBlock>()("Text", {
  text: Schema.String,
  itemId: Schema.optionalKey(Schema.String),
  thoughtSignature: Schema.optionalKey(Schema.String),
  providerOptions: optionalProviderOptions
}) {}

/**
 * Model reasoning, billed and replayed.
 *
 * - `signature`: Anthropic's signature; must come back unchanged and non-empty.
 * - `itemId` / `encryptedContent`: an OpenAI Responses `reasoning` item and
 *   its encrypted payload (needed to replay reasoning with `store: false`).
 * - `thoughtSignature`: Gemini's signature on a thought part.
 *
 * @since 0.1.0
 */
export class ThinkingBlock extends Schema.TaggedClass<ThinkingBlock>()("Thinking", {
  thinking: Schema.String,
  signature: Schema.optionalKey(Schema.String),
  itemId: Schema.optionalKey(Schema.String),
  encryptedContent: Schema.optionalKey(Schema.String),
  thoughtSignature: Schema.optionalKey(Schema.String),
  providerOptions: optionalProviderOptions
}) {}

/**
 * Reasoning the provider encrypted (Anthropic `redacted_thinking`): `data` is
 * opaque and must be replayed byte for byte.
 *
 * @since 0.1.0
 */
export class RedactedThinkingBlock extends Schema.TaggedClass<RedactedThinkingBlock>()("RedactedThinking", {
  data: Schema.String,
  providerOptions: optionalProviderOptions
}) {}

/**
 * A call of a tool by the assistant.
 *
 * `args` is the parsed argument object. When the arguments arrived from a
 * provider as a string, `rawArgs` keeps that exact text, so malformed JSON is
 * never lost (the parsed `args` is then whatever a lenient parse recovered).
 * `itemId` is the OpenAI Responses `function_call` item id (distinct from the
 * call id); `thoughtSignature` is Gemini's signature on a function call part.
 *
 * @since 0.1.0
 */
export class ToolCallBlock extends Schema.TaggedClass<ToolCallBlock>()("ToolCall", {
  id: Schema.String,
  name: Schema.String,
  args: UnknownRecord,
  rawArgs: Schema.optionalKey(Schema.String),
  itemId: Schema.optionalKey(Schema.String),
  thoughtSignature: Schema.optionalKey(Schema.String),
  providerOptions: optionalProviderOptions
}) {}

/**
 * What a tool result may contain when it is not a plain string. Several text
 * blocks stay several blocks.
 *
 * @since 0.1.0
 */
export const ToolResultPart = Schema.Union([TextBlock])

/** @since 0.1.0 */
export type ToolResultPart = typeof ToolResultPart.Type

/**
 * The content of a tool result: a string, or a list of parts.
 *
 * @since 0.1.0
 */
export const ToolResultContent = Schema.Union([Schema.String, Schema.Array(ToolResultPart)])

/** @since 0.1.0 */
export type ToolResultContent = typeof ToolResultContent.Type

/**
 * The answer to a tool call. `isError` defaults to `false` when constructed
 * and when absent from decoded JSON.
 *
 * @since 0.1.0
 */
export class ToolResultBlock extends Schema.TaggedClass<ToolResultBlock>()("ToolResult", {
  toolCallId: Schema.String,
  toolName: Schema.String,
  content: ToolResultContent,
  isError: Schema.Boolean.pipe(
    Schema.withDecodingDefaultKey(Effect.succeed(false)),
    Schema.withConstructorDefault(Effect.succeed(false))
  ),
  providerOptions: optionalProviderOptions
}) {}

/**
 * Every block kind.
 *
 * @since 0.1.0
 */
export const Block = Schema.Union([TextBlock, ThinkingBlock, RedactedThinkingBlock, ToolCallBlock, ToolResultBlock])

/** @since 0.1.0 */
export type Block = typeof Block.Type

/** @since 0.1.0 */
export type Tag = Block["_tag"]

/**
 * Blocks an assistant message may hold.
 *
 * @since 0.1.0
 */
export const AssistantBlock = Schema.Union([TextBlock, ThinkingBlock, RedactedThinkingBlock, ToolCallBlock])

/** @since 0.1.0 */
export type AssistantBlock = typeof AssistantBlock.Type

/**
 * Blocks a user message may hold (images and files will join this union).
 *
 * @since 0.1.0
 */
export const UserBlock = Schema.Union([TextBlock])

/** @since 0.1.0 */
export type UserBlock = typeof UserBlock.Type

// ---------------------------------------------------------------------------
// constructors
// ---------------------------------------------------------------------------

/** The optional replay fields a constructor accepts besides its positional arguments. */
type Extras<C extends abstract new(...args: never) => unknown, K extends PropertyKey> = Omit<ConstructorParameters<C>[0], K | "_tag">

/**
 * A text block.
 *
 * @example
 * Block.text("Hello")
 *
 * @since 0.1.0
 */
export const text = (text: string, extras?: Extras<typeof TextBlock, "text">): TextBlock => new TextBlock({ ...extras, text })

/**
 * A thinking block, with its Anthropic signature when there is one.
 *
 * @since 0.1.0
 */
export const thinking = (thinking: string, signature?: string, extras?: Extras<typeof ThinkingBlock, "thinking" | "signature">): ThinkingBlock =>
  new ThinkingBlock(signature === undefined ? { ...extras, thinking } : { ...extras, thinking, signature })

/**
 * A redacted thinking block.
 *
 * @since 0.1.0
 */
export const redactedThinking = (data: string, extras?: Extras<typeof RedactedThinkingBlock, "data">): RedactedThinkingBlock =>
  new RedactedThinkingBlock({ ...extras, data })

/**
 * A tool call.
 *
 * @example
 * Block.toolCall("call_1", "get_weather", { city: "Oslo" })
 *
 * @since 0.1.0
 */
export const toolCall = (
  id: string,
  name: string,
  args: Readonly<Record<string, unknown>> = {},
  extras?: Extras<typeof ToolCallBlock, "id" | "name" | "args">
): ToolCallBlock => new ToolCallBlock({ ...extras, id, name, args })

/**
 * A tool result (seed 004's `toolResultBlock`).
 *
 * @example
 * Block.toolResult("call_1", "get_weather", "12°C, rain")
 *
 * @since 0.1.0
 */
export const toolResult = (
  toolCallId: string,
  toolName: string,
  content: ToolResultContent,
  isError = false,
  extras?: Extras<typeof ToolResultBlock, "toolCallId" | "toolName" | "content" | "isError">
): ToolResultBlock => new ToolResultBlock({ ...extras, toolCallId, toolName, content, isError })

// ---------------------------------------------------------------------------
// readers
// ---------------------------------------------------------------------------

/**
 * Branch on a block's kind. The `cases` object must name every kind, so a new
 * block kind is a compile error at every call site that does not handle it.
 *
 * @example
 * Block.match(b, {
 *   Text: (b) => b.text, Thinking: () => "", RedactedThinking: () => "",
 *   ToolCall: (b) => b.name, ToolResult: (b) => b.toolName
 * })
 *
 * @since 0.1.0
 */
export const match = <R>(
  block: Block,
  cases: { readonly [K in Tag]: (block: Extract<Block, { readonly _tag: K }>) => R }
): R => {
  switch (block._tag) {
    case "Text":
      return cases.Text(block)
    case "Thinking":
      return cases.Thinking(block)
    case "RedactedThinking":
      return cases.RedactedThinking(block)
    case "ToolCall":
      return cases.ToolCall(block)
    case "ToolResult":
      return cases.ToolResult(block)
    default:
      return absurd(block)
  }
}

/**
 * Marks a branch the type system proves unreachable; used as the `default` of
 * every exhaustive `switch`, so adding a case is a compile error there.
 *
 * @since 0.1.0
 */
export const absurd = (value: never): never => {
  throw new Error(`unreachable: ${JSON.stringify(value)}`)
}

/**
 * The text of a tool result's content: the string itself, or its text parts
 * joined with newlines.
 *
 * @since 0.1.0
 */
export const resultContentText = (content: ToolResultContent): string => {
  if (typeof content === "string") return content
  let out = ""
  for (let i = 0; i < content.length; i++) {
    const part = content[i]!
    switch (part._tag) {
      case "Text":
        out = i === 0 ? part.text : `${out}\n${part.text}`
        break
      default:
        return absurd(part._tag)
    }
  }
  return out
}

/**
 * Options for rendering blocks as text.
 *
 * @since 0.1.0
 */
export interface RenderOptions {
  /** Longest rendered tool-call argument JSON before it is cut with "…" (default 200). */
  readonly maxArgsLength?: number
  /** Longest rendered tool-result content before it is cut with "…" (default 500). */
  readonly maxResultLength?: number
  /** Render thinking text as `[thinking: …]` (default: thinking is omitted). */
  readonly includeThinking?: boolean
}

/** @since 0.1.0 */
export const truncate = (s: string, max: number): string =>
  s.length > max ? `${s.slice(0, Math.max(0, max))}…` : s

/**
 * A block as plain text, for summaries and transcripts: tool calls and results
 * are rendered (never silently dropped), with long arguments and results cut.
 * Thinking is omitted unless `includeThinking` is set; redacted thinking is
 * always omitted (it is opaque).
 *
 * @example
 * Block.blockToText(Block.toolCall("c1", "search", { q: "effect" }))
 * // => '[tool call search({"q":"effect"})]'
 *
 * @since 0.1.0
 */
export const blockToText = (block: Block, options?: RenderOptions): string => {
  switch (block._tag) {
    case "Text":
      return block.text
    case "Thinking":
      return options?.includeThinking === true ? `[thinking: ${block.thinking}]` : ""
    case "RedactedThinking":
      return ""
    case "ToolCall": {
      const args = block.rawArgs ?? safeStringify(block.args)
      return `[tool call ${block.name}(${truncate(args, options?.maxArgsLength ?? 200)})]`
    }
    case "ToolResult": {
      const body = truncate(resultContentText(block.content), options?.maxResultLength ?? 500)
      return `[tool result ${block.toolName}${block.isError ? " (error)" : ""}: ${body}]`
    }
    default:
      return absurd(block)
  }
}

/**
 * `JSON.stringify` that cannot throw (cycles, BigInt): falls back to
 * `String(value)`.
 *
 * @since 0.1.0
 */
export const safeStringify = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
