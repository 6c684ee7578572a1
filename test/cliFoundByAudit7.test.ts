/**
 * The command line as a seventh audit found it: a list of typed objects that are no Responses items (LangChain's
 * serialized messages) was read as a valid Responses conversation and converted to `[]` with exit 0; another format's
 * messages given `--format gemini` were read as empty contents; the one input error that named no file; and
 * `--provider`'s help, which said "also apply" where the provider's profile replaces the generic rules. Run as a
 * subprocess the way a user runs it (see cli.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { cliHarness } from "./cliBuild.js"

const { file, run } = cliHarness("audit7")

describe("input that is no conversation is refused", () => {
  it("LangChain's serialized messages: exit 2, nothing written", () => {
    const langChain = file("langchain.json", [{ type: "human", data: { content: "hi" } }, { type: "ai", data: { content: "yo" } }])
    for (const args of [["check", langChain], ["convert", langChain, "--to", "openai-chat"]]) {
      const r = run(args)
      expect(r.code, args.join(" ")).toBe(2)
      expect(r.stdout).toBe("")
    }
  })

  it("Chat messages read as Gemini contents: exit 2, saying what is there", () => {
    const chat = file("chat.json", [{ role: "user", content: "hi" }, { role: "assistant", content: "yo" }])
    const r = run(["convert", chat, "--from", "gemini", "--to", "openai-chat"])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("got a content field instead (is this another format's message?)")
  })

  it("JSON that is no conversation is named by its file", () => {
    const other = file("settings.json", { a: 1 })
    const r = run(["check", other])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("settings.json is JSON but not a conversation")
  })

  it("--provider's help says the provider's profile replaces the generic rules", () => {
    const r = run(["check", "--help"])
    expect(r.stdout).toContain("in place of the generic rules where the provider differs")
  })
})
