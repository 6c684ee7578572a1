/**
 * The concrete claims of the doc comments of the model (`Message`, `Block`),
 * validation (`Conversation`, `ValidationError`) and the command line, and of
 * the README's sections on them, each checked as written: a value an example
 * shows, a message it quotes, a rule of the provider tables, a flag, an exit
 * code, a transcript the README prints (as a property where the claim is
 * universal).
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as esbuild from "esbuild"
import { Effect, Layer, Option, Result, Schema, Stream } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Lib from "../src/index.js"
import { Block, Conversation, Message, Request, ValidationError } from "../src/index.js"
import * as Providers from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"
import { cliHarness, root } from "./cliBuild.js"

// ---------------------------------------------------------------------------
// the examples of the doc comments, run
// ---------------------------------------------------------------------------

/** One line of an example that shows its value in a comment: `expr // "value"`. */
interface Shown {
  readonly line: number
  readonly expression: string
  /** The literal the comment opens with, as source text. */
  readonly literal: string
  /** The literal is a string that ends with ` ...`: the value starts with the rest. */
  readonly prefix: boolean
}

interface Example {
  readonly where: string
  readonly code: string
  readonly shown: ReadonlyArray<Shown>
}

/** The end of the literal a comment opens with (a string, a list, an object, a number, a keyword), or -1. */
const literalEnd = (text: string): number => {
  const first = text[0]
  if (first === '"' || first === "'") {
    for (let i = 1; i < text.length; i++) {
      if (text[i] === "\\") i++
      else if (text[i] === first) return i + 1
    }
    return -1
  }
  if (first === "[" || first === "{") {
    let depth = 0
    let quote: string | undefined
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!
      if (quote !== undefined) {
        if (c === "\\") i++
        else if (c === quote) quote = undefined
      } else if (c === '"' || c === "'") quote = c
      else if (c === "[" || c === "{") depth++
      else if (c === "]" || c === "}") {
        depth--
        if (depth === 0) return i + 1
      }
    }
    return -1
  }
  const word = text.match(/^(-?\d+(\.\d+)?|true|false|null|undefined)\b/)
  return word === null ? -1 : word[0].length
}

const openers = /^(const|let|if|for|while|return|switch|case|yield\*|import|export|\}|\)|\])/

