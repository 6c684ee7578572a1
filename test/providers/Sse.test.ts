import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Result, Schema } from "effect"
import { Sse } from "../../src/providers/index.js"
import { splitAt, utf8 } from "./helpers.js"

const collect = (pieces: ReadonlyArray<string | Uint8Array>): { events: Array<Sse.Event>; cut: Sse.Event | undefined } => {
  const events: Array<Sse.Event> = []
  const parser = Sse.makeParser((e) => events.push(e))
  for (const piece of pieces) parser.feed(piece)
  return { events, cut: parser.end() }
}

const ev = (data: string, event = "message", id?: string): Sse.Event => ({ event, data, id })

describe("Sse.makeParser", () => {
  it("dispatches an event at its blank line with its event name and data", () => {
    assert.deepStrictEqual(collect(["event: ping\ndata: {}\n\n"]).events, [ev("{}", "ping")])
  })

  it("names an event without an event field 'message'", () => {
    assert.deepStrictEqual(collect(["data: x\n\n"]).events, [ev("x")])
  })

  it("joins several data lines with a newline", () => {
    assert.deepStrictEqual(collect(["data: a\ndata: b\ndata:\n\n"]).events, [ev("a\nb\n")])
  })

  it("drops exactly one space after the colon", () => {
    assert.deepStrictEqual(collect(["data:  two\n\ndata:none\n\n"]).events, [ev(" two"), ev("none")])
  })

  it("ignores comment lines and unknown fields", () => {
    assert.deepStrictEqual(collect([": keep-alive\nretry: 10\nfoo: bar\ndata: x\n\n"]).events, [ev("x")])
  })

  it("does not dispatch an event that has no data", () => {
    assert.deepStrictEqual(collect(["event: ping\n\ndata: x\n\n"]).events, [ev("x")])
  })

  it("accepts \\r\\n, \\r and \\n line ends", () => {
    assert.deepStrictEqual(collect(["data: a\r\n\r\ndata: b\r\rdata: c\n\n"]).events, [ev("a"), ev("b"), ev("c")])
  })

  it("treats a \\r\\n split between two pieces as one line end", () => {
    assert.deepStrictEqual(collect(["data: a\r", "\ndata: b\r", "\n\r", "\n"]).events, [ev("a\nb")])
  })

  it("keeps the last id for the following events and ignores an id with NUL", () => {
    assert.deepStrictEqual(collect(["id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\n"]).events, [ev("a", "message", "7"), ev("b", "message", "7"), ev("c", "message", "7")])
  })

  it("skips a byte-order mark at the start only", () => {
    assert.deepStrictEqual(collect(["\ufeff", "data: a\n\n"]).events, [ev("a")])
    assert.deepStrictEqual(collect(["data: \ufeffa\n\n"]).events, [ev("\ufeffa")])
  })

  it("decodes a UTF-8 character split across byte pieces", () => {
    const bytes = utf8("data: é😀\n\n")
    assert.deepStrictEqual(collect([bytes.subarray(0, 7), bytes.subarray(7, 9), bytes.subarray(9, 11), bytes.subarray(11)]).events, [ev("é😀")])
  })

  it("hands back the event left open at the end, with its data so far", () => {
    assert.deepStrictEqual(collect(["data: a\n\ndata: {\"x\":"]), { events: [ev("a")], cut: ev('{"x":') })
  })

  it("reports nothing left open when the text ends with a blank line", () => {
    assert.isUndefined(collect(["data: a\n\n"]).cut)
  })

  const text = "event: message_start\r\ndata: {\"a\":\"é\\\"😀\"}\r\n\r\n: ping\n\nid: 1\ndata: line1\ndata: line2\r\rdata: [DONE]\n\n"
  const expected = collect([text])
  const points = Arbitrary.array(Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1000 }))), { maxLength: 20 })

  it.prop("gives the same events however the text is split", [points], ([ps]) => {
    assert.deepStrictEqual(collect(splitAt(text, ps.map((p) => p % (text.length + 1)))), expected)
  }, { arbitrary: { runs: 300 } })

  it.prop("gives the same events however the bytes are split", [points], ([ps]) => {
    const bytes = utf8(text)
    assert.deepStrictEqual(collect(splitAt(bytes, ps.map((p) => p % (bytes.length + 1)))), expected)
  }, { arbitrary: { runs: 300 } })

  it("takes time linear in the input when one long line arrives in many small pieces", () => {
    // 2 MB in 1-byte pieces would take minutes if each piece re-scanned the buffered line
    const long = `data: ${"x".repeat(2_000_000)}\n\n`
    const events: Array<Sse.Event> = []
    const parser = Sse.makeParser((e) => events.push(e))
    for (let i = 0; i < long.length; i += 7) parser.feed(long.slice(i, i + 7))
    assert.strictEqual(events[0]?.data.length, 2_000_000)
  }, 300_000)
})

describe("Sse.parseJson", () => {
  it("parses each data payload and keeps [DONE] as a string", () => {
    assert.deepStrictEqual(Sse.parseJson('data: {"a":1}\n\nevent: x\ndata: [1, 2]\n\ndata: [DONE]\n\n'), Result.succeed([
      { event: "message", data: { a: 1 } },
      { event: "x", data: [1, 2] },
      { event: "message", data: "[DONE]" }
    ]))
  })

  it("fails with a StreamProtocolError on data that is not JSON", () => {
    const result = Sse.parseJson("data: {oops}\n\n")
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) {
      assert.strictEqual(result.failure._tag, "StreamProtocolError")
      assert.strictEqual(result.failure.eventIndex, 0)
      assert.include(result.failure.message, "not valid JSON")
    }
  })

  it("keeps a final event without its blank line when its data is whole JSON", () => {
    assert.deepStrictEqual(Sse.parseJson('data: {"a":1}'), Result.succeed([{ event: "message", data: { a: 1 } }]))
  })

  it("fails when the text ends inside an event", () => {
    const result = Sse.parseJson('data: {"a":1}\n\ndata: {"b":')
    assert.isTrue(Result.isFailure(result) && result.failure.reason.startsWith("the text ends inside an event"))
  })
})
