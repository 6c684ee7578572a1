/**
 * How validation and repair read Responses reasoning items, pinned by the cases an audit of the adapter found: each
 * was sent well by the writer and called wrong, or lost, by the rules.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Conversation, Message, Repair } from "../../src/index.js"
import { OpenAiResponses } from "../../src/providers/index.js"

const value = <A, E>(effect: Effect.Effect<A, E>): A => Effect.runSync(effect)
const tags = (messages: ReadonlyArray<Message.Message>, options: Conversation.ProfileOptions = {}) =>
  Conversation.issuesFor("openai-responses", messages, options).map((issue) => issue._tag)
const wire = (messages: ReadonlyArray<Message.Message>) => value(OpenAiResponses.toMessages(messages)).value
const reasoning = (id: string) => Block.thinking("", undefined, { itemId: id, summary: [], encryptedContent: `E${id}` })

describe("a reasoning item at the end of one assistant message, its output in the next", () => {
  const messages = [
    Message.user("hi"),
    Message.assistant([reasoning("rs_1")]),
    Message.assistant([Block.toolCall("c1", "f", {}, { itemId: "fc_1" })]),
    Message.toolResultMessage("c1", "f", "ok")
  ]

  it("is followed by it: the items are the same as of one message", () => {
    expect(wire(messages)).toEqual(wire([messages[0]!, Message.assistant([reasoning("rs_1"), Block.toolCall("c1", "f", {}, { itemId: "fc_1" })]), messages[3]!]))
    expect(tags(messages)).toEqual(["ConsecutiveRole"])
  })

  it("repair merges the two messages and keeps the reasoning and the call's id, for a reasoning model too", () => {
    for (const options of [{}, { model: "gpt-5" }]) {
      const r = value(Repair.repairFor("openai-responses", options)(messages))
      expect(r.actions.map((a) => a._tag)).toEqual(["MergedConsecutive"])
      expect(wire(r.messages)).toEqual(wire(messages))
      expect(tags(r.messages, options)).toEqual([])
    }
  })

  it("a message of reasoning alone passes on what follows it; a user message after it follows it with nothing", () => {
    const alone = [messages[0]!, Message.assistant([reasoning("rs_0")]), ...messages.slice(1)]
    expect(tags(alone)).toEqual(["ConsecutiveRole", "ConsecutiveRole"])
    const cut = [messages[0]!, messages[1]!, Message.user("more")]
    expect(tags(cut)).toEqual(["ReasoningWithoutOutput"])
  })
})

describe("reasoning at the end of a message, where repair changes what follows it", () => {
  const call = (id: string, itemId: string) => Block.toolCall(id, "f", {}, { itemId })
  const cases: ReadonlyArray<ReadonlyArray<Message.Message>> = [
    // the next message's text is moved before its call: it comes first, without an id
    [Message.user("hi"), Message.assistant([reasoning("rs_1")]), Message.assistant([call("c1", "fc_1"), Block.text("done")]), Message.toolResultMessage("c1", "f", "ok")],
    // a call before the reasoning is left unanswered: its made-up output comes between the reasoning and the next call
    [Message.user("hi"), Message.assistant([reasoning("rs_1"), call("c1", "fc_1"), reasoning("rs_2")]), Message.assistant([call("c2", "fc_2")]), Message.toolResultMessage("c2", "f", "ok")],
    [Message.user("hi"), Message.assistant([reasoning("rs_1"), call("c1", "fc_1"), reasoning("rs_2")]), Message.assistant([Block.text("x", { itemId: "msg_2" }), call("c2", "fc_2")]), Message.toolResultMessage("c1", "f", "ok"), Message.toolResultMessage("c2", "f", "ok")]
  ]

  it("is removed as before: what repair returns is accepted, for a reasoning model too", () => {
    for (const messages of cases) {
      for (const options of [{}, { model: "gpt-5" }]) {
        const r = value(Repair.repairFor("openai-responses", options)(messages))
        expect(r.actions.map((a) => a._tag)).toContain("RemovedBlock")
        expect(tags(r.messages, options)).toEqual([])
      }
    }
  })
})

describe("reasoning at the end of a message, judged on the repaired messages", () => {
  it("stays when what follows it there has its id: a text moved before the next message's call", () => {
    const messages = [
      Message.user("hi"),
      Message.assistant([reasoning("rs_1")]),
      Message.assistant([Block.toolCall("c1", "f", {}, { itemId: "fc_1" }), Block.text("done", { itemId: "msg_2" })]),
      Message.toolResultMessage("c1", "f", "ok")
    ]
    for (const options of [{}, { model: "gpt-5" }]) {
      const r = value(Repair.repairFor("openai-responses", options)(messages))
      expect(r.actions.map((a) => a._tag)).toEqual(["MovedBlock", "MergedConsecutive"])
      expect(tags(r.messages, options)).toEqual([])
    }
  })

  it("kept for an answer after it that repair then removes, it goes too, and the repair is made again without the guess", () => {
    // (found by CI on the custom tool property: the answer was an orphan custom tool output)
    const messages = [
      Message.user("Go on."),
      Message.assistant([Block.thinking("", undefined, { itemId: "rs_1" })]),
      Message.assistant([Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: "c1", output: "done" })]),
      Message.user("Go on.")
    ]
    const r = value(Repair.repairFor("openai-responses")(messages))
    expect(r.actions.map((a) => [a._tag, a.index])).toEqual([["RemovedBlock", 1], ["RemovedEmptyMessage", 1], ["RemovedBlock", 2], ["RemovedEmptyMessage", 2], ["MergedConsecutive", 3]])
    expect(tags(r.messages)).toEqual([])
  })

  it("a run of reasoning alone, a user message after it, goes whole: no empty message, no two user messages in a row", () => {
    const messages = [Message.user("hi"), Message.assistant([reasoning("rs_0")]), Message.assistant([reasoning("rs_1"), reasoning("rs_2")]), Message.user("more")]
    const r = value(Repair.repairFor("openai-responses")(messages))
    expect(r.messages.map((m) => m.role)).toEqual(["user"])
    expect(tags(r.messages)).toEqual([])
  })
})

describe("a reasoning item the writer sends without an id", () => {
  it("is replayed from its encrypted content and needs no item after it: no issue with store: false, nothing to repair", () => {
    const messages = [
      Message.user("List the files"),
      Message.assistant([
        Block.thinking("", undefined, { itemId: "item_r1", summary: ["Use ls"], encryptedContent: "gAAAAB-opaque" }),
        Block.toolCall("call_1", "shell", { cmd: "ls" }, { itemId: "item_c1" })
      ]),
      Message.toolResultMessage("call_1", "shell", "a.txt")
    ]
    const items = wire(messages) as ReadonlyArray<{ readonly type?: string; readonly id?: string }>
    expect(items.filter((item) => item.type === "reasoning" || item.type === "function_call").map((item) => item.id)).toEqual([undefined, undefined])
    expect(tags(messages, { store: false })).toEqual([])
    expect(value(Repair.repairFor("openai-responses", { store: false })(messages)).actions).toEqual([])
  })

  it("thinking the writer leaves out is not missing its encrypted content", () => {
    const messages = [Message.user("hi"), Message.assistant([Block.thinking("plan", undefined, { itemId: "item_r1", summary: [] }), Block.text("hello", { itemId: "msg_1" })]), Message.user("more")]
    expect(tags(messages, { store: false })).toEqual([])
    expect(value(Repair.repairFor("openai-responses", { store: false })(messages)).actions).toEqual([])
    // one the writer sends without it still is
    const sent = [messages[0]!, Message.assistant([Block.thinking("", undefined, { itemId: "rs_1", summary: [] }), Block.text("hello", { itemId: "msg_1" })]), messages[2]!]
    expect(tags(sent, { store: false })).toEqual(["MissingEncryptedContent"])
  })
})

describe("text after a call, moved before the calls", () => {
  it("takes the reasoning items right before it along: each still followed by the item it produced", () => {
    const rs = (id: string) => ({ type: "reasoning", id, summary: [{ type: "summary_text", text: `think ${id}` }], encrypted_content: `E${id}` })
    const items = [
      { role: "user", content: "hi" },
      rs("rs_1"),
      { type: "function_call", id: "fc_1", call_id: "c1", name: "f", arguments: "{}" },
      rs("rs_2"),
      { type: "message", id: "msg_2", role: "assistant", status: "completed", content: [{ type: "output_text", text: "I called f", annotations: [] }] },
      { type: "function_call_output", call_id: "c1", output: "ok" }
    ]
    const messages = value(OpenAiResponses.fromMessages(items)).value
    expect(tags(messages, { model: "gpt-5" })).toEqual(["TextBetweenCallAndOutput"])
    const r = value(Repair.repairFor("openai-responses", { model: "gpt-5" })(messages))
    expect(r.actions.map((a) => a.description)).toEqual([
      "messages[1]: moved content[2] to content[0]: the Responses API wants a call's output right after the call",
      "messages[1]: moved content[3] to content[1]: the Responses API wants a call's output right after the call"
    ])
    expect(wire(r.messages)).toEqual([items[0], items[3], items[4], items[1], items[2], items[5]])
    expect(tags(r.messages, { model: "gpt-5" })).toEqual([])
  })
})

describe("a reasoning item read without its summary", () => {
  it("goes back with summary: [], which the API requires", () => {
    for (const summary of [{}, { summary: null }]) {
      const item = { type: "reasoning", id: "rs_1", ...summary, encrypted_content: "gAAAAB" }
      const read = value(OpenAiResponses.fromMessages([{ role: "user", content: "hi" }, item, { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok", annotations: [] }] }])).value
      expect(wire(read)[1]).toEqual({ type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAAAB" })
    }
  })
})
