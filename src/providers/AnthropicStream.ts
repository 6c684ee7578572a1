/**
 * Accumulates an Anthropic Messages stream into the `Message` it stands
 * for.
 *
 * **How events add up**
 *
 * - `message_start` gives the message (id, model, usage so far).
 * - `content_block_start` puts a block at its `index`, as sent (blocks that
 *   never get deltas, such as `redacted_thinking`, `web_search_tool_result`
 *   or `fallback`, arrive whole here).
 * - `content_block_delta`: `text_delta` appends to `text`, `thinking_delta`
 *   to `thinking`; `signature_delta` sets `signature` (each carries the
 *   whole signature, so a later one replaces the one before, as the
 *   official SDKs have it; on a block that is not `thinking` it is a
 *   protocol error, and the block keeps it); `citations_delta`
 *   appends one citation; `input_json_delta` appends to the block's input
 *   JSON text, for any block with an `input` (`tool_use`,
 *   `server_tool_use`, `mcp_tool_use`...). Other delta types (such as
 *   `compaction_delta`) are applied field by field: a string is appended to
 *   a string already there, any other non-null value is set.
 * - `content_block_stop` closes a block; a tool block's input becomes the
 *   parsed value of its JSON text (an empty text keeps the start's `{}`),
 *   as the official SDK has it. The text itself is kept exactly as
 *   streamed: `inputJson(index)`. A start whose `input` is not `{}` (some
 *   gateways send one) keeps that input as `start_input` on the block
 *   when its JSON text brings another; without JSON text the start's
 *   input is the input.
 * - `message_delta` sets each field of its `delta` (and top-level fields
 *   such as `context_management`) that is present and not `null`, and
 *   merges its `usage` key by key the same way: values from `message_start`
 *   that the delta omits or nulls (input and cache counts,
 *   `cache_creation`, `service_tier`) survive; `output_tokens` is the last
 *   value, not a sum.
 * - A `fallback` block relabels the message's `model` to the model that
 *   took over (as the official SDK does); the block itself keeps both names.
 * - `ping` is ignored. `error` becomes a `ProviderStreamError`.
 * - Unknown event types are ignored; unknown fields on the message, blocks
 *   and deltas (of any type) are kept, and so are those of the events
 *   themselves: a `message_start`, `message_delta` or `message_stop` field
 *   on the message (Bedrock's `amazon-bedrock-invocationMetrics`), a block
 *   event's on its block. What is kept is a copy: changing an event after
 *   pushing it changes nothing in the accumulator.
 *
 * **Ending**: complete when `message_stop` arrived and every started block
 * was stopped. Otherwise `done()` reports `IncompleteStream` (no
 * `message_start`, no `message_stop`, a block never stopped, with how much
 * of a tool input's JSON arrived); in the partial message a tool block that
 * was never stopped has its raw input text as `input`. A stopped tool
 * block whose input is not valid JSON is a `StreamProtocolError` (its raw
 * text is the `input` of the partial message), as are deltas for blocks
 * never started, blocks started twice, events after `message_stop`, a
 * delta without a `type`, and a known delta whose text (`text`,
 * `thinking`, `signature`, `partial_json`) is not a string. A
 * block started twice is two blocks in the partial message, in order: the
 * first as its events had built it, and the second, which the events for
 * that index after the second start build (they never touch the first). A
 * stream without `message_start` is a `StreamProtocolError` too; its
 * partial message is what the later events built, in a message whose `id`
 * and `model` are empty and whose usage counts start at 0.
 *
 * @example
 * import { Effect, Stream } from "effect"
 * import { AnthropicStream } from "effect-agent-messages/providers"
 *
 * declare const body: Stream.Stream<Uint8Array, Error> // the HTTP response body
 *
 * // the final message; a cut stream still yields what arrived
 * const message = AnthropicStream.fromSseStream(body).pipe(
 *   Effect.catchTag("IncompleteStream", (e) => Effect.succeed(e.partial))
 * )
 *
 * @since 0.1.0
 */
