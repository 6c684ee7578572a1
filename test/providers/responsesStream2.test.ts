/**
 * The Responses stream accumulator against three silent losses: a delta
 * aimed (by `item_id`) at another item than the one at its `output_index`,
 * response fields only the lifecycle events carried, and streamed text a
 * `.done` value replaced. And the invariant behind them: a stream reads as
 * its final response does, however its deltas are cut.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Result, Schema } from "effect"
import { Message } from "../../src/index.js"
import { OpenAiResponses, OpenAiResponsesStream, type OpenAiResponsesWire } from "../../src/providers/index.js"
import { json } from "./adapterHelpers.js"
import * as Fixtures from "./fixtures/openAiResponses.js"
import { eventsOf, type Fixture } from "./fixtures/sse.js"
import { splitAt } from "./helpers.js"

type Event = OpenAiResponsesWire.StreamEvent
type Obj = Record<string, unknown>

const base = { id: "resp_1", object: "response", created_at: 1741476542, model: "gpt-4.1-2025-04-14" }
const usage = { input_tokens: 36, output_tokens: 87, total_tokens: 123 }
const ev = (type: string, rest: object): Event => ({ type, ...rest }) as unknown as Event
const created = (extra: object = {}): Event => ev("response.created", { response: { ...base, status: "in_progress", output: [], usage: null, ...extra } })
const completed = (output: ReadonlyArray<object>, extra: object = {}): Event => ev("response.completed", { response: { ...base, status: "completed", output, usage, ...extra } })

const run = (events: ReadonlyArray<Event>) => {
  const acc = OpenAiResponsesStream.make()
  for (const e of events) acc.push(e)
  return acc.done()
}
const success = (events: ReadonlyArray<Event>): OpenAiResponsesWire.Response => {
  const result = run(events)
  if (Result.isFailure(result)) return assert.fail(result.failure.message)
  return result.success
}
const protocolError = (events: ReadonlyArray<Event>) => {
  const result = run(events)
  if (Result.isSuccess(result)) return assert.fail(`expected a failure, got ${JSON.stringify(result.success)}`)
  if (result.failure._tag !== "StreamProtocolError") return assert.fail(`expected a StreamProtocolError, got ${result.failure.message}`)
  return result.failure
}

const message = { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] }
const textPart = { type: "output_text", text: "", annotations: [] }
const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: "", status: "in_progress" }
const reasoning = { type: "reasoning", id: "rs_1", summary: [] }

describe("Responses stream: a delta names the item it belongs to", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly events: (itemId?: string) => ReadonlyArray<Event>; readonly partialText: (r: OpenAiResponsesWire.Response) => unknown }> = [
    {
      name: "response.output_text.delta",
      events: (itemId) => [
        created(),
        ev("response.output_item.added", { output_index: 0, item: message }),
        ev("response.content_part.added", { item_id: "msg_1", output_index: 0, content_index: 0, part: textPart }),
        ev("response.output_text.delta", { ...(itemId === undefined ? {} : { item_id: itemId }), output_index: 0, content_index: 0, delta: "Hello" })
      ],
      partialText: (r) => OpenAiResponsesStream.outputText(r)
    },
    {
      name: "response.function_call_arguments.delta",
      events: (itemId) => [
        created(),
        ev("response.output_item.added", { output_index: 0, item: call }),
        ev("response.function_call_arguments.delta", { ...(itemId === undefined ? {} : { item_id: itemId }), output_index: 0, delta: "{\"a\":1}" })
      ],
      partialText: (r) => (r.output[0] as { readonly arguments?: unknown }).arguments
    },
    {
      name: "response.reasoning_summary_text.delta",
      events: (itemId) => [
        created(),
        ev("response.output_item.added", { output_index: 0, item: reasoning }),
        ev("response.reasoning_summary_part.added", { item_id: "rs_1", output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } }),
        ev("response.reasoning_summary_text.delta", { ...(itemId === undefined ? {} : { item_id: itemId }), output_index: 0, summary_index: 0, delta: "Plan" })
      ],
      partialText: (r) => ((r.output[0] as { readonly summary: ReadonlyArray<{ readonly text: string }> }).summary[0])?.text
    }
  ]

  for (const c of cases) {
    it(`a ${c.name} whose item_id is not the id of the item at its output_index is a protocol error (the text stays in the partial response); one without item_id is accepted`, () => {
      const error = protocolError(c.events("other_9"))
      assert.include(error.reason, `${c.name} for output item 0`)
      assert.include(error.reason, "item_id \"other_9\"")
      assert.strictEqual(error.eventIndex, c.events().length - 1)
      const partial = error.partial as OpenAiResponsesWire.Response
      assert.isDefined(c.partialText(partial))
      assert.notStrictEqual(c.partialText(partial), "")
      // without item_id (some compatible servers) or with the right one, the same events are no violation
      for (const itemId of [undefined, (c.events()[1] as unknown as { item: { id: string } }).item.id]) {
        const acc = OpenAiResponsesStream.make()
        for (const e of c.events(itemId)) acc.push(e)
        const result = acc.done()
        assert.isTrue(Result.isFailure(result) && result.failure._tag === "IncompleteStream", Result.isFailure(result) ? result.failure.message : "")
      }
    })
  }

  it("an item_id that is not a string is a protocol error naming the field", () => {
    const error = protocolError([
      created(),
      ev("response.output_item.added", { output_index: 0, item: call }),
      ev("response.function_call_arguments.delta", { item_id: 7, output_index: 0, delta: "{}" })
    ])
    assert.include(error.reason, "response.function_call_arguments.delta: item_id is not a string: 7")
  })
})

describe("Responses stream: fields only the lifecycle events carried", () => {
  it("keeps a field of response.created or response.in_progress that the terminal response lacks; the terminal one wins where both have it", () => {
    const done = success([
      created({ instructions: "Answer briefly.", x_gateway: { route: "eu-1" }, metadata: { run: "a" } }),
      ev("response.in_progress", { response: { ...base, status: "in_progress", output: [], service_tier: "default", metadata: { run: "a" } } }),
      completed([], { metadata: { run: "b" } })
    ]) as unknown as Obj
    assert.strictEqual(done["instructions"], "Answer briefly.")
    assert.deepStrictEqual(done["x_gateway"], { route: "eu-1" })
    assert.strictEqual(done["service_tier"], "default")
    assert.deepStrictEqual(done["metadata"], { run: "b" })
    assert.strictEqual(done["status"], "completed")
    assert.deepStrictEqual(done["usage"], usage)
  })
})

describe("Responses stream: streamed text a .done value replaced is kept", () => {
  const final = { ...call, arguments: "{\"city\":\"Paris\"}", status: "completed" }

  it("function_call_arguments.done wins, and the deltas' text differing from it is kept as streamed_arguments", () => {
    const events = (doneArgs: string) => [
      created(),
      ev("response.output_item.added", { output_index: 0, item: call }),
      ev("response.function_call_arguments.delta", { item_id: "fc_1", output_index: 0, delta: "{\"city\":" }),
      ev("response.function_call_arguments.delta", { item_id: "fc_1", output_index: 0, delta: "\"Par\"}" }),
      ev("response.function_call_arguments.done", { item_id: "fc_1", output_index: 0, arguments: doneArgs }),
      ev("response.output_item.done", { output_index: 0, item: { ...final, arguments: doneArgs } }),
      completed([{ ...final, arguments: doneArgs }])
    ]
    assert.deepStrictEqual<unknown>(success(events(final.arguments)).output, [{ ...final, streamed_arguments: "{\"city\":\"Par\"}" }])
    // deltas that add up to the final value leave nothing beside it
    assert.deepStrictEqual<unknown>(success(events("{\"city\":\"Par\"}")).output, [{ ...final, arguments: "{\"city\":\"Par\"}" }])
  })

  it("an output_item.done whose arguments differ from the deltas' keeps them as streamed_arguments, also in a snapshot", () => {
    const events = [
      created(),
      ev("response.output_item.added", { output_index: 0, item: call }),
      ev("response.function_call_arguments.delta", { item_id: "fc_1", output_index: 0, delta: "{\"city\":\"Lyon\"}" }),
      ev("response.output_item.done", { output_index: 0, item: final })
    ]
    const acc = OpenAiResponsesStream.make()
    for (const e of events) acc.push(e)
    assert.deepStrictEqual<unknown>(acc.snapshot()?.output, [{ ...final, streamed_arguments: "{\"city\":\"Lyon\"}" }])
    assert.deepStrictEqual<unknown>(success([...events, completed([final])]).output, [{ ...final, streamed_arguments: "{\"city\":\"Lyon\"}" }])
  })

  it("output_text.done wins, and the deltas' text differing from it is kept as streamed_text on the part", () => {
    const finalPart = { ...textPart, text: "Hello, world." }
    const finalMessage = { ...message, status: "completed", content: [finalPart] }
    const done = success([
      created(),
      ev("response.output_item.added", { output_index: 0, item: message }),
      ev("response.content_part.added", { item_id: "msg_1", output_index: 0, content_index: 0, part: textPart }),
      ev("response.output_text.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta: "Hello, " }),
      ev("response.output_text.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta: "wor" }),
      ev("response.output_text.done", { item_id: "msg_1", output_index: 0, content_index: 0, text: finalPart.text }),
      ev("response.content_part.done", { item_id: "msg_1", output_index: 0, content_index: 0, part: finalPart }),
      ev("response.output_item.done", { output_index: 0, item: finalMessage }),
      completed([finalMessage])
    ])
    assert.deepStrictEqual<unknown>(done.output, [{ ...finalMessage, content: [{ ...finalPart, streamed_text: "Hello, wor" }] }])
    assert.strictEqual(OpenAiResponsesStream.outputText(done), "Hello, world.")
  })

  it.effect("the adapter keeps the streamed arguments beside the call, as provider data", () =>
    Effect.gen(function*() {
      const { value } = yield* OpenAiResponses.fromEvents([
        created(),
        ev("response.output_item.added", { output_index: 0, item: call }),
        ev("response.function_call_arguments.delta", { item_id: "fc_1", output_index: 0, delta: "{\"city\":\"Lyon\"}" }),
        ev("response.function_call_arguments.done", { item_id: "fc_1", output_index: 0, arguments: final.arguments }),
        ev("response.output_item.done", { output_index: 0, item: final }),
        completed([final])
      ])
      const [toolCall] = Message.toolCallsOf(value.message)
      assert.deepStrictEqual(toolCall?.args, { city: "Paris" })
      assert.strictEqual(toolCall?.providerOptions?.["openai-responses"]?.["streamed_arguments"], "{\"city\":\"Lyon\"}")
      // written back into a request without it (the API takes no such field), reported; the model keeps it
      const written = yield* OpenAiResponses.toMessages([Message.user("Weather in Paris?"), value.message, Message.toolResultMessage("call_1", "get_weather", "18°C")])
      assert.notInclude(JSON.stringify(written.value), "streamed_")
      assert.deepStrictEqual(written.warnings.map((w) => w._tag), ["DroppedContent"])
      assert.include(written.warnings[0]?.message ?? "", "streamed_")
      assert.strictEqual(toolCall?.providerOptions?.["openai-responses"]?.["streamed_arguments"], "{\"city\":\"Lyon\"}")
    }))
})

// ---------------------------------------------------------------------------
// the invariant: however the deltas are cut, the stream reads as its final response
// ---------------------------------------------------------------------------

const intBetween = (minimum: number, maximum: number): Arbitrary.Arbitrary<number> =>
  Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum, maximum })))

const isObj = (u: unknown): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)

/** Where a delta event writes: consecutive deltas with the same place are one run of text. */
const placeOf = (e: Obj): string | undefined =>
  typeof e["type"] === "string" && e["type"].endsWith(".delta") && typeof e["delta"] === "string"
    ? JSON.stringify([e["type"], e["item_id"], e["output_index"], e["content_index"], e["summary_index"]])
    : undefined

