/**
 * An empty text in the system prompt, which Anthropic rejects as it does in messages: the writer left it out only
 * when it was the whole prompt, and sent it beside other blocks (or after an empty system message) without a word,
 * while validation called it `EmptyTextBlock`. It is now left out and reported wherever it stands.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Conversation, Message } from "../../src/index.js"
import { Anthropic } from "../../src/providers/index.js"

const write = (messages: ReadonlyArray<Message.Message>) => Effect.runSync(Anthropic.toMessages(messages))
const user = Message.user("a")

describe("Anthropic: an empty text in the system prompt", () => {
  it("is left out beside other blocks and after an empty system message, reported; a prompt of nothing else is no prompt", () => {
    const beside = write([Message.system([Block.text("s"), Block.text("")]), user])
    expect(beside.value.system).toBe("s")
    expect(beside.warnings.map((w) => w.message)).toEqual(["messages[0].content[1]: an empty text block was left out: Anthropic rejects empty text blocks"])
    const after = write([Message.system(""), Message.system("real"), user])
    expect(after.value.system).toBe("real")
    expect(after.warnings.map((w) => w.message)).toEqual(["messages[0].content[0]: an empty text block was left out: Anthropic rejects empty text blocks"])
    const alone = write([Message.system([Block.text(""), Block.text("")]), user])
    expect(alone.value.system).toBeUndefined()
    expect(alone.warnings.map((w) => w.message)).toEqual(["an empty system prompt was left out: Anthropic rejects empty text; no system prompt is the same"])
  })

  it("takes no cache breakpoint of its message, which goes on the message's last block written, where validation counts it", () => {
    const cached = Message.system([Block.text("rules"), Block.text("")], { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })
    const { value } = write([cached, user])
    expect(value.system).toEqual([{ type: "text", text: "rules", cache_control: { type: "ephemeral" } }])
    const many = [cached, Message.system([Block.text("x", { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })])]
    const issues = Conversation.issuesFor("anthropic", [...many, ...many, Message.user([Block.text("q", { providerOptions: { anthropic: { cache_control: { type: "ephemeral" } } } })])])
    const breakpoints = issues.find((issue) => issue._tag === "TooManyCacheBreakpoints")
    expect(breakpoints).toMatchObject({ count: 5, breakpoints: [0, 1, 2, 3, 4].map((index) => ({ index, blockIndex: 0 })) })
  })
})
