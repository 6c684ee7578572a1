/**
 * The `agent-messages` command line, run with arguments and standard input
 * the way a user gives them, checked by exit code, stdout and stderr. It runs
 * in this process (see `cliBuild.ts`); what only a process shows (pipes,
 * devices, the built program's exit codes) is in `cliProcess.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import * as OpenAiResponses from "../src/providers/OpenAiResponses.js"
import * as GeminiEstimator from "../src/GeminiEstimator.js"
import * as Message from "../src/Message.js"
import * as Request from "../src/Request.js"
import * as TokenEstimator from "../src/TokenEstimator.js"
import { buildDirOf, inProcess, removeBuild, root, type Run } from "./cliBuild.js"

const buildDir = buildDirOf("unit")
const work = path.join(buildDir, "files")
const cli = inProcess(buildDir)
const examples = path.join(root, "examples", "transcripts")

beforeAll(() => {
  fs.mkdirSync(work, { recursive: true })
})

afterAll(async () => {
  await cli.close()
  removeBuild(buildDir)
})

const run = (args: ReadonlyArray<string>, input?: string): Run => cli.run(args, input)

const file = (name: string, content: string | Buffer): string => {
  const p = path.join(work, name)
  fs.writeFileSync(p, content)
  return p
}

const example = (name: string) => path.join(examples, name)

/** The same two-turn conversation with one tool call, in every format. */
const conversations: Record<string, unknown> = {
  canonical: [
    { role: "user", content: "Weather in Oslo?" },
    { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "get_weather", args: { city: "Oslo" } }] },
    { role: "tool", toolCallId: "call_1", toolName: "get_weather", content: "4°C" },
    { role: "assistant", content: "It is 4°C in Oslo." }
  ],
  "openai-chat": {
    model: "gpt-4o",
    messages: [
      { role: "user", content: "Weather in Oslo?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: "4°C" },
      { role: "assistant", content: "It is 4°C in Oslo." }
    ]
  },
  anthropic: {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    system: "Be brief.",
    messages: [
      { role: "user", content: "Weather in Oslo?" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "4°C" }] },
      { role: "assistant", content: "It is 4°C in Oslo." }
    ]
  },
  "openai-responses": {
    model: "gpt-5",
    input: [
      { role: "user", content: "Weather in Oslo?" },
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
      { type: "function_call_output", call_id: "call_1", output: "4°C" },
      { role: "assistant", content: "It is 4°C in Oslo." }
    ]
  },
  gemini: {
    contents: [
      { role: "user", parts: [{ text: "Weather in Oslo?" }] },
      { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }] },
      { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { temperature: "4°C" } } }] },
      { role: "model", parts: [{ text: "It is 4°C in Oslo." }] }
    ]
  }
}

const formats = Object.keys(conversations)

describe("Gemini input is counted with the table fitted for Gemini's tokenizer", () => {
  // Gemma, whose counts Gemini bills, writes a number digit by digit; o200k three digits a token
  const digits = "1234567890".repeat(20)

  it("tokens: by default for a Gemini body, by --estimator gemini for any; --provider openai-chat with the default takes the o200k table", () => {
    const body = file("digits-gemini.json", JSON.stringify({ contents: [{ role: "user", parts: [{ text: digits }] }] }))
    const total = (...args: Array<string>) => (JSON.parse(run(["tokens", body, "--json", ...args]).stdout) as { total: number }).total
    expect(total()).toBe(GeminiEstimator.estimateText(digits) + 1)
    expect(total("--estimator", "gemini")).toBe(total())
    const chat = TokenEstimator.heuristic.estimateRequest(Request.make([Message.user(digits)])).total
    expect(total("--provider", "openai-chat")).toBe(chat)
    expect(total("--provider", "openai-chat", "--estimator", "gemini")).toBeGreaterThan(chat + 100)
  }, 300_000)

  it("trim: a Gemini body over its budget in Gemini's tokens is trimmed, though in o200k's it would fit", () => {
    const contents = [
      { role: "user", parts: [{ text: digits }] },
      { role: "model", parts: [{ text: digits }] },
      { role: "user", parts: [{ text: digits }] }
    ]
    const body = file("digits-trim-gemini.json", JSON.stringify({ contents }))
    const o200k = 3 * TokenEstimator.heuristic.estimateText(digits)
    expect(o200k).toBeLessThan(300)
    const r = run(["trim", body, "--budget", "300"])
    expect(r.code).toBe(0)
    expect((JSON.parse(r.stdout) as { contents: ReadonlyArray<unknown> }).contents.length).toBeLessThan(3)
  })
})

describe("every command reads every format", () => {
  for (const format of formats) {
    const input = () => file(`${format}.json`, JSON.stringify(conversations[format]))

    it(`check: ${format} is detected, valid, exit 0`, () => {
      const r = run(["check", input()])
      expect(r.code).toBe(0)
      expect(r.stdout).toContain("valid: ")
      expect(r.stderr).toContain(`as ${format}`)
    })

    it(`check --json: ${format}`, () => {
      const r = run(["check", input(), "--json", "--format", format])
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout)).toEqual({ valid: true, issues: [] })
    })

    it(`tokens --json: ${format} gives a total and one number per input message`, () => {
      const r = run(["tokens", input(), "--json"])
      expect(r.code).toBe(0)
      const out = JSON.parse(r.stdout) as { total: number; messages: Array<number>; system: number; tools: number; framing: number; responseFormat: number }
      expect(out.messages.length).toBe(4)
      // Anthropic's system text is outside its messages: its own figure, not in the list
      expect(out.system > 0).toBe(format === "anthropic")
      expect(out.total).toBe(out.messages.reduce((a, b) => a + b, 0) + out.system + out.tools + out.framing + out.responseFormat)
    })

    it(`repair: ${format} comes back unchanged in the same format`, () => {
      const r = run(["repair", input()])
      expect(r.code).toBe(0)
      expect(r.stderr).toContain("0 changes")
      const again = run(["check", file(`${format}.repaired.json`, r.stdout)])
      expect(again.code).toBe(0)
      expect(again.stderr).toContain(`as ${format}`)
    })

    it(`trim: ${format} within a budget stays in its format`, () => {
      const r = run(["trim", input(), "--budget", "5000"])
      expect(r.code).toBe(0)
      expect(r.stderr).toMatch(/ -> .* tokens/)
      expect(run(["check", file(`${format}.trimmed.json`, r.stdout)]).code).toBe(0)
    })

    for (const target of formats) {
      it(`convert: ${format} -> ${target} gives a valid ${target} transcript`, () => {
        const r = run(["convert", input(), "--to", target])
        expect(r.code).toBe(0)
        const back = run(["check", file(`${format}-to-${target}.json`, r.stdout), "--format", target])
        expect(back.code).toBe(0)
      })
    }
  }
})

