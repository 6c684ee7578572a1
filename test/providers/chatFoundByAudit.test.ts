/**
 * Defects an audit of the OpenAI Chat adapter found, each pinned by the case that showed it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Block, Conversation, Message, Repair } from "../../src/index.js"
import { OpenAiChat } from "../../src/providers/index.js"

const value = <A, E>(effect: Effect.Effect<A, E>): A => Effect.runSync(effect)
const valid = (messages: ReadonlyArray<Message.Message>) => Exit.isSuccess(Effect.runSyncExit(Conversation.validateFor("openai-chat")(messages)))

describe("the id made up for a deprecated function_call", () => {
  it("never takes an id a tool call of the request has: the body comes back as it was, valid, nothing renamed", () => {
    const body = [
      { role: "user", content: "hi" },
      { role: "assistant", content: null, function_call: { name: "f", arguments: "{}" } },
      { role: "function", name: "f", content: "r" },
      { role: "assistant", content: null, tool_calls: [{ id: "function_call_1", type: "function", function: { name: "g", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "function_call_1", content: "rg" }
    ]
    const read = value(OpenAiChat.fromMessages(body))
    const ids = read.value.flatMap((m) => m.content.flatMap((b) => (b._tag === "ToolCall" ? [b.id] : [])))
    expect(new Set(ids).size).toBe(2)
    expect(valid(read.value)).toBe(true)
    expect(value(Repair.repairFor("openai-chat")(read.value)).actions).toEqual([])
    const written = value(OpenAiChat.toMessages(read.value))
    expect(written.value).toEqual(body)
    expect(written.warnings).toEqual([])
  })

  it("nor an id a tool message gives, answering no call", () => {
    const body = [
      { role: "user", content: "hi" },
      { role: "assistant", content: null, function_call: { name: "f", arguments: "{}" } },
      { role: "function", name: "f", content: "r" },
      { role: "tool", tool_call_id: "function_call_1", content: "stray" }
    ]
    const read = value(OpenAiChat.fromMessages(body))
    const call = read.value[1]!.content[0] as Block.ToolCallBlock
    expect(call.id).not.toBe("function_call_1")
    expect(value(OpenAiChat.toMessages(read.value)).value).toEqual(body)
  })

  it("calls read from two responses get two ids (each response's own), so the conversation they make is valid", () => {
    const response = (id: string) => ({
      id,
      object: "chat.completion" as const,
      created: 1,
      model: "gpt-4o",
      choices: [{ index: 0, finish_reason: "function_call" as const, logprobs: null, message: { role: "assistant" as const, content: null, refusal: null, function_call: { name: "lookup", arguments: "{}" } } }]
    })
    const first = value(OpenAiChat.fromResponse(response("chatcmpl-1"))).value.message
    const second = value(OpenAiChat.fromResponse(response("chatcmpl-2"))).value.message
    const idOf = (m: Message.AssistantMessage) => (m.content.find((b) => b._tag === "ToolCall") as Block.ToolCallBlock).id
    expect(idOf(first)).not.toBe(idOf(second))
    const conversation = [
      Message.user("look up twice"),
      first,
      Message.toolResultMessage(idOf(first), "lookup", "one"),
      Message.user("again"),
      second,
      Message.toolResultMessage(idOf(second), "lookup", "two")
    ]
    expect(valid(conversation)).toBe(true)
  })
})

describe("the result of a deprecated function_call read from a response", () => {
  it("goes back as a role function message with no word about its id, strict or not", () => {
    const response = {
      id: "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
      object: "chat.completion" as const,
      created: 1,
      model: "gpt-4o",
      choices: [{ index: 0, finish_reason: "function_call" as const, logprobs: null, message: { role: "assistant" as const, content: null, refusal: null, function_call: { name: "f", arguments: "{}" } } }]
    }
    const message = value(OpenAiChat.fromResponse(response)).value.message
    const call = message.content[0] as Block.ToolCallBlock
    expect(call.id.length).toBeLessThanOrEqual(40)
    const messages = [Message.user("q"), message, Message.tool(Block.toolResult(call.id, "f", "ok"))]
    for (const strict of [false, true]) {
      const written = value(OpenAiChat.toMessages(messages, { strict }))
      expect(written.warnings).toEqual([])
      expect(written.value[2]).toEqual({ role: "function", name: "f", content: "ok" })
    }
  })

  it("a call of that form with an id longer than Chat takes: its result goes without one too, unsaid", () => {
    const long = `function_call_${"x".repeat(60)}`
    const messages = [
      Message.user("q"),
      Message.assistant([Block.toolCall(long, "f", {}, { providerOptions: { "openai-chat": { type: "function_call" } } })]),
      Message.tool(Block.toolResult(long, "f", "ok"))
    ]
    const written = value(OpenAiChat.toMessages(messages, { strict: true }))
    expect(written.warnings).toEqual([])
    expect(written.value.map((m) => m.role)).toEqual(["user", "assistant", "function"])
  })
})

describe("a message's participant name", () => {
  it("is sent with each character the API refuses as _, reported with the name as it was", () => {
    const written = value(OpenAiChat.toMessages([Message.user("hi", { name: "Bob Smith" }), Message.assistant("hello", { name: "agent.v2" })]))
    expect(written.value.map((m) => (m as { readonly name?: string }).name)).toEqual(["Bob_Smith", "agent_v2"])
    expect(written.warnings.map((w) => w.message)).toEqual([
      "messages[0]: the participant name \"Bob Smith\" was sent as \"Bob_Smith\" (Chat Completions takes letters, digits, _ and - only)",
      "messages[1]: the participant name \"agent.v2\" was sent as \"agent_v2\" (Chat Completions takes letters, digits, _ and - only)"
    ])
  })

  it("a name the API takes is sent as it is, and an empty one is left out, reported", () => {
    const written = value(OpenAiChat.toMessages([Message.user("hi", { name: "bob_2-x" }), Message.system("be brief", { name: "" })]))
    expect(written.value[0]).toMatchObject({ name: "bob_2-x" })
    expect(written.value[1]).not.toHaveProperty("name")
    expect(written.warnings.map((w) => w._tag)).toEqual(["DroppedContent"])
  })
})

describe("a tool result of no parts", () => {
  it("is sent as \"\", not as content: [] (the API refuses an empty list of parts), and said", () => {
    const messages = [Message.user("go"), Message.assistantMessage("", [{ id: "c1", name: "f" }]), Message.tool([Block.toolResult("c1", "f", [])])]
    const written = value(OpenAiChat.toMessages(messages))
    expect(written.value[2]).toEqual({ role: "tool", tool_call_id: "c1", content: "" })
    expect(written.warnings.map((w) => w._tag)).toEqual(["ConvertedContent"])
  })
})

describe("a refusal beside a list of parts", () => {
  it("read from the refusal field goes back there; a refusal part stays a part", () => {
    const body = [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "text", text: "Hi" }], refusal: "No" },
      { role: "assistant", content: [{ type: "text", text: "A" }, { type: "text", text: "B" }], refusal: "Not that" },
      { role: "assistant", content: [{ type: "refusal", refusal: "R" }], refusal: "Nor that" }
    ]
    const written = value(OpenAiChat.toMessages(value(OpenAiChat.fromMessages(body)).value))
    expect(written.value).toEqual(body)
    expect(written.warnings).toEqual([])
  })
})

describe("a response with two choices of one index", () => {
  it.effect("reads the first and reports the second, never reading one over the other in silence", () =>
    Effect.gen(function*() {
      const response = (choices: ReadonlyArray<object>) => ({ id: "chatcmpl-1", object: "chat.completion", created: 1, model: "m", choices })
      const choice = (text: string, index?: number) => ({ ...(index === undefined ? {} : { index }), message: { role: "assistant", content: text }, finish_reason: "stop" })
      for (const choices of [[choice("first", 0), choice("second", 0)], [choice("first"), choice("second", 0)]]) {
        const { value, warnings } = yield* OpenAiChat.fromResponse(response(choices) as never)
        expect(value.message.content).toMatchObject([{ _tag: "Text", text: "first" }])
        expect(warnings.map((w) => w.message)).toEqual(["choices[1], a second choice 0 was left out: the first choice of that index (choices[0]) is read"])
      }
    }))
})