/** The `@example` blocks of a source file, each with the lines that show a value. */
const examplesOf = (file: string): Array<Example> => {
  const text = fs.readFileSync(path.join(root, file), "utf8")
  const out: Array<Example> = []
  for (const doc of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const startLine = text.slice(0, doc.index).split("\n").length
    const lines = doc[1]!.split("\n").map((l) => l.replace(/^\s*\* ?/, ""))
    let current: Array<string> | undefined
    let currentStart = 0
    const flush = () => {
      if (current === undefined) return
      const shown: Array<Shown> = []
      const code = current.map((line, i) => {
        const m = line.match(/^(.*?\S)\s+\/\/ (.*)$/)
        if (m === null || /^\s*\/\//.test(line)) return line
        const [, expression, comment] = m as unknown as [string, string, string]
        const end = literalEnd(comment)
        if (end < 0 || openers.test(expression.trim()) || /[,([{]$/.test(expression)) return line
        const literal = comment.slice(0, end)
        const prefix = /^['"].* \.\.\.['"]$/.test(literal)
        shown.push({ line: currentStart + i, expression, literal, prefix })
        return `__shown(${shown.length - 1}, () => (${expression}))`
      })
      out.push({ where: `${file}:${currentStart}`, code: code.join("\n"), shown })
      current = undefined
    }
    lines.forEach((line, i) => {
      if (/^\s*@\w+/.test(line)) {
        flush()
        if (/^\s*@example/.test(line)) {
          current = []
          currentStart = startLine + i + 1
        }
      } else current?.push(line)
    })
    flush()
  }
  return out
}

/** The names an example may use without defining them: the namespaces of the package, and Effect's. */
const scope: Record<string, unknown> = { ...Lib, ...Providers, Effect, Layer, Option, Schema, Stream, Result }

/** Runs an example; each shown line calls `check` with its value. Examples that use a free name they do not define (a conversation `messages`) are not run. */
const runExample = async (example: Example, check: (index: number, value: unknown) => void): Promise<"ran" | "skipped"> => {
  if (/^\s*import\s/m.test(example.code)) return "skipped"
  const body = /\byield\*/.test(example.code)
    ? `return Effect.runPromise(Effect.gen(function*() {\n${example.code}\n}))`
    : example.code
  const js = esbuild.transformSync(`async function __example() {\n${body}\n}`, { loader: "ts", format: "esm", target: "es2022" }).code
  const names = Object.keys(scope)
  const run = new Function(...names, "__shown", `${js}\nreturn __example()`) as (...args: Array<unknown>) => Promise<void>
  try {
    await run(...names.map((n) => scope[n]), check)
    return "ran"
  } catch (e) {
    if (e instanceof ReferenceError && /^(messages|history|conversation|request|program|callModel) is not defined$/.test(e.message)) return "skipped"
    throw e
  }
}

const literalValue = (literal: string): unknown => new Function(`return (${literal})`)()

describe("the examples of the model's and validation's doc comments show what they give", () => {
  const files = ["src/Message.ts", "src/Block.ts", "src/Conversation.ts", "src/ValidationError.ts"]
  const examples = files.flatMap(examplesOf)

  it("most examples show values, and every one that runs gives them", async () => {
    let checked = 0
    let ran = 0
    for (const example of examples) {
      const seen = new Set<number>()
      const outcome = await runExample(example, (index, thunk) => {
        const shown = example.shown[index]!
        const value = (thunk as () => unknown)()
        const expected = literalValue(shown.literal)
        const where = `${example.where} line ${shown.line}: ${shown.expression}`
        if (shown.prefix) {
          assert(typeof value === "string" && typeof expected === "string", where)
          expect(value, where).toContain(expected.slice(0, -" ...".length))
          expect(value.startsWith(expected.slice(0, -" ...".length)), where).toBe(true)
        } else {
          expect(value, where).toEqual(expected)
        }
        seen.add(index)
        checked++
      })
      if (outcome === "ran") {
        ran++
        // a shown line inside a branch not taken is no claim checked: every one must run
        for (let i = 0; i < example.shown.length; i++) expect(seen.has(i), `${example.where} line ${example.shown[i]!.line} never ran`).toBe(true)
      }
    }
    // the four modules have about 160 examples; most run, and about 120 lines show a value
    expect(ran).toBeGreaterThan(120)
    expect(checked).toBeGreaterThan(100)
  }, 300_000)
})

// ---------------------------------------------------------------------------
// the model (Message, Block; README "The model", "Persisting: the codec")
// ---------------------------------------------------------------------------

const decodeResult = (input: unknown) => Effect.runSync(Effect.result(Message.decode(input)))
const failureOf = (input: unknown): ValidationError.DecodeIssue => {
  const r = decodeResult(input)
  assert(Result.isFailure(r), "the input decoded")
  return r.failure
}

describe("the model: what each role may hold", () => {
  it("tool calls on a user message and text in a tool message cannot be constructed (the types refuse them)", () => {
    // @ts-expect-error a user message holds no tool call
    const call = () => Message.user([Block.toolCall("c1", "search")])
    // @ts-expect-error a tool message holds only results
    const text = () => Message.tool([Block.text("3 hits")])
    // @ts-expect-error a user message holds no tool result
    const result = () => Message.user([Block.toolResult("c1", "search", "3 hits")])
    expect([call, text, result].every((f) => typeof f === "function")).toBe(true)
  })

  it.effect("an assistant message may hold tool results (those of the tools the provider ran), a user message may not", () =>
    Effect.gen(function*() {
      const search = Block.toolCall("srvtoolu_1", "web_search", { query: "Oslo" }, { providerExecuted: true })
      const found = Block.toolResult("srvtoolu_1", "web_search", [Block.json([{ title: "Oslo" }])], false, { providerExecuted: true })
      const reply = Message.assistant([search, found, Block.text("Oslo is the capital.")])
      const back = yield* Message.decode(Message.encode(reply))
      expect(back.content.map((b) => b._tag)).toEqual(["ToolCall", "ToolResult", "Text"])
      // not a tool message: Message.isToolResultMessage is about the client's results
      expect(Message.isToolResultMessage(reply)).toBe(false)
      expect(Message.toolResultsOf(reply)).toEqual([])
      const error = failureOf({ role: "user", content: [{ _tag: "ToolResult", toolCallId: "c1", toolName: "search", content: "3 hits" }] })
      expect(error._tag).toBe("ToolResultFieldsOnNonTool")
    }))

  it("ToolResultFieldsOnNonTool names an assistant message with its article", () => {
    expect(failureOf({ role: "assistant", content: "x", toolCallId: "c1" }).message).toBe(
      "an assistant message carries tool-result fields (toolCallId); only tool messages may"
    )
    expect(failureOf({ role: "system", content: "x", isError: true }).message).toBe(
      "a system message carries tool-result fields (isError); only tool messages may"
    )
  })

  it("a mistake gets the same tag whichever form it came in (flat fields or blocks)", () => {
    const tagOf = (input: unknown) => failureOf(input)._tag
    expect(tagOf({ role: "user", content: "hi", toolCalls: [{ id: "c1", name: "search" }] })).toBe("ToolCallsOnNonAssistant")
    expect(tagOf({ role: "user", content: [{ _tag: "ToolCall", id: "c1", name: "search", args: {} }] })).toBe("ToolCallsOnNonAssistant")
    expect(tagOf({ role: "user", content: "hi", toolCallId: "c1" })).toBe("ToolResultFieldsOnNonTool")
    expect(tagOf({ role: "user", content: [{ _tag: "ToolResult", toolCallId: "c1", toolName: "search", content: "" }] })).toBe("ToolResultFieldsOnNonTool")
    expect(tagOf({ role: "tool", toolName: "search", content: "3 hits" })).toBe("MissingToolCallId")
    expect(tagOf({ role: "tool", content: [{ _tag: "ToolResult", toolName: "search", content: "3 hits" }] })).toBe("MissingToolCallId")
    expect(tagOf({ role: "tool", toolCallId: "c1", content: "3 hits" })).toBe("MissingToolName")
    expect(tagOf({ role: "tool", content: [{ _tag: "ToolResult", toolCallId: "c1", content: "3 hits" }] })).toBe("MissingToolName")
  })

  it("a Date, a Map, a BigInt, undefined in an array or a cycle is refused by decoding with a tagged error naming where", () => {
    const cycle: Record<string, unknown> = { x: 1 }
    cycle["self"] = cycle
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ when: new Date(0) }, "content[0].args.when"],
      [{ table: new Map() }, "content[0].args.table"],
      [{ n: 1n }, "content[0].args.n"],
      [[1, undefined], "content[0].args[1]"],
      [cycle, "content[0].args.self"]
    ]
    for (const [args, where] of cases) {
      const error = failureOf({ role: "assistant", content: [{ _tag: "ToolCall", id: "c1", name: "search", args }] })
      assert(error._tag === "MessageDecodeError")
      expect(ValidationError.formatPath(error.path)).toBe(where)
    }
    const error = failureOf({ role: "user", content: "hi", metadata: { seen: new Set([1]) } })
    assert(error._tag === "MessageDecodeError")
    expect(ValidationError.formatPath(error.path)).toBe("metadata.seen")
  })

  it.effect("unknown fields are refused at every level, whatever parse options the caller passes", () =>
    Effect.gen(function*() {
      const inputs = [
        { role: "user", content: "hi", mood: "curious" },
        { role: "user", content: [{ _tag: "Text", text: "hi", mood: "curious" }] },
        { role: "user", content: [{ _tag: "File", mediaType: "image/png", source: { _tag: "Url", url: "https://example.com/a.png", mood: 1 } }] },
        { role: "tool", content: [{ _tag: "ToolResult", toolCallId: "c1", toolName: "f", content: [{ _tag: "Json", value: 1, mood: 1 }] }] }
      ]
      for (const input of inputs) {
        for (const onExcessProperty of ["ignore", "error"] as const) {
          const r = yield* Effect.result(Schema.decodeUnknownEffect(Message.Codec)(input, { onExcessProperty }))
          expect(Result.isFailure(r), `${onExcessProperty}: ${JSON.stringify(input)}`).toBe(true)
        }
      }
    }))

  it.prop("constructors copy and freeze the JSON they are given: a change to it afterwards changes nothing", [Arb.argsObject], ([args]) => {
    const given = structuredClone(args) as Record<string, Schema.Json>
    const metadata = { trace: { id: "t1" } }
    const call = Block.toolCall("c1", "search", given)
    const message = Message.assistant([call], { metadata })
    const before = JSON.stringify(Message.encode(message))
    given["added"] = 1
    metadata.trace.id = "t2"
    expect(JSON.stringify(Message.encode(message))).toBe(before)
    expect(Object.isFrozen(message) && Object.isFrozen(message.content) && Object.isFrozen(message.content[0]) && Object.isFrozen(message.metadata)).toBe(true)
  }, { arbitrary: { runs: 100 } })

  it("Message.freeze does for a message built with new what the constructors do", () => {
    const built = new Message.UserMessage({ role: "user", content: [new Block.TextBlock({ _tag: "Text", text: "hi" })], metadata: { a: { b: 1 } } })
    const frozen = Message.freeze(built)
    expect([Object.isFrozen(frozen), Object.isFrozen(frozen.content), Object.isFrozen(frozen.content[0]), Object.isFrozen(frozen.metadata?.["a"])]).toEqual([true, true, true, true])
  })

  it("README's files: an image by URL is image/*, one by data URL is its type as inline base64", () => {
    expect(Block.image("https://example.com/chart.png", { detail: "high" }).mediaType).toBe("image/*")
    const inline = Block.image("data:image/png;base64,iVBORw0KGgo=")
    expect([inline.mediaType, inline.source]).toEqual(["image/png", { _tag: "Base64", data: "iVBORw0KGgo=" }])
  })

  it.effect("README: a damaged log's failure names the message and the role", () =>
    Effect.gen(function*() {
      const { failures, messages } = yield* Conversation.decodeEach(JSON.parse('[{"role":"user","content":"hi"},{"role":"bot"}]'))
      expect(messages.length).toBe(1)
      expect(failures.map((f) => f.message)).toEqual(['messages[1]: role: unknown role "bot": expected one of system, user, assistant, tool'])
    }))

  it.effect("decodeJsonl: an error carries the line's 0-based index, blank lines counted", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Conversation.decodeJsonl('{"role":"user","content":"hi"}\n\n{"role":"robot"}\n'))
      expect(error.index).toBe(2)
    }))

  it.effect("decodeEach fails only when the input is not an array", () =>
    Effect.gen(function*() {
      const { messages, failures } = yield* Conversation.decodeEach([1, { role: "user", content: "hi" }, null])
      expect([messages.length, failures.map((f) => f.index)]).toEqual([1, [0, 2]])
      const error = yield* Effect.flip(Conversation.decodeEach({ role: "user", content: "hi" }))
      expect(error._tag).toBe("MessageDecodeError")
    }))
})

