import { assert, describe, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { Block, Conversation, Message, Request } from "../../src/index.js"
import { OpenAiResponses } from "../../src/providers/index.js"
import type { OpenAiResponsesWire } from "../../src/providers/index.js"
import { err, exact, json, ok, tags } from "./adapterHelpers.js"
import * as Fixtures from "./fixtures/openAiResponses.js"
import { eventsOf, sseOf } from "./fixtures/sse.js"

const items = (input: ReadonlyArray<object>): ReadonlyArray<OpenAiResponsesWire.InputItemLike> => input as ReadonlyArray<OpenAiResponsesWire.InputItemLike>
const read = (input: ReadonlyArray<object>) => exact(OpenAiResponses.fromMessages(items(input)))
const write = (messages: ReadonlyArray<Message.Message>) => exact(OpenAiResponses.toMessages(messages))
/** Reads items and writes them back: the same items when nothing was lost. */
const roundTrip = (input: ReadonlyArray<object>) => assert.deepStrictEqual<unknown>(write(read(input)), input)

// shaped like the API reference's function-calling guide
const weatherCall = { type: "function_call", id: "fc_12345xyz", call_id: "call_12345xyz", name: "get_weather", arguments: "{\"location\":\"Paris, France\"}" }
const weatherOutput = { type: "function_call_output", call_id: "call_12345xyz", output: "{\"temperature\": 14, \"unit\": \"celsius\"}" }
const reasoning = {
  type: "reasoning",
  id: "rs_6820f383d7c08191846711c5df8233bc",
  summary: [
    { type: "summary_text", text: "**Checking the weather**\n\nThe user wants Paris." },
    { type: "summary_text", text: "**Choosing units**\n\nCelsius fits." }
  ],
  encrypted_content: "gAAAAABoISQ24OyVRYbkYfukBvkJ5R"
}

describe("OpenAiResponses.fromMessages", () => {
  it("reads a user message, a function call and its output as a tool loop", () => {
    const messages = read([{ role: "user", content: "What's the weather like in Paris today?" }, weatherCall, weatherOutput])
    assert.deepStrictEqual(json(messages), json([
      Message.user("What's the weather like in Paris today?"),
      Message.assistant([Block.toolCall("call_12345xyz", "get_weather", { location: "Paris, France" }, { itemId: "fc_12345xyz" })]),
      Message.tool(Block.toolResult("call_12345xyz", "get_weather", "{\"temperature\": 14, \"unit\": \"celsius\"}"))
    ]))
    assert.isTrue(Conversation.isValid(messages))
  })

  it("keeps a reasoning item with several summary parts and its encrypted content in front of the call it produced", () => {
    const [, assistant] = read([{ role: "user", content: "Weather in Paris?" }, reasoning, weatherCall, weatherOutput])
    assert.strictEqual(assistant?.role, "assistant")
    const [thinking, call] = assistant!.content
    assert.strictEqual(thinking?._tag, "Thinking")
    if (thinking?._tag !== "Thinking") return
    assert.deepStrictEqual(thinking.summary, ["**Checking the weather**\n\nThe user wants Paris.", "**Choosing units**\n\nCelsius fits."])
    assert.strictEqual(thinking.encryptedContent, "gAAAAABoISQ24OyVRYbkYfukBvkJ5R")
    assert.strictEqual(thinking.itemId, reasoning.id)
    assert.strictEqual(call?._tag, "ToolCall")
  })

  it("puts parallel function calls in one assistant message and their outputs in one tool message", () => {
    const second = { ...weatherCall, id: "fc_2", call_id: "call_2", arguments: "{\"location\":\"Oslo\"}" }
    const messages = read([weatherCall, second, { ...weatherOutput, call_id: "call_2" }, weatherOutput])
    assert.deepStrictEqual(messages.map((m) => [m.role, m.content.length]), [["assistant", 2], ["tool", 2]])
  })

  it("names a tool result after the call it answers", () => {
    const messages = read([weatherCall, weatherOutput])
    const result = messages[1]!.content[0]
    assert.strictEqual(result?._tag === "ToolResult" ? result.toolName : undefined, "get_weather")
  })

  it("reads images and files given by URL, data URL and file id", () => {
    const [user] = read([{
      role: "user",
      content: [
        { type: "input_text", text: "what's in this image?" },
        { type: "input_image", image_url: "https://upload.wikimedia.org/wikipedia/commons/thumb/boardwalk.jpg", detail: "low" },
        { type: "input_image", file_id: "file-6F2ksmvXxt4VdoqmHRw6kL", detail: "auto" },
        { type: "input_file", filename: "draconomicon.pdf", file_data: "data:application/pdf;base64,JVBERi0xLjQK" },
        { type: "input_file", file_url: "https://www.berkshirehathaway.com/letters/2024ltr.pdf" }
      ]
    }])
    const files = (user!.content as ReadonlyArray<Block.Block>).filter((b): b is Block.FileBlock => b._tag === "File")
    assert.deepStrictEqual(files.map((f) => [f.mediaType, f.source._tag, f.detail ?? null, f.filename ?? null]), [
      ["image/*", "Url", "low", null],
      ["image/*", "FileId", "auto", null],
      ["application/pdf", "Base64", null, "draconomicon.pdf"],
      // Responses sends no type with a file URL: its extension names it
      ["application/pdf", "Url", null, null]
    ])
  })

  it("reads a file sent by URL or file id as the document its name or URL's extension names, else as bytes", () => {
    const parts = [
      { type: "input_file", file_url: "https://example.com/contract.PDF?download=1" },
      { type: "input_file", file_id: "file-abc", filename: "minutes.docx" },
      { type: "input_file", file_url: "https://example.com/export", filename: "rows.csv" },
      { type: "input_file", file_url: "https://example.com/v2.1/export" },
      { type: "input_file", file_id: "file-def", filename: "photo.png" }
    ]
    const [user] = read([{ role: "user", content: parts }])
    assert.deepStrictEqual((user!.content as ReadonlyArray<Block.FileBlock>).map((f) => f.mediaType), [
      "application/pdf",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "text/csv",
      "application/octet-stream",
      // an input_file stays a file: an image type would write it back as an input_image
      "application/octet-stream"
    ])
    roundTrip([{ role: "user", content: parts }])
  })

  it("reads an image whose data URL declares no image type as the image its bytes show, and writes the URL back as it came", () => {
    const url = "data:application/octet-stream;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB"
    const input = [{ role: "user", content: [{ type: "input_image", image_url: url, detail: "high" }] }]
    const [user] = read(input)
    const image = user!.content[0] as Block.FileBlock
    assert.deepStrictEqual([image.mediaType, image.source._tag, image.detail], ["image/png", "Base64", "high"])
    roundTrip(input)
  })

  it("reads an output message with citations, a refusal part and the item's phase", () => {
    const output = {
      type: "message",
      id: "msg_67ccd3acc8d48190a77525dc6de64b4104becb25c45c1d41",
      status: "completed",
      role: "assistant",
      phase: "final_answer",
      content: [
        { type: "output_text", text: "As of today, March 9, 2025, one notable positive news story...", annotations: [{ type: "url_citation", start_index: 442, end_index: 557, url: "https://.../?utm_source=chatgpt.com", title: "..." }] },
        { type: "refusal", refusal: "I can't share more than that." }
      ]
    }
    const [assistant] = read([output])
    const [text, refusal] = assistant!.content
    assert.strictEqual(text?._tag === "Text" ? text.citations?.length : undefined, 1)
    assert.strictEqual(refusal?._tag, "Refusal")
    roundTrip([output])
  })

  it("reads a web search call as a provider-executed tool call", () => {
    const search = { type: "web_search_call", id: "ws_67c9fa0502748190b7dd390736892e100be649c1a5ff9609", status: "completed", action: { type: "search", query: "positive news today" } }
    const [assistant] = read([search])
    const call = assistant!.content[0]
    assert.strictEqual(call?._tag, "ToolCall")
    if (call?._tag !== "ToolCall") return
    assert.deepStrictEqual([call.name, call.providerExecuted, call.args], ["web_search", true, { action: { type: "search", query: "positive news today" } }])
    roundTrip([search])
  })

  it("reads a file search call's results as the provider-executed call's result", () => {
    const search = { type: "file_search_call", id: "fs_1", status: "completed", queries: ["deep research"], results: [{ file_id: "file-2dtbBZdjtDKS8eqWxqbgDi", filename: "deep_research_blog.pdf", score: 0.93, text: "..." }] }
    const [assistant] = read([search])
    assert.deepStrictEqual(assistant!.content.map((b) => b._tag), ["ToolCall", "ToolResult"])
    roundTrip([search])
  })

  it("keeps items of unknown types, and unknown fields of known ones, and writes them back", () => {
    roundTrip([
      { role: "developer", content: "Be terse.", type: "message" },
      { type: "item_reference", id: "msg_earlier" },
      { ...weatherCall, status: "completed", namespace: "weather" },
      { ...weatherOutput, status: "completed" },
      { type: "custom_tool_call", call_id: "call_c", name: "apply_patch", input: "*** Begin Patch" },
      { type: "mcp_list_tools", id: "mcpl_1", server_label: "deepwiki", tools: [] }
    ])
  })

  it("keeps malformed argument text and repairs it, with a warning", () => {
    const converted = ok(OpenAiResponses.fromMessages(items([{ ...weatherCall, arguments: "{\"location\": \"Par" }])))
    assert.deepStrictEqual(tags(converted), ["RepairedToolArguments"])
    const call = converted.value[0]!.content[0]
    assert.strictEqual(call?._tag === "ToolCall" ? call.rawArgs : undefined, "{\"location\": \"Par")
  })

  it("fails on malformed argument text in strict tool-argument mode", () => {
    const error = err(OpenAiResponses.fromMessages(items([{ ...weatherCall, arguments: "{oops" }]), { toolArguments: "strict" }))
    assert.strictEqual(error._tag, "InvalidToolArguments")
  })

  it("fails with the path of a payload that is not Responses input", () => {
    const error = err(OpenAiResponses.fromMessages(items([{ type: "function_call", call_id: "c1", name: "f", arguments: 42 }])))
    assert.strictEqual(error._tag, "MalformedPayload")
    if (error._tag === "MalformedPayload") assert.strictEqual(error.path, "input[0].arguments")
  })

  it("refuses a request body without input unless it continues a stored response, conversation or prompt", () => {
    const error = err(OpenAiResponses.fromRequest({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }))
    assert.deepStrictEqual([error._tag, error._tag === "MalformedPayload" ? error.path : ""], ["MalformedPayload", "input"])
    const continued = exact(OpenAiResponses.fromRequest({ model: "gpt-5", previous_response_id: "resp_1", instructions: "Be brief." }))
    assert.deepStrictEqual(continued.messages.map((m) => m.role), ["system"])
  })

  it("keeps a function call that has no name or arguments yet (a stream cut short) whole, as provider data", () => {
    const [assistant] = read([{ type: "function_call", id: "fc_1", call_id: "c1", arguments: "{\"a\"" }])
    assert.strictEqual(assistant?.content[0]?._tag, "ProviderData")
  })

  it("fails, and does not throw, on a hostile payload", () => {
    const hostile = { get type(): string { throw new Error("boom") } }
    assert.strictEqual(err(OpenAiResponses.fromMessages(items([hostile]))) ._tag, "MalformedPayload")
  })
})

describe("OpenAiResponses.toMessages", () => {
  it("writes a one-text user message with string content", () => {
    assert.deepStrictEqual<unknown>(write([Message.user("Hi")]), [{ role: "user", content: "Hi" }])
  })

  it("writes a one-text message read as a list of parts back as a list", () => {
    roundTrip([{ role: "user", content: [{ type: "input_text", text: "Hi" }] }])
  })

  it("writes a system message from instructions-free history as a system message item", () => {
    assert.deepStrictEqual<unknown>(write([Message.system("Be brief.")]), [{ role: "system", content: "Be brief." }])
  })

  it("writes an image and a PDF in URL-safe, unpadded base64 (as a Gemini body may carry them) in the standard alphabet, padded", () => {
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xfb, 0xff, 0xfe, 0x3e, 0x3f])
    const urlSafe = Buffer.from(bytes).toString("base64url")
    const standard = Buffer.from(bytes).toString("base64")
    assert.deepStrictEqual<unknown>(write([Message.user([Block.file(Block.base64(urlSafe), "image/png"), Block.file(Block.base64(urlSafe), "application/pdf")])]), [
      {
        role: "user",
        content: [
          { type: "input_image", detail: "auto", image_url: `data:image/png;base64,${standard}` },
          { type: "input_file", file_data: `data:application/pdf;base64,${standard}` }
        ]
      }
    ])
  })

  it("writes an image without detail with detail auto, as the SDK type requires", () => {
    assert.deepStrictEqual<unknown>(write([Message.user([Block.image("https://example.com/cat.png")])]), [
      { role: "user", content: [{ type: "input_image", detail: "auto", image_url: "https://example.com/cat.png" }] }
    ])
  })

  it("writes an inline PDF as a data URL with its filename", () => {
    const written = write([Message.user([Block.document(Block.base64("JVBERi0xLjQK"), { filename: "a.pdf" })])])
    assert.deepStrictEqual<unknown>(written, [{ role: "user", content: [{ type: "input_file", file_data: "data:application/pdf;base64,JVBERi0xLjQK", filename: "a.pdf" }] }])
  })

  it("writes a call's original argument text back byte for byte", () => {
    const call = Block.toolCall("call_1", "f", { a: 1 }, { rawArgs: "{ \"a\": 1 }" })
    assert.deepStrictEqual<unknown>(write([Message.assistant([call])]), [{ type: "function_call", call_id: "call_1", name: "f", arguments: "{ \"a\": 1 }" }])
  })

  it("writes assistant text without an item id as an assistant message with string content", () => {
    assert.deepStrictEqual<unknown>(write([Message.assistant("Done.")]), [{ role: "assistant", content: "Done." }])
  })

  it("drops another provider's thinking with a warning, and fails in strict mode", () => {
    const anthropic = Message.assistant([Block.thinking("Let me think.", "EqQBCkgIARAB"), Block.text("Answer.")])
    const converted = ok(OpenAiResponses.toMessages([anthropic]))
    assert.deepStrictEqual(tags(converted), ["DroppedContent"])
    assert.deepStrictEqual<unknown>(converted.value, [{ role: "assistant", content: "Answer." }])
    const error = err(OpenAiResponses.toMessages([anthropic], { strict: true }))
    assert.strictEqual(error._tag, "UnsupportedContent")
  })

  it("a response without its output list is MalformedPayload, not an empty reply", () => {
    const error = err(OpenAiResponses.fromResponse({ id: "resp_1", object: "response" }))
    assert.strictEqual(error._tag, "MalformedPayload")
  })

  it("an assistant item without an id comes back whole: one item, its parts, their annotations and other fields", () => {
    const input = [
      { role: "user", content: "q" },
      {
        type: "message",
        role: "assistant",
        content: [
          { type: "output_text", text: "see", annotations: [{ type: "url_citation", url: "https://u", title: "t", start_index: 0, end_index: 3 }], logprobs: [] },
          { type: "output_text", text: "more" },
          { type: "refusal", refusal: "not that" }
        ]
      },
      { role: "assistant", content: [{ type: "output_text", text: "next item" }] }
    ]
    const read = ok(OpenAiResponses.fromRequest({ model: "m", input }))
    const back = ok(OpenAiResponses.toRequest(read.value))
    assert.deepStrictEqual(read.warnings, [])
    assert.deepStrictEqual(back.warnings, [])
    assert.deepStrictEqual<unknown>(JSON.parse(JSON.stringify(back.value.input)), input)
  })

  it("reports what it cannot carry: redacted thinking, audio, a tool error flag, a participant name", () => {
    const converted = ok(OpenAiResponses.toMessages([
      Message.user([Block.audio("UklGRg==", "audio/wav")], { name: "alice" }),
      Message.assistant([Block.redactedThinking("EmwKAhgB"), Block.toolCall("c1", "f", {})]),
      Message.tool(Block.toolResult("c1", "f", "failed", true))
    ]))
    assert.deepStrictEqual(converted.warnings.map((w) => ("what" in w ? w.what : "")), [
      "the participant name",
      "audio (audio/wav)",
      "the user message",
      "redacted thinking",
      "the error flag of a tool result"
    ])
  })

  it("sends a JSON tool result as JSON text, and says so", () => {
    const converted = ok(OpenAiResponses.toMessages([Message.tool(Block.toolResult("c1", "f", [Block.json({ temperature: 14 })]))]))
    assert.deepStrictEqual(tags(converted), ["ConvertedContent"])
    assert.deepStrictEqual<unknown>(converted.value, [{ type: "function_call_output", call_id: "c1", output: "{\"temperature\":14}" }])
  })

  it("keeps a reasoning item's encrypted content for store: false replays", () => {
    const thinking = Block.thinking("", undefined, { itemId: "rs_1", summary: [], encryptedContent: "gAAAAB" })
    assert.deepStrictEqual<unknown>(write([Message.assistant([thinking, Block.toolCall("c1", "f", {})])]), [
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAAAB" },
      { type: "function_call", call_id: "c1", name: "f", arguments: "{}" }
    ])
  })
})

