/**
 * Repair of broken histories, with a log of every change.
 *
 * Agents crash mid tool call, persist half a turn, retry and push a message
 * twice. `repair` turns such a history into one every provider accepts, in a
 * single linear pass, and logs each change as a tagged `RepairAction` so that
 * nothing disappears silently (removed content is kept in the log).
 *
 * Use it through `Conversation.repair`.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Block from "./Block.js"
import { IdTable } from "./internal/idTable.js"
import * as Message from "./Message.js"

/**
 * The content given to a synthetic result for a call that was never answered.
 *
 * @since 0.1.0
 */
export const INTERRUPTED = "tool call was interrupted"

const Index = Schema.Number

/**
 * A call that had no result got a synthetic error result.
 *
 * @since 0.1.0
 */
export class InsertedMissingResult extends Schema.TaggedClass<InsertedMissingResult>()("InsertedMissingResult", {
  index: Index,
  toolCallId: Schema.String,
  toolName: Schema.String
}) {
  get description(): string {
    return `messages[${this.index}]: tool call ${JSON.stringify(this.toolCallId)} (${this.toolName}) had no result; inserted an error result "${INTERRUPTED}"`
  }
}

/**
 * A result that answered no call of its turn was removed; `result` keeps it.
 *
 * @since 0.1.0
 */
export class RemovedOrphanResult extends Schema.TaggedClass<RemovedOrphanResult>()("RemovedOrphanResult", {
  index: Index,
  result: Block.ToolResultBlock
}) {
  get description(): string {
    return `messages[${this.index}]: removed tool result ${JSON.stringify(this.result.toolCallId)} (${this.result.toolName}): it answers no call of the preceding assistant message`
  }
}

/**
 * A second result for an already answered call was removed; `result` keeps it.
 *
 * @since 0.1.0
 */
export class RemovedDuplicateResult extends Schema.TaggedClass<RemovedDuplicateResult>()("RemovedDuplicateResult", {
  index: Index,
  firstIndex: Index,
  result: Block.ToolResultBlock
}) {
  get description(): string {
    return `messages[${this.index}]: removed a second result for tool call ${JSON.stringify(this.result.toolCallId)} (first at messages[${this.firstIndex}])`
  }
}

/**
 * A message with no content was removed; `message` keeps its metadata.
 *
 * @since 0.1.0
 */
export class RemovedEmptyMessage extends Schema.TaggedClass<RemovedEmptyMessage>()("RemovedEmptyMessage", {
  index: Index,
  message: Message.Message
}) {
  get description(): string {
    return `messages[${this.index}]: removed an empty ${this.message.role} message`
  }
}

/**
 * A message was merged into the previous one of the same role; `message` is
 * the merged-away original, whole (its metadata and name included, which the
 * merged message does not take over when they conflict).
 *
 * @since 0.1.0
 */
export class MergedConsecutive extends Schema.TaggedClass<MergedConsecutive>()("MergedConsecutive", {
  index: Index,
  into: Index,
  message: Message.Message
}) {
  get description(): string {
    return `messages[${this.index}]: merged this ${this.message.role} message into messages[${this.into}]`
  }
}

/**
 * A system message that sat between tool calls and their results was moved
 * after the results.
 *
 * @since 0.1.0
 */
export class MovedSystemMessage extends Schema.TaggedClass<MovedSystemMessage>()("MovedSystemMessage", {
  index: Index
}) {
  get description(): string {
    return `messages[${this.index}]: moved a system message out from between tool calls and their results`
  }
}

/**
 * A call id that was empty or already used got a fresh id (its results in the
 * same turn follow it).
 *
 * @since 0.1.0
 */
export class RenamedToolCallId extends Schema.TaggedClass<RenamedToolCallId>()("RenamedToolCallId", {
  index: Index,
  from: Schema.String,
  to: Schema.String
}) {
  get description(): string {
    return `messages[${this.index}]: renamed tool call id ${JSON.stringify(this.from)} to ${JSON.stringify(this.to)}`
  }
}

/**
 * A tool call or result with an empty tool name got one (from its call, or
 * `unknown_tool`).
 *
 * @since 0.1.0
 */
