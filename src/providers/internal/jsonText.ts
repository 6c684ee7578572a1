/**
 * Where a piece of JSON text stands: complete, cut short (a prefix of some
 * valid JSON text), or invalid. Used when a stream ends, to say whether a
 * tool call's argument text was cut or is simply not JSON. One pass, no
 * allocation per character.
 */

export type JsonTextState =
  | { readonly _tag: "Empty" }
  | { readonly _tag: "Complete" }
  | { readonly _tag: "Truncated" }
  | { readonly _tag: "Invalid"; readonly at: number }

const empty: JsonTextState = { _tag: "Empty" }
const complete: JsonTextState = { _tag: "Complete" }
const truncated: JsonTextState = { _tag: "Truncated" }

// what the scanner expects next
const VALUE = 0 // a value
const AFTER_VALUE = 1 // `,`, a closing bracket, or the end
const KEY = 2 // a key string or `}` (right after `{`)
const KEY_AFTER_COMMA = 3 // a key string (after `,` in an object)
const COLON = 4 // `:`
const VALUE_OR_CLOSE = 5 // a value or `]` (right after `[`)

const isWs = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13
const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)

/**
 * Classifies `text` as JSON: `Empty` (only whitespace), `Complete` (one
 * valid JSON value), `Truncated` (not valid, but some continuation would
 * make it valid), or `Invalid` (no continuation can fix it; `at` is the
 * first offending character).
 */
export const jsonTextState = (text: string): JsonTextState => {
  const n = text.length
  const stack: Array<number> = [] // 0 = object, 1 = array
  let expect = VALUE
  let seenValue = false
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (isWs(c)) {
      i++
      continue
    }
    switch (expect) {
      case COLON:
        if (c !== 58) return { _tag: "Invalid", at: i }
        expect = VALUE
        i++
        continue
      case AFTER_VALUE: {
        if (stack.length === 0) return { _tag: "Invalid", at: i }
        const top = stack[stack.length - 1]
        if (c === 44) {
          expect = top === 0 ? KEY_AFTER_COMMA : VALUE
          i++
          continue
        }
        if ((c === 125 && top === 0) || (c === 93 && top === 1)) {
          stack.pop()
          expect = AFTER_VALUE
          i++
          continue
        }
        return { _tag: "Invalid", at: i }
      }
      case KEY:
      case KEY_AFTER_COMMA:
        if (c === 125 && expect === KEY) {
          stack.pop()
          expect = AFTER_VALUE
          i++
          continue
        }
        if (c !== 34) return { _tag: "Invalid", at: i }
        {
          const end = scanString(text, i)
          if (end === -1) return truncated
          if (end < -1) return { _tag: "Invalid", at: -end - 2 }
          i = end
          expect = COLON
        }
        continue
      case VALUE:
      case VALUE_OR_CLOSE: {
        if (c === 93 && expect === VALUE_OR_CLOSE) {
          stack.pop()
          expect = AFTER_VALUE
          i++
          continue
        }
        seenValue = true
        if (c === 123) {
          stack.push(0)
          expect = KEY
          i++
          continue
        }
        if (c === 91) {
          stack.push(1)
          expect = VALUE_OR_CLOSE
          i++
          continue
        }
        let end: number
        if (c === 34) end = scanString(text, i)
        else if (c === 45 || isDigit(c)) end = scanNumber(text, i)
        else if (c === 116) end = scanLiteral(text, i, "true")
        else if (c === 102) end = scanLiteral(text, i, "false")
        else if (c === 110) end = scanLiteral(text, i, "null")
        else return { _tag: "Invalid", at: i }
        if (end === -1) return truncated
        if (end < -1) return { _tag: "Invalid", at: -end - 2 }
        // a number that runs to the end of a top-level text is complete; anywhere else the text continues
        i = end
        expect = AFTER_VALUE
        continue
      }
    }
  }
  if (!seenValue) return empty
  return stack.length === 0 && expect === AFTER_VALUE ? complete : truncated
}

// Each scanner returns the index after the token, -1 when the text ends
// inside it, or -(position + 2) of an invalid character.

const scanString = (text: string, start: number): number => {
  const n = text.length
  let i = start + 1
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34) return i + 1
    if (c < 32) return -(i + 2)
    if (c === 92) {
      if (i + 1 >= n) return -1
      const e = text.charCodeAt(i + 1)
      if (e === 117) {
        for (let k = 0; k < 4; k++) {
          if (i + 2 + k >= n) return -1
          if (!isHex(text.charCodeAt(i + 2 + k))) return -(i + 2 + k + 2)
        }
        i += 6
        continue
      }
      if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
        i += 2
        continue
      }
      return -(i + 1 + 2)
    }
    i++
  }
  return -1
}

const scanNumber = (text: string, start: number): number => {
  const n = text.length
  let i = start
  if (text.charCodeAt(i) === 45) {
    i++
    if (i >= n) return -1
  }
  const first = text.charCodeAt(i)
  if (first === 48) i++
  else if (isDigit(first)) while (i < n && isDigit(text.charCodeAt(i))) i++
  else return -(i + 2)
  if (i < n && text.charCodeAt(i) === 46) {
    i++
    if (i >= n) return -1
    if (!isDigit(text.charCodeAt(i))) return -(i + 2)
    while (i < n && isDigit(text.charCodeAt(i))) i++
  }
  if (i < n && (text.charCodeAt(i) === 101 || text.charCodeAt(i) === 69)) {
    i++
    if (i >= n) return -1
    if (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45) {
      i++
      if (i >= n) return -1
    }
    if (!isDigit(text.charCodeAt(i))) return -(i + 2)
    while (i < n && isDigit(text.charCodeAt(i))) i++
  }
  return i
}

const scanLiteral = (text: string, start: number, word: string): number => {
  for (let k = 0; k < word.length; k++) {
    if (start + k >= text.length) return -1
    if (text.charCodeAt(start + k) !== word.charCodeAt(k)) return -(start + k + 2)
  }
  return start + word.length
}

/** A short description of a JSON text that is not complete, for `IncompleteStream`. */
export const describeCutJson = (text: string): string => `cut after ${text.length} character${text.length === 1 ? "" : "s"}`
