/**
 * One test per defect the fuzz suite found, each the smallest input that
 * showed it. They run without the fuzz machinery, so a regression names the
 * behaviour it breaks.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Result } from "effect"
import * as Formats from "../../src/cli/Formats.js"
import { Block, Conversation, Message, Request } from "../../src/index.js"
import { countOpenAiChatRequest } from "../../src/exact/openAiChatRequest.js"
import { stringify, stringifyIndented } from "../../src/internal/json.js"
import {
  Anthropic,
  AnthropicStream,
  EffectAi,
  Gemini,
  GeminiStream,
  OpenAiChat,
  OpenAiChatStream,
  OpenAiResponses,
  OpenAiResponsesStream,
  type StreamAccumulator,
  ToolArguments
} from "../../src/providers/index.js"
import * as Payloads from "../providers/fixtures/adapterPayloads.js"
import * as ChatFixtures from "../providers/fixtures/openAiChat.js"
import * as ResponsesFixtures from "../providers/fixtures/openAiResponses.js"
import { eventsOf, sseOf } from "../providers/fixtures/sse.js"
import { deepValue, makeRng, randomJson } from "./generators.js"

/** The tag of the typed failure of an Effect that must fail without a defect. */
const failureTag = <A, E>(effect: Effect.Effect<A, E>): string => {
  const exit = Effect.runSyncExit(effect)
  assert.isTrue(Exit.isFailure(exit), "expected a failure")
  if (Exit.isSuccess(exit)) return ""
  assert.isFalse(Cause.hasDies(exit.cause), `a defect: ${String(Cause.squash(exit.cause))}`)
  return (Cause.squash(exit.cause) as { readonly _tag: string })._tag
}

const succeeds = <A, E>(effect: Effect.Effect<A, E>): A => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isFailure(exit)) return assert.fail(`expected a success, got ${String(exit.cause)}`)
  return exit.value
}

interface AnyStream {
  readonly make: () => StreamAccumulator.StreamAccumulator<never, unknown>
  readonly fromEvents: (events: Iterable<never>) => Effect.Effect<unknown, unknown>
}

const accumulators: ReadonlyArray<readonly [string, AnyStream]> = [
  ["OpenAiChatStream", OpenAiChatStream],
  ["AnthropicStream", AnthropicStream],
  ["OpenAiResponsesStream", OpenAiResponsesStream],
  ["GeminiStream", GeminiStream]
]

describe("fuzz regressions: token counts", () => {
  it("a usage figure beyond the safe integers is a MalformedPayload, not a defect", () => {
    for (const n of [1e21, 2 ** 53, 1e308]) {
      const anthropic = { ...Payloads.anthropicToolUseResponse, usage: { ...Payloads.anthropicToolUseResponse.usage, output_tokens: n } }
      assert.strictEqual(failureTag(Anthropic.fromResponse(anthropic as never)), "MalformedPayload")
      const chat = { ...Payloads.chatToolCallsResponse, usage: { ...Payloads.chatToolCallsResponse.usage, completion_tokens: n } }
      assert.strictEqual(failureTag(OpenAiChat.fromResponse(chat as never)), "MalformedPayload")
    }
  })
})

