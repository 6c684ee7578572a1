/**
 * Prices of the four scripts the corpus has no group for (Lao, Tibetan,
 * Myanmar, Khmer), which the estimator gives a class each at a fixed price
 * per code point (`UNFITTED_SCRIPT_PRIORS` in fit.ts).
 *
 * Run: node_modules/.bin/node --import tsx scripts/corpus/unfitted-scripts.ts [--sample FILE]
 * (after scripts/corpus/build.ts has filled its package cache; Gemma 3's
 * figures need its tokenizer, see exact.ts, and are left out without it).
 *
 * The text is the gettext catalogues of the corpus build's packages, in the
 * languages written in these scripts (Lao; Tibetan and Dzongkha; Burmese;
 * Khmer). The prices come from the train projects' catalogues only: for each
 * script and encoding, the price that makes the estimate's total equal the
 * exact total (the estimate is linear in it). The held-out projects' catalogues
 * (VLC, File Roller, Simple Scan, Synaptic: `HOLDOUT_PROJECTS` in build.ts)
 * are measured with the shipped prices beside them, and `--sample FILE` writes
 * up to 40 of their messages of 20+ characters per script, with their exact counts, for
 * test/unfittedScripts.test.ts.
 */
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { estimateText as estimateGemini } from "../../src/GeminiEstimator.js"
import { heuristicTextRule } from "../../src/TokenEstimator.js"
import { loadGemma } from "./exact.js"
import { MIN_LEN, moStrings, pickEvenly } from "./extract.js"

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
const encodings: Array<{ readonly name: string; readonly estimate: Counter; readonly exact: Counter }> = [
  { name: "o200k", estimate: heuristicTextRule("o200k"), exact: countO200k },
  { name: "cl100k", estimate: heuristicTextRule("cl100k"), exact: countCl100k }
]
try {
  encodings.push({ name: "gemma", estimate: estimateGemini, exact: await loadGemma() })
} catch (e) {
  console.log(`(Gemma 3 left out: ${(e as Error).message})`)
}

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
    const cells = encodings.map(({ name, estimate, exact }) => {
      let est = 0
      let x = 0
      for (const { text } of texts) {
        est += estimate(text)
        x += exact(text)
      }
      return `${name}: estimate/exact ${(est / x).toFixed(3)}, off by ${(x - est) / letters >= 0 ? "+" : ""}${((x - est) / letters).toFixed(3)} a code point`
    })
    console.log(`${script.name} ${side}: ${texts.length} messages, ${letters} code points; ${cells.join("; ")}`)
    if (side === "held-out") {
      sample[script.name] = pickEvenly(texts.filter((t) => t.text.length >= MIN_LEN), 40).map(({ text, source }) => ({
        text,
        source,
        exact: Object.fromEntries(encodings.map(({ name, exact }) => [name, exact(text)]))
      }))
    }
  }
}

const at = process.argv.indexOf("--sample")
if (at > 0) {
  const file = process.argv[at + 1] as string
  fs.writeFileSync(file, JSON.stringify(sample, null, 1) + "\n")
  console.log(`wrote ${file}`)
}
