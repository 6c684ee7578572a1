/**
 * What an audit of the Gemini adapter found: a named choice of a tool Gemini
 * runs written as a function name, Anthropic's own tools (kept the older way,
 * with an Anthropic `type`) written as function declarations, and a user
 * content whose text comes before its function responses read so that the
 * results stood apart from their calls.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Conversation, Message, Repair, Request } from "../../src/index.js"
import { Gemini } from "../../src/providers/index.js"
import { json } from "./adapterHelpers.js"

const hi = { role: "user", parts: [{ text: "Weather in Oslo?" }] }
const messages = (warnings: ReadonlyArray<{ readonly message: string }>) => warnings.map((w) => w.message)

describe("a named tool choice of a tool Gemini runs", () => {
  const request = (choice: string) =>
    Request.make([Message.user("Weather in Oslo?")], {
      tools: [Request.providerTool("googleSearch", "gemini", "googleSearch", {}), Request.tool("get_weather")],
      toolChoice: { _tag: "Tool", name: choice }
    })

  it.effect("is not written as a function name, and is reported", () =>
    Effect.gen(function*() {
      const written = yield* Gemini.toRequest(request("googleSearch"))
      assert.isUndefined(written.value.toolConfig)
      assert.deepStrictEqual(written.value.tools, [{ googleSearch: {} }, { functionDeclarations: [{ name: "get_weather" }] }])
      assert.deepStrictEqual(written.warnings.map((w) => w._tag), ["DroppedContent"])
      assert.include(written.warnings[0]!.message, "googleSearch")
      // with strict, the conversion fails rather than send it
      const strict = yield* Effect.flip(Gemini.toRequest(request("googleSearch"), { strict: true }))
      assert.strictEqual(strict._tag, "UnsupportedContent")
      // a choice of the function beside it is the function's name, as before
      const function_ = yield* Gemini.toRequest(request("get_weather"))
      assert.deepStrictEqual(function_.value.toolConfig, { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } })
      assert.deepStrictEqual(function_.warnings, [])
    }))

  it.effect("read from a Gemini body that names a tool it runs, is kept as the body gave it and written back so", () =>
    Effect.gen(function*() {
      const body = {
        contents: [hi],
        tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: "get_weather" }] }],
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["googleSearch"] } }
      }
      const read = yield* Gemini.fromRequest(body)
      assert.deepStrictEqual(read.warnings, [])
      assert.isUndefined(read.value.toolChoice)
      const written = yield* Gemini.toRequest(read.value)
      assert.deepStrictEqual(written.warnings, [])
      assert.deepStrictEqual<unknown>(written.value, body)
    }))
})

describe("Anthropic's own tools kept with an Anthropic type", () => {
  const anthropicTool = (name: string, type: string, config: { readonly [key: string]: number } = {}) =>
    Request.tool(name, { providerOptions: { anthropic: { type, ...config } } })

  it.effect("are not written as function declarations; each is reported, and a named choice of one with it", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("List the files")], {
        tools: [
          anthropicTool("bash", "bash_20250124"),
          Request.tool("get_weather"),
          anthropicTool("str_replace_based_edit_tool", "text_editor_20250429"),
          anthropicTool("computer", "computer_20250124", { display_width_px: 1024, display_height_px: 768 }),
          anthropicTool("web_search", "web_search_20250305", { max_uses: 3 })
        ],
        toolChoice: { _tag: "Tool", name: "web_search" }
      })
      const written = yield* Gemini.toRequest(request)
      assert.deepStrictEqual(written.value.tools, [{ functionDeclarations: [{ name: "get_weather" }] }])
      assert.isUndefined(written.value.toolConfig)
      const reported = messages(written.warnings)
      for (const name of ["bash", "str_replace_based_edit_tool", "computer", "web_search"]) {
        assert.isTrue(reported.some((m) => m.includes(`the definition of ${name}`)), reported.join("\n"))
      }
      assert.isTrue(reported.some((m) => m.includes("the tool choice web_search")), reported.join("\n"))
      assert.isTrue(written.warnings.every((w) => w._tag === "DroppedContent"))
      // Anthropic's name for a function tool is a function as any other
      const custom = yield* Gemini.toRequest(Request.make([Message.user("hi")], { tools: [anthropicTool("get_weather", "custom")] }))
      assert.deepStrictEqual(custom.value.tools, [{ functionDeclarations: [{ name: "get_weather" }] }])
      assert.deepStrictEqual(custom.warnings, [])
    }))
})

describe("a user content with text before its function responses", () => {
  const call = { role: "model", parts: [{ functionCall: { id: "a", name: "get_weather", args: { city: "Oslo" } } }, { functionCall: { id: "b", name: "get_weather", args: { city: "Bergen" } } }] }
  const response = (id: string) => ({ functionResponse: { id, name: "get_weather", response: { output: "4°C" } } })
  const idless = (text: string) => ({ functionResponse: { name: "get_weather", response: { output: text } } })
  const after = { role: "model", parts: [{ text: "Cold in both." }] }

  const shapes: ReadonlyArray<readonly [string, ReadonlyArray<object>]> = [
    ["text, results", [{ text: "Here you go." }, response("a"), response("b")]],
    ["result, text, result", [response("a"), { text: "Bergen is still running." }, response("b")]],
    ["text, result, text, result", [{ text: "One:" }, response("a"), { text: "Two:" }, response("b")]],
    ["a file, results, text", [{ inlineData: { mimeType: "image/png", data: "AAAA" } }, response("a"), response("b"), { text: "and a map" }]]
  ]

  for (const [name, parts] of shapes) {
    it.effect(`(${name}) reads as the results, then the rest, valid for Gemini and left alone by its repair`, () =>
      Effect.gen(function*() {
        const body = { contents: [hi, call, { role: "user", parts }, after] }
        const read = yield* Gemini.fromMessages(body)
        assert.deepStrictEqual(read.warnings, [])
        assert.deepStrictEqual(read.value.map((m) => m.role), ["user", "assistant", "tool", "user", "assistant"])
        yield* Conversation.validate(read.value)
        yield* Conversation.validateFor("gemini")(read.value)
        const repaired = yield* Repair.repairFor("gemini")(read.value)
        assert.deepStrictEqual(repaired.actions, [])
        assert.deepStrictEqual(json(repaired.messages), json(read.value))
        // written back: one content, its parts in the order they came
        const written = yield* Gemini.toMessages(read.value)
        assert.deepStrictEqual(written.warnings, [])
        assert.deepStrictEqual<unknown>(written.value, body)
      }))
  }

  it.effect("responses without ids are still matched to their calls in order, and go back in their places", () =>
    Effect.gen(function*() {
      const calls = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }, { functionCall: { name: "get_weather", args: { city: "Bergen" } } }] }
      const body = { contents: [hi, calls, { role: "user", parts: [{ text: "Both:" }, idless("Oslo: 4°C"), { text: "and" }, idless("Bergen: 6°C")] }, after] }
      const read = yield* Gemini.fromMessages(body)
      yield* Conversation.validateFor("gemini")(read.value)
      const ids = Message.toolCallsOf(read.value[1]!).map((c) => c.id)
      assert.deepStrictEqual(read.value[2]!.content.map((b) => (b._tag === "ToolResult" ? b.toolCallId : "")), ids)
      assert.deepStrictEqual<unknown>((yield* Gemini.toMessages(read.value)).value, body)
    }))

  it.effect("a message changed since it was read goes after the results, where it fits", () =>
    Effect.gen(function*() {
      const read = yield* Gemini.fromMessages({ contents: [hi, call, { role: "user", parts: [{ text: "One:" }, response("a"), { text: "Two:" }, response("b")] }] })
      const [user, assistant, results, text] = read.value
      const kept = text!.providerOptions
      const shorter = Message.user((text as Message.UserMessage).content.slice(0, 1), kept === undefined ? {} : { providerOptions: kept })
      const written = yield* Gemini.toMessages([user!, assistant!, results!, shorter])
      assert.deepStrictEqual<unknown>(written.value.contents[2]!.parts, [response("a"), response("b"), { text: "One:" }])
    }))

  it.effect("the text joins the results' content only right after them: after a model turn, or alone, it is a content of its own", () =>
    Effect.gen(function*() {
      const read = yield* Gemini.fromMessages({ contents: [hi, call, { role: "user", parts: [{ text: "One:" }, response("a"), { text: "Two:" }, response("b")] }] })
      assert.deepStrictEqual(read.value.map((m) => m.role), ["user", "assistant", "tool", "user"])
      const [, , results, texts] = read.value
      const apart = yield* Gemini.toMessages([results!, Message.assistant("ok"), texts!])
      assert.deepStrictEqual<unknown>(apart.value.contents, [
        { role: "user", parts: [response("a"), response("b")] },
        { role: "model", parts: [{ text: "ok" }] },
        { role: "user", parts: [{ text: "One:" }, { text: "Two:" }] }
      ])
      const alone = yield* Gemini.toMessages([texts!])
      assert.deepStrictEqual<unknown>(alone.value.contents, [{ role: "user", parts: [{ text: "One:" }, { text: "Two:" }] }])
    }))
})
