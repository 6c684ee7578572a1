/**
 * Exact token counts of corpus messages under o200k_base and cl100k_base,
 * cached on disk (keyed by a hash of the text) because the BPE encoders are
 * slow compared with everything else the fit and the bench do.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"

export type Encoding = "o200k" | "cl100k"

export const exactCount = (encoding: Encoding, text: string): number =>
  encoding === "o200k" ? countO200k(text) : countCl100k(text)

const CACHE_FILE = path.join(process.env["CORPUS_CACHE"] ?? path.join(os.tmpdir(), "eam-corpus-cache"), "exact-counts.json")

type Cache = Record<string, [number, number]>

let cache: Cache | undefined
let dirty = false

const load = (): Cache => {
  if (cache !== undefined) return cache
  try {
    cache = JSON.parse(fs.readFileSync(CACHE_FILE, "utf8")) as Cache
  } catch {
    cache = {}
  }
  return cache
}

/** Exact counts `[o200k, cl100k]` of a text, from the cache when possible. */
export const exactCounts = (text: string): readonly [number, number] => {
  const c = load()
  const key = createHash("sha1").update(text).digest("base64")
  const hit = c[key]
  if (hit !== undefined) return hit
  const value: [number, number] = [countO200k(text), countCl100k(text)]
  c[key] = value
  dirty = true
  return value
}

export const saveExactCounts = (): void => {
  if (!dirty || cache === undefined) return
  fs.mkdirSync(path.dirname(CACHE_FILE), { recursive: true })
  fs.writeFileSync(CACHE_FILE, JSON.stringify(cache))
  dirty = false
}
