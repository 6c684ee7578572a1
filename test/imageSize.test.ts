import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { readFileSync } from "node:fs"
import {
  anthropicImageTokens,
  anthropicUnknownSizeImageTokens,
  geminiImageTokens,
  geminiMediaResolution,
  imageSizeOfDataUrl,
  imageSizeOfBase64,
  imageSizeOfSource,
  imageTypeOfBase64,
  openAiImageTokens
} from "../src/internal/imageSize.js"
import { countOpenAiChatRequest, makeExact } from "../src/exact/index.js"
import { OpenAiResponses } from "../src/providers/index.js"
import { intBetween } from "./arbitraries.js"

const dataUrl = (mediaType: string, bytes: ReadonlyArray<number>) => `data:${mediaType};base64,${Buffer.from(bytes).toString("base64")}`

const u16be = (n: number) => [(n >> 8) & 0xff, n & 0xff]
const u16le = (n: number) => [n & 0xff, (n >> 8) & 0xff]
const u24le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff]
const u32be = (n: number) => [...u16be(Math.floor(n / 0x10000)), ...u16be(n & 0xffff)]
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))

const png = (w: number, h: number) => [0x89, ...ascii("PNG\r\n\x1a\n"), ...u32be(13), ...ascii("IHDR"), ...u32be(w), ...u32be(h), 8, 6, 0, 0, 0]
const gif = (w: number, h: number) => [...ascii("GIF89a"), ...u16le(w), ...u16le(h), 0, 0, 0]
const webpExtended = (w: number, h: number) => [...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WEBPVP8X"), 10, 0, 0, 0, 0, 0, 0, 0, ...u24le(w - 1), ...u24le(h - 1)]
const webpLossless = (w: number, h: number) => {
  const bits = (w - 1) | ((h - 1) << 14)
  return [...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WEBPVP8L"), 0, 0, 0, 0, 0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff]
}
// SOI, an APP1 segment to skip, a fill byte, then a baseline frame header
const jpeg = (w: number, h: number) => [0xff, 0xd8, 0xff, 0xe1, ...u16be(6), 1, 2, 3, 4, 0xff, 0xff, 0xc0, ...u16be(17), 8, ...u16be(h), ...u16be(w), 3]

describe("imageSizeOfDataUrl", () => {
  it("reads the pixel size from PNG, GIF, WebP and JPEG headers", () => {
    expect(imageSizeOfDataUrl(dataUrl("image/png", png(640, 480)))).toEqual({ width: 640, height: 480 })
    expect(imageSizeOfDataUrl(dataUrl("image/gif", gif(300, 20)))).toEqual({ width: 300, height: 20 })
    expect(imageSizeOfDataUrl(dataUrl("image/webp", webpExtended(4000, 3000)))).toEqual({ width: 4000, height: 3000 })
    expect(imageSizeOfDataUrl(dataUrl("image/webp", webpLossless(1024, 768)))).toEqual({ width: 1024, height: 768 })
    expect(imageSizeOfDataUrl(dataUrl("image/jpeg", jpeg(597, 566)))).toEqual({ width: 597, height: 566 })
  })

  it("reads base64 in the URL-safe alphabet too", () => {
    const url = `data:image/png;base64,${Buffer.from(png(70000, 3)).toString("base64url")}`
    expect(imageSizeOfDataUrl(url)).toEqual({ width: 70000, height: 3 })
  })

  it("reads a payload that starts with a line break or blanks after the comma as one that does not", () => {
    const data = Buffer.from(png(70000, 3)).toString("base64")
    for (const lead of ["\n", "\n ", "\r\n", "\t "]) {
      expect(imageSizeOfDataUrl(`data:image/png;base64,${lead}${data}`), JSON.stringify(lead)).toEqual({ width: 70000, height: 3 })
      expect(imageSizeOfSource({ _tag: "Base64", data: `${lead}${data}` }), JSON.stringify(lead)).toEqual({ width: 70000, height: 3 })
    }
  })

  it("answers undefined for a URL that is not inline base64, an unknown format or a damaged header", () => {
    expect(imageSizeOfDataUrl("https://example.com/cat.png")).toBeUndefined()
    expect(imageSizeOfDataUrl("data:image/png,not-base64")).toBeUndefined()
    expect(imageSizeOfDataUrl(dataUrl("image/bmp", ascii("BM0000000000000000")))).toBeUndefined()
    expect(imageSizeOfDataUrl(dataUrl("image/png", png(0, 480)))).toBeUndefined()
    expect(imageSizeOfDataUrl(dataUrl("image/jpeg", [0xff, 0xd8, 0x00, 0x00]))).toBeUndefined()
    expect(imageSizeOfDataUrl("data:image/png;base64,iVBO!!!!")).toBeUndefined()
  })

  it.prop(
    "never throws, and a cut header gives the whole size or nothing",
    { text: Arbitrary.schema(Schema.String), cut: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 60 }))) },
    ({ cut, text }) => {
      expect(() => imageSizeOfDataUrl(`data:image/png;base64,${text}`)).not.toThrow()
      for (const bytes of [png(123, 45), gif(123, 45), webpExtended(123, 45), jpeg(123, 45)]) {
        const size = imageSizeOfDataUrl(dataUrl("image/x", bytes.slice(0, cut)))
        if (size !== undefined) expect(size).toEqual({ width: 123, height: 45 })
      }
    }
  )
})

