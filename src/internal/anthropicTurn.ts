/**
 * How Anthropic sees a conversation's messages: system messages go to the
 * system prompt, so the others meet around them; a run of assistant
 * messages is one message (the API merges consecutive messages of one role,
 * and the adapter does the same); and a tool loop, from the user's words to
 * the assistant's answer, is one assistant turn.
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

/**
 * The first assistant message of the turn that holds the assistant message
 * at `i`: a tool loop is one assistant turn, so the turn runs back over
 * assistant messages, tool results and system messages to the user's last
 * words (a user message starts a new turn).
 */
export const turnStart = (messages: ReadonlyArray<{ readonly role: string }>, i: number): number => {
  let start = i
  for (let k = i - 1; k >= 0; k--) {
    const role = messages[k]!.role
    if (role === "assistant") start = k
    else if (role === "user") break
  }
  return start
}

/**
 * The last assistant message of the run of assistant messages that starts
 * at `start` (system messages between them aside): the one assistant
 * message Anthropic makes of them.
 */
export const assistantRunEnd = (messages: ReadonlyArray<{ readonly role: string }>, start: number): number => {
  let end = start
  for (let k = start + 1; k < messages.length; k++) {
    const role = messages[k]!.role
    if (role === "assistant") end = k
    else if (role !== "system") break
  }
  return end
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

/**
 * The first block Anthropic gets of the assistant message that the run of
 * assistant messages from `start` makes (empty messages of the run add
 * nothing), or undefined when the run has no content.
 */
export const firstBlockOfRun = <B>(messages: ReadonlyArray<{ readonly role: string; readonly content: ReadonlyArray<B> }>, start: number): B | undefined => {
  const end = assistantRunEnd(messages, start)
  for (let k = start; k <= end; k++) {
    const m = messages[k]!
    if (m.role === "assistant" && m.content.length > 0) return m.content[0]
  }
  return undefined
}

/** Whether a block is one of Anthropic's thinking blocks. */
export const isThinkingBlock = (block: { readonly _tag: string } | undefined): boolean =>
  block !== undefined && (block._tag === "Thinking" || block._tag === "RedactedThinking")

/**
 * The thinking setting profile options give: manual (`"enabled"`, the
 * default when thinking is on), `"adaptive"`, `"disabled"`, or undefined
 * when they say nothing.
 */
export const thinkingSetting = (
  options: { readonly thinking?: boolean; readonly thinkingMode?: "enabled" | "adaptive" } | undefined
): "enabled" | "adaptive" | "disabled" | undefined =>
  options?.thinking === false ? "disabled" : options?.thinking === true ? options.thinkingMode ?? "enabled" : options?.thinkingMode
