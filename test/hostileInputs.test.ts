/**
 * Inputs built to cost far more than their size: each must give a value or a
 * tagged error, and the work must not follow the size the input claims (a
 * sparse array's length, a list index) or grow with the square of the text.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { Block, Conversation, Message, MessageWindow, TokenEstimator } from "../src/index.js"
import { inexactNumbers } from "../src/internal/jsonNumbers.js"
import { Anthropic, AnthropicStream, GeminiStream, OpenAiChatStream, OpenAiResponsesStream, ToolArguments } from "../src/providers/index.js"

const sparse = (): Array<unknown> => {
  const list: Array<unknown> = []
  list.length = 1e9
  return list
}

describe("sparse arrays and lying lengths", () => {
  it.effect("a message list with a length of 1e9 and no elements is a decode error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Conversation.decode(sparse()))
      assert.include(error.message, "sparse array")
    }))

  it("every stream accumulator turns a sparse array in an event into a protocol error", () => {
    const results = [
      AnthropicStream.make(),
      OpenAiChatStream.make(),
      GeminiStream.make(),
      OpenAiResponsesStream.make()
    ].map((acc: { readonly push: (event: never) => void; readonly done: () => Result.Result<unknown, { readonly _tag: string; readonly message: string }> }, i) => {
      const events: ReadonlyArray<unknown> = [
        { type: "message_start", message: { id: "m", type: "message", role: "assistant", content: sparse(), model: "x", usage: { input_tokens: 1, output_tokens: 1 } } },
        { id: "x", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "x", extra: sparse() }, finish_reason: "stop" }] },
        { candidates: sparse() },
        { type: "response.created", response: { id: "r", object: "response", output: sparse() } }
      ]
      acc.push(events[i] as never)
      return acc.done()
    })
    for (const result of results) assert.isTrue(Result.isFailure(result) && result.failure._tag === "StreamProtocolError" && result.failure.message.includes("sparse array"))
  })

  it("a Gemini argument path that skips list elements is a protocol error, not a million-element list", () => {
    const acc = GeminiStream.make()
    const path = `$${"[1048575]".repeat(50)}`
    acc.push({ candidates: [{ index: 0, content: { role: "model", parts: [{ functionCall: { name: "f", partialArgs: [{ jsonPath: path, stringValue: "x" }] } }] }, finishReason: "STOP" }] } as never)
    const result = acc.done()
    assert.isTrue(Result.isFailure(result) && result.failure.message.includes("skips list elements"))
    // filling a list in order is fine
    const ok = GeminiStream.make()
    ok.push({ candidates: [{ index: 0, content: { role: "model", parts: [{ functionCall: { name: "f", partialArgs: [{ jsonPath: "$.a[0]", stringValue: "x" }, { jsonPath: "$.a[1]", stringValue: "y" }] } }] }, finishReason: "STOP" }] } as never)
    const done = ok.done()
    assert.deepStrictEqual(Result.isSuccess(done) ? done.success.candidates?.[0]?.content?.parts : undefined, [{ functionCall: { name: "f", args: { a: ["x", "y"] } } }])
  })
})

describe("text that is slow to repair or scan", () => {
  it("long argument text that is not JSON is kept as it came, not repaired", () => {
    const text = `{"a": ${"\"x".repeat(40_000)}`
    const parsed = ToolArguments.parse(text)
    assert.deepStrictEqual(parsed.args, {})
    assert.strictEqual(parsed.rawArgs, text)
    assert.isDefined(parsed.parseError)
    // short broken text is still repaired
    assert.deepStrictEqual(ToolArguments.parse("{\"city\": \"Osl").args, { city: "Osl" })
  })

  it("a literal is read from the start of its run of number characters, however many matches the run holds", () => {
    // the run starts with "-": read from there, it is no number, so neither of the matches inside it is reported
    // (reading from the second match's own start would report 1234567890123456.1234567890123456)
    assert.strictEqual(inexactNumbers(`--------1234567890123456.1234567890123456`, 10).count, 0)
    // and a run that starts with a number reports it once, at its start
    assert.deepStrictEqual(inexactNumbers(`x 12345678901234567.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1 y`, 10).examples.map((x) => x.text), ["12345678901234567.1"])
  })

  it("a long run of number characters is read, its inexact literals found", () => {
    const text = `{"a": ${"1.".repeat(50_000)}1, "b": 1790000000000000123}`
    assert.isAtLeast(inexactNumbers(text, 1).count, 1)
  })
})

describe("ids and names from an untyped caller", () => {
  it.effect("many ids that rewrite to one Anthropic id each get their own suffix", () =>
    Effect.gen(function*() {
      const ids = Array.from({ length: 500 }, (_, i) => `a${String.fromCharCode(0x4e00 + (i >> 5))}${String.fromCharCode(0x4e00 + (i & 31))}`)
      const messages = [
        Message.user("go"),
        Message.assistant(ids.map((id) => Block.toolCall(id, "f", {}))),
        Message.tool(ids.map((id) => Block.toolResult(id, "f", "ok")))
      ]
      const { value } = yield* Anthropic.toMessages(messages)
      const calls = (value.messages[1]!.content as ReadonlyArray<{ readonly id?: string }>).map((b) => b.id!)
      assert.strictEqual(new Set(calls).size, 500)
      assert.isTrue(calls.every((id) => /^[a-zA-Z0-9_-]+$/.test(id)))
      assert.deepStrictEqual(calls.slice(0, 3), ["a__", "a___1", "a___2"])
    }))

  it.effect("an unknown provider in the window's options is InvalidFitOptions", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(MessageWindow.fit([Message.user("hi")], 100, { provider: "antropic" as never }))
      assert.strictEqual(error._tag, "InvalidFitOptions")
      assert.include(error.message, "\"antropic\"")
    }).pipe(Effect.provide(MessageWindow.layer), Effect.provide(TokenEstimator.layer)))
})
