/**
 * Repair of broken histories, with a log of every change.
 *
 * Agents crash mid tool call, persist half a turn, retry and push a message
 * twice. `repair` turns such a history into one that passes
 * `Conversation.validate`, and `repairFor(provider)` into one that passes
 * `Conversation.validateFor(provider)`, each in linear passes on the same
 * reading of turns as validation, and logs each change as a tagged
 * `RepairAction` so that nothing disappears silently (removed content is kept
 * in the log, whole).
 *
 * @since 0.1.0
 */
import { Effect, Equal, Schema } from "effect"
import * as Block from "./Block.js"
import * as Conversation from "./Conversation.js"
import type { CallRef } from "./internal/walker.js"
import { geminiSendsNothing, sendsFunctionCall } from "./internal/geminiSent.js"
import { decidedAfter, followedByIdAfter, isMessagePart, isReasoningItem, itemIdOf, unfollowedReasoning } from "./internal/responsesItems.js"
import { ORPHAN, Walker } from "./internal/walker.js"
import * as Message from "./Message.js"
import type { Provider } from "./Provider.js"
import { unknownProvider } from "./internal/unknownProvider.js"
import { mediaTypeText, messageText, preview, quote } from "./internal/preview.js"
import { ANTHROPIC_IMAGE_TYPES, bareMediaType } from "./internal/mediaType.js"
import type { Issue } from "./ValidationError.js"
import { formatPath, Issue as IssueSchema } from "./ValidationError.js"
import { isAnthropicHintKey, wireName } from "./internal/hint.js"
import { defineOwn } from "./internal/json.js"
import { isCustomTextCall } from "./internal/customTools.js"
import { customCallOutputs, customItemOf, isChatCustomCall, isCustomOutputsOnly, isObject, jsonText, rawArgsHold, sentArgumentsProblem } from "./internal/toolArgs.js"
import { hasLoneSurrogate, LONE_SURROGATES } from "./internal/surrogates.js"
import { anthropicImageType, isImageType } from "./internal/anthropicFiles.js"
import { inlineFileOf, withDataUrlType } from "./internal/dataUrlFile.js"
import { anthropicRuns, anthropicWrittenMessages, CONTINUES, FILLED, hasDollarKey, LEFT_OUT, isDollar, isSeparate, sentOptionKey, UNSENT, walkAnthropicSent, withoutUnsent } from "./internal/anthropicSent.js"
import { assistantRunEnd, isThinkingBlock, nextOnWire, previousOnWire, thinkingSetting, turnStart } from "./internal/anthropicTurn.js"

/**
 * The content given to a synthetic result for a call that was never answered.
 *
 * @example
 * const { messages } = Repair.repair([Message.user("Weather?"), Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]), Message.user("Never mind.")])
 * Message.textOf(messages[2]!) // "tool call was interrupted" (Repair.INTERRUPTED)
 *
 * @since 0.1.0
 */
export const INTERRUPTED = "tool call was interrupted"

/**
 * The thought signature Gemini documents for function calls it did not
 * produce itself (history from another model, or calls an application
 * injected): it tells the API to skip the signature check.
 *
 * @example
 * const { messages } = yield* Repair.repairFor("gemini", { model: "gemini-3-flash-preview" })([
 *   Message.user("Weather in Oslo?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ])
 * Message.toolCallsOf(messages[1]!)[0]?.thoughtSignature === Repair.GEMINI_SKIP_SIGNATURE // true
 *
 * @since 0.1.0
 */
export const GEMINI_SKIP_SIGNATURE = "skip_thought_signature_validator"

/**
 * The text of the user message inserted where Gemini needs a user turn
 * before a function call.
 *
 * @example
 * const { messages } = yield* Repair.repairFor("gemini")([
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ])
 * Message.textOf(messages[0]!) // "Continue." (Repair.CONTINUE)
 *
 * @since 0.1.0
 */
export const CONTINUE = "Continue."

const Index = Schema.Number

/** The longest text a description quotes before cutting it with "…". */
const QUOTED = 200

/** `messages[i]`, or `messages[i].content[b]` for a step that names its block. */
const place = (index: number, blockIndex: number | undefined): string =>
  blockIndex === undefined ? `messages[${index}]` : `messages[${index}].content[${blockIndex}]`

/** The `content` field of an `InsertedMissingResult`: the text inserted, when it is not the default. */
const insertedContent = (content: string): { readonly content?: string } => (content === INTERRUPTED ? {} : { content })

/**
 * A call that had no result got a synthetic error result. For an OpenAI
 * Responses `custom_tool_call` kept as provider data (`repairFor
 * ("openai-responses")`), that result is a `custom_tool_call_output` item
 * with the call's `call_id`, placed right after the call. `content` is the
 * text inserted when it is not `INTERRUPTED` (the `interruptedContent`
 * option); the description quotes it, cut to 200 characters.
 *
 * @example
 * const { actions } = Repair.repair([Message.user("Weather?"), Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]), Message.user("Never mind.")])
 * actions[0]?.description // 'messages[1]: tool call "c1" (weather) had no result; inserted an error result "tool call was interrupted"'
 *
 * const cancelled = Repair.repair([Message.user("Weather?"), Message.assistantMessage("", [{ id: "c1", name: "weather" }]), Message.user("Stop.")], { interruptedContent: "cancelled by the user" })
 * cancelled.actions[0]?.description // 'messages[1]: tool call "c1" (weather) had no result; inserted an error result "cancelled by the user"'
 *
 * @since 0.1.0
 */
export class InsertedMissingResult extends Schema.TaggedClass<InsertedMissingResult>()("InsertedMissingResult", {
  index: Index,
  toolCallId: Schema.String,
  toolName: Schema.String,
  content: Schema.optionalKey(Schema.String)
}) {
  get description(): string {
    return `messages[${this.index}]: tool call ${quote(this.toolCallId)} (${messageText(this.toolName)}) had no result; inserted an error result ${quote(this.content ?? INTERRUPTED, QUOTED)}`
  }
}

/**
 * A result that answered no call of its turn was removed; `result` keeps it,
 * and `blockIndex` (when set) is where it was in its tool message.
 *
 * @example
 * const { messages, actions } = Repair.repair([Message.user("hi"), Message.toolResultMessage("c9", "search", "stale"), Message.assistant("Hello!")])
 * messages.length // 2
 * actions[0]?._tag // "RemovedOrphanResult"
 * actions[0]?.description // 'messages[1].content[0]: removed tool result "c9" (search): it answers no call of the preceding assistant message'
 *
 * @since 0.1.0
 */
export class RemovedOrphanResult extends Schema.TaggedClass<RemovedOrphanResult>()("RemovedOrphanResult", {
  index: Index,
  result: Block.ToolResultBlock,
  blockIndex: Schema.optionalKey(Index)
}) {
  get description(): string {
    return `${place(this.index, this.blockIndex)}: removed tool result ${quote(this.result.toolCallId)} (${messageText(this.result.toolName)}): it answers no call of the preceding assistant message`
  }
}

/**
 * A second result for an already answered call was removed; `result` keeps
 * it, and `blockIndex` (when set) is where it was in its tool message.
 *
 * @example
 * const { actions } = Repair.repair([
 *   Message.user("Weather?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.toolResultMessage("c1", "weather", "12°C"),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ])
 * actions.map((a) => a._tag) // ["RemovedDuplicateResult", "RemovedEmptyMessage"]
 *
 * @since 0.1.0
 */
export class RemovedDuplicateResult extends Schema.TaggedClass<RemovedDuplicateResult>()("RemovedDuplicateResult", {
  index: Index,
  firstIndex: Index,
  result: Block.ToolResultBlock,
  blockIndex: Schema.optionalKey(Index)
}) {
  get description(): string {
    return `${place(this.index, this.blockIndex)}: removed a second result for tool call ${quote(this.result.toolCallId)} (first at messages[${this.firstIndex}])`
  }
}

/**
 * A message was removed because it had no content (or none left after
 * repair); `message` keeps it whole, metadata and provider options included.
 *
 * @example
 * const { actions } = Repair.repair([Message.user("hi"), Message.assistant([], { metadata: { traceId: "t1" } })])
 * actions[0]?._tag // "RemovedEmptyMessage"
 *
 * @since 0.1.0
 */
export class RemovedEmptyMessage extends Schema.TaggedClass<RemovedEmptyMessage>()("RemovedEmptyMessage", {
  index: Index,
  message: Message.Message
}) {
  get description(): string {
    return `messages[${this.index}]: removed ${this.message.role === "assistant" ? "an" : "a"} ${this.message.role} message with no content left`
  }
}

/**
 * A message was merged into the previous one of the same role; `message` is
 * the merged-away original, whole (its metadata and name included, which the
 * merged message does not take over when they conflict).
 *
 * @example
 * const { messages, actions } = Repair.repair([Message.user("hi"), Message.user("anyone there?")])
 * messages.length // 1
 * actions[0]?.description // "messages[1]: merged this user message into messages[0]"
 *
 * @since 0.1.0
 */
export class MergedConsecutive extends Schema.TaggedClass<MergedConsecutive>()("MergedConsecutive", {
  index: Index,
  into: Index,
  message: Message.Message
}) {
  get description(): string {
    return `messages[${this.index}]: merged this ${this.message.role} message into messages[${this.into}]`
  }
}

/**
 * A system message was moved: out from between tool calls and their results
 * (`"after-results"`), before an assistant message whose calls are still
 * pending (`"before-pending-calls"`), to the start, where Gemini takes
 * system text (`"start"`), or after the message that the messages around
 * it were merged into (`"after-merged-messages"`: a run of same-role
 * messages merged where the profile forbids it, Anthropic's merge of the
 * assistant messages of a tool loop's turn to put its thinking first, or of
 * results read from two user messages; for Anthropic the system message
 * goes to the system prompt either way).
 *
 * @example
 * const { actions } = Repair.repair([
 *   Message.user("Weather?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.system("Answer in Celsius."),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ])
 * actions[0]?.description // "messages[2]: moved a system message out from between tool calls and their results"
 *
 * @since 0.1.0
 */
export class MovedSystemMessage extends Schema.TaggedClass<MovedSystemMessage>()("MovedSystemMessage", {
  index: Index,
  to: Schema.optionalKey(Schema.Literals(["after-results", "before-pending-calls", "start", "after-merged-messages"]))
}) {
  get description(): string {
    switch (this.to) {
      case "before-pending-calls":
        return `messages[${this.index}]: moved a system message before the assistant message whose calls are still pending`
      case "start":
        return `messages[${this.index}]: moved a system message to the start of the conversation`
      case "after-merged-messages":
        return `messages[${this.index}]: moved a system message after the messages around it, merged into one`
      case "after-results":
      case undefined:
        return `messages[${this.index}]: moved a system message out from between tool calls and their results`
      default:
        return Block.absurd(this.to)
    }
  }
}

/**
 * A user message between tool calls and their results (the user wrote while
 * the tools ran, and their results came after) was moved after those
 * results, so that the results answer their calls rather than being removed
 * as orphans with an "interrupted" result in their place; it then merges
 * with a user message after it where the profile wants them merged.
 *
 * @example
 * const { actions } = Repair.repair([
 *   Message.user("Weather in Oslo?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather" }]),
 *   Message.user("and Bergen too"),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ])
 * actions[0]?.description // "messages[2]: moved a user message after the results of the tool calls before it"
 *
 * @since 0.1.0
 */
export class MovedUserMessage extends Schema.TaggedClass<MovedUserMessage>()("MovedUserMessage", {
  index: Index
}) {
  get description(): string {
    return `messages[${this.index}]: moved a user message after the results of the tool calls before it`
  }
}

/**
 * A call id that was empty or already used got a fresh id (its results in the
 * same turn follow it). `blockIndex`, when set, is the block of the call (or
 * of the result) renamed: of two calls of one message that share an id, the
 * one that got the fresh id.
 *
 * An OpenAI Responses custom tool item kept as provider data whose
 * `call_id` is not a string (which the API rejects) gets a fresh one too:
 * `from` is then the JSON text of the `call_id` and `original` the value
 * itself, as it came (`42`, not `"42"`).
 *
 * @example
 * const { actions } = Repair.repair([
 *   Message.user("Weather?"),
 *   Message.assistantMessage("", [{ id: "", name: "weather" }]),
 *   Message.toolResultMessage("", "weather", "12°C")
 * ])
 * actions[0]?._tag // "RenamedToolCallId"
 * actions[0]?.description // 'messages[1].content[0]: renamed tool call id "" to "call_repaired_1"'
 *
 * @since 0.1.0
 */
export class RenamedToolCallId extends Schema.TaggedClass<RenamedToolCallId>()("RenamedToolCallId", {
  index: Index,
  from: Schema.String,
  to: Schema.String,
  blockIndex: Schema.optionalKey(Index),
  original: Schema.optionalKey(Schema.Json)
}) {
  get description(): string {
    const from = this.original === undefined ? quote(this.from) : `${messageText(this.from, QUOTED)} (not a string)`
    return `${place(this.index, this.blockIndex)}: renamed tool call id ${from} to ${quote(this.to)}`
  }
}

/**
 * A tool call or result with an empty tool name got one (from its call, or
 * `unknown_tool`). `blockIndex`, when set, is the block of the call or
 * result.
 *
 * An OpenAI Responses custom tool call kept as provider data whose `name`
 * is missing or not a string (which the API rejects) gets `unknown_tool`
 * too; a name that was there but not a string is kept in `original`, as it
 * came.
 *
 * @example
 * const { actions } = Repair.repair([
 *   Message.user("Weather?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather" }]),
 *   Message.toolResultMessage("c1", "", "12°C")
 * ])
 * actions[0]?.description // 'messages[2].content[0]: tool "c1" had an empty name; set to "weather"'
 *
 * const call = Block.providerData("openai-responses", { type: "custom_tool_call", call_id: "ct_1", name: 7, input: "*** Begin Patch" })
 * const output = Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: "ct_1", output: "done" })
 * const repaired = yield* Repair.repairFor("openai-responses")([Message.user("Patch it."), Message.assistant([call, output])])
 * const filled = repaired.actions[0]
 * if (filled?._tag === "FilledToolName") filled.original // 7
 *
 * @since 0.1.0
 */
export class FilledToolName extends Schema.TaggedClass<FilledToolName>()("FilledToolName", {
  index: Index,
  toolCallId: Schema.String,
  name: Schema.String,
  blockIndex: Schema.optionalKey(Index),
  original: Schema.optionalKey(Schema.Json)
}) {
  get description(): string {
    const had = this.original === undefined ? "an empty name" : `a name that is not a string (${preview(this.original, QUOTED)})`
    return `${place(this.index, this.blockIndex)}: tool ${quote(this.toolCallId)} had ${had}; set to ${quote(this.name)}`
  }
}

