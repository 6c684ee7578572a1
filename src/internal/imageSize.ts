/**
 * The pixel size of an image given inline as a base64 data URL, read from its
 * header without decoding the image (PNG, JPEG, GIF, WebP), and what OpenAI's,
 * Anthropic's and Gemini's models charge for an image of that size.
 *
 * The header is decoded from the base64 text as far as it is read, line
 * breaks and blanks skipped, so a multi-megabyte image costs the text up to
 * its header, not a decode.
 *
 * @internal
 */
import { absurd } from "effect/Function"
import { gpt5Minor } from "./openAiModels.js"
import type * as Block from "../Block.js"
import { base64Digit, isBlank } from "./base64.js"
import { base64DataUrlParts } from "./dataUrl.js"
import { readInlineOnce } from "./inlineData.js"

/** An image's width and height in pixels. */
export interface ImageSize {
  readonly width: number
  readonly height: number
}

/** A character that is not a base64 digit of either alphabet. */
const NOT_DIGIT = /[^\w+/-]/

/**
 * The bytes of base64 text from `from` (standard or URL-safe alphabet), decoded as far as they are read and no
 * further: the blanks decoders skip (a line break before the payload, lines of any length, as MIME and PEM wrap
 * it) are skipped, and the bytes end at the text's end or at any other character. Reads go forward (the last 64
 * bytes read are kept): a run of digits far before the byte asked for is passed over four digits (three bytes)
 * at a time without decoding them, so a JPEG's frame header 16 MB in costs a search of the text, not a decode.
 */
const base64Bytes = (text: string, from: number) => {
  const kept = new Uint8Array(64)
  let length = 0
  // the first byte whose value is kept: bytes passed over are not
  let first = 0
  let next = from
  let acc = 0
  let bits = 0
  // where to look for a run of digits to pass over next: after one too short to, 256 characters on (lines of a few digits)
  let retry = 0
  const at = (i: number): number | undefined => {
    while (length <= i && next < text.length) {
      const c = text.charCodeAt(next)
      const v = base64Digit(c)
      if (v >= 0 && bits === 0 && next >= retry && i - length > 192) {
        // whole groups of digits up to 64 bytes before byte i, or up to the next character that is not a digit
        const end = Math.min(text.length, next + 4 * Math.floor((i - length - 64) / 3))
        const stop = text.slice(next, end).search(NOT_DIGIT)
        const groups = ((stop === -1 ? end : next + stop) - next) >> 2
        if (groups > 0) {
          next += 4 * groups
          first = length += 3 * groups
          continue
        }
        retry = next + 256
      }
      if (v < 0 && !isBlank(c)) break
      next++
      if (v < 0) continue
      acc = ((acc << 6) | v) & 0xffffff
      bits += 6
      if (bits >= 8) {
        bits -= 8
        kept[length++ & 63] = (acc >> bits) & 0xff
      }
    }
    return i >= first && i < length && i >= length - 64 ? kept[i & 63] : undefined
  }
  const u16be = (i: number) => {
    const a = at(i)
    const b = at(i + 1)
    return a === undefined || b === undefined ? undefined : (a << 8) | b
  }
  const u16le = (i: number) => {
    const a = at(i)
    const b = at(i + 1)
    return a === undefined || b === undefined ? undefined : a | (b << 8)
  }
  const u24le = (i: number) => {
    const lo = u16le(i)
    const hi = at(i + 2)
    return lo === undefined || hi === undefined ? undefined : lo | (hi << 16)
  }
  const u32be = (i: number) => {
    const hi = u16be(i)
    const lo = u16be(i + 2)
    return hi === undefined || lo === undefined ? undefined : hi * 0x10000 + lo
  }
  const ascii = (i: number, n: number) => {
    let s = ""
    for (let k = 0; k < n; k++) {
      const c = at(i + k)
      if (c === undefined) return undefined
      s += String.fromCharCode(c)
    }
    return s
  }
  return { at, u16be, u16le, u24le, u32be, ascii }
}

