/**
 * What the Anthropic rules are checked against: conversations that carry
 * files where the writer may leave them out, where the writer says it dropped
 * something and where validation reports an unsupported file, and the cache
 * breakpoints in a written request.
 */
import { Effect } from "effect"
import { Block, Conversation, Message } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"

/** One file per user message or tool result (`inResult`), each after an assistant message. */
export const withFiles = (slots: ReadonlyArray<{ readonly file: Block.FileBlock; readonly inResult: boolean }>): Array<Message.Message> => {
  const out: Array<Message.Message> = [Message.user("Here are the files.")]
  slots.forEach(({ file, inResult }, k) => {
    if (inResult) {
      out.push(Message.assistant([Block.toolCall(`call_${k}`, "read_file", { path: `f${k}` })]))
      out.push(Message.toolResultMessage(`call_${k}`, "read_file", [Block.text("The file:"), file]))
    } else {
      out.push(Message.assistant("Noted."), Message.user([Block.text("And this one:"), file]))
    }
  })
  return out
}

/** Where the writer says it left something out: `index blockIndex`. */
export const droppedBy = (messages: ReadonlyArray<Message.Message>): Array<string> =>
  Effect.runSync(Anthropic.toMessages(messages)).warnings.filter((w) => w._tag === "DroppedContent").map((w) => `${w.index} ${w.blockIndex}`)

/** Where validation reports an unsupported file: `index blockIndex`. */
export const unsupported = (messages: ReadonlyArray<Message.Message>): Array<string> =>
  Conversation.issuesFor("anthropic", messages).flatMap((issue) => (issue._tag === "UnsupportedMediaType" ? [`${issue.index} ${issue.blockIndex}`] : []))

/** The `cache_control` objects in a written request. */
export const cacheObjects = (value: unknown): number => {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + cacheObjects(v), 0)
  if (typeof value !== "object" || value === null) return 0
  let n = 0
  for (const [k, v] of Object.entries(value)) n += k === "cache_control" && typeof v === "object" && v !== null ? 1 : cacheObjects(v)
  return n
}
