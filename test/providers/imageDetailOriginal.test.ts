/**
 * `detail: "original"` (GPT-5.4 and later: the image at its own resolution)
 * is an image detail like the others: both OpenAI readers take it as the
 * block's `detail`, both OpenAI writers send it (the Responses writer sent
 * `auto` for a Chat request's `original`, and the Chat writer nothing for a
 * Responses request's, both without a warning), Gemini sends it as the
 * ultra-high media resolution and reads that back, and the request estimate
 * prices it at the model's larger patch budget.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, GeminiEstimator, Message, Request, TokenEstimator } from "../../src/index.js"
import { Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

const ok = <A>(effect: Effect.Effect<A, unknown>): A => Effect.runSync(effect)

/** The first bytes of a 1800×2400 PNG: 57 × 75 = 4,275 patches of 32 pixels, over GPT-5.4's 2,500. */
const LARGE_PNG = (() => {
  const header = Buffer.alloc(33)
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0)
  header.writeUInt32BE(13, 8)
  header.write("IHDR", 12, "ascii")
  header.writeUInt32BE(1800, 16)
  header.writeUInt32BE(2400, 20)
  return `data:image/png;base64,${header.toString("base64")}`
})()

const chatBody = (detail: string) => ({
  model: "gpt-5.4",
  messages: [{ role: "user", content: [{ type: "text", text: "Read the small print." }, { type: "image_url", image_url: { url: LARGE_PNG, detail } }] }]
})

const responsesBody = (detail: string) => ({
  model: "gpt-5.4",
  input: [{ role: "user", content: [{ type: "input_text", text: "Read the small print." }, { type: "input_image", image_url: LARGE_PNG, detail }] }]
})

const imageOf = (request: Request.Request): Block.FileBlock => {
  const file = request.messages[0]!.content.find((b) => b._tag === "File")
  if (file?._tag !== "File") throw new Error("no file in the first message")
  return file
}

describe("an image's original detail", () => {
  it("is read as the block's detail from either OpenAI API and written to the other, without a warning", () => {
    const fromChat = ok(OpenAiChat.fromRequest(chatBody("original")))
    assert.strictEqual(imageOf(fromChat.value).detail, "original")
    assert.isUndefined(imageOf(fromChat.value).providerOptions)
    const toResponses = ok(OpenAiResponses.toRequest(fromChat.value))
    assert.deepStrictEqual(toResponses.warnings, [])
    assert.deepStrictEqual<unknown>(toResponses.value.input, responsesBody("original").input)

    const fromResponses = ok(OpenAiResponses.fromRequest(responsesBody("original")))
    assert.strictEqual(imageOf(fromResponses.value).detail, "original")
    const toChat = ok(OpenAiChat.toRequest(fromResponses.value))
    assert.deepStrictEqual(toChat.warnings, [])
    assert.deepStrictEqual<unknown>(toChat.value.messages, chatBody("original").messages)
  })

  it("goes to Gemini 3 as the ultra-high media resolution, counted at its price, and comes back as original", () => {
    const request = Request.make([Message.user([Block.image(LARGE_PNG, { detail: "original" })])], { model: "gemini-3-pro-preview" })
    const written = ok(Gemini.toRequest(request))
    assert.deepStrictEqual(written.warnings, [])
    assert.deepStrictEqual<unknown>(written.value.contents[0]?.parts, [
      { inlineData: { mimeType: "image/png", data: LARGE_PNG.slice("data:image/png;base64,".length) }, mediaResolution: { level: "MEDIA_RESOLUTION_ULTRA_HIGH" } }
    ])
    const high = Request.make([Message.user([Block.image(LARGE_PNG, { detail: "high" })])], { model: "gemini-3-pro-preview" })
    const gemini = Effect.runSync(GeminiEstimator.make())
    const estimate = (r: Request.Request) => gemini.estimateRequest(r, { provider: "gemini", model: "gemini-3-pro-preview" }).total
    // ultra-high costs 2,240 a Gemini 3 image, high 1,120
    assert.strictEqual(estimate(request) - estimate(high), 2240 - 1120)
    const back = ok(Gemini.fromRequest(written.value))
    assert.strictEqual(imageOf(back.value).detail, "original")
  })

  it("is priced at GPT-5.4's budget of 10,000 patches, where high and auto take 2,500, and GPT-5.2's 1,536 whatever the detail", () => {
    const total = (body: object) => TokenEstimator.heuristic.estimateRequest(ok(OpenAiChat.fromRequest(body)).value).total
    const textOnly = (model: string) => total({ model, messages: [{ role: "user", content: [{ type: "text", text: "Read the small print." }] }] })
    const image = (detail: string, model = "gpt-5.4") => total({ ...chatBody(detail), model }) - textOnly(model)
    // all 4,275 patches at 1.2, and the one token more of every patch figure
    assert.strictEqual(image("original"), Math.ceil(4275 * 1.2) + 1)
    assert.isAtMost(image("high"), Math.ceil(2500 * 1.2) + 1)
    assert.isAbove(image("high"), Math.ceil(2400 * 1.2) + 1)
    assert.strictEqual(image("auto"), image("high"))
    assert.strictEqual(image("original", "gpt-5.2"), image("high", "gpt-5.2"))
    assert.isAtMost(image("high", "gpt-5.2"), Math.ceil(1536 * 1.2) + 1)
  })
})

