/**
 * What a second adversarial read of the window and the conversation context
 * found: summaries that piled up inside the one system prompt Anthropic and
 * Gemini read all system text into, and a context that copied its whole
 * history on every append.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Equal, Layer, Result } from "effect"
import { Block, Conversation, ConversationContext, Message, MessageWindow, Request, Summarizer, TokenEstimator } from "../src/index.js"
import { Anthropic, Gemini, OpenAiChat } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"
import { allStrategies, estimator, fitRequestSync, fitSync, window } from "./windowCheck.js"

const WindowWithSummaries = MessageWindow.layer.pipe(Layer.provide(Layer.merge(TokenEstimator.layer, Summarizer.layerExtractive())))

const HEADER = "[Summary of"

/** The text blocks of the system messages, in order. */
const systemTexts = (messages: ReadonlyArray<Message.Message>): Array<string> =>
  messages.flatMap((m) => (m.role === "system" ? m.content.map((b) => b.text) : []))

const longHistory = (): Array<Message.Message> => {
  const history: Array<Message.Message> = [Message.system("Be brief.")]
  for (let i = 0; i < 6; i++) history.push(Message.user(`question ${i} ${"detail ".repeat(60)}`), Message.assistant(`answer ${i} ${"more ".repeat(60)}`))
  history.push(Message.user("final"))
  return history
}

/** A provider's request body written and read back, as an agent that stores its history in that format does. */
type RoundTrip = (messages: ReadonlyArray<Message.Message>) => Effect.Effect<ReadonlyArray<Message.Message>, unknown>

const viaAnthropic: RoundTrip = (messages) =>
  Effect.gen(function*() {
    const { value: body } = yield* Anthropic.toRequest(Request.make(messages, { model: "claude-sonnet-4-5", maxOutputTokens: 1_024 }))
    return (yield* Anthropic.fromRequest(JSON.parse(JSON.stringify(body)))).value.messages
  })

const viaGemini: RoundTrip = (messages) =>
  Effect.gen(function*() {
    const { value: body } = yield* Gemini.toRequest(Request.make(messages))
    return (yield* Gemini.fromRequest(JSON.parse(JSON.stringify(body)))).value.messages
  })

const agentLoop = (provider: "anthropic" | "gemini", roundTrip: RoundTrip) =>
  Effect.gen(function*() {
    let history: ReadonlyArray<Message.Message> = longHistory()
    for (let round = 0; round < 10; round++) {
      const fitted = yield* MessageWindow.fit(history, 700, { strategy: "summarize", provider })
      const read = yield* roundTrip(fitted.messages)
      const texts = systemTexts(read)
      // the user's system prompt stays, and holds one summary at most: the newest, which folded the earlier ones in
      assert.strictEqual(texts[0], "Be brief.", `round ${round}`)
      assert.isAtMost(texts.filter((t) => t.startsWith(HEADER)).length, 1, `round ${round}: ${texts.length} system blocks`)
      history = [...read, Message.assistant(`reply ${round} ${"x ".repeat(100)}`), Message.user(`next ${round} ${"y ".repeat(100)}`)]
    }
  }).pipe(Effect.provide(WindowWithSummaries))