describe("detection and same-format round trips", () => {
  it("an Anthropic body whose messages are plain strings but for an image part is read as Anthropic", () => {
    const body = {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [
        { role: "user", content: "a first question" },
        { role: "assistant", content: "an answer" },
        { role: "user", content: [{ type: "text", text: "and this?" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }] }
      ]
    }
    const r = run(["convert", file("anthropic-image.json", JSON.stringify(body)), "--to", "anthropic"])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("as anthropic")
    expect(JSON.parse(r.stdout)["messages"][2]["content"][1]["type"]).toBe("image")
  })

  it("an Anthropic body whose only blocks are text and server tools is read as Anthropic", () => {
    const body = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [
        { role: "user", content: "Search the web for Effect 4." },
        {
          role: "assistant",
          content: [
            { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "Effect 4" } },
            { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [{ type: "web_search_result", url: "https://effect.website", title: "Effect", encrypted_content: "abc" }] },
            { type: "text", text: "Effect 4 is out." }
          ]
        }
      ]
    }
    const input = file("server-tools.json", JSON.stringify(body))
    const r = run(["convert", input, "--to", "anthropic"])
    expect(r.stderr).toContain("as anthropic")
    expect(r.stderr).not.toContain("warning")
    expect(JSON.parse(r.stdout)).toEqual(body)
  })

  it("a canonical request body is read whole: model, tools, tool choice and output limit go on to every format", () => {
    const chat = {
      model: "gpt-4o",
      messages: [{ role: "user", content: "Where is order A-1?" }],
      tools: [{ type: "function", function: { name: "lookup_order", description: "Look up an order", parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } } }],
      tool_choice: "auto",
      max_completion_tokens: 4096
    }
    const canonical = run(["convert", file("order-chat.json", JSON.stringify(chat)), "--to", "canonical"])
    expect(canonical.code).toBe(0)
    const body = file("order-canonical.json", canonical.stdout)
    const back = run(["convert", body, "--to", "openai-chat"])
    expect([back.code, back.stderr]).toEqual([0, `agent-messages: read ${body} as canonical (a request body)\n`])
    expect(JSON.parse(back.stdout)).toEqual(chat)
    // the output limit is reserved: 4,096 tokens do not fit in 100
    expect(run(["trim", body, "--budget", "100"]).code).toBe(1)
    // a budget that is no number of tokens is a bad command line, not a job that cannot be done
    const negative = run(["trim", body, "--budget", "-1"])
    expect([negative.code, negative.stdout]).toEqual([2, ""])
    expect(negative.stderr).toContain("invalid window option \"budget\"")
    expect((JSON.parse(run(["tokens", body, "--json"]).stdout) as { tools: number }).tools).toBeGreaterThan(0)
    // a field the model has no place for is refused, not lost
    const unknown = run(["check", file("order-unknown.json", JSON.stringify({ ...JSON.parse(canonical.stdout), temperature: 0.2 }))])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("temperature: unknown field")
  })

  it("numbers with more digits than a JavaScript number holds are said on stderr, in the file or in tool-argument text", () => {
    const anthropic = file("big-id-anthropic.json", '{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"Delete it."},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"delete_tweet","input":{"tweet_id":1790000000000000123}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"done"}]}]}')
    const same = run(["convert", anthropic, "--to", "anthropic"])
    expect(same.code).toBe(0)
    expect(same.stderr).toContain("holds a number with more digits than a JavaScript number holds, read as the nearest it does: 1790000000000000123 as 1790000000000000000")
    const chat = file("big-id-chat.json", JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "Delete it." }, { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_tweet", arguments: '{"tweet_id": 1790000000000000123}' } }] }, { role: "tool", tool_call_id: "call_1", content: "done" }] }))
    // Chat keeps the argument text: exact, and nothing to say
    const kept = run(["convert", chat, "--to", "openai-chat"])
    expect([kept.code, kept.stdout.includes("1790000000000000123"), kept.stderr.includes("rounded")]).toEqual([0, true, false])
    const toAnthropic = run(["convert", chat, "--to", "anthropic"])
    expect(toAnthropic.stderr).toContain("rounded to what a JavaScript number holds (1790000000000000123 as 1790000000000000000)")
  })

  it("a JSONL log of any format's messages, one a line, is read as that format, each line an input message", () => {
    for (const format of formats.filter((f) => f !== "canonical")) {
      const body = conversations[format] as Record<string, ReadonlyArray<unknown>>
      const list = body["messages"] ?? body["input"] ?? body["contents"]!
      const log = file(`${format}.log.jsonl`, list.map((m) => JSON.stringify(m)).join("\n") + "\n")
      const checked = run(["check", log])
      expect([format, checked.code, checked.stderr]).toEqual([format, 0, `agent-messages: read ${log} as ${format} (JSONL)\n`])
      const tokens = JSON.parse(run(["tokens", log, "--json"]).stdout) as { messages: Array<number> }
      expect(tokens.messages.length).toBe(list.length)
      // the same messages as the list written as one JSON array
      const asArray = run(["convert", file(`${format}.list.json`, JSON.stringify(list)), "--to", "openai-chat"])
      expect(run(["convert", log, "--to", "openai-chat"]).stdout).toBe(asArray.stdout)
    }
  }, 300_000)

  it("a body read as the wrong format is refused, not read as an empty conversation", () => {
    const chat = file("wrong-format.json", JSON.stringify(conversations["openai-chat"]))
    for (const format of ["gemini", "openai-responses"]) {
      for (const args of [["check", chat, "--format", format], ["tokens", chat, "--format", format], ["convert", chat, "--from", format, "--to", "anthropic"]]) {
        const r = run(args)
        expect([args.join(" "), r.code, r.stdout]).toEqual([args.join(" "), 2, ""])
        expect(r.stderr).toContain("is this another provider's format?")
      }
    }
  })

  it("DeepSeek's reasoning_content comes back when a Chat body is written as Chat again", () => {
    const body = {
      model: "deepseek-reasoner",
      messages: [
        { role: "user", content: "2+2?" },
        { role: "assistant", content: "4", reasoning_content: "Two plus two is four." },
        { role: "user", content: "and 3+3?" }
      ]
    }
    const r = run(["convert", file("deepseek.json", JSON.stringify(body)), "--to", "openai-chat"])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(body)
  })
})

