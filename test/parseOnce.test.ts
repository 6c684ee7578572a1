/**
 * Text read once: the command line refuses input nested too deeply before
 * `JSON.parse` spends a second on it (the whole text and each JSONL line),
 * and the prompt the request estimate renders takes a call's compacted
 * arguments from the reading its block already made, not from parsing the
 * text again, with the same output.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema, Stdio } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { parseBytes, parseText, type InputError, type Parsed, read } from "../src/cli/Input.js"
import { Block, Conversation, Message, Request } from "../src/index.js"
import { chatRequestOf } from "../src/internal/chatRequestOf.js"
import { countChatRequest, type RenderOptions } from "../src/internal/openAiChatPrompt.js"
import { OpenAiChat, ToolArguments } from "../src/providers/index.js"
import { parseData, invalid } from "../src/providers/internal/json.js"
import { intBetween } from "./arbitraries.js"

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)
const reason = (p: Parsed | InputError): string => ("kind" in p ? `parsed as ${p.kind}` : p.reason)
const TOO_DEEP = "nested deeper than 100,000 levels"

describe("the command line refuses text nested too deeply before parsing it", () => {
  const million = 1_000_000

  it("a million unclosed `[` or `{\"a\":` is not JSON, said as other unreadable input is", () => {
    for (const text of ["[".repeat(million), '{"a":'.repeat(million)]) {
      assert.strictEqual(reason(parseText(text, "deep.json", text.length)), `deep.json is not JSON (${TOO_DEEP})`)
      assert.strictEqual(reason(parseBytes(bytes(text), "deep.json")), `deep.json is not JSON (${TOO_DEEP})`)
    }
  })

  it("so is a million levels closed again (valid JSON, which JSON.parse took a second to read)", () => {
    const text = `${"[".repeat(million)}${"]".repeat(million)}`
    assert.strictEqual(reason(parseText(text, "deep.json", text.length)), `deep.json is not JSON (${TOO_DEEP})`)
  })

  it("each JSONL line is checked: the error names the line too deep", () => {
    const text = `{"role":"user","content":"hi"}\n${'{"a":'.repeat(million)}\n{"role":"user","content":"ok"}`
    assert.strictEqual(reason(parseText(text, "log.jsonl", text.length)), `log.jsonl is not JSON or JSONL: line 2: ${TOO_DEEP}`)
    // input longer than one string can hold is read a line at a time (the limit lowered here): each line is checked
    const filler = JSON.stringify({ role: "user", content: "x".repeat(20_000) })
    const lines = `{"role":"user","content":"hi"}\n${"[".repeat(120_000)}\n${filler}`
    assert.match(reason(parseBytes(bytes(lines), "big.jsonl", 130_000)), new RegExp(`line 2: ${TOO_DEEP}$`))
    assert.match(reason(parseBytes(bytes(`${"[".repeat(120_000)}\n${filler}`), "big.jsonl", 130_000)), new RegExp(`line 1 is not a JSON value \\(${TOO_DEEP}\\)`))
  })

  it.effect("a file of a million `[` read as the command reads its FILE fails with an InputError (exit code 2)", () =>
    Effect.gen(function*() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parse-once-"))
      try {
        const file = path.join(dir, "deep.json")
        fs.writeFileSync(file, "[".repeat(million))
        const error = yield* Effect.flip(read(file)).pipe(Effect.provide(Stdio.layerTest({})))
        assert.strictEqual(error._tag, "InputError")
        assert.strictEqual(error.reason, `${file} is not JSON (${TOO_DEEP})`)
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    }))

  it("brackets inside strings are not levels, and text 100,000 levels deep is still read", () => {
    const inString = JSON.stringify([{ role: "user", content: "[{".repeat(million) }])
    assert.strictEqual(reason(parseText(inString, "in", inString.length)), "parsed as json")
    const escaped = JSON.stringify([{ role: "user", content: `\\"${"[".repeat(200_000)}` }])
    assert.strictEqual(reason(parseText(escaped, "in", escaped.length)), "parsed as json")
    const deepest = `${"[".repeat(100_000)}${"]".repeat(100_000)}`
    assert.strictEqual(reason(parseText(deepest, "in", deepest.length)), "parsed as json")
  })
})

describe("the library's own readers refuse text nested too deeply before parsing it", () => {
  const closed = `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`

  it.effect("a JSONL transcript names the line, and the other lines still decode", () =>
    Effect.gen(function*() {
      const text = `{"role":"user","content":"hi"}\n${closed}\n{"role":"assistant","content":"ok"}`
      const { messages, failures } = yield* Conversation.decodeJsonlEach(text)
      assert.strictEqual(messages.length, 2)
      assert.deepStrictEqual(failures.map((f) => f.message.includes(`line 2 is not JSON: ${TOO_DEEP}`)), [true])
      const first = yield* Effect.flip(Conversation.decodeJsonl(text))
      assert.include(first.message, `line 2 is not JSON: ${TOO_DEEP}`)
    }))

  it("a stream's data line is not JSON (JSON.parse read a million closed levels as an array)", () => {
    assert.strictEqual(parseData(closed), invalid)
    assert.deepStrictEqual(parseData(`${"[".repeat(1_000)}${"]".repeat(1_000)}`) !== invalid, true)
  })
})

/** How many times `JSON.parse` is given `text` while `body` runs. */
const parsesOf = <A>(text: string, body: () => A): { readonly times: number; readonly value: A } => {
  const parse = JSON.parse
  let times = 0
  JSON.parse = ((t: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    if (t === text) times++
    return parse(t, reviver)
  }) as typeof JSON.parse
  try {
    const value = body()
    return { times, value }
  } finally {
    JSON.parse = parse
  }
}

