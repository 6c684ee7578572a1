/**
 * Request-level conversions an adversarial read found wrong: a loose tool
 * made strict by the Responses API's default, response formats that were
 * dropped without a word, an `input_schema` Anthropic rejects, and tool
 * names Anthropic takes only once.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Message, Request } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

const params = { type: "object", properties: { city: { type: "string" }, unit: { type: "string" } }, required: ["city"] }
const hi = [{ role: "user", content: "hi" }]
const tags = (warnings: ReadonlyArray<{ readonly _tag: string }>) => warnings.map((w) => w._tag)

describe("tools", () => {
  it.effect("a tool with strict unset in Chat or Anthropic goes to Responses with strict: false; one read from Responses keeps it unset", () =>
    Effect.gen(function*() {
      const chat = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: hi, tools: [{ type: "function", function: { name: "weather", parameters: params } }] })
      const fromChat = yield* OpenAiResponses.toRequest(chat.value)
      assert.strictEqual((fromChat.value.tools![0] as { readonly strict: unknown }).strict, false)
      const anthropic = yield* Anthropic.fromRequest({ model: "claude-sonnet-4-5", max_tokens: 10, messages: hi, tools: [{ name: "weather", input_schema: params }] })
      assert.strictEqual(((yield* OpenAiResponses.toRequest(anthropic.value)).value.tools![0] as { readonly strict: unknown }).strict, false)
      // read from Responses: the API's own default stays
      const responses = yield* OpenAiResponses.fromRequest({ model: "gpt-5", input: "hi", tools: [{ type: "function", name: "weather", parameters: params, strict: null }] })
      assert.strictEqual(((yield* OpenAiResponses.toRequest(responses.value)).value.tools![0] as { readonly strict: unknown }).strict, null)
      // set: as set
      const strict = Request.make([Message.user("hi")], { tools: [Request.tool("weather", { parameters: params, strict: true })] })
      assert.strictEqual(((yield* OpenAiResponses.toRequest(strict)).value.tools![0] as { readonly strict: unknown }).strict, true)
    }))

  it.effect("Anthropic: parameters without a type get type object, reported; a name given twice is reported", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("hi")], {
        tools: [Request.tool("f", { parameters: {} }), Request.tool("g", { parameters: { properties: { a: { type: "string" } } } }), Request.tool("f")]
      })
      const written = yield* Anthropic.toRequest(request, { maxTokens: 10 })
      const schemas = (written.value.tools as ReadonlyArray<{ readonly input_schema: { readonly type?: unknown } }>).map((t) => t.input_schema.type)
      assert.deepStrictEqual(schemas, ["object", "object", "object"])
      assert.deepStrictEqual(tags(written.warnings), ["ConvertedContent", "ConvertedContent", "RejectedToolName"])
    }))
})

describe("response formats", () => {
  const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false }

  it.effect("a Chat json_schema format with strict: null is read as a format, and carried to the other formats", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: hi, response_format: { type: "json_schema", json_schema: { name: "answer", schema, strict: null } } })
      assert.deepStrictEqual(read.value.responseFormat, { _tag: "JsonSchema", name: "answer", schema })
      const anthropic = yield* Anthropic.toRequest(read.value, { maxTokens: 10 })
      assert.isDefined(anthropic.value.output_config)
    }))

  it.effect("a format the model cannot read (a json_schema without its schema) is kept for its own format, and reported where it is dropped", () =>
    Effect.gen(function*() {
      const body = { model: "gpt-4o", messages: hi, response_format: { type: "json_schema", json_schema: { name: "answer" } } }
      const read = yield* OpenAiChat.fromRequest(body)
      assert.isUndefined(read.value.responseFormat)
      const same = yield* OpenAiChat.toRequest(read.value)
      assert.deepStrictEqual<unknown>(same.value.response_format, body.response_format)
      for (const written of [yield* OpenAiResponses.toRequest(read.value), yield* Anthropic.toRequest(read.value, { maxTokens: 10 }), yield* Gemini.toRequest(read.value)]) {
        assert.isTrue(written.warnings.some((w) => w._tag === "DroppedContent" && w.message.includes("response_format")), JSON.stringify(tags(written.warnings)))
      }
    }))

  it.effect("Gemini: an explicit null beside a JSON response schema reads as absent", () =>
    Effect.gen(function*() {
      const withNull = yield* Gemini.fromRequest({ contents: [{ role: "user", parts: [{ text: "hi" }] }], generationConfig: { responseMimeType: "application/json", responseJsonSchema: schema, responseSchema: null } })
      assert.strictEqual(withNull.value.responseFormat?._tag, "JsonSchema")
      const nullSchema = yield* Gemini.fromRequest({ contents: [{ role: "user", parts: [{ text: "hi" }] }], generationConfig: { responseMimeType: "application/json", responseJsonSchema: null } })
      assert.strictEqual(nullSchema.value.responseFormat?._tag, "JsonObject")
    }))
})
