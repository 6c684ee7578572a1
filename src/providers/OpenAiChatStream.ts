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
 *   are concatenated exactly as streamed (never parsed). `id`, `type` and
 *   the name are taken from the first fragment that carries a non-empty
 *   value: servers that repeat them on every fragment, or send the name
 *   only on the last one, give the same result. A fragment whose `id`
 *   differs from the id of the call at its index starts a new call (after
 *   the others): some OpenAI-compatible servers send every parallel call
 *   with `index: 0`. A fragment without any `index` (Gemini's compatible
 *   server) starts a new call when it brings a new `id` and continues the
 *   last call otherwise.
 * - `content`, `refusal` or `arguments` sent as an array of text parts is
 *   read as its text; any other non-string value is a protocol error, and
 *   its JSON is kept in the partial response.
 * - A chunk carrying `error`, or an SSE frame named `error`, fails the
 *   stream with `ProviderStreamError` (as the official SDK throws); choices
 *   beside the error are still kept in the partial response.
 * - `role` is set, not concatenated (some servers repeat it every chunk).
 * - `logprobs.content` / `logprobs.refusal` arrays are concatenated.
 * - `audio.data` and `audio.transcript` are concatenated; `audio.id` and
 *   `audio.expires_at` are set.
 * - `finish_reason` is set by the first chunk that carries a non-null one
 *   and never reset; Azure's trailing content-filter chunk (empty `id` and
 *   `model`, no `delta`) changes nothing but its filter results.
 * - `id`, `model`, `created`, `system_fingerprint`, `service_tier`: the last
 *   non-empty value. `usage`: the last non-null one (the final chunk, whose
 *   `choices` is empty).
 *
 * **Unknown fields** are kept, never dropped: on a `delta` (e.g.
 * `reasoning_content` from OpenAI-compatible servers) strings are
 * concatenated, arrays appended and other values replace; on a choice or a
 * chunk the last non-null value wins. The one exception is the chunk's
 * `obfuscation` padding, which is per-chunk noise and never copied.
 *
 * **Ending**: the stream is complete when every choice has a
 * `finish_reason`. As the official SDK does, an audio choice whose last
 * chunk only set `audio.expires_at` is finished with `"stop"`. `done()`
 * reports `IncompleteStream` when no chunk or no choice arrived, a choice
 * has no `finish_reason`, or a function call's arguments are a JSON text cut
 * short; a message whose role is not `assistant` is a `StreamProtocolError`.
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
import * as Core from "./internal/core.js"
import { jsonTextState } from "./internal/jsonText.js"
import { runners, type StreamAccumulator } from "./StreamAccumulator.js"
import type * as Wire from "./OpenAiChatWire.js"

type Obj = Core.Obj

interface ToolState {
  id: string | undefined
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
  lastSetExpiresAt: boolean // the choice's latest chunk only set audio.expires_at
  readonly messageExtra: Obj
  readonly choiceExtra: Obj
}

const chunkKeys = new Set(["id", "object", "created", "model", "choices", "system_fingerprint", "service_tier", "usage", "obfuscation"])
const choiceKeys = new Set(["index", "delta", "finish_reason", "logprobs"])
const deltaKeys = new Set(["role", "content", "refusal", "tool_calls", "function_call", "audio"])
const toolKeys = new Set(["index", "id", "type", "function", "custom"])

/** Merges an unknown `delta` field: strings concatenate, arrays append, other values replace. */
const mergeDeltaField = (into: Obj, key: string, value: unknown): void => {
  if (value === null || value === undefined) return
  const prev = into[key]
  if (typeof value === "string" && typeof prev === "string") Core.setKey(into, key, prev + value)
  else if (Array.isArray(value) && Array.isArray(prev)) for (const v of Core.elements(value)) prev.push(v)
  else Core.setKey(into, key, Array.isArray(value) ? Core.elements(value) : value)
}

