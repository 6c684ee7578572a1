/**
 * What an OpenAI Chat Completions request costs in prompt tokens, counted the
 * way the API counts `usage.prompt_tokens`: from the text the model really
 * sees, not from the JSON that was sent.
 *
 * The API turns a request into one token sequence. Each message becomes
 * `<|start|>{header}<|message|>{body}<|end|>`: three special tokens, a header
 * (the role, `role:name` for a participant name, the bare function name for a
 * tool or function result, `assistant to=functions.{name}` for a tool call)
 * and a body (the content, or a call's JSON arguments). Tool definitions are
 * rendered as a TypeScript namespace appended to the first message when it is
 * a system message (after a blank line), or sent as a system message of their
 * own. The sequence ends with the reply priming: `<|start|>assistant<|message|>`
 * (3 tokens) when the model may only write text, `<|start|>assistant` (2) when
 * it may choose a tool itself, and `<|start|>assistant to=functions.{name}<|message|>`
 * when a tool choice names the function.
 *
 * Everything here is tokenizer-independent: the rendering produces texts and
 * counts of special tokens, and the count is a function of a
 * `countText: (text) => number`. With gpt-tokenizer's exact encodings the
 * total equals the API's `usage.prompt_tokens` on the public recorded requests
 * (see `test/fixtures/requestTokens.test.ts`); with a heuristic text
 * estimator it is an estimate of the same quantity.
 *
 * Internal notes (how the rules were found, against 108 recorded requests
 * with the API's figure, plus a forum thread's parallel-call figures):
 * - per message 3 special tokens + header + body; a name is `role:name`;
 * - tools: "# Tools\n\n## functions\n\nnamespace functions {\n\n...\n} // namespace functions";
 *   joined to a first system message's content with "\n\n" and tokenized with it;
 * - auto / absent tool choice with tools primes 2 tokens, "none" 3, a named
 *   choice 3 + the recipient " to=functions.{name}" (+3 in the current format);
 * - the June 2023 snapshots (…-0613) indent nested object properties by two
 *   spaces and drop their descriptions; the current format does neither;
 * - a property's `default` is a trailing `// default: {json}` comment;
 * - parallel calls are one `multi_tool_use.parallel` call with a JSON
 *   `tool_uses` array, and their results' contents are JSON strings, or, for
 *   a result that is a JSON object or array, that JSON as Python's
 *   `json.dumps` writes it (from 2025–26 recordings of gpt-4o-mini).
 *
 * From 999 requests of 2024–26 with the API's figure (test/data/openai-chat-usage,
 * which now holds 1,202):
 * - a property's `title` is a comment line above its description, separated
 *   by an empty `//` line; a description is trimmed, then each comment line,
 *   and an empty one is `//`;
 * - an object none of whose properties has a comment or a default is written
 *   on one line, `{ a: string, b?: number }` (this also explains five 2024
 *   cl100k figures that were one token under the block layout);
 * - on the o200k models a tool call's arguments are compact JSON and each
 *   single call costs 3 tokens more (85 round trips, always 3); parallel
 *   calls cost what they render to, not 8 more as on the cl100k models;
 * - a `$ref` is its definition, written in place; on the o200k models the
 *   definition's title and description are the comment of a property that
 *   has none of its own;
 * - on the o200k models a union member with a `format` is its JSON;
 * - on the o200k models an array whose items are written on more than one
 *   line is `Array<`, the items' title and description as comment lines,
 *   the block and `>`, each on lines of its own (4 recorded requests whose
 *   items are a titled definition were 5 under as `{ ... }[]`; the layout
 *   is the one ChatGPT's published tool prompts show);
 * - an inline image costs the model's price for its pixel size (see
 *   `imageSize.ts`); every recorded request with one counts exactly. An
 *   image given by URL, whose size the request does not show, is priced as
 *   the estimator prices it (85 at low detail, else 765) or, when the model
 *   charges more for a 1024×1024 image, at that price;
 * - the gpt-5 family writes the definitions as a message of their own, 81
 *   tokens over their rendering, costs each single call 9 more and primes a
 *   named tool choice as `auto`; the reasoning models prime a text-only reply
 *   with 2 tokens;
 * - the gpt-5 family costs an assistant message of text 2 tokens more (found
 *   on the 203 requests of ten more suites added later as a check: gpt-5.4
 *   conversations with 1 to 3 replies);
 * - today's cl100k snapshots (0125) count a single call as gpt-4o does;
 * - a `json_schema` response format is its schema as ASCII-escaped compact
 *   JSON without the keywords the model is not shown, and each assistant
 *   reply under it is addressed to the format by name (all 122 recorded),
 *   the reply to come too but on the gpt-5 family (gpt-5.4's 3 recorded
 *   requests with a format).
 *
 * Estimates, not exact counts: a PDF given inline costs the text its pages
 * show, read from the file, and on Chat Completions a page-sized image a
 * page (`openAiChatPdfTokens`; recorded requests were billed less for the
 * images); on Responses the images only where the file's detail reads them
 * (`openAiResponsesPdfTokens`; before GPT-5.6 the default reads none, as 25
 * recorded requests show). Audio given inline costs its duration at 10
 * tokens a second (one recording: 44 billed for 4.49 seconds).
 *
 * @internal
 */

import { absurd } from "effect/Function"
import { type ImageSize, imageSizeOfDataUrl, openAiImagePartTokens } from "./imageSize.js"
import { audioSecondsOfBase64, audioTokens, OPENAI_AUDIO_TOKENS_PER_SECOND } from "./audio.js"
import { base64DataUrlParts } from "./dataUrl.js"
import { decodeBase64Text } from "./base64.js"
import { isTextDocument } from "./mediaType.js"
import type { Schema } from "effect"
import { depthError, stringify } from "./json.js"
import { isRecord, mapSubschemas, OMIT } from "./jsonSchema.js"
import { openAiChatPdfTokens, openAiResponsesPdfTokens, pdfFactsOfBase64, type PdfFacts } from "./pdf.js"
import { gpt5Minor } from "./openAiModels.js"
import { compactSentArgs } from "./toolArgs.js"

/** A tool call as `compactSentArgs` reads it: its arguments, and the text it was read with. */
type ToolCallLike = Parameters<typeof compactSentArgs>[0]

// ---------------------------------------------------------------------------
// input shapes
// ---------------------------------------------------------------------------

/**
 * A function call as an assistant message carries it (`function_call`, or
 * `tool_calls[].function`): the name and the JSON arguments as a string.
 *
 * @since 0.1.0
 */
export interface ChatFunctionCallLike {
  readonly name?: unknown
  readonly arguments?: unknown
}

/**
 * One entry of an assistant message's `tool_calls`.
 *
 * @since 0.1.0
 */
export interface ChatToolCallLike {
  readonly id?: unknown
  readonly type?: unknown
  readonly function?: ChatFunctionCallLike | undefined
  /** A custom tool's call (`type: "custom"`): its name and its free-form input, counted as a function's arguments. */
  readonly custom?: { readonly name?: unknown; readonly input?: unknown } | undefined
}

/**
 * A Chat Completions message of any role (`system`, `developer`, `user`,
 * `assistant`, `tool`, `function`), as sent. `content` is a string, or an
 * array of parts (`{ type: "text", text }`, `{ type: "refusal", refusal }`,
 * `{ type: "image_url", ... }`). Other fields are ignored.
 *
 * @since 0.1.0
 */
export interface ChatMessageLike {
  readonly role?: unknown
  readonly content?: unknown
  readonly name?: unknown
  readonly tool_calls?: ReadonlyArray<ChatToolCallLike> | null | undefined
  readonly function_call?: ChatFunctionCallLike | null | undefined
  readonly tool_call_id?: unknown
}

/**
 * A function definition: in `functions`, or in `tools[].function`. The
 * `parameters` are JSON Schema; anything the renderer does not recognise is
 * rendered as `any`.
 *
 * @since 0.1.0
 */
export interface ChatFunctionDefinitionLike {
  readonly name?: unknown
  readonly description?: unknown
  readonly parameters?: unknown
}

/**
 * An entry of `tools`: `{ type: "function", function: {...} }`.
 *
 * @since 0.1.0
 */
export interface ChatToolLike {
  readonly type?: unknown
  readonly function?: ChatFunctionDefinitionLike | undefined
}

/**
 * An OpenAI Chat Completions request body, or the part of it that reaches
 * the prompt: the official SDK's `ChatCompletionCreateParams` is one. Every
 * field is read defensively, so a request decoded from any JSON can be
 * counted without validating it first; fields that do not reach the prompt
 * (`temperature`, `max_tokens`...) are ignored.
 *
 * @since 0.1.0
 */
