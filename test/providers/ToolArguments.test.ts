import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block } from "../../src/index.js"
import * as ToolArguments from "../../src/providers/ToolArguments.js"

describe("ToolArguments.parse", () => {
  it("valid compact JSON keeps no raw text", () => {
    expect(ToolArguments.parse('{"city":"Oslo"}')).toEqual({ args: { city: "Oslo" } })
  })

  it("valid JSON formatted differently keeps the provider's bytes", () => {
    expect(ToolArguments.parse('{ "city": "Oslo" }')).toEqual({ args: { city: "Oslo" }, rawArgs: '{ "city": "Oslo" }' })
  })

  it("empty text is a call without arguments, and the empty text is kept", () => {
    expect(ToolArguments.parse("")).toEqual({ args: {}, rawArgs: "" })
  })

  it("text cut off mid-string is repaired, the text and the reason kept", () => {
    const parsed = ToolArguments.parse('{"city": "Osl')
    expect(parsed.args).toEqual({ city: "Osl" })
    expect(parsed.rawArgs).toBe('{"city": "Osl')
    expect(parsed.parseError).toBeDefined()
  })

  it("text nothing can be recovered from gives {} with the text kept", () => {
    const parsed = ToolArguments.parse("not json at all", { requireObject: true })
    expect([parsed.args, parsed.rawArgs]).toEqual([{}, "not json at all"])
  })

  it("valid JSON that is not an object is refused where an object is required", () => {
    expect(ToolArguments.parse("[1,2]", { requireObject: true }).parseError).toBe("expected a JSON object, got an array")
    expect(ToolArguments.parse("[1,2]")).toEqual({ args: [1, 2] })
  })

  it.prop("never throws, and the text is always recoverable from the block", [Schema.String], ([text]) => {
    const parsed = ToolArguments.parse(text, { requireObject: true })
    const call = Block.toolCall("c", "f", parsed.args, {
      ...(parsed.rawArgs === undefined ? {} : { rawArgs: parsed.rawArgs }),
      ...(parsed.parseError === undefined ? {} : { parseError: parsed.parseError })
    })
    assert.strictEqual(ToolArguments.toText(call), text)
  }, { arbitrary: { runs: 500 } })

  it.prop("JSON argument text comes back byte for byte", [Arbitrary.schema(Schema.Json), Schema.Boolean], ([value, pretty]) => {
    const text = JSON.stringify(value, null, pretty ? 2 : undefined)
    const parsed = ToolArguments.parse(text)
    const call = Block.toolCall("c", "f", parsed.args, parsed.rawArgs === undefined ? {} : { rawArgs: parsed.rawArgs })
    assert.strictEqual(ToolArguments.toText(call), text)
  }, { arbitrary: { runs: 500 } })
})

describe("ToolArguments.toolCall", () => {
  it.effect("lenient mode repairs and reports RepairedToolArguments", () =>
    Effect.gen(function* () {
      const { block, warning } = yield* ToolArguments.toolCall({ id: "c1", name: "get_weather", index: 3 }, '{"city": "Osl')
      expect(block.args).toEqual({ city: "Osl" })
      expect(Block.argsParsed(block)).toBe(false)
      expect(warning?._tag).toBe("RepairedToolArguments")
      expect(warning?.message).toContain("messages[3]")
    }))

  it.effect("strict mode fails with InvalidToolArguments carrying the text and the reason", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(ToolArguments.toolCall({ id: "c1", name: "f" }, "[1,", { mode: "strict" }))
      expect([e._tag, e.rawArgs, e.toolCallId]).toEqual(["InvalidToolArguments", "[1,", "c1"])
    }))

  it("toObject keeps objects and replaces anything else with {} and a reason", () => {
    expect(ToolArguments.toObject(Block.toolCall("c", "f", { a: 1 }))).toEqual({ value: { a: 1 } })
    expect(ToolArguments.toObject(Block.toolCall("c", "f", [1]))).toEqual({ value: {}, replaced: "the arguments are an array, not an object" })
  })
})
