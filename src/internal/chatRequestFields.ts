/**
 * The fields of a Chat Completions request body that the adapter
 * (`OpenAiChat.toRequest`) and the estimator's rendering of a request
 * (`chatRequestOf`) write the same way: the response format and a tool
 * choice that names a tool. Kept here so the two cannot drift apart.
 *
 * @internal
 */
import type { Schema } from "effect"
import * as Block from "../Block.js"
import type * as Request from "../Request.js"

/** `response_format` of a request's response format. */
export const chatResponseFormat = (format: Request.ResponseFormat): Schema.Json => {
  switch (format._tag) {
    case "Text":
      return { type: "text" }
    case "JsonObject":
      return { type: "json_object" }
    case "JsonSchema":
      return {
        type: "json_schema",
        json_schema: {
          name: format.name,
          schema: format.schema,
          ...(format.description === undefined ? {} : { description: format.description }),
          ...(format.strict === undefined ? {} : { strict: format.strict })
        }
      }
    default:
      return Block.absurd(format)
  }
}

/** `tool_choice` naming one tool: a custom tool's form when that tool is a custom (free-text) one. */
export const chatNamedToolChoice = (name: string, custom: boolean): Schema.Json =>
  custom ? { type: "custom", custom: { name } } : { type: "function", function: { name } }
