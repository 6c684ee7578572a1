/**
 * A request as the OpenAI Chat Completions prompt renderer reads it: the
 * parts of the body `OpenAiChat.toRequest` writes that reach the prompt
 * (roles, texts, names, tool calls and results, definitions, tool choice,
 * response format), without the adapter itself, so that the estimator does
 * not carry a whole wire format. What the adapter leaves out (thinking,
 * redacted thinking, files it cannot send, tools the provider runs) is left
 * out here too. A property test holds the two to the same rendering
 * (test/TokenEstimatorRequest.test.ts).
 *
 * @internal
 */
import { customInputOf, customToolNames } from "./customTools.js"
import type { Schema } from "effect"
import * as Block from "../Block.js"
import type * as Message from "../Message.js"
import type * as Request from "../Request.js"
import { chatAudioFormat, chatNamedToolChoice, chatParticipantName, chatResponseFormat } from "./chatRequestFields.js"
import { audioSecondsOfSource } from "./audio.js"
import { imageSizeOfBase64 } from "./imageSize.js"
import { isImageType } from "./anthropicFiles.js"
import { decodeBase64Text } from "./base64.js"
import { bareMediaType, isTextDocument } from "./mediaType.js"
import { openAiTakesUrl } from "./fileUrls.js"
import { inputFileDetailOf } from "./imageDetail.js"
import { inlineFileOf } from "./dataUrlFile.js"
import { isPdf, pdfFactsOfSource } from "./pdf.js"
import { asStoredCall, type ChatMessageLike, type ChatToolCallLike, type ChatRequestLike, withCall, withMeasured } from "./openAiChatPrompt.js"
import { keptToolSettings } from "./toolSettings.js"
import { stringify } from "./json.js"
import { hostedItem, hostedTool } from "./responsesItems.js"
import { hintKey, OPENAI_CHAT_HINTS, wireFieldsOf } from "./hint.js"

const KEY = "openai-chat"

type Obj = { readonly [key: string]: Schema.Json }

const own = (value: { readonly providerOptions?: Block.ProviderOptions | undefined }): Obj | undefined => value.providerOptions?.[KEY]

/** A Chat hint of a value (`internal/hint`): which wire form the adapter writes. */
const hint = (value: { readonly providerOptions?: Block.ProviderOptions | undefined }, name: string): Schema.Json | undefined => own(value)?.[hintKey(name)]

/** A message's participant name as the writer sends it (`chatParticipantName`), as a field; the Responses writer sends none. */
const nameOf = (m: Message.SystemMessage | Message.UserMessage | Message.AssistantMessage, responses: boolean): { readonly name?: string } => {
  const name = responses ? undefined : chatParticipantName(m.name)
  return name === undefined ? {} : { name }
}

const text = (t: string): Obj => ({ type: "text", text: t })

const RESPONSES = "openai-responses"

/**
 * An input item of the Responses API's own, as the writer sends it (verbatim), for the prompt: one with a text (an
 * `input_text` or `output_text` part) as it is, a `message` item by its parts' texts, any other by its JSON text; a
 * reasoning item is left to the reasoning the estimate prices apart.
 */
const responsesItem = (data: Schema.Json): Schema.Json | undefined => {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return text(stringify(data))
  const item = data as Obj
  if (item["type"] === "reasoning") return undefined
  if (typeof item["text"] === "string") return item
  const content = item["content"]
  if (item["type"] === "message" && Array.isArray(content)) {
    let said = ""
    for (const part of content) if (typeof part === "object" && part !== null && !Array.isArray(part) && typeof (part as Obj)["text"] === "string") said += (part as Obj)["text"]
    return text(said)
  }
  return text(stringify(data))
}


/** Whether a body field holds a non-empty list (of tools or functions), as written or kept. */
const hasList = (field: unknown): boolean => Array.isArray(field) && field.length > 0

const joined = (blocks: ReadonlyArray<Block.TextBlock>): string => {
  let out = ""
  for (const b of blocks) out += b.text
  return out
}

