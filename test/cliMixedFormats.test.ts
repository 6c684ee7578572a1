/**
 * A list that mixes Gemini contents with messages of another format is not
 * guessed at: read as Gemini, the others' text went into Gemini's own fields,
 * and a conversion to another format wrote none of it, without a warning.
 */
import { assert, describe, it } from "@effect/vitest"
import { InputError, parseText } from "../src/cli/Input.js"
import * as Formats from "../src/cli/Formats.js"
import { Effect, Result } from "effect"

const parsedOf = (text: string) => {
  const parsed = parseText(text, "in", text.length)
  if (parsed instanceof InputError) return assert.fail(parsed.reason)
  return parsed
}

const lines = (...values: ReadonlyArray<unknown>): string => values.map((v) => JSON.stringify(v)).join("\n")

describe("the command line's format guess", () => {
  it("refuses JSONL and lists mixing Gemini contents with messages of another format, naming one of each", () => {
    const mixed = [{ role: "user", content: "a" }, { role: "assistant", content: "b" }, { role: "user", parts: [{ text: "c" }] }]
    for (const text of [lines(...mixed), JSON.stringify(mixed)]) {
      const detected = Formats.detect(parsedOf(text))
      assert.instanceOf(detected, InputError)
      if (detected instanceof InputError) {
        assert.strictEqual(
          detected.reason,
          "the input mixes Gemini contents (parts: messages[2]) with messages of another format (content: messages[0]); name the format to read it as with --format (--from for convert)"
        )
      }
    }
  })

  it("still reads Gemini contents, other lists and a list given its format", () => {
    const gemini = lines({ role: "user", parts: [{ text: "a" }] }, { role: "model", parts: [{ text: "b" }] })
    assert.deepStrictEqual(Formats.detect(parsedOf(gemini)), { format: "gemini", shape: "jsonl" })
    const canonical = lines({ role: "user", content: "a" }, { role: "assistant", content: "b" })
    assert.deepStrictEqual(Formats.detect(parsedOf(canonical)), { format: "canonical", shape: "jsonl" })
    // named, a mixed list is read as that format, which says what it cannot read
    const mixed = lines({ role: "user", content: "a" }, { role: "user", parts: [{ text: "c" }] })
    const read = Effect.runSync(Effect.result(Formats.read(parsedOf(mixed), "canonical", "jsonl")))
    assert.isTrue(Result.isFailure(read))
  })
})
