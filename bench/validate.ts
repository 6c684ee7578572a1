/**
 * Validation and repair throughput at 10k, 100k and 1M messages.
 *
 * Both are single linear passes, so the time per message must stay flat as
 * the conversation grows: the bench prints the ratio of per-message time at
 * 1M vs 10k. For scale, it runs a direct port of the flat message format's original
 * `validateConversation` (which only looks at the previous message, and so
 * wrongly rejects parallel results) on the same conversations, in the same run.
 */
import { pathToFileURL } from "node:url"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { callsSharingOneId, craftCollidingIds, historyWithIds, resultsAfterEachUser, sameRoleRun } from "./adversarial.js"
import { consume, fmt, table, timePerCall } from "./measure.js"

// ---------------------------------------------------------------------------
// the original flat-format validator, ported as written (flat messages, prev-message check, per-message validateMessage)
// ---------------------------------------------------------------------------

interface PortToolCall {
  id: string
  name: string
  args: Record<string, unknown>
}
interface PortMessage {
  role: "system" | "user" | "assistant" | "tool"
  content: string
  toolCalls?: Array<PortToolCall>
  toolCallId?: string
  toolName?: string
  isError?: boolean
  metadata?: Record<string, unknown>
}
interface PortValidation {
  valid: boolean
  errors: Array<string>
}

const portValidateMessage = (msg: PortMessage): PortValidation => {
  const errors: Array<string> = []
  if (!msg.role) errors.push("Message must have a role")
  if (msg.role === "tool") {
    if (!msg.toolCallId) errors.push("Tool message must have toolCallId")
    if (!msg.toolName) errors.push("Tool message must have toolName")
    if (msg.toolCalls && msg.toolCalls.length > 0) errors.push("Tool message must not have toolCalls")
  }
  if (msg.role === "assistant" && (msg.toolCallId || msg.toolName)) errors.push("Assistant message must not have toolCallId/toolName")
  if (msg.toolCalls && msg.toolCalls.length > 0) {
    if (msg.role !== "assistant") errors.push("Only assistant messages can have toolCalls")
    for (let i = 0; i < msg.toolCalls.length; i++) {
      const tc = msg.toolCalls[i]!
      if (!tc.id) errors.push(`toolCalls[${i}].id is required`)
      if (!tc.name) errors.push(`toolCalls[${i}].name is required`)
    }
  }
  return { valid: errors.length === 0, errors }
}

const portValidateConversation = (messages: Array<PortMessage>): PortValidation => {
  const errors: Array<string> = []
  for (let i = 0; i < messages.length; i++) {
    const r = portValidateMessage(messages[i]!)
    for (const e of r.errors) errors.push(`messages[${i}]: ${e}`)
  }
  for (let i = 1; i < messages.length; i++) {
    const prev = messages[i - 1]!
    const curr = messages[i]!
    if (curr.role === "tool") {
      const hasMatchingToolCall = prev.role === "assistant" && prev.toolCalls?.some((tc) => tc.id === curr.toolCallId)
      if (!hasMatchingToolCall) errors.push(`messages[${i}]: tool message has no matching tool_call`)
    }
    const SAME_ROLE_BLOCKS = new Set(["user", "assistant"])
    if (SAME_ROLE_BLOCKS.has(prev.role) && prev.role === curr.role && !prev.toolCalls) {
      errors.push(`consecutive '${prev.role}' messages without tool calls`)
    }
  }
  return { valid: errors.length === 0, errors }
}

const toPort = (m: Message.Message): Array<PortMessage> => {
  switch (m.role) {
    case "tool":
      return m.content.map((r) => ({ role: "tool", content: Block.resultContentText(r.content), toolCallId: r.toolCallId, toolName: r.toolName, isError: r.isError }))
    case "assistant": {
      const calls = Message.toolCallsOf(m).map((c) => ({ id: c.id, name: c.name, args: c.args as Record<string, unknown> }))
      return [calls.length > 0 ? { role: "assistant", content: Message.textOf(m), toolCalls: calls } : { role: "assistant", content: Message.textOf(m) }]
    }
    case "system":
    case "user":
      return [{ role: m.role, content: Message.textOf(m) }]
  }
}

