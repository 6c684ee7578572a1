/**
 * The conversion matrix: a shared set of conversations (a tool loop,
 * parallel calls, thinking, images, server tools), each as each format
 * produces it (its own ids, its own replay data: Anthropic signatures,
 * Responses reasoning items, Gemini thought signatures, each format's
 * server tools), converted into every other format. A cell is what writing
 * the source's conversation in the target format reports, and which blocks
 * come back when the target's payload is read again.
 *
 * Used by `conversionMatrix.test.ts` (which asserts every cell) and by
 * `scripts/conversion-matrix.ts` (which prints the README's table).
 */
import { Effect } from "effect"
import { Block, Message } from "../../src/index.js"
import type { ConversionWarning, Converted } from "../../src/providers/Conversion.js"
import { Anthropic, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

export const formats = ["openai-chat", "anthropic", "openai-responses", "gemini", "effect-ai"] as const
export type Format = (typeof formats)[number]

interface Adapter {
  readonly write: (messages: ReadonlyArray<Message.Message>) => Effect.Effect<Converted<unknown>, unknown>
  readonly read: (payload: unknown) => Effect.Effect<Converted<ReadonlyArray<Message.Message>>, unknown>
  /** How the format writes its own conversations, when that differs (Chat sends DeepSeek's reasoning back). */
  readonly writeOwn?: (messages: ReadonlyArray<Message.Message>) => Effect.Effect<Converted<unknown>, unknown>
}

export const adapters: Record<Format, Adapter> = {
  "openai-chat": {
    write: (m) => OpenAiChat.toMessages(m),
    read: (p) => OpenAiChat.fromMessages(p),
    writeOwn: (m) => OpenAiChat.toMessages(m, { reasoning: "reasoning_content" })
  },
  anthropic: { write: (m) => Anthropic.toMessages(m), read: (p) => Anthropic.fromMessages(p) },
  "openai-responses": { write: (m) => OpenAiResponses.toMessages(m), read: (p) => OpenAiResponses.fromMessages(p) },
  gemini: { write: (m) => Gemini.toMessages(m), read: (p) => Gemini.fromMessages(p) },
  "effect-ai": { write: (m) => EffectAi.toPrompt(m), read: (p) => EffectAi.fromPrompt(p as never) }
}

const run = <A>(effect: Effect.Effect<Converted<A>, unknown>): Converted<A> => Effect.runSync(effect)

// ---------------------------------------------------------------------------
// the conversations, as each format produces them
// ---------------------------------------------------------------------------

const callId = (f: Format, n: number): string =>
  f === "anthropic" || f === "effect-ai" ? `toolu_01A${n}` : f === "gemini" ? `gc_${n}` : `call_${n}xYz`

/** A call as the format produced it (Responses calls carry their output item id). */
const call = (f: Format, n: number, name: string, args: Record<string, string>): Block.ToolCallBlock =>
  Block.toolCall(callId(f, n), name, args, f === "openai-responses" ? { itemId: `fc_${n}` } : f === "gemini" && n === 1 ? { thoughtSignature: "CiQBVKhc7x" } : undefined)

const answer = (f: Format, text: string): Block.TextBlock => Block.text(text, f === "openai-responses" ? { itemId: "msg_9" } : undefined)

/** Reasoning as the format produced it. */
const thinking = (f: Format, text: string): Block.ThinkingBlock => {
  switch (f) {
    case "anthropic":
    case "effect-ai":
      return Block.thinking(text, "EqQBCkgIARABGAIiQL2")
    case "openai-responses":
      return Block.thinking("", undefined, { itemId: "rs_1", summary: [text], encryptedContent: "gAAAAABoxC0_aDtr" })
    case "gemini":
      return Block.thinking(text, undefined, { thoughtSignature: "CpYEAXLI2nxHJhy3" })
    case "openai-chat":
      // DeepSeek's reasoning_content, read by the Chat adapter
      return Block.thinking(text)
  }
}

/** A tool the provider ran itself, as that provider records it (Chat has none: a plain call instead). */
const serverTool = (f: Format): Array<Block.AssistantBlock> => {
  switch (f) {
    case "anthropic":
    case "effect-ai":
      return [
        Block.toolCall("srvtoolu_01", "web_search", { query: "Oslo weather" }, { providerExecuted: true }),
        Block.toolResult("srvtoolu_01", "web_search", [Block.json([{ type: "web_search_result", url: "https://yr.no", title: "Oslo", encrypted_content: "EqgfCi" }])], false, { providerExecuted: true })
      ]
    case "openai-responses":
      return run(OpenAiResponses.fromMessages([{ type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "Oslo weather" } }])).value[0]!.content as Array<Block.AssistantBlock>
    case "gemini":
      return run(Gemini.fromMessages({ contents: [{ role: "model", parts: [{ executableCode: { language: "PYTHON", code: "print(12 + 1)" } }, { codeExecutionResult: { outcome: "OUTCOME_OK", output: "13\n" } }] }] })).value[0]!.content as Array<Block.AssistantBlock>
    case "openai-chat":
      return []
  }
}

