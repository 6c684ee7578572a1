/**
 * Our wire types against the official SDKs' types. Mostly compile-time:
 * `npm run typecheck` fails if an SDK event or response stops fitting our
 * types. The SDKs are dev dependencies only; nothing under src imports them.
 *
 * Direction SDK -> ours must always hold (an SDK user can hand us anything
 * their SDK gives them). The reverse holds where our type is as narrow as
 * the SDK's (tool calls, thinking blocks); elsewhere our types are wider on
 * purpose (enumerations as `string`, wire-optional fields optional) and the
 * `@ts-expect-error` lines record that.
 */
import { assert, describe, it } from "@effect/vitest"
import type * as GoogleGenai from "@google/genai"
import type * as AnthropicSdk from "@anthropic-ai/sdk/resources/messages"
import type * as AnthropicBeta from "@anthropic-ai/sdk/resources/beta/messages/messages"
import type * as OpenAiChatSdk from "openai/resources/chat/completions"
import type * as OpenAiResponsesSdk from "openai/resources/responses/responses"
import { Result } from "effect"
import { AnthropicStream, AnthropicWire, GeminiStream, GeminiWire, OpenAiChatStream, OpenAiChatWire, OpenAiResponsesStream, OpenAiResponsesWire } from "../../src/providers/index.js"

const accepts = <T>(_value: T): void => {}

// ---------------------------------------------------------------------------
// OpenAI Chat Completions
// ---------------------------------------------------------------------------

export const chatSdkToOurs = (chunk: OpenAiChatSdk.ChatCompletionChunk, completion: OpenAiChatSdk.ChatCompletion) => {
  OpenAiChatStream.make().push(chunk)
  accepts<OpenAiChatWire.ChatCompletionChunk>(chunk)
  accepts<OpenAiChatWire.ChatCompletion>(completion)
  accepts<OpenAiChatWire.Message>(completion.choices[0]!.message)
  accepts<OpenAiChatWire.Usage | undefined>(completion.usage)
}

export const chatOursToSdk = (call: OpenAiChatWire.ToolCall, fn: OpenAiChatWire.FunctionToolCall, completion: OpenAiChatWire.ChatCompletion) => {
  accepts<OpenAiChatSdk.ChatCompletionMessageToolCall>(call)
  accepts<OpenAiChatSdk.ChatCompletionMessageFunctionToolCall>(fn)
  // finish_reason is `string | null` here (a snapshot may be unfinished; the API adds reasons)
  // @ts-expect-error our completion is wider than the SDK's
  accepts<OpenAiChatSdk.ChatCompletion>(completion)
}

// ---------------------------------------------------------------------------
// Anthropic Messages
// ---------------------------------------------------------------------------

export const anthropicSdkToOurs = (
  event: AnthropicSdk.RawMessageStreamEvent,
  beta: AnthropicBeta.BetaRawMessageStreamEvent,
  message: AnthropicSdk.Message,
  betaMessage: AnthropicBeta.BetaMessage
) => {
  const acc = AnthropicStream.make()
  acc.push(event)
  acc.push(beta)
  accepts<AnthropicWire.StreamEvent>(event)
  accepts<AnthropicWire.Message>(message)
  accepts<AnthropicWire.Message>(betaMessage)
  accepts<AnthropicWire.ContentBlock>(message.content[0]!)
  accepts<AnthropicWire.Usage>(message.usage)
}

export const anthropicOursToSdk = (thinking: AnthropicWire.ThinkingBlock, redacted: AnthropicWire.RedactedThinkingBlock, message: AnthropicWire.Message) => {
  accepts<AnthropicSdk.ThinkingBlock>(thinking)
  accepts<AnthropicSdk.RedactedThinkingBlock>(redacted)
  accepts<AnthropicSdk.ThinkingBlockParam>(thinking)
  accepts<AnthropicSdk.RedactedThinkingBlockParam>(redacted)
  // the wire omits `citations`, `caller`, `container` that the SDK declares as always present
  // @ts-expect-error our message is wider than the SDK's
  accepts<AnthropicSdk.Message>(message)
}

