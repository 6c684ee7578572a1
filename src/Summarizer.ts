/**
 * Summaries of the part of a conversation that no longer fits.
 *
 * The `summarize` strategy of `MessageWindow` cuts the oldest turns off a
 * conversation and asks the `Summarizer` service for a summary of them,
 * which then takes their place as one message. The service receives the
 * dropped messages and the same messages rendered as a transcript (tool
 * calls and their results written out, never silently left out), and a
 * number of tokens to stay within.
 *
 * Two layers are provided:
 * - `layerLanguageModel(options?)`: asks a model through effect's `effect/ai`
 *   `LanguageModel` service, so any provider an Effect agent already uses
 *   writes the summary.
 * - `layerExtractive(options?)`: a deterministic summary made of the
 *   conversation's own lines (what the user asked, which tools ran and how
 *   they ended, the last answers), for tests and offline use.
 *
 * Without a `Summarizer` in context, `summarize` falls back to dropping whole
 * turns and says so in its result.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { MessageWindow, Summarizer, TokenEstimator } from "effect-agent-messages"
 *
 * const Window = MessageWindow.layer.pipe(
 *   Layer.provide(Layer.merge(TokenEstimator.layer, Summarizer.layerExtractive()))
 * )
 *
 * @since 0.1.0
 */
import { isBlank } from "./internal/blank.js"
import { Context, Effect, Layer, Schema } from "effect"
import { LanguageModel } from "effect/ai"
import * as Block from "./Block.js"
import * as Message from "./Message.js"
import { checkAgainst } from "./internal/options.js"
import { cutText } from "./internal/preview.js"
import { isSummaryMessage, summaryTextOf } from "./internal/summaryMark.js"

// ---------------------------------------------------------------------------
// service
// ---------------------------------------------------------------------------

/**
 * What a summarizer is asked to summarize.
 *
 * - `messages`: the messages being replaced, in order (an earlier summary
 *   among them included, so summaries fold into the next one).
 * - `transcript`: the same messages as text, one `Role: text` entry per
 *   message, tool calls and results written out (long arguments and results
 *   cut). When the messages are too many to render whole, the oldest are
 *   left out of the transcript and a line says how many.
 * - `maxTokens`: the summary should stay within this many tokens; the window
 *   shortens a longer one to fit.
 *
 * @since 0.1.0
 */
export interface SummaryRequest {
  readonly messages: ReadonlyArray<Message.Message>
  readonly transcript: string
  readonly maxTokens: number
}

/**
 * A summary could not be made; `reason` says why and `cause` keeps the
 * underlying error (an `AiError` from the model, for example).
 *
 * @example
 * const flaky = Summarizer.Summarizer.of({
 *   summarize: () => Effect.fail(new Summarizer.SummaryFailed({ reason: "the model is overloaded" }))
 * })
 * const fitted = yield* MessageWindow.fit(history, 4_000, { strategy: "summarize" }).pipe(
 *   Effect.provideService(Summarizer.Summarizer, flaky),
 *   Effect.catchTag("SummaryFailed", () => MessageWindow.fit(history, 4_000, { strategy: "drop_oldest_pair" }))
 * )
 *
 * @since 0.1.0
 */
export class SummaryFailed extends Schema.TaggedError<SummaryFailed>()("SummaryFailed", {
  reason: Schema.String,
  cause: Schema.optionalKey(Schema.Defect())
}) {
  override get message(): string {
    return `could not summarize the dropped messages: ${this.reason}`
  }
}

/**
 * What a summarizer does: turn the dropped part of a conversation into text.
 *
 * @since 0.1.0
 */
export interface Service {
  readonly summarize: (request: SummaryRequest) => Effect.Effect<string, SummaryFailed>
}

/**
 * The summarizer service. `MessageWindow`'s `summarize` strategy uses it when
 * it is in context (provided to the window's layer, or around the `fit`
 * call).
 *
 * @example
 * import { Effect } from "effect"
 * import { Summarizer } from "effect-agent-messages"
 *
 * const mine = Summarizer.Summarizer.of({
 *   summarize: (request) => Effect.succeed(`${request.messages.length} messages about the trip`)
 * })
 *
 * @since 0.1.0
 */
export class Summarizer extends Context.Service<Summarizer, Service>()("effect-agent-messages/Summarizer") {}

// ---------------------------------------------------------------------------
// extractive
// ---------------------------------------------------------------------------

