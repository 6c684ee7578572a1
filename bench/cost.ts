/**
 * Adversarial cost: for every public pass (decode, validate, the provider
 * profiles, repair, estimate, fit, every adapter both ways, every stream
 * accumulator), the inputs that are worst for it (ids crafted to collide in a
 * fixed hash, one id reused by every call, long runs of one role, one huge
 * message, many tiny ones; for streams: many tiny deltas, one huge delta,
 * colliding and reused call ids, one call's arguments in many fragments,
 * another finish reason on every chunk, a Responses item done again and
 * again, terminal events again and again;
 * a long run of system messages, Anthropic results read from separate user
 * messages; huge inputs: 10 MB of text, a megabyte of tool arguments read
 * from the wire, valid and broken, and such arguments in one stream delta;
 * the command line's reader of transcript files; an id of 10 MB outside
 * Anthropic's alphabet) at sizes n, 4n and 16n. Then each pass of one
 * provider per message against OpenAI Chat's on the same conversation
 * (Gemini's, which the fuzz run's heavy cases found slower).
 *
 * Each input grows in proportion to its size parameter (messages, calls,
 * deltas, or characters / 64 for the huge ones, / 640 for the 10 MB text), so the time per input unit
 * must stay flat: the table prints it at each size and the ratio 16n / n
 * (1.0 = linear; a quadratic pass would print 16). The worst ratio found is
 * printed last, next to two baselines measured the same way in the same
 * process (a `Map` of string ids, `JSON.parse` of one string), which repeat
 * no work: what they gain per unit is the machine's, not a curve.
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs bench/cost.ts
 * (`COST_INPUTS="10 MB text,1 MB arguments"` measures only the inputs named).
 */
import { pathToFileURL } from "node:url"
import { Effect, Schema } from "effect"
import { Block, Conversation, GeminiEstimator, Message, MessageWindow, Repair, Request, TokenEstimator } from "../src/index.js"
import { parseBytes } from "../src/cli/Input.js"
import { stringify } from "../src/internal/json.js"
import { Anthropic, AnthropicStream, EffectAi, Gemini, GeminiStream, OpenAiChat, OpenAiChatStream, OpenAiResponses, OpenAiResponsesStream } from "../src/providers/index.js"
import { craftCollidingIds, historyWithIds, sameRoleRun } from "./adversarial.js"
import { consume, fmt, table, timePerCall } from "./measure.js"

/** The three sizes of every input: n, 4n and 16n units. */
const N = 1_000
const SIZES = [N, 4 * N, 16 * N] as const
const TIMING = { minMs: 30, rounds: 5 }

// ---------------------------------------------------------------------------
// worst-case conversations, each proportional to its size
// ---------------------------------------------------------------------------

/** Past 16n: where a pass grew more than 1.5x by 16n, 64n tells a step (caches, the garbage collector) from a curve. */
const FOLLOW_UP = 64 * N

const crafted = craftCollidingIds(FOLLOW_UP)

/** `length` characters of mixed text: ASCII, CJK, an emoji, quotes and line breaks. */
const hugeText = (length: number): string => {
  const unit = "The quick brown fox jumps over the lazy dog; 天气很好 😀. \"q\"\n"
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length)
}

/** A call with the given argument text and its result, read from OpenAI Chat messages as an agent reads them. */
const readChat = (args: string): Array<Message.Message> =>
  Effect.runSync(OpenAiChat.fromMessages([
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "write_file", arguments: args } }] },
    { role: "tool", tool_call_id: "c1", content: "ok" }
  ])).value

interface Generator {
  readonly name: string
  readonly make: (n: number) => Array<Message.Message>
}

