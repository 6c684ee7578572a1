/**
 * The fuzz harness: runs one case against one target and says how it ended.
 *
 * A case ends well when it is a success, or a tagged error (an object with a
 * non-empty string `_tag`) whose `message` is a non-empty readable line.
 * Everything else is a defect:
 *
 * - `throw`: calling the target, or running its Effect, threw;
 * - `die`: the Effect died (`Cause.hasDies`), or a `Result`/Effect failed with
 *   something that is not a tagged error;
 * - `stack-overflow`: a RangeError "Maximum call stack size exceeded", thrown,
 *   died with, or reported inside a tagged error's message;
 * - `unreadable`: a tagged error (or a conversion warning) whose message is
 *   empty, not a string, "[object Object]", or throws when read;
 * - `timeout`: the call spent longer than the hang limit computing (its
 *   thread's CPU time: load on a shared machine slows a call, it does not
 *   make it spend more);
 * - `pollution`: `Object.prototype`, `Array.prototype` or `Function.prototype`
 *   gained, lost or changed a key (the harness restores them);
 * - `round-trip`: the target's own check of its result failed (tool arguments
 *   or metadata not byte-identical after a round trip, a lost unknown field).
 *
 * Targets are synchronous: they return a plain value, an Effect (run with
 * `Effect.runSyncExit`), or a `Result`.
 */
import { Cause, Effect, Exit, Result } from "effect"

/** How a case ended. */
export type Outcome =
  | { readonly kind: "success" }
  | { readonly kind: "skipped"; readonly reason: string }
  | { readonly kind: "failure"; readonly tag: string }
  | { readonly kind: "defect"; readonly defect: DefectKind; readonly detail: string }

export type DefectKind = "throw" | "die" | "stack-overflow" | "unreadable" | "timeout" | "pollution" | "round-trip"

const SKIP = Symbol.for("fuzz/skip")

/** What a target returns for an input outside its contract (counted apart, never as a success). */
export interface Skip {
  readonly [SKIP]: true
  readonly reason: string
}

export const skip = (reason: string): Skip => ({ [SKIP]: true, reason })

const isSkip = (u: unknown): u is Skip => typeof u === "object" && u !== null && SKIP in u

/** A function under test. `check` inspects a success (round trips): a string is a defect. */
export interface Target<I = unknown> {
  readonly name: string
  readonly run: (input: I) => unknown
  readonly check?: (value: unknown, input: I) => string | undefined
  /**
   * How many passes over the whole input the call makes (a round trip reads
   * and writes: 2; the command line's target parses, reads and writes ten
   * times: 12). The hang limit is this many times the limit of one pass.
   */
  readonly passes?: number
}

// ---------------------------------------------------------------------------
// prototype pollution
// ---------------------------------------------------------------------------

const guarded: ReadonlyArray<readonly [string, object]> = [
  ["Object.prototype", Object.prototype],
  ["Array.prototype", Array.prototype],
  ["Function.prototype", Function.prototype]
]

type Snapshot = ReadonlyArray<ReadonlyMap<PropertyKey, PropertyDescriptor>>

const snapshot = (): Snapshot =>
  guarded.map(([, proto]) => {
    const out = new Map<PropertyKey, PropertyDescriptor>()
    for (const key of Reflect.ownKeys(proto)) out.set(key, Object.getOwnPropertyDescriptor(proto, key)!)
    return out
  })

const sameDescriptor = (a: PropertyDescriptor, b: PropertyDescriptor): boolean =>
  a.value === b.value && a.get === b.get && a.set === b.set && a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable

/** The prototype keys that changed since `before`, restored to what they were. */
const polluted = (before: Snapshot): Array<string> => {
  const changes: Array<string> = []
  guarded.forEach(([name, proto], i) => {
    const was = before[i]!
    for (const key of Reflect.ownKeys(proto)) {
      const now = Object.getOwnPropertyDescriptor(proto, key)!
      const old = was.get(key)
      if (old === undefined) {
        changes.push(`${name} gained ${String(key)}`)
        delete (proto as Record<PropertyKey, unknown>)[key]
      } else if (!sameDescriptor(old, now)) {
        changes.push(`${name}.${String(key)} changed`)
        Object.defineProperty(proto, key, old)
      }
    }
    for (const [key, old] of was) {
      if (!Object.prototype.hasOwnProperty.call(proto, key)) {
        changes.push(`${name} lost ${String(key)}`)
        Object.defineProperty(proto, key, old)
      }
    }
  })
  // a plain object must still have no inherited enumerable keys
  for (const key in {}) changes.push(`{} inherits the enumerable key ${key}`)
  return changes
}

// ---------------------------------------------------------------------------
// classifying
// ---------------------------------------------------------------------------

const text = (u: unknown): string => {
  try {
    if (u instanceof Error) return `${u.name}: ${u.message}`
    return String(u)
  } catch {
    return "(unprintable)"
  }
}

const isStackOverflow = (u: unknown): boolean => {
  try {
    return u instanceof RangeError && /call stack/i.test(u.message)
  } catch {
    return false
  }
}

/** Why a message is not readable, or undefined when it is. */
const unreadableMessage = (value: unknown, what: string): string | undefined => {
  let message: unknown
  try {
    message = (value as { readonly message?: unknown }).message
  } catch (cause) {
    return `${what}: reading its message threw ${text(cause)}`
  }
  if (typeof message !== "string") return `${what}: its message is ${typeof message}`
  if (message.trim() === "") return `${what}: its message is empty`
  if (message.includes("[object Object]")) return `${what}: its message says [object Object]: ${message.slice(0, 200)}`
  return undefined
}

