/**
 * Accumulates an OpenAI Chat Completions stream (`chat.completion.chunk`
 * events) into the `chat.completion` response it stands for.
 *
 * **How chunks add up**
 *
 * - Choices are kept by their `index`, whatever order they arrive in, and
 *   all of them are kept (`n > 1`).
 * - `content` and `refusal` are concatenated; each stays `null` until a
 *   chunk carries a string for it (an empty string counts).
 * - Tool calls are kept by their `index` within the choice, so fragments of
 *   parallel calls may interleave. `function.arguments` and `custom.input`
 *   are concatenated exactly as streamed (never parsed). `id` and `type`
 *   are taken from the first fragment that carries a non-empty value. The
 *   name is concatenated too (some servers stream it in pieces, as the
 *   Python SDK reads them), except that a fragment repeating the whole name
 *   adds nothing: servers that repeat the name on every fragment, or send
 *   it only on the last one, give the same result. A fragment whose `id`
 *   differs from the id of the call at its index and that brings a name
 *   starts a new call (after the others): some OpenAI-compatible servers
 *   send every parallel call with `index: 0`. One that brings no name, or
 *   repeats the call's own name while its arguments are still open (their
 *   text does not end in `}`), only continues the call (some servers change
 *   the id after the first fragment): the first id stays, and the others are
 *   kept in the call's `other_ids`. A fragment without any `index` (Gemini's compatible
 *   server) starts a new call when it brings a new `id` and a name, and
 *   continues the last call otherwise.
 * - `content`, `refusal` or `arguments` sent as an array of text parts is
 *   read as its text; any other non-string value is a protocol error, and
 *   its JSON is kept in the partial response. So is any known field of the
 *   wrong kind, named in the error: a `delta`, `logprobs`, `function_call`,
 *   `audio`, or a call's `function` / `custom` that is not an object,
 *   `tool_calls` that is not an array, a `finish_reason`, `role`, or a
 *   call's `id`, `type` or name that is not a string (`null` stands for
 *   absent).
 * - A chunk carrying `error`, or an SSE frame named `error`, fails the
 *   stream with `ProviderStreamError` (as the official SDK throws); choices
 *   beside the error are still kept in the partial response.
 * - `role` is set, not concatenated (some servers repeat it every chunk).
 * - `logprobs.content` / `logprobs.refusal` arrays are concatenated.
 * - `audio.data` and `audio.transcript` are concatenated; `audio.id` and
 *   `audio.expires_at` are set.
 * - `finish_reason` is kept per choice: set by the first chunk that carries
 *   a non-null one and never reset (a later `null`, or a usage chunk without
 *   choices, changes nothing); a later, different one (a compatible server
 *   that repeats it) is kept beside it, in order, as the choice's
 *   `other_finish_reasons`. Azure's trailing content-filter chunk (empty
 *   `id` and `model`, no `delta`) changes nothing but its filter results.
 * - `id`, `model`, `created`, `system_fingerprint`, `service_tier`: the last
 *   non-empty value. `usage`: the last non-null one (the final chunk, whose
 *   `choices` is empty).
 *
 * **Unknown fields** are kept, never dropped: on a `delta`, the text that
 * OpenAI-compatible servers stream (`reasoning_content`, `reasoning`) is
 * concatenated; another string is kept once while every chunk repeats it
 * (a server's per-chunk `name`) and concatenated once the pieces differ;
 * arrays are appended (but a piece of OpenRouter's `reasoning_details`
 * continues the detail of its `index` and type: its text concatenated, its
 * signature set) and other values replace. On a choice or a chunk the
 * last non-null value wins; a choice's own `message` (some servers send
 * the whole message beside the last delta) never replaces the message the
 * deltas built: it is kept as the choice's `chunk_message`. The one
 * exception is the chunk's `obfuscation` padding, which is per-chunk noise
 * and never copied. What is kept is a copy: changing an event after
 * pushing it, or a response `snapshot()` or `done()` returned, changes
 * nothing in the accumulator.
 *
 * **Ending**: the stream is complete when every choice has a
 * `finish_reason`. As the official SDK does, an audio choice whose last
 * chunk only set `audio.expires_at` is finished with `"stop"`. `done()`
 * reports `IncompleteStream` when no chunk or no choice arrived, or a
 * choice has no `finish_reason` (saying how much of a call's arguments JSON
 * arrived when it is cut short); a message whose role is not `assistant` is
 * a `StreamProtocolError`. A choice the provider finished is whole, even
 * when a token limit (`finish_reason: "length"`) cut a call's arguments
 * mid-JSON: they are kept as sent, and read as the non-streamed
 * completion's are (`OpenAiChat` repairs them, keeping the text).
 *
 * @example
 * import { Effect } from "effect"
 * import { OpenAiChatStream } from "effect-agent-messages/providers"
 *
 * const acc = OpenAiChatStream.make()
 * acc.feed('data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}\n\n')
 * acc.feed("data: [DONE]\n\n")
 * const completion = acc.done() // Result.succeed({ object: "chat.completion", choices: [{ message: { content: "Hi", ... } }], ... })
 *
 * @since 0.1.0
 */
