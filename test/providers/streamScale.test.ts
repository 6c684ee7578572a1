/**
 * Stream readers at scale, checked by counting work rather than timing it:
 * while a stream is read, the lengths of the arrays searched
 * (`includes`, `indexOf`, `find`...), the characters given to `JSON.parse`
 * and the characters of the strings scanned (`indexOf`, `includes`, `trim`)
 * are summed. A reader that searches a list per event, parses the text
 * accumulated so far on every delta or rescans a buffered line shows it as
 * work that grows faster than the stream: reading four times the stream
 * must cost at most about four times the work.
 *
 * The first case is the one found this way: OpenAI Chat kept the other
 * finish reasons of a choice in a list searched on every chunk, so a server
 * that sends a new finish reason on each chunk made the reader quadratic.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import * as AnthropicStream from "../../src/providers/AnthropicStream.js"
import * as GeminiStream from "../../src/providers/GeminiStream.js"
import * as OpenAiChatStream from "../../src/providers/OpenAiChatStream.js"
import type * as OpenAiChatWire from "../../src/providers/OpenAiChatWire.js"
import * as OpenAiResponsesStream from "../../src/providers/OpenAiResponsesStream.js"
import type * as OpenAiResponsesWire from "../../src/providers/OpenAiResponsesWire.js"

interface Work {
  /** Total length of the arrays searched. */
  searched: number
  /** Characters given to `JSON.parse`. */
  parsed: number
  /** Characters of the strings scanned. */
  scanned: number
  /** Elements iterated over arrays (`for...of`, spreading, `Array.from`). */
  iterated: number
}

type Method = (this: unknown, ...args: Array<unknown>) => unknown

/** Runs `run` (synchronous) with the searching methods counted; the originals are back afterwards, whatever happens. */
const workOf = (run: () => void): Work => {
  const work: Work = { searched: 0, parsed: 0, scanned: 0, iterated: 0 }
  const restore: Array<() => void> = []
  const wrap = (target: object, name: string, count: (self: unknown, args: ReadonlyArray<unknown>) => void): void => {
    const holder = target as Record<string, Method>
    const original = holder[name]!
    holder[name] = function(this: unknown, ...args: Array<unknown>) {
      count(this, args)
      return original.apply(this, args)
    }
    restore.push(() => {
      holder[name] = original
    })
  }
  for (const name of ["includes", "indexOf", "lastIndexOf", "find", "findIndex", "findLast", "findLastIndex", "some", "every", "filter"]) {
    wrap(Array.prototype, name, (self) => {
      work.searched += (self as ReadonlyArray<unknown>).length
    })
  }
  for (const name of ["includes", "indexOf", "lastIndexOf", "trim", "startsWith", "endsWith"]) {
    wrap(String.prototype, name, (self) => {
      work.scanned += String(self).length
    })
  }
  wrap(JSON, "parse", (_, args) => {
    work.parsed += typeof args[0] === "string" ? args[0].length : 0
  })
  const arrays = Array.prototype as unknown as { [Symbol.iterator]: (this: ReadonlyArray<unknown>) => Iterator<unknown> }
  const iterate = arrays[Symbol.iterator]
  arrays[Symbol.iterator] = function(this: ReadonlyArray<unknown>) {
    const inner = iterate.call(this)
    const counted: IterableIterator<unknown> = {
      next: () => {
        const step = inner.next()
        if (step.done !== true) work.iterated++
        return step
      },
      [Symbol.iterator]: () => counted
    }
    return counted
  }
  restore.push(() => {
    arrays[Symbol.iterator] = iterate
  })
  try {
    run()
  } finally {
    for (const r of restore.reverse()) r()
  }
  return work
}

/** Work at size `n` and at `4n`: each kind of work may grow 4x, with a little slack for what does not scale. */
const assertLinear = (label: string, at: (n: number) => () => void, n = 500): void => {
  const small = workOf(at(n))
  const large = workOf(at(4 * n))
  for (const key of ["searched", "parsed", "scanned", "iterated"] as const) {
    assert.isAtMost(large[key], 5 * small[key] + 2_000, `${label}: ${key} grew from ${small[key]} to ${large[key]} at four times the size`)
  }
}

