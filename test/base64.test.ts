/**
 * The base64 decoder every file reader stands on (PDF pages, audio and video
 * durations, image sizes): the platform's decoder where it takes the text
 * whole, a loop of its own for the rest, the same bytes either way.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { binaryOfBytes, decodeBase64, decodeBase64Binary, standardBase64 } from "../src/internal/base64.js"
import { intBetween } from "./arbitraries.js"

const bytesOf = (n: number, seed: number): Uint8Array => {
  const out = new Uint8Array(n)
  let s = seed | 1
  for (let i = 0; i < n; i++) {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    out[i] = s & 0xff
  }
  return out
}

type Spelling = "plain" | "unpadded" | "urlSafe" | "wrapped" | "crlf" | "stray"
const spell = (bytes: Uint8Array, spelling: Spelling): string => {
  const plain = Buffer.from(bytes).toString("base64")
  switch (spelling) {
    case "plain":
      return plain
    case "unpadded":
      return plain.replace(/=+$/, "")
    case "urlSafe":
      return Buffer.from(bytes).toString("base64url")
    case "wrapped":
      return plain.replace(/.{76}/g, "$&\n")
    case "crlf":
      return plain.replace(/.{64}/g, "$&\r\n")
    case "stray":
      // characters no base64 alphabet has, which the decoder skips
      return plain.replace(/.{100}/g, "$&*")
  }
}

describe("decodeBase64", () => {
  it.prop(
    "gives the bytes the text holds, from any group and up to any limit, whatever the spelling and size",
    {
      size: intBetween(0, 40_000),
      seed: intBetween(1, 1_000_000),
      from: intBetween(0, 2_000),
      limit: intBetween(1, 50_000),
      spelling: Arbitrary.schema(Schema.Literals(["plain", "unpadded", "urlSafe", "wrapped", "crlf", "stray"]))
    },
    ({ from, limit, seed, size, spelling }) => {
      const bytes = bytesOf(size, seed)
      const text = spell(bytes, spelling)
      expect(decodeBase64(text)).toEqual(bytes)
      // as a binary string too (a PDF is read so)
      expect(decodeBase64Binary(text)).toBe(binaryOfBytes(bytes))
      // from a group boundary of plain text (every 4 characters are 3 bytes)
      const start = spelling === "plain" || spelling === "unpadded" || spelling === "urlSafe" ? Math.min(from * 4, text.length) : 0
      const skipped = (start / 4) * 3
      expect(decodeBase64(text, start, limit)).toEqual(bytes.subarray(skipped, skipped + limit))
    },
    { timeout: 120_000 }
  )

  it("skips what is not base64, and decodes nothing from nothing", () => {
    expect(decodeBase64("")).toEqual(new Uint8Array(0))
    expect([...decodeBase64("aGVs\nbG8=")]).toEqual([...Buffer.from("hello")])
    // padding in the middle (two encodings run together): both read as one stream of digits
    const joined = `${"QUJD".repeat(2_000)}QQ==${"QUJD".repeat(2_000)}`
    expect(decodeBase64(joined).length).toBe(12_001)
  })
})

describe("standardBase64", () => {
  it.prop(
    "gives the same bytes in the standard alphabet, padded (as Node writes them), whatever the spelling",
    {
      size: intBetween(0, 5_000),
      seed: intBetween(1, 1_000_000),
      spelling: Arbitrary.schema(Schema.Literals(["plain", "unpadded", "urlSafe", "wrapped", "crlf"]))
    },
    ({ seed, size, spelling }) => {
      const bytes = bytesOf(size, seed)
      const standard = standardBase64(spell(bytes, spelling))
      expect(decodeBase64(standard)).toEqual(bytes)
      expect(standard.replace(/\s/g, "")).toBe(Buffer.from(bytes).toString("base64"))
    }
  )

  it("returns standard, padded text as it is, and pads after the digits, before a trailing line break", () => {
    const text = Buffer.from("any carnal pleas").toString("base64")
    expect(standardBase64(text)).toBe(text)
    expect(standardBase64("aGVsbG8\n")).toBe("aGVsbG8=\n")
    expect(standardBase64("aGVs\nbG8")).toBe("aGVs\nbG8=")
    expect(standardBase64("-_8")).toBe("+/8=")
    // one digit left over is no base64: no padding makes it whole
    expect(standardBase64("aGVsb")).toBe("aGVsb")
  })
})
