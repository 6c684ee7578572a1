/**
 * Anthropic Messages, both ways: the model to `{ system, messages }` (and a
 * whole request body), and request bodies, Messages API responses and
 * streamed events back to the model.
 *
 * **Writing a request**
 *
 * - Every system message, in order, goes to the top-level `system` (text
 *   blocks, `cache_control` kept: a system message's own on its last block,
 *   unless that block has one of its own, which is reported); one after the
 *   conversation started is reported as moved there.
 * - Tool calls are `tool_use` blocks (`input` an object); the results of one
 *   assistant turn are `tool_result` blocks (with `is_error`) first in ONE
 *   user message, followed by the next user message's content. Consecutive
 *   messages of one role are merged (reported, except tool results followed
 *   by the user's next words, which is how the API wants them, and the
 *   messages one wire message was read as, which go back into it), unless
 *   the later one was read from a message of its own (see below).
 * - Thinking and redacted thinking pass through unchanged, in order, with
 *   their signatures; thinking without a signature cannot be replayed and is
 *   reported as left out, and a `cache_control` on thinking, which Anthropic
 *   rejects there, is left out and reported.
 * - A `cache_control` set on a user, tool or assistant message (an Anthropic
 *   message takes none itself) goes on that message's own last block that
 *   takes one (not thinking), also when the message is merged with the ones
 *   around it, unless that block has one of its own; where it went, or why
 *   it was left out, is reported.
 * - Images (JPEG, PNG, GIF, WebP: base64, URL or file id), documents (PDF
 *   or plain text: base64, text, URL or file id, with `title`, `context`
 *   and the citations setting), tool calls the API ran itself
 *   (`server_tool_use`, `mcp_tool_use`) and their result blocks, and every
 *   block this library does not type are carried. A file at a base64
 *   `data:` URL, which Anthropic does not fetch, goes as the base64 data it
 *   holds, of the type the URL declares, as that data would (reported as
 *   converted); one at any other URL that is not http(s) is left out and
 *   reported. A tool call another
 *   provider ran itself (an OpenAI Responses web search, Gemini code
 *   execution: blocks those adapters mark as theirs) is not Anthropic's to
 *   replay: it and its result are left out and reported.
 * - A message that is one plain text block is sent as a string.
 *
 * **Reading**
 *
 * `fromMessages`, `fromRequest` and `fromResponse` accept any JSON and fail
 * with `MalformedPayload` when it is not a Messages payload. A user message
 * that holds `tool_result` blocks becomes a tool message (the results, named
 * after the calls they answer) and, when text follows them, a user message;
 * when the user's blocks come before or between the results, each run of
 * results is a tool message and each run of other blocks a user message, in
 * their order.
 * Server tool results (`web_search_tool_result`, `code_execution_tool_result`,
 * `mcp_tool_result`, ...) are provider-executed tool results in the assistant
 * message, their content a JSON value. `fromEvents`, `fromSse` and
 * `fromStream` accumulate a stream and read the message it adds up to; a
 * stream cut short fails with `IncompleteResponse` carrying the partial
 * message.
 *
 * **Fields the model has no place for** (`cache_control`, `citations: null`,
 * `is_error: false`, `caller`, an MCP call's `server_name`...) are kept in
 * `providerOptions.anthropic` of the block, message, tool definition or
 * request they came from and written back from there. Two of them choose a
 * wire form: `type: "text"` on the only text block of a message sent as a
 * list of blocks rather than a string, and the `type` of a server tool's call
 * or result block (`mcp_tool_use`, `web_search_tool_result`, ...). Five
 * hints are never written: `$noName: true` on a tool definition read from a
 * server tool that came without a name (the MCP connector's
 * `mcp_toolset`), written back without one; `$separateMessage: true` on a
 * message read from a wire message that followed another of the same role (the API merges
 * such messages itself, and accepted them recorded this way), so that it is
 * written as a message of its own again and the request comes back as it
 * was sent; `$messagePart: 0, 1, ...` on each of the messages one user
 * message was read as when its blocks were not results first, so that they
 * are written back into one message without a report of a merge (a message
 * put between them breaks the run: that merge is reported);
 * `$outputFormatField: true` on a request whose response format came as
 * the structured outputs beta's top-level `output_format`; and
 * `$container: "container_…"` on the assistant message of a response whose
 * code execution ran in a container (the response's `container.id`): a
 * request whose last assistant message has it, and that names no container
 * of its own, sends it as `container`, which the API requires while the
 * tool calls code execution made are pending.
 * A field the sender named `separateMessage` is kept and written back as
 * any other, and so is one named `$separateMessage`: a field whose name
 * starts with `$` is kept with one more in front (`$$separateMessage`), so
 * it is never read as a hint.
 *
 * @since 0.1.0
 */
import { Effect, type Schema, type Stream } from "effect"
import * as Block from "../Block.js"
import { anthropicImageType, isDocumentByReference, isImageType } from "../internal/anthropicFiles.js"
import { decodeBase64Text } from "../internal/base64.js"
import { isAnthropicServerBlock } from "../internal/anthropicSends.js"
import { inlineFileOf } from "../internal/dataUrlFile.js"
import { ANTHROPIC_IMAGE_TYPES, bareMediaType } from "../internal/mediaType.js"
import { ANTHROPIC_URLS, isFetchable } from "../internal/fileUrls.js"
import { standardBase64 } from "../internal/base64.js"
import { ANTHROPIC_HINTS, takesNoAnthropicCache } from "../internal/hint.js"
import { stringify } from "../internal/json.js"
import { cutText, messageText, preview, quote, quoteMediaType } from "../internal/preview.js"
import { loneSurrogatePath } from "../internal/surrogates.js"
import { jsonText } from "../internal/toolArgs.js"
import * as Message from "../Message.js"
import * as Request from "../Request.js"
import * as AnthropicStream from "./AnthropicStream.js"
import type * as Wire from "./AnthropicWire.js"
import {
  type ConversionOptions,
  type Converted,
  DecodedResponse,
  type FinishReason,
  type IncompleteResponse,
  type InvalidToolArguments,
  type MalformedPayload,
  MissingRequiredField,
  RejectedSetting,
  RejectedToolName,
  type UnsupportedContent
} from "./Conversion.js"
import * as A from "./internal/adapter.js"
import { show } from "./internal/core.js"
import { isAnthropicCitation } from "../internal/citations.js"
import * as Ids from "./internal/ids.js"
import { hintOf, keptOf } from "./internal/kept.js"
import * as StreamErrors from "./StreamError.js"
import type { KeepPartial, StreamOptions } from "./StreamAccumulator.js"
import * as ToolArguments from "./ToolArguments.js"

/**
 * The key of this format in `providerOptions`.
 *
 * @example
 * // a cache breakpoint on the system prompt
 * const system = Message.system([Block.text("You are a careful code reviewer.", { providerOptions: { [Anthropic.key]: { cache_control: { type: "ephemeral" } } } })])
 * const { value: prompt } = yield* Anthropic.toMessages([system, Message.user("Review this diff.")])
 * prompt.system // [{ type: "text", text: "You are a careful code reviewer.", cache_control: { type: "ephemeral" } }]
 *
 * @since 0.1.0
 */
export const key = "anthropic"

const PROVIDER = "anthropic"

/**
 * Options for writing a request: `maxTokens` is the `max_tokens` to send
 * when the request has no `maxOutputTokens` of its own. The API requires
 * one and has no default: with neither, none is made up, and the body is
 * written without it and reported (`MissingRequiredField`; with `strict:
 * true`, `UnsupportedContent`).
 *
 * @example
 * // a Chat Completions body without max_completion_tokens, sent to Anthropic
 * const { value: request } = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] })
 * const { value: body } = yield* Anthropic.toRequest(Request.make(request.messages, { model: "claude-sonnet-4-5" }), { maxTokens: 1024 })
 * body.max_tokens // 1024
 *
 * @since 0.1.0
 */
export interface ToRequestOptions extends ConversionOptions {
  readonly maxTokens?: number
}

/**
 * What `toMessages` produces: the top-level `system` (absent when there is
 * no system message) and the `messages`.
 *
 * @since 0.1.0
 */
export interface Prompt {
  readonly system?: Wire.SystemParam
  readonly messages: Array<Wire.MessageParam>
}

// ---------------------------------------------------------------------------
// the model -> Anthropic
// ---------------------------------------------------------------------------

/** Tool-result content blocks this library does not type, sent back as they were read. */
const RESULT_PASS_TYPES = new Set(["search_result", "tool_reference", "browser_state"])

const hasExtras = (value: { readonly providerOptions?: Block.ProviderOptions }): boolean => value.providerOptions?.[key] !== undefined

/** The hint on a server tool that came without a name (the MCP connector's `mcp_toolset`), which goes back without one. */
const NO_NAME = "noName"

/** The message-level hint that keeps a message read on its own from being merged into the one before it. */
const SEPARATE = "separateMessage"

/**
 * The message-level hint on each of the messages one wire user message was read as, when its blocks were not
 * results first (the user's words before or between its results): its place among them (0, 1, ...). A message
 * that follows the one before it in that order is written back into it without a report, as it is one message
 * on the wire; anything else between them (a message the caller added) breaks the run.
 */
const MESSAGE_PART = "messagePart"

/** The place a message's `MESSAGE_PART` hint gives it, when it holds one (a whole number). */
const partOf = (m: Message.Message): number | undefined => {
  const part = hintOf(m, key, MESSAGE_PART)
  return typeof part === "number" && Number.isSafeInteger(part) && part >= 0 ? part : undefined
}

/**
 * The request-level hint that its response format came as the structured
 * outputs beta's top-level `output_format` (and goes back there), not as
 * `output_config.format`.
 */
const OUTPUT_FORMAT_FIELD = "outputFormatField"

/**
 * The hint, on an assistant message read from a response, of the id of the container its code execution ran in
 * (the response's `container`): a request that goes on from that message sends it back as `container`, which the
 * API requires while tool calls that code execution made are pending ("container_id is required when there are
 * pending tool uses generated by code execution with tools"), and which keeps the container's files otherwise.
 */
const CONTAINER = "container"

/**
 * The hints above, each stored with a `$` in front (`internal/kept`), never written as fields: the list validation
 * reads too (`ANTHROPIC_HINTS`), so that any other `$` key, which is written as a field, is reported there.
 */
const hints: ReadonlySet<string> = ANTHROPIC_HINTS

/** Whether a text block can be sent as a plain string. */
const isPlain = (block: Block.TextBlock): boolean => !hasExtras(block) && block.citations === undefined

/** Anthropic rejects empty text blocks: they are left out (there is nothing in them to lose, but it is reported). */
const nonEmptyText = (ctx: A.Ctx, block: Block.TextBlock, index: number, blockIndex: number): Wire.TextBlockParam | undefined => {
  if (block.text !== "") return textBlock(ctx, block, index, blockIndex)
  A.dropped(ctx, index, blockIndex, "an empty text block", "Anthropic rejects empty text blocks")
  return undefined
}

const textBlock = (ctx: A.Ctx, block: Block.TextBlock, index: number | undefined, blockIndex: number | undefined): Wire.TextBlockParam => {
  let citations: ReadonlyArray<Schema.Json> | undefined
  // (an empty list too: a text read with citations: [] goes back with it)
  if (block.citations !== undefined) {
    if (block.citations.every(isAnthropicCitation)) citations = block.citations
    else A.dropped(ctx, index, blockIndex, "the citations of a text", "they are not Anthropic citations")
  }
  return { ...A.ownExtras(block, key), type: "text", text: block.text, ...(citations === undefined ? {} : { citations }) }
}

