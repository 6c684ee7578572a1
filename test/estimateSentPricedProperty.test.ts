/**
 * What a writer sends is priced: for every provider, a block put into a message of a valid conversation that puts
 * its text into the body the writer sends raises the request estimate by about what that text costs. The other side
 * of `estimateLeftOut`; an audit that grew one block at a time found a Chat custom tool's call and the items of the
 * tools the Responses API ran itself sent and priced at nothing, each fixed with an example; this holds the rule.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { Block, Request } from "../src/index.js"
import { estimate, putRun, targets, type Target, written } from "./blocksPut.js"

/** A text no generated conversation holds, of about 150 tokens, as the block's content. */
const T = "Zebra quartz wizards vex bold jumping frogs near the old mill. ".repeat(10)

/** How often the written body holds `T` (0 when the writer sends none). */
const sentTimes = (provider: Target, request: Request.Request): number => {
  const body = written(provider, request)
  return body.startsWith("fails: ") ? 0 : body.split(T).length - 1
}

const hosted = (type: string, name: string, args: Block.JsonObject, result?: Block.JsonObject): ReadonlyArray<Block.AssistantBlock> => [
  Block.toolCall(`${type}_1`, name, args, { providerExecuted: true, itemId: `${type}_1`, providerOptions: { "openai-responses": { type, status: "completed" } } }),
  ...(result === undefined ? [] : [Block.toolResult(`${type}_1`, name, [Block.json(result)], false, { providerExecuted: true })])
]

/** Blocks, or runs of blocks, that carry `T`: some writers send it, some leave it out. */
const blocks: ReadonlyArray<ReadonlyArray<Block.Block>> = [
  [Block.text(T)],
  [Block.thinking(T, "sig")],
  [Block.thinking(T, undefined, { itemId: "rs_1" })],
  [Block.thinking(T, undefined, { thoughtSignature: "s".repeat(40) })],
  [Block.toolCall("c_sent", "lookup", { q: T })],
  [Block.toolCall("c_custom", "sql", T, { providerOptions: { "openai-chat": { type: "custom" } } })],
  hosted("code_interpreter_call", "code_interpreter", { code: "print(1)", container_id: "cntr_1" }, { outputs: [{ type: "logs", logs: T }] }),
  hosted("web_search_call", "web_search", { action: { type: "search", query: T } }),
  hosted("mcp_call", "mcp", { q: "x" }, { output: T }),
  [Block.providerData("openai-responses", { type: "message", role: "assistant", content: [{ type: "output_text", text: T, annotations: [] }] })],
  [Block.providerData("openai-chat", { type: "text", text: T })],
  [Block.file(Block.textSource(T), "text/plain")],
  [Block.document(Block.textSource(T), { mediaType: "text/plain", title: "Notes" })]
]

const put = putRun(blocks)

// T costs about 150 tokens with either table; what the writer sends of it must cost at least half of that
const LEAST = 75

describe("what a writer sends is priced", () => {
  it.prop("for every provider: T in the body written, T in the estimate", [put, Arbitrary.schema(Schema.Literals(["gpt-4o", "gpt-5", "claude-sonnet-4-5", "gemini-3-pro-preview"]))], ([pair, model]) => {
    if (pair === undefined) return
    for (const provider of targets) {
      const before = Request.make(pair.without, { model })
      const after = Request.make(pair.with, { model })
      const sent = sentTimes(provider, after) - sentTimes(provider, before)
      if (sent <= 0) continue
      // thinking of turns before the newest user message is sent and not billed (the provider strips it)
      if (pair.run.some((b) => b._tag === "Thinking") && (provider === "anthropic" || provider === "openai-responses")) continue
      expect(estimate(provider, after) - estimate(provider, before), provider).toBeGreaterThanOrEqual(LEAST * sent)
    }
  }, { arbitrary: { runs: 300 }, timeout: 120_000 })
})
