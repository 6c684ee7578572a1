/**
 * Values nested deeper than `JSON.stringify` can write (it overflows near
 * 10,000 levels), put at every position of realistic request bodies and
 * stream events: every conversion, validation, repair and window fit ends in
 * a success or a typed failure (never a defect), and every warning's and
 * error's `message` can be read.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { Conversation, type Message, MessageWindow, type Provider, Repair, type Request, TokenEstimator } from "../../src/index.js"
import { Anthropic, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import * as Payloads from "../providers/fixtures/adapterPayloads.js"
import * as AnthropicFixtures from "../providers/fixtures/anthropic.js"
import * as GeminiFixtures from "../providers/fixtures/gemini.js"
import * as ChatFixtures from "../providers/fixtures/openAiChat.js"
import * as ResponsesFixtures from "../providers/fixtures/openAiResponses.js"
import { eventsOf, type Fixture } from "../providers/fixtures/sse.js"
import { renderChatRequest } from "../../src/internal/openAiChatPrompt.js"
import { deepValue, getAt, pathsOf, updateAt } from "./generators.js"

const LEVELS = 20_000
const deepObject = deepValue(LEVELS, "object")
const deepArray = deepValue(LEVELS, "array")

const json = <A>(u: A): A => JSON.parse(JSON.stringify(u)) as A

type Step = Effect.Effect<unknown, unknown>

/** What went wrong in one step, or undefined: a throw, a defect, or a message that cannot be read. */
const problemOf = (run: () => Step): { readonly problem?: string; readonly value?: unknown } => {
  let exit: Exit.Exit<unknown, unknown>
  try {
    exit = Effect.runSyncExit(run())
  } catch (cause) {
    return { problem: `threw ${String(cause)}` }
  }
  if (Exit.isFailure(exit)) {
    if (Cause.hasDies(exit.cause)) {
      const die = exit.cause.reasons.find((r) => r._tag === "Die")
      return { problem: `died: ${die?._tag === "Die" ? String(die.defect) : "?"}` }
    }
    const fail = exit.cause.reasons.find((r) => r._tag === "Fail")
    const unreadable = unreadableOf(fail?._tag === "Fail" ? fail.error : undefined)
    return unreadable === undefined ? {} : { problem: `its failure: ${unreadable}` }
  }
  const warnings = (exit.value as { readonly warnings?: unknown }).warnings
  if (Array.isArray(warnings)) {
    for (const w of warnings as ReadonlyArray<unknown>) {
      const unreadable = unreadableOf(w)
      if (unreadable !== undefined) return { problem: `a warning: ${unreadable}` }
    }
  }
  return { value: exit.value }
}

const unreadableOf = (error: unknown): string | undefined => {
  try {
    const tag = (error as { readonly _tag?: unknown })._tag
    const message = (error as { readonly message?: unknown }).message
    if (typeof message !== "string" || message === "") return `${String(tag)} has no message`
    if (message.length > 2_000) return `${String(tag)}'s message is ${message.length} characters long`
    if (message.includes("[object Object]") || message.includes("[unprintable]")) return `${String(tag)}'s message shows no value: ${message.slice(0, 200)}`
    return undefined
  } catch (cause) {
    return `reading its message threw ${String(cause)}`
  }
}

const providers: ReadonlyArray<Provider.Provider> = ["openai-chat", "openai-responses", "anthropic", "gemini"]

const writers: ReadonlyArray<readonly [string, (r: Request.Request) => Step]> = [
  ["OpenAiChat.toRequest", (r) => OpenAiChat.toRequest(r)],
  ["OpenAiResponses.toRequest", (r) => OpenAiResponses.toRequest(r)],
  ["Anthropic.toRequest", (r) => Anthropic.toRequest(r, { maxTokens: 1024 })],
  ["Gemini.toRequest", (r) => Gemini.toRequest(r)],
  ["EffectAi.toPrompt", (r) => EffectAi.toPrompt(r.messages)]
]

const windowLayer = MessageWindow.layer.pipe(Layer.provide(TokenEstimator.layer))

