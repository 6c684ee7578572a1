import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Result, Schema, Stream } from "effect"
import { GeminiStream, type GeminiWire } from "../../src/providers/index.js"
import * as Fixtures from "./fixtures/gemini.js"
import { eventsOf } from "./fixtures/sse.js"
import { snakeCasedResponse } from "./geminiSpelling.js"

type Chunk = GeminiWire.StreamEvent

const parts = (ps: ReadonlyArray<object>, extra: object = {}): Chunk => ({ candidates: [{ content: { role: "model", parts: ps }, ...extra }] }) as Chunk
const finish = (reason = "STOP"): Chunk => ({ candidates: [{ content: { role: "model" }, finishReason: reason }] }) as Chunk

const run = (chunks: ReadonlyArray<Chunk>) => {
  const acc = GeminiStream.make()
  for (const c of chunks) acc.push(c)
  return acc.done()
}
const success = (chunks: ReadonlyArray<Chunk>): GeminiWire.GenerateContentResponse => {
  const result = run(chunks)
  if (Result.isFailure(result)) return assert.fail(result.failure.message)
  return result.success
}
const failure = (chunks: ReadonlyArray<Chunk>) => {
  const result = run(chunks)
  if (Result.isSuccess(result)) return assert.fail("expected a failure")
  return result.failure
}
const partsOf = (r: GeminiWire.GenerateContentResponse): ReadonlyArray<GeminiWire.Part> | undefined => r.candidates?.[0]?.content?.parts

