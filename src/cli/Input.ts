/**
 * Reading what the command line is given: a file or standard input, as JSON
 * or as JSONL, with one readable line for every way it can be unreadable (a
 * missing file, a directory, binary data, text that is not JSON).
 *
 * @since 0.1.0
 */
import { Effect, Schema, Stdio, Stream } from "effect"
import * as fs from "node:fs"
import { depthError, ownParsedJson } from "../internal/json.js"
import { describeInexact, finiteParsedJson, inexactNumbers } from "../internal/jsonNumbers.js"
import { messageText } from "../internal/preview.js"

/**
 * The input cannot be read or is not a conversation: `reason` is the one line
 * the command prints, and the command exits with code 2.
 *
 * @since 0.1.0
 */
export class InputError extends Schema.TaggedError<InputError>()("InputError", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

/**
 * What was read: the text, and how it parsed (one JSON value, or one JSON
 * value per line).
 *
 * @since 0.1.0
 */
export type Parsed =
  | { readonly kind: "json"; readonly value: unknown; readonly bytes: number; readonly rounded?: string }
  | {
    readonly kind: "jsonl"
    readonly values: ReadonlyArray<unknown>
    readonly bytes: number
    readonly rounded?: string
    /** The line of the file each value was on (empty lines are skipped, so the n-th value need not be on line n). */
    readonly lines?: ReadonlyArray<number>
  }

type Inexact = ReturnType<typeof inexactNumbers>

/**
 * The parsed text with a note of the numbers in it that JSON parsing
 * rounded (more digits than a JavaScript number keeps, `1e400`), if any.
 */
const noteRounded = (parsed: Parsed | InputError, numbers: () => Inexact): Parsed | InputError => {
  if (parsed instanceof InputError) return parsed
  const found = numbers()
  if (found.count === 0) return parsed
  // a literal beyond a double's range parsed as an infinity, which no JSON value holds: the largest number instead
  const finite: Parsed = parsed.kind === "json" ? { ...parsed, value: finiteParsedJson(parsed.value) } : { ...parsed, values: parsed.values.map(finiteParsedJson) }
  return { ...finite, rounded: `${found.count === 1 ? "a number" : `${found.count} numbers`} with more digits than a JavaScript number holds, read as the nearest it does: ${describeInexact(found)}` }
}


/**
 * An error's message on one line (V8's JSON errors quote the text, line breaks and all), its other control
 * characters escaped: the text quoted is the input's, and a terminal escape in it would reach the terminal.
 */
const errorText = (cause: unknown): string => messageText((cause instanceof Error ? cause.message : String(cause)).replace(/\s*[\r\n]+\s*/g, " "), 1_000)

/** The encoding of text that starts with a UTF-16 byte order mark, else `undefined`. */
const utf16Of = (bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined =>
  bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : undefined

/**
 * Reads a stream to its end, but stops at the first NUL byte: binary data is
 * refused anyway, and a device such as /dev/zero never ends.
 */
const readUntilBinary = (stream: NodeJS.ReadableStream & { destroy?: () => void }, name: string): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    // UTF-16 text (with its byte order mark) holds NUL bytes, and is read
    let utf16 = false
    stream.on("data", (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk
      if (chunks.length === 0) utf16 = utf16Of(bytes) !== undefined
      if (!utf16 && bytes.includes(0)) {
        stream.destroy?.()
        reject(new Error(`${name} is binary data, not a JSON or JSONL transcript`))
        return
      }
      chunks.push(bytes)
    })
    stream.on("end", () => resolve(Buffer.concat(chunks)))
    stream.on("error", reject)
  })

/**
 * Reads standard input (the `Stdio` service's) to its end, but stops at the
 * first NUL byte, as `readUntilBinary` does.
 */
const readStdin: Effect.Effect<Buffer, InputError, Stdio.Stdio> = Effect.gen(function*() {
  const io = yield* Stdio.Stdio
  const chunks: Array<Uint8Array> = []
  let utf16 = false
  let binary = false
  yield* Stream.runForEachWhile(io.stdin, (bytes) =>
    Effect.sync(() => {
      if (chunks.length === 0) utf16 = utf16Of(bytes) !== undefined
      if (!utf16 && bytes.includes(0)) {
        binary = true
        return false
      }
      chunks.push(bytes)
      return true
    })).pipe(
      Effect.mapError((error) => new InputError({ reason: `cannot read -: ${errorText(error.cause ?? error)}` }))
    )
  if (binary) return yield* new InputError({ reason: "cannot read -: standard input is binary data, not a JSON or JSONL transcript" })
  return Buffer.concat(chunks)
})

