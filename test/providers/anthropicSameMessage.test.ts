/**
 * A wire user message read as more than one message (its `tool_result`
 * blocks as a tool message, the user's other blocks before, between or after
 * them as user messages) is written back by the Anthropic writer as the one
 * message it was, without a "merged" report; messages that were apart on the
 * wire, or that the caller put between the parts, are still reported.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect } from "effect"
import { Message, Request } from "../../src/index.js"
import { Anthropic, type Conversion, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import { argsObject, bool, intBetween } from "../arbitraries.js"
import { normalize, words } from "./adapterArbitraries.js"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }
type Obj = { readonly [key: string]: Json }

const json = <A>(u: A): A => JSON.parse(JSON.stringify(u)) as A

const merges = (warnings: ReadonlyArray<Conversion.ConversionWarning>): Array<string> =>
  warnings.filter((w) => w._tag === "ConvertedContent" && w.message.includes("merged")).map((w) => w.message)

/** Whether a message carries a hint of the Anthropic adapter (a key with one `$` in front). */
const hinted = (m: Message.Message): boolean => Object.keys(m.providerOptions?.["anthropic"] ?? {}).some((k) => k.startsWith("$") && !k.startsWith("$$"))

/** The messages without their Anthropic hints (as a conversation built by hand would have them). */
const withoutHints = (messages: ReadonlyArray<Message.Message>): Array<Message.Message> =>
  Message.encodeAll(messages).map((e) => {
    const options = (e as { providerOptions?: { [p: string]: { [k: string]: unknown } } }).providerOptions
    const anthropic = options?.["anthropic"]
    if (anthropic === undefined) return e
    const kept = Object.fromEntries(Object.entries(anthropic).filter(([k]) => !(k.startsWith("$") && !k.startsWith("$$"))))
    const { anthropic: _, ...others } = options!
    const rest = Object.keys(kept).length === 0 ? others : { ...others, anthropic: kept }
    const { providerOptions: __, ...message } = e as { providerOptions?: unknown }
    return Object.keys(rest).length === 0 ? message : { ...message, providerOptions: rest }
  }).map((e) => Effect.runSync(Message.decode(e)))

const call = (id: string): Obj => ({ type: "tool_use", id, name: "get_weather", input: { city: "Oslo" } })
const result = (id: string, content: string): Obj => ({ type: "tool_result", tool_use_id: id, content })
const body = (messages: ReadonlyArray<Obj>): Obj => ({ model: "claude-sonnet-4-5", max_tokens: 1024, messages })

/** The user's words before the result of the call they answer. */
const textFirst = body([
  { role: "user", content: "What's the weather in Oslo?" },
  { role: "assistant", content: [call("toolu_1")] },
  { role: "user", content: [{ type: "text", text: "here it is" }, result("toolu_1", "sunny"), { type: "text", text: "thanks" }] },
  { role: "assistant", content: "Sunny." }
])

