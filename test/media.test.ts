/**
 * Video, and audio in the containers video comes in, billed by duration:
 * the duration read from MP4, QuickTime, WebM, Matroska, AVI, AIFF and raw
 * AAC files (real clips made with FFmpeg, test/data/media, and hostile
 * ones), and what a second of video costs in the estimator and in
 * whole-request estimates.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { readFileSync } from "node:fs"
import { Block, Message, Request, TokenEstimator } from "../src/index.js"
import { Gemini } from "../src/providers/index.js"
import { audioSecondsOfBase64 } from "../src/internal/audio.js"
import { clipOfBase64, HEAD_BYTES } from "../src/internal/clip.js"
import { ASSUMED_VIDEO_BYTES_PER_SECOND, geminiVideoTokensPerSecond, videoSecondsOfBase64 } from "../src/internal/video.js"
import { intBetween } from "./arbitraries.js"

const clip = (name: string): string => readFileSync(new URL(`./data/media/${name}`, import.meta.url)).toString("base64")
const b64 = (bytes: ReadonlyArray<number> | Uint8Array): string => Buffer.from(Uint8Array.from(bytes)).toString("base64")
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
const box = (type: string, ...body: ReadonlyArray<ReadonlyArray<number>>): Array<number> => {
  const data = body.flat()
  return [...u32be(8 + data.length), ...ascii(type), ...data]
}
/** A movie header, version 0, of `duration` at `scale` units a second. */
const mvhd = (scale: number, duration: number) => box("mvhd", [0, 0, 0, 0], u32be(0), u32be(0), u32be(scale), u32be(duration), new Array<number>(80).fill(0))

/** What `ffprobe -show_entries format=duration` reports for each clip of test/data/media. */
const PROBED: ReadonlyArray<readonly [file: string, seconds: number]> = [
  ["video.mp4", 2.5],
  ["video-faststart.mp4", 2.5],
  ["video-fragmented.mp4", 2.5],
  // fragments after a movie box that holds the first one (`frag_keyframe` without `empty_moov`): its movie header says 0.5 s
  ["video-fragmented-moov.mp4", 2.5],
  ["video.mov", 2.5],
  ["video.webm", 2.508],
  ["video.mkv", 2.628],
  ["video.avi", 2.7],
  // 1.2 s of video and 3.168 s of audio: the main header counts video frames only, the audio stream's header says more
  ["video-long-audio.avi", 3.168]
]
/**
 * Containers whose duration is read from packet times (the last one's
 * start, so up to a frame and an audio packet short of ffprobe's figure,
 * which adds the last packet's length): FLV, WMV, MPEG program and
 * transport streams.
 */
const PROBED_BY_PACKETS: ReadonlyArray<readonly [file: string, seconds: number]> = [
  ["video.flv", 2.6],
  ["video.wmv", 2.628],
  ["video.mpg", 2.16],
  ["video.m2t", 2.530067]
]
const PROBED_AUDIO: ReadonlyArray<readonly [file: string, seconds: number]> = [
  ["audio.m4a", 2.5],
  ["audio-fragmented.m4a", 2.5065],
  ["audio.aac", 2.687511],
  ["audio.aiff", 2.5],
  ["audio.webm", 2.508]
]

