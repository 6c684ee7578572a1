/**
 * Accumulates an OpenAI Responses stream into the `Response` it stands for.
 *
 * **How events add up**
 *
 * - `response.created` gives the response; `response.in_progress` and
 *   `response.queued` update its top-level fields.
 * - `response.output_item.added` puts an item at its `output_index`;
 *   `response.content_part.added`, `response.reasoning_summary_part.added`
 *   put parts at their `content_index` / `summary_index`.
 * - Deltas append: `output_text` / `refusal` / `reasoning_text` text,
 *   reasoning summary text, `function_call` and `mcp_call` arguments,
 *   `custom_tool_call` input, `code_interpreter_call` code, shell commands
 *   and shell output (by `command_index`). Argument and input text is kept
 *   exactly as streamed, never parsed.
 * - Every `*.done` event (`output_text.done`, `refusal.done`,
 *   `function_call_arguments.done`, `content_part.done`,
 *   `output_item.done`...) replaces what its deltas built: the server's
 *   final value wins. When it differs from what the deltas built, that is
 *   kept beside it, as `streamed_<field>` of the item or part
 *   (`streamed_arguments`, `streamed_input`, `streamed_code`,
 *   `streamed_text`, `streamed_refusal`; `streamed_logprobs` and
 *   `streamed_annotations` (what `output_text.annotation.added` events
 *   built) on an `output_text` part; on a `shell_call`,
 *   `streamed_commands`, the `action.commands` the deltas built, and on a
 *   `shell_call_output`, `streamed_output`), so nothing that was streamed
 *   is lost. A final item without a part of the streamed part's type at its
 *   place (a `content` or `summary` list shorter than the stream's, or
 *   none) keeps the streamed parts it has no place for, in order, as
 *   `streamed_content` / `streamed_summary`. Annotations are placed at
 *   their `annotation_index`, so a repeated index replaces.
 * - The terminal `response.completed`, `response.incomplete` or
 *   `response.failed` response replaces the accumulated one: its fields
 *   win, and a field only `response.created` or `response.in_progress`
 *   carried is kept. Its output replaces the accumulated output (which is
 *   kept only if the terminal response has none, or an empty list); the
 *   item it has for a streamed one (elsewhere with its id; else, for a
 *   call or a call's output, the one of its type with its `call_id`; for
 *   an item without an id, one equal to it at its `output_index`, else one
 *   equal to it elsewhere; at the same place, of the same type and id;
 *   else, when either has no id, the next of its type left; never one
 *   with another id or `call_id`: each
 *   terminal item stands for one streamed item), whether that got its
 *   `output_item.done`
 *   or not, keeps its `streamed_<field>` when the terminal value differs
 *   from what its deltas built. A streamed item the terminal output has no
 *   item for (an output shorter than the stream's, another item in its
 *   place) is kept beside the output, in stream order, as the response's
 *   `streamed_items` (`OpenAiResponses` reads it into `providerData`): the
 *   terminal output is the answer, and what was streamed is not lost.
 * - Progress events of hosted tools (`response.web_search_call.searching`,
 *   `…completed`...) set the item's `status`.
 * - `error` and `response.failed` become a `ProviderStreamError` (for
 *   `response.failed` its `partial` is the failed response).
 * - Ignored on purpose: `response.audio.*` (not part of the response
 *   object), `response.image_generation_call.partial_image` (the final
 *   image arrives in `output_item.done`), `keepalive`, and event types this
 *   library does not know. Unknown fields on the response, items and parts
 *   are kept, as copies: changing an event after pushing it changes nothing
 *   in the accumulator.
 *
 * **Ending**: complete when a terminal event arrived. Otherwise `done()`
 * reports `IncompleteStream` with the items that never got
 * `output_item.done` (and how much of a call's arguments JSON arrived).
 * A response the provider ended is whole, even when `max_output_tokens`
 * cut a call's arguments mid-JSON (`response.incomplete`): they are kept as
 * sent, and read as the non-streamed response's are (`OpenAiResponses`
 * repairs them, keeping the text). Deltas for items
 * or parts that were never added are `StreamProtocolError`s (the text they
 * carried is still in the partial response), as are a delta for an item of
 * another kind (`function_call_arguments.delta` for a message), an event
 * whose `item_id` names another item than the one at its `output_index`
 * (its text still goes where the index puts it; an event without
 * `item_id` is for the item there), an
 * `output_item.done` whose item is not the added one (another type, id or
 * `call_id`:
 * the partial response keeps both, in order), a text field that is not a
 * string (a numeric `delta`, named in the error), and an index that skips a
 * place (content part 1 of an item that has no part 0; an output item,
 * summary part or annotation past the end of its list): the partial
 * response holds, in order, what did arrive. Shell commands and their
 * outputs are the exception: the provider sends them by `command_index` in
 * any order (commands run side by side), so a place not reached yet holds
 * an empty command or output, and both lists stay aligned. An output item,
 * content part or summary part added twice at one index is a
 * `StreamProtocolError` too, and the partial response holds both, in
 * order: the first as its own events built it, and the second, which the
 * events for that index after the second add build (they never touch the
 * first); a terminal response's output replaces both, as it replaces all
 * that was streamed (what it has no item for is kept in `streamed_items`).
 * A stream without
 * `response.created` is a `StreamProtocolError` too; its partial response
 * is what the later events built, in a response whose `id`, `model` and
 * `created_at` are empty.
 *
 * @example
 * import { OpenAiResponsesStream } from "effect-agent-messages/providers"
 *
 * const acc = OpenAiResponsesStream.make()
 * // for await (const event of await client.responses.create({ ..., stream: true })) acc.push(event)
 * const result = acc.done()
 *
 * @since 0.1.0
 */
import { absurd } from "effect/Function"
import { quote } from "../internal/preview.js"
import * as Core from "./internal/core.js"
import { jsonTextState } from "./internal/jsonText.js"
import { runners, type StreamAccumulator } from "./StreamAccumulator.js"
import type * as Wire from "./OpenAiResponsesWire.js"

type Obj = Core.Obj

const lifecycle = new Set(["response.created", "response.in_progress", "response.queued"])
const terminal = new Set(["response.completed", "response.incomplete", "response.failed"])
const statusEvent = /^response\.([a-z_]+)\.(in_progress|searching|interpreting|generating|completed|failed)$/

