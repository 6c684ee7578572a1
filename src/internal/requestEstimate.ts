/**
 * The whole-request estimate behind `TokenEstimator.Service.estimateRequest`:
 * messages, tool definitions, tool choice, response format and the framing
 * each provider adds, from one estimator's text rule.
 *
 * - OpenAI Chat: the request is read as the Chat Completions body the
 *   adapter sends (`chatRequestOf.ts`) and rendered into the prompt the model sees
 *   (`openAiChatPrompt.ts`): per-message framing, participant names, the
 *   functions namespace, the tool choice and the reply priming. With an
 *   exact text counter the total is the API's `usage.prompt_tokens`.
 * - OpenAI Responses: the same rendering (function tools reach the model in
 *   the same namespace), plus hosted tools by their JSON text, with what the
 *   recorded Responses requests show of their own framing (definitions
 *   without a system message, reasoning of the current turn). Plain requests
 *   count exactly; with function tools it is an approximation.
 * - Anthropic: each message as the estimator counts it, but for images and
 *   the PDFs the request holds, priced as Claude prices them
 *   (`anthropicImageTokens`, `anthropicPdfTokens`); client tools by the
 *   JSON text of their definition; Anthropic-schema tools (bash, text
 *   editor, computer use) by their documented cost; plus the documented
 *   tool-use system prompt of the model family and tool choice (framing).
 * - Gemini: each message as the estimator counts it, but for images and
 *   PDFs, priced as Gemini prices them (`geminiImageTokens`,
 *   `geminiPdfPageTokens`; Gemini 3 also bills the
 *   thought signatures sent back), function declarations and other tools by
 *   their JSON text, and Gemini's 1 token a content in place of the
 *   estimator's message overhead (`geminiContentTokens`).
 *
 * @internal
 */
import {
  customTextOf,
  isCustomTextCall,
  objectToolParameters,
  responsesCustomTool,
  responsesToolNames
} from "./customTools.js"
import type { Schema } from "effect"
import * as Block from "../Block.js"
import type * as Message from "../Message.js"
import { anthropicLeavesOut, isImageType } from "./anthropicFiles.js"
import { anthropicSends } from "./anthropicSends.js"
import { inlineFileOf } from "./dataUrlFile.js"
import { geminiTakesUrl } from "./fileUrls.js"
import { keptToolSettings } from "./toolSettings.js"
import type { Provider } from "../Provider.js"
import type * as Request from "../Request.js"
import type { RequestEstimate } from "../TokenEstimator.js"
import { chatRequestOf, isProviderTool } from "./chatRequestOf.js"
import { isReasoningItem } from "./responsesItems.js"
import { geminiSends } from "./geminiSent.js"
import {
  anthropicImageTokens,
  anthropicUnknownSizeImageTokens,
  geminiGeneration,
  geminiImageTokens,
  geminiLevelOfDetail,
  geminiSendsPartResolution,
  imageSizeOfSource
} from "./imageSize.js"
import { pieces, stringify } from "./json.js"
import { isRecord, mapSubschemas } from "./jsonSchema.js"
import { anthropicPdfTokens, geminiPdfPageTokens, isPdf, pdfFactsOfSource, pdfPagesOfSource } from "./pdf.js"
import { geminiVideoTokensPerSecond, isVideo, videoSecondsOfSource, videoTokens } from "./video.js"
import { countChatRequest, promptFormatForModel, type RenderOptions } from "./openAiChatPrompt.js"
import { hintKey, noHints, wireFieldsOf } from "./hint.js"

/** What the estimate is computed from: one estimator's rules. */
export interface Rules {
  /** A text as the estimator counts it. */
  readonly text: (text: string) => number
  /** A text of the rendered OpenAI prompt (the heuristic counts the renderer's fixed scaffolding exactly). */
  readonly promptText: (text: string) => number
  /** A turn header of the rendered OpenAI prompt: a role, an author, a recipient (see `countRenderedPrompt`). */
  readonly promptHeader: (text: string) => number
  /** The message carrying the tools and the response format, with those sections (see `countRenderedPrompt`). */
  readonly promptSections: ((message: string, sections: string) => number) | undefined
  /** A message as the estimator counts it, framing included. */
  readonly message: (message: Message.Message) => number
  /** A block as the estimator counts it. */
  readonly block: (block: Block.Block) => number
  /** Opaque data (signatures, encrypted payloads) as the estimator counts it. */
  readonly opaque: (data: string) => number
  /** The tokens `message` adds to each message for the chat framing (a provider with known framing puts its own). */
  readonly overhead: number
}

/** Options: the provider whose framing applies (default OpenAI Chat) and the model counted for (default the request's). */
export interface Options {
  readonly provider?: Provider | undefined
  readonly model?: string | undefined
}

export const estimate = (rules: Rules, request: Request.Request, options?: Options): RequestEstimate => {
  const provider = options?.provider ?? "openai-chat"
  const model = options?.model ?? request.model
  switch (provider) {
    case "openai-chat":
      return openAiChat(rules, request, model, "openai-chat")
    case "openai-responses":
      return responses(rules, request, model)
    case "anthropic":
      return anthropic(rules, request, model)
    case "gemini":
      return gemini(rules, request, model)
    default:
      provider satisfies never
      // what only an untyped caller can pass (a provider this library does not know): counted as Chat Completions,
      // the generic rendering, never an estimate that is not a number
      return openAiChat(rules, request, model, "openai-chat")
  }
}

const sum = (xs: ReadonlyArray<number>): number => {
  let s = 0
  for (let i = 0; i < xs.length; i++) s += xs[i]!
  return s
}

const done = (
  provider: Provider,
  messages: ReadonlyArray<number>,
  tools: number,
  responseFormat: number,
  framing: number
): RequestEstimate => ({ provider, total: sum(messages) + tools + responseFormat + framing, messages, tools, responseFormat, framing })

/** Whether a provider prices a file as an image: its type, in any case and with any parameters, is `image/...`. */
const isImage = (file: Block.FileBlock): boolean => isImageType(file.mediaType)

/** A provider's price for a file, or `undefined` to keep the estimator's figure for it. */
type FilePrice = (file: Block.FileBlock) => number | undefined

/**
 * A message as the estimator counts it, but with each file (in its content
 * or in a tool result's) at `price` where that gives one, instead of the
 * estimator's figure for it. The estimator counts a file block, alone or in
 * a tool result, at exactly `rules.block(file)`, so taking that off is exact,
 * whatever file rule the estimator was made with.
 */
const withFilesAt = (rules: Rules, message: Message.Message, price: FilePrice, topLevel: FilePrice = price): number => {
  let n = rules.message(message)
  const content: ReadonlyArray<Block.Block> = message.content
  for (let i = 0; i < content.length; i++) {
    const block = content[i]!
    if (block._tag === "File") n += repriced(rules, block, topLevel)
    else if (block._tag === "ToolResult" && typeof block.content !== "string") {
      for (const part of block.content) if (part._tag === "File") n += repriced(rules, part, price)
    }
  }
  return n
}

