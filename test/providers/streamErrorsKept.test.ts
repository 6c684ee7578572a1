/**
 * `{ keepPartial: true }` when the stream had already gone wrong before the
 * transport failed: the provider's error or the protocol violation is
 * returned, as `done()` reports it, and the transport's failure is kept
 * beside it as `transportError` (and named in its message), by the four
 * accumulators' `fromStream` / `fromSseStream` and the four adapters' alike.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import {
  Anthropic,
  AnthropicStream,
  Gemini,
  GeminiStream,
  OpenAiChat,
  OpenAiChatStream,
  OpenAiResponses,
  OpenAiResponsesStream,
  type AnthropicWire,
  type GeminiWire,
  type OpenAiChatWire,
  type OpenAiResponsesWire,
  type StreamError
} from "../../src/providers/index.js"

const boom = new Error("socket hang up")

/** One of the eight functions, given the failing stream, run with `{ keepPartial: true }`. */
type Runner<In> = (stream: Stream.Stream<In, Error>) => Effect.Effect<unknown, { readonly _tag: string }>

/** Events of any shape, read as the wire events of a provider (the cases hold ill-formed ones on purpose). */
const wire = <A>(stream: Stream.Stream<unknown, Error>): Stream.Stream<A, Error> => stream as Stream.Stream<A, Error>

interface Case {
  readonly name: string
  /** the tag `done()` reports for these events */
  readonly tag: "ProviderStreamError" | "StreamProtocolError"
  readonly events: ReadonlyArray<unknown>
}

interface Format {
  readonly provider: string
  readonly fromEvents: (events: ReadonlyArray<unknown>) => Effect.Effect<unknown, StreamError.StreamError>
  readonly fromStream: Runner<unknown>
  readonly fromSseStream: Runner<string>
  readonly adapterFromEvents: (events: ReadonlyArray<unknown>) => Effect.Effect<unknown, { readonly _tag: string }>
  readonly adapterFromStream: Runner<unknown>
  readonly adapterFromSseStream: Runner<string>
  readonly cases: ReadonlyArray<Case>
}

const chatChunk = (delta: unknown, extra: Record<string, unknown> = {}) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1700000000,
  model: "gpt-4o",
  choices: [{ index: 0, delta, finish_reason: null }],
  ...extra
})

const anthropicStart = [
  { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "The answer" } }
]

