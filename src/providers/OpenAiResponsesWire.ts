/**
 * The OpenAI Responses wire types that streaming needs: the stream events
 * (`response.created`, `response.output_item.added` / `.done`,
 * `response.output_text.delta`, `response.function_call_arguments.delta`,
 * `response.completed`, `error`...) and the `Response` they add up to.
 *
 * Written for this library, structurally compatible with the official
 * `openai` SDK (its `Response` is a `Response` here, its
 * `ResponseStreamEvent` a `StreamEvent`); nothing here imports it. The
 * output item and event kinds this library does not model one by one
 * (hosted tools, MCP, shell, image generation...) are covered by the
 * `Other…` members and carried over as sent.
 *
 * @since 0.1.0
 */

/**
 * A citation or file path attached to output text (fields depend on
 * `type`).
 *
 * @since 0.1.0
 */
export interface Annotation {
  readonly type: string
}

/** @since 0.1.0 */
export interface OutputText {
  readonly type: "output_text"
  readonly text: string
  readonly annotations: ReadonlyArray<Annotation>
  readonly logprobs?: ReadonlyArray<unknown>
}

/** @since 0.1.0 */
export interface Refusal {
  readonly type: "refusal"
  readonly refusal: string
}

/**
 * A part of a message or reasoning item this library does not model (e.g.
 * `reasoning_text`).
 *
 * @since 0.1.0
 */
export interface OtherPart {
  readonly type: string
}

/** @since 0.1.0 */
export type ContentPart = OutputText | Refusal | OtherPart

/**
 * An assistant message in the output.
 *
 * @since 0.1.0
 */
export interface OutputMessage {
  readonly type: "message"
  readonly id: string
  readonly role: string
  readonly status?: string
  readonly content: ReadonlyArray<ContentPart>
  readonly phase?: string | null
}

/**
 * A call of a function tool; `arguments` is the JSON text exactly as the
 * model produced it.
 *
 * @since 0.1.0
 */
export interface FunctionCall {
  readonly type: "function_call"
  readonly id?: string
  readonly call_id: string
  readonly name: string
  readonly arguments: string
  readonly status?: string
  readonly namespace?: string
}

/**
 * A call of a custom (free-form input) tool.
 *
 * @since 0.1.0
 */
export interface CustomToolCall {
  readonly type: "custom_tool_call"
  readonly id?: string
  readonly call_id: string
  readonly name: string
  readonly input: string
}

/**
 * Reasoning: summary parts, optional reasoning text, and the encrypted
 * content to send back when the response is not stored.
 *
 * @since 0.1.0
 */
export interface ReasoningItem {
  readonly type: "reasoning"
  readonly id: string
  readonly summary: ReadonlyArray<{ readonly type: string; readonly text: string }>
  readonly content?: ReadonlyArray<{ readonly type: string; readonly text: string }>
  readonly encrypted_content?: string | null
  readonly status?: string
}

/**
 * Any other output item (hosted tool calls and their outputs, MCP items,
 * shell calls, compaction...), kept as sent.
 *
 * @since 0.1.0
 */
export interface OtherItem {
  readonly type: string
  readonly id?: string
}

/** @since 0.1.0 */
export type OutputItem = OutputMessage | FunctionCall | CustomToolCall | ReasoningItem | OtherItem

/** @since 0.1.0 */
export interface Usage {
  readonly input_tokens: number
  readonly output_tokens: number
  readonly total_tokens: number
  readonly input_tokens_details?: { readonly cached_tokens?: number }
  readonly output_tokens_details?: { readonly reasoning_tokens?: number }
}

/**
 * Why a response failed.
 *
 * @since 0.1.0
 */
export interface ResponseError {
  readonly code?: string | null
  readonly message: string
}

/**
 * A Responses API response. `status` is `"in_progress"` in a snapshot of
 * a stream that has not finished. `output_text` is a convenience the
 * official SDK computes; the server does not send it (see
 * `OpenAiResponsesStream.outputText`).
 *
 * @since 0.1.0
 */
export interface Response {
  readonly id: string
  readonly object: "response"
  readonly created_at: number
  readonly model: string
  readonly status?: string
  readonly output: ReadonlyArray<OutputItem>
  readonly error?: ResponseError | null
  readonly incomplete_details?: { readonly reason?: string } | null
  readonly usage?: Usage | null
  readonly output_text?: string
  readonly previous_response_id?: string | null
}

// ---------------------------------------------------------------------------
// stream events
// ---------------------------------------------------------------------------