/** At most this many JPEG segments are skipped looking for the frame header (EXIF and ICC segments come first). */
const MAX_JPEG_SEGMENTS = 256

const sized = (width: number | undefined, height: number | undefined): ImageSize | undefined =>
  width !== undefined && height !== undefined && width > 0 && height > 0 ? { width, height } : undefined

/**
 * The size of the image in a `data:` URL with base64 content, or `undefined`
 * when the URL is not one, the format is not PNG, JPEG, GIF or WebP, or the
 * header is damaged. Never throws.
 */
export const imageSizeOfDataUrl = (url: string): ImageSize | undefined => {
  const parts = base64DataUrlParts(url)
  return parts === undefined ? undefined : imageSizeOfBase64(url, parts.dataStart)
}

/** The image format the first bytes show: PNG, GIF, WebP or JPEG. */
const formatOf = (b: ReturnType<typeof base64Bytes>): "png" | "gif" | "webp" | "jpeg" | undefined =>
  b.at(0) === 0x89 && b.ascii(1, 3) === "PNG"
    ? "png"
    : b.ascii(0, 3) === "GIF"
    ? "gif"
    : b.ascii(0, 4) === "RIFF" && b.ascii(8, 4) === "WEBP"
    ? "webp"
    : b.at(0) === 0xff && b.at(1) === 0xd8
    ? "jpeg"
    : undefined

/**
 * The media type of the PNG, JPEG, GIF or WebP image whose base64 text
 * starts at `start` in `text`, read from its first bytes, or `undefined`.
 */
export const imageTypeOfBase64 = (text: string, start = 0): string | undefined => {
  const format = formatOf(base64Bytes(text, start))
  return format === undefined ? undefined : `image/${format}`
}

/** The size of the image whose base64 text starts at `start` in `text` (see `imageSizeOfDataUrl`). */
export const imageSizeOfBase64 = (text: string, start = 0): ImageSize | undefined => {
  const b = base64Bytes(text, start)
  switch (formatOf(b)) {
    case "png":
      // the IHDR chunk's width and height
      return sized(b.u32be(16), b.u32be(20))
    case "gif":
      // the logical screen
      return sized(b.u16le(6), b.u16le(8))
    case "webp":
      // lossy, lossless or extended
      switch (b.ascii(12, 4)) {
        case "VP8X": {
          const w = b.u24le(24)
          const h = b.u24le(27)
          return sized(w === undefined ? undefined : w + 1, h === undefined ? undefined : h + 1)
        }
        case "VP8 ": {
          const w = b.u16le(26)
          const h = b.u16le(28)
          return sized(w === undefined ? undefined : w & 0x3fff, h === undefined ? undefined : h & 0x3fff)
        }
        case "VP8L": {
          const lo = b.u16le(21)
          const hi = b.u16le(23)
          if (lo === undefined || hi === undefined) return undefined
          const bits = lo + hi * 0x10000
          return sized(1 + (bits & 0x3fff), 1 + (Math.floor(bits / 0x4000) & 0x3fff))
        }
        default:
          return undefined
      }
    case "jpeg":
      return jpegSize(b)
    case undefined:
      return undefined
  }
}

/**
 * The size of the image a file source holds, when the request shows it:
 * inline base64 data, or a `data:` URL (any case of "data:"), read once per
 * source (a window estimates the same messages again and again). `undefined`
 * for a URL, a file id or text.
 */
export const imageSizeOfSource: (source: Block.FileSource) => ImageSize | undefined = /* @__PURE__ */ readInlineOnce(imageSizeOfBase64)

