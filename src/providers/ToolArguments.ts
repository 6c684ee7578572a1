/**
 * Tool-call argument text from a provider, turned into a `ToolCallBlock`
 * without ever crashing and without losing a byte.
 *
 * Models sometimes emit argument text that is not JSON (cut off by a token
 * limit, single-quoted, with a trailing comma) or JSON that is not an object.
 * Every adapter reads arguments through `parse`:
 *
 * - valid JSON: `args` is the value; the text is kept in `rawArgs` only when
 *   `JSON.stringify(args)` would not reproduce it byte for byte (so a round
 *   trip sends the provider's own bytes back);
 * - empty text: `args` is `{}` (providers send `""` for a call without
 *   arguments), and `rawArgs` keeps the empty text;
 * - anything else: in lenient mode (the default) the text is repaired with
 *   `jsonrepair` (a maintained JSON-repair library), `args` is the repaired
 *   value (or `{}` when nothing could be recovered), `rawArgs` keeps the text,
 *   `parseError` the reason, and the conversion reports a
 *   `RepairedToolArguments` warning; in strict mode the conversion fails with
 *   `InvalidToolArguments`.
 *
 * With `requireObject` (every provider expects an object), valid JSON that is
 * not an object is handled like text that did not parse.
 *
 * @since 0.1.0
 */
import { Effect, type Schema } from "effect"
import { jsonrepair } from "jsonrepair"
import * as Block from "../Block.js"
import { parse as parseJson } from "../internal/json.js"
import { describeInexact, inexactNumbers } from "../internal/jsonNumbers.js"
import { isObject, jsonText, kind, MAX_REPAIRED_ARGS, rawArgsHold as holdsAsKept, rememberParsed } from "../internal/toolArgs.js"
import { InvalidToolArguments, RepairedToolArguments } from "./Conversion.js"

/**
 * What parsing argument text gives: the arguments, the text when it must be
 * kept, and the reason when it did not parse.
 *
 * @since 0.1.0
 */
export interface ParsedArguments {
  readonly args: Schema.Json
  readonly rawArgs?: string
  readonly parseError?: string
}


/**
 * Parses argument text leniently; never fails. See the module documentation
 * for the rules. Text over 32,768 characters that is not JSON is kept, not
 * repaired (its `args` are `{}`).
 *
 * @example
 * ToolArguments.parse('{"city": "Osl') // { args: { city: "Osl" }, rawArgs: '{"city": "Osl', parseError: "..." }
 *
 * @since 0.1.0
 */

export const parse = (text: string, options?: { readonly requireObject?: boolean }): ParsedArguments => {
  if (text.trim() === "") return { args: {}, rawArgs: text }
  const parsed = parseJson(text)
  if ("value" in parsed) {
    if (options?.requireObject !== true || isObject(parsed.value)) {
      return jsonText(parsed.value) === text ? { args: parsed.value } : { args: parsed.value, rawArgs: text }
    }
    return { args: {}, rawArgs: text, parseError: `expected a JSON object, got ${kind(parsed.value)}` }
  }
  let repaired: Schema.Json = {}
  // jsonrepair is quadratic or worse on some broken text (a long run of unclosed quotes: 200k characters take 20 s);
  // longer text is kept as it came, not repaired, so reading stays linear in the input
  if (text.length > MAX_REPAIRED_ARGS) return { args: repaired, rawArgs: text, parseError: parsed.error }
  try {
    const again = parseJson(jsonrepair(text))
    if ("value" in again && (options?.requireObject !== true || isObject(again.value))) repaired = again.value
  } catch {
    // nothing could be recovered: the arguments stay {} and the text is kept
  }
  return { args: repaired, rawArgs: text, parseError: parsed.error }
}

/**
 * Where a call sits, for errors and warnings: its id and name, and, when the
 * adapter knows them, the index of its message (`index`) and of its block in
 * that message as read (`blockIndex`), which the warning or error carries.
 *
 * @example
 * const site: ToolArguments.CallSite = { id: "call_1", name: "search", index: 2, blockIndex: 1 }
 * const parsed = ToolArguments.fromText(site, "{'q': 'effect'}")
 * if (!(parsed instanceof Conversion.InvalidToolArguments)) parsed.warning?.message
 * // 'messages[2].content[1]: the arguments of tool call "call_1" (search) were not a valid JSON object (...); repaired, ...'
 *
 * @since 0.1.0
 */
export interface CallSite {
  readonly id: string
  readonly name: string
  readonly index?: number
  readonly blockIndex?: number
}

/**
 * The outcome of turning one provider call into a block: the block, and the
 * warning when its arguments had to be repaired.
 *
 * @since 0.1.0
 */
export interface ParsedCall {
  readonly block: Block.ToolCallBlock
  readonly warning?: RepairedToolArguments
}

/**
 * The options of `toolCall` and `fromText`.
 *
 * @since 0.1.0
 */
export interface ToolCallOptions {
  readonly mode?: "lenient" | "strict"
  readonly requireObject?: boolean
  readonly extras?: Omit<ConstructorParameters<typeof Block.ToolCallBlock>[0], "_tag" | "id" | "name" | "args" | "rawArgs" | "parseError">
}

/**
 * `toolCall` without the Effect, for adapters that convert many calls in a
 * plain loop: the block (and the warning when it was repaired), or the
 * `InvalidToolArguments` error in strict mode. Never throws.
 *
 * @example
 * const parsed = ToolArguments.fromText({ id: "call_1", name: "search" }, "{'q': 'effect'}")
 * if (!(parsed instanceof Conversion.InvalidToolArguments)) {
 *   parsed.block.args // { q: "effect" }
 *   parsed.warning?._tag // "RepairedToolArguments"
 * }
 *
 * @since 0.1.0
 */
