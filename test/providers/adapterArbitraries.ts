/**
 * Generators for the adapters' round-trip properties:
 *
 * - conversations in the model that a wire format can express exactly
 *   (`chatConversation`, `anthropicConversation`): realistic tool traffic,
 *   parallel calls answered in any order, files, thinking, server tools;
 * - wire payloads as providers and SDKs write them (`chatMessages`,
 *   `anthropicPrompt`): every content form, unknown fields, argument text
 *   that is compact, formatted, cut off or not an object.
 */
import { Arbitrary, Schema } from "effect"
import { Block, Message } from "../../src/index.js"
import * as ToolArguments from "../../src/providers/ToolArguments.js"
import { args as argsArb, argsObject, bool, intBetween } from "../arbitraries.js"

const pick = <const A extends ReadonlyArray<unknown>>(values: A): Arbitrary.Arbitrary<A[number]> =>
  intBetween(0, values.length - 1).pipe(Arbitrary.map((i) => values[i]))

const maybe = <A>(arb: Arbitrary.Arbitrary<A>): Arbitrary.Arbitrary<A | undefined> =>
  bool.pipe(Arbitrary.flatMap((b) => (b ? arb : Arbitrary.Constant(undefined))))

const defined = <A extends Record<string, unknown>>(o: A): { [K in keyof A]?: Exclude<A[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = o[k]
  return out as { [K in keyof A]?: Exclude<A[K], undefined> }
}

const shuffle = <A>(items: ReadonlyArray<A>, seed: number): Array<A> => {
  const out = items.slice()
  let s = seed || 1
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    const j = s % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** Non-empty chat text, sometimes arbitrary unicode (lone surrogates included). */
export const words: Arbitrary.Arbitrary<string> = bool.pipe(
  Arbitrary.flatMap((real) =>
    real
      ? pick(["What's the weather in Oslo tomorrow?", "帮我查一下北京到上海的高铁票。", "Sure — let me look that up 🚀", "Line one\nLine two", "  spaced  ", "\"quoted\" \\ back"])
      : Arbitrary.schema(Schema.String.check(Schema.isMinLength(1)))
  )
)

const toolNames = ["get_weather", "search_web", "read_file", "run_sql"] as const

let ids = 0
const freshId = (prefix: string): string => `${prefix}${++ids}`

/** Argument text as models send it: compact, formatted, cut off, or valid JSON that is not an object. */
export const argumentText: Arbitrary.Arbitrary<string> = Arbitrary.all({ args: argsObject, form: intBetween(0, 5) }).pipe(
  Arbitrary.map(({ args, form }) => {
    const json = JSON.stringify(args)
    switch (form) {
      case 0:
      case 1:
        return json
      case 2:
        return JSON.stringify(args, null, 2)
      case 3:
        return json.length > 2 ? json.slice(0, Math.max(1, json.length - 3)) : "{\"city\": \"Osl"
      case 4:
        return "[1, 2]"
      default:
        return ""
    }
  })
)

// ---------------------------------------------------------------------------
// the model, as Chat Completions can express it
// ---------------------------------------------------------------------------

const chatFile: Arbitrary.Arbitrary<Block.FileBlock> = intBetween(0, 5).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Block.FileBlock> => {
    switch (k) {
      case 0:
        return maybe(pick(["auto", "low", "high", "original"] as const)).pipe(Arbitrary.map((detail) => Block.image("https://example.com/chart.png", defined({ detail }))))
      case 1:
        return Arbitrary.Constant(Block.image("data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="))
      case 2:
        return pick(["audio/wav", "audio/mpeg"] as const).pipe(Arbitrary.map((media) => Block.audio("UklGRiQAAABXQVZF", media)))
      case 3:
        return maybe(pick(["report.pdf", "契約書.pdf"])).pipe(
          Arbitrary.map((filename) => Block.file(Block.base64("JVBERi0xLjQK"), "application/pdf", defined({ filename })))
        )
      default:
        return maybe(pick(["spec.pdf"])).pipe(Arbitrary.map((filename) => Block.file(Block.fileId("file-abc123"), "application/pdf", defined({ filename }))))
    }
  })
)

