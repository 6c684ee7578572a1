/**
 * The request estimate prices what each writer sends. An audit compared each estimate with and without one block
 * against the writer's output, and found content sent but priced at nothing (or far under), and thinking the
 * Responses writer leaves out still priced:
 * - OpenAI Responses: a refusal (sent as the assistant's text), the API's own items kept as provider data (sent
 *   verbatim), a text document given as data (a base64 `input_file`, which the writer also makes of one given as
 *   text), an image by file id (an `input_image`); thinking without a reasoning item id, and redacted thinking, which
 *   the writer leaves out, were priced in the current turn.
 * - Anthropic: a document's title and context, sent beside it.
 * - Gemini: a file given as text, sent as text whatever its type (an SVG image was priced as one image).
 * - Anthropic and Gemini: what the writer leaves out (another provider's data, calls another provider ran, a client
 *   tool's result in an assistant message, thinking it cannot replay, participant names) was priced in full, the
 *   whole size of each, typical of a conversation moved from one provider to another.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, GeminiEstimator, Message, Request, TokenEstimator } from "../../src/index.js"
import { Gemini, OpenAiResponses } from "../../src/providers/index.js"

const T = "The quick brown fox jumps over the lazy dog. ".repeat(100)
const gemini = Effect.runSync(GeminiEstimator.make())
const total = (provider: "openai-responses" | "anthropic" | "gemini", model: string, messages: ReadonlyArray<Message.Message>) =>
  (provider === "gemini" ? gemini : TokenEstimator.heuristic).estimateRequest(Request.make(messages, { model }), { provider }).total
const alone = TokenEstimator.heuristic.estimateText(T)
const u = (text = "Hi") => Message.user(text)
const a = (...blocks: ReadonlyArray<Block.AssistantBlock>) => Message.assistant(blocks)

/** Whether `added` costs about what the text T costs (within 10%). */
const aboutT = (added: number) => expect(Math.abs(added - alone)).toBeLessThan(alone * 0.1)

describe("OpenAI Responses: what the writer sends is priced", () => {
  const r = (messages: ReadonlyArray<Message.Message>, model = "gpt-4o") => total("openai-responses", model, messages)

  it("a refusal, which goes as the assistant's text", () => {
    aboutT(r([u(), a(Block.refusal(T), Block.text("ok")), u("more")]) - r([u(), a(Block.text("ok")), u("more")]))
  })

  it("the API's own items kept as provider data: a text part, a message item", () => {
    aboutT(r([Message.user([Block.text("Hi"), Block.providerData("openai-responses", { type: "input_text", text: T })]), u("more")]) - r([u(), u("more")]))
    aboutT(r([u(), a(Block.providerData("openai-responses", { type: "message", role: "assistant", content: [{ type: "output_text", text: T }] })), u("more")]) - r([u(), u("more")]))
  })

  it("a text document given as base64, at a data: URL or as text: the same body, the same price", () => {
    const data = Buffer.from(T).toString("base64")
    const sources = [Block.base64(data), Block.url(`data:text/plain;base64,${data}`), Block.textSource(T)]
    const bodies = sources.map((source) => JSON.stringify(Effect.runSync(OpenAiResponses.toRequest(Request.make([Message.user([Block.text("Hi"), Block.file(source, "text/plain")])]))).value))
    expect(new Set(bodies).size).toBe(1)
    const prices = sources.map((source) => r([Message.user([Block.text("Hi"), Block.file(source, "text/plain")])]))
    expect(new Set(prices).size).toBe(1)
    aboutT(prices[0]! - r([u()]))
  })

  it("an image by file id, as one whose size is not known", () => {
    const byId = r([Message.user([Block.text("Hi"), Block.file(Block.fileId("file-abc"), "image/png")])])
    const byUrl = r([Message.user([Block.text("Hi"), Block.file(Block.url("https://example.com/a.png"), "image/png")])])
    expect(byId).toBe(byUrl)
    expect(byId - r([u()])).toBe(765)
  })

  it("thinking the writer leaves out (no reasoning item id; redacted) is not priced; a reasoning item is", () => {
    const base = r([u(), a(Block.text("ok"))], "gpt-5")
    expect(r([u(), a(Block.thinking(T, "sig"), Block.text("ok"))], "gpt-5")).toBe(base)
    expect(r([u(), a(Block.redactedThinking(T), Block.text("ok"))], "gpt-5")).toBe(base)
    expect(r([u(), a(Block.thinking(T, undefined, { itemId: "rs_1" }), Block.text("ok"))], "gpt-5")).toBeGreaterThan(base + alone * 0.9)
  })
})

describe("Anthropic: a document's title and context are priced", () => {
  it("as their text", () => {
    const doc = (options?: { readonly title?: string; readonly context?: string }) => [Message.user([Block.text("Hi"), Block.file(Block.textSource("doc"), "text/plain", options)])]
    aboutT(total("anthropic", "claude-sonnet-4-5", doc({ title: "Q3", context: T })) - total("anthropic", "claude-sonnet-4-5", doc()))
    // an image's are left out by the writer
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    const image = (options?: { readonly title?: string; readonly context?: string }) => [Message.user([Block.text("Hi"), Block.file(Block.base64(png), "image/png", options)])]
    expect(total("anthropic", "claude-sonnet-4-5", image({ context: T }))).toBe(total("anthropic", "claude-sonnet-4-5", image()))
  })
})

