/**
 * Every request-side item and block type of the official SDKs, read and
 * written back.
 *
 * Each instance is typed by the SDK's own declaration (`npm run typecheck`
 * fails if it stops fitting), fills the documented fields, nested shapes
 * included, and sits in a valid conversation. For each one:
 *
 * - read, then written back to the same provider, it is what was sent;
 * - nothing throws or dies;
 * - written to each other provider, every value it holds is carried, or a
 *   warning says what was left out;
 * - the conversation read goes through the message codec unchanged.
 *
 * Types read from the installed SDKs: openai 7.59.0
 * (resources/chat/completions, resources/responses), @anthropic-ai/sdk 1.14.0
 * (resources/messages), @google/genai 3.3.0 (Part).
 */
import { assert, describe, it } from "@effect/vitest"
import type * as AnthropicSdk from "@anthropic-ai/sdk/resources/messages"
import type * as AnthropicBeta from "@anthropic-ai/sdk/resources/beta/messages/messages"
import type * as GoogleGenai from "@google/genai"
import type * as ChatSdk from "openai/resources/chat/completions"
import type * as ResponsesSdk from "openai/resources/responses/responses"
import { Cause, Effect, Exit } from "effect"
import { Message } from "../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../src/providers/index.js"
import type { Converted } from "../src/providers/Conversion.js"
import { firstDifference, normalize } from "./providers/adapterHelpers.js"

type Provider = "chat" | "responses" | "anthropic" | "gemini"

interface Warning {
  readonly _tag: string
  readonly message: string
  readonly index?: number | undefined
  readonly blockIndex?: number | undefined
}

const run = <A>(effect: Effect.Effect<Converted<A>, unknown>, what: string): { readonly value: A; readonly warnings: ReadonlyArray<Warning> } => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isFailure(exit)) return assert.fail(`${what} failed: ${Cause.pretty(exit.cause)}`)
  return exit.value
}

const read = (provider: Provider, input: unknown) => {
  switch (provider) {
    case "chat":
      return run(OpenAiChat.fromMessages(input), `reading ${provider}`)
    case "responses":
      return run(OpenAiResponses.fromMessages(input), `reading ${provider}`)
    case "anthropic":
      return run(Anthropic.fromMessages(input), `reading ${provider}`)
    case "gemini":
      return run(Gemini.fromMessages(input), `reading ${provider}`)
  }
}

const write = (provider: Provider, messages: ReadonlyArray<Message.Message>): { readonly value: unknown; readonly warnings: ReadonlyArray<Warning> } => {
  switch (provider) {
    case "chat":
      return run(OpenAiChat.toMessages(messages), `writing ${provider}`)
    case "responses":
      return run(OpenAiResponses.toMessages(messages), `writing ${provider}`)
    case "anthropic":
      return run(Anthropic.toMessages(messages), `writing ${provider}`)
    case "gemini":
      return run(Gemini.toMessages(messages), `writing ${provider}`)
  }
}

const providers: ReadonlyArray<Provider> = ["chat", "responses", "anthropic", "gemini"]

/** Warnings that report no loss. */
const lossless = new Set(["RepairedToolArguments", "UnknownProviderField"])

/** The string values of a JSON value, and the strings inside JSON text among them. */
const leaves = (value: unknown, out: Array<string> = []): Array<string> => {
  if (typeof value === "string") out.push(value)
  else if (Array.isArray(value)) for (const v of value) leaves(v, out)
  else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) leaves(v, out)
  return out
}

/** Whether `text` appears in a written payload (as a string, or inside JSON text or base64 there). */
const carried = (payload: string, text: string): boolean => payload.includes(JSON.stringify(text).slice(1, -1)) || payload.includes(text)

/** A message's JSON without what is another provider's replay data to every other format. */
const withoutReplayData = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutReplayData)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (k !== "providerOptions" && k !== "metadata" && k !== "itemId" && k !== "encryptedContent") out[k] = withoutReplayData(v)
  }
  return out
}

interface Located {
  readonly mark: string
  readonly index: number
  readonly blockIndex: number | undefined
}

/** Where each mark sits in the conversation read: its message, and its block there (`undefined` for a message field). */
const locate = (encoded: ReadonlyArray<Message.Encoded>, marks: ReadonlyArray<string>): Array<Located> => {
  const out: Array<Located> = []
  encoded.forEach((message, index) => {
    const { content, ...fields } = message as { readonly content: unknown }
    const own = JSON.stringify(withoutReplayData(fields))
    for (const mark of marks) if (carried(own, mark)) out.push({ mark, index, blockIndex: undefined })
    if (!Array.isArray(content)) return
    content.forEach((block: unknown, blockIndex) => {
      const held = JSON.stringify(withoutReplayData(block))
      for (const mark of marks) if (carried(held, mark)) out.push({ mark, index, blockIndex })
    })
  })
  return out
}

interface Case {
  readonly name: string
  readonly provider: Provider
  readonly input: unknown
  /** Values (strings of the instance) that mark it: each must reach another provider or be reported left out. */
  readonly marks: ReadonlyArray<string>
  /** What comes back where the README says the input is normalised; else the input itself. */
  readonly expected?: unknown
}

