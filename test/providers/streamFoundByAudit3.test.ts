/**
 * Stream readers, third audit: what a final value still replaced without a
 * trace (Responses shell commands and outputs, output_text logprobs, the
 * text of an item the terminal response replaced before its
 * `output_item.done`), and a Gemini `functionCall: {}` that closes no call.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { Message } from "../../src/index.js"
import { GeminiStream, type GeminiWire, OpenAiResponses, OpenAiResponsesStream, type OpenAiResponsesWire } from "../../src/providers/index.js"

type Event = OpenAiResponsesWire.StreamEvent

const base = { id: "resp_1", object: "response", created_at: 1741476542, model: "gpt-5" }
const ev = (type: string, rest: object): Event => ({ type, ...rest }) as unknown as Event
const created = (): Event => ev("response.created", { response: { ...base, status: "in_progress", output: [] } })
const completed = (output: ReadonlyArray<object>): Event => ev("response.completed", { response: { ...base, status: "completed", output } })

const success = (events: ReadonlyArray<Event>): OpenAiResponsesWire.Response => {
  const acc = OpenAiResponsesStream.make()
  for (const e of events) acc.push(e)
  const result = acc.done()
  if (Result.isFailure(result)) return assert.fail(result.failure.message)
  return result.success
}

const lp = (token: string, logprob: number) => ({ token, logprob, bytes: [], top_logprobs: [] })

describe("Responses stream: shell commands a final value replaced are kept", () => {
  const shell = { type: "shell_call", id: "sh_1", call_id: "call_1", status: "in_progress", action: { commands: [] } }
  const commandEvents = (doneCommand: string): ReadonlyArray<Event> => [
    created(),
    ev("response.output_item.added", { output_index: 0, item: shell }),
    ev("response.shell_call_command.added", { output_index: 0, command_index: 0, command: "" }),
    ev("response.shell_call_command.delta", { output_index: 0, command_index: 0, delta: "ls -" }),
    ev("response.shell_call_command.delta", { output_index: 0, command_index: 0, delta: "l" }),
    ev("response.shell_call_command.added", { output_index: 0, command_index: 1, command: "" }),
    ev("response.shell_call_command.delta", { output_index: 0, command_index: 1, delta: "pwd" }),
    ev("response.shell_call_command.done", { output_index: 0, command_index: 0, command: doneCommand }),
    ev("response.shell_call_command.done", { output_index: 0, command_index: 1, command: "pwd" })
  ]

  it("shell_call_command.done wins, and the commands the deltas built, differing from it, are kept as streamed_commands", () => {
    const final = { ...shell, status: "completed", action: { commands: ["ls -la", "pwd"] } }
    const response = success([...commandEvents("ls -la"), ev("response.output_item.done", { output_index: 0, item: final }), completed([final])])
    assert.deepStrictEqual<unknown>(response.output, [{ ...final, streamed_commands: ["ls -l", "pwd"] }])
    // deltas that add up to the final commands leave nothing beside them
    const same = { ...shell, status: "completed", action: { commands: ["ls -l", "pwd"] } }
    const plain = success([...commandEvents("ls -l"), ev("response.output_item.done", { output_index: 0, item: same }), completed([same])])
    assert.deepStrictEqual<unknown>(plain.output, [same])
  })

  it("an output_item.done whose commands differ from the deltas' keeps them as streamed_commands, also in a snapshot", () => {
    const final = { ...shell, status: "completed", action: { commands: ["ls -la", "pwd"] } }
    const acc = OpenAiResponsesStream.make()
    for (const e of [...commandEvents("ls -l"), ev("response.output_item.done", { output_index: 0, item: final })]) acc.push(e)
    assert.deepStrictEqual<unknown>(acc.snapshot()?.output, [{ ...final, streamed_commands: ["ls -l", "pwd"] }])
  })

  it("shell_call_output_content.done wins, and the output the deltas built, differing from it, is kept as streamed_output", () => {
    const item = { type: "shell_call_output", id: "so_1", call_id: "call_1", status: "in_progress", output: [] }
    const finalOutput = [{ stdout: "a.txt\nb.txt\n", stderr: "", outcome: { type: "exit", exit_code: 0 } }]
    const final = { ...item, status: "completed", output: finalOutput }
    const response = success([
      created(),
      ev("response.output_item.added", { output_index: 0, item }),
      ev("response.shell_call_output_content.delta", { output_index: 0, command_index: 0, delta: { stdout: "a.txt\n" } }),
      ev("response.shell_call_output_content.done", { output_index: 0, command_index: 0, output: finalOutput }),
      ev("response.output_item.done", { output_index: 0, item: final }),
      completed([final])
    ])
    assert.deepStrictEqual<unknown>(response.output, [{ ...final, streamed_output: [{ stdout: "a.txt\n", stderr: "" }] }])
  })
})

describe("Responses stream: output_text logprobs a final value replaced are kept", () => {
  const message = { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] }
  const part = { type: "output_text", text: "", annotations: [], logprobs: [] }
  const events = (doneLogprobs: ReadonlyArray<object>, finalPart: object): ReadonlyArray<Event> => {
    const finalMessage = { ...message, status: "completed", content: [finalPart] }
    return [
      created(),
      ev("response.output_item.added", { output_index: 0, item: message }),
      ev("response.content_part.added", { output_index: 0, content_index: 0, part }),
      ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "Hi", logprobs: [lp("Hi", -0.5)] }),
      ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "!", logprobs: [lp("!", -0.25)] }),
      ev("response.output_text.done", { output_index: 0, content_index: 0, text: "Hi!", logprobs: doneLogprobs }),
      ev("response.content_part.done", { output_index: 0, content_index: 0, part: finalPart }),
      ev("response.output_item.done", { output_index: 0, item: finalMessage }),
      completed([finalMessage])
    ]
  }

  it("output_text.done's logprobs win, and the deltas' logprobs, differing from them, are kept as streamed_logprobs", () => {
    const finalLogprobs = [lp("Hi", -0.4), lp("!", -0.2)]
    const finalPart = { ...part, text: "Hi!", logprobs: finalLogprobs }
    const response = success(events(finalLogprobs, finalPart))
    const content = (response.output[0] as { readonly content: ReadonlyArray<object> }).content
    assert.deepStrictEqual<unknown>(content, [{ ...finalPart, streamed_logprobs: [lp("Hi", -0.5), lp("!", -0.25)] }])
    // logprobs the deltas streamed as the final part has them leave nothing beside them
    const same = [lp("Hi", -0.5), lp("!", -0.25)]
    const samePart = { ...part, text: "Hi!", logprobs: same }
    assert.deepStrictEqual<unknown>((success(events(same, samePart)).output[0] as { readonly content: ReadonlyArray<object> }).content, [samePart])
  })

  it("a final part without logprobs keeps the deltas' as streamed_logprobs", () => {
    const finalPart = { type: "output_text", text: "Hi!", annotations: [] }
    const response = success(events([], finalPart))
    const content = (response.output[0] as { readonly content: ReadonlyArray<object> }).content
    assert.deepStrictEqual<unknown>(content, [{ ...finalPart, streamed_logprobs: [lp("Hi", -0.5), lp("!", -0.25)] }])
  })
})

describe("Responses stream: the terminal response replaces an item that never got output_item.done, keeping what was streamed", () => {
  it("the terminal text wins, and the streamed text differing from it is kept as streamed_text", () => {
    const message = { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] }
    const finalMessage = { ...message, status: "completed", content: [{ type: "output_text", text: "Hello, world.", annotations: [] }] }
    const response = success([
      created(),
      ev("response.output_item.added", { output_index: 0, item: message }),
      ev("response.content_part.added", { output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
      ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "Hello, wor" }),
      completed([finalMessage])
    ])
    assert.deepStrictEqual<unknown>(response.output, [{ ...finalMessage, content: [{ type: "output_text", text: "Hello, world.", annotations: [], streamed_text: "Hello, wor" }] }])
    assert.strictEqual(OpenAiResponsesStream.outputText(response), "Hello, world.")
  })

  it("the terminal arguments win, and the streamed arguments differing from them are kept as streamed_arguments", () => {
    const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: "", status: "in_progress" }
    const final = { ...call, arguments: "{\"a\":1}", status: "completed" }
    const response = success([
      created(),
      ev("response.output_item.added", { output_index: 0, item: call }),
      ev("response.function_call_arguments.delta", { output_index: 0, delta: "{\"a\":2}" }),
      completed([final])
    ])
    assert.deepStrictEqual<unknown>(response.output, [{ ...final, streamed_arguments: "{\"a\":2}" }])
  })
})

describe("Gemini stream: a functionCall: {} that closes no call", () => {
  const chunk = (parts: ReadonlyArray<object>, finishReason?: string): GeminiWire.StreamEvent =>
    ({ candidates: [{ index: 0, content: { role: "model", parts }, ...(finishReason === undefined ? {} : { finishReason }) }] }) as unknown as GeminiWire.StreamEvent

  const protocolError = (chunks: ReadonlyArray<GeminiWire.StreamEvent>) => {
    const acc = GeminiStream.make()
    for (const c of chunks) acc.push(c)
    const done = acc.done()
    if (Result.isSuccess(done)) return assert.fail(`expected a failure, got ${JSON.stringify(done.success)}`)
    if (done.failure._tag !== "StreamProtocolError") return assert.fail(`expected a StreamProtocolError, got ${done.failure.message}`)
    return done.failure
  }

  it("after a text part, is a protocol error naming it, and the partial response keeps every part as sent", () => {
    const error = protocolError([
      chunk([{ functionCall: { name: "f", id: "c1", args: { a: 1 } } }]),
      chunk([{ text: "done" }]),
      chunk([{ functionCall: {} }], "STOP")
    ])
    assert.include(error.reason, "functionCall")
    assert.include(error.reason, "empty")
    const parts = (error.partial as GeminiWire.GenerateContentResponse | undefined)?.candidates?.[0]?.content?.parts
    assert.deepStrictEqual<unknown>(parts, [{ functionCall: { name: "f", id: "c1", args: { a: 1 } } }, { text: "done" }, { functionCall: {} }])
  })

  it("after the finish, is a protocol error too", () => {
    const error = protocolError([
      chunk([{ functionCall: { name: "f", args: { a: 1 } } }], "STOP"),
      chunk([{ function_call: { args: {} } }])
    ])
    assert.include(error.reason, "empty")
  })
})

describe("Responses writer: the streamed_* values of shell items and logprobs are not sent back", () => {
  it.effect("streamed_commands, streamed_output and streamed_logprobs stay in the model, and are left out of the request, reported", () =>
    Effect.gen(function*() {
      const shell = { type: "shell_call", id: "sh_1", call_id: "call_1", status: "in_progress", action: { commands: [] } }
      const finalShell = { ...shell, status: "completed", action: { commands: ["ls -la"] } }
      const message = { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] }
      const part = { type: "output_text", text: "", annotations: [], logprobs: [] }
      const finalMessage = { ...message, status: "completed", content: [{ ...part, text: "Hi", logprobs: [lp("Hi", -0.4)] }] }
      const output = { type: "shell_call_output", id: "so_1", call_id: "call_1", status: "in_progress", output: [] }
      const finalOutput = { ...output, status: "completed", output: [{ stdout: "a\nb\n", stderr: "", outcome: { type: "exit", exit_code: 0 } }] }
      const { value } = yield* OpenAiResponses.fromEvents([
        created(),
        ev("response.output_item.added", { output_index: 0, item: message }),
        ev("response.content_part.added", { output_index: 0, content_index: 0, part }),
        ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "Hi", logprobs: [lp("Hi", -0.5)] }),
        ev("response.output_item.done", { output_index: 0, item: finalMessage }),
        ev("response.output_item.added", { output_index: 1, item: shell }),
        ev("response.shell_call_command.delta", { output_index: 1, command_index: 0, delta: "ls -l" }),
        ev("response.output_item.done", { output_index: 1, item: finalShell }),
        ev("response.output_item.added", { output_index: 2, item: output }),
        ev("response.shell_call_output_content.delta", { output_index: 2, command_index: 0, delta: { stdout: "a\n" } }),
        ev("response.output_item.done", { output_index: 2, item: finalOutput }),
        completed([finalMessage, finalShell, finalOutput])
      ])
      const read = JSON.stringify(value.message)
      for (const name of ["streamed_logprobs", "streamed_commands", "streamed_output"]) assert.include(read, name)
      const written = yield* OpenAiResponses.toMessages([Message.user("List the files."), value.message])
      assert.notInclude(JSON.stringify(written.value), "streamed_")
      assert.deepStrictEqual(written.warnings.map((w) => w._tag), ["DroppedContent", "DroppedContent", "DroppedContent"])
    }))
})
