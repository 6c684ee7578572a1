/**
 * Helpers of the adapter tests: running a conversion synchronously, reading
 * its warnings by tag, comparing messages by their JSON form, and comparing
 * wire payloads the way the recorded-transcript tests do (key order and
 * explicit nulls ignored).
 */
import { assert } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Message } from "../../src/index.js"
import { setOwn } from "../fuzz/generators.js"
import type { Converted } from "../../src/providers/Conversion.js"

/** The value and warnings of a conversion that must succeed. */
export const ok = <A, E>(effect: Effect.Effect<Converted<A>, E>): Converted<A> => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isFailure(exit)) return assert.fail(`conversion failed: ${String(exit.cause)}`)
  return exit.value
}

/** The value of a conversion that must succeed without warnings. */
export const exact = <A, E>(effect: Effect.Effect<Converted<A>, E>): A => {
  const { value, warnings } = ok(effect)
  assert.deepStrictEqual(warnings.map((w) => w.message), [])
  return value
}

/** The error of a conversion that must fail. */
export const err = <A, E>(effect: Effect.Effect<A, E>): E => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isSuccess(exit)) return assert.fail("expected the conversion to fail")
  const failure = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (failure === undefined || failure._tag !== "Fail") return assert.fail(`expected a typed failure, got ${String(exit.cause)}`)
  return failure.error
}

/** The tags of the warnings, in order. */
export const tags = (converted: Converted<unknown>): Array<string> => converted.warnings.map((w) => w._tag)

/** Messages as JSON, for readable deep comparisons. */
export const json = (messages: ReadonlyArray<Message.Message>): unknown => JSON.parse(JSON.stringify(Message.encodeAll(messages)))

/** A JSON value with object keys sorted and `null`-valued keys dropped. */
export const normalize = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key]
      if (v !== null && v !== undefined) out[key] = normalize(v)
    }
    return out
  }
  return value
}

/** The first path where two JSON values differ, or undefined. */
export const firstDifference = (a: unknown, b: unknown, path = ""): string | undefined => {
  if (a === b) return undefined
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    for (const key of keys) {
      const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`)
      if (found !== undefined) return found
    }
    return undefined
  }
  return `${path === "" ? "(root)" : path}: ${JSON.stringify(a)?.slice(0, 120)} vs ${JSON.stringify(b)?.slice(0, 120)}`
}

/** A value as JSON text with keys sorted and undefined fields left out (bytes and URLs spelled out): the same JSON, whatever the key order. */
export const canonical = (value: unknown): string => {
  const sort = (v: unknown): unknown => {
    if (v instanceof Uint8Array) return { bytes: Array.from(v) }
    if (v instanceof URL) return { url: v.href }
    if (Array.isArray(v)) return v.map(sort)
    if (typeof v === "object" && v !== null) {
      const out: Record<string, unknown> = {}
      for (const k of Object.keys(v).sort()) {
        const field = (v as Record<string, unknown>)[k]
        if (field !== undefined) setOwn(out, k, sort(field))
      }
      return out
    }
    return v
  }
  return JSON.stringify(sort(value))
}
