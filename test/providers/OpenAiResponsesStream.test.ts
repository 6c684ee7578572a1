import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Result, Schema, Stream } from "effect"
import { OpenAiResponsesStream, type OpenAiResponsesWire } from "../../src/providers/index.js"
import * as Fixtures from "./fixtures/openAiResponses.js"
import { eventsOf } from "./fixtures/sse.js"

type Event = OpenAiResponsesWire.StreamEvent

const response = (extra: object = {}) => ({ id: "resp_1", object: "response", created_at: 1, model: "gpt-5", status: "in_progress", output: [], ...extra })
const created = (output: ReadonlyArray<object> = []): Event => ({ type: "response.created", response: response({ output }) }) as Event
const ev = (type: string, fields: object): Event => ({ type, ...fields }) as Event
const completed = (output: ReadonlyArray<object>): Event => ({ type: "response.completed", response: response({ status: "completed", output }) }) as Event

const run = (events: ReadonlyArray<Event>) => {
  const acc = OpenAiResponsesStream.make()
  for (const e of events) acc.push(e)
  return acc.done()
}
const success = (events: ReadonlyArray<Event>): OpenAiResponsesWire.Response => {
  const result = run(events)
  if (Result.isFailure(result)) return assert.fail(result.failure.message)
  return result.success
}
const failure = (events: ReadonlyArray<Event>) => {
  const result = run(events)
  if (Result.isSuccess(result)) return assert.fail("expected a failure")
  return result.failure
}
const partialOf = (events: ReadonlyArray<Event>): OpenAiResponsesWire.Response => {
  const acc = OpenAiResponsesStream.make()
  for (const e of events) acc.push(e)
  return acc.snapshot()!
}

const message = { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] }
const textPart = { type: "output_text", text: "", annotations: [] }

