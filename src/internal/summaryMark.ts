/**
 * How a summary the window wrote is known and read: its metadata key and the
 * header line before its text. Its own module, so the summarizer reads
 * earlier summaries without loading the window's planner.
 *
 * @internal
 */
import type * as Block from "../Block.js"
import * as Message from "../Message.js"

/** The metadata key that marks a message the window wrote as a summary. */
export const SUMMARY_KEY = "effect-agent-messages/summary"

/** The window's header line, at the start of a summary's text. */
const HEADER = /^\[Summary of \d+ earlier messages?, removed to fit the context window\]/

/** Whether a block is the text of a summary the window wrote: it opens with the window's header line. */
export const isSummaryBlock = (block: Block.Block): boolean => block._tag === "Text" && HEADER.test(block.text)

/**
 * Whether a message is a summary the window wrote: it carries the marker, or
 * (the marker is metadata, which no provider format carries, so a history
 * stored in a provider's format and read back has lost it) it is a system
 * or assistant message whose every block is a text opening with the
 * window's header line.
 * A system message that also holds other text (Anthropic and Gemini read all
 * system text into one message) is the user's system prompt holding a
 * summary: `summariesIn` takes it apart.
 */
export const isSummaryMessage = (message: Message.Message): boolean => {
  const metadata = message.metadata
  if (metadata !== undefined && Object.prototype.hasOwnProperty.call(metadata, SUMMARY_KEY)) return true
  // the window writes a summary as a system or an assistant message (where a system message may not stand)
  if ((message.role !== "system" && message.role !== "assistant") || message.content.length === 0) return false
  for (const block of message.content) if (!isSummaryBlock(block)) return false
  return true
}

/**
 * A system message read back from a format that joins all system text into
 * one prompt (Anthropic `system`, Gemini `systemInstruction`), taken apart:
 * the `prompt` (the message without its summary blocks, everything else
 * kept) and the `summaries` (a system message of those blocks, a summary by
 * `isSummaryMessage`), with how many there were. `undefined` for any other
 * message: no summary block, or nothing but summaries (then the message is
 * a summary itself).
 */
export const summariesIn = (message: Message.Message): { readonly prompt: Message.SystemMessage; readonly summaries: Message.SystemMessage; readonly count: number } | undefined => {
  if (message.role !== "system" || isSummaryMessage(message)) return undefined
  const kept: Array<Block.TextBlock> = []
  let taken: Array<Block.TextBlock> | undefined
  for (const block of message.content) {
    if (isSummaryBlock(block)) (taken ??= []).push(block)
    else kept.push(block)
  }
  if (taken === undefined) return undefined
  const { content: _, role: _r, ...options } = message
  return { prompt: Message.system(kept, options), summaries: Message.system(taken), count: taken.length }
}

/** The line the window puts before a summary's text. */
export const summaryHeader = (replaces: number): string =>
  `[Summary of ${replaces} earlier message${replaces === 1 ? "" : "s"}, removed to fit the context window]`

/** A summary message's text without the window's header (what the summarizer wrote). */
export const summaryBody = (text: string): string => text.replace(/^\[Summary of \d+ earlier messages?, removed to fit the context window\]\n?/, "")

/** A summary message's text without the window's headers: each text block's own, for summaries taken out of one system prompt together. */
export const summaryTextOf = (message: Message.Message): string => {
  const parts: Array<string> = []
  for (const block of message.content) if (block._tag === "Text") parts.push(summaryBody(block.text))
  return parts.join("\n")
}