const responsesStart = [
  { type: "response.created", sequence_number: 0, response: { id: "resp_1", object: "response", created_at: 1700000000, model: "gpt-4o", status: "in_progress", output: [] } },
  { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { type: "message", id: "msg_1", role: "assistant", status: "in_progress", content: [] } },
  { type: "response.content_part.added", sequence_number: 2, item_id: "msg_1", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
  { type: "response.output_text.delta", sequence_number: 3, item_id: "msg_1", output_index: 0, content_index: 0, delta: "The answer" }
]

const geminiChunk = (text: string, extra: Record<string, unknown> = {}) => ({
  candidates: [{ index: 0, content: { role: "model", parts: [{ text }] }, ...extra }],
  modelVersion: "gemini-2.0-flash"
})

const formats: ReadonlyArray<Format> = [
  {
    provider: "openai-chat",
    fromEvents: (events) => OpenAiChatStream.fromEvents(events as ReadonlyArray<OpenAiChatWire.StreamEvent>),
    fromStream: (stream) => OpenAiChatStream.fromStream(wire<OpenAiChatWire.StreamEvent>(stream), { keepPartial: true }),
    fromSseStream: (body) => OpenAiChatStream.fromSseStream(body, { keepPartial: true }),
    adapterFromEvents: (events) => OpenAiChat.fromEvents(events as ReadonlyArray<OpenAiChatWire.StreamEvent>),
    adapterFromStream: (stream) => OpenAiChat.fromStream(wire<OpenAiChatWire.StreamEvent>(stream), { keepPartial: true }),
    adapterFromSseStream: (body) => OpenAiChat.fromSseStream(body, { keepPartial: true }),
    cases: [
      {
        name: "an error chunk",
        tag: "ProviderStreamError",
        events: [chatChunk({ role: "assistant", content: "The answer" }), { error: { message: "The server had an error", type: "server_error" } }]
      },
      { name: "a delta that is not an object", tag: "StreamProtocolError", events: [chatChunk({ role: "assistant", content: "The answer" }), chatChunk("oops")] },
      // found by done() on what arrived: a message whose role is not assistant
      { name: "a message of another role, found at the cut", tag: "StreamProtocolError", events: [chatChunk({ role: "user", content: "The answer" })] }
    ]
  },
  {
    provider: "anthropic-messages",
    fromEvents: (events) => AnthropicStream.fromEvents(events as ReadonlyArray<AnthropicWire.StreamEvent>),
    fromStream: (stream) => AnthropicStream.fromStream(wire<AnthropicWire.StreamEvent>(stream), { keepPartial: true }),
    fromSseStream: (body) => AnthropicStream.fromSseStream(body, { keepPartial: true }),
    adapterFromEvents: (events) => Anthropic.fromEvents(events as ReadonlyArray<AnthropicWire.StreamEvent>),
    adapterFromStream: (stream) => Anthropic.fromStream(wire<AnthropicWire.StreamEvent>(stream), { keepPartial: true }),
    adapterFromSseStream: (body) => Anthropic.fromSseStream(body, { keepPartial: true }),
    cases: [
      { name: "an error event", tag: "ProviderStreamError", events: [...anthropicStart, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }] },
      { name: "a delta for a block never started", tag: "StreamProtocolError", events: [...anthropicStart, { type: "content_block_delta", index: 4, delta: { type: "text_delta", text: "x" } }] }
    ]
  },
  {
    provider: "openai-responses",
    fromEvents: (events) => OpenAiResponsesStream.fromEvents(events as ReadonlyArray<OpenAiResponsesWire.StreamEvent>),
    fromStream: (stream) => OpenAiResponsesStream.fromStream(wire<OpenAiResponsesWire.StreamEvent>(stream), { keepPartial: true }),
    fromSseStream: (body) => OpenAiResponsesStream.fromSseStream(body, { keepPartial: true }),
    adapterFromEvents: (events) => OpenAiResponses.fromEvents(events as ReadonlyArray<OpenAiResponsesWire.StreamEvent>),
    adapterFromStream: (stream) => OpenAiResponses.fromStream(wire<OpenAiResponsesWire.StreamEvent>(stream), { keepPartial: true }),
    adapterFromSseStream: (body) => OpenAiResponses.fromSseStream(body, { keepPartial: true }),
    cases: [
      { name: "an error event", tag: "ProviderStreamError", events: [...responsesStart, { type: "error", sequence_number: 4, code: "server_error", message: "The server had an error", param: null }] },
      {
        name: "a delta for an item never added",
        tag: "StreamProtocolError",
        events: [...responsesStart, { type: "response.output_text.delta", sequence_number: 4, item_id: "msg_9", output_index: 3, content_index: 0, delta: "x" }]
      }
    ]
  },
  {
    provider: "gemini",
    fromEvents: (events) => GeminiStream.fromEvents(events as ReadonlyArray<GeminiWire.StreamEvent>),
    fromStream: (stream) => GeminiStream.fromStream(wire<GeminiWire.StreamEvent>(stream), { keepPartial: true }),
    fromSseStream: (body) => GeminiStream.fromSseStream(body, { keepPartial: true }),
    adapterFromEvents: (events) => Gemini.fromEvents(events as ReadonlyArray<GeminiWire.StreamEvent>),
    adapterFromStream: (stream) => Gemini.fromStream(wire<GeminiWire.StreamEvent>(stream), { keepPartial: true }),
    adapterFromSseStream: (body) => Gemini.fromSseStream(body, { keepPartial: true }),
    cases: [
      { name: "an error chunk", tag: "ProviderStreamError", events: [geminiChunk("The answer"), { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }] },
      { name: "citations that are not a list", tag: "StreamProtocolError", events: [geminiChunk("The answer"), geminiChunk(" is", { citationMetadata: { citations: 5 } })] }
    ]
  }
]

