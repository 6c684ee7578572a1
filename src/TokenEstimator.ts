/**
 * Token estimation: how many input tokens a text, a block, a message or a
 * whole conversation will cost, known before the provider says so.
 *
 * "Estimate first, correct later": budgeting and windowing decide on
 * estimates, and the provider's reported usage corrects them afterwards
 * (`Calibration`). Estimation runs on every message an agent adds, so it is
 * synchronous and cheap: plain numbers, one pass over each text, no
 * allocation per character, and per-message results memoized by message
 * identity (messages are frozen), so re-estimating a conversation after an
 * append only scans the new messages.
 *
 * The `TokenEstimator` service is supplied by a Layer:
 * - `TokenEstimator.layer` (the default) / `layerHeuristic(options)`: a
 *   character-class estimator fitted against the o200k / cl100k tokenizers.
 * - `GeminiEstimator.layer`: the same estimator fitted against Gemma 3's
 *   tokenizer, whose counts are what Gemini bills (its own module).
 * - `layerCjkWeighted(options)`: the CJK-weighted rule (2 tokens per CJK ideograph,
 *   0.25 per other non-space character), the compatibility baseline.
 * - `layerExact` / `layerO200k` / `layerCl100k` from
 *   `effect-agent-messages/exact`: exact counts with gpt-tokenizer (an
 *   optional peer dependency, loaded only by that entry).
 * - `Calibration.layerTokenEstimator({ model })`: wraps any of them and
 *   learns a per-model correction factor from provider-reported usage.
 * - `layerTest(options)`: a fixed cost per character, for tests.
 *
 * Layers built from options check them and fail with
 * `InvalidEstimatorOptions` (a negative weight, a fractional overhead, an
 * unknown encoding) rather than producing negative or NaN estimates.
 *
 * Counting rules, the same for every layer (only the text rule differs):
 * - a text block counts its text; a refusal its refusal text;
 * - a thinking block counts its thinking text and summary parts (reasoning is
 *   billed); when the text is hidden (empty, with an OpenAI
 *   `encryptedContent`), the reasoning that payload hides is estimated from
 *   its length (`estimateEncryptedReasoning`); signatures are verification
 *   data and not counted;
 * - a redacted thinking block counts its opaque `data` (`estimateOpaqueData`);
 * - a tool call counts its name and its argument text; a tool result its
 *   tool name and its content (text, JSON values as JSON text, files as
 *   files). Ids are not counted (providers render names, not ids);
 * - a file counts by `estimateFile` (images a fixed cost by detail, a PDF
 *   the request holds a fixed cost per page, audio a fixed cost per second,
 *   text documents their text, other inline data as opaque data);
 * - provider data counts its JSON text;
 * - a message counts its blocks, its participant `name` if any, and a fixed
 *   per-message overhead (role and framing tokens; default 4: OpenAI's chat
 *   format spends 3 framing tokens plus 1 for the role). `metadata`,
 *   `providerOptions` and `usage` are never sent to the model and never
 *   counted.
 *
 * @example
 * import { Effect } from "effect"
 * import { Message, TokenEstimator } from "effect-agent-messages"
 *
 * const program = Effect.gen(function* () {
 *   const estimator = yield* TokenEstimator.TokenEstimator
 *   return estimator.estimateConversation([Message.user("What is the weather in Oslo?")])
 * })
 * program.pipe(Effect.provide(TokenEstimator.layer))
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import * as Block from "./Block.js"
import type * as Message from "./Message.js"
import type { Provider } from "./Provider.js"
import type * as Request from "./Request.js"
import { estimateTextWith, type HeuristicTable } from "./internal/heuristic.js"
import {
  imageSizeOfSource,
  imageTokensOfSize,
  LOW_DETAIL_IMAGE_TOKENS,
  UNKNOWN_SIZE_IMAGE_TOKENS
} from "./internal/imageSize.js"
import { stringify } from "./internal/json.js"
import { isImageType } from "./internal/anthropicFiles.js"
import { audioSecondsOfSource, audioTokens, GEMINI_AUDIO_TOKENS_PER_SECOND, isAudio } from "./internal/audio.js"
import { DEFAULT_PDF_PAGE_TOKENS, isPdf, pdfPagesOfSource } from "./internal/pdf.js"
import { DEFAULT_VIDEO_TOKENS_PER_SECOND, isVideo, videoSecondsOfSource, videoTokens } from "./internal/video.js"
import { checkAgainst } from "./internal/options.js"
import { type PromptCounter, scaffoldAwareEstimator } from "./internal/openAiChatRequestEstimate.js"
import * as RequestEstimates from "./internal/requestEstimate.js"
import { cl100k, o200k } from "./internal/weights.js"

// ---------------------------------------------------------------------------
// service
// ---------------------------------------------------------------------------

/**
 * Where a whole request's input tokens go, as `estimateRequest` reads them.
 *
 * - `provider`: whose framing was applied.
 * - `messages[i]`: input message `i`, with the framing the provider puts
 *   around it (OpenAI: 3 special tokens, the role, a participant name; a
 *   tool call's recipient; a tool result's function name; Gemini: 1 token
 *   a content on 2.5 and later, none on 1.5 and 2.0, as measured, and
 *   function calls and responses in the text format Gemini writes them in;
 *   the estimator's message overhead elsewhere).
 * - `tools`: the tool definitions as the model sees them (OpenAI: the
 *   functions namespace, with the system message that carries it when the
 *   request has none; Anthropic: each definition, Anthropic-schema tools at
 *   their documented cost; Gemini: each declaration, in the text format
 *   Gemini writes it in).
 * - `responseFormat`: a JSON-schema response format.
 * - `framing`: what the provider adds whatever the content: OpenAI's reply
 *   priming, which the tool choice changes (a named tool costs its
 *   recipient), as does a `json_schema` response format (a text-only reply
 *   is addressed to the format by name); Anthropic's documented tool-use
 *   system prompt (per model family and tool choice), and what recordings
 *   show for extended thinking (32) and a structured output format (142).
 *   Counted in the provider's own tokens, so a calibrated estimator does not
 *   scale it.
 * - `total`: the sum of all of them: what the provider bills as input.
 *
 * @since 0.1.0
 */
