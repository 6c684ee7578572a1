/**
 * The fields of an OpenAI request body written the same way in more than one
 * place: the response format (the Responses adapter's `text.format`, the Chat
 * adapter's and the estimator's `response_format`, which nests the same
 * fields) and a tool choice that names a tool (`OpenAiChat.toRequest` and the
 * estimator's rendering of a request, `chatRequestOf`). Kept here so they
 * cannot drift apart.
 *
 * @internal
 */
import type { Schema } from "effect"
import * as Block from "../Block.js"
import type * as Request from "../Request.js"

/** A response format as OpenAI writes it flat (the Responses API's `text.format`). */
export type OpenAiResponseFormat =
  | { readonly type: "text" }
  | { readonly type: "json_object" }
  | {
    readonly type: "json_schema"
    readonly name: string
    readonly schema: Block.JsonObject
    readonly description?: string
    readonly strict?: boolean
  }

/** The flat form of a request's response format. */
export const openAiResponseFormat = (format: Request.ResponseFormat): OpenAiResponseFormat => {
  switch (format._tag) {
    case "Text":
      return { type: "text" }
    case "JsonObject":
      return { type: "json_object" }
    case "JsonSchema":
      return {
        type: "json_schema",
        name: format.name,
        schema: format.schema,
        ...(format.description === undefined ? {} : { description: format.description }),
        ...(format.strict === undefined ? {} : { strict: format.strict })
      }
    default:
      return Block.absurd(format)
  }
}

/** Chat's `response_format`: the same fields, a JSON schema's under `json_schema`. */
export const chatResponseFormat = (format: Request.ResponseFormat): Schema.Json => {
  const flat = openAiResponseFormat(format)
  if (flat.type !== "json_schema") return flat
  const { type, ...jsonSchema } = flat
  return { type, json_schema: jsonSchema }
}

/** `tool_choice` naming one tool: a custom tool's form when that tool is a custom (free-text) one. */
export const chatNamedToolChoice = (name: string, custom: boolean): Schema.Json =>
  custom ? { type: "custom", custom: { name } } : { type: "function", function: { name } }

/**
 * A message's participant name as Chat Completions sends it: each character outside `[a-zA-Z0-9_-]` (the API's
 * pattern) as `_`, and an empty name not at all.
 */
export const chatParticipantName = (name: string | undefined): string | undefined =>
  name === undefined || name === "" ? undefined : name.replace(/[^a-zA-Z0-9_-]/g, "_")

/**
 * The `input_audio` format Chat Completions takes for an audio file's bare
 * media type (wav or mp3), or `undefined` for one it does not: the writer
 * leaves that file out, and the estimate does too.
 */
export const chatAudioFormat = (mediaType: string): "wav" | "mp3" | undefined => {
  switch (mediaType) {
    case "audio/wav":
    case "audio/x-wav":
    case "audio/wave":
      return "wav"
    case "audio/mpeg":
    case "audio/mp3":
      return "mp3"
    default:
      return undefined
  }
}
