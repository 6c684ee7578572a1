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
 * position), AIFF, AAC (in an MP4/M4A container, or raw ADTS frames) and
 * WebM or Matroska audio (see `clip.ts`). Anything else is taken at
 * `ASSUMED_AUDIO_BYTES_PER_SECOND`.
 *
 * Nothing here throws, whatever the input.
 *
 * @internal
 */
import type * as Block from "../Block.js"
import {
  adtsSeconds,
  aiffSeconds,
  ascii,
  clipOfBase64,
  isAdts,
  isAiff,
  findInChunks,
  isIsoMedia,
  isMatroska,
  isoMediaSeconds,
  matroskaSeconds,
  plausibleSeconds,
  type Read,
  u32be,
  u32le
} from "./clip.js"
import { readInlineOnce } from "./inlineData.js"

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

/** A WAV file's duration: its data chunk's size (or what follows it, for a stream that never filled it in) over the byte rate. */
const wavSeconds = (read: Read, total: number): number | undefined => {
  let byteRate = 0
  return findInChunks(read, total, false, 20, (id, h, at) => {
    // a fmt chunk's byte rate comes before the data chunk
    if (id === "fmt " && h.length >= 20) byteRate = u32le(h, 16)
    if (id !== "data" || byteRate <= 0) return undefined
    const size = u32le(h, 4)
    const data = size === 0 || size === 0xffffffff ? total - at - 8 : Math.min(size, total - at - 8)
    return data / byteRate
  })
}

/** Kilobits per second of MPEG-1 and MPEG-2/2.5 Layer III, by bit rate index. */
const MP3_KBPS = [
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
] as const
const MP3_RATES = [44100, 48000, 32000] as const

/** A Layer III frame header at `at` of `b`: its version, sample rate, samples and bytes (without padding), or `undefined` for none. */
const mp3Frame = (b: Uint8Array, at: number) => {
  if (at + 4 > b.length || b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) return undefined
  const version = (b[at + 1]! >> 3) & 3 // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = (b[at + 1]! >> 1) & 3 // 1: Layer III
  const kbps = MP3_KBPS[version === 3 ? 0 : 1][(b[at + 2]! >> 4) & 15]
  const rateIndex = (b[at + 2]! >> 2) & 3
  // a free-format frame (bit rate index 0) shows no bit rate, and no length to check the next frame by
  if (version === 1 || layer !== 1 || kbps === undefined || kbps === 0 || rateIndex === 3) return undefined
  const sampleRate = MP3_RATES[rateIndex]! / (version === 3 ? 1 : version === 2 ? 2 : 4)
  const samplesPerFrame = version === 3 ? 1152 : 576
  const bytes = Math.floor((samplesPerFrame / 8) * kbps * 1000 / sampleRate) + ((b[at + 2]! >> 1) & 1)
  return { version, rateIndex, kbps, sampleRate, samplesPerFrame, bytes, mono: ((b[at + 3]! >> 6) & 3) === 3 }
}

/** Bytes searched for the first frame after the ID3 tags, and read beyond it for a VBR header. */
const MP3_SEARCH = 4_096
const MP3_FRAME_HEAD = 64

/**
 * An MP3's duration: a Xing, Info or VBRI header's frame count when there is
 * one, else the first frame's bit rate over the data. The first frame is a
 * valid Layer III header followed by another of the same stream (or the end
 * of the clip): a sync pattern in other data is passed over.
 */