export interface RequestEstimate {
  readonly provider: Provider
  readonly total: number
  readonly messages: ReadonlyArray<number>
  readonly tools: number
  readonly responseFormat: number
  readonly framing: number
}

/**
 * Options of `estimateRequest`: the `provider` whose framing applies
 * (default `"openai-chat"`), and the `model` to count for, in place of the
 * request's own `model` when both are given (it picks OpenAI's prompt
 * layout for older snapshots and its image prices, Anthropic's tool-use
 * system prompt, Gemini's rules): one request counted for two models, as
 * in `estimateRequest(request, { model: "gpt-4" })`.
 *
 * @since 0.1.0
 */
export interface RequestEstimateOptions {
  readonly provider?: Provider | undefined
  readonly model?: string | undefined
}

/**
 * What a token estimator does. Every method is synchronous and returns a
 * number of tokens: a whole, non-negative one from every estimator this
 * module builds from its own rules; an estimator built with `make` or
 * `fromTextRule` adds up what the given rules return, so rules that return
 * whole, non-negative numbers (`Math.ceil(t.length / 4)`, not
 * `t.length / 4`) give whole, non-negative estimates.
 *
 * - `estimateText`: one text, as the model would see it.
 * - `estimateBlock`: one content block, by the counting rules above.
 * - `estimateMessage`: one message, its blocks plus the per-message overhead;
 *   memoized by message identity for frozen messages (every constructor and
 *   decoder returns frozen messages).
 * - `estimateEach`: every message of a conversation, as one consistent
 *   reading (a calibrated estimator applies one factor to all of them).
 * - `estimateConversation`: the sum of `estimateEach`, so a window can
 *   subtract a dropped message's estimate and stay exact.
 * - `estimateRequest`: a whole request as one provider bills it: messages,
 *   tool definitions, tool choice, response format and the provider's
 *   framing (see `RequestEstimate`). For OpenAI Chat the request is written
 *   as the body `OpenAiChat.toRequest` sends and rendered the way the API
 *   renders it, so with an exact layer (`layerO200k`, `layerCl100k`) the
 *   total is the API's `usage.prompt_tokens`. For OpenAI Responses it is
 *   rendered the same way, item by item, with what recorded Responses
 *   requests show of their own framing: exact without tools, and on first
 *   turns of gpt-4o and gpt-4.1 with tools; otherwise within a few tokens.
 *
 * @since 0.1.0
 */
export interface Service {
  readonly estimateText: (text: string) => number
  readonly estimateBlock: (block: Block.Block) => number
  readonly estimateMessage: (message: Message.Message) => number
  readonly estimateEach: (messages: ReadonlyArray<Message.Message>) => Array<number>
  readonly estimateConversation: (messages: ReadonlyArray<Message.Message>) => number
  readonly estimateRequest: (request: Request.Request, options?: RequestEstimateOptions) => RequestEstimate
}

/**
 * The tokenizer family a heuristic or exact estimator targets: `"o200k"`
 * (GPT-4o, GPT-4.1, GPT-5, o-series) or `"cl100k"` (GPT-4, GPT-3.5).
 *
 * @example
 * const encoding: TokenEstimator.Encoding = "cl100k"
 * program.pipe(Effect.provide(TokenEstimator.layerHeuristic({ encoding })))
 *
 * @since 0.1.0
 */
export const Encoding = Schema.Literals(["o200k", "cl100k"])

/**
 * A tokenizer family: `"o200k"` or `"cl100k"`.
 *
 * @since 0.1.0
 */
export type Encoding = typeof Encoding.Type

/**
 * The default per-message overhead, in tokens (OpenAI's chat format spends 3
 * framing tokens plus 1 for the role).
 *
 * @example
 * const fixed = yield* TokenEstimator.makeTest({ messageOverhead: TokenEstimator.DEFAULT_MESSAGE_OVERHEAD })
 * fixed.estimateMessage(Message.user("hello")) // 5 + 4
 *
 * @since 0.1.0
 */
export const DEFAULT_MESSAGE_OVERHEAD = 4

/**
 * Options given to an estimator layer or constructor were refused: `option`
 * names the bad one, `reason` says why.
 *
 * @example
 * const error = yield* Effect.flip(TokenEstimator.makeCjkWeighted({ chineseCharWeight: -1 }))
 * error.option // "chineseCharWeight"
 * error.message // 'invalid estimator option "chineseCharWeight": Expected a value greater than or equal to 0'
 *
 * @since 0.1.0
 */
