/**
 * What a tool call's arguments go out as, apart from the adapters (and
 * without the JSON repair they read with), so that validation can tell what
 * an adapter will send.
 *
 * @internal
 */
import type { Schema } from "effect"
import { parse as parseJson, stringify } from "./json.js"

/**
 * `JSON.stringify` of a JSON value: V8's own (fast) when it can, the
 * library's iterative one when the value is nested too deeply for V8's. Same
 * output either way.
 */
export const jsonText = (value: Schema.Json): string => {
  try {
    return JSON.stringify(value)
  } catch {
    return stringify(value)
  }
}

export const isObject = (value: Schema.Json): boolean => typeof value === "object" && value !== null && !Array.isArray(value)

/** "an array", "null", "a string": what a value is, for messages. */
export const kind = (value: Schema.Json): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`

const holding = new WeakMap<object, boolean>()

/** See `ToolArguments.rawArgsHold`. */
export const rawArgsHold = (call: { readonly rawArgs?: string | undefined; readonly args: Schema.Json }): boolean => {
  const raw = call.rawArgs
  if (raw === undefined) return false
  const known = holding.get(call)
  if (known !== undefined) return known
  let holds: boolean
  try {
    const again = parseJson(raw)
    const args = jsonText(call.args)
    // text that is not JSON gave its args by repair, which is not done again here: it is kept, as it came
    holds = !("value" in again) || jsonText(again.value) === args || (!isObject(again.value) && args === "{}")
  } catch {
    // text too deep to read again: kept, as it came
    holds = true
  }
  holding.set(call, holds)
  return holds
}

/**
 * Why the text an OpenAI adapter sends for a call (`rawArgs` while it holds,
 * else `args` as JSON) is not the JSON object the API wants, or `undefined`
 * when it is one. `parseError` is what says the kept text is not JSON (the
 * readers set it); text that did parse, to the object that `args` is, is
 * not read again, so validation stays linear in the number of calls.
 */
export const sentArgumentsProblem = (call: {
  readonly rawArgs?: string | undefined
  readonly parseError?: string | undefined
  readonly args: Schema.Json
}): string | undefined => {
  const raw = call.rawArgs
  if (call.parseError !== undefined && rawArgsHold(call)) return call.parseError
  if (!isObject(call.args)) return `expected a JSON object, got ${kind(call.args)}`
  if (raw === undefined || call.parseError !== undefined) return undefined
  // an empty text stands for no arguments, which the readers read as {} and the APIs take
  const start = raw.trimStart()
  if (start === "" || start.startsWith("{")) return undefined
  // text that is JSON but no object (its args were made {}), sent while it holds
  if (!rawArgsHold(call)) return undefined
  const again = parseJson(raw)
  return "value" in again ? `expected a JSON object, got ${kind(again.value)}` : again.error
}

/** A call of an OpenAI Chat custom tool (`type: "custom"`): its input is free-form text, not JSON arguments. */
export const isChatCustomCall = (call: { readonly providerOptions?: { readonly [provider: string]: { readonly [key: string]: unknown } } | undefined }): boolean =>
  call.providerOptions?.["openai-chat"]?.["type"] === "custom"
