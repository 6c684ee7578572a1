import { readMessages } from "./corpus.js"
import { estimateTextWith } from "../../src/internal/heuristic.js"
import { o200k } from "../../src/internal/weights.js"
import { countTokens, clearMergeCache } from "gpt-tokenizer/encoding/o200k_base"
const all = readMessages()
for (const [name, texts] of [["english+code", all.filter((m) => m.category === "english" || m.category === "code").map((m) => m.text)], ["all", all.map((m) => m.text)]] as const) {
  const units = texts.reduce((s, t) => s + t.length, 0)
  let best = Infinity, sink = 0
  for (let r = 0; r < 30; r++) { const t0 = performance.now(); for (const t of texts) sink += estimateTextWith(t, o200k); best = Math.min(best, performance.now() - t0) }
  let bestE = Infinity
  for (let r = 0; r < 3; r++) { clearMergeCache(); const t0 = performance.now(); for (const t of texts) sink += countTokens(t); bestE = Math.min(bestE, performance.now() - t0) }
  console.log(name, units, (units / best / 1000).toFixed(1), "M/s", (bestE / best).toFixed(1), "x", sink > 0)
}