/**
 * A block a provider would reject was removed; `block` keeps it whole (a
 * thinking block's text is in it). `reason` says why.
 *
 * @example
 * const { actions } = yield* Repair.repairFor("anthropic")([Message.user("hi"), Message.assistant([Block.text(" "), Block.text("Hello!")])])
 * actions[0]?.description // "messages[1].content[0]: removed a Text block: ..."
 *
 * @since 0.1.0
 */
export class RemovedBlock extends Schema.TaggedClass<RemovedBlock>()("RemovedBlock", {
  index: Index,
  blockIndex: Index,
  block: Block.Block,
  reason: Schema.String
}) {
  get description(): string {
    return `messages[${this.index}].content[${this.blockIndex}]: removed a ${this.block._tag} block: ${messageText(this.reason, 500)}`
  }
}

/**
 * A block was moved within its message (`from` and `to` are block indexes
 * before the move): thinking to the front of a tool loop's assistant
 * message, or text ahead of the tool calls it followed.
 *
 * @example
 * const { actions } = yield* Repair.repairFor("anthropic")([
 *   Message.user("Find it."),
 *   Message.assistant([Block.toolCall("c1", "search"), Block.text("Searching now.")]),
 *   Message.toolResultMessage("c1", "search", "3 hits")
 * ])
 * actions[0]?._tag // "MovedBlock"
 *
 * @since 0.1.0
 */
export class MovedBlock extends Schema.TaggedClass<MovedBlock>()("MovedBlock", {
  index: Index,
  from: Index,
  to: Index,
  reason: Schema.String
}) {
  get description(): string {
    return `messages[${this.index}]: moved content[${this.from}] to content[${this.to}]: ${messageText(this.reason, 500)}`
  }
}

/**
 * Trailing whitespace was cut from a final assistant message (a prefill);
 * `original` keeps the text as it was.
 *
 * @example
 * const { messages, actions } = yield* Repair.repairFor("anthropic")([Message.user("Write a haiku."), Message.assistant("Autumn wind \n")])
 * Message.textOf(messages[1]!) // "Autumn wind"
 * actions[0]?._tag // "TrimmedPrefill"
 *
 * @since 0.1.0
 */
export class TrimmedPrefill extends Schema.TaggedClass<TrimmedPrefill>()("TrimmedPrefill", {
  index: Index,
  blockIndex: Index,
  original: Schema.String
}) {
  get description(): string {
    return `messages[${this.index}].content[${this.blockIndex}]: cut trailing whitespace from the final assistant text`
  }
}

/**
 * A user message was inserted before a function-call turn that followed no
 * user turn (Gemini needs one there).
 *
 * @example
 * const { actions } = yield* Repair.repairFor("gemini")([Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]), Message.toolResultMessage("c1", "weather", "12°C")])
 * actions[0]?.description // 'messages[0]: inserted a user message "Continue." before a function-call turn'
 *
 * @since 0.1.0
 */
export class InsertedUserMessage extends Schema.TaggedClass<InsertedUserMessage>()("InsertedUserMessage", {
  index: Index,
  text: Schema.String
}) {
  get description(): string {
    return `messages[${this.index}]: inserted a user message ${quote(this.text, QUOTED)} before a function-call turn`
  }
}

/**
 * A function call Gemini needs a thought signature on got the documented
 * "skip validation" signature (the call was not produced by Gemini, or its
 * signature was lost). `blockIndex`, when set, is the call's block in the
 * message as repaired (after the messages merged into it).
 *
 * @example
 * const { actions } = yield* Repair.repairFor("gemini", { thoughtSignatures: "required" })([
 *   Message.user("Weather in Oslo?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ])
 * actions[0]?._tag // "AddedThoughtSignature"
 * actions[0]?.description.startsWith("messages[1].content[0]: ") // true
 *
 * @since 0.1.0
 */
export class AddedThoughtSignature extends Schema.TaggedClass<AddedThoughtSignature>()("AddedThoughtSignature", {
  index: Index,
  toolCallId: Schema.String,
  blockIndex: Schema.optionalKey(Index)
}) {
  get description(): string {
    return `${place(this.index, this.blockIndex)}: tool call ${quote(this.toolCallId)} had no thought signature; set the one Gemini documents for calls it did not produce`
  }
}

/**
 * A tool call's arguments text that is not a JSON object (broken JSON a
 * model wrote, kept as it came) was replaced with the arguments read from it
 * (`{}` when they are not an object either); OpenAI takes only an object.
 * `original` keeps the text as it was, `replacement` is the text sent now.
 *
 * @example
 * const call = Block.toolCall("c1", "weather", { city: "Osl" }, { rawArgs: '{"city": "Osl', parseError: "Unterminated string in JSON" })
 * const { messages, actions } = yield* Repair.repairFor("openai-chat")([Message.user("Weather?"), Message.assistant([call]), Message.toolResultMessage("c1", "weather", "12°C")])
 * actions[0]?.description // 'messages[1].content[0]: the arguments of tool call "c1" were not a JSON object (Unterminated string in JSON); sent as {"city":"Osl"}'
 *
 * @since 0.1.0
 */
export class ReplacedToolArguments extends Schema.TaggedClass<ReplacedToolArguments>()("ReplacedToolArguments", {
  index: Index,
  blockIndex: Index,
  toolCallId: Schema.String,
  original: Schema.String,
  replacement: Schema.String,
  reason: Schema.String
}) {
  get description(): string {
    return `messages[${this.index}].content[${this.blockIndex}]: the arguments of tool call ${quote(this.toolCallId)} were not a JSON object (${messageText(this.reason, QUOTED)}); sent as ${messageText(this.replacement, QUOTED)}`
  }
}

/**
 * The lone UTF-16 surrogates of a block (halves of characters, such as an
 * emoji cut in two by slicing text) were each replaced with U+FFFD, the
 * replacement character: Anthropic rejects a request body that holds one
 * (`ValidationError.LoneSurrogate`). Every string of the block counts, the
 * keys of its arguments too. `count` says how many were replaced, and
 * `original` keeps the block as it was, whole.
 *
 * @example
 * const cut = "Done 😀".slice(0, 6) // the emoji's second half is gone
 * const { messages, actions } = yield* Repair.repairFor("anthropic")([Message.user(cut)])
 * Message.textOf(messages[0]!) // "Done \uFFFD"
 * actions[0]?.description // "messages[0].content[0]: replaced 1 lone UTF-16 surrogate with U+FFFD (Anthropic rejects a body that holds one)"
 *
 * @since 0.1.0
 */
export class ReplacedLoneSurrogates extends Schema.TaggedClass<ReplacedLoneSurrogates>()("ReplacedLoneSurrogates", {
  index: Index,
  blockIndex: Index,
  count: Schema.Number,
  original: Block.Block
}) {
  get description(): string {
    return `messages[${this.index}].content[${this.blockIndex}]: replaced ${this.count} lone UTF-16 surrogate${this.count === 1 ? "" : "s"} with U+FFFD (Anthropic rejects a body that holds one)`
  }
}

/**
 * The item id of an OpenAI Responses output item (a function call's `fc_…`,
 * a message's `msg_…`) was removed: a reasoning model rejects an item sent
 * with its id when the reasoning item it was produced after is not sent
 * (`ValidationError.MissingReasoningItem`), and takes the same item without
 * an id as new input (a call is paired with its output by its call id).
 * `original` keeps the id; the block is otherwise as it was. `blockIndex`
 * is the block in the message as repaired (after the messages merged into
 * it); each part of a message item is logged. Without its id, text goes
 * back as a plain assistant message, whose citations the adapter reports as
 * lost.
 *
 * @example
 * const reply = Message.assistant([Block.toolCall("call_1", "weather", { city: "Oslo" }, { itemId: "fc_1" })])
 * const { messages, actions } = yield* Repair.repairFor("openai-responses", { model: "gpt-5" })([
 *   Message.user("Weather in Oslo?"), reply, Message.toolResultMessage("call_1", "weather", "12°C")
 * ])
 * actions[0]?.description // 'messages[1].content[0]: removed the item id "fc_1": its reasoning item is not sent, and a reasoning model rejects an item with its id without it'
 *
 * @since 0.1.0
 */
export class RemovedItemId extends Schema.TaggedClass<RemovedItemId>()("RemovedItemId", {
  index: Index,
  blockIndex: Index,
  original: Schema.String
}) {
  get description(): string {
    return `messages[${this.index}].content[${this.blockIndex}]: removed the item id ${quote(this.original)}: its reasoning item is not sent, and a reasoning model rejects an item with its id without it`
  }
}

/**
 * An image given as base64 data was given the media type its bytes show
 * (JPEG, PNG, GIF or WebP, read from its first bytes): Anthropic rejects an
 * image whose bytes are another format than its declared type
 * (`ValidationError.MediaTypeMismatch`: "Image does not match the provided
 * media type image/png"), and takes only `image/jpeg`, `image/png`,
 * `image/gif` and `image/webp` (an image declared `image/jpg` is given the
 * type its bytes show too). Only the type changes (for an image at a base64
 * `data:` URL, which Anthropic's writer sends as its data, the type the URL
 * declares too); `original` keeps the declared one. `partIndex` names the part of a tool result the image is.
 *
 * @example
 * const jpeg = Block.file(Block.base64("/9j/4AAQSkZJRgABAQ=="), "image/png")
 * const { messages, actions } = yield* Repair.repairFor("anthropic")([Message.user([Block.text("What is this?"), jpeg])])
 * actions[0]?.description // "messages[0].content[1]: the image declared image/png was given the type its bytes show, image/jpeg (Anthropic rejects an image that does not match its media type)"
 *
 * @since 0.1.0
 */
export class CorrectedMediaType extends Schema.TaggedClass<CorrectedMediaType>()("CorrectedMediaType", {
  index: Index,
  blockIndex: Index,
  partIndex: Schema.optionalKey(Index),
  original: Schema.String,
  mediaType: Schema.String
}) {
  get description(): string {
    const part = this.partIndex === undefined ? "" : `.content[${this.partIndex}]`
    const why = ANTHROPIC_IMAGE_TYPES.has(bareMediaType(this.original))
      ? "Anthropic rejects an image that does not match its media type"
      : `Anthropic takes only ${[...ANTHROPIC_IMAGE_TYPES].join(", ")}`
    return `messages[${this.index}].content[${this.blockIndex}]${part}: the image declared ${mediaTypeText(this.original)} was given the type its bytes show, ${messageText(this.mediaType)} (${why})`
  }
}

/**
 * A field of a message that Anthropic does not take was removed: an
 * Anthropic message takes only `role` and `content` ("Extra inputs are not
 * permitted"; `ValidationError.UnknownMessageField`), and such a field, read
 * by `Anthropic.fromMessages` and kept in the message's Anthropic options,
 * is written back on it. `field` is its name as written, `original` its
 * value; `cache_control` stays (the adapter puts it on the message's own
 * last block that is not thinking). With `blockIndex`, a field of a block whose name starts with `$`
 * (`ValidationError.UnknownMessageField` with a `blockIndex`): one of the
 * block's Anthropic options, of a tool result's part's, or of the data of
 * Anthropic provider data, `path` where it was in the block.
 *
 * @example
 * const { value } = yield* Anthropic.fromMessages([{ role: "user", content: "Hi", name: "alice" }])
 * const { actions } = yield* Repair.repairFor("anthropic")(value)
 * actions[0]?.description // 'messages[0]: removed the field "name" ("alice"): Anthropic messages take only role and content'
 *
 * @since 0.1.0
 */
export class RemovedMessageField extends Schema.TaggedClass<RemovedMessageField>()("RemovedMessageField", {
  index: Index,
  field: Schema.String,
  original: Schema.Json,
  blockIndex: Schema.optionalKey(Index),
  path: Schema.optionalKey(Schema.Array(Schema.Union([Schema.String, Schema.Number])))
}) {
  get description(): string {
    const removed = `removed the field ${quote(this.field, QUOTED)} (${preview(this.original, QUOTED)})`
    if (this.blockIndex === undefined) return `messages[${this.index}]: ${removed}: Anthropic messages take only role and content`
    const where = this.path === undefined ? "" : ` at ${messageText(formatPath(this.path), QUOTED)}`
    return `messages[${this.index}].content[${this.blockIndex}]: ${removed} of the block${where}: Anthropic takes no field whose name starts with $`
  }
}

/**
 * Every change `repair` and `repairFor` can make. `index` is the message's
 * index in the input of the pass that made the change. A step about one
 * block names it with `blockIndex`: its place in that message's content
 * (for `repairFor`, as the steps logged before it for that message left the
 * content: blocks it removed or moved come before it in the log).
 *
 * @example
 * const { actions } = Repair.repair(history)
 * const lost = actions.filter((a) => a._tag === "RemovedOrphanResult" || a._tag === "RemovedDuplicateResult").map((a) => a.result)
 * const log = Schema.encodeSync(Schema.Array(Repair.RepairAction))(actions) // JSON for an audit trail
 *
 * @since 0.1.0
 */
export const RepairAction = Schema.Union([
  InsertedMissingResult,
  RemovedOrphanResult,
  RemovedDuplicateResult,
  RemovedEmptyMessage,
  MergedConsecutive,
  MovedSystemMessage,
  MovedUserMessage,
  RenamedToolCallId,
  FilledToolName,
  RemovedBlock,
  MovedBlock,
  TrimmedPrefill,
  InsertedUserMessage,
  AddedThoughtSignature,
  ReplacedToolArguments,
  ReplacedLoneSurrogates,
  RemovedItemId,
  CorrectedMediaType,
  RemovedMessageField
])

/**
 * Any change `repair` and `repairFor` can make, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type RepairAction = typeof RepairAction.Type

/**
 * Options of `repair`.
 *
 * @since 0.1.0
 */
export interface RepairOptions {
  /** Leave calls at the very end unanswered (an agent about to run them). Default `false`. */
  readonly allowPendingToolCalls?: boolean
  /** The content of synthetic results for interrupted calls (for Anthropic, a lone surrogate in it is replaced with U+FFFD, as in the history). */
  readonly interruptedContent?: string
  /**
   * The conversation continues one the provider stored (a Responses request
   * with `previous_response_id`): the tool results it opens with answer the
   * stored response's calls and are kept as they are (its Responses custom
   * tool outputs too), but for a result without an id, which no stored call
   * has: it is removed as an orphan is, kept whole in the log. Default
   * `false`. See `Conversation.ValidateOptions`.
   */
  readonly continues?: boolean
}

/**
 * What `repair` returns: the repaired conversation, and the log of every change, in
 * message order.
 *
 * @since 0.1.0
 */
export interface RepairResult {
  readonly messages: ReadonlyArray<Message.Message>
  readonly actions: ReadonlyArray<RepairAction>
}

const UNKNOWN_TOOL = "unknown_tool"

/**
 * `array.splice(at, 0, ...items)` without spreading `items` into arguments:
 * a spread of a hundred thousand values overflows the call stack.
 */
