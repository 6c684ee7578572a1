/**
 * effect/ai interop: our conversation to and from an effect/ai
 * `Prompt.Prompt`, a `LanguageModel` response's parts to messages, tool
 * definitions to and from a `Toolkit`, and token counting both ways
 * (our estimator as an effect/ai `Tokenizer`, an effect/ai `Tokenizer` as
 * our `TokenEstimator`). With these, the library drops into an effect/ai
 * `Chat`: an agent validates, repairs, counts and trims the `Chat`'s history
 * with this library's functions.
 *
 * **How the model maps** (one message is one Prompt message, one block one
 * part, in order):
 *
 * | model | effect/ai `Prompt` |
 * |---|---|
 * | text | `text` part |
 * | thinking / redacted thinking | `reasoning` part (`anthropic.info`: `thinking` with `signature`, or `redacted_thinking` with `redactedData`) |
 * | refusal | an empty `text` part with `openai.refusal` |
 * | file | `file` part (`data`: base64 text, or a `URL`; `fileName`) |
 * | tool call | `tool-call` part (`params`, `providerExecuted`) |
 * | tool result | `tool-result` part (`result`, `isFailure`, `modelOutput`, `providerExecuted`) |
 *
 * Replay data goes where effect/ai's provider packages look for it:
 * `openai.itemId` / `openai.encryptedContent`, `openai.imageDetail`,
 * `anthropic.cacheControl` (our `cache_control`), `anthropic.documentTitle`
 * / `documentContext` / `citations`, `google.thoughtSignature`. Other
 * provider options are kept under their own key, as they are, but for an
 * option whose name starts with `$`, kept with one more in front (`"$text"`
 * as `$$text`, the rule of the other adapters' kept fields), so that no
 * option of the sender's is read as a hint; the other adapters' hints a
 * message or block holds (Anthropic's `$separateMessage`) go the other way
 * under `"effect-agent-messages"` (`hints`), not as options. What a Prompt
 * has no place for (metadata, participant names, usage, citations,
 * reasoning summaries and status, a tool call's original argument text, the
 * exact parts of a tool result, provider data blocks, where a file's data
 * comes from) is kept under `"effect-agent-messages"` in the options, so
 * ours -> Prompt -> ours is the identity for every conversation.
 *
 * Reading a Prompt built elsewhere: a `tool-approval-request` part becomes a
 * `ProviderDataBlock` (provider `"effect-ai"`, its options, if any, under
 * `options` in the data), written back as that part; a
 * `tool-approval-response` has no place in a tool message and is reported. A string file `data` is
 * read as a URL when it is one, as a `data:` URL when it is one, and as
 * base64 otherwise; the block's media type is the part's. Base64 text that
 * came as a `data:` URL (whose own media type may differ from the part's),
 * or that is not standard padded base64 (effect/ai reads a string as
 * base64 whatever it holds), has the text before the data kept as the
 * `$dataPrefix` hint (`""` for none) in `providerOptions["effect-ai"]` and
 * is written back as it came. Base64 data whose text would read back as a
 * URL or a `data:` URL (text that is no base64, given as data) is written
 * as it is, marked as base64 in our own options, and read back as the data
 * it was. A URL is written as a `URL` object (effect/ai's
 * OpenAI provider reads a string as base64), its text kept when the parser
 * spells it otherwise; one read from an http(s) string goes back as that
 * string (the `$urlAsText` hint). A Prompt's Anthropic option spelt
 * `cache_control`, which effect/ai-anthropic does not read, is no
 * breakpoint: it is kept aside and written back as it came; and options of
 * a provider named as our own key (`ownKey`) are kept aside and read back as
 * they were, never as ours. A `reasoning` part with
 * `anthropic.info` `redacted_thinking` is redacted thinking, which has no
 * text: a text beside it (no provider sends it) is kept as the `$text`
 * hint and written back. A message's `anthropic.cacheControl` goes on its
 * last block, where effect/ai-anthropic puts it (marked with the
 * `$cacheOnMessage` hint, outside a system message, and written back on the
 * message), unless that block has a breakpoint of its own or cannot hold
 * one (provider data): then it stays on the message; both directions
 * decide this alike, so the marker for a breakpoint set on the message
 * itself is written only where it is needed. An explicit
 * `cacheControl: null` (no breakpoint) is read as `cache_control: null`
 * and written back where it was, on a block or a message.
 * A provider's option record that is not an object (`{ openai: 5 }`) is
 * kept as it is under the `$options` hint, written back, and reported
 * (`UnknownProviderField`, kept; a `null` one is not reported). A
 * `modelOutput` part has its options read like those of any part. Two
 * values have a normal form, since the model holds JSON and JSON has no
 * `undefined` (a provider API takes no absent tool input or result
 * either): a tool call with no `params` is read as `{}` and a tool result
 * with no `result` as JSON `null`, written back as `params: {}` and
 * `result: null` (with a model output, as the model output's text). A tool result whose `modelOutput` stands in for its
 * `result` (a tool with `toModelOutput`) has the model output as its content
 * (what the model saw) and the result, unless it is that text, kept in
 * `providerOptions["effect-ai"]["$result"]`, written back as the result. A
 * replay option of another type than the one effect/ai's providers read (an
 * `openai.imageDetail` that is no detail, an `itemId` that is no string) stays
 * in the provider options as it is, reported (`UnknownProviderField`, kept);
 * an explicit `null` in one (`openai.itemId: null`,
 * `google.thoughtSignature: null`, an Anthropic document's `citations: null`)
 * stays there too, with no warning, and is written back as it was. A
 * provider option of ours named like a replay option of its provider that
 * the part's own field would overwrite or that would be read as that field
 * (an Anthropic field the sender named `cacheControl`, a thinking block's
 * `info`, a document's `documentTitle`, the rest of a document's
 * `citations` beside `enabled`) is kept under `"effect-agent-messages"`
 * (`fields`) instead, and read back as the option it is.
 * What is under `"effect-agent-messages"` is decoded where it is read: a
 * value that is not what its place holds (a tool call kept as a tool
 * result's content, a name that is no string, an own record that is no
 * object: it holds nothing this adapter wrote), or under a key that
 * nothing at its place reads (a `summary` on a text part), is ignored, the Prompt part
 * read as it is, and reported (`UnknownProviderField`, not kept: a loss to
 * strict conversion); kept usage that is not token counts, which the Prompt
 * has nothing to fall back on for, is a `MalformedPayload`.
 *
 * @since 0.1.0
 */
import { Effect, Equal, Layer, Option } from "effect"
import { Schema } from "effect"
import type { JsonSchema } from "effect"
import { AiError, Prompt, type Response, Tokenizer, Tool, Toolkit } from "effect/ai"
import type { LanguageModel } from "effect/ai"
import { Base64 } from "effect/encoding"
import * as Block from "../Block.js"
import * as Message from "../Message.js"
import * as Request from "../Request.js"
import { hasNonBase64Char, standardBase64 } from "../internal/base64.js"
import { messageText, preview } from "../internal/preview.js"
import { copyJson, stringify } from "../internal/json.js"
import * as TokenEstimator from "../TokenEstimator.js"
import {
  type ConversionOptions,
  type Converted,
  ConvertedContent,
  DroppedContent,
  type FinishReason,
  type InvalidToolArguments,
  type MalformedPayload,
  UnknownProviderField,
  type UnsupportedContent
} from "./Conversion.js"
import * as A from "./internal/adapter.js"
import { isHintKey, keptKey, wireName } from "../internal/hint.js"
import { defined, hintKey } from "./internal/kept.js"
import * as ToolArguments from "./ToolArguments.js"

type JsonObj = { [key: string]: Schema.Json }
type Obj = { readonly [key: string]: unknown }
type Ctx = A.Ctx
const setKey = A.setKey
const isObj = (u: unknown): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * The key under which Prompt options keep what a Prompt has no place for.
 *
 * @example
 * const { value: prompt } = yield* EffectAi.toPrompt([Message.user("hi", { name: "alice" })])
 * prompt.content[0]?.options[EffectAi.ownKey] // { name: "alice" }: a Prompt has no participant names
 *
 * @since 0.1.0
 */
export const ownKey = "effect-agent-messages"

/**
 * The provider name of `ProviderDataBlock`s read from Prompt parts the
 * model has no block for (tool approval requests).
 *
 * @example
 * import { Effect } from "effect"
 * import type { Prompt } from "effect/ai"
 * import { EffectAi } from "effect-agent-messages/providers"
 *
 * // tool approval requests, which the model has no block for
 * const approvalsIn = (prompt: Prompt.Prompt) =>
 *   EffectAi.fromPrompt(prompt).pipe(
 *     Effect.map(({ value }) =>
 *       value.flatMap((m) => m.content).filter((b) => b._tag === "ProviderData" && b.provider === EffectAi.providerKey)
 *     )
 *   )
 *
 * @since 0.1.0
 */
export const providerKey = "effect-ai"

type Options = Prompt.ProviderOptions
type MutableOptions = { [key: string]: Schema.Json | null }

// ---------------------------------------------------------------------------
// options: ours -> Prompt
// ---------------------------------------------------------------------------

/**
 * Builds a Prompt options record: provider options mapped, replay fields
 * placed, our own record last. The hints of this adapter that a part's
 * writer asks for (`hints`) are taken out of `providerOptions["effect-ai"]`
 * (read with `hint`), and the option records that were no objects in the
 * Prompt (`$options`) are written back as they were.
 */
/** The hints a part's writer asks an options builder for, each with what it holds: text, or any JSON value. */
type HintsAsked = { readonly [key: string]: "text" | "json" }

class OptionsBuilder {
  private readonly out: MutableOptions = {}
  private own: JsonObj | undefined
  private readonly hints: Map<string, Schema.Json> = new Map()
  private nonObjects: JsonObj | undefined
  /** A Prompt's Anthropic `cache_control` field read back (`CACHE_FIELD`), to be written as it came. */
  private cacheField: Schema.Json | undefined
  /** The provider options kept as they are, by provider and name in the Prompt: the key each is stored under. */
  private readonly kept: Map<string, Map<string, string>> = new Map()
  /** Provider options kept under our own key (`fields`), by provider and stored key: see `field`. */
  private fields: { [provider: string]: JsonObj } | undefined

  constructor(private readonly ctx: Ctx, given: Block.ProviderOptions | undefined, hints: HintsAsked = {}) {
    const providerOptions = given === undefined ? undefined : this.withoutHints(given, hints)
    if (providerOptions === undefined) return
    for (const provider of Object.keys(providerOptions)) {
      const record = providerOptions[provider]!
      // an empty record is written as one: the Prompt holds it, and reading it back gives it again
      if (Object.keys(record).length === 0 && provider !== ownKey) setKey(this.out as JsonObj, provider, {})
      for (const k of Object.keys(record)) {
        const value = record[k]!
        if (isHintKey(k)) this.hintOfAnother(provider, k, value)
        // options of a provider named as our own key would be read as ours: they go under our key too, read back as they are
        else if (provider === ownKey) this.aside(provider, k, value)
        else if (provider === "anthropic" && k === "cache_control") this.put("anthropic", "cacheControl", value)
        // a field named `cacheControl` is no breakpoint: under that name, the reader would take it for Anthropic's `cache_control`
        else if (provider === "anthropic" && k === "cacheControl") this.aside(provider, k, value)
        else {
          this.put(provider, wireName(k), value)
          const names = this.kept.get(provider) ?? new Map<string, string>()
          names.set(wireName(k), k)
          this.kept.set(provider, names)
        }
      }
    }
    if (this.cacheField !== undefined) this.put("anthropic", "cache_control", this.cacheField)
  }