describe("a wire user message read as more than one message", () => {
  it.effect("text before its tool result comes back as one message, with no merge reported", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromRequest(textFirst)
      assert.deepStrictEqual(read.value.messages.map((m) => m.role), ["user", "assistant", "user", "tool", "user", "assistant"])
      const written = yield* Anthropic.toRequest(read.value)
      assert.deepStrictEqual(written.warnings.map((w) => w.message), [])
      assert.deepStrictEqual<unknown>(json(written.value), textFirst)
    }))

  it.effect("tool results between the user's words come back in one message, in their places, with no merge reported", () =>
    Effect.gen(function*() {
      const given = body([
        { role: "user", content: "Weather in Oslo and Bergen?" },
        { role: "assistant", content: [call("toolu_1"), call("toolu_2")] },
        { role: "user", content: [result("toolu_1", "sunny"), { type: "text", text: "Bergen took longer:" }, result("toolu_2", "rain"), { type: "text", text: "go on" }] }
      ])
      const read = yield* Anthropic.fromRequest(given)
      assert.deepStrictEqual(read.value.messages.map((m) => m.role), ["user", "assistant", "tool", "user", "tool", "user"])
      const written = yield* Anthropic.toRequest(read.value)
      assert.deepStrictEqual(merges(written.warnings), [])
      assert.deepStrictEqual<unknown>(json(written.value), given)
    }))

  it.effect("the parts carry a hint that is never written and reads back the same", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromRequest(textFirst)
      const parts = read.value.messages.slice(2, 5)
      assert.deepStrictEqual(parts.map(hinted), [true, true, true])
      // the other messages, each a wire message of its own, gain nothing
      assert.deepStrictEqual([0, 1, 5].map((i) => read.value.messages[i]!.providerOptions), [undefined, undefined, undefined])
      const written = yield* Anthropic.toRequest(read.value)
      assert.notInclude(JSON.stringify(written.value), "$")
      const again = yield* Anthropic.fromRequest(json(written.value))
      assert.deepStrictEqual(Message.encodeAll(again.value.messages), Message.encodeAll(read.value.messages))
    }))

  it.effect("a message read with its results first (the order the API asks for) gains no hint", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromRequest(body([
        { role: "user", content: "hi" },
        { role: "assistant", content: [call("toolu_1")] },
        { role: "user", content: [result("toolu_1", "sunny"), { type: "text", text: "thanks" }] }
      ]))
      assert.deepStrictEqual(read.value.messages.map(hinted), [false, false, false, false])
    }))

  it.effect("a user message the caller puts between the parts is reported as merged", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromRequest(textFirst)
      const [before, after] = [read.value.messages.slice(0, 4), read.value.messages.slice(4)]
      const edited = [...before, Message.user("one more thing"), ...after]
      const written = yield* Anthropic.toMessages(edited)
      assert.deepStrictEqual(merges(written.warnings), ["messages[5]: a user message after a user message was sent merged into one user message (Anthropic alternates roles)"])
      // put before the tool message instead: both merges are reported
      const earlier = [...read.value.messages.slice(0, 3), Message.user("one more thing"), ...read.value.messages.slice(3)]
      const again = yield* Anthropic.toMessages(earlier)
      assert.deepStrictEqual(merges(again.warnings), [
        "messages[3]: a user message after a user message was sent merged into one user message (Anthropic alternates roles)",
        "messages[4]: a tool message after a user message was sent merged into one user message (Anthropic alternates roles)"
      ])
    }))

  it.effect("a part whose partner was replaced by another message is reported as merged", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromRequest(textFirst)
      const replaced = read.value.messages.map((m, i) => (i === 2 ? Message.user("here it is") : m))
      const written = yield* Anthropic.toMessages(replaced)
      assert.deepStrictEqual(merges(written.warnings), ["messages[3]: a tool message after a user message was sent merged into one user message (Anthropic alternates roles)"])
    }))

  it.effect("a user message and a tool message that carry no hint are still reported when merged", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromRequest(textFirst)
      const expected = [
        "messages[3]: a tool message after a user message was sent merged into one user message (Anthropic alternates roles)"
      ]
      const plain = yield* Anthropic.toMessages(withoutHints(read.value.messages))
      assert.deepStrictEqual(merges(plain.warnings), expected)
    }))

  it.effect("a split message that followed another user message comes back as its own message, in one piece", () =>
    Effect.gen(function*() {
      const two = body([
        { role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
        { role: "user", content: [{ type: "text", text: "c" }, result("toolu_9", "x")] }
      ])
      const readTwo = yield* Anthropic.fromRequest(two)
      const writtenTwo = yield* Anthropic.toRequest(readTwo.value)
      assert.deepStrictEqual(merges(writtenTwo.warnings), [])
      assert.deepStrictEqual<unknown>(json(writtenTwo.value), two)
    }))

  it.effect("the other adapters write the same with or without the hint", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromRequest(textFirst)
      assert.isTrue(read.value.messages.some(hinted))
      const bare = Request.make(withoutHints(read.value.messages), { model: "m", maxOutputTokens: 1024 })
      const hintedRequest = Request.make(read.value.messages, { model: "m", maxOutputTokens: 1024 })
      const writers = [
        (r: Request.Request) => OpenAiChat.toRequest(r),
        (r: Request.Request) => OpenAiResponses.toRequest(r),
        (r: Request.Request) => Gemini.toRequest(r)
      ] as const
      for (const write of writers) {
        const a = yield* write(hintedRequest)
        const b = yield* write(bare)
        assert.deepStrictEqual(json(a.value), json(b.value))
        assert.deepStrictEqual(a.warnings.map((w) => w.message), b.warnings.map((w) => w.message))
      }
      // effect/ai carries the hint aside, so that the conversation comes back whole
      const prompt = yield* EffectAi.toPrompt(read.value.messages)
      const back = yield* EffectAi.fromPrompt(prompt.value)
      assert.deepStrictEqual(Message.encodeAll(back.value), Message.encodeAll(read.value.messages))
    }))
})

// ---------------------------------------------------------------------------
// generated requests: alternating roles, tool results and the user's words in any order
// ---------------------------------------------------------------------------

let ids = 0

