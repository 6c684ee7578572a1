/**
 * Content blocks: the pieces a message is made of.
 *
 * Every block is an Effect Schema class discriminated by `_tag`: text,
 * thinking, redacted thinking, refusals, files (images, documents, audio and
 * any other file, by media type), tool calls, tool results, JSON values inside
 * tool results, and provider data the model has no typed home for. The order
 * of blocks inside a message is meaningful (providers replay text, thinking
 * and tool calls in the order they were produced), so messages hold arrays of
 * blocks, never maps.
 *
 * Everything a block holds is JSON: tool-call `args`, structured results,
 * citations and `providerOptions` are `Schema.Json` values, so
 * `encode -> JSON.stringify -> JSON.parse -> decode` is the identity. A value
 * JSON cannot hold (a `Date`, a `Map`, a `BigInt`, a cycle) is refused by the
 * constructors' types and by decoding.
 *
 * Provider replay data has a typed home where its shape is known (Anthropic
 * thinking `signature` and redacted `data`, OpenAI Responses `itemId`,
 * `encryptedContent` and `status`, Gemini `thoughtSignature`) and an open,
 * per-provider `providerOptions` record for everything else (e.g. Anthropic
 * `cache_control`). The core never interprets either; it always carries them.
 *
 * Build blocks with the constructors (`Block.text`, `Block.toolCall`,
 * `Block.image`, ...): they copy and freeze what they are given, so a block
 * never changes after it is built. Branch on blocks with `Block.match` or an
 * exhaustive `switch` on `_tag`.
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"
import { base64DataUrlParts } from "./internal/dataUrl.js"
import { copyJson, deepFreeze, stringifyHead, stringifyIndented } from "./internal/json.js"
import { cutText } from "./internal/preview.js"
import { rawArgsHold } from "./internal/toolArgs.js"

// ---------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------

/**
 * A JSON object: `metadata` and each provider's options are one.
 *
 * @example
 * Schema.is(Block.JsonObject)({ team: "search", attempt: 2 }) // true
 * Schema.is(Block.JsonObject)(["not", "an", "object"]) // false
 *
 * @since 0.1.0
 */
export const JsonObject = Schema.Record(Schema.String, Schema.Json)

/**
 * A JSON object, as a type.
 *
 * @since 0.1.0
 */
export type JsonObject = typeof JsonObject.Type

/**
 * Replay data per provider, keyed by wire format (`"anthropic"`,
 * `"openai-chat"`, `"openai-responses"`, `"gemini"`), each a JSON object.
 * Adapters read and write their own key and pass the rest through untouched.
 *
 * @example
 * const cached = Block.text("A long document…", {
 *   providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } }
 * })
 *
 * @since 0.1.0
 */
export const ProviderOptions = Schema.Record(Schema.String, JsonObject)

/**
 * Replay data per wire format, as a type.
 *
 * @since 0.1.0
 */
export type ProviderOptions = typeof ProviderOptions.Type

const optionalProviderOptions = Schema.optionalKey(ProviderOptions)
const optionalString = Schema.optionalKey(Schema.String)

// ---------------------------------------------------------------------------
// blocks
// ---------------------------------------------------------------------------

/**
 * Plain text.
 *
 * - `citations`: the sources a provider attached to this text (Anthropic
 *   `citations`, OpenAI Responses `annotations`), each kept as the provider
 *   sent it.
 * - `itemId`: the OpenAI Responses output item the text came from.
 * - `thoughtSignature`: a Gemini part-level signature.
 *
 * @example
 * const block = Block.text("Oslo is the capital of Norway.")
 * block._tag // "Text"
 * block instanceof Block.TextBlock // true
 *
 * @since 0.1.0
 */
export class TextBlock extends Schema.TaggedClass<TextBlock>()("Text", {
  text: Schema.String,
  citations: Schema.optionalKey(Schema.Array(Schema.Json)),
  itemId: optionalString,
  thoughtSignature: optionalString,
  providerOptions: optionalProviderOptions
}) {}

/**
 * Model reasoning, billed and replayed.
 *
 * - `thinking`: the reasoning text (Anthropic thinking, Gemini thought text,
 *   OpenAI Responses reasoning content).
 * - `summary`: OpenAI Responses reasoning summary parts, one string each, in
 *   order (a reasoning item may carry several, or none).
 * - `signature`: Anthropic's signature; must come back unchanged and non-empty.
 * - `itemId` / `encryptedContent` / `status`: the OpenAI Responses `reasoning`
 *   item, its encrypted payload (needed to replay reasoning with
 *   `store: false`) and its status.
 * - `thoughtSignature`: Gemini's signature on a thought part.
 *
 * @example
 * const block = Block.thinking("Two cities were asked for.", "EqQBCkgIARAB")
 * block.signature // "EqQBCkgIARAB"
 *
 * @since 0.1.0
 */
