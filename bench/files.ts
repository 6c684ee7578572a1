/**
 * Files priced by what they hold: a PDF's page count and the tokens of the
 * text its pages show, an audio clip's and a
 * video's duration, an image's size, read from base64 text as requests carry
 * them (an image's also from base64 wrapped in lines, as MIME writes it). Each
 * reader is timed next to the baseline of decoding the same base64 once
 * (the library's own decoder, and Node's native one) in the same run: a
 * reader that reads a header is far below it, the PDF readers, which
 * inflate the streams that hold the page tree and the pages' content, above
 * it. Friendly inputs
 * (20 MB files as writers make them) and adversarial ones (box floods, fake
 * cluster ids, quadratic-bait PDFs, deflate bombs, strings that never close)
 * alike.
 */
import { zlibSync } from "fflate"
import { audioSecondsOfBase64 } from "../src/internal/audio.js"
import { decodeBase64 } from "../src/internal/base64.js"
import { imageSizeOfBase64 } from "../src/internal/imageSize.js"
import { pdfFactsOfBase64, pdfPagesOfBase64 } from "../src/internal/pdf.js"
import { videoSecondsOfBase64 } from "../src/internal/video.js"
import { consume, fmt, table, timePerCall } from "./measure.js"

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0))
const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => Buffer.concat(parts)
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
const box = (type: string, body: Uint8Array | ReadonlyArray<number>): Uint8Array => concat([Uint8Array.from([...u32be(8 + body.length), ...ascii(type)]), Uint8Array.from(body)])
/** Bytes that do not compress and hold no marker any reader looks for (a xorshift stream with the high bit of each byte cleared). */
const filler = (n: number, seed = 0x9e3779b9): Uint8Array => {
  const out = new Uint8Array(n)
  let s = seed
  for (let i = 0; i < n; i++) {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    out[i] = (s >>> 24) & 0x7f
  }
  return out
}
const mvhd = (scale: number, duration: number) => box("mvhd", [0, 0, 0, 0, ...u32be(0), ...u32be(0), ...u32be(scale), ...u32be(duration), ...new Array<number>(80).fill(0)])

/** A PDF of 400 pages of text, each page's content a Flate stream of 60 lines of pseudo-random words shown with TJ and kerning, as a word processor writes it. */
const pdfTextPages = (): Uint8Array => {
  const pages = 400
  const letters = filler(400 * 60 * 12 * 8, 4242)
  let at = 0
  const word = (): string => {
    const length = 2 + (letters[at++]! % 8)
    let out = ""
    for (let k = 0; k < length; k++) out += String.fromCharCode(97 + (letters[at++ % letters.length]! % 26))
    return out
  }
  const parts: Array<Uint8Array> = [latin1("%PDF-1.7\n")]
  for (let i = 0; i < pages; i++) {
    let content = "BT /F1 10 Tf 72 740 Td 12 TL\n"
    for (let line = 0; line < 60; line++) content += `[${Array.from({ length: 12 }, () => `(${word()}) -250`).join(" ")}] TJ T*\n`
    const packed = zlibSync(latin1(`${content}ET\n`))
    parts.push(latin1(`${100 + i} 0 obj\n<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`), packed, latin1("\nendstream\nendobj\n"))
  }
  const kids = Array.from({ length: pages }, (_, i) => `${600 + i} 0 R`).join(" ")
  let tail = `1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [${kids}] /Count ${pages} >>\nendobj\n`
  for (let i = 0; i < pages; i++) tail += `${600 + i} 0 obj\n<< /Type /Page /Parent 2 0 R /Contents ${100 + i} 0 R >>\nendobj\n`
  parts.push(latin1(`${tail}%%EOF\n`))
  return concat(parts)
}

/** A 1 MB PDF whose one content stream inflates to 1 GB of zeros. */
const pdfContentBomb = (): Uint8Array => {
  const packed = zlibSync(new Uint8Array(64 * 1024 * 1024))
  const parts = [latin1(`%PDF-1.5\n1 0 obj\n<< /Length ${packed.length * 16} /Filter /FlateDecode >>\nstream\n`)]
  for (let i = 0; i < 16; i++) parts.push(packed)
  parts.push(latin1("\nendstream\nendobj\n%%EOF\n"))
  return concat(parts)
}

