/**
 * Whether a text shows nothing: empty, or only white space and the
 * invisible format characters a model can answer with (zero-width spaces
 * and joiners, the word joiner, a byte order mark, a soft hyphen), which
 * `String.prototype.trim` keeps. A summary of such text would stand in for
 * the dropped turns with a bare header.
 *
 * @internal
 */
export const isBlank = (text: string): boolean => /^[\s\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]*$/.test(text)
