/**
 * Defects an audit of the budgeted context and the summarize strategy found, each pinned by the case that showed it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Stream } from "effect"
import { LanguageModel } from "effect/ai"
import { Calibration, ConversationContext, Message, MessageWindow, Summarizer, TokenEstimator } from "../src/index.js"

/** A summarizer that answers `text` and records what it was asked. */
const recording = (text: string) => {
  const requests: Array<Summarizer.SummaryRequest> = []
  const service = Summarizer.Summarizer.of({ summarize: (request) => Effect.sync(() => (requests.push(request), text)) })
  const window = MessageWindow.layer.pipe(Layer.provide(Layer.merge(TokenEstimator.layer, Layer.succeed(Summarizer.Summarizer, service))))
  return { requests, window }
}

const HEADER = "[Summary of 5 earlier messages, removed to fit the context window]"

describe("the transcript a summarizer is shown", () => {
  it.effect("stays within its 400,000 characters when an earlier summary is longer than that", () => {
    const { requests, window } = recording("short summary")
    const history = [
      Message.system("sys"),
      Message.user("q1"),
      Message.assistant(`${HEADER}\n${"fact ".repeat(400_000)}`, { metadata: { "effect-agent-messages/summary": { messages: 5 } } }),
      Message.user(`q2 ${"x".repeat(100)}`),
      Message.assistant("a2"),
      Message.user("q3"),
      Message.assistant("a3")
    ]
    return Effect.gen(function*() {
      yield* MessageWindow.fit(history, 200, { strategy: "summarize" })
      expect(requests).toHaveLength(1)
      expect(requests[0]!.transcript.length).toBeLessThanOrEqual(400_000)
      // the earlier summary is still shown (cut), and so is the message after it
      expect(requests[0]!.transcript).toContain(HEADER)
      expect(requests[0]!.transcript).toContain("characters in all, the rest not shown")
    }).pipe(Effect.provide(window))
  })

  it.effect("thousands of earlier summaries: the newest are shown within their share, the rest counted", () => {
    const { requests, window } = recording("s")
    const history = [
      Message.system("sys"),
      ...Array.from({ length: 3000 }, (_, i) => [Message.user(`q${i}`), Message.assistant(`${HEADER}\n${"y".repeat(300)}`)]).flat(),
      Message.user("last")
    ]
    return Effect.gen(function*() {
      yield* MessageWindow.fit(history, 300, { strategy: "summarize" })
      expect(requests[0]!.transcript.length).toBeLessThanOrEqual(400_000)
      expect(requests[0]!.transcript).toMatch(/^\[\d+ older messages not shown\]/)
    }).pipe(Effect.provide(window))
  })
})

describe("summarize at the least budget it reports", () => {
  const history = [Message.system("sys"), Message.user(`q1 ${"w ".repeat(30)}`), Message.assistant(`a1 ${"z ".repeat(30)}`), Message.user(`q2 ${"w ".repeat(60)}`)]

  it.effect("leaves room for the summary's text, not the header alone", () => {
    const { requests, window } = recording("The user asked q1 and got a1.")
    return Effect.gen(function*() {
      const tooSmall = yield* Effect.flip(MessageWindow.fit(history, 40, { strategy: "summarize" }))
      expect(tooSmall._tag).toBe("BudgetTooSmall")
      const minimum = (tooSmall as MessageWindow.BudgetTooSmall).minimumBudget
      const fitted = yield* MessageWindow.fit(history, minimum, { strategy: "summarize" })
      expect(requests.at(-1)!.maxTokens).toBeGreaterThanOrEqual(16)
      expect(Message.textOf(fitted.summary!.message)).toBe(`[Summary of 2 earlier messages, removed to fit the context window]\nThe user asked q1 and got a1.`)
    }).pipe(Effect.provide(window))
  })
})

describe("Summarizer.layerLanguageModel and the model's finish reason", () => {
  const usage = { inputTokens: { uncached: 10, total: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } }
  const model = (reason: "stop" | "length" | "content-filter" | "error") =>
    Layer.effect(
      LanguageModel.LanguageModel,
      LanguageModel.make({
        generateText: () => Effect.succeed([{ type: "text" as const, text: "The user asked about" }, { type: "finish" as const, reason, usage }]),
        streamText: () => Stream.empty
      })
    )
  const ask = (reason: "stop" | "length" | "content-filter" | "error") =>
    Effect.runPromiseExit(
      Effect.gen(function*() {
        const summarizer = yield* Summarizer.Summarizer
        return yield* summarizer.summarize({ messages: [Message.user("hi")], transcript: "User: hi", maxTokens: 100 })
      }).pipe(Effect.provide(Summarizer.layerLanguageModel().pipe(Layer.provide(model(reason)))))
    )

  it("an answer that ended in an error or was filtered is SummaryFailed; a stop or a length cut is the summary", async () => {
    for (const reason of ["error", "content-filter"] as const) {
      const exit = await ask(reason)
      expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain(`finish reason \\"${reason}\\"`)
    }
    for (const reason of ["stop", "length"] as const) {
      const exit = await ask(reason)
      expect(Exit.isSuccess(exit) && exit.value).toBe("The user asked about")
    }
  })
})