const chatUser: Arbitrary.Arbitrary<Message.UserMessage> = Arbitrary.all({
  plain: bool,
  text: words,
  parts: Arbitrary.array(intBetween(0, 2), { minLength: 2, maxLength: 4 }),
  name: maybe(pick(["alice"]))
}).pipe(
  Arbitrary.flatMap(({ name, parts, plain, text }) =>
    plain
      ? Arbitrary.Constant(Message.user(text, defined({ name })))
      : Arbitrary.all(parts.map((k) => (k === 0 ? words.pipe(Arbitrary.map((t) => Block.text(t) as Block.UserBlock)) : chatFile))).pipe(
        Arbitrary.map((blocks) => Message.user(blocks, defined({ name })))
      )
  )
)

/** A call built the way a decoder builds one from argument text. */
const callFromText = (id: string, name: string, text: string, providerOptions?: Block.ProviderOptions): Block.ToolCallBlock => {
  const parsed = ToolArguments.fromText({ id, name }, text, providerOptions === undefined ? {} : { extras: { providerOptions } })
  if (!("block" in parsed)) throw new Error("lenient parsing never fails")
  return parsed.block
}

const chatCall: Arbitrary.Arbitrary<Block.ToolCallBlock> = Arbitrary.all({ name: pick(toolNames), text: argumentText, args: argsArb, custom: intBetween(0, 5) }).pipe(
  Arbitrary.map(({ name, text, custom }) =>
    custom === 0
      ? Block.toolCall(freshId("call_"), name, text, { providerOptions: { "openai-chat": { type: "custom" } } })
      : callFromText(freshId("call_"), name, text)
  )
)

const chatResult = (call: Block.ToolCallBlock): Arbitrary.Arbitrary<Block.ToolResultBlock> =>
  Arbitrary.all({ plain: bool, text: words, parts: Arbitrary.array(words, { minLength: 1, maxLength: 3 }) }).pipe(
    Arbitrary.map(({ parts, plain, text }) => Block.toolResult(call.id, call.name, plain ? text : parts.map((t) => Block.text(t))))
  )

const chatStep: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.all({
  reasoning: maybe(words),
  lead: maybe(pick(["", "Let me check.", "Checking both 🌧"])),
  calls: Arbitrary.array(chatCall, { minLength: 1, maxLength: 3 }),
  seed: intBetween(1, 1_000_000)
}).pipe(
  Arbitrary.flatMap(({ calls, lead, reasoning, seed }) =>
    Arbitrary.all(calls.map(chatResult)).pipe(
      Arbitrary.map((results) => {
        const content: Array<Block.AssistantBlock> = []
        // thinking as Chat expresses it: read from reasoning_content, marked to go back there
        if (reasoning !== undefined) content.push(Block.thinking(reasoning, undefined, { providerOptions: { "openai-chat": { $reasoningContent: true } } }))
        if (lead !== undefined) content.push(Block.text(lead))
        content.push(...calls)
        return [Message.assistant(content), ...shuffle(results, seed).map((r) => Message.tool(r))]
      })
    )
  )
)

const chatAnswer: Arbitrary.Arbitrary<Message.AssistantMessage> = Arbitrary.all({
  kind: intBetween(0, 3),
  text: words,
  texts: Arbitrary.array(words, { minLength: 2, maxLength: 3 }),
  name: maybe(pick(["helper"]))
}).pipe(
  Arbitrary.map(({ kind, name, text, texts }) => {
    const options = defined({ name })
    switch (kind) {
      case 0:
        return Message.assistant(text, options)
      case 1:
        return Message.assistant([Block.text(text), Block.refusal("I can't help with that.")], options)
      case 2:
        return Message.assistant([Block.refusal("I can't help with that.")], options)
      default:
        return Message.assistant(texts.map((t) => Block.text(t)), options)
    }
  })
)

/**
 * A conversation Chat Completions expresses exactly: system or developer
 * messages, users with images, audio and PDFs, tool steps with parallel
 * calls (argument text of every kind, custom tools) answered one tool
 * message per result in any order, DeepSeek-style reasoning, answers with
 * refusals.
 */
export const chatConversation: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.all({
  system: maybe(Arbitrary.all({ texts: Arbitrary.array(words, { minLength: 1, maxLength: 2 }), developer: bool })),
  turns: Arbitrary.array(Arbitrary.all({ user: chatUser, steps: Arbitrary.array(chatStep, { maxLength: 2 }), answer: chatAnswer }), { minLength: 1, maxLength: 3 })
}).pipe(
  Arbitrary.map(({ system, turns }) => {
    const out: Array<Message.Message> = []
    if (system !== undefined) {
      const blocks = system.texts.map((t) => Block.text(t))
      out.push(Message.system(blocks, system.developer ? { providerOptions: { "openai-chat": { role: "developer" } } } : undefined))
    }
    for (const t of turns) {
      out.push(t.user)
      for (const s of t.steps) out.push(...s)
      out.push(t.answer)
    }
    return out
  })
)

