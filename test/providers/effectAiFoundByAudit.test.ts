/**
 * Defects an audit of the effect/ai adapter found, each pinned by the case that showed it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { Prompt, Response } from "effect/ai"
import { Block, Message, Request } from "../../src/index.js"
import { EffectAi } from "../../src/providers/index.js"

/** The typed failure of `effect`, or a test failure if it succeeds or dies. */
const failure = <A, E>(effect: Effect.Effect<A, E>): E => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const error = Cause.findErrorOption(exit.cause)
  if (error._tag === "None") throw new Error(`expected a typed failure, got ${Cause.pretty(exit.cause)}`)
  return error.value
}

describe("fromResponseParts and a finish part's usage", () => {
  const parts = (usage: unknown) => [
    Response.makePart("text", { text: "hi" }),
    Response.makePart("finish", { reason: "stop", usage, response: undefined } as unknown as Parameters<typeof Response.makePart<"finish">>[1])
  ]
  const figures = (input: number | undefined, output: number | undefined) => ({
    inputTokens: { total: input, uncached: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: undefined, reasoning: undefined }
  })

  it("a figure that is no token count is MalformedPayload, with its path", () => {
    for (const [input, path] of [[-1, "parts[1].usage.inputTokens.total"], [1.5, "parts[1].usage.inputTokens.total"], [2 ** 60, "parts[1].usage.inputTokens.total"]] as const) {
      const usage = input === -1 ? new Response.Usage(figures(input, 2)) : figures(input, 2)
      expect(failure(EffectAi.fromResponseParts(parts(usage)))).toMatchObject({ _tag: "MalformedPayload", path })
    }
  })

  it("a finish part without usage reports none; token counts are read as before", () => {
    const none = Effect.runSync(EffectAi.fromResponseParts(parts(undefined)))
    expect(none.value.usage).toBeUndefined()
    const some = Effect.runSync(EffectAi.fromResponseParts(parts(new Response.Usage(figures(12, 3)))))
    expect(some.value.usage).toMatchObject({ inputTokens: 12, outputTokens: 3 })
  })
})

describe("fromPrompt on a Prompt built by hand in untyped code", () => {
  const cases: ReadonlyArray<readonly [string, unknown, string]> = [
    ["a content given as a string", { role: "user", content: "hi", options: {} }, "make the Prompt with Prompt.make"],
    ["a null message", null, "not a Prompt message"],
    ["a null part", { role: "user", content: [null], options: {} }, "not a Prompt message"],
    ["an assistant part of no known type", { role: "assistant", content: [{ type: "source", options: {} }], options: {} }, "not a Prompt message"],
    ["a text that is a number", { role: "user", content: [{ type: "text", text: 5, options: {} }], options: {} }, "not a Prompt message"],
    ["a tool result without a name", { role: "tool", content: [{ type: "tool-result", id: "c", result: "x", isFailure: false, options: {} }], options: {} }, "not a Prompt message"],
    ["a tool result failure that is no boolean", { role: "tool", content: [{ type: "tool-result", id: "c", name: "f", isFailure: "yes", result: "x", options: {} }], options: {} }, "isFailure"],
    ["a model output that is no list", { role: "tool", content: [{ type: "tool-result", id: "c", name: "f", isFailure: false, result: "x", modelOutput: "x", options: {} }], options: {} }, "not a Prompt message"]
  ]
  for (const [label, message, reason] of cases) {
    it(`${label} is MalformedPayload, not a defect`, () => {
      const prompt = { content: [Prompt.userMessage({ content: [Prompt.textPart({ text: "first" })] }), message] } as unknown as Prompt.Prompt
      const error = failure(EffectAi.fromPrompt(prompt))
      expect(error).toMatchObject({ _tag: "MalformedPayload", path: "prompt.content[1]" })
      expect(error.message).toContain(reason)
    })
  }
})

