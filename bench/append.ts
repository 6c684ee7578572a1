/**
 * What memoization buys on the hot path: an agent appends one message at a
 * time and re-estimates the whole conversation after each append.
 *
 * Memoized: one estimator for the whole run; its per-message cache means an
 * append scans only the new message (the rest is one cache lookup per
 * message). Not memoized: a fresh estimator per append, i.e. every message
 * re-scanned every time, the quadratic behaviour of re-tokenizing the prompt
 * at each step.
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs bench/append.ts
 */
import { pathToFileURL } from "node:url"
import { Block, Message } from "../src/index.js"
import { Effect } from "effect"
import * as TokenEstimator from "../src/TokenEstimator.js"

/** A deterministic PRNG (mulberry32), so every run measures the same conversation. */
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const phrases = [
  "Let me look that up for you. ",
  "The build failed because the test runner could not find the config file. ",
  "帮我查一下北京到上海的高铁票。",
  "const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0)\n",
  "According to the logs, the request timed out after 30 seconds (HTTP 504). ",
  "東京の天気を教えてください。",
  "| id | name | status |\n|----|------|--------|\n| 42 | alpha | ok |\n"
]

/** Text of about `length` characters. */
const textOf = (random: () => number, length: number): string => {
  let out = ""
  while (out.length < length) out += phrases[Math.floor(random() * phrases.length)]!
  return out
}

/** A realistic conversation of `n` messages: user turns, assistant steps with tool calls, and their (long) results. */
const makeConversation = (n: number, seed = 42): Array<Message.Message> => {
  const random = rng(seed)
  const out: Array<Message.Message> = [Message.system(textOf(random, 600))]
  let call = 0
  while (out.length < n) {
    out.push(Message.user(textOf(random, 80 + random() * 300)))
    const steps = 1 + Math.floor(random() * 3)
    for (let s = 0; s < steps && out.length < n; s++) {
      const id = `call_${++call}`
      out.push(
        Message.assistant([
          Block.thinking(textOf(random, 100 + random() * 400), "sig"),
          Block.toolCall(id, "search_web", { query: textOf(random, 40), limit: 10 })
        ])
      )
      if (out.length < n) out.push(Message.tool(Block.toolResult(id, "search_web", textOf(random, 500 + random() * 2500))))
    }
    if (out.length < n) out.push(Message.assistant(textOf(random, 200 + random() * 800)))
  }
  return out.slice(0, n)
}

interface Row {
  readonly size: number
  readonly memoizedMicros: number
  readonly freshMicros: number
}

/**
 * Per-append cost at conversation size `size`: the mean over the last
 * `window` appends of growing a conversation to `size` messages, re-estimating
 * the whole conversation after each append.
 */
const measure = (build: () => TokenEstimator.Service, all: ReadonlyArray<Message.Message>, size: number, window: number): Row => {
  // memoized: one estimator grows with the conversation from the first message
  const memoized = build()
  const grown: Array<Message.Message> = []
  let memoTotal = 0
  let memoMs = 0
  for (let i = 0; i < size; i++) {
    grown.push(all[i]!)
    const inWindow = i >= size - window
    const t0 = inWindow ? performance.now() : 0
    memoTotal = memoized.estimateConversation(grown)
    if (inWindow) memoMs += performance.now() - t0
  }
  // not memoized: a fresh estimator per append (growing from 0 would be quadratic: measure the window only)
  const prefix = all.slice(0, size - window)
  let freshTotal = 0
  let freshMs = 0
  for (let i = size - window; i < size; i++) {
    prefix.push(all[i]!)
    const t0 = performance.now()
    freshTotal = build().estimateConversation(prefix)
    freshMs += performance.now() - t0
  }
  if (memoTotal !== freshTotal) throw new Error(`memoized ${memoTotal} != fresh ${freshTotal}`)
  return { size, memoizedMicros: (memoMs * 1000) / window, freshMicros: (freshMs * 1000) / window }
}

const pad = (s: string, n: number): string => s.padStart(n)

/**
 * Runs the benchmark for the default heuristic and the CJK-weighted rule at a few
 * conversation sizes and prints the per-append cost, memoized and not, and
 * their ratio.
 */
export const runAppendBench = (): void => {
  const sizes = [100, 1000, 5000]
  const window = 50
  const all = makeConversation(sizes[sizes.length - 1]!)
  const chars = all.reduce((n, m) => n + Message.messageToText(m, { includeThinking: true, maxArgsLength: 1e9, maxResultLength: 1e9 }).length, 0)
  console.log(`append bench: ${all.length} messages, ~${Math.round(chars / all.length)} chars/message; per-append cost = re-estimate the whole conversation after one append (mean of the last ${window} appends)`)
  for (const [name, build] of [
    ["heuristic (o200k)", () => Effect.runSync(TokenEstimator.makeHeuristic())],
    ["CJK-weighted rule", () => Effect.runSync(TokenEstimator.makeCjkWeighted())]
  ] as const) {
    measure(build, all, 200, 50) // warm-up
    console.log(`\n${name}`)
    console.log(`${pad("messages", 9)} ${pad("memoized µs", 12)} ${pad("fresh µs", 12)} ${pad("ratio", 8)}`)
    for (const size of sizes) {
      const row = measure(build, all, size, window)
      console.log(
        `${pad(String(row.size), 9)} ${pad(row.memoizedMicros.toFixed(1), 12)} ${pad(row.freshMicros.toFixed(1), 12)} ${pad(`${(row.freshMicros / row.memoizedMicros).toFixed(0)}×`, 8)}`
      )
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) runAppendBench()
