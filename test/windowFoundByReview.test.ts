import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as ConversationContext from "../src/ConversationContext.js"
import * as Message from "../src/Message.js"
import * as MessageWindow from "../src/MessageWindow.js"
import * as Summarizer from "../src/Summarizer.js"
import * as TokenEstimator from "../src/TokenEstimator.js"

const history: ReadonlyArray<Message.Message> = [
  Message.system("You are a careful assistant."),
  ...Array.from({ length: 12 }, (_, i) => [
    Message.user(`question ${i}: ${"please look at this again ".repeat(6)}`),
    Message.assistant(`answer ${i}: ${"here is what I found ".repeat(6)}`)
  ]).flat(),
  Message.user("and now?")
]

const answering = (text: string) => Layer.succeed(Summarizer.Summarizer, Summarizer.Summarizer.of({ summarize: () => Effect.succeed(text) }))

const fit = (summarizer: Layer.Layer<Summarizer.Summarizer>) =>
  Effect.gen(function*() {
    const window = yield* MessageWindow.make
    return yield* window.fit(history, 200, { strategy: "summarize" })
  }).pipe(Effect.provide(summarizer), Effect.provide(TokenEstimator.layer))

describe("a custom summarizer's blank answer", () => {
  for (const blank of ["", "   ", "\n\t \n"]) {
    it.effect(`${JSON.stringify(blank)} fails the fit with SummaryFailed instead of a header-only summary`, () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(fit(answering(blank)))
        expect(error._tag).toBe("SummaryFailed")
        expect(error.message).toBe("could not summarize the dropped messages: the summarizer returned an empty summary")
      }))
  }

  it.effect("a summary with text is still written", () =>
    Effect.gen(function*() {
      const fitted = yield* fit(answering("  The user asked twelve questions.  "))
      expect(fitted.summary).toBeDefined()
      expect(MessageWindow.isSummary(fitted.summary!.message)).toBe(true)
      expect(fitted.tokensAfter).toBeLessThanOrEqual(200)
    }))
})

describe("BudgetTooSmall says what the budget set aside", () => {
  it.effect("fixedTokens and reserve: setAside, in the message too", () =>
    Effect.gen(function*() {
      const window = yield* MessageWindow.make
      const error = yield* Effect.flip(window.fit(history, 300, { fixedTokens: 250, reserve: 40 }))
      assert.strictEqual(error._tag, "BudgetTooSmall")
      if (error._tag !== "BudgetTooSmall") return
      assert.strictEqual(error.setAside, 290)
      assert.isUndefined(error.usageCorrection)
      assert.include(error.message, "; 290 of the budget are set aside beside the messages)")
      const none = yield* Effect.flip(window.fit(history, 1))
      assert.isTrue(none._tag === "BudgetTooSmall" && none.setAside === undefined && !none.message.includes("set aside"))
    }).pipe(Effect.provide(TokenEstimator.layer)))

  it.effect("a ConversationContext's correction from reported usage is named as such", () =>
    Effect.gen(function*() {
      const context = yield* ConversationContext.make(history, 2_000)
      // the provider counted far more than the estimate: the difference is kept, and set aside by fit
      const reported = ConversationContext.recordUsage(context, context.tokens + 1_990)
      const error = yield* Effect.flip(ConversationContext.fit(reported, { strategy: "drop_oldest" }))
      assert.strictEqual(error._tag, "BudgetTooSmall")
      if (error._tag !== "BudgetTooSmall") return
      assert.strictEqual(error.usageCorrection, 1_990)
      assert.strictEqual(error.setAside, 1_990)
      assert.include(error.message, "1990 of the budget are set aside beside the messages, 1990 of them for what reported usage showed the estimates miss")
    }).pipe(Effect.provide(MessageWindow.layer), Effect.provide(TokenEstimator.layer)))
})