/** A JPEG's size, from its first start-of-frame segment. */
const jpegSize = (b: ReturnType<typeof base64Bytes>): ImageSize | undefined => {
  let i = 2
  for (let segments = 0; segments < MAX_JPEG_SEGMENTS; segments++) {
    if (b.at(i) !== 0xff) return undefined
    const marker = b.at(i + 1)
    if (marker === undefined) return undefined
    if (marker === 0xff) {
      i++ // fill byte
      continue
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized(b.u16be(i + 7), b.u16be(i + 5))
    }
    const length = b.u16be(i + 2)
    if (length === undefined || length < 2) return undefined
    i += 2 + length
  }
  return undefined
}

// ---------------------------------------------------------------------------
// OpenAI's image pricing
// ---------------------------------------------------------------------------

/**
 * How a model prices an image: by 512-pixel tiles of the scaled image, or by
 * 32-pixel patches, at most `budget` of them (`originalBudget` at `detail:
 * "original"`, for the models that take it).
 */
type ImagePricing =
  | { readonly _tag: "Tiles"; readonly base: number; readonly perTile: number }
  | { readonly _tag: "Patches"; readonly multiplier: number; readonly budget: number; readonly originalBudget?: number }

/** The patch budget OpenAI documents for the models priced by patches before GPT-5.4, and its mini and nano models. */
const PATCH_BUDGET = 1536
/** GPT-5.4's larger budget, which its mini and nano models do not have. */
const PATCH_BUDGET_GPT54 = 2500
/** The budget of `detail: "original"` (GPT-5.4 on), which keeps the image as it is up to 10,000 patches. */
const PATCH_BUDGET_ORIGINAL = 10_000

const patches = (multiplier: number, budget = PATCH_BUDGET, originalBudget?: number): ImagePricing =>
  originalBudget === undefined ? { _tag: "Patches", multiplier, budget } : { _tag: "Patches", multiplier, budget, originalBudget }

/**
 * The image pricing of an OpenAI model, from OpenAI's documented figures and
 * checked against figures the API reported (2025–26 recordings: gpt-4o,
 * gpt-4o-mini, gpt-4.1-mini, gpt-4.1-nano, o4-mini, gpt-5, gpt-5-mini,
 * gpt-5-nano, gpt-5.4, gpt-5.4-nano, gpt-5.6; the multipliers of gpt-5-mini,
 * gpt-5-nano and GPT-5.2 on are the billed ones, which the guide's table does
 * not give).
 *
 * GPT-5.2 and later price images by patches, the full models too: a 60×30
 * image sent to gpt-5.4 was billed 4 tokens (2 patches at 1.2, and the one
 * token every recorded patch figure has), where tiles would be 210. Their
 * mini and nano models are billed at 1.2 as well (API measurements published
 * on OpenAI's forum, and a 512×512 image recorded on gpt-5.4-nano, which 1.5
 * would put 68 to 72 tokens over; gpt-5-nano stays at 1.5). GPT-5.4 and later take up to
 * 2,500 patches, 10,000 at `detail: "original"`; their mini and nano models
 * and GPT-5.2 and 5.3 take 1,536. GPT-5.1 is still priced by tiles.
 * `undefined` for a model whose pricing is not known.
 */
const pricingOf = (model: string): ImagePricing | undefined => {
  if (/^gpt-4\.1-mini/.test(model)) return patches(1.62)
  if (/^gpt-4\.1-nano/.test(model)) return patches(2.46)
  if (/^o4-mini/.test(model)) return patches(1.72)
  if (/^gpt-5-mini/.test(model)) return patches(1.2)
  if (/^gpt-5-nano/.test(model)) return patches(1.5)
  // GPT-5.2 on, their mini and nano models among them
  const minor = gpt5Minor(model) ?? 0
  if (minor >= 2) return minor >= 4 && !/^gpt-5\.\d+-(mini|nano)/.test(model) ? patches(1.2, PATCH_BUDGET_GPT54, PATCH_BUDGET_ORIGINAL) : patches(1.2)
  if (/^gpt-4o-mini/.test(model)) return { _tag: "Tiles", base: 2833, perTile: 5667 }
  if (/^gpt-5/.test(model)) return { _tag: "Tiles", base: 70, perTile: 140 }
  if (/^(o1|o3)(?!-mini)/.test(model)) return { _tag: "Tiles", base: 75, perTile: 150 }
  if (/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo|gpt-4-vision)/.test(model)) return { _tag: "Tiles", base: 85, perTile: 170 }
  return undefined
}

