/**
 * Rules a ninth audit left open: the Anthropic writer and
 * `validateFor("anthropic")` tell one story for a message merged into the
 * one before it (its breakpoint on its own last block, its other options
 * reported), for the `$` keys of a message's options (the adapter's four
 * hints, nothing else, are left out), and for a file the writer leaves out
 * for how it is given (a URL it cannot fetch, a document by reference that
 * is not a PDF or text, an image given as text).
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"
import { cacheObjects, droppedBy, unsupported, withFiles as filesIn } from "./anthropicCases.js"

const pick = <const A extends ReadonlyArray<string>>(values: A): Arbitrary.Arbitrary<A[number]> => Arbitrary.schema(Schema.Literals(values))

/** A copy of a message with more Anthropic options. */
const withOptions = (m: Message.Message, anthropic: Record<string, Schema.Json>): Message.Message =>
  Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(m) as object) as Message.Message, m, {
    providerOptions: { ...m.providerOptions, anthropic: { ...m.providerOptions?.["anthropic"], ...anthropic } }
  }))

const ephemeral = { type: "ephemeral" } as const

/** The breakpoints validation counts in the messages: past 4 once 4 are said to be outside them. */
const counted = (messages: ReadonlyArray<Message.Message>): number => {
  const issue = Conversation.issuesFor("anthropic", messages, { cacheBreakpointsOutsideMessages: 4 }).find((i) => i._tag === "TooManyCacheBreakpoints")
  return issue?._tag === "TooManyCacheBreakpoints" ? issue.count - 4 : 0
}

/** Any messages, agent loops and valid conversations. */
const conversations: Arbitrary.Arbitrary<ReadonlyArray<Message.Message>> = Arb.intBetween(0, 2).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<ReadonlyArray<Message.Message>> =>
    k === 0 ? Arbitrary.array(Arb.message, { maxLength: 6 }) : k === 1 ? Arb.agentConversation : Arb.validConversation
  )
)

// ---------------------------------------------------------------------------
// 1. A message merged into the one before it
// ---------------------------------------------------------------------------

describe("Anthropic: a message merged into the one before it keeps its breakpoint and says what it leaves out", () => {
  it("writes a merged message's breakpoint on its own last block, said, and validation counts it", () => {
    const messages = [Message.user("Read the report"), withOptions(Message.user([Block.text("# Report"), Block.text("Page 2")]), { cache_control: ephemeral })]
    const { value, warnings } = Effect.runSync(Anthropic.toMessages(messages))
    assert.deepStrictEqual(value.messages as unknown, [
      { role: "user", content: [{ type: "text", text: "Read the report" }, { type: "text", text: "# Report" }, { type: "text", text: "Page 2", cache_control: ephemeral }] }
    ])
    assert.isTrue(warnings.some((w) => w._tag === "ConvertedContent" && w.index === 1 && w.message.includes("cache_control")))
    assert.strictEqual(counted(messages), 1)
  })

  it("leaves a merged message's other options out, said, and validation reports no field for them", () => {
    const messages = [Message.user("Hello"), withOptions(Message.user("again"), { metadata: { user_id: "u" } })]
    const { value, warnings } = Effect.runSync(Anthropic.toMessages(messages))
    assert.notInclude(JSON.stringify(value.messages), "metadata")
    assert.isTrue(warnings.some((w) => w._tag === "DroppedContent" && w.index === 1 && w.message.includes("metadata")))
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages).filter((i) => i._tag === "UnknownMessageField"), [])
  })

  it("a message after one left out: each breakpoint on its own message's last block, its other options said", () => {
    const messages = [
      withOptions(Message.user("First"), { cache_control: ephemeral }),
      Message.assistant([Block.thinking("no signature")]),
      withOptions(Message.user("Second"), { cache_control: ephemeral, metadata: { user_id: "u" } })
    ]
    const { value, warnings } = Effect.runSync(Anthropic.toMessages(messages))
    assert.deepStrictEqual(value.messages as unknown, [
      { role: "user", content: [{ type: "text", text: "First", cache_control: ephemeral }, { type: "text", text: "Second", cache_control: ephemeral }] }
    ])
    assert.isTrue(warnings.some((w) => w._tag === "ConvertedContent" && w.index === 0 && w.message.includes("cache_control")))
    assert.isTrue(warnings.some((w) => w._tag === "DroppedContent" && w.index === 2 && w.message.includes("metadata")))
    assert.strictEqual(counted(messages), 2)
  })

  it.prop(
    "the breakpoints written are the ones counted, and every option of a message is written or said",
    [conversations, Arbitrary.array(pick(["", "", "cache", "null", "metadata", "both", "$separateMessage"]), { minLength: 1, maxLength: 8 })],
    ([messages, keys]) => {
      const input = messages.map((m, i) => {
        const k = keys[i % keys.length]!
        switch (k) {
          case "":
            return m
          case "cache":
            return withOptions(m, { cache_control: ephemeral })
          case "null":
            return withOptions(m, { cache_control: null })
          case "metadata":
            return withOptions(m, { metadata: { user_id: `u${i}` } })
          case "both":
            return withOptions(m, { cache_control: ephemeral, metadata: { user_id: `u${i}` } })
          case "$separateMessage":
            return withOptions(m, { $separateMessage: true })
        }
      })
      const { value, warnings } = Effect.runSync(Anthropic.toMessages(input))
      assert.strictEqual(counted(input), cacheObjects(value))
      const written = JSON.stringify(value.messages)
      input.forEach((m, i) => {
        if (m.role === "system") return
        const options = m.providerOptions?.["anthropic"] ?? {}
        const said = (name: string): boolean =>
          warnings.some((w) => "index" in w && w.index === i && (w.message.includes(name) || (w._tag === "DroppedContent" && w.blockIndex === undefined && w.message.includes(" message was left out"))))
        // a breakpoint is always said: where it went, or why it was left out
        if ("cache_control" in options) assert.isTrue(said("cache_control"), `message ${i}: cache_control`)
        if ("metadata" in options) assert.isTrue(written.includes(`"user_id":"u${i}"`) || said("metadata"), `message ${i}: metadata`)
      })
    },
    { arbitrary: { runs: 400 }, timeout: 120_000 }
  )
})

