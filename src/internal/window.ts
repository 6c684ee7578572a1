/**
 * The window's planner: where to cut a conversation so that what is kept
 * fits a budget and stays valid, in one pass over prefix sums.
 *
 * The conversation is read as units: one message that is not a tool message
 * plus the tool messages right after it (and a system message between two of
 * them, an agent's reminder among a call's results). That is exactly `Conversation.turnsOf`'s
 * partition (a property test holds the two together), read here from roles
 * alone because no pairing is needed: in a valid conversation every call is
 * answered inside its own unit, so dropping whole units never separates a
 * call from its results. A broken one may answer a call in a later unit;
 * `boundCuts` keeps such units together.
 *
 * A plan keeps every pinned unit and every unit from a cut `c` on; the other
 * units before `c` are dropped. Since the kept cost can only grow as `c`
 * moves back, the smallest valid `c` that fits is found by walking back from
 * the pinned tail until the budget is exceeded: the work after estimation is
 * proportional to what is kept.
 *
 * A cut is valid when the kept units still meet where they now touch: the
 * last pinned unit before the cut and the first kept unit after it must not
 * make two user (or two plain assistant) messages in a row, and for
 * Anthropic and Gemini the conversation must still open with a user message
 * when anything before its first message was dropped.
 *
 * @internal
 */
import { absurd } from "../Block.js"
import type * as Message from "../Message.js"
import { isReasoningItem } from "./responsesItems.js"
import { isSummaryMessage } from "./summaryMark.js"
import { systemRunBetweenResults } from "./systemRun.js"

/** What a unit starts with. */
export const SYSTEM = 0
export const USER = 1
export const ASSISTANT = 2
export const TOOL = 3

/** What a unit leaves behind for the next one: nothing (a system unit), a user or assistant message, or tool results (anything may follow). */
export const TRANSPARENT = 0
export const OPEN = 3

const roleCode = (role: Message.Role): number => (role === "system" ? SYSTEM : role === "user" ? USER : role === "assistant" ? ASSISTANT : TOOL)

/** The units of a conversation: `start[u]` .. `start[u + 1]`, with what each starts with and leaves behind. */
export interface Units {
  readonly count: number
  readonly start: Int32Array
  readonly entry: Uint8Array
  readonly exit: Uint8Array
}

export const unitsOf = (messages: ReadonlyArray<Message.Message>): Units => {
  const n = messages.length
  const start = new Int32Array(n + 1)
  const entry = new Uint8Array(n)
  const exit = new Uint8Array(n)
  let count = 0
  for (let i = 0; i < n; i++) {
    const code = roleCode(messages[i]!.role)
    if (code === TOOL && count > 0) {
      exit[count - 1] = OPEN
      continue
    }
    // a system message among a call's results belongs to that call's unit
    const next = systemRunBetweenResults(messages, i)
    if (next !== -1) {
      i = next - 1
      continue
    }
    start[count] = i
    entry[count] = code
    exit[count] = code === SYSTEM ? TRANSPARENT : code === TOOL ? OPEN : code
    count++
  }
  start[count] = n
  return { count, start, entry, exit }
}

/**
 * The units with each message of no content (`content: []`) joined to the unit before it when that one ends with its
 * role (a user message, or tool results after one: both user content to Anthropic). Anthropic takes an empty message
 * inside a run of its role, which it merges into one, and refuses it alone: a cut between the two would keep it alone
 * (as the newest user message), where the input was valid. Joining units only takes cuts away, so every other
 * guarantee holds as it was. (One that opens a run may be dropped alone, and is never the first user message
 * `pinFirstUser` keeps: see `layoutOf`.)
 */
const withEmptyJoined = (messages: ReadonlyArray<Message.Message>, units: Units): Units => {
  const { count, start, entry, exit } = units
  const joins = (u: number, before: number): boolean =>
    start[u + 1]! - start[u]! === 1 && messages[start[u]!]!.content.length === 0 &&
    (entry[u] === USER || entry[u] === ASSISTANT) && (before === entry[u] || (entry[u] === USER && before === OPEN))
  let any = false
  for (let u = 1; u < count && !any; u++) any = joins(u, exit[u - 1]!)
  if (!any) return units
  const outStart = new Int32Array(count + 1)
  const outEntry = new Uint8Array(count)
  const outExit = new Uint8Array(count)
  let n = 0
  for (let u = 0; u < count; u++) {
    if (n > 0 && joins(u, outExit[n - 1]!)) continue
    outStart[n] = start[u]!
    outEntry[n] = entry[u]!
    outExit[n] = exit[u]!
    n++
  }
  outStart[n] = start[count]!
  return { count: n, start: outStart.subarray(0, n + 1), entry: outEntry.subarray(0, n), exit: outExit.subarray(0, n) }
}

