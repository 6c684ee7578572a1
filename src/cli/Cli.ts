/**
 * The `agent-messages` command line: check, count, trim, repair and convert
 * a transcript file in one command. The commands are `effect/cli` commands;
 * `main.ts` runs them on Node.
 *
 * Exit codes: 0 success (for `check`: the conversation is valid); 1 `check`
 * found issues, or the job cannot be done as asked (`trim`: a budget smaller
 * than the messages that must stay; `repair --provider`: no repair makes the
 * history acceptable to the provider), said in one line on stderr; 2 the
 * input cannot be read or decoded (one line on stderr, never a stack trace),
 * or the command line cannot be parsed (an unknown flag or subcommand, a
 * value not among a flag's choices, a missing `--budget`, `--wizard` without
 * a terminal): the error on stderr, nothing on stdout.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Option, Ref, Schema, Stdio, Stream } from "effect"
import { absurd } from "effect/Function"
import { Argument, CliConfig, CliOutput, Command, Flag, GlobalFlag } from "effect/cli"
import * as Conversation from "../Conversation.js"
import * as Message from "../Message.js"
import * as MessageWindow from "../MessageWindow.js"
import type { Provider } from "../Provider.js"
import * as Repair from "../Repair.js"
import * as Request from "../Request.js"
import * as Summarizer from "../Summarizer.js"
import * as GeminiEstimator from "../GeminiEstimator.js"
import * as TokenEstimator from "../TokenEstimator.js"
import type { ConversionWarning } from "../providers/Conversion.js"
import * as OpenAiResponses from "../providers/OpenAiResponses.js"
import type * as ValidationError from "../ValidationError.js"
import * as Formats from "./Formats.js"
import { InputError, inputName, read as readInput } from "./Input.js"
import { hintOf } from "../providers/internal/kept.js"
import { preview, quote } from "../internal/preview.js"

const providers = ["openai-chat", "openai-responses", "anthropic", "gemini"] as const
const formats = ["canonical", "openai-chat", "openai-responses", "anthropic", "gemini"] as const
const inputFormats = ["auto", ...formats] as const

/**
 * Texts joined into pieces of about a megabyte: few writes for many lines,
 * and never one string for the whole output (the text of a million messages
 * is longer than one JavaScript string can be).
 */
function* batched(texts: Iterable<string>): Generator<string> {
  let batch = ""
  for (const text of texts) {
    batch += text
    if (batch.length >= 1 << 20) {
      yield batch
      batch = ""
    }
  }
  if (batch !== "") yield batch
}

/**
 * Writes texts to standard output or error through the `Stdio` service, a
 * piece at a time, each once the previous one has been taken (a pipe's
 * back-pressure holds the next). A write that fails (a reader that closed
 * the pipe) is the runner's to report, which ends the process: here it ends
 * nothing.
 */
const write = (to: "stdout" | "stderr", texts: Iterable<string>): Effect.Effect<void, never, Stdio.Stdio> =>
  Stdio.Stdio.use((io) => Stream.run(Stream.fromIterable(batched(texts), { chunkSize: 1 }), to === "stdout" ? io.stdout() : io.stderr())).pipe(
    Effect.ignore
  )

const stderr = (line: string): Effect.Effect<void, never, Stdio.Stdio> => write("stderr", [`${line}\n`])
/** Lines on stderr, written together. */
const stderrLines = (lines: Iterable<string>): Effect.Effect<void, never, Stdio.Stdio> => write("stderr", linesOf(lines))
const stdout = (text: string): Effect.Effect<void, never, Stdio.Stdio> => write("stdout", [text])

/** Writes text given in pieces (see `batched`). */
const stdoutChunks = (chunks: Iterable<string>): Effect.Effect<void, never, Stdio.Stdio> => write("stdout", chunks)

function* linesOf(lines: Iterable<string>): Generator<string> {
  for (const line of lines) yield `${line}\n`
}

/**
 * The exit code a run ends with, which its commands set: 0 unless one says
 * otherwise. `run` gives it to the runner, which ends the process with it.
 */
class ExitCode extends Context.Service<ExitCode, Ref.Ref<number>>()("effect-agent-messages/cli/ExitCode") {}

const exitWith = (code: number): Effect.Effect<void, never, ExitCode> => ExitCode.use((current) => Ref.set(current, code))

/** Shows progress on stderr when it is a terminal and the input is large. */
const progress = (bytes: number, step: string): Effect.Effect<void, never, Stdio.Stdio> =>
  bytes > 5_000_000
    ? Stdio.Stdio.use((io) => io.stderrIsTerminal).pipe(Effect.flatMap((terminal) => terminal ? stderr(`agent-messages: ${step}...`) : Effect.void))
    : Effect.void

/**
 * A warning's text in the command line's terms: what the library calls the `maxTokens` option (an Anthropic body's
 * `max_tokens` when the request has no output limit) is the `--max-tokens` flag here, and the request is the input.
 */
const flagTerms = (w: ConversionWarning, text: string): string => {
  if (w._tag === "MissingRequiredField" && w.path === "max_tokens") {
    const said = text
      .replace("set the request's maxOutputTokens or the maxTokens option", "give one with --max-tokens N")
      .replace("not the request's ", "not the input's ")
    return said.includes("--max-tokens") ? said : `${said}; give one with --max-tokens N`
  }
  // the input's own limit, refused, replaced by the flag's
  if (w._tag === "ConvertedContent" && w.what.startsWith("max_tokens") && w.how.startsWith("the maxTokens option's ")) {
    return text.replace(`was sent ${w.how}`, `was replaced by --max-tokens ${w.how.slice("the maxTokens option's ".length)}`)
  }
  return text
}

/** Prints conversion warnings; with `where`, each names its message as the file read does (see `warningWhere`). */
const warn = (warnings: ReadonlyArray<ConversionWarning>, where?: (w: ConversionWarning) => string): Effect.Effect<void, never, Stdio.Stdio> =>
  warnings.length === 0 ? Effect.void : stderrLines(warnings.map((w) => `warning: ${flagTerms(w, where === undefined ? w.message : where(w))}`))

/**
 * Reads FILE in the given format (or detects it, saying so on stderr), with which item of a Responses file each
 * block was read from (`itemOf`), the parts of the Gemini contents read as two messages out of order
 * (`geminiParts`), which field of a Chat message or of a canonical message in the flat form each block was read from
 * (`fieldBlock`) and what the file calls its system text (`systemName`). With `itemBlocks`, also how many blocks
 * each item of a run of Responses items read as one message became (see `Formats.itemBlocks`), which `itemOf` needs
 * for the blocks of such a run; else that is empty.
 */
const load = (
  file: string,
  format: (typeof inputFormats)[number],
  options?: { readonly itemBlocks?: boolean }
): Effect.Effect<
  Formats.Read & {
    readonly bytes: number
    readonly origins: ReadonlyArray<number> | undefined
    readonly listLength: number | undefined
    readonly itemBlocks: ReadonlyMap<number, ReadonlyArray<number>>
    readonly itemOf: ItemOf
    readonly geminiParts: ReadonlyMap<number, ReadonlyArray<number>>
    readonly fieldBlock: FieldBlockOf
    readonly resultPart: ResultPartOf
    readonly systemName: string | undefined
    readonly chatReasoning: "reasoning_content" | undefined
  },
  InputError,
  Stdio.Stdio
> =>
  Effect.gen(function*() {
    const parsed = yield* readInput(file)
    if (parsed.rounded !== undefined) yield* stderr(`agent-messages: warning: ${inputName(file)} holds ${parsed.rounded}`)
    yield* progress(parsed.bytes, "decoding")
    const detected = Formats.detect(parsed, inputName(file))
    let shape: Formats.Shape
    let chosen: Formats.FormatName
    if (format === "auto") {
      if (detected instanceof InputError) return yield* detected
      chosen = detected.format
      shape = detected.shape
      yield* stderr(`agent-messages: read ${inputName(file)} as ${chosen}${shape === "body" ? " (a request body)" : shape === "jsonl" ? " (JSONL)" : ""}`)
    } else {
      chosen = format
      shape = parsed.kind === "jsonl" ? "jsonl" : Array.isArray(parsed.value) ? "messages" : "body"
    }
    const result = yield* Formats.read(parsed, chosen, shape)
    const origins = Formats.origins(parsed, result)
    const itemBlocks = options?.itemBlocks === true ? yield* Formats.itemBlocks(parsed, result, origins) : new Map<number, ReadonlyArray<number>>()
    const read = {
      ...result,
      origins,
      listLength: Formats.listLength(parsed, result),
      itemOf: Formats.itemOfBlock(parsed, result, origins, itemBlocks),
      geminiParts: Formats.geminiPartsOf(parsed, result, origins),
      fieldBlock: result.format === "canonical"
        ? Formats.flatBlockOf(parsed, result)
        : result.format === "openai-chat"
        ? Formats.chatBlockOf(parsed, result)
        : Formats.textContentOf(parsed, result, origins),
      resultPart: Formats.resultPartOf(parsed, result),
      systemName: Formats.systemName(parsed, result)
    }
    yield* warn(result.warnings, warningWhere(read))
    return {
      ...read,
      itemBlocks,
      bytes: parsed.bytes,
      chatReasoning: Formats.usesReasoningContent(parsed) ? "reasoning_content" as const : undefined
    }
  })

/**
 * Writes a request in a format, keeping the input's shape where the target has it. `where` names the messages
 * of its warnings (a conversion's messages are the file's; a repair's or a trim's are new ones, named as the model
 * numbers them).
 */
const emit = (
  request: Formats.Read["request"],
  target: Formats.FormatName,
  shape: Formats.Shape,
  chatReasoning?: "reasoning_content",
  maxTokens?: number,
  where?: (w: ConversionWarning) => string
): Effect.Effect<void, InputError, Stdio.Stdio> =>
  Effect.gen(function*() {
    const targetShape: Formats.Shape = target === "canonical" ? shape : shape === "jsonl" ? "messages" : shape
    const options: Formats.WriteOptions = {
      ...(chatReasoning === undefined ? {} : { chatReasoning }),
      ...(maxTokens === undefined ? {} : { maxTokens })
    }
    const written = yield* Formats.write(request, target, targetShape, options)
    yield* warn(written.warnings, where)
    yield* stdoutChunks(written.chunks)
  })

/**
 * The input was read, but the job cannot be done as asked (a budget smaller
 * than the messages that must stay, a history no repair makes acceptable to
 * the provider): one line on stderr and exit code 1.
 *
 * @since 0.1.0
 */
export class JobFailed extends Schema.TaggedError<JobFailed>()("JobFailed", { reason: Schema.String }) {
  override get message(): string {
    return this.reason
  }
}