export class ThinkingBlock extends Schema.TaggedClass<ThinkingBlock>()("Thinking", {
  thinking: Schema.String,
  summary: Schema.optionalKey(Schema.Array(Schema.String)),
  signature: optionalString,
  itemId: optionalString,
  encryptedContent: optionalString,
  status: optionalString,
  thoughtSignature: optionalString,
  providerOptions: optionalProviderOptions
}) {}

/**
 * Reasoning the provider encrypted (Anthropic `redacted_thinking`): `data` is
 * opaque and must be replayed byte for byte.
 *
 * @example
 * const block = Block.redactedThinking("EmwKAhgBEgy3va3pzix/LafPsn4a")
 * block._tag // "RedactedThinking"
 *
 * @since 0.1.0
 */
export class RedactedThinkingBlock extends Schema.TaggedClass<RedactedThinkingBlock>()("RedactedThinking", {
  data: Schema.String,
  providerOptions: optionalProviderOptions
}) {}

/**
 * The model declined to answer (OpenAI `refusal`).
 *
 * @example
 * const block = Block.refusal("I can't help with that.")
 * block.refusal // "I can't help with that."
 *
 * @since 0.1.0
 */
export class RefusalBlock extends Schema.TaggedClass<RefusalBlock>()("Refusal", {
  refusal: Schema.String,
  itemId: optionalString,
  providerOptions: optionalProviderOptions
}) {}

/**
 * File bytes inline, base64-encoded (without a `data:` prefix).
 *
 * @example
 * Block.file({ _tag: "Base64", data: "iVBORw0KGgo=" }, "image/png")
 *
 * @since 0.1.0
 */
export const Base64Source = Schema.TaggedStruct("Base64", { data: Schema.String })

/**
 * A file at a URL (https, or a provider URI such as a Gemini file URI).
 *
 * @example
 * Block.file({ _tag: "Url", url: "https://example.com/report.pdf" }, "application/pdf")
 *
 * @since 0.1.0
 */
export const UrlSource = Schema.TaggedStruct("Url", { url: Schema.String })

/**
 * A file uploaded to a provider beforehand, by its id (OpenAI `file-...`,
 * Anthropic `file_...`).
 *
 * @example
 * Block.file({ _tag: "FileId", fileId: "file-abc123" }, "application/pdf")
 *
 * @since 0.1.0
 */
export const FileIdSource = Schema.TaggedStruct("FileId", { fileId: Schema.String })

/**
 * A plain-text document given as text (Anthropic's `text` document source).
 *
 * @example
 * Block.document({ _tag: "Text", text: "Revenue grew 4% in Q3." }, { title: "Q3" })
 *
 * @since 0.1.0
 */
export const TextSource = Schema.TaggedStruct("Text", { text: Schema.String })

/**
 * Where a file's content is: inline base64 data, a URL, a provider file id, or
 * plain text.
 *
 * @example
 * const where = (source: Block.FileSource): string => {
 *   switch (source._tag) {
 *     case "Base64": return `${source.data.length} base64 characters`
 *     case "Url": return source.url
 *     case "FileId": return source.fileId
 *     case "Text": return "inline text"
 *   }
 * }
 *
 * @since 0.1.0
 */
export const FileSource = Schema.Union([Base64Source, UrlSource, FileIdSource, TextSource])

/**
 * Where a file's content is, as a type: `{ _tag: "Base64", data }`,
 * `{ _tag: "Url", url }`, `{ _tag: "FileId", fileId }` or `{ _tag: "Text", text }`.
 *
 * @since 0.1.0
 */
export type FileSource = typeof FileSource.Type

/**
 * OpenAI's image `detail` setting. `"original"` (GPT-5.4 and later) reads
 * the image at its own resolution, up to 10,000 patches of 32 pixels; the
 * Gemini adapter writes it as the ultra-high media resolution, and reads
 * that back as `"original"`, as it does `"low"` and `"high"`.
 *
 * @example
 * Block.image("https://example.com/cat.png", { detail: "low" }).detail // "low"
 *
 * @since 0.1.0
 */
export const ImageDetail = Schema.Literals(["auto", "low", "high", "original"])

/**
 * OpenAI's image detail setting: `"auto"`, `"low"`, `"high"` or `"original"`.
 *
 * @since 0.1.0
 */
export type ImageDetail = typeof ImageDetail.Type