const check = (c: Case): void => {
  const original = JSON.parse(JSON.stringify(c.input))
  const got = read(c.provider, c.input)
  // the input is not changed by reading it
  assert.deepStrictEqual(JSON.parse(JSON.stringify(c.input)), original)
  assert.deepStrictEqual(got.warnings.filter((w) => !lossless.has(w._tag)).map((w) => w.message), [], "reading reports no loss")
  // (a) written back to the same provider: what was sent
  const back = write(c.provider, got.value)
  assert.deepStrictEqual(back.warnings.map((w) => w.message), [], "writing back reports nothing")
  const expected = c.expected === undefined ? original : JSON.parse(JSON.stringify(c.expected))
  // Responses comes back with explicit nulls aside, as the README says
  const comparable = c.provider === "responses" ? normalize : (v: unknown) => v
  const difference = firstDifference(comparable(JSON.parse(JSON.stringify(back.value))), comparable(expected))
  assert.isUndefined(difference, `${c.name} written back: ${difference}`)
  // (d) the codec keeps the conversation as read
  const encoded = Message.encodeAll(got.value)
  const decoded = Effect.runSync(Message.decodeAll(JSON.parse(JSON.stringify(encoded))))
  assert.deepStrictEqual(JSON.parse(JSON.stringify(Message.encodeAll(decoded))), JSON.parse(JSON.stringify(encoded)))
  assert.isUndefined(firstDifference(comparable(JSON.parse(JSON.stringify(write(c.provider, decoded).value))), comparable(expected)), "decoded then written")
  // (c) to every other provider: what the model holds is carried, or a warning names its message or block
  // (other providers' replay data, `providerOptions` included, is ignored without a warning, as documented)
  const located = locate(encoded, c.marks)
  for (const other of providers) {
    if (other === c.provider) continue
    const out = write(other, got.value)
    const losses = out.warnings.filter((w) => !lossless.has(w._tag))
    const payload = JSON.stringify(out.value)
    const silent = located.filter((l) =>
      !carried(payload, l.mark) &&
      !losses.some((w) => w.index === l.index && (w.blockIndex === undefined || l.blockIndex === undefined || w.blockIndex === l.blockIndex))
    )
    assert.deepStrictEqual(silent, [], `${c.name} -> ${other}: left out without a warning`)
  }
}

const marksOf = (value: unknown): Array<string> => leaves(value).filter((s) => s.includes("M:"))

const table = (provider: Provider, cases: Record<string, unknown>): Array<Case> =>
  Object.entries(cases).map(([name, input]) => ({ name, provider, input, marks: marksOf(input) }))

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
const PDF = "JVBERi0xLjQKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK"

// ---------------------------------------------------------------------------
// Anthropic Messages: ContentBlockParam and every member
// ---------------------------------------------------------------------------

const cache: AnthropicSdk.CacheControlEphemeral = { type: "ephemeral", ttl: "5m" }

const anthropicCitations: Array<AnthropicSdk.TextCitationParam> = [
  { type: "char_location", cited_text: "M:cited chars", document_index: 0, document_title: "M:Doc", start_char_index: 0, end_char_index: 12 },
  { type: "page_location", cited_text: "M:cited page", document_index: 0, document_title: null, start_page_number: 1, end_page_number: 2 },
  { type: "content_block_location", cited_text: "M:cited block", document_index: 1, document_title: "Blocks", start_block_index: 0, end_block_index: 1 },
  { type: "web_search_result_location", cited_text: "M:cited web", encrypted_index: "EqgfCioIARgBIiQ", title: "Result", url: "https://example.com/r" },
  { type: "search_result_location", cited_text: "M:cited result", search_result_index: 0, source: "https://example.com/s", title: "Found", start_block_index: 0, end_block_index: 0 }
]

const userAsks = { role: "user", content: "M:Please look." } as const satisfies AnthropicSdk.MessageParam

/** A user turn holding `blocks`, answered by the assistant. */
const anthropicUser = (...blocks: Array<AnthropicSdk.ContentBlockParam>): AnthropicSdk.MessageCreateParams["messages"] => [
  { role: "user", content: blocks },
  { role: "assistant", content: [{ type: "text", text: "M:Done." }] }
]

/** An assistant turn holding `blocks`, after a user question. */
const anthropicAssistant = (...blocks: Array<AnthropicSdk.ContentBlockParam>): AnthropicSdk.MessageCreateParams["messages"] => [
  userAsks,
  { role: "assistant", content: blocks }
]

const serverCall = (name: AnthropicSdk.ServerToolUseBlockParam["name"], id: string, input: Record<string, unknown>): AnthropicSdk.ServerToolUseBlockParam => ({
  type: "server_tool_use",
  id,
  name,
  input,
  cache_control: cache,
  caller: { type: "direct" }
})