/** Runs a command body: an unreadable input becomes one line on stderr and exit code 2, a job that cannot be done exit code 1. */
const guarded = <E, R>(body: Effect.Effect<void, E, R>): Effect.Effect<void, never, R | Stdio.Stdio | ExitCode> =>
  body.pipe(
    Effect.catch((error: E) =>
      stderr(`agent-messages: ${error instanceof Error && error.message !== "" ? error.message : String(error)}`).pipe(
        Effect.andThen(exitWith(error instanceof JobFailed ? 1 : 2))
      )
    ),
    Effect.catchDefect((defect) => stderr(`agent-messages: unexpected failure: ${String(defect)}`).pipe(Effect.andThen(exitWith(2))))
  )

const fileArg = Argument.String("file").pipe(Argument.withDescription("a transcript file (JSON or JSONL), or - for standard input"))
const formatFlag = Flag.Literals("format", inputFormats).pipe(
  Flag.withDefault("auto" as const),
  Flag.withDescription("the input format (default: detected from the shape)")
)
const providerFlag = Flag.Literals("provider", providers).pipe(Flag.optional, Flag.withDescription("use this provider's rules (its profile, in place of the generic rules where the provider differs)"))
const toFlag = Flag.Literals("to", formats).pipe(Flag.optional, Flag.withDescription("the output format (default: the input's)"))
const jsonFlag = Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("print JSON instead of text"))

/** The same request with other messages. */
const withMessages = (request: Request.Request, messages: ReadonlyArray<Message.Message>): Request.Request =>
  new Request.Request({ ...request, messages })

/** What the file read calls its list of messages: `input` in a Responses body, `contents` in a Gemini one. */
const listNameOf = (input: Formats.Read): string =>
  input.shape !== "body" ? "messages" : input.format === "openai-responses" ? "input" : input.format === "gemini" ? "contents" : "messages"

/** Which item of a Responses file block `b` of the model's message `i` was read from (see `Formats.itemOfBlock`). */
type ItemOf = (i: number, b: number) => { readonly item: number; readonly part: number | undefined; readonly text?: true } | undefined

/**
 * Where block `b` of the model's message `i` is in its Chat message (see `Formats.chatBlockOf`), in its canonical
 * message in the flat form (see `Formats.flatBlockOf`), or, for Anthropic and Gemini, in a field given as a string
 * (see `Formats.textContentOf`).
 */
type FieldBlockOf = (i: number, b: number) => Formats.PlaceInEntry | undefined

/** Where a part of a tool result is in the file's entry that holds the result (see `Formats.resultPartOf`). */
type ResultPartOf = (entry: number, block: number | null, p: number, count: number) => Formats.PlaceInEntry | undefined

/**
 * A file as read, with the input message each model message came from, how many the file's list holds, which
 * item each block of a message read from Responses items came from, which part each block of a Gemini content read
 * as two messages out of order came from (see `Formats.geminiPartsOf`), which field of a Chat message or of a flat
 * canonical message each block was read from (see `Formats.chatBlockOf`, `Formats.flatBlockOf`), where each part of
 * a tool result is (see `Formats.resultPartOf`), and what the file calls its system text.
 */
type Placed = Formats.Read & {
  readonly origins: ReadonlyArray<number> | undefined
  readonly listLength: number | undefined
  readonly itemOf: ItemOf
  readonly geminiParts: ReadonlyMap<number, ReadonlyArray<number>>
  readonly fieldBlock: FieldBlockOf
  readonly resultPart: ResultPartOf
  readonly systemName: string | undefined
}

/** Where a model message is in the file: its label, its index there, and the last index of the items it was read from. */
interface Located {
  readonly label: string
  readonly index: number | null
  readonly through: number | null
}

/**
 * Where the model's message `i` is in the file read: the wire message it came from (`input[2]`, `contents[0]`),
 * or the system text kept beside the messages. `undefined` when the file's messages and the model's do not line up
 * in a way that is known. A canonical file's messages are the model's, but their blocks are named their own way in
 * the flat form (`toolCalls[1]`, a string `content`), as every other format names some blocks its own way (a Chat
 * message's `tool_calls[1]`, a Gemini content's `parts`, Responses items; an Anthropic message's tool call is pinned
 * by its block).
 */
const fileLocator = (input: Placed): ((i: number) => Located) | undefined => {
  const { origins, listLength } = input
  if (origins === undefined) return undefined
  const list = listNameOf(input)
  const outside = input.systemName ?? "system"
  return (i) => {
    const w = origins[i]
    if (w === undefined) return { label: `messages[${i}]`, index: i, through: i }
    if (w === -1) return { label: outside, index: null, through: null }
    // a Responses input given as text has no list: it is the one message
    if (listLength === undefined) return { label: list, index: null, through: null }
    // a message read from several items (a Responses run of calls) spans them up to the next message's first, or
    // the last message to the end of the list
    const next = origins[i + 1]
    const through = next === undefined ? (listLength ?? w + 1) - 1 : next > w ? next - 1 : w
    return { label: `${list}[${w}]`, index: w, through }
  }
}

/**
 * Where a block of a model message is in the file: the entry that holds it (a wire message, a Responses item, the
 * system text beside the messages), and its place inside that entry (`content[1]`, `parts[0]`, `[2]` of Anthropic's
 * `system`, with its number as `innerIndex`); `inner` is `undefined` when the entry itself is the block (a Responses
 * call, reasoning item or call output) or its place there is not known. `exact` is false when only the message is
 * known (the items of a Responses run whose blocks could not be counted): `entry` is then the items it spans.
 */
interface BlockPlace {
  readonly entry: Located
  readonly inner: string | undefined
  readonly innerIndex: number | null
  readonly exact: boolean
}

/**
 * Where block `b` of the model's message `i` is in the file read: counted from the wire message's first part when
 * the wire message was read as several model messages (an Anthropic user message of tool results and text), and in
 * a run of Responses items read as one message, the item it came from (`input[3]`, or `input[2].content[1]` for a
 * part of an output message), and a Chat or flat canonical message's block by its field (see `Formats.chatBlockOf`,
 * `Formats.flatBlockOf`). `undefined` when the file's messages and the model's do not line up in a known way.
 */
const blockPlacer = (input: Placed): ((i: number, b: number) => BlockPlace) | undefined => {
  const locate = fileLocator(input)
  if (locate === undefined) return undefined
  const { format, origins } = input
  const messages = input.request.messages
  // where each model message's blocks start in its wire message: after those of the model messages read from it before
  let offsets: Array<number> | undefined
  const offsetOf = (i: number): number => {
    if (offsets === undefined) {
      offsets = new Array<number>(messages.length)
      for (let k = 0; k < messages.length; k++) {
        offsets[k] = k > 0 && origins![k] === origins![k - 1] ? offsets[k - 1]! + messages[k - 1]!.content.length : 0
      }
    }
    return offsets[i] ?? 0
  }
  return (i, b) => {
    const at = locate(i)
    if (at.index === null) {
      // system text kept beside the messages: Anthropic's `system` blocks, Gemini's `systemInstruction.parts`;
      // Responses instructions, an input given as text, and a `system` or `systemInstruction` given as a string, are
      // one text
      if (input.fieldBlock(i, b) !== undefined) return { entry: at, inner: undefined, innerIndex: null, exact: true }
      if (format === "gemini") return { entry: at, inner: `parts[${b}]`, innerIndex: b, exact: true }
      if (format === "anthropic") return { entry: at, inner: `[${b}]`, innerIndex: b, exact: true }
      return { entry: at, inner: undefined, innerIndex: null, exact: true }
    }
    if (format === "openai-responses") {
      const found = input.itemOf(i, b)
      // a run whose items' blocks could not be counted: the items it spans
      if (found === undefined) return { entry: at, inner: undefined, innerIndex: null, exact: at.index === at.through }
      const entry: Located = { label: `${listNameOf(input)}[${found.item}]`, index: found.item, through: found.item }
      if (found.text === true) return { entry, inner: "content", innerIndex: null, exact: true }
      return found.part === undefined
        ? { entry, inner: undefined, innerIndex: null, exact: true }
        : { entry, inner: `content[${found.part}]`, innerIndex: found.part, exact: true }
    }
    if (format === "openai-chat" || format === "canonical" || format === "anthropic") {
      // a Chat message's blocks are its fields': reasoning_content, content (a string, or its parts), refusal, audio,
      // tool_calls, function_call; a flat canonical message's its content (a string, or its entries) and toolCalls;
      // a tool message (Chat's, or a flat one) is its one result; an Anthropic message's string content its one text
      const found = input.fieldBlock(i, b)
      if (found !== undefined) {
        return { entry: at, inner: found.inner, innerIndex: found.index, exact: true }
      }
    }
    // a Gemini content read as its responses and its other parts, which stand among each other: the part's own place
    const k = input.geminiParts.get(i)?.[b] ?? offsetOf(i) + b
    return { entry: at, inner: `${format === "gemini" ? "parts" : "content"}[${k}]`, innerIndex: k, exact: true }
  }
}

/** A block's place as one name: `input[2].content[1]` (or `input[2]: content[1]` with `": "`), `system[0]`, `input[3]`. */
const placeName = (place: BlockPlace, separator: "." | ": "): string => {
  const entry = spanOf(place.entry, place.entry)
  if (place.inner === undefined) return entry
  return place.inner.startsWith("[") ? `${entry}${place.inner}` : `${entry}${separator}${place.inner}`
}

/**
 * A conversion warning's text with its message named as the file names it: `messages[3].content[0]` of an
 * Anthropic body (whose `system` the model counts as a message), `contents[2].parts[1]` of a Gemini one,
 * `input[4..6]` for a Responses run of items read as one message (`input[5]` for a block of it), the part of a
 * wire message that was read as a tool message and a user message counted from the wire message's first part.
 * A warning about a tool call's arguments names the call's block (by its `blockIndex`, or, for a warning without
 * one, by its id, when exactly one call of the message has it). Warnings without a message, and every warning when
 * the file's messages are the model's, are left as they are.
 */
const warningWhere = (input: Placed) => {
  const locate = fileLocator(input)
  const place = blockPlacer(input)
  return (w: ConversionWarning): string => {
    if (locate === undefined || place === undefined || !("index" in w) || w.index === undefined) return w.message
    const block = "blockIndex" in w ? w.blockIndex : undefined
    // a warning about a block names it after its message, or (one that names only its message) not at all
    const inBlock = block === undefined ? undefined : `messages[${w.index}].content[${block}]: `
    const prefix = inBlock !== undefined && w.message.startsWith(inBlock) ? inBlock : `messages[${w.index}]: `
    if (!w.message.startsWith(prefix)) return w.message
    const at = locate(w.index)
    const found = block ?? (w._tag === "RepairedToolArguments" ? callBlockOf(input.request.messages[w.index], w.toolCallId, w.toolName) : undefined)
    const where = found === undefined ? spanOf(at, at) : placeName(place(w.index, found), ".")
    return `${where}: ${w.message.slice(prefix.length)}`
  }
}

