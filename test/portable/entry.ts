// Bundled for the browser by test/portable.test.ts and run without Node's globals:
// the core and the adapters must work where only the web platform is available.
import { Effect } from "effect"
import { Block, Conversation, Message, MessageWindow, Repair, TokenEstimator } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

const program = Effect.gen(function*() {
  const history = [
    Message.system("You are terse."),
    Message.user([Block.text("What is in this file?"), Block.document(Block.textSource("Quarterly numbers: up 4%."), { title: "Q3" })]),
    Message.assistant([Block.toolCall("c1", "read", { path: "q3.txt" })]),
    Message.toolResultMessage("c1", "read", [Block.json({ growth: 0.04 })]),
    Message.assistantMessage("Growth was 4%.")
  ]
  yield* Conversation.validate(history)
  const repaired = Repair.repair([...history, Message.assistant([Block.toolCall("c2", "read", {})])])
  const tokens = TokenEstimator.heuristic.estimateConversation(history)
  const fitted = yield* MessageWindow.fit(history, 10_000).pipe(Effect.provide(MessageWindow.layer), Effect.provide(TokenEstimator.layer))
  const chat = yield* OpenAiChat.toMessages(history)
  const anthropic = yield* Anthropic.toMessages(history)
  const responses = yield* OpenAiResponses.toMessages(history)
  const gemini = yield* Gemini.toMessages(history)
  const back = yield* OpenAiChat.fromMessages(JSON.parse(JSON.stringify(chat.value)))
  const decoded = yield* Conversation.decodeJsonl(Conversation.encodeJsonl(history))
  return {
    repairActions: repaired.actions.length,
    tokens,
    kept: fitted.messages.length,
    wire: [chat.value.length, anthropic.value.messages.length, responses.value.length, gemini.value.contents.length],
    back: back.value.length,
    decoded: decoded.length
  }
})

Effect.runPromise(program).then(
  (result) => {
    ;(globalThis as { __result?: unknown }).__result = result
  },
  (error: unknown) => {
    ;(globalThis as { __result?: unknown }).__result = { error: String(error) }
  }
)
