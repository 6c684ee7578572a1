/**
 * Which tool settings a request body may still carry once the tools the
 * target cannot take were left out. Providers reject a tool choice (and
 * OpenAI a parallel-call setting) without tools, and a named choice of a
 * tool they were not given: when every tool the request had was left out,
 * both go; when the named tool was, the choice goes. A request that had no
 * tools to begin with keeps its settings here; each writer then applies its
 * own provider's rule for settings without tools (the OpenAI writers leave
 * them out, reported). One rule for the writers (which
 * report what goes) and the estimator's renderings (which must count the
 * body the writers send), in a module small enough for the estimator.
 *
 * @internal
 */
import type * as Request from "../Request.js"

export interface KeptToolSettings {
  readonly toolChoice: Request.ToolChoice | undefined
  readonly parallelToolCalls: boolean | undefined
  /** What was left out: nothing, both settings (every tool went), or the named choice. */
  readonly leftOut: "nothing" | "all" | "choice"
}

export const keptToolSettings = (
  request: { readonly tools?: ReadonlyArray<{ readonly name: string }> | undefined; readonly toolChoice?: Request.ToolChoice | undefined; readonly parallelToolCalls?: boolean | undefined },
  written: { readonly names: ReadonlyArray<string>; readonly any: boolean }
): KeptToolSettings => {
  const { parallelToolCalls, toolChoice } = request
  if ((request.tools?.length ?? 0) === 0) return { toolChoice, parallelToolCalls, leftOut: "nothing" }
  if (!written.any) return { toolChoice: undefined, parallelToolCalls: undefined, leftOut: "all" }
  if (typeof toolChoice === "object" && !written.names.includes(toolChoice.name)) return { toolChoice: undefined, parallelToolCalls, leftOut: "choice" }
  return { toolChoice, parallelToolCalls, leftOut: "nothing" }
}
