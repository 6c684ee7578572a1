/**
 * Unknown provider fields: the decision, by property.
 *
 * A field of a provider payload that the model does not type is kept (in
 * the `providerOptions` of the block, message, tool or request it came from,
 * or as a `ProviderDataBlock`) and written back by the same format; only
 * where nothing can keep it is it reported as an `UnknownProviderField`
 * warning. So for every adapter: a valid payload with extra fields at any
 * level comes back from `from*` -> `to*` exactly, or the conversion says
 * which field it could not keep.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit, Schema } from "effect"
import type { Prompt } from "effect/ai"
import { Message } from "../../src/index.js"
import { Anthropic, EffectAi, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import type { ConversionWarning } from "../../src/providers/Conversion.js"
import { message } from "../arbitraries.js"
import { anthropicPrompt, chatMessages, normalize } from "../providers/adapterArbitraries.js"
import { firstDifference } from "../providers/adapterHelpers.js"
import * as Payloads from "../providers/fixtures/adapterPayloads.js"
import { geminiMessages, responsesItems } from "../providers/responsesGeminiArbitraries.js"
import { getAt, makeRng, pathsOf, randomJson, type Rng, setOwn, updateAt } from "./generators.js"

type Converted = Effect.Effect<{ readonly value: unknown; readonly warnings: ReadonlyArray<ConversionWarning> }, unknown>

interface Format {
  readonly name: string
  readonly payloads: Arbitrary.Arbitrary<unknown>
  readonly read: (payload: unknown) => Converted
  readonly write: (value: unknown) => Converted
  /** Where an extra field is kept in the model but not written back, on purpose (each has its own test below). */
  readonly keptNotWritten?: (path: ReadonlyArray<string | number>) => boolean
}

const json = (u: unknown): unknown => JSON.parse(JSON.stringify(u))

const formats: ReadonlyArray<Format> = [
  {
    name: "OpenAI Chat messages",
    payloads: chatMessages,
    read: (p) => OpenAiChat.fromMessages(p as never),
    write: (v) => OpenAiChat.toMessages(v as ReadonlyArray<Message.Message>, { reasoning: "reasoning_content" }),
    // an assistant's generated audio is replayed by its id alone (the request takes nothing else)
    keptNotWritten: (path) => path[1] === "audio"
  },
  {
    name: "Anthropic messages",
    payloads: anthropicPrompt,
    read: (p) => Anthropic.fromMessages(p),
    write: (v) => Anthropic.toMessages(v as ReadonlyArray<Message.Message>)
  },
  {
    name: "OpenAI Responses input",
    payloads: responsesItems,
    read: (p) => OpenAiResponses.fromMessages(p as never),
    write: (v) => OpenAiResponses.toMessages(v as ReadonlyArray<Message.Message>)
  },
  {
    name: "Gemini contents",
    payloads: geminiMessages,
    read: (p) => Gemini.fromMessages(p),
    write: (v) => Gemini.toMessages(v as ReadonlyArray<Message.Message>)
  }
]