  /**
   * A hint no writer here asked for (another adapter's, such as Anthropic's
   * `$separateMessage`, or one of ours where it means nothing): kept under
   * our own key (`hints`, by provider and stored key), since a Prompt option
   * of that name would be a field of the sender's.
   */
  private hintOfAnother(provider: string, stored: string, value: Schema.Json): void {
    const hints = (this.own?.["hints"] ?? {}) as JsonObj
    const record: JsonObj = Object.hasOwn(hints, provider) ? (hints[provider] as JsonObj) : {}
    setKey(record, stored, value)
    setKey(hints, provider, record)
    this.keep("hints", hints)
  }

  /**
   * The options without the hints asked for and `$options`, which are kept aside (a text hint that is no text stays: it
   * is no hint of ours, kept as another's).
   */
  private withoutHints(options: Block.ProviderOptions, hints: HintsAsked): Block.ProviderOptions {
    const own = options[providerKey]
    if (own === undefined) return options
    const rest: { [key: string]: Schema.Json } = {}
    for (const key of Object.keys(own)) {
      const value = own[key]!
      if (key === OPTIONS && isObj(value)) this.nonObjects = value as JsonObj
      else if (key === CACHE_FIELD) this.cacheField = value
      else if (Object.hasOwn(hints, key) && (hints[key] === "json" || typeof value === "string")) this.hints.set(key, value)
      else setKey(rest, key, value)
    }
    const out: { [provider: string]: Block.JsonObject } = {}
    for (const provider of Object.keys(options)) {
      if (provider !== providerKey) setKey(out as JsonObj, provider, options[provider]!)
      else if (Object.keys(rest).length > 0) setKey(out as JsonObj, provider, rest)
    }
    return out
  }

  /** A hint asked for when the builder was made (`TEXT`, `DATA_PREFIX`, `RESULT`). */
  hint(key: string): Schema.Json | undefined {
    return this.hints.get(key)
  }

  /** A text hint asked for when the builder was made (always text: one that is not stays in the options). */
  textHint(key: string): string | undefined {
    const value = this.hints.get(key)
    return typeof value === "string" ? value : undefined
  }

  /**
   * A replay field of the part, from the block's own field (`value`), read
   * back with `read`. A provider option kept under the same name (an
   * Anthropic field named `info` or `documentTitle`) that this field would
   * overwrite, or that `read` would take for it, is no such field: it goes
   * under our own key (`fields`) and is read back as the option it is.
   */
  field<A>(provider: string, key: string, value: Schema.Json | undefined, read: Read<A>): this {
    const names = this.kept.get(provider)
    const stored = names?.get(key)
    if (stored !== undefined) {
      const record = this.out[provider] as JsonObj
      const option = record[key]!
      if (value !== undefined || (option !== null && read(option)._tag === "Some")) {
        names!.delete(key)
        delete record[key]
        if (Object.keys(record).length === 0) delete this.out[provider]
        this.aside(provider, stored, option)
      }
    }
    return this.put(provider, key, value)
  }

  private put(provider: string, key: string, value: Schema.Json | undefined): this {
    if (value === undefined) return this
    // own keys only: a provider named `__proto__` must not reach Object.prototype through `out`
    const current = Object.prototype.hasOwnProperty.call(this.out, provider) ? this.out[provider] : undefined
    const record: JsonObj = isObj(current) ? (current as JsonObj) : {}
    setKey(record, key, value)
    setKey(this.out as JsonObj, provider, record)
    return this
  }

  /** A provider option kept under our own key (`fields`, by provider and stored key), out of the way of a replay field. */
  private aside(provider: string, stored: string, value: Schema.Json): void {
    this.fields ??= {}
    const record: JsonObj = Object.hasOwn(this.fields, provider) ? this.fields[provider]! : {}
    setKey(record, stored, value)
    setKey(this.fields, provider, record)
  }

  keep(key: string, value: Schema.Json | undefined): this {
    if (value === undefined) return this
    this.own ??= {}
    setKey(this.own, key, value)
    return this
  }

  build(): Options {
    if (this.fields !== undefined) this.keep("fields", this.fields)
    if (this.own !== undefined) this.out[ownKey] = this.own
    const nonObjects = this.nonObjects
    if (nonObjects !== undefined) {
      for (const provider of Object.keys(nonObjects)) {
        // a record written since (a replay field set on the block, a value kept for it) wins over the Prompt's non-object
        if (Object.hasOwn(this.out, provider)) {
          A.dropped(this.ctx, undefined, undefined, `the options value ${preview(nonObjects[provider])} under ${preview(provider)}`, "the block now has options of its own there")
        } else setKey(this.out as JsonObj, provider, nonObjects[provider]!)
      }
    }
    return this.out
  }
}

const encodeUsage = (usage: Message.Usage): JsonObj => defined({ ...usage }) as JsonObj

/** A block in the canonical JSON form (the codec's), for keeping it whole. */
const encodeBlock = (block: Block.Block): Schema.Json => {
  switch (block._tag) {
    case "Json":
      return { _tag: "Json", value: block.value }
    default: {
      // the message codec writes blocks of every kind; a tool message holds results, an assistant the rest
      const message = block._tag === "ToolResult" && block.providerExecuted !== true ? Message.tool(block) : Message.assistant([block as Block.AssistantBlock])
      return (Message.encode(message).content as ReadonlyArray<Schema.Json>)[0]!
    }
  }
}

/** A block's own Anthropic cache breakpoint. */
const cacheOf = (block: Block.Block | undefined): Schema.Json | undefined =>
  block === undefined || block._tag === "Json" || block._tag === "ProviderData" ? undefined : block.providerOptions?.["anthropic"]?.["cache_control"]

/**
 * Where a message's Anthropic cache breakpoint is read back to when no
 * marker says it is the message's own: `"block"`, the last block, where
 * effect/ai-anthropic puts it, when that block can hold one and has none
 * of its own; `"copy"`, nowhere, when it is the breakpoint of a system
 * message's last kept block, which `toPrompt` copied to the message (where
 * effect/ai-anthropic reads a system prompt's); else `"message"`, on the
 * message (a last block with a breakpoint of its own keeps it). Both
 * directions ask this, so a marker is written only where it is needed.
 */
const cachePlace = (blocks: ReadonlyArray<Block.Block>, cache: Schema.Json, keptSystemBlocks: boolean): "block" | "copy" | "message" => {
  const last = blocks[blocks.length - 1]
  if (last === undefined || last._tag === "Json" || last._tag === "ProviderData") return "message"
  const own = cacheOf(last)
  if (own === undefined) return "block"
  return keptSystemBlocks && Equal.equals(own, cache) ? "copy" : "message"
}

/** The options of a message; `lifted`, the breakpoint of its last block that was the message's in the Prompt (see `liftCache`). */
const messageOptions = (ctx: Ctx, m: Message.Message, kept: ReadonlyArray<Schema.Json>, systemBlocks?: Schema.Json, lifted?: Schema.Json): OptionsBuilder => {
  const builder = new OptionsBuilder(ctx, m.providerOptions).field("anthropic", "cacheControl", lifted, readJson)
  builder.keep("metadata", m.metadata)
  if (m.role !== "tool") builder.keep("name", m.name)
  if (m.role === "assistant" && m.usage !== undefined) builder.keep("usage", encodeUsage(m.usage))
  if (kept.length > 0) builder.keep("providerData", kept as Schema.JsonArray)
  builder.keep("blocks", systemBlocks)
  // a cache breakpoint set on the message itself stays there on the way back, marked where it would be read elsewhere
  const cache = m.providerOptions?.["anthropic"]?.["cache_control"]
  // (an explicit null is no breakpoint: it stays on the message, as the reader leaves it)
  if (cache !== undefined && cache !== null && cachePlace(m.content, cache, systemBlocks !== undefined) !== "message") builder.keep("messageCacheControl", true)
  return builder
}

/**
 * A file's data as a Prompt holds it. Base64 text read from a Prompt as a
 * `data:` URL, or as text that is not standard padded base64, has the text
 * before the data (`""` for none) kept as the `dataPrefix` hint and is
 * written back as it was.
 */
const fileData = (source: Block.FileSource, prefix: string | undefined, asText: boolean): { readonly data: string | URL; readonly source?: string; readonly text?: string } => {
  switch (source._tag) {
    case "Base64": {
      // a string is base64 to effect/ai, and the OpenAI and Anthropic APIs its provider packages reach take the standard
      // alphabet only; text that is no base64 at all (a URL given as data) goes as it is, not padded
      const data = prefix !== undefined ? prefix + source.data : hasNonBase64Char(source.data) ? source.data : standardBase64(source.data)
      // text the reader would take for a URL or a data: URL is marked as the base64 data it is
      const misread = (prefix === undefined || prefix === "") && (isHttpText(data) || Block.parseDataUrl(data) !== undefined)
      return misread ? { data, source: "Base64" } : { data }
    }
    case "Url": {
      // effect/ai reads a URL object as a URL (its OpenAI provider takes a string for base64): every URL goes as one,
      // its text kept when the parser writes it otherwise ("https://example.com" as ".../"); text that is no URL is
      // kept as text, marked unless it reads back as a URL
      // (an http(s) URL read from a Prompt's text goes back as that text: `URL_AS_TEXT`)
      if (asText && isHttpText(source.url)) return { data: source.url }
      const url = URL.canParse(source.url) ? new URL(source.url) : undefined
      if (url !== undefined) return url.href === source.url ? { data: url } : { data: url, text: source.url }
      return isHttpText(source.url) ? { data: source.url } : { data: source.url, source: "Url" }
    }
    case "FileId":
      return { data: source.fileId, source: "FileId" }
    case "Text":
      return { data: source.text, source: "Text" }
    default:
      return Block.absurd(source)
  }
}

/** Text file data that `fromPrompt` reads as a URL with no marker. */
const isHttpText = (data: string): boolean => /^https?:\/\//.test(data)

const filePart = (ctx: Ctx, block: Block.FileBlock): Prompt.FilePart => {
  const asked = block.source._tag === "Base64" ? { [DATA_PREFIX]: "text" } as const : block.source._tag === "Url" ? { [URL_AS_TEXT]: "json" } as const : {}
  const options = new OptionsBuilder(ctx, block.providerOptions, asked)
  const { data, source, text } = fileData(block.source, options.textHint(DATA_PREFIX), options.hint(URL_AS_TEXT) === true)
  options
    .field("openai", "imageDetail", block.detail, ImageDetail)
    .field("openai", "itemId", block.itemId, readString)
    .field("anthropic", "documentTitle", block.title, readString)
    .field("anthropic", "documentContext", block.context, readString)
    .field("anthropic", "citations", block.citationsEnabled === undefined ? undefined : { enabled: block.citationsEnabled }, Citations)
    .keep("source", source)
    .keep("urlText", text)
  return Prompt.filePart({ mediaType: block.mediaType, data, ...(block.filename === undefined ? {} : { fileName: block.filename }), options: options.build() })
}

