/**
 * The Anthropic Messages wire types that streaming needs: the SSE events
 * (`message_start`, `content_block_start` / `_delta` / `_stop`,
 * `message_delta`, `message_stop`, `ping`, `error`) and the `Message`
 * response they add up to.
 *
 * Written for this library, structurally compatible with the official
 * `@anthropic-ai/sdk` (its `Message` is a `Message` here, its
 * `RawMessageStreamEvent` and beta events are `StreamEvent`s); nothing here
 * imports it. Fields the SDK declares as always present but the wire often
 * omits (`citations`, `caller`, `container`) are optional here. Block,
 * delta and event types the API adds later are covered by the `Other…`
 * members, and the accumulator carries them over.
 *
 * @since 0.1.0
 */

/**
 * Token counts of a message.
 *
 * @since 0.1.0
 */
export interface Usage {
  readonly input_tokens: number
  readonly output_tokens: number
  readonly cache_creation_input_tokens?: number | null
  readonly cache_read_input_tokens?: number | null
  readonly cache_creation?: { readonly ephemeral_5m_input_tokens: number; readonly ephemeral_1h_input_tokens: number } | null
  readonly server_tool_use?: { readonly web_search_requests?: number; readonly web_fetch_requests?: number } | null
  readonly output_tokens_details?: { readonly thinking_tokens?: number } | null
  readonly service_tier?: string | null
  readonly inference_geo?: string | null
  readonly speed?: string | null
}

/**
 * The usage a `message_delta` carries: cumulative counts; a key that is
 * absent or `null` leaves the earlier value alone.
 *
 * @since 0.1.0
 */
export interface DeltaUsage {
  readonly output_tokens?: number | null
  readonly input_tokens?: number | null
  readonly cache_creation_input_tokens?: number | null
  readonly cache_read_input_tokens?: number | null
  readonly server_tool_use?: { readonly web_search_requests?: number; readonly web_fetch_requests?: number } | null
  readonly output_tokens_details?: { readonly thinking_tokens?: number } | null
}

/**
 * Why a message stopped, in detail (a refusal's category).
 *
 * @since 0.1.0
 */
export interface StopDetails {
  readonly type: string
  readonly category?: string | null
  readonly explanation?: string | null
}

/**
 * The code-execution container a message ran in.
 *
 * @since 0.1.0
 */
export interface Container {
  readonly id: string
  readonly expires_at: string
  readonly skills?: ReadonlyArray<{ readonly skill_id: string; readonly type: string; readonly version: string }> | null
}

/**
 * Who called a tool: the model directly, or a server tool.
 *
 * @since 0.1.0
 */
export interface Caller {
  readonly type: string
  readonly tool_id?: string
}

/**
 * A citation attached to a text block (its fields depend on `type`).
 *
 * @since 0.1.0
 */
export interface Citation {
  readonly type: string
}

// ---------------------------------------------------------------------------
// content blocks
// ---------------------------------------------------------------------------

/**
 * A `text` block of a response, with the citations that back it.
 *
 * @since 0.1.0
 */
export interface TextBlock {
  readonly type: "text"
  readonly text: string
  readonly citations?: ReadonlyArray<Citation> | null
}

/**
 * Extended thinking; `signature` must be sent back unchanged.
 *
 * @since 0.1.0
 */
export interface ThinkingBlock {
  readonly type: "thinking"
  readonly thinking: string
  readonly signature: string
}

/**
 * Thinking the API encrypted; `data` must be sent back unchanged.
 *
 * @since 0.1.0
 */
export interface RedactedThinkingBlock {
  readonly type: "redacted_thinking"
  readonly data: string
}

/**
 * A call of a client tool. In a streamed message `input` is the parsed
 * value of the streamed JSON once the block is stopped; while the block is
 * open, or when the text is not valid JSON, it is that raw text (a string).
 *
 * @since 0.1.0
 */
export interface ToolUseBlock {
  readonly type: "tool_use"
  readonly id: string
  readonly name: string
  readonly input: unknown
  readonly caller?: Caller
}

/**
 * A call of a server tool (web search, web fetch, code execution...); its
 * input streams like a client tool's.
 *
 * @since 0.1.0
 */
export interface ServerToolUseBlock {
  readonly type: "server_tool_use"
  readonly id: string
  readonly name: string
  readonly input: unknown
  readonly caller?: Caller
}

/**
 * The result of a web search, sent whole in its `content_block_start`.
 *
 * @since 0.1.0
 */
export interface WebSearchToolResultBlock {
  readonly type: "web_search_tool_result"
  readonly tool_use_id: string
  readonly content: unknown
  readonly caller?: Caller
}

/**
 * Any other block (other server tool results, `mcp_tool_use`,
 * `container_upload`, `compaction`, `fallback`...), kept as sent.
 *
 * @since 0.1.0
 */
export interface OtherBlock {
  readonly type: string
}

/**
 * A content block of a response: the kinds typed here, and any other kind as
 * sent (`OtherBlock`).
 *
 * @since 0.1.0
 */