/** A 96x64 JPEG FFmpeg wrote (test/data/media/README.md): its frame header is 262 bytes in, past its tables. */
const photo = readFileSync(new URL("./data/media/image.jpg", import.meta.url)).toString("base64")
/** Base64 text in lines of `line` digits, each followed by `sep`, as MIME (76 and CRLF) and PEM (64) write it. */
const wrap = (text: string, line: number, sep: string) => text.replace(new RegExp(`.{1,${line}}`, "g"), `$&${sep}`)
/** A JPEG whose frame header follows `segments` application segments of `size` bytes each (EXIF, ICC profiles). */
const jpegAfter = (segments: number, size: number, w: number, h: number) => [
  0xff,
  0xd8,
  ...Array.from({ length: segments }, (_, k) => [0xff, 0xe0 + (k % 16), ...u16be(size + 2), ...new Array<number>(size).fill(k & 0xff)]).flat(),
  0xff,
  0xc2,
  ...u16be(17),
  8,
  ...u16be(h),
  ...u16be(w),
  3
]

describe("base64 wrapped in lines", () => {
  it("reads a JPEG whose frame header lies past the first line as it reads it unwrapped", () => {
    expect(imageSizeOfBase64(photo)).toEqual({ width: 96, height: 64 })
    for (const [line, sep] of [[76, "\n"], [76, "\r\n"], [64, "\n"], [64, "\r\n"]] as const) {
      const wrapped = wrap(photo, line, sep)
      expect(imageSizeOfBase64(wrapped), `${line} ${JSON.stringify(sep)}`).toEqual({ width: 96, height: 64 })
      expect(imageSizeOfSource({ _tag: "Base64", data: wrapped })).toEqual({ width: 96, height: 64 })
      expect(imageSizeOfDataUrl(`data:image/jpeg;base64,${wrapped}`)).toEqual({ width: 96, height: 64 })
      expect(imageSizeOfSource({ _tag: "Url", url: `data:image/jpeg;base64,\n${wrapped}` })).toEqual({ width: 96, height: 64 })
    }
  })

  /** Base64 of each format the reader knows, with its size. */
  const samples = (): ReadonlyArray<readonly [string, { readonly width: number; readonly height: number }]> => [
    [Buffer.from(png(640, 480)).toString("base64"), { width: 640, height: 480 }],
    [Buffer.from(gif(300, 20)).toString("base64"), { width: 300, height: 20 }],
    [Buffer.from(webpExtended(4000, 3000)).toString("base64"), { width: 4000, height: 3000 }],
    [Buffer.from(webpLossless(1024, 768)).toString("base64"), { width: 1024, height: 768 }],
    [Buffer.from(jpeg(597, 566)).toString("base64"), { width: 597, height: 566 }],
    [Buffer.from(jpegAfter(3, 200, 1234, 987)).toString("base64url"), { width: 1234, height: 987 }],
    [photo, { width: 96, height: 64 }]
  ]

  it.prop(
    "reads every format it knows from lines of any length and any blanks between them as from plain base64",
    {
      format: intBetween(0, 6),
      line: intBetween(1, 120),
      sep: Arbitrary.schema(Schema.Literals(["\n", "\r\n", " ", "\t", "\r\n ", "\f"])),
      lead: Arbitrary.schema(Schema.Literals(["", "\n", " \r\n"]))
    },
    ({ format, lead, line, sep }) => {
      const [plain, size] = samples()[format]!
      expect(imageSizeOfBase64(plain)).toEqual(size)
      const wrapped = lead + wrap(plain, line, sep)
      expect(imageSizeOfBase64(wrapped)).toEqual(size)
      expect(imageTypeOfBase64(wrapped)).toBe(imageTypeOfBase64(plain))
    }
  )

  it.prop(
    "reads the same size, or none, whatever blanks are put anywhere in the text",
    {
      format: intBetween(0, 6),
      blanks: Arbitrary.schema(Schema.Array(Schema.Tuple([Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 4_000 })), Schema.Literals(["\n", "\r\n", " ", "\t"])])))
    },
    ({ blanks, format }) => {
      const [plain, size] = samples()[format]!
      let text = plain
      for (const [at, blank] of blanks) text = text.slice(0, at) + blank + text.slice(at)
      expect(imageSizeOfBase64(text)).toEqual(size)
    }
  )

  it.prop(
    "finds a JPEG's frame header past segments of any size, plain, wrapped or with blanks anywhere (the reader passes over long runs of digits undecoded)",
    {
      sizes: Arbitrary.schema(Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 65_533 })))),
      line: intBetween(1, 200),
      blanks: Arbitrary.schema(Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 400_000 }))))
    },
    ({ blanks, line, sizes }) => {
      const segments = sizes.slice(0, 6).flatMap((size, k) => [0xff, 0xe1, ...u16be(size + 2), ...new Array<number>(size).fill(k)])
      const plain = Buffer.from([...jpegAfter(0, 0, 1234, 987).slice(0, 2), ...segments, ...jpegAfter(0, 0, 1234, 987).slice(2)]).toString("base64")
      const size = { width: 1234, height: 987 }
      expect(imageSizeOfBase64(plain)).toEqual(size)
      expect(imageSizeOfBase64(wrap(plain, line, "\r\n"))).toEqual(size)
      let text = plain
      for (const at of blanks) text = `${text.slice(0, at)}\n${text.slice(at)}`
      expect(imageSizeOfBase64(text)).toEqual(size)
    },
    { timeout: 300_000 }
  )

  it("reads past 50 MB of line breaks and a JPEG of many segments in lines of one digit (npm run bench times such inputs)", () => {
    expect(imageSizeOfBase64(`/9j/4AAQ${"\n".repeat(50_000_000)}`)).toBeUndefined()
    const segments = Buffer.from(jpegAfter(255, 2_000, 30, 20)).toString("base64")
    expect(imageSizeOfBase64(wrap(segments, 1, "\r\n"))).toEqual({ width: 30, height: 20 })
    expect(imageSizeOfBase64(wrap(segments, 1, "\n".repeat(20)))).toEqual({ width: 30, height: 20 })
  }, 300_000)
})

