/**
 * How validation and repair read OpenAI Responses items in an assistant
 * message: which blocks are reasoning items, and which id each output item
 * was read with. One reading, so that a repaired message passes the rule it
 * was repaired for.
 *
 * @internal
 */
import { isCustomTextCall } from "./customTools.js"
import * as Block from "../Block.js"
import type * as Message from "../Message.js"

/**
 * A Responses input item that reads as a tool result: a `function_call_output`
 * with a call id. One without (the SDK types make it optional: a program's call
 * may have none) answers no call the model can hold, and is kept whole on the
 * assistant side, as a response's output keeps it.
 */
export const isToolOutputItem = (item: { readonly [key: string]: unknown }): boolean =>
  item["type"] === "function_call_output" && item["call_id"] !== undefined && item["call_id"] !== null

/**
 * The first letters the Responses API requires of the id of each kind of item a client sends back: any other id is a
 * 400 ("Invalid 'input[N].id': 'item_…'. Expected an ID that begins with 'fc'."). Responses-compatible servers,
 * gateways and other SDKs mint ids of their own (`item_…`, `call_…`, a UUID), and a history read from them carries
 * those: the adapter's writer sends such an id on no item, and validation and repair read the items as it sends them.
 */
export const ITEM_ID_PREFIXES = { function_call: "fc", reasoning: "rs", message: "msg" } as const

/** `itemId` as the writer sends it on an item of `kind`: itself when of the kind's prefix, else none. */
const sentId = (itemId: string | undefined, kind: keyof typeof ITEM_ID_PREFIXES): string | undefined =>
  itemId !== undefined && itemId.startsWith(ITEM_ID_PREFIXES[kind]) ? itemId : undefined

/**
 * A thinking block the writer sends as a Responses reasoning item: it has the item's id, and that id is a reasoning
 * id or the block has the encrypted content to be replayed from without it (thinking of neither kind is left out).
 */
export const isReasoningItem = (block: Block.Block): boolean =>
  block._tag === "Thinking" && block.itemId !== undefined && (block.itemId.startsWith(ITEM_ID_PREFIXES.reasoning) || block.encryptedContent !== undefined)

/** A text or refusal block, which the Responses adapter writes as a part of a message item. */
export const isMessagePart = (block: Block.AssistantBlock | undefined): block is Block.TextBlock | Block.RefusalBlock =>
  block !== undefined && (block._tag === "Text" || block._tag === "Refusal")

/**
 * The Responses item id a block was read with (the id the API gave the item), if any, as the writer sends it: a
 * message part's, a function call's or a reasoning item's only when of its kind's prefix (`ITEM_ID_PREFIXES`).
 */
export const itemIdOf = (block: Block.AssistantBlock): string | undefined => {
  switch (block._tag) {
    case "Text":
    case "Refusal":
      return sentId(block.itemId, "message")
    case "ToolCall":
      // a custom tool's call with its input text goes as a custom_tool_call item, with the id it was read with
      return block.providerExecuted === true || isCustomTextCall(block) ? block.itemId : sentId(block.itemId, "function_call")
    case "Thinking":
      return sentId(block.itemId, "reasoning")
    case "ToolResult":
    case "File":
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
 * skipped; a reasoning item sent without an id (replayed from its encrypted
 * content, as clients that do not store responses send it) names no stored
 * item, so nothing has to follow it. `followedAfter` says whether the item
 * after the message carries an id (`followedByIdAfter`). Calls `found` with
 * each such block index, last first.
 */
export const unfollowedReasoning = (content: ReadonlyArray<Block.AssistantBlock>, found: (blockIndex: number) => void, followedAfter = false): void => {
  let followedById = followedAfter
  for (let b = content.length - 1; b >= 0; b--) {
    const block = content[b]!
    if (isReasoningItem(block)) {
      if (!followedById && itemIdOf(block) !== undefined) found(b)
    } else if (block._tag !== "Thinking") {
      followedById = itemIdOf(block) !== undefined
    }
  }
}

/**
 * For each message, what the assistant messages right after it say, in one backward pass: the first of them that
 * `decides` (it gives `undefined` to pass on what follows it); `false` at a message of another role, which ends the
 * run (or, with `emptyPasses`, an empty one passes too).
 */
export const decidedAfter = (
  messages: ReadonlyArray<Message.Message>,
  decides: (m: Message.AssistantMessage) => boolean | undefined,
  emptyPasses = false
): Array<boolean> => {
  const out = new Array<boolean>(messages.length)
  let next = false
  for (let i = messages.length - 1; i >= 0; i--) {
    out[i] = next
    const m = messages[i]!
    if (m.role === "assistant") next = decides(m) ?? next
    else if (!emptyPasses || m.content.length > 0) next = false
  }
  return out
}

/**
 * For each message, whether the first item the writer sends after it (reasoning aside) carries an id, as
 * `unfollowedReasoning` reads one: the items of an assistant message right after it are the next items, and a message
 * of thinking alone passes on what follows it.
 */
export const followedByIdAfter = (messages: ReadonlyArray<Message.Message>): Array<boolean> =>
  decidedAfter(messages, (m) => {
    const first = m.content.find((block) => block._tag !== "Thinking")
    return first === undefined ? undefined : itemIdOf(first) !== undefined
  })

/**
 * Hosted (provider-executed) tool items read as a tool call and its result:
 * the tool's name, and the item fields that are the result (the others,
 * but `type`, `id` and `status`, are the call's arguments).
 */
const hostedTools: Record<string, { readonly name: string; readonly result: ReadonlyArray<string> }> = {
  web_search_call: { name: "web_search", result: [] },
  file_search_call: { name: "file_search", result: ["results"] },
  code_interpreter_call: { name: "code_interpreter", result: ["outputs"] },
  mcp_call: { name: "mcp", result: ["output", "error"] }
}

/** The hosted tool of an item type; an own entry only, so that `"__proto__"` or `"constructor"` is no tool. */
export const hostedTool = (type: string): { readonly name: string; readonly result: ReadonlyArray<string> } | undefined =>
  Object.hasOwn(hostedTools, type) ? hostedTools[type] : undefined

const isRecord = (u: unknown): u is { readonly [key: string]: unknown } => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * The item of a hosted tool's call, with its result when one is given, as the writer sends it (before the item's
 * other kept fields, such as `status`): its type and id, an MCP call's name and argument text (`argumentText`) or
 * another call's arguments as fields, and the fields of its result. The estimate prices this item as the writer
 * sends it.
 */
export const hostedItem = (
  call: Block.ToolCallBlock,
  type: string,
  result: Block.ToolResultBlock | undefined,
  argumentText: (call: Block.ToolCallBlock) => string
): { [key: string]: unknown } => {
  const item: { [key: string]: unknown } = { type, id: call.itemId ?? call.id }
  const set = (key: string, value: unknown): void => {
    Object.defineProperty(item, key, { value, enumerable: true, writable: true, configurable: true })
  }
  if (type === "mcp_call") {
    item["name"] = call.name
    item["arguments"] = argumentText(call)
  } else if (isRecord(call.args)) {
    for (const field of Object.keys(call.args)) set(field, call.args[field])
  }
  if (result !== undefined && Array.isArray(result.content)) {
    const only = result.content[0]
    if (only !== undefined && only._tag === "Json" && isRecord(only.value)) {
      for (const field of Object.keys(only.value)) set(field, only.value[field])
    }
  }
  return item
}
