import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { Effect, Stream } from "effect"
import { Block, Conversation, Message, Request, TokenEstimator } from "../../src/index.js"
import { Gemini, OpenAiChat } from "../../src/providers/index.js"
import type { Conversion, GeminiWire } from "../../src/providers/index.js"
import { err, exact, json, ok, tags } from "./adapterHelpers.js"
import * as Fixtures from "./fixtures/gemini.js"
import { snakeCased, snakeCasedResponse, unspelled } from "./geminiSpelling.js"
import { eventsOf, sseOf } from "./fixtures/sse.js"

type Input = { systemInstruction?: object; contents: ReadonlyArray<object> }
const read = (input: Input) => exact(Gemini.fromMessages(input as GeminiWire.MessagesLike))
const write = (messages: ReadonlyArray<Message.Message>) => exact(Gemini.toMessages(messages))
const roundTrip = (input: Input) => assert.deepStrictEqual<unknown>(write(read(input)), input)
/** Written with `spelling: "asRead"`: each field read in snake_case goes back so. */
const writeAsRead = (messages: ReadonlyArray<Message.Message>) => exact(Gemini.toMessages(messages, { spelling: "asRead" }))
const roundTripAsRead = (input: Input) => assert.deepStrictEqual<unknown>(writeAsRead(read(input)), input)

// shaped like the Gemini API's function-calling guide
const ask = { role: "user", parts: [{ text: "What's the temperature in London?" }] }
const call = { role: "model", parts: [{ functionCall: { name: "get_current_temperature", args: { location: "London" } } }] }
const answer = { role: "user", parts: [{ functionResponse: { name: "get_current_temperature", response: { result: { temperature: 25, unit: "Celsius" } } } }] }

