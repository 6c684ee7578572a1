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
 * message is counted as ordinary text, never thrown on.
 *
 * @example
 * import { Effect } from "effect"
 * import { layerO200k } from "effect-agent-messages/exact"
 *
 * program.pipe(Effect.provide(layerO200k))
 *
 * @since 0.1.0
 */
import { Effect, Layer, Schema } from "effect"
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
 * The exact tokenizer's package could not be loaded (it is an optional peer
 * dependency: install it with `npm install gpt-tokenizer`).
 *
 * @since 0.1.0
 */
export class TokenizerUnavailable extends Schema.TaggedError<TokenizerUnavailable>()("TokenizerUnavailable", {
  packageName: Schema.String,
  encoding: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `the exact ${this.encoding} tokenizer needs the package ${JSON.stringify(this.packageName)}: install it with \`npm install ${this.packageName}\` (${this.reason})`
  }
}

/**
 * Options of the exact estimator: the `encoding` to count with and the
 * per-message overhead, a whole number (default 4).
 *
 * @since 0.1.0
 */
export const ExactOptions = Schema.Struct({
  encoding: Encoding,
  messageOverhead: Schema.optionalKey(TokenCount)
})

/** @since 0.1.0 */
export type ExactOptions = typeof ExactOptions.Type

type CountTokens = (text: string, options: { readonly disallowedSpecial: Set<string> }) => number

/** Special tokens in user text are plain text to us: never a reason to throw. */
const asPlainText = { disallowedSpecial: new Set<string>() }

const loaded = new Map<Encoding, (text: string) => number>()

const importEncoding = (encoding: Encoding): Promise<{ readonly countTokens: CountTokens }> =>
  encoding === "cl100k" ? import("gpt-tokenizer/encoding/cl100k_base") : import("gpt-tokenizer/encoding/o200k_base")

/**
 * Loads gpt-tokenizer's vocabulary for `encoding` (once per process) and
 * returns its exact text counter, or fails with `TokenizerUnavailable`.
 *
 * @example
 * const count = yield* loadTextCounter("o200k")
 * count("hello world") // 2
 *
 * @since 0.1.0
 */
export const loadTextCounter = (encoding: Encoding): Effect.Effect<(text: string) => number, TokenizerUnavailable> =>
  Effect.suspend(() => {
    const cached = loaded.get(encoding)
    if (cached !== undefined) return Effect.succeed(cached)
    return Effect.tryPromise({
      try: () => importEncoding(encoding),
      catch: (cause) =>
        new TokenizerUnavailable({
          packageName: "gpt-tokenizer",
          encoding,
          reason: cause instanceof Error ? cause.message : String(cause)
        })
    }).pipe(
      Effect.map((module) => {
        const countTokens = module.countTokens
        const count = (text: string): number => (text.length === 0 ? 0 : countTokens(text, asPlainText))
        loaded.set(encoding, count)
        return count
      })
    )
  })

/**
 * An estimator counting texts exactly with gpt-tokenizer.
 *
 * @example
 * const exact = yield* makeExact({ encoding: "o200k" })
 * exact.estimateMessage(Message.user("hello world")) // 2 + 4
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
 * @since 0.1.0
 */
export const layerO200k: Layer.Layer<TokenEstimator, TokenizerUnavailable> = Layer.effect(
  TokenEstimator,
  Effect.map(loadTextCounter("o200k"), fromTextRule)
)

/**
 * Exact cl100k counts (GPT-4, GPT-3.5), 4 tokens per message.
 *
 * @since 0.1.0
 */
export const layerCl100k: Layer.Layer<TokenEstimator, TokenizerUnavailable> = Layer.effect(
  TokenEstimator,
  Effect.map(loadTextCounter("cl100k"), fromTextRule)
)
