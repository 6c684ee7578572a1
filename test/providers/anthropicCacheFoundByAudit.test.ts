/**
 * Anthropic cache breakpoints an audit found misplaced: a `cache_control` on
 * thinking, which Anthropic rejects ("messages.1.content.0.thinking.cache_control:
 * Extra inputs are not permitted"), and a message's breakpoint written on the
 * block of the message merged after it (the question that changes every turn
 * instead of the document before it, so the cache is never read). The writer
 * puts a message's breakpoint on that message's own last block that takes
 * one, and `validateFor("anthropic")` counts it there.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, type Schema } from "effect"
import { Block, Conversation, Message } from "../../src/index.js"
import { Anthropic } from "../../src/providers/index.js"
import * as Arb from "../arbitraries.js"
import { cacheObjects } from "../anthropicCases.js"

const ephemeral = { type: "ephemeral" } as const
const cc = { providerOptions: { anthropic: { cache_control: ephemeral } } }
const half = "\ud83d"

const written = (messages: ReadonlyArray<Message.Message>) => Effect.runSync(Anthropic.toMessages(messages))

/** Where validation counts the breakpoints of the messages (`[index, blockIndex]`), once 5 are said to be outside them. */
const placesCounted = (messages: ReadonlyArray<Message.Message>): Array<[number, number | undefined]> => {
  const issue = Conversation.issuesFor("anthropic", messages, { cacheBreakpointsOutsideMessages: 5 }).find((i) => i._tag === "TooManyCacheBreakpoints")
  return issue?._tag === "TooManyCacheBreakpoints" ? issue.breakpoints.map((p) => [p.index, p.blockIndex]) : []
}

/** The warnings about a cache_control, as `[tag, index, blockIndex]`. */
const cacheWarnings = (warnings: ReadonlyArray<{ readonly _tag: string; readonly message: string }>): Array<[string, number | undefined, number | undefined]> =>
  warnings.filter((w) => w.message.includes("cache_control")).map((w) => [
    w._tag,
    "index" in w ? (w.index as number | undefined) : undefined,
    "blockIndex" in w ? (w.blockIndex as number | undefined) : undefined
  ])