describe("summaries read back from Anthropic and Gemini", () => {
  it.effect("an Anthropic agent loop (fit, write the request, read it back, append) keeps one summary in the system prompt", () => agentLoop("anthropic", viaAnthropic))

  it.effect("a Gemini agent loop (fit, write the request, read it back, append) keeps one summary in the system instruction", () => agentLoop("gemini", viaGemini))

  it.effect("a summary block of the system prompt is folded into the next summary; the system text around it is kept as it was", () =>
    Effect.gen(function*() {
      const old = "[Summary of 9 earlier messages, removed to fit the context window]\nUser: Plan the trip to Oslo."
      const prompt = Message.system([Block.text("Be brief."), Block.text(old), Block.text("Answer in French.")], { name: "rules" })
      const history = [prompt, ...longHistory().slice(1)]
      const fitted = yield* MessageWindow.fit(history, 700, { strategy: "summarize", provider: "anthropic" })
      const first = fitted.messages[0]!
      assert.strictEqual(first.role, "system")
      assert.deepStrictEqual(systemTexts([first]), ["Be brief.", "Answer in French."])
      assert.strictEqual(first.role === "system" ? first.name : undefined, "rules")
      // the old summary went to the summarizer, as a summary: its text is carried on
      assert.include(Message.textOf(fitted.summary!.message), "Earlier: User: Plan the trip to Oslo.")
      assert.strictEqual(systemTexts(fitted.messages).filter((t) => t.startsWith(HEADER)).length, 1)
      // and the change to the system message is reported
      assert.deepStrictEqual(fitted.takenOut.map((t) => [t.index, t.at, t.summaries]), [[0, 0, 1]])
      assert.strictEqual(fitted.takenOut[0]!.before, prompt)
      assert.strictEqual(fitted.takenOut[0]!.after, first)
      assert.strictEqual(fitted.summary!.replaces, fitted.dropped.reduce((n, d) => n + d.end - d.start, 0) + 1)
    }).pipe(Effect.provide(WindowWithSummaries)))

  it.effect("summaries that already piled up in a system prompt are all folded into one", () =>
    Effect.gen(function*() {
      const piled = [1, 2, 3].map((k) => Block.text(`[Summary of ${k} earlier messages, removed to fit the context window]\nEarlier part ${k}.`))
      const history = [Message.system([Block.text("Be brief."), ...piled]), ...longHistory().slice(1)]
      const fitted = yield* MessageWindow.fit(history, 700, { strategy: "summarize", provider: "gemini" })
      const texts = systemTexts(fitted.messages)
      assert.strictEqual(texts[0], "Be brief.")
      assert.strictEqual(texts.filter((t) => t.startsWith(HEADER)).length, 1)
      const summary = Message.textOf(fitted.summary!.message)
      for (const k of [1, 2, 3]) assert.include(summary, `Earlier part ${k}.`)
      assert.deepStrictEqual(fitted.takenOut.map((t) => t.summaries), [3])
    }).pipe(Effect.provide(WindowWithSummaries)))

  it.effect("a system message that opens with a summary but holds other text is not a summary: that text stays", () =>
    Effect.gen(function*() {
      // Anthropic lifts a system message from the middle of a conversation into the system prompt, after the summary
      const prompt = Message.system([Block.text("[Summary of 4 earlier messages, removed to fit the context window]\nOld."), Block.text("Never delete files.")])
      assert.isFalse(MessageWindow.isSummary(prompt))
      const fitted = yield* MessageWindow.fit([prompt, ...longHistory().slice(1)], 700, { strategy: "drop_oldest", provider: "anthropic" })
      assert.deepStrictEqual(systemTexts(fitted.messages), ["Never delete files."])
      assert.deepStrictEqual(fitted.takenOut.map((t) => [t.index, t.summaries]), [[0, 1]])
      assert.isAtMost(fitted.tokensAfter, fitted.available)
      assert.strictEqual(fitted.tokensAfter, TokenEstimator.heuristic.estimateConversation(fitted.messages))
    }).pipe(Effect.provide(WindowWithSummaries)))

  it.effect("a system prompt holding a summary is left whole when nothing has to go", () =>
    Effect.gen(function*() {
      const prompt = Message.system([Block.text("Be brief."), Block.text("[Summary of 4 earlier messages, removed to fit the context window]\nOld.")])
      const history = [prompt, Message.user("hi")]
      const fitted = yield* MessageWindow.fit(history, 10_000, { strategy: "summarize" })
      assert.strictEqual(fitted.messages, history)
      assert.deepStrictEqual(fitted.takenOut, [])
    }).pipe(Effect.provide(WindowWithSummaries)))

  it.effect("a summary read back from OpenAI Chat is still dropped whole and folded, with nothing taken out of a system prompt", () =>
    Effect.gen(function*() {
      let history: ReadonlyArray<Message.Message> = longHistory()
      for (let round = 0; round < 4; round++) {
        const fitted = yield* MessageWindow.fit(history, 700, { strategy: "summarize" })
        assert.deepStrictEqual(fitted.takenOut, [])
        const stored = yield* OpenAiChat.toMessages(fitted.messages)
        const read = (yield* OpenAiChat.fromMessages(stored.value)).value
        assert.deepStrictEqual(systemTexts(read).filter((t) => !t.startsWith(HEADER)), ["Be brief."])
        history = [...read, Message.assistant(`reply ${round} ${"x ".repeat(100)}`), Message.user(`next ${round} ${"y ".repeat(100)}`)]
      }
    }).pipe(Effect.provide(WindowWithSummaries)))
})

