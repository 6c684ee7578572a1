/**
 * Anthropic and the media types of inline images: the writer sends the
 * type the bytes show (Anthropic rejects an image whose bytes are another
 * format than its type: "Image does not match the provided media type
 * image/png"), media types compare without regard to case (RFC 6838) and
 * go out in the lower-case spelling the API's enum takes, and the writer,
 * the request estimate, `validateFor` and `repairFor` tell one story.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair, Request, TokenEstimator } from "../../src/index.js"
import { Anthropic } from "../../src/providers/index.js"

// the first bytes of real files, as base64
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"
const JPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/"
const GIF = "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="
const HEIC = "AAAAGGZ0eXBoZWljAAAAAG1pZjE="
const UNREADABLE = "AAAA"

const inline = (data: string, mediaType: string) => Block.file(Block.base64(data), mediaType)
const asking = (file: Block.FileBlock) => [Message.user([Block.text("What is this?"), file])]
const inResult = (file: Block.FileBlock) => [
  Message.user("Take a screenshot."),
  Message.assistant([Block.toolCall("c1", "screenshot", {})]),
  Message.tool([Block.toolResult("c1", "screenshot", [Block.text("Here."), file])])
]

/** The image blocks the writer sends, wherever they are. */
const sentImages = (value: unknown): Array<{ readonly media_type?: string }> => {
  const out: Array<{ readonly media_type?: string }> = []
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x)
    else if (typeof v === "object" && v !== null) {
      const o = v as Record<string, unknown>
      if (o["type"] === "image" && typeof o["source"] === "object") out.push(o["source"] as { readonly media_type?: string })
      for (const x of Object.values(o)) walk(x)
    }
  }
  walk(value)
  return out
}

const bare = Request.make([Message.user([Block.text("What is this?")])])
const imageCost = (file: Block.FileBlock): number =>
  TokenEstimator.heuristic.estimateRequest(Request.make(asking(file)), { provider: "anthropic" }).total -
  TokenEstimator.heuristic.estimateRequest(bare, { provider: "anthropic" }).total

describe("the Anthropic writer and the media type of an inline image", () => {
  it.effect("sends a JPEG declared image/png as image/jpeg, and says what it declared and why it changed", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* Anthropic.toMessages(asking(inline(JPEG, "image/png")))
      assert.deepStrictEqual(sentImages(value).map((s) => s.media_type), ["image/jpeg"])
      const converted = warnings.filter((w) => w._tag === "ConvertedContent")
      assert.strictEqual(converted.length, 1)
      assert.include(converted[0]!.message, "image/png")
      assert.include(converted[0]!.message, "image/jpeg")
      assert.include(converted[0]!.message, "Anthropic rejects")
      // bytes that match their type, or are not read, go as declared, with nothing to say
      for (const [data, type] of [[PNG, "image/png"], [UNREADABLE, "image/png"], [HEIC, "image/jpeg"]] as const) {
        const same = yield* Anthropic.toMessages(asking(inline(data, type)))
        assert.deepStrictEqual(sentImages(same.value).map((s) => s.media_type), [type])
        assert.deepStrictEqual(same.warnings, [])
      }
    }))

  it.effect("sends an image declared in a type Anthropic does not name as the type its bytes show, and says so, naming both", () =>
    Effect.gen(function*() {
      for (const type of ["image/j\u200Bpeg", "image/jpg", "image/pjpeg", "IMAGE/JPG; q=1"]) {
        for (const history of [asking(inline(JPEG, type)), inResult(inline(JPEG, type))]) {
          const { value, warnings } = yield* Anthropic.toMessages(history)
          assert.deepStrictEqual(sentImages(value).map((s) => s.media_type), ["image/jpeg"], type)
          assert.deepStrictEqual(warnings.map((w) => w._tag), ["ConvertedContent"], type)
          assert.include(warnings[0]!.message, "image/jpeg", type)
          // the declared type as it was, an invisible character in it shown
          assert.include(warnings[0]!.message, JSON.stringify(type).replace("\u200B", "\\u200b"), type)
          const issues = Conversation.issuesFor("anthropic", history)
          assert.deepStrictEqual(issues.map((i) => i._tag), ["MediaTypeMismatch"], type)
          assert.include(issues[0]!.message, "takes only image/jpeg, image/png, image/gif, image/webp", type)
        }
      }
      // `image/*` says only "an image": its bytes name it, with nothing to say
      const any = yield* Anthropic.toMessages(asking(inline(JPEG, "image/*")))
      assert.deepStrictEqual(sentImages(any.value).map((s) => s.media_type), ["image/jpeg"])
      assert.deepStrictEqual(any.warnings, [])
    }))

  it.effect("relabels an image in a tool result the same way", () =>
    Effect.gen(function*() {
      const { value, warnings } = yield* Anthropic.toMessages(inResult(inline(GIF, "image/webp")))
      assert.deepStrictEqual(sentImages(value).map((s) => s.media_type), ["image/gif"])
      assert.deepStrictEqual(warnings.map((w) => w._tag), ["ConvertedContent"])
    }))

  it.effect("compares media types without regard to case and parameters, and sends the spelling the API takes", () =>
    Effect.gen(function*() {
      for (const type of ["IMAGE/PNG", "Image/Png", "image/png; q=1"]) {
        const { value, warnings } = yield* Anthropic.toMessages(asking(inline(UNREADABLE, type)))
        assert.deepStrictEqual(sentImages(value).map((s) => s.media_type), ["image/png"], type)
        assert.deepStrictEqual(warnings, [], type)
      }
      const pdf = yield* Anthropic.toMessages(asking(inline("JVBERi0xLjQK", "Application/PDF")))
      assert.include(JSON.stringify(pdf.value), '"media_type":"application/pdf"')
      assert.deepStrictEqual(pdf.warnings, [])
    }))

  it("the request estimate counts an image the writer sends whatever the case of its type", () => {
    assert.isAbove(imageCost(inline(UNREADABLE, "IMAGE/PNG")), 0)
    assert.strictEqual(imageCost(inline(UNREADABLE, "IMAGE/PNG")), imageCost(inline(UNREADABLE, "image/png")))
    assert.strictEqual(imageCost(inline(UNREADABLE, "image/heic")), 0)
  })
})