// ---------------------------------------------------------------------------
// the model, as Anthropic Messages can express it
// ---------------------------------------------------------------------------

const cache = { anthropic: { cache_control: { type: "ephemeral" } } }

const anthropicText: Arbitrary.Arbitrary<Block.TextBlock> = Arbitrary.all({ text: words, cached: intBetween(0, 4) }).pipe(
  Arbitrary.map(({ cached, text }) => Block.text(text, cached === 0 ? { providerOptions: cache } : {}))
)

const anthropicFile: Arbitrary.Arbitrary<Block.FileBlock> = intBetween(0, 6).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Block.FileBlock> => {
    switch (k) {
      case 0:
        return Arbitrary.Constant(Block.image("data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="))
      case 1:
        return Arbitrary.Constant(Block.image("https://example.com/chart.png"))
      case 2:
        return Arbitrary.Constant(Block.image(Block.fileId("file_011CNha8iCJcU1wXNR6q4V8w")))
      case 3:
        return Arbitrary.all({ title: maybe(pick(["Q3 report", "契約書"])), context: maybe(pick(["internal"])), citationsEnabled: maybe(bool) }).pipe(
          Arbitrary.map((o) => Block.document(Block.base64("JVBERi0xLjQK"), defined(o)))
        )
      case 4:
        return Arbitrary.Constant(Block.document(Block.textSource("Revenue grew 4%."), { title: "notes", citationsEnabled: true }))
      case 5:
        return Arbitrary.Constant(Block.document("https://example.com/paper.pdf"))
      default:
        return Arbitrary.Constant(Block.document(Block.fileId("file_011CPMxVD3fHLUhvTqtsQA5w"), { providerOptions: cache }))
    }
  })
)

const anthropicUser: Arbitrary.Arbitrary<Message.UserMessage> = Arbitrary.all({
  plain: bool,
  text: words,
  parts: Arbitrary.array(intBetween(0, 2), { minLength: 1, maxLength: 4 })
}).pipe(
  Arbitrary.flatMap(({ parts, plain, text }) =>
    plain
      ? Arbitrary.Constant(Message.user(text))
      : Arbitrary.all(parts.map((k): Arbitrary.Arbitrary<Block.UserBlock> => (k === 0 ? anthropicText : anthropicFile))).pipe(
        Arbitrary.map((blocks) => {
          const only = blocks[0]
          // a single plain text is written as a string: that is the plain case above
          return blocks.length === 1 && only?._tag === "Text" && only.providerOptions === undefined
            ? Message.user([Block.text(only.text, { providerOptions: cache })])
            : Message.user(blocks)
        })
      )
  )
)

const anthropicCall: Arbitrary.Arbitrary<Block.ToolCallBlock> = Arbitrary.all({ name: pick(toolNames), args: argsObject, cached: intBetween(0, 5) }).pipe(
  Arbitrary.map(({ args, cached, name }) => Block.toolCall(freshId("toolu_"), name, args, cached === 0 ? { providerOptions: cache } : {}))
)

const anthropicResult = (call: Block.ToolCallBlock): Arbitrary.Arbitrary<Block.ToolResultBlock> =>
  Arbitrary.all({ kind: intBetween(0, 3), text: words, parts: Arbitrary.array(intBetween(0, 1), { minLength: 1, maxLength: 3 }), isError: bool }).pipe(
    Arbitrary.flatMap(({ isError, kind, parts, text }) => {
      if (kind <= 1) return Arbitrary.Constant(Block.toolResult(call.id, call.name, text, isError))
      if (kind === 2) return Arbitrary.Constant(Block.toolResult(call.id, call.name, [], isError))
      return Arbitrary.all(parts.map((k): Arbitrary.Arbitrary<Block.ToolResultPart> => (k === 0 ? anthropicText : anthropicFile))).pipe(
        Arbitrary.map((content) => Block.toolResult(call.id, call.name, content, isError))
      )
    })
  )

