/**
 * What a third adversarial read of the window found: a reasoning model's
 * turn kept without the reasoning item its later outputs need (by a cut, and
 * by `clearThinking`), a request fit whose work grew with the square of a
 * parallel call's size, and fitted requests over their budget once a summary
 * opened them (OpenAI writes the tool definitions after the system message
 * that opens a request, and they cost what the two cost together).
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, Result } from "effect"
import { Block, Conversation, Message, MessageWindow, Request, Summarizer, TokenEstimator } from "../src/index.js"
import { OpenAiResponses } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"
import * as Req from "./requestArbitraries.js"
import { estimator, fitRequestSync, fitSync, window } from "./windowCheck.js"

const Window = MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))

/** An o3 agent's turn read back from Responses items, its client writing each output right after its call. */
const reasoningTurn = OpenAiResponses.fromMessages([
  { role: "user", content: "Investigate the failing build." },
  { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc1" },
  { type: "function_call", id: "fc_1", call_id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' },
  { type: "function_call_output", call_id: "call_1", output: "x".repeat(4000) },
  { type: "function_call", id: "fc_2", call_id: "call_2", name: "read_file", arguments: '{"path":"b.ts"}' },
  { type: "function_call_output", call_id: "call_2", output: "short" },
  { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Found it.", annotations: [] }] },
  { role: "user", content: "Fix it." }
])

describe("reasoning models on OpenAI Responses", () => {
  it.effect("fitRequest never keeps a turn's later output items without the reasoning item they came after", () =>
    Effect.gen(function*() {
      const messages = (yield* reasoningTurn).value
      const request = Request.make(messages, { model: "o3" })
      const profile = Conversation.profileOptionsOf(request)
      assert.deepStrictEqual(Conversation.issuesFor("openai-responses", messages, profile), [])
      for (const budget of [200, 300, 400, 600, 1_500]) {
        const fitted = yield* Effect.result(MessageWindow.fitRequest(request, budget, { provider: "openai-responses" }))
        if (Result.isFailure(fitted)) continue
        const out = fitted.success.request.messages
        assert.deepStrictEqual(Conversation.issuesFor("openai-responses", out, profile).map((i) => i._tag), [], `budget ${budget}`)
      }
    }).pipe(Effect.provide(Window)))

  it.effect("fit with a reasoning profile keeps the reasoning with the outputs of its turn, or drops them together", () =>
    Effect.gen(function*() {
      const messages = (yield* reasoningTurn).value
      const profile = { model: "gpt-5" }
      for (const budget of [60, 200, 300, 400, 600, 1_500]) {
        const fitted = yield* Effect.result(MessageWindow.fit(messages, budget, { provider: "openai-responses", profile }))
        if (Result.isFailure(fitted)) continue
        assert.deepStrictEqual(Conversation.issuesFor("openai-responses", fitted.success.messages, profile).map((i) => i._tag), [], `budget ${budget}`)
      }
    }).pipe(Effect.provide(Window)))
  it.effect("clearThinking leaves a reasoning model's reasoning items in place: its output items still need them", () =>
    Effect.gen(function*() {
      const earlier = (yield* OpenAiResponses.fromMessages([
        { role: "user", content: "Investigate the failing build." },
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "I should read a.ts first. ".repeat(30) }], encrypted_content: "enc".repeat(200) },
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' },
        { type: "function_call_output", call_id: "call_1", output: "x".repeat(400) },
        { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Found it.", annotations: [] }] },
        { role: "user", content: "Fix it." }
      ])).value
      const messages = [...earlier, Message.assistant("On it."), Message.user("Thanks, and now the tests?")]
      const profile = { model: "o3" }
      const options = { provider: "openai-responses", strategy: "clear_tool_results", clearThinking: true, keepToolResults: 0 } as const
      for (const budget of [150, 200, 300]) {
        const fitted = yield* Effect.result(MessageWindow.fit(messages, budget, { ...options, profile }))
        if (Result.isSuccess(fitted)) {
          assert.deepStrictEqual(Conversation.issuesFor("openai-responses", fitted.success.messages, profile).map((i) => i._tag), [], `budget ${budget}`)
        } else {
          assert.strictEqual(fitted.failure._tag, "BudgetTooSmall")
        }
        // and through fitRequest, which reads the model from the request
        const viaRequest = yield* Effect.result(MessageWindow.fitRequest(Request.make(messages, { model: "o3" }), budget + 40, options))
        if (Result.isSuccess(viaRequest)) {
          assert.deepStrictEqual(Conversation.issuesFor("openai-responses", viaRequest.success.request.messages, profile).map((i) => i._tag), [], `budget ${budget}`)
        }
      }
    }).pipe(Effect.provide(Window)))
})

/** The history as a reasoning model leaves it: each turn's first step opens with the reasoning item its outputs came after. */
const withReasoning = (input: ReadonlyArray<Message.Message>): Array<Message.Message> => {
  let opened = false
  return input.map((m, i) => {
    if (m.role === "user") opened = false
    if (m.role !== "assistant") return m
    // the ids the API gave: a reasoning item before the first call of the turn, each call its fc_ item
    const content: Array<Block.AssistantBlock> = []
    m.content.forEach((b, k) => {
      if (b._tag === "Thinking" || b._tag === "RedactedThinking") return
      if (b._tag === "Text" && b.itemId !== undefined) return content.push(Block.text(b.text))
      if (b._tag === "ToolCall" && b.providerExecuted !== true) return content.push(Block.toolCall(b.id, b.name, b.args, { itemId: `fc_${i}_${k}` }))
      content.push(b)
    })
    const firstCall = content.findIndex((b) => b._tag === "ToolCall" && b.providerExecuted !== true)
    if (!opened && firstCall !== -1) {
      opened = true
      content.splice(firstCall, 0, Block.thinking("Planning the next step.", undefined, { itemId: `rs_${i}`, encryptedContent: "gAAAA" }))
    }
    const { content: _, role: _r, usage, ...options } = m
    return Message.assistant(content, { ...options, ...(usage === undefined ? {} : { usage }) })
  })
}

const reasoningCase = Arbitrary.all({
  input: Arb.agentConversation,
  percent: Arb.intBetween(1, 110),
  choice: Arb.intBetween(0, 3),
  pinFirstUser: Arb.bool,
  model: Arb.intBetween(0, 1)
}).pipe(
  Arbitrary.map(({ choice, input, model, percent, pinFirstUser }) => {
    const strategies: ReadonlyArray<MessageWindow.Strategy | ReadonlyArray<MessageWindow.Strategy>> = [
      "drop_oldest",
      ["clear_tool_results", "drop_oldest"],
      ["clear_tool_results", "drop_oldest_pair"],
      ["clear_tool_results", "summarize"]
    ]
    const options: MessageWindow.FitOptions = {
      provider: "openai-responses",
      profile: { model: model === 0 ? "o3" : "gpt-5" },
      strategy: strategies[choice]!,
      clearThinking: true,
      keepToolResults: 1,
      pinFirstUser
    }
    const reasoned = withReasoning(input)
    return { input: reasoned, options, budget: Math.ceil((estimator.estimateConversation(reasoned) * percent) / 100) }
  })
)

describe("reasoning models on OpenAI Responses, on generated agent histories", () => {
  it.prop("every strategy keeps validateFor(openai-responses, profile) passing whenever the input passes it", [reasoningCase], ([{ budget, input, options }]) => {
    const profile = options.profile!
    if (Conversation.issuesFor("openai-responses", input, profile).length > 0) return
    const result = fitSync(window, input, budget, options)
    if (Result.isFailure(result)) {
      assert.strictEqual(result.failure._tag, "BudgetTooSmall")
      return
    }
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", result.success.messages, profile).map((i) => i._tag), [])
    assert.isAtMost(result.success.tokensAfter, result.success.available)
  }, { arbitrary: { runs: 500 }, timeout: 120_000 })
})

describe("fitRequest on thousands of parallel calls", () => {
  it("renders each cleared result once beside the call it answers, not beside every call of its message", () => {
    const n = 400
    const calls = Array.from({ length: n }, (_, i) => Block.toolCall(`call_${i}`, "read_file", { path: `src/f${i}.ts` }))
    const history: Array<Message.Message> = [Message.system("sys"), Message.user("go"), Message.assistant(calls)]
    for (const c of calls) history.push(Message.tool(Block.toolResult(c.id, c.name, "content ".repeat(50))))
    history.push(Message.assistant("done"), Message.user("next"))
    const request = Request.make(history, { model: "gpt-4o" })
    // the work the estimator is given: how many blocks every rendered request holds, in all
    let rendered = 0
    const counting: TokenEstimator.Service = {
      ...TokenEstimator.heuristic,
      estimateRequest: (r, options) => {
        for (const m of r.messages) rendered += m.content.length
        return TokenEstimator.heuristic.estimateRequest(r, options)
      }
    }
    const window = Effect.runSync(MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, counting)))
    const budget = Math.round(TokenEstimator.heuristic.estimateRequest(request).total * 0.9)
    rendered = 0
    const fitted = Effect.runSync(Effect.result(window.fitRequest(request, budget, { strategy: ["clear_tool_results", "drop_oldest"], keepToolResults: 1 })))
    assert(Result.isSuccess(fitted))
    assert.isAbove(fitted.success.cleared.length, 100)
    // linear in the conversation: a few renderings of the request, and a small one per cleared message
    assert.isBelow(rendered, 20 * history.length)
  })
})

