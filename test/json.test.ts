import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { LazyList, readableJson, stringify, stringifyIndented, stringifyIndentedChunks } from "../src/internal/json.js"
import { intBetween } from "./arbitraries.js"

const json = Arbitrary.schema(Schema.Json)

/** A value `levels` deep: too deep for V8's own JSON writer. */
const nested = (levels: number, leaf: unknown): unknown => {
  let v: unknown = leaf
  for (let i = 0; i < levels; i++) v = i % 2 === 0 ? [v] : { k: v }
  return v
}

describe("the iterative JSON writers", () => {
  it.prop("stringify writes exactly what JSON.stringify writes, for every JSON value", [json], ([value]) => {
    assert.strictEqual(stringify(value), JSON.stringify(value))
  })

  it.prop("stringify writes a value too deep for V8's own writer exactly as JSON.stringify writes each of its levels", [json], ([value]) => {
    // nested(20_000, v): the outermost level an object, then an array, down to the value
    const open = Array.from({ length: 20_000 }, (_, j) => (j % 2 === 0 ? '{"k":' : "[")).join("")
    const close = Array.from({ length: 20_000 }, (_, j) => (j % 2 === 0 ? "]" : "}")).join("")
    assert.strictEqual(stringify(nested(20_000, value) as Schema.Json), open + JSON.stringify(value) + close)
  }, 300_000)

  it.prop("stringifyIndented's one-line fallback writes the same data JSON.stringify would, values JSON cannot hold included", [json], ([value]) => {
    const odd = { a: undefined, f: () => 1, s: Symbol("s"), list: [undefined, () => 1, Symbol("t"), value], value }
    const deep = nested(20_000, odd)
    const written = stringifyIndented(deep, 2)
    // unwrap the 20,000 levels again and compare the leaf with V8's compact form
    let inner: unknown = JSON.parse(written)
    for (let i = 0; i < 20_000; i++) inner = i % 2 === 0 ? (inner as { k: unknown }).k : (inner as Array<unknown>)[0]
    assert.deepStrictEqual(inner, JSON.parse(JSON.stringify(odd)))
  }, 300_000)

  it.prop(
    "stringifyIndentedChunks joined is JSON.stringify(value, null, indent), at every depth of cutting, with values JSON cannot hold",
    [json, intBetween(1, 12), intBetween(0, 4)],
    ([value, indent, levels]) => {
      const odd = { a: undefined, f: () => 1, s: Symbol("s"), list: [undefined, () => 1, Symbol("t"), value, []], value, empty: {}, at: new Date(0) }
      for (const v of [value, odd, [odd, [value]], { messages: [odd, value] }]) {
        assert.strictEqual([...stringifyIndentedChunks(v, indent, levels)].join(""), JSON.stringify(v, null, indent))
      }
    }
  )

  it.prop(
    "a LazyList is written as the array of its elements, each made when it is reached, at every depth of cutting",
    [Arbitrary.schema(Schema.Array(Schema.Json)), intBetween(1, 12), intBetween(0, 4)],
    ([list, indent, levels]) => {
      const made: Array<number> = []
      const lazy = new LazyList(list.length, (i) => {
        made.push(i)
        return list[i]
      })
      const pieces = stringifyIndentedChunks({ model: "m", messages: lazy, after: [lazy] }, indent, levels)
      // nothing is made before it is asked for
      assert.deepStrictEqual(made, [])
      assert.strictEqual([...pieces].join(""), JSON.stringify({ model: "m", messages: list, after: [list] }, null, indent))
    }
  )

  it("stringifyIndentedChunks cuts a long list into one piece per element and then some, none of them long", () => {
    const messages = Array.from({ length: 1000 }, (_, i) => ({ role: "user", content: [{ type: "text", text: `line ${i}\nsecond` }] }))
    const chunks = [...stringifyIndentedChunks({ model: "m", messages }, 2)]
    assert.isAbove(chunks.length, 1000)
    assert.isBelow(Math.max(...chunks.map((c) => c.length)), 200)
    assert.strictEqual(chunks.join(""), JSON.stringify({ model: "m", messages }, null, 2))
  })
})

describe("the iterative JSON writers and cycles", () => {
  it("a cycle, shallow or past V8's depth, is the TypeError JSON.stringify gives, not an endless loop", () => {
    const shallow: Record<string, unknown> = { a: 1 }
    shallow["self"] = shallow
    let deep: Record<string, unknown> = { end: true }
    const top = deep
    for (let i = 0; i < 20_000; i++) deep = { next: deep }
    top["back"] = deep
    for (const value of [shallow, deep]) {
      assert.throws(() => stringify(value as never), TypeError)
      assert.throws(() => stringifyIndented(value, 2), TypeError)
    }
    // a value met twice but not inside itself is no cycle
    const shared = { k: 1 }
    let nested: unknown = [shared, shared]
    for (let i = 0; i < 20_000; i++) nested = [nested]
    assert.strictEqual(stringify(nested as never), "[".repeat(20_001) + "{\"k\":1},{\"k\":1}" + "]".repeat(20_001))
  })
})

describe("readableJson", () => {
  it.prop("gives back every JSON value unchanged, in its key order", [json], ([value]) => {
    assert.strictEqual(JSON.stringify(readableJson(value)), JSON.stringify(value))
  })

  it.prop("leaves out what is not JSON (a function, a Date, a BigInt, undefined) and what cannot be read, at any depth", [json], ([value]) => {
    const throwing = { get x(): unknown { throw new Error("getter") }, kept: value }
    const odd = { a: undefined, f: () => 1, d: new Date(0), n: 1n, throwing, list: [value, Symbol("s")], value }
    const deep = nested(20_000, odd)
    let inner: unknown = readableJson(deep)
    for (let i = 0; i < 20_000; i++) inner = i % 2 === 0 ? (inner as { k: unknown }).k : (inner as Array<unknown>)[0]
    assert.strictEqual(JSON.stringify(inner), JSON.stringify({ throwing: { kept: value }, list: [value], value }))
  }, 300_000)

  it("ends a list at its first hole instead of reading through a claimed length", () => {
    const sparse: Array<unknown> = [1, 2]
    sparse.length = 1e9
    assert.deepStrictEqual(readableJson({ list: sparse }), { list: [1, 2] })
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    assert.deepStrictEqual(readableJson([proxy, 1]), [1])
    assert.strictEqual(readableJson(proxy), null)
  })
})
