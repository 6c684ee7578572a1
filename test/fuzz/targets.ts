/**
 * What the fuzz suite attacks, grouped by the kind of input each function
 * reads (a domain): one message as JSON, a conversation as JSON, JSONL text,
 * conversations in the model (for validate, repair, estimate, fit, every
 * encoder and every round trip), each provider's messages, request bodies,
 * responses, stream events and SSE text, tool-argument text, effect/ai
 * prompts and response parts, and the command line's input formats.
 *
 * Each domain generates its inputs per class (`generators.ts`) and lists its
 * targets (`harness.ts`); round-trip targets check that tool arguments and
 * metadata come back byte-identical (the iterative `stringify` of
 * `src/internal/json.ts`).
 */
import { Effect, Layer, Result, Schema } from "effect"
import type { Response } from "effect/ai"
import { Block, Conversation, GeminiEstimator, Message, MessageWindow, Provider, Repair, Request, Summarizer, TokenEstimator } from "../../src/index.js"
import { copyJson, listOf, stringify } from "../../src/internal/json.js"
import {
  Anthropic,
  AnthropicStream,
  EffectAi,
  Gemini,
  GeminiStream,
  OpenAiChat,
  OpenAiChatStream,
  OpenAiResponses,
  OpenAiResponsesStream,
  Sse,
  type StreamAccumulator,
  ToolArguments
} from "../../src/providers/index.js"
import type { ConversionWarning } from "../../src/providers/Conversion.js"
import * as Formats from "../../src/cli/Formats.js"
import * as Input from "../../src/cli/Input.js"
import {
  agentEdge,
  bigModel,
  type CaseClass,
  caseClasses,
  corpus,
  deepText,
  EDGE_ARGUMENT_TEXTS,
  eventsOf,
  hostileArray,
  hugeString,
  longSse,
  manyMessagesJson,
  mutate,
  mutateText,
  pathsOf,
  promptsOf,
  randomBytes,
  randomJson,
  randomSseText,
  type Rng,
  type Sizes,
  splitRandomly,
  sseTextOf,
  textOf,
  updateAt
} from "./generators.js"
import { skip, type Target } from "./harness.js"
import { pdfCase, pdfClasses, pdfTargets } from "./pdfDomain.js"
import { countOpenAiChatRequest } from "../../src/exact/openAiChatRequest.js"
import { loadTextCounter } from "../../src/exact/tokenizer.js"

// loaded once here, so that the exact counter's Effect runs synchronously in the harness like every other target
await Effect.runPromise(loadTextCounter("o200k"))

/** A kind of input, the classes it is attacked with, and the functions that read it. */
export interface Domain<I = unknown> {
  readonly name: string
  readonly classes: ReadonlyArray<CaseClass>
  readonly generate: (cls: CaseClass, r: Rng, sizes: Sizes) => I
  readonly targets: ReadonlyArray<Target<I>>
}

const domain = <I>(d: Domain<I>): Domain => d as unknown as Domain

const all = caseClasses
const jsonClasses: ReadonlyArray<CaseClass> = all.filter((c) => c !== "stream-cuts" && c !== "random-bytes")

// ---------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------

const sync = <A, E>(effect: Effect.Effect<A, E>): A | undefined => {
  const exit = Effect.runSyncExit(effect)
  return exit._tag === "Success" ? exit.value : undefined
}

const isLoss = (w: ConversionWarning): boolean => w._tag === "DroppedContent" || w._tag === "ConvertedContent"

const text = (u: unknown): string => (u === undefined ? "(absent)" : stringify(u as Schema.Json))

const callsOf = (messages: ReadonlyArray<Message.Message>): Array<Block.ToolCallBlock> => {
  const out: Array<Block.ToolCallBlock> = []
  for (const m of messages) for (const b of m.content) if (b._tag === "ToolCall") out.push(b)
  return out
}

/** The first text of `before` missing from `after`, compared as multisets. */
const sameTexts = (what: string, before: ReadonlyArray<string>, after: ReadonlyArray<string>): string | undefined => {
  const left = new Map<string, number>()
  for (const t of after) left.set(t, (left.get(t) ?? 0) + 1)
  for (const t of before) {
    const n = left.get(t) ?? 0
    if (n === 0) return `${what}: ${JSON.stringify(t.slice(0, 120))} did not come back (${before.length} before, ${after.length} after)`
    left.set(t, n - 1)
  }
  return undefined
}

/** Tool arguments and metadata of two conversations that must be the same, message by message. */
const sameArgsAndMetadata = (before: ReadonlyArray<Message.Message>, after: ReadonlyArray<Message.Message>): string | undefined => {
  if (before.length !== after.length) return `${before.length} messages became ${after.length}`
  for (let i = 0; i < before.length; i++) {
    const a = before[i]!
    const b = after[i]!
    if (text(a.metadata) !== text(b.metadata)) return `messages[${i}].metadata is not byte-identical`
    const ca = a.role === "assistant" ? callsOf([a]) : []
    const cb = b.role === "assistant" ? callsOf([b]) : []
    if (ca.length !== cb.length) return `messages[${i}]: ${ca.length} tool calls became ${cb.length}`
    for (let k = 0; k < ca.length; k++) {
      if (text(ca[k]!.args) !== text(cb[k]!.args)) return `messages[${i}] call ${k}: args are not byte-identical`
      if (ca[k]!.rawArgs !== cb[k]!.rawArgs) return `messages[${i}] call ${k}: rawArgs are not byte-identical`
    }
  }
  return undefined
}

