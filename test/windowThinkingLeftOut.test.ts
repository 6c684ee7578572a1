/**
 * A Claude model that strips the thinking of earlier turns (Sonnet 4.5, Haiku) does not count it as input, and the
 * request estimate leaves it out; the window priced each message by the larger of its rendering and its own estimate,
 * so an earlier turn's thinking was priced in full: `trim` dropped two of three messages of a 90-token request under
 * a budget it fitted with room to spare. Its own estimate now leaves that thinking out too, while a model that keeps
 * the thinking still pays for it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message, Request } from "../src/index.js"
import { estimator, window } from "./windowCheck.js"

const THOUGHT = "Let me consider the options carefully before I answer. ".repeat(60)

const requestFor = (model: string) =>
  Request.make([
    Message.user("What is 2 + 2?"),
    Message.assistant([Block.thinking(THOUGHT, "sig_1"), Block.text("4.")]),
    Message.user("And 3 + 3?")
  ], { model, maxOutputTokens: 1_000 })

describe("fitRequest and the thinking Claude leaves out", () => {
  it.effect("a request that fits as Claude counts it is kept whole", () =>
    Effect.gen(function*() {
      const request = requestFor("claude-sonnet-4-5")
      const total = estimator.estimateRequest(request, { provider: "anthropic" }).total
      // the earlier turn's thinking is not input: the whole request costs far less than its text
      expect(total).toBeLessThan(estimator.estimateConversation(request.messages) / 4)
      const fitted = yield* window.fitRequest(request, total + 1_000, { provider: "anthropic" })
      expect(fitted.changed).toBe(false)
      expect(fitted.tokensAfter + fitted.fixedTokens).toBeLessThanOrEqual(total)
    }))

  it.effect("a model that keeps the thinking of earlier turns still pays for it", () =>
    Effect.gen(function*() {
      const request = requestFor("claude-opus-4-5")
      const total = estimator.estimateRequest(request, { provider: "anthropic" }).total
      const stripped = estimator.estimateRequest(requestFor("claude-sonnet-4-5"), { provider: "anthropic" }).total
      expect(total).toBeGreaterThan(stripped + 300)
      const fitted = yield* window.fitRequest(request, stripped + 1_000, { provider: "anthropic" })
      expect(fitted.changed).toBe(true)
    }))
})