const generators: ReadonlyArray<Generator> = [
  { name: "colliding ids", make: (n) => historyWithIds(n, (k) => crafted[k]!) },
  { name: "one id reused", make: (n) => historyWithIds(n, () => "call_1") },
  { name: "same-role run", make: (n) => sameRoleRun(n, "user") },
  {
    name: "one huge message",
    make: (n) => {
      const text = "The quick brown fox jumps over the lazy dog; 天气很好. ".repeat(Math.ceil((n * 64) / 52))
      return [Message.user(text), Message.assistant([Block.text("Reading."), Block.toolCall("c1", "write_file", { text })]), Message.toolResultMessage("c1", "write_file", "ok")]
    }
  },
  {
    // ten megabytes of text at 16n (640 characters a unit): a pasted file or log
    name: "10 MB text",
    make: (n) => [Message.user(hugeText(n * 640)), Message.assistant("Read it.")]
  },
  {
    // a megabyte of valid arguments at 16n, read from the wire with spaces, so their text is kept beside them
    name: "1 MB arguments",
    make: (n) => [Message.user("go"), ...readChat(JSON.stringify({ path: "a.txt", text: hugeText(n * 64) }, null, 1)), Message.assistant("done")]
  },
  {
    // a megabyte of broken arguments at 16n: over 32,768 characters, kept as they came, their args {}
    name: "1 MB broken arguments",
    make: (n) => [Message.user("go"), ...readChat(`{"path": "a.txt", "text": "${hugeText(n * 64).replace(/["\n]/g, " ")}", "more": [1, {"x": tru`), Message.assistant("done")]
  },
  {
    // an id of 640 characters a unit outside Anthropic's alphabet (a Gemini response without an id takes one made up from its name, however long)
    name: "long id",
    make: (n) => {
      const id = hugeText(n * 640)
      return [Message.user("go"), Message.assistant([Block.toolCall(id, "read_file", { path: "a.txt" })]), Message.toolResultMessage(id, "read_file", "ok")]
    }
  },
  {
    // system messages in a row: Anthropic's repair looked back over all of them from each one
    name: "system run",
    make: (n) => [...Array.from({ length: Math.max(0, n - 1) }, (_, k) => Message.system(`note ${k}`)), Message.user("go")]
  },
  {
    // Anthropic results each read from its own user message: repairFor(anthropic) merges them back into one
    name: "separated results",
    make: (n) => {
      const calls = Math.max(1, n - 2)
      const separate = { providerOptions: { anthropic: { $separateMessage: true } } } as never
      return [
        Message.user("go"),
        Message.assistant(Array.from({ length: calls }, (_, k) => Block.toolCall(`call_${k}`, "read_file", { path: `f${k}` }))),
        ...Array.from({ length: calls }, (_, k) => Message.tool([Block.toolResult(`call_${k}`, "read_file", "ok")], k === 0 ? undefined : separate))
      ]
    }
  },
  {
    name: "many tiny messages",
    make: (n) => Array.from({ length: n }, (_, k) => (k % 2 === 0 ? Message.user("a") : Message.assistant("b")))
  }
]

// ---------------------------------------------------------------------------
// the passes
// ---------------------------------------------------------------------------

/** A pass: `prepare` builds its input outside the timing, `run` is what is timed. */
interface Pass {
  readonly name: string
  readonly prepare: (messages: ReadonlyArray<Message.Message>) => unknown
  readonly run: (prepared: unknown) => unknown
}

const sync = <A, E>(effect: Effect.Effect<A, E>): A => Effect.runSync(effect)
const identity = (m: ReadonlyArray<Message.Message>): unknown => m
const asMessages = (u: unknown): ReadonlyArray<Message.Message> => u as ReadonlyArray<Message.Message>
/** A fresh estimator per run: its cache must not make the second run free. */
const freshEstimator = (): TokenEstimator.Service => TokenEstimator.fromTextRule(TokenEstimator.heuristicTextRule("o200k"))
const windowOn = (estimator: TokenEstimator.Service): MessageWindow.Service =>
  sync(MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, estimator)))

const adapter = (
  name: string,
  write: (m: ReadonlyArray<Message.Message>) => Effect.Effect<{ readonly value: unknown }, unknown>,
  read: (wire: unknown) => Effect.Effect<unknown, unknown>
): Array<Pass> => [
  { name: `${name}.to`, prepare: identity, run: (m) => sync(write(asMessages(m))) },
  {
    name: `${name}.from`,
    // the wire payload as it would arrive: parsed JSON
    prepare: (m) => JSON.parse(stringify(sync(write(m)).value as Schema.Json)),
    run: (wire) => sync(read(wire))
  }
]