export class FilledToolName extends Schema.TaggedClass<FilledToolName>()("FilledToolName", {
  index: Index,
  toolCallId: Schema.String,
  name: Schema.String
}) {
  get description(): string {
    return `messages[${this.index}]: tool ${JSON.stringify(this.toolCallId)} had an empty name; set to ${JSON.stringify(this.name)}`
  }
}

/**
 * Every change `repair` can make. `index` is always the message's index in the
 * input.
 *
 * @since 0.1.0
 */
export const RepairAction = Schema.Union([
  InsertedMissingResult,
  RemovedOrphanResult,
  RemovedDuplicateResult,
  RemovedEmptyMessage,
  MergedConsecutive,
  MovedSystemMessage,
  RenamedToolCallId,
  FilledToolName
])

/** @since 0.1.0 */
export type RepairAction = typeof RepairAction.Type

/**
 * @since 0.1.0
 */
export interface RepairOptions {
  /** Leave calls at the very end unanswered (an agent about to run them). Default `false`. */
  readonly allowPendingToolCalls?: boolean
  /** The content of synthetic results for interrupted calls. */
  readonly interruptedContent?: string
}

/**
 * @since 0.1.0
 */
export interface RepairResult {
  readonly messages: ReadonlyArray<Message.Message>
  readonly actions: ReadonlyArray<RepairAction>
}

const UNKNOWN_TOOL = "unknown_tool"

interface PendingCall {
  readonly name: string
  readonly index: number
}

/**
 * See `Conversation.repair`.
 *
 * @since 0.1.0
 */
