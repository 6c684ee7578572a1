import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, Ref, Schema, Stream } from "effect"
import { Chat, LanguageModel, Prompt, type Response, Tokenizer, Tool, Toolkit } from "effect/ai"
import { Block, Conversation, Message, MessageWindow, Repair, Request, TokenEstimator } from "../../src/index.js"
import { Anthropic, EffectAi } from "../../src/providers/index.js"
import { intBetween, message, validConversation } from "../arbitraries.js"
import { exact, json, ok, tags } from "./adapterHelpers.js"

const runs = { arbitrary: { runs: 1_000 }, timeout: 120_000 }

const toPrompt = (messages: ReadonlyArray<Message.Message>) => exact(EffectAi.toPrompt(messages))
const fromPrompt = (prompt: Prompt.Prompt) => exact(EffectAi.fromPrompt(prompt))

const encodePrompt = Schema.encodeSync(Schema.fromJsonString(Prompt.Prompt))
const decodePrompt = Schema.decodeSync(Schema.fromJsonString(Prompt.Prompt))

describe("EffectAi.toPrompt / fromPrompt", () => {
  it.prop("ours -> Prompt -> ours is the identity for any conversation", [Arbitrary.array(message, { maxLength: 8 })], ([messages]) => {
    assert.deepStrictEqual(json(fromPrompt(toPrompt(messages))), json(messages))
  }, runs)

  it.prop("the Prompt survives effect/ai's own JSON encoding (Chat.exportJson / fromJson)", [validConversation], ([messages]) => {
    const again = decodePrompt(encodePrompt(toPrompt(messages)))
    assert.deepStrictEqual(json(fromPrompt(again)), json(messages))
  }, { arbitrary: { runs: 300 }, timeout: 120_000 })

  it("puts signatures and cache control where effect/ai's provider packages read them", () => {
    const prompt = toPrompt([
      Message.system([Block.text("Be brief.", { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })]),
      Message.assistant([
        Block.thinking("Two cities.", "EqQBCkgIARAB"),
        Block.thinking("", undefined, { itemId: "rs_1", encryptedContent: "gAAAAB", summary: ["**Plan**"] }),
        Block.redactedThinking("EmwKAhgB"),
        Block.toolCall("c1", "get_weather", { city: "Oslo" }, { thoughtSignature: "CiQB", itemId: "fc_1" })
      ])
    ])
    const [, assistant] = prompt.content
    assert.strictEqual(assistant?.role, "assistant")
    if (assistant?.role !== "assistant") return
    const [signed, openai, redacted, call] = assistant.content
    assert.deepStrictEqual(signed?.options["anthropic"], { info: { type: "thinking", signature: "EqQBCkgIARAB" } })
    assert.deepStrictEqual(openai?.options["openai"], { itemId: "rs_1", encryptedContent: "gAAAAB" })
    assert.deepStrictEqual(redacted?.options["anthropic"], { info: { type: "redacted_thinking", redactedData: "EmwKAhgB" } })
    assert.deepStrictEqual([call?.options["google"], call?.options["openai"]], [{ thoughtSignature: "CiQB" }, { itemId: "fc_1" }])
    // a system message with options on its block keeps the block, and says the cache control where Anthropic's package looks
    assert.strictEqual(prompt.content[0]?.role === "system" ? prompt.content[0].content : "", "Be brief.")
  })

  it("reads a Prompt built with effect/ai's constructors", () => {
    const prompt = Prompt.make([
      { role: "system", content: "You are terse." },
      { role: "user", content: [{ type: "text", text: "What is in this image?" }, { type: "file", mediaType: "image/png", data: new URL("https://example.com/cat.png") }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "A cat, probably.", options: { anthropic: { info: { type: "thinking", signature: "sig" } } } },
          { type: "tool-call", id: "c1", name: "classify", params: { url: "https://example.com/cat.png" }, providerExecuted: false },
          { type: "tool-approval-request", approvalId: "a1", toolCallId: "c1" }
        ]
      },
      { role: "tool", content: [{ type: "tool-result", id: "c1", name: "classify", isFailure: false, result: { label: "cat" }, providerExecuted: false }] }
    ])
    const messages = fromPrompt(prompt)
    assert.deepStrictEqual(json(messages), json([
      Message.system("You are terse."),
      Message.user([Block.text("What is in this image?"), Block.image("https://example.com/cat.png", { mediaType: "image/png" })]),
      Message.assistant([
        Block.thinking("A cat, probably.", "sig"),
        Block.toolCall("c1", "classify", { url: "https://example.com/cat.png" }),
        Block.providerData("effect-ai", { type: "tool-approval-request", approvalId: "a1", toolCallId: "c1" })
      ]),
      Message.tool(Block.toolResult("c1", "classify", [Block.json({ label: "cat" })]))
    ]))
    assert.isTrue(Conversation.isValid(messages))
    // the approval request goes back to effect/ai as the part it was
    const back = exact(EffectAi.toPrompt(messages))
    const assistant = back.content.find((m) => m.role === "assistant")!
    assert.deepStrictEqual((assistant.content as ReadonlyArray<{ readonly type: string }>).map((p) => p.type), ["reasoning", "tool-call", "tool-approval-request"])
  })

  it("reads file bytes as base64", () => {
    const prompt = Prompt.make([{ role: "user", content: [{ type: "file", mediaType: "application/pdf", data: new Uint8Array([37, 80, 68, 70]) }] }])
    const [user] = fromPrompt(prompt)
    const file = user?.content[0]
    assert.deepStrictEqual(file?._tag === "File" ? file.source : undefined, Block.base64("JVBERg=="))
  })

  it("writes a file in URL-safe, unpadded base64 (as a Gemini body may carry it) in the standard alphabet, padded, which effect/ai's providers send as it is", () => {
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xfb, 0xff, 0xfe, 0x3e, 0x3f])
    const urlSafe = Buffer.from(bytes).toString("base64url")
    const standard = Buffer.from(bytes).toString("base64")
    expect(urlSafe).not.toBe(standard)
    const [user] = toPrompt([Message.user([Block.file(Block.base64(urlSafe), "image/png"), Block.file(Block.base64(standard), "application/pdf")])]).content
    const files = user?.role === "user" ? user.content.flatMap((p) => (p.type === "file" ? [p.data] : [])) : []
    expect(files).toEqual([standard, standard])
    // the same bytes: read back, the file is the standard text
    const [back] = fromPrompt(toPrompt([Message.user([Block.file(Block.base64(urlSafe), "image/png")])]))
    expect(back?.content[0]?._tag === "File" ? back.content[0].source : undefined).toEqual(Block.base64(standard))
  })

  it("reports a tool approval response, which a tool message cannot hold", () => {
    const prompt = Prompt.make([{ role: "tool", content: [{ type: "tool-approval-response", approvalId: "a1", approved: true }] }])
    assert.deepStrictEqual(tags(ok(EffectAi.fromPrompt(prompt))), ["UnknownProviderField"])
  })
})

