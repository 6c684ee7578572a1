/**
 * The one rule for a Gemini field that may come in either spelling of
 * proto3 JSON, shared by the adapter (`Gemini.ts`) and the stream
 * accumulator (`GeminiStream.ts`).
 *
 * @internal
 */

/**
 * Whether a field given as `camel` in lowerCamelCase and `snake` in
 * snake_case is read from its snake_case name: when that is the only one
 * given, or the lowerCamelCase one is `null` and it is not (proto3 JSON
 * reads a null field as absent, so a null never hides a value).
 */
export const readsSnake = (camel: unknown, snake: unknown): boolean =>
  snake !== undefined && (camel === undefined || (camel === null && snake !== null))

/** The value of a field that may come in either spelling, by `readsSnake`. */
export const eitherSpelling = <V>(o: { readonly [key: string]: V }, camel: string, snake: string): V | undefined =>
  readsSnake(o[camel], o[snake]) ? o[snake] : o[camel]