const insertAll = <A>(array: Array<A>, at: number, items: ReadonlyArray<A>): void => {
  const tail = array.splice(at)
  for (const item of items) array.push(item)
  for (const item of tail) array.push(item)
}

/**
 * Removes the messages at `at` (ascending indices) from `out` and their origins from `origins`, in one pass:
 * a `splice` per message costs the length of the conversation each, quadratic for a long run.
 */
const removeAt = (out: Array<Message.Message>, origins: Array<number>, at: ReadonlyArray<number>): void => {
  if (at.length === 0) return
  let w = at[0]!
  let next = 0
  for (let k = w; k < out.length; k++) {
    if (next < at.length && at[next] === k) {
      next++
      continue
    }
    out[w] = out[k]!
    origins[w] = origins[k]!
    w++
  }
  out.length = w
  origins.length = w
}

/**
 * Whether results follow `k` in its wire message (`anthropicRuns`): a tool message with content after it, with only
 * tool messages of that wire message between them (empty ones add nothing).
 */
const resultsFollow = (out: ReadonlyArray<Message.Message>, runs: Uint8Array, k: number): boolean => {
  for (let next = nextOnWire(out, k); out[next]?.role === "tool" && (runs[next]! & CONTINUES) !== 0; next = nextOnWire(out, next)) {
    if (out[next]!.content.length > 0) return true
  }
  return false
}

/**
 * Anthropic: results read from two user messages in a row (a tool message marked `separateMessage` after another
 * tool message on the wire, system messages and runs the writer leaves out aside, which the writer does not join to
 * it) go back as one message, its first one's with all their content.
 * The system messages between them now follow the merged message. One pass, the log as a merge from the last
 * message back would write it: per merged message, the moves of the system messages before it, then the merge,
 * the last merged message first; `message` is the merged-away message as it was.
 */
const mergeSeparatedResults = (out: Array<Message.Message>, origins: Array<number>, log: (action: RepairAction) => void): void => {
  const logged: Array<ReadonlyArray<RepairAction>> = []
  // the message the run of merged results goes into (its place in the output) and its content so far
  let head = -1
  let content: Array<Block.Block> | undefined
  // the last message on the wire: its place in the output and its origin
  let last = -1
  let lastOrigin = -1
  // where the system messages after the last message on the wire start in the output
  let systemsFrom = 0
  const closeRun = (): void => {
    if (content !== undefined) out[head] = withContent(out[head]!, content)
    content = undefined
    head = -1
  }
  const runs = anthropicRuns(out)
  let w = 0
  for (let k = 0; k < out.length; k++) {
    const m = out[k]!
    // (a run the writer leaves out is not on the wire: the runs on both sides of it are joined when of one role)
    if (m.role === "system" || (runs[k]! & LEFT_OUT) !== 0) {
      out[w] = m
      origins[w] = origins[k]!
      w++
      continue
    }
    // (an empty one only when results go into its message after it: else the writer sends nothing of it, or
    // `dropUnsent` removes it)
    if (m.role === "tool" && last !== -1 && out[last]!.role === "tool" && (runs[k]! & CONTINUES) === 0 && (m.content.length > 0 || resultsFollow(out, runs, k))) {
      const group: Array<RepairAction> = []
      // the system messages between them now follow the merged results
      for (let n = systemsFrom; n < w; n++) if (out[n]!.role === "system") group.push(new MovedSystemMessage({ index: origins[n]!, to: "after-merged-messages" }))
      group.push(new MergedConsecutive({ index: origins[k]!, into: lastOrigin, message: m }))
      logged.push(group)
      content ??= out[head]!.content.slice()
      for (const block of m.content) content.push(block)
      lastOrigin = origins[k]!
      systemsFrom = w
      continue
    }
    closeRun()
    out[w] = m
    origins[w] = origins[k]!
    last = w
    lastOrigin = origins[k]!
    if (m.role === "tool") head = w
    w++
    systemsFrom = w
  }
  closeRun()
  out.length = w
  origins.length = w
  for (let g = logged.length - 1; g >= 0; g--) for (const action of logged[g]!) log(action)
}

/** A call of the open turn as repair sees it: where it is, and the id and name it leaves with. */
interface OutCall extends CallRef {
  readonly outId: string
  readonly outName: string
}

/** A user or assistant message being assembled from a run of same-role messages. */
interface Run {
  readonly role: "user" | "assistant"
  /** Its place in the output. */
  readonly slot: number
  /** The first message of the run and its input index. */
  readonly first: Message.UserMessage | Message.AssistantMessage
  readonly origin: number
  /** The content so far, when more than the first message's. */
  content: Array<Block.UserBlock | Block.AssistantBlock> | undefined
  metadata: Block.JsonObject | undefined
  /** Whether the run's content has client calls (only a message that joins its turn may merge into it). */
  called: boolean
  /**
   * Where in the log the moves of the system messages after the run's slot are, in output order: a merge puts
   * them after the merged message, and each is logged once, by the first merge that moves it.
   */
  readonly moved: Array<number>
}

/** Whether a block is sent as text of the message (Responses: a message item of its own). */
const isTextual = (b: Block.Block): boolean => b._tag === "Text" || b._tag === "Refusal"

const withContent = <M extends Message.Message>(m: M, content: ReadonlyArray<Block.Block>): M => rebuilt(m, { ...m, content })

/** A message of `m`'s role made of `fields` (checked by its class), frozen. */
const rebuilt = <M extends Message.Message>(m: M, given: object): M => {
  const fields = given as never
  switch (m.role) {
    case "system":
      return Message.freeze(new Message.SystemMessage(fields)) as M
    case "user":
      return Message.freeze(new Message.UserMessage(fields)) as M
    case "assistant":
      return Message.freeze(new Message.AssistantMessage(fields)) as M
    case "tool":
      return Message.freeze(new Message.ToolMessage(fields)) as M
    default:
      return Block.absurd(m)
  }
}

/** Every call and result id of the input, Responses custom tool items' included: fresh ids must avoid all of them. */
const idsOf = (messages: ReadonlyArray<Message.Message>): Set<string> => {
  const ids = new Set<string>()
  for (const m of messages) {
    for (const b of m.content) {
      if (b._tag === "ToolCall") ids.add(b.id)
      else if (b._tag === "ToolResult") ids.add(b.toolCallId)
      else if (b._tag === "ProviderData") {
        const id = customItemOf(b)?.id
        if (id !== undefined) ids.add(id)
      }
    }
  }
  return ids
}

/**
 * Returns a conversation that passes `Conversation.validate` and the log of
 * what was changed: unanswered calls get a synthetic error result ("tool call
 * was interrupted"), orphan and duplicate results are removed (their content
 * kept in the log), same-role runs are merged (system messages in between do
 * not separate them: they follow the merged message, each logged as a
 * `MovedSystemMessage`; the merged-away message kept in the log; an assistant
 * message after one whose calls the tool messages after the run answer joins
 * that turn, so parallel calls recorded one message each keep their results),
 * a user message between calls and results that follow it moved after them
 * (`MovedUserMessage`: written while the tools ran, it keeps their results),
 * empty messages
 * removed (a tool message left with no result is logged whole, metadata
 * included), system messages inside a tool turn moved after its results (or,
 * with `allowPendingToolCalls`, before the assistant message whose calls are
 * pending), and empty or reused call ids renamed to ids that appear nowhere
 * in the input, each result staying with its own call.
 *
 * `validate(repair(x).messages)` succeeds whenever `x` has a user or
 * assistant message with content (otherwise it fails with
 * `EmptyConversation`: there is nothing to repair into a conversation).
 * `repair` is idempotent and returns a valid input as the same array. One
 * linear pass: merging a run of same-role messages builds the merged message
 * once, and repeated ids are chained, not queued with `Array.shift`.
 *
 * @example
 * const { messages, actions } = Repair.repair([
 *   Message.user("Weather in Oslo?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.user("Hello?")
 * ])
 * yield* Conversation.validate(messages) // succeeds
 * for (const action of actions) console.log(action.description)
 * // messages[1]: tool call "c1" (weather) had no result; inserted an error result "tool call was interrupted"
 *
 * @since 0.1.0
 */
export const repair = (messages: ReadonlyArray<Message.Message>, options?: RepairOptions): RepairResult =>
  repairWith(messages, options, undefined, Conversation.genericRulesFor("generic"))

/**
 * What a provider's repair adds to the generic pass: a fix applied to each
 * message as it enters (blocks the provider rejects), and a fix of the whole
 * result at the end (placement rules), both logging what they change with
 * input indexes. `freshId` is the generic pass's own: ids it makes appear
 * nowhere in the input, nor among the ids it made before.
 */
interface ProviderFixes {
  readonly message: (m: Message.Message, i: number, log: (action: RepairAction) => void, freshId: (base: string) => string, callFollows: boolean) => Message.Message
  readonly finish: (out: Array<Message.Message>, origins: Array<number>, log: (action: RepairAction) => void) => void
  /**
   * Whether the generic pass reads turns as the Anthropic writer sends them (`anthropicRuns`, as validation does):
   * an empty message in a run of one role with content is left where it is (the writer sends nothing of it), and an
   * assistant message right after another continues its turn (the writer sends them as one message).
   */
  readonly wire?: boolean
  /**
   * Whether the profile rejects text after a client call in an assistant message (OpenAI Responses sends it between
   * the call and its output): an assistant message with text then joins no turn of calls before it (`joinsTurn`).
   */
  readonly textEndsCalls?: boolean
  /**
   * Whether the repair must run again with fixes made anew: a guess a fix made as a message entered (that a later
   * message would keep it company) proved wrong on the repaired messages, and the fixes now know not to make it.
   */
  readonly again?: () => boolean
}

