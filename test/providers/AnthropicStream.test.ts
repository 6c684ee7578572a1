import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Result, Schema, Stream } from "effect"
import { AnthropicStream, type AnthropicWire } from "../../src/providers/index.js"
import * as Fixtures from "./fixtures/anthropic.js"
import { eventsOf, sseOf } from "./fixtures/sse.js"

type Event = AnthropicWire.StreamEvent

const start = (usage: object = { input_tokens: 10, output_tokens: 1 }): Event =>
  ({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage } }) as Event
const blockStart = (index: number, content_block: object): Event => ({ type: "content_block_start", index, content_block }) as Event
const delta = (index: number, d: object): Event => ({ type: "content_block_delta", index, delta: d }) as Event
const blockStop = (index: number): Event => ({ type: "content_block_stop", index })
const messageDelta = (d: object, usage: object | null = { output_tokens: 5 }, extra: object = {}): Event => ({ type: "message_delta", delta: d, usage, ...extra }) as Event
const stop: Event = { type: "message_stop" }

const run = (events: ReadonlyArray<Event>) => {
  const acc = AnthropicStream.make()
  for (const e of events) acc.push(e)
  return acc.done()
}
const success = (events: ReadonlyArray<Event>): AnthropicWire.Message => {
  const result = run(events)
  if (Result.isFailure(result)) return assert.fail(result.failure.message)
  return result.success
}
const failure = (events: ReadonlyArray<Event>) => {
  const result = run(events)
  if (Result.isSuccess(result)) return assert.fail("expected a failure")
  return result.failure
}

const toolUse = (json: ReadonlyArray<string>): Array<Event> => [blockStart(0, { type: "tool_use", id: "toolu_1", name: "f", input: {} }), ...json.map((partial_json) => delta(0, { type: "input_json_delta", partial_json }))]

