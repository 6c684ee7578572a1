/**
 * The request counter against 1,202 OpenAI Chat Completions requests recorded
 * from the live API in 2024–26 with the `usage.prompt_tokens` it reported:
 * the VCR cassettes of fifteen public test suites (pydantic-ai, crewAI,
 * Mirascope, chatlas, logfire, magentic, langsmith-sdk, ruby-openai and
 * ellmer, MIT; openinference, openllmetry, llm,
 * opentelemetry-python-contrib and elastic-otel-python-instrumentations,
 * Apache-2.0; dd-trace-py, Apache-2.0 or BSD-3-Clause), gathered by
 * scripts/collect-chat-usage.py into test/data/openai-chat-usage (see its
 * README for sources and licences). The last ten (203 requests) were added
 * as an out-of-sample check, after the rules had been found on the first
 * five. 1,126 requests are for an o200k model (the gpt-4o, gpt-4.1 and gpt-5
 * families, o1-mini, o3-mini, o4-mini), 76 for a cl100k one (gpt-3.5-turbo,
 * gpt-4, gpt-4-turbo); their messages hold text, or images inline (36
 * requests; cut to their headers, which is all the count reads).
 *
 * - Without a `json_schema` response format or parallel tool calls (998
 *   requests: plain chats, images, tool definitions, tool round trips), the
 *   exact count is the API's figure, except the 37 pinned below with the
 *   reason. pydantic-ai's cassettes sort every JSON key, so the loader puts
 *   a schema's properties back in the order of its `required` list
 *   (`restorePropertyOrder` in usageData.ts); read as recorded, 5 requests
 *   whose order shows in the count are 1 token over.
 * - With a `json_schema` response format (159 requests, 35 formats), the
 *   exact count is the API's figure for every one but 3 gpt-5.4 requests.
 * - With parallel tool calls (45), for every one but a gpt-5.4 and a
 *   gpt-3.5-turbo-0125 request.
 * - The heuristic stays within 10% of the API's figure at the 90th percentile.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChatRequestLike, countOpenAiChatRequest, encodingForModel } from "../src/exact/index.js"
import { renderFunctionNamespace, TOOLS_HEAD, TOOLS_TAIL } from "../src/internal/openAiChatPrompt.js"
import { estimateOpenAiChatRequest } from "../src/internal/openAiChatRequestEstimate.js"
import { caseNamer, CHAT_SUITES, hasParallelCalls, loadUsageSet, readUsageSet, restorePropertyOrder } from "./usageData.js"

interface UsageCase {
  readonly source: { readonly repo: string; readonly path: string; readonly commit: string; readonly interaction: number }
  readonly request: ChatRequestLike & { readonly model: string; readonly response_format?: { readonly type?: string } }
  readonly prompt_tokens: number
}

const cases = loadUsageSet<UsageCase>("openai-chat-usage")

const nameOf: (c: UsageCase) => string = caseNamer(cases)

type Kind = "core" | "parallel" | "responseFormat"
const kindOf = (c: UsageCase): Kind =>
  c.request.response_format?.type === "json_schema"
    ? "responseFormat"
    : hasParallelCalls(c.request.messages)
    ? "parallel"
    : "core"

const PLANNING =
  "an array of objects whose properties are described (crewAI's create_reasoning_plan, a strict tool whose items are written in place): the API counts 32 more, a rendering not found"
/**
 * The gpt-5 family, when no tool of the request is strict: 1 over for each tool in all 19 requests without an image
 * (gpt-5-mini and gpt-5.4, 1 and 2 tools, with and without calls), exact in all 5 with one (gpt-5-mini, the same
 * tool). A request with a strict tool beside them (pydantic-ai's gpt-5 matrix) or with strict tools only (gpt-5.4-mini)
 * is exact. No rendering found that explains it, so the requests are pinned rather than a rule written for them.
 */
const GPT5_NOT_STRICT = "gpt-5 family, no tool strict and no image: 1 over for each tool"
const GPT5_PARAMETERLESS = `${GPT5_NOT_STRICT} (gpt-5-mini, one parameterless tool)`
const GPT54_TOOLS = `${GPT5_NOT_STRICT} (gpt-5.4, 5 definitions of 1 and 2 tools)`

