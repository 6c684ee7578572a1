import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Cause, Effect, Result, Schema } from "effect"
import { Block, Message, Request, TokenEstimator } from "../../src/index.js"
import { message as anyMessage } from "../arbitraries.js"
import { Anthropic, AnthropicWire as Wire, OpenAiChat } from "../../src/providers/index.js"
import { anthropicConversation, anthropicPrompt, normalize } from "./adapterArbitraries.js"
import * as AnthropicStreams from "./fixtures/anthropic.js"
import * as Payloads from "./fixtures/adapterPayloads.js"
import { type Fixture, sseOf } from "./fixtures/sse.js"

const tags = (warnings: ReadonlyArray<{ readonly _tag: string }>): Array<string> => warnings.map((w) => w._tag)

const call = (id: string, name: string, args: Block.JsonObject = {}) => Block.toolCall(id, name, args)

describe("Anthropic.toMessages", () => {
  it.effect("every system message, in order, goes to the top-level system, cache control kept", () =>
    Effect.gen(function* () {
      const cached = { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } }
      const { value, warnings } = yield* Anthropic.toMessages([
        Message.system("You are terse."),
        Message.user("hi"),
        Message.system([Block.text("Never use emoji.", cached)]),
        Message.assistant("Hello.")
      ])
      expect(value.system).toEqual([
        { type: "text", text: "You are terse." },
        { type: "text", text: "Never use emoji.", cache_control: { type: "ephemeral" } }
      ])
      expect(value.messages).toEqual([{ role: "user", content: "hi" }, { role: "assistant", content: "Hello." }])
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatchObject({ _tag: "ConvertedContent", index: 2, what: "a system message after the conversation started" })
    }))

  it.effect("a single plain system text is a string", () =>
    Effect.gen(function* () {
      const { value } = yield* Anthropic.toMessages([Message.system("Be brief."), Message.user("hi")])
      expect(value.system).toBe("Be brief.")
    }))

  it.effect("the results of one assistant turn become tool_result blocks first in ONE user message, merged with the user's next words", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.toMessages([
        Message.user("Weather in Oslo and Rome?"),
        Message.assistant([call("toolu_1", "get_weather", { city: "Oslo" }), call("toolu_2", "get_weather", { city: "Rome" })]),
        Message.toolResultMessage("toolu_2", "get_weather", "24°C"),
        Message.toolResultMessage("toolu_1", "get_weather", "service down", true),
        Message.user("Use Celsius.")
      ])
      expect(warnings).toEqual([])
      expect(value.messages).toHaveLength(3)
      expect(value.messages[2]).toEqual({
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_2", content: "24°C" },
          { type: "tool_result", tool_use_id: "toolu_1", content: "service down", is_error: true },
          { type: "text", text: "Use Celsius." }
        ]
      })
      expect(value.messages[1]).toEqual({
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } },
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Rome" } }
        ]
      })
    }))

  it.effect("consecutive messages of one role are merged, and the merge is reported", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.toMessages([Message.user("one"), Message.user("two"), Message.assistant("a"), Message.assistant("b")])
      expect(value.messages).toEqual([
        { role: "user", content: [{ type: "text", text: "one" }, { type: "text", text: "two" }] },
        { role: "assistant", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }
      ])
      expect(warnings.map((w) => ("what" in w ? w.what : ""))).toEqual(["a user message after a user message", "an assistant message after an assistant message"])
    }))

  it.effect("thinking and redacted thinking pass through unchanged with their signatures, in their order", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.toMessages([
        Message.user("q"),
        Message.assistant([Block.thinking("first", "sig-1"), Block.redactedThinking("opaque=="), Block.thinking("second", "sig-2"), call("toolu_1", "f")]),
        Message.toolResultMessage("toolu_1", "f", "ok")
      ])
      expect(warnings).toEqual([])
      expect(value.messages[1]!.content).toEqual([
        { type: "thinking", thinking: "first", signature: "sig-1" },
        { type: "redacted_thinking", data: "opaque==" },
        { type: "thinking", thinking: "second", signature: "sig-2" },
        { type: "tool_use", id: "toolu_1", name: "f", input: {} }
      ])
    }))

  it.effect("thinking without a signature cannot be replayed: it is reported, or fails strict conversion", () =>
    Effect.gen(function* () {
      const conversation = [Message.user("q"), Message.assistant([Block.thinking("from another model"), Block.text("A")])]
      const { value, warnings } = yield* Anthropic.toMessages(conversation)
      expect(value.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "A" }] })
      expect(warnings[0]).toMatchObject({ _tag: "DroppedContent", index: 1, blockIndex: 0 })
      const error = yield* Effect.flip(Anthropic.toMessages(conversation, { strict: true }))
      expect(error._tag).toBe("UnsupportedContent")
    }))

  it.effect("images and documents carry their sources and settings", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.toMessages([
        Message.user([
          Block.image("data:image/png;base64,iVBORw0KGgo="),
          Block.image(Block.url("https://example.com/a.jpg")),
          Block.document(Block.base64("JVBERi0x"), { title: "Report", context: "Q3", citationsEnabled: true }),
          Block.document(Block.textSource("plain words"), { citationsEnabled: false }),
          Block.document(Block.fileId("file_01"))
        ])
      ])
      expect(warnings).toEqual([])
      expect(value.messages[0]!.content).toEqual([
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
        { type: "image", source: { type: "url", url: "https://example.com/a.jpg" } },
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0x" }, title: "Report", context: "Q3", citations: { enabled: true } },
        { type: "document", source: { type: "text", media_type: "text/plain", data: "plain words" }, citations: { enabled: false } },
        { type: "document", source: { type: "file", file_id: "file_01" } }
      ])
    }))

  it.effect("a message whose only text is empty is left out, not sent empty or as an empty string", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.toMessages([Message.user(""), Message.assistant(""), Message.user("hi")])
      expect(value.messages).toEqual([{ role: "user", content: "hi" }])
      expect(warnings.map((w) => w.message)).toEqual([
        "messages[0].content[0]: an empty text block was left out: Anthropic rejects empty text blocks",
        "messages[1].content[0]: an empty text block was left out: Anthropic rejects empty text blocks",
        "messages[0]: the user message was left out: nothing in it could be carried, and Anthropic rejects an empty message",
        "messages[1]: the assistant message was left out: nothing in it could be carried, and Anthropic takes an empty assistant message only as the last"
      ])
    }))

  it.effect("a tool call id outside Anthropic's alphabet is rewritten for the call and its results, and said", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.toMessages([
        Message.user("Weather?"),
        Message.assistant([Block.toolCall("functions.get_weather:0", "get_weather", {}), Block.toolCall("functions_get_weather_0", "get_weather", {})]),
        Message.tool([Block.toolResult("functions.get_weather:0", "get_weather", "4°C"), Block.toolResult("functions_get_weather_0", "get_weather", "5°C")])
      ])
      expect(value.messages[1]!.content).toMatchObject([{ id: "functions_get_weather_0_1" }, { id: "functions_get_weather_0" }])
      expect(value.messages[2]!.content).toMatchObject([{ tool_use_id: "functions_get_weather_0_1" }, { tool_use_id: "functions_get_weather_0" }])
      expect(warnings.map((w) => w.message)).toEqual([
        'messages[1].content[0]: the tool call id "functions.get_weather:0" was sent as "functions_get_weather_0_1", and in its results (Anthropic ids are letters, digits, _ and -)'
      ])
    }))

  it.effect("a video by URL, or a file at a URL Anthropic cannot fetch, is left out and said, not sent as a document", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.toMessages([
        Message.user([
          Block.file(Block.url("https://www.youtube.com/watch?v=1"), "video/mp4"),
          Block.file(Block.url("gs://bucket/x.pdf"), "application/pdf"),
          Block.file(Block.url("https://example.com/x.pdf"), "application/pdf"),
          Block.text("Summarize.")
        ])
      ])
      expect(value.messages[0]!.content).toEqual([{ type: "document", source: { type: "url", url: "https://example.com/x.pdf" } }, { type: "text", text: "Summarize." }])
      expect(warnings.map((w) => w.message)).toEqual([
        "messages[0].content[0]: a video/mp4 file by URL was left out: Anthropic documents are PDF or plain text",
        "messages[0].content[1]: an application/pdf file at a gs: URL was left out: Anthropic fetches http and https URLs only, and a base64 data: URL is sent as its data"
      ])
    }))

  it.effect("a tool_use input sent as a JSON string is read as its object, and said (the API rejects a string)", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.fromMessages([
        { role: "user", content: "Weather?" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "w", input: "{\"city\":\"Oslo\"}" }] }
      ])
      const call = (value[1] as Message.AssistantMessage).content[0]
      assert(call?._tag === "ToolCall")
      expect(call.args).toEqual({ city: "Oslo" })
      expect(warnings.map((w) => w.message)).toEqual([
        'messages[1].content[0]: the input of "w", a JSON string where Anthropic takes an object (the API rejects it), was sent as the object it holds'
      ])
    }))

  it.effect("an empty system prompt is left out, and said", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.toMessages([Message.system(""), Message.user("hi")])
      expect(value).toEqual({ messages: [{ role: "user", content: "hi" }] })
      expect(warnings.map((w) => w.message)).toEqual(["an empty system prompt was left out: Anthropic rejects empty text; no system prompt is the same"])
    }))

  it.effect("an image whose media type was not given is recognised from its bytes", () =>
    Effect.gen(function* () {
      const { value } = yield* Anthropic.toMessages([Message.user([Block.image(Block.base64("/9j/4AAQSkZJRg=="))])])
      expect(value.messages[0]!.content).toEqual([{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQSkZJRg==" } }])
    }))

  it.effect("an image and a PDF in URL-safe, unpadded base64 (as a Gemini body may carry them) are written in the standard alphabet, padded", () =>
    Effect.gen(function* () {
      const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xfb, 0xff, 0xfe, 0x3e, 0x3f])
      const pdf = Uint8Array.from([...Buffer.from("%PDF-1.4\n"), 0xfb, 0xff])
      const { value, warnings } = yield* Anthropic.toMessages([
        Message.user([Block.file(Block.base64(Buffer.from(png).toString("base64url")), "image/png"), Block.file(Block.base64(Buffer.from(pdf).toString("base64url")), "application/pdf")])
      ])
      expect(value.messages[0]!.content).toEqual([
        { type: "image", source: { type: "base64", media_type: "image/png", data: Buffer.from(png).toString("base64") } },
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: Buffer.from(pdf).toString("base64") } }
      ])
      // the same bytes in the alphabet the API takes: nothing to report
      expect(warnings).toEqual([])
    }))

  it.effect("a text file in URL-safe base64 (proto3 JSON's other alphabet, as a Gemini body may carry it) is sent as text, not left out", () =>
    Effect.gen(function* () {
      const text = "Grüße — ÿ?>"
      for (const data of [Buffer.from(text).toString("base64url"), Buffer.from(text).toString("base64")]) {
        const { value } = yield* Anthropic.toMessages([Message.user([Block.file(Block.base64(data), "text/plain")])])
        expect(value.messages[0]!.content).toEqual([{ type: "document", source: { type: "text", media_type: "text/plain", data: text } }])
      }
    }))

  it.effect("what Anthropic cannot express is reported, never silently dropped", () =>
    Effect.gen(function* () {
      const { value, warnings } = yield* Anthropic.toMessages([
        Message.user([Block.audio("UklGR", "audio/wav"), Block.image("https://example.com/x.png", { detail: "high" }), Block.text("")]),
        Message.assistant([Block.refusal("No."), Block.toolCall("c1", "f", {}, { rawArgs: "{\"a\":", parseError: "Unexpected end" }), Block.toolCall("c2", "g", [1])]),
        Message.tool([Block.toolResult("c1", "f", [Block.json({ rows: 3 })]), Block.toolResult("c2", "g", "ok")])
      ])
      expect(warnings.map((w) => `${w._tag}: ${"what" in w ? w.what : ""}`)).toEqual([
        "DroppedContent: an audio/wav file",
        "DroppedContent: the detail setting of an image/* file",
        "DroppedContent: an empty text block",
        "ConvertedContent: a refusal",
        "ConvertedContent: the argument text of \"f\", not a valid JSON object,",
        "ConvertedContent: the argument text of \"g\"",
        "ConvertedContent: a JSON value in the result of f"
      ])
      expect(value.messages[1]!.content).toEqual([
        { type: "text", text: "No." },
        { type: "tool_use", id: "c1", name: "f", input: {} },
        { type: "tool_use", id: "c2", name: "g", input: {} }
      ])
    }))

  it.effect("server tool calls and their results stay in the assistant message as they were read", () =>
    Effect.gen(function* () {
      const { value: request } = yield* Anthropic.fromRequest(Payloads.anthropicServerToolRequest)
      const assistant = request.messages[1] as Message.AssistantMessage
      expect(assistant.content.map((b) => b._tag)).toEqual(["Text", "ToolCall", "ToolResult", "Text"])
      const [, use, result] = assistant.content as [Block.TextBlock, Block.ToolCallBlock, Block.ToolResultBlock]
      expect([use.providerExecuted, result.providerExecuted, result.toolName]).toEqual([true, true, "web_search"])
      expect(result.content[0]).toBeInstanceOf(Block.JsonBlock)
      const back = yield* Anthropic.toRequest(request)
      expect(normalize(back.value)).toEqual(normalize(Payloads.anthropicServerToolRequest))
    }))

  it.effect("a tool another provider ran (a Responses web search, Gemini code execution) is left out and reported, never written as Anthropic's", () =>
    Effect.gen(function* () {
      const webSearch = Block.toolCall("ws_1", "web_search", { action: { type: "search", query: "oslo" } }, {
        providerExecuted: true,
        itemId: "ws_1",
        providerOptions: { "openai-responses": { type: "web_search_call", status: "completed" } }
      })
      const code = Block.toolCall("code_execution_0", "code_execution", { language: "PYTHON", code: "print(13)" }, {
        providerExecuted: true,
        providerOptions: { gemini: { $kind: "executableCode" } }
      })
      const codeResult = Block.toolResult("code_execution_0", "code_execution", [Block.json({ outcome: "OUTCOME_OK", output: "13\n" })], false, {
        providerExecuted: true,
        providerOptions: { gemini: { $kind: "codeExecutionResult" } }
      })
      const { value, warnings } = yield* Anthropic.toMessages([
        Message.user("q"),
        Message.assistant([webSearch, Block.text("Sunny.")]),
        Message.user("and the sum?"),
        Message.assistant([code, codeResult, Block.text("13")])
      ])
      expect(value.messages.map((m) => m.content)).toEqual(["q", [{ type: "text", text: "Sunny." }], "and the sum?", [{ type: "text", text: "13" }]])
      expect(warnings.map((w) => w.message)).toEqual([
        "messages[1].content[0]: the provider-executed call \"web_search\" was left out: another provider ran it; Anthropic cannot replay it as a server tool of its own",
        "messages[3].content[0]: the provider-executed call \"code_execution\" was left out: another provider ran it; Anthropic cannot replay it as a server tool of its own",
        "messages[3].content[1]: the result of the provider-executed call \"code_execution\" was left out: another provider ran it"
      ])
    }))

  it.effect("Anthropic's own server tools, read from Anthropic or built without another format's marks, are written", () =>
    Effect.gen(function* () {
      const own = [
        Block.toolCall("srvtoolu_1", "web_search", { query: "oslo" }, { providerExecuted: true }),
        Block.toolResult("srvtoolu_1", "web_search", [Block.json([])], false, { providerExecuted: true, providerOptions: { anthropic: { type: "web_search_tool_result" } } })
      ]
      const { value, warnings } = yield* Anthropic.toMessages([Message.user("q"), Message.assistant([...own, Block.text("Sunny.")])])
      expect(warnings).toEqual([])
      expect((value.messages[1]!.content as ReadonlyArray<{ readonly type: string }>).map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"])
    }))
})