describe("tokens", () => {
  it("counts an Anthropic user message holding tool results and text as one input message", () => {
    const body = {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [
        { role: "user", content: "q" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "r" }, { type: "text", text: "and also this" }] }
      ]
    }
    const r = run(["tokens", file("mixed.json", JSON.stringify(body)), "--json"])
    const out = JSON.parse(r.stdout) as { total: number; messages: Array<number>; framing: number }
    expect(out.messages.length).toBe(3)
    expect(out.total).toBe(out.messages.reduce((a, b) => a + b, 0) + out.framing)
  })

  it("counts an Anthropic structured output format given in either field, and convert writes it back to the field it came in", () => {
    const schema = { type: "object", properties: { joke: { type: "string" }, rating: { type: "integer" } }, required: ["joke", "rating"], additionalProperties: false }
    const base = { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "Tell me a joke and rate it" }] }
    type Counted = { total: number; responseFormat: number }
    const count = (name: string, body: object, ...args: Array<string>) => JSON.parse(run(["tokens", file(name, JSON.stringify(body)), "--json", ...args]).stdout) as Counted
    const beta = count("format-beta.json", { ...base, output_format: { type: "json_schema", schema } })
    const today = count("format-config.json", { ...base, output_config: { format: { type: "json_schema", schema } } })
    // (either field says the body is Anthropic's; without one, it must be told)
    const plain = count("format-none.json", base, "--format", "anthropic")
    // the schema's JSON, and the format's framing (142 tokens) beside the tool-use prompt's
    expect(beta.responseFormat).toBeGreaterThan(20)
    expect(beta.total - plain.total).toBe(beta.responseFormat + 142)
    expect(beta).toEqual(today)
    const back = run(["convert", file("format-beta-convert.json", JSON.stringify({ ...base, output_format: { type: "json_schema", schema } })), "--to", "anthropic"])
    expect(back.code).toBe(0)
    expect(JSON.parse(back.stdout)).toEqual({ ...base, output_format: { type: "json_schema", schema } })
  })

  it("a request body with tools is counted whole: messages, tools and framing add up to the total", () => {
    const body = {
      model: "gpt-4o",
      messages: [{ role: "user", content: "What's the weather like in Boston?" }],
      tools: [
        {
          type: "function",
          function: {
            name: "get_current_weather",
            description: "Get the current weather in a given location",
            parameters: { type: "object", properties: { location: { type: "string", description: "The city and state" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } }, required: ["location"] }
          }
        }
      ]
    }
    const r = run(["tokens", file("with-tools.json", JSON.stringify(body)), "--json", "--estimator", "o200k"])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as { total: number; messages: Array<number>; tools: number; framing: number; responseFormat: number }
    expect(out.tools).toBeGreaterThan(30)
    expect(out.total).toBe(out.messages.reduce((a, b) => a + b, 0) + out.tools + out.framing + out.responseFormat)
  })

  describe("a run of Responses items read as one message", () => {
    const turn = [
      { role: "user", content: "Weather in Paris and Rome?" },
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Two cities: call the weather tool for each." }], encrypted_content: "gAAAAABpZXhhbXBsZQ" },
      { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Let me check both." }] },
      { type: "function_call", id: "fc_1", call_id: "c1", name: "weather", arguments: '{"city":"Paris"}' },
      { type: "function_call", id: "fc_2", call_id: "c2", name: "weather", arguments: '{"city":"Rome","units":"metric","days":7,"details":["wind","humidity","pressure"]}' },
      { type: "function_call_output", call_id: "c1", output: "sunny" },
      { type: "function_call_output", call_id: "c2", output: "rain all week, 12 degrees, strong winds from the west" }
    ]
    type Counted = { total: number; messages: Array<number>; system: number; tools: number; responseFormat: number; framing: number }
    /** The CLI's figures, and the request's as the library estimates it (what `tokens` printed before sharing out). */
    const counts = (name: string, input: ReadonlyArray<unknown>) => {
      const body = { model: "gpt-4o", input }
      const out = JSON.parse(run(["tokens", file(name, JSON.stringify(body)), "--json"]).stdout) as Counted
      const request = Effect.runSync(OpenAiResponses.fromRequest(body)).value
      return { out, model: TokenEstimator.heuristic.estimateRequest(request, { provider: "openai-responses" }) }
    }
    const sum = (xs: ReadonlyArray<number>): number => xs.reduce((a, b) => a + b, 0)

    it("gives each item its own figure, and the figures of a run add up to what its message costs", () => {
      const { out, model } = counts("responses-run.json", turn)
      // user; reasoning, message and two calls (one assistant message); two outputs (one tool message)
      expect(model.messages).toHaveLength(3)
      expect(out.messages).toHaveLength(7)
      for (const n of out.messages) expect(n).toBeGreaterThan(0)
      // the call with the longer arguments costs more
      expect(out.messages[4]).toBeGreaterThan(out.messages[3]!)
      expect(out.messages[6]).toBeGreaterThan(out.messages[5]!)
      expect([out.messages[0], sum(out.messages.slice(1, 5)), sum(out.messages.slice(5))]).toEqual(model.messages)
      expect(out.total).toBe(model.total)
      expect(out.total).toBe(sum(out.messages) + out.system + out.tools + out.responseFormat + out.framing)
    })

    it("counts reasoning from before the newest user message as 0 (the API no longer reads it), and its run's calls in full", () => {
      const { out, model } = counts("responses-earlier-run.json", [...turn, { role: "user", content: "And Oslo?" }])
      expect(out.messages).toHaveLength(8)
      expect(out.messages[1]).toBe(0)
      for (const i of [2, 3, 4, 5, 6, 7]) expect(out.messages[i]).toBeGreaterThan(0)
      expect([out.messages[0], sum(out.messages.slice(1, 5)), sum(out.messages.slice(5, 7)), out.messages[7]]).toEqual(model.messages)
      expect(out.total).toBe(model.total)
    })

    it("counts a run at the end of the input to its last item, whether or not its figure can be shared out", () => {
      // hosted searches cost nothing alone (the estimate leaves them out): the run's figure stays under its first
      const searches = [
        { role: "user", content: "Search" },
        { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "a" } },
        { type: "web_search_call", id: "ws_2", status: "completed", action: { type: "search", query: "b" } }
      ]
      for (const [name, input] of [["responses-last-run.json", turn], ["responses-last-searches.json", searches]] as const) {
        const { out, model } = counts(name, input)
        expect(out.messages).toHaveLength(input.length)
        expect(sum(out.messages)).toBe(sum(model.messages))
        expect(run(["check", file(name, JSON.stringify({ model: "gpt-4o", input }))]).stdout).toBe(`valid: ${input.length} input items\n`)
      }
    })

    it("prints a figure for each item", () => {
      const r = run(["tokens", file("responses-run-text.json", JSON.stringify({ model: "gpt-4o", input: turn }))])
      expect(r.stdout).toMatch(/^input\[0\]: [1-9]\d*\n(input\[[1-6]\]: [1-9]\d*\n){6}/)
    })
  })

  it("--estimator o200k counts exactly with gpt-tokenizer, simple with the CJK-weighted rule", () => {
    const input = file("exact.json", JSON.stringify(conversations["openai-chat"]))
    for (const estimator of ["o200k", "cl100k", "simple", "heuristic"]) {
      const r = run(["tokens", input, "--json", "--estimator", estimator])
      expect(r.code).toBe(0)
      expect((JSON.parse(r.stdout) as { total: number }).total).toBeGreaterThan(10)
    }
  })
})

