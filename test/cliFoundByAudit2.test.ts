/**
 * The command line's names for what it reports, as a second audit found them
 * wanting: a block a repair moved inside a Responses run of items (and the
 * repair steps after a move or a removal), a warning about one call of such
 * a run, a snake_case Gemini body, the parts of a Gemini content whose
 * function responses do not come first, a bare list of Gemini contents or
 * Responses items, and an Anthropic body whose list opens with a system
 * message. Each is named as the file read names it. Run as a subprocess the
 * way a user runs it (see cli.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { cliHarness, type Run } from "./cliBuild.js"

const { file, run } = cliHarness("audit2")

const lines = (text: string): Array<string> => text.split("\n")

const actionsOf = (r: Run): Array<Record<string, unknown>> => (JSON.parse(r.stdout) as { actions: Array<Record<string, unknown>> }).actions

const issuesOf = (r: Run): Array<Record<string, unknown>> => (JSON.parse(r.stdout) as { issues: Array<Record<string, unknown>> }).issues

const REASON = "the Responses API wants a call's output right after the call"

/**
 * A Responses body whose assistant turn is one run of items (input[1..5]): a call, a reply given as text, a call
 * with broken arguments, a reply with an id and one part, a reasoning item nothing follows; then the outputs.
 */
const movedRun = () =>
  file("moved-run.json", {
    model: "gpt-5",
    input: [
      { role: "user", content: "hi" },
      { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
      { role: "assistant", content: "one" },
      { type: "function_call", call_id: "c2", name: "f", arguments: "{\"a\":" },
      { type: "message", role: "assistant", id: "msg_1", content: [{ type: "output_text", text: "two", annotations: [] }] },
      { type: "reasoning", id: "rs_9", summary: [] },
      { type: "function_call_output", call_id: "c1", output: "x" },
      { type: "function_call_output", call_id: "c2", output: "y" },
      { role: "user", content: "more" }
    ]
  })

describe("repair's MovedBlock in a Responses run of items", () => {
  it("names the item moved and the item it now comes before, both as the file was read", () => {
    const r = run(["repair", movedRun(), "--provider", "openai-responses"])
    expect(r.code).toBe(0)
    expect(lines(r.stderr)).toContain(`input[2].content: moved before input[1] (as read): ${REASON}`)
    // the second move counts the message as the first left it: its block and the one it goes before, as read
    expect(lines(r.stderr)).toContain(`input[4].content[0]: moved before input[1] (as read): ${REASON}`)
    expect(r.stderr).not.toContain("moved content[")
  })

  it("a step after the moves names the item it changed as read, not the run", () => {
    const r = run(["repair", movedRun(), "--provider", "openai-responses"])
    expect(lines(r.stderr).some((l) => l.startsWith("input[5]: removed a Thinking block: "))).toBe(true)
    expect(r.stderr).not.toContain("input[1..5]: removed")
  })

  it("--json gives each action the index of the item it is about, the model's message beside it", () => {
    const actions = actionsOf(run(["repair", movedRun(), "--provider", "openai-responses", "--json"]))
    expect(actions.map((a) => [a["_tag"], a["index"], a["modelIndex"]])).toEqual([
      ["ReplacedToolArguments", 3, 1],
      ["MovedBlock", 2, 1],
      ["MovedBlock", 4, 1],
      ["RemovedBlock", 5, 1],
      // gpt-5 wants the reasoning item before a replayed msg_ item; rs_9 comes after it
      ["RemovedItemId", 4, 1]
    ])
    expect(actions[1]!["description"]).toBe(`input[2].content: moved before input[1] (as read): ${REASON}`)
  })

  it("a move after a removal in the same message names both blocks as read", () => {
    // Anthropic's repair removes the blank text first, then moves the text after the call before it
    const body = file("removed-then-moved.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "Be brief.",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }, { type: "text", text: " " }, { type: "text", text: "Looking." }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] }
      ]
    })
    const r = run(["repair", body, "--provider", "anthropic"])
    expect(r.code).toBe(0)
    expect(lines(r.stderr)).toContain("messages[1].content[1]: removed a Text block: Anthropic rejects text blocks without non-whitespace text")
    expect(lines(r.stderr)).toContain("messages[1].content[2]: moved before messages[1].content[0] (as read): Anthropic takes text before the tool calls of a turn")
    const actions = actionsOf(run(["repair", body, "--provider", "anthropic", "--json"]))
    expect(actions.map((a) => [a["_tag"], a["index"], a["modelIndex"]])).toEqual([["RemovedBlock", 1, 2], ["MovedBlock", 1, 2]])
  })

  it("each blank text taken out of a tool result is named by its result as read, the second too", () => {
    const body = file("blank-results.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "Be brief.",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }, { type: "tool_use", id: "t2", name: "g", input: {} }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "ok" }, { type: "text", text: " " }] },
            { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: " " }, { type: "text", text: "fine" }] },
            { type: "text", text: "go on" }
          ]
        }
      ]
    })
    const r = run(["repair", body, "--provider", "anthropic"])
    expect(r.code).toBe(0)
    expect(lines(r.stderr)).toContain("messages[2].content[0]: removed a Text block: Anthropic rejects text blocks without non-whitespace text, in the result of f too")
    expect(lines(r.stderr)).toContain("messages[2].content[1]: removed a Text block: Anthropic rejects text blocks without non-whitespace text, in the result of g too")
  })

  it("a move whose blocks cannot be followed back to the file names the message and says how it counts them", () => {
    // Anthropic's thinking-first repair merges the turn's assistant messages, then moves the thinking to the front
    const body = file("merged-move.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "Be brief.",
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "text", text: "Let me look." }] },
        { role: "assistant", content: [{ type: "thinking", thinking: "why", signature: "sig" }, { type: "tool_use", id: "t1", name: "f", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] }
      ]
    })
    const r = run(["repair", body, "--provider", "anthropic"])
    expect(r.code).toBe(0)
    const moved = lines(r.stderr).find((l) => l.includes(": moved "))
    expect(moved).toMatch(/^messages\[1\]: moved block 1 of the message to place 0 \(counted in the message as the repair had it then\): /)
  })
})