export const fromText = (site: CallSite, text: string, options?: ToolCallOptions): ParsedCall | InvalidToolArguments => {
  const parsed = parse(text, { requireObject: options?.requireObject ?? true })
  const index = { ...(site.index === undefined ? {} : { index: site.index }), ...(site.blockIndex === undefined ? {} : { blockIndex: site.blockIndex }) }
  if (parsed.parseError !== undefined && options?.mode === "strict") {
    return new InvalidToolArguments({ ...index, toolCallId: site.id, toolName: site.name, rawArgs: text, reason: parsed.parseError })
  }
  const block = Block.toolCall(site.id, site.name, parsed.args, {
    ...options?.extras,
    ...(parsed.rawArgs === undefined ? {} : { rawArgs: parsed.rawArgs }),
    ...(parsed.parseError === undefined ? {} : { parseError: parsed.parseError })
  })
  // what was found reading the text, so that validation and the writers do not read it again
  rememberParsed(block, parsed)
  if (parsed.parseError === undefined) return { block }
  return {
    block,
    warning: new RepairedToolArguments({ ...index, toolCallId: site.id, toolName: site.name, rawArgs: text, reason: parsed.parseError })
  }
}

/**
 * Builds a tool call from the provider's argument text: lenient by default
 * (repairs and reports `RepairedToolArguments`), strict on request (fails
 * with `InvalidToolArguments` carrying the text and the parse error). `extras`
 * are the block's other fields (`itemId`, `thoughtSignature`, ...).
 *
 * @example
 * const { block, warning } = yield* ToolArguments.toolCall({ id: "call_1", name: "get_weather" }, '{"city":"Oslo"}')
 * block.args // { city: "Oslo" }
 * warning // undefined: the text was valid JSON
 *
 * @since 0.1.0
 */
export const toolCall = (site: CallSite, text: string, options?: ToolCallOptions): Effect.Effect<ParsedCall, InvalidToolArguments> =>
  Effect.suspend(() => {
    const result = fromText(site, text, options)
    return result instanceof InvalidToolArguments ? Effect.fail(result) : Effect.succeed(result)
  })

/**
 * The argument text to send to a provider that takes text (OpenAI): the
 * provider's own text when it was kept, else the JSON of `args`.
 *
 * @example
 * ToolArguments.toText(Block.toolCall("call_1", "search", { q: "effect" })) // '{"q":"effect"}'
 * ToolArguments.toText(Block.toolCall("call_2", "search", { q: "effect" }, { rawArgs: '{ "q": "effect" }' })) // '{ "q": "effect" }'
 *
 * @since 0.1.0
 */
export const toText = (call: Block.ToolCallBlock): string => (call.rawArgs !== undefined && rawArgsHold(call) ? call.rawArgs : jsonText(call.args))

/**
 * Whether a call's kept text (`rawArgs`) still gives its `args`: read again
 * as JSON, it comes to the same value (or, for JSON that is not an object,
 * to the `{}` an adapter that needs an object made of it). A call whose
 * `args` were changed after it was read (a redacted password) no longer
 * holds, and its text is not sent: the `args` are. Text that is not JSON
 * (its `args` were repaired from it) is taken to hold.
 *
 * @example
 * ToolArguments.rawArgsHold(Block.toolCall("call_1", "login", { user: "ada" }, { rawArgs: '{ "user": "ada" }' })) // true
 * ToolArguments.rawArgsHold(Block.toolCall("call_1", "login", { user: "[REDACTED]" }, { rawArgs: '{ "user": "ada" }' })) // false
 *
 * @since 0.1.0
 */
export const rawArgsHold = (call: { readonly rawArgs?: string | undefined; readonly args: Schema.Json }): boolean => holdsAsKept(call)

/**
 * The arguments to send to a provider that takes a JSON object (Anthropic
 * `input`, Gemini `args`): `args` when it is an object, else `{}` together
 * with a note of why (the caller reports it). `rounded` lists the numbers
 * of the provider's own text (`rawArgs`) that the object holds rounded
 * (`1790000000000000123 as 1790000000000000000`: more digits than a
 * JavaScript number keeps), which the caller reports too.
 *
 * @example
 * ToolArguments.toObject(Block.toolCall("call_1", "search", { q: "effect" })) // { value: { q: "effect" } }
 * ToolArguments.toObject(Block.toolCall("call_2", "search", ["effect"])) // { value: {}, replaced: "the arguments are an array, not an object" }
 *
 * @since 0.1.0
 */
export const toObject = (call: Block.ToolCallBlock): { readonly value: Schema.JsonObject; readonly replaced?: string; readonly rounded?: string } => {
  if (!isObject(call.args)) return { value: {}, replaced: `the arguments are ${kind(call.args)}, not an object` }
  // the provider's own text may hold numbers the parsed value could not (a 19-digit id): sent as an object, they are rounded
  const inexact = call.rawArgs === undefined || call.parseError !== undefined || !rawArgsHold(call) ? undefined : inexactNumbers(call.rawArgs)
  return inexact === undefined || inexact.count === 0 ? { value: call.args as Schema.JsonObject } : { value: call.args as Schema.JsonObject, rounded: describeInexact(inexact) }
}
