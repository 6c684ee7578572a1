/**
 * The tagged errors of stream accumulation.
 *
 * A stream accumulator never throws: what goes wrong while events arrive is
 * recorded, and `done()` reports it as one of these values:
 *
 * - `ProviderStreamError`: the provider itself sent an error (an `error`
 *   event, a failed response).
 * - `StreamProtocolError`: an event contradicts the provider's protocol (a
 *   delta for a block that was never started, a `data` line that is not
 *   JSON, tool input that is not JSON).
 * - `IncompleteStream`: the stream stopped before its end (no finish
 *   reason, no `message_stop`, no terminal response event, a content block
 *   left open, with how much of a call's arguments JSON arrived). A stream
 *   the provider ended itself is whole, even when a token limit cut a call's
 *   arguments mid-JSON: those are read as in the non-streamed response.
 *
 * Each one carries what was received so far (`partial`), so nothing the
 * provider sent is lost even when the stream fails. With `{ keepPartial:
 * true }` on `fromStream` / `fromSseStream`, each also carries the failure
 * of the stream you passed in as `transportError`, when it had one: an
 * `IncompleteStream` for a stream cut short, or the provider's error or the
 * protocol violation that came before the failure, which says more.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { errorText } from "../internal/json.js"
import { joinedMessageText, messageText } from "../internal/preview.js"

/**
 * The wire formats that have a stream accumulator, named as in the rest of
 * the library: `"openai-chat"` (Chat Completions), `"anthropic-messages"`,
 * `"openai-responses"` and `"gemini"` (`streamGenerateContent`).
 *
 * @example
 * const error = new StreamError.IncompleteStream({ provider: "anthropic-messages", cut: ["no message_stop event"], events: 12, partial: undefined })
 * error.message // "anthropic-messages stream is incomplete after 12 events: no message_stop event"
 *
 * @since 0.1.0
 */
export const Provider = Schema.Literals(["openai-chat", "anthropic-messages", "openai-responses", "gemini"])

/**
 * A wire format with a stream accumulator: `"openai-chat"`,
 * `"anthropic-messages"`, `"openai-responses"` or `"gemini"`.
 *
 * @since 0.1.0
 */
export type Provider = typeof Provider.Type

/** The failure of the stream passed in, for the end of a message: bounded, as a `cut` entry is. */
const thenFailed = (transportError: unknown): string => ` (then the stream failed: ${messageText(errorText(transportError), 200)})`

/**
 * The stream ended before the provider said it was over.
 *
 * `cut` lists, one readable sentence each, what is missing or unfinished
 * (e.g. `"no message_stop event"`, `"content block 1 (tool_use make_file)
 * was never stopped; its input JSON is cut after 187 characters"`).
 * `partial` is the response assembled from what did arrive, in the
 * provider's own response shape (`undefined` if nothing arrived). `events`
 * counts the events received. `transportError` is set when the stream you
 * passed in failed (the network dropped) and you asked `fromStream` or
 * `fromSseStream` to keep what arrived (`{ keepPartial: true }`): it is that
 * failure as it came, and `cut` begins with it, as text.
 *
 * @example
 * const cut = [{ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1700000000, model: "gpt-4o", choices: [{ index: 0, delta: { content: "Hel" } }] }] as const
 * const completion = yield* OpenAiChatStream.fromEvents(cut).pipe(
 *   // keep what arrived
 *   Effect.catchTag("IncompleteStream", (e) => Effect.succeed(e.partial as OpenAiChatWire.ChatCompletion | undefined))
 * )
 *
 * @since 0.1.0
 */
export class IncompleteStream extends Schema.TaggedError<IncompleteStream>()("IncompleteStream", {
  provider: Provider,
  cut: Schema.Array(Schema.String),
  events: Schema.Number,
  partial: Schema.Unknown,
  transportError: Schema.optionalKey(Schema.Unknown)
}) {
  override get message(): string {
    return `${this.provider} stream is incomplete after ${this.events} event${this.events === 1 ? "" : "s"}: ${joinedMessageText(this.cut, "; ", 1_000)}`
  }
}