/** A 4 MB content stream, given as it is, of text objects that open a string and never close it. */
const pdfUnclosedStrings = (): Uint8Array => latin1(`%PDF-1.5\n1 0 obj\n<< /Length 4000000 >>\nstream\n${"BT ((<\\".repeat(500_000)}\nendstream\nendobj\n%%EOF\n`)

/** A 20 MB PDF of 400 pages as pdfTeX writes it: content streams first, the page tree in a compressed object stream at the end. */
const pdfTexStyle = (): Uint8Array => {
  const pages = 400
  const parts: Array<Uint8Array> = [latin1("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")]
  const page = 50_000
  for (let i = 0; i < pages; i++) parts.push(latin1(`${100 + i} 0 obj\n<< /Length ${page} >>\nstream\n`), filler(page, i + 1), latin1("\nendstream\nendobj\n"))
  const kids = Array.from({ length: pages }, (_, i) => `${600 + i} 0 R`).join(" ")
  const objects = [`<< /Type /Catalog /Pages 2 0 R >>`, `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`, ...Array.from({ length: pages }, (_, i) => `<< /Type /Page /Parent 2 0 R /Contents ${100 + i} 0 R >>`)]
  const ids = [1, 2, ...Array.from({ length: pages }, (_, i) => 600 + i)]
  let offsets = ""
  let body = ""
  objects.forEach((o, i) => {
    offsets += `${ids[i]} ${body.length} `
    body += `${o}\n`
  })
  const packed = zlibSync(latin1(offsets + body))
  parts.push(latin1(`3 0 obj\n<< /Type /ObjStm /N ${objects.length} /First ${offsets.length} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`), packed, latin1("\nendstream\nendobj\n%%EOF\n"))
  return concat(parts)
}

/** 150 KB of digits: a number that never ends, where a naive scan for `n n obj` restarts at every digit. */
const pdfDigits = (): Uint8Array => concat([latin1("%PDF-1.4\n"), latin1("7".repeat(150_000))])

/** 30,000 object streams that never end: each one's search for `endstream` reads to the end of the file. */
const pdfOpenStreams = (): Uint8Array => latin1(`%PDF-1.5\n${"1 0 obj\n<< /Type /ObjStm /Filter /FlateDecode >>\nstream\n".repeat(30_000)}`)

/** A deflate bomb: an object stream that inflates to 1 GB of zeros (the reader stops at its cap). */
const pdfBomb = (): Uint8Array => {
  const packed = zlibSync(new Uint8Array(64 * 1024 * 1024))
  const parts = [latin1(`%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${packed.length * 16} >>\nstream\n`)]
  for (let i = 0; i < 16; i++) parts.push(packed)
  parts.push(latin1("\nendstream\nendobj\n%%EOF\n"))
  return concat(parts)
}

/** A 20 MB MP4 written before its index: a media box, then the movie box with the duration at the end. */
const mp4IndexLast = (): Uint8Array => concat([box("ftyp", [...ascii("isom"), 0, 0, 2, 0]), box("mdat", filler(20_000_000)), box("moov", mvhd(600, 600 * 97))])

