/**
 * The concrete claims of the doc comments of the window, conversation,
 * repair, request, estimator and conversion modules, and of the README,
 * each checked as written: a figure an example shows, a message it quotes,
 * a "never" or an "always" (as a property where the claim is universal).
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { Arbitrary, Effect, Layer, Result, Schema } from "effect"
import { Block, Conversation, ConversationContext, Message, MessageWindow, Provider, Repair, Request, Summarizer, TokenEstimator } from "../src/index.js"
import { layerCl100k, layerO200k } from "../src/exact/index.js"
import * as Anthropic from "../src/providers/Anthropic.js"
import * as Conversion from "../src/providers/Conversion.js"
import * as OpenAiChat from "../src/providers/OpenAiChat.js"
import * as Arb from "./arbitraries.js"
import * as Req from "./requestArbitraries.js"
import { allStrategies, estimator, fitRequestSync, fitSync, window, windowWithoutSummarizer } from "./windowCheck.js"

describe("Conversion: the warning and error messages the examples quote", () => {
  it.effect("DroppedContent: Chat Completions leaves thinking out, saying how to send it the DeepSeek way", () =>
    Effect.gen(function*() {
      const { warnings } = yield* OpenAiChat.toMessages([Message.user("hi"), Message.assistant([Block.thinking("Greet back."), Block.text("Hello!")])])
      expect(warnings.map((w) => w.message)).toEqual([
        'messages[1].content[0]: thinking was left out: Chat Completions has no reasoning content (reasoning: "reasoning_content" sends it the DeepSeek way)'
      ])
    }))

  it.effect("RepairedToolArguments: single-quoted arguments are repaired and the text kept in rawArgs", () =>
    Effect.gen(function*() {
      const { warnings } = yield* OpenAiChat.fromMessages([
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: "{'q': 'effect'}" } }] }
      ])
      const w = warnings[0]
      assert(w?._tag === "RepairedToolArguments")
      expect(w.rawArgs).toBe("{'q': 'effect'}")
    }))

  it.effect("ConvertedContent: a JSON tool result is sent to Chat Completions as text, the only warning", () =>
    Effect.gen(function*() {
      const { warnings } = yield* OpenAiChat.toMessages([
        Message.user("Weather?"),
        Message.assistantMessage("", [{ id: "c1", name: "weather" }]),
        Message.tool(Block.toolResult("c1", "weather", [Block.json({ celsius: 12 })]))
      ])
      expect(warnings.map((w) => w._tag)).toEqual(["ConvertedContent"])
    }))

  it("UnknownProviderField: the message names the path and that it was kept", () => {
    const warning = new Conversion.UnknownProviderField({ path: "choices[0].message.audio_meta", kept: true })
    expect(warning.message).toBe("unknown provider field choices[0].message.audio_meta was kept as provider data")
  })

  it.effect("RejectedToolName: Anthropic takes no dot in a tool name, and the message says so", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("Read the README.")], { tools: [Request.tool("files.read")] })
      const { warnings } = yield* Anthropic.toRequest(request, { maxTokens: 1024 })
      expect(warnings.map((w) => w.message)).toEqual([
        'the tool name "files.read" was written as it is, but Anthropic takes 1 to 128 letters, digits, _ and -: the provider rejects the request until the tool is renamed'
      ])
    }))

  it.effect("MissingRequiredField: Anthropic's max_tokens is not made up", () =>
    Effect.gen(function*() {
      const { warnings } = yield* Anthropic.toRequest(Request.make([Message.user("hi")], { model: "claude-sonnet-4-5" }))
      expect(warnings.map((w) => w.message)).toEqual([
        "the required field max_tokens was not written: the Messages API rejects a request without it; set the request's maxOutputTokens or the maxTokens option"
      ])
    }))

  it.effect("RejectedSetting: a temperature other than 1 with extended thinking is written as it is, and reported", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("Weather in Oslo?")], {
        model: "claude-sonnet-4-5",
        maxOutputTokens: 4096,
        providerOptions: { anthropic: { thinking: { type: "enabled", budget_tokens: 2048 }, temperature: 0.2 } }
      })
      const { value, warnings } = yield* Anthropic.toRequest(request)
      expect(warnings.map((w) => w.message)).toEqual([
        "temperature 0.2 was written as it is, but Anthropic takes only temperature 1 with extended thinking on, so the provider rejects the request"
      ])
      expect((value as unknown as { temperature: unknown }).temperature).toBe(0.2)
    }))

  it.effect("UnsupportedContent: strict conversion fails with the warning it would have reported", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        OpenAiChat.toMessages([Message.user("hi"), Message.assistant([Block.thinking("Greet back."), Block.text("Hello!")])], { strict: true })
      )
      expect([error._tag, error._tag === "UnsupportedContent" ? error.warning._tag : undefined]).toEqual(["UnsupportedContent", "DroppedContent"])
    }))

  it.effect("InvalidToolArguments: strict tool arguments fail, keeping the provider's text", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(OpenAiChat.fromMessages(
        [{ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: '{"q": "eff' } }] }],
        { toolArguments: "strict" }
      ))
      assert(error._tag === "InvalidToolArguments")
      expect(error.rawArgs).toBe('{"q": "eff')
    }))

  it.effect("MalformedPayload: a user message without content names the path and what is missing", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Anthropic.fromMessages({ messages: [{ role: "user" }] }))
      expect([error._tag, error.message]).toEqual(["MalformedPayload", "not a valid anthropic payload at messages[0].content: expected a string or an array, got nothing"])
    }))

  it.effect("DecodedResponse: the response's other fields are kept as provider data", () =>
    Effect.gen(function*() {
      const { value } = yield* OpenAiChat.fromResponse({
        id: "chatcmpl-1", object: "chat.completion", created: 1700000000, model: "gpt-4o",
        choices: [{ index: 0, message: { role: "assistant", content: "Hello!", refusal: null }, finish_reason: "stop", logprobs: null }],
        system_fingerprint: "fp_1"
      })
      expect([value.id, value.providerFinishReason, value.providerData]).toEqual([
        "chatcmpl-1", "stop", { object: "chat.completion", created: 1700000000, system_fingerprint: "fp_1", choice: { logprobs: null } }
      ])
    }))

  it.effect("IncompleteResponse: a stream without a finish reason fails with what arrived", () =>
    Effect.gen(function*() {
      const cut = [{ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1700000000, model: "gpt-4o", choices: [{ index: 0, delta: { role: "assistant", content: "The answer is" } }] }] as const
      const error = yield* Effect.flip(OpenAiChat.fromEvents(cut))
      assert(error._tag === "IncompleteResponse")
      expect(error.cut).toEqual(["choice 0 has no finish_reason"])
      expect(error.partial === undefined ? undefined : Message.textOf(error.partial.message)).toBe("The answer is")
    }))
})

describe("TokenEstimator: the figures the examples show", () => {
  it("the constants and text rules give the figures their examples show", () => {
    expect(TokenEstimator.estimateOpaqueData("A".repeat(1600))).toBe(300)
    expect(TokenEstimator.estimateEncryptedReasoning("A".repeat(1100))).toBe(45)
    expect(TokenEstimator.heuristic.estimateBlock(Block.image("https://example.com/cat.png", { detail: "low" }))).toBe(TokenEstimator.IMAGE_LOW_DETAIL_TOKENS)
    expect(TokenEstimator.IMAGE_LOW_DETAIL_TOKENS).toBe(85)
    expect(TokenEstimator.heuristic.estimateBlock(Block.image("https://example.com/cat.png"))).toBe(TokenEstimator.IMAGE_DEFAULT_TOKENS)
    expect(TokenEstimator.IMAGE_DEFAULT_TOKENS).toBe(765)
    expect(TokenEstimator.heuristic.estimateBlock(Block.document("https://example.com/report.pdf"))).toBe(TokenEstimator.REFERENCED_FILE_TOKENS)
    expect(TokenEstimator.REFERENCED_FILE_TOKENS).toBe(1000)
    expect(TokenEstimator.PDF_PAGE_TOKENS * 2).toBe(4398)
    expect(Math.ceil(4.5 * TokenEstimator.AUDIO_TOKENS_PER_SECOND)).toBe(144)
    expect(10 * TokenEstimator.VIDEO_TOKENS_PER_SECOND).toBe(2900)
    expect(TokenEstimator.heuristicTextRule("o200k")("Hello, world!")).toBe(4)
    const rule = TokenEstimator.cjkWeightedTextRule()
    expect([rule("你好世界"), rule("hello world")]).toEqual([8, 3])
  })

  it.effect("the estimators the examples build give the figures shown", () =>
    Effect.gen(function*() {
      const hello = Message.user("hello")
      expect((yield* TokenEstimator.makeTest({ messageOverhead: TokenEstimator.DEFAULT_MESSAGE_OVERHEAD })).estimateMessage(hello)).toBe(5 + 4)
      expect((yield* TokenEstimator.makeTest({ costPerChar: 0.5, messageOverhead: 2 })).estimateMessage(hello)).toBe(3 + 2)
      expect((yield* TokenEstimator.makeTest()).estimateMessage(hello)).toBe(5)
      const words = yield* TokenEstimator.make({ estimateText: (t) => t.split(/\s+/).filter(Boolean).length })
      expect(words.estimateMessage(Message.user("one two three"))).toBe(3 + 4)
      expect((yield* TokenEstimator.makeCjkWeighted()).estimateMessage(Message.user("你好世界"))).toBe(8 + 4)
      const tested = yield* Effect.gen(function*() {
        const estimator = yield* TokenEstimator.TokenEstimator
        return estimator.estimateMessage(hello)
      }).pipe(Effect.provide(TokenEstimator.layerTest({ costPerChar: 1 })))
      expect(tested).toBe(5)
    }))

  it.effect("InvalidEstimatorOptions names the bad option, and checkOptions the first bad one", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(TokenEstimator.makeCjkWeighted({ chineseCharWeight: -1 }))
      expect([error.option, error.message]).toEqual(["chineseCharWeight", 'invalid estimator option "chineseCharWeight": Expected a value greater than or equal to 0'])
      const WordOptions = Schema.Struct({ tokensPerWord: TokenEstimator.Weight })
      expect((yield* Effect.flip(TokenEstimator.checkOptions(WordOptions, { tokensPerWord: Number.NaN }))).option).toBe("tokensPerWord")
    }))

  it("TokenCount takes whole non-negative numbers and Weight finite non-negative ones", () => {
    const Budget = Schema.Struct({ maxTokens: TokenEstimator.TokenCount })
    expect([Schema.is(Budget)({ maxTokens: 8000 }), Schema.is(Budget)({ maxTokens: 0.5 })]).toEqual([true, false])
    const Options = Schema.Struct({ costPerWord: TokenEstimator.Weight })
    expect([Schema.is(Options)({ costPerWord: 1.3 }), Schema.is(Options)({ costPerWord: -1 })]).toEqual([true, false])
  })

  it("an image given inline is priced by the size its bytes show; IMAGE_DEFAULT_TOKENS is for one whose size is unknown", () => {
    const onePixelPng = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    const rule = TokenEstimator.estimateFileWith(TokenEstimator.heuristicTextRule("o200k"))
    // gpt-4o's price for one 512-pixel tile
    expect(rule(Block.image(onePixelPng))).toBe(85 + 170)
    expect(TokenEstimator.heuristic.estimateBlock(Block.image(onePixelPng))).toBe(85 + 170)
    expect(rule(Block.image(onePixelPng, { detail: "low" }))).toBe(TokenEstimator.IMAGE_LOW_DETAIL_TOKENS)
    expect(rule(Block.image("https://example.com/cat.png"))).toBe(TokenEstimator.IMAGE_DEFAULT_TOKENS)
    expect(rule(Block.file(Block.fileId("file-abc"), "image/png"))).toBe(TokenEstimator.IMAGE_DEFAULT_TOKENS)
  })

  it("an estimator built with make or fromTextRule adds up what its rules return: a rule that rounds up gives whole estimates", () => {
    expect(TokenEstimator.fromTextRule((t) => t.length / 4).estimateMessage(Message.user("hello"))).toBe(5 / 4 + 4)
    expect(TokenEstimator.fromTextRule((t) => Math.ceil(t.length / 4)).estimateMessage(Message.user("hello"))).toBe(2 + 4)
  })

  it.effect("estimateMessage memoizes frozen messages: the decoders and constructors return frozen messages", () =>
    Effect.gen(function*() {
      const frozen = (ms: ReadonlyArray<Message.Message>) => ms.every((m) => Object.isFrozen(m) && Object.isFrozen(m.content))
      expect(frozen(yield* Conversation.decode([{ role: "user", content: "hi" }, { role: "assistant", content: "Hello!" }]))).toBe(true)
      expect(frozen(yield* Conversation.decodeJsonl('{"role":"user","content":"hi"}\n'))).toBe(true)
      expect(frozen((yield* Conversation.decodeEach([{ role: "user", content: "hi" }])).messages)).toBe(true)
      const chat = yield* OpenAiChat.fromMessages([
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c", content: "r" }
      ])
      expect(frozen(chat.value)).toBe(true)
      expect(frozen((yield* Anthropic.fromMessages([{ role: "user", content: "hi" }])).value)).toBe(true)
      expect(frozen([Message.user("x"), Message.assistant("y"), Message.system("s"), Message.toolResultMessage("c", "f", "r")])).toBe(true)
      // so a second reading of one message is the cached figure, even through a different array
      let calls = 0
      const counting = TokenEstimator.fromTextRule((t) => (calls++, t.length))
      const m = Message.user("hello")
      counting.estimateConversation([m])
      const before = calls
      counting.estimateEach([m, m])
      expect(calls).toBe(before)
    }))

  it.prop("estimateConversation is the sum of estimateEach", [Arb.validConversation], ([x]) => {
    const each = estimator.estimateEach(x)
    expect(estimator.estimateConversation(x)).toBe(each.reduce((a, b) => a + b, 0))
  }, { arbitrary: { runs: 300 }, timeout: 300_000 })
})

const readme = fs.readFileSync(new URL("../README.md", import.meta.url), "utf8")

/** The text of the README after `marker`, up to the end of its line. */
const readmeAfter = (marker: string): string => {
  const at = readme.indexOf(marker)
  assert.isAtLeast(at, 0, `the README shows ${marker}`)
  const start = at + marker.length
  const end = readme.indexOf("\n", start)
  return readme.slice(start, end === -1 ? undefined : end)
}