describe("a summary in the assistant role, read back from a provider's format", () => {
  it.effect("is recognised and folded into the next summary, not summarized as an ordinary answer", () =>
    Effect.gen(function*() {
      let history: ReadonlyArray<Message.Message> = [Message.system("Be brief."), Message.user(`TASK: plan the Oslo trip ${"t ".repeat(50)}`)]
      for (let i = 0; i < 6; i++) history = [...history, Message.assistant(`answer ${i} ${"more ".repeat(60)}`), Message.user(`question ${i} ${"detail ".repeat(60)}`)]
      let first: string | undefined
      for (let round = 0; round < 3; round++) {
        // with the task pinned, the summary follows it as an assistant message
        const fitted = yield* MessageWindow.fit(history, 700, { strategy: "summarize", pinFirstUser: true })
        assert.strictEqual(fitted.summary?.message.role, "assistant")
        const stored = yield* OpenAiChat.toMessages(fitted.messages)
        const read = (yield* OpenAiChat.fromMessages(stored.value)).value
        const summaries = read.filter(MessageWindow.isSummary)
        assert.strictEqual(summaries.length, 1, `round ${round}`)
        const text = Message.textOf(summaries[0]!)
        // what the first summary said is carried forward whole, as "Earlier:", in every later one
        if (first === undefined) first = text.split("\n")[1]
        else assert.include(text, `Earlier: ${first}`, `round ${round}`)
        history = [...read, Message.assistant(`reply ${round} ${"x ".repeat(100)}`), Message.user(`next ${round} ${"y ".repeat(100)}`)]
      }
    }).pipe(Effect.provide(WindowWithSummaries)))
})

const OLD_SUMMARY = "[Summary of 9 earlier messages, removed to fit the context window]\nUser: Plan the trip to Oslo."

/** The input with its system text joined into one message holding an earlier summary, as Anthropic and Gemini read it back. */
const joinedCase = Arbitrary.all({
  input: Arb.agentConversation,
  at: Arb.intBetween(0, 2),
  choice: Arb.intBetween(0, 6),
  provider: Arb.intBetween(0, 2),
  percent: Arb.intBetween(1, 110),
  pinFirstUser: Arb.bool,
  pinSystem: Arb.intBetween(0, 4)
}).pipe(
  Arbitrary.map(({ at, choice, input, percent, pinFirstUser, pinSystem, provider }) => {
    const rules = input.filter((m) => m.role === "system").flatMap((m) => m.content)
    const blocks = [...rules]
    blocks.splice(Math.min(at, blocks.length), 0, Block.text(OLD_SUMMARY))
    const messages = [Message.system(blocks), ...input.filter((m) => m.role !== "system")]
    const strategies = allStrategies
    const options: MessageWindow.FitOptions = {
      strategy: strategies[choice]!,
      pinFirstUser,
      ...(provider === 0 ? {} : { provider: provider === 1 ? "anthropic" : "gemini" }),
      // the caller may pin the system message itself: then its summary stays with it
      ...(pinSystem === 0 ? { pin: (m: Message.Message) => m === messages[0] } : {})
    }
    return { messages, budget: Math.ceil((estimator.estimateConversation(messages) * percent) / 100), options }
  })
)

