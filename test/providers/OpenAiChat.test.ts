import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Cause, Effect, Result, Schema } from "effect"
import { Block, Message, Request } from "../../src/index.js"
import { message as anyMessage } from "../arbitraries.js"
import { Anthropic, OpenAiChat, OpenAiChatWire as Wire } from "../../src/providers/index.js"
import { chatConversation, chatMessages, normalize } from "./adapterArbitraries.js"
import * as Payloads from "./fixtures/adapterPayloads.js"
import * as ChatStreams from "./fixtures/openAiChat.js"
import { dataOf, type Fixture, sseOf } from "./fixtures/sse.js"

const tags = (warnings: ReadonlyArray<{ readonly _tag: string }>): Array<string> => warnings.map((w) => w._tag)

const call = (id: string, name: string, args: Block.JsonObject = {}) => Block.toolCall(id, name, args)

describe("OpenAiChat.toMessages", () => {
  it.effect("an assistant message that only calls tools has content null and its arguments as JSON text", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.toMessages([Message.assistant([call("call_1", "get_weather", { city: "Oslo" })])])
      expect(value).toEqual([
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "{\"city\":\"Oslo\"}" } }] }
      ])
    }))

  it.effect("an image, a PDF and audio in URL-safe, unpadded base64 (as a Gemini body may carry them) are written in the standard alphabet, padded", () =>
    Effect.gen(function* () {
      const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xfb, 0xff, 0xfe, 0x3e, 0x3f])
      const urlSafe = Buffer.from(bytes).toString("base64url")
      const standard = Buffer.from(bytes).toString("base64")
      const { value, warnings } = yield* OpenAiChat.toMessages([
        Message.user([Block.file(Block.base64(urlSafe), "image/png"), Block.file(Block.base64(urlSafe), "application/pdf"), Block.file(Block.base64(urlSafe), "audio/wav")])
      ])
      expect(value).toEqual([{
        role: "user",
        content: [
          { type: "image_url", image_url: { url: `data:image/png;base64,${standard}` } },
          { type: "file", file: { file_data: `data:application/pdf;base64,${standard}` } },
          { type: "input_audio", input_audio: { data: standard, format: "wav" } }
        ]
      }])
      expect(warnings).toEqual([])
    }))

  it.effect("arguments that never parsed go back as the provider's own text", () =>
    Effect.gen(function* () {
      const broken = Block.toolCall("call_1", "search", { q: "ca" }, { rawArgs: "{\"q\": \"ca", parseError: "Unterminated string" })
      const { value } = yield* OpenAiChat.toMessages([Message.assistant([broken])])
      expect((value[0] as Wire.AssistantMessageParam).tool_calls?.[0]).toMatchObject({ function: { arguments: "{\"q\": \"ca" } })
    }))

  it.effect("each result of a tool message becomes its own tool message with tool_call_id", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* OpenAiChat.toMessages([
        Message.tool([Block.toolResult("call_1", "a", "one"), Block.toolResult("call_2", "b", [Block.text("two")])])
      ])
      expect(value).toEqual([
        { role: "tool", tool_call_id: "call_1", content: "one" },
        { role: "tool", tool_call_id: "call_2", content: [{ type: "text", text: "two" }] }
      ])
      expect(warnings).toEqual([])
    }))

  it.effect("system messages go as developer messages when asked, and as they were read otherwise", () =>
    Effect.gen(function* () {
      const conversation = [Message.system("Be brief."), Message.system("Cite.", { providerOptions: { "openai-chat": { role: "developer" } } })]
      const asRead = yield* OpenAiChat.toMessages(conversation)
      expect(asRead.value.map((m) => m.role)).toEqual(["system", "developer"])
      const developer = yield* OpenAiChat.toMessages(conversation, { systemRole: "developer" })
      expect(developer.value.map((m) => m.role)).toEqual(["developer", "developer"])
      const system = yield* OpenAiChat.toMessages(conversation, { systemRole: "system" })
      expect(system.value.map((m) => m.role)).toEqual(["system", "system"])
    }))

  it.effect("images, audio and PDF files become the content parts Chat accepts", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* OpenAiChat.toMessages([
        Message.user([
          Block.text("Look:"),
          Block.image("https://example.com/cat.png", { detail: "low" }),
          Block.image("data:image/png;base64,iVBORw0KGgo="),
          Block.audio("UklGRiQ=", "audio/mpeg"),
          Block.document(Block.base64("JVBERi0x"), { filename: "a.pdf" }),
          Block.document(Block.fileId("file-abc"))
        ])
      ])
      expect(warnings).toEqual([])
      expect((value[0] as Wire.UserMessageParam).content).toEqual([
        { type: "text", text: "Look:" },
        { type: "image_url", image_url: { url: "https://example.com/cat.png", detail: "low" } },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        { type: "input_audio", input_audio: { data: "UklGRiQ=", format: "mp3" } },
        { type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0x", filename: "a.pdf" } },
        { type: "file", file: { file_id: "file-abc" } }
      ])
    }))

  it.effect("thinking is left out with a DroppedContent warning", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* OpenAiChat.toMessages([Message.assistant([Block.thinking("hmm", "sig"), Block.text("Hi")])])
      expect(value).toEqual([{ role: "assistant", content: "Hi" }])
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatchObject({ _tag: "DroppedContent", index: 0, blockIndex: 0, what: "thinking" })
    }))

  it.effect("strict conversion fails with UnsupportedContent instead of dropping", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(OpenAiChat.toMessages([Message.assistant([Block.thinking("hmm", "sig"), Block.text("Hi")])], { strict: true }))
      expect(error._tag).toBe("UnsupportedContent")
      expect(error.warning._tag).toBe("DroppedContent")
      expect(error.message).toContain("thinking")
    }))

  it.effect("thinking goes back as reasoning_content when asked (DeepSeek-style servers)", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* OpenAiChat.toMessages([Message.assistant([Block.thinking("Roll a die."), call("c1", "roll")])], {
        reasoning: "reasoning_content"
      })
      expect(value[0]).toMatchObject({ role: "assistant", content: null, reasoning_content: "Roll a die." })
      expect(warnings).toEqual([])
    }))

  it.effect("thinking read from reasoning_content goes back there without being asked; reasoning: drop leaves it out", () =>
    Effect.gen(function* () {
      const sent = [{ role: "user", content: "Roll." }, { role: "assistant", content: null, reasoning_content: "Roll a die.", tool_calls: [{ id: "c1", type: "function", function: { name: "roll", arguments: "{}" } }] }, { role: "tool", tool_call_id: "c1", content: "4" }]
      const read = yield* OpenAiChat.fromMessages(sent as never)
      const back = yield* OpenAiChat.toMessages(read.value)
      expect(back.warnings).toEqual([])
      expect(JSON.parse(JSON.stringify(back.value))).toEqual(sent)
      const dropped = yield* OpenAiChat.toMessages(read.value, { reasoning: "drop" })
      expect(dropped.value[1]).not.toHaveProperty("reasoning_content")
      expect(tags(dropped.warnings)).toEqual(["DroppedContent"])
    }))

  it.effect("the reasoning field of vLLM, OpenRouter and Groq is thinking too, and goes back there", () =>
    Effect.gen(function* () {
      const sent = [{ role: "user", content: "Roll." }, { role: "assistant", content: null, reasoning: "Roll a die.", tool_calls: [{ id: "c1", type: "function", function: { name: "roll", arguments: "{}" } }] }, { role: "tool", tool_call_id: "c1", content: "4" }]
      const read = yield* OpenAiChat.fromMessages(sent as never)
      const thinking = read.value[1]?.content[0]
      expect(thinking?._tag === "Thinking" ? thinking.thinking : undefined).toBe("Roll a die.")
      const back = yield* OpenAiChat.toMessages(read.value)
      expect(back.warnings).toEqual([])
      expect(JSON.parse(JSON.stringify(back.value))).toEqual(sent)
      // another format reports it where it cannot take it back (before, it was an unknown field, left out without a word)
      const anthropic = yield* Anthropic.toMessages(read.value)
      expect(anthropic.warnings.map((w) => [w._tag, w.message.includes("thinking")])).toEqual([["DroppedContent", true]])
      // beside a reasoning_content (vLLM has sent both), or when it is not text, it stays an unknown field, written back
      for (const assistant of [{ role: "assistant", content: "6", reasoning_content: "Roll.", reasoning: "Roll." }, { role: "assistant", content: "6", reasoning: { effort: "low" } }]) {
        const one = yield* OpenAiChat.fromMessages([assistant] as never)
        expect(one.value[0]?.content.filter((b) => b._tag === "Thinking").length).toBe("reasoning_content" in assistant ? 1 : 0)
        expect(JSON.parse(JSON.stringify((yield* OpenAiChat.toMessages(one.value)).value))).toEqual([assistant])
      }
    }))

  it.effect("text after a call goes before the calls, and says so", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* OpenAiChat.toMessages([
        Message.user("Weather in Oslo and Bergen?"),
        Message.assistant([Block.text("Checking Oslo."), Block.toolCall("c1", "w", { city: "Oslo" }), Block.text("And Bergen."), Block.toolCall("c2", "w", { city: "Bergen" })])
      ])
      expect(value[1]).toMatchObject({ role: "assistant", content: [{ type: "text", text: "Checking Oslo." }, { type: "text", text: "And Bergen." }] })
      expect(warnings.map((w) => w.message)).toEqual([
        "messages[1].content[2]: text after a tool call was sent before the calls (Chat Completions sends an assistant's text, then its calls)"
      ])
    }))

  it.effect("what Chat cannot express is reported, never silently dropped", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* OpenAiChat.toMessages([
        Message.user([Block.document("https://example.com/a.pdf"), Block.text("x", { citations: [{ type: "char_location" }] })]),
        Message.assistant([Block.redactedThinking("opaque"), ...[Block.toolCall("s1", "web_search", { q: "x" }, { providerExecuted: true })], Block.toolResult("s1", "web_search", [Block.json([])], false, { providerExecuted: true })]),
        Message.tool(Block.toolResult("c1", "shot", [Block.image("https://example.com/shot.png"), Block.json({ ok: true })], true))
      ])
      expect(tags(warnings)).toEqual(["DroppedContent", "DroppedContent", "DroppedContent", "DroppedContent", "DroppedContent", "DroppedContent", "DroppedContent", "DroppedContent", "ConvertedContent"])
      expect(warnings.map((w) => ("what" in w ? w.what : ""))).toEqual([
        "an application/pdf file by URL",
        "the citations of a text",
        "redacted thinking",
        "the call of web_search, a tool the provider ran itself",
        "the result of web_search, a tool the provider ran itself",
        "the assistant message",
        "the error flag of the result of shot",
        "an image/* file in the result of shot",
        "a JSON value in the result of shot"
      ])
      expect(value[1]).toEqual({ role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "{\"ok\":true}" }] })
    }))

  it.effect("fields kept from an earlier payload are written back", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.toMessages([
        Message.user([Block.text("cached", { providerOptions: { "openai-chat": { cache_control: { type: "ephemeral" } } } })]),
        Message.assistant("ok", { providerOptions: { "openai-chat": { annotations: [] } } })
      ])
      expect(value).toEqual([
        { role: "user", content: [{ type: "text", text: "cached", cache_control: { type: "ephemeral" } }] },
        { role: "assistant", content: "ok", annotations: [] }
      ])
    }))
})