/** The events, then the transport's failure. */
const failingEvents = (events: ReadonlyArray<unknown>): Stream.Stream<unknown, Error> => Stream.fromIterable(events).pipe(Stream.concat(Stream.fail(boom)))

/** The events as SSE text, cut into pieces, then the transport's failure. */
const failingBody = (events: ReadonlyArray<unknown>): Stream.Stream<string, Error> => {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("")
  const pieces = [text.slice(0, Math.floor(text.length / 2)), text.slice(Math.floor(text.length / 2))]
  return Stream.fromIterable(pieces).pipe(Stream.concat(Stream.fail(boom)))
}

/** The error as the same events give it without a transport failure, plus that failure. */
const expectKept = (kept: { readonly _tag: string }, plain: { readonly _tag: string }, tag: string) => {
  expect(kept._tag).toBe(tag)
  expect("transportError" in plain).toBe(false)
  expect({ ...kept }).toEqual({ ...plain, transportError: boom })
  assert(kept instanceof Error && plain instanceof Error)
  expect(kept.message).toBe(`${plain.message} (then the stream failed: socket hang up)`)
}

describe("keepPartial keeps a provider or protocol error, and the transport's failure beside it", () => {
  for (const format of formats) {
    for (const c of format.cases) {
      it.effect(`${format.provider}: ${c.name}, then the transport fails`, () =>
        Effect.gen(function*() {
          const plain = yield* Effect.flip(format.fromEvents(c.events))
          expect(plain._tag).toBe(c.tag)
          expect(plain.partial).toBeDefined()
          expectKept(yield* Effect.flip(format.fromStream(failingEvents(c.events))), plain, c.tag)
          expectKept(yield* Effect.flip(format.fromSseStream(failingBody(c.events))), plain, c.tag)
          // the adapters return the accumulator's error as it is
          const adapterPlain = yield* Effect.flip(format.adapterFromEvents(c.events))
          expectKept(yield* Effect.flip(format.adapterFromStream(failingEvents(c.events))), adapterPlain, c.tag)
          expectKept(yield* Effect.flip(format.adapterFromSseStream(failingBody(c.events))), adapterPlain, c.tag)
        }))
    }
  }

  it.effect("the transport's failure in the message is bounded", () =>
    Effect.gen(function*() {
      const huge = new Error("x".repeat(100_000))
      const events = formats[1]!.cases[0]!.events
      const error = yield* Effect.flip(
        AnthropicStream.fromStream(wire<AnthropicWire.StreamEvent>(Stream.fromIterable(events).pipe(Stream.concat(Stream.fail(huge)))), { keepPartial: true })
      )
      assert(error._tag === "ProviderStreamError")
      expect(error.transportError).toBe(huge)
      expect(error.message.length).toBeLessThan(400)
    }))

  it.effect("a stream cut short is still an IncompleteStream with the failure first; without keepPartial the failure is returned", () =>
    Effect.gen(function*() {
      const cut = yield* Effect.flip(AnthropicStream.fromStream(wire<AnthropicWire.StreamEvent>(failingEvents(anthropicStart)), { keepPartial: true }))
      assert(cut._tag === "IncompleteStream")
      expect(cut.cut[0]).toBe("the stream failed: socket hang up")
      expect(cut.transportError).toBe(boom)
      const unkept = yield* Effect.flip(AnthropicStream.fromStream(wire<AnthropicWire.StreamEvent>(failingEvents(formats[1]!.cases[0]!.events))))
      expect(unkept).toBe(boom)
    }))
})
