/**
 * The OpenAI Chat Completions wire types that streaming needs: the
 * `chat.completion.chunk` events and the `chat.completion` response they
 * add up to.
 *
 * Written for this library, structurally compatible with the official
 * `openai` SDK (an SDK `ChatCompletionChunk` is accepted wherever a
 * `ChatCompletionChunk` is expected, an SDK `ChatCompletion` is a
 * `ChatCompletion` here); nothing here imports it. Fields the providers
 * add (Azure's `content_filter_results`, `prompt_filter_results`, another
 * server's `reasoning_content`) are not declared but are allowed, and the
 * accumulator carries them over. Enumerations the API keeps extending
 * (finish reasons, service tiers) are typed as `string`.
 *
 * @since 0.1.0
 */

/**
 * Token counts, sent in the last chunk when `stream_options.include_usage`
 * is set.
 *
 * @since 0.1.0
 */
export interface Usage {
  readonly prompt_tokens: number
  readonly completion_tokens: number
  readonly total_tokens: number
  readonly prompt_tokens_details?: {
    readonly cached_tokens?: number
    readonly audio_tokens?: number
    readonly image_tokens?: number
    readonly text_tokens?: number
    readonly cache_write_tokens?: number
  } | null
  readonly completion_tokens_details?: {
    readonly reasoning_tokens?: number
    readonly audio_tokens?: number
    readonly accepted_prediction_tokens?: number
    readonly rejected_prediction_tokens?: number
    readonly text_tokens?: number
  } | null
}

/**
 * One token's log probability.
 *
 * @since 0.1.0
 */
export interface TokenLogprob {
  readonly token: string
  readonly bytes: ReadonlyArray<number> | null
  readonly logprob: number
  readonly top_logprobs: ReadonlyArray<{ readonly token: string; readonly bytes: ReadonlyArray<number> | null; readonly logprob: number }>
}

/**
 * Log probabilities of a choice: of its content tokens, or of its refusal
 * tokens.
 *
 * @since 0.1.0
 */
export interface Logprobs {
  readonly content: ReadonlyArray<TokenLogprob> | null
  readonly refusal: ReadonlyArray<TokenLogprob> | null
}

// ---------------------------------------------------------------------------
// stream events
// ---------------------------------------------------------------------------

/**
 * A fragment of one tool call inside a chunk's `delta`, addressed by
 * `index`. `id`, `type` and the name usually come on the first fragment
 * only (some servers repeat them on every fragment, or send the name last);
 * `function.arguments` / `custom.input` are pieces of one text.
 *
 * @since 0.1.0
 */
export interface ToolCallDelta {
  readonly index: number
  readonly id?: string | null
  readonly type?: string | null
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null
  readonly custom?: { readonly name?: string | null; readonly input?: string | null } | null
}

/**
 * What one chunk adds to one choice's message.
 *
 * @since 0.1.0
 */
export interface Delta {
  readonly role?: string | null
  readonly content?: string | null
  readonly refusal?: string | null
  readonly tool_calls?: ReadonlyArray<ToolCallDelta> | null
  /** The deprecated single function call. */
  readonly function_call?: { readonly name?: string | null; readonly arguments?: string | null } | null
  readonly audio?: {
    readonly id?: string
    readonly data?: string
    readonly transcript?: string
    readonly expires_at?: number
  } | null
}

/**
 * One choice inside a chunk. Azure's trailing content-filter chunk has no
 * `delta`; an audio stream's last chunk may have no `finish_reason`.
 *
 * @since 0.1.0
 */
export interface ChunkChoice {
  readonly index: number
  readonly delta?: Delta
  readonly finish_reason?: string | null
  readonly logprobs?: Logprobs | null
}

/**
 * One `chat.completion.chunk` event. The last chunk of a stream with usage
 * has `choices: []` and a `usage`.
 *
 * @since 0.1.0
 */
export interface ChatCompletionChunk {
  readonly id: string
  readonly object: string
  readonly created: number
  readonly model: string
  readonly choices: ReadonlyArray<ChunkChoice>
  readonly system_fingerprint?: string | null
  readonly service_tier?: string | null
  readonly usage?: Usage | null
  /** Random padding against length side channels; never part of the response. */
  readonly obfuscation?: string
}

