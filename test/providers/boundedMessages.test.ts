/**
 * Every warning and error message of the adapters and of Repair is bounded and
 * well-formed, whatever the user's names, ids, keys and media types hold: a
 * 100,000-character tool name gives a short message, and a lone surrogate in
 * it never reaches the message as one.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair, Request } from "../../src/index.js"
import { Anthropic, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import { hasLoneSurrogate } from "../../src/internal/surrogates.js"
import { quote } from "../../src/internal/preview.js"

/** The longest message allowed: a few names and reasons, never the user's whole text. */
const BOUND = 2_000
const LONG = 100_000

const SHAPES = ["long", "lone", "longLone", "pairs", "lowFirst"] as const

/** User text of the shapes that broke messages: very long, with lone surrogates, with pairs at every cut. */
const textOf = (shape: (typeof SHAPES)[number], extra: string): string => {
  switch (shape) {
    case "long":
      return `${extra}${"x".repeat(LONG)}`
    case "lone":
      return `a\ud800${extra}\udc00b`
    case "longLone":
      return `${"ab\ud800".repeat(LONG / 3)}${extra}`
    case "pairs":
      return `${"😀".repeat(LONG / 2)}${extra}`
    case "lowFirst":
      return `\udc00${extra}${"y".repeat(LONG)}\ud800`
  }
}

/** The shape of the user text and a few characters to vary it (the text is built in the property, so a failure prints short). */
const userText = Arbitrary.all([
  Arbitrary.schema(Schema.Literals(SHAPES)),
  Arbitrary.array(Arbitrary.schema(Schema.Literals(["a", "😀", "\ud800", "\udc00", "é", '"'])), { maxLength: 6 }).pipe(Arbitrary.map((cs) => cs.join("")))
])

/** A wire body of the reader's input type: these break its types on purpose. */
const wire = <A>(body: unknown): A => body as A

type Result = { readonly _tag: "Success"; readonly success: { readonly warnings: ReadonlyArray<{ readonly message: string }> } } | { readonly _tag: "Failure"; readonly failure: unknown }

/** The messages of a conversion: its warnings, or its error. */
const messagesOf = (effect: Effect.Effect<{ readonly warnings: ReadonlyArray<{ readonly message: string }> }, unknown>): Array<string> => {
  const out = Effect.runSync(Effect.result(effect)) as Result
  if (out._tag === "Success") return out.success.warnings.map((w) => w.message)
  const failure = out.failure
  return [typeof failure === "object" && failure !== null && "message" in failure ? String(failure.message) : String(failure)]
}

/** A conversation that puts the text in every name, id, key, media type and URL a writer or Repair may quote. */
const conversation = (t: string): Array<Message.Message> => [
  Message.system(`s${t}`.slice(0, 10), { name: t }),
  Message.user(
    [
      Block.text("look", { itemId: t }),
      Block.file(Block.url(`https://example.com/${t}`), `application/${t}`),
      Block.file(Block.fileId(t), "image/png"),
      Block.file(Block.url(`https://example.com/${t}.png`), t),
      Block.file(Block.textSource("x"), t, { filename: t, title: t })
    ],
    { name: t }
  ),
  Message.assistant(
    [
      Block.thinking("thought", t, { itemId: t }),
      Block.text("calling", { itemId: t }),
      Block.toolCall(t, t, {}, { providerExecuted: true, itemId: t }),
      Block.toolResult(t, t, "ran", false, { providerExecuted: true }),
      Block.toolCall(`c${t}`, `n${t}`, {}, { rawArgs: `{bad ${t}`, parseError: t, itemId: `fc_${t}` }),
      Block.toolCall(`d${t}`, `${t}.x`, { [t]: t }, { itemId: t }),
      Block.providerData(t, { [t]: t, type: t })
    ],
    { providerOptions: { [t]: { [t]: t } } }
  ),
  Message.tool([Block.toolResult(`c${t}`, `n${t}`, [Block.json({ [t]: t })]), Block.toolResult(`c${t}`, `n${t}`, "again"), Block.toolResult(`e${t}`, t, "orphan")]),
  Message.assistant([Block.toolCall(`f${t}`, t, {})]),
  Message.user("next")
]

