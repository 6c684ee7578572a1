/**
 * Request-level conversions a second adversarial read found wrong: a named
 * choice of a hosted tool written as a function's, a Chat tool choice whose
 * type was taken from the tools rather than kept, the deprecated
 * `function_call` written as `tool_choice`, Anthropic's tools kept the
 * older way sent to Responses as functions, a Responses estimate that
 * counted Chat's custom-tool forms, an absent assistant `content` written
 * as `null`, and a `Toolkit` that reported the adapters' own hints as lost.
 */
import { assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { loadTextCounter, makeExact } from "../../src/exact/index.js"
import { Message, Request, TokenEstimator } from "../../src/index.js"
import { Anthropic, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import * as Arb from "../arbitraries.js"

const hi = [{ role: "user", content: "hi" }]
const tags = (warnings: ReadonlyArray<{ readonly _tag: string }>) => warnings.map((w) => w._tag)
const encode = Schema.encodeSync(Request.Request)
const json = <A>(value: A): A => JSON.parse(JSON.stringify(value)) as A

describe("Responses: a named choice of a hosted tool", () => {
  const hosted = [
    { tool: { type: "web_search_preview" }, choice: { type: "web_search_preview" } },
    { tool: { type: "web_search", search_context_size: "low" }, choice: { type: "web_search" } },
    { tool: { type: "file_search", vector_store_ids: ["vs_1"] }, choice: { type: "file_search" } },
    { tool: { type: "image_generation" }, choice: { type: "image_generation" } },
    { tool: { type: "code_interpreter", container: { type: "auto" } }, choice: { type: "code_interpreter" } },
    { tool: { type: "mcp", server_label: "deepwiki", server_url: "https://mcp.deepwiki.com/mcp" }, choice: { type: "mcp", server_label: "deepwiki" } },
    { tool: { type: "custom", name: "apply_patch", description: "Apply a diff" }, choice: { type: "custom", name: "apply_patch" } }
  ]
  const fn = { type: "function", name: "get_weather", parameters: { type: "object" }, strict: true }

  it.effect("is written in the hosted tool's own form, never as a function, and each form comes back as it was sent", () =>
    Effect.gen(function*() {
      for (const { choice, tool } of hosted) {
        const body = { model: "gpt-5", input: hi, tools: [fn, tool], tool_choice: choice }
        const read = yield* OpenAiResponses.fromRequest(body)
        const name = read.value.tools![1]!.name
        assert.deepStrictEqual(read.value.toolChoice, { _tag: "Tool", name }, JSON.stringify(choice))
        const back = yield* OpenAiResponses.toRequest(read.value)
        assert.deepStrictEqual<unknown>(back.value.tool_choice, choice)
        assert.deepStrictEqual(back.warnings, [])
        assert.deepStrictEqual<unknown>(json(back.value), body)
      }
    }))

  it.effect("built in the model, goes out in its own form and reads back as the same request", () =>
    Effect.gen(function*() {
      const tools = [Request.tool("get_weather", { parameters: { type: "object" }, strict: true }), Request.providerTool("web_search_preview", "openai-responses", "web_search_preview")]
      const request = Request.make([Message.user("hi")], { tools, toolChoice: { _tag: "Tool", name: "web_search_preview" } })
      const written = yield* OpenAiResponses.toRequest(request)
      assert.deepStrictEqual<unknown>(written.value.tool_choice, { type: "web_search_preview" })
      const back = yield* OpenAiResponses.fromRequest(json(written.value))
      expect(encode(back.value)).toEqual(encode(request))
    }))

  it.effect("of a hosted tool the API cannot be told to call is reported and left out, not sent as a function choice", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("hi")], {
        tools: [Request.providerTool("local_shell", "openai-responses", "local_shell")],
        toolChoice: { _tag: "Tool", name: "local_shell" }
      })
      const written = yield* OpenAiResponses.toRequest(request)
      assert.isUndefined(written.value.tool_choice)
      assert.deepStrictEqual<unknown>(written.value.tools, [{ type: "local_shell" }])
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent"])
      assert.include(written.warnings[0]!.message, "local_shell")
      const strict = yield* Effect.flip(OpenAiResponses.toRequest(request, { strict: true }))
      assert.strictEqual(strict._tag, "UnsupportedContent")
    }))

  it.effect("a function choice naming a custom tool's name, or a hosted choice whose tool is not there, is kept as sent", () =>
    Effect.gen(function*() {
      for (const body of [
        { model: "gpt-5", input: hi, tools: [{ type: "custom", name: "x" }], tool_choice: { type: "function", name: "x" } },
        { model: "gpt-5", input: hi, tools: [fn], tool_choice: { type: "file_search" } }
      ]) {
        const read = yield* OpenAiResponses.fromRequest(body)
        assert.isUndefined(read.value.toolChoice)
        assert.deepStrictEqual<unknown>(json((yield* OpenAiResponses.toRequest(read.value)).value), body)
      }
    }))

  const pick = <A>(values: ReadonlyArray<A>): Arbitrary.Arbitrary<A> => Arb.intBetween(0, values.length - 1).pipe(Arbitrary.map((i) => values[i]!))
  const body = Arbitrary.array(Arb.intBetween(0, hosted.length), { maxLength: 4 }).pipe(
    Arbitrary.flatMap((picks) => {
      const tools = [...new Set(picks)].map((k) => (k === hosted.length ? fn : hosted[k]!.tool))
      const choices = [...new Set(picks)].map((k) => (k === hosted.length ? { type: "function", name: fn.name } : hosted[k]!.choice))
      return pick<unknown>([undefined, "auto", "required", ...choices]).pipe(
        // without tools only "auto" is a choice the API takes (it rejects "required", and a tool it was not given)
        Arbitrary.map((choice) => ({ model: "gpt-5", input: hi, ...(tools.length > 0 ? { tools } : {}), ...(choice === undefined || (tools.length === 0 && choice !== "auto") ? {} : { tool_choice: choice }) }))
      )
    })
  )

  it.prop("any tool list with a choice of one of its tools: Responses -> the model -> Responses and back are the identity, the choice typed", [body], ([sent]) => {
    const read = Effect.runSync(OpenAiResponses.fromRequest(sent))
    if (typeof sent.tool_choice === "object") expect(read.value.toolChoice).toMatchObject({ _tag: "Tool" })
    const written = Effect.runSync(OpenAiResponses.toRequest(read.value))
    expect(written.warnings).toEqual([])
    expect(json(written.value)).toEqual(sent)
    expect(encode(Effect.runSync(OpenAiResponses.fromRequest(json(written.value))).value)).toEqual(encode(read.value))
  }, { arbitrary: { runs: 300 } })
})

