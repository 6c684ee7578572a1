/**
 * JSON parsing that never throws, for payloads that arrive from the wire.
 */
import { depthError } from "../../internal/json.js"

/** The value `parseData` returns for text that is not JSON. */
export const invalid: unique symbol = Symbol("effect-agent-messages/invalid-json")

/** `JSON.parse` that returns `invalid` instead of throwing, and for text nested too deep to be read (see `depthError`). */
export const parseData = (text: string): unknown => {
  if (depthError(text) !== undefined) return invalid
  try {
    return JSON.parse(text)
  } catch {
    return invalid
  }
}

/** The first characters of a text, for error messages. */
export const preview = (text: string, max = 80): string => (text.length <= max ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, max))}… (${text.length} characters)`)
