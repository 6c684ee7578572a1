import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import { AiError, LanguageModel } from "effect/ai"
import type { Prompt } from "effect/ai"
import { Block, Message, MessageWindow, Summarizer, TokenEstimator } from "../src/index.js"
import * as Arb from "./arbitraries.js"

const { assistant, tool, user } = Message

const history = [
  user("Find why the build fails."),
  assistant([Block.toolCall("c1", "read_file", { path: "tsconfig.json" }), Block.toolCall("c2", "run_tests", {})]),
  tool([Block.toolResult("c1", "read_file", '{"strict": true}'), Block.toolResult("c2", "run_tests", "3 failed: missing config", true)]),
  assistant("The test runner cannot find its config."),
  user("Fix it."),
  assistant([Block.toolCall("c3", "write_file", { path: "vitest.config.ts" })]),
  tool(Block.toolResult("c3", "write_file", "ok")),
  assistant("Added vitest.config.ts; tests pass.")
]

const request = (messages: ReadonlyArray<Message.Message>, maxTokens: number): Summarizer.SummaryRequest => ({
  messages,
  transcript: Message.transcriptOf(messages),
  maxTokens
})

describe("Summarizer.extractive", () => {
  it("keeps what the user asked, the tools used and how they failed, and the last answer", () => {
    expect(Summarizer.extractive(history, 500).split("\n")).toEqual([
      "User: Find why the build fails.",
      "run_tests failed: 3 failed: missing config",
      "Assistant: The test runner cannot find its config.",
      "User: Fix it.",
      "Assistant: Added vitest.config.ts; tests pass.",
      "Tools used: read_file ×1, run_tests ×1 (1 failed), write_file ×1"
    ])
  })

  it("under a small limit keeps the tools, the questions and the last answer before earlier answers", () => {
    const text = Summarizer.extractive(history, 45)
    expect(text.length).toBeLessThanOrEqual(45 * 3)
    expect(text).toContain("Tools used:")
    expect(text).not.toContain("The test runner cannot find its config.")
  })

  it("puts an earlier summary first", () => {
    const earlier = Message.system("[Summary of 12 earlier messages]\nThe user wants a release.")
    expect(Summarizer.extractive([earlier, ...history], 500).split("\n")[0]).toBe(
      "Earlier: [Summary of 12 earlier messages] The user wants a release."
    )
  })

  it("cuts an earlier summary too long for the room rather than losing it, so summaries fold", () => {
    const earlier = Message.system(`[Summary of 8 earlier messages]\nUser: TASK-ALPHA: find the bug\n${"Assistant: more facts. ".repeat(20)}`)
    const lines = Summarizer.extractive([earlier, Message.user("go on"), Message.assistant("FACT-3: done")], 60).split("\n")
    expect(lines[0]).toMatch(/^Earlier: \[Summary of 8 earlier messages\] User: TASK-ALPHA: .*…$/)
    expect(lines[0]!.length).toBeLessThanOrEqual(90)
    expect(lines.slice(1)).toEqual(["User: go on", "Assistant: FACT-3: done"])
    // a limit that is not a number leaves room for nothing but the count
    expect(Summarizer.extractive([earlier], Number.NaN)).toBe("1 earlier message.")
  })

  it.effect("folds a summary the window wrote, in either role, without its header and without nesting", () =>
    Effect.gen(function*() {
      const facts = Array.from({ length: 8 }, (_, i) => `User: fact ${i} lives in conf_${i}.json.`).join("\n")
      const mine = Summarizer.Summarizer.of({ summarize: () => Effect.succeed(facts) })
      const long = (i: number) => [user(`question ${i} ${"word ".repeat(60)}`), assistant(`answer ${i} ${"word ".repeat(60)}`)]
      const messages = [Message.system("You are an agent."), user("The task."), ...Array.from({ length: 6 }, (_, i) => long(i)).flat(), user("now?")]
      for (const pinFirstUser of [false, true]) {
        const fitted = yield* MessageWindow.fit(messages, 600, { strategy: "summarize", pinFirstUser, summaryTokens: 150 }).pipe(
          Effect.provide(MessageWindow.layer.pipe(Layer.provideMerge(TokenEstimator.layer))),
          Effect.provideService(Summarizer.Summarizer, mine)
        )
        const summary = fitted.summary!.message
        // with a kept user message before the cut, the window writes the summary as an assistant message
        expect(summary.role).toBe(pinFirstUser ? "assistant" : "system")
        const folded = Summarizer.extractive([summary, user("another question"), assistant("another answer")], 2_000)
        expect(folded.match(/fact \d/g)).toHaveLength(8)
        expect(folded).not.toContain("[Summary of")
        const again = Summarizer.extractive([Message.system(`[Summary of 9 earlier messages, removed to fit the context window]\n${folded}`, { metadata: summary.metadata ?? {} }), user("more")], 2_000)
        expect(again.startsWith("Earlier: User: fact 0")).toBe(true)
      }
    }))

  it("keeps the last answer before the questions when the limit is small", () => {
    const text = Summarizer.extractive([user("Q1"), assistant("The final answer is 42."), user("Q2"), user("Q3")], 25)
    expect(text.split("\n")).toContain("Assistant: The final answer is 42.")
  })

  it.prop("is deterministic and never empty", [Arb.agentConversation, Arb.intBetween(0, 300)], ([messages, maxTokens]) => {
    const text = Summarizer.extractive(messages, maxTokens)
    expect(text.trim()).not.toBe("")
    expect(Summarizer.extractive(messages, maxTokens)).toBe(text)
  }, { arbitrary: { runs: 200 }, timeout: 300_000 })

  it.effect("layerExtractive provides it as the Summarizer service", () =>
    Effect.gen(function*() {
      const summarizer = yield* Summarizer.Summarizer
      expect(yield* summarizer.summarize(request(history, 500))).toBe(Summarizer.extractive(history, 500))
    }).pipe(Effect.provide(Summarizer.layerExtractive())))
})

