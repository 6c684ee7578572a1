/**
 * Type tests, checked by `npm run typecheck`: the error channel of each
 * provider's validator is exactly the generic issues plus that provider's
 * own, and a conversation validated for a provider counts as validated.
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Effect } from "effect"
import { Conversation, Message } from "../src/index.js"
import type { ValidationError } from "../src/index.js"

const messages: ReadonlyArray<Message.Message> = [Message.user("hi")]

const generic = {
  EmptyToolCallId: () => Effect.void,
  EmptyToolName: () => Effect.void,
  DuplicateToolCallId: () => Effect.void,
  EmptyMessage: () => Effect.void,
  EmptyConversation: () => Effect.void,
  OrphanToolResult: () => Effect.void,
  MissingToolResult: () => Effect.void,
  DuplicateToolResult: () => Effect.void,
  ConsecutiveRole: () => Effect.void
} as const

describe("validateFor's error channel", () => {
  it("openai-chat: the generic issues plus arguments that are not a JSON object", () => {
    const handled = Conversation.validateFor("openai-chat")(messages).pipe(
      Effect.asVoid,
      Effect.catchTags({ ...generic, MalformedToolArguments: () => Effect.void, UnsupportedMediaType: () => Effect.void })
    )
    expectTypeOf(handled).toEqualTypeOf<Effect.Effect<void, never>>()
  })

  it("anthropic: the generic issues plus Anthropic's own", () => {
    const handled = Conversation.validateFor("anthropic")(messages).pipe(
      Effect.asVoid,
      Effect.catchTags({
        ...generic,
        MissingThinkingSignature: () => Effect.void,
        EmptyRedactedThinking: () => Effect.void,
        ThinkingNotFirst: () => Effect.void,
        EmptyTextBlock: () => Effect.void,
        TrailingWhitespacePrefill: () => Effect.void,
        TextAfterToolCalls: () => Effect.void,
        ThinkingWhileDisabled: () => Effect.void,
        PrefillNotSupported: () => Effect.void,
        TooManyCacheBreakpoints: () => Effect.void,
        LoneSurrogate: () => Effect.void,
        UnsupportedMediaType: () => Effect.void,
        MediaTypeMismatch: () => Effect.void,
        UnknownMessageField: () => Effect.void
      })
    )
    expectTypeOf(handled).toEqualTypeOf<Effect.Effect<void, never>>()
    // a Gemini issue is not in Anthropic's channel
    expectTypeOf<ValidationError.IssueFor<"anthropic">>().not.toMatchTypeOf<ValidationError.SystemNotAtStart>()
  })

  it("gemini: the generic issues plus Gemini's own", () => {
    const handled = Conversation.validateFor("gemini")(messages).pipe(
      Effect.asVoid,
      Effect.catchTags({
        ...generic,
        SystemNotAtStart: () => Effect.void,
        MisplacedFunctionCall: () => Effect.void,
        MissingThoughtSignature: () => Effect.void,
        UnsupportedMediaType: () => Effect.void
      })
    )
    expectTypeOf(handled).toEqualTypeOf<Effect.Effect<void, never>>()
  })

  it("openai-responses: the generic issues plus the Responses API's own", () => {
    const handled = Conversation.validateFor("openai-responses")(messages).pipe(
      Effect.asVoid,
      Effect.catchTags({
        ...generic,
        ReasoningWithoutOutput: () => Effect.void,
        TextBetweenCallAndOutput: () => Effect.void,
        MissingEncryptedContent: () => Effect.void,
        MalformedToolArguments: () => Effect.void,
        DuplicateItemId: () => Effect.void,
        MissingReasoningItem: () => Effect.void,
        UnsupportedMediaType: () => Effect.void
      })
    )
    expectTypeOf(handled).toEqualTypeOf<Effect.Effect<void, never>>()
  })

  it("the generic validator fails with exactly the generic issues", () => {
    const handled = Conversation.validate(messages).pipe(Effect.asVoid, Effect.catchTags(generic))
    expectTypeOf(handled).toEqualTypeOf<Effect.Effect<void, never>>()
  })
})

describe("Validated brands", () => {
  it("a conversation validated for a provider that applies every generic rule is accepted where a generically validated one is required", () => {
    const needsValidated = (v: Conversation.Validated) => v.length
    const needsChat = (v: Conversation.Validated<"openai-chat">) => v.length
    const needsAnthropic = (v: Conversation.Validated<"anthropic">) => v.length
    const program = Conversation.validateFor("openai-chat")(messages).pipe(Effect.map((v) => needsValidated(v) + needsChat(v)))
    expectTypeOf(program).toEqualTypeOf<Effect.Effect<number, ValidationError.IssueFor<"openai-chat">>>()
    const fromAnthropic = Conversation.validateFor("anthropic")(messages).pipe(
      // @ts-expect-error Anthropic's profile relaxes ConsecutiveRole: validated for it is not generically valid
      Effect.map((v) => needsValidated(v) + needsAnthropic(v))
    )
    expect(fromAnthropic).toBeDefined()
    const fromGemini = Conversation.validateFor("gemini")(messages).pipe(
      // @ts-expect-error validated for Gemini is not validated for Anthropic
      Effect.map((v) => needsAnthropic(v))
    )
    const fromGeneric = Conversation.validate(messages).pipe(
      // @ts-expect-error validated for the generic rules is not validated for Anthropic
      Effect.map((v) => needsAnthropic(v))
    )
    expect([fromGemini, fromGeneric].length).toBe(2)
  })
})
