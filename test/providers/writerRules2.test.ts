/**
 * More rules of a provider's request body that the writers used to break
 * without a word, each answered with HTTP 400: a tool choice without tools
 * (Chat Completions, Responses), JSON mode when no message says "json", and
 * the `other_ids` the Chat stream reader keeps on a tool call.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Block, Message, Request } from "../../src/index.js"
import { Anthropic, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

type Item = { readonly [key: string]: unknown }
type Warning = { readonly _tag: string; readonly message: string }
const tags = (warnings: ReadonlyArray<Warning>) => warnings.map((w) => w._tag)
const body = (value: unknown) => value as Item
const hi = [{ role: "user", content: "hi" }]

// ---------------------------------------------------------------------------
// 1. a tool choice without tools
// ---------------------------------------------------------------------------

describe("Chat tool_choice without tools", () => {
  it.effect("a request with a tool choice and no tools is written without tool_choice, reported", () =>
    Effect.gen(function*() {
      for (const toolChoice of ["auto", "none", "required", { _tag: "Tool", name: "get_weather" }] as const) {
        const written = yield* OpenAiChat.toRequest(Request.make([Message.user("hi")], { model: "gpt-4o", toolChoice }))
        assert.deepStrictEqual(body(written.value), { model: "gpt-4o", messages: hi })
        assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
        assert.include(written.warnings[0]!.message, "tool choice")
        assert.include(written.warnings[0]!.message, "tool_choice")
      }
      // with tools the tool choice stays, without a warning
      const withTools = yield* OpenAiChat.toRequest(Request.make([Message.user("hi")], { tools: [Request.tool("f")], toolChoice: "required" }))
      assert.strictEqual(body(withTools.value)["tool_choice"], "required")
      assert.deepStrictEqual(withTools.warnings, [])
    }))

  it.effect("a tool_choice kept as sent (a form the model has no type for) goes back without it when there are no tools; strict fails", () =>
    Effect.gen(function*() {
      const allowed = { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "f" } }] } }
      const read = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: hi, tool_choice: allowed })
      assert.deepStrictEqual(read.value.providerOptions?.["openai-chat"]?.["tool_choice"], allowed)
      const written = yield* OpenAiChat.toRequest(read.value)
      assert.deepStrictEqual(body(written.value), { model: "gpt-4o", messages: hi })
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
      const error = yield* Effect.flip(OpenAiChat.toRequest(read.value, { strict: true }))
      assert.strictEqual(error.warning._tag, "DroppedContent")
    }))

  it.effect("the deprecated function_call without functions (an empty functions list read) goes back without it, reported", () =>
    Effect.gen(function*() {
      for (const call of ["none", "auto", { name: "f" }]) {
        const read = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: hi, functions: [], function_call: call })
        const written = yield* OpenAiChat.toRequest(read.value)
        assert.deepStrictEqual(body(written.value), { model: "gpt-4o", messages: hi })
        assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
        assert.include(written.warnings[0]!.message, "function_call")
      }
      // with functions it stays
      const listed = { model: "gpt-4o", messages: hi, functions: [{ name: "f", parameters: { type: "object" } }], function_call: "auto" }
      const back = yield* OpenAiChat.toRequest((yield* OpenAiChat.fromRequest(listed)).value)
      assert.deepStrictEqual(body(back.value), listed)
      assert.deepStrictEqual(back.warnings, [])
    }))

  it.effect("a function_call kept beside tools, with no functions, goes back without it; the tools and their choice stay", () =>
    Effect.gen(function*() {
      const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }]
      const read = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: hi, tools, tool_choice: "auto", function_call: "auto" })
      const written = yield* OpenAiChat.toRequest(read.value)
      assert.deepStrictEqual(body(written.value), { model: "gpt-4o", messages: hi, tools, tool_choice: "auto" })
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
    }))
})

describe("Anthropic tool_choice without tools", () => {
  it.effect("a tool choice, or the parallel setting it carries, is left out without tools, reported; with tools it stays", () =>
    Effect.gen(function*() {
      const sent = { model: "claude-sonnet-4-5", max_tokens: 100, messages: hi }
      for (const toolChoice of ["auto", "none", "required", { _tag: "Tool", name: "get_weather" }] as const) {
        const written = yield* Anthropic.toRequest(Request.make([Message.user("hi")], { model: "claude-sonnet-4-5", maxOutputTokens: 100, toolChoice }))
        assert.deepStrictEqual(body(written.value), sent)
        assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
        assert.include(written.warnings[0]!.message, "tool_choice may only be specified while providing tools")
      }
      const parallel = yield* Anthropic.toRequest(Request.make([Message.user("hi")], { model: "claude-sonnet-4-5", maxOutputTokens: 100, parallelToolCalls: false }))
      assert.deepStrictEqual(body(parallel.value), sent)
      assert.include(parallel.warnings.map((w) => w.message).join("\n"), "the parallel tool calls setting")
      // a choice read from a body (a form the model has no type for is kept as sent) is held to the same rule
      const read = yield* Anthropic.fromRequest({ ...sent, tool_choice: { type: "any", disable_parallel_tool_use: true } })
      const back = yield* Anthropic.toRequest(read.value)
      assert.deepStrictEqual(body(back.value), sent)
      assert.deepStrictEqual(tags(back.warnings), ["DroppedContent"])
      const tools = [{ name: "get_weather", input_schema: { type: "object", properties: {} } }]
      const withTools = yield* Anthropic.fromRequest({ ...sent, tools, tool_choice: { type: "any" } }).pipe(Effect.flatMap((r) => Anthropic.toRequest(r.value)))
      assert.deepStrictEqual(body(withTools.value), { ...sent, tools, tool_choice: { type: "any" } })
      assert.deepStrictEqual(withTools.warnings, [])
    }))
})

describe("Responses tool_choice without tools", () => {
  it.effect("a choice that forces a tool (required, or one tool by name) is left out without tools, reported; auto and none stay", () =>
    Effect.gen(function*() {
      for (const toolChoice of ["required", { _tag: "Tool", name: "get_weather" }] as const) {
        const written = yield* OpenAiResponses.toRequest(Request.make([Message.user("hi")], { model: "gpt-5", toolChoice }))
        assert.deepStrictEqual(body(written.value), { model: "gpt-5", input: [{ role: "user", content: "hi" }] })
        assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
        assert.include(written.warnings[0]!.message, "tool choice")
      }
      // the API's own default, which it echoes with tools: [], and none
      for (const toolChoice of ["auto", "none"] as const) {
        const written = yield* OpenAiResponses.toRequest(Request.make([Message.user("hi")], { toolChoice }))
        assert.strictEqual(body(written.value)["tool_choice"], toolChoice)
        assert.deepStrictEqual(written.warnings, [])
      }
    }))

  it.effect("a choice kept as sent nested 20,000 levels deep is reported without overflowing the stack (Chat and Responses)", () =>
    Effect.gen(function*() {
      let deep: Schema.Json = "f"
      for (let k = 0; k < 20_000; k++) deep = { mode: deep }
      const chat = yield* OpenAiChat.toRequest(Request.make([Message.user("hi")], { providerOptions: { "openai-chat": { tool_choice: deep } } }))
      assert.isUndefined(body(chat.value)["tool_choice"])
      assert.deepStrictEqual(tags(chat.warnings), ["DroppedContent"])
      const responses = yield* OpenAiResponses.toRequest(Request.make([Message.user("hi")], { providerOptions: { "openai-responses": { tool_choice: deep } } }))
      assert.isUndefined(body(responses.value)["tool_choice"])
      assert.deepStrictEqual(tags(responses.warnings), ["DroppedContent"])
      // another provider's kept choice, reported as one the target cannot take, is shown without overflowing too
      const foreign = yield* OpenAiChat.toRequest(Request.make([Message.user("hi")], { providerOptions: { "openai-responses": { tool_choice: deep } } }))
      assert.deepStrictEqual(tags(foreign.warnings), ["DroppedContent"])
    }))

  it.effect("a choice kept as sent and an empty tools list: left out, strict fails; a body that continues a stored response, conversation or prompt keeps it (the server may hold the tools)", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiResponses.fromRequest({ model: "gpt-5", input: "hi", tools: [], tool_choice: { type: "web_search_preview" } })
      const written = yield* OpenAiResponses.toRequest(read.value)
      assert.isUndefined(body(written.value)["tool_choice"])
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
      const error = yield* Effect.flip(OpenAiResponses.toRequest(read.value, { strict: true }))
      assert.strictEqual(error.warning._tag, "DroppedContent")
      for (const stored of [{ previous_response_id: "resp_1" }, { prompt: { id: "pmpt_1" } }, { conversation: "conv_1" }]) {
        const sent = { model: "gpt-5", input: [{ role: "user", content: "hi" }], tool_choice: "required", ...stored }
        const back = yield* OpenAiResponses.toRequest((yield* OpenAiResponses.fromRequest(sent)).value)
        assert.deepStrictEqual(body(back.value), sent)
        assert.deepStrictEqual(back.warnings, [])
      }
    }))
})

// ---------------------------------------------------------------------------
// 2. JSON mode without the word "json"
// ---------------------------------------------------------------------------

const jsonMode = { _tag: "JsonObject" } as const

describe("Chat JSON mode without the word json", () => {
  it.effect("is written as it is and reported as RejectedSetting when no message says json; one that says it, in any case, is enough", () =>
    Effect.gen(function*() {
      const written = yield* OpenAiChat.toRequest(Request.make([Message.system("Be brief."), Message.user("Weather in Oslo?")], { responseFormat: jsonMode }))
      assert.deepStrictEqual(body(written.value)["response_format"], { type: "json_object" })
      assert.deepStrictEqual(tags(written.warnings), ["RejectedSetting"])
      const warning = written.warnings[0] as unknown as { readonly path: string; readonly value: unknown; readonly message: string }
      assert.strictEqual(warning.path, "response_format")
      assert.deepStrictEqual(warning.value, { type: "json_object" })
      assert.include(warning.message, "'messages' must contain the word 'json' in some form")
      // a message that says json, in any case and any role, is enough
      for (
        const conversation of [
          [Message.system("Answer in JSON."), Message.user("Weather in Oslo?")],
          [Message.user("Weather in Oslo? Reply as Json.")],
          [Message.user([Block.text("Weather in Oslo?"), Block.text("a json object please")])],
          [Message.user("Weather?"), Message.assistant("{\"json\": true}"), Message.user("Again.")]
        ]
      ) {
        const said = yield* OpenAiChat.toRequest(Request.make(conversation, { responseFormat: jsonMode }))
        assert.deepStrictEqual(said.warnings, [])
      }
    }))

  it.effect("a kept field nested 20,000 levels deep is searched without overflowing the stack (Chat and Responses)", () =>
    Effect.gen(function*() {
      let deep: Schema.Json = "json"
      for (let k = 0; k < 20_000; k++) deep = { content: deep }
      const user = Message.user("Weather in Oslo?", { providerOptions: { "openai-chat": { x_trace: deep }, "openai-responses": { x_trace: deep } } })
      const chat = yield* OpenAiChat.toRequest(Request.make([user], { responseFormat: jsonMode }))
      assert.deepStrictEqual(tags(chat.warnings), [])
      const responses = yield* OpenAiResponses.toRequest(Request.make([user], { responseFormat: jsonMode }))
      assert.deepStrictEqual(tags(responses.warnings), [])
    }))

  it.effect("strict conversion fails with the RejectedSetting", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(OpenAiChat.toRequest(Request.make([Message.user("Weather in Oslo?")], { responseFormat: jsonMode }), { strict: true }))
      assert.strictEqual(error._tag, "UnsupportedContent")
      assert.strictEqual(error.warning._tag, "RejectedSetting")
    }))

  it.effect("a json_object response_format kept as sent is held to the rule too", () =>
    Effect.gen(function*() {
      const format = { type: "json_object", x_vendor: 1 }
      const sent = { model: "gpt-4o", messages: [{ role: "user", content: "Weather in Oslo?" }], response_format: format }
      const written = yield* OpenAiChat.toRequest((yield* OpenAiChat.fromRequest(sent)).value)
      assert.deepStrictEqual(body(written.value), sent)
      assert.deepStrictEqual(tags(written.warnings), ["RejectedSetting"])
    }))

  const Word = Schema.Literals(["Reply", " in ", "JSON", "json", "Json", "js", "on", " please", "plain text", ""])
  it.prop(
    "RejectedSetting is reported iff no message text contains json, in any case",
    [Schema.Array(Schema.Array(Word))],
    ([texts]) => {
      const messages = texts.map((words, i) => (i % 2 === 0 ? Message.user(words.join("")) : Message.assistant(words.join(""))))
      const { value, warnings } = Effect.runSync(OpenAiChat.toRequest(Request.make(messages, { responseFormat: jsonMode })))
      const said = texts.some((words) => /json/i.test(words.join("")))
      assert.deepStrictEqual(tags(warnings).filter((t) => t === "RejectedSetting").length, said ? 0 : 1)
      assert.deepStrictEqual(body(value)["response_format"], { type: "json_object" })
    }
  )
})

describe("Responses JSON mode without the word json", () => {
  const jsonText = { format: { type: "json_object" } }

  it.effect("is written as it is and reported as RejectedSetting when no input message says json", () =>
    Effect.gen(function*() {
      const written = yield* OpenAiResponses.toRequest(Request.make([Message.user("Weather in Oslo?")], { responseFormat: jsonMode }))
      assert.deepStrictEqual(body(written.value)["text"], jsonText)
      assert.deepStrictEqual(tags(written.warnings), ["RejectedSetting"])
      const warning = written.warnings[0] as unknown as { readonly path: string; readonly value: unknown; readonly message: string }
      assert.strictEqual(warning.path, "text.format")
      assert.deepStrictEqual(warning.value, { type: "json_object" })
      assert.include(warning.message, "must contain the word 'json' in some form")
      const error = yield* Effect.flip(OpenAiResponses.toRequest(Request.make([Message.user("Weather in Oslo?")], { responseFormat: jsonMode }), { strict: true }))
      assert.strictEqual(error.warning._tag, "RejectedSetting")
    }))

  it.effect("instructions that say json are not enough (the API checks the input messages); an input message that says it is", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiResponses.fromRequest({ model: "gpt-5", instructions: "Answer in JSON.", input: "Weather in Oslo?", text: jsonText })
      assert.deepStrictEqual(tags((yield* OpenAiResponses.toRequest(read.value)).warnings), ["RejectedSetting"])
      for (const input of ["Weather in Oslo, as json?", [{ role: "developer", content: "Answer in JSON." }, { role: "user", content: "Weather in Oslo?" }]]) {
        const sent = { model: "gpt-5", input, text: jsonText }
        const written = yield* OpenAiResponses.toRequest((yield* OpenAiResponses.fromRequest(sent)).value)
        assert.deepStrictEqual(written.warnings, [])
      }
    }))
})

// ---------------------------------------------------------------------------
// 3. other_ids, kept by the Chat stream reader
// ---------------------------------------------------------------------------

describe("Chat: the other ids the stream reader keeps on a tool call", () => {
  const chunk = (delta: Item, finish: string | null = null) => ({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1700000000,
    model: "gpt-4o",
    choices: [{ index: 0, delta, finish_reason: finish }]
  })
  // a server that changes a call's id after its first fragment (poolsideai/pool#9)
  const events = [
    chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_first", type: "function", function: { name: "get_weather", arguments: "" } }] }),
    chunk({ tool_calls: [{ index: 0, id: "call_second", type: "function", function: { arguments: "{\"city\":\"Oslo\"}" } }] }),
    chunk({}, "tool_calls")
  ]

  it.effect("are not written into a replayed request's tool call, reported, and stay in the model", () =>
    Effect.gen(function*() {
      const streamed = yield* OpenAiChat.fromEvents(events as never)
      const assistant = streamed.value.message
      assert.deepStrictEqual(Message.toolCallsOf(assistant)[0]?.providerOptions?.["openai-chat"]?.["other_ids"], ["call_second"])
      const conversation = [Message.user("Weather in Oslo?"), assistant, Message.toolResultMessage("call_first", "get_weather", "4°C")]
      const written = yield* OpenAiChat.toMessages(conversation)
      const sent = written.value[1] as unknown as { readonly tool_calls: ReadonlyArray<Item> }
      assert.deepStrictEqual(sent.tool_calls, [{ id: "call_first", type: "function", function: { name: "get_weather", arguments: "{\"city\":\"Oslo\"}" } }])
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
      const warning = written.warnings[0] as unknown as { readonly index?: number; readonly blockIndex?: number; readonly message: string }
      assert.deepStrictEqual([warning.index, warning.blockIndex], [1, 0])
      assert.include(warning.message, "other_ids")
      // the model keeps them: nothing is lost
      assert.deepStrictEqual(Message.toolCallsOf(conversation[1] as Message.AssistantMessage)[0]?.providerOptions?.["openai-chat"]?.["other_ids"], ["call_second"])
      const error = yield* Effect.flip(OpenAiChat.toMessages(conversation, { strict: true }))
      assert.strictEqual(error.warning._tag, "DroppedContent")
    }))

  it.effect("are left out of a custom tool call too", () =>
    Effect.gen(function*() {
      const call = Block.toolCall("call_1", "grep", "TODO", { providerOptions: { "openai-chat": { type: "custom", other_ids: ["call_2"] } } })
      const written = yield* OpenAiChat.toMessages([Message.user("Find TODOs."), Message.assistant([call]), Message.toolResultMessage("call_1", "grep", "none")])
      const sent = written.value[1] as unknown as { readonly tool_calls: ReadonlyArray<Item> }
      assert.deepStrictEqual(sent.tool_calls, [{ id: "call_1", type: "custom", custom: { name: "grep", input: "TODO" } }])
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
    }))
})
