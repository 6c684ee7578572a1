/**
 * The command line's names for what it reports, as a sixth audit found them wanting: an image given the wrong media
 * type inside a tool result (an issue, and the repair that gives it the type its bytes show) was named by the
 * model's numbers (`messages[i].content[b].content[p]`) instead of the file's own (an Anthropic `tool_result`'s
 * `content[p]` counted in its wire message, a Responses `function_call_output`'s `output[p]`, a Gemini
 * `functionResponse.parts[p]`), and the Anthropic reader's warning about a `tool_use` input given as a JSON string
 * named only its message. Run as a subprocess the way a user runs it (see cli.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { cliHarness, type Run } from "./cliBuild.js"

const { file, run } = cliHarness("audit6")

const lines = (text: string): Array<string> => text.split("\n").filter((line) => line !== "")

const warningsOf = (r: Run): Array<string> => lines(r.stderr).filter((line) => line.startsWith("warning: "))

const issuesOf = (r: Run): Array<Record<string, unknown>> => (JSON.parse(r.stdout) as { issues: Array<Record<string, unknown>> }).issues

const actionsOf = (r: Run): Array<Record<string, unknown>> => (JSON.parse(r.stdout) as { actions: Array<Record<string, unknown>> }).actions

// the first bytes of a real JPEG file, as base64, declared image/png below
const JPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/"

const MISMATCH =
  "the image is declared image/png but its bytes are image/jpeg, and anthropic rejects an image that does not match its media type (\"Image does not match the provided media type image/png\")"
const CORRECTED = "the image declared image/png was given the type its bytes show, image/jpeg (Anthropic rejects an image that does not match its media type)"

const mismatchOf = (r: Run) => issuesOf(r).find((i) => i["_tag"] === "MediaTypeMismatch")
const correctedOf = (r: Run) => actionsOf(r).find((a) => a["_tag"] === "CorrectedMediaType")
const textOf = (r: Run, tag: string) => lines(r.stdout).find((line) => line.startsWith(`${tag}: `))

/**
 * An Anthropic body whose last user message opens with text before its tool result, so the model reads it as a user
 * message and then a tool message whose first block is the wire message's content[1]; the image is the result's third
 * part.
 */
const anthropicBody = () =>
  file("anthropic.json", {
    model: "claude-sonnet-4-5",
    max_tokens: 100,
    system: "Be brief.",
    messages: [
      { role: "user", content: "Take a screenshot." },
      { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "shot", input: {} }] },
      {
        role: "user",
        content: [
          { type: "text", text: "here" },
          {
            type: "tool_result",
            tool_use_id: "c1",
            content: [
              { type: "text", text: "Here." },
              { type: "text", text: "It is." },
              { type: "image", source: { type: "base64", media_type: "image/png", data: JPEG } }
            ]
          }
        ]
      }
    ]
  })

/** A Responses body whose second output holds a blank text, a text and the image: `input[4].output[2]`. */
const responsesBody = (output0: unknown = { type: "input_text", text: " " }) =>
  file("responses.json", {
    model: "gpt-5",
    input: [
      { role: "user", content: "Take two screenshots." },
      { type: "function_call", call_id: "c0", name: "shot", arguments: "{}" },
      { type: "function_call", call_id: "c1", name: "shot", arguments: "{}" },
      { type: "function_call_output", call_id: "c0", output: "ok" },
      {
        type: "function_call_output",
        call_id: "c1",
        output: [output0, { type: "input_text", text: "Here." }, { type: "input_image", image_url: `data:image/png;base64,${JPEG}` }]
      }
    ]
  })