const passes: ReadonlyArray<Pass> = [
  { name: "Conversation.decode", prepare: (m) => JSON.parse(stringify(Message.encodeAll(m) as Schema.Json)), run: (json) => sync(Conversation.decode(json)) },
  { name: "Conversation.decodeJsonl", prepare: (m) => Conversation.encodeJsonl(m), run: (text) => sync(Conversation.decodeJsonl(text as string)) },
  { name: "Conversation.issuesOf", prepare: identity, run: (m) => Conversation.issuesOf(asMessages(m)) },
  { name: "issuesFor(anthropic)", prepare: identity, run: (m) => Conversation.issuesFor("anthropic", asMessages(m)) },
  { name: "issuesFor(gemini)", prepare: identity, run: (m) => Conversation.issuesFor("gemini", asMessages(m)) },
  { name: "issuesFor(openai-responses)", prepare: identity, run: (m) => Conversation.issuesFor("openai-responses", asMessages(m)) },
  { name: "Repair.repair", prepare: identity, run: (m) => Repair.repair(asMessages(m)) },
  { name: "Repair.repairFor(anthropic)", prepare: identity, run: (m) => Effect.runSyncExit(Repair.repairFor("anthropic")(asMessages(m))) },
  { name: "Repair.repairFor(gemini)", prepare: identity, run: (m) => Effect.runSyncExit(Repair.repairFor("gemini")(asMessages(m))) },
  { name: "TokenEstimator.estimate", prepare: identity, run: (m) => freshEstimator().estimateConversation(asMessages(m)) },
  {
    name: "MessageWindow.fit",
    prepare: identity,
    run: (m) => {
      const estimator = freshEstimator()
      const total = estimator.estimateConversation(asMessages(m))
      return Effect.runSyncExit(windowOn(estimator).fit(asMessages(m), Math.floor(total / 2), { strategy: ["clear_tool_results", "drop_oldest"] }))
    }
  },
  {
    // the command line's reader: a transcript file as JSON, then as JSONL
    name: "cli parseBytes (JSON)",
    prepare: (m) => Buffer.from(JSON.stringify(Message.encodeAll(m))),
    run: (bytes) => parseBytes(bytes as Buffer, "transcript.json")
  },
  {
    name: "cli parseBytes (JSONL)",
    prepare: (m) => Buffer.from(Conversation.encodeJsonl(m)),
    run: (bytes) => parseBytes(bytes as Buffer, "transcript.jsonl")
  },
  ...adapter("OpenAiChat", (m) => OpenAiChat.toMessages(m), (w) => OpenAiChat.fromMessages(w as never)),
  ...adapter("Anthropic", (m) => Anthropic.toMessages(m), (w) => Anthropic.fromMessages(w)),
  ...adapter("OpenAiResponses", (m) => OpenAiResponses.toMessages(m), (w) => OpenAiResponses.fromMessages(w as never)),
  ...adapter("Gemini", (m) => Gemini.toMessages(m), (w) => Gemini.fromMessages(w)),
  {
    name: "EffectAi.toPrompt",
    prepare: identity,
    run: (m) => sync(EffectAi.toPrompt(asMessages(m)))
  },
  {
    name: "EffectAi.fromPrompt",
    prepare: (m) => sync(EffectAi.toPrompt(m)).value,
    run: (p) => sync(EffectAi.fromPrompt(p as never))
  }
]

// ---------------------------------------------------------------------------
// worst-case streams
// ---------------------------------------------------------------------------

const frame = (data: unknown, event?: string): string => `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`

/** How one provider streams text, tool calls and argument fragments. */
export interface StreamShape {
  readonly name: string
  readonly make: () => { readonly feed: (chunk: string) => void; readonly done: () => unknown }
  /**
   * The stream's text: `texts` text deltas, `calls` tool calls (id of each), the first call's arguments in `fragments`;
   * with `finishes`, text delta k also carries the finish reason `finishes[k]` (where the provider has one per event).
   */
  readonly render: (texts: ReadonlyArray<string>, ids: ReadonlyArray<string>, fragments: ReadonlyArray<string>, finishes?: ReadonlyArray<string>) => string
}

const chatShape: StreamShape = {
  name: "OpenAiChatStream",
  make: OpenAiChatStream.make,
  render: (texts, ids, fragments, finishes) => {
    const head = { id: "chatcmpl-cost", object: "chat.completion.chunk", created: 1, model: "gpt-4o" }
    const chunk = (delta: object, finish: string | null = null) => frame({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] })
    let out = chunk({ role: "assistant", content: "" })
    texts.forEach((t, k) => {
      out += chunk({ content: t }, finishes?.[k] ?? null)
    })
    ids.forEach((id, i) => {
      out += chunk({ tool_calls: [{ index: i, id, type: "function", function: { name: "f", arguments: i === 0 ? "" : "{}" } }] })
    })
    for (const f of fragments) out += chunk({ tool_calls: [{ index: 0, function: { arguments: f } }] })
    return out + chunk({}, ids.length > 0 ? "tool_calls" : "stop") + "data: [DONE]\n\n"
  }
}

