import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import * as Block from "../src/Block.js"
import * as Calibration from "../src/Calibration.js"
import * as GeminiEstimator from "../src/GeminiEstimator.js"
import * as Message from "../src/Message.js"
import * as Request from "../src/Request.js"
import * as Summarizer from "../src/Summarizer.js"
import * as TokenEstimator from "../src/TokenEstimator.js"

describe("the Gemini 2.5 declaration count", () => {
  it("counts an enum value nested 10,000 levels deep as a value, without overflowing the stack", () => {
    let deep: unknown = "x"
    for (let i = 0; i < 10_000; i++) deep = [deep]
    const tool = Request.tool("pick", { parameters: { type: "object", properties: { a: { type: "string", enum: [deep, "b"] } } } })
    const request = Request.make([Message.user("hi")], { tools: [tool] })
    for (const model of ["gemini-2.5-flash", "gemini-3-flash-preview"]) {
      const total = TokenEstimator.heuristic.estimateRequest(request, { provider: "gemini", model }).total
      // the nesting is 20,000 brackets of JSON: counted, not lost
      expect(total, model).toBeGreaterThan(2_000)
    }
  })

  it("counts a string value as its text and any other value as its JSON", () => {
    const count = (values: ReadonlyArray<unknown>): number =>
      TokenEstimator.heuristic.estimateRequest(
        Request.make([Message.user("hi")], { tools: [Request.tool("pick", { parameters: { type: "object", properties: { a: { enum: values } } } })] }),
        { provider: "gemini", model: "gemini-2.5-flash" }
      ).total
    expect(count(["red", "green"])).toBeLessThan(count(["red", "green", { shade: ["dark", "light"] }]))
  })
})

describe("a calibration's snapshot", () => {
  const options = { priorFactors: { "claude-*": 1.22 } } as const

  it("keeps a restored factor of 1 where a prior would start the model elsewhere", () => {
    // restored at 1 and not used this run: the next start must not go back to the prior
    const run = Effect.runSync(Calibration.make(TokenEstimator.heuristic, { ...options, initialFactors: { "claude-x": 1 } }))
    expect(run.factor("claude-x")).toBe(1)
    expect(run.snapshot()).toEqual({ "claude-x": 1 })
    const unused = Effect.runSync(Calibration.make(TokenEstimator.heuristic, { ...options, initialFactors: { "claude-y": 1 } }))
    expect(unused.snapshot()).toEqual({ "claude-y": 1 })
    const next = Effect.runSync(Calibration.make(TokenEstimator.heuristic, { ...options, initialFactors: unused.snapshot() }))
    expect(next.factor("claude-y")).toBe(1)
  })

  it("still leaves out what the next start gives anyway: a restored 1 without a prior, a restored prior", () => {
    const run = Effect.runSync(Calibration.make(TokenEstimator.heuristic, { ...options, initialFactors: { "gpt-x": 1, "claude-z": 1.22 } }))
    expect(run.factor("gpt-x")).toBe(1)
    expect(run.factor("claude-z")).toBeCloseTo(1.22, 12)
    expect(run.snapshot()).toEqual({})
  })

  it("keeps a factor learned down to its bound of 1 across two restarts under a prior", () => {
    const bounded = { ...options, minFactor: 1 }
    const first = Effect.runSync(Calibration.make(TokenEstimator.heuristic, bounded))
    for (let i = 0; i < 10; i++) Effect.runSync(first.record("claude-haiku-4-5", 1000, 800))
    expect(first.factor("claude-haiku-4-5")).toBe(1)
    const second = Effect.runSync(Calibration.make(TokenEstimator.heuristic, { ...bounded, initialFactors: first.snapshot() }))
    const third = Effect.runSync(Calibration.make(TokenEstimator.heuristic, { ...bounded, initialFactors: second.snapshot() }))
    expect(third.factor("claude-haiku-4-5")).toBe(1)
  })
})

describe("the extractive summary's room", () => {
  it("keeps the last answer and the question before it when an earlier summary and a long tools line would fill the room", () => {
    const earlier = Message.system(
      `[Summary of 12 earlier messages, removed to fit the context window]\n${"The user is migrating the billing service to Postgres; steps 1-4 are done. ".repeat(8)}`
    )
    const calls = Array.from({ length: 12 }, (_, i) => Block.toolCall(`c${i}`, `tool_${i}_${"x".repeat(10)}`, {}))
    const messages = [
      earlier,
      Message.user("Now run the migration."),
      Message.assistant(calls),
      Message.tool(calls.map((c) => Block.toolResult(c.id, c.name, "ok"))),
      Message.assistant("Done.")
    ]
    for (const maxTokens of [60, 100, 200]) {
      const summary = Summarizer.extractive(messages, maxTokens)
      expect(summary.length, String(maxTokens)).toBeLessThanOrEqual(maxTokens * 3)
      expect(summary, String(maxTokens)).toContain("Assistant: Done.")
      expect(summary, String(maxTokens)).toContain("User: Now run the migration.")
      // both long lines are cut, not left out
      expect(summary, String(maxTokens)).toContain("Earlier: ")
      expect(summary, String(maxTokens)).toContain("Tools used: ")
    }
  })
})

describe("the Gemini estimator's options", () => {
  it("are checked as every estimator's are: a misspelt key or a value that is no object is refused", () => {
    const build = (options: unknown) =>
      Effect.runSyncExit(Layer.build(GeminiEstimator.layerWith(options as GeminiEstimator.Options)).pipe(Effect.scoped))
    for (const options of [{ messageOverhed: 0 }, "x", { messageOverhead: -1 }, { messageOverhead: 1.5 }]) {
      const exit = build(options)
      expect(Exit.isFailure(exit), JSON.stringify(options)).toBe(true)
      if (Exit.isFailure(exit)) expect(String(exit.cause)).toContain("InvalidEstimatorOptions")
    }
    for (const options of [undefined, {}, { messageOverhead: 0 }]) expect(Exit.isSuccess(build(options)), JSON.stringify(options)).toBe(true)
    const estimator = Effect.runSync(GeminiEstimator.make({ messageOverhead: 0 }))
    expect(estimator.estimateConversation([Message.user("hello")])).toBe(GeminiEstimator.estimateText("hello"))
  })
})
