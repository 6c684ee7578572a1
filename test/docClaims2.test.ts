/**
 * The concrete claims of the doc comments of the model (`Message`, `Block`),
 * validation (`Conversation`, `ValidationError`) and the command line, and of
 * the README's sections on them, each checked as written: a value an example
 * shows, a message it quotes, a rule of the provider tables, a flag, an exit
 * code, a transcript the README prints (as a property where the claim is
 * universal).
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as esbuild from "esbuild"
import { Arbitrary, Effect, Layer, Option, Result, Schema, Stream } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Lib from "../src/index.js"
import { Block, Conversation, Message, Request, ValidationError } from "../src/index.js"
import * as Providers from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"
import { cliHarness, root } from "./cliBuild.js"

// ---------------------------------------------------------------------------
// the examples of the doc comments, run
// ---------------------------------------------------------------------------

/** One line of an example that shows its value in a comment: `expr // "value"`. */
interface Shown {
  readonly line: number
  readonly expression: string
  /** The literal the comment opens with, as source text. */
  readonly literal: string
  /** The literal is a string that ends with ` ...`: the value starts with the rest. */
  readonly prefix: boolean
}

interface Example {
  readonly where: string
  readonly code: string
  readonly shown: ReadonlyArray<Shown>
}

/** The end of the literal a comment opens with (a string, a list, an object, a number, a keyword), or -1. */
const literalEnd = (text: string): number => {
  const first = text[0]
  if (first === '"' || first === "'") {
    for (let i = 1; i < text.length; i++) {
      if (text[i] === "\\") i++
      else if (text[i] === first) return i + 1
    }
    return -1
  }
  if (first === "[" || first === "{") {
    let depth = 0
    let quote: string | undefined
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!
      if (quote !== undefined) {
        if (c === "\\") i++
        else if (c === quote) quote = undefined
      } else if (c === '"' || c === "'") quote = c
      else if (c === "[" || c === "{") depth++
      else if (c === "]" || c === "}") {
        depth--
        if (depth === 0) return i + 1
      }
    }
    return -1
  }
  const word = text.match(/^(-?\d+(\.\d+)?|true|false|null|undefined)\b/)
  return word === null ? -1 : word[0].length
}

const openers = /^(const|let|if|for|while|return|switch|case|yield\*|import|export|\}|\)|\])/

/** The `@example` blocks of a source file, each with the lines that show a value. */
const examplesOf = (file: string): Array<Example> => {
  const text = fs.readFileSync(path.join(root, file), "utf8")
  const out: Array<Example> = []
  for (const doc of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const startLine = text.slice(0, doc.index).split("\n").length
    const lines = doc[1]!.split("\n").map((l) => l.replace(/^\s*\* ?/, ""))
    let current: Array<string> | undefined
    let currentStart = 0
    const flush = () => {
      if (current === undefined) return
      const shown: Array<Shown> = []
      const code = current.map((line, i) => {
        const m = line.match(/^(.*?\S)\s+\/\/ (.*)$/)
        if (m === null || /^\s*\/\//.test(line)) return line
        const [, expression, comment] = m as unknown as [string, string, string]
        const end = literalEnd(comment)
        if (end < 0 || openers.test(expression.trim()) || /[,([{]$/.test(expression)) return line
        const literal = comment.slice(0, end)
        const prefix = /^['"].* \.\.\.['"]$/.test(literal)
        shown.push({ line: currentStart + i, expression, literal, prefix })
        return `__shown(${shown.length - 1}, () => (${expression}))`
      })
      out.push({ where: `${file}:${currentStart}`, code: code.join("\n"), shown })
      current = undefined
    }
    lines.forEach((line, i) => {
      if (/^\s*@\w+/.test(line)) {
        flush()
        if (/^\s*@example/.test(line)) {
          current = []
          currentStart = startLine + i + 1
        }
      } else current?.push(line)
    })
    flush()
  }
  return out
}

/** The names an example may use without defining them: the namespaces of the package, and Effect's. */
const scope: Record<string, unknown> = { ...Lib, ...Providers, Effect, Layer, Option, Schema, Stream, Result }

/** Runs an example; each shown line calls `check` with its value. Examples that use a free name they do not define (a conversation `messages`) are not run. */
const runExample = async (example: Example, check: (index: number, value: unknown) => void): Promise<"ran" | "skipped"> => {
  if (/^\s*import\s/m.test(example.code)) return "skipped"
  const body = /\byield\*/.test(example.code)
    ? `return Effect.runPromise(Effect.gen(function*() {\n${example.code}\n}))`
    : example.code
  const js = esbuild.transformSync(`async function __example() {\n${body}\n}`, { loader: "ts", format: "esm", target: "es2022" }).code
  const names = Object.keys(scope)
  const run = new Function(...names, "__shown", `${js}\nreturn __example()`) as (...args: Array<unknown>) => Promise<void>
  try {
    await run(...names.map((n) => scope[n]), check)
    return "ran"
  } catch (e) {
    if (e instanceof ReferenceError && /^(messages|history|conversation|request|program|callModel) is not defined$/.test(e.message)) return "skipped"
    throw e
  }
}

const literalValue = (literal: string): unknown => new Function(`return (${literal})`)()

describe("the examples of the model's and validation's doc comments show what they give", () => {
  const files = ["src/Message.ts", "src/Block.ts", "src/Conversation.ts", "src/ValidationError.ts"]
  const examples = files.flatMap(examplesOf)

  it("most examples show values, and every one that runs gives them", async () => {
    let checked = 0
    let ran = 0
    for (const example of examples) {
      const seen = new Set<number>()
      const outcome = await runExample(example, (index, thunk) => {
        const shown = example.shown[index]!
        const value = (thunk as () => unknown)()
        const expected = literalValue(shown.literal)
        const where = `${example.where} line ${shown.line}: ${shown.expression}`
        if (shown.prefix) {
          assert(typeof value === "string" && typeof expected === "string", where)
          expect(value, where).toContain(expected.slice(0, -" ...".length))
          expect(value.startsWith(expected.slice(0, -" ...".length)), where).toBe(true)
        } else {
          expect(value, where).toEqual(expected)
        }
        seen.add(index)
        checked++
      })
      if (outcome === "ran") {
        ran++
        // a shown line inside a branch not taken is no claim checked: every one must run
        for (let i = 0; i < example.shown.length; i++) expect(seen.has(i), `${example.where} line ${example.shown[i]!.line} never ran`).toBe(true)
      }
    }
    // the four modules have about 160 examples; most run, and about 120 lines show a value
    expect(ran).toBeGreaterThan(120)
    expect(checked).toBeGreaterThan(100)
  }, 60_000)
})