const classifyError = (error: unknown): Outcome => {
  let tag: unknown
  try {
    tag = (error as { readonly _tag?: unknown })?._tag
  } catch {
    tag = undefined
  }
  if (typeof tag !== "string" || tag === "") return { kind: "defect", defect: "die", detail: `failed with an untagged value: ${text(error).slice(0, 300)}` }
  const unreadable = unreadableMessage(error, tag)
  if (unreadable !== undefined) return { kind: "defect", defect: "unreadable", detail: unreadable }
  const message = (error as { readonly message: string }).message
  if (/maximum call stack/i.test(message)) return { kind: "defect", defect: "stack-overflow", detail: `${tag}: ${message.slice(0, 300)}` }
  return { kind: "failure", tag }
}

/** Conversion results carry warnings: each one must be readable too. */
const checkWarnings = (value: unknown): string | undefined => {
  if (typeof value !== "object" || value === null || !("warnings" in value)) return undefined
  const warnings = (value as { readonly warnings: unknown }).warnings
  if (!Array.isArray(warnings)) return undefined
  for (const w of warnings as ReadonlyArray<unknown>) {
    const tag = (w as { readonly _tag?: unknown })._tag
    if (typeof tag !== "string") return `a warning without a tag: ${text(w)}`
    const unreadable = unreadableMessage(w, `warning ${tag}`)
    if (unreadable !== undefined) return unreadable
  }
  return undefined
}

const success = <I>(target: Target<I>, value: unknown, input: I): Outcome => {
  const warning = checkWarnings(value)
  if (warning !== undefined) return { kind: "defect", defect: "unreadable", detail: warning }
  if (target.check !== undefined) {
    let problem: string | undefined
    try {
      problem = target.check(value, input)
    } catch (cause) {
      problem = `the check threw: ${text(cause)}`
    }
    if (problem !== undefined) return { kind: "defect", defect: "round-trip", detail: problem }
  }
  return { kind: "success" }
}

/** How the target's call ended, before any check of its value: a value to check, or an outcome. */
type Ran = { readonly value: unknown } | { readonly outcome: Outcome }

const fromExit = (exit: Exit.Exit<unknown, unknown>): Ran => {
  if (Exit.isSuccess(exit)) return { value: exit.value }
  if (Cause.hasDies(exit.cause)) {
    const die = exit.cause.reasons.find((r) => r._tag === "Die")
    const defect = die !== undefined && die._tag === "Die" ? die.defect : undefined
    return {
      outcome: isStackOverflow(defect)
        ? { kind: "defect", defect: "stack-overflow", detail: text(defect) }
        : { kind: "defect", defect: "die", detail: text(defect).slice(0, 300) }
    }
  }
  const fail = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (fail === undefined || fail._tag !== "Fail") return { outcome: { kind: "defect", defect: "die", detail: `neither a success nor a failure: ${text(exit.cause)}` } }
  return { outcome: classifyError(fail.error) }
}

/** Calls the target and runs what it returns. Never throws. */
const call = <I>(target: Target<I>, input: I): Ran => {
  try {
    const produced = target.run(input)
    if (isSkip(produced)) return { outcome: { kind: "skipped", reason: produced.reason } }
    if (Effect.isEffect(produced)) return fromExit(Effect.runSyncExit(produced as Effect.Effect<unknown, unknown>))
    if (Result.isResult(produced)) return Result.isSuccess(produced) ? { value: produced.success } : { outcome: classifyError(produced.failure) }
    return { value: produced }
  } catch (cause) {
    return {
      outcome: isStackOverflow(cause)
        ? { kind: "defect", defect: "stack-overflow", detail: text(cause) }
        : { kind: "defect", defect: "throw", detail: text(cause).slice(0, 300) }
    }
  }
}

/** Options of one run. */
export interface RunOptions {
  /**
   * A pass over the input that spends longer than this computing is a hang
   * (default 60 s: the slowest honest pass, Anthropic's reader on a million
   * messages, takes 35-47 s alone).
   */
  readonly hangMs?: number
}

/** The CPU time this thread has spent, in ms (the process's where Node cannot tell one thread's). */
const cpuMs = (): number => {
  const usage = typeof process.threadCpuUsage === "function" ? process.threadCpuUsage() : process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/**
 * Runs one case and classifies how it ended. Never throws. `ms` is the time
 * of the target's call alone: the hang limit is the library's, and the
 * target's own check of a round trip (which may decode the result again) is
 * not counted in it. The hang limit is on the CPU time the call spent, not
 * on `ms`: a fuzz run shares its machine (the test suite, a build, another
 * fuzz run), and a call waiting for a core is slowed, not hung. A target is
 * synchronous, so one that hangs spends its time computing.
 */
export const runCase = <I>(target: Target<I>, input: I, options?: RunOptions): Outcome & { readonly ms: number } => {
  const before = snapshot()
  const started = performance.now()
  const cpuStarted = cpuMs()
  const ran = call(target, input)
  const ms = performance.now() - started
  const cpu = cpuMs() - cpuStarted
  let outcome: Outcome = "outcome" in ran ? ran.outcome : success(target, ran.value, input)
  const changes = polluted(before)
  if (changes.length > 0) outcome = { kind: "defect", defect: "pollution", detail: changes.join("; ") }
  else if (outcome.kind !== "defect" && cpu > (options?.hangMs ?? 60_000) * (target.passes ?? 1)) {
    outcome = { kind: "defect", defect: "timeout", detail: `${Math.round(cpu)} ms of CPU time (${Math.round(ms)} ms in all)` }
  }
  return { ...outcome, ms }
}