const said: Arbitrary.Arbitrary<Obj> = Arbitrary.all({ kind: intBetween(0, 4), text: words }).pipe(
  Arbitrary.map(({ kind, text }): Obj => {
    switch (kind) {
      case 0:
        return { type: "image", source: { type: "url", url: "https://example.com/a.jpg" } }
      case 1:
        return { type: "document", source: { type: "text", media_type: "text/plain", data: "The sky is blue." }, title: "Notes" }
      case 2:
        return { type: "text", text, cache_control: { type: "ephemeral" } }
      default:
        return { type: "text", text }
    }
  })
)

const answer = (id: string): Arbitrary.Arbitrary<Obj> =>
  Arbitrary.all({ kind: intBetween(0, 2), text: words }).pipe(
    Arbitrary.map(({ kind, text }): Obj =>
      kind === 0 ? { type: "tool_result", tool_use_id: id, content: text } : kind === 1 ? { type: "tool_result", tool_use_id: id, content: [{ type: "text", text }], is_error: true } : { type: "tool_result", tool_use_id: id }
    )
  )

/** An assistant turn (text and calls) and the user message after it: the results and the user's blocks, interleaved as `order` says. */
const exchange: Arbitrary.Arbitrary<ReadonlyArray<Obj>> = Arbitrary.all({
  calls: intBetween(0, 3),
  text: words,
  withText: bool,
  inputs: Arbitrary.array(argsObject, { minLength: 3, maxLength: 3 }),
  blocks: Arbitrary.array(said, { maxLength: 3 }),
  order: Arbitrary.array(bool, { minLength: 6, maxLength: 6 })
}).pipe(
  Arbitrary.flatMap(({ blocks, calls, inputs, order, text, withText }) => {
    const callIds = Array.from({ length: calls }, () => `toolu_${++ids}`)
    return Arbitrary.all(callIds.map(answer)).pipe(
      Arbitrary.map((results): ReadonlyArray<Obj> => {
        const content: Array<Json> = withText || calls === 0 ? [{ type: "text", text }] : []
        callIds.forEach((id, k) => content.push({ type: "tool_use", id, name: "get_weather", input: inputs[k]! }))
        // merge the results and the user's blocks, each in its own order, by the coin flips
        const user: Array<Obj> = []
        let r = 0
        let s = 0
        for (const resultNext of order) {
          if (resultNext ? r < results.length : s >= blocks.length) {
            if (r < results.length) user.push(results[r++]!)
          } else if (s < blocks.length) user.push(blocks[s++]!)
        }
        while (r < results.length) user.push(results[r++]!)
        while (s < blocks.length) user.push(blocks[s++]!)
        return [{ role: "assistant", content }, { role: "user", content: user.length === 0 ? "ok" : user }]
      })
    )
  })
)

const request: Arbitrary.Arbitrary<Obj> = Arbitrary.all({ first: words, exchanges: Arbitrary.array(exchange, { minLength: 1, maxLength: 4 }) }).pipe(
  Arbitrary.map(({ exchanges, first }) => body([{ role: "user", content: first }, ...exchanges.flat()]))
)

/** How many messages a wire message is read as: one per run of tool results and per run of other blocks. */
const runsOf = (message: Obj): number => {
  const content = message["content"]
  if (!Array.isArray(content) || message["role"] !== "user") return 1
  let runs = 0
  let previous: boolean | undefined
  for (const block of content as ReadonlyArray<Obj>) {
    const isResult = block["type"] === "tool_result"
    if (isResult !== previous) runs++
    previous = isResult
  }
  return Math.max(runs, 1)
}

describe("generated Anthropic requests with tool results and the user's words in one message", () => {
  it.effect.prop(
    "Anthropic -> the model -> Anthropic writes the same body, reports no merge, and hints only messages read from a split one",
    [request],
    ([given]) =>
      Effect.gen(function*() {
        const read = yield* Anthropic.fromRequest(given)
        const written = yield* Anthropic.toRequest(read.value)
        expect(merges(written.warnings)).toEqual([])
        expect(normalize(json(written.value))).toEqual(normalize(given))
        // lossless: the body written reads back to the same conversation
        const again = yield* Anthropic.fromRequest(json(written.value))
        expect(Message.encodeAll(again.value.messages)).toEqual(Message.encodeAll(read.value.messages))
        // a hint only on the messages of a wire message read as more than one
        let at = 0
        for (const wire of given["messages"] as ReadonlyArray<Obj>) {
          const runs = runsOf(wire)
          for (let k = 0; k < runs; k++) if (runs === 1) expect(hinted(read.value.messages[at + k]!)).toBe(false)
          at += runs
        }
        expect(at).toBe(read.value.messages.length)
      }),
    { timeout: 120_000, arbitrary: { runs: 500 } }
  )
})