const fileSettings = (ctx: A.Ctx, file: Block.FileBlock, index: number, blockIndex: number, image: boolean): void => {
  const lost: Array<string> = []
  if (file.filename !== undefined) lost.push("file name")
  if (file.detail !== undefined) lost.push("detail setting")
  if (image && (file.title !== undefined || file.context !== undefined || file.citationsEnabled !== undefined)) lost.push("document settings")
  if (lost.length > 0) A.dropped(ctx, index, blockIndex, `the ${lost.join(" and ")} of ${A.an(file.mediaType)} ${file.mediaType} file`, "Anthropic has no place for them")
}

/**
 * A file as the writer sends it, or `undefined` where it is left out (the cases `anthropicLeavesOut` names, which
 * the request estimate counts as nothing). A file at a base64 `data:` URL, which Anthropic does not fetch, is the
 * data it holds (`inlineFileOf`), sent or left out as that data would be.
 */
const fileBlock = (
  ctx: A.Ctx,
  file: Block.FileBlock,
  index: number,
  blockIndex: number
): Wire.ImageBlockParam | Wire.DocumentBlockParam | undefined => {
  const inline = inlineFileOf(file)
  if (inline === undefined) return givenFileBlock(ctx, file, index, blockIndex)
  const sent = givenFileBlock(ctx, inline, index, blockIndex)
  if (sent !== undefined) {
    const media = inline.mediaType
    A.converted(ctx, index, blockIndex, `${A.an(media)} ${messageText(media)} file at a base64 data: URL`, "as the base64 data it holds (Anthropic fetches no data: URL)")
  }
  return sent
}

const givenFileBlock = (
  ctx: A.Ctx,
  file: Block.FileBlock,
  index: number,
  blockIndex: number
): Wire.ImageBlockParam | Wire.DocumentBlockParam | undefined => {
  const extras = A.ownExtras(file, key)
  const media = file.mediaType
  const source = file.source
  const sourceExtras = A.nestedExtras(extras, "source")
  if (isImageType(media)) {
    let image: Wire.ImageSourceParam
    switch (source._tag) {
      case "Base64": {
        const type = anthropicImageType(media, source.data)
        if (type === undefined) {
          A.dropped(ctx, index, blockIndex, `${A.an(media)} ${media} image`, "Anthropic takes JPEG, PNG, GIF and WebP images")
          return undefined
        }
        if (type.relabelled !== undefined) {
          const why = ANTHROPIC_IMAGE_TYPES.has(type.relabelled)
            ? "Anthropic rejects an image that does not match its media type"
            : "Anthropic takes image/jpeg, image/png, image/gif and image/webp, spelled so"
          A.converted(
            ctx,
            index,
            blockIndex,
            `an image declared ${quoteMediaType(media)} whose bytes are ${type.sent}`,
            `as ${type.sent} (${why}; the message keeps ${quoteMediaType(media)})`
          )
        }
        image = { ...sourceExtras, type: "base64", media_type: type.sent, data: standardBase64(source.data) }
        break
      }
      case "Url":
        if (!isFetchable(source.url)) {
          A.dropped(ctx, index, blockIndex, `${A.an(media)} ${media} image at ${A.urlScheme(source.url)} URL`, A.unfetchableReason(source.url, ANTHROPIC_URLS))
          return undefined
        }
        image = { ...sourceExtras, type: "url", url: source.url }
        break
      case "FileId":
        image = { ...sourceExtras, type: "file", file_id: source.fileId }
        break
      case "Text":
        A.dropped(ctx, index, blockIndex, "an image given as text", "an image needs data, a URL or a file id")
        return undefined
      default:
        return Block.absurd(source)
    }
    fileSettings(ctx, file, index, blockIndex, true)
    return { ...extras, type: "image", source: image }
  }
  // by URL or file id a document is a PDF or text (an unknown type may be either)
  if ((source._tag === "Url" || source._tag === "FileId") && !isDocumentByReference(media)) {
    A.dropped(ctx, index, blockIndex, `${A.an(media)} ${media} file by ${source._tag === "Url" ? "URL" : "file id"}`, "Anthropic documents are PDF or plain text")
    return undefined
  }
  let document: Wire.DocumentSourceParam
  switch (source._tag) {
    case "Base64":
      if (bareMediaType(media) === "application/pdf") {
        document = { ...sourceExtras, type: "base64", media_type: "application/pdf", data: standardBase64(source.data) }
      } else {
        const text = bareMediaType(media).startsWith("text/") ? decodeBase64Text(source.data) : undefined
        if (text === undefined) {
          A.dropped(ctx, index, blockIndex, `${A.an(media)} ${media} file`, "Anthropic documents are PDF or plain text")
          return undefined
        }
        A.converted(ctx, index, blockIndex, `a base64 ${media} document`, "as a plain-text document")
        document = { ...sourceExtras, type: "text", media_type: "text/plain", data: text }
      }
      break
    case "Text":
      if (bareMediaType(media) !== "text/plain") A.converted(ctx, index, blockIndex, `${A.an(media)} ${media} document`, "as a plain-text document")
      document = { ...sourceExtras, type: "text", media_type: "text/plain", data: source.text }
      break
    case "Url":
      if (!isFetchable(source.url)) {
        A.dropped(ctx, index, blockIndex, `${A.an(media)} ${media} file at ${A.urlScheme(source.url)} URL`, A.unfetchableReason(source.url, ANTHROPIC_URLS))
        return undefined
      }
      document = { ...sourceExtras, type: "url", url: source.url }
      break
    case "FileId":
      document = { ...sourceExtras, type: "file", file_id: source.fileId }
      break
    default:
      return Block.absurd(source)
  }
  fileSettings(ctx, file, index, blockIndex, false)
  const citations = A.nestedExtras(extras, "citations")
  return {
    ...extras,
    type: "document",
    source: document,
    ...(file.title === undefined ? {} : { title: file.title }),
    ...(file.context === undefined ? {} : { context: file.context }),
    ...(file.citationsEnabled === undefined ? {} : { citations: { ...citations, enabled: file.citationsEnabled } })
  }
}

const inputOf = (ctx: A.Ctx, call: Block.ToolCallBlock, index: number, blockIndex: number): { readonly [key: string]: unknown } => {
  if (call.parseError !== undefined) {
    A.converted(ctx, index, blockIndex, `the argument text of ${quote(call.name)}, not a valid JSON object,`, "as its repaired value (Anthropic takes an object)")
  }
  const object = A.callObject(call)
  if (object.asInput === true) A.converted(ctx, index, blockIndex, `the free-form input of the custom tool call ${quote(call.name)}`, "as {\"input\": <its text>} (Anthropic tools take JSON input)")
  if (object.replaced !== undefined) A.converted(ctx, index, blockIndex, `the argument text of ${quote(call.name)}`, `as {}: ${object.replaced}`)
  if (object.rounded !== undefined) A.converted(ctx, index, blockIndex, `a tool call to ${quote(call.name)}`, `with numbers of its arguments rounded to what a JavaScript number holds (${object.rounded})`)
  return object.value
}

const SERVER_RESULT_TYPES: Record<string, string> = {
  tool_search_tool_regex: "tool_search_tool_result",
  tool_search_tool_bm25: "tool_search_tool_result"
}

/** The content of a server tool's result block: the JSON value it was read as, or its text. */
const serverResultContent = (ctx: A.Ctx, result: Block.ToolResultBlock, index: number, blockIndex: number): Schema.Json => {
  const content = result.content
  if (typeof content === "string") return content
  const first = content[0]
  if (content.length === 1 && first?._tag === "Json") return first.value
  const out: Array<Schema.Json> = []
  for (const part of content) {
    switch (part._tag) {
      case "Json":
        out.push(part.value)
        break
      case "Text":
        out.push(textBlock(ctx, part, index, blockIndex) as unknown as Schema.Json)
        break
      case "File": {
        const file = fileBlock(ctx, part, index, blockIndex)
        if (file !== undefined) out.push(file as unknown as Schema.Json)
        break
      }
      default:
        return Block.absurd(part)
    }
  }
  return out
}

const resultContent = (
  ctx: A.Ctx,
  result: Block.ToolResultBlock,
  index: number,
  blockIndex: number
): string | Array<Wire.TextBlockParam | Wire.ImageBlockParam | Wire.DocumentBlockParam> | undefined => {
  const content = result.content
  if (typeof content === "string") return content
  if (content.length === 0) return undefined
  const out: Array<Wire.TextBlockParam | Wire.ImageBlockParam | Wire.DocumentBlockParam> = []
  for (const part of content) {
    switch (part._tag) {
      case "Text":
        if (part.text !== "") out.push(textBlock(ctx, part, index, blockIndex))
        else A.dropped(ctx, index, blockIndex, `an empty text block in the result of ${messageText(result.toolName)}`, "Anthropic rejects empty text blocks")
        break
      case "File": {
        const file = fileBlock(ctx, part, index, blockIndex)
        if (file !== undefined) out.push(file)
        break
      }
      case "Json": {
        const value = part.value
        if (A.isObj(value) && typeof value["type"] === "string" && RESULT_PASS_TYPES.has(value["type"])) {
          out.push(value as unknown as Wire.TextBlockParam)
        } else {
          A.converted(ctx, index, blockIndex, `a JSON value in the result of ${messageText(result.toolName)}`, "as JSON text")
          out.push({ type: "text", text: stringify(value) })
        }
        break
      }
      default:
        return Block.absurd(part)
    }
  }
  return out.length === 0 ? undefined : out
}

const toolResultBlock = (ctx: A.Ctx, result: Block.ToolResultBlock, index: number, blockIndex: number): Wire.ToolResultBlockParam => {
  const content = resultContent(ctx, result, index, blockIndex)
  return {
    ...A.ownExtras(result, key),
    type: "tool_result",
    tool_use_id: Ids.idFor(ctx, result.toolCallId),
    ...(content === undefined ? {} : { content }),
    ...(result.isError ? { is_error: true } : {})
  }
}

const assistantBlock = (
  ctx: A.Ctx,
  block: Block.AssistantBlock,
  index: number,
  b: number,
  foreignCalls: Set<string>
): Wire.ContentBlockParam | undefined => {
  switch (block._tag) {
    case "Text":
      return nonEmptyText(ctx, block, index, b)
    case "Thinking":
      if (block.signature === undefined) {
        A.dropped(ctx, index, b, "thinking without a signature", "Anthropic takes thinking back only with the signature it gave it")
        return undefined
      }
      // (a summary is OpenAI's reasoning summary: an Anthropic thinking block has none)
      if (block.summary !== undefined && block.summary.length > 0) A.dropped(ctx, index, b, "the summary of a thinking block", "Anthropic thinking blocks have none")
      return { ...thinkingExtras(ctx, block, index, b), type: "thinking", thinking: block.thinking, signature: block.signature }
    case "RedactedThinking":
      return { ...thinkingExtras(ctx, block, index, b), type: "redacted_thinking", data: block.data }
    case "Refusal":
      A.converted(ctx, index, b, "a refusal", "as text (Anthropic has no refusal block)")
      return { type: "text", text: block.refusal }
    case "File":
      A.dropped(ctx, index, b, `${A.an(block.mediaType)} ${block.mediaType} file in an assistant message`, "Anthropic assistant messages hold no files")
      return undefined
    case "ToolCall": {
      const extras = callExtras(ctx, block, index, b)
      const input = inputOf(ctx, block, index, b)
      if (block.providerExecuted === true) {
        if (!isAnthropicServerBlock(block)) {
          foreignCalls.add(block.id)
          A.dropped(ctx, index, b, `the provider-executed call ${quote(block.name)}`, "another provider ran it; Anthropic cannot replay it as a server tool of its own")
          return undefined
        }
        const type = typeof extras?.["type"] === "string" ? extras["type"] : "server_tool_use"
        return { ...extras, type, id: block.id, name: block.name, input } as unknown as Wire.ToolUseBlockParam
      }
      A.checkToolName(ctx, block.name, index, b)
      return { ...extras, type: "tool_use", id: Ids.idFor(ctx, block.id), name: block.name, input }
    }
    case "ToolResult": {
      if (block.providerExecuted !== true) {
        A.dropped(ctx, index, b, `the result of ${quote(block.toolName)} in an assistant message`, "one is sent there only as a server tool's, marked providerExecuted; a result of a tool the client ran goes in a tool message")
        return undefined
      }
      if (foreignCalls.has(block.toolCallId) || !isAnthropicServerBlock(block)) {
        A.dropped(ctx, index, b, `the result of the provider-executed call ${quote(block.toolName)}`, "another provider ran it")
        return undefined
      }
      const extras = A.ownExtras(block, key)
      const type = typeof extras?.["type"] === "string" ? extras["type"] : (Object.hasOwn(SERVER_RESULT_TYPES, block.toolName) ? SERVER_RESULT_TYPES[block.toolName] : undefined) ?? `${block.toolName}_tool_result`
      return {
        ...extras,
        type,
        tool_use_id: block.toolCallId,
        content: serverResultContent(ctx, block, index, b),
        ...(block.isError ? { is_error: true } : {})
      } as unknown as Wire.ContentBlockParam
    }
    case "ProviderData":
      if (block.provider === key) return ownData(ctx, block, index, b)
      A.dropped(ctx, index, b, `${messageText(block.provider)} provider data`, A.foreignDataReason(block, "it belongs to another wire format"))
      return undefined
    default:
      return Block.absurd(block)
  }
}

