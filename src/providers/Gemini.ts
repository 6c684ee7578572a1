/**
 * Google Gemini (`generateContent`), both ways: a conversation to and from
 * `{ systemInstruction, contents }`, a `Request` to and from a request body,
 * and a response (or its stream) to an assistant message.
 *
 * **How the model maps**
 *
 * | model | Gemini |
 * |---|---|
 * | leading system messages | `systemInstruction` text parts |
 * | user message | `user` content: `text`, `inlineData`, `fileData` parts |
 * | assistant message | `model` content |
 * | text / thinking | `text` part / `text` part with `thought: true` |
 * | `thoughtSignature` | the part's `thoughtSignature`, beside the text or call it signs |
 * | tool call | `functionCall` part (`id`, `name`, `args`) |
 * | tool message | `user` content of `functionResponse` parts |
 * | tool result text | `response: { output }` (`{ error }` when `isError`) |
 * | tool result JSON object | `response` itself |
 * | tool result files | `functionResponse.parts` (`inlineData`, `fileData`) |
 * | provider-executed code | `executableCode` + `codeExecutionResult` parts |
 * | provider data | any other part, as sent |
 *
 * One content is read into one message (a user content that mixes function
 * responses and other parts into a tool message and a user message, in
 * order), and each message is written as one content, so contents in a
 * row of the same role (which Gemini merges itself) stay as they were.
 *
 * Gemini 2 sends function calls without `id`. Such a call gets an id made
 * up for the model (marked `providerOptions.gemini.syntheticId`), its
 * response is matched to it by name, in order, and neither id is written
 * back. Ids made up for a response are unique within the process.
 *
 * **Fields the model does not name** are kept, never dropped: a part's
 * (and its `functionCall`'s, `functionResponse`'s...) under
 * `providerOptions.gemini.extra` of the block, a content's under the
 * message's, a function declaration's under the tool definition's, and a
 * request body's (`generationConfig`, `safetySettings`, hosted tools, tool
 * configurations the model has no word for) directly under
 * `Request.providerOptions.gemini`. Parts of unknown kinds become
 * `ProviderDataBlock`s. Non-text parts of a system instruction have no
 * place in a system message and are reported (`UnknownProviderField`).
 *
 * **What the format cannot carry** is reported as a warning (or, with
 * `strict`, fails with `UnsupportedContent`): thinking that carries another
 * provider's replay data (an Anthropic signature, an OpenAI reasoning item),
 * redacted thinking, refusals (sent as text), files by provider file id,
 * provider-executed calls and provider data of other providers, tool
 * arguments that are not an object, system messages after the start (sent
 * as user text), document titles and context, a participant name, the
 * `strict` flag of tools and the parallel-tool-calls setting.
 *
 * **Normal forms**: a content without `role` comes back as `user`; a
 * system instruction given as plain text comes back as a content; a user
 * content mixing function responses with other parts comes back as two
 * contents; hosted tools come back after the function declarations, in one
 * tool entry.
 *
 * @since 0.1.0
 */
import type { Effect, Schema, Stream } from "effect"
import * as Block from "../Block.js"
import * as Message from "../Message.js"
import * as Request from "../Request.js"
import {
  ConvertedContent,
  type ConversionOptions,
  type Converted,
  type DecodedResponse,
  DroppedContent,
  type FinishReason,
  type IncompleteResponse,
  type InvalidToolArguments,
  type MalformedPayload,
  UnknownProviderField,
  type UnsupportedContent
} from "./Conversion.js"
import * as Accumulator from "./GeminiStream.js"
import type * as Wire from "./GeminiWire.js"
import { type Ctx, defined, extraOf, isObj, type JsonObj, merge, type Obj, optionsFor, own, run, setKey } from "./internal/adapter.js"
import { decodeStream } from "./internal/streamDecode.js"
import type { ProviderStreamError, StreamProtocolError } from "./StreamError.js"
import * as ToolArguments from "./ToolArguments.js"

/**
 * The key of this format in `providerOptions`.
 *
 * @since 0.1.0
 */
export const providerKey = "gemini"

const key = providerKey

const contentKeys = new Set(["role", "parts"])
const partsKey = new Set(["parts"])
const thoughtKeys = new Set(["text", "thought", "thoughtSignature"])
const textKeys = new Set(["text", "thoughtSignature"])
const callPartKeys = new Set(["functionCall", "thoughtSignature"])
const callKeys = new Set(["id", "name", "args"])
const responsePartKeys = new Set(["functionResponse"])
const responseKeys = new Set(["id", "name", "response", "parts"])
const inlineKeys = new Set(["inlineData"])
const blobKeys = new Set(["mimeType", "data", "displayName"])
const fileKeys = new Set(["fileData"])
const fileDataKeys = new Set(["mimeType", "fileUri", "displayName"])
const codeKeys = new Set(["executableCode"])
const codeResultKeys = new Set(["codeExecutionResult"])
const declarationKeys = new Set(["name", "description", "parametersJsonSchema", "parameters_json_schema", "parameters"])
const bodyKeys = new Set(["contents", "systemInstruction", "tools", "toolConfig", "generationConfig"])

/** Made-up call ids for responses without ids: unique within the process. */
let responseCalls = 0

// ---------------------------------------------------------------------------
// reading
// ---------------------------------------------------------------------------

