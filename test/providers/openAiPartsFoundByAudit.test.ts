/**
 * Issues an audit of the OpenAI adapters against the installed SDK types
 * found: a file part that named two sources (each is optional in the types)
 * came back with one, an image `data:` URL lost its media-type parameters,
 * and a Responses `function_call_output` without a `call_id` (optional in
 * the types, as a program's call may have none) was refused on input while
 * the response reader kept it, so the adapter could not read what it wrote.
 * None of them said anything: no warning, no error.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message, Request } from "../../src/index.js"
import { OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

/** Reads a request body and writes it back: the body written and every warning of both ways. */
const roundTrip = (adapter: typeof OpenAiChat | typeof OpenAiResponses, body: object) =>
  Effect.gen(function*() {
    const read = yield* adapter.fromRequest(body as never)
    const written = yield* adapter.toRequest(read.value)
    return { request: read.value, body: written.value as unknown, warnings: [...read.warnings, ...written.warnings] }
  })

/** The request, one user message of files, with every file's source replaced, keeping all else the file carries. */
const withSources = (request: Request.Request, source: Block.FileSource): Request.Request => {
  const files = request.messages[0]!.content as ReadonlyArray<Block.FileBlock>
  const moved = files.map((b) => Block.file(source, b.mediaType, { ...(b.filename === undefined ? {} : { filename: b.filename }), ...(b.providerOptions === undefined ? {} : { providerOptions: b.providerOptions }) }))
  return Request.make([Message.user(moved)], { model: request.model ?? "m" })
}

describe("a file part that names two sources", () => {
  it.effect("Chat: a file's id beside its data comes back beside it", () =>
    Effect.gen(function*() {
      const body = { model: "gpt-4o", messages: [{ role: "user", content: [{ type: "file", file: { file_id: "file-1", file_data: "data:application/pdf;base64,JVBERi0=", filename: "a.pdf" } }] }] }
      const { body: back, warnings } = yield* roundTrip(OpenAiChat, body)
      assert.deepStrictEqual(back, body)
      assert.deepStrictEqual(warnings, [])
    }))

  it.effect("Responses: every pair of sources of input_image and input_file comes back, in a message and in a tool output", () =>
    Effect.gen(function*() {
      const parts = [
        { type: "input_image", image_url: "https://example.com/a.png", file_id: "file-1", detail: "low" },
        { type: "input_file", file_id: "file-2", file_url: "https://example.com/b.pdf" },
        { type: "input_file", file_data: "data:application/pdf;base64,JVBERi0=", file_url: "https://example.com/c.pdf", filename: "c.pdf" },
        { type: "input_file", file_data: "data:application/pdf;base64,JVBERi0=", file_id: "file-3", file_url: "https://example.com/d.pdf", filename: "d.pdf" }
      ]
      const body = {
        model: "gpt-5",
        input: [
          { role: "user", content: parts },
          { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
          { type: "function_call_output", call_id: "c1", output: [{ type: "input_image", image_url: "https://example.com/e.png", file_id: "file-4", detail: "auto" }] }
        ]
      }
      const { body: back, warnings } = yield* roundTrip(OpenAiResponses, body)
      assert.deepStrictEqual(back, body)
      assert.deepStrictEqual(warnings, [])
    }))

  it.effect("the block's own source wins over a kept one when the two name the same field", () =>
    Effect.gen(function*() {
      const responses = yield* OpenAiResponses.fromRequest({
        model: "gpt-5",
        input: [{ role: "user", content: [{ type: "input_file", file_data: "data:application/pdf;base64,JVBERi0=", file_url: "https://example.com/old.pdf", filename: "a.pdf" }] }]
      })
      const moved = yield* OpenAiResponses.toRequest(withSources(responses.value, Block.url("https://example.com/new.pdf")))
      const part = (moved.value.input as ReadonlyArray<{ readonly content: ReadonlyArray<Record<string, unknown>> }>)[0]!.content[0]!
      assert.strictEqual(part["file_url"], "https://example.com/new.pdf")
      assert.isUndefined(part["file_data"])

      const chat = yield* OpenAiChat.fromRequest({
        model: "gpt-4o",
        messages: [{ role: "user", content: [{ type: "file", file: { file_id: "file-old", file_data: "data:application/pdf;base64,JVBERi0=", filename: "a.pdf" } }] }]
      })
      const changed = yield* OpenAiChat.toRequest(withSources(chat.value, Block.fileId("file-new")))
      const message = changed.value.messages[0] as { readonly content: ReadonlyArray<{ readonly file: Record<string, unknown> }> }
      assert.strictEqual(message.content[0]!.file["file_id"], "file-new")
    }))
})

describe("an image data: URL with media-type parameters", () => {
  const url = "data:image/jpeg;name=photo.jpg;base64,/9j/4AAQ"

  it.effect("comes back with them, in Chat and in Responses", () =>
    Effect.gen(function*() {
      const chat = { model: "gpt-4o", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url } }] }] }
      assert.deepStrictEqual((yield* roundTrip(OpenAiChat, chat)).body, chat)
      const responses = { model: "gpt-5", input: [{ role: "user", content: [{ type: "input_image", image_url: url, detail: "auto" }] }] }
      assert.deepStrictEqual((yield* roundTrip(OpenAiResponses, responses)).body, responses)
    }))

  it.effect("goes to another format with the bare type, as the API takes it", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url } }] }] })
      const file = read.value.messages[0]!.content[0] as Block.FileBlock
      assert.strictEqual(file.mediaType, "image/jpeg;name=photo.jpg")
      const written = yield* OpenAiResponses.toRequest(read.value)
      const part = (written.value.input as ReadonlyArray<{ readonly content: ReadonlyArray<Record<string, unknown>> }>)[0]!.content[0]!
      assert.strictEqual(part["image_url"], "data:image/jpeg;base64,/9j/4AAQ")
    }))

  it.effect("a bare image type is still written without a hint", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest({ model: "gpt-4o", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] }] })
      assert.isUndefined((read.value.messages[0]!.content[0] as Block.FileBlock).providerOptions)
    }))
})

