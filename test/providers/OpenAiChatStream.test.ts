import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Result, Schema, Stream } from "effect"
import { OpenAiChatStream, type OpenAiChatWire } from "../../src/providers/index.js"
import * as Fixtures from "./fixtures/openAiChat.js"
import { eventsOf, sseOf } from "./fixtures/sse.js"

const chunk = (choices: ReadonlyArray<object>, extra: object = {}): OpenAiChatWire.ChatCompletionChunk =>
  ({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 10, model: "gpt-4o", choices, ...extra }) as OpenAiChatWire.ChatCompletionChunk

const choice = (delta: object, finish_reason: string | null = null, index = 0) => ({ index, delta, finish_reason })

const run = (chunks: ReadonlyArray<OpenAiChatWire.StreamEvent>) => {
  const acc = OpenAiChatStream.make()
  for (const c of chunks) acc.push(c)
  return acc.done()
}

const success = (chunks: ReadonlyArray<OpenAiChatWire.StreamEvent>): OpenAiChatWire.ChatCompletion => {
  const result = run(chunks)
  if (Result.isFailure(result)) return assert.fail(result.failure.message)
  return result.success
}

const failure = (chunks: ReadonlyArray<OpenAiChatWire.StreamEvent>) => {
  const result = run(chunks)
  if (Result.isSuccess(result)) return assert.fail("expected a failure")
  return result.failure
}