describe("Gemini.fromMessages", () => {
  it("reads a function call and its response as a tool loop, matching the response to the call by name", () => {
    const messages = read({ contents: [ask, call, answer] })
    assert.deepStrictEqual(messages.map((m) => m.role), ["user", "assistant", "tool"])
    const [, assistant, tool] = messages
    const callBlock = assistant!.content[0]
    const result = tool!.content[0]
    assert.strictEqual(callBlock?._tag, "ToolCall")
    assert.strictEqual(result?._tag === "ToolResult" ? result.toolCallId : undefined, callBlock?._tag === "ToolCall" ? callBlock.id : "")
    assert.deepStrictEqual(result?._tag === "ToolResult" ? result.content : undefined, [Block.json({ result: { temperature: 25, unit: "Celsius" } })])
    assert.isTrue(Conversation.isValid(messages))
  })

  it("does not write back the ids it made up for calls that had none", () => {
    roundTrip({ contents: [ask, call, answer] })
  })

  it("does not write a made-up call id on a result the caller built for that call", () => {
    const [, assistant] = read({ contents: [ask, call] })
    const made = Message.toolCallsOf(assistant!)[0]!
    const written = write([Message.user("Temperature in London?"), assistant!, Message.toolResultMessage(made.id, made.name, "25 °C")])
    assert.deepStrictEqual<unknown>(written.contents[2], { role: "user", parts: [{ functionResponse: { name: "get_current_temperature", response: { output: "25 °C" } } }] })
    assert.isTrue(Conversation.isValid(read(written)))
  })

  it("writes results without ids in the order of their calls, which is how Gemini pairs them", () => {
    const weather = (city: string) => ({ functionCall: { name: "get_weather", args: { city } } })
    const report = (text: string) => ({ functionResponse: { name: "get_weather", response: { output: text } } })
    const body = {
      contents: [
        { role: "user", parts: [{ text: "Weather in Oslo and Tokyo?" }] },
        { role: "model", parts: [weather("Oslo"), { functionCall: { name: "get_time", args: {} } }, weather("Tokyo")] },
        { role: "user", parts: [report("Oslo: 4 °C"), { functionResponse: { name: "get_time", response: { output: "09:00" } } }, report("Tokyo: 18 °C")] }
      ]
    }
    const [user, assistant, tool] = read(body)
    // the results as an agent may append them, as each tool finishes
    const finished = Message.tool([...(tool as Message.ToolMessage).content].reverse())
    assert.isTrue(Conversation.isValid([user!, assistant!, finished]))
    assert.deepStrictEqual<unknown>(write([user!, assistant!, finished]), body)
  })

  it("keeps each name's responses without ids in call order across tool messages, and moves nothing else", () => {
    const weather = (city: string) => ({ functionCall: { name: "get_weather", args: { city } } })
    const report = (text: string) => ({ functionResponse: { name: "get_weather", response: { output: text } } })
    const time = { functionResponse: { name: "get_time", response: { output: "09:00" } } }
    const calls = { role: "model", parts: [weather("Oslo"), { functionCall: { name: "get_time", args: {} } }, weather("Tokyo")] }
    const [user, assistant, tool] = read({ contents: [{ role: "user", parts: [{ text: "Weather and time?" }] }, calls, { role: "user", parts: [report("Oslo: 4 °C"), time, report("Tokyo: 18 °C")] }] })
    const [oslo, now, tokyo] = (tool as Message.ToolMessage).content
    // one tool message per result, as each tool finished: Tokyo, the time, then Oslo
    const written = write([user!, assistant!, Message.tool([tokyo!]), Message.tool([now!]), Message.tool([oslo!])])
    assert.deepStrictEqual<unknown>(written.contents.slice(2), [{ role: "user", parts: [report("Oslo: 4 °C")] }, { role: "user", parts: [time] }, { role: "user", parts: [report("Tokyo: 18 °C")] }])
    // responses of other names keep their places: Gemini pairs by name
    const mixed = { contents: [{ role: "user", parts: [{ text: "Time and weather?" }] }, calls, { role: "user", parts: [time, report("Oslo: 4 °C"), report("Tokyo: 18 °C")] }] }
    roundTrip(mixed)
    // calls over two model contents in a row pair as one turn
    roundTrip({ contents: [{ role: "user", parts: [{ text: "Weather?" }] }, { role: "model", parts: [weather("Oslo")] }, { role: "model", parts: [weather("Tokyo")] }, { role: "user", parts: [report("Oslo: 4 °C"), report("Tokyo: 18 °C")] }] })
  })

  it("matches a response without an id to a call of the model turn before it, not to an older unanswered one", () => {
    const oslo = { role: "model", parts: [{ functionCall: { name: "get_current_temperature", args: { location: "Oslo" } } }] }
    const messages = read({ contents: [ask, oslo, { role: "user", parts: [{ text: "London, not Oslo." }] }, call, answer] })
    const londonCall = Message.toolCallsOf(messages[3]!)[0]!
    assert.strictEqual(Message.toolResultsOf(messages[4]!)[0]?.toolCallId, londonCall.id)
    // the Oslo call is left unanswered, as it was
    assert.deepStrictEqual(Conversation.issuesOf(messages).map((i) => i._tag), ["MissingToolResult"])
  })

  it("makes up an id no call of the input has, so a call named like a made-up id keeps its own answer", () => {
    const f = (id?: string) => ({ functionCall: { name: "f", args: {}, ...(id === undefined ? {} : { id }) } })
    const done = (output: string, id?: string) => ({ functionResponse: { name: "f", response: { output }, ...(id === undefined ? {} : { id }) } })
    // "f_1_1" is the id the second call, at contents[1].parts[1], would be given
    const input = { contents: [ask, { role: "model", parts: [f("f_1_1"), f()] }, { role: "user", parts: [done("for the named", "f_1_1"), done("for the other")] }] }
    const messages = read(input)
    const [named, other] = Message.toolCallsOf(messages[1]!)
    assert.notStrictEqual(other!.id, named!.id)
    assert.deepStrictEqual(Message.toolResultsOf(messages[2]!).map((r) => [r.toolCallId, r.content]), [["f_1_1", "for the named"], [other!.id, "for the other"]])
    assert.isTrue(Conversation.isValid(messages))
    roundTrip(input)
    // a response naming the id made up for a call without one still answers that call
    const answered = read({ contents: [ask, { role: "model", parts: [f()] }, { role: "user", parts: [done("ok", "f_1_0")] }] })
    assert.isTrue(Conversation.isValid(answered))
  })

  it("matches a response without an id to a call no response names, wherever the naming response stands", () => {
    const search = (q: string, id?: string) => ({ functionCall: { name: "search", args: { q }, ...(id === undefined ? {} : { id }) } })
    const found = (text: string, id?: string) => ({ functionResponse: { name: "search", response: { output: text }, ...(id === undefined ? {} : { id }) } })
    const body = { contents: [ask, { role: "model", parts: [search("a", "call_a"), search("b")] }, { role: "user", parts: [found("for b"), found("for a", "call_a")] }] }
    const messages = read(body)
    const [callA, callB] = Message.toolCallsOf(messages[1]!)
    assert.deepStrictEqual(Message.toolResultsOf(messages[2]!).map((r) => [r.toolCallId, r.content]), [[callB!.id, "for b"], [callA!.id, "for a"]])
    assert.isTrue(Conversation.isValid(messages))
    roundTrip(body)
    // the naming response in a later content of the same turn
    const split = { contents: [ask, { role: "model", parts: [search("a", "call_a"), search("b")] }, { role: "user", parts: [found("for b")] }, { role: "user", parts: [found("for a", "call_a")] }] }
    const [, assistant, first, second] = read(split)
    const [a, b] = Message.toolCallsOf(assistant!)
    assert.deepStrictEqual([...Message.toolResultsOf(first!), ...Message.toolResultsOf(second!)].map((r) => [r.toolCallId, r.content]), [[b!.id, "for b"], [a!.id, "for a"]])
    roundTrip(split)
  })

  it("writes back a call whose arguments were an explicit null as it came, with no hint on the wire", () => {
    roundTrip({ contents: [ask, { role: "model", parts: [{ functionCall: { name: "get_current_temperature", args: null } }] }, answer] })
  })

  it("keeps each thought signature on the part it signs, with parallel calls signed only on the first", () => {
    const parallel = {
      role: "model",
      parts: [
        { functionCall: { id: "c1", name: "check_flight", args: { flight: "AA100" } }, thoughtSignature: "<Signature_A>" },
        { functionCall: { id: "c2", name: "check_flight", args: { flight: "BA200" } } }
      ]
    }
    const [, assistant] = read({ contents: [ask, parallel] })
    assert.deepStrictEqual(assistant!.content.map((b) => (b._tag === "ToolCall" ? b.thoughtSignature ?? null : "?")), ["<Signature_A>", null])
    roundTrip({ contents: [ask, parallel] })
  })

  it("reads thought summaries as thinking and the answer as text", () => {
    const [, assistant] = read({ contents: [ask, { role: "model", parts: [{ text: "**Recalling London's climate**", thought: true }, { text: "About 25°C.", thoughtSignature: "Cs8BAY" }] }] })
    assert.deepStrictEqual(assistant!.content.map((b) => b._tag), ["Thinking", "Text"])
  })

  it("reads inline data and file URIs as files", () => {
    const [user] = read({ contents: [{ role: "user", parts: [{ text: "Caption this." }, { inlineData: { mimeType: "image/jpeg", data: "/9j/4AAQ" } }, { fileData: { mimeType: "application/pdf", fileUri: "https://generativelanguage.googleapis.com/v1beta/files/abc" } }] }] })
    assert.deepStrictEqual(user!.content.map((b) => (b._tag === "File" ? `${b.mediaType} ${b.source._tag}` : b._tag)), ["Text", "image/jpeg Base64", "application/pdf Url"])
  })

  it("reads a response's output text, or error text, as the tool result's text", () => {
    const messages = read({ contents: [call, { role: "user", parts: [{ functionResponse: { name: "get_current_temperature", response: { error: "city not found" } } }] }] })
    const result = messages[1]!.content[0]
    assert.deepStrictEqual(result?._tag === "ToolResult" ? [result.content, result.isError] : undefined, ["city not found", true])
  })

  it("reads a multimodal function response's parts as files of the result", () => {
    const input = { contents: [call, { role: "user", parts: [{ functionResponse: { name: "get_current_temperature", response: { output: "chart attached" }, parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }] } }] }] }
    const result = read(input)[1]!.content[0]
    assert.deepStrictEqual(result?._tag === "ToolResult" && Array.isArray(result.content) ? result.content.map((p) => p._tag) : undefined, ["Text", "File"])
    roundTrip(input)
  })

  it("reads code execution as a provider-executed call and its result", () => {
    const input = {
      contents: [ask, {
        role: "model",
        parts: [
          { text: "Let me compute it." },
          { executableCode: { language: "PYTHON", code: "print(sum(range(1, 51)))" } },
          { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1275\n" } },
          { text: "The sum is 1275." }
        ]
      }]
    }
    const [, assistant] = read(input)
    const [, code, result] = assistant!.content
    assert.deepStrictEqual([code?._tag, result?._tag], ["ToolCall", "ToolResult"])
    assert.strictEqual(result?._tag === "ToolResult" ? result.toolCallId : "", code?._tag === "ToolCall" ? code.id : undefined)
    assert.isTrue(Conversation.isValid(read(input)))
    roundTrip(input)
  })

  it("splits a user content that mixes function responses and text into a tool and a user message", () => {
    const messages = read({ contents: [call, { role: "user", parts: [...answer.parts, { text: "Now in Fahrenheit?" }] }] })
    assert.deepStrictEqual(messages.map((m) => m.role), ["assistant", "tool", "user"])
  })

  it("keeps parts of unknown kinds and unknown fields, and writes them back", () => {
    roundTrip({
      systemInstruction: { role: "user", parts: [{ text: "You are terse." }] },
      contents: [
        { role: "user", parts: [{ text: "Describe the clip." }, { fileData: { mimeType: "video/mp4", fileUri: "gs://b/c.mp4" }, videoMetadata: { startOffset: "10s" } }] },
        { role: "model", parts: [{ text: "A dog runs.", partMetadata: { source: "vision" } }, { toolCall: { id: "t1", toolType: "GOOGLE_SEARCH" } }] }
      ]
    })
  })

  it("keeps malformed payload errors typed, with their path", () => {
    const error = err(Gemini.fromMessages({ contents: [{ role: "model", parts: [{ functionCall: { args: {} } }] }] } as unknown as GeminiWire.MessagesLike))
    assert.strictEqual(error._tag === "MalformedPayload" ? error.path : undefined, "contents[0].parts[0].functionCall.name")
  })

  it("refuses a body without contents, which is another format's (a Chat body read as Gemini), rather than read no messages", () => {
    for (const body of [{ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }, { systemInstruction: { parts: [{ text: "Be brief." }] } }]) {
      const fromMessages = err(Gemini.fromMessages(body as unknown as GeminiWire.MessagesLike))
      const fromRequest = err(Gemini.fromRequest(body))
      for (const error of [fromMessages, fromRequest]) assert.deepStrictEqual([error._tag, error._tag === "MalformedPayload" ? error.path : ""], ["MalformedPayload", "contents"])
    }
    assert.deepStrictEqual(read({ contents: [] }), [])
  })

  it("reports non-text parts of a system instruction, which a system message cannot hold", () => {
    const converted = ok(Gemini.fromMessages({ systemInstruction: { parts: [{ text: "Be brief." }, { inlineData: { mimeType: "image/png", data: "iVBO" } }] }, contents: [] }))
    assert.deepStrictEqual(tags(converted), ["UnknownProviderField"])
  })
})