export class InvalidEstimatorOptions extends Schema.TaggedError<InvalidEstimatorOptions>()("InvalidEstimatorOptions", {
  option: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `invalid estimator option ${this.option === "" ? "(options)" : JSON.stringify(this.option)}: ${this.reason}`
  }
}

/**
 * A non-negative whole number of tokens.
 *
 * @example
 * const Budget = Schema.Struct({ maxTokens: TokenEstimator.TokenCount })
 * Schema.is(Budget)({ maxTokens: 8000 }) // true
 * Schema.is(Budget)({ maxTokens: 0.5 }) // false
 *
 * @since 0.1.0
 */
export const TokenCount = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/**
 * A weight: a number from 0 to 1,000,000 tokens (per character, per word...). A larger one, however finite, makes
 * the figures of a long text pass what a number counts exactly, and of a request `Infinity` and `NaN`.
 *
 * @example
 * const Options = Schema.Struct({ costPerWord: TokenEstimator.Weight })
 * Schema.is(Options)({ costPerWord: 1.3 }) // true
 * Schema.is(Options)({ costPerWord: -1 }) // false
 * Schema.is(Options)({ costPerWord: 1e308 }) // false
 *
 * @since 0.1.0
 */
export const Weight = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(1_000_000))

/** A message's overhead in tokens: a whole number from 0 to 1,000,000 (see `Weight`). */
const Overhead = TokenCount.check(Schema.isLessThanOrEqualTo(1_000_000))

/**
 * Checks options against their schema, failing with `InvalidEstimatorOptions`
 * naming the first bad option.
 *
 * @example
 * const WordOptions = Schema.Struct({ tokensPerWord: TokenEstimator.Weight })
 * const makeWords = (options: typeof WordOptions.Type) =>
 *   TokenEstimator.checkOptions(WordOptions, options).pipe(
 *     Effect.flatMap((checked) =>
 *       TokenEstimator.make({ estimateText: (t) => Math.ceil(t.split(/\s+/).filter(Boolean).length * checked.tokensPerWord) })
 *     )
 *   )
 * const error = yield* Effect.flip(makeWords({ tokensPerWord: Number.NaN }))
 * error.option // "tokensPerWord"
 *
 * @since 0.1.0
 */
export const checkOptions = <S extends Schema.Codec<unknown, unknown>>(
  schema: S,
  options: unknown
): Effect.Effect<S["Type"], InvalidEstimatorOptions> =>
  checkAgainst(schema, options, (option, reason) => new InvalidEstimatorOptions({ option, reason }))

// ---------------------------------------------------------------------------
// building an estimator from a text rule
// ---------------------------------------------------------------------------

/**
 * Tokens of opaque data (Anthropic redacted thinking, OpenAI encrypted
 * reasoning, inline file data): the data is base64, so its length × 3/4 is
 * its size in bytes, and an encrypted payload costs about one token per 4
 * bytes of what it hides, hence `ceil(length × 3 / 16)`. A rough figure:
 * calibration corrects the rest.
 *
 * @example
 * TokenEstimator.estimateOpaqueData("A".repeat(1600)) // 300
 *
 * @since 0.1.0
 */
export const estimateOpaqueData = (data: string): number => Math.ceil((data.length * 3) / 16)

/** The characters of every encrypted reasoning payload that hide no reasoning (see `estimateEncryptedReasoning`). */
const ENCRYPTED_REASONING_FRAMING = 800

/**
 * Tokens of the reasoning an OpenAI reasoning item's `encrypted_content`
 * hides: 3 tokens per 20 characters beyond the first 800, which every payload
 * spends on framing (a short reasoning of about 1,100 characters bills about
 * 45 tokens, not the 200 that counting it as opaque data gives).
 *
 * Measured on Responses API requests whose reasoning of the current turn was
 * sent back encrypted, against the input the API billed for them, minus the
 * rest of each request (gpt-5, gpt-5-mini, gpt-5.5; payloads of 1,100 to
 * 2,900 characters within 10%). The hidden text is not public, so this stays
 * an estimate with every layer, exact ones included.
 *
 * @example
 * TokenEstimator.estimateEncryptedReasoning("A".repeat(1100)) // 45
 *
 * @since 0.1.0
 */
export const estimateEncryptedReasoning = (data: string): number =>
  data.length <= ENCRYPTED_REASONING_FRAMING ? 0 : Math.ceil(((data.length - ENCRYPTED_REASONING_FRAMING) * 3) / 20)


/**
 * The tokens of an image at OpenAI's `low` detail, whatever its size: the
 * base price of the 85 + 170 per tile models (gpt-4o, gpt-4.1).
 *
 * @example
 * TokenEstimator.heuristic.estimateBlock(Block.image("https://example.com/cat.png", { detail: "low" })) // 85
 *
 * @since 0.1.0
 */
export const IMAGE_LOW_DETAIL_TOKENS = LOW_DETAIL_IMAGE_TOKENS