// ---------------------------------------------------------------------------
// 2. `$` keys: the adapter's hints, and nothing else, are not written
// ---------------------------------------------------------------------------

/** The names of the fields of the written messages besides role and content, sorted. */
const writtenFields = (messages: ReadonlyArray<object>): Array<string> =>
  messages.flatMap((m) => Object.keys(m).filter((k) => k !== "role" && k !== "content")).sort()

const reportedFields = (messages: ReadonlyArray<Message.Message>): Array<string> =>
  Conversation.issuesFor("anthropic", messages).flatMap((i) => (i._tag === "UnknownMessageField" ? [i.field] : [])).sort()

describe("Anthropic: a message's `$` keys are hints only when the adapter knows them", () => {
  it("reports an unknown $ key, which the writer writes, and not its hints", () => {
    const messages = [withOptions(Message.user("Hello"), { $trace: "t1", $separateMessage: true })]
    assert.deepStrictEqual(writtenFields(Effect.runSync(Anthropic.toMessages(messages)).value.messages), ["$trace"])
    assert.deepStrictEqual(reportedFields(messages), ["$trace"])
  })

  it.effect("repairFor removes an unknown $ key and keeps the hints", () =>
    Effect.gen(function*() {
      const messages = [withOptions(Message.user("Hello"), { $trace: "t1", $separateMessage: true })]
      const { actions, messages: repaired } = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(actions.map((a) => (a._tag === "RemovedMessageField" ? a.field : a._tag)), ["$trace"])
      assert.deepStrictEqual(repaired[0]?.providerOptions?.["anthropic"], { $separateMessage: true })
    }))

  it.prop(
    "an option key is reported as a field exactly when it is written as one",
    [conversations, Arbitrary.array(pick(["", "$x", "$$y", "$separateMessage", "$noName", "$messagePart", "$outputFormatField", "$"]), { minLength: 1, maxLength: 8 })],
    ([messages, keys]) => {
      const input = messages.map((m, i) => {
        const k = keys[i % keys.length]!
        return k === "" ? m : withOptions(m, { [k]: k === "$messagePart" ? 0 : k === "$separateMessage" ? true : "v" })
      })
      const written = Effect.runSync(Anthropic.toMessages(input)).value.messages
      assert.deepStrictEqual(reportedFields(input), writtenFields(written))
    },
    { arbitrary: { runs: 300 }, timeout: 120_000 }
  )
})