// ---------------------------------------------------------------------------
// conversations
// ---------------------------------------------------------------------------

/** A realistic agent history: turns with one or two calls, results one per message. */
export const makeConversation = (size: number): Array<Message.Message> => {
  const out: Array<Message.Message> = [Message.system("You are a coding agent.")]
  let turn = 0
  while (out.length < size) {
    turn++
    out.push(Message.user(`Step ${turn}: open the file and fix the failing test.`))
    // sequential tool calls: the port's previous-message check accepts these, so both validators do the same work
    const calls = 1 + (turn % 3)
    for (let c = 0; c < calls && out.length < size; c++) {
      const id = `call_${turn}_${c}`
      out.push(Message.assistant([Block.text("Reading it."), Block.toolCall(id, "read_file", { path: `src/file_${turn}_${c}.ts` })]))
      out.push(Message.toolResultMessage(id, "read_file", `export const value${turn} = ${c}\n`))
    }
    out.push(Message.assistantMessage(`Fixed step ${turn}.`))
  }
  return out
}

/** The same history with damage every ~50 messages: interrupted calls, orphans, repeated user messages. */
export const breakConversation = (messages: ReadonlyArray<Message.Message>): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (i % 150 === 75 && m.role === "tool") continue // interrupted: result lost
    out.push(m)
    if (i % 150 === 25) out.push(Message.toolResultMessage(`orphan_${i}`, "read_file", "stale")) // orphan
    if (i % 150 === 125 && m.role === "user") out.push(Message.user("Are you there?")) // retry
  }
  return out
}

export const runValidateBench = (): void => {
  const sizes = [10_000, 100_000, 1_000_000] as const
  console.log("\n## Conversation.validate and Conversation.repair throughput\n")
  const full = makeConversation(sizes[sizes.length - 1]!)
  const broken = breakConversation(full)
  const rows: Array<Array<string>> = []
  const perMessage: Record<string, Array<number>> = { validate: [], repair: [], port: [] }
  for (const size of sizes) {
    const ms = full.slice(0, size)
    while (ms.length > 1 && (ms[ms.length - 1]!.role !== "assistant" || Message.hasToolCalls(ms[ms.length - 1]!))) ms.pop()
    const damaged = broken.slice(0, size)
    const flatMessages = ms.flatMap(toPort)
    if (!Conversation.isValid(ms)) throw new Error("bench conversation must be valid")
    if (!portValidateConversation(flatMessages).valid) throw new Error("the port must accept the bench conversation")
    const opts = { minMs: size >= 1_000_000 ? 400 : 200, rounds: size >= 1_000_000 ? 3 : 5 }
    const tValidate = timePerCall(() => consume(Conversation.issuesOf(ms)), opts)
    const tRepair = timePerCall(() => consume(Repair.repair(damaged)), opts)
    const tPort = timePerCall(() => consume(portValidateConversation(flatMessages)), opts)
    const ns = (t: number, n: number) => (t * 1e6) / n
    perMessage["validate"]!.push(ns(tValidate, ms.length))
    perMessage["repair"]!.push(ns(tRepair, damaged.length))
    perMessage["port"]!.push(ns(tPort, ms.length))
    rows.push([
      size.toLocaleString("en-US"),
      fmt(ns(tValidate, ms.length)),
      fmt(ms.length / tValidate / 1000, 2),
      fmt(ns(tRepair, damaged.length)),
      fmt(damaged.length / tRepair / 1000, 2),
      fmt(ns(tPort, ms.length)),
      fmt(tValidate / tPort, 2)
    ])
  }
  table(["messages", "validate ns/msg", "validate M msg/s", "repair ns/msg", "repair M msg/s", "port ns/msg", "validate / port"], rows)
  const flat = (k: string) => perMessage[k]![perMessage[k]!.length - 1]! / perMessage[k]![0]!
  console.log(
    `\nper-message time at 1M vs 10k: validate ${fmt(flat("validate"), 2)}x, repair ${fmt(flat("repair"), 2)}x, ported validator ${fmt(flat("port"), 2)}x (1.00x = perfectly flat)`
  )
  const repaired = Repair.repair(broken.slice(0, 100_000))
  console.log(`repair on the damaged 100k history: ${repaired.actions.length} actions, valid after: ${Conversation.isValid(repaired.messages)}`)
}