/** A text part; in an assistant message (`refusals`) an empty one is read back as a refusal when it has `openai.refusal`. */
const textPart = (ctx: Ctx, block: Block.TextBlock, refusals = false): Prompt.TextPart =>
  Prompt.textPart({
    text: block.text,
    options: new OptionsBuilder(ctx, block.providerOptions)
      .field("openai", "itemId", block.itemId, readString)
      .field("google", "thoughtSignature", block.thoughtSignature, readString)
      .field("openai", "refusal", undefined, refusals && block.text === "" ? readString : readNothing)
      .keep("citations", block.citations as Schema.JsonArray | undefined)
      .build()
  })

/** A tool result's parts as the model output effect/ai's providers send in place of the result (text and file parts with their options). */
const modelOutputOf = (ctx: Ctx, content: ReadonlyArray<Block.ToolResultPart>): Array<Prompt.ToolModelOutputPart> =>
  content.map((part) => (part._tag === "File" ? filePart(ctx, part) : part._tag === "Text" ? textPart(ctx, part) : Prompt.textPart({ text: Block.resultContentText([part]) })))

const resultPart = (ctx: Ctx, block: Block.ToolResultBlock): Prompt.ToolResultPart => {
  const content = block.content
  const only = typeof content === "string" || content.length !== 1 ? undefined : content[0]
  // one JSON value that is not text is the result itself
  const json = only?._tag === "Json" && typeof only.value !== "string" ? only.value : undefined
  const asParts = typeof content !== "string" && json === undefined
  // the result a model output stood in for goes back as the result when the content is written as a model output again
  const options = new OptionsBuilder(ctx, block.providerOptions, asParts ? { [RESULT]: "json" } : {}).field("openai", "itemId", block.itemId, readString)
  const keptResult = options.hint(RESULT)
  let result: Schema.Json
  let modelOutput: Array<Prompt.ToolModelOutputPart> | undefined
  if (typeof content === "string") {
    result = content
  } else if (json !== undefined) {
    result = json
  } else {
    // the parts as effect/ai's providers render them (text and files read back as they are), and the exact parts
    // kept when a JSON part is among them (a model output has text in its place)
    // a kept result of null is a result (the tool's own null), not a missing one
    result = keptResult !== undefined ? keptResult : Block.resultContentText(content)
    modelOutput = modelOutputOf(ctx, content)
    if (content.some((part) => part._tag === "Json")) options.keep("content", content.map(encodeBlock) as Schema.JsonArray)
  }
  if (block.providerExecuted === false) options.keep("providerExecuted", false)
  return Prompt.toolResultPart({
    id: block.toolCallId,
    name: block.toolName,
    isFailure: block.isError,
    result,
    ...(modelOutput === undefined ? {} : { modelOutput }),
    providerExecuted: block.providerExecuted === true,
    options: options.build()
  })
}

const assistantPart = (ctx: Ctx, block: Block.AssistantBlock): Prompt.AssistantMessagePart | undefined => {
  switch (block._tag) {
    case "Text":
      return textPart(ctx, block, true)
    case "Thinking":
      return Prompt.reasoningPart({
        text: block.thinking,
        options: new OptionsBuilder(ctx, block.providerOptions)
          .field("anthropic", "info", block.signature === undefined ? undefined : { type: "thinking", signature: block.signature }, AnthropicInfo)
          .field("openai", "itemId", block.itemId, readString)
          .field("openai", "encryptedContent", block.encryptedContent, readString)
          .field("google", "thoughtSignature", block.thoughtSignature, readString)
          .keep("summary", block.summary as Schema.JsonArray | undefined)
          .keep("status", block.status)
          .build()
      })
    case "RedactedThinking": {
      // the text a reasoning part had beside its redacted data (no provider reads it) is a hint, written back
      const options = new OptionsBuilder(ctx, block.providerOptions, { [TEXT]: "text" })
      const text = options.textHint(TEXT) ?? ""
      return Prompt.reasoningPart({ text, options: options.field("anthropic", "info", { type: "redacted_thinking", redactedData: block.data }, AnthropicInfo).build() })
    }
    case "Refusal":
      return Prompt.textPart({
        text: "",
        options: new OptionsBuilder(ctx, block.providerOptions).field("openai", "refusal", block.refusal, readString).field("openai", "itemId", block.itemId, readString).build()
      })
    case "File":
      return filePart(ctx, block)
    case "ToolCall":
      return Prompt.toolCallPart({
        id: block.id,
        name: block.name,
        params: block.args,
        providerExecuted: block.providerExecuted === true,
        options: new OptionsBuilder(ctx, block.providerOptions)
          .field("openai", "itemId", block.itemId, readString)
          .field("google", "thoughtSignature", block.thoughtSignature, readString)
          .keep("rawArgs", block.rawArgs)
          .keep("parseError", block.parseError)
          // text that does not give the args (a call built so by hand): the args it went with, to tell an edit by
          .keep("argsAsWritten", block.rawArgs !== undefined && !ToolArguments.rawArgsHold(block) ? stringify(block.args) : undefined)
          .keep("providerExecuted", block.providerExecuted === false ? false : undefined)
          .build()
      })
    case "ToolResult":
      return resultPart(ctx, block)
    case "ProviderData":
      return approvalRequest(block)
    default:
      return Block.absurd(block)
  }
}

/**
 * A `tool-approval-request` part read from a Prompt goes back as that part,
 * with its options when it had some; other provider data is kept in the
 * options.
 */
const approvalRequest = (block: Block.ProviderDataBlock): Prompt.ToolApprovalRequestPart | undefined => {
  const { approvalId, options, toolCallId, type } = block.data
  const keys = Object.keys(block.data).length
  // options read from a Prompt are a non-empty object: an empty one would not come back
  const withOptions = options !== undefined && isObj(options) && Object.keys(options).length > 0
  const exact = block.provider === providerKey && keys === (withOptions ? 4 : 3)
  return exact && type === "tool-approval-request" && typeof approvalId === "string" && typeof toolCallId === "string"
    ? Prompt.toolApprovalRequestPart({ approvalId, toolCallId, ...(withOptions ? { options: options as Options } : {}) })
    : undefined
}

/**
 * A system message's content as one string, and its blocks kept when one
 * string cannot say them. A lone text block with nothing but an Anthropic
 * cache breakpoint needs no keeping when the message has none: the
 * breakpoint goes on the message and is read back onto the block.
 */
const systemContent = (m: Message.SystemMessage): { readonly content: string; readonly blocks?: Schema.Json } => {
  const only = m.content[0]
  if (m.content.length === 1 && only !== undefined && only.citations === undefined && only.itemId === undefined && only.thoughtSignature === undefined && onlyCache(only, m)) {
    return { content: only.text }
  }
  return { content: m.content.map((b) => b.text).join("\n"), blocks: m.content.map(encodeBlock) as Schema.JsonArray }
}

/** Whether a system message's lone block has no provider options, or just a cache breakpoint (not an explicit null) the message lacks. */
const onlyCache = (block: Block.TextBlock, m: Message.SystemMessage): boolean => {
  const options = block.providerOptions
  if (options === undefined) return true
  const anthropic = options["anthropic"]
  const cache = anthropic?.["cache_control"]
  return Object.keys(options).length === 1 && anthropic !== undefined && Object.keys(anthropic).length === 1 && cache !== undefined && cache !== null &&
    m.providerOptions?.["anthropic"]?.["cache_control"] === undefined
}

/**
 * A message's blocks with the last one's cache breakpoint taken back to the
 * message when it was the message's in the Prompt (`CACHE_ON_MESSAGE`) and
 * the message has none of its own.
 */
const liftCache = <B extends Block.Block>(m: { readonly content: ReadonlyArray<B>; readonly providerOptions?: Block.ProviderOptions | undefined }): { readonly content: ReadonlyArray<B>; readonly cache?: Schema.Json } => {
  const last = m.content[m.content.length - 1]
  const cache = cacheOf(last)
  if (last === undefined || last._tag === "Json" || last._tag === "ProviderData" || cache === undefined) return { content: m.content }
  const options = last.providerOptions!
  if (options[providerKey]?.[CACHE_ON_MESSAGE] !== true || m.providerOptions?.["anthropic"]?.["cache_control"] !== undefined) return { content: m.content }
  const { cache_control: _, ...anthropic } = options["anthropic"]!
  const { [CACHE_ON_MESSAGE]: __, ...own } = options[providerKey]!
  const providerOptions: { [provider: string]: Block.JsonObject } = {}
  for (const provider of Object.keys(options)) {
    const record = provider === "anthropic" ? anthropic : provider === providerKey ? own : options[provider]!
    if (Object.keys(record).length > 0) setKey(providerOptions as JsonObj, provider, record)
  }
  const { providerOptions: ___, ...rest } = last as Block.Block & { readonly providerOptions?: Block.ProviderOptions }
  const Ctor = last.constructor as new(props: object) => B
  const block = Block.freeze(new Ctor(Object.keys(providerOptions).length > 0 ? { ...rest, providerOptions } : rest))
  return { content: [...m.content.slice(0, -1), block], cache }
}

const toPromptMessage = (ctx: Ctx, m: Message.Message): Prompt.Message => {
  switch (m.role) {
    case "system": {
      const { blocks, content } = systemContent(m)
      const options = messageOptions(ctx, m, [], blocks).build()
      // effect/ai-anthropic reads a system prompt's cache breakpoint from the message: the last block's goes there too
      // (an explicit null is no breakpoint: it stays with the kept block)
      const cache = cacheOf(m.content[m.content.length - 1])
      const anthropic = options["anthropic"]
      if (cache !== undefined && cache !== null && !(isObj(anthropic) && "cacheControl" in anthropic)) {
        setKey(options as MutableOptions, "anthropic", { ...(isObj(anthropic) ? anthropic as JsonObj : {}), cacheControl: cache })
      }
      return Prompt.systemMessage({ content, options })
    }
    case "user": {
      const parts: Array<Prompt.UserMessagePart> = []
      const kept: Array<Schema.Json> = []
      const { cache, content } = liftCache(m)
      content.forEach((block, at) => {
        if (block._tag === "Text") parts.push(textPart(ctx, block))
        else if (block._tag === "File") parts.push(filePart(ctx, block))
        else kept.push({ at, block: encodeBlock(block) })
      })
      return Prompt.userMessage({ content: parts, options: messageOptions(ctx, m, kept, undefined, cache).build() })
    }
    case "assistant": {
      const parts: Array<Prompt.AssistantMessagePart> = []
      const kept: Array<Schema.Json> = []
      const { cache, content } = liftCache(m)
      content.forEach((block, at) => {
        const part = assistantPart(ctx, block)
        if (part === undefined) kept.push({ at, block: encodeBlock(block) })
        else parts.push(part)
      })
      return Prompt.assistantMessage({ content: parts, options: messageOptions(ctx, m, kept, undefined, cache).build() })
    }
    case "tool": {
      const { cache, content } = liftCache(m)
      return Prompt.toolMessage({ content: content.map((block) => resultPart(ctx, block)), options: messageOptions(ctx, m, [], undefined, cache).build() })
    }
    default:
      return Block.absurd(m)
  }
}

