/**
 * Prompt -> ours -> Prompt gives the Prompt back for shapes a second audit
 * found changed with no warning (redacted reasoning with text, two cache
 * breakpoints, options on approval requests and model output parts, option
 * records that are no objects, `data:` URLs and base64 text as written),
 * and the normal forms of an absent tool result and absent tool params.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Prompt } from "effect/ai"
import { Block, Message } from "../../src/index.js"
import type { ConversionWarning } from "../../src/providers/Conversion.js"
import { EffectAi } from "../../src/providers/index.js"
import { canonical } from "./adapterHelpers.js"


/** Reads a Prompt and writes it back; also reads the written Prompt again, which must give the same messages. */
const roundTrip = (raw: Prompt.RawInput) =>
  Effect.gen(function*() {
    const prompt = Prompt.make(raw)
    const read = yield* EffectAi.fromPrompt(prompt)
    const written = yield* EffectAi.toPrompt(read.value)
    const again = yield* EffectAi.fromPrompt(written.value)
    assert.deepStrictEqual(Message.encodeAll(again.value), Message.encodeAll(read.value), "ours -> Prompt -> ours")
    return { prompt, messages: read.value, back: written.value, warnings: [...read.warnings, ...written.warnings] }
  })

const assertSame = (prompt: Prompt.Prompt, back: Prompt.Prompt): void => assert.strictEqual(canonical(back.content), canonical(prompt.content))

/** The first part of a Prompt's first message. */
const firstPart = (prompt: Prompt.Prompt) => {
  const content = prompt.content[0]?.content
  return typeof content === "string" ? undefined : content?.[0]
}

const tags = (warnings: ReadonlyArray<ConversionWarning>): Array<string> =>
  warnings.map((w) => (w._tag === "UnknownProviderField" ? `${w._tag}(${w.path}, kept: ${w.kept})` : w._tag))

