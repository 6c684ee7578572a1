/**
 * A file at a URL its provider cannot take is left out and said by every
 * writer, and validation reports exactly those files: OpenAI Chat and
 * Responses take http(s) URLs and base64 `data:` URLs (a file's as its
 * `file_data`), Anthropic http(s) URLs, Gemini http(s) and `gs://` URIs;
 * only Gemini reads a Gemini Files API URI. Anthropic and Gemini send a
 * file at a base64 `data:` URL as the data it holds, and validate and count
 * it as that data given as base64.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, GeminiEstimator, Message, Repair, Request, TokenEstimator } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import type { DroppedContent } from "../../src/providers/Conversion.js"
import { droppedBy, unsupported, withFiles } from "../anthropicCases.js"

const pick = <const A extends ReadonlyArray<string>>(values: A): Arbitrary.Arbitrary<A[number]> => Arbitrary.schema(Schema.Literals(values))

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
const PDF = Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64")
const TEXT = Buffer.from("Quarterly revenue grew 4%.").toString("base64")
const SVG = Buffer.from("<svg xmlns=\"http://www.w3.org/2000/svg\"/>").toString("base64")
/** The first bytes of a JPEG. */
const JPEG = "/9j/4AAQSkZJRgABAQ=="
const GEMINI_FILE = "https://generativelanguage.googleapis.com/v1beta/files/abc123"

const URLS = {
  https: "https://example.com/file",
  http: "http://example.com/file",
  gs: "gs://bucket/file",
  file: "file:///tmp/file",
  s3: "s3://bucket/file",
  relative: "files/report",
  geminiFile: GEMINI_FILE,
  pngData: `data:image/png;base64,${PNG}`,
  pdfData: `data:application/pdf;base64,${PDF}`,
  textData: `data:text/plain;base64,${TEXT}`,
  wavData: `data:audio/wav;base64,${TEXT}`,
  svgData: `data:image/svg+xml;base64,${SVG}`,
  jpegAsPngData: `data:image/png;base64,${JPEG}`,
  plainData: "data:text/plain,hello"
} as const

const userWith = (file: Block.FileBlock): Array<Message.Message> => [Message.user([Block.text("look"), file])]

type Part = { readonly type: string; readonly [key: string]: unknown }

const chatParts = (file: Block.FileBlock) => {
  const out = Effect.runSync(OpenAiChat.toMessages(userWith(file)))
  return { parts: (out.value[0] as unknown as { readonly content: ReadonlyArray<Part> }).content.slice(1), warnings: out.warnings }
}

const responsesParts = (file: Block.FileBlock) => {
  const out = Effect.runSync(OpenAiResponses.toMessages(userWith(file)))
  return { parts: (out.value[0] as unknown as { readonly content: ReadonlyArray<Part> }).content.slice(1), warnings: out.warnings }
}

/** The warnings of files left out for their URL: "... at a gs: URL", "... at a Gemini Files API URL". */
const leftOutForUrl = (warnings: ReadonlyArray<{ readonly _tag: string }>): Array<DroppedContent> =>
  warnings.filter((w): w is DroppedContent => w._tag === "DroppedContent" && / at an? [^ ]+( Files API)? URL$/.test((w as DroppedContent).what))

