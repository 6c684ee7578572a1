/**
 * A field of the sender's own whose name starts with `$` (`"$noContent":
 * true` on a Chat assistant message, `"$functions"` on a Chat request,
 * `"$partsAt"` on a Gemini content, a bare `"$"`) is a field like any other:
 * kept, written back where it came from, and never read as one of the
 * adapters' hints, which are kept beside the wire fields under a `$` name
 * too. The escape rule of `internal/hint`: such a field is kept under its
 * name with one more `$` in front (`$$noContent`).
 *
 * Each property reads a payload with `$`-named fields and the same payload
 * with those fields renamed to plain names: both must read as the same
 * model (the `$` fields kept where the plain ones are), and the payload
 * must come back from `from*` -> `to*` as it was.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit, Schema } from "effect"
import { Prompt } from "effect/ai"
import { Message, Request } from "../../src/index.js"
import { chatRequestOf } from "../../src/internal/chatRequestOf.js"
import { Anthropic, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import type { ConversionWarning } from "../../src/providers/Conversion.js"
import { message } from "../arbitraries.js"
import { getAt, makeRng, pathsOf, type Rng, setOwn, updateAt } from "../fuzz/generators.js"
import { canonical } from "./adapterHelpers.js"
import { readUsageSet } from "../usageData.js"
import { anthropicPrompt, chatMessages } from "./adapterArbitraries.js"
import * as Payloads from "./fixtures/adapterPayloads.js"
import * as AnthropicStreams from "./fixtures/anthropic.js"
import * as GeminiStreams from "./fixtures/gemini.js"
import * as ChatStreams from "./fixtures/openAiChat.js"
import * as ResponsesStreams from "./fixtures/openAiResponses.js"
import type { Fixture } from "./fixtures/sse.js"
import { geminiMessages, responsesItems } from "./responsesGeminiArbitraries.js"

type Path = ReadonlyArray<string | number>
type Converted = Effect.Effect<{ readonly value: unknown; readonly warnings: ReadonlyArray<ConversionWarning> }, unknown>

/** Every hint name of every adapter (and a few more), as a sender's own field could be named. */
const HINT_NAMES = [
  // OpenAI Chat
  "dataUrlMediaType", "maxTokensField", "reasoningContent", "nullContent", "noContent", "functions",
  // OpenAI Responses
  "item", "instructions", "part", "partStart", "noInput", "strictUnset",
  // Anthropic
  "noName", "separateMessage", "messagePart", "outputFormatField",
  // Gemini
  "sameContent", "partsAt", "syntheticId", "noArgs", "nullArgs", "noResponse", "noMimeType", "kind", "parametersKey",
  "parametersAsSent", "declarationsKey", "snakeCase", "nullCamelCase", "toolsLayout",
  // effect/ai
  "result", "text", "dataPrefix", "options", "cacheOnMessage"
] as const

/** `$`-named fields: each hint's name, others, a bare `$`, and names that already start with two. */
const DOLLAR_KEYS: ReadonlyArray<string> = [...HINT_NAMES.map((n) => `$${n}`), "$", "$x_vendor", "$$noContent", "$$", "$$$syntheticId"]

/** Values that hints hold, given in turn in the exhaustive tests. */
const ROTATING: ReadonlyArray<Schema.Json> = [true, "function_declarations", [0], "executableCode"]

/** Values a hint could hold: what each is read as somewhere (never `null`, which some formats read as absent). */
const VALUES: ReadonlyArray<Schema.Json> = [true, false, "x", "executableCode", "codeExecutionResult", "function_declarations", "parameters", ["system_instruction"], [0], [1, null], {}, { a: 1 }, 0, 2]

/** The plain name a `$`-named field is renamed to: `$x` -> `dollar1_x`. */
const plainName = (key: string): string => {
  const rest = key.replace(/^\$+/, "")
  return `dollar${key.length - rest.length}_${rest}`
}

const json = (u: unknown): unknown => JSON.parse(JSON.stringify(u))


const run = (effect: Converted): { readonly value: unknown; readonly warnings: ReadonlyArray<ConversionWarning> } => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isFailure(exit)) return assert.fail(`conversion failed: ${String(exit.cause)}`)
  return exit.value
}

/** Whether a field was reported as not kept (it then need not come back). */
const lost = (warnings: ReadonlyArray<ConversionWarning>): boolean => warnings.some((w) => w._tag === "UnknownProviderField" && !w.kept)

