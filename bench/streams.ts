/**
 * Stream accumulation throughput, per wire format: a ~10 MB SSE body of many
 * small deltas and long tool arguments, fed as 16 KB byte pieces (as a
 * network read would deliver it) through `feed` and `done`.
 *
 * Prints MB/s and events/s, the ratio to a baseline measured in the same
 * run (splitting the text into lines and `JSON.parse` of every payload: the
 * least any accumulator must do), and linearity: the time per byte of a
 * 10 MB stream over that of a 1 MB stream (1.0 = linear).
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs bench/streams.ts
 */
import { pathToFileURL } from "node:url"
import { Result } from "effect"
import { AnthropicStream, GeminiStream, OpenAiChatStream, OpenAiResponsesStream } from "../src/providers/index.js"
import { consume, fmt, table, timePerCall } from "./measure.js"

/** A deterministic PRNG (mulberry32), so every run measures the same streams. */
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const words = ["the", "weather", "in", "Oslo", "is", "cold", "—", "température", "東京", "😀", "let's", "check", '"quoted"', "path\\to", "line\n", "{json}"]

/** A short piece of text (1-6 words), the size of a typical delta. */
const piece = (random: () => number): string => {
  let out = ""
  const n = 1 + Math.floor(random() * 6)
  for (let i = 0; i < n; i++) out += `${words[Math.floor(random() * words.length)]} `
  return out
}

/** Long tool-argument JSON (~`size` characters), cut into fragments of 4-40 characters. */
const argumentFragments = (random: () => number, size: number): Array<string> => {
  const items: Array<string> = []
  let length = 0
  while (length < size) {
    const item = JSON.stringify({ line: piece(random), n: Math.floor(random() * 1e6) })
    items.push(item)
    length += item.length + 1
  }
  const json = `{"path": "notes.txt", "lines": [${items.join(",")}]}`
  const out: Array<string> = []
  for (let i = 0; i < json.length; ) {
    const n = 4 + Math.floor(random() * 37)
    out.push(json.slice(i, i + n))
    i += n
  }
  return out
}

interface Body {
  readonly bytes: Uint8Array
  readonly events: number
}

/** Each of the three tool calls' argument JSON is 1/ARGS_SHARE of the body's size (its frames take ~8× that). */
const ARGS_SHARE = 40

const frame = (data: unknown, event?: string): string => `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`

/** Interleaves text deltas and three tool calls' argument fragments until the body reaches `target` bytes. */
const build = (target: number, render: { readonly start: () => Array<string>; readonly text: (t: string) => string; readonly arg: (call: number, fragment: string) => string; readonly end: () => Array<string> }): Body => {
  const random = rng(7)
  const parts: Array<string> = [...render.start()]
  let size = parts.reduce((n, p) => n + p.length, 0)
  let events = parts.length
  const calls = [0, 1, 2].map(() => argumentFragments(random, Math.floor(target / ARGS_SHARE)))
  const cursor = [0, 0, 0]
  const left = () => calls.some((c, i) => cursor[i]! < c.length)
  while (size < target || left()) {
    const call = Math.floor(random() * 4)
    let p: string
    if (call === 3 || cursor[call]! >= calls[call]!.length) {
      if (size >= target) continue
      p = render.text(piece(random))
    } else p = render.arg(call, calls[call]![cursor[call]!++]!)
    parts.push(p)
    size += p.length
    events++
  }
  for (const p of render.end()) {
    parts.push(p)
    events++
  }
  return { bytes: new TextEncoder().encode(parts.join("")), events }
}

const chat = (target: number): Body => {
  const head = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1, model: "gpt-4o" }
  const chunk = (delta: object, finish: string | null = null) => frame({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] })
  return build(target, {
    start: () => [chunk({ role: "assistant", content: "" }), ...[0, 1, 2].map((i) => chunk({ tool_calls: [{ index: i, id: `call_${i}`, type: "function", function: { name: "write_file", arguments: "" } }] }))],
    text: (t) => chunk({ content: t }),
    arg: (i, f) => chunk({ tool_calls: [{ index: i, function: { arguments: f } }] }),
    end: () => [chunk({}, "tool_calls"), frame({ ...head, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }), "data: [DONE]\n\n"]
  })
}

const anthropic = (target: number): Body => {
  // text in block 0, three tool_use blocks 1..3; a real stream sends blocks one after the other,
  // so the fragments here are grouped per block when the body is rendered
  const random = rng(7)
  const parts: Array<string> = []
  const e = (data: { type: string }) => parts.push(frame(data, data.type))
  e({ type: "message_start", message: { id: "msg_bench", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } } as { type: string })
  const tools: Array<string> = []
  for (let b = 1; b <= 3; b++) {
    tools.push(frame({ type: "content_block_start", index: b, content_block: { type: "tool_use", id: `toolu_${b}`, name: "write_file", input: {} } }, "content_block_start"))
    for (const f of argumentFragments(random, Math.floor(target / ARGS_SHARE))) tools.push(frame({ type: "content_block_delta", index: b, delta: { type: "input_json_delta", partial_json: f } }, "content_block_delta"))
    tools.push(frame({ type: "content_block_stop", index: b }, "content_block_stop"))
  }
  let size = tools.reduce((n, t) => n + t.length, 0)
  e({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } } as { type: string })
  while (size < target) {
    const p = frame({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: piece(random) } }, "content_block_delta")
    parts.push(p)
    size += p.length
  }
  e({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQBCgIYAhIM" } } as { type: string })
  e({ type: "content_block_stop", index: 0 } as { type: string })
  for (const t of tools) parts.push(t)
  e({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 100 } } as { type: string })
  e({ type: "message_stop" })
  return { bytes: new TextEncoder().encode(parts.join("")), events: parts.length }
}

