/**
 * Type tests: a block kind or role that is not handled is a compile error.
 * `npm run typecheck` fails if any `@ts-expect-error` below stops being an error.
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Block, Message } from "../src/index.js"

describe("exhaustiveness", () => {
  it("a switch over blocks that forgets a kind does not compile", () => {
    const forgetful = (b: Block.Block): string => {
      switch (b._tag) {
        case "Text":
          return b.text
        case "Thinking":
          return b.thinking
        case "ToolCall":
          return b.name
        case "ToolResult":
          return b.toolName
        default:
          // @ts-expect-error RedactedThinking is not handled, so `b` is not `never`
          return Block.absurd(b)
      }
    }
    expect(forgetful(Block.text("x"))).toBe("x")
  })

  it("Block.match demands a case for every kind", () => {
    const b: Block.Block = Block.text("x")
    // @ts-expect-error the RedactedThinking case is missing
    const r = Block.match(b, { Text: () => 1, Thinking: () => 2, ToolCall: () => 3, ToolResult: () => 4 })
    expect(r).toBe(1)
  })

  it("a switch over roles that forgets one does not compile", () => {
    const label = (m: Message.Message): string => {
      switch (m.role) {
        case "system":
        case "user":
        case "assistant":
          return m.role
        default:
          // @ts-expect-error the tool role is not handled
          return Block.absurd(m)
      }
    }
    expect(label(Message.user("x"))).toBe("user")
  })

  it("the model makes tool calls on a user message unconstructible", () => {
    // @ts-expect-error a user message holds no tool calls
    const bad = () => Message.user([Block.toolCall("c1", "f")])
    expectTypeOf(bad).toBeFunction()
    // @ts-expect-error a tool message holds only tool results
    const bad2 = () => Message.tool([Block.text("x")])
    expectTypeOf(bad2).toBeFunction()
  })

  it("the tag and role unions are exactly what the model defines", () => {
    expectTypeOf<Block.Tag>().toEqualTypeOf<
      "Text" | "Thinking" | "RedactedThinking" | "Refusal" | "File" | "ToolCall" | "ToolResult" | "Json" | "ProviderData"
    >()
    expectTypeOf<Message.Role>().toEqualTypeOf<"system" | "user" | "assistant" | "tool">()
    expectTypeOf(Message.toolCallsOf).returns.toEqualTypeOf<ReadonlyArray<Block.ToolCallBlock>>()
  })
})