describe("effect/ai round trips", () => {
  it("a tool result of null with a model output keeps its null", () => {
    const prompt = Prompt.make([{ role: "tool", content: [{ type: "tool-result", id: "c", name: "lookup", isFailure: false, result: null, modelOutput: [{ type: "text", text: "nothing found" }] }] }])
    const messages = Effect.runSync(EffectAi.fromPrompt(prompt)).value
    const back = Effect.runSync(EffectAi.toPrompt(messages))
    expect(back.warnings).toEqual([])
    const part = back.value.content[0]!.content[0] as Prompt.ToolResultPart
    expect(part.result).toBeNull()
    expect(part.modelOutput).toMatchObject([{ type: "text", text: "nothing found" }])
  })

  it("an explicit cacheControl: null on a message comes back as it was, with no marker of ours", () => {
    for (const raw of [
      [{ role: "user", content: [{ type: "text", text: "a" }], options: { anthropic: { cacheControl: null } } }],
      [{ role: "system", content: "s", options: { anthropic: { cacheControl: null } } }]
    ] as Array<Prompt.RawInput>) {
      const prompt = Prompt.make(raw)
      const back = Effect.runSync(Effect.flatMap(EffectAi.fromPrompt(prompt), (r) => EffectAi.toPrompt(r.value)))
      expect(back.value.content[0]!.options).toEqual({ anthropic: { cacheControl: null } })
    }
  })

  it("toToolkit reports an order its record changes: tool names that are numbers first", () => {
    const tools = ["search", "10", "2", "lookup"].map((name) => Request.tool(name, { parameters: { type: "object" } }))
    const kit = EffectAi.toToolkit(tools)
    expect(Object.keys(kit.value.tools)).toEqual(["2", "10", "search", "lookup"])
    expect(kit.warnings.map((w) => w._tag)).toEqual(["ConvertedContent"])
    expect(kit.warnings[0]!.message).toContain("the order of the tools")
    // an order it keeps is no warning
    expect(EffectAi.toToolkit(tools.filter((t) => !/^\d+$/.test(t.name))).warnings).toEqual([])
  })

  it("options of a provider named as the adapter's own key come back as they were, never read as the adapter's", () => {
    const own = { [EffectAi.ownKey]: { foo: 1 } }
    const cases = [
      [Message.assistant([Block.text("a", { citations: [{ url: "u" }], providerOptions: own })])],
      [Message.user("a", { providerOptions: own })],
      [Message.assistant([Block.toolCall("c", "f", { a: 1 }, { providerOptions: { [EffectAi.ownKey]: { rawArgs: '{"a":1}' } } })])],
      [Message.assistant("hi", { providerOptions: { [EffectAi.ownKey]: { usage: "n/a" } } })]
    ]
    for (const messages of cases) {
      const back = Effect.runSync(Effect.flatMap(EffectAi.toPrompt(messages), (p) => EffectAi.fromPrompt(p.value)))
      expect(back.warnings).toEqual([])
      expect(Message.encodeAll(back.value)).toEqual(Message.encodeAll(messages))
    }
  })

  it("a Prompt's Anthropic option spelt cache_control stays that field: no breakpoint is added on the way back", () => {
    const snake = { anthropic: { cache_control: { type: "ephemeral" } } } as unknown as Prompt.ProviderOptions
    for (const raw of [
      [{ role: "user", content: [{ type: "text", text: "a", options: snake }] }],
      [{ role: "user", content: [{ type: "text", text: "a" }], options: snake }],
      [{ role: "user", content: [{ type: "text", text: "a", options: { anthropic: { cache_control: "X", cacheControl: { type: "ephemeral" } } } as unknown as Prompt.ProviderOptions }] }]
    ] as Array<Prompt.RawInput>) {
      const prompt = Prompt.make(raw)
      const read = Effect.runSync(EffectAi.fromPrompt(prompt))
      const back = Effect.runSync(EffectAi.toPrompt(read.value))
      expect([...read.warnings, ...back.warnings]).toEqual([])
      const m = back.value.content[0] as Prompt.UserMessage
      const p = prompt.content[0] as Prompt.UserMessage
      expect([m.options, m.content[0]!.options]).toEqual([p.options, p.content[0]!.options])
      // in ours, only effect/ai's own spelling is a breakpoint
      const block = read.value[0]!.content[0]!
      const breakpoint = block._tag === "Text" ? block.providerOptions?.["anthropic"]?.["cache_control"] : undefined
      const camel = p.content[0]!.options["anthropic"] as { readonly cacheControl?: unknown } | undefined
      expect(breakpoint).toEqual(camel?.cacheControl)
    }
  })

  it("every URL goes to the Prompt as a URL object, and comes back as the text it was", () => {
    for (const url of ["https://example.com", "https://example.com/Straße/ä.png", "https://example.com/a b.png", "https://EXAMPLE.com/x.png", "https://example.com/cat.png"]) {
      const messages = [Message.user([Block.file(Block.url(url), "image/png")])]
      const prompt = Effect.runSync(EffectAi.toPrompt(messages)).value
      const part = (prompt.content[0] as Prompt.UserMessage).content[0] as Prompt.FilePart
      expect(part.data).toBeInstanceOf(URL)
      const back = Effect.runSync(EffectAi.fromPrompt(prompt))
      expect(back.warnings).toEqual([])
      expect(Message.encodeAll(back.value)).toEqual(Message.encodeAll(messages))
    }
    // a URL edited in the Prompt wins over the text kept for it
    const prompt = Effect.runSync(EffectAi.toPrompt([Message.user([Block.file(Block.url("https://example.com"), "image/png")])])).value
    const edited = Prompt.make([{ role: "user", content: [{ ...((prompt.content[0] as Prompt.UserMessage).content[0] as Prompt.FilePart), data: new URL("https://other.example/") }] }])
    const file = Effect.runSync(EffectAi.fromPrompt(edited)).value[0]!.content[0]!
    expect(file._tag === "File" && file.source).toEqual(Block.url("https://other.example/"))
  })
})

describe("fromPrompt on a value JSON cannot hold", () => {
  it("names its place in the prompt, as for every other malformed part", () => {
    const pathOf = (prompt: unknown) => (failure(EffectAi.fromPrompt(prompt as Prompt.Prompt)) as { readonly path?: string }).path
    expect(pathOf(Prompt.make([{ role: "user", content: "x" }, { role: "assistant", content: [{ type: "tool-call", id: "c", name: "f", params: { n: 10n } }] }])))
      .toBe("prompt.content[1].content[0].params.n")
    expect(pathOf(Prompt.make([{ role: "tool", content: [{ type: "tool-result", id: "c", name: "f", isFailure: false, result: Number.NaN }] }])))
      .toBe("prompt.content[0].content[0].result")
    expect(pathOf({ content: [{ role: "user", options: {}, content: [{ type: "text", text: "x", options: { openai: { f: () => 1 } } }] }] }))
      .toBe("prompt.content[0].content[0].options.openai.f")
    expect(pathOf({ content: [{ role: "user", options: { openai: { f: () => 1 } }, content: [{ type: "text", text: "x", options: {} }] }] }))
      .toBe("prompt.content[0].options.openai.f")
  })
})