const anthropicCases = {
  text: anthropicUser({ type: "text", text: "M:Hello there", cache_control: cache }),
  "text with citations": anthropicAssistant({ type: "text", text: "M:As cited.", citations: anthropicCitations, cache_control: null }),
  "image (base64)": anthropicUser({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG }, cache_control: cache, transformations: { oversized_image: "downsize" } }),
  "image (url)": anthropicUser({ type: "image", source: { type: "url", url: "https://example.com/M:cat.png" } }),
  "image (file)": anthropicUser({ type: "image", source: { type: "file", file_id: "file_M:img" } }),
  "document (base64 pdf)": anthropicUser({
    type: "document",
    source: { type: "base64", media_type: "application/pdf", data: PDF },
    cache_control: cache,
    citations: { enabled: true },
    context: "M:Quarterly numbers",
    title: "M:Report"
  }),
  "document (text)": anthropicUser({ type: "document", source: { type: "text", media_type: "text/plain", data: "M:Plain words" }, title: "M:Notes", context: null, citations: null }),
  "document (content)": anthropicUser({
    type: "document",
    source: { type: "content", content: [{ type: "text", text: "M:First chunk" }, { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }] },
    title: "M:Chunks"
  }),
  "document (content string)": anthropicUser({ type: "document", source: { type: "content", content: "M:One chunk" } }),
  "document (url pdf)": anthropicUser({ type: "document", source: { type: "url", url: "https://example.com/M:doc.pdf" }, citations: { enabled: false } }),
  "document (file)": anthropicUser({ type: "document", source: { type: "file", file_id: "file_M:doc" }, title: "M:Filed" }),
  search_result: anthropicUser({
    type: "search_result",
    source: "https://example.com/M:source",
    title: "M:Search title",
    content: [{ type: "text", text: "M:Search body", cache_control: cache }],
    cache_control: cache,
    citations: { enabled: true }
  }),
  "thinking and redacted_thinking": anthropicAssistant(
    { type: "thinking", thinking: "M:Let me think.", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds" },
    { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj" },
    { type: "text", text: "M:Answer." }
  ),
  "tool_use and tool_result": [
    userAsks,
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_01A", name: "get_weather", input: { city: "M:Paris", days: 2 }, cache_control: cache, caller: { type: "direct" } }]
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01A",
          is_error: false,
          cache_control: cache,
          content: [
            { type: "text", text: "M:14 degrees", citations: null },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
            { type: "search_result", source: "https://example.com/M:w", title: "M:Forecast", content: [{ type: "text", text: "M:Sunny" }] },
            { type: "document", source: { type: "text", media_type: "text/plain", data: "M:Raw forecast" } },
            { type: "tool_reference", tool_name: "M:other_tool" }
          ]
        }
      ]
    },
    { role: "assistant", content: "M:It is 14 degrees." }
  ],
  "tool_use called by code execution, tool_result string": [
    userAsks,
    {
      role: "assistant",
      content: [
        serverCall("code_execution", "srvtoolu_01C", { code: "M:print(get_weather())" }),
        { type: "tool_use", id: "toolu_01B", name: "get_weather", input: { city: "M:Oslo" }, caller: { type: "code_execution_20250825", tool_id: "srvtoolu_01C" } }
      ]
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01B", content: "M:3 degrees", is_error: true }] },
    { role: "assistant", content: "M:Cold." }
  ],
  "server_tool_use and web_search_tool_result": anthropicAssistant(
    serverCall("web_search", "srvtoolu_01W", { query: "M:weather paris" }),
    {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_01W",
      cache_control: cache,
      content: [{ type: "web_search_result", url: "https://example.com/M:w", title: "M:Weather", encrypted_content: "EpwMCioIARgBIiQ", page_age: "2 days ago" }]
    },
    { type: "text", text: "M:Found it." }
  ),
  "web_search_tool_result error": anthropicAssistant(
    serverCall("web_search", "srvtoolu_01E", { query: "M:nothing" }),
    { type: "web_search_tool_result", tool_use_id: "srvtoolu_01E", content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" } },
    { type: "text", text: "M:No luck." }
  ),
  web_fetch_tool_result: anthropicAssistant(
    serverCall("web_fetch", "srvtoolu_01F", { url: "https://example.com/M:page" }),
    {
      type: "web_fetch_tool_result",
      tool_use_id: "srvtoolu_01F",
      caller: { type: "direct" },
      content: {
        type: "web_fetch_result",
        url: "https://example.com/M:page",
        retrieved_at: "2026-01-01T00:00:00Z",
        content: { type: "document", source: { type: "text", media_type: "text/plain", data: "M:Page text" }, title: "M:Page", citations: { enabled: true } }
      }
    },
    { type: "web_fetch_tool_result", tool_use_id: "srvtoolu_01F", content: { type: "web_fetch_tool_result_error", error_code: "url_not_accessible" } },
    { type: "text", text: "M:Fetched." }
  ),
  code_execution_tool_result: anthropicAssistant(
    serverCall("code_execution", "srvtoolu_01X", { code: "M:print(1)" }),
    {
      type: "code_execution_tool_result",
      tool_use_id: "srvtoolu_01X",
      cache_control: cache,
      content: { type: "code_execution_result", stdout: "M:1", stderr: "M:warn", return_code: 0, content: [{ type: "code_execution_output", file_id: "file_M:out" }] }
    },
    { type: "text", text: "M:Ran it." }
  ),
  "code_execution_tool_result (encrypted)": anthropicAssistant(
    serverCall("code_execution", "srvtoolu_01Y", { code: "M:print(2)" }),
    {
      type: "code_execution_tool_result",
      tool_use_id: "srvtoolu_01Y",
      content: { type: "encrypted_code_execution_result", encrypted_stdout: "M:ENCRYPTED", stderr: "", return_code: 0, content: [] }
    },
    { type: "code_execution_tool_result", tool_use_id: "srvtoolu_01Y", content: { type: "code_execution_tool_result_error", error_code: "unavailable" } },
    { type: "text", text: "M:Ran again." }
  ),
  bash_code_execution_tool_result: anthropicAssistant(
    serverCall("bash_code_execution", "srvtoolu_01B", { command: "M:ls" }),
    {
      type: "bash_code_execution_tool_result",
      tool_use_id: "srvtoolu_01B",
      cache_control: cache,
      content: { type: "bash_code_execution_result", stdout: "M:a.txt", stderr: "", return_code: 0, content: [{ type: "bash_code_execution_output", file_id: "file_M:bash" }] }
    },
    { type: "bash_code_execution_tool_result", tool_use_id: "srvtoolu_01B", content: { type: "bash_code_execution_tool_result_error", error_code: "output_file_too_large" } },
    { type: "text", text: "M:Listed." }
  ),
  text_editor_code_execution_tool_result: anthropicAssistant(
    serverCall("text_editor_code_execution", "srvtoolu_01T", { command: "view", path: "M:/a.txt" }),
    {
      type: "text_editor_code_execution_tool_result",
      tool_use_id: "srvtoolu_01T",
      content: { type: "text_editor_code_execution_view_result", content: "M:line one", file_type: "text", num_lines: 1, start_line: 1, total_lines: 1 }
    },
    { type: "text_editor_code_execution_tool_result", tool_use_id: "srvtoolu_01T", content: { type: "text_editor_code_execution_create_result", is_file_update: false } },
    {
      type: "text_editor_code_execution_tool_result",
      tool_use_id: "srvtoolu_01T",
      content: { type: "text_editor_code_execution_str_replace_result", lines: ["M:new line"], new_lines: 1, new_start: 1, old_lines: 1, old_start: 1 }
    },
    { type: "text_editor_code_execution_tool_result", tool_use_id: "srvtoolu_01T", content: { type: "text_editor_code_execution_tool_result_error", error_code: "file_not_found", error_message: "M:no such file" } },
    { type: "text", text: "M:Edited." }
  ),
  tool_search_tool_result: anthropicAssistant(
    serverCall("tool_search_tool_regex", "srvtoolu_01S", { query: "M:weather" }),
    { type: "tool_search_tool_result", tool_use_id: "srvtoolu_01S", cache_control: cache, content: { type: "tool_search_tool_search_result", tool_references: [{ type: "tool_reference", tool_name: "M:get_weather" }] } },
    { type: "tool_search_tool_result", tool_use_id: "srvtoolu_01S", content: { type: "tool_search_tool_result_error", error_code: "unavailable", error_message: "M:down" } },
    { type: "text", text: "M:Searched." }
  ),
  "tool_use and tool_result of a toolset, result without content": [
    userAsks,
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_01T", name: "search", input: {}, toolset_name: "M:docs" }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01T", toolset_name: "M:docs" }] },
    { role: "assistant", content: "M:Nothing." }
  ],
  container_upload: anthropicUser({ type: "container_upload", file_id: "file_M:upload", cache_control: cache }, { type: "text", text: "M:Use this file." })
} satisfies Record<string, AnthropicSdk.MessageCreateParams["messages"]>