// ---------------------------------------------------------------------------
// validation (Conversation, ValidationError; README "Validating a conversation")
// ---------------------------------------------------------------------------

const providers = ["openai-chat", "openai-responses", "anthropic", "gemini"] as const

describe("the profiles: the README's tables, row by row (the relaxations as a property: Conversation.test.ts)", () => {
  it("the generic rules table: who keeps ConsecutiveRole, EmptyConversation and a system message between calls and results", () => {
    const tagsFor = (provider: (typeof providers)[number] | "generic", messages: ReadonlyArray<Message.Message>) =>
      (provider === "generic" ? Conversation.issuesOf(messages) : Conversation.issuesFor(provider, messages)).map((i) => i._tag)
    const twoUsers = [Message.user("hi"), Message.user("anyone there?")]
    const twoAssistants = [Message.user("hi"), Message.assistant("Hello."), Message.assistant("How can I help?")]
    const onlySystem = [Message.system("You are terse.")]
    const reminder = [
      Message.user("Find it."),
      Message.assistant([Block.toolCall("c1", "search")]),
      Message.system("Be brief."),
      Message.toolResultMessage("c1", "search", "3 hits")
    ]
    const table = providers.map((p) => [
      p,
      tagsFor(p, twoUsers).includes("ConsecutiveRole"),
      tagsFor(p, twoAssistants).includes("ConsecutiveRole"),
      tagsFor(p, onlySystem).includes("EmptyConversation"),
      tagsFor(p, reminder).includes("MissingToolResult")
    ])
    expect(table).toEqual([
      ["openai-chat", true, true, true, true],
      ["openai-responses", true, true, true, true],
      ["anthropic", false, false, true, false],
      ["gemini", false, true, true, true]
    ])
    // and the generic rules keep all of them
    expect([tagsFor("generic", twoUsers), tagsFor("generic", twoAssistants), tagsFor("generic", onlySystem), tagsFor("generic", reminder)]).toEqual([
      ["ConsecutiveRole"],
      ["ConsecutiveRole"],
      ["EmptyConversation"],
      ["MissingToolResult", "OrphanToolResult"]
    ])
  })

  it("genericRulesFor agrees with the tables: all rules for the generic and OpenAI targets", () => {
    const all = Conversation.genericRulesFor("generic")
    expect(Conversation.genericRulesFor("openai-chat")).toEqual(all)
    expect(Conversation.genericRulesFor("openai-responses")).toEqual(all)
    expect(Object.values(all).every((on) => on === true)).toBe(true)
  })

  it("types: validateFor's error channel is the generic issues plus the provider's own, never after catching those tags; Chat and Responses results are generically valid, Anthropic and Gemini ones not", () => {
    const messages: ReadonlyArray<Message.Message> = [Message.user("hi")]
    const none = () => Effect.succeed(messages)
    const handled = Conversation.validateFor("gemini")(messages).pipe(
      Effect.catchTags({
        EmptyToolCallId: none,
        EmptyToolName: none,
        DuplicateToolCallId: none,
        EmptyMessage: none,
        EmptyConversation: none,
        OrphanToolResult: none,
        MissingToolResult: none,
        DuplicateToolResult: none,
        ConsecutiveRole: none,
        SystemNotAtStart: none,
        MisplacedFunctionCall: none,
        MissingThoughtSignature: none,
        UnsupportedMediaType: none
      })
    )
    const never: Effect.Effect<ReadonlyArray<Message.Message>, never> = handled
    const generic = (valid: Conversation.Validated) => valid.length
    const chat = Effect.runSync(Conversation.validateFor("openai-chat")(messages))
    const responses = Effect.runSync(Conversation.validateFor("openai-responses")(messages))
    const anthropic = Effect.runSync(Conversation.validateFor("anthropic")(messages))
    const gemini = Effect.runSync(Conversation.validateFor("gemini")(messages))
    // @ts-expect-error validated for Anthropic is not generically valid (two user messages in a row may be in it)
    const fromAnthropic = () => generic(anthropic)
    // @ts-expect-error nor for Gemini
    const fromGemini = () => generic(gemini)
    expect([generic(chat), generic(responses), Effect.runSync(never).length, typeof fromAnthropic, typeof fromGemini]).toEqual([1, 1, 1, "function", "function"])
  })

  it.prop(
    "every issue encodes to JSON and decodes back to the same issue (ValidationError's module doc)",
    [Arb.brokenConversation],
    ([messages]) => {
      const options = { model: "gemini-3-pro-preview", thinking: true }
      const issues = [Conversation.issuesOf(messages), ...providers.map((p) => Conversation.issuesFor(p, messages, options))].flat()
      for (const issue of issues) {
        const back = Schema.decodeUnknownSync(ValidationError.Issue)(JSON.parse(JSON.stringify(Schema.encodeSync(ValidationError.Issue)(issue))))
        expect([back._tag, back.message]).toEqual([issue._tag, issue.message])
        expect(back).toEqual(issue)
      }
    },
    { arbitrary: { runs: 100 }, timeout: 120_000 }
  )

  it("ConsecutiveRole looks through system messages: user, system, user is two user messages in a row", () => {
    const issues = Conversation.issuesOf([Message.user("hi"), Message.system("Be brief."), Message.user("hello?")])
    expect(issues.map((i) => i.message)).toEqual(["messages[2]: two user messages in a row (messages[0] and messages[2])"])
  })

  it("a result that answers no call is OrphanToolResult alone, not also EmptyToolName", () => {
    for (const provider of providers) {
      const issues = Conversation.issuesFor(provider, [Message.user("hi"), Message.toolResultMessage("c9", "", "stale")])
      expect(issues.map((i) => i._tag), provider).toEqual(["OrphanToolResult"])
    }
  })

  it.effect("an Effect built once and run again sees the conversation as it is then", () =>
    Effect.gen(function*() {
      const messages: Array<Message.Message> = [Message.user("hi")]
      const validate = Conversation.validate(messages)
      const validateFor = Conversation.validateFor("openai-chat")(messages)
      yield* validate
      messages.push(Message.user("hello?"))
      expect((yield* Effect.flip(validate))._tag).toBe("ConsecutiveRole")
      expect((yield* Effect.flip(validateFor))._tag).toBe("ConsecutiveRole")
    }))

  it("README: a Responses request that continues a stored response may open with a result (profileOptionsOf)", () => {
    const request = Request.make([Message.toolResultMessage("call_1", "", "sunny")], {
      model: "gpt-5",
      providerOptions: { "openai-responses": { previous_response_id: "resp_123" } }
    })
    expect(Conversation.issuesFor("openai-responses", request.messages, Conversation.profileOptionsOf(request))).toEqual([])
    expect(Conversation.issuesFor("openai-responses", request.messages).map((i) => i._tag)).toContain("OrphanToolResult")
  })

  it("profileOptionsOf: no Anthropic thinking is off for a body read from Anthropic, adaptive for Claude 5; effort none makes reasoning items optional", () => {
    const of = (model: string, providerOptions?: Record<string, Record<string, Schema.Json>>, readFrom?: "anthropic") =>
      Conversation.profileOptionsOf(Request.make([Message.user("hi")], { model, ...(providerOptions === undefined ? {} : { providerOptions }) }), readFrom === undefined ? undefined : { readFrom })
    expect(of("claude-sonnet-4-5", undefined, "anthropic")).toEqual({ model: "claude-sonnet-4-5", thinking: false })
    expect(of("claude-opus-5", undefined, "anthropic")).toEqual({ model: "claude-opus-5", thinking: true, thinkingMode: "adaptive" })
    expect(of("claude-opus-5")).toEqual({ model: "claude-opus-5", thinking: true, thinkingMode: "adaptive" })
    expect(of("claude-opus-5", { anthropic: { thinking: { type: "disabled" } } })).toEqual({ model: "claude-opus-5", thinking: false })
    expect(of("gpt-5", { "openai-responses": { reasoning: { effort: "none" } } })).toEqual({ model: "gpt-5", reasoningItems: "optional" })
    expect(of("gpt-5.4", { "openai-responses": { reasoning: { effort: "low" } } })).toEqual({ model: "gpt-5.4", reasoningItems: "required" })
    expect(of("gpt-5", { "openai-responses": { store: false, conversation: "conv_1" } })).toEqual({ model: "gpt-5", store: false, continues: true })
  })

  it("ProfileOptions.thinking: without it, thinking is on when an assistant message holds thinking; thinkingMode alone turns it on; thinking: false wins", () => {
    const loop = [Message.user("Weather?"), Message.assistant([Block.toolCall("c1", "weather")]), Message.toolResultMessage("c1", "weather", "12°C")]
    const earlier = [Message.user("Hi"), Message.assistant([Block.thinking("Greet.", "EqQBCkgIARAB"), Block.text("Hello!")]), ...loop]
    const tags = (messages: ReadonlyArray<Message.Message>, options?: Conversation.ProfileOptions) => Conversation.issuesFor("anthropic", messages, options).map((i) => i._tag)
    expect(tags(loop)).toEqual([])
    expect(tags(earlier)).toEqual(["ThinkingNotFirst"])
    expect(tags(loop, { thinkingMode: "enabled" })).toEqual(["ThinkingNotFirst"])
    expect(tags(loop, { thinkingMode: "adaptive" })).toEqual([])
    expect(tags(earlier, { thinking: false, thinkingMode: "enabled" })).toEqual([])
  })

  it("PrefillNotSupported: Claude Opus and Sonnet 4.6 and every later Claude model; not 4.5 and before", () => {
    const prefill = [Message.user("Give JSON"), Message.assistant("{")]
    const rejects = (model: string) => Conversation.issuesFor("anthropic", prefill, { model }).some((i) => i._tag === "PrefillNotSupported")
    expect(["claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-7", "claude-sonnet-5", "claude-haiku-5"].map(rejects)).toEqual([true, true, true, true, true])
    expect(["claude-sonnet-4-5", "claude-opus-4-1", "claude-3-7-sonnet-latest"].map(rejects)).toEqual([false, false, false])
  })

  it("EmptyTextBlock: Anthropic rejects text that is empty or only whitespace, in tool results too", () => {
    for (const text of ["", " ", "\n\t "]) {
      expect(Conversation.issuesFor("anthropic", [Message.user([Block.text(text)])]).map((i) => i._tag)).toEqual(["EmptyTextBlock"])
    }
    const inResult = [
      Message.user("Run it."),
      Message.assistant([Block.toolCall("c1", "run")]),
      Message.tool([Block.toolResult("c1", "run", [Block.text(" ")])])
    ]
    expect(Conversation.issuesFor("anthropic", inResult).map((i) => i._tag)).toEqual(["EmptyTextBlock"])
  })

  it("InvalidConversation shows the first 5 issues and counts the rest; MessageDecodeError counts the problems after the first", () => {
    const users = Array.from({ length: 8 }, (_, i) => Message.user(`${i}`))
    const error = Effect.runSync(Effect.flip(Conversation.validateAll(users)))
    expect(error.message.startsWith("7 issues: messages[1]: two user messages in a row")).toBe(true)
    expect(error.message.endsWith("; and 2 more")).toBe(true)
    expect(error.message.split("two user messages in a row").length - 1).toBe(5)
    const decode = (n: number) => failureOf({ role: "user", content: Array.from({ length: n }, () => ({ _tag: "Text", text: 42 })) }).message
    expect([decode(1), decode(2), decode(3)]).toEqual([
      "content[0].text: Expected string",
      "content[0].text: Expected string (and 1 more problem)",
      "content[0].text: Expected string (and 2 more problems)"
    ])
  })
})