// ---------------------------------------------------------------------------
// OpenAI Responses
// ---------------------------------------------------------------------------

export const responsesSdkToOurs = (event: OpenAiResponsesSdk.ResponseStreamEvent, response: OpenAiResponsesSdk.Response, item: OpenAiResponsesSdk.ResponseOutputItem) => {
  OpenAiResponsesStream.make().push(event)
  accepts<OpenAiResponsesWire.StreamEvent>(event)
  accepts<OpenAiResponsesWire.Response>(response)
  accepts<OpenAiResponsesWire.OutputItem>(item)
  accepts<OpenAiResponsesWire.Usage | null | undefined>(response.usage)
  accepts<string>(OpenAiResponsesStream.outputText(response))
}

export const responsesOursToSdk = (refusal: OpenAiResponsesWire.Refusal, response: OpenAiResponsesWire.Response) => {
  accepts<OpenAiResponsesSdk.ResponseOutputRefusal>(refusal)
  // @ts-expect-error statuses and error codes are `string` here; `output_text` is an SDK-only convenience
  accepts<OpenAiResponsesSdk.Response>(response)
}

// ---------------------------------------------------------------------------
// Gemini
// ---------------------------------------------------------------------------

export const geminiSdkToOurs = (chunk: GoogleGenai.GenerateContentResponse, candidate: GoogleGenai.Candidate, content: GoogleGenai.Content, part: GoogleGenai.Part) => {
  GeminiStream.make().push(chunk)
  accepts<GeminiWire.GenerateContentResponse>(chunk)
  accepts<GeminiWire.Candidate>(candidate)
  accepts<GeminiWire.Content>(content)
  accepts<GeminiWire.Part>(part)
}

export const geminiOursToSdk = (response: GeminiWire.GenerateContentResponse) => {
  // the SDK's response is a class with computed getters (`text`, `functionCalls`)
  // @ts-expect-error a plain response object is not the SDK class
  accepts<GoogleGenai.GenerateContentResponse>(response)
}

// ---------------------------------------------------------------------------
// runtime: values typed by the SDKs go through our accumulators
// ---------------------------------------------------------------------------

describe("SDK-typed values", () => {
  it("an SDK-typed Chat chunk sequence accumulates into a completion", () => {
    const chunks: Array<OpenAiChatSdk.ChatCompletionChunk> = [
      { id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o", choices: [{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }] },
      { id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }
    ]
    const acc = OpenAiChatStream.make()
    for (const chunk of chunks) acc.push(chunk)
    const result = acc.done()
    assert.isTrue(Result.isSuccess(result))
    if (Result.isSuccess(result)) assert.strictEqual(result.success.choices[0]?.message.content, "Hi")
  })

  it("SDK-typed Anthropic events accumulate into a message the SDK type describes", () => {
    const events: Array<AnthropicSdk.RawMessageStreamEvent> = [
      {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5",
          content: [],
          container: null,
          diagnostics: null,
          stop_details: null,
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1, cache_creation: null, cache_creation_input_tokens: null, cache_read_input_tokens: null, inference_geo: null, output_tokens_details: null, server_tool_use: null, service_tier: null, speed: null }
        }
      },
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Hmm." } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null, container: null, stop_details: null },
        usage: { output_tokens: 9, input_tokens: null, cache_creation_input_tokens: null, cache_read_input_tokens: null, output_tokens_details: null, server_tool_use: null }
      },
      { type: "message_stop" }
    ]
    const result = AnthropicStream.make()
    for (const event of events) result.push(event)
    const done = result.done()
    assert.isTrue(Result.isSuccess(done))
    if (Result.isSuccess(done)) {
      assert.deepStrictEqual(done.success.content, [{ type: "thinking", thinking: "Hmm.", signature: "sig" }])
      assert.strictEqual(done.success.usage.input_tokens, 5)
      assert.strictEqual(done.success.usage.output_tokens, 9)
    }
  })
})
