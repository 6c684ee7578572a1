/**
 * Found by a fifth audit of the effect/ai bridge and the Gemini stream:
 * an explicit `null` in a replay option a Prompt holds (`openai.itemId`,
 * `google.thoughtSignature`...) read back as it was; an Anthropic field
 * named like an effect/ai option (`cacheControl`, `info`, `documentTitle`,
 * `documentContext`, the rest of a document's `citations`) kept through a
 * Prompt instead of being read as that option or overwritten by it; and a
 * Gemini stream whose thought signature comes on an empty final text part
 * accumulated with that part apart, as a complete response and the request
 * reader hold it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Result } from "effect"
import { Prompt } from "effect/ai"
import { Block, Message } from "../../src/index.js"
import { Anthropic, EffectAi, Gemini, GeminiStream, type GeminiWire } from "../../src/providers/index.js"
import { intBetween } from "../arbitraries.js"
import { canonical, exact, json, ok } from "./adapterHelpers.js"

const toPrompt = (messages: ReadonlyArray<Message.Message>) => exact(EffectAi.toPrompt(messages))
const fromPrompt = (prompt: Prompt.Prompt) => exact(EffectAi.fromPrompt(prompt))

/** Prompt -> ours -> Prompt, with no warning either way. */
const promptBack = (raw: Prompt.RawInput): { readonly prompt: Prompt.Prompt; readonly back: Prompt.Prompt } => {
  const prompt = Prompt.make(raw)
  return { prompt, back: toPrompt(fromPrompt(prompt)) }
}

describe("EffectAi: an explicit null in a replay option round-trips through the Prompt", () => {
  const file = (options: Prompt.ProviderOptions) => ({ type: "file" as const, mediaType: "application/pdf", data: "JVBERi0=", options })
  /** Each replay option the reader takes, on the part it is taken from. */
  const cases: ReadonlyArray<readonly [string, Prompt.RawInput]> = [
    ["openai.imageDetail of a file", [{ role: "user", content: [file({ openai: { imageDetail: null } })] }]],
    ["openai.itemId of a file", [{ role: "user", content: [file({ openai: { itemId: null } })] }]],
    ["anthropic.documentTitle of a file", [{ role: "user", content: [file({ anthropic: { documentTitle: null } })] }]],
    ["anthropic.documentContext of a file", [{ role: "user", content: [file({ anthropic: { documentContext: null } })] }]],
    ["anthropic.citations of a file", [{ role: "user", content: [file({ anthropic: { citations: null } })] }]],
    ["openai.itemId of a text part", [{ role: "assistant", content: [{ type: "text", text: "hi", options: { openai: { itemId: null } } }] }]],
    ["google.thoughtSignature of a text part", [{ role: "assistant", content: [{ type: "text", text: "hi", options: { google: { thoughtSignature: null } } }] }]],
    ["openai.refusal of an empty text part", [{ role: "assistant", content: [{ type: "text", text: "", options: { openai: { refusal: null } } }] }]],
    ["anthropic.info of a reasoning part", [{ role: "assistant", content: [{ type: "reasoning", text: "hmm", options: { anthropic: { info: null } } }] }]],
    ["openai.itemId of a reasoning part", [{ role: "assistant", content: [{ type: "reasoning", text: "hmm", options: { openai: { itemId: null, encryptedContent: null } } }] }]],
    ["google.thoughtSignature of a reasoning part", [{ role: "assistant", content: [{ type: "reasoning", text: "hmm", options: { google: { thoughtSignature: null } } }] }]],
    [
      "openai.itemId and google.thoughtSignature of a tool call",
      [{ role: "assistant", content: [{ type: "tool-call", id: "c", name: "f", params: {}, providerExecuted: false, options: { openai: { itemId: null }, google: { thoughtSignature: null } } }] }]
    ],
    ["openai.itemId of a tool result", [{ role: "tool", content: [{ type: "tool-result", id: "c", name: "f", isFailure: false, result: "x", options: { openai: { itemId: null } } }] }]]
  ]
  for (const [name, raw] of cases) {
    it(`${name}: Prompt -> ours -> Prompt keeps the null`, () => {
      const { back, prompt } = promptBack(raw)
      assert.strictEqual(canonical(back.content), canonical(prompt.content))
    })
  }

  /** The replay option names a Prompt reads, by provider, and the blocks that hold a null under one of them. */
  const names: ReadonlyArray<readonly [string, string]> = [
    ["openai", "itemId"],
    ["openai", "encryptedContent"],
    ["openai", "imageDetail"],
    ["openai", "refusal"],
    ["google", "thoughtSignature"],
    ["anthropic", "info"],
    ["anthropic", "documentTitle"],
    ["anthropic", "documentContext"],
    ["anthropic", "citations"]
  ]
  const blockWith = (kind: number, options: Block.ProviderOptions): Block.AssistantBlock => {
    switch (kind) {
      case 0:
        return Block.text("hi", { providerOptions: options })
      case 1:
        return Block.text("", { providerOptions: options })
      case 2:
        return Block.thinking("hmm", "sig", { providerOptions: options })
      case 3:
        return Block.toolCall("c", "f", {}, { providerOptions: options })
      case 4:
        return Block.file(Block.base64("JVBERi0="), "application/pdf", { providerOptions: options })
      default:
        return Block.refusal("no", { providerOptions: options })
    }
  }
  it.prop(
    "ours -> Prompt -> ours keeps an explicit null under any replay option name, on any block",
    [intBetween(0, 5), Arbitrary.array(intBetween(0, names.length - 1), { minLength: 1, maxLength: 4 })],
    ([kind, picked]) => {
      const options: { [provider: string]: { [key: string]: null } } = {}
      for (const i of picked) {
        const [provider, key] = names[i]!
        options[provider] = { ...options[provider], [key]: null }
      }
      const messages = [Message.user("go"), Message.assistant([blockWith(kind, options)])]
      assert.deepStrictEqual(json(fromPrompt(toPrompt(messages))), json(messages))
    },
    { arbitrary: { runs: 300 } }
  )

  it("an empty text block's own openai.refusal option is not read back as a refusal", () => {
    const messages = [Message.user("go"), Message.assistant([Block.text("", { providerOptions: { openai: { refusal: "x" } } })])]
    assert.deepStrictEqual(json(fromPrompt(toPrompt(messages))), json(messages))
  })

  it("a recorded-shape Anthropic document with citations: null comes back identical through the Prompt", () => {
    const body = {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [{
        role: "user",
        content: [
          { type: "document", source: { type: "url", url: "https://example.com/a.pdf" }, title: null, context: null, citations: null },
          { type: "text", text: "Summarize it." }
        ]
      }]
    }
    const request = ok(Anthropic.fromRequest(body)).value
    const back = fromPrompt(toPrompt(request.messages))
    assert.strictEqual(canonical(ok(Anthropic.toRequest({ ...request, messages: back })).value), canonical(body))
  })
})

