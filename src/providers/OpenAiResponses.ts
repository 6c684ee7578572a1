/**
 * The OpenAI Responses API, both ways: a conversation to and from `input`
 * items, a `Request` to and from a request body, and a response (or its
 * stream) to an assistant message.
 *
 * **How the model maps**
 *
 * | model | Responses |
 * |---|---|
 * | system message | `system` / `developer` message item, or `instructions` |
 * | user message | `user` message item (`input_text`, `input_image`, `input_file`: a file by URL or id, which has no type on the wire, is read as the document type its name's or URL's extension says, else `application/octet-stream`) |
 * | assistant text with `itemId` | `message` output item (`output_text`, `annotations` as `citations`) |
 * | assistant text without `itemId` | `assistant` message item with string content |
 * | refusal with `itemId` | `refusal` part of a `message` item |
 * | thinking with `itemId` | `reasoning` item: `summary`, `content`, `encrypted_content`, `status` |
 * | tool call | `function_call` (`call_id`, `name`, `arguments` text, `id`) |
 * | tool result | `function_call_output` (`call_id`, `output`: text, images, files) |
 * | call of a Chat Completions custom tool, its input text as arguments | `custom_tool_call` (`call_id`, `name`, `input`), its result a `custom_tool_call_output`, the tool a `custom` tool with its format |
 * | provider-executed tool call + result | `web_search_call`, `file_search_call`, `code_interpreter_call`, `mcp_call` |
 * | generated image | `image_generation_call` |
 * | provider data | any other item, or content part, as sent |
 *
 * Read, `custom_tool_call` and `custom_tool_call_output` items stay the
 * API's own data (provider data), which only this API takes back:
 * `customToolsAsCalls` makes them the calls and results of Chat Completions
 * custom tools, which the other formats carry.
 *
 * Assistant-side items (messages, reasoning, calls, hosted tool calls, items
 * of unknown type) are read into one assistant message until a user,
 * system or developer message or a function call output comes; outputs in
 * a row are one tool message. A reasoning item therefore stays in the same
 * message as the item it produced, in order, and is written back right
 * before it, with its `encrypted_content` (which `store: false` histories
 * need to replay reasoning).
 *
 * **Fields the model does not name** are kept, never dropped, as every
 * adapter keeps them: in `providerOptions["openai-responses"]` of the block,
 * message or tool definition they were read from (an item's or content
 * part's own fields), and the request body's directly in
 * `Request.providerOptions["openai-responses"]` (`temperature`, `include`,
 * `reasoning`, `store`, other `tool_choice` forms, the rest of `text`);
 * written back from there. Hosted tools (web search, file search, code
 * interpreter, MCP, ...) are `providerDefined` tool definitions in their
 * place among the function tools, and a tool choice that names one (`{
 * type: "web_search_preview" }`, an MCP server by its `server_label`, a
 * custom tool by its name) is a named tool choice of it, written back in
 * that form, never as a function's; a named choice of a hosted tool that
 * a tool choice cannot name (`local_shell`, ...) is reported and left out.
 * Another provider's tools (Anthropic's kept the older way, with their
 * Anthropic `type` among their options, too) are reported and left out.
 * A function tool whose `strict` is
 * unset goes out with `strict: false`, as the other formats mean it (the
 * Responses API makes such a tool strict where it can); one read from a
 * Responses body with `strict` unset keeps that (the hint `$strictUnset`),
 * and `strict: false` reads as unset (so an explicit `false` in the model
 * comes back unset: the same tool).
 * Items and parts of unknown kinds
 * become `ProviderDataBlock`s. Nothing is reported for them, because
 * nothing is lost (a part of an unknown kind in an assistant message item
 * without an id is written back after its message, as an item of its own;
 * such an item of no parts is kept whole). A few kept fields choose a wire form: `role:
 * "developer"` on a system message, `type: "input_text"` on the one text
 * block of a message sent as a list of parts; and hints sit beside them,
 * each named with a `$` in front (a field of the sender's own named `item`
 * is kept as any other, and so is one named `$item`: a field whose name
 * starts with `$` is kept with one more in front, `$$item`, so it is never
 * read as a hint): `$item` (on
 * the first block of an output message, that item's own fields, such as
 * `status` and `phase`), `$instructions` (a system message read from the
 * request's `instructions`), `$part` / `$partStart` (the content parts an
 * output message's blocks came from), `$dataUrlMediaType`,
 * `$otherSources` (the sources a file part named beside the one its block
 * holds, as `file_id` beside `image_url`) and `$noInput` (a request body
 * read without `input`, as one that continues a stored response may be,
 * written back without one).
 *
 * **What the format cannot carry** is reported as a warning (or, with
 * `strict`, fails with `UnsupportedContent`): thinking without an item id
 * (another provider's reasoning cannot be replayed), redacted thinking,
 * refusals and citations without an item id, audio and generated files,
 * a file at a URL OpenAI cannot take (neither http(s) nor a base64 `data:`
 * URL, such as `gs://` or `file:`, or a Gemini Files API URI; a file given
 * as a base64 `data:` URL goes as its `file_data`),
 * provider-executed calls of other providers, provider data of other
 * providers, the error flag of a tool result, a participant name. JSON
 * values in a tool result are sent as JSON text. A call id over 64
 * characters (which the API rejects: ids of other SDKs, gateways and MCP
 * clients can be longer) is sent as its first characters and a short hash
 * of the whole id, the same in the `function_call` and every
 * `function_call_output` answering it (also when the call was sent in an
 * earlier request), unique in the conversation, and reported once. An item
 * id the API does not take for its kind of item (it wants a `function_call`
 * id to begin with `fc`, a `reasoning` id with `rs`, a `message` id with
 * `msg`; Responses-compatible servers and gateways mint others) is left out
 * and reported, since the API needs none on an item sent back; a reasoning
 * item without such an id and without its encrypted content cannot be
 * replayed, and is left out.
 *
 * **Normal forms** (the API reads both alike): an image without
 * `detail` gets `"auto"`; an output text without `annotations` gets `[]`;
 * a request `input` given as a string comes back as one user message item.
 *
 * @since 0.1.0
 */
import { utf8ToBase64 } from "../internal/base64.js"
import { openAiResponseFormat } from "../internal/chatRequestFields.js"
import type { Effect, Schema, Stream } from "effect"
import * as Block from "../Block.js"
import * as Message from "../Message.js"
import * as Request from "../Request.js"
import {
  ConvertedContent,
  type ConversionOptions,
  type Converted,
  DecodedResponse,
  DroppedContent,
  type FinishReason,
  type IncompleteResponse,
  type InvalidToolArguments,
  type MalformedPayload,
  RejectedSetting,
  UnknownProviderField,
  type UnsupportedContent
} from "./Conversion.js"
import { messageText, preview, quote } from "../internal/preview.js"
import { bareMediaType } from "../internal/mediaType.js"
import { base64DataUrlParts } from "../internal/dataUrl.js"
import { hostedItem, hostedTool, isToolOutputItem, ITEM_ID_PREFIXES } from "../internal/responsesItems.js"
import { OPENAI_URLS, openAiTakesUrl } from "../internal/fileUrls.js"
import {
  chatCustomFormat,
  customTextOf,
  customTextResults,
  isCustomTextCall,
  objectToolParameters,
  responsesCustomTool,
  type ResponsesToolNames,
  responsesToolNames
} from "../internal/customTools.js"
import { imageDetailOf, inputFileDetailOf } from "../internal/imageDetail.js"
import * as A from "./internal/adapter.js"
import { isObj } from "./internal/core.js"
import * as Citations from "../internal/citations.js"
import * as Ids from "./internal/ids.js"
import { defined, hintOf, keep, keptOf, merge } from "./internal/kept.js"
import * as Accumulator from "./OpenAiResponsesStream.js"
import type { KeepPartial, StreamOptions } from "./StreamAccumulator.js"
import type * as Wire from "./OpenAiResponsesWire.js"
import type * as StreamErrors from "./StreamError.js"
import type { ProviderStreamError, StreamProtocolError } from "./StreamError.js"
import * as ToolArguments from "./ToolArguments.js"

/**
 * The key of this format in `providerOptions`.
 *
 * @example
 * const { value: request } = yield* OpenAiResponses.fromRequest({ model: "gpt-5", input: "hi", store: false, reasoning: { effort: "low" } })
 * request.providerOptions?.[OpenAiResponses.key] // { store: false, reasoning: { effort: "low" } }
 *
 * @since 0.1.0
 */
export const key = "openai-responses"

type Obj = A.Obj
type Fields = Record<string, Schema.Json>
type CallExtras = NonNullable<ToolArguments.ToolCallOptions["extras"]>

/**
 * The hints kept beside the wire fields, each stored with a `$` in front
 * (`internal/kept`): `item` (on the first block of an
 * output message, that item's own fields), `instructions` (on a system
 * message read from the request's `instructions`) and `dataUrlMediaType`
 * (on an image whose `data:` URL declared a type that is not an image
 * type, such as `application/octet-stream`: the block has the type its
 * bytes show, and the URL is written back as it came; or an image type with
 * parameters, `image/jpeg;name=photo.jpg`, written back with them) and
 * `otherSources` (on a file read from a part that named more than one source,
 * `file_id` beside `image_url`: the ones the block is not read from, written
 * back beside its own).
 */
const hints = new Set(["item", "instructions", "dataUrlMediaType", "otherSources", "part", "partStart", "noInput", "strictUnset"])

// ---------------------------------------------------------------------------
// tables
// ---------------------------------------------------------------------------

const messageKeys = new Set(["role", "content"])
const outputMessageKeys = new Set(["type", "id", "role", "content"])
// "completed" is the status written when a block has none, so it need not be kept
const completedMessageKeys = new Set(["type", "id", "role", "content", "status"])
const outputTextKeys = new Set(["type", "text", "annotations"])
const refusalKeys = new Set(["type", "refusal"])
const inputTextKeys = new Set(["type", "text"])
const inputImageKeys = new Set(["type", "image_url", "file_id", "detail"])
const inputFileKeys = new Set(["type", "file_data", "file_id", "file_url", "filename"])
const inputFileDetailKeys = new Set([...inputFileKeys, "detail"])
const functionCallKeys = new Set(["type", "call_id", "name", "arguments", "id"])
const functionOutputKeys = new Set(["type", "call_id", "output", "id"])
const reasoningKeys = new Set(["type", "id", "summary", "content", "encrypted_content", "status"])
const imageGenerationKeys = new Set(["type", "id", "result"])
const functionToolKeys = new Set(["type", "name", "description", "parameters", "strict"])
const typeKey = new Set(["type"])
const bodyKeys = new Set(["model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls", "text", "max_output_tokens"])

// ---------------------------------------------------------------------------
// reading: items -> messages
// ---------------------------------------------------------------------------

const textKeysOnly = new Set(["text"])

const readTextParts = (ctx: A.Ctx, content: Schema.Json | undefined, path: string, system: boolean): Array<Block.UserBlock> => {
  if (typeof content === "string") return [Block.text(content)]
  const parts = A.textOrArr(ctx, content, path)
  const out: Array<Block.UserBlock> = []
  for (let p = 0; p < parts.length; p++) {
    const at = `${path}[${p}]`
    const part = A.obj(ctx, parts[p], at)
    const type = part["type"]
    if (type === "input_text" || (type === "output_text" && !system)) {
      // an output_text part in a user message keeps its type and annotations beside the text (written back as they came)
      const extras = A.extrasOf(part, type === "output_text" ? textKeysOnly : inputTextKeys)
      // one plain text part could have been a string: its `type` is kept to say it was a list
      out.push(Block.text(A.str(ctx, part, "text", at), keep(key, extras === undefined && parts.length === 1 && type === "input_text" ? { type } : extras)))
      continue
    }
    if (system) {
      ctx.warnings.push(new UnknownProviderField({ path: at, kept: false }))
      continue
    }
    const file = readFilePart(ctx, part, at)
    out.push(file ?? Block.providerData(key, part))
  }
  return out
}