/**
 * A file: an image, a document (PDF, plain text), audio, or any other file,
 * told apart by `mediaType` (`image/png`, `application/pdf`, `audio/wav`,
 * ...; `image/*` when a provider sent an image without saying which kind).
 *
 * - `filename`: the file's name, when the provider or the user gave one.
 * - `detail`: OpenAI's image detail setting.
 * - `title`, `context`, `citationsEnabled`: Anthropic document settings.
 * - `itemId`: the OpenAI Responses item of a generated image.
 *
 * Files appear in user messages, inside tool results, and in assistant
 * messages (images or files the model generated).
 *
 * @example
 * const pdf = Block.document("https://example.com/report.pdf", { filename: "report.pdf" })
 * pdf.mediaType // "application/pdf"
 * pdf.source // { _tag: "Url", url: "https://example.com/report.pdf" }
 *
 * @since 0.1.0
 */
export class FileBlock extends Schema.TaggedClass<FileBlock>()("File", {
  mediaType: Schema.String,
  source: FileSource,
  filename: optionalString,
  detail: Schema.optionalKey(ImageDetail),
  title: optionalString,
  context: optionalString,
  citationsEnabled: Schema.optionalKey(Schema.Boolean),
  itemId: optionalString,
  providerOptions: optionalProviderOptions
}) {}

/**
 * A call of a tool by the assistant.
 *
 * - `args`: the arguments, any JSON value (usually an object).
 * - `rawArgs`: the provider's exact argument text, kept whenever it is not
 *   what `JSON.stringify(args)` would write back (it did not parse, or it was
 *   formatted differently), so an adapter can send the same bytes again.
 * - `parseError`: present only when `rawArgs` did not parse as JSON; `args`
 *   is then what a lenient repair recovered (`{}` when nothing could be).
 *   `Block.argsParsed(call)` tells.
 * - `providerExecuted`: the provider ran the tool itself (Anthropic server
 *   tools such as web search or code execution, OpenAI Responses built-in
 *   tools): its result lives in the same assistant message and it is exempt
 *   from the client-side pairing rules.
 * - `itemId`: the OpenAI Responses item id (distinct from the call id);
 *   `thoughtSignature`: Gemini's signature on a function call part.
 *
 * @example
 * const call = Block.toolCall("call_1", "get_weather", { city: "Oslo" })
 * call.args // { city: "Oslo" }
 * Block.argsText(call) // '{"city":"Oslo"}'
 *
 * @since 0.1.0
 */
export class ToolCallBlock extends Schema.TaggedClass<ToolCallBlock>()("ToolCall", {
  id: Schema.String,
  name: Schema.String,
  args: Schema.Json,
  rawArgs: optionalString,
  parseError: optionalString,
  providerExecuted: Schema.optionalKey(Schema.Boolean),
  itemId: optionalString,
  thoughtSignature: optionalString,
  providerOptions: optionalProviderOptions
}) {}

/**
 * A JSON value inside a tool result: a structured result (Gemini
 * `functionResponse.response`, a server tool's result list), never
 * stringified on the way in.
 *
 * @example
 * const result = Block.toolResult("call_1", "get_weather", [Block.json({ temperature: 12, unit: "C" })])
 *
 * @since 0.1.0
 */
export class JsonBlock extends Schema.TaggedClass<JsonBlock>()("Json", {
  value: Schema.Json
}) {}

/**
 * What a tool result's content may hold when it is not a plain string: text,
 * files and JSON values, in order.
 *
 * @example
 * const parts: ReadonlyArray<Block.ToolResultPart> = [
 *   Block.text("Rendered chart:"),
 *   Block.image("data:image/png;base64,iVBORw0KGgo="),
 *   Block.json({ points: 42 })
 * ]
 * Block.toolResult("call_1", "plot", parts)
 *
 * @since 0.1.0
 */
export const ToolResultPart = Schema.Union([TextBlock, FileBlock, JsonBlock])

/**
 * A part of a tool result: a `TextBlock`, a `FileBlock` or a `JsonBlock`.
 *
 * @since 0.1.0
 */
export type ToolResultPart = typeof ToolResultPart.Type

/**
 * The content of a tool result: a string, or a list of parts.
 *
 * @example
 * Block.resultContentText("12°C, rain") // "12°C, rain"
 * Block.resultContentText([Block.text("12°C"), Block.json({ rain: true })]) // '12°C\n{"rain":true}'
 *
 * @since 0.1.0
 */
export const ToolResultContent = Schema.Union([Schema.String, Schema.Array(ToolResultPart)])

/**
 * The content of a tool result: a string, or a list of parts.
 *
 * @since 0.1.0
 */
export type ToolResultContent = typeof ToolResultContent.Type

/**
 * The answer to a tool call. `isError` defaults to `false` when constructed
 * and when absent from decoded JSON. In a tool message it answers a call of
 * the preceding assistant turn; in an assistant message it is the result of
 * a provider-executed call of the same message (`providerExecuted`).
 *
 * @example
 * const result = Block.toolResult("call_1", "get_weather", "city not found", true)
 * result.isError // true
 * Message.tool(result)
 *
 * @since 0.1.0
 */
