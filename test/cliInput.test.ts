/**
 * The command line's reading of bytes: JSON, JSONL, and input longer than one
 * JavaScript string can hold (read as JSONL a line at a time; the limit is
 * lowered here so the test does not need half a gigabyte).
 */
import { assert, describe, it } from "@effect/vitest"
import { type InputError, MAX_STRING_LENGTH, parseBytes, parseText, type Parsed, readBytes } from "../src/cli/Input.js"
import * as fs from "node:fs"
import { Arbitrary, Effect, Result, Schema, Stdio } from "effect"
import * as Request from "../src/Request.js"
import { intBetween } from "./arbitraries.js"
import * as Formats from "../src/cli/Formats.js"
import * as OpenAiResponses from "../src/providers/OpenAiResponses.js"
import { isOwnParsedJson } from "../src/internal/json.js"
import { corpus, makeRng, mutate, shortSizes } from "./fuzz/generators.js"

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)
const reason = (p: Parsed | InputError): string => ("kind" in p ? `parsed as ${p.kind}` : p.reason)

describe("reading the command line's input", () => {
  it.effect.skipIf(!fs.existsSync("/dev/zero"))("a device that never ends is refused at its first binary bytes", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(readBytes("/dev/zero")).pipe(Effect.provide(Stdio.layerTest({})))
      assert.include(error.reason, "binary data")
    }))

  it("parses bytes as parseText parses the same text, BOM and CRLF included", () => {
    for (const text of ['{"role":"user","content":"hi"}', '\uFEFF[{"role":"user","content":"hi"}]', '{"a":1}\r\n{"b":2}\r\n\r\n{"c":"é"}\n', "  \n\n"]) {
      const fromText = parseText(text.replace(/^\uFEFF/, ""), "in", bytes(text).length)
      assert.deepStrictEqual(parseBytes(bytes(text), "in"), fromText)
    }
    assert.strictEqual(MAX_STRING_LENGTH, 2 ** 29 - 24)
  })

  it("reads JSONL whose lines end in a lone CR (classic Mac OS) as the same lines ended in LF", () => {
    const lines = ['{"role":"user","content":"hi"}', '{"role":"assistant","content":"hello"}', "", '{"role":"user","content":"bye"}']
    const lf = parseText(lines.join("\n") + "\n", "in", 0)
    assert.strictEqual(reason(lf), "parsed as jsonl")
    assert.deepStrictEqual(parseText(lines.join("\r") + "\r", "in", 0), lf)
    // the line a bad value is on is counted the same way
    assert.strictEqual(reason(parseText(lines.join("\r").replace("bye", 'bye\\q'), "in", 0)), reason(parseText(lines.join("\n").replace("bye", 'bye\\q'), "in", 0)))
    assert.match(reason(parseText(lines.join("\r").replace("bye", 'bye\\q'), "in", 0)), /^in is not JSON or JSONL: line 4: /)
    // a CR that is whitespace inside one JSON document still reads as that document
    assert.strictEqual(reason(parseText('{"messages":\r[]}', "in", 0)), "parsed as json")
  })

  it("reads UTF-16 text with its byte order mark (what Windows PowerShell's `>` writes) as the same text in UTF-8", () => {
    const text = '[{"role":"user","content":"héllo 你好 👋"}]\r\n'
    const le = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(text, "utf16le"))])
    const be = new Uint8Array([0xfe, 0xff, ...new Uint8Array(Buffer.from(text, "utf16le").swap16())])
    const expected = parseText(text, "in", 0)
    for (const utf16 of [le, be]) {
      const parsed = parseBytes(utf16, "in")
      assert.deepStrictEqual("kind" in parsed && parsed.kind === "json" ? parsed.value : parsed, "kind" in expected && expected.kind === "json" ? expected.value : expected)
    }
    // a lone high surrogate is not UTF-16 text
    assert.match(reason(parseBytes(new Uint8Array([0xff, 0xfe, 0x3d, 0xd8, 0x7b, 0x00]), "bad")), /^bad is not UTF-16LE text/)
    // without the mark, NUL bytes are binary data, as before
    assert.match(reason(parseBytes(new Uint8Array(Buffer.from(text, "utf16le")), "bin")), /binary data/)
  })

  it.prop("reads JSONL longer than a string can hold a line at a time, with the same values", [Arbitrary.schema(Schema.Array(Schema.Json)), intBetween(1, 40)], ([values, limit]) => {
    const text = values.map((v) => JSON.stringify(v)).join("\n")
    const big = parseBytes(bytes(text), "in", limit)
    const small = parseBytes(bytes(text), "in")
    if (!("kind" in small)) return
    // a line longer than the limit cannot be read either way; otherwise the same result
    if (values.some((v) => bytes(JSON.stringify(v)).length > limit)) assert.match(reason(big), /(alone is longer|not a JSON value)/)
    else assert.deepStrictEqual(big, small)
  })

  it("JSONL longer than a string can hold: numbers a double cannot hold are rounded and said, as in JSONL of any size", () => {
    const text = '{"role":"user","content":"hi","x":1e400}\n{"role":"assistant","content":"a","id":12345678901234567890}\n'
    const big = parseBytes(bytes(text), "in", 70)
    assert.deepStrictEqual(big, parseBytes(bytes(text), "in"))
    assert.match((big as Parsed).rounded ?? "", /^2 numbers with more digits than a JavaScript number holds, read as the nearest it does: 1e400 as 1\.7976931348623157e\+308, 12345678901234567890 as/)
  })

  it("says what to do with a JSON document too large for one string, and names the bad line of large JSONL", () => {
    const doc = JSON.stringify({ messages: [{ role: "user", content: "hi" }] }, null, 2)
    assert.match(reason(parseBytes(bytes(doc), "big.json", 10)), /^big\.json is \d+ bytes, more than one JavaScript string can hold, so it is read as JSONL, a line at a time, and line 1 is not a JSON value .*write a transcript this large as JSONL/)
    assert.match(reason(parseBytes(bytes('{"a":1}\n{"b":\n'), "big.jsonl", 8)), /line 2: /)
    assert.match(reason(parseBytes(bytes('{"a":1}\n{"b":"aaaaaaaaaaaaaaaaaaa"}\n'), "big.jsonl", 10)), /line 2 alone is longer than that/)
    assert.match(reason(parseBytes(new Uint8Array([0x7b, 0x7d, 0x0a, 0xff, 0x0a]), "big.jsonl", 2)), /line 2 is not UTF-8 text/)
    assert.match(reason(parseBytes(new Uint8Array([0x7b, 0x00, 0x7d]), "bin", 2)), /binary data/)
    assert.strictEqual(reason(parseBytes(bytes("\n\n \n"), "blank", 1)), "blank is empty")
  })

  it("reads what it parsed itself without a defensive copy, to the same request and warnings as a copy gives", () => {
    // the adapters copy untrusted input before reading it; the command line's own JSON.parse output is
    // read as it is (a million-message body copied costs as much memory again), and must read the same
    const outcome = (parsed: Parsed, format: Formats.FormatName): string => {
      const detected = Formats.detect(parsed)
      const shape = "format" in detected ? detected.shape : Array.isArray("value" in parsed ? parsed.value : undefined) ? "messages" : "body"
      const read = Effect.runSync(Effect.result(Formats.read(parsed, format, shape)))
      return Result.isSuccess(read)
        ? JSON.stringify({ request: Schema.encodeSync(Request.Request)(read.success.request), warnings: read.success.warnings.map((w) => w.message) })
        : `failed: ${read.failure.message}`
    }
    const r = makeRng(16)
    let cases = 0
    for (const format of ["openai-chat", "anthropic", "openai-responses", "gemini"] as const) {
      const wire = corpus().wire[format]
      for (const payload of [...wire.messages, ...wire.requests]) {
        // as recorded, and with fields we do not model, `__proto__` keys, odd numbers and wrong types
        for (const value of [payload, ...(["unknown-fields", "proto-keys", "wrong-types", "numbers"] as const).map((cls) => mutate(cls, r, payload, { sizes: shortSizes }))]) {
          const text = JSON.stringify(value)
          if (text === undefined) continue
          const own = parseBytes(bytes(text), "in")
          if (!("kind" in own) || own.kind !== "json") continue
          assert.strictEqual(isOwnParsedJson(own.value), typeof own.value === "object" && own.value !== null)
          const copied: Parsed = { kind: "json", value: JSON.parse(text) as unknown, bytes: own.bytes }
          assert.isFalse(isOwnParsedJson(copied.value))
          assert.strictEqual(outcome(own, format), outcome(copied, format), `${format}: ${text.slice(0, 200)}`)
          // read in place, and left as it was
          assert.strictEqual(JSON.stringify(own.value), text)
          cases++
        }
      }
    }
    assert.isAbove(cases, 500)
  })

  it("counts the blocks each item of a Responses run became: output messages part by part, hosted calls with their results", () => {
    const input = [
      { role: "user", content: "Find things" },
      { type: "reasoning", summary: [] },
      { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "One." }, { type: "output_text", text: "Two." }] },
      { type: "file_search_call", id: "fs_1", queries: ["cats"], status: "completed", results: [{ file_id: "f1", text: "cats" }] },
      { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "dogs" } },
      { type: "function_call", call_id: "c9", name: "pending" },
      { role: "assistant", content: "no id" },
      { type: "message", id: "msg_2", role: "assistant", content: [{ type: "output_text", text: "a" }, { type: "other_part" }] },
      { role: "assistant", content: [] },
      { type: "mcp_call", id: "mcp_1", name: "lookup", server_label: "s", arguments: "{}", output: "found" },
      { type: "function_call_output", call_id: "c9", output: "x" },
      { type: "function_call_output", call_id: "c8", output: "y" },
      { role: "user", content: "ok" }
    ]
    const parsed = parseBytes(bytes(JSON.stringify({ model: "gpt-4o", input })), "in") as Parsed
    const read = Effect.runSync(Formats.read(parsed, "openai-responses", "body"))
    const counts = Effect.runSync(Formats.itemBlocks(parsed, read, Formats.origins(parsed, read)))
    // an id-less assistant item of no parts is kept whole: one block
    assert.deepStrictEqual([...counts], [[1, [1, 2, 2, 1, 1, 1, 1, 1, 2]], [2, [1, 1]]])
  })

  it("counts the blocks of every Responses item of the corpus as reading the item alone does", () => {
    const r = makeRng(17)
    let runs = 0
    for (const payload of [...corpus().wire["openai-responses"].messages, ...corpus().wire["openai-responses"].requests]) {
      for (const value of [payload, ...(["unknown-fields", "wrong-types"] as const).map((cls) => mutate(cls, r, payload, { sizes: shortSizes }))]) {
        const text = JSON.stringify(value)
        if (text === undefined) continue
        const parsed = parseBytes(bytes(text), "in")
        if (!("kind" in parsed) || parsed.kind !== "json") continue
        const shape = Array.isArray(parsed.value) ? "messages" : "body"
        const read = Effect.runSync(Effect.result(Formats.read(parsed, "openai-responses", shape)))
        if (Result.isFailure(read)) continue
        const origins = Formats.origins(parsed, read.success)
        const counts = Effect.runSync(Formats.itemBlocks(parsed, read.success, origins))
        if (origins === undefined) continue
        const list = (shape === "messages" ? parsed.value : (parsed.value as { input: unknown }).input) as ReadonlyArray<unknown>
        origins.forEach((first, i) => {
          const end = i + 1 < origins.length ? origins[i + 1]! : list.length
          if (first < 0 || end - first < 2) return
          // every run is counted, each item as many blocks as it reads to alone
          const alone = list.slice(first, end).map((item) => Effect.runSync(OpenAiResponses.fromMessages([item])).value[0]!.content.length)
          assert.deepStrictEqual(counts.get(i), alone, text.slice(0, 200))
          runs++
        })
      }
    }
    assert.isAbove(runs, 10)
  })
})