describe("Gemini.toMessages", () => {
  it("lifts leading system messages into the system instruction", () => {
    const written = write([Message.system("Be brief."), Message.system("Answer in French."), Message.user("Bonjour")])
    assert.deepStrictEqual<unknown>(written, {
      systemInstruction: { parts: [{ text: "Be brief." }, { text: "Answer in French." }] },
      contents: [{ role: "user", parts: [{ text: "Bonjour" }] }]
    })
  })

  it("sends a later system message as user text, and says so", () => {
    const converted = ok(Gemini.toMessages([Message.user("Hi"), Message.system("Switch to French.")]))
    assert.deepStrictEqual(tags(converted), ["ConvertedContent"])
    assert.deepStrictEqual<unknown>(converted.value.contents[1], { role: "user", parts: [{ text: "Switch to French." }] })
  })

  it("sends tool results as function responses: text as output, errors as error, JSON objects as they are", () => {
    const written = write([
      Message.assistant([Block.toolCall("c1", "f", {}), Block.toolCall("c2", "f", {}), Block.toolCall("c3", "f", {})]),
      Message.tool([Block.toolResult("c1", "f", "ok"), Block.toolResult("c2", "f", "boom", true), Block.toolResult("c3", "f", [Block.json({ rows: 3 })])])
    ])
    assert.deepStrictEqual<unknown>(written.contents[1], {
      role: "user",
      parts: [
        { functionResponse: { name: "f", id: "c1", response: { output: "ok" } } },
        { functionResponse: { name: "f", id: "c2", response: { error: "boom" } } },
        { functionResponse: { name: "f", id: "c3", response: { rows: 3 } } }
      ]
    })
  })

  it("drops another provider's thinking and replay data with warnings, and fails in strict mode", () => {
    const messages = [Message.assistant([Block.thinking("Hmm.", "EqQBCkgIARAB"), Block.redactedThinking("EmwKAhgB"), Block.text("Hi")])]
    assert.deepStrictEqual(tags(ok(Gemini.toMessages(messages))), ["DroppedContent", "DroppedContent"])
    assert.strictEqual(err(Gemini.toMessages(messages, { strict: true }))._tag, "UnsupportedContent")
  })

  it("sends arguments that are not an object as {}, and says so", () => {
    const converted = ok(Gemini.toMessages([Message.assistant([Block.toolCall("c1", "f", [1, 2])])]))
    assert.deepStrictEqual(tags(converted), ["ConvertedContent"])
    assert.deepStrictEqual<unknown>(converted.value.contents[0]?.parts[0], { functionCall: { name: "f", args: {}, id: "c1" } })
  })

  it("drops files given by another provider's file id, with a warning", () => {
    const converted = ok(Gemini.toMessages([Message.user([Block.file(Block.fileId("file-abc"), "application/pdf"), Block.text("Summarize it.")])]))
    assert.deepStrictEqual(tags(converted), ["DroppedContent"])
  })
})

describe("Gemini requests", () => {
  const body = {
    systemInstruction: { role: "user", parts: [{ text: "You are a weather bot." }] },
    contents: [ask, call, answer],
    tools: [
      { functionDeclarations: [{ name: "get_current_temperature", description: "Gets the current temperature for a given location.", parametersJsonSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] } }] },
      { googleSearch: {} }
    ],
    toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_current_temperature"] } },
    generationConfig: { temperature: 0, responseMimeType: "application/json", responseJsonSchema: { type: "object" }, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
    safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }]
  }

  it("reads tools (Google Search as a tool Gemini defines, in its place), the forced function and the JSON response format into the request", () => {
    const request = exact(Gemini.fromRequest(body))
    assert.deepStrictEqual(request.tools?.map((t) => t.name), ["get_current_temperature", "googleSearch"])
    assert.deepStrictEqual(request.tools?.[1]?.providerDefined, { provider: "gemini", type: "googleSearch", config: {} })
    assert.deepStrictEqual(request.toolChoice, { _tag: "Tool", name: "get_current_temperature" })
    assert.deepStrictEqual(request.responseFormat, { _tag: "JsonSchema", name: "response", schema: { type: "object" } })
    assert.deepStrictEqual<unknown>(request.providerOptions?.["gemini"], {
      generationConfig: { temperature: 0, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      safetySettings: body.safetySettings
    })
  })

  it("writes the request back to the same body", () => {
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(exact(Gemini.fromRequest(body)))), body)
  })

  it("writes inline data in URL-safe, unpadded base64 back as it was given (the model keeps it; only writers whose API wants the standard alphabet change it)", () => {
    const data = Buffer.from(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xfb, 0xff, 0xfe, 0x3e, 0x3f])).toString("base64url")
    const urlSafe = { contents: [{ role: "user", parts: [{ inlineData: { mimeType: "image/png", data } }, { inlineData: { mimeType: "application/pdf", data } }, { inlineData: { mimeType: "audio/wav", data } }] }] }
    const request = exact(Gemini.fromRequest(urlSafe))
    assert.deepStrictEqual(request.messages[0]?.content.map((b) => b._tag === "File" && b.source._tag === "Base64" ? b.source.data : undefined), [data, data, data])
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(request)), urlSafe)
  })

  it("keeps the parameters field name a declaration used", () => {
    const openApi = { contents: [ask], tools: [{ functionDeclarations: [{ name: "f", parameters: { type: "OBJECT", properties: { a: { type: "STRING" } } } }] }] }
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(exact(Gemini.fromRequest(openApi)))), openApi)
  })

  it("holds an OpenAPI parameters schema's upper-case types as JSON Schema's, so other providers get a schema they accept", () => {
    const parameters = {
      type: "OBJECT",
      properties: {
        city: { type: "STRING", description: "The city", nullable: true },
        days: { type: "ARRAY", items: { type: "INTEGER" } },
        // a property named "type" is a name, not a keyword
        type: { type: "STRING", enum: ["OBJECT", "STRING"] },
        at: { anyOf: [{ type: "STRING", format: "date-time" }, { type: "NUMBER" }] }
      },
      required: ["city"]
    }
    const body = { contents: [ask], tools: [{ functionDeclarations: [{ name: "forecast", parameters }] }] }
    const request = exact(Gemini.fromRequest(body))
    assert.deepStrictEqual<unknown>(request.tools?.[0]?.parameters, {
      type: "object",
      properties: {
        // OpenAPI's nullable is JSON Schema's "null" among the types (JSON Schema has no nullable keyword)
        city: { type: ["string", "null"], description: "The city" },
        days: { type: "array", items: { type: "integer" } },
        type: { type: "string", enum: ["OBJECT", "STRING"] },
        at: { anyOf: [{ type: "string", format: "date-time" }, { type: "number" }] }
      },
      required: ["city"]
    })
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(request)), body)
    // names in either case come back as they were sent; parameters changed since go out in Gemini's upper case
    const mixed = { contents: [ask], tools: [{ functionDeclarations: [{ name: "find", parameters: { type: "OBJECT", properties: { q: { type: "string" }, n: { type: "INTEGER" } } } }] }] }
    const read = exact(Gemini.fromRequest(mixed))
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(read)), mixed)
    const tool = read.tools![0]!
    const changed = Request.make(read.messages, { tools: [new Request.ToolDefinition({ ...tool, parameters: { type: "object", properties: { q: { type: "string" } } } })] })
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(changed)).tools, [{ functionDeclarations: [{ name: "find", parameters: { type: "OBJECT", properties: { q: { type: "STRING" } } } }] }])
    const nullable = new Request.ToolDefinition({ ...tool, parameters: { type: "object", properties: { q: { type: ["string", "null"] } } } })
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(Request.make(read.messages, { tools: [nullable] }))).tools, [{ functionDeclarations: [{ name: "find", parameters: { type: "OBJECT", properties: { q: { type: "STRING", nullable: true } } } }] }])
    // the REST API's snake_case spelling is read as declarations too, and written back as it came when asked
    const snake = { contents: [ask], tools: [{ function_declarations: [{ name: "g" }] }] }
    const snakeRead = exact(Gemini.fromRequest(snake))
    assert.deepStrictEqual(snakeRead.tools?.map((t) => t.name), ["g"])
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(snakeRead, { spelling: "asRead" })), snake)
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(snakeRead)), { contents: [ask], tools: [{ functionDeclarations: [{ name: "g" }] }] })
    // parameters given under two names: the one read is typed, the other kept
    const both = { contents: [ask], tools: [{ functionDeclarations: [{ name: "f", parameters: { type: "OBJECT" }, parametersJsonSchema: { type: "object", properties: {} } }] }] }
    const bothBack = exact(Gemini.toRequest(exact(Gemini.fromRequest(both)))) as unknown as { tools: Array<{ functionDeclarations: Array<Record<string, unknown>> }> }
    assert.deepStrictEqual(bothBack.tools[0]!.functionDeclarations[0], both.tools[0]!.functionDeclarations[0])
    // a JSON Schema given as parametersJsonSchema is held and written as it came
    const jsonSchema = { contents: [ask], tools: [{ functionDeclarations: [{ name: "forecast", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } } }] }] }
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(exact(Gemini.fromRequest(jsonSchema)))), jsonSchema)
  })

  it("keeps a function-calling configuration the model has no word for", () => {
    const several = { contents: [ask], toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["a", "b"] } } }
    const request = exact(Gemini.fromRequest(several))
    assert.isUndefined(request.toolChoice)
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(request)), several)
    // a mode in lower case is not one Google documents (the API is reported to run the default, AUTO): kept as it came
    for (const mode of ["any", "none", "auto"]) {
      const lower = { contents: [ask], toolConfig: { functionCallingConfig: { mode } } }
      const read = exact(Gemini.fromRequest(lower))
      assert.isUndefined(read.toolChoice)
      assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(read)), lower)
    }
  })

  it("writes tool choices as function-calling modes", () => {
    const modes = (["auto", "none", "required"] as const).map((toolChoice) => exact(Gemini.toRequest(Request.make([Message.user("hi")], { toolChoice }))).toolConfig)
    assert.deepStrictEqual<unknown>(modes, [{ functionCallingConfig: { mode: "AUTO" } }, { functionCallingConfig: { mode: "NONE" } }, { functionCallingConfig: { mode: "ANY" } }])
  })

  it("reports a tool's strict flag and the parallel-calls setting, which Gemini has not", () => {
    const request = Request.make([Message.user("hi")], { tools: [Request.tool("f", { strict: true })], parallelToolCalls: false })
    assert.deepStrictEqual(tags(ok(Gemini.toRequest(request))), ["DroppedContent", "DroppedContent"])
  })
})

