/**
 * Exact token counts with gpt-tokenizer: the `TokenEstimator` layers for the
 * o200k (GPT-4o, GPT-4.1, GPT-5, o-series) and cl100k (GPT-4, GPT-3.5)
 * encodings.
 *
 * A separate entry point (`effect-agent-messages/exact`) because
 * gpt-tokenizer's vocabularies weigh several megabytes: only users who import
 * this entry load them, and gpt-tokenizer is an optional peer dependency. It
 * is loaded when a layer is built; when it is not installed, building the
 * layer fails with `TokenizerUnavailable`, which names the package to
 * install.
 *
 * Texts are counted exactly; messages follow the same counting rules as every
 * other estimator (see `TokenEstimator`), with a per-message overhead for the
 * chat framing (default 4). Special-token text such as `<|endoftext|>` in a
 * message is counted as ordinary text, never thrown on. `estimateRequest`
 * with these layers counts a whole OpenAI Chat request (messages, tool
 * definitions, tool choice, response format, framing) as the API reports
 * it in `usage.prompt_tokens`.
 *
 * @example
 * import { Effect } from "effect"
 * import { Message, TokenEstimator } from "effect-agent-messages"
 * import { layerO200k } from "effect-agent-messages/exact"
 *
 * const program = Effect.gen(function*() {
 *   const estimator = yield* TokenEstimator.TokenEstimator
 *   return estimator.estimateText("hello world") // 2
 * })
 * program.pipe(Effect.provide(layerO200k))
 *
 * @since 0.1.0
 */
import { Effect, Layer, Schema } from "effect"

export { loadTextCounter, TokenizerUnavailable } from "./tokenizer.js"
import { loadTextCounter, type TokenizerUnavailable } from "./tokenizer.js"
import {
  checkOptions,
  DEFAULT_MESSAGE_OVERHEAD,
  Encoding,
  fromTextRule,
  type InvalidEstimatorOptions,
  make,
  type Service,
  TokenCount,
  TokenEstimator
} from "../TokenEstimator.js"

/**
 * Options of the exact estimator: the `encoding` to count with and the
 * per-message overhead, a whole number (default 4).
 *
 * @example
 * const options: ExactOptions = { encoding: "cl100k", messageOverhead: 3 }
 * program.pipe(Effect.provide(layerExact(options)))
 *
 * @since 0.1.0
 */
export const ExactOptions = Schema.Struct({
  encoding: Encoding,
  messageOverhead: Schema.optionalKey(TokenCount)
})

/**
 * Options of the exact estimator, as a type.
 *
 * @since 0.1.0
 */
export type ExactOptions = typeof ExactOptions.Type

/**
 * An estimator counting texts exactly with gpt-tokenizer.
 *
 * @example
 * const exact = yield* makeExact({ encoding: "o200k" })
 * exact.estimateMessage(Message.user("hello world")) // 6: 2 for the text, 4 per message
 *
 * @since 0.1.0
 */
export const makeExact = (options: ExactOptions): Effect.Effect<Service, TokenizerUnavailable | InvalidEstimatorOptions> =>
  Effect.gen(function*() {
    const checked = yield* checkOptions(ExactOptions, options)
    const count = yield* loadTextCounter(checked.encoding)
    return yield* make({ estimateText: count, messageOverhead: checked.messageOverhead ?? DEFAULT_MESSAGE_OVERHEAD })
  })

/**
 * The exact estimator as a `TokenEstimator` layer.
 *
 * @example
 * program.pipe(Effect.provide(layerExact({ encoding: "cl100k", messageOverhead: 3 })))
 *
 * @since 0.1.0
 */
export const layerExact = (
  options: ExactOptions
): Layer.Layer<TokenEstimator, TokenizerUnavailable | InvalidEstimatorOptions> => Layer.effect(TokenEstimator, makeExact(options))

/**
 * Exact o200k counts (GPT-4o, GPT-4.1, GPT-5, o-series), 4 tokens per message.
 *
 * @example
 * program.pipe(Effect.provide(layerO200k))
 *
 * @since 0.1.0
 */
export const layerO200k: Layer.Layer<TokenEstimator, TokenizerUnavailable> = Layer.effect(
  TokenEstimator,
  Effect.map(loadTextCounter("o200k"), fromTextRule)
)

/**
 * Exact cl100k counts (GPT-4, GPT-3.5), 4 tokens per message.
 *
 * @example
 * program.pipe(
 *   Effect.provide(layerCl100k),
 *   Effect.catchTag("TokenizerUnavailable", () => program.pipe(Effect.provide(TokenEstimator.layerHeuristic({ encoding: "cl100k" }))))
 * )
 *
 * @since 0.1.0
 */
export const layerCl100k: Layer.Layer<TokenEstimator, TokenizerUnavailable> = Layer.effect(
  TokenEstimator,
  Effect.map(loadTextCounter("cl100k"), fromTextRule)
)

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
