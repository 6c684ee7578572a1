/**
 * What every provider adapter shares: the result of a conversion (the value
 * and the warnings of what the target could not carry), the warnings
 * themselves, the errors of strict conversion, and the options that choose
 * between lenient and strict.
 *
 * An adapter never drops anything silently: what a target format cannot
 * express becomes a typed `ConversionWarning` in the result, or, when the
 * caller asks for `strict` conversion, a tagged `UnsupportedContent` failure.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Block from "../Block.js"
import * as Message from "../Message.js"
import { show } from "./internal/core.js"
import { joinedMessageText, messageText, quote } from "../internal/preview.js"
import { MAX_REPAIRED_ARGS } from "../internal/toolArgs.js"

const Index = Schema.optionalKey(Schema.Number)

/**
 * A field given by the user, cut for a message and with no lone surrogate: a 10 MB tool name or key is no message
 * (the field keeps it whole).
 */
const clip = (text: string, max = 500): string => messageText(text, max)

const at = (index: number | undefined, blockIndex?: number): string =>
  index === undefined ? "" : `messages[${index}]${blockIndex === undefined ? "" : `.content[${blockIndex}]`}: `

/**
 * Tool-argument text that was not valid JSON (or not a JSON object where the
 * format requires one) was repaired by the lenient parser; `rawArgs` keeps
 * the provider's text and `reason` the parse error. Text over 32,768
 * characters is not repaired (the arguments are `{}`), and the message says
 * so. `index` and `blockIndex`
 * are the call's message and its block there, as read (two calls that share
 * an id are each named by their own block).
 *
 * @example
 * const { warnings } = yield* OpenAiChat.fromMessages([
 *   { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: "{'q': 'effect'}" } }] }
 * ])
 * warnings[0]?._tag // "RepairedToolArguments": single quotes were repaired, the text is kept in rawArgs
 *
 * @since 0.1.0
 */
export class RepairedToolArguments extends Schema.TaggedClass<RepairedToolArguments>()("RepairedToolArguments", {
  index: Index,
  blockIndex: Index,
  toolCallId: Schema.String,
  toolName: Schema.String,
  rawArgs: Schema.String,
  reason: Schema.String
}) {
  get message(): string {
    return `${at(this.index, this.blockIndex)}the arguments of tool call ${quote(this.toolCallId)} (${clip(this.toolName, 80)}) were not a valid JSON object (${clip(this.reason)}); ${
      this.rawArgs.length > MAX_REPAIRED_ARGS ? "too long to repair: the arguments are {}" : "repaired"
    }, the original text is kept`
  }
}

/**
 * Something the target format cannot express was left out: `what` names it
 * (e.g. "thinking", "a PDF document", "a provider-executed tool call") and
 * `reason` says why.
 *
 * @example
 * const { warnings } = yield* OpenAiChat.toMessages([Message.user("hi"), Message.assistant([Block.thinking("Greet back."), Block.text("Hello!")])])
 * warnings[0]?._tag // "DroppedContent": Chat Completions has no place for thinking
 * warnings[0]?.message
 * // 'messages[1].content[0]: thinking was left out: Chat Completions has no reasoning content
 * //  (reasoning: "reasoning_content" sends it the DeepSeek way)'
 *
 * @since 0.1.0
 */
export class DroppedContent extends Schema.TaggedClass<DroppedContent>()("DroppedContent", {
  index: Index,
  blockIndex: Index,
  what: Schema.String,
  reason: Schema.String
}) {
  get message(): string {
    return `${at(this.index, this.blockIndex)}${clip(this.what)} was left out: ${clip(this.reason)}`
  }
}

/**
 * Something was carried in another shape than it had (e.g. a structured tool
 * result sent as JSON text, a file as a text placeholder): nothing is lost
 * from the conversation, but a round trip will not give the same shape back.
 *
 * @example
 * const { warnings } = yield* OpenAiChat.toMessages([
 *   Message.user("Weather?"),
 *   Message.assistantMessage("", [{ id: "c1", name: "weather" }]),
 *   Message.tool(Block.toolResult("c1", "weather", [Block.json({ celsius: 12 })]))
 * ])
 * warnings.map((w) => w._tag) // ["ConvertedContent"]: the JSON result was sent as text
 *
 * @since 0.1.0
 */
export class ConvertedContent extends Schema.TaggedClass<ConvertedContent>()("ConvertedContent", {
  index: Index,
  blockIndex: Index,
  what: Schema.String,
  how: Schema.String
}) {
  get message(): string {
    return `${at(this.index, this.blockIndex)}${clip(this.what)} was sent ${clip(this.how)}`
  }
}

