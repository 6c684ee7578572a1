/**
 * The concrete claims of the adapters' and stream readers' doc comments, and
 * of the README's sections on conversion, streams and effect/ai, each checked
 * as written: a "never" or an "always" as a property, a table row by the
 * conversion it describes, a value an example shows by running the example.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { Arbitrary, Effect, Result, Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import { Block, Message, Request } from "../../src/index.js"
import { ANTHROPIC_HINTS, OPENAI_CHAT_HINTS } from "../../src/internal/hint.js"
import { Anthropic, EffectAi, Gemini, OpenAiChat, OpenAiChatStream, OpenAiResponses, StreamAccumulator } from "../../src/providers/index.js"
import type { Converted } from "../../src/providers/Conversion.js"
import { message } from "../arbitraries.js"
import { ok } from "./adapterHelpers.js"
import { anthropicPrompt, chatMessages } from "./adapterArbitraries.js"
import { geminiMessages, responsesItems } from "./responsesGeminiArbitraries.js"

const runs = { arbitrary: { runs: 200 }, timeout: 120_000 }

type Warned = Converted<unknown>
const writers: ReadonlyArray<readonly [string, (messages: ReadonlyArray<Message.Message>) => Warned]> = [
  ["openai-chat", (m) => ok(OpenAiChat.toMessages(m))],
  ["anthropic", (m) => ok(Anthropic.toMessages(m))],
  ["openai-responses", (m) => ok(OpenAiResponses.toMessages(m))],
  ["gemini", (m) => ok(Gemini.toMessages(m))]
]

/** Every object key of a JSON value, at any depth. */
const keysOf = (value: unknown, out: Array<string> = []): Array<string> => {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out)
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.push(k)
      keysOf(v, out)
    }
  }
  return out
}

const withMetadata = (messages: ReadonlyArray<Message.Message>, metadata: Record<string, string>): Array<Message.Message> =>
  Effect.runSync(Message.decodeAll(Message.encodeAll(messages).map((m) => ({ ...m, metadata }))))

const conversation = Arbitrary.array(message, { maxLength: 6 })

describe("README: what is never written to the wire", () => {
  it.prop("metadata is never sent anywhere", [conversation], ([messages]) => {
    const marked = withMetadata(messages, { ticket: "metadata-marker-4711" })
    for (const [name, write] of writers) {
      const text = JSON.stringify(write(marked).value)
      assert.isFalse(text.includes("metadata-marker-4711"), `${name} sent the metadata: ${text}`)
    }
  }, runs)

  it.prop("metadata changes neither what is written nor what is reported", [conversation], ([messages]) => {
    const marked = withMetadata(messages, { ticket: "metadata-marker-4711" })
    for (const [name, write] of writers) {
      const plain = write(messages)
      const with_ = write(marked)
      expect([name, JSON.stringify(with_.value), with_.warnings.map((w) => w.message)])
        .toEqual([name, JSON.stringify(plain.value), plain.warnings.map((w) => w.message)])
    }
  }, runs)

  it.prop("hints (a name with one $ in front) are never written to the wire", [conversation], ([messages]) => {
    for (const [name, write] of writers) {
      const dollar = keysOf(write(messages).value).filter((k) => k.startsWith("$"))
      assert.deepStrictEqual(dollar, [], name)
    }
  }, runs)
})

const keys = ["openai-chat", "anthropic", "openai-responses", "gemini"] as const

/** Blocks whose provider data says whose they are: these are another provider's when they carry its data. */
const decides = (b: Record<string, unknown>): boolean =>
  b["_tag"] === "ProviderData" || b["providerExecuted"] === true

/** The conversation with a field of each provider but `target` on every message and block. */
const withForeignOptions = (messages: ReadonlyArray<Message.Message>, target: string): Array<Message.Message> => {
  const add = (o: Record<string, unknown>): Record<string, unknown> => {
    const options: Record<string, unknown> = { ...(o["providerOptions"] as Record<string, unknown> | undefined) }
    for (const k of keys) if (k !== target) options[k] = { ...(options[k] as object | undefined), foreign_field: "foreign-marker" }
    return { ...o, providerOptions: options }
  }
  const encoded = Message.encodeAll(messages).map((m) => {
    const content = (m as { content: ReadonlyArray<Record<string, unknown>> }).content.map((b) => (decides(b) ? b : add(b)))
    return add({ ...m, content })
  })
  return Effect.runSync(Message.decodeAll(encoded))
}

