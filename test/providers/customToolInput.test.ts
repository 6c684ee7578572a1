/**
 * A Chat Completions custom tool takes free-form text. Anthropic and Gemini tools take JSON objects, and their writers
 * used to send such a call's input as `{}`: the text the model wrote (a patch, a query) was gone from the history, and
 * the model shown a call with no arguments. Now the tool is sent as a tool of one string parameter, `input`, and each
 * call's text as that parameter, reported as a conversion (with the grammar it was held to, which is not carried);
 * the estimates price the schema that is sent. Back the other way, a call such a model makes (`{ input: text }`) to a
 * custom tool of the request goes to Chat as a custom call of that text, and the Chat estimate counts it so.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message, Request, TokenEstimator } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat } from "../../src/providers/index.js"
import { countOpenAiChatRequest, loadTextCounter, makeExact } from "../../src/exact/index.js"

const PATCH = "*** Begin Patch\n*** Update File: a.ts\n-old\n+new\n*** End Patch"
const INPUT_SCHEMA = { type: "object", properties: { input: { type: "string" } }, required: ["input"] }

const chatBody = (format?: object) => ({
  model: "gpt-5",
  messages: [
    { role: "user", content: "Patch it." },
    { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "custom", custom: { name: "apply_patch", input: PATCH } }] },
    { role: "tool", tool_call_id: "call_1", content: "done" }
  ],
  tools: [{ type: "custom", custom: { name: "apply_patch", description: "Patch files", ...(format === undefined ? {} : { format }) } }]
})

const converted = (warnings: ReadonlyArray<{ readonly _tag: string; readonly message: string }>) =>
  warnings.filter((w) => w._tag === "ConvertedContent").map((w) => w.message)

describe("a Chat custom tool where tools take JSON objects", () => {
  it.effect("Anthropic: the call's text is its input's `input`, the tool takes that one string", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest(chatBody())
      const written = yield* Anthropic.toRequest(read.value)
      const body = written.value as unknown as { messages: Array<{ content: Array<Record<string, unknown>> }>; tools: Array<Record<string, unknown>> }
      expect(body.messages[1]!.content[0]).toEqual({ type: "tool_use", id: "call_1", name: "apply_patch", input: { input: PATCH } })
      expect(body.tools[0]).toEqual({ name: "apply_patch", description: "Patch files", input_schema: INPUT_SCHEMA })
      const messages = converted(written.warnings)
      expect(messages).toContainEqual(expect.stringContaining("the free-form input of the custom tool call \"apply_patch\""))
      expect(messages.join("\n")).not.toContain("format its input is held to")
    }))

  it.effect("Gemini: the same, as the function call's args and the declaration's JSON Schema", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest(chatBody())
      const written = yield* Gemini.toRequest(read.value)
      const body = written.value as unknown as { contents: Array<{ parts: Array<Record<string, unknown>> }>; tools: Array<{ functionDeclarations: Array<unknown> }> }
      expect(body.contents[1]!.parts[0]).toEqual({ functionCall: { name: "apply_patch", args: { input: PATCH }, id: "call_1" } })
      expect(body.tools[0]!.functionDeclarations[0]).toEqual({ name: "apply_patch", description: "Patch files", parametersJsonSchema: INPUT_SCHEMA })
      expect(converted(written.warnings)).toContainEqual(expect.stringContaining("the free-form input of the custom tool call \"apply_patch\""))
    }))

  it.effect("a grammar the input was held to is reported as not carried", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest(chatBody({ type: "grammar", grammar: { syntax: "lark", definition: "start: /.+/" } }))
      for (const written of [yield* Anthropic.toRequest(read.value), yield* Gemini.toRequest(read.value)]) {
        expect(converted(written.warnings)).toContainEqual(expect.stringContaining("the grammar format its input is held to is not carried"))
      }
      const text = yield* OpenAiChat.fromRequest(chatBody({ type: "text" }))
      expect(converted((yield* Anthropic.toRequest(text.value)).warnings).join("\n")).not.toContain("held to")
    }))

  it("the estimates price the input schema and the calls as they are sent, as for a function declared with it", () => {
    const call = (custom: boolean) =>
      Request.make(
        [
          Message.user("Patch it."),
          Message.assistant([Block.toolCall("call_1", "apply_patch", custom ? PATCH : { input: PATCH }, custom ? { providerOptions: { "openai-chat": { type: "custom" } } } : {})]),
          Message.tool([Block.toolResult("call_1", "apply_patch", "done")])
        ],
        {
          tools: [
            custom
              ? Request.tool("apply_patch", { description: "Patch files", providerOptions: { "openai-chat": { type: "custom" } } })
              : Request.tool("apply_patch", { description: "Patch files", parameters: INPUT_SCHEMA })
          ]
        }
      )
    for (const provider of ["anthropic", "gemini"] as const) {
      const estimate = (custom: boolean) => TokenEstimator.heuristic.estimateRequest(call(custom), { provider })
      expect(estimate(true).tools, provider).toBe(estimate(false).tools)
      // and the call as it is sent, its text as the one string of {input} (escapes and all)
      expect(estimate(true).messages, provider).toEqual(estimate(false).messages)
    }
  })

  it.effect("a call Claude makes with {input} goes back to Chat as a custom call of that text", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest(chatBody())
      const reply = yield* Anthropic.fromResponse({
        id: "msg_2",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "tool_use", id: "toolu_2", name: "apply_patch", input: { input: PATCH } }],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 }
      })
      const next = Request.make([...read.value.messages, reply.value.message, Message.toolResultMessage("toolu_2", "apply_patch", "done")], {
        model: "gpt-5",
        ...(read.value.tools === undefined ? {} : { tools: read.value.tools })
      })
      const written = yield* OpenAiChat.toRequest(next)
      const body = written.value as unknown as { messages: Array<{ tool_calls?: Array<Record<string, unknown>> }> }
      expect(body.messages[3]!.tool_calls).toEqual([{ id: "toolu_2", type: "custom", custom: { name: "apply_patch", input: PATCH } }])
      expect(converted(written.warnings)).toContainEqual(expect.stringContaining("a custom tool, made with {\"input\": <text>}"))
      // the estimate renders the call as the writer sends it: what the written body counts
      yield* loadTextCounter("o200k")
      const exact = yield* makeExact({ encoding: "o200k" })
      const counted = yield* countOpenAiChatRequest(written.value, { encoding: "o200k" })
      expect(exact.estimateRequest(next, { provider: "openai-chat" }).total).toBe(counted.total)
      // a function tool of that name is left as it is
      const asFunction = Request.make(next.messages, { tools: [Request.tool("apply_patch", { parameters: INPUT_SCHEMA })] })
      const plain = (yield* OpenAiChat.toRequest(asFunction)).value as unknown as { messages: Array<{ tool_calls?: Array<Record<string, unknown>> }> }
      expect(plain.messages[3]!.tool_calls![0]!["type"]).toBe("function")
    }))
})
