import { readMessages } from "./corpus.js"
import { evaluate, formatTable, pct } from "./evaluate.js"
import { estimateTextWith } from "../../src/internal/heuristic.js"
import { o200k, cl100k } from "../../src/internal/weights.js"
const enc = (process.argv[2] ?? "o200k") as "o200k" | "cl100k"
const t = enc === "o200k" ? o200k : cl100k
for (const split of ["train", "holdout"] as const) {
  const ms = readMessages(split)
  const r = evaluate(ms, enc, (x) => estimateTextWith(x, t), (m) => `${m.category}/${m.lang}/${m.project}`)
  console.log(`\n${split}`)
  console.log(formatTable(["key", "n", "p50", "p90", "bias"], [...r.entries()].filter(([k]) => k.includes("/")).map(([k, v]) => [k, String(v.n), pct(v.p50), pct(v.p90), pct(v.bias, true)])))
}
