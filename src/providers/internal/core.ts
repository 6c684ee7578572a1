/**
 * The part every stream accumulator shares: counting events, recording
 * protocol violations and provider errors, feeding SSE text through the
 * incremental parser, and deciding what `done()` reports. A provider module
 * plugs in a `Format`: how to apply one event, how to copy out a snapshot,
 * and what is still cut when the stream ends.
 */
import { Result } from "effect"
import { errorText } from "../../internal/json.js"
import * as Sse from "../Sse.js"
import { invalid, parseData, preview } from "./json.js"
import { preview as previewValue } from "../../internal/preview.js"
import type { StreamAccumulator } from "../StreamAccumulator.js"
import { IncompleteStream, type Provider, ProviderStreamError, type StreamError, StreamProtocolError } from "../StreamError.js"

/** What a provider module implements. */
export interface Format<Response> {
  /** Applies one event (any JSON value; the format checks its shape). */
  readonly apply: (event: unknown) => void
  /** A copy of the response so far, `undefined` before it started. */
  readonly snapshot: () => Response | undefined
  /** The final response (a copy) and what is cut, `[]` when complete. */
  readonly finish: () => { readonly response: Response | undefined; readonly cut: ReadonlyArray<string> }
}

/** What a format reports to the shared part. */
export interface Context {
  /** Records an event that contradicts the protocol (the current event when `event` is omitted). */
  readonly violation: (reason: string, event?: unknown) => void
  /** Records an error the provider sent. */
  readonly providerError: (error: {
    readonly errorType: string
    readonly errorMessage: string
    readonly code?: string | undefined
    readonly error?: unknown
  }) => void
}

/**
 * Builds the public accumulator around a format. `build` receives the
 * context to report through and returns the format.
 */