describe("OpenAI writers: a file at a URL OpenAI cannot take", () => {
  it("leaves an image at a gs:, file:, relative, non-base64 data: or Gemini Files API URL out, said, in Chat and Responses", () => {
    for (const url of [URLS.gs, URLS.file, URLS.relative, "data:image/svg+xml,<svg/>", GEMINI_FILE]) {
      const file = Block.file(Block.url(url), "image/png")
      for (const { parts, warnings } of [chatParts(file), responsesParts(file)]) {
        assert.deepStrictEqual(parts, [], url)
        const [said] = leftOutForUrl(warnings)
        assert.isDefined(said, url)
        assert.strictEqual(said!.index, 0)
        assert.strictEqual(said!.blockIndex, 1)
      }
    }
  })

  it("names the scheme and why", () => {
    const chat = chatParts(Block.file(Block.url(URLS.gs), "image/png"))
    expect(chat.warnings.map((w) => w.message)).toEqual([
      "messages[0].content[1]: an image/png image at a gs: URL was left out: OpenAI fetches http and https URLs only, and reads a base64 data: URL as its data"
    ])
    const gemini = responsesParts(Block.file(Block.url(GEMINI_FILE), "image/png"))
    expect(gemini.warnings.map((w) => w.message)).toEqual([
      "messages[0].content[1]: an image/png image at a Gemini Files API URL was left out: only the Gemini API reads its Files API URIs"
    ])
  })

  it("sends an image at an http(s) URL or a base64 data: URL as given", () => {
    for (const url of [URLS.https, URLS.http, URLS.pngData]) {
      const file = Block.file(Block.url(url), "image/png")
      expect(chatParts(file)).toEqual({ parts: [{ type: "image_url", image_url: { url } }], warnings: [] })
      expect(responsesParts(file)).toEqual({ parts: [{ type: "input_image", detail: "auto", image_url: url }], warnings: [] })
    }
  })

  it("leaves a Responses input_file at a gs: or file: URL out, said, where it was sent as file_url", () => {
    for (const url of [URLS.gs, URLS.file, GEMINI_FILE]) {
      const { parts, warnings } = responsesParts(Block.file(Block.url(url), "application/pdf"))
      assert.deepStrictEqual(parts, [], url)
      assert.strictEqual(leftOutForUrl(warnings).length, 1, url)
    }
    expect(responsesParts(Block.file(Block.url(URLS.https), "application/pdf")).parts).toEqual([{ type: "input_file", file_url: URLS.https }])
  })

  it("sends a file given as a base64 data: URL as the data it is (file_data), in Chat and Responses", () => {
    const file = Block.file(Block.url(URLS.pdfData), "application/pdf", { filename: "a.pdf" })
    expect(chatParts(file)).toEqual({ parts: [{ type: "file", file: { file_data: URLS.pdfData, filename: "a.pdf" } }], warnings: [] })
    expect(responsesParts(file)).toEqual({ parts: [{ type: "input_file", file_data: URLS.pdfData, filename: "a.pdf" }], warnings: [] })
  })

  it("counts nothing for an image the Chat writer leaves out for its URL", () => {
    const options = { provider: "openai-chat", model: "gpt-4o" } as const
    const ask = [Message.user([Block.text("look")])]
    const none = TokenEstimator.heuristic.estimateRequest(Request.make(ask), options).total
    const at = (url: string) => TokenEstimator.heuristic.estimateRequest(Request.make(userWith(Block.file(Block.url(url), "image/png"))), options).total
    // the one word "look" is a text part beside the image: the framing of a list of parts, the same for both
    const framing = at(URLS.gs) - none
    expect(at(GEMINI_FILE) - none).toBe(framing)
    expect(at(URLS.https) - none).toBeGreaterThan(framing)
  })
})

