/**
 * `estimateRequest`: a whole request as each provider bills it. The figures
 * against the APIs' own numbers are in test/fixtures/requestTokens.test.ts
 * and test/fixtures/requestTranscripts.test.ts (recorded data).
 */
import { assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect } from "effect"
import { countOpenAiChatRequest, loadTextCounter, makeExact } from "../src/exact/index.js"
import { Block, Calibration, GeminiEstimator, Message, Provider, Request, TokenEstimator } from "../src/index.js"
import { chatRequestOf } from "../src/internal/chatRequestOf.js"
import { countChatRequest } from "../src/internal/openAiChatPrompt.js"
import { OpenAiChat, OpenAiResponses } from "../src/providers/index.js"
import { chatConversation } from "./providers/adapterArbitraries.js"
import * as Arb from "./arbitraries.js"
import * as Req from "./requestArbitraries.js"

const run = Effect.runSync

beforeAll(() => Effect.runPromise(Effect.asVoid(Effect.all([loadTextCounter("o200k"), loadTextCounter("cl100k")]))))
const exact = () => run(makeExact({ encoding: "o200k" }))
const heuristic = TokenEstimator.heuristic

const weather = Request.tool("get_weather", {
  description: "Current weather for a city",
  parameters: {
    type: "object",
    properties: {
      city: { type: "string", description: "The city, e.g. Oslo" },
      unit: { type: "string", enum: ["celsius", "fahrenheit"] }
    },
    required: ["city"]
  }
})
const conversation = [Message.system("You are a weather bot."), Message.user("What's the weather in Oslo?")]
const withTools = (options: Omit<ConstructorParameters<typeof Request.Request>[0], "messages"> = {}) =>
  Request.make(conversation, { tools: [weather], ...options })

describe("estimateRequest for OpenAI Chat", () => {
  it("with an exact layer, equals the exact count of the body OpenAiChat.toRequest writes", async () => {
    const request = withTools({ model: "gpt-4o", toolChoice: "auto" })
    const { value: body } = run(OpenAiChat.toRequest(request))
    const counted = await Effect.runPromise(countOpenAiChatRequest(body))
    const estimate = exact().estimateRequest(request)
    expect(estimate.total).toBe(counted.total)
    expect([estimate.tools, estimate.framing]).toEqual([counted.tools, counted.framing])
  })

  it("gives each message its framing: three special tokens, the role, then the content", () => {
    const e = exact()
    const estimate = e.estimateRequest(Request.make([Message.user("hello world")]))
    expect(estimate.messages).toEqual([3 + e.estimateText("user") + e.estimateText("hello world")])
  })

  it("counts an image given by URL as the estimator counts it, so a window and the request count agree", () => {
    for (const e of [heuristic, exact()]) {
      for (const detail of [undefined, "auto", "high", "low"] as const) {
        const image = Block.image("https://example.com/cat.png", detail === undefined ? {} : { detail })
        const plain = e.estimateRequest(Request.make([Message.user("What is in this picture?")])).messages[0]!
        const pictured = e.estimateRequest(Request.make([Message.user([Block.text("What is in this picture?"), image])])).messages[0]!
        expect(pictured - plain).toBe(e.estimateBlock(image))
      }
    }
  })

  it("counts a participant name in the message header", () => {
    const e = exact()
    const plain = e.estimateRequest(Request.make([Message.user("hi")])).messages[0]!
    const named = e.estimateRequest(Request.make([Message.user("hi", { name: "alice" })])).messages[0]!
    expect(named).toBeGreaterThan(plain)
  })

  it("primes the reply with three tokens without tools, two when the model may choose a tool", () => {
    const e = exact()
    expect(e.estimateRequest(Request.make(conversation)).framing).toBe(3)
    expect(e.estimateRequest(withTools()).framing).toBe(2)
    expect(e.estimateRequest(withTools({ toolChoice: "auto" })).framing).toBe(2)
    expect(e.estimateRequest(withTools({ toolChoice: "required" })).framing).toBe(2)
    expect(e.estimateRequest(withTools({ toolChoice: "none" })).framing).toBe(3)
  })

  it("charges a named tool choice its recipient", () => {
    const e = exact()
    const named = e.estimateRequest(withTools({ model: "gpt-4o", toolChoice: { _tag: "Tool", name: "get_weather" } }))
    expect(named.framing).toBe(2 + e.estimateText("assistant to=functions.get_weather") + 3)
  })

  it("reports the definitions' share: the request with them minus without, priming aside", () => {
    for (const e of [exact(), heuristic]) {
      const bare = e.estimateRequest(Request.make(conversation))
      const full = e.estimateRequest(withTools())
      expect(full.tools).toBeGreaterThan(0)
      expect(full.total - bare.total).toBe(full.tools + full.framing - bare.framing)
    }
  })

  it("counts a tool without parameters", () => {
    const estimate = exact().estimateRequest(Request.make(conversation, { tools: [Request.tool("now")] }))
    expect(estimate.tools).toBeGreaterThan(0)
  })

  it("counts a JSON-schema response format", () => {
    const format: Request.ResponseFormat = { _tag: "JsonSchema", name: "answer", schema: { type: "object", properties: { text: { type: "string" } } } }
    expect(exact().estimateRequest(Request.make(conversation, { responseFormat: format })).responseFormat).toBeGreaterThan(0)
  })

  it("lays out the June 2023 snapshots their own way when the model names one", () => {
    const nested = Request.tool("f", {
      parameters: { type: "object", properties: { o: { type: "object", properties: { a: { type: "string", description: "an inner description" } } } } }
    })
    const request = Request.make(conversation, { tools: [nested] })
    const current = exact().estimateRequest(request, { model: "gpt-4o" })
    const june = exact().estimateRequest(request, { model: "gpt-4-0613" })
    expect(june.tools).toBeLessThan(current.tools)
  })

  /** Requests with everything a conversation can hold, Chat Completions' own forms included, and every kind of tool. */
  const anyRequest = Arbitrary.all({
    messages: Arb.intBetween(0, 1).pipe(Arbitrary.flatMap((k) => (k === 0 ? Arbitrary.array(Arb.message, { maxLength: 8 }) : chatConversation))),
    fixed: Req.fixedPart,
    kinds: Arbitrary.array(Arb.intBetween(0, 4), { maxLength: 5 })
  }).pipe(
    Arbitrary.map(({ fixed, kinds, messages }) => {
      // some tools defined the deprecated way, as custom tools, or by a provider
      const tools = fixed.tools.map((t, i) => {
        switch (kinds[i]) {
          case 1:
            return Request.tool(t.name, { ...t, providerOptions: { "openai-chat": { type: "custom" } } })
          case 2:
            return Request.providerTool(t.name, "anthropic", "web_search_20250305")
          case 3:
            return Request.tool(t.name, { ...t, providerOptions: { "openai-chat": { type: "functions" } } })
          default:
            return t
        }
      })
      return Req.requestWith(messages, { ...fixed, tools })
    })
  )

  it.prop(
    "renders exactly as the body OpenAiChat.toRequest writes, message by message",
    [anyRequest],
    ([request]) => {
      const count = (t: string) => t.length
      const written = countChatRequest(Effect.runSync(OpenAiChat.toRequest(request)).value, count)
      const { body, starts } = chatRequestOf(request)
      const read = countChatRequest(body, count)
      assert.deepStrictEqual(read, written)
      assert.strictEqual(starts.length, request.messages.length)
    },
    { arbitrary: { runs: 1000 }, timeout: 120_000 }
  )

  it("renders a participant name as the writer sends it: in the characters the API takes, an empty one not at all", () => {
    const request = Request.make([Message.system("Be brief.", { name: "ops.bot" }), Message.user("hi", { name: "Bob Smith" }), Message.assistant("hello", { name: "" })])
    // a count that tells the characters the writer replaces from the one it writes
    const count = (t: string) => t.length + 10 * [...t].filter((c) => c === " " || c === ".").length
    assert.deepStrictEqual(countChatRequest(chatRequestOf(request).body, count), countChatRequest(run(OpenAiChat.toRequest(request)).value, count))
    // the Responses writer sends no name: it costs nothing there
    const named = Request.make([Message.user("hi", { name: "bob" })], { model: "gpt-4o" })
    const unnamed = Request.make([Message.user("hi")], { model: "gpt-4o" })
    assert.strictEqual(heuristic.estimateRequest(named, { provider: "openai-responses" }).total, heuristic.estimateRequest(unnamed, { provider: "openai-responses" }).total)
    assert.isAbove(heuristic.estimateRequest(named, { provider: "openai-chat" }).total, heuristic.estimateRequest(unnamed, { provider: "openai-chat" }).total)
  })

  it.prop(
    "with an exact layer, equals the exact count of the written body for any request",
    [Req.request],
    ([request]) => {
      const { value: body } = run(OpenAiChat.toRequest(request))
      const counted = Effect.runSync(countOpenAiChatRequest(body, { encoding: "o200k" }))
      assert.strictEqual(exact().estimateRequest(request).total, counted.total)
    },
    { arbitrary: { runs: 300 }, timeout: 120_000 }
  )
})