const anthropicShape: StreamShape = {
  name: "AnthropicStream",
  make: AnthropicStream.make,
  render: (texts, ids, fragments, finishes) => {
    const e = (data: { readonly type: string }) => frame(data, data.type)
    let out = e({ type: "message_start", message: { id: "msg_cost", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } } as { type: string })
    let index = 0
    if (texts.length > 0) {
      out += e({ type: "content_block_start", index, content_block: { type: "text", text: "" } } as { type: string })
      texts.forEach((t, k) => {
        out += e({ type: "content_block_delta", index, delta: { type: "text_delta", text: t } } as { type: string })
        const finish = finishes?.[k]
        if (finish !== undefined) out += e({ type: "message_delta", delta: { stop_reason: finish, stop_sequence: null }, usage: { output_tokens: 1 } } as { type: string })
      })
      out += e({ type: "content_block_stop", index } as { type: string })
      index++
    }
    ids.forEach((id, i) => {
      out += e({ type: "content_block_start", index, content_block: { type: "tool_use", id, name: "f", input: {} } } as { type: string })
      const parts = i === 0 && fragments.length > 0 ? fragments : ["{}"]
      for (const f of parts) out += e({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: f } } as { type: string })
      out += e({ type: "content_block_stop", index } as { type: string })
      index++
    })
    out += e({ type: "message_delta", delta: { stop_reason: ids.length > 0 ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 10 } } as { type: string })
    return out + e({ type: "message_stop" })
  }
}

const responsesShape: StreamShape = {
  name: "OpenAiResponsesStream",
  make: OpenAiResponsesStream.make,
  render: (texts, ids, fragments) => {
    let seq = 0
    const ev = (data: Record<string, unknown>) => frame({ ...data, sequence_number: seq++ }, data["type"] as string)
    const response = { id: "resp_cost", object: "response", created_at: 1, model: "gpt-5", status: "in_progress", output: [] }
    let out = ev({ type: "response.created", response })
    out += ev({ type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] } })
    out += ev({ type: "response.content_part.added", item_id: "msg_1", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } })
    for (const t of texts) out += ev({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: t, logprobs: [] })
    ids.forEach((id, i) => {
      out += ev({ type: "response.output_item.added", output_index: i + 1, item: { id: `fc_${i}`, type: "function_call", call_id: id, name: "f", arguments: i === 0 ? "" : "{}", status: "in_progress" } })
    })
    for (const f of fragments) out += ev({ type: "response.function_call_arguments.delta", item_id: "fc_0", output_index: 1, delta: f })
    return out + ev({ type: "response.completed", response: { ...response, status: "completed", usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } })
  }
}

const geminiShape: StreamShape = {
  name: "GeminiStream",
  make: GeminiStream.make,
  render: (texts, ids, fragments, finishes) => {
    const chunk = (parts: ReadonlyArray<object>, finish?: string) =>
      frame({ candidates: [{ content: { role: "model", parts }, index: 0, ...(finish === undefined ? {} : { finishReason: finish }) }], modelVersion: "gemini-3-pro" })
    let out = ""
    texts.forEach((t, k) => {
      out += chunk([{ text: t }], finishes?.[k])
    })
    ids.forEach((id, i) => {
      if (i === 0 && fragments.length > 0) {
        out += chunk([{ functionCall: { id, name: "f", partialArgs: [], willContinue: true } }])
        for (const f of fragments) out += chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.text", stringValue: f, willContinue: true }], willContinue: true } }])
        out += chunk([{ functionCall: { partialArgs: [] } }])
      } else {
        out += chunk([{ functionCall: { id, name: "f", args: {} } }])
      }
    })
    return out + chunk([{ text: "" }], "STOP")
  }
}

export const streamShapes: ReadonlyArray<StreamShape> = [chatShape, anthropicShape, responsesShape, geminiShape]

