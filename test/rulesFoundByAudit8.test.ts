/**
 * Rules an eighth audit left open: `validateFor("anthropic")` and
 * `repairFor("anthropic")` tell the story the Anthropic writer tells for
 * every kind of file it leaves out (audio, video, unknown data, text that is
 * not UTF-8), and for the fields of a message it writes besides `role` and
 * `content`; the request estimate prices an image whatever the case of its
 * type.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Repair, Request, TokenEstimator } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"
import { hasLoneSurrogate } from "../src/internal/surrogates.js"
import * as Arb from "./arbitraries.js"
import { droppedBy, unsupported, withFiles as filesIn } from "./anthropicCases.js"

const pick = <const A extends ReadonlyArray<string>>(values: A): Arbitrary.Arbitrary<A[number]> => Arbitrary.schema(Schema.Literals(values))
const b64 = (bytes: ReadonlyArray<number> | string): string => Buffer.from(typeof bytes === "string" ? bytes : Uint8Array.from(bytes)).toString("base64")

// ---------------------------------------------------------------------------
// 1. Anthropic: every inline file the writer leaves out is UnsupportedMediaType
// ---------------------------------------------------------------------------

const BYTES = {
  png: b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]),
  jpeg: b64([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  gif: b64("GIF89a\x01\x00\x01\x00\x80\x00\x00"),
  webp: b64("RIFF\x24\x00\x00\x00WEBPVP8 "),
  heic: b64([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63]),
  pdf: b64("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n"),
  utf8: b64("Quarterly report — Ørsted, 東京, 😀\nline two\n"),
  notUtf8: b64([0x48, 0x69, 0xff, 0xfe, 0xc3, 0x28, 0x80, 0x0a]),
  wav: b64("RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00"),
  mp3: b64("ID3\x04\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x64"),
  mp4: b64([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]),
  zip: b64([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00])
} as const

const MEDIA_TYPES = [
  "image/png",
  "IMAGE/PNG",
  "image/jpeg",
  "image/jpg",
  "image/heic",
  "image/*",
  "application/pdf",
  "Application/PDF",
  "text/plain",
  "text/csv; charset=utf-8",
  "TEXT/MARKDOWN",
  "audio/wav",
  "audio/mpeg",
  "video/mp4",
  "application/octet-stream",
  "application/json",
  "application/zip"
] as const

const fileSlot = Arbitrary.all({
  mediaType: pick(MEDIA_TYPES),
  bytes: pick(Object.keys(BYTES) as unknown as readonly ["png"]),
  inResult: Arb.bool
})

/** One file per user message or tool result, as base64 data, so a file is named by its message and block. */
const withFiles = (slots: ReadonlyArray<{ readonly mediaType: string; readonly bytes: keyof typeof BYTES; readonly inResult: boolean }>): Array<Message.Message> =>
  filesIn(slots.map((s) => ({ file: Block.file(Block.base64(BYTES[s.bytes]), s.mediaType), inResult: s.inResult })))

describe("Anthropic: UnsupportedMediaType is every inline file the writer leaves out", () => {
  it("reports audio, video, unknown data and text that is not UTF-8, in a user message and a tool result", () => {
    const messages = withFiles([
      { mediaType: "audio/wav", bytes: "wav", inResult: false },
      { mediaType: "video/mp4", bytes: "mp4", inResult: true },
      { mediaType: "application/octet-stream", bytes: "zip", inResult: false },
      { mediaType: "text/plain", bytes: "notUtf8", inResult: true },
      { mediaType: "text/plain", bytes: "utf8", inResult: false }
    ])
    const issues = Conversation.issuesFor("anthropic", messages).filter((i) => i._tag === "UnsupportedMediaType")
    assert.deepStrictEqual(issues.map((i) => [i.index, i.blockIndex, i.partIndex, i.mediaType]), [
      [2, 1, undefined, "audio/wav"],
      [4, 0, 1, "video/mp4"],
      [6, 1, undefined, "application/octet-stream"],
      [8, 0, 1, "text/plain"]
    ])
    assert.include(issues[3]!.message, "UTF-8")
  })

  it.prop(
    "validateFor reports a file exactly when the writer drops it, and repairFor leaves none the writer drops",
    [Arbitrary.array(fileSlot, { minLength: 1, maxLength: 6 })],
    ([slots]) => {
      const messages = withFiles(slots)
      const dropped = droppedBy(messages)
      assert.deepStrictEqual(unsupported(messages), dropped)
      const repaired = Effect.runSync(Effect.result(Repair.repairFor("anthropic")(messages)))
      if (repaired._tag === "Success") {
        assert.deepStrictEqual(dropped, [])
        assert.deepStrictEqual(droppedBy(repaired.success.messages), [])
      } else {
        // the file is the caller's to convert or leave out, as for an image
        assert.strictEqual(repaired.failure.issue._tag, "UnsupportedMediaType")
        assert.notDeepEqual(dropped, [])
      }
    },
    { arbitrary: { runs: 300 } }
  )
})

