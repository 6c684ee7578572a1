/**
 * What every stream accumulator offers, whatever the provider: the
 * interface, and the Effect helpers that drive one from an Effect `Stream`,
 * from an iterable of events, or from SSE text.
 *
 * An accumulator turns a provider's stream events back into the response the
 * provider would have sent without streaming, in the provider's own shape
 * (`ChatCompletion`, Anthropic `Message`, Responses `Response`, Gemini
 * `GenerateContentResponse`). Converting that response into the library's
 * message model is the job of the provider's (non-streaming) decoder.
 *
 * An accumulator is mutable inside and opaque outside: you push events in,
 * read `snapshot()` whenever you like, and call `done()` when the transport
 * ends. Pushing never throws; what goes wrong is reported by `done()` as a
 * tagged error (`StreamError`).
 *
 * @example
 * import { Effect, Stream } from "effect"
 * import { OpenAiChatStream, type OpenAiChatWire } from "effect-agent-messages/providers"
 *
 * declare const chunks: Stream.Stream<OpenAiChatWire.ChatCompletionChunk, Error>
 *
 * const completion = OpenAiChatStream.fromStream(chunks).pipe(
 *   Effect.catchTags({
 *     IncompleteStream: (e) => Effect.logWarning(e.message).pipe(Effect.as(e.partial)),
 *     ProviderStreamError: (e) => Effect.fail(e)
 *   })
 * )
 *
 * @since 0.1.0
 */
import { Effect, Result, Stream } from "effect"
import { errorText } from "../internal/json.js"
import { messageText } from "../internal/preview.js"
import { IncompleteStream, ProviderStreamError, type Provider, type StreamError, StreamProtocolError } from "./StreamError.js"

/**
 * A stream accumulator for one provider's events and response.
 *
 * - `push(event)`: applies one decoded event (the JSON payload of one SSE
 *   `data` line, or an SDK's event object).
 * - `pushData(text)`: parses one SSE `data` payload and applies it (`[DONE]`
 *   is understood; text that is not JSON is a protocol violation).
 * - `feed(chunk)`: raw SSE text or bytes, split anywhere.
 * - `snapshot()`: a copy of the response assembled so far, `undefined`
 *   before the first event that starts a response. Costs time linear in the
 *   response size: call it when you need it, not per event of a long stream.
 * - `done()`: ends the stream (flushing anything `feed` left open) and
 *   returns the final response, or the first problem: a
 *   `ProviderStreamError`, else a `StreamProtocolError`, else an
 *   `IncompleteStream`. Each carries the partial response.
 * - `events`: how many events were applied.
 *
 * @since 0.1.0
 */
export interface StreamAccumulator<in Event, out Response> {
  readonly provider: Provider
  readonly push: (event: Event) => void
  readonly pushData: (data: string) => void
  readonly feed: (chunk: string | Uint8Array) => void
  readonly snapshot: () => Response | undefined
  readonly done: () => Result.Result<Response, StreamError>
  readonly events: () => number
}

/**
 * What `fromStream` and `fromSseStream` do when the stream you pass in fails
 * (the network dropped mid-response):
 *
 * - by default, they fail with that error, unchanged, so that a retry or a
 *   `catchTag` on it keeps working (what arrived before it is not kept);
 * - with `keepPartial: true`, the stream counts as ended where it failed:
 *   they fail with `IncompleteStream`, whose `partial` holds everything that
 *   arrived, whose `transportError` is the stream's error as it came, and
 *   whose `cut` begins with that error as text. A response the provider had
 *   already ended (its terminal event arrived before the failure) is whole
 *   and is returned; a provider or protocol error (one the stream sent
 *   before the failure, or one `done()` finds in what arrived) is reported
 *   as `done()` reports it, with the stream's error as its
 *   `transportError` too, so that neither is lost.
 *
 * @example
 * import { Effect, Stream } from "effect"
 * import { OpenAiChatStream, type OpenAiChatWire } from "effect-agent-messages/providers"
 *
 * declare const chunks: Stream.Stream<OpenAiChatWire.ChatCompletionChunk, Error>
 *
 * // the error type holds no Error: a transport failure is an IncompleteStream with what arrived
 * const completion = OpenAiChatStream.fromStream(chunks, { keepPartial: true }).pipe(
 *   Effect.catchTag("IncompleteStream", (e) => Effect.succeed(e.partial as OpenAiChatWire.ChatCompletion | undefined))
 * )
 *
 * @since 0.1.0
 */
export interface StreamOptions {
  readonly keepPartial?: boolean | undefined
}

/**
 * `StreamOptions` that keep what arrived when the stream passed in fails:
 * the stream's own error type then leaves the result's error type.
 *
 * @since 0.1.0
 */
export interface KeepPartial extends StreamOptions {
  readonly keepPartial: true
}

/**
 * The Effect helpers of a provider module, built from its `make`.
 *
 * @since 0.1.0
 */
