/**
 * The command line's names for what it reports, as a fourth audit found them
 * wanting: a canonical file in the flat form (`content` as a string,
 * `toolCalls` beside it) had its calls named by the model's block count
 * (`content[2]`) instead of `toolCalls[1]`; `repair --json` gave no block for
 * an action about one; issues and repairs that carry a tool call id but no
 * block (a missing thought signature, a reused call id, a renamed id, a
 * filled name) named the whole message or run; and a second result for a
 * call in the same message as its first named the whole Responses run. Run
 * as a subprocess the way a user runs it (see cli.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { cliHarness, type Run } from "./cliBuild.js"

const { file, run, work } = cliHarness("audit4")

const lines = (text: string): Array<string> => text.split("\n")

const actionsOf = (r: Run): Array<Record<string, unknown>> => (JSON.parse(r.stdout) as { actions: Array<Record<string, unknown>> }).actions

const issuesOf = (r: Run): Array<Record<string, unknown>> => (JSON.parse(r.stdout) as { issues: Array<Record<string, unknown>> }).issues

/** Writes a JSONL file of these messages, one a line. */
const jsonl = (name: string, messages: ReadonlyArray<unknown>): string => {
  const p = path.join(work, name)
  fs.writeFileSync(p, messages.map((m) => JSON.stringify(m)).join("\n") + "\n")
  return p
}

/**
 * A canonical log in the flat form: a string content with two calls (the second unnamed), a flat tool message for
 * each, a blank string content, and a list content with a call beside it whose arguments are broken.
 */
const flatLog = () =>
  jsonl("flat.jsonl", [
    { role: "user", content: "go" },
    { role: "assistant", content: "Looking.", toolCalls: [{ id: "c1", name: "f", args: {} }, { id: "c2", name: "", args: {} }] },
    { role: "tool", toolCallId: "c1", toolName: "f", content: "ok" },
    { role: "tool", toolCallId: "c2", toolName: "g", content: "ok" },
    { role: "user", content: " " },
    {
      role: "assistant",
      content: [{ _tag: "Text", text: "Again." }],
      toolCalls: [{ id: "c3", name: "h", args: {}, rawArgs: "{\"a\":", parseError: "Unexpected end of JSON input" }]
    },
    { role: "tool", toolCallId: "c3", toolName: "h", content: "ok" }
  ])

describe("a canonical file in the flat form names its blocks by the field they came from", () => {
  it("check names a flat call toolCalls[j], and a string content content", () => {
    expect(lines(run(["check", flatLog()]).stdout)).toEqual([
      "EmptyToolName: messages[1]: toolCalls[1] (c2) has an empty tool name",
      "1 issue in 7 messages",
      ""
    ])
    expect(lines(run(["check", flatLog(), "--provider", "openai-chat"]).stdout)).toContain(
      "MalformedToolArguments: messages[5]: toolCalls[0]: the arguments of tool call \"c3\" are not a JSON object (Unexpected end of JSON input) (openai-chat)"
    )
    expect(lines(run(["check", flatLog(), "--provider", "anthropic"]).stdout)).toContain(
      "EmptyTextBlock: messages[4]: content: anthropic rejects empty text blocks"
    )
  })

  it("check --json gives the block's index in toolCalls and its path, the model's block beside them", () => {
    const issues = issuesOf(run(["check", flatLog(), "--provider", "openai-chat", "--json"]))
    expect(issues.find((i) => i["_tag"] === "MalformedToolArguments")).toMatchObject({
      index: 5,
      modelIndex: 5,
      blockIndex: 0,
      blockPath: "toolCalls[0]",
      modelBlockIndex: 1
    })
  })

  it("an unanswered flat call is named by its entry in toolCalls, in check and in repair's log", () => {
    const log = jsonl("interrupted.jsonl", [
      { role: "user", content: "go" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "f", args: {} }, { id: "c2", name: "g", args: {} }] },
      { role: "tool", toolCallId: "c1", toolName: "f", content: "ok" },
      { role: "user", content: "more" }
    ])
    expect(lines(run(["check", log]).stdout)).toContain("MissingToolResult: messages[1]: toolCalls[1]: tool call \"c2\" has no result before messages[3]")
    expect(lines(run(["repair", log]).stderr)).toContain(
      "messages[1].toolCalls[1]: tool call \"c2\" (g) had no result; inserted an error result \"tool call was interrupted\""
    )
  })

  it("repair's log names the blocks it changed where the flat file has them", () => {
    expect(lines(run(["repair", flatLog(), "--provider", "openai-chat"]).stderr)).toContain(
      "messages[5].toolCalls[0]: the arguments of tool call \"c3\" were not a JSON object (Unexpected end of JSON input); sent as {}"
    )
    expect(lines(run(["repair", flatLog(), "--provider", "anthropic"]).stderr)).toContain(
      "messages[4].content: removed a Text block: Anthropic rejects text blocks without non-whitespace text"
    )
  })
})