const response = {
  candidates: [{
    content: { role: "model", parts: [{ text: "I should look up the temperature.", thought: true }, { functionCall: { name: "get_current_temperature", args: { location: "London" } }, thoughtSignature: "CiQBVKhc7" }] },
    finishReason: "STOP",
    index: 0
  }],
  usageMetadata: { promptTokenCount: 70, candidatesTokenCount: 20, thoughtsTokenCount: 45, cachedContentTokenCount: 32, totalTokenCount: 135 },
  modelVersion: "gemini-2.5-flash",
  responseId: "mdlJaKyBLYqbz7IP6t-2mQM"
}

describe("Gemini.fromResponse", () => {
  it("reads the first candidate as an assistant message with usage, finish reason, id and model", () => {
    const decoded = exact(Gemini.fromResponse(response))
    assert.deepStrictEqual(decoded.message.content.map((b) => b._tag), ["Thinking", "ToolCall"])
    assert.deepStrictEqual(decoded.usage, new Message.Usage({ inputTokens: 70, outputTokens: 65, reasoningTokens: 45, cachedInputTokens: 32, totalTokens: 135 }))
    assert.deepStrictEqual([decoded.finishReason, decoded.providerFinishReason, decoded.id, decoded.model], ["tool-calls", "STOP", response.responseId, "gemini-2.5-flash"])
  })

  it("makes up a call id when Gemini sends none, and does not send it back", () => {
    const decoded = exact(Gemini.fromResponse(response))
    const written = write([Message.user("Temperature in London?"), decoded.message])
    assert.deepStrictEqual<unknown>(written.contents[1], response.candidates[0]!.content)
  })

  it("makes up ids that stay distinct when a history read in one process is continued in another", () => {
    const { responseId: _, ...withoutId } = response
    const made = Message.toolCallsOf(exact(Gemini.fromResponse(withoutId)).message)[0]!.id
    // a random tag drawn once per process, then a counter
    assert.match(made, /_response_[0-9a-z]{6}_\d+_\d+$/)
  })

  it("says a blocked prompt was filtered", () => {
    const decoded = exact(Gemini.fromResponse({ promptFeedback: { blockReason: "SAFETY" } }))
    assert.deepStrictEqual([decoded.finishReason, decoded.providerFinishReason, decoded.message.content.length], ["content-filter", "SAFETY", 0])
  })

  it("says the output was cut at the token limit", () => {
    assert.strictEqual(exact(Gemini.fromResponse({ ...response, candidates: [{ ...response.candidates[0]!, finishReason: "MAX_TOKENS" }] })).finishReason, "length")
  })

  it("reads the candidate asked for, and reports the others", () => {
    const two = { ...response, candidates: [response.candidates[0]!, { content: { role: "model", parts: [{ text: "Second." }] }, finishReason: "STOP", index: 1 }] }
    const converted = ok(Gemini.fromResponse(two, { candidate: 1 }))
    assert.deepStrictEqual(tags(converted), ["DroppedContent"])
    assert.strictEqual(Message.textOf(converted.value.message), "Second.")
  })
})