describe("EffectAi.fromResponseParts", () => {
  it("reads a LanguageModel response as the messages a Chat adds, with usage and finish reason", () => {
    const parts: Array<Response.AnyPart> = [
      { type: "response-metadata", id: "resp_1", modelId: "claude-sonnet-4-5" },
      { type: "reasoning", text: "Need the weather.", metadata: { anthropic: { info: { type: "thinking", signature: "sig" } } } },
      { type: "tool-call", id: "c1", name: "get_weather", params: { city: "Oslo" }, providerExecuted: false, metadata: {} },
      { type: "tool-result", id: "c1", name: "get_weather", isFailure: false, result: "12°C", encodedResult: "12°C", providerExecuted: false, preliminary: false, metadata: {} },
      { type: "finish", reason: "tool-calls", usage: { inputTokens: { total: 120, cacheRead: 100 }, outputTokens: { total: 30, reasoning: 12 } }, metadata: {} }
    ].map((p) => ({ ...p, "~effect/ai/Response/Part": "~effect/ai/Response/Part", metadata: (p as { metadata?: object }).metadata ?? {} })) as unknown as Array<Response.AnyPart>
    const decoded = exact(EffectAi.fromResponseParts(parts))
    assert.deepStrictEqual(decoded.messages.map((m) => m.role), ["assistant", "tool"])
    assert.deepStrictEqual(decoded.usage, new Message.Usage({ inputTokens: 120, cachedInputTokens: 100, outputTokens: 30, reasoningTokens: 12 }))
    assert.deepStrictEqual(decoded.messages[0]?.role === "assistant" ? decoded.messages[0].usage : undefined, decoded.usage)
    assert.deepStrictEqual([decoded.finishReason, decoded.id, decoded.model], ["tool-calls", "resp_1", "claude-sonnet-4-5"])
    assert.isTrue(Conversation.isValid([Message.user("Weather in Oslo?"), ...decoded.messages]))
  })

  it("reports the source and error parts a history has no place for", () => {
    const parts = [
      { type: "text", text: "Oslo is 4 °C [1]." },
      { type: "source", sourceType: "url", id: "s1", url: new URL("https://yr.no/oslo"), title: "Yr: Oslo" },
      { type: "error", error: "stream hiccup" }
    ].map((p) => ({ ...p, "~effect/ai/Response/Part": "~effect/ai/Response/Part", metadata: {} })) as unknown as Array<Response.AnyPart>
    const result = Effect.runSync(EffectAi.fromResponseParts(parts))
    assert.deepStrictEqual(result.value.messages.map((m) => Message.textOf(m)), ["Oslo is 4 °C [1]."])
    assert.deepStrictEqual(result.warnings.map((w) => w._tag), ["DroppedContent", "DroppedContent"])
    assert.include(result.warnings[0]!.message, "https://yr.no/oslo")
    assert.include(result.warnings[1]!.message, "stream hiccup")
  })
})