describe("the duration of a video", () => {
  it("is what ffprobe reports for MP4 (with its index first, last, or in fragments), QuickTime, WebM, Matroska and AVI", () => {
    for (const [file, seconds] of PROBED) expect(videoSecondsOfBase64(clip(file)), file).toBeCloseTo(seconds, 3)
  })

  it("is within 0.15 s of what ffprobe reports for FLV, WMV and MPEG program and transport streams (their last packet's time)", () => {
    for (const [file, seconds] of PROBED_BY_PACKETS) {
      const read = videoSecondsOfBase64(clip(file))
      expect(Math.abs(read - seconds), `${file}: ${read}`).toBeLessThan(0.15)
    }
  })

  it("is read in a data: URL too", () => {
    const url = `data:video/mp4;base64,${clip("video.mp4")}`
    expect(videoSecondsOfBase64(url, url.indexOf(",") + 1)).toBeCloseTo(2.5, 3)
  })

  it("reads a movie header that lies past the first 256 KB it decodes (a file written before its index), in base64 plain or wrapped in lines", () => {
    const bytes = [...box("ftyp", ascii("isom"), u32be(512)), ...box("mdat", new Array<number>(400_000).fill(9)), ...box("moov", mvhd(600, 600 * 42))]
    expect(videoSecondsOfBase64(b64(bytes))).toBeCloseTo(42, 6)
    // MIME's 76 digits a line, with LF or CRLF, and a line break at the end
    expect(videoSecondsOfBase64(b64(bytes).replace(/.{76}/g, "$&\n"))).toBeCloseTo(42, 6)
    expect(videoSecondsOfBase64(`${b64(bytes).replace(/.{64}/g, "$&\r\n")}\r\n`)).toBeCloseTo(42, 6)
    // lines of uneven length: a byte's place in the text is not known, and the clip goes by its size
    const uneven = b64(bytes).replace(/.{76}/g, "$&\n").replace(/\n(.{10})/, "$1\n")
    expect(videoSecondsOfBase64(uneven)).toBeCloseTo(bytes.length / ASSUMED_VIDEO_BYTES_PER_SECOND, 0)
  })

  it("reads a movie header past the first 256 KB in unpadded base64 (URL-safe, or its padding cut) with a line break at its end", () => {
    // 400,001 bytes of data: the text's length is not a multiple of 4, and no padding says where the data ends
    const bytes = [...box("ftyp", ascii("isom"), u32be(512)), ...box("mdat", new Array<number>(400_001).fill(9)), ...box("moov", mvhd(600, 600 * 42))]
    const url = Buffer.from(Uint8Array.from(bytes)).toString("base64url")
    expect(url.length % 4).not.toBe(0)
    expect(videoSecondsOfBase64(url)).toBeCloseTo(42, 6)
    expect(videoSecondsOfBase64(`${url}\n`)).toBeCloseTo(42, 6)
    expect(videoSecondsOfBase64(`${b64(bytes).replace(/=+$/, "")}\r\n`)).toBeCloseTo(42, 6)
  })

  it("reads a movie header past the first 256 KB in a data: URL whose payload starts with a line break, as without it", () => {
    // video.mp4 (its movie box last) with a 300 KB free box after its file type box: the movie box lies past the head
    const mp4 = readFileSync(new URL("./data/media/video.mp4", import.meta.url))
    const free = Buffer.alloc(300_000)
    free.writeUInt32BE(free.length, 0)
    free.write("free", 4, "latin1")
    const ftyp = mp4.readUInt32BE(0)
    const data = Buffer.concat([mp4.subarray(0, ftyp), free, mp4.subarray(ftyp)]).toString("base64")
    for (const lead of ["", "\n", "\n ", "\r\n"]) {
      for (const payload of [data, data.replace(/.{76}/g, "$&\n"), data.replace(/.{64}/g, "$&\r\n")]) {
        const url = `data:video/mp4;base64,${lead}${payload}`
        expect(videoSecondsOfBase64(url, url.indexOf(",") + 1), JSON.stringify(lead)).toBeCloseTo(2.5, 3)
      }
    }
    expect(audioSecondsOfBase64(`\n${data}`)).toBeCloseTo(2.5, 3)
  })

  it("reads a Flash video of more than 256 KB by its last tag's time in base64 wrapped in lines, as in plain base64", () => {
    // FLV header and first tag size, a 300 KB video tag at 0 ms, then a last video tag at 20,000 ms, each followed by its size
    const tag = (ms: number, data: number) => [9, (data >> 16) & 0xff, (data >> 8) & 0xff, data & 0xff, (ms >> 16) & 0xff, (ms >> 8) & 0xff, ms & 0xff, (ms >>> 24) & 0xff, 0, 0, 0, ...new Array<number>(data).fill(0x17), ...u32be(11 + data)]
    const bytes = [...ascii("FLV"), 1, 1, 0, 0, 0, 9, 0, 0, 0, 0, ...tag(0, 300_000), ...tag(20_000, 16)]
    expect(videoSecondsOfBase64(b64(bytes))).toBeCloseTo(20, 6)
    // the size of the text over-counts the bytes by its line breaks: the last tag is still found by the tail's own end
    expect(videoSecondsOfBase64(b64(bytes).replace(/.{76}/g, "$&\n"))).toBeCloseTo(20, 6)
    expect(videoSecondsOfBase64(`${b64(bytes).replace(/.{76}/g, "$&\r\n")}\r\n`)).toBeCloseTo(20, 6)
    expect(videoSecondsOfBase64(`${b64(bytes)}\r\n`)).toBeCloseTo(20, 6)
  })

  it.prop(
    "reads any bytes of a clip from base64 wrapped in lines, as from plain base64, or none: never others",
    {
      size: intBetween(270_000, 300_000),
      // short lines (matched many at a time) and long ones (searched line by line)
      line: intBetween(1, 140),
      crlf: Arbitrary.schema(Schema.Boolean),
      at: intBetween(0, 300_000),
      n: intBetween(1, 64),
      // past the head: a stray character in a line or a break, or a digit or a break's character cut
      damage: Arbitrary.schema(Schema.Literals(["none", "stray", "cut"])),
      where: intBetween(0, 10_000)
    },
    ({ at, crlf, damage, line, n, size, where }) => {
      const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 7919) % 251)
      const plain = clipOfBase64(b64(bytes), 0)
      let text = b64(bytes).replace(new RegExp(`.{${line}}`, "g"), crlf ? "$&\r\n" : "$&\n")
      const digit = Math.ceil((HEAD_BYTES * 4) / 3) + 4 + where
      const place = Math.floor(digit / line) * (line + (crlf ? 2 : 1)) + (digit % line) + (where % 2)
      if (damage === "stray") text = `${text.slice(0, place)}*${text.slice(place)}`
      if (damage === "cut") text = text.slice(0, place) + text.slice(place + 1)
      const wrapped = clipOfBase64(text, 0)
      const got = wrapped.read(at, n)
      if (line % 4 === 0 && damage === "none") expect(got).toEqual(plain.read(at, n))
      else if (got !== undefined) expect(got).toEqual(bytes.subarray(at, at + n))
      const tail = wrapped.tail(1_000)
      expect(tail.bytes).toEqual(bytes.subarray(tail.at, tail.at + tail.bytes.length))
    },
    { timeout: 120_000 }
  )

  it("reads a fragmented MP4 to its last fragment past the first 1,000 top-level boxes", () => {
    // one track at 90 kHz, 600 fragments (1,200 boxes) of 30 samples of 3,000 units: 600 seconds
    const full = (type: string, version: number, ...body: ReadonlyArray<ReadonlyArray<number>>) => box(type, [version, 0, 0, 0], ...body)
    const trak = box("trak", full("tkhd", 0, u32be(0), u32be(0), u32be(1), new Array<number>(72).fill(0)), box("mdia", full("mdhd", 0, u32be(0), u32be(0), u32be(90_000), u32be(0), [0, 0, 0, 0])))
    const trex = full("trex", 0, u32be(1), u32be(1), u32be(3_000), u32be(0), u32be(0))
    const fragments: Array<number> = []
    for (let f = 0; f < 600; f++) {
      const traf = box("traf", box("tfhd", [0, 0, 0, 0], u32be(1)), full("tfdt", 0, u32be(f * 90_000)), box("trun", [0, 0, 0, 0], u32be(30)))
      fragments.push(...box("moof", traf), ...box("mdat", [1, 2, 3]))
    }
    const bytes = [...box("ftyp", ascii("isom")), ...box("moov", mvhd(1_000, 0), trak, box("mvex", trex)), ...fragments]
    expect(videoSecondsOfBase64(b64(bytes))).toBeCloseTo(600, 6)
  })

  it("reads a WebM that a browser recorded (no duration written) by the time of its last block", () => {
    // EBML header, then a segment of unknown size: info with a time scale and no duration, then clusters of unknown size
    const ebml = [0x1a, 0x45, 0xdf, 0xa3, 0x84, 0x42, 0x82, 0x81, 0x77]
    const info = [0x15, 0x49, 0xa9, 0x66, 0x88, 0x2a, 0xd7, 0xb1, 0x83, ...[0x0f, 0x42, 0x40]]
    const block = (relative: number) => [0xa3, 0x88, 0x81, (relative >> 8) & 0xff, relative & 0xff, 0x80, 1, 2, 3, 4]
    const cluster = (time: number, ...blocks: Array<Array<number>>) => [0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xe7, 0x82, (time >> 8) & 0xff, time & 0xff, ...blocks.flat()]
    const segment = [0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
    const bytes = [...ebml, ...segment, ...info, ...cluster(0, block(0), block(500)), ...new Array<number>(1000).fill(0xec), ...cluster(4000, block(0), block(980), block(960))]
    // the last cluster at 4,000 ms, its last block 980 ms later
    expect(videoSecondsOfBase64(b64(bytes))).toBeCloseTo(4.98, 6)
    // a last cluster of 30 s of 20 ms audio blocks (1,500 of them): its last block, not its 1,000th
    const long = [...ebml, ...segment, ...info, ...cluster(60_000, ...Array.from({ length: 1500 }, (_, i) => block(i * 20)))]
    expect(videoSecondsOfBase64(b64(long))).toBeCloseTo(89.98, 6)
    // a last cluster of more than 256 KB (a live recording at a few Mbit/s): its start is searched for further back
    const frame = (relative: number, n: number) => [0xa3, 0x10 | (n >> 24), (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff, 0x81, (relative >> 8) & 0xff, relative & 0xff, 0x80, ...new Array<number>(n - 4).fill(7)]
    const wide = [...ebml, ...segment, ...info, ...cluster(7000, frame(0, 200_000), frame(900, 200_000))]
    expect(videoSecondsOfBase64(b64(wide))).toBeCloseTo(7.9, 6)
  })

  it("takes a video whose container it cannot read, or whose header claims more than a second a byte, by its size", () => {
    const unknown = new Array<number>(62_500).fill(3)
    expect(videoSecondsOfBase64(b64(unknown))).toBeCloseTo(2, 6)
    const bytes = [...box("ftyp", ascii("isom")), ...box("moov", mvhd(1, 0xfffffff0))]
    expect(videoSecondsOfBase64(b64(bytes))).toBeCloseTo(bytes.length / ASSUMED_VIDEO_BYTES_PER_SECOND, 6)
    expect(videoSecondsOfBase64("")).toBe(0)
  })

  it.prop(
    "never throws, and is never negative or NaN, on cut or damaged containers",
    { cut: intBetween(0, 12_000), noise: Arbitrary.schema(Schema.String), file: Arbitrary.schema(Schema.Literals([...PROBED, ...PROBED_BY_PACKETS].map(([f]) => f))) },
    ({ cut, file, noise }) => {
      const whole = [...Buffer.from(clip(file), "base64")]
      const noisy = ascii(noise.replace(/[^\x00-\xff]/g, ""))
      for (const bytes of [whole.slice(0, cut), [...whole.slice(0, cut), ...noisy, ...whole.slice(cut)], [...whole.slice(0, cut), ...noisy]]) {
        for (const seconds of [videoSecondsOfBase64(b64(bytes)), audioSecondsOfBase64(b64(bytes))]) {
          expect(Number.isFinite(seconds) && seconds >= 0 && seconds <= Math.max(1, bytes.length)).toBe(true)
        }
      }
    },
    { timeout: 120_000 }
  )
})