/**
 * An event carrying the whole response: `response.created`,
 * `response.in_progress`, `response.queued`, and the terminal
 * `response.completed`, `response.incomplete`, `response.failed`.
 *
 * @since 0.1.0
 */
export interface ResponseEvent {
  readonly type:
    | "response.created"
    | "response.in_progress"
    | "response.queued"
    | "response.completed"
    | "response.incomplete"
    | "response.failed"
  readonly response: Response
  readonly sequence_number?: number
}

/** @since 0.1.0 */
export interface OutputItemEvent {
  readonly type: "response.output_item.added" | "response.output_item.done"
  readonly output_index: number
  readonly item: OutputItem
  readonly sequence_number?: number
}

/** @since 0.1.0 */
export interface ContentPartEvent {
  readonly type: "response.content_part.added" | "response.content_part.done"
  readonly output_index: number
  readonly content_index: number
  readonly item_id?: string
  readonly part: ContentPart
  readonly sequence_number?: number
}

/**
 * A piece of text for a content part (`output_text`, `refusal`,
 * `reasoning_text`) or a reasoning summary part.
 *
 * @since 0.1.0
 */
export interface TextDeltaEvent {
  readonly type: "response.output_text.delta" | "response.refusal.delta" | "response.reasoning_text.delta" | "response.reasoning_summary_text.delta"
  readonly output_index: number
  readonly content_index?: number
  readonly summary_index?: number
  readonly item_id?: string
  readonly delta: string
  readonly sequence_number?: number
}

/**
 * The whole text of a part, replacing what the deltas gave.
 *
 * @since 0.1.0
 */
export interface TextDoneEvent {
  readonly type: "response.output_text.done" | "response.reasoning_text.done" | "response.reasoning_summary_text.done"
  readonly output_index: number
  readonly content_index?: number
  readonly summary_index?: number
  readonly item_id?: string
  readonly text: string
  readonly sequence_number?: number
}

/** @since 0.1.0 */
export interface RefusalDoneEvent {
  readonly type: "response.refusal.done"
  readonly output_index: number
  readonly content_index: number
  readonly item_id?: string
  readonly refusal: string
  readonly sequence_number?: number
}

/** @since 0.1.0 */
export interface AnnotationAddedEvent {
  readonly type: "response.output_text.annotation.added"
  readonly output_index: number
  readonly content_index: number
  readonly annotation_index: number
  readonly annotation: Annotation | null
  readonly item_id?: string
  readonly sequence_number?: number
}

/**
 * A piece of a function call's (or MCP call's) arguments JSON text.
 *
 * @since 0.1.0
 */
export interface ArgumentsDeltaEvent {
  readonly type: "response.function_call_arguments.delta" | "response.mcp_call_arguments.delta"
  readonly output_index: number
  readonly item_id?: string
  readonly delta: string
  readonly sequence_number?: number
}

/**
 * The whole arguments text, replacing what the deltas gave.
 *
 * @since 0.1.0
 */
export interface ArgumentsDoneEvent {
  readonly type: "response.function_call_arguments.done" | "response.mcp_call_arguments.done"
  readonly output_index: number
  readonly item_id?: string
  readonly arguments: string
  readonly name?: string
  readonly sequence_number?: number
}

/** @since 0.1.0 */
export interface ReasoningSummaryPartEvent {
  readonly type: "response.reasoning_summary_part.added" | "response.reasoning_summary_part.done"
  readonly output_index: number
  readonly summary_index: number
  readonly item_id?: string
  readonly part: { readonly type: string; readonly text: string }
  readonly sequence_number?: number
}

/**
 * The stream failed. The API sends the fields at the top level; some
 * servers nest them in `error`.
 *
 * @since 0.1.0
 */
export interface ErrorEvent {
  readonly type: "error"
  readonly code?: string | null
  readonly message?: string
  readonly param?: string | null
  readonly error?: { readonly type?: string; readonly code?: string | null; readonly message?: string } | null
  readonly sequence_number?: number
}

/**
 * Any other event (hosted tool progress, shell commands, custom tool input,
 * audio...).
 *
 * @since 0.1.0
 */
export interface OtherEvent {
  readonly type: string
}

/** @since 0.1.0 */
export type StreamEvent =
  | ResponseEvent
  | OutputItemEvent
  | ContentPartEvent
  | TextDeltaEvent
  | TextDoneEvent
  | RefusalDoneEvent
  | AnnotationAddedEvent
  | ArgumentsDeltaEvent
  | ArgumentsDoneEvent
  | ReasoningSummaryPartEvent
  | ErrorEvent
  | OtherEvent
  | "[DONE]"
