/**
 * Anthropic thinking and prefill rules a third audit found wrong or missing:
 * a tool loop is one assistant turn, so only its first message must start
 * with thinking (later steps may go without); adaptive thinking never
 * requires it; a final assistant message follows the thinking setting (it
 * starts the turn with thinking when thinking is on, holds none when it is
 * off); and Claude 4.6 and later take no prefill.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Conversation, Message, Repair, Request } from "../src/index.js"
import * as Arb from "./arbitraries.js"

const tags = (items: ReadonlyArray<{ readonly _tag: string }>): Array<string> => items.map((i) => i._tag)
const placed = (items: ReadonlyArray<{ readonly _tag: string; readonly index?: number }>): Array<[string, number | undefined]> =>
  items.map((i) => [i._tag, i.index])

const sig = "EqQBCkgIARAB"
const think = (text = "plan") => Block.thinking(text, sig)
const call = (id: string) => Block.toolCall(id, "search", { q: id })
const result = (id: string) => Message.toolResultMessage(id, "search", `hits for ${id}`)
const request = (model: string, thinking?: Block.JsonObject) =>
  Request.make([Message.user("q")], { model, ...(thinking === undefined ? {} : { providerOptions: { anthropic: { thinking } } }) })
const enabled = Conversation.profileOptionsOf(request("claude-sonnet-4-5", { type: "enabled", budget_tokens: 2048 }))
const adaptive = Conversation.profileOptionsOf(request("claude-opus-4-7", { type: "adaptive" }))
const disabled = Conversation.profileOptionsOf(request("claude-sonnet-4-5", { type: "disabled" }))

describe("Anthropic: a tool loop is one assistant turn, and only its first message must start with thinking", () => {
  const loop = [Message.user("q"), Message.assistant([think(), call("c1")]), result("c1"), Message.assistant([call("c2")]), result("c2")]

  it.effect("a later step of the loop without thinking is accepted (Claude 3.7, or an interleaved model that chose not to think)", () =>
    Effect.gen(function*() {
      for (const options of [undefined, { thinking: true }, enabled]) {
        assert.deepStrictEqual(Conversation.issuesFor("anthropic", loop, options), [])
        const repaired = yield* Repair.repairFor("anthropic", options)(loop)
        assert.deepStrictEqual(repaired.actions, [])
        assert.strictEqual(repaired.messages, loop)
      }
      // a system message inside the loop goes to the system prompt: the turn is the same
      const withSystem = [...loop.slice(0, 3), Message.system("Be brief."), ...loop.slice(3)]
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", withSystem, { thinking: true }), [])
    }))

  it("the turn begins after the user's last words: a loop that started without thinking is rejected at its first message", () => {
    assert.deepStrictEqual(placed(Conversation.issuesFor("anthropic", [Message.user("q"), Message.assistant([call("c1")]), result("c1")], { thinking: true })), [["ThinkingNotFirst", 1]])
    const twoTurns = [
      Message.user("q1"),
      Message.assistant([think(), call("c1")]),
      result("c1"),
      Message.assistant("done"),
      Message.user("q2"),
      Message.assistant([call("c2")]),
      result("c2")
    ]
    assert.deepStrictEqual(placed(Conversation.issuesFor("anthropic", twoTurns, { thinking: true })), [["ThinkingNotFirst", 5]])
    // thinking in a later step does not make up for a first step without it
    const lateThinking = [Message.user("q"), Message.assistant([Block.text("Looking."), call("c1")]), result("c1"), Message.assistant([think(), call("c2")]), result("c2")]
    assert.deepStrictEqual(placed(Conversation.issuesFor("anthropic", lateThinking, { thinking: true })), [["ThinkingNotFirst", 1]])
  })

  it.effect("repairFor puts the thinking of the turn's first assistant messages first, even when the loop has moved on", () =>
    Effect.gen(function*() {
      const history = [Message.user("q"), Message.assistant("Let me look."), Message.assistant([think(), call("c1")]), result("c1"), Message.assistant([call("c2")]), result("c2")]
      assert.deepStrictEqual(placed(Conversation.issuesFor("anthropic", history)), [["ThinkingNotFirst", 1]])
      const { actions, messages } = yield* Repair.repairFor("anthropic")(history)
      assert.deepStrictEqual(tags(actions), ["MovedBlock", "MergedConsecutive"])
      assert.deepStrictEqual((messages[1] as Message.AssistantMessage).content.map((b) => b._tag), ["Thinking", "Text", "ToolCall"])
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages), [])
    }))
})

describe("Anthropic: adaptive thinking never requires a thinking block", () => {
  it("profileOptionsOf tells adaptive thinking from manual thinking", () => {
    assert.deepStrictEqual(adaptive, { model: "claude-opus-4-7", thinking: true, thinkingMode: "adaptive" })
    assert.deepStrictEqual(enabled, { model: "claude-sonnet-4-5", thinking: true, thinkingMode: "enabled" })
  })

  it.effect("a tool loop the model chose not to think in is accepted, and repairFor leaves it as it is", () =>
    Effect.gen(function*() {
      const history = [Message.user("q"), Message.assistant([call("c1")]), result("c1")]
      for (const options of [adaptive, { thinking: true, thinkingMode: "adaptive" } as const, { thinkingMode: "adaptive" } as const]) {
        assert.deepStrictEqual(Conversation.issuesFor("anthropic", history, options), [])
        const repaired = yield* Repair.repairFor("anthropic", options)(history)
        assert.deepStrictEqual(repaired.actions, [])
      }
    }))

  it("Claude 5 models think adaptively when the request says nothing (their documented default)", () => {
    assert.deepStrictEqual(Conversation.profileOptionsOf(request("claude-sonnet-5"), { readFrom: "anthropic" }), {
      model: "claude-sonnet-5",
      thinking: true,
      thinkingMode: "adaptive"
    })
    assert.deepStrictEqual(Conversation.profileOptionsOf(request("claude-sonnet-4-5"), { readFrom: "anthropic" }), { model: "claude-sonnet-4-5", thinking: false })
  })
})

describe("Anthropic: the final assistant message and the thinking setting", () => {
  const prefill = [Message.user("Give JSON"), Message.assistant([Block.text("{")])]
  // a paused server-tool turn sent back to continue it (recorded accepted, with thinking on)
  const paused = [
    Message.user("What's new in the news?"),
    Message.assistant([
      think("Search first."),
      Block.text("Let me search."),
      Block.toolCall("srvtoolu_1", "web_search", { query: "news" }, { providerExecuted: true }),
      Block.toolResult("srvtoolu_1", "web_search", [Block.json([{ type: "web_search_result", url: "https://example.com" }])], false, { providerExecuted: true }),
      Block.text("Searching more."),
      Block.toolCall("srvtoolu_2", "web_search", { query: "more news" }, { providerExecuted: true })
    ])
  ]

  it.effect("with manual thinking on, a final assistant turn must start with thinking (only when the setting is known)", () =>
    Effect.gen(function*() {
      for (const options of [enabled, { thinking: true }]) {
        assert.deepStrictEqual(placed(Conversation.issuesFor("anthropic", prefill, options)), [["ThinkingNotFirst", 1]])
        const error = yield* Effect.flip(Repair.repairFor("anthropic", options)(prefill))
        assert.deepStrictEqual([error._tag, error.issue._tag], ["CannotRepair", "ThinkingNotFirst"])
      }
      // not known, or adaptive: nothing to say about thinking (the adaptive models take no prefill at all)
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", prefill), [])
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", prefill, { thinking: true, thinkingMode: "adaptive" }), [])
      assert.deepStrictEqual(tags(Conversation.issuesFor("anthropic", prefill, adaptive)), ["PrefillNotSupported"])
      // a final message that continues a turn which began with thinking is fine
      const continued = [Message.user("q"), Message.assistant([think(), call("c1")]), result("c1"), Message.assistant([Block.text("{")])]
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", continued, enabled), [])
      // and so is a paused turn, which starts with its thinking; nor is it a prefill for the models that take none
      for (const model of ["claude-sonnet-4-5", "claude-sonnet-4-6", "claude-opus-4-7"]) {
        const thinking = model === "claude-sonnet-4-5" ? { type: "enabled", budget_tokens: 4096 } : { type: "adaptive" }
        assert.deepStrictEqual(Conversation.issuesFor("anthropic", paused, Conversation.profileOptionsOf(request(model, thinking), { readFrom: "anthropic" })), [], model)
      }
    }))

  it.effect("with thinking off, the final assistant turn may hold no thinking: an issue per block, and repairFor drops them, each kept whole in the log", () =>
    Effect.gen(function*() {
      const history = [
        Message.user("q"),
        Message.assistant([think("first"), call("c1")]),
        result("c1"),
        Message.assistant([Block.redactedThinking("EmwKAhgB"), Block.text("Answer:")])
      ]
      for (const options of [disabled, { thinking: false }]) {
        const issues = Conversation.issuesFor("anthropic", history, options)
        assert.deepStrictEqual(issues.map((i) => [i._tag, "blockIndex" in i ? i.blockIndex : -1, "index" in i ? i.index : -1]), [["ThinkingWhileDisabled", 0, 1], ["ThinkingWhileDisabled", 0, 3]])
        assert.include(issues[0]!.message, "thinking is off")
        const { actions, messages } = yield* Repair.repairFor("anthropic", options)(history)
        assert.deepStrictEqual(actions.map((a) => a.description.split(":")[0]), ["messages[1].content[0]", "messages[3].content[0]"])
        const removed = actions.map((a) => (a._tag === "RemovedBlock" ? a.block : undefined))
        assert.deepStrictEqual(removed, [history[1]!.content[0], history[3]!.content[0]])
        assert.deepStrictEqual((messages[3] as Message.AssistantMessage).content.map((b) => b._tag), ["Text"])
        assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages, options), [])
      }
      // the setting unknown, or on: the rule does not apply; nor to a turn the user has answered
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", history), [])
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", [...history, Message.user("thanks")], disabled), [])
      // a Claude 5 request without a thinking setting thinks by default: its paused turn keeps its thinking
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", paused, Conversation.profileOptionsOf(request("claude-sonnet-5"), { readFrom: "anthropic" })), [])
    }))

  it.effect("with thinking off, a final assistant message of thinking only is removed once its thinking is", () =>
    Effect.gen(function*() {
      const history = [Message.user("q"), Message.assistant([call("c1")]), result("c1"), Message.assistant([think()])]
      const { actions, messages } = yield* Repair.repairFor("anthropic", disabled)(history)
      assert.deepStrictEqual(tags(actions), ["RemovedBlock", "RemovedEmptyMessage"])
      assert.deepStrictEqual(messages.map((m) => m.role), ["user", "assistant", "tool"])
    }))
})

describe("Anthropic: Claude 4.6 and later take no assistant prefill", () => {
  const prefill = [Message.user("Give JSON"), Message.assistant([Block.text("{")])]

  it.effect("a final assistant message for such a model is PrefillNotSupported; repairFor cannot rewrite the user's content", () =>
    Effect.gen(function*() {
      for (const model of ["claude-sonnet-4-6", "claude-opus-4-6", "claude-opus-4-7", "claude-opus-4-8", "claude-sonnet-5", "claude-fable-5-1", "claude-opus-5-5", "anthropic/claude-sonnet-4.6", "us.anthropic.claude-opus-4-6-v1:0", "claude-opus-4-6@20260205"]) {
        const issues = Conversation.issuesFor("anthropic", prefill, { model })
        assert.deepStrictEqual(placed(issues), [["PrefillNotSupported", 1]], model)
        assert.include(issues[0]!.message, "must end with a user message")
        const error = yield* Effect.flip(Repair.repairFor("anthropic", { model })(prefill))
        assert.deepStrictEqual([error._tag, error.issue._tag], ["CannotRepair", "PrefillNotSupported"])
      }
      // older models, unknown models and conversations that end with the user are not flagged
      for (const model of ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-sonnet-4-20250514", "claude-opus-4-1-20250805", "claude-sonnet-4-0", "claude-3-7-sonnet-20250219", "claude-3-5-haiku-20241022", "claude-mythos-preview", "gpt-5"]) {
        assert.deepStrictEqual(Conversation.issuesFor("anthropic", prefill, { model }), [], model)
      }
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", prefill), [])
      assert.deepStrictEqual(Conversation.issuesFor("anthropic", [...prefill, Message.user("go on")], { model: "claude-sonnet-4-6" }), [])
    }))


  it("the verdict is the same read through profileOptionsOf", () => {
    const issues = Conversation.issuesFor("anthropic", prefill, Conversation.profileOptionsOf(request("claude-sonnet-4-6")))
    assert.deepStrictEqual(tags(issues), ["PrefillNotSupported"])
  })
})

describe("Anthropic: repairFor with a known thinking setting", () => {
  const settings = [{ thinking: false }, { thinking: true }, { thinking: true, thinkingMode: "adaptive" }] as const

  it.effect.prop(
    "repairFor(x) with the same setting passes validateFor and repairs nothing more; with thinking off the final turn keeps no thinking",
    [Arb.brokenConversation, Arb.intBetween(0, 2)],
    ([x, s]) =>
      Effect.gen(function*() {
        const options = settings[s]!
        const result = yield* Effect.result(Repair.repairFor("anthropic", options)(x))
        if (result._tag === "Failure") {
          // the other rules' failures are Repair.test.ts's; thinking in a final turn is always removable
          assert.notStrictEqual(result.failure.issue._tag, "ThinkingWhileDisabled")
          return
        }
        const { messages } = result.success
        yield* Conversation.validateFor("anthropic", options)(messages)
        const again = yield* Repair.repairFor("anthropic", options)(messages)
        assert.deepStrictEqual(again.actions, [])
        // checked on its own: the turn the request ends with, back to the user's last words
        let k = messages.length - 1
        while (k >= 0 && messages[k]!.role === "system") k--
        if (options.thinking === false && messages[k]?.role === "assistant") {
          for (; k >= 0 && messages[k]!.role !== "user"; k--) {
            const m = messages[k]!
            if (m.role === "assistant") assert.isFalse(m.content.some((b) => b._tag === "Thinking" || b._tag === "RedactedThinking"))
          }
        }
      }),
    { arbitrary: { runs: 500 } }
  )
})