// ---------------------------------------------------------------------------
// OpenAI Chat: a new finish reason on every chunk
// ---------------------------------------------------------------------------

const chunk = (delta: OpenAiChatWire.Delta, finish_reason: string | null): OpenAiChatWire.ChatCompletionChunk => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "gpt-4o",
  choices: [{ index: 0, delta, finish_reason }]
})

describe("OpenAI Chat: finish reasons", () => {
  it("a new finish reason on every chunk costs one lookup per chunk, not a search of those kept", () => {
    const n = 2_000
    const chunks = [chunk({ role: "assistant", content: "" }, null), ...Array.from({ length: n }, (_, k) => chunk({ content: "a" }, `reason_${k}`))]
    const acc = OpenAiChatStream.make()
    const work = workOf(() => {
      for (const c of chunks) acc.push(c)
    })
    // the list searched on every chunk held up to n reasons: n * n / 2 elements in all
    assert.isAtMost(work.searched, 4 * n)
    const result = acc.done()
    assert.strictEqual(result._tag, "Success")
    if (result._tag !== "Success") return
    const choice = result.success.choices[0] as unknown as { readonly finish_reason: string; readonly other_finish_reasons: ReadonlyArray<string> }
    assert.strictEqual(choice.finish_reason, "reason_0")
    assert.deepStrictEqual(choice.other_finish_reasons, Array.from({ length: n - 1 }, (_, k) => `reason_${k + 1}`))
  })

  it("other finish reasons stay in the order they came, each once, the first never among them", () => {
    const acc = OpenAiChatStream.make()
    for (const finish of [null, "stop", "length", "stop", "tool_calls", "length", "content_filter", "tool_calls"]) acc.push(chunk({ content: "a" }, finish))
    const result = acc.done()
    assert.strictEqual(result._tag, "Success")
    if (result._tag !== "Success") return
    const choice = result.success.choices[0] as unknown as { readonly finish_reason: string; readonly other_finish_reasons: ReadonlyArray<string> }
    assert.strictEqual(choice.finish_reason, "stop")
    assert.deepStrictEqual(choice.other_finish_reasons, ["length", "tool_calls", "content_filter"])
  })
})

// ---------------------------------------------------------------------------
// OpenAI Responses: output_item.done sent again and again for one item
// ---------------------------------------------------------------------------

/** Every event pushed to a fresh Responses accumulator, then what it read. */
const readResponses = (events: ReadonlyArray<OpenAiResponsesWire.StreamEvent>): ReturnType<OpenAiResponsesStream.Accumulator["done"]> => {
  const acc = OpenAiResponsesStream.make()
  for (const e of events) acc.push(e)
  return acc.done()
}

/** One message item, then `n` output_item.done for it, each with a part of the other type than the one before. */
const doneAgain = (n: number): Array<OpenAiResponsesWire.StreamEvent> => {
  const response = { id: "resp_1", object: "response", created_at: 1, model: "gpt-5", status: "in_progress", output: [] }
  const item = (status: string, part: object) => ({ id: "msg_1", type: "message", role: "assistant", status, content: [part] })
  const text = { type: "output_text", text: "a", annotations: [] }
  const refusal = { type: "refusal", refusal: "no" }
  return [
    { type: "response.created", response },
    { type: "response.output_item.added", output_index: 0, item: item("in_progress", text) },
    ...Array.from({ length: n }, (_, k) => ({ type: "response.output_item.done", output_index: 0, item: item("completed", k % 2 === 0 ? refusal : text) })),
    { type: "response.completed", response: { ...response, status: "completed" } }
  ] as unknown as Array<OpenAiResponsesWire.StreamEvent>
}

describe("OpenAI Responses: an item done again and again", () => {
  it("each replacement takes over the parts the item it replaces kept, rather than copying them", () => {
    assertLinear("done again", (n) => {
      const events = doneAgain(n)
      return () => readResponses(events)
    })
  })

  it("every part a later item had no place for is still kept, in order", () => {
    const n = 6
    const result = readResponses(doneAgain(n))
    assert.strictEqual(result._tag, "Success")
    if (result._tag !== "Success") return
    const item = result.success.output[0] as unknown as { readonly content: ReadonlyArray<{ readonly type: string }>; readonly streamed_content: ReadonlyArray<{ readonly type: string }> }
    // the last done item's part is the content; each earlier part was replaced by one of another type
    assert.deepStrictEqual(item.content.map((p) => p.type), ["output_text"])
    assert.deepStrictEqual(item.streamed_content.map((p) => p.type), ["output_text", "refusal", "output_text", "refusal", "output_text", "refusal"])
  })
})