interface StreamGenerator {
  readonly name: string
  readonly make: (n: number) => {
    readonly texts: ReadonlyArray<string>
    readonly ids: ReadonlyArray<string>
    readonly fragments: ReadonlyArray<string>
    readonly finishes?: ReadonlyArray<string>
  }
}

const streamGenerators: ReadonlyArray<StreamGenerator> = [
  { name: "many tiny deltas", make: (n) => ({ texts: Array.from({ length: n }, (_, k) => (k % 2 === 0 ? "a" : "é")), ids: [], fragments: [] }) },
  { name: "one huge delta", make: (n) => ({ texts: ["The quick brown fox; 天气很好. ".repeat(Math.ceil((n * 64) / 26))], ids: [], fragments: [] }) },
  { name: "colliding call ids", make: (n) => ({ texts: [], ids: crafted.slice(0, n), fragments: [] }) },
  { name: "one call id reused", make: (n) => ({ texts: [], ids: Array.from({ length: n }, () => "call_1"), fragments: [] }) },
  {
    // a megabyte of arguments at 16n in one delta, valid, then broken
    name: "1 MB arguments delta",
    make: (n) => ({ texts: [], ids: ["call_1"], fragments: [JSON.stringify({ text: hugeText(n * 64) })] })
  },
  {
    name: "1 MB broken arguments delta",
    make: (n) => ({ texts: [], ids: ["call_1"], fragments: [`{"text": "${hugeText(n * 64).replace(/["\n]/g, " ")}", "x": tru`] })
  },
  {
    name: "arguments in many fragments",
    make: (n) => {
      const json = JSON.stringify({ text: "x, é, 😀 \"quoted\" ".repeat(Math.ceil((n * 4) / 17)) })
      const fragments: Array<string> = []
      for (let i = 0; i < json.length; i += 4) fragments.push(json.slice(i, i + 4))
      return { texts: [], ids: ["call_1"], fragments: fragments.slice(0, n) }
    }
  },
  {
    // a compatible server that sends another finish reason on every chunk: OpenAI Chat kept those after the first in
    // a list it searched on every chunk (Responses has no finish reason per event: its row is the text deltas')
    name: "a new finish reason per delta",
    make: (n) => ({ texts: Array.from({ length: n }, () => "a"), ids: [], fragments: [], finishes: Array.from({ length: n }, (_, k) => `reason_${k}`) })
  }
]

/** Streams only one provider has: its name (a `streamShapes` name), the input's, and the SSE text at a size. */
const providerStreams: ReadonlyArray<{ readonly shape: string; readonly name: string; readonly render: (n: number) => string }> = [
  {
    // output_item.done sent again for one item, with a part of another type each time: each replacement copied
    // the parts kept by the one it replaced
    shape: "OpenAiResponsesStream",
    name: "one item done again",
    render: (n) => {
      const item = (status: string, part: object) => ({ id: "msg_1", type: "message", role: "assistant", status, content: [part] })
      const text = { type: "output_text", text: "a", annotations: [] }
      const refusal = { type: "refusal", refusal: "no" }
      let out = frame({ type: "response.created", response: { id: "resp_cost", object: "response", created_at: 1, model: "gpt-5", status: "in_progress", output: [] } }, "response.created")
      out += frame({ type: "response.output_item.added", output_index: 0, item: item("in_progress", text) }, "response.output_item.added")
      for (let k = 0; k < n; k++) out += frame({ type: "response.output_item.done", output_index: 0, item: item("completed", k % 2 === 0 ? refusal : text) }, "response.output_item.done")
      return out
    }
  },
  {
    // terminal events again and again, each with an item of its own: each matched all the items the ones before left
    shape: "OpenAiResponsesStream",
    name: "terminal events again",
    render: (n) => {
      const response = { id: "resp_cost", object: "response", created_at: 1, model: "gpt-5", status: "in_progress", output: [] }
      let out = frame({ type: "response.created", response }, "response.created")
      for (let k = 0; k < n; k++) {
        const output = [{ id: `msg_${k}`, type: "message", role: "assistant", status: "completed", content: [] }]
        out += frame({ type: "response.completed", response: { ...response, status: "completed", output } }, "response.completed")
      }
      return out
    }
  }
]

// ---------------------------------------------------------------------------
// measuring
// ---------------------------------------------------------------------------

interface Row {
  readonly pass: string
  readonly input: string
  /** Nanoseconds per unit at n, 4n and 16n. */
  readonly ns: ReadonlyArray<number>
}

