/**
 * The command line's repair log for a field of a block removed for Anthropic (a field whose name starts with `$`,
 * which the Anthropic adapter writes and the API rejects): the step is about one block, so the log and
 * `repair --json` name that block where the file has it, as they do for the other steps about a block. Run as a
 * subprocess the way a user runs it (see cli.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { cliHarness } from "./cliBuild.js"

const { file, run } = cliHarness("review")

const body = () =>
  file("dollar.json", {
    model: "claude-sonnet-4-5",
    max_tokens: 100,
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "text", text: "a" }, { type: "text", text: "b", $x: 1 }] },
      { role: "user", content: "ok" }
    ]
  })

describe("repair names a block whose $ field it removed", () => {
  it("in the log, by the block where the file has it", { timeout: 120_000 }, () => {
    const r = run(["repair", body(), "--format", "anthropic", "--provider", "anthropic"])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("messages[1].content[1]: removed the field \"$x\" (1) of the block")
  })

  it("in repair --json, with the block's place", { timeout: 120_000 }, () => {
    const r = run(["repair", body(), "--format", "anthropic", "--provider", "anthropic", "--json"])
    expect(r.code).toBe(0)
    const actions = (JSON.parse(r.stdout) as { actions: Array<Record<string, unknown>> }).actions
    expect(actions).toHaveLength(1)
    expect(actions[0]).toMatchObject({ _tag: "RemovedMessageField", index: 1, blockIndex: 1, blockPath: "content[1]", modelBlockIndex: 1 })
    // and the field is gone from what is printed
    expect(JSON.stringify(JSON.parse(r.stdout).repaired)).not.toContain("$x")
  })
})

describe("--model is the model over one the file names", () => {
  const gemini = () =>
    file("gemini.json", {
      model: "gemini-2.5-flash",
      contents: [
        { role: "user", parts: [{ text: "weather?" }] },
        { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { temp: 3 } } }] }
      ]
    })

  it("check holds a Gemini 2.5 file to Gemini 3's rules when told", { timeout: 120_000 }, () => {
    expect(run(["check", gemini(), "--provider", "gemini"]).code).toBe(0)
    const told = run(["check", gemini(), "--provider", "gemini", "--model", "gemini-3-pro-preview"])
    expect(told.code).toBe(1)
    expect(told.stdout).toContain("MissingThoughtSignature")
  })

  it("the flag's help says so", { timeout: 120_000 }, () => {
    expect(run(["check", "--help"]).stdout).toContain("over one the file names")
  })
})
