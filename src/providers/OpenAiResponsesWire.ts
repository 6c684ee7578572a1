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

/**
 * Text in an output message, with its annotations.
 *
 * @since 0.1.0
 */
export interface OutputText {
  readonly type: "output_text"
  readonly text: string
  readonly annotations: ReadonlyArray<Annotation>
  readonly logprobs?: ReadonlyArray<unknown>
}

/**
 * The model declined to answer, in an output message.
 *
 * @since 0.1.0
 */
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

/**
 * A part of an output message: text, a refusal, or another kind as sent.
 *
 * @since 0.1.0
 */
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

/**
 * An item of a response's `output`: a message, a function call, a custom tool
 * call, a reasoning item, or another kind as sent.
 *
 * @since 0.1.0
 */
export type OutputItem = OutputMessage | FunctionCall | CustomToolCall | ReasoningItem | OtherItem

/**
 * Token counts of a response, with the cached part of the input and the
 * reasoning part of the output.
 *
 * @since 0.1.0
 */
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

/**
 * An output item was added (as it starts) or is done (complete).
 *
 * @since 0.1.0
 */
export interface OutputItemEvent {
  readonly type: "response.output_item.added" | "response.output_item.done"
  readonly output_index: number
  readonly item: OutputItem
  readonly sequence_number?: number
}

/**
 * A content part of a message item was added or is done.
 *
 * @since 0.1.0
 */
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

/**
 * A refusal part is complete.
 *
 * @since 0.1.0
 */
export interface RefusalDoneEvent {
  readonly type: "response.refusal.done"
  readonly output_index: number
  readonly content_index: number
  readonly item_id?: string
  readonly refusal: string
  readonly sequence_number?: number
}

/**
 * An annotation (a citation) was added to an output text part.
 *
 * @since 0.1.0
 */
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

/**
 * A summary part of a reasoning item was added or is done.
 *
 * @since 0.1.0
 */
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

/**
 * Any event of a Responses stream (the official SDK's `ResponseStreamEvent`
 * fits), or the `[DONE]` sentinel.
 *
 * @since 0.1.0
 */
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

// ---------------------------------------------------------------------------
// request bodies: input items, tools (written by the adapter, `OpenAiResponses`)
// ---------------------------------------------------------------------------

/**
 * Text in a user, system or developer message.
 *
 * @since 0.1.0
 */
export interface InputText {
  type: "input_text"
  text: string
}

/**
 * An image by URL (https or a `data:` URL) or by uploaded file id.
 * `detail` is always written (`"auto"` when the block has none), as the SDK
 * type requires.
 *
 * @since 0.1.0
 */
export interface InputImage {
  type: "input_image"
  detail: "auto" | "low" | "high" | "original"
  image_url?: string
  file_id?: string
}

/**
 * A file (a PDF, a text document...) inline as a `data:` URL, by URL, or by
 * uploaded file id.
 *
 * @since 0.1.0
 */
export interface InputFile {
  type: "input_file"
  file_data?: string
  file_id?: string
  file_url?: string
  filename?: string
  /** How a PDF's page images are read. */
  detail?: "auto" | "low" | "high"
}

/**
 * A part of an input message: text, an image, or a file.
 *
 * @since 0.1.0
 */
export type InputContent = InputText | InputImage | InputFile

/**
 * A message given as input: user, system and developer messages, and
 * assistant text that has no output item id (the API's "easy" message).
 * `content` is a string when it is one plain text.
 *
 * @since 0.1.0
 */
export interface InputMessage {
  role: "user" | "assistant" | "system" | "developer"
  content: string | Array<InputContent>
  type?: "message"
}

/**
 * One of the four citation kinds of `output_text.annotations`.
 *
 * @since 0.1.0
 */
export type OutputAnnotation =
  | { type: "file_citation"; file_id: string; filename: string; index: number }
  | { type: "url_citation"; url: string; title: string; start_index: number; end_index: number }
  | { type: "container_file_citation"; container_id: string; file_id: string; filename: string; start_index: number; end_index: number }
  | { type: "file_path"; file_id: string; index: number }

