/**
 * Tool definitions, tool choice and the request fields beside them survive
 * every adapter both ways: ours -> provider -> ours is the identity for what
 * the provider expresses (each exception named in its test), and a
 * provider's own tools and tool choice, unknown fields and tools it runs
 * itself included, come back as they were sent.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Message, Request } from "../../src/index.js"
import { Anthropic, Conversion, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import * as Arb from "../arbitraries.js"
import * as Req from "../requestArbitraries.js"
import { normalize } from "./adapterHelpers.js"

const encode = Schema.encodeSync(Request.Request)
const run = <A>(effect: Effect.Effect<{ readonly value: A; readonly warnings: ReadonlyArray<unknown> }, unknown>) => Effect.runSync(effect)
const runs = { arbitrary: { runs: 500 }, timeout: 120_000 }

const pick = <A>(values: ReadonlyArray<A>): Arbitrary.Arbitrary<A> => Arb.intBetween(0, values.length - 1).pipe(Arbitrary.map((i) => values[i]!))
const maybe = <A>(arb: Arbitrary.Arbitrary<A>): Arbitrary.Arbitrary<A | undefined> =>
  Arb.bool.pipe(Arbitrary.flatMap((b) => (b ? arb : Arbitrary.Constant(undefined))))

// says "json": the OpenAI APIs reject JSON mode (a generated response format) in a request whose messages never do
const conversation = [Message.system("You are terse. Answer in JSON when asked for it."), Message.user("What's the weather in Oslo?")]

/** A request with generated tools, tool choice, parallel-calls setting and response format. */
const requestOf = (
  options: { readonly parallel?: boolean; readonly format?: boolean; readonly strict?: boolean; readonly choice?: (c: Request.ToolChoice | undefined) => boolean } = {}
): Arbitrary.Arbitrary<Request.Request> =>
  Arbitrary.all({ fixed: Req.fixedPart, parallel: maybe(Arb.bool), model: maybe(pick(["gpt-4o", "claude-sonnet-4-5", "gemini-2.5-pro"])) }).pipe(
    Arbitrary.map(({ fixed, model, parallel }) => {
      const tools = options.strict === false ? fixed.tools.map(({ strict: _, ...t }) => Request.tool(t.name, t)) : fixed.tools
      const choice = options.choice === undefined || options.choice(fixed.toolChoice) ? fixed.toolChoice : undefined
      return Request.make(conversation, {
        ...(model === undefined ? {} : { model }),
        ...(tools.length > 0 ? { tools } : {}),
        // a tool choice without tools is left out (and reported) by the writers, as the providers reject it
        ...(choice === undefined || tools.length === 0 ? {} : { toolChoice: choice }),
        ...(options.parallel === false || parallel === undefined || tools.length === 0 ? {} : { parallelToolCalls: parallel }),
        ...(options.format === false || fixed.responseFormat === undefined ? {} : { responseFormat: fixed.responseFormat }),
        ...(fixed.maxOutputTokens === undefined ? {} : { maxOutputTokens: fixed.maxOutputTokens })
      })
    })
  )

/** Tools each provider defines, as this library reads them. */
const providerTools: Record<"anthropic" | "openai-responses" | "gemini", ReadonlyArray<Request.ToolDefinition>> = {
  anthropic: [
    Request.providerTool("web_search", "anthropic", "web_search_20250305", { max_uses: 5 }),
    Request.providerTool("bash", "anthropic", "bash_20250124"),
    Request.providerTool("code_execution", "anthropic", "code_execution_20250825", { cache_control: { type: "ephemeral" } })
  ],
  "openai-responses": [
    Request.providerTool("web_search", "openai-responses", "web_search", { search_context_size: "low" }),
    Request.providerTool("file_search", "openai-responses", "file_search", { vector_store_ids: ["vs_1"] })
  ],
  gemini: [Request.providerTool("googleSearch", "gemini", "googleSearch", {}), Request.providerTool("codeExecution", "gemini", "codeExecution", {})]
}