describe("Anthropic.fromMessages", () => {
  it.effect("two user messages in a row come back as two (the API merges them itself), without a warning", () =>
    Effect.gen(function* () {
      const wire = [
        { role: "user", content: "Search three sources." },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "search", input: { q: "a" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "found a" }] },
        { role: "user", content: "Analyze the tool result." }
      ]
      const ours = yield* Anthropic.fromMessages(wire)
      expect(ours.value.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"])
      const back = yield* Anthropic.toMessages(ours.value)
      expect([back.value.messages, back.warnings]).toEqual([wire, []])
      // the same conversation built without that history is merged, as the API wants it
      const built = yield* Anthropic.toMessages([Message.user("Search three sources."), ours.value[1]!, Message.tool(Block.toolResult("toolu_1", "search", "found a")), Message.user("Analyze the tool result.")])
      expect(built.value.messages).toHaveLength(3)
    }))

  it.effect("a user message with tool results becomes a tool message, and the text after them a user message", () =>
    Effect.gen(function* () {
      const { value } = yield* Anthropic.fromMessages(Payloads.anthropicToolsRequest)
      expect(value.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "user"])
      const results = (value[3] as Message.ToolMessage).content
      expect(results.map((r) => [r.toolCallId, r.toolName, r.isError])).toEqual([
        ["toolu_01A09q90qw90lq917835lq9", "get_weather", false],
        ["toolu_01B18r91rx91mr028946mr0", "get_weather", true]
      ])
      expect(Message.textOf(value[4]!)).toBe("Use Celsius, please.")
    }))

  it.effect("messages alone, without a system prompt, are read too", () =>
    Effect.gen(function* () {
      const { value } = yield* Anthropic.fromMessages([{ role: "user", content: "hi" }])
      expect(value).toEqual([Message.user("hi")])
    }))

  it.effect("tool input that arrived as text that is not JSON is repaired leniently, or fails strictly", () =>
    Effect.gen(function* () {
      const messages = [{ role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "f", input: "{\"q\": \"caf" }] }]
      const { value, warnings } = yield* Anthropic.fromMessages(messages)
      const block = (value[0] as Message.AssistantMessage).content[0] as Block.ToolCallBlock
      expect([block.args, block.rawArgs]).toEqual([{ q: "caf" }, "{\"q\": \"caf"])
      expect(tags(warnings)).toEqual(["RepairedToolArguments"])
      const error = yield* Effect.flip(Anthropic.fromMessages(messages, { toolArguments: "strict" }))
      assert(error._tag === "InvalidToolArguments")
      expect(error.rawArgs).toBe("{\"q\": \"caf")
    }))

  it.effect("input that is not an object is handled like argument text that did not parse", () =>
    Effect.gen(function* () {
      const { value } = yield* Anthropic.fromMessages([{ role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "f", input: [1, 2] }] }])
      const block = (value[0] as Message.AssistantMessage).content[0] as Block.ToolCallBlock
      expect([block.args, block.rawArgs, block.parseError]).toEqual([{}, "[1,2]", "expected a JSON object, got an array"])
    }))

  it.effect("explicit nulls and explicit defaults the API accepted come back as they were", () =>
    Effect.gen(function* () {
      const messages = [
        { role: "user", content: "q" },
        { role: "assistant", content: [{ type: "text", text: "Calling.", citations: null }, { type: "tool_use", id: "call_1", name: "f", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "ok", is_error: false, cache_control: null }] }
      ]
      const { value } = yield* Anthropic.fromMessages(messages)
      const back = yield* Anthropic.toMessages(value)
      expect(back.value.messages).toEqual(messages)
    }))

  it.effect("blocks this library does not type are kept and written back", () =>
    Effect.gen(function* () {
      const messages = [
        { role: "user", content: [{ type: "text", text: "Run it" }, { type: "container_upload", file_id: "file_01" }] },
        { role: "assistant", content: [{ type: "compaction", content: "Summary." }, { type: "text", text: "Done." }] }
      ]
      const { value } = yield* Anthropic.fromMessages(messages)
      expect((value[0] as Message.UserMessage).content[1]).toEqual(Block.providerData("anthropic", { type: "container_upload", file_id: "file_01" }))
      const back = yield* Anthropic.toMessages(value)
      expect(back.value.messages).toEqual(messages)
    }))

  it.effect("a payload that is not a Messages payload fails with MalformedPayload naming the path", () =>
    Effect.gen(function* () {
      const role = yield* Effect.flip(Anthropic.fromMessages([{ role: "tool", content: "x" }]))
      expect(role).toMatchObject({ _tag: "MalformedPayload", provider: "anthropic", path: "messages[0].role" })
      const text = yield* Effect.flip(Anthropic.fromMessages([{ role: "user", content: [{ type: "text", text: 3 }] }]))
      expect(text).toMatchObject({ path: "messages[0].content[0].text" })
      const system = yield* Effect.flip(Anthropic.fromMessages({ system: [{ type: "image" }], messages: [] }))
      expect(system).toMatchObject({ path: "system[0].type" })
    }))
})

