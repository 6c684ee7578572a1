/**
 * Custom tools (free-form text in: the `apply_patch` tool of coding agents) between the two OpenAI APIs and the
 * formats whose tools take JSON objects. The Responses reader keeps `custom_tool_call` and
 * `custom_tool_call_output` items as the API's own data; `customToolsAsCalls` makes them the model's calls of Chat
 * Completions custom tools, which every writer carries, and the Responses writer sends such calls back as the API's
 * own items. Before, a Codex history written to Chat, Anthropic or Gemini lost every patch and its output (each
 * reported as left out), and a Chat custom tool went to Responses as a function tool without its grammar.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair, Request, TokenEstimator } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

const PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch"
const LARK = { type: "grammar", syntax: "lark", definition: "start: /.+/" }
const LARK_CHAT = { syntax: "lark", definition: "start: /.+/" }

/** A coding agent's Responses request: a patch, its output, a text reply and the next question. */
const codexBody = {
  model: "gpt-5",
  input: [
    { role: "user", content: "Fix the bug in a.py." },
    { type: "custom_tool_call", id: "ctc_1", call_id: "call_1", name: "apply_patch", input: PATCH, status: "completed" },
    { type: "custom_tool_call_output", call_id: "call_1", output: "Done!" },
    { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "Fixed.", annotations: [] }] },
    { role: "user", content: "Thanks. Now b.py." },
    { type: "custom_tool_call", call_id: "call_2", name: "apply_patch", input: "*** Begin Patch\n*** End Patch" },
    { type: "custom_tool_call_output", call_id: "call_2", output: [{ type: "input_text", text: "Failed: " }, { type: "input_text", text: "no such file" }] }
  ],
  tools: [{ type: "custom", name: "apply_patch", description: "Apply a patch to the workspace", format: LARK, defer_loading: false }],
  tool_choice: { type: "custom", name: "apply_patch" }
}

/** A Chat Completions body in which the model patched a file with a custom tool of `format`, and the patch went in. */
const patchedInChat = (format: object) => ({
  model: "gpt-5",
  messages: [
    { role: "user", content: "Fix it." },
    { role: "assistant", content: null, tool_calls: [{ id: "call_9", type: "custom", custom: { name: "apply_patch", input: PATCH } }] },
    { role: "tool", tool_call_id: "call_9", content: "Done!" }
  ],
  tools: [{ type: "custom", custom: { name: "apply_patch", description: "Edit files", format } }]
})

const readResponses = (body: unknown) => Effect.map(OpenAiResponses.fromRequest(body), (r) => r.value)

