/**
 * The other side of `estimateLeftOut`: what a writer sends is priced. An
 * audit grew one block or field at a time by 2,000 characters of English
 * and compared the estimate with the body the writer wrote; these were
 * priced at nothing, however long: a Chat custom tool's call (its input is
 * what the model wrote) and the items of the tools the Responses API ran
 * itself (a code interpreter's code and logs, a web search, an MCP call's
 * output), which the Responses writer sends back, and an Anthropic tool's
 * examples of its input.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, type Schema } from "effect"
import { Block, Message, Request, TokenEstimator } from "../src/index.js"
import { loadTextCounter, makeExact } from "../src/exact/index.js"
import { Anthropic, OpenAiChat, OpenAiResponses } from "../src/providers/index.js"

beforeAll(() => Effect.runPromise(Effect.asVoid(loadTextCounter("o200k"))))

const LONG = "The quick brown fox jumps over the lazy dog, and then it runs back home again. ".repeat(25)

const estimators = () => [TokenEstimator.heuristic, Effect.runSync(makeExact({ encoding: "o200k" }))] as const

/** What growing `short` into `long` adds to the estimate, per estimator. */
const growth = (provider: "openai-chat" | "openai-responses" | "anthropic", make: (text: string) => Request.Request): Array<number> =>
  estimators().map((e) => e.estimateRequest(make(LONG), { provider }).total - e.estimateRequest(make("x"), { provider }).total)

const hostedCall = (type: string, name: string, args: Block.JsonObject, result: Block.JsonObject, kept: Block.JsonObject = {}) => [
  Block.toolCall(`${type}_1`, name, args, { providerExecuted: true, itemId: `${type}_1`, providerOptions: { "openai-responses": { type, status: "completed", ...kept } } }),
  Block.toolResult(`${type}_1`, name, [Block.json(result)], false, { providerExecuted: true })
]

// 2,000 characters of English: about 400 tokens; the estimate must take most of it
const PRICED = 300

