/**
 * PDF files as the fuzz suite attacks them: files a generator writes with the
 * structures the page count and the text reader follow (page trees, object
 * streams, content streams as they are or inflated, composite and simple
 * fonts with `/ToUnicode` maps found by their resource names), then cut,
 * flipped, filled with odd numbers, huge or deeply nested strings and maps,
 * or replaced by hostile structures (a font that is its own map, a map that
 * is a page's content, ranges over every code). Each file is given as base64
 * to the PDF reader, to the estimator's block and request estimates for
 * Claude and OpenAI (which read its text), and to the exact Chat counter as a
 * file part.
 */
import { Block, Message, Request, TokenEstimator } from "../../src/index.js"
import { countOpenAiChatRequest } from "../../src/exact/openAiChatRequest.js"
import { binaryOfBytes } from "../../src/internal/base64.js"
import { pdfFactsOfBase64 } from "../../src/internal/pdf.js"
import { zlibSync } from "fflate"
import { type CaseClass, hugeString, ODD_NUMBERS, randomBytes, type Rng, type Sizes } from "./generators.js"
import type { Target } from "./harness.js"

/** A binary string's bytes. */
const bytesOf = (binary: string): Uint8Array => Uint8Array.from(binary, (c) => c.charCodeAt(0) & 0xff)
const binaryOf = binaryOfBytes
const deflated = (text: string): string => binaryOf(zlibSync(bytesOf(text)))

const hex = (n: number, bytes: number): string => n.toString(16).padStart(bytes * 2, "0").slice(-bytes * 2).toUpperCase()

/** A `/ToUnicode` CMap of random `bfchar` and `bfrange` entries over codes of `codeBytes` bytes. */
const randomMap = (r: Rng, codeBytes: number): string => {
  const code = () => `<${hex(r.int(codeBytes === 1 ? 256 : 65536), codeBytes)}>`
  const target = () => `<${hex(r.pick([0x20, 0x41 + r.int(26), 0x3b1, 0x4e2d, 0xac00, 0x1200, 0x2800, 0xd83d, 0xe000]), 2)}${r.chance(0.1) ? "0066" : ""}>`
  let out = `/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n1 begincodespacerange\n<${"00".repeat(codeBytes)}> <${"FF".repeat(codeBytes)}>\nendcodespacerange\n`
  for (let s = r.int(4); s >= 0; s--) {
    if (r.chance(0.5)) {
      out += "2 beginbfchar\n"
      for (let i = r.int(6); i >= 0; i--) out += `${code()} ${target()}\n`
      out += "endbfchar\n"
    } else {
      out += "1 beginbfrange\n"
      for (let i = r.int(4); i >= 0; i--) {
        out += `${code()} ${code()} ${r.chance(0.5) ? target() : `[${Array.from({ length: r.int(4) }, target).join(" ")}]`}\n`
      }
      out += "endbfrange\n"
    }
  }
  return `${out}endcmap\nend\nend`
}

/** A content stream's text: random text operators over the fonts `names`, strings literal and hex. */
const randomContent = (r: Rng, names: ReadonlyArray<string>): string => {
  const parts: Array<string> = []
  for (let i = 1 + r.int(30); i > 0; i--) {
    parts.push(
      r.pick([
        () => "BT",
        () => "ET",
        () => `/${r.pick(names)} ${r.int(30)} Tf`,
        () => `(${r.pick(["Hello", "a\\(b\\)", "\\101\\102", "\\000H\\000i", "x\\\ny", "\u00e9\u00e8"])}) Tj`,
        () => `<${Array.from({ length: 1 + r.int(6) }, () => hex(r.int(65536), 2)).join("")}> Tj`,
        () => `[(ab) -20 <0041> 30 (c)] TJ`,
        () => "(line) '",
        () => `1 2 (quoted) "`,
        () => "% a comment (not shown) Tj",
        () => "/Span << /ActualText <FEFF0041> >> BDC EMC",
        () => "BI /W 1 /H 1 ID ((x) Tj EI",
        () => `${r.int(700)} ${r.int(800)} Td`
      ])()
    )
  }
  return parts.join(r.pick(["\n", " ", "\r\n"]))
}

