/**
 * Reading what the command line is given: a file or standard input, as JSON
 * or as JSONL, with one readable line for every way it can be unreadable (a
 * missing file, a directory, binary data, text that is not JSON).
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"
import * as fs from "node:fs"

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
  | { readonly kind: "json"; readonly value: unknown; readonly bytes: number }
  | { readonly kind: "jsonl"; readonly values: ReadonlyArray<unknown>; readonly bytes: number }

const readStdin = (): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    process.stdin.on("data", (chunk: Buffer) => chunks.push(chunk))
    process.stdin.on("end", () => resolve(Buffer.concat(chunks)))
    process.stdin.on("error", reject)
  })

const errorText = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/**
 * Reads a file, or standard input for `-`, as bytes.
 *
 * @since 0.1.0
 */
export const readBytes = (file: string): Effect.Effect<Buffer, InputError> =>
  Effect.tryPromise({
    try: async () => {
      if (file === "-") return readStdin()
      const stat = await fs.promises.stat(file)
      if (stat.isDirectory()) throw new Error(`${file} is a directory, not a transcript file`)
      return fs.promises.readFile(file)
    },
    catch: (cause) => {
      const code = (cause as { code?: unknown }).code
      if (code === "ENOENT") return new InputError({ reason: `cannot read ${file}: no such file` })
      if (code === "EACCES") return new InputError({ reason: `cannot read ${file}: permission denied` })
      return new InputError({ reason: `cannot read ${file}: ${errorText(cause)}` })
    }
  })

/** A NUL byte, or text that is not valid UTF-8, is not a transcript. */
const decodeUtf8 = (bytes: Buffer, name: string): string | InputError => {
  if (bytes.includes(0)) return new InputError({ reason: `${name} is binary data, not a JSON or JSONL transcript` })
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "")
  } catch {
    return new InputError({ reason: `${name} is not UTF-8 text, so not a JSON or JSONL transcript` })
  }
}

/**
 * Parses text as one JSON value, or else as JSONL (one JSON value per
 * non-empty line). The error names the first line that is neither.
 *
 * @since 0.1.0
 */
export const parseText = (text: string, name: string, bytes: number): Parsed | InputError => {
  if (text.trim() === "") return new InputError({ reason: `${name} is empty` })
  let firstError: string
  try {
    return { kind: "json", value: JSON.parse(text) as unknown, bytes }
  } catch (cause) {
    firstError = errorText(cause)
  }
  const values: Array<unknown> = []
  let line = 0
  let start = 0
  while (start <= text.length) {
    let end = text.indexOf("\n", start)
    if (end === -1) end = text.length
    const raw = text.slice(start, end).trim()
    line++
    start = end + 1
    if (raw === "") continue
    try {
      values.push(JSON.parse(raw) as unknown)
    } catch (cause) {
      return new InputError({
        reason: values.length === 0 && line === 1
          ? `${name} is not JSON (${firstError})`
          : `${name} is not JSON or JSONL: line ${line}: ${errorText(cause)}`
      })
    }
  }
  return values.length === 1 ? { kind: "json", value: values[0], bytes } : { kind: "jsonl", values, bytes }
}

/**
 * Reads and parses a file (or `-` for standard input).
 *
 * @since 0.1.0
 */
export const read = (file: string): Effect.Effect<Parsed, InputError> =>
  readBytes(file).pipe(
    Effect.flatMap((bytes) => {
      const name = file === "-" ? "standard input" : file
      const text = decodeUtf8(bytes, name)
      if (typeof text !== "string") return Effect.fail(text)
      const parsed = parseText(text, name, bytes.length)
      return "kind" in parsed ? Effect.succeed(parsed) : Effect.fail(parsed)
    })
  )