describe("estimateRequest for Anthropic", () => {
  const estimate = (request: Request.Request, model: string) => heuristic.estimateRequest(request, { provider: "anthropic", model })

  it("adds the documented tool-use system prompt for the model family and tool choice", () => {
    expect(estimate(withTools(), "claude-sonnet-4-5-20250929").framing).toBe(496)
    expect(estimate(withTools({ toolChoice: "required" }), "claude-sonnet-4-5").framing).toBe(588)
    expect(estimate(withTools({ toolChoice: { _tag: "Tool", name: "get_weather" } }), "claude-opus-4-7").framing).toBe(804)
    expect(estimate(withTools({ toolChoice: "none" }), "claude-haiku-4-5").framing).toBe(496)
    expect(estimate(withTools(), "claude-3-5-sonnet-20240620").framing).toBe(294)
    // Vertex AI writes the date after an @
    expect(estimate(withTools(), "claude-3-5-sonnet@20240620").framing).toBe(294)
    expect(estimate(withTools(), "claude-3-5-sonnet-20241022").framing).toBe(346)
    expect(estimate(withTools(), "us.anthropic.claude-opus-4-1-20250805-v1:0").framing).toBe(313)
  })

  it("adds no tool-use system prompt without tools", () => {
    expect(estimate(Request.make(conversation, { toolChoice: "none" }), "claude-sonnet-4-5").framing).toBe(0)
  })

  it("assumes the current mid-size models' figures for a model it does not know", () => {
    expect(estimate(withTools(), "claude-next").framing).toBe(497)
  })

  it("charges Anthropic-schema tools their documented cost", () => {
    const anthropicTool = (name: string, type: string) => Request.providerTool(name, "anthropic", type)
    const only = (tool: Request.ToolDefinition, model: string) => estimate(Request.make(conversation, { tools: [tool] }), model)
    expect(only(anthropicTool("bash", "bash_20250124"), "claude-sonnet-4-5").tools).toBe(244)
    expect(only(anthropicTool("bash", "bash_20250124"), "claude-opus-4-8").tools).toBe(325)
    expect(only(anthropicTool("str_replace_based_edit_tool", "text_editor_20250728"), "claude-sonnet-4-5").tools).toBe(700)
    const computer = only(anthropicTool("computer", "computer_20250124"), "claude-sonnet-4-5")
    expect([computer.tools, computer.framing]).toEqual([735, 496 + 499])
  })

  it("counts a client tool by its definition and a server tool by what is sent", () => {
    const search = Request.providerTool("web_search", "anthropic", "web_search_20250305", { max_uses: 5 })
    const e = estimate(Request.make(conversation, { tools: [weather, search] }), "claude-sonnet-4-5")
    expect(e.tools).toBe(
      heuristic.estimateText(JSON.stringify({ name: "get_weather", description: weather.description, input_schema: weather.parameters })) +
        heuristic.estimateText(JSON.stringify({ max_uses: 5, type: "web_search_20250305", name: "web_search" }))
    )
  })

  it("reads a server tool written with its Anthropic type in the provider options, as earlier versions did", () => {
    const legacy = Request.tool("bash", { providerOptions: { anthropic: { type: "bash_20250124" } } })
    expect(estimate(Request.make(conversation, { tools: [legacy] }), "claude-sonnet-4-5").tools).toBe(244)
  })

  it("for Gemini, leaves out Anthropic's tools kept with their Anthropic type, which the Gemini writer does not send", () => {
    const legacy = Request.tool("bash", { providerOptions: { anthropic: { type: "bash_20250124" } } })
    const plain = Request.make(conversation, { tools: [Request.tool("get_weather")] })
    const withLegacy = Request.make(conversation, { tools: [Request.tool("get_weather"), legacy] })
    for (const model of ["gemini-2.5-flash", "gemini-3-flash-preview"]) {
      const options = { provider: "gemini", model } as const
      expect(heuristic.estimateRequest(withLegacy, options).tools).toBe(heuristic.estimateRequest(plain, options).tools)
    }
  })

  it("leaves out a tool another provider defines, which is not sent", () => {
    const googleSearch = Request.providerTool("googleSearch", "gemini", "googleSearch", {})
    const e = estimate(Request.make(conversation, { tools: [googleSearch] }), "claude-sonnet-4-5")
    expect([e.tools, e.framing]).toEqual([0, 0])
  })

  const thinkingHistory = [
    Message.user("Plan a trip."),
    Message.assistant([Block.thinking("Let me think about the route at length.", "sig"), Block.text("Go by train.")]),
    Message.user("And back?")
  ]

  it("leaves out earlier turns' thinking on models that strip it", () => {
    const request = Request.make(thinkingHistory)
    const stripped = estimate(request, "claude-sonnet-4-5").messages[1]!
    expect(stripped).toBe(heuristic.estimateMessage(thinkingHistory[1]!) - heuristic.estimateBlock(thinkingHistory[1]!.content[0]!))
  })

  it("keeps earlier turns' thinking on models that keep it", () => {
    const request = Request.make(thinkingHistory)
    expect(estimate(request, "claude-opus-4-6").messages[1]).toBe(heuristic.estimateMessage(thinkingHistory[1]!))
  })

  it("adds the input that extended thinking and a structured output format bring, as recorded: 32 and 142 tokens of framing", () => {
    const plain = estimate(Request.make(conversation), "claude-sonnet-4-5")
    const thinking = estimate(Request.make(conversation, { providerOptions: { anthropic: { thinking: { type: "enabled", budget_tokens: 1024 } } } }), "claude-sonnet-4-5")
    expect(thinking.framing - plain.framing).toBe(32)
    // adaptive thinking shows no such constant in the recordings
    const adaptive = estimate(Request.make(conversation, { providerOptions: { anthropic: { thinking: { type: "adaptive" } } } }), "claude-opus-4-6")
    expect(adaptive.framing).toBe(0)
    const schema = { type: "object", properties: { city: { type: "string" } } }
    const format = estimate(Request.make(conversation, { responseFormat: { _tag: "JsonSchema", name: "response", schema } }), "claude-sonnet-4-5")
    expect([format.responseFormat, format.framing - plain.framing]).toEqual([heuristic.estimateText(JSON.stringify(schema)), 142])
  })
})

