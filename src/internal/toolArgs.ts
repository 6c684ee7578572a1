/**
 * What tool calls go out as, apart from the adapters (and without the JSON
 * repair they read with), so that validation and repair can tell what an
 * adapter will send: a call's arguments text, and which Responses custom
 * tool call an output kept as provider data answers.
 *
 * @internal
 */
import type { Schema } from "effect"
import type * as Block from "../Block.js"
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

/**
 * The longest argument text the lenient parser repairs (characters): `jsonrepair` is quadratic or worse on some
 * broken text, so longer text is kept as it came, its arguments `{}`.
 */
export const MAX_REPAIRED_ARGS = 32_768

export const isObject = (value: Schema.Json): boolean => typeof value === "object" && value !== null && !Array.isArray(value)

/** "an array", "null", "a string": what a value is, for messages. */
export const kind = (value: Schema.Json): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`

/**
 * What a call's kept text is, read once per call (blocks are immutable):
 * whether it is a JSON object, why it is not one (`undefined` when it is,
 * or when it is empty: no arguments), and whether it still gives the call's
 * `args` (for an object, once an adapter asked).
 */
interface Reading {
  readonly object: boolean
  readonly problem: string | undefined
  holds: boolean | undefined
  /**
   * The object the text parsed to, held weakly for `rawArgsHold` when the
   * reading did not compare it with `args` (validation's): an adapter writing
   * the call after validation read it does not parse the text again, and a
   * call validated but never written keeps no second copy of its arguments
   * alive (once collected, the text is parsed again).
   */
  parsed?: WeakRef<object> | undefined
}

const readings = new WeakMap<object, Reading>()

/**
 * Reads a call's kept text as JSON, once. Text that is a JSON object is
 * written back to compare with `args` only when `compare` is set (an adapter
 * asks whether it holds: told from this reading, not a second one);
 * validation needs no more than the parse, and `rawArgsHold` compares later
 * when an adapter asks.
 */
const readKept = (call: { readonly args: Schema.Json }, raw: string, compare = false): Reading => {
  let reading = readings.get(call)
  if (reading !== undefined) return reading
  const again = parseJson(raw)
  if (!("value" in again)) {
    // text that is not JSON gave its args by repair, which is not done again here: it is kept, as it came
    // (an empty text stands for no arguments, which the readers read as {} and the APIs take)
    reading = { object: false, problem: raw.trim() === "" ? undefined : again.error, holds: true }
  } else if (isObject(again.value)) {
    reading = { object: true, problem: undefined, holds: compare ? jsonText(again.value) === jsonText(call.args) : undefined, parsed: new WeakRef(again.value as object) }
  } else {
    // JSON that is no object holds when it gives the args, or the {} an adapter made of it
    const args = jsonText(call.args)
    reading = { object: false, problem: `expected a JSON object, got ${kind(again.value)}`, holds: jsonText(again.value) === args || args === "{}" }
  }
  readings.set(call, reading)
  return reading
}

/**
 * Records what a reader found parsing the text of the call it built (the
 * result of `ToolArguments.parse`), so that neither validation nor an
 * adapter reads that text again: text that parsed gives the call's `args`.
 */
export const rememberParsed = (
  call: object,
  parsed: { readonly args: Schema.Json; readonly rawArgs?: string | undefined; readonly parseError?: string | undefined }
): void => {
  const raw = parsed.rawArgs
  if (raw === undefined) return
  let reading: Reading
  if (parsed.parseError !== undefined) reading = { object: false, problem: parsed.parseError, holds: true }
  else if (raw.trim() === "") reading = { object: false, problem: undefined, holds: true }
  else if (isObject(parsed.args)) reading = { object: true, problem: undefined, holds: true }
  else reading = { object: false, problem: `expected a JSON object, got ${kind(parsed.args)}`, holds: true }
  readings.set(call, reading)
}

/** See `ToolArguments.rawArgsHold`. */
export const rawArgsHold = (call: { readonly rawArgs?: string | undefined; readonly args: Schema.Json }): boolean => {
  const raw = call.rawArgs
  if (raw === undefined) return false
  const reading = readKept(call, raw, true)
  if (reading.holds !== undefined) return reading.holds
  // a JSON object validation read first: it holds when it is the object `args` is
  let holds = true
  try {
    const parsed = reading.parsed?.deref()
    const again = parsed ? { value: parsed as Schema.Json } : parseJson(raw)
    holds = !("value" in again) || jsonText(again.value) === jsonText(call.args)
  } catch {
    // text too deep to read again: kept, as it came
  }
  reading.holds = holds
  return holds
}

/**
 * What `JSON.stringify(JSON.parse(text))` gives for the text an adapter sends
 * for a call (`Block.argsText`), when that is known without reading the text
 * again: the text itself when it is `args` written, or `args` written when it
 * is kept text that this call's reading found to be the JSON object `args` is
 * (kept text too deep for V8's own writer is given as it is, as that
 * expression's failure leaves it). `undefined` when the text must be read:
 * kept text that is not a JSON object (broken text the reader repaired,
 * JSON of another kind).
 */
export const compactSentArgs = (call: { readonly rawArgs?: string | undefined; readonly args: Schema.Json }, sent: string): string | undefined => {
  const raw = call.rawArgs
  if (raw === undefined || !rawArgsHold(call)) return sent
  // held kept text that is an object: it is the object `args` is
  if (readings.get(call)?.object !== true) return undefined
  try {
    return JSON.stringify(call.args)
  } catch {
    return raw
  }
}

/**
 * Why the text an OpenAI adapter sends for a call (`rawArgs` while it holds,
 * else `args` as JSON) is not the JSON object the API wants, or `undefined`
 * when it is one. The kept text is judged as it is, whatever `parseError`
 * says (a call built by hand may keep broken text without one). It is read
 * once per call; text that is a JSON object is not written back to compare
 * with `args`: whichever of the two is sent, an object `args` makes it an
 * object.
 */
export const sentArgumentsProblem = (call: {
  readonly rawArgs?: string | undefined
  readonly parseError?: string | undefined
  readonly args: Schema.Json
}): string | undefined => {
  const raw = call.rawArgs
  const argsProblem = isObject(call.args) ? undefined : `expected a JSON object, got ${kind(call.args)}`
  if (raw === undefined) return argsProblem
  const reading = readKept(call, raw)
  // an object text goes out, or the args do: only args that are no object are wrong
  if (reading.object) return argsProblem
  if (!rawArgsHold(call)) return argsProblem
  // the text goes out: the reader's reason when it gave one (the same text, in its words)
  return reading.problem === undefined ? undefined : call.parseError ?? reading.problem
}

/** A call of an OpenAI Chat custom tool (`type: "custom"`): its input is free-form text, not JSON arguments. */
export const isChatCustomCall = (call: { readonly providerOptions?: { readonly [provider: string]: { readonly [key: string]: unknown } } | undefined }): boolean =>
  call.providerOptions?.["openai-chat"]?.["type"] === "custom"

/**
 * A Responses custom tool item kept as provider data: a `custom_tool_call`
 * or its `custom_tool_call_output`, with its `call_id` when that is a
 * non-empty string (`undefined` otherwise: missing, empty or not a string,
 * which the API rejects), and the `call_id` as it came (`rawId`: the JSON
 * text of one that is not a string, `""` for a missing one).
 */
export interface CustomItem {
  readonly type: "custom_tool_call" | "custom_tool_call_output"
  readonly id: string | undefined
  readonly rawId: string
  /** Its `name` when that is a string (a call's), else `""`. */
  readonly name: string
}

/** The Responses custom tool item a block holds, or `undefined`. */
export const customItemOf = (block: Block.Block): CustomItem | undefined => {
  if (block._tag !== "ProviderData" || block.provider !== "openai-responses") return undefined
  const type = block.data["type"]
  if (type !== "custom_tool_call" && type !== "custom_tool_call_output") return undefined
  const id = block.data["call_id"]
  const rawId = id === undefined ? "" : typeof id === "string" ? id : jsonText(id)
  const name = block.data["name"]
  return { type, id: typeof id === "string" && id !== "" ? id : undefined, rawId, name: typeof name === "string" ? name : "" }
}

/**
 * Whether a message is an assistant message of nothing but Responses custom
 * tool outputs: what the outputs a continued conversation opens with are
 * read as (`custom_tool_call_output` items), which answer the stored
 * response's custom calls as its function outputs answer its function calls.
 */
export const isCustomOutputsOnly = (m: { readonly role: string; readonly content: ReadonlyArray<Block.Block> }): boolean => {
  if (m.role !== "assistant" || m.content.length === 0) return false
  for (const block of m.content) if (customItemOf(block)?.type !== "custom_tool_call_output") return false
  return true
}

/**
 * What a Responses custom tool output (kept as provider data) that answers
 * no call is: an orphan (`id` is `""` when the output has no usable
 * `call_id`), or a second answer.
 */
export type CustomOutputIssue =
  | { readonly _tag: "Orphan"; readonly id: string }
  | { readonly _tag: "Duplicate"; readonly id: string; readonly firstIndex: number }

/**
 * A Responses `custom_tool_call` (kept as provider data) with no output
 * after it; `id` is `""` when the call has no usable `call_id` (no output
 * can answer it).
 */
export interface UnansweredCustomCall {
  readonly id: string
  readonly name: string
  readonly index: number
  readonly blockIndex: number
  /** The first user or assistant message after the call's: the conversation went on without its output. */
  readonly resumedAt: number | undefined
  /** How many custom calls come before it in the messages read. */
  readonly ordinal: number
}

interface CustomCallEntry {
  readonly id: string
  readonly name: string
  readonly index: number
  readonly blockIndex: number
  resumedAt: number | undefined
  /** The message index of its first output, or -1. */
  answeredAt: number
}

/**
 * Reads a conversation's messages in order and pairs Responses
 * `custom_tool_call` and `custom_tool_call_output` items (kept as provider
 * data in assistant messages, sent as the items they are): an output
 * answers the last call of its `call_id` before it, once. A continued
 * conversation (`continues`) may open with outputs of the stored
 * response's calls: until a user message or another item, an output
 * answers those. An item without a usable `call_id` (missing, empty or not
 * a string: the API rejects it) pairs with nothing: such an output is an
 * orphan wherever it is, such a call stays unanswered. One pass: each
 * message and block is read once.
 */
export const customCallOutputs = (continues: boolean): {
  /** The next message (before its blocks). */
  readonly message: (m: { readonly role: string }, index: number) => void
  /** The next block of an assistant message: what is wrong with it when it is a custom tool output that answers no call. */
  readonly output: (block: Block.Block, index: number, blockIndex: number) => CustomOutputIssue | undefined
  /** The custom calls read so far that no output answered, in order. */
  readonly unanswered: () => Array<UnansweredCustomCall>
} => {
  /** The last call of each id. */
  const calls = new Map<string, CustomCallEntry>()
  /** Every call, in order; those from `resuming` on have no `resumedAt` yet. */
  const entries: Array<CustomCallEntry> = []
  let resuming = 0
  let opening = continues
  return {
    message: (m, index) => {
      if (m.role === "user") opening = false
      if (m.role !== "user" && m.role !== "assistant") return
      for (; resuming < entries.length && entries[resuming]!.index < index; resuming++) entries[resuming]!.resumedAt = index
    },
    output: (block, index, blockIndex) => {
      const item = customItemOf(block)
      if (item?.type === "custom_tool_call_output") {
        const id = item.id
        // the API rejects an output without a usable call_id, whatever comes before it
        if (id === undefined) return { _tag: "Orphan", id: "" }
        if (opening) return undefined
        const call = calls.get(id)
        if (call === undefined) return { _tag: "Orphan", id }
        if (call.answeredAt !== -1) return { _tag: "Duplicate", id, firstIndex: call.answeredAt }
        call.answeredAt = index
        return undefined
      }
      opening = false
      if (item !== undefined) {
        // a call without a usable call_id is read, so that it is reported, but no output answers it
        const entry: CustomCallEntry = { id: item.id ?? "", name: item.name, index, blockIndex, resumedAt: undefined, answeredAt: -1 }
        if (item.id !== undefined) calls.set(item.id, entry)
        entries.push(entry)
      }
      return undefined
    },
    unanswered: () => {
      const out: Array<UnansweredCustomCall> = []
      for (let k = 0; k < entries.length; k++) {
        const e = entries[k]!
        if (e.answeredAt === -1) out.push({ id: e.id, name: e.name, index: e.index, blockIndex: e.blockIndex, resumedAt: e.resumedAt, ordinal: k })
      }
      return out
    }
  }
}
