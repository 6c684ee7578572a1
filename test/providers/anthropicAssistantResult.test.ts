/**
 * A tool result in an assistant message that no provider ran (a client tool's, put there by hand) is left out by the
 * Anthropic writer and reported, as the other writers do; it used to be sent as a made-up server block
 * (`read_file_tool_result`), which the API rejects. Validation reads the message as the writer sends it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Conversation, Message } from "../../src/index.js"
import { Anthropic } from "../../src/providers/index.js"

describe("Anthropic: a client tool's result in an assistant message", () => {
  it("is left out and reported; a server tool's result stays", () => {
    const messages = [
      Message.user("hi"),
      Message.assistant([Block.text("x"), Block.toolResult("zzz", "read_file", "contents")]),
      Message.user("and?"),
      Message.assistant([
        Block.toolCall("srvtoolu_1", "web_search", { query: "q" }, { providerExecuted: true }),
        Block.toolResult("srvtoolu_1", "web_search", [], false, { providerExecuted: true })
      ])
    ]
    const written = Effect.runSync(Anthropic.toMessages(messages))
    expect(written.value.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "x" }] })
    expect((written.value.messages[3]!.content as ReadonlyArray<{ readonly type: string }>).map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result"])
    expect(written.warnings.map((w) => w.message)).toEqual([
      "messages[1].content[1]: the result of \"read_file\" in an assistant message was left out: one is sent there only as a server tool's, marked providerExecuted; a result of a tool the client ran goes in a tool message"
    ])
    expect(Conversation.issuesFor("anthropic", messages)).toEqual([])
  })

  it("a message of such a result alone is sent as nothing, and read so", () => {
    const messages = [Message.user("hi"), Message.assistant([Block.toolResult("zzz", "read_file", "contents")]), Message.assistant("ok")]
    const written = Effect.runSync(Anthropic.toMessages(messages))
    expect(written.value.messages.map((m) => m.role)).toEqual(["user", "assistant"])
    expect(Conversation.issuesFor("anthropic", messages)).toEqual([])
  })
})
