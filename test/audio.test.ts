/**
 * Audio is billed by its duration: the duration read from a clip's header,
 * and what a second costs each provider, in the estimator and in
 * whole-request estimates.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Message, Request, TokenEstimator } from "../src/index.js"
import { countOpenAiChatRequest } from "../src/exact/index.js"
import { Anthropic } from "../src/providers/index.js"
import { ASSUMED_AUDIO_BYTES_PER_SECOND, audioSecondsOfBase64 } from "../src/internal/audio.js"
import { intBetween } from "./arbitraries.js"

const b64 = (bytes: ReadonlyArray<number> | Uint8Array): string => Buffer.from(Uint8Array.from(bytes)).toString("base64")
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))
const u16le = (n: number) => [n & 0xff, (n >> 8) & 0xff]
const u32le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff]
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]

/** 16-bit PCM WAV of `seconds` at `rate` Hz and `channels` channels, with a LIST chunk before the data as some writers put. */
const wav = (seconds: number, rate = 16000, channels = 1): Array<number> => {
  const byteRate = rate * channels * 2
  const data = Math.round(seconds * byteRate)
  const list = [...ascii("LIST"), ...u32le(4), ...ascii("INFO")]
  return [
    ...ascii("RIFF"), ...u32le(36 + list.length + data), ...ascii("WAVE"),
    ...ascii("fmt "), ...u32le(16), ...u16le(1), ...u16le(channels), ...u32le(rate), ...u32le(byteRate), ...u16le(channels * 2), ...u16le(16),
    ...list,
    ...ascii("data"), ...u32le(data), ...new Array<number>(data).fill(0)
  ]
}

