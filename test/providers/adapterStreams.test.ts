/**
 * Streams through the Responses and Gemini adapters, on the stream fixtures
 * of both formats:
 *
 * - however the SSE text is cut into pieces, the decoded assistant message
 *   is the one read from the final response;
 * - a stream cut short fails with `IncompleteResponse`, and the message it
 *   carries is a prefix of the full one: the same blocks in the same order
 *   (the last one possibly unfinished, or an item kept whole because its
 *   content had not begun), texts cut, never altered.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit } from "effect"
import type { Block, Message } from "../../src/index.js"
import { Gemini, OpenAiResponses } from "../../src/providers/index.js"
import type { Converted, DecodedResponse, IncompleteResponse } from "../../src/providers/Conversion.js"
import { intBetween } from "../arbitraries.js"
import { json } from "./adapterHelpers.js"
import * as GeminiFixtures from "./fixtures/gemini.js"
import * as ResponsesFixtures from "./fixtures/openAiResponses.js"
import { type Fixture, sseOf } from "./fixtures/sse.js"
import { splitAt } from "./helpers.js"

interface Format {
  readonly name: string
  readonly fixtures: ReadonlyArray<Fixture>
  readonly fromResponse: (response: unknown) => Effect.Effect<Converted<DecodedResponse>, unknown>
  readonly fromSse: (pieces: Iterable<string>) => Effect.Effect<Converted<DecodedResponse>, unknown>
}

const formats: ReadonlyArray<Format> = [
  { name: "OpenAI Responses", fixtures: ResponsesFixtures.all, fromResponse: (r) => OpenAiResponses.fromResponse(r as never), fromSse: (p) => OpenAiResponses.fromSse(p) },
  { name: "Gemini", fixtures: GeminiFixtures.all, fromResponse: (r) => Gemini.fromResponse(r as never), fromSse: (p) => Gemini.fromSse(p) }
]

const cutPoints = Arbitrary.array(intBetween(0, 1_000_000), { maxLength: 25 })

const textOf = (block: Block.Block): string | undefined =>
  block._tag === "Text" ? block.text : block._tag === "Thinking" ? block.thinking : block._tag === "Refusal" ? block.refusal : undefined

/** Why `partial` is not a prefix of `full`, or undefined. */
const notPrefix = (partial: Message.AssistantMessage, full: Message.AssistantMessage): string | undefined => {
  if (partial.content.length > full.content.length) return `${partial.content.length} blocks, the full message has ${full.content.length}`
  for (let i = 0; i < partial.content.length; i++) {
    const p = partial.content[i]!
    const f = full.content[i]!
    // an item whose content had not begun is kept whole, as provider data
    const unfinished = i === partial.content.length - 1 && p._tag === "ProviderData"
    if (p._tag !== f._tag && !unfinished) return `block ${i} is ${p._tag}, the full one ${f._tag}`
    const pt = textOf(p)
    const ft = textOf(f)
    if (pt !== undefined && ft !== undefined && !ft.startsWith(pt)) return `block ${i}: ${JSON.stringify(pt)} is not a prefix of ${JSON.stringify(ft)}`
  }
  return undefined
}

for (const format of formats) {
  describe(`${format.name} adapter streams`, () => {
    const pick = intBetween(0, format.fixtures.length - 1)

    it.prop("cutting the SSE text into pieces anywhere gives the message of the final response", [pick, cutPoints], ([k, points]) => {
      const fixture = format.fixtures[k]!
      const text = sseOf(fixture)
      const expected = Effect.runSync(format.fromResponse(fixture.expected))
      const got = Effect.runSync(format.fromSse(splitAt(text, points.map((p) => Math.round((p / 1_000_000) * text.length)))))
      assert.deepStrictEqual(json([got.value.message]), json([expected.value.message]))
      assert.strictEqual(got.value.finishReason, expected.value.finishReason)
    }, { arbitrary: { runs: 300 }, timeout: 300_000 })

    it.prop("a stream cut short yields IncompleteResponse with a prefix of the full message", [pick, intBetween(0, 1_000_000)], ([k, at]) => {
      const fixture = format.fixtures[k]!
      const text = sseOf(fixture)
      const cut = Math.round((at / 1_000_000) * text.length)
      const full = Effect.runSync(format.fromResponse(fixture.expected)).value.message
      const exit = Effect.runSyncExit(format.fromSse([text.slice(0, cut)]))
      if (Exit.isSuccess(exit)) {
        // cut after the last event that mattered: the whole message is there
        assert.deepStrictEqual(json([exit.value.value.message]), json([full]))
        return
      }
      const failure = exit.cause.reasons.find((r) => r._tag === "Fail")
      const error = failure !== undefined && failure._tag === "Fail" ? (failure.error as IncompleteResponse) : undefined
      assert.strictEqual(error?._tag, "IncompleteResponse", String(exit.cause))
      if (error?.partial !== undefined) assert.isUndefined(notPrefix(error.partial.message, full))
    }, { arbitrary: { runs: 300 }, timeout: 300_000 })
  })
}