/**
 * The source fields of a part beside the one its block is read from (the SDK types make each optional, so a part
 * may name two), as the `otherSources` hint: `undefined` when there are none.
 */
const otherSources = (sources: Readonly<Record<string, string | undefined>>): Record<string, string> | undefined => {
  let out: Record<string, string> | undefined
  for (const [name, value] of Object.entries(sources)) if (value !== undefined) (out ??= {})[name] = value
  return out
}

/** An `input_image` / `input_file` part as a file block, or `undefined` for another part type. */
const readFilePart = (ctx: A.Ctx, part: Obj, at: string): Block.FileBlock | undefined => {
  const type = part["type"]
  if (type === "input_image") {
    const url = A.optStr(ctx, part, "image_url", at)
    const fileId = A.optStr(ctx, part, "file_id", at)
    const detail = A.optStr(ctx, part, "detail", at)
    const extra = A.extrasOf(part, inputImageKeys)
    const known = imageDetailOf(detail)
    const read = url === undefined ? undefined : A.imageOfUrl(url)
    const options = {
      ...(known === undefined ? {} : { detail: known }),
      // a data URL's declared type that is not an image type is a hint, written back as it came
      ...keep(key, detail !== undefined && known === undefined ? { ...extra, detail } : extra, {
        dataUrlMediaType: read?.declared,
        otherSources: read === undefined ? undefined : otherSources({ file_id: fileId })
      })
    }
    if (read !== undefined) return Block.file(read.source, read.mediaType, options)
    if (fileId !== undefined) return Block.image(Block.fileId(fileId), options)
    return A.malformed(ctx, at, "an input_image needs image_url or file_id")
  }
  if (type === "input_file") {
    const data = A.optStr(ctx, part, "file_data", at)
    const fileId = A.optStr(ctx, part, "file_id", at)
    const url = A.optStr(ctx, part, "file_url", at)
    const filename = A.optStr(ctx, part, "filename", at)
    const detail = inputFileDetailOf(part["detail"])
    const extra = A.extrasOf(part, detail === undefined ? inputFileKeys : inputFileDetailKeys)
    // read from the first of file_data, file_id and file_url; the others go back beside it
    const others = otherSources(data !== undefined ? { file_id: fileId, file_url: url } : { file_url: fileId === undefined ? undefined : url })
    const options = { ...defined({ filename, detail }), ...keep(key, extra, { otherSources: others }) }
    if (data !== undefined) {
      const parsed = Block.parseDataUrl(data)
      // a bare base64 payload (no data: prefix) is kept as sent
      if (parsed === undefined) return Block.file(Block.base64(data), "application/octet-stream", { ...defined({ filename, detail }), ...keep(key, { ...extra, file_data: data }, { otherSources: others }) })
      // an image or audio given as a file stays one (the `part` hint): by its type alone it would go back as an
      // input_image, or be left out
      const bare = bareMediaType(parsed.mediaType)
      const asFile = bare.startsWith("image/") || bare.startsWith("audio/") ? "input_file" : undefined
      return Block.file(Block.base64(parsed.data), parsed.mediaType, { ...defined({ filename, detail }), ...keep(key, extra, { otherSources: others, part: asFile }) })
    }
    // Responses sends no type with a file id or URL: the file name's extension, or the URL's, names it
    if (fileId !== undefined) return Block.file(Block.fileId(fileId), A.documentTypeOfName(filename ?? "") ?? "application/octet-stream", options)
    if (url !== undefined) return Block.file(Block.url(url), (filename === undefined ? undefined : A.documentTypeOfName(filename)) ?? A.documentTypeOfName(url) ?? "application/octet-stream", options)
    return A.malformed(ctx, at, "an input_file needs file_data, file_id or file_url")
  }
  return undefined
}

/** Reads the assistant-side items, appending blocks to `blocks`. Returns false for an item that is not assistant-side. */
const readAssistantItem = (
  ctx: A.Ctx,
  item: Obj,
  at: string,
  index: number,
  blocks: Array<Block.AssistantBlock>,
  callNames: Map<string, string>
): void => {
  const type = item["type"]
  switch (type) {
    case "message": {
      const id = item["id"]
      const content = item["content"]
      if (typeof id !== "string" || !Array.isArray(content) || content.length === 0 || !content.every((p) => A.isObj(p) && (p["type"] === "output_text" || p["type"] === "refusal"))) {
        // no item id, or content the model cannot hold part by part: kept whole
        if (typeof id !== "string") return readEasyAssistant(ctx, item, at, blocks)
        blocks.push(Block.providerData(key, item))
        return
      }
      const itemExtra = A.extrasOf(item, item["status"] === "completed" ? completedMessageKeys : outputMessageKeys)
      for (let p = 0; p < content.length; p++) {
        const partAt = `${at}.content[${p}]`
        const part = content[p] as Obj
        const first = p === 0 ? { item: itemExtra } : {}
        if (part["type"] === "output_text") {
          const annotations = part["annotations"]
          const citations = Array.isArray(annotations) && annotations.length > 0 ? annotations : undefined
          blocks.push(Block.text(A.str(ctx, part, "text", partAt), {
            itemId: id,
            ...defined({ citations }),
            ...keep(key, A.extrasOf(part, outputTextKeys), first)
          }))
        } else {
          blocks.push(Block.refusal(A.str(ctx, part, "refusal", partAt), { itemId: id, ...keep(key, A.extrasOf(part, refusalKeys), first) }))
        }
      }
      return
    }
    case "reasoning": {
      const id = item["id"]
      if (typeof id !== "string") {
        blocks.push(Block.providerData(key, item))
        return
      }
      const extra: Fields = A.extrasOf(item, reasoningKeys) ?? {}
      const summaryRaw = item["summary"] ?? []
      const summaryParts = A.arr(ctx, summaryRaw, `${at}.summary`)
      const summary: Array<string> = []
      let canonicalSummary = true
      for (let s = 0; s < summaryParts.length; s++) {
        const part = A.obj(ctx, summaryParts[s], `${at}.summary[${s}]`)
        summary.push(A.str(ctx, part, "text", `${at}.summary[${s}]`))
        if (part["type"] !== "summary_text" || Object.keys(part).length !== 2) canonicalSummary = false
      }
      // (a reasoning item read without its summary, or with null, goes back with `summary: []`: the API requires the list)
      if (!canonicalSummary) A.setKey(extra, "summary", summaryRaw)
      let thinking = ""
      const contentRaw = item["content"]
      if (contentRaw !== undefined && contentRaw !== null) {
        const parts = A.arr(ctx, contentRaw, `${at}.content`)
        const texts: Array<string> = []
        for (let c = 0; c < parts.length; c++) texts.push(A.str(ctx, A.obj(ctx, parts[c], `${at}.content[${c}]`), "text", `${at}.content[${c}]`))
        thinking = texts.join("")
        const only = parts[0]
        const canonical = parts.length === 1 && A.isObj(only) && only["type"] === "reasoning_text" && Object.keys(only).length === 2 && thinking !== ""
        if (!canonical) A.setKey(extra, "content", contentRaw)
      }
      const encrypted = A.optStr(ctx, item, "encrypted_content", at)
      const status = A.optStr(ctx, item, "status", at)
      blocks.push(Block.thinking(thinking, undefined, {
        summary,
        itemId: id,
        ...defined({ encryptedContent: encrypted, status }),
        ...keep(key, Object.keys(extra).length === 0 ? undefined : extra)
      }))
      return
    }
    case "function_call": {
      // a call still streaming may have no name or arguments yet: kept whole, as it was
      if (item["name"] === undefined || item["arguments"] === undefined) break
      const callId = A.str(ctx, item, "call_id", at)
      const name = A.str(ctx, item, "name", at)
      const args = A.str(ctx, item, "arguments", at)
      const itemId = A.optStr(ctx, item, "id", at)
      callNames.set(callId, name)
      blocks.push(A.callFromText(ctx, { id: callId, name, index, blockIndex: blocks.length }, args, {
        ...defined({ itemId }),
        ...keep(key, A.extrasOf(item, functionCallKeys))
      } satisfies CallExtras))
      return
    }
    case "image_generation_call": {
      const id = item["id"]
      const result = item["result"]
      if (typeof id !== "string" || typeof result !== "string") break
      const format = typeof item["output_format"] === "string" ? item["output_format"] : "png"
      blocks.push(Block.file(Block.base64(result), `image/${format}`, {
        itemId: id,
        ...keep(key, { type: "image_generation_call", ...A.extrasOf(item, imageGenerationKeys) })
      }))
      return
    }
    default: {
      const hosted = typeof type === "string" ? hostedTool(type) : undefined
      const id = item["id"]
      if (hosted === undefined || typeof id !== "string") break
      readHosted(ctx, item, at, index, id, type as string, hosted, blocks)
      return
    }
  }
  blocks.push(Block.providerData(key, item))
}

const textPartKeys = new Set(["type", "text"])
const refusalPartKeys = new Set(["type", "refusal"])

/** An assistant message item without an id: its text, each part a text block. */
const readEasyAssistant = (ctx: A.Ctx, item: Obj, at: string, blocks: Array<Block.AssistantBlock>): void => {
  const itemExtra = A.extrasOf(item, messageKeys)
  const content = item["content"]
  if (typeof content === "string") {
    blocks.push(Block.text(content, keep(key, undefined, { item: itemExtra })))
    return
  }
  const parts = A.textOrArr(ctx, content, `${at}.content`)
  // an item of no parts has no block to carry it: kept whole, written back as it came
  if (parts.length === 0) {
    blocks.push(Block.providerData(key, item))
    return
  }
  for (let p = 0; p < parts.length; p++) {
    const partAt = `${at}.content[${p}]`
    const part = A.obj(ctx, parts[p], partAt)
    const type = part["type"]
    // each part remembers its type, its other fields and where its item starts, so that the item goes back whole
    const partHints = { item: p === 0 ? itemExtra : undefined, part: type as string, partStart: p === 0 ? true : undefined }
    if (type === "output_text" || type === "input_text") {
      // an output text's citations, as on an output message with its id (an empty list stays with the part's fields)
      const annotations = type === "output_text" ? part["annotations"] : undefined
      const citations = Array.isArray(annotations) && annotations.length > 0 ? annotations : undefined
      const options = keep(key, A.extrasOf(part, citations === undefined ? textPartKeys : outputTextKeys), partHints)
      blocks.push(Block.text(A.str(ctx, part, "text", partAt), citations === undefined ? options : { ...options, citations }))
    } else if (type === "refusal") {
      blocks.push(Block.refusal(A.str(ctx, part, "refusal", partAt), keep(key, A.extrasOf(part, refusalPartKeys), partHints)))
    } else {
      blocks.push(Block.providerData(key, part))
    }
  }
}

const readHosted = (
  ctx: A.Ctx,
  item: Obj,
  at: string,
  index: number,
  id: string,
  type: string,
  hosted: { readonly name: string; readonly result: ReadonlyArray<string> },
  blocks: Array<Block.AssistantBlock>
): void => {
  const extra: Fields = { type }
  const args: Fields = {}
  const result: Fields = {}
  let hasResult = false
  const isMcp = type === "mcp_call"
  for (const field of Object.keys(item)) {
    if (field === "type" || field === "id") continue
    const value = item[field]!
    if (hosted.result.includes(field)) {
      A.setKey(result, field, value)
      hasResult = true
    } else if (field === "status" || (isMcp && field !== "arguments" && field !== "name")) {
      A.setKey(extra, field, value)
    } else if (!isMcp) {
      A.setKey(args, field, value)
    }
  }
  const name = isMcp ? A.str(ctx, item, "name", at) : hosted.name
  const options = { providerExecuted: true, itemId: id, ...keep(key, extra) }
  blocks.push(
    isMcp
      ? A.callFromText(ctx, { id, name, index, blockIndex: blocks.length }, typeof item["arguments"] === "string" ? item["arguments"] : "", options)
      : Block.toolCall(id, name, args, options)
  )
  if (hasResult) blocks.push(Block.toolResult(id, name, [Block.json(result)], false, { providerExecuted: true }))
}

