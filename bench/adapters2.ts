/**
 * Adapter throughput for OpenAI Responses, Gemini and effect/ai: a 10k-message
 * tool-heavy conversation (question; reasoning, a line of text and two
 * parallel calls; their results; an answer), written with each format's own
 * replay data (Responses reasoning items and item ids, Gemini thought
 * signatures, Anthropic-style signatures for effect/ai), converted each way.
 *
 * Baseline, measured in the same run: the flat format's adapters written the
 * way its original Chat and Anthropic adapters are (plain text content, tool
 * calls with `JSON.stringify`'d arguments, `JSON.parse` that turns bad JSON
 * into `{}`, no replay data, no checks), ported to each target's shape, on
 * the same conversation in the flat format. For effect/ai the baseline
 * builds the `Prompt` the same naive way (text and tool-call parts).
 *
 * Linearity: time per message at 10k over 1k messages (1.0 = linear).
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs bench/adapters2.ts
 */
import { pathToFileURL } from "node:url"
import { Effect } from "effect"
import { Prompt } from "effect/ai"
import { Block, Message } from "../src/index.js"
import { EffectAi, Gemini, OpenAiResponses } from "../src/providers/index.js"
import { consume, fmt, table, timePerCall } from "./measure.js"

// ---------------------------------------------------------------------------
// the flat format and its naive adapters, ported to each shape
// ---------------------------------------------------------------------------

interface FlatCall {
  readonly id: string
  readonly name: string
  readonly args: Record<string, unknown>
}

interface FlatMessage {
  readonly role: "user" | "assistant" | "tool"
  readonly content: string
  readonly toolCalls?: ReadonlyArray<FlatCall>
  readonly toolCallId?: string
  readonly toolName?: string
}

const safeParse = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch {
    return {}
  }
}

type Item = Record<string, unknown>

const flatToResponses = (messages: ReadonlyArray<FlatMessage>): Array<Item> => {
  const out: Array<Item> = []
  for (const m of messages) {
    if (m.role === "tool") out.push({ type: "function_call_output", call_id: m.toolCallId, output: m.content })
    else {
      if (m.content) out.push({ role: m.role, content: m.content })
      for (const c of m.toolCalls ?? []) out.push({ type: "function_call", call_id: c.id, name: c.name, arguments: JSON.stringify(c.args) })
    }
  }
  return out
}

const flatFromResponses = (items: ReadonlyArray<Item>): Array<FlatMessage> => {
  const out: Array<FlatMessage> = []
  const names = new Map<string, string>()
  for (const item of items) {
    if (item["type"] === "function_call") {
      names.set(item["call_id"] as string, item["name"] as string)
      out.push({ role: "assistant", content: "", toolCalls: [{ id: item["call_id"] as string, name: item["name"] as string, args: safeParse(item["arguments"] as string) }] })
    } else if (item["type"] === "function_call_output") {
      out.push({ role: "tool", content: item["output"] as string, toolCallId: item["call_id"] as string, toolName: names.get(item["call_id"] as string) ?? "" })
    } else out.push({ role: item["role"] as "user" | "assistant", content: item["content"] as string })
  }
  return out
}

const flatToGemini = (messages: ReadonlyArray<FlatMessage>): Array<Item> =>
  messages.map((m) =>
    m.role === "tool"
      ? { role: "user", parts: [{ functionResponse: { name: m.toolName, response: { output: m.content } } }] }
      : { role: m.role === "assistant" ? "model" : "user", parts: [...(m.content ? [{ text: m.content }] : []), ...(m.toolCalls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.args } }))] }
  )

const flatFromGemini = (contents: ReadonlyArray<Item>): Array<FlatMessage> => {
  const out: Array<FlatMessage> = []
  let n = 0
  for (const c of contents) {
    const parts = c["parts"] as Array<Item>
    const first = parts[0]
    if (first !== undefined && "functionResponse" in first) {
      const fr = first["functionResponse"] as Item
      out.push({ role: "tool", content: String((fr["response"] as Item)["output"]), toolCallId: `c${n}`, toolName: fr["name"] as string })
      continue
    }
    let text = ""
    const calls: Array<FlatCall> = []
    for (const p of parts) {
      if (typeof p["text"] === "string") text += p["text"]
      else if ("functionCall" in p) calls.push({ id: `c${++n}`, name: (p["functionCall"] as Item)["name"] as string, args: (p["functionCall"] as Item)["args"] as Record<string, unknown> })
    }
    out.push({ role: c["role"] === "model" ? "assistant" : "user", content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) })
  }
  return out
}