/**
 * The tokens of an image whose size is not known, at `high` or `auto`
 * detail (`auto`, the API's default, may pick `high`, so it is priced as
 * `high`): a 1024×1024 image (85 + 4 tiles × 170), OpenAI's own worked
 * example.
 *
 * **Details**
 *
 * The estimator reads the size of an image given inline (from its first
 * bytes) and prices it as gpt-4o does for that size and detail (a 1×1 PNG
 * costs 255); an image whose size it cannot read (a URL, a file id, bytes
 * of no known image format) costs this figure (or
 * `IMAGE_LOW_DETAIL_TOKENS`). `estimateRequest` for OpenAI prices an image
 * it can measure at the model's price for its size, and one it cannot at
 * this same figure, or at the model's price for a 1024×1024 image when that
 * is higher (gpt-4o-mini, gpt-4.1-mini). A wider or larger image given by
 * URL can cost more, up to 1,445 tokens on gpt-4o: pass your own
 * `estimateFile` to `make` when you know your images' sizes. For Anthropic
 * and Gemini, `estimateRequest` prices images as those providers do
 * (Claude: width × height / 750 or its 28-pixel patches, the larger, after
 * scaling; 1,600 for an image it cannot measure, 5,000 on Opus 4.7 and
 * later; Gemini 3: 1,120 at the default media resolution), and a window
 * counts each message at the larger of that and this estimator's figure.
 *
 * @example
 * TokenEstimator.heuristic.estimateBlock(Block.image("https://example.com/cat.png")) // 765
 *
 * @since 0.1.0
 */
export const IMAGE_DEFAULT_TOKENS = UNKNOWN_SIZE_IMAGE_TOKENS

/**
 * The tokens of a non-image file given by reference (a URL or a file id)
 * whose content is unknown: about one page of a document.
 *
 * @example
 * TokenEstimator.heuristic.estimateBlock(Block.document("https://example.com/report.pdf")) // 1000
 *
 * @since 0.1.0
 */
export const REFERENCED_FILE_TOKENS = 1_000

/**
 * The tokens of each page of a PDF the request holds (inline data, or a
 * base64 `data:` URL), when no provider is known: an image of the page as
 * Claude prices it (1,599) and a page of text (600), Claude's price for a
 * page below Opus 4.7 and more than Gemini's or OpenAI's on gpt-4o, gpt-4.1
 * and gpt-5. Every provider bills a PDF by its pages, never by its size in
 * bytes. The page count is read from the file's structure (its page tree or
 * its page objects, in its compressed object streams too), else taken as
 * one page per 20 KB. `estimateRequest` prices a page as the provider does
 * (Gemini 3: 1,120 at the default media resolution; Gemini 2.x: 258; OpenAI
 * Chat Completions: a page-sized image at the model's image price, 765 on
 * gpt-4o, more on the models whose images cost more, 2,425 on gpt-4.1-mini
 * and 25,501 on gpt-4o-mini, and the file's text, read from the strings its
 * pages show (600 a page when they cannot be read); the Responses API: the
 * file's text alone before GPT-5.6 unless the file's `detail` is `high`,
 * else as on Chat; Claude: 1,599 a page, 2,805 on Opus 4.7 and later, and
 * the file's text), and a window counts each message at the larger of that
 * and this estimator's figure.
 *
 * @example
 * // a two-page PDF given inline
 * TokenEstimator.PDF_PAGE_TOKENS * 2 // 4398
 *
 * @since 0.1.0
 */
export const PDF_PAGE_TOKENS = DEFAULT_PDF_PAGE_TOKENS

/**
 * The tokens of each second of audio the request holds (inline data, or a
 * base64 `data:` URL), when no provider is known: 32, Gemini's price and
 * the most any provider charges (OpenAI's audio models charge about 10;
 * Anthropic takes no audio). Providers bill audio by its duration, never by
 * its size in bytes; the duration is read from the clip's header (WAV, MP3,
 * FLAC, Ogg Vorbis and Opus, AIFF, AAC in M4A or raw, WebM and Matroska),
 * else taken as a second per 4 KB.
 * `estimateRequest` prices a second as the provider does (OpenAI: 10;
 * Anthropic: nothing, as the request leaves audio out), and a window counts
 * each message at the larger of that and this estimator's figure.
 *
 * @example
 * // a 4.5-second clip given inline
 * Math.ceil(4.5 * TokenEstimator.AUDIO_TOKENS_PER_SECOND) // 144
 *
 * @since 0.1.0
 */
export const AUDIO_TOKENS_PER_SECOND = GEMINI_AUDIO_TOKENS_PER_SECOND

/**
 * The tokens of each second of video the request holds (inline data, or a
 * base64 `data:` URL), when no provider is known: 290, Gemini 2.x's price
 * at its default media resolution (a frame a second at 258, and the sound
 * at 32), the most any provider charges by default. Only Gemini takes
 * video, and it bills it by its duration, never by its size in bytes; the
 * duration is read from the container (MP4, QuickTime and 3GP, fragmented
 * ones too, WebM and Matroska, AVI, FLV, WMV, MPEG program and transport
 * streams), else taken as a second per 31,250 bytes (250 kbit/s). `estimateRequest` prices a second as Gemini does for
 * the model, media resolution and the part's `videoMetadata` (frame rate,
 * start and end offsets): 102 on Gemini 3 at the default resolution, 312
 * at high; nothing on Anthropic, whose request leaves video out.
 *
 * @example
 * // a 10-second clip given inline
 * 10 * TokenEstimator.VIDEO_TOKENS_PER_SECOND // 2900
 *
 * @since 0.1.0
 */