const serverTool: Arbitrary.Arbitrary<ReadonlyArray<Block.AssistantBlock>> = Arbitrary.all({ query: words }).pipe(
  Arbitrary.map(({ query }) => {
    const id = freshId("srvtoolu_")
    return [
      Block.toolCall(id, "web_search", { query }, { providerExecuted: true }),
      Block.toolResult(
        id,
        "web_search",
        [Block.json([{ type: "web_search_result", url: "https://example.com", title: "Example", encrypted_content: "EqgfCioIARgB", page_age: null }])],
        false,
        { providerExecuted: true, providerOptions: { anthropic: { type: "web_search_tool_result" } } }
      )
    ]
  })
)

const anthropicStep = (thinking: boolean): Arbitrary.Arbitrary<Array<Message.Message>> =>
  Arbitrary.all({
    thought: words,
    redacted: bool,
    lead: maybe(words),
    server: maybe(serverTool),
    calls: Arbitrary.array(anthropicCall, { minLength: 1, maxLength: 3 }),
    seed: intBetween(1, 1_000_000),
    follow: maybe(words)
  }).pipe(
    Arbitrary.flatMap(({ calls, follow, lead, redacted, seed, server, thought }) =>
      Arbitrary.all(calls.map(anthropicResult)).pipe(
        Arbitrary.map((results) => {
          const content: Array<Block.AssistantBlock> = []
          if (thinking) content.push(Block.thinking(thought, "EqQBCkgIARABGAIiQL0x"))
          if (thinking && redacted) content.push(Block.redactedThinking("EmwKAhgBEgy3va3pzix"))
          if (lead !== undefined) content.push(Block.text(lead))
          if (server !== undefined) content.push(...server)
          content.push(...calls)
          const out: Array<Message.Message> = [Message.assistant(content), Message.tool(shuffle(results, seed))]
          if (follow !== undefined) out.push(Message.user(follow))
          return out
        })
      )
    )
  )

const citation = { type: "char_location", cited_text: "The grass is green.", document_index: 0, document_title: "My Document", start_char_index: 0, end_char_index: 20 }

const anthropicAnswer: Arbitrary.Arbitrary<Message.AssistantMessage> = Arbitrary.all({ kind: intBetween(0, 2), text: words, more: words }).pipe(
  Arbitrary.map(({ kind, more, text }) => {
    if (kind === 0) return Message.assistant(text)
    if (kind === 1) return Message.assistant([Block.text(text, { citations: [citation] }), Block.text(more)])
    return Message.assistant([Block.text(text, { providerOptions: { anthropic: { type: "text" } } })])
  })
)

/**
 * A conversation Anthropic expresses exactly: one leading system message,
 * alternating turns, thinking with signatures and redacted thinking, parallel
 * calls whose results share one tool message (in any order, errors included),
 * sometimes followed by the user's next words, server tools, images and
 * documents, cache control, citations.
 */
export const anthropicConversation: Arbitrary.Arbitrary<Array<Message.Message>> = Arbitrary.all({
  system: maybe(Arbitrary.array(anthropicText, { minLength: 1, maxLength: 2 })),
  thinking: bool,
  turns: Arbitrary.array(Arbitrary.all({ user: anthropicUser, steps: Arbitrary.array(bool, { maxLength: 2 }), answer: anthropicAnswer }), { minLength: 1, maxLength: 3 })
}).pipe(
  Arbitrary.flatMap(({ system, thinking, turns }) =>
    Arbitrary.all(turns.map((t) => Arbitrary.all(t.steps.map(() => anthropicStep(thinking))))).pipe(
      Arbitrary.map((stepsPerTurn) => {
        const out: Array<Message.Message> = []
        if (system !== undefined) out.push(Message.system(system))
        turns.forEach((t, i) => {
          out.push(t.user)
          for (const step of stepsPerTurn[i]!) {
            // a step's trailing user words would make two user messages in a row before the next step's assistant: fine;
            // but before the answer they are followed by the assistant, also fine
            out.push(...step)
          }
          out.push(t.answer)
        })
        return out
      })
    )
  )
)

// ---------------------------------------------------------------------------
// Chat Completions payloads
// ---------------------------------------------------------------------------

type Json = Schema.Json
type Obj = { [key: string]: Json }

const wireText: Arbitrary.Arbitrary<Obj> = Arbitrary.all({ text: words, extra: intBetween(0, 4) }).pipe(
  Arbitrary.map(({ extra, text }) => (extra === 0 ? { type: "text", text, cache_control: { type: "ephemeral" } } : { type: "text", text }))
)