import * as Core from "./internal/core.js"
import { jsonTextState } from "./internal/jsonText.js"
import { cutText } from "../internal/preview.js"
import { parse as parseJson } from "../internal/json.js"
import { runners, type StreamAccumulator } from "./StreamAccumulator.js"
import type * as Wire from "./AnthropicWire.js"

type Obj = Core.Obj

const unparsed: unique symbol = Symbol("unparsed")

interface BlockState {
  readonly block: Obj // a copy of the started block, updated in place
  open: boolean
  json: string | undefined // the input JSON text, when input_json_delta arrived
  parsed: unknown // the parsed input once the block stopped, or `unparsed`
  citations: Array<unknown> | undefined // owned copy, appended to
  earlier: Array<BlockState> | undefined // blocks started before at the same index (a protocol error), in order
}

/** The block a delta for a block that was never started writes into (what `content_block_start` would have made). */
const placeholderBlock = (deltaType: string | undefined): Obj => {
  switch (deltaType) {
    case "text_delta":
    case "citations_delta":
      return { type: "text", text: "" }
    case "thinking_delta":
    case "signature_delta":
      return { type: "thinking", thinking: "", signature: "" }
    case "input_json_delta":
      return { type: "tool_use", id: "", name: "", input: {} }
    default:
      return { type: deltaType === undefined ? "unknown" : deltaType.replace(/_delta$/, "") }
  }
}

/** What `message_start` would have given, for a stream whose later events came without it. */
const skeleton = (): Obj => ({ id: "", type: "message", role: "assistant", model: "", content: [], stop_reason: null, stop_sequence: null })
const skeletonUsage = (): Obj => ({ input_tokens: 0, output_tokens: 0 })

const blockName = (b: Obj): string => {
  const type = Core.str(b, "type") ?? "untyped"
  const name = Core.str(b, "name")
  return name === undefined ? type : `${type} ${name}`
}

const messageDeltaKeys: ReadonlySet<string> = new Set(["type", "delta", "usage"])

/** The fields each event type has; any other field of an event is kept (on the message, or on the block it is for). */
const eventKeys: Record<string, ReadonlySet<string>> = {
  message_start: new Set(["type", "message"]),
  message_stop: new Set(["type"]),
  content_block_start: new Set(["type", "index", "content_block"]),
  content_block_delta: new Set(["type", "index", "delta"]),
  content_block_stop: new Set(["type", "index"])
}

/** The field each known delta type writes, beside its `type`. */
const deltaField: Record<string, string> = {
  text_delta: "text",
  thinking_delta: "thinking",
  signature_delta: "signature",
  input_json_delta: "partial_json",
  citations_delta: "citation"
}

/** Sets the fields of `from` that are not `known` and not null on `into` (copies: the caller's events are never kept). */
const keepOthers = (into: Obj, from: Obj, known: ReadonlySet<string> | string, collide?: (key: string) => void): void => {
  for (const k in from) {
    if (typeof known === "string" ? k === known || k === "type" : known.has(k)) continue
    const v = from[k]
    if (v === null || v === undefined) continue
    // an extra field under the name of one the stream builds (a block's text or id, the message's id or model) would
    // replace what was streamed: refused, and said; other extras are kept, a later one replacing an earlier
    if (collide !== undefined && builtFields(into).has(k) && Object.hasOwn(into, k) && !Core.sameJson(into[k], v)) {
      collide(k)
      continue
    }
    Core.setKey(into, k, Core.clone(v))
  }
}

/**
 * The fields of a message or a block that its own events build, which no other field of an event may replace: the
 * message's identity and content, and each block type's own fields (a gateway's extra `id` on a text block's events
 * is no text block field, and is kept as any other extra).
 */
const builtFields = (into: Obj): ReadonlySet<string> => {
  if (Object.hasOwn(into, "role")) return MESSAGE_BUILT
  const type = into["type"]
  if (typeof type !== "string") return NO_KEYS
  if (Object.hasOwn(BLOCK_BUILT, type)) return BLOCK_BUILT[type]!
  return type.endsWith("_tool_use") ? CALL_BUILT : type.endsWith("_tool_result") ? RESULT_BUILT : TYPE_ONLY
}