describe("Gemini writer: a file at a URI Gemini refuses", () => {
  const parts = (file: Block.FileBlock) => {
    const out = Effect.runSync(Gemini.toMessages(userWith(file)))
    return { parts: (out.value.contents[0] as { readonly parts: ReadonlyArray<unknown> }).parts.slice(1), warnings: out.warnings }
  }

  it("leaves a data: URL that is not base64 or a file: URI out, said, where it was sent as fileData", () => {
    for (const url of [URLS.plainData, URLS.file]) {
      const { parts: written, warnings } = parts(Block.file(Block.url(url), "image/png"))
      assert.deepStrictEqual(written, [], url)
      expect(warnings.map((w) => w.message)).toEqual([
        `messages[0].content[1]: an image/png file at ${url.startsWith("data:") ? "a data:" : "a file:"} URL was left out: Gemini takes http, https and gs:// file URIs, and a base64 data: URL is sent as its data`
      ])
    }
  })

  it("sends http(s), gs:// and Files API URIs, and a name without a scheme, as given", () => {
    for (const url of [URLS.https, URLS.gs, GEMINI_FILE, URLS.relative]) {
      expect(parts(Block.file(Block.url(url), "application/pdf"))).toEqual({ parts: [{ fileData: { mimeType: "application/pdf", fileUri: url } }], warnings: [] })
    }
  })

  it("counts nothing for a file it leaves out", () => {
    const options = { provider: "gemini", model: "gemini-2.5-flash" } as const
    const cost = (url: string) =>
      TokenEstimator.heuristic.estimateRequest(Request.make(userWith(Block.file(Block.url(url), "image/png"))), options).total -
      TokenEstimator.heuristic.estimateRequest(Request.make([Message.user([Block.text("look")])]), options).total
    expect(cost(URLS.file)).toBe(0)
    expect(cost(URLS.gs)).toBeGreaterThan(0)
  })
})

describe("Anthropic writer: a Gemini Files API URI", () => {
  it("is left out and said, not sent as a URL Anthropic cannot fetch", () => {
    const out = Effect.runSync(Anthropic.toMessages(userWith(Block.file(Block.url(GEMINI_FILE), "application/pdf"))))
    expect(JSON.stringify(out.value)).not.toContain(GEMINI_FILE)
    expect(out.warnings.map((w) => w.message)).toEqual([
      "messages[0].content[1]: an application/pdf file at a Gemini Files API URL was left out: only the Gemini API reads its Files API URIs"
    ])
  })
})

// ---------------------------------------------------------------------------
// a file at a base64 data: URL, to Anthropic and Gemini
// ---------------------------------------------------------------------------

/** The same file given as the base64 data its data: URL holds, of the type the URL declares. */
const asBase64 = (url: string, extras?: { readonly filename?: string }): Block.FileBlock => {
  const data = Block.parseDataUrl(url)!
  return Block.file(Block.base64(data.data), data.mediaType, extras)
}

describe("Anthropic writer: a file at a base64 data: URL", () => {
  const written = (file: Block.FileBlock) => {
    const out = Effect.runSync(Anthropic.toMessages(userWith(file)))
    return { blocks: (out.value.messages[0]!.content as ReadonlyArray<unknown>).slice(1), warnings: out.warnings.map((w) => w.message) }
  }
  const said = (type: string) => `messages[0].content[1]: ${/^[aeiou]/.test(type) ? "an" : "a"} ${type} file at a base64 data: URL was sent as the base64 data it holds (Anthropic fetches no data: URL)`

  it("sends an image as base64 image data of the type the URL declares, said", () => {
    expect(written(Block.file(Block.url(URLS.pngData), "image/*"))).toEqual({
      blocks: [{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }],
      warnings: [said("image/png")]
    })
  })

  it("takes the file's own type when the URL declares none", () => {
    expect(written(Block.file(Block.url(`data:;base64,${PNG}`), "image/png")).blocks).toEqual([{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }])
    expect(written(Block.file(Block.url(`data:;charset=utf-8;base64,${TEXT}`), "text/markdown")).warnings).toEqual([
      "messages[0].content[1]: a base64 text/markdown document was sent as a plain-text document",
      said("text/markdown")
    ])
  })

  it("sends a PDF as a base64 document and text as a plain-text document, as base64 data of those types", () => {
    expect(written(Block.file(Block.url(URLS.pdfData), "application/pdf", { title: "Q3" }))).toEqual({
      blocks: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "Q3" }],
      warnings: [said("application/pdf")]
    })
    const text = written(Block.file(Block.url(URLS.textData), "text/plain"))
    expect(text.blocks).toEqual([{ type: "document", source: { type: "text", media_type: "text/plain", data: "Quarterly revenue grew 4%." } }])
    expect(text.warnings).toEqual([...written(asBase64(URLS.textData)).warnings, said("text/plain")])
  })

  it("sends an image whose bytes are another format as the type its bytes show, as for base64 data", () => {
    const out = written(Block.file(Block.url(URLS.jpegAsPngData), "image/png"))
    expect(out.blocks).toEqual([{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: JPEG } }])
    expect(out.warnings).toEqual([...written(asBase64(URLS.jpegAsPngData)).warnings, said("image/png")])
  })

  it("leaves out a file of a type it does not take as data, said as for base64 data", () => {
    for (const url of [URLS.wavData, URLS.svgData]) {
      const out = written(Block.file(Block.url(url), "application/pdf"))
      expect(out).toEqual(written(asBase64(url)))
      expect(out.blocks).toEqual([])
    }
  })

  it("still leaves a data: URL that is not base64, and a file: URL, out for its URL", () => {
    for (const url of [URLS.plainData, URLS.file]) {
      expect(written(Block.file(Block.url(url), "image/png"))).toEqual({
        blocks: [],
        warnings: [`messages[0].content[1]: an image/png image at ${url.startsWith("data:") ? "a data:" : "a file:"} URL was left out: Anthropic fetches http and https URLs only, and a base64 data: URL is sent as its data`]
      })
    }
  })
})