/**
 * A PDF (a binary string) in one of the shapes writers produce: a page tree
 * of a few pages, each with content streams as they are or inflated, fonts
 * named in the page's resources, in a resource object, or inherited from
 * the tree, composite or simple, with or without a map; sometimes the pages
 * in a compressed object stream.
 */
export const randomPdf = (r: Rng): string => {
  const pages = 1 + r.int(4)
  const objects: Array<string> = []
  const add = (body: string): number => objects.push(body)
  const stream = (dict: string, data: string): string => {
    const flate = r.chance(0.5)
    const bytes = flate ? deflated(data) : data
    const length = r.chance(0.9) ? bytes.length : r.int(bytes.length * 2 + 1)
    return `<< /Length ${length}${flate ? " /Filter /FlateDecode" : ""} ${dict}>>\nstream\n${bytes}\nendstream`
  }
  const fontNames: Array<string> = []
  const fontEntries: Array<string> = []
  for (let f = 1 + r.int(3); f > 0; f--) {
    const name = `F${f}`
    const composite = r.chance(0.6)
    const map = r.chance(0.7) ? add(stream("", randomMap(r, composite ? 2 : 1))) : undefined
    const toUnicode = map === undefined ? "" : ` /ToUnicode ${map} 0 R`
    const font = add(composite ? `<< /Type /Font /Subtype /Type0 /BaseFont /F+Sub /Encoding /Identity-H${toUnicode} >>` : `<< /Type /Font /Subtype /TrueType /BaseFont /F+Sub${toUnicode} >>`)
    fontNames.push(name)
    fontEntries.push(`/${name} ${font} 0 R`)
  }
  const fontDict = `<< ${fontEntries.join(" ")} >>`
  const where = r.pick(["page", "object", "tree", "nowhere"] as const)
  const resourceObject = where === "object" ? add(fontDict) : 0
  const pagesId = objects.length + pages * 2 + 1
  const kids: Array<number> = []
  for (let p = 0; p < pages; p++) {
    const content = add(stream(r.chance(0.1) ? "/Type /XObject /Subtype /Form /BBox [0 0 9 9] " : "", randomContent(r, fontNames)))
    const resources = where === "page" ? `/Resources << /Font ${fontDict} >>` : where === "object" ? `/Resources << /Font ${resourceObject} 0 R >>` : ""
    kids.push(add(`<< /Type /Page /Parent ${pagesId} 0 R ${resources} /Contents ${content} 0 R >>`))
  }
  const count = r.chance(0.9) ? pages : r.pick([0, -1, 99999999, pages + 1])
  const tree = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${count}${where === "tree" ? ` /Resources << /Font ${fontDict} >>` : ""} >>`
  while (objects.length < pagesId - 1) add("null")
  add(tree)
  const catalog = add(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`)
  let out = `%PDF-1.${r.int(8)}\n%\u00e2\u00e3\u00cf\u00d3\n`
  if (r.chance(0.2)) {
    // the page tree and the pages in a compressed object stream, the rest outside it
    const inside = [...kids, pagesId]
    let header = ""
    let body = ""
    for (const id of inside) {
      header += `${id} ${body.length} `
      body += `${objects[id - 1]}\n`
    }
    const data = deflated(header + body)
    for (const [i, o] of objects.entries()) if (!inside.includes(i + 1)) out += `${i + 1} 0 obj\n${o}\nendobj\n`
    out += `${objects.length + 1} 0 obj\n<< /Type /ObjStm /N ${inside.length} /First ${header.length} /Length ${data.length} /Filter /FlateDecode >>\nstream\n${data}\nendstream\nendobj\n`
  } else {
    for (const [i, o] of objects.entries()) out += `${i + 1} 0 obj\n${o}\nendobj\n`
  }
  return `${out}trailer\n<< /Root ${catalog} 0 R${r.chance(0.05) ? " /Encrypt 1 0 R" : ""} >>\n%%EOF\n`
}

