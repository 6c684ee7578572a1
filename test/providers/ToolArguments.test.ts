import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Message } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat } from "../../src/providers/index.js"
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

  it.effect("a provider's argument text with a number a JavaScript number cannot hold goes back exactly as text, and as an object with a warning", () =>
    Effect.gen(function* () {
      const text = '{"tweet_id": 1790000000000000123}'
      const { value: [assistant] } = yield* OpenAiChat.fromMessages([
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_tweet", arguments: text } }] }
      ])
      const call = Message.toolCallsOf(assistant!)[0]!
      expect([call.args, call.rawArgs]).toEqual([{ tweet_id: 1790000000000000000 }, text])
      expect(ToolArguments.toObject(call).rounded).toBe("1790000000000000123 as 1790000000000000000")
      // Chat and Responses send the text itself: nothing is lost
      const chat = yield* OpenAiChat.toMessages([assistant!])
      expect([(chat.value[0] as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls[0]!.function.arguments, chat.warnings]).toEqual([text, []])
      // Anthropic and Gemini take an object: the rounding is said
      const rounded = "was sent with numbers of its arguments rounded to what a JavaScript number holds (1790000000000000123 as 1790000000000000000)"
      const anthropic = yield* Anthropic.toMessages([Message.user("Delete it."), assistant!])
      const gemini = yield* Gemini.toMessages([Message.user("Delete it."), assistant!])
      expect([anthropic, gemini].map((written) => written.warnings.map((w) => [w._tag, w.message]))).toEqual([
        [["ConvertedContent", `messages[1].content[0]: a tool call to "delete_tweet" ${rounded}`]],
        [["ConvertedContent", `messages[1].content[0]: a tool call to "delete_tweet" ${rounded}`]]
      ])
      // in strict mode that is a failure, like every reported change
      const strict = yield* Effect.flip(Anthropic.toMessages([Message.user("Delete it."), assistant!], { strict: true }))
      expect(strict._tag).toBe("UnsupportedContent")
    }))
})
