/**
 * Stream edge cases from an adversarial audit: an index that skips a place,
 * a block started twice, an error chunk that also carries content, and a
 * stream without its opening event. Each still fails with its tagged error,
 * and the error's partial response holds everything that arrived.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as AnthropicStream from "../../src/providers/AnthropicStream.js"
import type * as AnthropicWire from "../../src/providers/AnthropicWire.js"
import * as GeminiStream from "../../src/providers/GeminiStream.js"
import type * as GeminiWire from "../../src/providers/GeminiWire.js"
import * as OpenAiResponsesStream from "../../src/providers/OpenAiResponsesStream.js"
import type * as OpenAiResponsesWire from "../../src/providers/OpenAiResponsesWire.js"

type ResponsesEvent = OpenAiResponsesWire.StreamEvent
type AnthropicEvent = AnthropicWire.StreamEvent

const base = { id: "resp_1", object: "response", created_at: 1, model: "gpt-5" }
const created = { type: "response.created", response: { ...base, status: "in_progress", output: [] } }
const message = { type: "message", id: "msg_1", role: "assistant", content: [] }
const textPart = { type: "output_text", text: "", annotations: [] }
const responses = (events: ReadonlyArray<object>) => Effect.flip(OpenAiResponsesStream.fromEvents(events as ReadonlyArray<ResponsesEvent>))

/** Every array in `value`, at any depth, has an element at each place below its length. */
const isDense = (value: unknown): boolean => {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isDense(value[i])) return false
    return true
  }
  if (typeof value === "object" && value !== null) return Object.values(value).every(isDense)
  return true
}

const messageStart = {
  type: "message_start",
  message: { id: "msg_1", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } }
}
const anthropic = (events: ReadonlyArray<object>) => Effect.flip(AnthropicStream.fromEvents(events as ReadonlyArray<AnthropicEvent>))

