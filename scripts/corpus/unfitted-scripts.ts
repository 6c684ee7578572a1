/**
 * Prices of letters the corpus cannot fit, which the estimator gives a class
 * each at a fixed price per code point (`UNFITTED_SCRIPT_PRIORS` and
 * `HANGUL_PRIORS` in fit.ts): four scripts the corpus has no group for (Lao,
 * Tibetan, Myanmar, Khmer), Hangul jamo, the Hangul syllables and CJK
 * ideographs a vocabulary holds no token for, accents decomposed to NFD, and
 * Arabic presentation forms.
 *
 * Run: node_modules/.bin/node --import tsx scripts/corpus/unfitted-scripts.ts [--sample FILE]
 * (after scripts/corpus/build.ts has filled its package cache; Gemma 3's
 * figures need its tokenizer, see exact.ts, and are left out without it).
 *
 * The four scripts: the gettext catalogues of the corpus build's packages, in
 * the languages written in them (Lao; Tibetan and Dzongkha; Burmese; Khmer).
 * The prices come from the train projects' catalogues only: for each script
 * and encoding, the price that makes the estimate's total equal the exact
 * total (the estimate is linear in it), printed as how far the shipped price
 * is from that. The held-out projects' catalogues (VLC, File Roller, Simple
 * Scan, Synaptic: `HOLDOUT_PROJECTS` in build.ts) are measured beside them.
 *
 * Hangul, from the corpus's Korean text: conjoining jamo are priced on the
 * train messages decomposed to NFD, as above; compatibility jamo at their
 * average cost alone (U+3131-3163, the modern letters: the corpus has next to
 * none); a syllable of the encoding's most costly class (three or more tokens
 * alone: 0.04% of the corpus's Korean syllables with o200k, which the fit
 * cannot price) at what it adds in context: the train messages' exact count
 * when ten of their syllables are replaced by such ones, seeded. Likewise a
 * CJK ideograph three or more tokens alone, in the Chinese and Japanese train
 * messages (one occurrence in them with o200k, none with Gemma 3).
 *
 * A combining accent after a lowercase letter (text decomposed to NFD, as
 * macOS writes file names): priced on the corpus's Latin-script train text
 * decomposed, with Greek and Cyrillic printed beside it.
 *
 * Arabic presentation forms, from the corpus's Arabic-script train text with
 * each letter replaced by its form for its place in the word (as text taken
 * from PDFs often comes), priced like the four scripts.
 *
 * `--sample FILE` writes, for test/unfittedScripts.test.ts, with exact counts:
 * up to 40 held-out catalogue messages of 20+ characters per script, 40
 * held-out Korean messages in NFD, 40 texts of random syllables and 40 of
 * random ideographs, 40 held-out Latin-script messages in NFD, and 40
 * held-out Arabic-script messages in presentation forms.
 */
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { estimateText as estimateGemini } from "../../src/GeminiEstimator.js"
import { CLASS_NAMES, HANGUL_END, HANGUL_START, type HeuristicSpec, makeHeuristicTable } from "../../src/internal/heuristic.js"
import { cl100kSpec, o200kSpec } from "../../src/internal/weights.js"
import { geminiSpec } from "../../src/internal/weightsGemini.js"
import { heuristicTextRule } from "../../src/TokenEstimator.js"
import { readMessages } from "./corpus.js"
import { loadGemma } from "./exact.js"
import { MIN_LEN, moStrings, pickEvenly, rng } from "./extract.js"

const CACHE = process.env["CORPUS_CACHE"] ?? path.join(os.tmpdir(), "eam-corpus-cache")
/** The held-out projects' packages among the cached ones (their directories start with these). */
const HELD_OUT = ["deb-vlc-l10n-", "deb-file-roller-", "deb-simple-scan-", "deb-synaptic-"]
const LETTER = /[\p{L}\p{M}]/u

const SCRIPTS = [
  { name: "lao", locales: ["lo"], from: 0xe80, to: 0xeff },
  { name: "tibetan", locales: ["bo", "dz"], from: 0xf00, to: 0xfff },
  { name: "myanmar", locales: ["my"], from: 0x1000, to: 0x109f },
  { name: "khmer", locales: ["km"], from: 0x1780, to: 0x17ff }
] as const