import type { Schema } from "effect"
import { stringify } from "../internal/json.js"
import { quote } from "../internal/preview.js"
import * as Core from "./internal/core.js"
import { jsonTextState } from "./internal/jsonText.js"
import { runners, type StreamAccumulator } from "./StreamAccumulator.js"
import type * as Wire from "./OpenAiChatWire.js"

type Obj = Core.Obj

interface ToolState {
  id: string | undefined
  otherIds: Set<string> | undefined // ids later fragments of this call carried (a server that changes the id mid-call)
  type: string | undefined
  name: string | undefined
  text: string | undefined // function arguments or custom input, as streamed
  custom: boolean | undefined // which of `function` / `custom` carried the text
  fnExtra: Obj | undefined
  extra: Obj | undefined
}

interface ChoiceState {
  readonly index: number
  role: string | undefined
  content: string | null
  refusal: string | null
  readonly tools: Map<number, ToolState> // by slot: the index, or a fresh slot for a call that reused an index
  readonly slots: Map<number, number> // index -> the slot its latest call lives in, when they differ
  lastSlot: number
  functionCall: { name: string | undefined; arguments: string } | undefined
  audio: Obj | undefined
  logprobs: { content: Array<unknown> | null; refusal: Array<unknown> | null; extra: Obj } | undefined
  finishReason: string | null
  otherFinishReasons: Set<string> | undefined // later, different finish reasons a server sent for the choice, in order (a set: one lookup per chunk)
  lastSetExpiresAt: boolean // the choice's latest chunk only set audio.expires_at
  readonly messageExtra: Obj
  // unknown delta strings that every chunk so far repeated: how many times (the field holds the value once)
  readonly repeats: Map<string, number>
  readonly choiceExtra: Obj
}

const chunkKeys = new Set(["id", "object", "created", "model", "choices", "system_fingerprint", "service_tier", "usage", "obfuscation"])
const choiceKeys = new Set(["index", "delta", "finish_reason", "logprobs"])
const deltaKeys = new Set(["role", "content", "refusal", "tool_calls", "function_call", "audio"])
const toolKeys = new Set(["index", "id", "type", "function", "custom"])

/**
 * Whether a call's arguments so far are still open: some text, and its last character other than white space not the
 * `}` that closes an object (arguments are an object). Looked at from the end, so a long stream stays linear.
 */
const argumentsOpen = (text: string | undefined): boolean => {
  if (text === undefined) return false
  let i = text.length - 1
  while (i >= 0 && text.charCodeAt(i) <= 32) i--
  return i >= 0 && text.charCodeAt(i) !== 125
}

/**
 * A copy of a value from an event, so that changing the event after `push` changes nothing here. A value that cannot
 * be copied (a proxy that throws) is kept as it is: `done()` reports it when it cannot be copied out either.
 */
const own = <A>(value: A): A => {
  try {
    return Core.clone(value)
  } catch {
    return value
  }
}

/** Fields that are not in the API reference but that compatible servers stream as text, a piece per chunk. */
const streamedText = new Set(["reasoning_content", "reasoning"])