describe("fuzz regressions: prototype keys as values", () => {
  it("a Responses output item typed __proto__ or constructor is kept as provider data, not read as a hosted tool", () => {
    const base = ResponsesFixtures.functionCall.expected as { readonly output: ReadonlyArray<Record<string, unknown>> }
    for (const type of ["__proto__", "constructor", "toString"]) {
      const response = { ...base, output: [{ ...base.output[0], type }] }
      const { value } = succeeds(OpenAiResponses.fromResponse(response as never))
      assert.deepStrictEqual(value.message.content.map((b) => b._tag), ["ProviderData"])
    }
  })

  it("a Responses stream event typed constructor is an unknown event, not a text event", () => {
    const events = eventsOf(ResponsesFixtures.reasoningAndText)
    const acc = OpenAiResponsesStream.make()
    for (const e of events) acc.push(e as never)
    const clean = acc.done()
    const acc2 = OpenAiResponsesStream.make()
    for (const [i, e] of events.entries()) {
      acc2.push(e as never)
      if (i === 2) acc2.push({ type: "constructor", output_index: 0, content_index: 0, delta: "x", sequence_number: 99 } as never)
    }
    assert.deepStrictEqual(acc2.done(), clean)
  })

  it("a server tool named constructor gets its own result type, and a file named x.constructor is not a known extension", () => {
    const messages = [
      Message.user("go"),
      Message.assistant([
        Block.toolCall("srv_1", "constructor", {}, { providerExecuted: true }),
        Block.toolResult("srv_1", "constructor", "ok", false, { providerExecuted: true })
      ])
    ]
    const { value } = succeeds(Anthropic.toMessages(messages))
    const blocks = value.messages[1]!.content as ReadonlyArray<{ readonly type: string }>
    assert.strictEqual(blocks[1]!.type, "constructor_tool_result")
    const file = Message.user([Block.image("https://example.com/x.constructor")])
    const gemini = succeeds(Gemini.toMessages([file]))
    assert.deepStrictEqual(gemini.warnings.map((w) => w._tag), ["ConvertedContent"])
  })
})

