/**
 * A block the writer leaves out changes no estimate: for every provider, a block put into a message of a valid
 * conversation either changes what the writer sends, or leaves the request estimate as it was. Two audits found a
 * dozen kinds of block the writers leave out and the estimates priced at their full size (another provider's data,
 * calls it ran, thinking a provider cannot replay...), each fixed with an example; this holds the rule itself.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, GeminiEstimator, Message, Request, TokenEstimator } from "../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"

const T = "The quick brown fox jumps over the lazy dog. ".repeat(20)
const gemini = Effect.runSync(GeminiEstimator.make())

const writers = {
  "openai-chat": (r: Request.Request) => OpenAiChat.toRequest(r),
  "openai-responses": (r: Request.Request) => OpenAiResponses.toRequest(r),
  anthropic: (r: Request.Request) => Anthropic.toRequest(r),
  gemini: (r: Request.Request) => Gemini.toRequest(r)
} as const
type Target = keyof typeof writers

/** The body the writer sends, as JSON text (or why it sends none). */
const written = (provider: Target, request: Request.Request): string => {
  const exit = Effect.runSyncExit(Effect.map(writers[provider](request) as Effect.Effect<{ readonly value: unknown }, unknown>, (out) => out.value))
  return exit._tag === "Success" ? JSON.stringify(exit.value) : `fails: ${String(exit.cause)}`
}
const estimate = (provider: Target, request: Request.Request): number => (provider === "gemini" ? gemini : TokenEstimator.heuristic).estimateRequest(request, { provider }).total

/** Blocks some writer leaves out, and blocks every writer sends, of each kind. */
const blocks: ReadonlyArray<Block.Block> = [
  Block.providerData("openai-responses", { type: "reasoning", id: "rs_9", encrypted_content: T }),
  Block.providerData("openai-chat", { type: "text", text: T }),
  Block.providerData("anthropic", { type: "container_upload", file_id: "f" }),
  Block.providerData("gemini", { executableCode: { code: T } }),
  Block.thinking(T),
  Block.thinking(T, "sig"),
  Block.thinking(T, undefined, { itemId: "rs_1" }),
  Block.thinking("", undefined, { itemId: "rs_2", encryptedContent: T }),
  Block.thinking(T, undefined, { thoughtSignature: "s".repeat(200) }),
  Block.redactedThinking(T),
  Block.refusal(T),
  Block.text(T),
  Block.toolCall("ws_1", "web_search", { query: "x" }, { providerExecuted: true, itemId: "ws_1" }),
  Block.toolResult("c9", "lookup", T),
  Block.toolResult("c9", "lookup", T, false, { providerExecuted: true }),
  Block.file(Block.url("gs://bucket/a.pdf"), "application/pdf"),
  Block.file(Block.url("https://example.com/a.mp3"), "audio/mpeg"),
  Block.file(Block.fileId("file-1"), "image/png"),
  Block.file(Block.textSource(T), "text/plain")
]

const put = Arb.validConversation.pipe(
  Arbitrary.flatMap((x) =>
    Arbitrary.all([Arb.intBetween(0, Math.max(0, x.length - 1)), Arb.intBetween(0, blocks.length - 1), Arb.intBetween(0, 8)]).pipe(
      Arbitrary.map(([at, which, where]) => {
        const m = x[at]
        if (m === undefined || m.role === "tool" || m.role === "system") return undefined
        const block = blocks[which]!
        // a block of a kind the message holds (a user message: no thinking or calls)
        if (m.role === "user" && !(block._tag === "Text" || block._tag === "File" || block._tag === "ProviderData")) return undefined
        const content: Array<Block.Block> = [...m.content]
        content.splice(where % (content.length + 1), 0, block)
        const y = x.slice()
        const { role: _, content: __, ...rest } = m
        y[at] = m.role === "user"
          ? new Message.UserMessage({ ...rest, role: "user", content: content as ReadonlyArray<Block.UserBlock> })
          : new Message.AssistantMessage({ ...rest, role: "assistant", content: content as ReadonlyArray<Block.AssistantBlock> })
        return { without: x, with: y }
      })
    )
  )
)

describe("a block the writer leaves out changes no estimate", () => {
  it.prop("for every provider: the same body written, the same estimate", [put, Arbitrary.schema(Schema.Literals(["gpt-4o", "o3", "claude-sonnet-4-5", "gemini-3-pro-preview"]))], ([pair, model]) => {
    if (pair === undefined) return
    for (const provider of Object.keys(writers) as ReadonlyArray<Target>) {
      const before = Request.make(pair.without, { model })
      const after = Request.make(pair.with, { model })
      if (written(provider, before) !== written(provider, after)) continue
      expect(estimate(provider, after), provider).toBe(estimate(provider, before))
    }
  }, { arbitrary: { runs: 300 }, timeout: 120_000 })
})