const readOutput = (ctx: A.Ctx, item: Obj, at: string, callNames: Map<string, string>): Block.ToolResultBlock => {
  const callId = A.str(ctx, item, "call_id", at)
  const itemId = A.optStr(ctx, item, "id", at)
  const output = item["output"]
  let extra = A.extrasOf(item, functionOutputKeys)
  let content: Block.ToolResultContent
  if (typeof output === "string") {
    content = output
  } else {
    const parts = A.textOrArr(ctx, output, `${at}.output`)
    const out: Array<Block.ToolResultPart> = []
    let typed = true
    for (let p = 0; p < parts.length; p++) {
      const partAt = `${at}.output[${p}]`
      const part = A.obj(ctx, parts[p], partAt)
      if (part["type"] === "input_text") {
        out.push(Block.text(A.str(ctx, part, "text", partAt), keep(key, A.extrasOf(part, inputTextKeys))))
        continue
      }
      const file = readFilePart(ctx, part, partAt)
      if (file === undefined) typed = false
      else out.push(file)
    }
    // a part with no typed home: the whole output is kept as sent
    if (!typed) extra = { ...extra, output: output! }
    content = out
  }
  const name = callNames.get(callId) ?? (typeof item["name"] === "string" ? item["name"] : "")
  return Block.toolResult(callId, name, content, false, { ...defined({ itemId }), ...keep(key, extra) })
}

const isMessageItem = (item: Obj): boolean => (item["type"] === undefined || item["type"] === "message") && typeof item["role"] === "string"

/** Reads input items into messages: one plain pass. */
const readItems = (ctx: A.Ctx, items: ReadonlyArray<Schema.Json>, path: string, messages: Array<Message.Message>): void => {
  const callNames = new Map<string, string>()
  let assistant: Array<Block.AssistantBlock> | undefined
  let tool: Array<Block.ToolResultBlock> | undefined
  const flush = (): void => {
    if (assistant !== undefined) messages.push(Message.assistant(assistant))
    if (tool !== undefined) messages.push(Message.tool(tool))
    assistant = undefined
    tool = undefined
  }
  for (let i = 0; i < items.length; i++) {
    const at = `${path}[${i}]`
    const item = A.obj(ctx, items[i], at)
    const role = item["role"]
    if (isMessageItem(item) && role !== "assistant") {
      flush()
      const extra = A.extrasOf(item, messageKeys)
      if (role === "user") {
        messages.push(Message.user(readTextParts(ctx, item["content"], `${at}.content`, false), keep(key, extra)))
      } else if (role === "system" || role === "developer") {
        const blocks = readTextParts(ctx, item["content"], `${at}.content`, true) as Array<Block.TextBlock>
        messages.push(Message.system(blocks, keep(key, role === "developer" ? { ...extra, role } : extra)))
      } else {
        A.malformed(ctx, `${at}.role`, `unknown role ${preview(role)}`)
      }
      continue
    }
    // an output with no call id is kept whole on the assistant side (see isToolOutputItem)
    if (isToolOutputItem(item)) {
      if (assistant !== undefined) flush()
      tool ??= []
      tool.push(readOutput(ctx, item, at, callNames))
      continue
    }
    if (tool !== undefined) flush()
    assistant ??= []
    if (isMessageItem(item) && typeof item["id"] !== "string") readEasyAssistant(ctx, item, at, assistant)
    else readAssistantItem(ctx, item, at, messages.length, assistant, callNames)
  }
  flush()
}

// ---------------------------------------------------------------------------
// writing: messages -> items
// ---------------------------------------------------------------------------

/** A part with the sources it came with beside the block's own (see `otherSources`): one the block's own source already fills stays the block's. */
const withOtherSources = <T extends object>(part: T, block: Block.FileBlock): T => {
  const others = hintOf(block, key, "otherSources")
  if (others === null || typeof others !== "object" || Array.isArray(others)) return part
  const out = part as Record<string, unknown>
  for (const [name, value] of Object.entries(others)) if (typeof value === "string" && out[name] === undefined) A.setKey(out, name, value)
  return part
}

/** The type an image's `data:` URL declared when it was not an image type (see `dataUrlMediaType`). */
const declaredType = (block: Block.FileBlock): string | undefined => {
  const declared = hintOf(block, key, "dataUrlMediaType")
  return typeof declared === "string" ? declared : undefined
}

/** A file as an `input_image` / `input_file` part, or `undefined` (reported) when the format has none. */
const writeFile = (ctx: A.Ctx, block: Block.FileBlock, index: number, blockIndex: number): Wire.InputContent | undefined => {
  const extra = keptOf(block, key, hints)
  const source = block.source
  // compared as the estimator and the validation compare it: `IMAGE/PNG; x=y` is an image
  const bare = bareMediaType(block.mediaType)
  // an image or audio read from an input_file goes back as one (see `readFilePart`)
  const asFile = hintOf(block, key, "part") === "input_file"
  if (bare.startsWith("image/") && !asFile) {
    const image: Wire.InputImage = { type: "input_image", detail: block.detail ?? "auto" }
    switch (source._tag) {
      case "Url":
        // a base64 data: URL is the image itself, sent as given; any other URL must be one OpenAI fetches
        if (!openAiTakesUrl(source.url)) {
          A.dropped(ctx, index, blockIndex, `${A.an(block.mediaType)} ${messageText(block.mediaType)} image at ${A.urlScheme(source.url)} URL`, A.unfetchableReason(source.url, OPENAI_URLS))
          return undefined
        }
        image.image_url = source.url
        break
      case "Base64":
        // the type as the API takes it (lower case, bare); a data URL's own declared type goes back as it came
        image.image_url = A.base64DataUrl(declaredType(block) ?? (bare === "image/*" ? "image/png" : bare), source.data)
        break
      case "FileId":
        image.file_id = source.fileId
        break
      case "Text":
        ctx.warnings.push(new DroppedContent({ index, blockIndex, what: "an image given as text", reason: "an input_image is a URL or a file id" }))
        return undefined
      default:
        return Block.absurd(source)
    }
    // an input_image has no name and no document settings: said, as for the other formats
    const lost: Array<string> = []
    if (block.filename !== undefined) lost.push("file name")
    if (block.title !== undefined || block.context !== undefined || block.citationsEnabled !== undefined) lost.push("document title, context or citation settings")
    if (lost.length > 0) ctx.warnings.push(new DroppedContent({ index, blockIndex, what: `the ${lost.join(" and ")} of an image`, reason: "an input_image has none" }))
    return withOtherSources(merge(image, extra), block)
  }
  if (bare.startsWith("audio/") && !asFile) {
    ctx.warnings.push(new DroppedContent({ index, blockIndex, what: `audio (${messageText(block.mediaType)})`, reason: "Responses input has no audio part" }))
    return undefined
  }
  const file: Wire.InputFile = { type: "input_file" }
  switch (source._tag) {
    case "Base64":
      file.file_data = A.base64DataUrl(block.mediaType, source.data)
      break
    case "Url":
      // a base64 data: URL is the file's data, as file_data takes it; file_url is a URL OpenAI fetches
      if (base64DataUrlParts(source.url) !== undefined) file.file_data = source.url
      else if (openAiTakesUrl(source.url)) file.file_url = source.url
      else {
        A.dropped(ctx, index, blockIndex, `${A.an(block.mediaType)} ${messageText(block.mediaType)} file at ${A.urlScheme(source.url)} URL`, A.unfetchableReason(source.url, OPENAI_URLS))
        return undefined
      }
      break
    case "FileId":
      file.file_id = source.fileId
      break
    case "Text":
      ctx.warnings.push(new ConvertedContent({ index, blockIndex, what: "a text document", how: "as a base64 text/plain file" }))
      file.file_data = A.base64DataUrl("text/plain", utf8ToBase64(source.text))
      break
    default:
      return Block.absurd(source)
  }
  if (block.filename !== undefined) file.filename = block.filename
  if (block.title !== undefined || block.context !== undefined || block.citationsEnabled !== undefined) {
    ctx.warnings.push(new DroppedContent({ index, blockIndex, what: "document title, context or citation settings", reason: "an input_file has none" }))
  }
  // an input_file's detail is how a PDF's page images are read: auto, low or high
  const detail = inputFileDetailOf(block.detail)
  if (detail !== undefined) file.detail = detail
  else if (block.detail !== undefined) {
    A.dropped(ctx, index, blockIndex, `the ${block.detail} detail setting of ${A.an(block.mediaType)} ${messageText(block.mediaType)} file`, "an input_file takes auto, low or high")
  }
  return withOtherSources(merge(file, extra), block)
}

const writeUserContent = (ctx: A.Ctx, m: Message.UserMessage | Message.SystemMessage, index: number): string | Array<Wire.InputContent> => {
  const only = m.content[0]
  if (m.content.length === 1 && only !== undefined && only._tag === "Text" && keptOf(only, key, hints) === undefined) {
    return only.text
  }
  const out: Array<Wire.InputContent> = []
  for (let b = 0; b < m.content.length; b++) {
    const block = m.content[b]!
    switch (block._tag) {
      case "Text": {
        const part: Wire.InputText = { type: "input_text", text: block.text }
        out.push(merge<Wire.InputText>(part, A.withoutOwnFields(ctx, index, b, keptOf(block, key, hints), part, ["text"])))
        break
      }
      case "File": {
        const part = writeFile(ctx, block, index, b)
        if (part !== undefined) out.push(part)
        break
      }
      case "ProviderData":
        if (block.provider === key) out.push(block.data as unknown as Wire.InputContent)
        else ctx.warnings.push(new DroppedContent({ index, blockIndex: b, what: `${messageText(block.provider)} provider data`, reason: "it belongs to another provider" }))
        break
      default:
        return Block.absurd(block)
    }
  }
  return out
}

const writeResultContent = (ctx: A.Ctx, result: Block.ToolResultBlock, index: number, blockIndex: number): string | Array<Wire.InputContent> => {
  const content = result.content
  if (typeof content === "string") return content
  const only = content[0]
  if (content.length === 1 && only !== undefined && only._tag === "Json") {
    ctx.warnings.push(new ConvertedContent({ index, blockIndex, what: "a JSON tool result", how: "as JSON text" }))
    return Block.resultContentText(content)
  }
  const out: Array<Wire.InputContent> = []
  for (const part of content) {
    switch (part._tag) {
      case "Text": {
        const text: Wire.InputText = { type: "input_text", text: part.text }
        out.push(merge<Wire.InputText>(text, A.withoutOwnFields(ctx, index, blockIndex, keptOf(part, key, hints), text, ["text"])))
        break
      }
      case "File": {
        const file = writeFile(ctx, part, index, blockIndex)
        if (file !== undefined) out.push(file)
        break
      }
      case "Json":
        ctx.warnings.push(new ConvertedContent({ index, blockIndex, what: "a JSON value in a tool result", how: "as JSON text" }))
        out.push({ type: "input_text", text: Block.resultContentText([part]) })
        break
      default:
        return Block.absurd(part)
    }
  }
  return out
}

/**
 * The item id to write: the block's, when it is one of its kind; else none,
 * reported. The API needs no id on an item the client sends (OpenAI's own
 * Codex sends these items without one): a call is paired with its output by
 * `call_id`, and a reasoning item is replayed from its encrypted content.
 */
const itemIdFor = (ctx: A.Ctx, kind: keyof typeof ITEM_ID_PREFIXES, itemId: string, index: number, blockIndex: number): string | undefined => {
  const prefix = ITEM_ID_PREFIXES[kind]
  if (itemId.startsWith(prefix)) return itemId
  ctx.warnings.push(new DroppedContent({ index, blockIndex, what: `the ${kind} item id ${quote(itemId)}`, reason: `the Responses API takes only ${kind} ids that begin with ${prefix}, and needs none on an item sent back` }))
  return undefined
}

/** A reasoning item, with its id when it has one the API takes (else it is replayed from its encrypted content). */
type ReasoningItem = Omit<Wire.ReasoningParam, "id"> & { id?: string }