describe("the duration of audio in the containers video comes in, and in AIFF and raw AAC", () => {
  it("is what ffprobe reports for M4A (also fragmented), raw AAC, AIFF and WebM audio", () => {
    for (const [file, seconds] of PROBED_AUDIO) expect(audioSecondsOfBase64(clip(file)), file).toBeCloseTo(seconds, 2)
  })

  it("counts an AIFF-C clip in IMA ADPCM by its packets of 64 frames", () => {
    // the common chunk of AIFF-C: channels, sample frames (here packets), sample size, the rate as an 80-bit float, the compression type
    const rate8000 = [0x40, 0x0b, 0xfa, 0, 0, 0, 0, 0, 0, 0]
    const comm = [...ascii("COMM"), ...u32be(24), 0, 1, ...u32be(250), 0, 16, ...rate8000, ...ascii("ima4"), 0, 0]
    const bytes = [...ascii("FORM"), ...u32be(4 + comm.length), ...ascii("AIFC"), ...comm]
    // 250 packets of 64 frames at 8 kHz: 2 seconds (by the count alone, 1/32 of a second)
    expect(audioSecondsOfBase64(b64(bytes))).toBeCloseTo(2, 6)
    const plain = [...ascii("FORM"), ...u32be(4 + comm.length), ...ascii("AIFF"), ...comm.slice(0, 26)]
    expect(audioSecondsOfBase64(b64(plain))).toBeCloseTo(250 / 8000, 6)
  })
})

