/**
 * Anthropic's own rules (prefill, thinking first, text after calls, trailing
 * whitespace) read the request the writer sends: a run of messages of which
 * the writer sends no block is not on the wire, so it is no final assistant
 * message and ends no turn.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"

const geminiCode = Block.providerData("gemini", { executableCode: { language: "PYTHON", code: "print(1)" } })
const call = (id: string) => Block.toolCall(id, "get_weather", { city: id })
const result = (id: string) => Block.toolResult(id, "get_weather", `result ${id}`)
const ask = Message.user("Weather in Oslo?")
const tags = (messages: ReadonlyArray<Message.Message>, options?: Conversation.ProfileOptions) =>
  Conversation.issuesFor("anthropic", messages, options).map((issue) => issue._tag)

describe("Anthropic rules skip what the writer leaves out", () => {
  it.effect("an assistant message of another provider's data only is no prefill", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([geminiCode])]
      const written = yield* Anthropic.toMessages(messages)
      assert.deepStrictEqual(written.value.messages.map((m) => m.role), ["user"])
      assert.deepStrictEqual(tags(messages, { model: "claude-opus-4-6" }), [])
      const repaired = yield* Repair.repairFor("anthropic", { model: "claude-opus-4-6" })(messages)
      assert.strictEqual(repaired.messages, messages)
    }))

  it.effect("nor an assistant turn that must start with thinking", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([geminiCode])]
      assert.deepStrictEqual(tags(messages, { thinking: true }), [])
      yield* Conversation.validateFor("anthropic", { thinking: true })(messages)
    }))

  it("a real final assistant message is still a prefill, and one after left-out data too", () => {
    assert.deepStrictEqual(tags([ask, Message.assistant("Sure:")], { model: "claude-opus-4-6" }), ["PrefillNotSupported"])
    assert.deepStrictEqual(tags([ask, Message.assistant([geminiCode]), Message.user("go on"), Message.assistant("Sure:")], { model: "claude-opus-4-6" }), ["PrefillNotSupported"])
  })

  it("trailing whitespace is judged on the last assistant message sent, past left-out data after it", () => {
    // the wire: user, assistant ["Sure: "] — the left-out user message after it is not sent
    const messages = [ask, Message.assistant("Sure: "), Message.user([Block.providerData("gemini", { executableCode: { language: "PYTHON", code: "1" } })])]
    assert.deepStrictEqual(tags(messages), ["TrailingWhitespacePrefill"])
  })

  it("a tool loop stays in progress across left-out data between the calls and their results", () => {
    // thinking on, the loop's first message without thinking: the request continues that turn either way
    const messages = [ask, Message.assistant([call("c1")]), Message.assistant([geminiCode]), Message.tool([result("c1")])]
    assert.include(tags(messages, { thinking: true }), "ThinkingNotFirst")
  })
})

describe("repairFor(\"anthropic\"): an inserted result goes where the runs of the messages around it stay", () => {
  it.effect("after the calls' message, before an emptied user message and the assistant run that follows it", () =>
    Effect.gen(function*() {
      // the input's wire: assistant [c0], user [" "], assistant ["Sure."] (the empty assistant message merged into it)
      const messages = [ask, Message.assistant([call("c0")]), Message.user(" "), Message.assistant([]), Message.assistant("Sure.")]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["InsertedMissingResult", 1], ["RemovedBlock", 2]])
      assert.deepStrictEqual(repaired.messages.map((m) => [m.role, m.content.length]), [["user", 1], ["assistant", 1], ["tool", 1], ["user", 0], ["assistant", 0], ["assistant", 1]])
      assert.deepStrictEqual(tags(repaired.messages), [])
      const written = yield* Anthropic.toMessages(repaired.messages)
      assert.deepStrictEqual(written.value.messages.map((m) => m.role), ["user", "assistant", "user", "assistant"])
    }))

  it.effect("a system message between them parts no run", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c0")]), Message.user(" "), Message.assistant([]), Message.system("Reminder: be brief."), Message.assistant("Sure.")]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["InsertedMissingResult", 1], ["RemovedBlock", 2]])
      assert.deepStrictEqual(repaired.messages.map((m) => m.role), ["user", "assistant", "tool", "user", "assistant", "system", "assistant"])
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))

  it("a left-out message holding unsigned thinking is still read by the block rules, as repair reads it", () => {
    const unsigned = Message.assistant([Block.thinking("")])
    assert.include(tags([ask, unsigned]), "MissingThinkingSignature")
  })
})

describe("Anthropic cache breakpoints around a message left out", () => {
  it("an empty message merged across a left-out one keeps the breakpoint of the message it merges into", () => {
    const e = { type: "ephemeral" } as const
    const withCache = (m: Message.Message, separate = false): Message.Message =>
      Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(m) as object) as Message.Message, m, {
        providerOptions: { anthropic: separate ? { $separateMessage: true } : { cache_control: e } }
      }))
    // the wire: user [result, cache_control], assistant ["ok", cache_control]: the file-only assistant message is
    // left out, and the empty user message after it merges into the first
    const messages = [
      withCache(Message.tool([result("c1")])),
      withCache(Message.assistant([Block.file({ _tag: "Text", text: "Revenue grew 4%." }, "text/plain")]), true),
      withCache(Message.user([]), true),
      withCache(Message.assistant("ok"))
    ]
    const issue = Conversation.issuesFor("anthropic", messages, { cacheBreakpointsOutsideMessages: 4 }).find((i) => i._tag === "TooManyCacheBreakpoints")
    assert.strictEqual(issue?._tag === "TooManyCacheBreakpoints" ? issue.count : 0, 6)
  })
})