/**
 * Whether Anthropic takes no `cache_control` on a block: thinking and redacted thinking have none (the SDK's
 * `ThinkingBlockParam` and `RedactedThinkingBlockParam`; the API answers "messages.1.content.0.thinking.cache_control:
 * Extra inputs are not permitted"). Read from the block as written, so that Anthropic provider data holding thinking
 * is passed over too.
 */
const takesNoCache = (block: Wire.ContentBlockParam): boolean => takesNoAnthropicCache((block as { readonly type?: unknown }).type)

/** Kept fields without their `cache_control`. */
const withoutCache = (extras: Block.JsonObject | undefined): Block.JsonObject | undefined => {
  if (extras === undefined || !("cache_control" in extras)) return extras
  const { cache_control: _, ...others } = extras
  return others
}

/** Anthropic provider data as it is written: as it came, but a thinking block's `cache_control` (`takesNoCache`), left out and reported. */
const ownData = (ctx: A.Ctx, block: Block.ProviderDataBlock, index: number, b: number): Wire.ContentBlockParam => {
  const data = block.data as unknown as Wire.ContentBlockParam
  if (!takesNoCache(data) || !("cache_control" in block.data)) return data
  A.dropped(ctx, index, b, `the cache_control of a ${String(block.data["type"]).replace("_", " ")} block`, "Anthropic takes no cache_control on thinking blocks")
  return withoutCache(block.data) as unknown as Wire.ContentBlockParam
}

/** A thinking block's kept fields as they are written: without a `cache_control`, which Anthropic rejects there (`takesNoCache`), reported. */
const thinkingExtras = (ctx: A.Ctx, block: Block.ThinkingBlock | Block.RedactedThinkingBlock, index: number, b: number): Block.JsonObject | undefined => {
  const extras = A.ownExtras(block, key)
  if (extras === undefined || !("cache_control" in extras)) return extras
  A.dropped(ctx, index, b, `the cache_control of a ${block._tag === "Thinking" ? "thinking" : "redacted thinking"} block`, "Anthropic takes no cache_control on thinking blocks")
  return withoutCache(extras)
}

/**
 * A tool call's kept fields as they are written: without the `start_input` that the stream reader keeps beside a
 * call whose `content_block_start` held an input the deltas then replaced (`AnthropicStream`). The API takes no such
 * field on a `tool_use` block: it stays in the model, reported.
 */
const callExtras = (ctx: A.Ctx, call: Block.ToolCallBlock, index: number, b: number): Block.JsonObject | undefined =>
  A.withoutReaderField(
    ctx,
    A.ownExtras(call, key),
    "start_input",
    { index, blockIndex: b },
    `tool call ${quote(call.id)} (the input its stream's start event held before the deltas replaced it, kept by the stream reader)`,
    "Anthropic takes no start_input on a tool use block; it stays in the model"
  )

const userBlock = (ctx: A.Ctx, block: Block.UserBlock, index: number, b: number): Wire.ContentBlockParam | undefined => {
  switch (block._tag) {
    case "Text":
      return nonEmptyText(ctx, block, index, b)
    case "File":
      return fileBlock(ctx, block, index, b)
    case "ProviderData":
      if (block.provider === key) return ownData(ctx, block, index, b)
      A.dropped(ctx, index, b, `${messageText(block.provider)} provider data`, A.foreignDataReason(block, "it belongs to another wire format"))
      return undefined
    default:
      return Block.absurd(block)
  }
}

/** A wire message being built: its blocks, and the only text block when it could go as a string. */
interface Turn {
  readonly role: "user" | "assistant"
  readonly content: Array<Wire.ContentBlockParam>
  /** The fields of the message that opens it, but its breakpoint (which goes on a block of that message). */
  readonly extras: Block.JsonObject | undefined
  last: "user" | "tool" | "assistant"
  plain: string | undefined
  messages: number
  /** The first message of the turn, and whether any of its messages had content. */
  readonly index: number
  filled: boolean
}

/**
 * What Anthropic takes as a tool_use id: letters, digits, "_" and "-" (others are a 400). Ids of client calls
 * outside it (`functions.get_weather:0`, ids with spaces) get one in it, the same for the call and its results.
 */
const ANTHROPIC_IDS: Ids.IdRule = { outside: /[^a-zA-Z0-9_-]/g, rewrite: Ids.rewritesOutside(/[^a-zA-Z0-9_-]/g), why: "Anthropic ids are letters, digits, _ and -" }

/** A turn's content as blocks, its plain text as one text block. */
const blocksOf = (turn: Turn): Array<Wire.ContentBlockParam> => (turn.plain === undefined ? turn.content : [{ type: "text", text: turn.plain }])

/** A turn as the message it is written as, with the fields of the message that opened it. */
const messageOf = (turn: Turn, content: Array<Wire.ContentBlockParam> | string): Wire.MessageParam =>
  ({ ...turn.extras, role: turn.role, content }) as Wire.MessageParam

/**
 * Writes the options of a message whose blocks are `content` from `from` on (`origins`: their places in the message).
 * An Anthropic message has no `cache_control` of its own ("messages.0.cache_control: Extra inputs are not
 * permitted"): a message's breakpoint goes on its own last block that takes one (`takesNoCache`), as a system
 * message's does (and as effect/ai-anthropic places one), unless that block has a `cache_control` of its own, which
 * then stands for it. Its own block also when later messages are merged after it: on theirs it would cache what
 * follows it (the question that changes every turn after a document), and the cache would never be read. A message
 * merged into the one before it has no fields of its own: its other options are left out, reported (the opener's
 * are its Anthropic message's: `Turn.extras`). Returns whether the breakpoint was written.
 */
const writeMessageOptions = (
  ctx: A.Ctx,
  m: Message.Message,
  index: number,
  merged: boolean,
  content: Array<Wire.ContentBlockParam>,
  from: number,
  origins: ReadonlyArray<number>
): boolean => {
  const extras = keptOf(m, key, hints)
  if (extras === undefined) return false
  const { cache_control: cache, ...others } = extras
  const kind = merged ? `${A.an(m.role)} ${m.role} message merged into the message before it` : `${A.an(m.role)} ${m.role} message`
  if (merged) droppedMessageFields(ctx, index, others, kind)
  if (cache === undefined) return false
  const what = `the cache_control of ${kind}`
  let k = content.length - 1
  while (k >= from && takesNoCache(content[k]!)) k--
  if (k < from) {
    const why = content.length > from ? "its blocks are all thinking, which takes none" : "it has no block to mark"
    A.dropped(ctx, index, undefined, what, `${why}, and Anthropic messages take cache_control only on blocks`)
    return false
  }
  const block = content[k] as { readonly cache_control?: unknown }
  const which = `${merged ? "its own" : "its"} last block${k === content.length - 1 ? "" : " that is not thinking"}`
  if (block.cache_control !== undefined) {
    A.dropped(ctx, index, undefined, what, `Anthropic messages take cache_control only on blocks, and ${which} has one of its own`)
    return false
  }
  content[k] = { ...block, cache_control: cache } as unknown as Wire.ContentBlockParam
  const thinking = k === content.length - 1 ? "" : "; thinking takes none"
  A.converted(ctx, index, origins[k - from], what, `on ${which} (Anthropic messages take cache_control only on blocks${thinking})`)
  return true
}

/** Reports the options of a merged message, which cannot be fields of the message it is merged into (that message has those of the message that opens it). */
const droppedMessageFields = (ctx: A.Ctx, index: number, fields: Block.JsonObject | undefined, kind: string): void => {
  const names = fields === undefined ? [] : Object.keys(fields)
  if (names.length > 0) {
    A.dropped(ctx, index, undefined, `the Anthropic options ${cutText(names.join(", "), 120)} of ${kind}`, "that message's fields are those of the message that opens it")
  }
}