/** A Chat body: a blank refusal beside the text, an unanswered call after a call with broken arguments, two user messages in a row. */
const chatBody = () =>
  file("chat.json", {
    model: "gpt-4o",
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: "ok", refusal: " " },
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "f", arguments: "{\"a\":" } },
          { id: "c2", type: "function", function: { name: "f", arguments: "{}" } }
        ]
      },
      { role: "tool", tool_call_id: "c1", content: "x" },
      { role: "user", content: "more" },
      { role: "user", content: "anyone?" }
    ]
  })

describe("repair --json names the block an action is about, as check --json does", () => {
  it("an action about a block has its index and path in the file's entry and the model's block beside them, one about a message none", () => {
    const actions = actionsOf(run(["repair", chatBody(), "--provider", "openai-chat", "--json"]))
    expect(actions.find((a) => a["_tag"] === "ReplacedToolArguments")).toMatchObject({ index: 3, modelIndex: 3, blockIndex: 0, blockPath: "tool_calls[0]", modelBlockIndex: 0 })
    expect(actions.find((a) => a["_tag"] === "InsertedMissingResult")).toMatchObject({ index: 3, modelIndex: 3, blockIndex: 1, blockPath: "tool_calls[1]", modelBlockIndex: 1 })
    const anthropic = actionsOf(run(["repair", chatBody(), "--provider", "anthropic", "--json"]))
    expect(anthropic.find((a) => a["_tag"] === "RemovedBlock")).toMatchObject({ index: 1, modelIndex: 1, blockIndex: null, blockPath: "refusal", modelBlockIndex: 1 })
    // an action about a whole message has none
    const merged = actions.find((a) => a["_tag"] === "MergedConsecutive")
    expect(merged).toMatchObject({ index: 6, modelIndex: 6 })
    expect(merged).not.toHaveProperty("blockIndex")
    expect(merged).not.toHaveProperty("blockPath")
  })

  it("a Responses call item is the block: blockIndex and blockPath are null, the model's block beside them", () => {
    const body = file("responses.json", {
      model: "gpt-5",
      input: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "calling" },
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
        { type: "function_call", call_id: "c2", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "x" },
        { type: "function_call_output", call_id: "c9", output: "stale" },
        { role: "user", content: "more" }
      ]
    })
    const actions = actionsOf(run(["repair", body, "--json"]))
    expect(actions.find((a) => a["_tag"] === "InsertedMissingResult")).toMatchObject({ index: 3, modelIndex: 1, blockIndex: null, blockPath: null, modelBlockIndex: 2 })
    expect(actions.find((a) => a["_tag"] === "RemovedOrphanResult")).toMatchObject({ index: 5, modelIndex: 2, blockIndex: null, blockPath: null, modelBlockIndex: 1 })
  })
})