describe("OpenAiChatStream", () => {
  it("concatenates content and sets a role repeated on every chunk", () => {
    const done = success([chunk([choice({ role: "assistant", content: "Hel" })]), chunk([choice({ role: "assistant", content: "lo" })]), chunk([choice({ role: "assistant" }, "stop")])])
    assert.deepStrictEqual(done.choices[0]?.message, { role: "assistant", content: "Hello", refusal: null })
  })

  it("keeps content null when no chunk carried content", () => {
    assert.isNull(success([chunk([choice({ role: "assistant" }, "stop")])]).choices[0]?.message.content)
  })

  it("assembles interleaved tool-call fragments by index, keeping the argument text as streamed", () => {
    const done = success([
      chunk([choice({ role: "assistant", tool_calls: [{ index: 1, id: "b", type: "function", function: { name: "two", arguments: "{\"y\":" } }] })]),
      chunk([choice({ tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "one", arguments: "{ \"x\" : 1.0 " } }] })]),
      chunk([choice({ tool_calls: [{ index: 1, function: { arguments: " 2}" } }, { index: 0, function: { arguments: "}" } }] })]),
      chunk([choice({}, "tool_calls")])
    ])
    assert.deepStrictEqual(done.choices[0]?.message.tool_calls, [
      { id: "a", type: "function", function: { name: "one", arguments: "{ \"x\" : 1.0 }" } },
      { id: "b", type: "function", function: { name: "two", arguments: "{\"y\": 2}" } }
    ])
  })

  it("takes a repeated id once and a name that comes only on the last fragment", () => {
    const done = success([
      chunk([choice({ tool_calls: [{ index: 0, id: "123", type: "function", function: { arguments: "[1," } }] })]),
      chunk([choice({ tool_calls: [{ index: 0, id: "123", type: "function", function: { arguments: "2]", name: "sum" } }] })]),
      chunk([choice({}, "tool_calls")])
    ])
    assert.deepStrictEqual(done.choices[0]?.message.tool_calls, [{ id: "123", type: "function", function: { name: "sum", arguments: "[1,2]" } }])
  })

  it("starts a new call when a fragment repeats an index with a new id", () => {
    // Gemini's OpenAI-compatible endpoint sends every parallel call with index 0
    const done = success([
      chunk([choice({ tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "read", arguments: '{"path":"a.md"}' } }] })]),
      chunk([choice({ tool_calls: [{ index: 0, id: "b", type: "function", function: { name: "read", arguments: '{"path":' } }] })]),
      chunk([choice({ tool_calls: [{ index: 0, function: { arguments: '"b.md"}' } }] })]),
      chunk([choice({}, "tool_calls")])
    ])
    assert.deepStrictEqual(done.choices[0]?.message.tool_calls, [
      { id: "a", type: "function", function: { name: "read", arguments: '{"path":"a.md"}' } },
      { id: "b", type: "function", function: { name: "read", arguments: '{"path":"b.md"}' } }
    ])
  })

  it("accumulates a custom tool's input", () => {
    const done = success([
      chunk([choice({ tool_calls: [{ index: 0, id: "c1", type: "custom", custom: { name: "exec", input: "print(" } }] })]),
      chunk([choice({ tool_calls: [{ index: 0, custom: { input: "1)" } }] })]),
      chunk([choice({}, "tool_calls")])
    ])
    assert.deepStrictEqual(done.choices[0]?.message.tool_calls, [{ id: "c1", type: "custom", custom: { name: "exec", input: "print(1)" } }])
  })

  it("keeps every choice, ordered by index whatever the arrival order", () => {
    const done = success([chunk([choice({ content: "b" }, "stop", 1)]), chunk([choice({ content: "a" }, null, 0)]), chunk([choice({}, "length", 0)])])
    assert.deepStrictEqual(done.choices.map((c) => [c.index, c.message.content, c.finish_reason]), [[0, "a", "length"], [1, "b", "stop"]])
  })

  it("takes usage from the final chunk whose choices are empty", () => {
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }
    const done = success([chunk([choice({ content: "x" }, "stop")], { usage: null }), chunk([], { usage }), "[DONE]"])
    assert.deepStrictEqual(done.usage, usage)
    assert.strictEqual(done.choices.length, 1)
  })

  it("lets Azure's trailing content-filter chunk change nothing but its filter results", () => {
    const done = success([
      chunk([choice({ role: "assistant", content: "hello" }, "stop")]),
      { id: "", object: "", created: 0, model: "", choices: [{ index: 0, finish_reason: null, content_filter_results: { hate: { filtered: false } } }] } as unknown as OpenAiChatWire.ChatCompletionChunk
    ])
    assert.deepStrictEqual([done.id, done.model, done.created, done.choices[0]?.finish_reason, done.choices[0]?.message.content], ["chatcmpl-1", "gpt-4o", 10, "stop", "hello"])
    assert.deepStrictEqual((done.choices[0] as unknown as Record<string, unknown>)["content_filter_results"], { hate: { filtered: false } })
  })

  it("never copies the obfuscation padding", () => {
    const done = success([chunk([choice({ content: "x" }, "stop")], { obfuscation: "pad" })])
    assert.notProperty(done, "obfuscation")
  })

  it("keeps unknown delta fields, concatenating strings such as reasoning_content", () => {
    const done = success([chunk([choice({ reasoning_content: "Let me " })]), chunk([choice({ reasoning_content: "think." })]), chunk([choice({ content: "4" }, "stop")])])
    assert.strictEqual((done.choices[0]?.message as unknown as Record<string, unknown>)["reasoning_content"], "Let me think.")
  })

  it("concatenates refusal and its logprobs while content stays null", () => {
    const lp = (token: string) => ({ token, logprob: -0.1, bytes: null, top_logprobs: [] })
    const done = success([
      chunk([{ ...choice({ role: "assistant", content: null, refusal: "" }), logprobs: { content: null, refusal: [] } }]),
      chunk([{ ...choice({ refusal: "No" }), logprobs: { content: null, refusal: [lp("No")] } }]),
      chunk([{ ...choice({ refusal: "." }, "stop"), logprobs: { content: null, refusal: [lp(".")] } }])
    ])
    assert.deepStrictEqual(done.choices[0]?.message, { role: "assistant", content: null, refusal: "No." })
    assert.deepStrictEqual(done.choices[0]?.logprobs, { content: null, refusal: [lp("No"), lp(".")] })
  })

  it("finishes an audio choice whose last chunk only set expires_at, as the SDK does", () => {
    const done = success([chunk([choice({ role: "assistant", audio: { id: "a1", data: "AB", transcript: "he" } })]), chunk([choice({ audio: { data: "CD", transcript: "y" } })]), chunk([choice({ audio: { expires_at: 99 } })])])
    assert.deepStrictEqual(done.choices[0]?.message.audio, { id: "a1", data: "ABCD", transcript: "hey", expires_at: 99 })
    assert.strictEqual(done.choices[0]?.finish_reason, "stop")
  })

  it("reports a choice without finish_reason as an incomplete stream", () => {
    const error = failure([chunk([choice({ content: "hel" })])])
    assert.strictEqual(error._tag, "IncompleteStream")
    assert.strictEqual(error.message, "openai-chat stream is incomplete after 1 event: choice 0 has no finish_reason")
  })

  it("keeps function arguments cut by the token limit: the provider finished the choice itself", () => {
    const done = success([chunk([choice({ tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "f", arguments: "{\"q\": \"ab" } }] }, "length")])])
    const call = done.choices[0]?.message.tool_calls?.[0]
    assert.strictEqual(call?.type === "function" ? call.function.arguments : undefined, "{\"q\": \"ab")
    assert.strictEqual(done.choices[0]?.finish_reason, "length")
  })

  it("keeps empty and non-JSON arguments without calling them cut", () => {
    const done = success([chunk([choice({ tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "f", arguments: "" } }, { index: 1, id: "b", type: "function", function: { name: "g", arguments: "not json" } }] }, "tool_calls")])])
    assert.deepStrictEqual(done.choices[0]?.message.tool_calls?.map((c) => (c.type === "function" ? c.function.arguments : "")), ["", "not json"])
  })

  it("reports no chunk at all as an incomplete stream with no partial", () => {
    const error = failure([])
    assert.strictEqual(error._tag, "IncompleteStream")
    if (error._tag === "IncompleteStream") {
      assert.deepStrictEqual(error.cut, ["no chunk arrived"])
      assert.isUndefined(error.partial)
    }
  })

  it("reports a message whose role is not the assistant's as a protocol error", () => {
    const error = failure([chunk([choice({ role: "user", content: "hello" }, "stop")])])
    assert.strictEqual(error._tag, "StreamProtocolError")
    assert.include(error.message, 'choice 0 is a "user" message')
  })

  it("reports a tool call that never got an id or a name as a protocol error, not as a call with empty ones", () => {
    // (the completion read whole is MalformedPayload without them; the stream had made them "" without a word)
    const noId = failure([
      chunk([choice({ role: "assistant", tool_calls: [{ index: 0, type: "function", function: { name: "f", arguments: "{}" } }] })]),
      chunk([choice({}, "tool_calls")])
    ])
    assert.strictEqual(noId._tag, "StreamProtocolError")
    assert.include(noId.message, 'choice 0 tool call 0 ("f") never got an id')
    const noName = failure([chunk([choice({ role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { arguments: "{}" } }] }, "tool_calls")])])
    assert.include(noName.message, "choice 0 tool call 0 never got a name")
    const noFunctionName = failure([chunk([choice({ role: "assistant", function_call: { arguments: "{}" } }, "function_call")])])
    assert.include(noFunctionName.message, "choice 0 function call never got a name")
  })

  it("reports data that is not JSON as a protocol error and keeps what arrived", () => {
    const acc = OpenAiChatStream.make()
    acc.feed('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: {bad\n\n')
    const result = acc.done()
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result) && result.failure._tag === "StreamProtocolError") {
      assert.strictEqual(result.failure.eventIndex, 1)
      assert.strictEqual(result.failure.event, "{bad")
      assert.strictEqual((result.failure.partial as OpenAiChatWire.ChatCompletion).choices[0]?.message.content, "hi")
    } else assert.fail("expected a StreamProtocolError")
  })

  it("ignores chunks after [DONE], as the official SDKs stop reading there", () => {
    assert.strictEqual(success([chunk([choice({ content: "x" }, "stop")]), "[DONE]", chunk([choice({ content: "y" })])]).choices[0]?.message.content, "x")
  })

  it("turns an error chunk into a ProviderStreamError", () => {
    const error = failure([chunk([choice({ content: "x" })]), { error: { message: "upstream timed out", type: "server_error", code: "timeout" } } as never])
    assert.strictEqual(error._tag, "ProviderStreamError")
    assert.strictEqual(error.message, "openai-chat sent an error: server_error: upstream timed out")
  })

  it.prop("never throws whatever JSON is pushed", [Arbitrary.array(Arbitrary.schema(Schema.Json), { maxLength: 8 })], ([values]) => {
    const acc = OpenAiChatStream.make()
    for (const v of values) acc.push(v as never)
    acc.snapshot()
    assert.isDefined(acc.done())
  }, { arbitrary: { runs: 300 } })

  it("a snapshot is a copy: later chunks do not change it", () => {
    const acc = OpenAiChatStream.make()
    acc.push(chunk([choice({ content: "a" })]))
    const before = acc.snapshot()
    acc.push(chunk([choice({ content: "b" }, "stop")]))
    assert.strictEqual(before?.choices[0]?.message.content, "a")
    assert.strictEqual(acc.snapshot()?.choices[0]?.message.content, "ab")
  })

  it.effect("accumulates an Effect Stream of chunks", () =>
    Effect.gen(function* () {
      const done = yield* OpenAiChatStream.fromStream(Stream.fromIterable(eventsOf(Fixtures.parallelToolCalls) as Array<OpenAiChatWire.StreamEvent>))
      assert.deepStrictEqual(done, Fixtures.parallelToolCalls.expected)
    }))

  it.effect("accumulates an Effect Stream of SSE bytes", () =>
    Effect.gen(function* () {
      const bytes = new TextEncoder().encode(sseOf(Fixtures.text))
      const pieces = [bytes.subarray(0, 101), bytes.subarray(101, 102), bytes.subarray(102)]
      assert.deepStrictEqual(yield* OpenAiChatStream.fromSseStream(Stream.fromIterable(pieces)), Fixtures.text.expected)
    }))

  it.effect("fails the Effect with the tagged error of a cut stream", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(OpenAiChatStream.fromSse("data: " + JSON.stringify(chunk([choice({ content: "x" })])) + "\n\n"))
      assert.strictEqual(error._tag, "IncompleteStream")
    }))

  it.effect("passes the source stream's own error through", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(OpenAiChatStream.fromStream(Stream.fail("connection reset" as const)))
      assert.strictEqual(error, "connection reset")
    }))

  it.effect("accumulates an iterable of chunks", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* OpenAiChatStream.fromEvents(eventsOf(Fixtures.refusal) as Array<OpenAiChatWire.StreamEvent>), Fixtures.refusal.expected)
    }))
})