/** Whole request bodies, one realistic body per format: tools, tool choice and the request's own fields too. */
const bodies: ReadonlyArray<{ readonly name: string; readonly body: () => unknown; readonly read: (p: unknown) => Converted; readonly write: (v: unknown) => Converted }> = [
  { name: "OpenAI Chat request", body: () => json(Payloads.chatParallelRequest), read: (p) => OpenAiChat.fromRequest(p as never), write: (v) => OpenAiChat.toRequest(v as never) },
  { name: "OpenAI Chat request with media", body: () => json(Payloads.chatMediaRequest), read: (p) => OpenAiChat.fromRequest(p as never), write: (v) => OpenAiChat.toRequest(v as never) },
  { name: "Anthropic request", body: () => json(Payloads.anthropicToolsRequest), read: (p) => Anthropic.fromRequest(p), write: (v) => Anthropic.toRequest(v as never) },
  { name: "Anthropic request with thinking", body: () => json(Payloads.anthropicThinkingRequest), read: (p) => Anthropic.fromRequest(p), write: (v) => Anthropic.toRequest(v as never) },
  { name: "Anthropic request with server tools", body: () => json(Payloads.anthropicServerToolRequest), read: (p) => Anthropic.fromRequest(p), write: (v) => Anthropic.toRequest(v as never) },
  {
    name: "OpenAI Responses request",
    body: () => ({
      model: "gpt-5",
      instructions: "Be brief.",
      input: [
        { role: "user", content: [{ type: "input_text", text: "Weather in Oslo?" }] },
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}', status: "completed" },
        { type: "function_call_output", call_id: "call_1", output: "4°C" }
      ],
      tools: [{ type: "function", name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: true }],
      tool_choice: "auto",
      store: false
    }),
    read: (p) => OpenAiResponses.fromRequest(p as never),
    write: (v) => OpenAiResponses.toRequest(v as never)
  },
  {
    name: "Gemini request",
    body: () => ({
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ text: "Weather in Oslo?" }] },
        { role: "model", parts: [{ functionCall: { id: "c1", name: "get_weather", args: { city: "Oslo" } }, thoughtSignature: "c2ln" }] },
        { role: "user", parts: [{ functionResponse: { id: "c1", name: "get_weather", response: { temp: 4 } } }] }
      ],
      tools: [{ functionDeclarations: [{ name: "get_weather", description: "Weather", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } } }] }],
      toolConfig: { functionCallingConfig: { mode: "AUTO" } },
      generationConfig: { temperature: 0.2 }
    }),
    read: (p) => Gemini.fromRequest(p),
    write: (v) => Gemini.toRequest(v as never)
  }
]

const run = (effect: Converted): { readonly value: unknown; readonly warnings: ReadonlyArray<ConversionWarning> } => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isFailure(exit)) return assert.fail(`conversion failed: ${String(exit.cause)}`)
  return exit.value
}

const reported = (...sets: ReadonlyArray<ReadonlyArray<ConversionWarning>>): boolean => sets.some((ws) => ws.some((w) => w._tag === "UnknownProviderField"))

/** The round trip of a payload: the difference from the input (undefined when it came back whole) and whether a field was reported. */
const roundTrip = (read: Format["read"], write: Format["write"], payload: unknown): { readonly difference: string | undefined; readonly reported: boolean } => {
  const r = run(read(payload))
  const w = run(write(r.value))
  return { difference: firstDifference(normalize(json(w.value)), normalize(json(payload))), reported: reported(r.warnings, w.warnings) }
}

/**
 * The names of the adapters' own hints (which wire form to write, an id that was made up), as a payload could
 * spell a field of its own: a field named so is the sender's, kept and written back, never read as the hint.
 */
const HINT_NAMES = [
  "kind", "syntheticId", "noArgs", "nullArgs", "noResponse", "parametersKey", "parametersAsSent", "declarationsKey", "snakeCase",
  "nullCamelCase", "toolsLayout", "item", "part", "partStart", "dataUrlMediaType", "maxTokensField", "reasoningContent",
  "separateMessage", "messagePart", "outputFormatField", "instructions", "sameContent", "noMimeType", "noInput", "nullContent", "noName", "result", "partsAt", "noContent", "strictUnset"
] as const

const UNKNOWN_KEYS = ["x_vendor_field", "x_trace", "service_hint", "__proto__", "constructor", ...HINT_NAMES] as const

/** An unknown field: a name the formats do not use, and a JSON value (never `null`, which "the same payload" ignores). */
const unknownField = (r: Rng): readonly [string, Schema.Json] => {
  const value = randomJson(r, 2)
  return [`${r.pick(UNKNOWN_KEYS)}${r.chance(0.5) ? "" : `_${r.int(100)}`}`, value === null ? "x" : value]
}

