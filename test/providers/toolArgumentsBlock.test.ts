/**
 * A tool call whose arguments were repaired (`RepairedToolArguments`) or refused in strict mode
 * (`InvalidToolArguments`) is pinned to its block: `blockIndex` is the call's place in the message as read, and the
 * message names it (`messages[1].content[2]: ...`), so that two calls that share an id in one message are each named
 * by their own block, in every adapter that reads argument text.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Message } from "../../src/index.js"
import { Anthropic, type AnthropicWire, Conversion, OpenAiChat, OpenAiResponses, ToolArguments } from "../../src/providers/index.js"

const broken = ["{\"a\":", "{'b': 1"] as const

const pinned = (warnings: ReadonlyArray<Conversion.ConversionWarning>) =>
  warnings.flatMap((w) => (w._tag === "RepairedToolArguments" ? [{ index: w.index, blockIndex: w.blockIndex, rawArgs: w.rawArgs, message: w.message.split(": the arguments")[0] }] : []))

describe("ToolArguments.fromText", () => {
  it("a site's block index is carried by the warning and named by its message", () => {
    const parsed = ToolArguments.fromText({ id: "c1", name: "f", index: 2, blockIndex: 1 }, "{'q': 1}")
    assert(!(parsed instanceof Conversion.InvalidToolArguments))
    expect(parsed.warning?.blockIndex).toBe(1)
    expect(parsed.warning?.message.startsWith("messages[2].content[1]: the arguments of tool call \"c1\" (f)")).toBe(true)
  })

  it("a site's block index is carried by the strict error and named by its message", () => {
    const parsed = ToolArguments.fromText({ id: "c1", name: "f", index: 2, blockIndex: 1 }, "{'q': 1}", { mode: "strict" })
    assert(parsed instanceof Conversion.InvalidToolArguments)
    expect(parsed.blockIndex).toBe(1)
    expect(parsed.message.startsWith("messages[2].content[1]: the arguments of tool call \"c1\" (f) are not valid")).toBe(true)
  })
})

describe("two calls with broken arguments that share an id in one message are each named by their own block", () => {
  it.effect("OpenAI Chat: tool_calls after the text", () =>
    Effect.gen(function* () {
      const messages = [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "Looking.",
          tool_calls: broken.map((args) => ({ id: "c1", type: "function", function: { name: "f", arguments: args } }))
        }
      ]
      const { warnings } = yield* OpenAiChat.fromMessages(messages)
      expect(pinned(warnings)).toEqual([
        { index: 1, blockIndex: 1, rawArgs: broken[0], message: "messages[1].content[1]" },
        { index: 1, blockIndex: 2, rawArgs: broken[1], message: "messages[1].content[2]" }
      ])
      const error = yield* Effect.flip(OpenAiChat.fromMessages(messages, { toolArguments: "strict" }))
      assert(error._tag === "InvalidToolArguments")
      expect([error.index, error.blockIndex]).toEqual([1, 1])
    }))

  it.effect("OpenAI Chat: a legacy function_call after the text", () =>
    Effect.gen(function* () {
      const { warnings } = yield* OpenAiChat.fromMessages([
        { role: "user", content: "go" },
        { role: "assistant", content: "Looking.", function_call: { name: "f", arguments: broken[0] } }
      ])
      expect(pinned(warnings)).toEqual([{ index: 1, blockIndex: 1, rawArgs: broken[0], message: "messages[1].content[1]" }])
    }))

  it.effect("Anthropic: the model's message after the system prompt, and each tool_use block", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.fromRequest({
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        system: "Be brief.",
        messages: [
          { role: "user", content: "go" },
          {
            role: "assistant",
            content: [{ type: "text", text: "Looking." }, ...broken.map((input) => ({ type: "tool_use", id: "c1", name: "f", input }))]
          }
        ]
      })
      // the system prompt is the model's first message: the assistant message is messages[2]
      expect(value.messages[2]?.role).toBe("assistant")
      expect(pinned(warnings)).toEqual([
        { index: 2, blockIndex: 1, rawArgs: broken[0], message: "messages[2].content[1]" },
        { index: 2, blockIndex: 2, rawArgs: broken[1], message: "messages[2].content[2]" }
      ])
    }))

  it.effect("Anthropic: a streamed tool input that never became JSON is pinned to its block of the response", () =>
    Effect.gen(function* () {
      const events = [
        { type: "message_start", message: { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 4, output_tokens: 2 } } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Looking." } },
        { type: "content_block_stop", index: 0 },
        { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "c1", name: "f", input: {} } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: broken[0] } },
        { type: "content_block_stop", index: 1 },
        { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 4 } },
        { type: "message_stop" }
      ] as ReadonlyArray<AnthropicWire.StreamEvent>
      const { warnings } = yield* Anthropic.fromEvents(events)
      expect(warnings.flatMap((w) => (w._tag === "RepairedToolArguments" ? [w.blockIndex] : []))).toEqual([1])
    }))

  it.effect("OpenAI Responses: calls of a run of items read as one message, after its output text", () =>
    Effect.gen(function* () {
      const items = [
        { role: "user", content: "go" },
        { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Looking.", annotations: [] }] },
        ...broken.map((args, k) => ({ type: "function_call", id: `fc_${k}`, call_id: "c1", name: "f", arguments: args }))
      ]
      const { value, warnings } = yield* OpenAiResponses.fromMessages(items)
      const calls = (value[1] as Message.AssistantMessage).content
      expect(calls.map((b) => b._tag)).toEqual(["Text", "ToolCall", "ToolCall"])
      expect(pinned(warnings)).toEqual([
        { index: 1, blockIndex: 1, rawArgs: broken[0], message: "messages[1].content[1]" },
        { index: 1, blockIndex: 2, rawArgs: broken[1], message: "messages[1].content[2]" }
      ])
    }))

  it.effect("OpenAI Responses: an MCP call's arguments", () =>
    Effect.gen(function* () {
      const { warnings } = yield* OpenAiResponses.fromMessages([
        { role: "user", content: "go" },
        { type: "function_call", id: "fc_1", call_id: "c1", name: "f", arguments: "{}" },
        { type: "mcp_call", id: "mcp_1", name: "lookup", server_label: "docs", arguments: broken[1] }
      ])
      expect(pinned(warnings)).toEqual([{ index: 1, blockIndex: 1, rawArgs: broken[1], message: "messages[1].content[1]" }])
    }))
})

describe("the block a repaired call is pinned to", () => {
  const shapes = Arbitrary.schema(Schema.Array(Schema.Boolean).check(Schema.isMaxLength(6)))
  it.prop("is the call with that text, for any calls sharing one id after a text (OpenAI Chat)", [shapes], ([brokenAt]) =>
    Effect.gen(function* () {
      const { value, warnings } = yield* OpenAiChat.fromMessages([
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "Looking.",
          tool_calls: brokenAt.map((bad, k) => ({ id: "c1", type: "function", function: { name: "f", arguments: bad ? `{"k": ${k}` : `{"k":${k}}` } }))
        }
      ])
      const content = (value[1] as Message.AssistantMessage).content
      const repaired = warnings.flatMap((w) => (w._tag === "RepairedToolArguments" ? [w] : []))
      expect(repaired.map((w) => w.blockIndex)).toEqual(brokenAt.flatMap((bad, k) => (bad ? [k + 1] : [])))
      for (const w of repaired) {
        const block = content[w.blockIndex!]
        assert(block?._tag === "ToolCall")
        expect(block.rawArgs).toBe(w.rawArgs)
      }
    }).pipe(Effect.runSync))
})