describe("check", () => {
  it("finds the issues of a broken history, exit 1, each with its index and a one-line explanation", () => {
    const r = run(["check", example("interrupted-tool-call.jsonl")])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain("MissingToolResult: messages[4]:")
    expect(r.stdout).toContain("2 issues in 8 messages")
  })

  it("counts the messages as the file holds them: an Anthropic body's system is not one, a Responses body has input items", () => {
    const orphan = file("orphan.json", JSON.stringify({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "be brief",
      messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "ok" }, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_9", content: "x" }] }]
    }))
    const r = run(["check", orphan])
    // the orphan alone: its empty tool name (Anthropic results name none) is not a second issue
    expect([r.code, r.stdout]).toEqual([1, 'OrphanToolResult: messages[2]: content[0]: tool result "toolu_9" answers no tool call of the preceding assistant message\n1 issue in 3 messages\n'])
    const items = file("items.json", JSON.stringify({ model: "gpt-5", instructions: "be brief", input: [{ role: "user", content: "hi" }] }))
    expect(run(["check", items]).stdout).toBe("valid: 1 input item\n")
    // an input given as a string is no list: one message, the instructions beside it as with a list
    const text = file("text-input.json", JSON.stringify({ model: "gpt-5", instructions: "be brief", input: "hi" }))
    expect(run(["check", text]).stdout).toBe("valid: 1 message (input given as text)\n")
    const contents = file("contents.json", JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }, { role: "model", parts: [{ text: "ok" }] }] }))
    expect(run(["check", contents]).stdout).toBe("valid: 2 contents\n")
  })

  it("--json prints the library's tag names with an index and a message", () => {
    const r = run(["check", example("interrupted-tool-call.jsonl"), "--json"])
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout) as { valid: boolean; issues: Array<{ _tag: string; index: number | null; message: string }> }
    expect(out.valid).toBe(false)
    expect(out.issues.map((i) => [i._tag, i.index])).toEqual([["MissingToolResult", 4], ["ConsecutiveRole", 7]])
    for (const issue of out.issues) expect(issue.message.length).toBeGreaterThan(10)
  })

  it("--provider adds that provider's rules", () => {
    const prefill = file("prefill.json", JSON.stringify([{ role: "user", content: "Say hi" }, { role: "assistant", content: "Hi " }]))
    expect(run(["check", prefill]).code).toBe(0)
    const r = run(["check", prefill, "--provider", "anthropic", "--json"])
    expect(r.code).toBe(1)
    expect((JSON.parse(r.stdout) as { issues: Array<{ _tag: string }> }).issues[0]?._tag).toBe("TrailingWhitespacePrefill")
  })

  it("--provider judges a request body by its own settings: Anthropic thinking, Responses store and previous_response_id", () => {
    const loop = [
      { role: "user", content: "weather?" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "w", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "sunny" }] }
    ]
    const thinkingOn = file("thinking-on.json", JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 2000, thinking: { type: "enabled", budget_tokens: 1024 }, messages: loop }))
    const on = run(["check", thinkingOn, "--provider", "anthropic"])
    expect(on.code).toBe(1)
    expect(on.stdout).toContain("ThinkingNotFirst")
    // an Anthropic body without thinking has it off: older signed thinking does not turn the rule on
    const earlier = [{ role: "user", content: "hi" }, { role: "assistant", content: [{ type: "thinking", thinking: "hm", signature: "sig" }, { type: "text", text: "hello" }] }]
    const thinkingOff = file("thinking-off.json", JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 100, messages: [...earlier, ...loop] }))
    expect(run(["check", thinkingOff, "--provider", "anthropic"]).code).toBe(0)
    const storeFalse = file("store-false.json", JSON.stringify({
      model: "gpt-5",
      store: false,
      input: [{ role: "user", content: "hi" }, { type: "reasoning", id: "rs_1", summary: [] }, { type: "message", role: "assistant", id: "msg_1", content: [{ type: "output_text", text: "hello", annotations: [] }] }, { role: "user", content: "more" }]
    }))
    const stored = run(["check", storeFalse, "--provider", "openai-responses"])
    expect(stored.code).toBe(1)
    expect(stored.stdout).toContain("MissingEncryptedContent")
    const continued = file("continued.json", JSON.stringify({ model: "gpt-5", previous_response_id: "resp_123", input: [{ type: "function_call_output", call_id: "call_1", output: "sunny" }] }))
    const r = run(["check", continued, "--provider", "openai-responses"])
    expect([r.code, r.stdout]).toEqual([0, "valid: 1 input item, openai-responses rules included\n"])
    // repair keeps the stored response's results, with or without --provider
    for (const args of [["repair", continued], ["repair", continued, "--provider", "openai-responses"]]) {
      const repaired = run(args)
      expect(repaired.code).toBe(0)
      expect((JSON.parse(repaired.stdout) as { input: Array<unknown> }).input).toEqual([{ type: "function_call_output", call_id: "call_1", output: "sunny" }])
    }
  })

  it("names messages as the file does: a body's system text is outside its messages, Gemini's are contents", () => {
    const anthropic = file("located.json", JSON.stringify({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: "hi" }, { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "w", input: {} }] }, { role: "user", content: "next" }]
    }))
    const r = run(["check", anthropic, "--provider", "anthropic"])
    expect(r.stdout).toContain('MissingToolResult: messages[1]: content[0]: tool call "toolu_1" has no result before messages[2]')
    const json = JSON.parse(run(["check", anthropic, "--json"]).stdout) as { issues: Array<Record<string, unknown>> }
    expect(json.issues[0]).toMatchObject({ _tag: "MissingToolResult", index: 1, modelIndex: 2, resumedAt: 2 })
    const gemini = file("located-gemini.json", JSON.stringify({ contents: [{ role: "model", parts: [{ functionCall: { name: "f", args: {} } }] }, { role: "user", parts: [{ functionResponse: { name: "f", response: {} } }] }, { role: "user", parts: [{ text: "ok" }] }] }))
    expect(run(["check", gemini, "--provider", "gemini"]).stdout).toContain("MisplacedFunctionCall: contents[0]:")
    expect(run(["tokens", gemini]).stdout).toMatch(/^contents\[0\]: \d+\ncontents\[1\]: \d+\ncontents\[2\]: \d+\n/)
    // Responses instructions are system text beside the input items
    const responses = file("located-responses.json", JSON.stringify({ model: "gpt-4o", instructions: "Be brief.", input: [{ role: "user", content: "Weather?" }] }))
    const counted = run(["tokens", responses])
    expect(counted.stdout).toMatch(/^input\[0\]: \d+\nsystem \(outside the messages\): \d+\n/)
    expect((JSON.parse(run(["tokens", responses, "--json"]).stdout) as { messages: Array<number>; system: number }).messages).toHaveLength(1)
    // a run of call items is one message: an issue about one call names that call's item (not the run's first, a
    // reasoning item or another call), and figures stay one per item
    const calls = file("located-calls.json", JSON.stringify({
      model: "gpt-4o",
      input: [
        { role: "user", content: "Weather in Paris and Rome?" },
        { type: "function_call", call_id: "c1", name: "weather", arguments: "{\"city\":\"Paris\"}" },
        { type: "function_call", call_id: "c2", name: "weather", arguments: "{\"city\":\"Rome\"}" },
        { type: "function_call_output", call_id: "c1", output: "sunny" },
        { role: "user", content: "and?" }
      ]
    }))
    expect(run(["check", calls]).stdout).toContain('MissingToolResult: input[2]: tool call "c2" has no result before input[4]')
    const figures = (JSON.parse(run(["tokens", calls, "--json"]).stdout) as { messages: Array<number> }).messages
    expect(figures).toHaveLength(5)
    expect(figures[2]).toBeGreaterThan(0)
  })

  it("repair and trim name messages as check does: as the file numbers them, not as the model does", () => {
    // Anthropic's system is outside its messages: the file's messages[4] is the model's fifth message
    const anthropic = file("located-repair.json", JSON.stringify({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }, { role: "user", content: "again" }, { role: "user", content: "and again" }, { role: "assistant", content: "ok  " }]
    }))
    expect(run(["check", anthropic, "--provider", "anthropic"]).stdout).toContain("TrailingWhitespacePrefill: messages[4]:")
    const repaired = run(["repair", anthropic, "--provider", "anthropic"])
    expect(repaired.stderr).toContain("\nmessages[4].content: cut trailing whitespace from the final assistant text\n")
    const json = JSON.parse(run(["repair", anthropic, "--provider", "anthropic", "--json"]).stdout) as { actions: Array<Record<string, unknown>> }
    expect(json.actions).toEqual([{ _tag: "TrimmedPrefill", index: 4, modelIndex: 5, blockIndex: null, blockPath: "content", modelBlockIndex: 0, description: "messages[4].content: cut trailing whitespace from the final assistant text" }])
    // a run of Responses items read as one message is dropped with every item of it
    const responses = file("located-trim.json", JSON.stringify({
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
    }))
    const trimmed = run(["trim", responses, "--budget", "60"])
    expect(trimmed.code).toBe(0)
    // counted as the file's entries: the run's five input items, not the model's three messages
    expect(trimmed.stderr).toContain("\ndropped input[0..4] (5 input items, ")
  })

  it("reads standard input with -", () => {
    const r = run(["check", "-"], JSON.stringify(conversations["openai-chat"]))
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("standard input")
  })
})