/**
 * A model read from a payload with `$`-named fields (`names`) as the one read
 * with those fields renamed (`plainName`): at the top of a provider's options,
 * a kept field is the escaped name (`$$x` for `$x`); anywhere else (nested
 * fields, provider data, tool arguments) it is the name itself. A hint (one
 * `$`) stays as it is.
 */
const asRenamed = (value: unknown, names: ReadonlySet<string>): unknown => {
  const rename = (key: string): string => (names.has(key) ? plainName(key) : key)
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk)
    if (typeof v !== "object" || v === null) return v
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v)) {
      const field = (v as Record<string, unknown>)[k]
      if (k === "providerOptions" && typeof field === "object" && field !== null) {
        const options: Record<string, unknown> = {}
        for (const provider of Object.keys(field)) {
          const record = (field as Record<string, unknown>)[provider]
          if (typeof record !== "object" || record === null || Array.isArray(record)) {
            setOwn(options, provider, walk(record))
            continue
          }
          const kept: Record<string, unknown> = {}
          for (const stored of Object.keys(record)) {
            const wire = stored.startsWith("$$") ? stored.slice(1) : undefined
            setOwn(kept, wire !== undefined && names.has(wire) ? plainName(wire) : stored, walk((record as Record<string, unknown>)[stored]))
          }
          setOwn(options, provider, kept)
        }
        setOwn(out, k, options)
      } else setOwn(out, rename(k), walk(field))
    }
    return out
  }
  return walk(value)
}

/** The same wire JSON with `$`-named fields (`names`) renamed (`plainName`), for comparing what was written. */
const renamedWire = (value: unknown, names: ReadonlySet<string>): unknown => {
  if (Array.isArray(value)) return value.map((v) => renamedWire(v, names))
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(value)) setOwn(out, names.has(k) ? plainName(k) : k, renamedWire((value as Record<string, unknown>)[k], names))
  return out
}

const objectPaths = (payload: unknown): Array<Path> =>
  pathsOf(payload).filter((p) => {
    const node = getAt(payload, p)
    return typeof node === "object" && node !== null && !Array.isArray(node) && !(node instanceof Uint8Array) && !(node instanceof URL)
  })

/** Adds `fields` (path, name, value) to a payload, and the same fields under their plain names to a copy. */
const withFields = (payload: unknown, fields: ReadonlyArray<readonly [Path, string, Schema.Json]>): { readonly dollar: unknown; readonly plain: unknown; readonly names: ReadonlySet<string> } => {
  let dollar = payload
  let plain = payload
  const names = new Set<string>()
  for (const [path, name, value] of fields) {
    if (Object.hasOwn(getAt(dollar, path) as object, name)) continue
    const add = (key: string) => (node: unknown) => {
      const o: Record<string, unknown> = {}
      for (const k of Object.keys(node as object)) setOwn(o, k, (node as Record<string, unknown>)[k])
      setOwn(o, key, value)
      return o
    }
    dollar = updateAt(dollar, path, add(name))
    plain = updateAt(plain, path, add(plainName(name)))
    names.add(name)
  }
  return { dollar, plain, names }
}

/** `count` random `$`-named fields at random objects of the payload (not where `skip` says). */
const randomFields = (r: Rng, payload: unknown, count: number, skip: (path: Path) => boolean): Array<readonly [Path, string, Schema.Json]> => {
  const paths = objectPaths(payload).filter((p) => !skip(p))
  if (paths.length === 0) return []
  const out: Array<readonly [Path, string, Schema.Json]> = []
  for (let i = 0; i < count; i++) out.push([r.pick(paths), r.pick(DOLLAR_KEYS), r.pick(VALUES)])
  return out
}

interface Format {
  readonly name: string
  readonly read: (payload: unknown) => Converted
  readonly write: (value: unknown) => Converted
  /** Objects where a field of the sender's goes elsewhere on purpose (each has its own test in test/fuzz/unknownFields.test.ts). */
  readonly skip: (path: Path) => boolean
}

/** Whether a payload comes back from `read` -> `write` as it was, nothing reported lost. */
const comesBack = (format: Format, payload: unknown): boolean => {
  const read = run(format.read(payload))
  if (lost(read.warnings)) return false
  const written = run(format.write(read.value))
  return !lost(written.warnings) && canonical(written.value) === canonical(payload)
}

/**
 * The property: with `fields` added, the payload reads as the model of the
 * payload with those fields under plain names and is written as that model
 * is, the fields under their own names; and, when `exact`, it comes back as
 * it was.
 */
