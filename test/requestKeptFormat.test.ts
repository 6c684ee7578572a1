/**
 * A JSON schema response format that a reader keeps as it was sent (it has a
 * field the model has no place for) still reaches the model as its schema:
 * `estimateRequest` counts it as the same format read into the model.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TokenEstimator } from "../src/index.js"
import { Anthropic, OpenAiResponses } from "../src/providers/index.js"

const schema = {
  type: "object",
  properties: { answer: { type: "string", description: "The final answer, in one sentence." }, confidence: { type: "number" } },
  required: ["answer", "confidence"],
  additionalProperties: false
}
const estimator = TokenEstimator.heuristic

describe("a response format kept as sent is counted", () => {
  it("Anthropic: output_config.format and the beta's output_format with a field of their own count as the format read into the model", () => {
    for (const place of ["output_config", "output_format"] as const) {
      const body = (extra: object) => ({
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        messages: [{ role: "user", content: "hi" }],
        ...(place === "output_config" ? { output_config: { format: { type: "json_schema", schema, ...extra } } } : { output_format: { type: "json_schema", schema, ...extra } })
      })
      const read = Effect.runSync(Anthropic.fromRequest(body({})))
      const kept = Effect.runSync(Anthropic.fromRequest(body({ cache_hint: "x" })))
      // the reader keeps the one with a field of its own as sent
      assert.isDefined(read.value.responseFormat)
      assert.isUndefined(kept.value.responseFormat)
      const a = estimator.estimateRequest(read.value, { provider: "anthropic" })
      const b = estimator.estimateRequest(kept.value, { provider: "anthropic" })
      assert.isAbove(a.responseFormat, 20)
      assert.deepStrictEqual([place, b.responseFormat, b.framing, b.total], [place, a.responseFormat, a.framing, a.total])
    }
  })

  it("OpenAI Responses: a json_schema text.format with a field of its own counts as the format read into the model", () => {
    const body = (extra: object) => ({ model: "gpt-4o", input: "hi", text: { format: { type: "json_schema", name: "answer", schema, strict: true, ...extra } } })
    const read = Effect.runSync(OpenAiResponses.fromRequest(body({})))
    const kept = Effect.runSync(OpenAiResponses.fromRequest(body({ cache_hint: "x" })))
    assert.isUndefined(kept.value.responseFormat)
    const a = estimator.estimateRequest(read.value, { provider: "openai-responses" })
    const b = estimator.estimateRequest(kept.value, { provider: "openai-responses" })
    assert.isAbove(a.responseFormat, 20)
    assert.deepStrictEqual([b.responseFormat, b.framing, b.total], [a.responseFormat, a.framing, a.total])
  })

  it("a kept format that is not a JSON schema adds nothing, as before", () => {
    const kept = Effect.runSync(OpenAiResponses.fromRequest({ model: "gpt-4o", input: "hi", text: { format: { type: "grammar", syntax: "lark", definition: "start: /a+/" } } }))
    const plain = Effect.runSync(OpenAiResponses.fromRequest({ model: "gpt-4o", input: "hi" }))
    assert.strictEqual(estimator.estimateRequest(kept.value, { provider: "openai-responses" }).responseFormat, estimator.estimateRequest(plain.value, { provider: "openai-responses" }).responseFormat)
  })
})
