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
 * | a file's `detail` `low` / `high` / `original` | the part's `mediaResolution` (`MEDIA_RESOLUTION_LOW` / `_HIGH` / `_ULTRA_HIGH`), for a request whose `model` is Gemini 3 or later (earlier ones reject it), or a detail read from such a field unless the `model` is an earlier one; none for `auto` |
 * | provider-executed code | `executableCode` + `codeExecutionResult` parts |
 * | provider data | any other part, as sent |
 *
 * One content is read into one message (a user content that mixes function
 * responses and other parts into a tool message of its responses, which
 * answer the calls before them wherever they stand, then a user message of
 * the other parts, marked `$sameContent` so that it is written back into the
 * content of the message before it, in the places its parts had), and each
 * other message is written as one content, so contents in a row of the same
 * role (which Gemini merges itself) stay as they were.
 *
 * Gemini 2 sends function calls without `id`. Such a call gets an id made
 * up for the model (marked `providerOptions.gemini.$syntheticId`); a
 * response without an id is matched by name, in order, to a call of the
 * model turn just before it that no response of that turn names; and a
 * made-up id is written back neither on the call nor on a result that
 * answers it (one the caller built included). As Gemini pairs them the
 * same way, the results without ids of one name are written in the order
 * of their calls, across the tool messages of a turn. Ids made up while
 * reading a response carry a random tag drawn once per process, so a
 * history continued by another process keeps them distinct.
 *
 * **Fields the model does not name** are kept, never dropped, as every
 * adapter keeps them: in `providerOptions.gemini` of the block, message or
 * tool definition they were read from (a part's own fields directly, the
 * fields of its `functionCall`, `functionResponse`, `inlineData`... under
 * that key), and the request body's (`generationConfig`, `safetySettings`,
 * tool configurations the model has no word for) directly in
 * `Request.providerOptions.gemini`; written back from there. Parts of
 * unknown kinds become `ProviderDataBlock`s. A content's role other than
 * `user` and `model` is kept and written back; its parts are read as a user
 * content's, and a role Gemini never takes (`"assistant"`, `"system"`, not
 * the older `"function"` or `"tool"` of function responses) is reported
 * (`UnknownProviderField` at `contents[i].role`). Non-text parts of a system
 * instruction have no place in a system message and are reported
 * (`UnknownProviderField`). Beside the kept fields a few hints choose a
 * wire form, each named with a `$` in front (a part's own field named
 * `kind` is kept as any other, and so is one named `$kind`: a field whose
 * name starts with `$` is kept with one more in front, `$$kind`, so it is
 * never read as a hint; the names below are given without the `$`): `sameContent` (a message read from the same
 * user content as the message before it), `partsAt` (the places its parts
 * had in that content, when some stood before a function response),
 * `syntheticId` (the call or response had no id), `noArgs` / `noResponse` / `noMimeType` (the field was absent, not
 * empty; a file URI's type, as the API's guide sends a YouTube URL),
 * `nullArgs` (the call's arguments were an explicit `null`), `mediaResolution`
 * (a file's `detail` was read from the part's own media resolution, so it goes
 * back unless the request's model is one before Gemini 3), `kind`
 * (`executableCode` / `codeExecutionResult`), `parametersKey` (the
 * declaration's parameters came as `parameters` or `parameters_json_schema`),
 * `parametersAsSent` (a `parameters` schema that named its types in
 * Gemini's upper case, `"OBJECT"`, as it came: the model holds JSON Schema's
 * `"object"`, so other providers get a schema they accept, and Gemini gets
 * the schema back as sent, or in upper case once the parameters changed),
 * `declarationsKey` (a tool's declarations list, or a request's empty one,
 * came as `function_declarations`), `toolsLayout` (how a request's `tools`
 * entries were laid out, where the writer would lay them out otherwise:
 * declarations lists side by side, empty ones beside tools, kept entries
 * before others; followed while it fits the request's tools),
 * `groundingCitations` (a text's citations are a grounded answer's web
 * sources, read from the response's `groundingMetadata`: a request has no
 * place for them, and the writer leaves them out without a warning),
 * `snakeCase` and `nullCamelCase` (the fields read in snake_case, below).
 *
 * **Either spelling**: the REST API takes proto3 JSON, in which every field
 * may be written lowerCamelCase (`inlineData`, `mimeType`) or snake_case
 * (`inline_data`, `mime_type`), as Python clients write them. Both are read:
 * the fields of parts (files, calls, responses, signatures, code), the
 * system instruction, the tool and generation configs of a request, and
 * the fields a response or stream chunk is read from (`finish_reason`,
 * `usage_metadata`, `response_id`...).
 * Each block, system message and request notes the fields it was read from
 * in snake_case (`snakeCase`). Writing spells every field it builds in
 * lowerCamelCase, the names the official JS SDK (`@google/genai`) reads (it
 * drops a part it finds in snake_case, silently); with `spelling: "asRead"`
 * (`WriteOptions`) the noted fields are written back in snake_case, so a
 * body comes back exactly as it came, for a REST call or a recording.
 * Fields the adapter does not read are kept as they came, in their own
 * spelling. A field given in both spellings is read
 * from its lowerCamelCase name, unless that one is `null` and the other is
 * not (proto3 JSON reads a null as absent); the other is kept, written back,
 * and reported (`UnknownProviderField`). A null in lowerCamelCase beside the
 * value read is noted (`nullCamelCase`) and written back beside it with
 * `spelling: "asRead"`. The path of an error or warning names each field
 * as the input spells it (`contents[0].parts[1].inline_data.mime_type`).
 *
 * **What the format cannot carry** is reported as a warning (or, with
 * `strict`, fails with `UnsupportedContent`): thinking that carries another
 * provider's replay data (an Anthropic signature, an OpenAI reasoning item),
 * redacted thinking, refusals (sent as text), text citations, files by
 * provider file id, files at a URI of a scheme Gemini refuses (any but
 * http, https and `gs`: a `file:` URI, a `data:` URL that is not base64;
 * `gs://` goes as given, for Vertex AI; a base64 `data:` URL goes as the
 * `inlineData` it holds, of the type it declares, reported as converted),
 * provider-executed calls and provider data of other providers, tool
 * arguments that are not an object, system messages after the start (sent
 * as user text), document titles and context, a participant name, the
 * `strict` flag of tools and the parallel-tool-calls setting, a file whose
 * exact media type is unknown.
 *
 * **Normal forms**: a content without `role` comes back as `user`; a
 * system instruction given as plain text comes back as a content; a tool
 * entry holding function declarations and other tools comes back as one
 * entry each. Tools Gemini runs (Google Search, code execution, ...) are
 * `providerDefined` tool definitions in their place; a tool choice can name
 * only a function (`allowedFunctionNames`), so one that names a tool Gemini
 * runs is kept as sent when read, and reported when written. Another
 * provider's tools (Anthropic's bash or web search, whether `providerDefined`
 * or kept with their Anthropic `type`) are reported and left out.
 *
 * @since 0.1.0
 */
import { utf8ToBase64 } from "../internal/base64.js"
import { stringify } from "../internal/json.js"
import { messageText, quote } from "../internal/preview.js"
import { inlineFileOf } from "../internal/dataUrlFile.js"
import { bareMediaType } from "../internal/mediaType.js"
import { GEMINI_URLS, geminiTakesUrl } from "../internal/fileUrls.js"
import { geminiGeneration, geminiLevelOfDetail, geminiSendsPartResolution } from "../internal/imageSize.js"
import { mapSubschemas } from "../internal/jsonSchema.js"
import { sameJson } from "./internal/core.js"
import { Effect, Result, type Schema, type Stream } from "effect"
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
  MalformedPayload,
  RejectedSetting,
  RejectedToolName,
  UnknownProviderField,
  type UnsupportedContent
} from "./Conversion.js"
import * as Accumulator from "./GeminiStream.js"
import type { KeepPartial, StreamOptions } from "./StreamAccumulator.js"
import type * as Wire from "./GeminiWire.js"
import { eitherSpelling, readsSnake } from "./internal/geminiSpelling.js"
import { digest as idDigest, prefix as idPrefix, uniqueIn } from "./internal/ids.js"
import * as A from "./internal/adapter.js"
import { defined, hintOf, keep, keptOf, merge } from "./internal/kept.js"
import type * as StreamErrors from "./StreamError.js"
import type { ProviderStreamError, StreamProtocolError } from "./StreamError.js"

/**
 * The key of this format in `providerOptions`.
 *
 * @example
 * const { value: request } = yield* Gemini.fromRequest({
 *   contents: [{ role: "user", parts: [{ text: "hi" }] }],
 *   safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }]
 * })
 * request.providerOptions?.[Gemini.key] // { safetySettings: [...] }, written back by toRequest
 *
 * @since 0.1.0
 */
export const key = "gemini"

type Obj = A.Obj
type Fields = Record<string, Schema.Json>

/** The hints kept beside the wire fields (see the module documentation), each stored with a `$` in front (`internal/kept`). */
const hints = new Set(["sameContent", "partsAt", "syntheticId", "noArgs", "nullArgs", "noResponse", "noMimeType", "kind", "parametersKey", "parametersAsSent", "declarationsKey", "snakeCase", "nullCamelCase", "mediaResolution", "groundingCitations"])

/**
 * The hints a request keeps beside its fields (`declarationsKey`: the name of an empty declarations list read in
 * snake_case; `toolsLayout`: how its `tools` entries were laid out, see `ToolsLayout`).
 */
const requestHints = new Set(["snakeCase", "nullCamelCase", "declarationsKey", "toolsLayout"])

const contentKeys = new Set(["role", "parts"])
/** The roles a Gemini content takes: user and model, and for function responses the older "function" and the SDKs' "tool". */
const GEMINI_ROLES = new Set(["user", "model", "function", "tool"])
const partsKey = new Set(["parts"])
const thoughtKeys = new Set(["text", "thought", "thoughtSignature"])
const textKeys = new Set(["text", "thoughtSignature"])
const callPartKeys = new Set(["functionCall", "thoughtSignature"])
const callKeys = new Set(["id", "name", "args"])
const responsePartKeys = new Set(["functionResponse"])
const responseKeys = new Set(["id", "name", "response", "parts"])
const inlineKeys = new Set(["inlineData"])
const inlineDetailKeys = new Set(["inlineData", "mediaResolution"])
const blobKeys = new Set(["mimeType", "data", "displayName"])
const fileKeys = new Set(["fileData"])
const fileDetailKeys = new Set(["fileData", "mediaResolution"])
const fileDataKeys = new Set(["mimeType", "fileUri", "displayName"])
const codeKeys = new Set(["executableCode"])
const codeResultKeys = new Set(["codeExecutionResult"])
/** The fields of a declaration the model types: its parameters under whichever name they came (another one is kept). */
const declarationKeys = (parametersKey: string | undefined): ReadonlySet<string> =>
  new Set(parametersKey === undefined ? ["name", "description"] : ["name", "description", parametersKey])
const bodyKeys = new Set(["contents", "systemInstruction", "tools", "toolConfig", "generationConfig"])

// ---------------------------------------------------------------------------
// spelling: the REST API reads proto3 JSON, in which every field may be written
// lowerCamelCase or as its proto name in snake_case ("Parsers accept both the
// lowerCamelCase name (or the one specified by the json_name option) and the
// original proto field name": the JSON mapping of the proto3 language guide,
// https://protobuf.dev/programming-guides/proto3/#json). Python clients and the
// traffic they record write `inline_data`, `mime_type`, `function_response`...
// ---------------------------------------------------------------------------

/** The fields (lowerCamelCase) of a wire object that the adapter reads under either spelling, with the shape of the objects they hold. */
interface Shape {
  readonly [field: string]: Shape | null
}

const fileShape: Shape = { mimeType: null, fileUri: null, displayName: null }
/** A part; `mediaResolution` is read by the request estimate. */
const partShape: Shape = {
  thoughtSignature: null,
  functionCall: null,
  functionResponse: null,
  inlineData: fileShape,
  fileData: fileShape,
  executableCode: null,
  codeExecutionResult: null,
  mediaResolution: null
}
/** A request body's settings: those the adapter types, and those reported when another provider's request is written without them. */
const requestShape: Shape = {
  toolConfig: { functionCallingConfig: { allowedFunctionNames: null } },
  generationConfig: {
    responseMimeType: null,
    responseJsonSchema: null,
    responseSchema: null,
    maxOutputTokens: null,
    mediaResolution: null,
    topP: null,
    topK: null,
    stopSequences: null,
    presencePenalty: null,
    frequencyPenalty: null,
    thinkingConfig: null
  }
}

const snakeOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** Each field of a shape with its snake_case name and its own shape, worked out once: `camelCased` runs on every part read. */
const shapeFields = new WeakMap<Shape, ReadonlyArray<readonly [string, string, Shape | null]>>()
const fieldsOf = (shape: Shape): ReadonlyArray<readonly [string, string, Shape | null]> => {
  let fields = shapeFields.get(shape)
  if (fields === undefined) {
    fields = Object.keys(shape).map((field) => [field, snakeOf(field), shape[field] ?? null] as const)
    shapeFields.set(shape, fields)
  }
  return fields
}

/**
 * `o` with the fields of `shape` given in snake_case renamed to
 * lowerCamelCase (nested objects too), each renamed field's snake_case name
 * added to `spelling.snake` so that it is written back as it came (the hint
 * `snakeCase`). A field given in both spellings is read from its
 * lowerCamelCase name, the proto3 JSON name Gemini itself writes, unless
 * that one is `null` and the other is not (`readsSnake`); the other is
 * kept, written back, and reported (`UnknownProviderField`, kept): proto3
 * parsers are expected to reject a field given twice, so the provider may
 * refuse what the caller sent. A null kept beside a value read from
 * snake_case goes to `spelling.nulls` (the hint `nullCamelCase`), since it
 * cannot be kept under the name the value is read into.
 */
const camelCased = (ctx: A.Ctx, o: Obj, shape: Shape, at: string, spelling: Spelling): Obj => {
  let out: Record<string, Schema.Json> | undefined
  for (const [field, alias, sub] of fieldsOf(shape)) {
    let value = o[field]
    const other = o[alias]
    if (other !== undefined) {
      if (readsSnake(value, other)) {
        if (value === null) {
          spelling.nulls.push(field)
          ctx.warnings.push(new UnknownProviderField({ path: at === "" ? field : `${at}.${field}`, kept: true }))
        }
        value = other
        out ??= { ...o }
        delete out[alias]
        out[field] = value
        spelling.snake.push(alias)
      } else {
        ctx.warnings.push(new UnknownProviderField({ path: at === "" ? alias : `${at}.${alias}`, kept: true }))
      }
    }
    if (sub === null || !A.isObj(value)) continue
    const nested = camelCased(ctx, value, sub, at === "" ? field : `${at}.${field}`, spelling)
    if (nested === value) continue
    out ??= { ...o }
    out[field] = nested
  }
  return out ?? o
}

/** The names `camelCased` read a value with: the fields it found in snake_case, and the nulls given beside them in lowerCamelCase. */
interface Spelling {
  readonly snake: Array<string>
  readonly nulls: Array<string>
}

const newSpelling = (): Spelling => ({ snake: [], nulls: [] })

type SpellingHints = { readonly snakeCase: Schema.Json | undefined; readonly nullCamelCase: Schema.Json | undefined }

const camelCaseOnly: SpellingHints = { snakeCase: undefined, nullCamelCase: undefined }

/** A value's hints of the spelling it was read in (`snakeCase`, `nullCamelCase`), to keep beside its fields. */
const spellingHints = (spelling: Spelling): SpellingHints =>
  spelling.snake.length === 0 ? camelCaseOnly : {
    snakeCase: [...spelling.snake],
    nullCamelCase: spelling.nulls.length === 0 ? undefined : [...spelling.nulls]
  }

/**
 * `o` with the fields of `shape` named in a value's `snakeCase` hint written
 * in snake_case again, nested objects too, and beside each such field the
 * null it came with in lowerCamelCase (`nullCamelCase`): a copy where
 * anything changes (nested objects may be the kept ones, which are never
 * changed in place).
 */
const respell = <T extends object>(o: T, shape: Shape, snake: ReadonlySet<string>, nulls: ReadonlySet<string> | undefined): T => {
  const source = o as Record<string, unknown>
  let out: Record<string, unknown> | undefined
  for (const [field, alias, sub] of fieldsOf(shape)) {
    const value = source[field]
    if (value === undefined) continue
    const written = sub !== null && typeof value === "object" && value !== null && !Array.isArray(value) ? respell(value, sub, snake, nulls) : value
    const renamed = snake.has(alias) && source[alias] === undefined
    if (!renamed && written === value) continue
    out ??= { ...source }
    if (renamed) {
      delete out[field]
      out[alias] = written
      if (nulls?.has(field) === true) out[field] = null
    } else {
      out[field] = written
    }
  }
  return (out ?? o) as T
}

/** The names in a value's `snakeCase` (or `nullCamelCase`) hint, or `undefined`. */
const snakeOfValue = (value: { readonly providerOptions?: Block.ProviderOptions | undefined } | undefined, hint = "snakeCase"): ReadonlySet<string> | undefined => {
  const names = hintOf(value, key, hint)
  return Array.isArray(names) && names.length > 0 ? new Set(names.filter((n): n is string => typeof n === "string")) : undefined
}

/**
 * `path`, as the readers build it (every field in lowerCamelCase), with each
 * field named as `raw` spells it: the one read when both are given
 * (`readsSnake`). The last segment is left as it is when it names a field
 * exactly (`last: false`: a warning about the other spelling of a field).
 * Worked out only for the paths reported, so reading builds no path twice.
 */
const spelledPath = (raw: Schema.Json, path: string, last: boolean): string => {
  const cut = last ? path.length : Math.max(path.lastIndexOf("."), path.lastIndexOf("["))
  if (cut <= 0 || !/[A-Z]/.test(path.slice(0, cut))) return path
  let node: Schema.Json | undefined = raw
  const own = (o: Obj, name: string): Schema.Json | undefined => (Object.hasOwn(o, name) ? o[name] : undefined)
  const spelled = path.slice(0, cut).replace(/\[(\d+)\]|[^.[\]]+/g, (segment, index: string | undefined) => {
    if (index !== undefined) {
      node = Array.isArray(node) ? node[Number(index)] : undefined
      return segment
    }
    if (!A.isObj(node)) {
      node = undefined
      return segment
    }
    const alias = snakeOf(segment)
    const name = alias !== segment && readsSnake(own(node, segment), own(node, alias)) ? alias : segment
    node = own(node, name)
    return name
  })
  return spelled + path.slice(cut)
}

/**
 * Reads `input` (`body` gets its JSON copy), with the paths of its
 * `MalformedPayload` and of its `UnknownProviderField` warnings naming each
 * field as the input spells it (`spelledPath`).
 */
const runReadResult = <A>(ctx: A.Ctx, input: unknown, body: (raw: Schema.Json) => A): Result.Result<Converted<A>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  let raw: Schema.Json | undefined
  const result = A.runResult(ctx, () => {
    raw = A.jsonOf(ctx, input)
    const value = body(raw)
    // before strict mode looks at them
    for (let w = 0; w < ctx.warnings.length; w++) {
      const warning = ctx.warnings[w]!
      if (warning._tag !== "UnknownProviderField") continue
      const path = spelledPath(raw, warning.path, false)
      if (path !== warning.path) ctx.warnings[w] = new UnknownProviderField({ path, kept: warning.kept })
    }
    return value
  })
  if (raw === undefined || Result.isSuccess(result) || result.failure._tag !== "MalformedPayload") return result
  const error = result.failure
  const path = spelledPath(raw, error.path, true)
  return path === error.path ? result : Result.fail(new MalformedPayload({ provider: error.provider, path, reason: error.reason }))
}

/** `runReadResult` as an Effect, which reads when it runs. */
const runRead = <A>(ctx: A.Ctx, input: unknown, body: (raw: Schema.Json) => A): Effect.Effect<Converted<A>, MalformedPayload | InvalidToolArguments | UnsupportedContent> =>
  Effect.suspend(() => Effect.fromResult(runReadResult(ctx, input, body)))

/** The writes asked to spell each object as it was read (`spelling: "asRead"`). */
const writesAsRead = new WeakSet<A.Ctx>()

/** A written part in the spelling its block was read in, when the write asks for it; else as built, in lowerCamelCase. */
const spelledPart = <T extends object>(ctx: A.Ctx, part: T, block: { readonly providerOptions?: Block.ProviderOptions | undefined }): T => {
  if (!writesAsRead.has(ctx)) return part
  const snake = snakeOfValue(block)
  return snake === undefined ? part : respell(part, partShape, snake, snakeOfValue(block, "nullCamelCase"))
}

/**
 * Options of `toMessages` and `toRequest`: the conversion options, and the
 * spelling of what is written. `"camelCase"` (the default) writes every field
 * the adapter builds in lowerCamelCase, as the official JS SDK
 * (`@google/genai`) reads them; `"asRead"` writes the fields a value was read
 * from in snake_case back in snake_case (the REST API takes both), so a body
 * read from a Python client's traffic comes back byte for byte.
 *
 * @category options
 * @since 0.1.0
 */
export interface WriteOptions extends ConversionOptions {
  readonly spelling?: "camelCase" | "asRead" | undefined
}

/**
 * Made-up call ids for responses without ids: a counter, behind a random tag
 * drawn once per process, so a conversation persisted by one process and
 * continued by another does not get the same ids twice.
 */
let responseCalls = 0
const processTag = Math.floor(Math.random() * 36 ** 6).toString(36).padStart(6, "0")

/**
 * The longest name (or response id) a made-up call id holds as it is: 64 code
 * units, the most the Gemini API takes in a function name, so the ids of
 * every call it can send are as they always were. A longer one (a 20 MB name
 * from a broken or hostile payload would make a 20 MB id, copied into every
 * message that names the call) is held as its first 64 code units and a
 * short hash of the whole (`_` and 11 letters and digits): the same name
 * gives the same id, and two names sharing their first 64 code units give
 * different ones.
 */
const MADE_UP_NAME = 64

/** A name as a made-up id holds it (see `MADE_UP_NAME`). */
const idPart = (name: string): string => (name.length <= MADE_UP_NAME ? name : `${idPrefix(name, MADE_UP_NAME)}_${idDigest(name)}`)

// ---------------------------------------------------------------------------
// reading
// ---------------------------------------------------------------------------

/** A part's own unknown fields, with those of one nested object (`functionCall`...) under its key. */
const partExtras = (part: Obj, known: ReadonlySet<string>, nestedKey: string, nestedKnown: ReadonlySet<string>): Fields | undefined => {
  const nested = part[nestedKey]
  return A.withNested(A.extrasOf(part, known), nestedKey, A.isObj(nested) ? A.extrasOf(nested, nestedKnown) : undefined)
}

/** The media type of a file part that names none. */
const UNTYPED = "application/octet-stream"

/**
 * The `detail` a part's media resolution is, when it is exactly the level
 * the writer sends for one (`{ level: "MEDIA_RESOLUTION_LOW" }`, `..._HIGH`,
 * `..._ULTRA_HIGH`); any other (medium, a token count, another spelling of
 * the level) is kept as the part's own field.
 */
const detailOfResolution = (resolution: Schema.Json | undefined): Block.ImageDetail | undefined => {
  if (!A.isObj(resolution)) return undefined
  const keys = Object.keys(resolution)
  if (keys.length !== 1 || keys[0] !== "level") return undefined
  const level = resolution["level"]
  // the detail the writer sends as that level (`auto` is sent as none)
  return Block.ImageDetail.literals.find((detail) => geminiLevelOfDetail(detail) === level)
}

/** A detail read from the part's own media resolution, which the writer sends back unless the model is one before Gemini 3 (`resolutionOf`). */
const resolutionHint = (detail: Block.ImageDetail | undefined): { readonly mediaResolution?: true } => (detail === undefined ? {} : { mediaResolution: true })

/**
 * A file part (`inlineData` or `fileData`), its fields read in lowerCamelCase (`camelCased`, which gave `spelling`).
 * A content's part (`topLevel`) may carry a media resolution that is an image's `detail`; the files of a function
 * response have none.
 */
const readFile = (ctx: A.Ctx, part: Obj, at: string, spelling: Spelling, topLevel: boolean): Block.FileBlock | undefined => {
  const detail = topLevel ? detailOfResolution(part["mediaResolution"]) : undefined
  const settings = { ...defined({ detail }) }
  const inline = part["inlineData"]
  if (A.isObj(inline)) {
    const displayName = A.optStr(ctx, inline, "displayName", `${at}.inlineData`)
    return Block.file(Block.base64(A.optStr(ctx, inline, "data", `${at}.inlineData`) ?? ""), A.optStr(ctx, inline, "mimeType", `${at}.inlineData`) ?? UNTYPED, {
      ...defined({ filename: displayName }),
      ...settings,
      ...keep(key, partExtras(part, detail === undefined ? inlineKeys : inlineDetailKeys, "inlineData", blobKeys), { ...spellingHints(spelling), ...resolutionHint(detail) })
    })
  }
  const data = part["fileData"]
  if (A.isObj(data)) {
    const displayName = A.optStr(ctx, data, "displayName", `${at}.fileData`)
    // a URI may come without a type (a YouTube URL, as the API's guide sends it): it goes back without one
    const mimeType = A.optStr(ctx, data, "mimeType", `${at}.fileData`)
    return Block.file(Block.url(A.optStr(ctx, data, "fileUri", `${at}.fileData`) ?? ""), mimeType ?? UNTYPED, {
      ...defined({ filename: displayName }),
      ...settings,
      ...keep(key, partExtras(part, detail === undefined ? fileKeys : fileDetailKeys, "fileData", fileDataKeys), {
        ...spellingHints(spelling),
        ...resolutionHint(detail),
        noMimeType: mimeType === undefined ? true : undefined
      })
    })
  }
  return undefined
}

/** Pending calls by name, for responses that carry no id: the first call of that name not yet answered. */
class Pending {
  private readonly byName = new Map<string, { ids: Array<string>; next: number }>()
  private readonly answered = new Set<string>()
  add(name: string, id: string): void {
    const entry = this.byName.get(name)
    if (entry === undefined) this.byName.set(name, { ids: [id], next: 0 })
    else entry.ids.push(id)
  }
  /** Marks a call answered by a response that names its id. */
  answer(id: string): void {
    this.answered.add(id)
  }
  take(name: string): string | undefined {
    const entry = this.byName.get(name)
    if (entry === undefined) return undefined
    while (entry.next < entry.ids.length) {
      const id = entry.ids[entry.next++]!
      if (!this.answered.has(id)) return id
    }
    return undefined
  }
}

/** A text part: thinking when `thought` is true, else text (any other `thought` value is kept). */
const readText = (ctx: A.Ctx, part: Obj, at: string, spelling: Spelling): Block.TextBlock | Block.ThinkingBlock => {
  const thought = part["thought"] === true
  const options = {
    ...defined({ thoughtSignature: A.optStr(ctx, part, "thoughtSignature", at) }),
    ...keep(key, A.extrasOf(part, thought ? thoughtKeys : textKeys), spellingHints(spelling))
  }
  const text = part["text"] as string
  return thought ? Block.thinking(text, undefined, options) : Block.text(text, options)
}

const readModelPart = (ctx: A.Ctx, raw: Obj, at: string, makeId: (name: string, given?: string) => string, pending: Pending, blocks: Array<Block.AssistantBlock>): void => {
  const spelling = newSpelling()
  const part = camelCased(ctx, raw, partShape, at, spelling)
  if (typeof part["text"] === "string") {
    blocks.push(readText(ctx, part, at, spelling))
    return
  }
  const call = part["functionCall"]
  if (A.isObj(call)) {
    const name = A.str(ctx, call, "name", `${at}.functionCall`)
    const given = A.optStr(ctx, call, "id", `${at}.functionCall`)
    const id = given ?? makeId(name)
    pending.add(name, id)
    const args = call["args"] === undefined || call["args"] === null ? {} : A.obj(ctx, call["args"], `${at}.functionCall.args`)
    blocks.push(Block.toolCall(id, name, args, {
      ...defined({ thoughtSignature: A.optStr(ctx, part, "thoughtSignature", at) }),
      ...keep(key, partExtras(part, callPartKeys, "functionCall", callKeys), {
        syntheticId: given === undefined ? true : undefined,
        noArgs: call["args"] === undefined ? true : undefined,
        // an explicit null (not the object the API documents) is written back as it came
        nullArgs: call["args"] === null ? true : undefined,
        ...spellingHints(spelling)
      })
    }))
    return
  }
  const code = part["executableCode"]
  if (A.isObj(code)) {
    // the code's own id (written back inside it, not as the block's) names the call, made unique as a made-up id is
    const given = codeIdOf(code)
    const id = makeId("code_execution", given)
    blocks.push(Block.toolCall(id, "code_execution", code, { providerExecuted: true, ...keep(key, A.extrasOf(part, codeKeys), { kind: "executableCode", ...spellingHints(spelling) }) }))
    pending.add(CODE_EXECUTION, id)
    if (given !== undefined) pending.add(CODE_EXECUTION + given, id)
    return
  }
  const result = part["codeExecutionResult"]
  if (A.isObj(result)) {
    // a result that names its code by id answers that code; one that names none (or no code read) the first unanswered
    const given = codeIdOf(result)
    const named = given === undefined ? undefined : pending.take(CODE_EXECUTION + given)
    const id = named ?? pending.take(CODE_EXECUTION) ?? makeId("code_execution")
    // (answered, the code waits under neither of its names)
    pending.answer(id)
    blocks.push(Block.toolResult(id, "code_execution", [Block.json(result)], false, {
      providerExecuted: true,
      ...keep(key, A.extrasOf(part, codeResultKeys), { kind: "codeExecutionResult", ...spellingHints(spelling) })
    }))
    return
  }
  // a part of another kind is kept as it came, in its own spelling
  blocks.push(readFile(ctx, part, at, spelling, true) ?? Block.providerData(key, raw))
}

/**
 * Where a code execution waits for its result among the calls waiting by name: under a name no function has (a NUL),
 * so a function named `code_execution` pairs with its own response, not with the code's result; one with an id waits
 * under that name and its id too, for a result that names it.
 */
const CODE_EXECUTION = "\u0000code_execution"

/** The `id` of an `executableCode` or `codeExecutionResult`, by which the server pairs them. */
const codeIdOf = (code: Obj): string | undefined => (typeof code["id"] === "string" && code["id"] !== "" ? code["id"] : undefined)

const readResponse = (ctx: A.Ctx, part: Obj, at: string, spelling: Spelling, makeId: (name: string) => string, pending: Pending): Block.ToolResultBlock => {
  const fr = part["functionResponse"] as Obj
  const frAt = `${at}.functionResponse`
  const name = A.optStr(ctx, fr, "name", frAt) ?? ""
  const given = A.optStr(ctx, fr, "id", frAt)
  const id = given ?? pending.take(name) ?? makeId(name)
  const response = A.optObj(ctx, fr, "response", frAt)
  const files: Array<Block.ToolResultPart> = []
  const rawParts = fr["parts"]
  let untyped = false
  if (rawParts !== undefined && rawParts !== null) {
    const list = A.arr(ctx, rawParts, `${frAt}.parts`)
    for (let p = 0; p < list.length; p++) {
      const fileAt = `${frAt}.parts[${p}]`
      const fileSpelling = newSpelling()
      const file = readFile(ctx, camelCased(ctx, A.obj(ctx, list[p], fileAt), partShape, fileAt, fileSpelling), fileAt, fileSpelling, false)
      if (file === undefined) untyped = true
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
    content = [...(response === undefined ? [] : [Block.json(response)]), ...files]
  }
  let extras = partExtras(part, responsePartKeys, "functionResponse", responseKeys)
  // parts the model has no home for: the whole list is kept as sent
  if (untyped) extras = { ...extras, functionResponse: { ...(extras?.["functionResponse"] as Fields | undefined), parts: rawParts! } }
  return Block.toolResult(id, name, content, isError, keep(key, extras, {
    syntheticId: given === undefined ? true : undefined,
    noResponse: response === undefined ? true : undefined,
    ...spellingHints(spelling)
  }))
}

const roleOf = (content: Schema.Json | undefined): unknown => (A.isObj(content) ? content["role"] : undefined)

/**
 * Marks the calls that responses name by id in the turn starting at
 * `from` (its model contents, then the other contents up to the next model
 * content): answered wherever the naming response stands, so no response
 * without an id is matched to them.
 */
const markNamed = (pending: Pending, contents: ReadonlyArray<Schema.Json>, from: number): void => {
  let k = from
  while (k < contents.length && roleOf(contents[k]) === "model") k++
  for (; k < contents.length && roleOf(contents[k]) !== "model"; k++) {
    const content = contents[k]
    const parts = A.isObj(content) && Array.isArray(content["parts"]) ? content["parts"] : []
    for (const part of parts) {
      const fr = A.isObj(part) ? eitherSpelling(part, "functionResponse", "function_response") : undefined
      if (A.isObj(fr) && typeof fr["id"] === "string") pending.answer(fr["id"])
    }
  }
}

/**
 * The ids the contents give their calls, which no id made up for a part may
 * take (a response naming an id no call has still answers the call made up
 * with it, as before).
 */
const givenCallIdsOf = (contents: ReadonlyArray<Schema.Json>): Set<string> => {
  const ids = new Set<string>()
  for (const content of contents) {
    const parts = A.isObj(content) && Array.isArray(content["parts"]) ? content["parts"] : []
    for (const part of parts) {
      const call = A.isObj(part) ? eitherSpelling(part, "functionCall", "function_call") : undefined
      if (A.isObj(call) && typeof call["id"] === "string") ids.add(call["id"])
    }
  }
  return ids
}

const readContents = (ctx: A.Ctx, contents: ReadonlyArray<Schema.Json>, path: string, messages: Array<Message.Message>): void => {
  // a made-up id names the part's place, made unique when the contents give that id to another call (a code execution's
  // own id is made unique so too)
  const taken = givenCallIdsOf(contents)
  const fresh = (base: string): string => uniqueIn(taken, base)
  let pending = new Pending()
  let previousRole: string | undefined
  for (let c = 0; c < contents.length; c++) {
    const at = `${path}[${c}]`
    const content = A.obj(ctx, contents[c], at)
    const role = A.optStr(ctx, content, "role", at)
    // A response without an id answers a call of the model turn before it: a new turn leaves older unanswered calls unanswered.
    if (c === 0 || (role === "model" && previousRole !== "model")) {
      pending = new Pending()
      markNamed(pending, contents, c)
    }
    previousRole = role
    // another format's message (`content` where Gemini has `parts`) would be read as an empty content, its text kept
    // in a field no writer sends: refused instead, as the other readers refuse a message they cannot read
    if ((content["parts"] === undefined || content["parts"] === null) && content["content"] !== undefined) {
      A.malformed(ctx, `${at}.parts`, "expected the content's parts, got a content field instead (is this another format's message?)")
    }
    const parts = content["parts"] === undefined || content["parts"] === null ? [] : A.arr(ctx, content["parts"], `${at}.parts`)
    const extras = A.extrasOf(content, contentKeys)
    // a role other than user and model (the legacy "function") is kept and written back; one Gemini never named
    // ("assistant", "system": another format's message) is said, as its content is read as the user's
    const contentExtras = role !== undefined && role !== "user" && role !== "model" ? { ...extras, role } : extras
    if (role !== undefined && !GEMINI_ROLES.has(role)) ctx.warnings.push(new UnknownProviderField({ path: `${at}.role`, kept: true }))
    let first = true
    // a content's later messages (its results and its text read apart) are marked to be written back into it
    const options = (): { readonly providerOptions?: Block.ProviderOptions } => {
      const o = first ? keep(key, contentExtras) : keep(key, undefined, { sameContent: true })
      first = false
      return o
    }
    let p = 0
    const ids = (name: string, given?: string): string => fresh(given ?? `${idPart(name)}_${c}_${p}`)
    if (role === "model") {
      const blocks: Array<Block.AssistantBlock> = []
      for (; p < parts.length; p++) {
        const partAt = `${at}.parts[${p}]`
        readModelPart(ctx, A.obj(ctx, parts[p], partAt), partAt, ids, pending, blocks)
      }
      messages.push(Message.assistant(blocks, options()))
      continue
    }
    // the function responses answer the calls before them, whatever the place of the other parts: a tool message first,
    // then a user message of the others, which notes their places in the content when they stood before a response
    const tool: Array<Block.ToolResultBlock> = []
    const user: Array<Block.UserBlock> = []
    const userAt: Array<number> = []
    for (; p < parts.length; p++) {
      const partAt = `${at}.parts[${p}]`
      const raw = A.obj(ctx, parts[p], partAt)
      const spelling = newSpelling()
      const part = camelCased(ctx, raw, partShape, partAt, spelling)
      if (A.isObj(part["functionResponse"])) {
        tool.push(readResponse(ctx, part, partAt, spelling, ids, pending))
        continue
      }
      userAt.push(p)
      if (typeof part["text"] === "string" && part["thought"] !== true) user.push(readText(ctx, part, partAt, spelling) as Block.TextBlock)
      else user.push(readFile(ctx, part, partAt, spelling, true) ?? Block.providerData(key, raw))
    }
    if (tool.length > 0) messages.push(Message.tool(tool, options()))
    if (user.length > 0 || tool.length === 0) {
      const inOrder = userAt.length === 0 || userAt[0] === tool.length
      messages.push(Message.user(user, inOrder || first ? options() : keep(key, undefined, { sameContent: true, partsAt: userAt })))
    }
  }
}

/**
 * A message's kept fields to write on its content, without `parts`: the content's parts are the message's blocks, and
 * the writer adds to them. A `parts` field of its options (set by hand: the reader never keeps one) is left out,
 * reported.
 */
const contentKept = (ctx: A.Ctx, m: Message.Message, index: number): { readonly [key: string]: unknown } | undefined => {
  const kept = A.withoutOwnFields(ctx, index, undefined, keptOf(m, key, hints), {}, ["parts"], "a content's parts are the message's blocks")
  // a kept role is a wire form of the same side (the legacy "function" of a user content, "user" on the system
  // instruction); one of the other side ("model" on a user's message, anything but "model" on the model's) is not
  const role = kept?.["role"]
  if (role === undefined || (m.role === "assistant" ? role === "model" : role !== "model")) return kept
  return A.withoutOwnFields(ctx, index, undefined, kept, { role: m.role === "assistant" ? "model" : "user" }, ["role"], "the message's own role is written")
}

/**
 * The parts of a message written into the content of the message before it
 * (`sameContent`): in the places its `partsAt` hint gives them, while the
 * hint fits (as many places as parts, in order, inside the content), else
 * after the parts there.
 */
const joinParts = (into: Array<Wire.PartParam>, parts: ReadonlyArray<Wire.PartParam>, at: Schema.Json | undefined): void => {
  const size = into.length + parts.length
  const fits = Array.isArray(at) && at.length === parts.length && at.length > 0 &&
    at.every((n, k) => typeof n === "number" && Number.isInteger(n) && n >= 0 && n < size && (k === 0 || n > (at[k - 1] as number)))
  if (!fits) {
    for (const part of parts) into.push(part)
    return
  }
  const before = into.splice(0)
  let next = 0
  let other = 0
  for (let k = 0; k < size; k++) into.push(next < at.length && at[next] === k ? parts[next++]! : before[other++]!)
}

/** The system instruction; `snake` when it came as `system_instruction` (written back so). */
const readSystem = (ctx: A.Ctx, raw: Schema.Json | undefined, snake: boolean): Message.SystemMessage | undefined => {
  if (raw === undefined || raw === null) return undefined
  const spelling = keep(key, undefined, { snakeCase: snake ? ["system_instruction"] : undefined })
  if (typeof raw === "string") return Message.system(raw, spelling)
  const content = A.obj(ctx, raw, "systemInstruction")
  const parts = content["parts"] === undefined ? [] : A.arr(ctx, content["parts"], "systemInstruction.parts")
  const blocks: Array<Block.TextBlock> = []
  for (let p = 0; p < parts.length; p++) {
    const at = `systemInstruction.parts[${p}]`
    const partSpelling = newSpelling()
    const part = camelCased(ctx, A.obj(ctx, parts[p], at), partShape, at, partSpelling)
    if (typeof part["text"] !== "string") {
      ctx.warnings.push(new UnknownProviderField({ path: at, kept: false }))
      continue
    }
    blocks.push(Block.text(part["text"], {
      ...defined({ thoughtSignature: A.optStr(ctx, part, "thoughtSignature", at) }),
      // a `thought` flag has no meaning in a system instruction: it is kept as sent, with the other fields
      ...keep(key, A.extrasOf(part, textKeys), spellingHints(partSpelling))
    }))
  }
  // the system instruction's role (often "user") is not the model's: it is kept as sent
  return Message.system(blocks, keep(key, A.extrasOf(content, partsKey), { snakeCase: snake ? ["system_instruction"] : undefined }))
}

/**
 * The field a body's system instruction is read from: `systemInstruction`,
 * else `system_instruction` (both given: the first unless it is `null` and
 * the other is not, as `camelCased` does).
 */
const systemKeyOf = (raw: Obj): "systemInstruction" | "system_instruction" =>
  readsSnake(raw["systemInstruction"], raw["system_instruction"]) ? "system_instruction" : "systemInstruction"

const readMessages = (ctx: A.Ctx, raw: Obj): Array<Message.Message> => {
  const messages: Array<Message.Message> = []
  const systemKey = systemKeyOf(raw)
  const system = readSystem(ctx, raw[systemKey], systemKey === "system_instruction")
  if (system !== undefined) messages.push(system)
  // contents is what makes it Gemini's shape (and the API requires it): a body of another format has none
  if (raw["contents"] === undefined) A.malformed(ctx, "contents", "a Gemini conversation needs contents (is this another provider's format?)")
  readContents(ctx, A.arr(ctx, raw["contents"], "contents"), "contents", messages)
  return messages
}

// ---------------------------------------------------------------------------
// writing
// ---------------------------------------------------------------------------

/**
 * The exact media type Gemini needs: a wildcard (`image/*`, what an image
 * URL from OpenAI is read as) is resolved from the file's name or URL, and
 * reported when it cannot be.
 */
const mimeTypeOf = (ctx: A.Ctx, block: Block.FileBlock, index: number, blockIndex: number): string => {
  // compared without case or parameters, as the estimator compares types: `IMAGE/*` is a wildcard too
  const bare = bareMediaType(block.mediaType)
  if (!bare.endsWith("/*")) return block.mediaType
  const known = A.mediaTypeOfName(block.filename ?? (block.source._tag === "Url" ? block.source.url : ""))
  if (known !== undefined && known.startsWith(bare.slice(0, -1))) return known
  A.converted(ctx, index, blockIndex, `a file of unknown type (${messageText(block.mediaType)})`, "with that media type, which Gemini may refuse")
  return block.mediaType
}

/** The model a request is written for (`toRequest`), which decides whether a file's detail is sent (`geminiSendsPartResolution`). */
const modelOf = new WeakMap<A.Ctx, string>()

/**
 * The `mediaResolution` a content's file part is written with for the
 * file's `detail` (`low`, `high`, `original` as ultra-high; `auto` is
 * Gemini's default and needs none). Reported and left out where it cannot go: in a function response's
 * files (which have no media resolution), beside a media resolution the part
 * keeps from Gemini, for a model before Gemini 3, which rejects the request
 * ("Per part media resolution is not supported for this Model"), and, unless
 * the detail was read from the part's own media resolution, when the write
 * names no model or one with no Gemini version: a detail set for OpenAI is
 * sent to Gemini only for a request whose `model` is Gemini 3 or later
 * (`geminiSendsPartResolution`, which the request estimate asks too).
 */
const resolutionOf = (
  ctx: A.Ctx,
  block: Block.FileBlock,
  index: number,
  blockIndex: number,
  kept: { readonly [key: string]: unknown } | undefined,
  inResult: boolean
): { readonly mediaResolution?: { readonly level: string } } => {
  const level = geminiLevelOfDetail(block.detail)
  if (level === undefined) return {}
  const what = `the ${block.detail} detail setting of ${A.an(block.mediaType)} ${messageText(block.mediaType)} file`
  const model = modelOf.get(ctx)
  if (inResult) A.dropped(ctx, index, blockIndex, what, "the files of a Gemini function response have no media resolution")
  else if (kept?.["mediaResolution"] !== undefined || kept?.["media_resolution"] !== undefined) {
    A.dropped(ctx, index, blockIndex, what, "the part's own Gemini media resolution is sent instead")
  } else if (!geminiSendsPartResolution(model, hintOf(block, key, "mediaResolution") === true)) {
    const why = model === undefined
      ? "name the model in the request to send it"
      : geminiGeneration(model) === undefined
      ? `${messageText(model)} names no Gemini version`
      : `${messageText(model)} is not one of them`
    A.dropped(ctx, index, blockIndex, what, `Gemini takes a media resolution per part from Gemini 3 on, and earlier models reject it: ${why}`)
  } else return { mediaResolution: { level } }
  return {}
}

const writeFile = (ctx: A.Ctx, block: Block.FileBlock, index: number, blockIndex: number, inResult = false): Wire.PartParam | undefined => {
  // a base64 data: URL, which Gemini does not fetch, is the data it holds, sent inline
  const inline = inlineFileOf(block)
  if (inline === undefined) return writeGivenFile(ctx, block, index, blockIndex, inResult)
  const media = inline.mediaType
  A.converted(ctx, index, blockIndex, `${A.an(media)} ${messageText(media)} file at a base64 data: URL`, "as the inline data it holds (Gemini fetches no data: URL)")
  return writeGivenFile(ctx, inline, index, blockIndex, inResult)
}

const writeGivenFile = (ctx: A.Ctx, block: Block.FileBlock, index: number, blockIndex: number, inResult: boolean): Wire.PartParam | undefined => {
  const kept = keptOf(block, key, hints)
  if (block.title !== undefined || block.context !== undefined || block.citationsEnabled !== undefined) {
    A.dropped(ctx, index, blockIndex, "a document title, context or citations setting", "Gemini file parts have none")
  }
  const named = block.filename === undefined ? {} : { displayName: block.filename }
  const source = block.source
  // asked for once the file is known to be sent (a file left out is reported as a whole); not a field of
  // `Wire.PartParam`, as the SDK's `Part` types its level with an enum that no string literal type matches
  const resolution = (): { readonly mediaResolution?: { readonly level: string } } => resolutionOf(ctx, block, index, blockIndex, kept, inResult)
  switch (source._tag) {
    case "Base64":
      return spelledPart(ctx, merge<Wire.PartParam>({ inlineData: { mimeType: mimeTypeOf(ctx, block, index, blockIndex), data: source.data, ...named }, ...resolution() }, kept), block)
    case "Url": {
      // a file: URI or a data: URL that is not base64 (any scheme but http, https and gs) is refused by the Gemini
      // API and Vertex AI alike
      if (!geminiTakesUrl(source.url)) {
        A.dropped(ctx, index, blockIndex, `${A.an(block.mediaType)} ${messageText(block.mediaType)} file at ${A.urlScheme(source.url)} URL`, GEMINI_URLS)
        return undefined
      }
      const untyped = block.mediaType === UNTYPED && hintOf(block, key, "noMimeType") === true
      const mimeType = untyped ? {} : { mimeType: mimeTypeOf(ctx, block, index, blockIndex) }
      return spelledPart(ctx, merge<Wire.PartParam>({ fileData: { ...mimeType, fileUri: source.url, ...named }, ...resolution() }, kept), block)
    }
    case "Text":
      A.converted(ctx, index, blockIndex, "a text document", "as base64 text/plain inline data")
      return spelledPart(ctx, merge<Wire.PartParam>({ inlineData: { mimeType: "text/plain", data: utf8ToBase64(source.text), ...named }, ...resolution() }, kept), block)
    case "FileId":
      A.dropped(ctx, index, blockIndex, `the file ${quote(source.fileId)}`, "Gemini takes inline data or file URIs, not another provider's file ids")
      return undefined
    default:
      return Block.absurd(source)
  }
}

const textPart = (ctx: A.Ctx, block: Block.TextBlock, index: number, blockIndex: number): Wire.PartParam => {
  // (a grounded answer's own citations, read from its grounding, were never a part's: nothing is left out)
  if (block.citations !== undefined && block.citations.length > 0 && hintOf(block, key, GROUNDING_CITATIONS) !== true) {
    A.dropped(ctx, index, blockIndex, "the citations of a text", "Gemini text parts carry none")
  }
  const part: Wire.PartParam = { text: block.text }
  if (block.thoughtSignature !== undefined) part.thoughtSignature = block.thoughtSignature
  return spelledPart(ctx, merge(part, A.withoutOwnFields(ctx, index, blockIndex, keptOf(block, key, hints), part, ["text"])), block)
}

type ResponseFields = Pick<NonNullable<Wire.PartParam["functionResponse"]>, "response" | "parts">

const writeResultContent = (ctx: A.Ctx, result: Block.ToolResultBlock, index: number, blockIndex: number): ResponseFields => {
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
    const written = writeFile(ctx, part, index, blockIndex, true)
    if (written !== undefined) files.push(written as { inlineData?: Wire.BlobParam; fileData?: Wire.FileDataParam })
  }
  const out: ResponseFields = files.length > 0 ? { parts: files } : {}
  const only = rest[0]
  // no text: an error result still says it failed, with an empty error (as a text one says it with its text)
  if (rest.length === 0) {
    if (result.isError) return { ...out, response: { error: "" } }
    return hintOf(result, key, "noResponse") === true ? out : { ...out, response: {} }
  }
  if (rest.length === 1 && only !== undefined && only._tag === "Json" && A.isObj(only.value)) {
    if (result.isError) A.dropped(ctx, index, blockIndex, "the error flag of a JSON tool result", "a structured functionResponse has no error flag")
    return { ...out, response: only.value as { [key: string]: unknown } }
  }
  if (rest.length === 1 && only !== undefined && only._tag === "Text") return { ...out, response: { [field]: only.text } }
  // (one part left: a JSON value that is no object, which a functionResponse's response cannot be)
  A.converted(ctx, index, blockIndex, rest.length > 1 ? "a tool result of several parts" : "a JSON tool result that is no object", `as one text in response.${field}`)
  return { ...out, response: { [field]: Block.resultContentText(rest) } }
}

const providerData = (ctx: A.Ctx, block: Block.ProviderDataBlock, index: number, blockIndex: number): Wire.PartParam | undefined => {
  if (block.provider === key) return { ...block.data } as Wire.PartParam
  A.dropped(ctx, index, blockIndex, `${messageText(block.provider)} provider data`, A.foreignDataReason(block, "it belongs to another provider"))
  return undefined
}

const writeUserParts = (ctx: A.Ctx, m: Message.UserMessage | Message.SystemMessage, index: number): Array<Wire.PartParam> => {
  const parts: Array<Wire.PartParam> = []
  for (let b = 0; b < m.content.length; b++) {
    const block = m.content[b]!
    let part: Wire.PartParam | undefined
    switch (block._tag) {
      case "Text":
        part = textPart(ctx, block, index, b)
        break
      case "File":
        part = writeFile(ctx, block, index, b)
        break
      case "ProviderData":
        part = providerData(ctx, block, index, b)
        break
      default:
        return Block.absurd(block)
    }
    if (part !== undefined) parts.push(part)
  }
  return parts
}

const writeModelParts = (ctx: A.Ctx, m: Message.AssistantMessage, index: number): Array<Wire.PartParam> => {
  const parts: Array<Wire.PartParam> = []
  for (let b = 0; b < m.content.length; b++) {
    const block = m.content[b]!
    switch (block._tag) {
      case "Text":
        parts.push(textPart(ctx, block, index, b))
        break
      case "Thinking":
        if (block.signature !== undefined || block.itemId !== undefined || block.encryptedContent !== undefined) {
          A.dropped(ctx, index, b, "thinking with another provider's replay data", "Gemini cannot verify or replay it")
          break
        }
        parts.push(spelledPart(ctx, merge<Wire.PartParam>({ text: block.thinking, thought: true, ...defined({ thoughtSignature: block.thoughtSignature }) }, keptOf(block, key, hints)), block))
        break
      case "RedactedThinking":
        A.dropped(ctx, index, b, "redacted thinking", "it is Anthropic's and cannot be replayed to Gemini")
        break
      case "Refusal":
        A.converted(ctx, index, b, "a refusal", "as text")
        parts.push({ text: block.refusal })
        break
      case "File": {
        const part = writeFile(ctx, block, index, b)
        if (part !== undefined) parts.push(part)
        // an OpenAI audio reply's transcript, the words of that turn, goes nowhere here
        const audio = block.providerOptions?.["openai-chat"]?.["audio"]
        const transcript = A.isObj(audio) ? audio["transcript"] : undefined
        if (typeof transcript === "string" && transcript !== "") {
          A.dropped(ctx, index, b, `the transcript of a generated audio reply (${Block.truncate(transcript, 60)})`, "a Gemini part is the audio alone")
        }
        break
      }
      case "ToolCall": {
        const kept = keptOf(block, key, hints)
        if (block.providerExecuted === true) {
          if (hintOf(block, key, "kind") === "executableCode") parts.push(spelledPart(ctx, merge({ executableCode: block.args } as Wire.PartParam, kept), block))
          else A.dropped(ctx, index, b, `the provider-executed call ${quote(block.name)}`, "another provider ran it")
          break
        }
        if (block.parseError !== undefined) {
          A.converted(ctx, index, b, `the argument text of ${quote(block.name)}, not a valid JSON object,`, "as its repaired value (Gemini takes an object)")
        }
        const args = A.callObject(block)
        if (args.asInput === true) A.converted(ctx, index, b, `the free-form input of the custom tool call ${quote(block.name)}`, "as {\"input\": <its text>} (Gemini takes JSON arguments)")
        if (args.replaced !== undefined) A.converted(ctx, index, b, `the argument text of ${quote(block.name)}`, `as {} (${args.replaced})`)
        if (args.rounded !== undefined) A.converted(ctx, index, b, `a tool call to ${quote(block.name)}`, `with numbers of its arguments rounded to what a JavaScript number holds (${args.rounded})`)
        A.checkToolName(ctx, block.name, index, b)
        const call: NonNullable<Wire.PartParam["functionCall"]> = { name: block.name }
        const empty = Object.keys(args.value).length === 0
        if (empty && hintOf(block, key, "nullArgs") === true) (call as { args?: unknown }).args = null
        else if (hintOf(block, key, "noArgs") !== true || !empty) call.args = args.value as { [key: string]: unknown }
        if (hintOf(block, key, "syntheticId") !== true) call.id = block.id
        const part: Wire.PartParam = { functionCall: call }
        if (block.thoughtSignature !== undefined) part.thoughtSignature = block.thoughtSignature
        parts.push(spelledPart(ctx, merge(part, kept), block))
        break
      }
      case "ToolResult":
        if (hintOf(block, key, "kind") === "codeExecutionResult" && Array.isArray(block.content) && block.content[0]?._tag === "Json") {
          parts.push(spelledPart(ctx, merge({ codeExecutionResult: block.content[0].value } as Wire.PartParam, keptOf(block, key, hints)), block))
        } else {
          A.dropped(ctx, index, b, `the result of the provider-executed call ${quote(block.toolName)}`, "another provider ran it")
        }
        break
      case "ProviderData": {
        const part = providerData(ctx, block, index, b)
        if (part !== undefined) parts.push(part)
        break
      }
      default:
        return Block.absurd(block)
    }
  }
  return parts
}

/** A function response written without an id: where it is, and its call's name and position in the model turn. */
interface IdlessResponse {
  readonly parts: Array<Wire.PartParam>
  readonly at: number
  readonly name: string
  readonly order: number
}

/**
 * Gemini pairs the responses without an id with the calls of the model turn
 * before them by name, in order: within each name, the responses of a run
 * of tool messages are put in the order of their calls, in the places they
 * hold (responses of other names, and those with ids, stay where they are).
 */
const pairInOrder = (responses: ReadonlyArray<IdlessResponse>): void => {
  const byName = new Map<string, Array<IdlessResponse>>()
  for (const r of responses) {
    const group = byName.get(r.name)
    if (group === undefined) byName.set(r.name, [r])
    else group.push(r)
  }
  for (const group of byName.values()) {
    if (group.length < 2) continue
    const sorted = group.map((r) => ({ part: r.parts[r.at]!, order: r.order })).sort((x, y) => (x.order === y.order ? 0 : x.order < y.order ? -1 : 1))
    group.forEach((r, k) => {
      r.parts[r.at] = sorted[k]!.part
    })
  }
}

const writeMessages = (ctx: A.Ctx, messages: ReadonlyArray<Message.Message>): Wire.Messages => {
  const out: Wire.Messages = { contents: [] }
  // the calls written so far whose id was made up, and the position of each call of the last run of model contents
  const calls = { synthetic: new Set<string>(), order: new Map<string, number>() }
  // the responses without an id of the current run of tool messages
  let idless: Array<IdlessResponse> = []
  let previous: Message.Message["role"] | undefined
  let started = false
  let system: Wire.ContentParam | undefined
  /** The user content message i-1 was written as, which message i joins when it was read from it. */
  let userContent: Wire.ContentParam | undefined
  let userContentOf = -1
  /** The user content message i goes into: the one before, when both were read from it, else a new one. */
  const userContentFor = (m: Message.Message, i: number, kept: { readonly [key: string]: unknown } | undefined): Wire.ContentParam => {
    const joined = userContentOf === i - 1 && userContent !== undefined && hintOf(m, key, "sameContent") === true
    const content = joined ? userContent! : merge<Wire.ContentParam>({ role: "user", parts: [] }, kept)
    if (!joined) out.contents.push(content)
    userContent = content
    userContentOf = i
    return content
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role !== "tool" && idless.length > 0) {
      pairInOrder(idless)
      idless = []
    }
    // a model turn's calls may be spread over model contents in a row
    if (m.role === "assistant" && previous !== "assistant") calls.order.clear()
    previous = m.role
    const kept = contentKept(ctx, m, i)
    if (m.role !== "tool" && m.name !== undefined) A.dropped(ctx, i, undefined, "the participant name", "Gemini contents have no name")
    switch (m.role) {
      case "system": {
        const parts = writeUserParts(ctx, m, i)
        if (!started) {
          if (system === undefined) {
            system = merge<Wire.ContentParam>({ parts } as Wire.ContentParam, kept)
            // written under the name it was read from
            if (writesAsRead.has(ctx) && snakeOfValue(m)?.has("system_instruction") === true) out.system_instruction = system
            else out.systemInstruction = system
          } else {
            for (const part of parts) system.parts.push(part)
            // its own fields join the instruction where it has none of that name; one it has already is reported
            const joined = system as unknown as { [key: string]: unknown }
            for (const [name, value] of Object.entries(kept ?? {})) {
              if (!Object.hasOwn(joined, name)) merge(system, { [name]: value })
              else if (!sameJson(joined[name], value)) A.dropped(ctx, i, undefined, `the field ${quote(name)} of a system message joined to the one before`, "the system instruction has its own")
            }
          }
          continue
        }
        A.converted(ctx, i, undefined, "a system message after the conversation started", "as user text")
        out.contents.push(merge<Wire.ContentParam>({ role: "user", parts }, kept))
        continue
      }
      case "user": {
        const parts = writeUserParts(ctx, m, i)
        if (m.content.length > 0 && parts.length === 0) A.droppedEmptyMessage(ctx, i, "user", "Gemini")
        else joinParts(userContentFor(m, i, kept).parts, parts, hintOf(m, key, "partsAt"))
        break
      }
      case "assistant": {
        const parts = writeModelParts(ctx, m, i)
        if (m.content.length > 0 && parts.length === 0) A.droppedEmptyMessage(ctx, i, "assistant", "Gemini")
        else out.contents.push(merge<Wire.ContentParam>({ role: "model", parts }, kept))
        for (const block of m.content) {
          if (block._tag !== "ToolCall" || block.providerExecuted === true) continue
          calls.order.set(block.id, calls.order.size)
          if (hintOf(block, key, "syntheticId") === true) calls.synthetic.add(block.id)
        }
        break
      }
      case "tool": {
        const parts = userContentFor(m, i, kept).parts
        for (let b = 0; b < m.content.length; b++) {
          const result = m.content[b]!
          // a response carries the name of the tool it answers, under the same rule as the call's
          A.checkToolName(ctx, result.toolName, i, b)
          const response: NonNullable<Wire.PartParam["functionResponse"]> = { name: result.toolName, ...writeResultContent(ctx, result, i, b) }
          // no id when the call's was made up (the call goes out without one) or the response came without one
          if (calls.synthetic.has(result.toolCallId) || hintOf(result, key, "syntheticId") === true) {
            idless.push({ parts, at: parts.length, name: result.toolName, order: calls.order.get(result.toolCallId) ?? Infinity })
          } else {
            response.id = result.toolCallId
          }
          parts.push(spelledPart(ctx, merge<Wire.PartParam>({ functionResponse: response }, keptOf(result, key, hints)), result))
        }
        break
      }
      default:
        return Block.absurd(m)
    }
    started = true
  }
  pairInOrder(idless)
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
 * import { Effect } from "effect"
 * import { Message } from "effect-agent-messages"
 * import { Gemini } from "effect-agent-messages/providers"
 * import { GoogleGenAI } from "@google/genai"
 *
 * const ai = new GoogleGenAI({})
 *
 * const program = Effect.gen(function*() {
 *   const { value: { systemInstruction, contents } } = yield* Gemini.toMessages([Message.system("Be brief."), Message.user("Weather in Oslo?")])
 *   // { systemInstruction: { parts: [{ text: "Be brief." }] }, contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }] }
 *   const response = yield* Effect.promise(() =>
 *     ai.models.generateContent({ model: "gemini-2.5-flash", contents, config: systemInstruction === undefined ? {} : { systemInstruction } })
 *   )
 *   const { value } = yield* Gemini.fromResponse(response)
 *   return value.message
 * })
 *
 * @category conversions
 * @since 0.1.0
 */
export const toMessages = (messages: ReadonlyArray<Message.Message>, options?: WriteOptions): Effect.Effect<Converted<Wire.Messages>, UnsupportedContent> => {
  const ctx = A.makeCtx(key, options)
  if (options?.spelling === "asRead") writesAsRead.add(ctx)
  return A.runEncode(ctx, () => writeMessages(ctx, messages))
}

/**
 * Reads Gemini's `{ systemInstruction, contents }` (or a whole request
 * body: the other fields are ignored here) into a conversation. Fails with
 * `MalformedPayload` when it is not Gemini's shape.
 *
 * @example
 * const { value: messages } = yield* Gemini.fromMessages({
 *   contents: [
 *     { role: "user", parts: [{ text: "Weather in Oslo?" }] },
 *     { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } }, thoughtSignature: "CtIBAd..." }] },
 *     { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "12°C" } } }] }
 *   ]
 * })
 * messages.map((m) => m.role) // ["user", "assistant", "tool"]
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromMessages = (input: Wire.MessagesLike | unknown, options?: ConversionOptions): Effect.Effect<Converted<Array<Message.Message>>, MalformedPayload | InvalidToolArguments> => {
  const ctx = A.makeCtx(key, options)
  return runRead(ctx, input, (json) => {
    const raw = A.obj(ctx, json, "")
    // the other spelling of the system instruction, when both are given, is ignored with the body's other fields
    A.ignoreExtras(ctx, raw, new Set([systemKeyOf(raw), "contents"]))
    return readMessages(ctx, raw)
  }) as Effect.Effect<Converted<Array<Message.Message>>, MalformedPayload | InvalidToolArguments>
}

// ---------------------------------------------------------------------------
// public: requests
// ---------------------------------------------------------------------------

/** The type names of Gemini's OpenAPI schemas, and the JSON Schema type of each. */
const OPEN_API_TYPES: Readonly<Record<string, string>> = {
  STRING: "string",
  NUMBER: "number",
  INTEGER: "integer",
  BOOLEAN: "boolean",
  ARRAY: "array",
  OBJECT: "object",
  NULL: "null"
}

const toJsonSchemaType = (type: string): string => (Object.hasOwn(OPEN_API_TYPES, type) ? OPEN_API_TYPES[type]! : type)

const toOpenApiType = (type: string): string => (Object.hasOwn(OPEN_API_TYPES, type.toUpperCase()) ? type.toUpperCase() : type)

/**
 * A copy of a schema with every `type` keyword (a name, or a list of names)
 * mapped, through every schema it holds (never inside `enum`, `default` or
 * examples), and whether anything changed. Nesting deeper than JSON allows
 * here is left as it is.
 */
const mapSchemaTypes = (schema: Block.JsonObject, map: (type: string) => string): { readonly schema: Block.JsonObject; readonly changed: boolean } => {
  let changed = false
  const mapType = (t: unknown): unknown => {
    if (typeof t !== "string") return t
    const mapped = map(t)
    if (mapped !== t) changed = true
    return mapped
  }
  // OpenAPI says "may be null" with `nullable: true` beside one type; JSON Schema with "null" in a list of types
  const toOpenApi = map === toOpenApiType
  const nullable = (node: { readonly [key: string]: unknown }): { readonly [key: string]: unknown } => {
    const type = node["type"]
    if (!toOpenApi && node["nullable"] === true && typeof type === "string") {
      changed = true
      const { nullable: _, ...rest } = node
      return { ...rest, type: [type, "null"] }
    }
    if (toOpenApi && node["nullable"] === undefined && Array.isArray(type) && type.length === 2 && type.includes("null")) {
      const other = type.find((t) => t !== "null")
      if (typeof other === "string" && other !== "null") {
        changed = true
        return { ...node, type: other, nullable: true }
      }
    }
    return node
  }
  const visit = (node: unknown, depth: number): unknown =>
    depth > 256 || typeof node !== "object" || node === null || Array.isArray(node)
      ? node
      : mapSubschemas(nullable(node as { readonly [key: string]: unknown }), (sub) => visit(sub, depth + 1), (key, value) => (key !== "type" ? value : Array.isArray(value) ? value.map(mapType) : mapType(value)))
  const mapped = visit(schema, 0) as Block.JsonObject
  return { schema: changed ? mapped : schema, changed }
}

/**
 * The `parameters` to write for a tool read from Gemini's OpenAPI form: the
 * schema as it was sent while the tool's parameters are still what it reads
 * as, else the parameters with Gemini's upper-case type names.
 */
const openApiParameters = (parameters: Block.JsonObject, asSent: Schema.Json | undefined): Block.JsonObject => {
  if (!A.isObj(asSent)) return parameters
  const sent = asSent as Block.JsonObject
  return stringify(mapSchemaTypes(sent, toJsonSchemaType).schema) === stringify(parameters) ? sent : mapSchemaTypes(parameters, toOpenApiType).schema
}

/**
 * How a request's `tools` entries are laid out, one element an entry: a
 * number the next that many tools (function tools in one declarations
 * entry, or one tool Gemini runs), a string an empty declarations list
 * under that name, `null` the next entry kept as sent.
 */
type ToolsLayout = ReadonlyArray<number | string | null>

const isFunctionTool = (tool: Request.ToolDefinition): boolean => tool.providerDefined === undefined

/**
 * The layout `writeTools` gives tools without a `toolsLayout` hint: each
 * run of function tools one entry, each tool Gemini runs its own, the
 * `empty` list for an empty tool list (`undefined` for none), then the kept
 * entries.
 */
const defaultLayout = (tools: ReadonlyArray<Request.ToolDefinition>, kept: number, empty: string | undefined): ToolsLayout => {
  const out: Array<number | string | null> = tools.length === 0 && empty !== undefined ? [empty] : []
  tools.forEach((tool, i) => {
    if (i > 0 && isFunctionTool(tool) && isFunctionTool(tools[i - 1]!)) out[out.length - 1] = (out[out.length - 1] as number) + 1
    else out.push(1)
  })
  return [...out, ...new Array<null>(kept).fill(null)]
}

/** A `toolsLayout` hint when it still fits the tools and kept entries (the tools were not changed since they were read), else `undefined`. */
const fittingLayout = (layout: Schema.Json | undefined, tools: ReadonlyArray<Request.ToolDefinition>, kept: number): ToolsLayout | undefined => {
  if (!Array.isArray(layout)) return undefined
  let t = 0
  let k = 0
  for (const entry of layout) {
    if (entry === null) k++
    else if (typeof entry === "number") {
      // function tools in one entry, or any one tool
      if (!Number.isInteger(entry) || entry < 1 || t + entry > tools.length || (entry > 1 && !tools.slice(t, t + entry).every(isFunctionTool))) return undefined
      t += entry
    } else if (typeof entry !== "string") return undefined
  }
  return t === tools.length && k === kept ? (layout as ToolsLayout) : undefined
}

/**
 * The tools of a request's `tools` entries, its other entries kept; an empty
 * declarations list is an empty tool list (`[]`, not `undefined`, whatever
 * else is kept), its name noted in `hints` when it is snake_case (a list
 * that declares nothing has no tool to note it on), and the entries' layout
 * (`toolsLayout`) when `writeTools` would not give it back by default
 * (declarations lists side by side, empty lists beside tools, entries kept
 * before others).
 */
const readTools = (ctx: A.Ctx, raw: Schema.Json | undefined, kept: Fields, hints: Fields): Array<Request.ToolDefinition> | undefined => {
  if (raw === undefined || raw === null) return undefined
  const list = A.arr(ctx, raw, "tools")
  const tools: Array<Request.ToolDefinition> = []
  const hosted: Array<Schema.Json> = []
  const layout: Array<number | string | null> = []
  let empty: string | undefined
  for (let t = 0; t < list.length; t++) {
    const at = `tools[${t}]`
    const entry = A.obj(ctx, list[t], at)
    const rest: Fields = {}
    for (const field of Object.keys(entry)) {
      const value = entry[field]
      // the REST API takes the proto field names in either spelling; a null is no declarations (proto3 JSON: absent)
      if ((field !== "functionDeclarations" && field !== "function_declarations") || value === null) {
        // a tool Gemini runs (Google Search, code execution, URL context, ...), kept in its place
        if (A.isObj(value)) {
          tools.push(Request.providerTool(field, key, field, value))
          layout.push(1)
        } else A.setKey(rest, field, value)
        // beside the other spelling, read in its place: a field given twice, as `camelCased` reports one
        const other = field === "functionDeclarations" ? "function_declarations" : field === "function_declarations" ? "functionDeclarations" : undefined
        if (value === null && other !== undefined && entry[other] !== undefined && entry[other] !== null) {
          ctx.warnings.push(new UnknownProviderField({ path: `${at}.${field}`, kept: true }))
        }
        continue
      }
      const declarations = A.arr(ctx, entry[field], `${at}.${field}`)
      if (declarations.length === 0) empty ??= field
      layout.push(declarations.length === 0 ? field : declarations.length)
      for (let d = 0; d < declarations.length; d++) {
        const dAt = `${at}.${field}[${d}]`
        const declaration = A.obj(ctx, declarations[d], dAt)
        const parametersKey = ["parametersJsonSchema", "parameters_json_schema", "parameters"].find((k) => declaration[k] !== undefined && declaration[k] !== null)
        const given = parametersKey === undefined ? undefined : A.obj(ctx, declaration[parametersKey], `${dAt}.${parametersKey}`)
        // `parameters` is Gemini's OpenAPI schema, whose types are upper case ("OBJECT"): the model holds JSON Schema
        const openApi = given !== undefined && parametersKey === "parameters" ? mapSchemaTypes(given, toJsonSchemaType) : undefined
        const parameters = openApi?.schema ?? given
        tools.push(Request.tool(A.str(ctx, declaration, "name", dAt), {
          ...defined({ description: A.optStr(ctx, declaration, "description", dAt), parameters }),
          ...keep(key, A.extrasOf(declaration, declarationKeys(parametersKey)), {
            parametersKey: parametersKey === "parametersJsonSchema" ? undefined : parametersKey,
            parametersAsSent: openApi?.changed === true ? given : undefined,
            declarationsKey: field === "functionDeclarations" ? undefined : field
          })
        }))
      }
    }
    // an entry of other fields, or of none, kept as sent
    if (Object.keys(rest).length > 0 || Object.keys(entry).length === 0) {
      hosted.push(rest)
      layout.push(null)
    }
  }
  if (hosted.length > 0) kept["tools"] = hosted
  if (tools.length === 0 && empty === "function_declarations") hints["declarationsKey"] = empty
  const read = tools.length > 0 || hosted.length === 0 || empty !== undefined ? tools : undefined
  const byDefault = defaultLayout(tools, hosted.length, read?.length === 0 ? empty ?? "functionDeclarations" : undefined)
  if (stringify(layout) !== stringify(byDefault)) hints["toolsLayout"] = layout
  return read
}

/**
 * The tool choice of a `toolConfig`, when the model has a word for it: a
 * mode, or the one function named. A name that only a tool Gemini runs has
 * is no function to choose; the config is kept as sent, as others are.
 */
const readToolChoice = (ctx: A.Ctx, raw: Schema.Json | undefined, tools: ReadonlyArray<Request.ToolDefinition> | undefined, kept: Fields): Request.ToolChoice | undefined => {
  if (raw === undefined || raw === null) return undefined
  const config = A.obj(ctx, raw, "toolConfig")
  const calling = config["functionCallingConfig"]
  let choice: Request.ToolChoice | undefined
  if (Object.keys(config).length === 1 && A.isObj(calling)) {
    const mode = calling["mode"]
    const names = calling["allowedFunctionNames"]
    const fields = Object.keys(calling).length
    if (fields === 1 && mode === "AUTO") choice = "auto"
    else if (fields === 1 && mode === "NONE") choice = "none"
    else if (fields === 1 && mode === "ANY") choice = "required"
    else if (fields === 2 && mode === "ANY" && Array.isArray(names) && names.length === 1 && typeof names[0] === "string") {
      const name = names[0]
      const named = tools?.filter((tool) => tool.name === name) ?? []
      if (named.length === 0 || named.some(isFunctionTool)) choice = { _tag: "Tool", name }
    }
  }
  if (choice === undefined) kept["toolConfig"] = config
  return choice
}

/** The output limit of a generation config, when it is a whole number of tokens. */
const maxOutputTokensOf = (ctx: A.Ctx, raw: Schema.Json | undefined): number | undefined => {
  if (raw === undefined || raw === null) return undefined
  const limit = A.obj(ctx, raw, "generationConfig")["maxOutputTokens"]
  return Request.isTokenLimit(limit) ? limit : undefined
}

const readGenerationConfig = (ctx: A.Ctx, raw: Schema.Json | undefined, kept: Fields): Request.ResponseFormat | undefined => {
  if (raw === undefined || raw === null) return undefined
  const whole = A.obj(ctx, raw, "generationConfig")
  // a whole-number output limit is the request's maxOutputTokens
  const { maxOutputTokens: limit, ...withoutLimit } = whole
  const config: Obj = Request.isTokenLimit(limit) ? withoutLimit : whole
  if (config !== whole && Object.keys(config).length === 0) return undefined
  const { responseJsonSchema, responseMimeType, ...rest } = config
  let format: Request.ResponseFormat | undefined
  // a null reads as absent
  if (responseMimeType === "application/json" && (config["responseSchema"] === undefined || config["responseSchema"] === null)) {
    format = A.isObj(responseJsonSchema) ? { _tag: "JsonSchema", name: "response", schema: responseJsonSchema } : responseJsonSchema === undefined || responseJsonSchema === null ? { _tag: "JsonObject" } : undefined
  } else if (responseMimeType === "text/plain" && (responseJsonSchema === undefined || responseJsonSchema === null)) {
    format = { _tag: "Text" }
  }
  if (format === undefined) kept["generationConfig"] = config
  else if (Object.keys(rest).length > 0) kept["generationConfig"] = rest as Fields
  return format
}

/**
 * Reads a `generateContent` request body into a `Request`: the system
 * instruction and contents, the function declarations, the function-calling
 * mode as a tool choice, and a JSON response format; every other field is
 * kept in `providerOptions.gemini`. (The model id is part of the URL, not
 * the body.)
 *
 * @example
 * const { value: request } = yield* Gemini.fromRequest({
 *   systemInstruction: { parts: [{ text: "Be brief." }] },
 *   contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }],
 *   tools: [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } } }] }],
 *   toolConfig: { functionCallingConfig: { mode: "ANY" } }
 * })
 * request.toolChoice // "required"
 * request.tools?.map((t) => t.name) // ["get_weather"]
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromRequest = (body: Wire.RequestBodyLike | unknown, options?: ConversionOptions): Effect.Effect<Converted<Request.Request>, MalformedPayload | InvalidToolArguments> => {
  const ctx = A.makeCtx(key, options)
  return runRead(ctx, body, (json) => {
    const given = A.obj(ctx, json, "")
    const messages = readMessages(ctx, given)
    const read = systemKeyOf(given)
    // both spellings of the system instruction: one was read, the other is kept (as `camelCased` does)
    if (given["systemInstruction"] !== undefined && given["system_instruction"] !== undefined) {
      ctx.warnings.push(new UnknownProviderField({ path: read === "systemInstruction" ? "system_instruction" : "systemInstruction", kept: true }))
    }
    // the settings read in lowerCamelCase, and kept so (what other providers' writers look for), with the spelling they came in
    const spelling = newSpelling()
    const raw = camelCased(ctx, given, requestShape, "", spelling)
    const kept: Fields = {}
    const toolHints: Fields = {}
    const tools = readTools(ctx, raw["tools"], kept, toolHints)
    const toolChoice = readToolChoice(ctx, raw["toolConfig"], tools, kept)
    const responseFormat = readGenerationConfig(ctx, raw["generationConfig"], kept)
    const maxOutputTokens = maxOutputTokensOf(ctx, raw["generationConfig"])
    for (const field of Object.keys(raw)) {
      // a null systemInstruction beside the system_instruction read is kept too, as the other spelling is
      if (field !== read && (!bodyKeys.has(field) || field === "systemInstruction")) A.setKey(kept, field, raw[field])
    }
    return Request.make(messages, {
      ...defined({ tools, toolChoice, responseFormat, maxOutputTokens }),
      ...keep(key, Object.keys(kept).length === 0 ? undefined : kept, { ...spellingHints(spelling), ...toolHints })
    })
  }) as Effect.Effect<Converted<Request.Request>, MalformedPayload | InvalidToolArguments>
}

const writeDeclaration = (ctx: A.Ctx, tool: Request.ToolDefinition): Wire.FunctionDeclarationParam => {
  const custom = A.isChatCustomCall(tool) && tool.parameters === undefined
  if (custom) {
    A.converted(ctx, undefined, undefined, `${messageText(tool.name)}, a Chat Completions custom tool taking free-form text`, `as a function taking an object of one string, input (Gemini functions take JSON arguments)${A.customFormatNote(tool)}`)
  }
  A.checkToolName(ctx, tool.name)
  const out: Wire.FunctionDeclarationParam = { name: tool.name }
  if (tool.description !== undefined) out.description = tool.description
  if (custom) out.parametersJsonSchema = A.CUSTOM_INPUT_SCHEMA
  else if (tool.parameters !== undefined) {
    // `parameters` (OpenAPI) and `parametersJsonSchema` are different fields; the snake_case spelling of the latter
    // only when the write asks for the spelling as read
    const given = hintOf(tool, key, "parametersKey")
    const field = given === "parameters_json_schema" && !writesAsRead.has(ctx) ? "parametersJsonSchema" : given
    const parameters = openApiParameters(tool.parameters, hintOf(tool, key, "parametersAsSent"))
    A.setKey(out as unknown as Record<string, unknown>, typeof field === "string" ? field : "parametersJsonSchema", parameters)
  }
  if (tool.strict !== undefined) A.dropped(ctx, undefined, undefined, `the strict flag of the tool ${quote(tool.name)}`, "Gemini function declarations have none")
  return merge(out, keptOf(tool, key, hints))
}

/** The name of a declarations list: the one it was read from when the write asks for the spelling as read. */
const declarationsField = (ctx: A.Ctx, read: Schema.Json | undefined): string =>
  writesAsRead.has(ctx) && read === "function_declarations" ? "function_declarations" : "functionDeclarations"

/**
 * The `tools` entries, in the layout they were read in (`toolsLayout`) while
 * it fits the tools, else each run of function tools as one
 * `functionDeclarations` entry and each tool Gemini defines as its own
 * entry, in the order of the request, an empty list for an empty tool list
 * (not for one whose tools were all left out), then entries kept as sent in
 * the request's options.
 */
const writeTools = (
  ctx: A.Ctx,
  request: Request.Request,
  hosted: ReadonlyArray<{ [key: string]: unknown }>,
  names: Array<string>,
  functions: Array<string>
): Array<Wire.ToolParam> => {
  const tools = (request.tools ?? []).filter((tool) => {
    const provider = A.providerToolOf(tool)?.provider
    if (provider === undefined || provider === key) return true
    // left out, so the declarations around it stay in one entry
    A.dropped(ctx, undefined, undefined, `the definition of ${messageText(tool.name)}, a tool ${messageText(provider)} defines`, "Gemini runs only its own tools")
    return false
  })
  const emptyKey = hintOf(request, key, "declarationsKey")
  const layout = fittingLayout(hintOf(request, key, "toolsLayout"), tools, hosted.length) ??
    defaultLayout(tools, hosted.length, request.tools?.length !== 0 ? undefined : typeof emptyKey === "string" ? emptyKey : "functionDeclarations")
  const out: Array<Wire.ToolParam> = []
  let t = 0
  let k = 0
  for (const entry of layout) {
    if (entry === null) out.push(hosted[k++] as Wire.ToolParam)
    else if (typeof entry === "string") out.push({ [declarationsField(ctx, entry)]: [] } as Wire.ToolParam)
    else {
      const group = tools.slice(t, (t += entry))
      const defined = group[0]!.providerDefined
      out.push(
        (defined === undefined
          ? { [declarationsField(ctx, hintOf(group[0], key, "declarationsKey"))]: group.map((tool) => writeDeclaration(ctx, tool)) }
          : { [defined.type]: { ...defined.config } }) as Wire.ToolParam
      )
      for (const tool of group) {
        names.push(tool.name)
        if (defined === undefined) functions.push(tool.name)
      }
    }
  }
  return out
}

/**
 * Reports each function name declared more than once, written as it is:
 * Gemini answers the request with a 400 ("Duplicate function declaration
 * found"). Which of the two should go is the caller's choice.
 */
const reportDuplicateDeclarations = (ctx: A.Ctx, functions: ReadonlyArray<string>): void => {
  const seen = new Set<string>()
  const reported = new Set<string>()
  for (const name of functions) {
    if (!seen.has(name)) seen.add(name)
    else if (!reported.has(name)) {
      reported.add(name)
      ctx.warnings.push(new RejectedToolName({ name, rule: "Gemini takes each function name once in a request (\"Duplicate function declaration found\")" }))
    }
  }
}

/**
 * Writes a `Request` as a `generateContent` request body; the fields kept
 * in `providerOptions.gemini` are written back. A function name declared
 * twice is written as it is and reported (`RejectedToolName`): Gemini
 * rejects the request. So is a JSON response format beside function
 * declarations (`RejectedSetting`), for a `model` before Gemini 3, which
 * takes no function calling with a JSON response.
 *
 * @example
 * const weather = Request.tool("get_weather", { parameters: { type: "object", properties: { city: { type: "string" } } } })
 * const { value: body } = yield* Gemini.toRequest(Request.make([Message.user("Hi")], { toolChoice: "required", tools: [weather] }))
 * body.toolConfig // { functionCallingConfig: { mode: "ANY" } }
 *
 * @category conversions
 * @since 0.1.0
 */
export const toRequest = (request: Request.Request, options?: WriteOptions): Effect.Effect<Converted<Wire.RequestBody>, UnsupportedContent> => {
  const ctx = A.makeCtx(key, options)
  if (options?.spelling === "asRead") writesAsRead.add(ctx)
  if (request.model !== undefined) modelOf.set(ctx, request.model)
  return A.runEncode(ctx, () => {
    // the request's kept fields by their wire names, without its hints
    const kept = keptOf(request, key, requestHints) ?? {}
    const written = writeMessages(ctx, request.messages)
    A.droppedForeignSettings(ctx, request, key)
    const body: Wire.RequestBody = { contents: written.contents }
    if (written.systemInstruction !== undefined) body.systemInstruction = written.systemInstruction
    if (written.system_instruction !== undefined) body.system_instruction = written.system_instruction
    const hosted = Array.isArray(kept["tools"]) ? (kept["tools"] as Array<{ [key: string]: unknown }>) : []
    const names: Array<string> = []
    const functions: Array<string> = []
    if (request.tools !== undefined || hosted.length > 0) {
      body.tools = writeTools(ctx, request, hosted, names, functions)
      reportDuplicateDeclarations(ctx, functions)
      // no entries: all were left out, unless the tools came as an empty list
      if (body.tools.length === 0 && hintOf(request, key, "toolsLayout") === undefined) delete body.tools
    }
    const settings = A.toolSettingsAfter(ctx, request, { names, any: body.tools !== undefined })
    let choice = settings.toolChoice
    // allowedFunctionNames names functions only: a tool Gemini runs (written under its name) cannot be chosen
    if (typeof choice === "object" && names.includes(choice.name) && !functions.includes(choice.name)) {
      A.dropped(ctx, undefined, undefined, `the tool choice ${messageText(choice.name)}`, `${messageText(choice.name)} is a tool Gemini runs, and Gemini's function calling config can name only functions`)
      choice = undefined
    }
    if (choice !== undefined) {
      body.toolConfig = {
        functionCallingConfig: typeof choice === "string"
          ? { mode: choice === "auto" ? "AUTO" : choice === "none" ? "NONE" : "ANY" }
          : { mode: "ANY", allowedFunctionNames: [choice.name] }
      }
    } else if (A.isObj(kept["toolConfig"]) && request.toolChoice === undefined) {
      body.toolConfig = { ...kept["toolConfig"] }
    }
    if (settings.parallelToolCalls !== undefined) A.dropped(ctx, undefined, undefined, "the parallel tool calls setting", "Gemini has none")
    const generation = A.isObj(kept["generationConfig"]) ? kept["generationConfig"] : undefined
    const format = request.responseFormat
    if (format !== undefined) {
      const written: Record<string, unknown> = format._tag === "Text" ? { responseMimeType: "text/plain" } : { responseMimeType: "application/json" }
      if (format._tag === "JsonSchema") {
        written["responseJsonSchema"] = format.schema
        if (format.name !== "response" || format.description !== undefined || format.strict !== undefined) {
          A.dropped(ctx, undefined, undefined, "the name, description or strict flag of the response schema", "Gemini takes the schema only")
        }
      }
      body.generationConfig = merge({ ...generation }, written)
      // the caller's setting, written as it is; a model that names no version is left for Gemini to judge
      if (format._tag !== "Text" && functions.length > 0 && (geminiGeneration(request.model) ?? 3) < 3) {
        ctx.warnings.push(new RejectedSetting({
          path: "generationConfig.responseMimeType",
          value: "application/json",
          rule: `Gemini takes a JSON response beside function declarations from Gemini 3 on, and earlier models reject it ("Function calling with a response mime type: 'application/json' is unsupported"): ${messageText(request.model!)} is not one of them`
        }))
      }
    } else if (generation !== undefined) {
      body.generationConfig = { ...generation }
    }
    if (request.maxOutputTokens !== undefined) body.generationConfig = { ...body.generationConfig, maxOutputTokens: request.maxOutputTokens }
    for (const field of Object.keys(kept)) {
      if (field === "tools" || field === "toolConfig" || field === "generationConfig") continue
      // a null kept beside a system instruction read in snake_case, written where that one went out so
      if (bodyKeys.has(field) && !(field === "systemInstruction" && body.systemInstruction === undefined)) continue
      A.setKey(body, field, kept[field])
    }
    const snake = writesAsRead.has(ctx) ? snakeOfValue(request) : undefined
    return snake === undefined ? body : respell(body, requestShape, snake, snakeOfValue(request, "nullCamelCase"))
  })
}

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
    case undefined:
    case "FINISH_REASON_UNSPECIFIED":
      return hasCalls ? "tool-calls" : "unknown"
    default:
      return "other"
  }
}