export interface ChatRequestLike {
  readonly model?: unknown
  readonly messages?: ReadonlyArray<ChatMessageLike> | undefined
  readonly tools?: ReadonlyArray<ChatToolLike> | null | undefined
  readonly tool_choice?: unknown
  readonly functions?: ReadonlyArray<ChatFunctionDefinitionLike> | null | undefined
  readonly function_call?: unknown
  readonly response_format?: unknown
}

// ---------------------------------------------------------------------------
// formats
// ---------------------------------------------------------------------------

/**
 * How a model snapshot lays out its prompt.
 *
 * - `"current"`: the o200k models before gpt-5 (gpt-4o, gpt-4.1, o-series):
 *   a tool call's arguments are re-serialized as compact JSON, and each single
 *   tool call costs 3 tokens more than its rendering (from 2025–26 recordings).
 * - `"gpt-5"`: the gpt-5 family: as `"current"`, but the tool definitions are
 *   a message of their own after an 81-token preamble the request does not
 *   show, each single tool call costs 9 tokens more than its rendering, and
 *   a named tool choice costs what `"auto"` does.
 * - `"0125"`: the cl100k models of the tools API from the January 2024
 *   snapshots on (gpt-3.5-turbo-0125, which the `gpt-3.5-turbo` alias names,
 *   gpt-4-0125-preview, gpt-4-turbo): the same definitions; a single tool
 *   call as on `"current"` (compact arguments, 3 tokens more than its
 *   rendering: 5 of 5 recordings of 2024–26), parallel calls as on `"1106"`
 *   (not recorded).
 * - `"1106"`: the November 2023 snapshots of the tools API
 *   (gpt-3.5-turbo-1106, gpt-4-1106-preview, gpt-4-vision-preview, and
 *   Azure's `gpt-35-turbo` deployments, whose version the name does not
 *   tell): the same definitions, a call's arguments as sent, and parallel
 *   calls 8 tokens above their rendering (from 2023–24 figures).
 * - `"0613"`: the June 2023 function-calling snapshots (gpt-3.5-turbo-0613,
 *   gpt-4-0613, which the `gpt-4` alias still names): nested object properties
 *   are indented and lose their descriptions, and a named function choice
 *   costs only its recipient.
 * - `"0301"`: gpt-3.5-turbo-0301: four framing tokens per message, and a
 *   participant name replaces the role.
 *
 * @since 0.1.0
 */
export type PromptFormat = "current" | "gpt-5" | "0125" | "1106" | "0613" | "0301"

/**
 * The tokenizer encoding of a model: `"o200k"` (o200k_base) or `"cl100k"` (cl100k_base).
 *
 * @since 0.1.0
 */
export type ChatEncoding = "o200k" | "cl100k"

/** The bare model name: lower case, without a fine-tune prefix (`ft:`) or a router's vendor prefix (`openai/`). */
const bareModel = (model: string): string => {
  let m = model.trim().toLowerCase()
  if (m.startsWith("ft:")) m = m.slice(3)
  const slash = m.lastIndexOf("/")
  return slash >= 0 ? m.slice(slash + 1) : m
}

/**
 * The encoding of a model name: cl100k for gpt-4 (but not gpt-4o, gpt-4.1 or
 * gpt-4.5) and gpt-3.5 (also Azure's `gpt-35-turbo`), o200k for everything
 * else (gpt-4o, gpt-4.1, gpt-5, the o-series, and models we do not know).
 *
 * @example
 * encodingForModel("gpt-4o-mini") // "o200k"
 * encodingForModel("gpt-4-0613") // "cl100k"
 *
 * @since 0.1.0
 */
export const encodingForModel = (model: string | undefined): ChatEncoding => {
  if (model === undefined) return "o200k"
  const m = bareModel(model)
  if (m.startsWith("gpt-3.5") || m.startsWith("gpt-35")) return "cl100k"
  if (m.startsWith("gpt-4") && !/^gpt-4(o|\.\d|-?o)/.test(m)) return "cl100k"
  return "o200k"
}

/**
 * The prompt format of a model name. Aliases resolve to what they name
 * today: `gpt-4` is gpt-4-0613, `gpt-3.5-turbo` is gpt-3.5-turbo-0125.
 *
 * @example
 * promptFormatForModel("gpt-4o-mini") // "current"
 * promptFormatForModel("gpt-5-mini") // "gpt-5"
 * promptFormatForModel("gpt-3.5-turbo") // "0125"
 * promptFormatForModel("gpt-3.5-turbo-1106") // "1106"
 * promptFormatForModel("gpt-3.5-turbo-0613") // "0613"
 *
 * @since 0.1.0
 */
export const promptFormatForModel = (model: string | undefined): PromptFormat => {
  if (model === undefined) return "current"
  const m = bareModel(model)
  if (m.includes("-0301")) return "0301"
  if (m.includes("-0613") || m.includes("-0314") || m === "gpt-4" || m === "gpt-4-32k") return "0613"
  if (m.startsWith("gpt-5")) return "gpt-5"
  if (encodingForModel(m) === "o200k") return "current"
  return m.includes("-1106") || m.includes("vision-preview") || m.startsWith("gpt-35") ? "1106" : "0125"
}

/** Whether a format is one of the tools API's (`"current"`, `"gpt-5"`, `"0125"`, `"1106"`), not a June 2023 or older one. */
const isToolsApiFormat = (format: PromptFormat): boolean => format !== "0613" && format !== "0301"

/** Whether a format is one of the o200k models'. */
const isO200kFormat = (format: PromptFormat): boolean => format === "current" || format === "gpt-5"

/** Whether a format counts a single tool call's arguments compact and with a surcharge (the o200k models' and `"0125"`). */
const hasCallSurcharge = (format: PromptFormat): boolean => isO200kFormat(format) || format === "0125"

/**
 * Whether a model opens its reply with `<|start|>assistant` (2 tokens) even
 * when it may only write text: the reasoning models (gpt-5, o3, o4), whose
 * requests without tools count one token under the 3-token priming of the
 * others on 2025–26 recordings (o1-mini's does not).
 */
const isReasoningModel = (model: string | undefined): boolean => {
  if (model === undefined) return false
  const m = bareModel(model)
  return m.startsWith("gpt-5") || /^o[3-9]/.test(m)
}

// ---------------------------------------------------------------------------
// rendering
// ---------------------------------------------------------------------------

/**
 * One `<|start|>header<|message|>body<|end|>` unit of the prompt: its special
 * tokens, its header text and its body text. `extra` counts tokens that are
 * known without a tokenizer (an image's fixed cost, a measured constant). A
 * unit with no special tokens and no header continues the body of the one
 * before it (the results of a parallel call on the o200k models: one turn,
 * one piece of it for each result message).
 *
 * @since 0.1.0
 */
export interface PromptTurn {
  readonly special: number
  readonly header: string
  readonly body: string
  readonly extra: number
  /**
   * The name the turn is addressed to, counted apart from the header (see
   * `renderChatRequest`: an assistant reply under a `json_schema` response
   * format), or `""`.
   */
  readonly recipient: string
}

/**
 * A request rendered into what the model sees.
 *
 * - `messages[i]`: the turns of input message `i` (an assistant message with
 *   text and a tool call is two turns);
 * - `tools`: the rendered definitions block (`# Tools ...`), or `""`;
 * - `toolsHost`: the index of the message whose body the block is appended
 *   to (after `"\n\n"`), or `-1` when the block is a system message of its own;
 * - `toolsExtra`: tokens the definitions cost beyond their rendering (the
 *   gpt-5 family's preamble), 0 for other models or without definitions;
 * - `responseFormat`: the rendered `json_schema` response format, or `""`
 *   (appended like the tools block);
 * - `formatFramed`: whether a response format with neither a system message
 *   nor tool definitions to carry it is framed as a system message of its
 *   own (not on the Responses API for the gpt-5 family);
 * - `priming`: the unit that opens the reply.
 *
 * @since 0.1.0
 */
export interface RenderedChatPrompt {
  readonly format: PromptFormat
  readonly messages: ReadonlyArray<ReadonlyArray<PromptTurn>>
  readonly tools: string
  readonly toolsHost: number
  readonly toolsExtra: number
  readonly responseFormat: string
  readonly formatFramed: boolean
  readonly priming: PromptTurn
}

/** Options of the renderer. */
export interface RenderOptions {
  /** The prompt format; default: `promptFormatForModel(model)`. */
  readonly format?: PromptFormat
  /**
   * Render as the Responses API does: its input is a list of items, so each
   * function call is a turn of its own (no `multi_tool_use.parallel` call,
   * and their results are plain text), an assistant message with empty
   * text is still a turn, and an assistant message is not addressed to the
   * text format (4 recorded gpt-4o requests, Mirascope's, were 3 over with
   * ` to=` and the format's name; Chat Completions shows them).
   */
  readonly responses?: boolean
  /** The model, when the request does not name it (a reasoning model primes its reply with 2 tokens). */
  readonly model?: string
}

