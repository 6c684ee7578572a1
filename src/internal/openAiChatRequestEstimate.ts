/**
 * The heuristic count of an OpenAI Chat Completions request: the same
 * rendering as the exact counter (`openAiChatPrompt.ts`), with the
 * character-class text estimator in place of a tokenizer. No vocabulary is
 * loaded, so this is the count the main entry can afford on every request.
 *
 * The renderer's fixed scaffolding is counted at its known exact cost: the
 * opening and closing lines of the functions namespace are the same in every
 * request with tools, and so is the start of a tool call's header; the text
 * estimator, fitted on prose and code, over-counts them by a token or two each.
 *
 * @internal
 */
import { estimateTextWith, type HeuristicTable } from "./heuristic.js"
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

/**
 * A text estimator that counts the renderer's scaffolding at its exact cost:
 * the functions namespace's opening and closing lines wherever a text
 * contains them, and the fixed part of a tool call's header.
 */
export const scaffoldAwareEstimator = (table: HeuristicTable): ((text: string) => number) => {
  const headExcess = estimateTextWith(TOOLS_HEAD, table) - TOOLS_HEAD_TOKENS
  const tailExcess = estimateTextWith(TOOLS_TAIL, table) - TOOLS_TAIL_TOKENS
  return (text) => {
    if (text === PARALLEL_HEADER) return PARALLEL_HEADER_TOKENS
    // The dot joins the name's first token (".get"), so the name counts as it would alone.
    if (text.startsWith(CALL_HEADER)) return CALL_HEADER_TOKENS + estimateTextWith(text.slice(CALL_HEADER.length), table)
    let n = estimateTextWith(text, table)
    // The block is tokenized on its own or after a system message's content, never split.
    if (text.includes(TOOLS_HEAD)) n -= headExcess
    if (text.endsWith(TOOLS_TAIL)) n -= tailExcess
    return Math.max(0, n)
  }
}

const estimators: Record<ChatEncoding, (text: string) => number> = {
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
    estimators[encoding],
    options.format === undefined ? {} : { format: options.format }
  )
}