/**
 * Our conversation as an effect/ai `Prompt`: one Prompt message per message,
 * one part per block, replay data in the options where effect/ai's provider
 * packages look for it, and everything else kept under
 * `"effect-agent-messages"`, so `fromPrompt(toPrompt(x))` is `x`.
 *
 * @example
 * import { Effect } from "effect"
 * import { Chat } from "effect/ai"
 * import { Message } from "effect-agent-messages"
 * import { EffectAi } from "effect-agent-messages/providers"
 *
 * const program = Effect.gen(function*() {
 *   const { value: prompt } = yield* EffectAi.toPrompt([Message.system("Be brief."), Message.user("Weather in Oslo?")])
 *   const chat = yield* Chat.fromPrompt(prompt)
 *   return chat
 * })
 *
 * @category conversions
 * @since 0.1.0
 */
export const toPrompt = (messages: ReadonlyArray<Message.Message>, options?: ConversionOptions): Effect.Effect<Converted<Prompt.Prompt>, UnsupportedContent> => {
  const ctx = A.makeCtx(providerKey, options)
  return A.runEncode(ctx, () => Prompt.fromMessages(messages.map((m) => toPromptMessage(ctx, m))))
}

// ---------------------------------------------------------------------------
// Prompt -> ours
// ---------------------------------------------------------------------------

/** A reader of a value of `schema` (a field the schema does not know is refused, not dropped). */
type Read<A> = (u: unknown) => Option.Option<A>
const reader = <S extends Schema.Codec<unknown, unknown>>(schema: S): Read<S["Type"]> =>
  Schema.decodeUnknownOption(schema as Schema.Codec<unknown, unknown>, { onExcessProperty: "error" }) as Read<S["Type"]>

const readString = reader(Schema.String)
const readJson = reader(Schema.Json)
/** The reader of a replay field that is not read at a place. */
const readNothing: Read<never> = () => Option.none()

/** What a kept value must be to be read, per key of our own record. */
const KeptFalse = reader(Schema.Literal(false))
const KeptTrue = reader(Schema.Literal(true))
const KeptSource = reader(Schema.Literals(["Url", "FileId", "Text", "Base64"]))
const KeptStrings = reader(Schema.Array(Schema.String))
const KeptJsonArray = reader(Schema.Array(Schema.Json))
const KeptObject = reader(Block.JsonObject)
const KeptUsage = reader(Message.Usage)
const KeptSystemBlocks = reader(Schema.Array(Block.SystemBlock))
const KeptResultContent = reader(Schema.Array(Block.ToolResultPart))
// only provider data is kept beside a message's parts: every other block kind has a part of its own
/** Hints `toPrompt` kept under our own key, by provider: each stored key with one `$` in front. */
const KeptHints = reader(Schema.Record(Schema.String, Schema.Record(Schema.String.check(Schema.isPattern(/^\$(?!\$)/)), Schema.Json)))
/** Provider options kept aside from the replay fields of their names (`OptionsBuilder.field`), by provider and stored key. */
const KeptFields = reader(Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Json)))
const KeptProviderData = reader(Schema.Array(Schema.Struct({ at: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)), block: Block.ProviderDataBlock })))

/** The replay fields effect/ai's provider packages read, each with the type it must have to be read as the field. */
const ImageDetail = reader(Block.ImageDetail)
const Citations = reader(Schema.Struct({ enabled: Schema.Boolean }))
const AnthropicInfo = reader(Schema.Union([
  Schema.Struct({ type: Schema.Literal("thinking"), signature: Schema.String }),
  Schema.Struct({ type: Schema.Literal("redacted_thinking"), redactedData: Schema.String })
]))

/**
 * The key, under `providerOptions["effect-ai"]` of a tool result, of a Prompt
 * `result` that a `modelOutput` stood in for (a tool's `toModelOutput`): the
 * block's content is what the model saw, this is the tool's own value.
 */
const RESULT = hintKey("result")

/** The text of a reasoning part read as redacted thinking (which has no text), under `providerOptions["effect-ai"]`. */
const TEXT = hintKey("text")

/**
 * The text before the base64 data of a file part's string data (`"data:image/png;base64,"`), or `""` for base64
 * text that is not standard and padded: the data is written back after it as it was, not made standard.
 */
const DATA_PREFIX = hintKey("dataPrefix")

/**
 * On a file read from an http(s) URL given as text in a Prompt (which effect/ai's Anthropic provider reads as a URL):
 * written back as that text, not as the `URL` object every other URL is written as.
 */
const URL_AS_TEXT = hintKey("urlAsText")

/** The option records of a Prompt part or message that were no objects (`{ openai: 5 }`), by provider, written back. */
const OPTIONS = hintKey("options")

/**
 * A Prompt's Anthropic option spelt `cache_control`: a field of the sender's, which effect/ai-anthropic does not read
 * (it reads `cacheControl`), so no breakpoint. Kept aside under our own key and written back as it came, never as
 * our `cache_control`, which would become the Prompt's `cacheControl`: a breakpoint the Prompt did not have.
 */
const CACHE_FIELD = hintKey("cacheControlField")

/**
 * On the last block of a user, assistant or tool message: that its Anthropic cache breakpoint was the message's in
 * the Prompt (effect/ai-anthropic puts that one on the last block too), so it is written back on the message.
 */
const CACHE_ON_MESSAGE = hintKey("cacheOnMessage")

/** A Prompt option record as stored: each field whose name starts with `$` kept with one more in front (`internal/hint`). */
const escaped = (record: JsonObj): JsonObj => {
  const out: JsonObj = {}
  for (const k of Object.keys(record)) setKey(out, keptKey(k), record[k]!)
  return out
}

/**
 * Reads a Prompt options record back: the replay fields taken out, the rest
 * as provider options. A replay field of another type than the one it must
 * have stays where it is (kept as provider options, reported); a value kept
 * under our own key that does not decode as what its place holds is ignored
 * (the Prompt part is read as it is) and reported.
 */
class OptionsReader {
  private readonly own: Obj
  /** The keys of our own record read at this place: the others hold nothing this place has, and are reported. */
  private readonly used: Set<string> = new Set()
  private readonly records: Map<string, JsonObj> = new Map()
  /** The providers whose record the Prompt gives empty: kept as empty records (one emptied by the fields taken is not). */
  private readonly empty: Set<string> = new Set()
  /** Option records that are no objects, kept as they are (`OPTIONS`). */
  private nonObjects: JsonObj | undefined

  constructor(private readonly ctx: Ctx, given: Options | undefined, private readonly path: string) {
    // one JSON copy up front: options are untyped, and a value that is not JSON is a malformed prompt, not a crash
    const options = given === undefined ? undefined : A.jsonOf(ctx, given, `${path}.options`)
    if (!isObj(options)) {
      this.own = {}
      return
    }
    const own = options[ownKey]
    // our own record is decoded where it is read: one that is no object holds nothing we wrote, and is ignored
    // (reported, not kept: strict conversion refuses it) like any kept value that is not what its place holds
    if (own !== undefined && own !== null && !isObj(own)) ctx.warnings.push(new UnknownProviderField({ path: `${path}.options.${ownKey}`, kept: false }))
    this.own = isObj(own) ? own : {}
    for (const provider of Object.keys(options)) {
      if (provider === ownKey) continue
      const record = options[provider] as Schema.Json | undefined
      if (record === undefined || isObj(record)) {
        if (record !== undefined) this.records.set(provider, escaped(record as JsonObj))
        if (record !== undefined && Object.keys(record).length === 0) this.empty.add(provider)
        continue
      }
      // a provider's record that is no object is no option effect/ai's providers read: kept as it is, written back,
      // and reported unless it is null
      this.nonObjects ??= {}
      setKey(this.nonObjects, provider, record)
      if (record !== null) ctx.warnings.push(new UnknownProviderField({ path: `${path}.options.${provider}`, kept: true }))
    }
  }

  /**
   * Takes a replay field out of a provider's record when it decodes as
   * `schema`; a value of another type stays in the record, so it is kept as
   * a provider option and written back as it was, and is reported.
   */
  take<A>(provider: string, key: string, read: Read<A>): A | undefined {
    const record = this.records.get(provider)
    if (record === undefined || !Object.hasOwn(record, key)) return undefined
    const value = record[key]
    // an explicit null is no value of the field: it stays in the record, kept as it is and written back
    if (value === null) return undefined
    const decoded = read(value)
    if (decoded._tag === "None") {
      this.ctx.warnings.push(new UnknownProviderField({ path: `${this.path}.options.${provider}.${key}`, kept: true }))
      return undefined
    }
    delete record[key]
    return decoded.value
  }

  /** A provider's field as it is, left in place. */
  peek(provider: string, key: string): Schema.Json | undefined {
    const record = this.records.get(provider)
    return record === undefined || !Object.hasOwn(record, key) ? undefined : record[key]
  }

  /** A value kept under our own key, when it decodes as `schema`; otherwise it is ignored and reported. */
  kept<A>(key: string, read: Read<A>): A | undefined {
    const value = this.keptValue(key)
    if (value === undefined) return undefined
    const decoded = read(value)
    if (decoded._tag === "None") {
      this.ctx.warnings.push(new UnknownProviderField({ path: `${this.path}.options.${ownKey}.${key}`, kept: false }))
      return undefined
    }
    return decoded.value
  }

  /** A value kept under our own key as it is, for a caller that decodes it itself. */
  keptValue(key: string): Schema.Json | undefined {
    if (!Object.hasOwn(this.own, key)) return undefined
    this.used.add(key)
    return this.own[key] as Schema.Json
  }

  /**
   * What is left, as our provider options (`cacheControl` back to `cache_control`), with `extra` fields for this
   * adapter's own key; called last, it reports what our own record holds that nothing here read (a key this place
   * has no use for: ignored, not kept).
   */
  providerOptions(extra?: JsonObj): { readonly providerOptions?: Block.ProviderOptions } {
    // the hints `toPrompt` kept under our own key, back in their records (a value that is not that is ignored, reported)
    const kept = this.kept("hints", KeptHints)
    if (kept !== undefined) {
      for (const provider of Object.keys(kept)) {
        const record = this.records.get(provider) ?? {}
        const given = kept[provider]!
        for (const k of Object.keys(given)) setKey(record, k, given[k]!)
        this.records.set(provider, record)
      }
    }
    const fields = this.kept("fields", KeptFields)
    for (const key of Object.keys(this.own)) {
      if (!this.used.has(key)) this.ctx.warnings.push(new UnknownProviderField({ path: `${this.path}.options.${ownKey}.${key}`, kept: false }))
    }
    // an explicit `cacheControl: null` (no breakpoint, as recorded Anthropic traffic spells it) is kept as it is; a
    // `cache_control` of the Prompt's is no breakpoint, kept aside (`CACHE_FIELD`)
    const anthropic = this.records.get("anthropic")
    let cacheField: Schema.Json | undefined
    if (anthropic !== undefined && Object.hasOwn(anthropic, "cache_control")) {
      cacheField = anthropic["cache_control"]
      delete anthropic["cache_control"]
    }
    if (anthropic !== undefined && "cacheControl" in anthropic) {
      const value = anthropic["cacheControl"]
      delete anthropic["cacheControl"]
      if (value !== undefined) anthropic["cache_control"] = value
    }
    // the provider options `toPrompt` kept aside from the replay fields of their names, back in their records
    if (fields !== undefined) {
      for (const provider of Object.keys(fields)) {
        const record = this.records.get(provider) ?? {}
        const given = fields[provider]!
        for (const k of Object.keys(given)) setKey(record, k, given[k]!)
        this.records.set(provider, record)
      }
    }
    const given: JsonObj | undefined = this.nonObjects === undefined ? extra : { ...extra, [OPTIONS]: this.nonObjects }
    const hints: JsonObj | undefined = cacheField === undefined ? given : { ...given, [CACHE_FIELD]: cacheField }
    if (hints !== undefined) {
      const record = this.records.get(providerKey) ?? {}
      for (const k of Object.keys(hints)) setKey(record, k, hints[k]!)
      this.records.set(providerKey, record)
    }
    const out: Record<string, Block.JsonObject> = {}
    for (const [provider, record] of this.records) if (Object.keys(record).length > 0 || this.empty.has(provider)) setKey(out as JsonObj, provider, record)
    return Object.keys(out).length === 0 ? {} : { providerOptions: out }
  }
}