/** Which field of an item a delta / done event writes, and the type of item that has it. */
const textFields: Record<string, { readonly field: string; readonly done?: string; readonly item: string }> = {
  "response.function_call_arguments.delta": { field: "arguments", item: "function_call" },
  "response.function_call_arguments.done": { field: "arguments", done: "arguments", item: "function_call" },
  "response.mcp_call_arguments.delta": { field: "arguments", item: "mcp_call" },
  "response.mcp_call_arguments.done": { field: "arguments", done: "arguments", item: "mcp_call" },
  "response.custom_tool_call_input.delta": { field: "input", item: "custom_tool_call" },
  "response.custom_tool_call_input.done": { field: "input", done: "input", item: "custom_tool_call" },
  "response.code_interpreter_call_code.delta": { field: "code", item: "code_interpreter_call" },
  "response.code_interpreter_call_code.done": { field: "code", done: "code", item: "code_interpreter_call" }
}

/** Which field of a content part a delta / done event writes, and the part it creates when missing. */
const partFields: Record<string, { readonly field: string; readonly done?: string; readonly list: "content" | "summary"; readonly part: string }> = {
  "response.output_text.delta": { field: "text", list: "content", part: "output_text" },
  "response.output_text.done": { field: "text", done: "text", list: "content", part: "output_text" },
  "response.refusal.delta": { field: "refusal", list: "content", part: "refusal" },
  "response.refusal.done": { field: "refusal", done: "refusal", list: "content", part: "refusal" },
  "response.reasoning_text.delta": { field: "text", list: "content", part: "reasoning_text" },
  "response.reasoning_text.done": { field: "text", done: "text", list: "content", part: "reasoning_text" },
  "response.reasoning_summary_text.delta": { field: "text", list: "summary", part: "summary_text" },
  "response.reasoning_summary_text.done": { field: "text", done: "text", list: "summary", part: "summary_text" }
}

const noCommand = (): string => ""
const noOutput = (): Obj => ({ stdout: "", stderr: "" })

const newPart = (type: string): Obj => (type === "output_text" ? { type, text: "", annotations: [] } : type === "refusal" ? { type, refusal: "" } : { type, text: "" })

/** The item an event for an output item that was never added writes into (what `output_item.added` would have made). */
const placeholderItem = (eventType: string): Obj => {
  const kind = eventType.replace(/^response\./, "")
  if (/^(output_text|refusal|content_part)[._]/.test(kind)) return { type: "message", role: "assistant", status: "in_progress", content: [] }
  if (/^reasoning/.test(kind)) return { type: "reasoning", summary: [] }
  if (kind.startsWith("function_call_arguments.")) return { type: "function_call", call_id: "", name: "", arguments: "" }
  if (kind.startsWith("mcp_call_arguments.")) return { type: "mcp_call", arguments: "" }
  if (kind.startsWith("custom_tool_call_input.")) return { type: "custom_tool_call", call_id: "", name: "", input: "" }
  if (kind.startsWith("code_interpreter_call_code.")) return { type: "code_interpreter_call", code: "" }
  if (kind.startsWith("shell_call_output_content.")) return { type: "shell_call_output", output: [] }
  if (kind.startsWith("shell_call_command.")) return { type: "shell_call", action: { commands: [] } }
  return { type: kind.split(".")[0] ?? "" }
}

/** The response a stream without `response.created` is assembled into: what that event would have given, left empty. */
const skeleton = (): Obj => ({ id: "", object: "response", created_at: 0, model: "", status: "in_progress", output: [] })

/** The most places an index may skip that are filled in (with `undefined`, or an empty command); past it, the value goes at the end. */
const MAX_FILLED_GAP = 1024

/**
 * The most places skipped indexes may fill in one stream, over all its lists: past it, a value goes at the end of its
 * list. Each list's own limit leaves a stream of many lists (an output item each) free to fill a million places a list.
 */
const MAX_FILLED_PLACES = 1 << 16

/** A list without the places an index skipped (held as `undefined`), in order; the list itself when it has none. */
const dense = (list: ReadonlyArray<unknown>): ReadonlyArray<unknown> => (list.includes(undefined) ? list.filter((v) => v !== undefined) : list)

/** Parts added before at places of a content or summary list that were added again (a protocol error), by place, in order. */
type EarlierParts = (list: ReadonlyArray<unknown>) => ReadonlyMap<number, ReadonlyArray<unknown>> | undefined

/** A list without its holes, with the parts added before at a place ahead of the part there now. */
const withEarlier = (list: ReadonlyArray<unknown>, earlier: ReadonlyMap<number, ReadonlyArray<unknown>> | undefined): ReadonlyArray<unknown> => {
  if (earlier === undefined) return dense(list)
  const out: Array<unknown> = []
  for (let k = 0; k < list.length; k++) {
    const before = earlier.get(k)
    if (before !== undefined) for (const part of before) out.push(part)
    if (list[k] !== undefined) out.push(list[k])
  }
  return out
}

/**
 * What deltas built for one field of an item or a part: a text, or a list (`logprobs`) as they built it; or, for a
 * list kept by `command_index` (shell commands and their outputs), what they built at each place, `undefined` where
 * none wrote.
 */
type Streamed =
  | { readonly _tag: "Whole"; readonly value: unknown }
  | { readonly _tag: "ByPlace"; readonly values: Array<unknown> }

/** What deltas built for an item or a part, by field; `undefined` when no delta wrote to it. */
type StreamedOf = (o: Obj) => ReadonlyMap<string, Streamed> | undefined

/** The value a field holds now: a shell call's commands are in its `action`. */
const currentOf = (o: Obj, field: string): unknown => (field === "commands" ? Core.obj(o, "action")?.["commands"] : o[field])

/** What deltas built for a field, whole: a list kept by place holds, where no delta wrote, what the field holds now. */
const streamedValue = (streamed: Streamed, current: unknown): unknown => {
  switch (streamed._tag) {
    case "Whole":
      // a list without the places an index skipped (annotations), as the response has them
      return Array.isArray(streamed.value) ? dense(streamed.value) : streamed.value
    case "ByPlace": {
      const now = Array.isArray(current) ? current : []
      const out: Array<unknown> = []
      for (let k = 0; k < Math.max(now.length, streamed.values.length); k++) {
        const v = streamed.values[k]
        out.push(v !== undefined ? v : now[k])
      }
      return out
    }
    default:
      return absurd(streamed)
  }
}

