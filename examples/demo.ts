/**
 * A small tour: build a conversation with parallel tool calls, validate it for
 * a provider, persist it as JSON and read it back, repair an interrupted
 * history, estimate its tokens, and print a transcript.
 *
 * Run with `npm run demo`.
 */
import { Effect } from "effect"
import { layerO200k } from "../src/exact/index.js"
import { Block, Conversation, Message, Repair, TokenEstimator } from "../src/index.js"

const conversation: ReadonlyArray<Message.Message> = [
  Message.systemMessage("You are a travel assistant. Use tools when you need facts."),
  Message.userMessage("Weather in Oslo and Tokyo tomorrow? 明天东京会下雨吗？"),
  Message.assistant([
    Block.thinking("Two cities: call the weather tool twice in parallel.", "EqQBCkgIARAB"),
    Block.text("Checking both cities."),
    Block.toolCall("call_oslo", "get_weather", { city: "Oslo", day: "tomorrow" }),
    Block.toolCall("call_tokyo", "get_weather", { city: "Tokyo", day: "tomorrow" })
  ]),
  // parallel results may arrive in any order
  Message.toolResultMessage("call_tokyo", "get_weather", JSON.stringify({ tempC: 18, rain: 0.8 })),
  Message.toolResultMessage("call_oslo", "get_weather", JSON.stringify({ tempC: 4, rain: 0.1 })),
  Message.assistantMessage("Oslo: 4°C and mostly dry. Tokyo: 18°C, rain likely (东京明天很可能下雨).")
]

const program = Effect.gen(function* () {
  // the conversation passes every rule Anthropic would answer with HTTP 400
  const valid = yield* Conversation.validateFor("anthropic")(conversation)
  console.log(`valid for anthropic: ${valid.length} messages, parallel results in any order`)

  // persist as JSON and read back: the same values, replay data included
  const json = JSON.stringify(Message.encodeAll(conversation))
  const restored = yield* Message.decodeAll(JSON.parse(json))
  const first = restored[2]?.content[0]
  console.log(`round trip: ${restored.length} messages, ${json.length} bytes of JSON`)
  console.log(`thinking signature kept: ${first?._tag === "Thinking" ? first.signature : "lost"}`)

  // a broken message read from disk fails with a tagged, readable error
  const bad = yield* Effect.flip(Message.decodeAll([{ role: "tool", content: "42", toolName: "calc" }]))
  console.log(`bad input -> ${bad._tag}: ${bad.message}`)

  // an agent crashed after calling its tools: validation names the problem, repair fixes it with a log
  const interrupted = [...conversation.slice(0, 3), Message.userMessage("Hello? Are you still there?")]
  const problem = yield* Effect.flip(Conversation.validate(interrupted))
  console.log(`interrupted history -> ${problem._tag}: ${problem.message}`)
  const repaired = Repair.repair(interrupted)
  for (const action of repaired.actions) console.log(`  repair: ${action.description}`)
  yield* Conversation.validate(repaired.messages)

  // the same program estimates with whichever layer it is given
  const estimate = TokenEstimator.TokenEstimator.use((t) => Effect.succeed(t.estimateConversation(restored)))
  const heuristic = yield* estimate.pipe(Effect.provide(TokenEstimator.layer))
  const seed = yield* estimate.pipe(Effect.provide(TokenEstimator.layerCjkWeighted()))
  const exact = yield* estimate.pipe(Effect.provide(layerO200k))
  console.log(`input tokens: ${heuristic} estimated (heuristic), ${seed} (the CJK-weighted rule), ${exact} exact (o200k)`)

  console.log("\n--- transcript ---")
  console.log(Message.transcriptOf(restored, { maxArgsLength: 60 }))
})

Effect.runPromise(program).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