/**
 * A file named in the command line's messages: "standard input" for `-`, else its path as user text (a line break
 * or a terminal escape in a file name is escaped, so it cannot forge a line of the output).
 *
 * @since 0.1.0
 */
export const inputName = (file: string): string => (file === "-" ? "standard input" : messageText(file, 300))

/**
 * Reads a file, or standard input for `-`, as bytes.
 *
 * @since 0.1.0
 */
export const readBytes = (file: string): Effect.Effect<Buffer, InputError, Stdio.Stdio> =>
  file === "-" ? readStdin : Effect.tryPromise({
    try: async () => {
      const stat = await fs.promises.stat(file)
      if (stat.isDirectory()) throw new Error(`${inputName(file)} is a directory, not a transcript file`)
      if (stat.isFile()) return fs.promises.readFile(file)
      // a pipe or a device (a process substitution, /dev/stdin, /dev/zero): read as a stream, stopped by binary data
      return readUntilBinary(fs.createReadStream(file), inputName(file))
    },
    catch: (cause) => {
      const code = (cause as { code?: unknown }).code
      if (code === "ENOENT") return new InputError({ reason: `cannot read ${inputName(file)}: no such file` })
      if (code === "EACCES") return new InputError({ reason: `cannot read ${inputName(file)}: permission denied` })
      return new InputError({ reason: `cannot read ${inputName(file)}: ${errorText(cause)}` })
    }
  })

/**
 * Parses text as one JSON value, or else as JSONL (one JSON value per
 * non-empty line). The error names the first line that is neither.
 *
 * @since 0.1.0
 */
export const parseText = (text: string, name: string, bytes: number): Parsed | InputError => {
  if (text.trim() === "") return new InputError({ reason: `${name} is empty` })
  // text nested too deeply is not given to JSON.parse, which takes a second over a million unclosed `[`; each line
  // is checked again below, so the error names the line that is too deep
  let firstError = depthError(text)
  if (firstError === undefined) {
    try {
      return noteRounded(oneValue(JSON.parse(text) as unknown, bytes), () => inexactNumbers(text))
    } catch (cause) {
      firstError = errorText(cause)
    }
  }
  // lines end at "\n" ("\r\n" included); a text with no "\n" at all ends them at "\r", as classic Mac OS wrote them
  return noteRounded(parseLines(
    linesOf(text, text.includes("\n") ? "\n" : "\r"),
    bytes,
    (line, cause, first) =>
      first && line === 1 ? `${name} is not JSON (${firstError})` : `${name} is not JSON or JSONL: line ${line}: ${errorText(cause)}`,
    `${name} is empty`
  ), () => inexactNumbers(text))
}

/** The lines of a text, split at `lineEnd` (a CR before a "\n" is trimmed with the rest). */
function* linesOf(text: string, lineEnd: "\n" | "\r"): Generator<string> {
  let start = 0
  while (start <= text.length) {
    let end = text.indexOf(lineEnd, start)
    if (end === -1) end = text.length
    yield text.slice(start, end)
    start = end + 1
  }
}

/**
 * JSON values, one per non-empty line: one value is a JSON document, more
 * are JSONL. A line that is not JSON ends it with `bad`'s reason (told the
 * line's number, and whether no value came before it); a line given as an
 * `InputError` (it could not be read) ends it with that error.
 */
const parseLines = (
  lines: Iterable<string | InputError>,
  bytes: number,
  bad: (line: number, cause: unknown, first: boolean) => string,
  empty: string
): Parsed | InputError => {
  const values: Array<unknown> = []
  const numbers: Array<number> = []
  let line = 0
  for (const text of lines) {
    line++
    if (typeof text !== "string") return text
    const raw = text.trim()
    if (raw === "") continue
    const deep = depthError(raw)
    if (deep !== undefined) return new InputError({ reason: bad(line, deep, values.length === 0) })
    try {
      values.push(JSON.parse(raw) as unknown)
      numbers.push(line)
    } catch (cause) {
      return new InputError({ reason: bad(line, cause, values.length === 0) })
    }
  }
  if (values.length === 0) return new InputError({ reason: empty })
  // a single value may be read by an adapter (marked, so it is read in place); JSONL lines are decoded one by one
  return values.length === 1 ? oneValue(values[0], bytes) : { kind: "jsonl", values, bytes, lines: numbers }
}