describe("OpenAiChat.fromMessages", () => {
  it.effect("an image whose data URL declares no image type is the image its bytes show, and goes back as it came", () =>
    Effect.gen(function* () {
      // a PNG's first bytes, labelled as clients often label uploaded bytes
      const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB"
      const parts = [
        { type: "image_url", image_url: { url: `data:application/octet-stream;base64,${png}`, detail: "high" } },
        { type: "image_url", image_url: { url: `data:;base64,${png}` } },
        { type: "image_url", image_url: { url: "data:application/octet-stream;base64,AAAA" } }
      ]
      const { value, warnings } = yield* OpenAiChat.fromMessages([{ role: "user", content: parts }])
      const files = (value[0] as Message.UserMessage).content as ReadonlyArray<Block.FileBlock>
      expect(files.map((f) => [f.mediaType, f.source._tag, f.detail ?? null])).toEqual([["image/png", "Base64", "high"], ["image/png", "Base64", null], ["image/*", "Base64", null]])
      expect(warnings).toEqual([])
      const back = yield* OpenAiChat.toMessages(value)
      expect(back.value).toEqual([{ role: "user", content: parts }])
      expect(back.warnings).toEqual([])
    }))

  it.effect("a tool message's result is named after the call it answers", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.fromMessages([
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "call_1", content: "12°C" }
      ])
      const result = (value[1] as Message.ToolMessage).content[0]!
      expect([result.toolCallId, result.toolName, result.content, result.isError]).toEqual(["call_1", "get_weather", "12°C", false])
    }))

  it.effect("arguments that are not JSON are repaired, the text kept, and a warning reported", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* OpenAiChat.fromMessages([
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{\"q\": \"caf" } }] }
      ])
      const block = (value[0] as Message.AssistantMessage).content[0] as Block.ToolCallBlock
      expect(block.args).toEqual({ q: "caf" })
      expect(block.rawArgs).toBe("{\"q\": \"caf")
      expect(block.parseError).toBeDefined()
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatchObject({ _tag: "RepairedToolArguments", index: 0, toolCallId: "c1", rawArgs: "{\"q\": \"caf" })
    }))

  it.effect("strict tool arguments fail with InvalidToolArguments carrying the raw text and the parse error", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        OpenAiChat.fromMessages([{ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{\"q\": " } }] }], {
          toolArguments: "strict"
        })
      )
      assert(error._tag === "InvalidToolArguments")
      expect([error.toolCallId, error.toolName, error.rawArgs]).toEqual(["c1", "search", "{\"q\": "])
      expect(error.reason.length).toBeGreaterThan(0)
    }))

  it.effect("arguments that parse to something other than an object are handled like text that did not parse", () =>
    Effect.gen(function* () {
      const lenient = yield* OpenAiChat.fromMessages([{ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "[1,2]" } }] }])
      const block = (lenient.value[0] as Message.AssistantMessage).content[0] as Block.ToolCallBlock
      expect([block.args, block.rawArgs, block.parseError]).toEqual([{}, "[1,2]", "expected a JSON object, got an array"])
      const strict = yield* Effect.flip(
        OpenAiChat.fromMessages([{ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "42" } }] }], { toolArguments: "strict" })
      )
      expect(strict._tag).toBe("InvalidToolArguments")
    }))

  it.effect("DeepSeek's reasoning_content becomes a thinking block before the answer", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.fromMessages([{ role: "assistant", content: "4", reasoning_content: "2 + 2 = 4" }])
      expect((value[0] as Message.AssistantMessage).content.map((b) => b._tag)).toEqual(["Thinking", "Text"])
    }))

  it.effect("a payload that is not Chat Completions fails with MalformedPayload naming the path", () =>
    Effect.gen(function* () {
      const role = yield* Effect.flip(OpenAiChat.fromMessages([{ role: "user", content: "hi" }, { role: "robot", content: "x" }]))
      expect(role).toMatchObject({ _tag: "MalformedPayload", provider: "openai-chat", path: "messages[1].role" })
      const content = yield* Effect.flip(OpenAiChat.fromMessages([{ role: "tool", tool_call_id: 7, content: "x" }]))
      expect(content).toMatchObject({ _tag: "MalformedPayload", path: "messages[0].tool_call_id" })
      const notJson = yield* Effect.flip(OpenAiChat.fromMessages([{ role: "user", content: new Date(0) }]))
      expect(notJson._tag).toBe("MalformedPayload")
      const notList = yield* Effect.flip(OpenAiChat.fromMessages({ messages: [] }))
      expect(notList.message).toContain("expected an array")
    }))

  it.effect("fields left undefined by code that built the payload count as absent", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.fromMessages([{ role: "user", content: "hi", name: undefined }])
      expect(value[0]).toEqual(Message.user("hi"))
    }))

  it.effect("the deprecated function_call and its function message come back in their own form", () =>
    Effect.gen(function* () {
      const wire = [
        { role: "assistant", content: null, function_call: { name: "get_time", arguments: "{}" } },
        { role: "function", name: "get_time", content: "12:00" }
      ]
      const { value } = yield* OpenAiChat.fromMessages(wire)
      const callBlock = (value[0] as Message.AssistantMessage).content[0] as Block.ToolCallBlock
      const result = (value[1] as Message.ToolMessage).content[0]!
      expect(result.toolCallId).toBe(callBlock.id)
      const back = yield* OpenAiChat.toMessages(value)
      expect(normalize(back.value)).toEqual(normalize(wire))
    }))

  it.effect("a tool message with a tool_call_ids list of one id instead of tool_call_id is read leniently, the list kept, and reported", () =>
    Effect.gen(function* () {
      const wire = [
        { role: "user", content: "Find missing_colon.py", agent: "main" },
        { role: "assistant", content: "Searching.", tool_calls: [{ id: "call_1", type: "function", function: { name: "find_file", arguments: "{\"file_name\":\"missing_colon.py\"}" } }] },
        { role: "tool", content: "Found 1 match", agent: "main", tool_call_ids: ["call_1"] }
      ]
      const { value, warnings } = yield* OpenAiChat.fromMessages(wire)
      const result = (value[2] as Message.ToolMessage).content[0]!
      expect([result.toolCallId, result.toolName]).toEqual(["call_1", "find_file"])
      expect(warnings.map((w) => w.message)).toEqual([
        "messages[2]: the one id of a tool_call_ids list (the message has no tool_call_id) was sent back as tool_call_id \"call_1\", beside the list, which is kept"
      ])
      const back = yield* OpenAiChat.toMessages(value)
      expect(back.value[2]).toEqual({ role: "tool", content: "Found 1 match", agent: "main", tool_call_ids: ["call_1"], tool_call_id: "call_1" })
    }))

  it.effect("a tool_call_ids list that does not name exactly one call fails with MalformedPayload naming it", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(OpenAiChat.fromMessages([{ role: "tool", content: "x", tool_call_ids: ["a", "b"] }]))
      expect(e).toMatchObject({ _tag: "MalformedPayload", path: "messages[0].tool_call_ids" })
    }))
})

