/**
 * Rules an adversarial read of validation and repair found missed or
 * misapplied: arguments text OpenAI would reject, Anthropic's merge of
 * consecutive assistant messages, refusals (which Anthropic gets as text),
 * and a system message Anthropic's profile accepts between calls and
 * results.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic, OpenAiChat, OpenAiResponses } from "../src/providers/index.js"

const tags = (issues: ReadonlyArray<{ readonly _tag: string }>): Array<string> => issues.map((i) => i._tag)

describe("OpenAI: a call's arguments text must be a JSON object", () => {
  const broken = Block.toolCall("c1", "weather", { city: "Osl" }, { rawArgs: '{"city": "Osl', parseError: "Unterminated string in JSON" })
  const history = (call: Block.ToolCallBlock) => [Message.user("Weather?"), Message.assistant([call]), Message.toolResultMessage(call.id, call.name, "12°C")]

  it.effect("broken text read from a model is an issue for both OpenAI APIs, and repairFor sends the arguments read from it", () =>
    Effect.gen(function*() {
      // read from the wire, as a model wrote it: the text is kept, so it would go back as it came
      const read = yield* OpenAiChat.fromMessages([
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{bad" } }] },
        { role: "tool", tool_call_id: "c1", content: "ok" }
      ])
      for (const provider of ["openai-chat", "openai-responses"] as const) {
        assert.deepStrictEqual(tags(Conversation.issuesFor(provider, read.value)), ["MalformedToolArguments"], provider)
        const { actions, messages } = yield* Repair.repairFor(provider)(read.value)
        assert.deepStrictEqual(tags(actions), ["ReplacedToolArguments"])
        const action = actions[0] as Repair.ReplacedToolArguments
        assert.strictEqual(action.original, "{bad")
        assert.strictEqual(action.replacement, '{"bad":null}')
        const sent = yield* OpenAiChat.toMessages(messages)
        const call = (sent.value[1] as { readonly tool_calls: ReadonlyArray<{ readonly function: { readonly arguments: string } }> }).tool_calls[0]!
        assert.deepStrictEqual(JSON.parse(call.function.arguments), { bad: null })
        const items = yield* OpenAiResponses.toMessages(messages)
        assert.deepStrictEqual(JSON.parse((items.value[1] as { readonly arguments: string }).arguments), { bad: null })
      }
    }))

  it("arguments that are JSON but not an object are an issue; an object, kept text that parses, or no text at all are not", () => {
    const array = Block.toolCall("c1", "f", [1, 2])
    const arrayText = Block.toolCall("c1", "f", {}, { rawArgs: "[1,2]", parseError: "expected a JSON object, got an array" })
    // broken text cannot tell whether its args were edited since (they were repaired from it), so it goes out as it came
    const edited = Block.toolCall("c1", "f", { city: "Oslo" }, { rawArgs: '{"city": "Osl', parseError: "Unterminated string in JSON" })
    for (const call of [array, arrayText, broken, edited]) {
      assert.deepStrictEqual(tags(Conversation.issuesFor("openai-chat", history(call))), ["MalformedToolArguments"])
      assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", history(call))), ["MalformedToolArguments"])
    }
    const fine = [
      Block.toolCall("c1", "f", { city: "Oslo" }),
      Block.toolCall("c1", "f", { city: "Oslo" }, { rawArgs: '{ "city": "Oslo" }' }),
      Block.toolCall("c1", "f", {}, { rawArgs: "" }),
      // args edited after text that parses was read: the args go out, not the text
      Block.toolCall("c1", "f", { city: "Oslo" }, { rawArgs: "[1,2]", parseError: "expected a JSON object, got an array" })
    ]
    for (const call of fine) assert.deepStrictEqual(Conversation.issuesFor("openai-chat", history(call)), [])
  })

  it.effect("the other providers get an object either way (the adapter reports a replacement), so the rule is OpenAI's alone", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", history(broken)), [])
      assert.deepStrictEqual(Conversation.issuesFor("gemini", history(broken)), [])
      const { actions } = yield* Repair.repairFor("anthropic")(history(broken))
      assert.deepStrictEqual(actions, [])
    }))

  it.effect("a repaired array becomes {}, and the log keeps what it was", () =>
    Effect.gen(function*() {
      const { actions, messages } = yield* Repair.repairFor("openai-responses")(history(Block.toolCall("c1", "f", [1, 2])))
      const action = actions[0] as Repair.ReplacedToolArguments
      assert.deepStrictEqual([action.original, action.replacement], ["[1,2]", "{}"])
      assert.deepStrictEqual(((messages[1] as Message.AssistantMessage).content[0] as Block.ToolCallBlock).args, {})
    }))
})

describe("Anthropic: consecutive assistant messages are one turn", () => {
  const thinking = Block.thinking("Look it up.", "sig_1")
  const call = Block.toolCall("toolu_1", "search", { q: "effect" })
  const result = Message.toolResultMessage("toolu_1", "search", "3 hits")

  it.effect("text in the message before the thinking puts text first in the merged turn: an issue, and repairFor makes one message that starts with thinking", () =>
    Effect.gen(function*() {
      const history = [Message.user("Find it."), Message.assistant("Let me look."), Message.assistant([thinking, call]), result]
      const issues = Conversation.issuesFor("anthropic", history)
      assert.deepStrictEqual(issues.map((i) => [i._tag, "index" in i ? i.index : -1]), [["ThinkingNotFirst", 1]])
      const { actions, messages } = yield* Repair.repairFor("anthropic")(history)
      assert.deepStrictEqual(tags(actions), ["MovedBlock", "MergedConsecutive"])
      assert.deepStrictEqual((messages[1] as Message.AssistantMessage).content.map((b) => b._tag), ["Thinking", "Text", "ToolCall"])
      const wire = yield* Anthropic.toMessages(messages)
      const turn = wire.value.messages[1]!.content as ReadonlyArray<{ readonly type: string }>
      assert.strictEqual(turn[0]!.type, "thinking")
    }))

  it.effect("thinking in the first message and the call in the next is a turn that starts with thinking: no issue, nothing to repair", () =>
    Effect.gen(function*() {
      for (
        const history of [
          [Message.user("Find it."), Message.assistant([thinking]), Message.assistant([call]), result],
          [Message.user("Find it."), Message.assistant([thinking]), Message.system("Be brief."), Message.assistant([call]), result],
          [Message.user("Find it."), Message.assistant([thinking, call]), Message.system("Be brief."), result]
        ]
      ) {
        assert.deepStrictEqual(Conversation.issuesFor("anthropic", history), [])
        const repaired = yield* Repair.repairFor("anthropic")(history)
        assert.deepStrictEqual(repaired.actions, [])
        assert.strictEqual(repaired.messages, history)
      }
    }))

  it("a system message between the assistant turn and its results does not hide the tool loop", () => {
    const history = [
      Message.user("Find it."),
      Message.assistant([thinking, Block.text("Which one?")]),
      Message.user("The first."),
      Message.assistant([Block.text("Looking."), call]),
      Message.system("Answer in French."),
      result
    ]
    assert.deepStrictEqual(tags(Conversation.issuesFor("anthropic", history)), ["ThinkingNotFirst"])
  })
})

describe("Anthropic: a refusal goes as text, so the text rules apply to it", () => {
  const call = Block.toolCall("toolu_1", "search", { q: "effect" })
  const result = Message.toolResultMessage("toolu_1", "search", "3 hits")

  it.effect("a blank refusal is an empty text block; repairFor removes it", () =>
    Effect.gen(function*() {
      const history = [Message.user("Help?"), Message.assistant([Block.refusal(" "), Block.text("Sure.")])]
      assert.deepStrictEqual(tags(Conversation.issuesFor("anthropic", history)), ["EmptyTextBlock"])
      const { actions, messages } = yield* Repair.repairFor("anthropic")(history)
      assert.deepStrictEqual(tags(actions), ["RemovedBlock"])
      assert.deepStrictEqual((messages[1] as Message.AssistantMessage).content.map((b) => b._tag), ["Text"])
    }))

  it.effect("a refusal after a call would sit between the call and its result; repairFor moves it before the call", () =>
    Effect.gen(function*() {
      const history = [Message.user("Help?"), Message.assistant([call, Block.refusal("I can't share that.")]), result]
      assert.deepStrictEqual(tags(Conversation.issuesFor("anthropic", history)), ["TextAfterToolCalls"])
      const { messages } = yield* Repair.repairFor("anthropic")(history)
      assert.deepStrictEqual((messages[1] as Message.AssistantMessage).content.map((b) => b._tag), ["Refusal", "ToolCall"])
    }))

  it.effect("a final refusal that ends with whitespace is a prefill that does; repairFor trims it", () =>
    Effect.gen(function*() {
      const history = [Message.user("Help?"), Message.assistant([Block.refusal("I can't. ")])]
      assert.deepStrictEqual(tags(Conversation.issuesFor("anthropic", history)), ["TrailingWhitespacePrefill"])
      const { actions, messages } = yield* Repair.repairFor("anthropic")(history)
      assert.deepStrictEqual(tags(actions), ["TrimmedPrefill"])
      assert.strictEqual(((messages[1] as Message.AssistantMessage).content[0] as Block.RefusalBlock).refusal, "I can't.")
    }))
})

describe("repairFor leaves what the profile accepts", () => {
  it.effect("Anthropic: a system message between a call and its result stays (it goes to the system prompt); Chat still moves it", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Find it."),
        Message.assistant([Block.toolCall("toolu_1", "search", { q: "effect" })]),
        Message.system("Answer in French."),
        Message.toolResultMessage("toolu_1", "search", "3 hits"),
        Message.assistant("Trois résultats.")
      ]
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", history), [])
      const anthropic = yield* Repair.repairFor("anthropic")(history)
      assert.strictEqual(anthropic.messages, history)
      assert.deepStrictEqual(anthropic.actions, [])
      const chat = yield* Repair.repairFor("openai-chat")(history)
      assert.deepStrictEqual(tags(chat.actions), ["MovedSystemMessage"])
    }))
})

describe("found by a review of these fixes", () => {
  it.effect("an OpenAI Chat custom tool's call takes free-form text: no issue, and repair leaves its input alone", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromMessages([
        { role: "user", content: "Patch it." },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "custom", custom: { name: "apply_patch", input: "*** Begin Patch\n+hello\n*** End Patch" } }] },
        { role: "tool", tool_call_id: "call_1", content: "done" }
      ])
      assert.deepStrictEqual(Conversation.issuesFor("openai-chat", read.value), [])
      const repaired = yield* Repair.repairFor("openai-chat")(read.value)
      assert.strictEqual(repaired.messages, read.value)
    }))

  it.effect("Anthropic: results read from two user messages still meet on the wire with a system message between them", () =>
    Effect.gen(function*() {
      const read = yield* Anthropic.fromMessages({
        messages: [
          { role: "user", content: "Weather in Oslo and Bergen?" },
          { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "w", input: {} }, { type: "tool_use", id: "c2", name: "w", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "12" }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "c2", content: "9" }] }
        ]
      })
      const history = [...read.value.slice(0, 3), Message.system("Be brief."), read.value[3]!]
      assert.deepStrictEqual(tags(Conversation.issuesFor("anthropic", history)), ["MissingToolResult"])
      const { actions, messages } = yield* Repair.repairFor("anthropic")(history)
      // the system message now follows the merged results (it goes to the system prompt either way)
      assert.deepStrictEqual(tags(actions), ["MovedSystemMessage", "MergedConsecutive"])
      const wire = yield* Anthropic.toMessages(messages)
      const withResults = wire.value.messages.filter((m) => Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result"))
      assert.strictEqual(withResults.length, 1)
    }))

  it.effect("Anthropic: a prefill followed by a system message is still the last message on the wire", () =>
    Effect.gen(function*() {
      const history = [Message.user("Finish the sentence."), Message.assistant("The answer is "), Message.system("Be brief.")]
      assert.deepStrictEqual(tags(Conversation.issuesFor("anthropic", history)), ["TrailingWhitespacePrefill"])
      const { actions } = yield* Repair.repairFor("anthropic")(history)
      assert.deepStrictEqual(tags(actions), ["TrimmedPrefill"])
    }))

  it.effect("a turn merged to put its thinking first keeps the later messages' metadata", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("Find it."),
        Message.assistant("Let me check.", { metadata: { step: 1 } }),
        Message.assistant([Block.thinking("plan", "sig"), Block.toolCall("toolu_1", "f", {})], { metadata: { traceId: "t-2" } }),
        Message.toolResultMessage("toolu_1", "f", "ok")
      ]
      const { messages } = yield* Repair.repairFor("anthropic")(history)
      assert.deepStrictEqual(messages[1]!.metadata, { step: 1, traceId: "t-2" })
    }))
})