/**
 * A user file as the adapter sends it: images as `image_url` parts, a text
 * document as text, a PDF the request holds as a file part with its page
 * count, audio it holds as an audio part with its duration, other files as
 * parts the prompt does not read. An image's pixel size, when its data is
 * inline, is measured here (the renderer prices it by size; the adapter's
 * data URL is not built just to be measured), with its detail; a URL is
 * passed as is. What the adapter leaves out is left out here too: an image
 * at a URL OpenAI cannot take (`openAiTakesUrl`), audio other than base64
 * wav or mp3 on Chat Completions and any audio not sent as a file on the
 * Responses API (which has no audio part), a file at a URL Chat Completions
 * does not fetch. What was measured goes beside the part (`withMeasured`),
 * where no field of a request body can stand for it. A file at a base64
 * `data:` URL goes as that URL, so the type the URL declares says whether it
 * is a PDF, as it does for the API.
 */
const filePart = (file: Block.FileBlock, responses: boolean): Obj | undefined => {
  const source = file.source
  const bare = bareMediaType(file.mediaType)
  // a Responses input_file read as an image or audio goes back as one
  const asFile = responses && file.providerOptions?.["openai-responses"]?.[hintKey("part")] === "input_file"
  if (isImageType(file.mediaType) && !asFile) {
    const detail = file.detail === undefined ? {} : { detail: file.detail }
    switch (source._tag) {
      case "Base64": {
        const size = imageSizeOfBase64(source.data)
        const part = { type: "image_url", image_url: { ...detail } }
        return size === undefined ? part : withMeasured(part, { size })
      }
      case "Url":
        // one OpenAI cannot take is left out, as the adapter leaves it out
        return openAiTakesUrl(source.url) ? { type: "image_url", image_url: { url: source.url, ...detail } } : undefined
      case "FileId":
        // the Responses API takes an input_image by file id (its size unknown here); Chat Completions leaves it out
        return responses ? { type: "input_image", ...detail } : undefined
      case "Text":
        return undefined
      default:
        return Block.absurd(source)
    }
  }
  if (bare.startsWith("audio/") && !asFile) {
    if (responses || source._tag !== "Base64" || chatAudioFormat(bare) === undefined) return undefined
    // audio the request holds is priced by its duration, measured here (see `audioPartSeconds`)
    const seconds = audioSecondsOfSource(source)
    return seconds === undefined ? { type: "input_audio" } : withMeasured({ type: "input_audio" }, { seconds })
  }
  if (source._tag === "Text") return text(source.text)
  // a file at a base64 data: URL goes as the data it holds, of the type the URL declares (`inlineFileOf`)
  const inline = inlineFileOf(file)
  const held = inline ?? file
  // a text document sent as data (a base64 file part; the Responses writer makes one of a document given as text too)
  // is read by its text
  if (held.source._tag === "Base64" && isTextDocument(held.mediaType)) {
    const decoded = decodeBase64Text(held.source.data)
    if (decoded !== undefined) return text(decoded)
  }
  // any other URL goes only to the Responses API, and only one OpenAI fetches
  if (source._tag === "Url" && inline === undefined && (!responses || !openAiTakesUrl(source.url))) return undefined
  // a PDF the request holds is priced by its pages and text, read here as an image is measured (see `pdfPartFacts`),
  // and on the Responses API at the detail its page images are read at, which the adapter sends (Chat's file part has none)
  const pdf = isPdf(held) ? pdfFactsOfSource(held.source) : undefined
  const detail = inputFileDetailOf(file.detail)
  const part = responses ? { type: "input_file", ...(detail === undefined ? {} : { detail }) } : { type: "file" }
  return pdf === undefined ? part : withMeasured(part, { pdf })
}