/** A request whose tools have `extra` tools put in at generated places (names kept distinct). */
const withTools = (base: Arbitrary.Arbitrary<Request.Request>, extra: ReadonlyArray<Request.ToolDefinition>): Arbitrary.Arbitrary<Request.Request> =>
  Arbitrary.all({ request: base, picks: Arbitrary.array(Arbitrary.all([Arb.intBetween(0, extra.length - 1), Arb.intBetween(0, 5)]), { maxLength: 3 }) }).pipe(
    Arbitrary.map(({ picks, request }) => {
      const tools = [...(request.tools ?? [])]
      for (const [k, at] of picks) {
        const tool = extra[k]!
        if (!tools.some((t) => t.name === tool.name)) tools.splice(Math.min(at, tools.length), 0, tool)
      }
      if (tools.length === 0) return request
      const { messages, ...rest } = request
      return Request.make(messages, { ...rest, tools })
    })
  )

// ---------------------------------------------------------------------------
// wire-side generators
// ---------------------------------------------------------------------------

const extras = pick<Record<string, Schema.Json>>([{}, {}, { cache_control: { type: "ephemeral" } }, { x_vendor: { beta: true } }])

/** A Chat Completions function tool as sent, sometimes with a field the model does not type. */
const chatFunctionTool = Arbitrary.all({ tool: Req.toolDefinition, extra: extras, inner: pick<Record<string, Schema.Json>>([{}, {}, { examples: [{ city: "Oslo" }] }]) }).pipe(
  Arbitrary.map(({ extra, inner, tool }): Schema.Json => ({
    type: "function",
    ...extra,
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
      ...(tool.strict === undefined ? {} : { strict: tool.strict }),
      ...inner
    }
  }))
)

const chatCustomTool: Arbitrary.Arbitrary<Schema.Json> = pick<Schema.Json>([
  { type: "custom", custom: { name: "apply_patch", description: "Apply a unified diff" } },
  { type: "custom", custom: { name: "run_lark", format: { type: "grammar", grammar: { syntax: "lark", definition: "start: WORD" } } } }
])

const distinctByName = (tools: ReadonlyArray<Schema.Json>, nameOf: (t: Schema.Json) => unknown): Array<Schema.Json> => {
  const seen = new Set<unknown>()
  return tools.filter((t) => {
    const name = nameOf(t)
    if (seen.has(name)) return false
    seen.add(name)
    return true
  })
}

const chatName = (t: Schema.Json): unknown => {
  const o = t as { readonly function?: { readonly name?: unknown }; readonly custom?: { readonly name?: unknown } }
  return o.function?.name ?? o.custom?.name
}

/** A tool choice for these tools; a named one has the kind of the tool it names. */
const chatToolChoice = (tools: ReadonlyArray<Schema.Json>): Arbitrary.Arbitrary<Schema.Json | undefined> =>
  pick<Schema.Json | undefined>([
    undefined,
    "auto",
    "none",
    "required",
    ...tools.map((tool): Schema.Json => {
      const type = (tool as { readonly type: "function" | "custom" }).type
      return { type, [type]: { name: String(chatName(tool)) } }
    }),
    { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [] } }
  ])

const chatBody: Arbitrary.Arbitrary<Record<string, Schema.Json>> = Arbitrary.array(Arb.intBetween(0, 5).pipe(Arbitrary.flatMap((k) => (k === 0 ? chatCustomTool : chatFunctionTool))), { maxLength: 4 }).pipe(
  Arbitrary.flatMap((list) => {
    const tools = distinctByName(list, chatName)
    return Arbitrary.all({ choice: chatToolChoice(tools), parallel: maybe(Arb.bool), limit: pick<Record<string, Schema.Json>>([{}, { max_completion_tokens: 512 }, { max_tokens: 256 }, { max_completion_tokens: 512, max_tokens: 256 }]) }).pipe(
      Arbitrary.map(({ choice, limit, parallel }) => ({
        model: "gpt-4o",
        ...limit,
        messages: [{ role: "user", content: "What's the weather in Oslo?" }],
        ...(tools.length > 0 ? { tools } : {}),
        // the API rejects tool_choice without tools: such a body is not one to keep as it came
        ...(choice === undefined || tools.length === 0 ? {} : { tool_choice: choice }),
        ...(parallel === undefined || tools.length === 0 ? {} : { parallel_tool_calls: parallel })
      }))
    )
  })
)