describe("OpenAiResponses requests", () => {
  const body = {
    model: "gpt-5",
    instructions: "You are a helpful assistant.",
    input: [{ role: "user", content: "What is the weather like in Paris today?" }, reasoning, weatherCall, weatherOutput],
    tools: [
      { type: "web_search", search_context_size: "medium" },
      { type: "function", name: "get_weather", description: "Get current temperature for a given location.", parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"], additionalProperties: false }, strict: true }
    ],
    tool_choice: "auto",
    parallel_tool_calls: false,
    text: { format: { type: "json_schema", name: "weather", schema: { type: "object" }, strict: true }, verbosity: "low" },
    reasoning: { effort: "low", summary: "auto" },
    include: ["reasoning.encrypted_content"],
    store: false,
    temperature: 1
  }

  it("reads instructions, tools (a hosted tool as one the provider defines, in its place), tool choice and response format into the request", () => {
    const request = exact(OpenAiResponses.fromRequest(body))
    assert.strictEqual(request.model, "gpt-5")
    assert.strictEqual(request.messages[0]?.role, "system")
    assert.deepStrictEqual(request.tools?.map((t) => t.name), ["web_search", "get_weather"])
    assert.deepStrictEqual(request.tools?.[0]?.providerDefined, { provider: "openai-responses", type: "web_search", config: { search_context_size: "medium" } })
    assert.strictEqual(request.toolChoice, "auto")
    assert.strictEqual(request.parallelToolCalls, false)
    assert.deepStrictEqual(request.responseFormat, { _tag: "JsonSchema", name: "weather", schema: { type: "object" }, strict: true })
  })

  it("keeps every body field the model does not name in providerOptions", () => {
    const request = exact(OpenAiResponses.fromRequest(body))
    assert.deepStrictEqual<unknown>(request.providerOptions?.["openai-responses"], {
      text: { verbosity: "low" },
      reasoning: { effort: "low", summary: "auto" },
      include: ["reasoning.encrypted_content"],
      store: false,
      temperature: 1
    })
  })

  it("writes the request back to the same body", () => {
    assert.deepStrictEqual<unknown>(exact(OpenAiResponses.toRequest(exact(OpenAiResponses.fromRequest(body)))), body)
  })

  it("keeps a tool choice the model has no word for", () => {
    const allowed = { ...body, tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "get_weather" }] } }
    const request = exact(OpenAiResponses.fromRequest(allowed))
    assert.isUndefined(request.toolChoice)
    assert.deepStrictEqual<unknown>(exact(OpenAiResponses.toRequest(request)), allowed)
  })

  it("writes a named tool choice in the function form", () => {
    const request = Request.make([Message.user("hi")], { tools: [Request.tool("get_weather")], toolChoice: { _tag: "Tool", name: "get_weather" } })
    const written = exact(OpenAiResponses.toRequest(request))
    assert.deepStrictEqual<unknown>(written.tool_choice, { type: "function", name: "get_weather" })
    assert.deepStrictEqual<unknown>(written.tools, [{ type: "function", name: "get_weather", parameters: null, strict: false }])
  })
})