const user = (m: Message.UserMessage, responses: boolean): ChatMessageLike => {
  const name = nameOf(m, responses)
  let textOnly = true
  for (const block of m.content) if (block._tag !== "Text") textOnly = false
  if (textOnly) return { role: "user", content: joined(m.content as ReadonlyArray<Block.TextBlock>), ...name }
  const parts: Array<Schema.Json> = []
  for (const block of m.content) {
    switch (block._tag) {
      case "Text":
        parts.push(text(block.text))
        break
      case "File": {
        const part = filePart(block, responses)
        if (part !== undefined) parts.push(part)
        break
      }
      case "ProviderData":
        if (block.provider === KEY && !responses) parts.push(block.data)
        else if (block.provider === RESPONSES && responses) {
          const item = responsesItem(block.data)
          if (item !== undefined) parts.push(item)
        }
        break
      default:
        return Block.absurd(block)
    }
  }
  return { role: "user", content: parts, ...name }
}

/**
 * The ids of the calls written as the deprecated single `function_call`: their results go as role "function"
 * messages, as the writer sends them (`legacyCalls` there).
 */
type LegacyCalls = Set<string>

/**
 * The results of hosted calls in an assistant message by call id (the last of each), which the Responses writer sends
 * inside their call's item: read once per message, so that a message of many hosted calls is not read once per call.
 */
const hostedResultsOf = (m: Message.AssistantMessage): Map<string, Block.ToolResultBlock> => {
  const out = new Map<string, Block.ToolResultBlock>()
  for (const block of m.content) if (block._tag === "ToolResult" && block.providerExecuted === true) out.set(block.toolCallId, block)
  return out
}

const assistant = (m: Message.AssistantMessage, responses: boolean, legacy: LegacyCalls, customNames: ReadonlySet<string> | undefined): ChatMessageLike => {
  const said: Array<Schema.Json> = []
  let last: string | undefined
  let texts = 0
  let refusals = 0
  /** Where in `said` the first refusal given no part of its own is (the writer sends it in the `refusal` field). */
  let fieldRefusal: number | undefined
  let parts = false
  const calls: Array<ChatToolCallLike> = []
  let hosted: Map<string, Block.ToolResultBlock> | undefined
  let functionCall: { readonly name: string; readonly arguments: string } | undefined
  for (const block of m.content) {
    switch (block._tag) {
      case "Text":
        said.push(text(block.text))
        last = block.text
        texts++
        if (own(block) !== undefined) parts = true
        break
      case "Refusal":
        if (responses) {
          // the Responses writer sends a refusal as the assistant's text
          said.push(text(block.refusal))
          last = block.refusal
          texts++
          break
        }
        if (own(block) === undefined) fieldRefusal ??= said.length
        said.push({ type: "refusal", refusal: block.refusal })
        refusals++
        if (own(block) !== undefined) parts = true
        break
      case "ProviderData": {
        const item = block.provider === KEY && !responses ? block.data : block.provider === RESPONSES && responses ? responsesItem(block.data) : undefined
        if (item !== undefined) {
          said.push(item)
          parts = true
        }
        break
      }
      case "ToolCall": {
        if (block.providerExecuted === true) {
          // a call the Responses API ran itself goes back as its item, with its result (other providers' calls do not)
          const type = responses ? block.providerOptions?.[RESPONSES]?.["type"] : undefined
          if (typeof type === "string" && hostedTool(type) !== undefined) {
            // by its JSON text, the item's other kept fields (status, an MCP server's label...) with it
            const kept = wireFieldsOf(block.providerOptions?.[RESPONSES], () => true)
            hosted ??= hostedResultsOf(m)
            said.push(text(stringify({ ...hostedItem(block, type, hosted.get(block.id), Block.argsText), ...kept } as Schema.Json)))
            parts = true
          }
          break
        }
        const type = own(block)?.["type"]
        if (type === "function_call" && functionCall === undefined) {
          functionCall = withCall({ name: block.name, arguments: Block.argsText(block) }, block)
          if (!responses) legacy.add(block.id)
        } else {
          // a custom call has no `function` but its name and input, as the writer sends them
          // the function noted with its block: the prompt takes the arguments compacted from the block's own reading
          // (as does a call of a custom tool made as another format presents it, `{ input }`: the writer sends its text)
          const customInput = responses ? undefined : customInputOf(block, customNames)
          const call = customInput !== undefined
            ? { id: block.id, custom: { name: block.name, input: customInput } }
            : type === "custom"
            ? { id: block.id, custom: { name: block.name, input: typeof block.args === "string" && block.rawArgs === undefined ? block.args : Block.argsText(block) } }
            : { id: block.id, function: withCall({ name: block.name, arguments: Block.argsText(block) }, block) }
          // a Responses call item with its id is read from the stored item (see `RESPONSES_CALL_EXTRA`)
          calls.push(block.itemId === undefined ? call : asStoredCall(call))
        }
        break
      }
      case "Thinking":
      case "RedactedThinking":
      case "File":
      case "ToolResult":
        break
      default:
        return Block.absurd(block)
    }
  }
  if (texts > 1 || refusals > 1) parts = true
  // a lone refusal goes to the `refusal` field, which is not part of the prompt, and so does the first of parts that
  // was not read as a part
  if (parts && fieldRefusal !== undefined) said.splice(fieldRefusal, 1)
  const content = parts ? said : last === undefined ? null : last
  return {
    role: "assistant",
    // read without content: written back without it
    ...(content === null && hint(m, "noContent") === true ? {} : { content }),
    ...nameOf(m, responses),
    ...(functionCall === undefined ? {} : { function_call: functionCall }),
    ...(calls.length === 0 ? {} : { tool_calls: calls })
  }
}