export const VIDEO_TOKENS_PER_SECOND = DEFAULT_VIDEO_TOKENS_PER_SECOND

/**
 * The default rule for files: an image given inline costs what gpt-4o
 * charges for its size (read from its first bytes) and detail, and one
 * whose size is not known `IMAGE_LOW_DETAIL_TOKENS` at low detail, else
 * `IMAGE_DEFAULT_TOKENS`; a PDF the request holds
 * `PDF_PAGE_TOKENS` a page; audio it holds `AUDIO_TOKENS_PER_SECOND` a
 * second, and video `VIDEO_TOKENS_PER_SECOND`; a text document its text; other inline data as opaque data;
 * anything else by reference `REFERENCED_FILE_TOKENS`. Pass your own `estimateFile` to `make` for
 * better figures (e.g. from image dimensions you know).
 *
 * @example
 * const defaultRule = TokenEstimator.estimateFileWith((t) => Math.ceil(t.length / 4))
 * const estimator = yield* TokenEstimator.make({
 *   estimateText: (t) => Math.ceil(t.length / 4),
 *   // images you know to be small cost less; everything else as by default
 *   estimateFile: (file) => (file.filename?.startsWith("thumb-") ? 50 : defaultRule(file))
 * })
 *
 * @since 0.1.0
 */
export const estimateFileWith = (estimateText: (text: string) => number) => (file: Block.FileBlock): number => {
  if (isImageType(file.mediaType)) {
    // an inline image's size is in its first bytes: priced as gpt-4o prices it, as an OpenAI request count does
    return imageTokensOfSize(imageSizeOfSource(file.source), file.detail)
  }
  if (isPdf(file)) {
    // by its pages, when the request holds the file (a PDF is billed by its pages, never by its bytes)
    const pages = pdfPagesOfSource(file.source)
    if (pages !== undefined) return pages * PDF_PAGE_TOKENS
  } else if (isAudio(file)) {
    // by its duration, when the request holds the clip
    const seconds = audioSecondsOfSource(file.source)
    if (seconds !== undefined) return audioTokens(seconds, AUDIO_TOKENS_PER_SECOND)
  } else if (isVideo(file)) {
    const seconds = videoSecondsOfSource(file.source)
    if (seconds !== undefined) return videoTokens(seconds, VIDEO_TOKENS_PER_SECOND)
  }
  switch (file.source._tag) {
    case "Text":
      return estimateText(file.source.text)
    case "Base64":
      return estimateOpaqueData(file.source.data)
    case "Url":
    case "FileId":
      return REFERENCED_FILE_TOKENS
    default:
      return Block.absurd(file.source)
  }
}

/**
 * What `make` needs: a text rule, and optionally the per-message overhead
 * (default 4), a rule for opaque data (default `estimateOpaqueData`), one for
 * OpenAI encrypted reasoning (default `estimateEncryptedReasoning`) and one
 * for files (default `estimateFileWith(estimateText)`).
 *
 * @since 0.1.0
 */
export interface MakeOptions {
  readonly estimateText: (text: string) => number
  readonly messageOverhead?: number
  readonly estimateOpaque?: (data: string) => number
  readonly estimateEncryptedReasoning?: (data: string) => number
  readonly estimateFile?: (file: Block.FileBlock) => number
}

/**
 * Builds an estimator from rules that are trusted to be valid (see `make`
 * for the checked version). `prompt` counts the texts and the turn headers
 * of a rendered OpenAI prompt (default: the text rule for both).
 */
