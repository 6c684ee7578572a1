/**
 * The OpenAI writers (and Gemini's media types): an image is an image by any
 * spelling of its type, as the estimator and the validation read it; the
 * warnings about a value show it bounded however large or deep it is; and no
 * message holds a lone surrogate.
 */
import { assert, describe, expect, it, vi } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Request, TokenEstimator } from "../../src/index.js"
import { Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"
import { isImageType } from "../../src/internal/anthropicFiles.js"
import { cutText, messageText } from "../../src/internal/preview.js"
import { hasLoneSurrogate } from "../../src/internal/surrogates.js"
import { show } from "../../src/providers/internal/core.js"

const pick = <const A extends ReadonlyArray<string>>(values: A): Arbitrary.Arbitrary<A[number]> => Arbitrary.schema(Schema.Literals(values))
const bools = Arbitrary.array(Arbitrary.schema(Schema.Boolean), { minLength: 16, maxLength: 16 })

/** A media type spelled with random case, surrounding whitespace and parameters. */
const spelled = (bases: ReadonlyArray<string>) =>
  Arbitrary.all([pick(bases as [string, ...Array<string>]), bools, pick(["", " ", "\t"]), pick(["", " ", "  "]), pick(["", ";charset=x", "; q=1", " ; Name=\"a\""])]).pipe(
    Arbitrary.map(([base, upper, before, after, params]) => {
      const cased = [...base].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join("")
      return `${before}${cased}${after}${params}`
    })
  )

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
/** A 1x1 BMP: an image format the OpenAI APIs do not take. */
const BMP = "Qk06AAAAAAAAADYAAAAoAAAAAQAAAAEAAAABABgAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAAAA////AA=="

const bare = (mediaType: string): string => {
  const semicolon = mediaType.indexOf(";")
  return (semicolon === -1 ? mediaType : mediaType.slice(0, semicolon)).trim().toLowerCase()
}

const userWith = (file: Block.FileBlock): Array<Message.Message> => [Message.user([Block.text("look"), file])]

/** The kind of part each OpenAI writer writes for a file, and the data URL of an image. */
const written = (file: Block.FileBlock) => {
  const chat = Effect.runSync(OpenAiChat.toMessages(userWith(file))).value
  const chatPart = (chat[0] as { readonly content: ReadonlyArray<{ readonly type: string; readonly image_url?: { readonly url: string } }> }).content[1]
  const responses = Effect.runSync(OpenAiResponses.toMessages(userWith(file))).value
  const responsesPart = (responses[0] as { readonly content: ReadonlyArray<{ readonly type: string; readonly image_url?: string }> }).content[1]
  return { chat: chatPart, responses: responsesPart }
}

const estimate = TokenEstimator.estimateFileWith((t) => t.length)

describe("an image by any spelling of its type", () => {
  it.prop(
    "each OpenAI writer writes an image exactly when the estimator prices one, with the type in the data URL lower case and bare",
    [spelled(["image/png", "image/jpeg", "image/*", "application/pdf", "text/plain", "application/octet-stream"])],
    ([mediaType]) => {
      const file = Block.file(Block.base64(PNG), mediaType)
      const image = isImageType(mediaType)
      // the estimator prices it as the image it is, or not
      assert.strictEqual(estimate(file) === estimate(Block.file(Block.base64(PNG), "image/png")), image)
      const { chat, responses } = written(file)
      assert.strictEqual(chat?.type === "image_url", image)
      assert.strictEqual(responses?.type === "input_image", image)
      if (image) {
        const type = bare(mediaType)
        assert.strictEqual(chat?.image_url?.url, `data:${type};base64,${PNG}`)
        assert.strictEqual(responses?.image_url, `data:${type === "image/*" ? "image/png" : type};base64,${PNG}`)
      }
      // the block keeps the spelling it was given
      assert.strictEqual(file.mediaType, mediaType)
    },
    { timeout: 120_000 }
  )

  it.prop(
    "the OpenAI validation reports an image type the API refuses exactly when the writers send the file as an image",
    [spelled(["image/bmp", "image/tiff", "application/pdf", "text/plain"])],
    ([mediaType]) => {
      const file = Block.file(Block.base64(BMP), mediaType)
      const { chat, responses } = written(file)
      for (const provider of ["openai-chat", "openai-responses"] as const) {
        const issue = Effect.runSync(Effect.flip(Conversation.validateFor(provider)(userWith(file))).pipe(Effect.map((e) => e._tag), Effect.orElseSucceed(() => "none")))
        assert.strictEqual(issue === "UnsupportedMediaType", (provider === "openai-chat" ? chat?.type === "image_url" : responses?.type === "input_image"), `${provider} ${JSON.stringify(mediaType)}`)
      }
    },
    { timeout: 120_000 }
  )

  it.effect("an upper-case image type goes out as the type the API takes", () =>
    Effect.gen(function*() {
      const file = Block.file(Block.base64(PNG), "IMAGE/PNG; charset=x")
      const { chat, responses } = written(file)
      expect(chat).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } })
      expect(responses).toMatchObject({ type: "input_image", image_url: `data:image/png;base64,${PNG}` })
    }))

  it.effect("audio by any spelling of its type goes to Chat as audio, as the estimators read it", () =>
    Effect.gen(function*() {
      const out = yield* OpenAiChat.toMessages(userWith(Block.file(Block.base64("UklGRg=="), " AUDIO/WAV; rate=8000")))
      expect((out.value[0] as { readonly content: ReadonlyArray<{ readonly type: string }> }).content[1]?.type).toBe("input_audio")
    }))

  it.effect("a data URL's own declared type still goes back as it came", () =>
    Effect.gen(function*() {
      const url = `data:application/octet-stream;base64,${PNG}`
      const read = yield* OpenAiChat.fromMessages([{ role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url } }] }])
      const back = yield* OpenAiChat.toMessages(read.value)
      expect((back.value[0] as { readonly content: ReadonlyArray<unknown> }).content[1]).toEqual({ type: "image_url", image_url: { url } })
    }))

  it.effect("Gemini resolves a wildcard image type in any case from the file's name", () =>
    Effect.gen(function*() {
      const file = Block.file(Block.url("https://example.com/cat.png"), "IMAGE/*", { filename: "cat.png" })
      const out = yield* Gemini.toMessages(userWith(file))
      const parts = (out.value.contents[0] as { readonly parts: ReadonlyArray<{ readonly fileData?: { readonly mimeType?: string } }> }).parts
      expect(parts[1]?.fileData?.mimeType).toBe("image/png")
      expect(out.warnings.map((w) => w._tag)).toEqual([])
    }))
})

