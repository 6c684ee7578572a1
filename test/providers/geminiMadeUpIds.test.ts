/**
 * Made-up Gemini call ids are bounded: a call or response without an id and
 * with a name longer than 64 code units gets an id holding the name's first
 * 64 code units and a short hash of the whole name, not the whole name (a
 * 20 MB name made a 20 MB id). Names of at most 64 code units (every name the
 * API takes) give the ids they always gave.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Conversation, Message } from "../../src/index.js"
import { Gemini, OpenAiChat } from "../../src/providers/index.js"

/** The longest made-up id a long name gives here: 64 code units, `_`, 11 of hash, then `_content_part`. */
const BOUND = 64 + 1 + 11 + "_9_9".length

const exchange = (name: string) => [
  { role: "user", parts: [{ text: "Go" }] },
  { role: "model", parts: [{ functionCall: { name, args: { q: 1 } } }] },
  { role: "user", parts: [{ functionResponse: { name, response: { output: "done" } } }] }
]

/** The ids a conversation read from Gemini contents gives its calls and results, in order. */
const idsOf = (messages: ReadonlyArray<Message.Message>): Array<string> =>
  messages.flatMap((m) => m.content.flatMap((b) => (b._tag === "ToolCall" ? [b.id] : b._tag === "ToolResult" ? [b.toolCallId] : [])))

describe("made-up Gemini call ids", () => {
  it.effect("a long-named call and its response without ids pair on a bounded id, and round-trip without it", () =>
    Effect.gen(function*() {
      const name = `tool_${"x".repeat(2_000_000)}`
      const contents = exchange(name)
      const { value: messages } = yield* Gemini.fromMessages({ contents })
      const [callId, resultId] = idsOf(messages)
      assert.strictEqual(callId, resultId)
      assert.isAtMost(callId!.length, BOUND)
      assert.isTrue(callId!.startsWith(name.slice(0, 64)))
      assert.match(callId!, /^tool_x{59}_[0-9a-z]{11}_1_0$/)
      // the call keeps its whole name; the pair is answered as Gemini pairs it
      const call = messages[1]!.content[0]!
      assert(call._tag === "ToolCall")
      assert.strictEqual(call.name, name)
      assert.deepStrictEqual(Conversation.issuesFor("gemini", messages), [])
      // written back neither on the call nor on the result (the writer says only that the name is one Gemini rejects)
      const { value: back, warnings } = yield* Gemini.toMessages(messages)
      assert.deepStrictEqual(warnings.map((w) => w._tag), ["RejectedToolName"])
      assert.deepStrictEqual(back, { contents })
      // and to a provider that needs ids, the call and its result go out with the same one
      const { value: chat } = yield* OpenAiChat.toMessages(messages)
      const sent = chat as unknown as ReadonlyArray<{ readonly tool_calls?: ReadonlyArray<{ readonly id: string }>; readonly tool_call_id?: string }>
      assert.strictEqual(sent[1]!.tool_calls![0]!.id, sent[2]!.tool_call_id)
    }))

  it.effect("two long names sharing their first 64 code units get different ids; the same name the same id", () =>
    Effect.gen(function*() {
      const shared = "a".repeat(64)
      const one = `${shared}_one_${"c".repeat(1_000)}`
      const two = `${shared}_two_${"c".repeat(1_000)}`
      const read = (name: string) => Gemini.fromMessages({ contents: exchange(name) }).pipe(Effect.map((c) => idsOf(c.value)[0]!))
      const [a, b, again] = [yield* read(one), yield* read(two), yield* read(one)]
      assert.notStrictEqual(a, b)
      assert.strictEqual(a, again)
      for (const id of [a, b]) assert.isTrue(id.startsWith(shared) && id.length <= BOUND)
      // in one conversation, each response without an id answers the call of its name
      const { value: both } = yield* Gemini.fromMessages({
        contents: [
          { role: "user", parts: [{ text: "Go" }] },
          { role: "model", parts: [{ functionCall: { name: one, args: {} } }, { functionCall: { name: two, args: {} } }] },
          { role: "user", parts: [{ functionResponse: { name: two, response: {} } }, { functionResponse: { name: one, response: {} } }] }
        ]
      })
      const [callOne, callTwo, resultTwo, resultOne] = idsOf(both)
      assert.deepStrictEqual([resultOne, resultTwo], [callOne, callTwo])
      assert.notStrictEqual(callOne, callTwo)
    }))

  it.effect("names of at most 64 code units give the ids they always gave", () =>
    Effect.gen(function*() {
      const longest = "n".repeat(64)
      for (const name of ["get_weather", longest, ""]) {
        const { value } = yield* Gemini.fromMessages({ contents: exchange(name) })
        assert.deepStrictEqual(idsOf(value), [`${name}_1_0`, `${name}_1_0`])
      }
      const { value: response } = yield* Gemini.fromResponse({
        responseId: "resp_1",
        candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: {} } }] } }]
      })
      assert.deepStrictEqual(idsOf([response.message]), ["get_weather_resp_1_0"])
    }))

  it.effect("a made-up id stays clear of the ids the contents give, long names too", () =>
    Effect.gen(function*() {
      const name = "b".repeat(100)
      const { value: alone } = yield* Gemini.fromMessages({ contents: exchange(name) })
      const madeUp = idsOf(alone)[0]!
      // another call given that very id: the made-up one takes a suffix, and each response answers its own call
      const { value } = yield* Gemini.fromMessages({
        contents: [
          ...exchange(name),
          { role: "model", parts: [{ functionCall: { id: madeUp, name: "other", args: {} } }] },
          { role: "user", parts: [{ functionResponse: { id: madeUp, name: "other", response: {} } }] }
        ]
      })
      assert.deepStrictEqual(idsOf(value), [`${madeUp}_2`, `${madeUp}_2`, madeUp, madeUp])
      assert.deepStrictEqual(Conversation.issuesFor("gemini", value).map((i) => i._tag), [])
    }))

  it.effect("a response's calls: a long name or a long response id is held bounded", () =>
    Effect.gen(function*() {
      const name = `f_${"y".repeat(1_000_000)}`
      const { value } = yield* Gemini.fromResponse({
        responseId: `r_${"z".repeat(1_000_000)}`,
        candidates: [{ content: { role: "model", parts: [{ functionCall: { name, args: {} } }, { functionCall: { name, args: {} } }] } }]
      })
      const ids = idsOf([value.message])
      assert.strictEqual(ids.length, 2)
      assert.notStrictEqual(ids[0], ids[1])
      // the name's part, `_`, the response id's part, `_` and the part's place
      for (const id of ids) assert.isAtMost(id.length, 2 * (64 + 1 + 11) + "_9_".length)
      assert.match(ids[0]!, /^f_y{62}_[0-9a-z]{11}_r_z{62}_[0-9a-z]{11}_0$/)
    }))
})