/** A PDF of two pages. */
const PDF = `data:application/pdf;base64,${Buffer.from(
  "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>\nendobj\n" +
    "3 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n4 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n%%EOF\n"
).toString("base64")}`

const pdfBody = (detail?: string) => ({
  model: "gpt-4o",
  input: [{ role: "user", content: [{ type: "input_file", file_data: PDF, filename: "report.pdf", ...(detail === undefined ? {} : { detail }) }] }]
})

describe("a PDF's detail on the Responses API (how its page images are read: auto, low or high)", () => {
  it("is read as the block's detail and written back; Chat's file part has none, and says so", () => {
    const read = ok(OpenAiResponses.fromRequest(pdfBody("low")))
    assert.strictEqual(imageOf(read.value).detail, "low")
    assert.isUndefined(imageOf(read.value).providerOptions)
    const back = ok(OpenAiResponses.toRequest(read.value))
    assert.deepStrictEqual(back.warnings, [])
    assert.deepStrictEqual<unknown>(back.value.input, pdfBody("low").input)
    const chat = ok(OpenAiChat.toRequest(read.value))
    assert.deepStrictEqual(chat.warnings.map((w) => w._tag), ["DroppedContent"])
  })

  it("is sent for a document given the detail (it was left out, reported as one only an image has), but not original", () => {
    const high = ok(OpenAiResponses.toRequest(Request.make([Message.user([Block.document(PDF, { filename: "report.pdf", detail: "high" })])], { model: "gpt-4o" })))
    assert.deepStrictEqual(high.warnings, [])
    assert.deepStrictEqual<unknown>(high.value.input, pdfBody("high").input)
    const original = ok(OpenAiResponses.toRequest(Request.make([Message.user([Block.document(PDF, { filename: "report.pdf", detail: "original" })])], { model: "gpt-4o" })))
    assert.deepStrictEqual<unknown>(original.value.input, pdfBody().input)
    assert.deepStrictEqual(original.warnings.map((w) => w._tag), ["DroppedContent"])
    assert.include(original.warnings[0]!.message, "an input_file takes auto, low or high")
  })

  it("prices a page as its text alone at low detail and, before GPT-5.6, at auto; with an image of it at high detail (765 on gpt-4o)", () => {
    const total = (detail?: string, model = "gpt-4o") =>
      TokenEstimator.heuristic.estimateRequest(ok(OpenAiResponses.fromRequest({ ...pdfBody(detail), model })).value, { provider: "openai-responses", model }).total
    assert.strictEqual(total("high") - total("low"), 2 * 765)
    assert.strictEqual(total("auto"), total("low"))
    assert.strictEqual(total(), total("low"))
    // GPT-5.6 and later read auto as high
    assert.strictEqual(total("auto", "gpt-5.6") - total("low", "gpt-5.6"), 2 * 2497)
    assert.strictEqual(total(undefined, "gpt-5.6-sol"), total("high", "gpt-5.6-sol"))
    assert.strictEqual(total(undefined, "gpt-5.10"), total("high", "gpt-5.10"))
    assert.strictEqual(total(undefined, "gpt-5.5"), total("low", "gpt-5.5"))
  })
})
