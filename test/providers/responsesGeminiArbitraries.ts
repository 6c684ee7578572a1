/**
 * Generators for the adapters' round-trip properties:
 *
 * - conversations in the model that a wire format can carry whole (so
 *   ours -> provider -> ours must be the identity), with realistic tool
 *   loops, parallel calls, reasoning, files and kept provider fields;
 * - wire payloads of each format in the forms the adapter writes, with
 *   unknown fields and item kinds sprinkled in (so provider -> ours ->
 *   provider must be the identity).
 *
 * Ids are fresh per value, so calls and results pair up as in real traffic.
 */
import { Arbitrary, type Schema } from "effect"
import { Block, Message } from "../../src/index.js"
import * as ToolArguments from "../../src/providers/ToolArguments.js"
import { argsObject, bool, intBetween, jsonValue, text } from "../arbitraries.js"

export const pick = <const A extends ReadonlyArray<unknown>>(values: A): Arbitrary.Arbitrary<A[number]> =>
  intBetween(0, values.length - 1).pipe(Arbitrary.map((i) => values[i] as A[number]))

/** One of several generators, chosen evenly. */
export const oneOf = <A>(arbs: ReadonlyArray<Arbitrary.Arbitrary<A>>): Arbitrary.Arbitrary<A> =>
  intBetween(0, arbs.length - 1).pipe(Arbitrary.flatMap((i) => arbs[i]!))

export const maybe = <A>(arb: Arbitrary.Arbitrary<A>): Arbitrary.Arbitrary<A | undefined> =>
  bool.pipe(Arbitrary.flatMap((b) => (b ? arb : Arbitrary.Constant(undefined))))

