/**
 * Another provider's settings that change what the model may do or how it
 * answers (tool choice, structured output, sampling, stop sequences,
 * thinking), and that the model has no type for, are reported when the
 * target cannot carry them; the rest of another provider's options mean
 * nothing to the target and are left out without a word.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Message, Request } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

const dropped = (warnings: ReadonlyArray<{ readonly _tag: string; readonly message: string }>): Array<string> =>
  warnings.filter((w) => w._tag === "DroppedContent").map((w) => w.message)

describe("another provider's settings", () => {
  it.effect("a tool choice the model could not read is reported by every other target, never by its own", () =>
    Effect.gen(function*() {
      const request = yield* Gemini.fromRequest({
        contents: [{ role: "user", parts: [{ text: "Weather?" }] }],
        tools: [{ functionDeclarations: [{ name: "a" }, { name: "b" }] }],
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["a", "b"] } }
      })
      expect(request.value.toolChoice).toBeUndefined()
      for (const written of [yield* OpenAiChat.toRequest(request.value), yield* Anthropic.toRequest(request.value), yield* OpenAiResponses.toRequest(request.value)]) {
        expect(dropped(written.warnings)).toEqual([
          expect.stringMatching(/^gemini's toolConfig \{"functionCallingConfig":\{"mode":"ANY","allowedFunctionNames":\["a","b"\]\}\} was left out: a tool choice the model has no type for/)
        ])
      }
      expect(dropped((yield* Gemini.toRequest(request.value)).warnings)).toEqual([])
    }))

  it.effect("Gemini's OpenAPI response schema is reported when it cannot go along", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("Weather?")], {
        providerOptions: { gemini: { generationConfig: { responseMimeType: "application/json", responseSchema: { type: "OBJECT", properties: { a: { type: "STRING" } } } } } }
      })
      expect(dropped((yield* OpenAiChat.toRequest(request)).warnings)).toEqual([
        "gemini's generationConfig.responseSchema was left out: an OpenAPI response schema the model has no type for, so openai-chat gets no structured output from it"
      ])
      // how the answer is sampled is reported (the target runs with its default); other options mean nothing there
      const tuned = Request.make([Message.user("hi")], { providerOptions: { gemini: { generationConfig: { temperature: 0.2 } }, anthropic: { metadata: { user_id: "u" } } } })
      expect(dropped((yield* OpenAiChat.toRequest(tuned)).warnings)).toEqual([
        "gemini's generationConfig.temperature 0.2 was left out: a setting the model has no type for, so openai-chat runs with its own default"
      ])
      const chat = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], temperature: 0, stop: ["END"], seed: 7, user: "u1" })
      expect(dropped((yield* Anthropic.toRequest(chat.value)).warnings).map((w) => w.split(" was left out")[0])).toEqual([
        "openai-chat's temperature 0",
        "openai-chat's stop [\"END\"]",
        "openai-chat's seed 7"
      ])
      expect((yield* OpenAiChat.toRequest(chat.value)).warnings).toEqual([])
    }))

  it.effect("how many answers, their log probabilities and their wordiness are reported too, unless at the default", () =>
    Effect.gen(function*() {
      const chat = yield* OpenAiChat.fromRequest({ model: "gpt-5", messages: [{ role: "user", content: "hi" }], n: 3, logprobs: true, top_logprobs: 5, verbosity: "low" })
      for (const written of [yield* Anthropic.toRequest(chat.value), yield* Gemini.toRequest(chat.value)]) {
        expect(dropped(written.warnings).map((w) => w.split(" was left out")[0])).toEqual([
          "openai-chat's n 3",
          "openai-chat's logprobs true",
          "openai-chat's top_logprobs 5",
          "openai-chat's verbosity \"low\""
        ])
      }
      expect((yield* OpenAiChat.toRequest(chat.value)).warnings).toEqual([])
      const defaults = yield* OpenAiChat.fromRequest({ model: "gpt-5", messages: [{ role: "user", content: "hi" }], n: 1, logprobs: false })
      expect(dropped((yield* Anthropic.toRequest(defaults.value)).warnings)).toEqual([])
      const gemini = Request.make([Message.user("hi")], { providerOptions: { gemini: { generationConfig: { candidateCount: 2, responseLogprobs: true } } } })
      expect(dropped((yield* OpenAiChat.toRequest(gemini)).warnings).map((w) => w.split(" was left out")[0])).toEqual([
        "gemini's generationConfig.candidateCount 2",
        "gemini's generationConfig.responseLogprobs true"
      ])
    }))
})

describe("tool settings without the tools they refer to", () => {
  const search = Request.tool("web_search", { providerDefined: { provider: "anthropic", type: "web_search_20250305", config: {} } })
  const weather = Request.tool("get_weather", { parameters: { type: "object", properties: {} } })

  it.effect("a choice and a parallel setting are left out, and said so, when every tool was left out", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("news?")], { tools: [search], toolChoice: { _tag: "Tool", name: "web_search" }, parallelToolCalls: false })
      const chat = yield* OpenAiChat.toRequest(request)
      const responses = yield* OpenAiResponses.toRequest(request)
      const gemini = yield* Gemini.toRequest(request)
      for (const written of [chat, responses, gemini]) {
        const body = written.value as unknown as Record<string, unknown>
        expect([body["tools"], body["tool_choice"], body["parallel_tool_calls"], body["toolConfig"]]).toEqual([undefined, undefined, undefined, undefined])
        expect(dropped(written.warnings)).toContainEqual(expect.stringMatching(/^the tool choice web_search was left out: every tool definition/))
      }
      expect(dropped(chat.warnings)).toContainEqual(expect.stringMatching(/^the parallel tool calls setting was left out: every tool definition/))
      const anthropic = yield* Anthropic.toRequest(Request.make([Message.user("news?")], { tools: [Request.tool("google_search", { providerDefined: { provider: "gemini", type: "googleSearch", config: {} } })], toolChoice: "required" }))
      expect((anthropic.value as unknown as Record<string, unknown>)["tool_choice"]).toBeUndefined()
    }))

  it.effect("a named choice of a tool that was left out is left out; the other tools and the setting stay", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("news?")], { tools: [weather, search], toolChoice: { _tag: "Tool", name: "web_search" }, parallelToolCalls: false })
      const chat = yield* OpenAiChat.toRequest(request)
      expect(chat.value.tool_choice).toBeUndefined()
      expect(chat.value.parallel_tool_calls).toBe(false)
      expect(chat.value.tools?.length).toBe(1)
      expect(dropped(chat.warnings)).toContainEqual(expect.stringMatching(/^the tool choice web_search was left out: the definition of web_search was left out/))
      // nothing is left out for the provider that defines the tool
      const own = yield* Anthropic.toRequest(request)
      expect(own.value.tool_choice).toEqual({ type: "tool", name: "web_search", disable_parallel_tool_use: true })
    }))

  it.effect("a Chat custom tool is reported wherever it becomes a function tool", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest({
        model: "gpt-5",
        messages: [{ role: "user", content: "run sql" }],
        tools: [{ type: "custom", custom: { name: "sql", format: { type: "grammar", grammar: { syntax: "lark", definition: "start: /.+/" } } } }]
      })
      for (const written of [yield* Gemini.toRequest(read.value), yield* Anthropic.toRequest(read.value)]) {
        expect(written.warnings.filter((w) => w._tag === "ConvertedContent").map((w) => w.message)).toContainEqual(expect.stringMatching(/^sql, a (Chat Completions )?custom tool taking free-form text was sent as/))
      }
      // the Responses API has custom tools of its own: the grammar goes with it, nothing to report
      const responses = yield* OpenAiResponses.toRequest(read.value)
      expect(responses.warnings).toEqual([])
      expect(responses.value.tools).toEqual([{ type: "custom", name: "sql", format: { type: "grammar", syntax: "lark", definition: "start: /.+/" } }])
      // but a format it has no form of makes it a function tool, reported
      const odd = yield* OpenAiChat.fromRequest({
        model: "gpt-5",
        messages: [{ role: "user", content: "run sql" }],
        tools: [{ type: "custom", custom: { name: "sql", format: { type: "grammar", grammar: { syntax: "lark", definition: "start: /.+/", version: 2 } } } }]
      })
      const function_ = yield* OpenAiResponses.toRequest(odd.value)
      expect(function_.warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/^sql, a Chat Completions custom tool taking free-form text was sent as a function tool/))
    }))

})

describe("another provider's stored context, tools and settings", () => {
  it.effect("what a provider holds for the request (earlier turns, a stored prompt, cached contents) is reported when left out", () =>
    Effect.gen(function*() {
      const responses = yield* OpenAiResponses.fromRequest({
        model: "gpt-5", input: "And tomorrow?", previous_response_id: "resp_1", conversation: "conv_1", prompt: { id: "pmpt_1", variables: { city: "Oslo" } }
      })
      const gemini = yield* Gemini.fromRequest({ contents: [{ role: "user", parts: [{ text: "Summarize." }] }], cachedContent: "cachedContents/c1" })
      const lost = (read: Request.Request, to: "chat" | "anthropic" | "gemini" | "responses") =>
        Effect.map(
          to === "chat"
            ? Effect.map(OpenAiChat.toRequest(read), (w) => w.warnings)
            : to === "anthropic"
            ? Effect.map(Anthropic.toRequest(read), (w) => w.warnings)
            : to === "gemini"
            ? Effect.map(Gemini.toRequest(read), (w) => w.warnings)
            : Effect.map(OpenAiResponses.toRequest(read), (w) => w.warnings),
          (warnings) => dropped(warnings).map((w) => w.split(" was left out")[0])
        )
      for (const to of ["chat", "anthropic", "gemini"] as const) {
        expect(yield* lost(responses.value, to)).toEqual([
          "openai-responses's previous_response_id \"resp_1\"",
          "openai-responses's conversation \"conv_1\"",
          "openai-responses's prompt {\"id\":\"pmpt_1\",\"variables\":{\"city\":\"Oslo\"}}"
        ])
      }
      expect(yield* lost(responses.value, "responses")).toEqual([])
      expect(dropped((yield* Anthropic.toRequest(gemini.value)).warnings)).toEqual([
        "gemini's cachedContent \"cachedContents/c1\" was left out: what the provider holds for the request (earlier turns, a stored prompt, cached contents, a container's files and skills) is not in the request, so anthropic answers without it"
      ])
      expect(yield* lost(gemini.value, "gemini")).toEqual([])
    }))

  it.effect("tools from elsewhere and settings of effort, wordiness, output kind and safety are reported too", () =>
    Effect.gen(function*() {
      const anthropic = yield* Anthropic.fromRequest({
        model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "hi" }],
        output_config: { effort: "low" }, mcp_servers: [{ type: "url", url: "https://mcp.example.com", name: "docs" }],
        container: { skills: [{ type: "anthropic", skill_id: "pptx", version: "latest" }] }
      })
      expect(dropped((yield* OpenAiChat.toRequest(anthropic.value)).warnings)).toEqual([
        "anthropic's output_config.effort \"low\" was left out: a setting the model has no type for, so openai-chat runs with its own default",
        "anthropic's mcp_servers [{\"type\":\"url\",\"url\":\"https://mcp.example.com\",\"name\":\"docs\"… was left out: tools the model has no type for, so openai-chat cannot call them",
        "anthropic's container {\"skills\":[{\"type\":\"anthropic\",\"skill_id\":\"pptx\",\"version\":\"… was left out: what the provider holds for the request (earlier turns, a stored prompt, cached contents, a container's files and skills) is not in the request, so openai-chat answers without it"
      ])
      const responses = yield* OpenAiResponses.fromRequest({ model: "gpt-5", input: "hi", text: { verbosity: "low" }, truncation: "auto", max_tool_calls: 3 })
      expect(dropped((yield* Gemini.toRequest(responses.value)).warnings).map((w) => w.split(" was left out")[0])).toEqual([
        "openai-responses's text.verbosity \"low\"",
        "openai-responses's max_tool_calls 3",
        "openai-responses's truncation \"auto\""
      ])
      const chat = yield* OpenAiChat.fromRequest({
        model: "gpt-4o-search-preview", messages: [{ role: "user", content: "news?" }], web_search_options: {}, modalities: ["text", "audio"], audio: { voice: "alloy", format: "wav" }
      })
      expect(dropped((yield* Anthropic.toRequest(chat.value)).warnings).map((w) => w.split(" was left out")[0])).toEqual([
        "openai-chat's modalities [\"text\",\"audio\"]",
        "openai-chat's audio {\"voice\":\"alloy\",\"format\":\"wav\"}",
        "openai-chat's web_search_options {}"
      ])
      const gemini = yield* Gemini.fromRequest({
        contents: [{ role: "user", parts: [{ text: "Draw a cat." }] }],
        generationConfig: { responseModalities: ["TEXT", "IMAGE"] },
        safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }]
      })
      expect(dropped((yield* OpenAiResponses.toRequest(gemini.value)).warnings).map((w) => w.split(" was left out")[0])).toEqual([
        "gemini's generationConfig.responseModalities [\"TEXT\",\"IMAGE\"]",
        "gemini's safetySettings [{\"category\":\"HARM_CATEGORY_HARASSMENT\",\"threshold\":\"BLOCK_N…"
      ])
      // at the value every provider runs with, nothing is reported
      const plain = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], modalities: ["text"] })
      expect(dropped((yield* Anthropic.toRequest(plain.value)).warnings)).toEqual([])
      const untruncated = yield* OpenAiResponses.fromRequest({ model: "gpt-5", input: "hi", truncation: "disabled", context_management: [] })
      expect(dropped((yield* Anthropic.toRequest(untruncated.value)).warnings)).toEqual([])
      // nor when empty (no MCP servers, no safety settings), but an empty web_search_options turns search on
      const none = yield* Anthropic.fromRequest({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "hi" }], mcp_servers: [], stop_sequences: [] })
      expect(dropped((yield* Gemini.toRequest(none.value)).warnings)).toEqual([])
      const safe = yield* Gemini.fromRequest({ contents: [{ role: "user", parts: [{ text: "hi" }] }], safetySettings: [], generationConfig: { thinkingConfig: {} } })
      expect(dropped((yield* OpenAiChat.toRequest(safe.value)).warnings)).toEqual([])
    }))

  it.effect("what a tool's definition shows the model in another provider's words (input examples, an output schema) is reported", () =>
    Effect.gen(function*() {
      const anthropic = yield* Anthropic.fromRequest({
        model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "Look it up." }],
        tools: [{ name: "lookup", input_schema: { type: "object", properties: { q: { type: "string" } } }, input_examples: [{ q: "tokenizer" }], cache_control: { type: "ephemeral" } }]
      })
      expect(dropped((yield* OpenAiChat.toRequest(anthropic.value)).warnings)).toEqual([
        "anthropic's input_examples of the tool \"lookup\" [{\"q\":\"tokenizer\"}] was left out: the model has no type for it, so the tool is defined to openai-chat without it"
      ])
      expect(dropped((yield* Anthropic.toRequest(anthropic.value)).warnings)).toEqual([])
      const gemini = yield* Gemini.fromRequest({
        contents: [{ role: "user", parts: [{ text: "Weather?" }] }],
        tools: [{ functionDeclarations: [{ name: "weather", parametersJsonSchema: { type: "object" }, responseJsonSchema: { type: "object", properties: { celsius: { type: "number" } } } }] }]
      })
      expect(dropped((yield* OpenAiResponses.toRequest(gemini.value)).warnings).map((w) => w.split(" was left out")[0])).toEqual([
        "gemini's responseJsonSchema of the tool \"weather\" {\"type\":\"object\",\"properties\":{\"celsius\":{\"type\":\"number\"}}}"
      ])
      expect(dropped((yield* Gemini.toRequest(gemini.value)).warnings)).toEqual([])
    }))
})
