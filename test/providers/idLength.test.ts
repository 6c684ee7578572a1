/**
 * Tool call ids longer than OpenAI takes (Chat Completions: 40 characters,
 * the Responses API: 64) are rewritten when a conversation is written: the
 * call and every result answering it get one short id, unique in the
 * conversation, a function of the id (so a result sent in a later request
 * maps as its call did), each rewritten id reported once. Ids within the
 * limit are written as they are.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Request } from "../../src/index.js"
import { Anthropic, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import type { OpenAiChatWire, OpenAiResponsesWire } from "../../src/providers/index.js"
import { bool, intBetween } from "../arbitraries.js"
import { ok } from "./adapterHelpers.js"

const CHAT_LIMIT = 40
const RESPONSES_LIMIT = 64

// ---------------------------------------------------------------------------
// the two writers, read the same way: the ids written for calls and results, in order
// ---------------------------------------------------------------------------

interface Written {
  readonly calls: ReadonlyArray<string>
  readonly results: ReadonlyArray<string>
  readonly rewritten: number
  readonly read: () => ReadonlyArray<Message.Message>
}

const rewrittenIds = (warnings: ReadonlyArray<{ readonly _tag: string; readonly message: string }>): number =>
  warnings.filter((w) => w._tag === "ConvertedContent" && w.message.includes("the tool call id")).length

const writeChat = (messages: ReadonlyArray<Message.Message>): Written => {
  const { value, warnings } = ok(OpenAiChat.toMessages(messages))
  const calls: Array<string> = []
  const results: Array<string> = []
  for (const m of value) {
    if (m.role === "assistant") for (const call of m.tool_calls ?? []) calls.push(call.id)
    if (m.role === "tool") results.push(m.tool_call_id)
  }
  return { calls, results, rewritten: rewrittenIds(warnings), read: () => ok(OpenAiChat.fromMessages(value)).value }
}

const writeResponses = (messages: ReadonlyArray<Message.Message>): Written => {
  const { value, warnings } = ok(OpenAiResponses.toMessages(messages))
  const calls: Array<string> = []
  const results: Array<string> = []
  for (const item of value as ReadonlyArray<{ readonly type?: unknown; readonly call_id?: unknown }>) {
    if (item.type === "function_call" && typeof item.call_id === "string") calls.push(item.call_id)
    if (item.type === "function_call_output" && typeof item.call_id === "string") results.push(item.call_id)
  }
  return {
    calls,
    results,
    rewritten: rewrittenIds(warnings),
    read: () => ok(OpenAiResponses.fromMessages(value as ReadonlyArray<OpenAiResponsesWire.InputItemLike>)).value
  }
}

// ---------------------------------------------------------------------------
// conversations with ids of every length
// ---------------------------------------------------------------------------

const pick = <A>(values: ReadonlyArray<A>): Arbitrary.Arbitrary<A> => intBetween(0, values.length - 1).pipe(Arbitrary.map((i) => values[i]!))

const uuid = "0b8f1c2e-4b1a-4c3d-9e8f-7a6b5c4d3e2f"
/** Long prefixes many ids share: a gateway's, a workspace's, an MCP server's, a repair's. */
const prefixes = [`portkey-${uuid}`, "ws_68a2c1f0e4b88190a1b2c3d4e5f60718293a4b5c6d7e8f9", "mcp__github__create_pull_request__", "call_abc123_repaired_", "工具调用-天气查询-", "🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧🔧"] as const

/** An id: short, at the limits, long with a shared prefix, non-ASCII, or any string at all. */
const anyId: Arbitrary.Arbitrary<string> = intBetween(0, 5).pipe(
  Arbitrary.flatMap((kind): Arbitrary.Arbitrary<string> => {
    switch (kind) {
      case 0:
        return intBetween(0, 99).pipe(Arbitrary.map((n) => `call_${n}`))
      case 1:
        // right at a limit, and one over
        return Arbitrary.all({ length: pick([CHAT_LIMIT - 1, CHAT_LIMIT, CHAT_LIMIT + 1, RESPONSES_LIMIT, RESPONSES_LIMIT + 1]), n: intBetween(0, 9) }).pipe(
          Arbitrary.map(({ length, n }) => `${n}`.padStart(length, "x"))
        )
      case 2:
        return Arbitrary.all({ prefix: pick(prefixes), n: intBetween(0, 20), repeat: intBetween(1, 4) }).pipe(
          Arbitrary.map(({ n, prefix, repeat }) => `${prefix.repeat(repeat)}${n}`)
        )
      case 3:
        return Arbitrary.all({ prefix: pick(prefixes), tail: Arbitrary.schema(Schema.String) }).pipe(Arbitrary.map(({ prefix, tail }) => `${prefix}${tail}`))
      default:
        return Arbitrary.schema(Schema.String.check(Schema.isMinLength(1)))
    }
  })
)

