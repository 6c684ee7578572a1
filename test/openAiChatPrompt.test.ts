import { Effect } from "effect"
import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import type OpenAI from "openai"
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"
import { countOpenAiChatRequest as countRequest } from "../src/exact/index.js"
import {
  type ChatFunctionDefinitionLike,
  type ChatMessageLike,
  type ChatRequestLike,
  countChatRequest,
  countRenderedPrompt,
  encodingForModel,
  promptFormatForModel,
  pythonJsonDumps,
  renderChatRequest,
  renderFunctionNamespace
} from "../src/internal/openAiChatPrompt.js"
import * as Arb from "./arbitraries.js"
import { estimateOpenAiChatRequest } from "../src/internal/openAiChatRequestEstimate.js"

// the exact counter loads gpt-tokenizer's vocabulary lazily; once loaded (top-level await), it runs synchronously
await Effect.runPromise(Effect.all([countRequest({ messages: [] }, { encoding: "o200k" }), countRequest({ messages: [] }, { encoding: "cl100k" })]))
const countOpenAiChatRequest = (...args: Parameters<typeof countRequest>) => Effect.runSync(countRequest(...args))

const plain = { disallowedSpecial: new Set<string>() }
const cl100k = (text: string): number => countCl100k(text, plain)
const o200k = (text: string): number => countO200k(text, plain)
/** A stand-in tokenizer: one token per character, so expected counts are easy to read. */
const chars = (text: string): number => text.length

const namespace = (body: string): string => `# Tools\n\n## functions\n\nnamespace functions {\n\n${body}} // namespace functions`

const weather: ChatFunctionDefinitionLike = {
  name: "get_weather",
  description: "Get the weather",
  parameters: {
    type: "object",
    properties: {
      city: { type: "string", description: "The city" },
      unit: { type: "string", enum: ["c", "f"] }
    },
    required: ["city"]
  }
}