describe("bad input: one clear line on stderr and exit 2, never a stack trace", () => {
  const cases: ReadonlyArray<readonly [string, () => string, string]> = [
    ["a missing file", () => path.join(work, "missing.json"), "no such file"],
    ["a directory", () => work, "directory"],
    ["an empty file", () => file("empty.json", ""), "empty"],
    ["text that is not JSON", () => file("prose.txt", "hello, this is not json\nat all"), "not JSON"],
    ["JSON that is not a conversation", () => file("object.json", '{"a": 1}'), "not a conversation"],
    ["binary data", () => file("binary.bin", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0xff])), "binary"],
    ["a message that cannot be decoded", () => file("bad-message.json", '[{"role":"tool","content":"42"}]'), "not a valid"],
    ["a number", () => file("number.json", "42"), "not a conversation"]
  ]
  for (const command of ["check", "tokens", "trim", "repair", "convert"]) {
    for (const [label, make, says] of cases) {
      it(`${command}: ${label}`, () => {
        const extra = command === "trim" ? ["--budget", "100"] : command === "convert" ? ["--to", "anthropic"] : []
        const r = run([command, make(), ...extra])
        expect(r.code).toBe(2)
        expect(r.stdout).toBe("")
        const lines = r.stderr.trim().split("\n").filter((l) => !l.includes(" as "))
        expect(lines.length).toBe(1)
        expect(lines[0]).toContain(says)
        expect(r.stderr).not.toMatch(/\n\s+at /)
      })
    }
  }
})