describe("rendering: transcriptOf, blockToText and truncate as their docs say", () => {
  it("transcriptOf: one Role: text entry per message, tool traffic rendered", () => {
    const transcript = Message.transcriptOf([
      Message.user("What is the weather in Oslo?"),
      Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }]),
      Message.toolResultMessage("c1", "weather", "12°C")
    ], { maxResultLength: 200 })
    expect(transcript).toBe("User: What is the weather in Oslo?\nAssistant: [tool call weather({\"city\":\"Oslo\"})]\nTool: [tool result weather: 12°C]")
  })

  it("RenderOptions: arguments cut at 200 and results at 500 by default, with \"…\"; thinking left out unless asked for", () => {
    const long = "x".repeat(1000)
    const args = Block.blockToText(Block.toolCall("c1", "f", { q: long }))
    expect(args).toBe(`[tool call f(${JSON.stringify({ q: long }).slice(0, 200)}…)]`)
    expect(Block.blockToText(Block.toolResult("c1", "f", long))).toBe(`[tool result f: ${long.slice(0, 500)}…]`)
    expect(Block.blockToText(Block.toolResult("c1", "f", long), { maxResultLength: 10 })).toBe(`[tool result f: ${long.slice(0, 10)}…]`)
    expect([Block.blockToText(Block.thinking("Look it up.")), Block.blockToText(Block.thinking("Look it up."), { includeThinking: true })]).toEqual(["", "[thinking: Look it up.]"])
  })

  it.prop("truncate: at most max code units before the \"…\", a prefix of the text, never half a character; text that fits is kept whole", [Arb.text, Arb.intBetween(0, 40)], ([text, max]) => {
    const cut = Block.truncate(text, max)
    if (text.length <= max) expect(cut).toBe(text)
    else {
      expect(cut.endsWith("…")).toBe(true)
      const kept = cut.slice(0, -1)
      expect(kept.length).toBeLessThanOrEqual(max)
      expect(text.startsWith(kept)).toBe(true)
      expect(/[\uD800-\uDBFF]$/.test(kept)).toBe(false)
    }
  }, { arbitrary: { runs: 300 } })
})

