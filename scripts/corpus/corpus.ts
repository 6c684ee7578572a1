/**
 * Reading the token-estimation corpus (`corpus/`), shared by the corpus build,
 * the weight fit, the estimator bench and the tests.
 */
import * as fs from "node:fs"
import * as path from "node:path"

export const CATEGORIES = ["english", "chinese", "japanese", "korean", "code", "json", "emoji"] as const
export type Category = (typeof CATEGORIES)[number]

/** Separates messages inside a `corpus/<category>/<id>.txt` file (an ASCII record separator on its own line). */
export const MESSAGE_SEPARATOR = "\n\u001e\n"

export type Split = "train" | "holdout"

export interface CorpusDocument {
  readonly id: string
  readonly category: Category
  readonly split: Split
  readonly source: string
  readonly path: string
}

export interface CorpusMessage {
  readonly docId: string
  readonly category: Category
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
      if (text.length > 0) out.push({ docId: doc.id, category: doc.category, split: doc.split, text })
    }
  }
  return out
}