/** Hostile structures, each a whole file: what a careless reader loops on, recurses into or reads again and again. */
const hostilePdfs: ReadonlyArray<(r: Rng) => string> = [
  // a font that is its own map, and a map that is a page's content
  () => `%PDF-1.7\n1 0 obj\n<< /Type /Font /Subtype /Type0 /ToUnicode 1 0 R >>\nstream\nbeginbfrange <0000> <FFFF> <0041> endbfrange\nendstream\nendobj\n2 0 obj\n<< /Type /Page /Resources << /Font << /F1 1 0 R /F2 3 0 R >> >> /Contents 3 0 R >>\nendobj\n3 0 obj\n<< /Type /Font /Subtype /Type0 /ToUnicode 3 0 R /Length 30 >>\nstream\nBT /F1 1 Tf <0001> Tj /F2 1 Tf (x) Tj ET\nendstream\nendobj\n`,
  // resources that name an object that is not a dictionary of fonts: the page itself, a stream, nothing
  () => `%PDF-1.7\n1 0 obj\n<< /Type /Page /Resources << /Font 1 0 R >> /Contents 2 0 R >>\nendobj\n2 0 obj\n<< /Length 20 /Font 2 0 R >>\nstream\nBT /Font 1 Tf (a) Tj ET\nendstream\nendobj\n3 0 obj\n<< /Font 99 0 R >>\nendobj\n`,
  // thousands of fonts of one name, each with a map over every code
  (r) => {
    let out = "%PDF-1.7\n"
    const n = 500 + r.int(1500)
    for (let i = 0; i < n; i++) {
      out += `${2 * i + 10} 0 obj\n<< /Type /Font /Subtype /Type0 /ToUnicode ${2 * i + 11} 0 R >>\nendobj\n`
      out += `${2 * i + 11} 0 obj\n<< /Length 40 >>\nstream\nbeginbfrange <0000> <FFFF> <4E00> endbfrange\nendstream\nendobj\n`
    }
    out += `1 0 obj\n<< /Type /Page /Resources << /Font << ${Array.from({ length: n }, (_, i) => `/F${i % 7} ${2 * i + 10} 0 R`).join(" ")} >> >> /Contents 2 0 R >>\nendobj\n`
    return `${out}2 0 obj\n<< /Length 30 >>\nstream\nBT /F3 1 Tf <00010002> Tj ET\nendstream\nendobj\n`
  },
  // maps that never end a section, never close a bracket, or set the same codes again and again
  (r) => {
    const map = r.pick(["beginbfchar ".repeat(50_000), `beginbfchar ${"<".repeat(200_000)}`, `beginbfrange ${"<0000> <0001> [".repeat(30_000)}`, `beginbfrange ${"<0000> <7FFF> <0041>\n".repeat(20_000)}`])
    return `%PDF-1.7\n1 0 obj\n<< /Type /Font /Subtype /Type0 /ToUnicode 2 0 R >>\nendobj\n2 0 obj\n<< /Length ${map.length} >>\nstream\n${map}\nendstream\nendobj\n3 0 obj\n<< /Type /Page /Resources << /Font << /F1 1 0 R >> >> /Contents 4 0 R >>\nendobj\n4 0 obj\n<< /Length 9 >>\nstream\nBT /F1 1 Tf <0001> Tj ET\nendstream\nendobj\n`
  },
  // names and operators without end: a name of a million characters, Tf with no name, a string in a font never chosen
  () => `%PDF-1.7\n1 0 obj\n<< /Length 9 >>\nstream\nBT /${"N".repeat(1_000_000)} 1 Tf Tf (a) Tj <${"0".repeat(99_999)}> Tj ET\nendstream\nendobj\n`
]

const validBase64 = (binary: string): string => Buffer.from(binary, "latin1").toString("base64")