describe("what a writer sends is priced", () => {
  const customCall = (input: string) =>
    Request.make([
      Message.user("Write the query."),
      Message.assistant([Block.toolCall("call_2", "sql", input, { providerOptions: { "openai-chat": { type: "custom" } } })]),
      Message.tool([Block.toolResult("call_2", "sql", "3 rows")])
    ])

  it.effect("a Chat custom tool's call: its input, as the writer sends it", () =>
    Effect.gen(function*() {
      const written = yield* OpenAiChat.toRequest(customCall(LONG))
      expect(JSON.stringify(written.value)).toContain(LONG)
      for (const added of growth("openai-chat", customCall)) expect(added).toBeGreaterThan(PRICED)
    }))

  const hosted = (logs: string) =>
    Request.make([
      Message.user("What is 2 + 2?"),
      Message.assistant([
        Block.toolCall("ci_1", "code_interpreter", { code: "print(2 + 2)", container_id: "cntr_1" }, {
          providerExecuted: true,
          itemId: "ci_1",
          providerOptions: { "openai-responses": { type: "code_interpreter_call", status: "completed" } }
        }),
        Block.toolResult("ci_1", "code_interpreter", [Block.json({ outputs: [{ type: "logs", logs }] })], false, { providerExecuted: true }),
        Block.text("4.")
      ]),
      Message.user("Thanks.")
    ])

  it.effect("a call the Responses API ran itself, with its result, as the item the Responses writer sends", () =>
    Effect.gen(function*() {
      const written = yield* OpenAiResponses.toRequest(hosted(LONG))
      expect(JSON.stringify(written.value)).toContain(LONG)
      for (const added of growth("openai-responses", hosted)) expect(added).toBeGreaterThan(PRICED)
      // the other writers leave it out, and so do their estimates
      expect(JSON.stringify((yield* OpenAiChat.toRequest(hosted(LONG))).value)).not.toContain(LONG)
      expect(growth("openai-chat", hosted)).toEqual([0, 0])
      expect(growth("anthropic", hosted)).toEqual([0, 0])
    }))

  it("a web search the Responses API ran costs its query", () => {
    const search = (query: string) =>
      Request.make([
        Message.user("News?"),
        Message.assistant([
          Block.toolCall("ws_1", "web_search", { action: { type: "search", query } }, {
            providerExecuted: true,
            itemId: "ws_1",
            providerOptions: { "openai-responses": { type: "web_search_call", status: "completed" } }
          }),
          Block.text("Here is the news.")
        ])
      ])
    for (const added of growth("openai-responses", search)) expect(added).toBeGreaterThan(PRICED)
  })

  it.effect("an Anthropic tool's examples of its input, which the Anthropic writer sends", () =>
    Effect.gen(function*() {
      const lookup = (q: string) =>
        Request.make([Message.user("Look it up.")], {
          tools: [Request.tool("lookup", { description: "Look up a term.", parameters: { type: "object", properties: { q: { type: "string" } } }, providerOptions: { anthropic: { input_examples: [{ q }] } } })]
        })
      const written = yield* Anthropic.toRequest(lookup(LONG), { maxTokens: 1024 })
      expect(JSON.stringify(written.value)).toContain(LONG)
      expect(growth("anthropic", lookup)[0]).toBeGreaterThan(PRICED)
    }))

  it("a hosted item is priced by its JSON text, its kept fields with it, and never less for more text (a review)", () => {
    // an argument named `text` made the item read as a text part, its logs unpriced: 34 tokens before, 13 after
    const textArg = (logs: string) =>
      Request.make([Message.user("Run it."), Message.assistant([...hostedCall("code_interpreter_call", "code_interpreter", { code: "x", text: "short" }, { outputs: [{ type: "logs", logs }] }), Block.text("Done.")])])
    for (const added of growth("openai-responses", textArg)) expect(added).toBeGreaterThan(PRICED)
    // an MCP call's server label, which the writer sends with the item
    const labelled = (label: string) =>
      Request.make([Message.user("Ask."), Message.assistant([...hostedCall("mcp_call", "mcp", { q: "x" }, { output: "ok" }, { server_label: label }), Block.text("Done.")])])
    for (const added of growth("openai-responses", labelled)) expect(added).toBeGreaterThan(PRICED)
  })

  it.effect("a message the Responses writer leaves out whole is not priced (thinking read from Chat's reasoning field)", () =>
    Effect.gen(function*() {
      const read = yield* OpenAiChat.fromRequest({
        model: "gpt-5",
        messages: [{ role: "user", content: "Q" }, { role: "assistant", content: null, reasoning: LONG }, { role: "user", content: "Go on." }]
      })
      const without = Request.make([read.value.messages[0]!, read.value.messages[2]!], { model: "gpt-5" })
      const written = yield* OpenAiResponses.toRequest(read.value)
      expect(written.value.input).toEqual((yield* OpenAiResponses.toRequest(without)).value.input)
      for (const e of estimators()) {
        expect(e.estimateRequest(read.value, { provider: "openai-responses" }).total).toBe(e.estimateRequest(without, { provider: "openai-responses" }).total)
      }
    }))

  it("a hosted item or a Responses item kept as data nested past V8's JSON writer is priced, not a thrown RangeError", () => {
    let deep: Schema.Json = "x"
    for (let i = 0; i < 50_000; i++) deep = { a: deep }
    for (const blocks of [hostedCall("code_interpreter_call", "code_interpreter", { code: deep }, { outputs: [] }), [Block.providerData("openai-responses", { type: "x_call", v: deep })]]) {
      const request = Request.make([Message.user("Q"), Message.assistant([...blocks, Block.text("Done.")])])
      expect(TokenEstimator.heuristic.estimateRequest(request, { provider: "openai-responses" }).total).toBeGreaterThan(50_000)
    }
  })
})