describe("GeminiStream", () => {
  it("concatenates consecutive plain text parts across chunks", () => {
    assert.deepStrictEqual(partsOf(success([parts([{ text: "Hel" }]), parts([{ text: "lo" }], { finishReason: "STOP" })])), [{ text: "Hello" }])
  })

  it("keeps thought text and answer text in separate parts", () => {
    assert.deepStrictEqual(partsOf(success([parts([{ text: "a", thought: true }]), parts([{ text: "b", thought: true }]), parts([{ text: "c" }]), finish()])), [{ text: "ab", thought: true }, { text: "c" }])
  })

  it("keeps a signature that arrives on an empty text part on that part, apart from the text before it", () => {
    assert.deepStrictEqual(partsOf(success([parts([{ text: "Paris." }]), parts([{ text: "", thoughtSignature: "sig" }], { finishReason: "STOP" })])), [{ text: "Paris." }, { text: "", thoughtSignature: "sig" }])
  })

  it("starts a new part after a signed part, so each signature stays where it came", () => {
    assert.deepStrictEqual(partsOf(success([parts([{ text: "a", thoughtSignature: "s1" }]), parts([{ text: "b" }]), finish()])), [{ text: "a", thoughtSignature: "s1" }, { text: "b" }])
  })

  it("never merges a part that carries other fields", () => {
    assert.deepStrictEqual(partsOf(success([parts([{ text: "a" }]), parts([{ text: "b", partMetadata: { k: 1 } }]), finish()])), [{ text: "a" }, { text: "b", partMetadata: { k: 1 } } as GeminiWire.Part])
  })

  it("keeps function calls whole, with their ids and the signature on the first", () => {
    const calls = [{ functionCall: { id: "1", name: "f", args: { a: 1 } }, thoughtSignature: "sig" }, { functionCall: { id: "2", name: "f", args: { a: 2 } } }]
    assert.deepStrictEqual(partsOf(success([parts(calls), finish()])), calls)
  })

  it("folds streamed arguments into args by JSON path, continuing strings", () => {
    const done = success([
      parts([{ functionCall: { name: "f", partialArgs: [{ jsonPath: "$.q", stringValue: "ab", willContinue: true }], willContinue: true } }]),
      parts([{ functionCall: { partialArgs: [{ jsonPath: "$.q", stringValue: "cd" }, { jsonPath: "$.n", numberValue: 3 }, { jsonPath: "$.list[0]", nullValue: "NULL_VALUE" }], willContinue: true } }]),
      parts([{ functionCall: { partialArgs: [{ jsonPath: '$["flag"]', boolValue: false }] } }]),
      finish()
    ])
    assert.deepStrictEqual(partsOf(done), [{ functionCall: { name: "f", args: { q: "abcd", n: 3, list: [null], flag: false } } }])
  })

  it("reports, never drops, a streamed argument with no place in the arguments so far: through a value, a key in a list, non-object args", () => {
    const call = (args: object | undefined, ...paths: ReadonlyArray<readonly [string, string | number]>) =>
      failure([parts([{ functionCall: { name: "f", ...(args === undefined ? {} : { args }), partialArgs: paths.map(([jsonPath, v]) => typeof v === "string" ? { jsonPath, stringValue: v } : { jsonPath, numberValue: v }) } }], { finishReason: "STOP" })])
    // each once overwrote what the arguments held, without a word ("$.l.length" = 0 emptied the list)
    const cases = [
      [call(undefined, ["$.a", "x"], ["$.a.b", "y"]), "goes through a value the arguments already hold"],
      [call(undefined, ["$.l[0]", "x"], ["$.l.k", "y"]), "names a key in a list"],
      [call(undefined, ["$.l[0]", "x"], ["$.l.length", 0]), "names a key in a list"],
      [call(["raw"], ["$.q", "a"]), "is for arguments that are not an object"]
    ] as const
    for (const [error, reason] of cases) {
      assert.strictEqual(error._tag, "StreamProtocolError")
      assert.include(error.message, reason)
    }
  })

  it("reports a call whose arguments were still streaming as incomplete", () => {
    const error = failure([parts([{ functionCall: { name: "f", partialArgs: [{ jsonPath: "$.q", stringValue: "ab", willContinue: true }], willContinue: true } }], { finishReason: "STOP" })])
    assert.strictEqual(error._tag, "IncompleteStream")
    assert.include(error.message, "candidate 0: the arguments of function call f were still streaming")
  })

  it("keeps candidates by index", () => {
    const done = success([
      { candidates: [{ index: 1, content: { role: "model", parts: [{ text: "B" }] } }, { index: 0, content: { role: "model", parts: [{ text: "A" }] } }] },
      { candidates: [{ index: 0, finishReason: "STOP" }, { index: 1, finishReason: "MAX_TOKENS" }] }
    ])
    assert.deepStrictEqual(done.candidates?.map((c) => [c.index, c.content?.parts?.[0]?.text, c.finishReason]), [[0, "A", "STOP"], [1, "B", "MAX_TOKENS"]])
  })

  it("takes the last usage, model version and response id", () => {
    const done = success([{ ...parts([{ text: "a" }]), usageMetadata: { totalTokenCount: 5 }, modelVersion: "m1" } as Chunk, { ...finish(), usageMetadata: { totalTokenCount: 9 }, responseId: "r" } as Chunk])
    assert.deepStrictEqual([done.usageMetadata, done.modelVersion, done.responseId], [{ totalTokenCount: 9 }, "m1", "r"])
  })

  it("appends citations across chunks", () => {
    const done = success([parts([{ text: "a" }], { citationMetadata: { citations: [{ uri: "u1" }] } }), parts([{ text: "b" }], { citationMetadata: { citations: [{ uri: "u2" }] }, finishReason: "STOP" })])
    assert.deepStrictEqual(done.candidates?.[0]?.citationMetadata, { citations: [{ uri: "u1" }, { uri: "u2" }] })
  })

  it("accepts a blocked prompt with no candidates as complete", () => {
    const done = success([{ promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 3 } }])
    assert.strictEqual(done.promptFeedback?.blockReason, "SAFETY")
  })

  it("reports a candidate without finishReason as incomplete", () => {
    assert.strictEqual(failure([parts([{ text: "a" }])]).message, "gemini stream is incomplete after 1 event: candidate 0 has no finishReason")
  })

  it("turns an error chunk into a ProviderStreamError", () => {
    const error = failure([parts([{ text: "a" }]), { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }])
    assert.strictEqual(error.message, "gemini sent an error: UNAVAILABLE: The model is overloaded.")
  })

  describe("in snake_case, the other spelling of proto3 JSON (what Python clients record)", () => {
    for (const fixture of Fixtures.all) {
      it(`adds up the ${fixture.name} stream as its camelCase twin does, keeping the spelling`, () => {
        const chunks = (eventsOf(fixture) as Array<Chunk>).map(snakeCasedResponse)
        assert.deepStrictEqual(success(chunks), snakeCasedResponse(fixture.expected) as GeminiWire.GenerateContentResponse)
      })
    }

    it("keeps text under a thought_signature apart, appends citation_metadata, and ends on finish_reason", () => {
      const snake = (ps: ReadonlyArray<object>, extra: object = {}): Chunk => ({ candidates: [{ content: { role: "model", parts: ps }, ...extra }] }) as Chunk
      const done = success([
        snake([{ text: "Par" }], { citation_metadata: { citations: [{ uri: "u1" }] } }),
        snake([{ text: "is.", thought_signature: "c2ln" }], { citation_metadata: { citations: [{ uri: "u2" }] } }),
        snake([{ text: "!" }], { finish_reason: "STOP" })
      ])
      assert.deepStrictEqual<unknown>(done.candidates?.[0], {
        content: { role: "model", parts: [{ text: "Par" }, { text: "is.", thought_signature: "c2ln" }, { text: "!" }] },
        finish_reason: "STOP",
        citation_metadata: { citations: [{ uri: "u1" }, { uri: "u2" }] }
      })
    })

    it("folds partial_args into a function_call by json_path, continuing strings", () => {
      const call = (fc: object): Chunk => parts([{ function_call: fc }])
      const done = success([
        call({ name: "f", partial_args: [{ json_path: "$.q", string_value: "ab", will_continue: true }], will_continue: true }),
        call({ partial_args: [{ json_path: "$.q", string_value: "cd" }, { json_path: "$.n", number_value: 3 }, { json_path: "$.ok", bool_value: true }, { json_path: "$.none", null_value: "NULL_VALUE" }] }),
        finish()
      ])
      assert.deepStrictEqual<unknown>(partsOf(done), [{ function_call: { name: "f", args: { q: "abcd", n: 3, ok: true, none: null } } }])
      assert.include(failure([call({ name: "f", partial_args: [{ json_path: "$.q", string_value: "ab", will_continue: true }], will_continue: true }), finish()]).message, "were still streaming")
    })

    it("accepts a prompt blocked by prompt_feedback.block_reason as complete", () => {
      assert.deepStrictEqual<unknown>(success([{ prompt_feedback: { block_reason: "SAFETY" } } as Chunk]), { prompt_feedback: { block_reason: "SAFETY" } })
    })
  })

  it.prop("never throws whatever JSON is pushed", [Arbitrary.array(Arbitrary.schema(Schema.Json), { maxLength: 8 })], ([values]) => {
    const acc = GeminiStream.make()
    for (const v of values) acc.push(v as never)
    acc.snapshot()
    assert.isDefined(acc.done())
  }, { arbitrary: { runs: 300 } })

  it.effect("accumulates an Effect Stream of chunks", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* GeminiStream.fromStream(Stream.fromIterable(eventsOf(Fixtures.thoughtsAndText) as Array<Chunk>)), Fixtures.thoughtsAndText.expected)
    }))
})