describe("Summarizer.layerExtractive options", () => {
  /** What building the layer with these options gives: the summary of the history, or the refusal. */
  const built = (options: unknown) =>
    Effect.runSync(
      Effect.result(
        Effect.gen(function*() {
          const summarizer = yield* Summarizer.Summarizer
          return yield* summarizer.summarize(request(history, 500))
        }).pipe(Effect.provide(Summarizer.layerExtractive(options as Summarizer.ExtractiveOptions)))
      )
    )

  it("uses valid options: fewer characters per token, shorter lines", () => {
    const result = built({ charsPerToken: 2, maxLineLength: 10 })
    assert(result._tag === "Success")
    expect(result.success).toBe(Summarizer.extractive(history, 500, { charsPerToken: 2, maxLineLength: 10 }))
    expect(result.success).toContain("User: Find why t…")
  })

  const bad: ReadonlyArray<readonly [string, unknown]> = [
    ["charsPerToken", Number.NaN],
    ["charsPerToken", -3],
    ["charsPerToken", 0],
    ["charsPerToken", Number.POSITIVE_INFINITY],
    ["charsPerToken", "3"],
    ["maxLineLength", Number.NaN],
    ["maxLineLength", -1],
    ["maxLineLength", 0],
    ["maxLineLength", 10.5],
    ["maxLineLength", Number.POSITIVE_INFINITY],
    ["maxLineLength", "160"]
  ]
  for (const [option, value] of bad) {
    it(`refuses ${option}: ${typeof value === "string" ? JSON.stringify(value) : String(value)} with InvalidSummarizerOptions when the layer is built`, () => {
      const result = built({ [option]: value })
      assert(result._tag === "Failure")
      assert(result.failure._tag === "InvalidSummarizerOptions")
      expect(result.failure.option).toBe(option)
      expect(result.failure.message).toContain(`invalid summarizer option "${option}"`)
    })
  }

  it("takes an option given as undefined as its default, and a ratio too large for any limit as room for every line", () => {
    const defaults = built({ charsPerToken: undefined, maxLineLength: undefined })
    assert(defaults._tag === "Success")
    expect(defaults.success).toBe(Summarizer.extractive(history, 500))
    const roomy = built({ charsPerToken: 1e308 })
    assert(roomy._tag === "Success")
    expect(roomy.success).toBe(Summarizer.extractive(history, Number.POSITIVE_INFINITY))
    expect(roomy.success).not.toMatch(/^\d+ earlier messages?\.$/)
    expect(Summarizer.extractive(history, Number.NaN)).toMatch(/^\d+ earlier messages?\.$/)
  })

  it("refuses options that are not an object, and options it does not know", () => {
    const notAnObject = built("fast")
    assert(notAnObject._tag === "Failure" && notAnObject.failure._tag === "InvalidSummarizerOptions")
    expect(notAnObject.failure.option).toBe("")
    const unknown = built({ maxLineLenght: 80 })
    assert(unknown._tag === "Failure" && unknown.failure._tag === "InvalidSummarizerOptions")
    expect(unknown.failure.option).toBe("maxLineLenght")
  })

  it.effect("makeExtractive refuses bad options when it runs, not when it is built", () =>
    Effect.gen(function*() {
      const make = Summarizer.makeExtractive({ charsPerToken: Number.NaN })
      const error = yield* Effect.flip(make)
      expect([error._tag, error.option]).toEqual(["InvalidSummarizerOptions", "charsPerToken"])
    }))
})