const MESSAGE_BUILT: ReadonlySet<string> = new Set(["id", "type", "role", "model", "content", "usage"])
const CALL_BUILT: ReadonlySet<string> = new Set(["type", "id", "name", "input"])
const RESULT_BUILT: ReadonlySet<string> = new Set(["type", "tool_use_id", "content"])
const TYPE_ONLY: ReadonlySet<string> = new Set(["type"])
const BLOCK_BUILT: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(["type", "text", "citations"]),
  thinking: new Set(["type", "thinking", "signature"]),
  redacted_thinking: new Set(["type", "data"]),
  tool_use: CALL_BUILT
}

/** Whether a block's start input says anything: the API starts every tool block with `{}`. */
const holdsInput = (input: unknown): boolean => input !== undefined && input !== null && !(Core.isObj(input) && Object.keys(input).length === 0)

/** The streamed input texts of the messages this module assembled, by message (see `inputTextsOf`). */
const streamedInputs = new WeakMap<object, ReadonlyArray<string | undefined>>()

const NO_KEYS: ReadonlySet<string> = new Set()

const make_ = (ctx: Core.Context) => {
  /** Says that an event's field would replace one the stream built (see `keepOthers`). */
  const collides = (what: string) => (key: string): void =>
    ctx.violation(`${what} has ${/^[aeiou]/.test(key) ? "an" : "a"} ${key} field that would replace the one streamed (kept as streamed)`)
  // the fields of message_start, then of message_delta; without message_start, those a later event set
  let message: Obj = {}
  let usage: Obj = {}
  const blocks: Array<BlockState | undefined> = []
  let started = false // message_start arrived
  let begun = false // an event that builds the message arrived, with or without message_start
  let stopped = false

  const blockAt = (i: number | undefined, what: string): BlockState | undefined => {
    if (i === undefined) {
      ctx.violation(`${what} without a valid index`)
      return undefined
    }
    const b = blocks[i]
    if (b === undefined) ctx.violation(`${what} for content block ${i}, which was never started`)
    return b
  }

  /** The text field a known delta carries: a violation when it is there and is not a string. */
  const deltaText = (delta: Obj, type: string, i: number): string | undefined => {
    const key = deltaField[type]!
    const v = delta[key]
    if (typeof v === "string") return v
    if (v !== undefined && v !== null) ctx.violation(`a ${type} for content block ${i}: ${key} is not a string: ${Core.show(v)}`)
    return undefined
  }

  const applyDelta = (bs: BlockState, i: number, delta: Obj): void => {
    const b = bs.block
    const rawType = delta["type"]
    const type = typeof rawType === "string" ? rawType : undefined
    const blockType = Core.str(b, "type")
    if (!bs.open) ctx.violation(`a ${type ?? "untyped"} delta for content block ${i} after its content_block_stop`)
    // the other fields of a known delta are kept on the block, as those of an unknown delta are
    if (type !== undefined && Object.hasOwn(deltaField, type)) keepOthers(b, delta, deltaField[type]!, collides(`the ${type} for content block ${i}`))
    switch (type) {
      case "text_delta": {
        const text = deltaText(delta, type, i) ?? ""
        if (blockType !== "text") ctx.violation(`a text_delta for content block ${i}, a ${blockType} block`)
        b["text"] = (Core.str(b, "text") ?? "") + text
        return
      }
      case "thinking_delta": {
        const text = deltaText(delta, type, i) ?? ""
        if (blockType !== "thinking") ctx.violation(`a thinking_delta for content block ${i}, a ${blockType} block`)
        b["thinking"] = (Core.str(b, "thinking") ?? "") + text
        return
      }
      case "signature_delta": {
        if (blockType !== "thinking") ctx.violation(`a signature_delta for content block ${i}, a ${blockType} block`)
        const signature = deltaText(delta, type, i)
        if (signature === undefined) return
        // each signature_delta carries the whole signature: a later one replaces the one there, as the official
        // SDKs (TypeScript, Python, Go) assign it; appended, two whole signatures would make one the API rejects
        b["signature"] = signature
        return
      }
      case "input_json_delta": {
        if (!("input" in b)) ctx.violation(`an input_json_delta for content block ${i}, a ${blockType} block without input`)
        const piece = deltaText(delta, type, i) ?? ""
        bs.json = bs.json === undefined ? piece : bs.json + piece
        return
      }
      case "citations_delta": {
        const citation = delta["citation"]
        if (!Core.isObj(citation)) ctx.violation(`a citations_delta for content block ${i}: citation is not an object: ${Core.show(citation)}`)
        bs.citations ??= []
        bs.citations.push(Core.clone(citation))
        return
      }
      default: {
        // a delta must say what it is; its fields still go into the partial message
        if (type === undefined) ctx.violation(`a content_block_delta for content block ${i} has a delta without a type${rawType === undefined ? "" : `: ${Core.show(rawType)}`}`)
        // unknown deltas (compaction_delta...): strings append to strings, other non-null values are set
        for (const k in delta) {
          if (k === "type") continue
          const v = delta[k]
          if (v === null || v === undefined) continue
          const prev = b[k]
          Core.setKey(b, k, typeof v === "string" && typeof prev === "string" ? prev + v : Core.clone(v))
        }
      }
    }
  }

  const close = (bs: BlockState): void => {
    bs.open = false
    if (bs.json === undefined || bs.json.trim() === "") return
    // text that is not JSON, or whose numbers a double cannot hold (`1e400` reads as Infinity, which no JSON value
    // holds), stays text: the reader keeps it as the call's raw arguments and repairs them, as for any other
    const parsed = parseJson(bs.json)
    bs.parsed = "value" in parsed ? parsed.value : unparsed
  }

  const apply = (event: unknown): void => {
    if (!Core.isObj(event)) return ctx.violation(`an event is not an object: ${Core.show(event)}`)
    const type = Core.str(event, "type")
    if (stopped && type !== "ping" && type !== "error") ctx.violation(`a ${type ?? "untyped"} event after message_stop`)
    switch (type) {
      case "message_start": {
        const m = Core.obj(event, "message")
        if (m === undefined) return ctx.violation("message_start without a message")
        if (started) return ctx.violation("a second message_start")
        // a message_start after other events (already a violation): what they set is newer and stays
        const own = Core.clone(m)
        keepOthers(own, event, eventKeys["message_start"]!, collides("message_start"))
        message = { ...own, ...message }
        usage = { ...Core.obj(own, "usage"), ...usage }
        started = true
        begun = true
        const content = Core.arr(own, "content")
        if (content !== undefined && blocks.length === 0) {
          for (const block of Core.elements(content)) {
            if (Core.isObj(block)) blocks.push({ block, open: false, json: undefined, parsed: unparsed, citations: undefined, earlier: undefined })
          }
        }
        return
      }
      case "content_block_start": {
        const i = Core.index(event, "index")
        const block = Core.obj(event, "content_block")
        if (i === undefined || block === undefined) return ctx.violation("content_block_start without a valid index and content_block")
        if (!started) ctx.violation("content_block_start before message_start")
        // a second start begins a second block: the first stays as its events built it, and what comes for the
        // index from now on builds the second (the partial message keeps both, in order)
        const before = blocks[i]
        let earlier: Array<BlockState> | undefined
        if (before !== undefined) {
          ctx.violation(`content block ${i} was started twice (the second start begins a new block after the first)`)
          if (before.open) close(before)
          // one list per index, handed on: a stream that starts an index again and again stays linear
          earlier = before.earlier ?? []
          before.earlier = undefined
          earlier.push(before)
        } else if (i !== blocks.length) {
          ctx.violation(`content block ${i} started while ${blocks.length} blocks were started`)
        }
        const own = Core.clone(block)
        keepOthers(own, event, eventKeys["content_block_start"]!)
        const citations = Core.arr(own, "citations")
        blocks[i] = {
          block: own,
          open: true,
          json: undefined,
          parsed: unparsed,
          citations: citations === undefined ? undefined : Core.elements(citations),
          earlier
        }
        begun = true
        if (Core.str(block, "type") === "fallback") {
          const to = Core.obj(block, "to")
          const model = to === undefined ? undefined : Core.str(to, "model")
          if (model !== undefined && model !== "") message["model"] = model
        }
        return
      }
      case "content_block_delta": {
        const i = Core.index(event, "index")
        const delta = Core.obj(event, "delta")
        if (delta === undefined) return ctx.violation("content_block_delta without a delta")
        const bs = blockAt(i, `a ${Core.str(delta, "type") ?? "untyped"} delta`)
        if (bs !== undefined) applyDelta(bs, i!, delta)
        else if (i !== undefined) {
          // the text still goes into the partial message, in a block of the kind the delta writes
          const placeholder: BlockState = { block: placeholderBlock(Core.str(delta, "type")), open: true, json: undefined, parsed: unparsed, citations: undefined, earlier: undefined }
          blocks[i] = placeholder
          begun = true
          applyDelta(placeholder, i, delta)
        }
        const target = bs ?? (i === undefined ? undefined : blocks[i])
        if (target !== undefined) keepOthers(target.block, event, eventKeys["content_block_delta"]!, collides(`the content_block_delta for content block ${Core.index(event, "index") ?? "?"}`))
        return
      }
      case "content_block_stop": {
        const i = Core.index(event, "index")
        const bs = blockAt(i, "content_block_stop")
        if (bs === undefined) return
        if (!bs.open) return ctx.violation(`content block ${i} was stopped twice`)
        keepOthers(bs.block, event, eventKeys["content_block_stop"]!, collides(`content_block_stop ${Core.index(event, "index") ?? "?"}`))
        close(bs)
        return
      }
      case "message_delta": {
        if (!started) ctx.violation("message_delta before message_start")
        begun = true
        const delta = Core.obj(event, "delta")
        // (its delta's fields are the message's to set: stop_reason, stop_sequence, container... but not its id or model)
        if (delta !== undefined) keepOthers(message, delta, NO_KEYS, collides("message_delta's delta"))
        const u = Core.obj(event, "usage")
        if (u !== undefined) for (const k in u) if (u[k] !== null && u[k] !== undefined) Core.setKey(usage, k, Core.clone(u[k]))
        keepOthers(message, event, messageDeltaKeys, collides("message_delta"))
        return
      }
      case "message_stop":
        if (!started) ctx.violation("message_stop before message_start")
        stopped = true
        // fields a gateway adds (Bedrock's `amazon-bedrock-invocationMetrics`) are kept on the message, as message_delta's are
        keepOthers(message, event, eventKeys["message_stop"]!, collides("message_stop"))
        return
      case "error": {
        const error = Core.obj(event, "error") ?? {}
        return ctx.providerError({ errorType: Core.str(error, "type") ?? "error", errorMessage: Core.str(error, "message") ?? "", error: event["error"] })
      }
      case "ping":
      default:
        return // unknown event types are ignored: the API may add new ones
    }
  }

  const materialize = (bs: BlockState): Wire.ContentBlock => {
    const out = Core.clone(bs.block)
    if (bs.citations !== undefined) out["citations"] = Core.clone(bs.citations)
    if (bs.json !== undefined && bs.json.trim() !== "") {
      const input = bs.open || bs.parsed === unparsed ? bs.json : Core.clone(bs.parsed)
      // the streamed text is the input; an input the start already held is not lost when the text replaces it
      const start = out["input"]
      if (holdsInput(start) && !Object.hasOwn(out, "start_input") && !Core.sameJson(start, input)) out["start_input"] = start
      out["input"] = input
    }
    return out as unknown as Wire.ContentBlock
  }

  const build = (): Wire.Message | undefined => {
    if (!begun) return undefined
    // without message_start, what later events built still makes a message
    const out = Core.clone(started ? message : { ...skeleton(), ...message })
    const content: Array<Wire.ContentBlock> = []
    // the text of each input that was parsed from streamed JSON, by place in `content` (see `inputTextsOf`)
    let texts: Array<string | undefined> | undefined
    const push = (bs: BlockState): void => {
      if (bs.json !== undefined && !bs.open && bs.parsed !== unparsed) (texts ??= [])[content.length] = bs.json
      content.push(materialize(bs))
    }
    for (const bs of blocks) {
      if (bs === undefined) continue
      if (bs.earlier !== undefined) for (const e of bs.earlier) push(e)
      push(bs)
    }
    out["content"] = content
    out["usage"] = Core.clone(started ? usage : { ...skeletonUsage(), ...usage })
    const found = texts
    if (found !== undefined) streamedInputs.set(out, Array.from({ length: content.length }, (_, k) => found[k]))
    return out as unknown as Wire.Message
  }

  const format: Core.Format<Wire.Message> & { readonly inputJson: (index: number) => string | undefined } = {
    inputJson: (index) => blocks[index]?.json,
    apply,
    snapshot: build,
    finish: () => {
      const response = build()
      const cut: Array<string> = []
      if (!started) cut.push("no message_start event")
      for (let i = 0; i < blocks.length; i++) {
        const bs = blocks[i]
        if (bs === undefined || !bs.open) continue
        let detail = ""
        if (bs.json !== undefined && bs.json.trim() !== "") {
          const state = jsonTextState(bs.json)
          detail = state._tag === "Truncated" ? `; its input JSON is cut after ${bs.json.length} characters` : state._tag === "Invalid" ? "; its input so far is not valid JSON" : ""
        }
        cut.push(`content block ${i} (${blockName(bs.block)}) was never stopped${detail}`)
      }
      if (response !== undefined && !stopped) cut.push("no message_stop event")
      // a stream cut short is reported as such: the input of a stopped block that is not JSON is a violation of a whole stream only
      if (cut.length > 0) return { response, cut }
      // every stopped block whose input is not JSON, in one violation: the reader takes them all as argument text to repair
      const invalidInputs: Array<string> = []
      for (let i = 0; i < blocks.length; i++) {
        const bs = blocks[i]
        if (bs === undefined || bs.json === undefined || bs.parsed !== unparsed || bs.json.trim() === "") continue
        const state = jsonTextState(bs.json)
        const where = state._tag === "Invalid" ? ` at character ${state.at}` : state._tag === "Truncated" ? " (it is cut short)" : ""
        // JSON by its grammar that still cannot be held (a number no double holds, nesting past what is read): why
        const held = where === "" ? parseJson(bs.json) : undefined
        const why = held !== undefined && "error" in held ? `its input cannot be read (${held.error})` : `its input is not valid JSON${where}`
        invalidInputs.push(`content block ${i} (${blockName(bs.block)}): ${why}: ${cutText(bs.json, 400)}`)
      }
      // the first few said in full: a message of one entry per block has no bound
      const shown = invalidInputs.slice(0, INVALID_INPUTS_SHOWN).join("; ")
      const more = invalidInputs.length - INVALID_INPUTS_SHOWN
      if (invalidInputs.length > 0) ctx.violation(more > 0 ? `${shown}; and ${more} more block${more === 1 ? "" : "s"} whose input is not valid JSON` : shown)
      return { response, cut }
    }
  }
  return format
}

