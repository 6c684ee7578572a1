/**
 * Rules a seventh audit left open: an OpenAI Responses hosted item (a web
 * search, a generated image) replayed with its id to a reasoning model
 * without the reasoning item it followed ("Item 'ws_…' of type
 * 'web_search_call' was provided without its required 'reasoning' item"),
 * Anthropic's lone surrogates read only where its writer sends them, and
 * Anthropic's cache breakpoints counted where its writer puts them.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { Block, Conversation, Message } from "../src/index.js"
import { Anthropic, OpenAiResponses } from "../src/providers/index.js"
import { hasLoneSurrogate } from "../src/internal/surrogates.js"
import * as Arb from "./arbitraries.js"
import { cacheObjects } from "./anthropicCases.js"

const gpt5 = { model: "gpt-5" } as const
const reasoning = (id: string) => Block.thinking("", undefined, { itemId: id, summary: ["Searching"], encryptedContent: "gAAAAB" })
const webSearch = (id: string) =>
  Block.toolCall(id, "web_search", { action: { type: "search", query: "weather Oslo" } }, {
    providerExecuted: true,
    itemId: id,
    providerOptions: { "openai-responses": { type: "web_search_call", status: "completed" } }
  })
const missing = (messages: ReadonlyArray<Message.Message>) =>
  Conversation.missingReasoningItems(messages, gpt5).map((issue) => [issue.index, issue.blockIndex, issue.itemType, issue.itemId])

// ---------------------------------------------------------------------------
// 1. Responses: hosted items sent with their ids need their reasoning item
// ---------------------------------------------------------------------------

describe("MissingReasoningItem for hosted items", () => {
  it("reports a web search call sent with its id and no reasoning item before it", () => {
    const history = [Message.user("Weather in Oslo?"), Message.assistant([webSearch("ws_1"), Block.text("12°C.")]), Message.user("Thanks")]
    assert.deepStrictEqual(missing(history), [[1, 0, "web_search_call", "ws_1"]])
    const [issue] = Conversation.issuesFor("openai-responses", history, gpt5)
    assert.strictEqual(issue?._tag, "MissingReasoningItem")
    assert.include(issue?.message ?? "", "Item 'ws_1' of type 'web_search_call' was provided without its required 'reasoning' item")
    // the reasoning item before it, the model that does not reason and store: false each clear it
    const reasoned = [history[0]!, Message.assistant([reasoning("rs_1"), webSearch("ws_1"), Block.text("12°C.")]), history[2]!]
    assert.deepStrictEqual(missing(reasoned), [])
    assert.deepStrictEqual(Conversation.missingReasoningItems(history, { model: "gpt-4.1" }), [])
    assert.deepStrictEqual(Conversation.missingReasoningItems(history, { ...gpt5, store: false }), [])
  })

  it("reports a web search call and a generated image kept as provider data", () => {
    const history = [
      Message.user("Search, then draw it"),
      Message.assistant([
        Block.providerData("openai-responses", { type: "web_search_call", id: "ws_2", status: "completed", action: { type: "search", query: "fjord" } }),
        Block.providerData("openai-responses", { type: "image_generation_call", id: "ig_2", status: "completed", result: "iVBORw0KGgo=" })
      ]),
      Message.user("Nice")
    ]
    assert.deepStrictEqual(missing(history), [[1, 0, "web_search_call", "ws_2"], [1, 1, "image_generation_call", "ig_2"]])
  })

  it("reports a generated image kept as a file with its image_generation_call id", () => {
    const image = Block.file({ _tag: "Base64", data: "iVBORw0KGgo=" }, "image/png", {
      itemId: "ig_3",
      providerOptions: { "openai-responses": { type: "image_generation_call", status: "completed" } }
    })
    const history = [Message.user("Draw a fjord"), Message.assistant([image]), Message.user("Nice")]
    assert.deepStrictEqual(missing(history), [[1, 0, "image_generation_call", "ig_3"]])
    // it is what the adapter sends: an image_generation_call with that id
    const { value } = Effect.runSync(OpenAiResponses.toMessages(history))
    assert.isTrue(value.some((item) => "type" in item && item.type === "image_generation_call" && "id" in item && item.id === "ig_3"))
  })

  // recorded data from ../shared (see /work/shared/data/transcripts/README.md); a fresh clone has none
  const recording = new URL("../../shared/data/transcripts/openai-responses--pydantic-ai--web-search-reasoning.json", import.meta.url)
  it.skipIf(!existsSync(recording))("reports the recorded web search turn replayed without its reasoning items", () => {
    const recorded = JSON.parse(readFileSync(recording, "utf8")) as {
      readonly body: { readonly input: ReadonlyArray<unknown> }
    }
    const { value } = Effect.runSync(OpenAiResponses.fromMessages(recorded.body.input as never))
    // as recorded (accepted), with its reasoning items: nothing
    assert.deepStrictEqual(missing(value), [])
    const stripped = value.map((m) => m.role === "assistant" ? Message.assistant(m.content.filter((b) => b._tag !== "Thinking")) : m)
    assert.deepStrictEqual(missing(stripped).map(([, , type]) => type), ["web_search_call", "message"])
  })
})

// ---------------------------------------------------------------------------
// 3. Anthropic: cache breakpoints counted where the writer puts them
// ---------------------------------------------------------------------------

const ephemeral = { type: "ephemeral" } as const

/** A copy of a block or message with Anthropic's `cache_control` in its options (`null`: an explicit none). */
const cached = <A extends object>(value: A, cache: typeof ephemeral | null): A => {
  const options = ((value as { readonly providerOptions?: unknown }).providerOptions ?? {}) as Record<string, Record<string, unknown>>
  return Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(value) as object) as A, value, {
    providerOptions: { ...options, anthropic: { ...options["anthropic"], cache_control: cache } }
  }))
}

