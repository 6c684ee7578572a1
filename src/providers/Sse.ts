/**
 * Server-Sent Events, parsed incrementally: the framing every provider uses
 * to stream a response over HTTP.
 *
 * Feed the parser text or bytes in pieces of any size, split anywhere: a
 * multi-byte UTF-8 character, a `\r\n` pair, a field name or a JSON payload
 * may straddle two pieces. Each complete event (`event`, `data`, `id`) comes
 * out as soon as its blank line arrives. The parser follows the WHATWG
 * event-stream rules (lines end in `\r\n`, `\n` or `\r`; `:` starts a
 * comment; one space after the colon is dropped; `data` lines are joined
 * with `\n`; an event without `data` is not dispatched; a leading BOM is
 * skipped), with one deliberate difference at the end of the input: an
 * event whose blank line never came is handed back by `end()` instead of
 * being discarded silently, so the caller can tell a stream that was cut
 * from one that ended cleanly.
 *
 * OpenAI's end-of-stream sentinel, a `data` of `[DONE]` (whitespace around
 * it allowed), ends the stream: the event is dispatched with the data
 * `[DONE]`, and nothing after it is read, as the official SDKs stop reading
 * there.
 *
 * Every character is looked at once: no buffered text is scanned again, so
 * the time is linear in the input however it is split.
 *
 * @example
 * import { Sse } from "effect-agent-messages/providers"
 *
 * const events: Array<Sse.Event> = []
 * const parser = Sse.makeParser((event) => events.push(event))
 * parser.feed("event: ping\nda")
 * parser.feed("ta: {}\n\n")
 * parser.end() // undefined: nothing was left open
 * events // [{ event: "ping", data: "{}", id: undefined }]
 *
 * @since 0.1.0
 */
import { Result } from "effect"
import { invalid, parseData, preview } from "./internal/json.js"
import { StreamProtocolError } from "./StreamError.js"

/**
 * One dispatched event.
 *
 * - `event`: the `event:` field, `"message"` when the event had none.
 * - `data`: the `data:` lines joined with `\n`.
 * - `id`: the last `id:` seen so far in the stream (ids persist across
 *   events, as in the browser's EventSource), `undefined` if none.
 *
 * @since 0.1.0
 */
export interface Event {
  readonly event: string
  readonly data: string
  readonly id: string | undefined
}

/**
 * An incremental parser. `feed` takes the next piece of the stream; `end`
 * says the stream is over and returns the event that was still open (its
 * data as received so far) or `undefined` when the input ended cleanly.
 *
 * @since 0.1.0
 */
export interface Parser {
  readonly feed: (chunk: string | Uint8Array) => void
  readonly end: () => Event | undefined
}

const LF = 10
const CR = 13
const COLON = 58
const SPACE = 32

/**
 * Makes an incremental parser that calls `onEvent` for each complete event.
 *
 * **Details**
 *
 * Bytes are decoded as UTF-8 (invalid sequences become U+FFFD, as in a
 * browser); a character split across two byte pieces is decoded once both
 * have arrived. Strings and bytes may be mixed, though one kind per stream
 * is the normal use. After the `[DONE]` sentinel (see `isDone`) the parser
 * reads nothing more: later pieces are ignored and `end()` returns
 * `undefined`.
 *
 * @example
 * const events: Array<Sse.Event> = []
 * const parser = Sse.makeParser((event) => events.push(event))
 * parser.feed(new TextEncoder().encode("event: ping\ndata: {}\n\ndata: {\"a\""))
 * parser.end() // { event: "message", data: '{"a"', id: undefined }: the stream was cut inside an event
 * events.length // 1
 *
 * @since 0.1.0
 */
