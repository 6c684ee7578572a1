import type * as Block from "../Block.js"
import type * as Message from "../Message.js"
import { hintKey } from "./hint.js"

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

/**
 * Whether the Gemini writer sends a block of a message of `role` (a file aside, which the file price decides): not
 * another provider's data, nor in a model turn thinking with another provider's replay data, redacted thinking, a call
 * another provider ran or a result that is not Gemini's code execution result (a client tool's included). The writer's
 * rules (`writeModelParts`), read by the request estimate.
 */
export const geminiSends = (block: Block.Block, role: Message.Role): boolean => {
  const kind = (b: Block.ToolCallBlock | Block.ToolResultBlock) => b.providerOptions?.["gemini"]?.[hintKey("kind")]
  switch (block._tag) {
    case "ProviderData":
      return block.provider === "gemini"
    case "Thinking":
      return role !== "assistant" || (block.signature === undefined && block.itemId === undefined && block.encryptedContent === undefined)
    case "RedactedThinking":
      return role !== "assistant"
    case "ToolCall":
      return role !== "assistant" || block.providerExecuted !== true || kind(block) === "executableCode"
    case "ToolResult":
      return role !== "assistant" || (kind(block) === "codeExecutionResult" && Array.isArray(block.content) && block.content[0]?._tag === "Json")
    default:
      return true
  }
}
