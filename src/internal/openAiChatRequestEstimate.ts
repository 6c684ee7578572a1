/**
 * The heuristic count of an OpenAI Chat Completions request: the same
 * rendering as the exact counter (`openAiChatPrompt.ts`), with the
 * character-class text estimator in place of a tokenizer. No vocabulary is
 * loaded, so this is the count the main entry can afford on every request.
 *
 * The renderer's fixed scaffolding is counted at its known exact cost: the
 * opening and closing lines of the functions namespace are the same in every
 * request with tools, and so are the start of a tool call's header and the
 * role that heads every message (one token); the text estimator, fitted on
 * prose and code, over-counts them by a token or two each.
 *
 * @internal
 */
import { type HeuristicTable, rawEstimateWith } from "./heuristic.js"
import {
  type ChatEncoding,
  type ChatRequestLike,
  type ChatRequestTokens,
  countChatRequest,
  encodingForModel,
  type PromptFormat,
  TOOLS_HEAD,
  TOOLS_TAIL
} from "./openAiChatPrompt.js"
import { cl100k, o200k } from "./weights.js"

/** Exact token counts of the scaffolding, the same in o200k and cl100k. */
const TOOLS_HEAD_TOKENS = 9
const TOOLS_TAIL_TOKENS = 4
/** A call's header: "assistant", " to", "=", "functions", then the name with its leading dot. */
const CALL_HEADER = "assistant to=functions."
const CALL_HEADER_TOKENS = 4
const PARALLEL_HEADER = "assistant to=multi_tool_use.parallel"
const PARALLEL_HEADER_TOKENS = 7
/** The author of a parallel call's results on the o200k models (`PARALLEL_RESULTS_AUTHOR` in the renderer). */
const PARALLEL_RESULTS_HEADER = "multi_tool_use.parallel"
const PARALLEL_RESULTS_HEADER_TOKENS = 4
/** Message headers: each role is one token in both encodings (the text estimator, fitted on prose, says two). */
const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"])

/**
 * How an estimator counts a rendered prompt: its texts, its turn headers, and
 * the message that carries the tools and the response format with them (see
 * `countRenderedPrompt`).
 */
export interface PromptCounter {
  readonly text: (text: string) => number
  readonly header: (text: string) => number
  readonly sections: (message: string, sections: string) => number
}

/**
 * An estimator that counts the renderer's scaffolding at its exact cost: the
 * functions namespace's opening and closing lines wherever a text contains
 * them, and, in turn headers only, message roles, the fixed part of a tool
 * call's header and the parallel call's author and recipient (a user's text
 * that is one of those words is priced as any text: a header's exact price
 * is lower than its prefix's, "multi_tool_use.paralle" costing 5 and the
 * author 4).
 *
 * Other texts are counted by the character-class estimator without its
 * per-text constant: that constant is fitted on whole texts, and a prompt is
 * mostly short pieces (a function name heading a result, a one-line
 * message), which it would over-count by about a token each. A text is never
 * counted less than any of its prefixes.
 */
export const scaffoldAwareEstimator = (table: HeuristicTable): PromptCounter => {
  const estimateTextWith = (text: string, t: HeuristicTable): number =>
    text.length === 0 ? 0 : Math.max(1, Math.round(rawEstimateWith(text, t) - t.nonEmpty))
  const headExcess = Math.round(piecewise(TOOLS_HEAD, table)) - TOOLS_HEAD_TOKENS
  const tailExcess = estimateTextWith(TOOLS_TAIL, table) - TOOLS_TAIL_TOKENS
  const header = (text: string): number => {
    if (text === PARALLEL_HEADER) return PARALLEL_HEADER_TOKENS
    if (text === PARALLEL_RESULTS_HEADER) return PARALLEL_RESULTS_HEADER_TOKENS
    if (ROLES.has(text)) return 1
    // a participant's header, "role:name": the role, then the name with its colon
    const colon = text.indexOf(":")
    if (colon > 0 && ROLES.has(text.slice(0, colon))) return 1 + estimateTextWith(text.slice(colon), table)
    // The dot joins the name's first token (".get"), so the name counts as it would alone.
    if (text.startsWith(CALL_HEADER)) return CALL_HEADER_TOKENS + estimateTextWith(text.slice(CALL_HEADER.length), table)
    return scaffolded(text)
  }
  // The message as one text, then the sections line by line, each piece from a run of line breaks to the next, with
  // no per-text constant. A user's text in them (the message, a description, which ends its line) then ends its piece,
  // so a longer one never costs less: counted as one text, what follows it was priced from the state it left, and a
  // system message or a description ending in a backslash made the request 2 tokens cheaper. The renderer writes the
  // namespace's opening and closing lines (a description is a comment, `// `, which cannot be one of them).
  const sections = (message: string, appended: string): number => {
    const n = Math.max(1, Math.round((message.length === 0 ? 0 : rawEstimateWith(message, table) - table.nonEmpty) + piecewise(appended, table)))
    return Math.max(0, n - (appended.includes(TOOLS_HEAD) ? headExcess : 0) - (appended.includes(TOOLS_TAIL) ? tailExcess : 0))
  }
  return { text: scaffolded, header, sections }

  // The block is tokenized on its own or after a system message's content, never split. A text that completes the
  // namespace's opening or closing line costs at least what it cost one character before, so the discount never
  // makes a text cheaper than its prefixes (a user could type those lines).
  function scaffolded(text: string): number {
    const head = text.indexOf(TOOLS_HEAD)
    const tail = text.endsWith(TOOLS_TAIL)
    if (head === -1 && !tail) return estimateTextWith(text, table)
    const n = Math.max(0, estimateTextWith(text, table) - (head === -1 ? 0 : headExcess) - (tail ? tailExcess : 0))
    const before = tail ? text.slice(0, -1) : text.slice(0, head + TOOLS_HEAD.length - 1)
    return Math.max(n, scaffolded(before))
  }
}

/** The unrounded estimate of `text` counted line by line: each piece from a run of line breaks to the next, no constant. */
const piecewise = (text: string, table: HeuristicTable): number => {
  let sum = 0
  for (let from = 0; from < text.length;) {
    let i = from
    while (i < text.length && text.charCodeAt(i) === 10) i++
    const next = text.indexOf("\n", i)
    const to = next === -1 ? text.length : next
    sum += rawEstimateWith(text.slice(from, to), table) - table.nonEmpty
    from = to
  }
  return sum
}

const estimators: Record<ChatEncoding, PromptCounter> = {
  o200k: scaffoldAwareEstimator(o200k),
  cl100k: scaffoldAwareEstimator(cl100k)
}

/** Options of `estimateOpenAiChatRequest`: as for the exact counter. */
export interface EstimateChatRequestOptions {
  readonly model?: string
  readonly encoding?: ChatEncoding
  readonly format?: PromptFormat
}

/**
 * The estimated prompt tokens of a Chat Completions request, with the same
 * breakdown as the exact count (within 10% of the API's figure at the 90th
 * percentile of the public recorded requests).
 */
export const estimateOpenAiChatRequest = (
  request: ChatRequestLike,
  options: EstimateChatRequestOptions = {}
): ChatRequestTokens => {
  const model = options.model ?? (typeof request.model === "string" ? request.model : undefined)
  const encoding = options.encoding ?? encodingForModel(model)
  return countChatRequest(
    model === undefined || request.model !== undefined ? request : { ...request, model },
    estimators[encoding].text,
    options.format === undefined ? {} : { format: options.format },
    estimators[encoding].header,
    estimators[encoding].sections
  )
}