/** Part extras, with the extras of one nested object (`functionCall`...) under its own key. */
const partExtras = (ctx: Ctx, part: Obj, known: ReadonlySet<string>, nestedKey: string, nestedKnown: ReadonlySet<string>, at: string): JsonObj | undefined => {
  const extra = ctx.extras(part, known, at)
  const nested = part[nestedKey]
  const inner = isObj(nested) ? ctx.extras(nested, nestedKnown, `${at}.${nestedKey}`) : undefined
  if (inner === undefined) return extra
  return { ...extra, [nestedKey]: inner }
}

const readFile = (ctx: Ctx, part: Obj, at: string): Block.FileBlock | undefined => {
  if (isObj(part["inlineData"])) {
    const blob = part["inlineData"]
    const mimeType = ctx.optStr(blob, "mimeType", `${at}.inlineData`) ?? "application/octet-stream"
    const displayName = ctx.optStr(blob, "displayName", `${at}.inlineData`)
    return Block.file(Block.base64(ctx.optStr(blob, "data", `${at}.inlineData`) ?? ""), mimeType, {
      ...defined({ filename: displayName }),
      ...optionsFor(key, { extra: partExtras(ctx, part, inlineKeys, "inlineData", blobKeys, at) })
    })
  }
  if (isObj(part["fileData"])) {
    const data = part["fileData"]
    const mimeType = ctx.optStr(data, "mimeType", `${at}.fileData`) ?? "application/octet-stream"
    const displayName = ctx.optStr(data, "displayName", `${at}.fileData`)
    return Block.file(Block.url(ctx.optStr(data, "fileUri", `${at}.fileData`) ?? ""), mimeType, {
      ...defined({ filename: displayName }),
      ...optionsFor(key, { extra: partExtras(ctx, part, fileKeys, "fileData", fileDataKeys, at) })
    })
  }
  return undefined
}

/** Pending calls by name, for responses that carry no id. */
class Pending {
  private readonly byName = new Map<string, { ids: Array<string>; next: number }>()
  add(name: string, id: string): void {
    const entry = this.byName.get(name)
    if (entry === undefined) this.byName.set(name, { ids: [id], next: 0 })
    else entry.ids.push(id)
  }
  take(name: string): string | undefined {
    const entry = this.byName.get(name)
    if (entry === undefined || entry.next >= entry.ids.length) return undefined
    return entry.ids[entry.next++]
  }
}

/** A text part: thinking when `thought` is true, else text (any other `thought` value is kept). */
const readText = (ctx: Ctx, part: Obj, at: string): Block.TextBlock | Block.ThinkingBlock => {
  const thought = part["thought"] === true
  const options = {
    ...defined({ thoughtSignature: ctx.optStr(part, "thoughtSignature", at) }),
    ...optionsFor(key, { extra: ctx.extras(part, thought ? thoughtKeys : textKeys, at) })
  }
  const text = part["text"] as string
  return thought ? Block.thinking(text, undefined, options) : Block.text(text, options)
}

const readModelPart = (ctx: Ctx, part: Obj, at: string, makeId: (name: string) => string, pending: Pending, blocks: Array<Block.AssistantBlock>): void => {
  const signature = ctx.optStr(part, "thoughtSignature", at)
  if (typeof part["text"] === "string") {
    blocks.push(readText(ctx, part, at))
    return
  }
  if (isObj(part["functionCall"])) {
    const call = part["functionCall"]
    const name = ctx.str(call, "name", `${at}.functionCall`)
    const given = ctx.optStr(call, "id", `${at}.functionCall`)
    const id = given ?? makeId(name)
    pending.add(name, id)
    const args = call["args"] === undefined || call["args"] === null ? {} : ctx.json(ctx.obj(call["args"], `${at}.functionCall.args`), `${at}.functionCall.args`)
    blocks.push(Block.toolCall(id, name, args, {
      ...defined({ thoughtSignature: signature }),
      ...optionsFor(key, {
        syntheticId: given === undefined ? true : undefined,
        noArgs: call["args"] === undefined ? true : undefined,
        extra: partExtras(ctx, part, callPartKeys, "functionCall", callKeys, at)
      })
    }))
    return
  }
  if (isObj(part["executableCode"])) {
    const id = makeId("code_execution")
    blocks.push(Block.toolCall(id, "code_execution", ctx.json(part["executableCode"], `${at}.executableCode`), {
      providerExecuted: true,
      ...optionsFor(key, { kind: "executableCode", extra: ctx.extras(part, codeKeys, at) })
    }))
    pending.add("code_execution", id)
    return
  }
  if (isObj(part["codeExecutionResult"])) {
    const id = pending.take("code_execution") ?? makeId("code_execution")
    blocks.push(Block.toolResult(id, "code_execution", [Block.json(ctx.json(part["codeExecutionResult"], `${at}.codeExecutionResult`))], false, {
      providerExecuted: true,
      ...optionsFor(key, { kind: "codeExecutionResult", extra: ctx.extras(part, codeResultKeys, at) })
    }))
    return
  }
  const file = readFile(ctx, part, at)
  blocks.push(file ?? Block.providerData(key, ctx.json(part, at) as Block.JsonObject))
}