const repairWith = (
  messages: ReadonlyArray<Message.Message>,
  options: RepairOptions | undefined,
  fixes: ProviderFixes | undefined,
  rules: Conversation.GenericRules
): RepairResult => {
  const out: Array<Message.Message> = []
  /** For each output message, the input index it came from (or that caused it). */
  const origins: Array<number> = []
  const actions: Array<RepairAction> = []
  const log = (action: RepairAction): void => {
    actions.push(action)
  }
  // (for Anthropic, which rejects a body with a lone surrogate, the text the repair writes has none either: each is
  // replaced with U+FFFD, as in the history's blocks)
  const given = options?.interruptedContent ?? INTERRUPTED
  const interrupted = fixes?.wire === true ? wellFormedText(given, { count: 0 }) : given
  const walker = new Walker(messages.length)
  const deferredSystem: Array<{ readonly i: number; readonly m: Message.Message }> = []
  /** Where in `actions` each deferred system message's move is logged. */
  const deferredActions: Array<number> = []
  let inputIds: Set<string> | undefined
  const generated = new Set<string>()
  let fresh = 0
  let changed = false
  let run: Run | undefined
  /** The output slot of the assistant message of the open turn. */
  let turnSlot = -1
  /** Whether a user or assistant message was met yet. */
  let opened = false
  /** Anthropic: the empty messages left in the output for now (each by the input message it was), see `dropUnsent`. */
  const held = fixes?.wire === true ? new Map<Message.Message, Message.Message>() : undefined
  /** Anthropic: the role of the last message emitted that has content (system messages aside). */
  let lastRole: Message.Role | undefined
  /** Anthropic: whether a run the writer leaves out came after it (the writer joins the next run of its role to it). */
  let afterLeftOut = false
  /** Anthropic: whether a message left in the output after it opens a wire message (the writer sends no block of it). */
  let parted = false
  /** Anthropic: the assistant messages with a client call in a later message of their run (1). */
  const callsAhead = held === undefined ? undefined : callsLaterInRun(messages)
  /** Anthropic: how the writer makes wire messages of the input (`anthropicRuns`). */
  const inputRuns = held === undefined ? undefined : anthropicRuns(messages)
  /** The ids of the client calls of the open turn (as they came), for `turnAnsweredAfter`. */
  let turnCalls: Array<string> = []
  /** The same ids as a set: a run after which few results come is checked by its results, not by the turn's calls. */
  let turnCallSet = new Set<string>()
  /** Whether the open turn was found answered after its run (`joinsTurn`): later messages of the run join it too. */
  let turnJoined = false
  /** A run of messages of one role, from `from` to before `at`, and the call ids the tool messages right after it answer. */
  let afterRun: { readonly role: Message.Role; readonly from: number; readonly at: number; readonly ids: Set<string>; answered?: boolean } | undefined

  /** The run of messages of `role` that `i` is in, with what the tool messages after it answer: found once a run. */
  const runAfter = (i: number, role: Message.Role): NonNullable<typeof afterRun> => {
    if (afterRun !== undefined && afterRun.role === role && i >= afterRun.from && i < afterRun.at) return afterRun
    // (a system message is no turn: each profile moves it out of the way of the results, or lifts it out of the turns)
    let at = i + 1
    while (at < messages.length && (messages[at]!.content.length === 0 || messages[at]!.role === role || messages[at]!.role === "system")) at++
    const ids = new Set<string>()
    let from = at
    // user messages written while the tools ran, which the loop holds until the results are in, come before them
    if (role !== "user") {
      while (from < messages.length && (messages[from]!.role === "user" || messages[from]!.role === "system" || messages[from]!.content.length === 0)) from++
      if (from < messages.length && messages[from]!.role !== "tool") from = at
    }
    for (let k = from; k < messages.length; k++) {
      const m = messages[k]!
      if (m.role === "tool") for (const r of m.content) ids.add(r.toolCallId)
      else if (m.content.length > 0 && m.role !== "system") break
    }
    return (afterRun = { role, from: i, at, ids })
  }

  /**
   * Whether the tool messages right after the run of `role` messages that `i` is in answer a call of the open turn.
   * Each message's calls are looked up once per run they open a turn before: linear.
   */
  const turnAnsweredAfter = (i: number, role: Message.Role): boolean => {
    const { ids } = runAfter(i, role)
    // whichever is smaller is walked: a turn of n calls answered one result after each of n user messages is linear
    if (ids.size < turnCalls.length) {
      for (const id of ids) if (turnCallSet.has(id) && walker.isPending(id)) return true
      return false
    }
    for (const id of turnCalls) if (ids.has(id) && walker.isPending(id)) return true
    return false
  }

  /**
   * Whether assistant message `i` continues the open turn (where the profile merges assistant messages, as it
   * does when the turn has no calls): the tool messages right after its run answer the turn's calls. That is one
   * turn recorded over several messages (parallel calls one message each), joined with its results kept, rather
   * than cut: each earlier call answered "interrupted" and its real result removed as an orphan.
   */
  const joinsTurn = (i: number): boolean => turnJoined || (turnJoined = turnAnsweredAfter(i, "assistant"))

  const emit = (m: Message.Message, origin: number): void => {
    out.push(m)
    origins.push(origin)
    if (m.role !== "system") {
      lastRole = m.role
      afterLeftOut = false
      parted = false
    }
  }

  /**
   * Anthropic: removes the empty messages left in the output that are not in a run of one role with content (the
   * writer would send them as empty messages), each logged with the message as it came; the others stay where they
   * are: the writer sends nothing of them.
   */
  const dropUnsent = (): void => {
    if (held === undefined || held.size === 0) return
    const runs = anthropicRuns(out)
    const gone: Array<number> = []
    for (let j = 0; j < out.length; j++) {
      const m = out[j]!
      if (m.content.length > 0 || m.role === "system" || (runs[j]! & FILLED) !== 0) continue
      actions.push(new RemovedEmptyMessage({ index: origins[j]!, message: held.get(m) ?? m }))
      gone.push(j)
      changed = true
    }
    removeAt(out, origins, gone)
  }

  const freshId = (base: string): string => {
    inputIds ??= idsOf(messages)
    let id: string
    do id = `${base === "" ? "call" : base}_repaired_${++fresh}`
    while (inputIds.has(id) || generated.has(id))
    generated.add(id)
    return id
  }

  /** Writes the run's merged message into its slot. */
  const endRun = (): void => {
    if (run === undefined) return
    if (run.content !== undefined) {
      const merged = withContent(run.first, run.content as ReadonlyArray<Block.Block>)
      out[run.slot] = run.metadata === undefined ? merged : Message.freeze(withMetadata(merged, run.metadata))
    }
    run = undefined
  }

  /** Answers every pending call with a synthetic error result, then emits the deferred system messages. */
  const closeTurn = (): void => {
    const unanswered = walker.closeTurn() as ReadonlyArray<OutCall>
    turnJoined = false
    if (unanswered.length > 0) {
      const results: Array<Block.ToolResultBlock> = []
      for (const call of unanswered) {
        results.push(Block.toolResult(call.outId, call.outName, interrupted, true))
        actions.push(new InsertedMissingResult({ index: call.index, toolCallId: call.outId, toolName: call.outName, ...insertedContent(interrupted) }))
      }
      endRun()
      // Anthropic: right after the messages left in the output after the calls that are of the calls' role (they are
      // in the run of the calls, and stay there, past a run the writer leaves out: it joins the runs around it), up
      // to one that opens a wire message a later message fills (read from a message of its own: the results would go
      // into that one); the others go into the run after the results, or into theirs
      let at = out.length
      // (system messages among them go to the system prompt: they part no run)
      while (held !== undefined && at > 0 && (held.has(out[at - 1]!) || out[at - 1]!.role === "system")) at--
      for (let k = at; held !== undefined && k < out.length; k++) {
        const role = out[k]!.role
        const flags = role === "system" ? 0 : inputRuns![origins[k]!]!
        if (role === "system" ? at === k : wireRole(role) === wireRole(lastRole) && (flags & (CONTINUES | FILLED | LEFT_OUT)) !== FILLED) at = k + 1
        else if (role !== "system" && (flags & LEFT_OUT) === 0) break
      }
      emit(Message.tool(results), unanswered[0]!.index)
      if (at < out.length - 1) {
        insertAll(out, at, [out.pop()!])
        insertAll(origins, at, [origins.pop()!])
      }
      changed = true
    }
    for (const { i, m } of deferredSystem) emit(m, i)
    deferredSystem.length = 0
    deferredActions.length = 0
    turnSlot = -1
  }

  /** Renames empty and reused call ids, fills empty names, and opens the calls in the walker. */
  const openCalls = (m: Message.AssistantMessage, i: number): Message.AssistantMessage => {
    let content: Array<Block.AssistantBlock> | undefined
    /**
     * The provider-executed calls of this message by the id they came with, in order, each with the id it goes
     * out with: their results inside the message follow them in order (the first result of an id answers the
     * first call that had it, renamed or not).
     */
    let serverCalls: Map<string, { readonly ids: Array<string>; next: number }> | undefined
    for (let b = 0; b < m.content.length; b++) {
      const block = m.content[b]!
      if (block._tag === "ToolResult" && serverCalls !== undefined) {
        const queue = serverCalls.get(block.toolCallId)
        const to = queue === undefined ? undefined : queue.ids[queue.next]
        if (queue !== undefined && to !== undefined) queue.next++
        if (to !== undefined && to !== block.toolCallId) {
          actions.push(new RenamedToolCallId({ index: i, blockIndex: b, from: block.toolCallId, to }))
          content ??= m.content.slice()
          content[b] = Block.toolResult(to, block.toolName, block.content, block.isError, withoutIds(block))
        }
        continue
      }
      if (block._tag !== "ToolCall") continue
      let id = block.id
      let name = block.name
      const server = block.providerExecuted === true
      const ref: OutCall = { index: i, blockIndex: b, call: block, outId: id, outName: name }
      const first = server ? walker.registerId(id, i) : walker.addCall(ref)
      if (id === "" || first !== -1) {
        id = freshId(block.id)
        actions.push(new RenamedToolCallId({ index: i, blockIndex: b, from: block.id, to: id }))
      }
      if (server) {
        serverCalls ??= new Map()
        const queue = serverCalls.get(block.id)
        if (queue === undefined) serverCalls.set(block.id, { ids: [id], next: 0 })
        else queue.ids.push(id)
      }
      if (name === "") {
        name = UNKNOWN_TOOL
        actions.push(new FilledToolName({ index: i, blockIndex: b, toolCallId: id, name }))
      }
      if (id !== block.id || name !== block.name) {
        ;(ref as { outId: string }).outId = id
        ;(ref as { outName: string }).outName = name
        content ??= m.content.slice()
        content[b] = Block.freeze(new Block.ToolCallBlock({ ...block, id, name }))
      }
    }
    if (content === undefined) return m
    changed = true
    return withContent(m, content)
  }

  /** Keeps the results that answer a pending call (renamed to follow their call); logs and drops the rest. */
  const answer = (m: Message.ToolMessage, i: number): Message.ToolMessage | undefined => {
    let kept: Array<Block.ToolResultBlock> | undefined
    for (let k = 0; k < m.content.length; k++) {
      const r = m.content[k]!
      const found = walker.answer(r.toolCallId, i)
      let next: Block.ToolResultBlock | undefined = r
      if (typeof found === "number") {
        actions.push(
          found === ORPHAN
            ? new RemovedOrphanResult({ index: i, blockIndex: k, result: r })
            : new RemovedDuplicateResult({ index: i, blockIndex: k, firstIndex: found, result: r })
        )
        next = undefined
      } else {
        const call = found as OutCall
        if (r.toolCallId !== call.outId || r.toolName === "") {
          if (r.toolCallId !== call.outId) actions.push(new RenamedToolCallId({ index: i, blockIndex: k, from: r.toolCallId, to: call.outId }))
          const name = r.toolName === "" ? call.outName : r.toolName
          if (r.toolName === "") actions.push(new FilledToolName({ index: i, blockIndex: k, toolCallId: call.outId, name }))
          next = Block.freeze(new Block.ToolResultBlock({ ...r, toolCallId: call.outId, toolName: name }))
        }
      }
      if (next !== r && kept === undefined) kept = m.content.slice(0, k)
      if (kept !== undefined && next !== undefined) kept.push(next)
    }
    if (kept === undefined) return m
    changed = true
    if (kept.length > 0) return withContent(m, kept)
    actions.push(new RemovedEmptyMessage({ index: i, message: m }))
    return undefined
  }

  /**
   * The results a continued conversation opens with, kept as they are (they answer calls the provider stored),
   * but for those without an id: no stored call can have the empty id (the API rejects it), so they answer nothing
   * and are removed as orphans are, each kept whole in the log.
   */
  const storedResults = (m: Message.ToolMessage, i: number): Message.ToolMessage | undefined => {
    let kept: Array<Block.ToolResultBlock> | undefined
    for (let k = 0; k < m.content.length; k++) {
      const r = m.content[k]!
      if (r.toolCallId !== "") {
        kept?.push(r)
        continue
      }
      kept ??= m.content.slice(0, k)
      actions.push(new RemovedOrphanResult({ index: i, blockIndex: k, result: r }))
    }
    if (kept === undefined) return m
    changed = true
    if (kept.length > 0) return withContent(m, kept)
    actions.push(new RemovedEmptyMessage({ index: i, message: m }))
    return undefined
  }

  /** Takes input message `i` into the output. */
  const step = (i: number): void => {
    const given = messages[i]!
    const m = fixes === undefined ? given : fixes.message(given, i, log, freshId, callsAhead !== undefined && callsAhead[i] === 1)
    if (m !== given) changed = true
    // Anthropic: a run of messages with content of which the writer sends no block is left out of the request, and a
    // message of which it sends none adds nothing to a wire message with content
    const runFlags = inputRuns === undefined || m.role === "system" ? 0 : inputRuns[i]!
    const leftOut = (runFlags & LEFT_OUT) !== 0
    if (m.content.length === 0 || leftOut || (runFlags & (FILLED | UNSENT)) === (FILLED | UNSENT)) {
      if (held !== undefined && m.role !== "system") {
        // Anthropic: left where it is, out of the turns; `dropUnsent` removes an empty one unless the writer merges
        // it away
        held.set(m, given)
        out.push(m)
        origins.push(i)
        if (leftOut) afterLeftOut = true
        else if ((runFlags & CONTINUES) === 0 && (runFlags & FILLED) !== 0) parted = true
        return
      }
      actions.push(new RemovedEmptyMessage({ index: i, message: given }))
      changed = true
      return
    }
    switch (m.role) {
      case "system":
        if (walker.pendingCount > 0 && !rules.systemEndsTurn) {
          // the profile takes a system message between calls and their results (Anthropic: it goes to the
          // system prompt), so it stays where it is
          emit(m, i)
        } else if (walker.pendingCount > 0) {
          deferredSystem.push({ i, m })
          deferredActions.push(actions.length)
          actions.push(new MovedSystemMessage({ index: i, to: "after-results" }))
          changed = true
        } else {
          closeTurn()
          emit(m, i)
        }
        break
      case "tool": {
        // the results a continued conversation opens with answer calls the provider stored
        if (options?.continues === true && !opened) {
          const kept = storedResults(m, i)
          if (kept !== undefined) emit(kept, i)
          break
        }
        const kept = answer(m, i)
        if (kept !== undefined) {
          endRun()
          emit(kept, i)
        }
        break
      }
      case "user":
      case "assistant": {
        if (options?.continues === true && !opened && isCustomOutputsOnly(m)) {
          // the custom tool outputs a continued conversation opens with answer the stored response's custom calls
          // (the provider's fixes judged them): kept as they are, as its function outputs are
          emit(m, i)
          break
        }
        opened = true
        // Anthropic: an assistant message right after another, with calls of that message pending, is the same
        // message on the wire and continues its turn, unless text of its own would come after those calls
        // (or after a run the writer leaves out, which it joins over, read from a message of its own or not)
        const continuing = held !== undefined && m.role === "assistant" && lastRole === "assistant" && (afterLeftOut || !(parted || isSeparate(m))) && walker.pendingCount > 0 &&
          (callsAhead![i] === 1 || !textAfterAllCalls(m))
        // elsewhere, one that joins the turn of the assistant run before it
        const joins = held === undefined && m.role === "assistant" && rules.consecutiveAssistantMessages && run !== undefined && run.role === "assistant" && run.called &&
          walker.pendingCount > 0 && !(fixes?.textEndsCalls === true && m.content.some(isTextual)) && joinsTurn(i)
        if (!continuing && !joins) closeTurn()
        const next = m.role === "assistant" ? openCalls(m, i) : m
        const calls = next.role === "assistant" && walker.pendingCount > 0
        // a run of same-role messages is merged only where the profile forbids it: a provider that
        // merges them itself (Anthropic, Gemini user messages) gets them as they were
        const merges = next.role === "user" ? rules.consecutiveUserMessages : rules.consecutiveAssistantMessages
        if (merges && run !== undefined && run.role === next.role && (!run.called || joins)) {
          if (calls && out.length > run.slot + 1) {
            // system messages emitted after the run would now sit between these calls and their results
            const tail = out.splice(run.slot + 1)
            const tailOrigins = origins.splice(run.slot + 1)
            for (let k = 0; k < tail.length; k++) {
              const move = new MovedSystemMessage({ index: tailOrigins[k]!, to: "after-results" })
              deferredSystem.push({ i: tailOrigins[k]!, m: tail[k]! })
              // one entry per message: the one an earlier merge logged now says where the message ends
              const at = run.moved[k]
              if (at === undefined) {
                deferredActions.push(actions.length)
                actions.push(move)
              } else {
                deferredActions.push(at)
                actions[at] = move
              }
            }
            run.moved.length = 0
          } else {
            // the system messages emitted after the run now follow the merged message instead of preceding this one
            for (let k = run.slot + 1 + run.moved.length; k < out.length; k++) {
              run.moved.push(actions.length)
              actions.push(new MovedSystemMessage({ index: origins[k]!, to: "after-merged-messages" }))
            }
          }
          // merge into the open run: its message is built once, when the run ends
          run.content ??= (run.first.content as ReadonlyArray<Block.UserBlock | Block.AssistantBlock>).slice()
          for (const b of next.content) run.content.push(b)
          if (next.metadata !== undefined) run.metadata = { ...next.metadata, ...(run.metadata ?? run.first.metadata) }
          actions.push(new MergedConsecutive({ index: i, into: run.origin, message: given }))
          run.called = calls
          changed = true
        } else {
          endRun()
          run = { role: next.role, slot: out.length, first: next, origin: i, content: undefined, metadata: undefined, called: calls, moved: [] }
          emit(next, i)
        }
        if (next.role === "assistant") {
          if (!continuing && !joins) {
            walker.openTurn(i)
            turnSlot = run.slot
            turnCalls = []
            turnCallSet = new Set()
          }
          // (a message that continues or joins the turn adds its calls to it)
          for (const b of m.content) {
            if (b._tag === "ToolCall" && b.providerExecuted !== true) {
              turnCalls.push(b.id)
              turnCallSet.add(b.id)
            }
          }
        }
        break
      }
      default:
        Block.absurd(m)
    }
  }

  /**
   * The user messages held back until the results after them are taken (`MovedUserMessage`), by input index. A user
   * message between calls and their results is one the user wrote while the tools ran: moved after the results, it
   * keeps them, where it would otherwise end the turn, each call answered "interrupted" and each real result removed
   * as an orphan. (Anthropic: the results then open the user message the writer sends, as the API wants.)
   */
  const heldUsers: Array<number> = []
  /** The empty messages past the results while user messages are held, taken after them; whether results came since the first was held. */
  const heldEmpty: Array<number> = []
  let resultsTaken = false
  const takeHeld = (): void => {
    for (const k of heldUsers) step(k)
    for (const k of heldEmpty) step(k)
    heldUsers.length = 0
    heldEmpty.length = 0
    resultsTaken = false
  }
  /** Whether the tool messages after the run of user messages `i` is in answer a call of the open turn (read once a run: held messages take no step). */
  const resultsAfterUsers = (i: number): boolean => {
    const run = runAfter(i, "user")
    return (run.answered ??= turnAnsweredAfter(i, "user"))
  }

  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    // (Anthropic: a user message the writer sends a block of; one it leaves out stays where it is, out of the turns)
    const sent = inputRuns === undefined || (inputRuns[i]! & (LEFT_OUT | UNSENT)) === 0
    if (m.role === "user" && m.content.length > 0 && sent && walker.pendingCount > 0 && resultsAfterUsers(i)) {
      heldUsers.push(i)
      actions.push(new MovedUserMessage({ index: i }))
      changed = true
      continue
    }
    if (heldUsers.length > 0 && m.role !== "tool") {
      if (m.content.length === 0) {
        // an empty message past the results waits with them: it stays in the run it came in (Anthropic sends nothing
        // of it there, where it would be alone between the results and the user's words)
        if (resultsTaken && m.role !== "system") {
          heldEmpty.push(i)
          continue
        }
      } else if (m.role !== "system" || walker.pendingCount === 0) {
        // past the results: the held user messages come first, as if written here (a system message while results
        // are still to come is moved past them by the turn's own rule, and keeps them held)
        takeHeld()
      }
    }
    if (heldUsers.length > 0 && m.role === "tool" && m.content.length > 0) resultsTaken = true
    step(i)
  }
  takeHeld()
  if (options?.allowPendingToolCalls === true && walker.pendingCount > 0) {
    // the calls stay pending: a system message may not sit between them and their results
    if (deferredSystem.length > 0) {
      deferredActions.forEach((at, k) => {
        actions[at] = new MovedSystemMessage({ index: deferredSystem[k]!.i, to: "before-pending-calls" })
      })
      endRun()
      insertAll(out, turnSlot, deferredSystem.map((d) => d.m))
      insertAll(origins, turnSlot, deferredSystem.map((d) => d.i))
    }
  } else {
    closeTurn()
  }
  endRun()
  dropUnsent()
  if (fixes !== undefined) {
    const before = actions.length
    fixes.finish(out, origins, log)
    if (actions.length > before) changed = true
  }
  // the finish may empty a run (thinking removed)
  dropUnsent()
  // the log in message order (a synthetic result is logged where its call is)
  actions.sort((a, b) => a.index - b.index)
  return { messages: changed ? out : messages, actions }
}

