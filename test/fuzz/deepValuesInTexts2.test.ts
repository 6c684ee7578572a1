/**
 * Messages built from values given in code: a value nested 20,000 levels deep
 * (deeper than `JSON.stringify` can write), a 10 MB string, a cycle, an
 * object with no `toString` or a throwing getter, put where an API takes a
 * value it may show (effect/ai Prompt options and response parts, tokenizer
 * limits, provider names, tool definitions, request settings, fit options).
 * Each is a success or a typed failure (never a throw or a defect), and each
 * warning's and error's `message` is readable, bounded, and names the start
 * of the value it shows.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Schema } from "effect"
import { Prompt, type Response } from "effect/ai"
import { Block, Conversation, Message, MessageWindow, type Provider, Repair, Request, TokenEstimator } from "../../src/index.js"
import { Anthropic, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import * as Payloads from "../providers/fixtures/adapterPayloads.js"
import { deepValue, getAt, pathsOf, updateAt } from "./generators.js"

const LEVELS = 20_000
const deepObject = deepValue(LEVELS, "object") as Block.JsonObject
const deepArray = deepValue(LEVELS, "array")
const huge = "x".repeat(10_000_000)
const MAX_MESSAGE = 2_000

const json = <A>(u: A): A => JSON.parse(JSON.stringify(u)) as A

type Step = Effect.Effect<unknown, unknown>

/** Why a warning or an error cannot be read as a message, or undefined. */
const unreadableOf = (error: unknown): string | undefined => {
  try {
    const tag = (error as { readonly _tag?: unknown })._tag
    const message = (error as { readonly message?: unknown }).message
    if (typeof message !== "string" || message === "") return `${String(tag)} has no message`
    if (message.length > MAX_MESSAGE) return `${String(tag)}'s message is ${message.length} characters long`
    if (message.includes("[object Object]") || message.includes("[unprintable]")) return `${String(tag)}'s message shows no value: ${message.slice(0, 200)}`
    return undefined
  } catch (cause) {
    return `reading its message threw ${String(cause)}`
  }
}

/** What went wrong in one step, or undefined: a throw, a defect, or a message that cannot be read. */
const problemOf = (run: () => Step): { readonly problem?: string; readonly value?: unknown } => {
  let exit: Exit.Exit<unknown, unknown>
  try {
    exit = Effect.runSyncExit(run())
  } catch (cause) {
    return { problem: `threw ${String(cause).slice(0, 200)}` }
  }
  if (Exit.isFailure(exit)) {
    if (Cause.hasDies(exit.cause)) {
      const die = exit.cause.reasons.find((r) => r._tag === "Die")
      return { problem: `died: ${die?._tag === "Die" ? String(die.defect).slice(0, 200) : "?"}` }
    }
    const fail = exit.cause.reasons.find((r) => r._tag === "Fail")
    const unreadable = unreadableOf(fail?._tag === "Fail" ? fail.error : undefined)
    return unreadable === undefined ? {} : { problem: `its failure: ${unreadable}` }
  }
  const warnings = (exit.value as { readonly warnings?: unknown } | undefined)?.warnings
  if (Array.isArray(warnings)) {
    for (const w of warnings as ReadonlyArray<unknown>) {
      const unreadable = unreadableOf(w)
      if (unreadable !== undefined) return { problem: `a warning: ${unreadable}` }
    }
  }
  return { value: exit.value }
}

/** The messages of the warnings of a conversion. */
const messagesOf = (converted: { readonly warnings: ReadonlyArray<{ readonly message: string }> }): Array<string> => converted.warnings.map((w) => w.message)

/** Asserts that a message is short and names the value by its start. */
const assertShows = (message: string, start: string) => {
  assert.isAtMost(message.length, 400, message.slice(0, 200))
  assert.include(message, start)
  assert.notInclude(message, "[object Object]")
  assert.notInclude(message, "[unprintable]")
}

