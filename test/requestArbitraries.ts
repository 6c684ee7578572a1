/**
 * Generators of realistic whole requests for property tests: tool
 * definitions whose parameters are the JSON Schema agents really send
 * (strings with descriptions and enums, integer enums, arrays, nested
 * objects, optional and defaulted properties, `anyOf` with null,
 * `additionalProperties: false`), tools without parameters, strict mode,
 * every tool choice (a named one names a defined tool) and response formats.
 */
import { Arbitrary, Schema } from "effect"
import { Block, Message, Request } from "../src/index.js"
import * as Arb from "./arbitraries.js"

const pick = <const A extends ReadonlyArray<string>>(values: A): Arbitrary.Arbitrary<A[number]> => Arbitrary.schema(Schema.Literals(values))

const maybe = <A>(arb: Arbitrary.Arbitrary<A>): Arbitrary.Arbitrary<A | undefined> =>
  Arb.intBetween(0, 2).pipe(Arbitrary.flatMap((k) => (k === 0 ? Arbitrary.Constant(undefined) : arb)))

const descriptions = [
  "The city, e.g. 'Oslo'",
  "Maximum number of results to return",
  "ISO 8601 date",
  "Temperature unit",
  "Ruta del archivo a leer",
  "检索关键词",
  "Whether to include archived items.\nDefaults to false."
] as const

const propertyNames = ["city", "query", "limit", "unit", "path", "date", "include_archived", "filters", "tags", "recipient", "options"] as const

type Json = Block.JsonObject

/** One property's schema; objects nest at most `depth` more levels. */
const propertySchema = (depth: number): Arbitrary.Arbitrary<Json> =>
  Arbitrary.all({
    kind: Arb.intBetween(0, depth > 0 ? 8 : 6),
    description: maybe(pick(descriptions)),
    withDefault: Arb.intBetween(0, 5)
  }).pipe(
    Arbitrary.flatMap(({ description, kind, withDefault }): Arbitrary.Arbitrary<Json> => {
      const described = (schema: Json): Json => (description === undefined ? schema : { ...schema, description })
      switch (kind) {
        case 0:
          return Arbitrary.Constant(described({ type: "string", ...(withDefault === 0 ? { default: "Oslo" } : {}) }))
        case 1:
          return Arbitrary.Constant(described({ type: "string", enum: ["celsius", "fahrenheit"] }))
        case 2:
          return Arbitrary.Constant(described({ type: "integer", ...(withDefault === 0 ? { default: 10 } : {}), minimum: 1 }))
        case 3:
          return Arbitrary.Constant(described({ type: "integer", enum: [1, 2, 3] }))
        case 4:
          return Arbitrary.Constant(described({ type: "boolean" }))
        case 5:
          return Arbitrary.Constant(described({ anyOf: [{ type: "string" }, { type: "null" }] }))
        case 6:
          return Arbitrary.Constant(described({ type: "array", items: { type: "string" } }))
        case 7:
          return objectSchema(depth - 1).pipe(Arbitrary.map((items) => described({ type: "array", items })))
        default:
          return objectSchema(depth - 1).pipe(Arbitrary.map(described))
      }
    })
  )

/** An object schema: named properties, some required, sometimes closed. */
export const objectSchema = (depth: number): Arbitrary.Arbitrary<Json> =>
  Arbitrary.all({
    props: Arbitrary.array(Arbitrary.all([pick(propertyNames), propertySchema(depth), Arb.bool]), { maxLength: 4 }),
    closed: Arb.bool
  }).pipe(
    Arbitrary.map(({ closed, props }) => {
      const properties: Record<string, Json> = {}
      const required: Array<string> = []
      for (const [name, schema, isRequired] of props) {
        if (name in properties) continue
        properties[name] = schema
        if (isRequired) required.push(name)
      }
      return {
        type: "object",
        properties,
        ...(required.length > 0 ? { required } : {}),
        ...(closed ? { additionalProperties: false } : {})
      }
    })
  )

const toolNames = ["get_weather", "search_web", "read_file", "run_sql", "send_email", "calculator", "create_ticket", "list_files"] as const
const toolDescriptions = [
  "Get the current weather for a city.",
  "Search the web and return the top results.",
  "Read a file from the workspace",
  "Führt eine SQL-Abfrage aus.",
  "发送电子邮件",
  ""
] as const

