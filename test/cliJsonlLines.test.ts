/**
 * A JSONL transcript that is not valid names the line of the file the bad message is on, beside the message's
 * index: empty lines are skipped when a file is read, so the message an error counts as `messages[2]` may be on line
 * 5, and a user looks for the line. And a message's content that is neither text nor a list of parts says that either
 * would do. A bare list of Responses items or Gemini contents names its entries `messages[i]` in these errors too, as in
 * its warnings and issues (the readers' own words, `input[i]` and `contents[i]`, name fields the file does not have).
 * And two files that are no conversation are refused rather than read: a list of typed objects that are no Responses
 * items (LangChain's serialized messages), and another format's messages read as Gemini contents.
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
      ["openai-responses", `${good}\n\n{"role":"user","content":5}`, "at messages[1].content: expected a string or an array, got a number (messages[1] is line 3 of the file)"],
      ["gemini", '{"role":"user","parts":[{"text":"hi"}]}\n\n\n{"role":"user","parts":5}', "at messages[1].parts: expected an array, got a number (messages[1] is line 4 of the file)"]
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
    assert.include(readError(`${good}\n{"role":"user","content":5}`, "canonical"), "messages[1]: content: Expected a string or an array of blocks, got a number")
  })

  it("a bare JSON list of Responses items or Gemini contents names its entries messages[i]", () => {
    const responses = readError('[{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":5,"output":"x"}]', "openai-responses")
    assert.include(responses, "at messages[1].call_id")
    assert.notInclude(responses, "input[")
    const gemini = readError('[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"name":5}}]}]', "gemini")
    assert.include(gemini, "at messages[1].parts[0].functionCall.name")
  })

  it("typed objects that are no Responses items are not detected as Responses input", () => {
    const parsed = parseText('[{"type":"human","data":{"content":"hi"}},{"type":"ai","data":{"content":"yo"}}]', "lc.json", 80)
    assert.isTrue("kind" in parsed)
    if (!("kind" in parsed)) return
    const detected = Formats.detect(parsed)
    assert.isFalse("format" in detected && detected.format === "openai-responses")
  })

  it("a list whose only typed items are a tool search's is still Responses input", () => {
    for (const item of ['{"type":"tool_search_output","call_id":null,"execution":"server","status":"completed","tools":[]}', '{"type":"additional_tools","tools":[]}']) {
      const parsed = parseText(`[{"role":"user","content":"weather?"},${item}]`, "ts.json", 200)
      assert.isTrue("kind" in parsed)
      if (!("kind" in parsed)) return
      const detected = Formats.detect(parsed)
      assert.isTrue("format" in detected && detected.format === "openai-responses", item)
    }
  })

  it("another format's messages read as Gemini contents are refused, not read as empty contents", () => {
    assert.include(readError('{"role":"user","content":"hi"}\n{"role":"assistant","content":"yo"}', "gemini"), "got a content field instead (is this another format's message?)")
  })
})
