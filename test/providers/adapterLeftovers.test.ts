/**
 * Adapter items left open by earlier reviews, each settled here: a Responses
 * assistant message whose every block is left out, a streamed Responses item
 * without an id, Gemini requests ending on a model turn, Gemini grounding
 * chunks across stream chunks, and what a transport failure mid-stream keeps.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { Block, Conversation, Message } from "../../src/index.js"
import {
  Gemini,
  GeminiStream,
  type GeminiWire,
  OpenAiChat,
  OpenAiChatStream,
  type OpenAiChatWire,
  OpenAiResponses,
  OpenAiResponsesStream,
  type OpenAiResponsesWire,
  StreamAccumulator,
  type StreamError
} from "../../src/providers/index.js"
import { eventsOf } from "./fixtures/sse.js"
import { formats } from "./helpers.js"

const chatChunk = (content: string): OpenAiChatWire.ChatCompletionChunk => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1700000000,
  model: "gpt-4o",
  choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: null }]
})

type Warning = { readonly _tag: string; readonly message: string }

/** The messages reported as left out whole ("messages[i]"). */
const leftOut = (warnings: ReadonlyArray<Warning>): Array<string> =>
  warnings.filter((w) => w._tag === "DroppedContent" && / message was left out: nothing in it could be carried/.test(w.message)).map((w) => w.message.split(":")[0]!)

describe("Responses: an assistant message whose every block is left out", () => {
  // each of these assistant messages has nothing Responses can carry
  const wholly: ReadonlyArray<readonly [string, Message.AssistantMessage]> = [
    ["thinking without a reasoning item id", Message.assistant([Block.thinking("secret", "SIG")])],
    ["redacted thinking", Message.assistant([Block.redactedThinking("RED")])],
    ["another provider's data", Message.assistant([Block.providerData("anthropic", { type: "x" })])],
    ["a generated file", Message.assistant([Block.file(Block.base64("AAAA"), "application/pdf")])],
    ["another provider's executed call", Message.assistant([Block.toolCall("srvtoolu_1", "web_search", { q: "x" }, { providerExecuted: true })])],
    ["thinking and redacted thinking", Message.assistant([Block.thinking("a"), Block.redactedThinking("b")])]
  ]
  for (const [what, message] of wholly) {
    it.effect(`is reported as a message (${what}), as Chat Completions reports it`, () =>
      Effect.gen(function*() {
        const messages = [Message.user("hi"), message, Message.user("again")]
        const responses = yield* OpenAiResponses.toMessages(messages)
        expect(responses.value.filter((item) => (item as { role?: unknown }).role !== "user")).toEqual([])
        expect(leftOut(responses.warnings)).toEqual(["messages[1]"])
        // each block is still reported on its own
        expect(responses.warnings.filter((w) => w._tag === "DroppedContent" && w.message.startsWith("messages[1].content[")).length).toBe(message.content.length)
        const chat = yield* OpenAiChat.toMessages(messages)
        expect(leftOut(chat.warnings)).toEqual(["messages[1]"])
      }))
  }

  it.effect("a message with one block carried is not reported whole", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* OpenAiResponses.toMessages([Message.user("hi"), Message.assistant([Block.redactedThinking("RED"), Block.text("Here.")]), Message.user("x")])
      expect(value).toHaveLength(3)
      expect(leftOut(warnings)).toEqual([])
    }))

  it.effect("an assistant message empty in the input is not reported by the writer (validation reports it)", () =>
    Effect.gen(function*() {
      const { warnings } = yield* OpenAiResponses.toMessages([Message.user("hi"), Message.assistant([]), Message.user("x")])
      expect(leftOut(warnings)).toEqual([])
    }))
})