/** The response fields `fromResponse` reads; the others are kept as `providerData`. */
const responseKeysRead = new Set(["candidates", "usageMetadata", "responseId", "modelVersion"])
const candidateKeysRead = new Set(["content", "finishReason"])

/** The hint on a text whose citations are Gemini's grounding, which a Gemini request has no place for and needs none. */
const GROUNDING_CITATIONS = "groundingCitations"

/**
 * The web sources of a grounded answer (`groundingMetadata`: each support's segment of a text part and the web
 * chunks it rests on) as the citations of its texts, URL citations in the Responses API's flat spelling (`{ type:
 * "url_citation", url, title, start_index, end_index }`), so that a history written to an OpenAI format keeps them and
 * one written to Anthropic says it leaves them out. The metadata stays whole in the response's `providerData`;
 * sources that are not web pages (retrieved documents, maps) have no URL citation and are left there. Gemini counts a
 * segment in UTF-8 bytes; a citation counts UTF-16 code units, as a JavaScript string does.
 */
const citeGrounding = (grounding: Obj, textAt: ReadonlyMap<number, number>, blocks: Array<Block.AssistantBlock>): void => {
  const chunks = Array.isArray(grounding["groundingChunks"]) ? grounding["groundingChunks"] : []
  const supports = Array.isArray(grounding["groundingSupports"]) ? grounding["groundingSupports"] : []
  const cited = new Map<number, Array<Schema.Json>>()
  const offsetsAt = new Map<number, Uint32Array>()
  for (const support of supports) {
    if (!A.isObj(support) || !A.isObj(support["segment"]) || !Array.isArray(support["groundingChunkIndices"])) continue
    const segment = support["segment"]
    const part = typeof segment["partIndex"] === "number" ? segment["partIndex"] : 0
    const at = textAt.get(part)
    const end = segment["endIndex"]
    if (at === undefined || typeof end !== "number") continue
    let offsets = offsetsAt.get(at)
    if (offsets === undefined) offsetsAt.set(at, offsets = byteOffsetsOf((blocks[at] as Block.TextBlock).text))
    const start = typeof segment["startIndex"] === "number" ? segment["startIndex"] : 0
    const span = utf16Span(offsets, start, end)
    if (span === undefined) continue
    for (const index of support["groundingChunkIndices"]) {
      const chunk = typeof index === "number" ? chunks[index] : undefined
      const web = A.isObj(chunk) && A.isObj(chunk["web"]) ? chunk["web"] : undefined
      if (web === undefined || typeof web["uri"] !== "string") continue
      const title = typeof web["title"] === "string" ? web["title"] : web["uri"]
      let list = cited.get(at)
      if (list === undefined) cited.set(at, list = [])
      list.push({ type: "url_citation", url: web["uri"], title, start_index: span[0], end_index: span[1] })
    }
  }
  for (const [at, citations] of cited) {
    const { _tag, text, citations: given, providerOptions, ...options } = blocks[at] as Block.TextBlock
    const own = providerOptions?.[key] ?? {}
    blocks[at] = Block.text(text, {
      ...options,
      citations: [...(given ?? []), ...citations],
      providerOptions: { ...providerOptions, [key]: { ...own, ...keep(key, undefined, { [GROUNDING_CITATIONS]: true }).providerOptions?.[key] } }
    })
  }
}

