/**
 * Repairs a stress audit of `repairFor` found refused or got wrong, on histories that each repair took alone:
 * - Gemini: a function-call turn after a model turn, with only a message the writer sends nothing of between them
 *   (another provider's data alone), was `CannotRepair` (`MisplacedFunctionCall`): the loop reads that message as a
 *   user turn, the wire does not have it. It now gets the user message a first call turn gets.
 * - Anthropic, thinking on: moving the thinking of a later message of the final run to the front joins the run, and
 *   its text, now last, could end in whitespace; the prefill was trimmed before the move, so the repair failed with
 *   `CannotRepair` (`TrailingWhitespacePrefill`). The trim now runs on the turn as the move left it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit, Schema } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import * as Arb from "./arbitraries.js"

const tags = (r: Repair.RepairResult) => r.actions.map((a) => a._tag)
const roles = (messages: ReadonlyArray<Message.Message>) => messages.map((m) => m.role)
const otherData = Block.providerData("openai-chat", { type: "container_upload", file_id: "f" })

describe("Gemini: a call turn after a model turn, with a message the writer leaves out between them", () => {
  const x = [
    Message.user("hi"),
    Message.assistant("ok"),
    Message.user([otherData]),
    Message.assistantMessage("", [{ id: "c1", name: "f", args: {} }]),
    Message.toolResultMessage("c1", "f", "r1")
  ]

  it("is repaired with a user message before the call turn, the left-out message kept where it was", () => {
    expect(Conversation.issuesFor("gemini", x).map((i) => i._tag)).toEqual(["MisplacedFunctionCall"])
    const r = Effect.runSync(Repair.repairFor("gemini")(x))
    expect(tags(r)).toEqual(["InsertedUserMessage"])
    expect(r.actions[0]!.description).toBe('messages[3]: inserted a user message "Continue." before a function-call turn')
    expect(roles(r.messages)).toEqual(["user", "assistant", "user", "user", "assistant", "tool"])
    expect(r.messages[2]).toBe(x[2])
    expect(Message.textOf(r.messages[3]!)).toBe(Repair.CONTINUE)
    expect(Conversation.issuesFor("gemini", r.messages)).toEqual([])
  })

  it("after function responses and a model reply, and after a model message of Responses reasoning alone, too", () => {
    const after = [
      Message.user("go"),
      Message.assistantMessage("", [{ id: "a", name: "f", args: {} }]),
      Message.toolResultMessage("a", "f", "1"),
      Message.assistant("done"),
      Message.user([otherData]),
      Message.assistantMessage("", [{ id: "b", name: "f", args: {} }]),
      Message.toolResultMessage("b", "f", "2")
    ]
    const reasoning = [
      Message.assistant([Block.providerData("openai-responses", { type: "reasoning", id: "rs_1", summary: [] })]),
      Message.user([otherData]),
      Message.assistantMessage("", [{ id: "c", name: "f", args: {} }]),
      Message.toolResultMessage("c", "f", "3")
    ]
    for (const y of [after, reasoning]) {
      const r = Effect.runSync(Repair.repairFor("gemini")(y))
      expect(tags(r)).toContain("InsertedUserMessage")
      expect(Conversation.issuesFor("gemini", r.messages)).toEqual([])
    }
  })

  it("each such turn of a long history gets one, in one pass", () => {
    const turn = (k: number) => [Message.assistant(`reply ${k}`), Message.user([otherData]), Message.assistantMessage("", [{ id: `c${k}`, name: "f", args: {} }]), Message.toolResultMessage(`c${k}`, "f", "r")]
    const y = [Message.user("go"), ...Array.from({ length: 2000 }, (_, k) => turn(k)).flat()]
    const r = Effect.runSync(Repair.repairFor("gemini")(y))
    expect(tags(r).filter((t) => t === "InsertedUserMessage")).toHaveLength(2000)
    expect(Conversation.issuesFor("gemini", r.messages)).toEqual([])
  })
})

/**
 * A valid conversation with a model reply and a user message of another provider's data alone put before the first
 * assistant message that calls, or before each.
 */