/** A file the request leaves out. */
const nothing: FilePrice = () => 0

const repriced = (rules: Rules, file: Block.FileBlock, price: FilePrice): number => {
  const p = price(file)
  return p === undefined ? 0 : p - rules.block(file)
}

/**
 * `price` as a provider that sends a file at a base64 `data:` URL as the data it holds (Anthropic, Gemini: see
 * `inlineFileOf`) prices it: as that data given as base64, at the estimator's figure for it where `price` gives none.
 */
const dataUrlsInline = (rules: Rules, price: FilePrice): FilePrice => (file) => {
  const inline = inlineFileOf(file)
  return inline === undefined ? price(file) : price(inline) ?? rules.block(inline)
}

/**
 * `price` as a writer that sends a file given as text as a text file prices it (Gemini: base64 text/plain data): by
 * its text, whatever its type says (an SVG image given as text was priced as an image, 4 times under at 18k
 * characters).
 */
const asText = (rules: Rules, price: FilePrice): FilePrice => (file) => (file.source._tag === "Text" ? rules.text(file.source.text) : price(file))

/**
 * `price` with a document's title and context, which the Anthropic writer sends beside it (an image has neither:
 * the writer leaves them out).
 */
const withDocumentFields = (rules: Rules, price: FilePrice): FilePrice => (file) => {
  const p = price(file)
  if (p === 0 || isImage(file) || (file.title === undefined && file.context === undefined)) return p
  return (p ?? rules.block(file)) + (file.title === undefined ? 0 : rules.text(file.title)) + (file.context === undefined ? 0 : rules.text(file.context))
}

/** A PDF's pages at `perPage` each, when the request holds the file; `undefined` for any other file. */
const pdfPrice = (file: Block.FileBlock, perPage: number): number | undefined => {
  if (!isPdf(file)) return undefined
  const pages = pdfPagesOfSource(file.source)
  return pages === undefined ? undefined : pages * perPage
}

// ---------------------------------------------------------------------------
// OpenAI
// ---------------------------------------------------------------------------

/**
 * How a request for `model` is rendered. The gpt-5 family's preamble and call surcharge were measured on Chat
 * Completions; the Responses API frames requests its own way (a recorded gpt-5 Responses request is already over
 * without them), so it keeps the o200k rendering, item by item as the Responses API reads its input
 * (`RenderOptions.responses`).
 */
const renderOptions = (model: string | undefined, provider: Provider): RenderOptions => {
  if (model === undefined) return provider === "openai-responses" ? { responses: true } : {}
  const format = promptFormatForModel(model)
  if (provider !== "openai-responses") return { format, model }
  return { format: format === "gpt-5" ? "current" : format, model, responses: true }
}

const openAiChat = (rules: Rules, request: Request.Request, model: string | undefined, provider: Provider): RequestEstimate => {
  const { body, starts } = chatRequestOf(request, provider === "openai-responses")
  // the renderer reads the model from the body (what an image costs, how parallel results are written): the body
  // names the model counted for, so that no part of the count is for the request's own model when another was asked
  const counted = countChatRequest(model === undefined ? body : { ...body, model }, rules.promptText, renderOptions(model, provider), rules.promptHeader, rules.promptSections)
  // each input message gets the wire messages written for it
  const messages = new Array<number>(request.messages.length)
  for (let i = 0; i < messages.length; i++) {
    const end = i + 1 < starts.length ? starts[i + 1]! : counted.messages.length
    let s = 0
    for (let w = starts[i]!; w < end; w++) s += counted.messages[w] ?? 0
    messages[i] = s
  }
  return done(provider, messages, counted.tools, counted.responseFormat, counted.framing)
}

/** The JSON text of each value of a list kept as sent (hosted tools), summed. */
const jsonItems = (rules: Rules, items: unknown): number => {
  if (!Array.isArray(items)) return 0
  let s = 0
  for (const item of items as ReadonlyArray<Schema.Json>) s += rules.text(stringify(item))
  return s
}

/** The index of the last message that `holds`, or -1. */
const lastIndexOf = (messages: ReadonlyArray<Message.Message>, holds: (m: Message.Message, i: number) => boolean): number => {
  let i = messages.length - 1
  while (i >= 0 && !holds(messages[i]!, i)) i--
  return i
}

const NO_CALLS: ReadonlySet<string> = new Set()

/** Whether the Anthropic writer sends a block of a message (as `asAnthropicSends` leaves it: its files are the question). */
const sendsABlock = (m: Message.Message): boolean => (m.content as ReadonlyArray<Block.Block>).some((block) => block._tag !== "File" || anthropicSends(block, m.role, NO_CALLS))

/** The thinking (and redacted thinking) of an assistant message, as the estimator counts it. */
const thinkingOf = (rules: Rules, message: Message.Message): number => {
  if (message.role !== "assistant") return 0
  let s = 0
  for (const block of message.content) if (block._tag === "Thinking" || block._tag === "RedactedThinking") s += rules.block(block)
  return s
}

/**
 * The thinking of an assistant message the Responses writer sends as reasoning items (`isReasoningItem`), as the
 * estimator counts it: thinking it leaves out, redacted thinking among it, is not priced.
 */
const reasoningItemsOf = (rules: Rules, message: Message.Message): number => {
  if (message.role !== "assistant") return 0
  let s = 0
  for (const block of message.content) {
    if (isReasoningItem(block)) s += rules.block(block)
    else if (block._tag === "ProviderData" && block.provider === "openai-responses") s += reasoningItemData(rules, block.data)
  }
  return s
}

/**
 * A reasoning item kept as the Responses API's own data (sent as it is), as the estimator counts the thinking block
 * it would be read as: its summary's texts and its encrypted content. Any other item: 0 (priced with the message).
 */
const reasoningItemData = (rules: Rules, data: Schema.Json): number => {
  if (!isRecord(data) || data["type"] !== "reasoning") return 0
  const summary: Array<string> = []
  if (Array.isArray(data["summary"])) for (const part of data["summary"]) if (isRecord(part) && typeof part["text"] === "string") summary.push(part["text"])
  const encrypted = data["encrypted_content"]
  return rules.block(Block.thinking("", undefined, { summary, ...(typeof encrypted === "string" ? { encryptedContent: encrypted } : {}) }))
}

