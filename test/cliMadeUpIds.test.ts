/**
 * A Gemini function call or response without an id gets one made up when it
 * is read (`get_weather_1_0`), which the file does not hold: the command
 * line's messages name such a call by its name and say the file gives it no
 * id, instead of quoting an id the user would look for in vain. Ids the file
 * gives are quoted as they are. Run as a subprocess (see cli.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { cliHarness } from "./cliBuild.js"

const { file, run } = cliHarness("madeup")

const contents = (response: unknown) => ({
  contents: [
    { role: "user", parts: [{ text: "Weather in Paris?" }] },
    { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] },
    response
  ]
})

describe("calls and responses the file gives no id", () => {
  it("check and repair name them by name, not by the made-up id", { timeout: 120_000 }, () => {
    const input = file("noid.json", contents({ role: "user", parts: [{ functionResponse: { name: "get_time", response: { t: 1 } } }] }))
    const checked = run(["check", input])
    expect(checked.code).toBe(1)
    expect(checked.stdout).toContain(`OrphanToolResult: contents[2]: parts[0]: tool result "get_time" (its name: the file gives it no id) answers no tool call`)
    expect(checked.stdout).toContain(`MissingToolResult: contents[1]: parts[0]: tool call "get_weather" (its name: the file gives it no id) has no result`)
    expect(checked.stdout).not.toMatch(/get_weather_1_0|get_time_2_0/)
    const json = JSON.parse(run(["check", input, "--json"]).stdout) as { issues: ReadonlyArray<{ message: string }> }
    expect(json.issues.map((i) => i.message).join("\n")).not.toMatch(/get_weather_1_0|get_time_2_0/)
    const repaired = run(["repair", input])
    expect(repaired.code).toBe(0)
    expect(repaired.stderr).toContain(`contents[1].parts[0]: tool call "get_weather" (its name: the file gives it no id) had no result`)
    expect(repaired.stderr).not.toMatch(/get_weather_1_0|get_time_2_0/)
  })

  it("an id the file gives is quoted as it is", { timeout: 120_000 }, () => {
    const given = contents({ role: "user", parts: [{ text: "never mind" }] })
    given.contents[1] = { role: "model", parts: [{ functionCall: { id: "call_7", name: "get_weather", args: { city: "Paris" } } }] }
    const checked = run(["check", file("id.json", given)])
    expect(checked.stdout).toContain(`tool call "call_7" has no result`)
  })
})