describe("README: counting the whole request", () => {
  const weather = Request.tool("get_current_weather", {
    description: "Get the current weather in a given location",
    parameters: {
      type: "object",
      properties: {
        location: { type: "string", description: "The city and state, e.g. San Francisco, CA" },
        unit: { type: "string", description: "The unit of temperature to return", enum: ["celsius", "fahrenheit"] }
      },
      required: ["location"]
    }
  })
  const request = Request.make([
    Message.system("You are a helpful assistant that can answer to questions about the weather."),
    Message.user("What's the weather like in San Francisco?")
  ], { model: "gpt-4o", tools: [weather] })

  it.effect("the cookbook's weather request counts what the README shows, with the exact layers and with the heuristic ones", () =>
    Effect.gen(function*() {
      const count = (model: string) => TokenEstimator.TokenEstimator.use((e) => Effect.succeed(e.estimateRequest(request, { model })))
      const o200k = yield* count("gpt-4o").pipe(Effect.provide(layerO200k))
      const cl100k = (yield* count("gpt-4").pipe(Effect.provide(layerCl100k))).total
      const heuristic = TokenEstimator.heuristic.estimateRequest(request).total
      const heuristicCl100k = (yield* TokenEstimator.makeHeuristic({ encoding: "cl100k" })).estimateRequest(request, { model: "gpt-4" }).total
      expect(readmeAfter("// { provider: ")).toBe(`"${o200k.provider}", total: ${o200k.total}, messages: [${o200k.messages.join(", ")}], tools: ${o200k.tools}, responseFormat: ${o200k.responseFormat}, framing: ${o200k.framing} }`)
      expect(readmeAfter("Effect.provide(layerCl100k)))).total) // ")).toBe(String(cl100k))
      expect(readmeAfter("console.log(TokenEstimator.heuristic.estimateRequest(request).total) // ")).toBe(`${heuristic}, with no tokenizer loaded`)
      expect(readmeAfter("| `estimateRequest`, exact layer (`layerO200k` / `layerCl100k`) | ")).toBe(`${o200k.total} | ${cl100k} |`)
      expect(readmeAfter("| `estimateRequest`, heuristic layer (o200k / cl100k table) | ")).toBe(`${heuristic} | ${heuristicCl100k} |`)
      // and what the API reported
      expect([o200k.total, cl100k]).toEqual([101, 105])
    }), { timeout: 300_000 })
})