/** Requests without parallel calls or a response format whose exact count differs from the API's, by how much, and why. */
const CORE_DEVIATIONS: Readonly<Record<string, { readonly delta: number; readonly reason: string }>> = {
  "TestAgentExecutorPlanning.test_agent_kickoff_with_planning_stores_plan_in_state.yaml#0": { delta: -32, reason: PLANNING },
  "TestAgentExecutorPlanning.test_executor_state_contains_plan_after_planning.yaml#0": { delta: -32, reason: PLANNING },
  "TestAgentExecutorPlanning.test_planning_creates_minimal_steps_for_multi_step_task.yaml#0": { delta: -32, reason: PLANNING },
  "TestAgentExecutorPlanning.test_planning_handles_sequential_dependency_task.yaml#0": { delta: -32, reason: PLANNING },
  "TestReasoningEffort.test_reasoning_effort_high_runs_full_observation_pipeline.yaml#0": { delta: -32, reason: PLANNING },
  "TestReasoningEffort.test_reasoning_effort_low_skips_decide_and_replan.yaml#1": { delta: -32, reason: PLANNING },
  "TestResponseFormatWithKickoff.test_kickoff_response_format_with_planning_and_tools.yaml#1": { delta: -32, reason: PLANNING },
  "test_agent_kickoff_multi_step_task_with_planning.yaml#0": { delta: -32, reason: PLANNING },
  "test_agent_kickoff_with_planning.yaml#0": { delta: -32, reason: PLANNING },
  "TestOpenAIStructuredPlanning.test_openai_research_workflow_generates_steps.yaml#0": { delta: -32, reason: PLANNING },
  "test_mixed_content_ordering[openai_chat].yaml#0": { delta: 1, reason: GPT5_PARAMETERLESS },
  "test_model_sees_multiple_images[openai_chat].yaml#0": { delta: 1, reason: GPT5_PARAMETERLESS },
  "test_multimodal_tool_return_matrix[direct-binary-audio-openai_chat].yaml#0": { delta: 1, reason: GPT5_PARAMETERLESS },
  "test_multimodal_tool_return_matrix[direct-binary-document-openai_chat].yaml#0": { delta: 1, reason: GPT5_PARAMETERLESS },
  "test_multimodal_tool_return_matrix[direct-binary-image-openai_chat].yaml#0": { delta: 1, reason: GPT5_PARAMETERLESS },
  "test_multimodal_tool_return_matrix[direct-binary-video-openai_chat].yaml#0": { delta: 1, reason: GPT5_PARAMETERLESS },
  "test_system_prompt_role_o1_mini.yaml#0": { delta: -7, reason: "o1-mini with two user messages: 7 tokens under, once, not explained" },
  "test_yaml_document_url_input.yaml#1": { delta: 19, reason: "a 3,000-token YAML file sent as a second text part: 19 over, not explained" },
  "TestOpenLitInstrumentor.test_openlit_instrumentor.yaml#1": {
    delta: 4,
    reason: "a 7-token user message reported as 10 tokens in all: the cassette's request is likely not the one that was sent"
  },
  "test_openai_tool_variations.yaml#0": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_tool_variations.yaml#1": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_tool_variations.yaml#2": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_tool_variations.yaml#3": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_tool_variations.yaml#4": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_tool_variations.yaml#5": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_tool_variations.yaml#6": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_tool_variations.yaml#8": { delta: 2, reason: GPT54_TOOLS },
  "test_openai_tool_variations.yaml#9": { delta: 2, reason: GPT54_TOOLS },
  "test_openai_tool_variations.yaml#10": { delta: 2, reason: GPT54_TOOLS },
  "test_openai_tool_variations_async.yaml#0": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_tool_variations_async.yaml#1": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_tool_variations_async.yaml#2": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_tool_variations_async.yaml#3": { delta: 1, reason: GPT54_TOOLS },
  "test_openai_chat_model_complete_pydantic_model_openai_strict.yaml#0": {
    delta: -1,
    reason: "gpt-4o, a strict tool whose properties' titles are their names capitalized, named as the tool choice: 1 under, once, not explained"
  },
  "openai-image.yml#0": {
    delta: 1,
    reason: "gpt-4.1-mini with a 300×346 PNG: 1 over, once; gpt-4.1-mini's other recorded images are exact"
  },
  "chat_completion_custom_tool_call.yaml#0": {
    delta: -113,
    reason: "gpt-5 with a custom tool whose input is a Lark grammar: the only recorded one; what the model is shown of a grammar is not known"
  }
}