/** A Gemini body whose last content opens with text before its function response, the image its one file. */
const geminiBody = (snake: boolean) =>
  file(snake ? "gemini-snake.json" : "gemini.json", {
    contents: [
      { role: "user", parts: [{ text: "Take a screenshot." }] },
      { role: "model", parts: [snake ? { function_call: { name: "shot", args: {} } } : { functionCall: { name: "shot", args: {} } }] },
      {
        role: "user",
        parts: [
          { text: "hi" },
          snake
            ? { function_response: { name: "shot", response: { ok: true }, parts: [{ inline_data: { mime_type: "image/png", data: JPEG } }] } }
            : { functionResponse: { name: "shot", response: { ok: true }, parts: [{ inlineData: { mimeType: "image/png", data: JPEG } }] } }
        ]
      }
    ]
  })

describe("an image in a tool result is named where the file has it", () => {
  it("Anthropic: check names the part of the tool_result counted in its wire message, in text and JSON", () => {
    const r = run(["check", anthropicBody(), "--provider", "anthropic"])
    expect(textOf(r, "MediaTypeMismatch")).toBe(`MediaTypeMismatch: messages[2]: content[1].content[2]: ${MISMATCH}`)
    expect(mismatchOf(run(["check", anthropicBody(), "--provider", "anthropic", "--json"]))).toMatchObject({
      index: 2,
      modelIndex: 4,
      blockIndex: 2,
      blockPath: "content[1].content[2]",
      modelBlockIndex: 0,
      partIndex: 2,
      modelPartIndex: 2
    })
  })

  it("Anthropic: repair names the part it relabelled by the wire message's blocks, in its log and JSON", () => {
    expect(lines(run(["repair", anthropicBody(), "--provider", "anthropic"]).stderr)).toContain(`messages[2].content[1].content[2]: ${CORRECTED}`)
    expect(correctedOf(run(["repair", anthropicBody(), "--provider", "anthropic", "--json"]))).toMatchObject({
      index: 2,
      modelIndex: 4,
      blockIndex: 2,
      blockPath: "content[1].content[2]",
      modelBlockIndex: 0,
      partIndex: 2,
      modelPartIndex: 2,
      description: `messages[2].content[1].content[2]: ${CORRECTED}`
    })
  })

  it("OpenAI Responses: check names the function_call_output's output part", () => {
    const r = run(["check", responsesBody(), "--provider", "anthropic"])
    expect(textOf(r, "MediaTypeMismatch")).toBe(`MediaTypeMismatch: input[4]: output[2]: ${MISMATCH}`)
    expect(mismatchOf(run(["check", responsesBody(), "--provider", "anthropic", "--json"]))).toMatchObject({
      index: 4,
      modelIndex: 2,
      blockIndex: 2,
      blockPath: "output[2]",
      modelBlockIndex: 1,
      partIndex: 2,
      modelPartIndex: 2
    })
  })

  it("OpenAI Responses: repair names the output part it relabelled, and the blank text it took out of the output", () => {
    const log = lines(run(["repair", responsesBody(), "--provider", "anthropic"]).stderr)
    expect(log).toContain(`input[4].output[2]: ${CORRECTED}`)
    // the item is its tool result, as a Chat tool message is: the part taken out is named, as Chat's is
    expect(log).toContain("input[4].output[0]: removed a Text block: Anthropic rejects text blocks without non-whitespace text, in the result of shot too")
    const actions = actionsOf(run(["repair", responsesBody(), "--provider", "anthropic", "--json"]))
    expect(actions.find((a) => a["_tag"] === "CorrectedMediaType")).toMatchObject({ index: 4, blockIndex: 2, blockPath: "output[2]", modelBlockIndex: 1, partIndex: 2 })
    expect(actions.find((a) => a["_tag"] === "RemovedBlock")).toMatchObject({ index: 4, blockIndex: 0, blockPath: "output[0]", modelBlockIndex: 1, partIndex: 0 })
  })

  it("OpenAI Responses: an output whose parts the model does not count one for one names its item and the model's count", () => {
    // a part of a type the reader has no home for is not one of the model's parts: the image is the model's part 1
    const path = responsesBody({ type: "input_video", url: "https://example.com/v.mp4" })
    const r = run(["check", path, "--provider", "anthropic"])
    expect(textOf(r, "MediaTypeMismatch")).toBe(`MediaTypeMismatch: input[4]: part 1 of the tool result, as the model counts its parts: ${MISMATCH}`)
    expect(mismatchOf(run(["check", path, "--provider", "anthropic", "--json"]))).toMatchObject({
      index: 4,
      blockIndex: null,
      blockPath: null,
      modelBlockIndex: 1,
      partIndex: null,
      modelPartIndex: 1
    })
  })

  it("Gemini: check and repair name the file part of the functionResponse, counted in its parts", () => {
    const r = run(["check", geminiBody(false), "--provider", "anthropic"])
    expect(textOf(r, "MediaTypeMismatch")).toBe(`MediaTypeMismatch: contents[2]: parts[1].functionResponse.parts[0]: ${MISMATCH}`)
    expect(mismatchOf(run(["check", geminiBody(false), "--provider", "anthropic", "--json"]))).toMatchObject({
      index: 2,
      blockIndex: 0,
      blockPath: "parts[1].functionResponse.parts[0]",
      modelBlockIndex: 0,
      partIndex: 0,
      modelPartIndex: 1
    })
    expect(lines(run(["repair", geminiBody(false), "--provider", "anthropic"]).stderr)).toContain(`contents[2].parts[1].functionResponse.parts[0]: ${CORRECTED}`)
  })

  it("Gemini in snake_case: the part is named in the file's spelling", () => {
    const r = run(["check", geminiBody(true), "--provider", "anthropic"])
    expect(textOf(r, "MediaTypeMismatch")).toBe(`MediaTypeMismatch: contents[2]: parts[1].function_response.parts[0]: ${MISMATCH}`)
    expect(correctedOf(run(["repair", geminiBody(true), "--provider", "anthropic", "--json"]))).toMatchObject({
      index: 2,
      blockPath: "parts[1].function_response.parts[0]",
      description: `contents[2].parts[1].function_response.parts[0]: ${CORRECTED}`
    })
  })

  it("canonical: check --json gives the part's path, in the flat form and the canonical one", () => {
    const image = { _tag: "File", source: { _tag: "Base64", data: JPEG }, mediaType: "image/png" }
    const call = { _tag: "ToolCall", id: "c1", name: "shot", args: {} }
    const flat = file("flat.json", [
      { role: "user", content: "Take a screenshot." },
      { role: "assistant", content: [call] },
      { role: "tool", toolCallId: "c1", toolName: "shot", content: [{ _tag: "Text", text: "Here." }, image] }
    ])
    expect(mismatchOf(run(["check", flat, "--provider", "anthropic", "--json"]))).toMatchObject({ index: 2, blockIndex: 1, blockPath: "content[1]", modelBlockIndex: 0, partIndex: 1 })
    const canonical = file("canonical.json", [
      { role: "user", content: "Take a screenshot." },
      { role: "assistant", content: [call] },
      { role: "tool", content: [{ _tag: "ToolResult", toolCallId: "c1", toolName: "shot", content: [{ _tag: "Text", text: "Here." }, image] }] }
    ])
    expect(mismatchOf(run(["check", canonical, "--provider", "anthropic", "--json"]))).toMatchObject({
      index: 2,
      blockIndex: 1,
      blockPath: "content[0].content[1]",
      modelBlockIndex: 0,
      partIndex: 1
    })
  })
})

describe("the Anthropic reader's warning about a tool_use input given as a JSON string", () => {
  it("names the tool_use block, counted in its wire message", () => {
    const path = file("string-input.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "Be brief.",
      messages: [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: [{ type: "text", text: "Looking." }, { type: "tool_use", id: "c1", name: "w", input: "{\"city\":\"Oslo\"}" }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "12°C" }] }
      ]
    })
    expect(warningsOf(run(["check", path]))).toEqual([
      "warning: messages[1].content[1]: the input of \"w\", a JSON string where Anthropic takes an object (the API rejects it), was sent as the object it holds"
    ])
  })
})