const encodePrompt = (ctx: A.Ctx, messages: ReadonlyArray<Message.Message>): Prompt => {
  Ids.planIds(ctx, messages, ANTHROPIC_IDS)
  const system: Array<Wire.TextBlockParam> = []
  let systemPlain: string | undefined
  let systemBlocks = 0
  /** The empty texts of the system messages, left out (Anthropic rejects empty text): reported once all are known. */
  const emptySystem: Array<readonly [number, number]> = []
  const turns: Array<Turn> = []
  let started = false
  /** The `MESSAGE_PART` of the message before (system messages aside: they go to the system prompt). */
  let previousPart: number | undefined
  /** Whether the message `turnFor` was last asked for was merged into the turn before it. */
  let merged = false
  /** The place in the message being written of each block written of it. */
  const origins: Array<number> = []
  const turnFor = (role: "user" | "assistant", kind: Turn["last"], m: Message.Message, index: number): Turn => {
    const last = turns[turns.length - 1]
    merged = false
    const part = partOf(m)
    // the next part of the wire message the one before was read from: rejoined, not merged
    const rejoined = part !== undefined && previousPart !== undefined && part === previousPart + 1
    previousPart = part
    if (last !== undefined && last.role === role && hintOf(m, key, SEPARATE) !== true) {
      if (!rejoined && !(last.last === "tool" && (kind === "user" || kind === "tool"))) {
        A.converted(ctx, index, undefined, `${A.an(kind)} ${kind} message after ${A.an(last.last)} ${last.last} message`, `merged into one ${role} message (Anthropic alternates roles)`)
      }
      last.last = kind
      last.messages++
      last.filled ||= m.content.length > 0
      merged = true
      return last
    }
    const turn: Turn = {
      role,
      content: [],
      // its breakpoint goes on a block of its own (`writeMessageOptions`)
      extras: withoutCache(keptOf(m, key, hints)),
      last: kind,
      plain: undefined,
      messages: 1,
      index,
      filled: m.content.length > 0
    }
    turns.push(turn)
    return turn
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    switch (m.role) {
      case "system":
        if (started) A.converted(ctx, i, undefined, "a system message after the conversation started", "in the top-level system prompt")
        if (m.name !== undefined) A.dropped(ctx, i, undefined, "the name of a system message", "Anthropic system prompts have no names")
        const before = system.length
        for (let b = 0; b < m.content.length; b++) {
          const block = m.content[b]!
          if (block.text === "") {
            emptySystem.push([i, b])
            continue
          }
          systemBlocks++
          systemPlain = systemBlocks === 1 && isPlain(block) ? block.text : undefined
          system.push(textBlock(ctx, block, i, b))
        }
        {
          // the system prompt is a list of blocks: a message's cache breakpoint goes on its last block (as
          // effect/ai-anthropic places it), other message options have nowhere to go
          const { cache_control: cache, ...others } = keptOf(m, key, hints) ?? {}
          const last = system[system.length - 1]
          if (cache !== undefined && last !== undefined && system.length > before) {
            if ((last as { readonly cache_control?: unknown }).cache_control === undefined) {
              system[system.length - 1] = { ...last, cache_control: cache } as Wire.TextBlockParam
              systemPlain = undefined
            } else {
              A.dropped(ctx, i, undefined, "the cache_control of a system message", "Anthropic takes cache_control only on blocks, and its last block has one of its own")
            }
          } else if (cache !== undefined) A.dropped(ctx, i, undefined, "the cache_control of an empty system message", "it has no block to mark")
          if (Object.keys(others).length > 0) A.dropped(ctx, i, undefined, `the Anthropic options ${Object.keys(others).join(", ")} of a system message`, "the system prompt has blocks, not messages, to carry them")
        }
        break
      case "user": {
        started = true
        if (m.name !== undefined) A.dropped(ctx, i, undefined, "the name of a user message", "Anthropic messages have no names")
        const turn = turnFor("user", "user", m, i)
        const before = turn.content.length
        origins.length = 0
        for (let b = 0; b < m.content.length; b++) {
          const out = userBlock(ctx, m.content[b]!, i, b)
          if (out === undefined) continue
          turn.content.push(out)
          origins.push(b)
        }
        const only = m.content[0]
        turn.plain = turn.messages === 1 && before === 0 && m.content.length === 1 && only?._tag === "Text" && only.text !== "" && isPlain(only) ? only.text : undefined
        if (writeMessageOptions(ctx, m, i, merged, turn.content, before, origins)) turn.plain = undefined
        break
      }
      case "tool": {
        started = true
        const turn = turnFor("user", "tool", m, i)
        const before = turn.content.length
        turn.plain = undefined
        origins.length = 0
        for (let b = 0; b < m.content.length; b++) {
          turn.content.push(toolResultBlock(ctx, m.content[b]!, i, b))
          origins.push(b)
        }
        writeMessageOptions(ctx, m, i, merged, turn.content, before, origins)
        break
      }
      case "assistant": {
        started = true
        if (m.name !== undefined) A.dropped(ctx, i, undefined, "the name of an assistant message", "Anthropic messages have no names")
        const turn = turnFor("assistant", "assistant", m, i)
        const before = turn.content.length
        const foreignCalls = new Set<string>()
        origins.length = 0
        for (let b = 0; b < m.content.length; b++) {
          const out = assistantBlock(ctx, m.content[b]!, i, b, foreignCalls)
          if (out === undefined) continue
          turn.content.push(out)
          origins.push(b)
        }
        const only = m.content[0]
        turn.plain = turn.messages === 1 && before === 0 && m.content.length === 1 && only?._tag === "Text" && only.text !== "" && isPlain(only) ? only.text : undefined
        if (writeMessageOptions(ctx, m, i, merged, turn.content, before, origins)) turn.plain = undefined
        break
      }
      default:
        return Block.absurd(m)
    }
  }
  const out: Array<Wire.MessageParam> = []
  let previous: Turn | undefined
  let emptied = false
  for (const turn of turns) {
    if (turn.plain === undefined && turn.content.length === 0 && turn.filled) {
      A.droppedEmptyMessage(ctx, turn.index, turn.role, "Anthropic")
      emptied = true
      continue
    }
    // the turns on both sides of one left out meet: one turn, as Anthropic would make them
    if (emptied && previous !== undefined && previous.role === turn.role) {
      A.converted(ctx, turn.index, undefined, `${A.an(turn.role)} ${turn.role} message after a message left out`, `merged into the ${turn.role} message before it (Anthropic alternates roles)`)
      const joined = [...blocksOf(previous), ...blocksOf(turn)]
      // the fields of the message that opened it are no fields of the message before (its breakpoint is on its own
      // block already, and stays there)
      droppedMessageFields(ctx, turn.index, turn.extras, `${A.an(messages[turn.index]!.role)} ${messages[turn.index]!.role} message merged into the message before it`)
      out[out.length - 1] = messageOf(previous, joined)
      previous = { ...previous, content: joined, plain: undefined }
      emptied = false
      continue
    }
    emptied = false
    out.push(messageOf(turn, turn.plain ?? turn.content))
    previous = turn
  }
  // an empty system prompt is no system prompt (Anthropic rejects empty text); an empty text beside others is left out
  if (system.length === 0 && emptySystem.length > 0) A.dropped(ctx, undefined, undefined, "an empty system prompt", "Anthropic rejects empty text; no system prompt is the same")
  else for (const [index, blockIndex] of emptySystem) A.dropped(ctx, index, blockIndex, "an empty text block", "Anthropic rejects empty text blocks")
  return {
    ...(system.length === 0 ? {} : { system: systemPlain ?? system }),
    messages: out
  }
}

/**
 * A conversation as Anthropic's `{ system, messages }`, with the warnings of
 * what could not be carried (or `UnsupportedContent` with `strict: true`).
 *
 * @example
 * import { Effect } from "effect"
 * import { Message } from "effect-agent-messages"
 * import { Anthropic } from "effect-agent-messages/providers"
 * import AnthropicClient from "@anthropic-ai/sdk"
 *
 * const client = new AnthropicClient()
 * const conversation = [Message.system("Be brief."), Message.user("What is the weather in Oslo?")]
 *
 * const program = Effect.gen(function*() {
 *   const { value: prompt, warnings } = yield* Anthropic.toMessages(conversation)
 *   for (const warning of warnings) yield* Effect.logWarning(warning.message)
 *   const message = yield* Effect.promise(() => client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, ...prompt }))
 *   const { value } = yield* Anthropic.fromResponse(message)
 *   return value.message
 * })
 *
 * @since 0.1.0
 */
export const toMessages = (
  messages: ReadonlyArray<Message.Message>,
  options?: ConversionOptions
): Effect.Effect<Converted<Prompt>, UnsupportedContent> => {
  const ctx = A.makeCtx(PROVIDER, options)
  return A.runEncode(ctx, () => encodePrompt(ctx, messages))
}

/** A tool of Anthropic's own (a server tool, or a client tool with an Anthropic-defined schema): it has a `type`. */
const isServerTool = (extras: Block.JsonObject | undefined): boolean => {
  const type = extras?.["type"]
  return typeof type === "string" && type !== "custom"
}

const encodeTool = (ctx: A.Ctx, tool: Request.ToolDefinition): Wire.ToolParam | undefined => {
  const defined = tool.providerDefined
  if (defined !== undefined) {
    if (defined.provider === key) {
      const named = hintOf(tool, key, NO_NAME) === true ? {} : { name: tool.name }
      return { ...defined.config, type: defined.type, ...named } as unknown as Wire.ToolParam
    }
    A.dropped(ctx, undefined, undefined, `the definition of ${messageText(tool.name)}, a tool ${messageText(defined.provider)} defines`, "Anthropic runs only its own tools")
    return undefined
  }
  const extras = A.ownExtras(tool, key)
  if (isServerTool(extras)) return { ...extras, name: tool.name } as unknown as Wire.ToolParam
  const custom = A.isChatCustomCall(tool) && tool.parameters === undefined
  if (custom) {
    A.converted(ctx, undefined, undefined, `${messageText(tool.name)}, a custom tool taking free-form text`, `as a tool taking an object of one string, input (Anthropic tools take JSON input)${A.customFormatNote(tool)}`)
  }
  A.checkToolName(ctx, tool.name)
  let schema = tool.parameters ?? (custom ? A.CUSTOM_INPUT_SCHEMA : { type: "object", properties: {} })
  if (schema["type"] === undefined) {
    // Anthropic requires input_schema.type "object" (an empty schema, or one with properties only, is valid JSON Schema elsewhere)
    A.converted(ctx, undefined, undefined, `the parameters of ${messageText(tool.name)}, a schema without a type`, "with type \"object\", which Anthropic requires of input_schema")
    schema = { type: "object", ...schema }
  }
  return {
    ...extras,
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    input_schema: schema as Wire.ToolParam["input_schema"],
    ...(tool.strict === undefined ? {} : { strict: tool.strict })
  }
}

/**
 * The tool choice as Anthropic takes it. Its `none` takes no other field (the
 * API's schema and the SDK's `ToolChoiceNone` have `type` alone, and the API
 * answers an extra field with a 400), so a parallel tool calls setting next
 * to it is left out: allowing parallel calls is Anthropic's default and loses
 * nothing, forbidding them is reported (under `none` no tool is called
 * anyway, but the setting was the caller's).
 */
const encodeToolChoice = (
  ctx: A.Ctx,
  request: { readonly toolChoice: Request.ToolChoice | undefined; readonly parallelToolCalls: boolean | undefined }
): Wire.ToolChoiceParam | undefined => {
  const choice = request.toolChoice
  const parallel = request.parallelToolCalls === undefined ? {} : { disable_parallel_tool_use: !request.parallelToolCalls }
  if (choice === undefined) return request.parallelToolCalls === false ? { type: "auto", ...parallel } : undefined
  if (typeof choice !== "string") return { type: "tool", name: choice.name, ...parallel }
  switch (choice) {
    case "auto":
      return { type: "auto", ...parallel }
    case "required":
      return { type: "any", ...parallel }
    case "none":
      if (request.parallelToolCalls === false) {
        A.dropped(ctx, undefined, undefined, "the parallel tool calls setting", "Anthropic's tool choice none takes no other field, and no tool is called under it")
      }
      return { type: "none" }
    default:
      return Block.absurd(choice)
  }
}

/**
 * Leaves out a tool choice (written, or kept as sent) when the body has no tools, reported: the API answers
 * `tool_choice` without `tools` with a 400 ("tool_choice may only be specified while providing tools"), and without
 * tools it means nothing. `fromParallel` says the choice was written only to carry a parallel tool calls setting.
 */
const dropChoiceWithoutTools = (ctx: A.Ctx, body: Record<string, unknown>, fromParallel: boolean): void => {
  const value = body["tool_choice"]
  if (value === undefined || (Array.isArray(body["tools"]) && body["tools"].length > 0)) return
  const what = fromParallel ? "the parallel tool calls setting" : `the tool choice ${preview(value)}`
  A.dropped(ctx, undefined, undefined, what, "the request has no tools, and Anthropic rejects tool_choice without them (\"tool_choice may only be specified while providing tools\")")
  delete body["tool_choice"]
}

/**
 * What can go out as `max_tokens`: a whole number of at least 1 (one beyond the safe integers, kept from a body as it
 * was, goes back as it came, for the API to judge).
 */
const isOutputLimit = (u: unknown): u is number => typeof u === "number" && Number.isInteger(u) && u >= 1

/** A value as a message shows it: a number as JavaScript writes it (NaN, Infinity), anything else as JSON. */
const shown = (u: unknown): string => (typeof u === "number" ? String(u) : show(u ?? null))

/**
 * The `max_tokens` to write: the request's own (`own`, typed or kept from an Anthropic body) when the API takes it,
 * else the `maxTokens` option when it is a safe integer of at least 1 (the caller's own number). The API has no
 * default for it, and a guessed one would cut answers short without a word: a value refused (a limit of 0, a kept
 * null, a NaN option) is left out and said, as a missing one is, and a request's value the option replaces is said.
 */
