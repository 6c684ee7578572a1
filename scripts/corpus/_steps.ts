import { encode } from "gpt-tokenizer/encoding/o200k_base"
import { decode } from "gpt-tokenizer/encoding/o200k_base"
import { o200k } from "../../src/internal/weights.js"
import { rawEstimateWith } from "../../src/internal/heuristic.js"
const t = process.argv[2] ?? ""
let prev = 0
const parts: string[] = []
for (let i = 1; i <= t.length; i++) { const r = rawEstimateWith(t.slice(0, i), o200k); parts.push(`${JSON.stringify(t[i - 1])}:${(r - prev).toFixed(2)}`); prev = r }
console.log(parts.join(" "))
console.log("total", rawEstimateWith(t, o200k).toFixed(2), "exact", encode(t).length, encode(t).map((x) => JSON.stringify(decode([x]))).join(" "))