describe("Gemini streams", () => {
  for (const fixture of Fixtures.all) {
    it(`reads the ${fixture.name} stream as the response it adds up to`, () =>
      Effect.gen(function* () {
        const expected = yield* Gemini.fromResponse(fixture.expected as GeminiWire.GenerateContentResponse)
        const chunks = eventsOf(fixture) as Array<GeminiWire.StreamEvent>
        const fromEvents = yield* Gemini.fromEvents(chunks)
        const fromSse = yield* Gemini.fromSse(sseOf(fixture))
        const fromStream = yield* Gemini.fromStream(Stream.fromIterable(chunks))
        for (const got of [fromEvents, fromSse, fromStream]) assert.deepStrictEqual(json([got.value.message]), json([expected.value.message]))
      }).pipe(Effect.runSync))
  }

  it("fails a stream cut short with IncompleteResponse carrying the message read so far", () => {
    const chunks = eventsOf(Fixtures.thoughtsAndText) as Array<GeminiWire.StreamEvent>
    const error = err(Gemini.fromEvents(chunks.slice(0, -1)))
    assert.strictEqual(error._tag, "IncompleteResponse")
    if (error._tag === "IncompleteResponse") assert.isAbove(error.partial?.message.content.length ?? 0, 0)
  })
})

describe("Gemini in snake_case, the other spelling of proto3 JSON", () => {
  const camel = {
    systemInstruction: { parts: [{ text: "You read charts.", thoughtSignature: "c3lz" }] },
    contents: [
      { role: "user", parts: [{ text: "Compare these." }, { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=", displayName: "a.png" } }, { fileData: { mimeType: "application/pdf", fileUri: "gs://b/report.pdf" } }] },
      {
        role: "model",
        parts: [
          { text: "Thinking it over.", thought: true, thoughtSignature: "dGhpbms=" },
          { functionCall: { id: "c1", name: "get_chart", args: { series_name: "sales" } }, thoughtSignature: "Q2lR" },
          { executableCode: { language: "PYTHON", code: "print(1)" } },
          { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1\n" } }
        ]
      },
      { role: "user", parts: [{ functionResponse: { id: "c1", name: "get_chart", response: { chart_title: "Sales" }, parts: [{ inlineData: { mimeType: "image/jpeg", data: "/9j/4AAQ" } }, { fileData: { mimeType: "application/pdf", fileUri: "gs://b/notes.pdf", displayName: "notes.pdf" } }] } }] }
    ]
  }
  const snake = snakeCased(camel)

  it("reads files, calls, responses with files, signatures, code and the system instruction as their camelCase twins are read", () => {
    // the data inside (the call's arguments, the response) is not renamed: only the protocol's fields are
    assert.include(JSON.stringify(snake), `"inline_data":{"mime_type":"image/png"`)
    assert.include(JSON.stringify(snake), `"series_name":"sales"`)
    const fromSnake = read(snake)
    assert.deepStrictEqual(unspelled(json(fromSnake)), json(read(camel)))
    const result = Message.toolResultsOf(fromSnake[3]!)[0]!
    assert.deepStrictEqual(Array.isArray(result.content) ? result.content.map((p) => (p._tag === "File" ? `${p.mediaType} ${p.source._tag}` : p._tag)) : [], ["Json", "image/jpeg Base64", "application/pdf Url"])
    assert.isTrue(Conversation.isValid(fromSnake))
  })

  it("writes lowerCamelCase by default, the names the JS SDK reads, and a conversation read in snake_case back so when asked", () => {
    // by default: every field the adapter builds in lowerCamelCase (@google/genai drops a part it finds in snake_case)
    assert.deepStrictEqual<unknown>(write(read(snake)), camel)
    roundTripAsRead(snake)
    roundTripAsRead(camel)
    roundTrip(camel)
    assert.deepStrictEqual<unknown>(write([Message.system("You read charts."), Message.user([Block.file(Block.base64("iVBORw0KGgo="), "image/png")])]), {
      systemInstruction: { parts: [{ text: "You read charts." }] },
      contents: [{ role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }] }]
    })
  })

  it("writes each object back in the spelling it came in, when a body mixes them and the write asks for it", () => {
    roundTripAsRead({
      contents: [
        { role: "user", parts: [{ inline_data: { mimeType: "image/png", data: "iVBORw0KGgo=" } }, { fileData: { mime_type: "application/pdf", fileUri: "gs://b/r.pdf" } }, { text: "Both?" }] },
        { role: "model", parts: [{ function_call: { name: "f", args: {} }, thoughtSignature: "c2ln" }, { functionCall: { name: "g", args: {} }, thought_signature: "c2lnMg==" }] },
        { role: "user", parts: [{ function_response: { name: "f", response: { output: "ok" }, parts: [{ inlineData: { mime_type: "image/png", data: "iVBORw0KGgo=" } }] } }, { functionResponse: { name: "g", response: { output: "ok" } } }] }
      ]
    })
  })

  it("keeps fields it does not read as they were spelled, and a part of an unknown kind as it came", () => {
    roundTripAsRead({
      contents: [
        { role: "user", parts: [{ file_data: { mime_type: "video/mp4", file_uri: "gs://b/c.mp4" }, video_metadata: { start_offset: "10s" } }, { tool_response: { id: "t1" }, thought_signature: "c2ln" }] }
      ]
    })
  })

  it("reads a field given in both spellings from its camelCase name, keeps the other, writes it back, and says so", () => {
    const both = { contents: [{ role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" }, inline_data: { mime_type: "image/jpeg", data: "/9j/4AAQ" } }] }] }
    const converted = ok(Gemini.fromMessages(both))
    assert.deepStrictEqual(converted.warnings.map((w) => [w._tag, w._tag === "UnknownProviderField" ? `${w.path} ${w.kept}` : ""]), [["UnknownProviderField", "contents[0].parts[0].inline_data true"]])
    const [user] = converted.value
    assert.deepStrictEqual(user!.content.map((b) => (b._tag === "File" ? b.mediaType : b._tag)), ["image/png"])
    assert.deepStrictEqual<unknown>(write(converted.value), both)
    // nothing is lost, so strict mode reads it too
    assert.strictEqual(ok(Gemini.fromMessages(both, { strict: true })).value.length, 1)
    // the same within a nested object, and for the system instruction of a request
    const nested = ok(Gemini.fromMessages({ contents: [{ role: "user", parts: [{ inline_data: { mimeType: "image/png", mime_type: "image/jpeg", data: "iVBORw0KGgo=" } }] }] }))
    assert.deepStrictEqual(nested.warnings.map((w) => (w._tag === "UnknownProviderField" ? w.path : w._tag)), ["contents[0].parts[0].inline_data.mime_type"])
    const system = { systemInstruction: { parts: [{ text: "A" }] }, system_instruction: { parts: [{ text: "B" }] }, contents: [ask] }
    const request = ok(Gemini.fromRequest(system))
    assert.deepStrictEqual(request.warnings.map((w) => (w._tag === "UnknownProviderField" ? `${w.path} ${w.kept}` : w._tag)), ["system_instruction true"])
    assert.strictEqual(Message.textOf(request.value.messages[0]!), "A")
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(request.value)), system)
    // fromMessages reads no request fields: the other one is ignored, as they are
    assert.deepStrictEqual(tags(ok(Gemini.fromMessages(system))), ["UnknownProviderField"])
  })

  it("names each field in the path of an error or warning as the input spells it", () => {
    const pathOf = (effect: Effect.Effect<unknown, { readonly _tag: string }>) => {
      const error = err(effect)
      return error._tag === "MalformedPayload" && "path" in error ? error.path : error._tag
    }
    const bad = { mime_type: 5, data: "iVBORw0KGgo=" }
    assert.strictEqual(pathOf(Gemini.fromMessages({ contents: [{ role: "user", parts: [{ text: "See" }, { inline_data: bad }] }] })), "contents[0].parts[1].inline_data.mime_type")
    assert.strictEqual(pathOf(Gemini.fromMessages({ contents: [{ role: "user", parts: [{ inlineData: { mimeType: 5 } }] }] })), "contents[0].parts[0].inlineData.mimeType")
    // the spelling read: a null yields to the other one
    assert.strictEqual(pathOf(Gemini.fromMessages({ contents: [{ role: "user", parts: [{ inlineData: null, inline_data: bad }] }] })), "contents[0].parts[0].inline_data.mime_type")
    assert.strictEqual(
      pathOf(Gemini.fromMessages({ contents: [{ role: "user", parts: [{ function_response: { name: "f", response: {}, parts: [{ file_data: { file_uri: 3 } }] } }] }] })),
      "contents[0].parts[0].function_response.parts[0].file_data.file_uri"
    )
    assert.strictEqual(pathOf(Gemini.fromMessages({ system_instruction: { parts: 3 }, contents: [] })), "system_instruction.parts")
    assert.strictEqual(pathOf(Gemini.fromRequest({ contents: [], generation_config: 3 })), "generation_config")
    // warnings too: a system instruction's part it cannot hold, and a field given twice inside a snake_case one
    const warned = ok(Gemini.fromMessages({
      system_instruction: { parts: [{ text: "Be brief." }, { inline_data: { mimeType: "image/png", mime_type: "image/jpeg", data: "iVBORw0KGgo=" } }] },
      contents: [ask]
    }))
    assert.deepStrictEqual(warned.warnings.map((w) => (w._tag === "UnknownProviderField" ? w.path : w._tag)), ["system_instruction.parts[1].inline_data.mime_type", "system_instruction.parts[1]"])
  })

  it("reads a field given as null in one spelling from the other, as proto3 JSON reads a null as absent, and keeps the null", () => {
    const image = { mime_type: "image/png", data: "iVBORw0KGgo=" }
    const body = {
      systemInstruction: null,
      system_instruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ inlineData: null, inline_data: image }, { text: "Signed.", thoughtSignature: null, thought_signature: "c2ln" }] },
        { role: "user", parts: [{ inline_data: { mimeType: null, ...image } }, { inlineData: { mimeType: "image/jpeg", data: "/9j/4AAQ" }, inline_data: null }] }
      ],
      toolConfig: null,
      tool_config: { function_calling_config: { mode: "ANY" } }
    }
    const converted = ok(Gemini.fromRequest(body))
    const [system, first, second] = converted.value.messages
    assert.strictEqual(Message.textOf(system!), "Be brief.")
    assert.deepStrictEqual(first!.content.map((b) => (b._tag === "File" ? b.mediaType : b._tag === "Text" ? b.thoughtSignature : b._tag)), ["image/png", "c2ln"])
    assert.deepStrictEqual(second!.content.map((b) => (b._tag === "File" ? b.mediaType : b._tag)), ["image/png", "image/jpeg"])
    assert.strictEqual(converted.value.toolChoice, "required")
    // the field is still given twice, which the provider may refuse: reported, and kept (strict mode reads it too)
    assert.deepStrictEqual(converted.warnings.map((w) => (w._tag === "UnknownProviderField" ? `${w.path} ${w.kept}` : w._tag)), [
      "contents[0].parts[0].inlineData true",
      "contents[0].parts[1].thoughtSignature true",
      "contents[1].parts[0].inline_data.mimeType true",
      "contents[1].parts[1].inline_data true",
      "systemInstruction true",
      "toolConfig true"
    ])
    assert.strictEqual(ok(Gemini.fromRequest(body, { strict: true })).value.toolChoice, "required")
    // nothing the caller gave is lost: written as read, the body comes back whole
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(converted.value, { spelling: "asRead" })), body)
    // by default each value goes out under its camelCase name (a null kept in snake_case goes back beside it)
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(converted.value)), {
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }, { text: "Signed.", thoughtSignature: "c2ln" }] },
        { role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }, { inlineData: { mimeType: "image/jpeg", data: "/9j/4AAQ" }, inline_data: null }] }
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY" } }
    })
    // a conversation reads the system instruction the same way
    assert.strictEqual(Message.textOf(ok(Gemini.fromMessages(body)).value[0]!), "Be brief.")
  })

  it("reads a tool entry's declarations beside a null in the other spelling, and a null declarations field as none", () => {
    const both = { contents: [ask], tools: [{ functionDeclarations: null, function_declarations: [{ name: "g" }] }] }
    const converted = ok(Gemini.fromRequest(both))
    assert.deepStrictEqual(converted.value.tools?.map((t) => t.name), ["g"])
    assert.deepStrictEqual(converted.warnings.map((w) => (w._tag === "UnknownProviderField" ? `${w.path} ${w.kept}` : w._tag)), ["tools[0].functionDeclarations true"])
    // kept, and written back (in an entry of its own, as a tool entry's other fields are)
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(converted.value, { spelling: "asRead" })).tools, [{ function_declarations: [{ name: "g" }] }, { functionDeclarations: null }])
    // as a Python client dumps a tool with every field: no declarations, a search tool
    const dumped = exact(Gemini.fromRequest({ contents: [ask], tools: [{ function_declarations: null, google_search: {}, code_execution: null }] }))
    assert.deepStrictEqual(dumped.tools?.map((t) => t.providerDefined?.type), ["google_search"])
  })

  it("writes an empty declarations list back under the name it was read from, beside a null in the other spelling too", () => {
    const asRead = (tools: ReadonlyArray<object>) => {
      // a null beside the list is kept and reported (UnknownProviderField), as beside a list that declares functions
      const request = ok(Gemini.fromRequest({ contents: [ask], tools })).value
      // no tools: an empty tool list, which other providers get as such
      assert.deepStrictEqual(request.tools, [])
      return exact(Gemini.toRequest(request, { spelling: "asRead" })).tools
    }
    assert.deepStrictEqual<unknown>(asRead([{ function_declarations: [] }]), [{ function_declarations: [] }])
    assert.deepStrictEqual<unknown>(asRead([{ functionDeclarations: [] }]), [{ functionDeclarations: [] }])
    // the null kept in an entry of its own, as beside a list that declares functions
    assert.deepStrictEqual<unknown>(asRead([{ function_declarations: [], functionDeclarations: null }]), [{ function_declarations: [] }, { functionDeclarations: null }])
    assert.deepStrictEqual<unknown>(asRead([{ functionDeclarations: [], function_declarations: null }]), [{ functionDeclarations: [] }, { function_declarations: null }])
    // written in lowerCamelCase unless asked for the spelling as read
    const snake = exact(Gemini.fromRequest({ contents: [ask], tools: [{ function_declarations: [] }] }))
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(snake)).tools, [{ functionDeclarations: [] }])
  })

  it("writes tool entries back in the layout they came in: an empty declarations list beside a tool Gemini runs, lists side by side, kept entries first", () => {
    const back = (tools: ReadonlyArray<object>) => exact(Gemini.toRequest(ok(Gemini.fromRequest({ contents: [ask], tools })).value, { spelling: "asRead" })).tools
    for (
      const tools of [
        [{ google_search: {} }, { function_declarations: [] }],
        [{ functionDeclarations: [] }, { googleSearch: {} }],
        [{ function_declarations: [{ name: "a" }] }, { functionDeclarations: [{ name: "b" }] }, { function_declarations: [] }],
        [{ functionDeclarations: null }, { functionDeclarations: [{ name: "a" }] }],
        [{}, { codeExecution: {} }],
        []
      ]
    ) assert.deepStrictEqual<unknown>(back(tools), tools)
    // beside a tool, the empty list adds none
    const read = ok(Gemini.fromRequest({ contents: [ask], tools: [{ google_search: {} }, { function_declarations: [] }] })).value
    assert.deepStrictEqual(read.tools?.map((t) => t.name), ["google_search"])
  })

  it("lays tools out as it would without their layout once they have changed since they were read", () => {
    const read = ok(Gemini.fromRequest({ contents: [ask], tools: [{ functionDeclarations: [{ name: "a" }] }, { functionDeclarations: [{ name: "b" }] }] })).value
    const more = Request.make(read.messages, { ...read, tools: [...(read.tools ?? []), Request.tool("c")] })
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(more)).tools, [{ functionDeclarations: [{ name: "a" }, { name: "b" }, { name: "c" }] }])
  })

  it("reads a response and a stream in snake_case as their camelCase twins are read", () =>
    Effect.gen(function* () {
      const read = (value: Conversion.DecodedResponse) => {
        const { message, finishReason, providerFinishReason, usage, id, model } = value
        return { message: unspelled(json([message])), finishReason, providerFinishReason, usage, id, model }
      }
      for (const fixture of Fixtures.all) {
        const expected = read((yield* Gemini.fromResponse(fixture.expected)).value)
        const snake = { ...fixture, frames: fixture.frames.map((f) => ({ ...f, data: snakeCasedResponse(f.data) })), expected: snakeCasedResponse(fixture.expected) }
        assert.include(JSON.stringify(snake.expected), `"finish_reason":"STOP"`)
        const fromResponse = yield* Gemini.fromResponse(snake.expected)
        const fromSse = yield* Gemini.fromSse(sseOf(snake))
        for (const got of [fromResponse, fromSse]) {
          assert.deepStrictEqual(got.warnings, [])
          assert.deepStrictEqual(read(got.value), expected)
        }
      }
      const blocked = exact(Gemini.fromResponse({ prompt_feedback: { block_reason: "SAFETY" }, usage_metadata: { prompt_token_count: 4, total_token_count: 4 } }))
      assert.deepStrictEqual([blocked.finishReason, blocked.providerFinishReason, blocked.usage?.inputTokens], ["content-filter", "SAFETY", 4])
    }).pipe(Effect.runSync))

  it("reports a response field given in both spellings, and reads a null in one as absent", () => {
    const content = { role: "model", parts: [{ text: "Cut short." }] }
    const both = ok(Gemini.fromResponse({ candidates: [{ content, finishReason: "STOP", finish_reason: "MAX_TOKENS" }], usageMetadata: { promptTokenCount: 3, prompt_token_count: 4 } }))
    assert.deepStrictEqual([both.value.finishReason, both.value.usage?.inputTokens], ["stop", 3])
    assert.deepStrictEqual(both.warnings.map((w) => (w._tag === "UnknownProviderField" ? `${w.path} ${w.kept}` : w._tag)), ["usageMetadata.prompt_token_count true", "candidates[0].finish_reason true"])
    // the other one is kept with the response's other fields
    assert.deepStrictEqual(both.value.providerData?.["candidate"], { finish_reason: "MAX_TOKENS" })
    const nulled = ok(Gemini.fromResponse({ candidates: [{ content, finishReason: null, finish_reason: "MAX_TOKENS" }] }))
    assert.strictEqual(nulled.value.finishReason, "length")
    assert.deepStrictEqual(nulled.warnings.map((w) => (w._tag === "UnknownProviderField" ? w.path : w._tag)), ["candidates[0].finishReason"])
  })

  const requestBody = {
    systemInstruction: { parts: [{ text: "You are a weather bot." }] },
    contents: [ask, call, answer],
    tools: [{ functionDeclarations: [{ name: "get_current_temperature", parametersJsonSchema: { type: "object", properties: { location: { type: "string" } } } }] }],
    toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_current_temperature"] } },
    generationConfig: { topP: 0.5, responseMimeType: "application/json", responseJsonSchema: { type: "object", properties: { max_temp: { type: "number" } } }, maxOutputTokens: 256 },
    safety_settings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }]
  }

  it("reads a snake_case request body as its camelCase twin: tools, tool choice, response format, output limit", () => {
    const fromSnake = exact(Gemini.fromRequest(snakeCased(requestBody)))
    const fromCamel = exact(Gemini.fromRequest(requestBody))
    assert.deepStrictEqual(fromSnake.toolChoice, { _tag: "Tool", name: "get_current_temperature" })
    assert.deepStrictEqual(fromSnake.responseFormat, fromCamel.responseFormat)
    assert.strictEqual(fromSnake.maxOutputTokens, 256)
    assert.deepStrictEqual(fromSnake.tools?.map((t) => t.parameters), fromCamel.tools?.map((t) => t.parameters))
    assert.deepStrictEqual(unspelled(json(fromSnake.messages)), json(fromCamel.messages))
    // kept settings are held in camelCase, where other providers' writers look for them
    assert.deepStrictEqual<unknown>(fromSnake.providerOptions?.["gemini"]?.["generationConfig"], { topP: 0.5 })
    assert.include(ok(OpenAiChat.toRequest(fromSnake)).warnings.map((w) => w.message).join("\n"), "generationConfig.topP")
  })

  it("writes a request read in snake_case back in snake_case when asked, and the same when its settings change; else in camelCase", () => {
    const snakeBody = snakeCased(requestBody)
    const request = exact(Gemini.fromRequest(snakeBody))
    const asRead = { spelling: "asRead" } as const
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(request, asRead)), snakeBody)
    // the fields the adapter reads come out in camelCase by default; one it does not read stays as it came
    const { safety_settings: _, ...rest } = requestBody
    assert.deepStrictEqual<unknown>(JSON.parse(JSON.stringify(exact(Gemini.toRequest(request)))), { ...rest, safety_settings: snakeBody["safety_settings"] })
    const changed = exact(Gemini.toRequest(Request.make(request.messages, { ...request, toolChoice: "auto", maxOutputTokens: 64 }), asRead))
    assert.deepStrictEqual<unknown>(changed["tool_config"], { function_calling_config: { mode: "AUTO" } })
    assert.deepStrictEqual<unknown>(changed["generation_config"], { top_p: 0.5, response_mime_type: "application/json", response_json_schema: requestBody.generationConfig.responseJsonSchema, max_output_tokens: 64 })
    // a setting kept as it came, in a tool config the model has no word for
    const kept = { contents: [ask], tool_config: { function_calling_config: { mode: "VALIDATED" }, retrieval_config: { language_code: "en" } } }
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(exact(Gemini.fromRequest(kept)), asRead)), kept)
  })
})