/**
 * The index of the one tool call block of a message with this id (and name, when given), or `undefined` when there
 * is not exactly one.
 */
const callBlockOf = (message: Message.Message | undefined, id: string, name?: string): number | undefined => {
  if (message === undefined || message.role !== "assistant") return undefined
  let found: number | undefined
  for (let b = 0; b < message.content.length; b++) {
    const block = message.content[b]!
    if (block._tag !== "ToolCall" || block.id !== id || (name !== undefined && block.name !== name)) continue
    if (found !== undefined) return undefined
    found = b
  }
  return found
}

/**
 * The block each issue that names only its message is about, found by its call id there: the result an orphan or a
 * second result is (in its tool message), the call a missing result answers (when one call is missing its result),
 * the call whose id is used again or that has no thought signature (in its assistant message). An issue that names
 * its block itself is left out, and so is one whose block is not known.
 *
 * Where exactly one block of the message has the id, it is that block. With `complete` (`issues` is every issue found,
 * in the order found), also where several have it: an orphan, a second result and a call id used again are reported
 * for each such block in block order, after the ones that are not (the results that answered a call, the first call
 * with an id used again in its message), so the issues about one id in one message are its last blocks, in order.
 */
const pinnedBlocks = (
  issues: ReadonlyArray<ValidationError.Issue>,
  messages: ReadonlyArray<Message.Message>,
  complete: boolean
): ReadonlyMap<ValidationError.Issue, number> => {
  const out = new Map<ValidationError.Issue, number>()
  // the blocks of each message by the id they carry (its results in a tool message, its calls in an assistant one)
  const byId = new Map<number, Map<string, Array<number>>>()
  const blocksOf = (i: number, id: string): ReadonlyArray<number> => {
    let ids = byId.get(i)
    if (ids === undefined) {
      ids = new Map()
      byId.set(i, ids)
      const message = messages[i]
      const content = message?.content ?? []
      for (let b = 0; b < content.length; b++) {
        const block = content[b]!
        const own = message?.role === "tool" && block._tag === "ToolResult" ? block.toolCallId : message?.role === "assistant" && block._tag === "ToolCall" ? block.id : undefined
        if (own === undefined) continue
        const list = ids.get(own)
        if (list === undefined) ids.set(own, [b])
        else list.push(b)
      }
    }
    return ids.get(id) ?? []
  }
  // the issues about the blocks of one id in one message, which are its last blocks in order (see above)
  const groups = new Map<string, { readonly i: number; readonly id: string; readonly issues: Array<ValidationError.Issue> }>()
  const inOrder = (key: string, i: number, id: string, issue: ValidationError.Issue): void => {
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { i, id, issues: [issue] })
    else group.issues.push(issue)
  }
  const unique = (i: number, id: string, issue: ValidationError.Issue): void => {
    const found = blocksOf(i, id)
    if (found.length === 1 && blockOf(issue) === undefined) out.set(issue, found[0]!)
  }
  // an issue that names its block is placed by it, but counted among the issues about its id in its message
  for (const issue of issues) {
    switch (issue._tag) {
      case "OrphanToolResult":
      case "DuplicateToolResult":
        // in one message, the results of one id that answer no call are all orphans, or all second results
        if (messages[issue.index]?.role === "tool") inOrder(`r ${issue.index} ${issue.toolCallId}`, issue.index, issue.toolCallId, issue)
        break
      case "DuplicateToolCallId":
        // a reuse inside the message (each call after the first) or of an earlier message's id (each call)
        if (issue.index !== undefined && messages[issue.index]?.role === "assistant") {
          const same = issue.firstIndex === undefined || issue.firstIndex === issue.index
          inOrder(`c ${same ? "same" : "earlier"} ${issue.index} ${issue.toolCallId}`, issue.index, issue.toolCallId, issue)
        }
        break
      case "MissingToolResult":
        if (issue.toolCallIds.length === 1 && messages[issue.index]?.role === "assistant") unique(issue.index, issue.toolCallIds[0]!, issue)
        break
      case "MissingThoughtSignature":
        if (messages[issue.index]?.role === "assistant") unique(issue.index, issue.toolCallId, issue)
        break
      default:
        break
    }
  }
  for (const { i, id, issues: said } of groups.values()) {
    const found = blocksOf(i, id)
    if (found.length === 1 && said.length === 1) unique(i, id, said[0]!)
    else if (complete && said.length <= found.length) {
      said.forEach((issue, k) => {
        if (blockOf(issue) === undefined) out.set(issue, found[found.length - said.length + k]!)
      })
    }
  }
  return out
}

/** The file's name for the model messages from `first` to `last`: one item (`input[3]`) or the items they span (`input[3..6]`). */
const spanOf = (first: Located, last: Located): string => {
  if (first.index === null || last.through === null) return first === last ? first.label : `${first.label}..${last.label}`
  return first.index === last.through ? first.label : `${first.label.replace(/\[\d+\]$/, "")}[${first.index}..${last.through}]`
}

/**
 * How many messages the file holds, as it names them (`3 messages`, `7 input items`, `1 content`): the
 * length of its list, not the model's count (an Anthropic body's `system` is a message of the model).
 */
const fileCount = (input: Placed): string => {
  let n = input.request.messages.length
  // the file's list is not known: the model's messages
  if (input.origins === undefined) return `${n} message${n === 1 ? "" : "s"}`
  // a Responses input given as text: one message, the instructions beside it
  if (input.listLength === undefined && input.format === "openai-responses") return "1 message (input given as text)"
  // the list's length: every item of it is read into a model message, with the items after it in a run
  if (input.listLength !== undefined) n = input.listLength
  else {
    n = 0
    for (const w of input.origins) if (w + 1 > n) n = w + 1
  }
  return `${n} ${entryNoun(input, n)}`
}

/** What the file calls `n` entries of its list: `messages`, `input item`, `contents`. */
const entryNoun = (input: Formats.Read, n: number): string => {
  const list = listNameOf(input)
  const [one, many] = list === "input" ? ["input item", "input items"] : list === "contents" ? ["content", "contents"] : ["message", "messages"]
  return n === 1 ? one : many
}

/** A whole number as the logs write it: 1,082. */
const count = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/** The block of each issue that names only its message, where it is known (see `pinnedBlocks`). */
type Pins = ReadonlyMap<ValidationError.Issue, number>

/** How a file names the model's messages and their blocks; `undefined` when that is not known. */
interface Naming {
  readonly locate: (i: number) => Located
  readonly place: (i: number, b: number) => BlockPlace
  /**
   * Where part `p` of the tool result that is block `b` of the model's message `i` is in the file, as a block's place
   * is given (`inner` the part's path in the entry, `innerIndex` its index in the result's list of parts); `undefined`
   * when that is not known (the result's place is not, or its parts and the file's do not line up one for one).
   */
  readonly part: (i: number, b: number, p: number) => BlockPlace | undefined
  readonly messages: ReadonlyArray<Message.Message>
  /** The ids made up for calls and results the file gives none (Gemini's), as a message quotes each, with what to say instead. */
  readonly madeUp: ReadonlyMap<string, { readonly name: string; readonly text: string }>
}

/**
 * The ids the Gemini reader made up for function calls and responses that have none in the file, as an issue's
 * message quotes them (`"get_weather_1_0"`), each with the words that name it in the file's terms instead: its name,
 * and that the file gives it no id. A user looking for the quoted id in the file would not find it.
 */
const madeUpIds = (input: Formats.Read): ReadonlyMap<string, { readonly name: string; readonly text: string }> => {
  const out = new Map<string, { readonly name: string; readonly text: string }>()
  if (input.format !== "gemini") return out
  for (const m of input.request.messages) {
    for (const block of m.content) {
      if ((block._tag === "ToolCall" || block._tag === "ToolResult") && hintOf(block, "gemini", "syntheticId") === true) {
        const name = block._tag === "ToolCall" ? block.name : block.toolName
        out.set(preview(block._tag === "ToolCall" ? block.id : block.toolCallId), { name, text: `${quote(name)} (its name: the file gives it no id)` })
      }
    }
  }
  return out
}

/**
 * A message with each made-up id it quotes named as the file has it (see `madeUpIds`); the tool name a message gives
 * after the id (`"get_weather_1_0" (get_weather)`) is then said once.
 */
const idsInFileTerms = (text: string, naming: Naming | undefined): string => {
  if (naming === undefined || naming.madeUp.size === 0) return text
  return text.replace(/"(?:[^"\\]|\\.)*"( \(([^()]*)\))?/g, (whole: string, after: string | undefined, named: string | undefined) => {
    const quoted = after === undefined ? whole : whole.slice(0, whole.length - after.length)
    const id = naming.madeUp.get(quoted)
    if (id === undefined) return whole
    return named === id.name ? id.text : `${id.text}${after ?? ""}`
  })
}

const namingOf = (input: Placed): Naming | undefined => {
  const locate = fileLocator(input)
  const place = blockPlacer(input)
  if (locate === undefined || place === undefined) return undefined
  const messages = input.request.messages
  const part = (i: number, b: number, p: number): BlockPlace | undefined => {
    const result = messages[i]?.content[b]
    if (result?._tag !== "ToolResult" || typeof result.content === "string") return undefined
    const block = place(i, b)
    if (!block.exact || block.entry.index === null || (block.inner !== undefined && block.innerIndex === null)) return undefined
    // a result that is its entry (a Chat tool message, a Responses output) has its parts in the entry's own list
    const found = input.resultPart(block.entry.index, block.inner === undefined ? null : block.innerIndex, p, result.content.length)
    return found === undefined ? undefined : { entry: block.entry, inner: found.inner, innerIndex: found.index, exact: true }
  }
  return { locate, place, part, messages, madeUp: madeUpIds(input) }
}

/** The message and block an issue (or a repair) is about, when it names a block. */
const blockOf = (issue: object): { readonly index: number; readonly blockIndex: number } | undefined =>
  "index" in issue && typeof issue.index === "number" && "blockIndex" in issue && typeof issue.blockIndex === "number"
    ? { index: issue.index, blockIndex: issue.blockIndex }
    : undefined

/** The part of a tool result an issue is about (an image in a result), as the model counts the result's parts. */
const partOf = (issue: object): number | undefined => ("partIndex" in issue && typeof issue.partIndex === "number" ? issue.partIndex : undefined)

/**
 * A part of a tool result as one name (see `placeName`): where the file has it (`messages[2]: content[1].content[2]`,
 * `input[4]: output[2]`, `contents[2]: parts[1].functionResponse.parts[0]`), or, where its parts and the model's do not
 * line up, the result and the model's count (`input[4]: part 1 of the tool result, as the model counts its parts`).
 */
