/**
 * Loading gpt-tokenizer's vocabularies on demand: it is an optional peer
 * dependency, so it is imported when a layer or counter is built, and a
 * missing package is a tagged error naming it rather than a failed import.
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"
import type { Encoding } from "../TokenEstimator.js"

/**
 * The exact tokenizer's package could not be loaded (it is an optional peer
 * dependency: install it with `npm install gpt-tokenizer`).
 *
 * @example
 * // exact counts when gpt-tokenizer is installed, the heuristic otherwise
 * const Estimator = layerO200k.pipe(Layer.catchTag("TokenizerUnavailable", () => TokenEstimator.layer))
 * program.pipe(Effect.provide(Estimator))
 *
 * @since 0.1.0
 */
export class TokenizerUnavailable extends Schema.TaggedError<TokenizerUnavailable>()("TokenizerUnavailable", {
  packageName: Schema.String,
  encoding: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `the exact ${this.encoding} tokenizer needs the package ${JSON.stringify(this.packageName)}: install it with \`npm install ${this.packageName}\` (${this.reason})`
  }
}

type CountTokens = (text: string, options: { readonly disallowedSpecial: Set<string> }) => number

/** Special tokens in user text are plain text to us: never a reason to throw. */
const asPlainText = { disallowedSpecial: new Set<string>() }

const loaded = new Map<Encoding, (text: string) => number>()

/** The parts of gpt-tokenizer's byte-pair core that the long-piece merge below uses (not in its typed API). */
interface MergeCore {
  bytePairMerge: (piece: Uint8Array) => Array<number>
  readonly getBpeRankFromBytes: (bytes: Uint8Array) => number | undefined
}

const isMergeCore = (u: unknown): u is MergeCore =>
  typeof u === "object" && u !== null && typeof (u as MergeCore).bytePairMerge === "function" && typeof (u as MergeCore).getBpeRankFromBytes === "function"

/** Pieces up to this many bytes are merged by gpt-tokenizer's own loop (quadratic, and fastest for the short pieces text is made of). */
const LONG_PIECE = 256

/**
 * Byte-pair merging of one piece as gpt-tokenizer's `bytePairMerge` does it
 * (and tiktoken): repeatedly the adjacent pair of parts with the lowest
 * rank, the leftmost of equal ones, is merged, until no pair has a rank;
 * the ranks of the parts are the tokens. gpt-tokenizer scans every pair at
 * each merge, which takes time quadratic in the piece's length: 160,000
 * letters without a break took 24 s, two megabytes did not finish. Here a
 * heap of pairs keyed by rank and place makes each merge cost a logarithm
 * (the parts are a linked list; a pair whose parts changed since it was
 * pushed is skipped when it comes up). The same tokens, always (property
 * test against gpt-tokenizer's loop).
 *
 * @internal
 */
