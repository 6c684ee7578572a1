/**
 * A block the writer leaves out changes no estimate: for every provider, a block put into a message of a valid
 * conversation either changes what the writer sends, or leaves the request estimate as it was. Two audits found a
 * dozen kinds of block the writers leave out and the estimates priced at their full size (another provider's data,
 * calls it ran, thinking a provider cannot replay...), each fixed with an example; this holds the rule itself.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { Block, Request } from "../src/index.js"
import { estimate, putRun, targets, written } from "./blocksPut.js"

const T = "The quick brown fox jumps over the lazy dog. ".repeat(20)
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

const put = putRun(blocks.map((block) => [block]))

describe("a block the writer leaves out changes no estimate", () => {
  it.prop("for every provider: the same body written, the same estimate", [put, Arbitrary.schema(Schema.Literals(["gpt-4o", "o3", "claude-sonnet-4-5", "gemini-3-pro-preview"]))], ([pair, model]) => {
    if (pair === undefined) return
    for (const provider of targets) {
      const before = Request.make(pair.without, { model })
      const after = Request.make(pair.with, { model })
      if (written(provider, before) !== written(provider, after)) continue
      expect(estimate(provider, after), provider).toBe(estimate(provider, before))
    }
  }, { arbitrary: { runs: 300 }, timeout: 120_000 })
})
