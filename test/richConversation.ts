/**
 * Histories rich in what the writers send, leave out or keep for another
 * provider, for the properties that hold `repairFor` and `validateFor` to one
 * story: provider options (`$`, `$$` and plain keys, for every provider) on
 * every block, on tool results' parts and on messages, refusals, files,
 * another provider's server tools and provider data, cache breakpoints.
 */
import { Arbitrary, Schema } from "effect"
import { Block, Message } from "../src/index.js"
import { anthropicConversation, chatConversation } from "./providers/adapterArbitraries.js"
import * as Arb from "./arbitraries.js"

type Options = { readonly [provider: string]: { readonly [key: string]: Schema.Json } }

/** Option bags a block, a part or a message may get, the empty one most often. */
const BAGS: ReadonlyArray<Options | undefined> = [
  undefined,
  undefined,
  undefined,
  { anthropic: { $x: "v" } },
  { anthropic: { $$y: 1 } },
  { anthropic: { plain: "v" } },
  { anthropic: { $: "v", $$: 2 } },
  { anthropic: { $x: 1, $$x: 2 } },
  { anthropic: { $separateMessage: true } },
  { anthropic: { cache_control: { type: "ephemeral" } } },
  { "openai-responses": { $x: 1, status: "completed" } },
  { "openai-chat": { $$x: 1, plain: true } },
  { gemini: { $x: 1, $$y: "v" } }
]

/** Blocks put into an assistant message: what one writer sends and another leaves out. */
let serial = 0
const extraAssistant = (k: number): ReadonlyArray<Block.AssistantBlock> => {
  const n = ++serial
  switch (k) {
    case 0:
      return [Block.refusal("I can't help with that.")]
    case 1: {
      // a web search OpenAI Responses ran
      const id = `ws_${n}`
      return [
        Block.toolCall(id, "web_search", { query: "oslo" }, { providerExecuted: true, itemId: id, providerOptions: { "openai-responses": { status: "completed" } } }),
        Block.toolResult(id, "web_search", [Block.json({ sources: [] })], false, { providerExecuted: true, providerOptions: { "openai-responses": { type: "web_search_call" } } })
      ]
    }
    case 2: {
      // a code execution Gemini ran
      const id = `gc_${n}`
      return [
        Block.toolCall(id, "code_execution", { code: "print(1)" }, { providerExecuted: true, providerOptions: { gemini: { language: "PYTHON" } } }),
        Block.toolResult(id, "code_execution", "1", false, { providerExecuted: true, providerOptions: { gemini: { outcome: "OUTCOME_OK" } } })
      ]
    }
    case 3:
      return [Block.providerData("openai-responses", { type: "image_generation_call", id: `ig_${n}`, status: "completed", result: "iVBORw0K" })]
    case 4:
      return [Block.providerData("gemini", { executableCode: { language: "PYTHON", code: "1" } })]
    case 5:
      return [Block.providerData("anthropic", { type: "container_upload", file_id: `file_${n}` })]
    case 6:
      return [Block.image("https://example.com/chart.png")]
    case 7:
      return [Block.redactedThinking("EmwKAhgBEgy3va3p")]
    case 8:
      return [Block.thinking("Planning.", "EqQBCkgIARAB")]
    case 9:
      // a server tool Anthropic ran
      return [
        Block.toolCall(`srvtoolu_${n}`, "web_search", { query: "q" }, { providerExecuted: true }),
        Block.toolResult(`srvtoolu_${n}`, "web_search", [Block.json([{ type: "web_search_result", url: "https://example.com" }])], false, { providerExecuted: true, providerOptions: { anthropic: { type: "web_search_tool_result" } } })
      ]
    default:
      return []
  }
}

const extraUser = (k: number): ReadonlyArray<Block.UserBlock> => {
  switch (k) {
    case 0:
      return [Block.providerData("anthropic", { type: "container_upload", file_id: "file_01" })]
    case 1:
      return [Block.providerData("openai-chat", { type: "input_audio", input_audio: { data: "UklGRiQ=", format: "wav" } })]
    case 2:
      return [Block.document(Block.textSource("Revenue grew 4%."), { title: "notes" })]
    case 3:
      return [Block.image("data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==")]
    default:
      return []
  }
}

/** Adds the options of `bag` to a block's or a message's own. */
const withBag = <A extends { readonly providerOptions?: Block.ProviderOptions | undefined }>(value: A, bag: Options | undefined): A => {
  if (bag === undefined) return value
  const providerOptions: Record<string, Record<string, Schema.Json>> = { ...value.providerOptions }
  for (const provider of Object.keys(bag)) providerOptions[provider] = { ...providerOptions[provider], ...bag[provider] }
  return Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(value) as object) as A, value, { providerOptions }))
}