describe("Anthropic: no cache_control on thinking", () => {
  it("a thinking block's own cache_control is not sent, said, and not counted", () => {
    const messages = [Message.user("q"), Message.assistant([Block.thinking("t", "sig", cc), Block.text("a")]), Message.user("more")]
    const { value, warnings } = written(messages)
    assert.deepStrictEqual(value.messages[1] as unknown, {
      role: "assistant",
      content: [{ type: "thinking", thinking: "t", signature: "sig" }, { type: "text", text: "a" }]
    })
    assert.deepStrictEqual(cacheWarnings(warnings), [["DroppedContent", 1, 0]])
    assert.include(warnings[0]!.message, "Anthropic takes no cache_control on thinking blocks")
    assert.deepStrictEqual(placesCounted(messages), [])
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages, { cacheBreakpointsOutsideMessages: 4 }), [])
  })

  it("nor thinking kept as Anthropic provider data", () => {
    const messages = [
      Message.user("q"),
      Message.assistant([Block.providerData("anthropic", { type: "thinking", thinking: "x", signature: "s", cache_control: ephemeral }), Block.text("a")]),
      Message.user("more")
    ]
    const { value, warnings } = written(messages)
    assert.deepStrictEqual(value.messages[1] as unknown, {
      role: "assistant",
      content: [{ type: "thinking", thinking: "x", signature: "s" }, { type: "text", text: "a" }]
    })
    assert.deepStrictEqual(cacheWarnings(warnings), [["DroppedContent", 1, 0]])
    assert.deepStrictEqual(placesCounted(messages), [])
  })

  it("a redacted thinking block's own cache_control is not sent either", () => {
    const messages = [Message.user("q"), Message.assistant([Block.redactedThinking("xyz", cc), Block.text("a")]), Message.user("more")]
    const { value, warnings } = written(messages)
    assert.strictEqual(cacheObjects(value), 0)
    assert.deepStrictEqual(cacheWarnings(warnings), [["DroppedContent", 1, 0]])
    assert.deepStrictEqual(placesCounted(messages), [])
  })

  it("a message's breakpoint passes over thinking to its last block that takes one, said there", () => {
    const messages = [Message.user("q"), Message.assistant([Block.text("a"), Block.redactedThinking("xyz")], cc), Message.user("more")]
    const { value, warnings } = written(messages)
    assert.deepStrictEqual(value.messages[1] as unknown, {
      role: "assistant",
      content: [{ type: "text", text: "a", cache_control: ephemeral }, { type: "redacted_thinking", data: "xyz" }]
    })
    assert.deepStrictEqual(cacheWarnings(warnings), [["ConvertedContent", 1, 0]])
    assert.include(warnings[0]!.message, "on its last block that is not thinking")
    assert.deepStrictEqual(placesCounted(messages), [[1, 0]])
  })

  it("an assistant message merged into the one before and ending in thinking: its breakpoint on its own text", () => {
    const messages = [
      Message.user("q"),
      Message.assistant([Block.text("a")]),
      Message.assistant([Block.text("b"), Block.thinking("t", "sig")], cc),
      Message.user("more")
    ]
    const { value } = written(messages)
    assert.deepStrictEqual(value.messages[1] as unknown, {
      role: "assistant",
      content: [{ type: "text", text: "a" }, { type: "text", text: "b", cache_control: ephemeral }, { type: "thinking", thinking: "t", signature: "sig" }]
    })
    assert.deepStrictEqual(placesCounted(messages), [[2, 0]])
  })

  it("a message of thinking only: its breakpoint is left out, said, and not put on the message before it", () => {
    const messages = [Message.user("q"), Message.assistant([Block.text("a")]), Message.assistant([Block.thinking("t", "sig")], cc), Message.user("more")]
    const { value, warnings } = written(messages)
    assert.strictEqual(cacheObjects(value), 0)
    assert.deepStrictEqual(cacheWarnings(warnings), [["DroppedContent", 2, undefined]])
    assert.include(warnings.find((w) => w.message.includes("cache_control"))!.message, "its blocks are all thinking")
    assert.deepStrictEqual(placesCounted(messages), [])
  })

  it("a last block that takes one with a cache_control of its own stands for the message's, which is said left out", () => {
    const messages = [Message.user("q"), Message.assistant([Block.text("a", cc), Block.thinking("t", "sig")], cc), Message.user("more")]
    const { value, warnings } = written(messages)
    assert.strictEqual(cacheObjects(value), 1)
    assert.deepStrictEqual(cacheWarnings(warnings), [["DroppedContent", 1, undefined]])
    assert.deepStrictEqual(placesCounted(messages), [[1, 0]])
  })

  it("a lone surrogate in a thinking block's cache_control is not sent, so not reported", () => {
    const messages = [
      Message.user("q"),
      Message.assistant([Block.thinking("t", "sig", { providerOptions: { anthropic: { cache_control: { type: "ephemeral", note: half } } } }), Block.text("a")]),
      Message.user("more")
    ]
    assert.notInclude(JSON.stringify(written(messages).value), "note")
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages), [])
  })
})