/** How many blocks whose input is not JSON the protocol error names in full. */
const INVALID_INPUTS_SHOWN = 5

/**
 * An Anthropic Messages stream accumulator. Beyond the common interface,
 * `inputJson(index)` returns the input JSON text of content block `index`
 * exactly as it was streamed (`undefined` for a block without
 * `input_json_delta`; for an index started twice, a protocol error, the
 * block started last).
 *
 * @since 0.1.0
 */
export interface Accumulator extends StreamAccumulator<Wire.StreamEvent, Wire.Message> {
  readonly inputJson: (index: number) => string | undefined
}

/**
 * Makes an empty accumulator.
 *
 * @example
 * const events: ReadonlyArray<AnthropicWire.StreamEvent> = [
 *   { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } } },
 *   { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
 *   { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello!" } },
 *   { type: "content_block_stop", index: 0 },
 *   { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
 *   { type: "message_stop" }
 * ]
 * const acc = AnthropicStream.make()
 * for (const event of events.slice(0, 3)) acc.push(event)
 * acc.snapshot()?.content // [{ type: "text", text: "Hello!" }]
 * for (const event of events.slice(3)) acc.push(event)
 * const result = acc.done()
 * if (result._tag === "Success") result.success.stop_reason // "end_turn"
 *
 * @since 0.1.0
 */