const mp3Seconds = (read: Read, total: number, base: number): number | undefined => {
  const b = read(base, MP3_SEARCH + MP3_FRAME_HEAD)
  if (b === undefined) return undefined
  for (let at = 0; at < Math.min(MP3_SEARCH, b.length - 4); at++) {
    const frame = mp3Frame(b, at)
    if (frame === undefined) continue
    const next = base + at + frame.bytes
    if (next + 4 <= total) {
      const n = read(next, 4)
      const following = n === undefined ? undefined : mp3Frame(n, 0)
      if (following === undefined || following.version !== frame.version || following.rateIndex !== frame.rateIndex) continue
    }
    // a VBR header in the first frame counts the frames (a count of 0 is one never filled in: a stream written to a pipe)
    const { sampleRate, samplesPerFrame, version, mono } = frame
    const xing = at + 4 + (version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17)
    const tag = ascii(b, xing, 4)
    if ((tag === "Xing" || tag === "Info") && xing + 12 <= b.length && (b[xing + 7]! & 1) === 1 && u32be(b, xing + 8) > 0) {
      return (u32be(b, xing + 8) * samplesPerFrame) / sampleRate
    }
    if (ascii(b, at + 36, 4) === "VBRI" && at + 54 <= b.length && u32be(b, at + 50) > 0) return (u32be(b, at + 50) * samplesPerFrame) / sampleRate
    return ((total - base - at) * 8) / (frame.kbps * 1000)
  }
  return undefined
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
    if (tail[at] === 0x4f && tail[at + 4] === 0 && ascii(tail, at, 4) === "OggS") {
      const low = u32le(tail, at + 6)
      const high = u32le(tail, at + 10)
      // -1: no packet ends on this page (a stream cut short); the page before tells
      if (low === 0xffffffff && high === 0xffffffff) continue
      const granule = low + high * 2 ** 32
      return granule > 0 ? granule / rate : undefined
    }
  }
  return undefined
}

/** Bytes of a clip's end read for an Ogg stream's last page (a page is at most 65,307 bytes). */
const TAIL_BYTES = 65_536

/** Bytes of raw AAC walked frame by frame for its samples per byte. */
const ADTS_WALK = 65_536

/** Where the ID3v2 tags at the start of a clip end (a file may carry more than one): each one's size is four 7-bit bytes, plus a footer when its flags say so. */
const afterId3 = (read: Read): number => {
  let base = 0
  for (let tags = 0; tags < 8; tags++) {
    const h = read(base, 10)
    if (h === undefined || h.length < 10 || ascii(h, 0, 3) !== "ID3") break
    base += 10 + ((h[6]! & 0x7f) << 21 | (h[7]! & 0x7f) << 14 | (h[8]! & 0x7f) << 7 | (h[9]! & 0x7f)) + ((h[5]! & 0x10) !== 0 ? 10 : 0)
  }
  return base
}

/** The duration of the audio whose base64 text starts at `start` in `text`, in seconds (as its header shows it, else by its size). */
export const audioSecondsOfBase64 = (text: string, start = 0): number => {
  const clip = clipOfBase64(text, start)
  const { head, read, total } = clip
  let seconds: number | undefined
  const magic = ascii(head, 0, 4)
  if (magic === "RIFF" && ascii(head, 8, 4) === "WAVE") seconds = wavSeconds(read, total)
  else if (magic === "fLaC") seconds = flacSeconds(head)
  else if (magic === "OggS") seconds = oggSeconds(head, clip.tail(TAIL_BYTES).bytes)
  else if (isAiff(head)) seconds = aiffSeconds(read, total)
  else if (isIsoMedia(head)) seconds = isoMediaSeconds(read, total)
  else if (isMatroska(head)) seconds = matroskaSeconds(clip)
  else {
    const base = afterId3(read)
    const first = read(base, ADTS_WALK)
    seconds = first !== undefined && isAdts(first, 0, total - base) ? adtsSeconds(first, 0, total - base) : mp3Seconds(read, total, base)
  }
  return plausibleSeconds(seconds, total) ?? total / ASSUMED_AUDIO_BYTES_PER_SECOND
}

/**
 * The duration in seconds of the audio a file source holds inline (base64
 * data, or a base64 `data:` URL), or `undefined` for one it does not hold.
 */
export const audioSecondsOfSource: (source: Block.FileSource) => number | undefined = readInlineOnce(audioSecondsOfBase64)

/** Whether a file is audio by its media type. */
export const isAudio = (file: Block.FileBlock): boolean => /^\s*audio\//i.test(file.mediaType)

/** Tokens of `seconds` of audio at `perSecond`, rounded up. */
export const audioTokens = (seconds: number, perSecond: number): number => Math.ceil(seconds * perSecond)