/** The events with every run of deltas joined and cut again at `points` (fractions of a million of the run's text). */
const rechunk = (events: ReadonlyArray<unknown>, points: ReadonlyArray<number>): Array<unknown> => {
  const out: Array<unknown> = []
  let run = 0
  for (let i = 0; i < events.length;) {
    const e = events[i]
    const place = isObj(e) ? placeOf(e) : undefined
    if (place === undefined || !isObj(e)) {
      out.push(e)
      i++
      continue
    }
    let text = ""
    while (i < events.length && isObj(events[i]) && placeOf(events[i] as Obj) === place) text += (events[i++] as Obj)["delta"] as string
    // each run takes its own share of the cut points, so runs are cut differently
    const mine = points.filter((_, k) => k % 3 === run % 3).map((p) => Math.round((p / 1_000_000) * text.length))
    run++
    for (const piece of splitAt(text, mine)) out.push({ ...e, delta: piece })
  }
  return out
}

/** The fixture's stream with the terminal response leaving out `dropped` (fields `response.created` had the same), and a gateway field only `response.created` carries. */
const variant = (fixture: Fixture, dropped: ReadonlyArray<string>): { readonly events: Array<unknown>; readonly expected: Obj } => {
  const gateway = { x_gateway: { route: "eu-1", trace: ["a", "b"] } }
  const events = eventsOf(fixture).map((e) => {
    if (!isObj(e) || !isObj(e["response"])) return e
    if (e["type"] === "response.created") return { ...e, response: { ...e["response"], ...gateway } }
    if (e["type"] !== "response.completed") return e
    const response: Obj = { ...e["response"] }
    for (const k of dropped) delete response[k]
    return { ...e, response }
  })
  return { events, expected: { ...(fixture.expected as Obj), ...gateway } }
}