describe("EffectAi tools", () => {
  const weather = Request.tool("get_weather", {
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    strict: true
  })

  it("turns tool definitions into a Toolkit and back", () => {
    const { value: toolkit, warnings } = EffectAi.toToolkit([weather, Request.tool("now")])
    assert.deepStrictEqual(warnings, [])
    assert.deepStrictEqual(Object.keys(toolkit.tools), ["get_weather", "now"])
    const back = EffectAi.fromToolkit(toolkit)
    assert.deepStrictEqual(back.warnings, [])
    assert.deepStrictEqual(back.value, [weather, Request.tool("now")])
  })

  it("says what a Toolkit cannot hold: a provider's own tool, a tool's provider options, an earlier tool of the same name", () => {
    const cached = Request.tool("search", { parameters: { type: "object" }, providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })
    const { value: toolkit, warnings } = EffectAi.toToolkit([Request.tool("now"), Request.providerTool("web_search", "anthropic", "web_search_20250305"), cached, weather, Request.tool("now", { description: "the time" })])
    assert.deepStrictEqual(Object.keys(toolkit.tools).sort(), ["get_weather", "now", "search"])
    assert.deepStrictEqual(warnings.map((w) => w.message), [
      'the tool "web_search" that anthropic defines was left out: a Toolkit made from definitions holds function tools; give it to that provider\'s layer',
      'an earlier tool named "now" was left out: a Toolkit holds one tool per name: the last one is kept',
      'what the tool "search" carries for anthropic was left out: an effect/ai tool made from a definition has no provider options'
    ])
  })

  it("reads a Toolkit of schema-typed tools as JSON Schema definitions", () => {
    const toolkit = Toolkit.make(Tool.make("get_weather", { description: "Current weather", parameters: Schema.Struct({ city: Schema.String }) }))
    const [definition] = EffectAi.fromToolkit(toolkit).value
    assert.strictEqual(definition?.name, "get_weather")
    assert.deepStrictEqual((definition?.parameters as { readonly required?: unknown })?.required, ["city"])
  })

  it("maps tool choices both ways, and says when a choice among tools has no word in the model", () => {
    assert.deepStrictEqual(EffectAi.toToolChoice({ _tag: "Tool", name: "get_weather" }), { tool: "get_weather" })
    assert.deepStrictEqual(EffectAi.fromToolChoice({ tool: "get_weather" }).value, { _tag: "Tool", name: "get_weather" })
    assert.deepStrictEqual(EffectAi.fromToolChoice("none").value, "none")
    const several = EffectAi.fromToolChoice({ mode: "required", oneOf: ["a", "b"] })
    assert.deepStrictEqual([several.value, tags(several)], ["required", ["ConvertedContent"]])
  })
})

