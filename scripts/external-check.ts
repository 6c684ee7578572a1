/**
 * External check of the heuristic token estimator: its accuracy on text the
 * fit never saw and the corpus build is forbidden to use, the packages
 * installed on this machine.
 *
 * Run: npm run check:external   (not part of `npm test` or CI; a few minutes)
 *
 * Text comes from the installed system and the project's dependency tree:
 * gettext catalogues (`/usr/share/locale/<lang>/LC_MESSAGES/*.mo`), translated
 * and English manual pages (`/usr/share/man`), package file listings
 * (`/var/lib/dpkg/info/*.list`), and from `node_modules/`: README.md files
 * (prose to `english`, fenced blocks to `code`, paragraphs with emoji to
 * `emoji`, the whole file to `markdown`), JavaScript and TypeScript sources
 * (`code`; minified bundles to `minified-js`), `.d.ts` files (`code`) and
 * `.json` files (`json`). Texts are cut into messages as the corpus build cuts
 * them (`chunk`, `chunkUnits`, `slices` of scripts/corpus/extract.ts) and
 * grouped as the corpus groups them: prose by the script its language is
 * written in, CJK and English by language. Scripts the corpus lacks get a row
 * of their own, named for the script.
 *
 * This text is reserved for checks like this one: nothing here may be used to
 * fit or tune the estimator (scripts/corpus/build.ts refuses these packages).
 *
 * Sampling is deterministic (seeded) and capped per category. Prints markdown:
 * per category and encoding the p90 of |est - exact| / exact over all messages
 * and over messages of 200+ UTF-16 code units, the corpus-total bias, the same
 * for tokenx, the README's held-out figures beside them, the misses of the
 * targets, and the worst messages of the worst categories.
 *
 * Options: `--dump FILE` writes every measured message (text, source, exact counts, estimates) as JSON lines;
 * `--cap N` characters per category (default 150000), `--worst N`
 * messages shown per worst category (default 12), `--worst-categories N`
 * how many of the categories furthest past their targets to show (default 3).
 */
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"
import * as fs from "node:fs"
import * as path from "node:path"
import { TextDecoder } from "node:util"
import { estimateTokenCount as tokenx } from "tokenx"
import { heuristicTextRule } from "../src/TokenEstimator.js"
import { CATEGORY_GROUPS } from "./corpus/corpus.js"
import { formatTable, pct, type Row, rowOf } from "./corpus/evaluate.js"
import { chunk, chunkUnits, jsonMessages, jsonRuns, logUniform, MAX_LEN, moStrings, normalize, readText, rng, slices, splitLong, troffToText } from "./corpus/extract.js"

const started = Date.now()
const ROOT = path.resolve(import.meta.dirname, "..")
const NODE_MODULES = fs.realpathSync(path.join(ROOT, "node_modules"))

const argValue = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name)
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN
  return Number.isFinite(v) && v > 0 ? v : fallback
}
const CAP = argValue("--cap", 150_000)
const WORST = argValue("--worst", 12)
const WORST_CATEGORIES = argValue("--worst-categories", 3)
const dumpAt = process.argv.indexOf("--dump")
/** Where to write every measured message as JSON lines (`--dump FILE`), for a closer look. */
const DUMP = dumpAt >= 0 ? process.argv[dumpAt + 1] : undefined
/** Characters one document (a catalogue part, a manual page, a source file) may give, so none fills a category. */
const DOC_CAP = 6_000

// ---------------------------------------------------------------------------
// scripts and categories
// ---------------------------------------------------------------------------

/** Scripts recognised in letters, and the corpus category of each (undefined: a script the corpus lacks). */
const SCRIPTS: ReadonlyArray<readonly [string, RegExp, string | undefined]> = [
  ["Latin", /\p{Script=Latin}/u, "latin"],
  ["Cyrillic", /\p{Script=Cyrillic}/u, "cyrillic"],
  ["Greek", /\p{Script=Greek}/u, "greek"],
  ["Arabic", /\p{Script=Arabic}/u, "arabic"],
  ["Hebrew", /\p{Script=Hebrew}/u, "hebrew"],
  ["Devanagari", /\p{Script=Devanagari}/u, "devanagari"],
  ["Bengali", /\p{Script=Bengali}/u, "bengali"],
  ["Tamil", /\p{Script=Tamil}/u, "tamil"],
  ["Telugu", /\p{Script=Telugu}/u, "indic"],
  ["Kannada", /\p{Script=Kannada}/u, "indic"],
  ["Malayalam", /\p{Script=Malayalam}/u, "indic"],
  ["Gujarati", /\p{Script=Gujarati}/u, "indic"],
  ["Gurmukhi", /\p{Script=Gurmukhi}/u, "indic"],
  ["Oriya", /\p{Script=Oriya}/u, "indic"],
  ["Sinhala", /\p{Script=Sinhala}/u, "indic"],
  ["Thai", /\p{Script=Thai}/u, "thai"],
  ["Georgian", /\p{Script=Georgian}/u, "georgian"],
  ["Armenian", /\p{Script=Armenian}/u, "armenian"],
  ["Ethiopic", /\p{Script=Ethiopic}/u, "ethiopic"],
  ["Han", /\p{Script=Han}/u, "chinese"],
  ["Kana", /[\p{Script=Hiragana}\p{Script=Katakana}]/u, "japanese"],
  ["Hangul", /\p{Script=Hangul}/u, "korean"],
  ["Khmer", /\p{Script=Khmer}/u, undefined],
  ["Lao", /\p{Script=Lao}/u, undefined],
  ["Myanmar", /\p{Script=Myanmar}/u, undefined],
  ["Tibetan", /\p{Script=Tibetan}/u, undefined],
  ["Thaana", /\p{Script=Thaana}/u, undefined],
  ["Cherokee", /\p{Script=Cherokee}/u, undefined],
  ["Canadian_Aboriginal", /\p{Script=Canadian_Aboriginal}/u, undefined],
  ["Tifinagh", /\p{Script=Tifinagh}/u, undefined],
  ["Shavian", /\p{Script=Shavian}/u, undefined],
  ["Mongolian", /\p{Script=Mongolian}/u, undefined],
  ["Syriac", /\p{Script=Syriac}/u, undefined],
  ["Ol_Chiki", /\p{Script=Ol_Chiki}/u, undefined]
]

