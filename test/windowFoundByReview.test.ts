import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
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