describe("EffectAi tokenizers", () => {
  const tokenizer = EffectAi.makeTokenizer(TokenEstimator.heuristic)

  it.effect("tokenize counts what the estimator counts", () =>
    Effect.gen(function* () {
      const messages = [Message.system("Be brief."), Message.user("What is the weather in Oslo?")]
      const tokens = yield* tokenizer.tokenize(toPrompt(messages))
      assert.strictEqual(tokens.length, TokenEstimator.heuristic.estimateConversation(messages))
    }))

  it.effect.prop("truncate keeps the system messages and whole newest turns within the budget, never orphaning a result", [validConversation, intBetween(0, 400)], ([messages, budget]) =>
    Effect.gen(function* () {
      const systems = messages.filter((m) => m.role === "system").length
      if (TokenEstimator.heuristic.estimateConversation(messages.slice(0, systems)) > budget) {
        const error = yield* Effect.flip(tokenizer.truncate(toPrompt(messages), budget))
        assert.strictEqual(error.reason._tag, "InvalidUserInputError")
        return
      }
      const truncated = fromPrompt(yield* tokenizer.truncate(toPrompt(messages), budget))
      assert.deepStrictEqual(truncated.slice(0, systems).map((m) => m.role), messages.slice(0, systems).map((m) => m.role))
      assert.isAtMost(TokenEstimator.heuristic.estimateConversation(truncated), budget)
      const rest = truncated.slice(systems)
      if (rest.length === 0) return
      assert.strictEqual(rest[0]?.role, "user")
      assert.deepStrictEqual(json(rest), json(messages.slice(messages.length - rest.length)))
      assert.isTrue(Conversation.isValid(truncated))
    }), { arbitrary: { runs: 300 }, timeout: 120_000 })

  it.effect("an effect/ai Tokenizer becomes the TokenEstimator", () =>
    Effect.gen(function* () {
      const estimator = yield* TokenEstimator.TokenEstimator
      // the word tokenizer counts one token per word of the one-message prompt
      assert.strictEqual(estimator.estimateText("one two three"), 3)
      assert.strictEqual(estimator.estimateMessage(Message.user("one two three")), 3 + 4)
    }).pipe(
      Effect.provide(EffectAi.layerTokenEstimator()),
      Effect.provideService(Tokenizer.Tokenizer, Tokenizer.make({
        tokenize: (prompt) => Effect.succeed(prompt.content.flatMap((m) => (typeof m.content === "string" ? [m.content] : m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])))).join(" ").split(/\s+/).filter((w) => w !== "").map((_, i) => i))
      }))
    ))

  it.effect("a tokenizer that cannot answer synchronously leaves the text to the heuristic", () =>
    Effect.gen(function* () {
      const estimator = yield* TokenEstimator.TokenEstimator
      assert.strictEqual(estimator.estimateText("What is the weather in Oslo?"), TokenEstimator.heuristic.estimateText("What is the weather in Oslo?"))
    }).pipe(
      Effect.provide(EffectAi.layerTokenEstimator()),
      Effect.provideService(Tokenizer.Tokenizer, Tokenizer.make({ tokenize: () => Effect.promise(() => Promise.resolve([1, 2])) }))
    ))
})

/** A LanguageModel that answers from a script: the first call asks for the weather, the second answers. */
const scriptedModel = Layer.effect(
  LanguageModel.LanguageModel,
  Effect.gen(function* () {
    const turn = yield* Ref.make(0)
    const finish = (reason: "stop" | "tool-calls") => ({ type: "finish" as const, reason, usage: { inputTokens: { total: 42 }, outputTokens: { total: 7 } } })
    return yield* LanguageModel.make({
      generateText: () =>
        Ref.getAndUpdate(turn, (n) => n + 1).pipe(
          Effect.map((n): Array<Response.PartEncoded> =>
            n === 0
              ? [{ type: "tool-call", id: "call_1", name: "get_weather", params: { city: "Oslo" } }, finish("tool-calls")]
              : [{ type: "text", text: "It is 12°C in Oslo." }, finish("stop")]
          )
        ),
      streamText: () => Stream.empty
    })
  })
)

const weather = Request.tool("get_weather", {
  description: "Current weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
})
const toolkit = EffectAi.toToolkit([weather]).value
const handlers = toolkit.toLayer({ get_weather: () => Effect.succeed("12°C, light rain") })

describe("EffectAi in an effect/ai Chat", () => {
  it.effect("a Chat turn with a tool call against a scripted model: its history validates, repairs and counts with this library", () =>
    Effect.gen(function* () {
      const { value: prompt } = yield* EffectAi.toPrompt([Message.system("You are a weather bot."), Message.user("Weather in Oslo?")])
      const chat = yield* Chat.fromPrompt(prompt)
      yield* chat.generateText({ prompt: [], toolkit })
      yield* chat.generateText({ prompt: [] })

      const { value: history, warnings } = yield* EffectAi.fromPrompt(yield* Ref.get(chat.history))
      assert.deepStrictEqual(warnings, [])
      assert.deepStrictEqual(history.map((m) => m.role), ["system", "user", "assistant", "tool", "assistant"])
      yield* Conversation.validate(history)
      assert.deepStrictEqual(Repair.repair(history).actions, [])
      const estimator = yield* TokenEstimator.TokenEstimator
      assert.isAbove(estimator.estimateConversation(history), 0)
      const last = history[4]
      assert.strictEqual(last?.role === "assistant" ? Message.textOf(last) : "", "It is 12°C in Oslo.")
    }).pipe(Effect.provide(scriptedModel), Effect.provide(handlers), Effect.provide(TokenEstimator.layer)))

  it.effect("an interrupted tool call in a Chat history is named by validation and answered by repair", () =>
    Effect.gen(function* () {
      const { value: prompt } = yield* EffectAi.toPrompt([Message.user("Weather in Oslo?")])
      const chat = yield* Chat.fromPrompt(prompt)
      // the tool is not run: the call stays unanswered, as after a crash
      yield* chat.generateText({ prompt: [], toolkit, disableToolCallResolution: true })
      const { value: history } = yield* EffectAi.fromPrompt(yield* Ref.get(chat.history))
      assert.strictEqual((yield* Effect.flip(Conversation.validate(history)))._tag, "MissingToolResult")
      const { messages } = Repair.repair(history)
      yield* Conversation.validate(messages)
      const { value: repaired } = yield* EffectAi.toPrompt(messages)
      const next = yield* Chat.fromPrompt(repaired)
      assert.strictEqual((yield* Ref.get(next.history)).content.length, messages.length)
    }).pipe(Effect.provide(scriptedModel), Effect.provide(handlers)))
})