const request = (t: string): Request.Request =>
  Request.make(conversation(t), {
    model: t,
    tools: [Request.tool(t, { strict: true, description: t, parameters: { type: "object", properties: { [t]: { type: t } } } }), Request.providerTool(`p${t}`, t, t, { [t]: t })],
    toolChoice: { _tag: "Tool", name: `q${t}` },
    responseFormat: { _tag: "JsonSchema", name: t, schema: { type: "object" } },
    providerOptions: { [t]: { [t]: t }, anthropic: { [t]: t }, openai: { [t]: t }, gemini: { [t]: t } }
  })

/** Every adapter's writers, both lenient and strict. */
const written = (t: string): Array<string> => {
  const out: Array<string> = []
  const r = request(t)
  for (const strict of [false, true]) {
    out.push(...messagesOf(OpenAiChat.toRequest(r, { strict })))
    out.push(...messagesOf(OpenAiResponses.toRequest(r, { strict })))
    out.push(...messagesOf(Anthropic.toRequest(r, { strict, maxTokens: 1024 })))
    out.push(...messagesOf(Gemini.toRequest(r, { strict })))
    out.push(...messagesOf(EffectAi.toPrompt(r.messages, { strict })))
  }
  return out
}

/** Wire bodies that put the text where the readers read a role, a type, an id, a name or a key. */
const read = (t: string): Array<string> => {
  const out: Array<string> = []
  const args = `{${t}`
  for (const strict of [false, true]) {
    const options = { strict, toolArguments: strict ? ("strict" as const) : ("lenient" as const) }
    out.push(
      ...messagesOf(
        OpenAiChat.fromRequest(
          {
            model: t,
            [t]: t,
            messages: [
              { role: "user", content: [{ type: "text", text: "x", [t]: t }, { type: t }], name: t, [t]: 1 },
              { role: "assistant", content: null, tool_calls: [{ id: t, type: "function", function: { name: t, arguments: args } }, { id: `b${t}`, type: t }] },
              { role: "tool", tool_call_id: t, content: [{ type: t }] },
              { role: t, content: "x" }
            ],
            tools: [{ type: "function", function: { name: t, [t]: 1 } }, { type: t }],
            tool_choice: { type: "function", function: { name: t } }
          },
          options
        )
      )
    )
    out.push(
      ...messagesOf(
        OpenAiChat.fromResponse(
          wire({ id: t, object: t, choices: [{ index: 0, finish_reason: t, message: { role: t, content: "x", [t]: t, tool_calls: [{ id: t, type: t, function: { name: t, arguments: args } }] } }], [t]: 1 }),
          options
        )
      )
    )
    out.push(
      ...messagesOf(
        OpenAiResponses.fromRequest(
          {
            model: t,
            [t]: t,
            input: [
              { type: t, id: t },
              { role: t, content: "x" },
              { role: "user", content: [{ type: t }, { type: "input_text", text: "x", [t]: t }] },
              { type: "function_call", id: t, call_id: t, name: t, arguments: args, [t]: t },
              { type: "function_call_output", call_id: `z${t}`, output: "x" },
              { type: "function_call_output", call_id: t, output: [{ type: t }] },
              { type: "reasoning", id: t, summary: [{ type: t }] }
            ],
            tools: [{ type: "function", name: t, [t]: 1 }, { type: t }],
            tool_choice: { type: "function", name: t }
          },
          options
        )
      )
    )
    out.push(
      ...messagesOf(
        OpenAiResponses.fromResponse(
          {
            id: t,
            status: t,
            [t]: 1,
            output: [
              { type: t, id: t },
              { type: "message", id: t, role: t, content: [{ type: t }, { type: "output_text", text: "x", [t]: t }] },
              { type: "function_call", id: t, call_id: t, name: t, arguments: args }
            ],
            incomplete_details: { reason: t }
          },
          options
        )
      )
    )
    out.push(
      ...messagesOf(
        Anthropic.fromRequest(
          {
            model: t,
            max_tokens: 10,
            [t]: t,
            system: [{ type: t }, { type: "text", text: "s", [t]: t }],
            messages: [
              { role: "user", content: [{ type: t }, { type: "image", source: { type: t, media_type: t } }], [t]: 1 },
              { role: "assistant", content: [{ type: "tool_use", id: t, name: t, input: t }, { type: "server_tool_use", id: `s${t}`, name: t, input: {} }] },
              { role: "user", content: [{ type: "tool_result", tool_use_id: `z${t}`, content: [{ type: t }] }] },
              { role: t, content: "x" }
            ],
            tools: [{ name: t, input_schema: { type: "object" }, [t]: 1 }, { type: t, name: t }],
            tool_choice: { type: "tool", name: t }
          },
          options
        )
      )
    )
    out.push(
      ...messagesOf(
        Anthropic.fromResponse(
          wire({
            id: t,
            type: "message",
            role: t,
            [t]: 1,
            stop_reason: t,
            content: [{ type: t }, { type: "tool_use", id: t, name: t, input: t }, { type: "text", text: "x", [t]: t }]
          }),
          options
        )
      )
    )
    out.push(
      ...messagesOf(
        Gemini.fromRequest(
          {
            [t]: t,
            systemInstruction: { parts: [{ [t]: t }] },
            contents: [
              { role: t, parts: [{ text: "x" }] },
              { role: "user", parts: [{ [t]: t }, { inlineData: { mimeType: t, data: "AAAA" } }, { fileData: { mimeType: t, fileUri: t } }] },
              { role: "model", parts: [{ functionCall: { id: t, name: t, args: t } }, { functionCall: { name: `${t}!`, args: {} } }] },
              { role: "user", parts: [{ functionResponse: { id: `z${t}`, name: t, response: t } }] }
            ],
            tools: [{ functionDeclarations: [{ name: t, [t]: 1 }] }, { [t]: {} }],
            toolConfig: { functionCallingConfig: { mode: t, allowedFunctionNames: [t] } }
          },
          options
        )
      )
    )
    out.push(
      ...messagesOf(
        Gemini.fromResponse(
          {
            [t]: 1,
            responseId: t,
            candidates: [{ index: 0, finishReason: t, [t]: t, content: { role: t, parts: [{ [t]: t }, { functionCall: { id: t, name: t, args: t } }, { text: "x", [t]: t }] } }]
          },
          options
        )
      )
    )
  }
  return out
}

