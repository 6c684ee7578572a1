/**
 * PDFs are billed by their pages: the page count read from a file's
 * structure, and what a page costs each provider, in the estimator and in
 * whole-request estimates.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { zlibSync } from "fflate"
import { Block, Message, Request, TokenEstimator } from "../src/index.js"
import { countOpenAiChatRequest } from "../src/exact/index.js"
import { ASSUMED_PDF_PAGE_BYTES, pdfFactsOfBase64, pdfPageCountOfBytes, pdfPagesOfBase64, pdfPagesOfSource } from "../src/internal/pdf.js"
import { intBetween } from "./arbitraries.js"

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0))
const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64")
const asLatin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("latin1")

/** A page's content stream: a line of text, as a writer leaves it (uncompressed). */
const content = (page: number) => `<< /Length 44 >>\nstream\nBT /F1 12 Tf 72 720 Td (Page ${page}) Tj ET\nendstream`

type Layout = "flat" | "nested" | "pagesOnly" | "linearized" | "objectStreamFirst" | "objectStreamLast" | "updated" | "annotated"

/**
 * A PDF of `pages` pages in one of the layouts writers produce: a flat page
 * tree; a tree of nested nodes; page objects without a counted tree; a
 * linearized file; the catalog and page tree in compressed object streams
 * (written first, as pdf-lib or qpdf do, or last, as pdfTeX does); an
 * incremental update that rewrites the tree; the page tree in object
 * streams and an incremental update, uncompressed, that rewrites a page (an
 * annotation added in a viewer).
 */
