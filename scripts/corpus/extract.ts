/**
 * Turning files shipped in packages into plain text: HTML pages, troff manual
 * pages, gettext catalogues (`.mo`), and the small text utilities the corpus
 * build shares (normalization, deterministic random numbers, chunking).
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as zlib from "node:zlib"

export const readText = (file: string): string => {
  const buf = fs.readFileSync(file)
  return (file.endsWith(".gz") ? zlib.gunzipSync(buf) : buf).toString("utf8")
}

// ---------------------------------------------------------------------------
// HTML
// ---------------------------------------------------------------------------

const ENTITIES: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " ", mdash: "—", ndash: "–",
  hellip: "…", copy: "©", reg: "®", trade: "™", laquo: "«", raquo: "»", lsquo: "‘", rsquo: "’",
  ldquo: "“", rdquo: "”", bull: "•", middot: "·", times: "×", rarr: "→", larr: "←"
}

export const decodeEntities = (s: string): string =>
  s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] === "#") {
      const cp = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)
      return Number.isFinite(cp) && cp > 0 && cp < 0x110000 ? String.fromCodePoint(cp) : m
    }
    return ENTITIES[e] ?? m
  })

// Chinese and Japanese (not Korean, which separates words with spaces), and Thai.
const NO_SPACE_RE = /[\u0e00-\u0e7f\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]/

/** Collapses HTML source whitespace; a line wrapped between two characters of a script without spaces joins without one. */
const collapseInline = (s: string): string =>
  s.replace(/(.?)([ \t\r\n]+)(.?)/gsu, (_m, a: string, ws: string, b: string) => {
    if (ws.includes("\n") && a !== "" && b !== "" && NO_SPACE_RE.test(a) && NO_SPACE_RE.test(b)) return a + b
    return `${a} ${b}`
  })

/** Converts an HTML page (or a fragment of it) to plain text with blank lines between blocks. */
export const htmlToText = (html: string): string => {
  let s = html
  s = s.replace(/<(head|script|style|noscript|nav|header|aside|footer)\b[\s\S]*?<\/\1>/gi, "")
  s = s.replace(/<div class="(navheader|navfooter|toc)"[\s\S]*?<\/div>/gi, "")
  s = s.replace(/<!--[\s\S]*?-->/g, "")
  const pres: Array<string> = []
  s = s.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre>/gi, (_m, body: string) => {
    pres.push(decodeEntities(body.replace(/<[^>]+>/g, "")).replace(/^\n+|\s+$/g, ""))
    return `\n\n\u0000${pres.length - 1}\u0000\n\n`
  })
  s = s.replace(/<br\s*\/?>/gi, "\n")
  s = s.replace(/<li\b[^>]*>/gi, "\n\n- ")
  s = s.replace(/<\/?(p|div|h[1-6]|ul|ol|dl|dt|dd|table|tr|blockquote|section|article|title|caption)\b[^>]*>/gi, "\n\n")
  s = s.replace(/<\/?(td|th)\b[^>]*>/gi, " ")
  s = s.replace(/<[^>]+>/g, "")
  const blocks = s.split(/\n\s*\n/).map((b) => {
    const pre = /^\s*\u0000(\d+)\u0000\s*$/.exec(b)
    if (pre !== null) return pres[Number(pre[1])] ?? ""
    return decodeEntities(collapseInline(b)).trim()
  })
  // A list item whose text sat in its own <p> comes out as a lone "-" block: join it to its text.
  const out: Array<string> = []
  let bullet = false
  for (const b of blocks) {
    if (b.length === 0) continue
    if (b === "-") {
      bullet = true
      continue
    }
    out.push(bullet ? `- ${b}` : b)
    bullet = false
  }
  return out.join("\n\n")
}