/**
 * What a Chat Completions stream carries: a chunk, or the `[DONE]` sentinel
 * that ends the SSE text.
 *
 * @since 0.1.0
 */
export type StreamEvent = ChatCompletionChunk | "[DONE]"

// ---------------------------------------------------------------------------
// the response
// ---------------------------------------------------------------------------

/**
 * A call of a function tool; `arguments` is the JSON text exactly as the
 * model produced it.
 *
 * @since 0.1.0
 */
export interface FunctionToolCall {
  readonly id: string
  readonly type: "function"
  readonly function: { readonly name: string; readonly arguments: string }
}

/**
 * A call of a custom (free-form input) tool.
 *
 * @since 0.1.0
 */
export interface CustomToolCall {
  readonly id: string
  readonly type: "custom"
  readonly custom: { readonly name: string; readonly input: string }
}

/**
 * A tool call of a completion's message: a function call, or a custom tool
 * call with free-form input.
 *
 * @since 0.1.0
 */
export type ToolCall = FunctionToolCall | CustomToolCall

/**
 * Audio output of a choice.
 *
 * @since 0.1.0
 */
export interface Audio {
  readonly id: string
  readonly data: string
  readonly transcript: string
  readonly expires_at: number
}

/**
 * A URL citation attached to a message.
 *
 * @since 0.1.0
 */
export interface Annotation {
  readonly type: string
  readonly url_citation?: { readonly start_index: number; readonly end_index: number; readonly title: string; readonly url: string }
}

/**
 * The message of a choice. `content` and `refusal` are `null` when none
 * arrived; `tool_calls` is absent when there are none.
 *
 * @since 0.1.0
 */
export interface Message {
  readonly role: string
  readonly content: string | null
  readonly refusal: string | null
  readonly tool_calls?: ReadonlyArray<ToolCall>
  readonly function_call?: { readonly name: string; readonly arguments: string } | null
  readonly audio?: Audio | null
  readonly annotations?: ReadonlyArray<Annotation>
}

/**
 * One choice of the response. `finish_reason` is `null` only in a snapshot
 * of a choice that has not finished.
 *
 * @since 0.1.0
 */
export interface Choice {
  readonly index: number
  readonly message: Message
  readonly finish_reason: string | null
  readonly logprobs: Logprobs | null
}

/**
 * A `chat.completion` response.
 *
 * @since 0.1.0
 */
export interface ChatCompletion {
  readonly id: string
  readonly object: "chat.completion"
  readonly created: number
  readonly model: string
  readonly choices: ReadonlyArray<Choice>
  readonly usage?: Usage | null
  readonly system_fingerprint?: string | null
  readonly service_tier?: string | null
}

// ---------------------------------------------------------------------------
// the request (what the request adapter writes; structurally assignable to the
// official SDK's `ChatCompletionMessageParam`, `ChatCompletionTool`, ...).
// Arrays are mutable here so that a converted request can be handed to the
// SDK as is. Fields a conversion kept from an earlier payload (a DeepSeek
// field, a server-specific option) are present at runtime beside these.
// ---------------------------------------------------------------------------

/**
 * A text content part.
 *
 * @since 0.1.0
 */
export interface TextPart {
  readonly type: "text"
  readonly text: string
}

/**
 * A refusal content part (assistant messages only).
 *
 * @since 0.1.0
 */
export interface RefusalPart {
  readonly type: "refusal"
  readonly refusal: string
}

/**
 * An image, by URL or `data:` URL.
 *
 * @since 0.1.0
 */
export interface ImagePart {
  readonly type: "image_url"
  readonly image_url: { readonly url: string; readonly detail?: "auto" | "low" | "high" | "original" }
}

/**
 * Audio input, base64-encoded.
 *
 * @since 0.1.0
 */
export interface AudioPart {
  readonly type: "input_audio"
  readonly input_audio: { readonly data: string; readonly format: "wav" | "mp3" }
}

/**
 * A file (a PDF), as a `data:` URL or an uploaded file id.
 *
 * @since 0.1.0
 */
export interface FilePart {
  readonly type: "file"
  readonly file: { readonly file_data?: string; readonly file_id?: string; readonly filename?: string }
}

/**
 * What a user message may hold.
 *
 * @since 0.1.0
 */
export type UserContentPart = TextPart | ImagePart | AudioPart | FilePart

/**
 * A system message.
 *
 * @since 0.1.0
 */
