/**
 * The Chat Completions request estimate reads the request as `OpenAiChat.toRequest` writes it (`chatRequestOf`); an
 * audit found four places where the two disagreed, each checked here by rendering both bodies with one counter:
 * - a PDF whose media type has a blank before it (" application/pdf") goes out as a PDF, and was priced as an opaque
 *   file (a 20-page one about 170 times under, on every provider's estimate);
 * - a file at a base64 `data:` URL goes out as that URL, whose declared type says whether it is a PDF; the estimate
 *   read the block's type;
 * - audio other than base64 wav or mp3, and a file at a URL, are left out by the writer (a message with nothing else
 *   too) and were priced by their duration, or as a file part;
 * - the result of a call written as the deprecated `function_call` goes out as a role "function" message even when
 *   it carries no hint of it (built by hand, or by a repair); the estimate wrote a role "tool" one.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message, Repair, Request, TokenEstimator } from "../../src/index.js"
import { chatRequestOf } from "../../src/internal/chatRequestOf.js"
import { countChatRequest, type ChatRequestLike } from "../../src/internal/openAiChatPrompt.js"
import { OpenAiChat } from "../../src/providers/index.js"

const chars = (t: string) => t.length
const written = (request: Request.Request) => countChatRequest(Effect.runSync(OpenAiChat.toRequest(request)).value as unknown as ChatRequestLike, chars).total
const estimated = (request: Request.Request) => countChatRequest(chatRequestOf(request).body, chars).total

const pages = Array.from({ length: 20 }, (_, i) => `${i + 3} 0 obj << /Type /Page >> endobj`).join("\n")
const pdf = Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n${pages}\n%%EOF`).toString("base64")
const clip = Buffer.alloc(40000, 7).toString("base64")

describe("the Chat estimate reads files as the writer sends them", () => {
  it("a PDF's media type with blanks around it is a PDF's, for every provider's estimate", () => {
    const total = (mediaType: string, provider: "openai-chat" | "anthropic" | "gemini") =>
      TokenEstimator.heuristic.estimateRequest(Request.make([Message.user([Block.text("q"), Block.file(Block.base64(pdf), mediaType)])], { model: "gpt-4o" }), { provider }).total
    for (const provider of ["openai-chat", "anthropic", "gemini"] as const) {
      expect(total(" application/pdf", provider)).toBe(total("application/pdf", provider))
      expect(total(" Application/PDF ; x=y", provider)).toBe(total("application/pdf", provider))
    }
  })

  it("a file at a base64 data: URL is a PDF by the type the URL declares", () => {
    for (const [url, type] of [[`data:application/pdf;base64,${pdf}`, "application/octet-stream"], [`data:application/octet-stream;base64,${pdf}`, "application/pdf"]] as const) {
      const request = Request.make([Message.user([Block.text("q"), Block.file(Block.url(url), type)])], { model: "gpt-4o" })
      expect(estimated(request)).toBe(written(request))
    }
    const asPdf = Request.make([Message.user([Block.text("q"), Block.file(Block.url(`data:application/pdf;base64,${pdf}`), "application/octet-stream")])], { model: "gpt-4o" })
    expect(estimated(asPdf)).toBeGreaterThan(1000)
  })

  it("audio the writer leaves out, and a file at a URL, are not priced; a message left with nothing is not there", () => {
    const cases = [
      [Message.user([Block.text("hi"), Block.audio(clip, "audio/ogg")])],
      [Message.user([Block.text("hi"), Block.file(Block.url(`data:audio/wav;base64,${clip}`), "audio/wav")])],
      [Message.user([Block.audio(clip, "audio/ogg")]), Message.user("next")],
      [Message.user([Block.document("https://example.com/b.pdf")]), Message.user("next")],
      // sent: priced by its duration
      [Message.user([Block.text("hi"), Block.audio(clip, "audio/wav")])]
    ]
    for (const messages of cases) {
      const request = Request.make(messages, { model: "gpt-4o" })
      expect(estimated(request)).toBe(written(request))
    }
  })
})

describe("a text document given as data is read by its text", () => {
  it("in the written body and in the estimate, base64 or at a data: URL, on Chat and on Responses", () => {
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(40)
    const data = Buffer.from(text).toString("base64")
    for (const source of [Block.base64(data), Block.url(`data:text/plain;base64,${data}`)]) {
      const request = Request.make([Message.user([Block.text("q"), Block.file(source, "text/plain")])], { model: "gpt-4o" })
      expect(estimated(request)).toBe(written(request))
      expect(estimated(request)).toBeGreaterThan(text.length)
      for (const provider of ["openai-chat", "openai-responses"] as const) {
        const withText = TokenEstimator.heuristic.estimateRequest(request, { provider }).total
        const without = TokenEstimator.heuristic.estimateRequest(Request.make([Message.user("q")], { model: "gpt-4o" }), { provider }).total
        expect(withText - without).toBeGreaterThan(TokenEstimator.heuristic.estimateText(text) * 0.9)
      }
    }
  })
})

describe("the Chat estimate writes a deprecated function call's result as the writer does", () => {
  const body = {
    model: "gpt-4o",
    functions: [{ name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } }],
    messages: [{ role: "user", content: "hi" }, { role: "assistant", content: null, function_call: { name: "get_weather", arguments: "{\"city\":\"Oslo\"}" } }, { role: "function", name: "get_weather", content: "4C" }]
  }
  const read = Effect.runSync(OpenAiChat.fromRequest(body)).value
  const call = read.messages[1]!.content[0] as Block.ToolCallBlock

  it("as read, and rebuilt without the hint: a role function message", () => {
    for (const result of [read.messages[2]!, Message.toolResultMessage(call.id, "get_weather", "4C"), Message.toolResultMessage(call.id, "get_weather", [Block.json({ t: 4 }), Block.text("x")])]) {
      const request = Request.make([read.messages[0]!, read.messages[1]!, result], { model: "gpt-4o", ...(read.tools === undefined ? {} : { tools: read.tools }) })
      expect(chatRequestOf(request).body.messages?.[2]).toMatchObject({ role: "function", name: "get_weather" })
      expect(estimated(request)).toBe(written(request))
    }
  })

  it("the result a repair makes for it", () => {
    const repaired = Effect.runSync(Repair.repairFor("openai-chat")([read.messages[0]!, read.messages[1]!, Message.user("and?")]))
    const request = Request.make(repaired.messages, { model: "gpt-4o", ...(read.tools === undefined ? {} : { tools: read.tools }) })
    expect(estimated(request)).toBe(written(request))
  })
})