const flatToPrompt = (messages: ReadonlyArray<FlatMessage>): Prompt.Prompt =>
  Prompt.fromMessages(messages.map((m): Prompt.Message =>
    m.role === "tool"
      ? Prompt.toolMessage({ content: [Prompt.toolResultPart({ id: m.toolCallId!, name: m.toolName!, isFailure: false, result: m.content, providerExecuted: false })] })
      : m.role === "user"
      ? Prompt.userMessage({ content: [Prompt.textPart({ text: m.content })] })
      : Prompt.assistantMessage({
        content: [
          ...(m.content ? [Prompt.textPart({ text: m.content })] : []),
          ...(m.toolCalls ?? []).map((c) => Prompt.toolCallPart({ id: c.id, name: c.name, params: c.args, providerExecuted: false }))
        ]
      })
  ))

const flatFromPrompt = (prompt: Prompt.Prompt): Array<FlatMessage> =>
  prompt.content.map((m): FlatMessage => {
    if (m.role === "tool") {
      const r = m.content[0] as Prompt.ToolResultPart
      return { role: "tool", content: String(r.result), toolCallId: r.id, toolName: r.name }
    }
    if (m.role === "system") return { role: "user", content: m.content }
    let text = ""
    const calls: Array<FlatCall> = []
    for (const p of m.content) {
      if (p.type === "text") text += p.text
      else if (p.type === "tool-call") calls.push({ id: p.id, name: p.name, args: p.params as Record<string, unknown> })
    }
    return { role: m.role, content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) }
  })

// ---------------------------------------------------------------------------
// the conversation, with each format's replay data
// ---------------------------------------------------------------------------

type Format = "openai-responses" | "gemini" | "effect-ai"

const conversation = (size: number, format: Format): { readonly ours: Array<Message.Message>; readonly flat: Array<FlatMessage> } => {
  const ours: Array<Message.Message> = []
  const flat: Array<FlatMessage> = []
  for (let t = 0; ours.length < size; t++) {
    const a = `call_${t}_a`
    const b = `call_${t}_b`
    const question = `Compare the weather in city ${t} and city ${t + 1}, and book the warmer one.`
    const args = { city: `city ${t}`, units: "metric", days: 3 }
    const thinking =
      format === "openai-responses"
        ? Block.thinking("", undefined, { itemId: `rs_${t}`, summary: ["**Comparing two cities**\n\nI will look both up at once."], encryptedContent: "gAAAAABoxC0_aDtrISw_zls0dyams-nhm23et1xecYaqlI8y44ih0g9FA5T3R9" })
        : format === "gemini"
        ? Block.thinking("I will look both cities up at once.", undefined, { thoughtSignature: "CpYEAXLI2nxHJhy3F4oMijlAus2CPUEnTw16KkDpmU77MgVhg6pi" })
        : Block.thinking("I will look both cities up at once.", "EqQBCkgIARABGAIiQL2yAmC1i8JK2vLhQ0Jj")
    const ids = format === "openai-responses" ? { itemId: `fc_${t}` } : undefined
    ours.push(
      Message.user(question),
      Message.assistant([
        thinking,
        Block.text("Let me check both."),
        Block.toolCall(a, "get_weather", args, format === "gemini" ? { thoughtSignature: "EsEDCr4DAXLI2nzcGUYO9i" } : ids),
        Block.toolCall(b, "get_weather", { ...args, city: `city ${t + 1}` }, ids)
      ]),
      Message.tool([Block.toolResult(a, "get_weather", `{"temperature": ${t % 30}, "sky": "clear"}`), Block.toolResult(b, "get_weather", `{"temperature": ${(t + 7) % 30}, "sky": "rain"}`)]),
      Message.assistant(`City ${t} is warmer; I booked it.`)
    )
    flat.push(
      { role: "user", content: question },
      { role: "assistant", content: "Let me check both.", toolCalls: [{ id: a, name: "get_weather", args }, { id: b, name: "get_weather", args: { ...args, city: `city ${t + 1}` } }] },
      { role: "tool", content: `{"temperature": ${t % 30}, "sky": "clear"}`, toolCallId: a, toolName: "get_weather" },
      { role: "tool", content: `{"temperature": ${(t + 7) % 30}, "sky": "rain"}`, toolCallId: b, toolName: "get_weather" },
      { role: "assistant", content: `City ${t} is warmer; I booked it.` }
    )
  }
  return { ours: ours.slice(0, size), flat }
}