describe("openAiImageTokens", () => {
  it("prices tiles as OpenAI documents them: the image scaled into 2048x2048, then to a shortest side of 768", () => {
    expect(openAiImageTokens("gpt-4o", { width: 1024, height: 1024 }, "high")).toBe(765)
    expect(openAiImageTokens("gpt-4o", { width: 2048, height: 4096 }, undefined)).toBe(1105)
    expect(openAiImageTokens("gpt-4o", { width: 4096, height: 8192 }, "low")).toBe(85)
    expect(openAiImageTokens("gpt-4o-mini", { width: 640, height: 480 }, "auto")).toBe(2833 + 2 * 5667)
    expect(openAiImageTokens("gpt-5", { width: 640, height: 480 }, undefined)).toBe(70 + 2 * 140)
  })

  it("prices patches as OpenAI documents them, capped at 1,536, with the recorded one token more", () => {
    // 1024x1024: 32x32 patches; 1800x2400: scaled to 1056x1408, 33x44 patches
    expect(openAiImageTokens("gpt-4.1-mini", { width: 1024, height: 1024 }, undefined)).toBe(Math.ceil(1024 * 1.62) + 1)
    expect(openAiImageTokens("gpt-4.1-nano", { width: 1800, height: 2400 }, undefined)).toBe(Math.ceil(1452 * 2.46) + 1)
    // recorded figures: 640x480 (300 patches) on gpt-4.1-mini, o4-mini, gpt-5-mini, gpt-5-nano
    expect(["gpt-4.1-mini", "o4-mini", "gpt-5-mini", "gpt-5-nano"].map((m) => openAiImageTokens(m, { width: 640, height: 480 }, undefined))).toEqual([488, 517, 361, 451])
  })

  it("prices GPT-5.2 on by patches at 1.2: 1,536 of them, 2,500 from GPT-5.4 (10,000 at detail original), 1,536 for their mini and nano models", () => {
    // the recorded figure: a 60x30 image, 2 patches, billed 4 tokens by gpt-5.4 (tiles would be 70 + 140)
    expect(openAiImageTokens("gpt-5.4", { width: 60, height: 30 }, undefined)).toBe(4)
    expect(openAiImageTokens("gpt-5.4-2026-03-05", { width: 1024, height: 1024 }, "high")).toBe(Math.ceil(1024 * 1.2) + 1)
    // 1800x2400: 57 x 75 = 4,275 patches, over 2,500 and 1,536, under 10,000
    const large = { width: 1800, height: 2400 }
    const at = (model: string, detail?: string) => openAiImageTokens(model, large, detail)
    expect(at("gpt-5.4", "original")).toBe(Math.ceil(4275 * 1.2) + 1)
    expect(at("gpt-5.4")).toBeGreaterThan(Math.ceil(2400 * 1.2))
    expect(at("gpt-5.4")).toBeLessThanOrEqual(Math.ceil(2500 * 1.2) + 1)
    expect(at("gpt-5.4", "low")).toBe(at("gpt-5.4"))
    expect(at("gpt-5.5")).toBe(at("gpt-5.4"))
    // 1,536 patches: scaled to 1056x1408, 33 x 44 = 1,452, as for gpt-4.1-nano above; "original" changes nothing
    for (const model of ["gpt-5.2", "gpt-5.3-codex", "gpt-5.4-mini", "gpt-5.4-nano-2026-03-17"]) {
      expect([at(model), at(model, "original")], model).toEqual([Math.ceil(1452 * 1.2) + 1, Math.ceil(1452 * 1.2) + 1])
    }
    // gpt-5-nano keeps its 1.5, GPT-5.1 its tiles
    expect(openAiImageTokens("gpt-5-nano", { width: 640, height: 480 }, undefined)).toBe(451)
    expect(openAiImageTokens("gpt-5.1", { width: 640, height: 480 }, undefined)).toBe(70 + 2 * 140)
  })

  it("knows nothing of a model it has no pricing for", () => {
    expect(openAiImageTokens("claude-sonnet-4-5", { width: 640, height: 480 }, undefined)).toBeUndefined()
    expect(openAiImageTokens("gpt-3.5-turbo", { width: 640, height: 480 }, undefined)).toBeUndefined()
  })
})

