/**
 * How long a video lasts, read from its container, and what a second costs.
 *
 * Only Gemini takes video, and it bills it by its duration, never by its
 * size in bytes: a frame a second (or the part's `videoMetadata.fps`) at
 * the media resolution's price for a frame, and the sound at audio's 32
 * tokens a second. Counted by its bytes, as opaque data, a 1 MB clip came
 * to about 250,000 tokens where Gemini bills a few thousand. The duration
 * comes from the containers Gemini takes video in: MP4, QuickTime and 3GP
 * (also fragmented), WebM and Matroska (also as browsers record them,
 * without a duration), AVI, FLV, ASF (WMV) and MPEG program and transport
 * streams (see `clip.ts`). Anything else is taken at
 * `ASSUMED_VIDEO_BYTES_PER_SECOND`.
 *
 * Nothing here throws, whatever the input.
 *
 * @internal
 */
import type * as Block from "../Block.js"
import { GEMINI_AUDIO_TOKENS_PER_SECOND } from "./audio.js"
import {
  asfSeconds,
  aviSeconds,
  clipOfBase64,
  flvSeconds,
  isAsf,
  isAvi,
  isFlv,
  isIsoMedia,
  isMatroska,
  isMpegStream,
  isoMediaSeconds,
  matroskaSeconds,
  mpegStreamSeconds,
  plausibleSeconds
} from "./clip.js"
import { geminiGeneration, geminiMediaResolution } from "./imageSize.js"
import { readInlineOnce } from "./inlineData.js"

/**
 * The bytes of a second of video whose duration its container does not
 * show: 31,250 (250 kbit/s, a small screen recording's rate). Most video is
 * denser, so the duration comes out longer than it is, the side a budget
 * can afford.
 */
export const ASSUMED_VIDEO_BYTES_PER_SECOND = 31_250

/** The duration of the video whose base64 text starts at `start` in `text`, in seconds (as its container shows it, else by its size). */
export const videoSecondsOfBase64 = (text: string, start = 0): number => {
  const clip = clipOfBase64(text, start)
  const { head, read, total } = clip
  const seconds = isIsoMedia(head)
    ? isoMediaSeconds(read, total)
    : isMatroska(head)
    ? matroskaSeconds(clip)
    : isAvi(head)
    ? aviSeconds(head)
    : isFlv(head)
    ? flvSeconds(clip)
    : isAsf(head)
    ? asfSeconds(head)
    : isMpegStream(head)
    ? mpegStreamSeconds(clip)
    : undefined
  return plausibleSeconds(seconds, total) ?? total / ASSUMED_VIDEO_BYTES_PER_SECOND
}

/**
 * The duration in seconds of the video a file source holds inline (base64
 * data, or a base64 `data:` URL), or `undefined` for one it does not hold.
 */
export const videoSecondsOfSource: (source: Block.FileSource) => number | undefined = readInlineOnce(videoSecondsOfBase64)

/** Whether a file is video by its media type. */
export const isVideo = (file: Block.FileBlock): boolean => /^\s*video\//i.test(file.mediaType)

/**
 * Gemini's price for a frame of video. Gemini 3 and later: 70 tokens at the
 * low and medium media resolutions, which video is read at unless asked,
 * 280 at high (the Gemini API's media resolution page, "Token counts").
 * Gemini 2.x: 258 a frame, 66 at low resolution (the video understanding
 * guide, "Technical details about videos").
 */
const GEMINI_3_FRAME_TOKENS = { low: 70, medium: 70, high: 280, ultraHigh: 280 } as const
const GEMINI_2_FRAME_TOKENS = 258
const GEMINI_2_LOW_FRAME_TOKENS = 66

/** The frames a second Gemini samples unless the part's `videoMetadata.fps` says otherwise, and the most it takes there (`0 < fps <= 24`). */
const GEMINI_FRAMES_PER_SECOND = 1
const GEMINI_MAX_FRAMES_PER_SECOND = 24

/**
 * What a second of video costs on Gemini: its frames at the media
 * resolution's price, and its sound (32). On Gemini 2.x that is 290 a
 * second at the default resolution (Google's guide rounds it, with
 * timestamps, to about 300) and 98 at low (about 100); on Gemini 3, 102 at
 * the default. For a model id that names no version, the larger of the
 * two. `fps` is the part's own frame rate (`videoMetadata.fps`), if any.
 */
export const geminiVideoTokensPerSecond = (model: string | undefined, resolution: unknown, fps?: number): number => {
  const rate = fps !== undefined && Number.isFinite(fps) && fps > 0 ? Math.min(fps, GEMINI_MAX_FRAMES_PER_SECOND) : GEMINI_FRAMES_PER_SECOND
  const level = geminiMediaResolution(resolution)
  const current = GEMINI_3_FRAME_TOKENS[level ?? "medium"]
  const legacy = level === "low" ? GEMINI_2_LOW_FRAME_TOKENS : GEMINI_2_FRAME_TOKENS
  const generation = geminiGeneration(model)
  const frame = generation === undefined ? Math.max(current, legacy) : generation >= 3 ? current : legacy
  return frame * rate + GEMINI_AUDIO_TOKENS_PER_SECOND
}

/** The most any provider here charges for a second of video at its default resolution: Gemini 2.x's 290. */
export const DEFAULT_VIDEO_TOKENS_PER_SECOND = GEMINI_2_FRAME_TOKENS * GEMINI_FRAMES_PER_SECOND + GEMINI_AUDIO_TOKENS_PER_SECOND

/** Tokens of `seconds` of video at `perSecond`, rounded up. */
export const videoTokens = (seconds: number, perSecond: number): number => Math.ceil(seconds * perSecond)