const build = (options: MakeOptions, prompt?: PromptCounter): Service => {
  const text = options.estimateText
  const opaque = options.estimateOpaque ?? estimateOpaqueData
  const encryptedReasoning = options.estimateEncryptedReasoning ?? estimateEncryptedReasoning
  const fileRule = options.estimateFile ?? estimateFileWith(text)
  const overhead = options.messageOverhead ?? DEFAULT_MESSAGE_OVERHEAD

  const resultPart = (part: Block.ToolResultPart): number => {
    switch (part._tag) {
      case "Text":
        return text(part.text)
      case "File":
        return fileRule(part)
      case "Json":
        return text(stringify(part.value))
      default:
        return Block.absurd(part)
    }
  }

  const resultContent = (content: Block.ToolResultContent): number => {
    if (typeof content === "string") return text(content)
    let sum = 0
    for (let i = 0; i < content.length; i++) sum += resultPart(content[i]!)
    return sum
  }

  const estimateBlock = (block: Block.Block): number => {
    switch (block._tag) {
      case "Text":
        return text(block.text)
      case "Thinking": {
        let sum = block.thinking === "" && block.encryptedContent !== undefined
          ? encryptedReasoning(block.encryptedContent)
          : text(block.thinking)
        if (block.summary !== undefined) for (const part of block.summary) sum += text(part)
        return sum
      }
      case "RedactedThinking":
        return opaque(block.data)
      case "Refusal":
        return text(block.refusal)
      case "File":
        return fileRule(block)
      case "ToolCall":
        return text(block.name) + text(Block.argsText(block))
      case "ToolResult":
        return text(block.toolName) + resultContent(block.content)
      case "Json":
        return text(stringify(block.value))
      case "ProviderData":
        return text(stringify(block.data))
      default:
        return Block.absurd(block)
    }
  }

  const compute = (message: Message.Message): number => {
    let sum = overhead
    if (message.role !== "tool" && message.name !== undefined) sum += text(message.name)
    const content: ReadonlyArray<Block.Block> = message.content
    for (let i = 0; i < content.length; i++) sum += estimateBlock(content[i]!)
    return sum
  }

  // only frozen messages are memoized: a message that can still change could make a cached figure stale
  const cache = new WeakMap<Message.Message, number>()
  const estimateMessage = (message: Message.Message): number => {
    let tokens = cache.get(message)
    if (tokens === undefined) {
      tokens = compute(message)
      if (Object.isFrozen(message) && Object.isFrozen(message.content)) cache.set(message, tokens)
    }
    return tokens
  }

  const estimateEach = (messages: ReadonlyArray<Message.Message>): Array<number> => {
    const out = new Array<number>(messages.length)
    for (let i = 0; i < messages.length; i++) out[i] = estimateMessage(messages[i]!)
    return out
  }

  const estimateConversation = (messages: ReadonlyArray<Message.Message>): number => {
    let sum = 0
    for (let i = 0; i < messages.length; i++) sum += estimateMessage(messages[i]!)
    return sum
  }

  const rules: RequestEstimates.Rules = { text, promptText: prompt?.text ?? text, promptHeader: prompt?.header ?? text, promptSections: prompt?.sections, message: estimateMessage, block: estimateBlock, opaque, overhead }
  const estimateRequest = (request: Request.Request, options?: RequestEstimateOptions): RequestEstimate =>
    RequestEstimates.estimate(rules, request, options)

  return { estimateText: text, estimateBlock, estimateMessage, estimateEach, estimateConversation, estimateRequest }
}

/**
 * An estimator from a text rule alone, with the default rules for opaque data
 * and files and the default 4-token message overhead. Nothing to check, so
 * nothing can fail.
 *
 * @example
 * const chars = TokenEstimator.fromTextRule((t) => Math.ceil(t.length / 4))
 *
 * @since 0.1.0
 */
export const fromTextRule = (estimateText: (text: string) => number): Service => build({ estimateText })

const MessageOverheadOptions = Schema.Struct({ messageOverhead: Schema.optionalKey(Overhead) })

/**
 * Builds an estimator from a text rule: applies the counting rules to blocks
 * and messages, and memoizes message estimates in a `WeakMap` owned by this
 * estimator (so an estimator is cheap to create, and its cache is freed with
 * the messages). Use it to plug in your own tokenizer. Fails with
 * `InvalidEstimatorOptions` when `messageOverhead` is not a non-negative
 * whole number. The rules are not checked (they are functions): the
 * estimates are sums of what they return, so a rule should return a whole,
 * non-negative number of tokens.
 *
 * @example
 * const words = yield* TokenEstimator.make({ estimateText: (t) => t.split(/\s+/).filter(Boolean).length })
 * words.estimateMessage(Message.user("one two three")) // 3 + 4
 *
 * @since 0.1.0
 */
export const make = (options: MakeOptions): Effect.Effect<Service, InvalidEstimatorOptions> =>
  Effect.suspend(() =>
    checkOptions(MessageOverheadOptions, options.messageOverhead === undefined ? {} : { messageOverhead: options.messageOverhead })
  ).pipe(Effect.as(build(options)))

// ---------------------------------------------------------------------------
// the CJK-weighted rule
// ---------------------------------------------------------------------------

/**
 * Options of the CJK-weighted rule, each a non-negative number.
 *
 * - `chineseCharWeight`: tokens per CJK ideograph U+4E00–U+9FFF (default 2.0).
 * - `otherCharWeight`: tokens per other non-whitespace character (default 0.25).
 * - `messageOverhead`: tokens per message, a whole number (default 4).
 *
 * @example
 * const options: TokenEstimator.CjkWeightedOptions = { chineseCharWeight: 1.5, otherCharWeight: 0.3 }
 * program.pipe(Effect.provide(TokenEstimator.layerCjkWeighted(options)))
 *
 * @since 0.1.0
 */
export const CjkWeightedOptions = Schema.Struct({
  chineseCharWeight: Schema.optionalKey(Weight),
  otherCharWeight: Schema.optionalKey(Weight),
  messageOverhead: Schema.optionalKey(Overhead)
})

/**
 * Options of the CJK-weighted rule, as a type.
 *
 * @since 0.1.0
 */
export type CjkWeightedOptions = typeof CjkWeightedOptions.Type

/** JavaScript's `\s`, by code unit (the rule tests each character with `/\s/`). */
const isSpace = (c: number): boolean =>
  c <= 0x20
    ? c === 0x20 || (c >= 0x09 && c <= 0x0d)
    : c >= 0xa0 &&
      (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
        c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff)