const partName = (naming: Naming, i: number, b: number, p: number, separator: "." | ": "): string => {
  const part = naming.part(i, b, p)
  return part !== undefined ? placeName(part, separator) : `${placeName(naming.place(i, b), separator)}: part ${p} of the tool result, as the model counts its parts`
}

/**
 * The block an issue that names only its message is about (see `pinnedBlocks`), where the file has it; `undefined`
 * when there is none, or its place in the file is not known (a run of Responses items whose blocks were not counted).
 */
const pinnedPlace = (
  issue: ValidationError.Issue,
  naming: Naming,
  pins: Pins
): { readonly blockIndex: number; readonly place: BlockPlace } | undefined => {
  if (!("index" in issue) || typeof issue.index !== "number") return undefined
  const b = pins.get(issue)
  if (b === undefined) return undefined
  const place = naming.place(issue.index, b)
  return place.exact ? { blockIndex: b, place } : undefined
}

/**
 * An issue's message in the file's terms. One about a block names the block where the file has it, in the issue's own
 * style (`messages[2]: content[1]: ...` of an Anthropic user message read as a tool and a user message, `input[3]:
 * ...` for a call of a run of Responses items read as one message, `input[2]: content[0]: ...` for a part of an
 * output message of such a run; `messages[3]: tool_calls[1]: ...` of a Chat message); one about a call or a result
 * that names only its message by the block `pins` gives it (see `pinnedBlocks`: `input[5]: tool call "c2" has no
 * result ...`); every other `messages[i]` as `inFileTerms` names it.
 */
const issueText = (issue: ValidationError.Issue, naming: Naming | undefined, pins: Pins): string =>
  idsInFileTerms(issuePlaceText(issue, naming, pins), naming)

const issuePlaceText = (issue: ValidationError.Issue, naming: Naming | undefined, pins: Pins): string => {
  const locate = naming?.locate
  const at = blockOf(issue)
  if (naming !== undefined && at === undefined) {
    // an issue about a call or a result that names only its message: the block, when it is known
    const pinned = pinnedPlace(issue, naming, pins)
    const own = "index" in issue ? `messages[${issue.index}]: ` : undefined
    if (pinned === undefined || own === undefined || !issue.message.startsWith(own)) return inFileTerms(issue.message, locate)
    return `${placeName(pinned.place, ": ")}: ${inFileTerms(issue.message.slice(own.length), locate)}`
  }
  const prefix = at === undefined ? "" : `messages[${at.index}]: `
  if (naming === undefined || at === undefined || !issue.message.startsWith(prefix)) return inFileTerms(issue.message, locate)
  const place = naming.place(at.index, at.blockIndex)
  const rest = issue.message.slice(prefix.length)
  const named = `content[${at.blockIndex}]`
  // a part of a tool result ("messages[4]: content[0].content[2]: the image ..."): the part, where the file has it
  const p = partOf(issue)
  const namedPart = p === undefined ? undefined : `${named}.content[${p}]`
  if (p !== undefined && namedPart !== undefined && rest.startsWith(namedPart)) {
    return `${partName(naming, at.index, at.blockIndex, p, ": ")}${inFileTerms(rest.slice(namedPart.length), locate)}`
  }
  // "messages[1]: content[3]: with store: false ..." and "messages[1]: content[0] (f) has an empty tool call id"
  if (rest.startsWith(named)) return `${placeName(place, ": ")}${inFileTerms(rest.slice(named.length), locate)}`
  // the block named inside the text ("tool result at content[0]"): the entry that holds it, and its place there
  const entry = spanOf(place.entry, place.entry)
  const inside = rest.indexOf(named)
  // the block not named in the text: named before it, as an issue that names only its message is
  if (inside < 0) return `${placeName(place, ": ")}: ${inFileTerms(rest, locate)}`
  return `${entry}: ${inFileTerms(rest.slice(0, inside), locate)}${place.inner ?? entry}${inFileTerms(rest.slice(inside + named.length), locate)}`
}

const issueJson = (
  issue: ValidationError.Issue | Repair.CannotRepair["issue"],
  naming: Naming | undefined,
  pins: Pins
): Record<string, unknown> => {
  const { _tag, ...fields } = issue as unknown as Record<string, unknown>
  const index = "index" in issue && typeof issue.index === "number" ? issue.index : undefined
  if (naming === undefined) return { _tag, index: index ?? null, message: issue.message, ...fields }
  const { locate } = naming
  // indices as the file numbers its messages; the model's own index beside them
  const mapped: Record<string, unknown> = {}
  for (const key of ["firstIndex", "resumedAt", "previousIndex"]) {
    const value = fields[key]
    if (typeof value === "number") mapped[key] = locate(value).index
  }
  // a block as the file numbers it in the entry that holds it (null when that entry is the block, a Responses call
  // item, or it is no list's: a Chat message's string content), with its path there; the entry's index is the
  // issue's. An issue that names only its message is given the block of the call or result it is about, if known.
  const at = blockOf(issue)
  const pinned = at === undefined ? pinnedPlace(issue, naming, pins) : undefined
  const place = at === undefined ? pinned?.place : naming.place(at.index, at.blockIndex)
  const modelBlock = at?.blockIndex ?? pinned?.blockIndex
  // a part of a tool result: the part's index in the result's list in the file and its path in the entry, where the
  // file's parts and the model's line up (else the result's, the file's index null), the model's index beside them
  const p = at === undefined ? undefined : partOf(issue)
  const part = at === undefined || p === undefined ? undefined : naming.part(at.index, at.blockIndex, p)
  const shown = part ?? place
  return {
    _tag,
    ...fields,
    ...mapped,
    index: index === undefined ? null : place !== undefined ? place.entry.index : locate(index).index,
    ...(index === undefined ? {} : { modelIndex: index }),
    ...(shown === undefined ? {} : { blockIndex: shown.innerIndex, blockPath: shown.inner ?? null, modelBlockIndex: modelBlock }),
    ...(p === undefined ? {} : { partIndex: part === undefined ? null : part.innerIndex, modelPartIndex: p }),
    message: issueText(issue, naming, pins)
  }
}

/**
 * A repair's description in the file's terms: the block it changed named where the file has it, as the file was
 * read (`input[3]: removed a Thinking block`, `messages[2].content[1]: ...`), every `messages[i]` as `inFileTerms`
 * names it. A block whose place as read is not known (see `blocksAsRead`) is named by its message.
 */
const actionText = (action: Repair.RepairAction, naming: Naming | undefined, asRead: ReadonlyMap<Repair.RepairAction, AsRead>): string =>
  idsInFileTerms(actionPlaceText(action, naming, asRead), naming)

const actionPlaceText = (action: Repair.RepairAction, naming: Naming | undefined, asRead: ReadonlyMap<Repair.RepairAction, AsRead>): string => {
  if (naming === undefined) return action.description
  if (action._tag === "MovedBlock") return movedText(action, naming, asRead.get(action))
  const at = blockOf(action)
  const read = asRead.get(action)
  // a step about a part of a tool result names the part after its block
  const p = action._tag === "CorrectedMediaType" ? action.partIndex : undefined
  // a step about a block names it after its message; one about a call or a result that names only its message is
  // given the block as read, when it was found
  const inBlock = at === undefined ? undefined : `messages[${at.index}].content[${at.blockIndex}]${p === undefined ? "" : `.content[${p}]`}: `
  const prefix = inBlock !== undefined && action.description.startsWith(inBlock) ? inBlock : `messages[${action.index}]: `
  if (!action.description.startsWith(prefix)) return inFileTerms(action.description, naming.locate)
  const rest = inFileTerms(action.description.slice(prefix.length), naming.locate)
  // a block counted in the message as an earlier step left it: the message (the items it spans), not a wrong part
  if (read === undefined) return `${spanOf(naming.locate(action.index), naming.locate(action.index))}: ${rest}`
  const place = naming.place(action.index, read.block)
  // a part given its media type in place: the part, where the file has it
  if (read.part !== undefined && p !== undefined) return `${partName(naming, action.index, read.block, read.part, ".")}: ${rest}`
  // a part taken out of a tool result that is its entry (a Chat tool message, a Responses output): the part, where
  // the entry has it; out of a result inside its entry, the result
  const part = read.part !== undefined && place.inner === undefined ? naming.part(action.index, read.block, read.part) : undefined
  return `${placeName(part ?? place, ".")}: ${rest}`
}

/**
 * The block a repair step is about as `repair --json` gives it, in the meaning `check --json` gives an issue's: its
 * index in the list that holds it in its entry (`blockIndex`, null when the entry is the block or it is in no list),
 * its path there (`blockPath`, null when the entry is the block) and its index in the model's message as read
 * (`modelBlockIndex`); a part of a tool result given its media type, or taken out of a result that is its entry (a Chat
 * tool message, a Responses output), is that part (`blockIndex` its index in the result's parts, `blockPath` its path
 * in the entry), with its index there as `partIndex` (null where the file's parts and the model's do not line up) and
 * the model's as `modelPartIndex`. Empty
 * for a step about a whole message, and for one whose block's place as read is not known exactly (as the log then
 * names the message), a move whose block or new place is not.
 */
const actionBlock = (
  action: Repair.RepairAction,
  naming: Naming,
  read: AsRead | undefined
): Partial<{
  readonly blockIndex: number | null
  readonly blockPath: string | null
  readonly modelBlockIndex: number
  readonly partIndex: number | null
  readonly modelPartIndex: number
}> => {
  if (read === undefined) return {}
  const place = naming.place(action.index, read.block)
  if (!place.exact) return {}
  if (read.before !== undefined && !naming.place(action.index, read.before).exact) return {}
  if (read.part !== undefined) {
    // a part named as the log names it (see `actionText`): given its media type, or taken out of a result that is its entry
    const given = action._tag === "CorrectedMediaType"
    const part = given || place.inner === undefined ? naming.part(action.index, read.block, read.part) : undefined
    if (part !== undefined) {
      return { blockIndex: part.innerIndex, blockPath: part.inner ?? null, modelBlockIndex: read.block, partIndex: part.innerIndex, modelPartIndex: read.part }
    }
    if (given) return { blockIndex: place.innerIndex, blockPath: place.inner ?? null, modelBlockIndex: read.block, partIndex: null, modelPartIndex: read.part }
  }
  return { blockIndex: place.innerIndex, blockPath: place.inner ?? null, modelBlockIndex: read.block }
}

/**
 * A block moved inside its message, in the file's terms: the block, and the block it now comes before, both where
 * the file read has them (`input[4]: moved before input[1] (as read): ...`). Where that is not known, the message
 * (the items it spans), with the model's numbers of the block and its new place and what they count.
 */