export type ContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ServerToolUseBlock | WebSearchToolResultBlock | OtherBlock

// ---------------------------------------------------------------------------
// the response
// ---------------------------------------------------------------------------

/**
 * A Messages API response. `stop_reason` is `null` only in a snapshot of a
 * message that has not stopped.
 *
 * @since 0.1.0
 */
export interface Message {
  readonly id: string
  readonly type: "message"
  readonly role: "assistant"
  readonly model: string
  readonly content: ReadonlyArray<ContentBlock>
  readonly stop_reason: string | null
  readonly stop_sequence: string | null
  readonly stop_details?: StopDetails | null
  readonly usage: Usage
  readonly container?: Container | null
  readonly context_management?: unknown
}

// ---------------------------------------------------------------------------
// stream events
// ---------------------------------------------------------------------------

/**
 * A piece of a text block's text.
 *
 * @since 0.1.0
 */
export interface TextDelta {
  readonly type: "text_delta"
  readonly text: string
}

/**
 * A piece of a tool block's input JSON text (the first is often `""`).
 *
 * @since 0.1.0
 */
export interface InputJsonDelta {
  readonly type: "input_json_delta"
  readonly partial_json: string
}

/**
 * A piece of a thinking block's text.
 *
 * @since 0.1.0
 */
export interface ThinkingDelta {
  readonly type: "thinking_delta"
  readonly thinking: string
}

/**
 * The signature of a thinking block, sent once before its stop.
 *
 * @since 0.1.0
 */
export interface SignatureDelta {
  readonly type: "signature_delta"
  readonly signature: string
}

/**
 * One more citation for a text block.
 *
 * @since 0.1.0
 */
export interface CitationsDelta {
  readonly type: "citations_delta"
  readonly citation: Citation
}

/**
 * Any other delta (`compaction_delta`...).
 *
 * @since 0.1.0
 */
export interface OtherDelta {
  readonly type: string
}

/**
 * What a `content_block_delta` event adds to its block.
 *
 * @since 0.1.0
 */
export type BlockDelta = TextDelta | InputJsonDelta | ThinkingDelta | SignatureDelta | CitationsDelta | OtherDelta

/**
 * The first event: the message with empty content and the input usage.
 *
 * @since 0.1.0
 */
export interface MessageStartEvent {
  readonly type: "message_start"
  readonly message: Message
}

/**
 * A content block begins at `index`.
 *
 * @since 0.1.0
 */
export interface ContentBlockStartEvent {
  readonly type: "content_block_start"
  readonly index: number
  readonly content_block: ContentBlock
}

/**
 * A piece of the content block at `index`.
 *
 * @since 0.1.0
 */
export interface ContentBlockDeltaEvent {
  readonly type: "content_block_delta"
  readonly index: number
  readonly delta: BlockDelta
}

/**
 * The content block at `index` is complete.
 *
 * @since 0.1.0
 */
export interface ContentBlockStopEvent {
  readonly type: "content_block_stop"
  readonly index: number
}

/**
 * Top-level changes to the message: stop reason and details, container,
 * cumulative usage. A value that is absent or `null` changes nothing.
 *
 * @since 0.1.0
 */
export interface MessageDeltaEvent {
  readonly type: "message_delta"
  readonly delta: {
    readonly stop_reason?: string | null
    readonly stop_sequence?: string | null
    readonly stop_details?: StopDetails | null
    readonly container?: Container | null
  }
  readonly usage?: DeltaUsage | null
  readonly context_management?: unknown
}

/**
 * The last event: the message is complete.
 *
 * @since 0.1.0
 */
export interface MessageStopEvent {
  readonly type: "message_stop"
}

/**
 * A keep-alive event; it changes nothing.
 *
 * @since 0.1.0
 */
export interface PingEvent {
  readonly type: "ping"
}

/**
 * The API failed mid-stream (e.g. `overloaded_error`).
 *
 * @since 0.1.0
 */
export interface ErrorEvent {
  readonly type: "error"
  readonly error: { readonly type: string; readonly message: string }
}

/**
 * An event type this library does not know yet.
 *
 * @since 0.1.0
 */
export interface OtherEvent {
  readonly type: string
}

/**
 * Any event of a Messages stream (the official SDK's
 * `RawMessageStreamEvent` fits).
 *
 * @since 0.1.0
 */
export type StreamEvent =
  | MessageStartEvent
  | ContentBlockStartEvent
  | ContentBlockDeltaEvent
  | ContentBlockStopEvent
  | MessageDeltaEvent
  | MessageStopEvent
  | PingEvent
  | ErrorEvent
  | OtherEvent

// ---------------------------------------------------------------------------
// the request (what the request adapter writes; structurally assignable to the
// official SDK's `MessageCreateParams["messages"]` and `["system"]`). Arrays
// are mutable so that a converted request can be handed to the SDK as is.
// Fields kept from an earlier payload (`cache_control`, `citations`,
// `caller`...) are present at runtime beside the ones declared here, and so
// are blocks kept as they were received from the API (server tool use and
// results, MCP blocks, container uploads, search results, block types added
// after this library): those are typed as one of the declared blocks for the
// SDK's sake, so a `switch` over a block's `type` needs a default branch.
// ---------------------------------------------------------------------------

