/**
 * The invariants every stream accumulator keeps, checked on the fixture
 * transcripts of all four wire formats:
 *
 * - the response does not depend on how the SSE text is split into pieces
 *   (text or bytes, cut anywhere: inside a JSON escape, between the halves
 *   of a surrogate pair, inside a UTF-8 sequence, between `\r` and `\n`);
 * - a stream cut short is reported as `IncompleteStream` (never as a
 *   protocol error), says what was cut, and its partial response is a
 *   prefix of the full one.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Result, Schema } from "effect"
import { Sse } from "../../src/providers/index.js"
import { dataOf, eventsOf, sseOf } from "./fixtures/sse.js"
import { feedAll, formats, prefixMismatch, splitAt, utf8 } from "./helpers.js"

const intBetween = (minimum: number, maximum: number): Arbitrary.Arbitrary<number> =>
  Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum, maximum })))

/** Up to 30 cut positions, as fractions of a million (scaled to the text at hand). */
const cutPoints = Arbitrary.array(intBetween(0, 1_000_000), { maxLength: 30 })
const scale = (points: ReadonlyArray<number>, length: number): Array<number> => points.map((p) => Math.round((p / 1_000_000) * length))

const surrogate = /[\ud800-\udbff][\udc00-\udfff]/

for (const format of formats) {
  describe(`${format.provider} stream`, () => {
    const fixtures = format.fixtures
    const pick = intBetween(0, fixtures.length - 1)

    it("the fixtures hold JSON escapes, escaped and raw surrogate pairs and multi-byte characters", () => {
      const all = fixtures.map(sseOf).join("")
      assert.match(all, /\\"/)
      assert.match(all, /\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/)
      assert.match(all, surrogate)
      assert.isAbove(utf8(all).length, all.length)
    })

    it("each fixture accumulates to the response written for it, from SSE text and from event objects", () => {
      for (const fixture of fixtures) {
        const fromText = feedAll(format.make, [sseOf(fixture)])
        assert.deepStrictEqual(fromText, Result.succeed(fixture.expected), fixture.name)
        const acc = format.make()
        for (const event of eventsOf(fixture)) acc.push(event as never)
        assert.deepStrictEqual(acc.done(), Result.succeed(fixture.expected), fixture.name)
      }
    })

    it("splitting the SSE text in two at any position gives the same response", () => {
      for (const fixture of fixtures) {
        const text = sseOf(fixture)
        for (let p = 0; p <= text.length; p++) {
          const result = feedAll(format.make, [text.slice(0, p), text.slice(p)])
          if (!Result.isSuccess(result)) assert.fail(`${fixture.name}, split at ${p}: ${result.failure.message}`)
          assert.deepStrictEqual(result.success, fixture.expected, `${fixture.name}, split at ${p}`)
        }
      }
    }, 300_000)

    it("splitting the SSE bytes in two at any position gives the same response", () => {
      for (const fixture of fixtures) {
        const bytes = utf8(sseOf(fixture))
        for (let p = 0; p <= bytes.length; p++) {
          const result = feedAll(format.make, [bytes.subarray(0, p), bytes.subarray(p)])
          if (!Result.isSuccess(result)) assert.fail(`${fixture.name}, split at byte ${p}: ${result.failure.message}`)
          assert.deepStrictEqual(result.success, fixture.expected, `${fixture.name}, split at byte ${p}`)
        }
      }
    }, 300_000)

    it.prop(
      "splitting the SSE text into many pieces gives the same response",
      [pick, cutPoints],
      ([k, points]) => {
        const fixture = fixtures[k]!
        const text = sseOf(fixture)
        assert.deepStrictEqual(feedAll(format.make, splitAt(text, scale(points, text.length))), Result.succeed(fixture.expected))
      },
      { timeout: 300_000, arbitrary: { runs: 300 } }
    )

    it.prop(
      "splitting the SSE bytes into many pieces gives the same response",
      [pick, cutPoints],
      ([k, points]) => {
        const fixture = fixtures[k]!
        const bytes = utf8(sseOf(fixture))
        assert.deepStrictEqual(feedAll(format.make, splitAt(bytes, scale(points, bytes.length))), Result.succeed(fixture.expected))
      },
      { timeout: 300_000, arbitrary: { runs: 300 } }
    )

    it.prop(
      "a stream cut after any event is incomplete, says what was cut, and its partial is a prefix of the full response",
      [pick, intBetween(0, 1_000_000)],
      ([k, at]) => {
        const fixture = fixtures[k]!
        const cut = Math.floor((at / 1_000_001) * (fixture.frames.length + 1))
        const acc = format.make()
        for (const frame of fixture.frames.slice(0, cut)) acc.pushData(dataOf(frame))
        const result = acc.done()
        if (cut >= format.completeAfter(fixture)) {
          // only trailing usage or the [DONE] sentinel is missing
          if (!Result.isSuccess(result)) assert.fail(`${fixture.name} cut after ${cut} events: ${result.failure.message}`)
          assert.strictEqual(prefixMismatch(result.success, fixture.expected), undefined)
          return
        }
        if (!Result.isFailure(result) || result.failure._tag !== "IncompleteStream") return assert.fail(`${fixture.name} cut after ${cut} events was not reported as incomplete`)
        const error = result.failure
        assert.strictEqual(error.provider, format.provider)
        assert.strictEqual(error.events, cut)
        assert.isTrue(error.cut.some((line) => format.cutWords.some((w) => line.includes(w))), error.message)
        assert.strictEqual(prefixMismatch(error.partial, fixture.expected), undefined)
      },
      { timeout: 300_000, arbitrary: { runs: 300 } }
    )

    it.prop(
      "a byte stream cut at any position is incomplete or complete, never a protocol error, and its partial is a prefix",
      [pick, intBetween(0, 1_000_000)],
      ([k, at]) => {
        const fixture = fixtures[k]!
        const bytes = utf8(sseOf(fixture))
        const cut = Math.floor((at / 1_000_001) * (bytes.length + 1))
        const result = feedAll(format.make, [bytes.subarray(0, cut)])
        if (Result.isSuccess(result)) return assert.strictEqual(prefixMismatch(result.success, fixture.expected), undefined)
        assert.strictEqual(result.failure._tag, "IncompleteStream", result.failure.message)
        if (result.failure._tag === "IncompleteStream") assert.strictEqual(prefixMismatch(result.failure.partial, fixture.expected), undefined)
      },
      { timeout: 300_000, arbitrary: { runs: 300 } }
    )
  })
}

describe("SSE parsing of the fixtures", () => {
  it("every fixture frame comes back as one event whose data is the frame's data", () => {
    for (const format of formats) {
      for (const fixture of format.fixtures) {
        const { cut, events } = Sse.parse(sseOf(fixture))
        assert.isUndefined(cut)
        assert.deepStrictEqual(events.map((e) => e.data), fixture.frames.map(dataOf))
      }
    }
  })
})
