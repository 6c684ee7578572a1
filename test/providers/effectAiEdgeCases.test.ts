/**
 * Edge cases of the effect/ai adapter an adversarial audit found: data kept
 * under the adapter's own key that does not fit where it is, a tool result
 * whose `modelOutput` stands in for a structured `result`, and option values
 * of an unexpected type.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Schema } from "effect"
import { Prompt } from "effect/ai"
import { Block, Message } from "../../src/index.js"
import type { ConversionWarning } from "../../src/providers/Conversion.js"
import { EffectAi } from "../../src/providers/index.js"

const own = EffectAi.ownKey
const encodePrompt = Schema.encodeSync(Prompt.Prompt)

/** A Prompt as JSON with keys sorted, for comparing Prompts whatever their key order. */
const canonical = (prompt: Prompt.Prompt): string => {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort)
    if (typeof v === "object" && v !== null) {
      const out: Record<string, unknown> = {}
      for (const k of Object.keys(v).sort()) out[k] = sort((v as Record<string, unknown>)[k])
      return out
    }
    return v
  }
  return JSON.stringify(sort(encodePrompt(prompt)))
}

/** The exit of reading a Prompt, with a defect named as one (never allowed). */
const readExit = (prompt: Prompt.Prompt) =>
  Effect.exit(EffectAi.fromPrompt(prompt)).pipe(
    Effect.map((exit) => {
      if (Exit.isFailure(exit) && Cause.hasDies(exit.cause)) assert.fail(`fromPrompt died: ${Cause.pretty(exit.cause).split("\n")[0]}`)
      return exit
    })
  )

const ignored = (warnings: ReadonlyArray<ConversionWarning>): Array<string> =>
  warnings.flatMap((w) => (w._tag === "UnknownProviderField" && !w.kept ? [w.path] : []))

const keptAsData = (warnings: ReadonlyArray<ConversionWarning>): Array<string> =>
  warnings.flatMap((w) => (w._tag === "UnknownProviderField" && w.kept ? [w.path] : []))

const call = { _tag: "ToolCall", id: "c", name: "f", args: {} }