/**
 * An assistant output message replayed as input, with its item id.
 *
 * @since 0.1.0
 */
export interface OutputMessageParam {
  type: "message"
  id: string
  role: "assistant"
  status: "in_progress" | "completed" | "incomplete"
  content: Array<{ type: "output_text"; text: string; annotations: Array<OutputAnnotation> } | { type: "refusal"; refusal: string }>
}

/**
 * A function call replayed as input.
 *
 * @since 0.1.0
 */
export interface FunctionCallParam {
  type: "function_call"
  call_id: string
  name: string
  arguments: string
  id?: string
}

/**
 * The output of a function call: a string, or text, images and files.
 *
 * @since 0.1.0
 */
export interface FunctionCallOutputParam {
  type: "function_call_output"
  call_id: string
  output: string | Array<InputContent>
  id?: string
}

/**
 * A reasoning item replayed as input: its id, summary parts, reasoning text
 * parts and encrypted content (needed when responses are not stored).
 *
 * @since 0.1.0
 */
export interface ReasoningParam {
  type: "reasoning"
  id: string
  summary: Array<{ type: "summary_text"; text: string }>
  content?: Array<{ type: "reasoning_text"; text: string }>
  encrypted_content?: string
  status?: "in_progress" | "completed" | "incomplete"
}

/**
 * An item written back as it was read: a hosted tool call (web search,
 * file search, code interpreter, MCP, image generation) or any item type
 * the model has no type for.
 *
 * @since 0.1.0
 */
export interface KeptItem {
  type: string
  id?: string
}

/**
 * An input item the adapter writes.
 *
 * @since 0.1.0
 */
export type InputItem = InputMessage | OutputMessageParam | FunctionCallParam | FunctionCallOutputParam | ReasoningParam | KeptItem

/**
 * An input item the adapter reads: any object with a `type` or a `role`
 * (the official SDK's `ResponseInputItem` and `ResponseOutputItem` fit).
 *
 * @since 0.1.0
 */
export interface InputItemLike {
  readonly type?: string | null | undefined
  readonly role?: string | null | undefined
}

/**
 * A function tool definition.
 *
 * @since 0.1.0
 */
export interface FunctionTool {
  type: "function"
  name: string
  parameters: { [key: string]: unknown } | null
  strict: boolean | null
  description?: string
}

/**
 * Which tool the model should call: a mode, one function or custom tool by
 * name, an MCP server by its label, or a hosted tool by its type
 * (`{ type: "web_search_preview" }`); other forms, such as an allowed-tools
 * list, are kept as sent.
 *
 * @since 0.1.0
 */
export type ToolChoiceParam =
  | "auto"
  | "none"
  | "required"
  | { type: "function"; name: string }
  | { type: "custom"; name: string }
  | { type: "mcp"; server_label: string; name?: string | null }
  | { type: string }

/**
 * The `text.format` setting: plain text, any JSON object, or JSON matching
 * a schema.
 *
 * @since 0.1.0
 */
export type TextFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; name: string; schema: { [key: string]: unknown }; description?: string; strict?: boolean | null }

/**
 * A Responses request body. Fields the model does not name (`temperature`,
 * `reasoning`, `include`, `store`, `stream`...) are written back from
 * `Request.providerOptions["openai-responses"]` as they were read.
 *
 * @since 0.1.0
 */
export interface RequestBody {
  model?: string
  /** Left out only when the request was read from a body without it (one that continues a stored response, conversation or prompt) and still has no messages. */
  input?: Array<InputItem>
  instructions?: string
  tools?: Array<FunctionTool | KeptItem>
  tool_choice?: ToolChoiceParam
  parallel_tool_calls?: boolean
  text?: { format?: TextFormat; [key: string]: unknown }
  [key: string]: unknown
}

/**
 * A request body the adapter reads (the official SDK's
 * `ResponseCreateParams` fits).
 *
 * @since 0.1.0
 */
export interface RequestBodyLike {
  readonly input?: string | ReadonlyArray<InputItemLike> | null | undefined
  readonly model?: string | null | undefined
}