/**
 * What one JSON value is: a lone message (`{"role": "user", ...}`, as a JSONL
 * log of one line holds) is a conversation of that message, read as JSONL
 * is; anything else is a JSON document (a list of messages, a request body).
 */
const oneValue = (value: unknown, bytes: number): Parsed => {
  const lone = typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { readonly role?: unknown }).role === "string" &&
    !["messages", "contents", "input"].some((key) => Object.hasOwn(value, key))
  return lone ? { kind: "jsonl", values: [value], bytes } : { kind: "json", value: ownParsedJson(value), bytes }
}

/** The most UTF-16 code units V8 lets one string hold (2^29 - 24, about 512 MB of ASCII). */
export const MAX_STRING_LENGTH = 0x1fffffe8

/**
 * Parses bytes as one JSON value, or else as JSONL. Input longer than one
 * JavaScript string can hold (`maxLength` code units; a UTF-8 byte is at most
 * one) is read as JSONL a line at a time, the only shape that can be read
 * without holding it all as one string; a JSON document that large is an
 * `InputError` saying to write it as JSONL.
 *
 * @since 0.1.0
 */
export const parseBytes = (bytes: Uint8Array, name: string, maxLength: number = MAX_STRING_LENGTH): Parsed | InputError => {
  const utf16 = utf16Of(bytes)
  if (utf16 !== undefined) {
    // what Windows PowerShell's `>` writes: text in UTF-16 with a byte order mark
    try {
      return parseText(new TextDecoder(utf16, { fatal: true }).decode(bytes).replace(/^\uFEFF/, ""), name, bytes.length)
    } catch (cause) {
      return new InputError({ reason: `${name} is not ${utf16 === "utf-16le" ? "UTF-16LE" : "UTF-16BE"} text, though it starts as such: ${errorText(cause)}` })
    }
  }
  if (bytes.includes(0)) return new InputError({ reason: `${name} is binary data, not a JSON or JSONL transcript` })
  if (bytes.length <= maxLength) {
    try {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "")
      return parseText(text, name, bytes.length)
    } catch (cause) {
      // a RangeError: the text is longer than a string can be after all; anything else: not UTF-8
      if (!(cause instanceof RangeError)) return new InputError({ reason: `${name} is not UTF-8 text, so not a JSON or JSONL transcript` })
    }
  }
  const tooLong = `${name} is ${bytes.length.toLocaleString("en-US")} bytes, more than one JavaScript string can hold, so it is read as JSONL, a line at a time`
  // the numbers rounded are counted a line at a time, as the lines are read
  const found = { count: 0, examples: [] as Array<Inexact["examples"][number]> }
  function* counted(lines: Iterable<string | InputError>): Generator<string | InputError> {
    for (const line of lines) {
      if (typeof line === "string") {
        const inLine = inexactNumbers(line)
        found.count += inLine.count
        for (const example of inLine.examples) if (found.examples.length < 3) found.examples.push(example)
      }
      yield line
    }
  }
  return noteRounded(parseLines(
    counted(byteLinesOf(bytes, maxLength, tooLong)),
    bytes.length,
    (line, cause, first) =>
      first
        ? `${tooLong}, and line ${line} is not a JSON value (${errorText(cause)}): write a transcript this large as JSONL, one message per line`
        : `${tooLong}: line ${line}: ${errorText(cause)}`,
    `${name} is empty`
  ), () => found)
}

/** The lines of UTF-8 bytes, each decoded alone (see `parseBytes`), or why one cannot be. */
function* byteLinesOf(bytes: Uint8Array, maxLength: number, tooLong: string): Generator<string | InputError> {
  const decoder = new TextDecoder("utf-8", { fatal: true })
  let line = 0
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start)
    if (end === -1) end = bytes.length
    const slice = bytes.subarray(start, end)
    line++
    start = end + 1
    if (slice.length > maxLength) {
      yield new InputError({ reason: `${tooLong}: line ${line} alone is longer than that (write one message per line)` })
      return
    }
    try {
      yield decoder.decode(slice)
    } catch {
      yield new InputError({ reason: `${tooLong}: line ${line} is not UTF-8 text` })
      return
    }
  }
}

/**
 * Reads and parses a file (or `-` for standard input).
 *
 * @since 0.1.0
 */
export const read = (file: string): Effect.Effect<Parsed, InputError, Stdio.Stdio> =>
  readBytes(file).pipe(
    Effect.flatMap((bytes) => {
      const parsed = parseBytes(bytes, inputName(file))
      return "kind" in parsed ? Effect.succeed(parsed) : Effect.fail(parsed)
    })
  )
