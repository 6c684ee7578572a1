/**
 * Provider wire formats: stream accumulators that turn each provider's
 * streamed events back into the response it would have sent without
 * streaming, the wire types of those events and responses, the SSE parser
 * under them, and the tagged errors of a stream that fails.
 *
 * Every concept is a namespace: `Sse`, `StreamError`, `StreamAccumulator`,
 * and per wire format a `…Wire` (types) and a `…Stream` (accumulator):
 * `OpenAiChat`, `Anthropic`, `OpenAiResponses`, `Gemini`. The adapters
 * between the model and a wire format are named after the format
 * (`OpenAiChat`, `Anthropic`, `OpenAiResponses`, `Gemini`), with
 * `Conversion` (their results, warnings and errors) and `ToolArguments`
 * (the tool-argument parser they share); `EffectAi` bridges to effect/ai
 * (`Prompt`, `LanguageModel` responses, `Toolkit`, `Tokenizer`).
 *
 * @since 0.1.0
 */
export * as Anthropic from "./Anthropic.js"
export * as AnthropicStream from "./AnthropicStream.js"
export * as AnthropicWire from "./AnthropicWire.js"
export * as Conversion from "./Conversion.js"
export * as EffectAi from "./EffectAi.js"
export * as Gemini from "./Gemini.js"
export * as GeminiStream from "./GeminiStream.js"
export * as GeminiWire from "./GeminiWire.js"
export * as OpenAiChat from "./OpenAiChat.js"
export * as OpenAiChatStream from "./OpenAiChatStream.js"
export * as OpenAiChatWire from "./OpenAiChatWire.js"
export * as OpenAiResponses from "./OpenAiResponses.js"
export * as OpenAiResponsesStream from "./OpenAiResponsesStream.js"
export * as OpenAiResponsesWire from "./OpenAiResponsesWire.js"
export * as Sse from "./Sse.js"
export * as StreamAccumulator from "./StreamAccumulator.js"
export * as StreamError from "./StreamError.js"
export * as ToolArguments from "./ToolArguments.js"