describe("README: the agent loop that fits before each model call", () => {
  it.effect("prints, at step 21, the line the README shows", () =>
    Effect.gen(function*() {
      const callModel = (messages: ReadonlyArray<Message.Message>, step: number) =>
        step % 4 === 3
          ? Message.assistant(`Done with step ${step} (${messages.length} messages in context).`)
          : Message.assistant([
            Block.toolCall(`read_${step}`, "read_file", { path: `src/module_${step}.ts` }),
            Block.toolCall(`grep_${step}`, "search_code", { query: "failing test" })
          ])
      const runTool = (call: Block.ToolCallBlock): Message.Message =>
        Message.tool(Block.toolResult(call.id, call.name, `export const line = ${JSON.stringify(call.args)}\n`.repeat(60)))
      const printed: Array<string> = []
      let context = yield* ConversationContext.make([Message.system("You are a coding agent.")], 2_000)
      context = ConversationContext.append(context, Message.user("Find and fix the failing test."))
      for (let step = 0; step < 24; step++) {
        const { context: fitted, fitted: result } = yield* ConversationContext.fit(context, {
          strategy: ["clear_tool_results", "drop_oldest"],
          keepToolResults: 2,
          pinFirstUser: true
        })
        if (result.changed) printed.push(`step ${step}: ${MessageWindow.describe(result).join("; ")}`)
        const reply = callModel(fitted.messages, step)
        context = ConversationContext.append(fitted, reply)
        const calls = Message.toolCallsOf(reply)
        context = calls.length > 0
          ? ConversationContext.append(context, calls.map(runTool))
          : ConversationContext.append(context, Message.user("Good. Now the next failing test."))
      }
      // the README's comment, its two lines joined
      const shown = /\/\/ (step 21: .*)\n\s*\/\/\s+(.*)\n/.exec(readme)
      assert(shown !== null, "the README shows step 21")
      expect(printed.find((line) => line.startsWith("step 21:"))).toBe(`${shown[1]!} ${shown[2]!}`)
    }).pipe(Effect.provide(MessageWindow.layer.pipe(Layer.provideMerge(TokenEstimator.layer)))), { timeout: 300_000 })
})

