/**
 * Shared helpers of the stream tests: the four accumulators behind one
 * table, splitting text and bytes into pieces, and the "is a prefix of"
 * relation between a partial response and the full one.
 */
import { Result } from "effect"
import { AnthropicStream, GeminiStream, OpenAiChatStream, OpenAiResponsesStream, type StreamAccumulator, type StreamError } from "../../src/providers/index.js"
import { jsonTextState } from "../../src/providers/internal/jsonText.js"
import * as AnthropicFixtures from "./fixtures/anthropic.js"
import * as GeminiFixtures from "./fixtures/gemini.js"
import * as ChatFixtures from "./fixtures/openAiChat.js"
import * as ResponsesFixtures from "./fixtures/openAiResponses.js"
import type { Fixture } from "./fixtures/sse.js"

export type AnyAccumulator = StreamAccumulator.StreamAccumulator<never, unknown>

export interface Format {
  readonly provider: string
  readonly make: () => AnyAccumulator
  readonly fixtures: ReadonlyArray<Fixture>
  /** How many leading frames make the stream complete (later frames only add usage or the sentinel). */
  readonly completeAfter: (fixture: Fixture) => number
  /** Words one of which the description of a cut stream must contain. */
  readonly cutWords: ReadonlyArray<string>
}

const lastFrameWhere = (fixture: Fixture, p: (data: unknown) => boolean): number => {
  for (let i = fixture.frames.length - 1; i >= 0; i--) if (p(fixture.frames[i]!.data)) return i + 1
  return fixture.frames.length
}

const hasFinishReason = (data: unknown): boolean =>
  typeof data === "object" && data !== null && Array.isArray((data as { choices?: unknown }).choices) &&
  (data as { choices: Array<{ finish_reason?: unknown }> }).choices.some((c) => typeof c.finish_reason === "string")

export const formats: ReadonlyArray<Format> = [
  {
    provider: "openai-chat",
    make: OpenAiChatStream.make as () => AnyAccumulator,
    fixtures: ChatFixtures.all,
    completeAfter: (f) => lastFrameWhere(f, hasFinishReason),
    cutWords: ["no chunk arrived", "has no finish_reason"]
  },
  {
    provider: "anthropic-messages",
    make: AnthropicStream.make as () => AnyAccumulator,
    fixtures: AnthropicFixtures.all,
    completeAfter: (f) => f.frames.length,
    cutWords: ["no message_start event", "no message_stop event"]
  },
  {
    provider: "openai-responses",
    make: OpenAiResponsesStream.make as () => AnyAccumulator,
    fixtures: ResponsesFixtures.all,
    completeAfter: (f) => f.frames.length,
    cutWords: ["no response.created event", "no terminal event"]
  },
  {
    provider: "gemini",
    make: GeminiStream.make as () => AnyAccumulator,
    fixtures: GeminiFixtures.all,
    completeAfter: (f) => f.frames.length,
    cutWords: ["no chunk arrived", "has no finishReason"]
  }
]

/** Feeds pieces of SSE text or bytes and ends the stream. */
export const feedAll = (make: () => AnyAccumulator, pieces: Iterable<string | Uint8Array>): Result.Result<unknown, StreamError.StreamError> => {
  const acc = make()
  for (const piece of pieces) acc.feed(piece)
  return acc.done()
}

/** Cuts `whole` at the given positions (any order, duplicates allowed). */
export const splitAt = <A extends string | Uint8Array>(whole: A, points: ReadonlyArray<number>): Array<A> => {
  const sorted = [...new Set(points.map((p) => Math.max(0, Math.min(whole.length, p))))].sort((a, b) => a - b)
  const out: Array<A> = []
  let from = 0
  for (const p of sorted) {
    out.push(whole.slice(from, p) as A)
    from = p
  }
  out.push(whole.slice(from) as A)
  return out
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/** Fields whose value is replaced, not extended, as a stream goes on. */
const replaced = new Set(["status", "stop_reason", "finish_reason", "finishReason"])

/** Markers of unfinished state that only a partial response carries. */
const unfinished = new Set(["willContinue"])

/**
 * Where `partial` stops being a prefix of `full`, or `undefined` when it is
 * one: texts are prefixes of the full texts, lists are no longer and each
 * element is a prefix, objects carry no key the full one lacks. Numbers
 * (token counts) may differ, `null` stands for "not yet", status-like fields
 * may change, markers of unfinished state (`willContinue`) may be there, and
 * a tool input still held as raw text must be JSON cut short (or whole), not
 * garbage.
 */
export const prefixMismatch = (partial: unknown, full: unknown, path = "$"): string | undefined => {
  if (partial === full || partial === null || partial === undefined) return undefined
  if (typeof partial === "number" && typeof full === "number") return undefined
  if (typeof partial === "string") {
    if (typeof full === "string") {
      if (full.startsWith(partial)) return undefined
      const key = path.slice(path.lastIndexOf(".") + 1)
      return replaced.has(key) ? undefined : `${path}: ${JSON.stringify(partial)} is not a prefix of ${JSON.stringify(full)}`
    }
    if (typeof full === "object" && full !== null && jsonTextState(partial)._tag !== "Invalid") return undefined
    return `${path}: string ${JSON.stringify(partial)} against ${JSON.stringify(full)}`
  }
  if (Array.isArray(partial)) {
    if (!Array.isArray(full)) return `${path}: array against ${JSON.stringify(full)}`
    if (partial.length > full.length) return `${path}: ${partial.length} elements, the full response has ${full.length}`
    for (let i = 0; i < partial.length; i++) {
      const m = prefixMismatch(partial[i], full[i], `${path}[${i}]`)
      if (m !== undefined) return m
    }
    return undefined
  }
  if (typeof partial === "object") {
    if (typeof full !== "object" || full === null || Array.isArray(full)) return `${path}: object against ${JSON.stringify(full)}`
    for (const key of Object.keys(partial)) {
      if (unfinished.has(key) && !(key in full)) continue
      const m = prefixMismatch((partial as Record<string, unknown>)[key], (full as Record<string, unknown>)[key], `${path}.${key}`)
      if (m !== undefined) return m
    }
    return undefined
  }
  return `${path}: ${JSON.stringify(partial)} against ${JSON.stringify(full)}`
}
