/**
 * A JSONL transcript that is not valid names the line of the file the bad message is on, beside the message's
 * index: empty lines are skipped when a file is read, so the message an error counts as `messages[2]` may be on line
 * 5, and a user looks for the line. And a message's content that is neither text nor a list of parts says that either
 * would do.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Formats from "../src/cli/Formats.js"
import { type InputError, parseText } from "../src/cli/Input.js"

const readError = (text: string, format: Formats.FormatName): string => {
  const parsed = parseText(text, "session.jsonl", text.length)
  if (!("kind" in parsed)) return parsed.reason
  const detected = Formats.detect(parsed)
  const shape = "shape" in detected ? detected.shape : "jsonl"
  return Effect.runSync(Effect.flip(Formats.read(parsed, format, shape)) as Effect.Effect<InputError>).reason
}

describe("a JSONL transcript's errors name the file's line", () => {
  const good = '{"role":"user","content":"hi"}'
  it("canonical, with empty lines before the bad message", () => {
    const error = readError(`${good}\n\n\n{"role":"assistant","content":"x"}\n{"role":"bogus","content":"y"}\n`, "canonical")
    assert.include(error, "messages[2]")
    assert.include(error, "(messages[2] is line 5 of the file)")
  })

  it("each provider's JSONL, by its own name for the list", () => {
    const cases: ReadonlyArray<readonly [Formats.FormatName, string, string]> = [
      ["openai-chat", `${good}\n\n{"role":"user","content":5}`, "(messages[1] is line 3 of the file)"],
      ["anthropic", `${good}\n\n{"role":"user","content":5}`, "(messages[1] is line 3 of the file)"],
      ["openai-responses", `${good}\n\n{"role":"user","content":5}`, "(input[1] is line 3 of the file)"],
      ["gemini", '{"role":"user","parts":[{"text":"hi"}]}\n\n\n{"role":"user","parts":5}', "(contents[1] is line 4 of the file)"]
    ]
    for (const [format, text, note] of cases) assert.include(readError(text, format), note, format)
  })

  it("a JSON list names no line: its messages are not lines", () => {
    const error = readError(`[${good},\n\n{"role":"bogus","content":"y"}]`, "canonical")
    assert.include(error, "messages[1]")
    assert.notInclude(error, "line")
  })

  it("content that is neither text nor parts says either would do", () => {
    for (const format of ["openai-chat", "anthropic", "openai-responses"] as const) {
      assert.include(readError(`${good}\n{"role":"user","content":5}`, format), "content: expected a string or an array, got a number", format)
    }
  })
})