export const makeParser = (onEvent: (event: Event) => void): Parser => {
  let decoder: InstanceType<typeof TextDecoder> | undefined
  let started = false // a BOM is only skipped at the very start
  let pendingLine = "" // the unterminated tail of the current line
  let skipLF = false // the previous piece ended with "\r": a leading "\n" belongs to it
  let eventType = ""
  let data: Array<string> = []
  let lastId: string | undefined = undefined
  let over = false // the [DONE] sentinel came: the stream is over

  const dispatch = (): void => {
    if (data.length > 0) {
      const joined = data.join("\n")
      over = isDone(joined)
      onEvent({ event: eventType === "" ? "message" : eventType, data: over ? DONE : joined, id: lastId })
    }
    eventType = ""
    data = []
  }

  const line = (text: string): void => {
    if (over) return
    if (text.length === 0) return dispatch()
    if (text.charCodeAt(0) === COLON) return // a comment (keep-alive)
    const colon = text.indexOf(":")
    const field = colon < 0 ? text : text.slice(0, colon)
    let value = ""
    if (colon >= 0) value = text.charCodeAt(colon + 1) === SPACE ? text.slice(colon + 2) : text.slice(colon + 1)
    switch (field) {
      case "data":
        data.push(value)
        return
      case "event":
        eventType = value
        return
      case "id":
        if (!value.includes("\0")) lastId = value
        return
      default:
        return // `retry` and unknown fields do not concern a parser without reconnection
    }
  }

  const text = (piece: string): void => {
    let start = 0
    if (!started && piece.length > 0) {
      started = true
      if (piece.charCodeAt(0) === 0xfeff) start = 1
    }
    if (skipLF && piece.length > start) {
      skipLF = false
      if (piece.charCodeAt(start) === LF) start++
    }
    // next positions of "\r" and "\n", each found once per piece: no quadratic rescans
    let nextCR = piece.indexOf("\r", start)
    let nextLF = piece.indexOf("\n", start)
    while (true) {
      if (nextCR >= 0 && nextCR < start) nextCR = piece.indexOf("\r", start)
      if (nextLF >= 0 && nextLF < start) nextLF = piece.indexOf("\n", start)
      const end = nextCR < 0 ? nextLF : nextLF < 0 ? nextCR : Math.min(nextCR, nextLF)
      if (end < 0) break
      const body = piece.slice(start, end)
      const full = pendingLine.length === 0 ? body : pendingLine + body
      pendingLine = ""
      line(full)
      start = end + 1
      if (piece.charCodeAt(end) === CR) {
        if (end + 1 === piece.length) skipLF = true
        else if (piece.charCodeAt(end + 1) === LF) start++
      }
    }
    if (start < piece.length) pendingLine = pendingLine.length === 0 ? piece.slice(start) : pendingLine + piece.slice(start)
  }

  return {
    feed: (chunk) => {
      if (over) return
      if (typeof chunk === "string") {
        if (decoder !== undefined) {
          const rest = decoder.decode()
          decoder = undefined
          if (rest.length > 0) text(rest)
        }
        text(chunk)
      } else {
        decoder ??= new TextDecoder("utf-8")
        text(decoder.decode(chunk, { stream: true }))
      }
    },
    end: () => {
      if (over) {
        decoder = undefined
        pendingLine = ""
        return undefined
      }
      if (decoder !== undefined) {
        const rest = decoder.decode()
        decoder = undefined
        if (rest.length > 0) text(rest)
      }
      if (pendingLine.length > 0) {
        const last = pendingLine
        pendingLine = ""
        line(last)
      }
      skipLF = false
      const joined = data.join("\n")
      const cut: Event | undefined = data.length === 0 ? undefined : { event: eventType === "" ? "message" : eventType, data: isDone(joined) ? DONE : joined, id: lastId }
      eventType = ""
      data = []
      return cut
    }
  }
}

/**
 * The events of a whole SSE text (or of its pieces), plus the event left
 * open at the end, if any.
 *
 * @example
 * const { events, cut } = Sse.parse(["data: one\n\nda", "ta: two\n\n"])
 * events.map((e) => e.data) // ["one", "two"]
 * cut // undefined
 *
 * @since 0.1.0
 */