/**
 * Time per unit at each size: the sizes are measured in turn, round after
 * round, and each keeps its fastest round, so a burst of load on a shared
 * machine (or a garbage collection) lands on one round of one size, not on
 * the ratio.
 */
const measure = (pass: string, input: string, timed: (size: number) => () => unknown): Row => {
  const fns = SIZES.map(timed)
  const best = SIZES.map(() => Number.POSITIVE_INFINITY)
  for (let round = 0; round < TIMING.rounds; round++) {
    fns.forEach((fn, i) => {
      best[i] = Math.min(best[i]!, timePerCall(fn, { minMs: TIMING.minMs, rounds: 1 }))
    })
  }
  return { pass, input, ns: best.map((ms, i) => (ms * 1e6) / SIZES[i]!) }
}

/** The inputs named in `COST_INPUTS` (comma-separated), or every input. */
const chosen = (name: string): boolean => {
  const only = process.env["COST_INPUTS"]
  return only === undefined || only === "" || only.split(",").map((s) => s.trim()).includes(name)
}

/** A timed run of a stream accumulator over `text`, fed in pieces of 16 KB. */
const feedTimed = (shape: StreamShape, text: string) => () => {
  const acc = shape.make()
  for (let i = 0; i < text.length; i += 16_384) acc.feed(text.slice(i, i + 16_384))
  return consume(acc.done())
}

/**
 * The platform's own growth, measured beside the passes in the same process: a `Map` of `size` string ids (each set,
 * read and deleted), which every id table and index of the passes is, and `JSON.parse` of one JSON string of `size`
 * units (64 characters each), which every reader of a huge message does. Neither repeats any work, so the time per
 * unit they gain from n to 64n is what caches and V8's string sizes give any linear pass on this machine.
 */
const baselines: ReadonlyArray<{ readonly name: string; readonly timed: (size: number) => () => unknown }> = [
  {
    name: "baseline: a Map of string ids",
    timed: (size) => {
      const ids = Array.from({ length: size }, (_, k) => `call_${k}`)
      return () => {
        const map = new Map<string, number>()
        for (let k = 0; k < size; k++) map.set(ids[k]!, k)
        let sum = 0
        for (let k = 0; k < size; k++) {
          sum += map.get(ids[k]!)!
          map.delete(ids[k]!)
        }
        return sum
      }
    }
  },
  {
    name: "baseline: JSON.parse of one string",
    timed: (size) => {
      const json = JSON.stringify(hugeText(size * 64))
      return () => (JSON.parse(json) as string).length
    }
  }
]

