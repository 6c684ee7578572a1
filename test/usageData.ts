/**
 * The recorded usage sets (test/data/*-usage) as the tests and the bench read
 * them: loading, the error measures, and how the cases are grouped. No test
 * runner here, so `bench/` can import it.
 */
import * as fs from "node:fs"

/** The public test suites whose VCR cassettes the usage sets were gathered from. */
export const SUITES: ReadonlySet<string> = new Set(["pydantic/pydantic-ai", "crewAIInc/crewAI", "Arize-ai/openinference", "traceloop/openllmetry", "Mirascope/mirascope"])

/**
 * The suites of the Chat Completions set: the five above, and ten more whose
 * recordings were added as an out-of-sample check once the rules had been
 * found on the five.
 */
export const CHAT_SUITES: ReadonlySet<string> = new Set([
  ...SUITES,
  "posit-dev/chatlas",
  "pydantic/logfire",
  "elastic/elastic-otel-python-instrumentations",
  "open-telemetry/opentelemetry-python-contrib",
  "simonw/llm",
  "DataDog/dd-trace-py",
  "jackmpcollins/magentic",
  "langchain-ai/langsmith-sdk",
  "alexrudall/ruby-openai",
  "tidyverse/ellmer"
])

/**
 * The suites of the Responses set: the five above, and tidyverse/ellmer, whose
 * recordings (and the images of all six) were added as an out-of-sample check
 * once the rules had been found on the five suites' text requests.
 */
export const RESPONSES_SUITES: ReadonlySet<string> = new Set([...SUITES, "tidyverse/ellmer"])

/** Whether a Responses request sends an image (given inline, the only kind the set keeps). */
export const hasInputImage = (request: { readonly input: unknown }): boolean => JSON.stringify(request.input).includes('"input_image"')

/** The requests the Responses rules were found on: the five suites' requests without images. */
export const isResponsesInSample = (c: { readonly source: { readonly repo: string }; readonly request: { readonly input: unknown } }): boolean =>
  SUITES.has(c.source.repo) && !hasInputImage(c.request)

export interface Recorded {
  readonly source: { readonly repo: string; readonly commit: string }
}

/**
 * The suites whose cassettes were written with their keys sorted: pydantic-ai's
 * serializer calls `yaml.dump`, which sorts every mapping, so a JSON Schema's
 * `properties` come back in alphabetical order, not in the order they were sent.
 */
const SORTED_KEYS: ReadonlySet<string> = new Set(["pydantic/pydantic-ai"])

/**
 * The order a sorted cassette's `properties` were most likely sent in: the
 * required ones in the order of `required` (an array, which the cassette kept
 * as sent; pydantic and MCP servers list it in field order), then the others
 * as recorded. Order changes the count only now and then (a union or a
 * one-line object at the end of a line tokenizes differently), so a wrong
 * guess shows as a token or two on a few requests.
 */
export const restorePropertyOrder = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(restorePropertyOrder)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = restorePropertyOrder(v)
  const properties = out["properties"]
  const required = out["required"]
  if (typeof properties === "object" && properties !== null && !Array.isArray(properties) && Array.isArray(required)) {
    const props = properties as Record<string, unknown>
    const first = required.filter((k): k is string => typeof k === "string" && Object.hasOwn(props, k))
    const ordered: Record<string, unknown> = {}
    for (const k of first) ordered[k] = props[k]
    for (const [k, v] of Object.entries(props)) if (!Object.hasOwn(ordered, k)) ordered[k] = v
    out["properties"] = ordered
  }
  return out
}

/**
 * The cases of `test/data/<name>/cases.json`, each request's schemas in the
 * order it was sent where the cassette sorted them (`restorePropertyOrder`).
 */
export const loadUsageSet = <A extends Recorded>(name: string): ReadonlyArray<A> =>
  readUsageSet<A & { readonly request?: unknown }>(name).map((c) =>
    SORTED_KEYS.has(c.source.repo) && c.request !== undefined ? { ...c, request: restorePropertyOrder(c.request) } : c
  )