const png = Block.image("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAE=")

export const fixtures: Record<string, (f: Format) => Array<Message.Message>> = {
  "tool loop": (f) => [
    Message.system("You are a weather bot."),
    Message.user("Weather in Oslo?"),
    Message.assistant([Block.text("Let me check."), call(f, 1, "get_weather", { city: "Oslo" })]),
    Message.tool(Block.toolResult(callId(f, 1), "get_weather", "12°C, rain")),
    Message.assistant([answer(f, "It is 12°C and raining in Oslo.")])
  ],
  "parallel calls": (f) => [
    Message.user("Weather in Oslo, Paris and Rome?"),
    Message.assistant([call(f, 1, "get_weather", { city: "Oslo" }), call(f, 2, "get_weather", { city: "Paris" }), call(f, 3, "get_weather", { city: "Rome" })]),
    Message.tool([
      Block.toolResult(callId(f, 2), "get_weather", "18°C"),
      Block.toolResult(callId(f, 1), "get_weather", "12°C"),
      Block.toolResult(callId(f, 3), "get_weather", "24°C")
    ]),
    Message.assistant([answer(f, "Oslo 12°C, Paris 18°C, Rome 24°C.")])
  ],
  thinking: (f) => [
    Message.user("Is 1009 prime?"),
    Message.assistant([thinking(f, "Check divisors up to 31."), call(f, 1, "is_prime", { n: "1009" })]),
    Message.tool(Block.toolResult(callId(f, 1), "is_prime", "true")),
    Message.assistant([thinking(f, "The tool says prime."), answer(f, "Yes, 1009 is prime.")])
  ],
  images: (f) => [
    Message.user([Block.text("What is in these pictures?"), png, Block.image("https://example.com/cat.jpg", { mediaType: "image/jpeg" })]),
    Message.assistant([call(f, 1, "zoom", { region: "top-left" })]),
    // Chat tool messages hold text only
    Message.tool(Block.toolResult(callId(f, 1), "zoom", f === "openai-chat" ? "zoomed: a cat's ear" : [Block.text("zoomed:"), png])),
    Message.assistant([answer(f, "A cat on a sofa.")])
  ],
  "server tools": (f) => [
    Message.user("Weather in Oslo? Search the web."),
    Message.assistant([...serverTool(f), answer(f, "It is 12°C in Oslo.")])
  ]
}

// ---------------------------------------------------------------------------
// cells
// ---------------------------------------------------------------------------

/** A warning in a few words: its tag and what it is about. */
export const describe = (w: ConversionWarning): string => {
  switch (w._tag) {
    case "DroppedContent":
      return `dropped: ${w.what}`
    case "ConvertedContent":
      return `converted: ${w.what}`
    case "RepairedToolArguments":
      return `repaired: ${w.toolName}`
    case "RejectedSetting":
      return `rejected setting: ${w.path}`
    case "UnknownProviderField":
      return `${w.kept ? "kept" : "lost"}: ${w.path}`
    case "RejectedToolName":
      return `rejected name: ${w.name}`
    case "MissingRequiredField":
      return `missing: ${w.path}`
  }
}

/** How many blocks of each kind a conversation holds. */
const census = (messages: ReadonlyArray<Message.Message>): Map<string, number> => {
  const out = new Map<string, number>()
  for (const m of messages) for (const b of m.content) out.set(b._tag, (out.get(b._tag) ?? 0) + 1)
  return out
}

export interface Cell {
  /** What writing the source's conversation in the target reported, sorted, without repeats. */
  readonly warnings: ReadonlyArray<string>
  /** Block kinds fewer after the target's payload was read again (`kind -n`). */
  readonly lost: ReadonlyArray<string>
}

/** The conversation as the source format carries it: written in that format and read back. */
export const asCarriedBy = (fixture: string, source: Format): ReadonlyArray<Message.Message> => {
  const adapter = adapters[source]
  return run(adapter.read(run((adapter.writeOwn ?? adapter.write)(fixtures[fixture]!(source))).value)).value
}

/** What writing a format's own conversation in that format reports (nothing, for every fixture). */
export const diagonal = (fixture: string, format: Format): ReadonlyArray<string> => {
  const adapter = adapters[format]
  return run((adapter.writeOwn ?? adapter.write)(fixtures[fixture]!(format))).warnings.map(describe)
}

export const cell = (fixture: string, source: Format, target: Format): Cell => {
  const messages = asCarriedBy(fixture, source)
  const adapter = adapters[target]
  const written = run((source === target ? adapter.writeOwn ?? adapter.write : adapter.write)(messages))
  const back = run(adapters[target].read(written.value)).value
  const before = census(messages)
  const after = census(back)
  const lost: Array<string> = []
  for (const [kind, n] of before) {
    const d = n - (after.get(kind) ?? 0)
    if (d > 0) lost.push(`${kind} -${d}`)
  }
  return { warnings: [...new Set(written.warnings.map(describe))].sort(), lost: lost.sort() }
}
