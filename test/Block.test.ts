import { describe, expect, it } from "@effect/vitest"
import { Block } from "../src/index.js"

describe("Block constructors", () => {
  it("text builds a Text block", () => {
    const b = Block.text("hi")
    expect(b._tag).toBe("Text")
    expect(b.text).toBe("hi")
    expect("itemId" in b).toBe(false)
  })

  it("text carries replay extras when given", () => {
    const b = Block.text("hi", { itemId: "msg_1", providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })
    expect(b.itemId).toBe("msg_1")
    expect(b.providerOptions).toEqual({ anthropic: { cache_control: { type: "ephemeral" } } })
  })

  it("thinking keeps its signature, and leaves it absent when not given", () => {
    expect(Block.thinking("hmm", "sig").signature).toBe("sig")
    expect("signature" in Block.thinking("hmm")).toBe(false)
    expect(Block.thinking("r", undefined, { itemId: "rs_1", encryptedContent: "enc" }).encryptedContent).toBe("enc")
  })

  it("redactedThinking keeps its opaque data", () => {
    expect(Block.redactedThinking("EmwKAhgB").data).toBe("EmwKAhgB")
  })

  it("toolCall defaults args to an empty object and keeps raw argument text", () => {
    expect(Block.toolCall("c1", "search").args).toEqual({})
    const b = Block.toolCall("c1", "search", {}, { rawArgs: "{\"q\": " })
    expect(b.rawArgs).toBe("{\"q\": ")
  })

  it("toolResult defaults isError to false", () => {
    const r = Block.toolResult("c1", "search", "ok")
    expect(r.isError).toBe(false)
    expect(Block.toolResult("c1", "search", "boom", true).isError).toBe(true)
  })

  it("toolResult keeps several text parts as several parts", () => {
    const r = Block.toolResult("c1", "search", [Block.text("a"), Block.text("b")])
    expect(Array.isArray(r.content) && r.content.length).toBe(2)
  })
})

describe("Block readers", () => {
  const call = Block.toolCall("c1", "search", { q: "effect" })

  it("match dispatches on every kind", () => {
    const name = (b: Block.Block) =>
      Block.match(b, {
        Text: () => "text",
        Thinking: () => "thinking",
        RedactedThinking: () => "redacted",
        Refusal: () => "refusal",
        File: (f) => `file:${f.mediaType}`,
        ToolCall: (c) => `call:${c.name}`,
        ToolResult: (r) => `result:${r.toolName}`,
        Json: () => "json",
        ProviderData: (d) => `data:${d.provider}`
      })
    expect(name(Block.text("x"))).toBe("text")
    expect(name(Block.thinking("x"))).toBe("thinking")
    expect(name(Block.redactedThinking("x"))).toBe("redacted")
    expect(name(call)).toBe("call:search")
    expect(name(Block.toolResult("c1", "search", "x"))).toBe("result:search")
  })

  it("blockToText renders a tool call with its JSON arguments", () => {
    expect(Block.blockToText(call)).toBe('[tool call search({"q":"effect"})]')
  })

  it("blockToText prefers the raw argument text the model sent", () => {
    expect(Block.blockToText(Block.toolCall("c1", "search", {}, { rawArgs: "{bad" }))).toBe("[tool call search({bad)]")
  })

  it("blockToText cuts long arguments with an ellipsis at a configurable length", () => {
    const long = Block.toolCall("c1", "write", { body: "x".repeat(500) })
    const rendered = Block.blockToText(long, { maxArgsLength: 20 })
    expect(rendered).toBe(`[tool call write(${JSON.stringify({ body: "x".repeat(500) }).slice(0, 20)}…)]`)
    expect(Block.blockToText(long).length).toBeLessThan(230)
  })

  it("blockToText writes provider data (often tool traffic the model has no block for) with its provider and type, cut like arguments", () => {
    const patch = Block.providerData("openai-responses", { type: "custom_tool_call", call_id: "call_c", name: "apply_patch", input: "*** Begin Patch" })
    expect(Block.blockToText(patch)).toBe('[openai-responses custom_tool_call: {"type":"custom_tool_call","call_id":"call_c","name":"apply_patch","input":"*** Begin Patch"}]')
    expect(Block.blockToText(Block.providerData("gemini", { x: "y".repeat(50) }), { maxArgsLength: 10 })).toBe('[gemini: {"x":"yyyy…]')
    expect(Block.blockToText(Block.redactedThinking("EqQBCgIYAh..."))).toBe("")
  })

  it("blockToText renders results, marks errors, and cuts long content", () => {
    expect(Block.blockToText(Block.toolResult("c1", "search", "3 hits"))).toBe("[tool result search: 3 hits]")
    expect(Block.blockToText(Block.toolResult("c1", "search", "timeout", true))).toBe("[tool result search (error): timeout]")
    expect(Block.blockToText(Block.toolResult("c1", "cat", "y".repeat(50)), { maxResultLength: 10 })).toBe(
      "[tool result cat: yyyyyyyyyy…]"
    )
  })

  it("blockToText omits thinking unless asked, and always omits redacted thinking", () => {
    expect(Block.blockToText(Block.thinking("plan"))).toBe("")
    expect(Block.blockToText(Block.thinking("plan"), { includeThinking: true })).toBe("[thinking: plan]")
    expect(Block.blockToText(Block.redactedThinking("x"), { includeThinking: true })).toBe("")
  })

  it("resultContentText joins text parts with newlines", () => {
    expect(Block.resultContentText([Block.text("a"), Block.text("b")])).toBe("a\nb")
    expect(Block.resultContentText("plain")).toBe("plain")
  })

  it("safeStringify survives cycles and BigInt", () => {
    const cyclic: Record<string, unknown> = {}
    cyclic["self"] = cyclic
    expect(Block.safeStringify(cyclic)).toBe("[object Object]")
    expect(Block.safeStringify(10n)).toBe("10")
  })
})

describe("Block.parseDataUrl", () => {
  it("reads the scheme, media type and base64 marker in any case (RFC 2397), the media type in lower case", () => {
    expect(Block.parseDataUrl("DATA:IMAGE/PNG;BASE64,iVBORw0KGgo=")).toEqual({ mediaType: "image/png", data: "iVBORw0KGgo=" })
    expect(Block.parseDataUrl("data:image/png;base64,iVBORw0KGgo=")).toEqual({ mediaType: "image/png", data: "iVBORw0KGgo=" })
    expect(Block.parseDataUrl("data:image/svg+xml;utf8,<svg/>")).toBeUndefined()
    expect(Block.parseDataUrl("https://example.com/data:x;base64,")).toBeUndefined()
  })
})
