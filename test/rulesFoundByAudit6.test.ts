/**
 * Two documented 400s a sixth audit found no rule for: an OpenAI Responses
 * output item replayed with its item id to a reasoning model without the
 * reasoning item it was produced after ("Item 'fc_…' of type
 * 'function_call' was provided without its required 'reasoning' item"),
 * and an inline file in a media type the provider does not take (Anthropic's
 * "media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or
 * 'image/webp'", OpenAI's "You uploaded an unsupported image", Gemini's
 * "Unsupported MIME type: image/jpg"), with Anthropic's image whose bytes do
 * not match its type ("Image does not match the provided media type").
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair, Request, ValidationError } from "../src/index.js"
import type { Provider } from "../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"

const tags = (items: ReadonlyArray<{ readonly _tag: string }>): Array<string> => items.map((i) => i._tag)
const placed = (items: ReadonlyArray<ValidationError.Issue>): Array<[string, number | undefined, number | undefined]> =>
  items.map((i) => [i._tag, "index" in i ? i.index : undefined, "blockIndex" in i ? i.blockIndex : undefined])

// ---------------------------------------------------------------------------
// 1. OpenAI Responses: an output item sent with its id needs its reasoning item
// ---------------------------------------------------------------------------

const reasoning = (id: string) => Block.thinking("", undefined, { itemId: id, summary: ["Looking it up"], encryptedContent: "gAAAAB" })
const fc = (callId: string, itemId: string | undefined) => Block.toolCall(callId, "weather", { city: "Oslo" }, itemId === undefined ? {} : { itemId })
const msg = (text: string, itemId: string | undefined) => Block.text(text, itemId === undefined ? {} : { itemId })
const output = (callId: string) => Message.toolResultMessage(callId, "weather", "12°C")
const gpt5 = { model: "gpt-5" } as const

/** A stored agent history that kept the calls and answers with their ids, but not the reasoning items. */
const withoutReasoning = [
  Message.user("Weather in Oslo?"),
  Message.assistant([fc("call_1", "fc_1")]),
  output("call_1"),
  Message.assistant([msg("It is 12°C in Oslo.", "msg_1")])
]

