/**
 * Valid payloads of shapes the generators do not make, each of which once
 * came back from a same-format round trip changed without a warning (or,
 * for a response, lost its content without one).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Message } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import type { ConversionWarning } from "../../src/providers/Conversion.js"
import { firstDifference, normalize } from "./adapterHelpers.js"

type Converted = Effect.Effect<{ readonly value: unknown; readonly warnings: ReadonlyArray<ConversionWarning> }, unknown>

const run = (effect: Converted): { readonly value: unknown; readonly warnings: ReadonlyArray<ConversionWarning> } => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isFailure(exit)) return assert.fail(`conversion failed: ${String(exit.cause)}`)
  return exit.value
}

const json = (u: unknown): unknown => JSON.parse(JSON.stringify(u))

/** Reads and writes `payload` back in its own format: it comes back the same (key order and explicit nulls aside), with no warning. */
const sameBack = (read: (p: unknown) => Converted, write: (v: unknown) => Converted, payload: unknown): unknown => {
  const r = run(read(payload))
  const w = run(write(r.value))
  assert.isUndefined(firstDifference(normalize(json(w.value)), normalize(json(payload))))
  assert.deepStrictEqual([...r.warnings, ...w.warnings], [])
  return r.value
}

const geminiMessages = (options?: Gemini.WriteOptions) => [(p: unknown) => Gemini.fromMessages(p), (v: unknown) => Gemini.toMessages(v as never, options)] as const

describe("Gemini", () => {
  it("a fileData part without a mimeType (a YouTube URL, as the API's guide sends it) goes back without one, in either spelling", () => {
    const video = { contents: [{ role: "user", parts: [{ fileData: { fileUri: "https://www.youtube.com/watch?v=9hE5-98ZeCg" } }, { text: "Summarize this video." }] }] }
    sameBack(...geminiMessages(), video)
    sameBack(...geminiMessages({ spelling: "asRead" }), { contents: [{ role: "user", parts: [{ file_data: { file_uri: "gs://bucket/clip.mp4" } }] }] })
    // a type set on the block afterwards is written
    const typed = { contents: [{ role: "user", parts: [{ fileData: { mimeType: "video/mp4", fileUri: "gs://bucket/clip.mp4" } }] }] }
    sameBack(...geminiMessages(), typed)
  })

  it("fromResponse with a candidate the response does not have fails with MalformedPayload, rather than reading nothing", () => {
    const response = { candidates: [{ content: { role: "model", parts: [{ text: "12°C in Oslo." }] }, finishReason: "STOP", index: 0 }] }
    for (const candidate of [1, -1, 0.5]) {
      const exit = Effect.runSyncExit(Gemini.fromResponse(response, { candidate }))
      assert.isTrue(Exit.isFailure(exit) && String(exit.cause).includes(`no candidate ${candidate}`), String(candidate))
    }
    // a prompt that was blocked has no candidates at all: that is read, as a content filter
    const blocked = run(Gemini.fromResponse({ promptFeedback: { blockReason: "SAFETY" } }, { candidate: 0 }))
    assert.strictEqual((blocked.value as { readonly finishReason: string }).finishReason, "content-filter")
  })

  it("a user content of results and text, in either order, goes back as one content, not one per message it was read as", () => {
    const calls = { role: "model", parts: [{ functionCall: { id: "a", name: "weather", args: { city: "Oslo" } } }, { functionCall: { id: "b", name: "weather", args: { city: "Bergen" } } }] }
    const answer = (id: string) => ({ functionResponse: { id, name: "weather", response: { output: "4°C" } } })
    const question = { role: "user", parts: [{ text: "Weather in Oslo and Bergen?" }] }
    for (
      const parts of [
        [answer("a"), answer("b"), { text: "And tomorrow?" }],
        [answer("a"), { text: "Bergen is still running." }, answer("b")]
      ]
    ) {
      const messages = sameBack(...geminiMessages(), { contents: [question, calls, { role: "user", parts }, { role: "model", parts: [{ text: "Sunny." }] }] })
      assert.isAbove((messages as ReadonlyArray<unknown>).length, 4)
    }
  })

  it.effect("a message read from a shared content joins only the message before it, and only when that one is a user content", () =>
    Effect.gen(function*() {
      const read = yield* Gemini.fromMessages({ contents: [{ role: "user", parts: [{ text: "hi" }, { functionResponse: { id: "a", name: "f", response: {} } }, { text: "more" }] }] })
      // the results first (they answer the calls before them), then the texts, which remember their places
      const [results, texts] = read.value
      assert.deepStrictEqual(read.value.map((m) => m.role), ["tool", "user"])
      // a model turn put between them: the texts are a content of their own
      const apart = yield* Gemini.toMessages([results!, Message.assistant("ok"), texts!])
      assert.deepStrictEqual(apart.value.contents.map((c) => [c.role, c.parts.length]), [["user", 1], ["model", 1], ["user", 2]])
      // the results taken out: the texts are one content
      const alone = yield* Gemini.toMessages([texts!])
      assert.deepStrictEqual(alone.value.contents.map((c) => [c.role, c.parts.length]), [["user", 2]])
    }))
})