/** `n` terminal events (a protocol error past the first), each with an output of one item of its own. */
const terminalAgain = (n: number): Array<OpenAiResponsesWire.StreamEvent> => {
  const response = { id: "resp_1", object: "response", created_at: 1, model: "gpt-5", status: "in_progress", output: [] }
  return [
    { type: "response.created", response },
    ...Array.from({ length: n }, (_, k) => ({
      type: "response.completed",
      response: { ...response, status: "completed", output: [{ id: `msg_${k}`, type: "message", role: "assistant", status: "completed", content: [] }] }
    }))
  ] as unknown as Array<OpenAiResponsesWire.StreamEvent>
}

describe("OpenAI Responses: terminal events again and again", () => {
  it("the items an earlier terminal output left are kept, not matched again by every later one", () => {
    assertLinear("terminal again", (n) => {
      const events = terminalAgain(n)
      return () => readResponses(events)
    })
  })

  it("each output a later one replaced is kept, in order, in the partial response", () => {
    const result = readResponses(terminalAgain(4))
    assert.strictEqual(result._tag, "Failure")
    if (result._tag !== "Failure") return
    assert.strictEqual(result.failure._tag, "StreamProtocolError")
    const partial = result.failure.partial as { readonly output: ReadonlyArray<{ readonly id: string }>; readonly streamed_items: ReadonlyArray<{ readonly id: string }> }
    assert.deepStrictEqual(partial.output.map((i) => i.id), ["msg_3"])
    assert.deepStrictEqual(partial.streamed_items.map((i) => i.id), ["msg_0", "msg_1", "msg_2"])
  })
})

// ---------------------------------------------------------------------------
// every reader, on the adversarial streams: many deltas, many fragments, many calls, one huge delta, awkward splits
// ---------------------------------------------------------------------------

const frame = (data: unknown, event?: string): string => `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`

/** A provider's stream as SSE text: `texts` text deltas, then calls (one per id), the first call's arguments in `fragments`. */
interface Shape {
  readonly name: string
  readonly make: () => { readonly feed: (chunk: string | Uint8Array) => void; readonly done: () => unknown }
  readonly fromSseStream: (body: Stream.Stream<string, string>, options: { readonly keepPartial: true }) => Effect.Effect<unknown, unknown>
  readonly render: (texts: ReadonlyArray<string>, ids: ReadonlyArray<string>, fragments: ReadonlyArray<string>) => string
}

const chat: Shape = {
  name: "OpenAI Chat",
  make: OpenAiChatStream.make,
  fromSseStream: (body, options) => OpenAiChatStream.fromSseStream(body, options),
  render: (texts, ids, fragments) => {
    const c = (delta: object, finish: string | null = null) => frame({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })
    let out = c({ role: "assistant", content: "" })
    for (const t of texts) out += c({ content: t })
    ids.forEach((id, i) => {
      out += c({ tool_calls: [{ index: i, id, type: "function", function: { name: "f", arguments: i === 0 ? "" : "{}" } }] })
    })
    for (const f of fragments) out += c({ tool_calls: [{ index: 0, function: { arguments: f } }] })
    return out + c({}, ids.length > 0 ? "tool_calls" : "stop") + "data: [DONE]\n\n"
  }
}

