/**
 * The warning for a message left out because nothing in it could be carried
 * says why in the words true of its target and role: Responses has no item
 * for it (it rejects nothing), Chat Completions needs content or tool calls
 * in an assistant message, Anthropic takes an empty assistant message only
 * as the last, Gemini rejects a content without parts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Message } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

type Warning = { readonly _tag: string; readonly message: string }

/** The whole-message warnings, in order. */
const leftOut = (warnings: ReadonlyArray<Warning>): Array<string> =>
  warnings.filter((w) => w._tag === "DroppedContent" && / message was left out: /.test(w.message)).map((w) => w.message)

// each message has one block its target cannot carry: another provider's data
const foreign = (provider: string) => [Block.providerData(provider, { type: "x" })] as const

describe("the reason a message was left out, per target and role", () => {
  it.effect("Chat Completions", () =>
    Effect.gen(function*() {
      const { warnings } = yield* OpenAiChat.toMessages([Message.user("hi"), Message.user(foreign("anthropic")), Message.assistant(foreign("anthropic")), Message.user("again")])
      expect(leftOut(warnings)).toEqual([
        "messages[1]: the user message was left out: nothing in it could be carried, and Chat Completions rejects an empty content list",
        "messages[2]: the assistant message was left out: nothing in it could be carried, and Chat Completions needs content or tool calls"
      ])
    }))

  it.effect("Responses: no item, for an assistant message as for a user message", () =>
    Effect.gen(function*() {
      const { warnings } = yield* OpenAiResponses.toMessages([
        Message.user("hi"),
        Message.user(foreign("anthropic")),
        Message.assistant([Block.redactedThinking("RED")]),
        Message.user("again")
      ])
      expect(leftOut(warnings)).toEqual([
        "messages[1]: the user message was left out: nothing in it could be carried, and Responses has no item for it",
        "messages[2]: the assistant message was left out: nothing in it could be carried, and Responses has no item for it"
      ])
      expect(warnings.some((w) => w.message.includes("Responses rejects"))).toBe(false)
    }))

  it.effect("Anthropic", () =>
    Effect.gen(function*() {
      const { warnings } = yield* Anthropic.toMessages([Message.user("hi"), Message.assistant(foreign("gemini")), Message.user(foreign("gemini")), Message.assistant("ok"), Message.user("again")])
      expect(leftOut(warnings)).toEqual([
        "messages[1]: the assistant message was left out: nothing in it could be carried, and Anthropic takes an empty assistant message only as the last",
        "messages[2]: the user message was left out: nothing in it could be carried, and Anthropic rejects an empty message"
      ])
    }))

  it.effect("Gemini", () =>
    Effect.gen(function*() {
      const { warnings } = yield* Gemini.toMessages([Message.user("hi"), Message.assistant(foreign("anthropic")), Message.user(foreign("anthropic")), Message.assistant("ok"), Message.user("again")])
      expect(leftOut(warnings)).toEqual([
        "messages[1]: the assistant message was left out: nothing in it could be carried, and Gemini rejects a content without parts",
        "messages[2]: the user message was left out: nothing in it could be carried, and Gemini rejects a content without parts"
      ])
    }))
})