describe("EffectAi: data kept under the adapter's own key that does not fit where it is", () => {
  it.effect("a tool call kept as a tool result's content is ignored with a warning: the result is read from the Prompt part", () =>
    Effect.gen(function*() {
      const prompt = Prompt.make([{ role: "tool", content: [{ type: "tool-result", id: "c", name: "f", isFailure: false, result: "x", options: { [own]: { content: [call] } } }] }])
      const { value, warnings } = yield* EffectAi.fromPrompt(prompt)
      assert.deepStrictEqual(Message.encodeAll(value), Message.encodeAll([Message.tool(Block.toolResult("c", "f", "x"))]))
      assert.deepStrictEqual(ignored(warnings), [`prompt.content[0].content[0].options.${own}.content`])
    }))

  it.effect("a tool call kept as a user message's provider data is ignored with a warning, and the user's text is read", () =>
    Effect.gen(function*() {
      const prompt = Prompt.make([{ role: "user", content: [{ type: "text", text: "hi" }], options: { [own]: { providerData: [{ at: 0, block: call }] } } }])
      const { value, warnings } = yield* EffectAi.fromPrompt(prompt)
      assert.deepStrictEqual(Message.encodeAll(value), Message.encodeAll([Message.user("hi")]))
      assert.deepStrictEqual(ignored(warnings), [`prompt.content[0].options.${own}.providerData`])
    }))

  it.effect("a refusal in a user's text part, which a user message cannot hold, stays in the text block's provider options", () =>
    Effect.gen(function*() {
      const prompt = Prompt.make([{ role: "user", content: [{ type: "text", text: "", options: { openai: { refusal: "x" } } }] }])
      const { value, warnings } = yield* EffectAi.fromPrompt(prompt)
      assert.deepStrictEqual(warnings, [])
      assert.deepStrictEqual(Message.encodeAll(value), Message.encodeAll([Message.user([Block.text("", { providerOptions: { openai: { refusal: "x" } } })])]))
      const back = yield* EffectAi.toPrompt(value)
      assert.strictEqual(canonical(back.value), canonical(prompt))
    }))

  it.effect("kept system blocks that are not text are ignored with a warning, even when the texts would agree", () =>
    Effect.gen(function*() {
      const prompt = Prompt.make([{ role: "system", content: "", options: { [own]: { blocks: [call] } } }])
      const { value, warnings } = yield* EffectAi.fromPrompt(prompt)
      assert.deepStrictEqual(Message.encodeAll(value), Message.encodeAll([Message.system([Block.text("")])]))
      assert.deepStrictEqual(ignored(warnings), [`prompt.content[0].options.${own}.blocks`])
    }))

  it.effect("kept provider data of another kind, or at a negative place, is ignored with a warning", () =>
    Effect.gen(function*() {
      const result = { _tag: "ToolResult", toolCallId: "c", toolName: "f", content: "x" }
      const data = { _tag: "ProviderData", provider: "x", data: {} }
      for (const entry of [{ at: 0, block: result }, { at: -1, block: data }, { at: 0.5, block: data }, { at: 0 }]) {
        const prompt = Prompt.make([{ role: "assistant", content: [{ type: "text", text: "a" }], options: { [own]: { providerData: [entry] } } }])
        const { value, warnings } = yield* EffectAi.fromPrompt(prompt)
        assert.deepStrictEqual(Message.encodeAll(value), Message.encodeAll([Message.assistant("a")]))
        assert.deepStrictEqual(ignored(warnings), [`prompt.content[0].options.${own}.providerData`])
      }
    }))

  it.effect("an own record that is not an object, and kept fields of the wrong type, are reported, not ignored silently", () =>
    Effect.gen(function*() {
      const notObject = yield* EffectAi.fromPrompt(Prompt.make([{ role: "user", content: [{ type: "text", text: "x", options: { [own]: 5 } }] }]))
      assert.deepStrictEqual(ignored(notObject.warnings), [`prompt.content[0].content[0].options.${own}`])
      const wrongName = yield* EffectAi.fromPrompt(Prompt.make([{ role: "user", content: "x", options: { [own]: { name: 5, metadata: [1] } } }]))
      assert.deepStrictEqual(ignored(wrongName.warnings), [`prompt.content[0].options.${own}.metadata`, `prompt.content[0].options.${own}.name`])
      assert.deepStrictEqual(Message.encodeAll(wrongName.value), Message.encodeAll([Message.user("x")]))
      // strict conversion refuses to ignore them
      const strict = yield* Effect.flip(EffectAi.fromPrompt(Prompt.make([{ role: "user", content: "x", options: { [own]: { name: 5 } } }]), { strict: true }))
      assert.strictEqual(strict._tag, "UnsupportedContent")
    }))

  it.effect("junk under every key the adapter keeps, on every part and message, never dies", () =>
    Effect.gen(function*() {
      const keys = ["content", "providerData", "blocks", "citations", "summary", "status", "source", "rawArgs", "parseError", "argsAsWritten", "providerExecuted", "metadata", "name", "messageCacheControl"]
      const junk: ReadonlyArray<Schema.Json> = [5, "x", true, [call], [{ at: 0, block: call }], { _tag: "Refusal", refusal: "no" }, [{ _tag: "Refusal", refusal: "no" }], [{ at: 0, block: { _tag: "Refusal", refusal: "no" } }]]
      const parts = (o: object) => ({
        user: [{ type: "text", text: "", options: o }, { type: "file", mediaType: "image/png", data: "AAAA", options: o }],
        assistant: [
          { type: "text", text: "", options: o },
          { type: "reasoning", text: "r", options: o },
          { type: "tool-call", id: "c", name: "f", params: {}, providerExecuted: false, options: o },
          { type: "tool-result", id: "c", name: "f", isFailure: false, result: "", providerExecuted: true, options: o }
        ],
        tool: [{ type: "tool-result", id: "c", name: "f", isFailure: false, result: "", modelOutput: [{ type: "text", text: "" }], options: o }]
      })
      let read = 0
      for (const key of keys) {
        for (const value of junk) {
          const o = { [own]: { [key]: value } }
          const p = parts(o)
          const prompts = [
            [{ role: "system", content: "", options: o }],
            [{ role: "user", content: p.user, options: o }],
            [{ role: "assistant", content: p.assistant, options: o }],
            [{ role: "tool", content: p.tool, options: o }]
          ]
          for (const raw of prompts) {
            const exit = yield* readExit(Prompt.make(raw as Prompt.RawInput))
            if (Exit.isSuccess(exit)) read++
          }
        }
      }
      assert.isAbove(read, 0)
    }))
})