/** A data URL holding the header of a PNG image of the given size: all an estimate reads of an image. */
const pngDataUrl = (width: number, height: number) => {
  const header = Buffer.alloc(33)
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(header, 0)
  header.writeUInt32BE(width, 16)
  header.writeUInt32BE(height, 20)
  return `data:image/png;base64,${header.toString("base64")}`
}

/** What an image adds to a request's first message, under a provider and model. */
const imageCost = (
  e: TokenEstimator.Service,
  image: Block.FileBlock,
  provider: Provider.Provider,
  model: string | undefined,
  providerOptions?: Request.Request["providerOptions"]
) => {
  const options = { ...(model === undefined ? {} : { model }), ...(providerOptions === undefined ? {} : { providerOptions }) }
  const plain = e.estimateRequest(Request.make([Message.user([Block.text("What is in this picture?")])], options), { provider }).messages[0]!
  const pictured = e.estimateRequest(Request.make([Message.user([Block.text("What is in this picture?"), image])], options), { provider }).messages[0]!
  return pictured - plain
}

describe("estimateRequest prices images as each provider does", () => {
  const wide = Block.image(pngDataUrl(1000, 500))

  it("Anthropic: an inline 1000x500 PNG costs 667 (width x height / 750), not the 425 of OpenAI's tile rule", () => {
    expect(heuristic.estimateBlock(wide)).toBe(425)
    for (const model of ["claude-sonnet-4-5", "claude-opus-4-7", undefined]) expect(imageCost(heuristic, wide, "anthropic", model)).toBe(667)
  })

  it("Anthropic: a large inline image is scaled to the model's limits first", () => {
    const large = Block.image(pngDataUrl(4000, 3000))
    const standard = imageCost(heuristic, large, "anthropic", "claude-sonnet-4-5")
    expect(standard).toBeGreaterThan(1550)
    expect(standard).toBeLessThanOrEqual(1600)
    const high = imageCost(heuristic, large, "anthropic", "claude-opus-4-8")
    expect(high).toBeGreaterThan(4900)
    expect(high).toBeLessThanOrEqual(5000)
  })

  it("Anthropic: an image whose size the request does not show costs what the largest image does, 1,600 (5,000 on Opus 4.7 and later)", () => {
    for (const image of [Block.image("https://example.com/cat.png"), Block.image(Block.fileId("file_011"), { mediaType: "image/png" })]) {
      expect(imageCost(heuristic, image, "anthropic", "claude-haiku-4-5")).toBe(1600)
      expect(imageCost(heuristic, image, "anthropic", undefined)).toBe(1600)
      expect(imageCost(heuristic, image, "anthropic", "claude-opus-4-7")).toBe(5000)
    }
    // the version read from every way an id spells it: a two-digit minor is later than 4.7, a date is no minor
    const url = Block.image("https://example.com/cat.png")
    for (const model of ["claude-opus-4-7-20260416", "us.anthropic.claude-opus-4-7-v1:0", "claude-opus-4-7@20260416", "anthropic/claude-opus-4.7", "claude-opus-4-10", "claude-opus-4-10-20270101", "claude-opus-5"]) {
      expect(imageCost(heuristic, url, "anthropic", model), model).toBe(5000)
    }
    for (const model of ["claude-opus-4-20250514", "claude-opus-4-6", "claude-opus-4.1", "claude-sonnet-4-10", "claude-3-opus-20240229"]) {
      expect(imageCost(heuristic, url, "anthropic", model), model).toBe(1600)
    }
  })

  it("Gemini 3: any image costs its media resolution's figure, 1,120 by default, the part's setting over the request's", () => {
    const model = "gemini-3-flash-preview"
    for (const image of [wide, Block.image(pngDataUrl(200, 100)), Block.image("gs://bucket/cat.png", { mediaType: "image/png" })]) {
      expect(imageCost(heuristic, image, "gemini", model)).toBe(1120)
    }
    const low = { gemini: { generationConfig: { mediaResolution: "MEDIA_RESOLUTION_LOW" } } }
    expect(imageCost(heuristic, wide, "gemini", model, low)).toBe(280)
    const medium = Block.image(pngDataUrl(1000, 500), { providerOptions: { gemini: { mediaResolution: { level: "MEDIA_RESOLUTION_MEDIUM" } } } })
    expect(imageCost(heuristic, medium, "gemini", model, low)).toBe(560)
  })

  it("Gemini 2.x: 258 tokens per 768x768 tile, 258 for an image within 384x384", () => {
    expect(imageCost(heuristic, wide, "gemini", "gemini-2.5-flash")).toBe(2 * 258)
    expect(imageCost(heuristic, Block.image(pngDataUrl(384, 200)), "gemini", "gemini-2.0-flash")).toBe(258)
  })

  it("prices an image in a tool result the same way", () => {
    const call = Message.assistant([Block.toolCall("c1", "screenshot", {})])
    const withParts = (parts: ReadonlyArray<Block.ToolResultPart>) =>
      Request.make([Message.user("Take a screenshot"), call, Message.tool(Block.toolResult("c1", "screenshot", [Block.text("done"), ...parts]))])
    for (const [provider, model, expected] of [["anthropic", "claude-sonnet-4-5", 667], ["gemini", "gemini-3-flash-preview", 1120]] as const) {
      const plain = heuristic.estimateRequest(withParts([]), { provider, model }).messages[2]!
      const pictured = heuristic.estimateRequest(withParts([wide]), { provider, model }).messages[2]!
      expect(pictured - plain, provider).toBe(expected)
    }
  })

  it("replaces exactly what the estimator charged for the image, whatever its file rule", () => {
    const custom = run(TokenEstimator.make({ estimateText: (t) => Math.ceil(t.length / 4), estimateFile: () => 7 }))
    expect(imageCost(custom, wide, "anthropic", "claude-sonnet-4-5")).toBe(667)
    expect(imageCost(custom, wide, "gemini", "gemini-3-flash-preview")).toBe(1120)
  })

  it("leaves documents as the estimator counts them", () => {
    const pdf = Block.document("https://example.com/report.pdf")
    for (const provider of ["anthropic", "gemini"] as const) expect(imageCost(heuristic, pdf, provider, undefined)).toBe(heuristic.estimateBlock(pdf))
  })

  it("leaves OpenAI's rendering to OpenAI's prices", () => {
    expect(imageCost(heuristic, wide, "openai-chat", "gpt-4o")).toBe(425)
  })
})

