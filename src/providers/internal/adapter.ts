/**
 * What the request/response adapters share: reading untrusted provider JSON
 * (one defensive copy up front, then small readers that abort with a
 * `MalformedPayload` naming the path), collecting warnings and turning them
 * into a strict-mode failure, and the convention for provider fields the
 * model has no typed place for.
 *
 * The convention: `providerOptions[provider]` of a block, message, tool
 * definition or request holds the fields of its wire object that the model
 * does not carry, verbatim (`cache_control`, `citations: null`, `is_error:
 * false`, a DeepSeek field...); the fields of a nested wire object sit under
 * that object's key. Encoding starts from those fields and writes the typed
 * ones over them, so a payload converted in and out comes back whole. A few
 * of these fields choose between wire forms the model does not distinguish
 * (a system message's `role: "developer"`, a text block's `type: "text"`
 * marking content sent as a list of parts rather than a string); each
 * adapter documents the ones it reads.
 *
 * @internal
 */
import { Effect, Result, type Schema } from "effect"
import type * as Block from "../../Block.js"
import { standardBase64 } from "../../internal/base64.js"
import { base64DataUrlParts } from "../../internal/dataUrl.js"
import { imageTypeOfBase64 } from "../../internal/imageSize.js"
import { copyJson, isOwnParsedJson } from "../../internal/json.js"
import * as Message from "../../Message.js"
import type * as Request from "../../Request.js"
import { keptToolSettings } from "../../internal/toolSettings.js"
import { noHints, storedRecord, wireFieldsOf } from "../../internal/hint.js"
import { absurd } from "../../Block.js"
import { sameJson, show } from "./core.js"
import { messageText, preview, quote } from "../../internal/preview.js"
import { isImageType } from "../../internal/anthropicFiles.js"
import { bareMediaType } from "../../internal/mediaType.js"
import { isGeminiFileUri, schemeOf } from "../../internal/fileUrls.js"
import {
  type ConversionOptions,
  type ConversionWarning,
  type Converted,
  ConvertedContent,
  type DecodedResponse,
  DroppedContent,
  IncompleteResponse,
  type InvalidToolArguments,
  MalformedPayload,
  RejectedSetting,
  RejectedToolName,
  UnknownProviderField,
  UnsupportedContent
} from "../Conversion.js"
import * as StreamErrors from "../StreamError.js"
import * as ToolArguments from "../ToolArguments.js"
import { isCustomTextCall } from "../../internal/customTools.js"
export { CUSTOM_INPUT_SCHEMA, customFormatNote } from "../../internal/customTools.js"
export { isChatCustomCall } from "../../internal/toolArgs.js"

/** A JSON object read from the wire. */
export type Obj = { readonly [key: string]: Schema.Json }

/** Internal early exit of a decoder; never escapes `run`. */
class Abort {
  constructor(readonly error: MalformedPayload | InvalidToolArguments) {}
}

/** Whether a thrown value is a decoder's own early exit (which `run` turns into its error), not a fault. */
export const isAbort = (u: unknown): boolean => u instanceof Abort

/** The state of one conversion: the provider key, the options, the warnings so far. */
export interface Ctx {
  readonly provider: string
  readonly options: ConversionOptions | undefined
  readonly warnings: Array<ConversionWarning>
}

export const makeCtx = (provider: string, options: ConversionOptions | undefined): Ctx => ({ provider, options, warnings: [] })

/** Fails the running decoder with a `MalformedPayload` at `path`. */
export const malformed = (ctx: Ctx, path: string, reason: string): never => {
  throw new Abort(new MalformedPayload({ provider: ctx.provider, path, reason }))
}

/** Fails the running decoder with a tool-argument error (strict mode). */
export const invalidArguments = (error: InvalidToolArguments): never => {
  throw new Abort(error)
}

/** Whether a warning is a loss that strict conversion refuses. */
const isLoss = (warning: ConversionWarning): boolean => {
  switch (warning._tag) {
    case "DroppedContent":
    case "ConvertedContent":
      return true
    case "UnknownProviderField":
      return !warning.kept
    // nothing is lost, but the provider rejects what was written: strict mode refuses to write it
    case "RejectedToolName":
    case "MissingRequiredField":
    case "RejectedSetting":
      return true
    case "RepairedToolArguments":
      return false
    default:
      return absurdWarning(warning)
  }
}

const absurdWarning = (value: never): never => {
  throw new Error(`unreachable warning ${String(value)}`)
}

/**
 * Runs a conversion written as a plain loop: its value with the warnings,
 * the error it aborted with, or, in strict mode, `UnsupportedContent` for the
 * first warning that is a loss.
 */
export const run = <A>(
  ctx: Ctx,
  body: () => A
): Effect.Effect<Converted<A>, MalformedPayload | InvalidToolArguments | UnsupportedContent> =>
  Effect.suspend(() => Effect.fromResult(runResult(ctx, body)))

/** `run` for an encoder, which reads only the model and cannot abort. */
export const runEncode = <A>(ctx: Ctx, body: () => A): Effect.Effect<Converted<A>, UnsupportedContent> =>
  run(ctx, body) as Effect.Effect<Converted<A>, UnsupportedContent>