describe("AnthropicStream", () => {
  it("parses a tool block's input from its concatenated JSON fragments at content_block_stop", () => {
    const done = success([start(), ...toolUse(["", '{"loca', 'tion": "Pa', 'ris"}']), blockStop(0), messageDelta({ stop_reason: "tool_use" }), stop])
    assert.deepStrictEqual(done.content, [{ type: "tool_use", id: "toolu_1", name: "f", input: { location: "Paris" } }])
  })

  it("keeps the input JSON text exactly as streamed", () => {
    const acc = AnthropicStream.make()
    for (const e of [start(), ...toolUse(["", '{ "n" : 1.50,', ' "big": 12345678901234567890 }']), blockStop(0)]) acc.push(e)
    assert.strictEqual(acc.inputJson(0), '{ "n" : 1.50, "big": 12345678901234567890 }')
    assert.isUndefined(acc.inputJson(1))
  })

  it("keeps the start's empty input when no fragment carries text", () => {
    const done = success([start(), ...toolUse([""]), blockStop(0), messageDelta({ stop_reason: "tool_use" }), stop])
    assert.deepStrictEqual(done.content[0], { type: "tool_use", id: "toolu_1", name: "f", input: {} })
  })

  it("shows an open tool block's input as its raw JSON text so far", () => {
    const acc = AnthropicStream.make()
    for (const e of [start(), ...toolUse(["", '{"q": "ab'])]) acc.push(e)
    assert.strictEqual((acc.snapshot()?.content[0] as AnthropicWire.ToolUseBlock).input, '{"q": "ab')
  })

  it("appends thinking deltas and sets the signature", () => {
    const done = success([
      start(),
      blockStart(0, { type: "thinking", thinking: "", signature: "" }),
      delta(0, { type: "thinking_delta", thinking: "a" }),
      delta(0, { type: "thinking_delta", thinking: "b" }),
      delta(0, { type: "signature_delta", signature: "sig==" }),
      blockStop(0),
      messageDelta({ stop_reason: "end_turn" }),
      stop
    ])
    assert.deepStrictEqual(done.content, [{ type: "thinking", thinking: "ab", signature: "sig==" }])
  })

  it("appends citations to a text block", () => {
    const c1 = { type: "char_location", cited_text: "x", document_index: 0, start_char_index: 0, end_char_index: 1 }
    const c2 = { ...c1, cited_text: "y" }
    const done = success([start(), blockStart(0, { type: "text", text: "" }), delta(0, { type: "citations_delta", citation: c1 }), delta(0, { type: "text_delta", text: "t" }), delta(0, { type: "citations_delta", citation: c2 }), blockStop(0), messageDelta({ stop_reason: "end_turn" }), stop])
    assert.deepStrictEqual(done.content, [{ type: "text", text: "t", citations: [c1, c2] }])
  })

  it("keeps blocks that arrive whole, such as redacted thinking and server tool results", () => {
    const result = { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [{ type: "web_search_result", url: "https://example.com" }] }
    const done = success([start(), blockStart(0, { type: "redacted_thinking", data: "opaque" }), blockStop(0), blockStart(1, result), blockStop(1), messageDelta({ stop_reason: "end_turn" }), stop])
    assert.deepStrictEqual(done.content, [{ type: "redacted_thinking", data: "opaque" }, result])
  })

  it("merges message_delta usage key by key: absent and null values leave earlier ones alone", () => {
    const done = success([
      start({ input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 4, cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 0 }, service_tier: "standard" }),
      messageDelta({ stop_reason: null }, { output_tokens: 50, input_tokens: null }),
      messageDelta({ stop_reason: "end_turn" }, { output_tokens: 99 }),
      stop
    ])
    assert.deepStrictEqual(done.usage, { input_tokens: 10, output_tokens: 99, cache_read_input_tokens: 4, cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 0 }, service_tier: "standard" })
  })

  it("keeps a container and context_management that a later message_delta nulls", () => {
    const container = { id: "container_1", expires_at: "2026-01-01T00:00:00Z" }
    const done = success([start(), messageDelta({ container }, { output_tokens: 3 }, { context_management: { applied_edits: [] } }), messageDelta({ stop_reason: "end_turn", container: null }, { output_tokens: 4 }, { context_management: null }), stop])
    assert.deepStrictEqual([done.container, done.context_management, done.stop_reason], [container, { applied_edits: [] }, "end_turn"])
  })

  it("copies stop_details from message_delta", () => {
    const details = { type: "refusal", category: "cyber", explanation: "declined" }
    assert.deepStrictEqual(success([start(), messageDelta({ stop_reason: "refusal", stop_details: details }), stop]).stop_details, details)
  })

  it("relabels the model from a fallback block", () => {
    const done = success([start(), blockStart(0, { type: "fallback", from: { model: "claude-sonnet-4-5" }, to: { model: "claude-haiku-4-5" } }), blockStop(0), messageDelta({ stop_reason: "end_turn" }), stop])
    assert.strictEqual(done.model, "claude-haiku-4-5")
  })

  it("applies an unknown delta field by field: strings append, other values are set", () => {
    const done = success([
      start(),
      blockStart(0, { type: "compaction", content: null, encrypted_content: null }),
      delta(0, { type: "compaction_delta", content: "Sum", encrypted_content: "E1" }),
      delta(0, { type: "compaction_delta", content: "mary." }),
      blockStop(0),
      messageDelta({ stop_reason: "end_turn" }),
      stop
    ])
    assert.deepStrictEqual<unknown>(done.content, [{ type: "compaction", content: "Summary.", encrypted_content: "E1" }])
  })

  it("ignores ping and unknown event types", () => {
    const done = success([start(), { type: "ping" }, { type: "something_new", x: 1 } as Event, messageDelta({ stop_reason: "end_turn" }), stop])
    assert.deepStrictEqual(done.content, [])
  })

  it("reports a stream without message_stop as incomplete", () => {
    const error = failure([start(), blockStart(0, { type: "text", text: "" }), delta(0, { type: "text_delta", text: "Hi" }), blockStop(0)])
    assert.strictEqual(error.message, "anthropic-messages stream is incomplete after 4 events: no message_stop event")
  })

  it("reports a tool block never stopped, with how much of its JSON arrived", () => {
    const error = failure([start(), ...toolUse(["", '{"lines": ["a",', ' "b']), messageDelta({ stop_reason: "max_tokens" }), stop])
    assert.strictEqual(error._tag, "IncompleteStream")
    if (error._tag === "IncompleteStream") {
      assert.deepStrictEqual(error.cut, ["content block 0 (tool_use f) was never stopped; its input JSON is cut after 18 characters"])
      assert.strictEqual(((error.partial as AnthropicWire.Message).content[0] as AnthropicWire.ToolUseBlock).input, '{"lines": ["a", "b')
    }
  })

  it("names the first five stopped tool blocks whose input is not JSON, each cut whole at a character, and counts the rest", () => {
    // 399 characters, then an emoji whose two halves stand at 400 and 401
    const broken = `{"a": "${"x".repeat(392)}😀${"y".repeat(600)}`
    const events: Array<Event> = [start()]
    for (let i = 0; i < 40; i++) {
      events.push(blockStart(i, { type: "tool_use", id: `toolu_${i}`, name: "f", input: {} }), delta(i, { type: "input_json_delta", partial_json: broken }), blockStop(i))
    }
    const error = failure([...events, messageDelta({ stop_reason: "tool_use" }), stop])
    assert.strictEqual(error._tag, "StreamProtocolError")
    if (error._tag !== "StreamProtocolError") return
    assert.strictEqual(error.reason.split("its input is not valid JSON").length - 1, 5)
    assert.include(error.reason, `: {"a": "${"x".repeat(392)}…; content block 1`)
    assert.isTrue(error.reason.endsWith("; and 35 more blocks whose input is not valid JSON"))
    assert.isBelow(error.reason.length, 3_000)
    assert.strictEqual(((error.partial as AnthropicWire.Message).content[39] as AnthropicWire.ToolUseBlock).input, broken)
  })

  it("reports a stopped tool block whose input is not JSON as a protocol error, keeping the raw text", () => {
    const error = failure([start(), ...toolUse(['{"a": 1}}']), blockStop(0), messageDelta({ stop_reason: "tool_use" }), stop])
    assert.strictEqual(error._tag, "StreamProtocolError")
    assert.include(error.message, 'content block 0 (tool_use f): its input is not valid JSON at character 8: {"a": 1}}')
    if (error._tag === "StreamProtocolError") assert.strictEqual(((error.partial as AnthropicWire.Message).content[0] as AnthropicWire.ToolUseBlock).input, '{"a": 1}}')
  })

  it("reports a delta for a block never started as a protocol error", () => {
    const error = failure([start(), delta(3, { type: "text_delta", text: "x" }), messageDelta({ stop_reason: "end_turn" }), stop])
    assert.strictEqual(error._tag, "StreamProtocolError")
    assert.include(error.message, "at event 1: a text_delta delta for content block 3, which was never started")
  })

  it("reports an event after message_stop as a protocol error", () => {
    assert.strictEqual(failure([start(), messageDelta({ stop_reason: "end_turn" }), stop, blockStart(0, { type: "text", text: "" })])._tag, "StreamProtocolError")
  })

  it("turns an error event into a ProviderStreamError carrying what arrived", () => {
    const error = failure([start(), blockStart(0, { type: "text", text: "Hi" }), { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }])
    assert.strictEqual(error._tag, "ProviderStreamError")
    if (error._tag === "ProviderStreamError") {
      assert.strictEqual(error.message, "anthropic-messages sent an error: overloaded_error: Overloaded")
      assert.strictEqual(((error.partial as AnthropicWire.Message).content[0] as AnthropicWire.TextBlock).text, "Hi")
    }
  })

  it.prop("never throws whatever JSON is pushed", [Arbitrary.array(Arbitrary.schema(Schema.Json), { maxLength: 8 })], ([values]) => {
    const acc = AnthropicStream.make()
    acc.push(start())
    for (const v of values) acc.push(v as never)
    acc.snapshot()
    assert.isDefined(acc.done())
  }, { arbitrary: { runs: 300 } })

  it.effect("accumulates an Effect Stream of events", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* AnthropicStream.fromStream(Stream.fromIterable(eventsOf(Fixtures.serverToolUse) as Array<Event>)), Fixtures.serverToolUse.expected)
    }))

  it.effect("accumulates SSE text given in pieces", () =>
    Effect.gen(function* () {
      const text = sseOf(Fixtures.thinkingAndToolUse)
      assert.deepStrictEqual(yield* AnthropicStream.fromSse([text.slice(0, 500), text.slice(500)]), Fixtures.thinkingAndToolUse.expected)
    }))
})