describe("OpenAI Responses: MissingReasoningItem", () => {
  it("a reasoning model rejects a function call and a message sent with their ids without their reasoning items", () => {
    const issues = Conversation.issuesFor("openai-responses", withoutReasoning, gpt5)
    assert.deepStrictEqual(placed(issues), [["MissingReasoningItem", 1, 0], ["MissingReasoningItem", 3, 0]])
    const [call, message] = issues
    assert.strictEqual(call?._tag === "MissingReasoningItem" ? [call.itemId, call.itemType].join(" ") : undefined, "fc_1 function_call")
    assert.strictEqual(message?._tag === "MissingReasoningItem" ? [message.itemId, message.itemType].join(" ") : undefined, "msg_1 message")
    assert.include(call?.message ?? "", "Item 'fc_1' of type 'function_call' was provided without its required 'reasoning' item")
  })

  it.effect("validateFor fails with it, and the model read from a request says the same", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Conversation.validateFor("openai-responses", gpt5)(withoutReasoning))
      assert.strictEqual(error._tag, "MissingReasoningItem")
      const options = Conversation.profileOptionsOf(Request.make(withoutReasoning, { model: "o3" }))
      assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", withoutReasoning, options)), ["MissingReasoningItem", "MissingReasoningItem"])
    }))

  it("the models that reason are recognized, by default or by the request's effort; other models and no model are not checked", () => {
    for (const model of ["o1", "o3", "o3-mini", "o4-mini", "codex-mini-latest", "gpt-5", "gpt-5-mini", "gpt-5-codex", "gpt-5.1-codex", "gpt-5.2-codex", "openai/gpt-5"]) {
      assert.isTrue(Conversation.requiresReasoningItems({ model }), model)
    }
    for (const model of ["gpt-4.1", "gpt-4o", "gpt-5-chat-latest", "gpt-oss-120b", "my-azure-deployment", "claude-sonnet-4-5", "gpt-5.1", "gpt-5.4"]) {
      assert.isFalse(Conversation.requiresReasoningItems({ model }), model)
      assert.deepStrictEqual(Conversation.issuesFor("openai-responses", withoutReasoning, { model }), [], model)
    }
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", withoutReasoning), [])
    // GPT-5.1 and later reason when the request asks for it; "none" (or a model that cannot reason) asks for nothing
    const withEffort = (model: string, effort: string) =>
      Conversation.profileOptionsOf(Request.make(withoutReasoning, { model, providerOptions: { "openai-responses": { reasoning: { effort } } } }))
    assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", withoutReasoning, withEffort("gpt-5.5", "high"))), ["MissingReasoningItem", "MissingReasoningItem"])
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", withoutReasoning, withEffort("gpt-5.1", "none")), [])
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", withoutReasoning, withEffort("gpt-4.1", "high")), [])
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", withoutReasoning, { model: "gpt-5", reasoningItems: "optional" }), [])
    assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", withoutReasoning, { reasoningItems: "required" })), ["MissingReasoningItem", "MissingReasoningItem"])
    // with store: false the API keeps no items to look one up by
    const stateless = Conversation.profileOptionsOf(Request.make(withoutReasoning, { model: "gpt-5", providerOptions: { "openai-responses": { store: false } } }))
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", withoutReasoning, stateless), [])
    assert.deepStrictEqual(Conversation.missingReasoningItems(withoutReasoning, { ...gpt5, store: false }), [])
  })

  it("the history as the API produced it is accepted, and any reasoning item earlier in the turn will do", () => {
    const produced = [
      Message.user("Weather in Oslo?"),
      Message.assistant([reasoning("rs_1"), fc("call_1", "fc_1")]),
      output("call_1"),
      Message.assistant([reasoning("rs_2"), msg("It is 12°C in Oslo.", "msg_1")])
    ]
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", produced, gpt5), [])
    // rs_1, fc_1, output, fc_2, output: the reader starts a new assistant message at the second call
    const interleaved = [
      Message.user("Weather in Oslo and Bergen?"),
      Message.assistant([reasoning("rs_1"), fc("call_1", "fc_1")]),
      output("call_1"),
      Message.assistant([fc("call_2", "fc_2")]),
      output("call_2")
    ]
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", interleaved, gpt5), [])
    // a call before the turn's first reasoning item is reported
    const late = [Message.user("q"), Message.assistant([fc("call_1", "fc_1"), reasoning("rs_1"), fc("call_2", "fc_2")]), Message.tool([Block.toolResult("call_1", "weather", "1"), Block.toolResult("call_2", "weather", "2")])]
    assert.deepStrictEqual(placed(Conversation.issuesFor("openai-responses", late, gpt5)), [["MissingReasoningItem", 1, 0]])
  })

  it("the reasoning of an earlier turn does not count: the turn starts at the user's words", () => {
    const twoTurns = [
      Message.user("hi"),
      Message.assistant([reasoning("rs_1"), msg("Hello!", "msg_1")]),
      Message.user("Weather in Oslo?"),
      Message.assistant([fc("call_1", "fc_1")]),
      output("call_1")
    ]
    assert.deepStrictEqual(placed(Conversation.issuesFor("openai-responses", twoTurns, gpt5)), [["MissingReasoningItem", 3, 0]])
    // a continued stored response holds the reasoning of the turn it opens with
    const continued = [Message.assistant([msg("Anything else?", "msg_9")]), Message.user("No."), Message.assistant([msg("Bye.", "msg_10")])]
    assert.deepStrictEqual(placed(Conversation.issuesFor("openai-responses", continued, { ...gpt5, continues: true })), [["MissingReasoningItem", 2, 0]])
  })

  it("blocks sent without an id are not checked: none, an id the adapter leaves out, a hosted tool's call; a message item is reported once", () => {
    const plain = [Message.user("q"), Message.assistant([fc("call_1", undefined)]), output("call_1"), Message.assistant("Done.")]
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", plain, gpt5), [])
    // another server's ids: the adapter sends only fc… and msg… ids
    const foreign = [Message.user("q"), Message.assistant([fc("call_1", "item_1")]), output("call_1"), Message.assistant([msg("Done.", "item_2")])]
    assert.deepStrictEqual(Conversation.issuesFor("openai-responses", foreign, gpt5), [])
    // two parts of one message item: one item
    const parts = [Message.user("q"), Message.assistant([msg("Part one.", "msg_1"), Block.refusal("No more.", { itemId: "msg_1" }), msg("Another item.", "msg_2")])]
    assert.deepStrictEqual(placed(Conversation.issuesFor("openai-responses", parts, gpt5)), [["MissingReasoningItem", 1, 0], ["MissingReasoningItem", 1, 2]])
  })

  it.effect("repairFor removes the item ids, each kept in the log, and the written request then sends no id", () =>
    Effect.gen(function*() {
      const r = yield* Repair.repairFor("openai-responses", gpt5)(withoutReasoning)
      assert.deepStrictEqual(r.actions.map((a) => [a._tag, a.index, "original" in a ? a.original : undefined]), [["RemovedItemId", 1, "fc_1"], ["RemovedItemId", 3, "msg_1"]])
      assert.strictEqual(r.actions[0]?.description, 'messages[1].content[0]: removed the item id "fc_1": its reasoning item is not sent, and a reasoning model rejects an item with its id without it')
      yield* Conversation.validateFor("openai-responses", gpt5)(r.messages)
      // the blocks are otherwise as they were
      const call = r.messages[1]!.content[0]!
      assert.deepStrictEqual(call, fc("call_1", undefined))
      const { value: items } = yield* OpenAiResponses.toMessages(r.messages)
      const json = JSON.stringify(items)
      assert.notInclude(json, "fc_1")
      assert.notInclude(json, "msg_1")
      assert.include(json, '"call_id":"call_1"')
      // without a reasoning model, nothing to repair
      const plain = yield* Repair.repairFor("openai-responses")(withoutReasoning)
      assert.deepStrictEqual(plain.actions, [])
      assert.strictEqual(plain.messages, withoutReasoning)
    }))

  it.effect("repairFor removes the id from every part of a message item", () =>
    Effect.gen(function*() {
      const x = [Message.user("q"), Message.assistant([msg("Part one.", "msg_1"), Block.refusal("No more.", { itemId: "msg_1" })])]
      const r = yield* Repair.repairFor("openai-responses", gpt5)(x)
      assert.deepStrictEqual(r.actions.map((a) => [a._tag, a.index, "blockIndex" in a ? a.blockIndex : undefined]), [["RemovedItemId", 1, 0], ["RemovedItemId", 1, 1]])
      yield* Conversation.validateFor("openai-responses", gpt5)(r.messages)
    }))

  /** An agent history as a reasoning model produces it, every output with its item id, some reasoning items lost. */
  const reasoningHistory: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.array(
    Arbitrary.all({ steps: Arbitrary.array(Arbitrary.all({ calls: Arb.intBetween(0, 2), kept: Arb.bool, text: Arb.bool }), { minLength: 1, maxLength: 3 }) }),
    { minLength: 1, maxLength: 4 }
  ).pipe(
    Arbitrary.map((turns) => {
      const out: Array<Message.Message> = []
      let n = 0
      for (const { steps } of turns) {
        out.push(Message.user("Weather?"))
        for (let s = 0; s < steps.length; s++) {
          // a step without calls is the turn's answer: the last one
          const { kept, text } = steps[s]!
          const calls = s === steps.length - 1 ? steps[s]!.calls : Math.max(1, steps[s]!.calls)
          n++
          const blocks: Array<Block.AssistantBlock> = kept ? [reasoning(`rs_${n}`)] : []
          if (calls === 0 || text) blocks.push(msg("Checking.", `msg_${n}`))
          const ids = Array.from({ length: calls }, (_, k) => `call_${n}_${k}`)
          for (const id of ids) blocks.push(fc(id, `fc_${id}`))
          out.push(Message.assistant(blocks))
          if (ids.length > 0) out.push(Message.tool(ids.map((id) => Block.toolResult(id, "weather", "12°C"))))
        }
      }
      return out
    })
  )

  /** The output item ids of a history, in order. */
  const idsOf = (messages: ReadonlyArray<Message.Message>): Array<string> =>
    messages.flatMap((m) => m.content.flatMap((b) => ((b._tag === "ToolCall" || b._tag === "Text") && b.itemId !== undefined ? [b.itemId] : [])))

  /** The output item ids sent before any reasoning item of their turn: those a reasoning model rejects. */
  const unreasoned = (messages: ReadonlyArray<Message.Message>): Array<string> => {
    const out: Array<string> = []
    let reasoned = false
    for (const m of messages) {
      if (m.role === "user") reasoned = false
      if (m.role !== "assistant") continue
      for (const b of m.content) {
        if (b._tag === "Thinking") reasoned = true
        else if (!reasoned && (b._tag === "ToolCall" || b._tag === "Text") && b.itemId !== undefined) out.push(b.itemId)
      }
    }
    return out
  }

  it.effect.prop(
    "repairFor(x) for gpt-5 removes exactly the ids sent before any reasoning of their turn, logs each, and passes validateFor for gpt-5",
    [reasoningHistory],
    ([x]) =>
      Effect.gen(function*() {
        const r = yield* Repair.repairFor("openai-responses", gpt5)(x)
        yield* Conversation.validateFor("openai-responses", gpt5)(r.messages)
        const removed = idsOf(x).filter((id) => !idsOf(r.messages).includes(id))
        assert.deepStrictEqual(removed, unreasoned(x))
        assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", x, gpt5)), removed.map(() => "MissingReasoningItem"))
        assert.deepStrictEqual(r.actions.filter((a) => a._tag === "RemovedItemId").map((a) => a._tag === "RemovedItemId" && a.original), removed)
        const again = yield* Repair.repairFor("openai-responses", gpt5)(r.messages)
        assert.deepStrictEqual(again.actions, [])
      }),
    { arbitrary: { runs: 300 } }
  )
})