/** `run` as a `Result`, for callers that compose several steps synchronously. */
export const runResult = <A>(
  ctx: Ctx,
  body: () => A
): Result.Result<Converted<A>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  let value: A
  try {
    value = body()
  } catch (cause) {
    if (cause instanceof Abort) return Result.fail(cause.error)
    throw cause
  }
  if (ctx.options?.strict === true) {
    for (const warning of ctx.warnings) {
      if (isLoss(warning)) return Result.fail(new UnsupportedContent({ provider: ctx.provider, warning }))
    }
  }
  return Result.succeed({ value, warnings: ctx.warnings })
}

// ---------------------------------------------------------------------------
// reading untrusted JSON
// ---------------------------------------------------------------------------

/**
 * A plain JSON copy of the input (keys whose value is `undefined` left out,
 * as an object built in code means), or a `MalformedPayload` when it holds
 * something JSON cannot (a function, a `Date`, a cycle, a throwing getter).
 */
export const jsonOf = (ctx: Ctx, input: unknown, base = ""): Schema.Json => {
  // text this package parsed itself is plain JSON that nobody else holds: nothing to defend against
  if (isOwnParsedJson(input)) return input as Schema.Json
  const copy = copyJson(input, { freeze: false, skipUndefined: true })
  if ("value" in copy) return copy.value
  // (the path from `base`, the place of the input in what was given)
  const inner = pathText(copy.path)
  return malformed(ctx, base === "" || inner === "" || inner.startsWith("[") ? base + inner : `${base}.${inner}`, copy.reason)
}

/** A path as messages write it: `tools[0].input_schema.properties`. */
export const pathText = (path: ReadonlyArray<string | number>): string => {
  let out = ""
  for (const key of path) out += typeof key === "number" ? `[${key}]` : out === "" ? key : `.${key}`
  return out
}

export const isObj = (u: Schema.Json | undefined): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)

/** The object at `path`, or abort. */
export const obj = (ctx: Ctx, u: Schema.Json | undefined, path: string): Obj =>
  isObj(u) ? u : malformed(ctx, path, `expected an object, got ${kindOf(u)}`)

/** The array at `path`, or abort. */
export const arr = (ctx: Ctx, u: Schema.Json | undefined, path: string): ReadonlyArray<Schema.Json> =>
  Array.isArray(u) ? u : malformed(ctx, path, `expected an array, got ${kindOf(u)}`)

/** The array at `path`, where a string would also have been read (a message's content): or abort, saying so. */
export const textOrArr = (ctx: Ctx, u: Schema.Json | undefined, path: string): ReadonlyArray<Schema.Json> =>
  Array.isArray(u) ? u : malformed(ctx, path, `expected a string or an array, got ${kindOf(u)}`)

/** The path of field `key` of the value at `path` (a top-level field's path is its name alone). */
export const fieldPath = (path: string, key: string): string => (path === "" ? key : `${path}.${key}`)

/** A required string field, or abort. */
export const str = (ctx: Ctx, o: Obj, key: string, path: string): string => {
  const v = o[key]
  return typeof v === "string" ? v : malformed(ctx, fieldPath(path, key), `expected a string, got ${kindOf(v)}`)
}

/** An optional string field (`null` counts as absent), or abort when it is something else. */
export const optStr = (ctx: Ctx, o: Obj, key: string, path: string): string | undefined => {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  return typeof v === "string" ? v : malformed(ctx, fieldPath(path, key), `expected a string, got ${kindOf(v)}`)
}

/** An optional boolean field (`null` counts as absent), or abort. */
export const optBool = (ctx: Ctx, o: Obj, key: string, path: string): boolean | undefined => {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  return typeof v === "boolean" ? v : malformed(ctx, fieldPath(path, key), `expected a boolean, got ${kindOf(v)}`)
}

/** An optional number field (`null` counts as absent), or abort. */
export const optNum = (ctx: Ctx, o: Obj, key: string, path: string): number | undefined => {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  return typeof v === "number" ? v : malformed(ctx, fieldPath(path, key), `expected a number, got ${kindOf(v)}`)
}

/** An optional object field (`null` counts as absent), or abort. */
export const optObj = (ctx: Ctx, o: Obj, key: string, path: string): Obj | undefined => {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  return isObj(v) ? v : malformed(ctx, fieldPath(path, key), `expected an object, got ${kindOf(v)}`)
}

export const kindOf = (u: Schema.Json | undefined): string =>
  u === undefined ? "nothing" : u === null ? "null" : Array.isArray(u) ? "an array" : typeof u === "object" ? "an object" : `a ${typeof u}`

// ---------------------------------------------------------------------------
// provider fields the model has no place for
// ---------------------------------------------------------------------------

/** The fields of `o` not named in `known`, or `undefined` when there are none. */
export const extrasOf = (o: Obj, known: ReadonlySet<string>): Record<string, Schema.Json> | undefined => {
  let out: Record<string, Schema.Json> | undefined
  for (const key in o) {
    if (known.has(key)) continue
    out ??= {}
    setKey(out, key, o[key]!)
  }
  return out
}