describe("Gemini writer: a file at a base64 data: URL", () => {
  const written = (file: Block.FileBlock) => {
    const out = Effect.runSync(Gemini.toMessages(userWith(file)))
    return { parts: (out.value.contents[0] as { readonly parts: ReadonlyArray<unknown> }).parts.slice(1), warnings: out.warnings.map((w) => w.message) }
  }

  it("sends it as inlineData of the type the URL declares, said", () => {
    expect(written(Block.file(Block.url(URLS.pngData), "image/*", { filename: "dot.png" }))).toEqual({
      parts: [{ inlineData: { mimeType: "image/png", data: PNG, displayName: "dot.png" } }],
      warnings: ["messages[0].content[1]: an image/png file at a base64 data: URL was sent as the inline data it holds (Gemini fetches no data: URL)"]
    })
    for (const url of [URLS.pdfData, URLS.wavData, URLS.svgData]) {
      expect(written(Block.file(Block.url(url), "image/png")).parts, url).toEqual(written(asBase64(url)).parts)
    }
  })
})

describe("validation judges a file at a base64 data: URL as the data it holds", () => {
  const issues = (provider: "anthropic" | "gemini", url: string, mediaType = "image/png") =>
    Conversation.issuesFor(provider, userWith(Block.file(Block.url(url), mediaType))).map((issue) => issue.message)

  it("Anthropic: a PNG, a PDF or text is taken; audio or SVG data is not, as for base64 data; bytes of another image type are a mismatch", () => {
    for (const url of [URLS.pngData, URLS.pdfData, URLS.textData]) expect(issues("anthropic", url), url).toEqual([])
    expect(issues("anthropic", URLS.wavData)).toEqual(["messages[0]: content[1]: anthropic does not take audio/wav files (it takes application/pdf, text/* as UTF-8 text)"])
    expect(issues("anthropic", URLS.svgData)).toEqual(["messages[0]: content[1]: anthropic does not take image/svg+xml images (it takes image/jpeg, image/png, image/gif, image/webp)"])
    expect(issues("anthropic", URLS.jpegAsPngData)).toEqual([
      "messages[0]: content[1]: the image is declared image/png but its bytes are image/jpeg, and anthropic rejects an image that does not match its media type (\"Image does not match the provided media type image/png\")"
    ])
  })

  it("Gemini: a PNG, a PDF or audio is taken; an SVG image is not, as for base64 data", () => {
    for (const url of [URLS.pngData, URLS.pdfData, URLS.wavData]) expect(issues("gemini", url), url).toEqual([])
    expect(issues("gemini", URLS.svgData)).toEqual(["messages[0]: content[1]: gemini does not take image/svg+xml images (it takes image/png, image/jpeg, image/webp, image/heic, image/heif)"])
  })

  it("Anthropic: a lone surrogate is reported where the writer sends it, in a data: URL's data, not in its header", () => {
    const surrogates = (url: string, mediaType: string) =>
      Conversation.issuesFor("anthropic", userWith(Block.file(Block.url(url), mediaType))).filter((issue) => issue._tag === "LoneSurrogate").length
    expect(surrogates(`data:image/png;base64,${PNG}\uD800`, "image/png")).toBe(1)
    // the writer sends the text the data decodes to, as text/plain: the header's parameters are not sent
    expect(surrogates("data:text/plain;name=\uD800;base64,aGk=", "text/plain")).toBe(0)
  })

  it("a data: URL that is not base64 is still reported for its URL", () => {
    for (const provider of ["anthropic", "gemini"] as const) {
      const [issue] = Conversation.issuesFor(provider, userWith(Block.file(Block.url(URLS.plainData), "image/png")))
      assert.strictEqual(issue?._tag === "UnsupportedMediaType" ? issue.url : undefined, URLS.plainData, provider)
    }
  })
})

