/**
 * The adapters' payload types against the official SDKs' types. Compile-time
 * checks: `npm run typecheck` fails if what the adapters write stops
 * fitting the SDK's request types, or what the SDKs hand out stops fitting
 * what the adapters read. The SDKs are dev dependencies only.
 */
import { assert, describe, it } from "@effect/vitest"
import type * as GoogleGenai from "@google/genai"
import type * as OpenAiResponsesSdk from "openai/resources/responses/responses"
import { Effect } from "effect"
import { Message } from "../../src/index.js"
import { Gemini, OpenAiResponses } from "../../src/providers/index.js"
import type { GeminiWire, OpenAiResponsesWire } from "../../src/providers/index.js"

const accepts = <T>(_value: T): void => {}

// ---------------------------------------------------------------------------
// OpenAI Responses: what we write is what the SDK takes
// ---------------------------------------------------------------------------

export const responsesOursToSdk = (
  message: OpenAiResponsesWire.InputMessage,
  output: OpenAiResponsesWire.OutputMessageParam,
  call: OpenAiResponsesWire.FunctionCallParam,
  result: OpenAiResponsesWire.FunctionCallOutputParam,
  reasoning: OpenAiResponsesWire.ReasoningParam,
  tool: OpenAiResponsesWire.FunctionTool,
  content: OpenAiResponsesWire.InputContent,
  choice: Exclude<OpenAiResponsesWire.ToolChoiceParam, { type: string }> | { type: "function"; name: string },
  format: OpenAiResponsesWire.TextFormat,
  item: Exclude<OpenAiResponsesWire.InputItem, OpenAiResponsesWire.KeptItem>,
  any: OpenAiResponsesWire.InputItem
) => {
  accepts<OpenAiResponsesSdk.EasyInputMessage>(message)
  accepts<OpenAiResponsesSdk.ResponseOutputMessage>(output)
  accepts<OpenAiResponsesSdk.ResponseFunctionToolCall>(call)
  accepts<OpenAiResponsesSdk.ResponseInputItem.FunctionCallOutput>(result)
  accepts<OpenAiResponsesSdk.ResponseReasoningItem>(reasoning)
  accepts<OpenAiResponsesSdk.FunctionTool>(tool)
  accepts<OpenAiResponsesSdk.ResponseInputContent>(content)
  accepts<OpenAiResponsesSdk.ToolChoiceOptions | OpenAiResponsesSdk.ToolChoiceFunction>(choice)
  accepts<OpenAiResponsesSdk.ResponseFormatTextConfig>(format)
  accepts<OpenAiResponsesSdk.ResponseInputItem>(item)
  // items kept as they were read (hosted tool calls, kinds added after this library) are typed loosely
  // @ts-expect-error a kept item is any `{ type: string }`
  accepts<OpenAiResponsesSdk.ResponseInputItem>(any)
}

// what the SDK hands out is what we read
export const responsesSdkToOurs = (
  input: OpenAiResponsesSdk.ResponseInputItem,
  output: OpenAiResponsesSdk.ResponseOutputItem,
  params: OpenAiResponsesSdk.ResponseCreateParamsNonStreaming,
  response: OpenAiResponsesSdk.Response
) => {
  accepts<OpenAiResponsesWire.InputItemLike>(input)
  accepts<OpenAiResponsesWire.InputItemLike>(output)
  accepts<OpenAiResponsesWire.RequestBodyLike>(params)
  return [OpenAiResponses.fromMessages([input, output]), OpenAiResponses.fromRequest(params), OpenAiResponses.fromResponse(response)]
}

// ---------------------------------------------------------------------------
// Gemini
// ---------------------------------------------------------------------------

export const geminiOursToSdk = (content: GeminiWire.ContentParam, part: GeminiWire.PartParam, messages: GeminiWire.Messages) => {
  accepts<GoogleGenai.Content>(content)
  accepts<GoogleGenai.Part>(part)
  accepts<Array<GoogleGenai.Content>>(messages.contents)
  accepts<GoogleGenai.Content | undefined>(messages.systemInstruction)
}

export const geminiSdkToOurs = (contents: Array<GoogleGenai.Content>, system: GoogleGenai.Content, response: GoogleGenai.GenerateContentResponse) => {
  accepts<GeminiWire.MessagesLike>({ systemInstruction: system, contents })
  return [Gemini.fromMessages({ systemInstruction: system, contents }), Gemini.fromResponse(response)]
}

describe("SDK-typed payloads", () => {
  it("an SDK-typed Responses input goes through the adapter and back", () => {
    const input: Array<OpenAiResponsesSdk.ResponseInputItem> = [
      { role: "user", content: "Weather in Paris?" },
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "{\"city\":\"Paris\"}" },
      { type: "function_call_output", call_id: "call_1", output: "14°C" }
    ]
    const back = Effect.runSync(OpenAiResponses.fromMessages(input).pipe(Effect.flatMap((c) => OpenAiResponses.toMessages(c.value))))
    const typed: Array<OpenAiResponsesSdk.ResponseInputItem> = back.value as Array<OpenAiResponsesSdk.ResponseInputItem>
    assert.deepStrictEqual<unknown>(typed, input)
  })

  it("SDK-typed Gemini contents go through the adapter and back", () => {
    const contents: Array<GoogleGenai.Content> = [
      { role: "user", parts: [{ text: "Weather in Paris?" }] },
      { role: "model", parts: [{ functionCall: { id: "c1", name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "CiQB" }] },
      { role: "user", parts: [{ functionResponse: { id: "c1", name: "get_weather", response: { output: "14°C" } } }] }
    ]
    const back = Effect.runSync(Gemini.fromMessages({ contents }).pipe(Effect.flatMap((c) => Gemini.toMessages(c.value))))
    const typed: Array<GoogleGenai.Content> = back.value.contents
    assert.deepStrictEqual<unknown>(typed, contents)
    assert.strictEqual(Message.textOf(Effect.runSync(Gemini.fromMessages({ contents })).value[0]!), "Weather in Paris?")
  })
})