// ---------------------------------------------------------------------------
// 2. Media types a provider does not take
// ---------------------------------------------------------------------------

// the first bytes of real files, as base64
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"
const JPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/"
const HEIC = "AAAAGGZ0eXBoZWljAAAAAG1pZjE="
const BMP = "Qk02AAAAAAAAADYAAAAoAAAAAQAAAAEAAAABABgA"
const SVG = "PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4="
const DOCX = "UEsDBBQABgAIAAAAIQ=="
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEA"

const inline = (data: string, mediaType: string) => Block.file(Block.base64(data), mediaType)
const asking = (file: Block.FileBlock) => [Message.user([Block.text("What is this?"), file])]
const issuesOf = (provider: Provider.Provider, file: Block.FileBlock) =>
  Conversation.issuesFor(provider, asking(file)).filter((i) => i._tag === "UnsupportedMediaType" || i._tag === "MediaTypeMismatch")

describe("UnsupportedMediaType and MediaTypeMismatch", () => {
  it("Anthropic: an image whose type and bytes are neither JPEG, PNG, GIF nor WebP", () => {
    const [issue] = issuesOf("anthropic", inline(HEIC, "image/heic"))
    assert.strictEqual(issue?.message, "messages[0]: content[1]: anthropic does not take image/heic images (it takes image/jpeg, image/png, image/gif, image/webp)")
    assert.deepStrictEqual(tags(issuesOf("anthropic", inline(SVG, "image/svg+xml"))), ["UnsupportedMediaType"])
    assert.deepStrictEqual(tags(issuesOf("anthropic", inline(BMP, "image/bmp"))), ["UnsupportedMediaType"])
    // image/jpg is not a type Anthropic takes; its adapter sends a JPEG's bytes as image/jpeg, as the type it is not declared
    assert.deepStrictEqual(tags(issuesOf("anthropic", inline("AAAA", "image/jpg"))), ["UnsupportedMediaType"])
    assert.deepStrictEqual(tags(issuesOf("anthropic", inline(JPEG, "image/jpg"))), ["MediaTypeMismatch"])
    assert.deepStrictEqual(issuesOf("anthropic", inline(PNG, "IMAGE/PNG")), [])
  })

  it.effect("Anthropic: the adapter leaves such an image out (reported), and sends a JPEG labelled image/jpg as image/jpeg (reported)", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(tags(issuesOf("anthropic", inline(HEIC, "image/heic"))), ["UnsupportedMediaType"])
      const left = yield* Anthropic.toMessages(asking(inline(HEIC, "image/heic")))
      assert.notInclude(JSON.stringify(left.value), "image/heic")
      const sent = yield* Anthropic.toMessages(asking(inline(JPEG, "image/jpg")))
      assert.include(JSON.stringify(sent.value), '"media_type":"image/jpeg"')
      assert.deepStrictEqual(tags(sent.warnings), ["ConvertedContent"])
    }))

  it("Anthropic: a document given as data is PDF or text; other types are reported, audio and unknown data too (the writer leaves them out)", () => {
    assert.deepStrictEqual(tags(issuesOf("anthropic", inline(DOCX, "application/vnd.openxmlformats-officedocument.wordprocessingml.document"))), ["UnsupportedMediaType"])
    assert.include(issuesOf("anthropic", inline(DOCX, "application/msword"))[0]?.message ?? "", "(it takes application/pdf, text/* as UTF-8 text)")
    assert.deepStrictEqual(issuesOf("anthropic", inline("JVBERi0xLjQK", "application/pdf")), [])
    assert.deepStrictEqual(issuesOf("anthropic", inline("aGVsbG8=", "text/csv")), [])
    assert.deepStrictEqual(tags(issuesOf("anthropic", inline(WAV, "audio/wav"))), ["UnsupportedMediaType"])
    assert.deepStrictEqual(tags(issuesOf("anthropic", inline(DOCX, "application/octet-stream"))), ["UnsupportedMediaType"])
  })

  it("Anthropic: base64 image bytes of another format than the declared type (MediaTypeMismatch)", () => {
    const [issue] = issuesOf("anthropic", inline(JPEG, "image/png"))
    assert.strictEqual(issue?._tag, "MediaTypeMismatch")
    assert.include(issue?.message ?? "", "declared image/png but its bytes are image/jpeg")
    assert.deepStrictEqual(issuesOf("anthropic", inline(PNG, "image/png")), [])
    // bytes it cannot read are no mismatch
    assert.deepStrictEqual(issuesOf("anthropic", inline("AAAA", "image/png")), [])
    // the other providers read the bytes or are not recorded rejecting it
    for (const provider of ["openai-chat", "openai-responses", "gemini"] as const) assert.deepStrictEqual(issuesOf(provider, inline(JPEG, "image/png")), [], provider)
  })

  it("Anthropic: a file inside a tool result is named by its part", () => {
    const x = [
      Message.user("Screenshot?"),
      Message.assistant([Block.toolCall("c1", "screenshot")]),
      Message.tool([Block.toolResult("c1", "screenshot", [Block.text("Here."), inline(JPEG, "image/png")])])
    ]
    const issues = Conversation.issuesFor("anthropic", x)
    assert.deepStrictEqual(tags(issues), ["MediaTypeMismatch"])
    assert.strictEqual(issues[0]?._tag === "MediaTypeMismatch" ? issues[0].partIndex : undefined, 1)
    assert.match(issues[0]?.message ?? "", /^messages\[2\]: content\[0\]\.content\[1\]: /)
  })

  it.effect("OpenAI Chat and Responses: an image that is neither PNG, JPEG, GIF nor WebP, by type and by bytes, inline or as a data URL", () =>
    Effect.gen(function*() {
      for (const provider of ["openai-chat", "openai-responses"] as const) {
        const [issue] = issuesOf(provider, inline(HEIC, "image/heic"))
        assert.strictEqual(issue?.message, `messages[0]: content[1]: ${provider} does not take image/heic images (it takes image/png, image/jpeg, image/gif, image/webp)`)
        assert.deepStrictEqual(tags(issuesOf(provider, Block.image(`data:image/bmp;base64,${BMP}`))), ["UnsupportedMediaType"], provider)
        // OpenAI reads the format from the bytes
        assert.deepStrictEqual(issuesOf(provider, inline(JPEG, "image/jpg")), [], provider)
        assert.deepStrictEqual(issuesOf(provider, inline(PNG, "image/PNG")), [], provider)
        // by URL or file id: not checked
        assert.deepStrictEqual(issuesOf(provider, Block.image("https://example.com/photo.heic", { mediaType: "image/heic" })), [], provider)
        assert.deepStrictEqual(issuesOf(provider, Block.file(Block.fileId("file-1"), "image/heic")), [], provider)
        // an image of unknown type
        assert.deepStrictEqual(issuesOf(provider, inline("AAAA", "image/*")), [], provider)
      }
      // the request the Chat adapter writes is the one OpenAI rejects
      const { value } = yield* OpenAiChat.toMessages(asking(inline(HEIC, "image/heic")))
      assert.include(JSON.stringify(value), "data:image/heic;base64,")
    }))

  it("OpenAI Responses: an image in a function call output is checked; Chat tool messages hold no files", () => {
    const x = [
      Message.user("Screenshot?"),
      Message.assistant([Block.toolCall("c1", "screenshot")]),
      Message.tool([Block.toolResult("c1", "screenshot", [inline(HEIC, "image/heic")])]),
      Message.assistant("Done.")
    ]
    assert.deepStrictEqual(tags(Conversation.issuesFor("openai-responses", x)), ["UnsupportedMediaType"])
    assert.deepStrictEqual(Conversation.issuesFor("openai-chat", x), [])
  })

  it.effect("Gemini: an image type it does not document (image/jpg, SVG); GIF, BMP and TIFF, and other inline data, are not reported", () =>
    Effect.gen(function*() {
      const [issue] = issuesOf("gemini", inline(JPEG, "image/jpg"))
      assert.strictEqual(issue?.message, "messages[0]: content[1]: gemini does not take image/jpg images (it takes image/png, image/jpeg, image/webp, image/heic, image/heif)")
      assert.deepStrictEqual(tags(issuesOf("gemini", inline(SVG, "image/svg+xml"))), ["UnsupportedMediaType"])
      for (const mediaType of ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif", "image/gif", "image/bmp", "image/tiff"]) {
        assert.deepStrictEqual(issuesOf("gemini", inline(PNG, mediaType)), [], mediaType)
      }
      for (const mediaType of ["audio/wav", "video/mp4", "application/pdf", "text/plain"]) assert.deepStrictEqual(issuesOf("gemini", inline(WAV, mediaType)), [], mediaType)
      // Gemini judges the type as written
      const { value } = yield* Gemini.toMessages(asking(inline(JPEG, "image/jpg")))
      assert.include(JSON.stringify(value), '"mimeType":"image/jpg"')
    }))

  it.effect("repairFor leaves the file as it is and fails with CannotRepair saying why", () =>
    Effect.gen(function*() {
      for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini"] as const) {
        const error = yield* Effect.flip(Repair.repairFor(provider)(asking(inline(SVG, "image/svg+xml"))))
        assert.strictEqual(error.issue._tag, "UnsupportedMediaType", provider)
        assert.include(error.reason, "convert it to a type the provider takes, or leave it out")
      }
      // an image whose bytes are another format than its type is given the type its bytes show (CorrectedMediaType)
      const relabelled = yield* Repair.repairFor("anthropic")(asking(inline(JPEG, "image/png")))
      assert.deepStrictEqual(tags(relabelled.actions), ["CorrectedMediaType"])
    }))

  it("the issues encode to JSON and decode back as validation issues", () => {
    const issues = [...issuesOf("anthropic", inline(HEIC, "image/heic")), ...issuesOf("anthropic", inline(JPEG, "image/png"))]
    assert.deepStrictEqual(tags(issues), ["UnsupportedMediaType", "MediaTypeMismatch"])
    for (const issue of issues) {
      const json = Schema.encodeSync(ValidationError.Issue)(issue)
      assert.deepStrictEqual(Schema.decodeUnknownSync(ValidationError.Issue)(json), issue)
      assert.isTrue(Schema.is(ValidationError.AnthropicIssue)(issue))
    }
  })
})
