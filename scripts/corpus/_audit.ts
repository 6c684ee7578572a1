import { countTokens as o } from "gpt-tokenizer/encoding/o200k_base"
import { countTokens as c } from "gpt-tokenizer/encoding/cl100k_base"
import { estimateTextWith } from "../../src/internal/heuristic.js"
import { o200k, cl100k } from "../../src/internal/weights.js"
import { estimateTokenCount as tokenx } from "tokenx"
import { rng } from "./extract.js"
const r = rng("audit")
const rand = (n: number, a: string) => Array.from({ length: n }, () => a[Math.floor(r() * a.length)]).join("")
const para = "The quick brown fox jumps over the lazy dog, then naps in the warm afternoon sun while the farmer watches quietly from the porch."
const cases: Record<string, string> = {
  "para": para,
  "para+2000 letters": para + " " + rand(2000, "abcdefghijklmnopqrstuvwxyz"),
  "60-letter identifier": rand(60, "abcdefghijklmnopqrstuvwxyz"),
  "dna 1000": rand(1000, "ACGT"),
  "base64 1000": Buffer.from(Array.from({ length: 750 }, () => Math.floor(r() * 256))).toString("base64"),
  "hex 64": rand(64, "0123456789abcdef"),
  "uuid x10": Array.from({ length: 10 }, () => `${rand(8, "0123456789abcdef")}-${rand(4, "0123456789abcdef")}-4${rand(3, "0123456789abcdef")}-a${rand(3, "0123456789abcdef")}-${rand(12, "0123456789abcdef")}`).join("\n"),
  "digits 1000": rand(1000, "0123456789"),
  "csv": Array.from({ length: 30 }, () => Array.from({ length: 6 }, () => (r() * 1000).toFixed(3)).join(",")).join("\n"),
  "dashes 1000": "-".repeat(1000), "spaces 1000": " ".repeat(1000), "a x 1000": "a".repeat(1000), "newlines 500": "\n".repeat(500),
  "emoji zwj": "👨‍👩‍👧‍👦 family 🏳️‍🌈 flag 🇯🇵🇺🇸🇬🇧 👍🏽👍🏿",
  "russian": "Быстрая оценка количества токенов для текста на русском языке помогает не переполнить окно контекста.",
  "hindi": "टोकन की संख्या का तेज़ अनुमान संदर्भ विंडो को भरने से बचाने में मदद करता है।",
}
for (const [k, t] of Object.entries(cases)) console.log(k.padEnd(22), "o200k", o(t), estimateTextWith(t, o200k), "| cl100k", c(t), estimateTextWith(t, cl100k), "| tokenx", tokenx(t))