describe("fuzz regressions: stream accumulators", () => {
  it("a value nested 10,000 levels deep in an event is copied out without overflowing the stack", () => {
    const deep = deepValue(10_000, "mixed")
    const events = eventsOf(ChatFixtures.text).map((e, i) => (i === 1 ? { ...(e as object), x_deep: deep } : e))
    const acc = OpenAiChatStream.make()
    for (const e of events) acc.push(e as never)
    assert.isDefined(acc.snapshot())
    const done = acc.done()
    assert.isTrue(Result.isSuccess(done))
    if (Result.isSuccess(done)) assert.strictEqual((done.success as unknown as { readonly x_deep: unknown }).x_deep !== undefined, true)
  })

  it("an event that holds a cycle ends as a result, never a hang or a stack overflow", () => {
    for (const [, Stream] of accumulators) {
      const cyclic: Record<string, unknown> = { type: "message_start", candidates: [], choices: [] }
      cyclic["self"] = cyclic
      const acc = Stream.make()
      acc.push(cyclic as never)
      acc.snapshot()
      assert.isTrue(Result.isResult(acc.done()))
    }
  })

  it("a kept value that cannot be copied (a proxy that throws) makes done() a StreamProtocolError, and snapshot() does not throw", () => {
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error("no keys") } })
    const events = eventsOf(ChatFixtures.text).map((e, i) => (i === 1 ? { ...(e as object), x_extra: proxy } : e))
    const acc = OpenAiChatStream.make()
    for (const e of events) acc.push(e as never)
    assert.doesNotThrow(() => acc.snapshot())
    const done = acc.done()
    assert.isTrue(Result.isFailure(done))
    if (Result.isFailure(done)) assert.include(done.failure.message, "could not be assembled: no keys")
  })

  it("a getter that throws a value without toString does not make push throw", () => {
    for (const [, Stream] of accumulators) {
      const acc = Stream.make()
      const event = { get type(): unknown { throw Object.create(null) }, get candidates(): unknown { throw Object.create(null) }, get choices(): unknown { throw Object.create(null) } }
      assert.doesNotThrow(() => acc.push(event as never))
      assert.strictEqual(Result.isFailure(acc.done()) ? "failed" : "ok", "failed")
    }
  })

  it("an event that is not an object is described readably even when it is nested too deeply to print", () => {
    const acc = AnthropicStream.make()
    acc.push(deepValue(10_000, "array") as never)
    const done = acc.done()
    assert.isTrue(Result.isFailure(done))
    if (Result.isFailure(done)) {
      assert.notInclude(done.failure.message, "[object Object]")
      // its first levels, bounded (it was "an array" when the whole value was written first)
      assert.include(done.failure.message, "an event is not an object: [[[[")
    }
  })

  it("an index past a million is not a valid index, so it never builds a huge array", () => {
    const anthropic = AnthropicStream.make()
    anthropic.push({ type: "message_start", message: { id: "m", type: "message", role: "assistant", model: "c", content: [], stop_reason: null, usage: {} } } as never)
    anthropic.push({ type: "content_block_start", index: 2 ** 31, content_block: { type: "text", text: "" } } as never)
    const a = anthropic.done()
    assert.isTrue(Result.isFailure(a) && a.failure.message.includes("without a valid index"))
    const responses = OpenAiResponsesStream.make()
    const [created] = eventsOf(ResponsesFixtures.functionCall)
    responses.push(created as never)
    responses.push({ type: "response.output_item.added", output_index: 4_294_967_294, item: { type: "message", id: "m", role: "assistant", content: [] } } as never)
    const r = responses.done()
    assert.isTrue(Result.isFailure(r) && r.failure.message.includes("without a valid output_index"))
  })

  it("a streamed Gemini argument path through __proto__ writes into the arguments, never into Object.prototype", () => {
    const acc = GeminiStream.make()
    const part = (fc: object) => ({ candidates: [{ content: { role: "model", parts: [{ functionCall: fc }] }, index: 0 }] })
    acc.push(part({ name: "f", partialArgs: [{ jsonPath: "$.__proto__.polluted", stringValue: "yes" }], willContinue: true }) as never)
    acc.push({ candidates: [{ content: { role: "model", parts: [{ functionCall: { partialArgs: [{ jsonPath: "$.constructor.prototype.polluted", stringValue: "yes" }] } }] }, finishReason: "STOP", index: 0 }] } as never)
    assert.isUndefined(({} as Record<string, unknown>)["polluted"])
    const done = acc.done()
    assert.isTrue(Result.isSuccess(done))
    if (Result.isSuccess(done)) {
      const args = (done.success.candidates![0]!.content!.parts![0]!.functionCall!.args ?? {}) as Record<string, unknown>
      assert.deepStrictEqual(Object.keys(args), ["__proto__", "constructor"])
      assert.deepStrictEqual(JSON.parse(JSON.stringify(args)), JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}'))
    }
  })

  it("a streamed Gemini argument path with an index past a million is unreadable, and the stream ends at once", () => {
    const acc = GeminiStream.make()
    acc.push({ candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "f", partialArgs: [{ jsonPath: "$.a[4294967294]", numberValue: 1 }] } }] }, finishReason: "STOP", index: 0 }] } as never)
    const done = acc.done()
    assert.isTrue(Result.isFailure(done) && done.failure.message.includes("unreadable jsonPath"))
  })

  it("fromEvents and fromSse over an iterable that throws fail with a StreamProtocolError, never a defect", () => {
    const throwing: Iterable<never> = {
      *[Symbol.iterator]() {
        yield* [] as Array<never>
        throw new Error("the transport broke")
      }
    }
    const adapters = [
      OpenAiChat.fromEvents(throwing),
      Anthropic.fromEvents(throwing),
      OpenAiResponses.fromEvents(throwing),
      Gemini.fromEvents(throwing),
      OpenAiChat.fromSse(throwing),
      Gemini.fromSse(throwing)
    ]
    for (const effect of adapters) assert.strictEqual(failureTag(effect), "StreamProtocolError")
    for (const [, Stream] of accumulators) assert.strictEqual(failureTag(Stream.fromEvents(throwing)), "StreamProtocolError")
    const brokenBody: Iterable<string> = {
      *[Symbol.iterator]() {
        yield sseOf(ChatFixtures.text).slice(0, 10)
        throw new Error("the transport broke")
      }
    }
    assert.strictEqual(failureTag(OpenAiChatStream.fromSse(brokenBody)), "StreamProtocolError")
  })
})

