/**
 * Building a request freezes it and its tools; what the caller gave stays the caller's. And a message's validation
 * reads the message when its Effect runs, as every Effect of the package does its work. (An audit of the message model
 * found the caller's schema frozen in place, and Message.validate reading at once.)
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Block, Message, Request } from "../src/index.js"

describe("Request constructors copy the JSON they are given", () => {
  it("a schema, a provider tool's config, options and a tool built with new stay the caller's to change", () => {
    const parameters = { type: "object", properties: { city: { type: "string" } } } as Block.JsonObject
    const config = { max_uses: 5 }
    const providerOptions = { openai: { store: false } }
    const built = new Request.ToolDefinition({ name: "b", parameters: { type: "object", properties: {} } })
    const weather = Request.tool("get_weather", { parameters })
    const search = Request.providerTool("web_search", "anthropic", "web_search_20250305", config)
    const request = Request.make([Message.user("hi")], { tools: [weather, search, built], providerOptions })
    for (const given of [parameters, parameters["properties"] as object, config, providerOptions, providerOptions.openai, built.parameters!]) expect(Object.isFrozen(given)).toBe(false)
    expect(Object.isFrozen(request.tools![2]!.parameters)).toBe(true)
    expect(request.tools![0]!.parameters).toEqual(parameters)
    expect(request.tools![1]!.providerDefined?.config).toEqual(config)
    expect(request.providerOptions).toEqual(providerOptions)
    // frozen tools are kept as they are
    expect(request.tools![0]).toBe(weather)
  })
})

describe("Message.validate", () => {
  it("reads the message when the Effect runs", () => {
    const m = new Message.AssistantMessage({ role: "assistant", content: [] })
    const check = Message.validate(m)
    ;(m.content as Array<Block.AssistantBlock>).push(Block.text("hi"))
    expect(Exit.isSuccess(Effect.runSyncExit(check))).toBe(true)
  })
})
