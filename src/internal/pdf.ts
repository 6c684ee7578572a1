/**
 * How many pages a PDF holds, read from its structure, how much text its
 * pages show, read from their content streams, and what a PDF costs each
 * provider.
 *
 * Every provider bills a PDF by its pages (Gemini a flat figure per page,
 * Claude and OpenAI an image of each page and its text), never by its size
 * in bytes, which says little: a scanned page can take 500 KB and a page of
 * text 3 KB. The page count is read from the file's structure, the first of:
 *
 * 1. a linearized file's page count (`/Linearized ... /N`), in its first
 *    object, always uncompressed, unless the file was updated since (it is
 *    no longer the length `/L` gives);
 * 2. the page tree's `/Count` (the root's the catalog names, else the
 *    largest of the `/Type /Pages` nodes: the root; an incremental update
 *    that removed pages keeps an older, larger root, which errs on the safe
 *    side);
 * 3. the number of distinct `/Type /Page` objects;
 *
 *    both read from the file's objects and, unless the root and its count
 *    are among them, from its compressed object streams too (PDF 1.5 and
 *    later, pdfTeX's default, keep the page objects there; an incremental
 *    update writes the few it changed outside them), inflated with fflate;
 * 4. else one page per `ASSUMED_PDF_PAGE_BYTES` of the file.
 *
 * Nothing here throws, whatever the input: damaged or hostile bytes only
 * lead further down that list.
 *
 * @internal
 */
import { Unzlib, unzlibSync } from "fflate"
import type * as Block from "../Block.js"
import { binaryOfBytes, decodeBase64Binary } from "./base64.js"
import { readInlineOnce } from "./inlineData.js"
import { bareMediaType } from "./mediaType.js"
import { anthropicImageTokens, geminiImageTokens, type ImageSize, openAiImagePartTokens } from "./imageSize.js"
import { gpt5Minor } from "./openAiModels.js"

/**
 * The bytes of a PDF page when its count cannot be read (no page tree and
 * no page objects in sight, not even in its object streams): 20 KB. Text pages take less,
 * so a compact text-only file would be under-counted; pages with images
 * take far more, and those are over-counted, the side a budget can afford.
 */
export const ASSUMED_PDF_PAGE_BYTES = 20_000

/**
 * What a page of text adds where a provider reads a PDF's text beside its
 * page images (Claude, OpenAI) and the text cannot be read from the file
 * (`pdfFactsOfBase64`: an encrypted file, a filter other than Flate), and
 * in the estimator's figure for a page, which does not read it: about a
 * full page of prose, 600 tokens (a scanned page has none, a dense one
 * more).
 */
export const PDF_PAGE_TEXT_TOKENS = 600

/**
 * The pixel size a page is taken at for the providers that bill an image of
 * each page: a US Letter page at 150 dots per inch (A4 is within a few
 * percent). Claude scales it to its image limits (1,599 tokens, under its
 * 1,600; 2,805 on Opus 4.7 and later), OpenAI's high detail prices it at 4
 * tiles on gpt-4o (765).
 */
const PAGE_PIXELS: ImageSize = { width: 1275, height: 1650 }

/** A binary string's code units as bytes (a stream's data, for the inflater). */
const bytesOfBinary = (binary: string): Uint8Array => {
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}

/**
 * An object's header (`12 0 obj`), with the character before it: a number is
 * matched from its first digit only, as a regular expression that could start
 * one anywhere in a run of digits would take time quadratic in its length.
 */
