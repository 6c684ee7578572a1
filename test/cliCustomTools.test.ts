/**
 * `convert` of a Responses history with custom tool items (a coding agent's `apply_patch` loop): to every other
 * format the calls and outputs go as that format's calls and results, said on stderr; to Responses and the
 * canonical form they stay the API's own items.
 */
import { describe, expect, it } from "@effect/vitest"
import { cliHarness } from "./cliBuild.js"

const { file, run } = cliHarness("custom-tools")

const PATCH = "*** Begin Patch\n*** Update File: a.py\n*** End Patch"
const body = {
  model: "gpt-5",
  input: [
    { role: "user", content: "Fix a.py." },
    { type: "custom_tool_call", call_id: "call_1", name: "apply_patch", input: PATCH },
    { type: "custom_tool_call_output", call_id: "call_1", output: "Done!" },
    { role: "user", content: "Thanks." }
  ],
  tools: [{ type: "custom", name: "apply_patch", format: { type: "grammar", syntax: "lark", definition: "start: /.+/" } }]
}

describe("agent-messages convert: Responses custom tool items", () => {
  it("writes them to Chat Completions as a custom call and its tool message, with the custom tool's grammar", () => {
    const r = run(["convert", file("codex.json", body), "--to", "openai-chat"])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("agent-messages: the Responses API's custom tool calls and outputs were read as tool calls and results, which openai-chat carries")
    expect(r.stderr).not.toContain("left out")
    const out = JSON.parse(r.stdout) as { messages: Array<unknown>; tools: Array<unknown> }
    expect(out.messages).toEqual([
      { role: "user", content: "Fix a.py." },
      { role: "assistant", content: null, tool_calls: [{ type: "custom", id: "call_1", custom: { name: "apply_patch", input: PATCH } }] },
      { role: "tool", tool_call_id: "call_1", content: "Done!" },
      { role: "user", content: "Thanks." }
    ])
    expect(out.tools).toEqual([{ type: "custom", custom: { name: "apply_patch", format: { type: "grammar", grammar: { syntax: "lark", definition: "start: /.+/" } } } }])
  })

  it("writes them to Anthropic and Gemini as calls with { input } and their results", () => {
    const anthropic = run(["convert", file("codex-a.json", body), "--to", "anthropic", "--max-tokens", "512"])
    expect(anthropic.code).toBe(0)
    expect(anthropic.stdout).toContain("\"tool_use\"")
    expect(anthropic.stdout).toContain("\"tool_result\"")
    const gemini = run(["convert", file("codex-g.json", body), "--to", "gemini"])
    expect(gemini.code).toBe(0)
    expect(gemini.stdout).toContain("\"functionCall\"")
    expect(gemini.stdout).toContain("\"functionResponse\"")
  })

  it("says nothing of calls when only a custom tool's definition is converted, and names the file's messages", () => {
    const r = run(["convert", file("tool-only.json", { model: "gpt-5", input: [{ role: "user", content: [{ type: "input_text", text: "hi" }, { type: "input_image", image_url: "gs://b/x.png" }] }], tools: body.tools }), "--to", "openai-chat"])
    expect(r.code).toBe(0)
    expect(r.stderr).not.toContain("custom tool calls")
    expect(r.stderr).toContain("warning: input[0].content[1]: ")
    expect((JSON.parse(r.stdout) as { tools: Array<{ type: string }> }).tools[0]?.type).toBe("custom")
  })

  it("keeps them as the API's own items written to Responses, with no word on stderr", () => {
    const r = run(["convert", file("codex-r.json", body), "--to", "openai-responses"])
    expect(r.code).toBe(0)
    expect(r.stderr).not.toContain("custom tool calls")
    expect(JSON.parse(r.stdout)).toEqual(body)
  })
})