describe("a gpt-5.4 image recorded by URL, at the size its source repository shows", () => {
  // posit-dev/chatlas (MIT) recorded httr2's logo, given by URL, sent to gpt-5.4 through Chat Completions and through
  // Responses (tests/_vcr/test_provider_openai_completions/test_openai_images.yaml and
  // tests/_vcr/test_provider_openai/test_openai_images.yaml, interaction 1, at ea4531130e56d3c5bb003d87a1792dd942554b8d).
  // r-lib/httr2's man/figures/logo.png, which its site serves as /logo.png, is 240x277 (unchanged since 2023):
  // 8 x 9 = 72 patches. The usage sets leave images by URL out; here the size is given inline.
  const logo = dataUrl("image/png", png(240, 277))
  const text = "What's in this image? (Be sure to mention the outside shape)"

  it.effect("72 patches at 1.2 and 1 more, 88 tokens: both requests count what the API billed, 108 and 112 (tiles: 210)", () =>
    Effect.gen(function*() {
      expect(openAiImageTokens("gpt-5.4", { width: 240, height: 277 }, "auto")).toBe(88)
      const chat = yield* countOpenAiChatRequest({
        model: "gpt-5.4",
        messages: [{ role: "user", content: [{ type: "text", text }, { type: "image_url", image_url: { url: logo, detail: "auto" } }] }]
      })
      expect(chat.total).toBe(108)
      const exact = yield* makeExact({ encoding: "o200k" })
      const request = (yield* OpenAiResponses.fromRequest({
        model: "gpt-5.4",
        input: [
          { role: "user", content: [{ type: "input_text", text }] },
          { role: "user", content: [{ type: "input_image", image_url: logo, detail: "auto" }] }
        ]
      })).value
      expect(exact.estimateRequest(request, { provider: "openai-responses", model: "gpt-5.4" }).total).toBe(112)
    }))
})

