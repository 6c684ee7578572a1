/**
 * Stream readers, fifth audit: nothing a stream carried is overwritten or
 * lost: a Gemini call's signature, Anthropic signatures, Chat finish
 * reasons, Responses items without ids, and a stream cut short.
 */
import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import {
  AnthropicStream,
  type AnthropicWire,
  GeminiStream,
  type GeminiWire,
  OpenAiChatStream,
  type OpenAiChatWire,
  OpenAiResponsesStream,
  type OpenAiResponsesWire
} from "../../src/providers/index.js"

const run = <E, R>(acc: { readonly push: (e: E) => void; readonly done: () => Result.Result<R, { readonly _tag: string; readonly message: string }> }, events: ReadonlyArray<E>) => {
  for (const e of events) acc.push(e)
  return acc.done()
}

describe("Gemini: a streamed function call keeps its own thoughtSignature", () => {
  const g = (parts: ReadonlyArray<object>, rest: object = {}): GeminiWire.GenerateContentResponse =>
    ({ candidates: [{ content: { role: "model", parts }, ...rest }] }) as GeminiWire.GenerateContentResponse

  it("a later fragment's signature does not replace the call's first one; it is reported", () => {
    const result = run(GeminiStream.make(), [
      g([{ functionCall: { name: "f", willContinue: true, partialArgs: [{ jsonPath: "$.a", stringValue: "x" }] }, thoughtSignature: "sigD" }]),
      g([{ functionCall: { willContinue: false, partialArgs: [{ jsonPath: "$.b", stringValue: "y" }] }, thoughtSignature: "sigE" }]),
      g([{ text: "" }], { finishReason: "STOP" })
    ])
    if (Result.isSuccess(result)) return assert.fail("expected a protocol error")
    assert.strictEqual(result.failure._tag, "StreamProtocolError")
    assert.include(result.failure.message, "another thoughtSignature")
    const partial = (result.failure as unknown as { readonly partial: GeminiWire.GenerateContentResponse }).partial
    const part = partial.candidates?.[0]?.content?.parts?.[0] as { readonly thoughtSignature?: string; readonly functionCall?: { readonly args?: unknown } }
    assert.strictEqual(part.thoughtSignature, "sigD")
    assert.deepStrictEqual(part.functionCall?.args, { a: "x", b: "y" })
  })

  it("the same signature repeated on every fragment is no error", () => {
    const result = run(GeminiStream.make(), [
      g([{ functionCall: { name: "f", willContinue: true, partialArgs: [{ jsonPath: "$.a", stringValue: "x" }] }, thoughtSignature: "sigD" }]),
      g([{ functionCall: { willContinue: false }, thoughtSignature: "sigD" }], { finishReason: "STOP" })
    ])
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual<unknown>(result.success.candidates?.[0]?.content?.parts, [{ functionCall: { name: "f", args: { a: "x" } }, thoughtSignature: "sigD" }])
  })

  it("signed text fragments each keep their signature, on their own part (pinned)", () => {
    const result = run(GeminiStream.make(), [
      g([{ text: "Let me think", thought: true, thoughtSignature: "sigA" }]),
      g([{ text: " more", thought: true, thoughtSignature: "sigB" }]),
      g([{ text: "Answer" }]),
      g([{ text: " here", thoughtSignature: "sigC" }], { finishReason: "STOP" })
    ])
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual<unknown>(result.success.candidates?.[0]?.content?.parts, [
      { text: "Let me think", thought: true, thoughtSignature: "sigA" },
      { text: " more", thought: true, thoughtSignature: "sigB" },
      { text: "Answer" },
      { text: " here", thoughtSignature: "sigC" }
    ])
  })
})