/** A tool definition; `withParameters: false` gives tools that take none. */
export const toolDefinition: Arbitrary.Arbitrary<Request.ToolDefinition> = Arbitrary.all({
  name: pick(toolNames),
  description: maybe(pick(toolDescriptions)),
  parameters: maybe(objectSchema(2)),
  strict: maybe(Arb.bool)
}).pipe(
  Arbitrary.map(({ description, name, parameters, strict }) =>
    Request.tool(name, {
      ...(description === undefined ? {} : { description }),
      ...(parameters === undefined ? {} : { parameters }),
      ...(strict === undefined ? {} : { strict })
    })
  )
)

/** Tool definitions with distinct names (providers reject duplicates). */
export const toolDefinitions: Arbitrary.Arbitrary<Array<Request.ToolDefinition>> = Arbitrary.array(toolDefinition, { maxLength: 5 }).pipe(
  Arbitrary.map((tools) => {
    const seen = new Set<string>()
    return tools.filter((t) => (seen.has(t.name) ? false : (seen.add(t.name), true)))
  })
)

/** A tool choice for these tools: a named one names one of them. */
export const toolChoiceFor = (tools: ReadonlyArray<Request.ToolDefinition>): Arbitrary.Arbitrary<Request.ToolChoice | undefined> =>
  Arb.intBetween(0, tools.length > 0 ? 4 : 3).pipe(
    Arbitrary.flatMap((k): Arbitrary.Arbitrary<Request.ToolChoice | undefined> => {
      switch (k) {
        case 0:
          return Arbitrary.Constant(undefined)
        case 1:
          return Arbitrary.Constant("auto")
        case 2:
          return Arbitrary.Constant("none")
        case 3:
          return Arbitrary.Constant("required")
        default:
          return Arb.intBetween(0, tools.length - 1).pipe(Arbitrary.map((i): Request.ToolChoice => ({ _tag: "Tool", name: tools[i]!.name })))
      }
    })
  )

/** A response format, or none. */
export const responseFormat: Arbitrary.Arbitrary<Request.ResponseFormat | undefined> = Arb.intBetween(0, 5).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Request.ResponseFormat | undefined> => {
    switch (k) {
      case 0:
        return Arbitrary.Constant({ _tag: "Text" })
      case 1:
        return Arbitrary.Constant({ _tag: "JsonObject" })
      case 2:
        return Arbitrary.all({ schema: objectSchema(1), strict: maybe(Arb.bool) }).pipe(
          Arbitrary.map(({ schema, strict }): Request.ResponseFormat => ({ _tag: "JsonSchema", name: "answer", schema, ...(strict === undefined ? {} : { strict }) }))
        )
      default:
        return Arbitrary.Constant(undefined)
    }
  })
)

/** The "fixed part" of a request: tools, a tool choice, a response format. */
export interface FixedPart {
  readonly tools: ReadonlyArray<Request.ToolDefinition>
  readonly toolChoice: Request.ToolChoice | undefined
  readonly responseFormat: Request.ResponseFormat | undefined
  readonly maxOutputTokens: number | undefined
}

export const fixedPart: Arbitrary.Arbitrary<FixedPart> = toolDefinitions.pipe(
  Arbitrary.flatMap((tools) =>
    Arbitrary.all({ toolChoice: toolChoiceFor(tools), responseFormat, maxOutputTokens: maybe(Arb.intBetween(1, 300)) }).pipe(
      Arbitrary.map(({ maxOutputTokens, responseFormat, toolChoice }) => ({ tools, toolChoice, responseFormat, maxOutputTokens }))
    )
  )
)

const models = ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-3.5-turbo-0613", "claude-sonnet-4-5", "claude-opus-4-6", "gemini-2.5-pro"] as const

/** A request from messages and a fixed part, with a model. */
export const requestWith = (messages: ReadonlyArray<Message.Message>, fixed: FixedPart, model?: string): Request.Request =>
  Request.make(messages, {
    ...(model === undefined ? {} : { model }),
    ...(fixed.tools.length > 0 ? { tools: fixed.tools } : {}),
    ...(fixed.toolChoice === undefined ? {} : { toolChoice: fixed.toolChoice }),
    ...(fixed.responseFormat === undefined ? {} : { responseFormat: fixed.responseFormat }),
    ...(fixed.maxOutputTokens === undefined ? {} : { maxOutputTokens: fixed.maxOutputTokens })
  })

/** A whole request: a valid conversation with tools, tool choice and response format. */
export const request: Arbitrary.Arbitrary<Request.Request> = Arbitrary.all({
  messages: Arb.validConversation,
  fixed: fixedPart,
  model: maybe(pick(models))
}).pipe(Arbitrary.map(({ fixed, messages, model }) => requestWith(messages, fixed, model)))
