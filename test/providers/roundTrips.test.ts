/**
 * Round trips of the Responses and Gemini adapters, by property (1,000
 * generated values each):
 *
 * - ours -> provider -> ours is the identity for conversations the format
 *   carries whole, and no warning but repaired argument text is reported;
 * - provider -> ours -> provider is the identity for payloads in the forms
 *   the adapter writes, unknown fields and item kinds included (for Gemini,
 *   in snake_case too, which reads as its camelCase twin does);
 * - for any conversation at all (every block kind, other providers' data),
 *   a payload written without a reported loss reads back to a conversation
 *   that writes the same payload.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary } from "effect"
import { Gemini, OpenAiResponses } from "../../src/providers/index.js"
import * as Request from "../../src/Request.js"
import type { GeminiWire, OpenAiResponsesWire } from "../../src/providers/index.js"
import { message } from "../arbitraries.js"
import { geminiConversation, geminiMessages, responsesConversation, responsesItems } from "./responsesGeminiArbitraries.js"
import { firstDifference, json, ok } from "./adapterHelpers.js"
import { snakeCased, unspelled } from "./geminiSpelling.js"

const runs = { arbitrary: { runs: 1_000 }, timeout: 120_000 }

const onlyRepairs = (warnings: ReadonlyArray<{ readonly _tag: string; readonly message: string }>): void => {
  const losses = warnings.filter((w) => w._tag !== "RepairedToolArguments")
  assert.deepStrictEqual(losses.map((w) => w.message), [])
}

/** A value without the Gemini reader's mark of a detail read from a part's media resolution (and the records it empties). */
const withoutResolutionMark = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (k, v: unknown) => {
    if (k === "$mediaResolution") return undefined
    const empty = typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0
    return empty && (k === "gemini" || k === "providerOptions") ? undefined : v
  })

const same = (back: unknown, original: unknown): void => {
  const difference = firstDifference(JSON.parse(JSON.stringify(back)), JSON.parse(JSON.stringify(original)))
  assert.isUndefined(difference, difference)
}

const lossless = new Set(["RepairedToolArguments", "UnknownProviderField"])

describe("OpenAI Responses round trips", () => {
  it.prop("ours -> Responses -> ours is the identity for what Responses carries", [responsesConversation], ([messages]) => {
    const written = ok(OpenAiResponses.toMessages(messages))
    assert.deepStrictEqual(written.warnings.map((w) => w.message), [])
    const back = ok(OpenAiResponses.fromMessages(written.value))
    onlyRepairs(back.warnings)
    same(json(back.value), json(messages))
  }, runs)

  it.prop("Responses -> ours -> Responses is the identity, unknown fields and item kinds included", [responsesItems], ([items]) => {
    const read = ok(OpenAiResponses.fromMessages(items as ReadonlyArray<OpenAiResponsesWire.InputItemLike>))
    onlyRepairs(read.warnings)
    const written = ok(OpenAiResponses.toMessages(read.value))
    assert.deepStrictEqual(written.warnings.map((w) => w.message), [])
    same(written.value, items)
  }, runs)

  it.prop("any conversation written without a reported loss reads back to what writes the same payload", [Arbitrary.array(message, { maxLength: 6 })], ([messages]) => {
    const written = ok(OpenAiResponses.toMessages(messages))
    if (written.warnings.some((w) => !lossless.has(w._tag))) return
    const back = ok(OpenAiResponses.fromMessages(written.value))
    const again = ok(OpenAiResponses.toMessages(back.value))
    // what was written reads back to something that writes the same: the wire form lost nothing
    same(again.value, written.value)
  }, runs)
})

describe("Gemini round trips", () => {
  it.prop("ours -> Gemini -> ours is the identity for what Gemini carries", [geminiConversation], ([messages]) => {
    // written for a model that takes an image's detail (Gemini 3 and later), read back with the mark of a detail
    // that came from Gemini's own field, which is all it adds
    const written = ok(Gemini.toRequest(Request.make(messages, { model: "gemini-3-pro-preview" })))
    assert.deepStrictEqual(written.warnings.map((w) => w.message), [])
    const { contents, systemInstruction } = written.value
    const back = ok(Gemini.fromMessages(systemInstruction === undefined ? { contents } : { contents, systemInstruction }))
    assert.deepStrictEqual(back.warnings.map((w) => w.message), [])
    same(withoutResolutionMark(json(back.value)), json(messages))
  }, runs)

  it.prop("Gemini -> ours -> Gemini is the identity, unknown fields and part kinds included", [geminiMessages], ([input]) => {
    const read = ok(Gemini.fromMessages(input as unknown as GeminiWire.MessagesLike))
    assert.deepStrictEqual(read.warnings.map((w) => w.message), [])
    const written = ok(Gemini.toMessages(read.value))
    assert.deepStrictEqual(written.warnings.map((w) => w.message), [])
    same(written.value, input)
  }, runs)

  it.prop("Gemini in snake_case -> ours -> Gemini is the identity, and reads as its camelCase twin does", [geminiMessages], ([input]) => {
    const snake = snakeCased(input)
    const read = ok(Gemini.fromMessages(snake as unknown as GeminiWire.MessagesLike))
    assert.deepStrictEqual(read.warnings.map((w) => w.message), [])
    const written = ok(Gemini.toMessages(read.value, { spelling: "asRead" }))
    assert.deepStrictEqual(written.warnings.map((w) => w.message), [])
    same(written.value, snake)
    // by default, in lowerCamelCase: the camelCase body itself
    same(ok(Gemini.toMessages(read.value)).value, input)
    // the same conversation but for the note of the spelling, so the ids made up for calls without one are the same too
    same(unspelled(json(read.value)), json(ok(Gemini.fromMessages(input as unknown as GeminiWire.MessagesLike)).value))
  }, runs)

  it.prop("any conversation written without a reported loss reads back to what writes the same payload", [Arbitrary.array(message, { maxLength: 6 })], ([messages]) => {
    const written = ok(Gemini.toMessages(messages))
    if (written.warnings.some((w) => !lossless.has(w._tag))) return
    const back = ok(Gemini.fromMessages(written.value))
    const again = ok(Gemini.toMessages(back.value))
    same(again.value, written.value)
  }, runs)
})