export const make = (): Accumulator =>
  Core.makeAccumulator("anthropic-messages", make_, (format) => ({ inputJson: format.inputJson }))

/**
 * The input JSON text of each tool block of a message an accumulator of
 * this module assembled (`done()`, `snapshot()`, the Effect helpers),
 * exactly as it was streamed in `input_json_delta`s.
 *
 * **When to use**
 *
 * The message gives each tool block's `input` parsed, as the SDKs do; the
 * text can say more: numbers too long for a JavaScript number
 * (`12345678901234567890`), a key given twice, the spacing. Read the text
 * to keep what the parsed value loses.
 *
 * **Details**
 *
 * One entry per block of `content`: the text for a block whose input was
 * parsed from streamed JSON, `undefined` for any other block. The result is
 * `undefined` for a message without such a block, and for any message this
 * module did not assemble (a copy of one included). A block whose text is
 * not JSON has that text as its `input` already.
 *
 * @example
 * const events: ReadonlyArray<AnthropicWire.StreamEvent> = [
 *   { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } } },
 *   { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "get_order", input: {} } },
 *   { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"order_id": 12345678901234567890}' } },
 *   { type: "content_block_stop", index: 0 },
 *   { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 12 } },
 *   { type: "message_stop" }
 * ]
 * const message = yield* AnthropicStream.fromEvents(events)
 * message.content[0] // { type: "tool_use", ..., input: { order_id: 12345678901234567000 } }
 * AnthropicStream.inputTextsOf(message) // ['{"order_id": 12345678901234567890}']
 *
 * @since 0.1.0
 */
