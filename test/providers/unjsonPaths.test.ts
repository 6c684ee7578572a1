/**
 * A value JSON cannot hold (a BigInt, a function) in a list given to a reader is named by its place in the list, as
 * the reader names a value of the wrong type there: `messages[1].content`, not `[1].content`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Anthropic, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

const pathOf = <A, E>(effect: Effect.Effect<A, E>): string | undefined => {
  const exit = Effect.runSyncExit(Effect.flip(effect))
  return Exit.isSuccess(exit) ? (exit.value as { readonly path?: string }).path : "no failure"
}

describe("fromMessages on a list with a value JSON cannot hold", () => {
  it("names its place in the list by the list's own name", () => {
    const list = (bad: unknown) => [{ role: "user", content: "hi" }, { role: "assistant", content: bad }]
    for (const bad of [10n, 5]) {
      expect(pathOf(OpenAiChat.fromMessages(list(bad)))).toBe("messages[1].content")
      expect(pathOf(Anthropic.fromMessages(list(bad)))).toBe("messages[1].content")
      expect(pathOf(OpenAiResponses.fromMessages(list(bad)))).toBe("input[1].content")
    }
  })
})