/** Ids, unique: a repeated one gets its position added. */
const uniqueIds = (ids: ReadonlyArray<string>): Array<string> => {
  const seen = new Set<string>()
  return ids.map((id, i) => {
    let out = id
    while (seen.has(out)) out = `${out}#${i}`
    seen.add(out)
    return out
  })
}

/** A valid tool conversation: each turn a question, an assistant's parallel calls and their results, in any order. */
const conversationOf = (turns: ReadonlyArray<{ readonly ids: ReadonlyArray<string>; readonly reversed: boolean }>): Array<Message.Message> => {
  const messages: Array<Message.Message> = []
  for (const { ids, reversed } of turns) {
    messages.push(Message.user("Weather in Oslo?"))
    messages.push(Message.assistant(ids.map((id) => Block.toolCall(id, "get_weather", { city: "Oslo" }))))
    const answers = reversed ? [...ids].reverse() : ids
    messages.push(Message.tool(answers.map((id) => Block.toolResult(id, "get_weather", "4°C"))))
  }
  messages.push(Message.assistant("4°C in Oslo."))
  return messages
}

const turnsArb = Arbitrary.array(Arbitrary.all({ ids: Arbitrary.array(anyId, { minLength: 1, maxLength: 3 }), reversed: bool }), { minLength: 1, maxLength: 4 }).pipe(
  Arbitrary.map((turns) => {
    const ids = uniqueIds(turns.flatMap((t) => t.ids))
    let next = 0
    return turns.map((t) => ({ ids: t.ids.map(() => ids[next++]!), reversed: t.reversed }))
  })
)

const callIdsOf = (messages: ReadonlyArray<Message.Message>): Array<string> =>
  messages.flatMap((m) => (m.role === "assistant" ? m.content.flatMap((b) => (b._tag === "ToolCall" ? [b.id] : [])) : []))
const resultIdsOf = (messages: ReadonlyArray<Message.Message>): Array<string> =>
  messages.flatMap((m) => (m.role === "tool" ? m.content.map((b) => b.toolCallId) : []))

/** Every property of a written conversation: ids within the limit, pairs as in the model, short ids as they were, one warning per rewritten id, a valid conversation read back. */
const checkWritten = (
  messages: ReadonlyArray<Message.Message>,
  written: Written,
  limit: number,
  provider: "openai-chat" | "openai-responses"
): Map<string, string> => {
  const modelCalls = callIdsOf(messages)
  const modelResults = resultIdsOf(messages)
  assert.strictEqual(written.calls.length, modelCalls.length)
  assert.strictEqual(written.results.length, modelResults.length)
  const to = new Map<string, string>()
  modelCalls.forEach((id, i) => to.set(id, written.calls[i]!))
  for (const id of [...written.calls, ...written.results]) assert.isAtMost(id.length, limit, `${JSON.stringify(id)} is over ${limit}`)
  // each result answers the call it answered in the model, and distinct calls keep distinct ids
  modelResults.forEach((id, i) => assert.strictEqual(written.results[i], to.get(id)))
  assert.strictEqual(new Set(to.values()).size, to.size)
  for (const [from, id] of to) if (from.length <= limit) assert.strictEqual(id, from)
  assert.strictEqual(written.rewritten, [...to.keys()].filter((id) => id.length > limit).length)
  const read = written.read()
  const validated = Effect.runSync(Effect.result(Conversation.validateFor(provider)(read)))
  assert.strictEqual(validated._tag, "Success", validated._tag === "Failure" ? validated.failure.message : "")
  return to
}

