/**
 * How the adapters name the hints they keep beside a value's kept wire
 * fields (which wire form to write, an id that was made up): the hint's name
 * with a `$` in front, which no provider's field name has, so a wire field
 * that shares a hint's name stays the sender's. Here, apart from the
 * adapters, so that validation, repair and the estimator read a hint by the
 * same rule without loading an adapter.
 *
 * @internal
 */

/** What every hint's stored key starts with. */
export const HINT_PREFIX = "$"

/** The key a hint named `name` is stored under. */
export const hintKey = (name: string): string => HINT_PREFIX + name
