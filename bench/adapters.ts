/**
 * Adapter throughput: a 10k-message tool-heavy conversation converted each
 * way (the model -> wire, wire -> the model) for OpenAI Chat Completions and
 * Anthropic Messages, and a ~10 MB Chat stream and Anthropic stream
 * accumulated and read into the model.
 *
 * Baseline, measured in the same run: a direct port of the flat format's
 * original adapters (Chat: `content: msg.content || null`, `tool_calls` with
 * `JSON.stringify`'d arguments, tool messages with `tool_call_id` and
 * `name`; reading back with a `JSON.parse` that turns bad JSON into `{}`.
 * Anthropic: system lifted out, `tool_use` blocks, tool results merged into a
 * user message) on the same conversation in the flat format. For streams the
 * baseline is a naive accumulator written the same way (split lines,
 * `JSON.parse` each chunk, concatenate content and arguments by index, parse
 * the arguments at the end). The AI SDK's own converters are not installed
 * here, so they are not measured.
 *
 * Linearity: time per message at 10k over 1k messages, and per byte at 10 MB
 * over 1 MB (1.0 = linear).
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs bench/adapters.ts
 */
import { pathToFileURL } from "node:url"
import { Effect } from "effect"
import { Block, Message } from "../src/index.js"
import { Anthropic, OpenAiChat } from "../src/providers/index.js"
import { consume, fmt, table, timePerCall } from "./measure.js"

// ---------------------------------------------------------------------------
// the flat format's adapters, ported as written
// ---------------------------------------------------------------------------

interface FlatToolCall {
  id: string
  name: string
  args: Record<string, unknown>
}
interface FlatMessage {
  role: "system" | "user" | "assistant" | "tool"
  content: string
  toolCalls?: Array<FlatToolCall>
  toolCallId?: string
  toolName?: string
  isError?: boolean
}
interface FlatOpenAIMessage {
  role: string
  content: string | null
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>
  tool_call_id?: string
  name?: string
}

const safeParseJSON = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch {
    return {}
  }
}

const flatToOpenAI = (messages: Array<FlatMessage>): Array<FlatOpenAIMessage> =>
  messages.map((msg) => {
    const base: FlatOpenAIMessage = { role: msg.role, content: msg.content || null }
    if (msg.role === "assistant" && msg.toolCalls) {
      base.tool_calls = msg.toolCalls.map((tc) => ({ id: tc.id, type: "function", function: { name: tc.name, arguments: JSON.stringify(tc.args) } }))
    }
    if (msg.role === "tool") {
      base.tool_call_id = msg.toolCallId!
      base.name = msg.toolName!
    }
    return base
  })

const flatFromOpenAI = (messages: Array<FlatOpenAIMessage>): Array<FlatMessage> =>
  messages.map((m) => {
    const out: FlatMessage = { role: m.role as FlatMessage["role"], content: m.content ?? "" }
    if (m.tool_calls && m.tool_calls.length > 0) out.toolCalls = m.tool_calls.map((tc) => ({ id: tc.id, name: tc.function.name, args: safeParseJSON(tc.function.arguments) }))
    if (m.role === "tool") {
      out.toolCallId = m.tool_call_id!
      out.toolName = m.name!
    }
    return out
  })

type FlatAnthropicBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; tool_use_id: string; content: string; is_error?: boolean }
interface FlatAnthropicMessage {
  role: "user" | "assistant"
  content: Array<FlatAnthropicBlock>
}

const flatToAnthropic = (messages: Array<FlatMessage>): { system: string; messages: Array<FlatAnthropicMessage> } => {
  let system = ""
  const out: Array<FlatAnthropicMessage> = []
  for (const msg of messages) {
    if (msg.role === "system") {
      system = msg.content
      continue
    }
    if (msg.role === "tool") {
      const block: FlatAnthropicBlock = { type: "tool_result", tool_use_id: msg.toolCallId!, content: msg.content, ...(msg.isError ? { is_error: true } : {}) }
      const last = out[out.length - 1]
      if (last !== undefined && last.role === "user") last.content.push(block)
      else out.push({ role: "user", content: [block] })
      continue
    }
    const content: Array<FlatAnthropicBlock> = []
    if (msg.content) content.push({ type: "text", text: msg.content })
    for (const tc of msg.toolCalls ?? []) content.push({ type: "tool_use", id: tc.id, name: tc.name, input: tc.args })
    out.push({ role: msg.role, content })
  }
  return { system, messages: out }
}