/** Which blocks get option bags in one history: all of them, or only the ones of one kind (most of a history then stays plain). */
const TARGETS = ["all", "Refusal", "providerExecuted", "File", "Text", "Thinking", "ProviderData", "parts", "messages", "none"] as const
type Target = (typeof TARGETS)[number]

const targets = (target: Target, block: Block.Block): boolean => {
  switch (target) {
    case "all":
      return true
    case "providerExecuted":
      return (block._tag === "ToolCall" || block._tag === "ToolResult") && block.providerExecuted === true
    case "Thinking":
      return block._tag === "Thinking" || block._tag === "RedactedThinking"
    case "parts":
    case "messages":
    case "none":
      return false
    default:
      return block._tag === target
  }
}

/** A block with a bag of options: on the block, on each of its tool result's parts, in the data of Anthropic provider data. */
const decorated = (block: Block.Block, target: Target, next: () => Options | undefined): Block.Block => {
  const own = targets(target, block)
  switch (block._tag) {
    case "ProviderData": {
      const bag = own ? next() : undefined
      if (bag === undefined || block.provider !== "anthropic") return block
      return Block.providerData("anthropic", { ...block.data, ...bag["anthropic"] })
    }
    case "Json":
      return block
    case "ToolResult": {
      const result = own ? withBag(block, next()) : block
      if (typeof block.content === "string" || !(own || target === "parts")) return result
      const content = block.content.map((part) => (part._tag === "Json" || !(target === "all" || target === "parts" || targets(target, part)) ? part : withBag(part, next())))
      return Block.freeze(new Block.ToolResultBlock({ ...result, content }))
    }
    default:
      return own ? withBag(block, next()) : block
  }
}

/** A copy of a message with this content, and more options. */
const withContent = (m: Message.Message, content: ReadonlyArray<Block.Block>, bag: Options | undefined): Message.Message =>
  withBag(Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(m) as object) as Message.Message, m, { content })), bag)

/** The histories decorated: every kind of base history, each with more blocks and options. */
const bases: Arbitrary.Arbitrary<ReadonlyArray<Message.Message>> = Arb.intBetween(0, 7).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<ReadonlyArray<Message.Message>> => {
    switch (k) {
      case 0:
        return Arb.validConversation
      case 1:
        return Arb.agentConversation
      case 2:
      case 3:
        return anthropicConversation
      case 4:
        return chatConversation
      case 5:
        return Arb.brokenConversation
      case 6:
        return Arbitrary.array(Arb.message, { maxLength: 6 })
      default:
        return Arb.validConversation
    }
  })
)

/**
 * A history rich in what the writers send, leave out or keep for another provider: a base history whose blocks,
 * parts or messages (all, or those of one kind: `TARGETS`) get option bags (`BAGS`, thinned out by `sparse` empty
 * ones for each one drawn), whose assistant and user messages sometimes get more blocks (`extraAssistant`,
 * `extraUser`), at their start or their end.
 */
export const richConversation: Arbitrary.Arbitrary<ReadonlyArray<Message.Message>> = Arbitrary.all({
  base: bases,
  target: Arb.intBetween(0, TARGETS.length - 1),
  sparse: Arb.intBetween(0, 3),
  bags: Arbitrary.array(Arb.intBetween(0, BAGS.length - 1), { minLength: 1, maxLength: 16 }),
  extras: Arbitrary.array(Arb.intBetween(0, 24), { minLength: 1, maxLength: 8 })
}).pipe(
  Arbitrary.map(({ bags, base, extras, sparse, target }) => {
    const kind = TARGETS[target]!
    let k = 0
    let e = 0
    const next = (): Options | undefined => (k++ % (sparse + 1) === 0 ? BAGS[bags[(k / (sparse + 1) | 0) % bags.length]!] : undefined)
    return base.map((m) => {
      const extra = extras[e++ % extras.length]!
      let content: ReadonlyArray<Block.Block> = m.content
      if (m.role === "assistant") {
        const more = extraAssistant(extra % 12)
        content = extra >= 12 ? [...content, ...more] : [...more, ...content]
      } else if (m.role === "user") {
        const more = extraUser(extra % 6)
        content = extra >= 12 ? [...content, ...more] : [...more, ...content]
      }
      const blocks = content.map((block) => decorated(block, kind, next))
      return withContent(m, blocks, kind === "all" || kind === "messages" ? next() : undefined)
    })
  })
)
