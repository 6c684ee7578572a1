/**
 * A whole model request: the conversation plus what every call sends beside
 * it (tool definitions, tool choice, response format). An agent's prompt is
 * not only its messages: tool definitions are often most of a short request,
 * so counting and windowing need them too.
 *
 * Fields of a provider's request body that the model does not name
 * (`temperature`, `stream`, `reasoning`, ...) are kept per provider in
 * `providerOptions`, so a request body converted in and out comes back whole.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Block from "./Block.js"
import { copyJson, deepFreeze } from "./internal/json.js"
import * as Message from "./Message.js"

/**
 * A tool whose definition belongs to one provider: one it runs itself (web
 * search, code execution, file search, Google Search, MCP servers) or one
 * whose schema it defines (Anthropic's bash and text editor tools).
 * `provider` is the wire format it belongs to (`"anthropic"`,
 * `"openai-responses"`, `"gemini"`), `type` its type there
 * (`"web_search_20250305"`, `"web_search"`, `"googleSearch"`), `config` the
 * rest of its definition as sent. It is written back only to its own
 * provider; every other adapter reports it and leaves it out.
 *
 * @example
 * const search = Request.providerTool("web_search", "anthropic", "web_search_20250305", { max_uses: 5 })
 * search.providerDefined // { provider: "anthropic", type: "web_search_20250305", config: { max_uses: 5 } }
 *
 * @since 0.1.0
 */
export const ProviderDefined = Schema.Struct({
  provider: Schema.String,
  type: Schema.String,
  config: Schema.optionalKey(Block.JsonObject)
})

/**
 * The provider-defined part of a tool definition, as a type.
 *
 * @since 0.1.0
 */
export type ProviderDefined = typeof ProviderDefined.Type

/**
 * A tool the model may call: its `name`, a `description`, its parameters as a
 * JSON Schema object, whether the provider should enforce the schema
 * (`strict`), and per-provider options (e.g. Anthropic `cache_control`).
 * `parameters` is absent for a tool that takes none. A tool a provider
 * defines (`providerDefined`) keeps its place among the others.
 *
 * @example
 * const weather = new Request.ToolDefinition({
 *   name: "get_weather",
 *   description: "Current weather for a city",
 *   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 *   strict: true
 * })
 * Request.make(messages, { tools: [weather] })
 *
 * @since 0.1.0
 */
export class ToolDefinition extends Schema.Class<ToolDefinition>("ToolDefinition")({
  name: Schema.String,
  description: Schema.optionalKey(Schema.String),
  parameters: Schema.optionalKey(Block.JsonObject),
  strict: Schema.optionalKey(Schema.Boolean),
  providerDefined: Schema.optionalKey(ProviderDefined),
  providerOptions: Schema.optionalKey(Block.ProviderOptions)
}) {}

/**
 * The model must call this tool.
 *
 * @example
 * Request.make(messages, { tools: [Request.tool("get_weather")], toolChoice: { _tag: "Tool", name: "get_weather" } })
 *
 * @since 0.1.0
 */
export const NamedToolChoice = Schema.TaggedStruct("Tool", { name: Schema.String })

/**
 * Whether and which tool the model should call: `auto` (it decides), `none`,
 * `required` (some tool), or one tool by name.
 *
 * @example
 * const choice: Request.ToolChoice = messages.length === 0 ? "none" : { _tag: "Tool", name: "get_weather" }
 * Request.make(messages, { tools: [Request.tool("get_weather")], toolChoice: choice })
 *
 * @since 0.1.0
 */
export const ToolChoice = Schema.Union([Schema.Literals(["auto", "none", "required"]), NamedToolChoice])

/**
 * A tool choice: `"auto"`, `"none"`, `"required"`, or
 * `{ _tag: "Tool", name }`.
 *
 * @since 0.1.0
 */
export type ToolChoice = typeof ToolChoice.Type

/**
 * The shape of the answer: free text, any JSON object, or JSON matching a
 * schema.
 *
 * @example
 * const format: Request.ResponseFormat = {
 *   _tag: "JsonSchema",
 *   name: "weather",
 *   schema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] },
 *   strict: true
 * }
 * Request.make(messages, { responseFormat: format })
 *
 * @since 0.1.0
 */
export const ResponseFormat = Schema.Union([
  Schema.TaggedStruct("Text", {}),
  Schema.TaggedStruct("JsonObject", {}),
  Schema.TaggedStruct("JsonSchema", {
    name: Schema.String,
    schema: Block.JsonObject,
    description: Schema.optionalKey(Schema.String),
    strict: Schema.optionalKey(Schema.Boolean)
  })
])

