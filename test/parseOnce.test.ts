/**
 * Text read once: the command line refuses input nested too deeply before
 * `JSON.parse` spends a second on it (the whole text and each JSONL line).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { parseBytes, parseText, type InputError, type Parsed, read } from "../src/cli/Input.js"

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
        const error = yield* Effect.flip(read(file))
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
