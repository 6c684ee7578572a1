import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Message } from "../../src/index.js"
import { Gemini, type GeminiWire, OpenAiChat } from "../../src/providers/index.js"

/** A grounding support that counts every read of its fields, so the work a merge does on it can be counted, not timed. */
const counted = (i: number, reads: { n: number }): object =>
  new Proxy({ segment: { startIndex: 2 * i, endIndex: 2 * i + 1 }, groundingChunkIndices: [0] }, {
    get: (target, key, receiver) => {
      reads.n++
      return Reflect.get(target, key, receiver)
    }
  })

describe("Gemini stream: grounding metadata sent a little in every chunk", () => {
  it.effect("costs each chunk what it holds: a long grounded answer stays linear", () =>
    Effect.gen(function*() {
      const reads = { n: 0 }
      const n = 2_000
      const chunks = Array.from({ length: n }, (_, i) => ({
        candidates: [{
          index: 0,
          content: { role: "model", parts: [{ text: "w " }] },
          groundingMetadata: { groundingSupports: [counted(i, reads)] },
          ...(i === n - 1 ? { finishReason: "STOP" } : {})
        }]
      }))
      const read = yield* Gemini.fromEvents(chunks as unknown as Array<GeminiWire.StreamEvent>)
      const candidate = read.value.providerData?.["candidate"] as { groundingMetadata?: { groundingSupports?: Array<unknown> } } | undefined
      const supports = candidate?.groundingMetadata?.groundingSupports
      // every support kept once, in order
      assert.strictEqual(supports?.length, n)
      assert.deepStrictEqual(supports?.[n - 1], { segment: { startIndex: 2 * (n - 1), endIndex: 2 * n - 1 }, groundingChunkIndices: [0] })
      // each support is read a bounded number of times (compared against every earlier one, it was read ~n/2 times)
      assert.isBelow(reads.n, 40 * n)
    }))
})

describe("Gemini stream: citations that are not a list", () => {
  it.effect("are a protocol error with the chunk that sent them, not kept until a later list replaces them unsaid", () =>
    Effect.gen(function*() {
      const chunks = [
        { candidates: [{ index: 0, content: { role: "model", parts: [{ text: "a" }] }, citationMetadata: { citations: "not a list" } }] },
        { candidates: [{ index: 0, content: { role: "model", parts: [{ text: "b" }] }, citationMetadata: { citations: [{ uri: "https://example.com" }] }, finishReason: "STOP" }] }
      ] as unknown as ReadonlyArray<GeminiWire.GenerateContentResponse>
      const error = yield* Effect.flip(Gemini.fromEvents(chunks))
      assert.strictEqual(error._tag, "StreamProtocolError")
      if (error._tag !== "StreamProtocolError") return
      assert.include(error.message, "citationMetadata.citations is not a list")
      assert.strictEqual(error.eventIndex, 0)
      assert.deepStrictEqual(error.event, chunks[0])
      // the text and the later list still reach the partial response
      const partial = error.partial as GeminiWire.GenerateContentResponse | undefined
      assert.deepStrictEqual(partial?.candidates?.[0]?.content?.parts, [{ text: "ab" }])
    }))
})

describe("OpenAI Chat stream: OpenRouter's reasoning details (a response-side audit)", () => {
  const chunk = (delta: object, finish: string | null = null) => ({
    id: "gen-1", object: "chat.completion.chunk", created: 1, model: "anthropic/claude-sonnet-4.5",
    choices: [{ index: 0, delta, finish_reason: finish }]
  })
  const detail = (fields: object) => ({ reasoning_details: [{ type: "reasoning.text", format: "anthropic-claude-v1", index: 0, ...fields }] })

  it.effect("the pieces of one detail make one detail, its signature with its whole text, as a response gives it", () =>
    Effect.gen(function*() {
      const events = [
        chunk({ role: "assistant", content: "", ...detail({ text: "Let" }) }),
        chunk(detail({ text: " me think." })),
        chunk(detail({ signature: "SIG" })),
        chunk({ reasoning_details: [{ type: "reasoning.text", format: "anthropic-claude-v1", index: 1, text: "More." }] }),
        chunk({ content: "Four." }, "stop")
      ]
      const { value } = yield* OpenAiChat.fromEvents(events)
      expect(value.message.providerOptions?.["openai-chat"]?.["reasoning_details"]).toEqual([
        { type: "reasoning.text", format: "anthropic-claude-v1", index: 0, text: "Let me think.", signature: "SIG" },
        { type: "reasoning.text", format: "anthropic-claude-v1", index: 1, text: "More." }
      ])
      const written = yield* OpenAiChat.toMessages([Message.user("2 + 2?"), value.message])
      expect(written.value[1]).toMatchObject({ reasoning_details: [{ text: "Let me think.", signature: "SIG" }, { text: "More." }] })
    }))
})