describe("renderFunctionNamespace", () => {
  it("renders a function as a TypeScript type with descriptions as comments and optional parameters marked", () => {
    expect(renderFunctionNamespace([weather])).toBe(
      namespace(
        "// Get the weather\ntype get_weather = (_: {\n// The city\ncity: string,\nunit?: \"c\" | \"f\",\n}) => any;\n\n"
      )
    )
  })

  it("renders a function without parameters, or with no properties, as taking no argument", () => {
    const expected = namespace("type ping = () => any;\n\ntype pong = () => any;\n\n")
    expect(renderFunctionNamespace([{ name: "ping" }, { name: "pong", parameters: { type: "object", properties: {} } }])).toBe(
      expected
    )
  })

  it("leaves out an empty description", () => {
    expect(renderFunctionNamespace([{ name: "ping", description: "" }])).toBe(namespace("type ping = () => any;\n\n"))
  })

  it("writes each line of a multi-line description as a comment", () => {
    expect(renderFunctionNamespace([{ name: "ping", description: "One.\nTwo." }])).toBe(
      namespace("// One.\n// Two.\ntype ping = () => any;\n\n")
    )
  })

  const nested: ChatFunctionDefinitionLike = {
    name: "save",
    parameters: {
      type: "object",
      properties: {
        item: {
          type: "object",
          description: "The item",
          properties: { label: { type: "string", description: "Its label" }, size: { type: "integer" } },
          required: ["label"]
        }
      },
      required: ["item"]
    }
  }

  it("renders nested objects unindented and keeps their properties' descriptions (current models)", () => {
    expect(renderFunctionNamespace([nested])).toBe(
      namespace("type save = (_: {\n// The item\nitem: {\n// Its label\nlabel: string,\nsize?: number,\n},\n}) => any;\n\n")
    )
  })

  it("indents nested objects and drops their properties' descriptions in the June 2023 format", () => {
    expect(renderFunctionNamespace([nested], "0613")).toBe(
      namespace("type save = (_: {\n// The item\nitem: {\n  label: string,\n  size?: number,\n},\n}) => any;\n\n")
    )
  })

  it("renders arrays as T[], arrays of objects as blocks, and arrays without items as any[]", () => {
    const fn = {
      name: "f",
      parameters: {
        type: "object",
        properties: {
          tags: { type: "array", items: { type: "string" } },
          rows: { type: "array", items: { type: "object", properties: { id: { type: "number" } } } },
          rest: { type: "array" }
        }
      }
    }
    expect(renderFunctionNamespace([fn])).toBe(namespace("type f = (_: { tags?: string[], rows?: { id?: number }[], rest?: any[] }) => any;\n\n"))
    const described = { ...fn, parameters: { ...fn.parameters, properties: { ...fn.parameters.properties, tags: { type: "array", items: { type: "string" }, description: "Tags" } } } }
    expect(renderFunctionNamespace([described])).toBe(
      namespace("type f = (_: {\n// Tags\ntags?: string[],\nrows?: { id?: number }[],\nrest?: any[],\n}) => any;\n\n")
    )
  })

  it("writes an object none of whose properties has a comment or a default on one line, in the tools API's formats only", () => {
    const fn = { name: "add", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a"] } }
    expect(renderFunctionNamespace([fn])).toBe(namespace("type add = (_: { a: number, b?: number }) => any;\n\n"))
    expect(renderFunctionNamespace([fn], "1106")).toBe(namespace("type add = (_: { a: number, b?: number }) => any;\n\n"))
    expect(renderFunctionNamespace([fn], "0613")).toBe(namespace("type add = (_: {\na: number,\nb?: number,\n}) => any;\n\n"))
    const withDefault = { name: "f", parameters: { type: "object", properties: { n: { type: "number", default: 1 } } } }
    expect(renderFunctionNamespace([withDefault])).toBe(namespace("type f = (_: {\nn?: number, // default: 1\n}) => any;\n\n"))
  })

  it("heads a property's description with its title and an empty comment line, and writes a title alone as the comment", () => {
    const fn = {
      name: "f",
      parameters: {
        type: "object",
        properties: { q: { type: "string", title: "Query", description: "What to find" }, n: { type: "integer", title: "Limit" } }
      }
    }
    expect(renderFunctionNamespace([fn])).toBe(namespace("type f = (_: {\n// Query\n//\n// What to find\nq?: string,\n// Limit\nn?: number,\n}) => any;\n\n"))
    expect(renderFunctionNamespace([fn], "0613")).toBe(namespace("type f = (_: {\n// What to find\nq?: string,\nn?: number,\n}) => any;\n\n"))
  })

  it("trims each comment line and writes an empty one as a bare //, in the tools API's formats only", () => {
    const fn = { name: "f", description: "Search.\n\nArgs:\n    query: the text  " }
    expect(renderFunctionNamespace([fn])).toBe(namespace("// Search.\n//\n// Args:\n// query: the text\ntype f = () => any;\n\n"))
    expect(renderFunctionNamespace([fn], "0613")).toBe(namespace("// Search.\n// \n// Args:\n//     query: the text  \ntype f = () => any;\n\n"))
  })

  it("renders enums of strings and numbers as unions of literals", () => {
    const fn = {
      name: "f",
      parameters: {
        type: "object",
        properties: { mode: { type: "string", enum: ["fast", "slow"] }, level: { type: "integer", enum: [-1, 1] } }
      }
    }
    expect(renderFunctionNamespace([fn])).toBe(namespace("type f = (_: { mode?: \"fast\" | \"slow\", level?: -1 | 1 }) => any;\n\n"))
  })

  it("renders anyOf and type lists as unions, null as null, and a property without a type as any", () => {
    const fn = {
      name: "f",
      parameters: {
        type: "object",
        properties: {
          a: { anyOf: [{ type: "string" }, { type: "number" }] },
          b: { type: ["string", "null"] },
          c: { type: "null" },
          d: { description: "anything" }
        }
      }
    }
    expect(renderFunctionNamespace([fn])).toBe(
      namespace("type f = (_: {\na?: string | number,\nb?: string | null,\nc?: null,\n// anything\nd?: any,\n}) => any;\n\n")
    )
  })

  it("writes a union member with a format as its JSON on the o200k formats, and as its type on the older ones", () => {
    const fn = {
      name: "f",
      parameters: {
        type: "object",
        properties: { day: { anyOf: [{ format: "date", type: "string" }, { type: "null" }] }, name: { anyOf: [{ type: "string" }, { type: "null" }] } }
      }
    }
    expect(renderFunctionNamespace([fn])).toBe(
      namespace("type f = (_: { day?: {\"format\":\"date\",\"type\":\"string\"} | null, name?: string | null }) => any;\n\n")
    )
    expect(renderFunctionNamespace([fn], "0125")).toBe(namespace("type f = (_: { day?: string | null, name?: string | null }) => any;\n\n"))
  })

  it("writes a default value as a trailing comment", () => {
    const fn = { name: "f", parameters: { type: "object", properties: { unit: { type: "string", enum: ["c", "f"], default: "c" } } } }
    expect(renderFunctionNamespace([fn])).toBe(
      namespace("type f = (_: {\nunit?: \"c\" | \"f\", // default: \"c\"\n}) => any;\n\n")
    )
  })

  it("writes a local $ref as the definition it names, with the referring schema's keywords over it", () => {
    const fn = {
      name: "f",
      parameters: {
        type: "object",
        $defs: { Item: { type: "object", properties: { id: { type: "string", description: "Its id" } } } },
        properties: { one: { $ref: "#/$defs/Item" }, many: { type: "array", items: { $ref: "#/$defs/Item" } }, lost: { $ref: "#/$defs/Nope" } }
      }
    }
    expect(renderFunctionNamespace([fn])).toBe(
      namespace("type f = (_: {\none?: {\n// Its id\nid?: string,\n},\nmany?: Array<\n{\n// Its id\nid?: string,\n}\n>,\nlost?: any,\n}) => any;\n\n")
    )
  })

  it("shows a referenced definition's title and description as the comment of a property that has neither (o200k formats)", () => {
    const fn = {
      name: "f",
      parameters: {
        type: "object",
        $defs: { Author: { title: "Author", description: "The author of a book.", type: "object", properties: { name: { type: "string" } } } },
        properties: { author: { $ref: "#/$defs/Author" }, editor: { $ref: "#/$defs/Author", description: "Who edited it" } },
        required: ["author", "editor"]
      }
    }
    expect(renderFunctionNamespace([fn])).toBe(
      namespace("type f = (_: {\n// Author\n//\n// The author of a book.\nauthor: { name?: string },\n// Author\n//\n// Who edited it\neditor: { name?: string },\n}) => any;\n\n")
    )
    // the cl100k formats show neither (no recording shows them)
    expect(renderFunctionNamespace([fn], "0125")).toBe(
      namespace("type f = (_: {\nauthor: { name?: string },\n// Who edited it\neditor: { name?: string },\n}) => any;\n\n")
    )
  })

  it("trims a description before writing it as comment lines: no empty comment line for a leading or trailing line break", () => {
    const fn = { name: "f", description: "\nFirst line.\n\nSecond line.\n", parameters: { type: "object", properties: { q: { type: "string", description: "\n  the query \n" } } } }
    expect(renderFunctionNamespace([fn])).toBe(namespace("// First line.\n//\n// Second line.\ntype f = (_: {\n// the query\nq?: string,\n}) => any;\n\n"))
    expect(renderFunctionNamespace([{ name: "g", description: "\n \n", parameters: { type: "object", properties: {} } }])).toBe(namespace("type g = () => any;\n\n"))
  })

  it("bounds what references and cycles can multiply: a reference met again on its path is any, and one function renders at most 20,000 schemas", () => {
    const defs: Record<string, unknown> = { N40: { type: "string" } }
    for (let i = 0; i < 40; i++) defs[`N${i}`] = { type: "object", properties: { l: { $ref: `#/$defs/N${i + 1}` }, r: { $ref: `#/$defs/N${i + 1}` } } }
    const doubling = { type: "object", $defs: defs, properties: { x: { $ref: "#/$defs/N0" } } }
    const selfRef = { type: "object", $defs: { T: { type: "object", properties: { a: { $ref: "#/$defs/T" } } } }, properties: { t: { $ref: "#/$defs/T" } } }
    const cyclic: Record<string, unknown> = { type: "object" }
    cyclic["properties"] = { a: cyclic, b: cyclic }
    for (const parameters of [doubling, selfRef, cyclic]) {
      const text = renderFunctionNamespace([{ name: "f", parameters }])
      expect(text.length).toBeLessThan(1_000_000)
      expect(text).toContain("any")
    }
    expect(renderFunctionNamespace([{ name: "f", parameters: selfRef }])).toContain("t?: { a?: any }")
  })

  it("renders each property's type once, so a deep schema whose objects end up as blocks stays within the budget", () => {
    // each level: an object first (rendered, then found not to fit on one line), a described string after it
    const chain = (d: number): Record<string, unknown> =>
      d === 0 ? { type: "string" } : { type: "object", properties: { inner: chain(d - 1), note: { type: "string", description: "a note" } } }
    const text = renderFunctionNamespace([{ name: "f", parameters: chain(30) }])
    expect(text.match(/inner/g)).toHaveLength(30)
    expect(text).not.toContain("any,")
  })

  it("degrades what it cannot render instead of throwing", () => {
    const cyclic: Record<string, unknown> = { type: "object" }
    cyclic["properties"] = { self: cyclic }
    const odd = [
      { name: "a", parameters: "not a schema" },
      { name: "b", parameters: { type: "object", properties: { x: 42, y: { type: 7 } }, required: "x" } },
      { name: "c", parameters: cyclic },
      { name: 12, description: 5 }
    ] as unknown as ReadonlyArray<ChatFunctionDefinitionLike>
    const text = renderFunctionNamespace(odd)
    expect(text).toContain("type a = () => any;")
    expect(text).toContain("{ x?: any, y?: any }")
    expect(text).toContain("type c = (_: {")
  })
})

describe("renderChatRequest", () => {
  it("heads a message with its role, or role:name for a participant name", () => {
    const prompt = renderChatRequest({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", name: "alice", content: "hi" }
      ]
    })
    expect(prompt.messages).toEqual([
      [{ special: 3, header: "system", body: "Be brief.", extra: 0, recipient: "" }],
      [{ special: 3, header: "user:alice", body: "hi", extra: 0, recipient: "" }]
    ])
  })

  it("heads a tool call with its recipient and a tool result with the called function's name", () => {
    const messages = [
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: "{\"city\": \"Oslo\"}" } }] },
      { role: "tool", tool_call_id: "c1", content: "sunny" }
    ]
    // the o200k models: the arguments compact, and 3 tokens more
    expect(renderChatRequest({ model: "gpt-4o", messages }).messages).toEqual([
      [{ special: 3, header: "assistant to=functions.get_weather", body: "{\"city\":\"Oslo\"}", extra: 3, recipient: "" }],
      [{ special: 3, header: "get_weather", body: "sunny", extra: 0, recipient: "" }]
    ])
    // the same on today's cl100k snapshots (0125)
    expect(renderChatRequest({ model: "gpt-3.5-turbo", messages }).messages).toEqual(renderChatRequest({ model: "gpt-4o", messages }).messages)
    // the 1106 snapshots: the arguments as sent
    expect(renderChatRequest({ model: "gpt-3.5-turbo-1106", messages }).messages).toEqual([
      [{ special: 3, header: "assistant to=functions.get_weather", body: "{\"city\": \"Oslo\"}", extra: 0, recipient: "" }],
      [{ special: 3, header: "get_weather", body: "sunny", extra: 0, recipient: "" }]
    ])
  })

  it("writes the gpt-5 family's definitions as a message of their own after an 81-token preamble, and costs its single calls 9 tokens more", () => {
    const request = {
      model: "gpt-5-mini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "assistant", tool_calls: [{ id: "a", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "a", content: "1" }
      ],
      tools: [{ type: "function", function: { name: "f" } }]
    }
    const gpt5 = renderChatRequest(request)
    expect([gpt5.format, gpt5.toolsHost, gpt5.toolsExtra, gpt5.messages[1]?.[0]?.extra]).toEqual(["gpt-5", -1, 81, 9])
    const gpt4o = renderChatRequest({ ...request, model: "gpt-4o" })
    expect([gpt4o.format, gpt4o.toolsHost, gpt4o.toolsExtra, gpt4o.messages[1]?.[0]?.extra]).toEqual(["current", 0, 0, 3])
    // the preamble is part of the tools' share
    const count = (text: string) => text.length
    expect(countRenderedPrompt(gpt5, count).tools - countRenderedPrompt({ ...gpt5, toolsExtra: 0 }, count).tools).toBe(81)
  })

  it("primes a reasoning model's reply with 2 tokens even when it may only write text", () => {
    const messages = [{ role: "user", content: "hi" }]
    expect(renderChatRequest({ model: "gpt-5", messages }).priming.special).toBe(1)
    expect(renderChatRequest({ model: "o3-mini", messages }).priming.special).toBe(1)
    expect(renderChatRequest({ messages }, { model: "o4-mini" }).priming.special).toBe(1)
    expect(renderChatRequest({ model: "gpt-4o", messages }).priming.special).toBe(2)
    expect(renderChatRequest({ model: "o1-mini", messages }).priming.special).toBe(2)
  })

  it("costs parallel calls 8 tokens above their rendering on the cl100k models, and what a single call costs on the o200k ones", () => {
    const messages = [
      { role: "assistant", tool_calls: [{ id: "a", function: { name: "f", arguments: "{}" } }, { id: "b", function: { name: "g", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "a", content: "1" },
      { role: "tool", tool_call_id: "b", content: "2" }
    ]
    expect(renderChatRequest({ model: "gpt-3.5-turbo", messages }).messages[0]?.[0]?.extra).toBe(8)
    expect(renderChatRequest({ model: "gpt-4.1-mini", messages }).messages[0]?.[0]?.extra).toBe(3)
    expect(renderChatRequest({ model: "gpt-5-mini", messages }).messages[0]?.[0]?.extra).toBe(9)
  })

  it("renders an assistant's text and its call as two turns", () => {
    const prompt = renderChatRequest({
      messages: [{ role: "assistant", content: "Checking.", function_call: { name: "lookup", arguments: "{}" } }]
    })
    expect(prompt.messages[0]?.map((t) => t.header)).toEqual(["assistant", "assistant to=functions.lookup"])
  })

  it("renders parallel calls as one multi_tool_use.parallel call and their results as JSON strings", () => {
    const request: ChatRequestLike = {
      messages: [
        {
          role: "assistant",
          tool_calls: [
            { id: "a", function: { name: "f", arguments: "{\"x\": 1}" } },
            { id: "b", function: { name: "g", arguments: "not json" } }
          ]
        },
        { role: "tool", tool_call_id: "a", content: "é" },
        { role: "tool", tool_call_id: "b", content: "ok" }
      ]
    }
    const prompt = renderChatRequest(request)
    expect(prompt.messages[0]?.[0]?.header).toBe("assistant to=multi_tool_use.parallel")
    expect(prompt.messages[0]?.[0]?.body).toBe(
      "{\"tool_uses\":[{\"recipient_name\":\"functions.f\",\"parameters\":{\"x\":1}},{\"recipient_name\":\"functions.g\",\"parameters\":not json}]}"
    )
    // on the o200k models the results are one turn, a list cut after each comma (one piece per message)
    expect(prompt.messages[1]).toEqual([{ special: 3, header: "multi_tool_use.parallel", body: "[\"\\u00e9\",", extra: 0, recipient: "" }])
    expect(prompt.messages[2]).toEqual([{ special: 0, header: "", body: " \"ok\"]", extra: 0, recipient: "" }])
    // on the cl100k models each result is a turn of its own, headed by its function
    const cl = renderChatRequest({ ...request, model: "gpt-3.5-turbo-1106" })
    expect(cl.messages.slice(1)).toEqual([
      [{ special: 3, header: "f", body: "\"\\u00e9\"", extra: 0, recipient: "" }],
      [{ special: 3, header: "g", body: "\"ok\"", extra: 0, recipient: "" }]
    ])
  })

  it("writes the results of a parallel call as one list only while they follow one another", () => {
    const call = (ids: ReadonlyArray<string>) => ({ role: "assistant", tool_calls: ids.map((id) => ({ id, function: { name: `f${id}`, arguments: "{}" } })) })
    const result = (id: string) => ({ role: "tool", tool_call_id: id, content: id })
    const bodies = (messages: ReadonlyArray<ChatMessageLike>) => renderChatRequest({ model: "gpt-4o", messages }).messages.map((m) => m.map((t) => `${t.header}|${t.body}`))
    // two parallel calls one after the other: two lists
    expect(bodies([call(["a", "b"]), result("a"), result("b"), call(["c", "d"]), result("c"), result("d")]).filter((m) => m.length > 0 && !m[0]!.startsWith("assistant"))).toEqual([
      ["multi_tool_use.parallel|[\"a\","], ["| \"b\"]"], ["multi_tool_use.parallel|[\"c\","], ["| \"d\"]"]
    ])
    // a message between two results starts a new list; a single call's result stays plain text under its function
    expect(bodies([call(["a", "b"]), result("a"), { role: "user", content: "x" }, result("b")]).slice(1)).toEqual([
      ["multi_tool_use.parallel|[\"a\"]"], ["user|x"], ["multi_tool_use.parallel|[\"b\"]"]
    ])
    expect(bodies([call(["a"]), result("a")])[1]).toEqual(["fa|a"])
  })

  it("renders a parallel call's JSON object or array result as Python's json.dumps writes it", () => {
    const prompt = renderChatRequest({
      messages: [
        { role: "assistant", tool_calls: [{ id: "a", function: { name: "f", arguments: "{}" } }, { id: "b", function: { name: "g", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "a", content: "[\n  {\n    \"1\": \"é, \\u00e9\",\n    \"0\": [1.50, true, null]\n  }\n]\n" },
        { role: "tool", tool_call_id: "b", content: "4" }
      ]
    })
    // keys keep their order and numbers their spelling; a scalar JSON result stays a string
    expect(prompt.messages[1]?.[0]?.body).toBe("[[{\"1\": \"\\u00e9, \\u00e9\", \"0\": [1.50, true, null]}],")
    expect(prompt.messages[2]?.[0]?.body).toBe(" \"4\"]")
  })

  it("writes a parallel call's results with their non-ASCII characters as they are on gpt-4o, escaped on the other models", () => {
    const request = (model: string) => ({
      model,
      messages: [
        { role: "assistant", tool_calls: [{ id: "a", function: { name: "f", arguments: "{}" } }, { id: "b", function: { name: "g", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "a", content: "it\u2019s \u2014 done\n" },
        { role: "tool", tool_call_id: "b", content: "{\"city\": \"S\u00e3o Paulo\"}" }
      ]
    })
    const bodies = (model: string) => renderChatRequest(request(model)).messages.slice(1).map((m) => m[0]?.body)
    for (const model of ["gpt-4o", "gpt-4o-2024-08-06", "openai/gpt-4o"]) {
      expect(bodies(model), model).toEqual(["[\"it\u2019s \u2014 done\\n\",", " {\"city\": \"S\u00e3o Paulo\"}]"])
    }
    for (const model of ["gpt-4o-mini", "gpt-4.1", "gpt-5"]) {
      expect(bodies(model), model).toEqual(["[\"it\\u2019s \\u2014 done\\n\",", " {\"city\": \"S\\u00e3o Paulo\"}]"])
    }
  })

  it("heads a legacy function result with the function's name", () => {
    const prompt = renderChatRequest({ messages: [{ role: "function", name: "lookup", content: "{}" }] })
    expect(prompt.messages[0]).toEqual([{ special: 3, header: "lookup", body: "{}", extra: 0, recipient: "" }])
  })

  it("joins text parts and prices an image of unknown size as the estimator does: 765 tokens, 85 at low detail", () => {
    const withImage = (image_url: { readonly url: string; readonly detail?: string }) =>
      renderChatRequest({ messages: [{ role: "user", content: [{ type: "text", text: "a" }, { type: "image_url", image_url }, { type: "text", text: "b" }] }] })
    expect(withImage({ url: "x" }).messages[0]).toEqual([{ special: 3, header: "user", body: "ab", extra: 765, recipient: "" }])
    expect(withImage({ url: "x", detail: "auto" }).messages[0]?.[0]?.extra).toBe(765)
    expect(withImage({ url: "x", detail: "high" }).messages[0]?.[0]?.extra).toBe(765)
    expect(withImage({ url: "x", detail: "low" }).messages[0]?.[0]?.extra).toBe(85)
  })

  it("prices an image by URL at the model's price for a 1024x1024 image when that is more than 765", () => {
    const extraFor = (model: string, detail?: string) =>
      renderChatRequest({
        model,
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/cat.png", ...(detail === undefined ? {} : { detail }) } }] }]
      }).messages[0]?.[0]?.extra
    expect(extraFor("gpt-4o")).toBe(765)
    expect(extraFor("gpt-4o", "low")).toBe(85)
    expect(extraFor("gpt-4o-mini")).toBe(2833 + 4 * 5667)
    expect(extraFor("gpt-4o-mini", "low")).toBe(2833)
    expect(extraFor("gpt-4.1-mini")).toBe(Math.ceil(1024 * 1.62) + 1)
    // gpt-5 charges 630 for a 1024x1024 image: the estimator's 765 stands, so the window and the count agree
    expect(extraFor("gpt-5")).toBe(765)
    // a model whose pricing is not known
    expect(extraFor("some-model")).toBe(765)
  })

  it("uses four framing tokens and lets a name replace the role for gpt-3.5-turbo-0301", () => {
    const prompt = renderChatRequest({ model: "gpt-3.5-turbo-0301", messages: [{ role: "system", name: "example_user", content: "x" }] })
    expect(prompt.messages[0]).toEqual([{ special: 4, header: "example_user", body: "x", extra: 0, recipient: "" }])
  })

  describe("reply priming", () => {
    const messages: ReadonlyArray<ChatMessageLike> = [{ role: "user", content: "hi" }]
    const base: ChatRequestLike = { messages, tools: [{ type: "function", function: { name: "f" } }] }

    it("is <|start|>assistant<|message|> without tools", () => {
      expect(renderChatRequest({ messages: [{ role: "user", content: "hi" }] }).priming).toEqual({ special: 2, header: "assistant", body: "", extra: 0, recipient: "" })
    })

    it("leaves the header open when the model may choose a tool (auto, required or absent)", () => {
      for (const tool_choice of [undefined, "auto", "required"]) {
        expect(renderChatRequest({ ...base, tool_choice }).priming).toEqual({ special: 1, header: "assistant", body: "", extra: 0, recipient: "" })
      }
    })

    it("closes the header when tool choice is none", () => {
      expect(renderChatRequest({ ...base, tool_choice: "none" }).priming.special).toBe(2)
    })

    it("names the recipient for a named tool choice, 3 tokens dearer in the current format", () => {
      const named = renderChatRequest({ ...base, tool_choice: { type: "function", function: { name: "f" } } }).priming
      expect(named).toEqual({ special: 2, header: "assistant to=functions.f", body: "", extra: 3, recipient: "" })
    })

    it("primes a named tool choice on the gpt-5 family as a free one, as recorded", () => {
      const named = renderChatRequest({ ...base, model: "gpt-5-mini", tool_choice: { type: "function", function: { name: "f" } } }).priming
      expect(named).toEqual(renderChatRequest({ ...base, model: "gpt-5-mini", tool_choice: "auto" }).priming)
    })

    it("names the recipient for a legacy function_call by name, at no extra cost", () => {
      const legacy = renderChatRequest({ messages, functions: [{ name: "f" }], function_call: { name: "f" } }).priming
      expect(legacy).toEqual({ special: 2, header: "assistant to=functions.f", body: "", extra: 0, recipient: "" })
    })
  })
})

describe("countChatRequest", () => {
  it("counts framing, role, content and the reply priming", () => {
    // 3 + "user" + "hello" = 12, priming 2 + "assistant" = 11
    const tokens = countChatRequest({ messages: [{ role: "user", content: "hello" }] }, chars)
    expect(tokens).toEqual({ total: 23, messages: [12], tools: 0, responseFormat: 0, framing: 11 })
  })

  it("appends the tools block to a first system message after a blank line", () => {
    const request = { messages: [{ role: "system", content: "S" }], functions: [{ name: "f" }] }
    const tokens = countChatRequest(request, chars)
    expect(tokens.tools).toBe(2 + renderFunctionNamespace([{ name: "f" }]).length)
  })

  it("sends the tools block as a system message of its own when the request has none", () => {
    const request = { messages: [{ role: "user", content: "U" }], functions: [{ name: "f" }] }
    const tokens = countChatRequest(request, chars)
    expect(tokens.tools).toBe(3 + "system".length + renderFunctionNamespace([{ name: "f" }]).length)
  })

  it("counts a json_schema response format as a section of the system prompt", () => {
    const request = {
      messages: [{ role: "user", content: "U" }],
      response_format: { type: "json_schema", json_schema: { name: "answer", schema: { type: "object" } } }
    }
    const tokens = countChatRequest(request, chars)
    expect(tokens.responseFormat).toBe(3 + "system".length + "# Response Formats\n\n## answer\n\n{\"type\":\"object\"}".length)
    expect(countChatRequest({ ...request, response_format: { type: "json_object" } }, chars).responseFormat).toBe(0)
  })

  it("shows a response format's schema without required, boolean additionalProperties, defaults and bounds, and only there", () => {
    const schema = {
      type: "object",
      properties: {
        required: { type: "boolean", default: false },
        default: { type: "integer", minimum: 0, maximum: 9 },
        tags: { type: "array", items: { type: "string", enum: ["a"] }, maxItems: 3, minItems: 1 },
        extra: { type: "object", additionalProperties: { type: "number", default: 1 } },
        choice: { enum: [{ required: true, default: 1 }] }
      },
      required: ["required", "default", "tags", "extra", "choice"],
      additionalProperties: false,
      $defs: { Unused: { type: "string", default: "x" } }
    }
    const section = renderChatRequest({
      messages: [],
      response_format: { type: "json_schema", json_schema: { name: "answer", description: "The answer", schema } }
    }).responseFormat
    expect(section).toBe(
      "# Response Formats\n\n## answer\n\n// The answer\n" +
        JSON.stringify({
          type: "object",
          properties: {
            required: { type: "boolean" },
            default: { type: "integer" },
            tags: { type: "array", items: { type: "string", enum: ["a"] }, minItems: 1 },
            extra: { type: "object", additionalProperties: { type: "number" } },
            choice: { enum: [{ required: true, default: 1 }] }
          },
          $defs: { Unused: { type: "string" } }
        })
    )
  })

  it("escapes a response format schema's non-ASCII characters as Python's json.dumps does", () => {
    const section = renderChatRequest({
      messages: [],
      response_format: { type: "json_schema", json_schema: { name: "n", schema: { description: "a — b é \u{1F600}" } } }
    }).responseFormat
    expect(section.endsWith('{"description":"a \\u2014 b \\u00e9 \\ud83d\\ude00"}')).toBe(true)
  })

  it("renders a cyclic response format schema object without hanging", () => {
    const node: { type: string; properties: Record<string, unknown> } = { type: "object", properties: {} }
    node.properties["self"] = node
    const section = renderChatRequest({ messages: [], response_format: { type: "json_schema", json_schema: { name: "n", schema: node } } }).responseFormat
    expect(section.endsWith('{"type":"object","properties":{"self":{}}}')).toBe(true)
  })

  it("renders a response format schema nested without end, or with a huge fan-out, in bounded work", () => {
    let deep: Record<string, unknown> = { type: "string" }
    for (let i = 0; i < 100_000; i++) deep = { type: "array", items: deep }
    const fanOut = { type: "object", properties: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`p${i}`, { type: "string", default: "x" }])) }
    for (const schema of [deep, fanOut]) {
      const section = renderChatRequest({ messages: [], response_format: { type: "json_schema", json_schema: { name: "n", schema } } }).responseFormat
      expect(section.startsWith("# Response Formats\n\n## n\n\n{")).toBe(true)
    }
  })

  it("addresses each assistant text reply, and a text-only priming, to a json_schema response format by name", () => {
    const format = { type: "json_schema", json_schema: { name: "Verdict", schema: {} } }
    const call = { id: "c1", type: "function", function: { name: "f", arguments: "{}" } }
    const messages = [
      { role: "user", content: "U" },
      { role: "assistant", content: "A" },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: "c1", content: "R" }
    ]
    const rendered = renderChatRequest({ messages, response_format: format })
    expect(rendered.messages.map((turns) => turns.map((t) => t.recipient))).toEqual([[""], ["Verdict"], [""], [""]])
    expect(rendered.priming.recipient).toBe("Verdict")
    // " to=" and the name, each counted on its own
    const plain = countChatRequest({ messages }, chars)
    const marked = countChatRequest({ messages, response_format: format }, chars)
    expect(marked.messages.map((n, i) => n - plain.messages[i]!)).toEqual([0, 4 + 7, 0, 0])
    expect(marked.framing - plain.framing).toBe(4 + 7)
    // the name does not merge with the "=": counted apart, "=j" is not one token here
    const tokens = countChatRequest({ messages: [], response_format: { type: "json_schema", json_schema: { name: "joke", schema: {} } } }, countO200k)
    expect(tokens.framing - countChatRequest({ messages: [] }, countO200k).framing).toBe(countO200k(" to=") + countO200k("joke"))
    // with tools and a free choice the reply may be a call: the priming is not addressed
    const tools = [{ type: "function", function: weather }]
    const free = countChatRequest({ messages, tools }, chars)
    const freeMarked = countChatRequest({ messages, tools, response_format: format }, chars)
    expect(freeMarked.framing).toBe(free.framing)
    expect(freeMarked.messages[1]! - free.messages[1]!).toBe(4 + 7)
    expect(countChatRequest({ messages, response_format: { type: "json_object" } }, chars)).toEqual(plain)
  })

  it("is the sum of its parts", () => {
    const request = {
      messages: [{ role: "system", content: "S" }, { role: "user", content: "U" }],
      tools: [{ type: "function", function: weather }],
      response_format: { type: "json_schema", json_schema: { name: "a", schema: {} } }
    }
    const t = countChatRequest(request, cl100k)
    expect(t.total).toBe(t.messages.reduce((a, b) => a + b, 0) + t.tools + t.responseFormat + t.framing)
  })
})

describe("countOpenAiChatRequest", () => {
  // Figures from a public OpenAI community forum thread (gpt-3.5-turbo, Dec 2023, when the alias named
  // a snapshot before 0125, and parallel calls meant 1106): one user message, then 1, 2 or 3 identical
  // calls with their results.
  const calls = (n: number, model = "gpt-3.5-turbo-1106"): ChatRequestLike => ({
    model,
    messages: [
      { role: "user", content: [{ type: "text", text: "How much is 2 plus 2?" }] },
      {
        role: "assistant",
        tool_calls: Array.from({ length: n }, (_, i) => ({ id: `a${i}`, type: "function", function: { name: "calculator", arguments: "{\"a\":2, \"b\":2}" } }))
      },
      ...Array.from({ length: n }, (_, i): ChatMessageLike => ({ role: "tool", tool_call_id: `a${i}`, content: "4" }))
    ]
  })

  it("counts a body that is not an object (null, a number, a list) as an empty request instead of dying", () => {
    // a JSON body read from anywhere: `null.model` was a TypeError, a defect of the Effect
    const empty = countOpenAiChatRequest({}).total
    for (const body of [null, undefined, 7, "text", []]) expect(countOpenAiChatRequest(body as unknown as ChatRequestLike).total).toBe(empty)
    expect(countOpenAiChatRequest(null as unknown as ChatRequestLike, { model: "gpt-4o" }).total).toBe(countOpenAiChatRequest({ model: "gpt-4o" }).total)
  })

  it("matches the API on one tool call and its result", () => {
    expect(countOpenAiChatRequest(calls(1)).total).toBe(40)
  })

  it("counts a single call on today's gpt-3.5-turbo (0125) compact and 3 tokens dearer, as recorded in 2024-26", () => {
    // the arguments as sent, {"a":2, "b":2}, are one token longer than compact
    expect(countOpenAiChatRequest(calls(1, "gpt-3.5-turbo")).total).toBe(40 - 1 + 3)
    expect(countOpenAiChatRequest(calls(1, "gpt-4-0125-preview")).total).toBe(40 - 1 + 3)
  })

  it("matches the API on parallel tool calls and their results", () => {
    expect(countOpenAiChatRequest(calls(2)).total).toBe(89)
    expect(countOpenAiChatRequest(calls(3)).total).toBe(114)
  })

  it("counts with the encoding of the request's model", () => {
    const request = { messages: [{ role: "user", content: "帮我查一下北京到上海的高铁票。" }] }
    expect(countOpenAiChatRequest({ ...request, model: "gpt-4o" }).total).toBe(countChatRequest(request, o200k).total)
    expect(countOpenAiChatRequest({ ...request, model: "gpt-4" }).total).toBe(countChatRequest(request, cl100k).total)
    expect(countOpenAiChatRequest(request, { model: "gpt-3.5-turbo" }).total).toBe(countChatRequest(request, cl100k).total)
    expect(countOpenAiChatRequest(request, { encoding: "cl100k" }).total).toBe(countChatRequest(request, cl100k).total)
  })

  it("counts special-token text as text", () => {
    const tokens = countOpenAiChatRequest({ messages: [{ role: "user", content: "<|endoftext|><|im_start|>" }] })
    expect(tokens.messages[0]).toBeGreaterThan(5)
  })

  it("accepts the official SDK's request type as it is", () => {
    const request: OpenAI.Chat.ChatCompletionCreateParams = {
      model: "gpt-4o-mini",
      messages: [
        { role: "developer", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "Weather in Oslo?" }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: "{\"city\":\"Oslo\"}" } }] },
        { role: "tool", tool_call_id: "c1", content: "sunny" }
      ],
      tools: [{ type: "function", function: weather as OpenAI.FunctionDefinition }],
      tool_choice: "auto",
      temperature: 0
    }
    const tokens = countOpenAiChatRequest(request)
    expect(tokens.messages.length).toBe(4)
    expect(tokens.tools).toBeGreaterThan(0)
  })

  it("counts a tool without parameters (where other counters throw)", () => {
    const request = { model: "gpt-4o", messages: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "now" } }] }
    expect(countOpenAiChatRequest(request).tools).toBeGreaterThan(15)
  })
})

