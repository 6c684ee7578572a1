/**
 * The Gemini wire types that streaming needs: `streamGenerateContent`
 * sends a sequence of `GenerateContentResponse` chunks (as SSE `data`
 * lines with `alt=sse`), and the accumulated response has the same shape.
 *
 * Written for this library, structurally compatible with the official
 * `@google/genai` SDK (its `GenerateContentResponse`, `Candidate`,
 * `Content` and `Part` are accepted here); nothing here imports it. Fields
 * are optional, as in the API; enumerations (finish reasons, block
 * reasons) are `string`. Unknown fields are carried over by the
 * accumulator.
 *
 * @since 0.1.0
 */

/**
 * One piece of a streamed function-call argument (Vertex AI's
 * `streamFunctionCallArguments`): the value at `jsonPath`; a string with
 * `willContinue: true` continues in the next piece for the same path.
 *
 * @since 0.1.0
 */
export interface PartialArg {
  readonly jsonPath?: string
  readonly stringValue?: string
  readonly numberValue?: number
  readonly boolValue?: boolean
  readonly nullValue?: string
  readonly willContinue?: boolean
}

/**
 * A function call. `id` is set by newer models (match it in the
 * `functionResponse`); `partialArgs` and `willContinue` appear only while
 * the arguments stream, and the accumulator folds them into `args`.
 *
 * @since 0.1.0
 */
export interface FunctionCall {
  readonly id?: string
  readonly name?: string
  readonly args?: { readonly [key: string]: unknown }
  readonly partialArgs?: ReadonlyArray<PartialArg>
  readonly willContinue?: boolean
}

/**
 * One part of a content. A part holds one kind of data (`text`,
 * `functionCall`, `inlineData`...) plus part-level fields: `thought` marks
 * thinking text, `thoughtSignature` must be sent back exactly on the part
 * it came with.
 *
 * @since 0.1.0
 */
export interface Part {
  readonly text?: string
  readonly thought?: boolean
  readonly thoughtSignature?: string
  readonly functionCall?: FunctionCall
  readonly functionResponse?: { readonly id?: string; readonly name?: string; readonly response?: { readonly [key: string]: unknown } }
  readonly inlineData?: { readonly mimeType?: string; readonly data?: string; readonly displayName?: string }
  readonly fileData?: { readonly mimeType?: string; readonly fileUri?: string; readonly displayName?: string }
  readonly executableCode?: { readonly language?: string; readonly code?: string }
  readonly codeExecutionResult?: { readonly outcome?: string; readonly output?: string }
}

/**
 * A turn's content: its role (`user` or `model`) and its parts.
 *
 * @since 0.1.0
 */
export interface Content {
  readonly role?: string
  readonly parts?: ReadonlyArray<Part>
}

/**
 * A candidate answer. `finishReason` is absent until the candidate's last
 * chunk.
 *
 * @since 0.1.0
 */
export interface Candidate {
  readonly content?: Content
  readonly finishReason?: string
  readonly finishMessage?: string
  readonly index?: number
  readonly tokenCount?: number
  readonly avgLogprobs?: number
  readonly safetyRatings?: ReadonlyArray<unknown>
  readonly citationMetadata?: { readonly citations?: ReadonlyArray<unknown> }
  readonly groundingMetadata?: unknown
  readonly urlContextMetadata?: unknown
  readonly logprobsResult?: unknown
}

/**
 * Token counts of a response: the prompt, the candidates, the thoughts, the
 * cached part of the prompt and the tool-use prompt.
 *
 * @since 0.1.0
 */
export interface UsageMetadata {
  readonly promptTokenCount?: number
  readonly candidatesTokenCount?: number
  readonly totalTokenCount?: number
  readonly thoughtsTokenCount?: number
  readonly cachedContentTokenCount?: number
  readonly toolUsePromptTokenCount?: number
}

/**
 * A `generateContent` response, and each chunk of `streamGenerateContent`.
 *
 * @since 0.1.0
 */
export interface GenerateContentResponse {
  readonly candidates?: ReadonlyArray<Candidate>
  readonly promptFeedback?: { readonly blockReason?: string; readonly blockReasonMessage?: string; readonly safetyRatings?: ReadonlyArray<unknown> }
  readonly usageMetadata?: UsageMetadata
  readonly modelVersion?: string
  readonly responseId?: string
  readonly createTime?: string
}

/**
 * An error reported inside the stream (the body of a Google API error).
 *
 * @since 0.1.0
 */
export interface ErrorChunk {
  readonly error: { readonly code?: number; readonly message?: string; readonly status?: string; readonly details?: ReadonlyArray<unknown> }
}