// ---------------------------------------------------------------------------
// OpenAI Chat
// ---------------------------------------------------------------------------

describe("OpenAI Chat tools and tool choice", () => {
  it.prop("the model -> Chat Completions -> the model is the identity", [requestOf()], ([request]) => {
    const wire = run(OpenAiChat.toRequest(request))
    expect(wire.warnings).toEqual([])
    const back = run(OpenAiChat.fromRequest(JSON.parse(JSON.stringify(wire.value))))
    expect(encode(back.value)).toEqual(encode(request))
  }, runs)

  it.prop(
    "tools read from the deprecated functions list go back there, with every choice but required",
    [requestOf({ choice: (c) => c !== "required", parallel: false, format: false })],
    ([request]) => {
      const legacy = (request.tools ?? []).map((t) => Request.tool(t.name, { ...t, providerOptions: { "openai-chat": { type: "functions" } } }))
      const { messages: _, ...rest } = request
      const input = Request.make(request.messages, { ...rest, ...(legacy.length > 0 ? { tools: legacy } : {}) })
      const wire = run(OpenAiChat.toRequest(input))
      if (legacy.length > 0) expect(Object.keys(wire.value)).toContain("functions")
      const back = run(OpenAiChat.fromRequest(JSON.parse(JSON.stringify(wire.value))))
      expect(encode(back.value)).toEqual(encode(input))
    },
    runs
  )

  it.prop("Chat Completions tools and tool choice -> the model -> the same body, custom tools and unknown fields kept", [chatBody], ([body]) => {
    const ours = run(OpenAiChat.fromRequest(body))
    const back = run(OpenAiChat.toRequest(ours.value))
    expect(normalize(back.value)).toEqual(normalize(body))
  }, runs)
})

// ---------------------------------------------------------------------------
// Anthropic
// ---------------------------------------------------------------------------

/**
 * What Anthropic cannot tell apart: a tool without parameters is sent with
 * the empty object schema it requires; parallel calls allowed is its default
 * (written only beside a tool choice); "no parallel calls" without a tool
 * choice is written with `auto`, its default choice; and an output limit is
 * always sent, from the options when the request has none.
 */
const anthropicEquivalent = (request: Request.Request): Request.Request => {
  const { messages, parallelToolCalls, toolChoice, tools, ...rest } = request
  const filled = tools?.map((t) => (t.parameters === undefined && t.providerDefined === undefined ? Request.tool(t.name, { ...t, parameters: { type: "object", properties: {} } }) : t))
  const choice = toolChoice === undefined && parallelToolCalls === false ? "auto" : toolChoice
  // Anthropic's tool choice none takes no other field: the setting is left out (and reported)
  const keepParallel = toolChoice !== "none" && (parallelToolCalls === false || (parallelToolCalls === true && toolChoice !== undefined))
  return Request.make(messages, {
    ...rest,
    ...(filled === undefined ? {} : { tools: filled }),
    ...(choice === undefined ? {} : { toolChoice: choice }),
    ...(keepParallel ? { parallelToolCalls } : {}),
    // the API requires max_tokens: written from the options when the request has none
    maxOutputTokens: request.maxOutputTokens ?? 1024
  })
}

