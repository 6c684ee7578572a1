/**
 * The one reading of tool turns that validation, repair, the window and the
 * adapters share: which assistant turn is open, which of its calls are still
 * waiting for a result, which have been answered (and where), and every call
 * id seen so far.
 *
 * Consumers drive it from their own loop over the messages, so each keeps its
 * own linear pass and its own output, but none keeps its own copy of this
 * bookkeeping:
 *
 * - `closeTurn()` before a user, assistant or system message (each ends the
 *   open turn) returns the calls left unanswered;
 * - `openTurn(index)` for an assistant message, then `addCall(...)` for each
 *   of its client-executed calls (returns where the id was first used, for
 *   duplicate detection across the conversation);
 * - `answer(id, index)` for each result of a tool message: the call it
 *   answers, or why it answers none (an orphan, or a second answer).
 *
 * Every operation is O(1) amortized: per-turn state is reset lazily, calls
 * with the same id in one turn are chained rather than queued with
 * `Array.shift`, and the conversation-wide id table is hash-flooding safe.
 *
 * @internal
 */
import type * as Block from "../Block.js"
import { IdTable } from "./idTable.js"

/** A tool call and where it is: message `index`, block `blockIndex`. */
export interface CallRef {
  readonly index: number
  readonly blockIndex: number
  readonly call: Block.ToolCallBlock
}

/** `answer` found no call: the result answers nothing in the open turn. */
export const ORPHAN = -1

export class Walker {
  /** Message index of the open turn's assistant message, -1 when no turn is open. */
  openIndex = -1
  /** The open turn's client calls, in order (the arrays are reused from turn to turn). */
  private readonly calls: Array<CallRef> = []
  /** For each call of the open turn: answered by the result at this message index, or -1. */
  private readonly answeredAt: Array<number> = []
  /** For each call: the next call of the open turn with the same id, or -1. */
  private readonly nextSame: Array<number> = []
  /** id -> the first unanswered call of the open turn with that id. */
  private readonly pending = new Map<string, number>()
  /**
   * id -> message index of its first result in the open turn, built only when
   * a result misses (to tell a second answer from an orphan), so the common
   * path never pays for it.
   */
  private answered: Map<string, number> | undefined
  /** id -> the last call of the open turn with that id, for ids used more than once. */
  private readonly lastSame = new Map<string, number>()
  private unansweredCount = 0
  /** Every call id of the conversation -> message index of its first use. */
  private readonly ids: IdTable

  constructor(expectedMessages: number) {
    this.ids = new IdTable(expectedMessages >> 2)
  }

  /** The number of calls of the open turn still waiting for a result. */
  get pendingCount(): number {
    return this.unansweredCount
  }

  /** Ends the open turn; returns its unanswered calls in call order (empty when none). */
  closeTurn(): ReadonlyArray<CallRef> {
    let unanswered: ReadonlyArray<CallRef> = EMPTY
    if (this.unansweredCount > 0) {
      const out: Array<CallRef> = []
      for (let k = 0; k < this.calls.length; k++) if (this.answeredAt[k] === -1) out.push(this.calls[k]!)
      unanswered = out
    }
    if (this.calls.length > 0) {
      this.calls.length = 0
      this.answeredAt.length = 0
      this.nextSame.length = 0
      // Map.clear allocates a fresh table in V8: skip it when there is nothing to clear
      if (this.pending.size > 0) this.pending.clear()
      if (this.lastSame.size > 0) this.lastSame.clear()
    }
    this.answered = undefined
    this.unansweredCount = 0
    this.openIndex = -1
    return unanswered
  }

  /** Opens a turn at an assistant message (call `closeTurn` first). */
  openTurn(index: number): void {
    this.openIndex = index
  }

  /**
   * Records where a call id is used without making the call pending: for
   * provider-executed calls, answered inside their own message. Returns the
   * message index of the id's first use, or -1 when it is new.
   */
  registerId(id: string, index: number): number {
    return this.ids.setIfAbsent(id, index)
  }

  /** Whether an id was used by any call so far. */
  hasId(id: string): boolean {
    return this.ids.get(id) !== -1
  }

  /**
   * Adds a client-executed call to the open turn. Returns the message index
   * where its id was first used (a duplicate id when that is not `index`, or
   * when the id repeats within this message), or -1 when the id is new.
   */
  addCall(ref: CallRef): number {
    const id = ref.call.id
    const first = this.ids.setIfAbsent(id, ref.index)
    const k = this.calls.length
    this.calls.push(ref)
    this.answeredAt.push(-1)
    this.nextSame.push(-1)
    this.unansweredCount++
    if (first === -1) {
      // a new id: no other call of this turn can have it yet
      this.pending.set(id, k)
      return first
    }
    const head = this.pending.get(id)
    if (head === undefined) {
      this.pending.set(id, k)
    } else {
      // chain it after the last unanswered-or-later call of this turn with the same id
      this.nextSame[this.lastSame.get(id) ?? head] = k
    }
    this.lastSame.set(id, k)
    return first
  }

  /** Whether a call of the open turn with this id still waits for its result (what `answer` would find). */
  isPending(id: string): boolean {
    return this.pending.has(id)
  }

  /**
   * Answers the first unanswered call of the open turn with this id. Returns
   * that call, or `ORPHAN` (no call of the open turn has the id), or the
   * message index of the id's first result (a second answer: >= 0).
   */
  answer(id: string, index: number): CallRef | number {
    const k = this.pending.get(id)
    if (k !== undefined) {
      this.answeredAt[k] = index
      this.unansweredCount--
      const next = this.nextSame[k]!
      if (next === -1) this.pending.delete(id)
      else this.pending.set(id, next)
      if (this.answered !== undefined && !this.answered.has(id)) this.answered.set(id, index)
      return this.calls[k]!
    }
    if (this.answered === undefined) {
      const answered = new Map<string, number>()
      for (let c = 0; c < this.calls.length; c++) {
        const at = this.answeredAt[c]!
        if (at === -1) continue
        const callId = this.calls[c]!.call.id
        const known = answered.get(callId)
        if (known === undefined || at < known) answered.set(callId, at)
      }
      this.answered = answered
    }
    const first = this.answered.get(id)
    return first === undefined ? ORPHAN : first
  }
}

const EMPTY: ReadonlyArray<CallRef> = []
