/**
 * Stream readers, sixth audit: Gemini citations resent by later chunks are
 * kept once, Responses items without ids pair with the terminal item at
 * their own output_index, and an Anthropic signature_delta carries the
 * whole signature (a later one replaces it, as the official SDKs assign it).
 */
import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import {
  AnthropicStream,
  type AnthropicWire,
  GeminiStream,
  type GeminiWire,
  OpenAiResponsesStream,
  type OpenAiResponsesWire
} from "../../src/providers/index.js"

const run = <E, R>(acc: { readonly push: (e: E) => void; readonly done: () => Result.Result<R, { readonly _tag: string; readonly message: string }> }, events: ReadonlyArray<E>) => {
  for (const e of events) acc.push(e)
  return acc.done()
}

describe("Gemini: citationMetadata.citations add up without duplicates", () => {
  const chunk = (text: string, fields: object): GeminiWire.GenerateContentResponse =>
    ({ candidates: [{ content: { role: "model", parts: [{ text }] }, ...fields }] }) as GeminiWire.GenerateContentResponse
  const cite = (n: number) => ({ startIndex: 10 * n, endIndex: 10 * n + 9, uri: `https://example.com/${n}`, license: "mit" })
  const citationsOf = (chunks: ReadonlyArray<GeminiWire.GenerateContentResponse>): unknown => {
    const result = run(GeminiStream.make(), chunks)
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    return result.success.candidates?.[0]?.citationMetadata
  }

  it("chunks that resend the citations so far: each kept once, in order", () => {
    assert.deepStrictEqual(citationsOf([
      chunk("a", { citationMetadata: { citations: [cite(0)] } }),
      chunk("b", { citationMetadata: { citations: [cite(0), cite(1)] } }),
      chunk("c", { citationMetadata: { citations: [cite(0), cite(1), cite(2)] }, finishReason: "STOP" })
    ]), { citations: [cite(0), cite(1), cite(2)] })
  })

  it("chunks that send only the new ones are still appended (pinned)", () => {
    assert.deepStrictEqual(citationsOf([
      chunk("a", { citationMetadata: { citations: [cite(0)] } }),
      chunk("b", { citationMetadata: { citations: [cite(1)] }, finishReason: "STOP" })
    ]), { citations: [cite(0), cite(1)] })
  })

  it("a chunk that cites one source twice keeps both; a resend of both adds neither", () => {
    assert.deepStrictEqual(citationsOf([
      chunk("a", { citationMetadata: { citations: [cite(0), cite(0)] } }),
      chunk("b", { citationMetadata: { citations: [cite(0), cite(0), cite(1)] }, finishReason: "STOP" })
    ]), { citations: [cite(0), cite(0), cite(1)] })
  })

  it("snake_case chunks resending citations: kept once, under the spelling that came", () => {
    const result = run(GeminiStream.make(), [
      chunk("a", { citation_metadata: { citations: [cite(0)] } }),
      chunk("b", { citation_metadata: { citations: [cite(0), cite(1)] }, finish_reason: "STOP" })
    ])
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual((result.success.candidates?.[0] as unknown as Record<string, unknown>)["citation_metadata"], { citations: [cite(0), cite(1)] })
  })

  it("a citation changed after its chunk was pushed changes nothing in the accumulator", () => {
    const c = cite(0)
    const acc = GeminiStream.make()
    acc.push(chunk("a", { citationMetadata: { citations: [c] }, finishReason: "STOP" }))
    c.uri = "https://changed.example"
    const result = acc.done()
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual(result.success.candidates?.[0]?.citationMetadata, { citations: [cite(0)] })
  })

  it("a long answer resending all its citations in every chunk: each citation read a bounded number of times", () => {
    // counted, not timed: a citation read once per later chunk (or compared against every one kept) is read ~n times
    const reads = { n: 0 }
    const counted = (i: number): object =>
      new Proxy(cite(i), {
        get: (target, key, receiver) => {
          reads.n++
          return Reflect.get(target, key, receiver)
        }
      })
    const n = 2_000
    const all = Array.from({ length: n }, (_, i) => counted(i))
    const acc = GeminiStream.make()
    // each chunk resends the last 50 and adds one: a window, so the input stays linear and a quadratic merge would show
    for (let i = 0; i < n; i++) {
      acc.push(chunk("w ", { citationMetadata: { citations: all.slice(Math.max(0, i - 49), i + 1) }, ...(i === n - 1 ? { finishReason: "STOP" } : {}) }))
    }
    const before = reads.n
    const result = acc.done()
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    const citations = result.success.candidates?.[0]?.citationMetadata?.citations
    assert.strictEqual(citations?.length, n)
    assert.deepStrictEqual(citations?.[n - 1], cite(n - 1))
    // the chunks hold 50 n citations: each read a bounded number of times while pushed
    assert.isBelow(before, 50 * n * 12)
  }, 120_000)
})

