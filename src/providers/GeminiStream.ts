/**
 * Accumulates a Gemini `streamGenerateContent` stream (a sequence of
 * `GenerateContentResponse` chunks) into one `GenerateContentResponse`, as
 * `generateContent` would have returned it.
 *
 * **How chunks add up**
 *
 * - Candidates are kept by `index` (a chunk's candidate without `index` is
 *   taken by its position, so a single-candidate stream is candidate 0).
 * - Parts are appended in order, and a text part is merged into the part
 *   before it when both are plain text parts (only `text` and `thought`),
 *   with the same `thought` flag, and neither has a `thoughtSignature`:
 *   the texts are concatenated. A signed part, or a part with any other
 *   field, starts a new part, so no part-level field is lost or moved. A
 *   signature that comes on an empty text part at the end of the stream
 *   (as Gemini sends it) stays on that part, as a complete response of
 *   those parts holds it and as Google's SDK replays it: Google's guide
 *   says not to merge a part with a signature into one without.
 * - Function calls are never merged: each `functionCall` part (with its
 *   `id` and `thoughtSignature`) is kept as sent, also two calls of the
 *   same function. When the arguments stream (`partialArgs` with
 *   `willContinue: true`), the following fragments are folded into that
 *   call's `args` by `jsonPath` (strings marked `willContinue` are
 *   concatenated) until a fragment without `willContinue`; the final part
 *   has `args` and no streaming fields. The call keeps the signature of
 *   its first part: a fragment that brings another `thoughtSignature` is a
 *   protocol error (the error's event holds it). A fragment names no function (or
 *   carries that call's own `id`): a part that names one, or has another
 *   `id`, is a new call, and one that begins while the arguments before
 *   it still stream is reported as a protocol error (both calls are in
 *   the partial response). A `functionCall: {}` (no name, id or
 *   arguments) when no call's arguments stream closes no call: read as
 *   one, it would be a call without a name, which the API rejects. It is
 *   a protocol error naming it, and the partial response keeps it as sent.
 * - Candidate fields: `finishReason`, `finishMessage`, `safetyRatings`
 *   and the others take the last value sent; `citationMetadata.citations`
 *   add up: a citation equal to one already kept (a chunk that resends
 *   those so far) is not added again, any other is appended (a chunk that
 *   cites one source twice keeps both; citations that are not a list are a
 *   protocol error). `groundingMetadata` and `urlContextMetadata` add up, for
 *   chunks that resend all so far and chunks that send only what is new:
 *   a list that extends the one so far replaces it, any other list adds
 *   the elements it does not have yet (`groundingChunks` are added whole,
 *   as `groundingSupports` name them by place), objects merge key by key,
 *   other values sent win, and what only an earlier chunk sent is kept.
 * - Response fields (`usageMetadata`, `modelVersion`, `responseId`,
 *   `promptFeedback`, unknown ones): the last value sent.
 * - A chunk holding an `error` becomes a `ProviderStreamError`; what else
 *   it carries (candidates, usage) is accumulated first, so the error's
 *   partial response includes it.
 * - Fields are read in either spelling of proto3 JSON (`finishReason` or
 *   `finish_reason`, `partialArgs` or `partial_args`..., as Python clients
 *   record chunks), and the response keeps the spelling they came in.
 *
 * **Ending**: complete when every candidate has a `finishReason` (or no
 * candidate came and `promptFeedback.blockReason` says why). Otherwise
 * `done()` reports `IncompleteStream`, also for a function call whose
 * arguments were still streaming.
 *
 * @example
 * import { GeminiStream } from "effect-agent-messages/providers"
 *
 * const acc = GeminiStream.make()
 * // for await (const chunk of await ai.models.generateContentStream({ ... })) acc.push(chunk)
 * const result = acc.done()
 *
 * @since 0.1.0
 */
import * as Core from "./internal/core.js"
import { eitherSpelling } from "./internal/geminiSpelling.js"
import { runners, type StreamAccumulator } from "./StreamAccumulator.js"
import type * as Wire from "./GeminiWire.js"

type Obj = Core.Obj

interface Streaming {
  readonly part: Obj // the functionCall part being completed
  readonly call: Obj // its functionCall, owned
  readonly snake: boolean // the call came as function_call: its leftover fragments go back as partial_args
  readonly continuing: Set<string> // the paths (their parsed keys, as JSON) whose string values continue: `willContinue` is per path
  leftover: Array<unknown> // fragments whose jsonPath could not be read
}