/** The tool-argument texts of a wire payload, whatever the format: `arguments` strings, `tool_use` inputs, `functionCall.args`. */
export const wireArguments = (payload: unknown): Array<string> => {
  const out: Array<string> = []
  const stack: Array<unknown> = [payload]
  while (stack.length > 0) {
    const v = stack.pop()
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x)
      continue
    }
    if (typeof v !== "object" || v === null) continue
    const o = v as Record<string, unknown>
    if (typeof o["arguments"] === "string" && typeof o["name"] === "string") out.push(o["arguments"])
    if (typeof o["type"] === "string" && o["type"].endsWith("tool_use") && o["input"] !== undefined) out.push(text(o["input"]))
    const fc = o["functionCall"]
    if (typeof fc === "object" && fc !== null && (fc as Record<string, unknown>)["args"] !== undefined) out.push(text((fc as Record<string, unknown>)["args"]))
    for (const k of Object.keys(o)) {
      if (k === "functionCall") continue
      stack.push(o[k])
    }
  }
  return out
}

// ---------------------------------------------------------------------------
// services
// ---------------------------------------------------------------------------

const heuristic = TokenEstimator.heuristic
const seed = Effect.runSync(TokenEstimator.makeCjkWeighted())
const gemini = Effect.runSync(GeminiEstimator.make())
const window = Effect.runSync(
  MessageWindow.make.pipe(Effect.provide(Layer.merge(TokenEstimator.layer, Summarizer.layerExtractive())))
)

// ---------------------------------------------------------------------------
// the adapters, behind one shape
// ---------------------------------------------------------------------------

type Converted = Effect.Effect<{ readonly value: unknown; readonly warnings: ReadonlyArray<ConversionWarning> }, unknown>

interface AdapterShape {
  readonly key: Provider.Provider
  readonly fromMessages: (u: unknown) => Converted
  readonly toMessages: (m: ReadonlyArray<Message.Message>) => Converted
  readonly fromRequest: (u: unknown) => Converted
  readonly toRequest: (r: Request.Request) => Converted
  readonly fromResponse: (u: unknown) => Converted
  readonly fromEvents: (events: Iterable<unknown>) => Converted
  readonly fromSse: (input: string | Iterable<string | Uint8Array>) => Converted
  readonly stream: {
    readonly make: () => StreamAccumulator.StreamAccumulator<never, unknown>
    readonly fromEvents: (events: Iterable<never>) => Effect.Effect<unknown, unknown>
    readonly fromSse: (input: string | Iterable<string | Uint8Array>) => Effect.Effect<unknown, unknown>
  }
}

const adapters: ReadonlyArray<AdapterShape> = [
  {
    key: "openai-chat",
    fromMessages: (u) => OpenAiChat.fromMessages(u as never),
    toMessages: (m) => OpenAiChat.toMessages(m),
    fromRequest: (u) => OpenAiChat.fromRequest(u as never),
    toRequest: (r) => OpenAiChat.toRequest(r),
    fromResponse: (u) => OpenAiChat.fromResponse(u as never),
    fromEvents: (e) => OpenAiChat.fromEvents(e as never),
    fromSse: (i) => OpenAiChat.fromSse(i),
    stream: OpenAiChatStream as unknown as AdapterShape["stream"]
  },
  {
    key: "anthropic",
    fromMessages: (u) => Anthropic.fromMessages(u),
    toMessages: (m) => Anthropic.toMessages(m),
    fromRequest: (u) => Anthropic.fromRequest(u),
    toRequest: (r) => Anthropic.toRequest(r, { maxTokens: 1024 }),
    fromResponse: (u) => Anthropic.fromResponse(u as never),
    fromEvents: (e) => Anthropic.fromEvents(e as never),
    fromSse: (i) => Anthropic.fromSse(i),
    stream: AnthropicStream as unknown as AdapterShape["stream"]
  },
  {
    key: "openai-responses",
    fromMessages: (u) => OpenAiResponses.fromMessages(u as never),
    toMessages: (m) => OpenAiResponses.toMessages(m),
    fromRequest: (u) => OpenAiResponses.fromRequest(u as never),
    toRequest: (r) => OpenAiResponses.toRequest(r),
    fromResponse: (u) => OpenAiResponses.fromResponse(u as never),
    fromEvents: (e) => OpenAiResponses.fromEvents(e as never),
    fromSse: (i) => OpenAiResponses.fromSse(i),
    stream: OpenAiResponsesStream as unknown as AdapterShape["stream"]
  },
  {
    key: "gemini",
    fromMessages: (u) => Gemini.fromMessages(u),
    toMessages: (m) => Gemini.toMessages(m),
    fromRequest: (u) => Gemini.fromRequest(u),
    toRequest: (r) => Gemini.toRequest(r),
    fromResponse: (u) => Gemini.fromResponse(u as never),
    fromEvents: (e) => Gemini.fromEvents(e as never),
    fromSse: (i) => Gemini.fromSse(i),
    stream: GeminiStream as unknown as AdapterShape["stream"]
  }
]