const asString = (u: unknown): string => (typeof u === "string" ? u : u === undefined || u === null ? "" : jsonText(u))

/**
 * JSON text of any value, never throwing (cycles and BigInts become `"[unserializable]"`); a value too deep for
 * V8's own `JSON.stringify` is written by an explicit stack, so that what it costs is counted.
 */
const jsonText = (u: unknown): string => {
  try {
    return JSON.stringify(u) ?? ""
  } catch (cause) {
    if (!(cause instanceof RangeError)) return "[unserializable]"
  }
  try {
    return stringify(u as Schema.Json)
  } catch {
    return "[unserializable]"
  }
}

/**
 * What the request estimate measured of a file it wrote as a part (an
 * image's pixel size, a PDF's pages and text, a clip's seconds), so that the part
 * need not carry the data to be measured again. Kept beside the part, not
 * in it: a field of a request body given as JSON is never taken for it.
 */
export interface Measured {
  readonly size?: ImageSize
  readonly pdf?: PdfFacts
  readonly seconds?: number
}
const measured = new WeakMap<object, Measured>()

/** Tool calls of a Responses request that were output items of a stored response (they carry the item's id). */
const storedCalls = new WeakSet<object>()

/** `call`, noted as a Responses output item with its id (`RenderOptions.responses`). */
export const asStoredCall = <C extends object>(call: C): C => {
  storedCalls.add(call)
  return call
}

/**
 * The tool call block a call's `function` was written from, noted beside it
 * by the request estimate: its own reading of its argument text gives them
 * compacted (`compactSentArgs`) without parsing them again. Beside the
 * value, not in it: a body given as JSON carries none.
 */
const calledFrom = new WeakMap<object, ToolCallLike>()

/** `fn` (a call's `function`), with the block it was written from noted beside it. */
export const withCall = <F extends object>(fn: F, call: ToolCallLike): F => {
  calledFrom.set(fn, call)
  return fn
}

/** `part`, with what was measured of its file noted beside it. */
export const withMeasured = <P extends object>(part: P, m: Measured): P => {
  measured.set(part, m)
  return part
}

/**
 * What an image part costs (`openAiImagePartTokens`): for an image given
 * inline (a base64 `data:` URL, or measured: `withMeasured`) to a model whose
 * pricing is known, what the model charges for its size and detail; for one
 * whose size is not known (a URL), 85 tokens at low detail, else the larger
 * of 765 and the model's price for a 1024×1024 image.
 */
const imagePartTokens = (part: { readonly [key: string]: unknown }, model: string | undefined): number => {
  const image = part["image_url"]
  const url = typeof image === "string" ? image : isRecord(image) ? image["url"] : undefined
  const detail = isRecord(image) ? image["detail"] : part["detail"]
  const size = measured.get(part)?.size ?? (typeof url === "string" ? imageSizeOfDataUrl(url) : undefined)
  return openAiImagePartTokens(model === undefined ? undefined : bareModel(model), size, detail)
}

/**
 * What a file part costs: a PDF given inline (Chat's `file.file_data`, the
 * Responses API's `file_data`, a base64 `data:` URL; or measured)
 * its pages and text at `openAiChatPdfTokens` (the text and an image of each
 * page) or, for a Responses `input_file`, `openAiResponsesPdfTokens`
 * (the text, and the image where the file's detail reads one): estimates, as
 * OpenAI does not publish its rule for files; a file given
 * by id or URL, whose pages the request does not show, nothing.
 */
const filePartTokens = (part: { readonly [key: string]: unknown }, model: string | undefined): number => {
  const pdf = pdfPartFacts(part)
  if (pdf === undefined) return 0
  const bare = model === undefined ? undefined : bareModel(model)
  // a Responses input_file, whose detail says whether page images are read; Chat's file part has none and always has them
  return part["type"] === "input_file" ? openAiResponsesPdfTokens(pdf, bare, part["detail"]) : openAiChatPdfTokens(pdf, bare)
}

/** The text of the text document a file part holds as a base64 `data:` URL (`isTextDocument`), or `undefined`. */
const textOfFilePart = (part: { readonly [key: string]: unknown }): string | undefined => {
  const file = isRecord(part["file"]) ? part["file"] : part
  const data = file["file_data"]
  const parts = typeof data === "string" ? base64DataUrlParts(data) : undefined
  return parts === undefined || !isTextDocument(parts.mediaType) ? undefined : decodeBase64Text((data as string).slice(parts.dataStart))
}

/** The pages and text of the PDF a file part holds inline, or `undefined`. */
const pdfPartFacts = (part: { readonly [key: string]: unknown }): PdfFacts | undefined => {
  const given = measured.get(part)?.pdf
  if (given !== undefined) return given
  const file = isRecord(part["file"]) ? part["file"] : part
  const data = file["file_data"]
  const parts = typeof data === "string" ? base64DataUrlParts(data) : undefined
  // the media type may carry parameters ("application/pdf;name=report.pdf")
  return parts === undefined || parts.mediaType.split(";")[0]!.trim() !== "application/pdf" ? undefined : pdfFactsOfBase64(data as string, parts.dataStart)
}

/**
 * What an audio part costs: its duration at `OPENAI_AUDIO_TOKENS_PER_SECOND`
 * (an estimate: OpenAI does not publish its rule; it billed 44 audio tokens
 * for a 4.49-second clip that this prices at 45), from its measured seconds
 * or the clip's header in `input_audio.data`; nothing for a part without data.
 */
const audioPartTokens = (part: { readonly [key: string]: unknown }): number => {
  const audio = part["input_audio"]
  const data = isRecord(audio) ? audio["data"] : undefined
  const seconds = measured.get(part)?.seconds ?? (typeof data === "string" ? audioSecondsOfBase64(data) : 0)
  return audioTokens(seconds, OPENAI_AUDIO_TOKENS_PER_SECOND)
}

/** The text of a message's content (a string, or its text and refusal parts joined) and its non-text cost. */
const contentOf = (content: unknown, model: string | undefined): { readonly text: string; readonly extra: number } => {
  if (typeof content === "string") return { text: content, extra: 0 }
  if (!Array.isArray(content)) return { text: content === undefined || content === null ? "" : asString(content), extra: 0 }
  let text = ""
  let extra = 0
  for (const part of content as ReadonlyArray<unknown>) {
    if (typeof part === "string") text += part
    else if (isRecord(part)) {
      if (typeof part["text"] === "string") text += part["text"]
      else if (typeof part["refusal"] === "string") text += part["refusal"]
      else if (part["type"] === "image_url" || part["type"] === "input_image") extra += imagePartTokens(part, model)
      else if (part["type"] === "file" || part["type"] === "input_file") {
        // a text document given as data is read by its text
        const document = textOfFilePart(part)
        if (document !== undefined) text += document
        else extra += filePartTokens(part, model)
      }
      else if (part["type"] === "input_audio") extra += audioPartTokens(part)
    }
  }
  return { text, extra }
}

/**
 * Compact JSON of a call's arguments as the model wrote them: re-serialized when they parse, as-is when not; what
 * the block noted beside the call (`withCall`) gives when it knows them, so that text read once is not parsed again.
 */
const compactArguments = ({ args, from }: { readonly args: string; readonly from?: ToolCallLike | undefined }): string => {
  const noted = from && compactSentArgs(from, args)
  if (noted !== undefined) return noted
  // text nested deeper than V8's writer goes comes back as it is either way: not parsed (a million levels took a second)
  if (depthError(args) !== undefined) return args
  try {
    return JSON.stringify(JSON.parse(args))
  } catch {
    return args
  }
}

/**
 * JSON text with every character outside printable ASCII written as a
 * `\\uXXXX` escape, as Python's `json.dumps` writes it by default. The model
 * is shown parallel-call results and response format schemas so: an em dash
 * in a schema's description costs 3 tokens more than written (found on the 23
 * recorded requests whose schemas hold em dashes: exact with the escapes,
 * under by 3 per dash without).
 */
const asciiEscaped = (json: string): string => {
  let out = ""
  let start = 0
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i)
    if (c >= 0x7f) {
      out += json.slice(start, i) + "\\u" + c.toString(16).padStart(4, "0")
      start = i + 1
    }
  }
  return start === 0 ? json : out + json.slice(start)
}