/**
 * Adds to `into` (a shallow copy of `o`), for each field of `o` whose deltas built another value than the field now
 * holds (a `.done` value or a final item replaced it), that value as `streamed_<field>`: the final value is the
 * server's, and the streamed one is not lost. A `streamed_<field>` the server sent itself is left as it is.
 */
const addStreamed = (into: Obj, o: Obj, streamedOf: StreamedOf): void => {
  const byField = streamedOf(o)
  if (byField === undefined) return
  for (const [field, streamed] of byField) {
    const key = `streamed_${field}`
    const now = currentOf(o, field)
    // as the response has it: a list without the places an index skipped
    const current = Array.isArray(now) ? dense(now) : now
    const value = streamedValue(streamed, current)
    if (!Core.sameJson(current, value) && !Object.hasOwn(o, key)) into[key] = Core.clone(value)
  }
}

/** The parts of an item's `content` or `summary` list that a final item replacing it has no place for, by list. */
type ReplacedParts = (item: Obj) => ReadonlyMap<"content" | "summary", ReadonlyArray<unknown>> | undefined

/** A part of an item's `content` or `summary` list for a copy: its annotations dense, with its `streamed_<field>`s. */
const partForCopy = (key: string, part: unknown, streamedOf: StreamedOf): unknown => {
  if (!Core.isObj(part)) return part
  const annotations = key === "content" && Array.isArray(part["annotations"]) ? dense(part["annotations"]) : undefined
  if (annotations === undefined && streamedOf(part) === undefined) return part
  const copy: Obj = { ...part }
  if (annotations !== undefined) copy["annotations"] = annotations
  addStreamed(copy, part, streamedOf)
  return copy
}

/**
 * A copy of an item for the response, its lists dense (they are made dense before the copy, which takes no holes),
 * with the parts a final item replacing the streamed one has no place for as `streamed_content` / `streamed_summary`.
 */
const copyItem = (item: Obj, earlierParts: EarlierParts, streamedOf: StreamedOf, replacedParts: ReplacedParts): Obj => {
  const shallow: Obj = { ...item }
  addStreamed(shallow, item, streamedOf)
  for (const key of ["content", "summary"]) {
    const list = shallow[key]
    if (!Array.isArray(list)) continue
    shallow[key] = withEarlier(list, earlierParts(list)).map((part) => partForCopy(key, part, streamedOf))
  }
  const replaced = replacedParts(item)
  if (replaced !== undefined) {
    for (const [key, parts] of replaced) {
      // a `streamed_<list>` the server sent itself is left as it is
      if (!Object.hasOwn(item, `streamed_${key}`)) shallow[`streamed_${key}`] = parts.map((part) => partForCopy(key, part, streamedOf))
    }
  }
  return Core.clone(shallow)
}

const itemName = (item: Obj): string => {
  const type = Core.str(item, "type") ?? "untyped"
  const name = Core.str(item, "name")
  return name === undefined ? type : `${type} ${name}`
}

/** An item as a message names it: its type and its id. */
const itemLabel = (item: Obj): string => {
  const id = Core.str(item, "id")
  return `a ${Core.str(item, "type") ?? "untyped"} item${id === undefined ? "" : ` (${id})`}`
}

/** Whether two values of a field that names an item agree: equal, or one of them absent. */
const agree = (a: string | undefined, b: string | undefined): boolean => a === undefined || b === undefined || a === b

/**
 * Whether an `output_item.done` item is the added one: the same type and, when both have one, the same id and the same
 * `call_id` (a call or a call's output names its call even without an id).
 */
const sameItem = (added: Obj, done: Obj): boolean =>
  Core.str(added, "type") === Core.str(done, "type") && agree(Core.str(added, "id"), Core.str(done, "id")) &&
  agree(Core.str(added, "call_id"), Core.str(done, "call_id"))

/** A copy of a response's fields but its `output` (kept, and copied, item by item): an empty list holds its place. */
const withoutOutput = (r: Obj): Obj => {
  const shallow: Obj = {}
  for (const k in r) Core.setKey(shallow, k, k === "output" ? [] : r[k])
  return Core.clone(shallow)
}