/**
 * A file part's data as a source, and the `DATA_PREFIX` hint for base64 text that is written back as it was: a
 * `data:` URL (the text before its data, whose media type may differ from the part's: the part's is the block's),
 * or text that making it standard would change. `urlText` is a URL's text as written (`fileData`).
 */
const sourceOf = (ctx: Ctx, data: unknown, kept: string | undefined, path: string, urlText?: string): { readonly source: Block.FileSource; readonly prefix?: string; readonly asText?: true } => {
  if (data instanceof Uint8Array) return { source: Block.base64(Base64.encode(data)) }
  // a URL's text as it was written, while the URL is still the one written from it (an edited URL wins)
  if (data instanceof URL) return { source: Block.url(urlText !== undefined && URL.canParse(urlText) && new URL(urlText).href === data.href ? urlText : data.href) }
  if (typeof data !== "string") return A.malformed(ctx, `${path}.data`, "expected a string, bytes or a URL")
  switch (kept) {
    case "Url":
      return { source: Block.url(data) }
    case "FileId":
      return { source: Block.fileId(data) }
    case "Text":
      return { source: Block.textSource(data) }
    case "Base64":
      // base64 data whose text reads as a URL or a data: URL (see `fileData`), written back as it is
      return standardBase64(data) === data ? { source: Block.base64(data) } : { source: Block.base64(data), prefix: "" }
    default: {
      const parsed = Block.parseDataUrl(data)
      if (parsed !== undefined) return { source: Block.base64(parsed.data), prefix: data.slice(0, data.length - parsed.data.length) }
      if (isHttpText(data)) return { source: Block.url(data), asText: true }
      return standardBase64(data) === data ? { source: Block.base64(data) } : { source: Block.base64(data), prefix: "" }
    }
  }
}

const readFile = (ctx: Ctx, part: Prompt.FilePart, path: string): Block.FileBlock => {
  const o = new OptionsReader(ctx, part.options, path)
  const { prefix, source, asText } = sourceOf(ctx, part.data, o.kept("source", KeptSource), path, o.kept("urlText", readString))
  return Block.file(source, part.mediaType, {
    ...defined({
      filename: part.fileName,
      detail: o.take("openai", "imageDetail", ImageDetail),
      itemId: o.take("openai", "itemId", readString),
      title: o.take("anthropic", "documentTitle", readString),
      context: o.take("anthropic", "documentContext", readString),
      citationsEnabled: o.take("anthropic", "citations", Citations)?.enabled
    }),
    ...o.providerOptions(prefix !== undefined ? { [DATA_PREFIX]: prefix } : asText === true ? { [URL_AS_TEXT]: true } : undefined)
  })
}

/** A text part as a text block; an `openai.refusal` beside it, which a text block has no field for, stays in its provider options. */
const readText = (ctx: Ctx, part: Prompt.TextPart, path: string): Block.TextBlock => textOf(part, new OptionsReader(ctx, part.options, path))

const textOf = (part: Prompt.TextPart, o: OptionsReader): Block.TextBlock =>
  Block.text(part.text, {
    ...defined({
      itemId: o.take("openai", "itemId", readString),
      thoughtSignature: o.take("google", "thoughtSignature", readString),
      citations: o.kept("citations", KeptJsonArray)
    }),
    ...o.providerOptions()
  })

/** In an assistant message, an empty text part with `openai.refusal` is a refusal (a user message holds none). */
const readAssistantText = (ctx: Ctx, part: Prompt.TextPart, path: string): Block.TextBlock | Block.RefusalBlock => {
  const o = new OptionsReader(ctx, part.options, path)
  const refusal = part.text === "" ? o.take("openai", "refusal", readString) : undefined
  if (refusal === undefined) return textOf(part, o)
  return Block.refusal(refusal, { ...defined({ itemId: o.take("openai", "itemId", readString) }), ...o.providerOptions() })
}

/**
 * Whether the parts kept for a tool result are still what its Prompt part
 * says: the model output written from them (what effect/ai's providers
 * send), or, without one, the result text. An edited part wins.
 */
const keptContentHolds = (part: Prompt.ToolResultPart, kept: ReadonlyArray<Block.ToolResultPart>): boolean =>
  part.modelOutput === undefined
    ? part.result === Block.resultContentText(kept)
    : part.modelOutput.length === kept.length && Prompt.toolModelOutputToText(part.modelOutput) === Prompt.toolModelOutputToText(modelOutputOf(A.makeCtx(providerKey, undefined), kept))

const readResult = (ctx: Ctx, part: Prompt.ToolResultPart, path: string): Block.ToolResultBlock => {
  const o = new OptionsReader(ctx, part.options, path)
  const kept = o.kept("content", KeptResultContent)
  let content: Block.ToolResultContent
  if (kept !== undefined && keptContentHolds(part, kept)) {
    content = kept
  } else if (part.modelOutput !== undefined) {
    content = part.modelOutput.map((p, i) => (p.type === "text" ? readText(ctx, p, `${path}.modelOutput[${i}]`) : readFile(ctx, p, `${path}.modelOutput[${i}]`)))
  } else if (typeof part.result === "string") {
    content = part.result
  } else {
    content = [Block.json(A.jsonOf(ctx, part.result ?? null, `${path}.result`))]
  }
  // a model output stands in for the result (a tool's `toModelOutput`): the content is what the model saw, and the
  // tool's own result, unless it is that text, is kept beside it and written back as the result
  const result = part.modelOutput !== undefined && part.result !== undefined && part.result !== Block.resultContentText(content) ? A.jsonOf(ctx, part.result, `${path}.result`) : undefined
  const explicit = o.kept("providerExecuted", KeptFalse)
  return Block.toolResult(part.id, part.name, content, part.isFailure, {
    ...(part.providerExecuted ? { providerExecuted: true } : explicit === false ? { providerExecuted: false } : {}),
    ...defined({ itemId: o.take("openai", "itemId", readString) }),
    ...o.providerOptions(result === undefined ? undefined : { [RESULT]: result })
  })
}

const readAssistantPart = (ctx: Ctx, part: Prompt.AssistantMessagePart, path: string): Block.AssistantBlock => {
  switch (part.type) {
    case "text":
      return readAssistantText(ctx, part, path)
    case "reasoning": {
      const o = new OptionsReader(ctx, part.options, path)
      const info = o.take("anthropic", "info", AnthropicInfo)
      if (info?.type === "redacted_thinking") return Block.redactedThinking(info.redactedData, o.providerOptions(part.text === "" ? undefined : { [TEXT]: part.text }))
      return Block.thinking(part.text, info?.signature, {
        ...defined({
          itemId: o.take("openai", "itemId", readString),
          encryptedContent: o.take("openai", "encryptedContent", readString),
          thoughtSignature: o.take("google", "thoughtSignature", readString),
          summary: o.kept("summary", KeptStrings),
          status: o.kept("status", readString)
        }),
        ...o.providerOptions()
      })
    }
    case "file":
      return readFile(ctx, part, path)
    case "tool-call": {
      const o = new OptionsReader(ctx, part.options, path)
      const kept = o.kept("rawArgs", readString)
      const keptError = o.kept("parseError", readString)
      const args = A.jsonOf(ctx, part.params === undefined ? {} : part.params, `${path}.params`)
      // the provider's text is kept while the params are the ones written with it: params edited in the Prompt (a
      // redaction) win
      const asWritten = o.kept("argsAsWritten", readString)
      const holds = kept !== undefined && (asWritten !== undefined ? stringify(args) === asWritten : ToolArguments.rawArgsHold({ rawArgs: kept, args }))
      const rawArgs = holds ? kept : undefined
      const parseError = holds ? keptError : undefined
      const explicit = o.kept("providerExecuted", KeptFalse)
      return Block.toolCall(part.id, part.name, args, {
        ...defined({ rawArgs, parseError, itemId: o.take("openai", "itemId", readString), thoughtSignature: o.take("google", "thoughtSignature", readString) }),
        ...(part.providerExecuted ? { providerExecuted: true } : explicit === false ? { providerExecuted: false } : {}),
        ...o.providerOptions()
      })
    }
    case "tool-result":
      return readResult(ctx, part, path)
    case "tool-approval-request": {
      const options = A.jsonOf(ctx, part.options, `${path}.options`)
      const withOptions = isObj(options) && Object.keys(options).length > 0
      return Block.providerData(providerKey, { type: part.type, approvalId: part.approvalId, toolCallId: part.toolCallId, ...(withOptions ? { options } : {}) })
    }
    default:
      return Block.absurd(part)
  }
}

/** Puts kept provider data blocks back at their places. */
const withKept = <B extends Block.Block>(blocks: Array<B | Block.ProviderDataBlock>, o: OptionsReader): Array<B | Block.ProviderDataBlock> => {
  const kept = o.kept("providerData", KeptProviderData)
  if (kept === undefined) return blocks
  for (const entry of kept) blocks.splice(Math.min(entry.at, blocks.length), 0, Block.freeze(entry.block))
  return blocks
}

/**
 * Blocks with a message-level Anthropic cache breakpoint placed on the last
 * one, where effect/ai-anthropic puts it (`cache_control` of the last
 * block), marked `CACHE_ON_MESSAGE` when it is to be written back on the
 * message; a block with a breakpoint of its own keeps it.
 */
const cachedLast = <B extends Block.Block>(blocks: ReadonlyArray<B>, cache: Schema.Json, fromMessage: boolean): ReadonlyArray<B> => {
  const last = blocks[blocks.length - 1]
  if (last === undefined || last._tag === "Json" || last._tag === "ProviderData") return blocks
  const options = last.providerOptions
  if (options?.["anthropic"]?.["cache_control"] !== undefined) return blocks
  const providerOptions: Block.ProviderOptions = {
    ...options,
    anthropic: { ...options?.["anthropic"], cache_control: cache },
    ...(fromMessage ? { [providerKey]: { ...options?.[providerKey], [CACHE_ON_MESSAGE]: true } } : {})
  }
  const Ctor = last.constructor as new(props: object) => B
  return [...blocks.slice(0, -1), Block.freeze(new Ctor({ ...last, providerOptions }))]
}