describe("estimateRequest for Gemini and OpenAI Responses", () => {
  it("Gemini counts each declaration and the tools kept as sent, and one token a content in place of the estimator's message overhead", () => {
    const request = Request.make(conversation, { tools: [weather, Request.providerTool("googleSearch", "gemini", "googleSearch", {})] })
    const e = heuristic.estimateRequest(request, { provider: "gemini" })
    expect(e.framing).toBe(0)
    // the declaration as Gemini writes it into the prompt: keys bare, each of its 8 strings between two one-token
    // marks, the whole between two more
    const declaration = "declaration:get_weather{description:Current weather for a city,parameters:{type:object,properties:" +
      "{city:{type:string,description:The city, e.g. Oslo},unit:{type:string,enum:[celsius,fahrenheit]}},required:[city]}}"
    expect(e.tools).toBe(heuristic.estimateText(declaration) + 2 + 2 * 8 + heuristic.estimateText(JSON.stringify({ googleSearch: {} })))
    const overhead = TokenEstimator.DEFAULT_MESSAGE_OVERHEAD
    expect(e.messages).toEqual(conversation.map((m) => heuristic.estimateMessage(m) - overhead + 1))
  })

  it("Gemini's framing: 1 token a content on 2.5 and later (and an unnamed model), none on 1.5 and 2.0", () => {
    const text = [Message.system("Be brief."), Message.user("What is the capital of France?"), Message.assistantMessage("Paris."), Message.user("And of Spain?")]
    const texts = text.map((m) => heuristic.estimateMessage(m) - TokenEstimator.DEFAULT_MESSAGE_OVERHEAD)
    const framed = (model: string | undefined) => heuristic.estimateRequest(Request.make(text), { provider: "gemini", ...(model === undefined ? {} : { model }) }).messages
    for (const model of [undefined, "gemini-2.5-flash", "gemini-3-pro-preview"]) expect(framed(model)).toEqual(texts.map((n) => n + 1))
    for (const model of ["gemini-1.5-flash", "gemini-2.0-flash-001", "gemma-3-27b-it"]) expect(framed(model)).toEqual(texts)
    // the measured figure holds whatever overhead the estimator was built with
    const custom = Effect.runSync(TokenEstimator.makeHeuristic({ encoding: "o200k", messageOverhead: 9 }))
    expect(custom.estimateRequest(Request.make(text), { provider: "gemini", model: "gemini-2.5-flash" }).messages).toEqual(texts.map((n) => n + 1))
  })

  it("Gemini writes function calls and responses as text between marks, and bills little more than their strings on 1.5 and 2.0", () => {
    const call = Block.toolCall("c1", "get_weather", { city: "Oslo", days: 2 })
    const result = Block.toolResult("c1", "get_weather", "12 °C")
    const calls = [Message.assistant([call]), Message.tool(result)]
    const others = (m: Message.Message) => heuristic.estimateMessage(m) - TokenEstimator.DEFAULT_MESSAGE_OVERHEAD - heuristic.estimateBlock(m.content[0]!)
    const written = [
      // two marks around the call, two around its one string
      heuristic.estimateText("call:get_weather{city:Oslo,days:2}") + 4,
      // a text result is written as the adapter sends it, under `output`
      heuristic.estimateText("response:get_weather{output:12 °C}") + 4
    ]
    const estimate = (model: string) => heuristic.estimateRequest(Request.make(calls), { provider: "gemini", model }).messages
    expect(estimate("gemini-3-flash-preview")).toEqual(calls.map((m, i) => others(m) + 1 + written[i]!))
    // 1.5 and 2.0: the name and the string values
    expect(estimate("gemini-2.0-flash")).toEqual(calls.map((m, i) => others(m) + heuristic.estimateText(["call:get_weather Oslo", "response:get_weather 12 °C"][i]!)))
    // a JSON object result is the response itself; an error's text goes under `error`
    const json = Message.tool(Block.toolResult("c1", "get_weather", [Block.json({ celsius: 12 })]))
    const error = Message.tool(Block.toolResult("c1", "get_weather", "no such city", true))
    expect(heuristic.estimateRequest(Request.make([json, error]), { provider: "gemini", model: "gemini-3-flash-preview" }).messages).toEqual([
      others(json) + 1 + heuristic.estimateText("response:get_weather{celsius:12}") + 2,
      others(error) + 1 + heuristic.estimateText("response:get_weather{error:no such city}") + 4
    ])
    // several parts are one text, joined by line breaks as the adapter joins them (Block.resultContentText)
    const parts = Message.tool(Block.toolResult("c1", "get_weather", [Block.text("12 °C"), Block.json([1, 2])]))
    expect(heuristic.estimateRequest(Request.make([parts]), { provider: "gemini", model: "gemini-3-flash-preview" }).messages).toEqual([
      others(parts) + 1 + heuristic.estimateText("response:get_weather{output:12 °C\\n[1,2]}") + 4
    ])
  })

  it("Gemini: a function call or response is counted as Gemini writes it, and only so (its text is read once, not also as the estimator counts it)", () => {
    const rule = (t: string) => Math.ceil(t.length / 4)
    const read: Array<string> = []
    const spy = TokenEstimator.fromTextRule((t) => (read.push(t), rule(t)))
    const big = '{"a":"x\\"y"}\n'.repeat(20_000)
    const escaped = JSON.stringify(big).slice(1, -1)
    const calls = [Message.assistant([Block.text("reading"), Block.toolCall("c1", "read", { path: big })]), Message.tool([Block.toolResult("c1", "read", big), Block.toolResult("c2", "read", big, true)])]
    const e = spy.estimateRequest(Request.make(calls), { provider: "gemini", model: "gemini-3-flash-preview" })
    const written = [`call:read{path:${escaped}}`, `response:read{output:${escaped}}`, `response:read{error:${escaped}}`]
    // the call's arguments and each result as Gemini writes them, each once: the only texts of their length the rule reads
    expect(read.filter((t) => t.length >= big.length)).toEqual(written)
    // 1 token a content, two marks around each function part and two around its one string
    expect(e.messages).toEqual([1 + rule("reading") + rule(written[0]!) + 4, 1 + rule(written[1]!) + 4 + rule(written[2]!) + 4])
  })

  it("Gemini: a result of megabytes is counted, and references that multiply a schema are written out only so far", () => {
    // a 12 MB text result full of quotes and backslashes (a pattern over its JSON string overflowed the stack)
    const text = 'say "hi" \\ '.repeat(1_000_000)
    const calls = [Message.assistant([Block.toolCall("c1", "read", {})]), Message.toolResultMessage("c1", "read", text)]
    const e = heuristic.estimateRequest(Request.make(calls), { provider: "gemini", model: "gemini-3-flash-preview" })
    expect(e.messages[1]).toBeGreaterThan(heuristic.estimateText(text))
    // the parameters and each definition refer to the next definition 60 times: written out in full, 216,000 leaves
    const refs = (to: string) => ({ type: "object", properties: Object.fromEntries(Array.from({ length: 60 }, (_, k) => [`p${k}`, { $ref: `#/$defs/${to}` }])) })
    const defs = { d1: refs("d2"), d2: refs("d3"), d3: { type: "string", description: "a leaf" } }
    const tool = Request.tool("deep", { parameters: { ...refs("d1"), $defs: defs } })
    const tools = heuristic.estimateRequest(Request.make([Message.user("hi")], { tools: [tool] }), { provider: "gemini" }).tools
    expect(tools).toBeGreaterThan(heuristic.estimateText(JSON.stringify(defs)))
    // written out up to 8 times the schema's text and 64 KB: tens of thousands of tokens, not millions
    expect(tools).toBeLessThan(60_000)
  })

  it("Gemini 2.5 bills a declaration as 18 tokens, its name and description, and for each property its name, its description less 1 and 10", () => {
    const t = heuristic.estimateText
    const tools = (tool: Request.ToolDefinition, model = "gemini-2.5-flash") =>
      heuristic.estimateRequest(Request.make([Message.user("hi")], { tools: [tool] }), { provider: "gemini", model }).tools
    expect(tools(Request.tool("dummy", { parameters: { type: "object", properties: {} } }))).toBe(t("dummy") + 18)
    // the weather tool: two properties, one described, and the enum's values
    expect(tools(weather)).toBe(
      t("get_weather") + t("Current weather for a city") + 18 + t("city") + 10 + t("The city, e.g. Oslo") - 1 + t("unit") + 10 + t("celsius fahrenheit")
    )
    // Gemini 3 writes the same declaration in FunctionGemma's format, which costs more here
    expect(tools(weather, "gemini-3-flash-preview")).toBeGreaterThan(tools(weather))
    // an object below the top (a property's, an array's items) costs 44 more; a reference is written out where it stands
    const address = { type: "object", properties: { street: { type: "string" } } }
    const flat = tools(Request.tool("save", { parameters: { type: "object", properties: { street: { type: "string" } } } }))
    const nested = tools(Request.tool("save", { parameters: { type: "object", properties: { address } } }))
    expect(nested - flat).toBe(t("address") + 10 + 44)
    const listed = tools(Request.tool("save", { parameters: { type: "object", properties: { address: { type: "array", items: { $ref: "#/$defs/A" } } }, $defs: { A: address } } }))
    expect(listed).toBe(nested)
  })

  it("Gemini 2.5: a schema nested deeper than the stack, or multiplied by references, is counted so far and no further", () => {
    const tools = (parameters: { readonly [key: string]: unknown }) =>
      heuristic.estimateRequest(Request.make([Message.user("hi")], { tools: [Request.tool("deep", { parameters })] }), { provider: "gemini", model: "gemini-2.5-pro" }).tools
    let deep: { readonly [key: string]: unknown } = { type: "string" }
    for (let i = 0; i < 20_000; i++) deep = { type: "object", properties: { a: deep } }
    expect(tools(deep)).toBeGreaterThan(64 * 54)
    // each level refers to the next 60 times, five levels and a cycle: 60^6 properties if written out in full
    const refs = (to: string) => ({ type: "object", properties: Object.fromEntries(Array.from({ length: 60 }, (_, k) => [`p${k}`, { $ref: `#/$defs/${to}` }])) })
    const count = tools({ ...refs("d1"), $defs: { d1: refs("d2"), d2: refs("d3"), d3: refs("d4"), d4: refs("d5"), d5: refs("d1") } })
    expect(count).toBeGreaterThan(60 * 11)
    expect(count).toBeLessThan(1_000_000)
    // a reference to a definition that is not an object (a boolean schema) is counted as written
    const bool = { type: "object", properties: { a: { $ref: "#/$defs/T" }, b: { type: "array", items: { $ref: "#/$defs/L" } } }, $defs: { T: true, L: [1] } }
    expect(tools(bool)).toBe(tools({ type: "object", properties: { a: {}, b: { type: "array", items: {} } } }))
  })

  it("Gemini: a schema a million levels deep is counted as it always was, and for Gemini 2.5 only as deep as it is read", () => {
    let deep: { readonly [key: string]: unknown } = { type: "string" }
    for (let i = 0; i < 1_000_000; i++) deep = { type: "object", properties: { a: deep } }
    const request = Request.make([Message.user("hi")], { tools: [Request.tool("deep", { parameters: deep })] })
    const defs = { R: { type: "object", properties: { x: { type: "string", description: "a leaf" }, y: { $ref: "#/$defs/S" } } }, S: { type: "array", items: { type: "integer" } } }
    const parameters = { type: "object", properties: { r: { $ref: "#/$defs/R" }, deep }, $defs: defs }
    const referring = Request.make([Message.user("hi")], { tools: [Request.tool("deep", { description: "Deep, and a reference", parameters })] })
    const tools = (r: Request.Request, model: string) => heuristic.estimateRequest(r, { provider: "gemini", model }).tools
    // the figures of the code that wrote out and read back all million levels (4 to 7 seconds each)
    expect(tools(request, "gemini-2.5-flash")).toBe(3550)
    expect(tools(referring, "gemini-2.5-flash")).toBe(3633)
    expect(run(GeminiEstimator.make()).estimateRequest(request, { model: "gemini-2.5-flash" }).tools).toBe(3550)
    // Gemini 3 writes the whole declaration (its text priced by the fitted table: a refit moves this figure; the
    // writers were checked against the old ones on the table of the time), without the empty description it leaves
    // out (5 tokens less since it is)
    expect(tools(request, "gemini-3-flash-preview")).toBe(10_995_556)
  }, 300_000)

  it("Gemini: a definition a million levels deep, past the room for references, is left as written as it always was", () => {
    let deep: { readonly [key: string]: unknown } = { type: "string" }
    for (let i = 0; i < 1_000_000; i++) deep = { type: "object", properties: { a: deep } }
    const parameters = { type: "object", properties: { r: { $ref: "#/$defs/R" }, s: { $ref: "#/$defs/R" } }, $defs: { R: deep } }
    const request = Request.make([Message.user("hi")], { tools: [Request.tool("deep", { parameters })] })
    const tools = (model: string) => heuristic.estimateRequest(request, { provider: "gemini", model }).tools
    // the figures of the code that wrote the definition out again at each reference in each pass (17 and 31 seconds)
    expect(tools("gemini-2.5-flash")).toBe(41)
    // (less the empty description Gemini 3 leaves out: 40 while it was written)
    expect(tools("gemini-3-flash-preview")).toBe(36)
  }, 300_000)

  it("Gemini: a function call and its JSON result a million levels deep are counted as they always were", () => {
    let args: { readonly [key: string]: unknown } = { leaf: "x" }
    for (let i = 0; i < 1_000_000; i++) args = { a: args, s: "v" }
    const request = Request.make([
      Message.user("hi"),
      Message.assistant([Block.toolCall("c1", "deep", args as Block.JsonObject)]),
      Message.tool(Block.toolResult("c1", "deep", [Block.json(args as Block.JsonObject)]))
    ])
    const messages = (model: string) => heuristic.estimateRequest(request, { provider: "gemini", model }).messages
    // the figures of the code that held the 16 million pieces of each text until the end (9 seconds), on the fitted
    // table of this commit (the texts are priced by it: a refit moves them)
    expect(messages("gemini-3-flash-preview")).toEqual([2, 7_454_388, 7_454_388])
    // 1.5 and 2.0: the name and the string values
    expect(messages("gemini-2.0-flash")).toEqual([1, 1_061_344, 1_061_344])
  }, 300_000)

  it("Responses renders like Chat and adds hosted tools by their JSON text", () => {
    const hosted = { type: "web_search_preview" }
    const request = Request.make(conversation, { tools: [weather, Request.providerTool("web_search_preview", "openai-responses", "web_search_preview")] })
    const chat = heuristic.estimateRequest(request)
    const responses = heuristic.estimateRequest(request, { provider: "openai-responses" })
    expect(responses.tools).toBe(chat.tools + heuristic.estimateText(JSON.stringify(hosted)))
  })

  it("Responses counts gpt-4o and gpt-4.1 definitions 6 tokens under Chat without a system message to carry them, 2 under with one", () => {
    const bare = Request.make([Message.user("What's the weather in Oslo?")], { tools: [weather] })
    for (const model of ["gpt-4o", "gpt-4.1-nano"]) {
      const chat = heuristic.estimateRequest(bare, { model })
      expect(heuristic.estimateRequest(bare, { provider: "openai-responses", model }).tools).toBe(chat.tools - 6)
    }
    const hosted = withTools({ model: "gpt-4o" })
    expect(heuristic.estimateRequest(hosted, { provider: "openai-responses" }).tools).toBe(heuristic.estimateRequest(hosted).tools - 2)
    // the parameters' title and description are shown, on Responses and on Chat
    const titled = Request.make(conversation, { model: "gpt-4o", tools: [Request.tool("get_weather", { description: "Current weather for a city", parameters: { ...weather.parameters, title: "WeatherArgs" } })] })
    for (const options of [undefined, { provider: "openai-responses" as const }]) {
      expect(heuristic.estimateRequest(titled, options).tools).toBeGreaterThan(heuristic.estimateRequest(hosted, options).tools)
    }
    const described = Request.make(conversation, { model: "gpt-5.4", tools: [Request.tool("get_weather", { description: "Current weather for a city", parameters: { ...weather.parameters, description: "Typed arguments." } })] })
    const plainGpt5 = Request.make(conversation, { model: "gpt-5.4", tools: [weather] })
    for (const options of [undefined, { provider: "openai-responses" as const }]) {
      expect(heuristic.estimateRequest(described, options).tools).toBeGreaterThan(heuristic.estimateRequest(plainGpt5, options).tools)
    }
    // not on the June 2023 snapshots, whose format no recording with titles shows
    const old = Request.make(conversation, { model: "gpt-4-0613", tools: [Request.tool("get_weather", { description: "Current weather for a city", parameters: { ...weather.parameters, title: "WeatherArgs" } })] })
    expect(heuristic.estimateRequest(old).tools).toBe(heuristic.estimateRequest(Request.make(conversation, { model: "gpt-4-0613", tools: [weather] })).tools)
    // on the gpt-5 family, as Chat renders gpt-4o's
    expect(heuristic.estimateRequest(bare, { provider: "openai-responses", model: "gpt-5-mini" }).tools).toBe(
      heuristic.estimateRequest(bare, { model: "gpt-4o" }).tools
    )
  })

  it("Responses counts each function call as an item of its own, not as one multi_tool_use call, and an empty assistant message as a turn", () => {
    const e = exact()
    const calls = Message.assistant([Block.toolCall("c1", "get_weather", { city: "Oslo" }), Block.toolCall("c2", "get_weather", { city: "Rome" })])
    const results = [Message.tool(Block.toolResult("c1", "get_weather", "12°C")), Message.tool(Block.toolResult("c2", "get_weather", "24°C"))]
    const request = Request.make([...conversation, calls, ...results], { model: "gpt-4o", tools: [weather] })
    const one = (id: string, city: string) => Message.assistant([Block.toolCall(id, "get_weather", { city })])
    const split = Request.make([...conversation, one("c1", "Oslo"), one("c2", "Rome"), ...results], { model: "gpt-4o", tools: [weather] })
    const responses = { provider: "openai-responses" as const }
    expect(e.estimateRequest(request, responses).total).toBe(e.estimateRequest(split, responses).total)
    // Chat Completions renders the two calls as one multi_tool_use.parallel call, whose results are JSON strings
    expect(e.estimateRequest(request).total).not.toBe(e.estimateRequest(split).total)
    const silent = Request.make([...conversation, Message.assistant([Block.text(""), Block.toolCall("c1", "get_weather", { city: "Oslo" })]), results[0]!], { model: "gpt-4o", tools: [weather] })
    const quiet = Request.make([...conversation, one("c1", "Oslo"), results[0]!], { model: "gpt-4o", tools: [weather] })
    expect(e.estimateRequest(silent, responses).total).toBe(e.estimateRequest(quiet, responses).total + 4)
    expect(e.estimateRequest(silent).total).toBe(e.estimateRequest(quiet).total)
  })

  it("Responses primes a named tool choice of the gpt-5 family as auto, as Chat does, and a gpt-4o one with its recipient", () => {
    const e = exact()
    const responses = { provider: "openai-responses" as const }
    const framing = (model: string, toolChoice: Request.ToolChoice) => e.estimateRequest(withTools({ model, toolChoice }), responses).framing
    expect(framing("gpt-5-mini", { _tag: "Tool", name: "get_weather" })).toBe(framing("gpt-5-mini", "auto"))
    expect(framing("gpt-4o", { _tag: "Tool", name: "get_weather" })).toBeGreaterThan(framing("gpt-4o", "auto"))
  })

  it("under a json_schema format, the gpt-5 family's reply to come is not addressed to it; on Responses, with no system message, the format is no message of its own", () => {
    const e = exact()
    const responseFormat = { _tag: "JsonSchema" as const, name: "structured_data", schema: { type: "object", properties: { n: { type: "number" } } } }
    const bare = Request.make([Message.user([Block.text("Count the apples.")])], { responseFormat })
    const withSystem = Request.make([Message.system("Be terse."), Message.user([Block.text("Count the apples.")])], { responseFormat })
    const addressed = e.estimateText(" to=structured_data")
    for (const provider of ["openai-chat", "openai-responses"] as const) {
      // the priming: gpt-4o's is addressed to the format (` to=structured_data`), gpt-5.4's and gpt-5-mini's are not (and, as
      // reasoning models, they open it with one token fewer)
      const framing = (model: string) => e.estimateRequest(withSystem, { provider, model }).framing
      expect(framing("gpt-4o") - framing("gpt-5.4")).toBe(1 + addressed)
      expect(framing("gpt-5-mini")).toBe(framing("gpt-5.4"))
    }
    // without a system message the format is a system message of its own (3 tokens and "system"), but for the gpt-5
    // family on Responses
    const format = (provider: "openai-chat" | "openai-responses", model: string, request = bare) => e.estimateRequest(request, { provider, model }).responseFormat
    expect(format("openai-chat", "gpt-5.4") - format("openai-chat", "gpt-5.4", withSystem)).toBe(4)
    expect(format("openai-responses", "gpt-5.4")).toBe(format("openai-responses", "gpt-5.4", withSystem))
    expect(format("openai-chat", "gpt-4o") - format("openai-chat", "gpt-4o", withSystem)).toBe(4)
  })

  it("Responses counts a function call 9 tokens over its compact arguments from GPT-5.2 on, as Chat does the gpt-5 family's, 3 on gpt-5 and gpt-5-mini", () => {
    const e = exact()
    const read = (model: string, withCall: boolean) =>
      run(OpenAiResponses.fromRequest({
        model,
        input: [
          { role: "user", content: "Weather in Paris?" },
          ...(withCall
            ? [
              { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "{\"city\": \"Paris\"}" },
              { type: "function_call_output", call_id: "call_1", output: "sunny" }
            ]
            : [])
        ]
      })).value
    const callCost = (model: string) =>
      e.estimateRequest(read(model, true), { provider: "openai-responses", model }).total - e.estimateRequest(read(model, false), { provider: "openai-responses", model }).total
    expect(callCost("gpt-5.4-nano") - callCost("gpt-5-mini")).toBe(6)
    expect(callCost("gpt-5.2")).toBe(callCost("gpt-5.6-terra"))
    expect(callCost("gpt-5")).toBe(callCost("gpt-5-mini"))
  })

  it("Responses counts a system message that carries the tool definitions 3 tokens more from GPT-5.2 on (# Instructions), not without one", () => {
    const e = exact()
    const weather = Request.tool("get_weather", { description: "Get the weather", parameters: { type: "object", properties: { city: { type: "string" } } } })
    const tools = (model: string, system: boolean) =>
      e.estimateRequest(
        Request.make([...(system ? [Message.system("Be terse.")] : []), Message.user([Block.text("Weather in Paris?")])], { tools: [weather] }),
        { provider: "openai-responses", model }
      ).tools
    expect(tools("gpt-5.4-nano", true) - tools("gpt-5-mini", true)).toBe(3)
    expect(tools("gpt-5.6", true) - tools("gpt-5.2", true)).toBe(0)
    expect(tools("gpt-5.4-nano", false)).toBe(tools("gpt-5-mini", false))
  })

  it("Responses counts empty instructions as nothing, and an empty system message in the input as a message", () => {
    const e = exact()
    const responses = { provider: "openai-responses" as const }
    const read = (body: object) => run(OpenAiResponses.fromRequest(body)).value
    const input = [{ role: "user", content: "The secret key is sesame" }]
    const bare = e.estimateRequest(read({ model: "gpt-5", input }), responses)
    const empty = e.estimateRequest(read({ model: "gpt-5", input, instructions: "" }), responses)
    expect(empty.total).toBe(bare.total)
    expect(empty.messages).toEqual([0, ...bare.messages])
    const system = e.estimateRequest(read({ model: "gpt-5", input: [{ role: "system", content: "" }, ...input] }), responses)
    expect(system.total).toBeGreaterThan(bare.total)
  })

  it("Responses bills a function call item by whether it carries a stored item's id (gpt-4o family; gpt-5 as Chat)", () => {
    const e = exact()
    const count = (model: string, args: string, call: object) => {
      const body = {
        model,
        input: [
          { role: "user", content: "The 100th Fibonacci number?" },
          { type: "function_call", call_id: "c1", name: "fib", arguments: args, ...call },
          { type: "function_call_output", call_id: "c1", output: "354224848179261915075" }
        ]
      }
      return e.estimateRequest(run(OpenAiResponses.fromRequest(body)).value, { provider: "openai-responses" }).messages[1]!
    }
    const stored = { id: "fc_1", status: "completed" }
    // sent without one: its arguments as written and 1 more; with one: compact arguments and 4 more
    expect(count("gpt-4o", '{"n":100}', stored) - count("gpt-4o", '{"n":100}', {})).toBe(3)
    // the blank costs a token when the call is sent, not when it is read from the stored item
    expect(count("gpt-4o", '{"n": 100}', {}) - count("gpt-4o", '{"n":100}', {})).toBe(1)
    expect(count("gpt-4o", '{"n": 100}', stored)).toBe(count("gpt-4o", '{"n":100}', stored))
    expect(count("gpt-5", '{"n":100}', stored)).toBe(count("gpt-5", '{"n":100}', {}))
  })

  it("Responses counts the reasoning of the current turn only", () => {
    // (a reasoning item as the writer sends it: thinking with its item's id; without one it is left out, and not priced)
    const reasoning = Block.thinking("", undefined, { encryptedContent: "A".repeat(1600), itemId: "rs_1" })
    const earlier = Message.assistant([reasoning, Block.text("Done.")])
    const current = Message.assistant([reasoning, Block.toolCall("c1", "get_weather", { city: "Oslo" })])
    const request = Request.make([Message.user("a"), earlier, Message.user("b"), current, Message.tool(Block.toolResult("c1", "get_weather", "12°C"))])
    const responses = heuristic.estimateRequest(request, { provider: "openai-responses" })
    const chat = heuristic.estimateRequest(request)
    expect(responses.messages[1]).toBe(chat.messages[1])
    // (and a function call item sent without an item id costs 2 tokens less there: 1 more than its rendering, not 3)
    expect(responses.messages[3]).toBe(chat.messages[3]! + heuristic.estimateBlock(reasoning) - 2)
  })
})