const objectPaths = (payload: unknown): Array<ReadonlyArray<string | number>> =>
  pathsOf(payload).filter((p) => {
    const node = getAt(payload, p)
    return typeof node === "object" && node !== null && !Array.isArray(node)
  })

/** The payload with unknown fields added at `count` random objects, at any depth (but not where `skip` says). */
const withUnknownFields = (r: Rng, payload: unknown, count: number, skip: (path: ReadonlyArray<string | number>) => boolean = () => false): unknown => {
  let out = payload
  for (let i = 0; i < count; i++) {
    const paths = objectPaths(out).filter((p) => !skip(p))
    if (paths.length === 0) return out
    const [key, value] = unknownField(r)
    out = updateAt(out, r.pick(paths), (node) => {
      const o = { ...(node as Record<string, unknown>) }
      if (key in o) return o
      setOwn(o, key, value)
      return o
    })
  }
  return out
}

const runs = { arbitrary: { runs: 250 }, timeout: 120_000 }

describe("Unknown provider fields survive a round trip, or are reported", () => {
  for (const format of formats) {
    it.prop(
      `${format.name}: extra fields at random levels come back from from* -> to* exactly, or an UnknownProviderField says which`,
      [Arbitrary.all({ payload: format.payloads, seed: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2 ** 30 }))) })],
      ([{ payload, seed }]) => {
        // only payloads in the form the adapter writes: their own round trip is the identity
        const base = roundTrip(format.read, format.write, payload)
        if (base.difference !== undefined || base.reported) return
        const r = makeRng(seed)
        const extended = withUnknownFields(r, payload, 1 + r.int(4), format.keptNotWritten)
        const result = roundTrip(format.read, format.write, extended)
        if (!result.reported) assert.isUndefined(result.difference, result.difference)
      },
      runs
    )
  }

  it("the generated payloads are mostly in the form the adapters write, so the properties above check something", () => {
    for (const format of formats) {
      const sample = Effect.runSync(Arbitrary.sampleEffect(format.payloads, { count: 60, seed: 5 }))
      const identical = sample.filter((p) => {
        const base = roundTrip(format.read, format.write, p)
        return base.difference === undefined && !base.reported
      })
      assert.isAtLeast(identical.length, 45, `${format.name}: only ${identical.length} of 60 payloads round-trip`)
    }
  })

  it("OpenAI Chat: an extra field of an assistant's generated audio is kept in the model, and the audio is replayed by its id alone", () => {
    const payload = [{ role: "user", content: "Say hi" }, { role: "assistant", content: null, audio: { id: "audio_1", x_vendor_field: "kept" } }]
    const read = run(OpenAiChat.fromMessages(payload))
    assert.deepStrictEqual(json((read.value as ReadonlyArray<unknown>)[1]), {
      role: "assistant",
      content: [{ _tag: "File", mediaType: "audio/*", source: { _tag: "FileId", fileId: "audio_1" }, providerOptions: { "openai-chat": { audio: { x_vendor_field: "kept" } } } }]
    })
    assert.deepStrictEqual(json(run(OpenAiChat.toMessages(read.value as ReadonlyArray<Message.Message>)).value), [{ role: "user", content: "Say hi" }, { role: "assistant", content: null, audio: { id: "audio_1" } }])
  })

  it("Gemini: an extra field of a tool group is written back in a group of its own, beside the function declarations", () => {
    const body = { contents: [{ role: "user", parts: [{ text: "hi" }] }], tools: [{ functionDeclarations: [{ name: "f" }], x_vendor_field: 1 }] }
    const read = run(Gemini.fromRequest(body))
    assert.deepStrictEqual(read.warnings, [])
    assert.deepStrictEqual(json((run(Gemini.toRequest(read.value as never)).value as { readonly tools: unknown }).tools), [{ functionDeclarations: [{ name: "f" }] }, { x_vendor_field: 1 }])
  })

  it("the fields beside a list of messages (a request body's other fields) are reported by fromMessages, which has no place for them", () => {
    const anthropic = run(Anthropic.fromMessages({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "hi" }] }))
    assert.deepStrictEqual(anthropic.warnings.map((w) => w.message), ["unknown provider field model was ignored", "unknown provider field max_tokens was ignored"])
    const gemini = run(Gemini.fromMessages({ contents: [{ role: "user", parts: [{ text: "hi" }] }], generationConfig: { temperature: 0 } }))
    assert.deepStrictEqual(gemini.warnings.map((w) => w.message), ["unknown provider field generationConfig was ignored"])
  })

  for (const { body, name, read, write } of bodies) {
    it(`${name}: an extra field at every object of the body, one at a time, comes back exactly or is reported`, () => {
      const payload = body()
      const base = roundTrip(read, write, payload)
      assert.isUndefined(base.difference, `the body itself must round-trip: ${base.difference}`)
      // Gemini's tool groups: see "an extra field of a tool group" above
      const paths = objectPaths(payload).filter((p) => !(name === "Gemini request" && p.length === 2 && p[0] === "tools"))
      assert.isAtLeast(paths.length, 5)
      let kept = 0
      for (const path of paths) {
        const extras: ReadonlyArray<readonly [string, Schema.Json]> = [
          ["x_vendor_field", { nested: [1, "two", true] }],
          ["__proto__", { polluted: true }],
          ...HINT_NAMES.flatMap((hint) => [[hint, true], [hint, "function_declarations"]] as const)
        ]
        for (const [key, value] of extras) {
          if (Object.hasOwn(getAt(payload, path) as object, key)) continue
          const extended = updateAt(payload, path, (node) => {
            const o = { ...(node as Record<string, unknown>) }
            setOwn(o, key, value)
            return o
          })
          const result = roundTrip(read, write, extended)
          if (!result.reported) {
            assert.isUndefined(result.difference, `${key} at ${path.join(".") || "(root)"}: ${result.difference}`)
            kept++
          }
        }
      }
      assert.isAtLeast(kept, paths.length * (1 + HINT_NAMES.length), "most extra fields are kept rather than reported")
      assert.isUndefined(({} as Record<string, unknown>)["polluted"])
    }, 300_000)
  }
})