/** Copies only the defined values, so that absent optional fields stay absent. */
export const defined = <A extends Record<string, unknown>>(o: A): { [K in keyof A]?: Exclude<A[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = o[k]
  return out as { [K in keyof A]?: Exclude<A[K], undefined> }
}

let counter = 0
export const fresh = (prefix: string): string => `${prefix}_${++counter}`

const names = ["get_weather", "search_web", "read_file", "run_sql"] as const

/** Argument text as models send it: compact JSON, pretty JSON, empty, or cut off. */
export const argumentText: Arbitrary.Arbitrary<string> = Arbitrary.all({ args: argsObject, k: intBetween(0, 5) }).pipe(
  Arbitrary.map(({ args, k }) => (k <= 2 ? JSON.stringify(args) : k === 3 ? JSON.stringify(args, null, 2) : k === 4 ? "" : `${JSON.stringify(args).slice(0, -1)}, "cut": "Osl`))
)

/** A tool call as a provider's text would be read: through the shared parser. */
const callFromText = (id: string, name: string, textArgs: string, extras?: Omit<ConstructorParameters<typeof Block.ToolCallBlock>[0], "_tag" | "id" | "name" | "args">): Block.ToolCallBlock => {
  const parsed = ToolArguments.parse(textArgs, { requireObject: true })
  return Block.toolCall(id, name, parsed.args, { ...extras, ...defined({ rawArgs: parsed.rawArgs, parseError: parsed.parseError }) })
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

const po = (key: string, record: Block.JsonObject | undefined): { providerOptions?: Block.ProviderOptions } =>
  record === undefined ? {} : { providerOptions: { [key]: record } }

const annotation = pick([
  { type: "url_citation", start_index: 0, end_index: 12, url: "https://example.com/oslo", title: "Oslo weather" },
  { type: "file_citation", file_id: "file-abc", filename: "notes.pdf", index: 3 }
])

/** A conversation shape shared by both formats: the blocks of each role are format-specific. */
const conversationOf = (parts: {
  readonly system: Arbitrary.Arbitrary<Message.SystemMessage>
  readonly user: Arbitrary.Arbitrary<Message.UserMessage>
  /** The blocks of a step before its calls (reasoning, text...), and after them. */
  readonly lead: Arbitrary.Arbitrary<Array<Block.AssistantBlock>>
  readonly call: Arbitrary.Arbitrary<Block.ToolCallBlock>
  readonly resultFor: (call: Block.ToolCallBlock) => Arbitrary.Arbitrary<Block.ToolResultBlock>
  readonly answer: Arbitrary.Arbitrary<Array<Block.AssistantBlock>>
  readonly assistantOptions?: Arbitrary.Arbitrary<Message.AssistantOptions | undefined>
}): Arbitrary.Arbitrary<Array<Message.Message>> => {
  const options = parts.assistantOptions ?? Arbitrary.Constant(undefined)
  const step = Arbitrary.all({ lead: parts.lead, calls: Arbitrary.array(parts.call, { minLength: 1, maxLength: 3 }), seed: intBetween(1, 1_000_000), options }).pipe(
    Arbitrary.flatMap(({ calls, lead, options, seed }) =>
      Arbitrary.all(calls.map(parts.resultFor)).pipe(
        Arbitrary.map((results): Array<Message.Message> => [Message.assistant([...lead, ...calls], options), Message.tool(shuffle(results, seed))])
      )
    )
  )
  const turn = Arbitrary.all({ user: parts.user, steps: Arbitrary.array(step, { maxLength: 3 }), answer: parts.answer, options }).pipe(
    Arbitrary.map(({ answer, options, steps, user }) => [user, ...steps.flat(), Message.assistant(answer, options)])
  )
  return Arbitrary.all({ system: maybe(parts.system), turns: Arbitrary.array(turn, { minLength: 1, maxLength: 3 }) }).pipe(
    Arbitrary.map(({ system, turns }) => [...(system === undefined ? [] : [system]), ...turns.flat()])
  )
}

// ---------------------------------------------------------------------------
// OpenAI Responses
// ---------------------------------------------------------------------------

const R = "openai-responses"

const responsesImage = Arbitrary.all({ k: intBetween(0, 2), detail: pick(["auto", "low", "high", "original"] as const) }).pipe(
  Arbitrary.map(({ detail, k }) =>
    k === 0
      ? Block.image("https://example.com/chart.png", { detail })
      : k === 1
      ? Block.image("data:image/png;base64,iVBORw0KGgo=", { detail })
      : Block.image(Block.fileId("file-6F2ksmvXxt4VdoqmHRw6kL"), { detail })
  )
)

const responsesFile = Arbitrary.all({ k: intBetween(0, 2), filename: maybe(pick(["report.pdf", "契約書.pdf"])) }).pipe(
  Arbitrary.map(({ filename, k }) => {
    const named = defined({ filename })
    return k === 0
      ? Block.document(Block.base64("JVBERi0xLjQK"), named)
      : k === 1
      // Responses sends a file id or URL without a type: the type the name's extension says is what it carries
      ? Block.file(Block.fileId("file-abc123"), filename === undefined ? "application/octet-stream" : "application/pdf", named)
      : Block.file(Block.url("https://example.com/2024ltr.pdf"), "application/pdf", named)
  })
)

const responsesUserBlock: Arbitrary.Arbitrary<Block.UserBlock> = intBetween(0, 5).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Block.UserBlock> =>
    k <= 1
      ? Arbitrary.all({ t: text, cache: bool }).pipe(Arbitrary.map(({ cache, t }) => Block.text(t, po(R, cache ? { prompt_cache_breakpoint: { mode: "explicit" } } : undefined))))
      : k === 2
      ? responsesImage
      : k === 3
      ? responsesFile
      : k === 4
      ? Arbitrary.Constant(Block.providerData(R, { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } }))
      : text.pipe(Arbitrary.map((t) => Block.text(t)))
  )
)

const responsesUser = Arbitrary.all({ blocks: Arbitrary.array(responsesUserBlock, { minLength: 1, maxLength: 3 }), typed: bool }).pipe(
  Arbitrary.map(({ blocks, typed }) => Message.user(blocks, po(R, typed ? { type: "message" } : undefined)))
)

