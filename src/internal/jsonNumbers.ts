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

/**
 * The number literals of JSON text (outside its strings) that `JSON.parse`
 * does not keep exactly, at most `limit` of them, and how many there are.
 * Text that is not JSON is scanned all the same, as far as it goes. Cheap
 * when no literal has sixteen digits or a three-digit exponent: one
 * regular-expression test.
 */
export const inexactNumbers = (text: string, limit = 3): { readonly count: number; readonly examples: ReadonlyArray<InexactNumber> } => {
  const examples: Array<InexactNumber> = []
  let count = 0
  if (!/\d[\d.]{15}|[eE][+-]?\d{3}/.test(text)) return { count, examples }
  const n = text.length
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // a string: to its closing quote, past escapes
      i++
      while (i < n) {
        const d = text.charCodeAt(i)
        if (d === 92) i += 2
        else if (d === 34) break
        else i++
      }
      i++
      continue
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = i
      const match = NUMBER.exec(text)
      if (match === null) {
        i++
        continue
      }
      const literal = match[0]
      if (!exact(literal)) {
        count++
        if (examples.length < limit) examples.push({ text: literal, as: JSON.stringify(Number(literal)) })
      }
      i += literal.length
      continue
    }
    i++
  }
  return { count, examples }
}

/** `1790000000000000123 as 1790000000000000000`, for a warning. */
export const describeInexact = (found: { readonly count: number; readonly examples: ReadonlyArray<InexactNumber> }): string =>
  found.examples.map((x) => `${x.text} as ${x.as}`).join(", ") + (found.count > found.examples.length ? `, and ${found.count - found.examples.length} more` : "")