const checkFields = (format: Format, payload: unknown, fields: ReadonlyArray<readonly [Path, string, Schema.Json]>, exact = true): void => {
  const { dollar, names, plain } = withFields(payload, fields)
  if (names.size === 0) return
  const read = run(format.read(dollar))
  const readPlain = run(format.read(plain))
  if (lost(read.warnings) || lost(readPlain.warnings)) return
  const at = fields.map(([path, name]) => `${name} at ${path.join(".") || "(root)"}`).join(", ")
  assert.deepStrictEqual(asRenamed(json(read.value), names), json(readPlain.value), `the model read with ${at}`)
  const written = run(format.write(read.value))
  const writtenPlain = run(format.write(readPlain.value))
  assert.strictEqual(canonical(renamedWire(json(written.value), names)), canonical(json(writtenPlain.value)), `written with ${at}`)
  if (exact && !lost(written.warnings)) assert.strictEqual(canonical(written.value), canonical(dollar), `written back with ${at}`)
}

const chatSkip = (path: Path): boolean => path.includes("audio")
const none = (): boolean => false
const geminiSkip = (path: Path): boolean => path.length === 2 && path[0] === "tools"

const messageFormats: ReadonlyArray<Format & { readonly payloads: Arbitrary.Arbitrary<unknown> }> = [
  {
    name: "OpenAI Chat messages",
    payloads: chatMessages,
    read: (p) => OpenAiChat.fromMessages(p),
    write: (v) => OpenAiChat.toMessages(v as ReadonlyArray<Message.Message>),
    skip: chatSkip
  },
  { name: "Anthropic messages", payloads: anthropicPrompt, read: (p) => Anthropic.fromMessages(p), write: (v) => Anthropic.toMessages(v as ReadonlyArray<Message.Message>), skip: (p) => p.length === 0 },
  { name: "OpenAI Responses input", payloads: responsesItems, read: (p) => OpenAiResponses.fromMessages(p), write: (v) => OpenAiResponses.toMessages(v as ReadonlyArray<Message.Message>), skip: none },
  { name: "Gemini contents", payloads: geminiMessages, read: (p) => Gemini.fromMessages(p), write: (v) => Gemini.toMessages(v as ReadonlyArray<Message.Message>), skip: (p) => p.length === 0 }
]

const requestFormats: ReadonlyArray<Format & { readonly usageSet: string }> = [
  { name: "OpenAI Chat", usageSet: "openai-chat-usage", read: (p) => OpenAiChat.fromRequest(p), write: (v) => OpenAiChat.toRequest(v as Request.Request), skip: chatSkip },
  { name: "OpenAI Responses", usageSet: "openai-responses-usage", read: (p) => OpenAiResponses.fromRequest(p), write: (v) => OpenAiResponses.toRequest(v as Request.Request), skip: none },
  { name: "Anthropic", usageSet: "anthropic-usage", read: (p) => Anthropic.fromRequest(p), write: (v) => Anthropic.toRequest(v as Request.Request), skip: none },
  { name: "Gemini", usageSet: "gemini-usage", read: (p) => Gemini.fromRequest(p), write: (v) => Gemini.toRequest(v as Request.Request, { spelling: "asRead" }), skip: geminiSkip }
]

const seed = Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2 ** 30 })))
const runs = { arbitrary: { runs: 100 }, timeout: 120_000 }

describe("$-named fields of a message list are the sender's, kept and written back", () => {
  for (const format of messageFormats) {
    it.prop(
      `${format.name}: read as the same fields under plain names would be, and come back as they were`,
      [Arbitrary.all({ payload: format.payloads, seed })],
      ([{ payload, seed }]) => {
        if (!comesBack(format, payload)) return
        const r = makeRng(seed)
        checkFields(format, payload, randomFields(r, payload, 1 + r.int(5), format.skip))
      },
      runs
    )
  }
})

describe("$-named fields of a recorded request body are the sender's, kept and written back", () => {
  for (const format of requestFormats) {
    let bodies: ReadonlyArray<unknown> | undefined
    /** The recorded requests that come back as they were (the others are not in the form the adapter writes). */
    const recorded = (): ReadonlyArray<unknown> =>
      (bodies ??= readUsageSet<{ readonly source: { readonly repo: string; readonly commit: string }; readonly request: unknown }>(format.usageSet)
        .map((c) => c.request)
        .filter((body) => comesBack(format, body)))

    it(`${format.name}: most recorded requests come back as they were, so the property below checks something`, () => {
      assert.isAtLeast(recorded().length, 50)
    })

    it.prop(
      `${format.name}: read as the same fields under plain names would be, and come back as they were`,
      [Arbitrary.all({ pick: seed, seed })],
      ([{ pick, seed }]) => {
        const body = recorded()[pick % recorded().length]
        const r = makeRng(seed)
        checkFields(format, body, randomFields(r, body, 1 + r.int(5), format.skip))
      },
      runs
    )
  }
})

