/**
 * Rules of a provider's request body that the writers used to break without
 * a word, each answered with HTTP 400: a Responses item id of the wrong kind,
 * Chat's `parallel_tool_calls` without tools, and Anthropic settings that
 * conflict with extended thinking.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Block, Message, Request } from "../../src/index.js"
import { Anthropic, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

type Item = { readonly [key: string]: unknown }
const tags = (warnings: ReadonlyArray<{ readonly _tag: string }>) => warnings.map((w) => w._tag)
const messages = (warnings: ReadonlyArray<{ readonly message: string }>) => warnings.map((w) => w.message)

// ---------------------------------------------------------------------------
// 1. Responses item ids
// ---------------------------------------------------------------------------

describe("Responses item ids", () => {
  const call = (itemId?: string) => Block.toolCall("call_1", "get_weather", { city: "Oslo" }, itemId === undefined ? undefined : { itemId })
  const loop = (assistant: ReadonlyArray<Block.AssistantBlock>) => [
    Message.user("Weather in Oslo?"),
    Message.assistant(assistant),
    Message.toolResultMessage("call_1", "get_weather", "4°C")
  ]
  const itemsOf = (input: ReadonlyArray<unknown>) => input as ReadonlyArray<Item>

  it.effect("a function_call item id that does not begin with fc is left out and reported; one that does is kept", () =>
    Effect.gen(function*() {
      const bad = yield* OpenAiResponses.toMessages(loop([call("item_A9v0SNfS3VaLrfX0j3y4xhyK")]))
      const written = itemsOf(bad.value).find((i) => i["type"] === "function_call")!
      assert.deepStrictEqual(written, { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "{\"city\":\"Oslo\"}" })
      assert.deepStrictEqual(tags(bad.warnings), ["DroppedContent"])
      assert.include(bad.warnings[0]!.message, "\"item_A9v0SNfS3VaLrfX0j3y4xhyK\"")
      assert.include(bad.warnings[0]!.message, "fc")
      assert.strictEqual((bad.warnings[0] as { readonly index?: number }).index, 1)
      // the API's own ids, and ids it takes (it checks the first letters only)
      for (const id of ["fc_68c42d3e9e4881968b15fbb8253f5854", "fcr_1", "fc1"]) {
        const good = yield* OpenAiResponses.toMessages(loop([call(id)]))
        assert.strictEqual(itemsOf(good.value).find((i) => i["type"] === "function_call")!["id"], id)
        assert.deepStrictEqual(good.warnings, [])
      }
    }))

  it.effect("strict conversion fails on a function_call item id it would leave out", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(OpenAiResponses.toMessages(loop([call("call_1")]), { strict: true }))
      assert.strictEqual(error._tag, "UnsupportedContent")
      assert.strictEqual(error.warning._tag, "DroppedContent")
    }))

  it.effect("a history read from a Responses-compatible server with ids of its own goes to toRequest without them", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiResponses.fromRequest({
        model: "gpt-5",
        input: [
          { role: "user", content: "Weather in Oslo?" },
          { type: "reasoning", id: "item_r1", summary: [], encrypted_content: "gAAAA" },
          { type: "function_call", id: "item_c1", call_id: "call_1", name: "get_weather", arguments: "{}" },
          { type: "function_call_output", call_id: "call_1", output: "4°C" },
          { type: "message", id: "019f629b-43ee-7a82-acb1-3071dbffbdad", role: "assistant", status: "completed", content: [{ type: "output_text", text: "4°C.", annotations: [] }] }
        ]
      })
      const written = yield* OpenAiResponses.toRequest(read.value)
      const input = itemsOf(written.value.input as ReadonlyArray<unknown>)
      assert.deepStrictEqual(input.map((i) => i["id"]), [undefined, undefined, undefined, undefined, undefined])
      assert.deepStrictEqual(input.map((i) => i["type"]), [undefined, "reasoning", "function_call", "function_call_output", "message"])
      assert.deepStrictEqual(input[1], { type: "reasoning", summary: [], encrypted_content: "gAAAA" })
      assert.deepStrictEqual(input[4], { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "4°C.", annotations: [] }] })
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent", "DroppedContent", "DroppedContent"])
      const said = messages(written.warnings).join("\n")
      for (const id of ["item_r1", "item_c1", "019f629b-43ee-7a82-acb1-3071dbffbdad"]) assert.include(said, JSON.stringify(id))
    }))

  it.effect("a reasoning item whose id is not the API's and that has no encrypted content cannot be replayed: it is left out, reported", () =>
    Effect.gen(function*() {
      const thinking = Block.thinking("", undefined, { itemId: "item_r1", summary: ["Looked it up."] })
      const written = yield* OpenAiResponses.toMessages(loop([thinking, call("fc_1")]))
      assert.deepStrictEqual(itemsOf(written.value).map((i) => i["type"]), [undefined, "function_call", "function_call_output"])
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
      assert.include(written.warnings[0]!.message, "\"item_r1\"")
      // the API's own id: carried as it was
      const own = yield* OpenAiResponses.toMessages(loop([Block.thinking("", undefined, { itemId: "rs_1", summary: [] }), call("fc_1")]))
      assert.strictEqual(itemsOf(own.value)[1]!["id"], "rs_1")
      assert.deepStrictEqual(own.warnings, [])
    }))

  it.effect("the blocks of one output message with an id of another kind stay one message item, reported once", () =>
    Effect.gen(function*() {
      const written = yield* OpenAiResponses.toMessages([
        Message.user("hi"),
        Message.assistant([Block.text("Hello", { itemId: "resp_chatcmpl-1_msg" }), Block.refusal("No.", { itemId: "resp_chatcmpl-1_msg" }), Block.text("Bye", { itemId: "msg_2" })])
      ])
      const items = itemsOf(written.value)
      assert.deepStrictEqual(items.map((i) => i["id"]), [undefined, undefined, "msg_2"])
      assert.deepStrictEqual((items[1]!["content"] as ReadonlyArray<Item>).map((p) => p["type"]), ["output_text", "refusal"])
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
      assert.strictEqual((written.warnings[0] as { readonly blockIndex?: number }).blockIndex, 0)
    }))

  it.prop("every function_call, reasoning and message item goes out with no id or an id of its kind, and an id left out is reported", [Schema.String], ([id]) => {
    const conversation = [
      Message.user("q"),
      Message.assistant([Block.thinking("", undefined, { itemId: id, summary: [], encryptedContent: "e" }), Block.text("a", { itemId: id }), call(id)]),
      Message.toolResultMessage("call_1", "get_weather", "r")
    ]
    const { value, warnings } = Effect.runSync(OpenAiResponses.toMessages(conversation))
    const prefixes: Readonly<Record<string, string>> = { function_call: "fc", reasoning: "rs", message: "msg" }
    let leftOut = 0
    for (const item of itemsOf(value)) {
      const prefix = prefixes[String(item["type"])]
      if (prefix === undefined) continue
      if (item["id"] === undefined) leftOut++
      else assert.isTrue(String(item["id"]).startsWith(prefix), JSON.stringify(item))
    }
    assert.strictEqual(warnings.filter((w) => w._tag === "DroppedContent" && w.message.includes(JSON.stringify(id))).length, leftOut)
  })
})

// ---------------------------------------------------------------------------
// 2. parallel_tool_calls without tools
// ---------------------------------------------------------------------------

describe("Chat parallel_tool_calls", () => {
  it.effect("a request without tools is written without parallel_tool_calls, reported; with tools the setting stays", () =>
    Effect.gen(function*() {
      const bare = yield* OpenAiChat.toRequest(Request.make([Message.user("hi")], { model: "gpt-4o", parallelToolCalls: false }))
      assert.deepStrictEqual(bare.value, { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] })
      assert.deepStrictEqual(tags(bare.warnings), ["DroppedContent"])
      assert.include(bare.warnings[0]!.message, "parallel tool calls")
      const withTools = yield* OpenAiChat.toRequest(Request.make([Message.user("hi")], { tools: [Request.tool("f")], parallelToolCalls: false }))
      assert.strictEqual(withTools.value.parallel_tool_calls, false)
      assert.deepStrictEqual(withTools.warnings, [])
    }))

  it.effect("a Chat body read with parallel_tool_calls and no tools goes back without it; strict conversion fails", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], parallel_tool_calls: true })
      const written = yield* OpenAiChat.toRequest(read.value)
      assert.isUndefined(written.value.parallel_tool_calls)
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
      const error = yield* Effect.flip(OpenAiChat.toRequest(read.value, { strict: true }))
      assert.strictEqual(error.warning._tag, "DroppedContent")
    }))
})

// ---------------------------------------------------------------------------
// 3. Anthropic settings that conflict with extended thinking
// ---------------------------------------------------------------------------

describe("Anthropic settings beside extended thinking", () => {
  const weather = Request.tool("get_weather", { parameters: { type: "object", properties: {} } })
  const on = (budget = 2048) => ({ type: "enabled", budget_tokens: budget })
  const request = (anthropic: { readonly [key: string]: Schema.Json }, options: Omit<ConstructorParameters<typeof Request.Request>[0], "messages"> = {}) =>
    Request.make([Message.user("Weather in Oslo?")], { model: "claude-sonnet-4-5", maxOutputTokens: 4096, ...options, providerOptions: { anthropic } })
  const rejected = (warnings: ReadonlyArray<{ readonly _tag: string; readonly message: string }>) =>
    warnings.filter((w) => w._tag === "RejectedSetting").map((w) => w.message)

  it.effect("a forced tool choice with manual thinking is written as it is and reported; auto, none and adaptive thinking are not", () =>
    Effect.gen(function*() {
      for (const toolChoice of ["required", { _tag: "Tool", name: "get_weather" }] as const) {
        const written = yield* Anthropic.toRequest(request({ thinking: on() }, { tools: [weather], toolChoice }))
        assert.strictEqual(written.value.tool_choice?.type, toolChoice === "required" ? "any" : "tool")
        assert.deepStrictEqual(tags(written.warnings), ["RejectedSetting"])
        assert.include(written.warnings[0]!.message, "tool_choice")
        assert.include(written.warnings[0]!.message, "thinking")
      }
      for (const [thinking, toolChoice] of [[on(), "auto"], [on(), "none"], [{ type: "adaptive" }, "required"], [{ type: "disabled" }, "required"]] as const) {
        const written = yield* Anthropic.toRequest(request({ thinking }, { tools: [weather], toolChoice }))
        assert.deepStrictEqual(written.warnings, [], JSON.stringify([thinking, toolChoice]))
      }
    }))

  it.effect("temperature other than 1, any top_k and top_p outside 0.95 to 1 with thinking on or adaptive are written as they are and reported", () =>
    Effect.gen(function*() {
      for (const thinking of [on(), { type: "adaptive" }]) {
        const written = yield* Anthropic.toRequest(request({ thinking, temperature: 0.2, top_k: 40, top_p: 0.9 }))
        const body = written.value as unknown as Item
        assert.deepStrictEqual([body["temperature"], body["top_k"], body["top_p"]], [0.2, 40, 0.9])
        const said = rejected(written.warnings)
        assert.strictEqual(said.length, 3)
        assert.include(said[0]!, "temperature 0.2")
        assert.include(said[1]!, "top_k 40")
        assert.include(said[2]!, "top_p 0.9")
        const fine = yield* Anthropic.toRequest(request({ thinking, temperature: 1, top_p: 0.95 }))
        assert.deepStrictEqual(fine.warnings, [])
      }
      // without thinking these settings are the caller's to choose
      const off = yield* Anthropic.toRequest(request({ thinking: { type: "disabled" }, temperature: 0.2, top_k: 40, top_p: 0.5 }))
      assert.deepStrictEqual(off.warnings, [])
    }))

  it.effect("max_tokens not above budget_tokens, also from the maxTokens option, and a budget under 1024 are reported", () =>
    Effect.gen(function*() {
      const own = yield* Anthropic.toRequest(request({ thinking: on(2048) }, { maxOutputTokens: 2048 }))
      assert.strictEqual(own.value.max_tokens, 2048)
      assert.strictEqual(rejected(own.warnings).length, 1)
      assert.include(rejected(own.warnings)[0]!, "max_tokens 2048")
      assert.include(rejected(own.warnings)[0]!, "budget_tokens")
      // the option (the CLI's --max-tokens) sets it
      const bare = Request.make([Message.user("hi")], { providerOptions: { anthropic: { thinking: on(2048) } } })
      const option = yield* Anthropic.toRequest(bare, { maxTokens: 1024 })
      assert.strictEqual(option.value.max_tokens, 1024)
      assert.include(rejected(option.warnings)[0]!, "max_tokens 1024")
      const small = yield* Anthropic.toRequest(request({ thinking: on(512) }))
      assert.deepStrictEqual((small.value as unknown as Item)["thinking"], on(512))
      assert.strictEqual(rejected(small.warnings).length, 1)
      assert.include(rejected(small.warnings)[0]!, "thinking.budget_tokens 512")
      const fine = yield* Anthropic.toRequest(request({ thinking: on(1024) }, { maxOutputTokens: 1025 }))
      assert.deepStrictEqual(fine.warnings, [])
    }))

  it.effect("strict conversion fails on a setting the API rejects beside thinking", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Anthropic.toRequest(request({ thinking: on(), temperature: 0 }), { strict: true }))
      assert.strictEqual(error._tag, "UnsupportedContent")
      assert.strictEqual(error.warning._tag, "RejectedSetting")
    }))
})
