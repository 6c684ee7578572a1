/**
 * Generators of realistic messages and conversations for property tests:
 * real-looking tool names and JSON arguments, parallel calls answered in any
 * order, thinking with signatures, metadata and provider options, and broken
 * histories (interrupted calls, orphans, same-role runs, empty messages).
 */
import { Arbitrary, Schema } from "effect"
import { Block, Message } from "../src/index.js"

const pick = <const A extends ReadonlyArray<string>>(values: A): Arbitrary.Arbitrary<A[number]> =>
  Arbitrary.schema(Schema.Literals(values))

export const intBetween = (minimum: number, maximum: number): Arbitrary.Arbitrary<number> =>
  Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum, maximum })))

export const bool: Arbitrary.Arbitrary<boolean> = Arbitrary.schema(Schema.Boolean)

const anyString: Arbitrary.Arbitrary<string> = Arbitrary.schema(Schema.String)

const sentences = [
  "What's the weather in Oslo tomorrow?",
  "帮我查一下北京到上海的高铁票。",
  "東京の天気を教えてください。",
  "서울 날씨 어때요?",
  "Summarize the last three commits 🚀",
  "Sure — let me look that up.",
  "",
  "  trailing space ",
  "Line one\nLine two\n\n- bullet",
  "{\"not\": \"really json\""
] as const

/** Text that looks like chat, sometimes arbitrary unicode. */
export const text: Arbitrary.Arbitrary<string> = bool.pipe(
  Arbitrary.flatMap((real) => (real ? pick(sentences) : anyString))
)

const toolNames = ["get_weather", "search_web", "read_file", "run_sql", "send_email", "calculator"] as const

const jsonLeaf: Arbitrary.Arbitrary<Schema.Json> = intBetween(0, 4).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Schema.Json> => {
    switch (k) {
      case 0:
        return text
      case 1:
        return intBetween(-1000, 100000)
      case 2:
        return bool
      case 3:
        return Arbitrary.Constant(null)
      default:
        return Arbitrary.array(pick(["a", "b", "celsius", "日本"]), { maxLength: 3 })
    }
  })
)

const argKeys = ["city", "query", "path", "limit", "units", "to", "subject", "filters", "expression"] as const

/** A realistic tool-argument object (string keys, JSON values, some nesting). */
export const argsObject: Arbitrary.Arbitrary<Record<string, Schema.Json>> = Arbitrary.array(
  Arbitrary.all([pick(argKeys), jsonLeaf, bool]),
  { maxLength: 4 }
).pipe(
  Arbitrary.map((entries) => {
    const out: Record<string, Schema.Json> = {}
    for (const [k, v, nest] of entries) out[k] = nest ? { value: v } : v
    return out
  })
)

/** Tool arguments: mostly objects, sometimes another JSON value (models do send arrays and strings). */
export const args: Arbitrary.Arbitrary<Schema.Json> = intBetween(0, 9).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Schema.Json> => (k < 8 ? argsObject : k === 8 ? jsonLeaf : Arbitrary.array(jsonLeaf, { maxLength: 3 })))
)

/** Anything JSON, including the awkward keys (`__proto__`, `constructor`) that must survive untouched. */
export const jsonValue: Arbitrary.Arbitrary<Schema.Json> = Arbitrary.array(Arbitrary.all([pick(["__proto__", "constructor", "a", "b"]), jsonLeaf]), { maxLength: 3 }).pipe(
  Arbitrary.map((entries) => {
    const out: Record<string, Schema.Json> = {}
    for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true })
    return out
  })
)

const metadata: Arbitrary.Arbitrary<Block.JsonObject | undefined> = intBetween(0, 2).pipe(
  Arbitrary.flatMap((k) =>
    k === 0
      ? Arbitrary.Constant(undefined)
      : Arbitrary.all({ sessionId: pick(["s-1", "s-2"]), latencyMs: intBetween(0, 5000), tags: Arbitrary.array(pick(["a", "b"]), { maxLength: 2 }) })
  )
)

