/**
 * OpenAI Chat Completions, both ways: the model to a request's `messages`
 * (and a whole request body), and request bodies, `chat.completion`
 * responses and `chat.completion.chunk` streams back to the model.
 *
 * **Writing a request**
 *
 * - An assistant message that only calls tools has `content: null`; its
 *   calls are `tool_calls` whose `function.arguments` is JSON text (the
 *   provider's own text when the call came from a provider, even when it
 *   never parsed).
 * - Each tool result is its own `tool` message with `tool_call_id`.
 * - A tool call id over 40 characters (which the API rejects: ids of other
 *   SDKs, gateways and MCP clients can be longer) is sent as its first
 *   characters and a short hash of the whole id, the same in the call and
 *   every result answering it (also when the call was sent in an earlier
 *   request), unique in the conversation, and reported once.
 * - Images are `image_url` parts (URL or `data:` URL, with `detail`), audio
 *   `input_audio` parts (wav, mp3), other files `file` parts (`data:` URL or
 *   file id, with `filename`; a file given as a base64 `data:` URL goes as
 *   its `file_data`). A file at a URL OpenAI cannot take (neither http(s)
 *   nor a base64 `data:` URL, such as `gs://` or `file:`, or a Gemini Files
 *   API URI, which only Gemini reads) is left out and reported, as
 *   `validateFor("openai-chat")` reports it.
 * - System messages are `system` messages, or `developer` messages with
 *   `systemRole: "developer"` (o-series and GPT-5 models).
 * - What Chat Completions cannot express is reported as a warning, or fails
 *   the conversion with `strict: true`: thinking (unless `reasoning:
 *   "reasoning_content"` sends it back the DeepSeek way), redacted thinking,
 *   text citations other than web pages or on a message of several texts,
 *   tool calls the provider ran itself and their results,
 *   files in tool results, documents by URL, an error flag on a tool result,
 *   Anthropic document settings, other providers' data.
 * - A tool call's `other_ids` (the ids a stream changed to mid-call, which
 *   `OpenAiChatStream` keeps beside the call) stay in the model and are not
 *   written: the API rejects a tool call with fields it does not know. That
 *   is reported too.
 *
 * **Reading**
 *
 * `fromMessages`, `fromRequest` and `fromResponse` accept any JSON and fail
 * with `MalformedPayload` when it is not Chat Completions. Tool-argument
 * text that is not JSON is repaired (a `RepairedToolArguments` warning, the
 * text kept in `rawArgs`) or, with `toolArguments: "strict"`, fails with
 * `InvalidToolArguments`. A tool result's name is the name of the call it
 * answers. DeepSeek's `reasoning_content` becomes a thinking block, and so
 * does the `reasoning` text of vLLM, OpenRouter and Groq when there is no
 * `reasoning_content`. An
 * assistant message's `annotations` (the web pages a search model cites)
 * are the citations of its text, when it has one text and they are all URL
 * citations (others, such as OpenRouter's file annotations, stay on the
 * message), and are written back on the message (a URL citation read from
 * Responses goes in Chat's spelling). A tool
 * message with no `tool_call_id` but a `tool_call_ids` list of one id (as
 * some agent frameworks persist their histories) is read leniently: the id
 * answers that call, the list is kept, and a `ConvertedContent` warning
 * says the message will be written back with a `tool_call_id` beside it.
 * `fromEvents`, `fromSse` and `fromStream` accumulate a stream and read the
 * response it adds up to; a stream cut short fails with `IncompleteResponse`
 * carrying the partial message.
 *
 * **Fields the model has no place for** are kept, never dropped: in the
 * `providerOptions["openai-chat"]` of the block, message, tool definition or
 * request they were read from, and written back from there. A few of them
 * choose a wire form: `role: "developer"` on a system message, `type:
 * "text"` / `type: "refusal"` on a block sent as a content part (rather than
 * as a plain string / the `refusal` field), `type: "custom"` on a custom
 * tool call or tool, `type: "function_call"` on a deprecated single function
 * call, `role: "function"` on its result, `type: "functions"` on a tool
 * defined in the deprecated `functions` list. Six are hints, never
 * written as fields, each named with a `$` in front (a field of the
 * sender's own whose name starts with `$` is kept with one more in front,
 * `"$noContent"` as `$$noContent`, and written back as it came: it is never
 * read as a hint):
 * `$dataUrlMediaType`, on an image whose `data:` URL declared a type that
 * is not an image type (`application/octet-stream`, or none): the block has
 * the type the bytes show (PNG, JPEG, GIF, WebP, else `image/*`) and the
 * URL is written back as it came, and on an image type with parameters
 * (`image/jpeg;name=photo.jpg`), which another adapter writes bare;
 * `$maxTokensField`, on a request whose output limit came as the deprecated
 * `max_tokens` (written back under that name); `$reasoningContent`, on
 * thinking read from DeepSeek's
 * `reasoning_content` (`true`) or from the `reasoning` field of vLLM,
 * OpenRouter and Groq (`"reasoning"`), written back there; `$nullContent`, on the
 * result of a deprecated `function` message whose `content` was `null`;
 * `$noContent`, on an assistant message read without a `content` field
 * (written back without one, not with `content: null`); and `$functions`,
 * on a request whose tools came as an empty deprecated `functions` list
 * (the list is left out, as an empty `tools` list is, and so is its
 * `function_call`, reported, since the API rejects one without
 * `functions`).
 *
 * @since 0.1.0
 */
import { customInputOf, customToolNames } from "../internal/customTools.js"
import { Effect, type Schema, type Stream } from "effect"
import * as Block from "../Block.js"
import * as Message from "../Message.js"
import * as Request from "../Request.js"
import {
  type ConversionOptions,
  type Converted,
  DecodedResponse,
  type FinishReason,
  type IncompleteResponse,
  type InvalidToolArguments,
  type MalformedPayload,
  RejectedSetting,
  type UnsupportedContent
} from "./Conversion.js"
import { hasNonBase64Char, standardBase64 } from "../internal/base64.js"
import { imageDetailOf } from "../internal/imageDetail.js"
import { chatAudioFormat, chatNamedToolChoice, chatParticipantName, chatResponseFormat } from "../internal/chatRequestFields.js"
import * as A from "./internal/adapter.js"
import { show } from "./internal/core.js"
import { messageText, preview, quote } from "../internal/preview.js"
import { bareMediaType } from "../internal/mediaType.js"
import { base64DataUrlParts } from "../internal/dataUrl.js"
import { OPENAI_URLS, openAiTakesUrl } from "../internal/fileUrls.js"
import * as Citations from "../internal/citations.js"
import * as Ids from "./internal/ids.js"
import { OPENAI_CHAT_HINTS } from "../internal/hint.js"
import { hintOf, keptOf } from "./internal/kept.js"
import * as OpenAiChatStream from "./OpenAiChatStream.js"
import type * as Wire from "./OpenAiChatWire.js"
import * as StreamErrors from "./StreamError.js"
import type { KeepPartial, StreamOptions } from "./StreamAccumulator.js"
import * as ToolArguments from "./ToolArguments.js"

/**
 * The key of this format in `providerOptions`.
 *
 * @example
 * // written back as a `developer` message
 * const system = Message.system("Be brief.", { providerOptions: { [OpenAiChat.key]: { role: "developer" } } })
 *
 * @since 0.1.0
 */
export const key = "openai-chat"

const PROVIDER = "openai-chat"

/**
 * Options for writing messages and requests.
 *
 * - `systemRole`: send every system message as a `system` or a `developer`
 *   message; by default each goes as it was read (`system` unless it was a
 *   `developer` message).
 * - `reasoning`: by default thinking read from a `reasoning_content` field
 *   (or a `reasoning` field) goes back there and other thinking is left out and reported; `"drop"`
 *   leaves all thinking out (reported); `"reasoning_content"` sends an
 *   assistant message's thinking texts, joined, as `reasoning_content`
 *   (DeepSeek and compatible servers ask for it back in tool loops).
 *
 * @since 0.1.0
 */
export interface ToMessagesOptions extends ConversionOptions {
  readonly systemRole?: "system" | "developer"
  readonly reasoning?: "drop" | "reasoning_content"
}

/**
 * Options for reading a response: `choice` is the index of the choice to
 * read (default 0; the others are reported as left out).
 *
 * @since 0.1.0
 */
export interface FromResponseOptions extends ConversionOptions {
  readonly choice?: number
}

// ---------------------------------------------------------------------------
// the model -> Chat Completions
// ---------------------------------------------------------------------------

type Extras = Block.JsonObject | undefined

const hasExtras = (value: { readonly providerOptions?: Block.ProviderOptions }): boolean => value.providerOptions?.[key] !== undefined

const textPart = (ctx: A.Ctx, block: Block.TextBlock, index: number, blockIndex: number): Wire.TextPart => {
  if (block.citations !== undefined && block.citations.length > 0) {
    A.dropped(ctx, index, blockIndex, "the citations of a text", "Chat Completions text carries no citations")
  }
  return { ...A.ownExtras(block, key), type: "text", text: block.text }
}

const textContent = (
  ctx: A.Ctx,
  blocks: ReadonlyArray<Block.TextBlock>,
  index: number
): string | Array<Wire.TextPart> => {
  const only = blocks[0]
  if (blocks.length === 1 && !hasExtras(only!) && (only!.citations === undefined || only!.citations.length === 0)) return only!.text
  const parts: Array<Wire.TextPart> = []
  for (let b = 0; b < blocks.length; b++) parts.push(textPart(ctx, blocks[b]!, index, b))
  return parts
}

/** Settings of a file that only Anthropic documents have. */
const documentSettings = (ctx: A.Ctx, file: Block.FileBlock, index: number, blockIndex: number, keepsFilename: boolean): void => {
  const lost: Array<string> = []
  if (file.title !== undefined) lost.push("title")
  if (file.context !== undefined) lost.push("context")
  if (file.citationsEnabled !== undefined) lost.push("citations setting")
  if (!keepsFilename && file.filename !== undefined) lost.push("file name")
  // detail is an image setting: an audio or file part has none
  if (file.detail !== undefined && !bareMediaType(file.mediaType).startsWith("image/")) lost.push("detail setting")
  if (lost.length > 0) A.dropped(ctx, index, blockIndex, `the ${lost.join(", ")} of ${A.an(file.mediaType)} ${messageText(file.mediaType)} file`, "Chat Completions has no place for them")
}

