/**
 * A system message among a call's results (an agent loop's reminder between
 * two tool messages) belongs to the turn it interrupts: the one reading
 * `Conversation.turnsOf` and the window's units share.
 *
 * @internal
 */
import type * as Message from "../Message.js"

/**
 * Where the run of system messages at `i` ends when it sits between two tool
 * messages (the index of the tool message after it), or -1 when message `i`
 * is no such system message.
 */
export const systemRunBetweenResults = (messages: ReadonlyArray<{ readonly role: Message.Role }>, i: number): number => {
  if (messages[i]?.role !== "system" || messages[i - 1]?.role !== "tool") return -1
  let j = i + 1
  while (messages[j]?.role === "system") j++
  return messages[j]?.role === "tool" ? j : -1
}
