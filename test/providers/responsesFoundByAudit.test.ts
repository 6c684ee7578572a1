/**
 * Defects an audit of the OpenAI Responses adapter found, and one a cross-provider audit found for Gemini, each pinned
 * by the case that showed it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Block, Conversation, Message, Repair } from "../../src/index.js"
import { Gemini, OpenAiResponses } from "../../src/providers/index.js"

const value = <A, E>(effect: Effect.Effect<A, E>): A => Effect.runSync(effect)
const failure = <A, E>(effect: Effect.Effect<A, E>): E => {
  const exit = Effect.runSyncExit(Effect.flip(effect))
  if (!Exit.isSuccess(exit)) throw new Error("expected a failure")
  return exit.value
}
const valid = <A, E>(effect: Effect.Effect<A, E>): boolean => Exit.isSuccess(Effect.runSyncExit(effect))

/** Items read and written back, with the warnings of both ways. */
const roundTrip = (items: ReadonlyArray<unknown>) => {
  const read = value(OpenAiResponses.fromMessages(items))
  const written = value(OpenAiResponses.toMessages(read.value))
  return { messages: read.value, items: written.value, warnings: [...read.warnings, ...written.warnings] }
}

describe("Responses: a response that stopped for the client", () => {
  const base = { id: "resp_1", object: "response", created_at: 1, model: "gpt-5", status: "completed" }
  const calls = [
    { type: "custom_tool_call", id: "ctc_1", call_id: "c1", name: "apply_patch", input: "*** Begin Patch" },
    { type: "computer_call", id: "cu_1", call_id: "c1", action: { type: "screenshot" }, pending_safety_checks: [], status: "completed" },
    { type: "local_shell_call", id: "lsh_1", call_id: "c1", action: { type: "exec", command: ["ls"], env: {} }, status: "completed" },
    { type: "shell_call", id: "sh_1", call_id: "c1", action: { commands: ["ls"] }, status: "completed" },
    { type: "apply_patch_call", id: "apc_1", call_id: "c1", operation: { type: "update_file", path: "a", diff: "" }, status: "completed" },
    { type: "mcp_approval_request", id: "mcpr_1", server_label: "s", name: "t", arguments: "{}" }
  ]

  it("finishes with tool-calls for every client-side call, not only a function call", () => {
    for (const item of calls) {
      const response = value(OpenAiResponses.fromResponse({ ...base, output: [{ type: "reasoning", id: "rs_1", summary: [] }, item] })).value
      expect(response.finishReason, item.type).toBe("tool-calls")
    }
    // a hosted tool the provider ran is no such stop
    const searched = value(OpenAiResponses.fromResponse({
      ...base,
      output: [{ type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "q" } }, { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "found", annotations: [] }] }]
    })).value
    expect(searched.finishReason).toBe("stop")
  })
})

describe("Responses: validation reads item ids as the writer sends them", () => {
  const model = { model: "gpt-5" }
  const reasoning = Block.thinking("", undefined, { itemId: "rs_1", summary: [], encryptedContent: "gAAA" })

  it("a reasoning item followed by an item whose id the writer leaves out is ReasoningWithoutOutput, and repaired", () => {
    for (const [next, after] of [
      [Block.text("42", { itemId: "item_9" }), Message.user("Anything to add?")],
      [Block.toolCall("c1", "f", {}, { itemId: "item_1" }), Message.toolResultMessage("c1", "f", "o")]
    ] as const) {
      const messages = [Message.user("hi"), Message.assistant([reasoning, next]), after]
      expect(failure(Conversation.validateFor("openai-responses", model)(messages))).toMatchObject({ _tag: "ReasoningWithoutOutput", index: 1, blockIndex: 0 })
      const repaired = value(Repair.repairFor("openai-responses", model)(messages))
      expect(repaired.actions.map((a) => a._tag)).toEqual(["RemovedBlock"])
      expect(valid(Conversation.validateFor("openai-responses", model)(repaired.messages))).toBe(true)
    }
  })

  it("thinking the writer leaves out (no reasoning id, no encrypted content) is no reasoning item before a call", () => {
    const messages = [
      Message.user("hi"),
      Message.assistant([Block.thinking("t", undefined, { itemId: "item_1", summary: [] }), Block.toolCall("c1", "f", {}, { itemId: "fc_1" })]),
      Message.toolResultMessage("c1", "f", "o")
    ]
    expect(failure(Conversation.validateFor("openai-responses", model)(messages))).toMatchObject({ _tag: "MissingReasoningItem", index: 1, blockIndex: 1 })
    const repaired = value(Repair.repairFor("openai-responses", model)(messages))
    expect(repaired.actions.map((a) => a._tag)).toEqual(["RemovedItemId"])
    expect(valid(Conversation.validateFor("openai-responses", model)(repaired.messages))).toBe(true)
  })

  it("two items whose ids the writer leaves out are no duplicate", () => {
    const messages = [Message.user("hi"), Message.assistant([Block.text("a", { itemId: "item_1" })]), Message.user("more"), Message.assistant([Block.text("b", { itemId: "item_1" })])]
    expect(valid(Conversation.validateFor("openai-responses")(messages))).toBe(true)
  })
})