// ---------------------------------------------------------------------------
// 2. The request estimate prices an image whatever the case of its type
// ---------------------------------------------------------------------------

describe("estimateRequest prices an image whatever the case of its type", () => {
  it("Gemini prices an IMAGE/PNG as it prices an image/png", () => {
    const cost = (mediaType: string) =>
      TokenEstimator.heuristic.estimateRequest(
        Request.make([Message.user([Block.text("What is this?"), Block.file(Block.base64(BYTES.png), mediaType)])], { model: "gemini-3-flash-preview" }),
        { provider: "gemini" }
      ).messages[0]!
    assert.strictEqual(cost("IMAGE/PNG"), cost("image/png"))
    assert.strictEqual(cost("image/png; name=cat.png"), cost("image/png"))
  })

  it("OpenAI prices an IMAGE/PNG as it prices an image/png", () => {
    for (const provider of ["openai-chat", "openai-responses"] as const) {
      const cost = (mediaType: string) =>
        TokenEstimator.heuristic.estimateRequest(
          Request.make([Message.user([Block.text("What is this?"), Block.file(Block.base64(BYTES.png), mediaType)])], { model: "gpt-4o" }),
          { provider }
        ).messages[0]!
      assert.strictEqual(cost("IMAGE/PNG"), cost("image/png"), provider)
      assert.strictEqual(cost("Image/Png; name=cat.png"), cost("image/png"), provider)
    }
  })
})

// ---------------------------------------------------------------------------
// 3. Anthropic: a message's fields besides role and content
// ---------------------------------------------------------------------------

const withOptions = (m: Message.Message, anthropic: Record<string, Schema.Json>): Message.Message =>
  Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(m) as object) as Message.Message, m, {
    providerOptions: { ...m.providerOptions, anthropic: { ...m.providerOptions?.["anthropic"], ...anthropic } }
  }))

const fields = (messages: ReadonlyArray<Message.Message>) =>
  Conversation.issuesFor("anthropic", messages).flatMap((issue) => (issue._tag === "UnknownMessageField" ? [[issue.index, issue.field]] : []))

/** The fields of the written messages besides role and content. */
const writtenFields = (messages: ReadonlyArray<Message.Message>): Array<string> =>
  Effect.runSync(Anthropic.toMessages(messages)).value.messages.flatMap((m) => Object.keys(m).filter((k) => k !== "role" && k !== "content"))