describe("EffectAi: a tool result whose modelOutput stands in for a structured result", () => {
  const fromTool = Prompt.make([
    { role: "assistant", content: [{ type: "tool-call", id: "c", name: "weather", params: { city: "Oslo" }, providerExecuted: false }] },
    { role: "tool", content: [{ type: "tool-result", id: "c", name: "weather", isFailure: false, result: { temp: 4, unit: "C" }, modelOutput: [{ type: "text", text: "4C" }] }] }
  ])

  it.effect("reads the model output as the content and keeps the structured result", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* EffectAi.fromPrompt(fromTool)
      assert.deepStrictEqual(warnings, [])
      const result = value[1]?.content[0]
      assert.strictEqual(result?._tag, "ToolResult")
      if (result?._tag !== "ToolResult") return
      assert.deepStrictEqual(Block.resultContentText(result.content), "4C")
      assert.deepStrictEqual(JSON.stringify(result.providerOptions), JSON.stringify({ [EffectAi.providerKey]: { $result: { temp: 4, unit: "C" } } }))
    }))

  it.effect("Prompt -> ours -> Prompt gives back the structured result and the model output", () =>
    Effect.gen(function*() {
      const { value } = yield* EffectAi.fromPrompt(fromTool)
      const { value: back } = yield* EffectAi.toPrompt(value)
      assert.strictEqual(canonical(back), canonical(fromTool))
      const part = back.content[1]?.content[0]
      assert.strictEqual(typeof part === "object" && part.type === "tool-result" ? JSON.stringify(part.result) : undefined, JSON.stringify({ temp: 4, unit: "C" }))
      assert.strictEqual(typeof part === "object" && part.type === "tool-result" ? Prompt.toolModelOutputToText(part.modelOutput ?? []) : undefined, "4C")
      // and once more: the second trip changes nothing
      const { value: again } = yield* EffectAi.fromPrompt(back)
      assert.deepStrictEqual(Message.encodeAll(again), Message.encodeAll(value))
    }))

  it.effect("a model output of several parts, text beside a structured result, keeps both", () =>
    Effect.gen(function*() {
      const prompt = Prompt.make([{
        role: "tool",
        content: [{ type: "tool-result", id: "c", name: "shot", isFailure: false, result: ["a", "b"], modelOutput: [{ type: "text", text: "a" }, { type: "file", mediaType: "image/png", data: "iVBORw0KGgo=" }] }]
      }])
      const { value, warnings } = yield* EffectAi.fromPrompt(prompt)
      assert.deepStrictEqual(warnings, [])
      const { value: back } = yield* EffectAi.toPrompt(value)
      const part = back.content[0]?.content[0]
      assert.strictEqual(typeof part === "object" && part.type === "tool-result" ? JSON.stringify(part.result) : undefined, '["a","b"]')
      assert.strictEqual(typeof part === "object" && part.type === "tool-result" ? part.modelOutput?.length : undefined, 2)
    }))

  it.effect("a result whose text is the model output's keeps nothing more", () =>
    Effect.gen(function*() {
      const prompt = Prompt.make([{ role: "tool", content: [{ type: "tool-result", id: "c", name: "f", isFailure: false, result: "4C", modelOutput: [{ type: "text", text: "4C" }] }] }])
      const { value } = yield* EffectAi.fromPrompt(prompt)
      const result = value[0]?.content[0]
      assert.isUndefined(result?._tag === "ToolResult" ? result.providerOptions : "not a result")
    }))
})