const anthropic: Shape = {
  name: "Anthropic",
  make: AnthropicStream.make,
  fromSseStream: (body, options) => AnthropicStream.fromSseStream(body, options),
  render: (texts, ids, fragments) => {
    const e = (data: { readonly type: string } & Record<string, unknown>) => frame(data, data.type)
    let out = e({ type: "message_start", message: { id: "m", type: "message", role: "assistant", model: "c", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } })
    let index = 0
    out += e({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } })
    for (const t of texts) out += e({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: t } })
    out += e({ type: "content_block_stop", index: index++ })
    out += e({ type: "content_block_start", index, content_block: { type: "text", text: "" } })
    texts.forEach((t, k) => {
      out += e({ type: "content_block_delta", index, delta: { type: "text_delta", text: t } })
      out += e({ type: "content_block_delta", index, delta: { type: "citations_delta", citation: { type: "char_location", cited_text: t, document_index: 0, start_char_index: k, end_char_index: k + 1 } } })
    })
    out += e({ type: "content_block_stop", index: index++ })
    ids.forEach((id, i) => {
      out += e({ type: "content_block_start", index, content_block: { type: "tool_use", id, name: "f", input: {} } })
      for (const f of i === 0 && fragments.length > 0 ? fragments : ["{}"]) out += e({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: f } })
      out += e({ type: "content_block_stop", index: index++ })
    })
    out += e({ type: "message_delta", delta: { stop_reason: ids.length > 0 ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 10 } })
    return out + e({ type: "message_stop" })
  }
}

const responses: Shape = {
  name: "OpenAI Responses",
  make: OpenAiResponsesStream.make,
  fromSseStream: (body, options) => OpenAiResponsesStream.fromSseStream(body, options),
  render: (texts, ids, fragments) => {
    let seq = 0
    const ev = (data: { readonly type: string } & Record<string, unknown>) => frame({ ...data, sequence_number: seq++ }, data.type)
    const response = { id: "r", object: "response", created_at: 1, model: "gpt-5", status: "in_progress", output: [] }
    let out = ev({ type: "response.created", response })
    out += ev({ type: "response.output_item.added", output_index: 0, item: { id: "rs_1", type: "reasoning", summary: [] } })
    out += ev({ type: "response.reasoning_summary_part.added", item_id: "rs_1", output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } })
    for (const t of texts) out += ev({ type: "response.reasoning_summary_text.delta", item_id: "rs_1", output_index: 0, summary_index: 0, delta: t })
    out += ev({ type: "response.output_item.added", output_index: 1, item: { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] } })
    out += ev({ type: "response.content_part.added", item_id: "msg_1", output_index: 1, content_index: 0, part: { type: "output_text", text: "", annotations: [] } })
    texts.forEach((t, k) => {
      out += ev({ type: "response.output_text.delta", item_id: "msg_1", output_index: 1, content_index: 0, delta: t, logprobs: [] })
      out += ev({ type: "response.output_text.annotation.added", item_id: "msg_1", output_index: 1, content_index: 0, annotation_index: k, annotation: { type: "url_citation", url: "https://example.com", start_index: k, end_index: k + 1, title: "t" } })
    })
    ids.forEach((id, i) => {
      out += ev({ type: "response.output_item.added", output_index: i + 2, item: { id: `fc_${i}`, type: "function_call", call_id: id, name: "f", arguments: i === 0 ? "" : "{}", status: "in_progress" } })
    })
    for (const f of fragments) out += ev({ type: "response.function_call_arguments.delta", item_id: "fc_0", output_index: 2, delta: f })
    return out + ev({ type: "response.completed", response: { ...response, status: "completed", usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } })
  }
}

const gemini: Shape = {
  name: "Gemini",
  make: GeminiStream.make,
  fromSseStream: (body, options) => GeminiStream.fromSseStream(body, options),
  render: (texts, ids, fragments) => {
    const c = (parts: ReadonlyArray<object>, extra: object = {}) => frame({ candidates: [{ content: { role: "model", parts }, index: 0, ...extra }], modelVersion: "g" })
    let out = ""
    for (const t of texts) out += c([{ text: t, thought: true }])
    texts.forEach((t, k) => {
      out += c([{ text: t }], { citationMetadata: { citations: [{ startIndex: k, endIndex: k + 1, uri: "https://example.com" }] } })
    })
    ids.forEach((id, i) => {
      if (i === 0 && fragments.length > 0) {
        out += c([{ functionCall: { id, name: "f", partialArgs: [], willContinue: true } }])
        for (const f of fragments) out += c([{ functionCall: { partialArgs: [{ jsonPath: "$.text", stringValue: f, willContinue: true }], willContinue: true } }])
        out += c([{ functionCall: { partialArgs: [] } }])
      } else out += c([{ functionCall: { id, name: "f", args: {} } }])
    })
    return out + c([{ text: "" }], { finishReason: "STOP" })
  }
}