describe("OpenAI Responses stream: an index that skips a place", () => {
  it.effect("content part 1 without part 0 is a protocol error whose partial holds the part's text, densely", () =>
    Effect.gen(function*() {
      const error = yield* responses([
        created,
        { type: "response.output_item.added", output_index: 0, item: message },
        { type: "response.content_part.added", output_index: 0, content_index: 1, part: textPart },
        { type: "response.output_text.delta", output_index: 0, content_index: 1, delta: "Hello, a lot of text" }
      ])
      assert.strictEqual(error._tag, "StreamProtocolError")
      assert.include(error.message, "content part 1 of output item 0 came before content part 0")
      const partial = error.partial as OpenAiResponsesWire.Response | undefined
      assert.isDefined(partial)
      assert.isTrue(isDense(partial))
      assert.deepStrictEqual<unknown>(partial?.output, [{ ...message, content: [{ ...textPart, text: "Hello, a lot of text" }] }])
    }))

  it.effect("a gap in output items, summary parts or annotations is a protocol error with everything in a dense partial", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<{ readonly events: ReadonlyArray<object>; readonly reason: string; readonly output: unknown }> = [
        {
          events: [
            { type: "response.output_item.added", output_index: 1, item: message },
            { type: "response.content_part.added", output_index: 1, content_index: 0, part: textPart },
            { type: "response.output_text.delta", output_index: 1, content_index: 0, delta: "second item" }
          ],
          reason: "output item 1 of the response came before output item 0",
          output: [{ ...message, content: [{ ...textPart, text: "second item" }] }]
        },
        {
          events: [
            { type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_1", summary: [] } },
            { type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 1, part: { type: "summary_text", text: "" } },
            { type: "response.reasoning_summary_text.delta", output_index: 0, summary_index: 1, delta: "thinking hard" }
          ],
          reason: "summary part 1 of output item 0 came before summary part 0",
          output: [{ type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "thinking hard" }] }]
        },
        {
          events: [
            { type: "response.output_item.added", output_index: 0, item: message },
            { type: "response.content_part.added", output_index: 0, content_index: 0, part: textPart },
            { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "Hello" },
            { type: "response.output_text.annotation.added", output_index: 0, content_index: 0, annotation_index: 1, annotation: { type: "url_citation", url: "https://b" } },
            { type: "response.completed", response: { ...base, status: "completed" } }
          ],
          reason: "annotation 1 of content part 0 of output item 0 came before annotation 0",
          output: [{ ...message, content: [{ ...textPart, text: "Hello", annotations: [{ type: "url_citation", url: "https://b" }] }] }]
        }
      ]
      for (const { events, output, reason } of cases) {
        const error = yield* responses([created, ...events])
        assert.strictEqual(error._tag, "StreamProtocolError", reason)
        assert.include(error.message, reason)
        const partial = error.partial as OpenAiResponsesWire.Response | undefined
        assert.isTrue(isDense(partial), reason)
        assert.deepStrictEqual<unknown>(partial?.output, output, reason)
      }
    }))

  it.effect("shell commands and outputs, sent by command_index in any order, give dense lists aligned with the commands", () =>
    Effect.gen(function*() {
      const error = yield* responses([
        created,
        { type: "response.output_item.added", output_index: 0, item: { type: "shell_call", id: "sh_1", call_id: "c", action: { commands: [] } } },
        { type: "response.shell_call_command.added", output_index: 0, command_index: 1, command: "" },
        { type: "response.shell_call_command.delta", output_index: 0, command_index: 1, delta: "ls" },
        { type: "response.output_item.added", output_index: 1, item: { type: "shell_call_output", id: "so_1", output: [] } },
        { type: "response.shell_call_output_content.delta", output_index: 1, command_index: 2, delta: { stdout: "x" } }
      ])
      // cut before the other commands came: incomplete, not a protocol error
      assert.strictEqual(error._tag, "IncompleteStream")
      const partial = error.partial as OpenAiResponsesWire.Response | undefined
      assert.isTrue(isDense(partial))
      assert.deepStrictEqual<unknown>(partial?.output, [
        { type: "shell_call", id: "sh_1", call_id: "c", action: { commands: ["", "ls"] } },
        { type: "shell_call_output", id: "so_1", output: [{ stdout: "", stderr: "" }, { stdout: "", stderr: "" }, { stdout: "x", stderr: "" }] }
      ])
    }))

  it.effect("a part that fills the skipped place later lands before the one that skipped it", () =>
    Effect.gen(function*() {
      const error = yield* responses([
        created,
        { type: "response.output_item.added", output_index: 0, item: message },
        { type: "response.content_part.added", output_index: 0, content_index: 1, part: textPart },
        { type: "response.output_text.delta", output_index: 0, content_index: 1, delta: "second" },
        { type: "response.content_part.added", output_index: 0, content_index: 0, part: textPart },
        { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "first " }
      ])
      assert.strictEqual(error._tag, "StreamProtocolError")
      const partial = error.partial as OpenAiResponsesWire.Response
      assert.strictEqual(OpenAiResponsesStream.outputText(partial), "first second")
    }))
})

describe("Anthropic stream: a block started twice", () => {
  it.effect("a second content_block_start for an index is a protocol error and the first block keeps its text", () =>
    Effect.gen(function*() {
      const error = yield* anthropic([
        messageStart,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Important text" } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
        { type: "message_stop" }
      ])
      assert.strictEqual(error._tag, "StreamProtocolError")
      assert.include(error.message, "content block 0 was started twice")
      const partial = error.partial as AnthropicWire.Message | undefined
      // the second start opened a block of its own: the first keeps its text, and the second what came after it
      assert.deepStrictEqual<unknown>(partial?.content, [{ type: "text", text: "Important text" }, { type: "text", text: "" }])
    }))
})

describe("Gemini stream: an error chunk that carries candidates", () => {
  it.effect("the chunk's candidates are accumulated before the error is reported", () =>
    Effect.gen(function*() {
      const chunks = [
        { candidates: [{ content: { role: "model", parts: [{ text: "Hello " }] } }] },
        { candidates: [{ content: { role: "model", parts: [{ text: "world" }] } }], error: { code: 500, message: "boom", status: "INTERNAL" } }
      ]
      const error = yield* Effect.flip(GeminiStream.fromEvents(chunks as ReadonlyArray<GeminiWire.StreamEvent>))
      assert.strictEqual(error._tag, "ProviderStreamError")
      if (error._tag !== "ProviderStreamError") return
      assert.strictEqual(error.errorType, "INTERNAL")
      const partial = error.partial as GeminiWire.GenerateContentResponse | undefined
      assert.deepStrictEqual<unknown>(partial?.candidates?.[0]?.content?.parts, [{ text: "Hello world" }])
      assert.notProperty(partial, "error")
    }))

  it.effect("an error chunk with nothing else still gives no partial response", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(GeminiStream.fromEvents([{ error: { code: 503, message: "busy", status: "UNAVAILABLE" } }] as ReadonlyArray<GeminiWire.StreamEvent>))
      assert.strictEqual(error._tag, "ProviderStreamError")
      assert.isUndefined(error.partial)
    }))
})