describe("Chat: a named tool choice", () => {
  const fn = { type: "function", function: { name: "x", parameters: { type: "object" } } }
  const custom = { type: "custom", custom: { name: "x" } }

  it.effect("keeps its type when a tool of the other kind has the name it names", () =>
    Effect.gen(function*() {
      for (const body of [
        { model: "gpt-4o", messages: hi, tools: [fn, custom], tool_choice: { type: "function", function: { name: "x" } } },
        { model: "gpt-4o", messages: hi, tools: [custom, fn], tool_choice: { type: "function", function: { name: "x" } } },
        { model: "gpt-4o", messages: hi, tools: [fn, custom], tool_choice: { type: "custom", custom: { name: "x" } } },
        { model: "gpt-4o", messages: hi, tools: [fn], tool_choice: { type: "custom", custom: { name: "x" } } }
      ]) {
        const read = yield* OpenAiChat.fromRequest(body)
        const back = yield* OpenAiChat.toRequest(read.value)
        assert.deepStrictEqual<unknown>(json(back.value), body)
      }
    }))

  it.effect("of the deprecated functions goes back as function_call; with an empty functions list, neither goes back", () =>
    Effect.gen(function*() {
      const f = { name: "f", parameters: { type: "object" } }
      for (const call of ["none", "auto", { name: "f" }]) {
        const empty = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: hi, functions: [], function_call: call })
        const written = (yield* OpenAiChat.toRequest(empty.value)).value as unknown as Record<string, unknown>
        // the empty list is left out, as an empty tools list is (the API rejects one), and so is its choice (the API
        // rejects function_call without functions)
        assert.deepStrictEqual([written["function_call"], written["tool_choice"], written["functions"]], [undefined, undefined, undefined])
        const listed = { model: "gpt-4o", messages: hi, functions: [f], function_call: call }
        assert.deepStrictEqual<unknown>(json((yield* OpenAiChat.toRequest((yield* OpenAiChat.fromRequest(listed)).value)).value), listed)
      }
    }))
})

describe("Chat: an assistant message without content", () => {
  it.effect("goes back without content; one with content: null goes back with it", () =>
    Effect.gen(function*() {
      const call = { id: "c1", type: "function", function: { name: "f", arguments: "{}" } }
      for (const assistant of [{ role: "assistant", tool_calls: [call] }, { role: "assistant", content: null, tool_calls: [call] }]) {
        const body = { model: "gpt-4o", messages: [...hi, assistant, { role: "tool", tool_call_id: "c1", content: "ok" }] }
        const read = yield* OpenAiChat.fromRequest(body)
        const back = yield* OpenAiChat.toRequest(read.value)
        assert.deepStrictEqual<unknown>(json(back.value), body)
        assert.deepStrictEqual(back.warnings, [])
      }
    }))
})

