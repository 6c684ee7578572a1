/**
 * Numbers in JSON text that a JavaScript number cannot hold: more significant
 * digits than a double keeps (a 19-digit tweet or Snowflake id), or beyond
 * its range (`1e400`). `JSON.parse` rounds them without a word; what reads or
 * converts such text says so instead.
 *
 * @internal
 */

/** A number literal of JSON text and what `JSON.parse` makes of it, as JSON writes it back. */
export interface InexactNumber {
  readonly text: string
  readonly as: string
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y

/** Significant digits and decimal exponent of a decimal literal (`"-12.50e3"` → `["125", 4]`: 0.125 × 10^5), or `undefined` for zero. */
const decimal = (literal: string): readonly [string, number] | undefined => {
  const e = literal.search(/[eE]/)
  const mantissa = (e < 0 ? literal : literal.slice(0, e)).replace(/^-/, "")
  const exponent = e < 0 ? 0 : Number(literal.slice(e + 1))
  const dot = mantissa.indexOf(".")
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1)
  const point = (dot < 0 ? mantissa.length : dot) + exponent
  const lead = digits.search(/[1-9]/)
  if (lead < 0) return undefined
  return [digits.slice(lead).replace(/0+$/, ""), point - lead]
}

/** Whether `JSON.parse` keeps the value of a number literal: its shortest decimal form is the same number. */
const exact = (literal: string): boolean => {
  const value = Number(literal)
  if (!Number.isFinite(value)) return false
  const given = decimal(literal)
  if (given === undefined) return true
  // fifteen significant digits always survive a double, away from the ends of its range
  if (given[0].length <= 15 && Math.abs(given[1]) < 300) return true
  const kept = decimal(String(value))
  return kept !== undefined && kept[0] === given[0] && kept[1] === given[1]
}

/** The finite number nearest to `n`: `JSON.parse` reads a literal beyond a double's range (`1e400`) as an infinity. */
const nearestFinite = (n: number): number => (n === Infinity ? Number.MAX_VALUE : n === -Infinity ? -Number.MAX_VALUE : n)

/**
 * Replaces, in place, every infinity in a value `JSON.parse` returned (a
 * literal beyond a double's range) by the largest finite number of its sign:
 * an infinity is no JSON value, and nothing downstream can hold it. Walks
 * with a stack of its own, so any depth of nesting is fine.
 */
export const finiteParsedJson = (value: unknown): unknown => {
  if (typeof value === "number") return nearestFinite(value)
  const stack: Array<unknown> = [value]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== "object" || node === null) continue
    const record = node as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const v = record[key]
      if (typeof v === "number") {
        if (!Number.isFinite(v)) record[key] = nearestFinite(v)
      } else if (typeof v === "object" && v !== null) stack.push(v)
    }
  }
  return value
}

/** Where a number that may not survive parsing shows: sixteen digits (and a point) in a row, or a digit and a three-digit exponent. */
const CANDIDATE = /\d[\d.]{15}|\d[eE][+-]?\d{3}/g

/** Characters a JSON number literal is made of. */
const isNumberChar = (c: number): boolean => (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 69 || c === 101

/**
 * The number literals of JSON text (outside its strings) that `JSON.parse`
 * does not keep exactly, at most `limit` of them, and how many there are.
 * Text that is not JSON is scanned all the same, as far as it goes. Found
 * from the places `CANDIDATE` points at, each checked to be outside a
 * string by walking the quotes before it (once, in order): text without
 * such places costs one regular-expression search, about a third of the
 * time `JSON.parse` takes over it.
 */
export const inexactNumbers = (text: string, limit = 3): { readonly count: number; readonly examples: ReadonlyArray<InexactNumber> } => {
  const examples: Array<InexactNumber> = []
  let count = 0
  let inString = false
  // the quotes are walked up to `quotesTo`; numbers are read up to `numbersTo`
  let quotesTo = 0
  let numbersTo = 0
  // the run of number characters that reaches `walkedTo` starts at `walkedFrom`
  let walkedTo = 0
  let walkedFrom = 0
  // where the last literal read starts
  let readFrom = -1
  CANDIDATE.lastIndex = 0
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    const at = m.index
    if (at < numbersTo) continue
    while (true) {
      const q = text.indexOf("\"", quotesTo)
      if (q === -1 || q > at) break
      let slashes = 0
      while (q - slashes - 1 >= 0 && text.charCodeAt(q - slashes - 1) === 92) slashes++
      if (slashes % 2 === 0) inString = !inString
      quotesTo = q + 1
    }
    if (inString) continue
    // the whole literal the match is part of: back to the start of its run of number characters, walking only
    // what no earlier match walked (a long run such as "1.1.1." is walked once, not once per match in it)
    let from = at
    while (from > walkedTo && isNumberChar(text.charCodeAt(from - 1))) from--
    if (from === walkedTo) from = walkedFrom
    walkedTo = at
    walkedFrom = from
    NUMBER.lastIndex = from
    const literal = NUMBER.exec(text)?.[0]
    numbersTo = Math.max(from + (literal?.length ?? 0), at + m[0].length)
    // a later match in the same run ("12345678901234567.1.1.1...") leads back to a literal already read: once only
    const readBefore = from === readFrom
    readFrom = from
    if (readBefore || literal === undefined || !/^-?\d/.test(literal) || exact(literal)) continue
    count++
    if (examples.length < limit) examples.push({ text: literal, as: JSON.stringify(nearestFinite(Number(literal))) })
  }
  return { count, examples }
}

/** `1790000000000000123 as 1790000000000000000`, for a warning. */
export const describeInexact = (found: { readonly count: number; readonly examples: ReadonlyArray<InexactNumber> }): string =>
  found.examples.map((x) => `${x.text} as ${x.as}`).join(", ") + (found.count > found.examples.length ? `, and ${found.count - found.examples.length} more` : "")
