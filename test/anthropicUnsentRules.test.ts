/**
 * Anthropic's own rules (thinking first, prefill, trailing whitespace, text
 * after calls) read the request the writer sends: a message of which the
 * writer sends no block, inside a wire message that has content, is not on
 * the wire either, as a run the writer leaves out whole is not.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"
import { call, result, steps, toolTraffic } from "./toolTraffic.js"

const geminiCode = Block.providerData("gemini", { executableCode: { language: "PYTHON", code: "print(1)" } })
const ask = Message.user("Weather in Oslo?")
const tags = (messages: ReadonlyArray<Message.Message>, options?: Conversation.ProfileOptions) =>
  Conversation.issuesFor("anthropic", messages, options).map((issue) => issue._tag)
const roles = (messages: ReadonlyArray<Message.Message>) =>
  Effect.map(Anthropic.toMessages(messages), (written) => written.value.messages.map((m) => m.role))

describe("Anthropic rules skip a message the writer sends nothing of inside a message it sends", () => {
  it.effect("a tool loop stays in progress across another provider's data opening the results' message", () =>
    Effect.gen(function*() {
      // the wire: user, assistant [c1], user [result c1]: the loop's first message has no thinking
      const messages = [ask, Message.assistant([call("c1")]), Message.user([geminiCode]), Message.tool([result("c1")])]
      assert.deepStrictEqual(yield* roles(messages), ["user", "assistant", "user"])
      assert.deepStrictEqual(tags(messages, { thinking: true }), ["ThinkingNotFirst"])
      // as without the left-out data
      assert.deepStrictEqual(tags([ask, Message.assistant([call("c1")]), Message.tool([result("c1")])], { thinking: true }), ["ThinkingNotFirst"])
    }))

  it.effect("with an empty message opening the results' message too", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c1")]), Message.user([]), Message.tool([result("c1")])]
      assert.deepStrictEqual(yield* roles(messages), ["user", "assistant", "user"])
      assert.deepStrictEqual(tags(messages, { thinking: true }), ["ThinkingNotFirst"])
    }))

  it.effect("an assistant message of another provider's data after a prefill is no prefill of its own", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant("Sure: "), Message.assistant([geminiCode])]
      assert.deepStrictEqual(yield* roles(messages), ["user", "assistant"])
      // the prefill sent is "Sure: ", which ends in whitespace
      assert.deepStrictEqual(tags(messages), ["TrailingWhitespacePrefill"])
    }))

  it("a turn that starts with thinking stays accepted, and results in the first user message still count as one turn", () => {
    const thinking = Block.thinking("Let me check.", "sig")
    const messages = [ask, Message.assistant([thinking, call("c1")]), Message.user([geminiCode]), Message.tool([result("c1")])]
    assert.deepStrictEqual(tags(messages, { thinking: true }), [])
    // results after the user's own words still go apart (the writer sends one user message: the API takes it)
    const words = [ask, Message.assistant([call("c1")]), Message.user([geminiCode]), Message.tool([result("c1")]), Message.user("and Bergen?")]
    assert.deepStrictEqual(tags(words), [])
  })

  it.effect("repair with thinking off reads the final turn past an emptied user message, as validation does", () =>
    Effect.gen(function*() {
      // the blank user message is removed by repair; the writer sends nothing of an empty message inside the results'
      // user message, so the final turn runs back to the user's words before the calls, and its thinking goes too
      const signed = Block.thinking("", "sig")
      const messages = [
        ask,
        Message.assistant([signed, call("c1")]),
        Message.user("  \n "),
        Message.tool([result("c1")]),
        Message.assistant("Here is what I found.")
      ]
      const repaired = yield* Repair.repairFor("anthropic", { thinking: false })(messages)
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", repaired.messages, { thinking: false }), [])
      assert.isFalse(repaired.messages.some((m) => m.role === "assistant" && m.content.some((b) => b._tag === "Thinking")))
    }))

  // another provider's data joined to a message of its role with content: the writer sends the same request
  const unsentBefore = (messages: ReadonlyArray<Message.Message>, picks: ReadonlyArray<number>) => {
    const out: Array<Message.Message> = []
    const kept: Array<number> = []
    messages.forEach((m, i) => {
      const pick = picks[i % picks.length] ?? 0
      const joinable = m.content.length > 0 && m.role !== "system"
      // before a user or tool message it opens the user message; after an assistant message it ends it
      if (joinable && pick === 1 && m.role !== "assistant") out.push(Message.user([geminiCode]))
      kept.push(out.length)
      out.push(m)
      if (joinable && pick === 2 && m.role === "assistant") out.push(Message.assistant([geminiCode]))
    })
    return { out, kept }
  }
  const settings: ReadonlyArray<Conversation.ProfileOptions> = [{ thinking: true }, { thinking: false }, { model: "claude-opus-4-6" }, {}]
  const written = (messages: ReadonlyArray<Message.Message>) =>
    // (a message of one text block goes as a string: the same request)
    Effect.map(Anthropic.toMessages(messages), (w) =>
      JSON.stringify(w.value.messages.map((m) => ({ ...m, content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content }))))

  it.effect.prop(
    "a message of another provider's data joined to one of its role changes neither the wire nor any issue, nor what repair does",
    [steps(14), Arbitrary.array(Arb.intBetween(0, 2), { minLength: 1, maxLength: 6 })],
    ([given, picks]) =>
      Effect.gen(function*() {
        const plain = toolTraffic(given, { systemFirst: true, systemsLater: true, blankText: true })
        const { out, kept } = unsentBefore(plain, picks)
        assert.strictEqual(yield* written(out), yield* written(plain))
        for (const options of settings) {
          const before = Conversation.issuesFor("anthropic", plain, options).map((issue) => `${issue._tag}@${"index" in issue ? kept[issue.index] : "-"}`)
          const after = Conversation.issuesFor("anthropic", out, options).map((issue) => `${issue._tag}@${"index" in issue ? issue.index : "-"}`)
          assert.deepStrictEqual(after.sort(), before.sort())
          const repaired = yield* Effect.result(Repair.repairFor("anthropic", options)(out))
          if (repaired._tag === "Success") assert.deepStrictEqual(Conversation.issuesFor("anthropic", repaired.success.messages, options), [])
        }
      }),
    { arbitrary: { runs: 300 }, timeout: 120_000 }
  )
})