describe("Anthropic: UnknownMessageField", () => {
  it.effect("reports a field read from a message besides role and content, and repairFor removes it, keeping its value", () =>
    Effect.gen(function*() {
      const { value } = yield* Anthropic.fromMessages([
        { role: "user", content: "Weather in Oslo?", name: "alice" },
        { role: "assistant", content: "12°C.", id: "msg_1", cache_control: { type: "ephemeral" } },
        { role: "user", content: "Thanks" }
      ])
      assert.deepStrictEqual(fields(value), [[0, "name"], [1, "id"]])
      assert.deepStrictEqual(writtenFields(value), ["name", "id"])
      const [issue] = Conversation.issuesFor("anthropic", value)
      assert.include(issue?.message ?? "", "messages[0]")
      assert.include(issue?.message ?? "", "Extra inputs are not permitted")
      const { actions, messages } = yield* Repair.repairFor("anthropic")(value)
      assert.deepStrictEqual(actions.map((a) => a._tag === "RemovedMessageField" ? [a.index, a.field, a.original] : a._tag), [[0, "name", "alice"], [1, "id", "msg_1"]])
      assert.deepStrictEqual(writtenFields(messages), [])
      // the breakpoint stays: the writer puts it on the message's last block
      assert.deepStrictEqual(messages[1]?.providerOptions?.["anthropic"], { cache_control: { type: "ephemeral" } })
      // the options of a system message, and of a message merged into the one before it, are not written on a message
      const merged = [
        withOptions(Message.system("Be brief."), { note: "for the system prompt" }),
        ...value.slice(0, 1),
        withOptions(Message.user("And Bergen?"), { note: "merged" }),
        ...value.slice(1)
      ]
      assert.deepStrictEqual(fields(merged), [[1, "name"], [3, "id"]])
      assert.deepStrictEqual(writtenFields(merged), ["name", "id"])
    }))

  it.prop(
    "UnknownMessageField is reported once for each field of a written message besides role and content",
    [Arb.validConversation, Arbitrary.array(pick(["", "name", "id", "$$meta", "cache_control", "$separateMessage"]), { minLength: 1, maxLength: 12 })],
    ([messages, keys]) => {
      const input = messages.map((m, i) => {
        const k = keys[i % keys.length]!
        return k === "" ? m : withOptions(m, { [k]: k === "$separateMessage" ? true : k === "cache_control" ? { type: "ephemeral" } : "x" })
      })
      assert.strictEqual(fields(input).length, writtenFields(input).length)
    },
    { arbitrary: { runs: 200 } }
  )

  it("reads a lone surrogate in a message field the writer sends", () => {
    const half = "\ud83d"
    const messages = [withOptions(Message.user("Hi"), { metadata: { user_id: `u${half}` } }), Message.assistant("Hello")]
    const lone = Conversation.issuesFor("anthropic", messages).filter((i) => i._tag === "LoneSurrogate")
    assert.deepStrictEqual(lone.map((i) => [i.index, i.blockIndex, i.path]), [[0, undefined, ["providerOptions", "anthropic", "metadata", "user_id"]]])
    // as the writer sends it
    const [first] = Effect.runSync(Anthropic.toMessages(messages)).value.messages
    assert.deepStrictEqual((first as unknown as { readonly metadata?: unknown }).metadata, { user_id: `u${half}` })
    // the field is removed, and the lone surrogate with it
    const { actions } = Effect.runSync(Repair.repairFor("anthropic")(messages))
    assert.deepStrictEqual(actions.map((a) => a._tag), ["RemovedMessageField"])
  })

  it.prop(
    "LoneSurrogate is reported exactly when the written request holds one, the fields of messages included",
    [Arb.validConversation, Arbitrary.array(pick(["", "metadata", "cache_control", "$separateMessage"]), { minLength: 1, maxLength: 8 }), Arb.bool],
    ([messages, keys, cut]) => {
      const half = "\ud83d"
      const input = messages.map((m, i) => {
        const k = keys[i % keys.length]!
        const value: Schema.Json = k === "$separateMessage" ? true : k === "cache_control" ? { type: cut ? `ephemeral${half}` : "ephemeral" } : { user_id: cut ? `u${half}` : "u" }
        return k === "" ? m : withOptions(m, { [k]: value })
      })
      const written = Effect.runSync(Anthropic.toMessages(input)).value
      const holds = (v: unknown): boolean =>
        typeof v === "string"
          ? hasLoneSurrogate(v)
          : Array.isArray(v)
          ? v.some(holds)
          : typeof v === "object" && v !== null && Object.entries(v).some(([k, x]) => hasLoneSurrogate(k) || holds(x))
      const reported = Conversation.issuesFor("anthropic", input).some((i) => i._tag === "LoneSurrogate")
      assert.strictEqual(reported, holds(written.messages) || holds(written.system))
    },
    { arbitrary: { runs: 200 } }
  )
})
