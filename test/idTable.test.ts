import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { IdTable } from "../src/internal/idTable.js"

describe("IdTable", () => {
  it("stores the first value of a key and reports it on later inserts", () => {
    const t = new IdTable(1)
    expect(t.setIfAbsent("call_1", 3)).toBe(-1)
    expect(t.setIfAbsent("call_1", 9)).toBe(3)
    expect(t.get("call_1")).toBe(3)
    expect(t.get("call_2")).toBe(-1)
    expect(t.size).toBe(1)
  })

  it.prop(
    "behaves like a Map that keeps first values, through many resizes",
    [Arbitrary.array(Arbitrary.schema(Schema.String), { maxLength: 400 })],
    ([keys]) => {
      const t = new IdTable(1)
      const m = new Map<string, number>()
      keys.forEach((k, i) => {
        expect(t.setIfAbsent(k, i)).toBe(m.get(k) ?? -1)
        if (!m.has(k)) m.set(k, i)
      })
      for (const [k, v] of m) expect(t.get(k)).toBe(v)
      expect(t.size).toBe(m.size)
    },
    { arbitrary: { runs: 300 } }
  )
})