const anthropicServerTool: Arbitrary.Arbitrary<Schema.Json> = pick<Schema.Json>([
  { type: "web_search_20250305", name: "web_search", max_uses: 5 },
  { type: "bash_20250124", name: "bash" },
  { type: "text_editor_20250728", name: "str_replace_based_edit_tool", max_characters: 10000 },
  { type: "code_execution_20250825", name: "code_execution" }
])

const anthropicClientTool = Arbitrary.all({ tool: Req.toolDefinition, extra: extras }).pipe(
  Arbitrary.map(({ extra, tool }): Schema.Json => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    input_schema: tool.parameters ?? { type: "object", properties: {} },
    ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    ...extra
  }))
)

const anthropicBody: Arbitrary.Arbitrary<Record<string, Schema.Json>> = Arbitrary.array(Arb.intBetween(0, 4).pipe(Arbitrary.flatMap((k) => (k === 0 ? anthropicServerTool : anthropicClientTool))), { maxLength: 4 }).pipe(
  Arbitrary.flatMap((list) => {
    const tools = distinctByName(list, (t) => (t as { readonly name?: unknown }).name)
    const names = tools.map((t) => String((t as { readonly name?: unknown }).name))
    return Arbitrary.all({
      choice: pick<Schema.Json | undefined>([undefined, { type: "auto" }, { type: "any" }, { type: "none" }, ...names.map((name): Schema.Json => ({ type: "tool", name }))]),
      disable: maybe(Arb.bool)
    }).pipe(
      Arbitrary.map(({ choice, disable }) => ({
        model: "claude-sonnet-4-5",
        max_tokens: 1024,
        messages: [{ role: "user", content: "What's the weather in Oslo?" }],
        ...(tools.length > 0 ? { tools } : {}),
        // Anthropic's none takes no disable_parallel_tool_use, and no tool_choice goes without tools (the API rejects
        // both): such a body is not one to keep as it came
        ...(choice === undefined || tools.length === 0 ? {} : { tool_choice: disable === undefined || (choice as { readonly type?: unknown }).type === "none" ? choice : { ...(choice as object), disable_parallel_tool_use: disable } })
      }))
    )
  })
)

describe("Anthropic tools and tool choice", () => {
  it.prop("the model -> Anthropic -> the model is the identity, Anthropic's own tools in place, up to what Anthropic cannot tell apart", [withTools(requestOf({ format: false }), providerTools.anthropic)], ([request]) => {
    const wire = run(Anthropic.toRequest(request, { maxTokens: 1024 }))
    const noneWithParallel = request.toolChoice === "none" && request.parallelToolCalls === false
    expect(wire.warnings.map((w) => (w as { readonly _tag: string })._tag)).toEqual(noneWithParallel ? ["DroppedContent"] : [])
    const back = run(Anthropic.fromRequest(JSON.parse(JSON.stringify(wire.value))))
    const { providerOptions: _, ...read } = encode(back.value)
    expect(read).toEqual(encode(anthropicEquivalent(request)))
  }, runs)

  it.prop("Anthropic tools and tool choice -> the model -> the same body, server tools and cache_control kept in place", [anthropicBody], ([body]) => {
    const ours = run(Anthropic.fromRequest(body))
    const back = run(Anthropic.toRequest(ours.value))
    expect(normalize(back.value)).toEqual(normalize(body))
  }, runs)
})

// ---------------------------------------------------------------------------
// OpenAI Responses
// ---------------------------------------------------------------------------

const responsesHostedTool: Arbitrary.Arbitrary<Schema.Json> = pick<Schema.Json>([
  { type: "web_search", search_context_size: "medium" },
  { type: "file_search", vector_store_ids: ["vs_1"] },
  { type: "code_interpreter", container: { type: "auto" } },
  { type: "mcp", server_label: "deepwiki", server_url: "https://mcp.deepwiki.com/mcp", require_approval: "never" }
])

