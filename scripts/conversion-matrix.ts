/**
 * Prints the conversion matrix as a Markdown table for the README: for each
 * source format (row) and target format (column), what the target reports
 * it cannot carry, over the shared conversations of
 * `test/providers/conversionMatrix.ts` (a tool loop, parallel calls,
 * thinking, images, server tools). `conversionMatrix.test.ts` asserts every
 * cell's warnings exactly.
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs scripts/conversion-matrix.ts
 */
import { cell, fixtures, formats } from "../test/providers/conversionMatrix.js"

const names: Record<(typeof formats)[number], string> = {
  "openai-chat": "Chat Completions",
  anthropic: "Anthropic",
  "openai-responses": "Responses",
  gemini: "Gemini",
  "effect-ai": "effect/ai Prompt"
}

const label = (warning: string): string => {
  if (warning.includes("thinking")) return "thinking"
  if (warning.includes("provider-executed") || warning.includes("the provider ran itself")) return "server tool calls"
  if (warning.includes("in the result of")) return "images in tool results"
  if (warning.includes("detail setting")) return "image detail"
  return warning
}

const rows: Array<string> = [
  `| from \\ to | ${formats.map((f) => names[f]).join(" | ")} |`,
  `|---|${formats.map(() => "---").join("|")}|`
]
for (const source of formats) {
  const cells = formats.map((target) => {
    if (source === target) return "="
    const lost = new Set<string>()
    for (const fixture of Object.keys(fixtures)) for (const w of cell(fixture, source, target).warnings) lost.add(label(w))
    return lost.size === 0 ? "all" : `all but ${[...lost].join(", ")}`
  })
  rows.push(`| ${names[source]} | ${cells.join(" | ")} |`)
}
console.log(rows.join("\n"))