/**
 * Merges an unknown `delta` field. Streamed text (`reasoning_content`...) concatenates; another string is kept once
 * while every chunk repeats it (a server's per-chunk `name`), and concatenates once the pieces differ, so nothing is
 * lost; arrays append; other values replace. Values are copied: the caller's events are never kept.
 */
const mergeDeltaField = (into: Obj, repeats: Map<string, number>, key: string, value: unknown): void => {
  if (value === null || value === undefined) return
  const prev = into[key]
  if (typeof value === "string") {
    if (typeof prev !== "string") {
      Core.setKey(into, key, value)
      if (!streamedText.has(key)) repeats.set(key, 1)
      return
    }
    const count = repeats.get(key)
    if (count !== undefined && value === prev) return void repeats.set(key, count + 1)
    repeats.delete(key)
    Core.setKey(into, key, (count === undefined ? prev : prev.repeat(count)) + value)
    return
  }
  repeats.delete(key)
  if (Array.isArray(value) && Array.isArray(prev)) {
    for (const v of Core.elements(value)) if (key !== "reasoning_details" || !mergeReasoningDetail(prev, v)) prev.push(own(v))
  } else Core.setKey(into, key, Array.isArray(value) ? Core.elements(value).map(own) : own(value))
}

/** The reasoning details of a streamed message by `detailKey`, for the pieces that continue them. */
const detailsByIndex = new WeakMap<Array<unknown>, Map<string, Obj>>()

/** A reasoning detail's index and type, as one key. */
const detailKey = (detail: Obj): string => `${String(detail["index"])}\u0000${String(detail["type"])}`

/** The fields of an OpenRouter reasoning detail whose text streams in pieces. */
const reasoningDetailText = new Set(["text", "summary", "data"])

/**
 * Merges a streamed piece of an OpenRouter reasoning detail into the detail of its `index` and `type` so far: its
 * text, summary or data concatenated, its other fields (the signature, which comes last) set. A detail streams in
 * pieces that share an index, and a thinking block's signature holds only for its whole text: kept as separate
 * entries, the next request of a tool loop fails Anthropic's signature check. A piece that continues none is added
 * as a detail of its own; `false` for one without a numeric index, which the caller appends.
 */
const mergeReasoningDetail = (details: Array<unknown>, piece: unknown): boolean => {
  if (!Core.isObj(piece) || typeof piece["index"] !== "number") return false
  // the details so far by index and type (a look-up, not a scan: a stream of 100,000 details stays linear)
  let byIndex = detailsByIndex.get(details)
  if (byIndex === undefined) {
    detailsByIndex.set(details, (byIndex = new Map()))
    for (const d of details) if (Core.isObj(d) && typeof d["index"] === "number") byIndex.set(detailKey(d), d)
  }
  const into = byIndex.get(detailKey(piece))
  if (into === undefined) {
    const added = own(piece) as Obj
    details.push(added)
    byIndex.set(detailKey(added), added)
    return true
  }
  for (const key of Object.keys(piece)) {
    const value = piece[key]
    if (value === null || value === undefined) continue
    const prev = into[key]
    if (reasoningDetailText.has(key) && typeof value === "string" && typeof prev === "string") Core.setKey(into, key, prev + value)
    else Core.setKey(into, key, own(value))
  }
  return true
}

/** The last non-null value of an unknown field wins (a copy: the caller's events are never kept). */
const keepLatest = (into: Obj, key: string, value: unknown): void => {
  if (value !== null && value !== undefined) Core.setKey(into, key, own(value))
}

/**
 * The name under which an unknown field of a chunk's choice is kept: its own, unless the completion's choice uses
 * that name for what the deltas build (`message`, which some servers send whole beside the last delta).
 */
const choiceExtraKey = (key: string): string => (key === "message" ? "chunk_message" : key)