/** Messages plus blocks: the input size a pass walks. */
const unitsOf = (ms: ReadonlyArray<Message.Message>): number => {
  let n = ms.length
  for (const m of ms) n += m.content.length
  return n
}

/** Reasoning items with no output after them, for the Responses profile: one assistant message of `size` blocks. */
const reasoningRun = (size: number): Array<Message.Message> => [
  Message.user("think"),
  Message.assistant(Array.from({ length: size }, (_, k) => Block.thinking(`step ${k}`, undefined, { itemId: `rs_${k}` })))
]

/**
 * Validation and repair time per input unit (message or block) at 10k, 100k
 * and 1M messages, for an ordinary history and for adversarial ones. Flat
 * means linear: the time per unit must not grow with the size or the kind.
 */
export const runAdversarialBench = (): void => {
  const sizes = [10_000, 100_000, 1_000_000] as const
  console.log("\n## validate and repair on adversarial inputs (ns per message or block)\n")
  const crafted = craftCollidingIds(Math.ceil(sizes[sizes.length - 1]! / 3) + 1)
  const kinds: ReadonlyArray<readonly [string, (size: number) => Array<Message.Message>]> = [
    ["ordinary tool history", (n) => makeConversation(n)],
    ["ids crafted to collide (fixed FNV-1a)", (n) => historyWithIds(n, (k) => crafted[k]!)],
    ["one id reused by every call", (n) => historyWithIds(n, () => "call_1")],
    ["user messages in a row", (n) => sameRoleRun(n, "user")],
    ["assistant texts in a row", (n) => sameRoleRun(n, "assistant")],
    ["calls sharing one id in one message", (n) => callsSharingOneId(n)],
    ["one call's result after each user message", (n) => resultsAfterEachUser(n)],
    ["reasoning items without output (Responses)", (n) => reasoningRun(n)]
  ]
  const rows: Array<Array<string>> = []
  let worst = 0
  let worstKind = ""
  for (const [name, make] of kinds) {
    const validate: Array<number> = []
    const repair: Array<number> = []
    for (const size of sizes) {
      const ms = make(size)
      const units = unitsOf(ms)
      const opts = { minMs: size >= 1_000_000 ? 300 : 150, rounds: 3 }
      const check = name.includes("Responses")
        ? () => consume(Conversation.issuesFor("openai-responses", ms))
        : () => consume(Conversation.issuesOf(ms))
      validate.push((timePerCall(check, opts) * 1e6) / units)
      repair.push((timePerCall(() => consume(Repair.repair(ms)), opts) * 1e6) / units)
    }
    const growth = Math.max(validate[2]! / validate[0]!, repair[2]! / repair[0]!)
    if (growth > worst) {
      worst = growth
      worstKind = name
    }
    rows.push([name, ...validate.map((t) => fmt(t)), ...repair.map((t) => fmt(t)), fmt(growth, 2)])
  }
  table(["input", "validate 10k", "100k", "1M", "repair 10k", "100k", "1M", "1M / 10k"], rows)
  console.log(`\nworst growth of time per unit from 10k to 1M messages: ${fmt(worst, 2)}x (${worstKind}); quadratic would be 100x`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runValidateBench()
  runAdversarialBench()
}