describe("EffectAi: option values of another type than the adapter reads", () => {
  const cases: ReadonlyArray<readonly [string, Prompt.RawInput, string]> = [
    ["openai.imageDetail", [{ role: "user", content: [{ type: "file", mediaType: "image/png", data: "iVBORw0KGgo=", options: { openai: { imageDetail: "x" } } }] }], "prompt.content[0].content[0].options.openai.imageDetail"],
    ["anthropic.citations", [{ role: "user", content: [{ type: "file", mediaType: "application/pdf", data: "JVBERi0=", options: { anthropic: { citations: true } } }] }], "prompt.content[0].content[0].options.anthropic.citations"],
    ["anthropic.documentTitle", [{ role: "user", content: [{ type: "file", mediaType: "application/pdf", data: "JVBERi0=", options: { anthropic: { documentTitle: 5 } } }] }], "prompt.content[0].content[0].options.anthropic.documentTitle"],
    ["openai.itemId of a text part", [{ role: "assistant", content: [{ type: "text", text: "hi", options: { openai: { itemId: 42 } } }] }], "prompt.content[0].content[0].options.openai.itemId"],
    ["openai.itemId of a tool result", [{ role: "tool", content: [{ type: "tool-result", id: "c", name: "f", isFailure: false, result: "x", options: { openai: { itemId: [1] } } }] }], "prompt.content[0].content[0].options.openai.itemId"],
    ["google.thoughtSignature of a tool call", [{ role: "assistant", content: [{ type: "tool-call", id: "c", name: "f", params: {}, providerExecuted: false, options: { google: { thoughtSignature: { a: 1 } } } }] }], "prompt.content[0].content[0].options.google.thoughtSignature"],
    ["openai.encryptedContent of a reasoning part", [{ role: "assistant", content: [{ type: "reasoning", text: "r", options: { openai: { encryptedContent: 1 } } }] }], "prompt.content[0].content[0].options.openai.encryptedContent"],
    ["anthropic.info of another shape", [{ role: "assistant", content: [{ type: "reasoning", text: "hmm", options: { anthropic: { info: { type: "thinking" } } } }] }], "prompt.content[0].content[0].options.anthropic.info"],
    ["openai.refusal", [{ role: "assistant", content: [{ type: "text", text: "", options: { openai: { refusal: 7 } } }] }], "prompt.content[0].content[0].options.openai.refusal"]
  ]
  for (const [name, raw, path] of cases) {
    it.effect(`${name} of another type is kept as provider data, reported, and written back`, () =>
      Effect.gen(function*() {
        const prompt = Prompt.make(raw)
        const read = yield* EffectAi.fromPrompt(prompt)
        assert.deepStrictEqual(keptAsData(read.warnings), [path])
        assert.deepStrictEqual(ignored(read.warnings), [])
        const back = yield* EffectAi.toPrompt(read.value)
        assert.strictEqual(canonical(back.value), canonical(prompt))
      }))
  }

  it.effect("a refusal beside text, which no refusal block holds, is kept on the text block and written back", () =>
    Effect.gen(function*() {
      const prompt = Prompt.make([{ role: "assistant", content: [{ type: "text", text: "Hello", options: { openai: { refusal: "I can't" } } }] }])
      const read = yield* EffectAi.fromPrompt(prompt)
      assert.deepStrictEqual(read.warnings, [])
      const back = yield* EffectAi.toPrompt(read.value)
      assert.strictEqual(canonical(back.value), canonical(prompt))
    }))
})

describe("EffectAi: data that is not what it looks like, and options that hold nothing", () => {
  it.effect("base64 data whose text reads as a URL or a data: URL comes back as the same base64 data, unpadded", () =>
    Effect.gen(function*() {
      // (text that is no base64, given as data by mistake: the Prompt holds it as it is, and so does the trip back)
      for (const data of ["https://x/y", "http://example.com/a.png", "data:image/png;base64,AAAA", "not base64!"]) {
        const messages = [Message.user([Block.file(Block.base64(data), "image/png")])]
        const prompt = yield* EffectAi.toPrompt(messages)
        const part = prompt.value.content[0]?.content[0]
        assert.strictEqual(typeof part === "object" && part.type === "file" ? part.data : undefined, data)
        const back = yield* EffectAi.fromPrompt(prompt.value)
        assert.deepStrictEqual(back.warnings, [])
        const file = back.value[0]?.content[0]
        assert.deepStrictEqual(file?._tag === "File" ? file.source : undefined, Block.base64(data))
        // and once more: the second trip changes nothing
        const again = yield* EffectAi.toPrompt(back.value)
        assert.strictEqual(canonical(again.value), canonical(prompt.value))
      }
    }))

  it.effect("an empty provider-option record is kept both ways; one emptied by the fields read out of it is not written", () =>
    Effect.gen(function*() {
      const messages = [Message.user([Block.text("hi", { providerOptions: { openai: {} } })])]
      const prompt = yield* EffectAi.toPrompt(messages)
      const part = prompt.value.content[0]?.content[0]
      assert.deepStrictEqual(typeof part === "object" ? part.options : undefined, { openai: {} })
      const back = yield* EffectAi.fromPrompt(prompt.value)
      assert.deepStrictEqual(Message.encodeAll(back.value), Message.encodeAll(messages))
      // a record whose one field is a block field (the item id) leaves no empty record behind
      const withId = [Message.assistant([Block.text("hi", { itemId: "msg_1" })])]
      const read = yield* EffectAi.fromPrompt((yield* EffectAi.toPrompt(withId)).value)
      assert.deepStrictEqual(Message.encodeAll(read.value), Message.encodeAll(withId))
    }))
})