describe("GeminiStream keeps copies", () => {
  it("changing a chunk after pushing it changes nothing: its usage, a whole call's arguments, a streamed call's fragments", () => {
    const whole = { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "f", args: { a: 1 } } }] } }], usageMetadata: { promptTokenCount: 5 } }
    const started = { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "g", args: { b: { c: 1 } }, willContinue: true } }] } }] }
    const ended = { candidates: [{ content: { role: "model", parts: [{ functionCall: { args: { d: [1] } } }] } }] }
    const acc = GeminiStream.make()
    for (const chunk of [whole, started, ended, finish()]) acc.push(chunk as Chunk)
    whole.usageMetadata.promptTokenCount = 999
    whole.candidates[0]!.content.parts[0]!.functionCall.args.a = 999
    started.candidates[0]!.content.parts[0]!.functionCall.args.b.c = 999
    ended.candidates[0]!.content.parts[0]!.functionCall.args.d.push(999)
    const result = acc.done()
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual(result.success.usageMetadata, { promptTokenCount: 5 })
    assert.deepStrictEqual(JSON.parse(JSON.stringify(result.success.candidates?.[0]?.content?.parts)), [
      { functionCall: { name: "f", args: { a: 1 } } },
      { functionCall: { name: "g", args: { b: { c: 1 }, d: [1] } } }
    ])
  })
})
