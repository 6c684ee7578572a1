/**
 * Stream accumulators against what a second audit found: a Gemini function
 * call that starts while another call's arguments stream was merged into
 * that call, and an Anthropic tool block's start input was replaced by its
 * streamed input without a trace.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result, type Schema } from "effect"
import { Block, Message } from "../../src/index.js"
import { Anthropic, AnthropicStream, type AnthropicWire, Gemini, GeminiStream, type GeminiWire } from "../../src/providers/index.js"

// ---------------------------------------------------------------------------
// Gemini: streamed function-call arguments (Vertex AI's streamFunctionCallArguments)
// ---------------------------------------------------------------------------

type Chunk = GeminiWire.StreamEvent

const chunk = (parts: ReadonlyArray<object>, extra: object = {}): Chunk =>
  ({ candidates: [{ content: { role: "model", parts }, index: 0, ...extra }], modelVersion: "gemini-3-pro-preview", responseId: "r1" }) as Chunk
const call = (functionCall: object, extra: object = {}): object => ({ functionCall, ...extra })

const gemini = (chunks: ReadonlyArray<Chunk>) => {
  const acc = GeminiStream.make()
  for (const c of chunks) acc.push(c)
  return acc.done()
}

/** The parts of the response, complete or partial. */
const geminiParts = (result: ReturnType<typeof gemini>): ReadonlyArray<GeminiWire.Part> | undefined => {
  const response = Result.isSuccess(result) ? result.success : (result.failure.partial as GeminiWire.GenerateContentResponse | undefined)
  return response?.candidates?.[0]?.content?.parts
}

describe("Gemini stream: a function call that starts while another call's arguments stream", () => {
  // the first call announces more fragments (willContinue) but the next part is a new call, with its own id
  const newId = [
    chunk([call({ id: "call_1", name: "f", partialArgs: [{ jsonPath: "$.a", numberValue: 1 }], willContinue: true }, { thoughtSignature: "sig1" })]),
    chunk([call({ id: "call_2", name: "f", partialArgs: [{ jsonPath: "$.a", numberValue: 2 }], willContinue: true })]),
    chunk([call({ partialArgs: [{ jsonPath: "$.b", stringValue: "x" }], willContinue: true })]),
    chunk([call({})], { finishReason: "STOP" })
  ]
  const twoCalls = [
    { functionCall: { id: "call_1", name: "f", args: { a: 1 } }, thoughtSignature: "sig1" },
    { functionCall: { id: "call_2", name: "f", args: { a: 2, b: "x" } } }
  ]

  it("is a second call when it has another id: both calls are kept, apart, each with its own arguments", () => {
    const result = gemini(newId)
    assert.deepStrictEqual<unknown>(geminiParts(result), twoCalls)
    // the first call ended before the fragments it announced: said, never silent
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) {
      assert.strictEqual(result.failure._tag, "StreamProtocolError")
      assert.include(result.failure.message, "a new function call began while f's arguments were still streaming")
    }
  })

  it.effect("its calls read as Gemini.fromResponse reads the same parts in one response", () =>
    Effect.gen(function*() {
      const result = gemini(newId)
      const partial = Result.isFailure(result) ? (result.failure.partial as GeminiWire.GenerateContentResponse) : assert.fail("expected the violation")
      const streamed = yield* Gemini.fromResponse(partial)
      const whole = yield* Gemini.fromResponse({ candidates: [{ content: { role: "model", parts: twoCalls }, index: 0, finishReason: "STOP" }], modelVersion: "gemini-3-pro-preview", responseId: "r1" })
      assert.deepStrictEqual(streamed.value.message, whole.value.message)
      assert.deepStrictEqual(streamed.value.message.content.map((b) => (b._tag === "ToolCall" ? [b.id, b.args] : b._tag)), [["call_1", { a: 1 }], ["call_2", { a: 2, b: "x" }]])
    }))

  it("is a second call when it names a function, even the same one, without ids: the strings of the two calls are not joined", () => {
    // Vertex names a call on its first part only; here the first call's terminal part is missing
    const result = gemini([
      chunk([call({ name: "read_screen", willContinue: true })]),
      chunk([call({ partialArgs: [{ jsonPath: "$.id", stringValue: "A", willContinue: true }], willContinue: true })]),
      chunk([call({ name: "read_screen", willContinue: true })]),
      chunk([call({ partialArgs: [{ jsonPath: "$.id", stringValue: "B" }], willContinue: true })]),
      chunk([call({})], { finishReason: "STOP" })
    ])
    assert.deepStrictEqual<unknown>(geminiParts(result), [{ functionCall: { name: "read_screen", args: { id: "A" } } }, { functionCall: { name: "read_screen", args: { id: "B" } } }])
  })

  it("is a second call when only its id is new, and a fragment with the streaming call's own id continues that call", () => {
    const result = gemini([
      chunk([call({ id: "call_1", name: "f", partialArgs: [{ jsonPath: "$.q", stringValue: "ab", willContinue: true }], willContinue: true })]),
      chunk([call({ id: "call_1", partialArgs: [{ jsonPath: "$.q", stringValue: "cd" }], willContinue: true })]),
      chunk([call({ id: "call_2", partialArgs: [{ jsonPath: "$.q", stringValue: "ef" }], willContinue: true })]),
      chunk([call({ id: "call_3", name: "g", args: { z: 1 } })], { finishReason: "STOP" })
    ])
    assert.deepStrictEqual<unknown>(geminiParts(result), [
      { functionCall: { id: "call_1", name: "f", args: { q: "abcd" } } },
      { functionCall: { id: "call_2", args: { q: "ef" } } },
      { functionCall: { id: "call_3", name: "g", args: { z: 1 } } }
    ])
  })
})