describe("Anthropic: signature_delta never overwrites silently", () => {
  const start: AnthropicWire.StreamEvent = {
    type: "message_start",
    message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } }
  } as AnthropicWire.StreamEvent
  const ev = (e: object): AnthropicWire.StreamEvent => e as AnthropicWire.StreamEvent
  const end = [ev({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5 } }), ev({ type: "message_stop" })]
  const thinking = (...deltas: ReadonlyArray<object>) => [
    start,
    ev({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }),
    ...deltas.map((delta) => ev({ type: "content_block_delta", index: 0, delta })),
    ev({ type: "content_block_stop", index: 0 }),
    ...end
  ]

  it("a second, different signature_delta replaces the first, as the official SDKs assign it", () => {
    const result = run(AnthropicStream.make(), thinking(
      { type: "thinking_delta", thinking: "Step 1." },
      { type: "signature_delta", signature: "EqQBCgIYAhIM1" },
      { type: "signature_delta", signature: "EqQBCgIYAhIM2" }
    ))
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual<unknown>(result.success.content, [{ type: "thinking", thinking: "Step 1.", signature: "EqQBCgIYAhIM2" }])
  })

  it("the same signature sent twice changes nothing and is no error", () => {
    const result = run(AnthropicStream.make(), thinking(
      { type: "thinking_delta", thinking: "Step 1." },
      { type: "signature_delta", signature: "EqQB" },
      { type: "signature_delta", signature: "EqQB" }
    ))
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual<unknown>(result.success.content, [{ type: "thinking", thinking: "Step 1.", signature: "EqQB" }])
  })

  it("a signature_delta before any thinking_delta: both kept (pinned)", () => {
    const result = run(AnthropicStream.make(), thinking(
      { type: "signature_delta", signature: "EqQB" },
      { type: "thinking_delta", thinking: "Step 1." }
    ))
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual<unknown>(result.success.content, [{ type: "thinking", thinking: "Step 1.", signature: "EqQB" }])
  })

  it("a signature_delta for a redacted_thinking block is a protocol error, and the block keeps it (pinned)", () => {
    const result = run(AnthropicStream.make(), [
      start,
      ev({ type: "content_block_start", index: 0, content_block: { type: "redacted_thinking", data: "EmwKAhgB" } }),
      ev({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQB" } }),
      ev({ type: "content_block_stop", index: 0 }),
      ...end
    ])
    if (Result.isSuccess(result)) return assert.fail("expected a protocol error")
    assert.include(result.failure.message, "a signature_delta for content block 0, a redacted_thinking block")
    const partial = (result.failure as unknown as { readonly partial: AnthropicWire.Message }).partial
    assert.deepStrictEqual<unknown>(partial.content, [{ type: "redacted_thinking", data: "EmwKAhgB", signature: "EqQB" }])
  })
})

describe("Chat: finish reasons are kept per choice", () => {
  const head = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1700000000, model: "gpt-4o" }
  const chunk = (choices: ReadonlyArray<object>, rest: object = {}): OpenAiChatWire.ChatCompletionChunk =>
    ({ ...head, choices, ...rest }) as OpenAiChatWire.ChatCompletionChunk

  it("n > 1: each choice its own finish reason; a later null and a usage chunk erase none", () => {
    const result = run(OpenAiChatStream.make(), [
      chunk([{ index: 0, delta: { role: "assistant", content: "a" }, finish_reason: null }, { index: 1, delta: { role: "assistant", content: "b" }, finish_reason: null }]),
      chunk([{ index: 1, delta: {}, finish_reason: "length" }]),
      chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
      chunk([{ index: 1, delta: {}, finish_reason: null }]),
      chunk([], { usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } })
    ])
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual(result.success.choices.map((c) => [c.index, c.finish_reason]), [[0, "stop"], [1, "length"]])
    assert.deepStrictEqual(result.success.usage?.total_tokens, 7)
  })

  it("a repeated, different finish_reason is kept beside the first as other_finish_reasons", () => {
    const result = run(OpenAiChatStream.make(), [
      chunk([{ index: 0, delta: { role: "assistant", content: "hi" }, finish_reason: "stop" }]),
      chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
      chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }])
    ])
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    const choice = result.success.choices[0] as unknown as { readonly finish_reason: string; readonly other_finish_reasons?: unknown }
    assert.strictEqual(choice.finish_reason, "stop")
    assert.deepStrictEqual(choice.other_finish_reasons, ["tool_calls"])
  })
})