describe("what video costs", () => {
  const video = Block.file(Block.base64(clip("video.mp4")), "video/mp4")
  const ask = Message.user([Block.text("What happens in this clip?"), video])
  const asked = Request.make([ask])
  const bare = Request.make([Message.user([Block.text("What happens in this clip?")])])
  const cost = (request: Request.Request, provider: "anthropic" | "gemini" | "openai-chat", model: string | undefined) =>
    TokenEstimator.heuristic.estimateRequest(request, { provider, ...(model === undefined ? {} : { model }) }).total -
    TokenEstimator.heuristic.estimateRequest(bare, { provider, ...(model === undefined ? {} : { model }) }).total

  it("the estimator: VIDEO_TOKENS_PER_SECOND a second (Gemini 2.x's 290), not its bytes", () => {
    expect(TokenEstimator.VIDEO_TOKENS_PER_SECOND).toBe(290)
    expect(TokenEstimator.heuristic.estimateBlock(video)).toBe(725)
    // a video whose container is not read goes by its size: 2 seconds per 62,500 bytes, not its bytes as opaque data
    const unknown = Block.file(Block.base64(b64(new Array<number>(62_500).fill(3))), "video/mp4")
    expect(TokenEstimator.heuristic.estimateBlock(unknown)).toBe(580)
  })

  it("a Gemini request: the model's price a second at its media resolution; Anthropic, which takes no video, nothing", () => {
    // Gemini 2.x: 258 a frame and 32 of sound, 66 a frame at low resolution
    expect(cost(asked, "gemini", "gemini-2.5-flash")).toBe(725)
    // Gemini 3: 70 a frame at the default resolution, 280 at high
    expect(cost(asked, "gemini", "gemini-3-flash-preview")).toBe(255)
    expect(geminiVideoTokensPerSecond("gemini-3-pro-preview", "MEDIA_RESOLUTION_HIGH")).toBe(312)
    expect(geminiVideoTokensPerSecond("gemini-2.0-flash", "MEDIA_RESOLUTION_LOW")).toBe(98)
    // a model id that names no version: the larger
    expect(geminiVideoTokensPerSecond("gemini-exp", undefined)).toBe(290)
    expect(cost(asked, "anthropic", "claude-sonnet-4-5")).toBe(0)
  })

  it.effect("a Gemini request read from the wire: its part's frame rate and clip offsets, in either spelling", () =>
    Effect.gen(function*() {
      const part = (meta: object) => ({ inlineData: { mimeType: "video/mp4", data: clip("video.mp4") }, ...meta })
      const priced = function*(meta: object) {
        const { value: request } = yield* Gemini.fromRequest({ contents: [{ role: "user", parts: [{ text: "What happens in this clip?" }, part(meta)] }] })
        return cost(request, "gemini", "gemini-3-flash-preview")
      }
      expect(yield* priced({})).toBe(255)
      // 2 frames a second: 2 × 70 + 32 a second
      expect(yield* priced({ videoMetadata: { fps: 2 } })).toBe(430)
      // one second of it (from 0.5 s to 1.5 s)
      expect(yield* priced({ videoMetadata: { startOffset: "0.5s", endOffset: "1.5s" } })).toBe(102)
      expect(yield* priced({ video_metadata: { start_offset: "2s" } })).toBe(51)
      // an uploaded video: its duration is not in the request, but an end offset bounds what is read
      const uploaded = function*(meta: object) {
        const { value: request } = yield* Gemini.fromRequest({
          contents: [{ role: "user", parts: [{ text: "What happens in this clip?" }, { fileData: { mimeType: "video/mp4", fileUri: "https://generativelanguage.googleapis.com/v1beta/files/abc" }, ...meta }] }]
        })
        return cost(request, "gemini", "gemini-3-flash-preview")
      }
      expect(yield* uploaded({ videoMetadata: { startOffset: "10s", endOffset: "70s" } })).toBe(60 * 102)
      // offsets that select nothing are not read: the whole video (here 2.5 s inline; by reference, as any referenced file)
      expect(yield* priced({ videoMetadata: { startOffset: "2s", endOffset: "1s" } })).toBe(255)
      expect(yield* uploaded({ videoMetadata: { startOffset: "70s", endOffset: "10s" } })).toBe(TokenEstimator.REFERENCED_FILE_TOKENS)
      // figures past what Gemini takes stay finite: at most 24 frames a second, durations up to proto3's 10,000 years
      expect(yield* priced({ videoMetadata: { fps: 1e308 } })).toBe(Math.ceil(2.5 * (24 * 70 + 32)))
      expect(yield* uploaded({ videoMetadata: { endOffset: `${"9".repeat(400)}s` } })).toBe(TokenEstimator.REFERENCED_FILE_TOKENS)
      expect(yield* uploaded({})).toBe(TokenEstimator.REFERENCED_FILE_TOKENS)
    })
  )
})