describe("OpenAiChat requests", () => {
  it.effect("a request with parallel calls, a tool error text, tools and sampling fields converts and comes back whole", () =>
    Effect.gen(function* () {
      const { value: request, warnings } = yield* OpenAiChat.fromRequest(Payloads.chatParallelRequest)
      expect(warnings).toEqual([])
      expect(request.model).toBe("gpt-4o")
      expect(request.toolChoice).toBe("auto")
      expect(request.parallelToolCalls).toBe(true)
      expect(request.tools?.[0]).toMatchObject({ name: "get_weather", strict: true })
      expect(request.providerOptions).toEqual({ "openai-chat": { temperature: 0.2 } })
      expect(request.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "assistant"])
      const back = yield* OpenAiChat.toRequest(request)
      expect(normalize(back.value)).toEqual(normalize(Payloads.chatParallelRequest))
      expect(back.warnings).toEqual([])
    }))

  it.effect("a user message with an image by URL and by data, a PDF by data and by id, and audio converts and comes back whole", () =>
    Effect.gen(function* () {
      const { value: request } = yield* OpenAiChat.fromRequest(Payloads.chatMediaRequest)
      const content = (request.messages[0] as Message.UserMessage).content
      expect(content.map((b) => (b._tag === "File" ? `${b.mediaType} ${b.source._tag}` : b._tag))).toEqual([
        "Text",
        "image/* Url",
        "image/png Base64",
        "application/pdf Base64",
        "application/pdf FileId",
        "audio/wav Base64"
      ])
      const back = yield* OpenAiChat.toRequest(request)
      expect(normalize(back.value)).toEqual(normalize(Payloads.chatMediaRequest))
    }))

  it.effect("tools defined in the deprecated functions list come back as functions", () =>
    Effect.gen(function* () {
      const body = { model: "gpt-3.5-turbo", messages: [{ role: "user", content: "time?" }], functions: [{ name: "get_time", parameters: { type: "object" } }], function_call: { name: "get_time" } }
      const { value } = yield* OpenAiChat.fromRequest(body)
      expect(value.toolChoice).toEqual({ _tag: "Tool", name: "get_time" })
      const back = yield* OpenAiChat.toRequest(value)
      expect(normalize(back.value)).toEqual(normalize(body))
    }))

  it.effect("the deprecated max_tokens is the output limit when max_completion_tokens is absent, and goes back under its own name", () =>
    Effect.gen(function* () {
      const messages = [{ role: "user", content: "x" }]
      for (const [limits, expected] of [
        [{ max_tokens: 512 }, 512],
        [{ max_completion_tokens: 256 }, 256],
        [{ max_completion_tokens: 256, max_tokens: 512 }, 256],
        [{ max_completion_tokens: null, max_tokens: 512 }, 512],
        [{ max_tokens: 1e21 }, undefined]
      ] as const) {
        const body = { model: "deepseek-chat", messages, ...limits }
        const { value } = yield* OpenAiChat.fromRequest(body)
        expect([limits, value.maxOutputTokens]).toEqual([limits, expected])
        expect((yield* OpenAiChat.toRequest(value)).value).toEqual(body)
      }
      // a changed limit is written where the body had it, and a removed one is gone
      const { value: legacy } = yield* OpenAiChat.fromRequest({ messages, max_tokens: 512 })
      const back = yield* OpenAiChat.toRequest(Request.make(legacy.messages, { ...legacy, maxOutputTokens: 100 }))
      expect(back.value).toEqual({ messages, max_tokens: 100 })
      const { maxOutputTokens: _limit, ...unlimited } = legacy
      expect((yield* OpenAiChat.toRequest(Request.make(legacy.messages, unlimited))).value).toEqual({ messages })
      // and to Anthropic, which requires one, it is max_tokens
      const anthropic = yield* Anthropic.toRequest(legacy)
      expect(anthropic.value.max_tokens).toBe(512)
    }))

  it.effect("a tool choice or response format this library does not type is kept as sent", () =>
    Effect.gen(function* () {
      const body = {
        messages: [{ role: "user", content: "x" }],
        // a tool list of a kind this library does not type, kept as sent, so that the choice has tools to choose from
        tools: [{ type: "x_vendor_tool", name: "f" }],
        tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [] } },
        response_format: { type: "json_schema", json_schema: { name: "r" } }
      }
      const { value } = yield* OpenAiChat.fromRequest(body)
      expect(value.toolChoice).toBeUndefined()
      expect(value.responseFormat).toBeUndefined()
      const back = yield* OpenAiChat.toRequest(value)
      expect(normalize(back.value)).toEqual(normalize(body))
    }))

  it.effect("a JSON schema response format and a named tool choice are typed", () =>
    Effect.gen(function* () {
      const body = {
        messages: [{ role: "user", content: "x" }],
        tools: [{ type: "custom", custom: { name: "code_exec", description: "Runs code", format: { type: "text" } } }],
        tool_choice: { type: "custom", custom: { name: "code_exec" } },
        response_format: { type: "json_schema", json_schema: { name: "answer", schema: { type: "object" }, strict: true } }
      }
      const { value } = yield* OpenAiChat.fromRequest(body)
      expect(value.toolChoice).toEqual({ _tag: "Tool", name: "code_exec" })
      expect(value.responseFormat).toEqual({ _tag: "JsonSchema", name: "answer", schema: { type: "object" }, strict: true })
      const back = yield* OpenAiChat.toRequest(value)
      expect(normalize(back.value)).toEqual(normalize(body))
    }))

  it.effect("a tool another provider runs itself is reported and left out", () =>
    Effect.gen(function* () {
      const request = Request.make([Message.user("x")], {
        tools: [Request.tool("web_search", { providerOptions: { anthropic: { type: "web_search_20250305" } } }), Request.tool("f")]
      })
      const { value, warnings } = yield* OpenAiChat.toRequest(request)
      expect(value.tools?.map((t) => (t.type === "function" ? t.function.name : t.custom.name))).toEqual(["f"])
      expect(tags(warnings)).toEqual(["DroppedContent"])
    }))
})