/** The `href` targets of an HTML page that are absolute URLs. */
export const htmlLinks = (html: string): Array<string> =>
  [...html.matchAll(/href="(https?:\/\/[^"#]+[^"]*)"/g)].map((m) => decodeEntities(m[1] ?? ""))

// ---------------------------------------------------------------------------
// troff manual pages
// ---------------------------------------------------------------------------

const TROFF_NAMED: Record<string, string> = {
  em: "—", en: "–", aq: "'", dq: "\"", bu: "•", lq: "“", rq: "”", oq: "‘", cq: "’", co: "©", rg: "®",
  hy: "-", mi: "-", pl: "+", mu: "×", "->": "→", "<-": "←", Fo: "«", Fc: "»", fo: "‹", fc: "›",
  ga: "`", ha: "^", ti: "~", ba: "|", rs: "\\", sl: "/", "sh": "#", Do: "$", at: "@", lB: "[", rB: "]",
  lC: "{", rC: "}", "<=": "≤", ">=": "≥", "!=": "≠", de: "°", tm: "™", ss: "ß", "'e": "é"
}

/** Replaces troff escapes in one line of text. */
const troffEscapes = (s: string): string =>
  s
    .replace(/\\f(\[[^\]]*\]|\(..|.)/g, "")
    .replace(/\\s[+-]?\d/g, "")
    .replace(/\\\*(\[[^\]]*\]|\(..|.)/g, "")
    .replace(/\\\[u([0-9A-Fa-f]{4,6})\]/g, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/\\\[([^\]]+)\]/g, (_m, n: string) => TROFF_NAMED[n] ?? "")
    .replace(/\\\((..)/g, (_m, n: string) => TROFF_NAMED[n] ?? "")
    .replace(/\\[kvhwoNLlDXxYZ]'[^']*'/g, "")
    .replace(/\\n(\[[^\]]*\]|\(..|.)/g, "")
    .replace(/\\-/g, "-")
    .replace(/\\[e\\]/g, "\\")
    .replace(/\\[ ~0]/g, " ")
    .replace(/\\[&|^c)dur%:!{}ptaz]/g, "")
    .replace(/\\(.)/g, "$1")

/** Splits the arguments of a troff request, honouring double quotes. */
const troffArgs = (s: string): Array<string> => {
  const out: Array<string> = []
  const re = /"((?:[^"]|"")*)"?|(\S+)/g
  for (const m of s.matchAll(re)) out.push((m[1] ?? m[2] ?? "").replace(/""/g, "\""))
  return out
}

