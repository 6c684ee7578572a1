import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { jsonTextState } from "../../src/providers/internal/jsonText.js"

const tag = (text: string): string => jsonTextState(text)._tag

describe("jsonTextState", () => {
  it("calls whitespace-only text empty", () => {
    assert.strictEqual(tag(" \n\t"), "Empty")
  })

  it("accepts complete values of every kind", () => {
    for (const text of ['{"a": [1, -2.5e+3, true, false, null, "x\\"\\u00e9"]}', "[]", "{}", "0", '"s"', " -0.0E-1 "]) assert.strictEqual(tag(text), "Complete", text)
  })

  it("calls a text cut inside a string, an escape, a number, a literal or a container truncated", () => {
    for (const text of ['{"a": "b', '{"a": "b\\', '{"a": "\\u00', "[1, 2", "[-", "[1.", "[1e", "[tr", '{"a"', '{"a":', "[", '{"a": 1,']) assert.strictEqual(tag(text), "Truncated", text)
  })

  it("calls a text no continuation can fix invalid, at the first bad character", () => {
    assert.deepStrictEqual(jsonTextState('{"a": "b" "c"}'), { _tag: "Invalid", at: 10 })
    for (const text of ["{a: 1}", "[1,]", "01", '"\\x"', "[1] [2]", "nul1", '{"a": 1}}', "[\u0001]", '"a\nb"']) assert.strictEqual(tag(text), "Invalid", text)
  })

  const json = Arbitrary.schema(Schema.Json)

  it.prop("calls JSON.stringify output complete and every proper prefix of it truncated or empty", [json], ([value]) => {
    const text = JSON.stringify(value, null, 1)
    assert.strictEqual(tag(text), "Complete")
    for (let i = 0; i < text.length; i++) {
      const state = tag(text.slice(0, i))
      // a top-level number's own prefix is itself a complete number ("12" of "123")
      assert.include(["Truncated", "Empty", "Complete"], state, text.slice(0, i))
      if (state === "Complete") assert.doesNotThrow(() => JSON.parse(text.slice(0, i)))
    }
  }, { arbitrary: { runs: 200 } })
})