/** The 512-pixel tiles of an image scaled to fit 2048×2048, then to a shortest side of at most 768. */
const tilesOf = ({ width, height }: ImageSize): number => {
  let w = width
  let h = height
  const fit = Math.min(1, 2048 / Math.max(w, h))
  w *= fit
  h *= fit
  const shortest = Math.min(1, 768 / Math.min(w, h))
  w *= shortest
  h *= shortest
  return Math.ceil(w / 512) * Math.ceil(h / 512)
}

/** The 32-pixel patches of an image, scaled down to at most `budget` patches the way OpenAI documents it. */
const patchesOf = ({ width, height }: ImageSize, budget: number): number => {
  const count = Math.ceil(width / 32) * Math.ceil(height / 32)
  if (count <= budget) return count
  const shrink = Math.sqrt((budget * 32 * 32) / (width * height))
  let w = width * shrink
  let h = height * shrink
  // then shrink again so that a whole number of patches fits the width, and the height with it
  const fitWidth = Math.floor(w / 32) / (w / 32)
  w *= fitWidth
  h *= fitWidth
  return Math.min(budget, Math.ceil(w / 32) * Math.ceil(h / 32))
}

/**
 * The prompt tokens an OpenAI model charges for an image of a known size, or
 * `undefined` when the model's pricing is not known. `detail: "low"` costs a
 * tile-priced image its base alone; a patch-priced one costs the same at any
 * detail but `"original"`, which takes the model's larger budget when it has
 * one. Patch-priced images cost one token more than patches × multiplier
 * (rounded up), as every recorded figure shows.
 */
export const openAiImageTokens = (model: string, size: ImageSize, detail: unknown): number | undefined => {
  const pricing = pricingOf(model)
  if (pricing === undefined) return undefined
  switch (pricing._tag) {
    case "Tiles":
      return detail === "low" ? pricing.base : pricing.base + pricing.perTile * tilesOf(size)
    case "Patches": {
      const budget = detail === "original" ? pricing.originalBudget ?? pricing.budget : pricing.budget
      return Math.ceil(patchesOf(size, budget) * pricing.multiplier) + 1
    }
    default:
      return absurd(pricing)
  }
}

// ---------------------------------------------------------------------------
// an image whose size is not known
// ---------------------------------------------------------------------------

/**
 * What OpenAI charges for any image at `detail: "low"` on the 85 + 170 per
 * tile models (gpt-4o, gpt-4.1, gpt-4-turbo): the base alone, whatever its
 * size (OpenAI's vision guide, "Calculating costs").
 */
export const LOW_DETAIL_IMAGE_TOKENS = 85

/**
 * The size taken for an image whose size the request does not show (one
 * given by URL or file id, or inline data whose header cannot be read):
 * 1024×1024, the guide's own worked example, 765 tokens at `high` on those
 * models (85 + 4 tiles × 170).
 */
export const ASSUMED_IMAGE_SIZE: ImageSize = { width: 1024, height: 1024 }

/** `ASSUMED_IMAGE_SIZE` at `high` or `auto` detail on the 85 + 170 per tile models. */
export const UNKNOWN_SIZE_IMAGE_TOKENS = 765

/**
 * What an image costs when its size, its model or the model's pricing is not
 * known: 85 tokens at `detail: "low"`, else 765. `auto` (the API's default)
 * may pick `high`, so an unknown size at `auto` is priced as at `high`: a
 * budget must not take the cheaper reading. Larger or wider images cost more
 * (up to 8 tiles, 1,445 tokens, on those models); 765 is the guide's typical
 * image, not a bound.
 */