export class ToolResultBlock extends Schema.TaggedClass<ToolResultBlock>()("ToolResult", {
  toolCallId: Schema.String,
  toolName: Schema.String,
  content: ToolResultContent,
  isError: Schema.Boolean.pipe(
    Schema.withDecodingDefaultKey(Effect.succeed(false)),
    Schema.withConstructorDefault(Effect.succeed(false))
  ),
  providerExecuted: Schema.optionalKey(Schema.Boolean),
  itemId: optionalString,
  providerOptions: optionalProviderOptions
}) {}

/**
 * A piece of provider data the model has no typed home for (an Anthropic
 * `container_upload`, an OpenAI Responses item type added after this
 * library), kept exactly as the provider sent it so that converting back to
 * that provider loses nothing. `provider` names the wire format it came from.
 *
 * @example
 * const upload = Block.providerData("anthropic", { type: "container_upload", file_id: "file_01" })
 * upload.provider // "anthropic"
 *
 * @since 0.1.0
 */
export class ProviderDataBlock extends Schema.TaggedClass<ProviderDataBlock>()("ProviderData", {
  provider: Schema.String,
  data: JsonObject
}) {}

/**
 * Every block kind.
 *
 * @example
 * const blocks = Schema.decodeUnknownSync(Schema.Array(Block.Block))([
 *   { _tag: "Text", text: "Checking the weather." },
 *   { _tag: "ToolCall", id: "call_1", name: "get_weather", args: { city: "Oslo" } }
 * ])
 * blocks.map((b) => b._tag) // ["Text", "ToolCall"]
 *
 * @since 0.1.0
 */
export const Block = Schema.Union([
  TextBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  RefusalBlock,
  FileBlock,
  ToolCallBlock,
  ToolResultBlock,
  JsonBlock,
  ProviderDataBlock
])

/**
 * Any block: the union of the block classes, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type Block = typeof Block.Type

/**
 * The `_tag` of every block kind: `"Text"`, `"ToolCall"`, ...
 *
 * @since 0.1.0
 */
export type Tag = Block["_tag"]

/**
 * Blocks a system message may hold.
 *
 * @example
 * Schema.is(Block.SystemBlock)(Block.text("Answer in French.")) // true
 * Schema.is(Block.SystemBlock)(Block.toolCall("call_1", "search")) // false
 *
 * @since 0.1.0
 */
export const SystemBlock = Schema.Union([TextBlock])

/**
 * A block of a system message: a `TextBlock`.
 *
 * @since 0.1.0
 */
export type SystemBlock = typeof SystemBlock.Type

/**
 * Blocks a user message may hold: text, files, and provider data.
 *
 * @example
 * const content: ReadonlyArray<Block.UserBlock> = [Block.text("What is in this picture?"), Block.image("https://example.com/cat.png")]
 * Message.user(content)
 *
 * @since 0.1.0
 */
export const UserBlock = Schema.Union([TextBlock, FileBlock, ProviderDataBlock])

/**
 * A block of a user message: a `TextBlock`, a `FileBlock` or a
 * `ProviderDataBlock`.
 *
 * @since 0.1.0
 */
export type UserBlock = typeof UserBlock.Type

/**
 * Blocks an assistant message may hold: text, reasoning, refusals, generated
 * files, tool calls, the results of provider-executed calls, and provider
 * data.
 *
 * @example
 * const content: ReadonlyArray<Block.AssistantBlock> = [
 *   Block.thinking("The user wants the weather."),
 *   Block.toolCall("call_1", "get_weather", { city: "Oslo" })
 * ]
 * Message.assistant(content)
 *
 * @since 0.1.0
 */
export const AssistantBlock = Schema.Union([
  TextBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  RefusalBlock,
  FileBlock,
  ToolCallBlock,
  ToolResultBlock,
  ProviderDataBlock
])

/**
 * A block of an assistant message.
 *
 * @since 0.1.0
 */
export type AssistantBlock = typeof AssistantBlock.Type

/**
 * Blocks a tool message may hold.
 *
 * @example
 * const content: ReadonlyArray<Block.ToolBlock> = [Block.toolResult("call_1", "get_weather", "12°C")]
 * Message.tool(content)
 *
 * @since 0.1.0
 */
export const ToolBlock = Schema.Union([ToolResultBlock])

/**
 * A block of a tool message: a `ToolResultBlock`.
 *
 * @since 0.1.0
 */
export type ToolBlock = typeof ToolBlock.Type

// ---------------------------------------------------------------------------
// constructors
// ---------------------------------------------------------------------------

/** The optional replay fields a constructor accepts besides its positional arguments. */
type Extras<C extends abstract new(...args: never) => unknown, K extends PropertyKey> = Omit<
  ConstructorParameters<C>[0],
  K | "_tag"
>

const frozenJson = <A extends Schema.Json>(value: A): A => {
  const copy = copyJson(value)
  // the types already guarantee JSON; a value smuggled past them is refused by the class itself
  return "value" in copy ? (copy.value as A) : value
}