const outputLimit = (ctx: A.Ctx, own: unknown, option: unknown): number | undefined => {
  const chosen = isOutputLimit(own) ? own : isOutputLimit(option) && Number.isSafeInteger(option) ? option : undefined
  if (chosen !== undefined) {
    if (own !== undefined && chosen !== own) {
      A.converted(ctx, undefined, undefined, `max_tokens ${shown(own)}`, `the maxTokens option's ${chosen} (the Messages API takes a whole number of at least 1)`)
    }
    return chosen
  }
  const refused = [own === undefined ? undefined : `the request's ${shown(own)}`, option === undefined ? undefined : `the maxTokens option's ${shown(option)}`]
    .filter((s) => s !== undefined)
  const supply = "set the request's maxOutputTokens or the maxTokens option"
  ctx.warnings.push(
    new MissingRequiredField({
      path: "max_tokens",
      reason: refused.length === 0
        ? `the Messages API rejects a request without it; ${supply}`
        : `the Messages API takes a whole number of at least 1, not ${refused.join(" or ")}; ${supply}`
    })
  )
  return undefined
}

/**
 * Reports the settings the Messages API rejects beside extended thinking, each a 400, written as they are
 * (`RejectedSetting`): they are the caller's, and which of two settings should give way is the caller's to say.
 * Manual thinking (`type: "enabled"`) takes no tool choice that forces tool use (adaptive thinking does), a budget of
 * at least 1024 tokens, and a `max_tokens` above the budget; thinking on or adaptive takes `temperature` 1 only, no
 * `top_k`, and a `top_p` from 0.95 to 1. A value that is not a number is left for the API to judge.
 */
const reportThinkingConflicts = (ctx: A.Ctx, body: { readonly [key: string]: unknown }): void => {
  const thinking = body["thinking"] as Schema.Json | undefined
  if (!A.isObj(thinking)) return
  const manual = thinking["type"] === "enabled"
  if (!manual && thinking["type"] !== "adaptive") return
  const reject = (path: string, value: Schema.Json, rule: string): void => {
    ctx.warnings.push(new RejectedSetting({ path, value, rule }))
  }
  const mode = manual ? "extended thinking on" : "adaptive thinking"
  const choice = body["tool_choice"] as Schema.Json | undefined
  if (manual && A.isObj(choice) && (choice["type"] === "any" || choice["type"] === "tool")) {
    reject("tool_choice", choice, "Anthropic takes no tool choice that forces tool use with extended thinking on (\"Thinking may not be enabled when tool_choice forces tool use\"; adaptive thinking takes it)")
  }
  const temperature = body["temperature"]
  if (typeof temperature === "number" && temperature !== 1) reject("temperature", temperature, `Anthropic takes only temperature 1 with ${mode}`)
  const topK = body["top_k"]
  if (typeof topK === "number") reject("top_k", topK, `Anthropic takes no top_k with ${mode}`)
  const topP = body["top_p"]
  if (typeof topP === "number" && !(topP >= 0.95 && topP <= 1)) reject("top_p", topP, `Anthropic takes a top_p from 0.95 to 1 with ${mode}`)
  const budget = thinking["budget_tokens"]
  if (!manual || typeof budget !== "number") return
  if (budget < 1024) reject("thinking.budget_tokens", budget, "Anthropic takes a thinking budget of at least 1024 tokens")
  const limit = body["max_tokens"]
  if (typeof limit === "number" && limit <= budget) {
    reject("max_tokens", limit, `Anthropic takes a max_tokens greater than thinking.budget_tokens (${budget}) without the interleaved-thinking beta`)
  }
}

/** The container id of the conversation's last assistant message (`CONTAINER`), if it was read from a response with one. */
const lastAssistantContainer = (messages: ReadonlyArray<Message.Message>): string | undefined => {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (m.role !== "assistant") continue
    const id = hintOf(m, key, CONTAINER)
    return typeof id === "string" ? id : undefined
  }
  return undefined
}

const encodeRequest = (ctx: A.Ctx, request: Request.Request, options: ToRequestOptions | undefined): Wire.RequestBody => {
  const extras = keptOf(request, key, hints)
  const body: Record<string, unknown> = { ...extras }
  const beta = hintOf(request, key, OUTPUT_FORMAT_FIELD) === true
  if (request.model !== undefined) body["model"] = request.model
  const maxTokens = outputLimit(ctx, request.maxOutputTokens ?? body["max_tokens"], options?.maxTokens)
  delete body["max_tokens"]
  if (maxTokens !== undefined) body["max_tokens"] = maxTokens
  const prompt = encodePrompt(ctx, request.messages)
  if (prompt.system !== undefined) body["system"] = prompt.system
  // a request that goes on from a response whose code execution ran in a container sends that container back
  if (body["container"] === undefined) {
    const container = lastAssistantContainer(request.messages)
    if (container !== undefined) body["container"] = container
  }
  body["messages"] = prompt.messages
  A.droppedForeignSettings(ctx, request, key)
  const names: Array<string> = []
  if (request.tools !== undefined && request.tools.length > 0) {
    const tools: Array<Wire.ToolParam> = []
    const seen = new Set<string>()
    const twice = new Set<string>()
    for (const tool of request.tools) {
      const written = encodeTool(ctx, tool)
      if (written === undefined) continue
      tools.push(written)
      names.push(tool.name)
      // "tools: Tool names must be unique" (the API's 400); reported once per name
      const name = (written as { readonly name?: unknown }).name
      if (typeof name !== "string") continue
      if (!seen.has(name)) seen.add(name)
      else if (!twice.has(name)) {
        twice.add(name)
        ctx.warnings.push(new RejectedToolName({ name, rule: "Anthropic takes each tool name once in a request (\"tools: Tool names must be unique\")" }))
      }
    }
    if (tools.length > 0) body["tools"] = tools
    tools.forEach((tool, i) => A.checkParametersRoot(ctx, (tool as { readonly input_schema?: unknown }).input_schema, `tools[${i}].input_schema`, "Anthropic"))
  }
  const settings = A.toolSettingsAfter(ctx, request, { names, any: names.length > 0 })
  const choice = encodeToolChoice(ctx, settings)
  if (choice !== undefined) body["tool_choice"] = choice
  dropChoiceWithoutTools(ctx, body, choice !== undefined && settings.toolChoice === undefined)
  const format = request.responseFormat
  if (format !== undefined) {
    switch (format._tag) {
      case "Text":
        break
      case "JsonObject":
        A.dropped(ctx, undefined, undefined, "the JSON-object response format", "Anthropic structured output needs a schema")
        break
      case "JsonSchema": {
        if (format.description !== undefined || format.strict !== undefined) {
          A.dropped(ctx, undefined, undefined, "the description and strict setting of the response format", "Anthropic's output format is a schema only")
        }
        const written = { type: "json_schema", schema: format.schema }
        if (beta && body["output_format"] === undefined) body["output_format"] = written
        else body["output_config"] = { ...A.nestedExtras(extras, "output_config"), format: written }
        break
      }
      default:
        return Block.absurd(format)
    }
  }
  reportThinkingConflicts(ctx, body)
  reportLoneSurrogates(ctx, body)
  return body as unknown as Wire.RequestBody
}

/**
 * Reports the first lone surrogate (half of a character) in each field of the body beside its messages and system
 * text (a tool's description or schema, the output format, a kept setting): the API parses the body as strict JSON
 * and answers one anywhere with a 400 ("The request body is not valid JSON: no low surrogate in string"). The value
 * is the caller's and is written as it is (`RejectedSetting`); in the messages it is validation's `LoneSurrogate`.
 */
const reportLoneSurrogates = (ctx: A.Ctx, body: Record<string, unknown>): void => {
  for (const field of Object.keys(body)) {
    if (field === "messages" || field === "system") continue
    const path = loneSurrogatePath([field], body[field])
    if (path === undefined) continue
    ctx.warnings.push(
      new RejectedSetting({
        path: A.pathText(path),
        value: loneSurrogateValue(body[field], path.slice(1)),
        rule: "Anthropic takes no lone surrogate (half of a character) anywhere in a request (\"The request body is not valid JSON: no low surrogate in string\")"
      })
    )
  }
}

/** The string at `path` in `value` (a key holding the surrogate is its own value), cut to 80 code units. */
const loneSurrogateValue = (value: unknown, path: ReadonlyArray<string | number>): string => {
  let v = value
  for (const k of path) {
    const next = typeof v === "object" && v !== null ? (v as Record<string | number, unknown>)[k] : undefined
    if (next === undefined) return cutText(String(k), 80)
    v = next
  }
  return cutText(typeof v === "string" ? v : String(path[path.length - 1] ?? ""), 80)
}

/**
 * A whole request as a Messages request body: `system` and `messages`, the
 * model, tools (client tools with `input_schema`; Anthropic's own tools,
 * `providerDefined` with provider `"anthropic"`, as they were read; tools
 * another provider defines are reported and left out), `tool_choice` (with
 * `disable_parallel_tool_use` from
 * `parallelToolCalls`), a JSON-schema response format as
 * `output_config.format` (as the beta's top-level `output_format` when it
 * was read from there), `max_tokens` (the request's `maxOutputTokens`,
 * else the `maxTokens` option; with neither, none is written and a
 * `MissingRequiredField` warning says so, since the API requires it), and
 * the request's other Anthropic fields (`thinking`, `temperature`, ...)
 * kept in its provider options. A tool name Anthropic does not take is
 * written as it is and reported (`RejectedToolName`), and so is a setting
 * the API rejects beside extended thinking (`RejectedSetting`): a tool
 * choice that forces tool use with manual thinking, a `temperature` other
 * than 1, a `top_k`, a `top_p` outside 0.95 to 1, a `max_tokens` not above
 * `thinking.budget_tokens`, a budget under 1024. An `input_schema` whose
 * `type` is not `"object"` is written as it is and reported
 * (`RejectedSetting`) too; one without a `type` is written with
 * `type: "object"`, which Anthropic requires.
 *
 * @example
 * const { value: body } = yield* Anthropic.toRequest(
 *   Request.make([Message.system("Be brief."), Message.user("hi")], { model: "claude-sonnet-4-5" }),
 *   { maxTokens: 4096 }
 * )
 * body.max_tokens // 4096
 * body.system // "Be brief."
 *
 * @since 0.1.0
 */
export const toRequest = (
  request: Request.Request,
  options?: ToRequestOptions
): Effect.Effect<Converted<Wire.RequestBody>, UnsupportedContent> => {
  const ctx = A.makeCtx(PROVIDER, options)
  return A.runEncode(ctx, () => encodeRequest(ctx, request, options))
}

// ---------------------------------------------------------------------------
// Anthropic -> the model
// ---------------------------------------------------------------------------

const TEXT_KEYS = new Set(["type", "text", "citations"])
const THINKING_KEYS = new Set(["type", "thinking", "signature"])
const REDACTED_KEYS = new Set(["type", "data"])
const TOOL_USE_KEYS = new Set(["type", "id", "name", "input"])
const SERVER_TOOL_USE_KEYS = new Set(["id", "name", "input"])
const TOOL_RESULT_KEYS = new Set(["type", "tool_use_id", "content", "is_error"])
const SERVER_RESULT_KEYS = new Set(["tool_use_id", "content", "is_error"])
const IMAGE_KEYS = new Set(["type", "source"])
const DOCUMENT_KEYS = new Set(["type", "source", "title", "context", "citations"])
const MESSAGE_KEYS = new Set(["role", "content"])
const PROMPT_KEYS = new Set(["system", "messages"])

/** Keeps a `null` (or other untyped value) of a typed field among the extras, so it is written back as it was. */
const keepUntyped = (extras: Record<string, Schema.Json> | undefined, o: A.Obj, name: string, typed: boolean): Record<string, Schema.Json> | undefined => {
  const v = o[name]
  if (v === undefined || typed) return extras
  const out = extras ?? {}
  A.setKey(out, name, v)
  return out
}

const decodeText = (ctx: A.Ctx, block: A.Obj, path: string): Block.TextBlock => {
  const citations = block["citations"]
  const extras = keepUntyped(A.extrasOf(block, TEXT_KEYS), block, "citations", Array.isArray(citations))
  return Block.text(A.str(ctx, block, "text", path), {
    ...(Array.isArray(citations) ? { citations } : {}),
    ...A.optionsOf(key, extras)
  })
}