export const parse = (input: string | Iterable<string | Uint8Array>): { readonly events: Array<Event>; readonly cut: Event | undefined } => {
  const events: Array<Event> = []
  const parser = makeParser((event) => events.push(event))
  if (typeof input === "string") parser.feed(input)
  else for (const piece of input) parser.feed(piece)
  return { events, cut: parser.end() }
}

/**
 * One event with its `data` parsed as JSON. The OpenAI end-of-stream
 * sentinel stays the string `"[DONE]"`.
 *
 * @since 0.1.0
 */
export interface JsonEvent {
  readonly event: string
  readonly data: unknown
}

/**
 * The sentinel OpenAI sends as the last `data` of a stream.
 *
 * @example
 * const result = Sse.parseJson('data: {"a":1}\n\ndata: [DONE]\n\n')
 * if (result._tag === "Success") result.success.filter((e) => e.data !== Sse.DONE).length // 1
 *
 * @since 0.1.0
 */
export const DONE = "[DONE]"

/**
 * Whether a `data` payload is the `[DONE]` sentinel: one that starts with
 * it, as the official OpenAI SDKs test (`[DONE]x`, or `[DONE]` followed by
 * more data lines, ends the stream there), whitespace before it allowed
 * (some OpenAI-compatible servers send ` [DONE]`).
 *
 * **When to use**
 *
 * Reading `data` payloads yourself (from a transport of your own) and
 * stopping where the official SDKs stop.
 *
 * @example
 * Sse.isDone("[DONE]") // true
 * Sse.isDone("[DONE] \r") // true
 * Sse.isDone("[DONE]\nmore") // true
 * Sse.isDone('{"done":true}') // false
 *
 * @since 0.1.0
 */
export const isDone = (data: string): boolean => data.startsWith(DONE) || (data.length > 0 && data.charCodeAt(0) <= 32 && data.trimStart().startsWith(DONE))

/**
 * Parses a whole SSE text into its JSON payloads.
 *
 * **Details**
 *
 * Fails with a `StreamProtocolError` (provider `"sse"`) on the first `data`
 * that is not JSON. A final event whose blank line is missing is kept when
 * its data is complete JSON (as the official SDKs do) and reported as an
 * error when it is not (the text was cut inside the event). The `[DONE]`
 * sentinel (whitespace around it allowed) is the last payload: nothing
 * after it is read.
 *
 * @example
 * import { Sse } from "effect-agent-messages/providers"
 *
 * Sse.parseJson('data: {"a":1}\n\ndata: [DONE]\n\n')
 * // Result.succeed([{ event: "message", data: { a: 1 } }, { event: "message", data: "[DONE]" }])
 *
 * @since 0.1.0
 */
export const parseJson = (input: string | Iterable<string | Uint8Array>): Result.Result<Array<JsonEvent>, StreamProtocolError> => {
  const { cut, events } = parse(input)
  const out: Array<JsonEvent> = []
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!
    if (event.data === DONE) {
      // the parser reads nothing after the sentinel: it is the last event
      out.push({ event: event.event, data: DONE })
      break
    }
    const parsed = parseData(event.data)
    if (parsed === invalid) {
      return Result.fail(new StreamProtocolError({ provider: "sse", eventIndex: i, reason: `data is not valid JSON: ${preview(event.data)}`, event: event.data }))
    }
    out.push({ event: event.event, data: parsed })
  }
  if (cut !== undefined) {
    const parsed = isDone(cut.data) ? DONE : parseData(cut.data)
    if (parsed === invalid) {
      return Result.fail(new StreamProtocolError({ provider: "sse", eventIndex: events.length, reason: `the text ends inside an event: ${preview(cut.data)}`, event: cut.data }))
    }
    out.push({ event: cut.event, data: parsed })
  }
  return Result.succeed(out)
}