/** The model written in a format and read back: tool arguments (and metadata, where the format keeps it) come back byte-identical unless a loss was reported. */
const modelRoundTrip = (a: AdapterShape): Target<ReadonlyArray<Message.Message>> => ({
  name: `${a.key}: model -> wire -> model`,
  passes: 2,
  run: (messages) =>
    Effect.flatMap(a.toMessages(messages), (written) =>
      Effect.map(a.fromMessages(written.value), (read) => ({ messages, written, read }))),
  check: (value) => {
    const { messages, read, written } = value as {
      readonly messages: ReadonlyArray<Message.Message>
      readonly written: { readonly warnings: ReadonlyArray<ConversionWarning> }
      readonly read: { readonly value: ReadonlyArray<Message.Message>; readonly warnings: ReadonlyArray<ConversionWarning> }
    }
    if (written.warnings.some(isLoss) || read.warnings.some(isLoss)) return undefined
    // the calls whose arguments were valid JSON must come back with the same text (read back as text that did not parse, if need be)
    const before = callsOf(messages).filter((c) => c.parseError === undefined)
    const after = callsOf(read.value)
    const textFormat = a.key === "openai-chat" || a.key === "openai-responses"
    return sameTexts("tool arguments", before.map((c) => (textFormat ? Block.argsText(c) : text(c.args))), after.map((c) => (textFormat ? Block.argsText(c) : text(c.args))))
  }
})

/** A wire payload read and written back by the same format: its tool-argument texts come back byte-identical unless a loss was reported. */
/**
 * Whether two JSON values are the same, keys in the same order: what comparing their text says, without
 * the text (a million messages written out is gigabytes of string pieces).
 */
