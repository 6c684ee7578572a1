/**
 * Writing back the fields the model has no place for (the convention of
 * `internal/adapter`: `providerOptions[provider]` holds a wire object's
 * other fields verbatim, nested objects' fields under their key) when an
 * adapter also keeps a few hints beside them (which wire form to write, an
 * id that was made up): the hints are named per adapter and never written.
 *
 * @internal
 */
import type { Schema } from "effect"
import type * as Block from "../../Block.js"
import { setKey } from "./adapter.js"

type Writable = { [key: string]: unknown }

const isPlain = (u: unknown): u is { readonly [key: string]: unknown } => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Writes kept fields over a built wire object: objects present on both
 * sides are merged, anything else is set (a kept field that chooses a wire
 * form, such as `role: "developer"`, replaces the default). Returns `target`.
 */
export const merge = <T extends object>(target: T, kept: { readonly [key: string]: unknown } | undefined): T => {
  if (kept === undefined) return target
  const out = target as Writable
  for (const key of Object.keys(kept)) {
    const value = kept[key]
    const current = out[key]
    if (isPlain(value) && isPlain(current)) setKey(out, key, merge({ ...current }, value))
    else setKey(out, key, value)
  }
  return target
}

/** The kept wire fields of a value for `provider`, without the adapter's hint keys. */
export const keptOf = (
  value: { readonly providerOptions?: Block.ProviderOptions | undefined } | undefined,
  provider: string,
  hints: ReadonlySet<string>
): { readonly [key: string]: Schema.Json } | undefined => {
  const record = value?.providerOptions?.[provider]
  if (record === undefined) return undefined
  let out: { [key: string]: Schema.Json } | undefined
  for (const key of Object.keys(record)) {
    if (hints.has(key)) continue
    out ??= {}
    setKey(out, key, record[key])
  }
  return out
}

/** One hint of a value for `provider`. */
export const hintOf = (value: { readonly providerOptions?: Block.ProviderOptions | undefined } | undefined, provider: string, hint: string): Schema.Json | undefined =>
  value?.providerOptions?.[provider]?.[hint]

/**
 * `{ providerOptions: { [provider]: { ...kept, ...hints } } }` without the
 * undefined hints, or `{}` when there is nothing to keep.
 */
export const keep = (
  provider: string,
  kept: { readonly [key: string]: Schema.Json } | undefined,
  hints?: { readonly [key: string]: Schema.Json | undefined }
): { readonly providerOptions?: Block.ProviderOptions } => {
  let out: { [key: string]: Schema.Json } | undefined = kept === undefined ? undefined : { ...kept }
  if (hints !== undefined) {
    for (const key of Object.keys(hints)) {
      const v = hints[key]
      if (v === undefined) continue
      out ??= {}
      setKey(out, key, v)
    }
  }
  return out === undefined ? {} : { providerOptions: { [provider]: out } }
}

/** Copies only the defined values, so that absent optional fields stay absent. */
export const defined = <A extends Record<string, unknown>>(o: A): { [K in keyof A]?: Exclude<A[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = o[k]
  return out as { [K in keyof A]?: Exclude<A[K], undefined> }
}