describe("Repair: an image at a base64 data: URL whose bytes are another format", () => {
  it.effect("is given the type its bytes show, in its URL too, as the Anthropic writer sends it", () =>
    Effect.gen(function*() {
      const { actions, messages } = yield* Repair.repairFor("anthropic")(userWith(Block.file(Block.url(URLS.jpegAsPngData), "image/png")))
      expect(actions.map((a) => a.description)).toEqual([
        "messages[0].content[1]: the image declared image/png was given the type its bytes show, image/jpeg (Anthropic rejects an image that does not match its media type)"
      ])
      const file = messages[0]!.content[1] as Block.FileBlock
      expect([file.mediaType, file.source]).toEqual(["image/jpeg", Block.url(`data:image/jpeg;base64,${JPEG}`)])
      expect(Conversation.issuesFor("anthropic", messages)).toEqual([])
    }))
})

describe("request estimates count a file at a base64 data: URL as its data given as base64", () => {
  const gemini = Effect.runSync(GeminiEstimator.make())
  const total = (estimator: TokenEstimator.Service, provider: "anthropic" | "gemini", file: Block.FileBlock) =>
    estimator.estimateRequest(Request.make(userWith(file)), { provider, model: provider === "anthropic" ? "claude-sonnet-4-5" : "gemini-2.5-flash" }).total

  it("for Anthropic and Gemini, with the heuristic and the Gemini estimator", () => {
    for (const [estimator, provider] of [[TokenEstimator.heuristic, "anthropic"], [TokenEstimator.heuristic, "gemini"], [gemini, "gemini"]] as const) {
      for (const url of [URLS.pngData, URLS.pdfData, URLS.textData, URLS.wavData, URLS.jpegAsPngData]) {
        expect(total(estimator, provider, Block.file(Block.url(url), "image/*")), `${provider} ${url}`).toBe(total(estimator, provider, asBase64(url)))
      }
      // an image the writer sends costs more than one it leaves out
      expect(total(estimator, provider, Block.file(Block.url(URLS.pngData), "image/png"))).toBeGreaterThan(total(estimator, provider, Block.file(Block.url(URLS.file), "image/png")))
    }
  })
})

// ---------------------------------------------------------------------------
// validation and the writers agree
// ---------------------------------------------------------------------------

const slot = Arbitrary.all({
  mediaType: pick(["image/png", "image/*", "application/pdf", "text/plain", "application/octet-stream", "audio/wav", "video/mp4"]),
  url: pick(Object.keys(URLS) as unknown as readonly ["https"]),
  where: pick(["user", "result", "assistant"])
})

type Slot = { readonly mediaType: string; readonly url: keyof typeof URLS; readonly where: "user" | "result" | "assistant" }