/**
 * A provider field the model has no place for was met and kept (in
 * `providerOptions` or a `ProviderDataBlock`) or ignored; `path` locates it in
 * the provider payload.
 *
 * @example
 * const warning = new Conversion.UnknownProviderField({ path: "choices[0].message.audio_meta", kept: true })
 * warning.message // "unknown provider field choices[0].message.audio_meta was kept as provider data"
 *
 * @since 0.1.0
 */
export class UnknownProviderField extends Schema.TaggedClass<UnknownProviderField>()("UnknownProviderField", {
  path: Schema.String,
  kept: Schema.Boolean
}) {
  get message(): string {
    return `unknown provider field ${clip(this.path)} was ${this.kept ? "kept as provider data" : "ignored"}`
  }
}

/**
 * A tool name the target format does not accept was written as it is, in a
 * tool definition or a tool call. Each format has its
 * own rule (Chat Completions and Responses: 1 to 64 letters, digits, `_` and
 * `-`; Anthropic: 1 to 128 of those; Gemini: 1 to 128 letters, digits, `_`,
 * `.`, `:` and `-`, starting with a letter or `_`), and the provider answers
 * a request that breaks it with HTTP 400. The name is not changed, since the
 * model's calls come back under the name it was given: rename the tool
 * before converting. `rule` says what the target takes. Reported once per
 * name and conversion, where the name is first written (`index` and
 * `blockIndex` are absent for a tool definition).
 *
 * @example
 * const request = Request.make([Message.user("Read the README.")], { tools: [Request.tool("files.read")] })
 * const { warnings } = yield* Anthropic.toRequest(request, { maxTokens: 1024 })
 * warnings[0]?._tag // "RejectedToolName"
 * warnings[0]?.message
 * // 'the tool name "files.read" was written as it is, but Anthropic takes 1 to 128 letters, digits, _ and -:
 * //  the provider rejects the request until the tool is renamed'
 *
 * @since 0.1.0
 */
export class RejectedToolName extends Schema.TaggedClass<RejectedToolName>()("RejectedToolName", {
  index: Index,
  blockIndex: Index,
  name: Schema.String,
  rule: Schema.String
}) {
  get message(): string {
    return `${at(this.index, this.blockIndex)}the tool name ${quote(this.name)} was written as it is, but ${this.rule}: the provider rejects the request until the tool is renamed`
  }
}

/**
 * A field the target format requires was not written, because the request
 * had nothing to write there (`path` names it, `reason` says why it is
 * required and how to supply it): the provider rejects the body as it is.
 * Anthropic's `max_tokens` is one: it comes from the request's
 * `maxOutputTokens`, else from the `maxTokens` option of
 * `Anthropic.toRequest`; no default is made up.
 *
 * @example
 * const { warnings } = yield* Anthropic.toRequest(Request.make([Message.user("hi")], { model: "claude-sonnet-4-5" }))
 * warnings[0]?._tag // "MissingRequiredField"
 * warnings[0]?.message
 * // "the required field max_tokens was not written: the Messages API rejects a request without it;
 * //  set the request's maxOutputTokens or the maxTokens option"
 *
 * @since 0.1.0
 */
export class MissingRequiredField extends Schema.TaggedClass<MissingRequiredField>()("MissingRequiredField", {
  path: Schema.String,
  reason: Schema.String
}) {
  get message(): string {
    return `the required field ${clip(this.path)} was not written: ${clip(this.reason)}`
  }
}

/**
 * A request setting the target format rejects, alone or beside another, was
 * written as it is: `path` names it, `value` is what it holds, and `rule`
 * says what the provider takes. The provider answers the request with HTTP
 * 400. A setting is the caller's choice, and which of two conflicting
 * settings should give way is theirs too, so the writer changes neither:
 * change one before sending. Anthropic's extended thinking is where these
 * meet: a forced tool choice, a `temperature` other than 1, any `top_k`, a
 * `top_p` outside 0.95 to 1, a `max_tokens` not above
 * `thinking.budget_tokens`, and a budget under 1024.
 *
 * @example
 * const request = Request.make([Message.user("Weather in Oslo?")], {
 *   model: "claude-sonnet-4-5",
 *   maxOutputTokens: 4096,
 *   providerOptions: { anthropic: { thinking: { type: "enabled", budget_tokens: 2048 }, temperature: 0.2 } }
 * })
 * const { warnings } = yield* Anthropic.toRequest(request)
 * warnings[0]?._tag // "RejectedSetting"
 * warnings[0]?.message
 * // 'temperature 0.2 was written as it is, but Anthropic takes only temperature 1 with extended thinking on,
 * //  so the provider rejects the request'
 *
 * @since 0.1.0
 */