const make_ = (ctx: Core.Context): Core.Format<Wire.Response> => {
  let response: Obj | undefined
  let output: Array<Obj | undefined> = []
  let done: Array<boolean> = []
  let ended: string | undefined
  // what was at an output index, or a place of a part list, when it was added again (a protocol error): kept, in
  // order, ahead of what is there now; one list per place, appended to, so adding a place again and again stays linear
  const earlierItems = new Map<number, Array<Obj>>()
  // streamed items a terminal output has no item for: kept, in stream order, as the response's `streamed_items`
  const replacedItems: Array<Obj> = []
  const earlierParts = new WeakMap<Array<unknown>, Map<number, Array<unknown>>>()
  const earlierPartsOf: EarlierParts = (list) => earlierParts.get(list as Array<unknown>)
  // what deltas built, by item or part and field: a `.done` event, a final item or the terminal response that
  // replaces it with another value leaves it beside the final one (`streamed_<field>`), so nothing the server
  // streamed is lost
  const streamed = new WeakMap<Obj, Map<string, Streamed>>()
  const streamedOf: StreamedOf = (o) => streamed.get(o)
  // the parts of a streamed item that the final item replacing it has no place for, by final item and list
  const replacedParts = new WeakMap<Obj, Map<"content" | "summary", Array<unknown>>>()
  const replacedPartsOf: ReplacedParts = (item) => replacedParts.get(item)

  const fieldsOf = (o: Obj): Map<string, Streamed> => {
    let byField = streamed.get(o)
    if (byField === undefined) streamed.set(o, byField = new Map())
    return byField
  }

  /** Records the text a delta just left in `o[field]`. */
  const recordStreamed = (o: Obj, field: string): void => {
    const text = o[field]
    if (typeof text === "string") fieldsOf(o).set(field, { _tag: "Whole", value: text })
  }

  /** Records the list deltas are building in `o[field]` (the list itself: the deltas append to it). */
  const recordStreamedList = (o: Obj, field: string, list: ReadonlyArray<unknown>): void => {
    fieldsOf(o).set(field, { _tag: "Whole", value: list })
  }

  /** Records what a delta just left at place `i` of the list `field` of `o`, kept by `command_index`. */
  const recordStreamedAt = (o: Obj, field: string, i: number, value: unknown): void => {
    const byField = fieldsOf(o)
    let streamedField = byField.get(field)
    if (streamedField?._tag !== "ByPlace") byField.set(field, streamedField = { _tag: "ByPlace", values: [] })
    // the places match those of the list (`i` is where `putByCommand` put the value, whose filling bounds this one)
    while (streamedField.values.length < i) streamedField.values.push(undefined)
    streamedField.values[i] = value
  }

  /** Carries what deltas built for `from` over to `to`, which replaces it as the same item or part. */
  const carryStreamed = (from: Obj, to: Obj): void => {
    const byField = streamed.get(from)
    if (byField !== undefined) streamed.set(to, byField)
  }

  /**
   * Carries what deltas built for an item and its parts (place by place, of the same type) to the item replacing it.
   * A streamed part the new item has no part of its type for at its place (a shorter list, or none) is kept with the
   * new item, to be its `streamed_content` / `streamed_summary`: the final item wins, and what was streamed is not lost.
   */
  const carryItemStreamed = (from: Obj, to: Obj): void => {
    carryStreamed(from, to)
    const keptBefore = replacedParts.get(from)
    // `from` leaves the response: the parts it kept are taken over, not copied (a copy on every replacement made a
    // server that sends output_item.done again and again, with other parts each time, quadratic)
    replacedParts.delete(from)
    for (const key of ["content", "summary"] as const) {
      const left: Array<unknown> = keptBefore?.get(key) ?? []
      const before = from[key]
      const after = to[key]
      if (Array.isArray(before)) {
        const finalParts = Array.isArray(after) ? after : []
        const earlier = earlierParts.get(before)
        for (let k = 0; k < before.length; k++) {
          // parts added at this place before the one there now (a protocol error) have no place in the final item
          for (const e of earlier?.get(k) ?? []) left.push(e)
          const a: unknown = before[k]
          const b: unknown = finalParts[k]
          if (a === undefined) continue
          if (Core.isObj(a) && Core.isObj(b) && Core.str(a, "type") === Core.str(b, "type")) carryStreamed(a, b)
          else left.push(a)
        }
      }
      if (left.length > 0) {
        let byKey = replacedParts.get(to)
        if (byKey === undefined) replacedParts.set(to, byKey = new Map())
        byKey.set(key, left)
      }
    }
  }

  /** Keeps `value`, what was at place `i` before an add there, ahead of what the add puts there. */
  const keepEarlier = <A>(byPlace: Map<number, Array<A>>, i: number, value: A): void => {
    const before = byPlace.get(i)
    if (before === undefined) byPlace.set(i, [value])
    else before.push(value)
  }

  /**
   * Puts a part at place `i` of an item's `content` or `summary` list (`added`: from a `*.added` event, else from
   * `*.done`, whose final value replaces). A second add for a place begins a new part: the first stays as its events
   * built it, and the events for the place from now on build the second.
   */
  const putPart = (event: Obj, item: Obj, key: "content" | "summary", i: number, part: Obj, added: boolean): void => {
    const name = key === "content" ? "content part" : "summary part"
    const of = `of output item ${Core.index(event, "output_index")}`
    const list = listOf(item, key)
    const there = list[i]
    if (added && there !== undefined) {
      ctx.violation(`${name} ${i} ${of} was added twice (the second add begins a new part after the first)`)
      let byPlace = earlierParts.get(list)
      if (byPlace === undefined) earlierParts.set(list, byPlace = new Map())
      keepEarlier(byPlace, i, there)
    }
    const next = Core.clone(part)
    // a part's .done replaces the part its deltas built: what they built stays known
    if (!added && Core.isObj(there)) carryStreamed(there, next)
    put(list, i, next, { name, of })
  }

  /** The list `key` of an object, created (or copied, if it is not an array) so it can be written. */
  const listOf = (o: Obj, key: string): Array<unknown> => {
    const v = o[key]
    if (Array.isArray(v)) return v
    const list: Array<unknown> = []
    o[key] = list
    return list
  }

  /**
   * Writes `value` at place `i` of a list this stream builds. A place past the end would leave a hole (a sparse
   * array, which no copy can take): the places it skips hold `undefined` until their own events come, and every copy
   * leaves them out. Skipping is a violation when `what` (what the list holds, and whose) is given: what belongs there
   * never came.
   */
  const put = (list: Array<unknown>, i: number, value: unknown, what?: { readonly name: string; readonly of: string }): void => {
    if (i > list.length) {
      const near = fills(i - list.length)
      if (what !== undefined) ctx.violation(`${what.name} ${i} ${what.of} came before ${what.name} ${list.length}`)
      else if (!near) ctx.violation(`place ${i} was written while the list had ${list.length}`)
      // a near place is filled up to (the list stays in order); a far one (an index of a million, which no stream
      // reaches) is not: what came for it goes at the end, so a broken index costs no memory
      if (!near) {
        list.push(value)
        return
      }
      while (list.length < i) list.push(undefined)
    }
    list[i] = value
  }

  /** Places filled in so far, over all lists (`MAX_FILLED_PLACES`). */
  let filled = 0
  /** Whether a skip of `gap` places is filled in: near, and within the stream's budget, which it then spends. */
  const fills = (gap: number): boolean => {
    if (gap <= 0) return true
    if (gap > MAX_FILLED_GAP || filled + gap > MAX_FILLED_PLACES) return false
    filled += gap
    return true
  }

  /**
   * Writes `value` at place `i` of a list keyed by `command_index`, whose places come in any order: a place not
   * reached yet holds `empty()` (what its first delta starts from), so the list is dense and stays aligned with the
   * commands.
   */
  const putByCommand = (list: Array<unknown>, i: number, value: unknown, empty: () => unknown): number => {
    if (!fills(i - list.length)) {
      // no stream runs a million commands: the index is broken, and the value goes at the end
      ctx.violation(`command ${i} came while ${list.length} commands had come`)
      list.push(value)
      return list.length - 1
    }
    while (list.length < i) list.push(empty())
    list[i] = value
    return i
  }

  /** A text field of an event (`delta`, `text`, `arguments`...): a violation when it is there and is not a string. */
  const textOf = (event: Obj, key: string, type: string): string | undefined => {
    const v = event[key]
    if (typeof v === "string") return v
    if (v !== undefined && v !== null) ctx.violation(`${type}: ${key} is not a string: ${Core.show(v)}`)
    return undefined
  }

  /**
   * An event's `item_id` names the item it is for: one that names another item than the one at its `output_index` is
   * a violation (what it carries still goes where its index puts it). An event without one is for the item there.
   */
  const checkItemId = (event: Obj, type: string, i: number, item: Obj): void => {
    const itemId = event["item_id"]
    if (itemId === undefined || itemId === null) return
    if (typeof itemId !== "string") return ctx.violation(`${type}: item_id is not a string: ${Core.show(itemId)}`)
    const id = Core.str(item, "id")
    if (id !== undefined && id !== itemId) ctx.violation(`${type} for output item ${i}, ${itemLabel(item)}, has item_id ${quote(itemId)}`)
  }

  const itemAt = (event: Obj, create = true): Obj | undefined => {
    const i = Core.index(event, "output_index")
    if (i === undefined) {
      ctx.violation(`${Core.str(event, "type")} without a valid output_index`)
      return undefined
    }
    const item = output[i]
    const type = Core.str(event, "type") ?? ""
    if (item !== undefined) {
      checkItemId(event, type, i, item)
      return item
    }
    ctx.violation(`${type} for output item ${i}, which was never added`)
    if (!create) return undefined
    // the text the event carries still goes into the partial response, in an item of the kind the event writes
    const placeholder = placeholderItem(type)
    const itemId = Core.str(event, "item_id")
    if (itemId !== undefined) placeholder["id"] = itemId
    put(output, i, placeholder)
    return placeholder
  }

  /**
   * The response's fields after an event brought `r`: `r`'s, then those of the response so far that `r` lacks (a
   * terminal response may leave out what only `response.created` or `response.in_progress` carried).
   */
  const updated = (r: Obj): Obj => {
    const next = withoutOutput(r)
    if (response !== undefined) for (const k in response) if (!Object.hasOwn(next, k)) Core.setKey(next, k, response[k])
    return next
  }

  const setResponse = (r: Obj, replaceOutput: boolean): void => {
    response = updated(r)
    const out = Core.arr(r, "output")
    if (out !== undefined && (replaceOutput || output.length === 0)) {
      const before = output
      output = Core.elements(out).map((item) => (Core.isObj(item) ? Core.clone(item) : undefined))
      const byId = new Map<string, Obj>()
      for (const item of output) {
        const id = item === undefined ? undefined : Core.str(item, "id")
        if (item !== undefined && id !== undefined && !byId.has(id)) byId.set(id, item)
      }
      // the terminal item replaces the streamed one it stands for, closed (output_item.done) or still open: what the
      // deltas built for it stays known, and is kept beside the terminal value when it differs. A streamed item the
      // terminal output has no item for (a shorter output, another item in its place) is kept beside the output, in
      // stream order, as streamed_items: the output wins, and what was streamed is not lost
      // each terminal item stands for one streamed item at most: first the item with the same id, then (for an item
      // without one) an item equal to it at its place, then one equal to it elsewhere, then the one at the streamed
      // item's place (the item added there last first),
      // then, for an item without an id or whose terminal item has none, the first such item of its type left; a
      // streamed item left without one is kept. One an earlier terminal output had no item for (a second terminal
      // event, a protocol error) stays kept: it is not matched again, so a stream of many terminal events is linear
      const streamedItems: Array<{ readonly item: Obj; readonly place: number | undefined; readonly last: boolean }> = []
      for (let i = 0; i < before.length; i++) {
        for (const a of earlierItems.get(i) ?? []) streamedItems.push({ item: a, place: i, last: false })
        const a = before[i]
        if (a !== undefined) streamedItems.push({ item: a, place: i, last: true })
      }
      const matched = new Map<Obj, Obj>()
      const claimed = new Set<Obj>()
      const claim = (a: Obj, b: Obj | undefined): void => {
        if (b === undefined || claimed.has(b) || matched.has(a)) return
        matched.set(a, b)
        claimed.add(b)
      }
      for (const { item } of streamedItems) {
        const id = Core.str(item, "id")
        const found = id === undefined ? undefined : byId.get(id)
        if (found !== undefined && Core.str(found, "type") === Core.str(item, "type")) claim(item, found)
      }
      // a call (or a call's output) names its call by call_id, with an id or without: the terminal item of its type
      // with that call_id is the one it stands for, whatever their places
      const byCallId = new Map<string, Obj>()
      for (const b of output) {
        const callId = b === undefined || claimed.has(b) ? undefined : Core.str(b, "call_id")
        const k = callId === undefined ? undefined : `${Core.str(b!, "type") ?? ""}\u0000${callId}`
        if (k !== undefined && !byCallId.has(k)) byCallId.set(k, b!)
      }
      for (const { item } of streamedItems) {
        const callId = matched.has(item) ? undefined : Core.str(item, "call_id")
        const b = callId === undefined ? undefined : byCallId.get(`${Core.str(item, "type") ?? ""}\u0000${callId}`)
        if (b !== undefined && sameItem(item, b)) claim(item, b)
      }
      // an item without an id that the terminal output has as it is at its own output_index (where the documented
      // stream puts it) is that one, before any item equal to it elsewhere may take it: two equal items then keep
      // their own places, and what each one's deltas built stays with it
      for (const { item, place } of streamedItems) {
        if (matched.has(item) || place === undefined || Core.str(item, "id") !== undefined) continue
        const there = output[place]
        if (there !== undefined && Core.str(there, "type") === Core.str(item, "type") && Core.sameJson(item, there)) claim(item, there)
      }
      // an item without an id that the terminal output has as it is elsewhere (a server whose output leaves an item
      // out, or reorders) is that one; compared within a bounded number of pairs, so a stream of very many items
      // stays linear
      let budget = 4096
      for (const { item } of streamedItems) {
        if (matched.has(item) || Core.str(item, "id") !== undefined) continue
        for (const b of output) {
          if (budget-- <= 0) break
          if (b !== undefined && !claimed.has(b) && Core.str(b, "type") === Core.str(item, "type") && Core.sameJson(item, b)) {
            claim(item, b)
            break
          }
        }
      }
      for (const last of [true, false]) {
        for (const s of streamedItems) {
          if (s.last !== last || s.place === undefined || matched.has(s.item)) continue
          const there = output[s.place]
          if (there !== undefined && sameItem(s.item, there)) claim(s.item, there)
        }
      }
      // the terminal items left, by type: those without an id (any item of the type may be one), and those with one
      // (only an item without an id may be one); taken in order, so the pass stays linear
      const queues = new Map<string, { readonly anon: Array<Obj>; readonly named: Array<Obj>; a: number; n: number }>()
      for (const b of output) {
        if (b === undefined || claimed.has(b)) continue
        const type = Core.str(b, "type") ?? ""
        let q = queues.get(type)
        if (q === undefined) queues.set(type, q = { anon: [], named: [], a: 0, n: 0 })
        ;(Core.str(b, "id") === undefined ? q.anon : q.named).push(b)
      }
      for (const { item } of streamedItems) {
        if (matched.has(item)) continue
        const q = queues.get(Core.str(item, "type") ?? "")
        if (q === undefined) continue
        // (never one that names another call)
        while (q.a < q.anon.length && claimed.has(q.anon[q.a]!)) q.a++
        if (q.a < q.anon.length) {
          if (sameItem(item, q.anon[q.a]!)) claim(item, q.anon[q.a++])
        } else if (Core.str(item, "id") === undefined) {
          while (q.n < q.named.length && claimed.has(q.named[q.n]!)) q.n++
          if (q.n < q.named.length && sameItem(item, q.named[q.n]!)) claim(item, q.named[q.n++])
        }
      }
      for (const { item } of streamedItems) {
        const b = matched.get(item)
        if (b !== undefined) carryItemStreamed(item, b)
        else replacedItems.push(item)
      }
      done = output.map(() => replaceOutput)
      // the server's output is the whole list: what was kept from an index added twice is in it or in streamed_items
      earlierItems.clear()
    }
  }

  const applyPartText = (event: Obj, type: string): void => {
    const spec = partFields[type]!
    const item = itemAt(event)
    if (item === undefined) return
    const key = spec.list === "content" ? "content_index" : "summary_index"
    const i = Core.index(event, key)
    if (i === undefined) return ctx.violation(`${type} without a valid ${key}`)
    const list = listOf(item, spec.list)
    let part = list[i]
    if (!Core.isObj(part)) {
      ctx.violation(`${type} for ${spec.list} part ${i} of output item ${Core.index(event, "output_index")}, which was never added`)
      part = newPart(spec.part)
      put(list, i, part)
    }
    const p = part as Obj
    if (spec.done !== undefined) {
      const text = textOf(event, spec.done, type)
      if (text !== undefined) p[spec.field] = text
      const logprobs = Core.arr(event, "logprobs")
      if (logprobs !== undefined && logprobs.length > 0) p["logprobs"] = Core.elements(logprobs).map(Core.clone)
    } else {
      const delta = textOf(event, "delta", type) ?? ""
      const prev = p[spec.field]
      p[spec.field] = typeof prev === "string" ? prev + delta : delta
      recordStreamed(p, spec.field)
      const logprobs = Core.arr(event, "logprobs")
      if (logprobs !== undefined && logprobs.length > 0) {
        const into = listOf(p, "logprobs")
        for (const lp of Core.elements(logprobs)) into.push(Core.clone(lp))
        // the list itself: the deltas append to it, and a `.done` puts another in its place
        recordStreamedList(p, "logprobs", into)
      }
    }
  }

  const apply = (event: unknown): void => {
    if (!Core.isObj(event)) return ctx.violation(`an event is not an object: ${Core.show(event)}`)
    const type = Core.str(event, "type") ?? ""
    if (ended !== undefined && type !== "error") ctx.violation(`a ${type || "untyped"} event after ${ended}`)
    if (lifecycle.has(type) || terminal.has(type)) {
      const r = Core.obj(event, "response")
      if (r === undefined) return ctx.violation(`${type} without a response`)
      if (terminal.has(type)) {
        // an empty output (some compatible servers) keeps what was streamed, as an absent one does
        setResponse(r, (Core.arr(r, "output")?.length ?? 0) > 0 || output.length === 0)
        ended = type
        if (type === "response.failed") {
          const error = Core.obj(r, "error") ?? {}
          const code = Core.str(error, "code")
          ctx.providerError({ errorType: code ?? "response.failed", errorMessage: Core.str(error, "message") ?? "", code, error: r["error"] })
        }
      } else if (response === undefined || type === "response.created") {
        if (type === "response.created" && response !== undefined) ctx.violation("a second response.created")
        setResponse(r, false)
      } else {
        // in_progress / queued: newer top-level fields, the accumulated output stays
        if (output.length === 0) setResponse(r, false)
        else response = updated(r)
      }
      return
    }
    if (response === undefined && type !== "error" && type !== "keepalive") ctx.violation(`${type || "an untyped event"} before response.created`)
    switch (type) {
      case "response.output_item.added":
      case "response.output_item.done": {
        const i = Core.index(event, "output_index")
        const item = Core.obj(event, "item")
        if (i === undefined || item === undefined) return ctx.violation(`${type} without a valid output_index and item`)
        if (type === "response.output_item.done" && output[i] === undefined) ctx.violation(`${type} for output item ${i}, which was never added`)
        // a second added begins a second item: the first stays as its events built it, and what comes for the index
        // from now on builds the second (the partial response keeps both, in order)
        const there = output[i]
        const next = Core.clone(item)
        if (type === "response.output_item.added" && there !== undefined) {
          ctx.violation(`output item ${i} was added twice (the second add begins a new item after the first)`)
          keepEarlier(earlierItems, i, there)
        } else if (there !== undefined && !sameItem(there, item)) {
          // a done item that is not the added one (another type or id) does not replace what the deltas built: both are kept
          ctx.violation(`${type} for output item ${i}, ${itemLabel(there)}, brings ${itemLabel(item)}`)
          keepEarlier(earlierItems, i, there)
        } else if (there !== undefined && type === "response.output_item.done") {
          // the final item replaces the one its deltas built: what they built stays known
          carryItemStreamed(there, next)
        }
        put(output, i, next, type === "response.output_item.added" ? { name: "output item", of: "of the response" } : undefined)
        done[i] = type === "response.output_item.done"
        return
      }
      case "response.content_part.added":
      case "response.content_part.done": {
        const item = itemAt(event)
        const i = Core.index(event, "content_index")
        const part = Core.obj(event, "part")
        if (item === undefined) return
        if (i === undefined || part === undefined) return ctx.violation(`${type} without a valid content_index and part`)
        putPart(event, item, "content", i, part, type === "response.content_part.added")
        return
      }
      case "response.reasoning_summary_part.added":
      case "response.reasoning_summary_part.done": {
        const item = itemAt(event)
        const i = Core.index(event, "summary_index")
        const part = Core.obj(event, "part")
        if (item === undefined) return
        if (i === undefined || part === undefined) return ctx.violation(`${type} without a valid summary_index and part`)
        putPart(event, item, "summary", i, part, type === "response.reasoning_summary_part.added")
        return
      }
      case "response.output_text.annotation.added": {
        const item = itemAt(event)
        if (item === undefined) return
        const ci = Core.index(event, "content_index")
        const ai = Core.index(event, "annotation_index")
        if (ci === undefined || ai === undefined) return ctx.violation(`${type} without a valid content_index and annotation_index`)
        const content = listOf(item, "content")
        let part = content[ci]
        if (!Core.isObj(part)) {
          ctx.violation(`${type} for content part ${ci} of output item ${Core.index(event, "output_index")}, which was never added`)
          part = newPart("output_text")
          put(content, ci, part)
        }
        const annotations = listOf(part as Obj, "annotations")
        put(annotations, ai, Core.clone(event["annotation"]), { name: "annotation", of: `of content part ${ci} of output item ${Core.index(event, "output_index")}` })
        // the list itself: the events add to it, and a part's `.done` or a final item puts another in its place
        recordStreamedList(part as Obj, "annotations", annotations)
        return
      }
      case "response.shell_call_command.added":
      case "response.shell_call_command.delta":
      case "response.shell_call_command.done": {
        const item = itemAt(event)
        const ci = Core.index(event, "command_index")
        if (item === undefined) return
        if (ci === undefined) return ctx.violation(`${type} without a valid command_index`)
        const action = Core.obj(item, "action") ?? (item["action"] = {})
        const commands = listOf(action as Obj, "commands")
        if (type === "response.shell_call_command.delta") {
          const prev = commands[ci]
          const command = (typeof prev === "string" ? prev : "") + (textOf(event, "delta", type) ?? "")
          recordStreamedAt(item, "commands", putByCommand(commands, ci, command, noCommand), command)
        } else {
          putByCommand(commands, ci, textOf(event, "command", type) ?? "", noCommand)
        }
        return
      }
      case "response.shell_call_output_content.delta":
      case "response.shell_call_output_content.done": {
        const item = itemAt(event)
        const ci = Core.index(event, "command_index")
        if (item === undefined) return
        if (ci === undefined) return ctx.violation(`${type} without a valid command_index`)
        const list = listOf(item, "output")
        if (type === "response.shell_call_output_content.delta") {
          const delta = Core.obj(event, "delta") ?? {}
          const existing = list[ci]
          const entry = Core.isObj(existing) ? existing : noOutput()
          const place = entry === existing ? ci : putByCommand(list, ci, entry, noOutput)
          for (const k in delta) {
            const v = delta[k]
            const prev = entry[k]
            Core.setKey(entry, k, typeof v === "string" && typeof prev === "string" ? prev + v : Core.clone(v))
          }
          // the entry itself: the deltas build it in place, and a `.done` puts another in its place
          recordStreamedAt(item, "output", place, entry)
        } else {
          const outputs = Core.arr(event, "output") ?? []
          for (let k = 0; k < outputs.length; k++) putByCommand(list, ci + k, Core.clone(outputs[k]), noOutput)
        }
        return
      }
      case "error": {
        const nested = Core.obj(event, "error")
        const source = nested ?? event
        const code = Core.str(source, "code")
        return ctx.providerError({
          errorType: code ?? Core.str(source, "type") ?? "error",
          errorMessage: Core.str(source, "message") ?? "",
          code,
          error: nested ?? event
        })
      }
      default: {
        // own entries only: an event type such as "constructor" is no text event
        if (Object.hasOwn(partFields, type)) return applyPartText(event, type)
        const spec = Object.hasOwn(textFields, type) ? textFields[type] : undefined
        if (spec !== undefined) {
          const item = itemAt(event)
          if (item === undefined) return
          const itemType = Core.str(item, "type")
          // the text still goes into the partial response, where the event put it
          if (itemType !== spec.item) ctx.violation(`${type} for output item ${Core.index(event, "output_index")}, ${itemLabel(item)}`)
          if (spec.done !== undefined) {
            const text = textOf(event, spec.done, type)
            if (text !== undefined) item[spec.field] = text
            const name = Core.str(event, "name")
            if (name !== undefined && name !== "") item["name"] = name
          } else {
            const prev = item[spec.field]
            item[spec.field] = (typeof prev === "string" ? prev : "") + (textOf(event, "delta", type) ?? "")
            recordStreamed(item, spec.field)
          }
          return
        }
        const status = statusEvent.exec(type)
        if (status !== null && event["output_index"] !== undefined) {
          const item = itemAt(event, false)
          if (item !== undefined) item["status"] = status[2]
        }
        // everything else (audio, partial images, keepalive, unknown types) is ignored on purpose
      }
    }
  }

  const build = (): Wire.Response | undefined => {
    // without response.created, what later events built still makes a response
    if (response === undefined && output.length === 0) return undefined
    const out = Core.clone(response ?? skeleton())
    const items: Array<unknown> = []
    for (let i = 0; i < output.length; i++) {
      const before = earlierItems.get(i)
      if (before !== undefined) for (const e of before) items.push(copyItem(e, earlierPartsOf, streamedOf, replacedPartsOf))
      const item = output[i]
      if (item !== undefined) items.push(copyItem(item, earlierPartsOf, streamedOf, replacedPartsOf))
    }
    out["output"] = items
    // a `streamed_items` the server sent itself is left as it is
    if (replacedItems.length > 0 && !Object.hasOwn(out, "streamed_items")) out["streamed_items"] = replacedItems.map((item) => copyItem(item, earlierPartsOf, streamedOf, replacedPartsOf))
    return out as unknown as Wire.Response
  }

  return {
    apply,
    snapshot: build,
    finish: () => {
      const result = build()
      if (result === undefined) return { response: undefined, cut: ["no response.created event"] }
      const cut: Array<string> = response === undefined ? ["no response.created event"] : []
      if (ended === undefined) cut.push("no terminal event (response.completed, response.incomplete or response.failed)")
      for (let i = 0; i < output.length; i++) {
        const item = output[i]
        if (item === undefined) continue
        // after a terminal event the response is whole, even when max_output_tokens cut a call's arguments: they are
        // read as the non-streamed response's are; only an item the stream left open says how far its arguments got
        if (ended !== undefined || done[i] === true) continue
        const args = Core.str(item, "arguments")
        const argsCut = args !== undefined && jsonTextState(args)._tag === "Truncated" ? `; its arguments JSON is cut after ${args.length} characters` : ""
        cut.push(`output item ${i} (${itemName(item)}) never got response.output_item.done${argsCut}`)
      }
      return { response: result, cut }
    }
  }
}

