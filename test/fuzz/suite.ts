/**
 * Runs the fuzz suite: for every domain, every class it is attacked with,
 * a number of generated inputs, each run against every target of the
 * domain. Counts what was tried (by class and target) and collects the
 * defects, each with the seed that replays it (`replay`).
 */
import { type CaseClass, caseClasses, heavyClasses, makeRng, type Sizes } from "./generators.js"
import { type DefectKind, runCase } from "./harness.js"
import { type Domain, domains as allDomains } from "./targets.js"

export interface SuiteOptions {
  /** The run's seed: every case's seed is derived from it. */
  readonly seed: number
  /** Inputs per domain and class, for the light classes. */
  readonly casesPerClass: number
  /** Inputs per domain and class, for the heavy classes (`deep`, `huge-strings`, `many-messages`). */
  readonly heavyCases: number
  readonly sizes: Sizes
  readonly hangMs?: number
  readonly domains?: ReadonlyArray<Domain>
  /** Only these classes (each domain's own classes otherwise): the same cases as in a run of them all. */
  readonly classes?: ReadonlyArray<CaseClass>
  /** Called after each domain, with a line of progress. */
  readonly progress?: (line: string) => void
  /** Called before each input runs (to find a case that hangs). */
  readonly trace?: (line: string) => void
  /** Called with each defect as it is found (a long run that dies still shows what it found). */
  readonly onDefect?: (line: string) => void
}

export interface Defect {
  readonly domain: string
  readonly target: string
  readonly cls: CaseClass
  readonly seed: number
  readonly defect: DefectKind
  readonly detail: string
}

/** What one class did to one target. */
export interface Counts {
  cases: number
  successes: number
  failures: number
  skipped: number
  defects: number
}

export interface Report {
  /** class -> target -> counts */
  readonly counts: Map<CaseClass, Map<string, Counts>>
  readonly defects: Array<Defect>
  /** Inputs the generators could not build (a bug of the suite, not of the library). */
  readonly generatorErrors: Array<string>
  /** Milliseconds spent per class (generating and running). */
  readonly classMs: Map<CaseClass, number>
  cases: number
  ms: number
}

/** The seed of one input: a mix of the run's seed and where the input sits. */
export const caseSeed = (seed: number, domain: number, cls: number, k: number): number => {
  let h = seed ^ 0x2545f491
  for (const x of [domain, cls, k]) {
    h = Math.imul(h ^ x, 0x01000193)
    h ^= h >>> 13
  }
  return h >>> 0
}

const emptyCounts = (): Counts => ({ cases: 0, successes: 0, failures: 0, skipped: 0, defects: 0 })

/** Runs one input against every target of its domain. */
const runInput = (report: Report, domain: Domain, cls: CaseClass, seed: number, options: SuiteOptions): void => {
  let input: unknown
  try {
    input = domain.generate(cls, makeRng(seed), options.sizes)
  } catch (cause) {
    report.generatorErrors.push(`${domain.name} / ${cls} / seed ${seed}: ${String(cause)}`)
    return
  }
  const byTarget = report.counts.get(cls)!
  for (const target of domain.targets) {
    options.trace?.(`${domain.name} / ${cls} / seed ${seed} / ${target.name}`)
    const outcome = runCase(target, input, options.hangMs === undefined ? undefined : { hangMs: options.hangMs })
    const counts = byTarget.get(target.name) ?? emptyCounts()
    byTarget.set(target.name, counts)
    counts.cases++
    report.cases++
    switch (outcome.kind) {
      case "success":
        counts.successes++
        break
      case "failure":
        counts.failures++
        break
      case "skipped":
        counts.skipped++
        break
      case "defect":
        counts.defects++
        report.defects.push({ domain: domain.name, target: target.name, cls, seed, defect: outcome.defect, detail: outcome.detail })
        options.onDefect?.(defectLine(report.defects[report.defects.length - 1]!))
        break
    }
  }
}

/** Runs the suite. Never throws on a defect: the report lists them. */
export const runSuite = (options: SuiteOptions): Report => {
  const started = performance.now()
  const report: Report = { counts: new Map(caseClasses.map((c) => [c, new Map()])), defects: [], generatorErrors: [], classMs: new Map(), cases: 0, ms: 0 }
  const domains = options.domains ?? allDomains
  domains.forEach((domain) => {
    // seeds follow a domain's place in the whole list, so a run of a few domains replays the same cases
    const d = allDomains.indexOf(domain)
    const domainStarted = performance.now()
    const before = report.cases
    for (const cls of domain.classes) {
      if (options.classes !== undefined && !options.classes.includes(cls)) continue
      const n = heavyClasses.has(cls) ? options.heavyCases : options.casesPerClass
      const c = caseClasses.indexOf(cls)
      const clsStarted = performance.now()
      for (let k = 0; k < n; k++) runInput(report, domain, cls, caseSeed(options.seed, d, c, k), options)
      report.classMs.set(cls, (report.classMs.get(cls) ?? 0) + performance.now() - clsStarted)
    }
    options.progress?.(`${domain.name}: ${report.cases - before} cases in ${Math.round(performance.now() - domainStarted)} ms`)
  })
  report.ms = performance.now() - started
  return report
}