describe("estimateOpenAiChatRequest", () => {
  it("stays close to the exact count on a conversation with tools, calls and results", () => {
    const request: ChatRequestLike = {
      model: "gpt-4o",
      messages: [
        { role: "system", content: "You are a travel assistant. Answer briefly and cite the tools you used." },
        { role: "user", content: "Will it rain in Bergen tomorrow, and what is a good indoor museum there?" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: "{\"city\":\"Bergen\",\"day\":\"tomorrow\"}" } }] },
        { role: "tool", tool_call_id: "c1", content: "Rain, 11°C, wind 8 m/s from the south-west." }
      ],
      tools: [
        { type: "function", function: weather },
        { type: "function", function: { name: "find_places", description: "Search places of a kind in a city", parameters: { type: "object", properties: { city: { type: "string" }, kind: { type: "string", enum: ["museum", "restaurant", "park"] }, indoor: { type: "boolean" } }, required: ["city", "kind"] } } }
      ]
    }
    const exact = countOpenAiChatRequest(request).total
    const estimate = estimateOpenAiChatRequest(request).total
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.1)
  })
})

describe("model names", () => {
  it("pick o200k for gpt-4o, gpt-4.1, gpt-5 and the o-series, cl100k for gpt-4 and gpt-3.5", () => {
    for (const m of ["gpt-4o", "gpt-4o-mini", "chatgpt-4o-latest", "gpt-4.1", "gpt-5", "o1", "o3-mini", "ft:gpt-4o-mini:acme::x", "openai/gpt-4o"]) {
      expect([m, encodingForModel(m)]).toEqual([m, "o200k"])
    }
    for (const m of ["gpt-4", "gpt-4-0613", "gpt-4-turbo", "gpt-3.5-turbo", "gpt-35-turbo", "GPT-4-32K"]) {
      expect([m, encodingForModel(m)]).toEqual([m, "cl100k"])
    }
  })

  it("pick the June 2023 format for the -0613 snapshots and the gpt-4 alias, the 0301 format for gpt-3.5-turbo-0301", () => {
    expect(promptFormatForModel("gpt-4")).toBe("0613")
    expect(promptFormatForModel("gpt-3.5-turbo-16k-0613")).toBe("0613")
    expect(promptFormatForModel("gpt-3.5-turbo-0301")).toBe("0301")
    expect(promptFormatForModel("gpt-3.5-turbo")).toBe("0125")
    expect(promptFormatForModel("gpt-4-turbo")).toBe("0125")
    expect(promptFormatForModel("gpt-4-0125-preview")).toBe("0125")
    expect(promptFormatForModel("gpt-3.5-turbo-1106")).toBe("1106")
    expect(promptFormatForModel("gpt-4-vision-preview")).toBe("1106")
    expect(promptFormatForModel("gpt-35-turbo")).toBe("1106")
    expect(promptFormatForModel("gpt-4o-mini")).toBe("current")
    expect(promptFormatForModel("gpt-4.1")).toBe("current")
    expect(promptFormatForModel("gpt-5")).toBe("gpt-5")
    expect(promptFormatForModel("openai/gpt-5.4-mini")).toBe("gpt-5")
    expect(promptFormatForModel("o3-mini")).toBe("current")
    expect(promptFormatForModel(undefined)).toBe("current")
  })
})