const choices = allStrategies

const providers = [undefined, "openai-chat", "openai-responses", "anthropic", "gemini"] as const

/** A generated agent history, a budget from 1% to 100% of what it costs, and options of every kind. */
const agentCase = Arbitrary.all({
  input: Arb.agentConversation,
  percent: Arb.intBetween(1, 100),
  choice: Arb.intBetween(0, choices.length - 1),
  provider: Arb.intBetween(0, providers.length - 1),
  pinFirstUser: Arb.bool,
  clearThinking: Arb.bool,
  keepToolResults: Arb.intBetween(0, 4),
  outside: Arb.intBetween(0, 2),
  fixed: Req.fixedPart
}).pipe(Arbitrary.map(({ choice, clearThinking, fixed, input, keepToolResults, outside, percent, pinFirstUser, provider }) => {
  const p = providers[provider]
  const options: MessageWindow.FitOptions = {
    strategy: choices[choice]!,
    pinFirstUser,
    clearThinking,
    keepToolResults,
    ...(p === undefined ? {} : { provider: p }),
    ...(outside === 1 ? { fixedTokens: 40 } : outside === 2 ? { reserve: 60 } : {})
  }
  return {
    input,
    budget: Math.ceil((estimator.estimateConversation(input) * percent) / 100),
    options,
    request: Req.requestWith(input, fixed, p === "anthropic" ? "claude-sonnet-4-5" : p === "gemini" ? "gemini-2.5-pro" : "gpt-4o")
  }
}))

describe("MessageWindow", () => {
  it.prop("BudgetTooSmall: minimumBudget is the smallest budget that works with the same options (one less fails)", [agentCase], ([c]) => {
    const r = fitSync(window, c.input, c.budget, c.options)
    if (Result.isSuccess(r)) return
    assert(r.failure._tag === "BudgetTooSmall")
    const min = r.failure.minimumBudget
    expect(Result.isSuccess(fitSync(window, c.input, min, c.options))).toBe(true)
    expect(Result.isFailure(fitSync(window, c.input, min - 1, c.options))).toBe(true)
  }, { arbitrary: { runs: 500 }, timeout: 180_000 })

  it.prop("BudgetTooSmall from fitRequest: minimumBudget is the smallest budget that works with the same options (one less fails)", [agentCase], ([c]) => {
    const r = fitRequestSync(window, c.request, c.budget, c.options)
    if (Result.isSuccess(r)) return
    assert(r.failure._tag === "BudgetTooSmall")
    const min = r.failure.minimumBudget
    expect(Result.isSuccess(fitRequestSync(window, c.request, min, c.options))).toBe(true)
    expect(Result.isFailure(fitRequestSync(window, c.request, min - 1, c.options))).toBe(true)
  }, { arbitrary: { runs: 500 }, timeout: 180_000 })

  it.prop("Fitted.messages is a new frozen array whenever the fit changed something", [agentCase], ([c]) => {
    const r = fitSync(window, c.input, c.budget, c.options)
    if (Result.isFailure(r) || !r.success.changed) return
    expect(r.success.messages).not.toBe(c.input)
    expect(Object.isFrozen(r.success.messages)).toBe(true)
  }, { arbitrary: { runs: 300 }, timeout: 120_000 })

  it("InvalidFitOptions: clear_tool_results listed after another strategy is refused with the message the example shows", () => {
    const r = fitSync(window, [Message.user("hi")], 8_000, { strategy: ["drop_oldest", "clear_tool_results"] })
    assert(Result.isFailure(r))
    expect(r.failure.message).toBe('invalid window option "strategy": clear_tool_results runs before drop_oldest: list it first')
  })

  it("without a Summarizer, summarize reads drop_oldest_pair in strategies and says so in notes", () => {
    const history = [Message.user("first " + "a".repeat(4000)), Message.assistant("ok " + "b".repeat(4000)), Message.user("second?")]
    const r = fitSync(windowWithoutSummarizer, history, 200, { strategy: "summarize" })
    assert(Result.isSuccess(r))
    expect([r.success.strategies, r.success.notes]).toEqual([["drop_oldest_pair"], [{ _tag: "SummarizerUnavailable" }]])
  })

  it("a cleared result reads as CLEARED_PREFIX, the tool's name and the size removed, and describe says what was saved", () => {
    const history = [
      Message.user("q"),
      Message.assistant([Block.toolCall("a", "read_file", {})]),
      Message.toolResultMessage("a", "read_file", "z".repeat(18_204)),
      Message.assistant("ok"),
      Message.user("next")
    ]
    const r = fitSync(window, history, 200, { strategy: "clear_tool_results", keepToolResults: 0 })
    assert(Result.isSuccess(r))
    const contents = r.success.messages.flatMap(Message.toolResultsOf).map((b) => b.content)
    expect(contents).toEqual(["[tool result cleared to save context: read_file returned 18,204 characters]"])
    expect(String(contents[0]).startsWith(MessageWindow.CLEARED_PREFIX)).toBe(true)
    const saved = r.success.cleared[0]!.tokensSaved
    expect(MessageWindow.describe(r.success)).toEqual([
      `cleared 1 tool result in messages[2] (${saved.toLocaleString("en-US")} tokens saved)`,
      `${r.success.tokensBefore.toLocaleString("en-US")} -> ${r.success.tokensAfter} tokens (200 available)`
    ])
  })

  it("isSummary: a system or assistant message whose text opens with the window's header line is a summary, a user message is not", () => {
    const header = "[Summary of 12 earlier messages, removed to fit the context window]"
    expect([
      Message.assistant(`${header}\nThe user asked for the weather.`),
      Message.system(`${header}\nThe user asked for the weather.`),
      Message.user(`${header}\nThe user asked for the weather.`),
      Message.assistant(`Note: ${header}`)
    ].map(MessageWindow.isSummary)).toEqual([true, true, false, false])
  })

  it.effect("summaryTokens: by default a quarter of what the messages may use, at most 1,000 tokens", () =>
    Effect.gen(function*() {
      const asked: Array<number> = []
      const recording = Summarizer.Summarizer.of({ summarize: (request) => Effect.sync(() => (asked.push(request.maxTokens), "The user asked for several tasks.")) })
      const w = yield* MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, estimator), Effect.provideService(Summarizer.Summarizer, recording))
      const history: Array<Message.Message> = []
      for (let k = 0; k < 20; k++) history.push(Message.user(`task ${k} ${"word ".repeat(2_000)}`), Message.assistant(`answer ${k} ${"done ".repeat(2_000)}`))
      history.push(Message.user("What next?"))
      yield* w.fit(history, 20_000, { strategy: "summarize" })
      yield* w.fit(history, 2_000, { strategy: "summarize" })
      expect(asked).toEqual([1_000, 500])
    }))
})

