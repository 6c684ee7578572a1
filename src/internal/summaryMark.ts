/**
 * How a summary the window wrote is known and read: its metadata key and the
 * header line before its text. Its own module, so the summarizer reads
 * earlier summaries without loading the window's planner.
 *
 * @internal
 */
import type * as Message from "../Message.js"

/** The metadata key that marks a message the window wrote as a summary. */
export const SUMMARY_KEY = "effect-agent-messages/summary"

/** The window's header line, at the start of a summary's text. */
const HEADER = /^\[Summary of \d+ earlier messages?, removed to fit the context window\]/

/**
 * Whether a message is a summary the window wrote: it carries the marker, or
 * (the marker is metadata, which no provider format carries, so a history
 * stored in a provider's format and read back has lost it) it is a system
 * message whose text opens with the window's header line.
 */
export const isSummaryMessage = (message: Message.Message): boolean => {
  const metadata = message.metadata
  if (metadata !== undefined && Object.prototype.hasOwnProperty.call(metadata, SUMMARY_KEY)) return true
  if (message.role !== "system") return false
  const first = message.content[0]
  return first !== undefined && first._tag === "Text" && HEADER.test(first.text)
}

/** The line the window puts before a summary's text. */
export const summaryHeader = (replaces: number): string =>
  `[Summary of ${replaces} earlier message${replaces === 1 ? "" : "s"}, removed to fit the context window]`

/** A summary message's text without the window's header (what the summarizer wrote). */
export const summaryBody = (text: string): string => text.replace(/^\[Summary of \d+ earlier messages?, removed to fit the context window\]\n?/, "")