describe("README: other providers' data is ignored without a warning", () => {
  it.prop("another provider's options on a message or block change neither what is written nor what is reported", [conversation], ([messages]) => {
    for (const [name, write] of writers) {
      const plain = write(messages)
      const foreign = write(withForeignOptions(messages, name))
      expect([name, JSON.stringify(foreign.value), foreign.warnings.map((w) => w.message)])
        .toEqual([name, JSON.stringify(plain.value), plain.warnings.map((w) => w.message)])
    }
  }, runs)
})

describe("README: a provider-executed call is the provider's whose data it carries", () => {
  it("a server tool call and its result with another provider's options are that provider's: left out of Anthropic, reported", () => {
    const ran = (providerOptions?: Block.ProviderOptions) => [
      Message.assistant([
        Block.toolCall("srvtoolu_1", "web_search", { query: "effect" }, { providerExecuted: true, ...(providerOptions === undefined ? {} : { providerOptions }) }),
        Block.toolResult("srvtoolu_1", "web_search", [Block.json([{}])], false, { providerExecuted: true }),
        Block.text("Found it.")
      ])
    ]
    const own = ok(Anthropic.toMessages(ran()))
    expect([own.warnings, JSON.stringify(own.value)]).toEqual([
      [],
      '{"messages":[{"role":"assistant","content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"effect"}},{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{}]},{"type":"text","text":"Found it."}]}]}'
    ])
    const geminis = ok(Anthropic.toMessages(ran({ gemini: { note: "ran by Gemini" } })))
    expect(geminis.warnings.map((w) => w.message)).toEqual([
      'messages[0].content[0]: the provider-executed call "web_search" was left out: another provider ran it; Anthropic cannot replay it as a server tool of its own',
      'messages[0].content[1]: the result of the provider-executed call "web_search" was left out: another provider ran it'
    ])
  })
})

describe("README: hints are never written to the wire, whatever format they were read from", () => {
  const read: ReadonlyArray<readonly [string, Arbitrary.Arbitrary<unknown>, (payload: unknown) => ReadonlyArray<Message.Message>]> = [
    ["openai-chat", chatMessages, (p) => ok(OpenAiChat.fromMessages(p)).value],
    ["anthropic", anthropicPrompt, (p) => ok(Anthropic.fromMessages(p)).value],
    ["openai-responses", responsesItems, (p) => ok(OpenAiResponses.fromMessages(p)).value],
    ["gemini", geminiMessages, (p) => ok(Gemini.fromMessages(p)).value]
  ]
  for (const [from, payloads, fromMessages] of read) {
    it.prop(`read from ${from}, written to every format: a $ name on the wire is one the ${from} payload itself held`, [payloads], ([payload]) => {
      const own = new Set(keysOf(payload).filter((k) => k.startsWith("$")))
      const messages = fromMessages(payload)
      for (const [to, write] of writers) {
        const dollar = keysOf(write(messages).value).filter((k) => k.startsWith("$") && !own.has(k))
        assert.deepStrictEqual(dollar, [], `${from} -> ${to}`)
      }
    }, runs)
  }
})

/** The module doc comment of a source file (its first doc comment). */
const moduleDocOf = (file: string): string => {
  const text = fs.readFileSync(new URL(`../../src/providers/${file}`, import.meta.url), "utf8")
  return text.slice(text.indexOf("/**"), text.indexOf("*/") + 2)
}