export interface Runners<Event, Response> {
  /**
   * Accumulates an Effect `Stream` of events; fails with the stream's own
   * error or a `StreamError`. With `{ keepPartial: true }`, a failure of the
   * stream is an `IncompleteStream` carrying what arrived (`StreamOptions`).
   */
  readonly fromStream: {
    <E, R>(events: Stream.Stream<Event, E, R>, options: KeepPartial): Effect.Effect<Response, StreamError, R>
    <E, R>(events: Stream.Stream<Event, E, R>, options?: StreamOptions): Effect.Effect<Response, E | StreamError, R>
  }
  /**
   * Accumulates an Effect `Stream` of raw SSE text or bytes (an HTTP body),
   * with the same `StreamOptions`.
   */
  readonly fromSseStream: {
    <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options: KeepPartial): Effect.Effect<Response, StreamError, R>
    <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options?: StreamOptions): Effect.Effect<Response, E | StreamError, R>
  }
  /** Accumulates an iterable of events. */
  readonly fromEvents: (events: Iterable<Event>) => Effect.Effect<Response, StreamError>
  /** Accumulates a whole SSE text, or its pieces. */
  readonly fromSse: (input: string | Iterable<string | Uint8Array>) => Effect.Effect<Response, StreamError>
}

/**
 * Builds the Effect helpers over an accumulator constructor. Each run makes
 * a fresh accumulator when the Effect runs, not when it is built.
 *
 * @example
 * import { Effect, Result } from "effect"
 * import { StreamAccumulator } from "effect-agent-messages/providers"
 *
 * // the Effect helpers over an accumulator of your own: here one that only counts events
 * const counting = (): StreamAccumulator.StreamAccumulator<unknown, number> => {
 *   let n = 0
 *   return {
 *     provider: "openai-chat",
 *     push: () => { n++ },
 *     pushData: () => { n++ },
 *     feed: () => {},
 *     snapshot: () => n,
 *     done: () => Result.succeed(n),
 *     events: () => n
 *   }
 * }
 * const { fromEvents } = StreamAccumulator.runners(counting)
 * Effect.runSync(fromEvents(["a", "b"])) // 2
 *
 * @since 0.1.0
 */
export const runners = <Event, Response>(make: () => StreamAccumulator<Event, Response>): Runners<Event, Response> => ({
  fromStream: <E, R>(events: Stream.Stream<Event, E, R>, options?: StreamOptions) => accumulate(make, events, (acc, e) => acc.push(e), options),
  fromSseStream: <E, R>(body: Stream.Stream<string | Uint8Array, E, R>, options?: StreamOptions) => accumulate(make, body, (acc, c) => acc.feed(c), options),
  fromEvents: (events) =>
    Effect.suspend(() => {
      const acc = make()
      const unreadable = drain(acc, () => {
        for (const event of events) acc.push(event)
      })
      return unreadable === undefined ? Effect.fromResult(acc.done()) : Effect.fail(unreadable)
    }),
  fromSse: (input) =>
    Effect.suspend(() => {
      const acc = make()
      const unreadable = drain(acc, () => {
        if (typeof input === "string") acc.feed(input)
        else for (const piece of input) acc.feed(piece)
      })
      return unreadable === undefined ? Effect.fromResult(acc.done()) : Effect.fail(unreadable)
    })
})

/**
 * Runs an Effect `Stream` into a fresh accumulator and ends it; a failure of that stream is passed through, or, with
 * `keepPartial`, ends the stream where it failed (`StreamOptions`).
 */
const accumulate = <Event, Response, A, E, R>(
  make: () => StreamAccumulator<Event, Response>,
  stream: Stream.Stream<A, E, R>,
  put: (acc: StreamAccumulator<Event, Response>, a: A) => void,
  options: StreamOptions | undefined
): Effect.Effect<Response, E | StreamError, R> =>
  Effect.suspend(() => {
    const acc = make()
    const loop = Stream.runForEachArray(stream, (batch) =>
      Effect.sync(() => {
        for (let i = 0; i < batch.length; i++) put(acc, batch[i]!)
      })
    )
    const done = () => Effect.fromResult(acc.done())
    return options?.keepPartial === true
      ? Effect.matchEffect(loop, { onFailure: (cause) => Effect.fromResult(cutByTransport(acc.done(), cause)), onSuccess: done })
      : Effect.flatMap(loop, done)
  })

/**
 * What `done()` gave, for a stream whose transport failed, with the failure kept: a stream left incomplete says it
 * first; a provider's error or a protocol violation, which says more, stays the error and carries it beside.
 */
const cutByTransport = <Response>(result: Result.Result<Response, StreamError>, cause: unknown): Result.Result<Response, StreamError> => {
  if (result._tag === "Success") return result
  const e = result.failure
  switch (e._tag) {
    case "IncompleteStream":
      return Result.fail(
        new IncompleteStream({
          provider: e.provider,
          cut: [`the stream failed: ${messageText(errorText(cause), 200)}`, ...e.cut],
          events: e.events,
          partial: e.partial,
          transportError: cause
        })
      )
    case "ProviderStreamError":
      return Result.fail(new ProviderStreamError({ ...fieldsOf(e), transportError: cause }))
    case "StreamProtocolError":
      return Result.fail(new StreamProtocolError({ ...fieldsOf(e), transportError: cause }))
  }
}

/** An error's own fields, to make it again with one more (its `_tag` is set by the constructor). */
const fieldsOf = <A extends { readonly _tag: string }>(error: A): Omit<A, "_tag"> => {
  const { _tag, ...fields } = { ...error }
  return fields as Omit<A, "_tag">
}

/**
 * Runs a loop over the caller's iterable; an iterable that throws (a proxy,
 * a generator that fails) is a protocol error, not a defect.
 */
const drain = (acc: StreamAccumulator<never, unknown>, loop: () => void): StreamProtocolError | undefined => {
  try {
    loop()
    return undefined
  } catch (cause) {
    return new StreamProtocolError({ provider: acc.provider, eventIndex: acc.events(), reason: `the events could not be read: ${errorText(cause)}` })
  }
}
