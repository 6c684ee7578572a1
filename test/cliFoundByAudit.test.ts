/**
 * The command line, as an audit of it found it wanting: blocks of a run of
 * Responses items named by the item they are, trim's log counted in the
 * file's entries, the `--max-tokens` flag named where a limit is missing,
 * the summary's log in the file's terms, and `--wizard` without a terminal.
 * Run as a subprocess the way a user runs it (see cli.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { cliHarness } from "./cliBuild.js"

const { file, run } = cliHarness("audit")

/** A Responses body whose assistant turn is one run of items: reasoning, a reply of two parts, reasoning, a call. */
const run5 = (options: { readonly store?: boolean; readonly encrypted?: boolean; readonly emptyPart?: boolean; readonly badArgs?: boolean }) => ({
  model: "gpt-5",
  ...(options.store === undefined ? {} : { store: options.store }),
  input: [
    { role: "user", content: "hi" },
    { type: "reasoning", id: "rs_1", summary: [], ...(options.encrypted === true ? { encrypted_content: "enc1" } : {}) },
    {
      type: "message",
      role: "assistant",
      id: "msg_1",
      content: [{ type: "output_text", text: "hello", annotations: [] }, { type: "output_text", text: options.emptyPart === true ? "" : "again", annotations: [] }]
    },
    { type: "reasoning", id: "rs_2", summary: [], ...(options.encrypted === true ? { encrypted_content: "enc2" } : {}) },
    { type: "function_call", call_id: "c1", name: "f", arguments: options.badArgs === true ? "{\"a\":" : "{}" },
    { type: "function_call_output", call_id: "c1", output: "x" },
    { role: "user", content: "more" }
  ]
})

describe("a block of a run of Responses items is named by the item it was read from", () => {
  it("check names the reasoning item or the call an issue is about, not the run and the model's block", () => {
    const body = file("run-store-false.json", run5({ store: false, badArgs: true }))
    const r = run(["check", body, "--provider", "openai-responses"])
    expect(r.code).toBe(1)
    expect(r.stdout.split("\n")).toEqual([
      "MissingEncryptedContent: input[1]: with store: false a reasoning item needs its encrypted content to be replayed (openai-responses)",
      "MissingEncryptedContent: input[3]: with store: false a reasoning item needs its encrypted content to be replayed (openai-responses)",
      "ReasoningWithoutOutput: input[3]: a reasoning item must be followed by the output item it produced, with that item's id (openai-responses)",
      "MalformedToolArguments: input[4]: the arguments of tool call \"c1\" are not a JSON object (Unexpected end of JSON input) (openai-responses)",
      "4 issues in 7 input items",
      ""
    ])
  })

  it("check names a part of an output message of a run by the item and its part", () => {
    const body = file("run-empty-part.json", run5({ encrypted: true, emptyPart: true }))
    const r = run(["check", body, "--provider", "anthropic"])
    expect(r.stdout).toContain("EmptyTextBlock: input[2]: content[1]: anthropic rejects empty text blocks\n")
    expect(r.stdout).not.toMatch(/input\[\d+\.\.\d+\]: content\[/)
  })

  it("check --json gives the item's index and its part, the model's message and block beside them", () => {
    const body = file("run-json.json", run5({ store: false, emptyPart: true }))
    const issues = (JSON.parse(run(["check", body, "--provider", "openai-responses", "--json"]).stdout) as { issues: Array<Record<string, unknown>> }).issues
    expect(issues[1]).toMatchObject({ _tag: "MissingEncryptedContent", index: 3, blockIndex: null, modelIndex: 1, modelBlockIndex: 3, message: expect.stringMatching(/^input\[3\]: /) })
    const anthropic = (JSON.parse(run(["check", body, "--provider", "anthropic", "--json"]).stdout) as { issues: Array<Record<string, unknown>> }).issues
    expect(anthropic.find((i) => i["_tag"] === "EmptyTextBlock")).toMatchObject({ index: 2, blockIndex: 1, modelIndex: 1, modelBlockIndex: 2 })
  })

  it("a block of an Anthropic user message read as tool results and text is counted from the message's first block", () => {
    const body = file("split-user.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "Be brief.",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }, { type: "text", text: "ok" }, { type: "text", text: "" }] }
      ]
    })
    expect(run(["check", body, "--provider", "anthropic"]).stdout).toContain("EmptyTextBlock: messages[2]: content[2]: anthropic rejects empty text blocks\n")
    expect(run(["repair", body, "--provider", "anthropic"]).stderr).toContain("\nmessages[2].content[2]: removed a Text block: ")
  })

  it("repair's log and convert's warnings name the item too", () => {
    const body = file("run-repair.json", run5({ store: false, badArgs: true }))
    const repaired = run(["repair", body, "--provider", "openai-responses"])
    expect(repaired.code).toBe(0)
    expect(repaired.stderr).toContain("\ninput[4]: the arguments of tool call \"c1\" were not a JSON object")
    expect(repaired.stderr).toContain("\ninput[1]: removed a Thinking block: ")
    // a later step of the same message names its block as read too (the removed block is followed)
    expect(repaired.stderr).toContain("\ninput[3]: removed a Thinking block: ")
    const json = JSON.parse(run(["repair", body, "--provider", "openai-responses", "--json"]).stdout) as { actions: Array<Record<string, unknown>> }
    expect(json.actions.map((a) => [a["index"], a["modelIndex"]])).toEqual([[4, 1], [1, 1], [3, 1]])
    const converted = run(["convert", body, "--to", "anthropic", "--max-tokens", "100"])
    expect(converted.stderr).toContain("warning: input[3]: thinking without a signature was left out")
    expect(converted.stderr).toContain('warning: input[4]: the argument text of "f", not a valid JSON object, was sent as its repaired value')
  })
})