describe("Anthropic requests", () => {
  const roundTrip = (body: object) =>
    Effect.gen(function* () {
      const decoded = yield* Anthropic.fromRequest(body)
      const back = yield* Anthropic.toRequest(decoded.value)
      expect(normalize(back.value)).toEqual(normalize(body))
      expect([...decoded.warnings, ...back.warnings]).toEqual([])
      return decoded.value
    })

  it.effect("parallel tool use with a failed result, a cached system prompt and a tool choice convert and come back whole", () =>
    Effect.gen(function* () {
      const request = yield* roundTrip(Payloads.anthropicToolsRequest)
      expect(request.toolChoice).toBe("auto")
      expect(request.parallelToolCalls).toBe(true)
      expect(request.tools?.[0]?.providerOptions).toEqual({ anthropic: { cache_control: { type: "ephemeral" } } })
      expect(request.maxOutputTokens).toBe(1024)
      expect(request.providerOptions).toBeUndefined()
    }))

  it.effect("extended thinking with a signature and redacted thinking convert and come back whole", () =>
    Effect.gen(function* () {
      const request = yield* roundTrip(Payloads.anthropicThinkingRequest)
      const assistant = request.messages[1] as Message.AssistantMessage
      expect(assistant.content.map((b) => b._tag)).toEqual(["Thinking", "RedactedThinking", "Text", "ToolCall"])
      expect((assistant.content[0] as Block.ThinkingBlock).signature).toBe("BDaL4VrbR2Oj0hO4XpJxT28J5TILnCrrUXoKiiNBZW9P+nr8XSj1zuZzAl4egiCCpQNvfyUuFFJP5CncdYZEQPPmLxYsNrcs==")
    }))

  it.effect("images and documents with citations, titles and context convert and come back whole", () =>
    Effect.gen(function* () {
      const request = yield* roundTrip(Payloads.anthropicMediaRequest)
      const files = (request.messages[0] as Message.UserMessage).content.filter((b): b is Block.FileBlock => b._tag === "File")
      expect(files.map((f) => [f.mediaType, f.source._tag, f.title, f.citationsEnabled])).toEqual([
        ["image/jpeg", "Base64", undefined, undefined],
        ["image/*", "Url", undefined, undefined],
        ["application/pdf", "Base64", "Annual report", true],
        ["text/plain", "Text", "My Document", true]
      ])
    }))

  it.effect("the web search server tool and its cited result convert and come back whole", () => roundTrip(Payloads.anthropicServerToolRequest))

  it.effect("a tool choice that forbids parallel calls sets parallelToolCalls, and back", () =>
    Effect.gen(function* () {
      const request = yield* roundTrip({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "x" }], tools: [{ name: "f", input_schema: { type: "object" } }], tool_choice: { type: "tool", name: "f", disable_parallel_tool_use: true } })
      expect([request.toolChoice, request.parallelToolCalls]).toEqual([{ _tag: "Tool", name: "f" }, false])
    }))

  it.effect("a tool choice of none is written alone: a parallel tool calls setting beside it is left out, reported when it forbade them", () =>
    Effect.gen(function* () {
      const tools = [Request.tool("f", { parameters: { type: "object", properties: {} } })]
      const write = (parallelToolCalls: boolean | undefined) =>
        Anthropic.toRequest(Request.make([Message.user("x")], { tools, toolChoice: "none", ...(parallelToolCalls === undefined ? {} : { parallelToolCalls }) }), { maxTokens: 5 })
      // the API's ToolChoiceNone has `type` alone and answers an extra field with a 400
      const forbidden = yield* write(false)
      expect(forbidden.value.tool_choice).toEqual({ type: "none" })
      expect(forbidden.warnings.map((w) => [w._tag, w.message])).toEqual([["DroppedContent", expect.stringContaining("the parallel tool calls setting")]])
      // allowing parallel calls is Anthropic's default: nothing is lost, nothing to report (strict mode passes)
      for (const parallel of [true, undefined]) {
        const written = yield* write(parallel)
        expect([written.value.tool_choice, written.warnings]).toEqual([{ type: "none" }, []])
      }
    }))

  it.effect("output_config's JSON schema format is the request's response format, its other settings kept, and back whole", () =>
    Effect.gen(function* () {
      const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false }
      const base = { model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "x" }] }
      const alone = yield* roundTrip({ ...base, output_config: { format: { type: "json_schema", schema } } })
      expect(alone.responseFormat).toEqual({ _tag: "JsonSchema", name: "response", schema })
      expect(alone.providerOptions).toBeUndefined()
      const withEffort = yield* roundTrip({ ...base, output_config: { effort: "low", format: { type: "json_schema", schema } } })
      expect(withEffort.responseFormat?._tag).toBe("JsonSchema")
      expect(withEffort.providerOptions).toEqual({ anthropic: { output_config: { effort: "low" } } })
      // a format this model cannot hold stays where it was
      const odd = yield* roundTrip({ ...base, output_config: { format: { type: "json_schema", schema, extra: 1 } } })
      expect(odd.responseFormat).toBeUndefined()
    }))

  it.effect("the structured outputs beta's top-level output_format is the response format too, and goes back where it came from", () =>
    Effect.gen(function* () {
      const schema = { type: "object", properties: { joke: { type: "string" } }, required: ["joke"], additionalProperties: false }
      const base = { model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "x" }] }
      const beta = yield* roundTrip({ ...base, output_format: { type: "json_schema", schema } })
      expect(beta.responseFormat).toEqual({ _tag: "JsonSchema", name: "response", schema })
      // beside other output settings, which stay in output_config
      const withEffort = yield* roundTrip({ ...base, output_config: { effort: "low" }, output_format: { type: "json_schema", schema } })
      expect(withEffort.responseFormat?._tag).toBe("JsonSchema")
      // both given: output_config.format is the format, the beta field kept as it was sent
      const both = yield* roundTrip({ ...base, output_config: { format: { type: "json_schema", schema } }, output_format: { type: "json_schema", schema: {} } })
      expect(both.responseFormat).toEqual({ _tag: "JsonSchema", name: "response", schema })
      // a format this model cannot hold stays where it was
      const odd = yield* roundTrip({ ...base, output_format: { type: "json_schema", schema, extra: 1 } })
      expect(odd.responseFormat).toBeUndefined()
      // a new format for a request read that way goes to the same field; without the request's options, to today's
      const replaced = { _tag: "JsonSchema", name: "r", schema: {} } as const
      const { value: same } = yield* Anthropic.toRequest(Request.make(beta.messages, { responseFormat: replaced, providerOptions: beta.providerOptions! }), { maxTokens: 8 })
      expect([same.output_format, same.output_config]).toEqual([{ type: "json_schema", schema: {} }, undefined])
      const { value: fresh } = yield* Anthropic.toRequest(Request.make(beta.messages, { responseFormat: replaced }), { maxTokens: 8 })
      expect([fresh.output_format, fresh.output_config]).toEqual([undefined, { format: { type: "json_schema", schema: {} } }])
      // and the estimate counts it: the framing of a structured output format and the schema's JSON
      const plain = TokenEstimator.heuristic.estimateRequest(Request.make(beta.messages, { model: "claude-sonnet-4-5" }), { provider: "anthropic" })
      expect(TokenEstimator.heuristic.estimateRequest(beta, { provider: "anthropic" }).total - plain.total).toBeGreaterThan(142)
    }))

  it.effect("a request from another format gets max_tokens from the options, a default input schema, and its response format as output_config", () =>
    Effect.gen(function* () {
      const request = Request.make([Message.user("x")], {
        model: "claude-sonnet-4-5",
        tools: [Request.tool("now")],
        toolChoice: "required",
        responseFormat: { _tag: "JsonSchema", name: "answer", schema: { type: "object" } }
      })
      const { value } = yield* Anthropic.toRequest(request, { maxTokens: 2048 })
      expect(value).toEqual({
        model: "claude-sonnet-4-5",
        max_tokens: 2048,
        messages: [{ role: "user", content: "x" }],
        tools: [{ name: "now", input_schema: { type: "object", properties: {} } }],
        tool_choice: { type: "any" },
        output_config: { format: { type: "json_schema", schema: { type: "object" } } }
      })
    }))

  it.effect("a request without an output limit is written without max_tokens and says so, since the API requires one", () =>
    Effect.gen(function* () {
      // a Chat Completions body with no max_completion_tokens
      const { value: request } = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] })
      const { value, warnings } = yield* Anthropic.toRequest(request)
      expect(value.max_tokens).toBeUndefined()
      expect(warnings.map((w) => w._tag)).toEqual(["MissingRequiredField"])
      expect(warnings[0]?.message).toBe(
        "the required field max_tokens was not written: the Messages API rejects a request without it; set the request's maxOutputTokens or the maxTokens option"
      )
      // strict conversion refuses to write the body
      const error = yield* Effect.flip(Anthropic.toRequest(request, { strict: true }))
      expect(error.warning._tag).toBe("MissingRequiredField")
      // the option, the request's own limit, or a max_tokens kept from an Anthropic body is enough
      expect((yield* Anthropic.toRequest(request, { maxTokens: 1024 })).warnings).toEqual([])
      expect((yield* Anthropic.toRequest(Request.make(request.messages, { maxOutputTokens: 512 }))).value.max_tokens).toBe(512)
      const read = yield* Anthropic.fromRequest({ model: "claude-sonnet-4-5", max_tokens: 300, messages: [{ role: "user", content: "hi" }] })
      expect((yield* Anthropic.toRequest(read.value)).warnings).toEqual([])
    }))

  it.effect("an output limit the API does not take (0, NaN, a kept null) is left out and said, and a usable option takes its place", () =>
    Effect.gen(function* () {
      const messages = [Message.user("hi")]
      const said = (w: ReadonlyArray<{ readonly _tag: string; readonly message: string }>) => w.filter((x) => x._tag === "MissingRequiredField").map((x) => x.message)
      for (const maxTokens of [Number.NaN, Number.POSITIVE_INFINITY, 0, -5, 1.5]) {
        const { value, warnings } = yield* Anthropic.toRequest(Request.make(messages), { maxTokens })
        expect(value.max_tokens, String(maxTokens)).toBeUndefined()
        expect(said(warnings)[0], String(maxTokens)).toContain(`the maxTokens option's ${String(maxTokens)}`)
      }
      // a limit of 0 read from a Chat body
      const zero = yield* OpenAiChat.fromRequest({ model: "gpt-4o", max_completion_tokens: 0, messages: [{ role: "user", content: "hi" }] })
      const fromZero = yield* Anthropic.toRequest(zero.value)
      expect(fromZero.value.max_tokens).toBeUndefined()
      expect(said(fromZero.warnings)[0]).toContain("not the request's 0")
      expect((yield* Anthropic.toRequest(zero.value, { maxTokens: 1024 })).value.max_tokens).toBe(1024)
      // a null kept from an Anthropic body: the option replaces it, and without one it is left out and said
      const kept = yield* Anthropic.fromRequest({ model: "claude-sonnet-4-5", max_tokens: null, messages: [{ role: "user", content: "hi" }] } as never)
      const replaced = yield* Anthropic.toRequest(kept.value, { maxTokens: 1024 })
      expect(replaced.value.max_tokens).toBe(1024)
      expect(said(replaced.warnings)).toEqual([])
      // the value it replaces is said, and strict conversion refuses to replace it
      expect(replaced.warnings.map((w) => w._tag)).toEqual(["ConvertedContent"])
      expect(replaced.warnings[0]?.message).toContain("max_tokens null")
      expect((yield* Effect.flip(Anthropic.toRequest(kept.value, { maxTokens: 1024, strict: true }))).warning._tag).toBe("ConvertedContent")
      // an option beyond the safe integers, or not a number, is no option
      for (const maxTokens of [1e21, "1024" as unknown as number]) {
        const { value, warnings } = yield* Anthropic.toRequest(Request.make(messages), { maxTokens })
        expect(value.max_tokens).toBeUndefined()
        expect(said(warnings)[0]).toContain(`the maxTokens option's ${typeof maxTokens === "number" ? String(maxTokens) : JSON.stringify(maxTokens)}`)
      }
      const left = yield* Anthropic.toRequest(kept.value)
      expect("max_tokens" in left.value).toBe(false)
      expect(said(left.warnings)[0]).toContain("not the request's null")
      expect((yield* Effect.flip(Anthropic.toRequest(kept.value, { strict: true }))).warning._tag).toBe("MissingRequiredField")
    }))
})