const responsesFunctionTool = Arbitrary.all({ tool: Req.toolDefinition }).pipe(
  Arbitrary.map(({ tool }): Schema.Json => ({
    type: "function",
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: tool.parameters ?? null,
    strict: tool.strict ?? null
  }))
)

const responsesBody: Arbitrary.Arbitrary<Record<string, Schema.Json>> = Arbitrary.array(Arb.intBetween(0, 3).pipe(Arbitrary.flatMap((k) => (k === 0 ? responsesHostedTool : responsesFunctionTool))), { maxLength: 4 }).pipe(
  Arbitrary.flatMap((list) => {
    const tools = distinctByName(list, (t) => (t as { readonly name?: unknown; readonly type?: unknown }).name ?? (t as { readonly type?: unknown }).type)
    const names = tools.flatMap((t) => ((t as { readonly type?: unknown }).type === "function" ? [String((t as { readonly name?: unknown }).name)] : []))
    return Arbitrary.all({
      choice: pick<Schema.Json | undefined>([undefined, "auto", "none", "required", { type: "web_search" }, ...names.map((name): Schema.Json => ({ type: "function", name }))]),
      parallel: maybe(Arb.bool),
      limit: maybe(Arb.intBetween(1, 4096))
    }).pipe(
      Arbitrary.map(({ choice, limit, parallel }) => ({
        model: "gpt-5",
        ...(limit === undefined ? {} : { max_output_tokens: limit }),
        input: [{ role: "user", content: "What's the weather in Oslo?" }],
        ...(tools.length > 0 ? { tools } : {}),
        // the API rejects a choice that makes the model call a tool without tools: such a body is not one to keep as it came
        ...(choice === undefined || (tools.length === 0 && choice !== "auto" && choice !== "none") ? {} : { tool_choice: choice }),
        ...(parallel === undefined || tools.length === 0 ? {} : { parallel_tool_calls: parallel })
      }))
    )
  })
)

describe("OpenAI Responses tools and tool choice", () => {
  it.prop("the model -> Responses -> the model is the identity, hosted tools in place", [withTools(requestOf(), providerTools["openai-responses"])], ([request]) => {
    const wire = run(OpenAiResponses.toRequest(request))
    expect(wire.warnings).toEqual([])
    const back = run(OpenAiResponses.fromRequest(JSON.parse(JSON.stringify(wire.value))))
    // strict: false goes out as false, which reads back as unset: the same, not strict (unset goes out as false too)
    const unsetFalse = request.tools === undefined ? request : Request.make(request.messages, {
      ...request,
      tools: request.tools.map((t) => (t.strict === false ? Request.tool(t.name, (({ strict: _, ...rest }) => rest)(t)) : t))
    })
    expect(encode(back.value)).toEqual(encode(unsetFalse))
  }, runs)

  it.prop("Responses tools and tool choice -> the model -> the same body, hosted tools kept in their place", [responsesBody], ([body]) => {
    const ours = run(OpenAiResponses.fromRequest(body))
    const back = run(OpenAiResponses.toRequest(ours.value))
    expect(normalize(back.value)).toEqual(normalize(body))
  }, runs)
})

// ---------------------------------------------------------------------------
// Gemini
// ---------------------------------------------------------------------------

/** Gemini has no strict flag and no parallel-calls setting (both are reported when dropped), and names no response schema. */
const geminiRequest = requestOf({ parallel: false, strict: false }).pipe(
  Arbitrary.map((request) => {
    const format = request.responseFormat
    if (format === undefined || format._tag !== "JsonSchema") return request
    const { messages, ...rest } = request
    return Request.make(messages, { ...rest, responseFormat: { _tag: "JsonSchema", name: "response", schema: format.schema } })
  })
)

const geminiHostedTool: Arbitrary.Arbitrary<Schema.Json> = pick<Schema.Json>([{ googleSearch: {} }, { codeExecution: {} }, { urlContext: {} }])