/** The cases of `test/data/<name>/cases.json` exactly as stored (what `loadUsageSet` starts from). */
export const readUsageSet = <A extends Recorded>(name: string): ReadonlyArray<A> =>
  JSON.parse(fs.readFileSync(new URL(`data/${name}/cases.json`, import.meta.url), "utf8")) as ReadonlyArray<A>

/**
 * Names for a set's cases: the shortest end of a case's cassette path that no
 * other cassette of the set shares (the file name, unless another test or
 * suite has a cassette of that name: Mirascope names its cassettes
 * `sync.yaml` and `async.yaml`), then `#` and the interaction.
 */
export const caseNamer = (
  cases: ReadonlyArray<{ readonly source: { readonly path: string; readonly interaction: number } }>
): ((c: { readonly source: { readonly path: string; readonly interaction: number } }) => string) => {
  const paths = [...new Set(cases.map((c) => c.source.path))]
  const suffixes = (path: string): Array<string> => {
    const segments = path.split("/")
    return segments.map((_, i) => segments.slice(i - segments.length).join("/")).reverse()
  }
  // how many cassettes end in each run of path segments: one pass, then each path takes its shortest unique end
  const uses = new Map<string, number>()
  for (const path of paths) for (const suffix of suffixes(path)) uses.set(suffix, (uses.get(suffix) ?? 0) + 1)
  const names = new Map(paths.map((path) => [path, suffixes(path).find((suffix) => uses.get(suffix) === 1) ?? path]))
  return (c) => `${names.get(c.source.path) ?? c.source.path}#${c.source.interaction}`
}

export const relativeError = (estimate: number, actual: number): number => Math.abs(estimate - actual) / actual

/** The `q` quantile (nearest rank) of `xs`. */
export const quantile = (xs: ReadonlyArray<number>, q: number): number => [...xs].sort((a, b) => a - b)[Math.ceil(q * xs.length) - 1]!

/**
 * For each suite, a calibration prior its own requests did not inform: the median, over the other suites' requests,
 * of what a calibration factor scales (the billed input over the estimate, both without the documented framing, as
 * `Calibration.recordRequest` measures them).
 */
export const priorsLeavingOutEachSuite = <A extends Recorded>(
  cases: ReadonlyArray<A>,
  estimate: (c: A) => { readonly total: number; readonly framing: number },
  billed: (c: A) => number
): ReadonlyMap<string, number> => {
  const ratios = cases.map((c) => {
    const e = estimate(c)
    return { suite: c.source.repo, ratio: (billed(c) - e.framing) / (e.total - e.framing) }
  })
  const out = new Map<string, number>()
  for (const { suite } of ratios) {
    if (!out.has(suite)) out.set(suite, quantile(ratios.filter((r) => r.suite !== suite).map((r) => r.ratio), 0.5))
  }
  return out
}

/** The Claude generation a calibration learns one factor for: Claude 2 and 3 apart from Claude 4 and later. */
export const claudeGeneration = (model: string): string => (/claude-(2|3|instant)/.test(model) ? "claude-3" : "claude-4")

/** Whether a Chat Completions request holds an assistant message with more than one tool call. */
export const hasParallelCalls = (messages: ReadonlyArray<{ readonly tool_calls?: unknown }> | undefined): boolean =>
  (messages ?? []).some((m) => Array.isArray(m.tool_calls) && m.tool_calls.length > 1)

/** A recorded Responses request, as far as its grouping reads it. */
export interface ResponsesRequest {
  readonly input: unknown
  readonly tools?: ReadonlyArray<unknown>
  readonly text?: { readonly format?: { readonly type?: string } }
}

export type ResponsesKind = "plain" | "tools" | "format" | "reasoning"

/** How a Responses request is grouped: with reasoning items, else with a `json_schema` text format, else with function tools, else plain. */
export const responsesKindOf = (request: ResponsesRequest): ResponsesKind => {
  const items: ReadonlyArray<unknown> = Array.isArray(request.input) ? request.input : []
  if (items.some((item) => typeof item === "object" && item !== null && (item as { readonly type?: unknown }).type === "reasoning")) return "reasoning"
  if (request.text?.format?.type === "json_schema") return "format"
  return (request.tools?.length ?? 0) > 0 ? "tools" : "plain"
}