describe("A stream cut before its terminal event: an IncompleteStream with what arrived", () => {
  it("Anthropic", () => {
    const result = run(AnthropicStream.make(), [
      { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } }
    ] as ReadonlyArray<AnthropicWire.StreamEvent>)
    if (Result.isSuccess(result)) return assert.fail("expected IncompleteStream")
    assert.strictEqual(result.failure._tag, "IncompleteStream")
    assert.deepStrictEqual<unknown>((result.failure as unknown as { readonly partial: AnthropicWire.Message }).partial.content, [{ type: "text", text: "Hel" }])
  })

  it("Chat", () => {
    const result = run(OpenAiChatStream.make(), [
      { id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o", choices: [{ index: 0, delta: { role: "assistant", content: "Hel" }, finish_reason: null }] }
    ] as ReadonlyArray<OpenAiChatWire.ChatCompletionChunk>)
    if (Result.isSuccess(result)) return assert.fail("expected IncompleteStream")
    assert.strictEqual(result.failure._tag, "IncompleteStream")
    assert.strictEqual((result.failure as unknown as { readonly partial: OpenAiChatWire.ChatCompletion }).partial.choices[0]?.message.content, "Hel")
  })

  it("Responses", () => {
    const result = run(OpenAiResponsesStream.make(), [
      { type: "response.created", sequence_number: 0, response: { id: "resp_1", object: "response", created_at: 1, model: "gpt-4o", status: "in_progress", output: [] } },
      { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] } },
      { type: "response.content_part.added", sequence_number: 2, output_index: 0, item_id: "msg_1", content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
      { type: "response.output_text.delta", sequence_number: 3, output_index: 0, item_id: "msg_1", content_index: 0, delta: "Hel" }
    ] as unknown as ReadonlyArray<OpenAiResponsesWire.StreamEvent>)
    if (Result.isSuccess(result)) return assert.fail("expected IncompleteStream")
    assert.strictEqual(result.failure._tag, "IncompleteStream")
    const partial = (result.failure as unknown as { readonly partial: OpenAiResponsesWire.Response }).partial
    assert.deepStrictEqual<unknown>((partial.output[0] as { readonly content: unknown }).content, [{ type: "output_text", text: "Hel", annotations: [] }])
  })

  it("Gemini", () => {
    const result = run(GeminiStream.make(), [
      { candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] } }], modelVersion: "gemini-2.5-flash" }
    ] as ReadonlyArray<GeminiWire.GenerateContentResponse>)
    if (Result.isSuccess(result)) return assert.fail("expected IncompleteStream")
    assert.strictEqual(result.failure._tag, "IncompleteStream")
    assert.deepStrictEqual<unknown>((result.failure as unknown as { readonly partial: GeminiWire.GenerateContentResponse }).partial.candidates?.[0]?.content?.parts, [{ text: "Hel" }])
  })

  it("cut SSE text: the partial keeps every whole event (Anthropic)", () => {
    const acc = AnthropicStream.make()
    acc.feed('event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n\n')
    acc.feed('event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n')
    acc.feed('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}\n\nevent: content_block_delta\ndata: {"type":"content_bl')
    const result = acc.done()
    if (Result.isSuccess(result)) return assert.fail("expected IncompleteStream")
    assert.strictEqual(result.failure._tag, "IncompleteStream")
    assert.include(result.failure.message, "the SSE text ends inside an event")
    assert.deepStrictEqual<unknown>((result.failure as unknown as { readonly partial: AnthropicWire.Message }).partial.content, [{ type: "text", text: "Hel" }])
  })
})

