/**
 * Loading gpt-tokenizer's vocabularies on demand: it is an optional peer
 * dependency, so it is imported when a layer or counter is built, and a
 * missing package is a tagged error naming it rather than a failed import.
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"
import type { Encoding } from "../TokenEstimator.js"

/**
 * The exact tokenizer's package could not be loaded (it is an optional peer
 * dependency: install it with `npm install gpt-tokenizer`).
 *
 * @example
 * // exact counts when gpt-tokenizer is installed, the heuristic otherwise
 * const Estimator = layerO200k.pipe(Layer.catchTag("TokenizerUnavailable", () => TokenEstimator.layer))
 * program.pipe(Effect.provide(Estimator))
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