describe("a context's correction and a calibrated estimator that learns from the same report", () => {
  const Estimation = MessageWindow.layer.pipe(Layer.provideMerge(Calibration.layerTokenEstimator({ model: "m" }).pipe(Layer.provide(TokenEstimator.layer))))
  const history = [Message.system("sys"), ...Array.from({ length: 10 }, (_, i) => [Message.user(`q ${i} ${"word ".repeat(40)}`), Message.assistant(`a ${i} ${"word ".repeat(40)}`)]).flat()]

  for (const order of ["context first", "calibration first"] as const) {
    it.effect(`the figure for the reported messages stays the reported count (${order})`, () =>
      Effect.gen(function*() {
        const calibration = yield* Calibration.Calibration
        const sent = yield* ConversationContext.make(history, 100_000)
        const actual = Math.round(sent.estimated * 1.5)
        let reported = sent
        if (order === "context first") {
          reported = ConversationContext.recordUsage(sent, actual)
          yield* calibration.record("m", sent.estimated, actual)
        } else {
          yield* calibration.record("m", sent.estimated, actual)
          reported = ConversationContext.recordUsage(sent, actual)
        }
        const refreshed = ConversationContext.refresh(reported)
        expect(refreshed.estimated).toBeGreaterThan(sent.estimated)
        expect(refreshed.tokens).toBe(actual)
        const { context } = yield* ConversationContext.fit(reported)
        expect(context.tokens).toBe(actual)
        // the next report replaces the correction and its anchor
        const again = ConversationContext.refresh(ConversationContext.recordUsage(refreshed, actual + 10))
        expect(again.tokens).toBe(actual + 10)
      }).pipe(Effect.provide(Estimation)))
  }

  it("after a fit that scaled a negative correction to what it kept, the correction takes the same share of the factor's move", () => {
    const calibration = Effect.runSync(Calibration.make(TokenEstimator.heuristic))
    const estimator = calibration.estimatorFor("m")
    const messages = Array.from({ length: 40 }, (_, k) => k % 2 ? Message.assistant(`answer ${k} ${"lorem ipsum dolor ".repeat(20)}`) : Message.user(`question ${k} ${"sit amet ".repeat(20)}`))
    const reported = Math.round(estimator.estimateConversation(messages) * 0.8)
    const context = ConversationContext.recordUsage(ConversationContext.makeWith(estimator, messages, 100_000), reported)
    const window = Effect.runSync(MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, estimator)))
    const { context: fitted } = Effect.runSync(
      ConversationContext.fit(ConversationContext.withBudget(context, Math.round(context.tokens / 2)), { strategy: "drop_oldest" }).pipe(Effect.provideService(MessageWindow.MessageWindow, window))
    )
    Effect.runSync(calibration.recordConversation("m", messages, reported))
    // the kept messages at the ratio the provider reported for all of them
    const expected = Math.round(TokenEstimator.heuristic.estimateConversation(fitted.messages) * 0.8)
    expect(Math.abs(ConversationContext.refresh(fitted).tokens - expected)).toBeLessThanOrEqual(2)
  })
})

describe("bad values from untyped code", () => {
  it("recordUsage with no usage at all (a provider that sent none) is no report", () => {
    const context = ConversationContext.makeWith(TokenEstimator.heuristic, [Message.user("hi")], 1_000)
    for (const usage of [undefined, null]) {
      expect(ConversationContext.recordUsage(context, usage as unknown as number)).toBe(context)
    }
  })

  it.effect("a summarizer that answers with something else than text is SummaryFailed, not a defect", () => {
    const service = Summarizer.Summarizer.of({ summarize: () => Effect.succeed(undefined as unknown as string) })
    const window = MessageWindow.layer.pipe(Layer.provide(Layer.merge(TokenEstimator.layer, Layer.succeed(Summarizer.Summarizer, service))))
    const history = [Message.system("sys"), Message.user(`q1 ${"w ".repeat(300)}`), Message.assistant(`a1 ${"z ".repeat(300)}`), Message.user("q2")]
    return Effect.gen(function*() {
      const error = yield* Effect.flip(MessageWindow.fit(history, 200, { strategy: "summarize" }))
      expect(error.message).toBe("could not summarize the dropped messages: the summarizer returned undefined, not text")
    }).pipe(Effect.provide(window))
  })
})

describe("an estimator that gives no finite figure for a message", () => {
  it.effect("makes a context of Infinity tokens that is over, and fit names the estimate, not fixed tokens never given", () =>
    Effect.gen(function*() {
      for (const bad of [Infinity, Number.NaN]) {
        const estimator = yield* TokenEstimator.make({ estimateText: (text) => (text.includes("BOOM") ? bad : text.length) })
        const context = ConversationContext.makeWith(estimator, [Message.user("hello"), Message.assistant("BOOM"), Message.user("again")], 1_000)
        expect(ConversationContext.isOver(context)).toBe(true)
        if (bad === Infinity) expect([context.tokens, context.headroom, context.correction]).toEqual([Infinity, -Infinity, 0])
        const window = MessageWindow.layer.pipe(Layer.provide(Layer.succeed(TokenEstimator.TokenEstimator, estimator)))
        const error = yield* Effect.flip(ConversationContext.fit(context).pipe(Effect.provide(window)))
        expect(error._tag).toBe("InvalidEstimate")
        expect(error.message).toContain("messages[1] (an assistant message)")
      }
    }))
})