/**
 * One chunk of a `streamGenerateContent` stream: a partial response, or an
 * error.
 *
 * @since 0.1.0
 */
export type StreamEvent = GenerateContentResponse | ErrorChunk

// ---------------------------------------------------------------------------
// request bodies (written by the adapter, `Gemini`)
//
// The API takes each field in lowerCamelCase or in snake_case (proto3 JSON).
// The adapter writes lowerCamelCase, except the fields it read in snake_case,
// which it writes back so: those are the snake_case members below.
// ---------------------------------------------------------------------------

/**
 * Inline file bytes (base64) or a file by URI, as the adapter writes them.
 *
 * @since 0.1.0
 */
export interface BlobParam {
  mimeType?: string
  data?: string
  displayName?: string
  mime_type?: string
  display_name?: string
}

/**
 * A file given by URI in a request part.
 *
 * @since 0.1.0
 */
export interface FileDataParam {
  mimeType?: string
  fileUri?: string
  displayName?: string
  mime_type?: string
  file_uri?: string
  display_name?: string
}

/**
 * A part as the adapter writes it. Parts the model keeps as sent
 * (`executableCode`, `codeExecutionResult`, kinds added after this library)
 * carry their own fields.
 *
 * @since 0.1.0
 */
export interface PartParam {
  text?: string
  thought?: boolean
  thoughtSignature?: string
  functionCall?: FunctionCallParam
  functionResponse?: FunctionResponseParam
  inlineData?: BlobParam
  fileData?: FileDataParam
  thought_signature?: string
  function_call?: FunctionCallParam
  function_response?: FunctionResponseParam
  inline_data?: BlobParam
  file_data?: FileDataParam
}

/**
 * A function call as the adapter writes it.
 *
 * @since 0.1.0
 */
export interface FunctionCallParam {
  id?: string
  name?: string
  args?: { [key: string]: unknown }
}

/**
 * A function response as the adapter writes it, with the files of the
 * result in `parts`.
 *
 * @since 0.1.0
 */
export interface FunctionResponseParam {
  id?: string
  name?: string
  response?: { [key: string]: unknown }
  parts?: Array<{ inlineData?: BlobParam; fileData?: FileDataParam; inline_data?: BlobParam; file_data?: FileDataParam }>
}

/**
 * A content as the adapter writes it: role `user` or `model`, and parts.
 *
 * @since 0.1.0
 */
export interface ContentParam {
  role: string
  parts: Array<PartParam>
}

/**
 * A conversation in Gemini's shape: the system instruction and the
 * contents.
 *
 * @since 0.1.0
 */
export interface Messages {
  systemInstruction?: ContentParam
  system_instruction?: ContentParam
  contents: Array<ContentParam>
}

/**
 * What the adapter reads: a system instruction (a content, or plain text)
 * and contents (the official SDK's `Content` fits).
 *
 * @since 0.1.0
 */
export interface MessagesLike {
  readonly systemInstruction?: Content | string | undefined
  readonly contents: ReadonlyArray<Content>
}

/**
 * A function declaration: its parameters as JSON Schema
 * (`parametersJsonSchema`), or in Gemini's OpenAPI subset (`parameters`).
 *
 * @since 0.1.0
 */
export interface FunctionDeclarationParam {
  name: string
  description?: string
  parametersJsonSchema?: unknown
  parameters?: { [key: string]: unknown }
}

/**
 * One entry of a request's `tools`: function declarations, or a tool Gemini
 * runs (`googleSearch`, `codeExecution`, `urlContext`, ...).
 *
 * @since 0.1.0
 */
export interface ToolParam {
  functionDeclarations?: Array<FunctionDeclarationParam>
  [key: string]: unknown
}

/**
 * A `generateContent` request body. Fields the model does not name
 * (`safetySettings`, `cachedContent`, most of `generationConfig`...) are
 * written back from `Request.providerOptions.gemini` as they were read.
 *
 * @since 0.1.0
 */
export interface RequestBody {
  contents: Array<ContentParam>
  systemInstruction?: ContentParam
  tools?: Array<ToolParam>
  toolConfig?: { functionCallingConfig?: { mode?: string; allowedFunctionNames?: Array<string> }; [key: string]: unknown }
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: unknown; [key: string]: unknown }
  [key: string]: unknown
}

/**
 * A request body the adapter reads.
 *
 * @since 0.1.0
 */
export interface RequestBodyLike {
  readonly contents?: ReadonlyArray<Content> | undefined
  readonly systemInstruction?: Content | string | undefined
}