/**
 * A Responses stream accumulator.
 *
 * @since 0.1.0
 */
export type Accumulator = StreamAccumulator<Wire.StreamEvent, Wire.Response>

/**
 * Makes an empty accumulator.
 *
 * @example
 * const base = { id: "resp_1", object: "response", created_at: 1700000000, model: "gpt-5" } as const
 * const message = { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Hello!", annotations: [] }] } as const
 * const events: ReadonlyArray<OpenAiResponsesWire.StreamEvent> = [
 *   { type: "response.created", response: { ...base, status: "in_progress", output: [] } },
 *   { type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
 *   { type: "response.content_part.added", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
 *   { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "Hello!" },
 *   { type: "response.output_item.done", output_index: 0, item: message },
 *   { type: "response.completed", response: { ...base, status: "completed", output: [message], usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } } }
 * ]
 * const acc = OpenAiResponsesStream.make()
 * for (const event of events.slice(0, 4)) acc.push(event)
 * // the text so far, before the stream ends
 * const sofar = acc.snapshot()
 * if (sofar !== undefined) OpenAiResponsesStream.outputText(sofar) // "Hello!"
 *
 * @since 0.1.0
 */
export const make = (): Accumulator => Core.makeAccumulator<Wire.StreamEvent, Wire.Response>("openai-responses", make_)