describe("Repair", () => {
  it.prop("repair: the log is in message order", [Arb.brokenConversation], ([x]) => {
    const indexes = Repair.repair(x).actions.map((a) => a.index)
    expect(indexes).toEqual(indexes.slice().sort((a, b) => a - b))
  }, { arbitrary: { runs: 1000 }, timeout: 120_000 })

  it.prop("repair: a renamed call id appears nowhere in the input", [Arb.brokenConversation], ([x]) => {
    const ids = new Set<string>()
    for (const m of x) {
      for (const b of m.content) {
        if (b._tag === "ToolCall") ids.add(b.id)
        else if (b._tag === "ToolResult") ids.add(b.toolCallId)
      }
    }
    for (const a of Repair.repair(x).actions) if (a._tag === "RenamedToolCallId") expect(ids.has(a.to)).toBe(false)
  }, { arbitrary: { runs: 1000 }, timeout: 120_000 })

  const weatherCall = () => Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }])
  const described = (r: Repair.RepairResult) => r.actions.map((a) => a.description)
  const examples: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown>, unknown]> = [
    ["INTERRUPTED is the text of a synthetic result", Effect.sync(() => Message.textOf(Repair.repair([Message.user("Weather?"), weatherCall(), Message.user("Never mind.")]).messages[2]!)), Repair.INTERRUPTED],
    ["Gemini 3 calls without a signature get GEMINI_SKIP_SIGNATURE", Effect.map(Repair.repairFor("gemini", { model: "gemini-3-flash-preview" })([Message.user("Weather in Oslo?"), weatherCall(), Message.toolResultMessage("c1", "weather", "12°C")]), (r) => Message.toolCallsOf(r.messages[1]!)[0]?.thoughtSignature), Repair.GEMINI_SKIP_SIGNATURE],
    ["Gemini gets a user message CONTINUE before a first call turn", Effect.map(Repair.repairFor("gemini")([weatherCall(), Message.toolResultMessage("c1", "weather", "12°C")]), (r) => [Message.textOf(r.messages[0]!), described(r)]), [Repair.CONTINUE, ['messages[0]: inserted a user message "Continue." before a function-call turn']]],
    ["InsertedMissingResult quotes interruptedContent", Effect.sync(() => described(Repair.repair([Message.user("Weather?"), Message.assistantMessage("", [{ id: "c1", name: "weather" }]), Message.user("Stop.")], { interruptedContent: "cancelled by the user" }))), ['messages[1]: tool call "c1" (weather) had no result; inserted an error result "cancelled by the user"']],
    ["RemovedOrphanResult names the result and why", Effect.sync(() => described(Repair.repair([Message.user("hi"), Message.toolResultMessage("c9", "search", "stale"), Message.assistant("Hello!")]))[0]), 'messages[1].content[0]: removed tool result "c9" (search): it answers no call of the preceding assistant message'],
    ["RemovedDuplicateResult and the tool message it leaves empty", Effect.sync(() => Repair.repair([Message.user("Weather?"), weatherCall(), Message.toolResultMessage("c1", "weather", "12°C"), Message.toolResultMessage("c1", "weather", "12°C")]).actions.map((a) => a._tag)), ["RemovedDuplicateResult", "RemovedEmptyMessage"]],
    ["MergedConsecutive names both messages", Effect.sync(() => described(Repair.repair([Message.user("hi"), Message.user("anyone there?")]))), ["messages[1]: merged this user message into messages[0]"]],
    ["MovedSystemMessage out from between calls and results", Effect.sync(() => described(Repair.repair([Message.user("Weather?"), weatherCall(), Message.system("Answer in Celsius."), Message.toolResultMessage("c1", "weather", "12°C")]))), ["messages[2]: moved a system message out from between tool calls and their results"]],
    ["RenamedToolCallId: an empty id gets a fresh one", Effect.sync(() => described(Repair.repair([Message.user("Weather?"), Message.assistantMessage("", [{ id: "", name: "weather" }]), Message.toolResultMessage("", "weather", "12°C")]))[0]), 'messages[1].content[0]: renamed tool call id "" to "call_repaired_1"'],
    ["FilledToolName: a custom tool call's name that is not a string is kept as original", Effect.map(Repair.repairFor("openai-responses")([Message.user("Patch it."), Message.assistant([
      Block.providerData("openai-responses", { type: "custom_tool_call", call_id: "ct_1", name: 7, input: "*** Begin Patch" }),
      Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: "ct_1", output: "done" })
    ])]), (r) => { const a = r.actions[0]; return a?._tag === "FilledToolName" ? a.original : a }), 7],
    ["TrimmedPrefill cuts trailing whitespace", Effect.map(Repair.repairFor("anthropic")([Message.user("Write a haiku."), Message.assistant("Autumn wind \n")]), (r) => [Message.textOf(r.messages[1]!), r.actions.map((a) => a._tag)]), ["Autumn wind", ["TrimmedPrefill"]]],
    ["ReplacedToolArguments says what is sent now", Effect.map(Repair.repairFor("openai-chat")([Message.user("Weather?"), Message.assistant([Block.toolCall("c1", "weather", { city: "Osl" }, { rawArgs: '{"city": "Osl', parseError: "Unterminated string in JSON" })]), Message.toolResultMessage("c1", "weather", "12°C")]), described), ['messages[1].content[0]: the arguments of tool call "c1" were not a JSON object (Unterminated string in JSON); sent as {"city":"Osl"}']],
    ["ReplacedLoneSurrogates replaces half an emoji with U+FFFD", Effect.map(Repair.repairFor("anthropic")([Message.user("Done 😀".slice(0, 6))]), (r) => [Message.textOf(r.messages[0]!), described(r)]), ["Done \uFFFD", ["messages[0].content[0]: replaced 1 lone UTF-16 surrogate with U+FFFD (Anthropic rejects a body that holds one)"]]],
    ["CorrectedMediaType gives an image the type its bytes show", Effect.map(Repair.repairFor("anthropic")([Message.user([Block.text("What is this?"), Block.file(Block.base64("/9j/4AAQSkZJRgABAQ=="), "image/png")])]), described), ["messages[0].content[1]: the image declared image/png was given the type its bytes show, image/jpeg (Anthropic rejects an image that does not match its media type)"]],
    ["RemovedMessageField removes a field Anthropic does not take", Effect.flatMap(Anthropic.fromMessages([{ role: "user", content: "Hi", name: "alice" }]), ({ value }) => Effect.map(Repair.repairFor("anthropic")(value), described)), ['messages[0]: removed the field "name" ("alice"): Anthropic messages take only role and content']]
  ]
  for (const [claim, run, expected] of examples) {
    it.effect(claim, () => Effect.map(run, (actual) => expect(actual).toEqual(expected)))
  }
})