describe("OpenAiChat.fromResponse", () => {
  it.effect("a response with parallel calls gives the message, the finish reason and the usage", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.fromResponse(Payloads.chatToolCallsResponse as Wire.ChatCompletion)
      expect(value.finishReason).toBe("tool-calls")
      expect(value.providerFinishReason).toBe("tool_calls")
      expect(value.id).toBe("chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG")
      const calls = Message.toolCallsOf(value.message)
      expect(calls.map((c) => [c.id, c.args, c.rawArgs])).toEqual([
        ["call_12345xyz", { location: "Paris, France" }, undefined],
        ["call_67890abc", { location: "Tokyo, Japan" }, "{\"location\": \"Tokyo, Japan\"}"]
      ])
      expect(value.usage).toEqual(new Message.Usage({ inputTokens: 82, outputTokens: 17, totalTokens: 99, cachedInputTokens: 64, reasoningTokens: 0 }))
      expect(value.message.usage).toEqual(value.usage)
      expect(value.providerData).toMatchObject({ system_fingerprint: "fp_fc9f1d7035", service_tier: "default", choice: { logprobs: null } })
    }))

  it.effect("a refusal becomes a refusal block", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.fromResponse(Payloads.chatRefusalResponse as Wire.ChatCompletion)
      expect(value.message.content).toEqual([Block.refusal("I'm sorry, I cannot assist with that request.")])
      expect(value.finishReason).toBe("stop")
    }))

  it.effect("generated audio becomes a file whose id is sent back", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.fromResponse(Payloads.chatAudioResponse as Wire.ChatCompletion)
      const audio = value.message.content[0] as Block.FileBlock
      expect([audio.mediaType, audio.itemId, audio.source]).toEqual(["audio/*", "audio_6731c23369048190aee358c51e0373d2", Block.base64("UklGRsZA")])
      const back = yield* OpenAiChat.toMessages([value.message])
      expect(back.value[0]).toEqual({ role: "assistant", content: null, audio: { id: "audio_6731c23369048190aee358c51e0373d2" } })
    }))

  it.effect("one choice is read; the others are reported, and `choice` picks another", () =>
    Effect.gen(function* () {
      const two = {
        ...Payloads.chatRefusalResponse,
        choices: [
          { index: 0, message: { role: "assistant", content: "A", refusal: null }, finish_reason: "stop", logprobs: null },
          { index: 1, message: { role: "assistant", content: "B", refusal: null }, finish_reason: "length", logprobs: null }
        ]
      } as Wire.ChatCompletion
      const first = yield* OpenAiChat.fromResponse(two)
      expect(Message.textOf(first.value.message)).toBe("A")
      expect(tags(first.warnings)).toEqual(["DroppedContent"])
      const second = yield* OpenAiChat.fromResponse(two, { choice: 1 })
      expect([Message.textOf(second.value.message), second.value.finishReason]).toEqual(["B", "length"])
      const missing = yield* Effect.flip(OpenAiChat.fromResponse(two, { choice: 5 }))
      expect(missing._tag).toBe("MalformedPayload")
    }))
})

