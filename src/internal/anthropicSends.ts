/**
 * Whether the Anthropic adapter writes a block at all, and whether a provider-executed block is one of Anthropic's
 * server tools: the writer's own rules, read by validation and repair (through `anthropicSent`, which adds what is
 * sent of a block) and by the request estimate. A module of its own, without the values `anthropicSent` collects, so
 * that the estimate carries only these.
 *
 * @internal
 */
import * as Block from "../Block.js"
import { anthropicLeavesOut } from "./anthropicFiles.js"

/** Where a block is, for what the Anthropic adapter writes of it: the role of its message, or a part of a tool result. */
export type SentPlace = "system" | "user" | "assistant" | "tool" | "resultPart" | "serverResultPart"

/** The wire formats whose readers mark a provider-executed call as theirs. */
const NON_ANTHROPIC_FORMATS = ["openai-chat", "openai-responses", "gemini"] as const

/**
 * Whether the Anthropic adapter writes a provider-executed call or result as a server tool block of its own: it was
 * read from Anthropic, or no other format claims it (another's goes unsent). The writer's own rule, which validation
 * and the estimate read here too.
 */
export const isAnthropicServerBlock = (block: Block.ToolCallBlock | Block.ToolResultBlock): boolean => {
  const options = block.providerOptions
  if (options?.["anthropic"] !== undefined) return true
  if (block.itemId !== undefined) return false
  for (const other of NON_ANTHROPIC_FORMATS) if (options?.[other] !== undefined) return false
  return true
}

/**
 * Whether the Anthropic adapter writes a block at all (`anthropicSent` without what it sends of it): not empty text
 * (but in a server tool's result), unsigned thinking, a file it leaves out or one in an
 * assistant message, a call another provider ran, in an assistant message a result that is not a server tool's of
 * Anthropic's (a client tool's, or one of a call another provider ran), nor another provider's data.
 */
export const anthropicSends = (block: Block.Block, place: SentPlace, foreignCalls: ReadonlySet<string>): boolean => {
  switch (block._tag) {
    case "Text":
      return block.text !== "" || place === "serverResultPart"
    case "Thinking":
      return block.signature !== undefined
    case "RedactedThinking":
    case "Refusal":
    case "Json":
      return true
    case "File":
      return place !== "assistant" && !anthropicLeavesOut(block)
    case "ToolCall":
      return block.providerExecuted !== true || isAnthropicServerBlock(block)
    case "ToolResult":
      // (in an assistant message, only a result the provider ran is sent: the writer leaves out a client tool's)
      return place !== "assistant" || (block.providerExecuted === true && !foreignCalls.has(block.toolCallId) && isAnthropicServerBlock(block))
    case "ProviderData":
      return block.provider === "anthropic"
    default:
      return Block.absurd(block)
  }
}