/** The letters of a text per script. */
const scriptCounts = (text: string): Map<string, number> => {
  const out = new Map<string, number>()
  for (const ch of text) {
    if (!/\p{L}/u.test(ch)) continue
    const s = SCRIPTS.find(([, re]) => re.test(ch))
    const name = s?.[0] ?? "Other"
    out.set(name, (out.get(name) ?? 0) + 1)
  }
  return out
}

/**
 * The category of prose in language `lang` (a locale name such as `pt_BR`, `sr@latin`) whose letters are counted in
 * `counts`: the corpus's grouping (English and the CJK languages by language, every other language by its script),
 * the script's own name for a script the corpus lacks; undefined when the text has too few letters to tell.
 */
const proseCategory = (lang: string, counts: Map<string, number>): string | undefined => {
  const total = [...counts.values()].reduce((a, b) => a + b, 0)
  if (total < 50) return undefined
  const base = lang.split(/[_@.]/)[0] ?? lang
  const nonLatin = [...counts.entries()].filter(([s]) => s !== "Latin" && s !== "Other").sort((a, b) => b[1] - a[1])
  const kana = counts.get("Kana") ?? 0
  const han = counts.get("Han") ?? 0
  if (base === "ja" || (kana > 0 && kana + han >= total * 0.25)) return "japanese"
  if (base === "zh" || (han >= total * 0.25 && base !== "ko")) return "chinese"
  const top = nonLatin[0]
  if (top !== undefined && top[1] >= total * 0.25) {
    const entry = SCRIPTS.find(([name]) => name === top[0])
    return entry?.[2] ?? top[0].toLowerCase().replace(/_/g, "-")
  }
  return base === "en" ? "english" : "latin"
}

/**
 * The languages each script group of the corpus holds (scripts/corpus/build.ts), by the base of their locale name:
 * the rest of a group's languages here are ones the fit never saw in any project.
 */
const CORPUS_LANGUAGES: Record<string, ReadonlyArray<string>> = {
  english: ["en"],
  latin: ["de", "fr", "es", "it", "nl", "pl", "pt", "cs", "vi", "ro", "hu", "da", "sv", "tr"],
  cyrillic: ["ru", "uk", "bg", "be", "sr", "mk", "kk"],
  greek: ["el"],
  arabic: ["ar", "fa", "ug", "ur"],
  hebrew: ["he", "yi"],
  devanagari: ["hi", "mr", "ne", "mai", "brx", "kok", "doi"],
  bengali: ["bn", "as"],
  tamil: ["ta"],
  indic: ["te", "kn", "ml", "gu", "pa", "or", "si"],
  thai: ["th"],
  georgian: ["ka"],
  armenian: ["hy"],
  ethiopic: ["am"],
  // Simplified Chinese only (Debian's zh-cn documents, zh_CN manual pages and catalogues): Traditional is not in it.
  chinese: ["zh_CN", "zh_Hans", "zh_SG"],
  japanese: ["ja"],
  korean: ["ko"]
}
const baseLang = (lang: string): string => lang.split(/[_@.]/)[0] ?? lang
/** Whether a prose message's language (and, for Serbian and Belarusian, its script) is one the corpus has in that group. */
const inCorpusLanguage = (category: string, lang: string): boolean => {
  const langs = CORPUS_LANGUAGES[category]
  if (langs === undefined) return true
  if (lang === "pa_PK") return false
  if (category === "chinese") return langs.includes(lang)
  return langs.includes(baseLang(lang))
}

/** Categories present in the corpus (the README has held-out figures for these). */
const CORPUS_CATEGORIES = new Set<string>([...CATEGORY_GROUPS.prose, ...CATEGORY_GROUPS.code, ...CATEGORY_GROUPS.json, ...CATEGORY_GROUPS.machine])
const STRICT = new Set(["english", "chinese", "japanese", "korean", "code", "json"])
const groupOfCategory = (c: string): "prose" | "code" | "json" | "machine" | "other" =>
  (CATEGORY_GROUPS.prose as ReadonlyArray<string>).includes(c) ? "prose"
  : (CATEGORY_GROUPS.code as ReadonlyArray<string>).includes(c) ? "code"
  : c === "json" ? "json"
  : (CATEGORY_GROUPS.machine as ReadonlyArray<string>).includes(c) ? "machine"
  : c === "markdown" ? "other"
  : "prose"

// ---------------------------------------------------------------------------
// documents (lazily read) and sampling
// ---------------------------------------------------------------------------