/** `extrasOf`, plus the extras of nested objects under their own key (`{ function: {...} }`). */
export const withNested = (
  extras: Record<string, Schema.Json> | undefined,
  key: string,
  nested: Record<string, Schema.Json> | undefined
): Record<string, Schema.Json> | undefined => {
  if (nested === undefined) return extras
  const out = extras ?? {}
  setKey(out, key, nested)
  return out
}

/** Sets an own data property, even for `__proto__`. */
export const setKey = (o: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true })
  else o[key] = value
}

/**
 * `{ providerOptions: { [provider]: ... } }` holding `extras` (a wire
 * object's fields, by their wire names) and the adapter's `hints`, or `{}`
 * when there are neither: a field whose name starts with `$` is kept with
 * one more in front, a hint under its name with one `$` in front, so that
 * no field is read as a hint (`internal/hint`).
 */
export const optionsOf = (
  provider: string,
  extras: Record<string, Schema.Json> | undefined,
  hints?: { readonly [name: string]: Schema.Json | undefined }
): { readonly providerOptions?: Block.ProviderOptions } => {
  const record = storedRecord(extras, hints)
  return record === undefined ? {} : { providerOptions: { [provider]: record } }
}

/**
 * An image part's URL as a file block's source and media type. A base64
 * `data:` URL that declares an image type is its data and that type; one
 * that declares another (`application/octet-stream`, as clients often label
 * uploaded bytes) or none is still an image: the type its bytes show (PNG,
 * JPEG, GIF, WebP) or `image/*`, with the declared type as `declared` for
 * the adapter to write back. So is an image type with parameters
 * (`image/jpeg;name=photo.jpg`): the adapter writes a bare type unless the
 * URL came with another. Any other URL is a URL of an `image/*`.
 */
export const imageOfUrl = (url: string): { readonly source: Block.FileSource; readonly mediaType: string; readonly declared?: string } => {
  const parts = base64DataUrlParts(url)
  if (parts === undefined) return { source: { _tag: "Url", url }, mediaType: "image/*" }
  const source: Block.FileSource = { _tag: "Base64", data: url.slice(parts.dataStart) }
  if (isImageType(parts.mediaType)) {
    return parts.mediaType === bareMediaType(parts.mediaType) ? { source, mediaType: parts.mediaType } : { source, mediaType: parts.mediaType, declared: parts.mediaType }
  }
  return { source, mediaType: imageTypeOfBase64(url, parts.dataStart) ?? "image/*", declared: parts.mediaType }
}

/** Media types by file-name extension, for the formats that send a file without its type. */
const MEDIA_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
  heif: "image/heif",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  mp4: "video/mp4",
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  html: "text/html",
  htm: "text/html",
  xml: "application/xml",
  json: "application/json",
  rtf: "application/rtf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text"
}

/**
 * The media type a file name's or URL's extension names (`contract.pdf`,
 * `https://example.com/a/report.PDF?dl=1`), or `undefined` when there is no
 * extension or it is not a common image, audio, video or document one.
 */