/** Requests with parallel calls whose exact count differs from the API's. */
const PARALLEL_DEVIATIONS: Readonly<Record<string, { readonly delta: number; readonly reason: string }>> = {
  "test_openai_tool_variations.yaml#7": { delta: 1, reason: GPT54_TOOLS },
  "gpt-3_5-turbo_multiple_tool_calls_full_conversation.yml#1": {
    delta: 8,
    reason: "gpt-3.5-turbo-0125 with two parallel calls (results with an emoji): 8 over, the cl100k surcharge, once; no other recorded cl100k request has parallel calls"
  }
}

/** Requests with a `json_schema` response format whose exact count differs from the API's. */
/**
 * Requests with a response format whose exact count differs from the API's: none. (chatlas's three gpt-5.4 requests
 * were 4 over until the gpt-5 family's reply to come stopped being addressed to the format.)
 */
const FORMAT_DEVIATIONS: Readonly<Record<string, { readonly delta: number; readonly reason: string }>> = {}

const schemaNameOf = (c: UsageCase): string => {
  const format = c.request.response_format as { readonly json_schema?: { readonly name?: string } } | undefined
  return format?.json_schema?.name ?? ""
}

// the exact counter loads gpt-tokenizer's vocabulary lazily; once loaded (top-level await), it runs synchronously
await Effect.runPromise(countOpenAiChatRequest({ messages: [] }, { encoding: "o200k" }))
await Effect.runPromise(countOpenAiChatRequest({ messages: [] }, { encoding: "cl100k" }))
const exactDelta = (c: UsageCase): number => Effect.runSync(countOpenAiChatRequest(c.request)).total - c.prompt_tokens

