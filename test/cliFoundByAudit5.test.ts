/**
 * The command line's names for what it reports, as a fifth audit found them wanting: a warning about a tool call's
 * broken arguments named only its message when two calls of the message shared the id, and a string `content` of
 * an Anthropic message (or an Anthropic `system`, a Gemini `systemInstruction`, a Responses message item's content
 * given as a string) was named as a list's first entry (`content[0]`, `system[0]`, `systemInstruction: parts[0]`)
 * or as the whole item, where a Chat message's string content is named `content`. Run as a subprocess the way a
 * user runs it (see cli.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { cliHarness, type Run } from "./cliBuild.js"

const { file, run } = cliHarness("audit5")

const warningsOf = (r: Run): Array<string> => r.stderr.split("\n").filter((line) => line.startsWith("warning: "))

const issuesOf = (r: Run): Array<Record<string, unknown>> => (JSON.parse(r.stdout) as { issues: Array<Record<string, unknown>> }).issues

const actionsOf = (r: Run): Array<Record<string, unknown>> => (JSON.parse(r.stdout) as { actions: Array<Record<string, unknown>> }).actions

const repaired = (where: string, reason: string) =>
  `warning: ${where}: the arguments of tool call "c1" (f) were not a valid JSON object (${reason}); repaired, the original text is kept`

const END = "Unexpected end of JSON input"
const QUOTE = "Expected property name or '}' in JSON at position 1 (line 1 column 2)"

describe("two calls with broken arguments that share an id in one message are each named by their own block", () => {
  it("OpenAI Chat: tool_calls[0] and tool_calls[1]", () => {
    const path = file("chat.json", [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "f", arguments: "{\"a\":" } },
          { id: "c1", type: "function", function: { name: "f", arguments: "{'b': 1" } }
        ]
      }
    ])
    expect(warningsOf(run(["check", path]))).toEqual([repaired("messages[1].tool_calls[0]", END), repaired("messages[1].tool_calls[1]", QUOTE)])
  })

  it("Anthropic, after a system prompt: content[1] and content[2] of the wire message", () => {
    const path = file("anthropic.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "Be brief.",
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Looking." },
            { type: "tool_use", id: "c1", name: "f", input: "{\"a\":" },
            { type: "tool_use", id: "c1", name: "f", input: "{'b': 1" }
          ]
        }
      ]
    })
    expect(warningsOf(run(["check", path]))).toEqual([repaired("messages[1].content[1]", END), repaired("messages[1].content[2]", QUOTE)])
  })

  it("OpenAI Responses: each call item of a run read as one message", () => {
    const path = file("responses.json", {
      model: "gpt-5",
      input: [
        { role: "user", content: "go" },
        { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Looking.", annotations: [] }] },
        { type: "function_call", id: "fc_1", call_id: "c1", name: "f", arguments: "{\"a\":" },
        { type: "function_call", id: "fc_2", call_id: "c1", name: "f", arguments: "{'b': 1" }
      ]
    })
    expect(warningsOf(run(["check", path]))).toEqual([repaired("input[2]", END), repaired("input[3]", QUOTE)])
  })
})

describe("a content given as a string is named content, as a Chat message's is", () => {
  const anthropic = () =>
    file("strings.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: " ",
      messages: [{ role: "user", content: "" }, { role: "assistant", content: "Hi." }, { role: "user", content: "ok" }]
    })

  it("check names an Anthropic string content content, and a string system system, in text and JSON", () => {
    expect(run(["check", anthropic(), "--provider", "anthropic"]).stdout.split("\n")).toEqual([
      "EmptyTextBlock: system: anthropic rejects empty text blocks",
      "EmptyTextBlock: messages[0]: content: anthropic rejects empty text blocks",
      "2 issues in 3 messages",
      ""
    ])
    const issues = issuesOf(run(["check", anthropic(), "--provider", "anthropic", "--json"]))
    expect(issues.map((i) => [i["index"], i["blockIndex"], i["blockPath"], i["modelBlockIndex"]])).toEqual([
      [null, null, null, 0],
      [0, null, "content", 0]
    ])
  })

  it("repair --json and its log name an Anthropic string content content", () => {
    const r = run(["repair", anthropic(), "--provider", "anthropic", "--json"])
    const removed = actionsOf(r).filter((a) => a["_tag"] === "RemovedBlock")
    expect(removed.map((a) => [a["index"], a["blockIndex"], a["blockPath"], a["description"]])).toEqual([
      [null, null, null, "system: removed a Text block: Anthropic rejects text blocks without non-whitespace text"],
      [0, null, "content", "messages[0].content: removed a Text block: Anthropic rejects text blocks without non-whitespace text"]
    ])
  })

  it("convert names the block of an Anthropic string content content in its warnings", () => {
    expect(warningsOf(run(["convert", anthropic(), "--to", "anthropic"]))).toContain(
      "warning: messages[0].content: an empty text block was left out: Anthropic rejects empty text blocks"
    )
  })

  it("check names a Gemini systemInstruction given as a string systemInstruction", () => {
    const path = file("gemini.json", { systemInstruction: "", contents: [{ role: "user", parts: [{ text: "hi" }] }] })
    expect(run(["check", path, "--provider", "anthropic"]).stdout.split("\n")[0]).toBe("EmptyTextBlock: systemInstruction: anthropic rejects empty text blocks")
  })

  it("check names a Responses message item's string content content", () => {
    const path = file("responses-strings.json", {
      model: "gpt-5",
      input: [
        { role: "developer", content: "" },
        { role: "user", content: "" },
        { role: "assistant", content: "" },
        { role: "user", content: "ok" }
      ]
    })
    expect(run(["check", path, "--provider", "anthropic"]).stdout.split("\n")).toEqual([
      "EmptyTextBlock: input[0]: content: anthropic rejects empty text blocks",
      "EmptyTextBlock: input[1]: content: anthropic rejects empty text blocks",
      "EmptyTextBlock: input[2]: content: anthropic rejects empty text blocks",
      "3 issues in 4 input items",
      ""
    ])
    const issues = issuesOf(run(["check", path, "--provider", "anthropic", "--json"]))
    expect(issues.map((i) => [i["index"], i["blockIndex"], i["blockPath"]])).toEqual([
      [0, null, "content"],
      [1, null, "content"],
      [2, null, "content"]
    ])
  })
})
