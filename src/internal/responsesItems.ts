/**
 * How validation and repair read OpenAI Responses items in an assistant
 * message: which blocks are reasoning items, and which id each output item
 * was read with. One reading, so that a repaired message passes the rule it
 * was repaired for.
 *
 * @internal
 */
import * as Block from "../Block.js"

/**
 * A Responses input item that reads as a tool result: a `function_call_output`
 * with a call id. One without (the SDK types make it optional: a program's call
 * may have none) answers no call the model can hold, and is kept whole on the
 * assistant side, as a response's output keeps it.
 */
export const isToolOutputItem = (item: { readonly [key: string]: unknown }): boolean =>
  item["type"] === "function_call_output" && item["call_id"] !== undefined && item["call_id"] !== null

/** A thinking block that was a Responses reasoning item (it has the item's id). */
export const isReasoningItem = (block: Block.Block): boolean => block._tag === "Thinking" && block.itemId !== undefined

/** A text or refusal block, which the Responses adapter writes as a part of a message item. */
export const isMessagePart = (block: Block.AssistantBlock | undefined): block is Block.TextBlock | Block.RefusalBlock =>
  block !== undefined && (block._tag === "Text" || block._tag === "Refusal")

/** The Responses item id a block was read with (the id the API gave the item), if any. */
export const itemIdOf = (block: Block.AssistantBlock): string | undefined => {
  switch (block._tag) {
    case "Text":
    case "Refusal":
    case "ToolCall":
    case "ToolResult":
    case "File":
    case "Thinking":
      return block.itemId
    case "RedactedThinking":
      return undefined
    case "ProviderData": {
      const data = block.data
      if (block.provider !== "openai-responses" || typeof data !== "object" || data === null || Array.isArray(data)) return undefined
      const id = (data as Block.JsonObject)["id"]
      return typeof id === "string" ? id : undefined
    }
    default:
      return Block.absurd(block)
  }
}

/**
 * The reasoning items of an assistant message that are not followed by an
 * item carrying an id (other reasoning items aside), in one backward pass.
 * Thinking without an item id is not sent as a reasoning item and is
 * skipped. Calls `found` with each such block index, last first.
 */
export const unfollowedReasoning = (content: ReadonlyArray<Block.AssistantBlock>, found: (blockIndex: number) => void): void => {
  let followedById = false
  for (let b = content.length - 1; b >= 0; b--) {
    const block = content[b]!
    if (isReasoningItem(block)) {
      if (!followedById) found(b)
    } else if (block._tag !== "Thinking") {
      followedById = itemIdOf(block) !== undefined
    }
  }
}