describe("a read warning about one item of a Responses run", () => {
  it("names the function_call item it came from, not the run", () => {
    const r = run(["check", movedRun()])
    expect(lines(r.stderr)).toContain(
      "warning: input[3]: the arguments of tool call \"c2\" (f) were not a valid JSON object (Unexpected end of JSON input); repaired, the original text is kept"
    )
    expect(r.stderr).not.toContain("input[1..5]: the arguments")
  })
})

/** A Gemini body in either spelling: its system instruction, a call turn, a content of text and function responses. */
const geminiBody = (spelling: "camel" | "snake", responsesFirst: boolean) => {
  const k = (camel: string, snake: string): string => (spelling === "camel" ? camel : snake)
  const response = (name: string) => ({ [k("functionResponse", "function_response")]: { name, response: { output: name } } })
  return {
    model: "gemini-2.5-flash",
    [k("systemInstruction", "system_instruction")]: { parts: [{ text: "Be brief." }, { text: " " }] },
    contents: [
      { role: "user", parts: [{ text: "hi" }] },
      {
        role: "model",
        parts: [{ text: "calling" }, { [k("functionCall", "function_call")]: { name: "f", args: { a: 1 } } }, { [k("functionCall", "function_call")]: { name: "g", args: {} } }]
      },
      {
        role: "user",
        parts: responsesFirst ? [response("f"), response("g"), { text: "" }] : [{ text: "" }, response("f"), { text: "and" }, response("g")]
      },
      { role: "model", parts: [{ text: "done" }, { [k("inlineData", "inline_data")]: { [k("mimeType", "mime_type")]: "image/png", data: "iVBORw0KGgo=" } }] }
    ]
  }
}

