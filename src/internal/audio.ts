/**
 * How long a clip of audio lasts, read from its header, and what a second
 * costs each provider.
 *
 * Providers bill audio by its duration, never by its size in bytes (a
 * second is 32 KB of 16-bit WAV and 4 KB of a voice MP3): Gemini 32 tokens
 * a second (the Gemini API's token guide, "Multimodal tokens"; the same at
 * every media resolution), OpenAI's audio models about 10 (gpt-4o-audio-preview
 * billed 44 audio tokens for a 4.49-second MP3 recorded in pydantic-ai's
 * test suite). The duration comes from the header of the formats the
 * providers take: WAV (its data size over its byte rate), MP3 (a VBR
 * header's frame count, else the first frame's bit rate over the data),
 * FLAC (its stream info), Ogg Vorbis and Opus (the last page's granule
 * position). Anything else is taken at `ASSUMED_AUDIO_BYTES_PER_SECOND`.
 *
 * Nothing here throws, whatever the input.
 *
 * @internal
 */
import * as Block from "../Block.js"
import { decodeBase64 } from "./base64.js"
import { base64DataUrlParts } from "./dataUrl.js"

/**
 * The bytes of a second of audio whose duration its header does not show:
 * 4 KB (32 kbit/s, a voice codec's rate). Most audio is denser, so the
 * duration comes out longer than it is, the side a budget can afford.
 */
export const ASSUMED_AUDIO_BYTES_PER_SECOND = 4_000

/** Gemini's price for a second of audio (the most any provider here charges). */
export const GEMINI_AUDIO_TOKENS_PER_SECOND = 32

/** OpenAI's audio models' price for a second of audio, as measured (see the module comment). */
export const OPENAI_AUDIO_TOKENS_PER_SECOND = 10

/** About how many bytes the base64 text from `start` holds (line breaks inside it counted as data, a little over). */
const byteLength = (text: string, start: number): number => {
  let padding = 0
  for (let i = text.length - 1; i >= start && (text[i] === "=" || text[i] === "\n" || text[i] === "\r"); i--) if (text[i] === "=") padding++
  return Math.max(0, Math.floor(((text.length - start) * 3) / 4) - padding)
}

const ascii = (b: Uint8Array, at: number, n: number): string => {
  let s = ""
  for (let i = at; i < at + n && i < b.length; i++) s += String.fromCharCode(b[i]!)
  return s
}
const u32le = (b: Uint8Array, at: number): number => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 0x1000000
const u32be = (b: Uint8Array, at: number): number => b[at]! * 0x1000000 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!)

/** A WAV file's duration: its data chunk's size (or what follows it, for a stream that never filled it in) over the byte rate. */
const wavSeconds = (b: Uint8Array, total: number): number | undefined => {
  let byteRate = 0
  for (let at = 12; at + 8 <= b.length; ) {
    const id = ascii(b, at, 4)
    const size = u32le(b, at + 4)
    if (id === "fmt " && at + 16 <= b.length) byteRate = u32le(b, at + 16)
    if (id === "data") {
      const data = size === 0 || size === 0xffffffff ? total - at - 8 : Math.min(size, total - at - 8)
      return byteRate > 0 ? data / byteRate : undefined
    }
    at += 8 + size + (size & 1)
  }
  return undefined
}

/** Kilobits per second of MPEG-1 and MPEG-2/2.5 Layer III, by bit rate index. */
const MP3_KBPS = [
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
] as const
const MP3_RATES = [44100, 48000, 32000] as const

/** An MP3's duration: a Xing, Info or VBRI header's frame count when there is one, else the first frame's bit rate over the data. */
const mp3Seconds = (b: Uint8Array, total: number): number | undefined => {
  let at = 0
  // an ID3v2 tag first: its size is four 7-bit bytes
  if (ascii(b, 0, 3) === "ID3" && b.length >= 10) at = 10 + ((b[6]! & 0x7f) << 21 | (b[7]! & 0x7f) << 14 | (b[8]! & 0x7f) << 7 | (b[9]! & 0x7f))
  for (const end = Math.min(b.length - 4, at + 4096); at < end && !(b[at] === 0xff && (b[at + 1]! & 0xe0) === 0xe0); ) at++
  if (at + 4 > b.length) return undefined
  const version = (b[at + 1]! >> 3) & 3 // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = (b[at + 1]! >> 1) & 3 // 1: Layer III
  const kbps = MP3_KBPS[version === 3 ? 0 : 1][(b[at + 2]! >> 4) & 15]
  const rateIndex = (b[at + 2]! >> 2) & 3
  if (version === 1 || layer !== 1 || kbps === undefined || kbps === 0 || rateIndex === 3) return undefined
  const sampleRate = MP3_RATES[rateIndex]! / (version === 3 ? 1 : version === 2 ? 2 : 4)
  const samplesPerFrame = version === 3 ? 1152 : 576
  // a VBR header in the first frame counts the frames
  const mono = ((b[at + 3]! >> 6) & 3) === 3
  const xing = at + 4 + (version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17)
  const tag = ascii(b, xing, 4)
  if ((tag === "Xing" || tag === "Info") && xing + 12 <= b.length && (b[xing + 7]! & 1) === 1) {
    return (u32be(b, xing + 8) * samplesPerFrame) / sampleRate
  }
  if (ascii(b, at + 36, 4) === "VBRI" && at + 54 <= b.length) return (u32be(b, at + 50) * samplesPerFrame) / sampleRate
  return ((total - at) * 8) / (kbps * 1000)
}