/**
 * The text of a response's messages: every `output_text` part of every
 * `message` item, in order (reasoning is not included). The official SDK
 * offers the same as the `output_text` property; the server does not send
 * it.
 *
 * @example
 * const base = { id: "resp_1", object: "response", created_at: 1700000000, model: "gpt-5" } as const
 * const message = { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Hello!", annotations: [] }] } as const
 * const events: ReadonlyArray<OpenAiResponsesWire.StreamEvent> = [
 *   { type: "response.created", response: { ...base, status: "in_progress", output: [] } },
 *   { type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
 *   { type: "response.content_part.added", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
 *   { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "Hello!" },
 *   { type: "response.output_item.done", output_index: 0, item: message },
 *   { type: "response.completed", response: { ...base, status: "completed", output: [message], usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } } }
 * ]
 * const response = yield* OpenAiResponsesStream.fromEvents(events)
 * OpenAiResponsesStream.outputText(response) // "Hello!"
 *
 * @since 0.1.0
 */
export const outputText = (response: Wire.Response): string => {
  let out = ""
  for (const item of response.output) {
    if (item.type !== "message" || !("content" in item)) continue
    for (const part of (item as Wire.OutputMessage).content) if (part.type === "output_text" && "text" in part) out += (part as Wire.OutputText).text
  }
  return out
}