describe("Block.argsText: the text the adapters send", () => {
  it("a call whose args were edited after it was read (a redacted password) gives its new args, not the text it was read with", () => {
    const edited = Block.toolCall("c1", "login", { user: "ada", password: "[redacted]" }, { rawArgs: '{ "user": "ada", "password": "hunter2" }' })
    expect(Block.argsText(edited)).toBe('{"user":"ada","password":"[redacted]"}')
    // kept text that still gives the args, and broken text the args were repaired from, go as they came
    expect(Block.argsText(Block.toolCall("c2", "login", { user: "ada" }, { rawArgs: '{ "user": "ada" }' }))).toBe('{ "user": "ada" }')
    expect(Block.argsText(Block.toolCall("c3", "weather", { city: "Osl" }, { rawArgs: '{"city": "Osl', parseError: "Unterminated string in JSON" }))).toBe('{"city": "Osl')
  })

  it("an estimate counts the text that is sent: an edited call costs what a call built with its new args does", () => {
    const edited = Block.toolCall("c1", "login", { password: "[redacted]" }, { rawArgs: '{ "password": "a much longer secret that was typed in full" }' })
    const fresh = Block.toolCall("c1", "login", { password: "[redacted]" })
    const total = (call: Block.ToolCallBlock) => Lib.TokenEstimator.heuristic.estimateRequest(Request.make([Message.user("hi"), Message.assistant([call])])).total
    expect(total(edited)).toBe(total(fresh))
  })

  it.prop("argsText is what OpenAI's adapters send (ToolArguments.toText), for calls as read and as edited", [Arb.toolCallBlock, Arb.args], ([call, other]) => {
    const edited = Block.freeze(new Block.ToolCallBlock({ ...call, args: other }))
    for (const c of [call, edited]) expect(Block.argsText(c)).toBe(Providers.ToolArguments.toText(c))
  }, { arbitrary: { runs: 300 } })
})