const imageTokensWithoutSize = (detail: unknown): number =>
  detail === "low" ? LOW_DETAIL_IMAGE_TOKENS : UNKNOWN_SIZE_IMAGE_TOKENS

/**
 * What an image costs when no model is known: at its size, when the request
 * shows it (inline data), what gpt-4o charges for that size and detail (the
 * estimator's default family, o200k); else `imageTokensWithoutSize`. A
 * request count for gpt-4o or gpt-4.1 gives the same figure, so a window and
 * that count agree on it.
 */
export const imageTokensOfSize = (size: ImageSize | undefined, detail: unknown): number =>
  (size === undefined ? undefined : openAiImageTokens("gpt-4o", size, detail)) ?? imageTokensWithoutSize(detail)

/**
 * The prompt tokens of an image part in an OpenAI request: the model's price
 * for the image's size when both are known (exact on every recorded
 * request); without the size, the model's price for `ASSUMED_IMAGE_SIZE`,
 * never less than `imageTokensWithoutSize` (what the estimator charges any
 * image), so that a window, which never counts a message for less than the
 * estimator does, and the request count agree on it; without the model or
 * its pricing, `imageTokensOfSize` (gpt-4o's price for the size, else 765 or 85).
 */
export const openAiImagePartTokens = (model: string | undefined, size: ImageSize | undefined, detail: unknown): number => {
  const fallback = imageTokensOfSize(size, detail)
  if (model === undefined) return fallback
  if (size !== undefined) return openAiImageTokens(model, size, detail) ?? fallback
  return Math.max(fallback, openAiImageTokens(model, ASSUMED_IMAGE_SIZE, detail) ?? 0)
}

// ---------------------------------------------------------------------------
// Anthropic's image pricing
// ---------------------------------------------------------------------------

/** Pixels per token of an image on Claude. */
const ANTHROPIC_PIXELS_PER_TOKEN = 750
/**
 * The side of the square patch Claude reads an image in, one token each: the
 * vision guide's current wording counts ⌈width / 28⌉ × ⌈height / 28⌉ tokens,
 * the image padded on the right and bottom to a multiple of 28. For a small
 * or narrow image that is more than area / 750 (200×200: 64 against 54).
 */
const ANTHROPIC_PATCH = 28

/** The largest image a Claude model reads without scaling it down: its long edge, and its cost in tokens. */
interface AnthropicImageLimits {
  readonly longEdge: number
  readonly maxTokens: number
}

/**
 * Claude 3 and 4 up to Opus 4.6, Sonnet and Haiku 4.x: an image whose long
 * edge is over 1,568 pixels, or that would cost over about 1,600 tokens, is
 * first scaled down with its aspect ratio kept (Anthropic's vision guide,
 * "Evaluate image size", https://platform.claude.com/docs/en/build-with-claude/vision:
 * 1092×1092 ≈ 1,590 tokens is the largest square it keeps).
 */
const ANTHROPIC_STANDARD_LIMITS: AnthropicImageLimits = { longEdge: 1568, maxTokens: 1600 }

/**
 * Opus 4.7 and later read images up to 2,576 pixels on the long edge and
 * about 3.75 megapixels (5,000 tokens at 750 pixels a token): the vision
 * guide now gives the largest native resolution per model, and Anthropic's
 * Opus 4.7 announcement (April 2026) gives these figures.
 */
const ANTHROPIC_HIGH_RESOLUTION_LIMITS: AnthropicImageLimits = { longEdge: 2576, maxTokens: 5000 }

const anthropicLimits = (highResolution: boolean): AnthropicImageLimits =>
  highResolution ? ANTHROPIC_HIGH_RESOLUTION_LIMITS : ANTHROPIC_STANDARD_LIMITS