const responsesSystem = Arbitrary.all({ texts: Arbitrary.array(text, { minLength: 1, maxLength: 2 }), k: intBetween(0, 2) }).pipe(
  Arbitrary.map(({ k, texts }) => Message.system(texts.map((t) => Block.text(t)), po(R, k === 0 ? undefined : k === 1 ? { role: "developer" } : { type: "message" })))
)

const reasoningBlock = Arbitrary.all({
  thinking: pick(["", "The user wants the weather in two cities; I will call the tool twice."]),
  summary: Arbitrary.array(pick(["**Planning the lookup**\n\nTwo cities.", "**Checking units**", ""]), { maxLength: 3 }),
  encryptedContent: maybe(pick(["gAAAAABoxC0_aDtrISw_zls0dyams", "rsn_5ZVrif4J0bXIqmWdled"])),
  status: maybe(pick(["completed", "in_progress", "incomplete"]))
}).pipe(Arbitrary.map(({ thinking, ...rest }) => Block.thinking(thinking, undefined, { itemId: fresh("rs"), ...defined(rest) })))

/** An output message item: text and refusal parts sharing one item id; the first may keep the item's fields. */
const outputMessage = Arbitrary.all({
  parts: Arbitrary.array(Arbitrary.all({ t: text, refusal: intBetween(0, 4), citations: maybe(Arbitrary.array(annotation, { minLength: 1, maxLength: 2 })), logprobs: bool }), { minLength: 1, maxLength: 2 }),
  item: maybe(pick([{ phase: "commentary" }, { status: "in_progress" }, { phase: "final_answer", status: "incomplete" }]))
}).pipe(
  Arbitrary.map(({ item, parts }) => {
    const itemId = fresh("msg")
    return parts.map(({ citations, logprobs, refusal, t }, p): Block.AssistantBlock => {
      const record = { ...(p === 0 && item !== undefined ? { item } : {}), ...(logprobs && refusal !== 0 ? { logprobs: [] } : {}) }
      const options = po(R, Object.keys(record).length === 0 ? undefined : record)
      return refusal === 0 ? Block.refusal(t, { itemId, ...options }) : Block.text(t, { itemId, ...defined({ citations }), ...options })
    })
  })
)

const easyText = Arbitrary.all({ t: text, phase: maybe(pick(["commentary", "final_answer"])) }).pipe(
  Arbitrary.map(({ phase, t }) => [Block.text(t, po(R, phase === undefined ? undefined : { $item: { phase } }))])
)

const hostedSearch = Arbitrary.all({ q: text, results: bool, hits: jsonValue }).pipe(
  Arbitrary.map(({ hits, q, results }): Array<Block.AssistantBlock> => {
    if (!results) {
      const id = fresh("ws")
      return [Block.toolCall(id, "web_search", { action: { type: "search", query: q } }, { providerExecuted: true, itemId: id, ...po(R, { type: "web_search_call", status: "completed" }) })]
    }
    const id = fresh("fs")
    return [
      Block.toolCall(id, "file_search", { queries: [q] }, { providerExecuted: true, itemId: id, ...po(R, { type: "file_search_call", status: "completed" }) }),
      Block.toolResult(id, "file_search", [Block.json({ results: [hits] })], false, { providerExecuted: true })
    ]
  })
)

const responsesSegment: Arbitrary.Arbitrary<Array<Block.AssistantBlock>> = intBetween(0, 5).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Array<Block.AssistantBlock>> =>
    k === 0
      ? reasoningBlock.pipe(Arbitrary.map((b) => [b]))
      : k === 1
      ? outputMessage
      : k === 2
      ? easyText
      : k === 3
      ? hostedSearch
      : k === 4
      ? Arbitrary.Constant([Block.providerData(R, { type: "item_reference", id: "msg_earlier" })])
      : Arbitrary.Constant([])
  )
)

const responsesLead = Arbitrary.array(responsesSegment, { maxLength: 2 }).pipe(Arbitrary.map((s) => s.flat()))

