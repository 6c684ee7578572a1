/**
 * A message of no content, which Anthropic takes inside a run of its role (it merges the run into one message) and
 * refuses alone. The window read units from roles alone, so it kept such a message alone: as the newest user message
 * (dropping the question before it), after a cut inside its run, or as the first user message `pinFirstUser` keeps.
 */
import { describe, expect, it } from "@effect/vitest"
import { Conversation, Message } from "../src/index.js"
import { fitSync, window } from "./windowCheck.js"

const fitted = (messages: ReadonlyArray<Message.Message>, budget: number, options: Parameters<typeof window.fit>[2] = {}) => {
  const result = fitSync(window, messages, budget, { provider: "anthropic", ...options })
  if (result._tag === "Failure") return result.failure._tag === "BudgetTooSmall" ? `minimum ${result.failure.minimumBudget}` : result.failure._tag
  const output = result.success.messages
  expect(Conversation.issuesFor("anthropic", output)).toEqual([])
  return output.map((m) => `${m.role}:${m.content.length === 0 ? "" : Message.textOf(m).slice(0, 8)}`)
}

describe("the window and messages of no content (Anthropic)", () => {
  it("keeps the newest user message's run whole", () => {
    const messages = [Message.user("Earlier question"), Message.assistant("Earlier answer"), Message.user("What is 2+2?"), Message.user([])]
    expect(Conversation.issuesFor("anthropic", messages)).toEqual([])
    const least = fitted(messages, 1)
    expect(least).toMatch(/^minimum \d+$/)
    const minimum = Number((least as string).slice("minimum ".length))
    expect(fitted(messages, minimum)).toEqual(["user:What is ", "user:"])
  })

  it("never cuts inside a run so as to keep its empty message alone", () => {
    const messages = [Message.user("a ".repeat(5)), Message.assistant("b ".repeat(5)), Message.user("c ".repeat(5)), Message.user([]), Message.assistant("d"), Message.user("e")]
    for (let budget = 5; budget <= 40; budget++) {
      const out = fitted(messages, budget)
      if (Array.isArray(out)) expect(out[0]).not.toBe("user:")
    }
  })

  it("pins the first user message with content as the task, not an empty one before it", () => {
    const messages = [Message.user([]), Message.user("the task: ".repeat(3)), Message.assistant("d ".repeat(10)), Message.user("e")]
    const least = fitted(messages, 1, { pinFirstUser: true }) as string
    const out = fitted(messages, Number(least.slice("minimum ".length)), { pinFirstUser: true })
    expect(out).toContain("user:the task")
    expect(out[0]).not.toBe("user:")
  })
})