describe("Anthropic.fromResponse", () => {
  it.effect("a response gives the message, the stop reason, and usage with the cache figures", () =>
    Effect.gen(function* () {
      const { value } = yield* Anthropic.fromResponse(Payloads.anthropicToolUseResponse as Wire.Message)
      expect(value.message.content.map((b) => b._tag)).toEqual(["Thinking", "Text", "ToolCall"])
      expect([value.finishReason, value.providerFinishReason, value.model]).toEqual(["tool-calls", "tool_use", "claude-sonnet-4-5-20250929"])
      expect(value.usage).toEqual(new Message.Usage({ inputTokens: 2150, outputTokens: 45, cachedInputTokens: 50, cacheWriteInputTokens: 2000 }))
      expect(value.providerData).toMatchObject({ stop_sequence: null, usage: Payloads.anthropicToolUseResponse.usage })
    }))

  it.effect("a refusal is a stop reason, its details kept", () =>
    Effect.gen(function* () {
      const { value } = yield* Anthropic.fromResponse(Payloads.anthropicRefusalResponse as Wire.Message)
      expect(value.finishReason).toBe("refusal")
      expect(value.providerData?.["stop_details"]).toEqual({ type: "refusal", category: "cyber", explanation: null })
    }))

  it.effect("a response that ran a server tool replays as the same blocks", () =>
    Effect.gen(function* () {
      const { value } = yield* Anthropic.fromResponse(Payloads.anthropicServerToolResponse as Wire.Message)
      const back = yield* Anthropic.toMessages([Message.user("When was Claude Shannon born?"), value.message])
      expect(back.value.messages[1]!.content).toEqual(Payloads.anthropicServerToolResponse.content)
    }))
})