describe("README: the example and the turns", () => {
  it.effect("the example conversation (parallel calls answered out of order) round-trips through JSONL and is valid", () =>
    Effect.gen(function*() {
      const conversation = [
        Message.system("You are a travel assistant."),
        Message.user([Block.text("Weather in Oslo and Tokyo? Here is my itinerary."), Block.document("https://example.com/trip.pdf")]),
        Message.assistant([
          Block.thinking("Two cities, two parallel calls.", "EqQBCkgIARAB"),
          Block.toolCall("call_1", "get_weather", { city: "Oslo" }),
          Block.toolCall("call_2", "get_weather", { city: "Tokyo" })
        ]),
        Message.toolResultMessage("call_2", "get_weather", [Block.json({ celsius: 18, sky: "rain" })]),
        Message.toolResultMessage("call_1", "get_weather", "4°C, dry"),
        Message.assistantMessage("Oslo is dry at 4°C; Tokyo rainy at 18°C.")
      ]
      const restored = yield* Conversation.decodeJsonl(Conversation.encodeJsonl(conversation))
      expect(restored).toEqual(conversation)
      yield* Conversation.validate(restored)
      for (const provider of providers) expect(Conversation.issuesFor(provider, restored), provider).toEqual([])
    }))

  it("a turn is one non-tool message and the tool messages right after it, a system reminder between two results included; the calls still to run", () => {
    const history = [
      Message.user("Compare the two files."),
      Message.assistant([Block.toolCall("a", "read_file", { path: "a.ts" }), Block.toolCall("b", "read_file", { path: "b.ts" })]),
      Message.toolResultMessage("a", "read_file", "export const a = 1")
    ]
    expect(Conversation.turnsOf(history).map((t) => [t.start, t.end, t.calls.length, t.results.length, t.unanswered.map((c) => c.call.id)])).toEqual([
      [0, 1, 0, 0, []],
      [1, 3, 2, 1, ["b"]]
    ])
    expect(Conversation.pendingToolCalls(history).map((ref) => ref.call.id)).toEqual(["b"])
    const withReminder = [...history, Message.system("Keep it short."), Message.toolResultMessage("b", "read_file", "export const b = 2"), Message.assistant("Both export a constant.")]
    expect(Conversation.turnsOf(withReminder).map((t) => [t.start, t.end, t.unanswered.length])).toEqual([[0, 1, 0], [1, 5, 0], [5, 6, 0]])
    expect(Conversation.pendingToolCalls(withReminder)).toEqual([])
  })
})