/** Every step after reading a request: the problems found, one line each. */
const problemsAfter = (request: Request.Request): Array<string> => {
  const out: Array<string> = []
  const note = (name: string, run: () => Step) => {
    const { problem } = problemOf(run)
    if (problem !== undefined) out.push(`${name}: ${problem}`)
  }
  for (const [name, write] of writers) note(name, () => write(request))
  const messages: ReadonlyArray<Message.Message> = request.messages
  for (const provider of providers) {
    note(`validateFor(${provider})`, () => Conversation.validateFor(provider)(messages))
    note(`repairFor(${provider})`, () => Repair.repairFor(provider)(messages))
  }
  note("fitRequest", () => MessageWindow.fitRequest(request, 200, { strategy: ["clear_tool_results", "drop_oldest"] }).pipe(Effect.provide(windowLayer)))
  return out
}

interface Body {
  readonly name: string
  readonly body: unknown
  readonly read: (u: unknown) => Step
}

const bodies: ReadonlyArray<Body> = [
  {
    name: "OpenAI Chat request",
    body: {
      ...json(Payloads.chatParallelRequest),
      // JSON mode with no message saying json: reported as a RejectedSetting that shows the format
      response_format: { type: "json_object" },
      max_tokens: 100,
      max_completion_tokens: 100,
      top_p: 0.9,
      stop: ["END"],
      seed: 1,
      reasoning_effort: "low",
      x_vendor_field: "kept"
    },
    read: (u) => OpenAiChat.fromRequest(u as never)
  },
  {
    name: "OpenAI Chat request with media and a tool_call_ids list",
    body: {
      ...json(Payloads.chatMediaRequest),
      messages: [
        ...json(Payloads.chatMediaRequest).messages,
        { role: "assistant", content: "ok", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", tool_call_ids: ["c1"], content: [{ type: "text", text: "done" }] },
        { role: "system", content: [{ type: "text", text: "Be brief." }] }
      ],
      tool_choice: { type: "function", function: { name: "f" } },
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }]
    },
    read: (u) => OpenAiChat.fromRequest(u as never)
  },
  {
    name: "Anthropic request",
    body: {
      ...json(Payloads.anthropicToolsRequest),
      tool_choice: { type: "tool", name: "get_weather" },
      stop_sequences: ["END"],
      top_k: 5,
      top_p: 0.9,
      metadata: { user_id: "u" },
      system: [{ type: "text", text: "Be brief." }]
    },
    read: (u) => Anthropic.fromRequest(u)
  },
  {
    name: "Anthropic request with thinking",
    // a forced tool choice beside manual thinking: reported as a RejectedSetting that shows it
    body: { ...json(Payloads.anthropicThinkingRequest), tool_choice: { type: "any" } },
    read: (u) => Anthropic.fromRequest(u)
  },
  { name: "Anthropic request with server tools", body: json(Payloads.anthropicServerToolRequest), read: (u) => Anthropic.fromRequest(u) },
  {
    name: "OpenAI Responses request",
    body: {
      model: "gpt-5",
      instructions: "Be brief.",
      input: [
        { role: "user", content: [{ type: "input_text", text: "Weather in Oslo?" }] },
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "think" }], encrypted_content: "x" },
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}', status: "completed" },
        { type: "function_call_output", call_id: "call_1", output: "4°C" },
        { type: "message", role: "assistant", id: "msg_1", content: [{ type: "output_text", text: "4°C", annotations: [] }] }
      ],
      tools: [{ type: "function", name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: true }],
      tool_choice: { type: "function", name: "get_weather" },
      text: { format: { type: "json_schema", name: "w", schema: { type: "object" } } },
      reasoning: { effort: "low" },
      max_output_tokens: 100,
      temperature: 0.2,
      store: false
    },
    read: (u) => OpenAiResponses.fromRequest(u as never)
  },
  {
    name: "Gemini request",
    body: {
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ text: "Weather in Oslo?" }, { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }] },
        { role: "model", parts: [{ functionCall: { id: "c1", name: "get_weather", args: { city: "Oslo" } }, thoughtSignature: "c2ln" }] },
        { role: "user", parts: [{ functionResponse: { id: "c1", name: "get_weather", response: { temp: 4 } } }] }
      ],
      tools: [{ functionDeclarations: [{ name: "get_weather", description: "Weather", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } } }] }],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
      generationConfig: { temperature: 0.2, topP: 0.9, topK: 4, maxOutputTokens: 100, stopSequences: ["END"], responseMimeType: "application/json", responseSchema: { type: "object" } }
    },
    read: (u) => Gemini.fromRequest(u)
  }
]