describe("Anthropic Messages: every ContentBlockParam", () => {
  for (const c of table("anthropic", anthropicCases)) {
    it(c.name, () => check({ ...c, input: { system: "M:Be brief.", messages: c.input } }))
  }
})

/** The beta's block types that the main union does not have (MCP connector, compaction, advisor, tool changes). */
const betaTurn = (...blocks: Array<AnthropicBeta.BetaContentBlockParam>): Array<AnthropicBeta.BetaMessageParam> => [
  userAsks,
  { role: "assistant", content: blocks }
]

const anthropicBetaCases = {
  "mcp_tool_use and mcp_tool_result": betaTurn(
    { type: "mcp_tool_use", id: "mcptoolu_01", name: "ask", server_name: "M:deepwiki", input: { q: "M:why" }, cache_control: cache },
    { type: "mcp_tool_result", tool_use_id: "mcptoolu_01", is_error: false, cache_control: cache, content: [{ type: "text", text: "M:because" }] },
    { type: "mcp_tool_result", tool_use_id: "mcptoolu_01", is_error: true, content: "M:failed" },
    { type: "text", text: "M:Asked." }
  ),
  "mcp_tool_listing": betaTurn(
    { type: "mcp_tool_listing", mcp_server_name: "M:deepwiki", tools: [{ name: "M:ask", description: "M:Ask", input_schema: { type: "object" } }] },
    { type: "text", text: "M:Listed." }
  ),
  "compaction with tool changes": betaTurn(
    {
      type: "compaction",
      content: "M:Summary so far",
      encrypted_content: "M:enc",
      signature: "sig_M:1",
      cache_control: cache,
      tool_changes: [
        { type: "tool_addition", tool: { type: "tool_reference", name: "M:added" } },
        { type: "tool_removal", tool: { type: "mcp_toolset_reference", server_name: "M:gone" } }
      ]
    },
    { type: "text", text: "M:Compacted." }
  ),
  "tool_addition and tool_removal": betaTurn(
    { type: "tool_addition", tool: { type: "mcp_tool_reference", name: "M:ask", server_name: "M:deepwiki" }, cache_control: cache },
    { type: "tool_removal", tool: { type: "tool_reference", name: "M:old" } },
    { type: "text", text: "M:Changed." }
  ),
  "advisor server_tool_use and advisor_tool_result": betaTurn(
    { type: "server_tool_use", id: "srvtoolu_01V", name: "advisor", input: { question: "M:plan?" } },
    { type: "advisor_tool_result", tool_use_id: "srvtoolu_01V", cache_control: cache, content: { type: "advisor_result", text: "M:Do it.", stop_reason: "end_turn" } },
    { type: "text", text: "M:Advised." }
  ),
  fallback: betaTurn({ type: "fallback", from: { model: "claude-opus-4-5" }, to: { model: "claude-sonnet-4-5" }, trigger: { reason: "M:overloaded" } }, { type: "text", text: "M:Fell back." })
} satisfies Record<string, Array<AnthropicBeta.BetaMessageParam>>

describe("Anthropic Messages (beta): the block types only the beta has", () => {
  for (const c of table("anthropic", anthropicBetaCases)) it(c.name, () => check({ ...c, input: { messages: c.input } }))
})