/**
 * A text block.
 *
 * @since 0.1.0
 */
export interface TextBlockParam {
  readonly type: "text"
  readonly text: string
}

/**
 * Where an image's bytes are.
 *
 * @since 0.1.0
 */
export type ImageSourceParam =
  | { readonly type: "base64"; readonly media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp"; readonly data: string }
  | { readonly type: "url"; readonly url: string }
  | { readonly type: "file"; readonly file_id: string }

/**
 * An image.
 *
 * @since 0.1.0
 */
export interface ImageBlockParam {
  readonly type: "image"
  readonly source: ImageSourceParam
}

/**
 * Where a document's content is.
 *
 * @since 0.1.0
 */
export type DocumentSourceParam =
  | { readonly type: "base64"; readonly media_type: "application/pdf"; readonly data: string }
  | { readonly type: "text"; readonly media_type: "text/plain"; readonly data: string }
  | { readonly type: "url"; readonly url: string }
  | { readonly type: "file"; readonly file_id: string }

/**
 * A document (PDF or plain text), with its title, context and citations
 * setting.
 *
 * @since 0.1.0
 */
export interface DocumentBlockParam {
  readonly type: "document"
  readonly source: DocumentSourceParam
  readonly title?: string
  readonly context?: string
  readonly citations?: { readonly enabled?: boolean }
}

/**
 * Thinking, replayed with its signature.
 *
 * @since 0.1.0
 */
export interface ThinkingBlockParam {
  readonly type: "thinking"
  readonly thinking: string
  readonly signature: string
}

/**
 * Redacted thinking, replayed as received.
 *
 * @since 0.1.0
 */
export interface RedactedThinkingBlockParam {
  readonly type: "redacted_thinking"
  readonly data: string
}

/**
 * A call of a client tool.
 *
 * @since 0.1.0
 */
export interface ToolUseBlockParam {
  readonly type: "tool_use"
  readonly id: string
  readonly name: string
  readonly input: { readonly [key: string]: unknown }
}

/**
 * The result of a client tool call.
 *
 * @since 0.1.0
 */
export interface ToolResultBlockParam {
  readonly type: "tool_result"
  readonly tool_use_id: string
  readonly content?: string | Array<TextBlockParam | ImageBlockParam | DocumentBlockParam>
  readonly is_error?: boolean
}

/**
 * Any block of a request message.
 *
 * @since 0.1.0
 */
export type ContentBlockParam =
  | TextBlockParam
  | ImageBlockParam
  | DocumentBlockParam
  | ThinkingBlockParam
  | RedactedThinkingBlockParam
  | ToolUseBlockParam
  | ToolResultBlockParam

/**
 * A user message.
 *
 * @since 0.1.0
 */
export interface UserMessageParam {
  readonly role: "user"
  readonly content: string | Array<ContentBlockParam>
}

/**
 * An assistant message.
 *
 * @since 0.1.0
 */
export interface AssistantMessageParam {
  readonly role: "assistant"
  readonly content: string | Array<ContentBlockParam>
}

/**
 * A request message.
 *
 * @since 0.1.0
 */
export type MessageParam = UserMessageParam | AssistantMessageParam

/**
 * The top-level system prompt.
 *
 * @since 0.1.0
 */
export type SystemParam = string | Array<TextBlockParam>

/**
 * A client tool's definition.
 *
 * @since 0.1.0
 */
export interface ToolParam {
  readonly name: string
  readonly description?: string
  readonly input_schema: { readonly type: "object"; readonly [key: string]: unknown }
  readonly strict?: boolean
}

/**
 * Which tool the model should call.
 *
 * @since 0.1.0
 */
export type ToolChoiceParam =
  | { readonly type: "auto" | "any"; readonly disable_parallel_tool_use?: boolean }
  | { readonly type: "none" }
  | { readonly type: "tool"; readonly name: string; readonly disable_parallel_tool_use?: boolean }

/**
 * A Messages request body: the fields the request adapter writes, plus (at
 * runtime) the request's other fields kept in its provider options
 * (`thinking`, `temperature`, `metadata`, ...). `max_tokens` is absent when
 * neither the request nor the options gave one.
 *
 * @since 0.1.0
 */
export interface RequestBody {
  readonly model?: string
  readonly max_tokens?: number
  readonly system?: SystemParam
  readonly messages: Array<MessageParam>
  readonly tools?: Array<ToolParam>
  readonly tool_choice?: ToolChoiceParam
  readonly output_config?: { readonly format?: { readonly type: "json_schema"; readonly schema: { readonly [key: string]: unknown } } }
  /** The structured outputs beta's form of `output_config.format` (header `structured-outputs-2025-11-13`), written when a request was read with it. */
  readonly output_format?: { readonly type: "json_schema"; readonly schema: { readonly [key: string]: unknown } }
}