const flatFromAnthropic = (prompt: { system: string; messages: Array<FlatAnthropicMessage> }): Array<FlatMessage> => {
  const out: Array<FlatMessage> = prompt.system ? [{ role: "system", content: prompt.system }] : []
  const names = new Map<string, string>()
  for (const m of prompt.messages) {
    let text = ""
    const calls: Array<FlatToolCall> = []
    for (const b of m.content) {
      if (b.type === "text") text += b.text
      else if (b.type === "tool_use") {
        names.set(b.id, b.name)
        calls.push({ id: b.id, name: b.name, args: b.input })
      } else out.push({ role: "tool", content: b.content, toolCallId: b.tool_use_id, toolName: names.get(b.tool_use_id) ?? "", isError: b.is_error ?? false })
    }
    if (text !== "" || calls.length > 0) out.push({ role: m.role, content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) })
  }
  return out
}

// ---------------------------------------------------------------------------
// the conversation: turns of a question, two parallel calls, their results, an answer
// ---------------------------------------------------------------------------

const conversation = (size: number): { readonly ours: Array<Message.Message>; readonly flat: Array<FlatMessage> } => {
  const ours: Array<Message.Message> = [Message.system("You are a careful research agent. Use the tools.")]
  const flat: Array<FlatMessage> = [{ role: "system", content: "You are a careful research agent. Use the tools." }]
  for (let t = 0; ours.length < size; t++) {
    const question = `Compare the weather in city ${t} and city ${t + 1}, and find three sources about each — 東京 😀`
    const a = { city: `City ${t}`, units: "metric", days: 3, filters: { rain: true, wind: [1, 2, 3] } }
    const b = { query: `sources about city ${t + 1}`, limit: 3, lang: "en" }
    const resultA = JSON.stringify({ temperature: 12 + (t % 10), sky: "rain", forecast: [11, 13, 9] })
    const resultB = `1. https://example.com/${t}/a — "Climate report"\n2. https://example.com/${t}/b\n3. https://example.com/${t}/c`
    ours.push(
      Message.user(question),
      Message.assistant([Block.text("Let me look both up."), Block.toolCall(`call_${t}_a`, "get_weather", a), Block.toolCall(`call_${t}_b`, "search_web", b)]),
      Message.toolResultMessage(`call_${t}_a`, "get_weather", resultA),
      Message.toolResultMessage(`call_${t}_b`, "search_web", resultB),
      Message.assistant(`City ${t} is rainy at ${12 + (t % 10)}°C; here are the sources I found.`)
    )
    flat.push(
      { role: "user", content: question },
      { role: "assistant", content: "Let me look both up.", toolCalls: [{ id: `call_${t}_a`, name: "get_weather", args: a }, { id: `call_${t}_b`, name: "search_web", args: b }] },
      { role: "tool", content: resultA, toolCallId: `call_${t}_a`, toolName: "get_weather" },
      { role: "tool", content: resultB, toolCallId: `call_${t}_b`, toolName: "search_web" },
      { role: "assistant", content: `City ${t} is rainy at ${12 + (t % 10)}°C; here are the sources I found.` }
    )
  }
  return { ours, flat }
}

// ---------------------------------------------------------------------------
// streams: ~N MB of text deltas and two calls' argument fragments
// ---------------------------------------------------------------------------

const words = ["the", "weather", "in", "Oslo", "is", "cold", "—", "température", "東京", "😀", "\"quoted\"", "path\\to", "line\n"]

