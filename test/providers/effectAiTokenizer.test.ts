/**
 * `EffectAi.makeTokenizer`'s `truncate`: every system message stays, in its
 * place relative to the kept turns; the newest whole turns that fit are kept,
 * a call never without its result; the result is within the limit, and a
 * limit the system messages alone exceed is an error naming what they need.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit } from "effect"
import type { AiError, Prompt } from "effect/ai"
import { Block, Message, TokenEstimator } from "../../src/index.js"
import { EffectAi } from "../../src/providers/index.js"
import { bool, intBetween } from "../arbitraries.js"
import { exact, json } from "./adapterHelpers.js"

const tokenizer = EffectAi.makeTokenizer(TokenEstimator.heuristic)
const estimator = TokenEstimator.heuristic

const toPrompt = (messages: ReadonlyArray<Message.Message>) => exact(EffectAi.toPrompt(messages))
const fromPrompt = (prompt: Prompt.Prompt) => exact(EffectAi.fromPrompt(prompt))

const call = (id: string) => Message.assistant([Block.toolCall(id, "lookup", { q: id })])
const result = (id: string) => Message.tool([Block.toolResult(id, "lookup", `result of ${id}`)])
const big = "lorem ipsum ".repeat(200)

const systemCost = (messages: ReadonlyArray<Message.Message>): number =>
  estimator.estimateEach(messages).reduce((sum, cost, i) => (messages[i]!.role === "system" ? sum + cost : sum), 0)

const reasonOf = (error: AiError.AiError): string => error.reason._tag

describe("EffectAi.makeTokenizer truncate", () => {
  it.effect("keeps a system message that sits mid-conversation", () =>
    Effect.gen(function* () {
      const messages = [
        Message.system("You are terse."),
        Message.user("old question " + big),
        Message.assistant("old answer"),
        Message.system("IMPORTANT: from now on answer in French."),
        Message.user("new question"),
        call("c1"),
        result("c1")
      ]
      const out = fromPrompt(yield* tokenizer.truncate(toPrompt(messages), 200))
      assert.deepStrictEqual(json(out), json([messages[0]!, messages[3]!, ...messages.slice(4)]))
    }))

  it.effect("keeps every system message in its place relative to the kept turns", () =>
    Effect.gen(function* () {
      const messages = [
        Message.user("first " + big),
        Message.system("A"),
        Message.assistant("first answer"),
        Message.system("B"),
        Message.user("second"),
        Message.system("C"),
        Message.assistant("second answer")
      ]
      const out = fromPrompt(yield* tokenizer.truncate(toPrompt(messages), 100))
      assert.deepStrictEqual(json(out), json([messages[1]!, messages[3]!, ...messages.slice(4)]))
    }))

  it.effect("fails with an InvalidUserInputError naming the minimum when the system messages alone are over the limit", () =>
    Effect.gen(function* () {
      const messages = [Message.system("rules ".repeat(500)), Message.user("hi")]
      const minimum = systemCost(messages)
      const error = yield* Effect.flip(tokenizer.truncate(toPrompt(messages), 50))
      assert.strictEqual(reasonOf(error), "InvalidUserInputError")
      assert.include(error.message, `a limit of 50 tokens is too small: the system messages, which always stay, need at least ${minimum}`)
    }))

  it.effect("counts system messages anywhere in the prompt toward the minimum", () =>
    Effect.gen(function* () {
      const messages = [Message.user("hi"), Message.assistant("hello"), Message.system("rules ".repeat(100)), Message.user("go on")]
      const error = yield* Effect.flip(tokenizer.truncate(toPrompt(messages), 20))
      assert.strictEqual(reasonOf(error), "InvalidUserInputError")
      assert.include(error.message, `need at least ${systemCost(messages)}`)
    }))

  it.effect("refuses a limit that is not a number of tokens", () =>
    Effect.gen(function* () {
      const prompt = toPrompt([Message.user("hi " + big), Message.assistant("hello")])
      for (const limit of [Number.NaN, -1]) {
        const error = yield* Effect.flip(tokenizer.truncate(prompt, limit))
        assert.strictEqual(reasonOf(error), "InvalidUserInputError")
        assert.include(error.message, `got ${limit}`)
      }
    }))

  it.effect("never keeps a result whose call came before a user message it would be cut at", () =>
    Effect.gen(function* () {
      // a broken history: the result of c1 comes after the next user message
      const messages = [
        Message.user("first " + big),
        call("c1"),
        Message.user("second"),
        result("c1"),
        Message.assistant("answer"),
        Message.user("third"),
        Message.assistant("ok")
      ]
      const out = fromPrompt(yield* tokenizer.truncate(toPrompt(messages), 200))
      assert.deepStrictEqual(json(out), json(messages.slice(5)))
    }))
})

// ---------------------------------------------------------------------------
// property
// ---------------------------------------------------------------------------

/** A step of a generated history: a system message, a plain turn, a tool turn (maybe with a system message inside), or a late result. */
interface Step {
  readonly kind: number
  readonly words: number
  readonly calls: number
  readonly flag: boolean
}