describe("OpenAiChat streams", () => {
  const decodeExpected = (fixture: Fixture) => OpenAiChat.fromResponse(fixture.expected as Wire.ChatCompletion)

  for (const fixture of ChatStreams.all) {
    it.effect(`${fixture.name}: the stream gives the message its final response gives`, () =>
      Effect.gen(function* () {
        const streamed = yield* OpenAiChat.fromSse(sseOf(fixture))
        const direct = yield* decodeExpected(fixture)
        expect(streamed.value).toEqual(direct.value)
      }))

    it.effect(`${fixture.name}: split at every position, the stream gives the same message`, () =>
      Effect.gen(function* () {
        const text = sseOf(fixture)
        const whole = yield* OpenAiChat.fromSse(text)
        for (let p = 0; p <= text.length; p++) {
          const split = yield* OpenAiChat.fromSse([text.slice(0, p), text.slice(p)])
          expect(split.value).toEqual(whole.value)
        }
      }), 60_000)

    it.effect(`${fixture.name}: its UTF-8 bytes split at every position give the same message`, () =>
      Effect.gen(function* () {
        const bytes = new TextEncoder().encode(sseOf(fixture))
        const whole = yield* OpenAiChat.fromSse(sseOf(fixture))
        for (let p = 0; p <= bytes.length; p++) {
          const split = yield* OpenAiChat.fromSse([bytes.subarray(0, p), bytes.subarray(p)])
          expect(split.value).toEqual(whole.value)
        }
      }), 60_000)

    it.effect(`${fixture.name}: cut after any event, the stream yields the partial message and what was cut`, () =>
      Effect.gen(function* () {
        const frames = fixture.frames
        let complete = 0
        for (let i = 0; i < frames.length; i++) if (JSON.stringify(frames[i]!.data).includes("\"finish_reason\":\"")) complete = i + 1
        for (let n = 0; n < complete; n++) {
          const events = frames.slice(0, n).map((f) => f.data as Wire.StreamEvent)
          const error = yield* Effect.flip(OpenAiChat.fromEvents(events))
          assert(error._tag === "IncompleteResponse")
          expect(error.cut.length).toBeGreaterThan(0)
          if (n > 0) expect(error.partial).toBeDefined()
        }
      }))
  }

  it.effect("parallel calls whose argument fragments interleave are assembled into one message, and the usage comes from the last chunk", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.fromEvents(ChatStreams.parallelToolCalls.frames.map((f) => f.data as Wire.StreamEvent))
      const { argsA, argsB } = ChatStreams.argumentFragments
      expect(Message.toolCallsOf(value.message).map((c) => Block.argsText(c))).toEqual([argsA, argsB])
      expect(value.usage).toBeDefined()
    }))

  it.effect("a stream cut inside a call's argument JSON yields the partial call with its raw text kept", () =>
    Effect.gen(function* () {
      const frames = ChatStreams.parallelToolCalls.frames.slice(0, 6).map((f) => f.data as Wire.StreamEvent)
      const error = yield* Effect.flip(OpenAiChat.fromEvents(frames))
      assert(error._tag === "IncompleteResponse")
      expect(error.cut.join(" ")).toContain("cut")
      const calls = Message.toolCallsOf(error.partial!.message)
      expect(calls.length).toBe(2)
      expect(calls[0]!.parseError).toBeDefined()
      expect(calls[0]!.rawArgs).toBe(ChatStreams.argumentFragments.fragmentsA.slice(0, 3).join(""))
      expect(tags(error.warnings)).toContain("RepairedToolArguments")
    }))

  it.effect("a provider error in the stream is passed on as is", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(OpenAiChat.fromSse(`data: ${dataOf({ data: { error: { message: "overloaded", type: "server_error" } } })}\n\n`))
      expect(error._tag).toBe("ProviderStreamError")
    }))
})