/** The type an image's `data:` URL declared when it was not an image type (the block has the type the bytes show). */
const DATA_URL_TYPE = "dataUrlMediaType"

/** That a request's output limit came as the deprecated `max_tokens` (and goes back as it). */
const LEGACY_LIMIT = "maxTokensField"

/**
 * That a thinking block was read from DeepSeek's `reasoning_content` (`true`), or from the `reasoning` field of
 * vLLM, OpenRouter and Groq (`"reasoning"`), and goes back there unless told to drop it.
 */
const REASONING_CONTENT = "reasoningContent"

/** That a deprecated function message's `content` was `null` (the result holds `""`, and goes back as `null`). */
const NULL_CONTENT = "nullContent"

/** That an assistant message came without a `content` field (it goes back without one, rather than with `content: null`). */
const NO_CONTENT = "noContent"

/** That a request's tools came as an empty deprecated `functions` list (its tool choice goes back as `function_call`). */
const LEGACY_FUNCTIONS = "functions"

/**
 * The hints kept beside the wire fields (see the module documentation): never written as fields. The set is
 * `internal/hint`'s, which the estimator's view of a Chat request reads too.
 */
const hints: ReadonlySet<string> = OPENAI_CHAT_HINTS

const filePart = (ctx: A.Ctx, file: Block.FileBlock, index: number, blockIndex: number): Wire.UserContentPart | undefined => {
  const extras = keptOf(file, key, hints)
  const declared = hintOf(file, key, DATA_URL_TYPE)
  const media = file.mediaType
  // compared as the estimator and the validation compare it: `IMAGE/PNG; x=y` is an image
  const bare = bareMediaType(media)
  const source = file.source
  if (bare.startsWith("image/")) {
    let url: string
    switch (source._tag) {
      case "Base64":
        // the type as the API takes it (lower case, bare); a data URL's own declared type goes back as it came
        url = A.base64DataUrl(typeof declared === "string" ? declared : bare, source.data)
        break
      case "Url":
        // a base64 data: URL is the image itself, sent as given; any other URL must be one OpenAI fetches
        if (!openAiTakesUrl(source.url)) {
          A.dropped(ctx, index, blockIndex, `${A.an(media)} ${messageText(media)} image at ${A.urlScheme(source.url)} URL`, A.unfetchableReason(source.url, OPENAI_URLS))
          return undefined
        }
        url = source.url
        break
      case "FileId":
      case "Text":
        A.dropped(ctx, index, blockIndex, `an image by ${source._tag === "FileId" ? "file id" : "text"}`, "Chat Completions takes images as URLs or data URLs")
        return undefined
      default:
        return Block.absurd(source)
    }
    documentSettings(ctx, file, index, blockIndex, false)
    return {
      ...extras,
      type: "image_url",
      image_url: { ...A.nestedExtras(extras, "image_url"), url, ...(file.detail === undefined ? {} : { detail: file.detail }) }
    }
  }
  if (bare.startsWith("audio/")) {
    const format = chatAudioFormat(bare)
    if (source._tag !== "Base64" || format === undefined) {
      A.dropped(ctx, index, blockIndex, `${messageText(media)} audio${source._tag === "Base64" ? "" : ` by ${source._tag}`}`, "Chat Completions takes audio as base64 wav or mp3 data")
      return undefined
    }
    documentSettings(ctx, file, index, blockIndex, false)
    return { ...extras, type: "input_audio", input_audio: { ...A.nestedExtras(extras, "input_audio"), data: standardBase64(source.data), format } }
  }
  let body: { file_data: string } | { file_id: string }
  switch (source._tag) {
    case "Base64":
      body = { file_data: A.base64DataUrl(media, source.data) }
      break
    case "FileId":
      body = { file_id: source.fileId }
      break
    case "Text":
      A.converted(ctx, index, blockIndex, `${A.an(media)} ${messageText(media)} document given as text`, "as a text part")
      // a text part has no name, title or other document setting either
      documentSettings(ctx, file, index, blockIndex, false)
      return { type: "text", text: source.text }
    case "Url":
      // a base64 data: URL is the file's data, as file_data takes it; a URL OpenAI cannot fetch is said as such
      if (base64DataUrlParts(source.url) !== undefined) {
        body = { file_data: source.url }
        break
      }
      if (!openAiTakesUrl(source.url)) {
        A.dropped(ctx, index, blockIndex, `${A.an(media)} ${messageText(media)} file at ${A.urlScheme(source.url)} URL`, A.unfetchableReason(source.url, OPENAI_URLS))
        return undefined
      }
      A.dropped(ctx, index, blockIndex, `${A.an(media)} ${messageText(media)} file by URL`, "Chat Completions takes files as data URLs or file ids")
      return undefined
    default:
      return Block.absurd(source)
  }
  documentSettings(ctx, file, index, blockIndex, true)
  return {
    ...extras,
    type: "file",
    file: { ...A.nestedExtras(extras, "file"), ...body, ...(file.filename === undefined ? {} : { filename: file.filename }) }
  }
}

/**
 * A message's `name` as it is sent: the API takes letters, digits, _ and - alone (it answers "Invalid
 * 'messages[5].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'"),
 * so each other character becomes _, reported with the name as it was; an empty name is left out, reported.
 */
const participantName = (ctx: A.Ctx, name: string | undefined, index: number): { readonly name?: string } => {
  const sent = chatParticipantName(name)
  if (sent === undefined) {
    if (name === "") A.dropped(ctx, index, undefined, "an empty participant name", "Chat Completions takes a name of letters, digits, _ and - only")
    return {}
  }
  if (sent !== name) A.converted(ctx, index, undefined, `the participant name ${quote(name!)}`, `as ${quote(sent)} (Chat Completions takes letters, digits, _ and - only)`)
  return { name: sent }
}

const systemMessage = (ctx: A.Ctx, m: Message.SystemMessage, index: number, options: ToMessagesOptions | undefined): Wire.MessageParam => {
  const extras = A.ownExtras(m, key)
  const role = options?.systemRole ?? (extras?.["role"] === "developer" ? "developer" : "system")
  return { ...extras, role, content: textContent(ctx, m.content, index), ...participantName(ctx, m.name, index) }
}

const userMessage = (ctx: A.Ctx, m: Message.UserMessage, index: number): Wire.UserMessageParam => {
  const extras = A.ownExtras(m, key)
  const name = participantName(ctx, m.name, index)
  let textOnly = true
  for (const block of m.content) if (block._tag !== "Text") textOnly = false
  if (textOnly) return { ...extras, role: "user", content: textContent(ctx, m.content as ReadonlyArray<Block.TextBlock>, index), ...name }
  const parts: Array<Wire.UserContentPart> = []
  for (let b = 0; b < m.content.length; b++) {
    const block = m.content[b]!
    switch (block._tag) {
      case "Text":
        parts.push(textPart(ctx, block, index, b))
        break
      case "File": {
        const part = filePart(ctx, block, index, b)
        if (part !== undefined) parts.push(part)
        break
      }
      case "ProviderData":
        if (block.provider === key) parts.push(block.data as unknown as Wire.UserContentPart)
        else A.dropped(ctx, index, b, `${messageText(block.provider)} provider data`, A.foreignDataReason(block, "it belongs to another wire format"))
        break
      default:
        return Block.absurd(block)
    }
  }
  return { ...extras, role: "user", content: parts, ...name }
}

/**
 * A tool call's kept fields as they are written: without the `other_ids` that the stream reader keeps beside a call
 * whose id a server changed mid-call (`OpenAiChatStream`). No server sends that field on a request's tool call, and
 * the API's request schema rejects it ("Additional properties are not allowed"): it stays in the model, reported.
 */
const callExtras = (ctx: A.Ctx, call: Block.ToolCallBlock, index: number, blockIndex: number): Block.JsonObject | undefined =>
  A.withoutReaderField(
    ctx,
    A.ownExtras(call, key),
    "other_ids",
    { index, blockIndex },
    `tool call ${quote(call.id)} (the ids a stream changed to mid-call, kept by the stream reader)`,
    "Chat Completions takes no other_ids on a tool call; they stay in the model"
  )

/** The names of the custom tools of the request being written, for `toolCall` (see `customInputOf`). */
const customTools = new WeakMap<A.Ctx, ReadonlySet<string>>()

const toolCall = (ctx: A.Ctx, call: Block.ToolCallBlock, index: number, blockIndex: number): Wire.ToolCall => {
  const extras = callExtras(ctx, call, index, blockIndex)
  const customInput = customInputOf(call, customTools.get(ctx))
  if (customInput !== undefined) {
    A.converted(ctx, index, blockIndex, `the call to ${quote(call.name)}, a custom tool, made with {"input": <text>}`, "as a custom call of that text")
    return { ...extras, id: Ids.idFor(ctx, call.id), type: "custom", custom: { name: call.name, input: customInput } }
  }
  if (extras?.["type"] === "custom") {
    const input = typeof call.args === "string" && call.rawArgs === undefined ? call.args : ToolArguments.toText(call)
    return { ...extras, id: Ids.idFor(ctx, call.id), type: "custom", custom: { ...A.nestedExtras(extras, "custom"), name: call.name, input } }
  }
  return {
    ...extras,
    id: Ids.idFor(ctx, call.id),
    type: "function",
    function: { ...A.nestedExtras(extras, "function"), name: call.name, arguments: ToolArguments.toText(call) }
  }
}