/** Marks the only text block of a message sent as a list, so it is written back as a list. */
const asListed = (block: Block.TextBlock): Block.TextBlock =>
  Block.text(block.text, { ...(block.citations === undefined ? {} : { citations: block.citations }), providerOptions: { [key]: { type: "text" } } })

const SOURCE_KEYS: Record<string, ReadonlySet<string>> = {
  base64: new Set(["type", "media_type", "data"]),
  text: new Set(["type", "media_type", "data"]),
  url: new Set(["type", "url"]),
  file: new Set(["type", "file_id"])
}

/** An image or document block as a file, or `undefined` for a source this library does not type. */
const decodeFile = (ctx: A.Ctx, block: A.Obj, path: string, image: boolean): Block.FileBlock | undefined => {
  const source = A.obj(ctx, block["source"], `${path}.source`)
  const type = A.str(ctx, source, "type", `${path}.source`)
  const at = `${path}.source`
  let fileSource: Block.FileSource
  let mediaType: string
  switch (type) {
    case "base64":
      fileSource = Block.base64(A.str(ctx, source, "data", at))
      mediaType = A.str(ctx, source, "media_type", at)
      break
    case "text":
      if (image) return undefined
      fileSource = Block.textSource(A.str(ctx, source, "data", at))
      mediaType = A.optStr(ctx, source, "media_type", at) ?? "text/plain"
      break
    case "url":
      fileSource = Block.url(A.str(ctx, source, "url", at))
      mediaType = image ? "image/*" : "application/pdf"
      break
    case "file":
      fileSource = Block.fileId(A.str(ctx, source, "file_id", at))
      mediaType = image ? "image/*" : "application/pdf"
      break
    default:
      return undefined
  }
  let extras = A.withNested(A.extrasOf(block, image ? IMAGE_KEYS : DOCUMENT_KEYS), "source", A.extrasOf(source, SOURCE_KEYS[type]!))
  if (image) return Block.file(fileSource, mediaType, A.optionsOf(key, extras))
  const title = block["title"]
  const context = block["context"]
  const citations = block["citations"]
  extras = keepUntyped(extras, block, "title", typeof title === "string")
  extras = keepUntyped(extras, block, "context", typeof context === "string")
  let citationsEnabled: boolean | undefined
  if (A.isObj(citations) && (citations["enabled"] === undefined || typeof citations["enabled"] === "boolean")) {
    citationsEnabled = citations["enabled"] as boolean | undefined
    const nested = A.extrasOf(citations, new Set(["enabled"]))
    if (citationsEnabled === undefined) extras = keepUntyped(extras, block, "citations", false)
    else extras = A.withNested(extras, "citations", nested)
  } else {
    extras = keepUntyped(extras, block, "citations", false)
  }
  return Block.file(fileSource, mediaType, {
    ...(typeof title === "string" ? { title } : {}),
    ...(typeof context === "string" ? { context } : {}),
    ...(citationsEnabled === undefined ? {} : { citationsEnabled }),
    ...A.optionsOf(key, extras)
  })
}

/** Call ids and names seen so far, to name the results that answer them. */
type Names = Map<string, string>

const decodeResultContent = (ctx: A.Ctx, content: Schema.Json | undefined, path: string): Block.ToolResultContent => {
  if (content === undefined || content === null) return []
  if (typeof content === "string") return content
  const parts = A.textOrArr(ctx, content, path)
  const out: Array<Block.ToolResultPart> = []
  for (let p = 0; p < parts.length; p++) {
    const at = `${path}[${p}]`
    const part = A.obj(ctx, parts[p], at)
    const type = A.str(ctx, part, "type", at)
    const file = type === "image" || type === "document" ? decodeFile(ctx, part, at, type === "image") : undefined
    if (type === "text") out.push(decodeText(ctx, part, at))
    else if (file !== undefined) out.push(file)
    else {
      if (!RESULT_PASS_TYPES.has(type)) A.converted(ctx, undefined, undefined, `${A.an(type)} ${type} block in a tool result (${at})`, "as a JSON value, sent back as JSON text")
      out.push(Block.json(part))
    }
  }
  return out
}

const decodeToolResult = (ctx: A.Ctx, block: A.Obj, path: string, names: Names): Block.ToolResultBlock => {
  const id = A.str(ctx, block, "tool_use_id", path)
  const isError = A.optBool(ctx, block, "is_error", path)
  const content = block["content"]
  // (`content: []` or `null` reads as no content, which goes back without the field: kept as given)
  const given = keepUntyped(A.extrasOf(block, TOOL_RESULT_KEYS), block, "content", content === undefined || typeof content === "string" || (Array.isArray(content) && content.length > 0))
  const extras = keepUntyped(given, block, "is_error", isError === true)
  return Block.toolResult(id, names.get(id) ?? "", decodeResultContent(ctx, block["content"], `${path}.content`), isError === true, A.optionsOf(key, extras))
}

/**
 * Whether streamed input text says more than the input it was read as: its compact form (the text without the
 * whitespace between tokens) is not the input's JSON. That is a number a double cannot hold or written another way
 * (`1.0`, `1e2`), an escape (`\u00e9`, `\/`), a key given twice, or keys in another order than the object keeps.
 * Spacing alone is not; nor is the empty text a stream sends for an empty input. Linear in the text.
 */
const saysMore = (text: string, input: Schema.Json): boolean => text.trim() !== "" && compactJson(text) !== jsonText(input)

/**
 * JSON text without the whitespace between its tokens, strings as they are written; text that is not JSON is
 * walked as far as it goes. One pass over the text.
 */
const compactJson = (text: string): string => {
  const kept: Array<string> = []
  let from = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // a string: up to its closing quote, escapes skipped
      let j = i + 1
      while (j < text.length && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 ? 2 : 1
      i = j
    } else if (c === 32 || c === 10 || c === 13 || c === 9) {
      if (i > from) kept.push(text.slice(from, i))
      from = i + 1
    }
  }
  if (from < text.length) kept.push(text.slice(from))
  return kept.join("")
}

const decodeToolUse = (ctx: A.Ctx, block: A.Obj, path: string, index: number | undefined, blockIndex: number, names: Names, type: string, streamedInput?: string): Block.ToolCallBlock => {
  const id = A.str(ctx, block, "id", path)
  const name = A.str(ctx, block, "name", path)
  names.set(id, name)
  const server = type !== "tool_use"
  let extras = A.extrasOf(block, server ? SERVER_TOOL_USE_KEYS : TOOL_USE_KEYS)
  if (server && type === "server_tool_use" && extras !== undefined) delete extras["type"]
  if (server && type === "server_tool_use" && extras !== undefined && Object.keys(extras).length === 0) extras = undefined
  const options = { ...(server ? { providerExecuted: true } : {}), ...A.optionsOf(key, extras) }
  const input = block["input"]
  if (A.isObj(input)) {
    // input a stream sent as text (AnthropicStream.inputTextsOf) that says more than the parsed input (a number too long
    // for a double or written another way, an escape, a key given twice) is kept, while it still gives this input;
    // spacing alone is not kept, so a stream reads as its final response does
    if (streamedInput !== undefined && saysMore(streamedInput, input)) {
      const parsed = ToolArguments.parse(streamedInput, { requireObject: true })
      if (parsed.parseError === undefined && parsed.rawArgs !== undefined && jsonText(parsed.args) === jsonText(input)) {
        return Block.toolCall(id, name, input, { ...options, rawArgs: streamedInput })
      }
    }
    return Block.toolCall(id, name, input, options)
  }
  // input streamed as text that never became an object, or a value that is not one
  const text = typeof input === "string" ? input : input === undefined ? "" : stringify(input)
  const call = A.callFromText(ctx, { id, name, ...(index === undefined ? {} : { index }), blockIndex }, text, options)
  // a body with a JSON string as input (not text a stream left unfinished, which is repaired and said): the API
  // rejects it, so say that it goes on as the object it holds
  if (typeof input === "string" && call.parseError === undefined) {
    A.converted(ctx, index, blockIndex, `the input of ${quote(name)}, a JSON string where Anthropic takes an object (the API rejects it),`, "as the object it holds")
  }
  return call
}

const decodeServerResult = (ctx: A.Ctx, block: A.Obj, path: string, type: string, names: Names): Block.ToolResultBlock => {
  const id = A.str(ctx, block, "tool_use_id", path)
  const isError = A.optBool(ctx, block, "is_error", path)
  const extras = keepUntyped({ type, ...A.extrasOf(block, SERVER_RESULT_KEYS) }, block, "is_error", isError === true)
  const raw = block["content"]
  let content: Block.ToolResultContent
  if (type === "mcp_tool_result") content = decodeResultContent(ctx, raw, `${path}.content`)
  else content = raw === undefined ? [] : [Block.json(raw)]
  if (type === "mcp_tool_result" && Array.isArray(content) && content.some((p) => p._tag === "Json")) content = raw === undefined ? [] : [Block.json(raw)]
  return Block.toolResult(id, names.get(id) ?? "", content, isError === true, { providerExecuted: true, ...A.optionsOf(key, extras) })
}

const decodeAssistantBlock = (ctx: A.Ctx, block: A.Obj, path: string, index: number | undefined, blockIndex: number, names: Names, streamedInput?: string): Block.AssistantBlock => {
  const type = A.str(ctx, block, "type", path)
  switch (type) {
    case "text":
      return decodeText(ctx, block, path)
    case "thinking": {
      const signature = block["signature"]
      const extras = keepUntyped(A.extrasOf(block, THINKING_KEYS), block, "signature", typeof signature === "string")
      return Block.thinking(A.str(ctx, block, "thinking", path), typeof signature === "string" ? signature : undefined, A.optionsOf(key, extras))
    }
    case "redacted_thinking":
      return Block.redactedThinking(A.str(ctx, block, "data", path), A.optionsOf(key, A.extrasOf(block, REDACTED_KEYS)))
    case "tool_use":
    case "server_tool_use":
    case "mcp_tool_use":
      return decodeToolUse(ctx, block, path, index, blockIndex, names, type, streamedInput)
    default:
      if (type.endsWith("_tool_result") && typeof block["tool_use_id"] === "string") return decodeServerResult(ctx, block, path, type, names)
      return Block.providerData(key, block)
  }
}

const decodeUserBlock = (ctx: A.Ctx, block: A.Obj, path: string, type: string): Block.UserBlock => {
  if (type === "text") return decodeText(ctx, block, path)
  if (type === "image" || type === "document") return decodeFile(ctx, block, path, type === "image") ?? Block.providerData(key, block)
  return Block.providerData(key, block)
}

/** A run of a wire user message's blocks that is read as one message: its tool results, or the user's other blocks. */
type Run =
  | { readonly role: "tool"; readonly blocks: ReadonlyArray<Block.ToolResultBlock> }
  | { readonly role: "user"; readonly blocks: ReadonlyArray<Block.UserBlock> }

