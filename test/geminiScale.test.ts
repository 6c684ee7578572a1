/**
 * Gemini conversations at scale: what its passes write for long and many
 * inputs is what they wrote before they were made faster (the timings are
 * the bench's, `bench/cost.ts`; never asserted here).
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect } from "effect"
import { Block, Message } from "../src/index.js"
import { Anthropic, Gemini } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"

const ANTHROPIC_OUTSIDE = /[^a-zA-Z0-9_-]/g

/** Pieces of ids: taken characters, punctuation, CJK, an emoji, a lone surrogate, a line break. */
const pieces = ["abc", "_", "-", "XYZ09", "{\"a\": ", "[1, 2]", " ", "天气", "😀", "\ud800", "\udc00", "\n", ".", ":"] as const

/** An id of `length` code units made of the pieces, in an order the seed gives. */
const idOf = (seed: ReadonlyArray<number>, length: number): string => {
  let id = ""
  for (let k = 0; id.length < length; k++) id += pieces[seed[k % seed.length]! % pieces.length]!
  return id.slice(0, length)
}

const idArb = Arbitrary.all({
  seed: Arbitrary.array(Arb.intBetween(0, pieces.length - 1), { minLength: 1, maxLength: 12 }),
  length: Arb.intBetween(1, 30_000)
  // each with a character outside the alphabet, so that no id of the two is taken as it is
}).pipe(Arbitrary.map(({ length, seed }) => `${idOf(seed, length)}.`))

const anthropicIds = (messages: ReadonlyArray<Message.Message>): Array<string> => {
  const written = Effect.runSync(Anthropic.toMessages(messages)).value.messages as ReadonlyArray<{ readonly content: ReadonlyArray<Record<string, unknown>> | string }>
  const ids: Array<string> = []
  for (const m of written) {
    if (typeof m.content === "string") continue
    for (const block of m.content) {
      if (block["type"] === "tool_use") ids.push(block["id"] as string)
      if (block["type"] === "tool_result") ids.push(block["tool_use_id"] as string)
    }
  }
  return ids
}

describe("Anthropic's ids of long tool call ids", () => {
  it.prop(
    "an id outside Anthropic's alphabet is written with each code unit outside it as _, short or long",
    [idArb, idArb],
    ([first, second]) => {
      const conversation = [
        Message.user("go"),
        Message.assistant([Block.toolCall(first, "f", {}), Block.toolCall(second, "g", {})]),
        Message.tool([Block.toolResult(first, "f", "ok"), Block.toolResult(second, "g", "ok")])
      ]
      const clean = (id: string) => id.replace(ANTHROPIC_OUTSIDE, "_")
      const a = clean(first)
      // two ids that rewrite to one take a suffix
      const b = first === second ? a : clean(second) === a ? `${a}_1` : clean(second)
      assert.deepStrictEqual(anthropicIds(conversation), [a, b, a, b])
    },
    { timeout: 120_000, arbitrary: { runs: 60 } }
  )

  it("a Gemini response without an id, its name 2 MB of JSON text, reaches Anthropic with the id made up for it, rewritten", () => {
    const name = idOf([4, 5, 6, 7, 8, 11], 2_000_000)
    const read = Effect.runSync(Gemini.fromMessages({
      contents: [
        { role: "user", parts: [{ text: "go" }] },
        { role: "model", parts: [{ functionCall: { name, args: {} } }] },
        { role: "user", parts: [{ functionResponse: { name, response: { output: "ok" } } }] }
      ]
    })).value
    const call = read[1]!.content[0]
    assert.strictEqual(call?._tag, "ToolCall")
    const made = call?._tag === "ToolCall" ? call.id : ""
    // bounded: the name's first 64 code units and a hash of the whole, not the whole name
    assert.isTrue(made.startsWith(name.slice(0, 64)) && made.length <= 64 + 12 + "_1_0".length)
    const expected = made.replace(ANTHROPIC_OUTSIDE, "_")
    assert.deepStrictEqual(anthropicIds(read), [expected, expected])
    // and written as it was made up, in Gemini's own format: without an id
    const back = Effect.runSync(Gemini.toMessages(read)).value
    assert.deepStrictEqual(JSON.parse(JSON.stringify(back.contents[1])), { role: "model", parts: [{ functionCall: { name, args: {} } }] })
  })
})