describe("trim, repair and convert", () => {
  it("convert names the message and part a warning is about as the file does", () => {
    const body = file("warned.json", JSON.stringify({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: [{ type: "text", text: "be brief" }],
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
        // read as a tool message and a user message: the document is the wire message's third block
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }, { type: "text", text: "and" }, { type: "document", source: { type: "url", url: "https://example.com/a.pdf" } }] }
      ]
    }))
    const r = run(["convert", body, "--to", "openai-chat"])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("warning: messages[2].content[2]: an application/pdf file by URL was left out")
    const gemini = file("warned-gemini.json", JSON.stringify({
      systemInstruction: { parts: [{ text: "be brief" }] },
      contents: [{ role: "user", parts: [{ text: "hi" }, { fileData: { mimeType: "application/pdf", fileUri: "https://example.com/a.pdf" } }] }]
    }))
    const g = run(["convert", gemini, "--to", "openai-chat"])
    expect(g.stderr).toContain("warning: contents[0].parts[1]: ")
  })

  it("trim reports what was dropped on stderr and prints a conversation that fits", () => {
    const r = run(["trim", example("support-chat-zh-en.json"), "--budget", "900", "--provider", "anthropic"])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/dropped messages\[/)
    expect(r.stderr).toMatch(/tools, tool choice, response format and framing: \d+ tokens/)
    // the parts said add up to the budget: the messages' room, the fixed part, the output reserve
    const room = Number(/\(([\d,]+) available\)/.exec(r.stderr)![1]!.replace(/,/g, ""))
    const fixed = Number(/framing: (\d+) tokens/.exec(r.stderr)![1])
    const reserve = Number(/output reserve: (\d+) tokens/.exec(r.stderr)?.[1] ?? 0)
    expect(room + fixed + reserve).toBe(900)
    // the trimmed request, tools included, as Anthropic counts it
    const tokens = run(["tokens", file("trimmed.json", r.stdout), "--json", "--provider", "anthropic"])
    expect((JSON.parse(tokens.stdout) as { total: number }).total).toBeLessThanOrEqual(900)
  })

  it("trim keeps whole a request with images by URL that tokens says fits the budget", () => {
    const image = { type: "image_url", image_url: { url: "https://example.com/cat.png" } }
    const body = file("images-by-url.json", JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: [image] }, { role: "user", content: [image] }] }))
    const total = (JSON.parse(run(["tokens", body, "--json"]).stdout) as { total: number }).total
    expect(total).toBeGreaterThanOrEqual(2 * 765)
    const r = run(["trim", body, "--budget", String(total)])
    expect(r.code).toBe(0)
    expect(r.stderr).not.toMatch(/dropped/)
  })

  it("trim --strategy summarize works offline with the extractive summarizer", () => {
    const r = run(["trim", example("support-chat-zh-en.json"), "--budget", "400", "--strategy", "summarize", "--to", "canonical"])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/summar/i)
  })

  it("trim with a budget smaller than the pinned messages exits 1 naming the smallest budget that works", () => {
    const r = run(["trim", example("coding-agent-session.json"), "--budget", "10"])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/smallest|at least/)
  })

  it("repair fixes an interrupted tool call; the log goes to stderr, or into the JSON", () => {
    const r = run(["repair", example("interrupted-tool-call.jsonl")])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('inserted an error result "tool call was interrupted"')
    expect(run(["check", file("repaired.jsonl", r.stdout)]).code).toBe(0)
    const json = run(["repair", example("interrupted-tool-call.jsonl"), "--json"])
    const out = JSON.parse(json.stdout) as { actions: Array<{ _tag: string }> }
    expect(out.actions.map((a) => a._tag)).toEqual(["InsertedMissingResult", "MergedConsecutive"])
  })

  it("repair --provider exits 1 when no repair makes the history acceptable to the provider", () => {
    const loop = file("loop.json", JSON.stringify([
      { role: "user", content: "q" },
      { role: "assistant", content: [{ _tag: "Thinking", thinking: "t", signature: "sig" }, { _tag: "Text", text: "a" }] },
      { role: "user", content: "again" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "f" }] },
      { role: "tool", toolCallId: "c1", toolName: "f", content: "r" }
    ]))
    const r = run(["repair", loop, "--provider", "anthropic"])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain("cannot repair")
  })

  it("repair exits 1 when no repair leaves anything to send, with or without --provider", () => {
    const systemOnly = file("system-only.json", JSON.stringify([{ role: "system", content: "Be brief." }]))
    for (const extra of [[], ["--provider", "openai-chat"]]) {
      const r = run(["repair", systemOnly, ...extra])
      expect([extra.join(" "), r.code, r.stdout]).toEqual([extra.join(" "), 1, ""])
      expect(r.stderr).toMatch(/no repair makes this history valid|cannot repair/)
    }
  })

  it("repair --provider applies the provider's own rules", () => {
    const x = file("unsigned.json", JSON.stringify([{ role: "user", content: "hi" }, { role: "assistant", content: [{ _tag: "Thinking", thinking: "no signature" }, { _tag: "Text", text: "hello" }] }]))
    const r = run(["repair", x, "--provider", "anthropic", "--json"])
    expect(r.code).toBe(0)
    expect((JSON.parse(r.stdout) as { actions: Array<{ _tag: string }> }).actions.map((a) => a._tag)).toEqual(["RemovedBlock"])
  })

  it("convert lists what the target cannot carry on stderr", () => {
    const r = run(["convert", example("coding-agent-session.json"), "--to", "openai-chat"])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/warning: .*thinking/i)
  })

  it("convert --max-tokens gives an Anthropic body the output limit the Messages API requires", () => {
    const chat = file("no-limit.json", JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }))
    const without = run(["convert", chat, "--to", "anthropic"])
    expect(without.code).toBe(0)
    expect(without.stderr).toMatch(/warning: .*max_tokens/)
    expect(JSON.parse(without.stdout)["max_tokens"]).toBeUndefined()
    const given = run(["convert", chat, "--to", "anthropic", "--max-tokens", "1024"])
    expect(given.code).toBe(0)
    expect(given.stderr).not.toContain("max_tokens")
    expect(JSON.parse(given.stdout)["max_tokens"]).toBe(1024)
    // the input's own limit wins over the flag
    const own = file("own-limit.json", JSON.stringify({ model: "gpt-4o", max_completion_tokens: 300, messages: [{ role: "user", content: "hi" }] }))
    expect(JSON.parse(run(["convert", own, "--to", "anthropic", "--max-tokens", "1024"]).stdout)["max_tokens"]).toBe(300)
    expect(run(["convert", chat, "--to", "anthropic", "--max-tokens", "0"]).code).toBe(2)
    // trim and repair write Anthropic bodies too
    const trimmed = run(["trim", chat, "--budget", "1000", "--to", "anthropic", "--max-tokens", "512"])
    expect(JSON.parse(trimmed.stdout)["max_tokens"]).toBe(512)
    // the limit written is the answer's room: the window keeps it free
    expect(trimmed.stderr).toContain("output reserve: 512 tokens")
    expect(JSON.parse(run(["repair", chat, "--to", "anthropic", "--max-tokens", "256"]).stdout)["max_tokens"]).toBe(256)
    expect(JSON.parse(run(["repair", chat, "--to", "anthropic", "--max-tokens", "256", "--json"]).stdout).repaired["max_tokens"]).toBe(256)
  })
})