/** How the cut may be placed. */
export type Mode = "drop_oldest" | "drop_oldest_pair" | "summarize"

/** Clearing: which messages may be cleared, and what they cost once cleared (computed lazily, at most once each). */
export interface Clearing {
  /** The cost of message `i` once cleared, or -1 when clearing it would save nothing (or it may not be cleared). */
  readonly clearedCost: (i: number) => number
}

export interface PlanInput {
  readonly estimates: ReadonlyArray<number>
  readonly total: number
  readonly available: number
  /** The dropping strategy, or undefined when only clearing is allowed. */
  readonly mode: Mode | undefined
  readonly clearing: Clearing | undefined
  /** Whether the kept conversation must open with a user message (Anthropic, Gemini). */
  readonly startWithUser: boolean
  /** Gemini: system text only at the start, so a summary can be a system message only there. */
  readonly systemOnlyAtStart: boolean
  /** Tokens the summary should have room for (summarize only). */
  readonly summaryTokens: number
  /** Tokens the shortest possible summary message costs: a summarizing cut always leaves at least this much room. */
  readonly summaryFloor: number
}

/** Units with what is pinned. */
export interface Layout extends Units {
  /** The unit that starts the pinned tail (the newest user message, or without one the newest that is not a system message). */
  readonly tail: number
  /** Pinned units (system, tail, first user, marked). */
  readonly pinned: Uint8Array
  /** Units the caller marked: kept whole and never cleared. */
  readonly marked: Uint8Array
  /** The pinned units before the tail, in order (usually few: system messages, the task, marked units). */
  readonly pinnedBeforeTail: Int32Array
  /** The first unpinned unit before the tail (the cut that keeps everything), or the tail when there is none. */
  readonly keepAll: number
  /** Cuts that would part a call from its result (only in a conversation that was invalid to begin with). */
  readonly bound: Uint8Array
}

/** The role of a summary message at a cut. */
export type SummaryRole = "system" | "assistant"

export type Plan =
  | {
    readonly _tag: "Fits"
    /** The first kept unit after the pinned units before it (0: nothing dropped). */
    readonly cut: number
    /** Clearable messages with an index below this are cleared: in the pinned units before the cut and from the cut on. */
    readonly clearBelow: number
    /** Tokens of the kept messages, clearing applied (the summary not included). */
    readonly kept: number
    readonly summaryRole: SummaryRole | undefined
    readonly units: Layout
  }
  | { readonly _tag: "TooSmall"; readonly minimum: number }

/** Reads units, the pinned tail and the caller's pins. */
export const layoutOf = (
  messages: ReadonlyArray<Message.Message>,
  pinFirstUser: boolean,
  pin: ((message: Message.Message, index: number) => boolean) | undefined,
  unreasoned?: ReadonlySet<number>
): Layout => {
  const units = withEmptyJoined(messages, unitsOf(messages))
  const { count, entry, start } = units
  // the newest user message; without one, the newest message that is not a system message (a conversation of
  // system messages only is empty to every provider)
  let tail = -1
  let lastOther = -1
  for (let u = count - 1; u >= 0 && tail === -1; u--) {
    if (entry[u] === USER) tail = u
    else if (lastOther === -1 && entry[u] !== SYSTEM) lastOther = u
  }
  if (tail === -1) tail = lastOther === -1 ? count - 1 : lastOther
  const pinned = new Uint8Array(count)
  const marked = new Uint8Array(count)
  let firstUser = pinFirstUser
  for (let u = 0; u < count; u++) {
    const e = entry[u]
    if (u >= tail) pinned[u] = 1
    if (e === SYSTEM && !isSummaryMessage(messages[start[u]!]!)) pinned[u] = 1
    // (the task: a message of no content says none, and kept alone it would be no message Anthropic takes)
    if (e === USER && firstUser && messages[start[u]!]!.content.length > 0) {
      pinned[u] = 1
      firstUser = false
    }
    // marked units in the tail too: they are never cleared
    if (pin !== undefined) {
      for (let i = start[u]!; i < start[u + 1]!; i++) {
        if (pin(messages[i]!, i)) {
          pinned[u] = 1
          marked[u] = 1
          break
        }
      }
    }
  }
  const bound = boundCuts(messages, units, pinned, unreasoned)
  let pinnedCount = 0
  let keepAll = tail
  for (let u = 0; u < tail; u++) {
    if (pinned[u] === 1) pinnedCount++
    else if (keepAll === tail) keepAll = u
  }
  const pinnedBeforeTail = new Int32Array(pinnedCount)
  for (let u = 0, k = 0; u < tail; u++) if (pinned[u] === 1) pinnedBeforeTail[k++] = u
  return { ...units, tail, pinned, marked, pinnedBeforeTail, keepAll, bound }
}