const readResponse = (ctx: Ctx, part: Obj, at: string, makeId: (name: string) => string, pending: Pending): Block.ToolResultBlock => {
  const fr = part["functionResponse"] as Obj
  const frAt = `${at}.functionResponse`
  const name = ctx.optStr(fr, "name", frAt) ?? ""
  const given = ctx.optStr(fr, "id", frAt)
  const id = given ?? pending.take(name) ?? makeId(name)
  const response = fr["response"] === undefined || fr["response"] === null ? undefined : ctx.obj(fr["response"], `${frAt}.response`)
  const files: Array<Block.ToolResultPart> = []
  const rawParts = fr["parts"]
  let extraParts = false
  if (rawParts !== undefined && rawParts !== null) {
    const list = ctx.arr(rawParts, `${frAt}.parts`)
    for (let p = 0; p < list.length; p++) {
      const file = readFile(ctx, ctx.obj(list[p], `${frAt}.parts[${p}]`), `${frAt}.parts[${p}]`)
      if (file === undefined) extraParts = true
      else files.push(file)
    }
  }
  let content: Block.ToolResultContent
  let isError = false
  const keys = response === undefined ? [] : Object.keys(response)
  const only = keys.length === 1 ? keys[0] : undefined
  if (response !== undefined && (only === "output" || only === "error") && typeof response[only] === "string") {
    isError = only === "error"
    const text = response[only] as string
    content = files.length === 0 ? text : [Block.text(text), ...files]
  } else {
    content = [...(response === undefined ? [] : [Block.json(ctx.json(response, `${frAt}.response`))]), ...files]
  }
  let extra = partExtras(ctx, part, responsePartKeys, "functionResponse", responseKeys, at)
  // parts the model has no home for: the whole list is kept as sent
  if (extraParts) extra = { ...extra, functionResponse: { ...(extra?.["functionResponse"] as JsonObj | undefined), parts: ctx.json(rawParts, `${frAt}.parts`) } }
  return Block.toolResult(id, name, content, isError, optionsFor(key, {
    syntheticId: given === undefined ? true : undefined,
    noResponse: response === undefined ? true : undefined,
    extra
  }))
}

const readContents = (ctx: Ctx, contents: ReadonlyArray<unknown>, path: string, messages: Array<Message.Message>, makeId: (name: string, c: number, p: number) => string): void => {
  const pending = new Pending()
  for (let c = 0; c < contents.length; c++) {
    const at = `${path}[${c}]`
    const content = ctx.obj(contents[c], at)
    const role = content["role"] === undefined ? undefined : ctx.str(content, "role", at)
    const parts = content["parts"] === undefined || content["parts"] === null ? [] : ctx.arr(content["parts"], `${at}.parts`)
    const extra = ctx.extras(content, contentKeys, at)
    // a role other than user and model (the legacy "function") is kept and written back
    const contentExtra = role !== undefined && role !== "user" && role !== "model" ? { ...extra, role } : extra
    let first = true
    const options = (): { readonly providerOptions?: Block.ProviderOptions } => {
      const o = first ? optionsFor(key, { extra: contentExtra }) : {}
      first = false
      return o
    }
    let partIndex = 0
    const ids = (name: string): string => makeId(name, c, partIndex)
    if (role === "model") {
      const blocks: Array<Block.AssistantBlock> = []
      for (; partIndex < parts.length; partIndex++) {
        readModelPart(ctx, ctx.obj(parts[partIndex], `${at}.parts[${partIndex}]`), `${at}.parts[${partIndex}]`, ids, pending, blocks)
      }
      messages.push(Message.assistant(blocks, options()))
      continue
    }
    let user: Array<Block.UserBlock> | undefined
    let tool: Array<Block.ToolResultBlock> | undefined
    for (; partIndex < parts.length; partIndex++) {
      const partAt = `${at}.parts[${partIndex}]`
      const part = ctx.obj(parts[partIndex], partAt)
      if (isObj(part["functionResponse"])) {
        if (user !== undefined) {
          messages.push(Message.user(user, options()))
          user = undefined
        }
        tool ??= []
        tool.push(readResponse(ctx, part, partAt, ids, pending))
        continue
      }
      if (tool !== undefined) {
        messages.push(Message.tool(tool, options()))
        tool = undefined
      }
      user ??= []
      if (typeof part["text"] === "string" && part["thought"] !== true) {
        user.push(readText(ctx, part, partAt) as Block.TextBlock)
      } else {
        user.push(readFile(ctx, part, partAt) ?? Block.providerData(key, ctx.json(part, partAt) as Block.JsonObject))
      }
    }
    if (tool !== undefined) messages.push(Message.tool(tool, options()))
    if (user !== undefined) messages.push(Message.user(user, options()))
    if (parts.length === 0) messages.push(Message.user([], options()))
  }
}

const readSystem = (ctx: Ctx, raw: unknown): Message.SystemMessage | undefined => {
  if (raw === undefined || raw === null) return undefined
  if (typeof raw === "string") return Message.system(raw)
  const content = ctx.obj(raw, "systemInstruction")
  const parts = content["parts"] === undefined ? [] : ctx.arr(content["parts"], "systemInstruction.parts")
  const blocks: Array<Block.TextBlock> = []
  for (let p = 0; p < parts.length; p++) {
    const at = `systemInstruction.parts[${p}]`
    const part = ctx.obj(parts[p], at)
    if (typeof part["text"] !== "string") {
      ctx.warn(new UnknownProviderField({ path: at, kept: false }))
      continue
    }
    blocks.push(Block.text(part["text"], {
      ...defined({ thoughtSignature: ctx.optStr(part, "thoughtSignature", at) }),
      ...optionsFor(key, { extra: ctx.extras(part, textKeys, at) })
    }))
  }
  // the system instruction's role (often "user") is not the model's: it is kept as sent
  return Message.system(blocks, optionsFor(key, { extra: ctx.extras(content, partsKey, "systemInstruction") }))
}