/**
 * On the Responses API, the function definitions or text format of a request
 * in the `"current"` format (gpt-4o, gpt-4.1, the o-series; recorded on the
 * first two) cost fewer tokens than Chat Completions counts for them:
 * 6 when no instructions or system message carries them (Chat makes them a
 * system message of their own), 2 when one does. Recorded first turns
 * (test/data/openai-responses-usage): with instructions or a system or
 * developer message, 18 of 20 exact (five suites; the other two one odd
 * cassette); without, those with definitions 22 of 25 exact (one 1 over, one
 * 9 under, one broken cassette). Later turns, with function calls and
 * outputs, are exact on 42 of 57 (function call items are billed their own
 * way: `RESPONSES_CALL_EXTRA`); a call with the id of a stored item costs
 * what the stored item does, which the request cannot show (one request
 * replayed with new item ids was billed 192, 195 and 197). The gpt-5 family
 * frames them its own way (1 or 2 over; not applied).
 */
const RESPONSES_SECTIONS_SAVING = { standalone: 6, hosted: 2 } as const

/** A system message read from a Responses request's `instructions` whose text is empty. */
const isEmptyInstructions = (message: Message.Message | undefined): boolean =>
  message?.role === "system" && message.providerOptions?.["openai-responses"]?.[hintKey("instructions")] === true &&
  message.content.every((block) => block.text.length === 0)

/** A value without its Chat Completions options. */
const withoutChat = <A extends { readonly providerOptions?: Block.ProviderOptions | undefined }>(value: A): A => {
  if (value.providerOptions?.["openai-chat"] === undefined) return value
  const { "openai-chat": _, ...others } = value.providerOptions
  const { providerOptions: __, ...rest } = value
  return (Object.keys(others).length === 0 ? rest : { ...rest, providerOptions: others }) as A
}

/** A tool call or result with Chat Completions options (a custom call, a deprecated function call or its result). */
const hasChatForm = (block: Block.Block): block is Block.ToolCallBlock | Block.ToolResultBlock => (block._tag === "ToolCall" || block._tag === "ToolResult") && block.providerOptions?.["openai-chat"] !== undefined

/** The Responses fields kept on a value, without the adapter's hints: what the writer adds to the item it sends. */
const keptResponsesFields = (value: { readonly providerOptions?: Block.ProviderOptions | undefined }): Block.JsonObject =>
  wireFieldsOf(value.providerOptions?.["openai-responses"], () => true) ?? {}

/** A tool as the Responses writer sends it: a Chat custom tool as the API's own custom tool where it can, else a function. */
const asResponsesTool = (tool: Request.ToolDefinition): Request.ToolDefinition => {
  const custom = responsesCustomTool(tool)
  if (custom === undefined) {
    // (with the parameters the writer sends: a custom tool whose format has no Responses form takes `{ input }`)
    const parameters = objectToolParameters(tool)
    return parameters === tool.parameters ? withoutChat(tool) : { ...withoutChat(tool), ...(parameters === undefined ? {} : { parameters }) }
  }
  const { type: _, ...config } = { ...custom, ...keptResponsesFields(tool) }
  return { name: tool.name, providerDefined: { provider: "openai-responses", type: "custom", config } } as Request.ToolDefinition
}

/** A custom tool's call as the Responses writer sends it: the API's own `custom_tool_call` item, priced as one read back is. */
const customCallItem = (call: Block.ToolCallBlock, input: string): Block.ProviderDataBlock =>
  Block.providerData("openai-responses", {
    type: "custom_tool_call",
    call_id: call.id,
    name: call.name,
    input,
    // (the item id of a call read as a function call is no custom call's: the writer leaves it out)
    ...(call.itemId === undefined || !isCustomTextCall(call) ? {} : { id: call.itemId }),
    ...keptResponsesFields(call)
  })

/**
 * A request as `OpenAiResponses.toRequest` writes it, for the Chat rendering
 * to read: without the forms Chat Completions keeps for its own body, which
 * the Responses writer does not write (a tool list or tool choice kept as
 * sent, the deprecated `functions` and `function_call`, custom tools and
 * calls, function messages, a tool message's name). A custom tool goes to Responses as the API's own custom tool
 * (as a function tool when its format has no Responses form) and its calls with their input text as the API's own
 * custom calls, priced as the items are when read back; their results are priced as function outputs.
 */
const asResponsesWrites = (request: Request.Request): Request.Request => {
  const tools = request.tools?.some((t) => t.providerOptions?.["openai-chat"] !== undefined) === true ? request.tools.map(asResponsesTool) : request.tools
  let messages = request.messages
  // (a call another format made of a custom tool with `{ input }` goes as a custom call of that text too)
  const names = responsesToolNames(request.tools)
  const asSent = (b: Block.Block): Block.Block => {
    const text = customTextOf(b, names)
    if (text !== undefined) return customCallItem(b as Block.ToolCallBlock, text)
    // (a custom call of a tool sent as a function goes as a function call of `{ input }`)
    if (isCustomTextCall(b)) {
      const { rawArgs: _, ...call } = withoutChat(b)
      return { ...call, args: { input: b.args } } as Block.ToolCallBlock
    }
    return hasChatForm(b) ? withoutChat(b) : b
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    // a tool message's own Chat fields (a `name` heading its results) are not written either
    const own = m.role === "tool" && m.providerOptions?.["openai-chat"] !== undefined
    const blocks = (m.role === "assistant" || m.role === "tool") && (m.content as ReadonlyArray<Block.Block>).some((b) => asSent(b) !== b)
    if (!own && !blocks) continue
    if (messages === request.messages) messages = messages.slice()
    const content = blocks ? (m.content as ReadonlyArray<Block.Block>).map(asSent) : m.content
    ;(messages as Array<Message.Message>)[i] = { ...(own ? withoutChat(m) : m), content } as Message.Message
  }
  if (tools === request.tools && messages === request.messages && request.providerOptions?.["openai-chat"] === undefined) return request
  return { ...withoutChat(request), messages, ...(tools === undefined ? {} : { tools }) } as Request.Request
}

/**
 * A JSON schema response format kept as it was sent (`format` as the provider spells it: one with a field the
 * model has no place for stays in `providerOptions`), as the response format it is for the count, or `undefined`.
 * It reaches the model as the same schema: leaving it out put a request with one extra field of its format 40 to
 * 190 tokens under.
 */
const keptSchemaFormat = (format: unknown, name: string): Request.ResponseFormat | undefined => {
  if (!isRecord(format) || format["type"] !== "json_schema" || !isRecord(format["schema"])) return undefined
  const { description, strict } = format
  return {
    _tag: "JsonSchema",
    name: typeof format["name"] === "string" ? format["name"] : name,
    schema: format["schema"] as Block.JsonObject,
    ...(typeof description === "string" ? { description } : {}),
    ...(typeof strict === "boolean" ? { strict } : {})
  }
}