const assistantMessage = (
  ctx: A.Ctx,
  m: Message.AssistantMessage,
  index: number,
  options: ToMessagesOptions | undefined
): Wire.AssistantMessageParam => {
  const said: Array<Block.TextBlock | Block.RefusalBlock | Block.ProviderDataBlock> = []
  const calls: Array<Wire.ToolCall> = []
  const reasoning: Array<string> = []
  // thinking read from the `reasoning` field, which goes back there
  const reasoningField: Array<string> = []
  let texts = 0
  let refusals = 0
  let parts = false
  const cited: Array<number> = []
  let functionCall: { readonly name: string; readonly arguments: string } | undefined
  let audio: { readonly id: string } | undefined
  for (let b = 0; b < m.content.length; b++) {
    const block = m.content[b]!
    switch (block._tag) {
      case "Text":
        said.push(block)
        texts++
        if (hasExtras(block)) parts = true
        // content and calls are separate fields: text after a call is sent before the calls
        if (calls.length > 0 && block.text.trim() !== "") A.converted(ctx, index, b, "text after a tool call", "before the calls (Chat Completions sends an assistant's text, then its calls)")
        if (block.citations !== undefined && block.citations.length > 0) cited.push(b)
        break
      case "Refusal":
        said.push(block)
        refusals++
        if (hasExtras(block)) parts = true
        break
      case "Thinking":
        if (options?.reasoning === "reasoning_content" || (options?.reasoning === undefined && hintOf(block, key, REASONING_CONTENT) === true)) reasoning.push(block.thinking)
        else if (options?.reasoning === undefined && hintOf(block, key, REASONING_CONTENT) === "reasoning") reasoningField.push(block.thinking)
        else A.dropped(ctx, index, b, "thinking", "Chat Completions has no reasoning content (reasoning: \"reasoning_content\" sends it the DeepSeek way)")
        break
      case "RedactedThinking":
        A.dropped(ctx, index, b, "redacted thinking", "Chat Completions has no reasoning content")
        break
      case "File": {
        const id = block.itemId ?? (block.source._tag === "FileId" ? block.source.fileId : undefined)
        if (bareMediaType(block.mediaType).startsWith("audio/") && id !== undefined && audio === undefined) audio = { id }
        else A.dropped(ctx, index, b, `${A.an(block.mediaType)} ${messageText(block.mediaType)} file in an assistant message`, "Chat Completions replays only one generated audio, by its id")
        break
      }
      case "ToolCall":
        if (block.providerExecuted === true) {
          A.dropped(ctx, index, b, `the call of ${messageText(block.name)}, a tool the provider ran itself`, "Chat Completions has no server-side tools")
        } else if (A.ownExtras(block, key)?.["type"] === "function_call" && functionCall === undefined) {
          A.checkToolName(ctx, block.name, index, b)
          const extras = A.ownExtras(block, key)
          functionCall = { ...A.nestedExtras(extras, "function_call"), name: block.name, arguments: ToolArguments.toText(block) }
          legacyCalls(ctx).add(block.id)
        } else {
          A.checkToolName(ctx, block.name, index, b)
          calls.push(toolCall(ctx, block, index, b))
        }
        break
      case "ToolResult":
        A.dropped(ctx, index, b, `the result of ${messageText(block.toolName)}, a tool the provider ran itself`, "Chat Completions has no server-side tools")
        break
      case "ProviderData":
        if (block.provider === key) {
          said.push(block)
          parts = true
        } else {
          A.dropped(ctx, index, b, `${messageText(block.provider)} provider data`, A.foreignDataReason(block, "it belongs to another wire format"))
        }
        break
      default:
        return Block.absurd(block)
    }
  }
  if (texts > 1 || refusals > 1) parts = true
  const annotations = messageAnnotations(ctx, m, cited, texts, index)
  let content: string | Array<Wire.TextPart | Wire.RefusalPart> | null = null
  let refusal: string | undefined
  if (parts) {
    content = []
    for (const block of said) {
      if (block._tag === "Text") content.push({ ...A.ownExtras(block, key), type: "text", text: block.text })
      // (a refusal read from the `refusal` field, beside a list of parts, goes back there)
      else if (block._tag === "Refusal" && refusal === undefined && !hasExtras(block)) refusal = block.refusal
      else if (block._tag === "Refusal") content.push({ ...A.ownExtras(block, key), type: "refusal", refusal: block.refusal })
      else content.push(block.data as unknown as Wire.TextPart)
    }
  } else {
    for (const block of said) {
      if (block._tag === "Text") content = block.text
      else if (block._tag === "Refusal") refusal = block.refusal
    }
  }
  return {
    ...keptOf(m, key, hints),
    role: "assistant",
    // read without content: written back without it
    ...(content === null && hintOf(m, key, NO_CONTENT) === true ? {} : { content }),
    ...(refusal === undefined ? {} : { refusal }),
    ...participantName(ctx, m.name, index),
    ...(audio === undefined ? {} : { audio }),
    ...(functionCall === undefined ? {} : { function_call: functionCall }),
    ...(calls.length === 0 ? {} : { tool_calls: calls }),
    ...(reasoning.length === 0 ? {} : { reasoning_content: reasoning.join("\n") }),
    ...(reasoningField.length === 0 ? {} : { reasoning: reasoningField.join("\n") }),
    ...(annotations === undefined ? {} : { annotations })
  }
}

/**
 * The citations of an assistant message's text as its `annotations`: Chat Completions cites on the message, so only
 * the text of a message of one text can carry them, and only web pages (`url_citation`, in either OpenAI spelling).
 */
const messageAnnotations = (
  ctx: A.Ctx,
  m: Message.AssistantMessage,
  cited: ReadonlyArray<number>,
  texts: number,
  index: number
): Array<Wire.Annotation> | undefined => {
  for (const b of cited) {
    const block = m.content[b] as Block.TextBlock
    const annotations = Citations.allOf(block.citations ?? [], Citations.chatAnnotationOf)
    if (annotations !== undefined && texts === 1) return annotations as unknown as Array<Wire.Annotation>
    A.dropped(
      ctx,
      index,
      b,
      "the citations of a text",
      annotations === undefined ? "Chat Completions cites only web pages (url_citation)" : "Chat Completions cites only on an assistant message of one text"
    )
  }
  return undefined
}

const resultContent = (ctx: A.Ctx, result: Block.ToolResultBlock, index: number, blockIndex: number): string | Array<Wire.TextPart> => {
  if (typeof result.content === "string") return result.content
  if (result.content.length === 0) {
    A.converted(ctx, index, blockIndex, `the empty list of parts of the result of ${messageText(result.toolName)}`, "as \"\" (the API refuses an empty list of parts)")
    return ""
  }
  const parts: Array<Wire.TextPart> = []
  for (const part of result.content) {
    switch (part._tag) {
      case "Text":
        parts.push(textPart(ctx, part, index, blockIndex))
        break
      case "Json":
        A.converted(ctx, index, blockIndex, `a JSON value in the result of ${messageText(result.toolName)}`, "as JSON text")
        parts.push({ type: "text", text: Block.resultContentText([part]) })
        break
      case "File":
        A.dropped(ctx, index, blockIndex, `${A.an(part.mediaType)} ${messageText(part.mediaType)} file in the result of ${messageText(result.toolName)}`, "Chat Completions tool messages hold only text")
        break
      default:
        return Block.absurd(part)
    }
  }
  // every part left out: "" rather than [], which the API refuses ("Expected an array with minimum length 1")
  return parts.length === 0 ? "" : parts
}

/** Per conversion: the ids of the calls written as a deprecated single `function_call`, which have no id on the wire. */
const legacyCallIds = new WeakMap<A.Ctx, Set<string>>()
const legacyCalls = (ctx: A.Ctx): Set<string> => {
  let ids = legacyCallIds.get(ctx)
  if (ids === undefined) legacyCallIds.set(ctx, ids = new Set())
  return ids
}

const toolMessages = (ctx: A.Ctx, m: Message.ToolMessage, index: number, out: Array<Wire.MessageParam>): void => {
  const messageExtras = A.ownExtras(m, key)
  for (let b = 0; b < m.content.length; b++) {
    const result = m.content[b]!
    const extras = keptOf(result, key, hints)
    if (result.isError) {
      A.dropped(ctx, index, b, `the error flag of the result of ${messageText(result.toolName)}`, "Chat Completions tool messages have no error flag; the content is sent as is")
    }
    const content = resultContent(ctx, result, index, b)
    // a result of a call sent as the deprecated function_call goes back as a role "function" message (one made by a repair too)
    if (extras?.["role"] === "function" || legacyCallIds.get(ctx)?.has(result.toolCallId) === true) {
      const text = typeof content === "string" ? content : Block.resultContentText(result.content)
      out.push({ ...messageExtras, ...extras, role: "function", name: result.toolName, content: text === "" && hintOf(result, key, NULL_CONTENT) === true ? null : text })
    } else {
      out.push({ ...messageExtras, ...extras, role: "tool", tool_call_id: Ids.idFor(ctx, result.toolCallId), content })
    }
  }
}

/** What Chat Completions takes as a tool call id: at most 40 characters (longer is a 400, `string_above_max_length`). */
const CHAT_IDS: Ids.IdRule = {
  maxLength: 40,
  why: "Chat Completions takes ids of at most 40 characters",
  // the deprecated single function_call (the first of a message) and a role "function" result are sent without an id
  sent: (m, b) => {
    const block = m.content[b]!
    if (block._tag === "ToolResult") return keptOf(block, key, hints)?.["role"] !== "function"
    if (block._tag !== "ToolCall" || !isLegacyCall(block)) return true
    for (let k = 0; k < b; k++) {
      const earlier = m.content[k]!
      if (earlier._tag === "ToolCall" && earlier.providerExecuted !== true && isLegacyCall(earlier)) return true
    }
    return false
  }
}

/** A call read from (and so written as) the deprecated single `function_call`. */
const isLegacyCall = (block: Block.ToolCallBlock): boolean => block.providerExecuted !== true && A.ownExtras(block, key)?.["type"] === "function_call"

/** An assistant message with nothing to send: no content, calls, refusal, audio or reasoning. */
const isEmptyAssistant = (m: Wire.AssistantMessageParam): boolean =>
  (m.content === null || m.content === undefined || (Array.isArray(m.content) && m.content.length === 0)) && (m.tool_calls === undefined || m.tool_calls.length === 0) &&
  m.function_call === undefined && m.refusal === undefined && m.audio === undefined && m.reasoning_content === undefined && m.reasoning === undefined

const encodeMessages = (
  ctx: A.Ctx,
  messages: ReadonlyArray<Message.Message>,
  options: ToMessagesOptions | undefined
): Array<Wire.MessageParam> => {
  Ids.planIds(ctx, messages, CHAT_IDS)
  const out: Array<Wire.MessageParam> = []
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    switch (m.role) {
      case "system":
        out.push(systemMessage(ctx, m, i, options))
        break
      case "user": {
        const written = userMessage(ctx, m, i)
        if (m.content.length > 0 && Array.isArray(written.content) && written.content.length === 0) A.droppedEmptyMessage(ctx, i, "user", "Chat Completions")
        else out.push(written)
        break
      }
      case "assistant": {
        const written = assistantMessage(ctx, m, i, options)
        if (m.content.length > 0 && isEmptyAssistant(written)) A.droppedEmptyMessage(ctx, i, "assistant", "Chat Completions")
        else out.push(written)
        break
      }
      case "tool":
        toolMessages(ctx, m, i, out)
        break
      default:
        return Block.absurd(m)
    }
  }
  return out
}