/** A model that writes long summaries: the window shortens each to exactly the room left. */
const verbose = Summarizer.Summarizer.of({ summarize: () => Effect.succeed("The user asked detailed questions about the weather. ".repeat(200)) })

describe("fitRequest with a summary that opens the request", () => {
  it.effect("counts what a summary opening the request changes in the cost of the tool definitions written after it: the request stays within budget", () =>
    Effect.gen(function*() {
      const history: Array<Message.Message> = []
      for (let i = 0; i < 8; i++) history.push(Message.user(`question ${i} ${"detail ".repeat(40)}`), Message.assistant(`answer ${i} ${"more ".repeat(40)}`))
      history.push(Message.user("final"))
      const tools = [Request.tool("get_weather", { description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } } })]
      const request = Request.make(history, { model: "gpt-4o", tools })
      const over: Array<string> = []
      for (let budget = 150; budget < 400; budget++) {
        const fitted = yield* Effect.result(MessageWindow.fitRequest(request, budget, { provider: "openai-responses", strategy: "summarize" }))
        if (Result.isFailure(fitted)) continue
        const total = TokenEstimator.heuristic.estimateRequest(fitted.success.request, { provider: "openai-responses" }).total
        if (total > budget) over.push(`${total} > ${budget}`)
      }
      assert.deepStrictEqual(over, [])
    }).pipe(Effect.provide(Window), Effect.provideService(Summarizer.Summarizer, verbose)))
})

