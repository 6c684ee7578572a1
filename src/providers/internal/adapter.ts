/**
 * What the request/response adapters share: reading untrusted provider JSON
 * (one defensive copy up front, then small readers that abort with a
 * `MalformedPayload` naming the path), collecting warnings and turning them
 * into a strict-mode failure, and the convention for provider fields the
 * model has no typed place for.
 *
 * The convention: `providerOptions[provider]` of a block, message, tool
 * definition or request holds the fields of its wire object that the model
 * does not carry, verbatim (`cache_control`, `citations: null`, `is_error:
 * false`, a DeepSeek field...); the fields of a nested wire object sit under
 * that object's key. Encoding starts from those fields and writes the typed
 * ones over them, so a payload converted in and out comes back whole. A few
 * of these fields choose between wire forms the model does not distinguish
 * (a system message's `role: "developer"`, a text block's `type: "text"`
 * marking content sent as a list of parts rather than a string); each
 * adapter documents the ones it reads.
 *
 * @internal
 */
import { Effect, Result, type Schema } from "effect"
import type * as Block from "../../Block.js"
import { copyJson } from "../../internal/json.js"
import {
  type ConversionOptions,
  type ConversionWarning,
  type Converted,
  InvalidToolArguments,
  MalformedPayload,
  UnsupportedContent
} from "../Conversion.js"

/** A JSON object read from the wire. */
export type Obj = { readonly [key: string]: Schema.Json }

/** Internal early exit of a decoder; never escapes `run`. */
class Abort {
  constructor(readonly error: MalformedPayload | InvalidToolArguments) {}
}

/** The state of one conversion: the provider key, the options, the warnings so far. */
export interface Ctx {
  readonly provider: string
  readonly options: ConversionOptions | undefined
  readonly warnings: Array<ConversionWarning>
}

export const makeCtx = (provider: string, options: ConversionOptions | undefined): Ctx => ({ provider, options, warnings: [] })

/** Fails the running decoder with a `MalformedPayload` at `path`. */
export const malformed = (ctx: Ctx, path: string, reason: string): never => {
  throw new Abort(new MalformedPayload({ provider: ctx.provider, path, reason }))
}

/** Fails the running decoder with a tool-argument error (strict mode). */
export const invalidArguments = (error: InvalidToolArguments): never => {
  throw new Abort(error)
}

/** Whether a warning is a loss that strict conversion refuses. */
const isLoss = (warning: ConversionWarning): boolean => {
  switch (warning._tag) {
    case "DroppedContent":
    case "ConvertedContent":
      return true
    case "UnknownProviderField":
      return !warning.kept
    case "RepairedToolArguments":
      return false
    default:
      return absurdWarning(warning)
  }
}

const absurdWarning = (value: never): never => {
  throw new Error(`unreachable warning ${String(value)}`)
}

/**
 * Runs a conversion written as a plain loop: its value with the warnings,
 * the error it aborted with, or, in strict mode, `UnsupportedContent` for the
 * first warning that is a loss.
 */
export const run = <A>(
  ctx: Ctx,
  body: () => A
): Effect.Effect<Converted<A>, MalformedPayload | InvalidToolArguments | UnsupportedContent> =>
  Effect.suspend(() => Effect.fromResult(runResult(ctx, body)))

/** `run` for an encoder, which reads only the model and cannot abort. */
export const runEncode = <A>(ctx: Ctx, body: () => A): Effect.Effect<Converted<A>, UnsupportedContent> =>
  run(ctx, body) as Effect.Effect<Converted<A>, UnsupportedContent>

/** `run` as a `Result`, for callers that compose several steps synchronously. */
export const runResult = <A>(
  ctx: Ctx,
  body: () => A
): Result.Result<Converted<A>, MalformedPayload | InvalidToolArguments | UnsupportedContent> => {
  let value: A
  try {
    value = body()
  } catch (cause) {
    if (cause instanceof Abort) return Result.fail(cause.error)
    throw cause
  }
  if (ctx.options?.strict === true) {
    for (const warning of ctx.warnings) {
      if (isLoss(warning)) return Result.fail(new UnsupportedContent({ provider: ctx.provider, warning }))
    }
  }
  return Result.succeed({ value, warnings: ctx.warnings })
}

// ---------------------------------------------------------------------------
// reading untrusted JSON
// ---------------------------------------------------------------------------

/**
 * A plain JSON copy of the input (keys whose value is `undefined` left out,
 * as an object built in code means), or a `MalformedPayload` when it holds
 * something JSON cannot (a function, a `Date`, a cycle, a throwing getter).
 */
export const jsonOf = (ctx: Ctx, input: unknown): Schema.Json => {
  const copy = copyJson(input, { freeze: false, skipUndefined: true })
  if ("value" in copy) return copy.value
  return malformed(ctx, pathText(copy.path), copy.reason)
}