describe("EffectAi: an Anthropic field named like an effect/ai option is kept, not read as that option", () => {
  /** body -> ours -> Prompt -> ours -> body gives the body back (key order aside), with no warning. */
  const throughPrompt = (body: object): void => {
    const request = ok(Anthropic.fromRequest(body)).value
    const back = fromPrompt(toPrompt(request.messages))
    assert.deepStrictEqual(json(back), json(request.messages))
    assert.strictEqual(canonical(ok(Anthropic.toRequest({ ...request, messages: back })).value), canonical(ok(Anthropic.toRequest(request)).value))
  }
  const user = { role: "user", content: "go" }

  it("a block's cacheControl (not cache_control) is not made a cache breakpoint", () => {
    throughPrompt({ model: "m", max_tokens: 5, messages: [{ role: "user", content: [{ type: "text", text: "hi", cacheControl: { type: "ephemeral" } }] }] })
  })

  it("a message's cacheControl does not replace its last block's cache_control", () => {
    throughPrompt({
      model: "m",
      max_tokens: 5,
      messages: [{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral", ttl: "5m" } }], cacheControl: "x" }]
    })
  })

  it("a cacheControl: null is not read as cache_control: null", () => {
    throughPrompt({ model: "m", max_tokens: 5, messages: [{ role: "user", content: [{ type: "text", text: "hi", cacheControl: null }] }] })
  })

  it("a thinking block's own info field is not overwritten by its signature", () => {
    throughPrompt({ model: "m", max_tokens: 5, messages: [user, { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "s", info: "x" }, { type: "text", text: "a" }] }] })
  })

  it("a redacted thinking block's own info field is kept", () => {
    throughPrompt({ model: "m", max_tokens: 5, messages: [user, { role: "assistant", content: [{ type: "redacted_thinking", data: "d", info: { a: 1 } }, { type: "text", text: "a" }] }] })
  })

  it("a document's documentTitle and documentContext fields are not read as its title and context", () => {
    throughPrompt({
      model: "m",
      max_tokens: 5,
      messages: [{ role: "user", content: [{ type: "document", source: { type: "url", url: "https://example.com/a.pdf" }, documentTitle: "x", documentContext: "y" }, { type: "text", text: "q" }] }]
    })
  })

  it("a document's documentTitle beside its title is not overwritten by it", () => {
    throughPrompt({
      model: "m",
      max_tokens: 5,
      messages: [{ role: "user", content: [{ type: "document", source: { type: "url", url: "https://example.com/a.pdf" }, title: "T", documentTitle: "x" }, { type: "text", text: "q" }] }]
    })
  })

  it("the fields of a document's citations beside enabled are kept", () => {
    throughPrompt({
      model: "m",
      max_tokens: 5,
      messages: [{ role: "user", content: [{ type: "document", source: { type: "url", url: "https://example.com/a.pdf" }, citations: { enabled: true, x_vendor: 1 } }, { type: "text", text: "q" }] }]
    })
  })
})

