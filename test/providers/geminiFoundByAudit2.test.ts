/**
 * Defects an audit of the Gemini adapter found, each pinned by the case that showed it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Block, Conversation, Message, Repair, Request } from "../../src/index.js"
import { Anthropic, Gemini } from "../../src/providers/index.js"

const model = "gemini-3-flash-preview"
const value = <A, E>(effect: Effect.Effect<A, E>): A => Effect.runSync(effect)
const failure = <A, E>(effect: Effect.Effect<A, E>): E => {
  const exit = Effect.runSyncExit(Effect.flip(effect))
  if (!Exit.isSuccess(exit)) throw new Error("expected a failure")
  return exit.value
}

describe("Gemini 3 signatures and calls the provider ran", () => {
  // a model turn that ran code, then called a function: only the function call is a call of the step
  const body = (signed: "call" | "code") => ({
    contents: [
      { role: "user", parts: [{ text: "compute then look up" }] },
      {
        role: "model",
        parts: [
          { executableCode: { language: "PYTHON", code: "print(6*7)" }, ...(signed === "code" ? { thoughtSignature: "c2ln" } : {}) },
          { codeExecutionResult: { outcome: "OUTCOME_OK", output: "42\n" } },
          { functionCall: { name: "lookup", args: { n: 42 } }, ...(signed === "call" ? { thoughtSignature: "c2ln" } : {}) }
        ]
      },
      { role: "user", parts: [{ functionResponse: { name: "lookup", response: { output: "the answer" } } }] }
    ]
  })

  it("a signed function call after code execution is valid, and the repair leaves it alone", () => {
    const request = value(Gemini.fromRequest(body("call"))).value
    expect(Exit.isSuccess(Effect.runSyncExit(Conversation.validateFor("gemini", { model })(request.messages)))).toBe(true)
    expect(value(Repair.repairFor("gemini", { model })(request.messages)).actions).toEqual([])
  })

  it("an unsigned function call after signed code is reported, and the repair signs the call that is sent", () => {
    const request = value(Gemini.fromRequest(body("code"))).value
    expect(failure(Conversation.validateFor("gemini", { model })(request.messages))).toMatchObject({ _tag: "MissingThoughtSignature", index: 1, blockIndex: 2 })
    const repaired = value(Repair.repairFor("gemini", { model })(request.messages))
    expect(repaired.actions.map((a) => a._tag)).toEqual(["AddedThoughtSignature"])
    const wire = value(Gemini.toRequest({ ...request, messages: repaired.messages })).value
    expect(wire.contents[1]!.parts[2]).toMatchObject({ functionCall: { name: "lookup" }, thoughtSignature: Repair.GEMINI_SKIP_SIGNATURE })
  })

  it("another provider's server tool before the call: the repair signs the call the writer sends", () => {
    const messages = [
      Message.user("search then look up"),
      Message.assistant([
        Block.toolCall("srvtoolu_1", "web_search", { query: "x" }, { providerExecuted: true }),
        Block.toolResult("srvtoolu_1", "web_search", [Block.json([{ url: "https://a" }])], false, { providerExecuted: true }),
        Block.toolCall("toolu_2", "lookup", { n: 1 })
      ]),
      Message.tool([Block.toolResult("toolu_2", "lookup", "ok")])
    ]
    const repaired = value(Repair.repairFor("gemini", { model })(messages))
    const wire = value(Gemini.toMessages(repaired.messages)).value
    expect(wire.contents[1]!.parts).toEqual([{ functionCall: { name: "lookup", args: { n: 1 }, id: "toolu_2" }, thoughtSignature: Repair.GEMINI_SKIP_SIGNATURE }])
  })
})

describe("a file by another provider's id, which the Gemini writer leaves out", () => {
  const file = Block.file(Block.fileId("file-abc123"), "application/pdf")

  it("is UnsupportedMediaType with its source, so a message of nothing else cannot move the current turn unseen", () => {
    const messages = [
      Message.user("Summarise the report"),
      Message.assistant([Block.toolCall("call_1", "fetch_report", { id: 7 })]),
      Message.tool([Block.toolResult("call_1", "fetch_report", "report text")]),
      Message.user([file])
    ]
    const issue = failure(Conversation.validateFor("gemini", { model })(messages))
    expect(issue).toMatchObject({ _tag: "UnsupportedMediaType", index: 3, blockIndex: 0, source: "fileId", supported: [] })
    expect(issue.message).toBe("messages[3]: content[0]: gemini does not take application/pdf files by file id (it takes them as inline data or by URI)")
    // the file is the user's content: the repair says so rather than guess
    expect(failure(Repair.repairFor("gemini", { model })(messages))._tag).toBe("CannotRepair")
  })

  it("is reported before a first user message of nothing else would leave a call turn first", () => {
    const messages = [Message.user([file]), Message.assistant([Block.toolCall("c", "f", {})]), Message.tool([Block.toolResult("c", "f", "ok")])]
    expect(failure(Conversation.validateFor("gemini")(messages))).toMatchObject({ _tag: "UnsupportedMediaType", index: 0, source: "fileId" })
  })
})

describe("Gemini reading and writing", () => {
  it("keeps a system instruction part's thought flag", () => {
    for (const thought of [true, false]) {
      const body = { systemInstruction: { parts: [{ text: "a", thought }] }, contents: [{ role: "user", parts: [{ text: "hi" }] }] }
      const read = value(Gemini.fromRequest(body))
      expect(read.warnings).toEqual([])
      expect(value(Gemini.toRequest(read.value)).value.systemInstruction).toEqual({ parts: [{ text: "a", thought }] })
    }
  })

  it("a function named code_execution pairs with its own response, not with the code's result", () => {
    const body = {
      contents: [
        { role: "user", parts: [{ text: "go" }] },
        {
          role: "model",
          parts: [
            { functionCall: { name: "code_execution", args: {} } },
            { executableCode: { language: "PYTHON", code: "1" } },
            { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1" } }
          ]
        },
        { role: "user", parts: [{ functionResponse: { name: "code_execution", response: { output: "done" } } }] }
      ]
    }
    const request = value(Gemini.fromRequest(body)).value
    const [call, code, result] = request.messages[1]!.content as ReadonlyArray<Block.Block>
    if (call?._tag !== "ToolCall" || code?._tag !== "ToolCall" || result?._tag !== "ToolResult") throw new Error("expected a call, code and its result")
    expect(result.toolCallId).toBe(code.id)
    const answer = request.messages[2]!.content[0]!
    expect(answer._tag === "ToolResult" && answer.toolCallId).toBe(call.id)
    expect(Exit.isSuccess(Effect.runSyncExit(Conversation.validateFor("gemini")(request.messages)))).toBe(true)
    expect(value(Gemini.toRequest(request)).value).toEqual(body)
  })

  it("an error result without text still says it failed: response.error, empty", () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    for (const content of [[], [Block.file(Block.base64(png), "image/png")]]) {
      const written = value(Gemini.toMessages([
        Message.user("run it"),
        Message.assistant([Block.toolCall("c1", "screenshot", {})]),
        Message.tool([Block.toolResult("c1", "screenshot", content, true)])
      ]))
      expect(written.warnings).toEqual([])
      expect(written.value.contents[2]!.parts[0]!.functionResponse!.response).toEqual({ error: "" })
      // read back, it is an error result again
      const back = value(Gemini.fromMessages(written.value)).value[2]!.content[0]!
      expect(back._tag === "ToolResult" && back.isError).toBe(true)
    }
    // an Anthropic error result without content, carried to Gemini
    const anthropic = value(Anthropic.fromRequest({
      model: "claude-sonnet-4-5",
      max_tokens: 10,
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "screenshot", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", is_error: true }] }
      ]
    })).value
    expect(value(Gemini.toRequest(anthropic)).value.contents[2]!.parts[0]!.functionResponse!.response).toEqual({ error: "" })
  })

  it("a second system message's own fields join the instruction, or are reported when it has its own", () => {
    const read = value(Gemini.fromMessages({ systemInstruction: { role: "user", parts: [{ text: "read" }], cacheHint: "x" }, contents: [{ role: "user", parts: [{ text: "hi" }] }] })).value
    const joined = value(Gemini.toMessages([Message.system("added first"), ...read]))
    expect(joined.value.systemInstruction).toEqual({ parts: [{ text: "added first" }, { text: "read" }], role: "user", cacheHint: "x" })
    expect(joined.warnings).toEqual([])
    const clash = value(Gemini.toMessages([read[0]!, ...value(Gemini.fromMessages({ systemInstruction: { parts: [{ text: "b" }], cacheHint: "y" }, contents: [] })).value]))
    expect(clash.value.systemInstruction).toMatchObject({ cacheHint: "x" })
    expect(clash.warnings.map((w) => [w._tag, w.message])).toEqual([
      ["DroppedContent", `messages[1]: the field "cacheHint" of a system message joined to the one before was left out: the system instruction has its own`]
    ])
  })

  it("names a response's top-level field by its name alone in an error path", () => {
    for (const [response, path] of [
      [{ candidates: [], usageMetadata: "x" }, "usageMetadata"],
      [{ candidates: [], response_id: 5 }, "response_id"],
      [{ promptFeedback: "x" }, "promptFeedback"]
    ] as const) {
      expect(failure(Gemini.fromResponse(response))).toMatchObject({ _tag: "MalformedPayload", path })
    }
  })
})

describe("a JSON response beside function declarations", () => {
  const weather = Request.tool("get_weather", { parameters: { type: "object", properties: { city: { type: "string" } } } })
  const search = Request.providerTool("googleSearch", "gemini", "googleSearch", {})
  const schema: Request.ResponseFormat = { _tag: "JsonSchema", name: "response", schema: { type: "object", properties: { temp: { type: "number" } } } }
  const request = (model: string | undefined, responseFormat: Request.ResponseFormat, tools = [weather]) =>
    Request.make([Message.user("Weather in Oslo, as JSON")], { ...(model === undefined ? {} : { model }), tools, responseFormat })

  it("is written as asked, and reported for a model before Gemini 3 only: Gemini 2 rejects function calling with a JSON response", () => {
    for (const format of [schema, { _tag: "JsonObject" } as const]) {
      const written = value(Gemini.toRequest(request("gemini-2.5-flash", format)))
      expect(written.value.tools).toEqual([{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: weather.parameters }] }])
      expect(written.value.generationConfig).toMatchObject({ responseMimeType: "application/json" })
      expect(written.warnings.map((w) => [w._tag, w.message])).toEqual([[
        "RejectedSetting",
        `generationConfig.responseMimeType "application/json" was written as it is, but Gemini takes a JSON response beside function declarations from Gemini 3 on, and earlier models reject it ("Function calling with a response mime type: 'application/json' is unsupported"): gemini-2.5-flash is not one of them, so the provider rejects the request`
      ]])
    }
    // not for Gemini 3, a model that names no Gemini version, no model, a text format, or no function declarations
    for (const req of [
      request("gemini-3-flash-preview", schema),
      request("gemini-flash-latest", schema),
      request(undefined, schema),
      request("gemini-2.5-flash", { _tag: "Text" }),
      request("gemini-2.5-flash", schema, [search])
    ]) {
      expect(value(Gemini.toRequest(req)).warnings).toEqual([])
    }
  })

  it("fails with strict: true for a model before Gemini 3", () => {
    expect(failure(Gemini.toRequest(request("models/gemini-2.0-flash", schema), { strict: true }))).toMatchObject({ _tag: "UnsupportedContent", warning: { _tag: "RejectedSetting" } })
  })
})

describe("code execution ids", () => {
  const parts = [
    { executableCode: { id: "e1", language: "PYTHON", code: "print('one')" } },
    { executableCode: { id: "e2", language: "PYTHON", code: "print('two')" } },
    { codeExecutionResult: { id: "e2", outcome: "OUTCOME_OK", output: "two\n" } },
    { codeExecutionResult: { id: "e1", outcome: "OUTCOME_OK", output: "one\n" } }
  ]
  const pairs = (blocks: ReadonlyArray<Block.Block>) =>
    blocks.flatMap((b) => (b._tag === "ToolCall" ? [["call", b.id, b.args]] : b._tag === "ToolResult" ? [["result", b.toolCallId, (b.content as ReadonlyArray<Block.JsonBlock>)[0]!.value]] : []))

  it("a result answers the code its id names, whatever their order, in a response", () => {
    const message = value(Gemini.fromResponse({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }] })).value.message
    expect(pairs(message.content)).toEqual([
      ["call", "e1", parts[0]!.executableCode],
      ["call", "e2", parts[1]!.executableCode],
      ["result", "e2", parts[2]!.codeExecutionResult],
      ["result", "e1", parts[3]!.codeExecutionResult]
    ])
    expect(value(Gemini.toMessages([Message.user("run"), message])).value.contents[1]!.parts).toEqual(parts)
  })

  it("and in contents, which come back as they were", () => {
    const body = { contents: [{ role: "user", parts: [{ text: "run" }] }, { role: "model", parts }] }
    const read = value(Gemini.fromMessages(body))
    expect(pairs(read.value[1]!.content).map(([kind, id]) => [kind, id])).toEqual([["call", "e1"], ["call", "e2"], ["result", "e2"], ["result", "e1"]])
    expect(Exit.isSuccess(Effect.runSyncExit(Conversation.validateFor("gemini", { model })(read.value)))).toBe(true)
    const written = value(Gemini.toMessages(read.value, { spelling: "asRead" }))
    expect(written.value).toEqual(body)
    expect(written.warnings).toEqual([])
  })

  it("an id a function call has is made unique; a result with no id, or one no code has, pairs by order", () => {
    const body = {
      contents: [
        { role: "user", parts: [{ text: "run" }] },
        {
          role: "model",
          parts: [
            { functionCall: { id: "e1", name: "f", args: {} } },
            { executableCode: { id: "e1", language: "PYTHON", code: "1" } },
            { executableCode: { language: "PYTHON", code: "2" } },
            { codeExecutionResult: { id: "zz", outcome: "OUTCOME_OK", output: "1" } },
            { codeExecutionResult: { outcome: "OUTCOME_OK", output: "2" } }
          ]
        },
        { role: "user", parts: [{ functionResponse: { id: "e1", name: "f", response: { output: "ok" } } }] }
      ]
    }
    const read = value(Gemini.fromMessages(body)).value
    const [, code1, code2, result1, result2] = read[1]!.content as ReadonlyArray<Block.Block>
    if (code1?._tag !== "ToolCall" || code2?._tag !== "ToolCall" || result1?._tag !== "ToolResult" || result2?._tag !== "ToolResult") throw new Error("expected code and results")
    expect(code1.id).toBe("e1_2")
    expect([result1.toolCallId, result2.toolCallId]).toEqual([code1.id, code2.id])
    expect(Exit.isSuccess(Effect.runSyncExit(Conversation.validateFor("gemini")(read)))).toBe(true)
    expect(value(Gemini.toMessages(read, { spelling: "asRead" })).value).toEqual(body)
  })
})

describe("code execution ids, as a review found them", () => {
  const code = (id: string | undefined, source: string) => ({ executableCode: { ...(id === undefined ? {} : { id }), language: "PYTHON", code: source } })
  const result = (id: string | undefined, output: string) => ({ codeExecutionResult: { ...(id === undefined ? {} : { id }), outcome: "OUTCOME_OK", output } })
  const ids = (blocks: ReadonlyArray<Block.Block>) => blocks.map((b) => (b._tag === "ToolCall" ? `call ${b.id}` : b._tag === "ToolResult" ? `result ${b.toolCallId}` : b._tag))
  const response = (parts: ReadonlyArray<object>) => value(Gemini.fromResponse({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }] })).value.message

  it("each code gets one result: one paired by order is not paired again by its id", () => {
    expect(ids(response([code("a", "1"), code("b", "2"), result(undefined, "1"), result("a", "1")]).content)).toEqual(["call a", "call b", "result a", "result b"])
    expect(ids(response([code("a", "1"), code("b", "2"), result("zz", "1"), result("a", "1")]).content)).toEqual(["call a", "call b", "result a", "result b"])
  })

  it("an empty id names no call: the code gets a made-up id, as one without an id does", () => {
    const message = response([code("", "1"), result("", "1")])
    const [call] = message.content
    expect(call?._tag === "ToolCall" && call.id !== "").toBe(true)
    expect(Conversation.issuesFor("gemini", [Message.user("run"), message])).toEqual([])
  })

  it("in a response, a code id a function call of it has is made unique", () => {
    const message = response([{ functionCall: { id: "a", name: "f", args: {} } }, code("a", "1"), result("a", "1")])
    expect(ids(message.content)).toEqual(["call a", "call a_2", "result a_2"])
  })
})

describe("a model turn whose only calls the provider ran", () => {
  it("is no function-call turn: first after the system prompt, it needs no user turn before it, and none is made up", () => {
    const serverTool = [
      Message.system("Be brief."),
      Message.assistant([
        Block.toolCall("srvtoolu_1", "web_search", { query: "news" }, { providerExecuted: true }),
        Block.toolResult("srvtoolu_1", "web_search", "results...", false, { providerExecuted: true }),
        Block.text("Here is the news.")
      ]),
      Message.user("Thanks, more?")
    ]
    const codeExecution = value(Gemini.fromMessages({
      contents: [
        { role: "model", parts: [{ executableCode: { language: "PYTHON", code: "print(2+2)" } }, { codeExecutionResult: { outcome: "OUTCOME_OK", output: "4\n" } }, { text: "It is 4." }] },
        { role: "user", parts: [{ text: "and 3+3?" }] }
      ]
    })).value
    for (const messages of [serverTool, codeExecution]) {
      expect(Conversation.issuesFor("gemini", messages)).toEqual([])
      expect(value(Repair.repairFor("gemini")(messages)).actions).toEqual([])
    }
    // a function call there still needs one
    const call = [Message.system("Be brief."), Message.assistant([Block.toolCall("c1", "f", {})]), Message.toolResultMessage("c1", "f", "ok")]
    expect(Conversation.issuesFor("gemini", call).map((issue) => issue._tag)).toEqual(["MisplacedFunctionCall"])
  })
})

describe("a message whose Gemini options hold parts (set by hand: the reader keeps none)", () => {
  it("is written with its own blocks, the field left out and reported, never a defect", () => {
    for (const parts of [[], [{ text: "kept" }], {}, "s", null, 1]) {
      const options = { providerOptions: { gemini: { parts, extra: 1 } } } as unknown as Message.NamedOptions
      for (const messages of [
        [Message.user("q", options)],
        [Message.system("sys", options), Message.user("q")],
        [Message.user("q"), Message.assistant("REAL", options)],
        [Message.user("q"), Message.assistant([Block.toolCall("c1", "f", {})]), Message.tool([Block.toolResult("c1", "f", "ok")], options)]
      ]) {
        const { value: body, warnings } = value(Gemini.toRequest(Request.make(messages)))
        const contents = [...(body.systemInstruction === undefined ? [] : [body.systemInstruction]), ...body.contents] as ReadonlyArray<{ readonly parts: ReadonlyArray<unknown>; readonly extra?: unknown }>
        const written = contents.find((c) => c.extra === 1)!
        expect(Array.isArray(written.parts) && written.parts.length).toBe(1)
        expect(warnings.filter((w) => w._tag === "DroppedContent" && w.what.includes('"parts"'))).toHaveLength(1)
      }
    }
  })
})

describe("a response's candidates out of order", () => {
  it("are read by their index, as the stream accumulator keeps them; one without an index by its place", () => {
    const text = (t: string) => ({ content: { role: "model", parts: [{ text: t }] }, finishReason: "STOP" })
    const response = { candidates: [{ index: 1, ...text("b") }, { index: 0, ...text("a") }] }
    const read = (candidate?: number) =>
      value(candidate === undefined ? Gemini.fromResponse(response) : Gemini.fromResponse(response, { candidate })).value.message.content.map((b) => (b._tag === "Text" ? b.text : b._tag))
    expect(read()).toEqual(["a"])
    expect(read(1)).toEqual(["b"])
    expect(value(Gemini.fromEvents([response])).value.message.content.map((b) => (b._tag === "Text" ? b.text : b._tag))).toEqual(["a"])
    // without indexes (proto3 JSON leaves out an index of 0), by place; an index no candidate has is a mistake
    expect(value(Gemini.fromResponse({ candidates: [text("x"), text("y")] }, { candidate: 1 })).value.message.content).toMatchObject([{ text: "y" }])
    expect(failure(Gemini.fromResponse(response, { candidate: 2 }))._tag).toBe("MalformedPayload")
  })
})

describe("a tool result of one JSON value that is no object", () => {
  it("is sent as text, said as what it is", () => {
    const { value: body, warnings } = value(Gemini.toRequest(Request.make([
      Message.user("q"),
      Message.assistant([Block.toolCall("c1", "f", {})]),
      Message.tool([Block.toolResult("c1", "f", [Block.json(42)])])
    ])))
    expect(JSON.stringify(body.contents[2])).toContain('"response":{"output":"42"}')
    expect(warnings.map((w) => w.message)).toEqual(["messages[2].content[0]: a JSON tool result that is no object was sent as one text in response.output"])
  })
})