/**
 * Freezes a block built by a constructor: the block, its arrays and its JSON
 * values, so that a memoized estimate can never go stale.
 *
 * @example
 * const block = Block.freeze(new Block.TextBlock({ text: "built with new" }))
 * Object.isFrozen(block) // true
 *
 * @since 0.1.0
 */
export const freeze = <B extends Block>(block: B): B => deepFreeze(block)

const copyOptions = <E extends object>(extras: E | undefined): E | undefined => {
  const options = (extras as { readonly providerOptions?: ProviderOptions } | undefined)?.providerOptions
  return options === undefined ? extras : { ...extras, providerOptions: frozenJson(options) } as E
}

/**
 * A text block.
 *
 * @example
 * Block.text("Hello")
 *
 * @since 0.1.0
 */
export const text = (text: string, extras?: Extras<typeof TextBlock, "text">): TextBlock => {
  const options = copyOptions(extras)
  return freeze(
    new TextBlock(
      options?.citations === undefined
        ? { ...options, text }
        : { ...options, citations: frozenJson(options.citations as Schema.JsonArray), text }
    )
  )
}

/**
 * A thinking block, with its Anthropic signature when there is one.
 *
 * @example
 * Block.thinking("The user wants two cities.", "EqQBCkgIARAB")
 *
 * @since 0.1.0
 */
export const thinking = (
  thinking: string,
  signature?: string,
  extras?: Extras<typeof ThinkingBlock, "thinking" | "signature">
): ThinkingBlock => {
  const options = copyOptions(extras)
  const summary = options?.summary === undefined ? undefined : options.summary.slice()
  return freeze(
    new ThinkingBlock({
      ...options,
      thinking,
      ...(signature === undefined ? {} : { signature }),
      ...(summary === undefined ? {} : { summary })
    })
  )
}

/**
 * A redacted thinking block.
 *
 * @example
 * Block.redactedThinking("EmwKAhgBEgy3va3pzix/LafPsn4a")
 *
 * @since 0.1.0
 */
export const redactedThinking = (data: string, extras?: Extras<typeof RedactedThinkingBlock, "data">): RedactedThinkingBlock =>
  freeze(new RedactedThinkingBlock({ ...copyOptions(extras), data }))

/**
 * A refusal.
 *
 * @example
 * Block.refusal("I can't help with that.")
 *
 * @since 0.1.0
 */
export const refusal = (refusal: string, extras?: Extras<typeof RefusalBlock, "refusal">): RefusalBlock =>
  freeze(new RefusalBlock({ ...copyOptions(extras), refusal }))

/**
 * A base64 source (the data without a `data:` prefix).
 *
 * @example
 * Block.file(Block.base64("JVBERi0xLjQK"), "application/pdf", { filename: "invoice.pdf" })
 *
 * @since 0.1.0
 */
export const base64 = (data: string): FileSource => ({ _tag: "Base64", data })

/**
 * A URL source.
 *
 * @example
 * Block.file(Block.url("https://example.com/report.pdf"), "application/pdf")
 *
 * @since 0.1.0
 */
export const url = (url: string): FileSource => ({ _tag: "Url", url })

/**
 * A provider file id source.
 *
 * @example
 * Block.file(Block.fileId("file-abc123"), "application/pdf")
 *
 * @since 0.1.0
 */
export const fileId = (fileId: string): FileSource => ({ _tag: "FileId", fileId })

/**
 * A plain-text source, for text documents.
 *
 * @example
 * Block.document(Block.textSource("Revenue grew 4% in Q3."), { title: "Q3 report" }).mediaType // "text/plain"
 *
 * @since 0.1.0
 */
export const textSource = (text: string): FileSource => ({ _tag: "Text", text })

/**
 * Splits a `data:` URL into its media type and base64 data, or `undefined`
 * when the string is not a base64 data URL.
 *
 * @example
 * Block.parseDataUrl("data:image/png;base64,iVBORw0KGgo=")
 * // { mediaType: "image/png", data: "iVBORw0KGgo=" }
 *
 * @since 0.1.0
 */
export const parseDataUrl = (value: string): { readonly mediaType: string; readonly data: string } | undefined => {
  const parts = base64DataUrlParts(value)
  return parts === undefined ? undefined : { mediaType: parts.mediaType, data: value.slice(parts.dataStart) }
}

/**
 * A file block from its source and media type.
 *
 * @example
 * Block.file(Block.fileId("file-abc123"), "application/pdf", { filename: "report.pdf" })
 *
 * @since 0.1.0
 */
export const file = (
  source: FileSource,
  mediaType: string,
  extras?: Extras<typeof FileBlock, "source" | "mediaType">
): FileBlock => freeze(new FileBlock({ ...copyOptions(extras), mediaType, source: { ...source } }))

