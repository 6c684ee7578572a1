import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { Anthropic, type AnthropicWire } from "../../src/providers/index.js"

const events = (partialJson: string): ReadonlyArray<AnthropicWire.StreamEvent> => [
  { type: "message_start", message: { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5-20250929", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 472, output_tokens: 2 } } },
  { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_01", name: "get_order", input: {} } },
  { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: partialJson.slice(0, 9) } },
  { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: partialJson.slice(9) } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 40 } },
  { type: "message_stop" }
] as ReadonlyArray<AnthropicWire.StreamEvent>

it.effect("a streamed tool input whose parse loses a long number or a repeated key keeps its text in rawArgs; spacing alone does not", () =>
  Effect.gen(function*() {
    for (const raw of ["{\"order_id\": 12345678901234567890, \"note\": \"x\"}", "{\"note\": \"x\", \"note\": \"y\"}"]) {
      const { value, warnings } = yield* Anthropic.fromEvents(events(raw))
      const call = value.message.content[0]
      assert.strictEqual(call?._tag, "ToolCall")
      if (call?._tag === "ToolCall") assert.strictEqual(call.rawArgs, raw)
      assert.deepStrictEqual(warnings, [])
    }
    const { value } = yield* Anthropic.fromEvents(events("{\"order_id\": 42, \"note\": \"x\"}"))
    const call = value.message.content[0]
    if (call?._tag === "ToolCall") assert.isUndefined(call.rawArgs)
  }))