/**
 * Options of the extractive summarizer.
 *
 * - `charsPerToken`: how many characters it assumes a token holds when it
 *   sizes the summary, a finite number above 0 (default 3, on the short
 *   side, so CJK text and code are not cut by the window too often).
 * - `maxLineLength`: longest line taken from one message, a whole number of
 *   characters, at least 1 (default 160).
 *
 * An option given as `undefined` takes its default. `makeExtractive` and
 * `layerExtractive` check them against this schema.
 *
 * @example
 * const options: Summarizer.ExtractiveOptions = { charsPerToken: 2, maxLineLength: 80 }
 * Schema.is(Summarizer.ExtractiveOptions)(options) // true
 * Schema.is(Summarizer.ExtractiveOptions)({ charsPerToken: Number.NaN }) // false
 *
 * @since 0.1.0
 */
export const ExtractiveOptions = Schema.Struct({
  charsPerToken: Schema.optional(Schema.Finite.check(Schema.isGreaterThan(0))),
  maxLineLength: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)))
})

/**
 * Options of the extractive summarizer, as a type.
 *
 * @since 0.1.0
 */
export type ExtractiveOptions = typeof ExtractiveOptions.Type

/**
 * Options given to a summarizer's constructor or layer were refused:
 * `option` names the bad one (`""` when the options are not an object at
 * all), `reason` says why.
 *
 * @example
 * const error = yield* Effect.flip(Summarizer.makeExtractive({ maxLineLength: -1 }))
 * error.option // "maxLineLength"
 * error.message // 'invalid summarizer option "maxLineLength": Expected a value greater than or equal to 1'
 *
 * @since 0.1.0
 */
export class InvalidSummarizerOptions extends Schema.TaggedError<InvalidSummarizerOptions>()("InvalidSummarizerOptions", {
  option: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `invalid summarizer option ${this.option === "" ? "(options)" : JSON.stringify(this.option)}: ${this.reason}`
  }
}

/** The priority of the last answer's line: after the tools line, before every other. */
const LAST_ANSWER = 0.5

/** The shortest an earlier summary, the tools line or the last answer is cut to rather than left out (characters; below it, it goes whole or not at all). */
const MIN_SHORTENED = 24

const oneLine = (text: string, max: number): string => Block.truncate(text.replace(/\s+/g, " ").trim(), max)

/**
 * The longest a tool name is written (characters): the longest function name OpenAI accepts, so a usual name is
 * written whole, and one from elsewhere (10,000 characters) does not crowd its line out.
 */
const MAX_TOOL_NAME = 64

const toolNameOf = (name: string, maxLine: number): string => oneLine(name, Math.min(MAX_TOOL_NAME, maxLine))

/** The lines an extractive summary is made of, in conversation order, each with a priority (lower is kept first). */
const extractLines = (
  messages: ReadonlyArray<Message.Message>,
  maxLine: number
): Array<{ readonly text: string; readonly priority: number; readonly shortened: boolean }> => {
  // `shortened`: a line cut to half the room rather than left out (see `extractive`)
  const lines: Array<{ text: string; priority: number; shortened: boolean }> = []
  const used = new Map<string, { calls: number; errors: number }>()
  let lastAnswer = -1
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (isSummaryMessage(m)) {
      // an earlier summary carries everything before it, in whichever role the window wrote it: keep it first,
      // without the window's header (each block's, for summaries taken out of one system prompt together) and the
      // "Earlier:" of the fold before (summaries fold, they do not nest)
      const text = oneLine(summaryTextOf(m), maxLine * 4).replace(/^(Earlier: )+/, "")
      if (text !== "") lines.push({ text: `Earlier: ${text}`, priority: 0, shortened: true })
      continue
    }
    switch (m.role) {
      case "system": {
        const text = oneLine(Message.textOf(m), maxLine * 4)
        // a system note in the middle of the history (or a summary written by other code): kept first too
        if (text !== "") lines.push({ text: `Earlier: ${text}`, priority: 0, shortened: true })
        break
      }
      case "user": {
        const text = oneLine(Message.messageToText(m), maxLine)
        if (text !== "") lines.push({ text: `User: ${text}`, priority: 1, shortened: false })
        break
      }
      case "assistant": {
        for (const call of Message.toolCallsOf(m)) {
          const entry = used.get(call.name) ?? { calls: 0, errors: 0 }
          entry.calls++
          used.set(call.name, entry)
        }
        const text = oneLine(Message.textOf(m), maxLine)
        if (text !== "") {
          lines.push({ text: `Assistant: ${text}`, priority: 3, shortened: false })
          lastAnswer = lines.length - 1
        }
        break
      }
      case "tool":
        for (const result of m.content) {
          if (!result.isError) continue
          const entry = used.get(result.toolName) ?? { calls: 0, errors: 0 }
          entry.errors++
          used.set(result.toolName, entry)
          lines.push({
            text: `${toolNameOf(result.toolName, maxLine)} failed: ${oneLine(Block.resultContentText(result.content), maxLine)}`,
            priority: 2,
            shortened: false
          })
        }
        break
      default:
        Block.absurd(m)
    }
  }
  // the last answer goes before every question, so a small limit still says where the conversation ended
  if (lastAnswer !== -1) lines[lastAnswer]!.priority = LAST_ANSWER
  if (used.size > 0) {
    const tools: Array<string> = []
    for (const [name, { calls, errors }] of used) tools.push(`${toolNameOf(name, maxLine)} ×${calls}${errors > 0 ? ` (${errors} failed)` : ""}`)
    // many tools make a long line: cut rather than left out, as an earlier summary is
    lines.push({ text: `Tools used: ${tools.join(", ")}`, priority: 0, shortened: true })
  }
  return lines
}