/** Measures every pass on every worst-case input; prints the tables and returns the worst ratio. */
export const runCostBench = (): number => {
  console.log(`\n## Adversarial cost: time per input unit at n, 4n, 16n (n = ${N.toLocaleString("en-US")})\n`)
  const rows: Array<Row> = []
  // each row's timed run at any size, for the follow-up at 64n (streams too: a huge delta steps up past V8's
  // largest regular string, about 128 KB, between n and 4n, and only 64n tells that step from a curve)
  const followUps = new Map<Row, (size: number) => () => unknown>()
  const models = generators.filter((g) => chosen(g.name)).map((g) => ({ g, inputs: SIZES.map((size) => g.make(size)) }))
  for (const pass of passes) {
    for (const { g, inputs } of models) {
      const prepared = inputs.map((m) => pass.prepare(m))
      const row = measure(pass.name, g.name, (size) => {
        const input = prepared[SIZES.indexOf(size as (typeof SIZES)[number])]
        return () => consume(pass.run(input))
      })
      rows.push(row)
      followUps.set(row, (size) => {
        const input = pass.prepare(g.make(size))
        return () => consume(pass.run(input))
      })
    }
  }
  for (const shape of streamShapes) {
    for (const g of streamGenerators.filter((g) => chosen(g.name))) {
      const texts = SIZES.map((size) => {
        const parts = g.make(size)
        return shape.render(parts.texts, parts.ids, parts.fragments, parts.finishes)
      })
      const row = measure(shape.name, g.name, (size) => feedTimed(shape, texts[SIZES.indexOf(size as (typeof SIZES)[number])]!))
      rows.push(row)
      followUps.set(row, (size) => {
        const parts = g.make(size)
        return feedTimed(shape, shape.render(parts.texts, parts.ids, parts.fragments, parts.finishes))
      })
    }
  }
  for (const p of providerStreams.filter((p) => chosen(p.name))) {
    const shape = streamShapes.find((s) => s.name === p.shape)!
    const texts = SIZES.map(p.render)
    const row = measure(shape.name, p.name, (size) => feedTimed(shape, texts[SIZES.indexOf(size as (typeof SIZES)[number])]!))
    rows.push(row)
    followUps.set(row, (size) => feedTimed(shape, p.render(size)))
  }
  if (rows.length === 0) {
    // only the per-message comparison was asked for
    if (chosen("gemini vs chat")) runProviderRatioBench()
    return 1
  }
  let worst = rows[0]!
  const ratio = (r: Row): number => r.ns[2]! / r.ns[0]!
  for (const r of rows) if (ratio(r) > ratio(worst)) worst = r
  const base = baselines.map((b) => {
    const row = measure(b.name, "-", b.timed)
    followUps.set(row, b.timed)
    return row
  })
  table(
    ["pass", "input", "ns/unit n", "4n", "16n", "4n / n", "16n / n"],
    [...rows, ...base].map((r) => [r.pass, r.input, fmt(r.ns[0]!), fmt(r.ns[1]!), fmt(r.ns[2]!), fmt(r.ns[1]! / r.ns[0]!, 2), fmt(ratio(r), 2)])
  )
  console.log(`\nworst ratio of time per unit, 16n / n: ${fmt(ratio(worst), 2)}x (${worst.pass} on ${worst.input}); linear is 1.0x, quadratic 16x`)
  console.log(`the baselines, which repeat no work: ${base.map((r) => `${r.pass.replace("baseline: ", "")} ${fmt(ratio(r), 2)}x`).join(", ")}`)

  // a pass that grew by 16n is measured again at 64n, beside the baselines: a quadratic one grows 4x more, a
  // step in memory behaviour (caches, the young generation filling up, V8's large strings) stays where it is
  const grew = [...rows.filter((r) => ratio(r) > 1.5 && followUps.has(r)), ...base]
  if (grew.length > 0) {
    console.log(`\nPasses that grew more than 1.5x by 16n, measured again at 64n (a quadratic pass: 4x from 16n to 64n):\n`)
    const followed = grew.map((r) => {
      const runs = [SIZES[2], FOLLOW_UP].map((size) => followUps.get(r)!(size))
      const best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]
      for (let round = 0; round < TIMING.rounds; round++) {
        runs.forEach((run, i) => {
          best[i] = Math.min(best[i]!, timePerCall(run, { minMs: TIMING.minMs, rounds: 1 }))
        })
      }
      const ns = [(best[0]! * 1e6) / SIZES[2], (best[1]! * 1e6) / FOLLOW_UP]
      return { row: [r.pass, r.input, fmt(ns[0]!), fmt(ns[1]!), fmt(ns[1]! / ns[0]!, 2)], ratio: ns[1]! / ns[0]! }
    })
    table(["pass", "input", "ns/unit 16n", "64n", "64n / 16n"], followed.map((f) => f.row))
    const worstFollow = Math.max(...followed.slice(0, followed.length - base.length).map((f) => f.ratio), 0)
    console.log(`\nworst ratio from 16n to 64n: ${fmt(worstFollow, 2)}x (linear 1.0x, quadratic 4x)`)
  }
  if (chosen("gemini vs chat")) runProviderRatioBench()
  return ratio(worst)
}

// ---------------------------------------------------------------------------
// one provider's passes per message, against Chat's on the same conversation
// ---------------------------------------------------------------------------

/**
 * Agent traffic of `size` messages as Gemini reads it: a question, the
 * model's signed text and calls (one without arguments), their results
 * (one with a file), a short answer.
 */
export const geminiTraffic = (size: number): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  for (let k = 0; out.length < size; k++) {
    out.push(Message.user(`What is in report ${k}? 天气很好.`))
    out.push(Message.assistant([
      Block.text("Reading it.", { thoughtSignature: "c2lnbmF0dXJl" }),
      Block.toolCall(`call_${k}_a`, "read_file", { path: `reports/${k}.txt`, limit: 200 }),
      Block.toolCall(`call_${k}_b`, "list_files", {})
    ]))
    out.push(Message.tool([
      Block.toolResult(`call_${k}_a`, "read_file", `Revenue grew ${k % 10}%.\nCosts fell.`),
      Block.toolResult(`call_${k}_b`, "list_files", [Block.text("two files"), Block.file(Block.url(`https://example.com/${k}.png`), "image/png")])
    ]))
    out.push(Message.assistant(`Report ${k}: revenue grew ${k % 10}%.`))
  }
  return out.slice(0, size)
}