/**
 * The id a provider's own call or output item kept as data is paired by
 * (`call_id`; an MCP approval request's `id` and its response's
 * `approval_request_id`), and which side it is; `undefined` for other data.
 */
const providerDataPair = (data: { readonly [key: string]: unknown }): { readonly id: string; readonly output: boolean } | undefined => {
  const type = data["type"]
  if (typeof type !== "string") return undefined
  const callId = data["call_id"]
  if (typeof callId === "string") return { id: callId, output: type.endsWith("_output") }
  if (type === "mcp_approval_request" && typeof data["id"] === "string") return { id: data["id"], output: false }
  if (type === "mcp_approval_response" && typeof data["approval_request_id"] === "string") return { id: data["approval_request_id"], output: true }
  return undefined
}

/**
 * In a valid conversation every call is answered inside its own unit. One
 * that is not (a user message between calls and their results, a result
 * several turns late) has calls and results in different units, and no cut
 * may fall between the two: the units of such a pair are kept or dropped
 * together (a result that comes before its call, too, and a provider's own
 * call and output kept as data). When either is pinned both are (`pinned` is
 * updated, across chains of pairs); otherwise every cut after the first
 * unit of the pair up to the second is marked in the returned array. The
 * result keeps what was valid in the input and never adds a result without
 * its call.
 *
 * `unreasoned` (OpenAI Responses, a model that wants reasoning items) holds
 * the assistant messages that send an output item with its id before any
 * reasoning item of their own: such a message needs the reasoning item of an
 * earlier step of its turn, so the two units are a pair too.
 */
const boundCuts = (messages: ReadonlyArray<Message.Message>, units: Units, pinned: Uint8Array, unreasoned: ReadonlySet<number> | undefined): Uint8Array => {
  const { count, start } = units
  const bound = new Uint8Array(count + 1)
  let callUnit: Map<string, number> | undefined
  /** Results met before any call of their id (a broken history), by id: the unit of the first. */
  let earlyResult: Map<string, number> | undefined
  const pairs: Array<number> = []
  const call = (id: string, u: number): void => {
    ;(callUnit ??= new Map()).set(id, u)
    const r = earlyResult?.get(id)
    if (r !== undefined) {
      earlyResult!.delete(id)
      if (r !== u) pairs.push(r, u)
    }
  }
  const result = (id: string, u: number): void => {
    const k = callUnit?.get(id)
    if (k === undefined) {
      earlyResult ??= new Map()
      if (!earlyResult.has(id)) earlyResult.set(id, u)
    } else if (k !== u) {
      pairs.push(k, u)
    }
  }
  /** The latest unit of the current turn (since the last user message) that holds a reasoning item, or -1. */
  let reasoningUnit = -1
  for (let u = 0; u < count; u++) {
    if (units.entry[u] === USER) reasoningUnit = -1
    for (let i = start[u]!; i < start[u + 1]!; i++) {
      const content = messages[i]!.content
      if (unreasoned !== undefined && messages[i]!.role === "assistant") {
        if (reasoningUnit !== -1 && reasoningUnit !== u && unreasoned.has(i)) pairs.push(reasoningUnit, u)
        for (const block of content) {
          if (isReasoningItem(block)) {
            reasoningUnit = u
            break
          }
        }
      }
      for (const block of content) {
        switch (block._tag) {
          case "ToolCall":
            call(block.id, u)
            break
          case "ToolResult":
            result(block.toolCallId, u)
            break
          case "ProviderData": {
            // a provider's own call and output kept as data (a Responses custom tool, shell or apply_patch call and its
            // output item, an MCP approval request and its response) are a pair too; their ids get a space of their own
            const pair = providerDataPair(block.data)
            if (pair !== undefined) (pair.output ? result : call)(`\u0000${pair.id}`, u)
            break
          }
          case "Text":
          case "Thinking":
          case "RedactedThinking":
          case "Refusal":
          case "File":
            break
          default:
            absurd(block)
        }
      }
    }
  }
  if (pairs.length === 0) return bound
  // units joined by pairs, transitively: a pinned one pins the others
  const parent = new Int32Array(count).map((_, u) => u)
  const find = (u: number): number => {
    while (parent[u] !== u) u = parent[u] = parent[parent[u]!]!
    return u
  }
  for (let p = 0; p < pairs.length; p += 2) parent[find(pairs[p]!)] = find(pairs[p + 1]!)
  const pinnedRoot = new Uint8Array(count)
  for (const u of pairs) if (pinned[u] === 1) pinnedRoot[find(u)] = 1
  for (const u of pairs) if (pinnedRoot[find(u)] === 1) pinned[u] = 1
  const depth = new Int32Array(count + 1)
  for (let p = 0; p < pairs.length; p += 2) {
    const k = pairs[p]!
    const r = pairs[p + 1]!
    if (pinned[k] === 1) continue
    depth[k + 1] = depth[k + 1]! + 1
    depth[r + 1] = depth[r + 1]! - 1
  }
  for (let c = 0, open = 0; c < count; c++) {
    open += depth[c]!
    if (open > 0) bound[c] = 1
  }
  return bound
}