describe("Responses: repair", () => {
  it("a custom tool turn recorded twice is repaired as a function call turn is: the copy and its output go", () => {
    const call = { type: "custom_tool_call", id: "ctc_1", call_id: "k1", name: "apply_patch", input: "*** Begin Patch" }
    const output = { type: "custom_tool_call_output", call_id: "k1", output: "ok" }
    const messages = value(OpenAiResponses.fromMessages([{ role: "user", content: "hi" }, call, output, call, output, { role: "user", content: "next" }])).value
    expect(failure(Conversation.validateFor("openai-responses")(messages))._tag).toBe("DuplicateItemId")
    const repaired = value(Repair.repairFor("openai-responses")(messages))
    expect(repaired.actions.map((a) => a._tag)).toEqual(["RemovedBlock", "RemovedBlock"])
    expect(valid(Conversation.validateFor("openai-responses")(repaired.messages))).toBe(true)
    expect(value(OpenAiResponses.toMessages(repaired.messages)).value).toEqual([{ role: "user", content: "hi" }, call, output, { role: "user", content: "next" }])
  })
})

describe("Responses: reading and writing", () => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

  it("an input_file holding an image or audio stays an input_file", () => {
    for (const items of [
      [{ role: "user", content: [{ type: "input_text", text: "what is in this file?" }, { type: "input_file", filename: "scan.png", file_data: `data:image/png;base64,${png}` }] }],
      [{ role: "user", content: [{ type: "input_text", text: "transcribe" }, { type: "input_file", filename: "a.wav", file_data: "data:audio/wav;base64,UklGRg==" }] }]
    ]) {
      const { items: back, warnings } = roundTrip(items)
      expect(warnings).toEqual([])
      expect(back).toEqual(items)
    }
    // an image given as an image is still one
    const image = [{ role: "user", content: [{ type: "input_image", image_url: `data:image/png;base64,${png}`, detail: "auto" }] }]
    expect(roundTrip(image).items).toEqual(image)
  })

  it("a user message's output_text parts keep their type and annotations", () => {
    const items = [{ role: "user", content: [{ type: "output_text", text: "a", annotations: [{ type: "url_citation", url: "u", start_index: 0, end_index: 1, title: "t" }] }, { type: "input_text", text: "b" }] }]
    const { items: back, warnings } = roundTrip(items)
    expect(warnings).toEqual([])
    expect(back).toEqual(items)
  })

  it("an assistant message item without an id and without parts is kept whole", () => {
    for (const assistant of [{ role: "assistant", content: [] }, { type: "message", role: "assistant", content: [], status: "completed" }]) {
      const items = [{ role: "user", content: "hi" }, assistant, { role: "user", content: "next" }]
      const { items: back, warnings } = roundTrip(items)
      expect(warnings).toEqual([])
      expect(back).toEqual(items)
    }
  })

  it("says what a part of assistant text without an item id held beside its text, which its message cannot carry", () => {
    const written = value(OpenAiResponses.toMessages([Message.user("hi"), Message.assistant([Block.text("x", { providerOptions: { "openai-responses": { logprobs: [] } } })])]))
    expect(written.value[1]).toEqual({ role: "assistant", content: "x" })
    expect(written.warnings.map((w) => w.message)).toEqual([
      "messages[1].content[0]: what the part of assistant text without an output item id held beside its text (logprobs) was left out: it is written as an assistant message of its text alone"
    ])
  })
})

describe("Gemini: a message the writer sends nothing of", () => {
  it("starts no turn: a call after it is MisplacedFunctionCall, and the repair puts a user turn before the call", () => {
    const messages = [
      Message.user([Block.providerData("openai-chat", { type: "video_url", video_url: { url: "https://example.com/clip.mp4" } })]),
      Message.assistant([Block.toolCall("call_1", "describe_frame", { t: 1 })]),
      Message.tool([Block.toolResult("call_1", "describe_frame", "a cat")]),
      Message.user("so?")
    ]
    expect(failure(Conversation.validateFor("gemini")(messages))).toMatchObject({ _tag: "MisplacedFunctionCall", index: 1 })
    const repaired = value(Repair.repairFor("gemini")(messages))
    expect(repaired.actions.map((a) => a._tag)).toEqual(["InsertedUserMessage"])
    const wire = value(Gemini.toMessages(repaired.messages)).value
    expect(wire.contents.map((c) => c.role)).toEqual(["user", "model", "user", "user"])
  })

  it("is no user turn for Gemini 3's signatures: every step since the last user content sent is signed", () => {
    const model = "gemini-3-flash-preview"
    const messages = [
      Message.user("Load data.csv and chart it"),
      Message.assistant([Block.toolCall("toolu_01", "load_csv", { path: "data.csv" })]),
      Message.tool([Block.toolResult("toolu_01", "load_csv", "loaded")]),
      Message.user([Block.providerData("anthropic", { type: "container_upload", file_id: "file_1" })]),
      Message.assistant([Block.toolCall("toolu_02", "load_csv", { path: "more.csv" })]),
      Message.tool([Block.toolResult("toolu_02", "load_csv", "loaded")])
    ]
    expect(failure(Conversation.validateFor("gemini", { model })(messages))).toMatchObject({ _tag: "MissingThoughtSignature", index: 1 })
    const repaired = value(Repair.repairFor("gemini", { model })(messages))
    expect(repaired.actions.map((a) => [a._tag, "index" in a ? a.index : undefined])).toEqual([["AddedThoughtSignature", 1], ["AddedThoughtSignature", 4]])
    expect(valid(Conversation.validateFor("gemini", { model })(repaired.messages))).toBe(true)
  })
})