type Counter = (text: string) => number
const encodings: Array<{ readonly name: string; readonly estimate: Counter; readonly exact: Counter; readonly spec: HeuristicSpec }> = [
  { name: "o200k", estimate: heuristicTextRule("o200k"), exact: countO200k, spec: o200kSpec },
  { name: "cl100k", estimate: heuristicTextRule("cl100k"), exact: countCl100k, spec: cl100kSpec }
]
try {
  encodings.push({ name: "gemma", estimate: estimateGemini, exact: await loadGemma(), spec: geminiSpec })
} catch (e) {
  console.log(`(Gemma 3 left out: ${(e as Error).message})`)
}

const exactOf = (text: string): Record<string, number> => Object.fromEntries(encodings.map(({ name, exact }) => [name, exact(text)]))

/**
 * For each encoding, the estimate's total over the exact total, and by how much the price of one of the `units`
 * priced characters would have to change for the two to meet (the estimate is linear in it).
 */
const offBy = (texts: ReadonlyArray<string>, units: number, unit: string): string =>
  encodings
    .map(({ name, estimate, exact }) => {
      const est = texts.reduce((n, t) => n + estimate(t), 0)
      const x = texts.reduce((n, t) => n + exact(t), 0)
      const off = (x - est) / units
      return `${name}: estimate/exact ${(est / x).toFixed(3)}, off by ${off >= 0 ? "+" : ""}${off.toFixed(3)} ${unit}`
    })
    .join("; ")

const catalogues = (locale: string): Array<string> => {
  const out: Array<string> = []
  for (const pkg of fs.readdirSync(CACHE).sort()) {
    const dir = path.join(CACHE, pkg, "root", "usr", "share", "locale", locale, "LC_MESSAGES")
    if (!fs.existsSync(dir)) continue
    for (const f of fs.readdirSync(dir).sort()) if (f.endsWith(".mo")) out.push(path.join(dir, f))
  }
  return out
}

const sample: Record<string, Array<{ readonly text: string; readonly source: string; readonly exact: Record<string, number> }>> = {}
for (const script of SCRIPTS) {
  const lettersOf = (text: string): number => {
    let n = 0
    for (const ch of text) {
      const cp = ch.codePointAt(0) as number
      if (cp >= script.from && cp <= script.to && LETTER.test(ch)) n++
    }
    return n
  }
  for (const side of ["train", "held-out"] as const) {
    const texts: Array<{ text: string; source: string }> = []
    for (const file of script.locales.flatMap(catalogues)) {
      const pkg = path.relative(CACHE, file).split(path.sep)[0] as string
      if ((side === "held-out") !== HELD_OUT.some((p) => pkg.startsWith(p))) continue
      for (const text of moStrings(file)) if (text.length >= 4 && lettersOf(text) > 0) texts.push({ text, source: `${pkg}:${path.basename(file)}` })
    }
    const letters = texts.reduce((n, t) => n + lettersOf(t.text), 0)
    console.log(`${script.name} ${side}: ${texts.length} messages, ${letters} code points; ${offBy(texts.map((t) => t.text), letters, "a code point")}`)
    if (side === "held-out") {
      sample[script.name] = pickEvenly(texts.filter((t) => t.text.length >= MIN_LEN), 40).map(({ text, source }) => ({
        text,
        source,
        exact: exactOf(text)
      }))
    }
  }
}

// ---------------------------------------------------------------------------
// Hangul
// ---------------------------------------------------------------------------

const korean = (split: "train" | "holdout"): Array<string> => readMessages(split).filter((m) => m.category === "korean").map((m) => m.text)
const isJamo = (ch: string): boolean => ch >= "\u1100" && ch <= "\u11ff"

for (const side of ["train", "holdout"] as const) {
  const texts = korean(side).map((t) => t.normalize("NFD"))
  const jamo = texts.reduce((n, t) => n + [...t].filter(isJamo).length, 0)
  console.log(`Korean in NFD, ${side}: ${texts.length} messages, ${jamo} conjoining jamo; ${offBy(texts, jamo, "a jamo")}`)
}
for (const { name, exact } of encodings) {
  let tokens = 0
  for (let cp = 0x3131; cp <= 0x3163; cp++) tokens += exact(String.fromCharCode(cp))
  console.log(`compatibility jamo, ${name}: ${(tokens / (0x3163 - 0x3131 + 1)).toFixed(3)} tokens alone on average`)
}
/**
 * What a character of `pool` adds in context, exactly and as estimated: ten characters of `inRange` of each text are
 * replaced by random ones of the pool (seeded), per replaced character.
 */