interface Doc {
  readonly category: string
  /** What the sample is spread over evenly within a category (a language and source kind, an npm package...). */
  readonly stratum: string
  /** The file(s), for the report. */
  readonly source: string
  /** Source kind for the breakdown: mo, man, man-en, npm-readme, npm-js, npm-dts, npm-json, dpkg-list... */
  readonly kind: string
  readonly lang: string
  readonly messages: () => ReadonlyArray<string>
}

interface Message {
  readonly category: string
  readonly kind: string
  readonly lang: string
  readonly source: string
  readonly text: string
}

/** A file's text, or "" when it is not a readable regular file (node_modules has directories named `x.js`). */
const textOf = (file: string): string => {
  try {
    return fs.statSync(file).isFile() ? readText(file) : ""
  } catch {
    return ""
  }
}

/** A regular file's size, or -1. */
const sizeOf = (file: string): number => {
  try {
    const st = fs.statSync(file)
    return st.isFile() ? st.size : -1
  } catch {
    return -1
  }
}

const listFiles = (dir: string, re: RegExp): Array<string> => {
  try {
    return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => re.test(f)).sort()
  } catch {
    return []
  }
}

const shuffle = <A>(items: ReadonlyArray<A>, seed: string): Array<A> => {
  const rand = rng(seed)
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    const t = out[i] as A
    out[i] = out[j] as A
    out[j] = t
  }
  return out
}

/** A run of messages of at most DOC_CAP characters, from a seeded offset, so a big file is not always read from its start. */
const capDoc = (messages: ReadonlyArray<string>, seed: string): Array<string> => {
  const total = messages.reduce((s, m) => s + m.length, 0)
  if (total <= DOC_CAP) return [...messages]
  const start = Math.floor(rng(seed)() * messages.length)
  const out: Array<string> = []
  let chars = 0
  for (let k = 0; k < messages.length && chars < DOC_CAP; k++) {
    const m = messages[(start + k) % messages.length] as string
    out.push(m)
    chars += m.length
  }
  return out
}

// --- gettext catalogues ------------------------------------------------------

const LOCALE = "/usr/share/locale"
/** Terminal bold escapes wrapped around quotes: what `en@boldquot` holds beside plain English; left out. */
const SKIP_LOCALES = new Set(["en@boldquot"])

/** The charset a `.mo` catalogue declares in its header entry (`Content-Type: text/plain; charset=...`), lower case. */
const moCharset = (buf: Buffer): string => {
  const le = buf.readUInt32LE(0) === 0x950412de
  const u32 = (o: number): number => (le ? buf.readUInt32LE(o) : buf.readUInt32BE(o))
  const n = u32(8)
  const origTable = u32(12)
  const transTable = u32(16)
  for (let i = 0; i < n; i++) {
    if (u32(origTable + i * 8) !== 0) continue
    const header = buf.subarray(u32(transTable + i * 8 + 4), u32(transTable + i * 8 + 4) + u32(transTable + i * 8)).toString("latin1")
    return (/charset=([^\s;]+)/.exec(header)?.[1] ?? "utf-8").toLowerCase()
  }
  return "utf-8"
}

/**
 * The translated strings of a catalogue: `moStrings` (the corpus build's reader, which decodes UTF-8) for UTF-8 and
 * ASCII catalogues; a catalogue in another charset (older GNU tools' ISO-8859 and EUC catalogues) is decoded in its
 * own charset here, entries cleaned as `moStrings` cleans them, so it is not measured as replacement characters.
 */
const catalogueStrings = (file: string): Array<string> => {
  const buf = fs.readFileSync(file)
  const charset = moCharset(buf)
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(charset)
  } catch {
    // An unknown name (an untranslated header's "CHARSET"): read as UTF-8, as the corpus build would.
    return moStrings(file)
  }
  return decoder.encoding === "utf-8" ? moStrings(file) : moStrings(file, (bytes) => decoder.decode(bytes))
}

const catalogueDocs = (): Array<Doc> => {
  const out: Array<Doc> = []
  for (const lang of fs.readdirSync(LOCALE).sort()) {
    if (SKIP_LOCALES.has(lang)) continue
    const dir = path.join(LOCALE, lang, "LC_MESSAGES")
    const files = listFiles(dir, /\.mo$/)
    if (files.length === 0) continue
    const strings = new Map<string, Array<string>>()
    const read = (f: string): Array<string> => {
      const hit = strings.get(f)
      if (hit !== undefined) return hit
      let s: Array<string>
      try {
        s = catalogueStrings(path.join(dir, f))
      } catch {
        s = []
      }
      strings.set(f, s)
      return s
    }
    // The language's category from the letters of (up to) 20 of its catalogues.
    const counts = new Map<string, number>()
    for (const f of shuffle(files, `script-${lang}`).slice(0, 20)) {
      for (const [k, v] of scriptCounts(read(f).join("\n").slice(0, 20_000))) counts.set(k, (counts.get(k) ?? 0) + v)
    }
    const category = proseCategory(lang, counts)
    if (category === undefined) continue
    for (const f of files) {
      const id = `mo-${lang}-${f}`
      out.push({
        category,
        stratum: `mo ${lang}`,
        source: `${dir}/${f}`,
        // iso-codes' catalogues (names of countries, languages, scripts, currencies) apart from the programs' messages.
        kind: f.startsWith("iso_") ? "mo-iso" : "mo",
        lang,
        messages: () => capDoc(chunkUnits(read(f), id, "\n"), id)
      })
    }
  }
  return out
}