describe("OpenAiChat round trips", () => {
  it.effect.prop(
    "the model -> Chat Completions -> the model is the identity for what Chat expresses",
    [chatConversation],
    ([conversation]) =>
      Effect.gen(function* () {
        const wire = yield* OpenAiChat.toMessages(conversation, { reasoning: "reasoning_content" })
        expect(wire.warnings).toEqual([])
        const back = yield* OpenAiChat.fromMessages(JSON.parse(JSON.stringify(wire.value)))
        expect(Message.encodeAll(back.value)).toEqual(Message.encodeAll(conversation))
      }),
    { timeout: 120_000, arbitrary: { runs: 1000 } }
  )

  it.effect.prop(
    "Chat Completions -> the model -> Chat Completions gives the same messages",
    [chatMessages],
    ([messages]) =>
      Effect.gen(function* () {
        const ours = yield* OpenAiChat.fromMessages(messages)
        const back = yield* OpenAiChat.toMessages(ours.value, { reasoning: "reasoning_content" })
        expect(normalize(back.value)).toEqual(normalize(messages))
        expect(back.warnings).toEqual([])
      }),
    { timeout: 120_000, arbitrary: { runs: 1000 } }
  )

  it.effect.prop(
    "writing is total: lenient conversion always succeeds, strict fails only with UnsupportedContent for a reported loss",
    [Arbitrary.array(anyMessage, { maxLength: 8 })],
    ([conversation]) =>
      Effect.gen(function* () {
        const lenient = yield* OpenAiChat.toMessages(conversation)
        const losses = lenient.warnings.filter((w) => w._tag === "DroppedContent" || w._tag === "ConvertedContent" || (w._tag === "UnknownProviderField" && !w.kept))
        const strict = yield* Effect.result(OpenAiChat.toMessages(conversation, { strict: true }))
        if (losses.length === 0) expect(Result.isSuccess(strict)).toBe(true)
        else {
          assert(Result.isFailure(strict))
          expect(strict.failure.warning).toEqual(losses[0])
        }
      }),
    { timeout: 120_000, arbitrary: { runs: 500 } }
  )

  it.effect.prop(
    "reading any JSON gives a conversation or a tagged error, never a defect",
    [Arbitrary.schema(Schema.Json), Arbitrary.schema(Schema.Json)],
    ([a, b]) =>
      Effect.gen(function* () {
        for (const input of [a, { messages: [a, b] }, { messages: [{ role: "assistant", content: [a], tool_calls: [b] }] }, { messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: a }] }] }]) {
          const exit = yield* Effect.exit(OpenAiChat.fromRequest(input))
          if (exit._tag === "Failure") expect(Cause.hasDies(exit.cause)).toBe(false)
        }
      }),
    { timeout: 120_000, arbitrary: { runs: 500 } }
  )

  it("reading never throws, whatever the input", () => {
    const inputs: Array<unknown> = [null, 1, "x", [1], [{}], [{ role: "assistant", tool_calls: [null] }], [{ role: "user", content: [{ type: "image_url" }] }], { messages: null }]
    for (const input of inputs) {
      const result = Effect.runSync(Effect.result(OpenAiChat.fromRequest(input)))
      expect(Result.isFailure(result)).toBe(true)
    }
  })
})