/**
 * A conversation as Chat Completions `messages`, with the warnings of what
 * could not be carried (or `UnsupportedContent` with `strict: true`).
 *
 * @example
 * import { Effect } from "effect"
 * import { Message } from "effect-agent-messages"
 * import { OpenAiChat } from "effect-agent-messages/providers"
 * import OpenAI from "openai"
 *
 * const client = new OpenAI()
 * const conversation = [Message.system("Be brief."), Message.user("What is the weather in Oslo?")]
 *
 * const program = Effect.gen(function*() {
 *   const { value: messages, warnings } = yield* OpenAiChat.toMessages(conversation, { systemRole: "developer" })
 *   for (const warning of warnings) yield* Effect.logWarning(warning.message)
 *   const completion = yield* Effect.promise(() => client.chat.completions.create({ model: "gpt-5", messages }))
 *   const { value } = yield* OpenAiChat.fromResponse(completion)
 *   return value.message
 * })
 *
 * @since 0.1.0
 */
export const toMessages = (
  messages: ReadonlyArray<Message.Message>,
  options?: ToMessagesOptions
): Effect.Effect<Converted<Array<Wire.MessageParam>>, UnsupportedContent> => {
  const ctx = A.makeCtx(PROVIDER, options)
  return A.runEncode(ctx, () => encodeMessages(ctx, messages, options))
}

/** A tool a provider defines (Chat Completions has none of its own), or one written the older way, with an Anthropic `type`. */
const isProviderTool = (tool: Request.ToolDefinition): boolean => A.providerToolOf(tool) !== undefined

const functionDefinition = (tool: Request.ToolDefinition, extras: Extras): Wire.FunctionDefinition => ({
  ...A.nestedExtras(extras, "function"),
  name: tool.name,
  ...(tool.description === undefined ? {} : { description: tool.description }),
  ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
  ...(tool.strict === undefined ? {} : { strict: tool.strict })
})

const encodeTool = (tool: Request.ToolDefinition): Wire.Tool => {
  const extras = A.ownExtras(tool, key)
  if (extras?.["type"] === "custom") {
    return {
      ...extras,
      type: "custom",
      custom: { ...A.nestedExtras(extras, "custom"), name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }) }
    }
  }
  return { ...extras, type: "function", function: functionDefinition(tool, extras) }
}

/** A named `tool_choice` among these tools: a custom tool's form when a custom tool has that name, else a function's. */
const namedToolChoice = (tools: ReadonlyArray<Request.ToolDefinition>, name: string): Schema.Json =>
  chatNamedToolChoice(name, tools.some((t) => t.name === name && A.ownExtras(t, key)?.["type"] === "custom"))

/** Whether a body field holds tools (a non-empty list, as written or kept). */
const hasTools = (field: unknown): boolean => Array.isArray(field) && field.length > 0

/**
 * Leaves out a tool choice the body has no tools for, reported: the API answers `tool_choice` without `tools` with
 * a 400 ("'tool_choice' is only allowed when 'tools' are specified"), and the deprecated `function_call` without
 * `functions` likewise. Without tools the choice means nothing. It is judged on the body as written, so that a
 * choice kept as sent is held to the rule too.
 */
const dropChoiceWithout = (ctx: A.Ctx, body: Record<string, unknown>, choice: "tool_choice" | "function_call", list: "tools" | "functions"): void => {
  const value = body[choice]
  if (value === undefined || value === null || hasTools(body[list])) return
  A.dropped(ctx, undefined, undefined, `the tool choice ${preview(value)} (${choice})`, `the request has no ${list}, and Chat Completions rejects ${choice} without them`)
  delete body[choice]
}

/** The fields of a written message that hold text the model reads (a tool call's arguments and input included). */
const TEXT_FIELDS: ReadonlySet<string> = new Set(["content", "text", "refusal", "arguments", "input", "reasoning_content", "reasoning"])


/**
 * Reports JSON mode (`response_format` of type `json_object`, as written or kept) in a request whose messages never
 * say "json": the API answers it with a 400. The format is the caller's setting, written as it is (`RejectedSetting`).
 */
const checkJsonMode = (ctx: A.Ctx, body: Record<string, unknown>): void => {
  const format = body["response_format"] as Schema.Json | undefined
  if (!A.isObj(format) || format["type"] !== "json_object" || A.saysJson(body["messages"], TEXT_FIELDS)) return
  ctx.warnings.push(
    new RejectedSetting({
      path: "response_format",
      value: format,
      rule: "Chat Completions takes JSON mode only when a message says \"json\" (\"'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'\")"
    })
  )
}

/** Reports each written function whose parameters are not an object schema (`A.checkParametersRoot`), in `tools` and the deprecated `functions`. */
const checkParameters = (ctx: A.Ctx, body: Record<string, unknown>): void => {
  for (const field of ["tools", "functions"]) {
    const list = body[field]
    if (!Array.isArray(list)) continue
    list.forEach((entry: { readonly function?: { readonly parameters?: unknown }; readonly parameters?: unknown }, i) => {
      const fn = field === "tools" ? entry?.function : entry
      A.checkParametersRoot(ctx, fn?.parameters, `${field}[${i}]${field === "tools" ? ".function" : ""}.parameters`, "Chat Completions")
    })
  }
}

const encodeRequest = (ctx: A.Ctx, request: Request.Request, options: ToMessagesOptions | undefined): Wire.RequestBody => {
  const body: Record<string, unknown> = { ...keptOf(request, key, hints) }
  if (request.model !== undefined) body["model"] = request.model
  const custom = customToolNames(request.tools)
  if (custom !== undefined) customTools.set(ctx, custom)
  body["messages"] = encodeMessages(ctx, request.messages, options)
  A.droppedForeignSettings(ctx, request, key)
  const tools: Array<Request.ToolDefinition> = []
  for (const tool of request.tools ?? []) {
    if (isProviderTool(tool)) A.dropped(ctx, undefined, undefined, `the definition of ${messageText(tool.name)}, a tool a provider defines`, "Chat Completions has no tools of a provider's own")
    else {
      A.checkToolName(ctx, tool.name)
      tools.push(tool)
    }
  }
  // an empty list read from the deprecated functions is left out (as an empty tools list is), its choice not
  const legacy = tools.length > 0
    ? tools.every((t) => A.ownExtras(t, key)?.["type"] === "functions")
    : (request.tools?.length ?? 0) === 0 && hintOf(request, key, LEGACY_FUNCTIONS) === true
  if (legacy && tools.length > 0) body["functions"] = tools.map((t) => functionDefinition(t, A.ownExtras(t, key)))
  else if (tools.length > 0) body["tools"] = tools.map(encodeTool)
  const settings = A.toolSettingsAfter(ctx, request, { names: tools.map((t) => t.name), any: tools.length > 0 })
  const choice = settings.toolChoice
  if (choice !== undefined && legacy) {
    if (choice === "required") {
      A.converted(ctx, undefined, undefined, "tool choice \"required\"", "as \"auto\": the deprecated function_call has no required mode")
      body["function_call"] = "auto"
    } else {
      body["function_call"] = typeof choice === "string" ? choice : { name: choice.name }
    }
  } else if (choice !== undefined) {
    if (typeof choice === "string") {
      body["tool_choice"] = choice
    } else {
      body["tool_choice"] = namedToolChoice(tools, choice.name)
    }
  }
  dropChoiceWithout(ctx, body, "tool_choice", "tools")
  dropChoiceWithout(ctx, body, "function_call", "functions")
  if (settings.parallelToolCalls !== undefined) {
    // "'parallel_tool_calls' is only allowed when 'tools' are specified" (the API's 400); without tools it means nothing
    if (hasTools(body["tools"]) || hasTools(body["functions"])) body["parallel_tool_calls"] = settings.parallelToolCalls
    else A.dropped(ctx, undefined, undefined, "the parallel tool calls setting", "the request has no tools, and Chat Completions rejects parallel_tool_calls without them")
  }
  // read from the deprecated max_tokens: written back there
  if (request.maxOutputTokens !== undefined) body[hintOf(request, key, LEGACY_LIMIT) === true ? "max_tokens" : "max_completion_tokens"] = request.maxOutputTokens
  if (request.responseFormat !== undefined) body["response_format"] = chatResponseFormat(request.responseFormat)
  checkJsonMode(ctx, body)
  checkParameters(ctx, body)
  return body as unknown as Wire.RequestBody
}

/**
 * A whole request as a Chat Completions request body: the messages, the
 * model, tools (or the deprecated `functions`, when the request was read
 * from them), tool choice, `parallel_tool_calls`, `response_format`,
 * `max_completion_tokens` from `maxOutputTokens`, and the
 * request's other Chat Completions fields (`temperature`, `stream`, ...)
 * kept in its provider options. Tools another provider runs itself are
 * reported and left out. A tool choice (`tool_choice`, or the deprecated
 * `function_call`) and a parallel tool calls setting in a request with no
 * tools (functions) are left out and reported: the API rejects each of them
 * without tools, and without tools they mean nothing. JSON mode
 * (`responseFormat` `JsonObject`, `response_format` of type `json_object`)
 * in a request whose messages never say "json" (in any case) is written as
 * it is and reported as a `RejectedSetting`: the API rejects it until a
 * message asks for JSON, and with `strict: true` the conversion fails; so
 * is a function whose parameters schema has a `type` other than `"object"`,
 * which the API rejects too.
 *
 * @example
 * const weather = Request.tool("get_weather", {
 *   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 * })
 * const { value: body } = yield* OpenAiChat.toRequest(
 *   Request.make([Message.user("Weather in Oslo?")], { model: "gpt-4o", tools: [weather], maxOutputTokens: 512 })
 * )
 * body.model // "gpt-4o"
 * body.tools?.[0] // { type: "function", function: { name: "get_weather", parameters: { ... } } }
 *
 * @since 0.1.0
 */
export const toRequest = (
  request: Request.Request,
  options?: ToMessagesOptions
): Effect.Effect<Converted<Wire.RequestBody>, UnsupportedContent> => {
  const ctx = A.makeCtx(PROVIDER, options)
  return A.runEncode(ctx, () => encodeRequest(ctx, request, options))
}

// ---------------------------------------------------------------------------
// Chat Completions -> the model
// ---------------------------------------------------------------------------

