/**
 * What an adversarial read of the window, the summarizer and the
 * conversation context found: a provider's own call and output separated, a
 * result kept apart from a call it came before, summaries that piled up once
 * read back from a provider's format, a pasted log that hid the task from the
 * summarizer, a negative token count, and a NaN budget read as "not over".
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Block, Conversation, ConversationContext, Message, MessageWindow, Summarizer, TokenEstimator } from "../src/index.js"
import { OpenAiChat, OpenAiResponses } from "../src/providers/index.js"

const Window = MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))
const WindowWithSummaries = MessageWindow.layer.pipe(Layer.provide(Layer.merge(TokenEstimator.layer, Summarizer.layerExtractive())))

const ids = (messages: ReadonlyArray<Message.Message>) =>
  messages.flatMap((m) =>
    m.content.flatMap((b) =>
      b._tag === "ToolCall" ? [`call ${b.id}`] : b._tag === "ToolResult" ? [`result ${b.toolCallId}`] : b._tag === "ProviderData" ? [`${String(b.data["type"])} ${String(b.data["call_id"])}`] : []
    )
  )

describe("the window keeps pairs together", () => {
  it.effect("a Responses custom tool call and its output, read into two messages, are kept or dropped together", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiResponses.fromMessages([
        { role: "user", content: `Patch the file and check the weather. ${"Context. ".repeat(200)}` },
        { type: "function_call", id: "fc_1", call_id: "call_A", name: "get_weather", arguments: '{"city":"Oslo"}' },
        { type: "custom_tool_call", id: "ctc_1", call_id: "call_B", name: "apply_patch", input: `*** Begin Patch\n${"+line\n".repeat(300)}*** End Patch` },
        { type: "function_call_output", call_id: "call_A", output: "12°C" },
        { type: "custom_tool_call_output", call_id: "call_B", output: "patched" },
        { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Done.", annotations: [] }] },
        { role: "user", content: "Thanks, what next?" }
      ])
      // the output sits in a later message than its call
      assert.include(ids(read.value), "custom_tool_call_output call_B")
      for (const budget of [60, 200, 400, 800, 2_000]) {
        const fitted = yield* MessageWindow.fit(read.value, budget, { provider: "openai-responses" }).pipe(Effect.provide(Window))
        const kept = ids(fitted.messages)
        assert.strictEqual(kept.includes("custom_tool_call call_B"), kept.includes("custom_tool_call_output call_B"), `budget ${budget}: ${kept.join(", ")}`)
        yield* Conversation.validateFor("openai-responses")(fitted.messages)
      }
    }))

  it.effect("a result stored before its call (a broken history) is kept or dropped with that call", () =>
    Effect.gen(function*() {
      const history = [
        Message.user(`Read the config. ${"context ".repeat(200)}`),
        Message.tool(Block.toolResult("c1", "read_file", "port = 8080")),
        Message.assistant([Block.toolCall("c1", "read_file", { path: "config.toml" })]),
        Message.assistant("The port is 8080."),
        Message.user("Thanks. Now change it to 9090.")
      ]
      for (const budget of [40, 60, 120, 400]) {
        const fitted = yield* MessageWindow.fit(history, budget).pipe(Effect.provide(Window), Effect.orElseSucceed(() => undefined))
        if (fitted === undefined) continue
        const kept = ids(fitted.messages)
        assert.strictEqual(kept.includes("call c1"), kept.includes("result c1"), `budget ${budget}: ${kept.join(", ")}`)
      }
    }))
})

describe("summaries", () => {
  it.effect("a summary read back from a provider's format (its marker lost) is still a summary, and the next one folds it in", () =>
    Effect.gen(function*() {
      let history: ReadonlyArray<Message.Message> = [Message.system("Be brief.")]
      for (let i = 0; i < 6; i++) history = [...history, Message.user(`question ${i} ${"detail ".repeat(60)}`), Message.assistant(`answer ${i} ${"more ".repeat(60)}`)]
      history = [...history, Message.user("final")]
      for (let round = 0; round < 8; round++) {
        const fitted = yield* MessageWindow.fit(history, 700, { strategy: "summarize" }).pipe(Effect.provide(WindowWithSummaries))
        const stored = yield* OpenAiChat.toMessages(fitted.messages)
        const kept = (yield* OpenAiChat.fromMessages(stored.value)).value
        assert.isAtMost(kept.filter((m) => m.role === "system").length, 2, `round ${round}`)
        assert.isAtMost(kept.filter(MessageWindow.isSummary).length, 1)
        history = [...kept, Message.assistant(`reply ${round} ${"x ".repeat(100)}`), Message.user(`next ${round} ${"y ".repeat(100)}`)]
      }
      // a system message of the user's own is not taken for one
      assert.isFalse(MessageWindow.isSummary(Message.system("Summary of the rules: be brief.")))
      assert.isFalse(MessageWindow.isSummary(Message.user("[Summary of 3 earlier messages, removed to fit the context window]")))
    }))

  it.effect("one long pasted message is cut in the summarizer's transcript; the task before it is still shown", () =>
    Effect.gen(function*() {
      let transcript = ""
      const spy = Summarizer.Summarizer.of({
        summarize: (request) =>
          Effect.sync(() => {
            transcript = request.transcript
            return "summary"
          })
      })
      const history = [
        Message.user("Task: migrate the billing service to Postgres 16 and keep the API stable."),
        Message.assistant("Understood. Send me the failing log."),
        Message.user(`Here is the log:\n${"ERROR db timeout at line 42\n".repeat(20_000)}`),
        Message.assistant("The cause is a db timeout at line 42."),
        Message.user("Fix it.")
      ]
      const fitted = yield* MessageWindow.fit(history, 2_000, { strategy: "summarize" }).pipe(
        Effect.provide(MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))),
        Effect.provideService(Summarizer.Summarizer, spy)
      )
      assert.include(transcript, "Task: migrate the billing service")
      assert.include(transcript, "Understood. Send me the failing log.")
      assert.isBelow(transcript.length, 100_000)
      assert.strictEqual(fitted.summary?.notShown, 0)
    }))
})

describe("ConversationContext", () => {
  it.effect("a negative correction (an estimator that counts over) is scaled to what a fit kept: tokens never go below zero", () =>
    Effect.gen(function*() {
      const messages: Array<Message.Message> = []
      for (let i = 0; i < 40; i++) messages.push(Message.user(`question ${i} ${"word ".repeat(150)}`), Message.assistant(`answer ${i} ${"text ".repeat(150)}`))
      messages.push(Message.user("and now?"))
      const context = ConversationContext.makeWith(TokenEstimator.heuristic, messages, 1_000)
      const reported = ConversationContext.recordUsage(context, Math.round(context.estimated * 0.6))
      assert.isBelow(reported.correction, 0)
      const { context: fitted } = yield* ConversationContext.fit(reported).pipe(Effect.provide(Window))
      assert.isAtLeast(fitted.tokens, 0)
      assert.isAtMost(fitted.headroom, fitted.budget)
      // the same share of the kept text
      assert.approximately(fitted.correction / fitted.estimated, reported.correction / reported.estimated, 0.01)
    }))

  it("a budget that is not a number is over, not under", () => {
    const context = ConversationContext.makeWith(TokenEstimator.heuristic, [Message.user("hello")], Number.NaN)
    assert.isTrue(ConversationContext.isOver(context))
    assert.isFalse(ConversationContext.isOver(ConversationContext.withBudget(context, Number.POSITIVE_INFINITY)))
    assert.isTrue(ConversationContext.isOver(ConversationContext.withBudget(context, -1)))
  })
})