describe("OpenAiResponsesStream", () => {
  it("appends text deltas to the content part they address", () => {
    const snap = partialOf([
      created(),
      ev("response.output_item.added", { output_index: 0, item: message }),
      ev("response.content_part.added", { output_index: 0, content_index: 0, part: textPart }),
      ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "Hel" }),
      ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "lo" })
    ])
    assert.deepStrictEqual<unknown>(snap.output, [{ ...message, content: [{ ...textPart, text: "Hello" }] }])
  })

  it("lets a .done event replace the text its deltas built", () => {
    const snap = partialOf([
      created([{ ...message, content: [textPart] }]),
      ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "draft" }),
      ev("response.output_text.done", { output_index: 0, content_index: 0, text: "final" })
    ])
    assert.strictEqual(OpenAiResponsesStream.outputText(snap), "final")
  })

  it("keeps function-call argument text as streamed and lets the .done value win", () => {
    const call = { id: "fc_1", type: "function_call", call_id: "call_1", name: "f", arguments: "" }
    const events = [created(), ev("response.output_item.added", { output_index: 0, item: call }), ev("response.function_call_arguments.delta", { output_index: 0, delta: '{ "a" :' }), ev("response.function_call_arguments.delta", { output_index: 0, delta: " 1.0 }" })]
    assert.strictEqual((partialOf(events).output[0] as OpenAiResponsesWire.FunctionCall).arguments, '{ "a" : 1.0 }')
    assert.strictEqual((partialOf([...events, ev("response.function_call_arguments.done", { output_index: 0, arguments: '{"a":1}' })]).output[0] as OpenAiResponsesWire.FunctionCall).arguments, '{"a":1}')
  })

  it("accumulates custom tool input", () => {
    const call = { id: "ctc_1", type: "custom_tool_call", call_id: "call_1", name: "exec", input: "" }
    const snap = partialOf([created(), ev("response.output_item.added", { output_index: 0, item: call }), ev("response.custom_tool_call_input.delta", { output_index: 0, delta: "ls " }), ev("response.custom_tool_call_input.delta", { output_index: 0, delta: "-la" })])
    assert.strictEqual((snap.output[0] as OpenAiResponsesWire.CustomToolCall).input, "ls -la")
  })

  it("builds reasoning summary parts by summary_index and reasoning text by content_index", () => {
    const snap = partialOf([
      created(),
      ev("response.output_item.added", { output_index: 0, item: { id: "rs_1", type: "reasoning", summary: [] } }),
      ev("response.reasoning_summary_part.added", { output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } }),
      ev("response.reasoning_summary_text.delta", { output_index: 0, summary_index: 0, delta: "Plan" }),
      ev("response.content_part.added", { output_index: 0, content_index: 0, part: { type: "reasoning_text", text: "" } }),
      ev("response.reasoning_text.delta", { output_index: 0, content_index: 0, delta: "Step 1" })
    ])
    assert.deepStrictEqual(snap.output[0], { id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "Plan" }], content: [{ type: "reasoning_text", text: "Step 1" }] })
  })

  it("places annotations by annotation_index, so a repeated index replaces", () => {
    const snap = partialOf([
      created([{ ...message, content: [textPart] }]),
      ev("response.output_text.annotation.added", { output_index: 0, content_index: 0, annotation_index: 0, annotation: { type: "url_citation", url: "a" } }),
      ev("response.output_text.annotation.added", { output_index: 0, content_index: 0, annotation_index: 0, annotation: { type: "url_citation", url: "b" } }),
      ev("response.output_text.annotation.added", { output_index: 0, content_index: 0, annotation_index: 1, annotation: { type: "url_citation", url: "c" } })
    ])
    assert.deepStrictEqual<unknown>(((snap.output[0] as OpenAiResponsesWire.OutputMessage).content[0] as OpenAiResponsesWire.OutputText).annotations, [{ type: "url_citation", url: "b" }, { type: "url_citation", url: "c" }])
  })

  it("sets a hosted tool call's status from its progress events", () => {
    const snap = partialOf([created(), ev("response.output_item.added", { output_index: 0, item: { id: "ws_1", type: "web_search_call", status: "in_progress" } }), ev("response.web_search_call.searching", { output_index: 0, item_id: "ws_1" })])
    assert.strictEqual((snap.output[0] as { status?: string }).status, "searching")
  })

  it("takes the terminal response as authoritative", () => {
    const final = { ...message, status: "completed", content: [{ ...textPart, text: "server text" }] }
    const done = success([created(), ev("response.output_item.added", { output_index: 0, item: message }), ev("response.content_part.added", { output_index: 0, content_index: 0, part: textPart }), ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "local" }), completed([final])])
    // the terminal text wins; what the deltas built, differing from it, is kept beside it
    assert.deepStrictEqual<unknown>(done.output, [{ ...final, content: [{ ...textPart, text: "server text", streamed_text: "local" }] }])
    assert.strictEqual(OpenAiResponsesStream.outputText(done), "server text")
    assert.strictEqual(done.status, "completed")
  })

  it("keeps the streamed output when the terminal response's output is empty, as when it has none", () => {
    const streamed = [created(), ev("response.output_item.added", { output_index: 0, item: message }), ev("response.content_part.added", { output_index: 0, content_index: 0, part: textPart }), ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "Hello world" })]
    for (const terminal of [completed([]), ev("response.completed", { response: { id: "resp_1", object: "response", status: "completed" } })]) {
      assert.strictEqual(OpenAiResponsesStream.outputText(success([...streamed, terminal])), "Hello world")
    }
  })

  it("records an output item added twice as a protocol error, keeping what its deltas built", () => {
    const events = [created(), ev("response.output_item.added", { output_index: 0, item: message }), ev("response.content_part.added", { output_index: 0, content_index: 0, part: textPart }), ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "Hello" }), ev("response.output_item.added", { output_index: 0, item: message })]
    const error = failure(events)
    assert.strictEqual(error._tag, "StreamProtocolError")
    assert.include(error.message, "output item 0 was added twice")
    if (error._tag === "StreamProtocolError") assert.strictEqual(OpenAiResponsesStream.outputText(error.partial as OpenAiResponsesWire.Response), "Hello")
  })

  it("succeeds on response.incomplete: the response itself says it was cut", () => {
    const done = success([created(), ev("response.incomplete", { response: response({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: [] }) })])
    assert.deepStrictEqual(done.incomplete_details, { reason: "max_output_tokens" })
  })

  it("keeps function arguments cut in an incomplete response: the response itself says it was cut", () => {
    const call = { id: "fc_1", type: "function_call", call_id: "c", name: "f", arguments: '{"a": [1, 2' }
    const done = success([created(), ev("response.incomplete", { response: response({ status: "incomplete", output: [call] }) })])
    const item = done.output[0]
    assert.strictEqual((item as { readonly arguments?: unknown } | undefined)?.arguments, '{"a": [1, 2')
  })

  it("reports a stream without a terminal event as incomplete, naming the open items", () => {
    const error = failure([created(), ev("response.output_item.added", { output_index: 0, item: { id: "fc_1", type: "function_call", call_id: "c", name: "f", arguments: "" } }), ev("response.function_call_arguments.delta", { output_index: 0, delta: '{"a":' })])
    assert.strictEqual(
      error.message,
      "openai-responses stream is incomplete after 3 events: no terminal event (response.completed, response.incomplete or response.failed); output item 0 (function_call f) never got response.output_item.done; its arguments JSON is cut after 5 characters"
    )
  })

  it("turns response.failed into a ProviderStreamError whose partial is the failed response", () => {
    const error = failure([created(), ev("response.failed", { response: response({ status: "failed", error: { code: "server_error", message: "The response failed." } }) })])
    assert.strictEqual(error._tag, "ProviderStreamError")
    if (error._tag === "ProviderStreamError") {
      assert.strictEqual(error.code, "server_error")
      assert.strictEqual((error.partial as OpenAiResponsesWire.Response).status, "failed")
    }
  })

  it("turns an error event, flat or nested, into a ProviderStreamError", () => {
    const flat = failure([created(), ev("error", { code: "rate_limit_exceeded", message: "Slow down", param: null })])
    assert.strictEqual(flat.message, "openai-responses sent an error: rate_limit_exceeded: Slow down")
    const nested = failure([created(), ev("error", { error: { type: "invalid_request_error", code: null, message: "Bad" } })])
    assert.strictEqual(nested.message, "openai-responses sent an error: invalid_request_error: Bad")
  })

  it("records a delta for an item never added as a protocol error", () => {
    const error = failure([created(), ev("response.output_text.delta", { output_index: 4, content_index: 0, delta: "x" }), completed([])])
    assert.strictEqual(error._tag, "StreamProtocolError")
    assert.include(error.message, "output item 4, which was never added")
  })

  it("records a delta for a part never added as a protocol error but keeps its text", () => {
    const events = [created(), ev("response.output_item.added", { output_index: 0, item: message }), ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "kept" })]
    const error = failure(events)
    assert.strictEqual(error._tag, "StreamProtocolError")
    if (error._tag === "StreamProtocolError") assert.strictEqual(OpenAiResponsesStream.outputText(error.partial as OpenAiResponsesWire.Response), "kept")
  })

  it("ignores event types it does not know", () => {
    const done = success([created(), ev("response.audio.delta", { delta: "AAAA" }), ev("response.something_new", { output_index: 0 }), completed([])])
    assert.deepStrictEqual(done.output, [])
  })

  it("computes output_text from message parts only, never from reasoning", () => {
    const r = { ...response(), output: [{ id: "rs", type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "think" }] }, { ...message, content: [{ ...textPart, text: "A" }, { type: "refusal", refusal: "no" }, { ...textPart, text: "B" }] }] } as unknown as OpenAiResponsesWire.Response
    assert.strictEqual(OpenAiResponsesStream.outputText(r), "AB")
  })

  it.prop("never throws whatever JSON is pushed", [Arbitrary.array(Arbitrary.schema(Schema.Json), { maxLength: 8 })], ([values]) => {
    const acc = OpenAiResponsesStream.make()
    acc.push(created([{ ...message, content: [textPart] }]))
    for (const v of values) acc.push(v as never)
    acc.snapshot()
    assert.isDefined(acc.done())
  }, { arbitrary: { runs: 300 } })

  it.effect("accumulates an Effect Stream of events", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* OpenAiResponsesStream.fromStream(Stream.fromIterable(eventsOf(Fixtures.functionCall) as Array<Event>)), Fixtures.functionCall.expected)
    }))
})
