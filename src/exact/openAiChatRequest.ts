/**
 * The exact prompt tokens of an OpenAI Chat Completions request: what the
 * API will report as `usage.prompt_tokens`, counted before the request is
 * sent, with gpt-tokenizer's o200k_base or cl100k_base encoding.
 *
 * Everything the model sees is counted: each message's content and framing,
 * participant names, tool calls and results, the tool definitions (rendered
 * as a TypeScript namespace, often most of a short request), the tool choice
 * and the reply priming. Special-token text in a message counts as ordinary
 * text, never a reason to throw; a malformed request is counted as far as it
 * can be read, never rejected (in a body built in code, a getter or proxy
 * that throws, a cycle or a value that is not JSON is left out).
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import {
  type ChatEncoding,
  type ChatRequestLike,
  type ChatRequestTokens,
  countChatRequest,
  encodingForModel,
  type PromptFormat
} from "../internal/openAiChatPrompt.js"
import { readableJson } from "../internal/json.js"
import { loadTextCounter, type TokenizerUnavailable } from "./tokenizer.js"

export type {
  ChatEncoding,
  ChatFunctionCallLike,
  ChatFunctionDefinitionLike,
  ChatMessageLike,
  ChatRequestLike,
  ChatRequestTokens,
  ChatToolCallLike,
  ChatToolLike,
  PromptFormat
} from "../internal/openAiChatPrompt.js"
export { encodingForModel, promptFormatForModel } from "../internal/openAiChatPrompt.js"

/**
 * Options of `countOpenAiChatRequest`. By default both the encoding and the
 * prompt format follow the request's `model` (or `model` here, when the
 * request has none).
 *
 * @since 0.1.0
 */
export interface CountChatRequestOptions {
  /** The model the request is for, when the request body does not say. */
  readonly model?: string
  /** The encoding to count with; default: `encodingForModel(model)`. */
  readonly encoding?: ChatEncoding
  /** The prompt layout; default: `promptFormatForModel(model)`. */
  readonly format?: PromptFormat
}

/**
 * The prompt tokens of an OpenAI Chat Completions request, exactly as the API
 * counts them, with a breakdown of where they go.
 *
 * **When to use**
 *
 * Before sending a request (the Effect loads gpt-tokenizer's vocabulary on
 * first use and fails with `TokenizerUnavailable` when it is not installed): to check it fits the context window, to budget
 * tool definitions (a few tools often cost more than the conversation), or to
 * show a user where the tokens go.
 *
 * **Details**
 *
 * The encoding follows the model: o200k for gpt-4o, gpt-4.1, gpt-5 and the
 * o-series, cl100k for gpt-4 and gpt-3.5. The count matches the API's
 * `usage.prompt_tokens` on the public recorded requests for both encodings
 * (2023–24), and on 944 of 963 requests recorded in 2024–26 without parallel
 * calls (the gpt-4o, gpt-4.1 and gpt-5 families, the o-series, gpt-3.5-turbo
 * and gpt-4; every one with a `json_schema` response format),
 * including nested, enum, array and optional parameters, descriptions,
 * defaults, `none` / `auto` / named tool choice, legacy `functions` /
 * `function_call`, participant names, tool calls and their results. An
 * image given inline (a base64 `data:` URL) costs what the model charges for
 * its pixel size, read from the image's header (tiles or patches, as OpenAI
 * documents them and recorded figures confirm); one given by URL, whose size
 * is not known here, counts a flat 85 tokens (its low-detail cost). A PDF
 * given inline (a `file` part's `file_data`) is an estimate, not an exact
 * count, as OpenAI does not publish its rule: a page-sized image at high
 * detail for each page (765 on gpt-4o) and the text its pages show, both
 * read from the file (600 tokens a page when the text cannot be read); a
 * file given by id counts nothing. A
 * `json_schema` response format is a section of the system prompt (its schema
 * as compact JSON escaped to ASCII, without `required`, defaults and bounds),
 * and every assistant reply under it is addressed to the format by name.
 *
 * @example Counting a request with one tool
 * ```ts
 * import { Effect } from "effect"
 * import { countOpenAiChatRequest } from "effect-agent-messages/exact"
 *
 * const program = Effect.gen(function*() {
 *   const tokens = yield* countOpenAiChatRequest({
 *     model: "gpt-4o",
 *     messages: [{ role: "user", content: "What's the weather in Oslo?" }],
 *     tools: [{
 *       type: "function",
 *       function: {
 *         name: "get_weather",
 *         description: "Current weather for a city",
 *         parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 *       }
 *     }]
 *   })
 *   console.log(tokens.total) // what usage.prompt_tokens will say
 *   console.log(tokens.tools) // the definitions' share
 * })
 * ```
 *
 * @category counting
 * @since 0.1.0
 */
export const countOpenAiChatRequest = (
  request: ChatRequestLike,
  options: CountChatRequestOptions = {}
): Effect.Effect<ChatRequestTokens, TokenizerUnavailable> =>
  Effect.suspend(() => {
    // a body that is not an object (a JSON null) is an empty request: a malformed one is counted as far as it can be
    // read, and so is one built in code with parts that cannot be read (a throwing getter, a proxy, a cycle)
    const readable = readableJson(request)
    const body: ChatRequestLike = typeof readable === "object" && readable !== null && !Array.isArray(readable) ? readable as ChatRequestLike : {}
    const model = options.model ?? (typeof body.model === "string" ? body.model : undefined)
    const encoding = options.encoding ?? encodingForModel(model)
    const format = options.format
    return loadTextCounter(encoding).pipe(
      Effect.map((count) =>
        countChatRequest(
          model === undefined || body.model !== undefined ? body : { ...body, model },
          count,
          format === undefined ? {} : { format }
        )
      )
    )
  })
