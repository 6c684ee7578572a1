/**
 * A block's or message's provider options under the name of a field the writer writes from the model (a text's
 * `text`, a call's `call_id`, a message's `role`): the readers never keep one, but options set by hand can hold it.
 * The Responses and Gemini writers wrote the option over the model's value without a word (a user message went as
 * a system message, a call with another id); the model's value is now sent, the option reported. A kept field that
 * chooses a wire form (`role: "developer"` on a system message, the legacy `"function"` role of a Gemini content)
 * still does.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message } from "../../src/index.js"
import { Gemini, OpenAiResponses } from "../../src/providers/index.js"

const responses = (messages: ReadonlyArray<Message.Message>) => Effect.runSync(OpenAiResponses.toMessages(messages))
const gemini = (messages: ReadonlyArray<Message.Message>) => Effect.runSync(Gemini.toMessages(messages))
const messagesOf = (w: { readonly warnings: ReadonlyArray<{ readonly message: string }> }) => w.warnings.map((x) => x.message)

describe("options that would replace what the model holds", () => {
  it("Responses: a text, a message's role, a call's id, name and arguments, a result's call id", () => {
    const text = responses([Message.user([Block.text("REAL", { providerOptions: { "openai-responses": { text: "OTHER", extra: 1 } } })])])
    expect(text.value).toEqual([{ role: "user", content: [{ type: "input_text", text: "REAL", extra: 1 }] }])
    expect(messagesOf(text)).toEqual(['messages[0].content[0]: the option "text" ("OTHER") was left out: the block\'s own value is written'])
    const role = responses([Message.user("REAL", { providerOptions: { "openai-responses": { role: "system" } } })])
    expect(role.value).toEqual([{ role: "user", content: "REAL" }])
    expect(messagesOf(role)).toHaveLength(1)
    const call = responses([
      Message.user("q"),
      Message.assistant([Block.toolCall("c", "f", { a: 1 }, { providerOptions: { "openai-responses": { call_id: "OTHER", name: "g", arguments: "{}" } } })]),
      Message.tool([Block.toolResult("c", "f", "ok", false, { providerOptions: { "openai-responses": { call_id: "OTHER" } } })])
    ])
    expect(call.value.slice(1)).toEqual([
      { type: "function_call", call_id: "c", name: "f", arguments: '{"a":1}' },
      { type: "function_call_output", call_id: "c", output: "ok" }
    ])
    expect(messagesOf(call)).toHaveLength(4)
    // the wire form a kept role chooses still goes, and an option holding the value written changes nothing
    const developer = responses([Message.system("rules", { providerOptions: { "openai-responses": { role: "developer" } } }), Message.user([Block.text("hi", { providerOptions: { "openai-responses": { text: "hi" } } })])])
    expect(developer.value).toEqual([{ role: "developer", content: "rules" }, { role: "user", content: [{ type: "input_text", text: "hi" }] }])
    expect(developer.warnings).toEqual([])
  })

  it("Gemini: a text, and a role of the other side; the legacy function role stays", () => {
    const text = gemini([Message.user([Block.text("REAL", { providerOptions: { gemini: { text: "OTHER" } } })])])
    expect(text.value.contents).toEqual([{ role: "user", parts: [{ text: "REAL" }] }])
    expect(messagesOf(text)).toHaveLength(1)
    const role = gemini([Message.user("REAL", { providerOptions: { gemini: { role: "model" } } }), Message.assistant("A", { providerOptions: { gemini: { role: "user" } } })])
    expect(role.value.contents.map((c) => c.role)).toEqual(["user", "model"])
    expect(messagesOf(role)).toHaveLength(2)
    const legacy = gemini([
      Message.user("q"),
      Message.assistant([Block.toolCall("c", "f", {})]),
      Message.tool([Block.toolResult("c", "f", "ok")], { providerOptions: { gemini: { role: "function" } } })
    ])
    expect(legacy.value.contents.map((c) => c.role)).toEqual(["user", "model", "function"])
    expect(legacy.warnings).toEqual([])
  })
})

describe("a thinking block's summary written to Anthropic", () => {
  it("is reported as left out: an Anthropic thinking block has none", async () => {
    const { Anthropic } = await import("../../src/providers/index.js")
    const written = Effect.runSync(Anthropic.toMessages([
      Message.user("q"),
      Message.assistant([Block.thinking("t", "sig", { summary: ["a summary"] }), Block.text("a")])
    ]))
    expect(written.value.messages[1]).toEqual({ role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "sig" }, { type: "text", text: "a" }] })
    expect(messagesOf(written)).toEqual(["messages[1].content[0]: the summary of a thinking block was left out: Anthropic thinking blocks have none"])
  })
})
