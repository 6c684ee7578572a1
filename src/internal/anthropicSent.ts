/**
 * What the Anthropic writer (`providers/Anthropic.ts`) sends of each block:
 * which blocks it writes and which it leaves out, and the values it writes of
 * each. One reading shared by `validateFor("anthropic")` and
 * `repairFor("anthropic")`, so that repair changes exactly what validation
 * reports (a field of a block the writer leaves out is neither reported nor
 * removed).
 *
 * @internal
 */
import * as Block from "../Block.js"
import * as Message from "../Message.js"
import { isImageType } from "./anthropicFiles.js"
import { isAnthropicCitation } from "./citations.js"
import { anthropicSends, type SentPlace } from "./anthropicSends.js"
import { inlineFileOf } from "./dataUrlFile.js"
import { bareMediaType } from "./mediaType.js"
import { hintKey, isAnthropicHintKey } from "./hint.js"
import { isCustomTextCall } from "./customTools.js"
import { isObject } from "./toolArgs.js"

export { type SentPlace } from "./anthropicSends.js"

/** Whether a message was read from an Anthropic message of its own (the writer sends it as one again). */
export const isSeparate = (m: Message.Message): boolean => m.providerOptions?.["anthropic"]?.[hintKey("separateMessage")] === true

/** Whether a block (a tool result's parts too) has a key starting with `$` in its Anthropic options or, as Anthropic provider data, in its data. */
export const hasDollarKey = (block: Block.Block): boolean => {
  if (block._tag === "ProviderData") return block.provider === "anthropic" && Object.keys(block.data).some(isDollar)
  if (block._tag === "Json") return false
  const own = block.providerOptions?.["anthropic"]
  if (own !== undefined && Object.keys(own).some(isDollar)) return true
  return block._tag === "ToolResult" && typeof block.content !== "string" && block.content.some(hasDollarKey)
}

/** Whether an option or field name starts with `$` (no Anthropic block or message takes such a field). */
export const isDollar = (key: string): boolean => key.startsWith("$")

/** The JSON values the Anthropic adapter sends in a tool result as blocks of their own (by their `type`); it sends others as their text. */
export const ANTHROPIC_RESULT_PASS_TYPES: ReadonlySet<string> = new Set(["search_result", "tool_reference", "browser_state"])


/** A value of a block the Anthropic adapter sends, and where it is in the block. */
export type SentValue = readonly [path: ReadonlyArray<string | number>, value: unknown]


export const OPTIONS_PATH: ReadonlyArray<string> = ["providerOptions", "anthropic"]
const TEXT: ReadonlyArray<string> = ["text"]
const CITATIONS: ReadonlyArray<string> = ["citations"]
const THINKING: ReadonlyArray<string> = ["thinking"]
const SIGNATURE: ReadonlyArray<string> = ["signature"]
const DATA: ReadonlyArray<string> = ["data"]
const REFUSAL: ReadonlyArray<string> = ["refusal"]
const SOURCE_DATA: ReadonlyArray<string> = ["source", "data"]
const SOURCE_URL: ReadonlyArray<string> = ["source", "url"]
const SOURCE_FILE_ID: ReadonlyArray<string> = ["source", "fileId"]
const SOURCE_TEXT: ReadonlyArray<string> = ["source", "text"]
const TITLE: ReadonlyArray<string> = ["title"]
const CONTEXT: ReadonlyArray<string> = ["context"]
const ID: ReadonlyArray<string> = ["id"]
const NAME: ReadonlyArray<string> = ["name"]
const ARGS: ReadonlyArray<string> = ["args"]
const TOOL_CALL_ID: ReadonlyArray<string> = ["toolCallId"]
const TOOL_NAME: ReadonlyArray<string> = ["toolName"]
const CONTENT: ReadonlyArray<string> = ["content"]
const VALUE: ReadonlyArray<string> = ["value"]

/**
 * The Anthropic options of a block or a message as its adapter writes them, into `out`: every key of a block's (the
 * adapter keeps no hint on blocks), a message's but its hints (`ANTHROPIC_HINTS`); `cache_control` only with `cache`.
 */