describe("EffectAi: Prompt -> ours -> Prompt gives the Prompt back", () => {
  it.effect("a reasoning part with redacted_thinking info keeps its text beside the redacted data", () =>
    Effect.gen(function*() {
      const { back, messages, prompt, warnings } = yield* roundTrip([
        { role: "assistant", content: [{ type: "reasoning", text: "visible", options: { anthropic: { info: { type: "redacted_thinking", redactedData: "abc" } } } }] }
      ])
      const block = messages[0]?.content[0]
      assert.strictEqual(block?._tag, "RedactedThinking")
      assert.strictEqual(block?._tag === "RedactedThinking" ? block.data : undefined, "abc")
      assertSame(prompt, back)
      assert.deepStrictEqual(warnings, [])
    }))

  it.effect("a message's cache breakpoint stays on the message when the last part has one of its own", () =>
    Effect.gen(function*() {
      const { back, messages, prompt, warnings } = yield* roundTrip([{
        role: "user",
        content: [{ type: "text", text: "a", options: { anthropic: { cacheControl: { type: "ephemeral", ttl: "5m" } } } }],
        options: { anthropic: { cacheControl: { type: "ephemeral", ttl: "1h" } } }
      }])
      const message = messages[0]!
      assert.deepStrictEqual(message.providerOptions, { anthropic: { cache_control: { type: "ephemeral", ttl: "1h" } } })
      assert.deepStrictEqual(message.content[0]?._tag === "Text" ? message.content[0].providerOptions : undefined, { anthropic: { cache_control: { type: "ephemeral", ttl: "5m" } } })
      assertSame(prompt, back)
      assert.deepStrictEqual(warnings, [])
    }))

  it.effect("a message's cache breakpoint goes on its last block, as every provider can carry it, and is written back on the message", () =>
    Effect.gen(function*() {
      const cacheControl = { type: "ephemeral" }
      const { back, messages, prompt, warnings } = yield* roundTrip([
        { role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }], options: { anthropic: { cacheControl } } }
      ])
      const last = messages[0]?.content[1] as Block.TextBlock | undefined
      assert.deepStrictEqual(last?.providerOptions?.["anthropic"], { cache_control: cacheControl })
      assert.strictEqual(messages[0]?.providerOptions, undefined)
      assertSame(prompt, back)
      assert.deepStrictEqual(warnings, [])
    }))

  it.effect("a message's cache breakpoint stays on the message when its last block cannot hold one, or it has none", () =>
    Effect.gen(function*() {
      const cacheControl = { type: "ephemeral" }
      for (const raw of [
        [{ role: "assistant", content: [{ type: "text", text: "a" }, { type: "tool-approval-request", approvalId: "a", toolCallId: "c" }], options: { anthropic: { cacheControl } } }],
        [{ role: "user", content: [], options: { anthropic: { cacheControl } } }]
      ] as const) {
        const { back, prompt, warnings } = yield* roundTrip(raw as unknown as Prompt.RawInput)
        assertSame(prompt, back)
        assert.deepStrictEqual(warnings, [])
      }
    }))

  it.effect("a system message's cache breakpoint comes back on the message, with no blocks kept beside it", () =>
    Effect.gen(function*() {
      const { back, messages, prompt, warnings } = yield* roundTrip([{ role: "system", content: "be brief", options: { anthropic: { cacheControl: { type: "ephemeral" } } } }])
      assert.deepStrictEqual((messages[0]?.content[0] as Block.TextBlock | undefined)?.providerOptions, { anthropic: { cache_control: { type: "ephemeral" } } })
      assertSame(prompt, back)
      assert.deepStrictEqual(warnings, [])
    }))

  it.effect("a tool approval request keeps its options", () =>
    Effect.gen(function*() {
      const { back, messages, prompt, warnings } = yield* roundTrip([
        { role: "assistant", content: [{ type: "tool-approval-request", approvalId: "a", toolCallId: "c", options: { openai: { x: 1 } } }] }
      ])
      assert.deepStrictEqual(messages[0]?.content[0], Block.providerData(EffectAi.providerKey, { type: "tool-approval-request", approvalId: "a", toolCallId: "c", options: { openai: { x: 1 } } }))
      assertSame(prompt, back)
      assert.deepStrictEqual(warnings, [])
    }))

  it.effect("a model output's text part keeps its options", () =>
    Effect.gen(function*() {
      const { back, messages, prompt, warnings } = yield* roundTrip([{
        role: "tool",
        content: [{ type: "tool-result", id: "c", name: "f", isFailure: false, result: "x", modelOutput: [{ type: "text", text: "x", options: { anthropic: { cacheControl: { type: "ephemeral" } } } }] }]
      }])
      const result = messages[0]?.content[0]
      const content = result?._tag === "ToolResult" ? result.content : undefined
      assert.deepStrictEqual(content, [Block.text("x", { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })])
      assertSame(prompt, back)
      assert.deepStrictEqual(warnings, [])
    }))

  it.effect("a model output's file part comes back with nothing kept beside it", () =>
    Effect.gen(function*() {
      const { back, prompt, warnings } = yield* roundTrip([{
        role: "tool",
        content: [{ type: "tool-result", id: "c", name: "f", isFailure: false, result: "x", modelOutput: [{ type: "file", mediaType: "image/png", data: "iVBORw0KGgo=" }] }]
      }])
      assertSame(prompt, back)
      assert.deepStrictEqual(warnings, [])
    }))

  it.effect("an own record that is no object is ignored and reported as not kept; strict conversion refuses it", () =>
    Effect.gen(function*() {
      const raw: Prompt.RawInput = [{ role: "assistant", content: [{ type: "text", text: "x", options: { [EffectAi.ownKey]: 5 } }] }]
      const { back, warnings } = yield* roundTrip(raw)
      assert.deepStrictEqual(tags(warnings), [`UnknownProviderField(prompt.content[0].content[0].options.${EffectAi.ownKey}, kept: false)`])
      assert.deepStrictEqual(back.content[0]?.content, [Prompt.textPart({ text: "x" })])
      const strict = yield* Effect.flip(EffectAi.fromPrompt(Prompt.make(raw), { strict: true }))
      assert.strictEqual(strict._tag, "UnsupportedContent")
    }))

  it.effect("a key of our own record that nothing at its place reads is reported as not kept, not dropped silently", () =>
    Effect.gen(function*() {
      const { warnings } = yield* roundTrip([
        { role: "user", content: [{ type: "text", text: "a", options: { [EffectAi.ownKey]: { bogus: 1, summary: ["s"] } } }], options: { [EffectAi.ownKey]: { usage: { inputTokens: 1 } } } }
      ])
      assert.deepStrictEqual(tags(warnings), [
        `UnknownProviderField(prompt.content[0].content[0].options.${EffectAi.ownKey}.bogus, kept: false)`,
        `UnknownProviderField(prompt.content[0].content[0].options.${EffectAi.ownKey}.summary, kept: false)`,
        `UnknownProviderField(prompt.content[0].options.${EffectAi.ownKey}.usage, kept: false)`
      ])
      // while every key written by toPrompt is read where it is written
      const { value: prompt } = yield* EffectAi.toPrompt([
        Message.system([Block.text("a", { itemId: "i" }), Block.text("b")], { name: "s", metadata: { k: 1 } }),
        Message.user("hi", { name: "alice" }),
        Message.assistant([Block.thinking("t", "sig", { summary: ["s"], status: "done" }), Block.toolCall("c", "f", { a: 1 }, { rawArgs: "{\"a\": 1}" })], {
          usage: new Message.Usage({ inputTokens: 1, outputTokens: 2 })
        }),
        Message.tool(Block.toolResult("c", "f", [Block.text("x", { citations: [] }), Block.json({ a: 1 })], false, { providerExecuted: false }))
      ])
      const read = yield* EffectAi.fromPrompt(prompt)
      assert.deepStrictEqual(read.warnings, [])
    }))

  it.effect("a provider's option record that is no object is kept, reported as kept, and written back", () =>
    Effect.gen(function*() {
      const { back, prompt, warnings } = yield* roundTrip([
        { role: "user", content: [{ type: "text", text: "a", options: { openai: 5, google: null } }], options: { anthropic: "x" } }
      ])
      assertSame(prompt, back)
      assert.deepStrictEqual(tags(warnings), [
        "UnknownProviderField(prompt.content[0].options.anthropic, kept: true)",
        "UnknownProviderField(prompt.content[0].content[0].options.openai, kept: true)"
      ])
    }))

  it.effect("a data: URL comes back as that data URL, its media type and the part's each kept", () =>
    Effect.gen(function*() {
      for (const data of ["data:image/jpeg;base64,/9j/", "data:image/png;base64,iVBORw0KGgo="]) {
        const { back, messages, prompt, warnings } = yield* roundTrip([{ role: "user", content: [{ type: "file", mediaType: "image/png", data }] }])
        const file = messages[0]?.content[0]
        assert.strictEqual(file?._tag === "File" ? file.mediaType : undefined, "image/png")
        assert.deepStrictEqual(file?._tag === "File" ? file.source : undefined, Block.base64(data.slice(data.indexOf(",") + 1)))
        assertSame(prompt, back)
        assert.deepStrictEqual(warnings, [])
      }
    }))

  it.effect("file data that is not standard padded base64 is written back as it came", () =>
    Effect.gen(function*() {
      for (const data of ["hello world!", "iVBORw0KGgo", "a-b_"]) {
        const { back, prompt, warnings } = yield* roundTrip([{ role: "user", content: [{ type: "file", mediaType: "text/plain", data }] }])
        assertSame(prompt, back)
        assert.deepStrictEqual(warnings, [])
      }
    }))

  it.effect("URL text that is not a URL's own spelling comes back with no marker beside it", () =>
    Effect.gen(function*() {
      const { back, prompt, warnings } = yield* roundTrip([{ role: "user", content: [{ type: "file", mediaType: "image/png", data: "https://a.b/c d.png" }] }])
      assertSame(prompt, back)
      assert.deepStrictEqual(warnings, [])
    }))
})