// --- manual pages ------------------------------------------------------------

const MAN = "/usr/share/man"

const manDocs = (): Array<Doc> => {
  const out: Array<Doc> = []
  for (const lang of fs.readdirSync(MAN).sort()) {
    const dir = path.join(MAN, lang)
    const english = /^man\d/.test(lang)
    if (!fs.statSync(dir).isDirectory()) continue
    const files = english ? listFiles(dir, /\.gz$/).map((f) => f) : listFiles(dir, /^man[1-8]\/[^/]+\.gz$/)
    let category: string | undefined = english ? "english" : undefined
    if (category === undefined) {
      const counts = new Map<string, number>()
      for (const f of shuffle(files, `man-script-${lang}`).slice(0, 10)) {
        try {
          for (const [k, v] of scriptCounts(troffToText(readText(path.join(dir, f))).slice(0, 20_000))) counts.set(k, (counts.get(k) ?? 0) + v)
        } catch {
          // unreadable page
        }
      }
      category = proseCategory(lang, counts)
    }
    if (category === undefined) continue
    for (const f of files) {
      const file = path.join(dir, f)
      const id = `man-${lang}-${f}`
      out.push({
        category,
        // English pages: spread over sections, so man1's thousands of pages do not crowd out the rest.
        stratum: english ? `man ${lang}` : `man ${lang}`,
        source: file,
        kind: english ? "man-en" : "man",
        lang: english ? "en" : lang,
        messages: () => {
          try {
            return capDoc(chunk(normalize(troffToText(readText(file))), id), id)
          } catch {
            return []
          }
        }
      })
    }
  }
  return out
}

// --- node_modules --------------------------------------------------------------

/** The package (name@path) a node_modules file belongs to. */
const packageOf = (rel: string): string => {
  const parts = rel.split("/")
  let pkg = ""
  for (let i = 0; i < parts.length; i++) {
    if (i === 0 || parts[i - 1] === "node_modules") {
      const p = parts[i] ?? ""
      pkg = p.startsWith("@") ? `${p}/${parts[i + 1] ?? ""}` : p
    }
  }
  return pkg
}

/** Runs of an array's records or an object's entries, as the corpus build takes data files (build.ts `jsonFiles`). */
const jsonFileMessages = (file: string, seed: string): Array<string> => {
  let data: unknown
  try {
    data = JSON.parse(textOf(file))
  } catch {
    return []
  }
  if (data === null || typeof data !== "object") return []
  const values = jsonRuns(data, rng(seed))
  return values.length === 0 ? [] : jsonMessages(values, seed)
}

const EMOJI = /\p{Extended_Pictographic}/u

/** A README's paragraphs: fenced blocks apart from the prose between them. */
const readmeParts = (text: string): { prose: Array<string>; code: Array<string>; emoji: Array<string> } => {
  const prose: Array<string> = []
  const code: Array<string> = []
  const emoji: Array<string> = []
  const pieces = text.split(/^(```[^\n]*\n[\s\S]*?\n```)[ \t]*$/m)
  for (const p of pieces) {
    const fence = /^```[^\n]*\n([\s\S]*?)\n```$/.exec(p)
    if (fence !== null) {
      if ((fence[1] ?? "").trim().length > 0) code.push(fence[1] ?? "")
      continue
    }
    for (const para of p.split(/\n\n+/)) {
      if (para.trim().length === 0) continue
      if (EMOJI.test(para)) emoji.push(para)
      else prose.push(para)
    }
  }
  return { prose, code, emoji }
}

/** Minified when named so or when its lines are very long on average (a bundle). */
const isMinified = (rel: string, text: string): boolean => {
  if (/\.min\.[cm]?js$/.test(rel)) return true
  const lines = text.split("\n").length
  return text.length / lines > 300
}

