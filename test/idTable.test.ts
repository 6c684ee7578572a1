import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { craftCollidingIds } from "../bench/adversarial.js"
import { IdTable, seededHash } from "../src/internal/idTable.js"

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

describe("IdTable under hash flooding", () => {
  it("falls back to a Map when every key collides, and stays correct", () => {
    const t = new IdTable(16, { hash: () => 42 })
    for (let k = 0; k < 5000; k++) expect(t.setIfAbsent(`id_${k}`, k)).toBe(-1)
    expect(t.degraded).toBe(true)
    expect(t.setIfAbsent("id_17", 99)).toBe(17)
    expect(t.get("id_4999")).toBe(4999)
    expect(t.get("missing")).toBe(-1)
    expect(t.size).toBe(5000)
  })

  it("two tables hash the same id differently (each has its own seed)", () => {
    const a = new IdTable()
    const b = new IdTable()
    const seeds = [(a as unknown as { seed: number }).seed, (b as unknown as { seed: number }).seed]
    expect(seeds[0]).not.toBe(seeds[1])
    expect(seededHash("call_1", seeds[0]!)).not.toBe(seededHash("call_1", seeds[1]!))
  })

  it("ids crafted to share one unseeded FNV-1a state do not collide under a seed", () => {
    const crafted = craftCollidingIds(1024)
    const unseeded = new Set(crafted.map((id) => seededHash(id, 0) & 0xffff))
    const seeded = new Set(crafted.map((id) => seededHash(id, 0x5eed1234) & 0xffff))
    expect(unseeded.size).toBeLessThan(4)
    expect(seeded.size).toBeGreaterThan(900)
    const t = new IdTable(16, { seed: 0x5eed1234 })
    crafted.forEach((id, k) => t.setIfAbsent(id, k))
    expect(t.degraded).toBe(false)
  })
})