// a breakpoint on about one block in ten: Anthropic takes at most 4 in a request, and a history with more stops
// every property that repairs at TooManyCacheBreakpoints (a rule of its own, tested on its own)
const providerOptions: Arbitrary.Arbitrary<Block.ProviderOptions | undefined> = intBetween(0, 9).pipe(
  Arbitrary.map((k) => (k === 0 ? { anthropic: { cache_control: { type: "ephemeral" } } } : undefined))
)

/** An item id of the given kind, unlikely to repeat within a history (the Responses API rejects a repeated one). */
const itemIdOf = (prefix: string): Arbitrary.Arbitrary<string | undefined> =>
  maybe(intBetween(1, 1_000_000).pipe(Arbitrary.map((n) => `${prefix}_${n}`)))

const maybe = <A>(arb: Arbitrary.Arbitrary<A>): Arbitrary.Arbitrary<A | undefined> =>
  bool.pipe(Arbitrary.flatMap((b) => (b ? arb : Arbitrary.Constant(undefined))))

const sig: Arbitrary.Arbitrary<string | undefined> = maybe(pick(["EqQBCkgIARAB", "c2lnbmF0dXJl", "Zm9vYmFy=="]))

/** Copies only the defined values, so absent optional fields stay absent. */
const defined = <A extends Record<string, unknown>>(o: A): { [K in keyof A]?: Exclude<A[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = o[k]
  return out as { [K in keyof A]?: Exclude<A[K], undefined> }
}

export const textBlock: Arbitrary.Arbitrary<Block.TextBlock> = Arbitrary.all({
  text,
  citations: maybe(Arbitrary.array(jsonValue, { minLength: 1, maxLength: 2 })),
  itemId: itemIdOf("msg"),
  thoughtSignature: sig,
  providerOptions
}).pipe(Arbitrary.map(({ text, ...rest }) => Block.text(text, defined(rest))))

export const thinkingBlock: Arbitrary.Arbitrary<Block.ThinkingBlock> = Arbitrary.all({
  thinking: text,
  signature: sig,
  summary: maybe(Arbitrary.array(pick(["Planning the lookup.", "**Checking** both cities", ""]), { maxLength: 3 })),
  itemId: itemIdOf("rs"),
  encryptedContent: maybe(pick(["gAAAAB...", "ZW5jcnlwdGVk"])),
  status: maybe(pick(["completed", "in_progress"])),
  thoughtSignature: sig
}).pipe(Arbitrary.map(({ signature, thinking, ...rest }) => Block.thinking(thinking, signature, defined(rest))))

export const redactedBlock: Arbitrary.Arbitrary<Block.RedactedThinkingBlock> = pick(["EmwKAhgBEgy3va3p", "b3BhcXVl"]).pipe(
  Arbitrary.map((data) => Block.redactedThinking(data))
)

export const refusalBlock: Arbitrary.Arbitrary<Block.RefusalBlock> = pick(["I can't help with that.", "抱歉，我无法协助。"]).pipe(
  Arbitrary.map((r) => Block.refusal(r))
)

/** Images, documents, audio and other files, from every kind of source. */
export const fileBlock: Arbitrary.Arbitrary<Block.FileBlock> = intBetween(0, 5).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Block.FileBlock> => {
    switch (k) {
      case 0:
        return maybe(pick(["auto", "low", "high", "original"] as const)).pipe(
          Arbitrary.map((detail) => Block.image("https://example.com/chart.png", defined({ detail })))
        )
      case 1:
        return Arbitrary.Constant(Block.image("data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="))
      case 2:
        return Arbitrary.all({ title: maybe(pick(["Q3 report", "契約書"])), citationsEnabled: maybe(bool) }).pipe(
          Arbitrary.map((o) => Block.document(Block.base64("JVBERi0xLjQK"), { filename: "report.pdf", ...defined(o) }))
        )
      case 3:
        return Arbitrary.Constant(
          Block.document(Block.textSource("Revenue grew 4%."), { title: "notes", context: "internal", citationsEnabled: true })
        )
      case 4:
        return Arbitrary.Constant(Block.audio("UklGRiQAAABXQVZF", "audio/wav"))
      default:
        return Arbitrary.Constant(Block.file(Block.fileId("file-abc123"), "application/pdf", { filename: "spec.pdf" }))
    }
  })
)

