/**
 * Chat Completions custom tools (free-form text in, no JSON Schema) where tools take JSON objects: shared by the
 * writers and the estimates, so that what is priced is what is sent.
 */
import type { Schema } from "effect"
import type * as Block from "../Block.js"
import { isChatCustomCall } from "./toolArgs.js"

/** The parameters a custom tool is given where tools take JSON objects (see `isChatCustomCall`). */
export const CUSTOM_INPUT_SCHEMA: Schema.JsonObject = { type: "object", properties: { input: { type: "string" } }, required: ["input"] }

/** The parameters a tool is sent with where tools take JSON objects: its own, or a custom tool's `input`. */
export const objectToolParameters = (tool: {
  readonly parameters?: Schema.JsonObject | undefined
  readonly providerOptions?: Block.ProviderOptions | undefined
}): Schema.JsonObject | undefined => tool.parameters ?? (isChatCustomCall(tool) ? CUSTOM_INPUT_SCHEMA : undefined)

/**
 * What a writer whose tools take JSON objects says of a custom tool's `format` it does not carry: its grammar (the
 * Lark or regex its input is held to), or nothing for free text.
 */
export const customFormatNote = (tool: { readonly providerOptions?: Block.ProviderOptions | undefined }): string => {
  const custom = tool.providerOptions?.["openai-chat"]?.["custom"]
  const format = typeof custom === "object" && custom !== null && !Array.isArray(custom) ? (custom as Schema.JsonObject)["format"] : undefined
  const type = typeof format === "object" && format !== null && !Array.isArray(format) ? (format as Schema.JsonObject)["type"] : undefined
  return format === undefined || format === null || type === "text" ? "" : `; the ${typeof type === "string" ? `${type} ` : ""}format its input is held to is not carried`
}

/**
 * The text of a call made to a custom tool the way the Anthropic and Gemini writers present one (`{ input: text }`),
 * for writing it back to Chat Completions as a custom call: `undefined` for any other call (one Chat marked itself,
 * one of a tool not among `customNames`, arguments other than that one string).
 */
export const customInputOf = (
  call: { readonly name: string; readonly args: Schema.Json; readonly providerOptions?: Block.ProviderOptions | undefined },
  customNames: ReadonlySet<string> | undefined
): string | undefined => {
  if (customNames === undefined || !customNames.has(call.name) || call.providerOptions?.["openai-chat"]?.["type"] !== undefined) return undefined
  const args = call.args
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined
  const keys = Object.keys(args)
  const input = (args as Schema.JsonObject)["input"]
  return keys.length === 1 && typeof input === "string" ? input : undefined
}

/**
 * A call of a Chat Completions custom tool with its input text (not one another format presented as `{ input }`):
 * what the Responses writer sends as a `custom_tool_call` item, and its result as a `custom_tool_call_output`.
 */
export const isCustomTextCall = (block: Block.Block): block is Block.ToolCallBlock & { readonly args: string } =>
  block._tag === "ToolCall" && block.providerExecuted !== true && typeof block.args === "string" && isChatCustomCall(block)

/**
 * The input text the Responses writer sends a call with as a `custom_tool_call` item: a custom call's own text
 * (`isCustomTextCall`), unless the request defines its tool as a function (`names.functions`: the call then goes as a
 * function call of `{ input }`, as the tool does), or the text of a call another format made of one of
 * `names.custom` as `{ input }` (`customInputOf`); `undefined` for any other call.
 */
export const customTextOf = (block: Block.Block, names: ResponsesToolNames): string | undefined =>
  block._tag !== "ToolCall" || block.providerExecuted === true
    ? undefined
    : isCustomTextCall(block)
    ? names.functions?.has(block.name) === true ? undefined : block.args
    : customInputOf(block, names.custom)

/**
 * The results among messages that answer a call the Responses writer sends as a custom call (`customTextOf`): the
 * last call of their id before them is one. It sends them as `custom_tool_call_output` items, the others as
 * `function_call_output`s.
 */
export const customTextResults = (
  messages: ReadonlyArray<{ readonly role: string; readonly content: ReadonlyArray<Block.Block> }>,
  names: ResponsesToolNames
): ReadonlySet<Block.Block> => {
  const out = new Set<Block.Block>()
  const custom = new Map<string, boolean>()
  for (const m of messages) {
    if (m.role === "assistant") {
      for (const block of m.content) if (block._tag === "ToolCall" && block.providerExecuted !== true) custom.set(block.id, customTextOf(block, names) !== undefined)
    } else if (m.role === "tool") {
      for (const block of m.content) if (block._tag === "ToolResult" && custom.get(block.toolCallId) === true) out.add(block)
    }
  }
  return out
}