/** A path with each index named by the role or type of the element there: two positions alike read alike. */
const kindOfPath = (payload: unknown, path: ReadonlyArray<string | number>): string =>
  path
    .map((step, i) => {
      if (typeof step === "string") return step
      const element = getAt(payload, path.slice(0, i + 1)) as { readonly role?: unknown; readonly type?: unknown } | null
      return `[${typeof element === "object" && element !== null ? String(element.role ?? element.type ?? "") : ""}]`
    })
    .join(".")

/**
 * The payload with a deep value at each position in turn (in place of the value there), and with a deep unknown
 * field added to each object. `brief`: one kind of deep value per position, taking turns (for the many events of a
 * stream, to keep the run short).
 */
const variants = (payload: unknown, brief = false): Array<readonly [string, unknown]> => {
  const out: Array<readonly [string, unknown]> = []
  const paths = pathsOf(payload)
  const seen = new Set<string>()
  paths.forEach((path, k) => {
    // a position like one already attacked (in the second of two tool calls, two tool messages) is skipped
    const like = kindOfPath(payload, path)
    if (seen.has(like)) return
    seen.add(like)
    const where = path.join(".")
    const node = getAt(payload, path)
    const isObject = typeof node === "object" && node !== null && !Array.isArray(node)
    if (path.length > 0) {
      if (!brief || k % 2 === 0) out.push([`${where} = {a:{a:...}}`, updateAt(payload, path, () => deepObject)])
      // where an object was, a deep object (above) is the case to try: a deep array there is as wrong as any scalar
      if (brief ? k % 2 === 1 : !isObject) out.push([`${where} = [[...]]`, updateAt(payload, path, () => deepArray)])
    }
    if (isObject && (!brief || path.length === 0)) {
      out.push([`${where || "(root)"}.x_vendor_field = {a:{a:...}}`, updateAt(payload, path, (o) => ({ ...(o as object), x_vendor_field: deepObject }))])
    }
  })
  return out
}