const decodeMessage = (ctx: A.Ctx, m: A.Obj, path: string, names: Names, out: Array<Message.Message>, separate: boolean): void => {
  const role = A.str(ctx, m, "role", path)
  const extras = A.extrasOf(m, MESSAGE_KEYS)
  const messageOptions = A.optionsOf(key, extras, { [SEPARATE]: separate ? true : undefined })
  const body = m["content"]
  const at = `${path}.content`
  switch (role) {
    case "assistant": {
      let content: Array<Block.AssistantBlock>
      if (typeof body === "string") {
        content = [Block.text(body)]
      } else {
        const blocks = A.textOrArr(ctx, body, at)
        content = []
        // the model message's index (a system prompt, or a user message read as two, comes before it), and its block's
        for (let b = 0; b < blocks.length; b++) content.push(decodeAssistantBlock(ctx, A.obj(ctx, blocks[b], `${at}[${b}]`), `${at}[${b}]`, out.length, b, names))
        const only = content[0]
        if (content.length === 1 && only?._tag === "Text" && !hasExtras(only)) content[0] = asListed(only)
      }
      out.push(Message.assistant(content, messageOptions))
      return
    }
    case "user": {
      if (typeof body === "string") {
        out.push(Message.user(body, messageOptions))
        return
      }
      const blocks = A.textOrArr(ctx, body, at)
      // each run of tool results becomes a tool message, each run of the user's other blocks a user message
      const runs: Array<Run> = []
      let results: Array<Block.ToolResultBlock> = []
      let said: Array<Block.UserBlock> = []
      const flushResults = (): void => {
        if (results.length === 0) return
        runs.push({ role: "tool", blocks: results })
        results = []
      }
      const flushSaid = (): void => {
        if (said.length === 0) return
        runs.push({ role: "user", blocks: said })
        said = []
      }
      for (let b = 0; b < blocks.length; b++) {
        const block = A.obj(ctx, blocks[b], `${at}[${b}]`)
        const type = A.str(ctx, block, "type", `${at}[${b}]`)
        if (type === "tool_result") {
          flushSaid()
          results.push(decodeToolResult(ctx, block, `${at}[${b}]`, names))
        } else {
          flushResults()
          said.push(decodeUserBlock(ctx, block, `${at}[${b}]`, type))
        }
      }
      const only = said[0]
      if (blocks.length === 1 && only?._tag === "Text" && !hasExtras(only)) said[0] = asListed(only)
      flushResults()
      flushSaid()
      if (runs.length === 0) {
        out.push(Message.user([], messageOptions))
        return
      }
      // results then the user's words is how the writer sends a turn's results: only another split needs its parts marked
      const marked = runs.length > 1 && !(runs.length === 2 && runs[0]!.role === "tool")
      for (let k = 0; k < runs.length; k++) {
        const run = runs[k]!
        const part = marked ? k : undefined
        const options = k === 0 ? A.optionsOf(key, extras, { [SEPARATE]: separate ? true : undefined, [MESSAGE_PART]: part }) : A.optionsOf(key, undefined, { [MESSAGE_PART]: part })
        out.push(run.role === "tool" ? Message.tool(run.blocks, options) : Message.user(run.blocks, options))
      }
      return
    }
    case "system":
      // newer API versions accept system messages inside `messages`
      out.push(Message.system(decodeSystem(ctx, body, at), messageOptions))
      return
    default:
      return A.malformed(ctx, `${path}.role`, `unknown role ${quote(role)}`)
  }
}

const decodeSystem = (ctx: A.Ctx, system: Schema.Json | undefined, path: string): Array<Block.TextBlock> => {
  if (typeof system === "string") return [Block.text(system)]
  const blocks = A.textOrArr(ctx, system, path)
  const out: Array<Block.TextBlock> = []
  for (let b = 0; b < blocks.length; b++) {
    const block = A.obj(ctx, blocks[b], `${path}[${b}]`)
    const type = A.str(ctx, block, "type", `${path}[${b}]`)
    if (type !== "text") A.malformed(ctx, `${path}[${b}].type`, `expected a text block in the system prompt, got ${quote(type)}`)
    out.push(decodeText(ctx, block, `${path}[${b}]`))
  }
  const only = out[0]
  if (out.length === 1 && !hasExtras(only!)) out[0] = asListed(only!)
  return out
}

const decodeConversation = (ctx: A.Ctx, system: Schema.Json | undefined, list: ReadonlyArray<Schema.Json>): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  if (system !== undefined && system !== null) out.push(Message.system(decodeSystem(ctx, system, "system")))
  const names: Names = new Map()
  let previousRole: Schema.Json | undefined
  for (let i = 0; i < list.length; i++) {
    const m = A.obj(ctx, list[i], `messages[${i}]`)
    const role = m["role"]
    // the API merges consecutive messages of one role; keeping where a new one began gives the request back as sent
    decodeMessage(ctx, m, `messages[${i}]`, names, out, role === previousRole && (role === "user" || role === "assistant"))
    previousRole = role
  }
  return out
}

/**
 * Anthropic's `messages` (any JSON, checked), or `{ system, messages }` as
 * `toMessages` writes them, as a conversation: the system prompt becomes a
 * system message first; each user message that holds tool results becomes a
 * tool message (and a user message for what follows the results).
 *
 * @example
 * const { value: conversation } = yield* Anthropic.fromMessages({
 *   system: "Be brief.",
 *   messages: [
 *     { role: "user", content: "Weather in Oslo?" },
 *     { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }] },
 *     { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "12°C" }, { type: "text", text: "And tomorrow?" }] }
 *   ]
 * })
 * conversation.map((m) => m.role) // ["system", "user", "assistant", "tool", "user"]
 *
 * @since 0.1.0
 */
export const fromMessages = (
  input: unknown,
  options?: ConversionOptions
): Effect.Effect<Converted<Array<Message.Message>>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(PROVIDER, options)
  return A.run(ctx, () => {
    const json = A.jsonOf(ctx, input, Array.isArray(input) ? "messages" : "")
    if (Array.isArray(json)) return decodeConversation(ctx, undefined, json)
    const prompt = A.obj(ctx, json, "")
    A.ignoreExtras(ctx, prompt, PROMPT_KEYS)
    return decodeConversation(ctx, prompt["system"], A.arr(ctx, prompt["messages"], "messages"))
  })
}

const REQUEST_KEYS = new Set(["model", "system", "messages", "tools", "tool_choice", "max_tokens"])
const TOOL_KEYS = new Set(["name", "description", "input_schema", "strict"])
const SERVER_TOOL_KEYS = new Set(["name", "type"])

const decodeTools = (ctx: A.Ctx, list: ReadonlyArray<Schema.Json>): Array<Request.ToolDefinition> => {
  const out: Array<Request.ToolDefinition> = []
  for (let t = 0; t < list.length; t++) {
    const at = `tools[${t}]`
    const tool = A.obj(ctx, list[t], at)
    if (isServerTool(tool)) {
      // a server tool may have no name (the MCP connector's mcp_toolset): it is called by its server's name, else its type
      const named = tool["name"] !== undefined
      const server = tool["mcp_server_name"]
      const name = named ? A.str(ctx, tool, "name", at) : typeof server === "string" && server.length > 0 ? server : (tool["type"] as string)
      const options = named ? undefined : A.optionsOf(key, undefined, { [NO_NAME]: true })
      out.push(Request.providerTool(name, key, tool["type"] as string, A.extrasOf(tool, SERVER_TOOL_KEYS), options))
      continue
    }
    const name = A.str(ctx, tool, "name", at)
    const description = A.optStr(ctx, tool, "description", at)
    const parameters = A.optObj(ctx, tool, "input_schema", at)
    const strict = A.optBool(ctx, tool, "strict", at)
    let extras = A.extrasOf(tool, TOOL_KEYS)
    extras = keepUntyped(extras, tool, "description", description !== undefined)
    extras = keepUntyped(extras, tool, "strict", strict !== undefined)
    out.push(
      Request.tool(name, {
        ...(description === undefined ? {} : { description }),
        ...(parameters === undefined ? {} : { parameters }),
        ...(strict === undefined ? {} : { strict }),
        ...A.optionsOf(key, extras)
      })
    )
  }
  return out
}

const decodeToolChoice = (choice: Schema.Json | undefined): { readonly toolChoice: Request.ToolChoice; readonly parallel?: boolean } | undefined => {
  if (!A.isObj(choice)) return undefined
  for (const k in choice) if (k !== "type" && k !== "name" && k !== "disable_parallel_tool_use") return undefined
  const disable = choice["disable_parallel_tool_use"]
  if (disable !== undefined && typeof disable !== "boolean") return undefined
  const parallel = disable === undefined ? {} : { parallel: !disable }
  switch (choice["type"]) {
    case "auto":
      return choice["name"] === undefined ? { toolChoice: "auto", ...parallel } : undefined
    case "any":
      return choice["name"] === undefined ? { toolChoice: "required", ...parallel } : undefined
    case "none":
      return choice["name"] === undefined ? { toolChoice: "none", ...parallel } : undefined
    case "tool":
      return typeof choice["name"] === "string" ? { toolChoice: { _tag: "Tool", name: choice["name"] }, ...parallel } : undefined
    default:
      return undefined
  }
}

/** A format object that is a JSON schema and nothing more (`{ type: "json_schema", schema }`), as a response format. */
const jsonSchemaFormat = (format: Schema.Json | undefined): Request.ResponseFormat | undefined => {
  if (!A.isObj(format) || format["type"] !== "json_schema" || !A.isObj(format["schema"])) return undefined
  for (const k in format) if (k !== "type" && k !== "schema") return undefined
  return { _tag: "JsonSchema", name: "response", schema: format["schema"] }
}

/**
 * The request's response format, taken out of the kept extras: a JSON schema
 * `output_config.format` (the rest of `output_config`, such as `effort`,
 * stays there), else a JSON schema top-level `output_format`, the form the
 * structured outputs beta (`structured-outputs-2025-11-13`) took before the
 * field moved, which is marked so that `toRequest` writes it back there.
 * Anything else stays as it is. Anthropic formats have no name: the model's
 * is `"response"`, as for Gemini.
 */
const decodeOutputFormat = (extras: Record<string, Schema.Json>): { readonly format: Request.ResponseFormat; readonly beta: boolean } | undefined => {
  const config = extras["output_config"]
  const format = A.isObj(config) ? jsonSchemaFormat(config["format"]) : undefined
  if (format !== undefined && A.isObj(config)) {
    const rest: Record<string, Schema.Json> = {}
    for (const k in config) if (k !== "format") A.setKey(rest, k, config[k]!)
    if (Object.keys(rest).length === 0) delete extras["output_config"]
    else extras["output_config"] = rest
    return { format, beta: false }
  }
  const beta = jsonSchemaFormat(extras["output_format"])
  if (beta === undefined) return undefined
  delete extras["output_format"]
  return { format: beta, beta: true }
}

const decodeRequest = (ctx: A.Ctx, input: unknown): Request.Request => {
  const body = A.obj(ctx, A.jsonOf(ctx, input), "")
  const messages = decodeConversation(ctx, body["system"], A.arr(ctx, body["messages"], "messages"))
  const extras: Record<string, Schema.Json> = A.extrasOf(body, REQUEST_KEYS) ?? {}
  const model = A.optStr(ctx, body, "model", "")
  if (body["model"] !== undefined && model === undefined) A.setKey(extras, "model", body["model"]!)
  const maxTokens = body["max_tokens"]
  if (maxTokens !== undefined && !Request.isTokenLimit(maxTokens)) A.setKey(extras, "max_tokens", maxTokens)
  const tools = body["tools"] === undefined || body["tools"] === null ? undefined : decodeTools(ctx, A.arr(ctx, body["tools"], "tools"))
  const choice = decodeToolChoice(body["tool_choice"])
  if (choice === undefined && body["tool_choice"] !== undefined) A.setKey(extras, "tool_choice", body["tool_choice"]!)
  const output = decodeOutputFormat(extras)
  const responseFormat = output?.format
  return Request.make(messages, {
    ...(model === undefined ? {} : { model }),
    ...(tools === undefined ? {} : { tools }),
    ...(responseFormat === undefined ? {} : { responseFormat }),
    ...(choice === undefined ? {} : { toolChoice: choice.toolChoice }),
    ...(choice?.parallel === undefined ? {} : { parallelToolCalls: choice.parallel }),
    ...(Request.isTokenLimit(maxTokens) ? { maxOutputTokens: maxTokens } : {}),
    ...A.optionsOf(key, Object.keys(extras).length === 0 ? undefined : extras, { [OUTPUT_FORMAT_FIELD]: output?.beta === true ? true : undefined })
  })
}