/** The values given in code that a message may have to show, with the start it should show of each. */
const hostileValues: ReadonlyArray<readonly [string, unknown, string]> = [
  ["a 20,000-level object", deepObject, `{"a":{"a":{"a":`],
  ["a 20,000-level array", deepArray, "[[[[[[[[[["],
  ["a 10 MB string", huge, `"xxxxxxxxxx`],
  ["an object holding a 10 MB string", { s: huge }, `{"s":"xxxxxxxxxx`]
]

const providers: ReadonlyArray<Provider.Provider> = ["openai-chat", "openai-responses", "anthropic", "gemini"]
const windowLayer = MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))

describe("A value given in code is shown in a message by its start, bounded, however deep or long", () => {
  it("Block.safeStringify writes a value too deep for JSON.stringify as its JSON, and keeps its fallback for a cycle", () => {
    const object = Block.safeStringify(deepObject)
    assert.isTrue(object.startsWith(`{"a":{"a":{"a":`), object.slice(0, 40))
    assert.include(object, `{"a":"leaf"}}}`)
    assert.strictEqual(object.length, `{"a":`.length * LEVELS + `"leaf"`.length + LEVELS)
    const array = Block.safeStringify(deepArray)
    assert.isTrue(array.startsWith("[[[[[[[[[["), array.slice(0, 40))
    assert.strictEqual(Block.safeStringify({ n: 1, s: "a\ud800" }), JSON.stringify({ n: 1, s: "a\ud800" }))
    const cyclic: { self?: unknown } = {}
    cyclic.self = cyclic
    assert.strictEqual(Block.safeStringify(cyclic), "[object Object]")
  })

  it.effect("EffectAi.toPrompt: a Prompt's option record that is no object, displaced by the block's own options, is reported by its start", () =>
    Effect.gen(function* () {
      for (const [name, value, start] of hostileValues) {
        const block = Block.text("hi", { providerOptions: { "effect-ai": { $options: { openai: value as Block.JsonObject } }, openai: { x: 1 } } })
        const { warnings } = yield* EffectAi.toPrompt([Message.user([block])])
        assert.strictEqual(warnings.length, 1, name)
        assertShows(warnings[0]!.message, start)
        assert.include(warnings[0]!.message, `under "openai"`)
      }
    }))

  it.effect("EffectAi.fromResponseParts: an error part is reported by its start (an Error by its message), a source by its name", () =>
    Effect.gen(function* () {
      const part = (p: object) => ({ ...p, "~effect/ai/Response/Part": "~effect/ai/Response/Part", metadata: {} }) as unknown as Response.AnyPart
      const cyclic: { self?: unknown; n: number } = { n: 1 }
      cyclic.self = cyclic
      const errors: ReadonlyArray<readonly [unknown, string]> = [
        ...hostileValues.map(([, value, start]) => [value, start] as const),
        [new TypeError("the stream broke"), "TypeError: the stream broke"],
        [new Error(huge), "Error: xxxxxxxxxx"],
        [cyclic, `{"n":1,"self":`],
        [Object.create(null) as object, "{}"]
      ]
      for (const [error, start] of errors) {
        const converted = yield* EffectAi.fromResponseParts([part({ type: "error", error })])
        assert.strictEqual(converted.warnings.length, 1)
        assertShows(messagesOf(converted)[0]!, start)
      }
      const sources = yield* EffectAi.fromResponseParts([
        part({ type: "source", sourceType: "document", id: "s1", mediaType: "text/plain", title: huge }),
        part({ type: "source", sourceType: "url", id: "s2", url: new URL(`https://example.com/${huge}`), title: "t" })
      ])
      assert.strictEqual(sources.warnings.length, 2)
      assertShows(messagesOf(sources)[0]!, `"xxxxxxxxxx`)
      assertShows(messagesOf(sources)[1]!, `"https://example.com/xxxx`)
    }))

  it.effect("EffectAi tokenizer: a limit from untyped code that is no number is refused with its start shown", () =>
    Effect.gen(function* () {
      const tokenizer = EffectAi.makeTokenizer(yield* TokenEstimator.TokenEstimator)
      for (const [name, value, start] of hostileValues) {
        const exit = yield* Effect.exit(tokenizer.truncate(Prompt.make("hi"), value as number))
        assert.isTrue(Exit.isFailure(exit) && !Cause.hasDies(exit.cause), name)
        const error = yield* Effect.flip(tokenizer.truncate(Prompt.make("hi"), value as number))
        assert.strictEqual(error.reason._tag, "InvalidUserInputError")
        assertShows(error.message, `got ${start}`)
      }
    }).pipe(Effect.provide(TokenEstimator.layer)))

  it.effect("EffectAi.fromPrompt and the tokenizer: a value from untyped code that is no Prompt is a typed failure, not a defect", () =>
    Effect.gen(function* () {
      for (const notPrompt of [deepObject, {}, null, { content: deepArray }, { content: huge }]) {
        const read = yield* Effect.exit(EffectAi.fromPrompt(notPrompt as never))
        assert.isTrue(Exit.isFailure(read) && !Cause.hasDies(read.cause), String(read))
        const error = yield* Effect.flip(EffectAi.fromPrompt(notPrompt as never))
        assert.strictEqual(error._tag, "MalformedPayload")
        assert.isAtMost(error.message.length, 400)
      }
      const tokenizer = EffectAi.makeTokenizer(yield* TokenEstimator.TokenEstimator)
      const counted = yield* Effect.exit(tokenizer.tokenize(deepObject as never))
      assert.isTrue(Exit.isFailure(counted) && !Cause.hasDies(counted.cause), String(counted).slice(0, 200))
    }).pipe(Effect.provide(TokenEstimator.layer)))

  it("EffectAi.toToolkit: a tool's name and provider 10 MB long are shown clipped", () => {
    const { warnings } = EffectAi.toToolkit([
      Request.tool(huge, { description: "first" }),
      Request.tool(huge, { description: "second" }),
      Request.providerTool("web", huge, "web_search"),
      Request.tool("f", { providerOptions: { [huge]: { x: 1 } } })
    ])
    assert.strictEqual(warnings.length, 3)
    for (const message of warnings.map((w) => w.message)) assert.isAtMost(message.length, 400, message.slice(0, 100))
    assert.include(warnings[0]!.message, `the tool "web" that xxxxxxxxxx`)
    assert.include(warnings[1]!.message, `an earlier tool named "xxxxxxxxxx`)
    assert.include(warnings[2]!.message, `what the tool "f" carries for xxxxxxxxxx`)
  })

  it("an unknown provider from untyped code is a programming error named in a bounded message, however deep", () => {
    const messages = [Message.user("hi")]
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [deepArray, "unknown provider [[[[[[[[[["],
      [deepObject, `unknown provider {"a":{"a":`],
      [huge, `unknown provider "xxxxxxxxxx`],
      // `String` of an object with no prototype throws a TypeError of its own
      [Object.create(null) as object, "unknown provider {}"]
    ]
    for (const [provider, start] of cases) {
      let thrown: unknown
      try {
        Conversation.issuesFor(provider as Provider.Provider, messages)
      } catch (cause) {
        thrown = cause
      }
      assert.instanceOf(thrown, Error)
      const message = (thrown as Error).message
      assert.isTrue(message.startsWith(start), message.slice(0, 100))
      assert.isAtMost(message.length, 200)
      assert.include(message, "expected one of openai-chat, openai-responses, anthropic, gemini")
      const exit = Effect.runSyncExit(Repair.repairFor(provider as Provider.Provider)(messages))
      const die = Exit.isFailure(exit) ? exit.cause.reasons.find((r) => r._tag === "Die") : undefined
      assert.isTrue(die?._tag === "Die" && die.defect instanceof Error && die.defect.message.startsWith(start))
    }
  })
})