export const pushAnthropicFields = (value: { readonly providerOptions?: Block.ProviderOptions | undefined }, out: Array<SentValue>, message = false, cache = true): void => {
  const fields = value.providerOptions?.["anthropic"]
  if (fields === undefined) return
  for (const key of Object.keys(fields)) {
    if ((message && isAnthropicHintKey(key)) || (!cache && key === "cache_control")) continue
    const path = [...OPTIONS_PATH, key]
    out.push([path, key], [path, fields[key]])
  }
}

/**
 * Whether the Anthropic adapter writes a block, and what of it: with `out`, its values that go into the request,
 * each with its path in the block (a key that is a path's last step is sent too). Ids of client calls and their
 * results are not read: the adapter sends an id with any character outside letters, digits, `_` and `-` as one of
 * its own. A value sent as JSON text (a JSON value in a tool result) cannot hold a lone surrogate (JSON text escapes
 * it), a document given as base64 text goes as the text it decodes to, and a file at a base64 `data:` URL as the data
 * it holds.
 */
export const anthropicSent = (block: Block.Block, place: SentPlace, foreignCalls: ReadonlySet<string>, out?: Array<SentValue>): boolean => {
  if (!anthropicSends(block, place, foreignCalls)) return false
  if (out === undefined) return true
  switch (block._tag) {
    case "Text":
      out.push([TEXT, block.text])
      if (block.citations !== undefined && block.citations.length > 0 && block.citations.every(isAnthropicCitation)) out.push([CITATIONS, block.citations])
      break
    case "Thinking":
      out.push([THINKING, block.thinking], [SIGNATURE, block.signature!])
      break
    case "RedactedThinking":
      out.push([DATA, block.data])
      break
    case "Refusal":
      // as plain text, without its options
      out.push([REFUSAL, block.refusal])
      return true
    case "File": {
      // a file at a base64 data: URL goes as the data it holds, of the type the URL declares
      const inline = inlineFileOf(block)
      const file = inline ?? block
      const source = file.source
      switch (source._tag) {
        case "Base64":
          if (isImageType(file.mediaType) || bareMediaType(file.mediaType) === "application/pdf") out.push([inline === undefined ? SOURCE_DATA : SOURCE_URL, source.data])
          break
        case "Url":
          out.push([SOURCE_URL, source.url])
          break
        case "FileId":
          out.push([SOURCE_FILE_ID, source.fileId])
          break
        case "Text":
          out.push([SOURCE_TEXT, source.text])
          break
        default:
          return Block.absurd(source)
      }
      if (!isImageType(file.mediaType)) {
        if (block.title !== undefined) out.push([TITLE, block.title])
        if (block.context !== undefined) out.push([CONTEXT, block.context])
      }
      break
    }
    case "ToolCall":
      if (block.providerExecuted === true) out.push([ID, block.id])
      out.push([NAME, block.name])
      // arguments that are no object go as `{}`, but a Chat custom call's text, which goes as `{ input: text }`
      if (isObject(block.args)) out.push([ARGS, block.args])
      else if (isCustomTextCall(block)) out.push([ARGS, block.args])
      break
    case "ToolResult": {
      const server = place === "assistant"
      if (server) {
        out.push([TOOL_CALL_ID, block.toolCallId])
        // a server tool's result without a type of its own is typed by its tool's name (`web_search_tool_result`)
        if (typeof block.providerOptions?.["anthropic"]?.["type"] !== "string") out.push([TOOL_NAME, block.toolName])
      }
      const content = block.content
      if (typeof content === "string") {
        out.push([CONTENT, content])
      } else {
        const parts: Array<SentValue> = []
        for (let p = 0; p < content.length; p++) {
          parts.length = 0
          if (!anthropicSent(content[p]!, server ? "serverResultPart" : "resultPart", foreignCalls, parts)) continue
          for (const [path, value] of parts) out.push([["content", p, ...path], value])
        }
      }
      break
    }
    case "Json": {
      const value = block.value
      if (place === "serverResultPart") {
        out.push([VALUE, value])
        return true
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) return true
      const type = (value as Block.JsonObject)["type"]
      if (typeof type === "string" && ANTHROPIC_RESULT_PASS_TYPES.has(type)) out.push([VALUE, value])
      return true
    }
    case "ProviderData":
      out.push([DATA, block.data])
      return true
    default:
      return Block.absurd(block)
  }
  // thinking goes without its cache_control, which Anthropic rejects there
  pushAnthropicFields(block, out, false, block._tag !== "Thinking" && block._tag !== "RedactedThinking")
  return true
}


