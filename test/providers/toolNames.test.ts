/**
 * Each format has its own rule for a tool's name, and answers a request that
 * breaks it with HTTP 400. A name that is legal where it came from but not
 * in the target is written as it is (the model's calls come back under the
 * name it was given) and reported as `RejectedToolName`, once per name;
 * strict conversion refuses to write it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message, Request } from "../../src/index.js"
import { Anthropic, Conversion, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

const rejected = (warnings: ReadonlyArray<Conversion.ConversionWarning>): Array<string> =>
  warnings.flatMap((w) => (w._tag === "RejectedToolName" ? [w.name] : []))

/** A request that offers one tool of this name, not yet called. */
const requestWith = (name: string): Request.Request =>
  Request.make([Message.user("Read the README.")], {
    tools: [Request.tool(name, { parameters: { type: "object", properties: { path: { type: "string" } } } })],
    toolChoice: { _tag: "Tool", name }
  })

/** What each target reports for a request with a tool definition of this name. */
const reportedBy = (name: string) =>
  Effect.gen(function* () {
    const request = requestWith(name)
    return {
      chat: rejected((yield* OpenAiChat.toRequest(request)).warnings),
      responses: rejected((yield* OpenAiResponses.toRequest(request)).warnings),
      anthropic: rejected((yield* Anthropic.toRequest(request, { maxTokens: 1024 })).warnings),
      gemini: rejected((yield* Gemini.toRequest(request)).warnings)
    }
  })

describe("tool names the target does not take", () => {
  it.effect("a Gemini tool name with a dot is reported by every other target, written unchanged in the definition, the call and the tool choice", () =>
    Effect.gen(function* () {
      const { value: request } = yield* Gemini.fromRequest({
        contents: [
          { role: "user", parts: [{ text: "Read the README." }] },
          { role: "model", parts: [{ functionCall: { id: "call_1", name: "files.read", args: { path: "README.md" } } }] },
          { role: "user", parts: [{ functionResponse: { id: "call_1", name: "files.read", response: { output: "# effect-agent-messages" } } }] }
        ],
        tools: [{ functionDeclarations: [{ name: "files.read", parametersJsonSchema: { type: "object", properties: { path: { type: "string" } } } }] }],
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["files.read"] } }
      })
      expect(request.toolChoice).toEqual({ _tag: "Tool", name: "files.read" })
      expect(rejected((yield* Gemini.toRequest(request)).warnings)).toEqual([])

      const anthropic = yield* Anthropic.toRequest(request, { maxTokens: 1024 })
      expect(anthropic.warnings.map((w) => w.message)).toEqual([
        'messages[1].content[0]: the tool name "files.read" was written as it is, but Anthropic takes 1 to 128 letters, digits, _ and -: the provider rejects the request until the tool is renamed'
      ])
      expect(anthropic.value.tools?.[0]?.name).toBe("files.read")
      expect(anthropic.value.tool_choice).toEqual({ type: "tool", name: "files.read" })
      expect(anthropic.value.messages[1]?.content).toEqual([expect.objectContaining({ type: "tool_use", name: "files.read" })])

      const chat = yield* OpenAiChat.toRequest(request)
      expect(rejected(chat.warnings)).toEqual(["files.read"])
      expect(chat.value.tools?.[0]).toEqual(expect.objectContaining({ function: expect.objectContaining({ name: "files.read" }) }))

      const responses = yield* OpenAiResponses.toRequest(request)
      expect(rejected(responses.warnings)).toEqual(["files.read"])
    }))

  it.effect("each target holds a name to its own rule: length, alphabet and first character", () =>
    Effect.gen(function* () {
      const none = { chat: [], responses: [], anthropic: [], gemini: [] }
      expect(yield* reportedBy("get_weather")).toEqual(none)
      expect(yield* reportedBy("mcp__github-server__list_issues")).toEqual(none)
      // OpenAI takes 64 characters, Anthropic and Gemini 128
      const long = `mcp__${"x".repeat(95)}`
      expect(yield* reportedBy(long)).toEqual({ chat: [long], responses: [long], anthropic: [], gemini: [] })
      const longer = "y".repeat(129)
      expect(yield* reportedBy(longer)).toEqual({ chat: [longer], responses: [longer], anthropic: [longer], gemini: [longer] })
      // Gemini takes dots and colons, and wants a letter or _ first
      expect(yield* reportedBy("server:search")).toEqual({ chat: ["server:search"], responses: ["server:search"], anthropic: ["server:search"], gemini: [] })
      expect(yield* reportedBy("3d-render")).toEqual({ chat: [], responses: [], anthropic: [], gemini: ["3d-render"] })
      expect(yield* reportedBy("search web")).toEqual({ chat: ["search web"], responses: ["search web"], anthropic: ["search web"], gemini: ["search web"] })
    }))

  it.effect("a name is reported once, where it is first written; a conversation without tool definitions reports its calls", () =>
    Effect.gen(function* () {
      const messages = [
        Message.user("Read both."),
        Message.assistant([Block.toolCall("call_1", "files.read", { path: "a" }), Block.toolCall("call_2", "files.read", { path: "b" })]),
        Message.tool([Block.toolResult("call_1", "files.read", "A"), Block.toolResult("call_2", "files.read", "B")])
      ]
      const { warnings } = yield* OpenAiChat.toMessages(messages)
      expect(warnings).toEqual([
        new Conversion.RejectedToolName({
          index: 1,
          blockIndex: 0,
          name: "files.read",
          rule: "Chat Completions takes 1 to 64 letters, digits, _ and -"
        })
      ])
      // the deprecated function_call of a Chat assistant message, too
      const legacy = yield* OpenAiChat.fromMessages([{ role: "user", content: "Read it." }, { role: "assistant", content: null, function_call: { name: "files.read", arguments: "{}" } }])
      expect(rejected((yield* OpenAiChat.toMessages(legacy.value)).warnings)).toEqual(["files.read"])
      // Responses and Gemini item/part names go through the same check
      expect(rejected((yield* OpenAiResponses.toMessages(messages)).warnings)).toEqual(["files.read"])
      expect(rejected((yield* Gemini.toMessages([Message.user("go"), Message.assistant([Block.toolCall("c", "1st", {})]), Message.toolResultMessage("c", "1st", "ok")])).warnings)).toEqual(["1st"])
    }))

  it.effect("a Gemini function response is held to the rule too: a result alone, or under another name than its call", () =>
    Effect.gen(function* () {
      const alone = yield* Gemini.toMessages([Message.user("go"), Message.tool([Block.toolResult("c1", "9lives", "ok")])])
      expect(alone.warnings.filter((w) => w._tag === "RejectedToolName")).toEqual([
        new Conversion.RejectedToolName({ index: 1, blockIndex: 0, name: "9lives", rule: "Gemini takes 1 to 128 letters, digits, _, ., : and -, starting with a letter or _" })
      ])
      const renamed = yield* Gemini.toMessages([
        Message.user("go"),
        Message.assistant([Block.toolCall("c1", "ok", {})]),
        Message.toolResultMessage("c1", "bad name", "done")
      ])
      expect(rejected(renamed.warnings)).toEqual(["bad name"])
    }))

  it.effect("strict conversion fails instead of writing a name the provider rejects", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Anthropic.toRequest(requestWith("files.read"), { maxTokens: 1024, strict: true }))
      expect(error._tag).toBe("UnsupportedContent")
      expect(error.warning._tag).toBe("RejectedToolName")
      expect(error.message).toMatch(/^cannot convert for anthropic in strict mode: the tool name "files.read"/)
    }))
})