/** The names of a `const NAME = new Set([...])` of a source file. */
const setOf = (file: string, name: string): Array<string> => {
  const text = fs.readFileSync(new URL(`../../src/providers/${file}`, import.meta.url), "utf8")
  const found = new RegExp(`const ${name} = new Set\\(\\[([^\\]]*)\\]\\)`).exec(text)
  assert(found !== null, `${file} has no set ${name}`)
  return [...found[1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!)
}

describe("the adapters' module docs: the hints each adapter keeps", () => {
  it("each module doc names every hint its adapter keeps, with its $", () => {
    const named = (doc: string, hint: string): boolean => doc.includes(`\`$${hint}`)
    const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
      ["OpenAiChat.ts", [...OPENAI_CHAT_HINTS]],
      ["Anthropic.ts", [...ANTHROPIC_HINTS]],
      ["OpenAiResponses.ts", setOf("OpenAiResponses.ts", "hints")]
    ]
    for (const [file, hints] of cases) {
      const doc = moduleDocOf(file)
      expect([file, hints.filter((h) => !named(doc, h))]).toEqual([file, []])
    }
    // Gemini's doc gives the names of its list without the `$` (it says so), the first mentions with it
    const gemini = moduleDocOf("Gemini.ts")
    const missing = [...setOf("Gemini.ts", "hints"), ...setOf("Gemini.ts", "requestHints")].filter((h) => !gemini.includes(`\`${h}\``) && !named(gemini, h))
    expect(missing).toEqual([])
    expect([named(gemini, "sameContent"), gemini.includes("providerOptions.gemini.$syntheticId")]).toEqual([true, true])
  })

  it.effect("Anthropic: a server tool without a name is read with $noName and written back without one", () =>
    Effect.gen(function*() {
      const body = {
        model: "claude-sonnet-4-5",
        max_tokens: 1024,
        messages: [{ role: "user", content: "List the open issues." }],
        mcp_servers: [{ type: "url", url: "https://mcp.example.com/sse", name: "tracker" }],
        tools: [{ type: "mcp_toolset", mcp_server_name: "tracker" }]
      }
      const { value: request } = yield* Anthropic.fromRequest(body)
      expect([request.tools?.[0]?.name, request.tools?.[0]?.providerOptions?.["anthropic"]]).toEqual(["tracker", { $noName: true }])
      const { value: back, warnings } = yield* Anthropic.toRequest(request)
      expect([warnings, (back as unknown as { tools: unknown }).tools]).toEqual([[], [{ type: "mcp_toolset", mcp_server_name: "tracker" }]])
    }))

  it.effect("Responses: a body without input is read with $noInput and written back without one", () =>
    Effect.gen(function*() {
      const { value: request } = yield* OpenAiResponses.fromRequest({ model: "gpt-5", previous_response_id: "resp_1" })
      expect(request.providerOptions?.[OpenAiResponses.key]).toEqual({ previous_response_id: "resp_1", $noInput: true })
      const { value: back } = yield* OpenAiResponses.toRequest(request)
      expect(back).toEqual({ model: "gpt-5", previous_response_id: "resp_1" })
    }))

  it.effect("Responses: a function tool read with strict unset keeps $strictUnset and goes back unset; one built without strict goes out with strict: false", () =>
    Effect.gen(function*() {
      const tool = { type: "function", name: "get_weather", parameters: { type: "object", properties: {} } }
      const { value: request } = yield* OpenAiResponses.fromRequest({ model: "gpt-5", input: "hi", tools: [tool] })
      expect(request.tools?.[0]?.providerOptions?.[OpenAiResponses.key]).toEqual({ $strictUnset: true })
      const { value: back } = yield* OpenAiResponses.toRequest(request)
      // unset: the SDK's type asks for the field, and null is unset
      expect((back as unknown as { tools: unknown }).tools).toEqual([{ ...tool, strict: null }])
      const { value: built } = yield* OpenAiResponses.toRequest(Request.make([Message.user("hi")], { tools: [Request.tool("get_weather", { parameters: tool.parameters })] }))
      expect((built as unknown as { tools: unknown }).tools).toEqual([{ ...tool, strict: false }])
    }))

  it.effect("Gemini: a call without id gets one marked $syntheticId, its response too, the user's next words $sameContent; none is written back", () =>
    Effect.gen(function*() {
      const contents = [
        { role: "user", parts: [{ text: "Weather?" }] },
        { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "4°C" } } }, { text: "And tomorrow?" }] }
      ]
      const { value: messages } = yield* Gemini.fromMessages({ contents })
      const [, call, result, next] = messages
      assert(call?.role === "assistant" && result?.role === "tool" && next?.role === "user" && call.content[0]?._tag === "ToolCall")
      expect([call.content[0].providerOptions?.[Gemini.key], result.content[0]?.providerOptions?.[Gemini.key], next.providerOptions?.[Gemini.key]])
        .toEqual([{ $syntheticId: true }, { $syntheticId: true }, { $sameContent: true }])
      const { value: back, warnings } = yield* Gemini.toMessages(messages)
      expect([warnings, back]).toEqual([[], { contents }])
    }))
})

