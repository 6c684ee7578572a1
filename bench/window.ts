/**
 * The message window: fit time per message at 1k, 10k, 100k and 1M messages
 * (it must stay flat), against a port of the original drop-one-and-re-estimate
 * window and LangChain.js `trimMessages` on the same conversations, and the
 * budget each strategy leaves unused.
 *
 * Conversations are tool-heavy agent histories: a system message, user
 * turns, assistant steps with thinking and 1-4 parallel calls, their results
 * (200-3,000 characters, some CJK), and an answer per turn. Every estimate
 * here uses the CJK-weighted rule (`TokenEstimator.cjkWeightedTextRule`), so the
 * port re-estimates with the same numbers the window uses once.
 *
 * The baselines are quadratic, so each runs in a worker thread that is
 * stopped at a time cap (`WINDOW_BENCH_CAP_S`, default 60 s); once one size
 * does not finish, larger sizes are not tried.
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs bench/window.ts
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages } from "@langchain/core/messages"
import type { BaseMessage } from "@langchain/core/messages"
import { Effect, Result } from "effect"
import { pathToFileURL } from "node:url"
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads"
import { Block, Conversation, Message, MessageWindow, Summarizer, TokenEstimator } from "../src/index.js"
import { consume, fmt, now, table, timePerCall } from "./measure.js"

// ---------------------------------------------------------------------------
// conversations
// ---------------------------------------------------------------------------

const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const phrases = [
  "Let me look that up. ",
  "The build failed because the test runner could not find the config file. ",
  "const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0)\n",
  "According to the logs, the request timed out after 30 seconds (HTTP 504). ",
  "| id | name | status |\n|----|------|--------|\n| 42 | alpha | ok |\n",
  '{"path":"src/server/routes.ts","line":118,"message":"Property \'user\' does not exist on type \'Request\'"}\n',
  "帮我查一下北京到上海的高铁票。",
  "diff --git a/src/index.ts b/src/index.ts\n@@ -1,4 +1,6 @@\n+import { Effect } from \"effect\"\n"
]

/** Texts shared between messages (a million messages must not hold a million long strings). */
const pool = (() => {
  const random = rng(7)
  const out: Array<string> = []
  for (let i = 0; i < 512; i++) {
    const length = 40 + Math.floor(random() * 2_960)
    let s = ""
    while (s.length < length) s += phrases[Math.floor(random() * phrases.length)]!
    out.push(s)
  }
  return out
})()

/** A tool-heavy agent history of `size` messages, the same for the same seed, ending with a complete turn. */
export const makeHistory = (size: number, seed = 1): Array<Message.Message> => {
  const random = rng(seed)
  const text = (min: number, max: number): string => {
    for (;;) {
      const s = pool[Math.floor(random() * pool.length)]!
      if (s.length >= min && s.length <= max) return s
    }
  }
  const out: Array<Message.Message> = [Message.system(pool[0]!.slice(0, 600))]
  let call = 0
  while (out.length < size) {
    out.push(Message.user(text(40, 400)))
    const steps = 1 + Math.floor(random() * 4)
    for (let s = 0; s < steps; s++) {
      const k = 1 + Math.floor(random() * 4)
      const content: Array<Block.AssistantBlock> = [Block.thinking(text(40, 400), "sig")]
      const results: Array<Block.ToolResultBlock> = []
      for (let j = 0; j < k; j++) {
        const id = `call_${++call}`
        const name = j % 2 === 0 ? "read_file" : "search_web"
        content.push(Block.toolCall(id, name, { path: `src/file_${call}.ts`, limit: 20 }))
        results.push(Block.toolResult(id, name, text(200, 3_000)))
      }
      out.push(Message.assistant(content))
      for (const r of results) out.push(Message.tool(r))
    }
    out.push(Message.assistant(text(100, 600)))
  }
  // end with a complete turn
  while (out.length > 2 && (out[out.length - 1]!.role !== "assistant" || Message.hasToolCalls(out[out.length - 1]!))) out.pop()
  return out
}