// ---------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------

const pick = <const A extends ReadonlyArray<string>>(values: A): Arbitrary.Arbitrary<A[number]> =>
  Arbitrary.schema(Schema.Literals(values))
const intBetween = (minimum: number, maximum: number): Arbitrary.Arbitrary<number> =>
  Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum, maximum })))
const anyString: Arbitrary.Arbitrary<string> = Arbitrary.schema(Schema.String)
const anyJson: Arbitrary.Arbitrary<unknown> = Arbitrary.schema(Schema.Json)

const propNames = pick(["city", "query", "limit", "unit", "filters", "items", "when", "x_1", "名前", "required", "default"])
const words = pick(["", "The city", "Max results (1-100)", "ISO 8601 date, e.g. '2024-01-01'", "単位", "Line one\nLine two"])

/** A JSON-Schema-ish property: every feature the renderer knows, nested to `depth`, plus junk. */
const schemaArb = (depth: number): Arbitrary.Arbitrary<unknown> =>
  intBetween(0, depth > 0 ? 11 : 6).pipe(
    Arbitrary.flatMap((k): Arbitrary.Arbitrary<unknown> => {
      switch (k) {
        case 0:
          return pick(["string", "number", "integer", "boolean", "null"]).pipe(Arbitrary.map((type) => ({ type })))
        case 1:
          return Arbitrary.all({ description: words, type: pick(["string", "integer"]) })
        case 2:
          return Arbitrary.array(words, { minLength: 1, maxLength: 4 }).pipe(Arbitrary.map((e) => ({ type: "string", enum: e })))
        case 3:
          return Arbitrary.array(intBetween(-5, 500), { minLength: 1, maxLength: 4 }).pipe(Arbitrary.map((e) => ({ type: "integer", enum: e })))
        case 4:
          return Arbitrary.all({ type: Arbitrary.Constant(["string", "null"]), default: anyJson })
        case 5:
          return anyJson
        case 6:
          return Arbitrary.Constant({})
        case 7:
        case 8:
          return objectArb(depth - 1)
        case 9:
          return schemaArb(depth - 1).pipe(Arbitrary.map((items) => ({ type: "array", items, description: "list" })))
        case 10:
          return Arbitrary.array(schemaArb(depth - 1), { maxLength: 3 }).pipe(Arbitrary.map((anyOf) => ({ anyOf })))
        default:
          return Arbitrary.Constant({ type: "array" })
      }
    })
  )