const step: Arbitrary.Arbitrary<Step> = Arbitrary.all({ kind: intBetween(0, 4), words: intBetween(0, 40), calls: intBetween(1, 3), flag: bool })

/** Every message has a text of its own (or a call id of its own), so each can be found again in the output. */
const historyOf = (steps: ReadonlyArray<Step>): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  let n = 0
  const text = (words: number) => `#${n++} ` + "word ".repeat(words)
  for (const s of steps) {
    switch (s.kind) {
      case 0:
        out.push(Message.system(text(s.words)))
        break
      case 1:
        out.push(Message.user(text(s.words)), Message.assistant(text(s.words >> 1)))
        break
      case 2: {
        const ids = Array.from({ length: s.calls }, () => `c${n++}`)
        out.push(Message.user(text(s.words)), Message.assistant(ids.map((id) => Block.toolCall(id, "lookup", { q: "word ".repeat(s.words) }))))
        if (s.flag) out.push(Message.system(text(2)))
        out.push(Message.tool(ids.slice().reverse().map((id) => Block.toolResult(id, "lookup", "word ".repeat(s.words)))))
        break
      }
      case 3: {
        // broken: the result comes after the next user message
        const id = `c${n++}`
        out.push(Message.user(text(s.words)), call(id), Message.user(text(1)), result(id))
        break
      }
      default:
        out.push(Message.user(text(s.words)))
    }
  }
  return out
}

const keyOf = (message: Message.Message): string => JSON.stringify(json([message]))

describe("EffectAi.makeTokenizer truncate, for any prompt", () => {
  it.effect.prop(
    "keeps every system message, a suffix of the rest that never parts a call from its result, within the limit whenever the system messages fit",
    [Arbitrary.array(step, { maxLength: 10 }), intBetween(0, 600)],
    ([steps, limit]) =>
      Effect.gen(function* () {
        const messages = historyOf(steps)
        const prompt = toPrompt(messages)
        const minimum = systemCost(messages)
        const exit = yield* Effect.exit(tokenizer.truncate(prompt, limit))
        if (minimum > limit) {
          assert.isTrue(Exit.isFailure(exit), "the system messages are over the limit: truncate fails")
          const error = yield* Effect.flip(tokenizer.truncate(prompt, limit))
          assert.strictEqual(reasonOf(error), "InvalidUserInputError")
          assert.include(error.message, `need at least ${minimum}`)
          return
        }
        assert.isTrue(Exit.isSuccess(exit), "the system messages fit: truncate succeeds")
        if (!Exit.isSuccess(exit)) return
        const out = fromPrompt(exit.value)
        assert.isAtMost((yield* tokenizer.tokenize(exit.value)).length, limit)
        if (estimator.estimateConversation(messages) <= limit) assert.deepStrictEqual(json(out), json(messages))

        // the output is the input with some messages left out, in order
        const indexOf = new Map(messages.map((m, i) => [keyOf(m), i] as const))
        const kept = out.map((m) => indexOf.get(keyOf(m)) ?? -1)
        assert.notInclude(kept, -1)
        for (let k = 1; k < kept.length; k++) assert.isBelow(kept[k - 1]!, kept[k]!)
        const keptSet = new Set(kept)

        // every system message stays; of the others, the newest ones from a user message on
        messages.forEach((m, i) => {
          if (m.role === "system") assert.isTrue(keptSet.has(i), `system message ${i} kept`)
        })
        const others = kept.filter((i) => messages[i]!.role !== "system")
        const first = others[0]
        if (first !== undefined) {
          assert.strictEqual(messages[first]!.role, "user")
          for (let i = first; i < messages.length; i++) assert.isTrue(keptSet.has(i), `message ${i} after the cut kept`)
        }

        // calls and results are kept or dropped together
        const where = new Map<string, Array<number>>()
        messages.forEach((m, i) => {
          for (const block of m.content) {
            const id = block._tag === "ToolCall" ? block.id : block._tag === "ToolResult" ? block.toolCallId : undefined
            if (id !== undefined) where.set(id, [...(where.get(id) ?? []), i])
          }
        })
        for (const [id, at] of where) {
          assert.strictEqual(new Set(at.map((i) => keptSet.has(i))).size, 1, `call and result of ${id} kept or dropped together`)
        }
      }),
    { arbitrary: { runs: 500 }, timeout: 120_000 }
  )
})