const headersIn = (messages: ReadonlyArray<Message.Message>): number =>
  messages.reduce((n, m) => n + m.content.filter((b) => b._tag === "Text" && b.text.startsWith(HEADER)).length, 0)

describe("a system prompt holding a summary, under every strategy and provider", () => {
  it.prop("keeps the rest of the system text, one summary at most, honest figures, and reports every change", [joinedCase], ([{ budget, messages, options }]) => {
    const result = fitSync(window, messages, budget, options)
    if (Result.isFailure(result)) {
      expect(result.failure._tag).toBe("BudgetTooSmall")
      if (result.failure._tag === "BudgetTooSmall") expect(Result.isSuccess(fitSync(window, messages, result.failure.minimumBudget, options))).toBe(true)
      return
    }
    const fitted = result.success
    const output = fitted.messages
    const rules = (ms: ReadonlyArray<Message.Message>) => systemTexts(ms).filter((t) => !t.startsWith(HEADER))
    expect(rules(output)).toEqual(rules(messages))
    // (a caller who pins the system message keeps its summary, as a pinned summary of its own would be kept)
    expect(headersIn(output)).toBeLessThanOrEqual(options.pin === undefined ? 1 : 2)
    expect(fitted.tokensAfter).toBe(estimator.estimateConversation(output))
    expect(fitted.tokensAfter).toBeLessThanOrEqual(fitted.available)
    if (Conversation.isValid(messages)) expect(Conversation.issuesOf(output).map((i) => i.message)).toEqual([])
    // every input message is kept (as it was, cleared, or without its summary) or dropped, once, in order
    const seen = new Array<number>(messages.length).fill(0)
    for (const d of fitted.dropped) {
      expect(d.messages).toEqual(messages.slice(d.start, d.end))
      for (let i = d.start; i < d.end; i++) seen[i]!++
    }
    let previous = -1
    output.forEach((m, k) => {
      if (fitted.summary?.at === k) return expect(m).toBe(fitted.summary.message)
      const taken = fitted.takenOut.find((t) => t.at === k)
      const cleared = fitted.cleared.find((c) => c.at === k)
      const index = taken !== undefined ? taken.index : cleared !== undefined ? cleared.index : messages.indexOf(m, previous + 1)
      if (taken !== undefined) expect(m).toBe(taken.after)
      if (cleared !== undefined) expect(m).toBe(cleared.after)
      expect(index).toBeGreaterThan(previous)
      seen[index]!++
      previous = index
    })
    expect(seen.every((n) => n === 1)).toBe(true)
    // a system prompt (not a summary alone) stays whole unless its summary was taken out; a pinned one always
    if (fitted.takenOut.length === 0 && !MessageWindow.isSummary(messages[0]!)) expect(output[0]).toBe(messages[0])
    if (options.pin !== undefined) expect(fitted.takenOut).toEqual([])
    if (fitted.summary !== undefined) {
      expect(fitted.summary.replaces).toBe(fitted.dropped.reduce((n, d) => n + d.end - d.start, 0) + fitted.takenOut.length)
    }
  }, { arbitrary: { runs: 500 }, timeout: 120_000 })

  it("fitRequest takes the summary out of an Anthropic request's system prompt too", () => {
    const prompt = Message.system([Block.text("Be brief."), Block.text(OLD_SUMMARY)])
    const request = Request.make([prompt, ...longHistory().slice(1)], { model: "claude-sonnet-4-5", maxOutputTokens: 100 })
    const result = fitRequestSync(window, request, 800, { strategy: "summarize", provider: "anthropic" })
    assert(Result.isSuccess(result))
    const fitted = result.success
    assert.deepStrictEqual(fitted.takenOut.map((t) => t.index), [0])
    assert.deepStrictEqual(systemTexts(fitted.request.messages).filter((t) => !t.startsWith(HEADER)), ["Be brief."])
    assert.strictEqual(headersIn(fitted.request.messages), 1)
    assert.include(Message.textOf(fitted.summary!.message), "Plan the trip to Oslo.")
    assert.include(MessageWindow.describe(fitted).join("\n"), "took 1 earlier summary out of the system message messages[0]")
  })
})