interface CandidateState {
  readonly index: number
  readonly fields: Obj
  readonly content: Obj // content fields other than parts
  readonly parts: Array<Obj>
  citations: Array<unknown> | undefined
  citationsKey: string // citationMetadata, or citation_metadata as it came
  readonly citationCounts: Map<string, number> // how many of the citations kept have each JSON text
  streaming: Streaming | undefined
}

/**
 * A field the accumulator reads, under either spelling of proto3 JSON
 * (`finishReason` or `finish_reason`, as Python clients record chunks): the
 * lowerCamelCase one unless it is absent or null, as `Gemini` reads them.
 */
const field: (o: Obj, camel: string, snake: string) => unknown = eitherSpelling

const strField = (o: Obj, camel: string, snake: string): string | undefined => {
  const v = field(o, camel, snake)
  return typeof v === "string" ? v : undefined
}

/** The key of a part's function call as it came (`functionCall` or `function_call`), when it holds one. */
const callKeyOf = (part: Obj): string | undefined =>
  Core.isObj(part["functionCall"]) ? "functionCall" : Core.isObj(part["function_call"]) ? "function_call" : undefined

const partialArgsOf = (call: Obj): ReadonlyArray<unknown> | undefined => {
  const v = field(call, "partialArgs", "partial_args")
  return Array.isArray(v) ? v : undefined
}

const continues = (o: Obj): boolean => field(o, "willContinue", "will_continue") === true

/** Whether a function-call field is absent: proto3 JSON may send an unset string as null or "". */
const unset = (v: unknown): boolean => v === undefined || v === null || v === ""

/**
 * Whether `fc` is the next fragment of `call`, whose arguments are streaming, rather than a call of its own. Vertex
 * names a call on its first part only, and parallel calls often call the same function, so a name starts a new call
 * (unless the part carries the streaming call's own id), and so does an id that is not the streaming call's.
 */
const isFragmentOf = (fc: Obj, call: Obj): boolean => {
  const id = fc["id"]
  if (unset(id)) return unset(fc["name"])
  return id === call["id"] && (unset(fc["name"]) || fc["name"] === call["name"])
}

/**
 * Whether a function call part carries nothing: no name, id or arguments (an empty `args` or `partialArgs` is none),
 * at most a `willContinue: false`. It can only be the closing fragment of a call whose arguments stream.
 */