/** Each file in a user message, a tool result or an assistant message (a generated one, which only Gemini's writer sends), in a conversation that alternates. */
const messagesOf = (slots: ReadonlyArray<Slot>): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  const groups: Array<Array<Slot>> = []
  for (const s of slots) {
    if (s.where === "assistant") groups.push([s])
    else if (groups.at(-1)?.[0]?.where === "assistant" || groups.length === 0) groups.push([s])
    else groups.at(-1)!.push(s)
  }
  for (const group of groups) {
    if (group[0]!.where !== "assistant") {
      out.push(...withFiles(group.map((s) => ({ file: Block.file(Block.url(URLS[s.url]), s.mediaType), inResult: s.where === "result" }))))
      continue
    }
    const s = group[0]!
    out.push(Message.user("Draw one."), Message.assistant([Block.text("Here it is:"), Block.file(Block.url(URLS[s.url]), s.mediaType)]))
  }
  return out
}

/** Each writer's warnings for the messages. */
const writers: Record<"openai-chat" | "openai-responses" | "anthropic" | "gemini", (messages: ReadonlyArray<Message.Message>) => ReadonlyArray<{ readonly _tag: string }>> = {
  "openai-chat": (messages) => Effect.runSync(OpenAiChat.toMessages(messages)).warnings,
  "openai-responses": (messages) => Effect.runSync(OpenAiResponses.toMessages(messages)).warnings,
  anthropic: (messages) => Effect.runSync(Anthropic.toMessages(messages)).warnings,
  gemini: (messages) => Effect.runSync(Gemini.toMessages(messages)).warnings
}

/** Where the writer leaves a file out for its URL: `index blockIndex`. */
const droppedForUrl = (provider: keyof typeof writers, messages: ReadonlyArray<Message.Message>): Array<string> =>
  leftOutForUrl(writers[provider](messages)).map((w) => `${w.index} ${w.blockIndex}`)

/** Where validation reports a file at a URL the provider cannot take: `index blockIndex`. */
const reportedForUrl = (provider: keyof typeof writers, messages: ReadonlyArray<Message.Message>): Array<string> =>
  Conversation.issuesFor(provider, messages).flatMap((issue) => (issue._tag === "UnsupportedMediaType" && issue.url !== undefined ? [`${issue.index} ${issue.blockIndex}`] : []))

