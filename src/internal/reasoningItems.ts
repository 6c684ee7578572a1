/**
 * The OpenAI Responses reasoning-item rule (`MissingReasoningItem`) and the
 * profile options a request implies, apart from the rest of validation so
 * that the window, which keeps a reasoning model's outputs with their
 * reasoning, carries them without the validator. `Conversation` exports
 * them under their public names.
 *
 * @internal
 */
import type { Schema } from "effect"
import * as Block from "../Block.js"
import type { ProfileOptions } from "../Conversation.js"
import type * as Message from "../Message.js"
import type { Provider } from "../Provider.js"
import { MissingReasoningItem } from "../ValidationError.js"
import { isMessagePart, isReasoningItem } from "./responsesItems.js"
import { withoutStacks } from "./withoutStacks.js"

/**
 * The profile options a whole request implies (`Conversation.profileOptionsOf`).
 */
export const profileOptionsOf = (
  request: {
    readonly model?: string | undefined
    readonly providerOptions?: Block.ProviderOptions | undefined
    readonly tools?: ReadonlyArray<{
      readonly providerOptions?: Block.ProviderOptions | undefined
      readonly providerDefined?: { readonly provider: string; readonly config?: Block.JsonObject | undefined } | undefined
    }> | undefined
  },
  options?: { readonly readFrom?: Provider }
): ProfileOptions => {
  const anthropic = request.providerOptions?.["anthropic"]
  const responses = request.providerOptions?.["openai-responses"]
  const setting = anthropic?.["thinking"]
  const type = typeof setting === "object" && setting !== null && "type" in setting ? (setting as Block.JsonObject)["type"] : undefined
  // without a setting, Claude 5 and later think adaptively (their documented default); earlier models do not think
  const mode = type === "enabled" || type === "adaptive" ? type : type === undefined && thinksByDefault(request.model) ? "adaptive" : undefined
  const thinking = mode !== undefined ? true : type === "disabled" || (type === undefined && options?.readFrom === "anthropic") ? false : undefined
  const stored = (field: string): boolean => responses?.[field] !== undefined && responses[field] !== null
  return {
    ...(request.model === undefined ? {} : { model: request.model }),
    ...(thinking === undefined ? {} : { thinking }),
    ...(mode === undefined ? {} : { thinkingMode: mode }),
    ...(responses?.["store"] === false ? { store: false } : {}),
    ...reasoningItemsOf(request.model, responses),
    ...(stored("previous_response_id") || stored("conversation") ? { continues: true } : {}),
    ...cacheBreakpointsOutside(anthropic, request.tools)
  }
}

/**
 * The version of the Claude model a model id names (`claude-sonnet-4-6`,
 * `claude-opus-4-1-20250805`, `anthropic/claude-sonnet-4.6`,
 * `us.anthropic.claude-opus-4-6-v1:0`, `claude-sonnet-5`), or undefined for
 * other ids (the older `claude-3-7-sonnet-…` order included: those models
 * predate every rule that asks). A date after the version is no minor version.
 */
export const claudeVersion = (model: string | undefined): { readonly major: number; readonly minor: number } | undefined => {
  const found = model === undefined ? null : /(?:^|[^a-z0-9])claude-[a-z]+-(\d+)(?:[-.](\d{1,2}))?(?!\d)/i.exec(model)
  return found === null ? undefined : { major: Number(found[1]), minor: found[2] === undefined ? 0 : Number(found[2]) }
}

/** Whether the model thinks (adaptively) when a request says nothing about thinking: Claude 5 and later. */
const thinksByDefault = (model: string | undefined): boolean => (claudeVersion(model)?.major ?? 0) >= 5

/** What `profileOptionsOf` reads of a tool definition: where the Anthropic adapter finds its `cache_control`. */
interface ToolWithOptions {
  readonly providerOptions?: Block.ProviderOptions | undefined
  readonly providerDefined?: { readonly provider: string; readonly config?: Block.JsonObject | undefined } | undefined
}

/** Whether a `cache_control` is a breakpoint: set, and not an explicit `null` (recorded accepted as none). */
export const isBreakpoint = (cache: Schema.Json | undefined): boolean => cache !== undefined && cache !== null