/**
 * A Messages request body (any JSON, checked) as a request: its system
 * prompt and messages, model, tools (client tools typed; tools with an
 * Anthropic `type`, server tools and Anthropic-schema tools, as
 * `providerDefined` tools in their place), tool choice and `max_tokens`, and
 * a JSON schema `output_config.format` as the response format (named
 * `"response"`; also the structured outputs beta's top-level
 * `output_format`, which `toRequest` writes back there); every other
 * field (`thinking`, the rest of `output_config`, ...) is kept in the
 * request's provider options and written back by `toRequest`.
 *
 * @example
 * const { value: request } = yield* Anthropic.fromRequest({
 *   model: "claude-sonnet-4-5",
 *   max_tokens: 1024,
 *   thinking: { type: "enabled", budget_tokens: 2048 },
 *   messages: [{ role: "user", content: "hi" }]
 * })
 * request.maxOutputTokens // 1024
 * request.providerOptions?.["anthropic"] // { thinking: { type: "enabled", budget_tokens: 2048 } }
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

const finishReasonOf = (reason: string | null): FinishReason => {
  switch (reason) {
    case null:
      return "unknown"
    case "end_turn":
    case "stop_sequence":
      return "stop"
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length"
    case "tool_use":
      return "tool-calls"
    case "pause_turn":
      return "pause"
    case "refusal":
      return "refusal"
    default:
      return "other"
  }
}

const usageOf = (ctx: A.Ctx, usage: A.Obj): Message.Usage => {
  const input = A.count(ctx, usage, "input_tokens", "usage")
  const written = A.count(ctx, usage, "cache_creation_input_tokens", "usage")
  const read = A.count(ctx, usage, "cache_read_input_tokens", "usage")
  const details = A.optObj(ctx, usage, "output_tokens_details", "usage")
  return A.usage({
    inputTokens: input === undefined && written === undefined && read === undefined ? undefined : (input ?? 0) + (written ?? 0) + (read ?? 0),
    outputTokens: A.count(ctx, usage, "output_tokens", "usage"),
    cachedInputTokens: read,
    cacheWriteInputTokens: written,
    reasoningTokens: A.count(ctx, details, "thinking_tokens", "usage.output_tokens_details")
  })
}

const RESPONSE_KEYS = new Set(["id", "type", "role", "model", "content", "stop_reason"])

const decodeResponse = (ctx: A.Ctx, input: unknown): DecodedResponse => {
  // the streamed text of each tool input, when AnthropicStream assembled this message (looked up before the copy)
  const streamed = AnthropicStream.inputTextsOf(input)
  const response = A.obj(ctx, A.jsonOf(ctx, input), "")
  const role = A.optStr(ctx, response, "role", "")
  if (role !== undefined && role !== "assistant") A.malformed(ctx, "role", `expected an assistant message, got ${quote(role)}`)
  const blocks = A.arr(ctx, response["content"], "content")
  const names: Names = new Map()
  const content: Array<Block.AssistantBlock> = []
  for (let b = 0; b < blocks.length; b++) content.push(decodeAssistantBlock(ctx, A.obj(ctx, blocks[b], `content[${b}]`), `content[${b}]`, undefined, b, names, streamed?.[b]))
  const rawUsage = A.optObj(ctx, response, "usage", "")
  const usage = rawUsage === undefined ? undefined : usageOf(ctx, rawUsage)
  const stop = A.optStr(ctx, response, "stop_reason", "") ?? null
  const providerData = A.extrasOf(response, RESPONSE_KEYS)
  const container = response["container"]
  const containerId = A.isObj(container) && typeof container["id"] === "string" ? container["id"] : undefined
  return new DecodedResponse({
    id: A.optStr(ctx, response, "id", "") ?? "",
    model: A.optStr(ctx, response, "model", "") ?? "",
    message: Message.assistant(content, {
      ...(usage === undefined ? {} : { usage }),
      ...A.optionsOf(key, undefined, { [CONTAINER]: containerId })
    }),
    finishReason: finishReasonOf(stop),
    providerFinishReason: stop,
    ...(usage === undefined ? {} : { usage }),
    ...(providerData === undefined ? {} : { providerData })
  })
}

/**
 * A Messages API response as the model: the assistant message (text with
 * citations, thinking with signatures, redacted thinking, tool calls, server
 * tool calls and results), its usage (input counting both cache figures,
 * which are also given apart), the stop reason (normalized and as sent), the
 * id and model, and the other fields (`stop_sequence`, `stop_details`,
 * `container`, the raw `usage`) in `providerData`.
 *
 * @example
 * const { value } = yield* Anthropic.fromResponse({
 *   id: "msg_1",
 *   type: "message",
 *   role: "assistant",
 *   model: "claude-sonnet-4-5",
 *   content: [
 *     { type: "thinking", thinking: "The user wants the weather.", signature: "EqQBCkgIARAB" },
 *     { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }
 *   ],
 *   stop_reason: "tool_use",
 *   stop_sequence: null,
 *   usage: { input_tokens: 120, output_tokens: 45, cache_read_input_tokens: 100 }
 * })
 * value.finishReason // "tool-calls"
 * value.usage?.inputTokens // 220: the cache reads are input too
 *
 * @since 0.1.0
 */
export const fromResponse = (
  response: Wire.Message,
  options?: ConversionOptions
): Effect.Effect<Converted<DecodedResponse>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(PROVIDER, options)
  return A.run(ctx, () => decodeResponse(ctx, response))
}

// ---------------------------------------------------------------------------
// streams
// ---------------------------------------------------------------------------

/**
 * Everything reading a stream can fail with: the message could not be read
 * (`MalformedPayload`, `InvalidToolArguments`, `UnsupportedContent`), the
 * stream ended early (`IncompleteResponse`, with the partial message), broke
 * the protocol (`StreamProtocolError`) or carried the API's error
 * (`ProviderStreamError`).
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

/** The accumulator's report of a stopped tool block whose input is not JSON (or not JSON a double holds): for us, argument text to read like any other. */
const INVALID_INPUT = /^content block \d+ \([a-z_]+ [^)]*\): its input (?:is not valid JSON|cannot be read)/

const decodePartial = (options: ConversionOptions | undefined) => (partial: unknown) => {
  const lenient = { ...options, strict: false, toolArguments: "lenient" as const }
  const ctx = A.makeCtx(PROVIDER, lenient)
  return A.runResult(ctx, () => decodeResponse(ctx, partial))
}

const decodeStreamed = <E, R>(
  accumulated: Effect.Effect<Wire.Message, E | StreamErrors.StreamError, R>,
  options: ConversionOptions | undefined
): Effect.Effect<Converted<DecodedResponse>, Exclude<E, StreamErrors.IncompleteStream> | StreamError, R> =>
  A.decodeStreamed(
    PROVIDER,
    accumulated.pipe(
      Effect.catchIf(
        (error): error is StreamErrors.StreamProtocolError =>
          error instanceof StreamErrors.StreamProtocolError && error.more === 0 && error.partial !== undefined && INVALID_INPUT.test(error.reason),
        (error) => {
          // the stream was whole up to its message_delta: the partial message is the message, its raw tool input kept
          const partial = error.partial as Wire.Message
          return partial.stop_reason === null
            ? Effect.fail(
              new StreamErrors.IncompleteStream({
                provider: "anthropic-messages",
                cut: ["the stream ended before its message_delta"],
                events: (error.eventIndex ?? -1) + 1,
                partial
              })
            )
            : Effect.succeed(partial)
        }
      )
    ),
    (response) => fromResponse(response, options),
    decodePartial(options)
  )

/**
 * Accumulates Messages stream events (`message_start`,
 * `content_block_start` / `_delta` / `_stop` with `text_delta`,
 * `input_json_delta`, `thinking_delta`, `signature_delta`, `citations_delta`,
 * then `message_delta` and `message_stop`) and reads the message they add
 * up to. Tool input streamed as text that is not JSON is read like any
 * argument text: repaired and kept, or `InvalidToolArguments` in strict mode.
 *
 * @example
 * const events: ReadonlyArray<AnthropicWire.StreamEvent> = [
 *   { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } } },
 *   { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
 *   { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello!" } },
 *   { type: "content_block_stop", index: 0 },
 *   { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
 *   { type: "message_stop" }
 * ]
 * const { value } = yield* Anthropic.fromEvents(events)
 * Message.textOf(value.message) // "Hello!"
 * value.finishReason // "stop"
 *
 * @since 0.1.0
 */
export const fromEvents = (
  events: Iterable<Wire.StreamEvent>,
  options?: ConversionOptions
): Effect.Effect<Converted<DecodedResponse>, StreamError> => decodeStreamed(AnthropicStream.fromEvents(events), options)

/**
 * `fromEvents` over raw SSE text (a whole response body, or its pieces,
 * split anywhere).
 *
 * @example
 * const body = [
 *   'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}',
 *   'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
 *   'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello!"}}',
 *   'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}',
 *   'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}',
 *   'event: message_stop\ndata: {"type":"message_stop"}'
 * ].join("\n\n") + "\n\n"
 * const { value } = yield* Anthropic.fromSse(body)
 * Message.textOf(value.message) // "Hello!"
 *
 * @since 0.1.0
 */
export const fromSse = (
  input: string | Iterable<string | Uint8Array>,
  options?: ConversionOptions
): Effect.Effect<Converted<DecodedResponse>, StreamError> => decodeStreamed(AnthropicStream.fromSse(input), options)

/**
 * `fromEvents` over an Effect `Stream` of events.
 *
 * With `{ keepPartial: true }`, a failure of the stream passed in (the
 * network dropped) is an `IncompleteResponse` with the message so far and
 * that failure as `transportError`; a provider error or protocol violation
 * that came first is still the error, with that failure as its
 * `transportError` (`StreamAccumulator.StreamOptions`).
 *
 * @example
 * import { Effect, Stream } from "effect"
 * import { Message } from "effect-agent-messages"
 * import { Anthropic } from "effect-agent-messages/providers"
 * import AnthropicClient from "@anthropic-ai/sdk"
 *
 * const client = new AnthropicClient()
 *
 * const program = Effect.gen(function*() {
 *   const stream = yield* Effect.promise(() =>
 *     client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "hi" }], stream: true })
 *   )
 *   const { value } = yield* Anthropic.fromStream(Stream.fromAsyncIterable(stream, (e) => e))
 *   return Message.textOf(value.message)
 * })
 *
 * @since 0.1.0
 */
export const fromStream: {
  <E, R>(events: Stream.Stream<Wire.StreamEvent, E, R>, options: ConversionOptions & KeepPartial): Effect.Effect<Converted<DecodedResponse>, StreamError, R>
  <E, R>(events: Stream.Stream<Wire.StreamEvent, E, R>, options?: ConversionOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R>
} = <E, R>(events: Stream.Stream<Wire.StreamEvent, E, R>, options?: ConversionOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R> =>
  decodeStreamed(AnthropicStream.fromStream(events, options), options)

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
 *   fetch("https://api.anthropic.com/v1/messages", {
 *     method: "POST",
 *     headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", "x-api-key": process.env["ANTHROPIC_API_KEY"] ?? "" },
 *     body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "hi" }], stream: true })
 *   })
 * )
 * const { value } = yield* Anthropic.fromSseStream(Stream.fromReadableStream({ evaluate: () => response.body!, onError: (cause) => cause }))
 *
 * @since 0.1.0
 */
export const fromSseStream: {
  <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options: ConversionOptions & KeepPartial): Effect.Effect<Converted<DecodedResponse>, StreamError, R>
  <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options?: ConversionOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R>
} = <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options?: ConversionOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R> =>
  decodeStreamed(AnthropicStream.fromSseStream(body, options), options)