const objectArb = (depth: number): Arbitrary.Arbitrary<unknown> =>
  Arbitrary.all({
    props: Arbitrary.array(Arbitrary.all([propNames, schemaArb(depth)]), { maxLength: 4 }),
    required: Arbitrary.array(propNames, { maxLength: 3 }),
    description: words
  }).pipe(
    Arbitrary.map(({ description, props, required }) => ({
      type: "object",
      description,
      properties: Object.fromEntries(props),
      required
    }))
  )

const functionArb: Arbitrary.Arbitrary<ChatFunctionDefinitionLike> = Arbitrary.all({
  name: pick(["get_weather", "search", "run_sql", "f"]),
  description: words,
  parameters: intBetween(0, 3).pipe(Arbitrary.flatMap((k) => (k === 0 ? anyJson : objectArb(2))))
})

const messageArb: Arbitrary.Arbitrary<ChatMessageLike> = intBetween(0, 5).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<ChatMessageLike> => {
    switch (k) {
      case 0:
        return Arbitrary.all({ role: pick(["system", "developer", "user"]), content: anyString })
      case 1:
        return Arbitrary.all({ role: Arbitrary.Constant("user"), name: pick(["alice", ""]), content: Arbitrary.array(Arbitrary.all({ type: Arbitrary.Constant("text"), text: words }), { maxLength: 3 }) })
      case 2:
        return Arbitrary.array(Arbitrary.all({ id: pick(["a", "b", "c"]), type: Arbitrary.Constant("function"), function: Arbitrary.all({ name: pick(["f", "g"]), arguments: pick(["{}", "{\"x\": 1}", "oops", ""]) }) }), { maxLength: 3 }).pipe(
          Arbitrary.map((tool_calls) => ({ role: "assistant", content: null, tool_calls }))
        )
      case 3:
        return Arbitrary.all({ role: Arbitrary.Constant("tool"), tool_call_id: pick(["a", "b", "zzz"]), content: anyString })
      case 4:
        return Arbitrary.all({ role: Arbitrary.Constant("function"), name: pick(["f", "g"]), content: anyString })
      default:
        // Whatever a caller might pass: the counter reads it defensively.
        return anyJson.pipe(Arbitrary.map((content) => ({ role: "assistant", content })))
    }
  })
)