// ---------------------------------------------------------------------------
// OpenAI Responses: ResponseInputItem and every member
// ---------------------------------------------------------------------------

type Item = ResponsesSdk.ResponseInputItem

const breakpoint = { mode: "explicit", ttl: "30m" } as const
const userItem: Item = { type: "message", role: "user", content: [{ type: "input_text", text: "M:Please look." }] }
const answer: Item = {
  type: "message",
  id: "msg_end",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "M:Done.", annotations: [] }]
}
/** `items` after a user question, answered. */
const responses = (...items: Array<Item>): Array<Item> => [userItem, ...items, answer]

const responsesCases = {
  "EasyInputMessage (string)": [{ role: "developer", content: "M:Be brief." }, { role: "user", content: "M:Hi" }, { role: "assistant", content: "M:Hello", phase: "final_answer" }],
  "EasyInputMessage (typed)": [{ type: "message", role: "system", content: "M:Be brief." }, { type: "message", role: "user", content: "M:Hi" }],
  "Message with every input content": [
    {
      type: "message",
      role: "user",
      status: "completed",
      content: [
        { type: "input_text", text: "M:Look at these", prompt_cache_breakpoint: breakpoint },
        { type: "input_image", detail: "high", image_url: "https://example.com/M:a.png" },
        { type: "input_image", detail: "auto", file_id: "file_M:img" },
        { type: "input_image", detail: "low", image_url: `data:image/png;base64,${PNG}` },
        { type: "input_file", filename: "M:report.pdf", file_data: `data:application/pdf;base64,${PDF}`, detail: "high" },
        { type: "input_file", file_id: "file_M:doc" },
        { type: "input_file", file_url: "https://example.com/M:doc.pdf", filename: "M:remote.pdf" }
      ]
    },
    answer
  ],
  "ResponseOutputMessage with annotations, logprobs, refusal": [
    userItem,
    {
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      phase: "commentary",
      content: [
        {
          type: "output_text",
          text: "M:See the file.",
          annotations: [
            { type: "file_citation", file_id: "file_M:cit", filename: "M:a.txt", index: 3 },
            { type: "url_citation", url: "https://example.com/M:u", title: "M:Page", start_index: 0, end_index: 4 },
            { type: "container_file_citation", container_id: "cntr_M:1", file_id: "file_M:c", filename: "M:c.csv", start_index: 0, end_index: 4 },
            { type: "file_path", file_id: "file_M:p", index: 1 }
          ],
          logprobs: [{ token: "See", bytes: [83, 101, 101], logprob: -0.1, top_logprobs: [{ token: "See", bytes: [83, 101, 101], logprob: -0.1 }] }]
        },
        { type: "refusal", refusal: "M:I will not." }
      ]
    }
  ],
  "function_call and function_call_output (string)": responses(
    {
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "get_weather",
      namespace: "weather",
      arguments: "{\"city\":\"M:Paris\"}",
      status: "completed",
      caller: { type: "direct" }
    },
    { type: "function_call_output", id: "fco_1", call_id: "call_1", output: "M:14 degrees", status: "completed", caller: { type: "direct" } }
  ),
  "function_call_output (content list)": responses(
    { type: "function_call", call_id: "call_2", name: "render", arguments: "{}" },
    {
      type: "function_call_output",
      call_id: "call_2",
      output: [
        { type: "input_text", text: "M:Rendered", prompt_cache_breakpoint: null },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "low" },
        { type: "input_file", file_id: "file_M:out", filename: "M:out.pdf" }
      ]
    }
  ),
  "custom_tool_call and custom_tool_call_output": responses(
    { type: "custom_tool_call", id: "ctc_1", call_id: "call_c", name: "run_sql", namespace: "db", input: "M:SELECT 1", caller: { type: "direct" } },
    { type: "custom_tool_call_output", id: "ctco_1", call_id: "call_c", output: "M:1 row", caller: { type: "direct" } }
  ),
  "custom_tool_call_output (content list)": responses(
    { type: "custom_tool_call", call_id: "call_d", name: "shot", input: "M:now" },
    { type: "custom_tool_call_output", call_id: "call_d", output: [{ type: "input_text", text: "M:shot taken" }, { type: "input_image", detail: "auto", file_id: "file_M:shot" }] }
  ),
  "reasoning": responses(
    {
      type: "reasoning",
      id: "rs_1",
      status: "completed",
      summary: [{ type: "summary_text", text: "M:Thinking about it." }],
      content: [{ type: "reasoning_text", text: "M:Raw reasoning." }],
      encrypted_content: "gAAAAABo_encrypted"
    }
  ),
  "file_search_call": responses({
    type: "file_search_call",
    id: "fs_1",
    status: "completed",
    queries: ["M:quarterly"],
    results: [{ file_id: "file_M:fs", filename: "M:q.pdf", score: 0.9, text: "M:Revenue grew", attributes: { year: 2026 } }]
  }),
  "computer_call and computer_call_output": responses(
    {
      type: "computer_call",
      id: "cu_1",
      call_id: "call_cu",
      status: "completed",
      pending_safety_checks: [{ id: "sc_1", code: "malicious_instructions", message: "M:Careful" }],
      action: { type: "click", button: "left", x: 10, y: 20, keys: ["shift"] }
    },
    {
      type: "computer_call_output",
      id: "cuo_1",
      call_id: "call_cu",
      status: "completed",
      output: { type: "computer_screenshot", image_url: `data:image/png;base64,${PNG}`, file_id: "file_M:screen" },
      acknowledged_safety_checks: [{ id: "sc_1", code: "malicious_instructions", message: "M:Careful" }]
    }
  ),
  "web_search_call": responses(
    { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "M:weather", queries: ["M:weather"], sources: [{ type: "url", url: "https://example.com/M:src" }] } },
    { type: "web_search_call", id: "ws_2", status: "completed", action: { type: "open_page", url: "https://example.com/M:open" } },
    { type: "web_search_call", id: "ws_3", status: "completed", action: { type: "find_in_page", url: "https://example.com/M:find", pattern: "M:rain" } }
  ),
  "tool_search_call and tool_search_output": responses(
    { type: "tool_search_call", id: "ts_1", call_id: "call_ts", execution: "client", status: "completed", arguments: { query: "M:weather tools" } },
    {
      type: "tool_search_output",
      id: "tso_1",
      call_id: "call_ts",
      execution: "client",
      status: "completed",
      tools: [{ type: "function", name: "get_weather", description: "M:Weather", parameters: { type: "object", properties: {} }, strict: true }]
    }
  ),
  "additional_tools": responses({
    type: "additional_tools",
    id: "at_1",
    role: "developer",
    tools: [{ type: "function", name: "M:extra_tool", parameters: { type: "object" }, strict: false }]
  }),
  "configuration_update": responses({ type: "configuration_update", id: "cu_cfg", reasoning: { effort: "low" }, text: { format: { type: "text" } } }),
  "compaction": responses({ type: "compaction", id: "cmp_1", encrypted_content: "M:compacted" }),
  "image_generation_call": responses({
    type: "image_generation_call",
    id: "ig_1",
    status: "completed",
    result: PNG,
    action: "generate",
    background: "opaque",
    output_format: "png",
    quality: "high",
    revised_prompt: "M:A cat",
    size: "1024x1024"
  }),
  "code_interpreter_call": responses({
    type: "code_interpreter_call",
    id: "ci_1",
    status: "completed",
    container_id: "cntr_M:ci",
    code: "M:print(1)",
    outputs: [{ type: "logs", logs: "M:1" }, { type: "image", url: "https://example.com/M:plot.png" }]
  }),
  "local_shell_call and local_shell_call_output": responses(
    {
      type: "local_shell_call",
      id: "ls_1",
      call_id: "call_ls",
      status: "completed",
      action: { type: "exec", command: ["M:ls", "-l"], env: { HOME: "/home/M:me" }, timeout_ms: 1000, user: "root", working_directory: "/tmp" }
    },
    { type: "local_shell_call_output", id: "call_ls", output: "M:total 0", status: "completed" }
  ),
  "shell_call and shell_call_output": responses(
    {
      type: "shell_call",
      id: "sh_1",
      call_id: "call_sh",
      status: "completed",
      action: { commands: ["M:echo hi"], max_output_length: 100, timeout_ms: 1000 },
      environment: { type: "local" },
      caller: { type: "direct" }
    },
    {
      type: "shell_call_output",
      id: "sho_1",
      call_id: "call_sh",
      status: "completed",
      max_output_length: 100,
      caller: { type: "direct" },
      output: [{ stdout: "M:hi", stderr: "", outcome: { type: "exit", exit_code: 0 } }, { stdout: "", stderr: "M:slow", outcome: { type: "timeout" } }]
    }
  ),
  "apply_patch_call and apply_patch_call_output": responses(
    { type: "apply_patch_call", id: "ap_1", call_id: "call_ap", status: "completed", operation: { type: "update_file", path: "M:a.ts", diff: "M:@@ -1 +1 @@" }, caller: { type: "direct" } },
    { type: "apply_patch_call_output", id: "apo_1", call_id: "call_ap", status: "completed", output: "M:patched", caller: { type: "direct" } }
  ),
  "mcp_list_tools": responses({
    type: "mcp_list_tools",
    id: "ml_1",
    server_label: "M:deepwiki",
    tools: [{ name: "M:ask", description: "M:Ask a question", input_schema: { type: "object" }, annotations: { readOnly: true } }],
    error: null
  }),
  "mcp_approval_request and mcp_approval_response": responses(
    { type: "mcp_approval_request", id: "mcpr_1", server_label: "M:deepwiki", name: "ask", arguments: "{\"q\":\"M:why\"}" },
    { type: "mcp_approval_response", id: "mcpa_1", approval_request_id: "mcpr_1", approve: true, reason: "M:fine" }
  ),
  "mcp_call": responses({
    type: "mcp_call",
    id: "mc_1",
    server_label: "M:deepwiki",
    name: "ask",
    arguments: "{\"q\":\"M:why\"}",
    output: "M:because",
    status: "completed",
    approval_request_id: "mcpr_1",
    error: null
  }),
  "compaction_trigger": responses({ type: "compaction_trigger", id: "ct_1" }),
  "item_reference": responses({ type: "item_reference", id: "msg_M:earlier" }, { id: "msg_M:untyped" }, { id: "msg_M:nulltyped", type: null }),
  "EasyInputMessage of an assistant with input parts": [userItem, { role: "assistant", content: [{ type: "input_text", text: "M:Earlier answer" }] }, userItem, answer],
  "reasoning without summary text or encrypted content": responses({ type: "reasoning", id: "rs_2", summary: [], encrypted_content: null }),
  "computer_call with a batch of actions": responses(
    {
      type: "computer_call",
      id: "cu_2",
      call_id: "call_cu2",
      status: "completed",
      pending_safety_checks: [],
      actions: [{ type: "type", text: "M:hello" }, { type: "scroll", x: 1, y: 2, scroll_x: 0, scroll_y: 10 }, { type: "wait" }]
    },
    { type: "computer_call_output", call_id: "call_cu2", output: { type: "computer_screenshot", file_id: "file_M:shot2" } }
  ),
  "apply_patch create and delete": responses(
    { type: "apply_patch_call", call_id: "call_ap2", status: "completed", operation: { type: "create_file", path: "M:new.ts", diff: "M:+x" } },
    { type: "apply_patch_call_output", call_id: "call_ap2", status: "failed", output: null },
    { type: "apply_patch_call", call_id: "call_ap3", status: "in_progress", operation: { type: "delete_file", path: "M:old.ts" } },
    { type: "apply_patch_call_output", call_id: "call_ap3", status: "completed" }
  ),
  "program and program_output": responses(
    { type: "program", id: "prog_1", call_id: "call_prog", code: "M:await tools.f()", fingerprint: "fp_1" },
    { type: "program_output", id: "progo_1", call_id: "call_prog", result: "M:42", status: "completed" }
  )
} satisfies Record<string, Array<Item>>