/** An output message item, with its id when it has one the API takes. */
type OutputMessageItem = Omit<Wire.OutputMessageParam, "id"> & { id?: string }

const writeReasoning = (block: Block.ThinkingBlock, itemId: string | undefined): ReasoningItem => {
  const item: ReasoningItem = {
    type: "reasoning",
    ...(itemId === undefined ? {} : { id: itemId }),
    summary: (block.summary ?? []).map((text) => ({ type: "summary_text" as const, text }))
  }
  if (block.thinking !== "") item.content = [{ type: "reasoning_text", text: block.thinking }]
  if (block.encryptedContent !== undefined) item.encrypted_content = block.encryptedContent
  if (block.status === "in_progress" || block.status === "completed" || block.status === "incomplete") item.status = block.status
  else if (block.status !== undefined) (item as unknown as Record<string, unknown>)["status"] = block.status
  return merge(item, keptOf(block, key, hints))
}

/** A text read from a part of an assistant message without an id, as that part: an output text with its citations. */
const easyTextPart = (ctx: A.Ctx, block: Block.TextBlock, type: string, index: number, blockIndex: number): Obj => {
  if (block.citations === undefined || block.citations.length === 0) return { type, text: block.text }
  if (type === "output_text") return { type, text: block.text, annotations: outputAnnotations(ctx, block, index, blockIndex) as unknown as Schema.Json }
  ctx.warnings.push(new DroppedContent({ index, blockIndex, what: "citations", reason: `an ${type} part has no annotations` }))
  return { type, text: block.text }
}

/** A text's citations as its output part's `annotations`, in the Responses spelling; left out, reported, when one has none. */
const outputAnnotations = (ctx: A.Ctx, block: Block.TextBlock, index: number, blockIndex: number): Array<Wire.OutputAnnotation> => {
  const citations = block.citations ?? []
  const annotations = Citations.allOf(citations, Citations.responsesAnnotationOf)
  if (annotations !== undefined) return annotations as unknown as Array<Wire.OutputAnnotation>
  ctx.warnings.push(new DroppedContent({ index, blockIndex, what: "citations", reason: "they are Anthropic's, of kinds an output text does not cite" }))
  return []
}

/** Writes one assistant message's blocks as items, in order. */
const writeAssistant = (ctx: A.Ctx, m: Message.AssistantMessage, index: number, items: Array<Wire.InputItem>): void => {
  if (m.name !== undefined) ctx.warnings.push(new DroppedContent({ index, what: "the participant name", reason: "Responses messages have no name" }))
  // results of hosted calls are written inside their call's item
  const hostedResults = new Map<string, Block.ToolResultBlock>()
  for (const block of m.content) {
    if (block._tag === "ToolResult" && block.providerExecuted === true) hostedResults.set(block.toolCallId, block)
  }
  // the results that go inside their call's item, wherever in the message they are (before the call too)
  const written = new Set<Block.ToolResultBlock>()
  for (const block of m.content) {
    if (block._tag !== "ToolCall" || block.providerExecuted !== true) continue
    const type = keptOf(block, key, hints)?.["type"]
    const result = hostedResults.get(block.id)
    if (typeof type === "string" && hostedTool(type) !== undefined && result !== undefined) written.add(result)
  }
  let open: OutputMessageItem | undefined
  // the item id of the open message: the block's, also when the API takes none and the item is written without it
  let openId: string | undefined
  // an assistant item without an id read with content parts, written back as one item with those parts
  let openParts: Array<Obj> | undefined
  for (let b = 0; b < m.content.length; b++) {
    const block = m.content[b]!
    if ((block._tag !== "Text" && block._tag !== "Refusal") || block.itemId === undefined || openId !== block.itemId) open = undefined
    const partType = block._tag === "Text" || block._tag === "Refusal" ? hintOf(block, key, "part") : undefined
    if (typeof partType !== "string" || ((block._tag === "Text" || block._tag === "Refusal") && hintOf(block, key, "partStart") === true)) openParts = undefined
    switch (block._tag) {
      case "Text":
      case "Refusal": {
        const item = hintOf(block, key, "item")
        const itemExtra = A.isObj(item) ? item : undefined
        const extra = A.withoutOwnFields(ctx, index, b, keptOf(block, key, hints), block._tag === "Text" ? { text: block.text } : { refusal: block.refusal }, [block._tag === "Text" ? "text" : "refusal"])
        if (block.itemId === undefined && typeof partType === "string") {
          if (openParts === undefined) {
            openParts = []
            items.push(merge({ role: "assistant", content: openParts }, itemExtra) as unknown as Wire.InputItem)
          }
          openParts.push(
            block._tag === "Text" ? merge<Obj>(easyTextPart(ctx, block, partType, index, b), extra) : merge<Obj>({ type: partType, refusal: block.refusal }, extra)
          )
          break
        }
        if (block.itemId === undefined) {
          if (block._tag === "Refusal") {
            ctx.warnings.push(new ConvertedContent({ index, blockIndex: b, what: "a refusal without an output item id", how: "as assistant text" }))
          } else if (block.citations !== undefined && block.citations.length > 0) {
            ctx.warnings.push(new DroppedContent({ index, blockIndex: b, what: "citations", reason: "assistant text without an output item id has no annotations" }))
          }
          // the fields kept from the part it was read from (logprobs...): an id-less assistant message is its text alone
          const fields = extra === undefined ? [] : Object.keys(extra)
          if (fields.length > 0) {
            ctx.warnings.push(new DroppedContent({ index, blockIndex: b, what: `what the part of assistant text without an output item id held beside its text (${Block.truncate(fields.join(", "), 200)})`, reason: "it is written as an assistant message of its text alone" }))
          }
          const text = block._tag === "Text" ? block.text : block.refusal
          items.push(merge<Wire.InputMessage>({ role: "assistant", content: text }, itemExtra))
          break
        }
        if (open === undefined) {
          const id = itemIdFor(ctx, "message", block.itemId, index, b)
          open = merge<OutputMessageItem>({ type: "message", ...(id === undefined ? {} : { id }), role: "assistant", status: "completed", content: [] }, itemExtra)
          openId = block.itemId
          items.push(open)
        }
        open.content.push(
          block._tag === "Text"
            ? merge({ type: "output_text" as const, text: block.text, annotations: outputAnnotations(ctx, block, index, b) }, extra)
            : merge({ type: "refusal" as const, refusal: block.refusal }, extra)
        )
        break
      }
      case "Thinking":
        if (block.itemId === undefined) {
          ctx.warnings.push(new DroppedContent({ index, blockIndex: b, what: "thinking without a reasoning item id", reason: "only reasoning items the Responses API produced can be replayed" }))
        } else {
          if (block.signature !== undefined || block.thoughtSignature !== undefined) {
            ctx.warnings.push(new DroppedContent({ index, blockIndex: b, what: "another provider's thinking signature", reason: "a reasoning item has none" }))
          }
          const prefix = ITEM_ID_PREFIXES.reasoning
          if (block.itemId.startsWith(prefix) || block.encryptedContent !== undefined) {
            items.push(writeReasoning(block, itemIdFor(ctx, "reasoning", block.itemId, index, b)))
          } else {
            ctx.warnings.push(new DroppedContent({
              index,
              blockIndex: b,
              what: `thinking with the reasoning item id ${quote(block.itemId)}`,
              reason: `the Responses API takes only reasoning ids that begin with ${prefix}, and without one a reasoning item is replayed only from its encrypted content, which this one has not`
            }))
          }
        }
        break
      case "RedactedThinking":
        ctx.warnings.push(new DroppedContent({ index, blockIndex: b, what: "redacted thinking", reason: "it is Anthropic's and cannot be replayed to OpenAI" }))
        break
      case "ToolCall": {
        const extra = keptOf(block, key, hints)
        if (block.providerExecuted === true) {
          const type = extra?.["type"]
          if (typeof type !== "string" || hostedTool(type) === undefined) {
            ctx.warnings.push(new DroppedContent({ index, blockIndex: b, what: `the provider-executed call ${quote(block.name)}`, reason: "another provider ran it; its result cannot be replayed here" }))
            break
          }
          items.push(writeHosted(block, type, extra ?? {}, hostedResults.get(block.id)))
          break
        }
        A.checkToolName(ctx, block.name, index, b)
        const customText = customTextOf(block, toolNamesOf(ctx))
        if (customText !== undefined) {
          // a call of a custom tool: its input text, as the API's own custom_tool_call item (its kept fields with it);
          // one another format made with { input } is sent as the text it holds
          if (!isCustomTextCall(block)) {
            A.converted(ctx, index, b, `the call to ${quote(block.name)}, a custom tool, made with {"input": <text>}`, "as a custom_tool_call of that text")
          }
          const item: Record<string, Schema.Json> = { type: "custom_tool_call", call_id: Ids.idFor(ctx, block.id), name: block.name, input: customText }
          // (the item id of a call read as a function call is no custom call's)
          if (block.itemId !== undefined && isCustomTextCall(block)) item["id"] = block.itemId
          items.push(merge(item as unknown as Wire.KeptItem, extra))
          break
        }
        // a custom call of a tool the request defines as a function (its format has no Responses form) goes as the tool does
        const asInput = isCustomTextCall(block)
        if (asInput) A.converted(ctx, index, b, `the call to ${quote(block.name)}, a custom tool sent as a function tool`, `with its input text as {"input": <text>}`)
        const args = asInput ? JSON.stringify({ input: block.args }) : ToolArguments.toText(block)
        const call: Wire.FunctionCallParam = { type: "function_call", call_id: Ids.idFor(ctx, block.id), name: block.name, arguments: args }
        const id = block.itemId === undefined ? undefined : itemIdFor(ctx, "function_call", block.itemId, index, b)
        if (id !== undefined) call.id = id
        items.push(merge(call, A.withoutOwnFields(ctx, index, b, extra, call, ["call_id", "name", "arguments"])))
        break
      }
      case "ToolResult":
        if (!written.has(block)) {
          const sent = hostedResults.get(block.toolCallId)
          const reason = sent !== undefined && written.has(sent) ? "a later result of the same call is sent with the call's item" : "another provider ran it"
          ctx.warnings.push(new DroppedContent({ index, blockIndex: b, what: `the result of the provider-executed call ${quote(block.toolName)}`, reason }))
        }
        break
      case "File": {
        const extra = keptOf(block, key, hints)
        if (extra?.["type"] === "image_generation_call" && block.itemId !== undefined && block.source._tag === "Base64") {
          items.push(merge<Wire.KeptItem>({ type: "image_generation_call", id: block.itemId, result: block.source.data } as Wire.KeptItem, extra))
        } else {
          ctx.warnings.push(new DroppedContent({ index, blockIndex: b, what: `a generated file (${messageText(block.mediaType)})`, reason: "Responses input has no assistant file" }))
        }
        break
      }
      case "ProviderData":
        if (block.provider === key) items.push(block.data as unknown as Wire.KeptItem)
        else ctx.warnings.push(new DroppedContent({ index, blockIndex: b, what: `${messageText(block.provider)} provider data`, reason: "it belongs to another provider" }))
        break
      default:
        return Block.absurd(block)
    }
  }
}

const writeHosted = (block: Block.ToolCallBlock, type: string, extra: Obj, result: Block.ToolResultBlock | undefined): Wire.KeptItem =>
  merge(hostedItem(block, type, result, ToolArguments.toText), extra) as unknown as Wire.KeptItem

/** What the Responses API takes as a `call_id`: at most 64 characters (longer is a 400, `string_above_max_length`). */
const RESPONSES_IDS: Ids.IdRule = { maxLength: 64, why: "the Responses API takes call ids of at most 64 characters" }

/**
 * A field the stream accumulator (`OpenAiResponsesStream`) sets beside a final value that differs from what its
 * deltas streamed (`streamed_arguments`, `streamed_text`, `streamed_commands`, `streamed_output`,
 * `streamed_logprobs`, `streamed_annotations`; `streamed_content` and `streamed_summary`, the parts a final item had no
 * place for...): a record of the read, kept as provider data, that the API does not take back as input.
 */