describe("Responses: items without ids are matched to the terminal output once, wherever it puts them", () => {
  let seq = 0
  const ev = (type: string, rest: object): OpenAiResponsesWire.StreamEvent => ({ type, sequence_number: seq++, ...rest }) as unknown as OpenAiResponsesWire.StreamEvent
  const base = { id: "resp_1", object: "response", created_at: 1, model: "local-model" }
  const reasoning = { type: "reasoning", summary: [{ type: "summary_text", text: "Think." }] }
  const message = { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Hi!", annotations: [] }] }
  // a compatible server whose items carry no id, and whose terminal output leaves the reasoning item out
  const events = (terminalOutput: ReadonlyArray<object>) => [
    ev("response.created", { response: { ...base, status: "in_progress", output: [] } }),
    ev("response.output_item.added", { output_index: 0, item: { type: "reasoning", summary: [] } }),
    ev("response.output_item.done", { output_index: 0, item: reasoning }),
    ev("response.output_item.added", { output_index: 1, item: { type: "message", role: "assistant", status: "in_progress", content: [] } }),
    ev("response.content_part.added", { output_index: 1, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
    ev("response.output_text.delta", { output_index: 1, content_index: 0, delta: "Hi!" }),
    ev("response.output_item.done", { output_index: 1, item: message }),
    ev("response.completed", { response: { ...base, status: "completed", output: terminalOutput } })
  ]
  const streamedItemsOf = (r: unknown): unknown => (r as { readonly streamed_items?: unknown }).streamed_items

  it("an id-less item the terminal output has at another place is not also kept as streamed_items", () => {
    const result = run(OpenAiResponsesStream.make(), events([message]))
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual<unknown>(result.success.output, [message])
    // the reasoning item, which the output leaves out, is kept; the message, which it has, is not kept twice
    assert.deepStrictEqual(streamedItemsOf(result.success), [reasoning])
  })

  it("an id-less item matched elsewhere still keeps what its deltas built when the terminal text differs", () => {
    const final = { ...message, content: [{ type: "output_text", text: "Hello!", annotations: [] }] }
    const result = run(OpenAiResponsesStream.make(), events([final]))
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual<unknown>(result.success.output, [{ ...message, content: [{ type: "output_text", text: "Hello!", annotations: [], streamed_text: "Hi!" }] }])
    assert.deepStrictEqual(streamedItemsOf(result.success), [reasoning])
  })

  it("one terminal item stands for one streamed item: two id-less messages and one in the output keep the other", () => {
    const two = [
      ev("response.created", { response: { ...base, status: "in_progress", output: [] } }),
      ev("response.output_item.done", { output_index: 0, item: message }),
      ev("response.output_item.done", { output_index: 1, item: { ...message, content: [{ type: "output_text", text: "Second.", annotations: [] }] } }),
      ev("response.completed", { response: { ...base, status: "completed", output: [{ type: "reasoning", summary: [] }, message] } })
    ]
    const acc = OpenAiResponsesStream.make()
    for (const e of two) acc.push(e)
    const response = acc.snapshot()
    assert.deepStrictEqual(streamedItemsOf(response), [{ ...message, content: [{ type: "output_text", text: "Second.", annotations: [] }] }])
  })
})

describe("Gemini: grounding and URL context metadata add up across chunks", () => {
  const chunk = (text: string, fields: object): GeminiWire.GenerateContentResponse =>
    ({ candidates: [{ content: { role: "model", parts: [{ text }] }, ...fields }] }) as GeminiWire.GenerateContentResponse
  const web = (n: number) => ({ web: { uri: `https://example.com/${n}`, title: `Source ${n}` } })
  const support = (start: number, end: number, text: string, indices: ReadonlyArray<number>) => ({ segment: { startIndex: start, endIndex: end, text }, groundingChunkIndices: indices })
  const candidateOf = (chunks: ReadonlyArray<GeminiWire.GenerateContentResponse>): Record<string, unknown> => {
    const result = run(GeminiStream.make(), chunks)
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    return result.success.candidates?.[0] as unknown as Record<string, unknown>
  }

  it("chunks that send only what is new: every source, support and query is kept, once", () => {
    const candidate = candidateOf([
      chunk("Oslo is 12°C. ", { groundingMetadata: { webSearchQueries: ["oslo weather"], groundingChunks: [web(0)], groundingSupports: [support(0, 14, "Oslo is 12°C.", [0])] } }),
      chunk("Bergen rains.", { groundingMetadata: { webSearchQueries: ["oslo weather", "bergen weather"], groundingChunks: [web(1)], groundingSupports: [support(14, 27, "Bergen rains.", [1])], searchEntryPoint: { renderedContent: "<div/>" } }, finishReason: "STOP" })
    ])
    assert.deepStrictEqual(candidate["groundingMetadata"], {
      webSearchQueries: ["oslo weather", "bergen weather"],
      groundingChunks: [web(0), web(1)],
      groundingSupports: [support(0, 14, "Oslo is 12°C.", [0]), support(14, 27, "Bergen rains.", [1])],
      searchEntryPoint: { renderedContent: "<div/>" }
    })
  })

  it("chunks that resend all so far: the last, without duplicates", () => {
    const first = { webSearchQueries: ["oslo weather"], groundingChunks: [web(0)], groundingSupports: [support(0, 14, "Oslo is 12°C.", [0])] }
    const all = { webSearchQueries: ["oslo weather"], groundingChunks: [web(0), web(1)], groundingSupports: [support(0, 14, "Oslo is 12°C.", [0]), support(14, 27, "Bergen rains.", [1])] }
    const candidate = candidateOf([chunk("Oslo is 12°C. ", { groundingMetadata: first }), chunk("Bergen rains.", { groundingMetadata: all, finishReason: "STOP" })])
    assert.deepStrictEqual(candidate["groundingMetadata"], all)
  })

  it("metadata only an early chunk carried is kept; a later chunk's fields are added to it", () => {
    const candidate = candidateOf([
      chunk("A", { groundingMetadata: { groundingChunks: [web(0)], webSearchQueries: ["q"] } }),
      chunk("B", { groundingMetadata: { searchEntryPoint: { renderedContent: "<div/>" } } }),
      chunk("", { finishReason: "STOP" })
    ])
    assert.deepStrictEqual(candidate["groundingMetadata"], { groundingChunks: [web(0)], webSearchQueries: ["q"], searchEntryPoint: { renderedContent: "<div/>" } })
  })

  it("urlContextMetadata, in either spelling: each URL's status kept once", () => {
    const url = (n: number) => ({ retrievedUrl: `https://example.com/${n}`, urlRetrievalStatus: "URL_RETRIEVAL_STATUS_SUCCESS" })
    const candidate = candidateOf([
      chunk("A", { urlContextMetadata: { urlMetadata: [url(0)] } }),
      chunk("B", { urlContextMetadata: { urlMetadata: [url(1), url(0)] }, finishReason: "STOP" })
    ])
    assert.deepStrictEqual(candidate["urlContextMetadata"], { urlMetadata: [url(0), url(1)] })
    const snake = candidateOf([
      chunk("A", { url_context_metadata: { url_metadata: [url(0)] } }),
      chunk("B", { url_context_metadata: { url_metadata: [url(1)] }, finish_reason: "STOP" })
    ])
    assert.deepStrictEqual(snake["url_context_metadata"], { url_metadata: [url(0), url(1)] })
  })
})