export const mediaTypeOfName = (name: string): string | undefined => {
  const path = name.split(/[?#]/)[0]!
  const dot = path.lastIndexOf(".")
  if (dot < 0 || dot < path.lastIndexOf("/")) return undefined
  const extension = path.slice(dot + 1).toLowerCase()
  return Object.hasOwn(MEDIA_TYPES_BY_EXTENSION, extension) ? MEDIA_TYPES_BY_EXTENSION[extension] : undefined
}

/**
 * The document type a file name's or URL's extension names (see
 * `mediaTypeOfName`): image, audio and video types are left out, as they
 * would make the file an image or a clip, which formats send as another part.
 */
export const documentTypeOfName = (name: string): string | undefined => {
  const type = mediaTypeOfName(name)
  return type === undefined || /^(image|audio|video)\//.test(type) ? undefined : type
}

/**
 * The wire fields a value keeps for `provider`, by their wire names (a field
 * kept as `$$x` is `$x`), or `undefined`: for a value no hint is kept on (an
 * adapter's hints are left out by `keptOf`).
 */
export const ownExtras = (
  value: { readonly providerOptions?: Block.ProviderOptions | undefined },
  provider: string
): Block.JsonObject | undefined => wireFieldsOf(value.providerOptions?.[provider], noHints)

/**
 * Reports the fields of `o` not named in `known` as ignored: for the wrappers
 * `fromMessages` reads (`{ system, messages }`, `{ systemInstruction,
 * contents }`), whose other fields belong to a request body and have no
 * place in a list of messages.
 */
export const ignoreExtras = (ctx: Ctx, o: Obj, known: ReadonlySet<string>): void => {
  for (const key in o) if (!known.has(key)) ctx.warnings.push(new UnknownProviderField({ path: key, kept: false }))
}

/** A nested object of a value's kept fields (`extras.function`), when it is an object. */
export const nestedExtras = (extras: Block.JsonObject | undefined, key: string): Block.JsonObject | undefined => {
  const v = extras?.[key]
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Block.JsonObject) : undefined
}

/** A copy of `extras` without the given keys (the ones the encoder writes itself). */
export const without = (extras: Block.JsonObject | undefined, keys: ReadonlyArray<string>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  if (extras === undefined) return out
  for (const key in extras) if (!keys.includes(key)) setKey(out, key, extras[key])
  return out
}

// ---------------------------------------------------------------------------
// warnings, tool calls, usage
// ---------------------------------------------------------------------------

/**
 * Whether a string under one of `fields` anywhere in `value` (written messages or input items, their parts and
 * calls) says "json", in any case: OpenAI's JSON mode wants the word in the conversation. Walked with an explicit
 * stack, so a deeply nested kept field cannot overflow it.
 */
export const saysJson = (value: unknown, fields: ReadonlySet<string>): boolean => {
  const stack: Array<unknown> = [value]
  while (stack.length > 0) {
    const next = stack.pop()
    if (Array.isArray(next)) {
      for (const item of next) stack.push(item)
    } else if (typeof next === "object" && next !== null) {
      for (const [name, field] of Object.entries(next)) {
        if (typeof field === "string") {
          if (fields.has(name) && /json/i.test(field)) return true
        } else stack.push(field)
      }
    }
  }
  return false
}

/**
 * A call's kept fields as written without `field`, a record a stream reader keeps beside a value a server changed
 * mid-stream (Chat's `other_ids`, Anthropic's `start_input`), which no API takes back on a request: left out and
 * reported (`what` names the call and the record), and kept in the model.
 */
export const withoutReaderField = (
  ctx: Ctx,
  extras: Block.JsonObject | undefined,
  field: string,
  at: { readonly index: number; readonly blockIndex: number },
  what: string,
  reason: string
): Block.JsonObject | undefined => {
  const value = extras?.[field]
  if (extras === undefined || value === undefined) return extras
  const written: Record<string, Schema.Json> = {}
  for (const [k, v] of Object.entries(extras)) if (k !== field) setKey(written, k, v)
  dropped(ctx, at.index, at.blockIndex, `the field ${field} ${show(value)} of ${what}`, reason)
  return written
}

/** "a" or "an" before a word, for readable warnings. */
export const an = (word: string): string => (/^(?:[aeio]|u(?![sr]))/i.test(word) ? "an" : "a")

/** A URL's kind as a warning names it ("at ... URL"): `a gs:`, `a data:`, `a relative` for one without a scheme, `a Gemini Files API`. */
export const urlScheme = (url: string): string => {
  if (isGeminiFileUri(url)) return "a Gemini Files API"
  const scheme = schemeOf(url)
  return scheme === undefined ? "a relative" : `${an(scheme)} ${scheme}:`
}

/**
 * Why a writer leaves out a file at a URL its provider cannot take: only Gemini reads a Gemini Files API URI, and the
 * provider takes the URLs `takes` names.
 */
export const unfetchableReason = (url: string, takes: string): string =>
  isGeminiFileUri(url) ? "only the Gemini API reads its Files API URIs" : takes

/**
 * Why another format's provider data is left out: `reason`, and for a Responses custom tool item (a coding agent's
 * `apply_patch` call or its output) how to carry it, `OpenAiResponses.customToolsAsCalls`.
 */
export const foreignDataReason = (block: Block.ProviderDataBlock, reason: string): string => {
  const type = block.provider === "openai-responses" ? block.data["type"] : undefined
  return type === "custom_tool_call" || type === "custom_tool_call_output"
    ? `${reason}; OpenAiResponses.customToolsAsCalls makes a custom tool's call and output a call and result this format carries`
    : reason
}

/** Reports something the target cannot express and leaves out. */
export const dropped = (ctx: Ctx, index: number | undefined, blockIndex: number | undefined, what: string, reason: string): void => {
  ctx.warnings.push(new DroppedContent({ ...(index === undefined ? {} : { index }), ...(blockIndex === undefined ? {} : { blockIndex }), what, reason }))
}

/**
 * A value's kept fields (`kept`, by their wire names) without those of `own` that would replace what the writer wrote
 * from the model (`written`: a block's text, a call's id): each such field is left out, reported with `reason`, and
 * the model's value is sent. One that holds the value written changes nothing and stays. The readers never keep these fields;
 * options set by hand can hold them.
 */
export const withoutOwnFields = <K extends { readonly [key: string]: unknown }>(
  ctx: Ctx,
  index: number | undefined,
  blockIndex: number | undefined,
  kept: K | undefined,
  written: object,
  own: ReadonlyArray<string>,
  reason = "the block's own value is written"
): K | undefined => {
  if (kept === undefined) return kept
  let out: { [key: string]: unknown } | undefined
  for (const name of own) {
    if (!Object.hasOwn(kept, name) || sameJson(kept[name], (written as { readonly [key: string]: unknown })[name])) continue
    out ??= { ...kept }
    delete out[name]
    dropped(ctx, index, blockIndex, `the option ${quote(name)} (${preview(kept[name])})`, reason)
  }
  return (out as K | undefined) ?? kept
}

/**
 * Reports a message left out because everything in it was, and its
 * neighbours meet instead (every provider merges messages of one role in a
 * row), saying why no empty one is written, as true of the target and the
 * role: Responses writes no item for it (an assistant message is its output
 * items; a user message would have no content); Chat Completions rejects an
 * empty content list and needs content or tool calls in an assistant
 * message; Anthropic rejects an empty message, save a last assistant one (a
 * prefill of nothing); Gemini rejects a content without parts.
 */
export const droppedEmptyMessage = (ctx: Ctx, index: number, role: string, target: "Chat Completions" | "Responses" | "Anthropic" | "Gemini"): void =>
  dropped(
    ctx,
    index,
    undefined,
    `the ${role} message`,
    `nothing in it could be carried, and ${
      target === "Responses"
        ? "Responses has no item for it"
        : target === "Gemini"
        ? "Gemini rejects a content without parts"
        : role !== "assistant"
        ? `${target} rejects an empty ${target === "Anthropic" ? "message" : "content list"}`
        : target === "Anthropic"
        ? "Anthropic takes an empty assistant message only as the last"
        : "Chat Completions needs content or tool calls"
    }`
  )

/** Where each provider keeps a tool choice and a structured-output setting the model has no type for. */
const foreignToolChoice: Readonly<Record<string, string>> = { "openai-chat": "tool_choice", "openai-responses": "tool_choice", anthropic: "tool_choice", gemini: "toolConfig" }

/**
 * What a kept setting of another provider is to the model, for the reason its loss is reported with: how it answers
 * (sampling, stopping, thinking, wordiness, what it may output; the target then runs with its own default), or
 * what it is given besides the request (earlier turns or a prompt the provider stores, cached contents, a
 * container's files and skills, tools from MCP servers, a search it may run; the target answers without them).
 */
type SettingKind = "setting" | "context" | "tools"

/**
 * The settings of each provider that another provider's request is reported without, by their path in the
 * provider's kept request fields (Gemini's sampling settings are in its `generationConfig`).
 */
const foreignSettings: { readonly [provider: string]: ReadonlyArray<readonly [path: string, kind: SettingKind]> } = {
  "openai-chat": [
    ...settings("temperature", "top_p", "stop", "seed", "frequency_penalty", "presence_penalty", "logit_bias", "reasoning_effort"),
    ...settings("n", "logprobs", "top_logprobs", "verbosity", "modalities", "audio"),
    ["web_search_options", "tools"]
  ],
  "openai-responses": [
    ...settings("temperature", "top_p", "reasoning", "top_logprobs", "text.verbosity", "max_tool_calls", "truncation", "context_management"),
    ["previous_response_id", "context"],
    ["conversation", "context"],
    ["prompt", "context"]
  ],
  anthropic: [
    ...settings("temperature", "top_p", "top_k", "stop_sequences", "thinking", "output_config.effort", "context_management"),
    ["mcp_servers", "tools"],
    // the container a code execution or its Agent Skills run in: its files and skills
    ["container", "context"]
  ],
  gemini: [
    ...settings(
      ...["temperature", "topP", "topK", "stopSequences", "seed", "presencePenalty", "frequencyPenalty", "thinkingConfig"].map((n) => `generationConfig.${n}`),
      ...["candidateCount", "responseLogprobs", "logprobs", "responseModalities", "speechConfig", "imageConfig", "mediaResolution"].map((n) => `generationConfig.${n}`),
      "safetySettings",
      "toolConfig.retrievalConfig"
    ),
    ["cachedContent", "context"]
  ]
}

function settings(...paths: ReadonlyArray<string>): Array<readonly [string, SettingKind]> {
  return paths.map((path) => [path, "setting"] as const)
}

/** Why a setting of `kind` is reported when `target` is written without it. */
const lostBecause = (kind: SettingKind, target: string): string => {
  switch (kind) {
    case "setting":
      return `a setting the model has no type for, so ${target} runs with its own default`
    case "context":
      return `what the provider holds for the request (earlier turns, a stored prompt, cached contents, a container's files and skills) is not in the request, so ${target} answers without it`
    case "tools":
      return `tools the model has no type for, so ${target} cannot call them`
  }
}

/** The value at a dotted path of kept fields. */
const atPath = (fields: Block.JsonObject | undefined, path: string): unknown => {
  let value: unknown = fields
  for (const key of path.split(".")) value = isObj(value as Schema.Json) ? (value as Obj)[key] : undefined
  return value
}

/**
 * A setting at the value every provider runs with when it is not given (one answer, no log probabilities, text
 * output, no truncation), or empty (no stop sequences, no MCP servers; but `web_search_options: {}` turns search on):
 * not reported.
 */
const isDefaultSetting = (path: string, value: unknown): boolean =>
  value === false ||
  (Array.isArray(value) && value.length === 0) ||
  (path !== "web_search_options" && typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0) ||
  ((path === "n" || path === "generationConfig.candidateCount") && value === 1) ||
  (path === "truncation" && value === "disabled") ||
  (path === "modalities" && Array.isArray(value) && value.length === 1 && value[0] === "text") ||
  (path === "generationConfig.responseModalities" && Array.isArray(value) && value.length === 1 && value[0] === "TEXT")

/**
 * Reports the settings of another provider that change what the model may
 * do and that `target` cannot carry, since the model has no type for them
 * (its other fields mean nothing to another format and are left out without
 * a word): a tool choice the model could not read (OpenAI `allowed_tools`, a
 * hosted-tool choice, Gemini `ANY` with `allowedFunctionNames`), Gemini's
 * OpenAPI `responseSchema`, the sampling, stopping, thinking and output
 * settings (`foreignSettings`), with which the target runs on its own
 * defaults, and what the request stands on beside its body (stored turns
 * and prompts, cached contents, MCP servers), which the target answers
 * without.
 */
/** The response format a provider's kept fields hold, where the model could not read it (its own `responseSchema` aside). */
const keptResponseFormat = (
  provider: string,
  own: Block.JsonObject | undefined,
  generation: unknown
): { readonly field: string; readonly value: unknown } | undefined => {
  const found = (field: string, value: unknown) => (value === undefined || value === null ? undefined : { field, value })
  switch (provider) {
    case "openai-chat":
      return found("response_format", own?.["response_format"])
    case "openai-responses": {
      const text = own?.["text"]
      return isObj(text) ? found("text.format", text["format"]) : undefined
    }
    case "anthropic": {
      const config = own?.["output_config"]
      return found("output_format", own?.["output_format"]) ?? (isObj(config) ? found("output_config.format", config["format"]) : undefined)
    }
    case "gemini": {
      const config = generation as { readonly [key: string]: unknown } | undefined
      return typeof config === "object" && config !== null ? found("generationConfig.responseJsonSchema", config["responseJsonSchema"]) : undefined
    }
    default:
      return undefined
  }
}

export const droppedForeignSettings = (
  ctx: Ctx,
  request: {
    readonly toolChoice?: unknown
    readonly responseFormat?: unknown
    readonly providerOptions?: Block.ProviderOptions | undefined
    readonly tools?: ReadonlyArray<Request.ToolDefinition> | undefined
  },
  target: string
): void => {
  for (const tool of request.tools ?? []) droppedForeignToolFields(ctx, tool, target)
  const all = request.providerOptions
  if (all === undefined) return
  for (const provider of Object.keys(all)) {
    if (provider === target) continue
    const own = all[provider]
    const field = foreignToolChoice[provider]
    const kept = field === undefined ? undefined : own?.[field]
    // Gemini's toolConfig may hold other settings (retrievalConfig); its tool choice is functionCallingConfig
    const choice = provider === "gemini" ? (isObj(kept) ? kept["functionCallingConfig"] : undefined) : kept
    if (choice !== undefined && choice !== null && request.toolChoice === undefined) {
      dropped(ctx, undefined, undefined, `${provider}'s ${field} ${show(kept)}`, `a tool choice the model has no type for, so ${target} gets none`)
    }
    const generation = provider === "gemini" ? own?.["generationConfig"] : undefined
    if (isObj(generation) && generation["responseSchema"] !== undefined && generation["responseSchema"] !== null) {
      dropped(ctx, undefined, undefined, "gemini's generationConfig.responseSchema", `an OpenAPI response schema the model has no type for, so ${target} gets no structured output from it`)
    }
    // a response format the model could not read (a json_schema without its schema), kept for its own format only
    const format = request.responseFormat === undefined ? keptResponseFormat(provider, own, generation) : undefined
    if (format !== undefined) {
      // bounded by the message, however large or deep the value
      dropped(ctx, undefined, undefined, `${provider}'s ${format.field} ${preview(format.value, 60)}`, `a response format the model has no type for, so ${target} gets no structured output from it`)
    }
    // how the answer is sampled and where it stops, how much the model thinks, and what it is given besides the
    // request: settings every provider has in its own words, which the model does not type
    for (const [path, kind] of foreignSettings[provider] ?? []) {
      const value = atPath(own, path)
      if (value === undefined || value === null || isDefaultSetting(path, value)) continue
      dropped(ctx, undefined, undefined, `${provider}'s ${path} ${preview(value, 60)}`, lostBecause(kind, target))
    }
  }
}

/**
 * The fields of a function tool's definition, kept in another provider's options, that show the model something the
 * model has no type for: Anthropic's examples of the tool's input, Gemini's schema of what the function returns.
 */
const foreignToolFields: { readonly [provider: string]: ReadonlyArray<string> } = {
  anthropic: ["input_examples"],
  gemini: ["response", "responseJsonSchema"]
}

/** Reports the fields of another provider's that `target` writes a function tool without (`foreignToolFields`). */
const droppedForeignToolFields = (ctx: Ctx, tool: Request.ToolDefinition, target: string): void => {
  // a tool another provider defines is left out whole, reported where it is
  if (tool.providerDefined !== undefined || tool.providerOptions === undefined) return
  for (const provider of Object.keys(tool.providerOptions)) {
    if (provider === target) continue
    for (const field of foreignToolFields[provider] ?? []) {
      const value = tool.providerOptions[provider]?.[field]
      if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue
      dropped(
        ctx,
        undefined,
        undefined,
        `${provider}'s ${field} of the tool ${quote(tool.name)} ${preview(value, 60)}`,
        `the model has no type for it, so the tool is defined to ${target} without it`
      )
    }
  }
}

/**
 * What each format takes as a function tool's name, from its reference
 * (the SDK doc comments: OpenAI `FunctionDefinition.name`, Gemini
 * `FunctionDeclaration.name`, which `FunctionCall.name` matches) and the 400
 * each answers with (Anthropic: `tools.N.custom.name: String should match
 * pattern '^[a-zA-Z0-9_-]{1,128}$'`; Responses: `'^[a-zA-Z0-9_-]+$'`).
 * A call carries the name of the tool it calls, so calls are held to it too.
 */
const toolNameRules: { readonly [provider: string]: { readonly pattern: RegExp; readonly rule: string } } = {
  "openai-chat": { pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: "Chat Completions takes 1 to 64 letters, digits, _ and -" },
  "openai-responses": { pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: "the Responses API takes 1 to 64 letters, digits, _ and -" },
  anthropic: { pattern: /^[a-zA-Z0-9_-]{1,128}$/, rule: "Anthropic takes 1 to 128 letters, digits, _ and -" },
  gemini: { pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/, rule: "Gemini takes 1 to 128 letters, digits, _, ., : and -, starting with a letter or _" }
}

/** Per conversion: the tool names already reported, so a name is reported once however often it is written. */
const reportedToolNames = new WeakMap<Ctx, Set<string>>()

/**
 * Reports a tool name the target rejects, once per name and conversion. The
 * name is written unchanged: renaming it would change what the model calls,
 * and its calls would come back under a name the caller never gave.
 */
export const checkToolName = (ctx: Ctx, name: string, index?: number, blockIndex?: number): void => {
  const rule = toolNameRules[ctx.provider]
  if (rule === undefined || rule.pattern.test(name)) return
  let reported = reportedToolNames.get(ctx)
  if (reported === undefined) reportedToolNames.set(ctx, (reported = new Set()))
  if (reported.has(name)) return
  reported.add(name)
  ctx.warnings.push(new RejectedToolName({ ...(index === undefined ? {} : { index }), ...(blockIndex === undefined ? {} : { blockIndex }), name, rule: rule.rule }))
}

/** Reports something carried in another shape. */
export const converted = (ctx: Ctx, index: number | undefined, blockIndex: number | undefined, what: string, how: string): void => {
  ctx.warnings.push(new ConvertedContent({ ...(index === undefined ? {} : { index }), ...(blockIndex === undefined ? {} : { blockIndex }), what, how }))
}

/**
 * The arguments of a call to send as a JSON object: a custom call's text as `{ input }` (see `isCustomTextCall`), else
 * `ToolArguments.toObject`'s. `replaced` says why the object is not the call's arguments as they are.
 */
export const callObject = (call: Block.ToolCallBlock): { readonly value: Schema.JsonObject; readonly replaced?: string; readonly rounded?: string; readonly asInput?: true } =>
  isCustomTextCall(call) ? { value: { input: call.args }, asInput: true } : ToolArguments.toObject(call)

/**
 * The provider that defines a tool and its type there: its
 * `providerDefined`, or, for a tool of Anthropic's own kept the older way
 * (no `providerDefined`, its Anthropic `type` among its options:
 * `bash_20250124`, `web_search_20250305`...), Anthropic and that type
 * (`custom` is Anthropic's name for a function tool). `undefined` for a
 * function tool.
 */

export const providerToolOf = (tool: {
  readonly providerDefined?: { readonly provider: string; readonly type: string } | undefined
  readonly providerOptions?: Block.ProviderOptions | undefined
}): { readonly provider: string; readonly type: string } | undefined => {
  if (tool.providerDefined !== undefined) return tool.providerDefined
  const type = tool.providerOptions?.["anthropic"]?.["type"]
  return typeof type === "string" && type !== "custom" ? { provider: "anthropic", type } : undefined
}

/**
 * Reports the parameters schema of a written tool (at `path` in the body)
 * whose root has a `type` other than `"object"` (`"string"`, `"array"`, a
 * list of types): Chat Completions, Responses and Anthropic take a tool's
 * input as an object and answer such a schema with a 400 ("schema must be a
 * JSON Schema of 'type: \"object\"'", "input_schema.type: Input should be
 * 'object'"). The schema is the caller's and is written as it is
 * (`RejectedSetting`); one without a `type` is each writer's own case.
 */
export const checkParametersRoot = (ctx: Ctx, schema: unknown, path: string, target: string): void => {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return
  const type = (schema as { readonly [key: string]: Schema.Json })["type"]
  if (type === undefined || type === "object") return
  ctx.warnings.push(new RejectedSetting({ path: `${path}.type`, value: type, rule: `${target} takes a tool's parameters only as a schema of type "object"` }))
}

/**
 * The tool choice and parallel-call setting a writer may still send once it
 * has written the tools it can carry (`keptToolSettings`), each setting
 * left out reported.
 */
export const toolSettingsAfter = (
  ctx: Ctx,
  request: { readonly tools?: ReadonlyArray<{ readonly name: string }> | undefined; readonly toolChoice?: Request.ToolChoice | undefined; readonly parallelToolCalls?: boolean | undefined },
  written: { readonly names: ReadonlyArray<string>; readonly any: boolean }
): { readonly toolChoice: Request.ToolChoice | undefined; readonly parallelToolCalls: boolean | undefined } => {
  const kept = keptToolSettings(request, written)
  const { parallelToolCalls, toolChoice } = request
  switch (kept.leftOut) {
    case "nothing":
      break
    case "all": {
      const reason = "every tool definition of the request was left out, and a provider rejects it without tools"
      if (toolChoice !== undefined) dropped(ctx, undefined, undefined, `the tool choice ${typeof toolChoice === "string" ? JSON.stringify(toolChoice) : messageText(toolChoice.name)}`, reason)
      if (parallelToolCalls !== undefined) dropped(ctx, undefined, undefined, "the parallel tool calls setting", reason)
      break
    }
    case "choice": {
      const chosen = typeof toolChoice === "object" ? toolChoice.name : ""
      const name = messageText(chosen)
      // a choice of a tool the request never defined is the request's own mistake, not something the writer left out
      const defined = request.tools?.some((tool) => tool.name === chosen) === true
      const why = defined ? `the definition of ${name} was left out` : `the request defines no tool named ${name}`
      dropped(ctx, undefined, undefined, `the tool choice ${name}`, `${why}, and a provider rejects a choice of a tool it was not given`)
      break
    }
    default:
      absurd(kept.leftOut)
  }
  return kept
}

/** A tool call from the provider's argument text, lenient or strict as the options say; aborts with `InvalidToolArguments` in strict mode. */
export const callFromText = (
  ctx: Ctx,
  site: ToolArguments.CallSite,
  text: string,
  extras: ToolArguments.ToolCallOptions["extras"]
): Block.ToolCallBlock => {
  const parsed = ToolArguments.fromText(site, text, {
    mode: ctx.options?.toolArguments === "strict" ? "strict" : "lenient",
    ...(extras === undefined ? {} : { extras })
  })
  if (!("block" in parsed)) return invalidArguments(parsed)
  if (parsed.warning !== undefined) ctx.warnings.push(parsed.warning)
  return parsed.block
}

/** A token count field, checked (a non-negative integer), or `undefined` when absent. */
export const count = (ctx: Ctx, o: Obj | undefined, name: string, path: string): number | undefined => {
  if (o === undefined) return undefined
  const v = optNum(ctx, o, name, path)
  if (v === undefined) return undefined
  // a safe integer: the model's counts are, and 1e21 is an integer a Usage cannot hold
  return Number.isSafeInteger(v) && v >= 0 ? v : malformed(ctx, fieldPath(path, name), `expected a token count, got ${v}`)
}

/** Usage from the figures that are present. */
export const usage = (figures: { readonly [K in keyof Message.Usage]?: number | undefined }): Message.Usage => {
  const out: { -readonly [K in keyof Message.Usage]?: number } = {}
  for (const name of Object.keys(figures) as Array<keyof Message.Usage>) {
    const v = figures[name]
    if (v !== undefined) out[name] = v
  }
  return new Message.Usage(out)
}

// ---------------------------------------------------------------------------
// streams
// ---------------------------------------------------------------------------

/**
 * Reads what an accumulator produced with a response decoder: the final
 * response, or, for a stream cut short, an `IncompleteResponse` carrying
 * the partial response read leniently.
 */
export const decodeStreamed = <Response, E, R, D, DE>(
  provider: string,
  accumulated: Effect.Effect<Response, E | StreamErrors.StreamError, R>,
  decode: (response: Response) => Effect.Effect<D, DE>,
  decodePartial: (partial: unknown) => Result.Result<{ readonly value: DecodedResponse; readonly warnings: ReadonlyArray<ConversionWarning> }, unknown>
): Effect.Effect<D, Exclude<E, StreamErrors.IncompleteStream> | Exclude<StreamErrors.StreamError, StreamErrors.IncompleteStream> | IncompleteResponse | DE, R> =>
  accumulated.pipe(
    Effect.mapError((error) =>
      (error instanceof StreamErrors.IncompleteStream ? incomplete(provider, error, decodePartial) : error) as
        | Exclude<E, StreamErrors.IncompleteStream>
        | Exclude<StreamErrors.StreamError, StreamErrors.IncompleteStream>
        | IncompleteResponse
    ),
    Effect.flatMap(decode)
  )

/** An `IncompleteResponse` with the partial response, when it could be read, and the transport's failure, when it had one. */
const incomplete = (
  provider: string,
  error: StreamErrors.IncompleteStream,
  decodePartial: (partial: unknown) => Result.Result<{ readonly value: DecodedResponse; readonly warnings: ReadonlyArray<ConversionWarning> }, unknown>
): IncompleteResponse => {
  const decoded = error.partial === undefined ? undefined : decodePartial(error.partial)
  const ok = decoded !== undefined && decoded._tag === "Success" ? decoded.success : undefined
  return new IncompleteResponse({
    provider,
    cut: error.cut,
    events: error.events,
    ...(ok === undefined ? {} : { partial: ok.value }),
    warnings: ok?.warnings ?? [],
    ...("transportError" in error ? { transportError: error.transportError } : {})
  })
}

/** A base64 `data:` URL as OpenAI (Chat and Responses) decodes it: the data in the standard alphabet, padded (`standardBase64`). */
export const base64DataUrl = (mediaType: string, data: string): string => `data:${mediaType};base64,${standardBase64(data)}`