/** A 10 MB fragmented MP4 as a browser's MediaRecorder writes it: 2,000 fragments of one track, each with its decode time and sample durations. */
const mp4Fragmented = (): Uint8Array => {
  const tkhd = box("tkhd", [0, 0, 0, 3, ...u32be(0), ...u32be(0), ...u32be(1), ...new Array<number>(72).fill(0)])
  const mdhd = box("mdhd", [0, 0, 0, 0, ...u32be(0), ...u32be(0), ...u32be(90_000), ...u32be(0), 0, 0, 0, 0])
  const trak = box("trak", concat([tkhd, box("mdia", mdhd)]))
  const trex = box("trex", [0, 0, 0, 0, ...u32be(1), ...u32be(1), ...u32be(3000), ...u32be(0), ...u32be(0)])
  const parts = [box("ftyp", [...ascii("isom"), 0, 0, 2, 0]), box("moov", concat([mvhd(1000, 0), trak, box("mvex", trex)]))]
  for (let f = 0; f < 2_000; f++) {
    const samples = 30
    const tfhd = box("tfhd", [0, 2, 0, 0, ...u32be(1)])
    const tfdt = box("tfdt", [1, 0, 0, 0, ...u32be(0), ...u32be(f * samples * 3000)])
    const trun = box("trun", [0, 0, 1, 1, ...u32be(samples), ...u32be(0), ...Array.from({ length: samples }, () => u32be(3000)).flat()])
    parts.push(box("moof", box("traf", concat([tfhd, tfdt, trun]))), box("mdat", filler(5_000, f + 7)))
  }
  return concat(parts)
}

/** 300,000 empty fragment boxes after a movie box without a duration: the fragment walk's worst case. */
const mp4BoxFlood = (): Uint8Array => {
  const parts = [box("ftyp", [...ascii("isom"), 0, 0, 2, 0]), box("moov", mvhd(600, 0))]
  const flood = new Uint8Array(8 * 300_000)
  for (let i = 0; i < 300_000; i++) flood.set([0, 0, 0, 8, ...ascii("moof")], i * 8)
  return concat([...parts, flood])
}

/** A 5 MB WebM a browser recorded (no duration): clusters of blocks, timed by the last one. */
const webmRecorded = (): Uint8Array => {
  const parts: Array<Uint8Array<ArrayBufferLike>> = [Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x84, 0x42, 0x82, 0x81, 0x77, 0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])]
  for (let c = 0; c < 500; c++) {
    const time = c * 1000
    const blocks: Array<Uint8Array<ArrayBufferLike>> = []
    for (let b = 0; b < 10; b++) blocks.push(Uint8Array.from([0xa3, 0x43, 0xe9, 0x81, 0, b * 100 & 0xff]), filler(1000, c * 10 + b + 1).subarray(0, 1000 - 3))
    parts.push(Uint8Array.from([0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xe7, 0x83, (time >> 16) & 0xff, (time >> 8) & 0xff, time & 0xff]), ...blocks)
  }
  return concat(parts)
}

/** 2 MB whose end is full of cluster ids that are not clusters: the backward search's worst case. */
const webmFakeClusters = (): Uint8Array => {
  const out = new Uint8Array(2_000_000)
  out.set([0x1a, 0x45, 0xdf, 0xa3, 0x80], 0)
  for (let i = 100; i + 8 < out.length; i += 6) out.set([0x1f, 0x43, 0xb6, 0x75, 0x81, 0x00], i)
  return out
}

/** A 20 MB 16-bit WAV with its data chunk after a 1 MB LIST chunk (read in place past the head). */
const wavListFirst = (): Uint8Array => {
  const u32le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff]
  const list = 1_000_000
  const data = 19_000_000
  return concat([
    Uint8Array.from([...ascii("RIFF"), ...u32le(4 + 8 + list + 24 + 8 + data), ...ascii("WAVE"), ...ascii("LIST"), ...u32le(list)]),
    new Uint8Array(list),
    Uint8Array.from([...ascii("fmt "), ...u32le(16), 1, 0, 2, 0, ...u32le(44_100), ...u32le(176_400), 4, 0, 16, 0, ...ascii("data"), ...u32le(data)]),
    filler(data)
  ])
}

/** 20 MB of noise: no header any reader knows, so each looks and gives up. */
const noise = (): Uint8Array => filler(20_000_000, 12345)

/** A JPEG whose frame header comes after 255 APP1 segments of 64 KB (16 MB): the most the size reader walks. */
const jpegLateFrame = (): Uint8Array => {
  const segment = (marker: number, body: Uint8Array) => concat([Uint8Array.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body])
  const frame = Uint8Array.from([8, 0, 480, 2, 128, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1].map((b) => b & 0xff))
  const parts: Array<Uint8Array> = [Uint8Array.from([0xff, 0xd8])]
  for (let i = 0; i < 255; i++) parts.push(segment(0xe1, filler(65_533, i + 7)))
  parts.push(segment(0xc0, frame))
  return concat(parts)
}