describe("a Responses function_call_output without a call_id", () => {
  const body = (callId: { readonly call_id?: null }) => ({
    model: "gpt-5",
    input: [
      { role: "user", content: "Run the program." },
      { type: "function_call", call_id: "c1", name: "f", arguments: "{}", caller: { type: "program", caller_id: "pg_1" } },
      { type: "function_call_output", ...callId, output: "x", caller: { type: "program", caller_id: "pg_1" } }
    ]
  })

  it.effect("is read, kept whole on the assistant side, and written back as it came (absent or null)", () =>
    Effect.gen(function*() {
      for (const callId of [{}, { call_id: null }]) {
        const { request, body: back, warnings } = yield* roundTrip(OpenAiResponses, body(callId))
        assert.deepStrictEqual(back, body(callId))
        assert.deepStrictEqual(warnings, [])
        const kept = request.messages.flatMap((m) => m.content).filter((b) => b._tag === "ProviderData")
        assert.strictEqual(kept.length, 1)
      }
    }))

  it.effect("reads back what the adapter writes from a response that holds one", () =>
    Effect.gen(function*() {
      const reply = yield* OpenAiResponses.fromResponse({
        id: "resp_1",
        object: "response",
        created_at: 1,
        model: "gpt-5",
        status: "completed",
        output: [
          { type: "function_call", id: "fc_1", call_id: "c1", name: "f", arguments: "{}", status: "completed" },
          { type: "function_call_output", id: "fco_1", output: "x", status: "completed" }
        ]
      } as never)
      const input = yield* OpenAiResponses.toMessages([Message.user("q"), reply.value.message])
      const again = yield* OpenAiResponses.fromMessages(input.value)
      const written = yield* OpenAiResponses.toMessages(again.value)
      assert.deepStrictEqual(written.value, input.value)
    }))

  it.effect("a call_id that is there but not a string is still refused, with where it is", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(OpenAiResponses.fromRequest({ model: "gpt-5", input: [{ type: "function_call_output", call_id: 7, output: "x" }] } as never))
      assert.strictEqual(error._tag, "MalformedPayload")
      assert.include(error.message, "input[0].call_id")
    }))
})