/**
 * For each assistant message, whether a later message of the run the Anthropic writer makes one message of
 * (`anthropicRuns`) holds a client call (1): its text goes before that call on the wire.
 */
const callsLaterInRun = (messages: ReadonlyArray<Message.Message>): Uint8Array => {
  const runs = anthropicRuns(messages)
  const out = new Uint8Array(messages.length)
  let ahead = false
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    // (a run the writer leaves out is no message between those on both sides of it: it may join them)
    if (m.role === "system" || (runs[i]! & LEFT_OUT) !== 0) continue
    if (m.role !== "assistant") {
      ahead = false
      continue
    }
    if (ahead) out[i] = 1
    ahead = (runs[i]! & CONTINUES) !== 0 && (ahead || m.content.some((block) => block._tag === "ToolCall" && block.providerExecuted !== true))
  }
  return out
}

/** The role of the Anthropic message a message goes into: tool results go in a user message. */
const wireRole = (role: Message.Role | undefined): Message.Role | undefined => (role === "tool" ? "user" : role)

/** Whether an assistant message has text the Anthropic writer sends (a refusal's too) and no client call after it. */
const textAfterAllCalls = (m: Message.AssistantMessage): boolean => {
  for (let b = m.content.length - 1; b >= 0; b--) {
    const block = m.content[b]!
    if (block._tag === "ToolCall" && block.providerExecuted !== true) return false
    if (block._tag === "Text" || block._tag === "Refusal") return true
  }
  return false
}

const withMetadata = <M extends Message.Message>(m: M, metadata: Block.JsonObject): M => {
  const fields = { ...m, metadata } as never
  switch (m.role) {
    case "system":
      return new Message.SystemMessage(fields) as M
    case "user":
      return new Message.UserMessage(fields) as M
    case "assistant":
      return new Message.AssistantMessage(fields) as M
    case "tool":
      return new Message.ToolMessage(fields) as M
    default:
      return Block.absurd(m)
  }
}

const withoutIds = (block: Block.ToolResultBlock) => {
  const { _tag, content, isError, toolCallId, toolName, ...rest } = block
  return rest
}

// ---------------------------------------------------------------------------
// repair for one provider
// ---------------------------------------------------------------------------

/**
 * A history that `repairFor(provider)` could not make acceptable to the
 * provider: `issue` is what `Conversation.validateFor(provider)` still
 * reports, `reason` says why no repair exists for it (e.g. Anthropic with
 * thinking on needs a signed thinking block that cannot be made up).
 *
 * @example
 * const error = yield* Effect.flip(Repair.repairFor("anthropic", { thinking: true })([
 *   Message.user("Weather in Oslo?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
 *   Message.toolResultMessage("c1", "weather", "12°C")
 * ]))
 * error.issue._tag // "ThinkingNotFirst": a signed thinking block cannot be made up
 *
 * @since 0.1.0
 */
export class CannotRepair extends Schema.TaggedError<CannotRepair>()("CannotRepair", {
  provider: Schema.String,
  issue: IssueSchema,
  reason: Schema.String
}) {
  override get message(): string {
    return `cannot repair this history for ${this.provider}: ${this.issue.message} (${this.reason})`
  }
}

/**
 * Options of `repairFor`: the generic repair's options and the provider
 * profile's (`thinking`, `store`).
 *
 * @since 0.1.0
 */
export interface RepairForOptions extends RepairOptions, Conversation.ProfileOptions {}

const isBlank = (text: string): boolean => text.trim() === ""

/** Removes the blocks `drop` rejects, logging each; returns the message itself when nothing is dropped. */
const dropBlocks = <M extends Message.Message>(
  m: M,
  i: number,
  log: (action: RepairAction) => void,
  drop: (block: Block.Block, b: number) => string | undefined
): M => {
  let kept: Array<Block.Block> | undefined
  const content: ReadonlyArray<Block.Block> = m.content
  for (let b = 0; b < content.length; b++) {
    const block = content[b]!
    const reason = drop(block, b)
    if (reason !== undefined) {
      kept ??= content.slice(0, b)
      log(new RemovedBlock({ index: i, blockIndex: b, block, reason }))
    } else if (kept !== undefined) {
      kept.push(block)
    }
  }
  return kept === undefined ? m : withContent(m, kept)
}

/**
 * Moves the text blocks of an assistant message that sit after position
 * `after` and after its first client call to position `to` (before the
 * calls), in order, logging each move. Returns the message itself when
 * nothing moves. Provider-executed calls and their results stay where they
 * are: they are answered inside the message. With `reasoning`, the Responses
 * reasoning items right before a moved text go with it: each must stay
 * followed by the item it produced.
 */
const moveTextBeforeCalls = (
  m: Message.AssistantMessage,
  i: number,
  log: (action: RepairAction) => void,
  after: number,
  to: number,
  reason: string,
  reasoning = false
): Message.AssistantMessage => {
  const content = m.content
  const moves = new Set<number>()
  for (let b = after + 1; b < content.length; b++) {
    if (!isMessagePart(content[b])) continue
    moves.add(b)
    for (let k = b - 1; reasoning && k > after && isReasoningItem(content[k]!); k--) moves.add(k)
  }
  if (moves.size === 0) return m
  const moved: Array<Block.AssistantBlock> = []
  const rest: Array<Block.AssistantBlock> = []
  for (let b = to; b < content.length; b++) {
    if (!moves.has(b)) {
      rest.push(content[b]!)
      continue
    }
    log(new MovedBlock({ index: i, from: b, to: to + moved.length, reason }))
    moved.push(content[b]!)
  }
  return withContent(m, [...content.slice(0, to), ...moved, ...rest])
}

/** The first and last client (not provider-executed) call of an assistant message, or -1. */
const clientCallSpan = (content: ReadonlyArray<Block.AssistantBlock>): { readonly first: number; readonly last: number } => {
  let first = -1
  let last = -1
  for (let b = 0; b < content.length; b++) {
    const block = content[b]!
    if (block._tag === "ToolCall" && block.providerExecuted !== true) {
      if (first === -1) first = b
      last = b
    }
  }
  return { first, last }
}

/** A tool message without the blank text parts of its results, each logged (Anthropic rejects them there too). */
const withoutBlankResultText = (m: Message.ToolMessage, i: number, log: (action: RepairAction) => void): Message.ToolMessage => {
  let results: Array<Block.ToolResultBlock> | undefined
  for (let b = 0; b < m.content.length; b++) {
    const result = m.content[b]!
    const content = result.content
    const blank = typeof content !== "string" && content.some((part) => part._tag === "Text" && isBlank(part.text))
    if (!blank) {
      results?.push(result)
      continue
    }
    results ??= m.content.slice(0, b)
    const kept: Array<Block.ToolResultPart> = []
    for (const part of content as ReadonlyArray<Block.ToolResultPart>) {
      if (part._tag === "Text" && isBlank(part.text)) {
        log(new RemovedBlock({ index: i, blockIndex: b, block: part, reason: `Anthropic rejects text blocks without non-whitespace text, in the result of ${result.toolName} too` }))
      } else {
        kept.push(part)
      }
    }
    results.push(Block.freeze(new Block.ToolResultBlock({ ...result, content: kept })))
  }
  return results === undefined ? m : withContent(m, results)
}

/** Counts the lone surrogates replaced. */
interface Replaced {
  count: number
}

/** A string with each lone surrogate replaced with U+FFFD, counted. */
const wellFormedText = (text: string, replaced: Replaced): string =>
  hasLoneSurrogate(text)
    ? text.replace(LONE_SURROGATES, () => {
      replaced.count++
      return "\uFFFD"
    })
    : text

/** Whether a JSON value holds a lone surrogate in a string or an object key; iterative. */
const holdsLoneSurrogate = (root: object): boolean => {
  const stack: Array<object> = [root]
  while (stack.length > 0) {
    const o = stack.pop()!
    const keys = Array.isArray(o) ? undefined : Object.keys(o)
    const values: ReadonlyArray<unknown> = keys === undefined ? (o as ReadonlyArray<unknown>) : keys.map((k) => (o as Record<string, unknown>)[k])
    for (const key of keys ?? []) if (hasLoneSurrogate(key)) return true
    for (const v of values) {
      if (typeof v === "string") {
        if (hasLoneSurrogate(v)) return true
      } else if (typeof v === "object" && v !== null) {
        stack.push(v)
      }
    }
  }
  return false
}

/**
 * A JSON value (arguments, options, a file's source...) with each lone surrogate of its strings and keys replaced,
 * counted; the value itself when it has none. Iterative: a value nested deeper than the call stack goes is copied
 * too. Two keys that become one keep the later value (the block as it was is in the log).
 */
const wellFormedJson = (value: unknown, replaced: Replaced): unknown => {
  if (typeof value === "string") return wellFormedText(value, replaced)
  if (typeof value !== "object" || value === null || !holdsLoneSurrogate(value)) return value
  const copyOf = (v: unknown, stack: Array<readonly [object, Array<unknown> | Record<string, unknown>]>): unknown => {
    if (typeof v === "string") return wellFormedText(v, replaced)
    if (typeof v !== "object" || v === null) return v
    const copy = Array.isArray(v) ? [] : {}
    stack.push([v, copy])
    return copy
  }
  const stack: Array<readonly [object, Array<unknown> | Record<string, unknown>]> = []
  const root = copyOf(value, stack)
  while (stack.length > 0) {
    const [from, to] = stack.pop()!
    if (Array.isArray(from)) {
      for (const v of from) (to as Array<unknown>).push(copyOf(v, stack))
    } else {
      for (const key of Object.keys(from)) defineOwn(to as Record<string, unknown>, wellFormedText(key, replaced), copyOf((from as Record<string, unknown>)[key], stack))
    }
  }
  return root
}

/** A block with each lone surrogate of its strings replaced (a tool result's parts too), or the block itself. */
const wellFormedBlock = <B extends Block.Block>(block: B, replaced: Replaced): B => {
  let fields: Record<string, unknown> | undefined
  for (const key of Object.keys(block)) {
    const value = (block as unknown as Record<string, unknown>)[key]
    let fixed: unknown
    if (key === "content" && block._tag === "ToolResult" && Array.isArray(value)) {
      const parts = value as ReadonlyArray<Block.ToolResultPart>
      let out: Array<Block.ToolResultPart> | undefined
      for (let k = 0; k < parts.length; k++) {
        const part = wellFormedBlock(parts[k]!, replaced)
        if (part !== parts[k]) out ??= parts.slice(0, k)
        out?.push(part)
      }
      fixed = out ?? value
    } else {
      fixed = wellFormedJson(value, replaced)
    }
    if (fixed !== value) fields ??= { ...block }
    if (fields !== undefined) fields[key] = fixed
  }
  if (fields === undefined) return block
  const Ctor = block.constructor as new(fields: object) => B
  return Block.freeze(new Ctor(fields))
}

/**
 * A message with each lone surrogate of its blocks replaced with U+FFFD, each block's replacement logged with the
 * block as it was (Anthropic rejects a body that holds one). Only a block the adapter sends with a lone surrogate in
 * what it sends of it is changed, as validation reads it (`walkAnthropicSent`): one in a field the adapter leaves out
 * (another provider's citations, an item id) or in a block it leaves out cannot make the body invalid.
 */
const withoutLoneSurrogates = <M extends Message.Message>(m: M, i: number, log: (action: RepairAction) => void): M => {
  let content: Array<Block.Block> | undefined
  const blocks: ReadonlyArray<Block.Block> = m.content
  walkAnthropicSent([m], (block, _i, b, sent) => {
    if (!sent.some(([, value]) => sentLoneSurrogate(value))) return false
    const replaced: Replaced = { count: 0 }
    const fixed = wellFormedBlock(block, replaced)
    if (fixed === block) return false
    content ??= blocks.slice()
    content[b] = fixed
    log(new ReplacedLoneSurrogates({ index: i, blockIndex: b, count: replaced.count, original: block }))
    return false
  }, true)
  return content === undefined ? m : withContent(m, content)
}

/** Whether a value the Anthropic adapter sends holds a lone surrogate: it is such a string, or has one in a string or a key inside it. */
const sentLoneSurrogate = (value: unknown): boolean =>
  typeof value === "string" ? hasLoneSurrogate(value) : typeof value === "object" && value !== null && holdsLoneSurrogate(value)

/**
 * An image given as base64 data with the type its bytes show, where Anthropic's writer reads them as another type
 * than the declared one, and the type it was declared (for a base64 `data:` URL, which the writer sends as its data,
 * the URL's, which is given that type too); else `undefined`.
 */