/** Converts a manual page in troff (man macros) to plain text: paragraphs, headings, tagged items, examples kept as lines. */
export const troffToText = (src: string): string => {
  const paras: Array<string> = []
  let cur: Array<string> = []
  let noFill = false
  const flush = (): void => {
    if (cur.length > 0) paras.push(noFill ? cur.join("\n") : cur.join(" ").replace(/\s+/g, " ").trim())
    cur = []
  }
  for (const rawLine of src.split("\n")) {
    const line = rawLine.replace(/\\".*$/, "")
    if (/^['.]\s*\\"/.test(rawLine)) continue
    if (line.startsWith(".") || line.startsWith("'")) {
      const m = /^[.']\s*(\S+)\s*(.*)$/.exec(line)
      if (m === null) continue
      const req = m[1] ?? ""
      const args = m[2] ?? ""
      switch (req) {
        case "SH":
        case "SS":
          flush()
          paras.push(troffEscapes(troffArgs(args).join(" ")))
          break
        case "PP":
        case "P":
        case "LP":
        case "sp":
        case "TP":
        case "HP":
          flush()
          break
        case "IP": {
          flush()
          const tag = troffArgs(args)[0]
          if (tag !== undefined && tag !== "") cur.push(troffEscapes(tag))
          break
        }
        case "br":
          if (!noFill) flush()
          break
        case "nf":
        case "EX":
          flush()
          noFill = true
          break
        case "fi":
        case "EE":
          flush()
          noFill = false
          break
        case "B":
        case "I":
        case "SM":
        case "SB":
          cur.push(troffEscapes(troffArgs(args).join(" ")))
          break
        case "BR":
        case "RB":
        case "IR":
        case "RI":
        case "BI":
        case "IB":
          cur.push(troffEscapes(troffArgs(args).join("")))
          break
        case "UR":
        case "MT":
          cur.push(troffEscapes(args.trim()))
          break
        default:
          // Layout requests (.TH, .RS, .in, .ft, .ad, .na, .nh, .ne, .ti, .de ...) carry no text.
          break
      }
      continue
    }
    const text = troffEscapes(line)
    if (text.trim() === "" && !noFill) {
      flush()
      continue
    }
    cur.push(noFill ? text.replace(/\s+$/, "") : text.trim())
  }
  flush()
  return paras.filter((p) => p.trim().length > 0).join("\n\n")
}

// ---------------------------------------------------------------------------
// gettext catalogues
// ---------------------------------------------------------------------------

/**
 * The translated strings of a gettext `.mo` catalogue, in catalogue order,
 * without the header entry. Plural forms are all kept. Keyboard-accelerator
 * markers (`_File`, `~File`, `&File`) are removed, as a user would see the label.
 * Entries are read as UTF-8 unless `decode` reads them otherwise (a catalogue
 * in an older charset).
 */
export const moStrings = (file: string, decode: (bytes: Uint8Array) => string = (b) => Buffer.from(b).toString("utf8")): Array<string> => {
  const buf = fs.readFileSync(file)
  const magic = buf.readUInt32LE(0)
  const le = magic === 0x950412de
  const u32 = (o: number): number => (le ? buf.readUInt32LE(o) : buf.readUInt32BE(o))
  const n = u32(8)
  const transTable = u32(16)
  const out: Array<string> = []
  for (let i = 0; i < n; i++) {
    const len = u32(transTable + i * 8)
    const off = u32(transTable + i * 8 + 4)
    const s = decode(buf.subarray(off, off + len))
    if (s.startsWith("Project-Id-Version") || s.startsWith("Content-Type")) continue
    for (const form of s.split("\u0000")) {
      const clean = form.replace(/[_~&](?=\p{L})/gu, "").trim()
      if (clean.length > 0) out.push(clean)
    }
  }
  return out
}

/**
 * Three runs of 1 to 40 (log-uniform) consecutive records of a JSON array, or entries of an object (each run one
 * object), from random starts: a data file taken as query results are.
 */
export const jsonRuns = (data: object, rand: () => number): Array<unknown> => {
  const items: Array<unknown> = Array.isArray(data) ? data : Object.entries(data as Record<string, unknown>).map(([k, v]) => ({ [k]: v }))
  if (items.length === 0) return []
  const values: Array<unknown> = []
  for (let i = 0; i < 3; i++) {
    const n = Math.round(logUniform(rand, 1, 40))
    const s = Math.floor(rand() * Math.max(1, items.length - n))
    const run = items.slice(s, s + n)
    values.push(Array.isArray(data) ? run : Object.assign({}, ...run))
  }
  return values
}

/** Serializes JSON values as tool results: compact or pretty, long ones cut at line ends. */
export const jsonMessages = (values: ReadonlyArray<unknown>, seed: string): Array<string> => {
  const rand = rng(seed)
  const out: Array<string> = []
  for (const v of values) {
    if (v === undefined || v === null || v === "") continue
    const compact = typeof v === "string" ? v : JSON.stringify(v)
    if (compact.length < 4000 && rand() < 0.5) {
      out.push(compact)
      continue
    }
    const pretty = typeof v === "string" ? v : JSON.stringify(v, null, 2)
    out.push(...splitLong(pretty, Math.round(logUniform(rand, 300, 4000))))
  }
  return out
}

// ---------------------------------------------------------------------------
// text utilities
// ---------------------------------------------------------------------------

/** Normalizes line endings, strips control characters and trailing spaces. */
export const normalize = (s: string): string =>
  s
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim()

export const hash = (s: string): string => createHash("sha256").update(s).digest("hex")

/** Deterministic pseudo-random numbers (mulberry32) seeded from a string. */
export const rng = (seed: string): (() => number) => {
  let a = createHash("sha256").update(seed).digest().readUInt32LE(0)
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A log-uniform number in [lo, hi]. */
export const logUniform = (rand: () => number, lo: number, hi: number): number =>
  Math.exp(Math.log(lo) + rand() * (Math.log(hi) - Math.log(lo)))

/** `n` items spread evenly over `items` (so a package is not represented by its first files alphabetically). */
export const pickEvenly = <A>(items: ReadonlyArray<A>, n: number): Array<A> => {
  if (items.length <= n) return [...items]
  const step = items.length / n
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)] as A)
}

export const MIN_LEN = 20
export const MAX_LEN = 4000

/** Splits text longer than `max` at line ends, then at spaces, then anywhere (never inside a surrogate pair). */
export const splitLong = (text: string, max: number): Array<string> => {
  if (text.length <= max) return [text]
  const out: Array<string> = []
  let rest = text
  while (rest.length > max) {
    let cut = rest.lastIndexOf("\n", max)
    if (cut < max / 4) cut = rest.lastIndexOf(" ", max)
    if (cut < max / 4) cut = max
    const c = rest.charCodeAt(cut - 1)
    if (c >= 0xd800 && c <= 0xdbff) cut--
    const head = rest.slice(0, cut).trimEnd()
    if (head.length > 0) out.push(head)
    rest = rest.slice(cut).replace(/^\n+/, "")
  }
  if (rest.trim().length > 0) out.push(rest)
  return out
}

/**
 * Groups units (paragraphs, catalogue entries, lines) into messages whose
 * target lengths are log-uniform in [MIN_LEN, max], joined by `joiner`.
 */
export const chunkUnits = (units: ReadonlyArray<string>, seed: string, joiner: string, max = MAX_LEN): Array<string> => {
  const rand = rng(seed)
  const parts = units.flatMap((p) => splitLong(p, max))
  const out: Array<string> = []
  let cur = ""
  let target = logUniform(rand, MIN_LEN, max)
  for (const p of parts) {
    if (cur !== "" && cur.length + joiner.length + p.length > max) {
      out.push(cur)
      cur = ""
      target = logUniform(rand, MIN_LEN, max)
    }
    cur = cur === "" ? p : `${cur}${joiner}${p}`
    if (cur.length >= target) {
      out.push(cur)
      cur = ""
      target = logUniform(rand, MIN_LEN, max)
    }
  }
  if (cur !== "") out.push(cur)
  // Fold pieces shorter than MIN_LEN into the previous message.
  const merged: Array<string> = []
  for (const m of out) {
    const last = merged[merged.length - 1]
    if (m.length < MIN_LEN && last !== undefined && last.length + m.length + joiner.length <= max) merged[merged.length - 1] = `${last}${joiner}${m}`
    else merged.push(m)
  }
  return merged
}

/** Paragraph-aligned chunks of a continuous text. */
export const chunk = (text: string, seed: string, max = MAX_LEN): Array<string> => chunkUnits(text.split(/\n\n+/), seed, "\n\n", max)

/** Slices of a text at random offsets (for text without natural boundaries, such as minified code). */
export const slices = (text: string, seed: string, count: number, max = MAX_LEN): Array<string> => {
  const rand = rng(seed)
  const out: Array<string> = []
  for (let i = 0; i < count && text.length > MIN_LEN; i++) {
    const len = Math.min(text.length, Math.round(logUniform(rand, MIN_LEN, max)))
    let start = Math.floor(rand() * (text.length - len + 1))
    const c = text.charCodeAt(start)
    if (c >= 0xdc00 && c <= 0xdfff) start++
    let end = start + len
    const d = text.charCodeAt(end - 1)
    if (d >= 0xd800 && d <= 0xdbff) end--
    out.push(text.slice(start, end))
  }
  return out
}