/**
 * The Anthropic cache breakpoints a request sets outside its messages, as the adapter writes them: a client tool's
 * from its options, one of Anthropic's own tools' from its definition, and a top-level one (automatic caching).
 */
const cacheBreakpointsOutside = (
  anthropic: Block.JsonObject | undefined,
  tools: ReadonlyArray<ToolWithOptions> | undefined
): { readonly cacheBreakpointsOutsideMessages?: number } => {
  let n = isBreakpoint(anthropic?.["cache_control"]) ? 1 : 0
  for (const tool of tools ?? []) {
    const defined = tool.providerDefined
    const cache = defined === undefined ? tool.providerOptions?.["anthropic"]?.["cache_control"] : defined.provider === "anthropic" ? defined.config?.["cache_control"] : undefined
    if (isBreakpoint(cache)) n++
  }
  return n === 0 ? {} : { cacheBreakpointsOutsideMessages: n }
}

/** An OpenAI model id without a gateway's prefix (`openai/gpt-5`), in lower case. */
const openAiModelName = (model: string): string => model.slice(model.lastIndexOf("/") + 1).toLowerCase()

/**
 * Whether the OpenAI model a model id names can reason: the o-series (`o1`, `o3-mini`, `o4-mini`), `codex-mini`, and
 * GPT-5 and later, but for their chat variants (`gpt-5-chat-latest`), which do not. An id it does not know (an Azure
 * deployment's own name) is none.
 */
const canReason = (model: string): boolean => {
  const name = openAiModelName(model)
  if (/^o[1-9]\d*(?:-|$)/.test(name) || name.startsWith("codex-mini")) return true
  const gpt = /^gpt-(\d+)/.exec(name)
  return gpt !== null && Number(gpt[1]) >= 5 && !name.includes("-chat")
}

/**
 * Whether the model reasons when a request does not set `reasoning.effort`, producing a reasoning item before its
 * outputs: the o-series, `codex-mini`, GPT-5 (`gpt-5`, `gpt-5-mini`) and the Codex models. GPT-5.1 and later default to
 * no reasoning (`effort: "none"`): a recorded request to `gpt-5.4` without an effort replayed its `msg_` and `fc_`
 * items without reasoning and was accepted.
 */
const reasonsByDefault = (model: string): boolean => {
  if (!canReason(model)) return false
  const name = openAiModelName(model)
  return !name.startsWith("gpt-") || /^gpt-5(?:-|$)/.test(name) || name.includes("codex")
}

/** Whether a Responses profile wants each output item sent with its id to come with its reasoning item (`Conversation.requiresReasoningItems`). */
export const requiresReasoningItems = (options?: ProfileOptions): boolean => {
  if (options?.reasoningItems !== undefined) return options.reasoningItems === "required"
  return options?.model !== undefined && reasonsByDefault(options.model)
}

/**
 * The reasoning-item setting a Responses request's `reasoning.effort` implies for a model that can reason: none
 * without reasoning (`"none"`), required with any other effort.
 */
const reasoningItemsOf = (model: string | undefined, responses: Block.JsonObject | undefined): { readonly reasoningItems?: "required" | "optional" } => {
  const reasoning = responses?.["reasoning"]
  const effort = typeof reasoning === "object" && reasoning !== null && !Array.isArray(reasoning) ? (reasoning as Block.JsonObject)["effort"] : undefined
  if (typeof effort !== "string" || model === undefined || !canReason(model)) return {}
  return { reasoningItems: effort === "none" ? "optional" : "required" }
}

/** The kinds of output item a reasoning model is recorded rejecting without their reasoning item. */
type ReasoningOutputType = "function_call" | "message" | "web_search_call" | "image_generation_call"

/**
 * The kinds of item kept as provider data, or as a hosted call or a generated image, that the API is recorded
 * rejecting without their reasoning item ("Item 'ws_…' of type 'web_search_call' was provided without its required
 * 'reasoning' item", "Item 'ig_…' of type 'image_generation_call' …"). Other hosted items (file search, code
 * interpreter, MCP, computer and custom tool calls) carry ids too, but no such rejection of them is on record.
 */