const pathText = (path: ReadonlyArray<string | number>): string => {
  let out = ""
  for (const key of path) out += typeof key === "number" ? `[${key}]` : out === "" ? key : `.${key}`
  return out
}

export const isObj = (u: Schema.Json | undefined): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)

/** The object at `path`, or abort. */
export const obj = (ctx: Ctx, u: Schema.Json | undefined, path: string): Obj =>
  isObj(u) ? u : malformed(ctx, path, `expected an object, got ${kindOf(u)}`)

/** The array at `path`, or abort. */
export const arr = (ctx: Ctx, u: Schema.Json | undefined, path: string): ReadonlyArray<Schema.Json> =>
  Array.isArray(u) ? u : malformed(ctx, path, `expected an array, got ${kindOf(u)}`)

/** A required string field, or abort. */
export const str = (ctx: Ctx, o: Obj, key: string, path: string): string => {
  const v = o[key]
  return typeof v === "string" ? v : malformed(ctx, `${path}.${key}`, `expected a string, got ${kindOf(v)}`)
}

/** An optional string field (`null` counts as absent), or abort when it is something else. */
export const optStr = (ctx: Ctx, o: Obj, key: string, path: string): string | undefined => {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  return typeof v === "string" ? v : malformed(ctx, `${path}.${key}`, `expected a string, got ${kindOf(v)}`)
}

/** An optional boolean field (`null` counts as absent), or abort. */
export const optBool = (ctx: Ctx, o: Obj, key: string, path: string): boolean | undefined => {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  return typeof v === "boolean" ? v : malformed(ctx, `${path}.${key}`, `expected a boolean, got ${kindOf(v)}`)
}

/** An optional number field (`null` counts as absent), or abort. */
export const optNum = (ctx: Ctx, o: Obj, key: string, path: string): number | undefined => {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  return typeof v === "number" ? v : malformed(ctx, `${path}.${key}`, `expected a number, got ${kindOf(v)}`)
}

/** An optional object field (`null` counts as absent), or abort. */
export const optObj = (ctx: Ctx, o: Obj, key: string, path: string): Obj | undefined => {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  return isObj(v) ? v : malformed(ctx, `${path}.${key}`, `expected an object, got ${kindOf(v)}`)
}

export const kindOf = (u: Schema.Json | undefined): string =>
  u === undefined ? "nothing" : u === null ? "null" : Array.isArray(u) ? "an array" : typeof u === "object" ? "an object" : `a ${typeof u}`

// ---------------------------------------------------------------------------
// provider fields the model has no place for
// ---------------------------------------------------------------------------

/** The fields of `o` not named in `known`, or `undefined` when there are none. */
export const extrasOf = (o: Obj, known: ReadonlySet<string>): Record<string, Schema.Json> | undefined => {
  let out: Record<string, Schema.Json> | undefined
  for (const key in o) {
    if (known.has(key)) continue
    out ??= {}
    setKey(out, key, o[key]!)
  }
  return out
}

/** `extrasOf`, plus the extras of nested objects under their own key (`{ function: {...} }`). */
export const withNested = (
  extras: Record<string, Schema.Json> | undefined,
  key: string,
  nested: Record<string, Schema.Json> | undefined
): Record<string, Schema.Json> | undefined => {
  if (nested === undefined) return extras
  const out = extras ?? {}
  setKey(out, key, nested)
  return out
}

/** Sets an own data property, even for `__proto__`. */
export const setKey = (o: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true })
  else o[key] = value
}

/** `{ providerOptions: { [provider]: extras } }`, or `{}` when there are no extras. */
export const optionsOf = (
  provider: string,
  extras: Record<string, Schema.Json> | undefined
): { readonly providerOptions?: Block.ProviderOptions } => (extras === undefined ? {} : { providerOptions: { [provider]: extras } })

/** The fields a value keeps for `provider`, or `undefined`. */
export const ownExtras = (
  value: { readonly providerOptions?: Block.ProviderOptions | undefined },
  provider: string
): Block.JsonObject | undefined => value.providerOptions?.[provider]

/** A nested object of a value's kept fields (`extras.function`), when it is an object. */
export const nestedExtras = (extras: Block.JsonObject | undefined, key: string): Block.JsonObject | undefined => {
  const v = extras?.[key]
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Block.JsonObject) : undefined
}

/** A copy of `extras` without the given keys (the ones the encoder writes itself). */
export const without = (extras: Block.JsonObject | undefined, keys: ReadonlyArray<string>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  if (extras === undefined) return out
  for (const key in extras) if (!keys.includes(key)) setKey(out, key, extras[key])
  return out
}