const addedInContext = (
  texts: ReadonlyArray<string>,
  inRange: (ch: string) => boolean,
  pool: ReadonlyArray<number>,
  estimate: Counter,
  exact: Counter,
  seed: string
): { readonly exact: number; readonly estimate: number } => {
  const random = rng(seed)
  let dExact = 0
  let dEstimate = 0
  let replaced = 0
  for (const text of texts) {
    const chars = [...text]
    const at = chars.flatMap((c, i) => (inRange(c) ? [i] : []))
    if (at.length < 10) continue
    for (let k = 0; k < 10; k++) chars[at[Math.floor(random() * at.length)] as number] = String.fromCodePoint(pool[Math.floor(random() * pool.length)] as number)
    const changed = chars.join("")
    dExact += exact(changed) - exact(text)
    dEstimate += estimate(changed) - estimate(text)
    replaced += 10
  }
  return { exact: dExact / replaced, estimate: dEstimate / replaced }
}

const ideographText = readMessages("train").filter((m) => m.category === "chinese" || m.category === "japanese").map((m) => m.text)
for (const { name, estimate, exact, spec } of encodings) {
  const table = makeHeuristicTable(spec)
  const ofClass = (from: number, to: number, cls: string): Array<number> => {
    const out: Array<number> = []
    for (let cp = from; cp <= to; cp++) if (CLASS_NAMES[(table.pairs[2 * cp] as number) & 255] === cls) out.push(cp)
    return out
  }
  const isSyllable = (c: string): boolean => c >= "\uac00" && c <= "\ud7a3"
  const isIdeograph = (c: string): boolean => c >= "\u4e00" && c <= "\u9fff"
  for (const [what, pool, texts, inRange] of [
    ["a syllable three tokens alone", ofClass(HANGUL_START, HANGUL_END, "hangul3"), korean("train"), isSyllable],
    ["an ideograph two tokens alone", ofClass(0x4e00, 0x9fff, "cjk2"), ideographText, isIdeograph],
    ["an ideograph three tokens alone", ofClass(0x4e00, 0x9fff, "cjk3"), ideographText, isIdeograph]
  ] as const) {
    if (pool.length === 0) continue
    const inPool = new Set(pool)
    const inText = texts.reduce((n, t) => n + [...t].filter((c) => inRange(c) && inPool.has(c.charCodeAt(0))).length, 0)
    const added = addedInContext(texts, inRange, pool, estimate, exact, `${what}-${name}`)
    console.log(
      `${what} (${pool.length} of them, ${inText} in the train text), ${name}: adds ${added.exact.toFixed(2)} in context, estimated ${added.estimate.toFixed(2)}`
    )
  }
}
sample["korean-nfd"] = pickEvenly(korean("holdout"), 40).map((t) => {
  const text = t.normalize("NFD")
  return { text, source: "corpus/korean (held out), decomposed to NFD", exact: exactOf(text) }
})
const random = rng("random-hangul")
sample["hangul-random"] = Array.from({ length: 40 }, () => {
  const words = Array.from({ length: 5 + Math.floor(random() * 40) }, () =>
    Array.from({ length: 1 + Math.floor(random() * 4) }, () => String.fromCharCode(HANGUL_START + Math.floor(random() * (HANGUL_END - HANGUL_START + 1)))).join("")
  )
  const text = words.join(" ")
  return { text, source: "random syllables of U+AC00-D7A3, seeded", exact: exactOf(text) }
})

// ---------------------------------------------------------------------------
// Accents decomposed to NFD
// ---------------------------------------------------------------------------