const streamedField = /^streamed_(arguments|input|code|text|refusal|commands|output|logprobs|annotations|content|summary)$/

const hasStreamed = (o: unknown): boolean => isObj(o) && Object.keys(o).some((k) => streamedField.test(k))

/** A copy of `o` without its `streamed_*` fields; `o` itself when it has none. */
const dropStreamed = <T>(o: T): T => {
  if (!hasStreamed(o)) return o
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o as Record<string, unknown>)) if (!streamedField.test(k)) A.setKey(out, k, v)
  return out as T
}

/** An assistant item as the API takes it back: without the `streamed_*` fields on it and on its content and summary parts. */
const withoutStreamed = <T>(item: T): T => {
  if (!isObj(item)) return item
  let out = dropStreamed(item)
  for (const list of ["content", "summary"]) {
    const parts = item[list]
    if (!Array.isArray(parts) || !parts.some(hasStreamed)) continue
    if (out === item) out = { ...item }
    A.setKey(out, list, parts.map(dropStreamed))
  }
  return out as T
}

/** How the request's tools are sent, by name (see `ResponsesToolNames`): whether a Chat custom call goes as a custom call. */
const toolNames = new WeakMap<A.Ctx, ResponsesToolNames>()
const NO_TOOLS: ResponsesToolNames = { custom: undefined, functions: undefined }
const toolNamesOf = (ctx: A.Ctx): ResponsesToolNames => toolNames.get(ctx) ?? NO_TOOLS

const writeMessages = (ctx: A.Ctx, messages: ReadonlyArray<Message.Message>, from: number, items: Array<Wire.InputItem>): void => {
  Ids.planIds(ctx, messages, RESPONSES_IDS)
  // the results of custom tool calls go as the custom calls' outputs
  const customResults = customTextResults(messages, toolNamesOf(ctx))
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]!
    switch (m.role) {
      case "system":
      case "user": {
        if (m.name !== undefined) ctx.warnings.push(new DroppedContent({ index: i, what: "the participant name", reason: "Responses messages have no name" }))
        const content = writeUserContent(ctx, m, i)
        if (m.content.length > 0 && Array.isArray(content) && content.length === 0) A.droppedEmptyMessage(ctx, i, m.role, "Responses")
        else {
          // (a system message's kept role "developer" is the wire form it was read in; any other role is the message's own)
          const given = keptOf(m, key, hints)
          const own = m.role === "system" && given?.["role"] === "developer" ? ["content"] : ["role", "content"]
          const message: Wire.InputMessage = { role: m.role, content }
          items.push(merge<Wire.InputMessage>(message, A.withoutOwnFields(ctx, i, undefined, given, message, own, "the message's own role and content are written")))
        }
        break
      }
      case "assistant": {
        const start = items.length
        writeAssistant(ctx, m, i, items)
        // as the other writers do: a message whose every block was left out is reported as a message too
        if (m.content.length > 0 && items.length === start) A.droppedEmptyMessage(ctx, i, "assistant", "Responses")
        for (let k = start; k < items.length; k++) {
          const written = withoutStreamed(items[k]!)
          if (written === items[k]) continue
          items[k] = written
          A.dropped(
            ctx,
            i,
            undefined,
            "the streamed value kept beside a final value it differs from (a streamed_* field the stream reader sets)",
            "the Responses API takes no streamed_* field on an input item; it stays in the model"
          )
        }
        break
      }
      case "tool":
        for (let b = 0; b < m.content.length; b++) {
          const result = m.content[b]!
          const type = customResults.has(result) ? "custom_tool_call_output" : "function_call_output"
          if (result.isError) {
            ctx.warnings.push(new DroppedContent({ index: i, blockIndex: b, what: "the error flag of a tool result", reason: `a ${type} has none (say so in the output text)` }))
          }
          const out: Wire.FunctionCallOutputParam = { type: "function_call_output", call_id: Ids.idFor(ctx, result.toolCallId), output: writeResultContent(ctx, result, i, b) }
          if (result.itemId !== undefined) out.id = result.itemId
          const kept = A.withoutOwnFields(ctx, i, b, keptOf(result, key, hints), out, ["call_id"])
          items.push(merge(type === "function_call_output" ? out : ({ ...out, type } as unknown as Wire.KeptItem), kept))
        }
        break
      default:
        return Block.absurd(m)
    }
  }
}

// ---------------------------------------------------------------------------
// public: conversations
// ---------------------------------------------------------------------------

/**
 * Writes a conversation as Responses input items, with the warnings of what
 * the format could not carry.
 *
 * @example
 * import { Effect } from "effect"
 * import { Message } from "effect-agent-messages"
 * import { OpenAiResponses } from "effect-agent-messages/providers"
 * import OpenAI from "openai"
 *
 * const client = new OpenAI()
 *
 * const program = Effect.gen(function*() {
 *   const { value: input } = yield* OpenAiResponses.toMessages([Message.user("Weather in Oslo?")])
 *   // input: [{ role: "user", content: "Weather in Oslo?" }]
 *   // items kept as read (hosted tool calls, item types added later) are typed loosely: the SDK wants its own type
 *   const response = yield* Effect.promise(() => client.responses.create({ model: "gpt-5", input: input as OpenAI.Responses.ResponseInput }))
 *   const { value } = yield* OpenAiResponses.fromResponse(response)
 *   return value.message
 * })
 *
 * @category conversions
 * @since 0.1.0
 */
export const toMessages = (messages: ReadonlyArray<Message.Message>, options?: ConversionOptions): Effect.Effect<Converted<Array<Wire.InputItem>>, UnsupportedContent> => {
  const ctx = A.makeCtx(key, options)
  return A.runEncode(ctx, () => {
    const items: Array<Wire.InputItem> = []
    writeMessages(ctx, messages, 0, items)
    return items
  })
}

/**
 * Reads Responses input items (or output items, or both: a stored history)
 * into a conversation. Tool-call arguments go through the shared parser
 * (`toolArguments: "strict"` fails on text that is not a JSON object);
 * anything that is not Responses input fails with `MalformedPayload`.
 *
 * @example
 * const { value: messages } = yield* OpenAiResponses.fromMessages([
 *   { role: "user", content: "Weather in Oslo?" },
 *   { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
 *   { type: "function_call_output", call_id: "call_1", output: "12°C" }
 * ])
 * messages.map((m) => m.role) // ["user", "assistant", "tool"]
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromMessages = (
  items: ReadonlyArray<Wire.InputItemLike> | unknown,
  options?: ConversionOptions
): Effect.Effect<Converted<Array<Message.Message>>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(key, options)
  return A.run(ctx, () => {
    const messages: Array<Message.Message> = []
    readItems(ctx, A.arr(ctx, A.jsonOf(ctx, items, "input"), "input"), "input", messages)
    return messages
  })
}

// ---------------------------------------------------------------------------
// public: requests
// ---------------------------------------------------------------------------

/** The name of a hosted tool: its own (`name`, an MCP server's `server_label`), else its type. */
const hostedName = (tool: Obj, type: string): string => {
  const name = tool["name"] ?? tool["server_label"]
  return typeof name === "string" ? name : type
}

const readTools = (ctx: A.Ctx, raw: Schema.Json | undefined): Array<Request.ToolDefinition> | undefined => {
  if (raw === undefined || raw === null) return undefined
  const list = A.arr(ctx, raw, "tools")
  const tools: Array<Request.ToolDefinition> = []
  for (let t = 0; t < list.length; t++) {
    const at = `tools[${t}]`
    const tool = A.obj(ctx, list[t], at)
    const type = A.str(ctx, tool, "type", at)
    if (type !== "function") {
      // a hosted tool, kept whole in its place
      tools.push(Request.providerTool(hostedName(tool, type), key, type, A.extrasOf(tool, typeKey)))
      continue
    }
    const strict = A.optBool(ctx, tool, "strict", at)
    tools.push(Request.tool(A.str(ctx, tool, "name", at), {
      ...defined({
        description: A.optStr(ctx, tool, "description", at),
        parameters: A.optObj(ctx, tool, "parameters", at),
        // false is what unset means in the model (and in the other formats): not strict
        strict: strict === true ? true : undefined
      }),
      // strict left unset: the Responses API makes such a tool strict where it can, which other formats do not
      ...keep(key, A.extrasOf(tool, functionToolKeys), { strictUnset: strict === undefined ? true : undefined })
    }))
  }
  return tools
}

/**
 * The hosted tools a tool choice names by their type alone (the SDK's
 * `ToolChoiceTypes`, `apply_patch` and `shell`; `web_search` as clients
 * send it). An MCP server is named by its label, a custom tool by its name;
 * the other hosted tools (`local_shell`, `tool_search`, ...) cannot be the
 * one tool the model must call.
 */
const hostedChoiceTypes: ReadonlySet<string> = new Set([
  "file_search",
  "web_search",
  "web_search_preview",
  "web_search_preview_2025_03_11",
  "computer",
  "computer_use",
  "computer_use_preview",
  "image_generation",
  "code_interpreter",
  "apply_patch",
  "shell"
])

/** A tool as a named tool choice sees it: its name, its type on the wire (`"function"` or a hosted tool's) and a hosted tool's definition. */
interface ChoiceTarget {
  readonly name: string
  readonly type: string
  readonly config: Block.JsonObject | undefined
}

/** A tool the Responses API is sent, as a choice names it (another provider's tool is never sent, so never named). */
const choiceTargetOf = (tool: Request.ToolDefinition): ChoiceTarget => {
  const defined = tool.providerDefined
  if (defined?.provider === key) return { name: tool.name, type: defined.type, config: defined.config }
  // a Chat Completions custom tool is written as the API's own custom tool where its format allows
  return { name: tool.name, type: customToolItem(tool) === undefined ? "function" : "custom", config: undefined }
}

/**
 * The `tool_choice` that names the tool `name` among `targets`: the
 * function form when a function tool has that name (or no tool has), else
 * the form of the hosted tool of that name; `undefined` when that hosted
 * tool cannot be named in a tool choice. The one rule for writing a named
 * choice and for reading one back.
 */
const namedChoice = (targets: ReadonlyArray<ChoiceTarget>, name: string): Wire.ToolChoiceParam | undefined => {
  let hosted: ChoiceTarget | undefined
  for (const target of targets) {
    if (target.name !== name) continue
    if (target.type === "function") return { type: "function", name }
    hosted ??= target
  }
  if (hosted === undefined) return { type: "function", name }
  switch (hosted.type) {
    case "custom":
      return { type: "custom", name }
    case "mcp": {
      const label = hosted.config?.["server_label"]
      return { type: "mcp", server_label: typeof label === "string" ? label : name }
    }
    default:
      return hostedChoiceTypes.has(hosted.type) ? { type: hosted.type } : undefined
  }
}

/** The name of the tool a `tool_choice` object names, by the form `namedChoice` writes for it, or `undefined`. */
const choiceName = (choice: Obj, targets: ReadonlyArray<ChoiceTarget>): string | undefined => {
  const type = choice["type"]
  if (type === "function" || type === "custom") return typeof choice["name"] === "string" ? choice["name"] : undefined
  if (type === "mcp") return targets.find((t) => t.type === "mcp" && t.config?.["server_label"] === choice["server_label"])?.name
  return targets.find((t) => t.type === type)?.name
}

/** Whether two flat JSON objects (tool choices) have the same fields and values. */
const sameFields = (a: Obj, b: { readonly [key: string]: unknown }): boolean => {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k])
}

/**
 * The request's tool choice: a mode, or one tool by name when the choice
 * is the form `toRequest` writes for that tool among these (a function, a
 * hosted tool by its type, an MCP server by its label, a custom tool);
 * any other form is kept as sent.
 */