describe("a stream without its opening event", () => {
  it.effect("Anthropic without message_start: a protocol error whose partial message holds the later blocks and stop reason", () =>
    Effect.gen(function*() {
      const error = yield* anthropic([
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Important answer" } },
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
        { type: "message_stop" }
      ])
      assert.strictEqual(error._tag, "StreamProtocolError")
      assert.include(error.message, "content_block_start before message_start")
      const partial = error.partial as AnthropicWire.Message | undefined
      assert.isDefined(partial)
      assert.strictEqual(partial?.type, "message")
      assert.strictEqual(partial?.role, "assistant")
      assert.deepStrictEqual<unknown>(partial?.content, [{ type: "text", text: "Important answer" }])
      assert.strictEqual(partial?.stop_reason, "end_turn")
      assert.strictEqual(partial?.usage.output_tokens, 3)
    }))

  it.effect("Anthropic with a late message_start: its fields join what came before, and newer values stay", () =>
    Effect.gen(function*() {
      const error = yield* anthropic([
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "early" } },
        messageStart,
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
        { type: "message_stop" }
      ])
      assert.strictEqual(error._tag, "StreamProtocolError")
      const partial = error.partial as AnthropicWire.Message | undefined
      assert.strictEqual(partial?.id, "msg_1")
      assert.deepStrictEqual<unknown>(partial?.content, [{ type: "text", text: "early" }])
      assert.deepStrictEqual<unknown>(partial?.usage, { input_tokens: 25, output_tokens: 3 })
    }))

  it.effect("Responses without response.created: a protocol error whose partial response holds the later items", () =>
    Effect.gen(function*() {
      const error = yield* responses([
        { type: "response.output_item.added", output_index: 0, item: message },
        { type: "response.content_part.added", output_index: 0, content_index: 0, part: textPart },
        { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "Important answer" }
      ])
      assert.strictEqual(error._tag, "StreamProtocolError")
      assert.include(error.message, "response.output_item.added before response.created")
      const partial = error.partial as OpenAiResponsesWire.Response | undefined
      assert.isDefined(partial)
      assert.strictEqual(partial?.object, "response")
      assert.strictEqual(OpenAiResponsesStream.outputText(partial!), "Important answer")
    }))

  it.effect("an empty stream still reports no partial response", () =>
    Effect.gen(function*() {
      const a = yield* anthropic([])
      const r = yield* responses([])
      assert.strictEqual(a._tag, "IncompleteStream")
      assert.strictEqual(r._tag, "IncompleteStream")
      assert.isUndefined(a.partial)
      assert.isUndefined(r.partial)
      assert.include(a.message, "no message_start event")
      assert.include(r.message, "no response.created event")
    }))
})

describe("OpenAI Responses stream: an index far past the end", () => {
  it.effect("is a protocol error whose partial keeps what came, without filling a million places", () =>
    Effect.gen(function*() {
      const events: Array<object> = [created, { type: "response.output_item.added", output_index: 0, item: message }]
      for (let k = 0; k < 40; k++) {
        events.push({ type: "response.content_part.added", output_index: 0, content_index: k, part: textPart })
        events.push({ type: "response.output_text.annotation.added", output_index: 0, content_index: k, annotation_index: 1_000_000, annotation: { type: "url_citation", url: `https://example.com/${k}` } })
      }
      const error = yield* responses(events)
      assert.strictEqual(error._tag, "StreamProtocolError")
      const partial = error.partial as OpenAiResponsesWire.Response | undefined
      assert.isTrue(isDense(partial))
      const parts = (partial?.output[0] as { readonly content: ReadonlyArray<{ readonly annotations: ReadonlyArray<unknown> }> }).content
      assert.strictEqual(parts.length, 40)
      // each annotation kept, at the end of its part's list
      assert.isTrue(parts.every((part) => part.annotations.length === 1))
      // the lists hold what came, not a million places
      assert.isBelow(JSON.stringify(partial).length, 20_000)
    }))
})