export const makeAccumulator = <Event, Response, F extends Format<Response> = Format<Response>, Extra extends object = {}>(
  provider: Provider,
  build: (ctx: Context) => F,
  extra?: (format: F) => Extra
): StreamAccumulator<Event, Response> & Extra => {
  let events = 0
  let current: unknown = undefined
  let firstViolation: { readonly eventIndex: number; readonly reason: string; readonly event: unknown } | undefined
  let moreViolations = 0
  let providerError: Parameters<Context["providerError"]>[0] | undefined
  let sawDone = false
  let cutTail: string | undefined
  let parser: Sse.Parser | undefined

  const ctx: Context = {
    violation: (reason, event) => {
      if (firstViolation === undefined) firstViolation = { eventIndex: events - 1, reason, event: event === undefined ? current : event }
      else moreViolations++
    },
    providerError: (error) => {
      providerError ??= error
    }
  }
  const format = build(ctx)

  const push = (event: unknown): void => {
    // the stream is over at [DONE], as the official SDKs read it (they stop there): what comes after is not read
    if (sawDone) return
    events++
    current = event
    if (event === Sse.DONE) {
      sawDone = true
      return
    }
    try {
      format.apply(event)
    } catch (cause) {
      // a format never throws on purpose; this guards `push` against exotic inputs (getters, proxies)
      ctx.violation(`the event could not be applied: ${errorText(cause)}`)
    }
    current = undefined
  }

  const pushData = (data: string): void => {
    if (sawDone) return
    if (Sse.isDone(data)) return push(Sse.DONE)
    const parsed = parseData(data)
    if (parsed === invalid) {
      events++
      ctx.violation(`data is not valid JSON: ${preview(data)}`, data)
      return
    }
    push(parsed)
  }

  const onSse = (event: Sse.Event): void => {
    if (event.event !== "error") return pushData(event.data)
    // an SSE frame named `error` is a failure whatever its data says (the official SDKs throw on the name):
    // the format reads it first, in case it knows the shape; otherwise the data is the error
    const before = providerError
    pushData(event.data)
    if (providerError !== before) return
    const parsed = event.data === Sse.DONE ? invalid : parseData(event.data)
    const body = parsed !== invalid && isObj(parsed) ? parsed : undefined
    const nested = body === undefined ? undefined : obj(body, "error")
    const source = nested ?? body
    const code = source === undefined ? undefined : str(source, "code")
    ctx.providerError({
      errorType: (source === undefined ? undefined : str(source, "type")) ?? code ?? "error",
      errorMessage: (source === undefined ? undefined : str(source, "message")) ?? (body === undefined ? event.data : ""),
      code,
      error: parsed === invalid ? event.data : nested ?? parsed
    })
  }

  const accumulator: StreamAccumulator<Event, Response> = {
    provider,
    push,
    pushData,
    feed: (chunk) => {
      parser ??= Sse.makeParser(onSse)
      // a piece that is neither text nor bytes (a number, a detached buffer) is a violation, never a throw
      if (typeof chunk !== "string" && !(chunk instanceof Uint8Array)) {
        ctx.violation(`a piece of the SSE text is neither a string nor bytes: ${chunk === null ? "null" : typeof chunk}`)
        return
      }
      try {
        parser.feed(chunk)
      } catch (cause) {
        ctx.violation(`a piece of the SSE text could not be read: ${errorText(cause)}`)
      }
    },
    snapshot: () => {
      try {
        return format.snapshot()
      } catch {
        // an exotic value kept from an event (a proxy, a throwing getter) cannot be copied out
        return undefined
      }
    },
    events: () => events,
    done: (): Result.Result<Response, StreamError> => {
      try {
        return finish()
      } catch (cause) {
        // the same exotic values, met while assembling the response: a protocol error, never a throw
        return Result.fail(new StreamProtocolError({ provider, reason: `the response could not be assembled: ${errorText(cause)}` }))
      }
    }
  }

  const finish = (): Result.Result<Response, StreamError> => {
    if (parser !== undefined) {
      const open = parser.end()
      // an error frame is a failure, ended or not
      if (open !== undefined && open.event === "error") onSse(open)
      else if (open !== undefined) {
        // an event whose blank line never came: kept when its data is whole (as the SDKs do), else the text was cut
        const parsed = open.data === Sse.DONE ? Sse.DONE : parseData(open.data)
        if (parsed === invalid) cutTail = `the SSE text ends inside an event (${open.data.length} characters of unterminated data)`
        else push(parsed)
      }
    }
    // what the format finds at the end is reported by this call only, so that `done()` gives the same answer every time
    const kept = { firstViolation, moreViolations }
    try {
      return settle()
    } finally {
      firstViolation = kept.firstViolation
      moreViolations = kept.moreViolations
    }
  }

  const settle = (): Result.Result<Response, StreamError> => {
    const { cut, response } = format.finish()
    const partial = response ?? format.snapshot()
    if (providerError !== undefined) {
      return Result.fail(
        new ProviderStreamError({
          provider,
          errorType: providerError.errorType,
          errorMessage: providerError.errorMessage,
          ...(providerError.code === undefined ? {} : { code: providerError.code }),
          ...(providerError.error === undefined ? {} : { error: providerError.error }),
          partial
        })
      )
    }
    if (firstViolation !== undefined) {
      return Result.fail(
        new StreamProtocolError({
          provider,
          reason: firstViolation.reason,
          eventIndex: firstViolation.eventIndex,
          event: firstViolation.event,
          more: moreViolations,
          partial
        })
      )
    }
    const allCut = cutTail === undefined ? cut : [...cut, cutTail]
    if (allCut.length > 0 || response === undefined) {
      return Result.fail(new IncompleteStream({ provider, cut: allCut.length > 0 ? allCut : ["no event arrived"], events, partial }))
    }
    return Result.succeed(response)
  }
  return extra === undefined ? (accumulator as StreamAccumulator<Event, Response> & Extra) : Object.assign(accumulator, extra(format))
}

// ---------------------------------------------------------------------------
// small readers over untrusted JSON: an event may be any value
// ---------------------------------------------------------------------------

export type Obj = Record<string, unknown>

export const isObj = (u: unknown): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)

export const str = (o: Obj, key: string): string | undefined => {
  const v = o[key]
  return typeof v === "string" ? v : undefined
}

export const num = (o: Obj, key: string): number | undefined => {
  const v = o[key]
  return typeof v === "number" && Number.isFinite(v) ? v : undefined
}

/**
 * The largest index an event may carry. Indexes place blocks, items and parts
 * in arrays: an index far past the end (2^31, 1e15) would make an array of
 * that length, and every later pass over it would hang. No stream has a
 * million blocks, items or parts.
 */
export const MAX_INDEX = 0xfffff

/** A non-negative integer index no larger than `MAX_INDEX`, or undefined. */
export const index = (o: Obj, key: string): number | undefined => {
  const v = o[key]
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX_INDEX ? v : undefined
}