describe("doc examples the example checker only type-checks", () => {
  it("EffectAi.fromToolkit: a schema-typed tool's parameters are its JSON Schema", () => {
    const GetWeather = Tool.make("get_weather", { description: "Current weather for a city", parameters: Schema.Struct({ city: Schema.String }) })
    const { value: definitions } = EffectAi.fromToolkit(Toolkit.make(GetWeather))
    expect(definitions[0]?.parameters).toMatchObject({ type: "object", properties: { city: { type: "string" } }, required: ["city"] })
  })

  it("StreamAccumulator.runners: the Effect helpers over an accumulator of one's own", () => {
    const counting = (): StreamAccumulator.StreamAccumulator<unknown, number> => {
      let n = 0
      return {
        provider: "openai-chat",
        push: () => { n++ },
        pushData: () => { n++ },
        feed: () => {},
        snapshot: () => n,
        done: () => Result.succeed(n),
        events: () => n
      }
    }
    const { fromEvents } = StreamAccumulator.runners(counting)
    expect(Effect.runSync(fromEvents(["a", "b"]))).toBe(2)
  })

  it("OpenAiChatStream: SSE text fed to an accumulator adds up to a chat.completion", () => {
    const acc = OpenAiChatStream.make()
    acc.feed('data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}\n\n')
    acc.feed("data: [DONE]\n\n")
    const completion = acc.done()
    assert(Result.isSuccess(completion))
    expect(completion.success).toMatchObject({ object: "chat.completion", choices: [{ message: { content: "Hi" } }] })
  })
})

describe("README: what each format cannot express, row by row", () => {
  const q = Message.user("Weather in Oslo?")
  const call = Block.toolCall("call_1", "get_weather", { city: "Oslo" })
  const answered = (content: Block.ToolResultContent, isError = false) => [q, Message.assistant([call]), Message.toolResultMessage("call_1", "get_weather", content, isError)]
  const citation = { type: "char_location", cited_text: "Oslo", document_index: 0, document_title: null, start_char_index: 0, end_char_index: 4 }
  const D = "DroppedContent", C = "ConvertedContent"
  // the warnings of each format, in the order of `writers`; undefined where the table has no row for that format
  const rows: ReadonlyArray<readonly [string, ReadonlyArray<Message.Message>, ReadonlyArray<ReadonlyArray<string> | undefined>]> = [
    ["refusal: carried / sent as text / as text without an item id / as text", [q, Message.assistant([Block.refusal("I can't help with that.")])], [[], [C], [C], [C]]],
    ["an empty text block: carried / left out", [q, Message.assistant([Block.text(""), Block.text("Hi")])], [[], [D], undefined, undefined]],
    ["text after a tool call: sent before the calls, reported / carried", [q, Message.assistant([call, Block.text("Checking.")]), Message.toolResultMessage("call_1", "get_weather", "4°C")], [[C], [], undefined, undefined]],
    ["a system message after the start: in place / moved to system / in place / user text", [q, Message.assistant("Hi"), Message.system("Be brief."), Message.user("More?")], [[], [C], [], [C]]],
    ["two messages of one role in a row: carried / merged", [Message.user("a"), Message.user("b")], [[], [C], undefined, undefined]],
    ["the error flag of a text result: left out / is_error / left out / { error }", answered("no such city", true), [[D], [], [D], []]],
    ["the error flag of a JSON result, for Gemini: left out", answered([Block.json({ code: 404 })], true), [undefined, undefined, undefined, [D]]],
    ["JSON values in a tool result: JSON text everywhere but Gemini, where a non-object is text too", answered([Block.json([1, 2])]), [[C], [C], [C], [C]]],
    ["a JSON object result: Gemini's response itself", answered([Block.json({ celsius: 4 })]), [[C], [C], [C], []]],
    ["files in a tool result: left out / carried / carried / carried", answered([Block.image("https://example.com/map.png", { mediaType: "image/png" })]), [[D], [], [], []]],
    ["a message's name: carried / left out / left out / left out", [Message.user("hi", { name: "alice" })], [[], [D], [D], [D]]],
    ["image detail and a file's name: carried / left out / carried / the name carried, the detail left out when no model is named", [Message.user([Block.image("https://example.com/a.png", { detail: "high" }), Block.document(Block.base64("JVBERi0x"), { filename: "a.pdf" })])], [[], [D, D], [], [D]]],
    ["an image by file id, a document by URL: left out / carried / carried / the file id left out", [Message.user([Block.image(Block.fileId("file_1"), { mediaType: "image/png" }), Block.document(Block.url("https://example.com/a.pdf")), Block.text("Compare.")])], [[D, D], [], [], [D]]],
    ["audio: WAV and MP3 carried, other left out / left out / left out / carried", [Message.user([Block.audio("UklGRg==", "audio/wav"), Block.audio("SUQz", "audio/mpeg"), Block.audio("T2dn", "audio/ogg"), Block.text("Transcribe.")])], [[D], [D, D, D], [D, D, D], []]],
    ["redacted thinking: left out / carried / left out / left out", [q, Message.assistant([Block.redactedThinking("EmwKAhgB"), Block.text("Hi")])], [[D], [], [D], [D]]],
    ["Anthropic citations: left out / carried / left out without an item id / left out", [q, Message.assistant([Block.text("Oslo", { citations: [citation] })])], [[D], [], [D], [D]]],
    ["a tool call id over 40 characters: rewritten / carried / (over 64) rewritten / carried", answeredBy("c".repeat(70)), [[C], [], [C], []]],
    ["a tool call id outside letters, digits, _ and -: carried / rewritten", answeredBy("call.1"), [[], [C], undefined, undefined]]
  ]
  function answeredBy(id: string): Array<Message.Message> {
    return [q, Message.assistant([Block.toolCall(id, "get_weather", {})]), Message.toolResultMessage(id, "get_weather", "4°C")]
  }
  for (const [row, messages, expected] of rows) {
    it(row, () => {
      writers.forEach(([name, write], i) => {
        const tags = expected[i]
        if (tags === undefined) return
        const { warnings } = write(messages)
        expect([name, warnings.filter((w) => !w.message.includes("nothing in it could be carried")).map((w) => w._tag)]).toEqual([name, tags])
      })
    })
  }

  it("a rewritten Chat id depends only on the id: a result sent in a later request gets the id its call was sent with", () => {
    const id = "toolu_" + "x".repeat(60)
    const first = ok(OpenAiChat.toMessages([q, Message.assistant([Block.toolCall(id, "get_weather", {})])])).value
    const later = ok(OpenAiChat.toMessages([Message.toolResultMessage(id, "get_weather", "4°C")])).value
    const sent = (first[1] as { tool_calls: ReadonlyArray<{ id: string }> }).tool_calls[0]!.id
    expect([sent.length <= 40, (later[0] as { tool_call_id: string }).tool_call_id]).toEqual([true, sent])
  })
})