const readMessages = (ctx: Ctx, input: Wire.MessagesLike | Wire.RequestBodyLike): Array<Message.Message> => {
  const raw = ctx.obj(input, "")
  const messages: Array<Message.Message> = []
  const system = readSystem(ctx, raw["systemInstruction"])
  if (system !== undefined) messages.push(system)
  const contents = raw["contents"] === undefined ? [] : ctx.arr(raw["contents"], "contents")
  readContents(ctx, contents, "contents", messages, (name, c, p) => `${name}_${c}_${p}`)
  return messages
}

// ---------------------------------------------------------------------------
// writing
// ---------------------------------------------------------------------------

const writeFile = (ctx: Ctx, block: Block.FileBlock, index: number, blockIndex: number): Wire.PartParam | undefined => {
  const extra = extraOf(block.providerOptions, key)
  if (block.title !== undefined || block.context !== undefined) {
    ctx.warn(new DroppedContent({ index, blockIndex, what: "a document title or context", reason: "Gemini file parts have none" }))
  }
  const named = block.filename === undefined ? {} : { displayName: block.filename }
  const source = block.source
  switch (source._tag) {
    case "Base64":
      return merge<Wire.PartParam>({ inlineData: { mimeType: block.mediaType, data: source.data, ...named } }, extra)
    case "Url":
      return merge<Wire.PartParam>({ fileData: { mimeType: block.mediaType, fileUri: source.url, ...named } }, extra)
    case "Text":
      ctx.warn(new ConvertedContent({ index, blockIndex, what: "a text document", how: "as base64 text/plain inline data" }))
      return merge<Wire.PartParam>({ inlineData: { mimeType: "text/plain", data: Buffer.from(source.text, "utf8").toString("base64"), ...named } }, extra)
    case "FileId":
      ctx.warn(new DroppedContent({ index, blockIndex, what: `the file ${JSON.stringify(source.fileId)}`, reason: "Gemini takes inline data or file URIs, not another provider's file ids" }))
      return undefined
    default:
      return Block.absurd(source)
  }
}

const textPart = (block: Block.TextBlock): Wire.PartParam => {
  const part: Wire.PartParam = { text: block.text }
  if (block.thoughtSignature !== undefined) part.thoughtSignature = block.thoughtSignature
  return merge(part, extraOf(block.providerOptions, key))
}

const writeResultContent = (ctx: Ctx, result: Block.ToolResultBlock, index: number, blockIndex: number): Pick<NonNullable<Wire.PartParam["functionResponse"]>, "response" | "parts"> => {
  const noResponse = own(result.providerOptions, key)?.["noResponse"] === true
  const field = result.isError ? "error" : "output"
  const content = result.content
  if (typeof content === "string") return { response: { [field]: content } }
  const files: Array<{ inlineData?: Wire.BlobParam; fileData?: Wire.FileDataParam }> = []
  const rest: Array<Block.ToolResultPart> = []
  for (const part of content) {
    if (part._tag !== "File") {
      rest.push(part)
      continue
    }
    const written = writeFile(ctx, part, index, blockIndex)
    if (written !== undefined) files.push(written as { inlineData?: Wire.BlobParam; fileData?: Wire.FileDataParam })
  }
  const out: Pick<NonNullable<Wire.PartParam["functionResponse"]>, "response" | "parts"> = files.length > 0 ? { parts: files } : {}
  const only = rest[0]
  if (rest.length === 0) return noResponse ? out : { ...out, response: {} }
  if (rest.length === 1 && only !== undefined && only._tag === "Json" && isObj(only.value)) {
    if (result.isError) ctx.warn(new DroppedContent({ index, blockIndex, what: "the error flag of a JSON tool result", reason: "a structured functionResponse has no error flag" }))
    return { ...out, response: only.value as { [key: string]: unknown } }
  }
  if (rest.length === 1 && only !== undefined && only._tag === "Text") return { ...out, response: { [field]: only.text } }
  ctx.warn(new ConvertedContent({ index, blockIndex, what: "a tool result of several parts", how: `as one text in response.${field}` }))
  return { ...out, response: { [field]: Block.resultContentText(rest) } }
}

const writeUserParts = (ctx: Ctx, m: Message.UserMessage | Message.SystemMessage, index: number): Array<Wire.PartParam> => {
  const parts: Array<Wire.PartParam> = []
  for (let b = 0; b < m.content.length; b++) {
    const block = m.content[b]!
    switch (block._tag) {
      case "Text":
        parts.push(textPart(block))
        break
      case "File": {
        const part = writeFile(ctx, block, index, b)
        if (part !== undefined) parts.push(part)
        break
      }
      case "ProviderData":
        if (block.provider === key) parts.push(block.data as Wire.PartParam)
        else ctx.warn(new DroppedContent({ index, blockIndex: b, what: `${block.provider} provider data`, reason: "it belongs to another provider" }))
        break
      default:
        return Block.absurd(block)
    }
  }
  return parts
}