export interface SystemMessageParam {
  readonly role: "system"
  readonly content: string | Array<TextPart>
  readonly name?: string
}

/**
 * A developer message: a system message for reasoning models.
 *
 * @since 0.1.0
 */
export interface DeveloperMessageParam {
  readonly role: "developer"
  readonly content: string | Array<TextPart>
  readonly name?: string
}

/**
 * A user message.
 *
 * @since 0.1.0
 */
export interface UserMessageParam {
  readonly role: "user"
  readonly content: string | Array<UserContentPart>
  readonly name?: string
}

/**
 * An assistant message. `content` is `null` when it only calls tools (left
 * out when the message was read without it);
 * `reasoning_content` is what DeepSeek-style servers take back (written only
 * when asked for).
 *
 * @since 0.1.0
 */
export interface AssistantMessageParam {
  readonly role: "assistant"
  readonly content?: string | Array<TextPart | RefusalPart> | null
  readonly refusal?: string
  readonly tool_calls?: Array<ToolCall>
  readonly function_call?: { readonly name: string; readonly arguments: string }
  readonly audio?: { readonly id: string }
  readonly name?: string
  readonly reasoning_content?: string
  /** The reasoning text of vLLM, OpenRouter and Groq, which DeepSeek names `reasoning_content`. */
  readonly reasoning?: string
  /** The citations of the message's text (web search models'). */
  readonly annotations?: ReadonlyArray<Annotation>
}

/**
 * The result of one tool call.
 *
 * @since 0.1.0
 */
export interface ToolMessageParam {
  readonly role: "tool"
  readonly tool_call_id: string
  readonly content: string | Array<TextPart>
}

/**
 * The result of a deprecated `function_call`.
 *
 * @since 0.1.0
 */
export interface FunctionMessageParam {
  readonly role: "function"
  readonly name: string
  readonly content: string | null
}

/**
 * Any request message.
 *
 * @since 0.1.0
 */
export type MessageParam =
  | SystemMessageParam
  | DeveloperMessageParam
  | UserMessageParam
  | AssistantMessageParam
  | ToolMessageParam
  | FunctionMessageParam

/**
 * A function's definition.
 *
 * @since 0.1.0
 */
export interface FunctionDefinition {
  readonly name: string
  readonly description?: string
  readonly parameters?: { [key: string]: unknown }
  readonly strict?: boolean | null
}

/**
 * A function tool.
 *
 * @since 0.1.0
 */
export interface FunctionTool {
  readonly type: "function"
  readonly function: FunctionDefinition
}

/**
 * A custom tool (free-form text input).
 *
 * @since 0.1.0
 */
export interface CustomTool {
  readonly type: "custom"
  readonly custom: { readonly name: string; readonly description?: string }
}

/**
 * A tool definition.
 *
 * @since 0.1.0
 */
export type Tool = FunctionTool | CustomTool

/**
 * Which tool the model should call.
 *
 * @since 0.1.0
 */
export type ToolChoice =
  | "auto"
  | "none"
  | "required"
  | { readonly type: "function"; readonly function: { readonly name: string } }
  | { readonly type: "custom"; readonly custom: { readonly name: string } }

/**
 * The deprecated tool choice that goes with `functions`.
 *
 * @since 0.1.0
 */
export type FunctionCallChoice = "auto" | "none" | { readonly name: string }

/**
 * The shape of the answer.
 *
 * @since 0.1.0
 */
export type ResponseFormat =
  | { readonly type: "text" }
  | { readonly type: "json_object" }
  | {
    readonly type: "json_schema"
    readonly json_schema: {
      readonly name: string
      readonly description?: string
      readonly schema?: { [key: string]: unknown }
      readonly strict?: boolean | null
    }
  }

/**
 * A Chat Completions request body: the fields the request adapter writes,
 * plus (at runtime) the request's other fields kept in the request's
 * provider options (`temperature`, `stream`, ...).
 *
 * @since 0.1.0
 */
export interface RequestBody {
  readonly model?: string
  readonly messages: Array<MessageParam>
  readonly tools?: Array<Tool>
  readonly tool_choice?: ToolChoice
  readonly functions?: Array<FunctionDefinition>
  readonly function_call?: FunctionCallChoice
  readonly parallel_tool_calls?: boolean
  readonly response_format?: ResponseFormat
}