/** Request bodies with the request-level forms that hints stand for (deprecated functions, max_tokens, an empty functions list, ...). */
const bodies: ReadonlyArray<{ readonly body: unknown; readonly format: Format; readonly exact?: false }> = [
  ...[
    Payloads.chatParallelRequest,
    Payloads.chatMediaRequest,
    {
      model: "gpt-4o",
      max_tokens: 256,
      messages: [
        { role: "developer", content: [{ type: "text", text: "Be brief." }] },
        { role: "user", content: "Weather in Oslo?" },
        { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
        { role: "function", name: "get_weather", content: "4°C" },
        { role: "assistant", reasoning_content: "It is cold.", content: "Cold." }
      ],
      functions: [{ name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } } }],
      function_call: { name: "get_weather" }
    },
    {
      model: "gpt-4o",
      messages: [
        { role: "user", content: [{ type: "image_url", image_url: { url: "data:application/octet-stream;base64,iVBORw0KGgo=" } }] },
        { role: "assistant", tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "call_1", content: "done" },
        { role: "function", name: "f", content: null }
      ]
    }
  ].map((body) => ({ body, format: requestFormats[0]! })),
  // an empty functions list is left out of what is written, and so is its choice
  { body: { model: "gpt-4o", messages: [{ role: "user", content: "hi" }], functions: [], function_call: "none" }, format: requestFormats[0]!, exact: false },
  ...[Payloads.anthropicToolsRequest, Payloads.anthropicThinkingRequest, Payloads.anthropicServerToolRequest, {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [{ role: "user", content: "hi" }, { role: "user", content: "again" }],
    tools: [{ type: "mcp_toolset", mcp_server_name: "docs" }],
    output_format: { type: "json_schema", schema: { type: "object", properties: { a: { type: "string" } } } }
  }].map((body) => ({ body, format: requestFormats[2]! })),
  {
    format: requestFormats[1]!,
    body: {
      model: "gpt-5",
      instructions: "Be brief.",
      input: [
        { role: "user", content: [{ type: "input_text", text: "Weather in Oslo?" }, { type: "input_image", detail: "auto", image_url: "data:application/octet-stream;base64,iVBORw0KGgo=" }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me look." }] },
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}', status: "completed" },
        { type: "function_call_output", call_id: "call_1", output: "4°C" }
      ],
      tools: [{ type: "function", name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: null }],
      tool_choice: "auto",
      store: false
    }
  },
  {
    format: requestFormats[1]!,
    body: { model: "gpt-5", previous_response_id: "resp_1", tools: [{ type: "function", name: "f", parameters: { type: "object" }, strict: true }] }
  },
  {
    format: requestFormats[3]!,
    body: {
      system_instruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ text: "Weather in Oslo?" }, { inline_data: { mime_type: "image/png", data: "iVBORw0KGgo=" } }] },
        { role: "model", parts: [{ functionCall: { name: "get_weather" } }, { executableCode: { language: "PYTHON", code: "1" } }] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather" } }, { codeExecutionResult: { outcome: "OUTCOME_OK" } }] },
        { role: "user", parts: [{ text: "and?" }] }
      ],
      tools: [{ function_declarations: [] }, { functionDeclarations: [{ name: "get_weather", parameters: { type: "OBJECT", properties: { city: { type: "STRING" } } } }] }],
      toolConfig: { functionCallingConfig: { mode: "AUTO" } },
      generationConfig: { temperature: 0.2 }
    }
  }
]

describe("$-named fields of a request body, every hint's name at every object, are the sender's", () => {
  bodies.forEach(({ body, exact, format }, b) => {
    it(`${format.name} body ${b}: each $-named field reads and is written as the same field under a plain name, and comes back as it was`, () => {
      assert.strictEqual(comesBack(format, body), exact ?? true, "the body itself comes back as it was")
      const paths = objectPaths(body).filter((p) => !format.skip(p))
      paths.forEach((path, p) => {
        DOLLAR_KEYS.forEach((name, n) => {
          // each name with true, a string or a list in turn (what hints hold), across the objects
          checkFields(format, body, [[path, name, ROTATING[(p + n) % ROTATING.length]!]], exact ?? true)
        })
      })
    }, 120_000)
  })
})

