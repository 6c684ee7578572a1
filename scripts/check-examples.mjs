// Checks the API documentation of every public export, so the reference cannot rot:
//
// 1. Every export of a public module (a module re-exported as a namespace by
//    `src/index.ts` or `src/providers/index.ts`, and the exports of
//    `src/exact/index.ts`) has a doc comment with a summary and an `@example`.
//    Exempt from `@example` (a summary is still required): types (interfaces and
//    type aliases), whose examples are those of the functions that build or read
//    them. A type alias named like a value (the `typeof X.Type` companion of a
//    schema `X`) is one export with that value: the value's example covers both,
//    and each has its own summary (the reference shows them as two entries).
//    A module's own doc comment needs a summary too, and its examples are checked.
// 2. Every `@example` type-checks against the package's sources, each as its own
//    file. The example's code is the text after the tag, or the content of its
//    ```ts fences when it has any. An example with its own `import` lines is a
//    complete program; any other is put in a block after a fixed prelude (the
//    namespaces of the three entry points and a few declared free names, below),
//    inside `Effect.gen(function*() { ... })` when it uses `yield*`.
//
// Usage: node scripts/check-examples.mjs [--list] [--keep]
//   --list prints every export; --keep keeps the generated files in .examples-check/
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { writeExampleTsconfig } from "./exampleTsconfig.mjs"

const root = path.resolve(import.meta.dirname, "..")
const out = path.join(root, ".examples-check")
const rel = (file) => path.relative(root, file)

const entries = ["src/index.ts", "src/providers/index.ts", "src/exact/index.ts"].map((f) => path.join(root, f))
const specifierOf = {
  "src/index.ts": "effect-agent-messages",
  "src/providers/index.ts": "effect-agent-messages/providers",
  "src/exact/index.ts": "effect-agent-messages/exact"
}

const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"))
  }
})
const program = ts.createProgram(entries, config.options)
const checker = program.getTypeChecker()

const resolve = (symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol)

// ---------------------------------------------------------------------------
// the public modules and their exports
// ---------------------------------------------------------------------------

/** `{ module, name, declarations }` for every export, in source order per module. */
const exportsOf = []
/** `{ module, file }` for every public module: the entry points and the modules they re-export. */
const modulesOf = []
for (const entry of entries) {
  const entryName = rel(entry)
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry))
  modulesOf.push({ module: specifierOf[entryName], file: program.getSourceFile(entry) })
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const target = resolve(exported)
    const isNamespace = target.flags & ts.SymbolFlags.ValueModule && target.declarations?.some(ts.isSourceFile)
    if (isNamespace) {
      // `export * as Name from "./Name.js"`: every export of that module is public
      const moduleName = `${specifierOf[entryName]} ${exported.name}`
      modulesOf.push({ module: moduleName, file: target.declarations.find(ts.isSourceFile) })
      for (const member of checker.getExportsOfModule(target)) {
        exportsOf.push({ module: moduleName, name: member.name, declarations: resolve(member).declarations ?? [] })
      }
    } else {
      exportsOf.push({ module: specifierOf[entryName], name: exported.name, declarations: target.declarations ?? [] })
    }
  }
}
const declarationOrder = (d) => `${d.getSourceFile().fileName}:${String(d.pos).padStart(8, "0")}`
exportsOf.sort((a, b) =>
  a.module === b.module
    ? declarationOrder(a.declarations[0]).localeCompare(declarationOrder(b.declarations[0]))
    : 0
)

// ---------------------------------------------------------------------------
// doc comments
// ---------------------------------------------------------------------------

const isTypeDeclaration = (d) => ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d)

/** The raw text of the doc comment closest to a declaration, or undefined. */
const rawDocOf = (declaration) => {
  const docs = ts.getJSDocCommentsAndTags(declaration).filter(ts.isJSDoc)
  const doc = docs[docs.length - 1]
  return doc === undefined ? undefined : doc.getSourceFile().text.slice(doc.pos, doc.end)
}