/** A response format: none, text, JSON mode, or a JSON schema (any JSON in its place now and then). */
const responseFormatArb: Arbitrary.Arbitrary<unknown> = intBetween(0, 4).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<unknown> => {
    switch (k) {
      case 0:
        return Arbitrary.Constant(undefined)
      case 1:
        return Arbitrary.Constant({ type: "json_object" })
      case 2:
        return anyJson.pipe(Arbitrary.map((schema) => ({ type: "json_schema", json_schema: { name: "n", schema } })))
      default:
        return Arbitrary.all({ name: pick(["answer", "TaskEvaluationPydanticOutput", "joke"]), schema: objectArb(2), description: words }).pipe(
          Arbitrary.map((json_schema) => ({ type: "json_schema", json_schema }))
        )
    }
  })
)

const requestArb: Arbitrary.Arbitrary<ChatRequestLike> = Arbitrary.all({
  model: pick(["gpt-4o", "gpt-4", "gpt-3.5-turbo", "gpt-3.5-turbo-0301", "gpt-5-mini"]),
  messages: Arbitrary.array(messageArb, { maxLength: 5 }),
  tools: Arbitrary.array(functionArb, { maxLength: 3 }).pipe(Arbitrary.map((fs) => fs.map((f) => ({ type: "function", function: f })))),
  tool_choice: intBetween(0, 4).pipe(
    Arbitrary.map((k) => [undefined, "auto", "none", "required", { type: "function", function: { name: "f" } }][k])
  ),
  response_format: responseFormatArb
}).pipe(
  Arbitrary.map(({ response_format, tool_choice, ...rest }) => ({
    ...rest,
    ...(tool_choice === undefined ? {} : { tool_choice }),
    ...(response_format === undefined ? {} : { response_format })
  }))
)