/** What a trim says it dropped, and the request it wrote. */
const trimmed = (body: string, budget: number, extra: ReadonlyArray<string> = []) => {
  const r = run(["trim", body, "--budget", String(budget), "--reserve", "0", ...extra])
  return { ...r, out: r.code === 0 ? JSON.parse(r.stdout) as Record<string, Array<unknown>> : undefined }
}

describe("trim counts what it dropped in the file's entries", () => {
  const responses = () =>
    file("trim-responses.json", {
      model: "gpt-4o",
      instructions: "Be brief.",
      input: [
        { role: "user", content: "Weather in Paris and Rome? ".repeat(20) },
        { type: "function_call", call_id: "c1", name: "weather", arguments: "{\"city\":\"Paris\"}" },
        { type: "function_call", call_id: "c2", name: "weather", arguments: "{\"city\":\"Rome\"}" },
        { type: "function_call_output", call_id: "c1", output: "sunny" },
        { type: "function_call_output", call_id: "c2", output: "rainy" },
        { role: "assistant", content: "Sunny in Paris, rainy in Rome." },
        { role: "user", content: "Thanks!" }
      ]
    })
  const anthropic = () =>
    file("trim-anthropic.json", {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "Be brief.",
      messages: [
        { role: "user", content: "Weather in Paris and Rome? ".repeat(6) },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "weather", input: { city: "Paris" } }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "sunny and warm and lovely, with a light breeze from the west all day" },
            { type: "text", text: "And what about Rome, and Madrid, and Lisbon, and Athens? Tell me everything about the weather there." }
          ]
        },
        { role: "assistant", content: "Rome is rainy." },
        { role: "user", content: "Thanks!" }
      ]
    })

  it("a run of Responses items dropped counts as the input items it is", () => {
    const r = trimmed(responses(), 60)
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("\ndropped input[0..4] (5 input items, ")
    expect(r.out!["input"]).toHaveLength(2)
  })

  it("an Anthropic message whose tool results are dropped and whose text is kept is said to be dropped in part", () => {
    const r = trimmed(anthropic(), 90)
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("\ndropped messages[0..1] and messages[2].content[0] (2 messages and part of 1, ")
    // the text of messages[2] is kept: it opens the trimmed messages
    expect(r.out!["messages"]![0]).toMatchObject({ role: "user", content: expect.stringContaining("And what about Rome") })
  })

  it("for every budget, the entries said to be dropped whole are the entries the written file no longer has", () => {
    for (const [body, list] of [[anthropic(), "messages"], [responses(), "input"]] as const) {
      const before = (JSON.parse(fs.readFileSync(body, "utf8")) as Record<string, Array<unknown>>)[list]!.length
      for (let budget = 20; budget <= 130; budget += 10) {
        const r = trimmed(body, budget)
        if (r.code !== 0) continue
        // "(5 input items, ...)", "(2 messages and part of 1, ...)", "(part of 1 message, ...)"
        const counts = /\ndropped .*? \((?:part of \d+|(\d+) (?:messages?|input items?))/.exec(r.stderr)
        const whole = Number(counts?.[1] ?? 0)
        expect([list, budget, r.out![list]!.length]).toEqual([list, budget, before - whole])
      }
    }
  }, 300_000)

  it("trim --strategy summarize names what it summarized as the file does, not by the model's numbering", () => {
    const r = trimmed(responses(), 60, ["--strategy", "summarize"])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/\nsummarized input\[0\.\.5\] \(6 input items\) into a system message in their place \(\d+ tokens\)\n/)
    const a = trimmed(anthropic(), 90, ["--strategy", "summarize"])
    expect(a.stderr).toMatch(/\nsummarized messages\[0\.\.1\] and messages\[2\]\.content\[0\] \(2 messages and part of 1\) into a system message in their place/)
    expect(a.stderr).not.toMatch(/summarized \d+ messages/)
  })
})