describe("a snake_case Gemini body is named as a camelCase one is", () => {
  const spellings = ["camel", "snake"] as const
  const systemKey = (spelling: "camel" | "snake"): string => (spelling === "camel" ? "systemInstruction" : "system_instruction")

  it("check names contents[i]: parts[j], the system instruction by its key, and counts the contents", () => {
    for (const spelling of spellings) {
      const r = run(["check", file(`gemini-${spelling}.json`, geminiBody(spelling, true)), "--provider", "anthropic"])
      expect([spelling, r.code]).toEqual([spelling, 1])
      expect(lines(r.stdout)).toEqual([
        `EmptyTextBlock: ${systemKey(spelling)}: parts[1]: anthropic rejects empty text blocks`,
        "EmptyTextBlock: contents[2]: parts[2]: anthropic rejects empty text blocks",
        "2 issues in 4 contents",
        ""
      ])
    }
  })

  it("check --json gives the content's index and the part's, the model's beside them", () => {
    for (const spelling of spellings) {
      const issues = issuesOf(run(["check", file(`gemini-json-${spelling}.json`, geminiBody(spelling, true)), "--provider", "anthropic", "--json"]))
      expect([spelling, issues[1]]).toMatchObject([spelling, { index: 2, blockIndex: 2, modelIndex: 4, modelBlockIndex: 0 }])
    }
  })

  it("repair's log and convert's warnings name contents[i].parts[j]", () => {
    for (const spelling of spellings) {
      const body = file(`gemini-repair-${spelling}.json`, geminiBody(spelling, true))
      const repaired = lines(run(["repair", body, "--provider", "anthropic"]).stderr)
      expect(repaired).toContain(`${systemKey(spelling)}.parts[1]: removed a Text block: Anthropic rejects text blocks without non-whitespace text`)
      expect(repaired).toContain("contents[2].parts[2]: removed a Text block: Anthropic rejects text blocks without non-whitespace text")
      const converted = run(["convert", body, "--to", "openai-chat"])
      expect(lines(converted.stderr)).toContain(
        "warning: contents[3].parts[1]: an image/png file in an assistant message was left out: Chat Completions replays only one generated audio, by its id"
      )
      expect(converted.stderr).not.toMatch(/messages\[\d+\]/)
    }
  })

  it("tokens gives one figure per content", () => {
    for (const spelling of spellings) {
      const r = run(["tokens", file(`gemini-tokens-${spelling}.json`, geminiBody(spelling, true))])
      expect(r.stdout).toMatch(/^contents\[0\]: \d+\ncontents\[1\]: \d+\ncontents\[2\]: \d+\ncontents\[3\]: \d+\nsystem \(outside the messages\): \d+\n/)
    }
  })
})