describe("README: tool-argument text over 32,768 characters is not repaired, only kept", () => {
  it.effect("valid JSON that is not an object is named as what it is, not as text that did not parse", () =>
    Effect.gen(function*() {
      const { warnings } = yield* OpenAiChat.fromMessages([
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: "[1,2]" } }] }
      ])
      expect(warnings.map((w) => w.message)).toEqual([
        'messages[0].content[0]: the arguments of tool call "call_1" (search) were not a valid JSON object (expected a JSON object, got an array); repaired, the original text is kept'
      ])
    }))

  it.effect("the warning says so, instead of saying the text was repaired", () =>
    Effect.gen(function*() {
      const text = `{'q': '${"x".repeat(40_000)}'`
      const { value, warnings } = yield* OpenAiChat.fromMessages([
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: text } }] }
      ])
      const [block] = (value[0] as Message.AssistantMessage).content
      assert(block?._tag === "ToolCall")
      expect([block.args, block.rawArgs === text]).toEqual([{}, true])
      expect(warnings.map((w) => w.message.replace(/ \(Expected .*\); /, " (...); "))).toEqual([
        'messages[0].content[0]: the arguments of tool call "call_1" (search) were not a valid JSON object (...); too long to repair: the arguments are {}, the original text is kept'
      ])
    }))

  it.effect("text at the limit is still repaired, and the warning says that", () =>
    Effect.gen(function*() {
      const text = `{'q': '${"x".repeat(32_768 - 9)}'`
      expect(text.length).toBe(32_767)
      const { value, warnings } = yield* OpenAiChat.fromMessages([
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: text } }] }
      ])
      const [block] = (value[0] as Message.AssistantMessage).content
      assert(block?._tag === "ToolCall")
      expect(block.args).toEqual({ q: "x".repeat(32_768 - 9) })
      expect(warnings[0]?.message.endsWith("; repaired, the original text is kept")).toBe(true)
    }))
})

describe("README: files in an assistant message, for Responses", () => {
  it.effect("a generated image read from an image_generation_call goes back as one; another file is left out and reported", () =>
    Effect.gen(function*() {
      const generated = { type: "image_generation_call", id: "ig_1", status: "completed", result: "iVBORw0KGgo=" }
      const { value: read } = yield* OpenAiResponses.fromMessages([{ role: "user", content: "Draw a cat." }, generated])
      const { value: back, warnings } = yield* OpenAiResponses.toMessages(read)
      expect([warnings, back[1]]).toEqual([[], generated])
      const other = ok(OpenAiResponses.toMessages([Message.user("Draw a cat."), Message.assistant([Block.image(Block.base64("iVBORw0KGgo="), { mediaType: "image/png" }), Block.text("Here.")])]))
      expect(other.warnings.map((w) => w._tag)).toEqual(["DroppedContent"])
    }))
})