describe("A 10 MB id or name from a conversation is named clipped in an issue's message", () => {
  it("issuesFor: duplicate, unanswered, orphaned and malformed tool calls with 10 MB ids and names", () => {
    const id = "i".repeat(10_000_000)
    const conversations: ReadonlyArray<ReadonlyArray<Message.Message>> = [
      [Message.user("q"), Message.assistant([Block.toolCall(id, "f", {}), Block.toolCall(id, "f", {})]), Message.tool([Block.toolResult(id, "f", "r")])],
      [Message.user("q"), Message.tool([Block.toolResult(id, huge, "r")])],
      [Message.user("q"), Message.assistant([Block.toolCall(id, huge, {}, { rawArgs: "[1", parseError: huge })]), Message.tool([Block.toolResult(id, huge, "r")])]
    ]
    const problems: Array<string> = []
    for (const [c, messages] of conversations.entries()) {
      for (const provider of providers) {
        for (const issue of Conversation.issuesFor(provider, messages)) {
          const unreadable = unreadableOf(issue)
          if (unreadable !== undefined) problems.push(`conversation ${c}, ${provider}: ${unreadable}`)
          else if (!issue.message.includes('"iiiiiiiiii') && !issue.message.includes("xxxxxxxxxx")) problems.push(`conversation ${c}, ${provider}: ${issue._tag} names no id: ${issue.message}`)
        }
      }
    }
    assert.deepStrictEqual(problems, [])
  })
})