/** The names of a request's Chat Completions custom tools, or `undefined` when it has none. */
export const customToolNames = (tools: ReadonlyArray<{ readonly name: string; readonly providerOptions?: Block.ProviderOptions | undefined }> | undefined): ReadonlySet<string> | undefined => {
  const names = (tools ?? []).filter(isChatCustomCall).map((t) => t.name)
  return names.length === 0 ? undefined : new Set(names)
}

const isObject = (value: unknown): value is Block.JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * A Responses custom tool's `format` as Chat Completions spells it (a grammar's syntax and definition nested under
 * `grammar`), or `undefined` for one it has no form of: the inverse of `responsesCustomFormat`.
 */
export const chatCustomFormat = (format: Schema.Json | undefined): { readonly format?: Block.JsonObject } | undefined => {
  if (format === undefined) return {}
  if (!isObject(format)) return undefined
  const keys = Object.keys(format)
  if (format["type"] === "text" && keys.length === 1) return { format }
  const { type, syntax, definition } = format
  if (type !== "grammar" || typeof syntax !== "string" || typeof definition !== "string" || keys.length !== 3) return undefined
  return { format: { type: "grammar", grammar: { syntax, definition } } }
}

/** A Chat Completions custom tool's `format` as the Responses API spells it (a grammar's fields flat), or `undefined` for one it has no form of. */
const responsesCustomFormat = (format: Schema.Json | undefined): { readonly format?: Block.JsonObject } | undefined => {
  if (format === undefined) return {}
  if (!isObject(format)) return undefined
  const keys = Object.keys(format)
  if (format["type"] === "text" && keys.length === 1) return { format }
  const grammar = format["grammar"]
  if (format["type"] !== "grammar" || keys.length !== 2 || !isObject(grammar) || Object.keys(grammar).length !== 2) return undefined
  const { syntax, definition } = grammar
  return typeof syntax === "string" && typeof definition === "string" ? { format: { type: "grammar", syntax, definition } } : undefined
}

/**
 * A Chat Completions custom tool as the Responses writer sends it, the API's own custom tool (`type: "custom"`, its
 * name, description and format, a grammar's too; the writer adds its kept Responses fields), or `undefined` for
 * another tool or a custom tool whose format has no Responses form (sent as a function tool).
 */
export const responsesCustomTool = (tool: {
  readonly name: string
  readonly description?: string | undefined
  readonly parameters?: Schema.JsonObject | undefined
  readonly providerDefined?: unknown
  readonly providerOptions?: Block.ProviderOptions | undefined
}): Block.JsonObject | undefined => {
  if (tool.parameters !== undefined || tool.providerDefined !== undefined || !isChatCustomCall(tool)) return undefined
  const custom = tool.providerOptions?.["openai-chat"]?.["custom"]
  const format = responsesCustomFormat(isObject(custom) ? custom["format"] : undefined)
  if (format === undefined) return undefined
  return { type: "custom", name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), ...format }
}

/**
 * How the Responses writer sends a request's tools, by name: `custom`, the Chat Completions custom tools it sends as
 * the API's own custom tools (a call another format made of one with `{ input }` goes as a custom call of that text);
 * `functions`, the tools without `providerDefined` it sends as function tools, a Chat custom tool whose format has no
 * Responses form among them, with `{ input }` as its parameters (`objectToolParameters`): a Chat custom call of one
 * goes as a function call of `{ input }`, so that call and tool agree. `undefined` for a kind the request has none of.
 */
export interface ResponsesToolNames {
  readonly custom: ReadonlySet<string> | undefined
  readonly functions: ReadonlySet<string> | undefined
}

/** `ResponsesToolNames` of a request's tools, each tool read once. */
export const responsesToolNames = (tools: ReadonlyArray<Parameters<typeof responsesCustomTool>[0]> | undefined): ResponsesToolNames => {
  let custom: Set<string> | undefined
  let functions: Set<string> | undefined
  for (const t of tools ?? []) {
    if (responsesCustomTool(t) !== undefined) (custom ??= new Set()).add(t.name)
    else if (t.providerDefined === undefined) (functions ??= new Set()).add(t.name)
  }
  return { custom, functions }
}