const writeModelParts = (ctx: Ctx, m: Message.AssistantMessage, index: number): Array<Wire.PartParam> => {
  const parts: Array<Wire.PartParam> = []
  for (let b = 0; b < m.content.length; b++) {
    const block = m.content[b]!
    const options = block._tag === "ProviderData" ? undefined : block.providerOptions
    const record = own(options, key)
    const extra = extraOf(options, key)
    switch (block._tag) {
      case "Text":
        parts.push(textPart(block))
        break
      case "Thinking":
        if (block.signature !== undefined || block.itemId !== undefined || block.encryptedContent !== undefined) {
          ctx.warn(new DroppedContent({ index, blockIndex: b, what: "thinking with another provider's replay data", reason: "Gemini cannot verify or replay it" }))
          break
        }
        parts.push(merge<Wire.PartParam>({ text: block.thinking, thought: true, ...defined({ thoughtSignature: block.thoughtSignature }) }, extra))
        break
      case "RedactedThinking":
        ctx.warn(new DroppedContent({ index, blockIndex: b, what: "redacted thinking", reason: "it is Anthropic's and cannot be replayed to Gemini" }))
        break
      case "Refusal":
        ctx.warn(new ConvertedContent({ index, blockIndex: b, what: "a refusal", how: "as text" }))
        parts.push({ text: block.refusal })
        break
      case "File": {
        const part = writeFile(ctx, block, index, b)
        if (part !== undefined) parts.push(part)
        break
      }
      case "ToolCall": {
        if (block.providerExecuted === true) {
          if (record?.["kind"] === "executableCode") parts.push(merge({ executableCode: block.args } as Wire.PartParam, extra))
          else ctx.warn(new DroppedContent({ index, blockIndex: b, what: `the provider-executed call ${JSON.stringify(block.name)}`, reason: "another provider ran it" }))
          break
        }
        const args = ToolArguments.toObject(block)
        if (args.replaced !== undefined) {
          ctx.warn(new ConvertedContent({ index, blockIndex: b, what: `the arguments of ${JSON.stringify(block.name)}`, how: `as {} (${args.replaced})` }))
        }
        const call: NonNullable<Wire.PartParam["functionCall"]> = { name: block.name }
        if (record?.["noArgs"] !== true || Object.keys(args.value).length > 0) call.args = args.value as { [key: string]: unknown }
        if (record?.["syntheticId"] !== true) call.id = block.id
        const part: Wire.PartParam = { functionCall: call }
        if (block.thoughtSignature !== undefined) part.thoughtSignature = block.thoughtSignature
        parts.push(merge(part, extra))
        break
      }
      case "ToolResult":
        if (record?.["kind"] === "codeExecutionResult" && Array.isArray(block.content) && block.content[0]?._tag === "Json") {
          parts.push(merge({ codeExecutionResult: block.content[0].value } as Wire.PartParam, extra))
        } else {
          ctx.warn(new DroppedContent({ index, blockIndex: b, what: `the result of the provider-executed call ${JSON.stringify(block.toolName)}`, reason: "another provider ran it" }))
        }
        break
      case "ProviderData":
        if (block.provider === key) parts.push(block.data as Wire.PartParam)
        else ctx.warn(new DroppedContent({ index, blockIndex: b, what: `${block.provider} provider data`, reason: "it belongs to another provider" }))
        break
      default:
        return Block.absurd(block)
    }
  }
  return parts
}

const writeMessages = (ctx: Ctx, messages: ReadonlyArray<Message.Message>): Wire.Messages => {
  const out: Wire.Messages = { contents: [] }
  let started = false
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    const extra = extraOf(m.providerOptions, key)
    if (m.role !== "tool" && m.name !== undefined) ctx.warn(new DroppedContent({ index: i, what: "the participant name", reason: "Gemini contents have no name" }))
    switch (m.role) {
      case "system": {
        const parts = writeUserParts(ctx, m, i)
        if (!started) {
          if (out.systemInstruction === undefined) out.systemInstruction = merge<Wire.ContentParam>({ parts } as Wire.ContentParam, extra)
          else out.systemInstruction.parts.push(...parts)
          continue
        }
        ctx.warn(new ConvertedContent({ index: i, what: "a system message after the conversation started", how: "as user text" }))
        out.contents.push(merge<Wire.ContentParam>({ role: "user", parts }, extra))
        continue
      }
      case "user":
        out.contents.push(merge<Wire.ContentParam>({ role: "user", parts: writeUserParts(ctx, m, i) }, extra))
        break
      case "assistant":
        out.contents.push(merge<Wire.ContentParam>({ role: "model", parts: writeModelParts(ctx, m, i) }, extra))
        break
      case "tool": {
        const parts: Array<Wire.PartParam> = []
        for (let b = 0; b < m.content.length; b++) {
          const result = m.content[b]!
          const record = own(result.providerOptions, key)
          const response: NonNullable<Wire.PartParam["functionResponse"]> = { name: result.toolName, ...writeResultContent(ctx, result, i, b) }
          if (record?.["syntheticId"] !== true) response.id = result.toolCallId
          parts.push(merge<Wire.PartParam>({ functionResponse: response }, extraOf(result.providerOptions, key)))
        }
        out.contents.push(merge<Wire.ContentParam>({ role: "user", parts }, extra))
        break
      }
      default:
        return Block.absurd(m)
    }
    started = true
  }
  return out
}

// ---------------------------------------------------------------------------
// public: conversations
// ---------------------------------------------------------------------------

/**
 * Writes a conversation as Gemini's `{ systemInstruction, contents }`, with
 * the warnings of what the format could not carry.
 *
 * @example
 * const { value } = yield* Gemini.toMessages([Message.system("Be brief."), Message.user("Weather in Oslo?")])
 * // value: { systemInstruction: { parts: [{ text: "Be brief." }] }, contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }] }
 *
 * @category conversions
 * @since 0.1.0
 */
export const toMessages = (messages: ReadonlyArray<Message.Message>, options?: ConversionOptions): Effect.Effect<Converted<Wire.Messages>, UnsupportedContent> =>
  run<Wire.Messages, UnsupportedContent>(key, options, (ctx) => writeMessages(ctx, messages))