describe("the README", () => {
  it("shows the main job's commands with the output the command line prints", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8")
    const session = /The main job[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? ""
    const commands = session.split(/^\$ /m).filter((block) => block !== "")
    expect(commands.length).toBeGreaterThan(0)
    for (const block of commands) {
      const [line, ...shown] = block.trimEnd().split("\n")
      // `> file` sends stdout to a file: what the README shows is stderr alone
      const [command, redirect] = line!.split(" > ")
      const r = run(command!.split(" ").slice(1))
      const printed = redirect === undefined ? r.stderr + r.stdout : r.stderr
      expect([command, printed.trimEnd()]).toEqual([command, shown.join("\n")])
    }
  })
})

describe("help and version", () => {
  it("--version prints the version", () => {
    expect(run(["--version"]).stdout).toContain("0.1.0")
  })

  it("a usage error exits 2 with the error on stderr and nothing on stdout, so 1 still means issues found", () => {
    const transcript = example("interrupted-tool-call.jsonl")
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["check", transcript, "--provder", "anthropic"], "Unrecognized flag: --provder"],
      [["convert", transcript, "--to", "anthropc"], "Invalid value for flag --to"],
      [["trim", transcript], "--budget"],
      [[], "agent-messages"]
    ]
    for (const [args, says] of cases) {
      const r = run(args)
      expect([args.join(" "), r.code, r.stdout]).toEqual([args.join(" "), 2, ""])
      expect(r.stderr).toContain(says)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
  })

  for (const command of ["check", "tokens", "trim", "repair", "convert"]) {
    it(`${command} --help shows an example`, () => {
      const r = run([command, "--help"])
      expect(r.stdout).toContain("EXAMPLES")
      expect(r.stdout).toContain(`agent-messages ${command}`)
    })
  }
})

