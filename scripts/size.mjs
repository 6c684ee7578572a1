// `npm run size`: the minified and gzipped size of a few typical imports of the built
// package (dist/, through its own `exports`, as a consumer's bundler sees it), against
// the budgets in size-budgets.json; `effect` (a peer) and the runtime dependencies stay out. Also
// checks tree-shaking: an import of the message model alone must not carry the
// adapters or the estimator tables. Exits 1 when a budget is exceeded or a marker leaks.
import * as esbuild from "esbuild"
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"

const root = path.resolve(import.meta.dirname, "..")
const { budgets } = JSON.parse(fs.readFileSync(path.join(root, "size-budgets.json"), "utf8"))
const dir = fs.mkdtempSync(path.join(root, ".size-"))
let failed = false
const rows = []
try {
  for (const budget of budgets) {
    const entry = path.join(dir, `${rows.length}.mjs`)
    fs.writeFileSync(entry, budget.code)
    const out = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      write: false,
      external: ["effect", "effect/*", "jsonrepair", "fflate", "gpt-tokenizer", "gpt-tokenizer/*"],
      logLevel: "silent",
      nodePaths: [path.join(root, "node_modules")]
    })
    const code = out.outputFiles[0].contents
    const minified = code.length
    const gzipped = zlib.gzipSync(code, { level: 9 }).length
    const leaks = (budget.mustNotContain ?? []).filter((marker) => Buffer.from(code).toString("utf8").includes(marker))
    const over = gzipped > budget.maxGzipBytes
    if (over || leaks.length > 0) failed = true
    rows.push([budget.name, minified, gzipped, budget.maxGzipBytes, over ? "OVER" : leaks.length > 0 ? `leaks ${leaks.join(", ")}` : "ok"])
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(["import", "minified", "gzipped", "budget (gzipped)", ""].join(" | "))
for (const [name, min, gz, max, verdict] of rows) console.log([name, kb(min), kb(gz), kb(max), verdict].join(" | "))
if (failed) {
  console.error("size: a budget is exceeded or a module leaks into an import that does not use it")
  process.exit(1)
}