const responses = (rules: Rules, written: Request.Request, model: string | undefined): RequestEstimate => {
  const asWritten = asResponsesWrites(written)
  const text = asWritten.providerOptions?.["openai-responses"]?.["text"]
  const kept = asWritten.responseFormat === undefined && isRecord(text) ? keptSchemaFormat(text["format"], "response") : undefined
  const request = kept === undefined ? asWritten : { ...asWritten, responseFormat: kept }
  // Empty `instructions` reach the model as nothing, not as an empty system message (2 recorded gpt-5 requests,
  // 5 and 7 tokens over with one).
  if (isEmptyInstructions(request.messages[0])) {
    const rest = responses(rules, { ...request, messages: request.messages.slice(1) }, model)
    return { ...rest, messages: [0, ...rest.messages] }
  }
  const chat = openAiChat(rules, request, model, "openai-responses")
  const current = model !== undefined && promptFormatForModel(model) === "current" && (chat.tools > 0 || chat.responseFormat > 0)
  const saving = !current ? 0 : request.messages[0]?.role === "system" ? RESPONSES_SECTIONS_SAVING.hosted : RESPONSES_SECTIONS_SAVING.standalone
  // reasoning items are input items here (Chat Completions has none), but only those of the current turn reach
  // the model: the API drops reasoning from before the newest user message
  // (the newest user message the writer sends: one it leaves out, of files it cannot send, is no turn; a message
  // written costs its framing at least, one left out nothing)
  const lastUser = lastIndexOf(request.messages, (m, i) => m.role === "user" && (chat.messages[i] ?? 0) > 0)
  const messages = chat.messages.map((n, i) => (i > lastUser ? n + reasoningItemsOf(rules, request.messages[i]!) : n))
  // the saving comes off the first section (the definitions when there are any)
  const functionTools = chat.tools > 0 ? Math.max(0, chat.tools - saving) : 0
  const responseFormat = chat.tools > 0 ? chat.responseFormat : Math.max(0, chat.responseFormat - saving)
  // hosted tools (web search, file search, ...), which Chat Completions leaves out, by their definition as sent
  let tools = functionTools + jsonItems(rules, request.providerOptions?.["openai-responses"]?.["tools"])
  for (const tool of request.tools ?? []) {
    const defined = tool.providerDefined
    if (defined?.provider === "openai-responses") tools += rules.text(stringify({ type: defined.type, ...defined.config }))
  }
  return done("openai-responses", messages, tools, responseFormat, chat.framing)
}

// ---------------------------------------------------------------------------
// Anthropic
// ---------------------------------------------------------------------------

/**
 * The tool-use system prompt Anthropic adds when a request has tools, per
 * model and tool choice: [auto or none, any or a named tool], in tokens.
 *
 * Source: Anthropic's tool use documentation, "Pricing"
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview#pricing,
 * as published in August 2026; Claude 3.x figures from its 2025 versions).
 * Earlier versions of the page gave 346 / 313 for every Claude 4 model; the
 * current one gives the figures below.
 */
const TOOL_USE_SYSTEM_PROMPT: ReadonlyArray<readonly [family: string, version: string, auto: number, any: number]> = [
  ["opus", "5", 286, 406],
  ["opus", "4.8", 290, 410],
  ["opus", "4.7", 675, 804],
  ["opus", "4.6", 497, 589],
  ["opus", "4.5", 496, 588],
  ["opus", "4.1", 313, 315],
  ["opus", "4", 313, 315],
  ["sonnet", "5", 354, 474],
  ["sonnet", "4.6", 497, 589],
  ["sonnet", "4.5", 496, 588],
  ["sonnet", "4", 313, 315],
  ["sonnet", "3.7", 346, 313],
  ["sonnet", "3.5-oct", 346, 313],
  ["sonnet", "3.5-jun", 294, 261],
  ["sonnet", "3", 159, 235],
  ["haiku", "4.5", 496, 588],
  ["haiku", "3.5", 264, 355],
  ["haiku", "3", 264, 340],
  ["opus", "3", 530, 281]
]

/** For a Claude model the table does not know: the figures of the current mid-size models. */
const DEFAULT_TOOL_USE_SYSTEM_PROMPT: readonly [number, number] = [497, 589]

/**
 * Documented extra input tokens of Anthropic-schema client tools, by the
 * start of their `type` (bash: 325 on Opus 5, 4.8 and 4.7, 244 before; text
 * editor: 700; computer use: 735 per definition, and 466–499 tokens of
 * system prompt, counted here at 499). Sources: the bash, text editor and
 * computer use tool pages of Anthropic's documentation
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/bash-tool,
 * .../text-editor-tool, .../computer-use-tool, August 2026).
 */
const TEXT_EDITOR_TOKENS = 700
const COMPUTER_TOOL_TOKENS = 735
const COMPUTER_SYSTEM_PROMPT_TOKENS = 499
const bashTokens = (family: Family | undefined): number => (atLeast(family, "opus", 4, 7) ? 325 : 244)

/**
 * Input Anthropic adds beyond what a request shows, measured on requests that
 * four public test suites recorded from the live API in 2025–26 (the first
 * four of test/data/anthropic-usage's five; Anthropic does not document
 * these):
 *
 * - extended thinking (`thinking: { type: "enabled" }`): 32 tokens (31 to 36
 *   over the estimate on 18 of 21 requests, Claude 3.7 Sonnet to Sonnet 4.6,
 *   from four suites; the other three hold content the estimate misjudges);
 * - a structured output format (`output_config.format`): 142 tokens beyond
 *   the schema's own JSON (134 to 144 on the 6 requests without tools,
 *   Sonnet 4.5 and 4.6, from three suites). Sixteen more, all but one from
 *   the fifth suite, give theirs in the beta's top-level `output_format`,
 *   which the adapter reads the same way: 127 to 166 on 8 of the 9 of those
 *   without tools (the ninth, a schema with `$defs`, 236).
 *
 * Like the tool-use system prompt, they are framing: the provider's own
 * tokens, not scaled by a calibrated estimator.
 */
const EXTENDED_THINKING_TOKENS = 32
const STRUCTURED_OUTPUT_TOKENS = 142

/** Whether an Anthropic request asks for extended thinking with a budget (`thinking.type` "enabled"). */
const extendedThinking = (request: Request.Request): boolean => {
  const thinking = request.providerOptions?.["anthropic"]?.["thinking"]
  return isRecord(thinking) && thinking["type"] === "enabled"
}

interface Family {
  readonly family: string
  /** "4.5", "4", "3.5-jun": as the documented tables name it. */
  readonly version: string
  readonly major: number
  readonly minor: number
}

/** Whether a model is of `family` at `major.minor` or later, the minor compared as a number (4.10 after 4.7). */
const atLeast = (model: Family | undefined, family: string, major: number, minor: number): boolean =>
  model !== undefined && model.family === family && (model.major > major || (model.major === major && model.minor >= minor))

/**
 * The family and version of a Claude model id: `claude-sonnet-4-5-20250929`
 * is sonnet 4.5, `claude-3-5-sonnet-20240620` sonnet 3.5 (June),
 * `us.anthropic.claude-opus-4-1-v1:0` opus 4.1, `claude-opus-4-10` opus
 * 4.10, `anthropic/claude-opus-4.7` (a router's id) opus 4.7. A date
 * (`-20250514`) is not a minor version.
 */