describe("Gemini and an image's detail", () => {
  const chart = "https://example.com/chart.png"

  it("sends low and high detail as the part's media resolution for Gemini 3 and later, and auto as none (Gemini's default)", () => {
    const messages = [Message.user([
      Block.image(chart, { detail: "low" }),
      Block.image("data:image/png;base64,iVBORw0KGgo=", { detail: "high" }),
      Block.image(chart, { detail: "auto" })
    ])]
    const written = ok(Gemini.toRequest(Request.make(messages, { model: "gemini-3-flash-preview" })))
    assert.deepStrictEqual(written.warnings, [])
    assert.deepStrictEqual<unknown>(written.value.contents[0]?.parts, [
      { fileData: { mimeType: "image/png", fileUri: chart }, mediaResolution: { level: "MEDIA_RESOLUTION_LOW" } },
      { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" }, mediaResolution: { level: "MEDIA_RESOLUTION_HIGH" } },
      { fileData: { mimeType: "image/png", fileUri: chart } }
    ])
    // with no model named, a detail set for OpenAI is left out, said: Gemini 2.5 and earlier reject the field
    const unnamed = ok(Gemini.toMessages(messages))
    assert.deepStrictEqual(tags(unnamed), ["DroppedContent", "DroppedContent"])
    assert.include(unnamed.warnings[0]!.message, "name the model")
    assert.deepStrictEqual<unknown>(unnamed.value.contents[0]?.parts, [
      { fileData: { mimeType: "image/png", fileUri: chart } },
      { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
      { fileData: { mimeType: "image/png", fileUri: chart } }
    ])
  })

  it("reads a part's low, high or ultra-high media resolution as the detail it is (ultra-high is original), and keeps any other as the part's own field", () => {
    const parts = [
      { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" }, mediaResolution: { level: "MEDIA_RESOLUTION_LOW" } },
      { fileData: { mimeType: "image/png", fileUri: chart }, mediaResolution: { level: "MEDIA_RESOLUTION_MEDIUM" } },
      { fileData: { mimeType: "video/mp4", fileUri: "gs://bucket/v.mp4" }, mediaResolution: { level: "MEDIA_RESOLUTION_ULTRA_HIGH" } },
      { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" }, mediaResolution: { level: "MEDIA_RESOLUTION_ULTRA_HIGH", numTokens: 70 } }
    ]
    const [low, medium, ultra, counted] = read({ contents: [{ role: "user", parts }] })[0]!.content as ReadonlyArray<Block.FileBlock>
    assert.strictEqual(low?.detail, "low")
    // marked as Gemini's own, which the writer sends back whatever the model
    assert.deepStrictEqual<unknown>(low?.providerOptions, { gemini: { $mediaResolution: true } })
    assert.isUndefined(medium?.detail)
    assert.deepStrictEqual<unknown>(medium?.providerOptions, { gemini: { mediaResolution: { level: "MEDIA_RESOLUTION_MEDIUM" } } })
    assert.strictEqual(ultra?.detail, "original")
    assert.deepStrictEqual<unknown>(ultra?.providerOptions, { gemini: { $mediaResolution: true } })
    // a level with anything beside it is not one the writer sends: kept as it is
    assert.isUndefined(counted?.detail)
    assert.deepStrictEqual<unknown>(counted?.providerOptions, { gemini: { mediaResolution: { level: "MEDIA_RESOLUTION_ULTRA_HIGH", numTokens: 70 } } })
    roundTrip({ contents: [{ role: "user", parts }] })
    // to OpenAI, the low resolution is the image's detail, and ultra-high its original resolution
    const ultraImage = { ...parts[0]!, mediaResolution: { level: "MEDIA_RESOLUTION_ULTRA_HIGH" } }
    const chat = exact(OpenAiChat.toMessages(read({ contents: [{ role: "user", parts: [parts[0]!, ultraImage] }] })))
    assert.deepStrictEqual<unknown>(chat, [{
      role: "user",
      content: [
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=", detail: "low" } },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=", detail: "original" } }
      ]
    }])
  })

  it("reports the detail it cannot send: for a model before Gemini 3, in a function response's files, beside the part's own media resolution", () => {
    const image = Block.image(chart, { detail: "high" })
    const old = ok(Gemini.toRequest(Request.make([Message.user([image])], { model: "gemini-2.5-flash" })))
    assert.deepStrictEqual<unknown>(old.value.contents[0]?.parts, [{ fileData: { mimeType: "image/png", fileUri: chart } }])
    assert.deepStrictEqual(tags(old), ["DroppedContent"])
    assert.include(old.warnings[0]!.message, "gemini-2.5-flash")
    const current = ok(Gemini.toRequest(Request.make([Message.user([image])], { model: "gemini-3-pro-preview" })))
    assert.deepStrictEqual(current.warnings, [])
    assert.deepStrictEqual<unknown>(current.value.contents[0]?.parts, [{ fileData: { mimeType: "image/png", fileUri: chart }, mediaResolution: { level: "MEDIA_RESOLUTION_HIGH" } }])
    const result = ok(Gemini.toMessages([
      Message.user("Chart?"),
      Message.assistant([Block.toolCall("c1", "chart", {})]),
      Message.tool([Block.toolResult("c1", "chart", [Block.text("here"), image])])
    ]))
    assert.deepStrictEqual(tags(result), ["DroppedContent"])
    assert.include(result.warnings[0]!.message, "function response")
    const both = ok(Gemini.toMessages([Message.user([Block.image(chart, { detail: "low", providerOptions: { gemini: { mediaResolution: { level: "MEDIA_RESOLUTION_MEDIUM" } } } })])]))
    assert.deepStrictEqual(tags(both), ["DroppedContent"])
    assert.deepStrictEqual<unknown>(both.value.contents[0]?.parts, [{ fileData: { mimeType: "image/png", fileUri: chart }, mediaResolution: { level: "MEDIA_RESOLUTION_MEDIUM" } }])
  })

  it("counts an image at the media resolution its detail is sent with, on Gemini 3", () => {
    const estimate = (model: string, detail: "low" | "high") =>
      Effect.runSync(TokenEstimator.TokenEstimator.use((t) => Effect.succeed(t.estimateRequest(Request.make([Message.user([Block.image(chart, { detail })])], { model }), { provider: "gemini" }).total)).pipe(Effect.provide(TokenEstimator.layer)))
    assert.isBelow(estimate("gemini-3-pro-preview", "low"), estimate("gemini-3-pro-preview", "high"))
    // sent without it to Gemini 2.5, so counted at the default
    assert.strictEqual(estimate("gemini-2.5-flash", "low"), estimate("gemini-2.5-flash", "high"))
  })

  it("counts a detail read from Gemini's own media resolution as the writer sends it: not to a model before Gemini 3", () => {
    // a video, whose price on Gemini 2.5 depends on its resolution (an image's does not)
    const video = { inlineData: { mimeType: "video/mp4", data: readFileSync(new URL("../data/media/video-faststart.mp4", import.meta.url)).toString("base64") } }
    const low = read({ contents: [{ role: "user", parts: [{ text: "What happens?" }, { ...video, mediaResolution: { level: "MEDIA_RESOLUTION_LOW" } }] }] })
    const plain = read({ contents: [{ role: "user", parts: [{ text: "What happens?" }, video] }] })
    const estimate = (messages: ReadonlyArray<Message.Message>, model: string) =>
      Effect.runSync(TokenEstimator.TokenEstimator.use((t) => Effect.succeed(t.estimateRequest(Request.make(messages, { model }), { provider: "gemini" }).total)).pipe(Effect.provide(TokenEstimator.layer)))
    const parts = (messages: ReadonlyArray<Message.Message>, model: string) => ok(Gemini.toRequest(Request.make(messages, { model }))).value.contents
    // Gemini 2.5: the writer leaves the detail out, so the two requests are one, and so are their counts
    assert.deepStrictEqual(parts(low, "gemini-2.5-flash"), parts(plain, "gemini-2.5-flash"))
    assert.strictEqual(estimate(low, "gemini-2.5-flash"), estimate(plain, "gemini-2.5-flash"))
    // a model that names no version: the detail read from Gemini goes back, and is counted
    assert.notDeepEqual(parts(low, "gemini-exp"), parts(plain, "gemini-exp"))
    assert.isBelow(estimate(low, "gemini-exp"), estimate(plain, "gemini-exp"))
  })
})
