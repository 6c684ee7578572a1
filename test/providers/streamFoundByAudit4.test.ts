/**
 * Stream readers, fourth audit: Responses items the stream built that the
 * terminal response's output leaves out (a shorter output, another item in
 * its place), and Gemini chunkings that must add up to the response they
 * stand for.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Result } from "effect"
import { Message } from "../../src/index.js"
import { Gemini, GeminiStream, type GeminiWire, OpenAiResponses, OpenAiResponsesStream, type OpenAiResponsesWire } from "../../src/providers/index.js"
import { bool, intBetween, text } from "../arbitraries.js"

type Event = OpenAiResponsesWire.StreamEvent

// the shapes of openai-node's recorded stream (tests/lib/ResponseStream.test.ts, "reasoning works"): item_id and
// sequence_number on every event
const base = { id: "resp_reason_1", object: "response", created_at: 1741476542, model: "o4-mini" }
let seq = 0
const ev = (type: string, rest: object): Event => ({ type, sequence_number: seq++, ...rest }) as unknown as Event
const created = (): Event => ev("response.created", { response: { ...base, status: "in_progress", output: [] } })
const terminal = (type: string, status: string, output: ReadonlyArray<object>, rest: object = {}): Event =>
  ev(type, { response: { ...base, status, output, ...rest } })

const reasoning = { id: "r1", type: "reasoning", summary: [], status: "in_progress" }
const finalReasoning = { ...reasoning, status: "completed", content: [{ type: "reasoning_text", text: "Chain: Step 1. Step 2." }] }
const message = { id: "msg_2", type: "message", role: "assistant", status: "in_progress", content: [] }
const finalMessage = { ...message, status: "completed", content: [{ type: "output_text", text: "The answer is 42", annotations: [] }] }

/** The reasoning item (closed) and the message (closed when `closeMessage`), as the recorded stream sends them. */
const streamed = (closeMessage: boolean): ReadonlyArray<Event> => [
  created(),
  ev("response.output_item.added", { output_index: 0, item: reasoning }),
  ev("response.content_part.added", { output_index: 0, item_id: "r1", content_index: 0, part: { type: "reasoning_text", text: "" } }),
  ev("response.reasoning_text.delta", { output_index: 0, item_id: "r1", content_index: 0, delta: "Chain: Step 1. " }),
  ev("response.reasoning_text.delta", { output_index: 0, item_id: "r1", content_index: 0, delta: "Step 2." }),
  ev("response.output_item.done", { output_index: 0, item: finalReasoning }),
  ev("response.output_item.added", { output_index: 1, item: message }),
  ev("response.content_part.added", { output_index: 1, item_id: "msg_2", content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
  ev("response.output_text.delta", { output_index: 1, item_id: "msg_2", content_index: 0, delta: "The answer is ", logprobs: [] }),
  ev("response.output_text.delta", { output_index: 1, item_id: "msg_2", content_index: 0, delta: "42", logprobs: [] }),
  ...(closeMessage
    ? [
      ev("response.output_text.done", { output_index: 1, item_id: "msg_2", content_index: 0, text: "The answer is 42", logprobs: [] }),
      ev("response.output_item.done", { output_index: 1, item: finalMessage })
    ]
    : [])
]

const openMessage = { ...message, content: [{ type: "output_text", text: "The answer is 42", annotations: [] }] }

const success = (events: ReadonlyArray<Event>): OpenAiResponsesWire.Response => {
  const acc = OpenAiResponsesStream.make()
  for (const e of events) acc.push(e)
  const result = acc.done()
  if (Result.isFailure(result)) return assert.fail(result.failure.message)
  return result.success
}

const streamedItemsOf = (r: unknown): unknown => (r as { readonly streamed_items?: unknown }).streamed_items

describe("Responses stream: items the terminal output leaves out are kept as streamed_items", () => {
  it("a shorter response.completed output wins, and the item streamed past its end is kept as streamed_items", () => {
    const response = success([...streamed(true), terminal("response.completed", "completed", [finalReasoning])])
    assert.deepStrictEqual<unknown>(response.output, [finalReasoning])
    assert.deepStrictEqual(streamedItemsOf(response), [finalMessage])
    // an output that has every streamed item leaves nothing beside it
    assert.isUndefined(streamedItemsOf(success([...streamed(true), terminal("response.completed", "completed", [finalReasoning, finalMessage])])))
  })

  it("an item that never got output_item.done is kept as the stream built it", () => {
    const response = success([...streamed(false), terminal("response.incomplete", "incomplete", [finalReasoning], { incomplete_details: { reason: "max_output_tokens" } })])
    assert.deepStrictEqual<unknown>(response.output, [finalReasoning])
    assert.deepStrictEqual(streamedItemsOf(response), [openMessage])
  })

  it("response.failed: the error's partial response keeps the items its output leaves out", () => {
    const acc = OpenAiResponsesStream.make()
    for (const e of [...streamed(false), terminal("response.failed", "failed", [finalReasoning], { error: { code: "server_error", message: "The response failed." } })]) acc.push(e)
    const result = acc.done()
    if (Result.isSuccess(result)) return assert.fail("expected a failure")
    assert.strictEqual(result.failure._tag, "ProviderStreamError")
    assert.deepStrictEqual(streamedItemsOf(result.failure.partial), [openMessage])
  })

  it("an item the terminal output replaces by another at its place (another id) is kept; one it has elsewhere, found by its id, is not", () => {
    const other = { ...finalMessage, id: "msg_3", content: [{ type: "output_text", text: "Another answer.", annotations: [] }] }
    const response = success([...streamed(true), terminal("response.completed", "completed", [finalReasoning, other])])
    assert.deepStrictEqual<unknown>(response.output, [finalReasoning, other])
    assert.deepStrictEqual(streamedItemsOf(response), [finalMessage])
    // the same items in another order: each is in the output, by its id
    const reordered = success([...streamed(true), terminal("response.completed", "completed", [finalMessage, finalReasoning])])
    assert.deepStrictEqual<unknown>(reordered.output, [finalMessage, finalReasoning])
    assert.isUndefined(streamedItemsOf(reordered))
  })

  it.effect("the adapter reads the terminal output as the message, and keeps streamed_items in providerData", () =>
    Effect.gen(function*() {
      const { value } = yield* OpenAiResponses.fromEvents([...streamed(true), terminal("response.completed", "completed", [finalReasoning])])
      assert.notInclude(JSON.stringify(value.message), "The answer is 42")
      assert.deepStrictEqual(value.providerData?.["streamed_items"], [finalMessage])
    }))
})

describe("Responses stream: annotations a final value replaced are kept", () => {
  const message = { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] }
  const part = { type: "output_text", text: "", annotations: [] }
  const citation = { type: "url_citation", url: "https://example.com/oslo", title: "Oslo weather", start_index: 0, end_index: 13 }
  const events = (finalPart: object): ReadonlyArray<Event> => {
    const finalMessage = { ...message, status: "completed", content: [finalPart] }
    return [
      created(),
      ev("response.output_item.added", { output_index: 0, item: message }),
      ev("response.content_part.added", { output_index: 0, item_id: "msg_1", content_index: 0, part }),
      ev("response.output_text.delta", { output_index: 0, item_id: "msg_1", content_index: 0, delta: "12°C in Oslo.", logprobs: [] }),
      ev("response.output_text.annotation.added", { output_index: 0, item_id: "msg_1", content_index: 0, annotation_index: 0, annotation: citation }),
      ev("response.output_text.done", { output_index: 0, item_id: "msg_1", content_index: 0, text: "12°C in Oslo.", logprobs: [] }),
      ev("response.content_part.done", { output_index: 0, item_id: "msg_1", content_index: 0, part: finalPart }),
      ev("response.output_item.done", { output_index: 0, item: finalMessage }),
      terminal("response.completed", "completed", [finalMessage])
    ]
  }
  const contentOf = (r: OpenAiResponsesWire.Response): unknown => (r.output[0] as { readonly content: unknown }).content

  it("a final part without the streamed annotations wins, and keeps them as streamed_annotations", () => {
    const finalPart = { type: "output_text", text: "12°C in Oslo.", annotations: [] }
    assert.deepStrictEqual(contentOf(success(events(finalPart))), [{ ...finalPart, streamed_annotations: [citation] }])
    // a final part with the annotations the events added leaves nothing beside it
    const same = { ...finalPart, annotations: [citation] }
    assert.deepStrictEqual(contentOf(success(events(same))), [same])
  })

  it("the same, in a snapshot after content_part.done", () => {
    const finalPart = { type: "output_text", text: "12°C in Oslo.", annotations: [] }
    const acc = OpenAiResponsesStream.make()
    for (const e of events(finalPart).slice(0, 7)) acc.push(e)
    assert.deepStrictEqual((acc.snapshot()?.output[0] as { readonly content: unknown }).content, [{ ...finalPart, streamed_annotations: [citation] }])
  })
})

describe("Responses stream: parts a final item has no place for are kept", () => {
  const message = { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] }
  const textPart = { type: "output_text", text: "", annotations: [] }

  it("an output_item.done without the content the stream built wins, and keeps the streamed parts as streamed_content", () => {
    const done = { ...message, status: "completed" }
    const response = success([
      created(),
      ev("response.output_item.added", { output_index: 0, item: message }),
      ev("response.content_part.added", { output_index: 0, item_id: "msg_1", content_index: 0, part: textPart }),
      ev("response.output_text.delta", { output_index: 0, item_id: "msg_1", content_index: 0, delta: "Hello!" }),
      ev("response.output_item.done", { output_index: 0, item: done }),
      // an empty terminal output keeps what was streamed
      terminal("response.completed", "completed", [])
    ])
    assert.deepStrictEqual<unknown>(response.output, [{ ...done, streamed_content: [{ ...textPart, text: "Hello!" }] }])
  })

  it("a terminal item with fewer summary parts wins, and keeps the others as streamed_summary", () => {
    const reasoningItem = { id: "rs_1", type: "reasoning", summary: [] }
    const part = { type: "summary_text", text: "" }
    const final = { ...reasoningItem, summary: [{ type: "summary_text", text: "**Planning** the answer." }] }
    const response = success([
      created(),
      ev("response.output_item.added", { output_index: 0, item: reasoningItem }),
      ev("response.reasoning_summary_part.added", { output_index: 0, item_id: "rs_1", summary_index: 0, part }),
      ev("response.reasoning_summary_text.delta", { output_index: 0, item_id: "rs_1", summary_index: 0, delta: "**Planning** the answer." }),
      ev("response.reasoning_summary_part.added", { output_index: 0, item_id: "rs_1", summary_index: 1, part }),
      ev("response.reasoning_summary_text.delta", { output_index: 0, item_id: "rs_1", summary_index: 1, delta: "**Checking** units." }),
      terminal("response.completed", "completed", [final])
    ])
    assert.deepStrictEqual<unknown>(response.output, [{ ...final, streamed_summary: [{ type: "summary_text", text: "**Checking** units." }] }])
    // a final item with every part leaves nothing beside it
    const whole = { ...reasoningItem, summary: [{ type: "summary_text", text: "**Planning** the answer." }, { type: "summary_text", text: "**Checking** units." }] }
    const complete = success([
      created(),
      ev("response.output_item.added", { output_index: 0, item: reasoningItem }),
      ev("response.reasoning_summary_part.added", { output_index: 0, item_id: "rs_1", summary_index: 0, part }),
      ev("response.reasoning_summary_text.delta", { output_index: 0, item_id: "rs_1", summary_index: 0, delta: "**Planning** the answer." }),
      ev("response.reasoning_summary_part.added", { output_index: 0, item_id: "rs_1", summary_index: 1, part }),
      ev("response.reasoning_summary_text.delta", { output_index: 0, item_id: "rs_1", summary_index: 1, delta: "**Checking** units." }),
      terminal("response.completed", "completed", [whole])
    ])
    assert.deepStrictEqual<unknown>(complete.output, [whole])
  })
})