describe("Gemini stream: a signature on an empty final text part stays on that part", () => {
  type Chunk = GeminiWire.StreamEvent
  const chunk = (parts: ReadonlyArray<object>, extra: object = {}): Chunk => ({ candidates: [{ content: { role: "model", parts }, ...extra }] }) as Chunk
  const accumulated = (chunks: ReadonlyArray<Chunk>): GeminiWire.GenerateContentResponse => {
    const acc = GeminiStream.make()
    for (const c of chunks) acc.push(c)
    const result = acc.done()
    return Result.isSuccess(result) ? result.success : assert.fail(result.failure.message)
  }
  /** The model turn a decoded response gives, as Gemini contents. */
  const contentsOf = (decoded: Effect.Effect<{ readonly value: { readonly message: Message.Message } }, unknown>) =>
    Effect.runSync(Gemini.toMessages([Message.user("q"), Effect.runSync(decoded).value.message])).value.contents[1]

  it("streamed text then an empty signed part: two parts, as a complete response of those parts holds them", () => {
    const chunks = [chunk([{ text: "Par" }]), chunk([{ text: "is." }]), chunk([{ text: "", thoughtSignature: "sig" }], { finishReason: "STOP" })]
    const parts = [{ text: "Paris." }, { text: "", thoughtSignature: "sig" }]
    assert.deepStrictEqual(accumulated(chunks).candidates?.[0]?.content?.parts, parts)
    const complete = { candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }] }
    const fromStream = contentsOf(Gemini.fromEvents(chunks))
    assert.deepStrictEqual(fromStream, contentsOf(Gemini.fromResponse(complete)))
    assert.deepStrictEqual(fromStream, { role: "model", parts })
  })

  it("thought text then an empty signed thought part: the signature stays on its own part", () => {
    const chunks = [chunk([{ text: "Think", thought: true }]), chunk([{ text: "ing.", thought: true }]), chunk([{ text: "", thought: true, thoughtSignature: "sig" }]), chunk([{ text: "A" }], { finishReason: "STOP" })]
    const parts = [{ text: "Thinking.", thought: true }, { text: "", thought: true, thoughtSignature: "sig" }, { text: "A" }]
    assert.deepStrictEqual(accumulated(chunks).candidates?.[0]?.content?.parts, parts)
    const complete = { candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }] }
    assert.deepStrictEqual(contentsOf(Gemini.fromEvents(chunks)), contentsOf(Gemini.fromResponse(complete)))
  })

  it("a signed non-empty piece after unsigned text is not merged into it either", () => {
    const chunks = [chunk([{ text: "a" }]), chunk([{ text: "b", thoughtSignature: "sig" }], { finishReason: "STOP" })]
    assert.deepStrictEqual(accumulated(chunks).candidates?.[0]?.content?.parts, [{ text: "a" }, { text: "b", thoughtSignature: "sig" }])
  })
})