const SYSTEM_KEYS = new Set(["role", "content", "name"])
const TOOL_KEYS = new Set(["role", "content", "tool_call_id"])
const FUNCTION_MESSAGE_KEYS = new Set(["role", "content", "name"])
const ASSISTANT_KEYS = new Set(["role", "content", "refusal", "tool_calls", "function_call", "audio", "name", "reasoning_content"])
const TEXT_KEYS = new Set(["type", "text"])
const REFUSAL_KEYS = new Set(["type", "refusal"])
const TOOL_CALL_KEYS = new Set(["id", "type", "function", "custom"])
const FUNCTION_KEYS = new Set(["name", "arguments"])
const CUSTOM_CALL_KEYS = new Set(["name", "input"])
const IMAGE_KEYS = new Set(["url", "detail"])
const URL_KEY = new Set(["url"])
const AUDIO_KEYS = new Set(["data", "format"])
const FILE_KEYS = new Set(["file_data", "file_id", "filename"])
const PART_KEYS: Record<string, ReadonlySet<string>> = {
  image_url: new Set(["type", "image_url"]),
  input_audio: new Set(["type", "input_audio"]),
  file: new Set(["type", "file"])
}

/** Marks the only text block of a list of parts, so that it is written back as a list. */
const asPart = (block: Block.TextBlock): Block.TextBlock => Block.text(block.text, { providerOptions: { [key]: { type: "text" } } })

const textBlock = (ctx: A.Ctx, part: A.Obj, path: string): Block.TextBlock =>
  Block.text(A.str(ctx, part, "text", path), A.optionsOf(key, A.extrasOf(part, TEXT_KEYS)))

const textBlocks = (ctx: A.Ctx, content: Schema.Json | undefined, path: string): Array<Block.TextBlock> => {
  if (typeof content === "string") return [Block.text(content)]
  const parts = A.textOrArr(ctx, content, path)
  const out: Array<Block.TextBlock> = []
  for (let p = 0; p < parts.length; p++) {
    const part = A.obj(ctx, parts[p], `${path}[${p}]`)
    const type = A.str(ctx, part, "type", `${path}[${p}]`)
    if (type !== "text") A.malformed(ctx, `${path}[${p}].type`, `expected a text part, got ${quote(type)}`)
    out.push(textBlock(ctx, part, `${path}[${p}]`))
  }
  if (out.length === 1 && !hasExtras(out[0]!)) out[0] = asPart(out[0]!)
  return out
}

const fileFromDataUrl = (url: string, fallback: string): { readonly source: Block.FileSource; readonly mediaType: string } => {
  const parsed = Block.parseDataUrl(url)
  return parsed === undefined ? { source: Block.base64(url), mediaType: fallback } : { source: Block.base64(parsed.data), mediaType: parsed.mediaType }
}

const userPart = (ctx: A.Ctx, part: A.Obj, path: string): Block.UserBlock => {
  const type = A.str(ctx, part, "type", path)
  switch (type) {
    case "text":
      return textBlock(ctx, part, path)
    case "image_url": {
      const image = A.obj(ctx, part["image_url"], `${path}.image_url`)
      const url = A.str(ctx, image, "url", `${path}.image_url`)
      const detail = imageDetailOf(image["detail"])
      const nested = A.extrasOf(image, detail === undefined ? URL_KEY : IMAGE_KEYS)
      const extras = A.withNested(A.extrasOf(part, PART_KEYS["image_url"]!), "image_url", nested)
      const read = A.imageOfUrl(url)
      return Block.file(read.source, read.mediaType, {
        ...(detail === undefined ? {} : { detail }),
        // a data URL's declared type that is not an image type, written back as it came
        ...A.optionsOf(key, extras, { [DATA_URL_TYPE]: read.declared })
      })
    }
    case "input_audio": {
      const audio = A.obj(ctx, part["input_audio"], `${path}.input_audio`)
      const data = A.str(ctx, audio, "data", `${path}.input_audio`)
      const format = A.str(ctx, audio, "format", `${path}.input_audio`)
      const extras = A.withNested(A.extrasOf(part, PART_KEYS["input_audio"]!), "input_audio", A.extrasOf(audio, AUDIO_KEYS))
      return Block.audio(data, format === "mp3" ? "audio/mpeg" : `audio/${format}`, A.optionsOf(key, extras))
    }
    case "file": {
      const file = A.obj(ctx, part["file"], `${path}.file`)
      const fileData = A.optStr(ctx, file, "file_data", `${path}.file`)
      const fileId = A.optStr(ctx, file, "file_id", `${path}.file`)
      const filename = A.optStr(ctx, file, "filename", `${path}.file`)
      if (fileData === undefined && fileId === undefined) return Block.providerData(key, part)
      // a data: URL that is not base64 (`data:text/plain,hello`) has no bytes to read as they are: kept whole, as sent;
      // so is text that is not a data: URL and not base64 either (a URL, a data: URL after a stray character), which
      // read as bare base64 would be sent back inside a second data: URL
      if (fileData !== undefined && (/^data:/i.test(fileData) ? Block.parseDataUrl(fileData) === undefined : hasNonBase64Char(fileData))) return Block.providerData(key, part)
      // a file id beside the data (the SDK types make both optional) goes back beside it: the writer puts the block's own
      // source after the kept fields, so a block whose source is changed to another id sends that one
      const kept = A.extrasOf(file, FILE_KEYS)
      const nested = fileData !== undefined && fileId !== undefined ? { ...kept, file_id: fileId } : kept
      const extras = A.withNested(A.extrasOf(part, PART_KEYS["file"]!), "file", nested)
      // bare base64 declares no type: the file name's, else a PDF (what Chat Completions reads)
      const bare = (filename === undefined ? undefined : A.documentTypeOfName(filename)) ?? "application/pdf"
      const { mediaType, source } = fileData !== undefined ? fileFromDataUrl(fileData, bare) : { source: Block.fileId(fileId!), mediaType: "application/pdf" }
      return Block.file(source, mediaType, { ...(filename === undefined ? {} : { filename }), ...A.optionsOf(key, extras) })
    }
    default:
      return Block.providerData(key, part)
  }
}

/** Call ids and names seen so far, to name the results; and the id given to the last deprecated function call. */
interface Calls {
  readonly names: Map<string, string>
  lastFunctionCall: string | undefined
  /**
   * The ids a made-up one may not take (the tool calls' own, and those made up before), and what it is made of
   * where no message index names the place (a response: its id, so calls read from two responses differ).
   */
  readonly taken: Set<string>
  readonly base?: string
}

/** The call ids a list of messages gives (its `tool_calls` and its tool messages' `tool_call_id`), which no made-up legacy call id may take. */
const givenToolCallIds = (list: ReadonlyArray<Schema.Json>): Set<string> => {
  const ids = new Set<string>()
  for (const m of list) {
    if (!A.isObj(m)) continue
    if (typeof m["tool_call_id"] === "string") ids.add(m["tool_call_id"])
    const calls = m["tool_calls"]
    if (!Array.isArray(calls)) continue
    for (const call of calls) if (A.isObj(call) && typeof call["id"] === "string") ids.add(call["id"])
  }
  return ids
}

/** An id for a deprecated function call, which has none: its place, made unique against `calls.taken`. */
const legacyCallId = (calls: Calls, index: number | undefined): string => Ids.uniqueIn(calls.taken, `function_call_${index ?? calls.base ?? 0}`)

const assistantBlocks = (
  ctx: A.Ctx,
  m: A.Obj,
  path: string,
  index: number | undefined,
  calls: Calls
): { readonly content: Array<Block.AssistantBlock>; readonly name: string | undefined; readonly extras: Record<string, Schema.Json> | undefined } => {
  const content: Array<Block.AssistantBlock> = []
  const reasoning = A.optStr(ctx, m, "reasoning_content", path)
  if (reasoning !== undefined) content.push(Block.thinking(reasoning, undefined, A.optionsOf(key, undefined, { [REASONING_CONTENT]: true })))
  // vLLM, OpenRouter and Groq name the same text `reasoning` (kept as it is beside a `reasoning_content`, or when not text)
  const reasoningText = reasoning === undefined ? m["reasoning"] : undefined
  const readReasoning = typeof reasoningText === "string"
  if (readReasoning) content.push(Block.thinking(reasoningText, undefined, A.optionsOf(key, undefined, { [REASONING_CONTENT]: "reasoning" })))
  const body = m["content"]
  if (typeof body === "string") {
    content.push(Block.text(body))
  } else if (body !== undefined && body !== null) {
    const parts = A.textOrArr(ctx, body, `${path}.content`)
    const start = content.length
    let texts = 0
    let others = 0
    for (let p = 0; p < parts.length; p++) {
      const at = `${path}.content[${p}]`
      const part = A.obj(ctx, parts[p], at)
      const type = A.str(ctx, part, "type", at)
      if (type === "text") {
        content.push(textBlock(ctx, part, at))
        texts++
      } else if (type === "refusal") {
        content.push(Block.refusal(A.str(ctx, part, "refusal", at), A.optionsOf(key, { ...A.extrasOf(part, REFUSAL_KEYS), type: "refusal" })))
        others++
      } else {
        content.push(Block.providerData(key, part))
        others++
      }
    }
    const first = content[start]
    if (texts === 1 && others === 0 && first?._tag === "Text" && !hasExtras(first)) content[start] = asPart(first)
  }
  // the message's citations go on its text when it has one (an empty list stays on the message, where it was)
  const annotations = m["annotations"]
  // (only URL citations: another kind, such as OpenRouter's file annotations, stays on the message, written back there)
  const sole = Array.isArray(annotations) && annotations.length > 0 && annotations.every(Citations.isChatAnnotation) ? soleText(content) : undefined
  if (sole !== undefined) {
    const text = content[sole] as Block.TextBlock
    content[sole] = Block.text(text.text, { ...(text.providerOptions === undefined ? {} : { providerOptions: text.providerOptions }), citations: annotations as Schema.JsonArray })
  }
  const refusal = A.optStr(ctx, m, "refusal", path)
  if (refusal !== undefined) content.push(Block.refusal(refusal))
  const audio = A.optObj(ctx, m, "audio", path)
  if (audio !== undefined) content.push(generatedAudio(ctx, audio, `${path}.audio`))
  const toolCalls = m["tool_calls"]
  if (toolCalls !== undefined && toolCalls !== null) {
    const list = A.arr(ctx, toolCalls, `${path}.tool_calls`)
    for (let k = 0; k < list.length; k++) content.push(toolCallBlock(ctx, A.obj(ctx, list[k], `${path}.tool_calls[${k}]`), `${path}.tool_calls[${k}]`, index, content.length, calls))
  }
  const functionCall = A.optObj(ctx, m, "function_call", path)
  if (functionCall !== undefined) {
    const at = `${path}.function_call`
    const name = A.str(ctx, functionCall, "name", at)
    const id = legacyCallId(calls, index)
    const nested = A.extrasOf(functionCall, FUNCTION_KEYS)
    const extras: Record<string, Schema.Json> = { type: "function_call", ...(nested === undefined ? {} : { function_call: nested }) }
    content.push(A.callFromText(ctx, { id, name, ...(index === undefined ? {} : { index }), blockIndex: content.length }, argumentText(ctx, functionCall, at), A.optionsOf(key, extras)))
    calls.names.set(id, name)
    calls.lastFunctionCall = id
  }
  // the fields read into blocks besides the usual ones (citations, reasoning text) are no extras either
  const consumed = [...(sole === undefined ? [] : ["annotations"]), ...(readReasoning ? ["reasoning"] : [])]
  const read = consumed.length === 0 ? ASSISTANT_KEYS : new Set([...ASSISTANT_KEYS, ...consumed])
  return { content, name: A.optStr(ctx, m, "name", path), extras: A.extrasOf(m, read) }
}