const make_ = (ctx: Core.Context): Core.Format<Wire.ChatCompletion> => {
  let chunks = 0
  let id = ""
  let created = 0
  let model = ""
  let systemFingerprint: string | undefined
  let serviceTier: string | undefined
  let usage: unknown = undefined
  const extra: Obj = {}
  const choices = new Map<number, ChoiceState>()

  const choiceAt = (index: number): ChoiceState => {
    let c = choices.get(index)
    if (c === undefined) {
      c = {
        index,
        role: undefined,
        content: null,
        refusal: null,
        tools: new Map(),
        slots: new Map(),
        lastSlot: -1,
        functionCall: undefined,
        audio: undefined,
        logprobs: undefined,
        finishReason: null,
        otherFinishReasons: undefined,
        lastSetExpiresAt: false,
        messageExtra: {},
        repeats: new Map(),
        choiceExtra: {}
      }
      choices.set(index, c)
    }
    return c
  }

  /** A known field that is a string when present (`null` stands for absent); any other value is a violation. */
  const strAt = (o: Obj, key: string, at: string): string | undefined => {
    const v = o[key]
    if (typeof v === "string") return v
    if (v !== undefined && v !== null) ctx.violation(`${at}.${key} is not a string: ${Core.show(v)}`)
    return undefined
  }

  /** A known field that is an object when present (`null` stands for absent); any other value is a violation. */
  const objAt = (o: Obj, key: string, at: string): Obj | undefined => {
    const v = o[key]
    if (Core.isObj(v)) return v
    if (v !== undefined && v !== null) ctx.violation(`${at}.${key} is not an object: ${Core.show(v)}`)
    return undefined
  }

  const applyToolCall = (choice: ChoiceState, delta: unknown, position: number, tools: string): void => {
    const at = `${tools}[${position}]`
    if (!Core.isObj(delta)) return ctx.violation(`${at} is not an object: ${Core.show(delta)}`)
    const index = Core.index(delta, "index")
    if (index === undefined && delta["index"] !== undefined && delta["index"] !== null) return ctx.violation(`a tool call fragment has no valid index: ${Core.show(delta["index"])}`)
    const id = strAt(delta, "id", at)
    const parts = [["function", false, "arguments", objAt(delta, "function", at)], ["custom", true, "input", objAt(delta, "custom", at)]] as const
    let name: string | undefined
    for (const [key, , , part] of parts) {
      const n = part === undefined ? undefined : strAt(part, "name", `${at}.${key}`)
      if (n !== undefined && n !== "") name ??= n
    }
    // no index at all (Gemini's OpenAI-compatible server sends each call whole, without one): a fragment with a new id
    // and a name is the next call, any other continues the last
    let slot = index === undefined ? Math.max(choice.lastSlot, 0) : choice.slots.get(index) ?? index
    let t = choice.tools.get(slot)
    if (t !== undefined && t.id !== undefined && id !== undefined && id !== "" && id !== t.id) {
      // (a fragment that repeats the call's name while its arguments are still open is that call under another id:
      // a server that changes the id mid-call and repeats the name; one whose arguments closed, or another name,
      // is the next call)
      if (name !== undefined && !(name === t.name && t.custom !== true && argumentsOpen(t.text))) {
        // a new id with a name at an index already in use is a new call: some OpenAI-compatible servers
        // (Gemini's among them) send every parallel call with index 0
        slot = choice.lastSlot + 1
        if (index !== undefined) choice.slots.set(index, slot)
        t = undefined
      } else {
        // a new id on a fragment that only continues the arguments is the same call under another id (poolsideai/pool#9):
        // the first id stays, the others are kept beside it
        ;(t.otherIds ??= new Set()).add(id)
      }
    }
    if (t === undefined) {
      t = { id: undefined, otherIds: undefined, type: undefined, name: undefined, text: undefined, custom: undefined, fnExtra: undefined, extra: undefined }
      choice.tools.set(slot, t)
      if (slot > choice.lastSlot) choice.lastSlot = slot
    }
    if (id !== undefined && id !== "" && t.id === undefined) t.id = id
    const type = strAt(delta, "type", at)
    if (type !== undefined && type !== "" && t.type === undefined) t.type = type
    for (const [key, custom, textKey, part] of parts) {
      if (part === undefined) continue
      t.custom ??= custom
      const partName = Core.str(part, "name")
      // a name streamed in pieces is concatenated (as the Python SDK does); one repeated whole on every fragment is kept once
      if (partName !== undefined && partName !== "" && partName !== t.name) t.name = t.name === undefined ? partName : t.name + partName
      const text = textOf(part[textKey], `tool_calls[${position}].${key}.${textKey}`)
      if (text !== undefined) t.text = t.text === undefined ? text : t.text + text
      for (const k in part) {
        if (k === "name" || k === textKey) continue
        t.fnExtra ??= {}
        keepLatest(t.fnExtra, k, part[k])
      }
    }
    for (const k in delta) {
      if (toolKeys.has(k)) continue
      t.extra ??= {}
      keepLatest(t.extra, k, delta[k])
    }
  }

  /**
   * The text a delta field carries. A string is the text; some servers send an array of content parts, whose text
   * parts are read as the non-streamed reader reads them. Anything else breaks the protocol: it is reported, and its
   * JSON kept as the text, so the partial response still holds it.
   */
  const textOf = (value: unknown, what: string): string | undefined => {
    if (typeof value === "string") return value
    if (value === undefined || value === null) return undefined
    if (Array.isArray(value)) {
      let text = ""
      const parts = Core.elements(value)
      for (let i = 0; i < parts.length; i++) {
        const part: unknown = parts[i]
        const partText = Core.isObj(part) ? Core.str(part, "text") : undefined
        if (partText !== undefined && (part as Obj)["type"] !== "image_url") text += partText
        else ctx.violation(`delta ${what}[${i}] is not a text part: ${Core.show(part)}`)
      }
      return text
    }
    ctx.violation(`delta ${what} is not a string: ${Core.show(value)}`)
    try {
      return JSON.stringify(value) ?? String(value)
    } catch {
      // too deep for V8's own: the same text by an explicit stack; a cycle or a BigInt: a rendering that says so
      try {
        return stringify(value as Schema.Json)
      } catch {
        return Core.show(value)
      }
    }
  }

  const applyDelta = (choice: ChoiceState, delta: Obj, at: string): void => {
    const role = strAt(delta, "role", at)
    if (role !== undefined && role !== "") choice.role = role
    const content = textOf(delta["content"], "content")
    if (content !== undefined) choice.content = choice.content === null ? content : choice.content + content
    const refusal = textOf(delta["refusal"], "refusal")
    if (refusal !== undefined) choice.refusal = choice.refusal === null ? refusal : choice.refusal + refusal
    const toolCalls = delta["tool_calls"]
    if (Array.isArray(toolCalls)) {
      const calls = Core.elements(toolCalls)
      for (let i = 0; i < calls.length; i++) applyToolCall(choice, calls[i], i, `${at}.tool_calls`)
    } else if (toolCalls !== undefined && toolCalls !== null) ctx.violation(`${at}.tool_calls is not an array: ${Core.show(toolCalls)}`)
    const fc = objAt(delta, "function_call", at)
    if (fc !== undefined) {
      choice.functionCall ??= { name: undefined, arguments: "" }
      const name = strAt(fc, "name", `${at}.function_call`)
      if (name !== undefined && name !== "" && name !== choice.functionCall.name) choice.functionCall.name = choice.functionCall.name === undefined ? name : choice.functionCall.name + name
      const args = textOf(fc["arguments"], "function_call.arguments")
      if (args !== undefined) choice.functionCall.arguments += args
    }
    const audio = objAt(delta, "audio", at)
    choice.lastSetExpiresAt = false
    if (audio !== undefined) {
      const a = (choice.audio ??= {})
      let onlyExpiry = true
      for (const k in audio) {
        const v = audio[k]
        if ((k === "data" || k === "transcript") && typeof v === "string") {
          onlyExpiry = false
          Core.setKey(a, k, typeof a[k] === "string" ? a[k] + v : v)
        } else if (v !== null && v !== undefined) {
          if (k !== "expires_at") onlyExpiry = false
          Core.setKey(a, k, own(v))
        }
      }
      choice.lastSetExpiresAt = onlyExpiry && audio["expires_at"] !== undefined && audio["expires_at"] !== null
    }
    for (const k in delta) if (!deltaKeys.has(k)) mergeDeltaField(choice.messageExtra, choice.repeats, k, delta[k])
  }

  const applyLogprobs = (choice: ChoiceState, logprobs: Obj): void => {
    const lp = (choice.logprobs ??= { content: null, refusal: null, extra: {} })
    for (const key of ["content", "refusal"] as const) {
      const items = logprobs[key]
      if (!Array.isArray(items)) continue
      const into = (lp[key] ??= [])
      for (const item of Core.elements(items)) into.push(own(item))
    }
    for (const k in logprobs) if (k !== "content" && k !== "refusal") keepLatest(lp.extra, k, logprobs[k])
  }

  const applyChoice = (raw: unknown, position: number): void => {
    const at = `choices[${position}]`
    if (!Core.isObj(raw)) return ctx.violation(`${at} is not an object`)
    const index = Core.index(raw, "index")
    if (index === undefined) return ctx.violation(`${at} has no valid index: ${Core.show(raw["index"])}`)
    const choice = choiceAt(index)
    const delta = objAt(raw, "delta", at)
    if (delta !== undefined) applyDelta(choice, delta, `${at}.delta`)
    const finish = strAt(raw, "finish_reason", at)
    if (finish !== undefined && finish !== "") {
      if (choice.finishReason === null) choice.finishReason = finish
      // a server that repeats finish_reason with another value: the first stays, the others are kept beside it
      else if (finish !== choice.finishReason) (choice.otherFinishReasons ??= new Set()).add(finish)
    }
    const logprobs = objAt(raw, "logprobs", at)
    if (logprobs !== undefined) applyLogprobs(choice, logprobs)
    for (const k in raw) if (!choiceKeys.has(k)) keepLatest(choice.choiceExtra, choiceExtraKey(k), raw[k])
  }

  const apply = (event: unknown): void => {
    if (!Core.isObj(event)) return ctx.violation(`a chunk is not an object: ${Core.show(event)}`)
    const text = Core.str(event, "error")
    const error = Core.obj(event, "error") ?? (text === undefined || text === "" ? undefined : { message: text })
    if (error !== undefined) {
      // OpenAI-compatible servers report a mid-stream failure as a chunk holding `error` (openai-node throws on any
      // chunk that has one); choices beside it are still applied, so the partial keeps what they carried
      const code = Core.str(error, "code")
      ctx.providerError({
        errorType: Core.str(error, "type") ?? code ?? "error",
        errorMessage: Core.str(error, "message") ?? "",
        code,
        error
      })
      if (event["choices"] === undefined) return
    }
    chunks++
    const eid = Core.str(event, "id")
    if (eid !== undefined && eid !== "") id = eid
    const emodel = Core.str(event, "model")
    if (emodel !== undefined && emodel !== "") model = emodel
    const ecreated = Core.num(event, "created")
    if (ecreated !== undefined && ecreated !== 0) created = ecreated
    const fp = Core.str(event, "system_fingerprint")
    if (fp !== undefined && fp !== "") systemFingerprint = fp
    const tier = Core.str(event, "service_tier")
    if (tier !== undefined && tier !== "") serviceTier = tier
    if (event["usage"] !== null && event["usage"] !== undefined) usage = own(event["usage"])
    const list = event["choices"]
    if (Array.isArray(list)) {
      const each = Core.elements(list)
      for (let i = 0; i < each.length; i++) applyChoice(each[i], i)
    }
    else if (list !== undefined) ctx.violation(`choices is not an array: ${Core.show(list)}`)
    for (const k in event) if (!chunkKeys.has(k)) keepLatest(extra, k, event[k])
  }

  const toolCallOf = (t: ToolState): Wire.ToolCall => {
    const custom = t.type === "custom" || (t.type === undefined && t.custom === true)
    const fnExtra = t.fnExtra === undefined ? undefined : Core.clone(t.fnExtra)
    const out: Obj = custom
      ? { id: t.id ?? "", type: t.type ?? "custom", custom: { name: t.name ?? "", input: t.text ?? "", ...fnExtra } }
      : { id: t.id ?? "", type: t.type ?? "function", function: { name: t.name ?? "", arguments: t.text ?? "", ...fnExtra } }
    if (t.extra !== undefined) for (const k in t.extra) Core.setKey(out, k, Core.clone(t.extra[k]))
    if (t.otherIds !== undefined) out["other_ids"] = [...t.otherIds]
    return out as unknown as Wire.ToolCall
  }

  const choiceOf = (c: ChoiceState, finishing: boolean): Wire.Choice => {
    const message: Obj = { role: c.role ?? "assistant", content: c.content, refusal: c.refusal }
    if (c.tools.size > 0) message["tool_calls"] = sortedKeys(c.tools).map((k) => toolCallOf(c.tools.get(k)!))
    if (c.functionCall !== undefined) message["function_call"] = { name: c.functionCall.name ?? "", arguments: c.functionCall.arguments }
    if (c.audio !== undefined) message["audio"] = Core.clone(c.audio)
    for (const k in c.messageExtra) Core.setKey(message, k, Core.clone(c.messageExtra[k]))
    const finishReason = c.finishReason ?? (finishing && c.lastSetExpiresAt ? "stop" : null)
    const out: Obj = {
      index: c.index,
      message,
      finish_reason: finishReason,
      logprobs: c.logprobs === undefined ? null : { content: Core.clone(c.logprobs.content), refusal: Core.clone(c.logprobs.refusal), ...Core.clone(c.logprobs.extra) }
    }
    for (const k in c.choiceExtra) Core.setKey(out, k, Core.clone(c.choiceExtra[k]))
    if (c.otherFinishReasons !== undefined && !Object.hasOwn(out, "other_finish_reasons")) out["other_finish_reasons"] = [...c.otherFinishReasons]
    return out as unknown as Wire.Choice
  }

  const build = (finishing: boolean): Wire.ChatCompletion | undefined => {
    if (chunks === 0) return undefined
    const out: Obj = { id, object: "chat.completion", created, model, choices: sortedKeys(choices).map((k) => choiceOf(choices.get(k)!, finishing)) }
    if (usage !== undefined) out["usage"] = Core.clone(usage)
    if (systemFingerprint !== undefined) out["system_fingerprint"] = systemFingerprint
    if (serviceTier !== undefined) out["service_tier"] = serviceTier
    for (const k in extra) Core.setKey(out, k, Core.clone(extra[k]))
    return out as unknown as Wire.ChatCompletion
  }

  return {
    apply,
    snapshot: () => build(false),
    finish: () => {
      const response = build(true)
      if (response === undefined) return { response, cut: ["no chunk arrived"] }
      const cut: Array<string> = []
      if (response.choices.length === 0) cut.push("no choice arrived")
      // a call's first fragment carries its id and name: one that never came is no call the completion could hold (the
      // completion read whole is MalformedPayload without them), not the empty text the assembled completion shows
      for (const c of sortedKeys(choices).map((k) => choices.get(k)!)) {
        let k = 0
        for (const t of sortedKeys(c.tools).map((slot) => c.tools.get(slot)!)) {
          if (t.id === undefined) ctx.violation(`choice ${c.index} tool call ${k} (${t.name === undefined ? "unnamed" : quote(t.name)}) never got an id`)
          if (t.name === undefined) ctx.violation(`choice ${c.index} tool call ${k} never got a name`)
          k++
        }
        if (c.functionCall !== undefined && c.functionCall.name === undefined) ctx.violation(`choice ${c.index} function call never got a name`)
      }
      for (const choice of response.choices) {
        if (choice.message.role !== "assistant") ctx.violation(`choice ${choice.index} is a ${quote(choice.message.role)} message; a completion's message is the assistant's`)
        // a choice the provider finished is whole, even when a token limit cut its arguments (`length`): they are read
        // as the non-streamed completion's are; only a choice the stream left open says how far its arguments got
        if (choice.finish_reason !== null) continue
        cut.push(`choice ${choice.index} has no finish_reason`)
        const calls = choice.message.tool_calls ?? []
        for (let k = 0; k < calls.length; k++) {
          const call = calls[k]!
          if (call.type !== "function") continue
          if (jsonTextState(call.function.arguments)._tag === "Truncated") {
            cut.push(`choice ${choice.index} tool call ${k} (${call.function.name || "unnamed"}): its arguments JSON is cut after ${call.function.arguments.length} characters`)
          }
        }
        const fc = choice.message.function_call
        if (fc !== undefined && fc !== null && jsonTextState(fc.arguments)._tag === "Truncated") {
          cut.push(`choice ${choice.index} function call (${fc.name || "unnamed"}): its arguments JSON is cut after ${fc.arguments.length} characters`)
        }
      }
      return { response, cut }
    }
  }
}