/**
 * Reads Gemini's `{ systemInstruction, contents }` (or a whole request
 * body: the other fields are ignored here) into a conversation.
 *
 * @example
 * const { value: messages } = yield* Gemini.fromMessages({
 *   contents: [
 *     { role: "user", parts: [{ text: "Weather in Oslo?" }] },
 *     { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } }, thoughtSignature: "CtIBAd..." }] },
 *     { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "12°C" } } }] }
 *   ]
 * })
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromMessages = (input: Wire.MessagesLike, options?: ConversionOptions): Effect.Effect<Converted<Array<Message.Message>>, MalformedPayload | InvalidToolArguments> =>
  run<Array<Message.Message>, MalformedPayload | InvalidToolArguments>(key, options, (ctx) => readMessages(ctx, input))

// ---------------------------------------------------------------------------
// public: requests
// ---------------------------------------------------------------------------

const readTools = (ctx: Ctx, raw: unknown, kept: JsonObj): Array<Request.ToolDefinition> | undefined => {
  if (raw === undefined || raw === null) return undefined
  const list = ctx.arr(raw, "tools")
  const tools: Array<Request.ToolDefinition> = []
  const hosted: Array<Schema.Json> = []
  for (let t = 0; t < list.length; t++) {
    const at = `tools[${t}]`
    const entry = ctx.obj(list[t], at)
    const rest: JsonObj = {}
    for (const field of Object.keys(entry)) {
      if (field !== "functionDeclarations") {
        setKey(rest, field, ctx.json(entry[field], `${at}.${field}`))
        continue
      }
      const declarations = ctx.arr(entry[field], `${at}.functionDeclarations`)
      for (let d = 0; d < declarations.length; d++) {
        const dAt = `${at}.functionDeclarations[${d}]`
        const declaration = ctx.obj(declarations[d], dAt)
        const parametersKey = ["parametersJsonSchema", "parameters_json_schema", "parameters"].find((k) => declaration[k] !== undefined && declaration[k] !== null)
        const parameters = parametersKey === undefined ? undefined : ctx.json(ctx.obj(declaration[parametersKey], `${dAt}.${parametersKey}`), `${dAt}.${parametersKey}`)
        tools.push(Request.tool(ctx.str(declaration, "name", dAt), {
          ...defined({ description: ctx.optStr(declaration, "description", dAt), parameters: parameters as Block.JsonObject | undefined }),
          ...optionsFor(key, {
            parametersKey: parametersKey === "parametersJsonSchema" ? undefined : parametersKey,
            extra: ctx.extras(declaration, declarationKeys, dAt)
          })
        }))
      }
    }
    if (Object.keys(rest).length > 0) hosted.push(rest)
  }
  if (hosted.length > 0) kept["tools"] = hosted
  return tools.length > 0 || hosted.length === 0 ? tools : undefined
}

const readToolChoice = (ctx: Ctx, raw: unknown, kept: JsonObj): Request.ToolChoice | undefined => {
  if (raw === undefined || raw === null) return undefined
  const config = ctx.obj(raw, "toolConfig")
  const calling = config["functionCallingConfig"]
  let choice: Request.ToolChoice | undefined
  if (Object.keys(config).length === 1 && isObj(calling)) {
    const mode = calling["mode"]
    const names = calling["allowedFunctionNames"]
    const fields = Object.keys(calling).length
    if (fields === 1 && mode === "AUTO") choice = "auto"
    else if (fields === 1 && mode === "NONE") choice = "none"
    else if (fields === 1 && mode === "ANY") choice = "required"
    else if (fields === 2 && mode === "ANY" && Array.isArray(names) && names.length === 1 && typeof names[0] === "string") choice = { _tag: "Tool", name: names[0] }
  }
  if (choice === undefined) kept["toolConfig"] = ctx.json(config, "toolConfig")
  return choice
}

const readGenerationConfig = (ctx: Ctx, raw: unknown, kept: JsonObj): Request.ResponseFormat | undefined => {
  if (raw === undefined || raw === null) return undefined
  const config = ctx.obj(raw, "generationConfig")
  const { responseMimeType, responseJsonSchema, ...rest } = config
  let format: Request.ResponseFormat | undefined
  if (responseMimeType === "application/json" && config["responseSchema"] === undefined) {
    format = isObj(responseJsonSchema) ? { _tag: "JsonSchema", name: "response", schema: ctx.json(responseJsonSchema, "generationConfig.responseJsonSchema") as Block.JsonObject } : responseJsonSchema === undefined ? { _tag: "JsonObject" } : undefined
  } else if (responseMimeType === "text/plain" && responseJsonSchema === undefined) {
    format = { _tag: "Text" }
  }
  if (format === undefined) kept["generationConfig"] = ctx.json(config, "generationConfig")
  else if (Object.keys(rest).length > 0) kept["generationConfig"] = ctx.json(rest, "generationConfig")
  return format
}

/**
 * Reads a `generateContent` request body into a `Request`: the system
 * instruction and contents, the function declarations, the function-calling
 * mode as a tool choice, and a JSON response format; every other field is
 * kept in `providerOptions.gemini`. (The model id is part of the URL, not
 * the body.)
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromRequest = (body: Wire.RequestBodyLike, options?: ConversionOptions): Effect.Effect<Converted<Request.Request>, MalformedPayload | InvalidToolArguments> =>
  run<Request.Request, MalformedPayload | InvalidToolArguments>(key, options, (ctx) => {
    const raw = ctx.obj(body, "")
    const messages = readMessages(ctx, body)
    const kept: JsonObj = {}
    const tools = readTools(ctx, raw["tools"], kept)
    const toolChoice = readToolChoice(ctx, raw["toolConfig"], kept)
    const responseFormat = readGenerationConfig(ctx, raw["generationConfig"], kept)
    for (const field of Object.keys(raw)) if (!bodyKeys.has(field)) setKey(kept, field, ctx.json(raw[field], field))
    return Request.make(messages, {
      ...defined({ tools, toolChoice, responseFormat }),
      ...(Object.keys(kept).length === 0 ? {} : { providerOptions: { [key]: kept } })
    })
  })

const writeDeclaration = (ctx: Ctx, tool: Request.ToolDefinition): Wire.FunctionDeclarationParam => {
  const out: Wire.FunctionDeclarationParam = { name: tool.name }
  if (tool.description !== undefined) out.description = tool.description
  if (tool.parameters !== undefined) {
    const field = own(tool.providerOptions, key)?.["parametersKey"]
    setKey(out as unknown as Obj, typeof field === "string" ? field : "parametersJsonSchema", tool.parameters)
  }
  if (tool.strict !== undefined) ctx.warn(new DroppedContent({ what: `the strict flag of the tool ${JSON.stringify(tool.name)}`, reason: "Gemini function declarations have none" }))
  return merge(out, extraOf(tool.providerOptions, key))
}

/**
 * Writes a `Request` as a `generateContent` request body; the fields kept
 * in `providerOptions.gemini` are written back.
 *
 * @example
 * const { value: body } = yield* Gemini.toRequest(Request.make([Message.user("Hi")], { toolChoice: "required", tools: [weather] }))
 * // body.toolConfig: { functionCallingConfig: { mode: "ANY" } }
 *
 * @category conversions
 * @since 0.1.0
 */