const readToolChoice = (raw: Schema.Json | undefined, tools: ReadonlyArray<Request.ToolDefinition> | undefined, kept: Fields): Request.ToolChoice | undefined => {
  if (raw === undefined || raw === null) return undefined
  if (raw === "auto" || raw === "none" || raw === "required") return raw
  if (A.isObj(raw)) {
    const targets = (tools ?? []).map(choiceTargetOf)
    const name = choiceName(raw, targets)
    const written = name === undefined ? undefined : namedChoice(targets, name)
    if (name !== undefined && typeof written === "object" && sameFields(raw, written)) return { _tag: "Tool", name }
  }
  kept["tool_choice"] = raw
  return undefined
}

const formatKeys = new Set(["type", "name", "schema", "description", "strict"])

const readText = (ctx: A.Ctx, raw: Schema.Json | undefined, kept: Fields): Request.ResponseFormat | undefined => {
  if (raw === undefined || raw === null) return undefined
  const text = A.obj(ctx, raw, "text")
  const { format, ...rest } = text
  let responseFormat: Request.ResponseFormat | undefined
  if (A.isObj(format)) {
    const type = format["type"]
    const keys = Object.keys(format).length
    if (type === "text" && keys === 1) responseFormat = { _tag: "Text" }
    else if (type === "json_object" && keys === 1) responseFormat = { _tag: "JsonObject" }
    else if (type === "json_schema" && typeof format["name"] === "string" && A.isObj(format["schema"]) && Object.keys(format).every((k) => formatKeys.has(k))) {
      responseFormat = {
        _tag: "JsonSchema",
        name: format["name"],
        schema: format["schema"],
        ...defined({ description: A.optStr(ctx, format, "description", "text.format"), strict: A.optBool(ctx, format, "strict", "text.format") })
      }
    }
  }
  if (responseFormat === undefined && format !== undefined) {
    kept["text"] = text
    return undefined
  }
  if (Object.keys(rest).length > 0) kept["text"] = rest as Fields
  return responseFormat
}

/**
 * Reads a Responses request body into a `Request`: `instructions` as a
 * leading system message (marked so it is written back as
 * `instructions`), the input items, function and hosted tools, tool choice
 * (one naming a hosted tool, such as `{ type: "file_search" }`, as a named
 * choice of it), parallel tool calls and `text.format`; every other body
 * field is kept in `providerOptions["openai-responses"]`.
 *
 * @example
 * const { value: request } = yield* OpenAiResponses.fromRequest({
 *   model: "gpt-5",
 *   instructions: "Be brief.",
 *   input: [{ role: "user", content: "hi" }],
 *   max_output_tokens: 512
 * })
 * request.messages.map((m) => m.role) // ["system", "user"]
 * const { value: body } = yield* OpenAiResponses.toRequest(request)
 * body.instructions // "Be brief.": written back where it came from
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromRequest = (
  body: Wire.RequestBodyLike | unknown,
  options?: ConversionOptions
): Effect.Effect<Converted<Request.Request>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(key, options)
  return A.run(ctx, () => {
    const raw = A.obj(ctx, A.jsonOf(ctx, body), "")
    const messages: Array<Message.Message> = []
    const instructions = A.optStr(ctx, raw, "instructions", "")
    if (instructions !== undefined) messages.push(Message.system(instructions, keep(key, undefined, { instructions: true })))
    const input = raw["input"]
    // input may be left out when the conversation lives on the server; a body with none of those is another format's
    if (input === undefined && !["previous_response_id", "conversation", "prompt"].some((k) => raw[k] !== undefined && raw[k] !== null)) {
      A.malformed(ctx, "input", "a Responses body needs input, unless it continues a stored response, conversation or prompt (is this another provider's format?)")
    }
    if (typeof input === "string") messages.push(Message.user(input))
    else if (input !== undefined && input !== null) readItems(ctx, A.textOrArr(ctx, input, "input"), "input", messages)
    const kept: Fields = {}
    const tools = readTools(ctx, raw["tools"])
    const toolChoice = readToolChoice(raw["tool_choice"], tools, kept)
    const responseFormat = readText(ctx, raw["text"], kept)
    const limit = raw["max_output_tokens"]
    const maxOutputTokens = Request.isTokenLimit(limit) ? limit : undefined
    if (limit !== undefined && maxOutputTokens === undefined) kept["max_output_tokens"] = limit
    for (const field of Object.keys(raw)) if (!bodyKeys.has(field)) A.setKey(kept, field, raw[field])
    return Request.make(messages, {
      ...defined({ model: A.optStr(ctx, raw, "model", ""), tools, toolChoice, parallelToolCalls: A.optBool(ctx, raw, "parallel_tool_calls", ""), responseFormat, maxOutputTokens }),
      // a body that continues a stored response may leave input out: it goes back without it
      ...keep(key, Object.keys(kept).length === 0 ? undefined : kept, { noInput: input === undefined || input === null ? true : undefined })
    })
  })
}

// ---------------------------------------------------------------------------
// public: custom tools, as the other formats carry them
// ---------------------------------------------------------------------------

/** The fields of a `custom_tool_call` item that its call block holds itself; its `id` too, when a string (`itemId`). */
const customCallKeys = new Set(["type", "call_id", "name", "input"])
const customCallKeysWithId = new Set([...customCallKeys, "id"])

/** What of an item is not read into a block: its fields but `keys`. */
const itemExtras = (item: Block.JsonObject, keys: ReadonlySet<string>): Fields | undefined => {
  const out: Fields = {}
  for (const field of Object.keys(item)) if (!keys.has(field)) A.setKey(out, field, item[field]!)
  return Object.keys(out).length === 0 ? undefined : out
}

/**
 * A `custom_tool_call` item kept as provider data as the call of a Chat Completions custom tool (its arguments the
 * input text), or `undefined` when it is not one the API would take: a `call_id` or `name` that is missing, empty or
 * not a string, or an `input` that is not a string.
 */
const customCallOf = (data: Block.JsonObject): Block.ToolCallBlock | undefined => {
  const id = data["call_id"]
  const name = data["name"]
  const input = data["input"]
  if (data["type"] !== "custom_tool_call" || typeof id !== "string" || id === "" || typeof name !== "string" || name === "" || typeof input !== "string") {
    return undefined
  }
  const itemId = data["id"]
  const extras = itemExtras(data, typeof itemId === "string" ? customCallKeysWithId : customCallKeys)
  return Block.toolCall(id, name, input, {
    ...(typeof itemId === "string" ? { itemId } : {}),
    providerOptions: { "openai-chat": { type: "custom" }, ...(extras === undefined ? {} : { [key]: extras }) }
  })
}

/**
 * A `custom_tool_call_output` item kept as provider data as a tool result, read as a `function_call_output` is, or
 * `undefined` when it cannot be read so (no usable `call_id`, an output of another shape).
 */
const customOutputOf = (data: Block.JsonObject, callNames: Map<string, string>): Block.ToolResultBlock | undefined => {
  const id = data["call_id"]
  if (data["type"] !== "custom_tool_call_output" || typeof id !== "string" || id === "") return undefined
  const ctx = A.makeCtx(key, undefined)
  const read = A.runResult(ctx, () => readOutput(ctx, data as Obj, "output", callNames))
  if (read._tag === "Failure" || read.success.warnings.length > 0) return undefined
  const result = read.success.value
  // an output with a part of no typed home is kept whole beside its parts: only this API takes it back so
  if (result.providerOptions?.[key]?.["output"] !== undefined) return undefined
  return result
}

/** The fields of a custom tool's definition the Chat Completions definition carries. */
const customToolKeys = new Set(["name", "description", "format"])

/**
 * A Responses custom tool's definition as a Chat Completions custom tool (its grammar carried), or `undefined` for
 * another tool or a custom tool whose format Chat Completions has no form of.
 */
const chatCustomTool = (tool: Request.ToolDefinition): Request.ToolDefinition | undefined => {
  const hosted = tool.providerDefined
  if (hosted?.provider !== key || hosted.type !== "custom") return undefined
  const config = hosted.config ?? {}
  const format = chatCustomFormat(config["format"])
  // a tool without its own name (the reader names it after its type) or with a description that is not text stays
  const description = Object.hasOwn(config, "description") ? config["description"] : tool.description
  if (format === undefined || config["name"] !== tool.name || (description !== undefined && typeof description !== "string")) return undefined
  const { providerDefined: _defined, name: _name, providerOptions, ...rest } = tool
  const extras = itemExtras(config, customToolKeys)
  return Request.tool(tool.name, {
    ...rest,
    ...defined({ description }),
    providerOptions: {
      ...providerOptions,
      "openai-chat": { type: "custom", ...(format.format === undefined ? {} : { custom: { format: format.format } }) },
      ...(extras === undefined ? {} : { [key]: extras })
    }
  })
}

/**
 * A request read from the Responses API with its custom tools (free-form text
 * in, such as the `apply_patch` tool of coding agents) as calls that the
 * other formats carry. The reader keeps `custom_tool_call` and
 * `custom_tool_call_output` items as provider data, which only the
 * Responses API takes back; this makes each call a tool call whose arguments
 * are its input text, marked as a call of a Chat Completions custom tool
 * (`providerOptions["openai-chat"].type: "custom"`), each output a tool
 * result in a tool message of its own, and each `custom` tool definition a
 * Chat Completions custom tool with its format (a Lark or regex grammar).
 * OpenAI Chat then writes them as custom tool calls and tools; Anthropic and
 * Gemini, whose tools take JSON objects, as calls with `{ input: text }`
 * of a tool taking that one string (saying the grammar is not carried). The
 * validation, repair and window rules then treat them as the calls and
 * results they are.
 *
 * A call and the outputs that answer it are converted together or not at
 * all: a call stays as it was, with its outputs, when one of them cannot be
 * read as a result (an output of an unknown shape), when another custom call
 * has its `call_id`, or when a `function_call_output` answers it. Items and
 * definitions that are not the API's valid form (a call without a
 * `call_id`, an output that answers no custom call before it, such as one of
 * a stored response's call, a tool without its own name or with a format
 * Chat Completions has no form of) stay as they were too, as do the
 * request's other messages and tools.
 * The fields of an item the blocks do not hold (`status`, `caller`) are kept
 * in their `providerOptions["openai-responses"]`. Messages are split where
 * an output stood among an assistant message's blocks, so the request may
 * have more messages than it had; the message's own fields go with its first
 * part, and an assistant message of nothing but outputs that has fields of
 * its own (which a tool message cannot hold) stays as it was, with the calls
 * it answers.
 *
 * @example
 * const { value: read } = yield* OpenAiResponses.fromRequest({
 *   model: "gpt-5",
 *   input: [
 *     { role: "user", content: "Fix the typo." },
 *     { type: "custom_tool_call", call_id: "call_1", name: "apply_patch", input: "*** Begin Patch ..." },
 *     { type: "custom_tool_call_output", call_id: "call_1", output: "Done" }
 *   ],
 *   tools: [{ type: "custom", name: "apply_patch", description: "Edit files" }]
 * })
 * const request = OpenAiResponses.customToolsAsCalls(read)
 * request.messages.map((m) => m.role) // ["user", "assistant", "tool"]
 * const { value: body } = yield* OpenAiChat.toRequest(request)
 * body.messages[1] // { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "custom", custom: { name: "apply_patch", input: "*** Begin Patch ..." } }] }
 *
 * @category conversions
 * @since 0.1.0
 */
export const customToolsAsCalls = (request: Request.Request): Request.Request => {
  const plan = customPairs(request.messages)
  let changed = false
  const messages: Array<Message.Message> = []
  for (const m of request.messages) {
    if (m.role !== "assistant" || !m.content.some((b) => plan.calls.has(b) || plan.outputs.has(b))) {
      messages.push(m)
      continue
    }
    changed = true
    const { content, role: _role, ...options } = m
    let blocks: Array<Block.AssistantBlock> = []
    let results: Array<Block.ToolResultBlock> = []
    let first = true
    const flush = (): void => {
      if (blocks.length > 0) {
        messages.push(Message.assistant(blocks, first ? options : undefined))
        first = false
      }
      if (results.length > 0) messages.push(Message.tool(results))
      blocks = []
      results = []
    }
    for (const block of content) {
      const result = plan.outputs.get(block)
      if (result !== undefined) {
        results.push(result)
        continue
      }
      if (results.length > 0) flush()
      blocks.push(plan.calls.get(block) ?? block)
    }
    flush()
  }
  const tools = request.tools?.map((t) => chatCustomTool(t) ?? t)
  const toolsChanged = tools !== undefined && tools.some((t, i) => t !== request.tools?.[i])
  if (!changed && !toolsChanged) return request
  return new Request.Request({ ...request, ...(changed ? { messages } : {}), ...(toolsChanged ? { tools } : {}) })
}