describe("OpenAiChat and a detail setting on a file that is not an image", () => {
  it("reports it left out, as an audio or file part has none, and still sends an image's", () => {
    const written = Effect.runSync(OpenAiChat.toMessages([Message.user([
      Block.document(Block.base64("JVBERi0xLjQK"), { detail: "low" }),
      Block.audio("UklGRg==", "audio/wav", { detail: "high" }),
      Block.image("https://example.com/a.png", { detail: "low" })
    ])]))
    assert.deepStrictEqual(written.warnings.map((w) => [w._tag, w._tag === "DroppedContent" ? w.what : ""]), [
      ["DroppedContent", "the detail setting of an application/pdf file"],
      ["DroppedContent", "the detail setting of an audio/wav file"]
    ])
    assert.include(JSON.stringify(written.value), '"detail":"low"')
  })

  it("reports the settings of a document given as text, which goes as a text part that has none", () => {
    const written = Effect.runSync(OpenAiChat.toMessages([Message.user([
      Block.document(Block.textSource("Minutes of the meeting."), { title: "Minutes", filename: "minutes.txt", detail: "high" })
    ])]))
    assert.deepStrictEqual(written.warnings.map((w) => [w._tag, w._tag === "DroppedContent" ? w.what : ""]), [
      ["ConvertedContent", ""],
      ["DroppedContent", "the title, file name, detail setting of a text/plain file"]
    ])
    assert.deepStrictEqual<unknown>(written.value, [{ role: "user", content: [{ type: "text", text: "Minutes of the meeting." }] }])
  })
})