export const providerDataBlock: Arbitrary.Arbitrary<Block.ProviderDataBlock> = Arbitrary.Constant(
  Block.providerData("anthropic", { type: "container_upload", file_id: "file_01" })
)

let callCounter = 0
/** A tool call with a fresh, unique id; sometimes with the provider's argument text, sometimes text that did not parse. */
export const toolCallBlock: Arbitrary.Arbitrary<Block.ToolCallBlock> = Arbitrary.all({
  name: pick(toolNames),
  args,
  raw: intBetween(0, 3),
  thoughtSignature: sig,
  itemId: itemIdOf("fc")
}).pipe(
  Arbitrary.map(({ args, name, raw, ...rest }) => {
    const id = `call_${++callCounter}`
    if (raw === 1) return Block.toolCall(id, name, args, defined({ ...rest, rawArgs: JSON.stringify(args, null, 1) }))
    if (raw === 2) return Block.toolCall(id, name, {}, defined({ ...rest, rawArgs: '{"city": "Osl', parseError: "Unterminated string in JSON at position 13" }))
    return Block.toolCall(id, name, args, defined(rest))
  })
)

export const resultPart: Arbitrary.Arbitrary<Block.ToolResultPart> = intBetween(0, 3).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Block.ToolResultPart> =>
    k <= 1 ? textBlock : k === 2 ? fileBlock : jsonValue.pipe(Arbitrary.map(Block.json))
  )
)

export const resultContent: Arbitrary.Arbitrary<Block.ToolResultContent> = bool.pipe(
  Arbitrary.flatMap((plain): Arbitrary.Arbitrary<Block.ToolResultContent> =>
    plain ? text : Arbitrary.array(resultPart, { minLength: 1, maxLength: 3 })
  )
)

export const resultFor = (call: Block.ToolCallBlock): Arbitrary.Arbitrary<Block.ToolResultBlock> =>
  Arbitrary.all({ content: resultContent, isError: bool, providerOptions }).pipe(
    Arbitrary.map(({ content, isError, providerOptions }) =>
      Block.toolResult(call.id, call.name, content, isError, defined({ providerOptions }))
    )
  )

/** A tool the provider ran itself: the call and its result, side by side in the assistant message. */
export const serverToolUse: Arbitrary.Arbitrary<ReadonlyArray<Block.AssistantBlock>> = Arbitrary.all({ q: text, hits: jsonValue }).pipe(
  Arbitrary.map(({ hits, q }) => {
    const id = `srvtoolu_${++callCounter}`
    return [
      Block.toolCall(id, "web_search", { query: q }, { providerExecuted: true }),
      Block.toolResult(id, "web_search", [Block.json([hits])], false, { providerExecuted: true })
    ]
  })
)

const assistantBlock: Arbitrary.Arbitrary<Block.AssistantBlock> = intBetween(0, 6).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Block.AssistantBlock> =>
    k === 0 ? textBlock : k === 1 ? thinkingBlock : k === 2 ? redactedBlock : k === 3 ? refusalBlock : k === 4 ? fileBlock : k === 5 ? providerDataBlock : toolCallBlock
  )
)

const userBlock: Arbitrary.Arbitrary<Block.UserBlock> = intBetween(0, 3).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Block.UserBlock> => (k <= 1 ? textBlock : k === 2 ? fileBlock : providerDataBlock))
)

const usage = maybe(
  Arbitrary.all({ inputTokens: intBetween(0, 200_000), outputTokens: intBetween(0, 8000), cachedInputTokens: maybe(intBetween(0, 1000)) }).pipe(
    Arbitrary.map(defined)
  )
)