/**
 * An event contradicts the provider's streaming protocol.
 *
 * `eventIndex` is the position of the offending event in the stream
 * (0-based), `reason` says what is wrong, `event` is the event itself (or
 * the raw `data` text when it was not JSON). `more` counts further
 * violations after this first one. `partial` is the response assembled so
 * far. `provider` is `"sse"` when the framing itself is at fault.
 * `transportError` is set when the stream you passed in failed after the
 * violation and you asked `fromStream` or `fromSseStream` to keep what
 * arrived (`{ keepPartial: true }`): the violation is reported, and that
 * failure is kept beside it, as it came (the message names it, as text).
 *
 * @example
 * const error = yield* Effect.flip(OpenAiChatStream.fromSse("data: {not json\n\n"))
 * error._tag // "StreamProtocolError"
 *
 * @since 0.1.0
 */
export class StreamProtocolError extends Schema.TaggedError<StreamProtocolError>()("StreamProtocolError", {
  provider: Schema.String,
  reason: Schema.String,
  eventIndex: Schema.optionalKey(Schema.Number),
  event: Schema.optionalKey(Schema.Unknown),
  more: Schema.optionalKey(Schema.Number),
  partial: Schema.optionalKey(Schema.Unknown),
  transportError: Schema.optionalKey(Schema.Unknown)
}) {
  override get message(): string {
    const at = this.eventIndex === undefined ? "" : ` at event ${this.eventIndex}`
    const more = this.more === undefined || this.more === 0 ? "" : ` (and ${this.more} more violation${this.more === 1 ? "" : "s"})`
    const failed = "transportError" in this ? thenFailed(this.transportError) : ""
    return `${this.provider} stream protocol error${at}: ${messageText(this.reason, 1_000)}${more}${failed}`
  }
}

/**
 * The provider sent an error in the stream (an SSE `error` event, an
 * OpenAI Responses `error` or `response.failed` event, a Gemini chunk with
 * an `error` object).
 *
 * `errorType` is the provider's error type or code (`"overloaded_error"`,
 * `"server_error"`, `"UNAVAILABLE"`), `errorMessage` its message, `error`
 * the error payload as sent. `partial` is the response assembled so far;
 * for `response.failed` it is the failed response itself.
 * `transportError` is set when the stream you passed in failed after the
 * provider's error and you asked `fromStream` or `fromSseStream` to keep
 * what arrived (`{ keepPartial: true }`): the provider's error is reported,
 * and that failure is kept beside it, as it came (the message names it, as
 * text).
 *
 * @example
 * const error = yield* Effect.flip(AnthropicStream.fromEvents([{ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }]))
 * if (error._tag === "ProviderStreamError") error.errorType // "overloaded_error": retry later
 *
 * @since 0.1.0
 */
export class ProviderStreamError extends Schema.TaggedError<ProviderStreamError>()("ProviderStreamError", {
  provider: Provider,
  errorType: Schema.String,
  errorMessage: Schema.String,
  code: Schema.optionalKey(Schema.String),
  error: Schema.optionalKey(Schema.Unknown),
  partial: Schema.optionalKey(Schema.Unknown),
  transportError: Schema.optionalKey(Schema.Unknown)
}) {
  override get message(): string {
    const failed = "transportError" in this ? thenFailed(this.transportError) : ""
    return `${this.provider} sent an error: ${messageText(this.errorType)}${this.errorMessage === "" ? "" : `: ${messageText(this.errorMessage, 1_000)}`}${failed}`
  }
}

/**
 * Every way `done()` can fail.
 *
 * @since 0.1.0
 */
export type StreamError = IncompleteStream | StreamProtocolError | ProviderStreamError