// ---------------------------------------------------------------------------
// the original window, ported: drop one message, re-estimate everything, repeat
// ---------------------------------------------------------------------------

interface FlatCall {
  readonly id: string
  readonly name: string
  readonly args: unknown
}
interface Flat {
  readonly role: Message.Role
  readonly content: string
  readonly toolCalls?: ReadonlyArray<FlatCall>
  readonly toolCallId?: string
  readonly toolName?: string
  readonly index: number
}

const flatten = (messages: ReadonlyArray<Message.Message>): Array<Flat> =>
  messages.flatMap((m, index): Array<Flat> => {
    switch (m.role) {
      case "tool":
        return m.content.map((r) => ({ role: "tool", content: Block.resultContentText(r.content), toolCallId: r.toolCallId, toolName: r.toolName, index }))
      case "assistant": {
        const calls = Message.toolCallsOf(m).map((c) => ({ id: c.id, name: c.name, args: c.args }))
        const thinking = m.content.map((b) => (b._tag === "Thinking" ? b.thinking : "")).join("")
        return [{ role: "assistant", content: thinking + Message.textOf(m), ...(calls.length > 0 ? { toolCalls: calls } : {}), index }]
      }
      case "system":
      case "user":
        return [{ role: m.role, content: Message.textOf(m), index }]
    }
  })

const seedRule = TokenEstimator.cjkWeightedTextRule()

/** The original's estimate: no memo, every text read again on every call. */
const portEstimate = (m: Flat): number => {
  let tokens = 4 + seedRule(m.content)
  if (m.toolName !== undefined) tokens += seedRule(m.toolName)
  if (m.toolCalls !== undefined) for (const c of m.toolCalls) tokens += seedRule(c.name) + seedRule(JSON.stringify(c.args))
  return tokens
}

/** The original MessageWindow's drop_oldest: while over budget, drop the first non-system message (an assistant takes its tool results along). */
const portDropOldest = (input: ReadonlyArray<Flat>, maxTokens: number, estimate: (m: Flat) => number): Array<Flat> => {
  let messages = input.slice()
  const total = () => {
    let sum = 0
    for (const m of messages) sum += estimate(m)
    return sum
  }
  while (total() > maxTokens) {
    const start = messages.findIndex((m) => m.role !== "system")
    if (start === -1 || messages.length - start <= 1) break
    const [removed] = messages.splice(start, 1)
    if (removed!.role === "assistant" && removed!.toolCalls !== undefined) {
      const ids = new Set(removed!.toolCalls.map((c) => c.id))
      messages = messages.filter((m) => !(m.role === "tool" && m.toolCallId !== undefined && ids.has(m.toolCallId)))
    }
  }
  return messages
}

// ---------------------------------------------------------------------------
// LangChain.js trimMessages
// ---------------------------------------------------------------------------

/** LangChain messages with ids pointing back to ours, one ToolMessage per result. */
const toLangChain = (messages: ReadonlyArray<Message.Message>): Array<BaseMessage> =>
  messages.flatMap((m, i): Array<BaseMessage> => {
    const id = String(i)
    switch (m.role) {
      case "system":
        return [new SystemMessage({ content: Message.textOf(m), id })]
      case "user":
        return [new HumanMessage({ content: Message.textOf(m), id })]
      case "assistant":
        return [
          new AIMessage({
            content: Message.textOf(m),
            id,
            tool_calls: Message.toolCallsOf(m).map((c) => ({ id: c.id, name: c.name, args: c.args as Record<string, unknown>, type: "tool_call" as const }))
          })
        ]
      case "tool":
        return m.content.map((r, k) => new ToolMessage({ content: Block.resultContentText(r.content), tool_call_id: r.toolCallId, id: k === 0 ? id : `${id}.${k}` }))
    }
  })

