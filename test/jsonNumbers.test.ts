import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { inexactNumbers } from "../src/internal/jsonNumbers.js"
import { intBetween } from "./arbitraries.js"

const json = Arbitrary.schema(Schema.Json)

/** Decimal digit strings of 1 to 30 digits, the first not zero: ids, counters, amounts in minor units; many end in zeros, as round ids do. */
const digits = Arbitrary.all({ first: intBetween(1, 9), rest: Arbitrary.array(intBetween(0, 9), { maxLength: 29 }), zeros: intBetween(0, 12) }).pipe(
  Arbitrary.map(({ first, rest, zeros }) => `${first}${rest.join("")}${"0".repeat(Math.min(zeros, 29 - rest.length))}`)
)

describe("numbers JSON text holds that a JavaScript number cannot", () => {
  it("finds a 19-digit id, a value past 2^53, and values beyond a double's range, outside strings only", () => {
    const found = inexactNumbers('{"tweet_id": 1790000000000000123, "text": "id 1790000000000000123", "n": 9007199254740993, "huge": 1e400, "tiny": -1e-400, "ok": [0.1, 1e23, 9007199254740992, 0.30000000000000004], "fraction": 12345678901234567890e-10}', 10)
    assert.deepStrictEqual(found.examples.map((x) => [x.text, x.as]), [
      ["1790000000000000123", "1790000000000000000"],
      ["9007199254740993", "9007199254740992"],
      ["1e400", "1.7976931348623157e+308"],
      ["-1e-400", "0"],
      ["12345678901234567890e-10", "1234567890.1234567"]
    ])
    assert.strictEqual(inexactNumbers('{"a": 1790000000000000123, "b": 1790000000000000125}', 1).count, 2)
  })

  it.prop("an integer literal is reported exactly when JSON.parse changes its value (checked with BigInt)", [digits, Arbitrary.schema(Schema.Boolean)], ([d, negative]) => {
    const literal = (negative ? "-" : "") + d
    const changed = BigInt(Number(literal).toLocaleString("en-US", { useGrouping: false })) !== BigInt(literal)
    assert.strictEqual(inexactNumbers(`{"id": ${literal}, "note": "${d}"}`).count, changed ? 1 : 0, literal)
  })

  it.prop(
    "only numbers outside strings count, whatever quotes and backslashes the strings hold around digits",
    [Arbitrary.array(Arbitrary.all({ d: digits, inString: Arbitrary.schema(Schema.Boolean), around: intBetween(0, 3) }), { maxLength: 12 })],
    ([entries]) => {
      const text = `[${
        entries.map(({ around, d, inString }) => {
          const quirk = ["", '"', "\\", '\\"'][around]!
          return inString ? JSON.stringify(`${quirk}${d}${quirk}`) : d
        }).join(", ")
      }]`
      const changed = entries.filter(({ d, inString }) => !inString && BigInt(Number(d).toLocaleString("en-US", { useGrouping: false })) !== BigInt(d)).length
      assert.strictEqual(inexactNumbers(text, 100).count, changed, text)
    }
  )

  it.prop("what JSON.stringify writes is never reported: a parsed value writes back exactly", [json], ([value]) => {
    assert.strictEqual(inexactNumbers(JSON.stringify(value)).count, 0)
  })
})
