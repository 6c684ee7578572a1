/**
 * Half of a character (a lone UTF-16 surrogate, as cutting a string inside
 * an emoji leaves) anywhere in an Anthropic request body makes the API answer
 * with a 400 ("The request body is not valid JSON: no low surrogate in
 * string"). Validation reports one in the messages (`LoneSurrogate`); the
 * writer reports one in the rest of the body (a tool's description or schema,
 * the output format, a kept setting) as a `RejectedSetting`, writing the
 * caller's value as it is.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, type Schema } from "effect"
import { Message, Request } from "../../src/index.js"
import { Anthropic } from "../../src/providers/index.js"

const cut = "Weather 😀".slice(0, 9)
const rejected = (warnings: ReadonlyArray<{ readonly _tag: string }>) =>
  warnings.flatMap((w) => (w._tag === "RejectedSetting" ? [(w as unknown as { readonly path: string }).path] : []))

describe("a lone surrogate beside the messages of an Anthropic request", () => {
  it.effect("in a tool's description, a schema's key or description, or the output format: reported with its path, written as it is", () =>
    Effect.gen(function*() {
      const tool = (description: string | undefined, key: string, inner: string) =>
        Request.tool("get_weather", { ...(description === undefined ? {} : { description }), parameters: { type: "object", properties: { [key]: { type: "string", description: inner } } } })
      const make = (tools: ReadonlyArray<ReturnType<typeof Request.tool>>, schema?: { readonly [key: string]: Schema.Json }) =>
        Request.make([Message.user("hi")], {
          model: "claude-sonnet-4-5",
          maxOutputTokens: 100,
          tools,
          ...(schema === undefined ? {} : { responseFormat: { _tag: "JsonSchema" as const, name: "answer", schema } })
        })
      const described = yield* Anthropic.toRequest(make([tool(cut, "city", "a city")]))
      assert.deepStrictEqual(rejected(described.warnings), ["tools[0].description"])
      assert.strictEqual((described.value as unknown as { tools: Array<{ description: string }> }).tools[0]!.description, cut)
      assert.isTrue(described.warnings.every((w) => !/[\uD800-\uDFFF]/.test(w.message)))
      const keyed = yield* Anthropic.toRequest(make([tool("fine", `c${cut}`, "a city")]))
      assert.deepStrictEqual(rejected(keyed.warnings), [`tools[0].input_schema.properties.c${cut}`])
      const inner = yield* Anthropic.toRequest(make([tool("fine", "city", cut)]))
      assert.deepStrictEqual(rejected(inner.warnings), ["tools[0].input_schema.properties.city.description"])
      const format = yield* Anthropic.toRequest(make([], { type: "object", description: cut }))
      assert.deepStrictEqual(rejected(format.warnings), ["output_config.format.schema.description"])
    }))

  it.effect("in a setting read from a body and kept: reported; a request without one, and one only in the messages, are not", () =>
    Effect.gen(function*() {
      const body = { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "hi" }] }
      const kept = yield* Anthropic.fromRequest({ ...body, metadata: { user_id: cut } }).pipe(Effect.flatMap((r) => Anthropic.toRequest(r.value)))
      assert.deepStrictEqual(rejected(kept.warnings), ["metadata.user_id"])
      const clean = yield* Anthropic.fromRequest({ ...body, metadata: { user_id: "u😀" } }).pipe(Effect.flatMap((r) => Anthropic.toRequest(r.value)))
      assert.deepStrictEqual(clean.warnings, [])
      const inMessages = yield* Anthropic.toRequest(Request.make([Message.user(cut)], { model: "claude-sonnet-4-5", maxOutputTokens: 100 }))
      assert.deepStrictEqual(rejected(inMessages.warnings), [])
    }))
})