describe("Anthropic streams", () => {
  for (const fixture of AnthropicStreams.all as ReadonlyArray<Fixture>) {
    it.effect(`${fixture.name}: the stream gives the message its final response gives`, () =>
      Effect.gen(function* () {
        const streamed = yield* Anthropic.fromSse(sseOf(fixture))
        const direct = yield* Anthropic.fromResponse(fixture.expected as Wire.Message)
        expect(streamed.value).toEqual(direct.value)
      }))

    it.effect(`${fixture.name}: split at every position, the stream gives the same message`, () =>
      Effect.gen(function* () {
        const text = sseOf(fixture)
        const whole = yield* Anthropic.fromSse(text)
        for (let p = 0; p <= text.length; p++) {
          const split = yield* Anthropic.fromSse([text.slice(0, p), text.slice(p)])
          expect(split.value).toEqual(whole.value)
        }
      }), 60_000)

    it.effect(`${fixture.name}: its UTF-8 bytes split at every position give the same message`, () =>
      Effect.gen(function* () {
        const bytes = new TextEncoder().encode(sseOf(fixture))
        const whole = yield* Anthropic.fromSse(sseOf(fixture))
        for (let p = 0; p <= bytes.length; p++) {
          const split = yield* Anthropic.fromSse([bytes.subarray(0, p), bytes.subarray(p)])
          expect(split.value).toEqual(whole.value)
        }
      }), 60_000)

    it.effect(`${fixture.name}: cut after any event, the stream yields the partial message and what was cut`, () =>
      Effect.gen(function* () {
        for (let n = 0; n < fixture.frames.length; n++) {
          const events = fixture.frames.slice(0, n).map((f) => f.data as Wire.StreamEvent)
          const error = yield* Effect.flip(Anthropic.fromEvents(events))
          assert(error._tag === "IncompleteResponse")
          expect(error.cut.length).toBeGreaterThan(0)
          if (n > 0) expect(error.partial).toBeDefined()
        }
      }))
  }

  it.effect("a stream cut inside a tool's input JSON yields the partial call, its raw text kept", () =>
    Effect.gen(function* () {
      const frames = AnthropicStreams.thinkingAndToolUse.frames
      const cutAt = frames.findIndex((f) => JSON.stringify(f.data).includes("input_json_delta")) + 2
      const error = yield* Effect.flip(Anthropic.fromEvents(frames.slice(0, cutAt).map((f) => f.data as Wire.StreamEvent)))
      assert(error._tag === "IncompleteResponse")
      expect(error.cut.join(" ")).toContain("never stopped")
      const partial = Message.toolCallsOf(error.partial!.message)[0]!
      expect(partial.rawArgs).toBeDefined()
      expect(partial.parseError).toBeDefined()
    }))

  it.effect("a whole stream whose tool input is not JSON is read like argument text: repaired, or InvalidToolArguments when strict", () =>
    Effect.gen(function* () {
      const events: Array<Wire.StreamEvent> = [
        { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } },
        { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "f", input: {} } },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{\"a\": 1, \"b\": \"x" } },
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 9 } },
        { type: "message_stop" }
      ]
      const { value, warnings } = yield* Anthropic.fromEvents(events)
      const block = Message.toolCallsOf(value.message)[0]!
      expect([block.args, block.rawArgs]).toEqual([{ a: 1, b: "x" }, "{\"a\": 1, \"b\": \"x"])
      expect(tags(warnings)).toEqual(["RepairedToolArguments"])
      const error = yield* Effect.flip(Anthropic.fromEvents(events, { toolArguments: "strict" }))
      expect(error._tag).toBe("InvalidToolArguments")
      // the same stream cut short (no message_stop, or a block never stopped) is cut short, whatever its tool input
      const text = [
        { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "partial" } }
      ] as Array<Wire.StreamEvent>
      for (const cut of [events.slice(0, 5), [...events.slice(0, 4), ...text, events[4]!]]) {
        const incomplete = yield* Effect.flip(Anthropic.fromEvents(cut))
        assert(incomplete._tag === "IncompleteResponse")
        expect(incomplete.cut.at(-1)).toBe("no message_stop event")
        expect(Message.toolCallsOf(incomplete.partial!.message)[0]?.rawArgs).toBe("{\"a\": 1, \"b\": \"x")
      }
    }))

  it.effect("an error event from the API is passed on as is", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Anthropic.fromEvents([{ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }]))
      expect(error._tag).toBe("ProviderStreamError")
    }))
})