describe("A value nested too deep for JSON.stringify, at any position, is never a defect", () => {
  for (const { body, name, read } of bodies) {
    it(`${name}: fromRequest, every writer, validateFor, repairFor and fitRequest`, () => {
      const problems: Array<string> = []
      const cases = variants(body)
      assert.isAtLeast(cases.length, 20)
      for (const [where, payload] of cases) {
        const { problem, value } = problemOf(() => read(payload))
        if (problem !== undefined) problems.push(`${where}: fromRequest: ${problem}`)
        else if (value !== undefined) for (const p of problemsAfter((value as { readonly value: Request.Request }).value)) problems.push(`${where}: ${p}`)
      }
      assert.deepStrictEqual(problems, [])
    }, 120_000)
  }

  it("effect/ai prompt: fromPrompt and every validation and repair of what it read", () => {
    const read = problemOf(() => OpenAiChat.fromRequest(json(Payloads.chatParallelRequest)))
    const request = (read.value as { readonly value: Request.Request }).value
    const prompt = json((problemOf(() => EffectAi.toPrompt(request.messages)).value as { readonly value: unknown }).value)
    const problems: Array<string> = []
    // a prompt is typed: a deep value goes where it holds any JSON (options, a call's params, a result), the rest is
    // the Prompt schema's to check
    const cases = variants(prompt, true).filter(([where]) => /(^|\.)(options|params|result)(\.|$| )/.test(where))
    assert.isAtLeast(cases.length, 10)
    for (const [where, changed] of cases) {
      const { problem, value } = problemOf(() => EffectAi.fromPrompt(changed as never))
      if (problem !== undefined) problems.push(`${where}: fromPrompt: ${problem}`)
      else if (value !== undefined) {
        const messages = (value as { readonly value: ReadonlyArray<Message.Message> }).value
        for (const provider of providers) {
          const validated = problemOf(() => Conversation.validateFor(provider)(messages)).problem
          if (validated !== undefined) problems.push(`${where}: validateFor(${provider}): ${validated}`)
          const repaired = problemOf(() => Repair.repairFor(provider)(messages)).problem
          if (repaired !== undefined) problems.push(`${where}: repairFor(${provider}): ${repaired}`)
        }
      }
    }
    assert.deepStrictEqual(problems, [])
  }, 120_000)

  const streams: ReadonlyArray<readonly [string, ReadonlyArray<Fixture>, (events: Iterable<unknown>) => Step]> = [
    ["OpenAI Chat", ChatFixtures.all, (e) => OpenAiChat.fromEvents(e as never)],
    ["Anthropic", AnthropicFixtures.all, (e) => Anthropic.fromEvents(e as never)],
    ["OpenAI Responses", ResponsesFixtures.all, (e) => OpenAiResponses.fromEvents(e as never)],
    ["Gemini", GeminiFixtures.all, (e) => Gemini.fromEvents(e as never)]
  ]

  for (const [name, fixtures, fromEvents] of streams) {
    it(`${name} stream: fromEvents with a deep value in each event field`, () => {
      const problems: Array<string> = []
      // an event of a shape already attacked (the next delta of a text) is skipped: the run stays short
      const shapes = new Set<string>()
      for (const fixture of fixtures) {
        const events = eventsOf(fixture).map((e) => (typeof e === "string" ? JSON.parse(e) as unknown : e))
        events.forEach((event, i) => {
          const shape = JSON.stringify(pathsOf(event))
          if (shapes.has(shape)) return
          shapes.add(shape)
          for (const [where, changed] of variants(event, true)) {
            const list = events.map((e, j) => (j === i ? changed : e))
            const { problem } = problemOf(() => fromEvents(list))
            if (problem !== undefined) problems.push(`${fixture.name} event ${i}: ${where}: ${problem}`)
          }
        })
      }
      assert.deepStrictEqual(problems, [])
    }, 120_000)
  }
})

describe("A value too deep for JSON.stringify is written whole where its text is kept", () => {
  it.effect("OpenAI Chat stream: a delta's content that is a deep object is kept in the partial response as its JSON text", () =>
    Effect.gen(function* () {
      const chunk = (delta: unknown, finish: string | null = null) => ({ id: "c", object: "chat.completion.chunk", created: 1, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason: finish }] })
      const error = yield* Effect.flip(OpenAiChat.fromEvents([chunk({ role: "assistant", content: "a" }), chunk({ content: deepObject }), chunk({}, "stop")] as never))
      assert.strictEqual(error._tag, "StreamProtocolError")
      const partial = JSON.stringify((error as { readonly partial?: unknown }).partial)
      assert.include(partial, `a${'{\\"a\\":'.repeat(50)}`)
      assert.isAbove(partial.length, LEVELS * 6)
    }))

  it("the OpenAI Chat prompt rendering counts a deep value by its JSON text, not as a placeholder", () => {
    const rendered = renderChatRequest({ messages: [{ role: "tool", tool_call_id: "c1", content: deepObject }] } as never)
    const body = rendered.messages.flat().map((unit) => (unit as { readonly body?: string }).body ?? "").join("")
    assert.isAbove(body.length, LEVELS * 5)
    assert.notInclude(body, "[unserializable]")
  })
})

describe("An option too deep for JSON.stringify is a typed failure", () => {
  it.effect("MessageWindow.fit: a strategy that is a deep array fails with InvalidFitOptions and a short message", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(MessageWindow.fit([], 100, { strategy: [deepArray] as never }).pipe(Effect.provide(windowLayer)))
      assert.strictEqual(error._tag, "InvalidFitOptions")
      assert.isBelow(error.message.length, 300)
      assert.include(error.message, "unknown strategy")
    }))
})