const sortedKeys = (map: Map<number, unknown>): Array<number> => {
  const keys = [...map.keys()]
  return keys.sort((a, b) => a - b)
}

/**
 * A Chat Completions stream accumulator.
 *
 * @since 0.1.0
 */
export type Accumulator = StreamAccumulator<Wire.StreamEvent, Wire.ChatCompletion>

/**
 * Makes an empty accumulator.
 *
 * @example
 * const chunk = (delta: OpenAiChatWire.Delta, finish_reason: string | null = null): OpenAiChatWire.ChatCompletionChunk =>
 *   ({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1700000000, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason }] })
 * const acc = OpenAiChatStream.make()
 * acc.push(chunk({ role: "assistant", content: "Hel" }))
 * acc.snapshot()?.choices[0]?.message.content // "Hel"
 * acc.push(chunk({ content: "lo!" }, "stop"))
 * const result = acc.done()
 * if (result._tag === "Success") result.success.choices[0]?.message.content // "Hello!"
 *
 * @since 0.1.0
 */
export const make = (): Accumulator => Core.makeAccumulator<Wire.StreamEvent, Wire.ChatCompletion>("openai-chat", make_)

const run = runners(make)

/**
 * Accumulates an Effect `Stream` of chunks.
 *
 * @example
 * const chunk = (delta: OpenAiChatWire.Delta, finish_reason: string | null = null): OpenAiChatWire.ChatCompletionChunk =>
 *   ({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1700000000, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason }] })
 * const completion = yield* OpenAiChatStream.fromStream(Stream.make(chunk({ role: "assistant", content: "Hi" }, "stop")))
 * completion.choices[0]?.finish_reason // "stop"
 *
 * @since 0.1.0
 */
