/**
 * Tool call ids a provider would reject, rewritten when a conversation is
 * written: Anthropic takes only letters, digits, `_` and `-`; Chat
 * Completions takes at most 40 characters, the Responses API 64 (longer ids
 * reach the writers from other SDKs and gateways, and from repairs).
 *
 * An id the provider takes is written as it is. Any other gets one it takes:
 * its characters outside the alphabet as `_`, and, when it is too long, a
 * readable prefix and a short hash of the whole id (so two long ids sharing
 * a prefix stay distinct). The new id is a function of the id alone, so a
 * result whose call was sent in an earlier request maps as its call did;
 * only when it meets another id of the conversation does it take a `_N`
 * suffix. The call and every result answering it get the same new id, and
 * each rewritten id is reported once.
 *
 * @internal
 */
import type * as Message from "../../Message.js"
import { quote } from "../../internal/preview.js"
import * as A from "./adapter.js"

/** What a provider takes as a tool call id. */
export interface IdRule {
  /** One character it does not take, when it does not take all (`/[^a-zA-Z0-9_-]/g`): each written as `_`. */
  readonly outside?: RegExp
  /**
   * How an id is written with its characters outside taken out, when not by
   * `outside` one match at a time (`rewritesOutside(outside)`, which is
   * faster for long ids, where a writer that has `outside` wants it).
   */
  readonly rewrite?: (id: string) => string
  /** The most UTF-16 code units it takes, when limited. */
  readonly maxLength?: number
  /** Why, in the warning: "(Anthropic ids are letters, digits, _ and -)". */
  readonly why: string
  /**
   * Whether the writer sends the id of this call or result at all (Chat's
   * deprecated single `function_call` and its `role: "function"` result go
   * without one); every id is sent when absent. A result of a call sent
   * without its id is taken to go without it too.
   */
  readonly sent?: (message: Message.Message, blockIndex: number) => boolean
}

/** Per conversion: the ids to write for the ids the provider would reject. */
const plans = new WeakMap<A.Ctx, ReadonlyMap<string, string>>()

/**
 * Plans the ids of a conversation: every id of a call or result the rule
 * rejects gets one it takes, unique in the conversation, reported once (at
 * the call, or at the first result when the call is not in the
 * conversation). Calls the provider ran itself keep their ids (they are its
 * own), and so do their results beside them in the assistant's message; a
 * result in a tool message is sent as a client result, so its id is planned.
 */
export const planIds = (ctx: A.Ctx, messages: ReadonlyArray<Message.Message>, rule: IdRule): void => {
  const outside = rule.outside === undefined ? undefined : new RegExp(rule.outside.source, rule.outside.flags.includes("g") ? rule.outside.flags : `${rule.outside.flags}g`)
  // a copy without "g", whose test keeps no state between ids
  const anyOutside = rule.outside === undefined ? undefined : new RegExp(rule.outside.source, rule.outside.flags.replace("g", ""))
  const fits = (id: string): boolean => (anyOutside === undefined || !anyOutside.test(id)) && (rule.maxLength === undefined || id.length <= rule.maxLength)
  const taken = new Set<string>()
  const calls: Array<Site> = []
  const results: Array<Site> = []
  /** The ids of calls the writer sends without one: their results go without one too (Chat's role "function"). */
  const unsent = new Set<string>()
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    for (let b = 0; b < m.content.length; b++) {
      const block = m.content[b]!
      const id = block._tag === "ToolCall" ? block.id : block._tag === "ToolResult" ? block.toolCallId : undefined
      if (id === undefined || id === "") continue
      if (fits(id)) taken.add(id)
      else if (rule.sent !== undefined && !rule.sent(m, b)) {
        if (block._tag === "ToolCall") unsent.add(id)
      } else if (block._tag === "ToolResult" && unsent.has(id)) continue
      else if (block._tag === "ToolCall" && block.providerExecuted !== true) calls.push({ id, index: i, blockIndex: b })
      // a result the provider ran sits in the assistant's message beside its call; in a tool message it is sent as any other
      else if (block._tag === "ToolResult" && (block.providerExecuted !== true || m.role === "tool")) results.push({ id, index: i, blockIndex: b })
    }
  }
  if (calls.length === 0 && results.length === 0) return
  const map = new Map<string, string>()
  // the next suffix to try per base: ids that all rewrite to one base ("a__") take _1, _2, ... without starting over
  const nextSuffix = new Map<string, number>()
  const assign = (site: Site, answered: boolean): void => {
    if (map.has(site.id)) return
    const clean = rule.rewrite?.(site.id) ?? (outside === undefined ? site.id : site.id.replace(outside, "_"))
    const tail = rule.maxLength !== undefined && clean.length > rule.maxLength ? `_${digest(site.id)}` : ""
    const base = tail === "" ? clean : `${clean}\u0000${tail}`
    const candidate = (suffix: string): string =>
      rule.maxLength === undefined ? `${clean}${tail}${suffix}` : `${prefix(clean, rule.maxLength - tail.length - suffix.length)}${tail}${suffix}`
    let out = candidate("")
    let n = nextSuffix.get(base) ?? 1
    while (taken.has(out)) out = candidate(`_${n++}`)
    nextSuffix.set(base, n)
    taken.add(out)
    map.set(site.id, out)
    if (answered) A.converted(ctx, site.index, site.blockIndex, `the tool call id ${quote(site.id, 400)}`, `as ${quote(out, 400)}, and in its results (${rule.why})`)
    else A.converted(ctx, site.index, site.blockIndex, `the tool call id ${quote(site.id, 400)} of a result whose call is not in the conversation`, `as ${quote(out, 400)}, the id its call is sent with (${rule.why})`)
  }
  for (const site of calls) assign(site, true)
  for (const site of results) assign(site, false)
  plans.set(ctx, map)
}