/** Where the one text block of an assistant message's content is, or `undefined` when it has none or several. */
const soleText = (content: ReadonlyArray<Block.AssistantBlock>): number | undefined => {
  let at: number | undefined
  for (let i = 0; i < content.length; i++) {
    if (content[i]!._tag !== "Text") continue
    if (at !== undefined) return undefined
    at = i
  }
  return at
}

const argumentText = (ctx: A.Ctx, fn: A.Obj, path: string): string => A.optStr(ctx, fn, "arguments", path) ?? ""

const AUDIO_RESPONSE_KEYS = new Set(["id", "data"])

/** Generated audio: by id in a request, with its data (and transcript) in a response. */
const generatedAudio = (ctx: A.Ctx, audio: A.Obj, path: string): Block.FileBlock => {
  const id = A.str(ctx, audio, "id", path)
  const data = A.optStr(ctx, audio, "data", path)
  const nested = A.extrasOf(audio, AUDIO_RESPONSE_KEYS)
  const options = A.optionsOf(key, nested === undefined ? undefined : { audio: nested })
  return data === undefined ? Block.file(Block.fileId(id), "audio/*", options) : Block.file(Block.base64(data), "audio/*", { itemId: id, ...options })
}

const toolCallBlock = (ctx: A.Ctx, call: A.Obj, path: string, index: number | undefined, blockIndex: number, calls: Calls): Block.ToolCallBlock => {
  const id = A.str(ctx, call, "id", path)
  const type = A.optStr(ctx, call, "type", path) ?? "function"
  const site = (name: string): ToolArguments.CallSite => ({ id, name, ...(index === undefined ? {} : { index }), blockIndex })
  switch (type) {
    case "function": {
      const fn = A.obj(ctx, call["function"], `${path}.function`)
      const name = A.str(ctx, fn, "name", `${path}.function`)
      calls.names.set(id, name)
      const extras = A.withNested(A.extrasOf(call, TOOL_CALL_KEYS), "function", A.extrasOf(fn, FUNCTION_KEYS))
      return A.callFromText(ctx, site(name), argumentText(ctx, fn, `${path}.function`), A.optionsOf(key, extras))
    }
    case "custom": {
      const custom = A.obj(ctx, call["custom"], `${path}.custom`)
      const name = A.str(ctx, custom, "name", `${path}.custom`)
      const input = A.optStr(ctx, custom, "input", `${path}.custom`) ?? ""
      calls.names.set(id, name)
      const extras = A.withNested({ ...A.extrasOf(call, TOOL_CALL_KEYS), type: "custom" }, "custom", A.extrasOf(custom, CUSTOM_CALL_KEYS))
      return Block.toolCall(id, name, input, A.optionsOf(key, extras))
    }
    default:
      return A.malformed(ctx, `${path}.type`, `unknown tool call type ${quote(type)}`)
  }
}

const resultContentOf = (ctx: A.Ctx, content: Schema.Json | undefined, path: string): Block.ToolResultContent => {
  if (typeof content === "string") return content
  if (content === null || content === undefined) return ""
  const parts = A.textOrArr(ctx, content, path)
  const out: Array<Block.ToolResultPart> = []
  for (let p = 0; p < parts.length; p++) {
    const part = A.obj(ctx, parts[p], `${path}[${p}]`)
    const type = A.str(ctx, part, "type", `${path}[${p}]`)
    if (type !== "text") A.malformed(ctx, `${path}[${p}].type`, `expected a text part in a tool message, got ${quote(type)}`)
    out.push(textBlock(ctx, part, `${path}[${p}]`))
  }
  return out
}

const decodeMessages = (ctx: A.Ctx, list: ReadonlyArray<Schema.Json>, path: string): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  const calls: Calls = { names: new Map(), lastFunctionCall: undefined, taken: givenToolCallIds(list) }
  for (let i = 0; i < list.length; i++) {
    const at = `${path}[${i}]`
    const m = A.obj(ctx, list[i], at)
    const role = A.str(ctx, m, "role", at)
    switch (role) {
      case "system":
      case "developer": {
        const extras = A.extrasOf(m, SYSTEM_KEYS)
        const name = A.optStr(ctx, m, "name", at)
        out.push(
          Message.system(textBlocks(ctx, m["content"], `${at}.content`), {
            ...(name === undefined ? {} : { name }),
            ...A.optionsOf(key, role === "developer" ? { ...extras, role } : extras)
          })
        )
        break
      }
      case "user": {
        const name = A.optStr(ctx, m, "name", at)
        const body = m["content"]
        let content: Array<Block.UserBlock>
        if (typeof body === "string") {
          content = [Block.text(body)]
        } else {
          const parts = A.textOrArr(ctx, body, `${at}.content`)
          content = []
          for (let p = 0; p < parts.length; p++) content.push(userPart(ctx, A.obj(ctx, parts[p], `${at}.content[${p}]`), `${at}.content[${p}]`))
          const only = content[0]
          if (content.length === 1 && only?._tag === "Text" && !hasExtras(only)) content[0] = asPart(only)
        }
        out.push(Message.user(content, { ...(name === undefined ? {} : { name }), ...A.optionsOf(key, A.extrasOf(m, SYSTEM_KEYS)) }))
        break
      }
      case "assistant": {
        const { content, extras, name } = assistantBlocks(ctx, m, at, i, calls)
        out.push(Message.assistant(content, { ...(name === undefined ? {} : { name }), ...A.optionsOf(key, extras, { [NO_CONTENT]: m["content"] === undefined ? true : undefined }) }))
        break
      }
      case "tool": {
        const id = toolCallIdOf(ctx, m, at, i)
        const named = m["name"]
        const toolName = calls.names.get(id) ?? (typeof named === "string" ? named : "")
        const content = resultContentOf(ctx, m["content"], `${at}.content`)
        out.push(Message.tool(Block.toolResult(id, toolName, content, false, A.optionsOf(key, A.extrasOf(m, TOOL_KEYS)))))
        break
      }
      case "function": {
        const name = A.str(ctx, m, "name", at)
        const content = A.optStr(ctx, m, "content", at)
        const extras = { ...A.extrasOf(m, FUNCTION_MESSAGE_KEYS), role: "function" }
        const options = A.optionsOf(key, extras, { [NULL_CONTENT]: content === undefined ? true : undefined })
        out.push(Message.tool(Block.toolResult(calls.lastFunctionCall ?? "", name, content ?? "", false, options)))
        break
      }
      default:
        return A.malformed(ctx, `${at}.role`, `unknown role ${quote(role)}`)
    }
  }
  return out
}

/**
 * The call id a tool message answers: its `tool_call_id`, or, read leniently,
 * the one id of a `tool_call_ids` list (the shape some agent frameworks
 * persist their histories in). The list itself stays among the message's
 * other fields and is written back; that the id was read from it is
 * reported, since the message is written back with a `tool_call_id` too.
 */
const toolCallIdOf = (ctx: A.Ctx, m: A.Obj, at: string, index: number): string => {
  const ids = m["tool_call_ids"]
  if (m["tool_call_id"] !== undefined || ids === undefined) return A.str(ctx, m, "tool_call_id", at)
  if (!Array.isArray(ids) || ids.length !== 1 || typeof ids[0] !== "string") {
    return A.malformed(
      ctx,
      `${at}.tool_call_ids`,
      `a tool message without tool_call_id is read only with a tool_call_ids list of exactly one id, got ${Array.isArray(ids) ? show(ids) : A.kindOf(ids)}`
    )
  }
  const id: string = ids[0]
  A.converted(ctx, index, undefined, `the one id of a tool_call_ids list (the message has no tool_call_id)`, `back as tool_call_id ${quote(id)}, beside the list, which is kept`)
  return id
}

/**
 * Chat Completions `messages` (any JSON, checked) as a conversation. Each
 * `tool` message becomes a tool message with one result, named after the
 * call it answers; `developer` messages become system messages (and are
 * written back as `developer` messages).
 *
 * @example
 * const { value: conversation } = yield* OpenAiChat.fromMessages([
 *   { role: "user", content: "Weather in Oslo?" },
 *   { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] },
 *   { role: "tool", tool_call_id: "call_1", content: "12°C" }
 * ])
 * Message.toolResultsOf(conversation[2]!)[0]?.toolName // "get_weather"
 *
 * @since 0.1.0
 */
export const fromMessages = (
  messages: unknown,
  options?: ConversionOptions
): Effect.Effect<Converted<Array<Message.Message>>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(PROVIDER, options)
  return A.run(ctx, () => decodeMessages(ctx, A.arr(ctx, A.jsonOf(ctx, messages, "messages"), "messages"), "messages"))
}

const REQUEST_KEYS = new Set(["model", "messages", "tools", "tool_choice", "functions", "function_call", "parallel_tool_calls", "response_format", "max_completion_tokens"])
const TOOL_KEYS_WIRE = new Set(["type", "function", "custom"])
const FUNCTION_DEFINITION_KEYS = new Set(["name", "description", "parameters", "strict"])
const CUSTOM_TOOL_KEYS = new Set(["name", "description"])