describe("calibrated whole-request estimates", () => {
  it("scale every part but the framing", () => {
    const calibration = run(Calibration.make(heuristic, { initialFactors: { "claude-sonnet-4-5": 1.5 } }))
    const request = withTools({ model: "claude-sonnet-4-5" })
    const base = heuristic.estimateRequest(request, { provider: "anthropic" })
    const scaled = calibration.estimatorFor("claude-sonnet-4-5").estimateRequest(request, { provider: "anthropic" })
    expect(scaled.framing).toBe(base.framing)
    expect(scaled.tools).toBe(Math.ceil(base.tools * 1.5))
    expect(scaled.total).toBe(scaled.messages.reduce((a, b) => a + b, 0) + scaled.tools + scaled.responseFormat + scaled.framing)
  })

  it("use the calibration's model for a request that names none", () => {
    const calibration = run(Calibration.make(heuristic))
    const e = calibration.estimatorFor("claude-3-5-sonnet-20240620").estimateRequest(withTools(), { provider: "anthropic" })
    expect(e.framing).toBe(294)
  })

  it.effect("learn from a reported figure without the framing, which is known exactly", () =>
    Effect.gen(function* () {
      const calibration = yield* Calibration.make(heuristic)
      const request = withTools({ model: "claude-sonnet-4-5" })
      const e = calibration.estimatorFor("claude-sonnet-4-5").estimateRequest(request, { provider: "anthropic" })
      const content = e.total - e.framing
      // the provider reports twice the content, plus the same framing
      yield* calibration.recordRequest("claude-sonnet-4-5", request, 2 * content + e.framing, { provider: "anthropic" })
      expect(calibration.factor("claude-sonnet-4-5")).toBeCloseTo(Math.exp(0.1), 6)
    }))
})