/** Several reports as one (the short run is split into tests). */
export const mergeReports = (reports: ReadonlyArray<Report>): Report => {
  const out: Report = { counts: new Map(caseClasses.map((c) => [c, new Map()])), defects: [], generatorErrors: [], classMs: new Map(), cases: 0, ms: 0 }
  for (const r of reports) {
    out.defects.push(...r.defects)
    out.generatorErrors.push(...r.generatorErrors)
    out.cases += r.cases
    out.ms += r.ms
    for (const [cls, ms] of r.classMs) out.classMs.set(cls, (out.classMs.get(cls) ?? 0) + ms)
    for (const [cls, byTarget] of r.counts) {
      const into = out.counts.get(cls)!
      for (const [target, c] of byTarget) {
        const sum = into.get(target) ?? emptyCounts()
        sum.cases += c.cases
        sum.successes += c.successes
        sum.failures += c.failures
        sum.skipped += c.skipped
        sum.defects += c.defects
        into.set(target, sum)
      }
    }
  }
  return out
}

/** Replays one input of a report against one target (or all of the domain's). */
export const replay = (defect: Pick<Defect, "domain" | "cls" | "seed"> & { readonly target?: string }, sizes: Sizes): ReturnType<typeof runCase> | undefined => {
  const domain = allDomains.find((d) => d.name === defect.domain)
  if (domain === undefined) return undefined
  const input = domain.generate(defect.cls, makeRng(defect.seed), sizes)
  const target = domain.targets.find((t) => defect.target === undefined || t.name === defect.target)
  return target === undefined ? undefined : runCase(target, input)
}

// ---------------------------------------------------------------------------
// printing
// ---------------------------------------------------------------------------

const pad = (s: string, n: number, left = false): string => (left ? s.padStart(n) : s.padEnd(n))

/** Cases by class (rows) with successes, tagged failures and defects. */
export const classTable = (report: Report): string => {
  const rows: Array<Array<string>> = [["class", "cases", "success", "tagged error", "skipped", "defects", "seconds"]]
  for (const cls of caseClasses) {
    const c = emptyCounts()
    for (const counts of report.counts.get(cls)!.values()) {
      c.cases += counts.cases
      c.successes += counts.successes
      c.failures += counts.failures
      c.skipped += counts.skipped
      c.defects += counts.defects
    }
    if (c.cases > 0) rows.push([cls, String(c.cases), String(c.successes), String(c.failures), String(c.skipped), String(c.defects), ((report.classMs.get(cls) ?? 0) / 1000).toFixed(1)])
  }
  rows.push(["total", String(report.cases), "", "", "", String(report.defects.length), (report.ms / 1000).toFixed(1)])
  return render(rows)
}

/** Cases by target (rows) and class (columns). */
export const targetTable = (report: Report): string => {
  const classes = caseClasses.filter((c) => [...report.counts.get(c)!.values()].some((n) => n.cases > 0))
  const targets: Array<string> = []
  for (const cls of classes) for (const t of report.counts.get(cls)!.keys()) if (!targets.includes(t)) targets.push(t)
  const rows: Array<Array<string>> = [["target", ...classes, "total", "defects"]]
  for (const t of targets) {
    let total = 0
    let defects = 0
    const cells = classes.map((cls) => {
      const n = report.counts.get(cls)!.get(t)
      total += n?.cases ?? 0
      defects += n?.defects ?? 0
      return n === undefined ? "-" : String(n.cases)
    })
    rows.push([t, ...cells, String(total), String(defects)])
  }
  return render(rows)
}

const render = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)))
  const lines = rows.map((r) => r.map((cell, i) => pad(cell, widths[i]!, i > 0)).join("  "))
  lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("  "))
  return lines.join("\n")
}

/** The defects, one line each, with what replays them. */
const defectLine = (d: Defect): string => `${d.defect}: ${d.target} [${d.domain} / ${d.cls} / seed ${d.seed}]: ${d.detail}`

export const defectLines = (report: Report): Array<string> => report.defects.map(defectLine)
