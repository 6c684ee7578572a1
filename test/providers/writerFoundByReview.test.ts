import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message } from "../../src/index.js"
import { OpenAiChat } from "../../src/providers/index.js"

describe("OpenAI Chat: a tool result whose every part is left out", () => {
  const call = Message.assistant([Block.toolCall("c1", "screenshot", {})])

  it.effect("is sent as empty text, not as an empty list of parts (the API wants at least one part in a list)", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* OpenAiChat.toMessages([
        Message.user("look"),
        call,
        Message.toolResultMessage("c1", "screenshot", [Block.image({ _tag: "Base64", data: "iVBORw0KGgo=" }, { mediaType: "image/png" })])
      ])
      expect(value[2]).toEqual({ role: "tool", tool_call_id: "c1", content: "" })
      expect(warnings.map((w) => w._tag)).toEqual(["DroppedContent"])
    }))

  it.effect("keeps the text parts it can send, and an empty list given as such goes as \"\" too (the API refuses an empty list)", () =>
    Effect.gen(function*() {
      const { value } = yield* OpenAiChat.toMessages([
        Message.user("look"),
        Message.assistant([Block.toolCall("c1", "screenshot", {}), Block.toolCall("c2", "noop", {})]),
        Message.toolResultMessage("c1", "screenshot", [Block.image({ _tag: "Base64", data: "iVBORw0KGgo=" }, { mediaType: "image/png" }), Block.text("a cat")]),
        Message.toolResultMessage("c2", "noop", [])
      ])
      expect(value.slice(2)).toEqual([
        { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "a cat" }] },
        { role: "tool", tool_call_id: "c2", content: "" }
      ])
    }))
})
