import type * as Message from "../Message.js"

/**
 * Whether the Gemini writer sends nothing of message `m`: it holds blocks, and every one is another provider's data,
 * which the writer leaves out (reporting it), and the message with it. Gemini's turn rules and their repair read the
 * conversation without such a message, as the request goes out: it starts no turn and is no turn before a call.
 */
export const geminiSendsNothing = (m: Message.Message): boolean =>
  m.content.length > 0 && m.content.every((block) => block._tag === "ProviderData" && block.provider !== "gemini")

/**
 * Whether the Gemini writer sends a `functionCall` part of message `m`: a call the provider ran (Gemini's code
 * execution, another provider's server tool) is sent as its own part or not at all, and the turn rule about function
 * calls does not see it.
 */
export const sendsFunctionCall = (m: Message.Message): boolean =>
  m.role === "assistant" && m.content.some((block) => block._tag === "ToolCall" && block.providerExecuted !== true)