const imageOfItsBytes = (file: Block.FileBlock): { readonly fixed: Block.FileBlock; readonly declared: string } | undefined => {
  const inline = inlineFileOf(file)
  const read = inline ?? file
  if (read.source._tag !== "Base64" || !isImageType(read.mediaType)) return undefined
  const type = anthropicImageType(read.mediaType, read.source.data)
  if (type?.relabelled === undefined) return undefined
  const source = inline === undefined || file.source._tag !== "Url" ? file.source : Block.url(withDataUrlType(file.source.url, type.sent))
  return { fixed: Block.freeze(new Block.FileBlock({ ...file, mediaType: type.sent, source })), declared: read.mediaType }
}

/** The images of a user message or of tool results, each with the type its bytes show where that is another than declared (Anthropic's `MediaTypeMismatch`), logged. */
const withImageTypesOfBytes = <M extends Message.Message>(m: M, i: number, log: (action: RepairAction) => void): M => {
  switch (m.role) {
    case "user": {
      let content: Array<Block.Block> | undefined
      for (let b = 0; b < m.content.length; b++) {
        const block = m.content[b]!
        const corrected = block._tag === "File" ? imageOfItsBytes(block) : undefined
        if (corrected === undefined) continue
        content ??= m.content.slice()
        content[b] = corrected.fixed
        log(new CorrectedMediaType({ index: i, blockIndex: b, original: corrected.declared, mediaType: corrected.fixed.mediaType }))
      }
      return content === undefined ? m : withContent(m, content)
    }
    case "tool": {
      let results: Array<Block.ToolResultBlock> | undefined
      for (let b = 0; b < m.content.length; b++) {
        const result = m.content[b]!
        const parts = result.content
        let kept: Array<Block.ToolResultPart> | undefined
        if (typeof parts !== "string") {
          for (let p = 0; p < parts.length; p++) {
            const part = parts[p]!
            const corrected = part._tag === "File" ? imageOfItsBytes(part) : undefined
            if (corrected === undefined) continue
            kept ??= parts.slice()
            kept[p] = corrected.fixed
            log(new CorrectedMediaType({ index: i, blockIndex: b, partIndex: p, original: corrected.declared, mediaType: corrected.fixed.mediaType }))
          }
        }
        if (kept !== undefined) {
          results ??= m.content.slice()
          results[b] = Block.freeze(new Block.ToolResultBlock({ ...result, content: kept }))
        }
      }
      return results === undefined ? m : withContent(m, results)
    }
    case "system":
    case "assistant":
      return m
    default:
      return Block.absurd(m)
  }
}

/**
 * The repaired messages without the Anthropic options the writer would write as fields of their message (all but
 * `cache_control` and the adapter's hints, `ANTHROPIC_HINTS`: `ValidationError.UnknownMessageField`), each logged
 * with its value. Only on the messages it writes options on, as validation reads them (`anthropicWrittenMessages`):
 * the options of a message merged into the one before it on the wire go nowhere, and stay.
 */
const withoutUnknownFields = (out: Array<Message.Message>, origins: ReadonlyArray<number>, log: (action: RepairAction) => void): void => {
  if (!out.some((m) => m.providerOptions?.["anthropic"] !== undefined)) return
  const written = anthropicWrittenMessages(out)
  for (let k = 0; k < out.length; k++) if (written[k] === 1) out[k] = withoutMessageFields(out[k]!, origins[k]!, log)
}

/** A message without the Anthropic options that would be written as fields of it, each logged with its value. */
const withoutMessageFields = <M extends Message.Message>(m: M, i: number, log: (action: RepairAction) => void): M => {
  const own = m.providerOptions?.["anthropic"]
  if (m.role === "system" || own === undefined) return m
  let kept: Record<string, Schema.Json> | undefined
  for (const key of Object.keys(own)) {
    if (isAnthropicHintKey(key) || key === "cache_control") continue
    kept ??= { ...own }
    delete kept[key]
    log(new RemovedMessageField({ index: i, field: wireName(key), original: own[key]! }))
  }
  if (kept === undefined) return m
  const { anthropic: _, ...others } = m.providerOptions ?? {}
  const providerOptions = Object.keys(kept).length === 0 ? others : { ...others, anthropic: kept }
  const { providerOptions: _old, ...rest } = m
  return rebuilt(m, Object.keys(providerOptions).length === 0 ? rest : { ...rest, providerOptions })
}

/** `record` without its keys that start with `$`, each logged by `removed`; `record` itself when it has none. */
const withoutDollarKeys = <V>(record: { readonly [key: string]: V }, removed: (key: string, value: V) => void): { [key: string]: V } | undefined => {
  let kept: { [key: string]: V } | undefined
  for (const key of Object.keys(record)) {
    if (!key.startsWith("$")) continue
    kept ??= { ...record }
    delete kept[key]
    removed(key, record[key]!)
  }
  return kept
}

/**
 * A block without the `$` keys of its Anthropic options (`own`) and of the options of the parts of its tool result
 * whose indexes `parts` holds, or the block itself; the `$` keys of the data of Anthropic provider data.
 */
const withoutDollarOptions = <B extends Block.Block>(
  block: B,
  at: ReadonlyArray<string | number>,
  own: boolean,
  parts: ReadonlySet<number>,
  removed: (field: string, path: ReadonlyArray<string | number>, value: Schema.Json) => void
): B => {
  if (block._tag === "ProviderData") {
    if (block.provider !== "anthropic") return block
    const data = withoutDollarKeys(block.data, (key, value) => removed(key, [...at, "data", key], value))
    return data === undefined ? block : Block.freeze(new Block.ProviderDataBlock({ ...block, data })) as B
  }
  if (block._tag === "Json") return block
  let fields: Record<string, unknown> | undefined
  const options = own ? block.providerOptions?.["anthropic"] : undefined
  if (options !== undefined) {
    const kept = withoutDollarKeys(options, (key, value) => removed(wireName(key), [...at, "providerOptions", "anthropic", key], value))
    if (kept !== undefined) {
      const { anthropic: _, ...others } = block.providerOptions ?? {}
      const providerOptions = Object.keys(kept).length === 0 ? others : { ...others, anthropic: kept }
      const { providerOptions: _old, ...rest } = block as Block.Block & { readonly providerOptions?: Block.ProviderOptions }
      fields = Object.keys(providerOptions).length === 0 ? rest : { ...rest, providerOptions }
    }
  }
  if (block._tag === "ToolResult" && typeof block.content !== "string" && parts.size > 0) {
    const given = block.content
    let content: Array<Block.ToolResultPart> | undefined
    for (let p = 0; p < given.length; p++) {
      const part = parts.has(p) ? withoutDollarOptions(given[p]!, [...at, "content", p], true, NO_PARTS, removed) : given[p]!
      if (part !== given[p]) content ??= given.slice(0, p)
      content?.push(part)
    }
    if (content !== undefined) fields = { ...(fields ?? block), content }
  }
  if (fields === undefined) return block
  const Ctor = block.constructor as new(fields: object) => B
  return Block.freeze(new Ctor(fields))
}

const NO_PARTS: ReadonlySet<number> = new Set()

/**
 * A message whose blocks have no field whose name starts with `$` where the Anthropic adapter writes one (their
 * Anthropic options, their tool results' parts' options, the data of Anthropic provider data:
 * `ValidationError.UnknownMessageField` with a `blockIndex`), each logged with its value. Only what the adapter
 * sends is read, as validation reads it (`walkAnthropicSent`): a block or a part it leaves out (a refusal's options,
 * another provider's server tool, a file in an assistant message...) keeps its options.
 */
const withoutDollarBlockFields = <M extends Message.Message>(m: M, i: number, log: (action: RepairAction) => void): M => {
  const blocks: ReadonlyArray<Block.Block> = m.content
  if (!blocks.some(hasDollarKey)) return m
  let content: Array<Block.Block> | undefined
  const parts = new Set<number>()
  walkAnthropicSent([m], (block, _i, b, sent) => {
    let own = false
    parts.clear()
    for (const value of sent) {
      const option = sentOptionKey(value)
      if (option === undefined || !isDollar(wireName(option.key))) continue
      if (option.where.length === 0) own = true
      else parts.add(option.where[1] as number)
    }
    const fixed = withoutDollarOptions(block, [], own, parts, (field, path, original) => log(new RemovedMessageField({ index: i, blockIndex: b, field, path, original })))
    if (fixed === block) return false
    content ??= blocks.slice()
    content[b] = fixed
    return false
  }, true)
  return content === undefined ? m : withContent(m, content)
}

/**
 * Anthropic's placement rules, on the repaired messages: a turn's results read from two user messages go back as
 * one, the thinking of the assistant turn a request ends with is removed with thinking off, a prefill loses its
 * trailing whitespace, and with manual thinking the turn the request continues starts with thinking.
 */
const placeForAnthropic = (
  out: Array<Message.Message>,
  origins: Array<number>,
  log: (action: RepairAction) => void,
  options: RepairForOptions | undefined
): void => {
  // results read from two user messages in a row go back as one: Anthropic wants a turn's results together
  // (a system message between them goes to the system prompt: they still meet on the wire)
  mergeSeparatedResults(out, origins, log)
  // the turns as validation reads them: a message the writer sends nothing of is not on the wire (read as system text)
  let wire = withoutUnsent(out, anthropicRuns(out)).messages
  // the last message on the wire: system messages after it go to the system prompt
  let last = previousOnWire(wire, out.length)
  const setting = thinkingSetting(options)
  if (setting === "disabled" && out[last]?.role === "assistant") {
    // with thinking off, the assistant turn a request ends with holds no thinking: each block is removed, kept
    // whole in the log, and a message left with nothing is removed too
    const from = turnStart(wire, last)
    const emptied: Array<number> = []
    for (let j = from; j <= last; j++) {
      const m = out[j]!
      if (wire[j]!.role !== "assistant") continue
      const kept = dropBlocks(m, origins[j]!, log, (block) => (isThinkingBlock(block) ? "with thinking off, Anthropic rejects thinking in the assistant turn a request ends with" : undefined))
      if (kept === m) continue
      out[j] = kept
      if (kept.content.length > 0) continue
      log(new RemovedEmptyMessage({ index: origins[j]!, message: kept }))
      emptied.push(j)
    }
    removeAt(out, origins, emptied)
    wire = withoutUnsent(out, anthropicRuns(out)).messages
    last = previousOnWire(wire, out.length)
  }
  thinkingFirst(out, origins, log, wire, last, setting)
  // last, on the turn as it now is (moving thinking first may have joined the run, its text now last): a prefill
  // must not end with whitespace
  wire = withoutUnsent(out, anthropicRuns(out)).messages
  trimPrefill(out, origins, log, wire, previousOnWire(wire, out.length))
}

/**
 * With manual thinking, the assistant turn the request continues must start with thinking: a tool loop in progress
 * (the results of the last assistant's calls, and maybe the user's words after them, end the conversation; thinking
 * in the history says thinking is on) or, the setting known, a final assistant message.
 */
const thinkingFirst = (
  out: Array<Message.Message>,
  origins: Array<number>,
  log: (action: RepairAction) => void,
  wire: ReadonlyArray<Message.Message>,
  last: number,
  setting: ReturnType<typeof thinkingSetting>
): void => {
  if (out[last] === undefined) return
  const endsOnAssistant = wire[last]!.role === "assistant"
  let k = last
  while (k >= 0 && wire[k]!.role !== "assistant") k--
  if (k < 0) return
  const inToolLoop = !endsOnAssistant && wire[nextOnWire(wire, k)]?.role === "tool"
  if (!inToolLoop && !endsOnAssistant) return
  const thinkingOn = setting === "enabled" || (setting === undefined && inToolLoop && out.some((m) => m.role === "assistant" && m.content.some(isThinkingBlock)))
  if (!thinkingOn) return
  // a tool loop is one turn, from the user's words on: its first message is the run of assistant messages it starts
  // with, system messages between them aside (Anthropic merges them); later steps may go without thinking
  const start = turnStart(wire, k)
  const end = assistantRunEnd(wire, start)
  const assistants: Array<number> = []
  for (let j = start; j <= end; j++) if (wire[j]!.role === "assistant") assistants.push(j)
  const turn = assistants.flatMap((j) => (out[j] as Message.AssistantMessage).content)
  const first = turn[0]
  if (first === undefined || isThinkingBlock(first)) return
  const at = turn.findIndex(isThinkingBlock)
  if (at === -1) return // nothing to move: validation reports it, and repairFor fails with CannotRepair
  const head = out[start] as Message.AssistantMessage
  let merged: Message.AssistantMessage = head
  if (at >= head.content.length) {
    // the thinking is in a later message of the turn: the turn becomes the one message Anthropic makes of it
    // (metadata joined as the generic merge joins it, the first message's values first)
    let metadata = head.metadata
    // the system messages between them (in the system prompt on the wire) now follow the merged message
    for (let j = start + 1; j < end; j++) {
      if (out[j]!.role === "system") log(new MovedSystemMessage({ index: origins[j]!, to: "after-merged-messages" }))
    }
    // (an empty message of the run stays where it is: the writer sends nothing of it)
    const merging = assistants.slice(1).filter((j) => out[j]!.content.length > 0)
    for (const j of merging) {
      const m = out[j]!
      log(new MergedConsecutive({ index: origins[j]!, into: origins[start]!, message: m }))
      if (m.metadata !== undefined) metadata = { ...m.metadata, ...metadata }
    }
    if (metadata !== head.metadata && metadata !== undefined) merged = Message.freeze(withMetadata(head, metadata))
    removeAt(out, origins, merging)
  }
  log(new MovedBlock({ index: origins[start]!, from: at, to: 0, reason: "with thinking on, the assistant turn the request continues must start with thinking" }))
  const content = at >= head.content.length ? turn.slice() : head.content.slice()
  const [thinking] = content.splice(at, 1)
  out[start] = withContent(merged, [thinking!, ...content])
}

/** The final assistant message of the request (the run the writer sends as one, its empty messages aside) without trailing whitespace. */
const trimPrefill = (
  out: Array<Message.Message>,
  origins: Array<number>,
  log: (action: RepairAction) => void,
  wire: ReadonlyArray<Message.Message>,
  last: number
): void => {
  // empty assistant messages at the end add nothing to the message the writer makes of the run
  let prefill = last
  while (prefill > 0 && out[prefill]!.content.length === 0 && wire[previousOnWire(wire, prefill)]?.role === "assistant") prefill = previousOnWire(wire, prefill)
  const final = out[prefill]
  if (final?.role === "assistant") {
    for (let b = final.content.length - 1; b >= 0; b--) {
      const block = final.content[b]!
      // a refusal goes as text too
      if (block._tag !== "Text" && block._tag !== "Refusal") continue
      const text = block._tag === "Text" ? block.text : block.refusal
      const trimmed = text.trimEnd()
      if (trimmed !== text) {
        log(new TrimmedPrefill({ index: origins[prefill]!, blockIndex: b, original: text }))
        const content = final.content.slice()
        content[b] = Block.freeze(block._tag === "Text" ? new Block.TextBlock({ ...block, text: trimmed }) : new Block.RefusalBlock({ ...block, refusal: trimmed }))
        out[prefill] = withContent(final, content)
      }
      break
    }
  }
}