const movedText = (action: Repair.MovedBlock, naming: Naming, read: AsRead | undefined): string => {
  const reason = inFileTerms(action.reason, naming.locate)
  const block = read === undefined ? undefined : naming.place(action.index, read.block)
  const before = read?.before === undefined ? undefined : naming.place(action.index, read.before)
  if (block !== undefined && block.exact && before !== undefined && before.exact) {
    return `${placeName(block, ".")}: moved before ${placeName(before, ".")} (as read): ${reason}`
  }
  const message = naming.locate(action.index)
  const counted = read === undefined ? "counted in the message as the repair had it then" : "counted in the message its items were read as"
  return `${spanOf(message, message)}: moved block ${action.from} of the message to place ${action.to} (${counted}): ${reason}`
}

/** The file's index of the message (or the Responses item) a repair changed: the entry of its block as read, when known. */
const actionIndex = (action: Repair.RepairAction, naming: Naming, asRead: ReadonlyMap<Repair.RepairAction, AsRead>): number | null => {
  const read = asRead.get(action)
  return read === undefined ? naming.locate(action.index).index : naming.place(action.index, read.block).entry.index
}

/**
 * Where a repair step's block was in its message as read; for a move, also the block it now comes before; for a part
 * taken out of a tool result, the part's index in the result as read.
 */
interface AsRead {
  readonly block: number
  readonly before?: number
  readonly part?: number
}

/**
 * Where the block each repair step names (by its index in the message as the steps before it left the message) was
 * in its message as read. A repair changes a message in steps: each move is followed, and each removal by the block
 * it removed (or the tool result whose part it removed), so the later steps' blocks are found where the file has
 * them. A step whose block is counted in a message the file does not show is left out: one after a removal of a
 * block that is not one of the message as read, and a move or a prefill's trim in a message another was merged
 * into (the log is in message order, so the merge, logged under the message merged, may have come first). A removed
 * orphan or second result is placed where it was as read, and an inserted result by its call, found by id as read.
 */
const blocksAsRead = (actions: ReadonlyArray<Repair.RepairAction>, messages: ReadonlyArray<Message.Message>): ReadonlyMap<Repair.RepairAction, AsRead> => {
  const mergedInto = new Set<number>()
  for (const action of actions) if (action._tag === "MergedConsecutive") mergedInto.add(action.into)
  // for each message a step changed, the block as read at each of its places now; null when that is not known
  const orders = new Map<number, Array<number> | null>()
  const orderOf = (i: number): Array<number> | null => {
    let order = orders.get(i)
    if (order === undefined) {
      order = Array.from({ length: messages[i]?.content.length ?? 0 }, (_, b) => b)
      orders.set(i, order)
    }
    return order
  }
  /**
   * The block as read that a removal removed, found by identity (a removal's index counts its pass's input, not the
   * message as the removals before it in that pass left it), taken out of its message's order; or the tool result as
   * read whose part it removed, which stays.
   */
  // for each message a removal looked in, where each block (and each part of a tool result) is as read; null for one
  // found twice (which one is not known). Built once per message: a step at a time, a message of many blocks with
  // many steps took time quadratic in its length
  const places = new Map<number, Map<object, { readonly b: number; readonly part: number } | null>>()
  const placesOf = (i: number): Map<object, { readonly b: number; readonly part: number } | null> => {
    let found = places.get(i)
    if (found === undefined) {
      found = new Map()
      const content = messages[i]?.content ?? []
      const put = (o: object, b: number, part: number): void => void found!.set(o, found!.has(o) ? null : { b, part })
      for (let k = 0; k < content.length; k++) {
        const at = content[k]!
        put(at, k, -1)
        if (at._tag === "ToolResult" && typeof at.content !== "string") {
          // a part is where it first is in its result (a part given twice in one result is found there once)
          const parts = at.content as ReadonlyArray<object>
          const seen = new Set<object>()
          for (let p = 0; p < parts.length; p++) {
            const part = parts[p]!
            if (part === at || seen.has(part)) continue
            seen.add(part)
            put(part, k, p)
          }
        }
      }
      places.set(i, found)
    }
    return found
  }
  const removed = (i: number, block: object): AsRead | undefined => {
    const order = orderOf(i)
    if (order === null) return undefined
    const at = placesOf(i).get(block)
    const b = at === undefined || at === null ? -1 : at.b
    const part = at === undefined || at === null ? -1 : at.part
    const now = b < 0 ? -1 : order.indexOf(b)
    if (now < 0) {
      orders.set(i, null)
      return undefined
    }
    if (part < 0) order.splice(now, 1)
    return part < 0 ? { block: b } : { block: b, part }
  }
  /** The block as read of a block changed in place, counted in its message as the steps before left it. */
  const inPlace = (i: number, b: number): number | undefined => {
    const order = orders.get(i)
    // a message no step changed before is as read
    if (order === undefined) return b < (messages[i]?.content.length ?? 0) ? b : undefined
    return order?.[b]
  }
  // the blocks of a message as read by the id they carry (calls apart, for callBlockOf's lookups), built once per message
  const ids = new Map<number, { readonly calls: Map<string, Array<number>>; readonly any: Map<string, Array<number>> }>()
  const idsOf = (i: number): { readonly calls: Map<string, Array<number>>; readonly any: Map<string, Array<number>> } => {
    let found = ids.get(i)
    if (found === undefined) {
      found = { calls: new Map(), any: new Map() }
      const message = messages[i]
      const content = message?.content ?? []
      for (let b = 0; b < content.length; b++) {
        const block = content[b]!
        const own = block._tag === "ToolCall" ? block.id : block._tag === "ToolResult" ? block.toolCallId : block._tag === "ProviderData" ? block.data["call_id"] : undefined
        if (typeof own !== "string") continue
        const add = (into: Map<string, Array<number>>): void => {
          const list = into.get(own)
          if (list === undefined) into.set(own, [b])
          else list.push(b)
        }
        add(found.any)
        if (block._tag === "ToolCall" && message?.role === "assistant") add(found.calls)
      }
      ids.set(i, found)
    }
    return found
  }
  /** The one tool call of an assistant message as read with this id, or `undefined` when there is not exactly one. */
  const callAt = (i: number, id: string): number | undefined => {
    const list = idsOf(i).calls.get(id)
    return list?.length === 1 ? list[0] : undefined
  }
  /**
   * The one block of a message as read that carries this id, or `undefined` when there is not exactly one: a call
   * with it, a result for it, or a Responses custom tool item kept as provider data with it as its `call_id` (a call
   * and its result inside one assistant message, a provider-run tool's, are two).
   */
  const idAt = (i: number, id: string): number | undefined => {
    const list = idsOf(i).any.get(id)
    return list?.length === 1 ? list[0] : undefined
  }
  // the block as read of each call or result an earlier step gave a new id, by its message and that id
  const renamed = new Map<string, number | undefined>()
  const out = new Map<Repair.RepairAction, AsRead>()
  for (const action of actions) {
    switch (action._tag) {
      case "RemovedBlock":
      case "RemovedOrphanResult":
      case "RemovedDuplicateResult": {
        const read = removed(action.index, action._tag === "RemovedBlock" ? action.block : action.result)
        if (read !== undefined) out.set(action, read)
        break
      }
      case "InsertedMissingResult":
      case "AddedThoughtSignature":
      case "RenamedToolCallId":
      case "FilledToolName": {
        // the call it answered or changed (the result whose id or name it changed), found by its id in its message
        // as read where one block has it (not when an earlier step renamed it: a new id is no id of the input); a
        // name filled in after its id was renamed, by the block renamed
        const at = blockOf(action)
        const b = at !== undefined
          ? inPlace(action.index, at.blockIndex)
          : action._tag === "RenamedToolCallId"
          ? idAt(action.index, action.from)
          : action._tag === "FilledToolName"
          ? renamed.get(`${action.index} ${action.toolCallId}`) ?? idAt(action.index, action.toolCallId)
          : callAt(action.index, action.toolCallId)
        if (action._tag === "RenamedToolCallId") {
          // two blocks of the message given the same id (a provider-run call and its result): neither is known
          const key = `${action.index} ${action.to}`
          renamed.set(key, renamed.has(key) ? undefined : b)
        }
        if (b !== undefined) out.set(action, { block: b })
        break
      }
      case "MovedBlock": {
        const order = mergedInto.has(action.index) ? null : orderOf(action.index)
        const block = order?.[action.from]
        const before = order?.[action.to]
        if (order === null || block === undefined || before === undefined) {
          orders.set(action.index, null)
          break
        }
        out.set(action, { block, before })
        order.splice(action.from, 1)
        order.splice(action.to, 0, block)
        break
      }
      case "TrimmedPrefill":
      case "RemovedItemId":
      case "ReplacedToolArguments":
      case "ReplacedLoneSurrogates": {
        // a prefill is trimmed, and an item id removed, last, in a message another may have been merged into
        const last = action._tag === "TrimmedPrefill" || action._tag === "RemovedItemId"
        const block = last && mergedInto.has(action.index) ? undefined : inPlace(action.index, action.blockIndex)
        if (block !== undefined) out.set(action, { block })
        break
      }
      case "CorrectedMediaType": {
        // an image block, or an image part of a tool result, given its type in place
        const block = inPlace(action.index, action.blockIndex)
        if (block !== undefined) out.set(action, action.partIndex === undefined ? { block } : { block, part: action.partIndex })
        break
      }
      case "MergedConsecutive":
        orders.set(action.into, null)
        break
      case "RemovedMessageField": {
        // a field of a block (one whose name starts with $), removed first, as lone surrogates are
        const block = action.blockIndex === undefined ? undefined : inPlace(action.index, action.blockIndex)
        if (block !== undefined) out.set(action, { block })
        break
      }
      case "RemovedEmptyMessage":
      case "MovedSystemMessage":
      case "MovedUserMessage":
      case "InsertedUserMessage":
        break
      default:
        absurd(action)
    }
  }
  return out
}

/** Why a history cannot be repaired, with the issue named as check names it. */
const cannotRepairText = (error: Repair.CannotRepair, naming: Naming | undefined): string => {
  const at = error.message.indexOf(error.issue.message)
  if (at < 0) return inFileTerms(error.message, naming?.locate)
  const after = at + error.issue.message.length
  return `${inFileTerms(error.message.slice(0, at), naming?.locate)}${issueText(error.issue, naming, pinnedBlocks([error.issue], naming?.messages ?? [], false))}${inFileTerms(error.message.slice(after), naming?.locate)}`
}

/**
 * A line (an issue, a repair, what a trim dropped) with every `messages[i]`
 * and `messages[i..j]` of the model named as the file names it.
 */
