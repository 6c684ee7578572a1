/**
 * The request estimate never goes down when text is appended to a message. The heuristic prices the renderer's
 * fixed words (roles, the parallel call's author) exactly, and did so wherever such a word turned up: a user's
 * "multi_tool_use.parallel" cost 4 while "multi_tool_use.paralle" cost 5. The exact prices now apply to turn
 * headers only.
 *
 * Nor when it is appended to a system message that the tools or a response format follow, or to a tool's or a
 * parameter's description: those sections were counted as one text with what comes before them, priced from the
 * state the user's text left, and a backslash at its end made the request 2 tokens cheaper.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { scaffoldAwareEstimator } from "../src/internal/openAiChatRequestEstimate.js"
import { cl100k, o200k } from "../src/internal/weights.js"
import { Block, Message, Request, TokenEstimator } from "../src/index.js"

const pick = <const A extends ReadonlyArray<string>>(values: A): Arbitrary.Arbitrary<A[number]> => Arbitrary.schema(Schema.Literals(values))

const PIECES = [
  "multi_tool_use.parallel", "multi_tool_use", ".paralle", "assistant", "assistan", "user", "system", "tool", "function",
  "assistant to=functions.", "assistant to=functions.lookup", "assistant to=multi_tool_use.parallel", " to=", "functions.",
  "# Tools\n\n## functions\n\nnamespace functions {\n\n", "} // namespace functions", "type f = () => any;",
  "# Response Formats\n\n## ", "\\", "\\n", "// ", "the", " ", "\n", "{\"id\": 1}", "中文", "😀", "getWeather", "l", ".", "=", ":", "user:bob"
] as const

/** A text and a prefix of it: most often it less its last one to three characters (a word one letter short). */
const textAndPrefix = Arbitrary.all([Arbitrary.array(pick(PIECES), { minLength: 1, maxLength: 4 }), Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 40 })))]).pipe(
  Arbitrary.map(([parts, k]) => {
    const full = parts.join("")
    const cut = full.slice(0, k < 30 ? Math.max(0, full.length - 1 - (k % 3)) : k - 30)
    // cut between characters, not inside one (a user appends characters, not halves of an emoji)
    return { full, prefix: /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut }
  })
)

const estimators = [["o200k", TokenEstimator.heuristic], ["cl100k", Effect.runSync(TokenEstimator.makeHeuristic({ encoding: "cl100k" }))]] as const
const providers = ["openai-chat", "openai-responses"] as const

const lookup = (description: string, parameter: string): Request.ToolDefinition =>
  Request.tool("lookup", { description, parameters: { type: "object", properties: { q: { type: "string", description: parameter } } } })

const format: Request.ResponseFormat = { _tag: "JsonSchema", name: "answer", schema: { type: "object", properties: { a: { type: "string" } } } }

/**
 * The places a text can be appended to: a user message, a system message (alone, before the tools, before a response
 * format), an assistant message, a tool result, a tool's and a parameter's description.
 */
const requests = (t: string): ReadonlyArray<Request.Request> => [
  Request.make([Message.system(t), Message.user("hi")], { model: "gpt-4o", tools: [lookup("Look it up", "what")] }),
  Request.make([Message.system(t), Message.user("hi")], { model: "gpt-4o", responseFormat: format }),
  Request.make([Message.system(t), Message.user("hi")], { model: "gpt-4o", tools: [lookup("Look it up", "what")], responseFormat: format }),
  Request.make([Message.user("hi")], { model: "gpt-4o", tools: [lookup(t, "what"), Request.tool("other", { description: "d" })] }),
  Request.make([Message.user("hi")], { model: "gpt-4o", tools: [lookup("Look it up", t)] }),
  Request.make([Message.user(t)], { model: "gpt-4o" }),
  Request.make([Message.system(t), Message.user("hi")], { model: "gpt-4o" }),
  Request.make([Message.user("hi"), Message.assistant(t)], { model: "gpt-4o" }),
  // (one call: the results of parallel calls are rendered as one JSON list on o200k, where a result that is JSON goes
  // in as it is and any other as an escaped string, so closing a JSON text can lower the real count as well)
  Request.make([Message.user("look"), Message.assistant([Block.toolCall("c1", "lookup", { q: 1 })]), Message.tool([Block.toolResult("c1", "lookup", t)])], { model: "gpt-4o" })
]

describe("the request estimate and appended text", () => {
  it("a user's text that is the parallel call's author costs no less than the same text one letter shorter", () => {
    const total = (t: string) => TokenEstimator.heuristic.estimateRequest(Request.make([Message.user(t)], { model: "gpt-4o" })).total
    expect(total("multi_tool_use.parallel")).toBeGreaterThanOrEqual(total("multi_tool_use.paralle"))
    expect(total("assistant")).toBeGreaterThanOrEqual(total("assistan"))
  })

  it("where the renderer writes them, the fixed words keep their exact prices", () => {
    for (const table of [o200k, cl100k]) {
      const { header, text } = scaffoldAwareEstimator(table)
      expect(header("multi_tool_use.parallel")).toBe(4)
      expect(header("assistant")).toBe(1)
      expect(header("assistant to=multi_tool_use.parallel")).toBe(7)
      expect(text("multi_tool_use.parallel")).toBeGreaterThanOrEqual(text("multi_tool_use.paralle"))
    }
  })

  it.prop("appending text to a message never lowers the heuristic request estimate", [textAndPrefix], ([{ full, prefix }]) => {
    for (const [, estimator] of estimators) {
      for (const provider of providers) {
        const before = requests(prefix)
        const after = requests(full)
        for (let k = 0; k < before.length; k++) {
          expect(estimator.estimateRequest(after[k]!, { provider }).total).toBeGreaterThanOrEqual(estimator.estimateRequest(before[k]!, { provider }).total)
        }
      }
    }
  }, { arbitrary: { runs: 500 }, timeout: 120_000 })
})
