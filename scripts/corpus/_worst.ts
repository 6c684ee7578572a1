import { readMessages } from "./corpus.js"
import { exactCounts } from "./exact.js"
import { estimateTextWith } from "../../src/internal/heuristic.js"
import { o200k, cl100k } from "../../src/internal/weights.js"
const enc = process.env["ENC"] === "cl100k" ? 1 : 0
const table = enc === 1 ? cl100k : o200k
const cat = process.argv[2] ?? "char-runs"
const split = (process.argv[3] ?? "holdout") as "holdout" | "train"
const ms = readMessages(split).filter((m) => m.category === cat).map((m) => { const y = exactCounts(m.text)[enc]; const e = estimateTextWith(m.text, table); return { m, y, e, r: (e - y) / y } }).sort((a, b) => Math.abs(b.r) - Math.abs(a.r))
for (const x of ms.slice(0, Number(process.argv[4] ?? 12))) console.log(x.y, x.e, (x.r * 100).toFixed(0) + "%", JSON.stringify(x.m.text.slice(0, 150)), x.m.text.length)