const runs = { arbitrary: { runs: 300 }, timeout: 120_000 }

describe.each([
  { name: "OpenAiChat.toMessages", write: writeChat, limit: CHAT_LIMIT, provider: "openai-chat" as const },
  { name: "OpenAiResponses.toMessages", write: writeResponses, limit: RESPONSES_LIMIT, provider: "openai-responses" as const }
])("$name with ids of any length", ({ limit, provider, write }) => {
  it.prop(
    "every id written is within the limit, each result answers its call, short ids are unchanged, and each rewritten id is reported once",
    [turnsArb],
    ([turns]) => {
      checkWritten(conversationOf(turns), write(conversationOf(turns)), limit, provider)
    },
    runs
  )

  it.prop(
    "an id equal to another id's rewritten form is kept, and the other id moves",
    [turnsArb],
    ([turns]) => {
      const first = checkWritten(conversationOf(turns), write(conversationOf(turns)), limit, provider)
      const shortened = [...first].filter(([from, to]) => from !== to).map(([, to]) => to)
      // the same conversation after a turn whose calls already have the ids the long ones were rewritten to
      const clashing = shortened.length === 0 ? turns : [{ ids: shortened, reversed: false }, ...turns]
      const to = checkWritten(conversationOf(clashing), write(conversationOf(clashing)), limit, provider)
      for (const id of shortened) assert.strictEqual(to.get(id), id)
    },
    runs
  )
})

// ---------------------------------------------------------------------------
// the errors quoted in public issue threads
// ---------------------------------------------------------------------------

describe("OpenAiChat: tool call ids over 40 characters", () => {
  // Invalid 'messages[3].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 41 instead.
  const portkey = `portkey-${uuid}`

  it.effect("a 44-character gateway id is rewritten to 40 at most, the same for the call and its result, and reported once", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* OpenAiChat.toMessages([
        Message.user("Weather?"),
        Message.assistant([Block.toolCall(portkey, "get_weather", {})]),
        Message.tool([Block.toolResult(portkey, "get_weather", "4°C")])
      ])
      const call = value[1] as OpenAiChatWire.AssistantMessageParam
      const id = call.tool_calls![0]!.id
      expect(portkey.length).toBe(44)
      expect(id.length).toBeLessThanOrEqual(40)
      expect(id.startsWith("portkey-0b8f1c2e")).toBe(true)
      expect(value[2]).toMatchObject({ role: "tool", tool_call_id: id })
      expect(warnings.map((w) => w.message)).toEqual([
        `messages[1].content[0]: the tool call id ${JSON.stringify(portkey)} was sent as ${JSON.stringify(id)}, and in its results (Chat Completions takes ids of at most 40 characters)`
      ])
    }))

  it.effect("a 41-character id goes to 40 at most; one of exactly 40 is written as it is", () =>
    Effect.gen(function* () {
      const long = "x".repeat(41)
      const edge = "y".repeat(40)
      const { value, warnings } = yield* OpenAiChat.toMessages([
        Message.assistant([Block.toolCall(long, "get_weather", {}), Block.toolCall(edge, "get_weather", {})]),
        Message.tool([Block.toolResult(long, "get_weather", "4°C"), Block.toolResult(edge, "get_weather", "5°C")])
      ])
      const ids = (value[0] as OpenAiChatWire.AssistantMessageParam).tool_calls!.map((c) => c.id)
      expect(ids[0]!.length).toBeLessThanOrEqual(40)
      expect(ids[1]).toBe(edge)
      expect(value.slice(1).map((m) => (m as OpenAiChatWire.ToolMessageParam).tool_call_id)).toEqual(ids)
      expect(warnings).toHaveLength(1)
    }))

  it.effect("two long ids sharing their first 40 characters stay distinct", () =>
    Effect.gen(function* () {
      const a = `${portkey}-a`
      const b = `${portkey}-b`
      const { value } = yield* OpenAiChat.toMessages([Message.assistant([Block.toolCall(a, "f", {}), Block.toolCall(b, "f", {})])])
      const [x, y] = (value[0] as OpenAiChatWire.AssistantMessageParam).tool_calls!.map((c) => c.id)
      expect(x!.length).toBeLessThanOrEqual(40)
      expect(y!.length).toBeLessThanOrEqual(40)
      expect(x).not.toBe(y)
    }))

  it.effect("a result whose call was sent in an earlier request gets the id its call was sent with", () =>
    Effect.gen(function* () {
      const earlier = yield* OpenAiChat.toMessages([Message.user("Weather?"), Message.assistant([Block.toolCall(portkey, "get_weather", {})])])
      const later = yield* OpenAiChat.toMessages([Message.tool([Block.toolResult(portkey, "get_weather", "4°C")])])
      const id = (earlier.value[1] as OpenAiChatWire.AssistantMessageParam).tool_calls![0]!.id
      expect(later.value).toEqual([{ role: "tool", tool_call_id: id, content: "4°C" }])
      expect(later.warnings.map((w) => w.message)).toEqual([
        `messages[0].content[0]: the tool call id ${JSON.stringify(portkey)} of a result whose call is not in the conversation was sent as ${JSON.stringify(id)}, the id its call is sent with (Chat Completions takes ids of at most 40 characters)`
      ])
    }))

  it.effect("a whole request body is written with the short ids too", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.toRequest(
        Request.make([Message.assistant([Block.toolCall(portkey, "get_weather", {})]), Message.tool([Block.toolResult(portkey, "get_weather", "4°C")])], { model: "gpt-4o" })
      )
      const id = (value.messages[0] as OpenAiChatWire.AssistantMessageParam).tool_calls![0]!.id
      expect(id.length).toBeLessThanOrEqual(40)
      expect(value.messages[1]).toMatchObject({ tool_call_id: id })
    }))

  it.effect("an id made of characters outside the BMP is cut between characters, never inside one", () =>
    Effect.gen(function* () {
      const emoji = "🔧".repeat(30)
      const { value } = yield* OpenAiChat.toMessages([Message.assistant([Block.toolCall(emoji, "f", {})])])
      const id = (value[0] as OpenAiChatWire.AssistantMessageParam).tool_calls![0]!.id
      expect(id.length).toBeLessThanOrEqual(40)
      expect(id).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
    }))
})