export const toRequest = (request: Request.Request, options?: ConversionOptions): Effect.Effect<Converted<Wire.RequestBody>, UnsupportedContent> =>
  run<Wire.RequestBody, UnsupportedContent>(key, options, (ctx) => {
    const kept = own(request.providerOptions, key) ?? {}
    const written = writeMessages(ctx, request.messages)
    const body: Wire.RequestBody = { contents: written.contents }
    if (written.systemInstruction !== undefined) body.systemInstruction = written.systemInstruction
    const hosted = Array.isArray(kept["tools"]) ? (kept["tools"] as Array<{ [key: string]: unknown }>) : []
    if (request.tools !== undefined || hosted.length > 0) {
      const declarations = (request.tools ?? []).map((tool) => writeDeclaration(ctx, tool))
      body.tools = [...(declarations.length > 0 || hosted.length === 0 ? [{ functionDeclarations: declarations }] : []), ...hosted]
    }
    const choice = request.toolChoice
    if (choice !== undefined) {
      body.toolConfig = {
        functionCallingConfig: typeof choice === "string"
          ? { mode: choice === "auto" ? "AUTO" : choice === "none" ? "NONE" : "ANY" }
          : { mode: "ANY", allowedFunctionNames: [choice.name] }
      }
    } else if (isObj(kept["toolConfig"])) {
      body.toolConfig = kept["toolConfig"] as Wire.RequestBody["toolConfig"] & object
    }
    if (request.parallelToolCalls !== undefined) {
      ctx.warn(new DroppedContent({ what: "the parallel tool calls setting", reason: "Gemini has none" }))
    }
    const generation = isObj(kept["generationConfig"]) ? (kept["generationConfig"] as Obj) : undefined
    const format = request.responseFormat
    if (format !== undefined) {
      const written: Obj = format._tag === "Text" ? { responseMimeType: "text/plain" } : { responseMimeType: "application/json" }
      if (format._tag === "JsonSchema") {
        written["responseJsonSchema"] = format.schema
        if (format.name !== "response" || format.description !== undefined || format.strict !== undefined) {
          ctx.warn(new DroppedContent({ what: "the name, description or strict flag of the response schema", reason: "Gemini takes the schema only" }))
        }
      }
      body.generationConfig = merge({ ...generation }, written)
    } else if (generation !== undefined) {
      body.generationConfig = { ...generation }
    }
    for (const field of Object.keys(kept)) {
      if (field === "tools" || field === "toolConfig" || field === "generationConfig" || bodyKeys.has(field)) continue
      setKey(body, field, kept[field])
    }
    return body
  })

// ---------------------------------------------------------------------------
// public: responses
// ---------------------------------------------------------------------------

const finishOf = (reason: string | undefined, hasCalls: boolean): FinishReason => {
  switch (reason) {
    case "STOP":
      return hasCalls ? "tool-calls" : "stop"
    case "MAX_TOKENS":
      return "length"
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
    case "IMAGE_PROHIBITED_CONTENT":
    case "IMAGE_RECITATION":
    case "LANGUAGE":
      return "content-filter"
    case "MALFORMED_FUNCTION_CALL":
    case "UNEXPECTED_TOOL_CALL":
    case "TOO_MANY_TOOL_CALLS":
      return "error"
    case undefined:
    case "FINISH_REASON_UNSPECIFIED":
      return hasCalls ? "tool-calls" : "unknown"
    default:
      return "other"
  }
}