describe("OpenAI Chat", () => {
  const messages = [(p: unknown) => OpenAiChat.fromMessages(p as never), (v: unknown) => OpenAiChat.toMessages(v as never)] as const

  it("a file part whose file_data is a data: URL that is not base64 is kept as it came, not read as base64 text", () => {
    const payload = [{ role: "user", content: [{ type: "file", file: { file_data: "data:text/plain,hello%20world", filename: "a.txt" } }, { type: "text", text: "Read it." }] }]
    const read = sameBack(...messages, payload) as ReadonlyArray<{ readonly content: ReadonlyArray<{ readonly _tag: string }> }>
    assert.strictEqual(read[0]!.content[0]!._tag, "ProviderData")
  })

  it("file_data that is neither a data: URL nor base64 text (a URL, a data: URL after a stray character) is kept as it came, not sent back inside a second data: URL", () => {
    for (const fileData of ["https://example.com/report.pdf", " data:application/pdf;base64,JVBERi0x", "\u0085data:application/pdf;base64,JVBERi0x"]) {
      const payload = [{ role: "user", content: [{ type: "file", file: { file_data: fileData, filename: "report.pdf" } }, { type: "text", text: "Read it." }] }]
      const read = sameBack(...messages, payload) as ReadonlyArray<{ readonly content: ReadonlyArray<{ readonly _tag: string }> }>
      assert.strictEqual(read[0]!.content[0]!._tag, "ProviderData")
    }
  })

  it("bare base64 file_data has the type its file name names, else PDF's", () => {
    const fileOf = (filename: string | undefined) => {
      const file = { file_data: "UEsDBA==", ...(filename === undefined ? {} : { filename }) }
      const read = run(OpenAiChat.fromMessages([{ role: "user", content: [{ type: "file", file }] }] as never)).value
      return (read as ReadonlyArray<{ readonly content: ReadonlyArray<{ readonly mediaType: string }> }>)[0]!.content[0]!.mediaType
    }
    assert.deepStrictEqual([fileOf("notes.docx"), fileOf("report.pdf"), fileOf(undefined), fileOf("picture.png")], [
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/pdf",
      "application/pdf",
      // not a document type: the Chat file part is a document
      "application/pdf"
    ])
  })

  it("a deprecated function message whose content is null goes back with null", () => {
    const call = { role: "assistant", content: null, function_call: { name: "lookup", arguments: "{}" } }
    sameBack(...messages, [{ role: "user", content: "Look it up." }, call, { role: "function", name: "lookup", content: null }])
    sameBack(...messages, [{ role: "user", content: "Look it up." }, call, { role: "function", name: "lookup", content: "" }])
  })
})

describe("OpenAI Responses", () => {
  it("a body that continues a stored response or a prompt, without input, goes back without input", () => {
    const request = [(p: unknown) => OpenAiResponses.fromRequest(p as never), (v: unknown) => OpenAiResponses.toRequest(v as never)] as const
    sameBack(...request, { model: "gpt-5", previous_response_id: "resp_123" })
    sameBack(...request, { model: "gpt-5", prompt: { id: "pmpt_123", variables: { city: "Oslo" } } })
    sameBack(...request, { model: "gpt-5", previous_response_id: "resp_123", instructions: "Be brief." })
    // once it has messages, they are written as input
    const read = run(OpenAiResponses.fromRequest({ model: "gpt-5", previous_response_id: "resp_123" } as never)).value as { readonly messages: ReadonlyArray<unknown> }
    const added = { ...(read as object), messages: [...read.messages, { role: "user", content: [{ _tag: "Text", text: "And now?" }] }] }
    const written = run(OpenAiResponses.toRequest(added as never)).value as { readonly input?: unknown }
    assert.deepStrictEqual(written.input, [{ role: "user", content: "And now?" }])
  })
})

describe("Anthropic", () => {
  it("an MCP connector toolset, a server tool without a name, is read (named by its server) and goes back without a name", () => {
    const body = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "What changed in the repo?" }],
      mcp_servers: [{ type: "url", url: "https://mcp.example.com/sse", name: "repo" }],
      tools: [{ type: "mcp_toolset", mcp_server_name: "repo", default_config: { enabled: true } }, { name: "notes", input_schema: { type: "object" } }]
    }
    const read = sameBack((p) => Anthropic.fromRequest(p), (v) => Anthropic.toRequest(v as never), body) as { readonly tools: ReadonlyArray<{ readonly name: string }> }
    assert.deepStrictEqual(read.tools.map((t) => t.name), ["repo", "notes"])
  })
})
