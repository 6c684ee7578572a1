/**
 * A string -> index table for the hot validation and repair passes.
 *
 * A conversation of a million messages holds hundreds of thousands of tool
 * call ids. A `Map` that large costs several cache misses per insert (and
 * copies itself as it grows), which made the per-message time of validation
 * grow with the conversation. This open-addressing table keeps 32-bit hashes
 * and entry numbers in typed arrays, so a lookup touches one slot, and growth
 * rehashes from the stored hashes without re-reading the strings.
 *
 * Call ids come from model output and user files, so the table must not be a
 * denial-of-service lever: each table hashes with its own random seed (ids
 * crafted to collide under one seed do not collide under another), and if a
 * probe ever runs long anyway (an attacker who guessed the seed, or bad luck),
 * the table moves its entries into a `Map` (whose string hashing V8 seeds per
 * process) and stays there, so the worst case stays bounded.
 *
 * @internal
 */

/** A probe longer than this means the hash is being defeated: switch to a Map. */
const MAX_PROBE = 48

let seedCounter = 0

/** A fresh 32-bit seed per table: random, and distinct even if the random source repeats. */
const freshSeed = (): number => (Math.floor(Math.random() * 0x100000000) ^ Math.imul(++seedCounter, 0x9e3779b9)) | 0

/** A seeded FNV-1a over UTF-16 code units, finished with a seeded multiply-xorshift. */
export const seededHash = (s: string, seed: number): number => {
  let h = (0x811c9dc5 ^ seed) | 0
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  h ^= seed >>> 7
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35 ^ (seed & 0xffff0000))
  return (h ^ (h >>> 16)) | 0
}

export class IdTable {
  /** Pairs of (entry number + 1, hash); entry 0 marks an empty slot. One cache line per probe. */
  private table: Int32Array
  private mask: number
  private readonly keys: Array<string> = []
  private readonly values: Array<number> = []
  private readonly seed: number
  private readonly hash: (s: string, seed: number) => number
  /** Set once the table gave up on open addressing. */
  private fallback: Map<string, number> | undefined

  /**
   * `expected`: how many keys the caller expects, to size the table once.
   * `hash`: for tests only, to prove the fallback bounds a defeated hash.
   */
  constructor(expected = 64, options?: { readonly seed?: number; readonly hash?: (s: string, seed: number) => number }) {
    let capacity = 16
    while (capacity < expected * 2) capacity *= 2
    this.table = new Int32Array(capacity * 2)
    this.mask = capacity - 1
    this.seed = options?.seed ?? freshSeed()
    this.hash = options?.hash ?? seededHash
  }

  get size(): number {
    return this.keys.length
  }

  /** Whether the table had to fall back to a Map (for tests and benchmarks). */
  get degraded(): boolean {
    return this.fallback !== undefined
  }

  /** The value stored for `key`, or -1. */
  get(key: string): number {
    if (this.fallback !== undefined) return this.fallback.get(key) ?? -1
    const h = this.hash(key, this.seed)
    const table = this.table
    let i = h & this.mask
    for (let probe = 0; probe <= this.mask; probe++) {
      const entry = table[i * 2]!
      if (entry === 0) return -1
      if (table[i * 2 + 1] === h && this.keys[entry - 1] === key) return this.values[entry - 1]!
      i = (i + 1) & this.mask
    }
    return -1
  }

  /** Stores `value` for `key` unless the key is present; returns the value already stored, or -1. */
  setIfAbsent(key: string, value: number): number {
    const fallback = this.fallback
    if (fallback !== undefined) {
      const found = fallback.get(key)
      if (found !== undefined) return found
      fallback.set(key, value)
      this.keys.push(key)
      return -1
    }
    const h = this.hash(key, this.seed)
    const table = this.table
    let i = h & this.mask
    let probe = 0
    for (;;) {
      const entry = table[i * 2]!
      if (entry === 0) break
      if (table[i * 2 + 1] === h && this.keys[entry - 1] === key) return this.values[entry - 1]!
      i = (i + 1) & this.mask
      if (++probe > MAX_PROBE) {
        this.degrade()
        return this.setIfAbsent(key, value)
      }
    }
    this.keys.push(key)
    this.values.push(value)
    table[i * 2] = this.keys.length
    table[i * 2 + 1] = h
    if (this.keys.length * 2 > this.mask + 1) this.grow()
    return -1
  }

  private degrade(): void {
    const map = new Map<string, number>()
    for (let k = 0; k < this.keys.length; k++) map.set(this.keys[k]!, this.values[k]!)
    this.fallback = map
    this.table = new Int32Array(0)
    this.values.length = 0
  }

  private grow(): void {
    const old = this.table
    const capacity = (this.mask + 1) * 2
    const table = new Int32Array(capacity * 2)
    const mask = capacity - 1
    for (let j = 0; j < old.length; j += 2) {
      const entry = old[j]!
      if (entry === 0) continue
      const h = old[j + 1]!
      let i = h & mask
      while (table[i * 2] !== 0) i = (i + 1) & mask
      table[i * 2] = entry
      table[i * 2 + 1] = h
    }
    this.table = table
    this.mask = mask
  }
}