describe("a transport failure mid-stream, with keepPartial", () => {
  const boom = new Error("socket hang up")

  for (const format of formats) {
    it.effect(`${format.provider}: everything that arrived is kept, as a stream cut there, with the failure first`, () =>
      Effect.gen(function*() {
        for (const fixture of format.fixtures) {
          const events = eventsOf(fixture)
          const complete = format.completeAfter(fixture)
          for (let k = 0; k <= events.length; k += Math.max(1, Math.floor(events.length / 7))) {
            const failing = Stream.fromIterable(events.slice(0, k)).pipe(Stream.concat(Stream.fail(boom)))
            const run = StreamAccumulator.runners(format.make as () => StreamAccumulator.StreamAccumulator<unknown, unknown>)
            const kept = yield* Effect.result(run.fromStream(failing, { keepPartial: true }))
            // the same events, the stream simply ending there
            const acc = format.make()
            for (const e of events.slice(0, k)) acc.push(e as never)
            const cut = acc.done()
            if (cut._tag === "Success") {
              // the provider had ended the response: it is whole
              expect(kept).toEqual(cut)
              expect(k).toBeGreaterThanOrEqual(Math.min(complete, events.length))
              continue
            }
            assert(kept._tag === "Failure" && kept.failure._tag === "IncompleteStream" && cut.failure._tag === "IncompleteStream", `${fixture.name} at ${k}`)
            expect(kept.failure.partial).toEqual(cut.failure.partial)
            expect(kept.failure.events).toBe(k)
            expect(kept.failure.cut).toEqual(["the stream failed: socket hang up", ...cut.failure.cut])
            expect(kept.failure.transportError).toBe(boom)
            expect(kept.failure.message).toContain("the stream failed: socket hang up")
          }
        }
      }), { timeout: 120_000 })
  }

  it.effect("without keepPartial the stream's own error comes back unchanged", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(OpenAiChatStream.fromStream(Stream.make(chatChunk("Hel")).pipe(Stream.concat(Stream.fail(boom)))))
      expect(error).toBe(boom)
    }))

  it.effect("raw SSE cut inside an event: the text so far, the failure and the cut event", () =>
    Effect.gen(function*() {
      const body = Stream.make(`data: ${JSON.stringify(chatChunk("Hel"))}\n\n`, 'data: {"id":"chatcmpl-1","obj').pipe(Stream.concat(Stream.fail(boom)))
      const error = yield* Effect.flip(OpenAiChatStream.fromSseStream(body, { keepPartial: true }))
      assert(error._tag === "IncompleteStream")
      expect(error.cut[0]).toBe("the stream failed: socket hang up")
      expect(error.cut.some((c) => c.includes("ends inside an event"))).toBe(true)
      expect((error.partial as OpenAiChatWire.ChatCompletion).choices[0]!.message.content).toBe("Hel")
    }))

  it.effect("the adapters read it into IncompleteResponse: the partial message and the failure", () =>
    Effect.gen(function*() {
      const failing = Stream.make(chatChunk("The answer is")).pipe(Stream.concat(Stream.fail(boom)))
      const error = yield* Effect.flip(OpenAiChat.fromStream(failing, { keepPartial: true }))
      assert(error._tag === "IncompleteResponse")
      expect(error.partial === undefined ? undefined : Message.textOf(error.partial.message)).toBe("The answer is")
      expect(error.transportError).toBe(boom)
      expect(error.cut[0]).toBe("the stream failed: socket hang up")
      const sse = Stream.make(`data: ${JSON.stringify(chatChunk("Hi"))}\n\n`).pipe(Stream.concat(Stream.fail(boom)))
      const fromSse = yield* Effect.flip(OpenAiChat.fromSseStream(sse, { keepPartial: true }))
      assert(fromSse._tag === "IncompleteResponse")
      expect(fromSse.transportError).toBe(boom)
      // a stream cut without a transport failure has no transportError
      const plain = yield* Effect.flip(OpenAiChat.fromEvents([chatChunk("x")]))
      assert(plain._tag === "IncompleteResponse")
      expect("transportError" in plain).toBe(false)
    }))

  it("keepPartial takes the stream's own error out of the error type", () => {
    const failing: Stream.Stream<OpenAiChatWire.StreamEvent, Error> = Stream.fail(boom)
    const kept: Effect.Effect<unknown, StreamError.StreamError> = OpenAiChatStream.fromStream(failing, { keepPartial: true })
    const keptBody: Effect.Effect<unknown, StreamError.StreamError> = GeminiStream.fromSseStream(Stream.fail(boom), { keepPartial: true })
    const adapter: Effect.Effect<unknown, OpenAiChat.StreamError> = OpenAiChat.fromStream(failing, { keepPartial: true })
    const responses: Effect.Effect<unknown, OpenAiResponses.StreamError> = OpenAiResponses.fromSseStream(Stream.fail(boom), { keepPartial: true })
    // @ts-expect-error without keepPartial the stream's Error stays in the error type
    const plain: Effect.Effect<unknown, StreamError.StreamError> = OpenAiChatStream.fromStream(failing)
    expect([kept, keptBody, adapter, responses, plain].length).toBe(5)
  })
})