describe("EffectAi: normal forms of absent tool values", () => {
  it.effect("a tool result with no result is read as JSON null and written back as result: null", () =>
    Effect.gen(function*() {
      const { back, messages } = yield* roundTrip([{ role: "tool", content: [{ type: "tool-result", id: "c", name: "f", isFailure: false, result: undefined }] }])
      assert.deepStrictEqual(Message.encodeAll(messages), Message.encodeAll([Message.tool(Block.toolResult("c", "f", [Block.json(null)]))]))
      const part = firstPart(back)
      assert.strictEqual(part?.type === "tool-result" ? part.result : "absent", null)
    }))

  it.effect("a tool call with no params is read as {} and written back as params: {}", () =>
    Effect.gen(function*() {
      const { back, messages } = yield* roundTrip([{ role: "assistant", content: [{ type: "tool-call", id: "c", name: "f", params: undefined, providerExecuted: false }] }])
      assert.deepStrictEqual(Message.encodeAll(messages), Message.encodeAll([Message.assistant([Block.toolCall("c", "f", {})])]))
      const part = firstPart(back)
      assert.deepStrictEqual(part?.type === "tool-call" ? part.params : "absent", {})
    }))
})

describe("EffectAi: Prompt -> ours -> Prompt, generated", () => {
  const Junk = Schema.Union([Schema.Null, Schema.Int, Schema.String, Schema.Boolean])
  it.effect.prop(
    "redacted reasoning with text, cache breakpoints, options on approvals and model outputs, junk records and file data come back",
    {
      reasoning: Schema.String,
      redacted: Schema.String,
      partCache: Schema.Boolean,
      messageCache: Schema.Boolean,
      approvalOptions: Schema.Boolean,
      outputOptions: Schema.Boolean,
      junk: Junk,
      data: Schema.String,
      dataUrl: Schema.Literals(["none", "image/png", "image/jpeg"])
    },
    ({ approvalOptions, data, dataUrl, junk, messageCache, outputOptions, partCache, reasoning, redacted }) =>
      Effect.gen(function*() {
        // text that reads as a URL (or a data: URL) is another case, covered above
        const base = /^https?:\/\//.test(data) || Block.parseDataUrl(data) !== undefined ? "AAAA" : data
        const cache = (ttl: string) => ({ anthropic: { cacheControl: { type: "ephemeral", ttl } } })
        const raw = [
          {
            role: "user",
            content: [{ type: "file", mediaType: "image/png", data: dataUrl === "none" ? base : `data:${dataUrl};base64,${base}`, options: { openai: junk } }]
          },
          {
            role: "assistant",
            content: [
              { type: "reasoning", text: reasoning, options: { anthropic: { info: { type: "redacted_thinking", redactedData: redacted } } } },
              { type: "tool-approval-request", approvalId: "a", toolCallId: "c", ...(approvalOptions ? { options: { openai: { x: junk } } } : {}) },
              { type: "text", text: "t", ...(partCache ? { options: cache("5m") } : {}) }
            ],
            ...(messageCache ? { options: cache("1h") } : {})
          },
          {
            role: "tool",
            content: [{
              type: "tool-result",
              id: "c",
              name: "f",
              isFailure: false,
              result: "x",
              modelOutput: [{ type: "text", text: "x", ...(outputOptions ? { options: { openai: { itemId: "i" }, google: { y: junk } } } : {}) }]
            }]
          }
        ] as unknown as Prompt.RawInput
        const { back, prompt, warnings } = yield* roundTrip(raw)
        assertSame(prompt, back)
        // only the junk record beside the file is reported, and kept
        assert.deepStrictEqual(tags(warnings), junk === null ? [] : ["UnknownProviderField(prompt.content[0].content[0].options.openai, kept: true)"])
      }),
    { arbitrary: { runs: 300 } }
  )
})