/** A token counter for LangChain from our per-message estimates (memoized: a fair counter; LangChain's loop is what is measured). */
const langChainCounter = (estimates: ReadonlyArray<number>) => (messages: Array<BaseMessage>): number => {
  let sum = 0
  for (const m of messages) {
    const id = m.id ?? ""
    if (id.includes(".")) continue // the other results of one tool message are counted with the first
    sum += estimates[Number(id)] ?? 0
  }
  return sum
}

/** Our messages LangChain kept (a tool message counts as kept when its first result is), in order. */
const fromLangChain = (kept: ReadonlyArray<BaseMessage | undefined>, messages: ReadonlyArray<Message.Message>): { messages: Array<Message.Message>; holes: number } => {
  const out: Array<Message.Message> = []
  let holes = 0
  for (const m of kept) {
    if (m === undefined) {
      holes++
      continue
    }
    const id = m.id ?? ""
    if (!id.includes(".")) out.push(messages[Number(id)]!)
  }
  return { messages: out, holes }
}

const runLangChain = (messages: ReadonlyArray<Message.Message>, estimates: ReadonlyArray<number>, budget: number, startOn?: "human") =>
  trimMessages(toLangChain(messages), {
    maxTokens: budget,
    tokenCounter: langChainCounter(estimates),
    strategy: "last",
    includeSystem: true,
    ...(startOn === undefined ? {} : { startOn })
  })

// ---------------------------------------------------------------------------
// baselines in a worker, stopped at the cap
// ---------------------------------------------------------------------------

interface Job {
  readonly kind: "port" | "langchain"
  readonly size: number
  readonly budget: number
}

const seedEstimator = (): TokenEstimator.Service => Effect.runSync(TokenEstimator.makeCjkWeighted())

const runJob = async (job: Job): Promise<number> => {
  const messages = makeHistory(job.size)
  if (job.kind === "port") {
    const flat = flatten(messages)
    const start = now()
    consume(portDropOldest(flat, job.budget, portEstimate))
    return now() - start
  }
  const estimates = seedEstimator().estimateEach(messages)
  const start = now()
  consume(await runLangChain(messages, estimates, job.budget))
  return now() - start
}

if (!isMainThread && (workerData as { job?: Job } | undefined)?.job !== undefined) {
  void runJob((workerData as { job: Job }).job).then((ms) => parentPort!.postMessage(ms))
}

const capSeconds = Number(process.env["WINDOW_BENCH_CAP_S"] ?? 60)

/** Milliseconds the job took, or undefined when it did not finish within the cap. */
const inWorker = (job: Job): Promise<number | undefined> =>
  new Promise((resolve) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { job } })
    const timer = setTimeout(() => {
      void worker.terminate()
      resolve(undefined)
    }, capSeconds * 1_000 + 30_000) // building the conversation in the worker is not timed: allow for it
    const started = now()
    worker.once("message", (ms: number) => {
      clearTimeout(timer)
      void worker.terminate()
      resolve(ms <= capSeconds * 1_000 ? ms : undefined)
    })
    worker.once("error", (error) => {
      clearTimeout(timer)
      console.error(`${job.kind} at ${job.size}: ${String(error)} after ${fmt((now() - started) / 1000)} s`)
      resolve(undefined)
    })
  })

// ---------------------------------------------------------------------------
// the bench
// ---------------------------------------------------------------------------

const windowOn = (estimator: TokenEstimator.Service): MessageWindow.Service =>
  Effect.runSync(MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, estimator), Effect.provide(Summarizer.layerExtractive())))

const fitOrThrow = (window: MessageWindow.Service, messages: ReadonlyArray<Message.Message>, budget: number, options?: MessageWindow.FitOptions): MessageWindow.Fitted => {
  const result = Effect.runSync(Effect.result(window.fit(messages, budget, options)))
  if (Result.isFailure(result)) throw new Error(`fit failed: ${result.failure.message}`)
  return result.success
}

