/**
 * The transcript formats of the command line: our canonical JSON, and each
 * provider's wire format, as a bare message list, a whole request body or
 * JSONL (a message a line). Reading turns any of them into a `Request` (the
 * conversation plus tools and other request fields); writing turns a
 * `Request` back into the same shape it came in (a list stays a list, a body
 * stays a body, canonical JSONL stays JSONL, another format's JSONL becomes
 * its list) or into another format.
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"
import * as Conversation from "../Conversation.js"
import { isOwnParsedJson, LazyList, ownParsedJson, stringifyIndentedChunks } from "../internal/json.js"
import * as Message from "../Message.js"
import * as Anthropic from "../providers/Anthropic.js"
import type { Converted, ConversionWarning } from "../providers/Conversion.js"
import * as Gemini from "../providers/Gemini.js"
import type * as GeminiWire from "../providers/GeminiWire.js"
import { eitherSpelling, readsSnake } from "../providers/internal/geminiSpelling.js"
import * as OpenAiChat from "../providers/OpenAiChat.js"
import * as OpenAiResponses from "../providers/OpenAiResponses.js"
import { isToolOutputItem } from "../internal/responsesItems.js"
import * as Request from "../Request.js"
import { InputError, type Parsed } from "./Input.js"

/**
 * The format names the command line takes.
 *
 * @since 0.1.0
 */
export const FormatName = Schema.Literals(["canonical", "openai-chat", "openai-responses", "anthropic", "gemini"])

/** @since 0.1.0 */
export type FormatName = typeof FormatName.Type

/**
 * How a transcript was laid out: a bare list of messages, a whole request
 * body, or JSONL (one message per line, in any format that has a list of
 * messages: an agent's log of Chat messages is as common as our own).
 *
 * @since 0.1.0
 */
export type Shape = "messages" | "body" | "jsonl"

/**
 * A transcript as read: its format and shape, the request it holds, and what
 * reading could not carry exactly.
 *
 * @since 0.1.0
 */