describe("ConversationContext.append", () => {
  it("a context appended to twice (two branches from one value) keeps its own messages, and so does each branch", () => {
    const estimator = TokenEstimator.heuristic
    const base = ConversationContext.append(ConversationContext.makeWith(estimator, [Message.system("Be brief.")], 10_000), Message.user("Weather in Oslo?"))
    const before = base.messages
    const left = ConversationContext.append(base, Message.assistant("12°C."))
    const right = ConversationContext.append(base, [Message.assistant("Let me check."), Message.user("Thanks")])
    const leftLonger = ConversationContext.append(left, Message.user("And tomorrow?"))
    const rightLonger = ConversationContext.append(right, Message.assistant("You are welcome."))
    const texts = (c: ConversationContext.ConversationContext) => c.messages.map(Message.textOf)
    assert.deepStrictEqual(texts(base), ["Be brief.", "Weather in Oslo?"])
    assert.strictEqual(base.messages, before)
    assert.deepStrictEqual(texts(left), ["Be brief.", "Weather in Oslo?", "12°C."])
    assert.deepStrictEqual(texts(right), ["Be brief.", "Weather in Oslo?", "Let me check.", "Thanks"])
    assert.deepStrictEqual(texts(leftLonger), ["Be brief.", "Weather in Oslo?", "12°C.", "And tomorrow?"])
    assert.deepStrictEqual(texts(rightLonger), ["Be brief.", "Weather in Oslo?", "Let me check.", "Thanks", "You are welcome."])
    for (const c of [base, left, right, leftLonger, rightLonger]) {
      assert.isTrue(Object.isFrozen(c.messages))
      assert.strictEqual(c.estimated, estimator.estimateConversation(c.messages))
    }
    // a message array handed out cannot be grown into another context's history
    assert.throws(() => (left.messages as Array<Message.Message>).push(Message.user("sneaked in")))
    assert.deepStrictEqual(texts(leftLonger), ["Be brief.", "Weather in Oslo?", "12°C.", "And tomorrow?"])
  })

  it("a context the caller spread into an object of its own appends to the messages that object holds", () => {
    const estimator = TokenEstimator.heuristic
    const base = ConversationContext.append(ConversationContext.makeWith(estimator, [Message.user("one")], 10_000), Message.assistant("two"))
    const next = ConversationContext.append(base, Message.user("three"))
    const own: ConversationContext.ConversationContext = { ...base, messages: [Message.user("mine")] }
    const appended = ConversationContext.append(own, Message.assistant("four"))
    assert.deepStrictEqual(appended.messages.map(Message.textOf), ["mine", "four"])
    assert.deepStrictEqual({ ...next }.messages.map(Message.textOf), ["one", "two", "three"])
    assert.deepStrictEqual(ConversationContext.withBudget(next, 5).messages.map(Message.textOf), ["one", "two", "three"])
    assert.deepStrictEqual(Object.keys(next), ["messages", "budget", "estimated", "correction", "tokens", "headroom", "estimator"])
  })

  it("contexts compare by what they show (Effect's Equal), not by the history they share, whatever was appended since", () => {
    const estimator = TokenEstimator.heuristic
    const start = ConversationContext.makeWith(estimator, [Message.user("one")], 10_000)
    const reply = Message.assistant("two")
    const a = ConversationContext.append(start, reply)
    const b = ConversationContext.append(start, reply)
    // a grows the history a and b both started from
    const later = ConversationContext.append(a, Message.user("three"))
    assert.isTrue(Equal.equals(a, b))
    assert.isTrue(Equal.equals(a, ConversationContext.makeWith(estimator, a.messages, 10_000)))
    assert.isFalse(Equal.equals(a, later))
    assert.deepStrictEqual(Object.getOwnPropertySymbols(a), [])
  })
})