const responsesCall = Arbitrary.all({ name: pick(names), args: argumentText, itemId: bool, status: bool }).pipe(
  Arbitrary.map(({ args, itemId, name, status }) =>
    callFromText(fresh("call"), name, args, { ...(itemId ? { itemId: fresh("fc") } : {}), ...po(R, status ? { status: "completed" } : undefined) })
  )
)

const responsesResultPart: Arbitrary.Arbitrary<Block.ToolResultPart> = intBetween(0, 2).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Block.ToolResultPart> => (k === 0 ? text.pipe(Arbitrary.map((t) => Block.text(t))) : k === 1 ? responsesImage : responsesFile))
)

const responsesResultFor = (call: Block.ToolCallBlock): Arbitrary.Arbitrary<Block.ToolResultBlock> =>
  Arbitrary.all({ plain: bool, t: text, parts: Arbitrary.array(responsesResultPart, { minLength: 1, maxLength: 3 }), itemId: bool, status: bool }).pipe(
    Arbitrary.map(({ itemId, parts, plain, status, t }) =>
      Block.toolResult(call.id, call.name, plain ? t : parts, false, { ...(itemId ? { itemId: fresh("fco") } : {}), ...po(R, status ? { status: "completed" } : undefined) })
    )
  )

/** A conversation the Responses format carries whole. */
export const responsesConversation: Arbitrary.Arbitrary<Array<Message.Message>> = conversationOf({
  system: responsesSystem,
  user: responsesUser,
  lead: responsesLead,
  call: responsesCall,
  resultFor: responsesResultFor,
  answer: Arbitrary.all({ lead: responsesLead, last: oneOf([outputMessage, easyText]) }).pipe(Arbitrary.map(({ last, lead }) => [...lead, ...last]))
})

// Responses input items, as the adapter writes them, with unknown fields and kinds

type Item = Record<string, Schema.Json>

const extraField = maybe(Arbitrary.all({ value: jsonValue }).pipe(Arbitrary.map(({ value }) => ({ x_vendor_hint: value }))))

const inputPart = intBetween(0, 5).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Item> =>
    k === 0
      ? Arbitrary.all({ t: text, x: extraField }).pipe(Arbitrary.map(({ t, x }) => ({ type: "input_text", text: t, ...x })))
      : k === 1
      ? pick([
        { type: "input_image", detail: "low", image_url: "https://example.com/a.png" },
        { type: "input_image", detail: "auto", file_id: "file-1" },
        { type: "input_image", detail: "original", image_url: "data:image/jpeg;base64,/9j/4AAQ" }
      ])
      : k === 2
      ? pick([
        { type: "input_file", file_data: "data:application/pdf;base64,JVBERi0x", filename: "a.pdf" },
        { type: "input_file", file_id: "file-2" },
        { type: "input_file", file_url: "https://example.com/b.pdf", filename: "b.pdf" },
        { type: "input_file", file_data: "JVBERi0x", filename: "bare.pdf" }
      ])
      : k === 3
      ? Arbitrary.Constant({ type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } })
      : text.pipe(Arbitrary.map((t) => ({ type: "input_text", text: t })))
  )
)

/** Message content: a string, or a list of parts (one plain text part included). */
const inputContent = Arbitrary.all({ s: text, parts: Arbitrary.array(inputPart, { minLength: 1, maxLength: 3 }), k: intBetween(0, 2) }).pipe(
  Arbitrary.map(({ k, parts, s }): Schema.Json => (k === 0 ? s : parts))
)

