/**
 * How close the PDF text estimate comes to what a text extractor reads, on
 * PDFs of your choice: for each file, the o200k tokens of the text pdf.js
 * extracts (items joined by spaces, lines by line breaks) next to the
 * estimate the request estimates use (`pdfFactsOfBase64`), then the ratio's
 * percentiles over the files with at least `--min` tokens (default 50) and
 * at most 60 pages. Not part of `npm test`: it needs pdf.js, which is not a
 * dependency.
 *
 *   npm i --no-save pdfjs-dist
 *   node_modules/.bin/node --import tsx scripts/pdf-text-check.ts DIR [--min 50]
 *
 * The README's held-out figure is this script on pdf.js's own test PDFs
 * (`test/pdfs` of mozilla/pdf.js at commit 0f26334f9; about five minutes).
 * pdf.js reads the files in child processes with a time limit: some test
 * files make it run for minutes.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { encode } from "gpt-tokenizer/encoding/o200k_base"
import { PDF_PAGE_TEXT_TOKENS, pdfFactsOfBase64 } from "../src/internal/pdf.js"

const args = process.argv.slice(2)

if (args[0] === "--files") {
  // the child: pdf.js's text of each file, a JSON line each on stdout as it is read
  const pdfjs = (await import("pdfjs-dist/legacy/build/pdf.mjs" as string)) as {
    readonly getDocument: (options: object) => { readonly promise: Promise<PdfDocument> }
  }
  interface PdfDocument {
    readonly numPages: number
    readonly getPage: (n: number) => Promise<{ readonly getTextContent: () => Promise<{ readonly items: ReadonlyArray<{ readonly str?: string; readonly hasEOL?: boolean }> }> }>
  }
  for (const file of args.slice(1)) {
    try {
      const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync(file)), verbosity: 0, isEvalSupported: false }).promise
      if (doc.numPages > 60) {
        console.log(JSON.stringify({ file, pages: doc.numPages }))
        continue
      }
      let text = ""
      for (let p = 1; p <= doc.numPages; p++) {
        const content = await (await doc.getPage(p)).getTextContent()
        for (const item of content.items) if (item.str !== undefined) text += item.str + (item.hasEOL === true ? "\n" : " ")
        text += "\n"
      }
      console.log(JSON.stringify({ file, pages: doc.numPages, tokens: encode(text).length }))
    } catch {
      console.log(JSON.stringify({ file, pages: 0 }))
    }
  }
  process.exit(0)
}

const dir = args[0]
const minIndex = args.indexOf("--min")
const min = minIndex === -1 ? 50 : Number(args[minIndex + 1])
if (dir === undefined || !fs.statSync(dir).isDirectory()) {
  console.log("usage: scripts/pdf-text-check.ts DIR [--min 50]")
  process.exit(2)
}

const self = fileURLToPath(import.meta.url)

/**
 * pdf.js's token counts by file: files are read 25 to a child process, which
 * has a minute; a file it had not finished when the minute ran out is
 * skipped, and the files after it go to the next child.
 */
const extracted = new Map<string, { readonly pages: number; readonly tokens?: number }>()
const files = fs.readdirSync(dir).filter((n) => n.toLowerCase().endsWith(".pdf")).sort().map((n) => path.join(dir, n))
const queue = [...files]
while (queue.length > 0) {
  const batch = queue.splice(0, 25)
  const child = spawnSync(process.execPath, ["--import", "tsx", self, "--files", ...batch], { timeout: 60_000, encoding: "utf8", maxBuffer: 1 << 24 })
  for (const line of (child.stdout ?? "").split("\n")) {
    if (!line.startsWith("{")) continue
    const read = JSON.parse(line) as { readonly file: string; readonly pages: number; readonly tokens?: number }
    extracted.set(read.file, read)
  }
  // the file the child was reading when it was stopped is skipped; the rest of the batch is read again
  const done = batch.findIndex((f) => !extracted.has(f))
  if (done !== -1) queue.unshift(...batch.slice(done + 1))
}

const rows: Array<{ readonly file: string; readonly tokens: number; readonly estimate: number }> = []
let unreadable = 0
let skipped = 0
for (const file of files) {
  const name = path.basename(file)
  const read = extracted.get(file)
  if (read?.tokens === undefined || read.tokens < min) {
    skipped++
    continue
  }
  const facts = pdfFactsOfBase64(fs.readFileSync(file).toString("base64"))
  if (facts === undefined) {
    skipped++
    continue
  }
  // a file whose text cannot be read is priced at a page of prose a page: not an estimate of its text
  if (facts.textTokens === facts.pages * PDF_PAGE_TEXT_TOKENS) {
    unreadable++
    continue
  }
  rows.push({ file: name, tokens: read.tokens, estimate: facts.textTokens })
}

const ratios = rows.map((r) => r.estimate / r.tokens).sort((a, b) => a - b)
const at = (p: number): string => (ratios.length === 0 ? "-" : ratios[Math.min(ratios.length - 1, Math.floor(p * ratios.length))]!.toFixed(2))
console.log(`${rows.length} PDFs with ${min} tokens of text or more (${skipped} skipped: fewer tokens, more than 60 pages, or pdf.js failed; ${unreadable} whose text the estimate cannot read)`)
console.log(`estimate / pdf.js tokens: p10 ${at(0.1)}, p25 ${at(0.25)}, median ${at(0.5)}, p75 ${at(0.75)}, p90 ${at(0.9)}`)
console.log(`under half: ${ratios.filter((x) => x < 0.5).length}, over twice: ${ratios.filter((x) => x > 2).length}`)
for (const r of [...rows].sort((a, b) => a.estimate / a.tokens - b.estimate / b.tokens).slice(0, 10)) {
  console.log(`  ${(r.estimate / r.tokens).toFixed(2)}  ${r.tokens} tokens, estimated ${r.estimate}: ${r.file}`)
}