describe("Anthropic: a message's breakpoint stays on its own blocks when the next message is merged into its message", () => {
  it("a document's breakpoint stays on the document, not on the question merged after it", () => {
    const messages = [Message.user([Block.text("<big document>")], cc), Message.user("Question that changes every turn")]
    const { value, warnings } = written(messages)
    assert.deepStrictEqual(value.messages as unknown, [
      { role: "user", content: [{ type: "text", text: "<big document>", cache_control: ephemeral }, { type: "text", text: "Question that changes every turn" }] }
    ])
    assert.deepStrictEqual(cacheWarnings(warnings), [["ConvertedContent", 0, 0]])
    assert.include(warnings[0]!.message, "on its last block")
    assert.deepStrictEqual(placesCounted(messages), [[0, 0]])
  })

  it("a tool message's breakpoint stays on its result, not on the reminder after it", () => {
    const messages = [
      Message.user("Read a.md"),
      Message.assistant([Block.toolCall("toolu_1", "read_file", { path: "a.md" })]),
      Message.tool([Block.toolResult("toolu_1", "read_file", "# Report")], cc),
      Message.user("Reminder: be brief")
    ]
    const { value, warnings } = written(messages)
    assert.deepStrictEqual(value.messages[2] as unknown, {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "# Report", cache_control: ephemeral }, { type: "text", text: "Reminder: be brief" }]
    })
    assert.deepStrictEqual(cacheWarnings(warnings), [["ConvertedContent", 2, 0]])
    assert.deepStrictEqual(placesCounted(messages), [[2, 0]])
  })

  it("across a message left out: the breakpoint stays on the first message's block, said where it went", () => {
    const messages = [Message.user("First", cc), Message.assistant([Block.providerData("gemini", { thoughtSignature: "c2ln" })]), Message.user("Second")]
    const { value, warnings } = written(messages)
    assert.deepStrictEqual(value.messages as unknown, [
      { role: "user", content: [{ type: "text", text: "First", cache_control: ephemeral }, { type: "text", text: "Second" }] }
    ])
    assert.deepStrictEqual(cacheWarnings(warnings), [["ConvertedContent", 0, 0]])
    assert.deepStrictEqual(placesCounted(messages), [[0, 0]])
  })

  it("a message that writes no block: its breakpoint is said left out, not put on the next message's", () => {
    const messages = [Message.user([], cc), Message.user("Next")]
    const { value, warnings } = written(messages)
    assert.strictEqual(cacheObjects(value), 0)
    assert.deepStrictEqual(cacheWarnings(warnings), [["DroppedContent", 0, undefined]])
    assert.deepStrictEqual(placesCounted(messages), [])
  })

  it("a lone surrogate in the breakpoint of a message whose message another is merged into is reported at that message", () => {
    const messages = [Message.user("Document", { providerOptions: { anthropic: { cache_control: { type: "ephemeral", note: half } } } }), Message.user("Question")]
    const issues = Conversation.issuesFor("anthropic", messages)
    assert.deepStrictEqual(issues.map((i) => [i._tag, "index" in i ? i.index : undefined]), [["LoneSurrogate", 0]])
  })
})

// ---------------------------------------------------------------------------
// the writer and validation put every breakpoint in one place
// ---------------------------------------------------------------------------

/** The Anthropic option that names a block's place (`"i.b"`), which the writer writes on the block as a field. */
const AT = "x_at"

/** A copy of a block or message with more Anthropic options (into the data of Anthropic provider data, which is written as it is). */
const withAnthropic = <A extends object>(value: A, anthropic: Record<string, Schema.Json>): A => {
  const copy = Object.create(Object.getPrototypeOf(value) as object) as A
  if (value instanceof Block.ProviderDataBlock) {
    return Object.freeze(Object.assign(copy, value, value.provider === "anthropic" ? { data: { ...value.data, ...anthropic } } : {}))
  }
  const options = ((value as { readonly providerOptions?: unknown }).providerOptions ?? {}) as Record<string, Record<string, unknown>>
  return Object.freeze(Object.assign(copy, value, { providerOptions: { ...options, anthropic: { ...options["anthropic"], ...anthropic } } }))
}

/**
 * The conversation with every block named by its place (`AT`), and the blocks, the tool results' parts and the
 * messages marked as `marks` says, in order (0: none; 1: a breakpoint, naming the message it was set on, `m<i>`, or
 * `b` for a block's; 2: an explicit null).
 */