interface Side {
  readonly name: "openai-chat" | "gemini"
  readonly toMessages: (m: ReadonlyArray<Message.Message>) => Effect.Effect<{ readonly value: unknown }, unknown>
  readonly fromMessages: (wire: unknown) => Effect.Effect<unknown, unknown>
  readonly toRequest: (r: Request.Request) => Effect.Effect<{ readonly value: unknown }, unknown>
  readonly fromRequest: (wire: unknown) => Effect.Effect<unknown, unknown>
  readonly estimator: () => TokenEstimator.Service
}

const chatSide: Side = {
  name: "openai-chat",
  toMessages: (m) => OpenAiChat.toMessages(m),
  fromMessages: (w) => OpenAiChat.fromMessages(w as never),
  toRequest: (r) => OpenAiChat.toRequest(r),
  fromRequest: (w) => OpenAiChat.fromRequest(w as never),
  estimator: freshEstimator
}

const geminiSide: Side = {
  name: "gemini",
  toMessages: (m) => Gemini.toMessages(m),
  fromMessages: (w) => Gemini.fromMessages(w),
  toRequest: (r) => Gemini.toRequest(r),
  fromRequest: (w) => Gemini.fromRequest(w),
  estimator: () => sync(GeminiEstimator.make())
}

/** A pass of one side: `prepare` outside the timing, the function it returns timed. */
type SidePass = readonly [name: string, prepare: (side: Side, messages: ReadonlyArray<Message.Message>) => () => unknown]

const wireOf = (value: unknown): unknown => JSON.parse(stringify(value as Schema.Json))

const sidePasses: ReadonlyArray<SidePass> = [
  ["toMessages", (side, m) => () => sync(side.toMessages(m))],
  ["fromMessages", (side, m) => {
    const wire = wireOf(sync(side.toMessages(m)).value)
    return () => sync(side.fromMessages(wire))
  }],
  ["toRequest", (side, m) => {
    const request = Request.make(m, { model: "m" })
    return () => sync(side.toRequest(request))
  }],
  ["fromRequest", (side, m) => {
    const wire = wireOf(sync(side.toRequest(Request.make(m, { model: "m" }))).value)
    return () => sync(side.fromRequest(wire))
  }],
  ["issuesFor", (side, m) => () => Conversation.issuesFor(side.name, m)],
  ["estimate", (side, m) => () => side.estimator().estimateConversation(m)],
  ["fit", (side, m) => () => {
    const estimator = side.estimator()
    const total = estimator.estimateConversation(m)
    return Effect.runSyncExit(windowOn(estimator).fit(m, Math.floor(total / 2), { strategy: "drop_oldest", provider: side.name }))
  }]
]

/**
 * Gemini's passes against Chat's, per message, on the same conversation at
 * 4n and 16n messages: the ratio is Gemini's time over Chat's (1.0 = as
 * fast), measured round after round in turn so load lands on both.
 */
export const runProviderRatioBench = (): void => {
  console.log(`\n## Gemini against OpenAI Chat: time per message on the same conversation\n`)
  const sizes = [4 * N, 16 * N]
  const rows: Array<Array<string>> = []
  for (const size of sizes) {
    const messages = geminiTraffic(size)
    for (const [name, prepare] of sidePasses) {
      const fns = [prepare(chatSide, messages), prepare(geminiSide, messages)]
      const best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]
      for (let round = 0; round < TIMING.rounds; round++) {
        fns.forEach((fn, i) => {
          best[i] = Math.min(best[i]!, timePerCall(() => consume(fn()), { minMs: TIMING.minMs, rounds: 1 }))
        })
      }
      const [chat, gemini] = best.map((ms) => (ms * 1e6) / size) as [number, number]
      rows.push([name, size.toLocaleString("en-US"), fmt(chat), fmt(gemini), fmt(gemini / chat, 2)])
    }
  }
  table(["pass", "messages", "Chat ns/msg", "Gemini ns/msg", "Gemini / Chat"], rows)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) runCostBench()