/** A PDF of the class `cls`, as base64. */
export const pdfCase = (cls: CaseClass, r: Rng, sizes: Sizes): string => {
  const pdf = randomPdf(r)
  switch (cls) {
    case "valid":
      return validBase64(pdf)
    case "truncated":
      return validBase64(pdf.slice(0, r.int(pdf.length + 1)))
    case "stream-cuts": {
      // bytes flipped here and there
      const bytes = bytesOf(pdf)
      for (let i = 1 + r.int(20); i > 0; i--) bytes[r.int(bytes.length)] = r.int(256)
      return Buffer.from(bytes).toString("base64")
    }
    case "random-bytes":
      return validBase64(`%PDF-1.7\n${binaryOf(randomBytes(r, 1 + r.int(4000)))}`)
    case "numbers":
      return validBase64(pdf.replace(/\d+/g, (d) => (r.chance(0.3) ? String(r.pick(ODD_NUMBERS)) : d)))
    case "surrogates": {
      // base64 with lone surrogates, white space, URL-safe letters and padding where it does not belong
      const text = validBase64(pdf)
      const at = r.int(text.length + 1)
      return `${text.slice(0, at)}${r.pick(["\ud800", "\udfff", " \n", "-_", "==", "\u00e9"])}${text.slice(at)}`
    }
    case "huge-strings": {
      const huge = hugeString(r, sizes.hugeChars).replace(/[^\x00-\xff]/g, "x")
      const what = r.pick(["content", "map", "dict"] as const)
      if (what === "dict") return validBase64(`%PDF-1.7\n1 0 obj\n<< /Type /Page /Resources << /Font << /F1 ${huge} >> >> >>\nendobj\n`)
      if (what === "map") {
        return validBase64(pdf.replace("begincmap", `begincmap\nbeginbfchar <0001> <${"2800".repeat(sizes.hugeChars >> 3)}> endbfchar ${huge}`))
      }
      return validBase64(`%PDF-1.7\n1 0 obj\n<< /Length ${huge.length} >>\nstream\nBT (${huge}) Tj <${"41".repeat(sizes.hugeChars >> 2)}> Tj ET\nendstream\nendobj\n`)
    }
    case "deep": {
      const levels = sizes.deepLevels
      return validBase64(r.chance(0.5)
        ? `%PDF-1.7\n1 0 obj\n${"<< /Font ".repeat(levels)}${">>".repeat(levels)}\nendobj\n`
        : `%PDF-1.7\n1 0 obj\n<< /Length 9 >>\nstream\nBT ${"(".repeat(levels)}a${")".repeat(levels)} Tj [${"[".repeat(levels)}] TJ ET\nendstream\nendobj\n`)
    }
    case "agent-edges":
      return validBase64(r.pick(hostilePdfs)(r))
    default:
      return validBase64(pdf)
  }
}

export const pdfClasses: ReadonlyArray<CaseClass> = ["valid", "truncated", "stream-cuts", "random-bytes", "numbers", "surrogates", "huge-strings", "deep", "agent-edges"]

const isCount = (n: unknown): boolean => typeof n === "number" && Number.isSafeInteger(n) && n >= 0

const requestWith = (data: string) => Request.make([Message.user([Block.text("Summarize this."), Block.document(Block.base64(data))])])

/** The functions that read a PDF given as base64. */
export const pdfTargets: ReadonlyArray<Target<string>> = [
  {
    name: "the PDF reader (pages and text)",
    run: (data) => pdfFactsOfBase64(data) ?? null,
    check: (value) => {
      if (value === null) return undefined
      const facts = value as { readonly pages: number; readonly textTokens: number }
      return isCount(facts.pages) && facts.pages >= 1 && isCount(facts.textTokens) ? undefined : `not counts: ${JSON.stringify(facts)}`
    }
  },
  {
    name: "TokenEstimator.estimateBlock (a document)",
    run: (data) => TokenEstimator.heuristic.estimateBlock(Block.document(Block.base64(data))),
    check: (value) => (isCount(value) ? undefined : `not a count: ${String(value)}`)
  },
  ...(["anthropic", "openai-responses", "openai-chat"] as const).map((provider): Target<string> => ({
    name: `TokenEstimator.estimateRequest (${provider}, a document)`,
    run: (data) => TokenEstimator.heuristic.estimateRequest(requestWith(data), { provider, model: provider === "anthropic" ? "claude-sonnet-4-5" : "gpt-4o" }).total,
    check: (value) => (isCount(value) ? undefined : `not a count: ${String(value)}`)
  })),
  {
    name: "countOpenAiChatRequest (o200k, a file part)",
    run: (data) =>
      countOpenAiChatRequest({
        model: "gpt-4o",
        messages: [{ role: "user", content: [{ type: "text", text: "Summarize this." }, { type: "file", file: { filename: "a.pdf", file_data: `data:application/pdf;base64,${data}` } }] }]
      } as never, { encoding: "o200k" })
  }
]