describe("fuzz regressions: adapters", () => {
  it("writing Gemini a call whose arguments did not parse reports it, as writing Anthropic does", () => {
    const call = Block.toolCall("c1", "f", {}, { rawArgs: '{"city": "Osl', parseError: "Unterminated string" })
    const messages = [Message.user("go"), Message.assistant([call]), Message.toolResultMessage("c1", "f", "ok")]
    const gemini = succeeds(Gemini.toMessages(messages))
    const anthropic = succeeds(Anthropic.toMessages(messages))
    assert.deepStrictEqual(gemini.warnings.map((w) => w._tag), ["ConvertedContent"])
    assert.deepStrictEqual(anthropic.warnings.map((w) => w._tag), ["ConvertedContent"])
    assert.strictEqual(failureTag(Gemini.toMessages(messages, { strict: true })), "UnsupportedContent")
  })

  it("effect/ai prompt options that are not JSON, or kept usage that is not token counts, are a MalformedPayload", () => {
    const prompt = succeeds(EffectAi.toPrompt([Message.user("hi"), Message.assistant("hello", { usage: { inputTokens: 3 } })])).value
    const withOptions = (options: unknown) => ({ ...prompt, content: [{ ...prompt.content[0]!, options }, prompt.content[1]!] })
    const throwing = { get "effect-agent-messages"(): unknown { throw new Error("getter") } }
    assert.strictEqual(failureTag(EffectAi.fromPrompt(withOptions(throwing) as never)), "MalformedPayload")
    assert.strictEqual(failureTag(EffectAi.fromPrompt(withOptions({ "effect-agent-messages": { metadata: { at: new Date(0) } } }) as never)), "MalformedPayload")
    for (const usage of [{ inputTokens: 1e21 }, { inputTokens: -1 }, { inputTokens: 1.5 }, { inputTokens: "3" }]) {
      const bad = { ...prompt, content: [prompt.content[0]!, { ...prompt.content[1]!, options: { "effect-agent-messages": { usage } } }] }
      assert.strictEqual(failureTag(EffectAi.fromPrompt(bad as never)), "MalformedPayload")
    }
  })
})