describe("issues and repairs that carry a call id are named by its block when the id is unique in the message", () => {
  /** A Gemini 3 turn whose call has no thought signature, after a text part. */
  const gemini = () =>
    file("gemini.json", {
      contents: [
        { role: "user", parts: [{ text: "Weather?" }] },
        { role: "model", parts: [{ text: "Looking." }, { functionCall: { id: "a1", name: "weather", args: {} } }] },
        { role: "user", parts: [{ functionResponse: { id: "a1", name: "weather", response: { t: 12 } } }] }
      ]
    })

  it("a missing thought signature, and the repair that adds one, name the call's part", () => {
    const args = ["--provider", "gemini", "--model", "gemini-3-pro-preview"]
    expect(lines(run(["check", gemini(), ...args]).stdout)).toContain(
      "MissingThoughtSignature: contents[1]: parts[1]: tool call \"a1\" is the first call of its step in the current turn and has no thoughtSignature (gemini)"
    )
    expect(issuesOf(run(["check", gemini(), ...args, "--json"]))[0]).toMatchObject({ index: 1, blockIndex: 1, blockPath: "parts[1]", modelBlockIndex: 1 })
    expect(lines(run(["repair", gemini(), ...args]).stderr)).toContain(
      "contents[1].parts[1]: tool call \"a1\" had no thought signature; set the one Gemini documents for calls it did not produce"
    )
  })

  /** A Responses body that uses call id c1 in two runs; the second run's call is input[5]. */
  const reused = () =>
    file("reused.json", {
      model: "gpt-5",
      input: [
        { role: "user", content: "hi" },
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "x" },
        { role: "user", content: "again" },
        { role: "assistant", content: "calling" },
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "y" },
        { role: "user", content: "thanks" }
      ]
    })

  it("a call id used again is named by the call's item, and so is its renaming", () => {
    expect(lines(run(["check", reused()]).stdout)).toContain("DuplicateToolCallId: input[5]: tool call id \"c1\" is used twice (first used at input[1])")
    expect(lines(run(["repair", reused()]).stderr)).toContain("input[5]: renamed tool call id \"c1\" to \"c1_repaired_1\"")
    const actions = actionsOf(run(["repair", reused(), "--json"]))
    expect(actions.find((a) => a["_tag"] === "RenamedToolCallId" && a["modelIndex"] === 4)).toMatchObject({ index: 5, blockIndex: null, blockPath: null, modelBlockIndex: 1 })
  })

  it("a filled tool name is named by the call's field in a Chat message", () => {
    const body = file("unnamed.json", {
      model: "gpt-4o",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "Looking.", tool_calls: [{ id: "c1", type: "function", function: { name: "", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "x" }
      ]
    })
    expect(lines(run(["repair", body]).stderr)).toContain("messages[1].tool_calls[0]: tool \"c1\" had an empty name; set to \"unknown_tool\"")
  })
})

describe("a second result in the same message as the first is named by its own item or block", () => {
  it("a Responses run of two outputs for one call names the second output's item", () => {
    const body = file("twice.json", {
      model: "gpt-5",
      input: [
        { role: "user", content: "hi" },
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "x" },
        { type: "function_call_output", call_id: "c1", output: "y" },
        { type: "function_call_output", call_id: "c1", output: "z" },
        { role: "user", content: "more" }
      ]
    })
    expect(lines(run(["check", body]).stdout)).toEqual([
      "DuplicateToolResult: input[3]: tool call \"c1\" is answered twice (first at input[2..4])",
      "DuplicateToolResult: input[4]: tool call \"c1\" is answered twice (first at input[2..4])",
      "2 issues in 6 input items",
      ""
    ])
    expect(issuesOf(run(["check", body, "--json"])).map((i) => [i["index"], i["modelBlockIndex"]])).toEqual([[3, 1], [4, 2]])
  })

  it("an Anthropic user message of two results for one call names the second's block", () => {
    const body = file("twice-anthropic.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }, { type: "tool_result", tool_use_id: "t1", content: "y" }] }
      ]
    })
    expect(lines(run(["check", body]).stdout)).toContain("DuplicateToolResult: messages[2]: content[1]: tool call \"t1\" is answered twice (first at messages[2])")
  })

  it("orphans of one id in one message are named each by its own block", () => {
    const body = file("orphans.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t9", content: "a" },
            { type: "tool_result", tool_use_id: "t1", content: "x" },
            { type: "tool_result", tool_use_id: "t9", content: "b" }
          ]
        }
      ]
    })
    expect(lines(run(["check", body]).stdout).filter((l) => l.startsWith("OrphanToolResult"))).toEqual([
      "OrphanToolResult: messages[2]: content[0]: tool result \"t9\" answers no tool call of the preceding assistant message",
      "OrphanToolResult: messages[2]: content[2]: tool result \"t9\" answers no tool call of the preceding assistant message"
    ])
  })
})
