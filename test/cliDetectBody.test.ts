/**
 * A request body whose messages are plain `{ role, content }` strings fits
 * both Chat Completions and the Messages API; its tools, tool choice and
 * settings tell which it is. It was read as Chat whatever they said, so an
 * Anthropic body's `input_schema` tools were judged and counted as Chat's.
 */
import { assert, describe, it } from "@effect/vitest"
import { InputError, parseText } from "../src/cli/Input.js"
import * as Formats from "../src/cli/Formats.js"
import { readUsageSet } from "./usageData.js"

const detect = (body: unknown) => {
  const text = JSON.stringify(body)
  const parsed = parseText(text, "in", text.length)
  if (parsed instanceof InputError) return assert.fail(parsed.reason)
  const detected = Formats.detect(parsed)
  if (detected instanceof InputError) return assert.fail(detected.reason)
  return detected.format
}

const messages = [{ role: "user", content: "What is the weather in Paris?" }]
const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] }

describe("a body of plain messages is told apart by its settings", () => {
  it("an Anthropic tool (input_schema) or server tool makes it a Messages API body", () => {
    assert.strictEqual(detect({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools: [{ name: "get_weather", input_schema: schema }] }), "anthropic")
    assert.strictEqual(detect({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools: [{ type: "web_search_20250305", name: "web_search" }] }), "anthropic")
  })

  it("an Anthropic tool choice or a setting only the Messages API takes makes it one", () => {
    assert.strictEqual(detect({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tool_choice: { type: "any" } }), "anthropic")
    assert.strictEqual(detect({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tool_choice: { type: "tool", name: "get_weather" } }), "anthropic")
    assert.strictEqual(detect({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, stop_sequences: ["END"] }), "anthropic")
    assert.strictEqual(detect({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, top_k: 5 }), "anthropic")
  })

  it("Chat's tools, tool choice and settings keep it a Chat body", () => {
    const tools = [{ type: "function", function: { name: "get_weather", parameters: schema } }]
    assert.strictEqual(detect({ model: "gpt-4o", messages, tools }), "openai-chat")
    assert.strictEqual(detect({ model: "gpt-4o", messages, tool_choice: "auto" }), "openai-chat")
    assert.strictEqual(detect({ model: "gpt-4o", messages, tool_choice: { type: "function", function: { name: "get_weather" } } }), "openai-chat")
    assert.strictEqual(detect({ model: "gpt-4o", messages, response_format: { type: "json_object" } }), "openai-chat")
    assert.strictEqual(detect({ model: "gpt-4o", messages, max_tokens: 100 }), "openai-chat")
  })

  it("settings that disagree, or none, leave it Chat, the most common; messages that tell win over settings", () => {
    assert.strictEqual(detect({ model: "x", messages, tools: [{ name: "a", input_schema: schema }], response_format: { type: "json_object" } }), "openai-chat")
    assert.strictEqual(detect({ model: "x", messages }), "openai-chat")
    const chatMessages = [...messages, { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "a", arguments: "{}" } }] }]
    assert.strictEqual(detect({ model: "x", messages: chatMessages, stop_sequences: ["END"] }), "openai-chat")
  })

  it("a body naming a Claude model the Messages API's way, and nothing else, is a Messages API body", () => {
    assert.strictEqual(detect({ model: "claude-haiku-4-5", messages }), "anthropic")
    // a router's name for it is sent in Chat's format; a setting that tells wins over the name
    assert.strictEqual(detect({ model: "anthropic/claude-3.5-sonnet", messages }), "openai-chat")
    assert.strictEqual(detect({ model: "claude-haiku-4-5", messages, response_format: { type: "json_object" } }), "openai-chat")
  })

  it("every recorded Messages API request is read as one", () => {
    const cases = readUsageSet<{ readonly source: { readonly repo: string; readonly commit: string }; readonly request: unknown }>("anthropic-usage")
    assert.isAbove(cases.length, 300)
    const misread = cases.filter((c) => detect(c.request) !== "anthropic").length
    assert.strictEqual(misread, 0)
  })
})