describe("fitRequest on a request that opens with an earlier summary", () => {
  it.effect("sets aside what the tool definitions cost once the summary is dropped or replaced: the request stays within budget", () =>
    Effect.gen(function*() {
      const tools = [Request.tool("get_weather", { description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } } })]
      const over: Array<string> = []
      for (const provider of ["openai-chat", "openai-responses"] as const) {
        for (const ending of ["The user asked…", "Files read: a.ts, b.ts\n", "```"]) {
          // an agent loop's history after an earlier summarize: the summary opens it, as a system message
          const history: Array<Message.Message> = [Message.system(`[Summary of 3 earlier messages, removed to fit the context window]\n${ending}`)]
          for (let i = 0; i < 4; i++) history.push(Message.user(`question ${i} ${"detail ".repeat(10)}`), Message.assistant(`answer ${i} ${"more ".repeat(10)}`))
          history.push(Message.user("final"))
          const request = Request.make(history, { model: "gpt-4o", tools })
          for (const strategy of ["drop_oldest", "summarize"] as const) {
            for (let budget = 40; budget < 300; budget++) {
              const fitted = yield* Effect.result(MessageWindow.fitRequest(request, budget, { provider, strategy }))
              if (Result.isFailure(fitted)) continue
              const total = TokenEstimator.heuristic.estimateRequest(fitted.success.request, { provider }).total
              if (total > budget) over.push(`${provider} ${strategy} ${JSON.stringify(ending)}: ${total} > ${budget}`)
            }
          }
        }
      }
      assert.deepStrictEqual(over, [])
    }).pipe(Effect.provide(Window), Effect.provideService(Summarizer.Summarizer, verbose)))
})

/** An agent history after an earlier summarize (the summary opens it), or one without a system prompt, with a request's fixed part. */
const openingCase = Arbitrary.all({
  input: Arb.agentConversation,
  fixed: Req.fixedPart,
  opening: Arb.intBetween(0, 2),
  ending: Arb.text,
  provider: Arb.intBetween(0, 1),
  choice: Arb.intBetween(0, 2),
  percent: Arb.intBetween(5, 100)
}).pipe(
  Arbitrary.map(({ choice, ending, fixed, input, opening, percent, provider }) => {
    const rest = input.filter((m) => m.role !== "system")
    const summary = Message.system(`[Summary of 7 earlier messages, removed to fit the context window]\n${ending}`)
    const messages = opening === 0 ? [summary, ...rest] : opening === 1 ? rest : [Message.system([Block.text("Be brief."), ...summary.content]), ...rest]
    const p = provider === 0 ? "openai-chat" as const : "openai-responses" as const
    const request = Req.requestWith(messages, fixed, "gpt-4o")
    const strategies: ReadonlyArray<MessageWindow.Strategy | ReadonlyArray<MessageWindow.Strategy>> = ["drop_oldest", "summarize", ["clear_tool_results", "summarize"]]
    const budget = Math.ceil((estimator.estimateRequest(request, { provider: p }).total * percent) / 100) + (request.maxOutputTokens ?? 0)
    return { request, provider: p, budget, options: { provider: p, strategy: strategies[choice]! } }
  })
)

/** A window whose summarizer writes long summaries, which it shortens to exactly the room left. */
const verboseWindow = Effect.runSync(
  MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, estimator), Effect.provideService(Summarizer.Summarizer, verbose))
)

describe("fitRequest whatever system message opens the request", () => {
  it.prop("the fitted request, as estimateRequest counts it, stays within the budget", [openingCase], ([{ budget, options, provider, request }]) => {
    const result = fitRequestSync(verboseWindow, request, budget, options)
    if (Result.isFailure(result)) {
      assert.strictEqual(result.failure._tag, "BudgetTooSmall")
      return
    }
    const total = estimator.estimateRequest(result.success.request, { provider }).total
    assert.isAtMost(total + (request.maxOutputTokens ?? 0), budget)
  }, { arbitrary: { runs: 800 }, timeout: 120_000 })
})