const responses = (target: number): Body => {
  const response = { id: "resp_bench", object: "response", created_at: 1, model: "gpt-5", status: "in_progress", output: [] }
  let seq = 0
  const ev = (data: Record<string, unknown>) => frame({ ...data, sequence_number: seq++ }, data["type"] as string)
  return build(target, {
    start: () => [
      ev({ type: "response.created", response }),
      ev({ type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] } }),
      ev({ type: "response.content_part.added", item_id: "msg_1", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
      ...[1, 2, 3].map((i) => ev({ type: "response.output_item.added", output_index: i, item: { id: `fc_${i}`, type: "function_call", call_id: `call_${i}`, name: "write_file", arguments: "", status: "in_progress" } }))
    ],
    text: (t) => ev({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: t, logprobs: [] }),
    arg: (i, f) => ev({ type: "response.function_call_arguments.delta", item_id: `fc_${i + 1}`, output_index: i + 1, delta: f }),
    // the terminal response repeats the output in a real stream; here it carries none, so the accumulated output stays
    end: () => [ev({ type: "response.completed", response: { ...response, status: "completed", usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } })]
  })
}

const gemini = (target: number): Body => {
  const random = rng(7)
  const parts: Array<string> = []
  let size = 0
  let thought = true
  while (size < target) {
    if (random() < 0.001) thought = !thought
    const p = frame({ candidates: [{ content: { role: "model", parts: [{ text: piece(random), ...(thought ? { thought: true } : {}) }] }, index: 0 }], usageMetadata: { promptTokenCount: 9, totalTokenCount: 10 }, modelVersion: "gemini-2.5-flash" }).replace(/\n/g, "\r\n")
    parts.push(p)
    size += p.length
  }
  parts.push(frame({ candidates: [{ content: { role: "model", parts: [{ functionCall: { id: "fc_1", name: "write_file", args: { path: "notes.txt" } }, thoughtSignature: "sig" }] }, finishReason: "STOP", index: 0 }] }).replace(/\n/g, "\r\n"))
  return { bytes: new TextEncoder().encode(parts.join("")), events: parts.length }
}

const formats = [
  { name: "openai-chat", body: chat, make: OpenAiChatStream.make as () => { feed: (b: Uint8Array) => void; done: () => Result.Result<unknown, unknown> } },
  { name: "anthropic-messages", body: anthropic, make: AnthropicStream.make as () => { feed: (b: Uint8Array) => void; done: () => Result.Result<unknown, unknown> } },
  { name: "openai-responses", body: responses, make: OpenAiResponsesStream.make as () => { feed: (b: Uint8Array) => void; done: () => Result.Result<unknown, unknown> } },
  { name: "gemini", body: gemini, make: GeminiStream.make as () => { feed: (b: Uint8Array) => void; done: () => Result.Result<unknown, unknown> } }
] as const

const PIECE = 16 * 1024

const accumulate = (make: () => { feed: (b: Uint8Array) => void; done: () => Result.Result<unknown, unknown> }, bytes: Uint8Array): unknown => {
  const acc = make()
  for (let i = 0; i < bytes.length; i += PIECE) acc.feed(bytes.subarray(i, i + PIECE))
  const result = acc.done()
  if (Result.isFailure(result)) throw new Error(`bench stream did not accumulate: ${String((result.failure as Error).message)}`)
  return result.success
}

/** The floor: decode, split into lines, `JSON.parse` each payload. */
const baseline = (bytes: Uint8Array): number => {
  const text = new TextDecoder().decode(bytes)
  let n = 0
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue
    consume(JSON.parse(line.slice(6)))
    n++
  }
  return n
}

/** Runs the benchmark and prints one row per wire format. */
export const runStreamsBench = (): void => {
  const MB = 1024 * 1024
  const rows: Array<Array<string>> = []
  for (const format of formats) {
    const small = format.body(1 * MB)
    const large = format.body(10 * MB)
    const msSmall = timePerCall(() => consume(accumulate(format.make, small.bytes)), { minMs: 300, rounds: 5 })
    const msLarge = timePerCall(() => consume(accumulate(format.make, large.bytes)), { minMs: 300, rounds: 3 })
    const msBase = timePerCall(() => baseline(large.bytes), { minMs: 300, rounds: 3 })
    const mbs = large.bytes.length / MB / (msLarge / 1000)
    const linear = msLarge / large.bytes.length / (msSmall / small.bytes.length)
    rows.push([
      format.name,
      fmt(large.bytes.length / MB),
      String(large.events),
      fmt(msLarge, 0),
      fmt(mbs),
      fmt(large.events / (msLarge / 1000) / 1000, 0),
      `${fmt(msLarge / msBase, 2)}×`,
      fmt(linear, 2)
    ])
  }
  console.log(`\nstreams bench: SSE bytes fed in ${PIECE / 1024} KB pieces through feed() + done(); baseline = split lines + JSON.parse of every payload`)
  table(["format", "MB", "events", "ms", "MB/s", "k events/s", "vs baseline", "10 MB / 1 MB per byte"], rows)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) runStreamsBench()