/** A JSON string literal with every non-ASCII character escaped. */
const asciiJsonString = (text: string): string => asciiEscaped(JSON.stringify(text))

/** Whether a text is one JSON object or array (what a tool typically returns as structured output). */
const isJsonContainer = (text: string): boolean => {
  const t = text.trim()
  if (!(t.startsWith("{") && t.endsWith("}")) && !(t.startsWith("[") && t.endsWith("]"))) return false
  try {
    JSON.parse(t)
    return true
  } catch {
    return false
  }
}

/**
 * A JSON object or array re-serialized as Python's `json.dumps` does by
 * default: on one line, `", "` between items and `": "` after keys, strings
 * with every non-ASCII character escaped. Done on the text, not on a parsed
 * value, so that keys keep their order (JavaScript moves integer-like keys
 * first) and numbers their spelling. Only called on valid JSON. With
 * `ensureAscii` false, as `json.dumps(..., ensure_ascii=False)`: non-ASCII
 * characters stay as they are.
 */
export const pythonJsonDumps = (json: string, ensureAscii = true): string => {
  let out = ""
  // the text since the last change is copied in one piece: a character at a time took 0.8 s on 20 MB of indented JSON
  let run = 0
  let i = 0
  while (i < json.length) {
    const c = json.charCodeAt(i)
    if (c === 34) {
      // the string literal runs to the next quote that is not escaped; one of printable ASCII and the escapes both
      // JSON.stringify and json.dumps write back as they are (\" \\ \n \r \t \b \f) stays as written
      let j = i + 1
      let same = true
      for (let d = json.charCodeAt(j); d !== 34; d = json.charCodeAt(j)) {
        if (d === 92) {
          if (!'"\\nrtbf'.includes(json.charAt(j + 1))) same = false
          j += 2
        } else {
          if (d < 0x20 || (ensureAscii && d >= 0x7f)) same = false
          j++
        }
      }
      if (!same) {
        const value = JSON.parse(json.slice(i, j + 1)) as string
        out += json.slice(run, i) + (ensureAscii ? asciiJsonString(value) : JSON.stringify(value))
        run = j + 1
      }
      i = j + 1
    } else if (c === 44 || c === 58 || c === 32 || c === 10 || c === 13 || c === 9) {
      // `,` and `:` with a blank after them, the blanks between tokens left out
      if (run < i) out += json.slice(run, i)
      if (c === 44 || c === 58) out += c === 44 ? ", " : ": "
      run = ++i
    } else {
      i++
    }
  }
  return out + json.slice(run)
}

/**
 * The body of a result of a parallel call. The results of a
 * `multi_tool_use.parallel` call reach the model as JSON: a text as a JSON
 * string (non-ASCII escaped, except on gpt-4o: see
 * `keepsNonAsciiInParallelResults`), but a result that is itself a JSON object or
 * array as that JSON, re-serialized the way Python's `json.dumps` does by
 * default. Quoting a pretty-printed JSON result as a string instead counted
 * 1028 tokens too many on a recorded gpt-4o-mini request whose result is
 * 17 KB of indented JSON (the re-serialized form is within 14 of the API's
 * figure), and 10 too many on one with two small JSON results (now 6).
 */
const parallelResultBody = (text: string, ensureAscii: boolean): string =>
  isJsonContainer(text) ? pythonJsonDumps(text.trim(), ensureAscii) : ensureAscii ? asciiJsonString(text) : JSON.stringify(text)

/**
 * Whether a model reads its parallel calls' results with non-ASCII characters
 * as they are, not escaped: gpt-4o. On four gpt-4o (2024-08-06) requests of
 * three tests recorded in 2026 whose text results hold curly quotes and
 * dashes (3, 3, 6 and 23 of them), all four count exactly written as they
 * are, and escaped 9, 9, 14 and 58 over, in step with their number. On
 * gpt-4o-mini (one request, 185 of them in 260 KB of results) escaped is
 * exact and unescaped 535 under, so the other models keep the escapes.
 */
const keepsNonAsciiInParallelResults = (model: string | undefined): boolean =>
  model !== undefined && /^gpt-4o(-\d{4}-\d{2}-\d{2})?$/.test(bareModel(model))

/**
 * On the cl100k models, parallel calls cost 8 tokens more than their rendering
 * explains (measured on public API figures for 2, 3 and 4 parallel calls; the
 * cause is not visible), their results each a turn of its own. On the o200k
 * models a parallel call costs what a single one does beyond its rendering
 * (`TOOL_CALL_EXTRA`, `GPT5_TOOL_CALL_EXTRA`), its results being one turn
 * (`PARALLEL_RESULTS_AUTHOR`).
 */
const PARALLEL_CALL_OVERHEAD = 8

/**
 * On the o200k models the results of a parallel call reach the model as one
 * turn from `multi_tool_use.parallel`, its text the list of the results as
 * JSON (`[r1, r2]`, written as Python writes a list), as the call was one:
 * so rendered, with the single call's 3 tokens (9 on gpt-5), all 36 recorded
 * requests with parallel calls count exactly (2024–26: gpt-4o, gpt-4o-mini,
 * gpt-5-nano; 2 and 3 calls, of one tool and of several, results of text and
 * of JSON), where a turn for each result put 24 of them 2 under to 67 over.
 */
const PARALLEL_RESULTS_AUTHOR = "multi_tool_use.parallel"

/**
 * On the o200k models, a single tool call (with its result) costs 3 tokens
 * more than its rendering explains: constant over 85 recorded round trips of
 * gpt-4o, gpt-4o-mini, gpt-4.1-mini and gpt-4.1-nano (2025–26), whatever the
 * call, its arguments or its result; the cause is not visible. The same on
 * the cl100k snapshots from January 2024 on (gpt-3.5-turbo, 0125 as of
 * 2024–26, and gpt-4-0125-preview: 5 recorded round trips); not on the 1106
 * ones (a December 2023 figure).
 */
const TOOL_CALL_EXTRA = 3

/**
 * The same on the gpt-5 family: 9 (gpt-5, gpt-5-mini, gpt-5.4-mini; 2025–26).
 * On the Responses API too from GPT-5.2 on: gpt-5.2, gpt-5.4-nano and
 * gpt-5.6-terra, 21 recorded requests with calls and no reasoning items,
 * were 6 to 29 under with 3, about 7 tokens a call; with 9 (and
 * `INSTRUCTIONS_HEADING`) they are 1 over to 12 under, 18 of them within 4.
 * Two with reasoning items, whose length is
 * estimated, go from 1 and 9 over to 10 and 15. gpt-5 and gpt-5-mini, whose
 * recorded Responses calls nearly all come with reasoning items, keep 3.
 */
const GPT5_TOOL_CALL_EXTRA = 9

/**
 * On the Responses API from GPT-5.2 on, a system message (or instructions)
 * that carries the tool definitions costs 3 tokens more: what the heading
 * `# Instructions` and its blank line cost, which is how OpenAI's published
 * renderer (harmony) writes a developer message's instructions before its
 * tools. 10 recorded first turns with tools and a system message (gpt-5.2,
 * gpt-5.4, gpt-5.4-nano, gpt-5.5, gpt-5.6; two suites) were 2 or 3 under
 * without it and are exact or 1 over with it; the 18 of gpt-5.4-nano with
 * calls after them go from 3-15 to 0-12 under. gpt-5's three such requests
 * (with reasoning settings) were 1 or 2 under and are left as they are.
 */
const INSTRUCTIONS_HEADING = 3

/** GPT-5.2 and later. */
const isGpt52OrLater = (model: string | undefined): boolean => model !== undefined && (gpt5Minor(bareModel(model)) ?? 0) >= 2

/**
 * On the gpt-5 family, an assistant message of text in the conversation costs
 * 2 tokens more than its rendering explains: 6 recorded gpt-5.4 requests of
 * two tests (2026) with 1, 2 and 3 such messages were 2, 4 and 6 under
 * without it, a system or user message, a tool call and a response format
 * beside them being exact. Two tokens is what a channel mark before the body
 * (`<|channel|>final`) would cost; the request does not show it. The same on
 * the Responses API: the 15 recorded requests of the family with such a
 * message (gpt-5, gpt-5-mini, gpt-5.4-nano, gpt-5.5, gpt-5.6-terra; three
 * suites) were at least 2 under for each but two (one 1 under, a system
 * message after the reply; one whose reply comes with a call, which this
 * leaves alone there as on Chat); 5 of them are exact with it.
 */
const GPT5_ASSISTANT_TEXT_EXTRA = 2