/** A FLAC stream's duration: its STREAMINFO's total samples over its sample rate. */
const flacSeconds = (b: Uint8Array): number | undefined => {
  if (b.length < 26) return undefined
  const rate = (b[18]! << 12) | (b[19]! << 4) | (b[20]! >> 4)
  const samples = (b[21]! & 0x0f) * 2 ** 32 + u32be(b, 22)
  return rate > 0 && samples > 0 ? samples / rate : undefined
}

/** An Ogg stream's duration: the last page's granule position over the sample rate (48 kHz for Opus, the header's for Vorbis). */
const oggSeconds = (head: Uint8Array, tail: Uint8Array): number | undefined => {
  const rate = ascii(head, 28, 8) === "OpusHead" ? 48000 : ascii(head, 29, 6) === "vorbis" ? u32le(head, 40) : 0
  if (rate <= 0) return undefined
  for (let at = tail.length - 14; at >= 0; at--) {
    if (tail[at] === 0x4f && ascii(tail, at, 4) === "OggS") {
      const granule = u32le(tail, at + 6) + u32le(tail, at + 10) * 2 ** 32
      return granule > 0 ? granule / rate : undefined
    }
  }
  return undefined
}

/** Bytes of a clip's header read for its duration (ID3 tags with cover art come first in MP3s). */
const HEAD_BYTES = 262_144
/** Bytes of a clip's end read for an Ogg stream's last page (a page is at most 65,307 bytes). */
const TAIL_BYTES = 65_536

/** The duration of the audio whose base64 text starts at `start` in `text`, in seconds (as its header shows it, else by its size). */
export const audioSecondsOfBase64 = (text: string, start = 0): number => {
  const total = byteLength(text, start)
  const head = decodeBase64(text, start, HEAD_BYTES)
  let seconds: number | undefined
  const magic = ascii(head, 0, 4)
  if (magic === "RIFF" && ascii(head, 8, 4) === "WAVE") seconds = wavSeconds(head, total)
  else if (magic === "fLaC") seconds = flacSeconds(head)
  else if (magic === "OggS") {
    // the last 64 KB, decoded from a whole number of base64 groups after `start`
    const chars = Math.ceil(TAIL_BYTES / 3) * 4
    const from = text.length - start > chars ? start + Math.floor((text.length - start - chars) / 4) * 4 : start
    seconds = oggSeconds(head, decodeBase64(text, from, TAIL_BYTES + 3))
  } else seconds = mp3Seconds(head, total)
  return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds : total / ASSUMED_AUDIO_BYTES_PER_SECOND
}

/** Durations already read, by source (sources are immutable): a window re-estimates the same messages often. */
const measured = new WeakMap<Block.FileSource, number | null>()

/**
 * The duration in seconds of the audio a file source holds inline (base64
 * data, or a base64 `data:` URL), or `undefined` for one it does not hold.
 */
export const audioSecondsOfSource = (source: Block.FileSource): number | undefined => {
  const known = measured.get(source)
  if (known !== undefined) return known ?? undefined
  let seconds: number | undefined
  switch (source._tag) {
    case "Base64":
      seconds = audioSecondsOfBase64(source.data)
      break
    case "Url": {
      const parts = base64DataUrlParts(source.url)
      seconds = parts === undefined ? undefined : audioSecondsOfBase64(source.url, parts.dataStart)
      break
    }
    case "FileId":
    case "Text":
      seconds = undefined
      break
    default:
      seconds = Block.absurd(source)
  }
  measured.set(source, seconds ?? null)
  return seconds
}

/** Whether a file is audio by its media type. */
export const isAudio = (file: Block.FileBlock): boolean => /^audio\//i.test(file.mediaType)

/** Tokens of `seconds` of audio at `perSecond`, rounded up. */
export const audioTokens = (seconds: number, perSecond: number): number => Math.ceil(seconds * perSecond)