describe("Conversation", () => {
  it.prop("turns partition a conversation", [Arb.brokenConversation], ([x]) => {
    let at = 0
    for (const turn of Conversation.turnsOf(x)) {
      expect([turn.start, turn.end > turn.start]).toEqual([at, true])
      at = turn.end
    }
    expect(at).toBe(x.length)
  }, { arbitrary: { runs: 1000 }, timeout: 120_000 })

  it.prop("a turn's calls are its assistant message's client calls, and each result of its tool messages either answers one of them or is stray", [Arb.brokenConversation], ([x]) => {
    for (const turn of Conversation.turnsOf(x)) {
      const head = x[turn.start]!
      const clientCalls = head.role === "assistant" ? Message.toolCallsOf(head).filter((c) => c.providerExecuted !== true) : []
      expect(turn.calls.map((ref) => ref.call)).toEqual(clientCalls)
      const ids = new Set(clientCalls.map((c) => c.id))
      for (const ref of turn.results) expect(ids.has(ref.result.toolCallId)).toBe(true)
      for (const ref of turn.unanswered) expect(clientCalls).toContain(ref.call)
      const inToolMessages = x.slice(turn.start, turn.end).flatMap((m) => (m.role === "tool" ? m.content : []))
      const read = [...turn.results, ...turn.stray].sort((a, b) => a.index - b.index || a.blockIndex - b.blockIndex)
      expect(read.map((ref) => ref.result)).toEqual(inToolMessages)
      for (const ref of [...turn.results, ...turn.stray]) expect(x[ref.index]!.content[ref.blockIndex]).toBe(ref.result)
    }
  }, { arbitrary: { runs: 1000 }, timeout: 120_000 })

  it.prop("validate fails fast with the first issue issuesOf reports", [Arb.brokenConversation], ([x]) => {
    const r = Effect.runSync(Effect.result(Conversation.validate(x)))
    const issues = Conversation.issuesOf(x)
    if (Result.isSuccess(r)) {
      expect(issues).toEqual([])
      // the brand exists only in types: the same array
      expect(r.success).toBe(x)
    } else {
      expect(r.failure).toEqual(issues[0])
    }
  }, { arbitrary: { runs: 1000 }, timeout: 120_000 })

  for (const provider of Provider.all) {
    it.prop(`validateFor(${provider}) fails fast with the first issue issuesFor reports`, [Arb.brokenConversation], ([x]) => {
      const r = Effect.runSync(Effect.result(Conversation.validateFor(provider)(x)))
      const issues = Conversation.issuesFor(provider, x)
      if (Result.isSuccess(r)) expect(issues).toEqual([])
      else expect(r.failure.message).toBe(issues[0]?.message)
    }, { arbitrary: { runs: 500 }, timeout: 120_000 })
  }

  const calls = Message.assistantMessage("", [{ id: "c1", name: "weather", args: { city: "Oslo" } }, { id: "c2", name: "weather", args: { city: "Bergen" } }])
  const withItemId = [
    Message.user("Weather in Oslo?"),
    Message.assistant([Block.toolCall("call_1", "weather", { city: "Oslo" }, { itemId: "fc_1" })]),
    Message.toolResultMessage("call_1", "weather", "12°C")
  ]
  const examples: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown>, unknown]> = [
    ["turnsOf: a turn is a message and the tool messages after it; a call without a result is unanswered", Effect.sync(() => {
      const turns = Conversation.turnsOf([Message.user("Weather in Oslo and Bergen?"), calls, Message.toolResultMessage("c1", "weather", "12°C")])
      return [turns.map((t) => [t.start, t.end]), turns[1]?.unanswered.map((ref) => ref.call.id)]
    }), [[[0, 1], [1, 3]], ["c2"]]],
    ["pendingToolCalls: the calls of the last assistant message without a result", Effect.sync(() => Conversation.pendingToolCalls([Message.user("Weather in Oslo?"), calls]).map((ref) => ref.call.id)), ["c1", "c2"]],
    ["issuesOf: every issue, in the order found", Effect.sync(() => Conversation.issuesOf([Message.toolResultMessage("c9", "search", "stale result"), Message.user("hi"), Message.user("anyone there?")]).map((i) => i._tag)), ["OrphanToolResult", "ConsecutiveRole"]],
    ["validateAll: fails listing every issue", Effect.map(Effect.flip(Conversation.validateAll([Message.user("hi"), Message.user("hello?")])), (e) => e.issues.map((i) => i._tag)), ["ConsecutiveRole"]],
    ["decode: fails with the index of the first bad message", Effect.map(Effect.flip(Conversation.decode([{ role: "user", content: "hi" }, { role: "robot" }])), (e) => e.index), 1],
    ["decodeEach: keeps what decodes and names each failure's index", Effect.map(Conversation.decodeEach([{ role: "user", content: "hi" }, { role: "robot", content: "beep" }, { role: "assistant", content: "Hello!" }]), (d) => [d.messages.length, d.failures.map((f) => f.index)]), [2, [1]]],
    ["decodeEach: fails only when the input is not an array", Effect.map(Effect.flip(Conversation.decodeEach({ role: "user", content: "hi" })), (e) => e._tag), "MessageDecodeError"],
    ["decodeJsonl: blank lines are skipped", Effect.map(Conversation.decodeJsonl('{"role":"user","content":"hi"}\n\n{"role":"assistant","content":"Hello!"}\n'), (ms) => ms.length), 2],
    ["decodeJsonlEach: a line that is not JSON is named by its number", Effect.map(Conversation.decodeJsonlEach('{"role":"user","content":"hi"}\n{"role":"user",\n'), (d) => [d.messages.length, d.failures.length, d.failures[0]?.message.includes("line 2 is not JSON")]), [1, 1, true]],
    ["encodeJsonl: one canonical message per line, each ending with a newline", Effect.sync(() => Conversation.encodeJsonl([Message.user("hi"), Message.assistant("Hello!")])), '{"role":"user","content":[{"_tag":"Text","text":"hi"}]}\n{"role":"assistant","content":[{"_tag":"Text","text":"Hello!"}]}\n'],
    ["genericRulesFor: Gemini merges user messages itself", Effect.sync(() => Conversation.genericRulesFor("gemini").consecutiveUserMessages), false],
    ["profileOptionsOf: Anthropic's thinking setting", Effect.sync(() => Conversation.profileOptionsOf(Request.make([Message.user("hi")], { model: "claude-sonnet-4-5", providerOptions: { anthropic: { thinking: { type: "enabled", budget_tokens: 2048 } } } }))), { model: "claude-sonnet-4-5", thinking: true, thinkingMode: "enabled" }],
    ["requiresThoughtSignatures: Gemini 3 and later, unless told otherwise", Effect.sync(() => [
      Conversation.requiresThoughtSignatures({ model: "gemini-2.5-flash" }),
      Conversation.requiresThoughtSignatures({ model: "gemini-3-flash-preview" }),
      Conversation.requiresThoughtSignatures({ model: "gemini-3-flash-preview", thoughtSignatures: "optional" })
    ]), [false, true, false]],
    ["requiresReasoningItems: models that reason by default, or a request's reasoning effort", Effect.sync(() => [
      Conversation.requiresReasoningItems({ model: "gpt-5" }),
      Conversation.requiresReasoningItems({ model: "o4-mini" }),
      Conversation.requiresReasoningItems({ model: "gpt-4.1" }),
      Conversation.requiresReasoningItems({ model: "gpt-5.4" }),
      Conversation.requiresReasoningItems(Conversation.profileOptionsOf(Request.make([Message.user("hi")], { model: "gpt-5.4", providerOptions: { "openai-responses": { reasoning: { effort: "high" } } } })))
    ]), [true, true, false, false, true]],
    ["missingReasoningItems: an item sent with its id without its reasoning, on a model that reasons only", Effect.sync(() => [
      Conversation.missingReasoningItems(withItemId, { model: "o3" }).map((issue) => issue.itemId),
      Conversation.missingReasoningItems(withItemId, { model: "gpt-4.1" })
    ]), [["fc_1"], []]],
    ["issuesFor: Anthropic wants its signature on thinking", Effect.sync(() => Conversation.issuesFor("anthropic", [Message.user("Weather?"), Message.assistant([Block.thinking("The user wants the weather."), Block.text("12°C in Oslo.")])]).map((i) => i._tag)), ["MissingThinkingSignature"]]
  ]
  for (const [claim, run, expected] of examples) {
    it.effect(claim, () => Effect.map(run, (actual) => expect(actual).toEqual(expected)))
  }
})