export const inputTextsOf = (message: unknown): ReadonlyArray<string | undefined> | undefined =>
  typeof message === "object" && message !== null ? streamedInputs.get(message) : undefined

const run = runners(make)

/**
 * Accumulates an Effect `Stream` of events.
 *
 * @example
 * const events: ReadonlyArray<AnthropicWire.StreamEvent> = [
 *   { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } } },
 *   { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
 *   { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello!" } },
 *   { type: "content_block_stop", index: 0 },
 *   { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
 *   { type: "message_stop" }
 * ]
 * const message = yield* AnthropicStream.fromStream(Stream.fromIterable(events))
 * message.usage.output_tokens // 3
 *
 * @since 0.1.0
 */
export const fromStream = run.fromStream

/**
 * Accumulates an Effect `Stream` of raw SSE text or bytes (a response body).
 *
 * @example
 * const body = [
 *   'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}',
 *   'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
 *   'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello!"}}',
 *   'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}',
 *   'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}',
 *   'event: message_stop\ndata: {"type":"message_stop"}'
 * ].join("\n\n") + "\n\n"
 * const message = yield* AnthropicStream.fromSseStream(Stream.make(body.slice(0, 100), body.slice(100)))
 * message.stop_reason // "end_turn"
 *
 * @since 0.1.0
 */
export const fromSseStream = run.fromSseStream

/**
 * Accumulates an iterable of events.
 *
 * @example
 * const events: ReadonlyArray<AnthropicWire.StreamEvent> = [
 *   { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } } },
 *   { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
 *   { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello!" } },
 *   { type: "content_block_stop", index: 0 },
 *   { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
 *   { type: "message_stop" }
 * ]
 * const error = yield* Effect.flip(AnthropicStream.fromEvents(events.slice(0, 3)))
 * error._tag // "IncompleteStream"
 * error.message // names what is missing: the open text block, the stop reason
 *
 * @since 0.1.0
 */
export const fromEvents = run.fromEvents

/**
 * Accumulates a whole SSE text, or its pieces.
 *
 * @example
 * const body = [
 *   'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}',
 *   'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
 *   'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello!"}}',
 *   'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}',
 *   'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}',
 *   'event: message_stop\ndata: {"type":"message_stop"}'
 * ].join("\n\n") + "\n\n"
 * const message = yield* AnthropicStream.fromSse(body)
 * message.content // [{ type: "text", text: "Hello!" }]
 *
 * @since 0.1.0
 */
export const fromSse = run.fromSse
