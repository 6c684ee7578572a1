/** What the tests over recorded usage sets (test/data/*-usage) share. */
import { expect } from "@effect/vitest"
import * as fs from "node:fs"

/** The public test suites whose VCR cassettes the usage sets were gathered from. */
export const SUITES: ReadonlySet<string> = new Set(["pydantic/pydantic-ai", "crewAIInc/crewAI", "Arize-ai/openinference", "traceloop/openllmetry"])

interface Recorded {
  readonly source: { readonly repo: string; readonly commit: string }
}

/** The cases of `test/data/<name>/cases.json`. */
export const loadUsageSet = <A extends Recorded>(name: string): ReadonlyArray<A> =>
  JSON.parse(fs.readFileSync(new URL(`data/${name}/cases.json`, import.meta.url), "utf8")) as ReadonlyArray<A>

/** Every case comes from one of the suites, pinned to a full commit, and every suite gave some. */
export const expectPinnedSources = (cases: ReadonlyArray<Recorded>): void => {
  expect(new Set(cases.map((c) => c.source.repo))).toEqual(SUITES)
  for (const c of cases) expect(c.source.commit).toMatch(/^[0-9a-f]{40}$/)
}

export const relativeError = (estimate: number, actual: number): number => Math.abs(estimate - actual) / actual

/** The `q` quantile (nearest rank) of `xs`. */
export const quantile = (xs: ReadonlyArray<number>, q: number): number => [...xs].sort((a, b) => a - b)[Math.ceil(q * xs.length) - 1]!
