/**
 * An explicit Anthropic `cache_control: null` (recorded Anthropic traffic
 * holds it on tool results and tool calls) survives ours -> Prompt -> ours:
 * it is kept as `cacheControl: null` in the Prompt and read back as it was,
 * on a block or a message, so a message's breakpoint is not moved onto a
 * last block that said it has none.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, type Schema } from "effect"
import type { Prompt } from "effect/ai"
import { Block, Message } from "../../src/index.js"
import { Anthropic, EffectAi } from "../../src/providers/index.js"
import { intBetween } from "../arbitraries.js"
import { exact, json, ok } from "./adapterHelpers.js"

const toPrompt = (messages: ReadonlyArray<Message.Message>) => exact(EffectAi.toPrompt(messages))
const fromPrompt = (prompt: Prompt.Prompt) => exact(EffectAi.fromPrompt(prompt))
const roundTrip = (messages: ReadonlyArray<Message.Message>) => fromPrompt(toPrompt(messages))

const ephemeral = { type: "ephemeral" }
const cacheOptions = (cache: Schema.Json) => ({ providerOptions: { anthropic: { cache_control: cache } } })

describe("EffectAi: an explicit cache_control null round-trips through the Prompt", () => {
  it("on a tool result, beside one with a breakpoint", () => {
    const messages = [
      Message.assistant([Block.toolCall("c1", "f", {}), Block.toolCall("c2", "f", {})]),
      Message.tool([Block.toolResult("c1", "f", "a", false, cacheOptions(null)), Block.toolResult("c2", "f", "b", false, cacheOptions(ephemeral))])
    ]
    assert.deepStrictEqual(json(roundTrip(messages)), json(messages))
  })

  it("on a tool call", () => {
    const messages = [Message.assistant([Block.toolCall("c1", "f", { n: 1 }, cacheOptions(null))])]
    assert.deepStrictEqual(json(roundTrip(messages)), json(messages))
  })

  it("on a message", () => {
    const messages = [Message.user([Block.text("hi")], cacheOptions(null))]
    assert.deepStrictEqual(json(roundTrip(messages)), json(messages))
  })

  it("a message's breakpoint stays on the message when its last block says it has none (not moved onto that block)", () => {
    const messages = [
      Message.assistant([Block.toolCall("c1", "f", {}), Block.toolCall("c2", "f", {})]),
      Message.tool([Block.toolResult("c1", "f", "a", false, cacheOptions(ephemeral)), Block.toolResult("c2", "f", "b", false, cacheOptions(null))], cacheOptions(ephemeral))
    ]
    assert.deepStrictEqual(json(roundTrip(messages)), json(messages))
  })

  it("on a system message's lone block: kept on the block, not moved to the message", () => {
    const messages = [Message.system([Block.text("be brief", cacheOptions(null))]), Message.user("hi")]
    assert.deepStrictEqual(json(roundTrip(messages)), json(messages))
  })

  it("a recorded Anthropic request comes back identical through the Prompt", () => {
    const body = {
      model: "claude-3-5-haiku-latest",
      max_tokens: 100,
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_1", name: "f", input: {} }, { type: "tool_use", id: "toolu_2", name: "f", input: {}, cache_control: null }]
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "a", is_error: false, cache_control: null },
            { type: "tool_result", tool_use_id: "toolu_2", content: "b", is_error: false, cache_control: ephemeral }
          ]
        }
      ]
    }
    const request = ok(Anthropic.fromRequest(body)).value
    const back = roundTrip(request.messages)
    assert.deepStrictEqual(ok(Anthropic.toRequest({ ...request, messages: back })).value, ok(Anthropic.toRequest(request)).value)
    assert.deepStrictEqual<unknown>(ok(Anthropic.toRequest(request)).value, body)
  })

  /** absent, explicit null, or a breakpoint */
  const choices: ReadonlyArray<Schema.Json | undefined> = [undefined, null, ephemeral, { type: "ephemeral", ttl: "1h" }]
  const cache = intBetween(0, choices.length - 1).pipe(Arbitrary.map((i) => choices[i]))
  const options = (c: Schema.Json | undefined) => (c === undefined ? {} : cacheOptions(c))
  const result = (i: number, c: Schema.Json | undefined) => Block.toolResult(`c${i}`, "f", `r${i}`, false, options(c))
  const text = (i: number, c: Schema.Json | undefined) => Block.text(`t${i}`, options(c))

  it.prop(
    "ours -> Prompt -> ours keeps every block's and message's cache_control (absent, null or a breakpoint)",
    [Arbitrary.array(cache, { minLength: 1, maxLength: 3 }), cache, Arbitrary.array(cache, { minLength: 1, maxLength: 3 }), cache],
    ([results, onTool, texts, onMessage]) => {
      const messages = [
        Message.system(texts.map((c, i) => text(i, c)), options(onMessage)),
        Message.user(texts.map((c, i) => text(i, c)), options(onMessage)),
        Message.assistant(results.map((_, i) => Block.toolCall(`c${i}`, "f", {}, options(texts[i % texts.length])))),
        Message.tool(results.map((c, i) => result(i, c)), options(onTool))
      ]
      assert.deepStrictEqual(json(roundTrip(messages)), json(messages))
    },
    { arbitrary: { runs: 500 }, timeout: 300_000 }
  )
})