describe("found by an adversarial run of the command line", () => {
  it("a number beyond a double's range (1e400) is read as the largest one, said on stderr, not a crash", () => {
    const body = file("inf.json", '{"model":"gpt-4o","max_tokens":1e400,"temperature":-1e400,"messages":[{"role":"user","content":"hi"}]}')
    const r = run(["check", body])
    expect([r.code, r.stdout]).toEqual([0, "valid: 1 message\n"])
    expect(r.stderr).toContain("1e400 as 1.7976931348623157e+308")
    expect(r.stderr).not.toContain("unexpected failure")
    const back = run(["convert", body, "--to", "openai-chat"])
    expect(back.code).toBe(0)
    expect(JSON.parse(back.stdout)).toMatchObject({ temperature: -Number.MAX_VALUE })
  })

  it("a JSONL log of one line is a conversation of one message, as longer logs are", () => {
    const one = file("one.jsonl", '{"role":"user","content":"hi"}\n')
    expect(run(["check", one])).toMatchObject({ code: 0, stdout: "valid: 1 message\n" })
    expect(run(["check", "-"], '{"role":"user","parts":[{"text":"hi"}]}')).toMatchObject({ code: 0, stdout: "valid: 1 message\n" })
    const converted = run(["convert", one, "--to", "openai-chat"])
    expect([converted.code, JSON.parse(converted.stdout)]).toEqual([0, [{ role: "user", content: "hi" }]])
  })

  it("text that is not JSON is said on one line, whatever V8's message quotes", () => {
    const r = run(["check", file("notes.json", "# hello\nthis is markdown")])
    expect(r.code).toBe(2)
    expect(r.stderr.trim().split("\n")).toHaveLength(1)
  })

  it("check --json writes the same JSON as before, in pieces", () => {
    const r = run(["check", example("interrupted-tool-call.jsonl"), "--json"])
    const parsed = JSON.parse(r.stdout) as { readonly valid: boolean; readonly issues: ReadonlyArray<unknown> }
    expect(r.stdout).toBe(`${JSON.stringify(parsed, null, 2)}\n`)
    expect([r.code, parsed.valid, parsed.issues.length > 0]).toEqual([1, false, true])
  })

  it("repair names the message it cannot mend as the file does, as check does", () => {
    const body = file("think.json", JSON.stringify({
      model: "claude-sonnet-4-5",
      max_tokens: 2048,
      thinking: { type: "enabled", budget_tokens: 1024 },
      system: "Be brief.",
      messages: [
        { role: "user", content: "Weather in Oslo?" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "4°C" }] }
      ]
    }))
    const checked = run(["check", body, "--provider", "anthropic"])
    const repaired = run(["repair", body, "--provider", "anthropic"])
    expect(checked.stdout).toContain("ThinkingNotFirst: messages[1]:")
    expect(repaired.code).toBe(1)
    expect(repaired.stderr).toContain("messages[1]:")
    expect(repaired.stderr).not.toContain("messages[2]:")
  })

  it("a Responses body whose input is text counts its instructions as system and itself as the one message", () => {
    const body = file("text-input.json", JSON.stringify({ model: "gpt-5", instructions: "Be brief.", input: "Weather in Oslo?" }))
    const counted = run(["tokens", body, "--json"])
    const figures = JSON.parse(counted.stdout) as { readonly messages: ReadonlyArray<number>; readonly system: number }
    expect([counted.code, figures.messages.length, figures.system > 0]).toEqual([0, 1, true])
    expect(run(["check", body])).toMatchObject({ code: 0, stdout: "valid: 1 message (input given as text)\n" })
    const bare = file("text-input-bare.json", JSON.stringify({ model: "gpt-5", input: "Weather in Oslo?" }))
    const plain = JSON.parse(run(["tokens", bare, "--json"]).stdout) as { readonly messages: ReadonlyArray<number>; readonly system: number }
    expect([plain.messages.length, plain.system]).toEqual([1, 0])
  })

  it("trim --to fits the request it writes, counted as that format's provider bills it", () => {
    const out = run(["trim", example("support-chat-zh-en.json"), "--budget", "1500", "--to", "gemini"])
    expect(out.code).toBe(0)
    const written = file("trimmed-gemini.json", out.stdout)
    const counted = JSON.parse(run(["tokens", written, "--json"]).stdout) as { readonly total: number }
    expect(counted.total).toBeLessThanOrEqual(1500)
  })

  it("a budget too small says what besides the messages the minimum holds, and the flag that sets the reserve", () => {
    const r = run(["trim", example("coding-agent-session.json"), "--budget", "9000"])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain("kept free for the answer (--reserve sets them)")
    expect(r.stderr).toContain("tool definitions")
  })
})