/** Stream events that put the text where the stream readers read a type, an id, a name or an error. */
const streamed = (t: string): Array<string> => {
  const args = `{${t}`
  const error = { type: t, code: t, message: t }
  const runs: Array<Effect.Effect<{ readonly warnings: ReadonlyArray<{ readonly message: string }> }, unknown>> = [
    OpenAiChat.fromEvents(
      wire([
        { id: t, object: t, choices: [{ index: 0, delta: { role: t, [t]: t, tool_calls: [{ index: 0, id: t, type: t, function: { name: t, arguments: args } }] }, finish_reason: null }] },
        { id: t, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: `z${t}`, function: { name: `z${t}` } }] }, finish_reason: t }] }
      ])
    ),
    OpenAiChat.fromEvents(wire([{ id: t, choices: [{ index: 0, delta: { content: "x" }, finish_reason: null }] }, { error }])),
    OpenAiChat.fromEvents(wire([{ id: t, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: t, function: { name: t, arguments: args } }] }, finish_reason: null }] }])),
    Anthropic.fromEvents(
      wire([
        { type: "message_start", message: { id: t, type: "message", role: t, model: t, content: [], [t]: t } },
        { type: "content_block_start", index: 0, content_block: { type: t, id: t, name: t } },
        { type: "content_block_delta", index: 0, delta: { type: t } },
        { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: t, name: t, input: {} } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: args } },
        { type: t }
      ])
    ),
    Anthropic.fromEvents(wire([{ type: "message_start", message: { id: t, role: "assistant", content: [] } }, { type: "error", error }])),
    OpenAiResponses.fromEvents(
      wire([
        { type: "response.created", response: { id: t, status: t, output: [] } },
        { type: "response.output_item.added", output_index: 0, item: { type: t, id: t } },
        { type: "response.output_text.delta", output_index: 0, item_id: `z${t}`, content_index: 0, delta: "x" },
        { type: "response.output_item.added", output_index: 1, item: { type: "function_call", id: t, call_id: t, name: t, arguments: "" } },
        { type: "response.function_call_arguments.delta", output_index: 1, item_id: `y${t}`, delta: args },
        { type: t }
      ])
    ),
    OpenAiResponses.fromEvents(wire([{ type: "response.created", response: { id: t, output: [] } }, { type: "error", code: t, message: t }])),
    OpenAiResponses.fromEvents(wire([{ type: "response.created", response: { id: t, output: [] } }, { type: "response.failed", response: { id: t, status: "failed", error, output: [] } }])),
    Gemini.fromEvents(
      wire([
        { responseId: t, candidates: [{ index: 0, content: { role: t, parts: [{ functionCall: { name: t, id: t, args: {} } }, { [t]: t }] } }] },
        { candidates: [{ index: 0, content: { parts: [{ functionCall: { name: `z${t}`, id: `y${t}`, args: {} } }] }, finishReason: t }] }
      ])
    ),
    Gemini.fromEvents(wire([{ candidates: [{ index: 0, content: { parts: [{ text: "x" }] } }] }, { error: { code: 500, status: t, message: t } }]))
  ]
  return runs.flatMap(messagesOf)
}