const reasoningItem = Arbitrary.all({
  summary: Arbitrary.array(Arbitrary.all({ t: text, x: extraField }), { maxLength: 3 }),
  content: intBetween(0, 3),
  t: text,
  encrypted: maybe(pick(["gAAAAABo", "rsn_5ZVr"])),
  status: maybe(pick(["completed", "incomplete"]))
}).pipe(
  Arbitrary.map(({ content, encrypted, status, summary, t }): Item => ({
    type: "reasoning",
    id: fresh("rs"),
    summary: summary.map(({ t, x }) => ({ type: "summary_text", text: t, ...x })),
    ...(content === 0 ? {} : content === 1 ? { content: [{ type: "reasoning_text", text: t === "" ? "thinking" : t }] } : content === 2 ? { content: [{ type: "reasoning_text", text: t }, { type: "reasoning_text", text: "more" }] } : { content: [] }),
    ...defined({ encrypted_content: encrypted, status })
  }))
)

const messageItem = Arbitrary.all({
  parts: Arbitrary.array(Arbitrary.all({ t: text, refusal: intBetween(0, 4), annotations: Arbitrary.array(annotation, { maxLength: 2 }), x: extraField }), { minLength: 1, maxLength: 3 }),
  status: pick(["completed", "in_progress", "incomplete"]),
  phase: maybe(pick(["commentary", "final_answer"]))
}).pipe(
  Arbitrary.map(({ parts, phase, status }): Item => ({
    type: "message",
    id: fresh("msg"),
    role: "assistant",
    status,
    ...defined({ phase }),
    content: parts.map(({ annotations, refusal, t, x }) => (refusal === 0 ? { type: "refusal", refusal: t, ...x } : { type: "output_text", text: t, annotations, ...x }))
  }))
)

const callItem = Arbitrary.all({ name: pick(names), args: argumentText, id: bool, x: extraField, status: maybe(pick(["completed", "in_progress"])) }).pipe(
  Arbitrary.map(({ args, id, name, status, x }): Item => ({ type: "function_call", call_id: fresh("call"), name, arguments: args, ...(id ? { id: fresh("fc") } : {}), ...defined({ status }), ...x }))
)

const outputItem = (callId: string) =>
  Arbitrary.all({ plain: bool, t: text, parts: Arbitrary.array(inputPart, { minLength: 1, maxLength: 3 }), id: bool, x: extraField }).pipe(
    Arbitrary.map(({ id, parts, plain, t, x }): Item => ({ type: "function_call_output", call_id: callId, output: plain ? t : parts, ...(id ? { id: fresh("fco") } : {}), ...x }))
  )

const hostedItem = intBetween(0, 5).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Item> => {
    switch (k) {
      case 0:
        return text.pipe(Arbitrary.map((q): Item => ({ type: "web_search_call", id: fresh("ws"), status: "completed", action: { type: "search", query: q } })))
      case 1:
        return jsonValue.pipe(Arbitrary.map((hit): Item => ({ type: "file_search_call", id: fresh("fs"), status: "completed", queries: ["q"], results: [hit] })))
      case 2:
        return Arbitrary.Constant<Item>({ type: "code_interpreter_call", id: fresh("ci"), status: "completed", code: "print(1+1)", container_id: "cntr_1", outputs: [{ type: "logs", logs: "2\n" }] })
      case 3:
        return argumentText.pipe(Arbitrary.map((args): Item => ({ type: "mcp_call", id: fresh("mcp"), name: "ask_question", arguments: args, server_label: "deepwiki", output: "It is a library.", status: "completed" })))
      case 4:
        return Arbitrary.Constant<Item>({ type: "image_generation_call", id: fresh("ig"), status: "completed", result: "iVBORw0KGgo=", output_format: "webp" })
      default:
        return Arbitrary.Constant<Item>({ type: "item_reference", id: fresh("msg") })
    }
  })
)