const BUDGET = 128_000

const speed = async (): Promise<void> => {
  const sizes = [1_000, 10_000, 100_000, 1_000_000].filter((n) => n <= Number(process.env["WINDOW_BENCH_MAX"] ?? 1_000_000))
  console.log(`\n## MessageWindow.fit: time per message (budget ${BUDGET.toLocaleString("en-US")} tokens, CJK-weighted rule)\n`)
  const started = now()
  const full = makeHistory(sizes[sizes.length - 1] ?? 1_000)
  console.log(`built a ${full.length.toLocaleString("en-US")}-message history in ${fmt((now() - started) / 1000)} s`)
  const rows: Array<Array<string>> = []
  const flat: Record<string, Array<number>> = { cold: [], warm: [], pair: [], clear: [] }
  let portFinished = true
  let langChainFinished = true
  for (const size of sizes) {
    const messages = size === full.length ? full : makeHistory(size)
    const warmWindow = windowOn(seedEstimator())
    fitOrThrow(warmWindow, messages, BUDGET)
    const opts = { minMs: size >= 1_000_000 ? 600 : 200, rounds: size >= 100_000 ? 3 : 5 }
    const tCold = timePerCall(() => consume(fitOrThrow(windowOn(seedEstimator()), messages, BUDGET)), { ...opts, rounds: 3 })
    const tWarm = timePerCall(() => consume(fitOrThrow(warmWindow, messages, BUDGET)), opts)
    const tPair = timePerCall(() => consume(fitOrThrow(warmWindow, messages, BUDGET, { strategy: "drop_oldest_pair" })), opts)
    const tClear = timePerCall(() => consume(fitOrThrow(warmWindow, messages, BUDGET, { strategy: ["clear_tool_results", "drop_oldest"] })), opts)
    const ns = (t: number) => (t * 1e6) / messages.length
    flat["cold"]!.push(ns(tCold))
    flat["warm"]!.push(ns(tWarm))
    flat["pair"]!.push(ns(tPair))
    flat["clear"]!.push(ns(tClear))
    const port = portFinished ? await inWorker({ kind: "port", size, budget: BUDGET }) : undefined
    const langChain = langChainFinished ? await inWorker({ kind: "langchain", size, budget: BUDGET }) : undefined
    const skipped = (finished: boolean) => (finished ? `> ${capSeconds} s` : "not run")
    rows.push([
      size.toLocaleString("en-US"),
      fmt(ns(tCold)),
      fmt(ns(tWarm)),
      fmt(ns(tPair)),
      fmt(ns(tClear)),
      port === undefined ? skipped(portFinished) : `${fmt(port / 1000, 2)} s`,
      port === undefined ? "-" : `${fmt(port / tCold, 0)}x`,
      langChain === undefined ? skipped(langChainFinished) : `${fmt(langChain / 1000, 2)} s`,
      langChain === undefined ? "-" : `${fmt(langChain / tWarm, 0)}x`
    ])
    if (port === undefined) portFinished = false
    if (langChain === undefined) langChainFinished = false
  }
  table(
    ["messages", "first fit ns/msg", "again ns/msg", "pair ns/msg", "clear+drop ns/msg", "original port", "port / first fit", "LangChain trimMessages", "LangChain / again"],
    rows
  )
  const ratio = (k: string) => fmt(flat[k]![flat[k]!.length - 1]! / flat[k]![0]!, 2)
  console.log(
    `\nper-message time at 1M vs 1k: first fit ${ratio("cold")}x, again ${ratio("warm")}x, pair ${ratio("pair")}x, clear+drop ${ratio("clear")}x (1.00x = flat)`
  )
  console.log(
    `"first fit" estimates every message (a fresh estimator); "again" is the same window fitting again, estimates memoized, as an agent refitting each step.\n` +
      `The port re-estimates every message after each drop, so it is compared with a first fit; LangChain is given the estimates\n` +
      `(a memoized counter), so it is compared with a fit on memoized estimates.\n` +
      `Baselines run in a worker thread stopped after ${capSeconds} s (WINDOW_BENCH_CAP_S); a size that does not finish stops the larger ones.`
  )
}