describe("OpenAI Responses: every ResponseInputItem", () => {
  for (const c of table("responses", responsesCases)) it(c.name, () => check(c))
})

// ---------------------------------------------------------------------------
// OpenAI Chat Completions: ChatCompletionMessageParam, its content parts and tool calls
// ---------------------------------------------------------------------------

type ChatMessage = ChatSdk.ChatCompletionMessageParam

const chatAsks: ChatMessage = { role: "user", content: "M:Please look." }
const chatDone: ChatMessage = { role: "assistant", content: "M:Done." }

const chatCases = {
  "developer and system (string and parts)": [
    { role: "developer", content: "M:Be brief.", name: "dev_M" },
    { role: "system", content: [{ type: "text", text: "M:Be kind." }], name: "sys_M" },
    chatAsks,
    chatDone
  ],
  "user with every content part": [
    {
      role: "user",
      name: "alice_M",
      content: [
        { type: "text", text: "M:Look", prompt_cache_breakpoint: { mode: "explicit", ttl: "30m" } },
        { type: "image_url", image_url: { url: "https://example.com/M:a.png", detail: "high" } },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}`, detail: "low" } },
        { type: "input_audio", input_audio: { data: "UklGRgAAAABXQVZF", format: "wav" } },
        { type: "file", file: { file_data: `data:application/pdf;base64,${PDF}`, filename: "M:report.pdf" } },
        { type: "file", file: { file_id: "file_M:doc" } }
      ]
    },
    chatDone
  ],
  "assistant with text and refusal parts, name, audio": [
    chatAsks,
    { role: "assistant", name: "bot_M", content: [{ type: "text", text: "M:Partly." }, { type: "refusal", refusal: "M:Not that part." }] },
    chatAsks,
    { role: "assistant", content: null, refusal: "M:No.", audio: { id: "audio_M:1" } }
  ],
  "function and custom tool calls, tool messages": [
    chatAsks,
    {
      role: "assistant",
      content: "M:Checking.",
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: "{\"city\":\"M:Paris\"}" } },
        { id: "call_2", type: "custom", custom: { name: "run_sql", input: "M:SELECT 1" } }
      ]
    },
    { role: "tool", tool_call_id: "call_1", content: "M:14 degrees" },
    { role: "tool", tool_call_id: "call_2", content: [{ type: "text", text: "M:1 row" }] },
    chatDone
  ],
  "deprecated function_call and function message": [
    chatAsks,
    { role: "assistant", content: null, function_call: { name: "get_weather", arguments: "{\"city\":\"M:Oslo\"}" } },
    { role: "function", name: "get_weather", content: "M:3 degrees" },
    chatDone
  ]
} satisfies Record<string, Array<ChatMessage>>

describe("OpenAI Chat: every ChatCompletionMessageParam", () => {
  for (const c of table("chat", chatCases)) it(c.name, () => check(c))
})

// ---------------------------------------------------------------------------
// Gemini: every field of Part
// ---------------------------------------------------------------------------

type Part = GoogleGenai.Part

const geminiAsks: GoogleGenai.Content = { role: "user", parts: [{ text: "M:Please look." }] }
const geminiDone: GoogleGenai.Content = { role: "model", parts: [{ text: "M:Done." }] }
const geminiUser = (...parts: Array<Part>): Array<GoogleGenai.Content> => [{ role: "user", parts }, geminiDone]
const geminiModel = (...parts: Array<Part>): Array<GoogleGenai.Content> => [geminiAsks, { role: "model", parts }]
const resolution = { level: "MEDIA_RESOLUTION_HIGH" as GoogleGenai.PartMediaResolutionLevel, numTokens: 280 }

const geminiCases = {
  "text with partMetadata": geminiUser({ text: "M:Hello", partMetadata: { source: "M:form" } }),
  "text with speechMetadata": geminiModel({ text: "M:Spoken", speechMetadata: { speaker: "M:Ann", style: "calm" } }),
  "thought with signature, text with signature": geminiModel(
    { text: "M:Let me think.", thought: true, thoughtSignature: "CiQBjz1rX8sig" },
    { text: "M:Answer.", thoughtSignature: "CiQBjz1rX8sig2" }
  ),
  "inlineData with videoMetadata and mediaResolution": geminiUser(
    { inlineData: { mimeType: "image/png", data: PNG, displayName: "M:dot.png" }, mediaResolution: resolution },
    { inlineData: { mimeType: "video/mp4", data: "AAAAGGZ0eXBtcDQy" }, videoMetadata: { startOffset: "1s", endOffset: "5s", fps: 2 } },
    { text: "M:What is this?" }
  ),
  fileData: geminiUser(
    { fileData: { fileUri: "https://generativelanguage.googleapis.com/v1beta/files/M:f1", mimeType: "application/pdf", displayName: "M:report.pdf" } },
    { fileData: { fileUri: "gs://bucket/M:clip.mp4", mimeType: "video/mp4" }, videoMetadata: { startOffset: "0s", endOffset: "2s" } }
  ),
  "functionCall and functionResponse": [
    geminiAsks,
    { role: "model", parts: [{ functionCall: { id: "fc_1", name: "get_weather", args: { city: "M:Paris" } }, thoughtSignature: "CiQBsig" }] },
    {
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "fc_1",
            name: "get_weather",
            response: { output: "M:14 degrees" },
            parts: [{ inlineData: { mimeType: "image/png", data: PNG, displayName: "M:chart.png" } }, { fileData: { fileUri: "gs://b/M:x.pdf", mimeType: "application/pdf" } }],
            scheduling: "WHEN_IDLE" as GoogleGenai.FunctionResponseScheduling,
            willContinue: false
          }
        }
      ]
    },
    geminiDone
  ],
  "functionCall streamed (partialArgs, willContinue)": [
    geminiAsks,
    {
      role: "model",
      parts: [{ functionCall: { id: "fc_2", name: "get_weather", args: { city: "M:Rome" }, partialArgs: [{ jsonPath: "$.city", stringValue: "M:Rome", willContinue: false }], willContinue: false } }]
    },
    { role: "user", parts: [{ functionResponse: { id: "fc_2", name: "get_weather", response: { error: "M:unavailable" } } }] },
    geminiDone
  ],
  "executableCode and codeExecutionResult": geminiModel(
    { executableCode: { id: "ex_1", language: "PYTHON" as GoogleGenai.Language, code: "M:print(1)" } },
    { codeExecutionResult: { id: "ex_1", outcome: "OUTCOME_OK" as GoogleGenai.Outcome, output: "M:1" } },
    { text: "M:Ran it." }
  ),
  "toolCall and toolResponse (built-in tools)": geminiModel(
    { toolCall: { id: "tc_1", toolType: "GOOGLE_SEARCH_WEB" as GoogleGenai.ToolType, args: { query: "M:weather" } } },
    { toolResponse: { id: "tc_1", toolType: "GOOGLE_SEARCH_WEB" as GoogleGenai.ToolType, response: { results: ["M:sunny"] } } },
    { text: "M:Sunny." }
  ),
  audioTranscription: geminiModel(
    { audioTranscription: { text: "M:hello there", finished: true, languageCode: "en", speakerLabel: "M:A", startOffset: "0s", endOffset: "1s", words: [{ word: "M:hello", startOffset: "0s", endOffset: "0.5s" }] } },
    { text: "M:Heard." }
  ),
  "an empty text carrying a signature": [geminiAsks, { role: "model", parts: [{ text: "M:Hello." }, { text: "", thoughtSignature: "CiQBend" }] }],
  mediaProcessing: geminiUser({ inlineData: { mimeType: "image/png", data: PNG }, mediaProcessing: "STATIC" as GoogleGenai.MediaProcessing }, { text: "M:Describe." })
} satisfies Record<string, Array<GoogleGenai.Content>>

describe("Gemini: every field of Part", () => {
  for (const c of table("gemini", geminiCases)) it(c.name, () => check({ ...c, input: { systemInstruction: { parts: [{ text: "M:Be brief." }] }, contents: c.input } }))

  it("a content without role (the SDK type's role is optional) comes back as a user content, as documented", () => {
    const contents: Array<GoogleGenai.Content> = [{ parts: [{ text: "M:Hi" }] }, geminiDone]
    check({ name: "no role", provider: "gemini", input: { contents }, marks: marksOf(contents), expected: { contents: [{ role: "user", parts: [{ text: "M:Hi" }] }, geminiDone] } })
  })
})

// ---------------------------------------------------------------------------
// gaps the tables above found
// ---------------------------------------------------------------------------

describe("what the audit found (Responses)", () => {
  it("Responses says an image's file name is left out (an input_image has none), in a message and in a tool result", () => {
    const image = { inlineData: { mimeType: "image/png", data: PNG, displayName: "dot.png" } }
    const { value } = read("gemini", {
      contents: [
        { role: "user", parts: [image] },
        { role: "model", parts: [{ functionCall: { id: "fc_1", name: "draw", args: {} } }] },
        { role: "user", parts: [{ functionResponse: { id: "fc_1", name: "draw", response: { output: "drawn" }, parts: [image] } }] }
      ]
    })
    const written = write("responses", value)
    assert.deepStrictEqual(written.warnings.map((w) => w.message), [
      "messages[0].content[0]: the file name of an image was left out: an input_image has none",
      "messages[2].content[0]: the file name of an image was left out: an input_image has none"
    ])
  })
})

describe("what the audit found (Gemini)", () => {
  it("Gemini says a document's citations setting is left out, as the other formats do", () => {
    const { value } = read("anthropic", [
      { role: "user", content: [{ type: "document", source: { type: "url", url: "https://example.com/a.pdf" }, citations: { enabled: true } }] }
    ])
    const written = write("gemini", value)
    assert.deepStrictEqual(written.warnings.map((w) => w.message), [
      "messages[0].content[0]: a document title, context or citations setting was left out: Gemini file parts have none"
    ])
  })
})
