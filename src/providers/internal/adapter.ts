/**
 * What the OpenAI Responses, Gemini and effect/ai adapters share beyond
 * `Conversion` and `ToolArguments`: a conversion context that collects
 * warnings (or fails in strict mode), reads untrusted payload fields with a
 * path for errors, and keeps the fields the model does not name, verbatim,
 * so they can be written back.
 *
 * A conversion is one plain loop over the payload. Failures inside it are
 * thrown as a private `Stop` value and turned into a failed Effect by `run`,
 * so the loop needs no Effect per item; anything else thrown while reading
 * (a hostile getter, a revoked proxy) becomes a `MalformedPayload`.
 *
 * @internal
 */
import { Effect, Result } from "effect"
import type { Schema } from "effect"
import type * as Block from "../../Block.js"
import { copyJson, errorText } from "../../internal/json.js"
import {
  type ConversionOptions,
  type ConversionWarning,
  type Converted,
  InvalidToolArguments,
  MalformedPayload,
  UnsupportedContent
} from "../Conversion.js"
import * as ToolArguments from "../ToolArguments.js"

export type Obj = Record<string, unknown>

/** A JSON object being built. */
export type JsonObj = { [key: string]: Schema.Json }

export const isObj = (u: unknown): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)

/** Thrown inside a conversion loop, caught by `run`. Never escapes this module's callers. */
class Stop {
  constructor(readonly error: MalformedPayload | InvalidToolArguments | UnsupportedContent) {}
}

/** The state of one conversion: its provider, options and warnings. */
export class Ctx {
  readonly warnings: Array<ConversionWarning> = []
  readonly strict: boolean
  readonly toolArguments: "lenient" | "strict"
  constructor(readonly provider: string, options: ConversionOptions | undefined) {
    this.strict = options?.strict === true
    this.toolArguments = options?.toolArguments ?? "lenient"
  }

  /** Reports a warning; in strict mode a loss fails the conversion instead. */
  warn(warning: ConversionWarning): void {
    const loss = warning._tag === "DroppedContent" || warning._tag === "ConvertedContent" ||
      (warning._tag === "UnknownProviderField" && !warning.kept)
    if (loss && this.strict) throw new Stop(new UnsupportedContent({ provider: this.provider, warning }))
    this.warnings.push(warning)
  }

  /** Fails the conversion: the payload is not what the format looks like. */
  fail(path: string, reason: string): never {
    throw new Stop(new MalformedPayload({ provider: this.provider, path, reason }))
  }