describe("Gemini: a file given as text is priced as text", () => {
  it("an SVG image given as text goes as text, and costs what the same text/plain file does", () => {
    const svg = `<svg>${T}</svg>`
    const file = (type: string) => [Message.user([Block.text("Hi"), Block.file(Block.textSource(svg), type)])]
    const written = (type: string) => JSON.stringify(Effect.runSync(Gemini.toRequest(Request.make(file(type)))).value)
    expect(written("image/svg+xml")).toBe(written("text/plain"))
    for (const model of ["gemini-3-pro-preview", "gemini-2.5-flash"]) {
      expect(total("gemini", model, file("image/svg+xml"))).toBe(total("gemini", model, file("text/plain")))
    }
  })
})

describe("Anthropic and Gemini: what the writer leaves out is not priced", () => {
  const base = [u(), a(Block.text("ok")), u("more")]
  const left = [
    ["another provider's data in an assistant message", [u(), a(Block.providerData("openai-responses", { type: "reasoning", encrypted_content: T }), Block.text("ok")), u("more")]],
    ["another provider's data in a user message", [Message.user([Block.text("Hi"), Block.providerData("openai-chat", { note: T })]), a(Block.text("ok")), u("more")]],
    ["a call another provider ran", [u(), a(Block.toolCall("ws_1", "web_search", { query: T }, { providerExecuted: true, itemId: "ws_1" }), Block.text("ok")), u("more")]],
    ["a client tool's result in an assistant message", [u(), a(Block.toolResult("c9", "lookup", T), Block.text("ok")), u("more")]],
    ["a participant name", [Message.user("Hi", { name: "a_rather_long_participant_name_for_the_user" }), a(Block.text("ok")), u("more")]]
  ] as const
  for (const [what, messages] of left) {
    it(what, () => {
      expect(total("anthropic", "claude-sonnet-4-5", messages)).toBe(total("anthropic", "claude-sonnet-4-5", base))
      expect(total("gemini", "gemini-3-pro-preview", messages)).toBe(total("gemini", "gemini-3-pro-preview", base))
    })
  }

  it("thinking: Anthropic leaves out unsigned thinking, Gemini another provider's and redacted thinking", () => {
    expect(total("anthropic", "claude-opus-4-5", [u(), a(Block.thinking(T), Block.text("ok")), u("more")])).toBe(total("anthropic", "claude-opus-4-5", base))
    expect(total("anthropic", "claude-sonnet-4-5", [u(), a(Block.thinking(T), Block.text("ok"))])).toBe(total("anthropic", "claude-sonnet-4-5", [u(), a(Block.text("ok"))]))
    // signed thinking of the current turn is sent, and priced
    expect(total("anthropic", "claude-sonnet-4-5", [u(), a(Block.thinking(T, "sig"), Block.text("ok"))])).toBeGreaterThan(total("anthropic", "claude-sonnet-4-5", [u(), a(Block.text("ok"))]) + alone * 0.9)
    for (const thinking of [Block.thinking(T, "sig"), Block.redactedThinking(T)]) {
      expect(total("gemini", "gemini-3-pro-preview", [u(), a(thinking, Block.text("ok")), u("more")])).toBe(total("gemini", "gemini-3-pro-preview", base))
    }
  })
})

describe("a second pass: the current turn, signatures and empty messages as the writers send them", () => {
  const call = Block.toolCall("c1", "lookup", { q: "x" })
  const result = Message.toolResultMessage("c1", "lookup", "found")
  const gsPdf = Message.user([Block.file(Block.url("gs://bucket/a.pdf"), "application/pdf")])

  it("a user message the writer leaves out (of files it cannot send) is no newest user message: the turn's thinking stays priced", () => {
    const signed = [u(), a(Block.thinking(T, "sig"), call), result]
    expect(total("anthropic", "claude-sonnet-4-5", [...signed, gsPdf])).toBe(total("anthropic", "claude-sonnet-4-5", signed))
    const reasoning = [u(), a(Block.thinking("", undefined, { itemId: "rs_1", encryptedContent: "A".repeat(1600) }), call), result]
    expect(total("openai-responses", "o3", [...reasoning, gsPdf])).toBe(total("openai-responses", "o3", reasoning))
  })

  it("Responses: its own reasoning item kept as provider data in the current turn costs what the thinking block read from it does", () => {
    const data = Block.providerData("openai-responses", { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: T }] })
    const block = Block.thinking("", undefined, { itemId: "rs_1", summary: [T] })
    expect(total("openai-responses", "o3", [u(), a(data, Block.text("ok"), call), result])).toBe(total("openai-responses", "o3", [u(), a(block, Block.text("ok"), call), result]))
  })

  it("Gemini 3: the signature of thinking the writer leaves out is not priced", () => {
    const signature = "s".repeat(300)
    const base = total("gemini", "gemini-3-pro-preview", [u(), a(Block.text("ok"))])
    expect(total("gemini", "gemini-3-pro-preview", [u(), a(Block.thinking("t", "anthropic-sig", { thoughtSignature: signature }), Block.text("ok"))])).toBe(base)
    expect(total("gemini", "gemini-3-pro-preview", [u(), a(Block.thinking("t", undefined, { thoughtSignature: signature }), Block.text("ok"))])).toBeGreaterThan(base + 50)
  })

  it("Responses: an assistant message without content is no item; Anthropic: a message of files it leaves out is no message", () => {
    expect(total("openai-responses", "gpt-4o", [u(), a(Block.text("ok")), a(), u("more")])).toBe(total("openai-responses", "gpt-4o", [u(), a(Block.text("ok")), u("more")]))
    const audio = Message.user([Block.file(Block.url("https://example.com/a.mp3"), "audio/mpeg")])
    expect(total("anthropic", "claude-sonnet-4-5", [u(), a(Block.text("ok")), u("more"), audio])).toBe(total("anthropic", "claude-sonnet-4-5", [u(), a(Block.text("ok")), u("more")]))
  })
})