// ---------------------------------------------------------------------------
// sweeps over the positions the first file's sweep did not cover
// ---------------------------------------------------------------------------

/** A path with each index named by the role or type of the element there: two positions alike read alike. */
const kindOfPath = (payload: unknown, path: ReadonlyArray<string | number>): string =>
  path
    .map((step, i) => {
      if (typeof step === "string") return step
      const element = getAt(payload, path.slice(0, i + 1)) as { readonly role?: unknown; readonly type?: unknown } | null
      return `[${typeof element === "object" && element !== null ? String(element.role ?? element.type ?? "") : ""}]`
    })
    .join(".")

/**
 * The payload with, at each position `where` accepts (one of each kind), a deep object, a deep array and a 10 MB
 * string in place of the value there, and a deep unknown field added to each object.
 */
const variants = (payload: unknown, where: (path: string) => boolean): Array<readonly [string, unknown]> => {
  const out: Array<readonly [string, unknown]> = []
  const seen = new Set<string>()
  for (const path of pathsOf(payload)) {
    const at = path.join(".")
    if (!where(at)) continue
    const like = kindOfPath(payload, path)
    if (seen.has(like)) continue
    seen.add(like)
    const node = getAt(payload, path)
    out.push([`${at} = {a:{a:...}}`, updateAt(payload, path, () => deepObject)])
    out.push([`${at} = [[...]]`, updateAt(payload, path, () => deepArray)])
    out.push([`${at} = "xxx..." (10 MB)`, updateAt(payload, path, () => huge)])
    if (typeof node === "object" && node !== null && !Array.isArray(node)) {
      out.push([`${at}.x_vendor_field = {a:{a:...}}`, updateAt(payload, path, (o) => ({ ...(o as object), x_vendor_field: deepObject }))])
      out.push([`${at}.${"k".repeat(40)}... (a 10 MB key) = 1`, updateAt(payload, path, (o) => ({ ...(o as object), [huge]: 1 }))])
    }
  }
  return out
}

const writers: ReadonlyArray<readonly [string, (r: Request.Request) => Step]> = [
  ["OpenAiChat.toRequest", (r) => OpenAiChat.toRequest(r)],
  ["OpenAiResponses.toRequest", (r) => OpenAiResponses.toRequest(r)],
  ["Anthropic.toRequest", (r) => Anthropic.toRequest(r, { maxTokens: 1024 })],
  ["Gemini.toRequest", (r) => Gemini.toRequest(r)],
  ["EffectAi.toPrompt", (r) => EffectAi.toPrompt(r.messages)],
  ["EffectAi.toToolkit", (r) => Effect.sync(() => EffectAi.toToolkit(r.tools ?? []))],
  ["MessageWindow.fitRequest", (r) => MessageWindow.fitRequest(r, 200, { strategy: ["clear_tool_results", "drop_oldest"] }).pipe(Effect.provide(windowLayer))]
]