export const heapMerge = (piece: Uint8Array, rankOf: (bytes: Uint8Array) => number | undefined): Array<number> => {
  const n = piece.length
  // part i spans [i, next[i]); next[n] is n's own end
  const next = new Int32Array(n + 1)
  const prev = new Int32Array(n + 1)
  const version = new Uint32Array(n + 1)
  for (let i = 0; i <= n; i++) {
    next[i] = i + 1
    prev[i] = i - 1
  }
  // the heap: rank, place (the pair's first part), and that part's version when pushed
  const ranks: Array<number> = []
  const places: Array<number> = []
  const versions: Array<number> = []
  const before = (a: number, b: number): boolean => ranks[a]! < ranks[b]! || (ranks[a] === ranks[b] && places[a]! < places[b]!)
  const swap = (a: number, b: number): void => {
    const r = ranks[a]!, p = places[a]!, v = versions[a]!
    ranks[a] = ranks[b]!
    places[a] = places[b]!
    versions[a] = versions[b]!
    ranks[b] = r
    places[b] = p
    versions[b] = v
  }
  const push = (rank: number, place: number): void => {
    let i = ranks.length
    ranks.push(rank)
    places.push(place)
    versions.push(version[place]!)
    while (i > 0 && before(i, (i - 1) >> 1)) {
      swap(i, (i - 1) >> 1)
      i = (i - 1) >> 1
    }
  }
  const pop = (): void => {
    const last = ranks.length - 1
    swap(0, last)
    ranks.pop()
    places.pop()
    versions.pop()
    for (let i = 0;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < ranks.length && before(l, m)) m = l
      if (r < ranks.length && before(r, m)) m = r
      if (m === i) break
      swap(i, m)
      i = m
    }
  }
  // the rank of the pair starting at part `i` (its part and the next), pushed when it has one
  const pushPair = (i: number): void => {
    const j = next[i]!
    if (j >= n) return
    const rank = rankOf(piece.subarray(i, next[j]!))
    if (rank !== undefined) push(rank, i)
  }
  for (let i = 0; i < n - 1; i++) pushPair(i)
  while (ranks.length > 0) {
    const place = places[0]!
    const stale = versions[0] !== version[place] || prev[place] === -2
    pop()
    if (stale) continue
    // part `place` takes in the next one
    const gone = next[place]!
    next[place] = next[gone]!
    if (next[place]! <= n) prev[next[place]!] = place
    prev[gone] = -2
    version[place]!++
    pushPair(place)
    const left = prev[place]!
    if (left >= 0) {
      version[left]!++
      pushPair(left)
    }
  }
  const out: Array<number> = []
  for (let i = 0; i < n; i = next[i]!) {
    const rank = rankOf(piece.subarray(i, next[i]!))
    // every single byte and every merged pair is in the vocabulary: a part without a rank cannot occur
    if (rank !== undefined) out.push(rank)
  }
  return out
}

/** Has the encoding merge long pieces with `heapMerge`, when its core is the one this was written against. */
const mergeLongPiecesFast = (api: unknown): void => {
  const core = typeof api === "object" && api !== null ? (api as { readonly bytePairEncodingCoreProcessor?: unknown }).bytePairEncodingCoreProcessor : undefined
  if (!isMergeCore(core)) return
  const own = core.bytePairMerge.bind(core)
  const rankOf = core.getBpeRankFromBytes.bind(core)
  core.bytePairMerge = (piece) => (piece.length <= LONG_PIECE ? own(piece) : heapMerge(piece, rankOf))
}

/** The parts of gpt-tokenizer's merge cache that `evictByClearing` uses (not in its typed API). */
interface CacheCore {
  addToMergeCache: (key: string, value: Array<number>) => void
  readonly mergeCache?: unknown
  readonly mergeCacheSize: number
}

const isCacheCore = (u: unknown): u is CacheCore =>
  typeof u === "object" && u !== null && typeof (u as CacheCore).addToMergeCache === "function" && typeof (u as CacheCore).mergeCacheSize === "number"

/**
 * Has the encoding empty its merge cache when it is full, instead of evicting
 * its oldest entry. gpt-tokenizer finds that entry with `keys().next()` on a
 * `Map`, which walks every slot deleted since V8 last compacted the map: once
 * the cache is full (100,000 pieces that are not one token, some 300,000
 * characters of base64), every new piece pays a walk over tens of thousands of
 * slots. 2 MB of base64 took 18 s where 1 MB took 2.7 s, and 10 MB over five
 * minutes. An emptied cache fills again at no cost per piece; the tokens are
 * the same, only the time changes.
 */
const evictByClearing = (api: unknown): void => {
  const core = typeof api === "object" && api !== null ? (api as { readonly bytePairEncodingCoreProcessor?: unknown }).bytePairEncodingCoreProcessor : undefined
  if (!isCacheCore(core)) return
  core.addToMergeCache = (key, value) => {
    const cache = core.mergeCache
    if (!(cache instanceof Map)) return
    if (cache.size >= core.mergeCacheSize) cache.clear()
    cache.set(key, value)
  }
}