// ---------------------------------------------------------------------------
// 3. Files left out for how they are given
// ---------------------------------------------------------------------------

const PDF = Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64")
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).toString("base64")

const SOURCES = {
  https: Block.url("https://example.com/file"),
  gs: Block.url("gs://bucket/file"),
  file: Block.url("file:///tmp/file"),
  relative: Block.url("files/report"),
  data: Block.url(`data:image/png;base64,${PNG}`),
  wavData: Block.url(`data:audio/wav;base64,${PNG}`),
  plainData: Block.url("data:text/plain,hello"),
  fileId: Block.fileId("file_011CNha8iCJcU1wXNR6q4V8w"),
  text: Block.textSource("Some text"),
  pdf: Block.base64(PDF),
  png: Block.base64(PNG)
} as const

const slot = Arbitrary.all({
  mediaType: pick(["image/png", "image/heic", "application/pdf", "text/plain", "text/csv", "application/octet-stream", "application/zip", "audio/wav", "video/mp4"]),
  source: pick(Object.keys(SOURCES) as unknown as readonly ["https"]),
  inResult: Arb.bool
})

/** One file per user message or tool result, given as `source` says. */
const withFiles = (slots: ReadonlyArray<{ readonly mediaType: string; readonly source: keyof typeof SOURCES; readonly inResult: boolean }>): Array<Message.Message> =>
  filesIn(slots.map((s) => ({ file: Block.file(SOURCES[s.source], s.mediaType), inResult: s.inResult })))

describe("Anthropic: UnsupportedMediaType is every file the writer leaves out, however it is given", () => {
  it("reports a URL it cannot fetch, a document by reference that is not a PDF or text, an image given as text", () => {
    const messages = withFiles([
      { mediaType: "image/png", source: "gs", inResult: false },
      { mediaType: "application/pdf", source: "plainData", inResult: true },
      { mediaType: "application/zip", source: "https", inResult: false },
      { mediaType: "audio/wav", source: "fileId", inResult: false },
      { mediaType: "image/png", source: "text", inResult: true },
      { mediaType: "application/pdf", source: "https", inResult: false }
    ])
    const issues = Conversation.issuesFor("anthropic", messages).flatMap((i) => (i._tag === "UnsupportedMediaType" ? [i] : []))
    assert.deepStrictEqual(issues.map((i) => [i.index, i.source, i.url]), [
      [2, "url", "gs://bucket/file"],
      [4, "url", "data:text/plain,hello"],
      [6, "url", undefined],
      [8, "fileId", undefined],
      [10, "text", undefined]
    ])
    assert.strictEqual(issues[0]!.message, "messages[2]: content[1]: anthropic does not take image/png images at \"gs://bucket/file\" (it fetches http and https URLs only, and reads base64 data: URLs; it takes image/jpeg, image/png, image/gif, image/webp)")
    assert.strictEqual(issues[2]!.message, "messages[6]: content[1]: anthropic does not take application/zip files by URL (by reference it takes application/pdf, text/*, application/octet-stream)")
    assert.strictEqual(issues[4]!.message, "messages[10]: content[0].content[1]: anthropic does not take image/png images given as text (it takes an image as data, by URL or by file id: image/jpeg, image/png, image/gif, image/webp)")
  })

  it("says what the writer takes as data: a PDF, and text/* as UTF-8 text", () => {
    const [issue] = Conversation.issuesFor("anthropic", [Message.user([Block.text("Listen"), Block.file(Block.base64(PNG), "audio/wav")])])
    assert.strictEqual(issue?.message, "messages[0]: content[1]: anthropic does not take audio/wav files (it takes application/pdf, text/* as UTF-8 text)")
  })

  it.prop(
    "validation reports a file exactly when the writer leaves it out, said",
    [Arbitrary.array(slot, { minLength: 1, maxLength: 6 })],
    ([slots]) => {
      const messages = withFiles(slots)
      assert.deepStrictEqual(unsupported(messages), droppedBy(messages))
    },
    { arbitrary: { runs: 300 }, timeout: 120_000 }
  )
})