describe("Request", () => {
  it("isTokenLimit: a whole, non-negative, safe number only", () => {
    expect([4096, 0, -1, 1e21, 0.5, Number.NaN, "4096"].map(Request.isTokenLimit)).toEqual([true, true, false, false, false, false, false])
  })

  it("providerTool: the provider, type and config make its providerDefined part", () => {
    expect(Request.providerTool("web_search", "anthropic", "web_search_20250305", { max_uses: 5 }).providerDefined).toEqual({ provider: "anthropic", type: "web_search_20250305", config: { max_uses: 5 } })
    expect(Request.providerTool("googleSearch", "gemini", "googleSearch").providerDefined).toEqual({ provider: "gemini", type: "googleSearch" })
  })

  it("a Request encodes to JSON-ready data and decodes back", () => {
    const request = new Request.Request({ model: "gpt-4o", messages: [Message.user("Weather in Oslo?")], maxOutputTokens: 1024, providerOptions: { "openai-chat": { temperature: 0.2 } } })
    const body = JSON.parse(JSON.stringify(Schema.encodeSync(Request.Request)(request)))
    expect(Schema.decodeUnknownSync(Request.Request)(body)).toEqual(request)
  })
})

describe("MessageWindow: the figures a fit reports", () => {
  it.prop("each dropped run costs the estimates of its messages, each cleared message saves what its estimate lost, and the summary costs its estimate", [agentCase], ([c]) => {
    const r = fitSync(window, c.input, c.budget, c.options)
    if (Result.isFailure(r)) return
    const f = r.success
    for (const d of f.dropped) expect(d.tokens).toBe(estimator.estimateConversation(d.messages))
    for (const x of f.cleared) {
      expect(f.messages[x.at]).toBe(x.after)
      expect(x.tokensSaved).toBe(estimator.estimateMessage(x.before) - estimator.estimateMessage(x.after))
    }
    if (f.summary !== undefined) expect(f.summary.tokens).toBe(estimator.estimateMessage(f.summary.message))
    expect(f.tokensBefore - f.tokensAfter).toBe(
      f.dropped.reduce((n, d) => n + d.tokens, 0) + f.cleared.reduce((n, x) => n + x.tokensSaved, 0) + f.takenOut.reduce((n, t) => n + t.tokensSaved, 0) - (f.summary?.tokens ?? 0)
    )
    expect(f.available).toBe(c.budget - (c.options.fixedTokens ?? 0) - (c.options.reserve ?? 0))
  }, { arbitrary: { runs: 500 }, timeout: 180_000 })
})

