/**
 * The provider wire formats this library knows the rules of and converts to
 * and from.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * A wire format: OpenAI Chat Completions, OpenAI Responses, Anthropic
 * Messages, Google Gemini (`generateContent`).
 *
 * @example
 * const provider = Schema.decodeUnknownSync(Provider.Provider)("anthropic")
 * Conversation.issuesFor(provider, messages)
 *
 * @since 0.1.0
 */
export const Provider = Schema.Literals(["openai-chat", "openai-responses", "anthropic", "gemini"])

/**
 * A wire format: `"openai-chat"`, `"openai-responses"`, `"anthropic"` or
 * `"gemini"`.
 *
 * @since 0.1.0
 */
export type Provider = typeof Provider.Type

/**
 * Every provider, in a fixed order.
 *
 * @example
 * for (const provider of Provider.all) {
 *   console.log(provider, Conversation.issuesFor(provider, messages).length)
 * }
 *
 * @since 0.1.0
 */
export const all: ReadonlyArray<Provider> = Provider.literals

/**
 * Whether a string names a provider.
 *
 * @example
 * const target = process.argv[2]
 * if (Provider.isProvider(target)) Conversation.issuesFor(target, messages)
 *
 * @since 0.1.0
 */
export const isProvider = (u: unknown): u is Provider => typeof u === "string" && (all as ReadonlyArray<string>).includes(u)