const shapes: ReadonlyArray<Shape> = [chat, anthropic, responses, gemini]

const deltas = (n: number): Array<string> => Array.from({ length: n }, (_, k) => (k % 2 === 0 ? "a" : "é"))
/** `n` fragments of four characters of one call's arguments. */
const fragmentsOf = (n: number): Array<string> => {
  const json = JSON.stringify({ text: "x, é, 😀 \"quoted\" ".repeat(Math.ceil((n * 4) / 17) + 1) })
  return Array.from({ length: n }, (_, k) => json.slice(k * 4, k * 4 + 4))
}
const hugeText = (length: number): string => "The quick brown fox; 天气很好 😀. ".repeat(Math.ceil(length / 30)).slice(0, length)

/** Feeds `text` in pieces of `size` characters and ends the stream. */
const feedIn = (shape: Shape, text: string, size: number) => () => {
  const acc = shape.make()
  for (let i = 0; i < text.length; i += size) acc.feed(text.slice(i, i + size))
  acc.done()
}

/** Feeds `text` cut after each `\r`, so every `\r\n` pair straddles two pieces. */
const feedSplitCrlf = (shape: Shape, text: string) => {
  // cut before the counted run: only the reader's own work is counted
  const pieces = text.split(/(?<=\r)/)
  return () => {
    const acc = shape.make()
    for (const piece of pieces) acc.feed(piece)
    acc.done()
  }
}

describe("every stream reader's work grows linearly with the stream", () => {
  for (const shape of shapes) {
    it(`${shape.name}: text, reasoning and citation deltas`, () => {
      assertLinear(`${shape.name} deltas`, (n) => feedIn(shape, shape.render(deltas(n), [], []), 16_384))
    })
    it(`${shape.name}: one call's arguments in many small fragments`, () => {
      assertLinear(`${shape.name} fragments`, (n) => feedIn(shape, shape.render([], ["call_1"], fragmentsOf(4 * n)), 16_384))
    })
    it(`${shape.name}: many calls`, () => {
      assertLinear(`${shape.name} calls`, (n) => feedIn(shape, shape.render([], Array.from({ length: n }, (_, k) => `call_${k}`), []), 16_384))
    })
    it(`${shape.name}: one huge delta of valid and of broken arguments`, () => {
      // from 128,000 characters at n: past the 100,000 from which a data line is checked for depth before it is parsed
      assertLinear(`${shape.name} valid arguments`, (n) => feedIn(shape, shape.render([], ["call_1"], [JSON.stringify({ text: hugeText(n * 64) })]), 16_384), 2_000)
      assertLinear(`${shape.name} broken arguments`, (n) => feedIn(shape, shape.render([], ["call_1"], [`{"text": "${hugeText(n * 64)}", "x": tru`]), 16_384), 2_000)
    })
    it(`${shape.name}: a line cut into 1-character pieces, and \\r\\n pairs split between pieces`, () => {
      assertLinear(`${shape.name} 1-character pieces`, (n) => feedIn(shape, shape.render([hugeText(n * 8)], [], []), 1), 200)
      assertLinear(`${shape.name} split CRLF`, (n) => feedSplitCrlf(shape, shape.render(deltas(n), [], []).replace(/\n/g, "\r\n")))
    })
    it(`${shape.name}: a stream cut mid-arguments, kept with keepPartial`, () => {
      assertLinear(`${shape.name} cut`, (n) => {
        const text = shape.render([], ["call_1"], fragmentsOf(4 * n))
        const cut = text.slice(0, text.length - 200)
        const pieces: Array<string> = []
        for (let i = 0; i < cut.length; i += 16_384) pieces.push(cut.slice(i, i + 16_384))
        const body = Stream.concat(Stream.fromIterable(pieces), Stream.fail("the connection dropped"))
        return () => {
          const exit = Effect.runSync(Effect.exit(shape.fromSseStream(body, { keepPartial: true })))
          assert.strictEqual(exit._tag, "Failure")
        }
      })
    })
  }
})