const response = {
  id: "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
  object: "response",
  created_at: 1741476542,
  status: "completed",
  model: "gpt-5-2025-08-07",
  output: [
    reasoning,
    { type: "message", id: "msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b", status: "completed", role: "assistant", content: [{ type: "output_text", text: "In a peaceful grove beneath a silver moon...", annotations: [] }] }
  ],
  usage: { input_tokens: 36, input_tokens_details: { cached_tokens: 12 }, output_tokens: 87, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 123 }
} as unknown as OpenAiResponsesWire.Response

describe("OpenAiResponses.fromResponse", () => {
  it("reads the output items as one assistant message with usage", () => {
    const decoded = exact(OpenAiResponses.fromResponse(response))
    assert.deepStrictEqual(decoded.message.content.map((b) => b._tag), ["Thinking", "Text"])
    assert.deepStrictEqual(decoded.usage, new Message.Usage({ inputTokens: 36, cachedInputTokens: 12, outputTokens: 87, reasoningTokens: 64, totalTokens: 123 }))
    assert.deepStrictEqual(decoded.message.usage, decoded.usage)
    assert.deepStrictEqual([decoded.finishReason, decoded.id, decoded.model], ["stop", response.id, "gpt-5-2025-08-07"])
  })

  it("says the model stopped for tool calls when it called a function", () => {
    const withCall = { ...response, output: [reasoning, weatherCall] } as unknown as OpenAiResponsesWire.Response
    assert.strictEqual(exact(OpenAiResponses.fromResponse(withCall)).finishReason, "tool-calls")
  })

  it("says the output was cut when the response is incomplete for max_output_tokens", () => {
    const cut = { ...response, status: "incomplete", incomplete_details: { reason: "max_output_tokens" } } as unknown as OpenAiResponsesWire.Response
    const decoded = exact(OpenAiResponses.fromResponse(cut))
    assert.deepStrictEqual([decoded.finishReason, decoded.providerFinishReason], ["length", "max_output_tokens"])
  })

  it("replays a response's output as the next request's input unchanged", () => {
    const decoded = exact(OpenAiResponses.fromResponse(response))
    assert.deepStrictEqual<unknown>(write([decoded.message]), response.output)
  })
})

