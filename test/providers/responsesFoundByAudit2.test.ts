/**
 * Found by an adversarial audit of the response readers:
 * - an Anthropic stream whose tool input holds a number no double holds (`1e400`, which the model can write) failed the
 *   whole response as a MalformedPayload (the accumulator parsed it to Infinity, which no JSON value holds), where an
 *   unfinished input is repaired: now the input stays text, kept as the call's raw arguments and repaired, as a Chat
 *   call's arguments are;
 * - a Gemini response's `content` fields beside `role` and `parts` were dropped without a word, where a request's are
 *   kept: now they are kept on the message and written back.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Anthropic, AnthropicStream, Gemini, OpenAiResponses } from "../../src/providers/index.js"

const usage = { input_tokens: 1, output_tokens: 1 }
const events = (partialJson: string) => [
  { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage } },
  { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "set", input: {} } },
  { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: partialJson } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "tool_use" }, usage },
  { type: "message_stop" }
] as never

describe("an Anthropic stream's tool input with a number no double holds", () => {
  it.effect("is kept as raw arguments and repaired, not a failed response", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromEvents(events('{"a": 1e400, "b": "kept"}'))
      const call = read.value.message.content[0]
      expect(call?._tag).toBe("ToolCall")
      if (call?._tag !== "ToolCall") return
      expect(call.rawArgs).toBe('{"a": 1e400, "b": "kept"}')
      expect(call.parseError).toContain("Infinity")
      expect(read.warnings.map((w) => w._tag)).toContain("RepairedToolArguments")
    }))

  it.effect("the accumulator says why, as for input that is not JSON, and its message holds the text, not Infinity", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(AnthropicStream.fromEvents(events('{"a": -1e400}')))
      expect(error.message).toContain("its input cannot be read (a number is too large to be held (it reads as Infinity))")
      const partial = (error as { readonly partial?: { readonly content: ReadonlyArray<{ readonly input?: unknown }> } }).partial
      expect(partial?.content[0]?.input).toBe('{"a": -1e400}')
    }))

  it.effect("a number a double holds is parsed as before", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromEvents(events('{"a": 1e300}'))
      const call = read.value.message.content[0]
      expect(call?._tag === "ToolCall" ? call.args : undefined).toEqual({ a: 1e300 })
      expect(read.warnings).toEqual([])
    }))
})

describe("a Gemini response's content fields", () => {
  const response = { candidates: [{ content: { role: "model", parts: [{ text: "Hi" }], zz_extra: { keep: 1 } }, finishReason: "STOP", index: 0 }] }

  it.effect("are kept on the message and written back, from a response and from its stream", () =>
    Effect.gen(function*() {
      for (const read of [yield* Gemini.fromResponse(response), yield* Gemini.fromEvents([response])]) {
        const written = yield* Gemini.toMessages([read.value.message])
        expect(written.value).toEqual({ contents: [{ role: "model", parts: [{ text: "Hi" }], zz_extra: { keep: 1 } }] })
      }
    }))
})

describe("a field that takes text or a list says so when it is neither", () => {
  it.effect("Anthropic's system and a Responses function output", () =>
    Effect.gen(function*() {
      const system = yield* Effect.flip(Anthropic.fromRequest({ model: "m", max_tokens: 1, system: 5, messages: [{ role: "user", content: "hi" }] }))
      expect(system.message).toContain("at system: expected a string or an array, got a number")
      const output = yield* Effect.flip(OpenAiResponses.fromRequest({
        model: "m",
        input: [{ type: "function_call", call_id: "c", name: "f", arguments: "{}" }, { type: "function_call_output", call_id: "c", output: 5 }]
      }))
      expect(output.message).toContain("at input[1].output: expected a string or an array, got a number")
      const input = yield* Effect.flip(OpenAiResponses.fromRequest({ model: "m", input: 5 }))
      expect(input.message).toContain("at input: expected a string or an array, got a number")
    }))
})
