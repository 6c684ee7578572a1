/**
 * A streamed Anthropic tool input keeps its text (`rawArgs`) whenever the
 * text, spacing between tokens aside, is not the JSON of the input it was
 * read as: numbers written another way, escapes, repeated keys, key order.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Message } from "../../src/index.js"
import { Anthropic, type AnthropicWire, OpenAiChat, ToolArguments } from "../../src/providers/index.js"
import { argsObject, intBetween } from "../arbitraries.js"

const events = (partialJson: string): ReadonlyArray<AnthropicWire.StreamEvent> => [
  { type: "message_start", message: { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5-20250929", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 472, output_tokens: 2 } } },
  { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_01", name: "get_order", input: {} } },
  { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: partialJson.slice(0, 7) } },
  { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: partialJson.slice(7) } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 40 } },
  { type: "message_stop" }
] as ReadonlyArray<AnthropicWire.StreamEvent>

const callOf = (text: string): Block.ToolCallBlock => {
  const { value } = Effect.runSync(Anthropic.fromEvents(events(text)))
  const call = value.message.content[0]
  if (call?._tag !== "ToolCall") throw new Error(`no tool call read from ${text}`)
  return call
}

/** The text without JSON whitespace outside strings. */
const compact = (text: string): string => text.replace(/("(?:[^"\\]|\\.)*")|[ \t\n\r]+/g, (_, string: string | undefined) => string ?? "")

describe("the Anthropic reader and a streamed call's argument text", () => {
  it("keeps the text when a number is written another way, a character escaped, or keys reordered by the object", () => {
    for (
      const raw of [
        "{\"qty\": 1.0}",
        "{\"qty\": 1e2}",
        "{\"qty\": -0}",
        "{\"city\": \"Montr\\u00e9al\"}",
        "{\"path\": \"a\\/b\"}",
        "{\"b\": 1, \"2\": 2}"
      ]
    ) {
      const call = callOf(raw)
      assert.strictEqual(call.rawArgs, raw, raw)
      assert.strictEqual(ToolArguments.toText(call), raw, raw)
      assert.deepStrictEqual(call.args, JSON.parse(raw), raw)
    }
  })

  /** A value written as JSON with choices read from `dice`: spacing, escapes, other spellings of numbers, a repeated key. */
  const written = (value: Schema.Json, dice: ReadonlyArray<number>): string => {
    let n = 0
    const roll = (): number => dice.length === 0 ? 0 : dice[n++ % dice.length]!
    const space = (): string => ["", "", " ", "\n  ", "\t", "\r\n"][roll() % 6]!
    const string = (s: string): string => {
      let out = "\""
      for (const ch of s) {
        const plain = JSON.stringify(ch).slice(1, -1)
        const r = roll()
        out += r === 1 && ch.length === 1 ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}` : r === 2 && ch === "/" ? "\\/" : plain
      }
      return `${out}"`
    }
    const number = (x: number): string => {
      switch (roll() % 5) {
        case 1:
          return Number.isInteger(x) ? `${x}.0` : String(x)
        case 2:
          return `${x}e0`
        default:
          return String(x)
      }
    }
    const go = (v: Schema.Json): string => {
      if (v === null) return "null"
      if (typeof v === "boolean") return String(v)
      if (typeof v === "number") return number(v)
      if (typeof v === "string") return string(v)
      if (Array.isArray(v)) return `[${space()}${v.map((x) => go(x)).join(`${space()},${space()}`)}${space()}]`
      const entries = Object.entries(v as { readonly [k: string]: Schema.Json })
      const parts = entries.map(([k, x]) => `${string(k)}${space()}:${space()}${go(x)}`)
      // sometimes a key given twice, the second value the one that counts
      if (entries.length > 0 && roll() === 7) parts.unshift(`${string(entries[0]![0])}:${go("earlier")}`)
      return `{${space()}${parts.join(`${space()},${space()}`)}${space()}}`
    }
    return `${space()}${go(value)}${space()}`
  }

  it.prop(
    "reading a stream and writing the call gives back its exact text whenever the text is not the JSON of its value, spacing aside",
    [argsObject, Arbitrary.array(intBetween(0, 9), { minLength: 1, maxLength: 64 })],
    ([args, dice]) => {
      const text = written(args, dice)
      const call = callOf(text)
      assert.deepStrictEqual(call.args, JSON.parse(text))
      const { value } = Effect.runSync(OpenAiChat.toMessages([Message.user("Order?"), Message.assistant([call])]))
      const sent = JSON.stringify(value).includes(JSON.stringify(text))
      if (compact(text) !== JSON.stringify(JSON.parse(text))) {
        assert.strictEqual(call.rawArgs, text)
        assert.isTrue(sent, "the text is what a provider that takes text is sent")
      } else {
        // spacing alone is not kept: the stream reads as its final response does
        assert.isUndefined(call.rawArgs)
      }
    },
    { arbitrary: { runs: 500 } }
  )
})