describe("a Gemini content whose function responses do not all come first", () => {
  // the content reads as a tool message of its responses, then a user message of its other parts
  it("has its parts named where the content has them, in either spelling", () => {
    for (const spelling of ["camel", "snake"] as const) {
      const body = file(`gemini-mixed-${spelling}.json`, geminiBody(spelling, false))
      const checked = run(["check", body, "--provider", "anthropic"])
      expect(lines(checked.stdout)).toContain("EmptyTextBlock: contents[2]: parts[0]: anthropic rejects empty text blocks")
      expect(checked.stdout).toContain("issues in 4 contents\n")
      const issues = issuesOf(run(["check", body, "--provider", "anthropic", "--json"]))
      expect(issues.find((i) => i["index"] === 2)).toMatchObject({ blockIndex: 0, modelBlockIndex: 0 })
      expect(lines(run(["repair", body, "--provider", "anthropic"]).stderr)).toContain(
        "contents[2].parts[0]: removed a Text block: Anthropic rejects text blocks without non-whitespace text"
      )
      expect(run(["convert", body, "--to", "openai-chat"]).stderr).not.toMatch(/messages\[\d+\]/)
      expect(run(["tokens", body]).stdout).toMatch(/^contents\[0\]: \d+\ncontents\[1\]: \d+\ncontents\[2\]: \d+\ncontents\[3\]: \d+\n/)
    }
  })

  it("a trim that drops its responses and keeps its text names the parts it dropped", () => {
    const contents = [
      { role: "user", parts: [{ text: "Weather in Paris and Rome? ".repeat(6) }] },
      { role: "model", parts: [{ functionCall: { name: "w", args: { city: "Paris" } } }, { functionCall: { name: "w", args: { city: "Rome" } } }] },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "w", response: { output: "sunny and warm and lovely, with a light breeze from the west all day long" } } },
          { text: "And what about Madrid, and Lisbon, and Athens? Tell me everything about the weather there." },
          { functionResponse: { name: "w", response: { output: "rainy and cold, with a strong wind from the north all day long" } } }
        ]
      },
      { role: "model", parts: [{ text: "Madrid is dry." }] },
      { role: "user", parts: [{ text: "Thanks!" }] }
    ]
    const r = run(["trim", file("gemini-trim-mixed.json", { contents }), "--budget", "60", "--reserve", "0"])
    expect(r.code).toBe(0)
    // the responses are parts 0 and 2; the text between them is kept, so never the range parts[0..2]
    expect(r.stderr).toContain("\ndropped contents[0..1] and contents[2].parts[0] and contents[2].parts[2] (2 contents and part of 1, ")
  })
})

describe("a bare list of Gemini contents or Responses items", () => {
  it("names a Gemini content's part parts[j], as the file does, not the model's content[j]", () => {
    const list = file("gemini-list.json", [
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts: [{ text: "ok" }, { text: "" }] }
    ])
    const r = run(["check", list, "--provider", "anthropic"])
    expect(lines(r.stdout)).toEqual(["EmptyTextBlock: messages[1]: parts[1]: anthropic rejects empty text blocks", "1 issue in 2 messages", ""])
    expect(lines(run(["repair", list, "--provider", "anthropic"]).stderr)).toContain(
      "messages[1].parts[1]: removed a Text block: Anthropic rejects text blocks without non-whitespace text"
    )
    expect(issuesOf(run(["check", list, "--provider", "anthropic", "--json"]))[0]).toMatchObject({ index: 1, blockIndex: 1, modelIndex: 1, modelBlockIndex: 1 })
  })

  it("names a Responses call item by itself: it has no content[0]", () => {
    const list = file("responses-list.json", [
      { role: "user", content: "hi" },
      { type: "function_call", call_id: "c1", name: "f", arguments: "{\"a\":" },
      { type: "function_call_output", call_id: "c1", output: "x" }
    ])
    const r = run(["check", list, "--provider", "openai-responses"])
    expect(lines(r.stdout)).toContain(
      "MalformedToolArguments: messages[1]: the arguments of tool call \"c1\" are not a JSON object (Unexpected end of JSON input) (openai-responses)"
    )
    expect(lines(run(["repair", list, "--provider", "openai-responses"]).stderr)).toContain(
      "messages[1]: the arguments of tool call \"c1\" were not a JSON object (Unexpected end of JSON input); sent as {\"a\":null}"
    )
    expect(issuesOf(run(["check", list, "--provider", "openai-responses", "--json"]))[0]).toMatchObject({ index: 1, blockIndex: null, modelIndex: 1, modelBlockIndex: 0 })
  })
})

describe("an Anthropic body whose messages open with a system message", () => {
  it("is named by its messages, the list's system message being one of them", () => {
    const body = file("anthropic-listed-system.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "r" }, { type: "text", text: "" }] }
      ]
    })
    const r = run(["check", body, "--provider", "anthropic"])
    expect(lines(r.stdout)).toEqual(["EmptyTextBlock: messages[3]: content[1]: anthropic rejects empty text blocks", "1 issue in 4 messages", ""])
  })
})