export const fromStream = run.fromStream

/**
 * Accumulates an Effect `Stream` of raw SSE text or bytes (a response body).
 *
 * @example
 * const body = [
 *   'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}',
 *   'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"lo!"},"finish_reason":"stop"}]}',
 *   "data: [DONE]"
 * ].join("\n\n") + "\n\n"
 * const completion = yield* OpenAiChatStream.fromSseStream(Stream.make(new TextEncoder().encode(body)))
 * completion.choices[0]?.message.content // "Hello!"
 *
 * @since 0.1.0
 */
export const fromSseStream = run.fromSseStream

/**
 * Accumulates an iterable of chunks.
 *
 * @example
 * const chunk = (delta: OpenAiChatWire.Delta, finish_reason: string | null = null): OpenAiChatWire.ChatCompletionChunk =>
 *   ({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1700000000, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason }] })
 * const error = yield* Effect.flip(OpenAiChatStream.fromEvents([chunk({ role: "assistant", content: "Hel" })]))
 * error._tag // "IncompleteStream": no finish_reason arrived
 *
 * @since 0.1.0
 */
export const fromEvents = run.fromEvents

/**
 * Accumulates a whole SSE text, or its pieces.
 *
 * @example
 * const body = [
 *   'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}',
 *   'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"lo!"},"finish_reason":"stop"}]}',
 *   "data: [DONE]"
 * ].join("\n\n") + "\n\n"
 * const completion = yield* OpenAiChatStream.fromSse(body)
 * completion.choices[0]?.message.content // "Hello!"
 *
 * @since 0.1.0
 */
export const fromSse = run.fromSse