const chatStream = (target: number): string => {
  const head = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1, model: "gpt-4o" }
  const frame = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  const parts = [frame({ role: "assistant", content: "" })]
  for (const i of [0, 1]) parts.push(frame({ tool_calls: [{ index: i, id: `call_${i}`, type: "function", function: { name: "write_file", arguments: "" } }] }))
  parts.push(frame({ tool_calls: [{ index: 0, function: { arguments: "{\"lines\": [" } }, { index: 1, function: { arguments: "{\"lines\": [" } }] }))
  let size = 0
  for (let n = 0; size < target; n++) {
    const word = words[n % words.length]!
    const p = n % 3 === 0 ? frame({ content: `${word} ` }) : frame({ tool_calls: [{ index: n % 2, function: { arguments: `${JSON.stringify(`${word} ${n}`)}, ` } }] })
    parts.push(p)
    size += p.length
  }
  parts.push(frame({ tool_calls: [{ index: 0, function: { arguments: "\"end\"]}" } }, { index: 1, function: { arguments: "\"end\"]}" } }] }))
  parts.push(frame({}, "tool_calls"), `data: ${JSON.stringify({ ...head, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}\n\n`, "data: [DONE]\n\n")
  return parts.join("")
}

const anthropicStream = (target: number): string => {
  const frame = (data: { type: string }) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`
  const parts = [
    frame({ type: "message_start", message: { id: "msg_bench", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } } as { type: string }),
    frame({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } } as { type: string })
  ]
  let size = 0
  for (let n = 0; size < target / 2; n++) {
    const p = frame({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: `${words[n % words.length]} ` } } as { type: string })
    parts.push(p)
    size += p.length
  }
  parts.push(frame({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQBCgIYAhIM" } } as { type: string }), frame({ type: "content_block_stop", index: 0 } as { type: string }))
  parts.push(frame({ type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "write_file", input: {} } } as { type: string }))
  parts.push(frame({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "{\"lines\": [" } } as { type: string }))
  for (let n = 0; size < target; n++) {
    const p = frame({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: `${JSON.stringify(`${words[n % words.length]} ${n}`)}, ` } } as { type: string })
    parts.push(p)
    size += p.length
  }
  parts.push(frame({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "\"end\"]}" } } as { type: string }))
  parts.push(frame({ type: "content_block_stop", index: 1 } as { type: string }))
  parts.push(frame({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 100 } } as { type: string }), frame({ type: "message_stop" }))
  return parts.join("")
}

/** The naive accumulator: split lines, parse each chunk, concatenate by index, parse the arguments at the end. */
const naiveChat = (text: string): FlatMessage => {
  let content = ""
  const calls: Array<{ id: string; name: string; args: string }> = []
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue
    const chunk = JSON.parse(line.slice(6)) as { choices: Array<{ delta: { content?: string; tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }> } }> }
    const delta = chunk.choices[0]?.delta
    if (delta === undefined) continue
    if (delta.content) content += delta.content
    for (const tc of delta.tool_calls ?? []) {
      const call = (calls[tc.index] ??= { id: "", name: "", args: "" })
      if (tc.id) call.id = tc.id
      if (tc.function?.name) call.name = tc.function.name
      if (tc.function?.arguments) call.args += tc.function.arguments
    }
  }
  return { role: "assistant", content, toolCalls: calls.map((c) => ({ id: c.id, name: c.name, args: safeParseJSON(c.args) })) }
}

const naiveAnthropic = (text: string): FlatMessage => {
  let content = ""
  const calls: Array<{ id: string; name: string; args: string }> = []
  const blocks: Array<{ kind: string; call?: number }> = []
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: ")) continue
    const event = JSON.parse(line.slice(6)) as { type: string; index?: number; content_block?: { type: string; id?: string; name?: string }; delta?: { type: string; text?: string; partial_json?: string } }
    if (event.type === "content_block_start") {
      const block = event.content_block!
      if (block.type === "tool_use") {
        calls.push({ id: block.id!, name: block.name!, args: "" })
        blocks[event.index!] = { kind: "tool_use", call: calls.length - 1 }
      } else blocks[event.index!] = { kind: block.type }
    } else if (event.type === "content_block_delta") {
      const delta = event.delta!
      if (delta.type === "text_delta") content += delta.text
      else if (delta.type === "input_json_delta") calls[blocks[event.index!]!.call!]!.args += delta.partial_json
    }
  }
  return { role: "assistant", content, toolCalls: calls.map((c) => ({ id: c.id, name: c.name, args: safeParseJSON(c.args) })) }
}

// ---------------------------------------------------------------------------
// the run
// ---------------------------------------------------------------------------

const run = <A>(effect: Effect.Effect<A, unknown>): A => Effect.runSync(effect)

/** Runs the benchmark and prints one row per conversion. */
export const runAdaptersBench = (): void => {
  const small = conversation(1_000)
  const large = conversation(10_000)
  const n = large.ours.length
  const chatWire = (c: typeof large) => run(OpenAiChat.toMessages(c.ours)).value
  const anthropicWire = (c: typeof large) => run(Anthropic.toMessages(c.ours)).value
  const chatLarge = JSON.parse(JSON.stringify(chatWire(large))) as unknown
  const chatSmall = JSON.parse(JSON.stringify(chatWire(small))) as unknown
  const anthropicLarge = JSON.parse(JSON.stringify(anthropicWire(large))) as unknown
  const anthropicSmall = JSON.parse(JSON.stringify(anthropicWire(small))) as unknown
  const flatChat = flatToOpenAI(large.flat)
  const flatAnthropic = flatToAnthropic(large.flat)

  const conversions: Array<{ name: string; ours: (c: "small" | "large") => unknown; baseline: () => unknown }> = [
    { name: "model -> Chat", ours: (c) => chatWire(c === "small" ? small : large), baseline: () => flatToOpenAI(large.flat) },
    { name: "Chat -> model", ours: (c) => run(OpenAiChat.fromMessages(c === "small" ? chatSmall : chatLarge)), baseline: () => flatFromOpenAI(flatChat) },
    { name: "model -> Anthropic", ours: (c) => anthropicWire(c === "small" ? small : large), baseline: () => flatToAnthropic(large.flat) },
    { name: "Anthropic -> model", ours: (c) => run(Anthropic.fromMessages(c === "small" ? anthropicSmall : anthropicLarge)), baseline: () => flatFromAnthropic(flatAnthropic) }
  ]
  const rows: Array<Array<string>> = []
  for (const c of conversions) {
    const msSmall = timePerCall(() => consume(c.ours("small")), { minMs: 200, rounds: 3 })
    const msLarge = timePerCall(() => consume(c.ours("large")), { minMs: 300, rounds: 3 })
    const msBase = timePerCall(() => consume(c.baseline()), { minMs: 300, rounds: 3 })
    rows.push([
      c.name,
      String(n),
      fmt(msLarge, 1),
      fmt(n / (msLarge / 1000) / 1000, 0),
      fmt(n / (msBase / 1000) / 1000, 0),
      `${fmt(msLarge / msBase, 1)}×`,
      fmt(msLarge / n / (msSmall / small.ours.length), 2)
    ])
  }
  console.log("\nadapters bench: a tool-heavy conversation (question, two parallel calls, their results, an answer); baseline = a direct port of the flat format's original adapters on the same conversation; the AI SDK's converters are not installed and not measured")
  table(["conversion", "messages", "ms", "k msg/s", "baseline k msg/s", "vs baseline", "10k / 1k per message"], rows)

  const MB = 1024 * 1024
  const streams = [
    { name: "Chat stream -> model", body: chatStream, ours: (text: string) => run(OpenAiChat.fromSse(text)), baseline: naiveChat },
    { name: "Anthropic stream -> model", body: anthropicStream, ours: (text: string) => run(Anthropic.fromSse(text)), baseline: naiveAnthropic }
  ]
  const streamRows: Array<Array<string>> = []
  for (const s of streams) {
    const one = s.body(1 * MB)
    const ten = s.body(10 * MB)
    const msOne = timePerCall(() => consume(s.ours(one)), { minMs: 300, rounds: 3 })
    const msTen = timePerCall(() => consume(s.ours(ten)), { minMs: 300, rounds: 3 })
    const msBase = timePerCall(() => consume(s.baseline(ten)), { minMs: 300, rounds: 3 })
    streamRows.push([
      s.name,
      fmt(ten.length / MB),
      fmt(msTen, 0),
      fmt(ten.length / MB / (msTen / 1000)),
      fmt(ten.length / MB / (msBase / 1000)),
      `${fmt(msTen / msBase, 1)}×`,
      fmt(msTen / ten.length / (msOne / one.length), 2)
    ])
  }
  console.log("\nadapter streams: SSE text accumulated and read into the model (fromSse); baseline = a naive accumulator (split lines, JSON.parse, concatenate, parse the arguments at the end)")
  table(["stream", "MB", "ms", "MB/s", "baseline MB/s", "vs baseline", "10 MB / 1 MB per byte"], streamRows)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) runAdaptersBench()
