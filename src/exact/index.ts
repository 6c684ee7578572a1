/**
 * Exact token counts with gpt-tokenizer: the `TokenEstimator` layers for the
 * o200k (GPT-4o, GPT-4.1, GPT-5, o-series) and cl100k (GPT-4, GPT-3.5)
 * encodings.
 *
 * A separate entry point (`effect-agent-messages/exact`) because
 * gpt-tokenizer's vocabularies weigh several megabytes: only users who import
 * this entry load them, and gpt-tokenizer is an optional peer dependency.
 * Texts are counted exactly; messages follow the same counting rules as every
 * other estimator (see `TokenEstimator`), with a per-message overhead for the
 * chat framing (default 4), so a conversation estimate is close to, but not
 * byte-for-byte, the provider's count. Special-token text such as
 * `<|endoftext|>` in a message is counted as ordinary text, never thrown on.
 *
 * @example
 * import { Effect } from "effect"
 * import { layerO200k } from "effect-agent-messages/exact"
 *
 * program.pipe(Effect.provide(layerO200k))
 *
 * @since 0.1.0
 */
import { Layer } from "effect"
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base"
import { DEFAULT_MESSAGE_OVERHEAD, type Encoding, make, type Service, TokenEstimator } from "../TokenEstimator.js"

/**
 * Options of the exact estimator: the `encoding` to count with and the
 * per-message overhead (default 4).
 *
 * @since 0.1.0
 */
export interface ExactOptions {
  readonly encoding: Encoding
  readonly messageOverhead?: number
}

/** Special tokens in user text are plain text to us: never a reason to throw. */
const asPlainText = { disallowedSpecial: new Set<string>() }

/**
 * The exact number of tokens of `text` in `encoding`.
 *
 * @example
 * countText("hello world", "o200k") // 2
 *
 * @since 0.1.0
 */
export const countText = (text: string, encoding: Encoding): number =>
  text.length === 0 ? 0 : encoding === "cl100k" ? countCl100k(text, asPlainText) : countO200k(text, asPlainText)

/**
 * An estimator counting texts exactly with gpt-tokenizer.
 *
 * @example
 * makeExact({ encoding: "o200k" }).estimateMessage(Message.user("hello world")) // 2 + 4
 *
 * @since 0.1.0
 */
export const makeExact = (options: ExactOptions): Service => {
  const encoding = options.encoding
  return make({
    estimateText: (text) => countText(text, encoding),
    messageOverhead: options.messageOverhead ?? DEFAULT_MESSAGE_OVERHEAD
  })
}

/**
 * The exact estimator as a `TokenEstimator` layer.
 *
 * @example
 * program.pipe(Effect.provide(layerExact({ encoding: "cl100k", messageOverhead: 3 })))
 *
 * @since 0.1.0
 */
export const layerExact = (options: ExactOptions): Layer.Layer<TokenEstimator> =>
  Layer.sync(TokenEstimator, () => makeExact(options))

/**
 * Exact o200k counts (GPT-4o, GPT-4.1, GPT-5, o-series), 4 tokens per message.
 *
 * @since 0.1.0
 */
export const layerO200k: Layer.Layer<TokenEstimator> = layerExact({ encoding: "o200k" })

/**
 * Exact cl100k counts (GPT-4, GPT-3.5), 4 tokens per message.
 *
 * @since 0.1.0
 */
export const layerCl100k: Layer.Layer<TokenEstimator> = layerExact({ encoding: "cl100k" })

export {
  type ChatEncoding,
  type ChatFunctionCallLike,
  type ChatFunctionDefinitionLike,
  type ChatMessageLike,
  type ChatRequestLike,
  type ChatRequestTokens,
  type ChatToolCallLike,
  type ChatToolLike,
  type CountChatRequestOptions,
  countOpenAiChatRequest,
  encodingForModel,
  type PromptFormat,
  promptFormatForModel
} from "./openAiChatRequest.js"
