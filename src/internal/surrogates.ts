/**
 * Lone UTF-16 surrogates: half of a pair, which a strict JSON parser (Anthropic's) rejects.
 *
 * @internal
 */

/** Every lone UTF-16 surrogate of a string: a high one no low one follows, or a low one no high one precedes. */
export const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** The engine's own check (ES2024, several times faster on text with emoji), or the pattern where it has none. */
const nativeWellFormed = (String.prototype as unknown as { readonly isWellFormed?: (this: string) => boolean }).isWellFormed

/** Whether a string has a lone surrogate; linear. */
export const hasLoneSurrogate = (text: string): boolean =>
  nativeWellFormed === undefined ? text.search(LONE_SURROGATES) !== -1 : !nativeWellFormed.call(text)

/** An object or array being walked, and where it is in its parent. */
interface Frame {
  readonly value: object
  readonly key: string | number
  readonly parent: Frame | undefined
}

/** The path from the walk's root to `key` of `frame`'s value. */
const pathTo = (frame: Frame, key: string | number): Array<string | number> => {
  const path: Array<string | number> = [key]
  for (let f: Frame = frame; f.parent !== undefined; f = f.parent) path.push(f.key)
  return path.reverse()
}

/**
 * The path of the first string or object key of `value` that holds a lone surrogate, after `at` (the value's own
 * path, in a block or a request body), or `undefined`. Iterative, and linear in the value's size:
 * arguments nested deeper than the call stack goes are walked too.
 */
export const loneSurrogatePath = (at: ReadonlyArray<string | number>, value: unknown): Array<string | number> | undefined => {
  if (typeof value === "string") return hasLoneSurrogate(value) ? [...at] : undefined
  if (typeof value !== "object" || value === null) return undefined
  const found = (path: Array<string | number>): Array<string | number> => [...at, ...path]
  const stack: Array<Frame> = [{ value, key: "", parent: undefined }]
  while (stack.length > 0) {
    const frame = stack.pop()!
    const o = frame.value
    if (Array.isArray(o)) {
      for (let k = 0; k < o.length; k++) {
        const v: unknown = o[k]
        if (typeof v === "string") {
          if (hasLoneSurrogate(v)) return found(pathTo(frame, k))
        } else if (typeof v === "object" && v !== null) {
          stack.push({ value: v, key: k, parent: frame })
        }
      }
      continue
    }
    for (const key of Object.keys(o)) {
      if (hasLoneSurrogate(key)) return found(pathTo(frame, key))
      const v: unknown = (o as Record<string, unknown>)[key]
      if (typeof v === "string") {
        if (hasLoneSurrogate(v)) return found(pathTo(frame, key))
      } else if (typeof v === "object" && v !== null) {
        stack.push({ value: v, key, parent: frame })
      }
    }
  }
  return undefined
}