const keptOutputType = (type: unknown): "web_search_call" | "image_generation_call" | undefined =>
  type === "web_search_call" || type === "image_generation_call" ? type : undefined

/**
 * The kind of output item the Responses adapter writes a block as, when it writes it with its item id: a client
 * call as a `function_call` (an id that begins with `fc`), text and refusals as a `message` (`msg`), a hosted web
 * search as a `web_search_call` (its item id, else its call id), a generated image as an `image_generation_call`,
 * and provider data of those two kinds with the `id` it holds. The adapter leaves other ids of calls and messages out
 * (the API takes no other on those items), so they reference nothing.
 */
const sentOutputItem = (block: Block.AssistantBlock): { readonly type: ReasoningOutputType; readonly itemId: string } | undefined => {
  switch (block._tag) {
    case "ToolCall": {
      if (block.providerExecuted !== true) return block.itemId?.startsWith("fc") === true ? { type: "function_call", itemId: block.itemId } : undefined
      const type = keptOutputType(block.providerOptions?.["openai-responses"]?.["type"])
      const itemId = block.itemId ?? block.id
      return type === "web_search_call" && itemId !== "" ? { type, itemId } : undefined
    }
    case "Text":
    case "Refusal":
      return block.itemId?.startsWith("msg") === true ? { type: "message", itemId: block.itemId } : undefined
    case "File":
      return block.itemId !== undefined && block.source._tag === "Base64" &&
          keptOutputType(block.providerOptions?.["openai-responses"]?.["type"]) === "image_generation_call"
        ? { type: "image_generation_call", itemId: block.itemId }
        : undefined
    case "ProviderData": {
      if (block.provider !== "openai-responses") return undefined
      const type = keptOutputType(block.data["type"])
      const itemId = block.data["id"]
      return type !== undefined && typeof itemId === "string" && itemId !== "" ? { type, itemId } : undefined
    }
    case "Thinking":
    case "RedactedThinking":
    case "ToolResult":
      return undefined
    default:
      return Block.absurd(block)
  }
}

/**
 * Reasoning models: an output item sent with its id needs the reasoning item it was produced after (documented
 * error: "Item 'fc_…' of type 'function_call' was provided without its required 'reasoning' item: 'rs_…'"), when
 * the request stores (with `store: false` the API keeps no items to look one up by, and agents that leave reasoning
 * out of such requests are accepted). Which reasoning item that was is not kept, so any reasoning item before it in
 * its turn (from the user's last words on) will do: outputs written right after each call (the reader then starts a
 * new assistant message) still follow the turn's reasoning. A conversation that continues a stored response opens
 * with that response's turn, reasoning included.
 */
export const reasoningItemRule = (
  messages: ReadonlyArray<Message.Message>,
  options: ProfileOptions | undefined,
  sink: (issue: MissingReasoningItem) => boolean
): void => {
  // with store: false nothing is stored to look an item up by: agents that leave reasoning out then are accepted
  if (!requiresReasoningItems(options) || options?.store === false) return
  const provider = "openai-responses"
  let reasoned = options?.continues === true
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role === "user") reasoned = false
    if (m.role !== "assistant" || reasoned) continue
    const content = m.content
    for (let b = 0; b < content.length && !reasoned; b++) {
      const block = content[b]!
      if (isReasoningItem(block)) {
        reasoned = true
        continue
      }
      const item = sentOutputItem(block)
      if (item === undefined) continue
      // the later parts of a message item are that item, reported at its first part
      const before = content[b - 1]
      if (item.type === "message" && isMessagePart(before) && before.itemId === item.itemId) continue
      if (sink(new MissingReasoningItem({ provider, index: i, blockIndex: b, itemId: item.itemId, itemType: item.type }))) return
    }
  }
}

/** The output items missing their reasoning item (`Conversation.missingReasoningItems`). */
export const missingReasoningItems = (messages: ReadonlyArray<Message.Message>, options?: ProfileOptions): Array<MissingReasoningItem> =>
  withoutStacks(() => {
    const found: Array<MissingReasoningItem> = []
    reasoningItemRule(messages, options, (issue) => {
      found.push(issue)
      return false
    })
    return found
  })
