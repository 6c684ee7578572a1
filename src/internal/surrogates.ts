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