describe("an Anthropic output without an output limit names the --max-tokens flag", () => {
  const chat = () => file("no-limit.json", { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] })

  it("convert, trim and repair say to give --max-tokens, not the library's option", () => {
    for (const args of [["convert", chat(), "--to", "anthropic"], ["trim", chat(), "--budget", "1000", "--to", "anthropic"], ["repair", chat(), "--to", "anthropic"], ["repair", chat(), "--to", "anthropic", "--json"]]) {
      const r = run(args)
      expect([args[0], r.code]).toEqual([args[0], 0])
      expect(r.stderr).toContain("warning: the required field max_tokens was not written: the Messages API rejects a request without it; give one with --max-tokens N\n")
      expect(r.stderr).not.toContain("maxTokens option")
    }
  })

  it("an input's own limit the API refuses is said to be replaced by --max-tokens, or to need it", () => {
    const zero = file("zero-limit.json", { model: "gpt-4o", max_completion_tokens: 0, messages: [{ role: "user", content: "hi" }] })
    expect(run(["convert", zero, "--to", "anthropic"]).stderr).toContain("not the input's 0; give one with --max-tokens N\n")
    const replaced = run(["convert", zero, "--to", "anthropic", "--max-tokens", "1024"])
    expect(replaced.stderr).toContain("warning: max_tokens 0 was replaced by --max-tokens 1024 (")
    expect(replaced.stderr).not.toContain("maxTokens option")
  })
})

describe("--wizard without a terminal", () => {
  it("is a usage error: one line on stderr, nothing on stdout, exit code 2", () => {
    for (const args of [["--wizard"], ["check", "--wizard"]]) {
      const r = run(args, "")
      expect([args.join(" "), r.code, r.stdout]).toEqual([args.join(" "), 2, ""])
      expect(r.stderr.trim().split("\n")).toHaveLength(1)
      expect(r.stderr).toContain("--wizard asks its questions on a terminal")
    }
  })
})

describe("a Gemini file written back as Gemini", () => {
  it("keeps the spelling it was read in: snake_case fields stay snake_case", () => {
    const body = {
      system_instruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ text: "Weather?" }] },
        { role: "model", parts: [{ function_call: { name: "get_weather", args: { city: "Oslo" } } }] },
        { role: "user", parts: [{ function_response: { name: "get_weather", response: { t: 12 } } }] }
      ],
      tools: [{ function_declarations: [{ name: "get_weather", parameters_json_schema: { type: "object", properties: { city: { type: "string" } } } }] }],
      generation_config: { max_output_tokens: 100 }
    }
    const converted = run(["convert", file("snake.json", body), "--to", "gemini"])
    expect(converted.code).toBe(0)
    expect(JSON.parse(converted.stdout)).toStrictEqual(body)
    // from another format there is no spelling to keep: the names the official JS SDK reads
    const chat = run(["convert", file("chat.json", { messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "hi" }] }), "--to", "gemini"])
    expect(Object.keys(JSON.parse(chat.stdout))).toContain("systemInstruction")
  })
})

describe("repair's log after an earlier step changed the message", () => {
  it("names the block as read, not the part the message as the earlier step left it has at that number", () => {
    const body = {
      model: "gpt-5",
      input: [
        { role: "user", content: "hi" },
        { type: "custom_tool_call_output", call_id: "c9", output: "1" },
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "why" }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "after" }] },
        { role: "user", content: "more" }
      ]
    }
    const repaired = run(["repair", file("steps.json", body), "--provider", "openai-responses"])
    expect(repaired.code).toBe(0)
    const lines = repaired.stderr.split("\n")
    // the first step counts the items as read: the custom output is input[1]
    expect(lines.some((l) => l.startsWith("input[1]: removed a ProviderData block"))).toBe(true)
    // the reasoning item is input[2]; after the removal the model counts it as the first block, which is not input[1]
    expect(lines.some((l) => l.startsWith("input[2]: removed a Thinking block"))).toBe(true)
    expect(lines.some((l) => l.startsWith("input[1]: removed a Thinking block"))).toBe(false)
    const json = JSON.parse(run(["repair", file("steps.json", body), "--provider", "openai-responses", "--json"]).stdout)
    expect(json.actions.map((a: { readonly index: number }) => a.index)).toEqual([1, 2])
  })
})
