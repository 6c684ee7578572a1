/**
 * The concrete claims of the adapters' and stream readers' doc comments, and
 * of the README's sections on conversion, streams and effect/ai, each checked
 * as written: a "never" or an "always" as a property, a table row by the
 * conversion it describes, a value an example shows by running the example.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect } from "effect"
import { Block, Message } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import type { Converted } from "../../src/providers/Conversion.js"
import { message } from "../arbitraries.js"
import { ok } from "./adapterHelpers.js"

const runs = { arbitrary: { runs: 200 }, timeout: 120_000 }

type Warned = Converted<unknown>
const writers: ReadonlyArray<readonly [string, (messages: ReadonlyArray<Message.Message>) => Warned]> = [
  ["openai-chat", (m) => ok(OpenAiChat.toMessages(m))],
  ["anthropic", (m) => ok(Anthropic.toMessages(m))],
  ["openai-responses", (m) => ok(OpenAiResponses.toMessages(m))],
  ["gemini", (m) => ok(Gemini.toMessages(m))]
]

/** Every object key of a JSON value, at any depth. */
const keysOf = (value: unknown, out: Array<string> = []): Array<string> => {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out)
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.push(k)
      keysOf(v, out)
    }
  }
  return out
}

const withMetadata = (messages: ReadonlyArray<Message.Message>, metadata: Record<string, string>): Array<Message.Message> =>
  Effect.runSync(Message.decodeAll(Message.encodeAll(messages).map((m) => ({ ...m, metadata }))))

const conversation = Arbitrary.array(message, { maxLength: 6 })

describe("README: what is never written to the wire", () => {
  it.prop("metadata is never sent anywhere", [conversation], ([messages]) => {
    const marked = withMetadata(messages, { ticket: "metadata-marker-4711" })
    for (const [name, write] of writers) {
      const text = JSON.stringify(write(marked).value)
      assert.isFalse(text.includes("metadata-marker-4711"), `${name} sent the metadata: ${text}`)
    }
  }, runs)

  it.prop("metadata changes neither what is written nor what is reported", [conversation], ([messages]) => {
    const marked = withMetadata(messages, { ticket: "metadata-marker-4711" })
    for (const [name, write] of writers) {
      const plain = write(messages)
      const with_ = write(marked)
      expect([name, JSON.stringify(with_.value), with_.warnings.map((w) => w.message)])
        .toEqual([name, JSON.stringify(plain.value), plain.warnings.map((w) => w.message)])
    }
  }, runs)

  it.prop("hints (a name with one $ in front) are never written to the wire", [conversation], ([messages]) => {
    for (const [name, write] of writers) {
      const dollar = keysOf(write(messages).value).filter((k) => k.startsWith("$"))
      assert.deepStrictEqual(dollar, [], name)
    }
  }, runs)
})

const keys = ["openai-chat", "anthropic", "openai-responses", "gemini"] as const

/** Blocks whose provider data says whose they are: these are another provider's when they carry its data. */
const decides = (b: Record<string, unknown>): boolean =>
  b["_tag"] === "ProviderData" || b["providerExecuted"] === true

/** The conversation with a field of each provider but `target` on every message and block. */
const withForeignOptions = (messages: ReadonlyArray<Message.Message>, target: string): Array<Message.Message> => {
  const add = (o: Record<string, unknown>): Record<string, unknown> => {
    const options: Record<string, unknown> = { ...(o["providerOptions"] as Record<string, unknown> | undefined) }
    for (const k of keys) if (k !== target) options[k] = { ...(options[k] as object | undefined), foreign_field: "foreign-marker" }
    return { ...o, providerOptions: options }
  }
  const encoded = Message.encodeAll(messages).map((m) => {
    const content = (m as { content: ReadonlyArray<Record<string, unknown>> }).content.map((b) => (decides(b) ? b : add(b)))
    return add({ ...m, content })
  })
  return Effect.runSync(Message.decodeAll(encoded))
}

describe("README: other providers' data is ignored without a warning", () => {
  it.prop("another provider's options on a message or block change neither what is written nor what is reported", [conversation], ([messages]) => {
    for (const [name, write] of writers) {
      const plain = write(messages)
      const foreign = write(withForeignOptions(messages, name))
      expect([name, JSON.stringify(foreign.value), foreign.warnings.map((w) => w.message)])
        .toEqual([name, JSON.stringify(plain.value), plain.warnings.map((w) => w.message)])
    }
  }, runs)
})

describe("README: a provider-executed call is the provider's whose data it carries", () => {
  it("a server tool call and its result with another provider's options are that provider's: left out of Anthropic, reported", () => {
    const ran = (providerOptions?: Block.ProviderOptions) => [
      Message.assistant([
        Block.toolCall("srvtoolu_1", "web_search", { query: "effect" }, { providerExecuted: true, ...(providerOptions === undefined ? {} : { providerOptions }) }),
        Block.toolResult("srvtoolu_1", "web_search", [Block.json([{}])], false, { providerExecuted: true }),
        Block.text("Found it.")
      ])
    ]
    const own = ok(Anthropic.toMessages(ran()))
    expect([own.warnings, JSON.stringify(own.value)]).toEqual([
      [],
      '{"messages":[{"role":"assistant","content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"effect"}},{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{}]},{"type":"text","text":"Found it."}]}]}'
    ])
    const geminis = ok(Anthropic.toMessages(ran({ gemini: { note: "ran by Gemini" } })))
    expect(geminis.warnings.map((w) => w.message)).toEqual([
      'messages[0].content[0]: the provider-executed call "web_search" was left out: another provider ran it; Anthropic cannot replay it as a server tool of its own',
      'messages[0].content[1]: the result of the provider-executed call "web_search" was left out: another provider ran it'
    ])
  })
})
