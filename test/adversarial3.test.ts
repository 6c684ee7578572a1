/**
 * Adversarial input against the request layer (tool definitions, tool
 * choice, response format), the adapters' tools and the services, found by
 * probing by hand beyond the fuzz suite: each test fails on the code before
 * its fix.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import { countOpenAiChatRequest } from "../src/exact/index.js"
import { Block, Message, MessageWindow, Request, TokenEstimator } from "../src/index.js"
import { Anthropic, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../src/providers/index.js"

const Window = MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))

describe("a $ref whose percent escape is malformed", () => {
  const withRef = (ref: string) =>
    Request.make([Message.user("hi")], {
      model: "gpt-4o",
      tools: [Request.tool("f", { parameters: { type: "object", properties: { a: { $ref: ref } }, $defs: { "A B": { type: "object", properties: { city: { type: "string" }, country: { type: "string" } } } } } })]
    })

  it.effect("names nothing: the OpenAI estimates, fitRequest and the exact count read it as an unresolved reference (it threw URIError)", () =>
    Effect.gen(function*() {
      for (const provider of ["openai-chat", "openai-responses"] as const) {
        for (const ref of ["#/%", "#/$defs/%E0%A4%A", "#/$defs/A%2"]) {
          assert.strictEqual(
            TokenEstimator.heuristic.estimateRequest(withRef(ref), { provider }).total,
            TokenEstimator.heuristic.estimateRequest(withRef("#/$defs/missing"), { provider }).total,
            `${provider} ${ref}`
          )
        }
      }
      const fitted = yield* Effect.exit(MessageWindow.fitRequest(withRef("#/%"), 10_000).pipe(Effect.provide(Window)))
      assert.isTrue(Exit.isSuccess(fitted))
      const body = (yield* OpenAiChat.toRequest(withRef("#/%"))).value
      const counted = yield* Effect.exit(countOpenAiChatRequest(body))
      assert.isTrue(Exit.isSuccess(counted))
    }))

  it("a well-formed escape still names its definition", () => {
    const rendered = TokenEstimator.heuristic.estimateRequest(withRef("#/$defs/A%20B")).tools
    assert.notStrictEqual(rendered, TokenEstimator.heuristic.estimateRequest(withRef("#/$defs/missing")).tools)
  })
})

describe("EffectAi.fromToolkit on a dynamic tool whose JSON Schema is not JSON", () => {
  const dynamic = (name: string, parameters: unknown) => Tool.dynamic(name, { parameters: parameters as never })

  it("leaves that tool out with a DroppedContent naming where, and keeps the others (it threw 'Schema validation failed')", () => {
    const toolkit = Toolkit.make(
      dynamic("infinite", { type: "object", properties: { x: { type: "number", default: Infinity } } }),
      dynamic("dated", { type: "object", properties: { at: { type: "string", examples: [new Date(0)] } } }),
      Tool.make("kept", { parameters: Schema.Struct({ city: Schema.String }) })
    )
    const { value, warnings } = EffectAi.fromToolkit(toolkit)
    assert.deepStrictEqual(value.map((tool) => tool.name), ["kept"])
    assert.deepStrictEqual(warnings.map((w) => w.message), [
      "the tool \"infinite\" was left out: its parameters schema is not JSON at parameters.properties.x.default: Expected a JSON value, got Infinity",
      "the tool \"dated\" was left out: its parameters schema is not JSON at parameters.properties.at.examples[0]: Expected a JSON value, got a Date"
    ])
  })

  it("a schema that is no JSON object is left out and reported", () => {
    const { value, warnings } = EffectAi.fromToolkit(Toolkit.make(dynamic("listed", ["not", "an", "object"])))
    assert.deepStrictEqual(value, [])
    assert.deepStrictEqual(warnings.map((w) => w.message), ["the tool \"listed\" was left out: its parameters schema is not a JSON object, got [\"not\",\"an\",\"object\"]"])
  })
})

describe("a named tool choice of a tool the request never defined", () => {
  const request = Request.make([Message.user("hi")], {
    model: "m",
    maxOutputTokens: 100,
    tools: [Request.tool("get_weather")],
    toolChoice: { _tag: "Tool", name: "get_time" }
  })

  it.effect("is reported as the request's own (it said the writer had left out a definition it never had)", () =>
    Effect.gen(function*() {
      const written = [
        yield* OpenAiChat.toRequest(request),
        yield* OpenAiResponses.toRequest(request),
        yield* Anthropic.toRequest(request),
        yield* Gemini.toRequest(request)
      ]
      for (const { warnings } of written) {
        assert.include(
          warnings.map((w) => w.message),
          "the tool choice get_time was left out: the request defines no tool named get_time, and a provider rejects a choice of a tool it was not given"
        )
      }
    }))
})

describe("tool names and provider names in the Anthropic and Gemini writers' warnings", () => {
  // 100,000 characters with a line break: warnings elsewhere cut such a name to 80 characters and escape the break
  const long = `tool\n${"x".repeat(100_000)}`
  const provider = `acme\n${"p".repeat(100_000)}`

  it.effect("are cut and escaped in the warning's fields too, as the Chat and Responses writers do (they were written whole)", () =>
    Effect.gen(function*() {
      const request = Request.make([
        Message.user("hi"),
        Message.assistant([Block.text("ok"), Block.providerData(provider, { kind: "note" })]),
        Message.user([Block.text("and"), Block.providerData(provider, { kind: "note" })])
      ], {
        maxOutputTokens: 100,
        tools: [
          Request.providerTool(long, provider, "search"),
          Request.tool(long, { providerOptions: { "openai-chat": { type: "custom" } } }),
          Request.tool("f", { parameters: { properties: { a: { type: "string" } } } })
        ]
      })
      for (const { warnings } of [yield* Anthropic.toRequest(request), yield* Gemini.toRequest(request)]) {
        assert.isAbove(warnings.length, 2)
        for (const w of warnings) {
          const fields = w._tag === "DroppedContent" ? [w.what, w.reason] : w._tag === "ConvertedContent" ? [w.what, w.how] : [w.message]
          for (const field of fields) {
            assert.isBelow(field.length, 300, field.slice(0, 300))
            assert.notMatch(field, /[\u0000-\u001f]/, field.slice(0, 300))
          }
        }
      }
    }))
})

describe("a tool whose parameters schema is not of type object", () => {
  const request = Request.make([Message.user("hi")], {
    model: "m",
    maxOutputTokens: 100,
    tools: [
      Request.tool("ok", { parameters: { type: "object", properties: {} } }),
      Request.tool("text", { parameters: { type: "string" } }),
      Request.tool("list", { parameters: { type: "array", items: { type: "string" } } })
    ]
  })
  const rejected = (warnings: ReadonlyArray<{ readonly _tag: string; readonly message: string }>) => warnings.filter((w) => w._tag === "RejectedSetting").map((w) => w.message)

  it.effect("is written as it is and reported as a RejectedSetting by the writers whose API refuses it (they wrote it without a word)", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(rejected((yield* OpenAiChat.toRequest(request)).warnings), [
        "tools[1].function.parameters.type \"string\" was written as it is, but Chat Completions takes a tool's parameters only as a schema of type \"object\", so the provider rejects the request",
        "tools[2].function.parameters.type \"array\" was written as it is, but Chat Completions takes a tool's parameters only as a schema of type \"object\", so the provider rejects the request"
      ])
      assert.deepStrictEqual(rejected((yield* OpenAiResponses.toRequest(request)).warnings), [
        "tools[1].parameters.type \"string\" was written as it is, but the Responses API takes a tool's parameters only as a schema of type \"object\", so the provider rejects the request",
        "tools[2].parameters.type \"array\" was written as it is, but the Responses API takes a tool's parameters only as a schema of type \"object\", so the provider rejects the request"
      ])
      const anthropic = yield* Anthropic.toRequest(request)
      assert.deepStrictEqual(rejected(anthropic.warnings), [
        "tools[1].input_schema.type \"string\" was written as it is, but Anthropic takes a tool's parameters only as a schema of type \"object\", so the provider rejects the request",
        "tools[2].input_schema.type \"array\" was written as it is, but Anthropic takes a tool's parameters only as a schema of type \"object\", so the provider rejects the request"
      ])
      // the schema itself goes as given
      assert.deepStrictEqual((anthropic.value.tools?.[1] as { readonly input_schema?: unknown }).input_schema, { type: "string" })
    }))

  it.effect("in the deprecated functions list too", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest({ model: "m", messages: [{ role: "user", content: "hi" }], functions: [{ name: "f", parameters: { type: ["object", "null"] } }] })
      const written = yield* OpenAiChat.toRequest(read.value)
      assert.deepStrictEqual(rejected(written.warnings), [
        "functions[0].parameters.type [\"object\",\"null\"] was written as it is, but Chat Completions takes a tool's parameters only as a schema of type \"object\", so the provider rejects the request"
      ])
    }))
})

describe("a function declared twice, for Gemini", () => {
  it.effect("is written as it is and reported once as a RejectedToolName, as the Anthropic writer reports it (Gemini answers 'Duplicate function declaration found'; nothing was said)", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("hi")], {
        tools: [Request.tool("f"), Request.providerTool("googleSearch", "gemini", "googleSearch"), Request.tool("f", { description: "again" }), Request.tool("f"), Request.tool("g")]
      })
      const { value, warnings } = yield* Gemini.toRequest(request)
      assert.deepStrictEqual(warnings.map((w) => w.message), [
        "the tool name \"f\" was written as it is, but Gemini takes each function name once in a request (\"Duplicate function declaration found\"): the provider rejects the request until the tool is renamed"
      ])
      assert.strictEqual(JSON.stringify(value.tools).match(/"name":"f"/g)?.length, 3)
    }))
})

describe("EffectAi.toToolkit on 100,000 tool definitions", () => {
  it("makes a Toolkit of all of them in order, the last of a name kept (spreading them into Toolkit.make overflowed the stack: RangeError)", { timeout: 120_000 }, () => {
    const tools = Array.from({ length: 100_000 }, (_, i) => Request.tool(i === 99_999 ? "t0" : `t${i}`, { description: `tool ${i}` }))
    const { value, warnings } = EffectAi.toToolkit(tools)
    const names = Object.keys(value.tools)
    assert.strictEqual(names.length, 99_999)
    // the kept "t0" is the last definition, in its place
    assert.strictEqual(names[0], "t1")
    assert.strictEqual(names[99_997], "t99998")
    assert.strictEqual(names[99_998], "t0")
    assert.strictEqual(value.tools["t0"]?.description, "tool 99999")
    assert.deepStrictEqual(warnings.map((w) => w.message), ["an earlier tool named \"t0\" was left out: a Toolkit holds one tool per name: the last one is kept"])
  })
})