const messageOptions = Arbitrary.all({ metadata, providerOptions, name: maybe(pick(["alice", "bob"])) })

/** Any single message of any role, with every optional field sometimes set. */
export const message: Arbitrary.Arbitrary<Message.Message> = Arbitrary.all([intBetween(0, 3), messageOptions]).pipe(
  Arbitrary.flatMap(([role, opts]): Arbitrary.Arbitrary<Message.Message> => {
    const named = defined(opts)
    const { name: _name, ...unnamed } = named
    switch (role) {
      case 0:
        return Arbitrary.array(textBlock, { maxLength: 2 }).pipe(Arbitrary.map((c) => Message.system(c, named)))
      case 1:
        return Arbitrary.array(userBlock, { maxLength: 3 }).pipe(Arbitrary.map((c) => Message.user(c, named)))
      case 2:
        return Arbitrary.all({ blocks: Arbitrary.array(assistantBlock, { maxLength: 5 }), server: maybe(serverToolUse), usage }).pipe(
          Arbitrary.map(({ blocks, server, usage }) =>
            Message.assistant([...blocks, ...(server ?? [])], { ...named, ...defined({ usage }) })
          )
        )
      default:
        return Arbitrary.array(toolCallBlock, { minLength: 1, maxLength: 3 }).pipe(
          Arbitrary.flatMap((calls) => Arbitrary.all(calls.map(resultFor))),
          Arbitrary.map((results) => Message.tool(results, unnamed))
        )
    }
  })
)