/**
 * On the Responses API (gpt-4o, gpt-4o-mini, gpt-4.1), a function call item
 * is billed one of two ways. Sent without an item id, it is rendered from
 * the arguments as written (not re-serialized: `{"n": 100}` costs its blank)
 * and 1 token more: all 10 such recorded requests exact (two suites), where
 * Chat's rendering was 1 or 2 over. Sent with the id of a stored output item,
 * the API reads the stored item, whose cost the request cannot show:
 * compact arguments and 4 tokens more is exact on 32 of 40 recorded requests
 * with such calls one at a time (two suites; the others 2 under to 3 over,
 * and one request replayed with new item ids was billed 192, 195 and 197).
 * Two calls of one turn (one recorded request, replayed 6 times) come out 6
 * over. The gpt-5 family keeps Chat's rendering: compact arguments and 3
 * more (9 from GPT-5.2 on, as on Chat; see `GPT5_TOOL_CALL_EXTRA`).
 */
const RESPONSES_CALL_EXTRA = { sent: 1, stored: 4 } as const

/**
 * With tool definitions, the gpt-5 family's requests count 81 tokens more
 * than their rendering, the definitions written as a message of their own
 * (gpt-5, gpt-5-mini, gpt-5-nano, gpt-5.4-mini; 2025–26): a preamble the
 * request does not show. Requests none of whose tools is strict and that
 * hold no image count 1 less for each tool (19 recorded, all pinned: no
 * rendering found explains it, and the 5 with an image are exact).
 */
const GPT5_TOOLS_PREAMBLE = 81

/** A named tool choice in the current format costs 3 tokens more than its recipient. */
const NAMED_TOOL_CHOICE_EXTRA = 3

/**
 * How a turn's recipient is written after its header: ` to=` and the
 * recipient's name, each tokenized on its own (the name does not merge with
 * the `=`).
 */
const RECIPIENT_MARK = " to="

const turn = (special: number, header: string, body: string, extra = 0, recipient = ""): PromptTurn => ({ special, header, body, extra, recipient })

/** The function definitions of a request: `tools[].function` if any, else the legacy `functions`. */
const definitionsOf = (request: ChatRequestLike): ReadonlyArray<ChatFunctionDefinitionLike> => {
  const out: Array<ChatFunctionDefinitionLike> = []
  if (Array.isArray(request.tools)) {
    for (const tool of request.tools as ReadonlyArray<unknown>) {
      if (!isRecord(tool)) continue
      const fn = tool["function"]
      if (isRecord(fn)) out.push(fn)
      else {
        // A non-function tool (e.g. a custom tool): its name and description are what the model can be told.
        const custom = tool[asString(tool["type"])]
        if (isRecord(custom)) out.push({ name: custom["name"], description: custom["description"] })
      }
    }
  }
  if (out.length === 0 && Array.isArray(request.functions)) {
    for (const fn of request.functions as ReadonlyArray<unknown>) if (isRecord(fn)) out.push(fn)
  }
  return out
}

/** What the reply may do: write text only, choose freely, or call one named function. */
type Choice =
  | { readonly _tag: "Text" }
  | { readonly _tag: "Free" }
  | { readonly _tag: "Named"; readonly name: string; readonly legacy: boolean }

const choiceOf = (request: ChatRequestLike, hasDefinitions: boolean): Choice => {
  if (!hasDefinitions) return { _tag: "Text" }
  const useTools = Array.isArray(request.tools) && request.tools.length > 0
  const choice = useTools ? request.tool_choice : request.function_call
  if (choice === "none") return { _tag: "Text" }
  if (isRecord(choice)) {
    const fn = choice["function"]
    const name = isRecord(fn) ? fn["name"] : choice["name"]
    if (typeof name === "string") return { _tag: "Named", name, legacy: !useTools }
  }
  // "auto", "required", absent, or a shape we do not know: the model opens the reply itself.
  return { _tag: "Free" }
}

/**
 * Renders a request into the units the model sees.
 *
 * @example
 * renderChatRequest({ messages: [{ role: "user", content: "hello" }] }).messages[0]
 * // [{ special: 3, header: "user", body: "hello", extra: 0, recipient: "" }]
 *
 * @since 0.1.0
 */