const inFileTerms = (message: string, locate: ((i: number) => Located) | undefined): string =>
  locate === undefined ? message : message.replace(/messages\[(\d+)(?:\.\.(\d+))?\]/g, (_, a: string, b: string | undefined) => {
    const first = locate(Number(a))
    // a message read from a run of items (a Responses reply with its calls) is named by the items it spans
    return spanOf(first, b === undefined ? first : locate(Number(b)))
  })

// ---------------------------------------------------------------------------
// check
// ---------------------------------------------------------------------------

const maxTokensText = "the max_tokens of an Anthropic output when the input has no output limit (the Messages API requires one)"
const maxTokensFlag = Flag.Int("max-tokens").pipe(Flag.optional, Flag.withDescription(maxTokensText))
/** trim's: the limit it writes is the answer's room, which the window keeps free. */
const trimMaxTokensFlag = Flag.Int("max-tokens").pipe(Flag.optional, Flag.withDescription(`${maxTokensText}; kept free as the answer's room`))

/** `--max-tokens` must be a usable output limit: a bad one is a bad command line (exit 2). */
const checkMaxTokens = (maxTokens: Option.Option<number>): Effect.Effect<number | undefined, InputError> =>
  Option.isSome(maxTokens) && maxTokens.value < 1
    ? Effect.fail(new InputError({ reason: `--max-tokens must be at least 1, got ${maxTokens.value}` }))
    : Effect.succeed(Option.getOrUndefined(maxTokens))

const modelFlag = Flag.String("model").pipe(
  Flag.optional,
  Flag.withDescription("the model the request is for, over one the file names (e.g. Gemini 3 requires thought signatures)")
)

/** The generic rules' options a body implies: a continued Responses request opens with the stored response's results. */
const genericOptions = (request: Request.Request): { readonly continues?: boolean } =>
  Conversation.profileOptionsOf(request).continues === true ? { continues: true } : {}

/**
 * The provider profile's options: what the request body says (its model, Anthropic `thinking`, Responses `store`
 * and `previous_response_id`), the model from --model first.
 */
const profileOptions = (model: Option.Option<string>, request: Request.Request, format: Formats.FormatName): Conversation.ProfileOptions => {
  const implied = Conversation.profileOptionsOf(request, format === "anthropic" ? { readFrom: "anthropic" } : undefined)
  const name = Option.getOrUndefined(model)
  return name === undefined ? implied : { ...implied, model: name }
}

const check = Command.make("check", { file: fileArg, format: formatFlag, provider: providerFlag, model: modelFlag, json: jsonFlag }, (config) =>
  guarded(
    Effect.gen(function*() {
      const input = yield* load(config.file, config.format, { itemBlocks: true })
      yield* progress(input.bytes, "validating")
      const messages = input.request.messages
      const provider = Option.getOrUndefined(config.provider)
      const issues: ReadonlyArray<ValidationError.Issue> = provider === undefined
        ? Conversation.issuesOf(messages, genericOptions(input.request))
        : Conversation.issuesFor(provider, messages, profileOptions(config.model, input.request, input.format))
      const naming = namingOf(input)
      // the block of each issue about a call or a result that names only its message, told apart by their order
      const pins = naming === undefined ? new Map<ValidationError.Issue, number>() : pinnedBlocks(issues, messages, true)
      if (config.json) {
        // in pieces: the issues of a few million messages are longer than one string can be
        yield* stdoutChunks(Formats.jsonChunks({ valid: issues.length === 0, issues: issues.map((issue) => issueJson(issue, naming, pins)) }))
      } else if (issues.length === 0) {
        yield* stdout(`valid: ${fileCount(input)}${provider === undefined ? "" : `, ${provider} rules included`}\n`)
      } else {
        yield* stdoutChunks(linesOf([
          ...issues.map((issue) => `${issue._tag}: ${issueText(issue, naming, pins)}`),
          `${issues.length} issue${issues.length === 1 ? "" : "s"} in ${fileCount(input)}`
        ]))
      }
      yield* exitWith(issues.length === 0 ? 0 : 1)
    })
  )).pipe(
    Command.withDescription("Validate a conversation: the rules every provider enforces, and a provider's own with --provider."),
    Command.withExamples([
      { command: "agent-messages check session.json", description: "the generic rules" },
      { command: "agent-messages check request.json --provider anthropic --json", description: "Anthropic's rules too, as JSON" }
    ])
  )

// ---------------------------------------------------------------------------
// tokens
// ---------------------------------------------------------------------------

const estimators = ["heuristic", "gemini", "o200k", "cl100k", "simple"] as const

/** The provider a request is counted for: the one named, else the input's format (OpenAI Chat for canonical input). */
const billedAs = (named: Provider | undefined, input: Formats.Read): Provider =>
  named ?? (input.format === "canonical" ? "openai-chat" : input.format)

const estimatorLayer = (name: (typeof estimators)[number], provider: Provider): Effect.Effect<TokenEstimator.Service, InputError> => {
  switch (name) {
    case "heuristic":
      // fitted for the provider's tokenizer: Gemini's for Gemini, o200k's for the others
      return provider === "gemini" ? estimatorLayer("gemini", provider) : Effect.succeed(TokenEstimator.heuristic)
    case "gemini":
      return GeminiEstimator.make().pipe(Effect.mapError((e) => new InputError({ reason: e.message })))
    case "simple":
      return TokenEstimator.makeCjkWeighted().pipe(Effect.mapError((e) => new InputError({ reason: e.message })))
    case "o200k":
    case "cl100k":
      return Effect.promise(() => import("../exact/index.js")).pipe(
        Effect.flatMap((exact) => exact.makeExact({ encoding: name })),
        Effect.mapError((e) => new InputError({ reason: e.message }))
      )
    default:
      return name satisfies never
  }
}

/**
 * `total` shared out in proportion to `weights`, in whole numbers that add up to it: each its whole part, then one
 * more to the largest remainders, the earlier first among equals. `undefined` when the weights add up to 0.
 */
const apportion = (total: number, weights: ReadonlyArray<number>): Array<number> | undefined => {
  let sum = 0
  for (const w of weights) sum += w
  if (!(sum > 0)) return undefined
  const shares = weights.map((w) => Math.floor((total * w) / sum))
  let left = total
  for (const n of shares) left -= n
  // remainders in whole numbers (total * w - share * sum), exact where a fraction would not be
  const remainders = weights.map((w, j) => total * w - shares[j]! * sum)
  const order = weights.map((_, j) => j).sort((a, b) => remainders[b]! - remainders[a]! || a - b)
  for (let k = 0; left > 0 && k < order.length; k++, left--) shares[order[k]!]!++
  return shares
}

/** An assistant or tool message split into one message per item it was read from, `counts[j]` blocks each. */
const splitByItem = (message: Message.AssistantMessage | Message.ToolMessage, counts: ReadonlyArray<number>, into: Array<Message.Message>): void => {
  let at = 0
  for (const n of counts) {
    into.push(message.role === "tool" ? Message.tool(message.content.slice(at, at + n)) : Message.assistant(message.content.slice(at, at + n)))
    at += n
  }
}

/**
 * The figure of each item of a run of Responses items read as one message: the message's figure shared out among
 * its items in proportion to what each costs as a message of its own (the request estimated again, with each such
 * message split into its items'), in whole tokens that add up to the message's figure. So an item costs about what
 * it would cost alone: reasoning the provider no longer reads (before the newest user message) costs 0, and its
 * run's calls cost what they cost. Keyed by the model message's index; a message whose items all cost nothing alone
 * is left out.
 */
const itemFigures = (
  estimator: TokenEstimator.Service,
  request: Request.Request,
  options: TokenEstimator.RequestEstimateOptions,
  counted: ReadonlyArray<number>,
  itemBlocks: ReadonlyMap<number, ReadonlyArray<number>>
): ReadonlyMap<number, ReadonlyArray<number>> => {
  const out = new Map<number, ReadonlyArray<number>>()
  if (itemBlocks.size === 0) return out
  const split: Array<Message.Message> = []
  const starts = new Map<number, number>()
  request.messages.forEach((m, i) => {
    const counts = itemBlocks.get(i)
    // a run of items is read as an assistant or a tool message
    if (counts === undefined || (m.role !== "assistant" && m.role !== "tool")) split.push(m)
    else {
      starts.set(i, split.length)
      splitByItem(m, counts, split)
    }
  })
  const alone = estimator.estimateRequest(withMessages(request, split), options).messages
  for (const [i, start] of starts) {
    const shared = apportion(counted[i]!, alone.slice(start, start + itemBlocks.get(i)!.length))
    if (shared !== undefined) out.set(i, shared)
  }
  return out
}

/**
 * One figure per input message, in the file's order: the model messages read from one wire message summed, and the
 * figure of a message read from several items shared out among them (`items`, see `itemFigures`).
 */
const perInputMessage = (
  each: ReadonlyArray<number>,
  origins: ReadonlyArray<number> | undefined,
  list: string,
  listLength: number | undefined,
  items: ReadonlyMap<number, ReadonlyArray<number>>
): Array<{ readonly label: string; readonly tokens: number }> => {
  if (origins === undefined) return each.map((tokens, i) => ({ label: `messages[${i}]`, tokens }))
  // a Responses input given as text: the one message, beside the instructions
  if (listLength === undefined) return each.flatMap((tokens, i) => (origins[i] === -1 ? [] : [{ label: list, tokens }]))
  const out: Array<{ label: string; tokens: number }> = []
  each.forEach((tokens, i) => {
    const w = origins[i]!
    if (w === -1) return
    const shared = items.get(i)
    if (shared !== undefined) {
      shared.forEach((n, j) => {
        out[w + j] = { label: `${list}[${w + j}]`, tokens: n }
      })
      return
    }
    const slot = out[w]
    if (slot === undefined) out[w] = { label: `${list}[${w}]`, tokens }
    else slot.tokens += tokens
  })
  // items read as one message whose figure could not be shared out: it stays under the first, the others count 0
  // (to the end of the list: the last message may be such a run)
  for (let w = 0; w < Math.max(out.length, listLength ?? 0); w++) out[w] ??= { label: `${list}[${w}]`, tokens: 0 }
  return out
}