const sourceOf = (value: string | FileSource, fallbackMediaType: string): { source: FileSource; mediaType: string } => {
  if (typeof value !== "string") return { source: value, mediaType: fallbackMediaType }
  const data = parseDataUrl(value)
  return data === undefined
    ? { source: url(value), mediaType: fallbackMediaType }
    : { source: base64(data.data), mediaType: data.mediaType }
}

/**
 * An image from a URL, a `data:` URL, or a source. The media type comes from
 * the data URL or the options, else `image/*`.
 *
 * @example
 * Block.image("https://example.com/cat.png", { detail: "low" })
 * Block.image("data:image/png;base64,iVBORw0KGgo=")
 *
 * @since 0.1.0
 */
export const image = (
  source: string | FileSource,
  extras?: Extras<typeof FileBlock, "source" | "mediaType"> & { readonly mediaType?: string }
): FileBlock => {
  const { mediaType: given, ...rest } = extras ?? {}
  const resolved = sourceOf(source, given ?? "image/*")
  return file(resolved.source, given ?? resolved.mediaType, rest)
}

/**
 * A document (PDF by default) from a URL, a `data:` URL, or a source, with
 * Anthropic's `title`, `context` and `citationsEnabled` settings.
 *
 * @example
 * Block.document(Block.textSource("The quarterly numbers..."), { mediaType: "text/plain", title: "Q3", citationsEnabled: true })
 *
 * @since 0.1.0
 */
export const document = (
  source: string | FileSource,
  extras?: Extras<typeof FileBlock, "source" | "mediaType"> & { readonly mediaType?: string }
): FileBlock => {
  const { mediaType: given, ...rest } = extras ?? {}
  const fallback = typeof source !== "string" && source._tag === "Text" ? "text/plain" : "application/pdf"
  const resolved = sourceOf(source, given ?? fallback)
  return file(resolved.source, given ?? resolved.mediaType, rest)
}

/**
 * Audio, base64-encoded, with its media type (`audio/wav`, `audio/mpeg`).
 *
 * @example
 * Block.audio("UklGRi...", "audio/wav")
 *
 * @since 0.1.0
 */
export const audio = (
  data: string,
  mediaType: string,
  extras?: Extras<typeof FileBlock, "source" | "mediaType">
): FileBlock => file(base64(data), mediaType, extras)

/**
 * A tool call. `args` is any JSON value; pass `rawArgs` (and `parseError`)
 * when the arguments came from a provider as text.
 *
 * @example
 * Block.toolCall("call_1", "get_weather", { city: "Oslo" })
 *
 * @since 0.1.0
 */
export const toolCall = (
  id: string,
  name: string,
  args: Schema.Json = {},
  extras?: Extras<typeof ToolCallBlock, "id" | "name" | "args">
): ToolCallBlock => freeze(new ToolCallBlock({ ...copyOptions(extras), id, name, args: frozenJson(args) }))

/**
 * A JSON value inside a tool result.
 *
 * @example
 * Block.toolResult("call_1", "get_weather", [Block.json({ temperature: 12, unit: "C" })])
 *
 * @since 0.1.0
 */
export const json = (value: Schema.Json): JsonBlock => freeze(new JsonBlock({ value: frozenJson(value) }))

/**
 * A tool result. `content` is a string, or parts (text, files, JSON values).
 *
 * @example
 * Block.toolResult("call_1", "get_weather", "12°C, rain")
 *
 * @since 0.1.0
 */
export const toolResult = (
  toolCallId: string,
  toolName: string,
  content: ToolResultContent,
  isError = false,
  extras?: Extras<typeof ToolResultBlock, "toolCallId" | "toolName" | "content" | "isError">
): ToolResultBlock =>
  freeze(
    new ToolResultBlock({
      ...copyOptions(extras),
      toolCallId,
      toolName,
      content: typeof content === "string" ? content : content.slice(),
      isError
    })
  )

/**
 * Provider data kept as sent.
 *
 * @example
 * Block.providerData("anthropic", { type: "container_upload", file_id: "file_01" })
 *
 * @since 0.1.0
 */
export const providerData = (provider: string, data: JsonObject): ProviderDataBlock =>
  freeze(new ProviderDataBlock({ provider, data: frozenJson(data) }))

// ---------------------------------------------------------------------------
// readers
// ---------------------------------------------------------------------------

/**
 * Branch on a block's kind. The `cases` object must name every kind, so a new
 * block kind is a compile error at every call site that does not handle it.
 *
 * @example
 * const label = (block: Block.Block): string =>
 *   Block.match(block, {
 *     Text: (b) => b.text,
 *     Thinking: () => "(thinking)",
 *     RedactedThinking: () => "(redacted thinking)",
 *     Refusal: (b) => `refused: ${b.refusal}`,
 *     File: (b) => b.mediaType,
 *     ToolCall: (b) => `calls ${b.name}`,
 *     ToolResult: (b) => `result of ${b.toolName}`,
 *     Json: () => "(json)",
 *     ProviderData: (b) => `(${b.provider} data)`
 *   })
 * label(Block.toolCall("call_1", "search")) // "calls search"
 *
 * @since 0.1.0
 */