/** The top-level fields the terminal response may leave out: those `response.created` gave with the same value. */
const droppable = (fixture: Fixture): Array<string> => {
  const first = eventsOf(fixture)[0] as { readonly response: Obj }
  const expected = fixture.expected as Obj
  return Object.keys(expected).filter((k) => k !== "output" && JSON.stringify(first.response[k]) === JSON.stringify(expected[k]))
}

describe("Responses stream: however it is chunked, a stream reads as its final response", () => {
  const fixtures = Fixtures.all
  const cuts = Arbitrary.array(intBetween(0, 1_000_000), { maxLength: 24 })
  const drops = Arbitrary.array(intBetween(0, 1_000), { maxLength: 6 })

  it.prop(
    "re-chunking the deltas, and a terminal response that leaves out fields response.created gave, give the response and the message fromResponse gives",
    [intBetween(0, fixtures.length - 1), cuts, drops],
    ([k, points, pick]) => {
      const fixture = fixtures[k]!
      const keys = droppable(fixture)
      const dropped = pick.map((p) => keys[p % keys.length]!)
      const { events, expected } = variant(fixture, dropped)
      const streamed = rechunk(events, points) as ReadonlyArray<Event>
      const acc = OpenAiResponsesStream.make()
      for (const e of streamed) acc.push(e)
      assert.deepStrictEqual<unknown>(acc.done(), Result.succeed(expected))
      const fromStream = Effect.runSync(OpenAiResponses.fromEvents(streamed))
      const direct = Effect.runSync(OpenAiResponses.fromResponse(expected as unknown as OpenAiResponsesWire.Response))
      assert.deepStrictEqual(json([fromStream.value.message]), json([direct.value.message]))
      assert.deepStrictEqual(fromStream.value.providerData, direct.value.providerData)
      assert.strictEqual(fromStream.value.finishReason, direct.value.finishReason)
    },
    { timeout: 300_000, arbitrary: { runs: 200 } }
  )
})

