/**
 * The command line's names for what it reports, as a third audit found them
 * wanting: the blocks of an OpenAI Chat message were named by the model's
 * count (`content[2]` for a message's second tool call) instead of where the
 * file has them (`tool_calls[1]`, `content` for a string, `refusal`,
 * `function_call`, a part of a tool message's content); and an unanswered
 * call, an orphan result or a second result (with the repairs that mend
 * them) named the whole Responses run or Anthropic message instead of the
 * call's or result's own item or block. Run as a subprocess the way a user
 * runs it (see cli.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { cliHarness, type Run } from "./cliBuild.js"

const { file, run } = cliHarness("audit3")

const lines = (text: string): Array<string> => text.split("\n")

const actionsOf = (r: Run): Array<Record<string, unknown>> => (JSON.parse(r.stdout) as { actions: Array<Record<string, unknown>> }).actions

const issuesOf = (r: Run): Array<Record<string, unknown>> => (JSON.parse(r.stdout) as { issues: Array<Record<string, unknown>> }).issues

/**
 * A Chat body whose blocks are not its `content` counted from 0: thinking read from `reasoning_content`, a list of
 * parts with a blank one and a blank `refusal` field; a string content and generated audio before two tool calls (the
 * second's arguments broken); a tool message of two parts (the second blank); a blank string content; a legacy
 * `function_call` with broken arguments.
 */
const chatBody = () =>
  file("chat.json", {
    model: "gpt-4o",
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", reasoning_content: "think", content: [{ type: "text", text: "ok" }, { type: "text", text: " " }], refusal: " " },
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "Looking.",
        audio: { id: "audio_1" },
        tool_calls: [
          { id: "c1", type: "function", function: { name: "f", arguments: "{}" } },
          { id: "c2", type: "function", function: { name: "f", arguments: "{\"a\":" } }
        ]
      },
      { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "ok" }, { type: "text", text: " " }] },
      { role: "tool", tool_call_id: "c2", content: "y" },
      { role: "user", content: " " },
      { role: "assistant", content: null, function_call: { name: "g", arguments: "{\"b\":" } },
      { role: "function", name: "g", content: "z" }
    ]
  })

describe("an OpenAI Chat file's blocks are named where the file has them", () => {
  it("check names a tool call by tool_calls[j] and a legacy call by function_call", () => {
    const r = run(["check", chatBody(), "--provider", "openai-chat"])
    expect(r.code).toBe(1)
    expect(lines(r.stdout)).toEqual([
      "MalformedToolArguments: messages[3]: tool_calls[1]: the arguments of tool call \"c2\" are not a JSON object (Unexpected end of JSON input) (openai-chat)",
      "MalformedToolArguments: messages[7]: function_call: the arguments of tool call \"function_call_7\" are not a JSON object (Unexpected end of JSON input) (openai-chat)",
      "2 issues in 9 messages",
      ""
    ])
  })

  it("check names reasoning_content, a part of a list content, the refusal field and a string content", () => {
    const r = run(["check", chatBody(), "--provider", "anthropic"])
    expect(lines(r.stdout)).toEqual(expect.arrayContaining([
      "MissingThinkingSignature: messages[1]: reasoning_content: anthropic requires thinking blocks to be replayed with their non-empty signature",
      "EmptyTextBlock: messages[1]: content[1]: anthropic rejects empty text blocks",
      "EmptyTextBlock: messages[1]: refusal: anthropic rejects empty text blocks",
      "EmptyTextBlock: messages[6]: content: anthropic rejects empty text blocks"
    ]))
    // the tool message is its result: not content[0], which is the part that is not blank
    expect(r.stdout).not.toContain("messages[4]: content[0]")
  })

  it("check --json gives the block's index in its list and its place there, the model's index beside them", () => {
    const issues = issuesOf(run(["check", chatBody(), "--provider", "openai-chat", "--json"]))
    expect(issues[0]).toMatchObject({ index: 3, modelIndex: 3, blockIndex: 1, blockPath: "tool_calls[1]", modelBlockIndex: 3 })
    expect(issues[1]).toMatchObject({ index: 7, modelIndex: 7, blockIndex: null, blockPath: "function_call", modelBlockIndex: 0 })
    const anthropic = issuesOf(run(["check", chatBody(), "--provider", "anthropic", "--json"]))
    expect(anthropic.find((i) => i["blockPath"] === "content")).toMatchObject({ index: 6, blockIndex: null, modelBlockIndex: 0 })
    expect(anthropic.find((i) => i["blockPath"] === "content[1]")).toMatchObject({ index: 1, blockIndex: 1, modelBlockIndex: 2 })
  })

  it("repair's log names the blocks it changed where the file has them", () => {
    const chat = lines(run(["repair", chatBody(), "--provider", "openai-chat"]).stderr)
    expect(chat).toContain("messages[3].tool_calls[1]: the arguments of tool call \"c2\" were not a JSON object (Unexpected end of JSON input); sent as {\"a\":null}")
    expect(chat).toContain("messages[7].function_call: the arguments of tool call \"function_call_7\" were not a JSON object (Unexpected end of JSON input); sent as {\"b\":null}")
    const anthropic = lines(run(["repair", chatBody(), "--provider", "anthropic"]).stderr)
    expect(anthropic).toEqual(expect.arrayContaining([
      "messages[1].reasoning_content: removed a Thinking block: Anthropic rejects thinking without its signature (the text is kept here)",
      "messages[1].content[1]: removed a Text block: Anthropic rejects text blocks without non-whitespace text",
      "messages[1].refusal: removed a Refusal block: Anthropic rejects text blocks without non-whitespace text (a refusal goes as text)",
      "messages[4].content[1]: removed a Text block: Anthropic rejects text blocks without non-whitespace text, in the result of f too",
      "messages[6].content: removed a Text block: Anthropic rejects text blocks without non-whitespace text"
    ]))
  })

  it("the warnings of reading and converting name the call, the audio and the function_call", () => {
    const r = run(["convert", chatBody(), "--to", "anthropic", "--max-tokens", "100"])
    const said = lines(r.stderr)
    expect(said).toContain(
      "warning: messages[3].tool_calls[1]: the arguments of tool call \"c2\" (f) were not a valid JSON object (Unexpected end of JSON input); repaired, the original text is kept"
    )
    expect(said).toContain(
      "warning: messages[7].function_call: the arguments of tool call \"function_call_7\" (g) were not a valid JSON object (Unexpected end of JSON input); repaired, the original text is kept"
    )
    expect(said.some((l) => l.startsWith("warning: messages[3].audio: "))).toBe(true)
    expect(r.stderr).not.toMatch(/messages\[\d+\]\.content\[[23]\]/)
  })
})