/**
 * The UTF-8 byte offset of each UTF-16 position of `text` (`text.length + 1` of them; the low half of a surrogate pair
 * shares its pair's end), found once per text so that its many segments cost a look-up each, not a walk each.
 */
const byteOffsetsOf = (text: string): Uint32Array => {
  const out = new Uint32Array(text.length + 1)
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    out[i] = bytes
    const c = text.charCodeAt(i)
    if (c < 0x80) bytes += 1
    else if (c < 0x800) bytes += 2
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4
      out[++i] = bytes
    } else bytes += 3
  }
  out[text.length] = bytes
  return out
}

/** The first position whose byte offset is at least `byte` (binary search over `byteOffsetsOf`). */
const positionAt = (offsets: Uint32Array, byte: number): number => {
  let lo = 0
  let hi = offsets.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (offsets[mid]! < byte) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A span of UTF-8 byte offsets into a text as UTF-16 code unit offsets, or `undefined` when it does not fit the text. */
const utf16Span = (offsets: Uint32Array, startByte: number, endByte: number): readonly [number, number] | undefined => {
  if (!Number.isInteger(startByte) || !Number.isInteger(endByte) || startByte < 0 || endByte < startByte) return undefined
  if (endByte > offsets[offsets.length - 1]!) return undefined
  return [positionAt(offsets, startByte), positionAt(offsets, endByte)]
}

/** The fields of a response that `fromResponse` reads under either spelling (`candidates`, `content`, `parts` are one word in both). */
const responseShape: Shape = {
  responseId: null,
  modelVersion: null,
  usageMetadata: {
    promptTokenCount: null,
    candidatesTokenCount: null,
    totalTokenCount: null,
    cachedContentTokenCount: null,
    thoughtsTokenCount: null,
    toolUsePromptTokenCount: null
  },
  promptFeedback: { blockReason: null }
}
const candidateShape: Shape = { finishReason: null }

/**
 * Where the candidate of `index` is in a response's list: the one whose `index` it is, else the one at that place
 * when it has no `index` of its own (proto3 JSON leaves out an `index` of 0), else `undefined`.
 */
const candidatePosition = (candidates: ReadonlyArray<Schema.Json>, index: number): number | undefined => {
  const indexOf = (c: Schema.Json | undefined): Schema.Json | undefined => (A.isObj(c) ? c["index"] : undefined)
  const found = candidates.findIndex((c) => indexOf(c) === index)
  if (found >= 0) return found
  return Number.isInteger(index) && index >= 0 && index < candidates.length && typeof indexOf(candidates[index]) !== "number" ? index : undefined
}

/**
 * A response read from the fields `responseShape` names, in either spelling
 * (a field given in both is reported, as in a request); nothing is written
 * back, so their spelling is not noted.
 */
const decodeResponse = (ctx: A.Ctx, given: Obj, candidateIndex: number): DecodedResponse => {
  const raw = camelCased(ctx, given, responseShape, "", newSpelling())
  const candidates = raw["candidates"] === undefined || raw["candidates"] === null ? [] : A.arr(ctx, raw["candidates"], "candidates")
  // the candidate of that `index`, as the stream accumulator keeps them (one without an index by its place)
  const position = candidatePosition(candidates, candidateIndex)
  // none at all is a prompt that was blocked (finish: content-filter); some, but not the one asked for, is a mistake
  if (candidates.length > 0 && position === undefined) {
    return A.malformed(ctx, "candidates", `the response has no candidate ${candidateIndex} (it has ${candidates.length})`)
  }
  if (candidates.length > 1) A.dropped(ctx, undefined, undefined, `${candidates.length - 1} other candidate(s)`, `one candidate is read (candidate ${candidateIndex})`)
  const id = A.optStr(ctx, raw, "responseId", "")
  const prefix = id === undefined ? `response_${processTag}_${++responseCalls}` : idPart(id)
  const blocks: Array<Block.AssistantBlock> = []
  const providerData: Fields = A.extrasOf(raw, responseKeysRead) ?? {}
  let finish: string | undefined
  let contentExtras: Fields | undefined
  const candidate = position === undefined ? undefined : candidates[position]
  if (candidate !== undefined) {
    const at = `candidates[${position}]`
    const c = camelCased(ctx, A.obj(ctx, candidate, at), candidateShape, at, newSpelling())
    finish = A.optStr(ctx, c, "finishReason", at)
    const rest = A.extrasOf(c, candidateKeysRead)
    if (rest !== undefined) providerData["candidate"] = rest
    const content = A.optObj(ctx, c, "content", at)
    // the content's own fields beside its role and parts are kept on the message, as a request's are, and written back
    contentExtras = content === undefined ? undefined : A.extrasOf(content, contentKeys)
    const parts = content === undefined || content["parts"] === undefined ? [] : A.arr(ctx, content["parts"], `${at}.content.parts`)
    const pending = new Pending()
    // (a code execution's own id made unique beside the candidate's function call ids)
    const taken = givenCallIdsOf([{ parts: [...parts] }])
    // the block each text part became, by the part's index, for the grounding's citations
    const textAt = new Map<number, number>()
    for (let p = 0; p < parts.length; p++) {
      const ids = (name: string, given?: string): string => (given === undefined ? `${idPart(name)}_${prefix}_${p}` : uniqueIn(taken, given))
      const before = blocks.length
      readModelPart(ctx, A.obj(ctx, parts[p], `${at}.content.parts[${p}]`), `${at}.content.parts[${p}]`, ids, pending, blocks)
      if (blocks.length === before + 1 && blocks[before]!._tag === "Text") textAt.set(p, before)
    }
    if (A.isObj(c["groundingMetadata"])) citeGrounding(c["groundingMetadata"], textAt, blocks)
  } else {
    const feedback = A.optObj(ctx, raw, "promptFeedback", "")
    finish = feedback === undefined ? undefined : A.optStr(ctx, feedback, "blockReason", "promptFeedback")
  }
  const usageRaw = A.optObj(ctx, raw, "usageMetadata", "")
  const prompt = A.count(ctx, usageRaw, "promptTokenCount", "usageMetadata")
  const toolPrompt = A.count(ctx, usageRaw, "toolUsePromptTokenCount", "usageMetadata")
  const candidatesTokens = A.count(ctx, usageRaw, "candidatesTokenCount", "usageMetadata")
  const thoughts = A.count(ctx, usageRaw, "thoughtsTokenCount", "usageMetadata")
  const usage = usageRaw === undefined ? undefined : A.usage({
    inputTokens: prompt === undefined && toolPrompt === undefined ? undefined : (prompt ?? 0) + (toolPrompt ?? 0),
    outputTokens: candidatesTokens === undefined && thoughts === undefined ? undefined : (candidatesTokens ?? 0) + (thoughts ?? 0),
    cachedInputTokens: A.count(ctx, usageRaw, "cachedContentTokenCount", "usageMetadata"),
    reasoningTokens: thoughts,
    totalTokens: A.count(ctx, usageRaw, "totalTokenCount", "usageMetadata")
  })
  if (usageRaw !== undefined) providerData["usageMetadata"] = usageRaw
  const hasCalls = blocks.some((b) => b._tag === "ToolCall" && b.providerExecuted !== true)
  return new DecodedResponse({
    id: id ?? "",
    model: A.optStr(ctx, raw, "modelVersion", "") ?? "",
    message: Message.assistant(blocks, { ...defined({ usage }), ...keep(key, contentExtras) }),
    finishReason: candidate === undefined && finish !== undefined ? "content-filter" : finishOf(finish, hasCalls),
    providerFinishReason: finish ?? null,
    ...defined({ usage }),
    ...(Object.keys(providerData).length === 0 ? {} : { providerData })
  })
}

/**
 * Options of `fromResponse`: which candidate to read (default the first;
 * the others are reported as left out).
 *
 * @since 0.1.0
 */
export interface FromResponseOptions extends ConversionOptions {
  readonly candidate?: number
}

/**
 * Reads a `generateContent` response: one candidate's content as an
 * assistant message (with `usage`: the prompt with tool-use prompt tokens
 * as input, candidates with thoughts as output), why it stopped, the
 * response id and model version, and the response's other fields (safety
 * ratings, grounding, the raw usage...) as `providerData`. Its fields are
 * read in either spelling of proto3 JSON (`finish_reason`, `usage_metadata`,
 * as Python clients record them), as a request's are. Function calls
 * without an id get one made up (never written back; unique across
 * processes, so a history read in one and continued in another keeps
 * distinct ids).
 *
 * @example
 * const { value } = yield* Gemini.fromResponse({
 *   candidates: [{ content: { role: "model", parts: [{ text: "12°C in Oslo." }] }, finishReason: "STOP" }],
 *   usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 6, totalTokenCount: 18 },
 *   modelVersion: "gemini-2.5-flash"
 * })
 * Message.textOf(value.message) // "12°C in Oslo."
 * value.finishReason // "stop"
 * value.usage?.inputTokens // 12
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromResponse = (
  response: Wire.GenerateContentResponse | unknown,
  options?: FromResponseOptions
): Effect.Effect<Converted<DecodedResponse>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  const ctx = A.makeCtx(key, options)
  return runRead(ctx, response, (json) => decodeResponse(ctx, A.obj(ctx, json, ""), options?.candidate ?? 0))
}

/**
 * Why reading a stream can fail: the provider's error, a protocol
 * violation, a stream cut short (with what arrived), or the response read.
 *
 * @since 0.1.0
 */
export type StreamError = IncompleteResponse | ProviderStreamError | StreamProtocolError | MalformedPayload | InvalidToolArguments | UnsupportedContent

const decodeStreamed = <E, R>(
  accumulated: Effect.Effect<Wire.GenerateContentResponse, E | StreamErrors.StreamError, R>,
  options: FromResponseOptions | undefined
): Effect.Effect<Converted<DecodedResponse>, Exclude<E, StreamErrors.IncompleteStream> | StreamError, R> =>
  A.decodeStreamed(key, accumulated, (response) => fromResponse(response, options), (partial) => {
    const lenient = { ...options, strict: false, toolArguments: "lenient" as const }
    const ctx = A.makeCtx(key, lenient)
    return runReadResult(ctx, partial, (json) => decodeResponse(ctx, A.obj(ctx, json, ""), options?.candidate ?? 0))
  })

/**
 * Reads a streamed response (`streamGenerateContent`): the chunks are
 * accumulated (`GeminiStream`) into the response they stand for, which is
 * read as `fromResponse` reads one. A stream that ends early fails with
 * `IncompleteResponse`, carrying the response read from what did arrive.
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
 * import { Gemini } from "effect-agent-messages/providers"
 * import { GoogleGenAI } from "@google/genai"
 *
 * const ai = new GoogleGenAI({})
 *
 * const program = Effect.gen(function*() {
 *   const chunks = yield* Effect.promise(() =>
 *     ai.models.generateContentStream({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] })
 *   )
 *   const { value } = yield* Gemini.fromStream(Stream.fromAsyncIterable(chunks, (e) => e))
 *   return Message.textOf(value.message)
 * })
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromStream: {
  <E, R>(chunks: Stream.Stream<Wire.StreamEvent, E, R>, options: FromResponseOptions & KeepPartial): Effect.Effect<Converted<DecodedResponse>, StreamError, R>
  <E, R>(chunks: Stream.Stream<Wire.StreamEvent, E, R>, options?: FromResponseOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R>
} = <E, R>(chunks: Stream.Stream<Wire.StreamEvent, E, R>, options?: FromResponseOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R> =>
  decodeStreamed(Accumulator.fromStream(chunks, options), options)

/**
 * `fromStream` over an Effect `Stream` of raw SSE text or bytes (`alt=sse`).
 *
 * With `{ keepPartial: true }`, a failure of the stream passed in (the
 * network dropped) is an `IncompleteResponse` with the message so far and
 * that failure as `transportError`; a provider error or protocol violation
 * that came first is still the error, with that failure as its
 * `transportError` (`StreamAccumulator.StreamOptions`).
 *
 * @example
 * const url = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
 * const response = yield* Effect.promise(() =>
 *   fetch(url, {
 *     method: "POST",
 *     headers: { "content-type": "application/json", "x-goog-api-key": process.env["GEMINI_API_KEY"] ?? "" },
 *     body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] })
 *   })
 * )
 * const { value } = yield* Gemini.fromSseStream(Stream.fromReadableStream({ evaluate: () => response.body!, onError: (cause) => cause }))
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromSseStream: {
  <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options: FromResponseOptions & KeepPartial): Effect.Effect<Converted<DecodedResponse>, StreamError, R>
  <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options?: FromResponseOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R>
} = <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options?: FromResponseOptions & StreamOptions): Effect.Effect<Converted<DecodedResponse>, E | StreamError, R> =>
  decodeStreamed(Accumulator.fromSseStream(body, options), options)

/**
 * `fromStream` over an iterable of chunks.
 *
 * @example
 * const chunks: ReadonlyArray<GeminiWire.GenerateContentResponse> = [
 *   { candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] } }], modelVersion: "gemini-2.5-flash" },
 *   { candidates: [{ content: { role: "model", parts: [{ text: "lo!" }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } }
 * ]
 * const { value } = yield* Gemini.fromEvents(chunks)
 * Message.textOf(value.message) // "Hello!"
 * value.finishReason // "stop"
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromEvents = (chunks: Iterable<Wire.StreamEvent>, options?: FromResponseOptions): Effect.Effect<Converted<DecodedResponse>, StreamError> =>
  decodeStreamed(Accumulator.fromEvents(chunks), options)

/**
 * `fromStream` over raw SSE text (`alt=sse`), whole or in pieces.
 *
 * @example
 * const body = [
 *   'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]}}],"modelVersion":"gemini-2.5-flash"}',
 *   'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"lo!"}]},"finishReason":"STOP"}]}'
 * ].join("\r\n\r\n") + "\r\n\r\n"
 * const { value } = yield* Gemini.fromSse(body)
 * Message.textOf(value.message) // "Hello!"
 *
 * @category conversions
 * @since 0.1.0
 */
export const fromSse = (input: string | Iterable<string | Uint8Array>, options?: FromResponseOptions): Effect.Effect<Converted<DecodedResponse>, StreamError> =>
  decodeStreamed(Accumulator.fromSse(input), options)