const readMessage = (ctx: Ctx, m: Prompt.Message, i: number): Message.Message => {
  const path = `prompt.content[${i}]`
  const o = new OptionsReader(ctx, m.options, path)
  const marked = o.kept("messageCacheControl", KeptTrue) === true
  // a message's cache breakpoint goes on its last block, where effect/ai-anthropic puts it (no provider takes
  // cache_control on a message); one that cannot go there stays on the message (see `cachePlace`)
  const place = <B extends Block.Block>(blocks: ReadonlyArray<B>, keptSystemBlocks = false): ReadonlyArray<B> => {
    const given = o.peek("anthropic", "cacheControl")
    if (marked || given === undefined || given === null) return blocks
    const where = cachePlace(blocks, given, keptSystemBlocks)
    if (where === "message") return blocks
    const cache = o.take("anthropic", "cacheControl", readJson)
    // a system message's Prompt form holds its breakpoint on the message only: no hint needed to write it back there
    return cache === undefined || where === "copy" ? blocks : cachedLast(blocks, cache, m.role !== "system")
  }
  // read after the blocks are placed: what is left of the options is the message's
  const base = () => ({ ...defined({ metadata: o.kept("metadata", KeptObject) }), ...o.providerOptions() })
  const named = () => {
    const metadata = o.kept("metadata", KeptObject)
    const name = o.kept("name", readString)
    return { ...defined({ metadata, name }), ...o.providerOptions() }
  }
  switch (m.role) {
    case "system": {
      const kept = o.kept("blocks", KeptSystemBlocks)?.map(Block.freeze)
      // the kept blocks while the Prompt's text is still the one written from them: an edited text wins
      const holds = kept !== undefined && kept.map((b) => b.text).join("\n") === m.content
      const blocks = place(holds ? kept : [Block.text(m.content)], holds)
      return Message.system(blocks, named())
    }
    case "user": {
      const blocks = m.content.map((part, p) => (part.type === "text" ? readText(ctx, part, `${path}.content[${p}]`) : readFile(ctx, part, `${path}.content[${p}]`)))
      const placed = place(withKept<Block.UserBlock>(blocks, o))
      return Message.user(placed, named())
    }
    case "assistant": {
      const blocks = m.content.map((part, p) => readAssistantPart(ctx, part, `${path}.content[${p}]`))
      const placed = place(withKept<Block.AssistantBlock>(blocks, o))
      // kept usage has no Prompt field to fall back on: token counts or a malformed prompt
      const keptUsage = o.keptValue("usage")
      const usage = keptUsage === undefined ? undefined : KeptUsage(keptUsage)
      if (usage !== undefined && usage._tag === "None") A.malformed(ctx, `${path}.options.${ownKey}.usage`, "expected token counts (whole numbers, not negative)")
      return Message.assistant(placed, { ...named(), ...(usage === undefined || usage._tag === "None" ? {} : { usage: usage.value }) })
    }
    case "tool": {
      const results: Array<Block.ToolResultBlock> = []
      m.content.forEach((part, p) => {
        if (part.type === "tool-result") results.push(readResult(ctx, part, `${path}.content[${p}]`))
        else ctx.warnings.push(new UnknownProviderField({ path: `${path}.content[${p}]`, kept: false }))
      })
      const placed = place(results)
      return Message.tool(placed, base())
    }
    default:
      // a Prompt built by hand in untyped code may hold anything: a malformed prompt, not a defect
      return A.malformed(ctx, path, `expected a system, user, assistant or tool message, got ${preview(m)}`)
  }
}

/**
 * An effect/ai `Prompt` as our conversation (see the module documentation
 * for what each part becomes). Fails with `MalformedPayload` when a value
 * is not JSON where the model needs JSON (tool parameters, results) or kept
 * usage is not token counts.
 *
 * @example
 * import { Effect, Ref } from "effect"
 * import { Chat } from "effect/ai"
 * import { Conversation, Repair } from "effect-agent-messages"
 * import { EffectAi } from "effect-agent-messages/providers"
 *
 * const program = Effect.gen(function*() {
 *   const chat = yield* Chat.empty
 *   // ... chat.generateText(...) calls ...
 *   const { value: messages } = yield* EffectAi.fromPrompt(yield* Ref.get(chat.history))
 *   const { messages: repaired } = Repair.repair(messages)
 *   return yield* Conversation.validate(repaired)
 * })
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromPrompt = (prompt: Prompt.Prompt, options?: ConversionOptions): Effect.Effect<Converted<Array<Message.Message>>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(providerKey, options)
  return A.run(ctx, () => {
    // a Prompt from untyped code may be anything (`Prompt.make` passes an object through as it is)
    let content: unknown
    try {
      content = (prompt as { readonly content?: unknown } | null | undefined)?.content
    } catch {
      content = undefined
    }
    if (!Array.isArray(content)) return A.malformed(ctx, "content", `expected a Prompt's list of messages, got ${preview(content)}`)
    return (content as ReadonlyArray<Prompt.Message>).map((m, i) => readChecked(ctx, m, i))
  })
}

const isPromptMessage = Schema.is(Prompt.Message)
const decodePromptMessage = Schema.decodeUnknownResult(Prompt.Message)

/**
 * `readMessage`, for a message from untyped code too: a message that is no Prompt message by effect/ai's own schema
 * (a content that is no list, a part of no known type, a text that is no string...) is `MalformedPayload`, with the
 * schema's reason. Only when reading fails: a valid message is read as it is, and a fault reading one stays a fault.
 */
const readChecked = (ctx: Ctx, m: Prompt.Message, i: number): Message.Message => {
  try {
    return readMessage(ctx, m, i)
  } catch (cause) {
    if (A.isAbort(cause) || isPromptMessage(m)) throw cause
    const decoded = decodePromptMessage(m)
    const reason = decoded._tag === "Failure"
      ? `not a Prompt message: ${messageText(decoded.failure.message)}`
      : "a message in the form a Prompt is made from (a content given as a string, say), not a Prompt's: make the Prompt with Prompt.make"
    return A.malformed(ctx, `prompt.content[${i}]`, reason)
  }
}

// ---------------------------------------------------------------------------
// LanguageModel responses
// ---------------------------------------------------------------------------

/**
 * A `LanguageModel` response read into the model: the messages it adds to
 * a history (the assistant message, with `usage`, and a tool message with
 * the results of tools the toolkit ran), why it stopped, its id and model.
 *
 * @since 0.1.0
 */
export interface DecodedParts {
  readonly messages: ReadonlyArray<Message.Message>
  readonly finishReason?: FinishReason
  /** effect/ai's own finish reason, as it said it. */
  readonly providerFinishReason?: string
  readonly usage?: Message.Usage
  readonly id?: string
  readonly model?: string
}

/**
 * A finish part's usage, its figures checked as every adapter checks a provider's (whole numbers from 0 to the safe
 * integers: effect/ai's own schema takes any integer, and a hand-built part may hold anything): a figure that is
 * not one is `MalformedPayload`, and a finish part without usage reports none.
 */
const usageOf = (ctx: A.Ctx, part: Response.FinishPart, path: string): Message.Usage | undefined => {
  const raw = part as unknown as A.Obj
  const usage = A.optObj(ctx, raw, "usage", path)
  if (usage === undefined) return undefined
  const input = A.optObj(ctx, usage, "inputTokens", `${path}.usage`)
  const output = A.optObj(ctx, usage, "outputTokens", `${path}.usage`)
  return A.usage({
    inputTokens: A.count(ctx, input, "total", `${path}.usage.inputTokens`),
    cachedInputTokens: A.count(ctx, input, "cacheRead", `${path}.usage.inputTokens`),
    cacheWriteInputTokens: A.count(ctx, input, "cacheWrite", `${path}.usage.inputTokens`),
    outputTokens: A.count(ctx, output, "total", `${path}.usage.outputTokens`),
    reasoningTokens: A.count(ctx, output, "reasoning", `${path}.usage.outputTokens`)
  })
}

/**
 * Reads the parts of a `LanguageModel` response (`response.content` of
 * `generateText`, or the parts of `streamText`) as the messages they add to
 * a history, grouped as effect/ai's `Chat` groups them
 * (`Prompt.fromResponseParts`); the finish part gives the usage (on the
 * assistant message) and the finish reason, the metadata part the id and
 * model. Source and error parts, which a history has no place for, are
 * reported (`DroppedContent`).
 *
 * @example
 * import { Effect } from "effect"
 * import { LanguageModel } from "effect/ai"
 * import { Message } from "effect-agent-messages"
 * import { EffectAi } from "effect-agent-messages/providers"
 *
 * const program = Effect.gen(function*() {
 *   const response = yield* LanguageModel.generateText({ prompt: "What is the weather in Oslo?" })
 *   const { value } = yield* EffectAi.fromResponseParts(response.content)
 *   const [reply] = value.messages
 *   return { reply, finishReason: value.finishReason } // reply: an assistant message with its usage
 * })
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromResponseParts = (parts: ReadonlyArray<Response.AnyPart>, options?: ConversionOptions): Effect.Effect<Converted<DecodedParts>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(providerKey, options)
  return A.run(ctx, () => {
    const prompt = Prompt.fromResponseParts(parts)
    let finishReason: FinishReason | undefined
    let providerFinishReason: string | undefined
    let usage: Message.Usage | undefined
    let id: string | undefined
    let model: string | undefined
    // text and reasoning started and not ended (by kind and id), deltas of none started, and call arguments streamed
    const open = { text: new Map<string, string>(), reasoning: new Map<string, string>() }
    const strays = new Set<string>()
    const params = new Map<string, { readonly name: string; text: string }>()
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]!
      if (part.type === "finish") {
        // effect/ai's "error" has no word of its own here
        finishReason = part.reason === "error" ? "other" : part.reason
        providerFinishReason = part.reason
        usage = usageOf(ctx, part, `parts[${k}]`)
      } else if (part.type === "response-metadata") {
        id = part.id ?? id
        model = part.modelId ?? model
      } else if (part.type === "source") {
        // effect/ai's Chat leaves sources out of the history as well; they name no text they cite
        const where = part.sourceType === "url" ? part.url : part.fileName ?? part.title
        A.dropped(ctx, undefined, undefined, `the ${part.sourceType} source ${preview(where)}`, "a source part names no text it cites, and a history holds citations only on text")
      } else if (part.type === "error") {
        A.dropped(ctx, undefined, undefined, `an error part (${preview(part.error)})`, "a history has no place for a response's errors")
      } else if (part.type === "text-start" || part.type === "reasoning-start") {
        open[part.type === "text-start" ? "text" : "reasoning"].set(part.id, "")
      } else if (part.type === "text-delta" || part.type === "reasoning-delta") {
        const kind = part.type === "text-delta" ? "text" : "reasoning"
        const so = open[kind].get(part.id)
        if (so !== undefined) open[kind].set(part.id, so + part.delta)
        else if (part.delta !== "") strays.add(`${kind} ${preview(part.id)}`)
      } else if (part.type === "text-end" || part.type === "reasoning-end") {
        open[part.type === "text-end" ? "text" : "reasoning"].delete(part.id)
      } else if (part.type === "tool-params-start") {
        params.set(part.id, { name: part.name, text: "" })
      } else if (part.type === "tool-params-delta") {
        const so = params.get(part.id)
        if (so !== undefined) so.text += part.delta
      } else if (part.type === "tool-call") {
        params.delete(part.id)
      }
    }
    // what effect/ai's history leaves out of a stream cut short (or out of order) is said, not lost without a word
    for (const kind of ["reasoning", "text"] as const) {
      for (const text of open[kind].values()) {
        if (text !== "") A.dropped(ctx, undefined, undefined, `the unfinished ${kind} ${preview(text)}`, "the parts ended before its end part, and effect/ai's history keeps finished parts only")
      }
    }
    for (const what of strays) A.dropped(ctx, undefined, undefined, `the deltas of ${what}`, "no start part came before them")
    for (const [callId, { name, text }] of params) {
      A.dropped(ctx, undefined, undefined, `the arguments streamed for ${preview(name)} (${preview(callId)}): ${preview(text)}`, "no tool-call part completed them, and effect/ai's history holds complete calls only")
    }
    const messages = prompt.content.map((m, i) => {
      const message = readMessage(ctx, m, i)
      return usage !== undefined && message.role === "assistant" ? Message.assistant(message.content, { ...message, usage }) : message
    })
    return { messages, ...defined({ finishReason, providerFinishReason, usage, id, model }) }
  })
}

// ---------------------------------------------------------------------------
// tools
// ---------------------------------------------------------------------------

/**
 * Tool definitions as an effect/ai `Toolkit` of dynamic tools (their JSON
 * Schema parameters as they are; the `strict` flag as the `Tool.Strict`
 * annotation), for `LanguageModel.generateText({ toolkit })`, with the
 * warnings of what a `Toolkit` cannot hold: a tool a provider defines
 * (`providerDefined`, or Anthropic's kept the older way, its `type` among
 * its Anthropic options; give it to that provider's own layer), a tool's
 * provider fields (Anthropic `cache_control`...; not the adapters' own
 * marks of how to write it back, such as the `$` hints), and all but the last of
 * several tools of one name (a `Toolkit` holds one per name), each a
 * `DroppedContent`; and a `ConvertedContent` when the tools come out in
 * another order: a `Toolkit` keeps them in a record, which puts names that
 * are array indexes ("2", "10") first.
 *
 * @example
 * const tools = [Request.tool("get_weather", { parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } })]
 * const { value: toolkit, warnings } = EffectAi.toToolkit(tools)
 * Object.keys(toolkit.tools) // ["get_weather"]
 * warnings // []
 *
 * @category tools
 * @since 0.1.0
 */