/**
 * The CJK-weighted text rule: each CJK ideograph (U+4E00–U+9FFF) costs
 * `chineseCharWeight`, every other non-whitespace character
 * `otherCharWeight`, whitespace nothing, and the sum is rounded up.
 * Characters are code points (an emoji counts once), summed in text order, so
 * results match the original rule exactly, rounding included. The weights
 * are trusted here; `makeCjkWeighted` and `layerCjkWeighted` check them.
 *
 * @example
 * const rule = TokenEstimator.cjkWeightedTextRule()
 * rule("你好世界")    // 8
 * rule("hello world") // 3 (10 × 0.25 = 2.5, rounded up)
 *
 * @since 0.1.0
 */
export const cjkWeightedTextRule = (options?: CjkWeightedOptions): (text: string) => number => {
  const cjk = options?.chineseCharWeight ?? 2.0
  const other = options?.otherCharWeight ?? 0.25
  return (text) => {
    const n = text.length
    if (n === 0) return 0
    let tokens = 0
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i)
      if (c >= 0x4e00 && c <= 0x9fff) {
        tokens += cjk
      } else if (c >= 0xd800 && c <= 0xdbff) {
        // a surrogate pair is one code point: count it once
        const next = i + 1 < n ? text.charCodeAt(i + 1) : 0
        if (next >= 0xdc00 && next <= 0xdfff) i++
        tokens += other
      } else if (!isSpace(c)) {
        tokens += other
      }
    }
    return Math.ceil(tokens)
  }
}

/**
 * An estimator with the CJK-weighted rule (`cjkWeightedTextRule`) and its
 * per-message overhead: the compatibility baseline. A message costs the
 * overhead plus the rounded-up estimate of each of its texts.
 *
 * @example
 * const rule = yield* TokenEstimator.makeCjkWeighted()
 * rule.estimateMessage(Message.user("你好世界")) // 8 + 4
 *
 * @since 0.1.0
 */
export const makeCjkWeighted = (options?: CjkWeightedOptions): Effect.Effect<Service, InvalidEstimatorOptions> =>
  Effect.suspend(() => checkOptions(CjkWeightedOptions, options)).pipe(
    Effect.map((checked) =>
      build({ estimateText: cjkWeightedTextRule(checked), messageOverhead: checked.messageOverhead ?? DEFAULT_MESSAGE_OVERHEAD })
    )
  )

// ---------------------------------------------------------------------------
// the fitted heuristic
// ---------------------------------------------------------------------------

/**
 * Options of the fitted heuristic: the target `encoding` (default `"o200k"`)
 * and the per-message overhead, a whole number (default 4).
 *
 * @example
 * const options: TokenEstimator.HeuristicOptions = { encoding: "cl100k", messageOverhead: 3 }
 * program.pipe(Effect.provide(TokenEstimator.layerHeuristic(options)))
 *
 * @since 0.1.0
 */
export const HeuristicOptions = Schema.Struct({
  encoding: Schema.optionalKey(Encoding),
  messageOverhead: Schema.optionalKey(Overhead)
})

/**
 * Options of the fitted heuristic, as a type.
 *
 * @since 0.1.0
 */
export type HeuristicOptions = typeof HeuristicOptions.Type

const heuristicTable = (encoding: Encoding): HeuristicTable => (encoding === "cl100k" ? cl100k : o200k)

// The text rule of each encoding is one function made here, reading a table bound in this module: V8 then folds the
// table into the estimating loop inlined in it, which runs a sixth faster than the same loop reading a table passed in
// (as a closure made per estimator would, once there are two: 280 against 330 M code units/s on English and code).
const O200K_TABLE = o200k
const CL100K_TABLE = cl100k
const estimateO200k = (text: string): number => estimateTextWith(text, O200K_TABLE)
const estimateCl100k = (text: string): number => estimateTextWith(text, CL100K_TABLE)
const heuristicRule = (encoding: Encoding): (text: string) => number => (encoding === "cl100k" ? estimateCl100k : estimateO200k)

const buildHeuristic = (options: HeuristicOptions): Service => {
  const encoding = options.encoding ?? "o200k"
  return build({
    estimateText: heuristicRule(encoding),
    messageOverhead: options.messageOverhead ?? DEFAULT_MESSAGE_OVERHEAD
  }, scaffoldAwareEstimator(heuristicTable(encoding)))
}

/**
 * The fitted heuristic's text rule for an encoding, on its own.
 *
 * @example
 * TokenEstimator.heuristicTextRule("o200k")("Hello, world!") // 4
 *
 * @since 0.1.0
 */
export const heuristicTextRule = (encoding: Encoding): (text: string) => number => heuristicRule(encoding)

/**
 * An estimator using the character-class heuristic fitted against the exact
 * tokenizer of `encoding`: one pass over each text with a lookup table, no
 * regex, no allocation. Much closer to real counts than the CJK-weighted
 * rule, especially for code, numbers and CJK, at a similar cost.
 *
 * @example
 * const estimator = yield* TokenEstimator.makeHeuristic({ encoding: "cl100k" })
 * estimator.estimateText("Hello, world!")
 *
 * @since 0.1.0
 */
export const makeHeuristic = (options?: HeuristicOptions): Effect.Effect<Service, InvalidEstimatorOptions> =>
  Effect.suspend(() => checkOptions(HeuristicOptions, options)).pipe(Effect.map(buildHeuristic))