/** A model that answers from a script and records the prompts it was given: no network. */
const scripted = (answer: (prompt: Prompt.Prompt) => Effect.Effect<string, AiError.AiError>) => {
  const prompts: Array<Prompt.Prompt> = []
  const layer = Layer.effect(
    LanguageModel.LanguageModel,
    LanguageModel.make({
      generateText: (options) => {
        prompts.push(options.prompt)
        return answer(options.prompt).pipe(Effect.map((text) => [{ type: "text" as const, text }]))
      },
      streamText: () => Stream.empty
    })
  )
  return { prompts, layer: Summarizer.layerLanguageModel().pipe(Layer.provide(layer)) }
}

const textOfPrompt = (message: Prompt.Message | undefined): string => {
  if (message === undefined) return ""
  if (typeof message.content === "string") return message.content
  return message.content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("")
}

describe("Summarizer.layerLanguageModel", () => {
  it.effect("asks the model with the instructions, the token limit and the transcript, tool traffic written out", () => {
    const { layer, prompts } = scripted(() => Effect.succeed("  The build needed a vitest config; it was added.  "))
    return Effect.gen(function*() {
      const summarizer = yield* Summarizer.Summarizer
      const text = yield* summarizer.summarize(request(history, 300))
      expect(text).toBe("The build needed a vitest config; it was added.")
      const [system, userMessage] = prompts[0]!.content
      expect(system?.role).toBe("system")
      expect(textOfPrompt(system)).toContain(Summarizer.DEFAULT_INSTRUCTIONS)
      expect(textOfPrompt(system)).toContain("Stay within 300 tokens.")
      expect(textOfPrompt(userMessage)).toContain('[tool call read_file({"path":"tsconfig.json"})]')
      expect(textOfPrompt(userMessage)).toContain("[tool result run_tests (error): 3 failed: missing config]")
    }).pipe(Effect.provide(layer))
  })

  it.effect("a model error becomes SummaryFailed, with the AiError as its cause", () => {
    const failure = AiError.make({ module: "Test", method: "generateText", reason: new AiError.UnknownError({ description: "boom" }) })
    const { layer } = scripted(() => Effect.fail(failure))
    return Effect.gen(function*() {
      const summarizer = yield* Summarizer.Summarizer
      const error = yield* Effect.flip(summarizer.summarize(request(history, 300)))
      assert.strictEqual(error._tag, "SummaryFailed")
      expect(error.cause).toBe(failure)
    }).pipe(Effect.provide(layer))
  })

  it.effect("an empty answer is a failure, not an empty summary", () => {
    const { layer } = scripted(() => Effect.succeed("   "))
    return Effect.gen(function*() {
      const summarizer = yield* Summarizer.Summarizer
      const error = yield* Effect.flip(summarizer.summarize(request(history, 300)))
      expect(error.message).toBe("could not summarize the dropped messages: the model answered with an empty summary")
    }).pipe(Effect.provide(layer))
  })

  it.effect("the window's summarize strategy uses it: the model's summary replaces the dropped turns", () => {
    const { layer, prompts } = scripted(() => Effect.succeed("Build fixed by adding vitest.config.ts."))
    const Window = MessageWindow.layer.pipe(Layer.provide(Layer.merge(TokenEstimator.layerTest({ costPerChar: 1 }), layer)))
    return Effect.gen(function*() {
      const messages = [...history, user("Now release it.")]
      const fitted = yield* MessageWindow.fit(messages, 130, { strategy: "summarize" })
      expect(fitted.messages.map((m) => m.role)).toEqual(["system", "user"])
      expect(Message.textOf(fitted.messages[0]!)).toBe(
        "[Summary of 8 earlier messages, removed to fit the context window]\nBuild fixed by adding vitest.config.ts."
      )
      expect(prompts).toHaveLength(1)
    }).pipe(Effect.provide(Window))
  })
})