const tokens = Command.make("tokens", {
  file: fileArg,
  format: formatFlag,
  estimator: Flag.Literals("estimator", estimators).pipe(
    Flag.withDefault("heuristic" as const),
    Flag.withDescription(
      "heuristic (fast, default: fitted for Gemini's tokenizer when counting as Gemini, else for o200k), gemini (the Gemini-fitted heuristic), o200k or cl100k (exact, needs gpt-tokenizer), simple (the CJK-weighted rule)"
    )
  ),
  provider: Flag.Literals("provider", providers).pipe(
    Flag.optional,
    Flag.withDescription("count as this provider bills (default: the input's format; OpenAI Chat for canonical input)")
  ),
  model: modelFlag,
  json: jsonFlag
}, (config) =>
  guarded(
    Effect.gen(function*() {
      const input = yield* load(config.file, config.format, { itemBlocks: true })
      // the whole request as its provider bills it: messages with their framing, tools, tool choice, response format
      const provider = billedAs(Option.getOrUndefined(config.provider), input)
      const estimator = yield* estimatorLayer(config.estimator, provider)
      yield* progress(input.bytes, "counting")
      const options = { provider, model: Option.getOrUndefined(config.model) }
      const counted = estimator.estimateRequest(input.request, options)
      // one number per input message: model messages that came from one wire message are summed, a message read
      // from several items is shared out among them
      const items = itemFigures(estimator, input.request, options, counted.messages, input.itemBlocks)
      const perInput = perInputMessage(counted.messages, input.origins, listNameOf(input), input.listLength, items)
      // system text a body holds beside its messages (Anthropic's system, Gemini's systemInstruction)
      const outside = input.origins === undefined ? 0 : counted.messages.reduce((sum, n, i) => (input.origins![i] === -1 ? sum + n : sum), 0)
      if (config.json) {
        yield* stdout(
          `${
            JSON.stringify({
              total: counted.total,
              messages: perInput.map((p) => p.tokens),
              system: outside,
              tools: counted.tools,
              responseFormat: counted.responseFormat,
              framing: counted.framing
            })
          }\n`
        )
      } else {
        yield* stdoutChunks(linesOf([
          ...perInput.map((p) => `${p.label}: ${p.tokens}`),
          ...(outside > 0 ? [`system (outside the messages): ${outside}`] : []),
          ...(counted.tools > 0 ? [`tools: ${counted.tools}`] : []),
          ...(counted.responseFormat > 0 ? [`response format: ${counted.responseFormat}`] : []),
          ...(counted.framing > 0 ? [`framing: ${counted.framing}`] : []),
          `total: ${counted.total} tokens (${config.estimator}, ${provider})`
        ]))
      }
    })
  )).pipe(
    Command.withDescription("Estimate the input tokens of a whole request: each message with its framing, the tool definitions and the response format."),
    Command.withExamples([
      { command: "agent-messages tokens session.json", description: "the fast heuristic" },
      { command: "agent-messages tokens request.json --estimator o200k --json", description: "exact o200k counts, as JSON" }
    ])
  )

// ---------------------------------------------------------------------------
// trim
// ---------------------------------------------------------------------------

/** Why a budget is too small, with what besides the messages the minimum counts and the flag that changes it. */
const budgetTooSmall = (e: MessageWindow.BudgetTooSmall, reserve: number | undefined, request: Request.Request): string => {
  const parts: Array<string> = []
  if (reserve !== undefined && reserve > 0) parts.push(`${reserve} tokens kept free for the answer (--reserve sets them)`)
  if (request.tools !== undefined && request.tools.length > 0) parts.push(`the ${request.tools.length} tool definition${request.tools.length === 1 ? "" : "s"}`)
  return parts.length === 0 ? e.message : `${e.message}; the minimum counts ${parts.join(" and ")}, with the framing`
}

/**
 * The file's entries that the model's messages `start` to `end - 1` were read from, named as the file names them:
 * whole entries as one span (`input[0..4]`, a run of items with every item of it) and, at either end, the blocks of an
 * entry that was read as several model messages and is only partly among them (`messages[2].content[0]`: the tool
 * results of an Anthropic user message whose text is kept); with how many entries are whole and how many are parts.
 * `undefined` for messages that are no entry of the list (system text beside it).
 */
const entriesOf = (
  start: number,
  end: number,
  input: Placed,
  naming: Naming
): { readonly names: ReadonlyArray<string>; readonly whole: number; readonly parts: number } | undefined => {
  const origins = input.origins!
  const messages = input.request.messages
  const names: Array<string> = []
  let whole = 0
  let parts = 0
  let first: Located | undefined
  let last: Located | undefined
  const closeWhole = () => {
    if (first === undefined || last === undefined) return
    names.push(spanOf(first, last))
    whole += last.through! - first.index! + 1
    first = last = undefined
  }
  let k = start
  while (k < end) {
    const at = naming.locate(k)
    if (at.index === null || at.through === null) return undefined
    // the model messages read from the same entry
    let m = k + 1
    while (m < end && origins[m] === origins[k]) m++
    const shared = (k > 0 && origins[k - 1] === origins[k]) || (m < messages.length && origins[m] === origins[k])
    if (!shared) {
      first ??= at
      last = naming.locate(m - 1)
    } else {
      closeWhole()
      parts++
      names.push(...partsNamed(k, m, at, messages, naming))
    }
    k = m
  }
  closeWhole()
  return { names, whole, parts }
}

/**
 * The blocks of the model messages `from` to `to - 1`, all read from the entry `at`, named where the entry has them:
 * one span for each run of places in a row (`messages[2].content[0..1]`; a Gemini content's responses stand
 * among its other parts: `contents[2].parts[0]` and `contents[2].parts[2]`), or `part of messages[2]` when their
 * places are not known.
 */
const partsNamed = (from: number, to: number, at: Located, messages: ReadonlyArray<Message.Message>, naming: Naming): Array<string> => {
  const places: Array<number> = []
  let inner: string | undefined
  for (let k = from; k < to; k++) {
    for (let b = 0; b < messages[k]!.content.length; b++) {
      const place = naming.place(k, b)
      if (place.inner === undefined || place.innerIndex === null) return [`part of ${at.label}`]
      inner ??= place.inner.replace(/\[\d+\]$/, "")
      places.push(place.innerIndex)
    }
  }
  // a message of no blocks: the place it would have
  if (places.length === 0) {
    const place = naming.place(from, 0)
    if (place.inner === undefined || place.innerIndex === null) return [`part of ${at.label}`]
    inner = place.inner.replace(/\[\d+\]$/, "")
    places.push(place.innerIndex)
  }
  places.sort((a, b) => a - b)
  const names: Array<string> = []
  for (let j = 0; j < places.length;) {
    let end = j
    while (end + 1 < places.length && places[end + 1] === places[end]! + 1) end++
    names.push(`${at.label}.${inner}[${places[j]}${end > j ? `..${places[end]}` : ""}]`)
    j = end + 1
  }
  return names
}

/** How many entries, whole or in part, `entriesOf` named: `4 messages`, `2 messages and part of 1`, `part of 1 message`. */
const entriesCount = (input: Placed, found: { readonly whole: number; readonly parts: number }): string => {
  const whole = `${count(found.whole)} ${entryNoun(input, found.whole)}`
  if (found.parts === 0) return whole
  return found.whole === 0 ? `part of ${count(found.parts)} ${entryNoun(input, found.parts)}` : `${whole} and part of ${count(found.parts)}`
}

/**
 * What a fit changed, as `MessageWindow.describe` says it, with the messages it dropped or summarized named and
 * counted as the file names its entries (a run of Responses items is several input items, an Anthropic body's
 * `system` is none; an entry only partly dropped is said to be), and every other message as `inFileTerms` names it.
 */
const fitLog = (fitted: MessageWindow.FittedRequest, input: Placed): Array<string> => {
  const lines = MessageWindow.describe(fitted)
  const naming = namingOf(input)
  if (naming === undefined) return lines
  // describe's order: the dropped runs, the cleared messages, the summary, then the notes and the totals
  const dropped = fitted.dropped.map((d) => entriesOf(d.start, d.end, input, naming))
  const out: Array<string> = []
  lines.forEach((line, j) => {
    const d = j < fitted.dropped.length ? dropped[j] : undefined
    if (d !== undefined) {
      out.push(`dropped ${d.names.join(" and ")} (${entriesCount(input, d)}, ${count(fitted.dropped[j]!.tokens)} tokens)`)
      return
    }
    const s = fitted.summary
    if (s !== undefined && j === fitted.dropped.length + fitted.cleared.length && dropped.every((x) => x !== undefined)) {
      const all = { names: dropped.flatMap((x) => x!.names), whole: 0, parts: 0 }
      for (const x of dropped) {
        all.whole += x!.whole
        all.parts += x!.parts
      }
      // the summary takes the place of what it replaces, before the messages kept after them
      out.push(
        `summarized ${all.names.join(" and ")} (${entriesCount(input, all)}) into ${s.message.role === "assistant" ? "an" : "a"} ${s.message.role} message in their place (${count(s.tokens)} tokens${s.shortened ? ", shortened to fit" : ""})`
      )
      return
    }
    out.push(inFileTerms(line, naming.locate))
  })
  return out
}

const trim = Command.make("trim", {
  file: fileArg,
  budget: Flag.Int("budget").pipe(Flag.withDescription("the token budget the conversation must fit")),
  strategy: Flag.Literals("strategy", MessageWindow.strategies).pipe(
    Flag.withDefault("drop_oldest" as const),
    Flag.withDescription("drop_oldest (default), drop_oldest_pair, clear_tool_results (then drop_oldest), summarize")
  ),
  provider: Flag.Literals("provider", providers).pipe(
    Flag.optional,
    Flag.withDescription(
      "count as this provider bills, and keep its rules (default: the output format's; for canonical output the input's, OpenAI Chat for canonical input)"
    )
  ),
  reserve: Flag.Int("reserve").pipe(Flag.optional, Flag.withDescription("tokens to keep free for the answer (default: the request's output limit, if any)")),
  format: formatFlag,
  to: toFlag,
  maxTokens: trimMaxTokensFlag
}, (config) =>
  guarded(
    Effect.gen(function*() {
      const maxTokens = yield* checkMaxTokens(config.maxTokens)
      const input = yield* load(config.file, config.format)
      const provider: Provider | undefined = Option.getOrUndefined(config.provider)
      const strategy = config.strategy === "clear_tool_results" ? (["clear_tool_results", "drop_oldest"] as const) : config.strategy
      // the whole request fits: tool definitions, tool choice, response format and the output reserve count too
      const target = Option.getOrElse(config.to, () => input.format)
      // the limit --max-tokens writes into an Anthropic body is the answer's room, as a request's own limit is
      const reserve = Option.isSome(config.reserve)
        ? config.reserve.value
        : target === "anthropic" && input.request.maxOutputTokens === undefined
        ? maxTokens
        : undefined
      // the budget is for the request sent: counted as the output's provider bills it (--to), unless --provider says
      const billedBy = billedAs(provider ?? (target === "canonical" ? undefined : target), input)
      // the heuristic fitted for the provider's tokenizer, as tokens counts by default
      const estimation = Layer.effect(TokenEstimator.TokenEstimator, estimatorLayer("heuristic", billedBy))
      const fitted = yield* MessageWindow.fitRequest(input.request, config.budget, {
        strategy,
        provider: billedBy,
        ...(reserve === undefined ? {} : { reserve })
      }).pipe(
        Effect.provide(MessageWindow.layer.pipe(Layer.provideMerge(estimation), Layer.provideMerge(Summarizer.layerExtractive()))),
        // a budget or reserve that is no number of tokens (-1) is a bad command line (exit 2), not a job that cannot be done
        Effect.mapError((e) =>
          e._tag === "InvalidFitOptions" ? e : new JobFailed({ reason: e._tag === "BudgetTooSmall" ? budgetTooSmall(e, reserve ?? input.request.maxOutputTokens, input.request) : e.message })
        )
      )
      yield* stderrLines(fitLog(fitted, input))
      // the budget is the messages' room, the fixed part and the reserve for the answer, each said
      const reserved = fitted.budget - fitted.available - fitted.fixedTokens
      if (fitted.fixedTokens > 0) yield* stderr(`tools, tool choice, response format and framing: ${fitted.fixedTokens} tokens`)
      if (reserved > 0) yield* stderr(`output reserve: ${reserved} tokens`)
      yield* emit(fitted.request, target, input.shape, input.chatReasoning, maxTokens)
    })
  )).pipe(
    Command.withDescription("Fit a conversation into a token budget; prints the trimmed conversation, and what changed on stderr."),
    Command.withExamples([
      { command: "agent-messages trim session.json --budget 8000", description: "drop the oldest steps until it fits" },
      { command: "agent-messages trim request.json --budget 100000 --strategy clear_tool_results --provider anthropic", description: "clear old tool results first" }
    ])
  )