export const renderChatRequest = (request: ChatRequestLike, options: RenderOptions = {}): RenderedChatPrompt => {
  const model = typeof request.model === "string" ? request.model : options.model
  const format = options.format ?? promptFormatForModel(model)
  const framing = format === "0301" ? 4 : 3
  const inputs: ReadonlyArray<unknown> = Array.isArray(request.messages) ? request.messages : []
  const definitions = definitionsOf(request)
  const tools = definitions.length > 0 ? renderFunctionNamespace(definitions, format) : ""
  const responseFormat = renderResponseFormat(request.response_format)
  // The gpt-5 family, on Chat (its own format) and on Responses (which renders its requests in the "current" one).
  const gpt5Family = format === "gpt-5" || promptFormatForModel(model) === "gpt-5"
  // Under a json_schema response format, every assistant reply is addressed to the format by name.
  const replyTo = responseFormat.length > 0 ? responseFormatName(request.response_format) : ""
  // The reply to come is too, except on the gpt-5 family (31 recorded requests of gpt-5.4, 5.4-mini, 5.4-nano and
  // 5.6-terra were 4 to 8 over with " to=" and the name, 3 to 4 tokens; on Chat, gpt-5.4's earlier replies are
  // addressed all the same: 2- and 3-turn conversations were exact with them).
  const primeTo = gpt5Family ? "" : replyTo

  // The Responses API's input is a list of items: each function call its own, an empty assistant message a turn.
  const itemwise = options.responses === true
  // A Responses function call item is billed its own way (`RESPONSES_CALL_EXTRA`), except on the gpt-5 family.
  const responsesCalls = itemwise && format === "current" && promptFormatForModel(model) === "current"
  const messages: Array<ReadonlyArray<PromptTurn>> = []
  // Tool results are headed by the name of the call they answer; calls are found by id.
  const callNames = new Map<string, string>()
  // the ids of each parallel call's calls, by id
  const parallelCalls = new Map<string, ReadonlySet<string>>()
  const nonAsciiResults = keepsNonAsciiInParallelResults(model)
  // On the o200k models the results of one parallel call are one turn (see `PARALLEL_RESULTS_AUTHOR`): the call whose
  // results the last message began or continued, and that message's index.
  const oneResultsTurn = isO200kFormat(format)
  let openResults: { readonly call: ReadonlySet<string>; readonly at: number } | undefined
  for (const input of inputs) {
    if (!isRecord(input)) {
      messages.push([])
      continue
    }
    const m = input as ChatMessageLike
    const role = typeof m.role === "string" ? m.role : "user"
    const { text, extra } = contentOf(m.content, model)
    const name = typeof m.name === "string" && m.name.length > 0 ? m.name : undefined
    const author = format === "0301" ? (name ?? role) : name === undefined ? role : `${role}:${name}`

    if (role === "tool") {
      const id = asString(m.tool_call_id)
      const call = parallelCalls.get(id)
      if (call === undefined) {
        messages.push([turn(framing, callNames.get(id) ?? name ?? "tool", text, extra)])
        continue
      }
      const body = parallelResultBody(text, !nonAsciiResults)
      if (!oneResultsTurn) {
        messages.push([turn(framing, callNames.get(id) ?? name ?? "tool", body, extra)])
        continue
      }
      // Each result is a piece of the list: the first opens the turn, the others carry their own text. The list is cut
      // after each comma, where the tokenizers' pre-split cuts it too, so the pieces cost what the list does.
      const previous = openResults !== undefined && openResults.call === call && openResults.at === messages.length - 1 ? messages[openResults.at]![0] : undefined
      if (previous === undefined) messages.push([turn(framing, PARALLEL_RESULTS_AUTHOR, `[${body}]`, extra)])
      else {
        messages[messages.length - 1] = [{ ...previous, body: `${previous.body.slice(0, -1)},` }]
        messages.push([turn(0, "", ` ${body}]`, extra)])
      }
      openResults = { call, at: messages.length - 1 }
      continue
    }
    if (role === "function") {
      messages.push([turn(framing, name ?? "function", text, extra)])
      continue
    }

    const calls: Array<{ readonly name: string; readonly args: string; readonly stored?: boolean; readonly from?: ToolCallLike | undefined }> = []
    let toolCalls = 0
    if (role === "assistant") {
      if (Array.isArray(m.tool_calls)) {
        for (const call of m.tool_calls as ReadonlyArray<unknown>) {
          if (!isRecord(call)) continue
          // a custom tool's call: its input is what the model wrote, as a function's arguments are
          const custom = !isRecord(call["function"]) && isRecord(call["custom"]) ? call["custom"] : undefined
          const fn = isRecord(call["function"]) ? call["function"] : custom === undefined ? {} : { name: custom["name"], arguments: custom["input"] }
          const callName = asString(fn["name"])
          calls.push({ name: callName, args: asString(fn["arguments"]), stored: storedCalls.has(call), from: calledFrom.get(fn) })
          toolCalls++
          if (typeof call["id"] === "string") callNames.set(call["id"], callName)
        }
        if (calls.length > 1 && !itemwise) {
          const ids = new Set<string>()
          for (const call of m.tool_calls as ReadonlyArray<unknown>) {
            if (isRecord(call) && typeof call["id"] === "string") ids.add(call["id"])
          }
          for (const id of ids) parallelCalls.set(id, ids)
        }
      }
      if (isRecord(m.function_call)) {
        calls.push({ name: asString(m.function_call["name"]), args: asString(m.function_call["arguments"]), from: calledFrom.get(m.function_call) })
      }
    }
    const recipient = role === "assistant" && !itemwise ? replyTo : ""
    if (calls.length === 0) {
      const channel = role === "assistant" && gpt5Family ? GPT5_ASSISTANT_TEXT_EXTRA : 0
      messages.push([turn(framing, author, text, extra + channel, recipient)])
      continue
    }
    const turns: Array<PromptTurn> = []
    if (text.length > 0 || extra > 0) turns.push(turn(framing, author, text, extra, recipient))
    // On Responses an assistant message item is a turn even when its text is empty (addressed to no format).
    else if (itemwise && typeof m.content === "string") turns.push(turn(framing, author, "", 0))
    if (calls.length === 1 || itemwise) {
      // The o200k and 0125 models see a tool call's arguments re-serialized compactly, and a few tokens more.
      // On Responses every function call is an item of its own: no multi_tool_use wrapper.
      for (const call of calls) {
        const header = `${author} to=functions.${call.name}`
        if (!hasCallSurcharge(format) || toolCalls === 0) turns.push(turn(framing, header, call.args))
        else if (!responsesCalls) turns.push(turn(framing, header, compactArguments(call), format === "gpt-5" || (itemwise && isGpt52OrLater(model)) ? GPT5_TOOL_CALL_EXTRA : TOOL_CALL_EXTRA))
        else if (call.stored === true) turns.push(turn(framing, header, compactArguments(call), RESPONSES_CALL_EXTRA.stored))
        else turns.push(turn(framing, header, call.args, RESPONSES_CALL_EXTRA.sent))
      }
    } else {
      let body = '{"tool_uses":['
      for (let i = 0; i < calls.length; i++) {
        const call = calls[i]!
        if (i > 0) body += ","
        body += `{"recipient_name":${JSON.stringify(`functions.${call.name}`)},"parameters":${compactArguments(call)}}`
      }
      body += "]}"
      const surcharge = format === "gpt-5" ? GPT5_TOOL_CALL_EXTRA : isO200kFormat(format) ? TOOL_CALL_EXTRA : PARALLEL_CALL_OVERHEAD
      turns.push(turn(framing, `${author} to=multi_tool_use.parallel`, body, surcharge))
    }
    messages.push(turns)
  }

  const first = inputs[0]
  const firstRole = isRecord(first) ? first["role"] : undefined
  // The gpt-5 family's definitions are a message of their own, whatever comes first.
  const ownMessage = format === "gpt-5" && definitions.length > 0
  const toolsHost = !ownMessage && (firstRole === "system" || firstRole === "developer") ? 0 : -1
  const toolsExtra = definitions.length === 0
    ? 0
    : format === "gpt-5"
    ? GPT5_TOOLS_PREAMBLE
    : itemwise && toolsHost >= 0 && isGpt52OrLater(model)
    ? INSTRUCTIONS_HEADING
    : 0

  const choice = choiceOf(request, definitions.length > 0)
  let priming: PromptTurn
  switch (choice._tag) {
    case "Text":
      priming = turn(isReasoningModel(model) ? 1 : 2, "assistant", "", 0, primeTo)
      break
    case "Free":
      priming = turn(1, "assistant", "")
      break
    case "Named":
      // The gpt-5 family primes a named tool choice as a free one (2 recorded requests, two names: as with "auto"; on
      // Responses, which renders its requests in the "current" format, 2 more).
      priming = (format === "gpt-5" || promptFormatForModel(model) === "gpt-5") && !choice.legacy
        ? turn(1, "assistant", "")
        : turn(2, `assistant to=functions.${choice.name}`, "", choice.legacy || !isToolsApiFormat(format) ? 0 : NAMED_TOOL_CHOICE_EXTRA)
      break
    default:
      return absurd(choice)
  }
  // On Responses the gpt-5 family's response format with no system message to carry it is no message of its own (23
  // recorded requests of gpt-5.4-mini and 5.6-terra without instructions or a system message were 4 over with one).
  const formatFramed = !(itemwise && gpt5Family)
  return { format, messages, tools, toolsHost, toolsExtra, responseFormat, formatFramed, priming }
}

// ---------------------------------------------------------------------------
// the functions namespace
// ---------------------------------------------------------------------------

/** The fixed opening of the tool definitions block (9 tokens in both o200k and cl100k). */
export const TOOLS_HEAD = "# Tools\n\n## functions\n\nnamespace functions {\n\n"

/** The fixed closing of the tool definitions block (4 tokens in both o200k and cl100k). */
export const TOOLS_TAIL = "} // namespace functions"

/**
 * The tool definitions block as the model sees it:
 *
 * ```text
 * # Tools
 *
 * ## functions
 *
 * namespace functions {
 *
 * // Get the weather
 * type get_weather = (_: {
 * // The city
 * city: string,
 * unit?: "c" | "f",
 * }) => any;
 *
 * // Look a word up
 * type lookup = (_: { word: string, limit?: number }) => any;
 *
 * } // namespace functions
 * ```
 *
 * In the tools API's formats (`"current"`, `"gpt-5"`, `"0125"`, `"1106"`) a property's comment is
 * its JSON Schema `title` and `description`, separated by an empty comment
 * line; every comment line is trimmed, and an empty one is a bare `//`; an
 * object none of whose properties has a comment or a default is written on
 * one line. (Found on 2025–26 recordings: with them the definitions of 75 of
 * 92 recorded gpt-4o-family requests count exactly, against 23 without; and
 * the one-line objects explain five 2024 cl100k figures that were 1 token
 * off.)
 *
 * On the o200k models (`"current"`, `"gpt-5"`) the definitions also show
 * the parameters' `title` above the function's description (a paragraph of
 * its comment), the parameters' `description` as a comment line before the
 * object's brace (where OpenAI's published renderer, harmony, writes an
 * object's description), and a referenced definition's `title` and
 * `description` as the comment of a property that has none of its own
 * (the description found on a Mirascope recording). (Found on 2025–26
 * Responses recordings: every gpt-4o-family request whose definitions carry
 * such titles was 3 to 17 tokens under without them, and every gpt-5 one
 * with a parameters description 16 to 34 under; the only two Chat
 * Completions recordings with a parameters title, 32 under before, are 16
 * under with it. Older formats are left as they were: no recording shows
 * them.)
 *
 * On the o200k models, too, an array whose items are written on more than
 * one line is `Array<` on a line of its own, the items' own title and
 * description as comment lines (before the brace, as the parameters'
 * description), the items, and `>` on a line of its own; items written on
 * one line stay `T[]`. (4 recorded gpt-4o-mini requests whose items are a
 * `$ref` to a titled definition were 5 under as `{ ... }[]`, and are exact
 * so; the layout is the one ChatGPT's published tool prompts show.)
 *
 * @since 0.1.0
 */
export const renderFunctionNamespace = (
  definitions: ReadonlyArray<ChatFunctionDefinitionLike>,
  format: PromptFormat = "current"
): string => {
  const titles = isO200kFormat(format)
  let out = TOOLS_HEAD
  for (const fn of definitions) {
    if (!isRecord(fn)) continue
    const params = fn["parameters"]
    // the function's comment is written like a property's: the parameters' title (o200k), then the description
    out += commentLines(propertyComment({ title: titles && isRecord(params) ? params["title"] : undefined, description: fn["description"] }, format), "", format)
    const name = asString(fn["name"])
    const properties = isRecord(params) ? params["properties"] : undefined
    if (isRecord(properties) && Object.keys(properties).length > 0) {
      // the parameters' own description, as OpenAI's published renderer (harmony) writes an object's: a comment before its brace
      const objectComment = titles ? commentLines((params as JsonSchema)["description"], "", format) : ""
      out += `type ${name} = (_: ${objectComment}${renderObject(params as JsonSchema, 0, 0, schemaContext(format, params as JsonSchema))}) => any;\n\n`
    } else {
      out += `type ${name} = () => any;\n\n`
    }
  }
  return out + TOOLS_TAIL
}