export const toToolkit = (tools: ReadonlyArray<Request.ToolDefinition>): Converted<Toolkit.Toolkit<Record<string, DynamicTool>>> => {
  const warnings: Array<DroppedContent | ConvertedContent> = []
  const functions = tools.filter((definition) => {
    // Anthropic's tools kept the older way (their type among the options) are not functions either
    const defined = A.providerToolOf(definition)
    if (defined === undefined) return true
    warnings.push(new DroppedContent({ what: `the tool ${preview(definition.name)} that ${Block.truncate(defined.provider, 80)} defines`, reason: "a Toolkit made from definitions holds function tools; give it to that provider's layer" }))
    return false
  })
  const last = new Map(functions.map((definition, i) => [definition.name, i]))
  const made = functions.flatMap((definition, i): Array<DynamicTool> => {
    if (last.get(definition.name) !== i) {
      warnings.push(new DroppedContent({ what: `an earlier tool named ${preview(definition.name)}`, reason: "a Toolkit holds one tool per name: the last one is kept" }))
      return []
    }
    const providers = providersDropped(definition)
    if (providers.length > 0) {
      warnings.push(new DroppedContent({ what: `what the tool ${preview(definition.name)} carries for ${Block.truncate(providers.join(", "), 200)}`, reason: "an effect/ai tool made from a definition has no provider options" }))
    }
    const tool = Tool.dynamic(definition.name, {
      ...(definition.description === undefined ? {} : { description: definition.description }),
      ...(definition.parameters === undefined ? {} : { parameters: definition.parameters as JsonSchema.JsonSchema })
    }) as unknown as DynamicTool
    return [definition.strict === undefined ? tool : (tool.annotate(Tool.Strict, definition.strict) as DynamicTool)]
  })
  const toolkit = toolkitOf(made)
  // a Toolkit keeps its tools in a record, which puts names that are array indexes ("2", "10") first, in numeric order
  const order = Object.keys(toolkit.tools)
  if (order.some((name, i) => name !== made[i]!.name)) {
    warnings.push(new ConvertedContent({ what: "the order of the tools", how: `as a Toolkit's record orders them: names that are numbers first (${Block.truncate(order.slice(0, 5).join(", "), 120)}${order.length > 5 ? ", ..." : ""})` }))
  }
  return { value: toolkit, warnings }
}

/** Tools per `Toolkit.make` call: its tools are spread as arguments, and a spread of 100,000 overflows the stack. */
const TOOLKIT_CHUNK = 8_192

/** A `Toolkit` of any number of tools: made in chunks, then merged in order (each name is given once). */
const toolkitOf = (tools: ReadonlyArray<DynamicTool>): Toolkit.Toolkit<Record<string, DynamicTool>> => {
  if (tools.length <= TOOLKIT_CHUNK) return Toolkit.make(...tools) as unknown as Toolkit.Toolkit<Record<string, DynamicTool>>
  const chunks: Array<Toolkit.Any> = []
  for (let i = 0; i < tools.length; i += TOOLKIT_CHUNK) chunks.push(Toolkit.make(...tools.slice(i, i + TOOLKIT_CHUNK)))
  return Toolkit.merge(...chunks) as unknown as Toolkit.Toolkit<Record<string, DynamicTool>>
}

/**
 * The providers whose options on a tool definition a `Toolkit` leaves out:
 * those with a field of the sender's, not only the adapters' own marks of
 * how to write the tool back in the same form (the `$` hints, such as
 * Gemini's `$parametersKey`, and the Chat adapter's `type: "functions"` on
 * a tool read from the deprecated `functions` list, a field no function
 * definition has). The Responses adapter's `$strictUnset` is reported: it
 * is what the tool means there (strict where possible), and a tool made
 * back from the `Toolkit` goes out with `strict: false`.
 */
const providersDropped = (definition: Request.ToolDefinition): Array<string> => {
  const all = definition.providerOptions ?? {}
  return Object.keys(all).filter((provider) => {
    const options = all[provider] ?? {}
    return Object.keys(options).some((k) =>
      provider === "openai-responses" && k === STRICT_UNSET
        ? options[k] === true
        : !isHintKey(k) && !(provider === "openai-chat" && k === "type" && options[k] === "functions")
    )
  })
}

/** The Responses adapter's hint that a function tool was read with `strict` unset. */
const STRICT_UNSET = hintKey("strictUnset")

/**
 * A tool made from a tool definition: its parameters are JSON Schema, its
 * input and output any JSON.
 *
 * @since 0.1.0
 */
export type DynamicTool = Tool.Dynamic<string, {
  readonly parameters: JsonSchema.JsonSchema
  readonly success: typeof Schema.Unknown
  readonly failure: typeof Schema.Never
  readonly failureMode: "error"
}>

/**
 * A `Toolkit`'s tools as tool definitions: each tool's name, description,
 * parameters as JSON Schema and strict flag. Tools a provider defines
 * (hosted tools) have no definition in the model and are reported, as is a
 * tool whose parameters schema is not JSON (a dynamic tool's schema holding
 * `Infinity`, a `Date` or a function), which is left out.
 *
 * @example
 * import { Schema } from "effect"
 * import { Tool, Toolkit } from "effect/ai"
 * import { EffectAi } from "effect-agent-messages/providers"
 *
 * const GetWeather = Tool.make("get_weather", {
 *   description: "Current weather for a city",
 *   parameters: Schema.Struct({ city: Schema.String })
 * })
 * const { value: definitions } = EffectAi.fromToolkit(Toolkit.make(GetWeather))
 * definitions[0]?.parameters // { type: "object", properties: { city: { type: "string" } }, required: ["city"], ... }
 *
 * @category tools
 * @since 0.1.0
 */
export const fromToolkit = <Tools extends Record<string, Tool.Any>>(toolkit: Toolkit.Toolkit<Tools>): Converted<Array<Request.ToolDefinition>> => {
  const tools: Array<Request.ToolDefinition> = []
  const warnings: Array<DroppedContent> = []
  for (const tool of Object.values(toolkit.tools) as Array<Tool.Any>) {
    if (Tool.isProviderDefined(tool)) {
      warnings.push(new DroppedContent({ what: `the provider-defined tool ${preview(tool.name)}`, reason: "a tool definition holds function tools only" }))
      continue
    }
    const parameters = parametersOf(tool)
    if ("problem" in parameters) {
      warnings.push(new DroppedContent({ what: `the tool ${preview(tool.name)}`, reason: parameters.problem }))
      continue
    }
    const strict = Tool.getStrictMode(tool)
    const description = Tool.getDescription(tool)
    tools.push(Request.tool(tool.name, defined({ description, parameters: parameters.value, strict })))
  }
  return { value: tools, warnings }
}

/**
 * A tool's parameters as a tool definition holds them: a JSON Schema object
 * (`undefined` for a dynamic tool made without parameters, which takes any
 * input), or why it has none a definition can hold. A dynamic tool's JSON
 * Schema is the caller's own value: it may hold what JSON cannot (a `1e400`
 * that is `Infinity`, a `Date`, a function) or not be an object at all.
 */
const parametersOf = (tool: Tool.Any): { readonly value: Block.JsonObject | undefined } | { readonly problem: string } => {
  let schema: unknown
  try {
    if (Tool.isDynamic(tool) && tool.jsonSchema === undefined && isUnknownSchema(tool)) return { value: undefined }
    schema = Tool.getJsonSchema(tool)
  } catch (cause) {
    return { problem: `its parameters have no JSON Schema (${preview(cause, 200)})` }
  }
  const copy = copyJson(schema, { freeze: false, skipUndefined: true })
  if (!("value" in copy)) {
    const at = copy.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("")
    return { problem: `its parameters schema is not JSON${at === "" ? "" : ` at parameters${messageText(at, 200)}`}: ${copy.reason}` }
  }
  const value = copy.value
  return A.isObj(value) ? { value } : { problem: `its parameters schema is not a JSON object, got ${preview(value)}` }
}

const isUnknownSchema = (tool: Tool.Any): boolean => {
  const ast = (tool.parametersSchema as { readonly ast?: { readonly _tag?: string } }).ast
  return ast?._tag === "Unknown"
}

/**
 * Our tool choice as effect/ai's.
 *
 * @example
 * EffectAi.toToolChoice({ _tag: "Tool", name: "get_weather" }) // { tool: "get_weather" }
 * EffectAi.toToolChoice("required") // "required"
 *
 * @category tools
 * @since 0.1.0
 */
export const toToolChoice = (choice: Request.ToolChoice): LanguageModel.ToolChoice<string> =>
  typeof choice === "string" ? choice : { tool: choice.name }

/**
 * effect/ai's tool choice as ours. A choice among several tools has no word
 * in the model: it becomes `"required"` (or `"auto"`), with a warning.
 *
 * @example
 * EffectAi.fromToolChoice({ tool: "get_weather" }).value // { _tag: "Tool", name: "get_weather" }
 * const { value, warnings } = EffectAi.fromToolChoice({ oneOf: ["get_weather", "get_time"], mode: "required" })
 * value // "required", with a warning: the model has no word for a choice among some tools
 *
 * @category tools
 * @since 0.1.0
 */