const wireUserPart: Arbitrary.Arbitrary<Obj> = intBetween(0, 6).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Obj> => {
    switch (k) {
      case 0:
      case 1:
        return wireText
      case 2:
        return maybe(pick(["auto", "low", "high", "original"])).pipe(
          Arbitrary.map((detail) => ({ type: "image_url", image_url: { url: "https://example.com/a.jpg", ...(detail === undefined ? {} : { detail }) } }))
        )
      case 3:
        return Arbitrary.Constant({ type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/4AAQSkZJRg==" } })
      case 4:
        return pick(["wav", "mp3"]).pipe(Arbitrary.map((format) => ({ type: "input_audio", input_audio: { data: "UklGRiQAAABX", format } })))
      case 5:
        return maybe(pick(["a.pdf"])).pipe(
          Arbitrary.map((filename) => ({ type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0x", ...(filename === undefined ? {} : { filename }) } }))
        )
      default:
        return Arbitrary.Constant({ type: "file", file: { file_id: "file-6F2ksmvXxt4VdoqmHRw6kL" } })
    }
  })
)

const wireCall: Arbitrary.Arbitrary<Obj> = Arbitrary.all({ name: pick(toolNames), text: argumentText, custom: intBetween(0, 6), extra: intBetween(0, 6) }).pipe(
  Arbitrary.map(({ custom, extra, name, text }): Obj => {
    const id = freshId("call_")
    if (custom === 0) return { id, type: "custom", custom: { name, input: text } }
    return { id, type: "function", function: { name, arguments: text }, ...(extra === 0 ? { index: 0 } : {}) }
  })
)

const wireAssistant: Arbitrary.Arbitrary<Obj> = Arbitrary.all({
  content: intBetween(0, 5),
  text: words,
  parts: Arbitrary.array(intBetween(0, 2), { minLength: 1, maxLength: 3 }),
  texts: Arbitrary.array(wireText, { minLength: 3, maxLength: 3 }),
  refusal: maybe(pick(["I can't help with that."])),
  calls: Arbitrary.array(wireCall, { maxLength: 3 }),
  reasoning: maybe(words),
  audio: intBetween(0, 8),
  name: maybe(pick(["helper"])),
  annotations: bool
}).pipe(
  Arbitrary.map(({ annotations, audio, calls, content, name, parts, reasoning, refusal, text, texts }): Obj => {
    const out: Obj = { role: "assistant" }
    let list = false
    switch (content) {
      case 0:
        out["content"] = null
        break
      case 1:
        break
      case 2:
        out["content"] = ""
        break
      case 3:
        out["content"] = text
        break
      default:
        list = true
        out["content"] = parts.map((k, i) => (k === 2 ? { type: "refusal", refusal: "No." } : texts[i]!))
    }
    if (refusal !== undefined && !list) out["refusal"] = refusal
    if (calls.length > 0) out["tool_calls"] = calls
    if (reasoning !== undefined) out["reasoning_content"] = reasoning
    if (audio === 0) out["audio"] = { id: "audio_6731c23369048190" }
    if (name !== undefined) out["name"] = name
    if (annotations) out["annotations"] = []
    return out
  })
)

const wireMessage: Arbitrary.Arbitrary<Array<Obj>> = intBetween(0, 9).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Array<Obj>> => {
    switch (k) {
      case 0:
        return Arbitrary.all({ role: pick(["system", "developer"]), plain: bool, text: words, parts: Arbitrary.array(wireText, { minLength: 1, maxLength: 2 }), name: maybe(pick(["ops"])) }).pipe(
          Arbitrary.map(({ name, parts, plain, role, text }) => [{ role, content: plain ? text : parts, ...(name === undefined ? {} : { name }) }])
        )
      case 1:
      case 2:
        return Arbitrary.all({ plain: bool, text: words, parts: Arbitrary.array(wireUserPart, { minLength: 1, maxLength: 4 }), name: maybe(pick(["alice"])), extra: intBetween(0, 5) }).pipe(
          Arbitrary.map(({ extra, name, parts, plain, text }) => [
            { role: "user", content: plain ? text : parts, ...(name === undefined ? {} : { name }), ...(extra === 0 ? { metadata_tag: "x" } : {}) }
          ])
        )
      case 3:
        // the deprecated single function call and its result
        return Arbitrary.all({ name: pick(toolNames), text: argumentText, result: words }).pipe(
          Arbitrary.map(({ name, result, text }) => [
            { role: "assistant", content: null, function_call: { name, arguments: text } },
            { role: "function", name, content: result }
          ])
        )
      default:
        return wireAssistant.pipe(
          Arbitrary.flatMap((assistant) => {
            const calls = (assistant["tool_calls"] as Array<Obj> | undefined) ?? []
            return Arbitrary.all(
              calls.map((call) =>
                Arbitrary.all({ plain: bool, text: words, parts: Arbitrary.array(wireText, { minLength: 1, maxLength: 2 }), named: intBetween(0, 3) }).pipe(
                  Arbitrary.map(({ named, parts, plain, text }): Obj => ({
                    role: "tool",
                    tool_call_id: call["id"]!,
                    content: plain ? text : parts,
                    ...(named === 0 ? { name: "get_weather" } : {})
                  }))
                )
              )
            ).pipe(Arbitrary.map((results) => [assistant, ...results]))
          })
        )
    }
  })
)

/** A Chat Completions `messages` list as SDKs and servers write it. */
export const chatMessages: Arbitrary.Arbitrary<Array<Obj>> = Arbitrary.array(wireMessage, { minLength: 1, maxLength: 6 }).pipe(
  Arbitrary.map((groups) => groups.flat())
)

// ---------------------------------------------------------------------------
// Anthropic payloads
// ---------------------------------------------------------------------------

const wireAnthropicText: Arbitrary.Arbitrary<Obj> = Arbitrary.all({ text: words, extra: intBetween(0, 5) }).pipe(
  Arbitrary.map(({ extra, text }): Obj => {
    switch (extra) {
      case 0:
        return { type: "text", text, cache_control: { type: "ephemeral" } }
      case 1:
        return { type: "text", text, citations: null }
      case 2:
        return { type: "text", text, citations: [citation] }
      default:
        return { type: "text", text }
    }
  })
)

const wireAnthropicMedia: Arbitrary.Arbitrary<Obj> = intBetween(0, 7).pipe(
  Arbitrary.map((k): Obj => {
    switch (k) {
      case 0:
        return { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQSkZJRg==" } }
      case 1:
        return { type: "image", source: { type: "url", url: "https://example.com/a.jpg" } }
      case 2:
        return { type: "image", source: { type: "file", file_id: "file_011CNha8iCJcU1wXNR6q4V8w" }, cache_control: { type: "ephemeral", ttl: "1h" } }
      case 3:
        return { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0x" }, title: "Report", citations: { enabled: true } }
      case 4:
        return { type: "document", source: { type: "text", media_type: "text/plain", data: "The sky is blue." }, context: null, title: null }
      case 5:
        return { type: "document", source: { type: "url", url: "https://example.com/paper.pdf" }, citations: null }
      case 6:
        return { type: "search_result", source: "https://example.com", title: "Example", content: [{ type: "text", text: "hit" }] }
      default:
        return { type: "document", source: { type: "content", content: [{ type: "text", text: "chunk" }] } }
    }
  })
)

const wireToolResult = (id: string): Arbitrary.Arbitrary<Obj> =>
  Arbitrary.all({ kind: intBetween(0, 4), text: words, parts: Arbitrary.array(bool, { minLength: 1, maxLength: 3 }), error: intBetween(0, 2), cached: bool }).pipe(
    Arbitrary.flatMap(({ cached, error, kind, parts, text }) =>
      Arbitrary.all(parts.map((t) => (t ? wireAnthropicText : wireAnthropicMedia.pipe(Arbitrary.map((m) => (m["type"] === "document" && (m["source"] as Obj)["type"] === "content" ? { type: "text", text: "x" } : m)))))).pipe(
        Arbitrary.map((blocks): Obj => ({
          type: "tool_result",
          tool_use_id: id,
          ...(kind === 0 ? {} : kind <= 2 ? { content: text } : { content: blocks }),
          ...(error === 0 ? {} : { is_error: error === 1 }),
          ...(cached ? { cache_control: { type: "ephemeral" } } : {})
        }))
      )
    )
  )

const wireAnthropicAssistant: Arbitrary.Arbitrary<{ readonly message: Obj; readonly calls: ReadonlyArray<string> }> = Arbitrary.all({
  plain: intBetween(0, 5),
  text: words,
  blocks: Arbitrary.array(intBetween(0, 8), { minLength: 1, maxLength: 5 }),
  texts: Arbitrary.array(wireAnthropicText, { minLength: 5, maxLength: 5 }),
  inputs: Arbitrary.array(argsObject, { minLength: 5, maxLength: 5 })
}).pipe(
  Arbitrary.map(({ blocks, inputs, plain, text, texts }) => {
    if (plain === 0) return { message: { role: "assistant", content: text }, calls: [] }
    const content: Array<Json> = []
    const calls: Array<string> = []
    blocks.forEach((k, i) => {
      switch (k) {
        case 0:
          content.push({ type: "thinking", thinking: "Let me think about the user's request.", signature: "EqQBCkgIARABGAIiQL0x" })
          break
        case 1:
          content.push({ type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix" })
          break
        case 2:
        case 3: {
          const id = freshId("toolu_")
          calls.push(id)
          content.push({ type: "tool_use", id, name: "get_weather", input: inputs[i]!, ...(k === 3 ? { cache_control: { type: "ephemeral" } } : {}) })
          break
        }
        case 4: {
          const id = freshId("srvtoolu_")
          content.push({ type: "server_tool_use", id, name: "web_search", input: { query: "oslo weather" } })
          content.push({ type: "web_search_tool_result", tool_use_id: id, content: [{ type: "web_search_result", url: "https://yr.no", title: "Yr", encrypted_content: "Eq", page_age: null }] })
          break
        }
        case 5: {
          const id = freshId("mcptoolu_")
          content.push({ type: "mcp_tool_use", id, name: "ask_question", server_name: "deepwiki", input: { question: "what?" } })
          content.push({ type: "mcp_tool_result", tool_use_id: id, is_error: false, content: [{ type: "text", text: "an answer" }] })
          break
        }
        case 6:
          content.push({ type: "compaction", content: "Summary of earlier turns." })
          break
        default:
          content.push(texts[i]!)
      }
    })
    return { message: { role: "assistant", content }, calls }
  })
)

const wireAnthropicUser = (calls: ReadonlyArray<string>): Arbitrary.Arbitrary<Obj> =>
  Arbitrary.all({
    plain: intBetween(0, 3),
    text: words,
    results: Arbitrary.all(calls.map(wireToolResult)),
    blocks: Arbitrary.array(intBetween(0, 2), { maxLength: 3 }),
    texts: Arbitrary.array(wireAnthropicText, { minLength: 3, maxLength: 3 }),
    media: Arbitrary.array(wireAnthropicMedia, { minLength: 3, maxLength: 3 }),
    seed: intBetween(1, 1_000_000)
  }).pipe(
    Arbitrary.map(({ blocks, media, plain, results, seed, text, texts }): Obj => {
      if (calls.length === 0 && plain === 0) return { role: "user", content: text }
      const said = blocks.map((k, i) => (k === 0 ? media[i]! : texts[i]!))
      const content = [...shuffle(results, seed), ...said]
      return { role: "user", content: content.length === 0 ? [texts[0]!] : content }
    })
  )

/** An Anthropic `{ system, messages }` prompt as SDKs write it: alternating roles, results first. */
export const anthropicPrompt: Arbitrary.Arbitrary<Obj> = Arbitrary.all({
  system: intBetween(0, 2),
  systemText: words,
  systemBlocks: Arbitrary.array(wireAnthropicText.pipe(Arbitrary.map((b) => (b["citations"] === undefined ? b : { type: "text", text: b["text"]! }))), { minLength: 1, maxLength: 2 }),
  assistants: Arbitrary.array(wireAnthropicAssistant, { maxLength: 4 })
}).pipe(
  Arbitrary.flatMap(({ assistants, system, systemBlocks, systemText }) =>
    Arbitrary.all([wireAnthropicUser([]), ...assistants.map((a) => wireAnthropicUser(a.calls))]).pipe(
      Arbitrary.map((users): Obj => {
        const messages: Array<Json> = [users[0]!]
        assistants.forEach((a, i) => messages.push(a.message, users[i + 1]!))
        return {
          ...(system === 0 ? {} : { system: system === 1 ? systemText : systemBlocks }),
          messages
        }
      })
    )
  )
)

/** A JSON value with its keys sorted and its `null`s dropped: "the same payload" for providers. */
export const normalize = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key]
      if (v !== null && v !== undefined) Object.defineProperty(out, key, { value: normalize(v), enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return value
}
