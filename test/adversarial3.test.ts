/**
 * Adversarial input against the request layer (tool definitions, tool
 * choice, response format), the adapters' tools and the services, found by
 * probing by hand beyond the fuzz suite: each test fails on the code before
 * its fix.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { countOpenAiChatRequest } from "../src/exact/index.js"
import { Message, MessageWindow, Request, TokenEstimator } from "../src/index.js"
import { OpenAiChat } from "../src/providers/index.js"

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