describe("$-named options of an effect/ai Prompt are the sender's, kept and written back", () => {
  const promptFormat: Format = {
    name: "effect/ai Prompt",
    read: (p) => EffectAi.fromPrompt(p as Prompt.Prompt),
    write: (v) => EffectAi.toPrompt(v as ReadonlyArray<Message.Message>),
    skip: none
  }

  it.prop(
    "fromPrompt -> toPrompt gives back a provider's $-named option, read as the same option under a plain name",
    [Arbitrary.array(message, { minLength: 1, maxLength: 5 }), seed],
    ([messages, seed]) => {
      const prompt = run(EffectAi.toPrompt(messages)).value as Prompt.Prompt
      if (canonical(run(promptFormat.write(run(promptFormat.read(prompt)).value)).value) !== canonical(prompt)) return
      const r = makeRng(seed)
      // the options of messages and parts (a tool result's model output is written from its content), under any provider
      const places = pathsOf(prompt).filter((p) => p[p.length - 1] === "options" && !p.includes("modelOutput"))
      if (places.length === 0) return
      const fields: Array<readonly [Path, string, Schema.Json]> = []
      let withRecords: unknown = prompt
      for (let i = 0, n = 1 + r.int(4); i < n; i++) {
        const path = r.pick(places)
        const provider = r.pick(["x-vendor", "openai", "anthropic", "google", EffectAi.providerKey])
        // the provider's record, made first when it has none, so that the fields go into it
        if (getAt(withRecords, [...path, provider]) === undefined) {
          withRecords = updateAt(withRecords, path, (options) => {
            const o: Record<string, unknown> = { ...(options as Record<string, unknown>) }
            o[provider] = { plain: 1 }
            return o
          })
        }
        fields.push([[...path, provider], r.pick(DOLLAR_KEYS), r.pick(VALUES)])
      }
      if (canonical(run(promptFormat.write(run(promptFormat.read(withRecords)).value)).value) !== canonical(withRecords)) return
      checkFields(promptFormat, withRecords, fields)
    },
    runs
  )

  it("another adapter's hint goes to the Prompt apart from a sender's option of its name, and both come back", () => {
    const message = Message.user("hi", { providerOptions: { anthropic: { $separateMessage: true, $$separateMessage: "mine", $$: 1 } } })
    const written = run(EffectAi.toPrompt([message]))
    const prompt = written.value as Prompt.Prompt
    assert.deepStrictEqual(json(prompt.content[0]?.options), {
      anthropic: { $separateMessage: "mine", $: 1 },
      [EffectAi.ownKey]: { hints: { anthropic: { $separateMessage: true } } }
    })
    const read = run(EffectAi.fromPrompt(prompt))
    assert.deepStrictEqual([...written.warnings, ...read.warnings], [])
    assert.deepStrictEqual(Message.encodeAll(read.value as ReadonlyArray<Message.Message>), Message.encodeAll([message]))
  })

  it("a $-named option that is an effect/ai hint's name stays the sender's option", () => {
    const raw = [
      { role: "user", content: [{ type: "file", mediaType: "image/png", data: "iVBORw0KGgo=", options: { [EffectAi.providerKey]: { $dataPrefix: "data:image/png;base64," } } }] },
      {
        role: "assistant",
        content: [{ type: "reasoning", text: "", options: { anthropic: { info: { type: "redacted_thinking", redactedData: "abc" } }, [EffectAi.providerKey]: { $text: "mine", $options: { openai: 5 } } } }]
      }
    ]
    const given = Prompt.make(raw as Prompt.RawInput)
    const read = run(EffectAi.fromPrompt(given))
    const back = run(EffectAi.toPrompt(read.value as ReadonlyArray<Message.Message>)).value as Prompt.Prompt
    assert.strictEqual(canonical(back.content), canonical(given.content))
    // kept as the sender's options, none read as a hint: the redacted thinking has no text, the options are no record
    const [user, assistant] = read.value as ReadonlyArray<Message.Message>
    const optionsOf = (block: unknown): unknown => json((block as { readonly providerOptions?: unknown } | undefined)?.providerOptions)
    assert.deepStrictEqual(optionsOf(user?.content[0]), { [EffectAi.providerKey]: { $$dataPrefix: "data:image/png;base64," } })
    assert.deepStrictEqual((optionsOf(assistant?.content[0]) as Record<string, unknown>)[EffectAi.providerKey], { $$text: "mine", $$options: { openai: 5 } })
  })
})