const unused = async (): Promise<void> => {
  const conversations = 60
  const budgets = [16_000, 32_000, 64_000, 128_000] as const
  console.log(`\n## Unused budget: ${conversations} histories of ~400 messages x budgets ${budgets.map((b) => `${b / 1000}k`).join(", ")}\n`)
  const strategies: ReadonlyArray<readonly [string, MessageWindow.FitOptions]> = [
    ["drop_oldest", { strategy: "drop_oldest" }],
    ["drop_oldest_pair", { strategy: "drop_oldest_pair" }],
    ["clear_tool_results + drop_oldest", { strategy: ["clear_tool_results", "drop_oldest"] }],
    ["summarize (extractive)", { strategy: "summarize" }]
  ]
  const sums = new Map<string, { unused: number; runs: number; invalid: number; holes: number }>()
  const add = (name: string, unusedFraction: number, valid: boolean, holes = 0) => {
    const entry = sums.get(name) ?? { unused: 0, runs: 0, invalid: 0, holes: 0 }
    entry.unused += unusedFraction
    entry.runs++
    if (!valid) entry.invalid++
    if (holes > 0) entry.holes++
    sums.set(name, entry)
  }
  for (let c = 0; c < conversations; c++) {
    const messages = makeHistory(380 + ((c * 37) % 60), 1_000 + c)
    const estimator = seedEstimator()
    const window = windowOn(estimator)
    const estimates = estimator.estimateEach(messages)
    const total = estimates.reduce((a, b) => a + b, 0)
    const byMessage = new Map(messages.map((m, i) => [m, estimates[i]!]))
    const cost = (ms: ReadonlyArray<Message.Message>) => ms.reduce((a, m) => a + (byMessage.get(m) ?? estimator.estimateMessage(m)), 0)
    const flat = flatten(messages)
    // the port decides on the same (memoized) estimates: a message's figure on its first flat entry
    const flatCost = new Map(flat.map((m, k) => [m, k > 0 && flat[k - 1]!.index === m.index ? 0 : estimates[m.index]!]))
    for (const budget of budgets) {
      if (total <= budget) continue
      for (const [name, options] of strategies) {
        const fitted = fitOrThrow(window, messages, budget, options)
        add(name, (budget - fitted.tokensAfter) / budget, Conversation.isValid(fitted.messages))
      }
      const kept = portDropOldest(flat, budget, (m) => flatCost.get(m)!)
      const keptMessages = [...new Set(kept.map((m) => m.index))].map((i) => messages[i]!)
      add("original drop_oldest (port)", (budget - cost(keptMessages)) / budget, Conversation.isValid(keptMessages))
      for (const startOn of [undefined, "human"] as const) {
        const out = fromLangChain(await runLangChain(messages, estimates, budget, startOn), messages)
        add(`LangChain trimMessages${startOn === undefined ? "" : ` (startOn: "human")`}`, (budget - cost(out.messages)) / budget, Conversation.isValid(out.messages), out.holes)
      }
    }
  }
  const rows = [...sums].map(([name, s]) => [
    name,
    `${fmt((100 * s.unused) / s.runs, 2)}%`,
    `${fmt((100 * s.invalid) / s.runs, 1)}%`,
    `${s.holes}`,
    String(s.runs)
  ])
  table(["strategy", "mean unused budget", "invalid outputs", "outputs with undefined", "fits"], rows)
}

/** Runs the window bench. */
export const runWindowBench = async (): Promise<void> => {
  await speed()
  await unused()
}

if (isMainThread && import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runWindowBench()