const readUsage = (ctx: Ctx, raw: unknown): Message.Usage | undefined => {
  if (raw === undefined || raw === null) return undefined
  const usage = ctx.obj(raw, "usageMetadata")
  const at = "usageMetadata"
  const prompt = ctx.optCount(usage, "promptTokenCount", at)
  const toolPrompt = ctx.optCount(usage, "toolUsePromptTokenCount", at)
  const candidates = ctx.optCount(usage, "candidatesTokenCount", at)
  const thoughts = ctx.optCount(usage, "thoughtsTokenCount", at)
  return new Message.Usage(defined({
    inputTokens: prompt === undefined && toolPrompt === undefined ? undefined : (prompt ?? 0) + (toolPrompt ?? 0),
    outputTokens: candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0),
    cachedInputTokens: ctx.optCount(usage, "cachedContentTokenCount", at),
    reasoningTokens: thoughts,
    totalTokens: ctx.optCount(usage, "totalTokenCount", at)
  }))
}

const decodeResponse = (ctx: Ctx, response: unknown, candidateIndex: number): DecodedResponse => {
  const raw = ctx.obj(response, "")
  const candidates = raw["candidates"] === undefined || raw["candidates"] === null ? [] : ctx.arr(raw["candidates"], "candidates")
  if (candidates.length > 1) {
    ctx.warn(new DroppedContent({ what: `${candidates.length - 1} other candidate(s)`, reason: `one candidate is read (candidate ${candidateIndex})` }))
  }
  const id = ctx.optStr(raw, "responseId", "")
  const prefix = `${id ?? `response${++responseCalls}`}`
  const blocks: Array<Block.AssistantBlock> = []
  let finish: string | undefined
  const candidate = candidates[candidateIndex]
  if (candidate !== undefined) {
    const at = `candidates[${candidateIndex}]`
    const c = ctx.obj(candidate, at)
    finish = ctx.optStr(c, "finishReason", at)
    const content = c["content"] === undefined || c["content"] === null ? undefined : ctx.obj(c["content"], `${at}.content`)
    const parts = content === undefined || content["parts"] === undefined ? [] : ctx.arr(content["parts"], `${at}.content.parts`)
    const pending = new Pending()
    for (let p = 0; p < parts.length; p++) {
      readModelPart(ctx, ctx.obj(parts[p], `${at}.content.parts[${p}]`), `${at}.content.parts[${p}]`, (name) => `${name}_${prefix}_${p}`, pending, blocks)
    }
  } else {
    const feedback = isObj(raw["promptFeedback"]) ? (raw["promptFeedback"] as Obj) : undefined
    finish = feedback === undefined ? undefined : ctx.optStr(feedback, "blockReason", "promptFeedback")
  }
  const usage = readUsage(ctx, raw["usageMetadata"])
  const hasCalls = blocks.some((b) => b._tag === "ToolCall" && b.providerExecuted !== true)
  const finishReason = candidate === undefined && finish !== undefined ? "content-filter" : finishOf(finish, hasCalls)
  return {
    message: Message.assistant(blocks, defined({ usage })),
    finishReason,
    ...defined({ rawFinishReason: finish, usage, id, model: ctx.optStr(raw, "modelVersion", "") })
  }
}

/**
 * Options of `fromResponse`: which candidate to read (default the first).
 *
 * @since 0.1.0
 */
export interface ResponseOptions extends ConversionOptions {
  readonly candidate?: number
}

/**
 * Reads a `generateContent` response: one candidate's content as an
 * assistant message (with `usage`: the prompt with tool-use prompt tokens
 * as input, candidates with thoughts as output), why it stopped, the
 * response id and model version. Function calls without an id get one made
 * up (unique within the process, never written back).
 *
 * @example
 * const { value } = yield* Gemini.fromResponse(await ai.models.generateContent({ ... }))
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromResponse = (response: Wire.GenerateContentResponse, options?: ResponseOptions): Effect.Effect<Converted<DecodedResponse>, MalformedPayload | InvalidToolArguments> =>
  run<DecodedResponse, MalformedPayload | InvalidToolArguments>(key, options, (ctx) => decodeResponse(ctx, response, options?.candidate ?? 0))

/**
 * Reads a streamed response (`streamGenerateContent`): the chunks are
 * accumulated (`GeminiStream`) into the response they stand for, which is
 * read as `fromResponse` reads one. A stream that ends early fails with
 * `IncompleteResponse`, carrying the assistant message read from what did
 * arrive.
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromStream = <E, R>(
  chunks: Stream.Stream<Wire.StreamEvent, E, R>,
  options?: ResponseOptions
): Effect.Effect<Converted<DecodedResponse>, E | IncompleteResponse | ProviderStreamError | StreamProtocolError | MalformedPayload | InvalidToolArguments, R> =>
  decodeStream(key, Accumulator.fromStream(chunks), (response) => fromResponse(response, options))

/**
 * `fromStream` over an iterable of chunks.
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromEvents = (
  chunks: Iterable<Wire.StreamEvent>,
  options?: ResponseOptions
): Effect.Effect<Converted<DecodedResponse>, IncompleteResponse | ProviderStreamError | StreamProtocolError | MalformedPayload | InvalidToolArguments> =>
  decodeStream(key, Accumulator.fromEvents(chunks), (response) => fromResponse(response, options))

/**
 * `fromStream` over raw SSE text (`alt=sse`), whole or in pieces.
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromSse = (
  input: string | Iterable<string | Uint8Array>,
  options?: ResponseOptions
): Effect.Effect<Converted<DecodedResponse>, IncompleteResponse | ProviderStreamError | StreamProtocolError | MalformedPayload | InvalidToolArguments> =>
  decodeStream(key, Accumulator.fromSse(input), (response) => fromResponse(response, options))