describe("OpenAI Chat requests recorded in 2024–26 with the API's prompt_tokens (test/data/openai-chat-usage)", () => {
  it("holds 1,202 requests from fifteen test suites, 998 plain, 45 with parallel calls, 159 with a json_schema response format", () => {
    const by = (k: Kind) => cases.filter((c) => kindOf(c) === k).length
    expect([cases.length, by("core"), by("parallel"), by("responseFormat")]).toEqual([1202, 998, 45, 159])
    expect(new Set(cases.map((c) => c.source.repo))).toEqual(CHAT_SUITES)
    expect(cases.filter((c) => encodingForModel(c.request.model) === "cl100k")).toHaveLength(76)
    for (const c of cases) expect(c.source.commit).toMatch(/^[0-9a-f]{40}$/)
  })

  it("pins only deviations of requests that exist, each named once in its group", () => {
    expect([CORE_DEVIATIONS, PARALLEL_DEVIATIONS, FORMAT_DEVIATIONS].map((pinned) => Object.keys(pinned).length)).toEqual([36, 2, 0])
    for (const [kind, pinned] of [["core", CORE_DEVIATIONS], ["parallel", PARALLEL_DEVIATIONS], ["responseFormat", FORMAT_DEVIATIONS]] as const) {
      const names = cases.filter((c) => kindOf(c) === kind).map(nameOf)
      for (const name of Object.keys(pinned)) expect(names.filter((n) => n === name), name).toHaveLength(1)
    }
  })

  it("the exact count is the API's figure for 962 of the 998 plain requests, and the pinned figure for the 36 others", () => {
    const missed: Array<string> = []
    for (const c of cases.filter((x) => kindOf(x) === "core")) {
      const delta = exactDelta(c)
      if (delta !== (CORE_DEVIATIONS[nameOf(c)]?.delta ?? 0)) missed.push(`${nameOf(c)}: ${delta}`)
    }
    expect(missed).toEqual([])
  }, 300_000)

  it("pydantic-ai's cassettes sort their keys: as recorded, 5 requests are 1 over; in the order of `required` all 5 are exact", () => {
    const recorded = readUsageSet<UsageCase>("openai-chat-usage")
    const changed = recorded.flatMap((raw, i) => {
      const asLoaded = cases[i]!
      const before = exactDelta(raw)
      const after = exactDelta(asLoaded)
      return before === after ? [] : [`${asLoaded.source.repo} ${nameOf(asLoaded)}: ${before} -> ${after}`]
    })
    expect([...changed].sort()).toEqual([
      "pydantic/pydantic-ai test_ref_sibling_wire_contract[openai-structured-dict].yaml#0: 1 -> 0",
      "pydantic/pydantic-ai test_mcptoolset_dynamic_toolset_in_workflow.yaml#3: 1 -> 0",
      "pydantic/pydantic-ai test_mcptoolset_dynamic_toolset_in_workflow.yaml#11: 1 -> 0",
      "pydantic/pydantic-ai test_mcptoolset_in_temporal_workflow.yaml#3: 1 -> 0",
      "pydantic/pydantic-ai test_mcptoolset_in_temporal_workflow.yaml#8: 1 -> 0"
    ].sort())
    // the other suites' cassettes keep the order they sent, and the loader leaves them alone
    for (const [i, raw] of recorded.entries()) {
      if (raw.source.repo !== "pydantic/pydantic-ai") expect(JSON.stringify(cases[i]!.request), nameOf(raw)).toBe(JSON.stringify(raw.request))
    }
  }, 300_000)

  it("restorePropertyOrder: required properties first, in the order of `required`, then the others as recorded, at every depth", () => {
    const schema = {
      type: "object",
      properties: {
        address: { type: "object", properties: { city: { type: "string" }, street: { type: "string" } }, required: ["street", "city"] },
        name: { type: "string" },
        zip: { type: "string" }
      },
      required: ["name", "address", "missing"]
    }
    const restored = restorePropertyOrder({ tools: [{ function: { parameters: schema } }] }) as { tools: Array<{ function: { parameters: typeof schema } }> }
    const params = restored.tools[0]!.function.parameters
    expect(Object.keys(params.properties)).toEqual(["name", "address", "zip"])
    expect(Object.keys(params.properties.address.properties)).toEqual(["street", "city"])
    expect(params.required).toEqual(["name", "address", "missing"])
    // no `required`, nothing to go by: left as recorded
    expect(Object.keys((restorePropertyOrder({ properties: { b: 1, a: 2 } }) as { properties: object }).properties)).toEqual(["b", "a"])
  })

  it("gpt-5 family: an assistant message of text costs 2 tokens more; 6 gpt-5.4 requests with 1 to 3 of them are as far off as those without (exact, or 1 over with a tool)", () => {
    const isText = (m: { readonly role?: unknown; readonly tool_calls?: unknown }) => m.role === "assistant" && !Array.isArray(m.tool_calls)
    const withReplies = cases.filter((c) => c.request.model.startsWith("gpt-5") && (c.request.messages ?? []).some(isText))
    expect(withReplies.map((c) => `${nameOf(c)}: ${(c.request.messages ?? []).filter(isText).length}`)).toEqual([
      "test_data_extraction.yaml#1: 1",
      "test_data_extraction.yaml#2: 2",
      "test_data_extraction.yaml#3: 3",
      "test_openai_respects_turns_interface.yaml#2: 1",
      "test_openai_tool_variations.yaml#2: 1",
      "test_openai_tool_variations.yaml#3: 1"
    ])
    // as the conversations' requests without a reply are: exact under the response format (the earlier replies
    // addressed to it, the reply to come not) and without it, 1 over with the tool (pinned above); without the 2 tokens,
    // 2, 4 and 6 under that
    expect(withReplies.map(exactDelta)).toEqual([0, 0, 0, 0, 1, 1])
  })

  it("inline images are priced by their size and the model: 35 of the 36 requests with images count exactly (gpt-5.4's 60×30 image among them: 4 tokens, 2 patches at 1.2 and one more, where tiles would be 210), the other pinned", () => {
    const withImages = cases.filter((c) => JSON.stringify(c.request.messages).includes("data:image/"))
    expect(withImages).toHaveLength(36)
    for (const c of withImages) expect(exactDelta(c), nameOf(c)).toBe(CORE_DEVIATIONS[nameOf(c)]?.delta ?? 0)
  })

  it("parallel tool calls: the exact count is the API's figure for 43 of the 45 requests (2 and 3 calls; gpt-4o, gpt-4o-mini, gpt-4.1-nano, gpt-5-nano), 2 others pinned", () => {
    const parallel = cases.filter((c) => kindOf(c) === "parallel")
    const missed = parallel.map((c) => ({ c, delta: exactDelta(c) })).filter((x) => x.delta !== (PARALLEL_DEVIATIONS[nameOf(x.c)]?.delta ?? 0))
    expect(missed.map(({ c, delta }) => `${nameOf(c)}: ${delta}`)).toEqual([])
    // their results as one turn, a list (before, a turn for each result: 24 of them 2 under to 67 over); and on gpt-4o
    // with curly quotes and dashes as they are: escaped, these 4 were 9, 9, 14 and 58 over, in step with their number,
    // where gpt-4o-mini's request with 185 of them is exact escaped (535 under unescaped); the o200k models only (the
    // cl100k one, pinned above, has an emoji in its results)
    const withNonAscii = parallel.filter((c) =>
      encodingForModel(c.request.model) === "o200k" &&
      (c.request.messages ?? []).some((m) => m.role === "tool" && /[^\x00-\x7f]/.test(JSON.stringify(m.content ?? "")))
    )
    expect(withNonAscii.map((c) => c.request.model).sort()).toEqual(["gpt-4o", "gpt-4o", "gpt-4o", "gpt-4o", "gpt-4o-mini"])
  }, 300_000)

  it("json_schema response formats: the exact count is the API's figure for all 159 requests (35 formats)", () => {
    const withFormat = cases.filter((x) => kindOf(x) === "responseFormat")
    expect(new Set(withFormat.map((c) => JSON.stringify(c.request.response_format))).size).toBe(35)
    expect(new Set(withFormat.map(schemaNameOf)).size).toBe(31)
    const missed = withFormat.map((c) => ({ c, delta: exactDelta(c) })).filter((x) => x.delta !== (FORMAT_DEVIATIONS[nameOf(x.c)]?.delta ?? 0))
    expect(missed.map(({ c, delta }) => `${nameOf(c)} (${schemaNameOf(c)}): ${delta}`)).toEqual([])
  }, 300_000)

  it("the heuristic is within 10% of the API's figure for 90% of the requests", () => {
    const errors = cases.map((c) => Math.abs(estimateOpenAiChatRequest(c.request).total - c.prompt_tokens) / c.prompt_tokens).sort((a, b) => a - b)
    expect(errors[Math.ceil(0.9 * errors.length) - 1]).toBeLessThanOrEqual(0.1)
  }, 300_000)
})