describe("warnings about a huge or deep value", () => {
  let deep: unknown = "end"
  for (let i = 0; i < 100_000; i++) deep = { a: deep }
  const huge = { type: "function", function: { name: "x".repeat(10_000_000) } }

  for (const [name, value] of [["100,000 levels deep", deep], ["10 MB", huge]] as const) {
    it(`a tool choice ${name} is shown bounded, without writing its whole text`, { timeout: 120_000 }, () => {
      const request = Request.make([Message.user("hi")], { providerOptions: { "openai-chat": { tool_choice: value as never }, "openai-responses": { tool_choice: value as never } } })
      const stringify = vi.spyOn(JSON, "stringify")
      try {
        const chat = Effect.runSync(OpenAiChat.toRequest(request))
        const responses = Effect.runSync(OpenAiResponses.toRequest(request))
        const warnings = [...chat.warnings, ...responses.warnings]
        // each writer reports its own kept choice (no tools) and the other's (no type for it)
        expect(warnings.filter((w) => /tool.choice/.test(w.message))).toHaveLength(4)
        for (const w of warnings) expect(w.message.length).toBeLessThan(400)
        // no full text of the value was asked for: JSON.stringify saw no object and wrote nothing long
        stringify.mock.calls.forEach((call, i) => {
          expect(typeof call[0] === "object" && call[0] !== null).toBe(false)
          const result = stringify.mock.results[i]
          if (result?.type === "return") expect(String(result.value).length).toBeLessThan(1_000)
        })
      } finally {
        stringify.mockRestore()
      }
    })
  }

  it.effect("a sampling setting of another provider is shown bounded and never split in a surrogate pair", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("hi")], { providerOptions: { anthropic: { stop_sequences: [`a${"😀".repeat(100)}`] } } })
      const out = yield* OpenAiChat.toRequest(request)
      const messages = out.warnings.map((w) => w.message)
      expect(messages).toHaveLength(1)
      expect(messages[0]).toContain("anthropic's stop_sequences [\"a😀")
      for (const m of messages) assert.isFalse(hasLoneSurrogate(m), m)
    }))
})

describe("show is preview", () => {
  it("a deep value is its first levels, bounded, not 'an array'", () => {
    let deep: unknown = []
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const text = show(deep)
    expect(text.startsWith("[[[[")).toBe(true)
    expect(text.length).toBeLessThanOrEqual(81)
  })
})

describe("no lone surrogate in a message", () => {
  const surrogateText = Arbitrary.array(pick(["a", "😀", "\ud800", "\udc00", "é", "\ud83d", "\ude00"]), { maxLength: 120 }).pipe(Arbitrary.map((cs) => cs.join("")))

  it.prop("messageText cuts like cutText and writes each lone surrogate U+FFFD", [surrogateText, Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 })))], ([text, max]) => {
    const out = messageText(text, max)
    assert.isFalse(hasLoneSurrogate(out))
    const cut = cutText(text, max)
    assert.strictEqual(out.length, cut.length)
  }, { timeout: 120_000 })

  it.prop("a writer's warnings never hold a lone surrogate of the user's tool names or media types", [surrogateText], ([text]) => {
    const name = `f${text}`
    const messages: Array<Message.Message> = [
      Message.user([Block.text("x"), Block.file(Block.url("https://example.com/a"), `application/${text}`)]),
      Message.assistant([Block.toolCall("c1", name, {}, { providerExecuted: true }), Block.providerData(`p${text}`, {})])
    ]
    const texts: Array<string> = []
    for (const out of [Effect.runSync(Effect.result(OpenAiChat.toMessages(messages))), Effect.runSync(Effect.result(OpenAiResponses.toMessages(messages)))]) {
      if (out._tag === "Success") for (const w of out.success.warnings) texts.push(w.message)
      else texts.push(out.failure.message)
    }
    for (const m of texts) assert.isFalse(hasLoneSurrogate(m), JSON.stringify(m))
    assert.isAbove(texts.length, 0)
  }, { timeout: 120_000 })
})