describe("MessageWindow: clearThinking", () => {
  const thought = (signature: string) => Block.thinking("weighing the options ".repeat(200), signature)
  const clearing: MessageWindow.FitOptions = { strategy: "clear_tool_results", clearThinking: true }

  it("clears the thinking of earlier turns, never that of the last assistant turn, even with a user message after it", () => {
    const history = [
      Message.user("q1"),
      Message.assistant([thought("s1"), Block.text("a1")]),
      Message.user("q2"),
      Message.assistant([thought("s2"), Block.text("a2")]),
      Message.user("q3")
    ]
    const r = fitSync(window, history, estimator.estimateConversation(history) - 1, clearing)
    assert(Result.isSuccess(r))
    expect(r.success.cleared.map((c) => [c.index, c.thinking])).toEqual([[1, 1]])
    expect(r.success.messages[3]).toBe(history[3])
    // with only the last assistant turn's thinking there, nothing can be cleared
    const alone = history.slice(2)
    const none = fitSync(window, alone, estimator.estimateConversation(alone) - 1, clearing)
    assert(Result.isFailure(none) && none.failure._tag === "BudgetTooSmall")
    expect(none.failure.minimumBudget).toBe(estimator.estimateConversation(alone))
  })
})

describe("TokenEstimator.estimateRequest: the model option", () => {
  const models = ["gpt-4o", "gpt-4o-mini", "gpt-5", "gpt-3.5-turbo-0613", "o3", "claude-sonnet-4-5", "claude-opus-4-7", "claude-3-haiku-20240307", "gemini-3-flash-preview", "gemini-2.5-flash", "gemini-1.5-pro"] as const

  it("an image by URL is priced for the model the options name, not for the request's own", () => {
    const request = Request.make([Message.user([Block.text("What is this?"), Block.image("https://example.com/cat.png")])], { model: "gpt-4o" })
    for (const provider of ["openai-chat", "openai-responses"] as const) {
      const forMini = TokenEstimator.heuristic.estimateRequest(request, { provider, model: "gpt-4o-mini" })
      const { messages: _, ...rest } = request
      expect(forMini).toEqual(TokenEstimator.heuristic.estimateRequest(Request.make(request.messages, { ...rest, model: "gpt-4o-mini" }), { provider }))
      expect(forMini.total).toBeGreaterThan(TokenEstimator.heuristic.estimateRequest(request, { provider }).total)
    }
  })

  it.prop("a request counted with { model } counts as the same request naming that model", [Req.request, Arb.intBetween(0, models.length - 1), Arb.intBetween(0, models.length - 1), Arb.intBetween(0, Provider.all.length - 1)], ([request, own, asked, p]) => {
    const provider = Provider.all[p]!
    const { messages: _, ...rest } = request
    const naming = (model: string) => Request.make(request.messages, { ...rest, model })
    expect(TokenEstimator.heuristic.estimateRequest(naming(models[own]!), { provider, model: models[asked]! })).toEqual(
      TokenEstimator.heuristic.estimateRequest(naming(models[asked]!), { provider })
    )
  }, { arbitrary: { runs: 300 }, timeout: 120_000 })
})

describe("MessageWindow: the summary's role", () => {
  it.prop("a summary is a system message when only system messages precede it, else an assistant message", [agentCase], ([c]) => {
    const options: MessageWindow.FitOptions = { ...c.options, strategy: ["clear_tool_results", "summarize"] }
    const r = fitSync(window, c.input, c.budget, options)
    if (Result.isFailure(r) || r.success.summary === undefined) return
    const { at, message } = r.success.summary
    const onlySystem = r.success.messages.slice(0, at).every((m) => m.role === "system")
    expect(message.role).toBe(onlySystem ? "system" : "assistant")
  }, { arbitrary: { runs: 500 }, timeout: 180_000 })
})

describe("README: turns and repair", () => {
  const history = [
    Message.user("Compare the two files."),
    Message.assistant([Block.toolCall("a", "read_file", { path: "a.ts" }), Block.toolCall("b", "read_file", { path: "b.ts" })]),
    Message.toolResultMessage("a", "read_file", "export const a = 1")
  ]

  it("the calls an agent must still run are the unanswered ones of the open turn: [b]", () => {
    expect(Conversation.turnsOf(history).map((t) => [t.start, t.end, t.calls.length, t.results.length, t.unanswered.map((c) => c.call.id)])).toEqual([[0, 1, 0, 0, []], [1, 3, 2, 1, ["b"]]])
    expect(Conversation.pendingToolCalls(history).map((ref) => ref.call.id)).toEqual(["b"])
  })

  it.effect("repair answers the interrupted call; repairFor(anthropic) also removes the unsigned thinking, its text kept in the log", () =>
    Effect.gen(function*() {
      const crashed = [
        Message.user("Open the config."),
        Message.assistant([Block.thinking("I should read it first."), Block.toolCall("call_7", "read_file", { path: "config.toml" })]),
        Message.user("Are you still there? ")
      ]
      expect(Repair.repair(crashed).actions.map((a) => a.description)).toEqual([
        'messages[1]: tool call "call_7" (read_file) had no result; inserted an error result "tool call was interrupted"'
      ])
      const forAnthropic = yield* Repair.repairFor("anthropic")(crashed)
      const removed = forAnthropic.actions[0]
      assert(removed?._tag === "RemovedBlock" && removed.block._tag === "Thinking")
      expect(removed.block.thinking).toBe("I should read it first.")
      expect(forAnthropic.actions.map((a) => a._tag)).toEqual(["RemovedBlock", "InsertedMissingResult"])
    }))
})