describe("Anthropic round trips", () => {
  it.effect.prop(
    "the model -> Anthropic -> the model is the identity for what Anthropic expresses",
    [anthropicConversation],
    ([conversation]) =>
      Effect.gen(function* () {
        const wire = yield* Anthropic.toMessages(conversation)
        expect(wire.warnings).toEqual([])
        const back = yield* Anthropic.fromMessages(JSON.parse(JSON.stringify(wire.value)))
        expect(Message.encodeAll(back.value)).toEqual(Message.encodeAll(conversation))
      }),
    { timeout: 120_000, arbitrary: { runs: 1000 } }
  )

  it.effect.prop(
    "Anthropic -> the model -> Anthropic gives the same system and messages",
    [anthropicPrompt],
    ([prompt]) =>
      Effect.gen(function* () {
        const ours = yield* Anthropic.fromMessages(prompt)
        const back = yield* Anthropic.toMessages(ours.value)
        expect(back.value).toEqual(prompt)
        expect(back.warnings).toEqual([])
      }),
    { timeout: 120_000, arbitrary: { runs: 1000 } }
  )

  it.effect.prop(
    "writing is total: lenient conversion always succeeds, strict fails only with UnsupportedContent for a reported loss",
    [Arbitrary.array(anyMessage, { maxLength: 8 })],
    ([conversation]) =>
      Effect.gen(function* () {
        const lenient = yield* Anthropic.toMessages(conversation)
        const losses = lenient.warnings.filter((w) => w._tag === "DroppedContent" || w._tag === "ConvertedContent" || (w._tag === "UnknownProviderField" && !w.kept))
        const strict = yield* Effect.result(Anthropic.toMessages(conversation, { strict: true }))
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
          const exit = yield* Effect.exit(Anthropic.fromRequest(input))
          if (exit._tag === "Failure") expect(Cause.hasDies(exit.cause)).toBe(false)
        }
      }),
    { timeout: 120_000, arbitrary: { runs: 500 } }
  )

  it("reading never throws, whatever the input", () => {
    const inputs: Array<unknown> = [null, 1, "x", { messages: [null] }, { messages: [{ role: "user", content: [{ type: "image" }] }] }, { messages: [{ role: "assistant", content: [{ type: "tool_use" }] }] }]
    for (const input of inputs) {
      const result = Effect.runSync(Effect.result(Anthropic.fromRequest(input)))
      expect(Result.isFailure(result)).toBe(true)
    }
  })
})