/** A Responses body: a reply and two calls read as one message (input[1..3]), one output that answers c1 and an orphan. */
const responsesBody = () =>
  file("responses.json", {
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

describe("an unanswered call or an orphan result in a Responses run is named by its own item", () => {
  it("check names the call's item and the output's item, not the run", () => {
    const r = run(["check", responsesBody()])
    expect(lines(r.stdout)).toEqual([
      "OrphanToolResult: input[5]: tool result \"c9\" answers no tool call of the preceding assistant message",
      "MissingToolResult: input[3]: tool call \"c2\" has no result before input[6]",
      "2 issues in 7 input items",
      ""
    ])
  })

  it("check --json gives the item's index, the model's message and block beside it", () => {
    const issues = issuesOf(run(["check", responsesBody(), "--json"]))
    expect(issues[0]).toMatchObject({ _tag: "OrphanToolResult", index: 5, modelIndex: 2, blockIndex: null, modelBlockIndex: 1 })
    expect(issues[1]).toMatchObject({ _tag: "MissingToolResult", index: 3, modelIndex: 1, blockIndex: null, modelBlockIndex: 2, resumedAt: 6 })
  })

  it("repair's log and --json name the call it answered and the output it removed by their items", () => {
    const r = run(["repair", responsesBody()])
    expect(lines(r.stderr)).toContain("input[3]: tool call \"c2\" (f) had no result; inserted an error result \"tool call was interrupted\"")
    expect(lines(r.stderr)).toContain("input[5]: removed tool result \"c9\" (): it answers no call of the preceding assistant message")
    const actions = actionsOf(run(["repair", responsesBody(), "--json"]))
    expect(actions.map((a) => [a["_tag"], a["index"], a["modelIndex"]])).toEqual([
      ["InsertedMissingResult", 3, 1],
      ["RemovedOrphanResult", 5, 2]
    ])
  })
})

describe("an unanswered call or an orphan result in an Anthropic body is named by its block", () => {
  const body = () =>
    file("anthropic.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "text", text: "calling" }, { type: "tool_use", id: "t1", name: "f", input: {} }, { type: "tool_use", id: "t2", name: "f", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t9", content: "stale" }, { type: "tool_result", tool_use_id: "t1", content: "x" }] },
        { role: "user", content: "more" }
      ]
    })

  it("check names content[j] of the call and of the result", () => {
    const r = run(["check", body()])
    expect(lines(r.stdout)).toEqual(expect.arrayContaining([
      "OrphanToolResult: messages[2]: content[0]: tool result \"t9\" answers no tool call of the preceding assistant message",
      "MissingToolResult: messages[1]: content[2]: tool call \"t2\" has no result before messages[3]"
    ]))
    const issues = issuesOf(run(["check", body(), "--json"]))
    expect(issues.find((i) => i["_tag"] === "MissingToolResult")).toMatchObject({ index: 1, blockIndex: 2, blockPath: "content[2]", modelBlockIndex: 2 })
  })

  it("repair's log names the call it answered and the result it removed", () => {
    const said = lines(run(["repair", body()]).stderr)
    expect(said).toContain("messages[1].content[2]: tool call \"t2\" (f) had no result; inserted an error result \"tool call was interrupted\"")
    expect(said).toContain("messages[2].content[0]: removed tool result \"t9\" (): it answers no call of the preceding assistant message")
  })
})

describe("an unanswered call or an orphan result in a Gemini body is named by its part", () => {
  it("check and repair name parts[j] of the call and of the response, the responses standing among the text", () => {
    const body = file("gemini.json", {
      contents: [
        { role: "user", parts: [{ text: "hi" }] },
        { role: "model", parts: [{ text: "calling" }, { functionCall: { id: "a1", name: "f", args: {} } }, { functionCall: { id: "a2", name: "g", args: {} } }] },
        { role: "user", parts: [{ text: "and" }, { functionResponse: { id: "a9", name: "h", response: {} } }, { functionResponse: { id: "a1", name: "f", response: {} } }] },
        { role: "model", parts: [{ text: "ok" }] }
      ]
    })
    expect(lines(run(["check", body]).stdout)).toEqual(expect.arrayContaining([
      "OrphanToolResult: contents[2]: parts[1]: tool result \"a9\" (h) answers no tool call of the preceding assistant message",
      "MissingToolResult: contents[1]: parts[2]: tool call \"a2\" has no result before contents[2]"
    ]))
    const said = lines(run(["repair", body]).stderr)
    expect(said).toContain("contents[1].parts[2]: tool call \"a2\" (g) had no result; inserted an error result \"tool call was interrupted\"")
    expect(said).toContain("contents[2].parts[1]: removed tool result \"a9\" (h): it answers no call of the preceding assistant message")
  })
})