/** Marks blocks, tool result parts and messages with a breakpoint as `marks` says, in order (0: none, 1: one, 2: an explicit null). */
const marked = (messages: ReadonlyArray<Message.Message>, marks: ReadonlyArray<number>): Array<Message.Message> => {
  let n = 0
  const mark = <A extends object>(value: A): A => {
    const m = marks[n++ % marks.length] ?? 0
    return m === 0 ? value : cached(value, m === 1 ? ephemeral : null)
  }
  return messages.map((m) => {
    const content = (m.content as ReadonlyArray<Block.Block>).map((block): Block.Block => {
      if (block._tag === "Json") return block
      if (block._tag !== "ToolResult" || typeof block.content === "string") return mark(block)
      const parts = block.content.map((part) => (part._tag === "Json" ? part : mark(part)))
      return mark(Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(block) as object) as Block.ToolResultBlock, block, { content: parts })))
    })
    return mark(Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(m) as object) as Message.Message, m, { content })))
  })
}

/** The breakpoints the rule counts in the messages: past 4 once 5 are said to be outside them. */
const counted = (messages: ReadonlyArray<Message.Message>): number => {
  const issue = Conversation.issuesFor("anthropic", messages, { cacheBreakpointsOutsideMessages: 5 }).find((i) => i._tag === "TooManyCacheBreakpoints")
  return issue?._tag === "TooManyCacheBreakpoints" ? issue.count - 5 : -1
}

/** Any messages, agent loops (with server tools) and valid conversations. */
const conversations: Arbitrary.Arbitrary<ReadonlyArray<Message.Message>> = Arb.intBetween(0, 2).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<ReadonlyArray<Message.Message>> =>
    k === 0 ? Arbitrary.array(Arb.message, { maxLength: 6 }) : k === 1 ? Arb.agentConversation : Arb.validConversation
  )
)

describe("TooManyCacheBreakpoints counts what the writer writes", () => {
  it("counts a breakpoint set on a user, assistant or tool message", () => {
    const messages = [
      cached(Message.user("Read the report"), ephemeral),
      cached(Message.assistant([Block.toolCall("call_1", "read_file", { path: "a.md" })]), ephemeral),
      cached(Message.toolResultMessage("call_1", "read_file", "# Report"), ephemeral),
      cached(Message.assistant([Block.text("Done.")]), ephemeral),
      cached(Message.user("Thanks"), ephemeral)
    ]
    const written = Effect.runSync(Anthropic.toMessages(messages)).value
    assert.strictEqual(counted(messages), cacheObjects(written))
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages).map((i) => i._tag), ["TooManyCacheBreakpoints"])
  })

  it.prop(
    "the count equals the cache_control objects in the written request",
    [conversations, Arbitrary.array(Arb.intBetween(0, 2), { minLength: 1, maxLength: 12 })],
    ([messages, marks]) => {
      const input = marked(messages, marks)
      const written = Effect.runSync(Anthropic.toMessages(input)).value
      assert.strictEqual(counted(input), cacheObjects(written))
      // an Anthropic message has no cache_control of its own ("messages.0.cache_control: Extra inputs are not permitted")
      for (const message of written.messages) assert.notProperty(message, "cache_control")
    },
    { arbitrary: { runs: 500 } }
  )
})