const marked = (messages: ReadonlyArray<Message.Message>, marks: ReadonlyArray<number>): Array<Message.Message> => {
  let n = 0
  const cacheFor = (from: string): Record<string, Schema.Json> => {
    const k = marks[n++ % marks.length] ?? 0
    return k === 0 ? {} : { cache_control: k === 1 ? { type: "ephemeral", from } : null }
  }
  return messages.map((m, i) => {
    const content = (m.content as ReadonlyArray<Block.Block>).map((block, b): Block.Block => {
      if (block._tag === "Json") return block
      let out = block
      if (block._tag === "ToolResult" && typeof block.content !== "string") {
        const parts = block.content.map((part) => (part._tag === "Json" ? part : withAnthropic(part, cacheFor("b"))))
        out = Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(block) as object) as Block.ToolResultBlock, block, { content: parts }))
      }
      return withAnthropic(out, { ...cacheFor("b"), [AT]: `${i}.${b}` })
    })
    const copy = Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(m) as object) as Message.Message, m, { content }))
    return withAnthropic(copy, cacheFor(`m${i}`))
  })
}

/** Whether a written value is a breakpoint: a `cache_control` object. */
const isBreakpoint = (value: unknown): value is { readonly from?: unknown } => typeof value === "object" && value !== null

/** The place (`AT`) of each breakpoint the writer wrote, by the top-level block it is in (`?` for one written without its options: a refusal). */
const writtenPlaces = (blocks: ReadonlyArray<unknown>, messageOf: (from: string) => void): Array<string> => {
  const out: Array<string> = []
  for (const block of blocks) {
    if (typeof block !== "object" || block === null) continue
    const record = block as Record<string, unknown>
    const at = typeof record[AT] === "string" ? record[AT] : "?"
    for (let k = cacheObjects(block); k > 0; k--) out.push(at)
    const own = record["cache_control"]
    if (isBreakpoint(own) && typeof own.from === "string" && own.from.startsWith("m")) {
      messageOf(own.from)
      // a message's breakpoint goes on a block of that message
      if (at !== "?") assert.strictEqual(`m${at.split(".")[0]}`, own.from)
    }
    // Anthropic takes no cache_control on thinking
    if (record["type"] === "thinking" || record["type"] === "redacted_thinking") assert.notProperty(record, "cache_control")
  }
  return out
}

/** Any messages, agent loops (with thinking and tool results) and valid conversations. */
const conversations: Arbitrary.Arbitrary<ReadonlyArray<Message.Message>> = Arb.intBetween(0, 2).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<ReadonlyArray<Message.Message>> =>
    k === 0 ? Arbitrary.array(Arb.message, { maxLength: 6 }) : k === 1 ? Arb.agentConversation : Arb.validConversation
  )
)

describe("Anthropic: the breakpoints written are the ones validation counts, in the same places", () => {
  it.prop(
    "each breakpoint is counted at the block the writer writes it on, a message's on a block of its own, none on thinking",
    [conversations, Arbitrary.array(Arb.intBetween(0, 2), { minLength: 1, maxLength: 12 })],
    ([messages, marks]) => {
      const input = marked(messages, marks)
      const { value } = written(input)
      const messageBreakpoints: Array<string> = []
      const system = typeof value.system === "string" || value.system === undefined ? [] : value.system
      const places = [
        ...writtenPlaces(system, (from) => messageBreakpoints.push(from)),
        ...value.messages.flatMap((m) => (typeof m.content === "string" ? [] : writtenPlaces(m.content, (from) => messageBreakpoints.push(from))))
      ]
      const counted = placesCounted(input).map(([i, b]) => (input[i]!.content[b!]?._tag === "Refusal" ? "?" : `${i}.${b}`))
      assert.deepStrictEqual(places.sort(), counted.sort())
      // every message's breakpoint is written at most once
      assert.strictEqual(new Set(messageBreakpoints).size, messageBreakpoints.length)
    },
    { arbitrary: { runs: 400 }, timeout: 120_000 }
  )
})
