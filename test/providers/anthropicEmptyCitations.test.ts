/**
 * A text read from Anthropic with `citations: []` goes back with it (an audit of the adapter found the empty list
 * dropped without a word on a round trip).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
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