/** Base64 cut into lines of `width` characters. */
const lines = (width: number, separator = "\n") => (text: string): string => {
  const out: Array<string> = []
  for (let i = 0; i < text.length; i += width) out.push(text.slice(i, i + width))
  return out.join(separator)
}

export const runFilesBench = (): void => {
  console.log("\n## Files: PDF pages, audio and video durations from base64, vs decoding the same base64 once\n")
  const inputs: ReadonlyArray<readonly [name: string, kind: "pdf" | "pdfText" | "audio" | "video" | "image", make: () => Uint8Array, text?: (base64: string) => string]> = [
    ["PDF, 400 pages, page tree compressed at the end (20 MB)", "pdf", pdfTexStyle],
    ["PDF text (pages and text tokens): the same 20 MB", "pdfText", pdfTexStyle],
    ["PDF text: 400 pages of text in Flate streams", "pdfText", pdfTextPages],
    ["PDF text, adversarial: a content stream that inflates to 1 GB", "pdfText", pdfContentBomb],
    ["PDF text, adversarial: 4 MB of strings never closed", "pdfText", pdfUnclosedStrings],
    ["PDF, adversarial: 150 KB of digits", "pdf", pdfDigits],
    ["PDF, adversarial: 30,000 object streams that never end", "pdf", pdfOpenStreams],
    ["PDF, adversarial: deflate bomb (1 GB inflated)", "pdf", pdfBomb],
    ["MP4, index at the end (20 MB)", "video", mp4IndexLast],
    ["MP4, 2,000 fragments (10 MB)", "video", mp4Fragmented],
    ["MP4, adversarial: 300,000 empty fragment boxes", "video", mp4BoxFlood],
    ["WebM recorded without a duration (5 MB)", "video", webmRecorded],
    ["WebM, adversarial: 2 MB tail of fake cluster ids", "video", webmFakeClusters],
    ["WAV, data past a 1 MB LIST chunk (20 MB)", "audio", wavListFirst],
    ["noise read as video (20 MB)", "video", noise],
    ["noise read as audio (20 MB)", "audio", noise],
    ["JPEG, frame header after 255 segments of 64 KB (16 MB)", "image", jpegLateFrame],
    ["the same in MIME lines of 76 characters", "image", jpegLateFrame, lines(76, "\r\n")],
    ["the same, adversarial: lines of one character", "image", jpegLateFrame, lines(1)]
  ]
  const rows: Array<Array<string>> = []
  for (const [name, kind, make, wrap] of inputs) {
    const bytes = make()
    const plain = Buffer.from(bytes).toString("base64")
    const text = wrap === undefined ? plain : wrap(plain)
    const read = kind === "pdf"
      ? () => pdfPagesOfBase64(text)
      : kind === "pdfText"
      ? () => pdfFactsOfBase64(text)?.textTokens
      : kind === "audio"
      ? () => audioSecondsOfBase64(text)
      : kind === "video"
      ? () => videoSecondsOfBase64(text)
      : () => imageSizeOfBase64(text)?.width
    const reads = timePerCall(() => consume(read()), { minMs: 100, rounds: 3 })
    const ours = timePerCall(() => consume(decodeBase64(text)), { minMs: 100, rounds: 3 })
    const native = timePerCall(() => consume(Buffer.from(text, "base64")), { minMs: 100, rounds: 3 })
    rows.push([name, fmt(bytes.length / 1e6, 2), fmt(read() ?? Number.NaN, 2), fmt(reads, 2), fmt(ours, 2), fmt(native, 2), fmt(reads / ours, 2)])
  }
  table(["input", "MB", "pages, seconds, text tokens or width", "read ms", "decode ms (ours)", "decode ms (Buffer)", "read / decode"], rows)
  console.log("\nEach figure is read once per source in a conversation (remembered per file source); a raw request body is read on each count.")
}

if (import.meta.url === `file://${process.argv[1]}`) runFilesBench()