const geminiDeclaration = Arbitrary.all({ tool: Req.toolDefinition }).pipe(
  Arbitrary.map(({ tool }): Schema.Json => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(tool.parameters === undefined ? {} : { parametersJsonSchema: tool.parameters })
  }))
)

const geminiBody: Arbitrary.Arbitrary<Record<string, Schema.Json>> = Arbitrary.all({
  declarations: Arbitrary.array(geminiDeclaration, { maxLength: 3 }),
  hosted: Arbitrary.array(geminiHostedTool, { maxLength: 2 }),
  hostedFirst: Arb.bool
}).pipe(
  Arbitrary.flatMap(({ declarations, hosted, hostedFirst }) => {
    const unique = distinctByName(declarations, (d) => (d as { readonly name?: unknown }).name)
    const names = unique.map((d) => String((d as { readonly name?: unknown }).name))
    const entries: Array<Schema.Json> = unique.length > 0 ? [{ functionDeclarations: unique }] : []
    const tools = hostedFirst ? [...hosted, ...entries] : [...entries, ...hosted]
    return pick<Schema.Json | undefined>([
      undefined,
      { functionCallingConfig: { mode: "AUTO" } },
      { functionCallingConfig: { mode: "ANY" } },
      { functionCallingConfig: { mode: "NONE" } },
      ...names.map((name): Schema.Json => ({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: [name] } }))
    ]).pipe(
      Arbitrary.map((toolConfig) => ({
        ...(hostedFirst ? { generationConfig: { maxOutputTokens: 2048, temperature: 0 } } : {}),
        contents: [{ role: "user", parts: [{ text: "What's the weather in Oslo?" }] }],
        ...(tools.length > 0 ? { tools } : {}),
        ...(toolConfig === undefined ? {} : { toolConfig })
      }))
    )
  })
)

/**
 * One entry of a Gemini `tools` list: a tool Gemini runs, a declarations list (empty or not), or a null list, each
 * in either spelling of proto3 JSON.
 */
type GeminiToolEntry = readonly ["hosted", string] | readonly ["declarations", string, number] | readonly ["null", string]

const geminiToolEntry: Arbitrary.Arbitrary<GeminiToolEntry> = pick<GeminiToolEntry>([
  ...["googleSearch", "google_search", "codeExecution", "code_execution", "urlContext", "url_context"].map((name) => ["hosted", name] as const),
  ...["functionDeclarations", "function_declarations"].flatMap((name) => [0, 1, 2].map((n) => ["declarations", name, n] as const)),
  ["null", "functionDeclarations"],
  ["null", "function_declarations"]
])

/** A `tools` list of such entries, each declaration named apart. */
const geminiToolEntries: Arbitrary.Arbitrary<Array<Schema.Json>> = Arbitrary.array(geminiToolEntry, { maxLength: 6 }).pipe(
  Arbitrary.map((entries) => {
    let named = 0
    return entries.map((entry): Schema.Json => {
      switch (entry[0]) {
        case "hosted":
          return { [entry[1]]: {} }
        case "null":
          return { [entry[1]]: null }
        case "declarations":
          return { [entry[1]]: Array.from({ length: entry[2] }, () => ({ name: `f${named++}`, ...(named % 2 === 0 ? { description: "d" } : {}) })) }
      }
    })
  })
)