/** The schemas a response format's schema holds where a schema stands (not inside enum, const, or a properties map's names). */
const schemaNodes = (schema: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> => {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return out
  const node = schema as Record<string, unknown>
  out.push(node)
  if (typeof node["properties"] === "object" && node["properties"] !== null) for (const sub of Object.values(node["properties"])) schemaNodes(sub, out)
  schemaNodes(node["items"], out)
  if (Array.isArray(node["anyOf"])) for (const sub of node["anyOf"]) schemaNodes(sub, out)
  return out
}

/** A tool result's text: any string, indented JSON, or one of a few that stress the list's commas and escapes. */
const resultText: Arbitrary.Arbitrary<string> = intBetween(0, 2).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<string> =>
    k === 0
      ? anyString
      : k === 1
      ? anyJson.pipe(Arbitrary.map((v) => JSON.stringify(v, null, 2) ?? "null"))
      : pick(["Mexico", "it’s — done", "{\"a\": [1, 2]}", "[]", "  {\n \"x\": \"é\"\n}\n", "", "\"", "\\", "a, b", "[1,\n2]"])
  )
)

describe("properties", () => {
  it.prop(
    "the exact and estimated counts never throw and are non-negative integers",
    [requestArb],
    ([request]) => {
      for (const t of [countOpenAiChatRequest(request), estimateOpenAiChatRequest(request)]) {
        assert.isTrue(Number.isInteger(t.total) && t.total >= 0, `total ${t.total}`)
        assert.strictEqual(t.total, t.messages.reduce((a, b) => a + b, 0) + t.tools + t.responseFormat + t.framing)
      }
    },
    60_000
  )

  it.prop(
    "a response format's schema is shown with every property it names and without required, default, bounds or a boolean additionalProperties",
    [objectArb(3)],
    ([schema]) => {
      const section = renderChatRequest({ messages: [], response_format: { type: "json_schema", json_schema: { name: "n", schema } } }).responseFormat
      const shown: unknown = JSON.parse(section.slice(section.indexOf("{")))
      const before = schemaNodes(schema)
      const after = schemaNodes(shown)
      assert.strictEqual(after.length, before.length)
      after.forEach((node, i) => {
        for (const key of ["required", "default", "minimum", "maximum", "maxItems"]) assert.isFalse(key in node, key)
        assert.notStrictEqual(node["additionalProperties"], false)
        assert.deepStrictEqual(Object.keys(node["properties"] ?? {}), Object.keys(before[i]!["properties"] ?? {}))
      })
    },
    60_000
  )

  it.prop(
    "a parallel call's results cost, cut into one piece per message, what their list costs whole",
    [Arbitrary.array(resultText, { minLength: 2, maxLength: 5 }), pick(["gpt-4o", "gpt-4o-mini", "gpt-5"])],
    ([results, model]) => {
      const ids = results.map((_, i) => `c${i}`)
      const request: ChatRequestLike = {
        model,
        messages: [
          { role: "assistant", tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "f", arguments: "{}" } })) },
          ...results.map((content, i): ChatMessageLike => ({ role: "tool", tool_call_id: ids[i]!, content }))
        ]
      }
      const pieces = renderChatRequest(request).messages.slice(1).map((m) => m[0]!.body)
      assert.strictEqual(pieces.length, results.length)
      for (const count of [countO200k, countCl100k]) {
        assert.strictEqual(pieces.reduce((n, p) => n + count(p), 0), count(pieces.join("")))
      }
    },
    { timeout: 300_000, arbitrary: { runs: 300 } }
  )

  it.prop(
    "adding a tool never lowers the count",
    [requestArb, functionArb],
    ([request, extra]) => {
      const more = { ...request, tools: [...(request.tools ?? []), { type: "function", function: extra }] }
      assert.isAtLeast(countOpenAiChatRequest(more).total, countOpenAiChatRequest(request).total)
      assert.isAtLeast(estimateOpenAiChatRequest(more).total, estimateOpenAiChatRequest(request).total)
    },
    60_000
  )
})