// ---------------------------------------------------------------------------
// Anthropic: a tool block whose content_block_start already holds an input
// ---------------------------------------------------------------------------

type Event = AnthropicWire.StreamEvent

const messageStart = {
  type: "message_start",
  message: { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 20, output_tokens: 1 } }
} as Event
const blockStart = (content_block: object): Event => ({ type: "content_block_start", index: 0, content_block }) as Event
const json = (partial_json: string): Event => ({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json } }) as Event
const blockStop = { type: "content_block_stop", index: 0 } as Event
const end = [{ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 9 } }, { type: "message_stop" }] as ReadonlyArray<Event>

const anthropic = (events: ReadonlyArray<Event>) => {
  const acc = AnthropicStream.make()
  for (const e of events) acc.push(e)
  return acc.done()
}
const anthropicSuccess = (events: ReadonlyArray<Event>): AnthropicWire.Message => {
  const result = anthropic(events)
  if (Result.isFailure(result)) return assert.fail(result.failure.message)
  return result.success
}

describe("Anthropic stream: a tool block whose start already holds an input", () => {
  for (const type of ["tool_use", "server_tool_use"]) {
    it(`${type}: the streamed input is the input, as the SDK's accumulator has it, and the start's input is kept beside it`, () => {
      const done = anthropicSuccess([
        messageStart,
        blockStart({ type, id: "toolu_01", name: "lookup", input: { city: "Oslo", units: "metric" } }),
        json("{\"city\": "),
        json("\"Bergen\"}"),
        blockStop,
        ...end
      ])
      assert.deepStrictEqual<unknown>(done.content, [{ type, id: "toolu_01", name: "lookup", input: { city: "Bergen" }, start_input: { city: "Oslo", units: "metric" } }])
      // without deltas the start's input is the input, and nothing else is added
      const whole = anthropicSuccess([messageStart, blockStart({ type, id: "toolu_01", name: "lookup", input: { city: "Oslo" } }), blockStop, ...end])
      assert.deepStrictEqual<unknown>(whole.content, [{ type, id: "toolu_01", name: "lookup", input: { city: "Oslo" } }])
      // nor when the start's input is {} (as the API sends it) or the streamed input repeats it: nothing is lost
      const empty = anthropicSuccess([messageStart, blockStart({ type, id: "toolu_01", name: "lookup", input: {} }), json("{\"city\": \"Bergen\"}"), blockStop, ...end])
      assert.deepStrictEqual<unknown>(empty.content, [{ type, id: "toolu_01", name: "lookup", input: { city: "Bergen" } }])
      const repeated = anthropicSuccess([messageStart, blockStart({ type, id: "toolu_01", name: "lookup", input: { city: "Bergen", days: [1, 2] } }), json("{\"city\": \"Bergen\", \"days\": [1, 2]}"), blockStop, ...end])
      assert.deepStrictEqual<unknown>(repeated.content, [{ type, id: "toolu_01", name: "lookup", input: { city: "Bergen", days: [1, 2] } }])
    })
  }

  it("keeps the start's input beside the raw text of a block still open, and of one whose text is not JSON", () => {
    const start = blockStart({ type: "tool_use", id: "toolu_01", name: "lookup", input: { city: "Oslo" } })
    const open = anthropic([messageStart, start, json("{\"city\": \"Ber")])
    assert.isTrue(Result.isFailure(open))
    if (Result.isFailure(open)) {
      assert.deepStrictEqual<unknown>((open.failure.partial as AnthropicWire.Message).content, [{ type: "tool_use", id: "toolu_01", name: "lookup", input: "{\"city\": \"Ber", start_input: { city: "Oslo" } }])
    }
    const invalid = anthropic([messageStart, start, json("{city: Bergen}"), blockStop, ...end])
    assert.isTrue(Result.isFailure(invalid))
    if (Result.isFailure(invalid)) {
      assert.deepStrictEqual<unknown>((invalid.failure.partial as AnthropicWire.Message).content, [{ type: "tool_use", id: "toolu_01", name: "lookup", input: "{city: Bergen}", start_input: { city: "Oslo" } }])
    }
  })

  it.effect("the reader keeps the start's input with the call", () =>
    Effect.gen(function*() {
      const events = [messageStart, blockStart({ type: "tool_use", id: "toolu_01", name: "lookup", input: { city: "Oslo" } }), json("{\"city\": \"Bergen\"}"), blockStop, ...end]
      const read = yield* Anthropic.fromEvents(events)
      const block = read.value.message.content[0]
      assert.strictEqual(block?._tag, "ToolCall")
      if (block?._tag !== "ToolCall") return
      assert.deepStrictEqual(block.args, { city: "Bergen" })
      assert.include(JSON.stringify(block), "\"start_input\":{\"city\":\"Oslo\"}")
    }))

  it.effect("the writer leaves the start's input out of a replayed tool use block, reported, and the model keeps it", () =>
    Effect.gen(function*() {
      const events = [messageStart, blockStart({ type: "tool_use", id: "toolu_01", name: "lookup", input: { city: "Oslo" } }), json("{\"city\": \"Bergen\"}"), blockStop, ...end]
      const read = yield* Anthropic.fromEvents(events)
      const conversation = [Message.user("Weather?"), read.value.message, Message.toolResultMessage("toolu_01", "lookup", "4°C")]
      const written = yield* Anthropic.toMessages(conversation)
      const sent = written.value.messages[1] as unknown as { readonly content: ReadonlyArray<Record<string, unknown>> }
      assert.deepStrictEqual(sent.content, [{ type: "tool_use", id: "toolu_01", name: "lookup", input: { city: "Bergen" } }])
      assert.deepStrictEqual(written.warnings.map((w) => w._tag), ["DroppedContent"])
      const warning = written.warnings[0] as unknown as { readonly index?: number; readonly blockIndex?: number; readonly message: string }
      assert.deepStrictEqual([warning.index, warning.blockIndex], [1, 0])
      assert.include(warning.message, "start_input")
      assert.include(JSON.stringify(conversation[1]), "\"start_input\":{\"city\":\"Oslo\"}")
    }))

  it.effect("a start_input nested 20,000 levels deep is reported without overflowing the stack", () =>
    Effect.gen(function*() {
      let deep: Schema.Json = "Oslo"
      for (let k = 0; k < 20_000; k++) deep = { city: deep }
      const call = Block.toolCall("toolu_01", "lookup", { city: "Bergen" }, { providerOptions: { anthropic: { start_input: deep } } })
      const written = yield* Anthropic.toMessages([Message.user("Weather?"), Message.assistant([call]), Message.toolResultMessage("toolu_01", "lookup", "4°C")])
      assert.deepStrictEqual(written.warnings.map((w) => w._tag), ["DroppedContent"])
      assert.notInclude(JSON.stringify(written.value.messages[1]), "start_input")
    }))
})
