/**
 * effect-agent-messages: the message layer of an LLM agent on Effect 4.
 *
 * Every concept is a namespace: `Block`, `Message`, `Conversation`,
 * `ValidationError`, `Repair`, `TokenEstimator`, `Calibration`, `Provider`,
 * `Request`, `MessageWindow`, `Summarizer`, `ConversationContext`, and
 * `GeminiEstimator` (token estimates fitted for Gemini).
 *
 * @since 0.1.0
 */
export * as Block from "./Block.js"
export * as Calibration from "./Calibration.js"
export * as Conversation from "./Conversation.js"
export * as ConversationContext from "./ConversationContext.js"
export * as GeminiEstimator from "./GeminiEstimator.js"
export * as Message from "./Message.js"
export * as MessageWindow from "./MessageWindow.js"
export * as Provider from "./Provider.js"
export * as Request from "./Request.js"
export * as Summarizer from "./Summarizer.js"
export * as Repair from "./Repair.js"
export * as TokenEstimator from "./TokenEstimator.js"
export * as ValidationError from "./ValidationError.js"
