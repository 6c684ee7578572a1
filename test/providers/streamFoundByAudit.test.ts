/**
 * Stream readers against what a hostile audit found: a tool call whose id
 * changes after its first fragment, a token limit that cuts tool arguments,
 * a tool name streamed in pieces, mismatched Responses output items, a
 * choice-level `message` beside the deltas, malformed values, unknown delta
 * strings repeated on every chunk, the `[DONE]` sentinel with whitespace or
 * events after it, values shared with the caller, and Anthropic event fields
 * the accumulator dropped.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import {
  AnthropicStream,
  type AnthropicWire,
  OpenAiChat,
  OpenAiChatStream,
  type OpenAiChatWire,
  OpenAiResponses,
  OpenAiResponsesStream,
  type OpenAiResponsesWire,
  Sse
} from "../../src/providers/index.js"

// ---------------------------------------------------------------------------
// Chat Completions: chunks in the shape the API (and compatible servers) send
// ---------------------------------------------------------------------------

const head = { id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", object: "chat.completion.chunk", created: 1741570283, model: "gpt-4o-2024-08-06", system_fingerprint: "fp_eb9dce56a8" }

const chunk = (delta: object, finish_reason: string | null = null, extra: object = {}): OpenAiChatWire.ChatCompletionChunk =>
  ({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason, ...extra }] }) as OpenAiChatWire.ChatCompletionChunk

const completion = (message: object, finish_reason: string): OpenAiChatWire.ChatCompletion =>
  ({
    id: head.id,
    object: "chat.completion",
    created: head.created,
    model: head.model,
    system_fingerprint: head.system_fingerprint,
    choices: [{ index: 0, message: { role: "assistant", content: null, refusal: null, ...message }, logprobs: null, finish_reason }]
  }) as OpenAiChatWire.ChatCompletion

const chat = (chunks: ReadonlyArray<unknown>) => {
  const acc = OpenAiChatStream.make()
  for (const c of chunks) acc.push(c as OpenAiChatWire.StreamEvent)
  return acc.done()
}

const chatSuccess = (chunks: ReadonlyArray<unknown>): OpenAiChatWire.ChatCompletion => {
  const result = chat(chunks)
  if (Result.isFailure(result)) return assert.fail(result.failure.message)
  return result.success
}

const chatFailure = (chunks: ReadonlyArray<unknown>) => {
  const result = chat(chunks)
  if (Result.isSuccess(result)) return assert.fail(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

describe("Chat stream: a tool call whose id changes after its first fragment (poolsideai/pool#9)", () => {
  const events = [
    chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_first", type: "function", function: { name: "get_weather", arguments: "" } }] }),
    chunk({ tool_calls: [{ index: 0, id: "call_second", type: "function", function: { arguments: "{\"city\":" } }] }),
    chunk({ tool_calls: [{ index: 0, id: "call_second", type: "function", function: { arguments: "\"Oslo\"}" } }] }),
    chunk({}, "tool_calls")
  ]

  it("is one call: the first id, the name and all the arguments", () => {
    const calls = chatSuccess(events).choices[0]?.message.tool_calls ?? []
    assert.strictEqual(calls.length, 1)
    const call = calls[0]!
    assert.strictEqual(call.id, "call_first")
    assert.strictEqual(call.type === "function" ? call.function.name : "", "get_weather")
    assert.strictEqual(call.type === "function" ? call.function.arguments : "", "{\"city\":\"Oslo\"}")
  })

  it("keeps the other id the fragments carried, so it can be recovered", () => {
    const call = chatSuccess(events).choices[0]?.message.tool_calls?.[0] as unknown as Record<string, unknown>
    assert.deepStrictEqual(call["other_ids"], ["call_second"])
  })

  it("starts a new call only when a fragment with a new id also brings a name (every parallel call at index 0)", () => {
    const calls = chatSuccess([
      chunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 0, id: "call_a2", function: { arguments: "{\"city\":\"Oslo\"}" } }] }),
      chunk({ tool_calls: [{ index: 0, id: "call_b", type: "function", function: { name: "get_time", arguments: "{\"tz\":\"CET\"}" } }] }),
      chunk({}, "tool_calls")
    ]).choices[0]?.message.tool_calls ?? []
    assert.deepStrictEqual(calls.map((c) => [c.id, c.type === "function" ? c.function.name : "", c.type === "function" ? c.function.arguments : ""]), [
      ["call_a", "get_weather", "{\"city\":\"Oslo\"}"],
      ["call_b", "get_time", "{\"tz\":\"CET\"}"]
    ])
  })

  it.effect("reads as the call the whole completion gives", () =>
    Effect.gen(function*() {
      const streamed = yield* OpenAiChat.fromEvents(events)
      const call = streamed.value.message.content[0]
      assert.strictEqual(call?._tag, "ToolCall")
      if (call?._tag !== "ToolCall") return
      assert.strictEqual(call.id, "call_first")
      assert.strictEqual(call.name, "get_weather")
      assert.deepStrictEqual(call.args, { city: "Oslo" })
      assert.strictEqual(streamed.value.message.content.length, 1)
    }))
})

describe("Chat stream: a tool name streamed in pieces", () => {
  it("concatenates the pieces, as the Python SDK does, and keeps a name repeated whole once", () => {
    const calls = chatSuccess([
      chunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: "weather", arguments: "{}" } }] }),
      chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "get_time", arguments: "{\"tz\":" } }] }),
      chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "get_time", arguments: "\"CET\"}" } }] }),
      chunk({}, "tool_calls")
    ]).choices[0]?.message.tool_calls ?? []
    assert.deepStrictEqual(calls.map((c) => (c.type === "function" ? c.function.name : "")), ["get_weather", "get_time"])
  })
})

describe("Chat stream: a token limit that cuts tool arguments", () => {
  const events = [
    chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "write_file", arguments: "" } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: "{\"path\":\"a.txt\"," } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: "\"text\":\"Hel" } }] }),
    chunk({}, "length"),
    "[DONE]"
  ]
  const whole = completion({ tool_calls: [{ id: "call_1", type: "function", function: { name: "write_file", arguments: "{\"path\":\"a.txt\",\"text\":\"Hel" } }] }, "length")

  it("accumulates to the completion with the cut arguments: the provider ended the stream itself", () => {
    assert.deepStrictEqual(chatSuccess(events), whole)
    // a stream that did end early still says so, and how far the arguments got
    const error = chatFailure(events.slice(0, 3))
    assert.strictEqual(error._tag, "IncompleteStream")
    assert.include(error.message, "choice 0 has no finish_reason")
    assert.include(error.message, "its arguments JSON is cut after 27 characters")
  })

  it.effect("reads as the whole completion does: arguments repaired, the text kept, a warning", () =>
    Effect.gen(function*() {
      const streamed = yield* OpenAiChat.fromEvents(events.filter((e) => e !== "[DONE]") as ReadonlyArray<OpenAiChatWire.StreamEvent>)
      const direct = yield* OpenAiChat.fromResponse(whole)
      assert.deepStrictEqual(streamed, direct)
      assert.deepStrictEqual(streamed.warnings.map((w) => w._tag), ["RepairedToolArguments"])
    }))
})

describe("Chat stream: a choice-level message beside the deltas", () => {
  it("does not replace the message the deltas built, and is kept", () => {
    const done = chatSuccess([
      chunk({ role: "assistant", content: "Hel" }),
      chunk({ content: "lo" }),
      chunk({}, "stop", { message: { role: "assistant", content: "" } })
    ])
    assert.deepStrictEqual(done.choices[0]?.message, { role: "assistant", content: "Hello", refusal: null })
    assert.deepStrictEqual((done.choices[0] as unknown as Record<string, unknown>)["chunk_message"], { role: "assistant", content: "" })
  })
})

describe("Chat stream: malformed values are protocol errors naming the field", () => {
  const cases: ReadonlyArray<readonly [string, unknown, string]> = [
    ["tool_calls as an object", chunk({ role: "assistant", tool_calls: { index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "{}" } } }), "tool_calls is not an array"],
    ["delta as a string", { ...head, choices: [{ index: 0, delta: "hi", logprobs: null, finish_reason: null }] }, "choices[0].delta is not an object"],
    ["function as a string", chunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: "f()" }] }), "tool_calls[0].function is not an object"],
    ["a numeric finish_reason", { ...head, choices: [{ index: 0, delta: { role: "assistant", content: "x" }, logprobs: null, finish_reason: 1 }] }, "choices[0].finish_reason is not a string"]
  ]
  for (const [label, bad, reason] of cases) {
    it(label, () => {
      const error = chatFailure([bad, chunk({}, "stop")])
      assert.strictEqual(error._tag, "StreamProtocolError")
      if (error._tag !== "StreamProtocolError") return
      assert.include(error.reason, reason)
      assert.strictEqual(error.eventIndex, 0)
    })
  }
})

describe("Chat stream: unknown delta strings", () => {
  it("keeps a string every chunk repeats once, as the whole completion has it; streamed text still concatenates", () => {
    const done = chatSuccess([
      chunk({ role: "assistant", reasoning_content: "ha", name: "bot", thoughts: "Let me " }),
      chunk({ reasoning_content: "ha", name: "bot", thoughts: "think." }),
      chunk({ content: "42", name: "bot" }),
      chunk({}, "stop")
    ])
    const message = done.choices[0]?.message as unknown as Record<string, unknown>
    assert.strictEqual(message["name"], "bot")
    // known streamed text, even two equal pieces; an unknown string whose pieces differ: nothing is lost
    assert.strictEqual(message["reasoning_content"], "haha")
    assert.strictEqual(message["thoughts"], "Let me think.")
  })
})

describe("Chat stream: values are not shared with the caller", () => {
  const lp = (token: string) => ({ token, logprob: -0.01, bytes: [...new TextEncoder().encode(token)], top_logprobs: [] })
  const events = () => [
    chunk({ role: "assistant", content: "Hi" }, null, { logprobs: { content: [lp("Hi")], refusal: null } }),
    chunk({ content: "!" }, "stop", { logprobs: { content: [lp("!")], refusal: null } }),
    { ...head, choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11, completion_tokens_details: { reasoning_tokens: 0 } } }
  ]

  it("mutating a returned completion does not change the next one", () => {
    const acc = OpenAiChatStream.make()
    for (const e of events()) acc.push(e as OpenAiChatWire.StreamEvent)
    const first = acc.done()
    const before = JSON.stringify(first)
    if (Result.isSuccess(first)) (first.success.choices[0]?.logprobs?.content?.[0] as { token: string }).token = "MUT"
    assert.strictEqual(JSON.stringify(acc.done()), before)
  })

  it("mutating an event after it was pushed does not change the completion", () => {
    const acc = OpenAiChatStream.make()
    const pushed = events()
    for (const e of pushed) acc.push(e as OpenAiChatWire.StreamEvent)
    const before = JSON.stringify(acc.done())
    ;(pushed[0] as unknown as { choices: Array<{ logprobs: { content: Array<{ token: string }> } }> }).choices[0]!.logprobs.content[0]!.token = "MUT"
    ;(pushed[2] as { usage: { completion_tokens_details: { reasoning_tokens: number } } }).usage.completion_tokens_details.reasoning_tokens = 99
    assert.strictEqual(JSON.stringify(acc.done()), before)
  })
})

// ---------------------------------------------------------------------------
// SSE: the [DONE] sentinel
// ---------------------------------------------------------------------------

describe("SSE: the [DONE] sentinel", () => {
  const body = (tail: string) =>
    `data: ${JSON.stringify(chunk({ role: "assistant", content: "Hi" }))}\n\ndata: ${JSON.stringify(chunk({}, "stop"))}\n\n${tail}`

  it("is understood with whitespace after it", () => {
    const result = Sse.parseJson(body("data: [DONE] \n\n"))
    assert.isTrue(Result.isSuccess(result))
    if (Result.isSuccess(result)) assert.strictEqual(result.success.at(-1)?.data, Sse.DONE)
  })

  it("ends the events: what follows it is not read, as the official SDKs stop there", () => {
    const result = Sse.parseJson(body("data: [DONE]\n\ndata: {not json\n\ndata: {\"late\":true}\n\n"))
    assert.isTrue(Result.isSuccess(result))
    if (Result.isSuccess(result)) assert.deepStrictEqual(result.success.map((e) => e.data === Sse.DONE), [false, false, true])
  })

  it("ends the parser's events too, with whitespace after it", () => {
    const events: Array<Sse.Event> = []
    const parser = Sse.makeParser((e) => events.push(e))
    parser.feed(body("data: [DONE]\r\n\r\ndata: {\"late\":true}\n\ndata: {\"cut"))
    assert.isUndefined(parser.end())
    assert.deepStrictEqual(events.map((e) => e.data).at(-1), Sse.DONE)
    assert.strictEqual(events.length, 3)
  })

  it("a Chat stream fed as SSE succeeds with a sentinel followed by whitespace and more events", () => {
    const acc = OpenAiChatStream.make()
    acc.feed(body("data: [DONE]  \n\ndata: {\"id\":\"late\"}\n\n"))
    const result = acc.done()
    assert.isTrue(Result.isSuccess(result), Result.isFailure(result) ? result.failure.message : "")
  })

  it("a Chat stream whose text ends in the sentinel with whitespace and no blank line succeeds", () => {
    const acc = OpenAiChatStream.make()
    acc.feed(body("data: [DONE] "))
    const result = acc.done()
    assert.isTrue(Result.isSuccess(result), Result.isFailure(result) ? result.failure.message : "")
  })
})

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

const base = { id: "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b", object: "response", created_at: 1741476542, model: "gpt-4.1-2025-04-14" }
const usage = { input_tokens: 36, input_tokens_details: { cached_tokens: 0 }, output_tokens: 87, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 123 }
let sequence = 0
const ev = (type: string, rest: object): OpenAiResponsesWire.StreamEvent => ({ type, sequence_number: sequence++, ...rest }) as unknown as OpenAiResponsesWire.StreamEvent
const created = () => ev("response.created", { response: { ...base, status: "in_progress", output: [], usage: null } })

const responses = (events: ReadonlyArray<OpenAiResponsesWire.StreamEvent>) => {
  const acc = OpenAiResponsesStream.make()
  for (const e of events) acc.push(e)
  return acc.done()
}

const responsesFailure = (events: ReadonlyArray<OpenAiResponsesWire.StreamEvent>) => {
  const result = responses(events)
  if (Result.isSuccess(result)) return assert.fail(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

describe("Responses stream: a token limit that cuts tool arguments", () => {
  const call = { type: "function_call", id: "fc_67ccd3", call_id: "call_unLAR8MvFNptuiZK6K6HCy5k", name: "get_weather", arguments: "{\"location\":\"Par", status: "incomplete" }
  const incomplete = { ...base, status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: [call], usage }
  const events = () => [
    created(),
    ev("response.output_item.added", { output_index: 0, item: { ...call, arguments: "", status: "in_progress" } }),
    ev("response.function_call_arguments.delta", { item_id: call.id, output_index: 0, delta: "{\"location\":" }),
    ev("response.function_call_arguments.delta", { item_id: call.id, output_index: 0, delta: "\"Par" }),
    ev("response.incomplete", { response: incomplete })
  ]

  it("accumulates to the incomplete response: the provider ended the stream itself", () => {
    const result = responses(events())
    assert.isTrue(Result.isSuccess(result), Result.isFailure(result) ? result.failure.message : "")
    if (Result.isSuccess(result)) assert.deepStrictEqual<unknown>(result.success, incomplete)
    // a stream that did end early still says so, and how far the arguments got
    const error = responsesFailure(events().slice(0, 4))
    assert.strictEqual(error._tag, "IncompleteStream")
    assert.include(error.message, "its arguments JSON is cut after 16 characters")
  })

  it.effect("reads as the whole response does: arguments repaired, the text kept, a warning", () =>
    Effect.gen(function*() {
      const streamed = yield* OpenAiResponses.fromEvents(events())
      const direct = yield* OpenAiResponses.fromResponse(incomplete as unknown as OpenAiResponsesWire.Response)
      assert.deepStrictEqual(streamed, direct)
      assert.deepStrictEqual(streamed.warnings.map((w) => w._tag), ["RepairedToolArguments"])
    }))
})

describe("Responses stream: mismatched output items", () => {
  const fc = { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: "", status: "in_progress" }
  const message = { type: "message", id: "msg_9", status: "completed", role: "assistant", content: [{ type: "output_text", text: "surprise", annotations: [] }] }

  it("an output_item.done whose type and id differ from the added item is a protocol error", () => {
    const error = responsesFailure([
      created(),
      ev("response.output_item.added", { output_index: 0, item: fc }),
      ev("response.function_call_arguments.delta", { item_id: "fc_1", output_index: 0, delta: "{\"location\":\"Paris\"}" }),
      ev("response.output_item.done", { output_index: 0, item: message }),
      ev("response.completed", { response: { ...base, status: "completed", output: [], usage } })
    ])
    assert.strictEqual(error._tag, "StreamProtocolError")
    if (error._tag !== "StreamProtocolError") return
    assert.include(error.reason, "response.output_item.done for output item 0, a function_call item (fc_1), brings a message item (msg_9)")
    assert.strictEqual(error.eventIndex, 3)
    // both are kept, in order: the call as its deltas built it, then the item the done event brought
    const partial = error.partial as OpenAiResponsesWire.Response
    assert.deepStrictEqual<unknown>(partial.output, [{ ...fc, arguments: "{\"location\":\"Paris\"}" }, message])
  })

  it("a function_call_arguments.delta aimed at a message item is a protocol error", () => {
    const error = responsesFailure([
      created(),
      ev("response.output_item.added", { output_index: 0, item: { type: "message", id: "msg_1", role: "assistant", status: "in_progress", content: [] } }),
      ev("response.function_call_arguments.delta", { item_id: "msg_1", output_index: 0, delta: "{\"a\":1}" }),
      ev("response.completed", { response: { ...base, status: "completed", output: [], usage } })
    ])
    assert.strictEqual(error._tag, "StreamProtocolError")
    if (error._tag === "StreamProtocolError") assert.include(error.reason, "response.function_call_arguments.delta for output item 0, a message item")
  })
})

describe("Responses stream: malformed values are protocol errors naming the field", () => {
  const start = () => [
    created(),
    ev("response.output_item.added", { output_index: 0, item: { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] } }),
    ev("response.content_part.added", { item_id: "msg_1", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } })
  ]
  it("a numeric output_text delta", () => {
    const error = responsesFailure([...start(), ev("response.output_text.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta: 5 })])
    assert.strictEqual(error._tag, "StreamProtocolError")
    if (error._tag === "StreamProtocolError") assert.include(error.reason, "response.output_text.delta: delta is not a string")
  })

  it("an object as an arguments delta", () => {
    const error = responsesFailure([
      created(),
      ev("response.output_item.added", { output_index: 0, item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: "", status: "in_progress" } }),
      ev("response.function_call_arguments.delta", { item_id: "fc_1", output_index: 0, delta: { a: 1 } })
    ])
    assert.strictEqual(error._tag, "StreamProtocolError")
    if (error._tag === "StreamProtocolError") assert.include(error.reason, "response.function_call_arguments.delta: delta is not a string")
  })
})

describe("Responses stream: values are not shared with the caller", () => {
  it("mutating an event after it was pushed does not change the response", () => {
    const events = [
      ev("response.created", { response: { ...base, status: "in_progress", output: [], usage: null, metadata: { run: "a" } } }),
      ev("response.output_item.added", { output_index: 0, item: { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] } }),
      ev("response.content_part.added", { item_id: "msg_1", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [], logprobs: [] } }),
      ev("response.output_text.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta: "Hi", logprobs: [{ token: "Hi", logprob: -0.1, top_logprobs: [] }] })
    ]
    const acc = OpenAiResponsesStream.make()
    for (const e of events) acc.push(e)
    const before = JSON.stringify(acc.snapshot())
    ;(events[0] as unknown as { response: { metadata: { run: string } } }).response.metadata.run = "MUT"
    ;(events[3] as unknown as { logprobs: Array<{ token: string }> }).logprobs[0]!.token = "MUT"
    assert.strictEqual(JSON.stringify(acc.snapshot()), before)
  })
})

// ---------------------------------------------------------------------------
// Anthropic
// ---------------------------------------------------------------------------

const messageStart = (): AnthropicWire.StreamEvent => ({
  type: "message_start",
  message: {
    id: "msg_01XFDUDYJgAACzvnptvVoYEL",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5-20250929",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 472, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } }
  }
}) as AnthropicWire.StreamEvent
const textStart = { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }
const stop0 = { type: "content_block_stop", index: 0 }
const end = [{ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 12 } }, { type: "message_stop" }]

const anthropic = (events: ReadonlyArray<unknown>) => {
  const acc = AnthropicStream.make()
  for (const e of events) acc.push(e as AnthropicWire.StreamEvent)
  return acc.done()
}

describe("Anthropic stream: malformed values are protocol errors naming the field", () => {
  it("a numeric text_delta text", () => {
    const result = anthropic([messageStart(), textStart, { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: 5 } }, stop0, ...end])
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) {
      assert.strictEqual(result.failure._tag, "StreamProtocolError")
      assert.include(result.failure.message, "text_delta for content block 0: text is not a string")
    }
  })

  it("a delta without a type", () => {
    const result = anthropic([messageStart(), textStart, { type: "content_block_delta", index: 0, delta: { text: "hi" } }, stop0, ...end])
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) {
      assert.strictEqual(result.failure._tag, "StreamProtocolError")
      assert.include(result.failure.message, "a content_block_delta for content block 0 has a delta without a type")
    }
  })
})

describe("Anthropic stream: fields the events carry", () => {
  it("keeps unknown fields of message_stop on the message (Bedrock's invocation metrics)", () => {
    const metrics = { inputTokenCount: 472, outputTokenCount: 12, invocationLatency: 1310, firstByteLatency: 420 }
    const result = anthropic([
      messageStart(),
      textStart,
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello!" } },
      stop0,
      end[0],
      { type: "message_stop", "amazon-bedrock-invocationMetrics": metrics }
    ])
    assert.isTrue(Result.isSuccess(result))
    if (Result.isSuccess(result)) assert.deepStrictEqual((result.success as unknown as Record<string, unknown>)["amazon-bedrock-invocationMetrics"], metrics)
  })

  it("mutating an event after it was pushed does not change the message", () => {
    const start = messageStart()
    const block = { type: "content_block_start", index: 0, content_block: { type: "text", text: "", citations: [] } }
    const citation = { type: "char_location", cited_text: "Oslo", document_index: 0, document_title: "Atlas", start_char_index: 0, end_char_index: 4 }
    const events = [start, block, { type: "content_block_delta", index: 0, delta: { type: "citations_delta", citation } }, stop0, ...end]
    const acc = AnthropicStream.make()
    for (const e of events) acc.push(e as AnthropicWire.StreamEvent)
    const before = JSON.stringify(acc.done())
    ;(start as unknown as { message: { usage: { cache_creation: { ephemeral_5m_input_tokens: number } } } }).message.usage.cache_creation.ephemeral_5m_input_tokens = 99
    citation.cited_text = "MUT"
    assert.strictEqual(JSON.stringify(acc.done()), before)
  })
})

describe("Anthropic stream: the streamed text of a tool input", () => {
  const raw = "{\"order_id\": 12345678901234567890, \"note\": \"x\", \"note\": \"y\"}"
  const events = [
    messageStart(),
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Looking it up." } },
    stop0,
    { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_01", name: "get_order", input: {} } },
    { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: raw.slice(0, 17) } },
    { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: raw.slice(17) } },
    { type: "content_block_stop", index: 1 },
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 40 } },
    { type: "message_stop" }
  ]

  it("is kept beside the message: what the parsed input loses (a long number, a key given twice) can be read", () => {
    const result = anthropic(events)
    assert.isTrue(Result.isSuccess(result))
    if (Result.isFailure(result)) return
    assert.deepStrictEqual<unknown>(result.success.content[1], { type: "tool_use", id: "toolu_01", name: "get_order", input: { order_id: 12345678901234567000, note: "y" } })
    assert.deepStrictEqual(AnthropicStream.inputTextsOf(result.success), [undefined, raw])
    assert.isUndefined(AnthropicStream.inputTextsOf(structuredClone(result.success)))
  })
})