  /** A JSON copy of a payload value (unfrozen: the block constructors copy and freeze). */
  json(value: unknown, path: string): Schema.Json {
    const copy = copyJson(value, { freeze: false })
    if ("value" in copy) return copy.value
    return this.fail(`${path}${copy.path.map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`)).join("")}`, copy.reason)
  }

  obj(value: unknown, path: string): Obj {
    return isObj(value) ? value : this.fail(path, `expected an object, got ${kind(value)}`)
  }

  arr(value: unknown, path: string): ReadonlyArray<unknown> {
    return Array.isArray(value) ? value : this.fail(path, `expected an array, got ${kind(value)}`)
  }

  str(o: Obj, key: string, path: string): string {
    const v = o[key]
    return typeof v === "string" ? v : this.fail(`${path}.${key}`, `expected a string, got ${kind(v)}`)
  }

  /** An optional string field: absent and `null` read as absent. */
  optStr(o: Obj, key: string, path: string): string | undefined {
    const v = o[key]
    if (v === undefined || v === null) return undefined
    return typeof v === "string" ? v : this.fail(`${path}.${key}`, `expected a string, got ${kind(v)}`)
  }

  optBool(o: Obj, key: string, path: string): boolean | undefined {
    const v = o[key]
    if (v === undefined || v === null) return undefined
    return typeof v === "boolean" ? v : this.fail(`${path}.${key}`, `expected a boolean, got ${kind(v)}`)
  }

  optCount(o: Obj | undefined, key: string, path: string): number | undefined {
    if (o === undefined) return undefined
    const v = o[key]
    if (v === undefined || v === null) return undefined
    return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : this.fail(`${path}.${key}`, `expected a token count, got ${kind(v)}`)
  }

  /**
   * The fields of `o` not in `known`, copied as JSON, or `undefined` when
   * there are none. This is how the fields the model does not name survive
   * a round trip.
   */
  extras(o: Obj, known: ReadonlySet<string>, path: string): JsonObj | undefined {
    let out: JsonObj | undefined
    for (const key of Object.keys(o)) {
      if (known.has(key)) continue
      out ??= {}
      setKey(out, key, this.json(o[key], `${path}.${key}`))
    }
    return out
  }

  /** A tool call from the provider's argument text, through the shared parser. */
  call(
    site: ToolArguments.CallSite,
    text: string,
    extras?: CallExtras
  ): Block.ToolCallBlock {
    const read = ToolArguments.readCall(site, text, { mode: this.toolArguments, ...(extras === undefined ? {} : { extras }) })
    if (Result.isFailure(read)) throw new Stop(read.failure)
    if (read.success.warning !== undefined) this.warnings.push(read.success.warning)
    return read.success.block
  }
}

/** The fields of a tool call block besides the ones the argument parser sets. */
export type CallExtras = Omit<ConstructorParameters<typeof Block.ToolCallBlock>[0], "_tag" | "id" | "name" | "args" | "rawArgs" | "parseError">

const kind = (u: unknown): string =>
  u === null ? "null" : Array.isArray(u) ? "an array" : u === undefined ? "nothing" : typeof u === "object" ? "an object" : `a ${typeof u}`

/**
 * Runs a conversion loop when the Effect runs: its value and warnings, or
 * the tagged error it stopped with.
 */
export const run = <A, E extends MalformedPayload | InvalidToolArguments | UnsupportedContent = MalformedPayload>(
  provider: string,
  options: ConversionOptions | undefined,
  body: (ctx: Ctx) => A
): Effect.Effect<Converted<A>, E> =>
  Effect.suspend(() => {
    const ctx = new Ctx(provider, options)
    try {
      const value = body(ctx)
      return Effect.succeed({ value, warnings: ctx.warnings })
    } catch (cause) {
      if (cause instanceof Stop) return Effect.fail(cause.error as E)
      return Effect.fail(new MalformedPayload({ provider, path: "", reason: `could not read the payload: ${errorText(cause)}` }) as E)
    }
  })

/** Sets `o[key] = value` as an own data property, even for `__proto__`. */
export const setKey = (o: Obj, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true })
  else o[key] = value
}

/**
 * Writes kept fields back over a built wire object: nested objects present
 * on both sides are merged, anything else is set. Returns `target`.
 */
export const merge = <T extends object>(target: T, extra: Obj | undefined): T => {
  if (extra === undefined) return target
  const out = target as Obj
  for (const key of Object.keys(extra)) {
    const value = extra[key]
    const current = out[key]
    if (isObj(value) && isObj(current)) setKey(out, key, merge({ ...current }, value))
    else setKey(out, key, value)
  }
  return target
}

/** This adapter's record in a `providerOptions`, if any. */
export const own = (options: Block.ProviderOptions | undefined, key: string): Obj | undefined => {
  const record = options?.[key]
  return record === undefined ? undefined : record
}

/** The kept wire fields (`extra`) in this adapter's record of a `providerOptions`. */
export const extraOf = (options: Block.ProviderOptions | undefined, key: string): Obj | undefined => {
  const extra = own(options, key)?.["extra"]
  return isObj(extra) ? extra : undefined
}

/**
 * `{ providerOptions }` for a constructor: this adapter's record (dropping
 * undefined entries), or nothing when the record is empty.
 */
export const optionsFor = (key: string, record: { readonly [k: string]: Schema.Json | undefined }): { readonly providerOptions?: Block.ProviderOptions } => {
  let out: Record<string, Schema.Json> | undefined
  for (const k of Object.keys(record)) {
    const v = record[k]
    if (v === undefined) continue
    out ??= {}
    out[k] = v
  }
  return out === undefined ? {} : { providerOptions: { [key]: out } }
}

/** Copies only the defined values, so that absent optional fields stay absent. */
export const defined = <A extends Record<string, unknown>>(o: A): { [K in keyof A]?: Exclude<A[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = o[k]
  return out as { [K in keyof A]?: Exclude<A[K], undefined> }
}