export class RejectedSetting extends Schema.TaggedClass<RejectedSetting>()("RejectedSetting", {
  path: Schema.String,
  value: Schema.Json,
  rule: Schema.String
}) {
  get message(): string {
    return `${clip(this.path)} ${show(this.value)} was written as it is, but ${this.rule}, so the provider rejects the request`
  }
}

/**
 * Every warning a conversion can report.
 *
 * @example
 * const { value, warnings } = yield* Anthropic.toMessages(messages)
 * for (const warning of warnings) {
 *   switch (warning._tag) {
 *     case "DroppedContent":
 *     case "RejectedToolName":
 *     case "RejectedSetting":
 *     case "MissingRequiredField": yield* Effect.logWarning(warning.message); break
 *     case "RepairedToolArguments":
 *     case "ConvertedContent":
 *     case "UnknownProviderField": yield* Effect.logDebug(warning.message); break
 *   }
 * }
 *
 * @since 0.1.0
 */
export const ConversionWarning = Schema.Union([
  RepairedToolArguments,
  DroppedContent,
  ConvertedContent,
  UnknownProviderField,
  RejectedToolName,
  MissingRequiredField,
  RejectedSetting
])

/**
 * Any conversion warning, discriminated by `_tag`.
 *
 * @since 0.1.0
 */
export type ConversionWarning = typeof ConversionWarning.Type

/**
 * The result of a conversion: the converted value and what could not be
 * carried exactly.
 *
 * @since 0.1.0
 */
export interface Converted<A> {
  readonly value: A
  readonly warnings: ReadonlyArray<ConversionWarning>
}

/**
 * Strict conversion met something the target format cannot express (the
 * warning it would otherwise have reported is `warning`).
 *
 * @example
 * const error = yield* Effect.flip(
 *   OpenAiChat.toMessages([Message.user("hi"), Message.assistant([Block.thinking("Greet back."), Block.text("Hello!")])], { strict: true })
 * )
 * error._tag // "UnsupportedContent"
 * error.warning._tag // "DroppedContent"
 *
 * @since 0.1.0
 */
export class UnsupportedContent extends Schema.TaggedError<UnsupportedContent>()("UnsupportedContent", {
  provider: Schema.String,
  warning: ConversionWarning
}) {
  override get message(): string {
    return `cannot convert for ${this.provider} in strict mode: ${this.warning.message}`
  }
}

/**
 * Tool-argument text that is not valid JSON, or not a JSON object where the
 * format requires one, in strict mode: `rawArgs` is the provider's text and
 * `reason` the parse error; `index` and `blockIndex` are the call's message
 * and its block there, as read.
 *
 * @example
 * const error = yield* Effect.flip(OpenAiChat.fromMessages(
 *   [{ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: '{"q": "eff' } }] }],
 *   { toolArguments: "strict" }
 * ))
 * if (error._tag === "InvalidToolArguments") error.rawArgs // '{"q": "eff'
 *
 * @since 0.1.0
 */