const assistantSide: Arbitrary.Arbitrary<Array<Item>> = intBetween(0, 4).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Array<Item>> =>
    k === 0
      ? reasoningItem.pipe(Arbitrary.map((i) => [i]))
      : k === 1
      ? messageItem.pipe(Arbitrary.map((i) => [i]))
      : k === 2
      ? Arbitrary.all({ t: text, phase: maybe(pick(["commentary"])), typed: bool }).pipe(Arbitrary.map(({ phase, t, typed }): Array<Item> => [{ role: "assistant", content: t, ...(typed ? { type: "message" } : {}), ...defined({ phase }) }]))
      : k === 3
      ? hostedItem.pipe(Arbitrary.map((i) => [i]))
      : Arbitrary.array(callItem, { minLength: 1, maxLength: 3 }).pipe(
        Arbitrary.flatMap((calls) =>
          Arbitrary.all(calls.map((c) => outputItem(c["call_id"] as string))).pipe(Arbitrary.map((outputs) => [...calls, ...outputs]))
        )
      )
  )
)

const userSide: Arbitrary.Arbitrary<Array<Item>> = Arbitrary.all({ role: pick(["user", "user", "system", "developer"]), content: inputContent, typed: bool }).pipe(
  Arbitrary.map(({ content, role, typed }): Array<Item> => {
    // system and developer messages hold text only
    const systemContent = Array.isArray(content) ? (content as Array<Item>).filter((p) => p["type"] === "input_text") : content
    const fixed = role === "user" ? content : Array.isArray(systemContent) && systemContent.length === 0 ? "You are terse." : systemContent
    return [{ role, content: fixed, ...(typed ? { type: "message" } : {}) }]
  })
)

/** Responses input items in the forms the adapter writes, with unknown fields and item kinds. */
export const responsesItems: Arbitrary.Arbitrary<Array<Item>> = Arbitrary.array(oneOf([userSide, assistantSide, assistantSide]), { minLength: 1, maxLength: 8 }).pipe(
  Arbitrary.map((chunks) => chunks.flat())
)

// ---------------------------------------------------------------------------
// Gemini
// ---------------------------------------------------------------------------

const G = "gemini"

const signature = maybe(pick(["CpYEAXLI2nxHJhy3F4oMij", "EsEDCr4DAXLI2nzcGUYO9i", "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I="]))

const geminiFile = Arbitrary.all({ k: intBetween(0, 2), name: maybe(pick(["chart.png", "brief.pdf"])) }).pipe(
  Arbitrary.map(({ k, name }) => {
    const named = defined({ filename: name })
    return k === 0
      ? Block.file(Block.base64("iVBORw0KGgo="), "image/png", named)
      : k === 1
      ? Block.file(Block.url("https://generativelanguage.googleapis.com/v1beta/files/abc-123"), "application/pdf", named)
      : Block.file(Block.url("gs://bucket/video.mp4"), "video/mp4", named)
  })
)

/** A content's file, which may carry an image's detail (a media resolution; `auto`, Gemini's default, is sent as none). */
const geminiContentFile = Arbitrary.all({ file: geminiFile, detail: maybe(pick(["low", "high", "original"] as const)) }).pipe(
  Arbitrary.map(({ detail, file }) => (detail === undefined ? file : Block.file(file.source, file.mediaType, { ...defined({ filename: file.filename }), detail })))
)

const geminiText = Arbitrary.all({ t: text, sig: signature, meta: bool }).pipe(
  Arbitrary.map(({ meta, sig, t }) => Block.text(t, { ...defined({ thoughtSignature: sig }), ...po(G, meta ? { partMetadata: { source: "rag" } } : undefined) }))
)

const geminiUser = Arbitrary.array(
  intBetween(0, 3).pipe(
    Arbitrary.flatMap((k): Arbitrary.Arbitrary<Block.UserBlock> =>
      k <= 1 ? geminiText : k === 2 ? geminiContentFile : Arbitrary.Constant(Block.providerData(G, { videoMetadata: { startOffset: "1s" }, toolResponse: { id: "t1" } }))
    )
  ),
  { minLength: 1, maxLength: 3 }
).pipe(Arbitrary.map((blocks) => Message.user(blocks)))

const geminiSystem = Arbitrary.all({ texts: Arbitrary.array(text, { minLength: 1, maxLength: 2 }), role: bool }).pipe(
  Arbitrary.map(({ role, texts }) => Message.system(texts.map((t) => Block.text(t)), po(G, role ? { role: "user" } : undefined)))
)