const sameJson = (a: Schema.Json, b: Schema.Json): boolean => {
  const stack: Array<readonly [Schema.Json, Schema.Json]> = [[a, b]]
  while (stack.length > 0) {
    const [x, y] = stack.pop()!
    if (typeof x !== "object" || x === null || typeof y !== "object" || y === null) {
      if (x !== y) return false
      continue
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false
    const kx = Object.keys(x)
    const ky = Object.keys(y)
    if (kx.length !== ky.length) return false
    for (let i = 0; i < kx.length; i++) {
      if (kx[i] !== ky[i]) return false
      stack.push([(x as Record<string, Schema.Json>)[kx[i]!]!, (y as Record<string, Schema.Json>)[ky[i]!]!])
    }
  }
  return true
}

/**
 * The input as the target read it, when reading it twice gives the same value: a getter may answer
 * differently each time it is read, and the target read it once, before the check did; `undefined`
 * when the two reads differ or the input is not JSON.
 */
const readTwice = (input: unknown, skipUndefined: boolean): Schema.Json | undefined => {
  const first = copyJson(input, { freeze: false, skipUndefined })
  const second = copyJson(input, { freeze: false, skipUndefined })
  return "value" in first && "value" in second && sameJson(first.value, second.value) ? first.value : undefined
}

const wireRoundTrip = <I>(name: string, read: (u: I) => Converted, write: (value: unknown) => Converted, payloadOf: (u: I) => unknown = (u) => u): Target<I> => ({
  name,
  passes: 2,
  run: (input) =>
    Effect.flatMap(read(input), (r) => Effect.map(write(r.value), (w) => ({ r, w }))),
  check: (value, input) => {
    const { r, w } = value as {
      readonly r: { readonly warnings: ReadonlyArray<ConversionWarning> }
      readonly w: { readonly value: unknown; readonly warnings: ReadonlyArray<ConversionWarning> }
    }
    if (r.warnings.some(isLoss) || w.warnings.some(isLoss)) return undefined
    const read = readTwice(payloadOf(input), true)
    if (read === undefined) return undefined
    // an empty argument text means "no arguments": a format that takes an object writes it as {}
    const before = wireArguments(read).filter((t) => t !== "" && t !== '""')
    return sameTexts("tool arguments", before, wireArguments(w.value))
  }
})

// ---------------------------------------------------------------------------
// core decoders
// ---------------------------------------------------------------------------

const decodeCodec = Schema.decodeUnknownEffect(Message.Codec)
const decodeConversationCodec = Schema.decodeUnknownEffect(Conversation.Codec)

/** The conversation of an input that is canonical JSON, to compare what decoding kept. */
const canonicalArgsAndMetadata = (input: unknown, decoded: Message.Message): string | undefined => {
  try {
    const read = readTwice(input, false)
    if (read === undefined) return undefined
    const raw = read as Record<string, unknown>
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined
    if (raw["metadata"] !== undefined && text(raw["metadata"]) !== text(decoded.metadata)) return "metadata is not byte-identical to the input's"
    const content = raw["content"]
    if (!Array.isArray(content) || raw["toolCalls"] !== undefined) return undefined
    for (let i = 0; i < content.length; i++) {
      const block = content[i] as Record<string, unknown> | undefined
      const out = decoded.content[i]
      if (block?.["_tag"] === "ToolCall" && out?._tag === "ToolCall" && text(block["args"] === undefined ? {} : block["args"]) !== text(out.args)) return `content[${i}].args is not byte-identical to the input's`
    }
    return undefined
  } catch {
    return undefined
  }
}

const messageDomain = domain<unknown>({
  name: "message JSON",
  classes: jsonClasses.filter((c) => c !== "many-messages"),
  generate: (cls, r, sizes) => {
    const base = r.pick(corpus().encoded) as ReadonlyArray<unknown>
    const one = base.length === 0 ? { role: "user", content: "x" } : r.pick(base)
    return mutate(cls, r, one, { sizes })
  },
  targets: [
    {
      name: "Message.decode",
      run: (input) => Message.decode(input),
      check: (value, input) => canonicalArgsAndMetadata(input, value as Message.Message)
    },
    { name: "Message.Codec", run: (input) => decodeCodec(input) },
    {
      name: "Message.decode -> encode -> decode",
      run: (input) =>
        Effect.flatMap(Message.decode(input), (m) =>
          Effect.map(Message.decode(JSON.parse(stringify(Message.encode(m) as Schema.Json))), (back) => [m, back] as const)),
      check: (value) => {
        const [m, back] = value as readonly [Message.Message, Message.Message]
        return sameArgsAndMetadata([m], [back])
      }
    }
  ]
})

const conversationDomain = domain<unknown>({
  name: "conversation JSON",
  classes: jsonClasses,
  generate: (cls, r, sizes) => {
    if (cls === "many-messages") return manyMessagesJson(r, sizes.manyMessages)
    return mutate(cls, r, r.pick(corpus().encoded), { sizes })
  },
  targets: [
    { name: "Message.decodeAll", run: (input) => Message.decodeAll(input) },
    { name: "Conversation.decode", run: (input) => Conversation.decode(input) },
    { name: "Conversation.decodeEach", run: (input) => Conversation.decodeEach(input) },
    {
      name: "Conversation.Codec",
      // Conversation.Codec is Schema.Array(Message.Codec): effect's parser reads the array itself, and dies on one that throws
      run: (input) => {
        const list = listOf(input)
        return "reason" in list && list.reason !== "Expected an array of messages"
          ? skip("an array that throws when read, which Schema.Array reads itself")
          : decodeConversationCodec(input)
      }
    }
  ]
})

const jsonlDomain = domain<string>({
  name: "JSONL text",
  classes: all.filter((c) => c !== "hostile-objects"),
  generate: (cls, r, sizes) => {
    const base = r.pick(corpus().encoded) as ReadonlyArray<unknown>
    switch (cls) {
      case "valid":
        return base.map(textOf).join("\n")
      case "stream-cuts":
        return mutateText(r, base.map(textOf).join(r.pick(["\n", "\r\n"])))
      case "random-bytes":
        return new TextDecoder().decode(randomBytes(r, 200 + r.int(2000)))
      case "many-messages":
        return manyMessagesJson(r, sizes.manyMessages).map(textOf).join("\n")
      case "deep":
        return `${base.map(textOf).join("\n")}\n${deepText(sizes.deepLevels, r.pick(["object", "array"] as const))}`
      case "numbers":
        return base.map(textOf).join("\n").replace(/(\d+)/, r.pick(["1e999", "-1e999", "NaN", "Infinity", "-0", "123456789012345678901234567890"]))
      case "agent-edges": {
        // the lines of a changed conversation, as editors and other tools save them: a BOM, CRLF, blank lines
        const broken = mutate(cls, r, base, { sizes })
        const lines = Array.isArray(broken) ? broken.map(textOf) : [textOf(broken)]
        const joined = lines.join(r.pick(["\n", "\r\n", "\n\n", "\n \t\n"]))
        return r.pick(["", "\uFEFF"]) + joined + r.pick(["", "\n", "\r\n", "\u0000"])
      }
      default: {
        const broken = mutate(cls, r, base, { sizes })
        return Array.isArray(broken) ? broken.map(textOf).join("\n") : textOf(broken)
      }
    }
  },
  targets: [
    {
      name: "Conversation.decodeJsonl",
      run: (text) => Conversation.decodeJsonl(text),
      check: (value) => {
        const messages = value as ReadonlyArray<Message.Message>
        const back = sync(Conversation.decodeJsonl(Conversation.encodeJsonl(messages)))
        return back === undefined ? "encodeJsonl wrote text decodeJsonl refuses" : sameArgsAndMetadata(messages, back)
      }
    },
    { name: "Conversation.decodeJsonlEach", run: (text) => Conversation.decodeJsonlEach(text) },
    cliTarget("cli: parse, detect, read, write", (text) => text)
  ]
})

// ---------------------------------------------------------------------------
// passes over decoded conversations
// ---------------------------------------------------------------------------

/** The command line's reading and writing: text parsed, its format detected, read, and written in every format and shape. */
function cliTarget<I>(name: string, textOf: (input: I) => string, passes = 0): Target<I> {
  return {
    name,
    // a parse, a read and ten writes (a body and a message list in each of five formats), beside what textOf does
    passes: 12 + passes,
    run: (input) => {
      // as the command line reads a file: the bytes of the text
      const parsed = Input.parseBytes(new TextEncoder().encode(textOf(input)), "input")
      if (!("kind" in parsed)) return Effect.fail(parsed)
      const detected = Formats.detect(parsed)
      if (!("format" in detected)) return Effect.fail(detected)
      // each write is counted and let go, as the command line writes once and exits: holding all ten
      // writes of a million messages at once is the harness's memory, not the command line's
      const size = (w: Formats.Written): number => {
        // the pieces are made as they are read: read them all, as the command line does, and let each go
        let n = 0
        for (const _ of w.chunks) n++
        return n
      }
      return Effect.flatMap(Formats.read(parsed, detected.format, detected.shape), (read) =>
        Effect.forEach(Formats.FormatName.literals, (f) =>
          Effect.all([
            Effect.map(Formats.write(read.request, f, f === "canonical" ? "jsonl" : "body"), size),
            Effect.map(Formats.write(read.request, f, "messages"), size)
          ])))
    }
  }
}

const fitOptions: ReadonlyArray<MessageWindow.FitOptions> = [
  {},
  { strategy: "drop_oldest_pair" },
  { strategy: ["clear_tool_results", "drop_oldest"], clearThinking: true, keepToolResults: 1 },
  { strategy: "summarize", summaryTokens: 50 },
  { strategy: "drop_oldest", provider: "anthropic", pinFirstUser: true },
  { strategy: "drop_oldest", provider: "gemini", reserve: 10, fixedTokens: 5 }
]

/** The budget of the `k`th fit option: a share of the conversation's estimate. */
const fitBudget = (total: number, k: number): number => Math.floor(total * [0.2, 0.5, 0.9, 1.5, 0.05, 0.7][k]!)

const modelTargets: Array<Target<ReadonlyArray<Message.Message>>> = [
  { name: "Conversation.validate", run: (m) => Conversation.validate(m) },
  { name: "Conversation.validateAll", run: (m) => Conversation.validateAll(m) },
  ...Provider.all.map((p): Target<ReadonlyArray<Message.Message>> => ({ name: `Conversation.validateFor(${p})`, run: (m) => Conversation.validateFor(p)(m) })),
  {
    name: "Repair.repair",
    run: (m) => Repair.repair(m),
    check: (value) => {
      const repaired = (value as Repair.RepairResult).messages
      const issue = sync(Effect.flip(Conversation.validate(repaired)))
      return issue === undefined || issue._tag === "EmptyConversation" ? undefined : `repair left ${issue._tag}: ${issue.message}`
    }
  },
  ...Provider.all.map((p): Target<ReadonlyArray<Message.Message>> => ({ name: `Repair.repairFor(${p})`, run: (m) => Repair.repairFor(p)(m) })),
  { name: "TokenEstimator (heuristic)", run: (m) => heuristic.estimateConversation(m) },
  { name: "TokenEstimator (CJK-weighted rule)", run: (m) => seed.estimateEach(m) },
  { name: "GeminiEstimator", run: (m) => gemini.estimateConversation(m) },
  { name: "GeminiEstimator.estimateRequest (Gemini 2.5)", run: (m) => gemini.estimateRequest(Request.make(m), { model: "gemini-2.5-flash" }) },
  {
    name: "MessageWindow.fit",
    run: (m) => {
      const total = heuristic.estimateConversation(m)
      return Effect.forEach(fitOptions, (o, k) => Effect.result(window.fit(m, fitBudget(total, k), o)))
    },
    // within the budget and counted honestly, or too small with a minimum that works
    check: (value, m) => {
      const results = value as ReadonlyArray<Result.Result<MessageWindow.Fitted, MessageWindow.FitError>>
      const total = heuristic.estimateConversation(m)
      for (let k = 0; k < results.length; k++) {
        const r = results[k]!
        const budget = fitBudget(total, k)
        const options = fitOptions[k]!
        if (Result.isSuccess(r)) {
          const { available, messages, tokensAfter } = r.success
          if (tokensAfter > available) return `fit ${k}: ${tokensAfter} tokens kept of ${available} available`
          const estimated = heuristic.estimateConversation(messages)
          if (tokensAfter !== estimated) return `fit ${k}: reports ${tokensAfter} tokens for messages estimated at ${estimated}`
          continue
        }
        const e = r.failure
        if (e._tag !== "BudgetTooSmall") continue
        if (e.minimumBudget <= budget) return `fit ${k}: a budget of ${budget} is too small, but the minimum named is ${e.minimumBudget}`
        const again = Effect.runSync(Effect.result(window.fit(m, e.minimumBudget, options)))
        if (Result.isFailure(again)) return `fit ${k}: the minimum ${e.minimumBudget} it named fails: ${again.failure.message}`
      }
      return undefined
    },
    passes: 2
  },
  {
    name: "Message.encode -> JSON -> decode",
    passes: 3,
    run: (m) => Effect.map(Conversation.decode(JSON.parse(stringify(Message.encodeAll(m) as Schema.Json))), (back) => [m, back] as const),
    check: (value) => {
      const [m, back] = value as readonly [ReadonlyArray<Message.Message>, ReadonlyArray<Message.Message>]
      return sameArgsAndMetadata(m, back)
    }
  },
  {
    name: "Conversation.encodeJsonl -> decodeJsonl",
    passes: 3,
    run: (m) => Effect.map(Conversation.decodeJsonl(Conversation.encodeJsonl(m)), (back) => [m, back] as const),
    check: (value) => {
      const [m, back] = value as readonly [ReadonlyArray<Message.Message>, ReadonlyArray<Message.Message>]
      return sameArgsAndMetadata(m, back)
    }
  },
  ...adapters.flatMap((a): Array<Target<ReadonlyArray<Message.Message>>> => [
    { name: `${a.key}.toMessages`, run: (m) => a.toMessages(m) },
    { name: `${a.key}.toRequest`, run: (m) => a.toRequest(Request.make(m, { model: "m" })) },
    modelRoundTrip(a)
  ]),
  { name: "EffectAi.toPrompt", run: (m) => EffectAi.toPrompt(m) },
  cliTarget("cli: write canonical JSONL, read it back, write every format", (m) => Conversation.encodeJsonl(m), 1),
  {
    name: "effect-ai: model -> Prompt -> model",
    passes: 2,
    run: (m) => Effect.flatMap(EffectAi.toPrompt(m), (p) => Effect.map(EffectAi.fromPrompt(p.value), (back) => [m, back.value] as const)),
    check: (value) => {
      const [m, back] = value as readonly [ReadonlyArray<Message.Message>, ReadonlyArray<Message.Message>]
      return sameArgsAndMetadata(m, back)
    }
  }
]

const modelDomain = domain<ReadonlyArray<Message.Message>>({
  name: "conversation (model)",
  classes: jsonClasses,
  generate: (cls, r, sizes) => {
    if (cls === "deep" || cls === "huge-strings" || cls === "many-messages") return bigModel(cls, r, sizes)
    if (cls === "valid") return r.pick(corpus().conversations)
    const raw = mutate(cls, r, r.pick(corpus().encoded), { sizes })
    const decoded = sync(Conversation.decodeEach(raw))
    return decoded === undefined ? [] : decoded.messages
  },
  targets: modelTargets
})

// ---------------------------------------------------------------------------
// provider payloads
// ---------------------------------------------------------------------------

/** A payload repeated until it holds about `size` messages (its longest top-level list repeated). */
const bigPayload = (payload: unknown, size: number): unknown => {
  const grow = (list: ReadonlyArray<unknown>): Array<unknown> => {
    const out: Array<unknown> = []
    if (list.length === 0) return out
    while (out.length < size) for (const x of list) out.push(x)
    return out
  }
  if (Array.isArray(payload)) return grow(payload)
  if (typeof payload === "object" && payload !== null) {
    const o = { ...(payload as Record<string, unknown>) }
    for (const k of ["messages", "contents", "input"]) if (Array.isArray(o[k])) o[k] = grow(o[k] as Array<unknown>)
    return o
  }
  return payload
}

/** The part of a response that holds its message, per format. */
const messagePart = (response: unknown): unknown => {
  if (typeof response !== "object" || response === null) return response
  const o = response as Record<string, unknown>
  return [o["choices"], o["content"], o["output"], o["candidates"]]
}

const wireDomains = (a: AdapterShape): Array<Domain> => {
  const wire = () => corpus().wire[a.key]
  const gen = (pool: () => ReadonlyArray<unknown>) => (cls: CaseClass, r: Rng, sizes: Sizes): unknown => {
    const base = r.pick(pool())
    if (cls === "many-messages") return bigPayload(base, sizes.manyMessages)
    return mutate(cls, r, base, { sizes })
  }
  const events = (cls: CaseClass, r: Rng, sizes: Sizes): Array<unknown> => {
    const list = eventsOf(r.pick(wire().streams))
    switch (cls) {
      case "valid":
        return list
      case "stream-cuts": {
        const cut = list.slice(0, r.int(list.length + 1))
        if (r.chance(0.3) && cut.length > 0) cut.push(cut[r.int(cut.length)]) // an event repeated
        if (r.chance(0.2)) cut.reverse()
        return cut
      }
      case "random-bytes":
      case "random-json":
        return Array.from({ length: r.int(8) }, () => (r.chance(0.5) ? randomJson(r) : mutate("random-json", r, r.pick(list), { sizes })))
      case "many-messages": {
        const middle = list.length > 2 ? list.slice(1, -1) : list
        if (middle.length === 0) return list
        const out = [list[0]]
        while (out.length < sizes.manyMessages / 10) for (const e of middle) out.push(e)
        out.push(list[list.length - 1])
        return out
      }
      default: {
        // the list itself may be hostile, as long as it is still an iterable
        if (cls === "hostile-objects" && r.chance(0.2)) return hostileArray(r, list)
        const at = r.int(list.length)
        const out = [...list]
        out[at] = mutate(cls, r, list[at], { sizes })
        return out
      }
    }
  }
  const sse = (cls: CaseClass, r: Rng, sizes: Sizes): ReadonlyArray<string | Uint8Array> => {
    const fixture = r.pick(wire().streams)
    const asBytes = r.chance(0.3)
    const pieces = (whole: string): Array<string | Uint8Array> =>
      asBytes ? splitRandomly(r, new TextEncoder().encode(whole)) : splitRandomly(r, whole)
    switch (cls) {
      case "valid":
        return pieces(sseTextOf(fixture))
      case "stream-cuts": {
        const whole = sseTextOf(fixture)
        return pieces(whole.slice(0, r.int(whole.length + 1)))
      }
      case "random-bytes":
        return r.chance(0.5) ? splitRandomly(r, randomBytes(r, 100 + r.int(3000))) : pieces(randomSseText(r))
      case "many-messages":
        return [longSse(fixture, Math.min(sizes.hugeChars, sizes.manyMessages * 100))]
      case "hostile-objects":
        return pieces(mutateText(r, sseTextOf(fixture)))
      default: {
        const frames = fixture.frames.map((f) => ({ ...f }))
        const at = r.int(frames.length)
        const frame = frames[at]!
        frames[at] = { ...frame, data: mutate(cls, r, frame.data, { sizes }) }
        // a stream may start with a BOM, which SSE readers skip
        let out = cls === "agent-edges" && r.chance(0.3) ? "\uFEFF" : ""
        for (const f of frames) {
          if (f.event !== undefined) out += `event: ${f.event}\n`
          out += `data: ${typeof f.data === "string" ? f.data : textOf(f.data)}\n\n`
        }
        return pieces(out)
      }
    }
  }
  const stream = a.stream
  return [
    domain<unknown>({
      name: `${a.key} messages`,
      classes: jsonClasses,
      generate: gen(() => wire().messages),
      targets: [
        { name: `${a.key}.fromMessages`, run: (u) => a.fromMessages(u) },
        cliTarget(`cli: ${a.key} messages as text`, textOf),
        wireRoundTrip(`${a.key}: fromMessages -> toMessages`, a.fromMessages, (v) => a.toMessages(v as ReadonlyArray<Message.Message>))
      ]
    }),
    domain<unknown>({
      name: `${a.key} request body`,
      classes: jsonClasses,
      generate: gen(() => wire().requests),
      targets: [
        { name: `${a.key}.fromRequest`, run: (u) => a.fromRequest(u) },
        ...(a.key === "openai-chat" ? [{ name: "countOpenAiChatRequest (o200k)", run: (u: unknown) => countOpenAiChatRequest(u as never, { encoding: "o200k" }) }] : []),
        cliTarget(`cli: ${a.key} request body as text`, textOf),
        wireRoundTrip(`${a.key}: fromRequest -> toRequest`, a.fromRequest, (v) => a.toRequest(v as Request.Request))
      ]
    }),
    domain<unknown>({
      name: `${a.key} response`,
      classes: jsonClasses,
      generate: gen(() => wire().responses),
      targets: [
        { name: `${a.key}.fromResponse`, run: (u) => a.fromResponse(u) },
        // the response's message is written back: its arguments are those of the output, not of fields beside it
        wireRoundTrip(`${a.key}: fromResponse -> toMessages`, a.fromResponse, (v) => a.toMessages([(v as { readonly message: Message.Message }).message]), messagePart)
      ]
    }),
    domain<ReadonlyArray<unknown>>({
      name: `${a.key} stream events`,
      classes: all,
      generate: events,
      targets: [
        { name: `${a.key}.fromEvents`, run: (e) => a.fromEvents(e) },
        { name: `${a.key} accumulator: fromEvents`, run: (e) => stream.fromEvents(e as Iterable<never>) },
        {
          name: `${a.key} accumulator: push, snapshot, done`,
          run: (e) => {
            const acc = stream.make()
            let list: Array<unknown>
            try {
              list = [...e] // the caller's own iterable: a hostile one fails here, before the accumulator sees it
            } catch {
              return "the test could not read its own input"
            }
            // a snapshot costs time linear in the response so far (as documented): read one every 7 events of
            // a short stream, and at 16 points of a long one, as a caller that shows progress would
            const every = Math.max(7, Math.ceil(list.length / 16))
            let k = 0
            for (const event of list) {
              acc.push(event as never)
              if (k++ % every === 0) acc.snapshot()
            }
            acc.snapshot()
            acc.events()
            return acc.done()
          }
        }
      ]
    }),
    domain<ReadonlyArray<string | Uint8Array>>({
      name: `${a.key} SSE`,
      classes: all,
      generate: sse,
      targets: [
        { name: `${a.key}.fromSse`, run: (p) => a.fromSse(p) },
        { name: `${a.key} accumulator: fromSse`, run: (p) => stream.fromSse(p) },
        {
          name: `${a.key} accumulator: feed, done`,
          run: (p) => {
            const acc = stream.make()
            for (const piece of p) acc.feed(piece)
            return acc.done()
          }
        },
        { name: "Sse.parse", run: (p) => Sse.parse(p) },
        { name: "Sse.parseJson", run: (p) => Sse.parseJson(p) }
      ]
    })
  ]
}

// ---------------------------------------------------------------------------
// tool arguments, effect/ai
// ---------------------------------------------------------------------------

const toolArgumentsDomain = domain<string>({
  name: "tool-argument text",
  classes: all.filter((c) => c !== "hostile-objects" && c !== "many-messages"),
  generate: (cls, r, sizes) => {
    const base = r.pick<unknown>([{ city: "Oslo", days: 3 }, { q: "é😀", nested: { a: [1, 2, { b: null }] } }, [1, 2], "text", {}])
    switch (cls) {
      case "valid":
        return textOf(base)
      case "stream-cuts":
      case "truncated": {
        const t = textOf(base)
        return t.slice(0, r.int(t.length + 1))
      }
      case "random-bytes":
        return new TextDecoder().decode(randomBytes(r, 1 + r.int(300)))
      case "deep":
        return deepText(sizes.deepLevels, r.pick(["object", "array"] as const)).slice(0, r.chance(0.5) ? undefined : -r.int(100) - 1)
      case "huge-strings":
        return `{"s": ${JSON.stringify(hugeString(r, sizes.hugeChars))}${r.chance(0.5) ? "}" : ""}`
      case "numbers":
        return r.pick(['{"n": 1e999}', '{"n": NaN}', '{"n": -0}', '{"n": 123456789012345678901234567890}', "1e999", '{"n": Infinity}'])
      case "agent-edges":
        return r.pick(EDGE_ARGUMENT_TEXTS)
      default:
        return r.chance(0.5) ? textOf(mutate(cls, r, base, { sizes })) : mutateText(r, textOf(base))
    }
  },
  targets: [
    { name: "ToolArguments.parse", run: (t) => ToolArguments.parse(t) },
    { name: "ToolArguments.parse (object)", run: (t) => ToolArguments.parse(t, { requireObject: true }) },
    {
      name: "ToolArguments.toolCall (lenient)",
      run: (t) => ToolArguments.toolCall({ id: "c1", name: "f" }, t),
      check: (value, input) => ((value as ToolArguments.ParsedCall).block.rawArgs ?? Block.argsText((value as ToolArguments.ParsedCall).block)) === input ? undefined : "the argument text was not kept"
    },
    { name: "ToolArguments.toolCall (strict)", run: (t) => ToolArguments.toolCall({ id: "c1", name: "f" }, t, { mode: "strict" }) }
  ]
})

/** Paths of a prompt whose values effect/ai leaves untyped (options, params, results, metadata). */
const untypedSlot = (path: ReadonlyArray<string | number>): boolean =>
  path.some((k) => k === "options" || k === "params" || k === "result" || k === "metadata" || k === "encodedResult")

/** Classes that keep a string a string: they may reach the typed text fields too. */
const stringClasses: ReadonlySet<CaseClass> = new Set(["surrogates", "huge-strings"])

/**
 * Mutates one slot of a structure whose typed shape must stay (a `Prompt`,
 * response parts): the values effect/ai leaves untyped, its text fields for
 * the classes that keep a string a string, and its ids and tool names for
 * `agent-edges`.
 */
const mutateSlot = (cls: CaseClass, r: Rng, value: unknown, sizes: Sizes): unknown => {
  if (cls === "valid") return value
  // ids and tool names that collide or are odd are still strings: the typed shape stays
  if (cls === "agent-edges" && r.chance(0.5)) return agentEdge(r, value, true)
  const paths = pathsOf(value).filter((p) => untypedSlot(p) || (stringClasses.has(cls) && p[p.length - 1] === "text"))
  if (paths.length === 0) return value
  const path = r.pick(paths)
  return updateAt(value, path, (node) => mutate(cls === "many-messages" ? "random-json" : cls, r, node, { sizes }))
}

const responseParts = (r: Rng): Array<unknown> => {
  const id = `c${r.int(100)}`
  const parts: Array<Record<string, unknown>> = [
    { type: "response-metadata", id: "resp_1", modelId: "claude-sonnet-4-5" },
    { type: "reasoning", text: "Need the weather.", metadata: { anthropic: { info: { type: "thinking", signature: "sig" } } } },
    { type: "text", text: "Looking.", metadata: {} },
    { type: "tool-call", id, name: "get_weather", params: { city: "Oslo" }, providerExecuted: false, metadata: {} },
    { type: "tool-result", id, name: "get_weather", isFailure: false, result: { temp: 12 }, encodedResult: { temp: 12 }, providerExecuted: false, preliminary: false, metadata: {} },
    { type: "finish", reason: "tool-calls", usage: { inputTokens: { total: 120, cacheRead: 100 }, outputTokens: { total: 30, reasoning: 12 } }, metadata: {} }
  ]
  return parts.map((p) => ({ ...p, "~effect/ai/Response/Part": "~effect/ai/Response/Part" }))
}

const effectAiDomains: ReadonlyArray<Domain> = [
  domain<unknown>({
    name: "effect/ai Prompt",
    classes: jsonClasses,
    generate: (cls, r, sizes) => {
      const prompts = promptsOf(cls === "many-messages" ? [bigModel("many-messages", r, sizes)] : [r.pick(corpus().conversations)])
      const prompt = prompts[0]
      if (prompt === undefined) return { content: [] }
      return cls === "many-messages" ? prompt : mutateSlot(cls, r, prompt, sizes)
    },
    targets: [{ name: "EffectAi.fromPrompt", run: (p) => EffectAi.fromPrompt(p as never) }]
  }),
  domain<unknown>({
    name: "effect/ai response parts",
    classes: jsonClasses.filter((c) => c !== "many-messages"),
    generate: (cls, r, sizes) => mutateSlot(cls, r, responseParts(r), sizes),
    targets: [{ name: "EffectAi.fromResponseParts", run: (p) => EffectAi.fromResponseParts(p as ReadonlyArray<Response.AnyPart>) }]
  })
]

/** PDF files given as base64: the page count, the text reader and the estimates that price a PDF (`pdfDomain.ts`). */
const pdfFileDomain = domain<string>({ name: "PDF file", classes: pdfClasses, generate: pdfCase, targets: pdfTargets })

/** Every domain the suite attacks. */
export const domains: ReadonlyArray<Domain> = [
  messageDomain,
  conversationDomain,
  jsonlDomain,
  modelDomain,
  ...adapters.flatMap(wireDomains),
  toolArgumentsDomain,
  ...effectAiDomains,
  pdfFileDomain
]
