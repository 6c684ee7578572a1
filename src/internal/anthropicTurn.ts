/**
 * How Anthropic sees a run of assistant messages: as one turn. The API
 * merges consecutive messages of one role, the adapter does the same, and a
 * system message between them goes to the system prompt.
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