export const claudeFamily = (model: string | undefined): Family | undefined => {
  if (model === undefined) return undefined
  const m = model.toLowerCase()
  const modern = /claude-(opus|sonnet|haiku)-(\d+)(?:[-.](\d{1,2})(?!\d))?/.exec(m)
  if (modern !== null) {
    const major = Number(modern[2])
    const minor = modern[3] === undefined ? 0 : Number(modern[3])
    return { family: modern[1]!, version: minor === 0 ? String(major) : `${major}.${minor}`, major, minor }
  }
  const legacy = /claude-(\d)(?:[-.](\d))?-(opus|sonnet|haiku)(?:[-@](\d{8}))?/.exec(m)
  if (legacy !== null) {
    const major = Number(legacy[1])
    const minor = legacy[2] === undefined ? 0 : Number(legacy[2])
    const version = minor === 0 ? String(major) : `${major}.${minor}`
    if (legacy[3] === "sonnet" && version === "3.5") return { family: "sonnet", version: legacy[4] === "20240620" ? "3.5-jun" : "3.5-oct", major, minor }
    return { family: legacy[3]!, version, major, minor }
  }
  return undefined
}

/** The documented tool-use system prompt for a model and tool choice, in tokens. */
export const anthropicToolUseSystemPrompt = (model: string | undefined, choice: Request.ToolChoice | undefined): number => {
  const family = claudeFamily(model)
  let figures: readonly [number, number] = DEFAULT_TOOL_USE_SYSTEM_PROMPT
  if (family !== undefined) {
    for (const [f, v, auto, any] of TOOL_USE_SYSTEM_PROMPT) {
      if (f === family.family && v === family.version) {
        figures = [auto, any]
        break
      }
    }
  }
  const forced = choice !== undefined && (choice === "required" || typeof choice !== "string")
  return forced ? figures[1] : figures[0]
}

/** A client tool as Anthropic receives it: name, description, input schema and the examples of its input. */
const anthropicToolText = (tool: Request.ToolDefinition): string => {
  // examples of the tool's input, kept from Anthropic's definition, are sent and shown to the model
  const examples = tool.providerOptions?.["anthropic"]?.["input_examples"]
  return stringify({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    input_schema: objectToolParameters(tool) ?? { type: "object", properties: {} },
    ...(examples === undefined || examples === null ? {} : { input_examples: examples })
  })
}

/**
 * Whether a Claude model keeps the thinking of earlier turns in its input:
 * Opus 4.5 and later, Sonnet 4.6 and later do; earlier Opus and Sonnet
 * models and every Haiku strip it (Anthropic's context windows page,
 * https://platform.claude.com/docs/en/build-with-claude/context-windows).
 * An unknown model is taken to keep it (the larger estimate).
 */
const keepsEarlierThinking = (family: Family | undefined): boolean => {
  if (family === undefined) return true
  switch (family.family) {
    case "opus":
      return atLeast(family, "opus", 4, 5)
    case "sonnet":
      return atLeast(family, "sonnet", 4, 6)
    default:
      return false
  }
}

/**
 * Whether a Claude model reads images at high resolution (Opus 4.7 and
 * later: see `anthropicImageTokens`). An unknown model is not: most models
 * in service read them at the standard resolution, and its figures are
 * Anthropic's own worked examples.
 */
const readsHighResolutionImages = (family: Family | undefined): boolean =>
  atLeast(family, "opus", 4, 7)

/**
 * A file as Claude prices it: nothing when the writer leaves it out
 * (`anthropicLeavesOut`); an image by its size when the request shows it,
 * else the most an image costs on the model; a PDF the request holds by its
 * pages and its text (`anthropicPdfTokens`).
 */
const anthropicFilePrice = (highResolution: boolean): FilePrice => {
  return (file) => {
    if (anthropicLeavesOut(file)) return 0
    // the writer's reading: a media type in any case (IMAGE/PNG is an image); a PDF by its pages and its text
    if (!isImageType(file.mediaType)) {
      const facts = isPdf(file) ? pdfFactsOfSource(file.source) : undefined
      return facts === undefined ? undefined : anthropicPdfTokens(facts, highResolution)
    }
    const size = imageSizeOfSource(file.source)
    return size === undefined ? anthropicUnknownSizeImageTokens(highResolution) : anthropicImageTokens(size, highResolution)
  }
}

/**
 * A message as the Anthropic writer sends it, for the estimate: without the blocks it leaves out (`anthropicSends`:
 * another provider's data, calls it ran and their results, unsigned thinking, a client tool's result in an assistant
 * message...) and without a participant name; its files stay, priced by the file price (nothing when left out). The
 * message itself when the writer sends all of it.
 */
const asAnthropicSends = (m: Message.Message): Message.Message => {
  const foreign = new Set<string>()
  const content: ReadonlyArray<Block.Block> = m.content
  let kept: Array<Block.Block> | undefined
  for (let b = 0; b < content.length; b++) {
    const block = content[b]!
    const sent = block._tag === "File" || anthropicSends(block, m.role, foreign)
    if (!sent && block._tag === "ToolCall" && block.providerExecuted === true) foreign.add(block.id)
    // a Chat custom call's text goes as the input's one string, `{ input }`, as the writer sends it
    const asSent = sent && isCustomTextCall(block)
      ? Block.toolCall(block.id, block.name, { input: block.args })
      : block
    if (!sent || asSent !== block) kept ??= content.slice(0, b)
    if (sent) kept?.push(asSent)
  }
  return withoutName(m, kept)
}

/** `m` with `content` in place of its own (when given), without its participant name, which neither Anthropic nor Gemini sends. */
const withoutName = (m: Message.Message, content: ReadonlyArray<Block.Block> | undefined): Message.Message => {
  if (content === undefined && (m.role === "tool" || m.name === undefined)) return m
  const { name: _, ...rest } = m as Message.Message & { readonly name?: string }
  return { ...rest, content: content ?? m.content } as Message.Message
}

/**
 * The first message whose thinking is input to Claude: 0 on a model that keeps the thinking of earlier turns, else
 * the newest user message the writer sends a block of (one of files it leaves out is no turn): the thinking of the
 * turns before it is not input any more.
 */
const thinkingInputFrom = (family: Family | undefined, asSent: ReadonlyArray<Message.Message>, sends: ReadonlyArray<boolean>): number =>
  keepsEarlierThinking(family) ? 0 : Math.max(0, lastIndexOf(asSent, (m, i) => m.role === "user" && sends[i] === true))

/**
 * For each message of a request, whether its thinking is left out of what the provider counts as input (Claude
 * models that strip the thinking of earlier turns), or `undefined` when none is: a window that prices a message by
 * its own estimate as well as its rendering leaves that thinking out of its own estimate too.
 */