describe("Gemini tools and tool choice", () => {
  it.prop("the model -> Gemini -> the model is the identity for what Gemini carries, its own tools in place", [withTools(geminiRequest, providerTools.gemini)], ([request]) => {
    const wire = run(Gemini.toRequest(request))
    // (a JSON response beside function declarations is written as asked, and said for a model before Gemini 3)
    expect(wire.warnings.filter((w) => !(w instanceof Conversion.RejectedSetting && w.path === "generationConfig.responseMimeType"))).toEqual([])
    const back = run(Gemini.fromRequest(JSON.parse(JSON.stringify(wire.value))))
    // the model id is part of Gemini's URL, not its body
    const { model: _, ...expected } = encode(request)
    expect(encode(back.value)).toEqual(expected)
  }, runs)

  it.prop("Gemini tools and tool config -> the model -> the same body, other tools kept in their place", [geminiBody], ([body]) => {
    const ours = run(Gemini.fromRequest(body))
    const back = run(Gemini.toRequest(ours.value))
    expect(normalize(back.value)).toEqual(normalize(body))
  }, runs)

  it.prop(
    "any list of tool entries (tools Gemini runs, declarations lists empty or not, null lists, either spelling) comes back as sent",
    [geminiToolEntries],
    ([tools]) => {
      const ours = run(Gemini.fromRequest({ contents: [{ role: "user", parts: [{ text: "hi" }] }], tools }))
      expect(run(Gemini.toRequest(ours.value, { spelling: "asRead" })).value.tools).toEqual(tools)
      // in lowerCamelCase, a declarations list the adapter read is named functionDeclarations; everything else is as sent
      const camel = tools.map((entry) => {
        const list = (entry as { readonly function_declarations?: unknown }).function_declarations
        return Array.isArray(list) ? { functionDeclarations: list } : entry
      })
      expect(run(Gemini.toRequest(ours.value)).value.tools).toEqual(camel)
    },
    runs
  )
})

// ---------------------------------------------------------------------------
// effect/ai
// ---------------------------------------------------------------------------

describe("effect/ai Toolkit and tool choice", () => {
  it.prop("tool definitions -> Toolkit -> tool definitions is the identity", [Req.toolDefinitions], ([tools]) => {
    const toolkit = EffectAi.toToolkit(tools)
    expect(toolkit.warnings).toEqual([])
    const back = EffectAi.fromToolkit(toolkit.value)
    expect(back.warnings).toEqual([])
    assert.deepStrictEqual(back.value.map((t) => Schema.encodeSync(Request.ToolDefinition)(t)), tools.map((t) => Schema.encodeSync(Request.ToolDefinition)(t)))
  }, runs)

  it.prop("tool choice -> effect/ai -> tool choice is the identity", [Req.toolDefinitions.pipe(Arbitrary.flatMap(Req.toolChoiceFor))], ([choice]) => {
    if (choice === undefined) return
    const back = EffectAi.fromToolChoice(EffectAi.toToolChoice(choice))
    expect(back).toEqual({ value: choice, warnings: [] })
  }, runs)
})

// ---------------------------------------------------------------------------
// across providers
// ---------------------------------------------------------------------------

describe("tools a provider defines, written for another", () => {
  const everyProviderTool = [...providerTools.anthropic, ...providerTools["openai-responses"], ...providerTools.gemini].filter(
    (t, i, all) => all.findIndex((u) => u.name === t.name) === i
  )
  const writers = {
    "openai-chat": (r: Request.Request) => run(OpenAiChat.toRequest(r)),
    anthropic: (r: Request.Request) => run(Anthropic.toRequest(r)),
    "openai-responses": (r: Request.Request) => run(OpenAiResponses.toRequest(r)),
    gemini: (r: Request.Request) => run(Gemini.toRequest(r))
  } as const

  for (const [format, write] of Object.entries(writers)) {
    it.prop(`${format}: each tool another provider defines is reported as dropped, and nothing else is`, [withTools(requestOf({ parallel: false, strict: false, format: false }), everyProviderTool)], ([request]) => {
      const foreign = (request.tools ?? []).filter((t) => t.providerDefined !== undefined && t.providerDefined.provider !== format)
      const { warnings } = write(request)
      const dropped = warnings.filter((w) => (w as { readonly _tag: string })._tag === "DroppedContent" && String((w as { readonly what?: unknown }).what).startsWith("the definition of"))
      expect(dropped.length).toBe(foreign.length)
    }, { arbitrary: { runs: 300 }, timeout: 120_000 })
  }
})