describe("indexes that skip places, over many lists", () => {
  it("fill at most a bounded number of places in the whole stream: the rest of what they carry goes at the end of its list", () => {
    const acc = OpenAiResponsesStream.make()
    acc.push(created())
    const items = 4
    const events = 150
    for (let j = 0; j < items; j++) {
      acc.push(ev("response.output_item.added", { output_index: j, item: { type: "shell_call_output", id: `sh_${j}`, output: [] } }))
      // each delta skips 1,024 places past the end: a list's own limit would fill them all (150 x 1,024 a list)
      for (let i = 1; i <= events; i++) {
        acc.push(ev("response.shell_call_output_content.delta", { output_index: j, item_id: `sh_${j}`, command_index: i * 1025 - 1, delta: { stdout: "x" } }))
      }
    }
    const output = (acc.snapshot()?.output ?? []) as unknown as ReadonlyArray<{ readonly output: ReadonlyArray<unknown> }>
    const places = output.reduce((n, item) => n + item.output.length, 0)
    assert.isAtMost(places, 65_536 + items * events)
    // every delta's text is kept, somewhere in its item's list
    for (const item of output) assert.strictEqual(item.output.filter((entry) => (entry as { readonly stdout?: string }).stdout === "x").length, events)
    assert.isTrue(Result.isFailure(acc.done()))
  })
})