export interface Read {
  readonly format: FormatName
  readonly shape: Shape
  readonly request: Request.Request
  readonly warnings: ReadonlyArray<ConversionWarning>
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const hasKey = (u: unknown, key: string): boolean => isRecord(u) && key in u

/** The type tags of a list of content parts (`type` or `_tag` fields). */
const partTypes = (content: unknown, into: Set<string>): void => {
  if (!Array.isArray(content)) return
  for (const part of content) {
    if (!isRecord(part)) continue
    if (typeof part["type"] === "string") into.add(`type:${part["type"]}`)
    if (typeof part["_tag"] === "string") into.add(`_tag:${part["_tag"]}`)
  }
}

/**
 * Whether a `type` names a Responses input item: a message or reasoning item, a call or its output
 * (`function_call`, `web_search_call`, `custom_tool_call_output`, `tool_search_output`...), an MCP item, a
 * reference, a compaction or the tools a tool search added.
 * Any other list of typed objects (LangChain's `{ type: "human", data }`, say) is not taken for Responses input.
 */
const isResponsesItemType = (type: string): boolean =>
  RESPONSES_ITEM_TYPES.has(type) || type.startsWith("mcp_") || /_(?:call|output)$/.test(type)

const RESPONSES_ITEM_TYPES: ReadonlySet<string> = new Set(["message", "reasoning", "item_reference", "compaction", "additional_tools"])

/**
 * Guesses the format of a list of messages (or items) from its shape, or
 * `undefined` when nothing in it tells.
 */
const detectList = (items: ReadonlyArray<unknown>): FormatName | undefined => {
  const seen = new Set<string>()
  const roles = new Set<string>()
  for (const item of items) {
    if (!isRecord(item)) continue
    if (typeof item["role"] === "string") roles.add(item["role"])
    if (typeof item["type"] === "string") seen.add(`item:${item["type"]}`)
    for (const key of ["parts", "tool_calls", "tool_call_id", "toolCalls", "toolCallId", "function_call"]) if (key in item) seen.add(`key:${key}`)
    partTypes(item["content"], seen)
  }
  const has = (k: string) => seen.has(k)
  if ([...seen].some((k) => k.startsWith("_tag:")) || has("key:toolCalls") || has("key:toolCallId")) return "canonical"
  if (has("key:parts") || roles.has("model")) return "gemini"
  if ([...seen].some((k) => k.startsWith("item:") && isResponsesItemType(k.slice(5))) || has("type:input_text") || has("type:output_text") || has("type:input_image")) {
    return "openai-responses"
  }
  if (
    has("type:tool_use") || has("type:tool_result") || has("type:thinking") || has("type:redacted_thinking") ||
    has("type:image") || has("type:document") || has("type:search_result") || has("type:container_upload") ||
    [...seen].some((k) => k.startsWith("type:") && (k.endsWith("_tool_use") || k.endsWith("_tool_result")))
  ) {
    return "anthropic"
  }
  if (has("key:tool_calls") || has("key:tool_call_id") || has("key:function_call") || roles.has("tool") || roles.has("developer") || roles.has("function") || has("type:image_url")) {
    return "openai-chat"
  }
  return undefined
}

/**
 * Where a list mixes Gemini contents (`parts`) with messages of another
 * format (`content` and no `parts`), or `undefined`: read as Gemini, the
 * others' text is kept in Gemini's own fields and written to no other
 * format, so such a list is not guessed at.
 */
const mixedWithGemini = (items: ReadonlyArray<unknown>): { readonly parts: number; readonly content: number } | undefined => {
  let parts = -1
  let content = -1
  for (let i = 0; i < items.length && (parts < 0 || content < 0); i++) {
    const item = items[i]
    if (!isRecord(item)) continue
    if ("parts" in item) parts = parts < 0 ? i : parts
    else if ("content" in item) content = content < 0 ? i : content
  }
  return parts >= 0 && content >= 0 ? { parts, content } : undefined
}

const mixedError = (items: ReadonlyArray<unknown>): InputError | undefined => {
  const mixed = mixedWithGemini(items)
  return mixed === undefined ? undefined : new InputError({
    reason: `the input mixes Gemini contents (parts: messages[${mixed.parts}]) with messages of another format (content: messages[${mixed.content}]); name the format to read it as with --format (--from for convert)`
  })
}

/** Fields of a body beside its messages that only the Messages API takes (the last, the structured outputs beta's). */
const ANTHROPIC_BODY_KEYS = ["system", "thinking", "output_config", "output_format"] as const

/** Settings only the Messages API takes, and settings only Chat Completions takes, beside the messages. */
const ANTHROPIC_SETTINGS = ["stop_sequences", "top_k", "context_management", "mcp_servers"] as const
const CHAT_SETTINGS = ["response_format", "max_completion_tokens", "frequency_penalty", "presence_penalty", "logit_bias", "logprobs", "n", "seed", "functions", "function_call", "parallel_tool_calls", "reasoning_effort"] as const

/**
 * What a body's settings tell of its format when its messages fit both Chat
 * and the Messages API (plain `{ role, content }` strings): a tool with an
 * `input_schema` or a server tool's dated type, a tool choice of `any` or
 * of type `tool`, or a setting only one of the two takes, and when none of
 * these is there, a Claude model (`claude-...`); `undefined` when they tell
 * nothing or disagree.
 */
const bodySettingsFormat = (body: Record<string, unknown>): "anthropic" | "openai-chat" | undefined => {
  let anthropic = ANTHROPIC_SETTINGS.some((k) => hasKey(body, k))
  let chat = CHAT_SETTINGS.some((k) => hasKey(body, k))
  const tools = body["tools"]
  if (Array.isArray(tools)) {
    for (const tool of tools) {
      if (!isRecord(tool)) continue
      if ("input_schema" in tool || (typeof tool["type"] === "string" && /_\d{8}$/.test(tool["type"]))) anthropic = true
      if (tool["type"] === "function" || "function" in tool || tool["type"] === "custom") chat = true
    }
  }
  const choice = body["tool_choice"]
  if (isRecord(choice)) {
    if (choice["type"] === "any" || choice["type"] === "tool" || "disable_parallel_tool_use" in choice) anthropic = true
    if (choice["type"] === "function" || choice["type"] === "allowed_tools" || choice["type"] === "custom") chat = true
  } else if (typeof choice === "string") chat = true
  if (anthropic !== chat) return anthropic ? "anthropic" : "openai-chat"
  // nothing else tells: a Claude model named as the Messages API names it (not through a router's "vendor/model")
  return !anthropic && typeof body["model"] === "string" && body["model"].startsWith("claude-") ? "anthropic" : undefined
}

/**
 * The format and shape of parsed input, guessed from its shape. A list of
 * plain `{ role, content }` messages that fits several formats is read as
 * OpenAI Chat, the most common; in a body, the settings beside such
 * messages (its tools, tool choice, or a setting only one API takes) tell
 * Chat from the Messages API first.
 *
 * @since 0.1.0
 */
export const detect = (parsed: Parsed, name = "the input"): { readonly format: FormatName; readonly shape: Shape } | InputError => {
  // lines of plain { role, content } fit every format: read as canonical, as JSONL always was
  if (parsed.kind === "jsonl") return mixedError(parsed.values) ?? { format: detectList(parsed.values) ?? "canonical", shape: "jsonl" }
  const value = parsed.value
  if (Array.isArray(value)) return mixedError(value) ?? { format: detectList(value) ?? "openai-chat", shape: "messages" }
  if (!isRecord(value)) return new InputError({ reason: `${name} is JSON but not a conversation: expected a list of messages or a request body` })
  if (Array.isArray(value["contents"])) return { format: "gemini", shape: "body" }
  if (hasKey(value, "input") && (Array.isArray(value["input"]) || typeof value["input"] === "string")) return { format: "openai-responses", shape: "body" }
  if (Array.isArray(value["messages"])) {
    const listed = detectList(value["messages"])
    if (listed === "canonical") return { format: "canonical", shape: "body" }
    // Anthropic takes system text, thinking and output settings beside the messages; Chat does not
    if (ANTHROPIC_BODY_KEYS.some((k) => hasKey(value, k)) || listed === "anthropic") return { format: "anthropic", shape: "body" }
    return { format: listed ?? bodySettingsFormat(value) ?? "openai-chat", shape: "body" }
  }
  return new InputError({
    reason: `${name} is JSON but not a conversation: expected a list of messages or a request body with messages, contents or input`
  })
}

const notAConversation = (format: FormatName, error: { readonly message: string }, parsed?: Parsed, list = false): InputError => {
  // a bare list is not a body: its entries are named messages[i] here, as its warnings and issues name them
  const message = list ? error.message.replace(/\b(?:input|contents)\[(\d+)\]/g, "messages[$1]") : error.message
  return new InputError({ reason: `not a valid ${format} transcript: ${message}${parsed === undefined ? "" : lineNote(message, parsed)}` })
}

/**
 * Where in a JSONL file the message an error names is: the error counts messages (`messages[3]`), and a file's
 * empty lines are skipped, so the fourth message need not be on line 4.
 */
const lineNote = (message: string, parsed: Parsed): string => {
  if (parsed.kind !== "jsonl" || parsed.lines === undefined) return ""
  const named = /\bmessages\[(\d+)\]/.exec(message)
  const line = named === null ? undefined : parsed.lines[Number(named[1])]
  return named === null || line === undefined ? "" : ` (messages[${named[1]}] is line ${line} of the file)`
}

const asRead = (format: FormatName, shape: Shape) => (converted: Converted<Request.Request>): Read => ({
  format,
  shape,
  request: converted.value,
  warnings: converted.warnings
})

/** The fields of a canonical request body beside its messages; unknown ones are refused rather than lost. */
const decodeRequestFields = Schema.decodeUnknownEffect(Request.Request, { onExcessProperty: "error" })

/** A request's fields other than its messages, as `Request.make` takes them. */
const requestOptions = ({ messages: _messages, ...options }: Request.Request): Omit<ConstructorParameters<typeof Request.Request>[0], "messages"> => options

const fromMessages = (messages: ReadonlyArray<Message.Message>): Converted<Request.Request> => ({
  value: Request.make(messages),
  warnings: []
})

/**
 * Reads parsed input in a given format and shape into a `Request`.
 *
 * @since 0.1.0
 */
export const read = (parsed: Parsed, format: FormatName, shape: Shape): Effect.Effect<Read, InputError> => {
  // JSONL is a list of messages, one a line
  const value = parsed.kind === "jsonl" ? parsed.values : parsed.value
  const list = parsed.kind === "jsonl" || shape === "messages"
  switch (format) {
    case "canonical": {
      const messages = list ? value : isRecord(value) ? value["messages"] : undefined
      const decoded = Conversation.decode(messages).pipe(Effect.mapError((e) => notAConversation(format, e, parsed, list)))
      if (list || !isRecord(value)) return decoded.pipe(Effect.map((ms) => asRead(format, shape)(fromMessages(ms))))
      // a body: the request's other fields (model, tools, tool choice, output limit...) as written by `writeValue`
      const { messages: _messages, ...fields } = value
      return Effect.all([decoded, decodeRequestFields({ ...fields, messages: [] }).pipe(Effect.mapError((e) => notAConversation(format, Message.decodeErrorOf(e))))]).pipe(
        Effect.map(([ms, request]) => asRead(format, shape)({ value: Request.make(ms, requestOptions(request)), warnings: [] }))
      )
    }
    case "openai-chat":
      return (list ? OpenAiChat.fromMessages(value).pipe(Effect.map((c) => ({ value: Request.make(c.value), warnings: c.warnings }))) : OpenAiChat.fromRequest(value)).pipe(
        Effect.map(asRead(format, shape)),
        Effect.mapError((e) => notAConversation(format, e, parsed, list))
      )
    case "anthropic":
      return (list ? Anthropic.fromMessages(value).pipe(Effect.map((c) => ({ value: Request.make(c.value), warnings: c.warnings }))) : Anthropic.fromRequest(value)).pipe(
        Effect.map(asRead(format, shape)),
        Effect.mapError((e) => notAConversation(format, e, parsed, list))
      )
    case "openai-responses":
      return (list
        ? OpenAiResponses.fromMessages(value).pipe(Effect.map((c) => ({ value: Request.make(c.value), warnings: c.warnings })))
        : OpenAiResponses.fromRequest(value)).pipe(
          Effect.map(asRead(format, shape)),
          Effect.mapError((e) => notAConversation(format, e, parsed, list))
        )
    case "gemini":
      return (list ? Gemini.fromMessages(isOwnParsedJson(value) ? ownParsedJson({ contents: value }) : { contents: value }).pipe(Effect.map((c) => ({ value: Request.make(c.value), warnings: c.warnings }))) : Gemini.fromRequest(value)).pipe(
        Effect.map(asRead(format, shape)),
        Effect.mapError((e) => notAConversation(format, e, parsed, list))
      )
    default:
      return format satisfies never
  }
}

/**
 * What writing produced: the JSON text to print, and the warnings of what
 * the target could not carry.
 *
 * @since 0.1.0
 */
export interface Written {
  /**
   * The text, in pieces to write one after the other: a million messages
   * written out are longer than one JavaScript string can be. The pieces
   * are made as they are read, once: a writer that lets each go holds one
   * piece of the text at a time, never the whole of it.
   */
  readonly chunks: Iterable<string>
  readonly warnings: ReadonlyArray<ConversionWarning>
}

/**
 * What converting produced, before it is written as text: the JSON value,
 * and the warnings of what the target could not carry.
 *
 * @since 0.1.0
 */
export interface WrittenValue {
  readonly value: unknown
  readonly warnings: ReadonlyArray<ConversionWarning>
}

/**
 * How `write` and `writeValue` write: `chatReasoning`, where OpenAI Chat
 * output puts thinking (`reasoning_content`, or `drop`); `maxTokens`, the
 * `max_tokens` of an Anthropic body when the request has no output limit of
 * its own (the Messages API requires one).
 *
 * @example
 * const options: Formats.WriteOptions = { maxTokens: 1024 }
 *
 * @since 0.1.0
 */
export interface WriteOptions {
  readonly chatReasoning?: "drop" | "reasoning_content"
  readonly maxTokens?: number
}

const chatOptions = (options: WriteOptions | undefined) =>
  options?.chatReasoning === undefined ? undefined : { reasoning: options.chatReasoning }

/**
 * Whether an OpenAI Chat input sent reasoning back as `reasoning_content`
 * (DeepSeek and other OpenAI-compatible servers): then writing Chat again
 * keeps it there instead of leaving it out.
 *
 * @since 0.1.0
 */
export const usesReasoningContent = (parsed: Parsed): boolean => {
  const value = parsed.kind === "jsonl" ? parsed.values : parsed.value
  const list: unknown = Array.isArray(value) ? value : isRecord(value) ? value["messages"] : undefined
  return Array.isArray(list) && list.some((m) => isRecord(m) && typeof m["reasoning_content"] === "string")
}

/**
 * Indented JSON in pieces (one per message at most), iterative where V8's own
 * would overflow (tool arguments nested 10,000 levels deep).
 */
export function* jsonChunks(value: unknown): Generator<string, void, undefined> {
  yield* stringifyIndentedChunks(value, 2)
  yield "\n"
}

/** Canonical JSONL, a thousand lines at a time. */
function* jsonlChunks(messages: ReadonlyArray<Message.Message>): Generator<string, void, undefined> {
  for (let i = 0; i < messages.length; i += 1000) yield* Conversation.encodeJsonlLines(messages.slice(i, i + 1000))
}

/**
 * A request in the canonical format: its encoded messages alone, or after
 * the request's other fields in a body (encoded without the messages, which
 * the caller gives already encoded).
 */
const canonicalValue = <L>(request: Request.Request, shape: "messages" | "body", messages: L): L | Record<string, unknown> => {
  if (shape === "messages") return messages
  const { messages: _none, ...rest } = Schema.encodeSync(Request.Request)(new Request.Request({ ...request, messages: [] }))
  return { ...rest, messages }
}

const valueOf = (asList: (c: unknown) => unknown) => (converted: Converted<unknown>): WrittenValue => ({
  value: asList(converted.value),
  warnings: converted.warnings
})

/**
 * Converts a request to a format and shape, as the JSON value `write` prints
 * (a list of messages, or a whole body). A canonical body is
 * `{ messages: [...] }` plus the request's other fields.
 *
 * @since 0.1.0
 */
export const writeValue = (
  request: Request.Request,
  format: FormatName,
  shape: "messages" | "body",
  options?: WriteOptions
): Effect.Effect<WrittenValue, InputError> => {
  const unsupported = (e: { readonly message: string }) => new InputError({ reason: `cannot write ${format}: ${e.message}` })
  const same = (v: unknown): unknown => v
  switch (format) {
    case "canonical":
      return Effect.succeed({ value: canonicalValue(request, shape, Message.encodeAll(request.messages)), warnings: [] })
    case "openai-chat":
      return (shape === "messages"
        ? OpenAiChat.toMessages(request.messages, chatOptions(options))
        : OpenAiChat.toRequest(request, chatOptions(options))).pipe(Effect.map(valueOf(same)), Effect.mapError(unsupported))
    case "anthropic":
      return (shape === "messages"
        ? Anthropic.toMessages(request.messages)
        : Anthropic.toRequest(request, options?.maxTokens === undefined ? undefined : { maxTokens: options.maxTokens })).pipe(
        Effect.map(
          valueOf((prompt) => {
            if (shape !== "messages") return prompt
            const p = prompt as Anthropic.Prompt
            return p.system === undefined ? p.messages : p
          })
        ),
        Effect.mapError(unsupported)
      )
    case "openai-responses":
      return (shape === "messages" ? OpenAiResponses.toMessages(request.messages) : OpenAiResponses.toRequest(request)).pipe(
        Effect.map(valueOf(same)),
        Effect.mapError(unsupported)
      )
    case "gemini":
      // a file is written back in the spelling it was read in (snake_case for a REST or Python client); what came
      // from another format, which notes no spelling, is written as the official JS SDK reads it (lowerCamelCase)
      return (shape === "messages" ? Gemini.toMessages(request.messages, { spelling: "asRead" }) : Gemini.toRequest(request, { spelling: "asRead" })).pipe(
        Effect.map(
          valueOf((prompt) => {
            // a list stays a list, as Anthropic's does: the contents alone, unless a system instruction (in either
            // spelling) goes beside them
            if (shape !== "messages") return prompt
            const written = prompt as GeminiWire.Messages
            return Object.keys(written).every((k) => k === "contents") ? written.contents : written
          })
        ),
        Effect.mapError(unsupported)
      )
    default:
      return format satisfies never
  }
}

/**
 * Writes a request in a format and shape, as text in pieces: indented JSON
 * (see `writeValue`), or for canonical JSONL a line per message.
 *
 * @since 0.1.0
 */
export const write = (
  request: Request.Request,
  format: FormatName,
  shape: Shape,
  options?: WriteOptions
): Effect.Effect<Written, InputError> =>
  format === "canonical"
    ? Effect.succeed({
      chunks: shape === "jsonl"
        ? jsonlChunks(request.messages)
        // each message encoded when it is written: a million encoded at once cost as much memory again as the model
        : jsonChunks(canonicalValue(request, shape, new LazyList(request.messages.length, (i) => Message.encode(request.messages[i]!)))),
      warnings: []
    })
    : Effect.map(writeValue(request, format, shape === "body" ? "body" : "messages", options), (w) => ({ chunks: jsonChunks(w.value), warnings: w.warnings }))

/** The file's list of messages as `read` read it (a body's `messages`, `contents` or `input`), if it is one. */
const listOf = (parsed: Parsed, read: Read): unknown => {
  const value = parsed.kind === "jsonl" ? parsed.values : parsed.value
  if (read.shape !== "body") return value
  if (!isRecord(value)) return undefined
  return read.format === "gemini" ? value["contents"] : read.format === "openai-responses" ? value["input"] : value["messages"]
}

/**
 * How many messages (or items) the file's list holds, as `origins` numbers them: more than the highest origin when
 * the last message was read from a run of items. `undefined` when there is no list (a Responses input given as a
 * string).
 *
 * @since 0.1.0
 */
export const listLength = (parsed: Parsed, read: Read): number | undefined => {
  const list = listOf(parsed, read)
  return Array.isArray(list) ? list.length : undefined
}

/** Whether a Gemini part is a function response, read as the Gemini reader reads it (in either spelling). */
const isGeminiResponse = (part: unknown): boolean => isRecord(part) && isRecord(eitherSpelling(part, "functionResponse", "function_response"))

/**
 * How many function responses and other parts a Gemini content that is not the model's holds (a model content's
 * parts are all "others": it is read as one message whatever they are).
 */
const geminiUserParts = (content: unknown): { readonly responses: number; readonly others: number } => {
  const parts: unknown = isRecord(content) ? content["parts"] : undefined
  if (!Array.isArray(parts)) return { responses: 0, others: 0 }
  if (isRecord(content) && content["role"] === "model") return { responses: 0, others: parts.length }
  let responses = 0
  for (const part of parts) if (isGeminiResponse(part)) responses++
  return { responses, others: parts.length - responses }
}

/**
 * The key of the system text a body keeps beside its messages, when it has some the reader read: an Anthropic body's
 * `system`, a Gemini body's `systemInstruction` or `system_instruction` (the one the reader reads when both are
 * given), a Responses body's `instructions`.
 */
const systemTextOf = (parsed: Parsed, read: Read): string | undefined => {
  const value = parsed.kind === "jsonl" ? undefined : parsed.value
  if (read.shape !== "body" || !isRecord(value)) return undefined
  switch (read.format) {
    case "anthropic":
      return value["system"] === undefined || value["system"] === null ? undefined : "system"
    case "gemini": {
      const key = readsSnake(value["systemInstruction"], value["system_instruction"]) ? "system_instruction" : "systemInstruction"
      return value[key] === undefined || value[key] === null ? undefined : key
    }
    case "openai-responses":
      return typeof value["instructions"] === "string" ? "instructions" : undefined
    case "canonical":
    case "openai-chat":
      return undefined
    default:
      return read.format satisfies never
  }
}

/**
 * What the file calls the system text it keeps beside its messages, as it spells it: `system` (Anthropic),
 * `systemInstruction` or `system_instruction` (Gemini), `instructions` (Responses). `undefined` for a format that
 * keeps none there.
 *
 * @example
 * const name = Formats.systemName(parsed, read) // "system_instruction" for a Gemini body in snake_case
 *
 * @since 0.1.0
 */
export const systemName = (parsed: Parsed, read: Read): string | undefined =>
  systemTextOf(parsed, read) ??
    (read.format === "anthropic" ? "system" : read.format === "gemini" ? "systemInstruction" : read.format === "openai-responses" ? "instructions" : undefined)

/**
 * For each message of a read request, the index of the input message it came
 * from, or -1 for system text the format keeps outside its messages
 * (Anthropic `system`, Gemini `systemInstruction`, Responses `instructions`; a Responses `input` given as
 * text is the one input message 0): Anthropic and Gemini put a
 * turn's tool results and the user's text in one wire message, which the
 * model reads as a tool message and a user message. `undefined` when the
 * input's messages and the model's do not line up in a way this knows.
 *
 * @since 0.1.0
 */
export const origins = (parsed: Parsed, read: Read): ReadonlyArray<number> | undefined => {
  const messages = read.request.messages
  if (parsed.kind === "jsonl" && read.format === "canonical") return messages.map((_, i) => i)
  const value = parsed.kind === "jsonl" ? parsed.values : parsed.value
  const list = listOf(parsed, read)
  if (read.format === "openai-responses" && typeof list === "string") {
    // input given as text: one user message, after the instructions' system message when there are instructions
    const instructions = isRecord(value) ? value["instructions"] : undefined
    const text = typeof instructions === "string" ? [-1, 0] : [0]
    return text.length === messages.length ? text : undefined
  }
  if (!Array.isArray(list)) return undefined
  const out: Array<number> = []
  if (read.format === "anthropic") {
    // the body's system text is the model's first message; a system message inside the list is one of the list's
    if (systemTextOf(parsed, read) !== undefined) out.push(-1)
    list.forEach((wire, w) => {
      const parts: unknown = isRecord(wire) ? wire["content"] : undefined
      // one model message per run of results or of other parts: [result, text, result] is a tool, a user and a tool message
      let n = 1
      if (isRecord(wire) && wire["role"] === "user" && Array.isArray(parts)) {
        const isResult = (p: unknown): boolean => isRecord(p) && p["type"] === "tool_result"
        for (let j = 1; j < parts.length; j++) if (isResult(parts[j]) !== isResult(parts[j - 1])) n++
      }
      for (let j = 0; j < n; j++) out.push(w)
    })
    return out.length === messages.length && out.every((w, i) => w !== -1 || messages[i]!.role === "system") ? out : undefined
  }
  if (read.format === "gemini") {
    if (systemTextOf(parsed, read) !== undefined) out.push(-1)
    list.forEach((wire, w) => {
      // a content other than the model's is read as a tool message of its function responses (wherever they stand),
      // then a user message of its other parts
      const { responses, others } = geminiUserParts(wire)
      if (responses > 0) out.push(w)
      if (others > 0 || responses === 0) out.push(w)
    })
    return out.length === messages.length && out.every((w, i) => w !== -1 || messages[i]!.role === "system") ? out : undefined
  }
  if (read.format === "openai-responses") {
    // instructions (even "") are the system message the model opens with; then the items are grouped as the reader
    // groups them: a run of assistant-side items (output messages, reasoning, calls) is one assistant message, a run
    // of function_call_output items with a call id one tool message (isToolOutputItem), each other message item its
    // own; a group is named by its first
    const instructions = read.shape === "body" && isRecord(value) ? value["instructions"] : undefined
    const grouped: Array<number> = typeof instructions === "string" ? [-1] : []
    let open: "assistant" | "tool" | undefined
    list.forEach((item, i) => {
      const role = isRecord(item) ? item["role"] : undefined
      const type = isRecord(item) ? item["type"] : undefined
      if ((type === undefined || type === "message") && typeof role === "string" && role !== "assistant") {
        grouped.push(i)
        open = undefined
      } else {
        const kind = isRecord(item) && isToolOutputItem(item) ? "tool" : "assistant"
        if (open !== kind) grouped.push(i)
        open = kind
      }
    })
    return grouped.length === messages.length ? grouped : undefined
  }
  return list.length === messages.length ? messages.map((_, i) => i) : undefined
}

/**
 * How many of its message's blocks each input item became, for the messages read from a run of Responses items (see
 * `origins`): keyed by the model message's index, one count per item, from the message's first item to the item
 * before the next message's first. The blocks of such a message are its items', in the items' order.
 *
 * Calls, reasoning items and call outputs each become one block; the other items of a run (output messages, of one
 * block a part or one in all; hosted calls, with their results or without) are read again, each alone, all in one
 * read with the reader that read the file. A message whose counts do not add up to its blocks is left out, and every
 * one when the items cannot be read again. Empty for other formats.
 *
 * @since 0.1.0
 */
export const itemBlocks = (
  parsed: Parsed,
  read: Read,
  origins: ReadonlyArray<number> | undefined
): Effect.Effect<ReadonlyMap<number, ReadonlyArray<number>>> =>
  Effect.suspend(() => {
    const out = new Map<number, Array<number>>()
    const list = read.format === "openai-responses" && origins !== undefined ? listOf(parsed, read) : undefined
    if (origins === undefined || !Array.isArray(list)) return Effect.succeed(out)
    const messages = read.request.messages
    // the items read again, each followed by a user message that ends its run; where each one's count goes
    const again: Array<unknown> = []
    const slotMessage: Array<number> = []
    const slotItem: Array<number> = []
    for (let i = 0; i < messages.length; i++) {
      const first = origins[i]!
      const end = i + 1 < messages.length ? origins[i + 1]! : list.length
      if (first < 0 || end - first < 2) continue
      out.set(i, new Array<number>(end - first).fill(1))
      if (messages[i]!.role === "tool") continue
      for (let j = first; j < end; j++) {
        const item: unknown = list[j]
        const type = isRecord(item) ? item["type"] : undefined
        if (type === "function_call" || type === "reasoning") continue
        again.push(item, { role: "user", content: "" })
        slotMessage.push(i)
        slotItem.push(j - first)
      }
    }
    const checked = (): ReadonlyMap<number, ReadonlyArray<number>> => {
      for (const [i, counts] of out) {
        let sum = 0
        for (const n of counts) sum += n
        if (sum !== messages[i]!.content.length) out.delete(i)
      }
      return out
    }
    if (again.length === 0) return Effect.succeed(checked())
    // items of a file this package parsed are read in place, as the file was
    const items = parsed.kind === "json" && isOwnParsedJson(parsed.value) ? ownParsedJson(again) : again
    return OpenAiResponses.fromMessages(items).pipe(
      Effect.map(({ value: alone }): ReadonlyMap<number, ReadonlyArray<number>> => {
        if (alone.length !== again.length) return new Map()
        for (let k = 0; k < slotMessage.length; k++) {
          const message = alone[2 * k]!
          if (message.role !== "assistant" || alone[2 * k + 1]!.role !== "user") return new Map()
          out.get(slotMessage[k]!)![slotItem[k]!] = message.content.length
        }
        return checked()
      }),
      // counts that cannot be had leave the figures as they were, never the command failing
      Effect.orElseSucceed(() => new Map()),
      Effect.catchDefect(() => Effect.succeed(new Map()))
    )
  })

/**
 * Where block `b` of the model's message `i` is in a Responses file: the item it was read from and, for a message
 * item whose content parts are its blocks one to one, the part (`undefined` when the item itself is the block: a
 * call, a reasoning item, a call's output, a message given as text). `text` is true when the block is the item's
 * `content` given as a string (as a Chat message's string `content` is named `content`). `undefined` when that is
 * not known: another format, or a run of items whose blocks could not be counted (see `itemBlocks`).
 *
 * @example
 * // input[1] is { role: "user", content: "hi" }: its one block is that string
 * const at = Formats.itemOfBlock(parsed, read, origins, itemBlocks)(1, 0) // { item: 1, part: undefined, text: true }
 *
 * @since 0.1.0
 */
export const itemOfBlock = (
  parsed: Parsed,
  read: Read,
  origins: ReadonlyArray<number> | undefined,
  itemBlocks: ReadonlyMap<number, ReadonlyArray<number>>
): (i: number, b: number) => { readonly item: number; readonly part: number | undefined; readonly text?: true } | undefined => {
  const list = read.format === "openai-responses" && origins !== undefined ? listOf(parsed, read) : undefined
  if (origins === undefined || !Array.isArray(list)) return () => undefined
  // how many content parts each message item has (-2 for content given as a string that is read as its text, -1 for
  // other items and content): all that is kept of the file, which the caller may hold long after the rest of it is gone
  const parts = new Int32Array(list.length)
  for (let j = 0; j < list.length; j++) {
    const item: unknown = list[j]
    const type = isRecord(item) ? item["type"] : undefined
    const content = isRecord(item) && (type === undefined || type === "message") ? item["content"] : undefined
    // an assistant item with an id and string content is kept whole: the item is the block, not its content
    const asText = typeof content === "string" && isRecord(item) && (item["role"] !== "assistant" || typeof item["id"] !== "string")
    parts[j] = Array.isArray(content) ? content.length : asText ? -2 : -1
  }
  const messages = read.request.messages
  return (i, b) => {
    const first = origins[i]
    const message = messages[i]
    if (first === undefined || first < 0 || message === undefined || b < 0 || b >= message.content.length) return undefined
    const end = i + 1 < origins.length ? origins[i + 1]! : parts.length
    let item = first
    let k = b
    let count = message.content.length
    if (end - first > 1) {
      // a run of items read as one message: its blocks are its items', in the items' order
      const counts = itemBlocks.get(i)
      if (counts === undefined) return undefined
      let j = 0
      while (j < counts.length && k >= counts[j]!) k -= counts[j++]!
      if (j === counts.length) return undefined
      item = first + j
      count = counts[j]!
    }
    // a message item's parts are its blocks when there are as many of each; a string content is its one block
    if (parts[item] === -2 && count === 1) return { item, part: undefined, text: true }
    return { item, part: parts[item] === count ? k : undefined }
  }
}

/**
 * Where the blocks of the messages read from a Gemini content whose function responses do not all come first are
 * in that content: such a content is read as a tool message of its responses, then a user message of its other
 * parts, so neither message's blocks are its parts counted from one place. Keyed by the model message's index, the
 * index of the part each of its blocks was read from. The blocks of every other message are its content's parts
 * in order (after the responses, for the user message of a content that opens with them). Empty for other formats.
 *
 * @example
 * // contents[2] is [text, functionResponse, text]: the tool message's block is parts[1], the user message's parts[0] and [2]
 * const at = Formats.geminiPartsOf(parsed, read, Formats.origins(parsed, read))
 *
 * @since 0.1.0
 */
export const geminiPartsOf = (
  parsed: Parsed,
  read: Read,
  origins: ReadonlyArray<number> | undefined
): ReadonlyMap<number, ReadonlyArray<number>> => {
  const out = new Map<number, ReadonlyArray<number>>()
  const list = read.format === "gemini" && origins !== undefined ? listOf(parsed, read) : undefined
  if (origins === undefined || !Array.isArray(list)) return out
  for (let i = 0; i + 1 < origins.length; i++) {
    const w = origins[i]!
    // a content read as two messages: its responses, then its other parts
    if (w < 0 || origins[i + 1] !== w) continue
    const content: unknown = list[w]
    const parts: unknown = isRecord(content) ? content["parts"] : undefined
    if (!Array.isArray(parts)) continue
    const responses: Array<number> = []
    const others: Array<number> = []
    parts.forEach((part, p) => (isGeminiResponse(part) ? responses : others).push(p))
    if (responses.length === 0 || others.length === 0 || others[0]! > responses[responses.length - 1]!) continue
    out.set(i, responses)
    out.set(i + 1, others)
    i++
  }
  return out
}

/**
 * Where a block of a message is inside the file's entry for it: its path there (`tool_calls[1]`, `content`;
 * `undefined` when the entry itself is the block) and its index in the list that holds it, if one does.
 *
 * @since 0.1.0
 */
export interface PlaceInEntry {
  readonly inner: string | undefined
  readonly index: number | null
}

/**
 * How a Chat message's fields are kept (see `chatBlockOf`), in one number a message: `CHAT_TOOL` for a tool (or
 * legacy `function`) message, `CHAT_WIDE` for one whose counts do not fit in a number (kept in a map beside), else
 * whether it has `reasoning_content`, `refusal`, `audio` and `function_call` (a bit each), how many blocks its
 * `content` is read as (plus one: 0 for a string) and how many `tool_calls` it has, in bits of their own.
 */
const CHAT_TOOL = -1
const CHAT_WIDE = -2
const CHAT_CONTENT_SHIFT = 4
const CHAT_CONTENT_BITS = 14
const CHAT_CALLS_SHIFT = CHAT_CONTENT_SHIFT + CHAT_CONTENT_BITS
const CHAT_CALLS_BITS = 13

/**
 * Where block `b` of the model's message `i` is in an OpenAI Chat file, as the Chat reader reads a message's fields
 * in order: an assistant message's `reasoning_content`, then its `content` (`content` when it is a string, a part
 * `content[k]` when it is a list), `refusal`, `audio`, each of its `tool_calls[j]`, then `function_call`; a user or
 * system message's `content` or `content[k]`; a `tool` (or legacy `function`) message is its one result (`inner`
 * undefined). `undefined` for another format, and for a message whose fields do not add up to its blocks.
 *
 * @example
 * // messages[2] is { role: "assistant", content: "Looking.", tool_calls: [c1, c2] }: block 2 is tool_calls[1]
 * const at = Formats.chatBlockOf(parsed, read)(2, 2) // { inner: "tool_calls[1]", index: 1 }
 *
 * @since 0.1.0
 */
export const chatBlockOf = (parsed: Parsed, read: Read): (i: number, b: number) => PlaceInEntry | undefined => {
  const list = read.format === "openai-chat" ? listOf(parsed, read) : undefined
  const messages = read.request.messages
  if (!Array.isArray(list) || list.length !== messages.length) return () => undefined
  // per message, one number (see CHAT_TOOL): four bytes a message, all that is kept of the file; the counts of a
  // message with more parts or calls than its bits hold (content: -1 a string, else its parts) beside
  const packed = new Int32Array(list.length)
  const wide = new Map<number, ReadonlyArray<number>>()
  const present = (v: unknown): number => (v === undefined || v === null ? 0 : 1)
  for (let i = 0; i < list.length; i++) {
    const m: unknown = list[i]
    if (!isRecord(m)) {
      packed[i] = 1 << CHAT_CONTENT_SHIFT
      continue
    }
    if (m["role"] === "tool" || m["role"] === "function") {
      packed[i] = CHAT_TOOL
      continue
    }
    const body = m["content"]
    const content = typeof body === "string" ? -1 : Array.isArray(body) ? body.length : 0
    const assistant = m["role"] === "assistant"
    const toolCalls = assistant ? m["tool_calls"] : undefined
    const calls = Array.isArray(toolCalls) ? toolCalls.length : 0
    const flags = assistant
      ? present(m["reasoning_content"]) | (present(m["refusal"]) << 1) | (present(m["audio"]) << 2) | (present(m["function_call"]) << 3)
      : 0
    if (content + 1 >= 1 << CHAT_CONTENT_BITS || calls >= 1 << CHAT_CALLS_BITS) {
      packed[i] = CHAT_WIDE
      wide.set(i, [flags & 1, content, (flags >> 1) & 1, (flags >> 2) & 1, calls, (flags >> 3) & 1])
      continue
    }
    packed[i] = flags | ((content + 1) << CHAT_CONTENT_SHIFT) | (calls << CHAT_CALLS_SHIFT)
  }
  return (i, b) => {
    const message = messages[i]
    if (message === undefined || b < 0) return undefined
    const code = packed[i]!
    if (code === CHAT_TOOL) return message.content.length === 1 && b === 0 ? { inner: undefined, index: null } : undefined
    const fields = code === CHAT_WIDE
      ? wide.get(i)!
      : [
        code & 1,
        ((code >> CHAT_CONTENT_SHIFT) & ((1 << CHAT_CONTENT_BITS) - 1)) - 1,
        (code >> 1) & 1,
        (code >> 2) & 1,
        (code >> CHAT_CALLS_SHIFT) & ((1 << CHAT_CALLS_BITS) - 1),
        (code >> 3) & 1
      ]
    const content = fields[1]!
    const counts = [fields[0]!, content === -1 ? 1 : content, fields[2]!, fields[3]!, fields[4]!, fields[5]!]
    let sum = 0
    for (const n of counts) sum += n
    if (sum !== message.content.length) return undefined
    let k = b
    let f = 0
    while (f < counts.length && k >= counts[f]!) k -= counts[f++]!
    switch (f) {
      case 0:
        return { inner: "reasoning_content", index: null }
      case 1:
        return content === -1 ? { inner: "content", index: null } : { inner: `content[${k}]`, index: k }
      case 2:
        return { inner: "refusal", index: null }
      case 3:
        return { inner: "audio", index: null }
      case 4:
        return { inner: `tool_calls[${k}]`, index: k }
      case 5:
        return { inner: "function_call", index: null }
      default:
        return undefined
    }
  }
}

/** The flat form's tool-result fields, carried on a tool message itself (as `Message.decode` reads them). */
const FLAT_RESULT_FIELDS = ["toolCallId", "toolName", "isError"] as const

/**
 * Where block `b` of the model's message `i` is in a canonical file, as `Message.decode` reads a message in the flat
 * form: a string `content` is one text block (`content`; none when it is `""` beside tool calls), a list `content`
 * its entries (`content[k]`), and the entries of `toolCalls` the calls after them (`toolCalls[j]`); a tool message
 * with its result's fields on it (`toolCallId`, `toolName`) is its one result (`inner` undefined). `undefined` for a
 * message in the canonical form, whose blocks are its `content[b]`, for another format, and for a message whose
 * fields do not add up to its blocks.
 *
 * @example
 * // messages[1] is { role: "assistant", content: "Looking.", toolCalls: [c1, c2] }: block 2 is toolCalls[1]
 * const at = Formats.flatBlockOf(parsed, read)(1, 2) // { inner: "toolCalls[1]", index: 1 }
 *
 * @since 0.1.0
 */
export const flatBlockOf = (parsed: Parsed, read: Read): (i: number, b: number) => PlaceInEntry | undefined => {
  const list = read.format === "canonical" ? listOf(parsed, read) : undefined
  const messages = read.request.messages
  if (!Array.isArray(list) || list.length !== messages.length) return () => undefined
  // per message, its content (-3 a flat tool message, -2 the canonical form, -1 a string read as a text block, else
  // how many blocks it is) and how many flat calls follow it: all that is kept of the file
  const fields = new Int32Array(list.length * 2).fill(-2)
  for (let i = 0; i < list.length; i++) {
    const m: unknown = list[i]
    if (!isRecord(m)) continue
    const content = m["content"]
    const calls = m["toolCalls"]
    const n = Array.isArray(calls) ? calls.length : 0
    if (m["role"] === "tool") {
      if (FLAT_RESULT_FIELDS.some((f) => m[f] !== undefined) || !Array.isArray(content)) fields[2 * i] = -3
      continue
    }
    if (typeof content === "string") fields[2 * i] = content === "" && n > 0 ? 0 : -1
    else if (content === undefined || content === null) fields[2 * i] = 0
    else if (Array.isArray(content) && n > 0) fields[2 * i] = content.length
    fields[2 * i + 1] = n
  }
  return (i, b) => {
    const message = messages[i]
    if (message === undefined || b < 0) return undefined
    const content = fields[2 * i]!
    if (content === -2) return undefined
    if (content === -3) return message.content.length === 1 && b === 0 ? { inner: undefined, index: null } : undefined
    const text = content === -1 ? 1 : content
    const calls = fields[2 * i + 1]!
    if (text + calls !== message.content.length || b >= message.content.length) return undefined
    if (b >= text) return { inner: `toolCalls[${b - text}]`, index: b - text }
    return content === -1 ? { inner: "content", index: null } : { inner: `content[${b}]`, index: b }
  }
}

/**
 * Where block `b` of the model's message `i` is when the file gives it as a string, not a list: an Anthropic
 * message's string `content` (`content`, as a Chat message's string content is named), and the system text an
 * Anthropic body's `system` or a Gemini body's `systemInstruction` gives as a string (the field itself: `inner`
 * undefined). `undefined` for every other block, and for other formats (a Responses item's string content is named
 * by `itemOfBlock`, a Chat or flat canonical message's by `chatBlockOf` and `flatBlockOf`).
 *
 * @example
 * // messages[0] is { role: "user", content: "hi" }: its one block is that string
 * const at = Formats.textContentOf(parsed, read, Formats.origins(parsed, read))(0, 0) // { inner: "content", index: null }
 *
 * @since 0.1.0
 */
export const textContentOf = (
  parsed: Parsed,
  read: Read,
  origins: ReadonlyArray<number> | undefined
): (i: number, b: number) => PlaceInEntry | undefined => {
  if (origins === undefined || (read.format !== "anthropic" && read.format !== "gemini")) return () => undefined
  const list = listOf(parsed, read)
  const key = systemTextOf(parsed, read)
  const value = parsed.kind === "jsonl" ? undefined : parsed.value
  const systemIsText = key !== undefined && isRecord(value) && typeof value[key] === "string"
  // per wire message, whether its content is a string (Gemini's parts are always a list): all that is kept of the file
  const asText = new Uint8Array(Array.isArray(list) ? list.length : 0)
  if (read.format === "anthropic" && Array.isArray(list)) {
    for (let w = 0; w < list.length; w++) {
      const m: unknown = list[w]
      if (isRecord(m) && typeof m["content"] === "string") asText[w] = 1
    }
  }
  const messages = read.request.messages
  return (i, b) => {
    const w = origins[i]
    if (w === undefined || b !== 0 || messages[i]?.content.length !== 1) return undefined
    if (w === -1) return systemIsText ? { inner: undefined, index: null } : undefined
    return asText[w] === 1 ? { inner: "content", index: null } : undefined
  }
}

/**
 * Where part `p` of a tool result is in the file, given the file's entry that holds the result (a wire message, a
 * Gemini content, a Responses item) and the result's index in that entry's list (`block`; `null` when the entry is
 * the result: a Chat tool message, a canonical tool message in the flat form, a Responses `function_call_output`),
 * and how many parts the model read the result as (`count`). The part's path in the entry: `content[p]` of a Chat or
 * flat canonical tool message, `content[1].content[p]` of an Anthropic `tool_result` (or a canonical `ToolResult`
 * block), `output[p]` of a Responses output, `parts[1].functionResponse.parts[k]` of a Gemini response (whose
 * `response` the model reads as the result's first part, so the file's `k` counts from the model's second), in the
 * file's spelling. `undefined` when the file's parts and the model's do not line up one for one (a part the reader
 * has no home for is kept with the result, not as one of its parts).
 *
 * @example
 * // input[4] is a function_call_output whose output is [text, image]: the model's part 1 is output[1]
 * const at = Formats.resultPartOf(parsed, read)(4, null, 1, 2) // { inner: "output[1]", index: 1 }
 *
 * @since 0.1.0
 */
export const resultPartOf = (parsed: Parsed, read: Read): (entry: number, block: number | null, p: number, count: number) => PlaceInEntry | undefined => {
  const list = read.format === "openai-responses" || read.format === "gemini" ? listOf(parsed, read) : undefined
  // the few results whose parts are counted from the file: a Responses output's length by item, a Gemini response's
  // spelling, whether the model reads a part before its files, and how many files, by content and part
  const outputs = new Map<number, number>()
  const responses = new Map<number, Map<number, { readonly key: string; readonly lead: number; readonly files: number }>>()
  if (Array.isArray(list)) {
    for (let w = 0; w < list.length; w++) {
      const entry: unknown = list[w]
      if (!isRecord(entry)) continue
      if (read.format === "openai-responses") {
        const output = entry["output"]
        if (entry["type"] === "function_call_output" && Array.isArray(output)) outputs.set(w, output.length)
        continue
      }
      const parts = entry["parts"]
      if (!Array.isArray(parts)) continue
      for (let k = 0; k < parts.length; k++) {
        const part: unknown = parts[k]
        if (!isGeminiResponse(part) || !isRecord(part)) continue
        const key = isRecord(part["functionResponse"]) ? "functionResponse" : "function_response"
        const response = part[key] as Record<string, unknown>
        const files = response["parts"]
        if (!Array.isArray(files) || files.length === 0) continue
        let found = responses.get(w)
        if (found === undefined) responses.set(w, found = new Map())
        // the model reads a response as a part (its text or its JSON) before the files, when there is one
        found.set(k, { key, lead: isRecord(response["response"]) ? 1 : 0, files: files.length })
      }
    }
  }
  return (entry, block, p, count) => {
    if (p < 0 || p >= count) return undefined
    switch (read.format) {
      case "canonical":
        return block === null ? { inner: `content[${p}]`, index: p } : { inner: `content[${block}].content[${p}]`, index: p }
      case "openai-chat":
        return block === null ? { inner: `content[${p}]`, index: p } : undefined
      case "anthropic":
        return block === null ? undefined : { inner: `content[${block}].content[${p}]`, index: p }
      case "openai-responses":
        return block === null && outputs.get(entry) === count ? { inner: `output[${p}]`, index: p } : undefined
      case "gemini": {
        const found = block === null ? undefined : responses.get(entry)?.get(block)
        if (found === undefined || found.lead + found.files !== count || p < found.lead) return undefined
        const k = p - found.lead
        return { inner: `parts[${block}].${found.key}.parts[${k}]`, index: k }
      }
      default:
        return read.format satisfies never
    }
  }
}