describe("Anthropic writer: a breakpoint set on a whole message goes on its last block", () => {
  it("a user, tool and assistant message's cache_control is written on the message's last block, said", () => {
    const messages = [
      cached(Message.user("Read the report"), ephemeral),
      cached(Message.assistant([Block.text("Reading."), Block.toolCall("call_1", "read_file", { path: "a.md" })]), ephemeral),
      cached(Message.toolResultMessage("call_1", "read_file", "# Report"), ephemeral)
    ]
    const { value, warnings } = Effect.runSync(Anthropic.toMessages(messages))
    assert.deepStrictEqual(value.messages as unknown, [
      { role: "user", content: [{ type: "text", text: "Read the report", cache_control: ephemeral }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading." },
          { type: "tool_use", id: "call_1", name: "read_file", input: { path: "a.md" }, cache_control: ephemeral }
        ]
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "# Report", cache_control: ephemeral }] }
    ])
    assert.deepStrictEqual(warnings.map((w) => [w._tag, "index" in w ? w.index : undefined]), [["ConvertedContent", 0], ["ConvertedContent", 1], ["ConvertedContent", 2]])
    assert.include(warnings[0]!.message, "on its last block")
  })

  it("a last block with a cache_control of its own stands for the message's, which is left out, said, and not counted", () => {
    const messages = Array.from({ length: 3 }, (_, i) =>
      cached(Message.user([cached(Block.text(`part ${i}`), ephemeral)]), ephemeral)
    ).flatMap((m, i) => [m, Message.assistant(`ok ${i}`)])
    const { value, warnings } = Effect.runSync(Anthropic.toMessages(messages))
    assert.strictEqual(cacheObjects(value), 3)
    assert.deepStrictEqual(warnings.map((w) => w._tag), ["DroppedContent", "DroppedContent", "DroppedContent"])
    assert.strictEqual(counted(messages), 3)
    // 3 in the messages: with 1 outside them, 4 (taken); with 2, 5 (rejected)
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages, { cacheBreakpointsOutsideMessages: 1 }).map((i) => i._tag), [])
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages, { cacheBreakpointsOutsideMessages: 2 }).map((i) => i._tag), ["TooManyCacheBreakpoints"])
  })
})

// ---------------------------------------------------------------------------
// 2. Anthropic: a lone surrogate matters only where the writer sends it
// ---------------------------------------------------------------------------

const half = "\ud83d"

/** Whether a written value holds a lone surrogate in a string or an object key. */
const holdsLoneSurrogate = (value: unknown): boolean => {
  if (typeof value === "string") return hasLoneSurrogate(value)
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate)
  if (typeof value !== "object" || value === null) return false
  return Object.entries(value).some(([k, v]) => hasLoneSurrogate(k) || holdsLoneSurrogate(v))
}

/** A copy of `value` with half a character added to the strings `marks` picks, in order (its `_tag`s aside). */
const cutStrings = <A>(value: A, marks: ReadonlyArray<boolean>): A => {
  let n = 0
  const cut = (v: unknown, key: string | number): unknown => {
    if (typeof v === "string") return key !== "_tag" && key !== "role" && marks[n++ % marks.length] === true ? v + half : v
    if (Array.isArray(v)) return Object.freeze(v.map((x, k) => cut(x, k)))
    if (typeof v !== "object" || v === null) return v
    const out = Object.create(Object.getPrototypeOf(v) as object) as Record<string, unknown>
    for (const [k, x] of Object.entries(v)) out[k] = cut(x, k)
    return Object.freeze(out)
  }
  return cut(value, "") as A
}

describe("LoneSurrogate reads what the writer sends", () => {
  it("reports no lone surrogate in a field the Anthropic writer leaves out", () => {
    const messages = [
      Message.user("Weather in Oslo?"),
      Message.assistant([
        Block.thinking("Checking", "sig", { thoughtSignature: `Gemini${half}`, summary: [`cut ${half}`] }),
        Block.text("Looking it up", { providerOptions: { gemini: { note: `kept for Gemini ${half}` } }, itemId: `msg${half}` }),
        Block.toolCall("call_1", "weather", { city: "Oslo" }, { rawArgs: `{"city": "Oslo${half}"`, parseError: "cut" }),
        Block.text("")
      ]),
      Message.toolResultMessage("call_1", `weather${half}`, "12°C"),
      Message.user([Block.text("Thanks"), Block.providerData("gemini", { text: half })])
    ]
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages).filter((i) => i._tag === "LoneSurrogate"), [])
    // what it sends still counts
    const sent = [messages[0]!, Message.assistant([Block.thinking(`Checking ${half}`, "sig")]), Message.user("ok")]
    const [issue] = Conversation.issuesFor("anthropic", sent).filter((i) => i._tag === "LoneSurrogate")
    assert.deepStrictEqual(issue?._tag === "LoneSurrogate" ? [issue.index, issue.blockIndex, issue.path] : undefined, [1, 0, ["thinking"]])
  })

  it.prop(
    "LoneSurrogate is reported exactly when the written request holds a lone surrogate",
    [conversations, Arbitrary.array(Arb.bool, { minLength: 1, maxLength: 16 })],
    ([messages, marks]) => {
      // only the blocks' strings are cut here; the rule reads a message's options too (the fields of a message it
      // writes, a merged message's breakpoint on its own last block), which rulesFoundByAudit8 and 9 cut
      const input = messages.map((m) => Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(m) as object) as Message.Message, m, { content: cutStrings(m.content, marks) })))
      const written = Effect.runSync(Anthropic.toMessages(input)).value
      const reported = Conversation.issuesFor("anthropic", input).some((i) => i._tag === "LoneSurrogate")
      assert.strictEqual(reported, holdsLoneSurrogate(written.messages) || holdsLoneSurrogate(written.system))
    },
    { arbitrary: { runs: 500 } }
  )
})