describe("fuzz regressions: the long run", () => {
  it("provider options keyed __proto__ go to effect/ai and back as data, never into Object.prototype", () => {
    const options = JSON.parse('{"anthropic":{"cache_control":{"type":"ephemeral"}},"__proto__":{"polluted":true,"role":"user"}}') as Block.ProviderOptions
    const result = Block.toolResult("c1", "f", "ok", false, { providerOptions: options })
    const messages = [Message.user("go"), Message.assistant([Block.toolCall("c1", "f", {})]), Message.tool(result)]
    const prompt = succeeds(EffectAi.toPrompt(messages)).value
    assert.isFalse(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"))
    assert.isFalse(Object.prototype.hasOwnProperty.call(Object.prototype, "role"))
    const back = succeeds(EffectAi.fromPrompt(prompt)).value
    const kept = (back[2] as unknown as { content: ReadonlyArray<{ providerOptions: object }> }).content[0]!.providerOptions
    assert.deepStrictEqual(Object.getOwnPropertyDescriptor(kept, "__proto__")?.value, { polluted: true, role: "user" })
  })

  it("a Gemini call whose args is an explicit null is written back with null args", () => {
    const contents = [
      { role: "user", parts: [{ text: "go" }] },
      { role: "model", parts: [{ functionCall: { name: "f", args: null } }] },
      { role: "user", parts: [{ functionResponse: { name: "f", response: { ok: true } } }] }
    ]
    const back = succeeds(Gemini.toMessages(succeeds(Gemini.fromMessages({ contents } as never)).value)).value as unknown as {
      contents: ReadonlyArray<{ parts: ReadonlyArray<{ functionCall?: { args?: unknown } }> }>
    }
    assert.strictEqual(back.contents[1]!.parts[0]!.functionCall!.args, null)
  })

  it("an output limit beyond the safe integers is kept in the body as it was, not typed (the typed field is a safe integer)", () => {
    const messages = [{ role: "user", content: "hi" }]
    const anthropic = succeeds(Anthropic.fromRequest({ model: "m", max_tokens: 1e21, messages })).value
    assert.isUndefined(anthropic.maxOutputTokens)
    assert.strictEqual((succeeds(Anthropic.toRequest(anthropic)).value as { max_tokens?: unknown }).max_tokens, 1e21)
    const chat = succeeds(OpenAiChat.fromRequest({ model: "m", max_completion_tokens: 2 ** 53, messages })).value
    assert.isUndefined(chat.maxOutputTokens)
    assert.isFalse(Request.isTokenLimit(2 ** 53))
    assert.isTrue(Request.isTokenLimit(2 ** 53 - 1))
  })
})

describe("fuzz regressions: tool arguments", () => {
  it("argument text holding a number too large for a double is kept as text that did not parse, never a defect", () => {
    for (const text of ['{"n": 1e999}', "[-1e999]", "1e999"]) {
      const parsed = ToolArguments.parse(text)
      assert.strictEqual(parsed.rawArgs, text)
      assert.include(parsed.parseError ?? "", "too large")
      const call = succeeds(ToolArguments.toolCall({ id: "c1", name: "f" }, text))
      assert.strictEqual(call.block.rawArgs, text)
      assert.strictEqual(failureTag(ToolArguments.toolCall({ id: "c1", name: "f" }, text, { mode: "strict" })), "InvalidToolArguments")
    }
    const chat = [{ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"n": 1e999}' } }] }]
    const { value, warnings } = succeeds(OpenAiChat.fromMessages(chat))
    assert.deepStrictEqual(warnings.map((w) => w._tag), ["RepairedToolArguments"])
    assert.strictEqual(Block.argsText(Message.toolCallsOf(value[0]!)[0]!), '{"n": 1e999}')
  })
})

describe("fuzz regressions: core decoders", () => {
  it("a list of messages that throws when read is a MessageDecodeError from decodeAll, decode and decodeEach, never a defect", () => {
    const lists: ReadonlyArray<ReadonlyArray<unknown>> = [
      new Proxy([{ role: "user", content: "hi" }], { get: (t, k) => (k === "length" ? Reflect.get(t, k) : (() => { throw new Error("element") })()) }),
      new Proxy([], { get: (t, k) => (k === "length" ? (() => { throw new Error("length") })() : Reflect.get(t, k)) }),
      Object.defineProperty([{ role: "user", content: "hi" }], 0, { get: () => { throw Object.create(null) } })
    ]
    for (const list of lists) {
      assert.strictEqual(failureTag(Message.decodeAll(list)), "MessageDecodeError")
      assert.strictEqual(failureTag(Conversation.decode(list)), "MessageDecodeError")
      assert.strictEqual(failureTag(Conversation.decodeEach(list)), "MessageDecodeError")
    }
  })
})

describe("fuzz regressions: revoked proxies", () => {
  it("a revoked proxy, which throws even when asked whether it is an array, is a MessageDecodeError from every list decoder", () => {
    const { proxy, revoke } = Proxy.revocable([], {})
    revoke()
    assert.strictEqual(failureTag(Message.decodeAll(proxy)), "MessageDecodeError")
    assert.strictEqual(failureTag(Conversation.decode(proxy)), "MessageDecodeError")
    assert.strictEqual(failureTag(Conversation.decodeEach(proxy)), "MessageDecodeError")
    assert.strictEqual(failureTag(Message.decode(proxy)), "MessageDecodeError")
  })
})

describe("fuzz regressions: the command line's writer", () => {
  it("writes what JSON.stringify(value, null, 2) writes, and a value too deep for it on one line, with the same data", () => {
    const deep = deepValue(10_000, "mixed")
    assert.throws(() => JSON.stringify(deep, null, 2))
    for (let seed = 0; seed < 300; seed++) {
      const value = randomJson(makeRng(seed), 5)
      assert.strictEqual(stringifyIndented(value, 2), JSON.stringify(value, null, 2))
      // the same value under the deep one: written on one line, exactly as JSON.stringify writes it compactly
      const holes = { a: undefined, b: [undefined, () => 1, 2], c: value, d: Symbol("s") }
      assert.strictEqual(stringifyIndented([holes, deep], 2), `[${JSON.stringify(holes)},${stringify(deep)}]`)
    }
  })

  it("the command line writes a long transcript in pieces no longer than a message, in every format and shape", () => {
    // a million messages written as one string passed what V8 allows (RangeError: Invalid string length)
    const messages = Array.from({ length: 3000 }, (_, i) =>
      i % 3 === 0 ? Message.user(`step ${i}`) : i % 3 === 1 ? Message.assistant([Block.toolCall(`c${i}`, "read_file", { path: `f${i}` })]) : Message.toolResultMessage(`c${i - 1}`, "read_file", "ok"))
    const request = Request.make(messages, { model: "m" })
    for (const format of Formats.FormatName.literals) {
      for (const shape of ["messages", "body", "jsonl"] as const) {
        if (shape === "jsonl" && format !== "canonical") continue
        const chunks = [...succeeds(Formats.write(request, format, shape)).chunks]
        assert.isAtLeast(chunks.length, 3000, `${format} ${shape}`)
        assert.isBelow(Math.max(...chunks.map((c) => c.length)), 1000, `${format} ${shape}`)
        const text = chunks.join("")
        if (shape === "jsonl") assert.strictEqual(text, Conversation.encodeJsonl(messages))
        else assert.strictEqual(text, `${JSON.stringify(succeeds(Formats.writeValue(request, format, shape)).value, null, 2)}\n`)
      }
    }
  })

  it("writing a transcript whose tool arguments are nested 10,000 levels deep succeeds in every format", () => {
    const deep = deepValue(10_000, "object")
    const request = Request.make([Message.user("go"), Message.assistant([Block.toolCall("c1", "f", deep)]), Message.toolResultMessage("c1", "f", "ok")])
    for (const format of Formats.FormatName.literals) {
      for (const shape of ["messages", "body"] as const) {
        const written = succeeds(Formats.write(request, format, shape))
        assert.isAbove([...written.chunks].join("").length, 10_000)
      }
    }
  })
})

describe("fuzz regressions: the exact request counter", () => {
  it.effect("counts a body built in code with unreadable parts as far as it can be read, never a defect", () =>
    Effect.gen(function*() {
      const count = (body: unknown) => Effect.map(countOpenAiChatRequest(body as never, { encoding: "o200k" }), (t) => t.total)
      const { proxy, revoke } = Proxy.revocable({}, {})
      revoke()
      const empty = yield* count({})
      // a whole body that cannot be read is an empty request
      assert.strictEqual(yield* count({ get messages(): unknown { throw new Error("getter") } }), empty)
      assert.strictEqual(yield* count(new Proxy({}, { get: () => { throw new Error("proxy get") } })), empty)
      assert.strictEqual(yield* count(proxy), empty)
      // a message whose content throws is counted without it; the message after it is counted in full
      const hostile = { role: "user", get content(): unknown { throw new Error("getter") } }
      assert.strictEqual(
        yield* count({ messages: [hostile, { role: "user", content: "hi" }] }),
        yield* count({ messages: [{ role: "user" }, { role: "user", content: "hi" }] })
      )
      // a cycle, a BigInt and a function are left out, as JSON.stringify would fail or leave them out
      const cyclic: Record<string, unknown> = { role: "user", content: "hi" }
      cyclic["self"] = cyclic
      assert.strictEqual(yield* count({ messages: [cyclic, { role: "user", content: "x", n: 1n, f: () => 1 }] }), yield* count({ messages: [{ role: "user", content: "hi" }, { role: "user", content: "x" }] }))
    }))

  it.effect("counts a parallel call whose function name is 12 million letters and a lone surrogate, never a defect", () =>
    Effect.gen(function*() {
      // the tokenizer's expression runs out of room on such a piece in a string with a character outside Latin-1
      // (found with 20 million): the text is counted in parts
      const name = `${"a".repeat(12_000_000)}\ude00`
      const call = (id: string, callName: string) => ({ id, type: "function", function: { name: callName, arguments: "{}" } })
      const body = (callName: string) => ({
        model: "gpt-4o",
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "x", tool_calls: [call("c1", "read_file"), call("c2", callName)] },
          { role: "tool", tool_call_id: "c1", content: "a" },
          { role: "tool", tool_call_id: "c2", content: "b" }
        ]
      })
      const total = (yield* countOpenAiChatRequest(body(name) as never, { encoding: "o200k" })).total
      const short = (yield* countOpenAiChatRequest(body("a\ude00") as never, { encoding: "o200k" })).total
      // the letters are a token every eight, give or take a few where a part ends inside the name
      assert.isTrue(Math.abs(total - short - 1_500_000) <= 10, `${total} vs ${short}`)
    }), 300_000)
})