describe("OpenAiResponses.customToolsAsCalls", () => {
  it.effect("makes custom tool items calls and results, an output a tool message of its own", () =>
    Effect.gen(function*() {
      const read = yield* readResponses(codexBody)
      // as read: the items are the API's own data, each run of items one assistant message
      expect(read.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"])
      const request = OpenAiResponses.customToolsAsCalls(read)
      expect(request.messages.map((m) => `${m.role}:${m.content.map((b) => b._tag).join(",")}`)).toEqual([
        "user:Text",
        "assistant:ToolCall",
        "tool:ToolResult",
        "assistant:Text",
        "user:Text",
        "assistant:ToolCall",
        "tool:ToolResult"
      ])
      const call = request.messages[1]!.content[0] as Block.ToolCallBlock
      expect(call).toMatchObject({ id: "call_1", name: "apply_patch", args: PATCH, itemId: "ctc_1" })
      expect(call.providerOptions).toEqual({ "openai-chat": { type: "custom" }, "openai-responses": { status: "completed" } })
      const result = request.messages[6]!.content[0] as Block.ToolResultBlock
      expect(result.toolCallId).toBe("call_2")
      expect(result.toolName).toBe("apply_patch")
      expect((result.content as ReadonlyArray<Block.TextBlock>).map((part) => part.text)).toEqual(["Failed: ", "no such file"])
      // the definition: a Chat Completions custom tool with its grammar, its other Responses fields kept
      expect(request.tools?.[0]?.providerDefined).toBeUndefined()
      expect(request.tools?.[0]?.description).toBe("Apply a patch to the workspace")
      expect(request.tools?.[0]?.providerOptions).toEqual({
        "openai-chat": { type: "custom", custom: { format: { type: "grammar", grammar: { syntax: "lark", definition: "start: /.+/" } } } },
        "openai-responses": { defer_loading: false }
      })
      // the generic rules and every provider's find nothing wrong with it
      expect(Conversation.issuesOf(request.messages)).toEqual([])
      for (const provider of ["openai-chat", "openai-responses", "anthropic", "gemini"] as const) {
        expect(Conversation.issuesFor(provider, request.messages), provider).toEqual([])
      }
    }))

  it.effect("writes a Codex history to Chat Completions as custom calls and tools, grammar and all, and to Anthropic and Gemini as calls with { input }", () =>
    Effect.gen(function*() {
      const request = OpenAiResponses.customToolsAsCalls(yield* readResponses(codexBody))
      const chat = yield* OpenAiChat.toRequest(request)
      expect(chat.warnings).toEqual([])
      const body = chat.value as unknown as { messages: Array<Record<string, unknown>>; tools: unknown; tool_choice: unknown }
      expect(body.messages[1]).toEqual({
        role: "assistant",
        content: null,
        tool_calls: [{ type: "custom", id: "call_1", custom: { name: "apply_patch", input: PATCH } }]
      })
      expect(body.messages[2]).toEqual({ role: "tool", tool_call_id: "call_1", content: "Done!" })
      expect(body.tools).toEqual([{
        type: "custom",
        custom: { name: "apply_patch", description: "Apply a patch to the workspace", format: { type: "grammar", grammar: { syntax: "lark", definition: "start: /.+/" } } }
      }])
      expect(body.tool_choice).toEqual({ type: "custom", custom: { name: "apply_patch" } })

      const anthropic = yield* Anthropic.toRequest(request, { maxTokens: 1024 })
      const sent = JSON.stringify(anthropic.value)
      expect(sent).toContain(JSON.stringify({ type: "tool_use", id: "call_1", name: "apply_patch", input: { input: PATCH } }))
      expect(sent).toContain(JSON.stringify({ type: "tool_result", tool_use_id: "call_1", content: "Done!" }))
      const gemini = yield* Gemini.toRequest(request)
      expect(JSON.stringify(gemini.value)).toContain(JSON.stringify({ functionCall: { name: "apply_patch", args: { input: PATCH }, id: "call_1" } }))
      // what is written is what is priced: the patch's text counts
      for (const provider of ["openai-chat", "anthropic", "gemini"] as const) {
        const estimate = TokenEstimator.heuristic.estimateRequest(request, { provider })
        const without = TokenEstimator.heuristic.estimateRequest(OpenAiResponses.customToolsAsCalls(yield* readResponses({
          ...codexBody,
          input: codexBody.input.map((item) => ("input" in item && item.call_id === "call_1" ? { ...item, input: "x" } : item))
        })), { provider })
        expect(estimate.total - without.total, provider).toBeGreaterThan(15)
      }
    }))

  it.effect("comes back to the same Responses body through the Responses writer", () =>
    Effect.gen(function*() {
      const request = OpenAiResponses.customToolsAsCalls(yield* readResponses(codexBody))
      const written = yield* OpenAiResponses.toRequest(request)
      expect(written.warnings).toEqual([])
      expect(written.value).toEqual(codexBody)
    }))

  it.effect("sends a Chat Completions custom tool to Responses as the API's own custom tool, and back", () =>
    Effect.gen(function*() {
      const chatBody = {
        ...patchedInChat({ type: "grammar", grammar: { syntax: "regex", definition: "\\*\\*\\*.*" } }),
        tool_choice: { type: "custom", custom: { name: "apply_patch" } }
      }
      const { value: fromChat } = yield* OpenAiChat.fromRequest(chatBody)
      const responses = yield* OpenAiResponses.toRequest(fromChat)
      expect(responses.warnings).toEqual([])
      expect(responses.value).toEqual({
        model: "gpt-5",
        input: [
          { role: "user", content: "Fix it." },
          { type: "custom_tool_call", call_id: "call_9", name: "apply_patch", input: PATCH },
          { type: "custom_tool_call_output", call_id: "call_9", output: "Done!" }
        ],
        tools: [{ type: "custom", name: "apply_patch", description: "Edit files", format: { type: "grammar", syntax: "regex", definition: "\\*\\*\\*.*" } }],
        tool_choice: { type: "custom", name: "apply_patch" }
      })
      // Chat -> Responses -> Chat: the same body
      const back = OpenAiResponses.customToolsAsCalls(yield* readResponses(responses.value))
      const chat = yield* OpenAiChat.toRequest(back)
      expect(chat.value).toEqual(chatBody)
      // the Responses rules judge no arguments of a call that sends its text, and the repair leaves its text alone
      expect(Conversation.issuesFor("openai-responses", fromChat.messages)).toEqual([])
      const repaired = yield* Repair.repairFor("openai-responses")(fromChat.messages)
      expect(repaired.actions).toEqual([])
    }))

  it.effect("sends a Chat custom tool whose format has no Responses form as a function tool of { input }, and its calls likewise", () =>
    Effect.gen(function*() {
      // a format the writer knows no Responses spelling of: the tool goes as a function, and so must its calls
      const chatBody = patchedInChat({ type: "future_format", pattern: "x" })
      const { value: fromChat } = yield* OpenAiChat.fromRequest(chatBody)
      const responses = yield* OpenAiResponses.toRequest(fromChat)
      expect(responses.value).toEqual({
        model: "gpt-5",
        input: [
          { role: "user", content: "Fix it." },
          { type: "function_call", call_id: "call_9", name: "apply_patch", arguments: JSON.stringify({ input: PATCH }) },
          { type: "function_call_output", call_id: "call_9", output: "Done!" }
        ],
        tools: [{ type: "function", name: "apply_patch", description: "Edit files", parameters: { type: "object", properties: { input: { type: "string" } }, required: ["input"] }, strict: false }]
      })
      expect(responses.warnings.map((w) => w._tag)).toEqual(["ConvertedContent", "ConvertedContent"])
      // without a definition to agree with, the call goes as the API's own custom call
      const alone = yield* OpenAiResponses.toMessages(fromChat.messages)
      expect((alone.value as ReadonlyArray<{ readonly type?: string }>).map((item) => item.type ?? "message")).toEqual(["message", "custom_tool_call", "custom_tool_call_output"])
      // priced as sent: the function call and tool, as read back
      const read = Effect.runSync(OpenAiResponses.fromRequest(responses.value)).value
      for (const e of [TokenEstimator.heuristic]) {
        expect(e.estimateRequest(fromChat, { provider: "openai-responses" }).total).toBe(e.estimateRequest(read, { provider: "openai-responses" }).total)
      }
    }))

  it("leaves items the API would not take, and outputs it cannot read, as they were", () => {
    const odd = [
      Block.providerData("openai-responses", { type: "custom_tool_call", name: "apply_patch", input: PATCH }),
      Block.providerData("openai-responses", { type: "custom_tool_call", call_id: "call_3", name: "apply_patch", input: { text: PATCH } }),
      Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: "call_3", output: [{ type: "input_audio", data: "AAAA" }] }),
      Block.providerData("openai-responses", { type: "web_search_call", id: "ws_1", status: "completed" })
    ]
    const request = Request.make([Message.user("hi"), Message.assistant(odd)])
    expect(OpenAiResponses.customToolsAsCalls(request)).toBe(request)
    // an output that answers no custom call before it (a function call's, a stored response's) is no result of one
    const unanswered = Request.make([
      Message.user("hi"),
      Message.assistant([Block.toolCall("fn_1", "f", {})]),
      Message.tool([Block.toolResult("fn_1", "f", "ok")]),
      Message.assistant([
        Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: "fn_1", output: "again" }),
        Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: "call_from_before", output: "stored" })
      ])
    ])
    expect(OpenAiResponses.customToolsAsCalls(unanswered)).toBe(unanswered)
  })

  it("converts a call and its outputs together or not at all", () => {
    const call = (id: string) => Block.providerData("openai-responses", { type: "custom_tool_call", call_id: id, name: "apply_patch", input: PATCH })
    const output = (id: string, out: Schema.Json = "ok") => Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: id, output: out })
    const unchanged = [
      // an output of a shape no result holds: its call stays too, and the pair stays whole
      [Message.assistant([call("c1"), output("c1", [{ type: "weird" }])])],
      [Message.assistant([call("c1"), output("c1", 5)])],
      // an output in a message with fields of its own, which a tool message cannot hold
      [Message.assistant([call("c1")]), Message.assistant([output("c1")], { providerOptions: { "openai-responses": { metadata: { a: 1 } } } })],
      // a function_call_output answering it (the writer would make it a custom output)
      [Message.assistant([call("c1")]), Message.tool([Block.toolResult("c1", "apply_patch", "ok")])],
      // two custom calls with one call_id
      [Message.assistant([call("c1"), output("c1"), call("c1"), output("c1")])]
    ]
    for (const messages of unchanged) {
      const request = Request.make([Message.user("go"), ...messages])
      expect(OpenAiResponses.customToolsAsCalls(request)).toBe(request)
    }
    // a clean pair beside a kept one is converted on its own
    const mixed = OpenAiResponses.customToolsAsCalls(Request.make([Message.user("go"), Message.assistant([call("c1"), output("c1", 5), call("c2"), output("c2")])]))
    expect(mixed.messages.map((m) => `${m.role}:${m.content.map((b) => b._tag).join(",")}`)).toEqual([
      "user:Text",
      "assistant:ProviderData,ProviderData,ToolCall",
      "tool:ToolResult"
    ])
  })

  it("leaves a custom tool without its own name, or with a description that is not text, as it was", () => {
    for (const tool of [{ type: "custom" }, { type: "custom", name: "apply_patch", description: null }]) {
      const read = Effect.runSync(OpenAiResponses.fromRequest({ model: "gpt-5", input: "hi", tools: [tool] })).value
      expect(OpenAiResponses.customToolsAsCalls(read)).toBe(read)
      expect(Effect.runSync(OpenAiResponses.toRequest(read)).value.tools).toEqual([tool])
    }
  })

  it("writes a result as the output of the call it answers: the last call of its id before it", () => {
    const custom = Block.toolCall("c1", "apply_patch", PATCH, { providerOptions: { "openai-chat": { type: "custom" } } })
    const written = Effect.runSync(OpenAiResponses.toMessages([
      Message.user("go"),
      Message.assistant([custom]),
      Message.tool([Block.toolResult("c1", "apply_patch", "patched")]),
      Message.assistant([Block.toolCall("c1", "f", { a: 1 })]),
      Message.tool([Block.toolResult("c1", "f", "done")])
    ])).value as ReadonlyArray<{ readonly type?: string }>
    expect(written.map((item) => item.type ?? "message")).toEqual(["message", "custom_tool_call", "custom_tool_call_output", "function_call", "function_call_output"])
  })

  it.effect("sends a call another format made of a Chat custom tool with { input } as a custom call of that text, as Chat does", () =>
    Effect.gen(function*() {
      // the tool defined as a Chat custom tool; the call made by Claude, which took it as a tool of one string
      const made = (input: string) =>
        Request.make([
          Message.user("Fix it."),
          Message.assistant([Block.toolCall("toolu_1", "apply_patch", { input })]),
          Message.tool([Block.toolResult("toolu_1", "apply_patch", "Done!")])
        ], { tools: [Request.tool("apply_patch", { providerOptions: { "openai-chat": { type: "custom", custom: { format: { type: "grammar", grammar: LARK_CHAT } } } } })] })
      const responses = yield* OpenAiResponses.toRequest(made(PATCH))
      expect(responses.value.input).toEqual([
        { role: "user", content: "Fix it." },
        { type: "custom_tool_call", call_id: "toolu_1", name: "apply_patch", input: PATCH },
        { type: "custom_tool_call_output", call_id: "toolu_1", output: "Done!" }
      ])
      expect(responses.warnings.map((w) => w._tag)).toEqual(["ConvertedContent"])
      const chat = yield* OpenAiChat.toRequest(made(PATCH))
      expect((chat.value as unknown as { messages: Array<unknown> }).messages[1]).toEqual({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "toolu_1", type: "custom", custom: { name: "apply_patch", input: PATCH } }]
      })
      // priced as sent: the item with its text, as read back
      for (const e of [TokenEstimator.heuristic]) {
        const read = OpenAiResponses.customToolsAsCalls(Effect.runSync(OpenAiResponses.fromRequest(responses.value)).value)
        expect(e.estimateRequest(made(PATCH), { provider: "openai-responses" }).total).toBe(e.estimateRequest(read, { provider: "openai-responses" }).total)
      }
    }))

  it.effect("finds a lone surrogate in a custom call's text, which Anthropic receives as { input }, and repair replaces it", () =>
    Effect.gen(function*() {
      const messages = [
        Message.user("go"),
        Message.assistant([Block.toolCall("c1", "apply_patch", "x\ud800", { providerOptions: { "openai-chat": { type: "custom" } } })]),
        Message.tool([Block.toolResult("c1", "apply_patch", "ok")])
      ]
      expect(Conversation.issuesFor("anthropic", messages).map((i) => i._tag)).toEqual(["LoneSurrogate"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      expect((repaired.messages[1]!.content[0] as Block.ToolCallBlock).args).toBe("x\ufffd")
      expect(Conversation.issuesFor("anthropic", repaired.messages)).toEqual([])
    }))

  it("splits an assistant message where an output stands among its blocks, its own fields on its first part", () => {
    const m = Message.assistant([
      Block.text("Patching."),
      Block.providerData("openai-responses", { type: "custom_tool_call", call_id: "c1", name: "apply_patch", input: "p1" }),
      Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: "c1", output: "ok" }),
      Block.providerData("openai-responses", { type: "custom_tool_call", call_id: "c2", name: "apply_patch", input: "p2" }),
      Block.providerData("openai-responses", { type: "custom_tool_call_output", call_id: "c2", output: "ok too" }),
      Block.text("Both done.")
    ], { providerOptions: { "openai-responses": { phase: "final" } } })
    const out = OpenAiResponses.customToolsAsCalls(Request.make([Message.user("go"), m])).messages
    expect(out.map((x) => `${x.role}:${x.content.map((b) => b._tag).join(",")}`)).toEqual([
      "user:Text",
      "assistant:Text,ToolCall",
      "tool:ToolResult",
      "assistant:ToolCall",
      "tool:ToolResult",
      "assistant:Text"
    ])
    expect(out[1]!.providerOptions).toEqual({ "openai-responses": { phase: "final" } })
    expect(out[3]!.providerOptions).toBeUndefined()
    expect((out[4]!.content[0] as Block.ToolResultBlock).toolName).toBe("apply_patch")
  })

  /** Responses traffic of custom tools: calls with any input text, each answered by text or text parts, with replies between. */
  const turns = Arbitrary.array(
    Arbitrary.all({
      input: Arbitrary.schema(Schema.String),
      output: Arbitrary.schema(Schema.Union([Schema.String, Schema.Array(Schema.String)])),
      reply: Arbitrary.schema(Schema.optional(Schema.String.check(Schema.isMinLength(1))))
    }),
    { minLength: 1, maxLength: 6 }
  )

  it.prop(
    "Responses -> customToolsAsCalls -> the Responses writer gives back the items read, for any custom tool traffic",
    [turns],
    ([ts]) => {
      const input: Array<Record<string, unknown>> = [{ role: "user", content: "start" }]
      ts.forEach((t, i) => {
        input.push({ type: "custom_tool_call", call_id: `call_${i}`, name: "apply_patch", input: t.input })
        input.push({
          type: "custom_tool_call_output",
          call_id: `call_${i}`,
          output: typeof t.output === "string" ? t.output : t.output.map((text) => ({ type: "input_text", text }))
        })
        if (t.reply !== undefined) input.push({ role: "assistant", content: t.reply })
      })
      const body = { model: "gpt-5", input, tools: [{ type: "custom", name: "apply_patch" }] }
      const request = OpenAiResponses.customToolsAsCalls(Effect.runSync(OpenAiResponses.fromRequest(body)).value)
      // every call became one, every output a result right after it
      expect(request.messages.flatMap((m) => m.content).filter((b) => b._tag === "ToolCall")).toHaveLength(ts.length)
      expect(Conversation.issuesFor("openai-chat", request.messages)).toEqual([])
      const written = Effect.runSync(OpenAiResponses.toRequest(request))
      expect(written.value).toEqual(body)
    },
    { timeout: 120_000, arbitrary: { runs: 200 } }
  )
})