const combining = (t: string): number => t.match(/\p{M}/gu)?.length ?? 0
for (const category of ["latin", "greek", "cyrillic"] as const) {
  for (const side of ["train", "holdout"] as const) {
    const texts = readMessages(side).filter((m) => m.category === category && m.text.normalize("NFD") !== m.text).map((m) => m.text)
    const decomposed = texts.map((t) => t.normalize("NFD"))
    const marks = decomposed.reduce((n, t, i) => n + combining(t) - combining(texts[i] as string), 0)
    console.log(`${category} in NFD, ${side}: ${texts.length} messages, ${marks} accents; ${offBy(decomposed, marks, "an accent")}`)
  }
}
sample["latin-nfd"] = pickEvenly(readMessages("holdout").filter((m) => m.category === "latin" && m.text.normalize("NFD") !== m.text), 40).map((m) => {
  const text = m.text.normalize("NFD")
  return { text, source: "corpus/latin (held out), decomposed to NFD", exact: exactOf(text) }
})

// ---------------------------------------------------------------------------
// Arabic presentation forms
// ---------------------------------------------------------------------------

/**
 * The presentation forms of each Arabic letter, from their compatibility decompositions: the forms of a letter follow
 * one another as isolated, final, initial and medial (two-form letters: isolated and final).
 */
const arabicForms = (): ReadonlyMap<string, ReadonlyArray<string>> => {
  const forms = new Map<string, Array<string>>()
  for (const [from, to] of [[0xfb50, 0xfbff], [0xfe70, 0xfefc]] as const) {
    for (let cp = from; cp <= to; cp++) {
      const form = String.fromCharCode(cp)
      const letter = form.normalize("NFKC")
      if (letter === form || [...letter].length !== 1 || !/\p{L}/u.test(letter)) continue
      const list = forms.get(letter) ?? []
      if (list.length < 4) list.push(form)
      forms.set(letter, list)
    }
  }
  return forms
}
const FORMS = arabicForms()
/** Letters that join no letter after them. */
const RIGHT_JOINING = new Set([..."اأإآٱدذرزژوؤۇۆۈۋەةى"])
/** Arabic text as a PDF extractor often gives it: each letter as its presentation form for its place in the word. */
const shaped = (text: string): string =>
  text.replace(/\p{L}+/gu, (word) => {
    const letters = [...word]
    return letters
      .map((c, i) => {
        const forms = FORMS.get(c)
        if (forms === undefined) return c
        const before = letters[i - 1]
        const after = letters[i + 1]
        const joinsBefore = before !== undefined && FORMS.has(before) && !RIGHT_JOINING.has(before)
        const joinsAfter = after !== undefined && FORMS.has(after) && !RIGHT_JOINING.has(c) && forms.length === 4
        const at = joinsBefore ? (joinsAfter ? 3 : 1) : joinsAfter ? 2 : 0
        return forms[Math.min(at, forms.length - 1)] as string
      })
      .join("")
  })
const isForm = (c: string): boolean => (c >= "\ufb50" && c <= "\ufdff") || (c >= "\ufe70" && c <= "\ufefc")
for (const side of ["train", "holdout"] as const) {
  const texts = readMessages(side).filter((m) => m.category === "arabic").map((m) => shaped(m.text))
  const forms = texts.reduce((n, t) => n + [...t].filter(isForm).length, 0)
  console.log(`Arabic-script text in presentation forms, ${side}: ${texts.length} messages, ${forms} forms; ${offBy(texts, forms, "a form")}`)
}
sample["arabic-forms"] = pickEvenly(readMessages("holdout").filter((m) => m.category === "arabic"), 40).map((m) => {
  const text = shaped(m.text)
  return { text, source: "corpus/arabic (held out), in presentation forms", exact: exactOf(text) }
})

const randomIdeographs = rng("random-ideographs")
sample["cjk-random"] = Array.from({ length: 40 }, () => {
  const sentences = Array.from({ length: 2 + Math.floor(randomIdeographs() * 8) }, () =>
    Array.from({ length: 4 + Math.floor(randomIdeographs() * 20) }, () => String.fromCharCode(0x4e00 + Math.floor(randomIdeographs() * (0x9fff - 0x4e00 + 1)))).join("")
  )
  const text = sentences.join("。") + "。"
  return { text, source: "random ideographs of U+4E00-9FFF in sentences, seeded", exact: exactOf(text) }
})

const at = process.argv.indexOf("--sample")
if (at > 0) {
  const file = process.argv[at + 1] as string
  fs.writeFileSync(file, JSON.stringify(sample, null, 1) + "\n")
  console.log(`wrote ${file}`)
}