const resultContent = (result: Block.ToolResultBlock, responses: boolean): string | Array<Schema.Json> => {
  if (typeof result.content === "string") return result.content
  const parts: Array<Schema.Json> = []
  for (const part of result.content) {
    switch (part._tag) {
      case "Text":
        parts.push(text(part.text))
        break
      case "Json":
        parts.push(text(Block.resultContentText([part])))
        break
      case "File": {
        // a function call's output on the Responses API holds its files (input_image, input_file), priced as a user
        // message's are; a Chat tool message holds text only
        const file = responses ? filePart(part, true) : undefined
        if (file !== undefined) parts.push(file as Schema.Json)
        break
      }
      default:
        return Block.absurd(part)
    }
  }
  return parts
}

const tool = (m: Message.ToolMessage, out: Array<ChatMessageLike>, responses: boolean, legacy: LegacyCalls): void => {
  const messageName = own(m)?.["name"]
  for (const result of m.content) {
    const extras = own(result)
    const named = extras?.["name"] ?? messageName
    if (extras?.["role"] === "function" || legacy.has(result.toolCallId)) {
      const content = resultContent(result, responses)
      out.push({ role: "function", name: result.toolName, content: typeof content === "string" ? content : Block.resultContentText(result.content) })
    } else {
      out.push({ role: "tool", tool_call_id: result.toolCallId, content: resultContent(result, responses), ...(typeof named === "string" ? { name: named } : {}) })
    }
  }
}

/** A tool a provider defines, or one written the older way with an Anthropic `type`: Chat Completions leaves it out. */
export const isProviderTool = (t: Request.ToolDefinition): boolean => {
  if (t.providerDefined !== undefined) return true
  const type = t.providerOptions?.["anthropic"]?.["type"]
  return typeof type === "string" && type !== "custom"
}

const definition = (t: Request.ToolDefinition): Obj => ({
  name: t.name,
  ...(t.description === undefined ? {} : { description: t.description }),
  ...(t.parameters === undefined ? {} : { parameters: t.parameters })
})

/**
 * The request as the prompt renderer reads it, and `starts[i]`, the index of
 * the first wire message written for input message `i`; for the Responses
 * API (`responses`), a PDF is an `input_file` with the detail it is sent with.
 */