export class InvalidToolArguments extends Schema.TaggedError<InvalidToolArguments>()("InvalidToolArguments", {
  index: Index,
  blockIndex: Index,
  toolCallId: Schema.String,
  toolName: Schema.String,
  rawArgs: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${at(this.index, this.blockIndex)}the arguments of tool call ${quote(this.toolCallId)} (${clip(this.toolName, 80)}) are not valid: ${clip(this.reason)}`
  }
}

/**
 * A provider payload that is not what the format looks like (a missing
 * field, a wrong type): `path` locates it, `reason` says what is wrong.
 *
 * @example
 * const error = yield* Effect.flip(Anthropic.fromMessages({ messages: [{ role: "user" }] }))
 * error._tag // "MalformedPayload"
 * error.message // "not a valid anthropic payload at messages[0].content: expected a string or an array, got nothing"
 *
 * @since 0.1.0
 */
export class MalformedPayload extends Schema.TaggedError<MalformedPayload>()("MalformedPayload", {
  provider: Schema.String,
  path: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `not a valid ${this.provider} payload at ${this.path === "" ? "(root)" : clip(this.path)}: ${clip(this.reason)}`
  }
}

/**
 * Options every adapter takes.
 *
 * - `strict`: fail with `UnsupportedContent` instead of reporting a warning
 *   when the target cannot express something, or would reject what is
 *   written (`RejectedToolName`, `MissingRequiredField`, `RejectedSetting`)
 *   (default `false`).
 * - `toolArguments`: `"lenient"` (default) repairs argument text that is not
 *   valid JSON with a JSON-repair library and reports
 *   `RepairedToolArguments`; `"strict"` fails with `InvalidToolArguments`.
 *   Either way the provider's text is kept in `rawArgs`.
 *
 * @since 0.1.0
 */
export interface ConversionOptions {
  readonly strict?: boolean
  readonly toolArguments?: "lenient" | "strict"
}

/**
 * Why a model stopped, in one vocabulary for every provider:
 *
 * - `stop`: it finished (Chat `stop`, Anthropic `end_turn` / `stop_sequence`);
 * - `length`: it hit the output limit or the context window;
 * - `tool-calls`: it stopped to have tools called;
 * - `content-filter`: a provider filter cut the answer;
 * - `refusal`: the model refused (Anthropic `refusal`);
 * - `pause`: a long server-tool turn was paused and may be continued
 *   (Anthropic `pause_turn`);
 * - `other`: a reason this library does not know (the provider's own
 *   value is kept beside it);
 * - `unknown`: the provider gave none (an unfinished stream).
 *
 * @example
 * const next = (reason: Conversion.FinishReason): string => {
 *   switch (reason) {
 *     case "tool-calls": return "run the tools"
 *     case "length": return "continue or trim"
 *     case "pause": return "send the turn back to continue"
 *     default: return "done"
 *   }
 * }
 *
 * @since 0.1.0
 */
export const FinishReason = Schema.Literals(["stop", "length", "tool-calls", "content-filter", "refusal", "pause", "other", "unknown"])

/**
 * Why a model stopped: `"stop"`, `"length"`, `"tool-calls"`,
 * `"content-filter"`, `"refusal"`, `"pause"`, `"other"` or `"unknown"`.
 *
 * @since 0.1.0
 */
export type FinishReason = typeof FinishReason.Type

/**
 * A provider response in the model: the assistant message it holds (with
 * its `usage`), why the model stopped (normalized, and as the provider said
 * it), the response id and model, and the response's other fields as sent
 * (`providerData`: Chat `system_fingerprint`, `service_tier`, `logprobs`;
 * Anthropic `stop_sequence`, `stop_details`, `container`, the raw `usage`).
 *
 * @example
 * const { value } = yield* OpenAiChat.fromResponse({
 *   id: "chatcmpl-1", object: "chat.completion", created: 1700000000, model: "gpt-4o",
 *   choices: [{ index: 0, message: { role: "assistant", content: "Hello!", refusal: null }, finish_reason: "stop", logprobs: null }],
 *   system_fingerprint: "fp_1"
 * })
 * value.id // "chatcmpl-1"
 * value.providerFinishReason // "stop"
 * value.providerData
 * // { object: "chat.completion", created: 1700000000, system_fingerprint: "fp_1", choice: { logprobs: null } }
 *
 * @since 0.1.0
 */
export class DecodedResponse extends Schema.Class<DecodedResponse>("DecodedResponse")({
  id: Schema.String,
  model: Schema.String,
  message: Message.AssistantMessage,
  finishReason: FinishReason,
  providerFinishReason: Schema.NullOr(Schema.String),
  usage: Schema.optionalKey(Message.Usage),
  providerData: Schema.optionalKey(Block.JsonObject)
}) {}

/**
 * A stream ended before the provider said it was over. `cut` says what is
 * missing or unfinished, one sentence each (from the stream accumulator);
 * `partial` is the response decoded from what did arrive (its tool calls'
 * cut argument text repaired leniently and kept in `rawArgs`), absent when
 * nothing arrived; `warnings` are those of decoding the partial response.
 * `transportError` is the failure of the stream you passed in, when you
 * asked `fromStream` or `fromSseStream` to keep what arrived before it
 * (`{ keepPartial: true }`); `cut` then begins with it, as text.
 *
 * @example
 * const cut = [{ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1700000000, model: "gpt-4o", choices: [{ index: 0, delta: { role: "assistant", content: "The answer is" } }] }] as const
 * const error = yield* Effect.flip(OpenAiChat.fromEvents(cut))
 * if (error._tag === "IncompleteResponse") {
 *   error.cut // ["choice 0 has no finish_reason"]
 *   error.partial?.message // the assistant message so far: "The answer is"
 * }
 *
 * @since 0.1.0
 */
export class IncompleteResponse extends Schema.TaggedError<IncompleteResponse>()("IncompleteResponse", {
  provider: Schema.String,
  cut: Schema.Array(Schema.String),
  events: Schema.Number,
  partial: Schema.optionalKey(DecodedResponse),
  warnings: Schema.Array(ConversionWarning),
  transportError: Schema.optionalKey(Schema.Unknown)
}) {
  override get message(): string {
    return `${this.provider} stream ended early after ${this.events} event${this.events === 1 ? "" : "s"}: ${joinedMessageText(this.cut, "; ", 1_000)}`
  }
}