/**
 * A summary built from the conversation's own words: earlier summaries, what
 * the user asked, which tools ran (and which failed), and what the assistant
 * answered (the last answer always, cut to the room left when it is too
 * long for it), within the token limit, in order.
 * A line taken from a message is cut to `maxLineLength`, a tool name to 64
 * characters (the longest function name OpenAI accepts), and an earlier
 * summary or a list of tools too long for the room to an equal share of half
 * the room (half the room between them), rather than left out. Deterministic and offline: for tests, and for agents that
 * must not call a model to compact. A pure function, so it does not check
 * `options`: take them from `makeExtractive` or `layerExtractive`, which
 * refuse bad ones.
 *
 * @example
 * const text = Summarizer.extractive([
 *   Message.user("Find the failing test."),
 *   Message.assistantMessage("", [{ id: "c1", name: "run_tests" }]),
 *   Message.toolResultMessage("c1", "run_tests", "exit 1: 3 failures", true),
 *   Message.assistant("Three tests fail in parser.test.ts.")
 * ], 200)
 * // User: Find the failing test.
 * // run_tests failed: exit 1: 3 failures
 * // Assistant: Three tests fail in parser.test.ts.
 * // Tools used: run_tests ×1 (1 failed)
 *
 * @since 0.1.0
 */
export const extractive = (messages: ReadonlyArray<Message.Message>, maxTokens: number, options?: ExtractiveOptions): string => {
  const chars = Math.floor(maxTokens * (options?.charsPerToken ?? 3))
  // no number (a NaN limit) is no room; more room than any number (a huge ratio or limit) is room for every line
  const budget = Number.isNaN(chars) ? 0 : Math.max(0, chars)
  // earlier summaries and the tools line are cut, rather than left out, to half the room at most between them:
  // summaries fold into the next one, and the newer lines (the last answer first) still have room
  const extracted = extractLines(messages, options?.maxLineLength ?? 160)
  const share = Math.floor(budget / 2 / Math.max(1, extracted.filter((line) => line.shortened).length))
  const lines = extracted.map((line) =>
    line.shortened && line.text.length + 1 > share && share - 1 >= MIN_SHORTENED ? { ...line, text: Block.truncate(line.text, share - 2) } : line
  )
  // take lines by priority until the budget is spent, then print the chosen ones in order
  const order = lines.map((_, i) => i).sort((a, b) => lines[a]!.priority - lines[b]!.priority || b - a)
  const chosen: Array<string | undefined> = new Array(lines.length)
  let used = 0
  for (const i of order) {
    const { priority, text } = lines[i]!
    if (used + text.length + 1 > budget) {
      // the last answer is cut to the room left rather than left out: it says where the conversation ended
      const room = budget - used - 1
      if (priority === LAST_ANSWER && room >= MIN_SHORTENED) {
        const cut = Block.truncate(text, room - 1)
        chosen[i] = cut
        used += cut.length + 1
      }
      continue
    }
    chosen[i] = text
    used += text.length + 1
  }
  const out: Array<string> = []
  for (const line of chosen) if (line !== undefined) out.push(line)
  return out.length > 0 ? out.join("\n") : `${messages.length} earlier ${messages.length === 1 ? "message" : "messages"}.`
}

/**
 * The extractive summarizer (`extractive`) as a service, with its options
 * checked: a `charsPerToken` that is not a finite number above 0, or a
 * `maxLineLength` that is not a whole number of at least 1 (NaN, negative,
 * Infinity, a string from untyped code), fails with
 * `InvalidSummarizerOptions` rather than making empty or uncut summaries.
 *
 * @example
 * const summarizer = yield* Summarizer.makeExtractive({ maxLineLength: 80 })
 * const text = yield* summarizer.summarize({ messages: [Message.user("Find the failing test.")], transcript: "", maxTokens: 50 })
 * // "User: Find the failing test."
 *
 * @since 0.1.0
 */
export const makeExtractive = (options?: ExtractiveOptions): Effect.Effect<Service, InvalidSummarizerOptions> =>
  Effect.suspend(() => checkAgainst(ExtractiveOptions, options, (option, reason) => new InvalidSummarizerOptions({ option, reason }))).pipe(
    Effect.map((checked) => extractiveService(checked))
  )

