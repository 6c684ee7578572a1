/** What the tests over recorded usage sets (test/data/*-usage) share: `usageData.ts`, and the check of their sources. */
import { expect } from "@effect/vitest"
import { type Recorded, SUITES } from "./usageData.js"

export * from "./usageData.js"

/** Every case comes from one of the suites (the five, unless told), pinned to a full commit, and every suite gave some. */
export const expectPinnedSources = (cases: ReadonlyArray<Recorded>, suites: ReadonlySet<string> = SUITES): void => {
  expect(new Set(cases.map((c) => c.source.repo))).toEqual(suites)
  for (const c of cases) expect(c.source.commit).toMatch(/^[0-9a-f]{40}$/)
}