/**
 * Walks the blocks of a conversation the Anthropic adapter writes, in order, with the values it sends of each when
 * `collect` (see `anthropicSent`); `visit` returns `true` to stop. The provider-executed calls of another provider
 * and their results in one assistant message go unsent together.
 */
export const walkAnthropicSent = (
  messages: ReadonlyArray<Message.Message>,
  visit: (block: Block.Block, index: number, blockIndex: number, sent: ReadonlyArray<SentValue>) => boolean,
  collect: boolean
): void => {
  const foreignCalls = new Set<string>()
  const sent: Array<SentValue> = []
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    foreignCalls.clear()
    const content: ReadonlyArray<Block.Block> = m.content
    for (let b = 0; b < content.length; b++) {
      const block = content[b]!
      sent.length = 0
      if (!anthropicSent(block, m.role, foreignCalls, collect ? sent : undefined)) {
        if (block._tag === "ToolCall" && block.providerExecuted === true) foreignCalls.add(block.id)
        continue
      }
      if (visit(block, i, b, sent)) return
    }
  }
}

/**
 * The Anthropic option key a value the adapter sends stands for, and where its block or part is (`[]`, or
 * `["content", p]` for a part of a tool result): `pushAnthropicFields` sends each key as the last step of its path,
 * `[...where, "providerOptions", "anthropic", key]`. `undefined` for any other value.
 */
export const sentOptionKey = ([at, value]: SentValue): { readonly where: ReadonlyArray<string | number>; readonly key: string } | undefined => {
  const n = at.length
  if (n < 3 || value !== at[n - 1] || typeof value !== "string" || at[n - 2] !== OPTIONS_PATH[1] || at[n - 3] !== OPTIONS_PATH[0]) return undefined
  return { where: at.slice(0, n - 3), key: value }
}

/**
 * Which messages the Anthropic adapter writes its options on (1), as it groups them (`anthropicRuns`): a user, tool
 * or assistant message that opens an Anthropic message (consecutive messages of one role are one message, unless read
 * as messages of their own), not one whose message is left out (content of which nothing is written, reported by the
 * adapter), nor one that opens the message after such a one when the two on both sides of it are one. The options of
 * those go nowhere but their breakpoint (on a block: `anthropicBreakpoints`); the adapter reports the others.
 */
export const anthropicWrittenMessages = (messages: ReadonlyArray<Message.Message>, runs = anthropicRuns(messages)): Uint8Array => {
  const out = new Uint8Array(messages.length)
  for (let i = 0; i < messages.length; i++) if (messages[i]!.role !== "system" && (runs[i]! & (CONTINUES | LEFT_OUT)) === 0) out[i] = 1
  return out
}

/**
 * `anthropicRuns`: the message goes into the wire message of the message before it, system messages aside; the
 * first message of a run the writer sends goes into that of the last run it sent when only left-out runs are between
 * them and the two have one role (their neighbours meet: the writer joins them).
 */
export const CONTINUES = 1
/** `anthropicRuns`: the wire message the message goes into has content (any run joined into it). */
export const FILLED = 2
/**
 * `anthropicRuns`: the writer leaves out the wire message the message goes into: it has content, but the writer
 * sends none of it (each block left out, reported as `DroppedContent`, and the message as a whole).
 */
export const LEFT_OUT = 4
/**
 * `anthropicRuns`: the writer sends no block of the message (it is empty, or each of its blocks is left out). The
 * flags are read for user, assistant and tool messages only.
 */
export const UNSENT = 8

/**
 * How the Anthropic writer makes wire messages of a conversation, per message (`CONTINUES`, `FILLED`, `LEFT_OUT`,
 * `UNSENT`):
 * system messages go to the system prompt, and a run of messages of one wire role (user and tool messages are user
 * messages) is one message, unless a message was read from a message of its own (its `separateMessage` hint). A run
 * with content of which the writer sends nothing is left out, and the runs it parts are joined when of one role.
 */