/** Repair, generic and for every provider. */
const repaired = (t: string): Array<string> => {
  const messages = conversation(t)
  const out = Repair.repair(messages).actions.map((a) => a.description)
  for (const provider of ["openai-chat", "openai-responses", "anthropic", "gemini"] as const) {
    const result = Effect.runSync(Effect.result(Repair.repairFor(provider)(messages)))
    if (result._tag === "Success") out.push(...result.success.actions.map((a) => a.description))
    else out.push(result.failure.message)
  }
  return out
}

/** Decoding and validation: the issues that quote the user's keys, roles, paths and ids. */
const validated = (t: string): Array<string> => {
  const out: Array<string> = []
  for (const raw of [{ role: t, content: "x" }, { role: "user", content: "x", [t]: 1 }, { role: "assistant", content: [{ _tag: "ToolCall", id: "c1", name: "n", args: {}, [t]: 1 }] }]) {
    const result = Effect.runSync(Effect.result(Message.decode(raw, 0)))
    if (result._tag === "Failure") out.push(result.failure.message)
  }
  const decoded = Effect.runSync(Effect.result(Message.decodeAll([{ role: "user", content: "x", [t]: 1 }])))
  if (decoded._tag === "Failure") out.push(decoded.failure.message)
  const messages = [...conversation(t), Message.assistant([Block.toolCall("g1", "n", { [t]: t })])]
  out.push(...Conversation.issuesOf(messages).map((i) => i.message))
  for (const provider of ["openai-chat", "openai-responses", "anthropic", "gemini"] as const) out.push(...Conversation.issuesFor(provider, messages).map((i) => i.message))
  return out
}

const check = (messages: ReadonlyArray<string>): void => {
  assert.isAbove(messages.length, 0)
  for (const m of messages) {
    assert.isBelow(m.length, BOUND, `a message of ${m.length} characters: ${m.slice(0, 300)}`)
    assert.isFalse(hasLoneSurrogate(m), `a lone surrogate in ${JSON.stringify(m.slice(0, 300))}`)
  }
}

describe("bounded messages", () => {
  it("quote writes short well-formed text as JSON.stringify does, and cuts long text inside the quotes", () => {
    for (const s of ["", "search", 'a "b"', "a\nb", "😀", "a\ud800b", "x".repeat(80)]) assert.strictEqual(quote(s), JSON.stringify(s))
    assert.strictEqual(quote("x".repeat(81)), JSON.stringify(`${"x".repeat(80)}…`))
    assert.strictEqual(quote(`${"x".repeat(79)}😀`), JSON.stringify(`${"x".repeat(79)}…`))
    assert.isFalse(hasLoneSurrogate(quote(`${"x".repeat(79)}\ud800${"y".repeat(LONG)}`)))
  })

  it.prop("every writer's warnings and errors are bounded and well-formed", [userText], ([[shape, extra]]) => check(written(textOf(shape, extra))), { timeout: 120_000, arbitrary: { runs: 15 } })

  it.prop("every reader's warnings and errors are bounded and well-formed", [userText], ([[shape, extra]]) => check(read(textOf(shape, extra))), { timeout: 120_000, arbitrary: { runs: 15 } })

  it.prop("every stream reader's warnings and errors are bounded and well-formed", [userText], ([[shape, extra]]) => check(streamed(textOf(shape, extra))), { timeout: 120_000, arbitrary: { runs: 15 } })

  it.prop("every decode error's and validation issue's message is bounded and well-formed", [userText], ([[shape, extra]]) => check(validated(textOf(shape, extra))), { timeout: 120_000, arbitrary: { runs: 15 } })

  it.prop("every repair action's message is bounded and well-formed", [userText], ([[shape, extra]]) => check(repaired(textOf(shape, extra))), { timeout: 120_000, arbitrary: { runs: 15 } })
})