describe("$-named fields of a stream are the sender's", () => {
  const streams: ReadonlyArray<{ readonly name: string; readonly fixtures: ReadonlyArray<Fixture>; readonly format: Format }> = [
    {
      name: "OpenAI Chat",
      fixtures: ChatStreams.all,
      format: { name: "OpenAI Chat stream", read: (events) => OpenAiChat.fromEvents(events as never), write: (v) => OpenAiChat.toMessages([(v as { readonly message: Message.Message }).message]), skip: none }
    },
    {
      name: "OpenAI Responses",
      fixtures: ResponsesStreams.all,
      format: { name: "OpenAI Responses stream", read: (events) => OpenAiResponses.fromEvents(events as never), write: (v) => OpenAiResponses.toMessages([(v as { readonly message: Message.Message }).message]), skip: none }
    },
    {
      name: "Anthropic",
      fixtures: AnthropicStreams.all,
      format: { name: "Anthropic stream", read: (events) => Anthropic.fromEvents(events as never), write: (v) => Anthropic.toMessages([(v as { readonly message: Message.Message }).message]), skip: none }
    },
    {
      name: "Gemini",
      fixtures: GeminiStreams.all,
      format: { name: "Gemini stream", read: (events) => Gemini.fromEvents(events as never), write: (v) => Gemini.toMessages([(v as { readonly message: Message.Message }).message]), skip: none }
    }
  ]

  for (const { fixtures, format, name } of streams) {
    it.prop(
      `${name}: a streamed response with $-named fields reads, and is written, as with the same fields under plain names`,
      [Arbitrary.all({ pick: seed, seed })],
      ([{ pick, seed }]) => {
        const fixture = fixtures[pick % fixtures.length]!
        const events: unknown = fixture.frames.filter((f) => f.data !== "[DONE]").map((f) => f.data)
        const r = makeRng(seed)
        checkFields(format, events, randomFields(r, events, 1 + r.int(5), none), false)
      },
      runs
    )
  }
})

describe("the estimator's Chat view of a request", () => {
  const chatBody = (request: Request.Request): Record<string, unknown> => run(OpenAiChat.toRequest(request)).value as Record<string, unknown>

  it("keeps a request's $-named Chat fields as the fields the adapter writes, and none of its hints", () => {
    const { value } = run(OpenAiChat.fromRequest({ model: "gpt-4o", max_tokens: 5, messages: [{ role: "user", content: "hi" }], $functions: true, $: 1, $$x: 2 }))
    const body = chatRequestOf(value as Request.Request).body as Record<string, unknown>
    const written = chatBody(value as Request.Request)
    const dollars = (o: Record<string, unknown>) => Object.keys(o).filter((k) => k.startsWith("$")).sort().map((k) => [k, o[k]])
    assert.deepStrictEqual(dollars(body), [["$", 1], ["$$x", 2], ["$functions", true]])
    assert.deepStrictEqual(dollars(body), dollars(written))
  })

  it("leaves out the tool choice of a request read from an empty functions list, as the adapter does", () => {
    const { value } = run(OpenAiChat.fromRequest({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], functions: [], function_call: "none" }))
    const request = value as Request.Request
    const { body } = chatRequestOf(request)
    const written = chatBody(request)
    assert.deepStrictEqual([body.function_call, body.tool_choice], [written["function_call"], written["tool_choice"]])
    // the API rejects function_call without functions: neither writes it
    assert.strictEqual(body.function_call, undefined)
  })

  it("leaves out the content of an assistant message read without one, as the adapter does", () => {
    const { value } = run(OpenAiChat.fromMessages([
      { role: "user", content: "hi" },
      { role: "assistant", tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_1", content: "done" }
    ]))
    const request = Request.make(value as ReadonlyArray<Message.Message>)
    const { body } = chatRequestOf(request)
    const written = chatBody(request)["messages"] as ReadonlyArray<Record<string, unknown>>
    assert.deepStrictEqual(body.messages?.map((m) => Object.hasOwn(m, "content")), written.map((m) => Object.hasOwn(m, "content")))
    assert.isFalse(Object.hasOwn(body.messages![1]!, "content"))
  })
})