/**
 * A response format: `{ _tag: "Text" }`, `{ _tag: "JsonObject" }` or
 * `{ _tag: "JsonSchema", name, schema, ... }`.
 *
 * @since 0.1.0
 */
export type ResponseFormat = typeof ResponseFormat.Type

/**
 * A request: the messages, and optionally the model id, the tools, the tool
 * choice, whether parallel tool calls are allowed, the response format, the
 * most tokens the answer may have (`maxOutputTokens`: Chat
 * `max_completion_tokens`, Anthropic `max_tokens`, Responses
 * `max_output_tokens`, Gemini `generationConfig.maxOutputTokens`), and the
 * provider-specific fields of the request body, per provider.
 *
 * @example
 * const request = new Request.Request({
 *   model: "gpt-4o",
 *   messages: [Message.user("Weather in Oslo?")],
 *   maxOutputTokens: 1024,
 *   providerOptions: { "openai-chat": { temperature: 0.2 } }
 * })
 * const body = Schema.encodeSync(Request.Request)(request) // JSON-ready
 *
 * @since 0.1.0
 */
export class Request extends Schema.Class<Request>("Request")({
  model: Schema.optionalKey(Schema.String),
  messages: Schema.Array(Message.Message),
  tools: Schema.optionalKey(Schema.Array(ToolDefinition)),
  toolChoice: Schema.optionalKey(ToolChoice),
  parallelToolCalls: Schema.optionalKey(Schema.Boolean),
  responseFormat: Schema.optionalKey(ResponseFormat),
  maxOutputTokens: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  providerOptions: Schema.optionalKey(Block.ProviderOptions)
}) {}

/**
 * Whether a value read from a request body is an output limit the model
 * types as `maxOutputTokens`: a whole, non-negative number of tokens, within
 * the safe integers (a larger figure stays in the body as it was).
 *
 * @example
 * Request.isTokenLimit(4096) // true
 * Request.isTokenLimit(-1) // false
 * Request.isTokenLimit(1e21) // false
 * Request.isTokenLimit("4096") // false
 *
 * @since 0.1.0
 */
export const isTokenLimit = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0

/**
 * A tool definition.
 *
 * @example
 * Request.tool("get_weather", {
 *   description: "Current weather for a city",
 *   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 * })
 *
 * @since 0.1.0
 */
export const tool = (
  name: string,
  options?: Omit<ConstructorParameters<typeof ToolDefinition>[0], "name">
): ToolDefinition => deepFreeze(new ToolDefinition({ ...copyOfJson(options), name }))

/**
 * A tool a provider defines: its name, the provider (`"anthropic"`,
 * `"openai-responses"`, `"gemini"`), its type there and the rest of its
 * definition.
 *
 * @example
 * Request.providerTool("web_search", "anthropic", "web_search_20250305", { max_uses: 5 })
 * Request.providerTool("googleSearch", "gemini", "googleSearch")
 *
 * @since 0.1.0
 */
export const providerTool = (
  name: string,
  provider: string,
  type: string,
  config?: Block.JsonObject,
  options?: Omit<ConstructorParameters<typeof ToolDefinition>[0], "name" | "providerDefined">
): ToolDefinition => deepFreeze(new ToolDefinition({ ...copyOfJson(options), name, providerDefined: { provider, type, ...(config === undefined ? {} : { config: copyOfJson(config) }) } }))

/**
 * A request from messages and options.
 *
 * @example
 * const weather = Request.tool("get_weather", {
 *   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 * })
 * Request.make([Message.user("Weather in Oslo?")], { model: "gpt-4o", tools: [weather], toolChoice: "auto" })
 *
 * @since 0.1.0
 */
export const make = (
  messages: ReadonlyArray<Message.Message>,
  options?: Omit<ConstructorParameters<typeof Request>[0], "messages">
): Request => {
  const { tools, ...rest } = options ?? {}
  return deepFreeze(new Request({ ...copyOfJson(rest), ...(tools === undefined ? {} : { tools: tools.map(copiedTool) }), messages: messages.slice() }))
}

/**
 * A copy of the JSON the caller gave (a schema, options): a request and its tools are frozen, which must not freeze
 * what the caller still holds, such as a schema shared by several tools. A value that is not JSON is left to the class.
 */
const copyOfJson = <A>(value: A): A => {
  if (typeof value !== "object" || value === null) return value
  const copy = copyJson(value, { freeze: false })
  return "value" in copy ? (copy.value as A) : value
}

/** A tool built with `new` (not frozen), with its JSON copied; one `tool` or `providerTool` made is already its own. */
const copiedTool = (t: ToolDefinition): ToolDefinition => (Object.isFrozen(t) ? t : new ToolDefinition(copyOfJson({ ...t })))