const isEmptyCall = (fc: Obj): boolean => {
  for (const k in fc) {
    const v = fc[k]
    if (unset(v) || v === false) continue
    if ((k === "args" && Core.isObj(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0)) continue
    return false
  }
  return true
}

/** A function call's fields that only stream its arguments, in either spelling. */
const streamingKeys = new Set(["partialArgs", "partial_args", "willContinue", "will_continue"])

const plainTextKeys = new Set(["text", "thought", "thoughtSignature", "thought_signature"])

/** Whether a part has a `thoughtSignature`, in either spelling (an explicit null too: merged, it would be moved or lost). */
const isSigned = (part: Obj): boolean => part["thoughtSignature"] !== undefined || part["thought_signature"] !== undefined

const isPlainText = (part: Obj): boolean => {
  if (typeof part["text"] !== "string") return false
  for (const k in part) if (!plainTextKeys.has(k)) return false
  return true
}

/** Reads `$.a.b[0]['c d']` into keys and indices; `undefined` when it is not such a path. */
const parsePath = (path: string): Array<string | number> | undefined => {
  if (!path.startsWith("$")) return undefined
  const out: Array<string | number> = []
  let i = 1
  while (i < path.length) {
    const c = path[i]
    if (c === ".") {
      let j = i + 1
      while (j < path.length && path[j] !== "." && path[j] !== "[") j++
      if (j === i + 1) return undefined
      out.push(path.slice(i + 1, j))
      i = j
    } else if (c === "[") {
      const q = path[i + 1]
      if (q === "'" || q === '"') {
        let j = i + 2
        let key = ""
        while (j < path.length && path[j] !== q) {
          if (path[j] === "\\" && j + 1 < path.length) j++
          key += path[j]
          j++
        }
        if (path[j + 1] !== "]") return undefined
        out.push(key)
        i = j + 2
      } else {
        const j = path.indexOf("]", i)
        if (j < 0) return undefined
        const n = Number(path.slice(i + 1, j))
        if (!Number.isInteger(n) || n < 0 || n > Core.MAX_INDEX) return undefined
        out.push(n)
        i = j + 1
      }
    } else return undefined
  }
  return out
}

const valueOf = (arg: Obj): { readonly value: unknown } | undefined => {
  const text = field(arg, "stringValue", "string_value")
  if (typeof text === "string") return { value: text }
  const number = field(arg, "numberValue", "number_value")
  if (typeof number === "number") return { value: number }
  const bool = field(arg, "boolValue", "bool_value")
  if (typeof bool === "boolean") return { value: bool }
  if (field(arg, "nullValue", "null_value") !== undefined) return { value: null }
  return undefined
}

/** Candidate fields whose chunks add up (grounding and URL context metadata), in either spelling. */
const mergedFields = new Set(["groundingMetadata", "grounding_metadata", "urlContextMetadata", "url_context_metadata"])

/** The lists whose elements other lists point at by index: appended whole, so those indices keep pointing right. */
const indexedLists = new Set(["groundingChunks", "grounding_chunks"])

/** The elements of each merged list, as JSON text: what a chunk that sends only what is new is checked against. */
const seenOf = new WeakMap<Array<unknown>, Set<string>>()

/** An element's JSON text, or `undefined` for one that has none (a cycle, a BigInt): compared element by element. */
const keyOf = (value: unknown): string | undefined => {
  try {
    return JSON.stringify(value)
  } catch {
    return undefined
  }
}

/**
 * A candidate's metadata, merged in place with a later chunk's (the accumulator's own copy: `snapshot` clones it): a
 * list that extends the one so far (a chunk that resends all so far) replaces it; any other list adds its elements
 * that are not there yet (a chunk that sends only what is new), except `groundingChunks`, added whole, since
 * `groundingSupports` name them by place; objects merge key by key; any other value sent wins. A field only an
 * earlier chunk sent is kept. Each chunk costs what it holds (and, for a resent whole, what it replaces), so a stream
 * of many chunks of new supports stays linear.
 */
const mergeMetadata = (out: Obj, after: Obj): Obj => {
  for (const k in after) {
    const v = after[k]
    if (v === undefined || v === null) continue
    const prev = out[k]
    if (Array.isArray(v) && Array.isArray(prev)) {
      const next = Core.elements(v)
      const extends_ = prev.length <= next.length && prev.every((p, i) => Core.sameJson(p, next[i]))
      if (extends_) Core.setKey(out, k, Core.clone(next))
      else if (indexedLists.has(k)) for (const e of next) prev.push(Core.clone(e))
      else {
        let seen = seenOf.get(prev)
        if (seen === undefined) {
          seen = new Set()
          for (const p of prev) {
            const key = keyOf(p)
            if (key !== undefined) seen.add(key)
          }
          seenOf.set(prev, seen)
        }
        for (const e of next) {
          const key = keyOf(e)
          if (key !== undefined ? seen.has(key) : prev.some((p) => Core.sameJson(p, e))) continue
          if (key !== undefined) seen.add(key)
          prev.push(Core.clone(e))
        }
      }
    } else if (Core.isObj(v) && Core.isObj(prev)) mergeMetadata(prev, v)
    else Core.setKey(out, k, Core.clone(v))
  }
  return out
}

/**
 * Adds a chunk's citations to those kept: a citation equal to one already kept (a chunk that resends the citations so
 * far, or some of them) is not added again, any other is appended. Equal citations within one chunk are counted, so a
 * chunk that cites the same source twice keeps both, and a later chunk resending both adds neither. Each chunk costs
 * what it holds.
 */
const addCitations = (c: CandidateState, citations: ReadonlyArray<unknown>): void => {
  const kept = c.citations ?? (c.citations = [])
  const inChunk = new Map<string, number>()
  for (const citation of citations) {
    const key = keyOf(citation)
    // one without JSON text (a cycle, a BigInt) cannot be a resent one: it is kept
    if (key === undefined) {
      kept.push(Core.clone(citation))
      continue
    }
    const n = (inChunk.get(key) ?? 0) + 1
    inChunk.set(key, n)
    const had = c.citationCounts.get(key) ?? 0
    if (n <= had) continue
    c.citationCounts.set(key, had + 1)
    kept.push(Core.clone(citation))
  }
}

const make_ = (ctx: Core.Context): Core.Format<Wire.GenerateContentResponse> => {
  let chunks = 0
  const top: Obj = {}
  const candidates = new Map<number, CandidateState>()

  /** Folds streamed argument fragments into the call's `args`. */
  const foldArgs = (s: Streaming, fragments: ReadonlyArray<unknown>): void => {
    for (const fragment of Core.elements(fragments)) {
      if (!Core.isObj(fragment)) continue
      const path = strField(fragment, "jsonPath", "json_path")
      const keys = path === undefined ? undefined : parsePath(path)
      const v = valueOf(fragment)
      if (keys === undefined || keys.length === 0 || v === undefined) {
        ctx.violation(`a streamed function-call argument with an unreadable jsonPath or value: ${Core.show(fragment)}`)
        s.leftover.push(fragment)
        continue
      }
      const args = s.call["args"]
      const unfit = args !== undefined && args !== null && !Core.isObj(args) ? "is for arguments that are not an object" : unfitPath(args ?? {}, keys)
      if (unfit !== undefined) {
        ctx.violation(`a streamed function-call argument whose jsonPath ${unfit}: ${Core.show(fragment)}`)
        s.leftover.push(fragment)
        continue
      }
      let at: Obj | Array<unknown> = Core.obj(s.call, "args") ?? (s.call["args"] = {})
      for (let k = 0; k < keys.length - 1; k++) {
        const key = keys[k]!
        // own values only: "$.__proto__.x" must write into the arguments, never into Object.prototype
        const next = Object.hasOwn(at, key) ? (at as Obj)[key as string] : undefined
        if (typeof next === "object" && next !== null) at = next as Obj
        else {
          const made = typeof keys[k + 1] === "number" ? [] : {}
          Core.setKey(at as Obj, String(key), made)
          at = made
        }
      }
      const last = String(keys[keys.length - 1])
      const prev = (at as Obj)[last]
      const where = JSON.stringify(keys)
      const value = s.continuing.has(where) && typeof prev === "string" && typeof v.value === "string" ? prev + v.value : v.value
      Core.setKey(at as Obj, last, value)
      if (continues(fragment) && typeof v.value === "string") s.continuing.add(where)
      else s.continuing.delete(where)
    }
  }

  /**
   * Why writing at `keys` from `root` would not give the arguments a place for the value without losing any, or
   * `undefined` when it would: each index at most the length of its list (0 for a new one), no name in a list (its
   * `length` would cut it), and no value on the way, which would be replaced by a list or an object.
   */
  const unfitPath = (root: Obj, keys: ReadonlyArray<string | number>): string | undefined => {
    let at: unknown = root
    for (const key of keys) {
      // a place not yet written (or null: absent, as proto3 JSON reads it) is made as a list or an object
      if (at !== undefined && at !== null && typeof at !== "object") return "goes through a value the arguments already hold"
      if (typeof key === "number") {
        // an index past the end of its list would leave holes (and "[1048575]" a million of them): no JSON value has any
        if (key > (Array.isArray(at) ? at.length : 0)) return "skips list elements"
      } else if (Array.isArray(at)) return "names a key in a list"
      at = typeof at === "object" && at !== null && Object.hasOwn(at, key) ? (at as Obj)[key as string] : undefined
    }
    return undefined
  }

  const finishStreaming = (c: CandidateState): void => {
    const s = c.streaming
    if (s === undefined) return
    for (const k of streamingKeys) delete s.call[k]
    if (s.leftover.length > 0) s.call[s.snake ? "partial_args" : "partialArgs"] = s.leftover
    c.streaming = undefined
  }

  const applyPart = (c: CandidateState, part: unknown): void => {
    if (!Core.isObj(part)) return ctx.violation(`a part is not an object: ${Core.show(part)}`)
    // a text of another kind is said (it stays in the partial response as its part)
    if (part["text"] !== undefined && part["text"] !== null && typeof part["text"] !== "string") ctx.violation(`candidate ${c.index}: a part's text is not a string: ${Core.show(part["text"])}`)
    const callKey = callKeyOf(part)
    if (callKey !== undefined) {
      const fc = part[callKey] as Obj
      const s = c.streaming
      if (s !== undefined && isFragmentOf(fc, s.call)) {
        // the next fragment of the call whose arguments are streaming
        for (const k in fc) {
          if (streamingKeys.has(k)) continue
          if (k === "args" && Core.isObj(fc[k])) for (const a in fc[k] as Obj) Core.setKey(Core.obj(s.call, "args") ?? (s.call["args"] = {}), a, Core.clone((fc[k] as Obj)[a]))
          else if (fc[k] !== undefined && fc[k] !== null && fc[k] !== "") Core.setKey(s.call, k, Core.clone(fc[k]))
        }
        for (const k in part) {
          if (k === callKey || part[k] === undefined) continue
          // a signature belongs to the content before it: one a later fragment brings never replaces the call's own
          if ((k === "thoughtSignature" || k === "thought_signature") && s.part[k] !== undefined && s.part[k] !== null && !Core.sameJson(s.part[k], part[k])) {
            ctx.violation(`candidate ${c.index}: a fragment of function call ${Core.str(s.call, "name") ?? "(unnamed)"} brings another ${k} (the call keeps its first)`)
            continue
          }
          Core.setKey(s.part, k, Core.clone(part[k]))
        }
        foldArgs(s, partialArgsOf(fc) ?? [])
        if (!continues(fc)) finishStreaming(c)
        return
      }
      if (s !== undefined) {
        ctx.violation(`candidate ${c.index}: a new function call began while ${Core.str(s.call, "name") ?? "another"}'s arguments were still streaming`)
        finishStreaming(c)
      } else if (isEmptyCall(fc)) {
        // a fragment that closes a call when none streams: read as a call, it would have no name (the API answers a
        // call without one with a 400); it stays in the partial response as sent
        ctx.violation(`candidate ${c.index}: an empty ${callKey} (no name, id or arguments) while no call's arguments were streaming`)
      }
      // what is kept is a copy, the call's too: changing a chunk after pushing it changes nothing
      const copy = Core.clone(part)
      const call = copy[callKey] as Obj
      delete call["partialArgs"]
      delete call["partial_args"]
      if (continues(fc) || field(fc, "partialArgs", "partial_args") !== undefined) {
        const streaming: Streaming = { part: copy, call, snake: callKey === "function_call", continuing: new Set(), leftover: [] }
        c.streaming = streaming
        foldArgs(streaming, partialArgsOf(fc) ?? [])
        if (!continues(fc)) finishStreaming(c)
      }
      c.parts.push(copy)
      return
    }
    const last = c.parts[c.parts.length - 1]
    // a signed part is never merged, into the part before it or with the next: the signature stays where it came
    if (
      last !== undefined &&
      isPlainText(part) &&
      isPlainText(last) &&
      (last["thought"] === true) === (part["thought"] === true) &&
      !isSigned(last) &&
      !isSigned(part)
    ) {
      last["text"] = (last["text"] as string) + (part["text"] as string)
      if (part["thought"] !== undefined && last["thought"] === undefined) last["thought"] = part["thought"]
      return
    }
    c.parts.push(Core.clone(part))
  }

  const applyCandidate = (raw: unknown, position: number): void => {
    if (!Core.isObj(raw)) return ctx.violation(`candidates[${position}] is not an object`)
    const given = raw["index"]
    const index = Core.index(raw, "index") ?? position
    // an index that is no candidate number would be taken for the candidate's place, and could join two candidates
    if (given !== undefined && given !== null && Core.index(raw, "index") === undefined) {
      ctx.violation(`candidates[${position}] has no valid index: ${Core.show(given)} (read as ${position})`)
    }
    const finish = raw["finishReason"] ?? raw["finish_reason"]
    if (finish !== undefined && finish !== null && typeof finish !== "string") ctx.violation(`candidate ${index}: finishReason is not a string: ${Core.show(finish)}`)
    let c = candidates.get(index)
    if (c === undefined) {
      c = { index, fields: {}, content: {}, parts: [], citations: undefined, citationsKey: "citationMetadata", citationCounts: new Map(), streaming: undefined }
      candidates.set(index, c)
    }
    for (const k in raw) {
      const v = raw[k]
      if (k === "content") {
        if (v === undefined || v === null) continue
        // (content of another kind is said, and kept in the partial response as the candidate's field)
        if (!Core.isObj(v)) {
          ctx.violation(`candidate ${c.index}: content is not an object: ${Core.show(v)}`)
          Core.setKey(c.fields, k, Core.clone(v))
          continue
        }
        for (const ck in v) {
          if (ck === "parts") {
            const parts = v[ck]
            if (Array.isArray(parts)) for (const p of Core.elements(parts)) applyPart(c, p)
            else if (parts !== undefined && parts !== null) {
              ctx.violation(`candidate ${c.index}: content.parts is not an array: ${Core.show(parts)}`)
              Core.setKey(c.content, ck, Core.clone(parts))
            }
          } else if (v[ck] !== undefined && v[ck] !== null && v[ck] !== "") Core.setKey(c.content, ck, Core.clone(v[ck]))
        }
      } else if ((k === "citationMetadata" || k === "citation_metadata") && Core.isObj(v) && Array.isArray(v["citations"])) {
        // kept under the spelling of the first that came
        if (c.citations === undefined) c.citationsKey = k
        c.citations ??= []
        addCitations(c, Core.elements(v["citations"]))
        for (const ck in v) if (ck !== "citations") Core.setKey(c.fields, c.citationsKey, { ...Core.obj(c.fields, c.citationsKey), [ck]: v[ck] })
      } else if (mergedFields.has(k) && Core.isObj(v) && Core.isObj(c.fields[k])) Core.setKey(c.fields, k, mergeMetadata(c.fields[k] as Obj, v))
      else if ((k === "citationMetadata" || k === "citation_metadata") && Core.isObj(v) && v["citations"] !== undefined && v["citations"] !== null) {
        // citations that are not a list: kept as sent in the partial response, which a later list would replace
        ctx.violation(`candidate ${c.index}: ${k}.citations is not a list: ${Core.show(v["citations"])}`)
        Core.setKey(c.fields, k, Core.clone(v))
      }
      else if (v !== undefined && v !== null) Core.setKey(c.fields, k, Core.clone(v))
    }
  }

  const apply = (event: unknown): void => {
    if (!Core.isObj(event)) return ctx.violation(`a chunk is not an object: ${Core.show(event)}`)
    const error = Core.obj(event, "error")
    // a chunk that is only an error starts no response; what an error chunk also carries is added first
    let counted = error === undefined
    if (counted) chunks++
    for (const k in event) {
      if (k === "error" && error !== undefined) continue
      const v = event[k]
      if (!counted && v !== undefined && v !== null) {
        counted = true
        chunks++
      }
      if (k === "candidates") {
        if (Array.isArray(v)) {
          const each = Core.elements(v)
          for (let i = 0; i < each.length; i++) applyCandidate(each[i], i)
        }
        else if (v !== undefined) ctx.violation(`candidates is not an array: ${Core.show(v)}`)
      } else if (v !== undefined && v !== null) Core.setKey(top, k, Core.clone(v))
    }
    if (error !== undefined) {
      // Gemini's code is a number (429); any other value is written bounded, as String() of a deeply nested array overflows
      const raw = error["code"]
      const code = raw === undefined ? undefined : typeof raw === "number" || typeof raw === "string" ? String(raw) : Core.show(raw)
      ctx.providerError({
        errorType: Core.str(error, "status") ?? code ?? "error",
        errorMessage: Core.str(error, "message") ?? "",
        ...(code === undefined ? {} : { code }),
        error
      })
    }
  }

  const candidateOf = (c: CandidateState): Wire.Candidate => {
    const content = Core.clone(c.content)
    content["parts"] = Core.clone(c.parts)
    const out: Obj = { content }
    for (const k in c.fields) Core.setKey(out, k, Core.clone(c.fields[k]))
    if (c.citations !== undefined) out[c.citationsKey] = { ...Core.clone(Core.obj(c.fields, c.citationsKey)), citations: Core.clone(c.citations) }
    return out as Wire.Candidate
  }

  const build = (): Wire.GenerateContentResponse | undefined => {
    if (chunks === 0) return undefined
    const out: Obj = {}
    if (candidates.size > 0) out["candidates"] = [...candidates.keys()].sort((a, b) => a - b).map((k) => candidateOf(candidates.get(k)!))
    for (const k in top) Core.setKey(out, k, Core.clone(top[k]))
    return out as Wire.GenerateContentResponse
  }

  return {
    apply,
    snapshot: build,
    finish: () => {
      const response = build()
      if (response === undefined) return { response, cut: ["no chunk arrived"] }
      const cut: Array<string> = []
      if (candidates.size === 0) {
        const feedback = field(top, "promptFeedback", "prompt_feedback")
        if (!Core.isObj(feedback) || strField(feedback, "blockReason", "block_reason") === undefined) cut.push("no candidate arrived")
      }
      for (const c of candidates.values()) {
        if (strField(c.fields, "finishReason", "finish_reason") === undefined) cut.push(`candidate ${c.index} has no finishReason`)
        if (c.streaming !== undefined) cut.push(`candidate ${c.index}: the arguments of function call ${Core.str(c.streaming.call, "name") ?? "(unnamed)"} were still streaming`)
      }
      return { response, cut }
    }
  }
}

/**
 * A Gemini stream accumulator.
 *
 * @since 0.1.0
 */
export type Accumulator = StreamAccumulator<Wire.StreamEvent, Wire.GenerateContentResponse>

/**
 * Makes an empty accumulator.
 *
 * @example
 * const chunks: ReadonlyArray<GeminiWire.GenerateContentResponse> = [
 *   { candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] } }], modelVersion: "gemini-2.5-flash" },
 *   { candidates: [{ content: { role: "model", parts: [{ text: "lo!" }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } }
 * ]
 * const acc = GeminiStream.make()
 * acc.push(chunks[0]!)
 * acc.snapshot()?.candidates?.[0]?.content?.parts // [{ text: "Hel" }]
 * acc.push(chunks[1]!)
 * const result = acc.done()
 * if (result._tag === "Success") result.success.candidates?.[0]?.content?.parts // [{ text: "Hello!" }]
 *
 * @since 0.1.0
 */
export const make = (): Accumulator => Core.makeAccumulator<Wire.StreamEvent, Wire.GenerateContentResponse>("gemini", make_)

const run = runners(make)

/**
 * Accumulates an Effect `Stream` of chunks.
 *
 * @example
 * const chunks: ReadonlyArray<GeminiWire.GenerateContentResponse> = [
 *   { candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] } }], modelVersion: "gemini-2.5-flash" },
 *   { candidates: [{ content: { role: "model", parts: [{ text: "lo!" }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } }
 * ]
 * const response = yield* GeminiStream.fromStream(Stream.fromIterable(chunks))
 * response.usageMetadata?.promptTokenCount // 5
 *
 * @since 0.1.0
 */
export const fromStream = run.fromStream

/**
 * Accumulates an Effect `Stream` of raw SSE text or bytes (a response body
 * of `streamGenerateContent?alt=sse`).
 *
 * @example
 * const body = [
 *   'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]}}],"modelVersion":"gemini-2.5-flash"}',
 *   'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"lo!"}]},"finishReason":"STOP"}]}'
 * ].join("\r\n\r\n") + "\r\n\r\n"
 * const response = yield* GeminiStream.fromSseStream(Stream.make(new TextEncoder().encode(body)))
 * response.candidates?.[0]?.finishReason // "STOP"
 *
 * @since 0.1.0
 */
export const fromSseStream = run.fromSseStream

/**
 * Accumulates an iterable of chunks.
 *
 * @example
 * const chunks: ReadonlyArray<GeminiWire.GenerateContentResponse> = [
 *   { candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] } }], modelVersion: "gemini-2.5-flash" },
 *   { candidates: [{ content: { role: "model", parts: [{ text: "lo!" }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } }
 * ]
 * const error = yield* Effect.flip(GeminiStream.fromEvents(chunks.slice(0, 1)))
 * error._tag // "IncompleteStream": the candidate has no finishReason
 *
 * @since 0.1.0
 */
export const fromEvents = run.fromEvents

/**
 * Accumulates a whole SSE text, or its pieces.
 *
 * @example
 * const body = [
 *   'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]}}],"modelVersion":"gemini-2.5-flash"}',
 *   'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"lo!"}]},"finishReason":"STOP"}]}'
 * ].join("\r\n\r\n") + "\r\n\r\n"
 * const response = yield* GeminiStream.fromSse(body)
 * response.modelVersion // "gemini-2.5-flash"
 *
 * @since 0.1.0
 */
export const fromSse = run.fromSse