export const match = <R>(
  block: Block,
  cases: { readonly [K in Tag]: (block: Extract<Block, { readonly _tag: K }>) => R }
): R => {
  switch (block._tag) {
    case "Text":
      return cases.Text(block)
    case "Thinking":
      return cases.Thinking(block)
    case "RedactedThinking":
      return cases.RedactedThinking(block)
    case "Refusal":
      return cases.Refusal(block)
    case "File":
      return cases.File(block)
    case "ToolCall":
      return cases.ToolCall(block)
    case "ToolResult":
      return cases.ToolResult(block)
    case "Json":
      return cases.Json(block)
    case "ProviderData":
      return cases.ProviderData(block)
    default:
      return absurd(block)
  }
}

/**
 * Marks a branch the type system proves unreachable; used as the `default` of
 * every exhaustive `switch`, so adding a case is a compile error there.
 *
 * @example
 * const weight = (block: Block.UserBlock): number => {
 *   switch (block._tag) {
 *     case "Text": return block.text.length
 *     case "File": return 1000
 *     case "ProviderData": return 0
 *     default: return Block.absurd(block)
 *   }
 * }
 *
 * @since 0.1.0
 */
export const absurd = (value: never): never => {
  // cut: the whole text of a value 20,000 levels deep or 10 MB long is no message
  throw new Error(`unreachable: ${truncate(safeStringify(value), 200)}`)
}

/**
 * Whether a tool call's provider text parsed as JSON (always true for calls
 * built in code).
 *
 * @example
 * Block.argsParsed(Block.toolCall("call_1", "search", { q: "effect" })) // true
 * Block.argsParsed(Block.toolCall("call_2", "search", {}, { rawArgs: '{"q": "eff', parseError: "Unexpected end of JSON input" })) // false
 *
 * @since 0.1.0
 */
export const argsParsed = (call: ToolCallBlock): boolean => call.parseError === undefined

/**
 * The argument text to send back to a provider: the provider's own text when
 * it was kept and still gives `args` (or did not parse, and `args` was
 * repaired from it), else the JSON of `args`, as the adapters send it: a
 * call whose `args` were changed after it was read (a redacted password)
 * gives its new `args`, not the text it was read with.
 *
 * @example
 * Block.argsText(Block.toolCall("call_1", "search", { q: "effect" })) // '{"q":"effect"}'
 * Block.argsText(Block.toolCall("call_2", "search", { q: "effect" }, { rawArgs: '{ "q": "effect" }' })) // '{ "q": "effect" }'
 * Block.argsText(Block.toolCall("call_3", "login", { password: "[redacted]" }, { rawArgs: '{ "password": "hunter2" }' })) // '{"password":"[redacted]"}'
 *
 * @since 0.1.0
 */
export const argsText = (call: ToolCallBlock): string => argsUpTo(call, Infinity)

/** `argsText`, of which only the first `max` code units and one more are wanted (see `stringifyHead`). */
const argsUpTo = (call: ToolCallBlock, max: number): string =>
  // the kept text is read once per call, by whoever asks first (the reader that parsed it tells, so none does again)
  call.rawArgs !== undefined && rawArgsHold(call) ? call.rawArgs : stringifyHead(call.args, max)

/**
 * A file as a short placeholder for text renderings: `[image/png report.png]`.
 *
 * @example
 * Block.fileLabel(Block.document("https://example.com/r.pdf", { filename: "r.pdf" })) // "[application/pdf r.pdf]"
 *
 * @since 0.1.0
 */
export const fileLabel = (block: FileBlock): string =>
  `[${block.mediaType}${block.filename === undefined ? "" : ` ${block.filename}`}${block.title === undefined ? "" : ` "${block.title}"`}]`

/**
 * The text of a tool result's content: the string itself, or its parts joined
 * with newlines (JSON values as JSON text, files as a placeholder).
 *
 * @example
 * Block.resultContentText([Block.text("Found 2 files:"), Block.json(["a.ts", "b.ts"])]) // 'Found 2 files:\n["a.ts","b.ts"]'
 *
 * @since 0.1.0
 */
export const resultContentText = (content: ToolResultContent): string => resultTextUpTo(content, Infinity)