/**
 * Which custom tool items `customToolsAsCalls` converts, each to its block: a call and every output answering it
 * together, or none of them. A call stays as it was when its `call_id` is another custom call's too, when an output
 * answering it cannot be read as a result (an output of another shape, or one in an assistant message of nothing but
 * outputs with fields of its own, which a tool message cannot hold), or when a `function_call_output` answers it
 * (which the writer would turn into a custom output). An output answers the custom call of its `call_id` before it.
 */
const customPairs = (messages: ReadonlyArray<Message.Message>): {
  readonly calls: ReadonlyMap<Block.Block, Block.ToolCallBlock>
  readonly outputs: ReadonlyMap<Block.Block, Block.ToolResultBlock>
} => {
  const calls = new Map<Block.Block, Block.ToolCallBlock>()
  const callNames = new Map<string, string>()
  /** The calls of each id (more than one: all kept), and their outputs as read (`undefined` for one that cannot be converted). */
  const byId = new Map<string, Array<{ readonly block: Block.Block; readonly outputs: Array<readonly [Block.Block, Block.ToolResultBlock | undefined]> }>>()
  const kept = new Set<string>()
  for (const m of messages) {
    if (m.role === "tool") {
      for (const result of m.content) if (byId.has(result.toolCallId)) kept.add(result.toolCallId)
      continue
    }
    if (m.role !== "assistant") continue
    const { content, role: _role, ...options } = m
    const wholeOutputs = Object.keys(options).length > 0 &&
      content.every((b) => b._tag === "ProviderData" && b.provider === key && b.data["type"] === "custom_tool_call_output")
    for (const block of content) {
      if (block._tag !== "ProviderData" || block.provider !== key) continue
      const data = block.data
      const call = customCallOf(data)
      if (call !== undefined) {
        const entries = byId.get(call.id) ?? []
        entries.push({ block, outputs: [] })
        byId.set(call.id, entries)
        callNames.set(call.id, call.name)
        calls.set(block, call)
        continue
      }
      const id = data["call_id"]
      const entry = data["type"] === "custom_tool_call_output" && typeof id === "string" ? byId.get(id)?.at(-1) : undefined
      if (entry !== undefined) entry.outputs.push([block, wholeOutputs ? undefined : customOutputOf(data, callNames)])
    }
  }
  const outputs = new Map<Block.Block, Block.ToolResultBlock>()
  for (const [id, entries] of byId) {
    if (kept.has(id) || entries.length > 1 || entries.some((e) => e.outputs.some(([, result]) => result === undefined))) {
      for (const e of entries) calls.delete(e.block)
      continue
    }
    for (const e of entries) for (const [block, result] of e.outputs) outputs.set(block, result!)
  }
  return { calls, outputs }
}

/**
 * A Chat Completions custom tool as the Responses API's own custom tool (its format, a grammar's too, and its kept
 * Responses fields with it), or `undefined` for another tool or a custom tool whose format has no Responses form.
 */
const customToolItem = (tool: Request.ToolDefinition): Wire.KeptItem | undefined => {
  const item = responsesCustomTool(tool)
  return item === undefined ? undefined : merge(item as unknown as Wire.KeptItem, keptOf(tool, key, hints))
}

const writeTool = (ctx: A.Ctx, tool: Request.ToolDefinition): Wire.FunctionTool | Wire.KeptItem | undefined => {
  const defined = tool.providerDefined
  if (defined?.provider === key) return { type: defined.type, ...defined.config } as Wire.KeptItem
  // another provider's tool, Anthropic's kept the older way (its type among its options) included: not a function here
  const other = A.providerToolOf(tool)
  if (other !== undefined) {
    A.dropped(ctx, undefined, undefined, `the definition of ${messageText(tool.name)}, a tool ${messageText(other.provider)} defines`, "the Responses API hosts only its own tools")
    return undefined
  }
  const custom = customToolItem(tool)
  if (custom !== undefined) return custom
  if (tool.providerOptions?.["openai-chat"]?.["type"] === "custom") {
    A.converted(ctx, undefined, undefined, `${messageText(tool.name)}, a Chat Completions custom tool taking free-form text`, "as a function tool taking an object (its grammar, of a form the Responses API has none of, is not carried)")
  }
  A.checkToolName(ctx, tool.name)
  // a tool with strict unset is strict where it can be for the Responses API, and not for the other formats: one read
  // from them goes out with strict: false, so that it keeps its optional parameters
  const unset = tool.strict === undefined && hintOf(tool, key, "strictUnset") === true
  // (a Chat custom tool takes its text as { input }, as its calls are sent)
  const out: Wire.FunctionTool = { type: "function", name: tool.name, parameters: objectToolParameters(tool) ?? null, strict: tool.strict ?? (unset ? null : false) }
  if (tool.description !== undefined) out.description = tool.description
  return merge(out, keptOf(tool, key, hints))
}

/**
 * Whether a body continues what the server holds (a stored response, a conversation, a stored prompt): the tools
 * and the earlier input may be there, out of the writer's sight, so it does not judge what depends on them.
 */
const continuesStored = (body: { readonly [key: string]: unknown }): boolean =>
  ["previous_response_id", "conversation", "prompt"].some((k) => body[k] !== undefined && body[k] !== null)

/**
 * Leaves out a tool choice that makes the model call a tool when the body has no tools, reported: the API answers
 * `"required"` with a 400 ("Tool choice 'required' must be specified with 'tools' parameter") and a choice of one
 * tool with another ("Tool choice '...' not found in 'tools' parameter"). `"auto"` (the API's default, which it
 * echoes beside `tools: []`) and `"none"` stay. Judged on the body as written, a choice kept as sent included.
 */
const dropForcedChoiceWithoutTools = (ctx: A.Ctx, body: Wire.RequestBody): void => {
  const choice = body.tool_choice
  if (choice === undefined || (body.tools?.length ?? 0) > 0 || continuesStored(body)) return
  if (choice !== "required" && (typeof choice !== "object" || choice === null)) return
  A.dropped(ctx, undefined, undefined, `the tool choice ${preview(choice)}`, "the request has no tools, and the Responses API rejects a choice that makes the model call one without them")
  delete body.tool_choice
}

/** The fields of a written input item that hold text the model reads (a call's arguments and a call's output included). */
const textFields: ReadonlySet<string> = new Set(["content", "text", "refusal", "arguments", "input", "output"])


/**
 * Reports JSON mode (`text.format` of type `json_object`, as written or kept) in a body whose input items never say
 * "json": the API answers it with a 400, and `instructions` do not count. The format is the caller's setting,
 * written as it is (`RejectedSetting`). A body that continues what the server holds is not judged.
 */
const checkJsonMode = (ctx: A.Ctx, body: Wire.RequestBody): void => {
  const format = body.text?.format as Schema.Json | undefined
  if (!A.isObj(format) || format["type"] !== "json_object" || continuesStored(body) || A.saysJson(body.input, textFields)) return
  ctx.warnings.push(
    new RejectedSetting({
      path: "text.format",
      value: format,
      rule: "the Responses API takes JSON mode only when an input message says \"json\", instructions aside (\"Response input messages must contain the word 'json' in some form to use 'text.format' of type 'json_object'\")"
    })
  )
}

/**
 * Writes a `Request` as a Responses request body: a leading system message
 * that came from `instructions` goes back there, the messages become input
 * items, and the fields kept in `providerOptions["openai-responses"]` are
 * written back. Two settings the API rejects are reported: a tool choice
 * that makes the model call a tool (`"required"`, or one tool by name) in
 * a body with no tools is left out (`DroppedContent`; `"auto"` and
 * `"none"` stay), and JSON mode (`text.format` of type `json_object`) when
 * no input item says "json" (in any case; `instructions` do not count) is
 * written as it is (`RejectedSetting`, a failure with `strict: true`). A
 * body that continues a stored response, conversation or prompt is not
 * judged on either: the server may hold the tools and the earlier input.
 * A function tool whose parameters schema has a `type` other than
 * `"object"` is written as it is and reported (`RejectedSetting`): the API
 * rejects it.
 *
 * @example
 * const { value: body } = yield* OpenAiResponses.toRequest(Request.make([Message.user("Hi")], { model: "gpt-5" }))
 * // body: { model: "gpt-5", input: [{ role: "user", content: "Hi" }] }
 *
 * @category conversions
 * @since 0.1.0
 */
export const toRequest = (request: Request.Request, options?: ConversionOptions): Effect.Effect<Converted<Wire.RequestBody>, UnsupportedContent> => {
  const ctx = A.makeCtx(key, options)
  return A.runEncode(ctx, () => {
    // the request's kept fields by their wire names, without its hints
    const kept = keptOf(request, key, hints) ?? {}
    const input: Array<Wire.InputItem> = []
    const body: Wire.RequestBody = { input }
    if (request.model !== undefined) body.model = request.model
    const first = request.messages[0]
    let from = 0
    if (first !== undefined && first.role === "system" && hintOf(first, key, "instructions") === true) {
      body.instructions = first.content.map((b) => b.text).join("")
      from = 1
    }
    toolNames.set(ctx, responsesToolNames(request.tools))
    writeMessages(ctx, request.messages, from, input)
    if (input.length === 0 && hintOf(request, key, "noInput") === true) delete body.input
    A.droppedForeignSettings(ctx, request, key)
    // hosted tools kept the older way, in the request's options, go first
    const hosted = Array.isArray(kept["tools"]) ? (kept["tools"] as unknown as Array<Wire.KeptItem>) : []
    const names: Array<string> = []
    const targets: Array<ChoiceTarget> = []
    if (request.tools !== undefined || hosted.length > 0) {
      const tools: Array<Wire.FunctionTool | Wire.KeptItem> = [...hosted]
      for (const tool of request.tools ?? []) {
        const written = writeTool(ctx, tool)
        if (written === undefined) continue
        tools.push(written)
        names.push(tool.name)
        targets.push(choiceTargetOf(tool))
      }
      // an empty list is written when the request had one, not when every tool in it was left out
      if (tools.length > 0 || (request.tools?.length ?? 0) === 0) body.tools = tools
    }
    const settings = A.toolSettingsAfter(ctx, request, { names, any: (body.tools?.length ?? 0) > 0 })
    const choice = settings.toolChoice
    if (typeof choice === "string") {
      body.tool_choice = choice
    } else if (choice !== undefined) {
      // a hosted tool is named in its own form, never as a function (which the API would look for among the functions)
      const named = namedChoice(targets, choice.name)
      if (named !== undefined) body.tool_choice = named
      else {
        const type = messageText(targets.find((t) => t.name === choice.name)?.type ?? "", 80)
        A.dropped(ctx, undefined, undefined, `the tool choice ${messageText(choice.name)}`, `the Responses API cannot make the model call ${A.an(type)} ${type} tool by name`)
      }
    } else if (kept["tool_choice"] !== undefined && request.toolChoice === undefined) {
      body.tool_choice = kept["tool_choice"] as Wire.ToolChoiceParam
    }
    if (settings.parallelToolCalls !== undefined) body.parallel_tool_calls = settings.parallelToolCalls
    if (request.maxOutputTokens !== undefined) A.setKey(body, "max_output_tokens", request.maxOutputTokens)
    else if (kept["max_output_tokens"] !== undefined) A.setKey(body, "max_output_tokens", kept["max_output_tokens"])
    const text = A.isObj(kept["text"]) ? kept["text"] : undefined
    if (request.responseFormat !== undefined) body.text = merge({ format: openAiResponseFormat(request.responseFormat) }, text)
    else if (text !== undefined) body.text = { ...text }
    for (const field of Object.keys(kept)) {
      if (field === "tools" || field === "tool_choice" || field === "text" || bodyKeys.has(field)) continue
      A.setKey(body, field, kept[field])
    }
    dropForcedChoiceWithoutTools(ctx, body)
    checkJsonMode(ctx, body)
    body.tools?.forEach((tool, i) => {
      if (tool.type === "function") A.checkParametersRoot(ctx, (tool as { readonly parameters?: unknown }).parameters, `tools[${i}].parameters`, "the Responses API")
    })
    return body
  })
}

