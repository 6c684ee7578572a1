/**
 * Reading the token-estimation corpus (`corpus/`), shared by the corpus build,
 * the weight fit, the estimator bench and the tests.
 */
import * as fs from "node:fs"
import * as path from "node:path"

/**
 * The categories of the corpus, grouped for reporting. Prose categories are
 * named for their script (a script group holds every language written in it);
 * machine-text categories for the kind of text.
 */
export const CATEGORY_GROUPS = {
  prose: ["english", "latin", "cyrillic", "greek", "arabic", "hebrew", "devanagari", "bengali", "tamil", "indic", "thai", "georgian", "armenian", "ethiopic", "chinese", "japanese", "korean", "emoji"],
  code: ["code", "minified-js", "latex"],
  json: ["json"],
  machine: ["base64", "hex", "ids", "digits", "urls", "tool-output", "tables", "char-runs"],
  /** Texts of 1–20 code units cut from the other categories (role, tool and parameter names, labels, short replies). */
  short: ["short"]
} as const

export type CategoryGroup = keyof typeof CATEGORY_GROUPS

export const CATEGORIES = [
  ...CATEGORY_GROUPS.prose,
  ...CATEGORY_GROUPS.code,
  ...CATEGORY_GROUPS.json,
  ...CATEGORY_GROUPS.machine,
  ...CATEGORY_GROUPS.short
] as const
export type Category = (typeof CATEGORIES)[number]

export const groupOf = (category: Category): CategoryGroup => {
  for (const g of Object.keys(CATEGORY_GROUPS) as Array<CategoryGroup>) {
    if ((CATEGORY_GROUPS[g] as ReadonlyArray<string>).includes(category)) return g
  }
  return "prose"
}

/**
 * The Latin-script languages the corpus took first and most widely used: their pool keeps its own cap in every
 * split, and the fit weighs them apart from the other Latin-script languages.
 */
export const LATIN_CORE: ReadonlySet<string> = new Set(["cs", "da", "de", "es", "fr", "hu", "it", "nl", "pl", "pt", "pt-br", "pt_BR", "ro", "sv", "tr", "vi"])

/** Separates messages inside a `corpus/<category>/<id>.txt` file (an ASCII record separator on its own line). */
export const MESSAGE_SEPARATOR = "\n\u001e\n"

export type Split = "train" | "holdout"

export interface CorpusDocument {
  readonly id: string
  readonly category: Category
  readonly lang: string
  readonly split: Split
  /** The upstream project; a project is wholly in one split. */
  readonly project: string
  readonly source: string
  readonly path: string
}

export interface CorpusMessage {
  readonly docId: string
  readonly category: Category
  readonly lang: string
  readonly project: string
  readonly split: Split
  readonly text: string
}

export const CORPUS_DIR = path.resolve(import.meta.dirname, "..", "..", "corpus")

export const readManifest = (dir: string = CORPUS_DIR): ReadonlyArray<CorpusDocument> => {
  const json = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as { documents: Array<CorpusDocument> }
  return json.documents
}

/** All messages of the corpus, optionally of one split only. */
export const readMessages = (split?: Split, dir: string = CORPUS_DIR): ReadonlyArray<CorpusMessage> => {
  const out: Array<CorpusMessage> = []
  for (const doc of readManifest(dir)) {
    if (split !== undefined && doc.split !== split) continue
    const raw = fs.readFileSync(path.join(dir, doc.path), "utf8").replace(/\n$/, "")
    for (const text of raw.split(MESSAGE_SEPARATOR)) {
      if (text.length > 0) out.push({ docId: doc.id, category: doc.category, lang: doc.lang, project: doc.project, split: doc.split, text })
    }
  }
  return out
}
