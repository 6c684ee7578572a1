/**
 * The adapters against the official SDKs' types, checked by `npm run
 * typecheck`: what `toMessages` / `toRequest` write is assignable to the
 * SDK's request parameters, and the SDK's responses and stream events are
 * accepted by `fromResponse` / `fromEvents`. The SDKs are dev dependencies;
 * nothing under src imports them.
 */
import { describe, expect, it } from "@effect/vitest"
import type * as AnthropicSdk from "@anthropic-ai/sdk/resources/messages"
import type * as AnthropicBeta from "@anthropic-ai/sdk/resources/beta/messages/messages"
import type * as OpenAiChatSdk from "openai/resources/chat/completions"
import { Effect } from "effect"
import { Block, Message, Request } from "../../src/index.js"
import { Anthropic, AnthropicWire, OpenAiChat, OpenAiChatWire } from "../../src/providers/index.js"

// ---------------------------------------------------------------------------
// OpenAI Chat Completions
// ---------------------------------------------------------------------------

/** What the Chat adapter writes is what the SDK's `create` takes. */
export const chatOutputFitsTheSdk = (messages: Array<OpenAiChatWire.MessageParam>, body: OpenAiChatWire.RequestBody) => {
  const params: Array<OpenAiChatSdk.ChatCompletionMessageParam> = messages
  const tools: Array<OpenAiChatSdk.ChatCompletionTool> | undefined = body.tools
  const choice: OpenAiChatSdk.ChatCompletionToolChoiceOption | undefined = body.tool_choice
  const functions: Array<OpenAiChatSdk.ChatCompletionCreateParams.Function> | undefined = body.functions
  const functionCall: OpenAiChatSdk.ChatCompletionCreateParams["function_call"] = body.function_call
  const format: OpenAiChatSdk.ChatCompletionCreateParams["response_format"] = body.response_format
  const create: Omit<OpenAiChatSdk.ChatCompletionCreateParamsNonStreaming, "model"> = { ...body, messages: body.messages }
  return [params, tools, choice, functions, functionCall, format, create]
}

/** What the SDK returns is what the Chat adapter reads. */
export const chatSdkFitsTheDecoders = (completion: OpenAiChatSdk.ChatCompletion, chunks: Array<OpenAiChatSdk.ChatCompletionChunk>) => [
  OpenAiChat.fromResponse(completion),
  OpenAiChat.fromEvents(chunks),
  OpenAiChat.fromMessages([] as Array<OpenAiChatSdk.ChatCompletionMessageParam>)
]

// ---------------------------------------------------------------------------
// Anthropic Messages
// ---------------------------------------------------------------------------

/** What the Anthropic adapter writes is what the SDK's `create` takes. */
export const anthropicOutputFitsTheSdk = (prompt: Anthropic.Prompt, body: AnthropicWire.RequestBody) => {
  const messages: AnthropicSdk.MessageCreateParams["messages"] = prompt.messages
  const system: AnthropicSdk.MessageCreateParams["system"] = prompt.system
  const tools: Array<AnthropicSdk.ToolUnion> | undefined = body.tools
  const choice: AnthropicSdk.ToolChoice | undefined = body.tool_choice
  const betaMessages: Array<AnthropicBeta.BetaMessageParam> = prompt.messages
  const create: Omit<AnthropicSdk.MessageCreateParamsNonStreaming, "model" | "max_tokens"> = { ...body, messages: body.messages }
  return [messages, system, tools, choice, betaMessages, create]
}

/** What the SDK returns is what the Anthropic adapter reads, beta shapes included. */
export const anthropicSdkFitsTheDecoders = (
  message: AnthropicSdk.Message,
  beta: AnthropicBeta.BetaMessage,
  events: Array<AnthropicSdk.RawMessageStreamEvent>,
  betaEvents: Array<AnthropicBeta.BetaRawMessageStreamEvent>
) => [Anthropic.fromResponse(message), Anthropic.fromResponse(beta), Anthropic.fromEvents(events), Anthropic.fromEvents(betaEvents)]

describe("the adapters and the official SDKs", () => {
  it.effect("a converted conversation is handed to the Chat SDK's types without a cast", () =>
    Effect.gen(function* () {
      const { value } = yield* OpenAiChat.toRequest(
        Request.make(
          [
            Message.system("Be brief."),
            Message.user([Block.text("Look"), Block.image("https://example.com/a.png")]),
            Message.assistant([Block.toolCall("call_1", "f", { a: 1 })]),
            Message.toolResultMessage("call_1", "f", "ok")
          ],
          { model: "gpt-4o", tools: [Request.tool("f", { parameters: { type: "object" } })], toolChoice: "auto" }
        )
      )
      const params: OpenAiChatSdk.ChatCompletionCreateParamsNonStreaming = { ...value, model: value.model ?? "gpt-4o" }
      expect(params.messages).toHaveLength(4)
    }))

  it.effect("a converted conversation is handed to the Anthropic SDK's types without a cast", () =>
    Effect.gen(function* () {
      const { value } = yield* Anthropic.toRequest(
        Request.make(
          [
            Message.system("Be brief."),
            Message.user("hi"),
            Message.assistant([Block.thinking("t", "sig"), Block.toolCall("toolu_1", "f", { a: 1 })]),
            Message.toolResultMessage("toolu_1", "f", "ok")
          ],
          { model: "claude-sonnet-4-5", tools: [Request.tool("f", { parameters: { type: "object" } })], toolChoice: "auto" }
        ),
        { maxTokens: 1024 }
      )
      const params: AnthropicSdk.MessageCreateParamsNonStreaming = { ...value, model: value.model ?? "claude-sonnet-4-5", max_tokens: value.max_tokens ?? 1024 }
      expect(params.messages).toHaveLength(3)
    }))
})