describe("fuzz regressions: values nested too deeply to print", () => {
  const deep = deepValue(10_000, "array")
  const choice = (index: unknown) => ({ index, message: { role: "assistant", content: "Hi" }, finish_reason: "stop", logprobs: null })
  const completion = (choices: ReadonlyArray<unknown>) => ({ id: "chatcmpl-1", object: "chat.completion", created: 1, model: "gpt-4o-mini", choices })

  it("a Chat Completions choice whose index is an array 10,000 deep is not choice 0: a MalformedPayload alone, never a defect", () => {
    assert.strictEqual(failureTag(OpenAiChat.fromResponse(completion([choice(deep)]) as never)), "MalformedPayload")
  })

  it("beside choice 0, such a choice is reported as left out, its index written bounded", () => {
    const { value, warnings } = succeeds(OpenAiChat.fromResponse(completion([choice(0), choice(deep)]) as never))
    assert.strictEqual(value.message.content.length, 1)
    const dropped = warnings.find((w) => w._tag === "DroppedContent")
    assert.isDefined(dropped)
    assert.include(dropped?.message ?? "", "choice [[[[")
    assert.isBelow(dropped?.message.length ?? Infinity, 400)
  })

  it("a Gemini stream error whose code is an array 10,000 deep is a ProviderStreamError with the code written bounded", () => {
    const acc = GeminiStream.make()
    acc.push({ error: { code: deep, message: "quota" } } as never)
    const done = acc.done()
    assert.isTrue(Result.isFailure(done))
    if (Result.isFailure(done)) {
      assert.strictEqual(done.failure._tag, "ProviderStreamError")
      const failure = done.failure as { readonly errorType?: string; readonly code?: string }
      assert.isTrue(failure.errorType?.startsWith("[[[[") === true)
      assert.isBelow(failure.code?.length ?? Infinity, 400)
    }
  })

  it("a Gemini stream error keeps a numeric code as its text", () => {
    const acc = GeminiStream.make()
    acc.push({ error: { code: 429, message: "Resource exhausted" } } as never)
    const done = acc.done()
    assert.isTrue(Result.isFailure(done))
    if (Result.isFailure(done)) assert.deepStrictEqual([(done.failure as { readonly code?: string }).code, (done.failure as { readonly errorType?: string }).errorType], ["429", "429"])
  })
})
