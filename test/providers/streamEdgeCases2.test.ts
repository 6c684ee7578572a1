/**
 * Stream edge cases from a second audit: an Anthropic content block started
 * twice. The stream still fails with a protocol error, and it goes on
 * accumulating as every accumulator does after one: the events for that
 * index after the second start build a second block, and the first keeps
 * exactly what its own events built.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as AnthropicStream from "../../src/providers/AnthropicStream.js"
import type * as AnthropicWire from "../../src/providers/AnthropicWire.js"

type AnthropicEvent = AnthropicWire.StreamEvent

const messageStart = {
  type: "message_start",
  message: { id: "msg_1", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } }
}
const end = [{ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } }, { type: "message_stop" }]
const anthropic = (events: ReadonlyArray<object>) => Effect.flip(AnthropicStream.fromEvents(events as ReadonlyArray<AnthropicEvent>))
const text = (index: number, t: string) => ({ type: "content_block_delta", index, delta: { type: "text_delta", text: t } })

describe("Anthropic stream: deltas after a second content_block_start", () => {
  it.effect("build a second block: the first keeps only its own text", () =>
    Effect.gen(function*() {
      const error = yield* anthropic([
        messageStart,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        text(0, "Important text"),
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        text(0, "Other text"),
        { type: "content_block_stop", index: 0 },
        ...end
      ])
      assert.strictEqual(error._tag, "StreamProtocolError")
      assert.include(error.message, "content block 0 was started twice")
      const partial = error.partial as AnthropicWire.Message | undefined
      assert.deepStrictEqual<unknown>(partial?.content, [{ type: "text", text: "Important text" }, { type: "text", text: "Other text" }])
      assert.strictEqual(partial?.stop_reason, "tool_use")
    }))

  it.effect("a tool_use started over a text block gets its own input; the text block gets none", () =>
    Effect.gen(function*() {
      const events = [
        messageStart,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        text(0, "Let me look."),
        { type: "content_block_stop", index: 0 },
        { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "search", input: {} } },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"q": ' } },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"effect"}' } },
        { type: "content_block_stop", index: 0 },
        ...end
      ]
      const acc = AnthropicStream.make()
      for (const event of events) acc.push(event as AnthropicEvent)
      assert.strictEqual(acc.inputJson(0), '{"q": "effect"}')
      const result = acc.done()
      assert.strictEqual(result._tag, "Failure")
      if (result._tag !== "Failure") return
      // one violation: the second start; the deltas after it are no further violations
      assert.strictEqual(result.failure._tag, "StreamProtocolError")
      if (result.failure._tag !== "StreamProtocolError") return
      assert.strictEqual(result.failure.more, 0)
      assert.deepStrictEqual<unknown>((result.failure.partial as AnthropicWire.Message).content, [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "toolu_1", name: "search", input: { q: "effect" } }
      ])
    }))

  it.effect("a first tool_use left open keeps the input it had; the second's input is its own", () =>
    Effect.gen(function*() {
      const error = yield* anthropic([
        messageStart,
        { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "read", input: {} } },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"path": "a.ts"}' } },
        { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_2", name: "read", input: {} } },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"path": "b.ts"}' } },
        { type: "content_block_stop", index: 0 },
        ...end
      ])
      assert.strictEqual(error._tag, "StreamProtocolError")
      assert.deepStrictEqual<unknown>((error.partial as AnthropicWire.Message).content, [
        { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a.ts" } },
        { type: "tool_use", id: "toolu_2", name: "read", input: { path: "b.ts" } }
      ])
    }))

  it.effect("an index started many times keeps every block, in order, and the blocks after it follow", () =>
    Effect.gen(function*() {
      const n = 2_000
      const events: Array<object> = [messageStart]
      for (let k = 0; k < n; k++) events.push({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, text(0, `part ${k}`))
      events.push({ type: "content_block_stop", index: 0 }, { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } }, text(1, "after"), { type: "content_block_stop", index: 1 }, ...end)
      const error = yield* anthropic(events)
      assert.strictEqual(error._tag, "StreamProtocolError")
      if (error._tag !== "StreamProtocolError") return
      assert.strictEqual(error.more, n - 2)
      const content = (error.partial as AnthropicWire.Message).content as ReadonlyArray<{ readonly text: string }>
      assert.strictEqual(content.length, n + 1)
      assert.deepStrictEqual(content.map((b) => b.text), [...Array.from({ length: n }, (_, k) => `part ${k}`), "after"])
    }))
})