describe("imageSizeOfSource", () => {
  it("reads inline base64 data and data URLs; a URL, a file id or text shows no size", () => {
    const bytes = Buffer.from(png(640, 480)).toString("base64")
    expect(imageSizeOfSource({ _tag: "Base64", data: bytes })).toEqual({ width: 640, height: 480 })
    expect(imageSizeOfSource({ _tag: "Url", url: `data:image/png;base64,${bytes}` })).toEqual({ width: 640, height: 480 })
    expect(imageSizeOfSource({ _tag: "Url", url: "https://example.com/cat.png" })).toBeUndefined()
    expect(imageSizeOfSource({ _tag: "FileId", fileId: "file_123" })).toBeUndefined()
    expect(imageSizeOfSource({ _tag: "Text", text: "hello" })).toBeUndefined()
  })
})

describe("anthropicImageTokens", () => {
  it("gives the figures of Anthropic's own table (1000x1000 ~1,334, 1092x1092 ~1,590), or the image's 28-pixel patches when more (200x200: 64, not 54)", () => {
    expect(anthropicImageTokens({ width: 200, height: 200 })).toBe(64)
    expect(anthropicImageTokens({ width: 30, height: 1000 })).toBe(2 * 36)
    expect(anthropicImageTokens({ width: 1000, height: 1000 })).toBe(1334)
    expect(anthropicImageTokens({ width: 1092, height: 1092 })).toBe(1590)
  })

  it("charges width x height / 750, rounded up, for an image within the limits", () => {
    expect(anthropicImageTokens({ width: 1000, height: 500 })).toBe(667)
    expect(anthropicImageTokens({ width: 1, height: 1 })).toBe(1)
    expect(anthropicImageTokens({ width: 1568, height: 300 })).toBe(Math.ceil((1568 * 300) / 750))
  })

  it("scales an image whose long edge is over 1,568 pixels down to it, aspect ratio kept", () => {
    // 3136x400 is 1568x200 once scaled: 56 x 8 patches of 28 pixels, 448 tokens (419 by area), not 1,673
    expect(anthropicImageTokens({ width: 3136, height: 400 })).toBe(56 * 8)
    expect(anthropicImageTokens({ width: 400, height: 3136 })).toBe(56 * 8)
  })

  it("scales an image of more than about 1,600 tokens down to that, so no image costs more", () => {
    for (const size of [{ width: 1200, height: 1200 }, { width: 1568, height: 1568 }, { width: 4000, height: 3000 }, { width: 8000, height: 8000 }]) {
      const tokens = anthropicImageTokens(size)
      expect(tokens).toBeLessThanOrEqual(1600)
      expect(tokens).toBeGreaterThan(1550)
    }
    expect(anthropicUnknownSizeImageTokens()).toBe(1600)
  })

  it("on the high-resolution models reads up to 2,576 pixels on the long edge and about 5,000 tokens", () => {
    expect(anthropicImageTokens({ width: 1000, height: 500 }, true)).toBe(667)
    expect(anthropicImageTokens({ width: 2000, height: 1000 }, true)).toBe(2667)
    // 2576x100 once scaled: 92 x 4 patches, 368 tokens (344 by area)
    expect(anthropicImageTokens({ width: 5152, height: 200 }, true)).toBe(92 * 4)
    const largest = anthropicImageTokens({ width: 8000, height: 8000 }, true)
    expect(largest).toBeLessThanOrEqual(5000)
    expect(largest).toBeGreaterThan(4900)
    expect(anthropicUnknownSizeImageTokens(true)).toBe(5000)
  })

  it.prop(
    "is a whole number from 1 to the model's cap, whatever the size",
    {
      width: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))),
      height: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))),
      highResolution: Arbitrary.schema(Schema.Boolean)
    },
    ({ height, highResolution, width }) => {
      const tokens = anthropicImageTokens({ width, height }, highResolution)
      expect(Number.isInteger(tokens)).toBe(true)
      expect(tokens).toBeGreaterThanOrEqual(1)
      expect(tokens).toBeLessThanOrEqual(anthropicUnknownSizeImageTokens(highResolution))
    }
  )
})