/** The last non-null value of an unknown field wins. */
const keepLatest = (into: Obj, key: string, value: unknown): void => {
  if (value !== null && value !== undefined) Core.setKey(into, key, value)
}

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
        lastSetExpiresAt: false,
        messageExtra: {},
        choiceExtra: {}
      }
      choices.set(index, c)
    }
    return c
  }

  const applyToolCall = (choice: ChoiceState, delta: unknown, position: number): void => {
    if (!Core.isObj(delta)) return ctx.violation(`choices tool_calls[${position}] is not an object`)
    const index = Core.index(delta, "index")
    if (index === undefined && delta["index"] !== undefined && delta["index"] !== null) return ctx.violation(`a tool call fragment has no valid index: ${Core.show(delta["index"])}`)
    const id = Core.str(delta, "id")
    // no index at all (Gemini's OpenAI-compatible server sends each call whole, without one): a fragment with a new id
    // is the next call, one without an id continues the last
    let slot = index === undefined ? Math.max(choice.lastSlot, 0) : choice.slots.get(index) ?? index
    let t = choice.tools.get(slot)
    if (t !== undefined && t.id !== undefined && id !== undefined && id !== "" && id !== t.id) {
      // a new id at an index already in use is a new call: some OpenAI-compatible servers
      // (Gemini's among them) send every parallel call with index 0
      slot = choice.lastSlot + 1
      if (index !== undefined) choice.slots.set(index, slot)
      t = undefined
    }
    if (t === undefined) {
      t = { id: undefined, type: undefined, name: undefined, text: undefined, custom: undefined, fnExtra: undefined, extra: undefined }
      choice.tools.set(slot, t)
      if (slot > choice.lastSlot) choice.lastSlot = slot
    }
    if (id !== undefined && id !== "" && t.id === undefined) t.id = id
    const type = Core.str(delta, "type")
    if (type !== undefined && type !== "" && t.type === undefined) t.type = type
    for (const [key, custom, textKey] of [["function", false, "arguments"], ["custom", true, "input"]] as const) {
      const part = Core.obj(delta, key)
      if (part === undefined) continue
      t.custom ??= custom
      const name = Core.str(part, "name")
      if (name !== undefined && name !== "" && t.name === undefined) t.name = name
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
      return Core.show(value)
    }
  }

  const applyDelta = (choice: ChoiceState, delta: Obj): void => {
    const role = Core.str(delta, "role")
    if (role !== undefined && role !== "") choice.role = role
    const content = textOf(delta["content"], "content")
    if (content !== undefined) choice.content = choice.content === null ? content : choice.content + content
    const refusal = textOf(delta["refusal"], "refusal")
    if (refusal !== undefined) choice.refusal = choice.refusal === null ? refusal : choice.refusal + refusal
    const toolCalls = delta["tool_calls"]
    if (Array.isArray(toolCalls)) {
      const calls = Core.elements(toolCalls)
      for (let i = 0; i < calls.length; i++) applyToolCall(choice, calls[i], i)
    }
    const fc = Core.obj(delta, "function_call")
    if (fc !== undefined) {
      choice.functionCall ??= { name: undefined, arguments: "" }
      const name = Core.str(fc, "name")
      if (name !== undefined && name !== "" && choice.functionCall.name === undefined) choice.functionCall.name = name
      const args = textOf(fc["arguments"], "function_call.arguments")
      if (args !== undefined) choice.functionCall.arguments += args
    }
    const audio = Core.obj(delta, "audio")
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
          Core.setKey(a, k, v)
        }
      }
      choice.lastSetExpiresAt = onlyExpiry && audio["expires_at"] !== undefined && audio["expires_at"] !== null
    }
    for (const k in delta) if (!deltaKeys.has(k)) mergeDeltaField(choice.messageExtra, k, delta[k])
  }

  const applyLogprobs = (choice: ChoiceState, logprobs: Obj): void => {
    const lp = (choice.logprobs ??= { content: null, refusal: null, extra: {} })
    for (const key of ["content", "refusal"] as const) {
      const items = logprobs[key]
      if (!Array.isArray(items)) continue
      const into = (lp[key] ??= [])
      for (const item of Core.elements(items)) into.push(item)
    }
    for (const k in logprobs) if (k !== "content" && k !== "refusal") keepLatest(lp.extra, k, logprobs[k])
  }

  const applyChoice = (raw: unknown, position: number): void => {
    if (!Core.isObj(raw)) return ctx.violation(`choices[${position}] is not an object`)
    const index = Core.index(raw, "index")
    if (index === undefined) return ctx.violation(`choices[${position}] has no valid index: ${Core.show(raw["index"])}`)
    const choice = choiceAt(index)
    const delta = Core.obj(raw, "delta")
    if (delta !== undefined) applyDelta(choice, delta)
    const finish = Core.str(raw, "finish_reason")
    if (finish !== undefined && finish !== "" && choice.finishReason === null) choice.finishReason = finish
    const logprobs = Core.obj(raw, "logprobs")
    if (logprobs !== undefined) applyLogprobs(choice, logprobs)
    for (const k in raw) if (!choiceKeys.has(k)) keepLatest(choice.choiceExtra, k, raw[k])
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
    if (event["usage"] !== null && event["usage"] !== undefined) usage = event["usage"]
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
    const out: Obj = custom
      ? { id: t.id ?? "", type: t.type ?? "custom", custom: { name: t.name ?? "", input: t.text ?? "", ...t.fnExtra } }
      : { id: t.id ?? "", type: t.type ?? "function", function: { name: t.name ?? "", arguments: t.text ?? "", ...t.fnExtra } }
    if (t.extra !== undefined) for (const k in t.extra) Core.setKey(out, k, Core.clone(t.extra[k]))
    return out as unknown as Wire.ToolCall
  }

  const choiceOf = (c: ChoiceState, finishing: boolean): Wire.Choice => {
    const message: Obj = { role: c.role ?? "assistant", content: c.content, refusal: c.refusal }
    if (c.tools.size > 0) message["tool_calls"] = sortedKeys(c.tools).map((k) => toolCallOf(c.tools.get(k)!))
    if (c.functionCall !== undefined) message["function_call"] = { name: c.functionCall.name ?? "", arguments: c.functionCall.arguments }
    if (c.audio !== undefined) message["audio"] = { ...c.audio }
    for (const k in c.messageExtra) Core.setKey(message, k, Core.clone(c.messageExtra[k]))
    const finishReason = c.finishReason ?? (finishing && c.lastSetExpiresAt ? "stop" : null)
    const out: Obj = {
      index: c.index,
      message,
      finish_reason: finishReason,
      logprobs: c.logprobs === undefined ? null : { content: c.logprobs.content === null ? null : [...c.logprobs.content], refusal: c.logprobs.refusal === null ? null : [...c.logprobs.refusal], ...c.logprobs.extra }
    }
    for (const k in c.choiceExtra) Core.setKey(out, k, Core.clone(c.choiceExtra[k]))
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
      for (const choice of response.choices) {
        if (choice.finish_reason === null) cut.push(`choice ${choice.index} has no finish_reason`)
        if (choice.message.role !== "assistant") ctx.violation(`choice ${choice.index} is a ${JSON.stringify(choice.message.role)} message; a completion's message is the assistant's`)
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