describe("properties of estimateRequest", () => {
  const calibration = run(Calibration.make(heuristic, { initialFactors: { m: 1.37 } }))
  const estimators: ReadonlyArray<readonly [string, () => TokenEstimator.Service]> = [
    ["seed", () => run(TokenEstimator.makeCjkWeighted())],
    ["heuristic o200k", () => heuristic],
    ["heuristic cl100k", () => run(TokenEstimator.makeHeuristic({ encoding: "cl100k" }))],
    ["gemini", () => run(GeminiEstimator.make())],
    ["test", () => run(TokenEstimator.makeTest({ costPerChar: 0.3, messageOverhead: 2 }))],
    ["calibrated", () => calibration.estimatorFor("m")],
    ["exact o200k", exact]
  ]
  const provider = Arbitrary.schema(Provider.Provider)

  for (const [name, build] of estimators) {
    it.prop(`${name}: the parts are whole non-negative numbers that add up to the total, one per message`, [Req.request, provider], ([request, p]) => {
      const e = build().estimateRequest(request, { provider: p })
      const parts = [...e.messages, e.tools, e.responseFormat, e.framing]
      for (const n of parts) assert.isTrue(Number.isInteger(n) && n >= 0)
      assert.strictEqual(e.messages.length, request.messages.length)
      assert.strictEqual(e.total, parts.reduce((a, b) => a + b, 0))
      assert.strictEqual(e.provider, p)
    }, { arbitrary: { runs: 150 }, timeout: 120_000 })
  }

  it.prop("for Anthropic and Gemini (2.5's declarations too), one more tool never lowers the estimate", [Req.request, Req.toolDefinition, Arb.bool], ([request, tool, anthropic]) => {
    const tools = (request.tools ?? []).filter((t) => t.name !== tool.name)
    const { messages: _, ...rest } = request
    for (const [p, model] of anthropic ? [["anthropic", undefined] as const] : [["gemini", undefined] as const, ["gemini", "gemini-2.5-flash"] as const]) {
      const options = { provider: p, ...(model === undefined ? {} : { model }) }
      const before = heuristic.estimateRequest(Request.make(request.messages, { ...rest, tools }), options)
      const after = heuristic.estimateRequest(Request.make(request.messages, { ...rest, tools: [...tools, tool] }), options)
      assert.isAtLeast(after.total, before.total)
    }
  }, { arbitrary: { runs: 200 }, timeout: 120_000 })
})

describe("a tool schema past the rendering's guards", () => {
  it("is counted as the JSON text it is sent as, not as a bare any (10,000 levels once counted 177 tokens)", () => {
    let deep: Record<string, unknown> = { type: "string", description: "the leaf" }
    for (let i = 0; i < 2_000; i++) deep = { type: "object", properties: { next: deep }, required: ["next"] }
    const request = Request.make([Message.user("hi")], { tools: [Request.tool("deep", { parameters: deep as never })] })
    const text = TokenEstimator.heuristic.estimateText(JSON.stringify(deep))
    for (const provider of ["openai-chat", "openai-responses"] as const) {
      const { tools } = TokenEstimator.heuristic.estimateRequest(request, { provider })
      // the first levels rendered as types (shorter than their JSON), the rest as JSON
      expect(tools).toBeGreaterThan(text * 0.9)
    }
  })
})
