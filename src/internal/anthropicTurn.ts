/**
 * How Anthropic sees a conversation's messages: system messages go to the
 * system prompt, so the others meet around them; and a run of assistant
 * messages is one turn (the API merges consecutive messages of one role,
 * and the adapter does the same).
 *
 * @internal
 */

/**
 * The first assistant message of the turn that holds the assistant message
 * at `i`: the assistant messages right before it, system messages between
 * them aside, are that turn too.
 */
export const assistantTurnStart = (messages: ReadonlyArray<{ readonly role: string }>, i: number): number => {
  let start = i
  for (let k = i - 1; k >= 0; k--) {
    const role = messages[k]!.role
    if (role === "assistant") start = k
    else if (role !== "system") break
  }
  return start
}

/** The index of the message before `i` that Anthropic keeps among its messages (system text goes to the system prompt), or -1. */
export const previousOnWire = (messages: ReadonlyArray<{ readonly role: string }>, i: number): number => {
  let k = i - 1
  while (k >= 0 && messages[k]!.role === "system") k--
  return k
}

/** The index of the message after `i` that Anthropic keeps among its messages, or `messages.length`. */
export const nextOnWire = (messages: ReadonlyArray<{ readonly role: string }>, i: number): number => {
  let k = i + 1
  while (k < messages.length && messages[k]!.role === "system") k++
  return k
}
