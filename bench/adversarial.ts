/**
 * Adversarial inputs for the validate and repair benches: ids crafted to
 * collide, one id reused everywhere, long same-role runs, many calls sharing
 * an id. Each pass must keep a flat time per message on all of them.
 */
import { Block, Message } from "../src/index.js"

/** The call-id hash this library used before it was seeded: FNV-1a plus a multiply-xorshift finish. */
const unseededFnv = (s: string, from = 0x811c9dc5): number => {
  let h = from
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/**
 * At least `count` distinct ids with the same unseeded FNV-1a state, hence the
 * same hash in a table that hashes with a fixed function: chained block
 * collisions (a birthday search per block among ~200,000 random 6-character
 * blocks, about a second in all), so `k` blocks give `2^k` ids. This is what
 * an attacker can do against any fixed, fast hash.
 */
export const craftCollidingIds = (count: number): Array<string> => {
  let seed = 0x2545f491
  const random = (): number => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) % ALPHABET.length
  }
  const block = (): string => {
    let b = ""
    for (let k = 0; k < 6; k++) b += ALPHABET[random()]!
    return b
  }
  const prefix = "call_"
  let state = unseededFnv(prefix)
  const pairs: Array<readonly [string, string]> = []
  while (2 ** pairs.length < count) {
    const seen = new Map<number, string>()
    let found: readonly [string, string] | undefined
    while (found === undefined) {
      const b = block()
      const h = unseededFnv(b, state)
      const other = seen.get(h)
      if (other !== undefined && other !== b) {
        found = [other, b]
        state = h
      } else {
        seen.set(h, b)
      }
    }
    pairs.push(found)
  }
  const out: Array<string> = []
  for (let n = 0; n < count; n++) {
    let id = prefix
    for (let k = 0; k < pairs.length; k++) id += pairs[k]![(n >> k) & 1]!
    out.push(id)
  }
  return out
}

/** A valid tool history whose call ids are the given ones: user, assistant(call), tool(result), repeated. */
export const historyWithIds = (size: number, id: (k: number) => string): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  let k = 0
  while (out.length + 3 <= size) {
    const callId = id(k++)
    out.push(Message.user(`step ${k}`), Message.assistant([Block.toolCall(callId, "read_file", { path: `f${k}` })]), Message.toolResultMessage(callId, "read_file", "ok"))
  }
  return out
}

/** `size` messages of one role in a row. */
export const sameRoleRun = (size: number, role: "user" | "assistant"): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  for (let k = 0; k < size; k++) out.push(role === "user" ? Message.user(`message ${k}`) : Message.assistant(`text ${k}`))
  return out
}

/** One assistant message with `calls` calls all sharing one id, answered in one tool message, padded to `size` messages. */
export const callsSharingOneId = (size: number): Array<Message.Message> => {
  const calls = Math.max(1, Math.floor(size / 4))
  const out: Array<Message.Message> = [
    Message.user("go"),
    Message.assistant(Array.from({ length: calls }, (_, k) => Block.toolCall("same", `tool_${k % 7}`, {}))),
    Message.tool(Array.from({ length: calls }, (_, k) => Block.toolResult("same", `tool_${k % 7}`, "ok")))
  ]
  let k = 0
  while (out.length < size) out.push(k++ % 2 === 0 ? Message.user("more") : Message.assistant("ok"))
  return out
}

/**
 * One assistant message of many calls, each answered in its own tool message after a user message written while the
 * tools ran: the repair asks, at each run of user messages, whether the results after it answer the open turn.
 */
export const resultsAfterEachUser = (size: number): Array<Message.Message> => {
  const calls = Math.max(1, Math.floor((size - 2) / 2))
  const out: Array<Message.Message> = [
    Message.user("go"),
    Message.assistant(Array.from({ length: calls }, (_, k) => Block.toolCall(`c${k}`, "read_file", { path: `f${k}` })))
  ]
  for (let k = 0; k < calls; k++) out.push(Message.user(`note ${k}`), Message.toolResultMessage(`c${k}`, "read_file", "ok"))
  return out
}