describe("validation reports a file at a URL exactly where the writer leaves it out for that URL", () => {
  it("reports each provider's refused URLs with the URL and what it takes", () => {
    const messages = messagesOf([
      { mediaType: "image/png", url: "gs", where: "user" },
      { mediaType: "application/pdf", url: "geminiFile", where: "result" },
      { mediaType: "application/pdf", url: "file", where: "user" }
    ])
    const said = (provider: keyof typeof writers) => Conversation.issuesFor(provider, messages).map((issue) => issue.message)
    expect(said("openai-chat")).toEqual([
      "messages[2]: content[1]: openai-chat does not take image/png images at \"gs://bucket/file\" (it fetches http and https URLs only, and reads base64 data: URLs; it takes image/png, image/jpeg, image/gif, image/webp)",
      "messages[6]: content[1]: openai-chat does not take application/pdf files at \"file:///tmp/file\" (it fetches http and https URLs only, and reads base64 data: URLs)"
    ])
    expect(said("openai-responses")[1]).toBe(
      `messages[4]: content[0].content[1]: openai-responses does not take application/pdf files at "${GEMINI_FILE}" (only the Gemini API reads its Files API URIs)`
    )
    expect(said("gemini")).toEqual([
      "messages[6]: content[1]: gemini does not take application/pdf files at \"file:///tmp/file\" (it takes http, https and gs:// file URIs, and reads base64 data: URLs)"
    ])
  })

  it("reports a file in a Gemini assistant message, which the writer sends or leaves out as a user message's", () => {
    const messages = [
      Message.user("Draw two."),
      Message.assistant([Block.text("Here:"), Block.file(Block.url(URLS.file), "image/png"), Block.file(Block.base64(PNG), "image/jpg")])
    ]
    const written = Effect.runSync(Gemini.toMessages(messages))
    // the first is left out for its URL, the second sent as declared, which Gemini refuses
    assert.deepStrictEqual(droppedForUrl("gemini", messages), ["1 1"])
    assert.strictEqual(written.value.contents[1]?.parts.length, 2)
    expect(Conversation.issuesFor("gemini", messages).map((issue) => issue.message)).toEqual([
      "messages[1]: content[1]: gemini does not take image/png images at \"file:///tmp/file\" (it takes http, https and gs:// file URIs, and reads base64 data: URLs)",
      expect.stringContaining("messages[1]: content[2]: gemini does not take image/jpg images")
    ])
    // the other writers leave an assistant's files out whatever they are: not a matter of type or URL
    for (const provider of ["openai-chat", "openai-responses", "anthropic"] as const) assert.deepStrictEqual(Conversation.issuesFor(provider, messages), [], provider)
  })

  it.prop(
    "for each provider, in user messages, tool results and assistant messages",
    [Arbitrary.array(slot, { minLength: 1, maxLength: 6 })],
    ([slots]) => {
      const messages = messagesOf(slots)
      for (const provider of Object.keys(writers) as ReadonlyArray<keyof typeof writers>) {
        assert.deepStrictEqual(reportedForUrl(provider, messages), droppedForUrl(provider, messages), provider)
      }
      // Anthropic reports every file of a user message or tool result its writer leaves out, for its URL or for the
      // type of the data a data: URL holds (an assistant's files it leaves out whatever they are, which is no media issue)
      const notAssistant = (at: string): boolean => messages[Number(at.split(" ")[0])]?.role !== "assistant"
      assert.deepStrictEqual(unsupported(messages), droppedBy(messages).filter(notAssistant))
    },
    { arbitrary: { runs: 200 }, timeout: 300_000 }
  )

  const DATA_URLS = ["pngData", "pdfData", "textData", "wavData", "svgData", "jpegAsPngData"] as const
  const dataSlot = Arbitrary.all({
    // the file's own type, which the one its URL declares stands for
    mediaType: pick(["image/png", "image/*", "application/pdf", "text/plain", "application/octet-stream", "audio/wav"]),
    url: pick(DATA_URLS),
    inResult: Arbitrary.schema(Schema.Boolean)
  })
  /** What a provider makes of messages: the body, the warnings but those saying a data: URL was sent as its data, the issues, the estimate. */
  const reading = (provider: "anthropic" | "gemini", messages: ReadonlyArray<Message.Message>) => {
    const out = provider === "anthropic" ? Effect.runSync(Anthropic.toMessages(messages)) : Effect.runSync(Gemini.toMessages(messages))
    return {
      body: out.value,
      warnings: out.warnings.filter((w) => !(w._tag === "ConvertedContent" && w.what.endsWith("at a base64 data: URL"))).map((w) => w.message),
      issues: Conversation.issuesFor(provider, messages).map((issue) => issue.message),
      estimate: TokenEstimator.heuristic.estimateRequest(Request.make(messages), { provider }).total
    }
  }

  it.prop(
    "Anthropic and Gemini write, validate and count a file at a base64 data: URL as the same file given as base64 data",
    [Arbitrary.array(dataSlot, { minLength: 1, maxLength: 5 })],
    ([slots]) => {
      const messages = withFiles(slots.map((s) => ({ file: Block.file(Block.url(URLS[s.url]), s.mediaType), inResult: s.inResult })))
      const twins = withFiles(slots.map((s) => ({ file: asBase64(URLS[s.url]), inResult: s.inResult })))
      for (const provider of ["anthropic", "gemini"] as const) assert.deepStrictEqual(reading(provider, messages), reading(provider, twins), provider)
    },
    { arbitrary: { runs: 100 }, timeout: 300_000 }
  )
})
