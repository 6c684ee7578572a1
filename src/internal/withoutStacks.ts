/**
 * Issues are values reported in bulk, and a JavaScript error captures a stack
 * trace when it is built (several microseconds each, most of the cost of a
 * history with an issue on every message): collecting passes build them
 * without one.
 *
 * @internal
 */
export const withoutStacks = <A>(f: () => A): A => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return f()
  } finally {
    Error.stackTraceLimit = limit
  }
}