describe("the README's effect/ai example", () => {
  // the README's program, verbatim but for the assertions
  const scripted = Layer.effect(
    LanguageModel.LanguageModel,
    LanguageModel.make({
      generateText: () =>
        Effect.succeed<Array<Response.PartEncoded>>([
          { type: "text", text: "It is 4°C and dry in Oslo." },
          { type: "finish", reason: "stop", usage: { inputTokens: { total: 42 }, outputTokens: { total: 9 } } }
        ]),
      streamText: () => Stream.empty
    })
  )

  it.effect("runs a Chat turn, validates, repairs, counts and trims its history, and puts it back", () =>
    Effect.gen(function* () {
      const { value: prompt } = yield* EffectAi.toPrompt([Message.system("You are terse."), Message.user("Weather in Oslo?")])
      const chat = yield* Chat.fromPrompt(prompt)
      yield* chat.generateText({ prompt: [] })

      const { value: history } = yield* EffectAi.fromPrompt(yield* Ref.get(chat.history))
      yield* Conversation.validate(history)
      const { messages } = Repair.repair(history)
      const estimator = yield* TokenEstimator.TokenEstimator
      const tokens = estimator.estimateConversation(messages)

      const fitted = yield* MessageWindow.fit(messages, 4_000, { strategy: ["clear_tool_results", "drop_oldest"] })
      const tight = yield* MessageWindow.fit(messages, tokens - 1, { strategy: ["clear_tool_results", "drop_oldest"] }).pipe(Effect.flip)
      assert.strictEqual(tight._tag, "BudgetTooSmall")

      const { value: next } = yield* EffectAi.toPrompt(fitted.messages)
      yield* Ref.set(chat.history, next)
      assert.deepStrictEqual(history.map((m) => m.role), ["system", "user", "assistant"])
      assert.strictEqual(Message.textOf(history[2]!), "It is 4°C and dry in Oslo.")
      assert.isAbove(tokens, 0)
      assert.strictEqual((yield* Ref.get(chat.history)).content.length, 3)
    }).pipe(Effect.provide(scripted), Effect.provide(MessageWindow.layer.pipe(Layer.provideMerge(TokenEstimator.layer)))))
})

describe("EffectAi cache breakpoints", () => {
  it.effect("a message-level cacheControl from effect/ai lands on the message's last block, which every provider can carry", () =>
    Effect.gen(function*() {
      const cache = { type: "ephemeral" }
      const prompt = Prompt.fromMessages([
        Prompt.systemMessage({ content: "long system prompt", options: { anthropic: { cacheControl: cache } } }),
        Prompt.userMessage({ content: [Prompt.textPart({ text: "a" }), Prompt.textPart({ text: "b" })], options: { anthropic: { cacheControl: cache } } })
      ])
      const { value: messages } = yield* EffectAi.fromPrompt(prompt)
      expect(messages.map((m) => [m.providerOptions, m.content.map((b) => (b as Block.TextBlock).providerOptions?.["anthropic"]?.["cache_control"])])).toEqual([
        [undefined, [cache]],
        [undefined, [undefined, cache]]
      ])
      const { value: body } = yield* Anthropic.toMessages(messages)
      expect(body.system).toEqual([{ type: "text", text: "long system prompt", cache_control: cache }])
      expect(body.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b", cache_control: cache }] })
      // and back: a system prompt's breakpoint is where effect/ai-anthropic reads it
      const { value: again } = yield* EffectAi.toPrompt(messages)
      expect(again.content[0]?.options["anthropic"]).toEqual({ cacheControl: cache })
    }))
})