export const repair = (messages: ReadonlyArray<Message.Message>, options?: RepairOptions): RepairResult => {
  const out: Array<Message.Message> = []
  let lastOrigin = -1 // input index of the last output message (what a merge merges into)
  const actions: Array<RepairAction> = []
  const interrupted = options?.interruptedContent ?? INTERRUPTED
  const pending = new Map<string, PendingCall>() // call id -> call of the open assistant turn
  const aliases = new Map<string, Array<string>>() // original id -> renamed ids awaiting results, this turn
  const usedIds = new IdTable(messages.length >> 2) // every call id kept so far
  const answered = new Map<string, number>() // call id -> index of its result, open turn only
  const deferredSystem: Array<number> = []
  let changed = false
  let fresh = 0

  const emit = (m: Message.Message, origin: number): void => {
    out.push(m)
    lastOrigin = origin
  }

  const freshId = (base: string): string => {
    let id: string
    do id = `${base === "" ? "call" : base}_repaired_${++fresh}`
    while (usedIds.get(id) !== -1)
    return id
  }

  /** Answers every pending call with a synthetic error result, then emits the deferred system messages. */
  const closeTurn = (): void => {
    if (pending.size > 0) {
      const results: Array<Block.ToolResultBlock> = []
      let origin = -1
      for (const [id, call] of pending) {
        results.push(Block.toolResult(id, call.name, interrupted, true))
        actions.push(new InsertedMissingResult({ index: call.index, toolCallId: id, toolName: call.name }))
        origin = call.index
      }
      pending.clear()
      emit(Message.tool(results), origin)
      changed = true
    }
    // Map.clear allocates a fresh table: skip it when there is nothing to clear
    if (aliases.size > 0) aliases.clear()
    if (answered.size > 0) answered.clear()
    for (const i of deferredSystem) emit(messages[i]!, i)
    deferredSystem.length = 0
  }

  /** Renames empty and already used call ids, fills empty names, registers the ids. */
  const normalizeCalls = (m: Message.AssistantMessage, i: number): Message.AssistantMessage => {
    let content: Array<Block.AssistantBlock> | undefined
    for (let b = 0; b < m.content.length; b++) {
      const block = m.content[b]!
      if (block._tag !== "ToolCall") continue
      let next = block
      // registers the id in the same probe that finds it already used
      if (block.id === "" || usedIds.setIfAbsent(block.id, i) !== -1) {
        const id = freshId(block.id)
        usedIds.setIfAbsent(id, i)
        actions.push(new RenamedToolCallId({ index: i, from: block.id, to: id }))
        const queue = aliases.get(block.id)
        if (queue === undefined) aliases.set(block.id, [id])
        else queue.push(id)
        next = new Block.ToolCallBlock({ ...next, id })
      }
      if (next.name === "") {
        actions.push(new FilledToolName({ index: i, toolCallId: next.id, name: UNKNOWN_TOOL }))
        next = new Block.ToolCallBlock({ ...next, name: UNKNOWN_TOOL })
      }
      if (next !== block) {
        content ??= m.content.slice()
        content[b] = next
      }
    }
    if (content === undefined) return m
    changed = true
    return new Message.AssistantMessage({ ...m, content })
  }

  /** Keeps the results that answer a pending call; logs and drops the rest. */
  const answer = (m: Message.ToolMessage, i: number): Message.ToolMessage | undefined => {
    const kept: Array<Block.ToolResultBlock> = []
    let edited = false
    for (let r of m.content) {
      let id = r.toolCallId
      if (!pending.has(id)) {
        const renamed = aliases.get(id)?.shift()
        if (renamed !== undefined) {
          actions.push(new RenamedToolCallId({ index: i, from: id, to: renamed }))
          r = new Block.ToolResultBlock({ ...r, toolCallId: renamed })
          id = renamed
          edited = true
        }
      }
      const call = pending.get(id)
      if (call === undefined) {
        const first = answered.get(id)
        actions.push(
          first === undefined
            ? new RemovedOrphanResult({ index: i, result: r })
            : new RemovedDuplicateResult({ index: i, firstIndex: first, result: r })
        )
        edited = true
        continue
      }
      pending.delete(id)
      answered.set(id, i)
      if (r.toolName === "") {
        actions.push(new FilledToolName({ index: i, toolCallId: id, name: call.name }))
        r = new Block.ToolResultBlock({ ...r, toolName: call.name })
        edited = true
      }
      kept.push(r)
    }
    if (!edited) return m
    changed = true
    return kept.length === 0 ? undefined : new Message.ToolMessage({ ...m, content: kept })
  }

  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.content.length === 0) {
      actions.push(new RemovedEmptyMessage({ index: i, message: m }))
      changed = true
      continue
    }
    switch (m.role) {
      case "system":
        if (pending.size > 0) {
          deferredSystem.push(i)
          actions.push(new MovedSystemMessage({ index: i }))
          changed = true
        } else {
          closeTurn()
          emit(m, i)
        }
        break
      case "tool": {
        const kept = answer(m, i)
        if (kept !== undefined) emit(kept, i)
        break
      }
      case "user":
      case "assistant": {
        closeTurn()
        let next: Message.Message = m.role === "assistant" ? normalizeCalls(m, i) : m
        const last = out.length - 1
        const prev = out[last]
        if (prev !== undefined && prev.role === next.role) {
          next = mergeInto(prev, next)
          actions.push(new MergedConsecutive({ index: i, into: lastOrigin, message: m }))
          out[last] = next
          changed = true
        } else {
          emit(next, i)
        }
        if (next.role === "assistant") {
          for (const b of next.content) if (b._tag === "ToolCall") pending.set(b.id, { name: b.name, index: i })
        }
        break
      }
      default:
        Block.absurd(m)
    }
  }
  if (options?.allowPendingToolCalls === true) {
    for (const i of deferredSystem) emit(messages[i]!, i)
  } else {
    closeTurn()
  }
  return { messages: changed ? out : messages, actions }
}

/** Concatenates the content of two messages of the same role; the first one's fields win. */
const mergeInto = <M extends Message.Message>(prev: M, next: Message.Message): M => {
  const metadata = prev.metadata === undefined && next.metadata === undefined
    ? undefined
    : { ...next.metadata, ...prev.metadata }
  const fields = { ...prev, content: [...prev.content, ...next.content], ...(metadata === undefined ? {} : { metadata }) }
  switch (prev.role) {
    case "system":
      return new Message.SystemMessage(fields as Message.SystemMessage) as M
    case "user":
      return new Message.UserMessage(fields as Message.UserMessage) as M
    case "assistant":
      return new Message.AssistantMessage(fields as Message.AssistantMessage) as M
    case "tool":
      return new Message.ToolMessage(fields as Message.ToolMessage) as M
    default:
      return Block.absurd(prev)
  }
}
