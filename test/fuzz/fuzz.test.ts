/**
 * The short fuzz run, part of `npm test`: a few inputs of every class for
 * every domain (a few hundred cases per class, a 10,000-level and a 2 MB
 * case among them), each run against every target of its domain. Every case
 * must end as a success or a tagged error with a readable message: no throw,
 * no defect, no stack overflow, no hang, no prototype pollution, no failed
 * round trip. The seed is fixed, so the run is the same every time;
 * `npm run fuzz` runs a hundred times more, on a new seed each day, with
 * 20 MB strings and 1M-message conversations.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { caseClasses, shortSizes } from "./generators.js"
import { SHORT_RUN } from "./shortRun.js"
import { classTable, defectLines, mergeReports, type Report, runSuite } from "./suite.js"
import { type Domain, domains } from "./targets.js"

const groups: ReadonlyArray<readonly [string, (d: Domain) => boolean]> = [
  ["the core decoders (one message, a conversation, JSONL, the command line's formats)", (d) => ["message JSON", "conversation JSON", "JSONL text"].includes(d.name)],
  ["validate, repair, estimate, fit, every encoder and round trip over decoded conversations", (d) => d.name === "conversation (model)"],
  ["OpenAI Chat: messages, requests, responses, events, SSE", (d) => d.name.startsWith("openai-chat ")],
  ["Anthropic: messages, requests, responses, events, SSE", (d) => d.name.startsWith("anthropic ")],
  ["OpenAI Responses: messages, requests, responses, events, SSE", (d) => d.name.startsWith("openai-responses ")],
  ["Gemini: messages, requests, responses, events, SSE", (d) => d.name.startsWith("gemini ")],
  ["tool-argument text and effect/ai prompts and response parts", (d) => d.name === "tool-argument text" || d.name.startsWith("effect/ai")],
  ["PDF files: the page count, the text through fonts and maps, the estimates that price them", (d) => d.name === "PDF file"]
]

const reports: Array<Report> = []

describe("fuzz (short run)", () => {
  for (const [name, pick] of groups) {
    it(`${name}: every case is a success or a tagged error, never a defect`, () => {
      const report = runSuite({ ...SHORT_RUN, sizes: shortSizes, domains: domains.filter(pick) })
      reports.push(report)
      assert.deepStrictEqual(report.generatorErrors, [])
      assert.deepStrictEqual(defectLines(report), [])
    }, 300_000)
  }

  it("every domain is covered and every class was tried, a 10,000-level value and a 2 MB string among them", () => {
    const covered = new Set(groups.flatMap(([, pick]) => domains.filter(pick).map((d) => d.name)))
    assert.deepStrictEqual(domains.map((d) => d.name).filter((n) => !covered.has(n)), [])
    const report = mergeReports(reports)
    for (const cls of caseClasses) {
      const cases = [...report.counts.get(cls)!.values()].reduce((n, c) => n + c.cases, 0)
      assert.isAbove(cases, 0, `no ${cls} case ran`)
    }
    assert.strictEqual(shortSizes.deepLevels, 10_000)
    assert.isAtLeast(shortSizes.hugeChars, 2_000_000)
  })
})

afterAll(() => {
  if (reports.length > 0) console.log(`fuzz (short run, seed ${SHORT_RUN.seed}):\n${classTable(mergeReports(reports))}`)
})