export const fromToolChoice = (choice: LanguageModel.ToolChoice<string>): Converted<Request.ToolChoice> => {
  if (typeof choice === "string") return { value: choice, warnings: [] }
  if ("tool" in choice) return { value: { _tag: "Tool", name: choice.tool }, warnings: [] }
  const mode = choice.mode ?? "auto"
  const only = choice.oneOf[0]
  if (choice.oneOf.length === 1 && only !== undefined && mode === "required") return { value: { _tag: "Tool", name: only }, warnings: [] }
  return {
    value: mode,
    warnings: [new ConvertedContent({ what: `a choice among ${choice.oneOf.length} tools`, how: `as "${mode}" over every tool` })]
  }
}

// ---------------------------------------------------------------------------
// tokenizers
// ---------------------------------------------------------------------------

const aiError = (method: string, description: string): AiError.AiError =>
  AiError.make({ module: "EffectAi", method, reason: new AiError.InvalidUserInputError({ description }) })

const promptOf = (input: Prompt.RawInput, method: string): Effect.Effect<Prompt.Prompt, AiError.AiError> =>
  Effect.try({ try: () => Prompt.make(input), catch: (cause) => aiError(method, `not a prompt: ${cause instanceof Error ? cause.message : String(cause)}`) })

const messagesOf = (prompt: Prompt.Prompt, method: string): Effect.Effect<Array<Message.Message>, AiError.AiError> =>
  fromPrompt(prompt).pipe(
    Effect.map((converted) => converted.value),
    Effect.mapError((error) => aiError(method, error.message))
  )

/**
 * Cuts that would part a call from its result: `bound[c]` is 1 when keeping
 * the messages from `c` on would keep one of a pair and drop the other. In a
 * valid prompt a result follows its call within one turn and no cut before a
 * user message is bound; a broken one may answer a call a turn late (or
 * before it). A result pairs with the newest call of its id before it, or
 * else with the first after it. Linear.
 */
const boundCutsOf = (messages: ReadonlyArray<Message.Message>): Uint8Array => {
  const n = messages.length
  const bound = new Uint8Array(n + 1)
  let depth: Int32Array | undefined
  let lastCall: Map<string, number> | undefined
  let early: Map<string, number> | undefined
  const pair = (a: number, b: number): void => {
    if (a === b) return
    depth ??= new Int32Array(n + 2)
    depth[a + 1]!++
    depth[b + 1]!--
  }
  for (let i = 0; i < n; i++) {
    for (const block of messages[i]!.content) {
      switch (block._tag) {
        case "ToolCall": {
          ;(lastCall ??= new Map()).set(block.id, i)
          const r = early?.get(block.id)
          if (r !== undefined) {
            early!.delete(block.id)
            pair(r, i)
          }
          break
        }
        case "ToolResult": {
          const k = lastCall?.get(block.toolCallId)
          if (k !== undefined) pair(k, i)
          else if (!(early ??= new Map()).has(block.toolCallId)) early.set(block.toolCallId, i)
          break
        }
        case "Text":
        case "Thinking":
        case "RedactedThinking":
        case "Refusal":
        case "File":
        case "ProviderData":
          break
        default:
          Block.absurd(block)
      }
    }
  }
  if (depth === undefined) return bound
  for (let c = 0, open = 0; c <= n; c++) {
    open += depth[c]!
    if (open > 0) bound[c] = 1
  }
  return bound
}

/** Where `truncate` cuts: keep the system messages and every message from `from` on; or why it cannot. */
type Cut =
  | { readonly _tag: "Cut"; readonly from: number }
  | { readonly _tag: "TooSmall"; readonly minimum: number; readonly total: number }

/**
 * The first message to keep so that the kept messages cost at most `budget`:
 * every system message stays wherever it is (so the budget must hold them
 * all), and of the others the newest from a user message on, cut where no
 * call is parted from its result. One pass each way; linear.
 */
const cutFor = (messages: ReadonlyArray<Message.Message>, costs: ReadonlyArray<number>, budget: number): Cut => {
  let system = 0
  let total = 0
  for (let i = 0; i < messages.length; i++) {
    total += costs[i]!
    if (messages[i]!.role === "system") system += costs[i]!
  }
  if (system > budget) return { _tag: "TooSmall", minimum: system, total }
  if (total <= budget) return { _tag: "Cut", from: 0 }
  const bound = boundCutsOf(messages)
  let from = messages.length
  let kept = system
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "system") continue
    kept += costs[i]!
    if (kept > budget) break
    if (Message.isCleanUserStart(messages[i]) && bound[i] === 0) from = i
  }
  return { _tag: "Cut", from }
}

/**
 * Our estimator as an effect/ai `Tokenizer`: `tokenize` gives as many
 * tokens as the estimator counts for the prompt (the numbers are positions,
 * not token ids); `truncate` keeps every system message (wherever it sits
 * in the prompt) and the newest whole turns that fit beside them, cutting
 * only before a user message, so a tool call never loses its result
 * (effect/ai's own truncation can cut between them). The kept messages are
 * the prompt's own, in their order.
 *
 * `truncate` fails with an `AiError` (`InvalidUserInputError`) when the
 * system messages alone are over the limit, naming the limit they need, and
 * when the limit is not a number of tokens (negative or `NaN`). When the
 * system messages fit but not even the newest turn does, the result holds
 * the system messages alone. One estimate per message, linear in the prompt.
 *
 * @example
 * import { Effect } from "effect"
 * import { Prompt } from "effect/ai"
 * import { TokenEstimator } from "effect-agent-messages"
 * import { EffectAi } from "effect-agent-messages/providers"
 *
 * const tokenizer = EffectAi.makeTokenizer(TokenEstimator.heuristic)
 * const program = Effect.gen(function*() {
 *   const prompt = Prompt.make([
 *     { role: "system", content: "Be brief." },
 *     { role: "user", content: "What is the weather in Oslo?" }
 *   ])
 *   const tokens = yield* tokenizer.tokenize(prompt)
 *   // whole turns only: no call loses its result; every system message stays
 *   const shorter = yield* tokenizer.truncate(prompt, 1_000)
 *   // fails with an AiError (InvalidUserInputError) naming the limit the system messages need
 *   const tooSmall = yield* Effect.flip(tokenizer.truncate(prompt, 2))
 *   return tokens.length
 * })
 *
 * @category tokenizers
 * @since 0.1.0
 */
export const makeTokenizer = (estimator: TokenEstimator.Service): Tokenizer.Service =>
  Tokenizer.Tokenizer.of({
    tokenize: (input) =>
      promptOf(input, "tokenize").pipe(
        Effect.flatMap((prompt) => messagesOf(prompt, "tokenize")),
        Effect.map((messages) => {
          const count = estimator.estimateConversation(messages)
          const tokens = new Array<number>(count)
          for (let i = 0; i < count; i++) tokens[i] = i
          return tokens
        })
      ),
    truncate: (input, tokens) =>
      Effect.suspend(() =>
        // a limit from untyped code may be anything: compared or written as text, a nested array overflows the stack
        typeof tokens === "number" && tokens >= 0
          ? promptOf(input, "truncate")
          : Effect.fail(aiError("truncate", `the limit must be a number of tokens, 0 or more; got ${preview(tokens)}`))
      ).pipe(
        Effect.flatMap((prompt) =>
          messagesOf(prompt, "truncate").pipe(
            Effect.flatMap((messages) => {
              const cut = cutFor(messages, estimator.estimateEach(messages), tokens)
              if (cut._tag === "TooSmall") {
                return Effect.fail(aiError(
                  "truncate",
                  `a limit of ${tokens} tokens is too small: the system messages, which always stay, need at least ${cut.minimum} (the prompt has ${cut.total})`
                ))
              }
              // one Prompt message per message: the prompt's own messages are kept as they are
              const kept: Array<Prompt.Message> = []
              for (let i = 0; i < cut.from; i++) if (prompt.content[i]!.role === "system") kept.push(prompt.content[i]!)
              for (let i = cut.from; i < prompt.content.length; i++) kept.push(prompt.content[i]!)
              return Effect.succeed(Prompt.fromMessages(kept))
            })
          )
        )
      )
  })

/**
 * The `Tokenizer` service from the `TokenEstimator` in context.
 *
 * @example
 * program.pipe(Effect.provide(EffectAi.layerTokenizer), Effect.provide(TokenEstimator.layer))
 *
 * @category tokenizers
 * @since 0.1.0
 */
export const layerTokenizer: Layer.Layer<Tokenizer.Tokenizer, never, TokenEstimator.TokenEstimator> = Layer.effect(
  Tokenizer.Tokenizer,
  Effect.map(TokenEstimator.TokenEstimator, makeTokenizer)
)

/**
 * Options of `layerTokenEstimator`: the fixed cost per message added to
 * the tokenizer's count of its text (default 4).
 *
 * @since 0.1.0
 */
export interface TokenizerEstimatorOptions {
  readonly messageOverhead?: number
}

/**
 * An effect/ai `Tokenizer` as our `TokenEstimator`: each text is counted by
 * the tokenizer (as a one-message prompt), the counting rules of
 * `TokenEstimator` do the rest. Estimation is synchronous: a tokenizer that
 * fails or cannot answer synchronously has that text counted by the
 * default heuristic instead.
 *
 * @example
 * import { Effect, Equal, Layer, type Option } from "effect"
 * import { Tokenizer } from "effect/ai"
 * import { Message, TokenEstimator } from "effect-agent-messages"
 * import { EffectAi } from "effect-agent-messages/providers"
 *
 * // any effect/ai Tokenizer; here one that counts words
 * const Words = Layer.succeed(Tokenizer.Tokenizer, Tokenizer.make({
 *   tokenize: (prompt) => Effect.succeed(JSON.stringify(prompt.content).split(/\s+/).map((_, i) => i))
 * }))
 * const program = Effect.gen(function*() {
 *   const estimator = yield* TokenEstimator.TokenEstimator
 *   return estimator.estimateMessage(Message.user("one two three"))
 * })
 * program.pipe(Effect.provide(EffectAi.layerTokenEstimator({ messageOverhead: 3 }).pipe(Layer.provide(Words))))
 *
 * @category tokenizers
 * @since 0.1.0
 */
export const layerTokenEstimator = (
  options?: TokenizerEstimatorOptions
): Layer.Layer<TokenEstimator.TokenEstimator, TokenEstimator.InvalidEstimatorOptions, Tokenizer.Tokenizer> =>
  Layer.effect(
    TokenEstimator.TokenEstimator,
    Effect.gen(function* () {
      const tokenizer = yield* Tokenizer.Tokenizer
      const fallback = TokenEstimator.heuristic.estimateText
      const estimateText = (text: string): number => {
        if (text === "") return 0
        // (suspended: a tokenizer made with Tokenizer.make runs its function as tokenize is called, and one that
        // throws must fall back as one that fails does)
        const exit = Effect.runSyncExit(Effect.suspend(() => tokenizer.tokenize(text)))
        return exit._tag === "Success" ? exit.value.length : fallback(text)
      }
      return yield* TokenEstimator.make({ estimateText, ...(options?.messageOverhead === undefined ? {} : { messageOverhead: options.messageOverhead }) })
    })
  )