const makePdf = (pages: number, layout: Layout): Uint8Array => {
  const objects = new Map<number, string>()
  const pageIds = Array.from({ length: pages }, (_, i) => 10 + 2 * i)
  pageIds.forEach((id, i) => objects.set(id + 1, content(i + 1)))
  if (layout === "nested" && pages > 1) {
    // two children under the root, each with its share of the pages
    const half = Math.ceil(pages / 2)
    const groups = [pageIds.slice(0, half), pageIds.slice(half)]
    objects.set(1, "<< /Type /Catalog /Pages 2 0 R >>")
    objects.set(2, `<< /Type /Pages /Kids [3 0 R 4 0 R] /Count ${pages} >>`)
    groups.forEach((ids, g) => {
      objects.set(3 + g, `<< /Type /Pages /Parent 2 0 R /Kids [${ids.map((id) => `${id} 0 R`).join(" ")}] /Count ${ids.length} >>`)
      for (const id of ids) objects.set(id, `<< /Type /Page /Parent ${3 + g} 0 R /MediaBox [0 0 612 792] /Contents ${id + 1} 0 R >>`)
    })
  } else {
    objects.set(1, "<< /Type /Catalog /Pages 2 0 R >>")
    objects.set(2, layout === "pagesOnly" ? `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] >>` : `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages} >>`)
    for (const id of pageIds) objects.set(id, `<< /Type/Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${id + 1} 0 R >>`)
  }
  let out = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
  // the linearization dictionary's /L, the file's length, is filled in at the end (10 digits, as writers leave room for)
  if (layout === "linearized") out += `5 0 obj\n<< /Linearized 1 /L ########## /H [ 1 2 ] /O ${pageIds[0]} /E 999 /N ${pages} /T 9999 >>\nendobj\n`
  const write = (id: number, body: string) => (out += `${id} 0 obj\n${body}\nendobj\n`)
  if (layout === "objectStreamFirst" || layout === "objectStreamLast" || layout === "annotated") {
    // everything but the content streams goes into object streams of up to 7 objects each
    const small = [...objects].filter(([, body]) => !body.includes("stream"))
    const streams: Array<string> = []
    for (let i = 0; i < small.length; i += 7) {
      const group = small.slice(i, i + 7)
      let header = ""
      let bodies = ""
      for (const [id, body] of group) {
        header += `${id} ${bodies.length} `
        bodies += `${body}\n`
      }
      const data = zlibSync(latin1(header + bodies))
      streams.push(`<< /Type /ObjStm /N ${group.length} /First ${header.length} /Length ${data.length} /Filter /FlateDecode >>\nstream\n${String.fromCharCode(...data)}\nendstream`)
    }
    const ordered = layout === "objectStreamFirst" ? streams : streams.reverse()
    ordered.forEach((body, k) => write(1000 + k, body))
    for (const [id, body] of objects) if (body.includes("stream")) write(id, body)
  } else {
    for (const [id, body] of [...objects].sort(([a], [b]) => a - b)) write(id, body)
  }
  if (layout === "updated") {
    // an update that removed the last page: the old root keeps its larger count, the safe side
    write(2, `<< /Type /Pages /Kids [${pageIds.slice(0, -1).map((id) => `${id} 0 R`).join(" ")}] /Count ${pages - 1} >>`)
  }
  if (layout === "annotated") {
    // the page tree stays in the object streams; the one page the update changed is written outside them
    write(pageIds[0]!, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageIds[0]! + 1} 0 R /Annots [9000 0 R] >>`)
  }
  out += "trailer\n<< /Root 1 0 R /Size 9999 >>\nstartxref\n0\n%%EOF\n"
  return latin1(out.replace("##########", String(out.length).padStart(10, "0")))
}

const LAYOUTS: ReadonlyArray<Layout> = ["flat", "nested", "pagesOnly", "linearized", "objectStreamFirst", "objectStreamLast", "updated", "annotated"]

const pdfDocument = (bytes: Uint8Array): Block.FileBlock => Block.document(Block.base64(base64(bytes)))

describe("the page count of a PDF", () => {
  it("is read from every layout writers produce, object streams included", () => {
    for (const layout of LAYOUTS) {
      for (const pages of [1, 2, 7, 30]) expect([layout, pdfPageCountOfBytes(makePdf(pages, layout))]).toEqual([layout, pages])
    }
  })

  it.prop(
    "is the page count for any number of pages and layout, in standard or URL-safe base64, with or without line breaks",
    {
      pages: intBetween(1, 400),
      layout: Arbitrary.schema(Schema.Literals(LAYOUTS)),
      alphabet: Arbitrary.schema(Schema.Literals(["standard", "urlSafe", "mime"]))
    },
    ({ alphabet, layout, pages }) => {
      const plain = base64(makePdf(pages, layout))
      const text = alphabet === "urlSafe"
        ? plain.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
        : alphabet === "mime"
        ? plain.replace(/.{76}/g, "$&\r\n")
        : plain
      expect(pdfPagesOfBase64(text)).toBe(pages)
      expect(pdfPagesOfBase64(`data:application/pdf;base64,${text}`, "data:application/pdf;base64,".length)).toBe(pages)
    },
    { timeout: 300_000, arbitrary: { runs: 60 } }
  )

  it("believes a linearized file's page count only while the file is the length the linearization gives", () => {
    // an incremental update appended a page: the linearization's /N (3) is out of date, the new root says 4
    const linearized = makePdf(3, "linearized")
    const update = latin1("\n2 0 obj\n<< /Type /Pages /Kids [10 0 R 12 0 R 14 0 R 90 0 R] /Count 4 >>\nendobj\n90 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n%%EOF\n")
    expect(pdfPageCountOfBytes(linearized)).toBe(3)
    // read from the linearization alone (no page tree here), while the length is right
    const bare = "%PDF-1.7\n1 0 obj\n<< /Linearized 1 /L ########## /N 5 >>\nendobj\n%%EOF\n"
    expect(pdfPageCountOfBytes(latin1(bare.replace("##########", String(bare.length).padStart(10, "0"))))).toBe(5)
    expect(pdfPageCountOfBytes(latin1(bare.replace("##########", String(bare.length + 1).padStart(10, "0"))))).toBeUndefined()
    expect(pdfPageCountOfBytes(Uint8Array.from([...linearized, ...update]))).toBe(4)
  })

  it("does not believe a count the file could not hold (one page a byte): a made-up one made the estimate infinite", () => {
    const claimed = (count: string) => latin1(`%PDF-1.4\n1 0 obj\n<< /Type /Pages /Count ${count} >>\nendobj\n2 0 obj\n<< /Type /Page /Parent 1 0 R >>\nendobj\n%%EOF`)
    expect(pdfPageCountOfBytes(claimed("9".repeat(400)))).toBe(1)
    expect(pdfPageCountOfBytes(claimed("9999999999999"))).toBe(1)
    expect(pdfPageCountOfBytes(claimed("12"))).toBe(12)
    const file = pdfDocument(claimed("9".repeat(400)))
    expect(TokenEstimator.heuristic.estimateBlock(file)).toBe(TokenEstimator.PDF_PAGE_TOKENS)
    const request = Request.make([Message.user([Block.text("Read this."), file])])
    for (const provider of ["anthropic", "gemini", "openai-chat"] as const) expect(Number.isFinite(TokenEstimator.heuristic.estimateRequest(request, { provider }).total)).toBe(true)
  })

  it("takes a stream's data from the keyword after its dictionary, not from \"stream\" inside it (a name, a string)", () => {
    const catalog = "<< /Type /Catalog /Pages 2 0 R >>\n"
    const header = `1 0 2 ${catalog.length} `
    const data = zlibSync(latin1(`${header}${catalog}<< /Type /Pages /Kids [] /Count 9 >>\n`))
    const withString = latin1(`%PDF-1.7\n5 0 obj\n<< /Note (upstream) /Type /ObjStm /N 2 /First ${header.length} /Filter /FlateDecode >>\nstream\n${asLatin1(data)}\nendstream\nendobj\n%%EOF`)
    expect(pdfPageCountOfBytes(withString)).toBe(9)
    const withName = latin1("%PDF-1.4\n3 0 obj\n<< /Resources << /Upstream 1 >> /Type /Pages /Count 4 >>\nendobj\n%%EOF")
    expect(pdfPageCountOfBytes(withName)).toBe(4)
  })

  it("falls back to one page per 20 KB when the structure shows none, and is undefined for data that is not a PDF", () => {
    const noTree = latin1(`%PDF-1.4\n${"x".repeat(3 * ASSUMED_PDF_PAGE_BYTES)}\n%%EOF`)
    expect(pdfPageCountOfBytes(noTree)).toBeUndefined()
    expect(pdfPagesOfBase64(base64(noTree))).toBe(4)
    expect(pdfPagesOfBase64(base64(latin1("GIF89a not a pdf")))).toBeUndefined()
    expect(pdfPagesOfBase64("")).toBeUndefined()
  })

  it("caps what it inflates: a compressed object stream that inflates to 40 MB of nothing is cut, not read whole", () => {
    const bomb = zlibSync(new Uint8Array(40 * 1024 * 1024))
    const bytes = latin1(`%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>\nstream\n${String.fromCharCode(...bomb)}\nendstream\nendobj\n%%EOF`)
    expect(pdfPageCountOfBytes(bytes)).toBeUndefined()
    expect(pdfPagesOfBase64(base64(bytes))).toBe(Math.ceil(bytes.length / ASSUMED_PDF_PAGE_BYTES))
    // the cut comes within about 8 MB of the 32 MB cap, not a whole 64 KB push (64 MB of output) past it: a page tree node
    // 44 MB into the stream is not read
    const far = 44 * 1024 * 1024
    const header = `1 ${far} `
    const text = new Uint8Array(header.length + far + 40)
    text.set(latin1(header))
    text.set(latin1("<< /Type /Pages /Count 7 >>"), header.length + far)
    const past = zlibSync(text)
    const pastCap = latin1(`%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode >>\nstream\n${asLatin1(past)}\nendstream\nendobj\n%%EOF`)
    expect(pdfPageCountOfBytes(pastCap)).toBeUndefined()
  }, 300_000)

  it.prop(
    "never throws on a cut or damaged file: a count of at least one page, or nothing",
    { pages: intBetween(1, 40), layout: Arbitrary.schema(Schema.Literals(LAYOUTS)), cut: intBetween(0, 4000), noise: Arbitrary.schema(Schema.String) },
    ({ cut, layout, noise, pages }) => {
      const whole = makePdf(pages, layout)
      for (const bytes of [whole.subarray(0, cut), Uint8Array.from([...whole.subarray(0, cut), ...latin1(noise.replace(/[^\x00-\xff]/g, "")), ...whole.subarray(cut)])]) {
        const n = pdfPagesOfBase64(base64(bytes))
        if (n !== undefined) expect(n).toBeGreaterThanOrEqual(1)
      }
    },
    { timeout: 300_000 }
  )

  it("takes time linear in the file's size on hostile structure: a run of digits, object streams without endstream, header offsets that go back", () => {
    const within = (bytes: Uint8Array, ms: number) => {
      const t0 = performance.now()
      pdfPageCountOfBytes(bytes)
      return performance.now() - t0 < ms
    }
    // each took 15 to 30 seconds when a search or a match could restart at every byte (quadratic); now milliseconds
    expect(within(latin1(`%PDF-1.7\n${"7".repeat(150_000)}`), 1_500)).toBe(true)
    expect(within(latin1(`%PDF-1.7\n${"1 0 obj <</Type/ObjStm/Filter/FlateDecode/First 1>> stream\nxx endobj\n".repeat(30_000)}`), 1_500)).toBe(true)
    // one object stream whose header sends every other object back to the start: each would read 64 KB again
    const header = "1 70000 1 0 ".repeat(300_000)
    const data = zlibSync(latin1(header + "x".repeat(70_001)))
    const backAndForth = latin1(`%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 9 /First ${header.length} /Filter /FlateDecode >>\nstream\n${String.fromCharCode(...data)}\nendstream\nendobj\n`)
    expect(within(backAndForth, 1_500)).toBe(true)
  }, 300_000)

  it("takes time that grows with the file's size, not with what its object streams inflate to: 39 KB of header pairs that inflate to 40 MB", () => {
    // each pair is read; the 32 MB cap alone let a 39 KB file take two seconds
    const header = "1 0 ".repeat(10_000_000)
    const data = zlibSync(latin1(`${header}<< /Type /Page >>`))
    const bytes = latin1(`%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode >>\nstream\n${asLatin1(data)}\nendstream\nendobj\n`)
    const t0 = performance.now()
    pdfPageCountOfBytes(bytes)
    expect(performance.now() - t0).toBeLessThan(1_000)
  }, 300_000)

  it("reads each source once: a window estimates the same messages again and again", () => {
    const source = Block.base64(base64(makePdf(3, "flat")))
    expect(pdfPagesOfSource(source)).toBe(3)
    expect(pdfPagesOfSource(source)).toBe(3)
    expect(pdfPagesOfSource(Block.fileId("file-abc"))).toBeUndefined()
    expect(pdfPagesOfSource({ _tag: "Url", url: "https://example.com/a.pdf" })).toBeUndefined()
  })
})

describe("what a PDF costs", () => {
  const pdf = pdfDocument(makePdf(3, "objectStreamLast"))
  const user = Message.user([Block.text("Summarize this."), pdf])

  it("the estimator: PDF_PAGE_TOKENS a page (an image of the page as Claude prices it and a page of text), not its bytes", () => {
    expect(TokenEstimator.PDF_PAGE_TOKENS).toBe(2199)
    expect(TokenEstimator.heuristic.estimateBlock(pdf)).toBe(3 * 2199)
    // in a tool result too, and by a data: URL
    expect(TokenEstimator.heuristic.estimateBlock(Block.document(`data:application/pdf;base64,${base64(makePdf(2, "flat"))}`))).toBe(2 * 2199)
    // a PDF by reference is about a page, as before; a file that is not a PDF by its data stays opaque data
    expect(TokenEstimator.heuristic.estimateBlock(Block.document("https://example.com/report.pdf"))).toBe(TokenEstimator.REFERENCED_FILE_TOKENS)
    const notPdf = Block.document(Block.base64("QUJDREVGR0g="))
    expect(TokenEstimator.heuristic.estimateBlock(notPdf)).toBe(TokenEstimator.estimateOpaqueData("QUJDREVGR0g="))
  })

  it("a request: each provider's price, by the pages and, for Claude and OpenAI, the text they show (\"Page 1\" to \"Page 3\": 12 letters and 3 digits, 18 units, 5 tokens)", () => {
    const request = Request.make([user])
    const cost = (provider: "anthropic" | "gemini" | "openai-chat" | "openai-responses", model: string, withPdf = request) => {
      const without = TokenEstimator.heuristic.estimateRequest(Request.make([Message.user([Block.text("Summarize this.")])]), { provider, model })
      return TokenEstimator.heuristic.estimateRequest(withPdf, { provider, model }).total - without.total
    }
    const text = 5
    expect(cost("gemini", "gemini-3-flash-preview")).toBe(3 * 1120)
    expect(cost("gemini", "gemini-2.5-flash")).toBe(3 * 258)
    expect(cost("anthropic", "claude-sonnet-4-5")).toBe(3 * 1599 + text)
    expect(cost("anthropic", "claude-opus-4-7")).toBe(3 * 2805 + text)
    expect(cost("openai-chat", "gpt-4o")).toBe(3 * 765 + text)
    // Responses before GPT-5.6 reads pages at low detail by default, billed as the text alone
    expect(cost("openai-responses", "gpt-4o")).toBe(text)
    expect(cost("openai-responses", "gpt-4o-mini")).toBe(text)
    expect(cost("openai-responses", "gpt-5.4-nano")).toBe(text)
    // from GPT-5.6 on, and for a model the rule cannot place, with an image of each page at high detail
    expect(cost("openai-responses", "gpt-5.6")).toBe(3 * 2497 + text)
    expect(cost("openai-responses", "gpt-7")).toBe(3 * 765 + text)
    // Chat always sends page images
    expect(cost("openai-chat", "gpt-4o-mini")).toBe(3 * 25501 + text)
    // Gemini 3's media resolution, the part's over the request's
    const low = Request.make([user], { providerOptions: { gemini: { generationConfig: { mediaResolution: "MEDIA_RESOLUTION_LOW" } } } })
    expect(cost("gemini", "gemini-3-pro-preview", low)).toBe(3 * 280)
  })

  it.effect("OpenAI Chat bodies: a PDF given inline as a file part is its pages, one by file id is not priced", () =>
    Effect.gen(function*() {
      const body = (file: object) => ({ model: "gpt-4o", messages: [{ role: "user", content: [{ type: "text", text: "Summarize this." }, { type: "file", file }] }] })
      const data = `data:application/pdf;base64,${base64(makePdf(4, "nested"))}`
      const inline = yield* countOpenAiChatRequest(body({ filename: "a.pdf", file_data: data }))
      const byId = yield* countOpenAiChatRequest(body({ file_id: "file-abc" }))
      // four page images, and "Page 1" to "Page 4": 16 letters and 4 digits, 24 units, 7 tokens
      expect(inline.total - byId.total).toBe(4 * 765 + 7)
      // a data URL whose media type has parameters is a PDF too
      const named = yield* countOpenAiChatRequest(body({ file_data: data.replace("application/pdf;", "application/pdf;name=a.pdf;") }))
      expect(named.total - byId.total).toBe(4 * 765 + 7)
    })
  )

  it.effect("OpenAI Chat bodies: fields named as what the request estimate measures (pages, seconds, size) count as nothing", () =>
    Effect.gen(function*() {
      const body = (part: object) => ({ model: "gpt-4o", messages: [{ role: "user", content: [{ type: "text", text: "Look." }, part] }] })
      const count = function*(part: object) {
        return (yield* countOpenAiChatRequest(body(part))).total
      }
      // a field of the body is not taken for a measure: a file by id stays unpriced, audio without data is none, an image by URL keeps its default
      expect(yield* count({ type: "file", file: { file_id: "file-abc" }, pages: 1_000 })).toBe(yield* count({ type: "file", file: { file_id: "file-abc" } }))
      expect(yield* count({ type: "input_audio", input_audio: { format: "mp3" }, seconds: 3_600 })).toBe(yield* count({ type: "input_audio", input_audio: { format: "mp3" } }))
      const image = { type: "image_url", image_url: { url: "https://example.com/a.png" } }
      expect(yield* count({ ...image, size: { width: 8_000, height: 8_000 } })).toBe(yield* count(image))
    })
  )
})

/** A one-page PDF whose page draws `streams` (dictionary entries and data: compressed with Flate when `flate`). */
const pdfShowing = (streams: ReadonlyArray<{ readonly dict?: string; readonly data: string; readonly flate?: boolean }>, trailer = ""): string => {
  let out = "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"
  out += `3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents [${streams.map((_, i) => `${10 + i} 0 R`).join(" ")}] >>\nendobj\n`
  streams.forEach(({ data, dict = "", flate = false }, i) => {
    const bytes = flate ? String.fromCharCode(...zlibSync(latin1(data))) : data
    out += `${10 + i} 0 obj\n<< /Length ${bytes.length}${flate ? " /Filter /FlateDecode" : ""} ${dict}>>\nstream\n${bytes}\nendstream\nendobj\n`
  })
  return base64(latin1(`${out}trailer\n<< /Root 1 0 R ${trailer}>>\n%%EOF\n`))
}

/** The tokens of `units` of shown text: 3.75 a token, where a letter is one unit, a digit two and a punctuation mark 3.5. */
const tokensFor = (units: number): number => Math.ceil(units / 3.75)

describe("the text a PDF shows", () => {
  it("is the strings its pages show, a letter one unit, a digit two, a punctuation mark 3.5, at 3.75 units a token, without spaces and zero bytes", () => {
    const shown = [
      // 10 letters and an escaped parenthesis (a mark): 13.5 units; the space is none
      "BT /F1 12 Tf 72 720 Td (Hello\\) world) Tj",
      // 5, between kerning numbers
      "[(Wo) -20 (rld)] TJ",
      // 2: a font with two-byte codes spells a Latin letter with a zero byte before it
      "<00480069> Tj",
      // 3: an octal escape is one byte, after a line break (')
      "(a\\101b) '",
      // "2024, p. 7": 5 digits (10), a comma and two full stops (10.5), a letter: 21.5
      "(2024, p. 7.) Tj",
      // a marked span's replacement text is no operand of a text operator, nor a comment a string
      "/Span << /ActualText <FEFF0041> >> BDC EMC % (not shown) Tj",
      "ET",
      // outside a text object, and an inline image whose data holds parentheses and an operator
      "(outside) Tj BI /W 1 /H 1 ID ((((BT (x) Tj EI"
    ].join("\n")
    expect(pdfFactsOfBase64(pdfShowing([{ data: shown, flate: true }]))).toEqual({ pages: 1, textTokens: tokensFor(13.5 + 5 + 2 + 3 + 21.5) })
    // the same, given as it is, or split across two content streams
    expect(pdfFactsOfBase64(pdfShowing([{ data: shown }]))?.textTokens).toBe(12)
    expect(pdfFactsOfBase64(pdfShowing([{ data: "BT (Hello) Tj ET" }, { data: "BT (world) Tj ET", flate: true }]))?.textTokens).toBe(tokensFor(10))
  })

  it("reads forms a page draws, not fonts, images or other streams", () => {
    const text = "BT (abcdefg) Tj ET"
    expect(pdfFactsOfBase64(pdfShowing([{ data: text, dict: "/Type /XObject /Subtype /Form /BBox [0 0 9 9] " }]))?.textTokens).toBe(2)
    for (const dict of ["/Type /XObject /Subtype /Image ", "/Length1 18 ", "/Subtype /Type1C ", "/N 3 ", "/Type /Metadata /Subtype /XML ", "/FunctionType 4 "]) {
      expect([dict, pdfFactsOfBase64(pdfShowing([{ data: text, dict }]))?.textTokens]).toEqual([dict, 0])
    }
  })

  it("is a page of prose, 600 tokens a page, when the text cannot be read: an encrypted file, another filter than Flate, data that does not inflate", () => {
    expect(pdfFactsOfBase64(pdfShowing([{ data: "BT (a) Tj ET" }], "/Encrypt 5 0 R "))?.textTokens).toBe(600)
    expect(pdfFactsOfBase64(pdfShowing([{ data: "42542028612920546a204554>", dict: "/Filter /ASCIIHexDecode " }]))?.textTokens).toBe(600)
    expect(pdfFactsOfBase64(pdfShowing([{ data: "BT (a) Tj ET", dict: "/Filter /FlateDecode " }]))?.textTokens).toBe(600)
    // a scanned page shows no text: none
    expect(pdfFactsOfBase64(pdfShowing([{ data: "q 612 0 0 792 0 0 cm /Im1 Do Q" }]))?.textTokens).toBe(0)
  })

  it.prop(
    "never fails, and counts at most a token for each byte of content, whatever the content streams hold",
    {
      parts: Arbitrary.schema(Schema.Array(Schema.Literals(["BT", "ET", "(", ")", "\\", "<", ">", "<<", "Tj", "TJ", "'", "ID", "EI", "%", "\n", " ", "\\0", "7", "a", "[", "]"]))),
      noise: Arbitrary.schema(Schema.String),
      flate: Arbitrary.schema(Schema.Boolean)
    },
    ({ flate, noise, parts }) => {
      // any bytes among the operators (a string's code units are taken modulo 256)
      const data = parts.join(flate ? "" : " ") + noise
      const facts = pdfFactsOfBase64(pdfShowing([{ data, flate }]))
      expect(facts?.pages).toBe(1)
      // a byte is at most a mark's 3.5 units, under the 3.75 of a token
      expect(facts!.textTokens).toBeLessThanOrEqual(data.length)
    },
    { timeout: 120_000 }
  )

  it("takes time linear in the content's length on hostile content: unclosed strings, a run of ID without EI, nested parentheses", () => {
    for (const unit of ["(", "<", "ID ", "BT ((\\", "BT <", "[(a) "]) {
      const data = unit.repeat(Math.ceil(2_000_000 / unit.length))
      const facts = pdfFactsOfBase64(pdfShowing([{ data, flate: true }]))
      expect([unit, facts?.pages]).toEqual([unit, 1])
    }
  })
})

/** A `/ToUnicode` CMap over codes of `codeBytes` bytes, with its `bfchar` and `bfrange` sections (`entries`). */
const toUnicodeMap = (codeBytes: number, entries: string): string =>
  `/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n1 begincodespacerange\n<${"00".repeat(codeBytes)}> <${"FF".repeat(codeBytes)}>\nendcodespacerange\n${entries}\nendcmap\nend\nend`

/**
 * A one-page PDF whose page (with `resources`; the page tree node's, which
 * its pages inherit, are `inherited`) draws `data`, with `objects` numbered
 * from 20: a dictionary, or a stream's dictionary entries and data
 * (compressed with Flate when the third item is true).
 */
const pdfWithFonts = (
  resources: string,
  data: string,
  objects: ReadonlyArray<string | readonly [dict: string, data: string, flate?: boolean]>,
  inherited = ""
): string => {
  let out = "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
  out += `2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 ${inherited}>>\nendobj\n`
  out += `3 0 obj\n<< /Type /Page /Parent 2 0 R /Resources << ${resources} >> /Contents 10 0 R >>\nendobj\n`
  out += `10 0 obj\n<< /Length ${data.length} >>\nstream\n${data}\nendstream\nendobj\n`
  objects.forEach((object, i) => {
    if (typeof object === "string") out += `${20 + i} 0 obj\n${object}\nendobj\n`
    else {
      const [dict, text, flate = false] = object
      const bytes = flate ? String.fromCharCode(...zlibSync(latin1(text))) : text
      out += `${20 + i} 0 obj\n<< /Length ${bytes.length}${flate ? " /Filter /FlateDecode" : ""} ${dict}>>\nstream\n${bytes}\nendstream\nendobj\n`
    }
  })
  return base64(latin1(`${out}trailer\n<< /Root 1 0 R >>\n%%EOF\n`))
}

/** A composite font (Type 0, two-byte codes) whose `/ToUnicode` map is object `map`, if any. */
const compositeFont = (map?: number) =>
  `<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Arial /Encoding /Identity-H /DescendantFonts [99 0 R]${map === undefined ? "" : ` /ToUnicode ${map} 0 R`} >>`

const tokensOf = (pdf: string): number | undefined => pdfFactsOfBase64(pdf)?.textTokens

describe("the text a PDF shows in composite fonts (two-byte glyph numbers, as Skia, cairo, Quartz and Word write them)", () => {
  // glyph 3 is the space (as in Skia's subset fonts), 0x0125 an "i" (a glyph number over 255), 0x0040-0x0042 "abc"
  const latinMap = toUnicodeMap(2, "3 beginbfchar\n<0003> <0020>\n<0028> <0048>\n<0125> <0069>\nendbfchar\n1 beginbfrange\n<0040> <0042> <0061>\nendbfrange")

  it("counts each glyph as the characters its ToUnicode map gives, spaces as none, the map inflated or as it is", () => {
    // "H i abc " ten times: 50 letters; read as bytes, the glyph numbers and the spaces made 155 units
    const line = "<0028> Tj <0003> Tj <0125> Tj [<00400041> -20 <0042>] TJ <0003> Tj\n"
    const data = `BT /F4 12 Tf\n${line.repeat(10)}ET`
    for (const flate of [false, true]) {
      expect(tokensOf(pdfWithFonts("/Font << /F4 20 0 R >>", data, [compositeFont(21), ["", latinMap, flate]]))).toBe(tokensFor(50))
    }
    // the same font without a map: a glyph is one unit, whatever its number (70 glyphs, the spaces among them)
    expect(tokensOf(pdfWithFonts("/Font << /F4 20 0 R >>", data, [compositeFont()]))).toBe(tokensFor(70))
    // a simple font of that name: bytes, as before, zero bytes not counted: a line's 0x28 ( 0x03 0x01 0x25 % 0x40 @ 0x41 A
    // 0x42 B 0x03 are three marks and five others, 15.5 units
    expect(tokensOf(pdfWithFonts("/Font << /F4 20 0 R >>", data, ["<< /Type /Font /Subtype /TrueType /BaseFont /Arial >>"]))).toBe(tokensFor(155))
  })

  it("prices what the glyphs stand for: a CJK character 0.86 of a token, a Greek letter half, through bfrange arrays too", () => {
    const map = toUnicodeMap(2, "3 beginbfchar\n<0001> <4E2D>\n<0002> <6587>\n<0003> <0020>\nendbfchar\n1 beginbfrange\n<0010> <0011> [<03B1> <03B2>]\nendbfrange")
    // 中文 中文中: 5 ideographs (0.86 of a token each), αβ: 2 letters (half a token each), spaces none
    const data = "BT /C0 10 Tf <000100020003000100020001> Tj (\\000\\020\\000\\021) Tj ET"
    expect(tokensOf(pdfWithFonts("/Font << /C0 20 0 R >>", data, [compositeFont(21), ["", map, true]]))).toBe(tokensFor(5 * 3.75 * 0.86 + 2 * 3.75 / 2))
  })

  it("reads a simple font's one-byte codes through its map too: a subset font's space is any code (OpenOffice numbers its glyphs from 1)", () => {
    const map = toUnicodeMap(1, "3 beginbfchar\n<01> <0061>\n<02> <0062>\n<03> <0020>\nendbfchar")
    const simple = (toUnicode?: number) => `<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Liberation${toUnicode === undefined ? "" : ` /ToUnicode ${toUnicode} 0 R`} >>`
    // "ab ab a " four times: 20 letters; without the map, 28 bytes (code 3 is no space to a byte count; the 0x20 the map
    // leaves out is a space either way)
    const data = `BT /F1 12 Tf ${"(\\001\\002\\003\\001\\002\\003\\001 ) Tj ".repeat(4)}ET`
    expect(tokensOf(pdfWithFonts("/Font << /F1 20 0 R >>", data, [simple(21), ["", map, true]]))).toBe(tokensFor(20))
    expect(tokensOf(pdfWithFonts("/Font << /F1 20 0 R >>", data, [simple()]))).toBe(tokensFor(28))
    // a character written as a byte, not as UTF-16 (<41> for "A"), as some writers do: a letter, not nothing
    const byteMap = toUnicodeMap(1, "1 beginbfchar\n<01> <41>\nendbfchar")
    expect(tokensOf(pdfWithFonts("/Font << /F1 20 0 R >>", `BT /F1 12 Tf (${"\\001".repeat(15)}) Tj ET`, [simple(21), ["", byteMap]]))).toBe(tokensFor(15))
  })

  it("finds the fonts by the names a page's resources give them, in place, in an object of their own, or inherited from the page tree", () => {
    const data = "BT /F1 12 Tf (Hi) Tj /F2 12 Tf <00280125> Tj ET"
    const objects = [compositeFont(21), ["", latinMap] as const, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    // "Hi" in the simple font, "Hi" in the composite one: 4 characters either way
    expect(tokensOf(pdfWithFonts("/Font << /F1 22 0 R /F2 20 0 R >>", data, objects))).toBe(tokensFor(4))
    expect(tokensOf(pdfWithFonts("/Font 23 0 R", data, [...objects, "<< /F1 22 0 R /F2 20 0 R >>"]))).toBe(tokensFor(4))
    expect(tokensOf(pdfWithFonts("", data, objects, "/Resources << /Font << /F1 22 0 R /F2 20 0 R >> >> "))).toBe(tokensFor(4))
    // unresolved (no resources): both read as bytes, the zero bytes not counted: "Hi", then 0x28 ( 0x01 0x25 %
    expect(tokensOf(pdfWithFonts("", data, objects))).toBe(tokensFor(2 + 3.5 + 1 + 3.5))
  })

  it("bounds what a map can make of a glyph: 65,536 codes a map, 8 characters a code, and a map it cannot read is none", () => {
    const hostile = toUnicodeMap(2, `1 beginbfchar\n<0001> <${"2800".repeat(5_000)}>\nendbfchar\n1 beginbfrange\n<00000002> <FFFFFFFF> <0043>\nendbfrange`)
    const data = "BT /F4 12 Tf <00010002> Tj ET"
    const start = performance.now()
    // code 1: eight Braille patterns (a token each); code 2: "C", the first of a range of four billion codes
    expect(tokensOf(pdfWithFonts("/Font << /F4 20 0 R >>", data, [compositeFont(21), ["", hostile]]))).toBe(tokensFor(8 * 3.75 + 1))
    expect(performance.now() - start).toBeLessThan(5_000)
    // a map with another filter is not read (nor taken for a page's content, whose filter would leave the text unread): a glyph is one character
    expect(tokensOf(pdfWithFonts("/Font << /F4 20 0 R >>", data, [compositeFont(21), ["/Filter /LZWDecode ", latinMap]]))).toBe(1)
  })

  it.prop(
    "never fails whatever a map and the strings hold, and counts at most 8 characters of 2.3 tokens for each byte a string shows",
    {
      map: Arbitrary.schema(Schema.Array(Schema.Literals(["beginbfchar", "endbfchar", "beginbfrange", "endbfrange", "begincodespacerange", "<", ">", "[", "]", "<0000>", "<FFFF>", "<0041>", "<D83D>", "<1200>", "<4E2D>", "00", "FF", "\n"]))),
      strings: Arbitrary.schema(Schema.Array(Schema.String)),
      flate: Arbitrary.schema(Schema.Boolean)
    },
    ({ flate, map, strings }) => {
      const shown = strings.map((text) => `<${Buffer.from(text, "latin1").toString("hex")}> Tj`).join(" ")
      const tokens = tokensOf(pdfWithFonts("/Font << /F4 20 0 R >>", `BT /F4 12 Tf ${shown} ET`, [compositeFont(21), ["", map.join(" "), flate]]))
      const bytes = strings.reduce((n, text) => n + text.length, 0)
      expect(tokens).toBeGreaterThanOrEqual(0)
      expect(tokens).toBeLessThanOrEqual(Math.ceil(bytes * 8 * 2.3))
    },
    { timeout: 120_000 }
  )

  it("takes time linear in the file's size on hostile maps and fonts: sections that never end, brackets that never close, ranges over every code again and again, 2,000 fonts", () => {
    const data = "BT /F4 12 Tf <0001> Tj ET"
    const timed = (pdf: string): readonly [number | undefined, number] => {
      const t0 = performance.now()
      const tokens = tokensOf(pdf)
      return [tokens, performance.now() - t0]
    }
    const maps = [
      "beginbfchar ".repeat(100_000),
      `1 beginbfchar\n${"<".repeat(1_000_000)}`,
      `1 beginbfrange\n${"<0000> <0001> [".repeat(100_000)}`,
      // each line would set 32,768 codes again: 1.6 billion in all
      `1 beginbfrange\n${"<0000> <7FFF> <0041>\n".repeat(50_000)}`
    ]
    for (const [i, map] of maps.entries()) {
      const [tokens, ms] = timed(pdfWithFonts("/Font << /F4 20 0 R >>", data, [compositeFont(21), ["", toUnicodeMap(2, map)]]))
      // each took seconds to minutes when a search could restart at every bracket or section, or a range be set again
      expect([i, tokens, ms < 3_000]).toEqual([i, 1, true])
    }
    // 2,000 fonts, each with a map of every code: 131 million codes, of which 524,288 are read
    const objects = Array.from({ length: 2_000 }, (_, i) => [compositeFont(21 + 2 * i), ["", toUnicodeMap(2, "1 beginbfrange\n<0000> <FFFF> <0041>\nendbfrange")] as const]).flat()
    const names = Array.from({ length: 2_000 }, (_, i) => `/F${i} ${20 + 2 * i} 0 R`).join(" ")
    const [tokens, ms] = timed(pdfWithFonts(`/Font << ${names} >>`, data.replace("/F4", "/F1999"), objects))
    expect([tokens, ms < 3_000]).toEqual([1, true])
  }, 300_000)
})