const npmDocs = (): Array<Doc> => {
  const out: Array<Doc> = []
  const files = fs.readdirSync(NODE_MODULES, { recursive: true, encoding: "utf8" }).sort()
  for (const rel of files) {
    const file = path.join(NODE_MODULES, rel)
    const pkg = packageOf(rel)
    const base = path.basename(rel)
    if (/^readme\.md$/i.test(base)) {
      const id = `npm-readme-${rel}`
      let parts: ReturnType<typeof readmeParts> | undefined
      const get = (): ReturnType<typeof readmeParts> => {
        if (parts === undefined) {
          parts = readmeParts(normalize(textOf(file)))
        }
        return parts
      }
      out.push({ category: "english", stratum: `readme ${pkg}`, source: `node_modules/${rel} (prose)`, kind: "npm-readme", lang: "en", messages: () => capDoc(chunk(get().prose.join("\n\n"), id), id) })
      out.push({ category: "code", stratum: `readme ${pkg}`, source: `node_modules/${rel} (fenced blocks)`, kind: "npm-readme", lang: "code", messages: () => capDoc(chunk(get().code.join("\n\n"), `${id}-code`), `${id}-code`) })
      out.push({ category: "emoji", stratum: `readme ${pkg}`, source: `node_modules/${rel} (paragraphs with emoji)`, kind: "npm-readme", lang: "emoji", messages: () => capDoc(chunk(get().emoji.join("\n\n"), `${id}-emoji`), `${id}-emoji`) })
      out.push({
        category: "markdown",
        stratum: `readme ${pkg}`,
        source: `node_modules/${rel} (whole)`,
        kind: "npm-readme",
        lang: "md",
        messages: () => capDoc(chunk(normalize(textOf(file)), `${id}-md`), `${id}-md`)
      })
      continue
    }
    if (/\.d\.[cm]?ts$/.test(base)) {
      const id = `npm-dts-${rel}`
      out.push({ category: "code", stratum: `dts ${pkg}`, source: `node_modules/${rel}`, kind: "npm-dts", lang: "ts", messages: () => capDoc(chunk(normalize(textOf(file)), id), id) })
      continue
    }
    if (/\.([cm]?js|[cm]?ts|tsx|jsx)$/.test(base)) {
      const id = `npm-js-${rel}`
      const size = sizeOf(file)
      if (size < 200 || size > 5_000_000) continue
      // Which of code or minified-js a file is can only be told from its text: both categories get a document,
      // and the one it does not belong to comes out empty.
      const text = (): string => normalize(textOf(file))
      out.push({ category: "code", stratum: `js ${pkg}`, source: `node_modules/${rel}`, kind: "npm-js", lang: "js", messages: () => { const t = text(); return isMinified(rel, t) ? [] : capDoc(chunk(t, id), id) } })
      out.push({ category: "minified-js", stratum: `js ${pkg}`, source: `node_modules/${rel}`, kind: "npm-js", lang: "js", messages: () => { const t = text(); return isMinified(rel, t) ? slices(t, id, 6) : [] } })
      continue
    }
    if (base.endsWith(".json")) {
      const size = sizeOf(file)
      if (size < 100 || size > 20_000_000) continue
      const id = `npm-json-${rel}`
      out.push({ category: "json", stratum: `json ${pkg}`, source: `node_modules/${rel}`, kind: "npm-json", lang: "json", messages: () => capDoc(jsonFileMessages(file, id), id) })
    }
  }
  return out
}

// --- file listings as paths ----------------------------------------------------