export const chatRequestOf = (request: Request.Request, responses = false): { readonly body: ChatRequestLike; readonly starts: ReadonlyArray<number> } => {
  // the request's kept Chat Completions fields come first, as the adapter writes them (a tool list or tool choice
  // of a kind the model does not type is kept there), by their wire names and without the adapter's hints
  const body: Record<string, unknown> = { ...wireFieldsOf(own(request), (name) => OPENAI_CHAT_HINTS.has(name)) }
  if (request.model !== undefined) body["model"] = request.model
  const messages: Array<ChatMessageLike> = []
  const starts: Array<number> = []
  const legacyCalls: LegacyCalls = new Set()
  const customNames = customToolNames(request.tools)
  for (const m of request.messages) {
    starts.push(messages.length)
    switch (m.role) {
      case "system":
        messages.push({ role: own(m)?.["role"] === "developer" ? "developer" : "system", content: joined(m.content), ...nameOf(m, responses) })
        break
      // a message the writer emptied is left out, as `OpenAiChat.toRequest` leaves it out
      case "user": {
        const written = user(m, responses)
        if (!(m.content.length > 0 && Array.isArray(written.content) && written.content.length === 0)) messages.push(written)
        break
      }
      case "assistant": {
        // (the Responses writer makes no item of an assistant message without content)
        if (responses && m.content.length === 0) break
        const written = assistant(m, responses, legacyCalls, customNames)
        const empty = m.content.length > 0 &&
          (written.content === null || written.content === undefined || (Array.isArray(written.content) && written.content.length === 0)) &&
          written.tool_calls === undefined && written.function_call === undefined &&
          // (the Responses writer sends none of these beside content: a refusal is text there)
          !(!responses && m.content.some((b) =>
            b._tag === "Refusal" ||
            // thinking read from reasoning_content (or reasoning) goes back there
            (b._tag === "Thinking" && (hint(b, "reasoningContent") === true || hint(b, "reasoningContent") === "reasoning")) ||
            // a generated audio replayed by its id
            (b._tag === "File" && bareMediaType(b.mediaType).startsWith("audio/") && (b.itemId !== undefined || b.source._tag === "FileId"))
          ))
        if (!empty) messages.push(written)
        break
      }
      case "tool":
        tool(m, messages, responses, legacyCalls)
        break
      default:
        return Block.absurd(m)
    }
  }
  body["messages"] = messages
  const tools = (request.tools ?? []).filter((t) => !isProviderTool(t))
  // as the writer decides: tools read from the deprecated `functions`, or an empty list read from it (left out, as an
  // empty tools list is, its choice not)
  const legacy = tools.length > 0
    ? tools.every((t) => own(t)?.["type"] === "functions")
    : (request.tools?.length ?? 0) === 0 && hint(request, "functions") === true
  if (legacy && tools.length > 0) body["functions"] = tools.map(definition)
  else if (tools.length > 0) {
    body["tools"] = tools.map((t) =>
      own(t)?.["type"] === "custom"
        ? { type: "custom", custom: { name: t.name, ...(t.description === undefined ? {} : { description: t.description }) } }
        : { type: "function", function: definition(t) }
    )
  }
  // as the writer does: no choice when every tool was left out, nor a named choice of a tool left out
  const choice = keptToolSettings(request, { names: tools.map((t) => t.name), any: tools.length > 0 }).toolChoice
  if (choice !== undefined && legacy) {
    body["function_call"] = choice === "required" ? "auto" : typeof choice === "string" ? choice : { name: choice.name }
  } else if (choice !== undefined) {
    if (typeof choice === "string") body["tool_choice"] = choice
    else {
      const custom = tools.some((t) => t.name === choice.name && own(t)?.["type"] === "custom")
      body["tool_choice"] = chatNamedToolChoice(choice.name, custom)
    }
  }
  // as the writer does: no tool_choice without tools, nor function_call without functions (the API rejects both)
  if (!hasList(body["tools"])) delete body["tool_choice"]
  if (!hasList(body["functions"])) delete body["function_call"]
  if (request.responseFormat !== undefined) body["response_format"] = chatResponseFormat(request.responseFormat)
  return { body: body as ChatRequestLike, starts }
}