/**
 * The default estimator as a plain value: the heuristic for o200k with a
 * 4-token message overhead. For code outside Effect and for benchmarks;
 * inside Effect, provide `TokenEstimator.layer`.
 *
 * @example
 * const tokens = TokenEstimator.heuristic.estimateConversation(messages)
 *
 * @since 0.1.0
 */
export const heuristic: Service = /* @__PURE__ */ buildHeuristic({})

// ---------------------------------------------------------------------------
// fixed cost, for tests
// ---------------------------------------------------------------------------

/**
 * Options of the fixed-cost estimator: `costPerChar` (default 1) and
 * `messageOverhead` (default 0).
 *
 * @example
 * const fixed = yield* TokenEstimator.makeTest({ costPerChar: 0.5, messageOverhead: 2 })
 * fixed.estimateMessage(Message.user("hello")) // 3 + 2
 *
 * @since 0.1.0
 */
export const TestOptions = Schema.Struct({
  costPerChar: Schema.optionalKey(Weight),
  messageOverhead: Schema.optionalKey(Overhead)
})

/**
 * Options of the fixed-cost estimator, as a type.
 *
 * @since 0.1.0
 */
export type TestOptions = typeof TestOptions.Type

const buildTest = (options: TestOptions): Service => {
  const cost = options.costPerChar ?? 1
  const estimateText = (text: string): number => Math.ceil(text.length * cost)
  return build({ estimateText, estimateOpaque: estimateText, estimateEncryptedReasoning: estimateText, messageOverhead: options.messageOverhead ?? 0 })
}

/**
 * An estimator where every character (UTF-16 code unit) of every counted
 * string, opaque data included, costs `costPerChar` (rounded up per text), and
 * every message `messageOverhead`: predictable numbers for your own tests.
 *
 * @example
 * const fixed = yield* TokenEstimator.makeTest()
 * fixed.estimateMessage(Message.user("hello")) // 5
 *
 * @since 0.1.0
 */
export const makeTest = (options?: TestOptions): Effect.Effect<Service, InvalidEstimatorOptions> =>
  Effect.suspend(() => checkOptions(TestOptions, options)).pipe(Effect.map(buildTest))

// ---------------------------------------------------------------------------
// the service and its layers
// ---------------------------------------------------------------------------

/**
 * The token estimator service. Get it with `yield* TokenEstimator`, provide
 * it with one of this module's layers.
 *
 * @example
 * const program = Effect.gen(function* () {
 *   const estimator = yield* TokenEstimator.TokenEstimator
 *   return estimator.estimateConversation(messages)
 * })
 * program.pipe(Effect.provide(TokenEstimator.layerHeuristic({ encoding: "o200k" })))
 *
 * @since 0.1.0
 */
export class TokenEstimator extends Context.Service<TokenEstimator, Service>()("effect-agent-messages/TokenEstimator") {}

/**
 * The default estimator: the fitted heuristic for o200k with a 4-token
 * message overhead.
 *
 * @example
 * program.pipe(Effect.provide(TokenEstimator.layer))
 *
 * @since 0.1.0
 */
export const layer: Layer.Layer<TokenEstimator> = /* @__PURE__ */ Layer.sync(TokenEstimator, () => buildHeuristic({}))

/**
 * The fitted character-class heuristic (`makeHeuristic`), with its options
 * checked when the layer is built.
 *
 * @example
 * program.pipe(Effect.provide(TokenEstimator.layerHeuristic({ encoding: "cl100k", messageOverhead: 3 })))
 *
 * @since 0.1.0
 */
export const layerHeuristic = (options?: HeuristicOptions): Layer.Layer<TokenEstimator, InvalidEstimatorOptions> =>
  Layer.effect(TokenEstimator, makeHeuristic(options))

/**
 * The CJK-weighted rule (`makeCjkWeighted`): CJK 2.0, other non-space characters
 * 0.25, 4 tokens per message, all configurable. The compatibility baseline.
 *
 * @example
 * program.pipe(Effect.provide(TokenEstimator.layerCjkWeighted({ chineseCharWeight: 1.5 })))
 *
 * @since 0.1.0
 */
export const layerCjkWeighted = (options?: CjkWeightedOptions): Layer.Layer<TokenEstimator, InvalidEstimatorOptions> =>
  Layer.effect(TokenEstimator, makeCjkWeighted(options))

/**
 * A fixed cost per character and per message (`makeTest`), for tests.
 *
 * @example
 * const estimate = Effect.gen(function*() {
 *   const estimator = yield* TokenEstimator.TokenEstimator
 *   return estimator.estimateMessage(Message.user("hello"))
 * })
 * estimate.pipe(Effect.provide(TokenEstimator.layerTest({ costPerChar: 1 }))) // succeeds with 5
 *
 * @since 0.1.0
 */
export const layerTest = (options?: TestOptions): Layer.Layer<TokenEstimator, InvalidEstimatorOptions> =>
  Layer.effect(TokenEstimator, makeTest(options))

/**
 * An estimator of your own (`make`) as a layer.
 *
 * @example
 * program.pipe(Effect.provide(TokenEstimator.layerMake({ estimateText: (t) => Math.ceil(t.length / 4) })))
 *
 * @since 0.1.0
 */
export const layerMake = (options: MakeOptions): Layer.Layer<TokenEstimator, InvalidEstimatorOptions> =>
  Layer.effect(TokenEstimator, make(options))
