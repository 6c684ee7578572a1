import type * as Message from "../Message.js"

/**
 * Whether the Gemini writer sends nothing of message `m`: it holds blocks, and every one is another provider's data,
 * which the writer leaves out (reporting it), and the message with it. Gemini's turn rules and their repair read the
 * conversation without such a message, as the request goes out: it starts no turn and is no turn before a call.
 */
export const geminiSendsNothing = (m: Message.Message): boolean =>
  m.content.length > 0 && m.content.every((block) => block._tag === "ProviderData" && block.provider !== "gemini")