const anthropicFixes = (options: RepairForOptions | undefined): ProviderFixes => ({
  wire: true,
  message: (given, i, log, _freshId, callFollows) => {
    // first, so that the steps after it see the blocks as they are sent (and the images: neither moves a block)
    const m = withImageTypesOfBytes(withoutLoneSurrogates(withoutDollarBlockFields(given, i, log), i, log), i, log)
    if (m.role === "tool") return withoutBlankResultText(m, i, log)
    const dropped = dropBlocks(m, i, log, (block) => {
      switch (block._tag) {
        case "Text":
          return isBlank(block.text) ? "Anthropic rejects text blocks without non-whitespace text" : undefined
        case "Refusal":
          return isBlank(block.refusal) ? "Anthropic rejects text blocks without non-whitespace text (a refusal goes as text)" : undefined
        case "Thinking":
          return block.signature === undefined || block.signature === ""
            ? "Anthropic rejects thinking without its signature (the text is kept here)"
            : undefined
        case "RedactedThinking":
          return block.data === "" ? "Anthropic rejects redacted thinking without data" : undefined
        default:
          return undefined
      }
    })
    if (dropped.role !== "assistant") return dropped
    // text after the last client call would sit between the calls and their results: move it before the
    // first call (server tools are followed by the text that uses their results, which Anthropic accepts)
    // (or before the call of a later message of its run: the writer sends the run as one message)
    const { first, last } = clientCallSpan(dropped.content)
    if (last === -1 || callFollows) return dropped
    return moveTextBeforeCalls(dropped, i, log, last, first, "Anthropic takes text before the tool calls of a turn")
  },
  finish: (out, origins, log) => {
    placeForAnthropic(out, origins, log, options)
    // last, on the messages as they are sent: which ones the writer writes fields on depends on where they end up
    withoutUnknownFields(out, origins, log)
  }
})

const geminiFixes = (options: RepairForOptions | undefined): ProviderFixes => ({
  message: (m) => m,
  finish: (out, origins, log) => {
    // system text only at the start: move later system messages up, in order
    let lead = 0
    while (lead < out.length && out[lead]!.role === "system") lead++
    const moved: Array<number> = []
    for (let k = lead; k < out.length; k++) if (out[k]!.role === "system") moved.push(k)
    if (moved.length > 0) {
      const systems = moved.map((k) => out[k]!)
      const systemOrigins = moved.map((k) => origins[k]!)
      for (const o of systemOrigins) log(new MovedSystemMessage({ index: o, to: "start" }))
      let w = lead
      const skip = new Set(moved)
      for (let k = lead; k < out.length; k++) {
        if (skip.has(k)) continue
        out[w] = out[k]!
        origins[w] = origins[k]!
        w++
      }
      out.length = w
      origins.length = w
      insertAll(out, lead, systems)
      insertAll(origins, lead, systemOrigins)
      lead += systems.length
    }
    // a function-call turn must follow a user turn or function responses, read as the writer sends the messages: one
    // it sends nothing of is not there (the first turn, or one after a model turn with another provider's data alone
    // between them, which the main loop reads as a user message)
    const unasked: Array<number> = []
    let prev: Message.Message | undefined
    for (let k = lead; k < out.length; k++) {
      const m = out[k]!
      if (m.role === "system" || geminiSendsNothing(m)) continue
      if (sendsFunctionCall(m) && !(prev !== undefined && (prev.role === "user" || prev.role === "tool"))) unasked.push(k)
      prev = m
    }
    if (unasked.length > 0) {
      for (const k of unasked) log(new InsertedUserMessage({ index: origins[k]!, text: CONTINUE }))
      const messages = out.slice()
      const from = origins.slice()
      out.length = 0
      origins.length = 0
      let next = 0
      for (let k = 0; k < messages.length; k++) {
        if (unasked[next] === k) {
          out.push(Message.user(CONTINUE))
          origins.push(from[k]!)
          next++
        }
        out.push(messages[k]!)
        origins.push(from[k]!)
      }
    }
    // Gemini 3 signatures: the first function call of each step of the current turn needs one (as validation reads it:
    // a call the provider ran is none)
    if (!Conversation.requiresThoughtSignatures(options)) return
    let lastUser = out.length - 1
    while (lastUser >= 0 && (out[lastUser]!.role !== "user" || geminiSendsNothing(out[lastUser]!))) lastUser--
    for (let k = lastUser + 1; k < out.length; k++) {
      const m = out[k]!
      if (m.role !== "assistant") continue
      const b = m.content.findIndex((block) => block._tag === "ToolCall" && block.providerExecuted !== true)
      const call = m.content[b]
      if (call === undefined || call._tag !== "ToolCall" || (call.thoughtSignature !== undefined && call.thoughtSignature !== "")) continue
      log(new AddedThoughtSignature({ index: origins[k]!, blockIndex: b, toolCallId: call.id }))
      const content = m.content.slice()
      content[b] = Block.freeze(new Block.ToolCallBlock({ ...call, thoughtSignature: GEMINI_SKIP_SIGNATURE }))
      out[k] = withContent(m, content)
    }
  }
})

/** Whether `n` blocks of `a` from `from` are those of `b` from `at`, field for field. */
const sameBlocks = (a: ReadonlyArray<Block.Block>, from: number, b: ReadonlyArray<Block.Block>, at: number, n: number): boolean => {
  for (let k = 0; k < n; k++) if (!Equal.equals(a[from + k], b[at + k])) return false
  return true
}

/**
 * For each message, whether an assistant message with a block other than thinking comes after it in its run of
 * assistant messages (empty messages aside).
 */
const answerLaterInRun = (messages: ReadonlyArray<Message.Message>): Array<boolean> =>
  decidedAfter(messages, (m) => (m.content.some((block) => block._tag !== "Thinking") ? true : undefined), true)

/** Why a reasoning item is removed when no item with its id follows it. */
const UNFOLLOWED_REASONING = "a reasoning item must be followed by the output item it produced, with that item's id (the text is kept here)"

/**
 * The input messages a provider's fixes judge as they enter, guessing nothing about what repair will put after them:
 * those whose guess proved wrong in an earlier run (`at`), or every message (`all`).
 */
interface Settled {
  readonly at: Set<number>
  all: boolean
}

const responsesFixes = (options: RepairForOptions | undefined, messages: ReadonlyArray<Message.Message>, settled: Settled): ProviderFixes => {
  /** `answerLaterInRun` of the input, read at the first assistant message. */
  let answerAhead: Array<boolean> | undefined
  /** Reasoning kept as its message entered on the guess that the answer after it in its run keeps it company, by input index. */
  const guessed = new Map<Block.Block, number>()
  /** Whether a guess proved wrong: its input message is then settled (judged as it enters) and the repair runs again. */
  let wrong = false
  // validation's own reading of which custom tool outputs answer a call, fed the messages in the same order
  const custom = customCallOutputs(options?.continues === true)
  /** The input index of each custom tool call, in order (the repair keeps them in that order). */
  const callOrigins: Array<number> = []
  /** The fresh ids of the custom calls that had no usable call_id, by the call_id as it came, in order; `next` is the first no output has followed yet. */
  const renamed = new Map<string, { readonly ids: Array<string>; next: number }>()
  /**
   * Custom tool items without a usable call_id, which the API rejects: a call gets a fresh one, as an empty
   * function call id does, and the first output without one after it (the same id as it came) follows it.
   * A call without a name gets the stand-in an unnamed function call gets.
   */
  const withCustomIds = (m: Message.AssistantMessage, i: number, log: (action: RepairAction) => void, freshId: (base: string) => string): Message.AssistantMessage => {
    let content: Array<Block.AssistantBlock> | undefined
    for (let b = 0; b < m.content.length; b++) {
      const block = m.content[b]!
      if (block._tag !== "ProviderData") continue
      const item = customItemOf(block)
      if (item === undefined) continue
      if (item.type === "custom_tool_call") callOrigins.push(i)
      let data = block.data
      if (item.id === undefined) {
        const queue = renamed.get(item.rawId)
        let to: string | undefined
        if (item.type === "custom_tool_call") {
          to = freshId("")
          if (queue === undefined) renamed.set(item.rawId, { ids: [to], next: 0 })
          else queue.ids.push(to)
        } else if (queue !== undefined && queue.next < queue.ids.length) {
          to = queue.ids[queue.next++]!
        }
        // (an output no such call comes before answers nothing: removed below, as an orphan)
        if (to !== undefined) {
          // a call_id that is not a string is kept as it came: its JSON text alone would read as a string
          const given = block.data["call_id"]
          const original = given === undefined || typeof given === "string" ? {} : { original: given }
          log(new RenamedToolCallId({ index: i, blockIndex: b, from: item.rawId, to, ...original }))
          data = { ...data, call_id: to }
        }
      }
      if (item.type === "custom_tool_call" && item.name === "") {
        // a call without its name is rejected, as a function call's is: it gets the same stand-in, and a name
        // that is not a string is kept in the log as it came
        const id = data["call_id"]
        const given = block.data["name"]
        const original = given === undefined || typeof given === "string" ? {} : { original: given }
        log(new FilledToolName({ index: i, blockIndex: b, toolCallId: typeof id === "string" ? id : item.rawId, name: UNKNOWN_TOOL, ...original }))
        data = { ...data, name: UNKNOWN_TOOL }
      }
      if (data === block.data) continue
      content ??= m.content.slice()
      content[b] = Block.providerData(block.provider, data)
    }
    return content === undefined ? m : withContent(m, content)
  }
  /** The first item sent with each id: its blocks (`content[start..end)`: the parts of a message item), or none for an input message. */
  const firstItems = new Map<string, { readonly index: number; readonly content: ReadonlyArray<Block.Block>; readonly start: number; readonly end: number }>()
  /**
   * Removes an item whose id an earlier item had when it is an exact copy of that item (the same blocks; a history
   * that got a turn twice), each block kept in the log. A different item with the id stays, for validation to report
   * (`DuplicateItemId`): which one to keep is the user's choice. The items as validation reads them: the parts of a
   * message item are the consecutive text and refusal blocks with its id, a hosted tool's result is inside its call's.
   */
  const withoutCopiedItems = <M extends Message.Message>(m: M, i: number, log: (action: RepairAction) => void): M => {
    if (m.role === "system" || m.role === "user") {
      const id = m.providerOptions?.["openai-responses"]?.["id"]
      if (typeof id === "string" && id !== "" && !firstItems.has(id)) firstItems.set(id, { index: i, content: [], start: 0, end: 0 })
      return m
    }
    const content: ReadonlyArray<Block.Block> = m.content
    let copies: Map<number, string> | undefined
    for (let b = 0; b < content.length;) {
      const block = content[b]!
      const isPart = block._tag === "Text" || block._tag === "Refusal"
      let end = b + 1
      while (isPart && end < content.length) {
        const next = content[end]!
        if ((next._tag !== "Text" && next._tag !== "Refusal") || next.itemId !== block.itemId) break
        end++
      }
      const id = block._tag === "ToolResult" ? (m.role === "tool" ? block.itemId : undefined) : itemIdOf(block as Block.AssistantBlock)
      if (id !== undefined && id !== "") {
        const first = firstItems.get(id)
        if (first === undefined) {
          firstItems.set(id, { index: i, content, start: b, end })
        } else if (first.end - first.start === end - b && first.end > first.start && sameBlocks(first.content, first.start, content, b, end - b)) {
          const reason = `the Responses API rejects a second item with the id ${quote(id)}, and this one is an exact copy of the one at messages[${first.index}] (kept here)`
          copies ??= new Map()
          for (let k = b; k < end; k++) copies.set(k, reason)
        }
      }
      b = end
    }
    return copies === undefined ? m : dropBlocks(m, i, log, (_, b) => copies.get(b))
  }
  return {
    again: () => wrong,
    textEndsCalls: true,
    message: (given, i, log, freshId) => {
      // first: an exact copy of an item is not sent, so what follows it is read without it (a custom tool call copied
      // with its output: the copy's output is then a second answer of the call, removed below)
      const deduped = withoutCopiedItems(given, i, log)
      custom.message(deduped, i)
      if (deduped.role !== "assistant") return deduped
      const named = withCustomIds(deduped, i, log, freshId)
      // an output of a custom tool call that is not there, or a second one: removed, as a function output is
      const answered = dropBlocks(named, i, log, (block, b) => {
        const answers = custom.output(block, i, b)
        if (answers === undefined) return undefined
        switch (answers._tag) {
          case "Orphan":
            return answers.id === ""
              ? "the Responses API rejects a custom tool call output with no call_id (missing, empty or not a string), and no custom tool call without one came before it to give it one (the output is kept here)"
              : "the Responses API rejects a custom tool call output that answers no custom tool call before it (the output is kept here)"
          case "Duplicate":
            return `the custom tool call was already answered at messages[${answers.firstIndex}] (the second output is kept here)`
          default:
            return Block.absurd(answers)
        }
      })
      // (Chat custom calls with their input text go as the API's own custom_tool_call items)
      const m = withObjectArguments(answered, i, log, isCustomTextCall)
      const store = options?.store ?? true
      // text after a client call would be a message item between the call and its output: move it
      // before the calls (and before the reasoning items that produced the first call)
      const { first } = clientCallSpan(m.content)
      let to = first
      while (to > 0 && isReasoningItem(m.content[to - 1]!)) to--
      const moved = first === -1 ? m : moveTextBeforeCalls(m, i, log, first, to, "the Responses API wants a call's output right after the call", true)
      // the reasoning items not followed by an item that still has its id (the rule's own reading)
      const orphaned = new Set<number>()
      // (reasoning at the end of a message that an assistant message with more than thinking follows in its run is
      // judged on the repaired messages, in `finish`: what follows it is that message's first item once merges and
      // moves are done, and the merge leaves the message with content)
      const guess = !settled.all && !settled.at.has(i) && (answerAhead ??= answerLaterInRun(messages))[i] === true
      unfollowedReasoning(moved.content, (b) => orphaned.add(b), guess)
      if (guess) unfollowedReasoning(moved.content, (b) => orphaned.has(b) || guessed.set(moved.content[b]!, i), false)
      const kept = dropBlocks(moved, i, log, (block, b) => {
        if (block._tag !== "Thinking" || !isReasoningItem(block)) return undefined
        if (!store && (block.encryptedContent === undefined || block.encryptedContent === "")) {
          return "with store: false a reasoning item cannot be replayed without its encrypted content (the text is kept here)"
        }
        return orphaned.has(b) ? UNFOLLOWED_REASONING : undefined
      })
      return kept
    },
    finish: (out, origins, log) => {
      // a custom tool call with no output after it gets one saying it was interrupted, right after the call, as
      // an unanswered function call gets an error result (read on the repaired messages: merges moved blocks)
      const reading = customCallOutputs(options?.continues === true)
      for (let k = 0; k < out.length; k++) {
        const m = out[k]!
        reading.message(m, k)
        if (m.role === "assistant") for (let b = 0; b < m.content.length; b++) reading.output(m.content[b]!, k, b)
      }
      const unanswered = reading.unanswered().filter((call) => call.resumedAt !== undefined || options?.allowPendingToolCalls !== true)
      const output = options?.interruptedContent ?? INTERRUPTED
      for (let n = 0; n < unanswered.length;) {
        const k = unanswered[n]!.index
        const m = out[k] as Message.AssistantMessage
        const content: Array<Block.AssistantBlock> = []
        let from = 0
        // the calls of one message, in block order
        for (; n < unanswered.length && unanswered[n]!.index === k; n++) {
          const call = unanswered[n]!
          for (; from <= call.blockIndex; from++) content.push(m.content[from]!)
          content.push(Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: call.id, output }))
          // logged where the call was in the input, as for a function call (a merge may have moved it)
          const index = callOrigins[call.ordinal] ?? origins[k]!
          log(new InsertedMissingResult({ index, toolCallId: call.id, toolName: call.name, ...insertedContent(output) }))
        }
        for (; from < m.content.length; from++) content.push(m.content[from]!)
        out[k] = withContent(m, content)
      }
      // a reasoning item must be followed by the item it produced, with that item's id: read on the repaired
      // messages, where the items after a message's last reasoning are those of the message after it
      const after = followedByIdAfter(out)
      const emptied: Array<number> = []
      for (let k = 0; k < out.length; k++) {
        const m = out[k]!
        if (m.role !== "assistant") continue
        const gone = new Set<number>()
        unfollowedReasoning(m.content, (b) => gone.add(b), after[k])
        if (gone.size === 0) continue
        const content: Array<Block.AssistantBlock> = []
        m.content.forEach((block, b) => {
          if (gone.has(b)) log(new RemovedBlock({ index: origins[k]!, blockIndex: b, block, reason: UNFOLLOWED_REASONING }))
          else content.push(block)
        })
        if (content.length > 0) {
          out[k] = withContent(m, content)
          continue
        }
        // a message of such reasoning alone is left with nothing: the guess that let it in was wrong (the answer after
        // it was removed), and the repair runs again judging its messages as they enter
        for (const block of m.content) {
          const at = guessed.get(block)
          if (at !== undefined && !settled.at.has(at)) {
            settled.at.add(at)
            wrong = true
          }
        }
        log(new RemovedEmptyMessage({ index: origins[k]!, message: m }))
        emptied.push(k)
      }
      removeAt(out, origins, emptied)
      // an output item sent with its id needs its reasoning item on a reasoning model: without it, the item goes
      // without its id (validation's own reading, on the repaired messages: merges and moves are done)
      const missing = Conversation.missingReasoningItems(out, options)
      for (let n = 0; n < missing.length;) {
        const k = missing[n]!.index
        const m = out[k] as Message.AssistantMessage
        const content = m.content.slice()
        for (; n < missing.length && missing[n]!.index === k; n++) {
          const { blockIndex, itemId, itemType } = missing[n]!
          // a hosted web search or a generated image is sent with an id whatever the block holds (the API requires
          // one on those items): no id to remove, so it stays reported (its reasoning item is what is missing)
          if (itemType === "web_search_call" || itemType === "image_generation_call") continue
          // the item's blocks: a call, or the parts of a message item (the text and refusals that follow with its id)
          for (let b = blockIndex; b < content.length; b++) {
            const block = content[b]!
            if (b > blockIndex && !((block._tag === "Text" || block._tag === "Refusal") && block.itemId === itemId)) break
            log(new RemovedItemId({ index: origins[k]!, blockIndex: b, original: itemId }))
            content[b] = withoutItemId(block)
          }
        }
        out[k] = withContent(m, content)
      }
    }
  }
}