describe("Anthropic's tools kept the older way", () => {
  it.effect("are not written to Responses as function tools: reported and left out, with a choice of one", () =>
    Effect.gen(function*() {
      const older = (name: string, type: string) => Request.tool(name, { providerOptions: { anthropic: { type } } })
      const request = Request.make([Message.user("hi")], {
        tools: [older("bash", "bash_20250124"), older("str_replace_based_edit_tool", "text_editor_20250728"), older("web_search", "web_search_20250305"), Request.tool("f", { parameters: { type: "object" }, providerOptions: { anthropic: { type: "custom" } } })],
        toolChoice: { _tag: "Tool", name: "bash" }
      })
      const written = yield* OpenAiResponses.toRequest(request)
      assert.deepStrictEqual((written.value.tools ?? []).map((t) => (t as { readonly name?: string }).name), ["f"])
      assert.isUndefined(written.value.tool_choice)
      assert.deepStrictEqual(tags(written.warnings), ["DroppedContent", "DroppedContent", "DroppedContent", "DroppedContent"])
      // nor put in a Toolkit as functions
      const toolkit = EffectAi.toToolkit(request.tools!)
      assert.deepStrictEqual(Object.keys(toolkit.value.tools), ["f"])
    }))
})

describe("the Responses estimate of a request carried over from Chat", () => {
  beforeAll(() => Effect.runPromise(Effect.asVoid(loadTextCounter("o200k"))))

  it("counts a custom tool and a named choice of it as the Responses body written for it", () => {
    const exact = Effect.runSync(makeExact({ encoding: "o200k" }))
    const call = { id: "c1", type: "custom", custom: { name: "apply_patch", input: "*** Begin Patch" } }
    for (const choice of [{ type: "custom", custom: { name: "apply_patch" } }, "auto"]) {
      for (const messages of [hi, [...hi, { role: "assistant", content: null, tool_calls: [call] }, { role: "tool", tool_call_id: "c1", content: "done" }]]) {
        const body = {
          model: "gpt-4o",
          messages,
          tools: [{ type: "custom", custom: { name: "apply_patch", description: "Apply a diff" } }, { type: "function", function: { name: "f", parameters: { type: "object", properties: { a: { type: "string" } } } } }],
          tool_choice: choice
        }
        const chat = Effect.runSync(OpenAiChat.fromRequest(body)).value
        const responses = Effect.runSync(OpenAiResponses.fromRequest(json(Effect.runSync(OpenAiResponses.toRequest(chat)).value))).value
        // the custom call and its output go as the API's own items, read back as its data (in one assistant message):
        // made calls and results again, the request has the Chat one's messages, and the same estimate
        const again = messages === hi ? responses : OpenAiResponses.customToolsAsCalls(responses)
        expect(again.messages.length).toBe(chat.messages.length)
        for (const e of [exact, TokenEstimator.heuristic]) {
          expect(e.estimateRequest(chat, { provider: "openai-responses" })).toEqual(e.estimateRequest(again, { provider: "openai-responses" }))
        }
      }
    }
  })
})

describe("EffectAi.toToolkit", () => {
  it.effect("reports a tool's provider fields, not the adapters' own marks of how to write it back", () =>
    Effect.gen(function*() {
      const fromResponses = yield* OpenAiResponses.fromRequest({ model: "gpt-5", input: "hi", tools: [{ type: "function", name: "f", parameters: { type: "object" }, strict: true }] })
      const fromChat = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: hi, functions: [{ name: "f", parameters: { type: "object" } }] })
      const fromGemini = yield* Gemini.fromRequest({ contents: [{ role: "user", parts: [{ text: "hi" }] }], tools: [{ function_declarations: [{ name: "f", parameters_json_schema: { type: "object" } }] }] })
      for (const read of [fromResponses, fromChat, fromGemini]) {
        const made = EffectAi.toToolkit(read.value.tools!)
        assert.deepStrictEqual(Object.keys(made.value.tools), ["f"])
        assert.deepStrictEqual(made.warnings, [])
      }
      // a field of the sender's is still reported
      const fromAnthropic = yield* Anthropic.fromRequest({ model: "c", max_tokens: 5, messages: hi, tools: [{ name: "f", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } }] })
      assert.deepStrictEqual(tags(EffectAi.toToolkit(fromAnthropic.value.tools!).warnings), ["DroppedContent"])
      // and so is a Responses tool's strict left unset (strict where possible there): made back, it goes out strict: false
      const unset = yield* OpenAiResponses.fromRequest({ model: "gpt-5", input: "hi", tools: [{ type: "function", name: "f", parameters: { type: "object" } }] })
      const warnings = EffectAi.toToolkit(unset.value.tools!).warnings
      assert.deepStrictEqual(tags(warnings), ["DroppedContent"])
      assert.include(warnings[0]!.message, "openai-responses")
    }))
})