const run = <A>(effect: Effect.Effect<A, unknown>): A => Effect.runSync(effect)

interface Conversion {
  readonly name: string
  readonly ours: (size: "small" | "large") => unknown
  readonly baseline: () => unknown
}

const conversions = (small: number, large: number): Array<Conversion> => {
  const out: Array<Conversion> = []
  {
    const s = conversation(small, "openai-responses")
    const l = conversation(large, "openai-responses")
    const wire = (c: typeof l) => JSON.parse(JSON.stringify(run(OpenAiResponses.toMessages(c.ours)).value)) as unknown
    const ws = wire(s)
    const wl = wire(l)
    const flatWire = flatToResponses(l.flat)
    out.push(
      { name: "model -> Responses", ours: (k) => run(OpenAiResponses.toMessages(k === "small" ? s.ours : l.ours)), baseline: () => flatToResponses(l.flat) },
      { name: "Responses -> model", ours: (k) => run(OpenAiResponses.fromMessages(k === "small" ? ws : wl)), baseline: () => flatFromResponses(flatWire) }
    )
  }
  {
    const s = conversation(small, "gemini")
    const l = conversation(large, "gemini")
    const wire = (c: typeof l) => JSON.parse(JSON.stringify(run(Gemini.toMessages(c.ours)).value)) as unknown
    const ws = wire(s)
    const wl = wire(l)
    const flatWire = flatToGemini(l.flat)
    out.push(
      { name: "model -> Gemini", ours: (k) => run(Gemini.toMessages(k === "small" ? s.ours : l.ours)), baseline: () => flatToGemini(l.flat) },
      { name: "Gemini -> model", ours: (k) => run(Gemini.fromMessages(k === "small" ? ws : wl)), baseline: () => flatFromGemini(flatWire) }
    )
  }
  {
    const s = conversation(small, "effect-ai")
    const l = conversation(large, "effect-ai")
    const ps = run(EffectAi.toPrompt(s.ours)).value
    const pl = run(EffectAi.toPrompt(l.ours)).value
    const flatPrompt = flatToPrompt(l.flat)
    out.push(
      { name: "model -> effect/ai Prompt", ours: (k) => run(EffectAi.toPrompt(k === "small" ? s.ours : l.ours)), baseline: () => flatToPrompt(l.flat) },
      { name: "effect/ai Prompt -> model", ours: (k) => run(EffectAi.fromPrompt(k === "small" ? ps : pl)), baseline: () => flatFromPrompt(flatPrompt) }
    )
  }
  return out
}

/** Runs the benchmark and prints one row per conversion. */
export const runAdapters2Bench = (): void => {
  const small = 1_000
  const large = 10_000
  const rows: Array<Array<string>> = []
  for (const c of conversions(small, large)) {
    const msSmall = timePerCall(() => consume(c.ours("small")), { minMs: 200, rounds: 3 })
    const msLarge = timePerCall(() => consume(c.ours("large")), { minMs: 300, rounds: 3 })
    const msBase = timePerCall(() => consume(c.baseline()), { minMs: 300, rounds: 3 })
    rows.push([
      c.name,
      String(large),
      fmt(msLarge, 1),
      fmt(large / (msLarge / 1000) / 1000, 0),
      fmt(large / (msBase / 1000) / 1000, 0),
      `${fmt(msLarge / msBase, 1)}×`,
      fmt(msLarge / large / (msSmall / small), 2)
    ])
  }
  console.log("\nadapters bench (Responses, Gemini, effect/ai): a tool-heavy conversation with each format's replay data (reasoning, two parallel calls, their results, an answer); baseline = the flat format's naive adapters ported to each shape, on the same conversation without replay data")
  table(["conversion", "messages", "ms", "k msg/s", "baseline k msg/s", "vs baseline", "10k / 1k per message"], rows)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) runAdapters2Bench()