/**
 * What `id.replace(outside, "_")` gives (`outside` one character class, no
 * `u` or `v` flag), for a long id (a made-up id holding a 20 MB tool name)
 * a piece of 8,192 code units at a time, each code unit looked up once: one
 * regex match per character took seconds for a 20 MB id.
 */
export const rewritesOutside = (outside: RegExp) => (id: string): string => {
  if (id.length < 4096 || /[uvy]/.test(outside.flags) || !/^\[(?:\\.|[^\]\\])*\]$/.test(outside.source)) return id.replace(outside, "_")
  const probe = new RegExp(outside.source, outside.flags.replace("g", ""))
  // per code unit: 0 not looked up yet, 1 taken, 2 outside
  const units = new Uint8Array(65536)
  const codes = new Uint16Array(8192)
  const pieces: Array<string> = []
  for (let start = 0; start < id.length; start += codes.length) {
    const end = Math.min(id.length, start + codes.length)
    let changed = false
    for (let j = start; j < end; j++) {
      const code = id.charCodeAt(j)
      let known = units[code]!
      if (known === 0) {
        known = probe.test(String.fromCharCode(code)) ? 2 : 1
        units[code] = known
      }
      if (known === 2) {
        codes[j - start] = 95 // "_"
        changed = true
      } else {
        codes[j - start] = code
      }
    }
    pieces.push(changed ? String.fromCharCode.apply(null, codes.subarray(0, end - start) as unknown as Array<number>) : id.slice(start, end))
  }
  return pieces.join("")
}

/** The id to write for a call's or result's id, as `planIds` planned it. */
export const idFor = (ctx: A.Ctx, id: string): string => plans.get(ctx)?.get(id) ?? id

interface Site {
  readonly id: string
  readonly index: number
  readonly blockIndex: number
}

/**
 * A made-up id that no given one has: `base`, else `base_2`, `base_3`, ...,
 * the first that `taken` does not hold (which it then holds). The readers
 * name a call the payload gives no id by its place, and a payload may give
 * another call that very id.
 */
export const uniqueIn = (taken: Set<string>, base: string): string => {
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`
  taken.add(id)
  return id
}

/** The first `length` code units of `s`, one fewer rather than half a surrogate pair. */
export const prefix = (s: string, length: number): string => {
  if (length <= 0) return ""
  if (s.length <= length) return s
  const last = s.charCodeAt(length - 1)
  return s.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length)
}

/**
 * A short hash of a whole id, 11 letters and digits (about 52 bits): two
 * 32-bit FNV-1a passes with different offsets and multipliers, each
 * finished with Murmur3's mixer. Fixed, so an id is rewritten the same way
 * in every request and every version.
 */
export const digest = (id: string): string => {
  let a = 0x811c9dc5
  let b = 0x9e3779b9
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return (mix(a) >>> 0).toString(36).padStart(7, "0") + ((mix(b) >>> 0) % 1679616).toString(36).padStart(4, "0")
}

const mix = (h: number): number => {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}