const geminiThought = Arbitrary.all({ t: text, sig: signature }).pipe(Arbitrary.map(({ sig, t }) => Block.thinking(t, undefined, defined({ thoughtSignature: sig }))))

const geminiLead = Arbitrary.array(
  intBetween(0, 3).pipe(Arbitrary.flatMap((k): Arbitrary.Arbitrary<Block.AssistantBlock> => (k === 0 ? geminiThought : k === 1 ? geminiText : k === 2 ? geminiContentFile : geminiThought))),
  { maxLength: 2 }
)

const geminiCall = Arbitrary.all({ name: pick(names), args: argsObject, sig: signature, x: bool }).pipe(
  Arbitrary.map(({ args, name, sig, x }) =>
    Block.toolCall(fresh("call"), name, args, { ...defined({ thoughtSignature: sig }), ...po(G, x ? { functionCall: { willContinue: false } } : undefined) })
  )
)

/** Tool result content Gemini carries whole: text, a JSON object (not a lone output or error text), files beside either. */
const geminiResultFor = (call: Block.ToolCallBlock): Arbitrary.Arbitrary<Block.ToolResultBlock> =>
  Arbitrary.all({ k: intBetween(0, 3), t: text, value: jsonValue, files: Arbitrary.array(geminiFile, { minLength: 1, maxLength: 2 }), isError: bool }).pipe(
    Arbitrary.map(({ files, isError, k, t, value }) => {
      const object = { result: value }
      switch (k) {
        case 0:
          return Block.toolResult(call.id, call.name, t, isError)
        case 1:
          return Block.toolResult(call.id, call.name, [Block.json(object)])
        case 2:
          return Block.toolResult(call.id, call.name, [Block.text(t), ...files], isError)
        default:
          return Block.toolResult(call.id, call.name, [Block.json(object), ...files])
      }
    })
  )

/** A conversation the Gemini format carries whole. */
export const geminiConversation: Arbitrary.Arbitrary<Array<Message.Message>> = conversationOf({
  system: geminiSystem,
  user: geminiUser,
  lead: geminiLead,
  call: geminiCall,
  resultFor: geminiResultFor,
  answer: Arbitrary.all({ lead: geminiLead, last: geminiText }).pipe(Arbitrary.map(({ last, lead }) => [...lead, last]))
})

// Gemini contents, as the adapter writes them, with unknown fields and part kinds