/**
 * The longest part a text too long for one pass is counted in (code units). gpt-tokenizer splits a text into
 * pieces (words, runs of blanks, runs of marks) with one regular expression, and V8 runs out of backtracking room on
 * a piece of some millions of characters in a string that holds any character outside Latin-1 (a RangeError, 4
 * million passed and 10 million failed here): such a text is counted in parts of at most this many code units.
 */
export const PART_UNITS = 2 ** 21

/** A blank as gpt-tokenizer's expressions read one (every character `\s` matches is one code unit). */
const BLANK = /^\s$/

/**
 * Where a part of `text` starting at `start` ends, `end` at the latest: at the last place in its second half where
 * both encodings' pieces are sure to break, so that the parts count as the whole does. A piece breaks before a digit
 * that follows an ASCII character other than a digit (digits are pieces of their own, of up to three, counted from
 * the run's start), and before a character other than a blank or "/" that follows a line break (no piece holds a line
 * break and what comes after it but blanks, and the "/" o200k's run of marks takes in after line breaks). Without
 * such a place, a part ends at `end`, inside one piece (never inside a surrogate pair), where the two parts of the
 * piece may merge into a few tokens more or fewer than the piece would.
 */
export const partEnd = (text: string, start: number, end: number): number => {
  if (end >= text.length) return text.length
  const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39
  const isBreak = (c: number): boolean => c === 0x0a || c === 0x0d
  for (let p = end; p > start + (end - start) / 2; p--) {
    const before = text.charCodeAt(p - 1)
    const at = text.charCodeAt(p)
    // an ASCII digit after an ASCII character that is no digit (a digit run may hold other numbers, such as ٣); a
    // character after a line break that is no blank (the expressions' \s), nor the "/" o200k's run of marks takes in
    // after line breaks
    if ((isDigit(at) && before < 0x80 && !isDigit(before)) || (isBreak(before) && at !== 0x2f && !BLANK.test(text[p]!))) return p
  }
  const high = text.charCodeAt(end - 1)
  return high >= 0xd800 && high <= 0xdbff ? end - 1 : end
}

/**
 * Counts `text` with `countWhole`, in parts of at most `partUnits` (`partEnd`) when one pass over it runs out of room
 * (see `PART_UNITS`).
 */
export const countInParts = (text: string, countWhole: (text: string) => number, partUnits: number = PART_UNITS): number => {
  try {
    return countWhole(text)
  } catch (cause) {
    if (!(cause instanceof RangeError) || text.length <= partUnits) throw cause
  }
  let total = 0
  for (let start = 0; start < text.length;) {
    const end = partEnd(text, start, start + partUnits)
    total += countWhole(text.slice(start, end))
    start = end
  }
  return total
}

const importEncoding = (encoding: Encoding): Promise<{ readonly countTokens: CountTokens; readonly default?: unknown }> =>
  encoding === "cl100k" ? import("gpt-tokenizer/encoding/cl100k_base") : import("gpt-tokenizer/encoding/o200k_base")

/**
 * Loads gpt-tokenizer's vocabulary for `encoding` (once per process) and
 * returns its exact text counter, or fails with `TokenizerUnavailable`.
 *
 * @example
 * const count = yield* loadTextCounter("o200k")
 * count("hello world") // 2
 *
 * @since 0.1.0
 */
export const loadTextCounter = (encoding: Encoding): Effect.Effect<(text: string) => number, TokenizerUnavailable> =>
  Effect.suspend(() => {
    const cached = loaded.get(encoding)
    if (cached !== undefined) return Effect.succeed(cached)
    return Effect.tryPromise({
      try: () => importEncoding(encoding),
      catch: (cause) =>
        new TokenizerUnavailable({
          packageName: "gpt-tokenizer",
          encoding,
          reason: cause instanceof Error ? cause.message : String(cause)
        })
    }).pipe(
      Effect.map((module) => {
        mergeLongPiecesFast(module.default)
        evictByClearing(module.default)
        const countTokens = module.countTokens
        const whole = (text: string): number => countTokens(text, asPlainText)
        const count = (text: string): number => (text.length === 0 ? 0 : countInParts(text, whole))
        loaded.set(encoding, count)
        return count
      })
    )
  })