describe("A deep or long value at a position the first sweep did not reach is never a defect or an unbounded message", () => {
  it("effect/ai Prompt options at every level, a call's params and a result: fromPrompt, the tokenizer, and every validation, repair and writer of what it read", () => {
    const prompts = [Payloads.chatParallelRequest, Payloads.anthropicThinkingRequest, Payloads.anthropicMediaRequest].map((payload) => {
      const read = payload === Payloads.chatParallelRequest ? OpenAiChat.fromRequest(json(payload) as never) : Anthropic.fromRequest(json(payload))
      const request = Effect.runSync(read).value
      return { request, prompt: json(Effect.runSync(EffectAi.toPrompt(request.messages)).value) }
    })
    const tokenizer = Effect.runSync(TokenEstimator.TokenEstimator.pipe(Effect.map(EffectAi.makeTokenizer), Effect.provide(TokenEstimator.layer)))
    const problems: Array<string> = []
    let count = 0
    for (const { prompt, request } of prompts) {
      const cases = variants(prompt, (at) => /(^|\.)(options|params|result)(\.|$)/.test(at))
      count += cases.length
      for (const [where, changed] of cases) {
        const { problem, value } = problemOf(() => EffectAi.fromPrompt(changed as never))
        if (problem !== undefined) problems.push(`${where}: fromPrompt: ${problem}`)
        const counted = problemOf(() => tokenizer.tokenize(changed as never)).problem
        if (counted !== undefined) problems.push(`${where}: tokenize: ${counted}`)
        if (value === undefined) continue
        const messages = (value as { readonly value: ReadonlyArray<Message.Message> }).value
        for (const provider of providers) {
          const validated = problemOf(() => Conversation.validateFor(provider)(messages)).problem
          if (validated !== undefined) problems.push(`${where}: validateFor(${provider}): ${validated}`)
          const repaired = problemOf(() => Repair.repairFor(provider)(messages)).problem
          if (repaired !== undefined) problems.push(`${where}: repairFor(${provider}): ${repaired}`)
        }
        const again = Request.make(messages, request.tools === undefined ? {} : { tools: request.tools })
        for (const [name, write] of writers) {
          const written = problemOf(() => write(again)).problem
          if (written !== undefined) problems.push(`${where}: ${name}: ${written}`)
        }
      }
    }
    assert.isAtLeast(count, 60)
    assert.deepStrictEqual(problems, [])
  }, 120_000)

  it("a request's tools, tool choice, response format and provider options: every writer, toToolkit and fitRequest", () => {
    const messages = [
      Message.system("Be brief."),
      Message.user("Weather in Oslo?"),
      Message.assistant([Block.toolCall("c1", "get_weather", { city: "Oslo" })]),
      Message.toolResultMessage("c1", "get_weather", "4 °C"),
      Message.assistant("4 °C")
    ]
    const settings = {
      tools: [
        { name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: true, providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } },
        { name: "web", providerDefined: { provider: "anthropic", type: "web_search_20250305", config: { max_uses: 2 } } },
        { name: "search", providerDefined: { provider: "openai", type: "web_search", config: { search_context_size: "low" } } }
      ],
      toolChoice: { _tag: "Tool", name: "get_weather" },
      responseFormat: { _tag: "JsonSchema", name: "weather", schema: { type: "object" }, strict: true },
      providerOptions: {
        "openai-chat": { tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [] } }, x: 1 },
        "openai-responses": { tool_choice: { type: "web_search_preview" }, text: { format: { type: "json_schema", name: "w" } } },
        anthropic: { tool_choice: { type: "auto" }, thinking: { type: "enabled", budget_tokens: 1024 } },
        gemini: { toolConfig: { functionCallingConfig: { mode: "ANY" } }, generationConfig: { responseSchema: { type: "OBJECT" } } }
      }
    }
    const problems: Array<string> = []
    const cases = variants(settings, (at) => at !== "" && !/^(tools|providerOptions)$/.test(at))
    assert.isAtLeast(cases.length, 60)
    for (const [where, changed] of cases) {
      let request: Request.Request
      try {
        const { tools, ...rest } = changed as { readonly tools?: ReadonlyArray<unknown> }
        const definitions = tools?.map((t) => Schema.decodeUnknownSync(Request.ToolDefinition)(t))
        request = Request.make(messages, { ...rest, ...(definitions === undefined ? {} : { tools: definitions }) } as never)
      } catch {
        // what the Request schema refuses (a tool name that is no string) never reaches a writer
        continue
      }
      for (const [name, write] of writers) {
        const written = problemOf(() => write(request)).problem
        if (written !== undefined) problems.push(`${where}: ${name}: ${written}`)
      }
    }
    assert.deepStrictEqual(problems, [])
  }, 120_000)

  it("MessageWindow.fit and fitRequest: every option given a value from untyped code is a success or InvalidFitOptions with a bounded message", () => {
    const cyclic: { self?: unknown } = {}
    cyclic.self = cyclic
    const values: ReadonlyArray<readonly [string, unknown]> = [
      ["a 20,000-level object", deepObject],
      ["a 20,000-level array", deepArray],
      ["a 10 MB string", huge],
      ["a list holding a 10 MB string", [huge]],
      ["a cycle", cyclic],
      ["an object with no prototype", Object.create(null)],
      ["an object whose getter throws", { get x() { throw new Error("no") } }],
      ["an object whose toJSON throws", { toJSON: () => { throw new Error("no") } }],
      // its JSON cut at 80 characters falls between the halves of the emoji
      ["a list whose text is cut inside an emoji", [`${"a".repeat(77)}\ud83d\ude00`, "more"]],
      ["a symbol", Symbol("s")],
      ["a BigInt", 10n]
    ]
    const options = ["strategy", "provider", "pin", "fixedTokens", "reserve", "keepToolResults", "summaryTokens", "profile", "summarize"]
    const messages = [Message.user("hi"), Message.assistant("hello")]
    const request = Request.make(messages)
    const problems: Array<string> = []
    for (const [name, value] of values) {
      type FitStep = () => Effect.Effect<unknown, unknown, MessageWindow.MessageWindow>
      const steps: ReadonlyArray<readonly [string, FitStep]> = [
        ["budget", () => MessageWindow.fit(messages, value as number)],
        ...options.flatMap((option): Array<readonly [string, FitStep]> => [
          [`fit ${option}`, () => MessageWindow.fit(messages, 100, { [option]: value } as never)],
          [`fitRequest ${option}`, () => MessageWindow.fitRequest(request, 100, { [option]: value } as never)],
          [`fit strategy [${option}]`, () => MessageWindow.fit(messages, 100, { strategy: [value] } as never)]
        ])
      ]
      for (const [what, run] of steps) {
        const { problem } = problemOf(() => run().pipe(Effect.provide(windowLayer)))
        if (problem !== undefined) problems.push(`${name} as ${what}: ${problem}`)
        const exit = Effect.runSyncExit(run().pipe(Effect.provide(windowLayer)))
        const fail = Exit.isFailure(exit) ? exit.cause.reasons.find((r) => r._tag === "Fail") : undefined
        const message = fail?._tag === "Fail" ? (fail.error as { readonly message: string }).message : ""
        if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(message)) problems.push(`${name} as ${what}: a lone surrogate in ${JSON.stringify(message.slice(-60))}`)
      }
    }
    assert.deepStrictEqual(problems, [])
  }, 120_000)
})