describe("OpenAiResponses streams", () => {
  for (const fixture of Fixtures.all) {
    it(`reads the ${fixture.name} stream as the response it adds up to`, () =>
      Effect.gen(function* () {
        const expected = yield* OpenAiResponses.fromResponse(fixture.expected as OpenAiResponsesWire.Response)
        const fromEvents = yield* OpenAiResponses.fromEvents(eventsOf(fixture) as Array<OpenAiResponsesWire.StreamEvent>)
        const fromSse = yield* OpenAiResponses.fromSse(sseOf(fixture))
        const fromStream = yield* OpenAiResponses.fromStream(Stream.fromIterable(eventsOf(fixture) as Array<OpenAiResponsesWire.StreamEvent>))
        assert.deepStrictEqual(json([fromEvents.value.message]), json([expected.value.message]))
        assert.deepStrictEqual(json([fromSse.value.message]), json([expected.value.message]))
        assert.deepStrictEqual(json([fromStream.value.message]), json([expected.value.message]))
      }).pipe(Effect.runSync))
  }

  it("fails a stream cut short with IncompleteResponse carrying the message read so far", () => {
    const events = eventsOf(Fixtures.reasoningAndText) as Array<OpenAiResponsesWire.StreamEvent>
    const error = err(OpenAiResponses.fromEvents(events.slice(0, 12)))
    assert.strictEqual(error._tag, "IncompleteResponse")
    if (error._tag !== "IncompleteResponse") return
    assert.deepStrictEqual(error.partial?.message.content.map((b) => b._tag), ["Thinking", "Text"])
    assert.isNotEmpty(error.cut)
  })

  it("passes a provider's stream error on", () => {
    const error = err(OpenAiResponses.fromEvents([{ type: "error", code: "server_error", message: "The server had an error" } as OpenAiResponsesWire.StreamEvent]))
    assert.strictEqual(error._tag, "ProviderStreamError")
  })
})

describe("OpenAiResponses and a detail setting on a file that is not an image", () => {
  it("sends auto, low or high on the input_file (how a PDF's page images are read), and reports original left out", () => {
    const doc = (detail: Block.ImageDetail) => ok(OpenAiResponses.toMessages([Message.user([Block.text("Read it."), Block.document(Block.url("https://example.com/a.pdf"), { detail })])]))
    const high = doc("high")
    assert.deepStrictEqual(tags(high), [])
    assert.deepStrictEqual<unknown>(high.value[0], {
      role: "user",
      content: [{ type: "input_text", text: "Read it." }, { type: "input_file", file_url: "https://example.com/a.pdf", detail: "high" }]
    })
    const original = doc("original")
    assert.deepStrictEqual(tags(original), ["DroppedContent"])
    assert.include(original.warnings[0]!.message, "the original detail setting of an application/pdf file")
  })
})