describe("Responses: an item without an id pairs with the terminal item at its own output_index first", () => {
  let seq = 0
  const ev = (type: string, rest: object): OpenAiResponsesWire.StreamEvent => ({ type, sequence_number: seq++, ...rest }) as unknown as OpenAiResponsesWire.StreamEvent
  const base = { id: "resp_1", object: "response", created_at: 1, model: "local-model" }
  const message = (text: string, extra: object = {}) => ({ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }], ...extra })
  // two id-less messages: the first's deltas built "Hel" and its done says "Hello", the second streamed "Hello" whole
  const streamed = (i: number, deltas: string, final: object) => [
    ev("response.output_item.added", { output_index: i, item: { type: "message", role: "assistant", status: "in_progress", content: [] } }),
    ev("response.content_part.added", { output_index: i, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
    ev("response.output_text.delta", { output_index: i, content_index: 0, delta: deltas }),
    ev("response.output_item.done", { output_index: i, item: final })
  ]

  it("the terminal item at its place keeps what its deltas built, though an equal one sits elsewhere", () => {
    // the terminal output's first item has a field the done item lacked; its second equals both streamed items
    const first = message("Hello", { phase: "final_answer" })
    const result = run(OpenAiResponsesStream.make(), [
      ev("response.created", { response: { ...base, status: "in_progress", output: [] } }),
      ...streamed(0, "Hel", message("Hello")),
      ...streamed(1, "Hello", message("Hello")),
      ev("response.completed", { response: { ...base, status: "completed", output: [first, message("Hello")] } })
    ])
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    // what the first item's deltas built stays on the first item, where output_index 0 puts it
    assert.deepStrictEqual<unknown>(result.success.output, [
      { ...first, content: [{ type: "output_text", text: "Hello", annotations: [], streamed_text: "Hel" }] },
      message("Hello")
    ])
    assert.isUndefined((result.success as unknown as Record<string, unknown>)["streamed_items"])
  })

  it("an item the terminal output has only elsewhere is still found there (pinned)", () => {
    const result = run(OpenAiResponsesStream.make(), [
      ev("response.created", { response: { ...base, status: "in_progress", output: [] } }),
      ...streamed(0, "Hel", message("Hello")),
      ev("response.completed", { response: { ...base, status: "completed", output: [{ type: "reasoning", summary: [] }, message("Hello")] } })
    ])
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual<unknown>(result.success.output, [
      { type: "reasoning", summary: [] },
      { ...message("Hello"), content: [{ type: "output_text", text: "Hello", annotations: [], streamed_text: "Hel" }] }
    ])
    assert.isUndefined((result.success as unknown as Record<string, unknown>)["streamed_items"])
  })
})

describe("Anthropic: a signature_delta carries the whole signature, as the official SDKs read it", () => {
  const start: AnthropicWire.StreamEvent = {
    type: "message_start",
    message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } }
  } as AnthropicWire.StreamEvent
  const ev = (e: object): AnthropicWire.StreamEvent => e as AnthropicWire.StreamEvent
  const thinking = (...deltas: ReadonlyArray<object>) => [
    start,
    ev({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }),
    ...deltas.map((delta) => ev({ type: "content_block_delta", index: 0, delta })),
    ev({ type: "content_block_stop", index: 0 }),
    ev({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5 } }),
    ev({ type: "message_stop" })
  ]

  it("several signature_deltas: the stream completes, and the block has the last (assigned, never appended)", () => {
    const result = run(AnthropicStream.make(), thinking(
      { type: "thinking_delta", thinking: "Step 1." },
      { type: "signature_delta", signature: "EqQBCgIYAh" },
      { type: "signature_delta", signature: "IMxyz" },
      { type: "signature_delta", signature: "EqQBCgIYAhIM9" }
    ))
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual<unknown>(result.success.content, [{ type: "thinking", thinking: "Step 1.", signature: "EqQBCgIYAhIM9" }])
  })

  it("a signature_delta on a text block is still a protocol error (pinned)", () => {
    const result = run(AnthropicStream.make(), [
      start,
      ev({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      ev({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQB" } }),
      ev({ type: "content_block_stop", index: 0 }),
      ev({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5 } }),
      ev({ type: "message_stop" })
    ])
    if (Result.isSuccess(result)) return assert.fail("expected a protocol error")
    assert.strictEqual(result.failure._tag, "StreamProtocolError")
  })
})