describe("the writer, the estimate and validateFor tell one story", () => {
  const TYPES = ["image/png", "IMAGE/PNG", "image/jpeg", "Image/JPEG; x=1", "image/gif", "image/webp", "image/jpg", "image/*", "image/heic", "image/svg+xml"]
  const DATA = [PNG, JPEG, GIF, HEIC, UNREADABLE]

  it.effect("an image the writer leaves out is UnsupportedMediaType and costs nothing; one it relabels is MediaTypeMismatch", () =>
    Effect.gen(function*() {
      for (const type of TYPES) {
        for (const data of DATA) {
          for (const history of [asking(inline(data, type)), inResult(inline(data, type))]) {
            const label = `${type} ${data}`
            const { value, warnings } = yield* Anthropic.toMessages(history)
            const left = sentImages(value).length === 0
            const relabelled = warnings.some((w) => w._tag === "ConvertedContent")
            const issues = Conversation.issuesFor("anthropic", history).map((i) => i._tag)
            assert.strictEqual(left, warnings.some((w) => w._tag === "DroppedContent"), label)
            assert.strictEqual(issues.includes("UnsupportedMediaType"), left, label)
            assert.strictEqual(issues.includes("MediaTypeMismatch"), relabelled, label)
            if (history.length === 1) assert.strictEqual(imageCost(inline(data, type)) === 0, left, label)
          }
        }
      }
    }))
})

describe("repairFor(\"anthropic\") and an image whose bytes are another format than its type", () => {
  it.effect("gives the image the type its bytes show, keeping the declared type in the log", () =>
    Effect.gen(function*() {
      const { messages, actions } = yield* Repair.repairFor("anthropic")(asking(inline(JPEG, "image/png")))
      const file = messages[0]!.content[1] as Block.FileBlock
      assert.strictEqual(file.mediaType, "image/jpeg")
      assert.strictEqual(file.source._tag === "Base64" ? file.source.data : undefined, JPEG)
      assert.deepStrictEqual(actions.map((a) => a._tag), ["CorrectedMediaType"])
      const action = actions[0] as Repair.CorrectedMediaType
      assert.deepStrictEqual([action.index, action.blockIndex, action.original, action.mediaType], [0, 1, "image/png", "image/jpeg"])
      assert.strictEqual(
        action.description,
        "messages[0].content[1]: the image declared image/png was given the type its bytes show, image/jpeg (Anthropic rejects an image that does not match its media type)"
      )
      yield* Conversation.validateFor("anthropic")(messages)
    }))

  it.effect("does so in a tool result, naming the part, and the action encodes to JSON and back", () =>
    Effect.gen(function*() {
      const { messages, actions } = yield* Repair.repairFor("anthropic")(inResult(inline(PNG, "IMAGE/JPEG")))
      const result = messages[2]!.content[0] as Block.ToolResultBlock
      const part = (result.content as ReadonlyArray<Block.ToolResultPart>)[1] as Block.FileBlock
      assert.strictEqual(part.mediaType, "image/png")
      const action = actions[0] as Repair.CorrectedMediaType
      assert.deepStrictEqual([action._tag, action.index, action.blockIndex, action.partIndex, action.original], ["CorrectedMediaType", 2, 0, 1, "IMAGE/JPEG"])
      const json = Schema.encodeSync(Schema.Array(Repair.RepairAction))(actions)
      assert.deepStrictEqual(Schema.decodeUnknownSync(Schema.Array(Repair.RepairAction))(JSON.parse(JSON.stringify(json))), actions)
      yield* Conversation.validateFor("anthropic")(messages)
    }))

  it.effect("gives an image declared in a type Anthropic does not name the type its bytes show, saying which types Anthropic takes", () =>
    Effect.gen(function*() {
      for (const type of ["image/jpg", "image/j\u200Bpeg"]) {
        const { messages, actions } = yield* Repair.repairFor("anthropic")(asking(inline(JPEG, type)))
        assert.strictEqual((messages[0]!.content[1] as Block.FileBlock).mediaType, "image/jpeg", type)
        const action = actions[0] as Repair.CorrectedMediaType
        assert.deepStrictEqual([action._tag, action.original], ["CorrectedMediaType", type])
        assert.include(action.description, "Anthropic takes only image/jpeg, image/png, image/gif, image/webp", type)
        assert.include(action.description, type === "image/jpg" ? "declared image/jpg" : 'declared "image/j\\u200bpeg"', type)
        yield* Conversation.validateFor("anthropic")(messages)
      }
    }))

  it.effect("is idempotent: a repaired history comes back the same array with an empty log", () =>
    Effect.gen(function*() {
      const once = yield* Repair.repairFor("anthropic")(inResult(inline(GIF, "image/png")))
      const twice = yield* Repair.repairFor("anthropic")(once.messages)
      assert.strictEqual(twice.messages, once.messages)
      assert.deepStrictEqual(twice.actions, [])
    }))
})