describe("pythonJsonDumps: a parallel call's JSON result as Python's json.dumps writes it", () => {
  // the rendering as first written, a character at a time (0.8 s on 20 MB of indented JSON): the oracle
  const asciiJsonString = (text: string): string => JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
  const oneAtATime = (json: string): string => {
    let out = ""
    let i = 0
    while (i < json.length) {
      const c = json[i]!
      if (c === '"') {
        let j = i + 1
        while (json[j] !== '"') j += json[j] === "\\" ? 2 : 1
        out += asciiJsonString(JSON.parse(json.slice(i, j + 1)) as string)
        i = j + 1
      } else if (c === "," || c === ":") {
        out += `${c} `
        i++
      } else if (c === " " || c === "\n" || c === "\r" || c === "\t") {
        i++
      } else {
        out += c
        i++
      }
    }
    return out
  }
  const indent = Arbitrary.schema(Schema.Literals([0, 1, 2, 4, "\t", " \r\n"]))

  it.prop(
    "writes what a rendering a character at a time writes, for JSON indented any way, with escapes of every kind",
    [Arb.args, indent, Arb.bool],
    ([args, space, escaped]) => {
      // a path and a word past ASCII in every case, so the escapes below always have something to escape
      const value = { args, path: "/tmp/a b", word: "café", id: 7 }
      let json = typeof space === "string" && space.includes("\r") ? JSON.stringify(value, null, 1).replace(/\n/g, "\r\n ") : JSON.stringify(value, null, space)
      // "/" and characters past ASCII stand only inside strings: escaped, the text is the same JSON
      if (escaped) json = json.replace(/\//g, "\\/").replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`)
      expect(pythonJsonDumps(json)).toBe(oneAtATime(json))
    },
    { timeout: 300_000, arbitrary: { runs: 300 } }
  )

  it("leaves non-ASCII characters as they are with ensureAscii false, as json.dumps(ensure_ascii=False) does", () => {
    expect(pythonJsonDumps('{\n  "c": "caf\u00e9 \\u00e9 \\/",\n  "d": "\\u0001"\n}', false)).toBe('{"c": "caf\u00e9 \u00e9 /", "d": "\\u0001"}')
  })

  it("writes strings of plain ASCII and short escapes as they are, and the others through JSON", () => {
    expect(pythonJsonDumps('{\n  "a": "x \\"y\\" \\\\ \\n",\n  "b": [1, 2.50, 1e3],\n  "c": "caf\u00e9 \\/ \\u0041",\n  "d": "a\\/b"\n}')).toBe(
      '{"a": "x \\"y\\" \\\\ \\n", "b": [1, 2.50, 1e3], "c": "caf\\u00e9 / A", "d": "a/b"}'
    )
  })
})
