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

/** The names of a request's Chat Completions custom tools, or `undefined` when it has none. */
export const customToolNames = (tools: ReadonlyArray<{ readonly name: string; readonly providerOptions?: Block.ProviderOptions | undefined }> | undefined): ReadonlySet<string> | undefined => {
  const names = (tools ?? []).filter(isChatCustomCall).map((t) => t.name)
  return names.length === 0 ? undefined : new Set(names)
}