/**
 * The elements of an array from an event, copied densely; throws at the
 * first hole. A sparse array (`a.length = 1e9`) or a proxy whose length
 * lies is no JSON value: the throw makes the event a violation, where
 * spreading or walking it would cost its claimed length.
 */
export const elements = (list: ReadonlyArray<unknown>): Array<unknown> => {
  const out: Array<unknown> = []
  const n = list.length
  for (let i = 0; i < n; i++) {
    if (!(i in list)) throw new Error(`a sparse array (no element at ${i} of ${n})`)
    out.push(list[i])
  }
  return out
}

export const obj = (o: Obj, key: string): Obj | undefined => {
  const v = o[key]
  return isObj(v) ? v : undefined
}

export const arr = (o: Obj, key: string): ReadonlyArray<unknown> | undefined => {
  const v = o[key]
  return Array.isArray(v) ? v : undefined
}

/**
 * A deep copy of a JSON-like value (arrays and objects copied, other values
 * shared). Linear in its size and iterative, so a value nested thousands of
 * levels deep is copied without overflowing the stack; a container met again
 * inside itself (a cycle) is shared rather than copied forever.
 */
export const clone = <A>(value: A): A => {
  if (typeof value !== "object" || value === null) return value
  interface Frame {
    readonly source: object
    readonly target: Obj | Array<unknown>
    readonly keys: ReadonlyArray<string> | number
    index: number
  }
  const onPath = new Set<object>()
  const open = (source: object): Frame => {
    onPath.add(source)
    // grown as it is copied: a sparse array claiming a length of 1e9 must not be allocated (its first hole stops the copy)
    if (Array.isArray(source)) return { source, target: [], keys: source.length, index: 0 }
    const keys: Array<string> = []
    for (const key in source) if (Object.prototype.hasOwnProperty.call(source, key)) keys.push(key)
    return { source, target: {}, keys, index: 0 }
  }
  const root = open(value)
  const stack: Array<Frame> = [root]
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!
    const count = typeof frame.keys === "number" ? frame.keys : frame.keys.length
    if (frame.index >= count) {
      stack.pop()
      onPath.delete(frame.source)
      continue
    }
    const i = frame.index++
    // a hole is no JSON value: the event that holds it cannot be applied (a violation, never a crash)
    if (typeof frame.keys === "number" && !(i in frame.source)) throw new Error(`a sparse array (no element at ${i} of ${frame.keys})`)
    const key = typeof frame.keys === "number" ? i : frame.keys[i]!
    const v: unknown = (frame.source as Record<string | number, unknown>)[key]
    let out: unknown = v
    if (typeof v === "object" && v !== null && !onPath.has(v)) {
      const child = open(v)
      stack.push(child)
      out = child.target
    }
    if (typeof key === "number") (frame.target as Array<unknown>)[key] = out
    else setKey(frame.target as Obj, key, out)
  }
  return root.target as A
}

/** Sets `o[key] = value` as an own data property, even for `__proto__`. */
export const setKey = (o: Obj, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true })
  else o[key] = value
}

/**
 * Whether two JSON values are the same value (key order aside). Iterative, so values nested thousands of levels deep
 * are compared without overflowing the stack; a pair of containers met again (a cycle) is taken as the same.
 */
export const sameJson = (a: unknown, b: unknown): boolean => {
  const pending: Array<readonly [unknown, unknown]> = [[a, b]]
  const seen = new Map<object, Set<object>>()
  while (pending.length > 0) {
    const [x, y] = pending.pop()!
    if (x === y) continue
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false
    const met = seen.get(x)
    if (met?.has(y) === true) continue
    if (met === undefined) seen.set(x, new Set([y]))
    else met.add(y)
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false
      for (let k = 0; k < x.length; k++) pending.push([x[k], y[k]])
      continue
    }
    const keys = Object.keys(x)
    if (keys.length !== Object.keys(y).length) return false
    for (const k of keys) {
      if (!Object.hasOwn(y, k)) return false
      pending.push([(x as Obj)[k], (y as Obj)[k]])
    }
  }
  return true
}

/**
 * A short readable rendering of a value for messages: `preview`'s, bounded by its 80 characters however large or
 * deep the value (a deep one is its first levels, not "an array"); never throws.
 */
export const show = (u: unknown): string => previewValue(u)
