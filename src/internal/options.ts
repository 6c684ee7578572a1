/**
 * Checking a service's options against their schema: one reading of a
 * refusal (the first bad option's path and the first line of the reason) for
 * every module that takes options (`TokenEstimator`, `Summarizer`).
 *
 * @internal
 */
import { Effect, Schema } from "effect"

/**
 * Decodes `options` (`undefined` as `{}`; keys the schema does not know are
 * refused too), failing with `refused(option, reason)` for the first bad one.
 */
export const checkAgainst = <S extends Schema.Codec<unknown, unknown>, E>(
  schema: S,
  options: unknown,
  refused: (option: string, reason: string) => E
): Effect.Effect<S["Type"], E> =>
  Schema.decodeUnknownEffect(schema)(options ?? {}, { onExcessProperty: "error" }).pipe(
    Effect.mapError((error) => refused(issuePath(error.issue).join("."), firstLine(error.message)))
  ) as Effect.Effect<S["Type"], E>

const firstLine = (text: string): string => {
  const i = text.indexOf("\n")
  return i === -1 ? text : text.slice(0, i)
}

const issuePath = (issue: unknown): Array<string> => {
  const path: Array<string> = []
  let node = issue as { _tag?: string; path?: ReadonlyArray<PropertyKey>; issue?: unknown; issues?: ReadonlyArray<unknown> } | undefined
  while (node !== undefined) {
    if (node._tag === "Pointer" && node.path !== undefined) for (const p of node.path) path.push(String(p))
    node = (node.issue ?? node.issues?.[0]) as typeof node
  }
  return path
}