// ---------------------------------------------------------------------------
// public: responses
// ---------------------------------------------------------------------------

const finishOf = (status: string | undefined, reason: string | undefined, hasCalls: boolean, refused: boolean): FinishReason => {
  switch (status) {
    case undefined:
    case "completed":
      return hasCalls ? "tool-calls" : refused ? "refusal" : "stop"
    case "incomplete":
      return reason === "max_output_tokens" ? "length" : reason === "content_filter" ? "content-filter" : "other"
    case "in_progress":
    case "queued":
      return "unknown"
    default:
      return "other"
  }
}

/**
 * Output items kept as provider data that ask the client to act, as a function call does (a custom tool, the computer,
 * a shell, a patch, an MCP approval): a response that ends with one stopped for it (`"tool-calls"`).
 */
const CLIENT_CALLS = new Set(["custom_tool_call", "computer_call", "local_shell_call", "shell_call", "apply_patch_call", "mcp_approval_request"])
const isClientCall = (data: Block.JsonObject): boolean => typeof data["type"] === "string" && CLIENT_CALLS.has(data["type"])

/** The response fields `fromResponse` reads; the others are kept as `providerData`. */
const responseKeysRead = new Set(["id", "model", "output", "usage", "status", "incomplete_details"])

const decodeResponse = (ctx: A.Ctx, raw: Obj): DecodedResponse => {
  const output = raw["output"] === undefined || raw["output"] === null ? [] : A.arr(ctx, raw["output"], "output")
  const blocks: Array<Block.AssistantBlock> = []
  const callNames = new Map<string, string>()
  for (let i = 0; i < output.length; i++) {
    const at = `output[${i}]`
    const item = A.obj(ctx, output[i], at)
    if (isMessageItem(item) && typeof item["id"] !== "string") readEasyAssistant(ctx, item, at, blocks)
    else readAssistantItem(ctx, item, at, 0, blocks, callNames)
  }
  const rawUsage = A.optObj(ctx, raw, "usage", "")
  const inputDetails = rawUsage === undefined ? undefined : A.optObj(ctx, rawUsage, "input_tokens_details", "usage")
  const outputDetails = rawUsage === undefined ? undefined : A.optObj(ctx, rawUsage, "output_tokens_details", "usage")
  const usage = rawUsage === undefined ? undefined : A.usage({
    inputTokens: A.count(ctx, rawUsage, "input_tokens", "usage"),
    outputTokens: A.count(ctx, rawUsage, "output_tokens", "usage"),
    cachedInputTokens: A.count(ctx, inputDetails, "cached_tokens", "usage.input_tokens_details"),
    reasoningTokens: A.count(ctx, outputDetails, "reasoning_tokens", "usage.output_tokens_details"),
    totalTokens: A.count(ctx, rawUsage, "total_tokens", "usage")
  })
  const status = A.optStr(ctx, raw, "status", "")
  const details = A.optObj(ctx, raw, "incomplete_details", "")
  const reason = details === undefined ? undefined : A.optStr(ctx, details, "reason", "incomplete_details")
  const hasCalls = blocks.some((b) => (b._tag === "ToolCall" && b.providerExecuted !== true) || (b._tag === "ProviderData" && b.provider === key && isClientCall(b.data)))
  const refused = blocks.some((b) => b._tag === "Refusal")
  const providerData = A.extrasOf(raw, responseKeysRead) ?? {}
  if (rawUsage !== undefined) providerData["usage"] = rawUsage
  return new DecodedResponse({
    id: A.optStr(ctx, raw, "id", "") ?? "",
    model: A.optStr(ctx, raw, "model", "") ?? "",
    message: Message.assistant(blocks, defined({ usage })),
    finishReason: finishOf(status, reason, hasCalls, refused),
    providerFinishReason: reason ?? status ?? null,
    ...defined({ usage }),
    ...(Object.keys(providerData).length === 0 ? {} : { providerData })
  })
}

/**
 * Reads a Responses API response: its output items as one assistant
 * message (with `usage`: input tokens with the cached part, output tokens
 * with the reasoning part), why it stopped, its id and model, and its other
 * fields (the echoed settings, timestamps, the raw usage) as
 * `providerData`.
 *
 * @example
 * const { value } = yield* OpenAiResponses.fromResponse({
 *   id: "resp_1",
 *   object: "response",
 *   created_at: 1700000000,
 *   model: "gpt-5",
 *   status: "completed",
 *   output: [{
 *     type: "message", id: "msg_1", role: "assistant", status: "completed",
 *     content: [{ type: "output_text", text: "12°C in Oslo.", annotations: [] }]
 *   }],
 *   usage: { input_tokens: 12, output_tokens: 6, total_tokens: 18 }
 * })
 * Message.textOf(value.message) // "12°C in Oslo."
 * value.finishReason // "stop"
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromResponse = (
  response: Wire.Response | unknown,
  options?: ConversionOptions
): Effect.Effect<Converted<DecodedResponse>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(key, options)
  return A.run(ctx, () => {
    const body = A.obj(ctx, A.jsonOf(ctx, response), "")
    // a whole response has its output list (a stream cut short may not: that is read by decodeStreamed)
    A.arr(ctx, body["output"], "output")
    return decodeResponse(ctx, body)
  })
}

/**
 * Why reading a stream can fail: the provider's error, a protocol
 * violation, a stream cut short (with what arrived), or the response read.
 *
 * @since 0.1.0
 */
export type StreamError = IncompleteResponse | ProviderStreamError | StreamProtocolError | MalformedPayload | InvalidToolArguments | UnsupportedContent

const decodeStreamed = <E, R>(
  accumulated: Effect.Effect<Wire.Response, E | StreamErrors.StreamError, R>,
  options: ConversionOptions | undefined
): Effect.Effect<Converted<DecodedResponse>, Exclude<E, StreamErrors.IncompleteStream> | StreamError, R> =>
  A.decodeStreamed(key, accumulated, (response) => fromResponse(response, options), (partial) => {
    const ctx = A.makeCtx(key, { ...options, strict: false, toolArguments: "lenient" })
    return A.runResult(ctx, () => decodeResponse(ctx, A.obj(ctx, A.jsonOf(ctx, partial), "")))
  })

/**
 * Reads a streamed response: the events are accumulated
 * (`OpenAiResponsesStream`) into the response they stand for, which is read
 * as `fromResponse` reads one. A stream that ends early fails with
 * `IncompleteResponse`, carrying the response read from what did arrive.
 *
 * With `{ keepPartial: true }`, a failure of the stream passed in (the
 * network dropped) is an `IncompleteResponse` with the message so far and
 * that failure as `transportError`; a provider error or protocol violation
 * that came first is still the error, with that failure as its
 * `transportError` (`StreamAccumulator.StreamOptions`).
 *
 * @example
 * const base = { id: "resp_1", object: "response", created_at: 1700000000, model: "gpt-5" } as const
 * const message = { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Hello!", annotations: [] }] } as const
 * const events: ReadonlyArray<OpenAiResponsesWire.StreamEvent> = [
 *   { type: "response.created", response: { ...base, status: "in_progress", output: [] } },
 *   { type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
 *   { type: "response.content_part.added", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
 *   { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "Hello!" },
 *   { type: "response.output_item.done", output_index: 0, item: message },
 *   { type: "response.completed", response: { ...base, status: "completed", output: [message], usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } } }
 * ]
 * const { value } = yield* OpenAiResponses.fromStream(Stream.fromIterable(events))
 * Message.textOf(value.message) // "Hello!"
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromStream: {
  <E, R>(events: Stream.Stream<Wire.StreamEvent, E, R>, options: ConversionOptions & KeepPartial): Effect.Effect<Converted<DecodedResponse>, StreamError, R>
  <E, R>(events: Stream.Stream<Wire.StreamEvent, E, R>, options?: ConversionOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R>
} = <E, R>(events: Stream.Stream<Wire.StreamEvent, E, R>, options?: ConversionOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R> =>
  decodeStreamed(Accumulator.fromStream(events, options), options)

/**
 * `fromStream` over an Effect `Stream` of raw SSE text or bytes (a response
 * body).
 *
 * With `{ keepPartial: true }`, a failure of the stream passed in (the
 * network dropped) is an `IncompleteResponse` with the message so far and
 * that failure as `transportError`; a provider error or protocol violation
 * that came first is still the error, with that failure as its
 * `transportError` (`StreamAccumulator.StreamOptions`).
 *
 * @example
 * const response = yield* Effect.promise(() =>
 *   fetch("https://api.openai.com/v1/responses", {
 *     method: "POST",
 *     headers: { "content-type": "application/json", authorization: `Bearer ${process.env["OPENAI_API_KEY"]}` },
 *     body: JSON.stringify({ model: "gpt-5", input: "hi", stream: true })
 *   })
 * )
 * const { value } = yield* OpenAiResponses.fromSseStream(Stream.fromReadableStream({ evaluate: () => response.body!, onError: (cause) => cause }))
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromSseStream: {
  <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options: ConversionOptions & KeepPartial): Effect.Effect<Converted<DecodedResponse>, StreamError, R>
  <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options?: ConversionOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R>
} = <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options?: ConversionOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R> =>
  decodeStreamed(Accumulator.fromSseStream(body, options), options)

/**
 * `fromStream` over an iterable of events (an array, an SDK stream drained
 * into one).
 *
 * @example
 * const base = { id: "resp_1", object: "response", created_at: 1700000000, model: "gpt-5" } as const
 * const message = { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Hello!", annotations: [] }] } as const
 * const events: ReadonlyArray<OpenAiResponsesWire.StreamEvent> = [
 *   { type: "response.created", response: { ...base, status: "in_progress", output: [] } },
 *   { type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
 *   { type: "response.content_part.added", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
 *   { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "Hello!" },
 *   { type: "response.output_item.done", output_index: 0, item: message },
 *   { type: "response.completed", response: { ...base, status: "completed", output: [message], usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } } }
 * ]
 * const { value } = yield* OpenAiResponses.fromEvents(events)
 * value.usage?.outputTokens // 3
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromEvents = (events: Iterable<Wire.StreamEvent>, options?: ConversionOptions): Effect.Effect<Converted<DecodedResponse>, StreamError> =>
  decodeStreamed(Accumulator.fromEvents(events), options)

/**
 * `fromStream` over raw SSE text (a whole response body, or its pieces).
 *
 * @example
 * const body = [
 *   'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_1","object":"response","created_at":1700000000,"model":"gpt-5","status":"in_progress","output":[]}}',
 *   'event: response.output_item.added\ndata: {"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}',
 *   'event: response.content_part.added\ndata: {"type":"response.content_part.added","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}',
 *   'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"Hello!"}',
 *   'event: response.output_item.done\ndata: {"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Hello!","annotations":[]}]}}',
 *   'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","object":"response","created_at":1700000000,"model":"gpt-5","status":"completed","output":[{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Hello!","annotations":[]}]}]}}'
 * ].join("\n\n") + "\n\n"
 * const { value } = yield* OpenAiResponses.fromSse(body)
 * Message.textOf(value.message) // "Hello!"
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromSse = (input: string | Iterable<string | Uint8Array>, options?: ConversionOptions): Effect.Effect<Converted<DecodedResponse>, StreamError> =>
  decodeStreamed(Accumulator.fromSse(input), options)