// ---------------------------------------------------------------------------
// repair
// ---------------------------------------------------------------------------

const repair = Command.make("repair", { file: fileArg, provider: providerFlag, model: modelFlag, format: formatFlag, to: toFlag, json: jsonFlag, maxTokens: maxTokensFlag }, (config) =>
  guarded(
    Effect.gen(function*() {
      const maxTokens = yield* checkMaxTokens(config.maxTokens)
      const input = yield* load(config.file, config.format, { itemBlocks: true })
      const naming = namingOf(input)
      const provider = Option.getOrUndefined(config.provider)
      const repaired: Repair.RepairResult = provider === undefined
        ? Repair.repair(input.request.messages, genericOptions(input.request))
        : yield* Repair.repairFor(provider, profileOptions(config.model, input.request, input.format))(input.request.messages).pipe(
          // the message it cannot mend, named as the file names it (as check does)
          Effect.mapError((e) => new JobFailed({ reason: cannotRepairText(e, naming) }))
        )
      // what no repair can mend (a conversation with no messages left to send) fails as repairFor fails for a provider
      const left = provider === undefined ? Conversation.issuesOf(repaired.messages, genericOptions(input.request)) : []
      if (left.length > 0) return yield* new JobFailed({ reason: `no repair makes this history valid: ${left[0]!.message}` })
      const target = Option.getOrElse(config.to, () => input.format)
      const asRead = blocksAsRead(repaired.actions, input.request.messages)
      if (config.json) {
        const written = yield* Formats.writeValue(withMessages(input.request, repaired.messages), target, input.shape === "body" ? "body" : "messages", {
          ...(input.chatReasoning === undefined ? {} : { chatReasoning: input.chatReasoning }),
          ...(maxTokens === undefined ? {} : { maxTokens })
        })
        yield* warn(written.warnings)
        // indices as the file numbers its messages, the model's own beside them, as check --json gives them
        const actions = repaired.actions.map((a) =>
          naming === undefined
            ? { _tag: a._tag, index: a.index, description: a.description }
            : {
              _tag: a._tag,
              index: actionIndex(a, naming, asRead),
              modelIndex: a.index,
              ...actionBlock(a, naming, asRead.get(a)),
              description: actionText(a, naming, asRead)
            }
        )
        yield* stdoutChunks(Formats.jsonChunks({ repaired: written.value, actions }))
      } else {
        yield* stderrLines(repaired.actions.map((action) => actionText(action, naming, asRead)))
        yield* stderr(`${repaired.actions.length} change${repaired.actions.length === 1 ? "" : "s"}`)
        yield* emit(withMessages(input.request, repaired.messages), target, input.shape, input.chatReasoning, maxTokens)
      }
    })
  )).pipe(
    Command.withDescription("Repair a broken history (interrupted tool calls, orphans, same-role runs, a provider's own rules with --provider); prints it, and the log on stderr."),
    Command.withExamples([
      { command: "agent-messages repair crashed-session.jsonl", description: "the generic repair" },
      { command: "agent-messages repair request.json --provider anthropic --json", description: "Anthropic's rules too; the log in the JSON" }
    ])
  )

// ---------------------------------------------------------------------------
// convert
// ---------------------------------------------------------------------------

const convert = Command.make("convert", {
  file: fileArg,
  to: Flag.Literals("to", formats).pipe(Flag.withDescription("the output format")),
  from: Flag.Literals("from", inputFormats).pipe(Flag.withDefault("auto" as const), Flag.withDescription("the input format (default: detected)")),
  maxTokens: maxTokensFlag
}, (config) =>
  guarded(
    Effect.gen(function*() {
      const maxTokens = yield* checkMaxTokens(config.maxTokens)
      const input = yield* load(config.file, config.from, { itemBlocks: true })
      // custom tool calls and outputs kept as the Responses API's own items become calls and results another format
      // carries (the canonical form keeps them as they are)
      const request = config.to === "openai-responses" || config.to === "canonical" ? input.request : OpenAiResponses.customToolsAsCalls(input.request)
      // (a custom tool's definition alone changes no message: the warnings still name the file's)
      const renumbered = request.messages.length !== input.request.messages.length || request.messages.some((m, i) => m !== input.request.messages[i])
      if (renumbered) {
        yield* stderr(
          `agent-messages: the Responses API's custom tool calls and outputs were read as tool calls and results, which ${config.to} carries; the warnings below number the messages after that reading`
        )
      }
      yield* emit(request, config.to, input.shape, input.chatReasoning, maxTokens, renumbered ? undefined : warningWhere(input))
    })
  )).pipe(
    Command.withDescription("Convert a conversation between formats; what the target cannot carry is listed on stderr."),
    Command.withExamples([
      { command: "agent-messages convert chat-request.json --to anthropic --max-tokens 1024", description: "an OpenAI Chat request as an Anthropic one" },
      { command: "agent-messages convert session.jsonl --to gemini", description: "a canonical JSONL log as Gemini contents" }
    ])
  )

/**
 * The root command with its subcommands.
 *
 * @since 0.1.0
 */
export const command = Command.make("agent-messages").pipe(
  Command.withDescription("Lint, count, trim, repair and convert LLM agent transcripts."),
  Command.withSubcommands([check, tokens, trim, repair, convert])
)

/**
 * Where an invocation the command line cannot parse (an unknown flag, a
 * missing value, a misspelt format) is reported: its errors and where to
 * find the usage on stderr, nothing on stdout (which a user may be piping
 * into a file), then exit code 2, as for input that cannot be read; exit
 * code 1 stays what `check` means by "issues found". Help asked for with
 * `--help` and `--version` print on stdout as usual.
 */
export const usageErrors: Layer.Layer<never, never, Stdio.Stdio> = Layer.effect(
  CliOutput.Presenter,
  Effect.map(Stdio.Stdio, (io) => ({
    present: (event: CliOutput.Presenter.Event) => presentTo(event).pipe(Effect.provideService(Stdio.Stdio, io))
  }))
)

const presentTo = (event: CliOutput.Presenter.Event): Effect.Effect<void, never, Stdio.Stdio> =>
    event._tag === "InvalidInvocation"
      ? Effect.gen(function*() {
        const formatter = yield* CliOutput.Formatter
        yield* stderr(formatter.formatErrors(event.errors).trimEnd())
        yield* stderr(`agent-messages: see \`${event.commandPath.join(" ")} --help\` for the usage`)
      })
      : event._tag === "Help" && event.reason === "Implicit"
      ? Effect.gen(function*() {
        // a command without its subcommand: the usage, on stderr
        const formatter = yield* CliOutput.Formatter
        yield* stderr(formatter.formatHelpDoc(event.helpDoc).trimEnd())
      })
      : CliOutput.defaultPresenter.present(event)

/**
 * `--wizard` where it cannot ask its questions: its prompts need a terminal to
 * read the answers from and to show them on. Without one (input piped or
 * redirected) it would print its prompts and end at once, having done
 * nothing, with exit code 0; here that is a usage error: one line on stderr,
 * nothing on stdout, and exit code 2. `missing` says which of standard input
 * and output is not a terminal.
 */
const wizardWithoutTerminal = (missing: string, io: Stdio.Stdio, code: Ref.Ref<number>): GlobalFlag.Action<boolean> =>
  GlobalFlag.Action({
    flag: GlobalFlag.Wizard.flag,
    run: () =>
      stderr(`agent-messages: --wizard asks its questions on a terminal, and ${missing}: give the command and its flags on the command line (see \`agent-messages --help\`)`).pipe(
        Effect.andThen(exitWith(2)),
        Effect.provideService(Stdio.Stdio, io),
        Effect.provideService(ExitCode, code)
      )
  })

/** The built-in global flags, with `--wizard` a usage error when standard input or output is not a terminal. */
const builtIns = (code: Ref.Ref<number>): Effect.Effect<ReadonlyArray<GlobalFlag.BuiltIn>, never, Stdio.Stdio> => Effect.gen(function*() {
  const io = yield* Stdio.Stdio
  const input = yield* io.stdinIsTerminal
  const output = yield* io.stdoutIsTerminal
  if (input && output) return GlobalFlag.BuiltIns
  const missing = !input && !output ? "neither standard input nor standard output is one" : !input ? "standard input is not one" : "standard output is not one"
  return GlobalFlag.BuiltIns.map((flag) => (flag === GlobalFlag.Wizard ? wizardWithoutTerminal(missing, io, code) : flag))
})

/**
 * Runs the command line on the arguments of the `Stdio` service, reading and
 * writing through it, and succeeds with the exit code to end with: 0, 1 when
 * `check` finds issues or a job cannot be done, 2 for input that cannot be
 * read and for a usage error (after `usageErrors` has reported it).
 *
 * @since 0.1.0
 */
export const run = (version: string) =>
  Effect.gen(function*() {
    const code = yield* Ref.make(0)
    const flags = yield* builtIns(code)
    yield* Command.run(command, { version }).pipe(
      Effect.catchTag("ShowHelp", () => exitWith(2)),
      Effect.provide(usageErrors),
      Effect.provideService(CliConfig.CliConfig, CliConfig.make({ builtIns: flags })),
      Effect.provideService(ExitCode, code)
    )
    return yield* Ref.get(code)
  })

/** The messages of a read transcript (for tests). */
export type Messages = ReadonlyArray<Message.Message>