describe("OpenAiResponses: call ids over 64 characters", () => {
  // Invalid 'input[95].call_id': string too long. Expected a string with maximum length 64, but got a string with length 116 instead.
  const mcp = `mcp__codex__${"a1b2c3d4".repeat(13)}`

  it.effect("a 116-character call id is rewritten to 64 at most on the function_call and its function_call_output, and reported once; one of 64, and a hosted call's item id, are written as they are", () =>
    Effect.gen(function* () {
      expect(mcp.length).toBe(116)
      const edge = "z".repeat(64)
      const hosted = `ws_${"9".repeat(80)}`
      const { value, warnings } = yield* OpenAiResponses.toMessages([
        Message.user("Open a PR."),
        Message.assistant([
          Block.toolCall(hosted, "web_search", { action: { type: "search", query: "oslo" } }, { providerExecuted: true, itemId: hosted, providerOptions: { "openai-responses": { type: "web_search_call", status: "completed" } } }),
          Block.toolCall(mcp, "create_pr", {}, { itemId: "fc_1" }),
          Block.toolCall(edge, "f", {})
        ]),
        Message.tool([Block.toolResult(mcp, "create_pr", "done"), Block.toolResult(edge, "f", "ok")])
      ])
      const call = value[2] as OpenAiResponsesWire.FunctionCallParam
      expect(call.call_id.length).toBeLessThanOrEqual(64)
      expect(call.call_id.startsWith("mcp__codex__")).toBe(true)
      expect(call.id).toBe("fc_1")
      expect(value.slice(1)).toMatchObject([
        { type: "web_search_call", id: hosted },
        { type: "function_call", call_id: call.call_id },
        { type: "function_call", call_id: edge },
        { type: "function_call_output", call_id: call.call_id },
        { type: "function_call_output", call_id: edge }
      ])
      expect(warnings.map((w) => w.message)).toEqual([
        `messages[1].content[1]: the tool call id ${JSON.stringify(mcp)} was sent as ${JSON.stringify(call.call_id)}, and in its results (the Responses API takes call ids of at most 64 characters)`
      ])
    }))

  it.effect("a whole request body is written with the short ids too", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiResponses.toRequest(
        Request.make([Message.assistant([Block.toolCall(mcp, "create_pr", {})]), Message.tool([Block.toolResult(mcp, "create_pr", "done")])], { model: "gpt-5" })
      )
      const [call, output] = value.input as ReadonlyArray<{ readonly call_id: string }>
      expect(call!.call_id.length).toBeLessThanOrEqual(64)
      expect(output!.call_id).toBe(call!.call_id)
    }))
})