describe("Unknown effect/ai prompt options survive a round trip", () => {
  it.prop(
    "fromPrompt -> toPrompt gives back every option record of another provider, and unknown fields of known ones",
    [Arbitrary.array(message, { minLength: 1, maxLength: 5 }), Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2 ** 30 })))],
    ([messages, seed]) => {
      const prompt = run(EffectAi.toPrompt(messages)).value as Prompt.Prompt
      const r = makeRng(seed)
      // options objects of messages and parts: add a field under a provider of its own and under a known provider
      // the parts of a tool result's modelOutput are written from the result's content: their options are not read
      const paths = pathsOf(prompt).filter((p) => p[p.length - 1] === "options" && !p.includes("modelOutput"))
      if (paths.length === 0) return
      const path = r.pick(paths)
      const provider = r.pick(["x-vendor", "openai", "anthropic", "google"])
      const [key, value] = unknownField(r)
      const extended = updateAt(prompt, path, (options) => {
        const o = { ...(options as Record<string, unknown>) }
        const record = { ...(o[provider] as Record<string, unknown> | undefined) }
        setOwn(record, key, value)
        o[provider] = record
        return o
      })
      const read = run(EffectAi.fromPrompt(extended as never))
      const back = run(EffectAi.toPrompt(read.value as ReadonlyArray<Message.Message>))
      if (reported(read.warnings, back.warnings)) return
      const options = getAt(back.value, path) as Record<string, Record<string, unknown>> | undefined
      assert.deepStrictEqual(json(options?.[provider]?.[key]), json(value))
    },
    runs
  )
})