type JsonSchema = { readonly [key: string]: unknown }

/**
 * `// text` lines (one per line of `text`), or nothing for an absent or empty
 * text. In the tools API's formats the text is trimmed first (a description
 * that starts or ends with a line break gets no empty comment line for it:
 * 4 recorded gpt-4o requests with such a 3,600-token description were 2
 * over with them), each line is trimmed and an empty line is a bare `//`;
 * the June 2023 formats keep lines as they are.
 */
const commentLines = (text: unknown, indent: string, format: PromptFormat): string => {
  if (typeof text !== "string") return ""
  const trim = isToolsApiFormat(format)
  const body = trim ? text.trim() : text
  if (body.length === 0) return ""
  let out = ""
  for (const raw of body.split("\n")) {
    const line = trim ? raw.trim() : raw
    out += trim && line.length === 0 ? `${indent}//\n` : `${indent}// ${line}\n`
  }
  return out
}

/** A property's comment: its description, and in the tools API's formats its title before it. */
const propertyComment = (p: JsonSchema, format: PromptFormat): string => {
  const description = typeof p["description"] === "string" ? p["description"] : ""
  if (!isToolsApiFormat(format)) return description
  const title = typeof p["title"] === "string" ? p["title"] : ""
  return title.length > 0 && description.length > 0 ? `${title}\n\n${description}` : title + description
}

/** What rendering a schema needs besides the schema: the prompt format and the root schema that `$ref`s point into. */
interface SchemaContext {
  readonly format: PromptFormat
  readonly root: JsonSchema
  /** The references being expanded on the current path: one met again is a cycle, rendered as `any`. */
  readonly expanding: ReadonlySet<string>
  /** How many more schemas may be rendered: references can multiply a small schema without bound, so past this each is its JSON text. */
  readonly budget: { left: number }
}

/** At most this many schemas are rendered for one function's parameters. */
const SCHEMA_BUDGET = 20_000

const schemaContext = (format: PromptFormat, root: JsonSchema): SchemaContext => ({
  format,
  root,
  expanding: new Set(),
  budget: { left: SCHEMA_BUDGET }
})

/**
 * A property's schema for its comment: on the o200k formats, a referenced
 * definition's title and description stand in for those the property does
 * not have itself (a recorded gpt-4o request whose `$ref` names a described
 * definition was 7 under without its description).
 */
const commentSchema = (p: JsonSchema, ctx: SchemaContext): JsonSchema => {
  if (!isO200kFormat(ctx.format) || typeof p["$ref"] !== "string") return p
  const definition = resolveRef(ctx.root, p["$ref"])
  if (definition === undefined) return p
  let out = p
  for (const key of ["title", "description"] as const) {
    const value = definition[key]
    if (typeof out[key] !== "string" && typeof value === "string") out = { ...out, [key]: value }
  }
  return out
}

/** A JSON pointer token of a URI fragment, percent-decoded; `undefined` for a malformed escape (`%`, `%E0%A4`), which names nothing. */
const pointerToken = (raw: string): string | undefined => {
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    return undefined
  }
  return decoded.replace(/~1/g, "/").replace(/~0/g, "~")
}

/** The schema a local JSON pointer (`#/$defs/Name`) names in `root`, or `undefined`. */
const resolveRef = (root: JsonSchema, ref: string): JsonSchema | undefined => {
  if (!ref.startsWith("#/")) return undefined
  let at: unknown = root
  for (const raw of ref.slice(2).split("/")) {
    const key = pointerToken(raw)
    if (key === undefined || !isRecord(at) || !Object.hasOwn(at, key)) return undefined
    at = at[key]
  }
  return isRecord(at) ? at : undefined
}

/** Schemas nested deeper than this render as their JSON text: a guard against pathological schemas. */
const MAX_NESTING = 64

/**
 * An object type. In the tools API's formats it is `{ a: T, b?: U }` on one
 * line when no property has a comment or a default and no type spans lines;
 * else a block with one property per line (its comment lines above it, its
 * default after it). Each property's type is rendered once, whichever layout
 * it ends in. `depth` is the object nesting (for the June 2023 format's
 * indentation), `nesting` every level of schema recursion (for the guard).
 */
const renderObject = (schema: JsonSchema, depth: number, nesting: number, ctx: SchemaContext): string => {
  const properties = schema["properties"]
  if (!isRecord(properties)) return "{\n}"
  const required = new Set<unknown>(Array.isArray(schema["required"]) ? (schema["required"] as ReadonlyArray<unknown>) : [])
  const toolsApi = isToolsApiFormat(ctx.format)
  const entries = Object.keys(properties).map((key) => {
    const prop = properties[key]
    const p: JsonSchema = isRecord(prop) ? prop : {}
    return {
      head: `${key}${required.has(key) ? "" : "?"}: ${renderType(p, depth, nesting + 1, ctx)}`,
      comment: propertyComment(commentSchema(p, ctx), ctx.format),
      schema: p
    }
  })
  if (toolsApi && entries.every((e) => e.comment.length === 0 && !("default" in e.schema) && !e.head.includes("\n"))) {
    return `{ ${entries.map((e) => e.head).join(", ")} }`
  }
  // The June 2023 format indents nested properties and drops their descriptions.
  const indent = toolsApi ? "" : " ".repeat(2 * depth)
  let out = "{\n"
  for (const { comment, head, schema: p } of entries) {
    if (toolsApi || depth === 0) out += commentLines(comment, indent, ctx.format)
    out += `${indent}${head},`
    if ("default" in p) out += ` // default: ${jsonText(p["default"])}`
    out += "\n"
  }
  return out + "}"
}

const literal = (value: unknown): string => (typeof value === "string" ? JSON.stringify(value) : jsonText(value))

/**
 * The TypeScript type of a property schema: unions for enums and `anyOf`,
 * `T[]` for arrays (on the o200k formats `Array<` and `>` on lines of their own around items that span lines), a block for objects, local `$ref`s resolved against the
 * function's parameters (a reference cycle ends in `any` at the nesting guard). Other keywords (`const`, `format`,
 * `minimum`...) are not rendered: a `{ type: "string", const: "a" }` is a `string`; but on the o200k
 * formats a member of `anyOf` / `oneOf` that has a `format` is written as its JSON, as sent
 * (`{"format":"date","type":"string"} | null`: the two recorded requests with such members, a strict
 * tool's nullable dates, were 16 under as `string | null` and are exact so; a `format` outside a
 * union is not recorded and stays unrendered).
 */
const renderType = (schema: JsonSchema, depth: number, nesting: number, ctx: SchemaContext): string => {
  // (past the guards the rest is counted as the JSON text it is sent as, never as a bare `any`: a schema 10,000 levels
  // deep, 430 KB of it, once counted 177 tokens)
  if (nesting >= MAX_NESTING || --ctx.budget.left < 0) return jsonText(schema)
  const ref = schema["$ref"]
  if (typeof ref === "string") {
    // A local reference (`#/$defs/Name`, `#/definitions/Name`) is the schema it names, with the referring schema's own keywords over it.
    const target = ctx.expanding.has(ref) ? undefined : resolveRef(ctx.root, ref)
    if (target === undefined) return "any"
    const { $ref: _ref, ...own } = schema
    return renderType({ ...target, ...own }, depth, nesting + 1, { ...ctx, expanding: new Set([...ctx.expanding, ref]) })
  }
  const variants = Array.isArray(schema["anyOf"]) ? schema["anyOf"] : Array.isArray(schema["oneOf"]) ? schema["oneOf"] : undefined
  if (variants !== undefined && variants.length > 0) {
    return (variants as ReadonlyArray<unknown>)
      .map((v) => (isO200kFormat(ctx.format) && isRecord(v) && "format" in v ? jsonText(v) : renderType(isRecord(v) ? v : {}, depth, nesting + 1, ctx)))
      .join(" | ")
  }
  const enumValues = schema["enum"]
  if (Array.isArray(enumValues) && enumValues.length > 0) return (enumValues as ReadonlyArray<unknown>).map(literal).join(" | ")
  const type = schema["type"]
  if (Array.isArray(type)) {
    if (type.length === 0) return "any"
    return (type as ReadonlyArray<unknown>).map((t) => renderType({ ...schema, type: t }, depth, nesting + 1, ctx)).join(" | ")
  }
  switch (type) {
    case "string":
      return "string"
    case "number":
    case "integer":
      return "number"
    case "boolean":
      return "boolean"
    case "null":
      return "null"
    case "array": {
      const items = schema["items"]
      const inner = isRecord(items) ? renderType(items, depth, nesting + 1, ctx) : "any"
      // Items written on more than one line (o200k): `Array<`, the items' own comment, the items, `>`, each on lines of their own.
      return isRecord(items) && isO200kFormat(ctx.format) && inner.includes("\n")
        ? `Array<\n${commentLines(propertyComment(commentSchema(items, ctx), ctx.format), "", ctx.format)}${inner}\n>`
        : inner + "[]"
    }
    case "object": {
      const properties = schema["properties"]
      if (!isRecord(properties) || Object.keys(properties).length === 0) return "object"
      return renderObject(schema, depth + 1, nesting + 1, ctx)
    }
    default:
      return "any"
  }
}