describe("Anthropic: the same planner, for its alphabet", () => {
  it.effect("a result whose call was sent in an earlier request gets the id its call was sent with", () =>
    Effect.gen(function* () {
      const earlier = yield* Anthropic.toMessages([Message.user("Weather?"), Message.assistant([Block.toolCall("functions.get_weather:0", "get_weather", {})])])
      const later = yield* Anthropic.toMessages([Message.user("Weather?"), Message.tool([Block.toolResult("functions.get_weather:0", "get_weather", "4°C")])])
      expect(earlier.value.messages[1]!.content).toMatchObject([{ type: "tool_use", id: "functions_get_weather_0" }])
      expect(later.value.messages[0]!.content).toMatchObject([{ type: "text" }, { type: "tool_result", tool_use_id: "functions_get_weather_0" }])
      expect(later.warnings.map((w) => w.message)).toContain(
        'messages[1].content[0]: the tool call id "functions.get_weather:0" of a result whose call is not in the conversation was sent as "functions_get_weather_0", the id its call is sent with (Anthropic ids are letters, digits, _ and -)'
      )
    }))
})

describe("ids the writer does not send, and results sent as client results (found by review)", () => {
  it.effect("Chat: a deprecated single function_call and its role function result go without an id, so nothing is rewritten or reported", () =>
    Effect.gen(function* () {
      const long = "y".repeat(41)
      const legacy = [
        Message.user("Weather?"),
        Message.assistant([Block.toolCall(long, "f", {}, { providerOptions: { "openai-chat": { type: "function_call" } } })]),
        Message.tool([Block.toolResult(long, "f", "4°C", false, { providerOptions: { "openai-chat": { role: "function" } } })])
      ]
      const { value, warnings } = yield* OpenAiChat.toMessages(legacy, { strict: true })
      expect(warnings).toEqual([])
      expect(value[1]).toMatchObject({ role: "assistant", function_call: { name: "f" } })
      expect(value[2]).toMatchObject({ role: "function", name: "f", content: "4°C" })
    }))

  it.effect("Chat: a second legacy-marked call of a message is a tool call, and its long id is rewritten", () =>
    Effect.gen(function* () {
      const legacy = { providerOptions: { "openai-chat": { type: "function_call" } } }
      const { value } = yield* OpenAiChat.toMessages([
        Message.user("Weather?"),
        Message.assistant([Block.toolCall("a".repeat(41), "f", {}, legacy), Block.toolCall("b".repeat(41), "g", {}, legacy)])
      ])
      const calls = (value[1] as OpenAiChatWire.AssistantMessageParam).tool_calls ?? []
      expect(calls.map((c) => c.id.length <= CHAT_LIMIT)).toEqual([true])
    }))

  it.effect("a result the provider ran, in a tool message, is sent as a client result with a short id (Chat and Responses)", () =>
    Effect.gen(function* () {
      const id = "z".repeat(70)
      const history = [Message.user("Go."), Message.tool([Block.toolResult(id, "f", "ok", false, { providerExecuted: true })])]
      const chat = yield* OpenAiChat.toMessages(history)
      const sent = (chat.value.find((m) => m.role === "tool") as OpenAiChatWire.ToolMessageParam).tool_call_id
      expect(sent.length).toBeLessThanOrEqual(CHAT_LIMIT)
      const responses = yield* OpenAiResponses.toMessages(history)
      const output = (responses.value as ReadonlyArray<{ readonly type?: unknown; readonly call_id?: string }>).find((i) => i.type === "function_call_output")
      expect(output?.call_id?.length).toBeLessThanOrEqual(RESPONSES_LIMIT)
    }))
})