export const thinkingLeftOut = (request: Request.Request, options?: Options): ReadonlyArray<boolean> | undefined => {
  if (options?.provider !== "anthropic") return undefined
  const family = claudeFamily(options.model ?? request.model)
  if (keepsEarlierThinking(family)) return undefined
  const asSent = request.messages.map(asAnthropicSends)
  const from = thinkingInputFrom(family, asSent, asSent.map(sendsABlock))
  return from === 0 ? undefined : request.messages.map((_, i) => i < from)
}

const anthropic = (rules: Rules, request: Request.Request, model: string | undefined): RequestEstimate => {
  const family = claudeFamily(model)
  const price = withDocumentFields(rules, dataUrlsInline(rules, anthropicFilePrice(readsHighResolutionImages(family))))
  const asSent = request.messages.map(asAnthropicSends)
  const sends = asSent.map(sendsABlock)
  // the writer leaves out the files of assistant messages (not those of the results of server tools they hold)
  const messages = asSent.map((m, i) =>
    // a message of which the writer sends no block is left out whole
    request.messages[i]!.content.length > 0 && !sends[i] ? 0 : withFilesAt(rules, m, price, m.role === "assistant" ? nothing : price)
  )
  const lastUser = thinkingInputFrom(family, asSent, sends)
  for (let i = 0; i < lastUser; i++) messages[i] = messages[i]! - thinkingOf(rules, asSent[i]!)
  let tools = 0
  let framing = 0
  let computer = false
  let sent = 0
  const sentNames: Array<string> = []
  const list = request.tools ?? []
  for (const tool of list) {
    const defined = tool.providerDefined
    // another provider's tool is not sent to Anthropic
    if (defined !== undefined && defined.provider !== "anthropic") continue
    sentNames.push(tool.name)
    const type = defined !== undefined ? defined.type : tool.providerOptions?.["anthropic"]?.["type"]
    if (typeof type === "string" && type.startsWith("bash_")) tools += bashTokens(family)
    else if (typeof type === "string" && type.startsWith("text_editor_")) tools += TEXT_EDITOR_TOKENS
    else if (typeof type === "string" && /^computer_\d/.test(type)) {
      tools += COMPUTER_TOOL_TOKENS
      computer = true
    } else if (typeof type === "string" && type !== "custom") {
      // a server tool (web search, code execution, ...): its definition as sent, the only figure known
      // kept the older way: its Anthropic fields by their wire names, as the writer sends them
      const config = defined !== undefined ? { ...defined.config, type } : wireFieldsOf(tool.providerOptions?.["anthropic"], noHints)
      tools += rules.text(stringify({ ...config, name: tool.name }))
    } else tools += rules.text(anthropicToolText(tool))
    sent++
  }
  // as the writer does: a named choice of a tool that is not sent is not sent either
  if (sent > 0) framing += anthropicToolUseSystemPrompt(model, keptToolSettings(request, { names: sentNames, any: true }).toolChoice)
  if (computer) framing += COMPUTER_SYSTEM_PROMPT_TOKENS
  if (extendedThinking(request)) framing += EXTENDED_THINKING_TOKENS
  const kept = request.providerOptions?.["anthropic"]
  const config = kept?.["output_config"]
  const format = request.responseFormat ?? keptSchemaFormat(isRecord(config) && config["format"] !== undefined ? config["format"] : kept?.["output_format"], "response")
  let responseFormat = 0
  if (format !== undefined && format._tag === "JsonSchema") {
    responseFormat = rules.text(stringify(format.schema))
    framing += STRUCTURED_OUTPUT_TOKENS
  }
  return done("anthropic", messages, tools, responseFormat, framing)
}

// ---------------------------------------------------------------------------
// Gemini
// ---------------------------------------------------------------------------

/**
 * A JSON text as Gemini writes function declarations, calls and responses
 * into the prompt, in the format Google published for FunctionGemma: keys
 * bare, each string value between one-token `<escape>` marks, the whole
 * between one-token start and end marks
 * (`<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>`):
 * the estimator's count of the text, plus the marks. Measured with Gemma 3's
 * tokenizer on test/data/gemini-usage (`scripts/gemini-function-format.mjs`):
 * the declarations of all 19 Gemini 3 requests with tools and no function
 * parts bill exactly so, and every call and response without a thought
 * signature in Gemini 2.5 and 3 requests within 8 tokens (13 of 30 2.5
 * requests exact). Gemini 2.5 writes declarations another way
 * (`gemini25DeclarationTokens`); 2.0 bills little more than the text of
 * names, descriptions and property names.
 */
const geminiFunctionTokens = (rules: Rules, head: string, json: string, frame: number): number => {
  let marks = 2
  let values = head
  // the 16 million pieces of a schema a million levels deep, held to the end, cost a second more
  const text = pieces()
  text.add(head)
  let from = 0
  // a scan, not a pattern: a pattern's backtracking overflows the stack on a string of megabytes
  for (let open = json.indexOf("\""); open >= 0; open = json.indexOf("\"", from)) {
    // the string ends at the next quote after an even run of backslashes (b, the last character before the run)
    let close = open
    let b: number
    do {
      b = close = json.indexOf("\"", close + 1)
      while (json.charCodeAt(--b) === 92);
    } while ((close - b) % 2 === 0)
    if (close < 0) close = json.length
    const string = json.slice(open + 1, close)
    // the text is what frame-based models read; the others read the values alone
    if (frame) text.add(json.slice(from, open), string)
    // a value, not a key: between marks
    if (json.charCodeAt(close + 1) !== 58) {
      marks += 2
      if (!frame) values += ` ${string}`
    }
    from = close + 1
  }
  text.add(json.slice(from))
  return frame ? rules.text(text.text()) + marks : rules.text(values)
}

/**
 * A declaration's JSON as Gemini bills it: with its description, none when
 * it is empty (FunctionGemma's format leaves an empty one out: the 19
 * recorded Gemini 3 requests with declarations and no function parts bill
 * so, where writing it put the ones without a description 4 tokens over;
 * Gemini 2.5's declarations bill an empty one, `gemini25DeclarationTokens`),
 * `$ref`s to `$defs` written out where they stand (a recursive one three
 * levels deep), without `additionalProperties: false`, `$schema` or empty
 * `properties`.
 */