const withLeftOutBeforeCalls = Arb.validConversation.pipe(
  Arbitrary.flatMap((x) =>
    Arbitrary.schema(Schema.Boolean).pipe(
      Arbitrary.map((everyOne) => {
        const out: Array<Message.Message> = []
        let put = false
        for (const m of x) {
          if (m.role === "assistant" && m.content.some((b) => b._tag === "ToolCall") && (everyOne || !put)) {
            out.push(Message.assistant("One moment."), Message.user([otherData]))
            put = true
          }
          out.push(m)
        }
        return out
      })
    )
  )
)

describe("Gemini: messages the writer leaves out before call turns, property", () => {
  it.prop("repairFor(gemini) repairs it (a file Gemini does not take aside), valid and idempotent", [withLeftOutBeforeCalls], ([x]) => {
    const r = Effect.runSyncExit(Repair.repairFor("gemini")(x).pipe(Effect.flip))
    if (Exit.isSuccess(r)) {
      // (a file Gemini does not take is the caller's to convert: documented)
      expect(r.value.issue._tag).toBe("UnsupportedMediaType")
      return
    }
    const repaired = Effect.runSyncExit(Repair.repairFor("gemini")(x))
    if (!Exit.isSuccess(repaired)) throw new Error("unreachable")
    expect(Conversation.issuesFor("gemini", repaired.value.messages)).toEqual([])
    expect(Effect.runSync(Repair.repairFor("gemini")(repaired.value.messages)).actions).toEqual([])
  }, { arbitrary: { runs: 300 }, timeout: 60_000 })
})

describe("Anthropic, thinking on: a prefill's trailing whitespace, after the thinking moved first", () => {
  it("a final run of text then thinking: joined with the thinking first, the text trimmed", () => {
    const x = [Message.user("Hi"), Message.assistant("Sure \n"), Message.assistant([Block.thinking("t", "sig")])]
    const r = Effect.runSync(Repair.repairFor("anthropic", { thinking: true })(x))
    expect(tags(r).sort()).toEqual(["MergedConsecutive", "MovedBlock", "TrimmedPrefill"])
    expect(r.messages).toHaveLength(2)
    expect(r.messages[1]!.content.map((b) => b._tag)).toEqual(["Thinking", "Text"])
    expect(Message.textOf(r.messages[1]!)).toBe("Sure")
    expect(Conversation.issuesFor("anthropic", r.messages, { thinking: true })).toEqual([])
  })

  it("a tool loop left pending: the text before the call keeps its place, trimmed only where it ends the request", () => {
    const x = [Message.user("u1"), Message.assistant("Let me check. \n"), Message.assistant([Block.thinking("t", "sig"), Block.toolCall("c1", "f", {})])]
    const options = { thinking: true, allowPendingToolCalls: true }
    const r = Effect.runSync(Repair.repairFor("anthropic", options)(x))
    expect(tags(r)).toContain("MovedBlock")
    expect(Conversation.issuesFor("anthropic", r.messages, options)).toEqual([])
  })

  it("already one message: trimmed as before", () => {
    const x = [Message.user("Hi"), Message.assistant([Block.thinking("t", "sig"), Block.text("Sure \n")])]
    const r = Effect.runSync(Repair.repairFor("anthropic", { thinking: true })(x))
    expect(tags(r)).toEqual(["TrimmedPrefill"])
  })
})

describe("repairFor('anthropic') with an interruptedContent that holds a lone surrogate", () => {
  it.effect("writes the interrupted result with U+FFFD in its place, as it replaces one in the history, and validates", () =>
    Effect.gen(function*() {
      const unanswered = [Message.user("q"), Message.assistant([Block.toolCall("a", "f", {})]), Message.user("again")]
      const { actions, messages } = yield* Repair.repairFor("anthropic", { interruptedContent: "cancelled \uD800" })(unanswered)
      expect(actions.map((a) => a._tag)).toEqual(["InsertedMissingResult"])
      expect(messages[2]!.content[0]).toMatchObject({ _tag: "ToolResult", content: "cancelled \uFFFD", isError: true })
      expect(Conversation.issuesFor("anthropic", messages)).toEqual([])
    }))
})
