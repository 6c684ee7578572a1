/**
 * `npm run fuzz`: the long fuzz run. 100 times the cases of the short run in
 * `npm test`, with 20 MB strings and 1M-message conversations, then a table of
 * the cases by class and by target and the list of defects. Exits 1 when a
 * defect was found.
 *
 * Options: `--seed N` (default: the date), `--cases N` (inputs per domain and
 * class), `--heavy N` (inputs per domain and heavy class), `--short` (the
 * sizes and counts of the short run), `--only TEXT[,TEXT...]` (domains whose
 * name contains one of the TEXTs), `--class NAME[,NAME...]` (only these
 * classes of input), `--many N` (messages of the many-messages class instead
 * of a million), `--targets` (print the table by target too).
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs scripts/fuzz.ts
 */
import { type CaseClass, caseClasses, longSizes, shortSizes } from "../test/fuzz/generators.js"
import { classTable, defectLines, runSuite, targetTable } from "../test/fuzz/suite.js"
import { domains } from "../test/fuzz/targets.js"
import { SHORT_RUN } from "../test/fuzz/shortRun.js"

const args = process.argv.slice(2)
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? undefined : args[i + 1]
}
const short = args.includes("--short")
const seed = Number(flag("seed") ?? Math.floor(Date.now() / 86_400_000))
const casesPerClass = Number(flag("cases") ?? (short ? SHORT_RUN.casesPerClass : SHORT_RUN.casesPerClass * 100))
const heavyCases = Number(flag("heavy") ?? SHORT_RUN.heavyCases)
const only = flag("only")?.split(",")
const classes = flag("class")?.split(",")
const unknownClass = classes?.find((c) => !(caseClasses as ReadonlyArray<string>).includes(c))
if (unknownClass !== undefined) {
  console.log(`fuzz: no class ${unknownClass} (the classes: ${caseClasses.join(", ")})`)
  process.exit(2)
}
const many = flag("many")
const sizes = { ...(short ? shortSizes : longSizes), ...(many === undefined ? {} : { manyMessages: Number(many) }) }

console.log(`fuzz: seed ${seed}, ${casesPerClass} inputs per domain and class, ${heavyCases} per heavy class, sizes ${JSON.stringify(sizes)}`)
const report = runSuite({
  seed,
  casesPerClass,
  heavyCases,
  sizes,
  domains: only === undefined ? domains : domains.filter((d) => only.some((o) => d.name.includes(o))),
  ...(classes === undefined ? {} : { classes: classes as ReadonlyArray<CaseClass> }),
  progress: (line) => console.log(`  ${line}`),
  onDefect: (line) => console.log(`    found: ${line}`),
  ...(args.includes("--trace") ? { trace: (line: string) => console.log(`    ${Math.round(performance.now())} ${line}`) } : {})
})

console.log(`\n## cases by class\n\n${classTable(report)}`)
if (args.includes("--targets")) console.log(`\n## cases by target and class\n\n${targetTable(report)}`)
for (const e of report.generatorErrors) console.log(`generator error: ${e}`)
const lines = defectLines(report)
console.log(`\n${report.cases.toLocaleString("en-US")} cases in ${(report.ms / 1000).toFixed(1)} s; defects found: ${lines.length}`)
for (const line of lines.slice(0, 200)) console.log(`  ${line}`)
if (lines.length > 200) console.log(`  ... and ${lines.length - 200} more`)
process.exit(lines.length === 0 && report.generatorErrors.length === 0 ? 0 : 1)
