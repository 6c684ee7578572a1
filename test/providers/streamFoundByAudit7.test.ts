/**
 * Stream accumulators, as a seventh audit found them:
 * - Anthropic: an extra field on an event or a delta under the name of one the stream builds (a block's text, a tool
 *   call's id or name, the message's id or model) replaced what was streamed, without a word. Now it is a protocol
 *   violation and the streamed value stays; other extra fields are kept as before.
 * - Gemini: a content that is not an object, parts that are not a list, a text that is not a string, an index that is
 *   no candidate number (it was read as the candidate's place, and could join two candidates) and a finishReason that
 *   is not a string were dropped or taken as they came; each is now a protocol violation.
 * - `[DONE]` followed by more text ends the stream, as the official OpenAI SDKs test it (`startsWith`).
 * - Chat: a call whose id changed mid-call on a fragment that repeats its name was split in two, each with half the
 *   arguments; it continues the call while the arguments are open, as openai-node reads it by index.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { AnthropicStream, GeminiStream, OpenAiChatStream, Sse } from "../../src/providers/index.js"

const start = { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }
const end = [{ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }, { type: "message_stop" }]
const textBlock = [
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hello" } }
]

const anthropic = (events: ReadonlyArray<object>) => Effect.runSync(Effect.result(AnthropicStream.fromEvents(events as never)))
const gemini = (events: ReadonlyArray<object>) => Effect.runSync(Effect.result(GeminiStream.fromEvents(events as never)))

describe("Anthropic: an event's extra field never replaces what the stream built", () => {
  const cases: ReadonlyArray<readonly [string, ReadonlyArray<object>, string]> = [
    ["a stop's text", [start, ...textBlock, { type: "content_block_stop", index: 0, text: "X" }, ...end], "has a text field that would replace the one streamed"],
    ["a delta's id and name", [
      start,
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "f", input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{}", id: "toolu_2", name: "g" } },
      { type: "content_block_stop", index: 0 },
      ...end
    ], "has an id field that would replace the one streamed"],
    ["message_delta's id and model", [start, { type: "message_delta", delta: { stop_reason: "end_turn", id: "msg_2", model: "x" }, usage: { output_tokens: 2 } }, { type: "message_stop" }], "message_delta's delta has an id field"],
    ["message_stop's id", [start, end[0]!, { type: "message_stop", id: "msg_3" }], "message_stop has an id field"]
  ]
  for (const [name, events, said] of cases) {
    it(name, () => {
      const result = anthropic(events)
      expect(Result.isFailure(result)).toBe(true)
      if (Result.isFailure(result)) expect(result.failure.message).toContain(said)
    })
  }

  it("a gateway's own field on each event, changing from event to event, is no collision: the last one is kept", () => {
    const result = anthropic([
      start,
      textBlock[0]!,
      { ...textBlock[1]!, id: "evt_1" },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "!" }, id: "evt_2" },
      { type: "content_block_stop", index: 0, id: "evt_3" },
      { type: "content_block_start", index: 1, content_block: { type: "constructor" } },
      { type: "content_block_stop", index: 1, toString: "x" },
      ...end
    ])
    const blocks: ReadonlyArray<unknown> | string = Result.isSuccess(result) ? result.success.content : result.failure.message
    const expected: ReadonlyArray<Record<string, string>> = [{ type: "text", text: "hello!", id: "evt_3" }, { type: "constructor", toString: "x" }]
    expect(blocks).toEqual(expected)
  })

  it("the streamed values stay in the partial message", () => {
    const result = anthropic(cases[1]![1])
    const partial = Result.isFailure(result) ? (result.failure as { readonly partial?: { readonly content: ReadonlyArray<Record<string, unknown>> } }).partial : undefined
    expect([partial?.content[0]?.["id"], partial?.content[0]?.["name"]]).toEqual(["toolu_1", "f"])
  })

  it("other extra fields are kept, a later one replacing an earlier, and the delta sets the stop fields and a container", () => {
    const result = anthropic([
      start,
      { ...textBlock[0]! },
      { ...textBlock[1]!, gateway: 1 },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "!" }, gateway: 2 },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn", container: { id: "container_1" } }, usage: { output_tokens: 2 } },
      { type: "message_stop", "amazon-bedrock-invocationMetrics": { inputTokenCount: 1 } }
    ])
    expect(Result.isSuccess(result)).toBe(true)
    if (!Result.isSuccess(result)) return
    const message = result.success as unknown as Record<string, unknown> & { readonly content: ReadonlyArray<Record<string, unknown>> }
    expect(message.content[0]).toEqual({ type: "text", text: "hello!", gateway: 2 })
    expect([message["stop_reason"], message["container"], message["amazon-bedrock-invocationMetrics"]]).toEqual(["end_turn", { id: "container_1" }, { inputTokenCount: 1 }])
  })
})

describe("Gemini: a field of the wrong kind is a violation, not dropped", () => {
  const chunk = (content: unknown, extra: object = {}) => ({ candidates: [{ content, ...extra }] })
  const text = (t: string) => ({ role: "model", parts: [{ text: t }] })
  const cases: ReadonlyArray<readonly [string, ReadonlyArray<object>, string]> = [
    ["parts that are not a list", [chunk(text("a")), chunk({ role: "model", parts: { text: "LOST" } }), chunk(text("b"), { finishReason: "STOP" })], "content.parts is not an array"],
    ["content that is not an object", [chunk(text("a")), chunk("LOST"), chunk(text("b"), { finishReason: "STOP" })], "content is not an object"],
    ["a text that is not a string", [chunk({ role: "model", parts: [{ text: "a" }, { text: 5 }] }, { finishReason: "STOP" })], "a part's text is not a string: 5"],
    ["an index that is no candidate number", [
      { candidates: [{ index: 0, content: text("a"), finishReason: "STOP" }] },
      { candidates: [{ index: "1", content: text("b"), finishReason: "STOP" }] }
    ], "has no valid index: \"1\""],
    ["a finishReason that is not a string", [chunk(text("a"), { finishReason: 7 })], "finishReason is not a string: 7"]
  ]
  for (const [name, events, said] of cases) {
    it(name, () => {
      const result = gemini(events)
      expect(Result.isFailure(result)).toBe(true)
      if (Result.isFailure(result)) expect(result.failure.message).toContain(said)
    })
  }

  it("a well-formed stream is read as before", () => {
    const result = gemini([chunk(text("a")), chunk(text("b"), { finishReason: "STOP", index: 0 })])
    expect(Result.isSuccess(result) ? result.success.candidates?.[0]?.content?.parts : undefined).toEqual([{ text: "ab" }])
  })
})

describe("[DONE] with more after it ends the stream, as the official SDKs read it", () => {
  const first = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}\n\n'
  it("[DONE]x, [DONE] then another data line, and a space before it", () => {
    for (const tail of ["data: [DONE]x\n\n", "data: [DONE]\ndata: more\n\n", "data:  [DONE]\n\n"]) {
      expect(Result.isSuccess(Effect.runSync(Effect.result(OpenAiChatStream.fromSse(first + tail)))), JSON.stringify(tail)).toBe(true)
    }
    expect([Sse.isDone("[DONE]x"), Sse.isDone(" [DONE]"), Sse.isDone("x[DONE]"), Sse.isDone("")]).toEqual([true, true, false, false])
  })
})

describe("Chat: a new id on a fragment repeating the call's name, arguments still open", () => {
  const chunk = (choices: ReadonlyArray<object>) => ({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "m", choices })
  const call = (id: string, name: string, args: string) => ({ index: 0, id, type: "function", function: { name, arguments: args } })
  const calls = (events: ReadonlyArray<object>) => {
    const result = Effect.runSync(Effect.result(OpenAiChatStream.fromEvents(events as never)))
    return Result.isSuccess(result) ? result.success.choices[0]?.message.tool_calls?.map((c) => [c.id, "function" in c ? c.function.arguments : ""]) : result.failure.message
  }
  const end = chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }])

  it("continues the call: one call, whole arguments, the first id", () => {
    expect(calls([
      chunk([{ index: 0, delta: { role: "assistant", tool_calls: [call("call_1", "get_weather", '{"city":')] } }]),
      chunk([{ index: 0, delta: { tool_calls: [call("call_2", "get_weather", '"Paris"}')] } }]),
      end
    ])).toEqual([["call_1", '{"city":"Paris"}']])
  })

  it("calls sent whole at index 0 are still each a call of their own, same name or not", () => {
    expect(calls([
      chunk([{ index: 0, delta: { role: "assistant", tool_calls: [call("call_1", "get_weather", '{"city":"Oslo"}')] } }]),
      chunk([{ index: 0, delta: { tool_calls: [call("call_2", "get_weather", '{"city":"Rome"}')] } }]),
      chunk([{ index: 0, delta: { tool_calls: [call("call_3", "get_time", '{"tz":"CET"}')] } }]),
      end
    ])).toEqual([["call_1", '{"city":"Oslo"}'], ["call_2", '{"city":"Rome"}'], ["call_3", '{"tz":"CET"}']])
  })
})
