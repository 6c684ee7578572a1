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
 * @internal
 */
export class IdTable {
  /** Pairs of (entry number + 1, hash); entry 0 marks an empty slot. One cache line per probe. */
  private table: Int32Array
  private mask: number
  private readonly keys: Array<string> = []
  private readonly values: Array<number> = []

  /** `expected`: how many keys the caller expects, to size the table once. */
  constructor(expected = 64) {
    let capacity = 16
    while (capacity < expected * 2) capacity *= 2
    this.table = new Int32Array(capacity * 2)
    this.mask = capacity - 1
  }

  get size(): number {
    return this.keys.length
  }

  /** The value stored for `key`, or -1. */
  get(key: string): number {
    const h = hash(key)
    const table = this.table
    let i = h & this.mask
    for (;;) {
      const entry = table[i * 2]!
      if (entry === 0) return -1
      if (table[i * 2 + 1] === h && this.keys[entry - 1] === key) return this.values[entry - 1]!
      i = (i + 1) & this.mask
    }
  }

  /** Stores `value` for `key` unless the key is present; returns the value already stored, or -1. */
  setIfAbsent(key: string, value: number): number {
    const h = hash(key)
    const table = this.table
    let i = h & this.mask
    for (;;) {
      const entry = table[i * 2]!
      if (entry === 0) break
      if (table[i * 2 + 1] === h && this.keys[entry - 1] === key) return this.values[entry - 1]!
      i = (i + 1) & this.mask
    }
    this.keys.push(key)
    this.values.push(value)
    table[i * 2] = this.keys.length
    table[i * 2 + 1] = h
    if (this.keys.length * 2 > this.mask + 1) this.grow()
    return -1
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

/** FNV-1a over UTF-16 code units, finished with a multiply-xorshift to spread low bits. */
const hash = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  return (h ^ (h >>> 13)) | 0
}