describe("an array whose items are written on more than one line", () => {
  // the items of `entities` are a titled definition with described properties (4 recorded gpt-4o-mini requests with
  // such a tool were 5 under as `{ ... }[]`); the items of `tags` have no comment and stay one line
  const fn = {
    name: "f",
    parameters: {
      $defs: { Entity: { title: "Entity", type: "object", properties: { name: { type: "string", description: "The name." } }, required: ["name"] } },
      type: "object",
      properties: {
        entities: { type: "array", items: { $ref: "#/$defs/Entity" } },
        tags: { type: "array", items: { type: "object", properties: { a: { type: "string" } } } }
      },
      required: ["entities", "tags"]
    }
  }

  it("on the o200k models is `Array<`, the items' title and description as comment lines, the block and `>`, each on lines of their own", () => {
    const expected = "type f = (_: {\nentities: Array<\n// Entity\n{\n// The name.\nname: string,\n}\n>,\ntags: { a?: string }[],\n}) => any;\n\n"
    expect(renderFunctionNamespace([fn], "current")).toBe(TOOLS_HEAD + expected + TOOLS_TAIL)
    expect(renderFunctionNamespace([fn], "gpt-5")).toBe(TOOLS_HEAD + expected + TOOLS_TAIL)
  })

  it("in the cl100k formats stays `{ ... }[]` (no recording shows otherwise)", () => {
    expect(renderFunctionNamespace([fn], "0125")).toContain("entities: {\n// The name.\nname: string,\n}[],\ntags: { a?: string }[],")
  })
})