const dedent = (lines) => {
  const indents = lines.filter((l) => l.trim() !== "").map((l) => l.match(/^ */)[0].length)
  const n = indents.length === 0 ? 0 : Math.min(...indents)
  return lines.map((l) => l.slice(n))
}

/**
 * A doc comment's summary (the text before its first tag) and its tags, each
 * `{ tag, text }`. A line starting with `@` inside a ``` fence is code, not a tag.
 */
const parseDoc = (raw) => {
  const lines = raw
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((l) => l.replace(/^\s*\* ?/, "").replace(/\s+$/, ""))
  const summary = []
  const tags = []
  let fenced = false
  for (const line of lines) {
    const tag = fenced ? null : line.match(/^\s*@(\w+)\s?(.*)$/)
    if (tag !== null) tags.push({ tag: tag[1], lines: [tag[2]] })
    else (tags.length === 0 ? summary : tags[tags.length - 1].lines).push(line)
    if (/^\s*```/.test(line)) fenced = !fenced
  }
  return {
    summary: summary.join("\n").trim(),
    tags: tags.map(({ tag, lines }) => ({ tag, text: lines.join("\n") }))
  }
}

/** The code of an `@example`: the content of its ```ts fences, or all of its text. */
const exampleCode = (text) => {
  const fences = [...text.matchAll(/^\s*```(?:ts|typescript)?[^\n]*\n([\s\S]*?)^\s*```\s*$/gm)]
  const code = fences.length > 0 ? fences.map((m) => m[1]).join("\n") : text
  return dedent(code.replace(/^\n+|\s+$/g, "").split("\n")).join("\n")
}

const problems = []
const examples = []
for (const { module, name, declarations } of exportsOf) {
  const docs = declarations.map(rawDocOf).filter((d) => d !== undefined).map(parseDoc)
  const isType = declarations.every(isTypeDeclaration)
  const missing = []
  // the value and each type of one name are separate entries in the reference: each needs a summary
  const summarized = (d) => parseDoc(rawDocOf(d) ?? "").summary !== ""
  const values = declarations.filter((d) => !isTypeDeclaration(d))
  if ((values.length > 0 && !values.some(summarized)) || !declarations.filter(isTypeDeclaration).every(summarized)) {
    missing.push("summary")
  }
  const found = docs.flatMap((d) => d.tags.filter((t) => t.tag === "example"))
  if (found.length === 0 && !isType) missing.push("@example")
  if (!docs.some((d) => d.tags.some((t) => t.tag === "since"))) missing.push("@since")
  const where = declarations[0] === undefined
    ? "?"
    : `${rel(declarations[0].getSourceFile().fileName)}:${declarations[0].getSourceFile().getLineAndCharacterOfPosition(declarations[0].getStart()).line + 1}`
  if (missing.length > 0) problems.push(`${where} ${module} ${name}: no ${missing.join(", no ")}`)
  found.forEach((t, i) => examples.push({ module, name, index: i, where, code: exampleCode(t.text) }))
}

// a module's own doc comment (the one that opens its file) needs a summary; its examples are checked too
for (const { module, file } of modulesOf) {
  const raw = file.text.match(/^\s*(\/\*\*[\s\S]*?\*\/)/)?.[1]
  const doc = raw === undefined ? undefined : parseDoc(raw)
  const where = `${rel(file.fileName)}:1`
  if (doc === undefined || doc.summary === "") problems.push(`${where} ${module}: no module doc comment`)
  doc?.tags.filter((t) => t.tag === "example").forEach((t, i) =>
    examples.push({ module, name: "module-doc", index: i, where, code: exampleCode(t.text) })
  )
}

if (process.argv.includes("--list")) {
  for (const { module, name, declarations } of exportsOf) {
    console.log(`${module} ${name} ${declarations.map((d) => ts.SyntaxKind[d.kind]).join("+")}`)
  }
}

const typeExports = exportsOf.filter((e) => e.declarations.every(isTypeDeclaration)).length
console.log(
  `API docs: ${exportsOf.length} public exports (${typeExports} types, exempt from @example), ${examples.length} examples`
)
if (problems.length > 0) {
  console.error(`${problems.length} exports are not documented:\n${problems.join("\n")}`)
}

// ---------------------------------------------------------------------------
// type-checking the examples
// ---------------------------------------------------------------------------

// Every namespace of the three entry points, and a few free names examples may use
// without defining them (an example that defines one shadows it: each example is a block).
const prelude = `import { Effect, Layer, Option, Schema, Stream } from "effect"
import {
  Block, Calibration, Conversation, ConversationContext, GeminiEstimator, Message, MessageWindow, Provider, Repair,
  Request, Summarizer, TokenEstimator, ValidationError
} from "effect-agent-messages"
import {
  Anthropic, AnthropicStream, AnthropicWire, Conversion, EffectAi, Gemini, GeminiStream, GeminiWire, OpenAiChat,
  OpenAiChatStream, OpenAiChatWire, OpenAiResponses, OpenAiResponsesStream, OpenAiResponsesWire, Sse,
  StreamAccumulator, StreamError, ToolArguments
} from "effect-agent-messages/providers"
import {
  countOpenAiChatRequest, encodingForModel, ExactOptions, layerCl100k, layerExact, layerO200k, loadTextCounter,
  makeExact, promptFormatForModel, TokenizerUnavailable
} from "effect-agent-messages/exact"

/** A conversation, as read from storage or built by the agent. */
declare const messages: ReadonlyArray<Message.Message>
/** Other names for a conversation. */
declare const history: ReadonlyArray<Message.Message>
declare const conversation: ReadonlyArray<Message.Message>
/** A whole model request: messages, tools, tool choice, response format. */
declare const request: Request.Request
/** A program that needs a token estimator. */
declare const program: Effect.Effect<void, never, TokenEstimator.TokenEstimator>
/** Sends a conversation to a model; the reply carries the usage the provider reported. */
declare const callModel: (messages: ReadonlyArray<Message.Message>) => Effect.Effect<Message.AssistantMessage>
`

fs.rmSync(out, { recursive: true, force: true })
fs.mkdirSync(out)
const fileOf = new Map()
examples.forEach((example, i) => {
  // numbered, so that names differing only in case (\`text\`, \`Text\`) stay apart on any file system
  const file = `${String(i + 1).padStart(3, "0")}-${example.module.split(/[ /]/).pop()}.${example.name}${example.index > 0 ? `.${example.index + 1}` : ""}.ts`
  const header = `// ${example.where} ${example.module} ${example.name}\n`
  const complete = /^\s*import\s/m.test(example.code)
  const body = complete
    ? example.code
    : /\byield\*/.test(example.code)
    ? `${prelude}\nEffect.gen(function*() {\n${example.code}\n})\n`
    : `${prelude}\n{\n${example.code}\n}\n`
  fs.writeFileSync(path.join(out, file), `${header}${body}\nexport {}\n`)
  fileOf.set(file, example)
})

writeExampleTsconfig(out)

let failed = new Set()
try {
  execFileSync(path.join(root, "node_modules/.bin/node"), [path.join(root, "node_modules/typescript/bin/tsc"), "-p", out, "--pretty", "false"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"]
  })
} catch (e) {
  const output = `${e.stdout ?? ""}${e.stderr ?? ""}`
  process.stderr.write(output)
  failed = new Set([...output.matchAll(/^\.examples-check\/([^(\s]+)\(/gm)].map((m) => m[1]))
  if (failed.size === 0) failed.add("(tsc failed outside the examples)")
}

if (failed.size > 0) {
  console.error(`\n${failed.size} examples do not type-check (files kept in ${rel(out)}/):`)
  for (const file of failed) {
    const example = fileOf.get(file)
    console.error(example === undefined ? file : `${example.where} ${example.module} ${example.name} (${rel(out)}/${file})`)
  }
}
if (problems.length > 0 || failed.size > 0) process.exit(1)
if (!process.argv.includes("--keep")) fs.rmSync(out, { recursive: true, force: true })
console.log(`API docs: every public export is documented, and its ${examples.length} examples type-check`)