const toolDefinition = (ctx: A.Ctx, fn: A.Obj, path: string, extras: Record<string, Schema.Json> | undefined): Request.ToolDefinition => {
  const description = A.optStr(ctx, fn, "description", path)
  const parameters = A.optObj(ctx, fn, "parameters", path)
  const strict = A.optBool(ctx, fn, "strict", path)
  return Request.tool(A.str(ctx, fn, "name", path), {
    ...(description === undefined ? {} : { description }),
    ...(parameters === undefined ? {} : { parameters }),
    ...(strict === undefined ? {} : { strict }),
    ...A.optionsOf(key, extras)
  })
}

/** The tools of a request, or `undefined` when one of them is of a kind this library does not type (then `tools` is kept as sent). */
const decodeTools = (ctx: A.Ctx, list: ReadonlyArray<Schema.Json>): Array<Request.ToolDefinition> | undefined => {
  const out: Array<Request.ToolDefinition> = []
  for (let t = 0; t < list.length; t++) {
    const at = `tools[${t}]`
    const tool = A.obj(ctx, list[t], at)
    const type = tool["type"]
    if (type === "function") {
      const fn = A.obj(ctx, tool["function"], `${at}.function`)
      out.push(toolDefinition(ctx, fn, `${at}.function`, A.withNested(A.extrasOf(tool, TOOL_KEYS_WIRE), "function", A.extrasOf(fn, FUNCTION_DEFINITION_KEYS))))
    } else if (type === "custom") {
      const custom = A.obj(ctx, tool["custom"], `${at}.custom`)
      const description = A.optStr(ctx, custom, "description", `${at}.custom`)
      const extras = A.withNested({ ...A.extrasOf(tool, TOOL_KEYS_WIRE), type: "custom" }, "custom", A.extrasOf(custom, CUSTOM_TOOL_KEYS))
      out.push(Request.tool(A.str(ctx, custom, "name", `${at}.custom`), { ...(description === undefined ? {} : { description }), ...A.optionsOf(key, extras) }))
    } else {
      return undefined
    }
  }
  return out
}

/**
 * A `tool_choice` as the request's tool choice, or `undefined` to keep it as
 * sent: a named one only in the form `toRequest` writes for that name among
 * these tools (`namedToolChoice`), so that a function choice naming a
 * custom tool's name, or a custom choice naming a function's, goes back as
 * it came.
 */
const decodeToolChoice = (choice: Schema.Json | undefined, tools: ReadonlyArray<Request.ToolDefinition>): Request.ToolChoice | undefined => {
  if (choice === "auto" || choice === "none" || choice === "required") return choice
  if (!A.isObj(choice)) return undefined
  const keys = Object.keys(choice)
  const type = choice["type"]
  if (keys.length !== 2 || (type !== "function" && type !== "custom")) return undefined
  const inner = choice[type]
  if (!A.isObj(inner) || Object.keys(inner).length !== 1 || typeof inner["name"] !== "string") return undefined
  const written = namedToolChoice(tools, inner["name"])
  return A.isObj(written) && written["type"] === type ? { _tag: "Tool", name: inner["name"] } : undefined
}

const decodeFunctionCallChoice = (choice: Schema.Json | undefined): Request.ToolChoice | undefined => {
  if (choice === "auto" || choice === "none") return choice
  if (A.isObj(choice) && Object.keys(choice).length === 1 && typeof choice["name"] === "string") return { _tag: "Tool", name: choice["name"] }
  return undefined
}

const decodeResponseFormat = (format: Schema.Json | undefined): Request.ResponseFormat | undefined => {
  if (!A.isObj(format)) return undefined
  const keys = Object.keys(format)
  switch (format["type"]) {
    case "text":
      return keys.length === 1 ? { _tag: "Text" } : undefined
    case "json_object":
      return keys.length === 1 ? { _tag: "JsonObject" } : undefined
    case "json_schema": {
      const spec = format["json_schema"]
      if (keys.length !== 2 || !A.isObj(spec)) return undefined
      const { description, name, schema, strict } = spec
      for (const k in spec) if (k !== "name" && k !== "schema" && k !== "description" && k !== "strict") return undefined
      if (typeof name !== "string" || !A.isObj(schema)) return undefined
      // null reads as absent (the SDK's types allow it for both)
      if (description !== undefined && description !== null && typeof description !== "string") return undefined
      if (strict !== undefined && strict !== null && typeof strict !== "boolean") return undefined
      return {
        _tag: "JsonSchema",
        name,
        schema,
        ...(typeof description === "string" ? { description } : {}),
        ...(typeof strict === "boolean" ? { strict } : {})
      }
    }
    default:
      return undefined
  }
}

const decodeRequest = (ctx: A.Ctx, input: unknown): Request.Request => {
  const body = A.obj(ctx, A.jsonOf(ctx, input), "")
  const messages = decodeMessages(ctx, A.arr(ctx, body["messages"], "messages"), "messages")
  const extras: Record<string, Schema.Json> = A.extrasOf(body, REQUEST_KEYS) ?? {}
  const requestHints: Record<string, Schema.Json> = {}
  const keep = (name: string): void => {
    if (body[name] !== undefined) A.setKey(extras, name, body[name]!)
  }
  let tools: Array<Request.ToolDefinition> | undefined
  let toolChoice: Request.ToolChoice | undefined
  const model = A.optStr(ctx, body, "model", "")
  if (body["tools"] !== undefined && body["tools"] !== null) {
    tools = decodeTools(ctx, A.arr(ctx, body["tools"], "tools"))
    if (tools === undefined) keep("tools")
    toolChoice = decodeToolChoice(body["tool_choice"], tools ?? [])
    if (toolChoice === undefined) keep("tool_choice")
    keep("functions")
    keep("function_call")
  } else if (body["functions"] !== undefined && body["functions"] !== null) {
    const list = A.arr(ctx, body["functions"], "functions")
    tools = []
    for (let f = 0; f < list.length; f++) {
      const fn = A.obj(ctx, list[f], `functions[${f}]`)
      tools.push(toolDefinition(ctx, fn, `functions[${f}]`, { type: "functions", ...A.withNested(undefined, "function", A.extrasOf(fn, FUNCTION_DEFINITION_KEYS)) }))
    }
    toolChoice = decodeFunctionCallChoice(body["function_call"])
    if (toolChoice === undefined) keep("function_call")
    keep("tool_choice")
    // no tool to mark the list with: the request is
    if (list.length === 0) requestHints[LEGACY_FUNCTIONS] = true
  } else {
    toolChoice = decodeToolChoice(body["tool_choice"], [])
    if (toolChoice === undefined) keep("tool_choice")
    keep("function_call")
  }
  // the output limit: max_completion_tokens, else the deprecated max_tokens that OpenAI-compatible servers still take
  // (a hint says to write it back under that name; with both, max_tokens stays a kept field as sent)
  const completionLimit = body["max_completion_tokens"]
  const legacyLimit = body["max_tokens"]
  const legacy = !Request.isTokenLimit(completionLimit) && Request.isTokenLimit(legacyLimit)
  const maxTokens = legacy ? legacyLimit : completionLimit
  if (completionLimit !== undefined && !Request.isTokenLimit(completionLimit)) keep("max_completion_tokens")
  if (legacy) {
    delete extras["max_tokens"]
    requestHints[LEGACY_LIMIT] = true
  }
  const parallel = body["parallel_tool_calls"]
  if (parallel !== undefined && typeof parallel !== "boolean") keep("parallel_tool_calls")
  const responseFormat = decodeResponseFormat(body["response_format"])
  if (responseFormat === undefined) keep("response_format")
  if (body["model"] !== undefined && model === undefined) keep("model")
  return Request.make(messages, {
    ...(model === undefined ? {} : { model }),
    ...(tools === undefined ? {} : { tools }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(typeof parallel === "boolean" ? { parallelToolCalls: parallel } : {}),
    ...(responseFormat === undefined ? {} : { responseFormat }),
    ...(Request.isTokenLimit(maxTokens) ? { maxOutputTokens: maxTokens } : {}),
    ...A.optionsOf(key, Object.keys(extras).length === 0 ? undefined : extras, requestHints)
  })
}

/**
 * A Chat Completions request body (any JSON, checked) as a request: its
 * messages, model, tools (from `tools` or the deprecated `functions`), tool
 * choice, `parallel_tool_calls`, `response_format` and
 * `max_completion_tokens` (as `maxOutputTokens`; without it, the deprecated
 * `max_tokens` that OpenAI-compatible servers still take, written back
 * under that name); every other field
 * (`temperature`, `stream`, `n`, and any of the above in a shape this
 * library does not type) is kept in the request's provider options and
 * written back by `toRequest`.
 *
 * @example
 * const { value: request } = yield* OpenAiChat.fromRequest({
 *   model: "gpt-4o",
 *   temperature: 0.2,
 *   messages: [{ role: "developer", content: "Be brief." }, { role: "user", content: "hi" }]
 * })
 * request.messages[0]?.role // "system"
 * request.providerOptions?.["openai-chat"] // { temperature: 0.2 }
 * const { value: body } = yield* OpenAiChat.toRequest(request) // the same body back
 *
 * @since 0.1.0
 */
export const fromRequest = (
  body: unknown,
  options?: ConversionOptions
): Effect.Effect<Converted<Request.Request>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(PROVIDER, options)
  return A.run(ctx, () => decodeRequest(ctx, body))
}

const usageOf = (ctx: A.Ctx, usage: A.Obj, path: string): Message.Usage => {
  const prompt = A.optObj(ctx, usage, "prompt_tokens_details", path)
  const completion = A.optObj(ctx, usage, "completion_tokens_details", path)
  return A.usage({
    inputTokens: A.count(ctx, usage, "prompt_tokens", path),
    outputTokens: A.count(ctx, usage, "completion_tokens", path),
    totalTokens: A.count(ctx, usage, "total_tokens", path),
    cachedInputTokens: A.count(ctx, prompt, "cached_tokens", `${path}.prompt_tokens_details`),
    reasoningTokens: A.count(ctx, completion, "reasoning_tokens", `${path}.completion_tokens_details`)
  })
}

const finishReasonOf = (reason: string | null): FinishReason => {
  switch (reason) {
    case null:
      return "unknown"
    case "stop":
      return "stop"
    case "length":
      return "length"
    case "tool_calls":
    case "function_call":
      return "tool-calls"
    case "content_filter":
      return "content-filter"
    default:
      return "other"
  }
}