describe("Responses: a streamed item without an id, against the terminal output", () => {
  // The Responses API gives every output item an id (msg_, fc_, rs_...: every item event of the recorded streams has
  // one); a server that leaves it out is matched by what else names the item. What the deltas built is never lost: it
  // stays as streamed_<field> on the item it is matched with, or in streamed_items.
  let seq = 0
  const ev = (type: string, rest: object): OpenAiResponsesWire.StreamEvent => ({ type, sequence_number: seq++, ...rest }) as unknown as OpenAiResponsesWire.StreamEvent
  const base = { id: "resp_1", object: "response", created_at: 1, model: "local-model" }
  const call = (i: number, args: string, id?: string) => [
    ev("response.output_item.added", { output_index: i, item: { type: "function_call", call_id: `call_${i}`, name: "f", arguments: "", status: "in_progress", ...(id === undefined ? {} : { id }) } }),
    ev("response.function_call_arguments.delta", { output_index: i, delta: args })
  ]
  const final = (i: number, args: string, id?: string) => ({ type: "function_call", call_id: `call_${i}`, name: "f", arguments: args, status: "completed", ...(id === undefined ? {} : { id }) })
  const accumulate = (events: ReadonlyArray<OpenAiResponsesWire.StreamEvent>) => {
    const acc = OpenAiResponsesStream.make()
    for (const e of events) acc.push(e)
    return acc.done()
  }
  const created = () => ev("response.created", { response: { ...base, status: "in_progress", output: [] } })
  const completed = (output: ReadonlyArray<object>) => ev("response.completed", { response: { ...base, status: "completed", output } })

  it("calls without an id are matched by call_id, not by place or order: each keeps what its own deltas built", () => {
    // the terminal output has a reasoning item first, so each call sits one place later than it streamed
    const result = accumulate([created(), ...call(0, '{"a":1'), ...call(1, '{"b":2'), completed([{ type: "reasoning", summary: [] }, final(0, '{"a":1}', "fc_1"), final(1, '{"b":2}', "fc_2")])])
    assert(result._tag === "Success")
    expect(result.success.output).toEqual([
      { type: "reasoning", summary: [] },
      { ...final(0, '{"a":1}', "fc_1"), streamed_arguments: '{"a":1' },
      { ...final(1, '{"b":2}', "fc_2"), streamed_arguments: '{"b":2' }
    ])
    expect("streamed_items" in result.success).toBe(false)
  })

  it("a call is never matched with a terminal item that names another call: it is kept in streamed_items", () => {
    const result = accumulate([created(), ...call(0, '{"a":1'), completed([{ ...final(0, '{"z":0}'), call_id: "call_other" }])])
    assert(result._tag === "Success")
    expect(result.success.output).toEqual([{ ...final(0, '{"z":0}'), call_id: "call_other" }])
    expect((result.success as unknown as { readonly streamed_items?: unknown }).streamed_items).toEqual([
      { type: "function_call", call_id: "call_0", name: "f", arguments: '{"a":1', status: "in_progress" }
    ])
  })

  it("an output_item.done naming another call than the added item is a protocol error, and both are kept", () => {
    const result = accumulate([
      created(),
      ...call(0, '{"a":1'),
      ev("response.output_item.done", { output_index: 0, item: { ...final(0, '{"a":1}'), call_id: "call_other" } }),
      completed([])
    ])
    assert(result._tag === "Failure" && result.failure._tag === "StreamProtocolError")
    expect(result.failure.reason).toContain("brings")
  })

  it("an item with nothing that names it (a message without an id) still stands for the next of its type (pinned)", () => {
    // no id and no call_id: place and order are all there is; the streamed text is kept beside the final one
    const message = (text: string) => ({ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] })
    const result = accumulate([
      created(),
      ev("response.output_item.added", { output_index: 0, item: { type: "message", role: "assistant", status: "in_progress", content: [] } }),
      ev("response.content_part.added", { output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
      ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "Hi" }),
      completed([{ type: "reasoning", summary: [] }, { ...message("Hello"), id: "msg_1" }])
    ])
    assert(result._tag === "Success")
    expect(result.success.output).toEqual([
      { type: "reasoning", summary: [] },
      { ...message("Hello"), id: "msg_1", content: [{ type: "output_text", text: "Hello", annotations: [], streamed_text: "Hi" }] }
    ])
  })
})

