/**
 * Token estimates for Gemini: the library's fitted character-class heuristic
 * with a table fitted against Gemma 3's published tokenizer, whose counts are
 * the ones Gemini bills for text (all 76 recorded text-only requests to
 * Gemini 2.5 and later are exact with it, plus one token a content).
 *
 * The default estimator (`TokenEstimator.layer`) is fitted for OpenAI's o200k
 * tokenizer, which splits text differently: counted with it, Gemini's tokens
 * come out 6.4% under for English, 13% for code, 17% for JSON and 26% for
 * tool output, and 28% over for Japanese (see the README's Benchmarks). This
 * module carries its own table (about 30 KB gzipped), so only programs that
 * import it pay for it.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { GeminiEstimator, Message, MessageWindow } from "effect-agent-messages"
 *
 * const program = Effect.gen(function* () {
 *   const fitted = yield* MessageWindow.fit([Message.system("Be brief."), Message.user("Hi")], 8_000)
 *   return fitted.messages
 * })
 * program.pipe(Effect.provide(MessageWindow.layer.pipe(Layer.provide(GeminiEstimator.layer))))
 *
 * @since 0.1.0
 */
import { Effect, Layer, Schema } from "effect"
import { estimateTextWith } from "./internal/heuristic.js"
import { gemini } from "./internal/weightsGemini.js"
import * as TokenEstimator from "./TokenEstimator.js"

// Bound in this module, so V8 folds the table into the loop inlined in `estimateText` (see TokenEstimator's text rules).
const GEMINI_TABLE = gemini

/**
 * The text rule on its own: the estimated Gemini tokens of a text.
 *
 * @example
 * GeminiEstimator.estimateText("Hello, world!") // 4
 *
 * @since 0.1.0
 */
export const estimateText = (text: string): number => estimateTextWith(text, GEMINI_TABLE)

/**
 * Options of the Gemini estimator: the per-message overhead, a whole number
 * (default 1, what Gemini 2.5 and later add for each content).
 *
 * @example
 * const options: GeminiEstimator.Options = { messageOverhead: 0 }
 *
 * @since 0.1.0
 */
export const Options = Schema.Struct({
  messageOverhead: Schema.optionalKey(TokenEstimator.TokenCount.check(Schema.isLessThanOrEqualTo(1_000_000)))
})

/**
 * Options of the Gemini estimator, as a type.
 *
 * @since 0.1.0
 */
export type Options = typeof Options.Type

/**
 * An estimator for Gemini. `estimateRequest` counts a request as Gemini
 * bills it (function declarations, calls and responses as Gemini writes them,
 * files at Gemini's prices, 1 token a content) unless its options name
 * another provider. Fails with `InvalidEstimatorOptions` when
 * `messageOverhead` is not a non-negative whole number, or the options are
 * not an object of the keys above.
 *
 * @example
 * const estimator = yield* GeminiEstimator.make()
 * estimator.estimateRequest(request, { model: "gemini-2.5-flash" }).total
 *
 * @since 0.1.0
 */
export const make = (options?: Options): Effect.Effect<TokenEstimator.Service, TokenEstimator.InvalidEstimatorOptions> =>
  // checked as every estimator's options are (a misspelt key or a value that is no object is refused, not ignored)
  Effect.suspend(() => TokenEstimator.checkOptions(Options, options)).pipe(
    Effect.flatMap((checked) => TokenEstimator.make({ estimateText, messageOverhead: checked?.messageOverhead ?? 1 })),
    Effect.map((service): TokenEstimator.Service => ({
      ...service,
      estimateRequest: (request, requestOptions) => service.estimateRequest(request, { ...requestOptions, provider: requestOptions?.provider ?? "gemini" })
    }))
  )

/**
 * The Gemini estimator as the `TokenEstimator` service, with a 1-token
 * message overhead.
 *
 * @example
 * program.pipe(Effect.provide(GeminiEstimator.layer))
 *
 * @since 0.1.0
 */
export const layer: Layer.Layer<TokenEstimator.TokenEstimator> = /* @__PURE__ */ Layer.effect(
  TokenEstimator.TokenEstimator,
  // the default options are valid: this cannot fail
  Effect.orDie(make())
)

/**
 * The Gemini estimator as the `TokenEstimator` service, with its options
 * checked when the layer is built.
 *
 * @example
 * program.pipe(Effect.provide(GeminiEstimator.layerWith({ messageOverhead: 0 })))
 *
 * @since 0.1.0
 */
export const layerWith = (options?: Options): Layer.Layer<TokenEstimator.TokenEstimator, TokenEstimator.InvalidEstimatorOptions> =>
  Layer.effect(TokenEstimator.TokenEstimator, make(options))