/** Shuffles deterministically with a seed. */
const shuffle = <A>(items: ReadonlyArray<A>, seed: number): Array<A> => {
  const out = items.slice()
  let s = seed || 1
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    const j = s % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** One assistant step: optional thinking and text, 0..3 parallel calls, then their results. */
const step = (thinkingInUse: boolean): Arbitrary.Arbitrary<Array<Message.Message>> =>
  Arbitrary.all({
    thinking: thinkingBlock,
    lead: maybe(textBlock),
    calls: Arbitrary.array(toolCallBlock, { minLength: 1, maxLength: 3 }),
    grouped: bool,
    seed: intBetween(1, 1_000_000)
  }).pipe(
    Arbitrary.flatMap(({ calls, grouped, lead, seed, thinking }) =>
      Arbitrary.all(calls.map(resultFor)).pipe(
        Arbitrary.map((results) => {
          const content: Array<Block.AssistantBlock> = []
          if (thinkingInUse) content.push(new Block.ThinkingBlock({ thinking: thinking.thinking, signature: thinking.signature ?? "sig" }))
          if (lead !== undefined && lead.text.trim() !== "") content.push(lead)
          content.push(...calls)
          const out: Array<Message.Message> = [Message.assistant(content)]
          const ordered = shuffle(results, seed)
          if (ordered.length > 0) {
            if (grouped) out.push(Message.tool(ordered))
            else for (const r of ordered) out.push(Message.tool(r))
          }
          return out
        })
      )
    )
  )

/** A user turn: a user message, then 0..3 tool-calling steps, ending with an assistant answer. */
const turn = (thinkingInUse: boolean): Arbitrary.Arbitrary<Array<Message.Message>> =>
  Arbitrary.all({ ask: pick(sentences), steps: Arbitrary.array(step(thinkingInUse), { maxLength: 3 }) }).pipe(
    Arbitrary.map(({ ask, steps }) => {
      const out: Array<Message.Message> = [Message.user(ask === "" ? "hello" : ask)]
      for (const s of steps) out.push(...s)
      out.push(Message.assistant("Here is what I found."))
      return out
    })
  )

/** A valid conversation with realistic tool traffic (parallel calls, any result order). */
export const validConversation: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.all({
  withSystem: bool,
  thinkingInUse: bool,
  n: intBetween(1, 4)
}).pipe(
  Arbitrary.flatMap(({ n, thinkingInUse, withSystem }) =>
    Arbitrary.array(turn(thinkingInUse), { minLength: n, maxLength: n }).pipe(
      Arbitrary.map((turns) => {
        const out: Array<Message.Message> = withSystem ? [Message.system("You are a helpful agent.")] : []
        for (const t of turns) out.push(...t)
        return out
      })
    )
  )
)

/** Ways a real history breaks. */
export type Breakage = (typeof breakages)[number]

const breakages = [
  "interrupt",
  "orphan",
  "duplicateUser",
  "duplicateAssistant",
  "empty",
  "dropResult",
  "duplicateResult",
  // what providers reject on top of the generic rules
  "blankText",
  "trailingSpace",
  "unsignedThinking",
  "systemMidway",
  "reuseId",
  "repairedIdClash",
  "reasoningOnly",
  "assistantFirst",
  "userSystemUser"
] as const

const applyBreakage = (messages: Array<Message.Message>, kind: Breakage, at: number): Array<Message.Message> => {
  const out = messages.slice()
  const i = out.length === 0 ? 0 : at % out.length
  switch (kind) {
    case "interrupt": {
      // cut the conversation right after an assistant's calls
      const j = out.findIndex((m, k) => k >= i && Message.hasToolCalls(m))
      return j === -1 ? out : out.slice(0, j + 1)
    }
    case "orphan":
      out.splice(i, 0, Message.toolResultMessage(`call_orphan_${at}`, "read_file", "stale result"))
      return out
    case "duplicateUser":
      out.splice(i, 0, Message.user("Are you there?"))
      return out
    case "duplicateAssistant":
      out.splice(i, 0, Message.assistant("Still thinking..."))
      return out
    case "empty":
      out.splice(i, 0, Message.assistant([]))
      return out
    case "dropResult": {
      const j = out.findIndex((m, k) => k >= i && m.role === "tool")
      if (j !== -1) out.splice(j, 1)
      return out
    }
    case "duplicateResult": {
      const j = out.findIndex((m, k) => k >= i && m.role === "tool")
      if (j !== -1) out.splice(j + 1, 0, out[j]!)
      return out
    }
    case "blankText":
      out.splice(i, 0, Message.user([Block.text("  \n ")]))
      return out
    case "trailingSpace":
      out.push(Message.assistant("Here is the summary:  \n"))
      return out
    case "unsignedThinking": {
      const j = out.findIndex((m, k) => k >= i && m.role === "assistant")
      if (j !== -1) out[j] = Message.assistant([Block.thinking("Let me reconsider."), ...(out[j] as Message.AssistantMessage).content])
      return out
    }
    case "systemMidway":
      out.splice(i, 0, Message.system("Answer in French from now on."))
      return out
    case "reuseId": {
      // a later call reuses an earlier call's id (a client that counts ids per turn)
      const calls = out.flatMap((m) => Message.toolCallsOf(m))
      const first = calls[0]
      if (first === undefined) return out
      out.push(Message.user("again"), Message.assistant([Block.toolCall(first.id, first.name, {})]), Message.toolResultMessage(first.id, first.name, "second run"))
      return out
    }
    case "repairedIdClash": {
      // ids that look like the ones repair generates, already in the input
      out.push(
        Message.user("two more"),
        Message.assistant([Block.toolCall("c1", "f", {}), Block.toolCall("c1", "g", {})]),
        Message.tool([Block.toolResult("c1", "f", "from f"), Block.toolResult("c1", "g", "from g")]),
        Message.user("and another"),
        Message.assistant([Block.toolCall("c1_repaired_1", "h", {})]),
        Message.toolResultMessage("c1_repaired_1", "h", "from h")
      )
      return out
    }
    case "reasoningOnly":
      out.splice(i, 0, Message.assistant([Block.thinking("Thinking it over.", "sig", { itemId: "rs_9", encryptedContent: "gAAAA" })]))
      return out
    case "assistantFirst": {
      const start = out.findIndex((m) => m.role !== "system")
      out.splice(start === -1 ? 0 : start, 0, Message.assistant([Block.toolCall(`call_first_${at}`, "lookup", {})]), Message.toolResultMessage(`call_first_${at}`, "lookup", "ok"))
      return out
    }
    case "userSystemUser": {
      const j = out.findIndex((m, k) => k >= i && m.role === "user")
      if (j !== -1) out.splice(j + 1, 0, Message.system("Be brief."), Message.user("Also, use metric units."))
      return out
    }
  }
}

// ---------------------------------------------------------------------------
// agent histories: long tool outputs, CJK, files, thinking, parallel calls
// ---------------------------------------------------------------------------

const longPieces = [
  "The build failed because the test runner could not find the config file. ",
  "const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0)\n",
  "北京到上海的高铁每天有很多班次，最快的需要四个半小时。",
  "東京の天気は晴れ、最高気温は二十三度です。",
  "| id | name | status |\n|----|------|--------|\n| 42 | alpha | ok |\n",
  '{"status":200,"items":[{"id":1,"path":"/src/index.ts"},{"id":2,"path":"/src/日本.ts"}]}'
] as const

/** A tool output: short, or a long one made of realistic pieces (code, logs, tables, CJK, JSON), up to ~8k characters. */
export const toolOutput: Arbitrary.Arbitrary<string> = Arbitrary.all({ long: intBetween(0, 2), repeat: intBetween(1, 120), start: intBetween(0, 5) }).pipe(
  Arbitrary.map(({ long, repeat, start }) => {
    if (long === 0) return longPieces[start]!
    let out = ""
    for (let i = 0; i < repeat; i++) out += longPieces[(start + i) % longPieces.length]!
    return out
  })
)

const nonBlank = ["Please fix the failing build.", "帮我查一下北京到上海的高铁票。", "東京の天気を教えてください。", "서울 날씨 어때요?", "Summarize the last three commits 🚀", "Read src/index.ts and explain it."] as const

/** A deterministic PRNG (mulberry32): agent histories are built from one seed, which keeps generation fast. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const agentFiles: ReadonlyArray<Block.FileBlock> = [
  Block.image("https://example.com/chart.png", { detail: "low" }),
  Block.image("data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="),
  Block.document(Block.base64("JVBERi0xLjQK"), { filename: "report.pdf", title: "Q3 report" }),
  Block.document(Block.textSource("契約書の第四条：支払いは三十日以内。"), { title: "契約書" }),
  Block.file(Block.fileId("file-abc123"), "application/pdf", { filename: "spec.pdf" })
]

/** How an agent history is flavoured: thinking with signatures on every step, Gemini thought signatures on the first call of every step. */
export interface AgentFlavor {
  readonly thinking: boolean
  readonly geminiSignatures: boolean
}

/** How a history ends: with the assistant's answer, in the middle of a tool loop (results last), or with a new question. */
export type AgentEnding = "answer" | "toolLoop" | "question"

let agentCall = 0

/** Builds one history from a seed: user turns of 0..4 steps, each step 1..4 parallel calls (sometimes a server tool), every result in any order. */
const buildAgentHistory = (seed: number, turns: number, withSystem: boolean, flavor: AgentFlavor, ending: AgentEnding): Array<Message.Message> => {
  const random = prng(seed)
  const int = (n: number) => Math.floor(random() * n)
  const one = <A>(xs: ReadonlyArray<A>): A => xs[int(xs.length)]!
  const output = (): string => {
    if (int(3) > 0) return one(longPieces)
    let out = ""
    const repeat = 1 + int(60)
    const start = int(longPieces.length)
    for (let i = 0; i < repeat; i++) out += longPieces[(start + i) % longPieces.length]!
    return out
  }
  const resultContent = (): Block.ToolResultContent => {
    const kind = int(6)
    if (kind <= 3) return output()
    if (kind === 4) return [Block.text(output()), one(agentFiles)]
    return [Block.json({ rows: int(100), path: "/src/日本.ts", ok: random() < 0.5 }), Block.text(output())]
  }
  const args = (): Schema.Json => {
    const k = int(4)
    return k === 0 ? {} : k === 1 ? { path: "/src/index.ts" } : k === 2 ? { query: one(nonBlank), limit: int(20) } : { city: "東京", units: "celsius" }
  }
  const out: Array<Message.Message> = withSystem ? [Message.system("You are a careful coding agent. 回答要简洁。")] : []
  for (let t = 0; t < turns; t++) {
    const last = t === turns - 1
    const ask = one(nonBlank)
    out.push(Message.user(int(4) === 0 ? [Block.text(ask), one(agentFiles)] : ask))
    if (last && ending === "question") break
    const steps = (last && ending === "toolLoop" ? 1 : 0) + int(last && ending === "toolLoop" ? 4 : 5)
    for (let s = 0; s < steps; s++) {
      const content: Array<Block.AssistantBlock> = []
      if (flavor.thinking) content.push(Block.thinking(one(["Planning the next step.", "先读文件，再回答。", "Two lookups in parallel."]), "EqQBCkgIARAB"))
      if (int(2) === 0) content.push(Block.text(one(nonBlank)))
      if (int(10) === 0) {
        const id = `srvtoolu_a${++agentCall}`
        content.push(Block.toolCall(id, "web_search", { query: "effect" }, { providerExecuted: true }))
        content.push(Block.toolResult(id, "web_search", [Block.json([{ url: "https://effect.website" }])], false, { providerExecuted: true }))
      }
      const results: Array<Block.ToolResultBlock> = []
      const calls = 1 + int(4)
      for (let k = 0; k < calls; k++) {
        const id = `call_a${++agentCall}`
        const name = one(toolNames)
        content.push(Block.toolCall(id, name, args(), flavor.geminiSignatures && k === 0 ? { thoughtSignature: "c2lnbmF0dXJl" } : undefined))
        results.push(Block.toolResult(id, name, resultContent(), int(8) === 0))
      }
      out.push(Message.assistant(content))
      const ordered = shuffle(results, 1 + int(1_000_000))
      if (int(2) === 0) out.push(Message.tool(ordered))
      else for (const r of ordered) out.push(Message.tool(r))
    }
    if (last && ending === "toolLoop") break
    const answer: Array<Block.AssistantBlock> = flavor.thinking ? [Block.thinking("Writing the answer.", "EqQBCkgIARAB")] : []
    answer.push(Block.text(one(nonBlank)))
    out.push(Message.assistant(answer))
  }
  return out
}

/**
 * A valid agent history: maybe a system message, 1..6 user turns of tool-calling
 * steps with parallel calls, long outputs, CJK text, files and (for some) thinking,
 * ending with an answer, inside a tool loop, or with a new question.
 */
export const agentConversation: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.all({
  seed: intBetween(1, 2_000_000_000),
  turns: intBetween(1, 6),
  withSystem: bool,
  thinking: bool,
  geminiSignatures: intBetween(0, 3),
  ending: pick(["answer", "toolLoop", "question"] as const)
}).pipe(
  Arbitrary.map(({ ending, geminiSignatures, seed, thinking, turns, withSystem }) =>
    buildAgentHistory(seed, turns, withSystem, { thinking, geminiSignatures: geminiSignatures === 0 }, ending)
  )
)

/**
 * A conversation with 1..3 realistic breakages applied (it may happen to stay valid), to a valid conversation or
 * (one time in two) to an agent history: server tools, files and errors in results, Gemini signatures, a history
 * that ends inside a tool loop.
 */
export const brokenConversation: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.all({
  base: bool.pipe(Arbitrary.flatMap((agent) => (agent ? agentConversation : validConversation))),
  damage: Arbitrary.array(Arbitrary.all([pick(breakages), intBetween(0, 10_000)]), { minLength: 1, maxLength: 3 })
}).pipe(
  Arbitrary.map(({ base, damage }) => damage.reduce((acc, [kind, at]) => applyBreakage(acc, kind, at), base))
)
