/**
 * Empty lists read from Anthropic go back as they came: a text's `citations: []` and a tool result's `content: []`
 * (audits of the adapter found each dropped without a word on a round trip). Both mean the same as no field to the
 * API; a caller comparing bodies should still see its own.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message } from "../../src/index.js"
import { Anthropic } from "../../src/providers/index.js"

describe("Anthropic: an empty citations list", () => {
  it("is written back as it was read", () => {
    const messages = [
      { role: "user" as const, content: [{ type: "text" as const, text: "hi", citations: [] }] },
      { role: "assistant" as const, content: [{ type: "text" as const, text: "hello", citations: [] }] }
    ]
    const read = Effect.runSync(Anthropic.fromMessages(messages))
    const written = Effect.runSync(Anthropic.toMessages(read.value))
    expect(written.value.messages).toEqual(messages)
    expect(written.warnings).toEqual([])
  })
})

describe("Anthropic: a tool result's empty content", () => {
  const call = { role: "assistant" as const, content: [{ type: "tool_use" as const, id: "t1", name: "f", input: {} }] }

  it("given as [] or null is written back so; given as nothing, still nothing", () => {
    for (const content of [[], null, undefined]) {
      const result = { type: "tool_result" as const, tool_use_id: "t1", ...(content === undefined ? {} : { content }) }
      const messages = [{ role: "user" as const, content: "go" }, call, { role: "user" as const, content: [result] }]
      const read = Effect.runSync(Anthropic.fromMessages(messages))
      const block = read.value[2]!.content[0]
      expect(block?._tag === "ToolResult" ? block.content : "not a result").toEqual([])
      const written = Effect.runSync(Anthropic.toMessages(read.value))
      expect(written.value.messages).toEqual(messages)
      expect(written.warnings).toEqual([])
    }
  })

  it("a result given content afterwards is sent with it", () => {
    const messages = [{ role: "user" as const, content: "go" }, call, { role: "user" as const, content: [{ type: "tool_result" as const, tool_use_id: "t1", content: [] }] }]
    const read = Effect.runSync(Anthropic.fromMessages(messages)).value
    const result = read[2]!.content[0] as Block.ToolResultBlock
    const filled = [...read.slice(0, 2), Message.tool([Block.toolResult(result.toolCallId, result.toolName, "12°C", false, { ...(result.providerOptions === undefined ? {} : { providerOptions: result.providerOptions }) })])]
    const written = Effect.runSync(Anthropic.toMessages(filled))
    expect(written.value.messages[2]).toEqual({ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "12°C" }] })
  })
})