/**
 * The input tokens Claude charges for an image of a known size, after an
 * image over the model's limits is scaled down to fit them with its aspect
 * ratio kept: width × height / 750, rounded up (Anthropic's vision guide,
 * "Calculate image costs": 1000×1000 ≈ 1,334, 1092×1092 ≈ 1,590), or its
 * 28-pixel patches when they are more (`ANTHROPIC_PATCH`: 200×200 is 64
 * where the area gives 54). `highResolution` for the models that read
 * larger images (Opus 4.7 and later).
 */
export const anthropicImageTokens = (size: ImageSize, highResolution = false): number => {
  const limits = anthropicLimits(highResolution)
  let w = size.width
  let h = size.height
  const edge = Math.min(1, limits.longEdge / Math.max(w, h))
  w *= edge
  h *= edge
  const area = Math.min(1, Math.sqrt((limits.maxTokens * ANTHROPIC_PIXELS_PER_TOKEN) / (w * h)))
  // a scaled image has whole pixels, at least one each way
  if (edge < 1 || area < 1) {
    w = Math.max(1, Math.floor(w * area))
    h = Math.max(1, Math.floor(h * area))
  }
  // the larger of the two rules the guide has given: area / 750, and 28-pixel patches of the image padded to them
  const patches = Math.ceil(w / ANTHROPIC_PATCH) * Math.ceil(h / ANTHROPIC_PATCH)
  return Math.min(limits.maxTokens, Math.max(Math.ceil((w * h) / ANTHROPIC_PIXELS_PER_TOKEN), patches))
}

/**
 * What Claude may charge for an image whose size the request does not show
 * (a URL or a file id): the most any image costs on that model, a full-size
 * one (1,600 tokens; 5,000 on Opus 4.7 and later). Any image is scaled to
 * fit, so this is a bound, not a guess: a window that takes it never
 * under-counts an image, where OpenAI's 765 would under-count anything
 * larger than about 760×760 pixels.
 */
export const anthropicUnknownSizeImageTokens = (highResolution = false): number => anthropicLimits(highResolution).maxTokens

// ---------------------------------------------------------------------------
// Gemini's image pricing
// ---------------------------------------------------------------------------

/**
 * The tokens Gemini 3 and later charge for an image at each media
 * resolution; an image without one (in the part or the request's
 * `generationConfig`) is read at high. The size of the image does not
 * change it. Source: the Gemini API's media resolution page, "Token
 * counts" (https://ai.google.dev/gemini-api/docs/media-resolution). On the
 * five recorded gemini-3-flash-preview requests with inline images
 * (597×566 and 400×301; test/data/gemini-usage), the reported prompt is
 * 1,080 to 1,211 tokens per image over the rest of the estimate.
 */
const GEMINI_3_IMAGE_TOKENS = { low: 280, medium: 560, high: 1120, ultraHigh: 2240 } as const

/**
 * Gemini 2.x and earlier: an image with both sides at most 384 pixels costs
 * 258 tokens; a larger one is cropped and scaled into 768×768 tiles of 258
 * tokens each (the Gemini API's token counting guide,
 * https://ai.google.dev/gemini-api/docs/tokens, "Multimodal tokens").
 */
const GEMINI_TILE_TOKENS = 258
const GEMINI_SMALL_IMAGE_EDGE = 384
const GEMINI_TILE_EDGE = 768

/** The media resolution a part or a request asks for, as Gemini 3 prices it; `undefined` when none is given or it is not one Gemini names. */
export const geminiMediaResolution = (value: unknown): keyof typeof GEMINI_3_IMAGE_TOKENS | undefined => {
  // per part it is `{ level: "MEDIA_RESOLUTION_HIGH" }`, per request the bare value; the API takes enum names in any
  // case, and Google's own Gemini 3 guide writes them in lower case
  const level = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { readonly level?: unknown }).level : value
  switch (typeof level === "string" ? level.toUpperCase() : level) {
    case "MEDIA_RESOLUTION_LOW":
      return "low"
    case "MEDIA_RESOLUTION_MEDIUM":
      return "medium"
    case "MEDIA_RESOLUTION_HIGH":
      return "high"
    case "MEDIA_RESOLUTION_ULTRA_HIGH":
      return "ultraHigh"
    default:
      return undefined
  }
}