const OBJECT = /(?:^|\D)(\d+)\s+\d+\s+obj\b/g
const PAGES_NODE = /\/Type\s*\/Pages(?![A-Za-z0-9#])/
const PAGE_NODE = /\/Type\s*\/Page(?![A-Za-z0-9#])/
const COUNT = /\/Count\s+(\d+)/
const OBJECT_STREAM = /\/Type\s*\/ObjStm(?![A-Za-z0-9#])/
/**
 * The keyword that starts a stream's data, after its dictionary's `>>`: not
 * "stream" within the dictionary, as in a name (`/Upstream`) or a string.
 */
const STREAM_KEYWORD = />>\s*stream(?![A-Za-z0-9])/
/** A dictionary longer than this is not read (a page tree node or a stream's dictionary is a few hundred bytes). */
const MAX_DICT = 65_536
/** At most this many bytes are inflated from a file's object streams (they hold its small objects: tens of KB each). */
const MAX_INFLATED = 32 * 1024 * 1024
/**
 * At most this many bytes are inflated for each byte of the file (and 256 KB
 * for any file), so that the time taken grows with the file's size, not with
 * what a few KB of deflate can make (a thousandfold): the object streams the
 * count reads in 607 PDFs (TeX Live's and Debian's documentation) inflate to
 * at most 0.37 times their file's size, all of them to at most 2.1 times.
 */
const INFLATED_PER_BYTE = 4
const MIN_INFLATED = 256 * 1024

/**
 * The page count of a linearized file: the `/N` of the linearization
 * dictionary in its first bytes, while the file is still the length its `/L`
 * gives. A file updated since it was linearized (pages added, a signature) is
 * longer, and its `/N` may be out of date: its page tree tells.
 */
const linearizedPages = (bytes: string): number | undefined => {
  const head = bytes.slice(0, 4096)
  const at = head.indexOf("/Linearized")
  if (at < 0) return undefined
  const open = head.lastIndexOf("<<", at)
  const close = head.indexOf(">>", at)
  if (open < 0 || close < 0) return undefined
  const dict = head.slice(open, close)
  const length = /\/L\s+(\d+)/.exec(dict)
  if (length === null || Number(length[1]) !== bytes.length) return undefined
  const n = /\/N\s+(\d+)/.exec(dict)
  const pages = n === null ? 0 : Number(n[1])
  return pages > 0 && pages <= bytes.length ? pages : undefined
}

/** What the objects seen so far show of the page tree. */
interface PageTree {
  /** The most pages the file can hold, one a byte: a larger count (damaged, or made up) is not believed. */
  readonly most: number
  /** The page tree root the catalog names (`/Pages 3 0 R`), once the catalog is seen. */
  rootId: string | undefined
  /** The `/Count` of every page tree node seen, by object number. */
  readonly counts: Map<string, number>
  /** The page objects seen, by object number. */
  readonly leaves: Set<string>
}

const CATALOG = /\/Type\s*\/Catalog(?![A-Za-z0-9#])/
const PAGES_REF = /\/Pages\s+(\d+)\s+\d+\s+R/

/** Notes an object (its number and its text up to its stream, if any) in `tree`. */
const noteObject = (tree: PageTree, id: string, dict: string): void => {
  if (PAGES_NODE.test(dict)) {
    const count = COUNT.exec(dict)
    // a node met again (an incremental update rewrote it) keeps its larger count: the safe side
    const n = count === null ? 0 : Number(count[1])
    if (n > 0 && n <= tree.most) tree.counts.set(id, Math.max(tree.counts.get(id) ?? 0, n))
  } else if (PAGE_NODE.test(dict)) tree.leaves.add(id)
  else if (CATALOG.test(dict)) tree.rootId = PAGES_REF.exec(dict)?.[1] ?? tree.rootId
}

/** The count of the root the catalog names, once both are seen. */
const rootCount = (tree: PageTree): number | undefined => (tree.rootId === undefined ? undefined : tree.counts.get(tree.rootId))

/** The page count the tree shows: its root's, else the largest node's (the root is the largest), else its page objects. */
const pagesOfTree = (tree: PageTree): number | undefined => {
  const root = rootCount(tree)
  if (root !== undefined && root > 0) return root
  let largest = 0
  for (const n of tree.counts.values()) largest = Math.max(largest, n)
  if (largest > 0) return largest
  return tree.leaves.size > 0 ? tree.leaves.size : undefined
}

/**
 * A Flate stream's data inflated, at most about `budget.left` bytes of it
 * (the rest is cut: a small stream can inflate a thousandfold), or
 * `undefined` when it is not zlib data.
 */
const inflate = (data: Uint8Array, budget: { left: number }): string | undefined => {
  // a zlib header (deflate, a check that divides by 31), else not zlib data: no inflater is started for it
  if (data.length < 2 || (data[0]! & 0x0f) !== 8 || ((data[0]! << 8) | data[1]!) % 31 !== 0) return undefined
  if (data.length * MAX_DEFLATE_RATIO <= budget.left) {
    // small enough that all it can inflate to fits the budget: at once, which is several times faster than in
    // chunks (the streaming inflater copies its growing output); damaged data is inflated in chunks below, as far
    // as it goes
    try {
      const out = unzlibSync(data)
      budget.left -= out.length
      return binaryOfBytes(out)
    } catch {
      // read in chunks below
    }
  }
  const chunks: Array<Uint8Array> = []
  let size = 0
  try {
    const stream = new Unzlib((chunk) => {
      chunks.push(chunk)
      size += chunk.length
    })
    for (let i = 0; i < data.length && size < budget.left; i += INFLATE_CHUNK) {
      stream.push(data.subarray(i, i + INFLATE_CHUNK), i + INFLATE_CHUNK >= data.length)
    }
  } catch {
    if (size === 0) return undefined
  }
  budget.left -= size
  let out = ""
  for (const chunk of chunks) out += binaryOfBytes(chunk)
  return out
}

/** The most deflate can inflate a byte to (a run of one byte: about 1,032 to 1). */
const MAX_DEFLATE_RATIO = 1_032

/**
 * Compressed bytes given to the inflater at a time: at most about 1 MB comes
 * out of one (deflate's largest ratio is about 1,032 to 1), so the cut comes
 * at most that far past the budget.
 */
const INFLATE_CHUNK = 1_024

/**
 * What reading an object stream takes from the budget besides the bytes it
 * inflates to (starting an inflater costs about as much as inflating 4 KB):
 * a file of many tiny streams is cut as one of a few large ones is, after
 * at most 8,192 of them (the development set's largest file has 1,237).
 */
const STREAM_COST = 4_096

/**
 * The objects of an object stream: `/N` pairs of object number and offset
 * (from `/First`), then the objects. An object is read up to the next
 * one's offset; offsets that do not increase (they do in any file a writer
 * made) are skipped, so no part of the stream is read twice.
 */
const noteObjectStream = (tree: PageTree, dict: string, data: Uint8Array, budget: { left: number }): void => {
  if (!/\/Filter\s*(\[\s*)?\/FlateDecode(?![A-Za-z0-9#])/.test(dict) || /\/DecodeParms/.test(dict)) return
  budget.left -= STREAM_COST
  const first = /\/First\s+(\d+)/.exec(dict)
  const text = first === null ? undefined : inflate(data, budget)
  if (first === null || text === undefined) return
  const at = Math.min(Number(first[1]), text.length)
  // the pairs are read one at a time (a header can hold millions): each object once the next one's offset is known
  const pair = /\s*(\d+)\s+(\d+)/y
  let read = at
  let id: string | undefined
  let from = 0
  const note = (to: number): void => {
    if (id !== undefined && from >= read && to > from) {
      noteObject(tree, id, text.slice(from, Math.min(to, from + MAX_DICT)))
      read = to
    }
  }
  for (let m = pair.exec(text); m !== null && pair.lastIndex <= at; m = pair.exec(text)) {
    const offset = at + Number(m[2])
    note(Math.min(offset, text.length))
    id = m[1]
    from = offset
  }
  note(text.length)
}

/**
 * Where the keyword "stream" of the object whose body runs from `start` to
 * `end` is, or -1 when the object is no stream: searched within the object
 * only, as a search from it to the next stream anywhere would make a scan of
 * the file quadratic.
 */
const streamKeywordAt = (bytes: string, start: number, end: number): number => {
  const keyword = STREAM_KEYWORD.exec(bytes.slice(start, end))
  return keyword === null ? -1 : start + keyword.index + keyword[0].length - 6
}

/**
 * A stream's data: from after the end of line that follows "stream" (at
 * `stream`) to before "endstream", searched within the object (up to `end`)
 * as "stream" is: a search back from the end of the object to any
 * "endstream" in the file would make a scan of the file quadratic.
 */
const streamData = (bytes: string, stream: number, end: number): string => {
  const from = bytes.startsWith("\r\n", stream + 6) ? stream + 8 : stream + 7
  const endstream = from < end ? bytes.slice(from, end).lastIndexOf("endstream") : -1
  return bytes.slice(from, endstream < 0 ? end : from + endstream)
}

/**
 * Calls `visit` with each object of a file, in order: its number, its text
 * up to its stream or its end (at most `MAX_DICT`), where its keyword
 * "stream" is (-1 for none) and where its body ends (before "endobj", else
 * the file's end). An object's body, a stream's data among it, is not
 * searched for objects: linear in the file's length.
 */
const eachObject = (bytes: string, visit: (id: string, dict: string, stream: number, end: number) => void): void => {
  OBJECT.lastIndex = 0
  for (let m = OBJECT.exec(bytes); m !== null; m = OBJECT.exec(bytes)) {
    const start = m.index + m[0].length
    const endobj = bytes.indexOf("endobj", start)
    const end = endobj < 0 ? bytes.length : endobj
    OBJECT.lastIndex = Math.max(end, start)
    const stream = streamKeywordAt(bytes, start, end)
    visit(m[1]!, bytes.slice(start, Math.min(stream < 0 ? end : stream, start + MAX_DICT)), stream, end)
  }
}

/** Whether a file's bytes, as a binary string, are a PDF's: "%PDF-" within the first 1,024 bytes (the specification's allowance for leading junk). */
const isPdfData = (bytes: string): boolean => bytes.slice(0, 1024).includes("%PDF-")

/** What a file's structure shows of its pages (see the module comment), or `undefined` for none of it. */
export const pdfPageCountOfBytes = (raw: Uint8Array): number | undefined => pdfPageCountOfBinary(binaryOfBytes(raw))

/** The same, for the file's bytes as a binary string (a string offset is a byte offset). */
const pdfPageCountOfBinary = (bytes: string): number | undefined => {
  if (!isPdfData(bytes)) return undefined
  const linearized = linearizedPages(bytes)
  if (linearized !== undefined) return linearized
  const tree: PageTree = { most: bytes.length, rootId: undefined, counts: new Map(), leaves: new Set() }
  const objectStreams: Array<readonly [dict: string, data: string]> = []
  eachObject(bytes, (id, dict, stream, end) => {
    if (stream >= 0 && OBJECT_STREAM.test(dict)) objectStreams.push([dict, streamData(bytes, stream, end)])
    else noteObject(tree, id, dict)
  })
  if (rootCount(tree) === undefined && objectStreams.length > 0) {
    // PDF 1.5 and later may keep the page objects in compressed object streams. The catalog and the page tree are
    // written near the end by some writers (pdfTeX) and near the start by others: the streams are read from both ends
    // inward (the last, the first, the one before the last...) until the root the catalog names is seen. They are read
    // even when some page objects were seen outside them: an incremental update (an annotation added in a viewer)
    // writes the pages it changed uncompressed, and those few are not the file's pages.
    const budget = { left: Math.min(MAX_INFLATED, Math.max(MIN_INFLATED, bytes.length * INFLATED_PER_BYTE)) }
    for (let lo = 0, hi = objectStreams.length - 1; lo <= hi && budget.left > 0 && rootCount(tree) === undefined; ) {
      const [dict, data] = objectStreams[(hi - lo) % 2 === (objectStreams.length - 1) % 2 ? hi-- : lo++]!
      noteObjectStream(tree, dict, bytesOfBinary(data), budget)
    }
  }
  return pagesOfTree(tree)
}

// ---------------------------------------------------------------------------
// The text a PDF's pages show
// ---------------------------------------------------------------------------

/**
 * A stream that is a page's content or a form's (which a page draws: some
 * writers, cairo among them, put all of a page's text in one): no `/Type`
 * but `/XObject` and no `/Subtype` but `/Form`, and none of the keys of the
 * other streams without a type (font programs, colour profiles, functions,
 * shadings and patterns).
 */
const isContentStream = (dict: string): boolean => {
  if (/\/(Length[123]|N|FunctionType|ShadingType|PatternType)(?![A-Za-z0-9#])/.test(dict)) return false
  const form = /\/Subtype\s*\/Form(?![A-Za-z0-9#])/.test(dict)
  if (!form && /\/Subtype(?![A-Za-z0-9#])/.test(dict)) return false
  return !/\/Type(?![A-Za-z0-9#])/.test(dict) || (form && /\/Type\s*\/XObject(?![A-Za-z0-9#])/.test(dict))
}

/**
 * How a content stream is read: as it is (no filter), inflated (Flate
 * alone, without a predictor), or not at all (any other filter).
 */
const contentFilterOf = (dict: string): "none" | "flate" | "other" => {
  if (!/\/Filter(?![A-Za-z0-9#])/.test(dict)) return "none"
  return /\/Filter\s*(\[\s*)?\/FlateDecode\s*\]?\s*(\/(?!Filter|DecodeParms)|>>|$)/.test(dict) && !/\/DecodeParms/.test(dict) ? "flate" : "other"
}

/**
 * A font read for what its strings show: a composite (Type 0) font, whose
 * codes take more than one byte (as Skia, cairo, Quartz, jsPDF and Word
 * embed them: a glyph's number, two bytes under `Identity-H`), or a simple
 * font with a `/ToUnicode` map (one byte a code), and what each code counts
 * for when the map says which characters it stands for.
 */
interface ShownFont {
  /** The bytes of a code: one in a simple font; in a composite one, the map's code space's, else two. */
  readonly codeBytes: number
  /**
   * What a mapped code counts for (see `weightOfText`). A code the map does
   * not hold counts as a byte of a simple font without one (`ASCII_UNITS`)
   * in a simple font, and one unit in a composite font (a zero code none).
   */
  readonly weights: ReadonlyMap<number, number> | undefined
}

/**
 * What a shown byte of a simple font without a map counts for, and an ASCII
 * character a map gives (kept in twentieths, see `TWENTIETHS`), in the units
 * `SHOWN_UNITS_PER_TOKEN` make a token:
 * a letter one; a digit `DIGIT_UNITS` (o200k splits numbers into groups of
 * at most three digits, and a page's numbers are short); a punctuation mark
 * `MARK_UNITS`, about a token (a mark is mostly a token of its own); nothing
 * for a zero byte or a space; one for any other byte (a byte above ASCII, a
 * TeX font's ligatures below 0x20).
 */
const DIGIT_UNITS = 2
const MARK_UNITS = 3.5
/**
 * Units are counted in twentieths, as integers: the sums of a long content
 * stream stay small integers (a fractional sum in a variable a closure
 * shares is a boxed number, one allocation a byte: twice the time).
 */
const TWENTIETHS = 20
const twentieths = (units: number): number => Math.round(units * TWENTIETHS)
const ASCII_UNITS: Int32Array = (() => {
  const units = new Int32Array(128)
  for (let c = 0; c < 128; c++) {
    units[c] = c === 0 || c === 0x20 ? 0
      : c >= 0x30 && c <= 0x39 ? twentieths(DIGIT_UNITS)
      : (c > 0x20 && c < 0x30) || (c > 0x39 && c < 0x41) || (c > 0x5a && c < 0x61) || (c > 0x7a && c < 0x7f) ? twentieths(MARK_UNITS)
      : TWENTIETHS
  }
  return units
})()

/**
 * What a character a font's code stands for (by its `/ToUnicode` map)
 * counts for, in the units `SHOWN_UNITS_PER_TOKEN` make a token: an ASCII
 * character as `ASCII_UNITS` has it; nothing for white space (a glyph
 * number shows a space as no byte 0x20 does, nor need a subset font's
 * code for it be 0x20); half a token for a letter of the alphabets from
 * Greek to Thai (o200k spends 0.44 to 0.58 tokens on one in the corpus's
 * Greek, Cyrillic, Armenian, Hebrew, Arabic, Indic, Thai and Georgian text);
 * two units for an accented Latin letter or typographic punctuation; 0.86
 * tokens for a CJK ideograph, kana or Hangul syllable (0.82 to 0.88 in the
 * corpus's Chinese, Japanese and Korean text); 2.3 tokens for an Ethiopic
 * syllable (as measured there); a token for any other symbol (arrows,
 * mathematics, Braille, dingbats), two for a character beyond the first
 * plane (emoji, rare ideographs), counted at its first surrogate.
 */
const unitsOfCharacter = (c: number): number =>
  (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200b) || c === 0xfeff || (c >= 0xdc00 && c <= 0xdfff) ? 0
  : c < 0x80 ? ASCII_UNITS[c]! / TWENTIETHS
  : c < 0x370 || (c >= 0x2010 && c <= 0x206f) ? 2
  : c < 0x1100 ? SHOWN_UNITS_PER_TOKEN / 2
  : c >= 0x1200 && c < 0x13a0 ? SHOWN_UNITS_PER_TOKEN * 2.3
  : (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) ? SHOWN_UNITS_PER_TOKEN * 0.86
  : c >= 0xd800 && c <= 0xdbff ? SHOWN_UNITS_PER_TOKEN * 2
  : SHOWN_UNITS_PER_TOKEN

/** The same in twentieths (`TWENTIETHS`), as the counts are kept. */
const weightOfCharacter = (c: number): number => twentieths(unitsOfCharacter(c))

/** What the characters a code stands for count for (`weightOfCharacter`). */
const weightOfText = (text: string): number => {
  let weight = 0
  for (let i = 0; i < text.length; i++) weight += weightOfCharacter(text.charCodeAt(i))
  return weight
}

/**
 * At most this many codes are read from one `/ToUnicode` map (a two-byte
 * code space has 65,536), and eight times as many from all of a file's maps:
 * a range of a few bytes can map every code, and a file can hold thousands.
 */
const MAX_MAPPED_CODES = 65_536
const MAX_FILE_MAPPED_CODES = 8 * MAX_MAPPED_CODES

/** At most this many UTF-16 code units of a code's characters are counted (a ligature stands for two or three). */
const MAX_CODE_TEXT = 8

/** A `/ToUnicode` map's hex string as a number (at most four bytes) and as UTF-16 text. */
const hexDigits = (hex: string): string => hex.replace(/[^0-9A-Fa-f]/g, "")
const codeOfHex = (hex: string): number => {
  const digits = hexDigits(hex)
  return digits.length === 0 || digits.length > 8 ? -1 : parseInt(digits, 16)
}
const textOfHex = (hex: string): string => {
  const digits = hexDigits(hex)
  let out = ""
  for (let i = 0; i + 4 <= digits.length && out.length < MAX_CODE_TEXT; i += 4) out += String.fromCharCode(parseInt(digits.slice(i, i + 4), 16))
  // a character written as a byte (<41>, which some writers put for "A"), not as UTF-16
  return out === "" && digits.length > 0 ? String.fromCharCode(parseInt(digits, 16)) : out
}

/**
 * A font's codes as its `/ToUnicode` CMap (already inflated) maps them
 * (`composite`: a Type 0 font's, else a simple font's, one byte a code):
 * `bfchar` pairs and `bfrange` ranges (a range's codes take consecutive
 * characters from its first, or the characters of an array). At
 * most `MAX_MAPPED_CODES` codes are set, counting a code set twice twice,
 * and no more than `budget` has left (what is set is taken from it). Linear
 * in the map's length: each section is searched for from where the last one
 * ended, and no pattern scans past the next bracket.
 */
const fontOf = (cmap: string | undefined, composite: boolean, budget: { left: number }): ShownFont => {
  if (cmap === undefined) return { codeBytes: composite ? 2 : 1, weights: undefined }
  const space = composite ? /begincodespacerange\s*<([^<>]*)>/.exec(cmap) : null
  const spaceBytes = space === null ? 0 : hexDigits(space[1]!).length >> 1
  const codeBytes = !composite ? 1 : spaceBytes >= 1 && spaceBytes <= 4 ? spaceBytes : 2
  const weights = new Map<number, number>()
  let left = Math.min(MAX_MAPPED_CODES, budget.left)
  const set = (code: number, text: string): void => {
    weights.set(code, weightOfText(text))
    left--
  }
  const begin = /begin(bfchar|bfrange)/g
  for (let s = begin.exec(cmap); s !== null && left > 0; s = begin.exec(cmap)) {
    const end = cmap.indexOf(`end${s[1]}`, begin.lastIndex)
    const body = cmap.slice(begin.lastIndex, end < 0 ? cmap.length : end)
    begin.lastIndex = end < 0 ? cmap.length : end
    if (s[1] === "bfchar") {
      const pair = /<([^<>]*)>\s*<([^<>]*)>/g
      for (let m = pair.exec(body); m !== null && left > 0; m = pair.exec(body)) {
        const code = codeOfHex(m[1]!)
        if (code >= 0) set(code, textOfHex(m[2]!))
      }
    } else {
      const range = /<([^<>]*)>\s*<([^<>]*)>\s*(?:<([^<>]*)>|\[([^[\]]*)\])/g
      for (let m = range.exec(body); m !== null && left > 0; m = range.exec(body)) {
        const lo = codeOfHex(m[1]!)
        const hi = Math.min(codeOfHex(m[2]!), lo + left - 1)
        if (lo < 0 || hi < lo) continue
        if (m[3] !== undefined) {
          const first = textOfHex(m[3])
          const head = first.slice(0, -1)
          const last = first.charCodeAt(first.length - 1)
          for (let code = lo; code <= hi; code++) set(code, head + String.fromCharCode((last + code - lo) & 0xffff))
        } else {
          const items = /<([^<>]*)>/g
          let code = lo
          for (let t = items.exec(m[4]!); t !== null && code <= hi; t = items.exec(m[4]!)) set(code++, textOfHex(t[1]!))
        }
      }
    }
  }
  budget.left -= Math.min(MAX_MAPPED_CODES, budget.left) - left
  return { codeBytes, weights }
}

/**
 * What a content stream shows, in twentieths of units (`ASCII_UNITS`,
 * `weightOfCharacter`): the bytes of the strings that are
 * the operands of `Tj`, `TJ`, `'` and `"` inside its text objects (`BT` …
 * `ET`), not those of other operators (a marked span's `/ActualText`). A
 * literal string's escapes are one byte each (`\\053`, `\\(`), a hex
 * string is a byte for two digits. In a simple font's string a byte counts
 * as `ASCII_UNITS` has it, a space nothing: TeX shows no spaces (it moves
 * the pen), most other writers show every one, and the tokens of prose are
 * about its words. In the string of a font read (`fonts`, by the name `Tf`
 * selects: a composite font, or a simple one with a `/ToUnicode` map) a code
 * of its bytes (two in a composite font) counts as its map says
 * (`weightOfText`). Comments and the data of inline
 * images (`ID` … `EI`) are skipped. Linear in the stream's length.
 */
const shownUnits = (content: string, fonts: ReadonlyMap<string, ShownFont>): number => {
  let shown = 0
  // what the strings since the last operator show: its operands
  let pending = 0
  let inText = false
  // the font Tf selected, when it is one read (`fonts`); the last name seen, Tf's operand
  let font: ShownFont | undefined
  let name = ""
  // a code of the font read being read: its bytes so far and its value
  let codeLength = 0
  let code = 0
  const take = (byte: number): void => {
    if (font === undefined) {
      pending += byte < 0x80 ? ASCII_UNITS[byte]! : TWENTIETHS
      return
    }
    code = code * 256 + byte
    if (++codeLength < font.codeBytes) return
    pending += font.weights?.get(code) ?? (font.codeBytes === 1 && code < 0x80 ? ASCII_UNITS[code]! : code === 0 ? 0 : TWENTIETHS)
    codeLength = 0
    code = 0
  }
  const n = content.length
  let i = 0
  while (i < n) {
    const c = content.charCodeAt(i)
    if (c === 0x28) {
      // a literal string: balanced parentheses, backslash escapes
      let depth = 1
      codeLength = 0
      code = 0
      i++
      while (i < n && depth > 0) {
        const d = content.charCodeAt(i)
        if (d === 0x5c) {
          const e = content.charCodeAt(i + 1)
          if (e >= 0x30 && e <= 0x37) {
            // up to three octal digits
            let value = 0
            let j = i + 1
            while (j < i + 4 && j < n && content.charCodeAt(j) >= 0x30 && content.charCodeAt(j) <= 0x37) value = value * 8 + content.charCodeAt(j++) - 0x30
            take(value & 0xff)
            i = j
          } else {
            // an escaped end of line is nothing; any other escaped byte is one byte
            if (e !== 0x0a && e !== 0x0d && i + 1 < n) take(e === 0x6e ? 0x0a : e === 0x72 ? 0x0d : e === 0x74 ? 0x09 : e === 0x62 ? 0x08 : e === 0x66 ? 0x0c : e)
            i += e === 0x0d && content.charCodeAt(i + 2) === 0x0a ? 3 : 2
          }
          continue
        }
        if (d === 0x28) depth++
        else if (d === 0x29) depth--
        if (depth > 0) take(d & 0xff)
        i++
      }
      continue
    }
    if (c === 0x3c) {
      if (content.charCodeAt(i + 1) === 0x3c) {
        i += 2
        continue
      }
      // a hex string: two digits a byte, white space ignored, an odd last digit followed by 0
      const end = content.indexOf(">", i + 1)
      const stop = end < 0 ? n : end
      let digits = 0
      let high = 0
      codeLength = 0
      code = 0
      for (let j = i + 1; j < stop; j++) {
        const h = hexValue(content.charCodeAt(j))
        if (h < 0) continue
        if (digits % 2 === 0) high = h
        else take((high << 4) | h)
        digits++
      }
      if (digits % 2 === 1) take(high << 4)
      i = stop + 1
      continue
    }
    if (c === 0x2f) {
      // a name: Tf's operand
      const start = ++i
      while (i < n && isRegular(content.charCodeAt(i))) i++
      name = content.slice(start, Math.min(i, start + 127))
      continue
    }
    if (c === 0x27 || c === 0x22) {
      // ' and ", which show a string after a line break
      if (inText) shown += pending
      pending = 0
      i++
      continue
    }
    if (c === 0x25) {
      // a comment, to the end of the line
      while (i < n && content.charCodeAt(i) !== 0x0a && content.charCodeAt(i) !== 0x0d) i++
      continue
    }
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) {
      const start = i
      while (i < n && isRegular(content.charCodeAt(i))) i++
      // an operator stands alone: a number is not one
      const before = start === 0 ? 0x20 : content.charCodeAt(start - 1)
      if (!isDelimiterOrSpace(before)) continue
      const word = i - start === 2 ? content.slice(start, i) : ""
      if (inText && (word === "Tj" || word === "TJ")) shown += pending
      pending = 0
      if (word === "BT") inText = true
      else if (word === "ET") inText = false
      else if (word === "Tf") font = fonts.get(name)
      else if (word === "ID") {
        // an inline image's data, up to "EI" standing alone
        const ei = /\sEI(?![^\s\/\[\]<>()%{}])/g
        ei.lastIndex = i
        const m = ei.exec(content)
        i = m === null ? n : m.index + m[0].length
      }
      continue
    }
    i++
  }
  return shown
}

const hexValue = (c: number): number =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1

/** PDF white space and delimiters: what ends a keyword. */
const isDelimiterOrSpace = (c: number): boolean =>
  c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00 || c === 0x28 || c === 0x29 || c === 0x3c ||
  c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25

const isRegular = (c: number): boolean => !isDelimiterOrSpace(c)

/**
 * The inflate budget of a PDF's content streams: 8 bytes for each byte of
 * the file (a page's content inflates to 3 to 6 times its compressed size),
 * and at least 4 MB (a form can be drawn from many small streams, each
 * costing the inflater's start: an IRS form has 233 for 2 pages). Twice
 * the object streams' (`INFLATED_PER_BYTE`), still at most `MAX_INFLATED`,
 * so the time taken grows with the file's size.
 */
const TEXT_INFLATED_PER_BYTE = 8
const MIN_TEXT_INFLATED = 4 * 1024 * 1024

/** A font dictionary, a composite font's, and the `/ToUnicode` map a font names. */
const FONT = /\/Type\s*\/Font(?![A-Za-z0-9#])/
const COMPOSITE_FONT = /\/Subtype\s*\/Type0(?![A-Za-z0-9#])/
const TO_UNICODE = /\/ToUnicode\s+(\d+)\s+\d+\s+R/
/** A resource dictionary's fonts, given in place (`/Font << /F1 5 0 R >>`) or as an object of their own (`/Font 9 0 R`). */
const FONT_RESOURCES = /\/Font\s*(?:<<([^<>]*)>>|(\d+)\s+\d+\s+R)/g
const FONT_NAME = /\/([^\s\/<>\[\]()%{}]+)\s+(\d+)\s+\d+\s+R/g

/** Notes the fonts a resource dictionary's `/Font` entry names (`entries`: the text between its `<<` and `>>`). */
const noteFontNames = (names: Map<string, string>, entries: string): void => {
  FONT_NAME.lastIndex = 0
  // a name that stands for two fonts (on two pages) keeps the first: writers that name fonts per page name them alike
  for (let m = FONT_NAME.exec(entries); m !== null; m = FONT_NAME.exec(entries)) if (!names.has(m[1]!)) names.set(m[1]!, m[2]!)
}

/**
 * What a PDF's pages show (`shownUnits`), read from its content streams, or
 * `undefined` when they cannot all be read: the file is encrypted, a
 * content stream has a filter other than Flate, its data does not inflate,
 * or the inflate budget (as for object streams) runs out. Its composite
 * fonts and the simple ones with a `/ToUnicode` map are read first (by the
 * names its resource dictionaries give them, with their maps where they
 * can be read), so that a code of theirs counts as the characters it
 * stands for.
 */
const pdfShownUnitsOfBinary = (bytes: string): number | undefined => {
  if (/\/Encrypt(?![A-Za-z0-9#])/.test(bytes.slice(-4096)) || /\/Encrypt\s+\d+\s+\d+\s+R/.test(bytes)) return undefined
  const budget = { left: Math.min(MAX_INFLATED, Math.max(MIN_TEXT_INFLATED, bytes.length * TEXT_INFLATED_PER_BYTE)) }
  // each object's text and where its stream is (the last object of a number: an update's), which are contents
  const objects = new Map<string, StreamAt>()
  const contents: Array<readonly [id: string, at: StreamAt]> = []
  // the streams fonts name as their ToUnicode maps: no contents, though their dictionaries look alike
  const maps = new Set<string>()
  // the fonts that are read (composite ones, simple ones with a map) and their maps' objects, by object number
  const fontObjects = new Map<string, { readonly composite: boolean; readonly map: string | undefined }>()
  const names = new Map<string, string>()
  const fontDicts: Array<string> = []
  eachObject(bytes, (id, dict, stream, end) => {
    const at: StreamAt = { dict, stream, end }
    objects.set(id, at)
    if (stream >= 0 && isContentStream(dict)) contents.push([id, at])
    const map = TO_UNICODE.exec(dict)?.[1]
    if (map !== undefined) maps.add(map)
    const composite = COMPOSITE_FONT.test(dict)
    if (composite || (map !== undefined && FONT.test(dict))) fontObjects.set(id, { composite, map })
    FONT_RESOURCES.lastIndex = 0
    for (let f = FONT_RESOURCES.exec(dict); f !== null; f = FONT_RESOURCES.exec(dict)) {
      if (f[1] !== undefined) noteFontNames(names, f[1])
      else fontDicts.push(f[2]!)
    }
  })
  for (const id of fontDicts) {
    const at = objects.get(id)
    if (at !== undefined && at.stream < 0) noteFontNames(names, at.dict)
  }
  // the fonts the pages name, each map read once however many fonts name it
  const fonts = new Map<string, ShownFont>()
  const read = new Map<string, ShownFont>()
  const mapped = { left: MAX_FILE_MAPPED_CODES }
  for (const [name, id] of names) {
    const object = fontObjects.get(id)
    if (object === undefined) continue
    const key = `${object.composite ? "c" : "s"}${object.map ?? ""}`
    let font = read.get(key)
    if (font === undefined) {
      const at = object.map === undefined ? undefined : objects.get(object.map)
      font = fontOf(at === undefined || at.stream < 0 ? undefined : streamText(bytes, at, budget), object.composite, mapped)
      read.set(key, font)
    }
    fonts.set(name, font)
  }
  let shown = 0
  for (const [id, at] of contents) {
    if (maps.has(id)) continue
    const content = streamText(bytes, at, budget)
    if (content === undefined || budget.left < 0) return undefined
    shown += shownUnits(content, fonts)
  }
  return shown
}

/** An object as `eachObject` gives it: its text up to its stream, where its keyword "stream" is (-1: none), its end. */
interface StreamAt {
  readonly dict: string
  readonly stream: number
  readonly end: number
}

/**
 * A stream's data as text: as it is (no filter) or inflated (Flate alone),
 * taken from `budget`, or `undefined` for any other filter or data that does
 * not inflate.
 */
const streamText = (bytes: string, { dict, end, stream }: StreamAt, budget: { left: number }): string | undefined => {
  const data = streamData(bytes, stream, end)
  const filter = contentFilterOf(dict)
  if (filter === "other") return undefined
  // a stream given as it is costs its length; one inflated, what it inflates to and the inflater's start
  if (filter === "none") {
    budget.left -= data.length
    return data
  }
  budget.left -= STREAM_COST
  return inflate(bytesOfBinary(data), budget)
}

/**
 * The units a PDF shows (`ASCII_UNITS`, `weightOfCharacter`: a letter is
 * one) for a token of its text as a provider extracts it. Chosen, with
 * `DIGIT_UNITS` and `MARK_UNITS`, against the text pdf.js extracts from 164
 * PDFs, counted with o200k (the 40 from public test suites: Word, Google
 * Docs, macOS, Skia, OpenOffice, iText and other writers; 124 LaTeX package
 * manuals, full of code): the estimate is 1.08 times the count at the
 * median for the first (0.89 to 1.28 from the 10th to the 90th percentile)
 * and 0.97 for the manuals (0.83 to 1.09). Held out, on the 136 PDFs of
 * pdf.js's own test suite with 50 tokens of text or more (edge cases:
 * symbol tables, broken encodings, OCR layers, forms), 0.85 at the median
 * (0.32 to 1.39). Of the PDFs recorded with the OpenAI Responses API, which
 * bills a PDF's text alone there, a page of lorem ipsum comes out at 734
 * tokens, billed 737 to 757.
 */
const SHOWN_UNITS_PER_TOKEN = 3.75

/**
 * What reading a PDF inline shows of it for pricing: its pages (as
 * `pdfPagesOfBase64`) and the tokens of its text, read from the strings its
 * pages show (`PDF_PAGE_TEXT_TOKENS` a page when they cannot be read).
 */
export interface PdfFacts {
  readonly pages: number
  readonly textTokens: number
}

/** The facts of a PDF of `pages` pages whose pages show `shown` (`shownUnits`; `undefined`: the text could not be read). */
const factsOf = (pages: number, shown: number | undefined): PdfFacts => ({
  pages,
  textTokens: shown === undefined ? pages * PDF_PAGE_TEXT_TOKENS : Math.ceil(shown / (SHOWN_UNITS_PER_TOKEN * TWENTIETHS))
})

/** What a PDF given as base64 shows (`PdfFacts`), or `undefined` when the data is not a PDF's. */
export const pdfFactsOfBase64 = (text: string, start = 0): PdfFacts | undefined => {
  const bytes = decodeBase64Binary(text, start)
  return isPdfData(bytes) ? factsOf(pagesOfPdf(bytes), pdfShownUnitsOfBinary(bytes)) : undefined
}

/** What the pages of a PDF a file source holds inline show (`shownUnits`), read once per source. */
const shownUnitsOfSource = readInlineOnce((text, start) => {
  const bytes = decodeBase64Binary(text, start)
  return isPdfData(bytes) ? pdfShownUnitsOfBinary(bytes) : undefined
})

/**
 * What a PDF a file source holds inline shows (`PdfFacts`): its pages as
 * `pdfPagesOfSource` reads them (once per source, for the estimator and the
 * request estimate alike) and its text, read once per source.
 */
export const pdfFactsOfSource = (source: Block.FileSource): PdfFacts | undefined => {
  const pages = pdfPagesOfSource(source)
  return pages === undefined ? undefined : factsOf(pages, shownUnitsOfSource(source))
}

/**
 * The number of pages of the PDF whose base64 text starts at `start` in
 * `text` (as its structure shows them, else one per
 * `ASSUMED_PDF_PAGE_BYTES`), or `undefined` when the data is not a PDF's.
 */
export const pdfPagesOfBase64 = (text: string, start = 0): number | undefined => {
  const bytes = decodeBase64Binary(text, start)
  return isPdfData(bytes) ? pagesOfPdf(bytes) : undefined
}

/** A PDF's pages as its structure shows them, else one per `ASSUMED_PDF_PAGE_BYTES`. */
const pagesOfPdf = (bytes: string): number => pdfPageCountOfBinary(bytes) ?? Math.max(1, Math.ceil(bytes.length / ASSUMED_PDF_PAGE_BYTES))

/**
 * The number of pages of the PDF a file source holds inline (base64 data, or
 * a base64 `data:` URL), or `undefined` for one it does not (a URL, a file
 * id, text) or whose data is not a PDF's.
 */
export const pdfPagesOfSource: (source: Block.FileSource) => number | undefined = readInlineOnce(pdfPagesOfBase64)

/**
 * Whether a file is a PDF by its media type (any case, parameters and blanks around it allowed, as the writers read
 * a media type: " application/pdf" goes out as a PDF, and was priced as an opaque file, a 20-page one 170 times under).
 */
export const isPdf = (file: Block.FileBlock): boolean => bareMediaType(file.mediaType) === "application/pdf"

/**
 * What a page costs when no provider is known: an image of the page as Claude
 * prices it (1,599) and a page of text, 2,199, Claude's price below Opus 4.7
 * (which reads larger images) and more than Gemini's or OpenAI's on its
 * full-size models. A budget must not take a cheaper provider's figure for a
 * request that may go to Claude. OpenAI's models whose images cost more charge
 * more (`openAiChatPdfTokens`); `estimateRequest` prices those.
 */
export const DEFAULT_PDF_PAGE_TOKENS = anthropicImageTokens(PAGE_PIXELS) + PDF_PAGE_TEXT_TOKENS

/**
 * A PDF on Claude: an image of each page (1,599 tokens, about the most an
 * image costs; 2,805 on Opus 4.7 and later, which read larger images) and
 * the file's text. Anthropic's PDF guide: each page is billed as its text
 * and an image of it, "typically 1,500 to 3,000 tokens per page" (recorded:
 * a one-page PDF of a few words cost claude-3-5-haiku, claude-sonnet-4 and
 * claude-sonnet-5 1,598 to 1,656 tokens in all).
 */
export const anthropicPdfTokens = (facts: PdfFacts, highResolution: boolean): number =>
  facts.pages * anthropicImageTokens(PAGE_PIXELS, highResolution) + facts.textTokens

/**
 * A page on Gemini: a flat figure whatever it holds, text or not, which is
 * what Gemini charges a small image. Gemini 3 and later: the media
 * resolution's figure, the part's, else the request's, else 1,120 (on the
 * three recorded gemini-3-flash-preview requests with a one-page PDF,
 * test/data/gemini-usage, the page cost 1,130 to 1,240 tokens over the rest
 * of the request, one with a page of text on it and one with three words).
 * Gemini 2.x: 258, one tile, as the Gemini API's document guide gives. An id
 * without a version: the larger.
 */
export const geminiPdfPageTokens = (model: string | undefined, resolution: unknown): number =>
  geminiImageTokens(ONE_TILE, model, resolution)

/** An image Gemini 2.x prices as one tile (258 tokens): both sides within 384 pixels. */
const ONE_TILE: ImageSize = { width: 384, height: 384 }

/**
 * A PDF sent in a Chat Completions `file` part: its text and an image of
 * each page (OpenAI's file inputs guide: the model is given "both the
 * extracted text and an image of each page"), the image priced as the model
 * prices a page-sized one at high detail (765 on gpt-4o, 630 on gpt-5; 2,425
 * on gpt-4.1-mini, priced by patches; 25,501 on gpt-4o-mini, whose image
 * tokens are multiplied so that an image costs what it does on gpt-4o).
 *
 * That is over what recorded requests were billed, on the safe side: a
 * one-page PDF cost about 211 tokens more than on the Responses API (which
 * bills no image, below) on gpt-4o and gpt-5-mini, about 980 more on
 * gpt-4.1-nano (pydantic-ai's, Mirascope's and ellmer's test suites). No
 * image rule gives those figures (a tile at high detail alone is 255 on
 * gpt-4o, low detail 85), so they are not priced as one.
 */
export const openAiChatPdfTokens = (facts: PdfFacts, model: string | undefined): number =>
  facts.pages * openAiImagePartTokens(model, PAGE_PIXELS, "high") + facts.textTokens

/**
 * A PDF sent in a Responses `input_file`: its text, and an image of each
 * page at high detail (as on Chat) when the model is given one. The file's
 * `detail` says so: `high` gives page images, `low` none, and `auto` (the
 * default) reads pages as `high` from GPT-5.6 on and as `low` before
 * (OpenAI's file inputs guide). Before GPT-5.6 `auto` was billed no page
 * image on any recorded request: 25 requests from crewAI's, pydantic-ai's,
 * Mirascope's, RubyLLM's and ellmer's test suites, with five one-page PDFs,
 * on gpt-4o, gpt-4o-mini, o4-mini, gpt-4.1-nano, gpt-5-nano, gpt-5-mini and
 * gpt-5.4-nano: a page of lorem ipsum cost 737 to 757 tokens, a title or a
 * few words 4 to 55, where one image of the page would have been 2,833 at
 * low detail on gpt-4o-mini. So `low` is priced as the text alone too. A
 * model the rule cannot place (no id, or one that is not OpenAI's) gets
 * the page images, the larger.
 */
export const openAiResponsesPdfTokens = (facts: PdfFacts, model: string | undefined, detail: unknown): number =>
  (detail === "high" || (detail !== "low" && !readsPagesAtLowDetail(model)) ? facts.pages * openAiImagePartTokens(model, PAGE_PIXELS, "high") : 0) +
  facts.textTokens

/** OpenAI models before GPT-5.6, whose `auto` detail reads a PDF's pages at low detail: GPT-3.5 and 4 (4o, 4.1), the o-series, GPT-5 to 5.5. */
const readsPagesAtLowDetail = (model: string | undefined): boolean =>
  model !== undefined && (/^(gpt-3\.5|gpt-4|chatgpt-4o|o\d)/.test(model) || (gpt5Minor(model) ?? 6) < 6)