describe("geminiImageTokens", () => {
  it("on Gemini 3 charges the media resolution's figure whatever the size, high (1,120) by default", () => {
    for (const size of [{ width: 100, height: 100 }, { width: 597, height: 566 }, { width: 4000, height: 3000 }, undefined]) {
      expect(geminiImageTokens(size, "gemini-3-flash-preview", undefined)).toBe(1120)
    }
    expect(geminiImageTokens(undefined, "gemini-3-pro-preview", "MEDIA_RESOLUTION_LOW")).toBe(280)
    expect(geminiImageTokens(undefined, "gemini-3.1-pro-preview", { level: "MEDIA_RESOLUTION_MEDIUM" })).toBe(560)
    expect(geminiImageTokens(undefined, "models/gemini-3-flash", { level: "MEDIA_RESOLUTION_ULTRA_HIGH" })).toBe(2240)
  })

  it("before Gemini 3 charges 258 for an image within 384x384, else 258 per 768x768 tile", () => {
    expect(geminiImageTokens({ width: 384, height: 384 }, "gemini-2.0-flash", undefined)).toBe(258)
    expect(geminiImageTokens({ width: 385, height: 100 }, "gemini-2.5-flash", undefined)).toBe(258)
    expect(geminiImageTokens({ width: 1000, height: 500 }, "gemini-2.5-pro", undefined)).toBe(2 * 258)
    expect(geminiImageTokens({ width: 1536, height: 1537 }, "gemini-1.5-pro", undefined)).toBe(6 * 258)
    // a size the request does not show is taken as 1024x1024
    expect(geminiImageTokens(undefined, "gemini-2.5-flash", "MEDIA_RESOLUTION_LOW")).toBe(4 * 258)
  })

  it("for a model id that names no version, the larger of the two rules", () => {
    expect(geminiImageTokens({ width: 300, height: 300 }, undefined, undefined)).toBe(1120)
    expect(geminiImageTokens({ width: 3000, height: 3000 }, "gemini-flash-latest", undefined)).toBe(16 * 258)
  })

  it("reads a media resolution given as the bare value or as a part's level, and nothing else", () => {
    expect(geminiMediaResolution("MEDIA_RESOLUTION_HIGH")).toBe("high")
    expect(geminiMediaResolution({ level: "MEDIA_RESOLUTION_LOW" })).toBe("low")
    // in lower case, as Google's Gemini 3 guide writes it
    expect(geminiMediaResolution({ level: "media_resolution_ultra_high" })).toBe("ultraHigh")
    expect(geminiMediaResolution("media_resolution_low")).toBe("low")
    expect(geminiMediaResolution("MEDIA_RESOLUTION_UNSPECIFIED")).toBeUndefined()
    expect(geminiMediaResolution(["MEDIA_RESOLUTION_LOW"])).toBeUndefined()
    expect(geminiMediaResolution(null)).toBeUndefined()
  })
})