describe("Gemini stream: any chunking of a response adds up to that response", () => {
  type Part = Record<string, unknown>

  /** One part of a response, and how the stream sends it: `kind` 0-1 plain text, 2 signed text, 3 a call, 4 a call whose arguments stream. */
  const segment = Arbitrary.all({ kind: intBetween(0, 4), text, thought: bool, signed: bool, withId: bool, cuts: Arbitrary.array(intBetween(0, 1000), { maxLength: 3 }) })
  type Segment = typeof segment extends Arbitrary.Arbitrary<infer A> ? A : never

  /** `whole` cut at the points (per mille of its length), in order: the pieces join back into it. */
  const piecesOf = (whole: string, cuts: ReadonlyArray<number>): Array<string> => {
    const at = [...new Set(cuts.map((c) => Math.round((c / 1000) * whole.length)))].sort((a, b) => a - b)
    const out: Array<string> = []
    let from = 0
    for (const p of at) {
      out.push(whole.slice(from, p))
      from = p
    }
    out.push(whole.slice(from))
    return out
  }

  /** The response (plain text in one part, as `generateContent` returns it) and the parts the stream sends for it. */
  const responseParts = (segments: ReadonlyArray<Segment>, finalSignature: boolean): { readonly whole: Array<Part>; readonly streamed: Array<Part> } => {
    const whole: Array<Part> = []
    const streamed: Array<Part> = []
    segments.forEach((seg, n) => {
      const thought = seg.thought ? { thought: true } : {}
      const signature = seg.signed ? { thoughtSignature: `c2lnXz${n}=` } : {}
      const id = seg.withId ? { id: `call_${n}` } : {}
      switch (seg.kind) {
        case 0:
        case 1: {
          const last = whole[whole.length - 1]
          if (last !== undefined && Object.keys(last).every((k) => k === "text" || k === "thought") && (last["thought"] === true) === seg.thought) {
            last["text"] = `${last["text"] as string}${seg.text}`
          } else whole.push({ text: seg.text, ...thought })
          for (const piece of piecesOf(seg.text, seg.cuts)) streamed.push({ text: piece, ...thought })
          return
        }
        case 2: {
          const part = { text: seg.text, ...thought, thoughtSignature: `c2lnXz${n}=` }
          whole.push(part)
          streamed.push({ ...part })
          return
        }
        case 3: {
          whole.push({ functionCall: { name: "get_weather", ...id, args: { city: seg.text, days: n } }, ...signature })
          streamed.push({ functionCall: { name: "get_weather", ...id, args: { city: seg.text, days: n } }, ...signature })
          return
        }
        case 4: {
          // Vertex AI's streamFunctionCallArguments: the name first, then the arguments by JSON path
          whole.push({ functionCall: { name: "search_web", ...id, args: { query: seg.text, limit: n } }, ...signature })
          streamed.push({ functionCall: { name: "search_web", ...id, willContinue: true }, ...signature })
          const pieces = piecesOf(seg.text, seg.cuts)
          pieces.forEach((piece, k) => {
            const more = k < pieces.length - 1 ? { willContinue: true } : {}
            streamed.push({ functionCall: { partialArgs: [{ jsonPath: "$.query", stringValue: piece, ...more }], willContinue: true } })
          })
          streamed.push({ functionCall: { partialArgs: [{ jsonPath: "$.limit", numberValue: n }] } })
          return
        }
        default:
          return assert.fail(`no segment kind ${seg.kind}`)
      }
    })
    if (finalSignature) {
      // Gemini sends the signature of a plain answer on an empty text part in the last chunk
      whole.push({ text: "", thoughtSignature: "ZmluYWw=" })
      streamed.push({ text: "", thoughtSignature: "ZmluYWw=" })
    }
    return { whole, streamed }
  }

  const top = (k: number) => ({ modelVersion: "gemini-2.5-flash", responseId: "resp_g1", usageMetadata: { promptTokenCount: 12, candidatesTokenCount: k, totalTokenCount: 12 + k } })

  /** The stream's parts in chunks cut at the points (indices into the parts), the last chunk with the finish reason. */
  const chunked = (parts: ReadonlyArray<Part>, cuts: ReadonlyArray<number>): Array<GeminiWire.StreamEvent> => {
    const at = [...new Set(cuts.filter((c) => c > 0 && c < parts.length))].sort((a, b) => a - b)
    const bounds = [0, ...at, parts.length]
    const chunks: Array<GeminiWire.StreamEvent> = []
    for (let k = 0; k + 1 < bounds.length; k++) {
      const last = k + 2 === bounds.length
      const candidate = { index: 0, content: { role: "model", parts: parts.slice(bounds[k], bounds[k + 1]) }, ...(last ? { finishReason: "STOP" } : {}) }
      chunks.push({ candidates: [candidate], ...top(k + 1) } as unknown as GeminiWire.StreamEvent)
    }
    return chunks
  }

  it.effect.prop(
    "the accumulated response is the whole response, and reads as fromResponse reads it",
    [Arbitrary.array(segment, { minLength: 1, maxLength: 6 }), bool, Arbitrary.array(intBetween(0, 40), { maxLength: 8 })],
    ([segments, finalSignature, cuts]) =>
      Effect.gen(function*() {
        const { streamed, whole } = responseParts(segments, finalSignature)
        const chunks = chunked(streamed, cuts)
        const response = { candidates: [{ index: 0, content: { role: "model", parts: whole }, finishReason: "STOP" }], ...top(chunks.length) }
        const accumulated = yield* GeminiStream.fromEvents(chunks)
        assert.deepStrictEqual<unknown>(accumulated, response)
        const read = yield* Gemini.fromEvents(chunks)
        const direct = yield* Gemini.fromResponse(response as unknown as GeminiWire.GenerateContentResponse)
        assert.deepStrictEqual(read, direct)
      }),
    { arbitrary: { runs: 300 } }
  )
})