export const anthropicRuns = (messages: ReadonlyArray<Message.Message>): Uint8Array => {
  // (UNSENT until the writer sends a block of the message)
  const out = new Uint8Array(messages.length).fill(UNSENT)
  walkAnthropicSent(messages, (_block, i) => {
    out[i] = 0
    return false
  }, false)
  // the run being read: where it starts, its role, whether it has content and whether the writer sends any of it
  let start = 0
  let role: string | undefined
  let filled = false
  let sent = false
  // the wire message the last run sent went into: where it starts, its role, whether it has content; and whether a
  // left-out run came after it
  let wireStart = 0
  let wireRole: string | undefined
  let wireFilled = false
  let leftOut = false
  const closeWire = (end: number): void => {
    if (wireFilled) for (let k = wireStart; k < end; k++) out[k] = out[k]! | FILLED
  }
  const closeRun = (end: number): void => {
    if (filled && !sent) {
      for (let k = start; k < end; k++) out[k] = out[k]! | FILLED | LEFT_OUT
      leftOut = true
      return
    }
    if (leftOut && role === wireRole) {
      out[start] = out[start]! | CONTINUES
      wireFilled ||= filled
    } else {
      closeWire(start)
      wireStart = start
      wireRole = role
      wireFilled = filled
    }
    leftOut = false
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role === "system") continue
    const next = m.role === "assistant" ? m.role : "user"
    if (next === role && !isSeparate(m)) out[i] = out[i]! | CONTINUES
    else {
      closeRun(i)
      start = i
      role = next
      filled = false
      sent = false
    }
    filled ||= m.content.length > 0
    sent ||= out[i]! < UNSENT
  }
  closeRun(messages.length)
  closeWire(messages.length)
  return out
}

/** Whether Anthropic's rules of single blocks read the block (blank text, a signature, redacted data). */
const readByBlockRules = (block: Block.Block): boolean =>
  block._tag === "Text" || block._tag === "Refusal" || block._tag === "Thinking" || block._tag === "RedactedThinking"

/**
 * Whether Anthropic's turn rules (thinking first, thinking off, prefill) read past a message (its flags from
 * `anthropicRuns`): one of a run the writer leaves out, or one of which it sends no block inside a wire message with
 * content, is not on the wire; one holding text or thinking stays, because the block rules read it (as repair's
 * fixes do).
 */
const unseenByRules = (m: Message.Message, flags: number): boolean =>
  m.role !== "system" && ((flags & LEFT_OUT) !== 0 || (flags & (FILLED | UNSENT)) === (FILLED | UNSENT)) && !m.content.some(readByBlockRules)

/** Stands for a message the Anthropic writer leaves out: read as a system message, it is not among the wire's messages. */
let leftOutMark: Message.SystemMessage | undefined

/**
 * The messages as Anthropic's own rules read them, with the runs as those
 * rules read them: a run the writer leaves out (content of which it sends no
 * block, such as another provider's data) is not on the wire, nor is a
 * message of which it sends no block inside a wire message that has
 * content; each is read as an empty system message: it is no final
 * assistant message, ends no turn, and the messages on both sides of it
 * meet, as the writer sends them. Where such a message opened its wire
 * message, the next message of that wire message opens it instead. Indices
 * stay those of the messages given.
 */
export const withoutUnsent = (
  messages: ReadonlyArray<Message.Message>,
  runs: Uint8Array
): { readonly messages: ReadonlyArray<Message.Message>; readonly runs: Uint8Array } => {
  let view: Array<Message.Message> | undefined
  let viewRuns: Uint8Array | undefined
  // a hidden message opened a wire message that no message read since has opened
  let opening = false
  for (let i = 0; i < runs.length; i++) {
    const m = messages[i]!
    if (m.role === "system") continue
    const flags = runs[i]!
    if (unseenByRules(m, flags)) {
      ;(view ??= messages.slice())[i] = leftOutMark ??= new Message.SystemMessage({ role: "system", content: [] })
      if ((flags & (CONTINUES | LEFT_OUT)) === 0) opening = true
      continue
    }
    if (opening && (flags & LEFT_OUT) === 0) {
      opening = false
      if ((flags & CONTINUES) !== 0) (viewRuns ??= runs.slice())[i] = flags & ~CONTINUES
    }
  }
  return { messages: view ?? messages, runs: viewRuns ?? runs }
}
