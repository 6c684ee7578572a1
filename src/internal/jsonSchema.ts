/**
 * Where a JSON Schema holds other schemas, for the code that rewrites one
 * schema node by node (the response-format schema the OpenAI prompt shows,
 * Gemini's OpenAPI type names).
 *
 * @internal
 */
import { defineOwn } from "./json.js"

/** Keywords whose value is a map from names to schemas. */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"])

/** Keywords whose value is a schema. */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(["items", "additionalProperties", "not", "contains", "if", "then", "else", "propertyNames", "additionalItems", "unevaluatedProperties", "unevaluatedItems"])

/** Keywords whose value is a list of schemas. */
export const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(["anyOf", "oneOf", "allOf", "prefixItems"])

/** What `field` returns to leave a keyword out of the copy. */
export const OMIT: unique symbol = Symbol("effect-agent-messages/jsonSchema/OMIT")

/** Whether a value is a JSON object (not an array). */
export const isRecord = (u: unknown): u is { readonly [key: string]: unknown } => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A copy of one schema node: each keyword's value passed through `field`
 * (`OMIT` leaves the keyword out), then each schema it holds (by the
 * keywords above) through `visit`. Names are never taken for keywords (a
 * property called `type` or `required` is a name), and nothing inside
 * `enum`, `const`, `default` or `examples` is visited.
 */
export const mapSubschemas = (
  node: { readonly [key: string]: unknown },
  visit: (schema: unknown) => unknown,
  field: (key: string, value: unknown) => unknown = (_key, value) => value
): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [key, raw] of Object.entries(node)) {
    const value = field(key, raw)
    if (value === OMIT) continue
    if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
      const map: Record<string, unknown> = {}
      for (const [name, schema] of Object.entries(value)) defineOwn(map, name, visit(schema))
      defineOwn(out, key, map)
    } else if (SCHEMA_KEYWORDS.has(key)) {
      defineOwn(out, key, visit(value))
    } else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
      defineOwn(out, key, value.map(visit))
    } else {
      defineOwn(out, key, value)
    }
  }
  return out
}
