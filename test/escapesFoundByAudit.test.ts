/**
 * Characters a message must not carry raw, beyond the C0 controls it escaped before: DEL and the C1 controls (U+009B
 * starts a terminal escape sequence as ESC [ does, U+0085 breaks a line), the line and paragraph separators, and the
 * marks that reorder text on screen. An audit found them raw in decode errors, validation issues and the command
 * line's output, and a file name written raw into the command line's stderr.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Conversation, Message } from "../src/index.js"
import { inputName } from "../src/cli/Input.js"

const HOSTILE = "a\u0085b\u009b31mc\u008dd\u2028e\u202ef\u061cg\u007fh"
const RAW = /[\x7f-\x9f\u061c\u2028\u2029\u202a-\u202e\u2066-\u2069]/

describe("messages escape control and reordering characters", () => {
  it("in validation issues, quoted or not", () => {
    const messages = [
      Message.user("q"),
      Message.assistant([Block.toolCall(HOSTILE, HOSTILE, {}), Block.toolCall(HOSTILE, "", {})]),
      Message.tool([Block.toolResult("other" + HOSTILE, HOSTILE, "x")])
    ]
    const issues = Conversation.issuesOf(messages)
    expect(issues.length).toBeGreaterThan(2)
    for (const issue of issues) expect(issue.message).not.toMatch(RAW)
    expect(issues.map((i) => i.message).join("\n")).toContain("a\\u0085b\\u009b31mc")
  })

  it.effect("in decode errors", () =>
    Effect.gen(function*() {
      for (const input of [{ role: HOSTILE, content: [] }, { role: "user", content: "x", [HOSTILE]: 1 }]) {
        const error = yield* Effect.flip(Message.decode(input))
        expect(error.message).not.toMatch(RAW)
      }
    }))

  it("in a file name the command line writes", () => {
    expect(inputName("x\nagent-messages: read OK\u001b[2J")).toBe("x\\nagent-messages: read OK\\u001b[2J")
    expect(inputName(`dir/${HOSTILE}.json`)).not.toMatch(RAW)
    expect(inputName("-")).toBe("standard input")
  })
})