const RESPONSE_KEYS = new Set(["id", "model", "choices"])
const CHOICE_KEYS = new Set(["index", "message", "finish_reason"])

const decodeResponse = (ctx: A.Ctx, input: unknown, options: FromResponseOptions | undefined): DecodedResponse => {
  const response = A.obj(ctx, A.jsonOf(ctx, input), "")
  const choices = A.arr(ctx, response["choices"], "choices")
  const wanted = options?.choice ?? 0
  let at = -1
  for (let c = 0; c < choices.length; c++) {
    const choice = A.obj(ctx, choices[c], `choices[${c}]`)
    const index = choice["index"] ?? c
    if (index === wanted && at === -1) at = c
    // (a second choice of that index, which no response has, is not read over the first: it is left out, reported)
    else if (index === wanted) A.dropped(ctx, undefined, undefined, `choices[${c}], a second choice ${preview(index)}`, `the first choice of that index (choices[${at}]) is read`)
    // written bounded, whatever it is: String() of an index that is an array nested 10,000 deep overflows the stack
    else A.dropped(ctx, undefined, undefined, `choice ${preview(index)}`, "a response is read one choice at a time (the choice option picks another)")
  }
  if (at === -1) return A.malformed(ctx, "choices", `the response has no choice ${wanted}`)
  const path = `choices[${at}]`
  const choice = choices[at] as A.Obj
  const message = A.obj(ctx, choice["message"], `${path}.message`)
  const role = A.optStr(ctx, message, "role", `${path}.message`)
  if (role !== undefined && role !== "assistant") A.malformed(ctx, `${path}.message.role`, `expected an assistant message, got ${quote(role)}`)
  const responseId = response["id"]
  const calls: Calls = {
    names: new Map(),
    lastFunctionCall: undefined,
    taken: givenToolCallIds([message]),
    // (a short digest of it: a response id is long, and the made-up id stays short)
    ...(typeof responseId === "string" && responseId !== "" ? { base: Ids.digest(responseId) } : {})
  }
  const { content, extras, name } = assistantBlocks(ctx, message, `${path}.message`, undefined, calls)
  const rawUsage = A.optObj(ctx, response, "usage", "")
  const usage = rawUsage === undefined ? undefined : usageOf(ctx, rawUsage, "usage")
  const finish = A.optStr(ctx, choice, "finish_reason", path) ?? null
  const providerData: Record<string, Schema.Json> = A.extrasOf(response, RESPONSE_KEYS) ?? {}
  const choiceExtras = A.extrasOf(choice, CHOICE_KEYS)
  if (choiceExtras !== undefined) A.setKey(providerData, "choice", choiceExtras)
  return new DecodedResponse({
    id: A.optStr(ctx, response, "id", "") ?? "",
    model: A.optStr(ctx, response, "model", "") ?? "",
    message: Message.assistant(content, {
      ...(name === undefined ? {} : { name }),
      ...(usage === undefined ? {} : { usage }),
      ...A.optionsOf(key, extras)
    }),
    finishReason: finishReasonOf(finish),
    providerFinishReason: finish,
    ...(usage === undefined ? {} : { usage }),
    ...(Object.keys(providerData).length === 0 ? {} : { providerData })
  })
}

/**
 * A `chat.completion` response as the model: the assistant message of one
 * choice (text, refusal, tool calls, generated audio, `reasoning_content`),
 * with its usage, the finish reason (normalized and as sent), the id and
 * model, and the response's other fields in `providerData`.
 *
 * @example
 * const { value } = yield* OpenAiChat.fromResponse({
 *   id: "chatcmpl-1",
 *   object: "chat.completion",
 *   created: 1700000000,
 *   model: "gpt-4o",
 *   choices: [{
 *     index: 0,
 *     message: { role: "assistant", content: null, refusal: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] },
 *     finish_reason: "tool_calls",
 *     logprobs: null
 *   }],
 *   usage: { prompt_tokens: 52, completion_tokens: 17, total_tokens: 69 }
 * })
 * value.finishReason // "tool-calls"
 * value.message.toolCalls[0]?.args // { city: "Oslo" }
 * value.usage?.inputTokens // 52
 *
 * @since 0.1.0
 */
export const fromResponse = (
  response: Wire.ChatCompletion,
  options?: FromResponseOptions
): Effect.Effect<Converted<DecodedResponse>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(PROVIDER, options)
  return A.run(ctx, () => decodeResponse(ctx, response, options))
}

// ---------------------------------------------------------------------------
// streams
// ---------------------------------------------------------------------------

/**
 * Everything reading a stream can fail with: the response could not be
 * read (`MalformedPayload`, `InvalidToolArguments`, `UnsupportedContent`),
 * the stream ended early (`IncompleteResponse`, with the partial message),
 * broke the protocol (`StreamProtocolError`) or carried the provider's
 * error (`ProviderStreamError`).
 *
 * @since 0.1.0
 */
export type StreamError =
  | MalformedPayload
  | InvalidToolArguments
  | UnsupportedContent
  | IncompleteResponse
  | StreamErrors.StreamProtocolError
  | StreamErrors.ProviderStreamError

const decodeStreamed = <E, R>(
  accumulated: Effect.Effect<Wire.ChatCompletion, E | StreamErrors.StreamError, R>,
  options: FromResponseOptions | undefined
): Effect.Effect<Converted<DecodedResponse>, Exclude<E, StreamErrors.IncompleteStream> | StreamError, R> =>
  A.decodeStreamed(PROVIDER, accumulated, (response) => fromResponse(response, options), (partial) => {
    const lenient = { ...options, strict: false, toolArguments: "lenient" as const }
    const ctx = A.makeCtx(PROVIDER, lenient)
    return A.runResult(ctx, () => decodeResponse(ctx, partial, lenient))
  })

/**
 * Accumulates `chat.completion.chunk` events (as the SDK hands them over,
 * or parsed SSE payloads) and reads the response they add up to: text,
 * refusal and tool calls assembled across chunks (arguments arrive as
 * fragments, several calls interleaved by `index`), usage from the final
 * chunk.
 *
 * @example
 * const chunk = (delta: OpenAiChatWire.Delta, finish_reason: string | null = null): OpenAiChatWire.ChatCompletionChunk =>
 *   ({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1700000000, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason }] })
 * const { value } = yield* OpenAiChat.fromEvents([chunk({ role: "assistant", content: "Hel" }), chunk({ content: "lo!" }, "stop"), "[DONE]"])
 * Message.textOf(value.message) // "Hello!"
 * value.finishReason // "stop"
 *
 * @since 0.1.0
 */
export const fromEvents = (
  events: Iterable<Wire.StreamEvent>,
  options?: FromResponseOptions
): Effect.Effect<Converted<DecodedResponse>, StreamError> => decodeStreamed(OpenAiChatStream.fromEvents(events), options)

/**
 * `fromEvents` over raw SSE text (a whole response body, or its pieces,
 * split anywhere).
 *
 * @example
 * const body = [
 *   'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}',
 *   'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"lo!"},"finish_reason":"stop"}]}',
 *   "data: [DONE]"
 * ].join("\n\n") + "\n\n"
 * const { value } = yield* OpenAiChat.fromSse(body)
 * Message.textOf(value.message) // "Hello!"
 *
 * @since 0.1.0
 */
export const fromSse = (
  input: string | Iterable<string | Uint8Array>,
  options?: FromResponseOptions
): Effect.Effect<Converted<DecodedResponse>, StreamError> => decodeStreamed(OpenAiChatStream.fromSse(input), options)

/**
 * `fromEvents` over an Effect `Stream` of chunks.
 *
 * With `{ keepPartial: true }`, a failure of the stream passed in (the
 * network dropped) is an `IncompleteResponse` with the message so far and
 * that failure as `transportError`; a provider error or protocol violation
 * that came first is still the error, with that failure as its
 * `transportError` (`StreamAccumulator.StreamOptions`).
 *
 * @example
 * import { Effect, Stream } from "effect"
 * import { OpenAiChat, type OpenAiChatWire } from "effect-agent-messages/providers"
 * import OpenAI from "openai"
 *
 * const client = new OpenAI()
 *
 * const program = Effect.gen(function*() {
 *   const stream = yield* Effect.promise(() =>
 *     client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], stream: true })
 *   )
 *   const chunks: Stream.Stream<OpenAiChatWire.StreamEvent, unknown> = Stream.fromAsyncIterable(stream, (e) => e)
 *   const { value } = yield* OpenAiChat.fromStream(chunks)
 *   return value.message
 * })
 *
 * @since 0.1.0
 */
export const fromStream: {
  <E, R>(events: Stream.Stream<Wire.StreamEvent, E, R>, options: FromResponseOptions & KeepPartial): Effect.Effect<Converted<DecodedResponse>, StreamError, R>
  <E, R>(events: Stream.Stream<Wire.StreamEvent, E, R>, options?: FromResponseOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R>
} = <E, R>(events: Stream.Stream<Wire.StreamEvent, E, R>, options?: FromResponseOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R> =>
  decodeStreamed(OpenAiChatStream.fromStream(events, options), options)

/**
 * `fromEvents` over an Effect `Stream` of raw SSE text or bytes (an HTTP
 * response body).
 *
 * With `{ keepPartial: true }`, a failure of the stream passed in (the
 * network dropped) is an `IncompleteResponse` with the message so far and
 * that failure as `transportError`; a provider error or protocol violation
 * that came first is still the error, with that failure as its
 * `transportError` (`StreamAccumulator.StreamOptions`).
 *
 * @example
 * const response = yield* Effect.promise(() =>
 *   fetch("https://api.openai.com/v1/chat/completions", {
 *     method: "POST",
 *     headers: { "content-type": "application/json", authorization: `Bearer ${process.env["OPENAI_API_KEY"]}` },
 *     body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], stream: true })
 *   })
 * )
 * const body = Stream.fromReadableStream({ evaluate: () => response.body!, onError: (cause) => cause })
 * const { value } = yield* OpenAiChat.fromSseStream(body)
 *
 * @since 0.1.0
 */
export const fromSseStream: {
  <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options: FromResponseOptions & KeepPartial): Effect.Effect<Converted<DecodedResponse>, StreamError, R>
  <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options?: FromResponseOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R>
} = <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options?: FromResponseOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R> =>
  decodeStreamed(OpenAiChatStream.fromSseStream(body, options), options)