// ---------------------------------------------------------------------------
// the command line (src/cli, README "The command line")
// ---------------------------------------------------------------------------

const cli = cliHarness("docclaims2")
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8")
const commands = ["check", "tokens", "trim", "repair", "convert"] as const

/** The flags a command's `--help` lists, each with its choices when it has some. */
const helpFlags = (command: string): Map<string, ReadonlyArray<string> | undefined> => {
  const help = cli.run([command, "--help"]).stdout
  const section = help.slice(help.indexOf("\nFLAGS\n"), help.indexOf("\nGLOBAL FLAGS\n"))
  const flags = new Map<string, ReadonlyArray<string> | undefined>()
  for (const line of section.split("\n")) {
    const m = line.match(/^ {2}(--[a-z-]+) /)
    if (m === null) continue
    const choices = line.match(/\(choices: ([^)]*)\)$/)
    flags.set(m[1]!, choices === null ? undefined : choices[1]!.split(", "))
  }
  return flags
}

describe("the command line: what its docs and the README say it does", () => {
  it("the README's synopsis lists every flag of each command's --help, and the choices it lists are the help's", () => {
    const synopsis = readme.slice(readme.indexOf("## The command line"), readme.indexOf("`FILE` may be `-`"))
    for (const command of commands) {
      const line = synopsis.split("\n").find((l) => l.startsWith(`agent-messages ${command} FILE`))
      assert(line !== undefined, command)
      const listed = new Map([...line.matchAll(/(--[a-z-]+)(?: ([a-z0-9_|-]+))?/g)].map((m) => [m[1]!, m[2]?.includes("|") ? m[2].split("|") : undefined]))
      const flags = helpFlags(command)
      expect([...listed.keys()].sort(), command).toEqual([...flags.keys()].sort())
      for (const [flag, choices] of listed) {
        // an input format's `auto` is the default the synopsis leaves out
        if (choices !== undefined) expect(choices, `${command} ${flag}`).toEqual(flags.get(flag)?.filter((c) => c !== "auto"))
      }
    }
  }, 180_000)

  it("no command's --help describes its flags in another command's terms", () => {
    for (const command of commands) {
      const help = cli.run([command, "--help"]).stdout
      const flags = help.slice(help.indexOf("\nFLAGS\n"), help.indexOf("\nGLOBAL FLAGS\n"))
      // "tokens" is also a word of the descriptions
      for (const other of commands.filter((c) => c !== command && c !== "tokens")) expect(flags, `${command} --help`).not.toMatch(new RegExp(`\\b${other}\\b`))
    }
  }, 180_000)

  it("the README's transcript of the example files is what the commands print (stderr, then stdout unless redirected)", () => {
    const block = readme.match(/```sh\n(\$ agent-messages check examples\/[\s\S]*?)```/)?.[1]
    assert(block !== undefined)
    const runs = block.split(/^\$ /m).filter((part) => part !== "")
    expect(runs.length).toBe(4)
    for (const part of runs) {
      const [commandLine, ...shown] = part.replace(/\n$/, "").split("\n")
      const [command, redirect] = commandLine!.split(" > ")
      const args = command!.split(" ").slice(1)
      const r = cli.run(args)
      const lines = (text: string) => text.split("\n").filter((l) => l !== "")
      expect([...lines(r.stderr), ...(redirect === undefined ? lines(r.stdout) : [])], commandLine).toEqual(shown)
    }
  }, 180_000)

  it("the exit codes the module doc gives: 0 done, 1 issues found or a job that cannot be done, 2 unreadable input or a bad command line", () => {
    const log = path.join("examples", "transcripts", "interrupted-tool-call.jsonl")
    const valid = cli.file("valid.json", [{ role: "user", content: "hi" }, { role: "assistant", content: "Hello!" }])
    const systemOnly = cli.file("system-only.json", [{ role: "system", content: "Be brief." }])
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, number]> = [
      [["check", valid], 0],
      [["check", log], 1],
      [["trim", log, "--budget", "1"], 1],
      [["repair", systemOnly], 1],
      [["check", path.join(cli.work, "missing.json")], 2],
      [["check", log, "--bogus"], 2],
      [["trim", log], 2]
    ]
    for (const [args, code] of cases) {
      const r = cli.run(args)
      expect([args.join(" "), r.code], r.stderr).toEqual([args.join(" "), code])
      if (code === 2) {
        expect(r.stdout, args.join(" ")).toBe("")
        expect(r.stderr, args.join(" ")).not.toMatch(/\n\s+at /)
      }
      if (code === 1 && args[0] !== "check") expect(r.stdout, args.join(" ")).toBe("")
    }
  }, 180_000)

  it("tokens: canonical input is counted as OpenAI Chat bills it, a Gemini body with the heuristic fitted for Gemini", () => {
    const canonical = cli.file("canonical.json", { messages: [{ role: "user", content: [{ _tag: "Text", text: "Weather in Oslo and 東京 tomorrow?" }] }] })
    expect(cli.run(["tokens", canonical]).stdout).toMatch(/\(heuristic, openai-chat\)\n$/)
    const gemini = cli.file("gemini.json", { contents: [{ role: "user", parts: [{ text: "Weather in Oslo and 東京 tomorrow? Answer briefly, with the temperature in Celsius." }] }] })
    const totalOf = (args: ReadonlyArray<string>) => (JSON.parse(cli.run(["tokens", gemini, "--json", ...args]).stdout) as { total: number }).total
    expect(totalOf([])).toBe(totalOf(["--estimator", "gemini"]))
    expect(totalOf(["--provider", "openai-chat"])).not.toBe(totalOf([]))
  }, 180_000)

  it("trim --provider: by default the output format's, and for canonical output the input's", () => {
    const chat = JSON.parse(fs.readFileSync(path.join(root, "examples", "transcripts", "support-chat-zh-en.json"), "utf8")) as unknown
    const gemini = cli.file("support-gemini.json", JSON.parse(cli.run(["convert", cli.file("support-chat.json", chat), "--to", "gemini"]).stdout))
    const said = (args: ReadonlyArray<string>) => cli.run(["trim", gemini, "--budget", "300", ...args]).stderr
    const asGemini = said(["--to", "canonical", "--provider", "gemini"])
    expect(said(["--to", "canonical"])).toBe(asGemini)
    expect(said(["--to", "canonical", "--provider", "openai-chat"])).not.toBe(asGemini)
    expect(said(["--to", "openai-chat"])).toBe(said(["--to", "openai-chat", "--provider", "openai-chat"]))
  }, 180_000)

  it("input shapes: plain role and content lines are canonical JSONL and stay JSONL; a plain list is Chat; a Chat log's JSONL is written as its list", () => {
    const plain = [{ role: "user", content: "hi" }, { role: "assistant", content: "Hello!" }]
    const jsonl = plain.map((m) => JSON.stringify(m)).join("\n") + "\n"
    const fromLines = cli.run(["repair", "-"], jsonl)
    expect(fromLines.stderr).toBe("agent-messages: read standard input as canonical (JSONL)\n0 changes\n")
    expect(fromLines.stdout.split("\n").filter((l) => l !== "").map((l) => (JSON.parse(l) as { role: string }).role)).toEqual(["user", "assistant"])
    expect(cli.run(["check", "-"], JSON.stringify(plain)).stderr).toBe("agent-messages: read standard input as openai-chat\n")
    const chatLog = [
      { role: "user", content: "hi" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "done" }
    ].map((m) => JSON.stringify(m)).join("\n")
    const fromChatLog = cli.run(["repair", "-"], chatLog)
    expect(fromChatLog.stderr.split("\n")[0]).toBe("agent-messages: read standard input as openai-chat (JSONL)")
    expect((JSON.parse(fromChatLog.stdout) as Array<{ role: string }>).map((m) => m.role)).toEqual(["user", "assistant", "tool"])
  }, 180_000)
})