// ---------------------------------------------------------------------------
// response format
// ---------------------------------------------------------------------------

/**
 * A `json_schema` response format as a prompt section: `# Response Formats`,
 * `## ` and the format's name, its description as `//` comment lines, and
 * the schema as compact JSON in the order given, without the keywords the
 * model is not shown (see {@link responseFormatSchema}); `""` for `text`,
 * `json_object` or anything else (`json_object` costs nothing, as counted).
 * Appended to the system message after a blank line (after the tool
 * definitions when there are any), or a system message of its own.
 */
const renderResponseFormat = (responseFormat: unknown): string => {
  if (!isRecord(responseFormat) || responseFormat["type"] !== "json_schema") return ""
  const spec = responseFormat["json_schema"]
  if (!isRecord(spec)) return ""
  const name = responseFormatName(responseFormat)
  const schema = spec["schema"] ?? {}
  return `# Response Formats\n\n## ${name}\n\n${commentLines(spec["description"], "", "current")}${asciiEscaped(jsonText(responseFormatSchema(schema)))}`
}

/** The name of a `json_schema` response format (`""` for anything else). */
const responseFormatName = (responseFormat: unknown): string => {
  const spec = isRecord(responseFormat) ? responseFormat["json_schema"] : undefined
  return isRecord(spec) ? asString(spec["name"]) : ""
}

/**
 * Keywords of a response format's schema that the model is not shown:
 * `required` and a boolean `additionalProperties` (which strict mode fixes
 * anyway), `default`, and the bounds `minimum`, `maximum` and `maxItems`.
 * Found on requests recorded in 2024–26 (26 formats, strict and not): with
 * them dropped, the schema escaped to ASCII and each reply addressed to the
 * format, all 122 count exactly; counting the schema as sent was over on
 * every one of the first 114, by 0.2% to 30%. Other keywords are kept; the
 * bounds not seen in a recording (`minItems`, `minLength`, `pattern`, ...)
 * are kept too, as the likelier guess is not known.
 */
const HIDDEN_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(["required", "default", "minimum", "maximum", "maxItems"])

/**
 * A response format's schema as the model is shown it: {@link HIDDEN_SCHEMA_KEYWORDS}
 * left out wherever a schema stands (never a property that happens to be
 * named `required` or `default`, nor anything inside `enum`, `const` or
 * `examples`). Bounded like the tool rendering: a schema met again on its own
 * path (a cyclic object) is written as `{}`, one nested deeper than
 * {@link MAX_NESTING} or past the first {@link SCHEMA_BUDGET} schemas as it is.
 */
const responseFormatSchema = (schema: unknown): unknown => {
  const path = new Set<unknown>()
  const budget = { left: SCHEMA_BUDGET }
  const visit = (node: unknown, nesting: number): unknown => {
    if (!isRecord(node)) return node
    if (path.has(node)) return {}
    // (the rest as it is sent, counted as its JSON text: see `renderType`)
    if (nesting > MAX_NESTING || budget.left <= 0) return node
    budget.left--
    path.add(node)
    const out = mapSubschemas(
      node,
      (sub) => visit(sub, nesting + 1),
      (key, value) => (HIDDEN_SCHEMA_KEYWORDS.has(key) || (key === "additionalProperties" && typeof value === "boolean") ? OMIT : value)
    )
    path.delete(node)
    return out
  }
  return visit(schema, 0)
}

// ---------------------------------------------------------------------------
// counting
// ---------------------------------------------------------------------------

/**
 * Where a request's prompt tokens go.
 *
 * - `messages[i]`: input message `i`, its framing (special tokens, role) included;
 * - `tools`: the tool definitions block, with the system message that carries
 *   it when the request has no system message of its own;
 * - `responseFormat`: the `json_schema` response format section;
 * - `framing`: the reply priming, including the effect of the tool choice
 *   and of a `json_schema` response format.
 *
 * `total` is the sum of all of them.
 *
 * @since 0.1.0
 */
export interface ChatRequestTokens {
  readonly total: number
  readonly messages: ReadonlyArray<number>
  readonly tools: number
  readonly responseFormat: number
  readonly framing: number
}

const turnTokens = (t: PromptTurn, count: (text: string) => number, header: (text: string) => number): number =>
  t.special + header(t.header) + (t.recipient.length > 0 ? header(RECIPIENT_MARK) + header(t.recipient) : 0) + count(t.body) + t.extra

/**
 * Counts a rendered prompt with `countText`, and its turn headers (roles,
 * authors, recipients: the renderer's fixed words and the names in them)
 * with `countHeader` (default: `countText`). An estimator can then price
 * the fixed words exactly without pricing a user's text that happens to be
 * one of them, which would make a longer text cheaper than its prefix.
 *
 * The tool block and the response format are tokenized together with the
 * message that carries them (BPE merges across the joint), and what they add
 * to that message is reported as their own share. `countSections` counts
 * that message's text and the sections appended to it (the blank line that
 * joins them first) as one text (default: `countText` of the two joined); an
 * estimator that counts the sections apart can keep the message's own text
 * from changing their price.
 *
 * @since 0.1.0
 */
export const countRenderedPrompt = (
  prompt: RenderedChatPrompt,
  countText: (text: string) => number,
  countHeader: (text: string) => number = countText,
  countSections: (message: string, sections: string) => number = (message, sections) => countText(message + sections)
): ChatRequestTokens => {
  const count = (text: string): number => (text.length === 0 ? 0 : countText(text))
  const header = (text: string): number => (text.length === 0 ? 0 : countHeader(text))
  const messages: Array<number> = []
  let total = 0
  for (const turns of prompt.messages) {
    let sum = 0
    for (const t of turns) sum += turnTokens(t, count, header)
    messages.push(sum)
    total += sum
  }
  const host = prompt.toolsHost >= 0 ? prompt.messages[prompt.toolsHost]?.[0] : undefined

  let tools = 0
  let responseFormat = 0
  if (prompt.tools.length > 0 || prompt.responseFormat.length > 0) {
    // Each section is appended after a blank line; the running counts give each its share.
    const body = host === undefined ? "" : host.body
    const join = host === undefined ? "" : "\n\n"
    // The host's body was counted with its message: recover that count instead of tokenizing it again.
    const before = host === undefined ? 0 : (messages[prompt.toolsHost] ?? 0) - host.special - header(host.header) - host.extra
    const withTools = prompt.tools.length > 0 ? countSections(body, join + prompt.tools) : before
    const toolsPart = prompt.tools.length > 0 ? join + prompt.tools + "\n\n" : join
    const withAll = prompt.responseFormat.length > 0 ? countSections(body, toolsPart + prompt.responseFormat) : withTools
    tools = withTools - before + (prompt.tools.length > 0 ? prompt.toolsExtra : 0)
    responseFormat = withAll - withTools
    // With no system message to carry them, the sections are a system message of their own.
    if (host === undefined) {
      const frame = (prompt.format === "0301" ? 4 : 3) + header("system")
      if (prompt.tools.length > 0) tools += frame
      else if (prompt.formatFramed) responseFormat += frame
    }
    total += tools + responseFormat
  }

  const framing = turnTokens(prompt.priming, count, header)
  total += framing
  return { total, messages, tools, responseFormat, framing }
}

/**
 * The prompt tokens of a Chat Completions request, counted with `countText`
 * (its headers with `countHeader`, the message carrying the tools and
 * the response format with `countSections`, as `countRenderedPrompt`).
 *
 * @example
 * countChatRequest({ messages: [{ role: "user", content: "hello" }] }, (t) => t.length)
 * // { total: 3 + 4 + 5 + 2 + 9, ... }  (with a character count as the "tokenizer")
 *
 * @since 0.1.0
 */
export const countChatRequest = (
  request: ChatRequestLike,
  countText: (text: string) => number,
  options: RenderOptions = {},
  countHeader: (text: string) => number = countText,
  countSections?: (message: string, sections: string) => number
): ChatRequestTokens => countRenderedPrompt(renderChatRequest(request, options), countText, countHeader, countSections)