/** `resultContentText`, of which only the first `max` code units and one more are wanted (see `stringifyHead`). */
const resultTextUpTo = (content: ToolResultContent, max: number): string => {
  if (typeof content === "string") return content
  let out = ""
  // past `max`, what follows is cut off anyway
  for (let i = 0; i < content.length && !(out.length > max); i++) {
    const part = content[i]!
    let piece: string
    switch (part._tag) {
      case "Text":
        piece = part.text
        break
      case "File":
        piece = fileLabel(part)
        break
      case "Json":
        piece = stringifyHead(part.value, max)
        break
      default:
        return absurd(part)
    }
    out = i === 0 ? piece : `${out}\n${piece}`
  }
  return out
}

/**
 * Options for rendering blocks as text.
 *
 * @since 0.1.0
 */
export interface RenderOptions {
  /** Longest rendered tool-call argument JSON before it is cut with "…" (default 200). */
  readonly maxArgsLength?: number
  /** Longest rendered tool-result content before it is cut with "…" (default 500). */
  readonly maxResultLength?: number
  /** Render thinking text as `[thinking: …]` (default: thinking is omitted). */
  readonly includeThinking?: boolean
}

/**
 * Cuts a string to `max` code units, marking the cut with "…". A cut never
 * falls between the two halves of a character outside the Basic
 * Multilingual Plane (an emoji, a math letter): that character is left out
 * whole, so the result is always well-formed text that JSON encoders and
 * model APIs take as sent.
 *
 * @example
 * Block.truncate("a long tool result", 6) // "a long…"
 * Block.truncate("ok 👍 done", 4) // "ok …"
 *
 * @since 0.1.0
 */
export const truncate = (s: string, max: number): string => cutText(s, max)

/**
 * A block as plain text, for summaries and transcripts: tool calls and results
 * are rendered (never silently dropped), with long arguments and results cut;
 * files become a placeholder naming their media type and name. Thinking is
 * omitted unless `includeThinking` is set; redacted thinking is always
 * omitted (it is opaque). Provider data is written as its provider, its
 * `type` and its JSON cut like tool arguments: it holds what the model has
 * no block for, which is often tool traffic (a Responses `custom_tool_call`
 * or `local_shell_call` and their outputs).
 *
 * @example
 * Block.blockToText(Block.toolCall("c1", "search", { q: "effect" }))
 * // => '[tool call search({"q":"effect"})]'
 *
 * @since 0.1.0
 */
export const blockToText = (block: Block, options?: RenderOptions): string => {
  switch (block._tag) {
    case "Text":
      return block.text
    case "Thinking": {
      if (options?.includeThinking !== true) return ""
      const summary = block.summary === undefined || block.summary.length === 0 ? "" : block.summary.join("\n")
      const body = block.thinking === "" ? summary : summary === "" ? block.thinking : `${block.thinking}\n${summary}`
      return `[thinking: ${body}]`
    }
    case "RedactedThinking":
      return ""
    case "ProviderData": {
      const type = block.data["type"]
      const max = options?.maxArgsLength ?? 200
      return `[${block.provider}${typeof type === "string" ? ` ${type}` : ""}: ${truncate(stringifyHead(block.data, max), max)}]`
    }
    case "Refusal":
      return `[refusal: ${block.refusal}]`
    case "File":
      return fileLabel(block)
    case "Json": {
      const max = options?.maxResultLength ?? 500
      return truncate(stringifyHead(block.value, max), max)
    }
    case "ToolCall": {
      const max = options?.maxArgsLength ?? 200
      return `[tool call ${block.name}(${truncate(argsUpTo(block, max), max)})]`
    }
    case "ToolResult": {
      const max = options?.maxResultLength ?? 500
      const body = truncate(resultTextUpTo(block.content, max), max)
      return `[tool result ${block.toolName}${block.isError ? " (error)" : ""}: ${body}]`
    }
    default:
      return absurd(block)
  }
}

/**
 * `JSON.stringify` that cannot throw (cycles, BigInt, deep nesting): a value
 * nested deeper than `JSON.stringify` can write (near 10,000 levels) is
 * written whole all the same, on one line; a value JSON cannot hold (a
 * cycle, a BigInt, `undefined`) falls back to `String(value)`. The whole
 * text, however long: cut it with `truncate` for a message.
 *
 * @example
 * const cyclic: { self?: unknown } = {}
 * cyclic.self = cyclic
 * Block.safeStringify({ n: 1 }) // '{"n":1}'
 * Block.safeStringify(cyclic) // "[object Object]"
 * let deep: unknown = 1
 * for (let i = 0; i < 20_000; i++) deep = [deep]
 * Block.safeStringify(deep).startsWith("[[[") // true
 *
 * @since 0.1.0
 */
export const safeStringify = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    // too deep for V8's writer: the same JSON by an explicit stack (which throws for a cycle or a BigInt too)
    try {
      return stringifyIndented(value, 0)
    } catch {
      // not JSON: its own text
    }
    try {
      return String(value)
    } catch {
      return "[unprintable]"
    }
  }
}