/**
 * The per-part media resolution level an image's `detail` asks Gemini for:
 * `low` and `high` name theirs, `original` (the image as it is) the highest,
 * ultra-high; `auto` (the model chooses) and no detail name none, which is
 * Gemini's default.
 */
export const geminiLevelOfDetail = (
  detail: Block.ImageDetail | undefined
): "MEDIA_RESOLUTION_LOW" | "MEDIA_RESOLUTION_HIGH" | "MEDIA_RESOLUTION_ULTRA_HIGH" | undefined => {
  switch (detail) {
    case "low":
      return "MEDIA_RESOLUTION_LOW"
    case "high":
      return "MEDIA_RESOLUTION_HIGH"
    case "original":
      return "MEDIA_RESOLUTION_ULTRA_HIGH"
    case "auto":
    case undefined:
      return undefined
    default:
      return absurd(detail)
  }
}

/**
 * Whether the Gemini writer sends a content's file its `detail` as the part's
 * media resolution, for a request to `model`: Gemini 3 and later take one,
 * earlier models reject it ("Per part media resolution is not supported for
 * this Model"); for a model that names no version, or none named, only a
 * detail read from a part's own media resolution (`readFromPart`) goes back.
 * The writer and the request estimate both ask it, so they read one part.
 */
export const geminiSendsPartResolution = (model: string | undefined, readFromPart: boolean): boolean => {
  const generation = geminiGeneration(model)
  return generation === undefined ? readFromPart : generation >= 3
}

/** The major version of a Gemini model id (`gemini-2.5-flash`: 2), or `undefined` when the id names none. */
export const geminiGeneration = (model: string | undefined): number | undefined => {
  const major = model === undefined ? undefined : /gemini-(\d+)/.exec(model.toLowerCase())?.[1]
  return major === undefined ? undefined : Number(major)
}

/** Gemini 2.x's price: 258 for a small image, else 258 per 768×768 tile; an unknown size as `ASSUMED_IMAGE_SIZE` (4 tiles, 1,032). */
const geminiTiledImageTokens = (size: ImageSize | undefined): number => {
  const { width, height } = size ?? ASSUMED_IMAGE_SIZE
  if (width <= GEMINI_SMALL_IMAGE_EDGE && height <= GEMINI_SMALL_IMAGE_EDGE) return GEMINI_TILE_TOKENS
  return GEMINI_TILE_TOKENS * Math.ceil(width / GEMINI_TILE_EDGE) * Math.ceil(height / GEMINI_TILE_EDGE)
}

/**
 * The input tokens a Gemini model charges for an image: on Gemini 3 and
 * later the media resolution's figure whatever the size (1,120 at the
 * default, high); before, 258 per 768×768 tile (258 for an image within
 * 384×384), an image whose size the request does not show taken as
 * 1024×1024 (1,032). For a model id that names no version, the larger of
 * the two, so that an estimate does not count less than either family bills.
 * `resolution` is the part's or the request's media resolution (see
 * `geminiMediaResolution`); Gemini 2.x's request-wide setting is not
 * modelled (it only lowers the figure).
 */
export const geminiImageTokens = (size: ImageSize | undefined, model: string | undefined, resolution: unknown): number => {
  const generation = geminiGeneration(model)
  const current = GEMINI_3_IMAGE_TOKENS[geminiMediaResolution(resolution) ?? "high"]
  if (generation === undefined) return Math.max(current, geminiTiledImageTokens(size))
  return generation >= 3 ? current : geminiTiledImageTokens(size)
}