const run = runners(make)

/**
 * Accumulates an Effect `Stream` of events.
 *
 * @example
 * const base = { id: "resp_1", object: "response", created_at: 1700000000, model: "gpt-5" } as const
 * const message = { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Hello!", annotations: [] }] } as const
 * const events: ReadonlyArray<OpenAiResponsesWire.StreamEvent> = [
 *   { type: "response.created", response: { ...base, status: "in_progress", output: [] } },
 *   { type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
 *   { type: "response.content_part.added", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
 *   { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "Hello!" },
 *   { type: "response.output_item.done", output_index: 0, item: message },
 *   { type: "response.completed", response: { ...base, status: "completed", output: [message], usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } } }
 * ]
 * const response = yield* OpenAiResponsesStream.fromStream(Stream.fromIterable(events))
 * response.status // "completed"
 *
 * @since 0.1.0
 */
export const fromStream = run.fromStream

/**
 * Accumulates an Effect `Stream` of raw SSE text or bytes (a response body).
 *
 * @example
 * const body = [
 *   'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_1","object":"response","created_at":1700000000,"model":"gpt-5","status":"in_progress","output":[]}}',
 *   'event: response.output_item.added\ndata: {"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}',
 *   'event: response.content_part.added\ndata: {"type":"response.content_part.added","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}',
 *   'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"Hello!"}',
 *   'event: response.output_item.done\ndata: {"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Hello!","annotations":[]}]}}',
 *   'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","object":"response","created_at":1700000000,"model":"gpt-5","status":"completed","output":[{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Hello!","annotations":[]}]}]}}'
 * ].join("\n\n") + "\n\n"
 * const response = yield* OpenAiResponsesStream.fromSseStream(Stream.make(new TextEncoder().encode(body)))
 * OpenAiResponsesStream.outputText(response) // "Hello!"
 *
 * @since 0.1.0
 */