/**
 * Plans a fit: clearing alone, or a cut (with clearing). `total` exceeds
 * `available` when this is called.
 *
 * One backward walk from the end over prefix sums: the kept cost at each
 * candidate cut is what the pinned units before it cost plus everything
 * from it on (cleared, when clearing is on). Keeping everything (the first
 * unpinned unit as the cut) is always a candidate and needs no summary;
 * with clearing alone it is the only one. The walk stops at the first cut
 * that no longer fits, so cleared versions are only built for what is kept.
 */
export const plan = (input: PlanInput, units: Layout): Plan => {
  const { available, clearing, estimates, mode, total } = input
  const { count, entry, exit, keepAll, marked, pinned, pinnedBeforeTail, start, tail } = units
  if (count === 0) return { _tag: "TooSmall", minimum: total }

  const unitCost = (u: number): number => {
    let cost = 0
    for (let i = start[u]!; i < start[u + 1]!; i++) cost += estimates[i]!
    return cost
  }

  /** What unit `u` costs with every result it may clear cleared (a marked unit is never cleared). */
  const costOf = (u: number): number => {
    if (clearing === undefined || marked[u] === 1) return unitCost(u)
    let cost = 0
    for (let i = start[u]!; i < start[u + 1]!; i++) {
      const cleared = clearing.clearedCost(i)
      cost += cleared === -1 ? estimates[i]! : cleared
    }
    return cost
  }

  // over the pinned units before the tail only: after the first j of them, what they cost (pb, cleared: a pinned unit
  // is kept, and its results are cleared like any kept one's),
  // what the last one leaves behind (pe), whether two of them clash (cf), the first that is not a system message (fp)
  const k = pinnedBeforeTail.length
  const pb = new Float64Array(k + 1)
  const pe = new Uint8Array(k + 1)
  const cf = new Uint8Array(k + 1)
  const fp = new Int32Array(k + 1)
  fp[0] = -1
  for (let j = 0; j < k; j++) {
    const u = pinnedBeforeTail[j]!
    const e = entry[u]!
    pb[j + 1] = pb[j]! + costOf(u)
    pe[j + 1] = exit[u] === TRANSPARENT ? pe[j]! : exit[u]!
    cf[j + 1] = cf[j]! === 1 || (e !== SYSTEM && (pe[j] === USER || pe[j] === ASSISTANT) && pe[j] === e) ? 1 : 0
    fp[j + 1] = fp[j] !== -1 || e === SYSTEM ? fp[j]! : u
  }
  let firstNonSystem = -1
  for (let u = 0; u < count && firstNonSystem === -1; u++) if (entry[u] !== SYSTEM) firstNonSystem = u

  // the walk below keeps `j` = how many pinned units lie before the unit it is at, and the next non-system unit
  let j = k
  let nextNonSystem = -1

  /** The role a summary takes at cut `c`, or undefined when none keeps the conversation valid. */
  const summaryRoleAt = (pinnedBefore: number): SummaryRole | undefined => {
    const p = pe[pinnedBefore]!
    if (p === TRANSPARENT) return "system"
    if (p === USER || p === OPEN) return "assistant"
    return input.systemOnlyAtStart ? undefined : "system"
  }

  /** Whether cutting at `c` (dropping every unpinned unit before it) leaves a valid conversation. */
  const validCut = (c: number): boolean => {
    if (mode === undefined) return false
    if (units.bound[c] === 1) return false
    if (cf[j] === 1) return false
    const ns = nextNonSystem
    const e = ns === -1 ? SYSTEM : entry[ns]!
    const p = pe[j]!
    // with a summary between them, the summary's role is what meets both sides (summaryRoleAt)
    if (mode !== "summarize" && (p === USER || p === ASSISTANT) && p === e) return false
    if (input.startWithUser) {
      const first = fp[j] !== -1 ? fp[j]! : ns
      if (first !== -1 && first !== firstNonSystem && entry[first] !== USER) return false
    }
    switch (mode) {
      case "drop_oldest":
        return true
      case "drop_oldest_pair":
        return c === tail || entry[c] === USER
      case "summarize":
        return entry[c] === USER && summaryRoleAt(j) !== undefined
      default:
        return absurd(mode)
    }
  }

  // backward from the end: the smallest valid cut that fits (keeping everything, when that fits, beats any cut)
  const floor = mode === "summarize" ? input.summaryFloor : 0
  const reserve = mode === "summarize" ? Math.max(input.summaryTokens, floor) : 0
  let suffix = 0
  let best = -1
  let bestReserve = 0
  let fallback = -1
  let fallbackPinned = 0
  let cheapest = -1
  let bestPinned = 0
  for (let u = count - 1; u >= 0; u--) {
    suffix += costOf(u)
    if (entry[u] !== SYSTEM) nextNonSystem = u
    while (j > 0 && pinnedBeforeTail[j - 1]! >= u) j--
    if (u > tail || (u < tail && pinned[u] === 1)) continue
    const kept = pb[j]! + suffix
    if (kept > available && cheapest !== -1) break
    if (u === keepAll) {
      if (kept <= available) {
        best = u
        bestReserve = 0
        bestPinned = j
      }
      if (cheapest === -1) cheapest = kept
      continue
    }
    if (!validCut(u)) continue
    if (cheapest === -1) cheapest = kept + floor
    if (kept + reserve <= available) {
      best = u
      bestReserve = reserve
      bestPinned = j
    } else if (kept + floor <= available) {
      fallback = u
      fallbackPinned = j
    }
  }
  if (best === -1 && fallback !== -1) {
    best = fallback
    bestReserve = floor
    bestPinned = fallbackPinned
  }
  if (best === -1) {
    // nothing fits: the least that works is the cheapest valid cut, or keeping everything (cleared)
    let keepEverything = 0
    for (let u = 0; u < count; u++) keepEverything += costOf(u)
    return { _tag: "TooSmall", minimum: cheapest === -1 ? keepEverything : Math.min(cheapest, keepEverything) }
  }

  // clearing: the oldest kept results first, only as many as needed (the summary's room set aside); the pinned units
  // before the cut are kept and older than it, so they come first, as the plan above counted them
  let kept = 0
  for (let p = 0; p < bestPinned; p++) kept += unitCost(pinnedBeforeTail[p]!)
  for (let u = best; u < count; u++) kept += unitCost(u)
  let clearBelow = 0
  if (clearing !== undefined) {
    const target = available - bestReserve
    const clearIn = (u: number): void => {
      if (marked[u] === 1) return
      for (let i = start[u]!; i < start[u + 1]! && kept > target; i++) {
        const cleared = clearing.clearedCost(i)
        if (cleared === -1) continue
        kept -= estimates[i]! - cleared
        clearBelow = i + 1
      }
    }
    for (let p = 0; p < bestPinned && kept > target; p++) clearIn(pinnedBeforeTail[p]!)
    for (let u = best; u < count && kept > target; u++) clearIn(u)
  }
  const cut = best === keepAll ? 0 : best
  return {
    _tag: "Fits",
    cut,
    clearBelow,
    kept,
    summaryRole: mode === "summarize" && cut !== 0 ? summaryRoleAt(bestPinned) : undefined,
    units
  }
}