/** An output block without its Responses item id, as it was otherwise. */
const withoutItemId = (block: Block.AssistantBlock): Block.AssistantBlock => {
  switch (block._tag) {
    case "ToolCall": {
      const { itemId: _id, ...rest } = block
      return Block.freeze(new Block.ToolCallBlock(rest))
    }
    case "Text": {
      const { itemId: _id, ...rest } = block
      return Block.freeze(new Block.TextBlock(rest))
    }
    case "Refusal": {
      const { itemId: _id, ...rest } = block
      return Block.freeze(new Block.RefusalBlock(rest))
    }
    default:
      return block
  }
}

/**
 * The calls of an assistant message whose arguments text is not a JSON
 * object (OpenAI's rule), with the arguments read from it instead, each
 * logged with the text as it was.
 */
const withObjectArguments = (
  m: Message.AssistantMessage,
  i: number,
  log: (action: RepairAction) => void,
  sentAsText: (call: Block.ToolCallBlock) => boolean
): Message.AssistantMessage => {
  let content: Array<Block.AssistantBlock> | undefined
  for (let b = 0; b < m.content.length; b++) {
    const block = m.content[b]!
    // a custom tool's call sent as its free-form text has no arguments to mend
    if (block._tag !== "ToolCall" || block.providerExecuted === true || sentAsText(block)) continue
    const reason = sentArgumentsProblem(block)
    if (reason === undefined) continue
    const { args, parseError: _error, rawArgs: _raw, ...rest } = block
    const value: Schema.Json = isObject(args) ? args : {}
    content ??= m.content.slice()
    content[b] = Block.freeze(new Block.ToolCallBlock({ ...rest, args: value }))
    log(new ReplacedToolArguments({ index: i, blockIndex: b, toolCallId: block.id, original: block.rawArgs !== undefined && rawArgsHold(block) ? block.rawArgs : jsonText(args), replacement: jsonText(value), reason }))
  }
  return content === undefined ? m : withContent(m, content)
}

const chatFixes: ProviderFixes = {
  // Chat sends a custom tool's call as free-form text, whatever its arguments
  message: (m, i, log) => (m.role === "assistant" ? withObjectArguments(m, i, log, isChatCustomCall) : m),
  finish: () => {}
}

const fixesFor = (
  provider: Provider,
  options: RepairForOptions | undefined,
  messages: ReadonlyArray<Message.Message>,
  settled: Settled
): ProviderFixes | undefined => {
  switch (provider) {
    case "openai-chat":
      return chatFixes
    case "openai-responses":
      return responsesFixes(options, messages, settled)
    case "anthropic":
      return anthropicFixes(options)
    case "gemini":
      return geminiFixes(options)
    default:
      return unknownProvider(provider)
  }
}

const whyNot = (issue: Issue): string => {
  switch (issue._tag) {
    case "EmptyConversation":
      return "there is no user or assistant message with content to keep"
    case "ThinkingNotFirst":
      return "thinking is on and the assistant turn the request continues (a tool loop in progress, or a final assistant message) does not start with a thinking block; a signed block cannot be made up: send this request with thinking off or adaptive, or end the turn first"
    case "TooManyCacheBreakpoints":
      return "which cache breakpoints to keep is yours to choose: remove the cache_control of those you can do without (at most 4 in a request, tool definitions included)"
    case "DuplicateItemId":
      return "the items with this id differ (an exact copy is removed), and which one to keep is yours to choose"
    case "PrefillNotSupported":
      return "the final assistant message is your content: end the request with a user message, or ask for the format with structured outputs instead of a prefill"
    case "UnsupportedMediaType":
      return "the file is your content: convert it to a type the provider takes, or leave it out"
    case "MediaTypeMismatch":
      return "the image is your content: give it the media type its bytes are"
    case "LoneSurrogate":
      // the lone surrogates of blocks are replaced, and a message's other fields removed: what is left is its breakpoint
      return "a message's cache_control is your setting: give it the value you meant (such as { type: \"ephemeral\" }) or remove it"
    case "MissingReasoningItem":
      return "a web search or a generated image goes with its id (the API needs one on it), so it needs the reasoning item it followed: send that reasoning item too, or leave the item out"
    default:
      return "no repair for this rule"
  }
}

/**
 * Repairs a history for one provider: the generic repair, plus what that
 * provider rejects and can be fixed, in the same pass and the same log:
 *
 * - Anthropic: text blocks without non-whitespace text, thinking without a
 *   signature and redacted thinking without data are removed (each block kept
 *   whole in the log); text after a message's tool calls is moved before
 *   them; trailing whitespace is cut from a final assistant prefill; with
 *   thinking off (`thinking: false`), the thinking of the assistant turn a
 *   request ends with is removed (each block kept whole in the log, and a
 *   message left empty removed too); with manual thinking on, the thinking
 *   of the turn the request continues (a tool loop in progress; a final
 *   assistant message when `thinking` is given) is moved to the front of
 *   the turn's first message (consecutive assistant messages, merged into
 *   one when the thinking is in a later one; a system message between them
 *   then follows the merged message, logged as a `MovedSystemMessage`). A
 *   refusal is treated as the text it is sent as; a system message between
 *   calls and results stays (it goes to the system prompt). Turns are read
 *   as the writer sends them, as validation reads them, on a history that
 *   needs repair too: an empty message in a run of one role with content
 *   stays (the writer sends nothing of it; one whose run is left without
 *   content is removed), an assistant message right after one whose calls
 *   are pending continues their turn (unless text of its own with no call
 *   after it in the run would follow those calls: the turn ends before it),
 *   text after a message's calls stays when a later message of its run
 *   makes a call, and a run of messages of which the writer sends no block
 *   (it leaves the run out) stays and ends no turn. Results read
 *   from two user messages in a row are merged into one message (a system
 *   message between them then follows it, logged the same way). Each lone
 *   UTF-16 surrogate (half of a character) in a block's strings is replaced
 *   with U+FFFD (`ReplacedLoneSurrogates`, the block as it was kept), in a
 *   block the writer sends with one in what it sends. More
 *   than 4 cache breakpoints are left as they are (`CannotRepair`): which to
 *   keep is the caller's choice. An image given as base64 data (or at a
 *   base64 `data:` URL) whose bytes are another format than its type
 *   (`MediaTypeMismatch`) is given the type its bytes show
 *   (`CorrectedMediaType`, the declared type kept), as the Anthropic writer
 *   sends it. A message's Anthropic options that would
 *   be written as fields of its message (all but `cache_control`:
 *   `UnknownMessageField`) are removed (`RemovedMessageField`, each value
 *   kept), and so are the fields of a block whose name starts with `$` (its
 *   Anthropic options, its tool result's parts', the data of Anthropic
 *   provider data), which the writer writes as they are. Only what the
 *   writer sends is changed, as validation reads it: a block it leaves out
 *   (a file in an assistant message, another provider's server tool), a
 *   refusal's options (it goes as plain text) and the options of a message
 *   merged into the one before it keep theirs.
 * - Every provider: a file in a media type the provider does not take
 *   (`UnsupportedMediaType`) is left as it is (`CannotRepair`): the file is
 *   the caller's to convert or leave out.
 * - Gemini: system messages after the start are moved to the start; a
 *   function-call turn that follows neither a user turn nor function
 *   responses, as the writer sends them, gets a user message ("Continue.");
 *   in the current turn, the first call of each step without a
 *   thought signature gets the one Gemini documents for calls it did not
 *   produce.
 * - OpenAI Responses: reasoning items with no output after them, and (with
 *   `store: false`) reasoning without encrypted content, are removed, as is
 *   a custom tool call output (kept as provider data) with no custom tool
 *   call before it or for a call already answered (each kept whole in the
 *   log, as a `RemovedBlock`); a custom tool call with no output after it
 *   gets a `custom_tool_call_output` saying it was interrupted, right after
 *   it (`InsertedMissingResult`; one the conversation ends with stays
 *   pending with `allowPendingToolCalls`); a call's arguments text that is
 *   not a JSON object is replaced with the arguments read from it. An item
 *   whose id an earlier item had is removed when it is an exact copy of it
 *   (a turn appended twice; kept in the log as a `RemovedBlock`); two
 *   different items with one id are left (`CannotRepair`): which to keep is
 *   the caller's choice. For a model that reasons (`model`,
 *   `reasoningItems`), an output item sent with its id whose reasoning item
 *   is not sent loses the id (`RemovedItemId`, the id kept in the log).
 *   Parallel calls recorded one assistant message each are joined into one
 *   turn as the generic repair joins them, but for a message with text: text
 *   after a call is rejected here, so that message starts a turn of its own
 *   (the calls before it answered as interrupted, their results logged).
 * - OpenAI Chat: the generic repair, and arguments text as for Responses.
 *
 * Succeeds with a history that passes `Conversation.validateFor(provider)`,
 * or fails with `CannotRepair` naming the rule no repair exists for. A
 * history that passes already is returned as it is, with no actions. The log
 * is in message order; `index` is the message's index in the input.
 *
 * @example
 * const { messages, actions } = yield* Repair.repairFor("anthropic")(history).pipe(
 *   Effect.catchTag("CannotRepair", (e) => Effect.fail(e.message))
 * )
 * yield* Conversation.validateFor("anthropic")(messages) // succeeds
 *
 * @since 0.1.0
 */
export const repairFor = <P extends Provider>(provider: P, options?: RepairForOptions) =>
(messages: ReadonlyArray<Message.Message>): Effect.Effect<RepairResult, CannotRepair> =>
  // a history the profile accepts is left as it is, with no work: the repairs change only what the profile
  // rejects (Anthropic's read runs of messages as the writer sends them), and this is cheap and sure
  Conversation.validateFor(provider, options)(messages).pipe(
    Effect.as<RepairResult>({ messages, actions: [] }),
    Effect.catch(() => {
      // (a provider's fixes that guessed wrong run again without those guesses, and a third time, should that still
      // prove a guess wrong, with none: at most three linear runs)
      const settled: Settled = { at: new Set(), all: false }
      let fixes = fixesFor(provider, options, messages, settled)
      let repaired = repairWith(messages, options, fixes, Conversation.genericRulesFor(provider))
      for (let run = 1; fixes?.again?.() === true && run < 3; run++) {
        settled.all = run === 2
        fixes = fixesFor(provider, options, messages, settled)
        repaired = repairWith(messages, options, fixes, Conversation.genericRulesFor(provider))
      }
      return Conversation.validateFor(provider, options)(repaired.messages).pipe(
        Effect.as(repaired),
        Effect.catch((issue: Issue) => Effect.fail(new CannotRepair({ provider, issue, reason: whyNot(issue) })))
      )
    })
  )