/** An ID3v2.4 tag of `size` bytes (a footer after it when asked). */
const id3 = (size: number, footer = false): Array<number> => {
  const syncsafe = [(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]
  return [...ascii("ID3"), 4, 0, footer ? 0x10 : 0, ...syncsafe, ...new Array<number>(size).fill(0), ...(footer ? [...ascii("3DI"), 4, 0, 0x10, ...syncsafe] : [])]
}

/** Frames of an MPEG-1 Layer III stream at 96 kbit/s, 48 kHz, mono (288 bytes each: the header of a clip pydantic-ai recorded), `bytes` bytes of them, the first holding `first` after its header. */
const frames = (bytes: number, first: Array<number> = []): Array<number> => {
  const out: Array<number> = []
  while (out.length < bytes) {
    const frame = [0xff, 0xfb, 0x74, 0xc4, ...(out.length === 0 ? first : [])]
    while (frame.length < 288) frame.push(0x55)
    out.push(...frame)
  }
  return out.slice(0, bytes)
}

/** That stream, `bytes` bytes of it after an ID3 tag, its first frame a Xing header counting `xingFrames` when given. */
const mp3 = (bytes: number, xingFrames?: number): Array<number> => {
  const side = new Array<number>(17).fill(0)
  const xing = xingFrames === undefined ? [] : [...side, ...ascii("Xing"), 0, 0, 0, 1, ...u32be(xingFrames)]
  return [...id3(20), ...frames(bytes, xing)]
}

/** A FLAC stream's marker and STREAMINFO block for `samples` samples at `rate` Hz. */
const flac = (samples: number, rate: number): Array<number> => [
  ...ascii("fLaC"), 0x80, 0, 0, 34,
  0, 16, 0, 16, 0, 0, 0, 0, 0, 0,
  (rate >> 12) & 0xff, (rate >> 4) & 0xff, ((rate & 0xf) << 4) | 0x01, 0xf0 | Math.floor(samples / 2 ** 32), ...u32be(samples >>> 0),
  ...new Array<number>(16).fill(0)
]

/** An Ogg Opus stream: the OpusHead page, some data, and a last page whose granule position is `granule` (48 kHz). */
const opus = (granule: number, filler: number): Array<number> => {
  const page = (g: number, body: Array<number>) => [...ascii("OggS"), 0, 0, ...u32le(g), 0, 0, 0, 0, ...u32le(1), ...u32le(0), 0, 0, 0, 0, 1, body.length, ...body]
  return [...page(0, [...ascii("OpusHead"), 1, 1, 0, 0, ...u32le(48000), 0, 0, 0]), ...new Array<number>(filler).fill(7), ...page(granule, [1, 2, 3])]
}

describe("the duration of a clip", () => {
  it("is read from WAV, MP3 (with a VBR header or by its bit rate), FLAC and Ogg Opus headers", () => {
    expect(audioSecondsOfBase64(b64(wav(2.5)))).toBeCloseTo(2.5, 6)
    expect(audioSecondsOfBase64(b64(wav(1, 44100, 2)))).toBeCloseTo(1, 4)
    // 53,856 bytes at 96 kbit/s: 4.49 seconds, the clip gpt-4o-audio-preview billed 44 audio tokens for
    expect(audioSecondsOfBase64(b64(mp3(53_856)))).toBeCloseTo(4.488, 6)
    // a Xing header's 500 frames of 1,152 samples at 48 kHz: 12 seconds, whatever the size
    expect(audioSecondsOfBase64(b64(mp3(10_000, 500)))).toBeCloseTo(12, 6)
    expect(audioSecondsOfBase64(b64(flac(441_000, 44_100)))).toBeCloseTo(10, 6)
    expect(audioSecondsOfBase64(b64(opus(48_000 * 7, 100_000)))).toBeCloseTo(7, 6)
  })

  it("reads a WAV whose chunks lie past the first 256 KB it decodes (a big LIST chunk first)", () => {
    const list = 300_000
    const byteRate = 44_100 * 4
    const bytes = [
      ...ascii("RIFF"), ...u32le(4 + 8 + list + 24 + 8 + byteRate), ...ascii("WAVE"),
      ...ascii("LIST"), ...u32le(list), ...new Array<number>(list).fill(0),
      ...ascii("fmt "), ...u32le(16), ...u16le(1), ...u16le(2), ...u32le(44_100), ...u32le(byteRate), ...u16le(4), ...u16le(16),
      ...ascii("data"), ...u32le(byteRate), ...new Array<number>(byteRate).fill(0)
    ]
    // 1 second: by its size it was 119
    expect(audioSecondsOfBase64(b64(bytes))).toBeCloseTo(1, 6)
    // in a data: URL too
    const url = `data:audio/wav;base64,${b64(bytes)}`
    expect(audioSecondsOfBase64(url, url.indexOf(",") + 1)).toBeCloseTo(1, 6)
  })

  it("reads an MP3's first frame past cover art bigger than the head, past a tag's footer and a second tag", () => {
    // 28,800 bytes at 96 kbit/s: 2.4 seconds
    const seconds = 28_800 * 8 / 96_000
    expect(audioSecondsOfBase64(b64([...id3(400_000), ...frames(28_800)]))).toBeCloseTo(seconds, 6)
    expect(audioSecondsOfBase64(b64([...id3(1_000, true), ...frames(28_800)]))).toBeCloseTo(seconds, 6)
    // a second tag holding what looks like a frame header (a JPEG's APP2 marker, FF E2, then a long segment) is skipped whole
    const second = [...ascii("ID3"), 3, 0, 0, 0, 0, 0, 20, 0xff, 0xe2, 0x10, 0x00, ...new Array<number>(16).fill(0)]
    expect(audioSecondsOfBase64(b64([...id3(100), ...second, ...frames(28_800)]))).toBeCloseTo(seconds, 6)
    // a sync pattern no frame follows is not taken for the first frame
    expect(audioSecondsOfBase64(b64([0xff, 0xfb, 0x10, 0x00, 0, 0, ...frames(28_800)]))).toBeCloseTo((28_806 - 6) * 8 / 96_000, 2)
  })

  it("takes a VBR header's frame count of 0 (one never filled in) as no count, and an Ogg page without a granule position as no end", () => {
    // a Xing header written to a pipe counts 0 frames: the bit rate tells
    expect(audioSecondsOfBase64(b64(mp3(53_856, 0)))).toBeCloseTo(4.488, 2)
    // a stream cut short ends on a page where no packet ends (granule position -1): the page before it tells
    const page = (low: number, high: number, body: Array<number>) => [...ascii("OggS"), 0, 0, ...u32le(low), ...u32le(high), ...u32le(1), ...u32le(0), 0, 0, 0, 0, 1, body.length, ...body]
    const head = page(0, 0, [...ascii("OpusHead"), 1, 1, 0, 0, ...u32le(48000), 0, 0, 0])
    expect(audioSecondsOfBase64(b64([...head, ...new Array<number>(4000).fill(7), ...page(48_000 * 3, 0, [1]), ...page(0xffffffff, 0xffffffff, [2])]))).toBeCloseTo(3, 6)
    // a header claiming more than a second a byte is damaged: the clip goes by its size (it was 3.8e14 seconds)
    const damaged = [...head, ...new Array<number>(4000).fill(7), ...page(0xfffffff0, 0xffffff, [2])]
    expect(audioSecondsOfBase64(b64(damaged))).toBeCloseTo(damaged.length / ASSUMED_AUDIO_BYTES_PER_SECOND, 6)
  })

  it("takes a clip whose header it cannot read as a second per 4 KB", () => {
    const unknown = new Array<number>(40_000).fill(3)
    expect(audioSecondsOfBase64(b64(unknown))).toBeCloseTo(40_000 / ASSUMED_AUDIO_BYTES_PER_SECOND, 6)
    expect(audioSecondsOfBase64("")).toBe(0)
  })

  it.prop(
    "never throws, and is never negative or NaN, on cut or damaged headers",
    { cut: intBetween(0, 300), noise: Arbitrary.schema(Schema.String), kind: Arbitrary.schema(Schema.Literals(["wav", "mp3", "flac", "opus"])) },
    ({ cut, kind, noise }) => {
      const whole = kind === "wav" ? wav(0.01) : kind === "mp3" ? mp3(600, 9) : kind === "flac" ? flac(1000, 8000) : opus(4800, 10)
      for (const text of [b64(whole.slice(0, cut)), b64([...whole.slice(0, cut), ...ascii(noise.replace(/[^\x00-\xff]/g, "")), ...whole.slice(cut)]), noise]) {
        const seconds = audioSecondsOfBase64(text)
        expect(Number.isFinite(seconds) && seconds >= 0).toBe(true)
      }
    },
    { timeout: 300_000 }
  )
})

describe("what audio costs", () => {
  const clip = Block.audio(b64(wav(3)), "audio/wav")

  it("the estimator: AUDIO_TOKENS_PER_SECOND a second (Gemini's 32, the most any provider charges), not its bytes", () => {
    expect(TokenEstimator.AUDIO_TOKENS_PER_SECOND).toBe(32)
    expect(TokenEstimator.heuristic.estimateBlock(clip)).toBe(96)
    // 3 seconds of 16 kHz WAV are 96,000 bytes: as opaque data they were 24,000 tokens
    expect(TokenEstimator.estimateOpaqueData(b64(wav(3)))).toBeGreaterThan(20_000)
  })

  it("a request: each provider's price a second; Anthropic, which takes no audio, nothing", () => {
    const request = Request.make([Message.user([Block.text("Transcribe this."), clip])])
    const without = (provider: "anthropic" | "gemini" | "openai-chat", model: string) =>
      TokenEstimator.heuristic.estimateRequest(Request.make([Message.user([Block.text("Transcribe this.")])]), { provider, model }).total
    const cost = (provider: "anthropic" | "gemini" | "openai-chat", model: string) =>
      TokenEstimator.heuristic.estimateRequest(request, { provider, model }).total - without(provider, model)
    expect(cost("gemini", "gemini-2.5-flash")).toBe(96)
    expect(cost("openai-chat", "gpt-4o-audio-preview")).toBe(30)
    expect(cost("anthropic", "claude-sonnet-4-5")).toBe(0)
  })

  it.effect("OpenAI Chat bodies: an input_audio part is its duration at 10 tokens a second", () =>
    Effect.gen(function*() {
      const body = (content: ReadonlyArray<object>) => ({ model: "gpt-4o-audio-preview", messages: [{ role: "user", content }] })
      const text = { type: "text", text: "What is said here?" }
      const withClip = yield* countOpenAiChatRequest(body([text, { type: "input_audio", input_audio: { data: b64(mp3(53_856)), format: "mp3" } }]))
      const alone = yield* countOpenAiChatRequest(body([text]))
      // billed 44 for this clip's duration; rounded up, 45
      expect(withClip.total - alone.total).toBe(45)
    })
  )
})

describe("the files an Anthropic request leaves out", () => {
  const pdf = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Page>>endobj\n%%EOF").toString("base64")
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
  const files: ReadonlyArray<readonly [string, Block.FileBlock]> = [
    ["a text file by URL", Block.file(Block.url("https://example.com/a.txt"), "text/plain")],
    ["a text file by URL, its type in upper case", Block.file(Block.url("https://example.com/a.txt"), "TEXT/PLAIN")],
    ["an octet-stream file by URL", Block.file(Block.url("https://example.com/a.bin"), "application/octet-stream")],
    ["an octet-stream file at a gs:// URL", Block.file(Block.url("gs://bucket/a.bin"), "application/octet-stream")],
    ["octet-stream data", Block.file(Block.base64("AAAA"), "application/octet-stream")],
    ["audio given as text", Block.file(Block.text("hello world"), "audio/wav")],
    ["audio by file id", Block.file(Block.fileId("file_1"), "audio/wav")],
    ["audio data", Block.file(Block.base64(b64(wav(1))), "audio/wav")],
    ["a BMP image", Block.file(Block.base64("Qk0AAAAAAAAAAAAAAAAAAAAA".repeat(10)), "image/bmp")],
    ["a PNG image", Block.file(Block.base64(png), "image/png")],
    ["a PNG image in a data: URL", Block.file(Block.url(`data:image/png;base64,${png}`), "image/png")],
    ["a PNG image at a gs:// URL", Block.file(Block.url("gs://bucket/a.png"), "image/png")],
    ["an image given as text", Block.file(Block.text("not an image"), "image/png")],
    ["a PDF", Block.file(Block.base64(pdf), "application/pdf")],
    ["a PDF at a gs:// URL", Block.file(Block.url("gs://bucket/a.pdf"), "application/pdf")],
    ["a PDF in a data: URL", Block.file(Block.url(`data:application/pdf;base64,${pdf}`), "application/pdf")],
    ["a PDF, its type in upper case", Block.file(Block.base64(pdf), "Application/PDF")],
    ["a PDF, its type with a parameter", Block.file(Block.base64(pdf), "application/pdf; name=a.pdf")],
    ["text data", Block.file(Block.base64(Buffer.from("plain words").toString("base64")), "text/plain")],
    ["text data that is not UTF-8", Block.file(Block.base64("//79/A=="), "text/plain")]
  ]

  it("costs nothing exactly where the writer leaves it out, in a user message, a tool result and an assistant message", () => {
    const options = { provider: "anthropic", model: "claude-sonnet-4-5" } as const
    const ask = Message.user([Block.text("Look.")])
    const call = Message.assistant([Block.toolCall("c1", "look", {})])
    for (const [name, file] of files) {
      const cases = [
        { where: "a user message", with: [ask, Message.user([Block.text("And this."), file])], without: [ask, Message.user([Block.text("And this.")])] },
        { where: "a tool result", with: [ask, call, Message.tool([Block.toolResult("c1", "look", [Block.text("Here."), file])])], without: [ask, call, Message.tool([Block.toolResult("c1", "look", [Block.text("Here.")])])] },
        { where: "an assistant message", with: [ask, Message.assistant([Block.text("Here."), file])], without: [ask, Message.assistant([Block.text("Here.")])] }
      ]
      for (const c of cases) {
        const written = Effect.runSync(Anthropic.toRequest(Request.make(c.with)))
        const sent = /"type":"(image|document)"/.test(JSON.stringify(written.value))
        const cost = TokenEstimator.heuristic.estimateRequest(Request.make(c.with), options).total - TokenEstimator.heuristic.estimateRequest(Request.make(c.without), options).total
        expect({ file: name, where: c.where, sent, counted: cost > 0 }).toEqual({ file: name, where: c.where, sent, counted: sent })
      }
    }
  })
})