/** Paths of installed packages' files (dpkg's lists) and of an npm package's files, as the corpus build's `urls` takes listings. */
const listingDocs = (): Array<Doc> => {
  const out: Array<Doc> = []
  const info = "/var/lib/dpkg/info"
  for (const f of listFiles(info, /^[^/]+\.list$/)) {
    const id = `dpkg-list-${f}`
    out.push({
      category: "urls",
      stratum: "dpkg-list",
      source: `${info}/${f}`,
      kind: "dpkg-list",
      lang: "urls",
      messages: () => {
        const paths = textOf(path.join(info, f)).split("\n").filter((p) => p.length > 1)
        const rand = rng(id)
        const n = Math.round(logUniform(rand, 1, 60))
        const s = Math.floor(rand() * Math.max(1, paths.length - n))
        const text = paths.slice(s, s + n).join("\n")
        return text.length >= 20 ? splitLong(text, MAX_LEN) : []
      }
    })
  }
  // Links in the READMEs of node_modules.
  for (const rel of fs.readdirSync(NODE_MODULES, { recursive: true, encoding: "utf8" }).filter((r) => /(^|\/)readme\.md$/i.test(r)).sort()) {
    const id = `readme-links-${rel}`
    out.push({
      category: "urls",
      stratum: "readme-links",
      source: `node_modules/${rel} (links)`,
      kind: "npm-readme-links",
      lang: "urls",
      messages: () => {
        const links = [...textOf(path.join(NODE_MODULES, rel)).matchAll(/https?:\/\/[^\s)"'<>\]]+/g)].map((m) => m[0])
        const rand = rng(id)
        const n = Math.round(logUniform(rand, 1, 60))
        const s = Math.floor(rand() * Math.max(1, links.length - n))
        const text = links.slice(s, s + n).join("\n")
        return text.length >= 20 ? splitLong(text, MAX_LEN) : []
      }
    })
  }
  return out
}

/**
 * Messages of one category, up to CAP characters, spread evenly twice over: over the source kinds (catalogues,
 * iso-codes' catalogues, manual pages, READMEs...), each taking a turn in a seeded order, and within a kind over its
 * strata (a language, an npm package), each stratum giving its next document (in a seeded order) in turn.
 */
const sampleCategory = (category: string, docs: ReadonlyArray<Doc>): Array<Message> => {
  const kinds = new Map<string, Map<string, Array<Doc>>>()
  for (const d of docs) {
    const strata = kinds.get(d.kind) ?? new Map<string, Array<Doc>>()
    strata.set(d.stratum, [...(strata.get(d.stratum) ?? []), d])
    kinds.set(d.kind, strata)
  }
  const rotations = shuffle([...kinds.keys()].sort(), `kinds-${category}`).map((kind) => {
    const strata = kinds.get(kind) ?? new Map<string, Array<Doc>>()
    return shuffle([...strata.keys()].sort(), `strata-${category}-${kind}`).map((k) => shuffle(strata.get(k) ?? [], `docs-${category}-${k}`))
  })
  const next = rotations.map(() => 0)
  const out: Array<Message> = []
  let total = 0
  /** The next document of a kind that gives any text (its strata in turn), or undefined when the kind is used up. */
  const take = (r: number): ReadonlyArray<string> | undefined => {
    const queues = rotations[r] as Array<Array<Doc>>
    while (queues.length > 0) {
      const i = (next[r] as number) % queues.length
      const q = queues[i] as Array<Doc>
      const d = q.shift()
      if (q.length === 0) queues.splice(i, 1)
      else next[r] = i + 1
      if (d === undefined) continue
      const ms = d.messages().map(normalize).filter((m) => m.length > 0)
      if (ms.length === 0) continue
      for (const text of ms) out.push({ category, kind: d.kind, lang: d.lang, source: d.source, text })
      return ms
    }
    return undefined
  }
  let progress = true
  while (total < CAP && progress) {
    progress = false
    for (let r = 0; r < rotations.length && total < CAP; r++) {
      const ms = take(r)
      if (ms === undefined) continue
      total += ms.reduce((s, m) => s + m.length, 0)
      progress = true
    }
  }
  return out
}

// ---------------------------------------------------------------------------
// measuring
// ---------------------------------------------------------------------------

interface Measured extends Message {
  readonly o200k: number
  readonly cl100k: number
  readonly estO200k: number
  readonly estCl100k: number
  readonly tokenx: number
}

const ours = { o200k: heuristicTextRule("o200k"), cl100k: heuristicTextRule("cl100k") } as const

const measure = (m: Message): Measured => ({
  ...m,
  o200k: countO200k(m.text),
  cl100k: countCl100k(m.text),
  estO200k: ours.o200k(m.text),
  estCl100k: ours.cl100k(m.text),
  tokenx: tokenx(m.text)
})

const rowFor = (ms: ReadonlyArray<Measured>, est: (m: Measured) => number, exact: (m: Measured) => number): Row =>
  rowOf(ms.map((m) => ({ est: est(m), exact: exact(m), len: m.text.length })))

// ---------------------------------------------------------------------------
// the README's held-out figures
// ---------------------------------------------------------------------------

interface ReadmeRow {
  readonly o200k: { readonly p90Long: number; readonly p90: number; readonly bias: number }
  readonly cl100k: { readonly p90Long: number; readonly p90: number; readonly bias: number }
}

/** The held-out table of the README's Benchmarks section: `| category | msgs | p90 200+ / p90, bias | ... |`. */
const readmeFigures = (): Map<string, ReadmeRow> => {
  const out = new Map<string, ReadmeRow>()
  const text = fs.readFileSync(path.join(ROOT, "README.md"), "utf8")
  const start = text.indexOf("| category | msgs | o200k table vs o200k | cl100k table vs cl100k |")
  if (start < 0) return out
  const cell = (s: string): { p90Long: number; p90: number; bias: number } | undefined => {
    const m = /^\s*([\d.]+)% \/ ([\d.]+)%, ([+-]?[\d.]+)%\s*$/.exec(s)
    return m === null ? undefined : { p90Long: Number(m[1]) / 100, p90: Number(m[2]) / 100, bias: Number(m[3]) / 100 }
  }
  for (const line of text.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break
    const cells = line.split("|").map((c) => c.trim())
    const o = cell(cells[3] ?? "")
    const c = cell(cells[4] ?? "")
    if (o !== undefined && c !== undefined) out.set(cells[1] ?? "", { o200k: o, cl100k: c })
  }
  return out
}

// ---------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------

const main = (): void => {
  const docs = [...catalogueDocs(), ...manDocs(), ...npmDocs(), ...listingDocs()]
  const byCategory = new Map<string, Array<Doc>>()
  for (const d of docs) byCategory.set(d.category, [...(byCategory.get(d.category) ?? []), d])
  const order = [...CORPUS_CATEGORIES, ...[...byCategory.keys()].filter((c) => !CORPUS_CATEGORIES.has(c)).sort()]
  const measured: Array<Measured> = []
  for (const c of order) {
    const ds = byCategory.get(c)
    if (ds === undefined) continue
    // A script group's languages that the corpus has and those it lacks are sampled apart, each up to the cap, so
    // the many small languages of a script do not crowd out the ones the README's figures are about.
    const known = ds.filter((d) => inCorpusLanguage(c, d.lang))
    const unknown = ds.filter((d) => !inCorpusLanguage(c, d.lang))
    for (const m of sampleCategory(c, known)) measured.push(measure(m))
    for (const m of sampleCategory(`${c} (other languages)`, unknown)) measured.push(measure({ ...m, category: c }))
  }
  const gathered = Date.now()
  if (DUMP !== undefined) fs.writeFileSync(DUMP, measured.map((m) => JSON.stringify(m)).join("\n") + "\n")
  const categories = order.filter((c) => measured.some((m) => m.category === c))
  const readme = readmeFigures()
  const of = (c: string): Array<Measured> => measured.filter((m) => m.category === c)

  console.log(`# External check of the heuristic estimator (${new Date().toISOString()})\n`)
  console.log(`Cap ${CAP} characters per category, ${DOC_CAP} per document; ${measured.length} messages, ${measured.reduce((s, m) => s + m.text.length, 0)} characters.\n`)

  // Where the text came from.
  console.log("## Sample\n")
  const sampleRows = categories.map((c) => {
    const ms = of(c)
    const kinds = new Map<string, number>()
    for (const m of ms) kinds.set(m.kind, (kinds.get(m.kind) ?? 0) + 1)
    const langs = [...new Set(ms.map((m) => m.lang))]
    const sources = new Set(ms.map((m) => m.source)).size
    return [
      c + (CORPUS_CATEGORIES.has(c) ? "" : " *"),
      String(ms.length),
      String(ms.reduce((s, m) => s + m.text.length, 0)),
      String(ms.filter((m) => m.text.length >= 200).length),
      String(sources),
      [...kinds.entries()].map(([k, n]) => `${k} ${n}`).join(", "),
      langs.length > 12 ? `${langs.length} languages` : langs.join(" ")
    ]
  })
  console.log(formatTable(["category", "msgs", "chars", "200+", "files", "messages by source", "languages"], sampleRows))
  console.log("\n(* a kind of text the corpus has no category for)\n")

  const misses: Array<string> = []
  const scores: Array<{ category: string; encoding: string; score: number }> = []
  for (const encoding of ["o200k", "cl100k"] as const) {
    const exact = (m: Measured): number => (encoding === "o200k" ? m.o200k : m.cl100k)
    const est = (m: Measured): number => (encoding === "o200k" ? m.estO200k : m.estCl100k)
    const rows = [...categories, "overall"].map((c) => {
      const ms = c === "overall" ? measured : of(c)
      const r = rowFor(ms, est, exact)
      const t = rowFor(ms, (m) => m.tokenx, exact)
      const rm = readme.get(c)?.[encoding]
      const verdicts: Array<string> = []
      if (c !== "overall") {
        const group = groupOfCategory(c)
        if (STRICT.has(c)) {
          if (r.nLong > 0 && r.p90Long > 0.1) verdicts.push(`p90 200+ ${pct(r.p90Long)} > 10%`)
          if (r.p90 > 0.15) verdicts.push(`p90 ${pct(r.p90)} > 15%`)
        } else if (r.p90 > 0.2) verdicts.push(`p90 ${pct(r.p90)} > 20%`)
        const bound = group === "prose" ? 0.03 : group === "code" || group === "json" ? 0.05 : undefined
        if (bound !== undefined && Math.abs(r.bias) > bound) verdicts.push(`bias ${pct(r.bias, true)} outside ${bound * 100}%`)
        if (rm !== undefined) {
          if (r.p90 - rm.p90 > 0.03 || rm.p90 - r.p90 > 0.03) verdicts.push(`p90 ${pct(r.p90)} vs README ${pct(rm.p90)}`)
          if (r.nLong > 0 && Math.abs(r.p90Long - rm.p90Long) > 0.03) verdicts.push(`p90 200+ ${pct(r.p90Long)} vs README ${pct(rm.p90Long)}`)
          if (Math.abs(r.bias - rm.bias) > 0.03) verdicts.push(`bias ${pct(r.bias, true)} vs README ${pct(rm.bias, true)}`)
        }
        for (const v of verdicts) misses.push(`${encoding} ${c}: ${v}`)
        // How far past its targets a category is (the largest ratio of figure to bound), for picking the worst.
        if (CORPUS_CATEGORIES.has(c)) {
          const ratios = [r.p90 / (STRICT.has(c) ? 0.15 : 0.2)]
          if (STRICT.has(c) && r.nLong > 0) ratios.push(r.p90Long / 0.1)
          if (bound !== undefined) ratios.push(Math.abs(r.bias) / bound)
          scores.push({ category: c, encoding, score: Math.max(...ratios) })
        }
      }
      return [
        c + (CORPUS_CATEGORIES.has(c) || c === "overall" ? "" : " *"),
        String(r.n),
        String(r.nLong),
        pct(r.p50),
        pct(r.p90),
        pct(r.p90Long),
        pct(r.bias, true),
        rm === undefined ? "-" : `${pct(rm.p90Long)} / ${pct(rm.p90)}, ${pct(rm.bias, true)}`,
        `${pct(t.p90)} / ${pct(t.bias, true)}`,
        verdicts.length === 0 ? (c === "overall" ? "" : "ok") : "MISS"
      ]
    })
    console.log(`## heuristic (${encoding} table) vs exact ${encoding}_base, external text\n`)
    console.log(formatTable(["category", "msgs", "200+", "p50", "p90", "p90 200+", "bias", "README held-out (200+ / all, bias)", "tokenx p90 / bias", "verdict"], rows))
    console.log("")
  }

  // The script groups again, split into the languages the corpus has and the ones it lacks; and the languages it has
  // without iso-codes' catalogues (lists of place, language and currency names, which the corpus has none of).
  console.log("## Script groups: languages the corpus has vs languages it lacks (p90 all / bias)\n")
  const langRows: Array<Array<string>> = []
  const cell = (ms: ReadonlyArray<Measured>, encoding: "o200k" | "cl100k"): string => {
    if (ms.length === 0) return "-"
    const r = encoding === "o200k" ? rowFor(ms, (m) => m.estO200k, (m) => m.o200k) : rowFor(ms, (m) => m.estCl100k, (m) => m.cl100k)
    return `${pct(r.p90)} / ${pct(r.bias, true)}`
  }
  for (const c of categories.filter((c) => CORPUS_LANGUAGES[c] !== undefined)) {
    const known = of(c).filter((m) => inCorpusLanguage(c, m.lang))
    const knownNoIso = known.filter((m) => m.kind !== "mo-iso")
    const unknown = of(c).filter((m) => !inCorpusLanguage(c, m.lang))
    langRows.push([
      c,
      `${known.length}`,
      cell(known, "o200k"),
      cell(known, "cl100k"),
      `${knownNoIso.length}`,
      cell(knownNoIso, "o200k"),
      cell(knownNoIso, "cl100k"),
      `${unknown.length}`,
      cell(unknown, "o200k"),
      cell(unknown, "cl100k"),
      [...new Set(unknown.map((m) => m.lang))].sort().join(" ")
    ])
  }
  console.log(
    formatTable(
      ["category", "corpus langs", "o200k", "cl100k", "same, no iso-codes", "o200k", "cl100k", "other langs", "o200k", "cl100k", "other languages"],
      langRows
    )
  )
  console.log("")

  console.log("## Misses (targets, or more than 3 points from the README's held-out figure)\n")
  for (const m of misses) console.log(`- ${m}`)
  console.log("")

  // Breakdown per source kind within each category.
  console.log("## Per category and source kind (p90 all / bias)\n")
  const kindRows: Array<Array<string>> = []
  for (const c of categories) {
    const kinds = [...new Set(of(c).map((m) => m.kind))].sort()
    for (const k of kinds) {
      const ms = of(c).filter((m) => m.kind === k)
      const o = rowFor(ms, (m) => m.estO200k, (m) => m.o200k)
      const l = rowFor(ms, (m) => m.estCl100k, (m) => m.cl100k)
      kindRows.push([c, k, String(ms.length), `${pct(o.p90)} / ${pct(o.bias, true)}`, `${pct(l.p90)} / ${pct(l.bias, true)}`])
    }
  }
  console.log(formatTable(["category", "source", "msgs", "o200k", "cl100k"], kindRows))
  console.log("")

  // Breakdown per source kind and per language within each category.
  console.log("## Per category, source kind and language (o200k / cl100k p90 all, bias)\n")
  const breakdown: Array<Array<string>> = []
  for (const c of categories) {
    const keys = new Map<string, Array<Measured>>()
    for (const m of of(c)) {
      const k = `${m.kind} ${m.lang}`
      keys.set(k, [...(keys.get(k) ?? []), m])
    }
    for (const [k, ms] of [...keys.entries()].sort()) {
      if (keys.size === 1 && ms.length === of(c).length && c !== "english") continue
      const o = rowFor(ms, (m) => m.estO200k, (m) => m.o200k)
      const l = rowFor(ms, (m) => m.estCl100k, (m) => m.cl100k)
      breakdown.push([c, k, String(ms.length), `${pct(o.p90)}, ${pct(o.bias, true)}`, `${pct(l.p90)}, ${pct(l.bias, true)}`])
    }
  }
  console.log(formatTable(["category", "source lang", "msgs", "o200k p90, bias", "cl100k p90, bias"], breakdown))
  console.log("")

  // Features of the messages that may explain errors.
  const features: ReadonlyArray<readonly [string, RegExp]> = [
    ["printf %s", /%(\d+\$)?[-+ #0]*\d*(\.\d+)?[lhqjzt]*[sdiufxXcpegEG]/],
    ["{placeholder}", /\{[A-Za-z0-9_]+\}/],
    ["markup <b>", /<\/?[a-z][^>]*>/],
    ["mnemonic _X/&X", /(^|\s)[_&][\p{L}]/u],
    ["ASCII-only", /^[\x00-\x7f]*$/]
  ]

  // The worst categories: their worst messages, and what they have in common.
  const worst = [...scores]
    .sort((a, b) => b.score - a.score)
    .filter((s, i, arr) => arr.findIndex((x) => x.category === s.category) === i)
    .slice(0, WORST_CATEGORIES)
  for (const { category, encoding } of worst) {
    const exact = (m: Measured): number => (encoding === "o200k" ? m.o200k : m.cl100k)
    const est = (m: Measured): number => (encoding === "o200k" ? m.estO200k : m.estCl100k)
    const ms = of(category).map((m) => ({ m, err: (est(m) - exact(m)) / exact(m) })).filter((x) => Number.isFinite(x.err))
    ms.sort((a, b) => Math.abs(b.err) - Math.abs(a.err))
    const top = ms.slice(0, Math.max(1, Math.ceil(ms.length / 10)))
    console.log(`## Worst: ${category} (${encoding} table), worst ${WORST} of ${ms.length} messages\n`)
    const share = (xs: ReadonlyArray<{ m: Measured }>, re: RegExp): string => pct(xs.filter((x) => re.test(x.m.text)).length / Math.max(1, xs.length))
    console.log(
      formatTable(
        ["feature", "worst 10%", "all"],
        [
          ...features.map(([name, re]) => [name, share(top, re), share(ms, re)]),
          ["mean length", (top.reduce((s, x) => s + x.m.text.length, 0) / Math.max(1, top.length)).toFixed(0), (ms.reduce((s, x) => s + x.m.text.length, 0) / Math.max(1, ms.length)).toFixed(0)],
          ["over / under", `${top.filter((x) => x.err > 0).length} / ${top.filter((x) => x.err < 0).length}`, `${ms.filter((x) => x.err > 0).length} / ${ms.filter((x) => x.err < 0).length}`]
        ]
      )
    )
    const langs = new Map<string, number>()
    for (const x of top) langs.set(`${x.m.kind} ${x.m.lang}`, (langs.get(`${x.m.kind} ${x.m.lang}`) ?? 0) + 1)
    console.log(`\nworst 10% by source and language: ${[...langs.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ")}\n`)
    for (const { m, err } of ms.slice(0, WORST)) {
      console.log(`- ${pct(err, true)} (est ${est(m)}, exact ${exact(m)}, ${m.text.length} chars, ${m.lang}, ${m.source}): ${JSON.stringify(m.text.length > 160 ? `${m.text.slice(0, 160)}…` : m.text)}`)
    }
    console.log("")
  }

  console.log(`Gathered and counted in ${((gathered - started) / 1000).toFixed(1)} s; total ${((Date.now() - started) / 1000).toFixed(1)} s.`)
}

main()