/** Every text the prompt renderer counts, in order: the prompt itself. */
const rendered = (body: unknown, options: RenderOptions): ReadonlyArray<string> => {
  const texts: Array<string> = []
  countChatRequest(body as Parameters<typeof countChatRequest>[0], (t) => {
    texts.push(t)
    return t.length
  }, options)
  return texts
}

/** A request of one assistant turn calling tools with the given argument texts, read as an adapter reads them. */
const requestOf = (texts: ReadonlyArray<string>): Request.Request => {
  const calls = texts.map((text, i) => {
    const parsed = ToolArguments.fromText({ id: `call_${i}`, name: `tool_${i}` }, text)
    if (!("block" in parsed)) throw new Error("lenient reading never fails")
    return parsed.block
  })
  return Request.make([
    Message.user("go"),
    Message.assistant(calls),
    Message.tool(calls.map((c) => Block.toolResult(c.id, c.name, "done")))
  ])
}

const FORMATS: ReadonlyArray<RenderOptions> = [{ model: "gpt-4o" }, { model: "gpt-5" }, { model: "gpt-3.5-turbo-0125" }, { model: "gpt-4" }, { model: "gpt-4o", responses: true }]

describe("kept argument text validation read is not parsed again by the writer", () => {
  it("a kept JSON object is parsed once across validation and writing, and goes out as kept while it gives args", () => {
    const text = '{ "city": "Oslo", "days": 3 }'
    const kept = Block.toolCall("call_1", "weather", { city: "Oslo", days: 3 }, { rawArgs: text })
    const edited = Block.toolCall("call_2", "weather", { city: "Bergen", days: 3 }, { rawArgs: text })
    for (const [call, sent] of [[kept, text], [edited, '{"city":"Bergen","days":3}']] as const) {
      const messages = [Message.user("go"), Message.assistant([call]), Message.tool([Block.toolResult(call.id, call.name, "ok")])]
      let written: unknown
      const { times } = parsesOf(text, () => {
        assert.deepStrictEqual(Conversation.issuesFor("openai-chat", messages), [])
        written = Effect.runSync(OpenAiChat.toMessages(messages)).value
      })
      assert.strictEqual(times, 1)
      assert.strictEqual((written as ReadonlyArray<{ readonly tool_calls?: ReadonlyArray<{ readonly function: { readonly arguments: string } }> }>)[1]!.tool_calls![0]!.function.arguments, sent)
    }
  })
})

describe("the prompt's compacted arguments come from the call's own reading", () => {
  it("a kept JSON object the reader parsed is not parsed again to be shown compacted", () => {
    const text = '{ "city": "Oslo",\n  "days": [1, 2.50, 1e2] }'
    const { body } = chatRequestOf(requestOf([text]))
    const { times, value: prompt } = parsesOf(text, () => rendered(body, { model: "gpt-4o" }))
    assert.strictEqual(times, 0)
    assert.include(prompt.join(""), '{"city":"Oslo","days":[1,2.5,100]}')
  })

  it("a body given as JSON whose arguments are nested too deeply shows them as they came, without parsing them", () => {
    const deep = `{"deep": ${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`
    const body = {
      model: "gpt-4o",
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: deep } }] },
        { role: "tool", tool_call_id: "call_1", content: "done" }
      ]
    }
    const { times, value: prompt } = parsesOf(deep, () => rendered(body, { model: "gpt-4o" }))
    assert.strictEqual(times, 0)
    assert.include(prompt.join(""), deep)
  })

  // argument texts of every kind a reader keeps: compact, spaced, broken (repaired), not an object, numbers beyond a
  // double, empty, nested deeper than V8's own writer goes
  const odd = ['{"a": 1e400}', '{"n": 12345678901234567890123}', "", "  ", '{"city": "Osl', "[1, 2]", '"text"', '{"__proto__": {"x": 1}, "1": 2, "b": 3}', '{"s": "\\ud800 é"}', `{"deep": ${"[".repeat(12_000)}${"]".repeat(12_000)}}`]
  const argText = Arbitrary.map(Arbitrary.all([intBetween(0, odd.length + 2), Arbitrary.schema(Schema.Json)]), ([k, v]) =>
    k === 0 ? JSON.stringify(v) : k === 1 ? JSON.stringify({ v }, null, 2) : k === 2 ? JSON.stringify({ v, w: [v] }) : odd[k - 3]!)

  it.prop(
    "renders every call exactly as the same body read without the calls' readings does",
    [Arbitrary.array(argText, { minLength: 1, maxLength: 3 })],
    ([texts]) => {
      const { body } = chatRequestOf(requestOf(texts))
      // a copy carries nothing noted beside its values: its arguments are parsed as a body given as JSON is
      const copy = Schema.decodeUnknownSync(Schema.Json)(JSON.parse(JSON.stringify(body)))
      for (const options of FORMATS) assert.deepStrictEqual(rendered(body, options), rendered(copy, options), JSON.stringify(options))
    },
    { arbitrary: { runs: 200 }, timeout: 120_000 }
  )
})
