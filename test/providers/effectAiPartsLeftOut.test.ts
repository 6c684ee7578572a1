/**
 * `EffectAi.fromResponseParts` reads the parts of `streamText` through effect/ai's `Prompt.fromResponseParts`, which
 * keeps finished parts only: text or reasoning whose end part never came, deltas of no started part and arguments
 * streamed for a call that never completed were left out without a word (an audit found a cut stream's half thought
 * and the partial arguments `{"q": "oslo wea` gone with no warning). Each is now a `DroppedContent` warning.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Response } from "effect/ai"
import { EffectAi } from "../../src/providers/index.js"

const parts = (list: ReadonlyArray<Record<string, unknown>>) => list.map((p) => Response.makePart(p["type"] as never, p as never) as Response.AnyPart)
const finish = { type: "finish", reason: "length", usage: { inputTokens: { total: 10 }, outputTokens: { total: 5 } } }

describe("fromResponseParts says what effect/ai's history leaves out", () => {
  it.effect("unfinished reasoning and text, and arguments of a call that never completed", () =>
    Effect.gen(function*() {
      const read = yield* EffectAi.fromResponseParts(parts([
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", delta: "half a thought" },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "The weather in" },
        { type: "tool-params-start", id: "c1", name: "search" },
        { type: "tool-params-delta", id: "c1", delta: "{\"q\": \"oslo wea" },
        finish
      ]))
      const said = read.warnings.filter((w) => w._tag === "DroppedContent").map((w) => w.message).join("\n")
      expect(said).toContain("half a thought")
      expect(said).toContain("The weather in")
      expect(said).toContain("{\\\"q\\\": \\\"oslo wea")
    }))

  it.effect("deltas of no started part", () =>
    Effect.gen(function*() {
      const read = yield* EffectAi.fromResponseParts(parts([{ type: "text-delta", id: "t9", delta: "orphan" }, finish]))
      expect(read.warnings.some((w) => w._tag === "DroppedContent" && w.message.includes("no start part came before them"))).toBe(true)
    }))

  it.effect("a whole stream says nothing", () =>
    Effect.gen(function*() {
      const read = yield* EffectAi.fromResponseParts(parts([
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", delta: "a thought" },
        { type: "reasoning-end", id: "r" },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "Hi." },
        { type: "text-end", id: "t" },
        { type: "tool-params-start", id: "c", name: "f" },
        { type: "tool-params-delta", id: "c", delta: "{\"n\":1}" },
        { type: "tool-params-end", id: "c" },
        { type: "tool-call", id: "c", name: "f", params: { n: 1 } },
        { ...finish, reason: "tool-calls" }
      ]))
      expect(read.warnings).toEqual([])
      expect(read.value.messages[0]?.content.map((b) => b._tag)).toEqual(["Thinking", "Text", "ToolCall"])
    }))
})