export const fromSseStream = run.fromSseStream

/**
 * Accumulates an iterable of events.
 *
 * @example
 * const base = { id: "resp_1", object: "response", created_at: 1700000000, model: "gpt-5" } as const
 * const message = { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Hello!", annotations: [] }] } as const
 * const events: ReadonlyArray<OpenAiResponsesWire.StreamEvent> = [
 *   { type: "response.created", response: { ...base, status: "in_progress", output: [] } },
 *   { type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
 *   { type: "response.content_part.added", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
 *   { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "Hello!" },
 *   { type: "response.output_item.done", output_index: 0, item: message },
 *   { type: "response.completed", response: { ...base, status: "completed", output: [message], usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } } }
 * ]
 * const error = yield* Effect.flip(OpenAiResponsesStream.fromEvents(events.slice(0, 4)))
 * error._tag // "IncompleteStream": the stream ended before response.completed
 *
 * @since 0.1.0
 */
export const fromEvents = run.fromEvents

/**
 * Accumulates a whole SSE text, or its pieces.
 *
 * @example
 * const body = [
 *   'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_1","object":"response","created_at":1700000000,"model":"gpt-5","status":"in_progress","output":[]}}',
 *   'event: response.output_item.added\ndata: {"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}',
 *   'event: response.content_part.added\ndata: {"type":"response.content_part.added","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}',
 *   'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"Hello!"}',
 *   'event: response.output_item.done\ndata: {"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Hello!","annotations":[]}]}}',
 *   'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","object":"response","created_at":1700000000,"model":"gpt-5","status":"completed","output":[{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Hello!","annotations":[]}]}]}}'
 * ].join("\n\n") + "\n\n"
 * const response = yield* OpenAiResponsesStream.fromSse(body)
 * OpenAiResponsesStream.outputText(response) // "Hello!"
 *
 * @since 0.1.0
 */
export const fromSse = run.fromSse
