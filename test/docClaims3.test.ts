/**
 * Claims of the README and of the command line's module docs that no test
 * held yet, each checked as written: the shape the command line writes
 * back ("output keeps the input's format and shape unless `--to` says
 * otherwise": a list stays a list, another format's JSONL is written as its
 * list), `--model` over the model the file names, and `trim`'s reserve by
 * default the request's own output limit.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { cliHarness, root } from "./cliBuild.js"

const cli = cliHarness("docclaims3")

const jsonOf = (text: string): unknown => JSON.parse(text)

describe("the command line writes back the shape it read", () => {
  const contents = [
    { role: "user", parts: [{ text: "Weather in Oslo?" }] },
    { role: "model", parts: [{ functionCall: { id: "c1", name: "get_weather", args: { city: "Oslo" } } }] },
    { role: "user", parts: [{ functionResponse: { id: "c1", name: "get_weather", response: { output: "4°C, dry" } } }] },
    { role: "model", parts: [{ text: "4°C and dry." }] }
  ]

  it("a bare list of Gemini contents stays a list through repair and trim, as every other format's list does", () => {
    const list = cli.file("gemini-list.json", contents)
    for (const args of [["repair", list], ["trim", list, "--budget", "10000"]]) {
      const r = cli.run(args)
      expect([args[0], r.code]).toEqual([args[0], 0])
      expect(jsonOf(r.stdout), args[0]).toEqual(contents)
    }
  }, 180_000)

  it("Gemini JSONL is written as its list, as another format's JSONL is", () => {
    const jsonl = contents.map((c) => JSON.stringify(c)).join("\n") + "\n"
    const r = cli.run(["repair", "-"], jsonl)
    expect(r.stderr.split("\n")[0]).toBe("agent-messages: read standard input as gemini (JSONL)")
    expect(jsonOf(r.stdout)).toEqual(contents)
  }, 180_000)

  it("a list converted to Gemini is a list of contents; with a system message, the system instruction beside them (as Anthropic's system is)", () => {
    const chat = cli.file("chat-list.json", [{ role: "user", content: "hi" }, { role: "assistant", content: "Hello!" }])
    expect(jsonOf(cli.run(["convert", chat, "--to", "gemini"]).stdout)).toEqual([
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts: [{ text: "Hello!" }] }
    ])
    const withSystem = cli.file("chat-list-system.json", [{ role: "system", content: "Be brief." }, { role: "user", content: "hi" }])
    expect(jsonOf(cli.run(["convert", withSystem, "--to", "gemini"]).stdout)).toEqual({
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [{ role: "user", parts: [{ text: "hi" }] }]
    })
    expect(jsonOf(cli.run(["convert", withSystem, "--to", "anthropic"]).stdout)).toEqual({
      system: "Be brief.",
      messages: [{ role: "user", content: "hi" }]
    })
    // a body stays a body
    const body = cli.file("gemini-body.json", { contents })
    expect(jsonOf(cli.run(["repair", body]).stdout)).toEqual({ contents })
  }, 180_000)
})

describe("the flags the README's synopsis gives, as it describes them", () => {
  it("--model names the model a request is for, over one the file names: tokens counts for it (an image by URL at gpt-4o-mini's 25,501, not gpt-4o's 765)", () => {
    const body = (model: string) => ({
      model,
      messages: [{ role: "user", content: [{ type: "text", text: "What is in this picture?" }, { type: "image_url", image_url: { url: "https://example.com/chart.png" } }] }]
    })
    const totalOf = (args: ReadonlyArray<string>) => (jsonOf(cli.run(["tokens", ...args, "--json"]).stdout) as { total: number }).total
    const asGpt4o = cli.file("image-gpt-4o.json", body("gpt-4o"))
    const named = totalOf([asGpt4o, "--model", "gpt-4o-mini"])
    expect(named - totalOf([asGpt4o])).toBe(25_501 - 765)
    expect(named).toBe(totalOf([cli.file("image-gpt-4o-mini.json", body("gpt-4o-mini"))]))
  }, 180_000)

  it("trim keeps the request's own output limit free for the answer unless --reserve says otherwise, and says so when the budget is too small", () => {
    const chat = JSON.parse(fs.readFileSync(path.join(root, "examples", "transcripts", "support-chat-zh-en.json"), "utf8")) as Record<string, unknown>
    const limited = cli.file("support-limited.json", { ...chat, max_completion_tokens: 50 })
    const own = cli.run(["trim", limited, "--budget", "100"])
    expect(own.code).toBe(1)
    expect(own.stderr).toContain("the minimum counts 50 tokens kept free for the answer (--reserve sets them) and the 2 tool definitions")
    const none = cli.run(["trim", limited, "--budget", "100", "--reserve", "0"])
    expect(none.code).toBe(1)
    expect(none.stderr).not.toContain("kept free for the answer")
    const minimumOf = (stderr: string) => Number(stderr.match(/need a budget of at least (\d+)/)?.[1])
    expect(minimumOf(own.stderr) - minimumOf(none.stderr)).toBe(50)
  }, 180_000)
})