const geminiDeclarationJson = (tool: Request.ToolDefinition, passes = 3): string => {
  const { $defs, $schema, definitions, ...schema } = (objectToolParameters(tool) ?? {}) as { readonly [key: string]: Schema.Json }
  const defs = ($defs ?? definitions ?? {}) as { readonly [key: string]: Schema.Json }
  // Gemini 2.5's five passes are read 64 levels deep and no further: cut at 500 (a schema a million levels deep took
  // seconds to write out and read back), not the definitions, whose length decides whether they are written out
  const parameters = passes > 3 ? upTo(schema, 500) as Schema.Json : schema
  let json = stringify(tool.description === undefined || tool.description === "" ? { parameters } : { description: tool.description, parameters })
  // references can multiply a schema without bound: past 8 times its text (and 64 KB) they stay as written
  let room = 8 * json.length + 65_536
  for (let pass = 0; pass < passes; pass++) {
    json = json.replace(/"\$ref":"#\/(?:\$defs|definitions)\/([^"]*)"/g, (ref, name: string) => {
      // past the room nothing more is written out: a definition is not written again (at each reference, in each
      // pass) only to be left out
      const written = room < 0 || !Object.hasOwn(defs, name) ? ref : stringify(defs[name]!).slice(1, -1)
      return (room -= written.length) < 0 ? ref : written
    })
  }
  return json.replace(/"additionalProperties":false|"properties":\{\}/g, "").replace(/,(?=[,}])/g, "").replace(/\{,/g, "{")
}

/** A schema with its subschemas below `levels` left empty. */
const upTo = (schema: unknown, levels: number): unknown =>
  !isRecord(schema) ? schema : levels > 0 ? mapSubschemas(schema, (sub) => upTo(sub, levels - 1)) : {}

/**
 * A declaration as Gemini 2.5 bills it, not in FunctionGemma's format (that
 * is within 3 tokens on 1 of 43 recorded requests): 18 tokens, the name and
 * the description, then for each property at any depth its name, its
 * description less 1 and 10 more, and 44 more for each object with
 * properties of its own below the top (a property's, an array's items);
 * `$ref`s written out where they stand, in five passes. Measured with Gemma
 * 3's tokenizer on the 31 distinct tool sets sent to Gemini 2.5 without
 * function parts in test/data/gemini-usage (`scripts/gemini-function-format.mjs`):
 * 19 exact, 25 within 3 tokens, 29 within 8 (the 44 is the middle of the
 * nested ones); a recursive schema is 35 under (of 741; 122 under in three
 * passes) and a 3,900-token description 2% under. Enum values are counted
 * as their text, a guess: no recorded set has one.
 */
const gemini25DeclarationTokens = (rules: Rules, tool: Request.ToolDefinition): number => {
  let n = rules.text(tool.name) + rules.text(tool.description ?? "") + 18
  const walk = (s: unknown, level: number): void => {
    if (!isRecord(s) || level > 64) return
    const properties = s["properties"]
    if (typeof properties === "object" && properties !== null) {
      const entries = Object.entries(properties)
      for (const [key, p] of entries) {
        const d = (p as { readonly description?: unknown } | null)?.description
        n += rules.text(key) + 10 + (typeof d === "string" ? rules.text(d) - 1 : 0)
        walk(p, level + 1)
      }
      if (level > 0 && entries.length > 0) n += 44
    }
    for (const x of [s["items"], s["anyOf"], s["oneOf"]].flat()) walk(x, level + 1)
    // a value that is not a string as its JSON (never `join`'s own rendering, which recurses through nested arrays)
    if (Array.isArray(s["enum"])) n += rules.text(s["enum"].map((v: Schema.Json) => (typeof v === "string" ? v : stringify(v))).join(" "))
  }
  // the parameters as Gemini 3 would write them, references written out in five passes (and no further than that
  // allows); as given where that is not JSON (a reference to a definition that is not an object)
  let parameters: unknown = objectToolParameters(tool)
  try {
    parameters = (JSON.parse(geminiDeclarationJson(tool, 5)) as { readonly parameters: unknown }).parameters
  } catch {
    // the references stay as written
  }
  walk(parameters, 0)
  return n
}

/**
 * Whether a Gemini model bills the thought signatures sent back to it. Not
 * documented: on recorded traffic, Gemini 3 requests cost their signatures
 * as opaque data (within 2% of the reported figure) and Gemini 2.x requests
 * nothing for them (exactly the same figure with 4,820 characters of
 * signatures).
 */
const billsThoughtSignatures = (model: string | undefined): boolean => (geminiGeneration(model) ?? 0) >= 3

const signaturesOf = (rules: Rules, message: Message.Message): number => {
  let s = 0
  for (const block of message.content) {
    // (of a block the writer sends: thinking with another provider's replay data goes without its signature too)
    if ((block._tag === "Text" || block._tag === "Thinking" || block._tag === "ToolCall") && block.thoughtSignature !== undefined && geminiSends(block, message.role)) {
      s += rules.opaque(block.thoughtSignature)
    }
  }
  return s
}

/** The media resolution of a request's `generationConfig`, as kept by the Gemini adapter. */
const requestMediaResolution = (request: Request.Request): unknown => {
  const config = request.providerOptions?.["gemini"]?.["generationConfig"]
  return isRecord(config) ? config["mediaResolution"] : undefined
}

/** The longest proto3 duration: 10,000 years. */
const MAX_DURATION_SECONDS = 315_576_000_000

/** Seconds written as a proto3 JSON duration (`"1.5s"`), or `undefined`. */
const durationSeconds = (value: unknown): number | undefined => {
  const match = typeof value === "string" ? /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(value) : null
  const seconds = match === null ? Number.NaN : Number(match[1])
  // proto3 durations stop at 10,000 years: a longer one is not a duration
  return seconds <= MAX_DURATION_SECONDS ? seconds : undefined
}

/** A part's `videoMetadata` as the Gemini adapter keeps it (in either spelling): its frame rate and clip offsets. */
const videoMetadata = (file: Block.FileBlock): { readonly fps?: number; readonly start: number; readonly end?: number } => {
  const options = file.providerOptions?.["gemini"]
  const meta = options?.["videoMetadata"] ?? options?.["video_metadata"]
  if (!isRecord(meta)) return { start: 0 }
  const fps = meta["fps"]
  const end = durationSeconds(meta["endOffset"] ?? meta["end_offset"])
  return {
    ...(typeof fps === "number" ? { fps } : {}),
    start: durationSeconds(meta["startOffset"] ?? meta["start_offset"]) ?? 0,
    ...(end === undefined ? {} : { end })
  }
}

/**
 * A video as Gemini prices it: the seconds of it the part asks for (its
 * `videoMetadata` offsets) at the model's price for a second at
 * `resolution` and the part's frame rate. The duration of a video the
 * request holds is read from it; of one by reference (an uploaded file, a
 * URL), only an end offset shows it. `undefined` for any other file, or a
 * video by reference without an end offset.
 */
const geminiVideoPrice = (file: Block.FileBlock, model: string | undefined, resolution: unknown): number | undefined => {
  if (!isVideo(file)) return undefined
  const meta = videoMetadata(file)
  // offsets that select nothing (an end before the start) are not read: the API refuses them, or reads the whole video
  const { end, fps, start } = meta.end !== undefined && meta.end <= meta.start ? { ...meta, start: 0, end: undefined } : meta
  const seconds = videoSecondsOfSource(file.source) ?? end
  if (seconds === undefined) return undefined
  const clipped = Math.max(0, Math.min(seconds, end ?? seconds) - Math.min(seconds, start))
  return videoTokens(clipped, geminiVideoTokensPerSecond(model, resolution, fps))
}