describe("Gemini: a request ending on a model turn (pinned)", () => {
  // Whether Gemini takes it depends on the model: some continue the turn (a prefill), others answer 400 "Requests
  // ending with a model turn are not supported"; no recorded Gemini request ends on one (all nine end on user text or
  // function responses). So it is sent as given, unflagged, and the README says to end on a user message.
  const prefill = [Message.user("Write a haiku about autumn"), Message.assistant("Falling leaves")]

  it.effect("is written ending on the model content, without a warning", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* Gemini.toMessages(prefill)
      expect(value.contents.map((c) => c.role)).toEqual(["user", "model"])
      expect(value.contents[1]!.parts).toEqual([{ text: "Falling leaves" }])
      expect(warnings).toEqual([])
    }))

  it("is not flagged by the gemini profile, with or without a model", () => {
    expect(Conversation.issuesFor("gemini", prefill)).toEqual([])
    expect(Conversation.issuesFor("gemini", prefill, { model: "gemini-2.5-flash" })).toEqual([])
  })
})

describe("Gemini grounding metadata across stream chunks (pinned)", () => {
  const web = (i: number) => ({ web: { uri: `https://s${i}.example`, title: `s${i}` } })
  const support = (start: number, end: number, text: string, indices: ReadonlyArray<number>) => ({ segment: { startIndex: start, endIndex: end, text }, groundingChunkIndices: indices })
  const candidate = (index: number, text: string, groundingMetadata: object, finishReason?: string) => ({
    index,
    content: { role: "model", parts: [{ text }] },
    groundingMetadata,
    ...(finishReason === undefined ? {} : { finishReason })
  })
  const accumulate = (chunks: ReadonlyArray<ReadonlyArray<object>>) => {
    const acc = GeminiStream.make()
    for (const candidates of chunks) acc.push({ candidates, modelVersion: "gemini-2.5-flash" } as unknown as GeminiWire.StreamEvent)
    return acc.done()
  }

  it("each candidate's metadata adds up on its own; chunks sending only new sources append them, resent lists replace", () => {
    const result = accumulate([
      [
        candidate(0, "A. ", { groundingChunks: [web(0)], groundingSupports: [support(0, 2, "A.", [0])] }),
        candidate(1, "X. ", { groundingChunks: [web(10)], groundingSupports: [support(0, 2, "X.", [0])] })
      ],
      [
        // candidate 0 sends only what is new, numbered across the stream; candidate 1 resends all so far
        candidate(0, "B.", { groundingChunks: [web(1)], groundingSupports: [support(3, 5, "B.", [1])] }, "STOP"),
        candidate(1, "Y.", { groundingChunks: [web(10), web(11)], groundingSupports: [support(0, 2, "X.", [0]), support(3, 5, "Y.", [1])] }, "STOP")
      ]
    ])
    assert(result._tag === "Success")
    const [first, second] = result.success.candidates ?? []
    // every support's indices, kept as sent, point at the source it cited
    expect(first?.groundingMetadata).toEqual({ groundingChunks: [web(0), web(1)], groundingSupports: [support(0, 2, "A.", [0]), support(3, 5, "B.", [1])] })
    expect(second?.groundingMetadata).toEqual({ groundingChunks: [web(10), web(11)], groundingSupports: [support(0, 2, "X.", [0]), support(3, 5, "Y.", [1])] })
  })

  it.effect("the reader keeps grounding as provider data, indices as sent, and its web sources as the text's citations", () =>
    Effect.gen(function*() {
      const grounding = { groundingChunks: [web(0), web(1)], groundingSupports: [support(0, 2, "A.", [0]), support(3, 5, "B.", [1])] }
      const { value } = yield* Gemini.fromResponse({ candidates: [candidate(0, "A. B.", grounding, "STOP")], modelVersion: "gemini-2.5-flash" })
      const text = value.message.content[0]
      expect(value.message.content.length).toBe(1)
      expect(text?._tag === "Text" ? [text.text, text.citations] : undefined).toEqual(["A. B.", [
        { type: "url_citation", url: "https://s0.example", title: "s0", start_index: 0, end_index: 2 },
        { type: "url_citation", url: "https://s1.example", title: "s1", start_index: 3, end_index: 5 }
      ]])
      expect((value.providerData?.["candidate"] as { readonly groundingMetadata?: unknown } | undefined)?.groundingMetadata).toEqual(grounding)
    }))
})