const geminiPart = intBetween(0, 6).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Item> => {
    switch (k) {
      case 0:
      case 1:
        return Arbitrary.all({ t: text, sig: signature, thought: bool, x: extraField }).pipe(
          Arbitrary.map(({ sig, t, thought, x }): Item => ({ text: t, ...(thought ? { thought: true } : {}), ...defined({ thoughtSignature: sig }), ...x }))
        )
      case 2:
        return pick<ReadonlyArray<Item>>([
          { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
          { inlineData: { mimeType: "audio/wav", data: "UklGRg==", displayName: "memo.wav" }, thoughtSignature: "c2ln" },
          { fileData: { mimeType: "application/pdf", fileUri: "https://generativelanguage.googleapis.com/v1beta/files/abc" } },
          { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" }, mediaResolution: { level: "MEDIA_RESOLUTION_LOW" } },
          { fileData: { mimeType: "image/png", fileUri: "https://example.com/a.png" }, mediaResolution: { level: "MEDIA_RESOLUTION_HIGH" } },
          { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" }, mediaResolution: { level: "MEDIA_RESOLUTION_MEDIUM" } },
          { fileData: { mimeType: "video/mp4", fileUri: "gs://bucket/v.mp4" }, mediaResolution: { level: "MEDIA_RESOLUTION_ULTRA_HIGH", numTokens: 70 } },
          { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" }, mediaResolution: { level: "media_resolution_low" } }
        ])
      case 3:
        return Arbitrary.Constant<Item>({ executableCode: { language: "PYTHON", code: "print(2 + 2)" } })
      case 4:
        return Arbitrary.Constant<Item>({ codeExecutionResult: { outcome: "OUTCOME_OK", output: "4\n" } })
      case 5:
        return Arbitrary.Constant<Item>({ videoMetadata: { startOffset: "2s" }, partMetadata: { k: 1 } })
      default:
        return Arbitrary.Constant<Item>({ text: "", thought: false })
    }
  })
)

const modelCall = Arbitrary.all({ name: pick(names), args: argsObject, id: bool, sig: signature, noArgs: intBetween(0, 5) }).pipe(
  Arbitrary.map(({ args, id, name, noArgs, sig }): Item => ({
    functionCall: { name, ...(noArgs === 0 ? {} : { args }), ...(id ? { id: fresh("call") } : {}) },
    ...defined({ thoughtSignature: sig })
  }))
)

const responsePart = (call: Item): Arbitrary.Arbitrary<Item> => {
  const fc = call["functionCall"] as Item
  return Arbitrary.all({ k: intBetween(0, 4), t: text, value: jsonValue }).pipe(
    Arbitrary.map(({ k, t, value }): Item => {
      const response = k === 0 ? { output: t } : k === 1 ? { error: t } : k === 2 ? { result: value, status: "ok" } : k === 3 ? { return_value: value } : undefined
      return {
        functionResponse: {
          name: fc["name"] as string,
          ...(fc["id"] === undefined ? {} : { id: fc["id"] }),
          ...(response === undefined ? { parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }] } : { response }),
          ...(k === 2 ? { parts: [{ fileData: { mimeType: "application/pdf", fileUri: "gs://b/report.pdf" } }] } : {})
        }
      }
    })
  )
}

const modelTurn: Arbitrary.Arbitrary<Array<Item>> = Arbitrary.all({ lead: Arbitrary.array(geminiPart, { maxLength: 3 }), calls: Arbitrary.array(modelCall, { maxLength: 3 }), split: bool }).pipe(
  Arbitrary.flatMap(({ calls, lead, split }) =>
    Arbitrary.all(calls.map(responsePart)).pipe(
      Arbitrary.map((responses): Array<Item> => {
        const out: Array<Item> = [{ role: "model", parts: [...lead, ...calls] }]
        if (responses.length === 0) return out
        // parallel responses in one content, or one content each (both accepted)
        if (split) for (const r of responses) out.push({ role: "user", parts: [r] })
        else out.push({ role: "user", parts: responses })
        return out
      })
    )
  )
)

const userTurn: Arbitrary.Arbitrary<Array<Item>> = Arbitrary.all({
  parts: Arbitrary.array(geminiPart.pipe(Arbitrary.map((p) => ("thought" in p || "executableCode" in p || "codeExecutionResult" in p ? { text: "plain" } : p))), { minLength: 1, maxLength: 3 }),
  legacy: intBetween(0, 9)
}).pipe(Arbitrary.map(({ legacy, parts }): Array<Item> => [{ role: legacy === 0 ? "function" : "user", parts }]))

/** Gemini `{ systemInstruction, contents }` in the forms the adapter writes, with unknown fields and part kinds. */
export const geminiMessages: Arbitrary.Arbitrary<{ systemInstruction?: Item; contents: Array<Item> }> = Arbitrary.all({
  system: maybe(Arbitrary.all({ texts: Arbitrary.array(text, { minLength: 1, maxLength: 2 }), role: bool }).pipe(
    Arbitrary.map(({ role, texts }): Item => ({ parts: texts.map((t) => ({ text: t })), ...(role ? { role: "user" } : {}) }))
  )),
  turns: Arbitrary.array(oneOf([userTurn, modelTurn]), { minLength: 1, maxLength: 6 })
}).pipe(Arbitrary.map(({ system, turns }) => ({ ...(system === undefined ? {} : { systemInstruction: system }), contents: turns.flat() })))