const extractiveService = (options: ExtractiveOptions | undefined): Service =>
  Summarizer.of({ summarize: (request) => Effect.sync(() => extractive(request.messages, request.maxTokens, options)) })

/**
 * The extractive summarizer (`extractive`) as a layer. Without options it
 * never fails; with options, they are checked when the layer is built
 * (`makeExtractive`), and bad ones fail it with `InvalidSummarizerOptions`.
 *
 * @example
 * program.pipe(Effect.provide(Summarizer.layerExtractive()))
 * program.pipe(Effect.provide(Summarizer.layerExtractive({ charsPerToken: 2 })))
 *
 * @since 0.1.0
 */
export function layerExtractive(): Layer.Layer<Summarizer>
export function layerExtractive(options: ExtractiveOptions | undefined): Layer.Layer<Summarizer, InvalidSummarizerOptions>
export function layerExtractive(options?: ExtractiveOptions): Layer.Layer<Summarizer, InvalidSummarizerOptions> {
  return options === undefined ? Layer.succeed(Summarizer, extractiveService(undefined)) : Layer.effect(Summarizer, makeExtractive(options))
}

// ---------------------------------------------------------------------------
// effect/ai LanguageModel
// ---------------------------------------------------------------------------

/**
 * The default instructions given to the model: what to keep in a summary of
 * an agent's history.
 *
 * @example
 * Summarizer.layerLanguageModel({ instructions: `${Summarizer.DEFAULT_INSTRUCTIONS} Keep every file path.` })
 *
 * @since 0.1.0
 */
export const DEFAULT_INSTRUCTIONS =
  "You compress the history of an AI agent's conversation so that the agent can continue its work. " +
  "Write a concise summary of the transcript you are given: the user's goals and constraints, decisions made, " +
  "the tools called with the facts their results established (names, paths, ids, numbers), errors met, " +
  "and what was still open at the end. Write plain text, no preamble."

/**
 * Options of the language-model summarizer: the instructions (a system
 * message; default `DEFAULT_INSTRUCTIONS`).
 *
 * @since 0.1.0
 */
export interface LanguageModelOptions {
  readonly instructions?: string
}

/**
 * A summarizer that asks a model, through effect's `effect/ai`
 * `LanguageModel` service: the instructions as a system message, and the
 * transcript of the dropped messages (tool traffic written out) as the user
 * message, with the token limit stated. A model error becomes `SummaryFailed`
 * with the `AiError` as its cause (the `reason` is its message, cut after
 * 300 characters); so does an empty answer, and one the provider ended with
 * finish reason `error` or `content-filter` (its text is not a summary). An
 * answer cut at the model's output limit (`length`) is kept: the window fits
 * a summary to its room in any case.
 *
 * @example
 * import { Layer } from "effect"
 * import { MessageWindow, Summarizer, TokenEstimator } from "effect-agent-messages"
 *
 * // any LanguageModel layer: OpenAI, Anthropic, a local model...
 * declare const Model: Layer.Layer<import("effect/ai").LanguageModel.LanguageModel>
 * const Window = MessageWindow.layer.pipe(
 *   Layer.provide(Layer.merge(TokenEstimator.layer, Summarizer.layerLanguageModel().pipe(Layer.provide(Model))))
 * )
 *
 * @since 0.1.0
 */
export const layerLanguageModel = (options?: LanguageModelOptions): Layer.Layer<Summarizer, never, LanguageModel.LanguageModel> =>
  Layer.effect(
    Summarizer,
    Effect.gen(function*() {
      const model = yield* LanguageModel.LanguageModel
      const instructions = options?.instructions ?? DEFAULT_INSTRUCTIONS
      return Summarizer.of({
        summarize: (request) =>
          Effect.suspend(() =>
            model.generateText({
              prompt: [
                { role: "system", content: `${instructions}\nStay within ${request.maxTokens} tokens.` },
                { role: "user", content: `Transcript of ${request.messages.length} messages:\n\n${request.transcript}` }
              ]
            })
          ).pipe(
            // the model's error can quote the prompt whole (a provider echoing the request): its text is cut, the error kept as the cause
            Effect.mapError((error) => new SummaryFailed({ reason: cutText(error.message, 300), cause: error })),
            Effect.flatMap((response) => {
              // a reply the provider ended in an error or filtered is not a summary, whatever text came before
              const finish = response.finishReason
              if (finish === "error" || finish === "content-filter") {
                return Effect.fail(new SummaryFailed({ reason: `the model's answer ended with finish reason "${finish}"` }))
              }
              const text = response.text.trim()
              return isBlank(text) ? Effect.fail(new SummaryFailed({ reason: "the model answered with an empty summary" })) : Effect.succeed(text)
            })
          )
      })
    })
  )
