/**
 * Gemini bodies in snake_case, the other spelling proto3 JSON allows (what
 * Python clients send): a body written in lowerCamelCase with its protocol
 * fields renamed, and never the data inside (`args`, `response`, schemas).
 */

/** The protocol objects of a Gemini body: for each field, the layout of the object it holds, of each item of the list it holds, or `"leaf"` (nothing inside is a field). */
interface Layout {
  readonly [field: string]: Layout | { readonly each: Layout } | "leaf"
}

const file: Layout = { mimeType: "leaf", fileUri: "leaf", displayName: "leaf", data: "leaf" }

const part: Layout = {
  thoughtSignature: "leaf",
  functionCall: { id: "leaf", name: "leaf", args: "leaf" },
  functionResponse: { id: "leaf", name: "leaf", response: "leaf", parts: { each: { inlineData: file, fileData: file } } },
  inlineData: file,
  fileData: file,
  executableCode: "leaf",
  codeExecutionResult: "leaf"
}

const content: Layout = { parts: { each: part } }

const body: Layout = {
  systemInstruction: content,
  contents: { each: content },
  tools: { each: { functionDeclarations: { each: { parametersJsonSchema: "leaf", parameters: "leaf" } } } },
  toolConfig: { functionCallingConfig: { allowedFunctionNames: "leaf" } },
  generationConfig: { responseMimeType: "leaf", responseJsonSchema: "leaf", maxOutputTokens: "leaf", topP: "leaf", thinkingConfig: "leaf" }
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** Sets an own property, `__proto__` too (the generated data uses that name). */
const set = (o: Record<string, unknown>, k: string, v: unknown): void => {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true })
}

const renamed = (value: unknown, layout: Layout): unknown => {
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const inner = Object.hasOwn(layout, k) ? layout[k] : undefined
    if (inner === undefined) set(out, k, v)
    else if (inner === "leaf") set(out, snake(k), v)
    else if ("each" in inner && typeof inner.each === "object") set(out, snake(k), Array.isArray(v) ? v.map((item) => renamed(item, inner.each as Layout)) : v)
    else set(out, snake(k), renamed(v, inner as Layout))
  }
  return out
}

/**
 * A Gemini body (`{ systemInstruction, contents }`, or a request body) with
 * every protocol field the adapter reads written in snake_case; fields of
 * unknown kinds are left as they are.
 */
export const snakeCased = <A>(input: A): A => renamed(input, body) as A

/** Messages as JSON without the Gemini adapter's note of the spelling they were read in (`$snakeCase`). */
export const unspelled = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(unspelled)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (k === "$snakeCase") continue
    const inner = unspelled(v)
    // an options record that held only the note
    if ((k === "gemini" || k === "providerOptions") && typeof inner === "object" && inner !== null && Object.keys(inner).length === 0) continue
    set(out, k, inner)
  }
  return out
}

/**
 * A response or stream chunk with every field in snake_case, as a Python
 * client records one (`finish_reason`, `usage_metadata`, `thought_signature`,
 * `partial_args`...); a function call's `args` are its data, left as they are.
 */
export const snakeCasedResponse = <A>(input: A): A => {
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename)
    if (!isObject(value)) return value
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) set(out, snake(k), k === "args" ? v : rename(v))
    return out
  }
  return rename(input) as A
}