describe("Responses writer: streamed_annotations, streamed_content and streamed_summary are not sent back", () => {
  it.effect("they stay in the model, and are left out of the request, reported", () =>
    Effect.gen(function*() {
      const reasoningItem = { id: "rs_1", type: "reasoning", summary: [] }
      const summaryPart = { type: "summary_text", text: "" }
      const message = { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] }
      const citation = { type: "url_citation", url: "https://example.com/oslo", title: "Oslo weather", start_index: 0, end_index: 13 }
      const finalReasoning = { ...reasoningItem, summary: [{ type: "summary_text", text: "**Planning**" }] }
      const finalMessage = { ...message, status: "completed", content: [{ type: "output_text", text: "12°C in Oslo.", annotations: [] }] }
      const emptyMessage = { ...message, id: "msg_2", status: "completed" }
      const { value } = yield* OpenAiResponses.fromEvents([
        created(),
        ev("response.output_item.added", { output_index: 0, item: reasoningItem }),
        ev("response.reasoning_summary_part.added", { output_index: 0, summary_index: 0, part: summaryPart }),
        ev("response.reasoning_summary_text.delta", { output_index: 0, summary_index: 0, delta: "**Planning**" }),
        ev("response.reasoning_summary_part.added", { output_index: 0, summary_index: 1, part: summaryPart }),
        ev("response.reasoning_summary_text.delta", { output_index: 0, summary_index: 1, delta: "**Checking**" }),
        ev("response.output_item.done", { output_index: 0, item: finalReasoning }),
        ev("response.output_item.added", { output_index: 1, item: message }),
        ev("response.content_part.added", { output_index: 1, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
        ev("response.output_text.delta", { output_index: 1, content_index: 0, delta: "12°C in Oslo." }),
        ev("response.output_text.annotation.added", { output_index: 1, content_index: 0, annotation_index: 0, annotation: citation }),
        ev("response.output_item.done", { output_index: 1, item: finalMessage }),
        ev("response.output_item.added", { output_index: 2, item: { ...message, id: "msg_2" } }),
        ev("response.content_part.added", { output_index: 2, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
        ev("response.output_text.delta", { output_index: 2, content_index: 0, delta: "Anything else?" }),
        ev("response.output_item.done", { output_index: 2, item: emptyMessage }),
        terminal("response.completed", "completed", [finalReasoning, finalMessage, emptyMessage])
      ])
      const read = JSON.stringify(value.message)
      for (const name of ["streamed_annotations", "streamed_content", "streamed_summary"]) assert.include(read, name)
      const written = yield* OpenAiResponses.toMessages([Message.user("Weather in Oslo?"), value.message])
      assert.notInclude(JSON.stringify(written.value), "streamed_")
      assert.deepStrictEqual(written.warnings.map((w) => w._tag), ["DroppedContent", "DroppedContent", "DroppedContent"])
    }))
})