/**
 * A file as Gemini prices it, at the part's media resolution, else the request's: an image, a PDF the request holds by
 * its pages, a video by its duration; nothing for a file the writer leaves out (by file id, or at a URI Gemini refuses:
 * a base64 data: URL is priced as the data it holds, `dataUrlsInline`). The part's media resolution is the one it keeps
 * from Gemini, else, where the writer sends one for it (`sendsDetail`), the one its `detail` asks for.
 */
const geminiFilePrice = (model: string | undefined, requestResolution: unknown, topLevel: boolean): FilePrice => (file) => {
  const source = file.source
  if (source._tag === "FileId" || (source._tag === "Url" && !geminiTakesUrl(source.url))) return 0
  // the writer's own rule: a detail read from Gemini's own media resolution (the adapter's hint) goes back unless the
  // model is one before Gemini 3
  const sent = topLevel && geminiSendsPartResolution(model, file.providerOptions?.["gemini"]?.[hintKey("mediaResolution")] === true)
  const resolution = file.providerOptions?.["gemini"]?.["mediaResolution"] ?? (sent ? geminiLevelOfDetail(file.detail) : undefined) ?? requestResolution
  if (isImage(file)) return geminiImageTokens(imageSizeOfSource(file.source), model, resolution)
  return pdfPrice(file, geminiPdfPageTokens(model, resolution)) ?? geminiVideoPrice(file, model, resolution)
}

/**
 * The tokens Gemini adds for each content (and for the system instruction):
 * 1 on Gemini 2.5 and later (and a model it does not name), none on 1.5 and
 * 2.0. Measured, not documented: Gemma 3's published tokenizer plus this
 * framing gives the reported prompt tokens of every one of the 76 recorded
 * text-only requests to 2.5 and later (test/data/gemini-usage).
 */
const geminiContentTokens = (model: string | undefined): number => (model !== undefined && /gemini-(1\.|2\.0)|gemma/i.test(model) ? 0 : 1)

/**
 * A tool result's `functionResponse` as Gemini bills it, as the Gemini adapter writes it (files aside): a
 * single JSON object is the response itself, no content an empty one, anything else its text
 * (`Block.resultContentText`) under `output`, or `error` for an error.
 */
const geminiResponseTokens = (rules: Rules, result: Block.ToolResultBlock, frame: number): number => {
  const content = typeof result.content === "string" ? result.content : result.content.filter((p) => p._tag !== "File")
  const only = content[0]
  const head = `response:${result.toolName}`
  if (typeof content !== "string" && content.length === 0) return geminiFunctionTokens(rules, head, "{}", frame)
  if (content.length === 1 && typeof only === "object" && only._tag === "Json" && isRecord(only.value)) {
    return geminiFunctionTokens(rules, head, stringify(only.value), frame)
  }
  // a text as a JSON string, escapes and all (counted raw, the recorded requests were 0.7% further under at the median):
  // one string value under one key, so written as geminiFunctionTokens writes it without scanning megabytes for quotes
  const text = stringify(Block.resultContentText(content)).slice(1, -1)
  return frame ? rules.text(`${head}{${result.isError ? "error" : "output"}:${text}}`) + 4 : rules.text(`${head} ${text}`)
}

/**
 * A message as Gemini bills it: its function calls and responses as
 * Gemini renders them (`geminiFunctionTokens`), and not also as the
 * estimator counts them (a result of megabytes is read once), the other
 * blocks as the estimator counts them, every file at `price`, and 1 token a
 * content (`frame`) instead of the estimator's message overhead.
 */
const geminiMessage = (rules: Rules, m: Message.Message, price: FilePrice, topLevel: FilePrice, frame: number): number => {
  let n = 0
  const content: ReadonlyArray<Block.Block> = m.content
  let dropped = m.role !== "tool" && m.name !== undefined
  const rest = content.filter((b) => {
    if (!geminiSends(b, m.role)) dropped = true
    else if (b._tag === "ToolCall" && b.providerExecuted !== true) {
      // (a Chat custom call's text as the args' one string, `{ input }`, as the writer sends it)
      const args = isCustomTextCall(b) ? stringify({ input: b.args }) : b.rawArgs ?? stringify(b.args)
      n += geminiFunctionTokens(rules, `call:${b.name}`, args, frame)
    }
    else if (b._tag === "ToolResult" && b.providerExecuted !== true) {
      n += geminiResponseTokens(rules, b, frame)
      if (typeof b.content !== "string") for (const p of b.content) if (p._tag === "File") n += price(p) ?? rules.block(p)
    } else return true
    return false
  })
  // a message without function parts, of which the writer sends all, is the estimator's own (and memoized) figure
  const sent = rest.length === content.length && !dropped ? m : withoutName(m, rest)
  return withFilesAt(rules, sent, price, topLevel) + frame - rules.overhead + n
}

const gemini = (rules: Rules, request: Request.Request, model: string | undefined): RequestEstimate => {
  const signatures = billsThoughtSignatures(model)
  // a content's file may go with its detail as a media resolution; a function response's files have none
  const price = asText(rules, dataUrlsInline(rules, geminiFilePrice(model, requestMediaResolution(request), false)))
  const topLevel = asText(rules, dataUrlsInline(rules, geminiFilePrice(model, requestMediaResolution(request), true)))
  const frame = geminiContentTokens(model)
  const messages = request.messages.map((m) => geminiMessage(rules, m, price, topLevel, frame) + (signatures ? signaturesOf(rules, m) : 0))
  let tools = 0
  for (const tool of request.tools ?? []) {
    const defined = tool.providerDefined
    // a tool Gemini runs (Google Search, code execution, ...) by its entry as sent; another provider's is not sent,
    // Anthropic's kept the older way (its type among its options) included
    if (defined === undefined && isProviderTool(tool)) continue
    if (defined === undefined) {
      tools += model !== undefined && /gemini-2\.5/i.test(model)
        ? gemini25DeclarationTokens(rules, tool)
        : geminiFunctionTokens(rules, `declaration:${tool.name}`, geminiDeclarationJson(tool), frame)
    }
    else if (defined.provider === "gemini") tools += rules.text(stringify({ [defined.type]: defined.config ?? {} }))
  }
  tools += jsonItems(rules, request.providerOptions?.["gemini"]?.["tools"])
  // A response schema is not part of the prompt Gemini reports: on the 32 recorded requests with one (gemini-2.0-flash,
  // 2.5-flash, 3-flash, 3-pro; test/data/gemini-usage), counting it put the estimate over by about its size (12 billed, 169 estimated).
  return done("gemini", messages, tools, 0, 0)
}
