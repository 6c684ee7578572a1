/**
 * Inputs an adversarial read of the streams, the effect/ai adapter, the
 * repair and the window found mishandled: each case once threw, died, sent
 * stale data or broke a promise of the README.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Stream } from "effect"
import { Prompt } from "effect/ai"
import { Block, Conversation, Message, MessageWindow, Repair, TokenEstimator } from "../src/index.js"
import { AnthropicStream, EffectAi, OpenAiChat, OpenAiChatStream, ToolArguments } from "../src/providers/index.js"

const tagOf = (exit: Exit.Exit<unknown, unknown>): string => {
  if (Exit.isSuccess(exit)) return "Success"
  const error = Cause.findErrorOption(exit.cause)
  return error._tag === "Some" ? (error.value as { readonly _tag: string })._tag : `defect: ${Cause.pretty(exit.cause).split("\n")[0]}`
}

describe("streams", () => {
  const chunk = 'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}\n\n'

  it("an error frame at the very end, without its blank line, fails the stream as one that has it does", () => {
    for (const ending of ['event: error\ndata: {"message":"boom"}\n\n', 'event: error\ndata: {"message":"boom"}', 'event: error\ndata: Internal Server Error']) {
      assert.strictEqual(tagOf(Effect.runSyncExit(OpenAiChatStream.fromSse(chunk + ending))), "ProviderStreamError", JSON.stringify(ending))
    }
    const anthropic = [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"c","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}',
      'event: message_stop\ndata: {"type":"message_stop"}',
      'event: error\ndata: {"message":"Overloaded"}'
    ].join("\n\n")
    assert.strictEqual(tagOf(Effect.runSyncExit(AnthropicStream.fromSse(anthropic))), "ProviderStreamError")
  })

  it("a piece of the body that is neither text nor bytes is a protocol error, never a thrown TypeError", () => {
    for (const piece of [123, null, new DataView(new ArrayBuffer(4)), new Uint16Array([0x6164])]) {
      const accumulator = OpenAiChatStream.make()
      assert.doesNotThrow(() => accumulator.feed(piece as never))
      assert.strictEqual(tagOf(Effect.runSyncExit(OpenAiChatStream.fromSseStream(Stream.make(piece as never)))), "StreamProtocolError")
    }
  })
})

describe("the effect/ai adapter keeps its own copies only while the Prompt still says the same", () => {
  const roundTrip = (messages: ReadonlyArray<Message.Message>, edit: (m: Prompt.Message) => Prompt.Message) => {
    const prompt = Effect.runSync(EffectAi.toPrompt(messages)).value
    return Effect.runSync(EffectAi.fromPrompt(Prompt.fromMessages(prompt.content.map(edit)))).value
  }

  it("a tool call's params edited in the Prompt (a redaction) are what is sent, not the argument text kept from before", () => {
    const messages = [
      Message.user("log in"),
      Message.assistant([Block.toolCall("c1", "login", { password: "hunter2" }, { rawArgs: '{ "password": "hunter2" }' })]),
      Message.toolResultMessage("c1", "login", "ok")
    ]
    const redact = (m: Prompt.Message): Prompt.Message =>
      m.role !== "assistant" ? m : Prompt.assistantMessage({ content: m.content.map((p) => (p.type === "tool-call" ? Prompt.toolCallPart({ ...p, params: { password: "[REDACTED]" } }) : p)), options: m.options })
    const back = roundTrip(messages, redact)
    const sent = Effect.runSync(OpenAiChat.toMessages(back)).value as ReadonlyArray<{ readonly tool_calls?: ReadonlyArray<{ readonly function: { readonly arguments: string } }> }>
    assert.strictEqual(sent[1]!.tool_calls![0]!.function.arguments, '{"password":"[REDACTED]"}')
    // unedited, the text comes back as it was
    const kept = roundTrip(messages, (m) => m)
    assert.strictEqual((kept[1]!.content[0] as Block.ToolCallBlock).rawArgs, '{ "password": "hunter2" }')
  })

  it("a tool result or a system text edited in the Prompt wins over the parts kept from before", () => {
    const messages = [
      Message.system([Block.text("You are a pirate.", { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })]),
      Message.user("look"),
      Message.assistant([Block.toolCall("c1", "shot", {})]),
      Message.tool(Block.toolResult("c1", "shot", [Block.text("secret page text"), Block.image("https://example.com/a.png", { mediaType: "image/png" })]))
    ]
    const edited = roundTrip(messages, (m) =>
      m.role === "system"
        ? Prompt.systemMessage({ content: "You are a helpful assistant.", options: m.options })
        : m.role === "tool"
        ? Prompt.toolMessage({ content: m.content.map((p) => (p.type === "tool-result" ? Prompt.toolResultPart({ ...p, result: "[cleared]", modelOutput: undefined }) : p)), options: m.options })
        : m
    )
    assert.deepStrictEqual((edited[0]!.content as ReadonlyArray<Block.TextBlock>).map((b) => b.text), ["You are a helpful assistant."])
    assert.strictEqual((edited[3]!.content[0] as Block.ToolResultBlock).content, "[cleared]")
    // unedited, the exact parts come back
    const same = roundTrip(messages, (m) => m)
    assert.deepStrictEqual(same, messages)
  })

  it("ToolArguments.toText sends the args when the kept text no longer gives them, and the text while it does", () => {
    const call = Block.toolCall("c1", "f", { q: "a" }, { rawArgs: '{ "q": "a" }' })
    assert.strictEqual(ToolArguments.toText(call), '{ "q": "a" }')
    assert.strictEqual(ToolArguments.toText(Block.toolCall("c1", "f", { q: "b" }, { rawArgs: '{ "q": "a" }' })), '{"q":"b"}')
    // text that is not JSON was repaired into its args: it is sent as it came
    assert.strictEqual(ToolArguments.toText(Block.toolCall("c1", "f", { q: "a" }, { rawArgs: '{"q": "a"', parseError: "cut" })), '{"q": "a"')
  })
})

describe("repair and the window", () => {
  it("a few hundred thousand system messages to move are moved, not a stack overflow", () => {
    const rule = Message.system("rule")
    const gemini: Array<Message.Message> = [Message.user("hi"), Message.assistant("ok")]
    for (let i = 0; i < 200_000; i++) gemini.push(rule)
    gemini.push(Message.user("next"))
    const repaired = Effect.runSyncExit(Repair.repairFor("gemini")(gemini))
    assert.strictEqual(tagOf(repaired), "Success")
    const pending: Array<Message.Message> = [Message.user("hi"), Message.assistant([Block.toolCall("c1", "f", {})])]
    for (let i = 0; i < 200_000; i++) pending.push(rule)
    assert.strictEqual(Repair.repair(pending, { allowPendingToolCalls: true }).messages.length, 200_002)
  }, 300_000)

  it("clearThinking leaves the thinking of the last assistant turn, whose results Anthropic joins to the user's next words", () => {
    const layer = MessageWindow.layer.pipe(Layer.provideMerge(TokenEstimator.layer))
    const long = "I need to consider the file layout carefully. ".repeat(400)
    const older = Message.assistant([Block.thinking(long, "sig-0"), Block.text("Done with the first file.")])
    const history = [
      Message.user("Fix the failing test."),
      older,
      Message.user("Now the second one."),
      Message.assistant([Block.thinking(long, "sig-1"), Block.toolCall("c1", "read_file", { path: "a.ts" })]),
      Message.toolResultMessage("c1", "read_file", "export const a = 1"),
      Message.user("Also check b.ts please.")
    ]
    const total = TokenEstimator.heuristic.estimateConversation(history)
    const fitted = Effect.runSync(
      MessageWindow.fit(history, Math.floor(total * 0.75), { provider: "anthropic", strategy: "clear_tool_results", clearThinking: true }).pipe(Effect.provide(layer))
    )
    // the older turn's thinking is cleared; the last turn's is kept, and Anthropic takes the result
    assert.notStrictEqual(fitted.messages[1]!.content[0]!._tag, "Thinking")
    assert.strictEqual(fitted.messages[3]!.content[0]!._tag, "Thinking")
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", fitted.messages, { thinking: true }), [])
    // a budget only clearing the last turn's thinking too would meet is too small: that thinking stays
    const tight = Effect.runSyncExit(
      MessageWindow.fit(history, Math.floor(total * 0.45), { provider: "anthropic", strategy: "clear_tool_results", clearThinking: true }).pipe(Effect.provide(layer))
    )
    assert.strictEqual(tagOf(tight), "BudgetTooSmall")
  })
})
