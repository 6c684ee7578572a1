/**
 * Stream edge cases where data used to be lost or an error missed: every
 * protocol slip still leaves what the provider sent in the partial response,
 * an error the provider signals is an error whatever shape it takes, and
 * `done()` gives the same answer however often it is asked.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { Anthropic, AnthropicStream, GeminiStream, OpenAiChat, OpenAiChatStream, OpenAiResponsesStream } from "../../src/providers/index.js"

const sseOf = (datas: ReadonlyArray<string>): string => datas.map((d) => `data: ${d}\n\n`).join("")

const messageStart = {
  type: "message_start",
  message: { id: "msg_1", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } }
}
const toolUse = (index: number, id: string, json: string) => [
  { type: "content_block_start", index, content_block: { type: "tool_use", id, name: `f${index}`, input: {} } },
  { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json } },
  { type: "content_block_stop", index }
]
const ending = [{ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 3 } }, { type: "message_stop" }]

const chunk = (choices: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices, ...extra })

describe("Anthropic streams", () => {
  it.effect("every stopped tool block whose input is not JSON is read as argument text, not only the first", () =>
    Effect.gen(function*() {
      const events = [messageStart, ...toolUse(0, "t1", "{bad"), ...toolUse(1, "t2", "{bad2}"), ...ending]
      const decoded = yield* Anthropic.fromEvents(events as never)
      const calls = decoded.value.message.content.filter((b) => b._tag === "ToolCall")
      assert.deepStrictEqual(calls.map((c) => c._tag === "ToolCall" ? c.rawArgs : undefined), ["{bad", "{bad2}"])
      assert.strictEqual(decoded.warnings.filter((w) => w._tag === "RepairedToolArguments").length, 2)
    }))

  it("done() reports the same error however often it is called", () => {
    const acc = AnthropicStream.make()
    for (const e of [messageStart, ...toolUse(0, "t", "{bad"), ...ending]) acc.push(e as never)
    const messages = [acc.done(), acc.done(), acc.done()].map((r) => Result.isFailure(r) ? r.failure.message : "success")
    assert.strictEqual(new Set(messages).size, 1)
    assert.notInclude(messages[0]!, "more violation")
  })

  it("a delta for a block that was never started keeps its text in the partial message", () => {
    const acc = AnthropicStream.make()
    for (const e of [messageStart, { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "IMPORTANT" } }, ...ending]) acc.push(e as never)
    const result = acc.done()
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) {
      assert.strictEqual(result.failure._tag, "StreamProtocolError")
      assert.include(JSON.stringify(result.failure.partial), "IMPORTANT")
    }
  })

  it("an SSE frame named error is a provider error even when its data has no type", () => {
    const acc = AnthropicStream.make()
    acc.feed(`event: message_start\ndata: ${JSON.stringify(messageStart)}\n\nevent: error\ndata: {"error":{"type":"api_error","message":"boom"}}\n\n`)
    const result = acc.done()
    assert.isTrue(Result.isFailure(result) && result.failure._tag === "ProviderStreamError" && result.failure.errorMessage === "boom")
  })
})

describe("Chat Completions streams", () => {
  it("a chunk with an error beside its choices fails the stream, keeping the choices", () => {
    const acc = OpenAiChatStream.make()
    acc.feed(sseOf([chunk([{ index: 0, delta: { role: "assistant", content: "A" }, finish_reason: null }]), chunk([{ index: 0, delta: {}, finish_reason: "stop" }], { error: { message: "boom", type: "server_error" } })]))
    const result = acc.done()
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result) && result.failure._tag === "ProviderStreamError") {
      assert.strictEqual(result.failure.errorMessage, "boom")
      assert.include(JSON.stringify(result.failure.partial), "\"content\":\"A\"")
    } else assert.fail("expected a ProviderStreamError")
  })

  it("an SSE frame named error fails the stream, whatever its data", () => {
    for (const data of [`{"message":"boom"}`, `{"error":{"message":"boom","type":"server_error"}}`, "boom"]) {
      const acc = OpenAiChatStream.make()
      acc.feed(`${sseOf([chunk([{ index: 0, delta: { role: "assistant", content: "A" }, finish_reason: "stop" }])])}event: error\ndata: ${data}\n\n`)
      const result = acc.done()
      assert.isTrue(Result.isFailure(result) && result.failure._tag === "ProviderStreamError" && result.failure.errorMessage === "boom", data)
    }
  })

  it("content sent as an array of text parts is read, as the non-streamed reader reads it", () => {
    const acc = OpenAiChatStream.make()
    acc.feed(sseOf([chunk([{ index: 0, delta: { role: "assistant", content: [{ type: "text", text: "Hello" }] }, finish_reason: null }]), chunk([{ index: 0, delta: { content: " world" }, finish_reason: "stop" }])]))
    const result = acc.done()
    assert.isTrue(Result.isSuccess(result) && result.success.choices[0]?.message.content === "Hello world")
  })

  it("arguments that are not text are a protocol error, and their JSON stays in the partial", () => {
    const acc = OpenAiChatStream.make()
    acc.feed(sseOf([chunk([{ index: 0, delta: { role: "assistant", tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "f", arguments: { x: 1 } } }] }, finish_reason: "tool_calls" }])]))
    const result = acc.done()
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) {
      assert.strictEqual(result.failure._tag, "StreamProtocolError")
      assert.include(JSON.stringify(result.failure.partial), JSON.stringify(JSON.stringify({ x: 1 })))
    }
  })

  it.effect("tool calls without an index (Gemini's OpenAI-compatible server) are kept, one per id", () =>
    Effect.gen(function*() {
      const call = (id: string, name: string) => ({ id, type: "function", function: { name, arguments: "{}" }, extra_content: { google: { thought_signature: `sig-${id}` } } })
      const sse = sseOf([
        chunk([{ index: 0, delta: { role: "assistant", tool_calls: [call("c1", "read")] } }]),
        chunk([{ index: 0, delta: { tool_calls: [call("c2", "write")] } }]),
        chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }]),
        "[DONE]"
      ])
      const decoded = yield* OpenAiChat.fromSse(sse)
      const calls = decoded.value.message.content.flatMap((b) => b._tag === "ToolCall" ? [`${b.id}:${b.name}`] : [])
      assert.deepStrictEqual(calls, ["c1:read", "c2:write"])
      assert.include(JSON.stringify(decoded.value.message), "sig-c2")
    }))
})

describe("Responses streams", () => {
  const created = { type: "response.created", response: { id: "r", object: "response", created_at: 1, model: "gpt-5", status: "in_progress", output: [] } }

  it("a delta for an item that was never added keeps its text in the partial response", () => {
    for (const [event, text] of [
      [{ type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "lost?" }, "lost?"],
      [{ type: "response.function_call_arguments.delta", output_index: 0, item_id: "fc_1", delta: "{\"a\":1}" }, "{\\\"a\\\":1}"]
    ] as const) {
      const acc = OpenAiResponsesStream.make()
      acc.push(created as never)
      acc.push(event as never)
      const result = acc.done()
      assert.isTrue(Result.isFailure(result))
      if (Result.isFailure(result)) {
        assert.strictEqual(result.failure._tag, "StreamProtocolError")
        assert.include(JSON.stringify(result.failure.partial), text)
      }
    }
  })
})

describe("Gemini streams", () => {
  const run = (datas: ReadonlyArray<string>) => {
    const acc = GeminiStream.make()
    acc.feed(sseOf(datas))
    const result = acc.done()
    return Result.isSuccess(result) ? result.success.candidates?.[0]?.content?.parts : result.failure.message
  }

  it("willContinue holds per path: two strings streamed side by side both continue", () => {
    const parts = run([
      `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","partialArgs":[{"jsonPath":"$.a","stringValue":"x","willContinue":true},{"jsonPath":"$.b","stringValue":"y","willContinue":true}],"willContinue":true}}]}}]}`,
      `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.a","stringValue":"1"},{"jsonPath":"$.b","stringValue":"2"}]}}]},"finishReason":"STOP"}]}`
    ])
    assert.deepStrictEqual(parts, [{ functionCall: { name: "f", args: { a: "x1", b: "y2" } } }])
  })

  it("a path is the same path however it is spelled", () => {
    const parts = run([
      `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","partialArgs":[{"jsonPath":"$.city","stringValue":"Par","willContinue":true}],"willContinue":true}}]}}]}`,
      `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$['city']","stringValue":"is"}]}}]},"finishReason":"STOP"}]}`
    ])
    assert.deepStrictEqual(parts, [{ functionCall: { name: "f", args: { city: "Paris" } } }])
  })
})
