/**
 * Adversarial input against the public API and the command line, found by
 * probing by hand beyond the fuzz suite: each test fails on the code before
 * its fix.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic, OpenAiChat, StreamError } from "../src/providers/index.js"
import * as Input from "../src/cli/Input.js"
import { cliHarness } from "./cliBuild.js"

/** A line break, carriage return or other control character would let user text forge a line of its own in a one-line message. */
const oneLine = (text: string): void => assert.notMatch(text, /[\u0000-\u001f]/, text)

describe("user text in warnings and errors stays on one line", () => {
  const forged = "f\nagent-messages: forged line"

  it.effect("a tool name with a line break in an argument warning (Chat reader) and in the Anthropic writer's warnings", () =>
    Effect.gen(function*() {
      const body = {
        model: "m",
        max_tokens: 10,
        messages: [
          { role: "user", content: "hi" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "c1", type: "function", function: { name: forged, arguments: "{\"n\":123456789012345678901}" } },
              { id: "c2", type: "function", function: { name: forged, arguments: "[1]" } }
            ]
          },
          { role: "tool", tool_call_id: "c1", content: "1" },
          { role: "tool", tool_call_id: "c2", content: "2" }
        ]
      }
      const read = yield* OpenAiChat.fromRequest(body)
      assert.isAbove(read.warnings.length, 0)
      for (const w of read.warnings) oneLine(w.message)
      assert.include(read.warnings[0]!.message, "(f\\nagent-messages: forged line)")
      const written = yield* Anthropic.toRequest(read.value)
      const messages = written.warnings.map((w) => w.message)
      assert.isTrue(messages.some((m) => m.includes("rounded")), messages.join(" | "))
      for (const m of messages) oneLine(m)
      // the data itself is untouched: only the message escapes it
      assert.strictEqual((written.value.messages[1]!.content as ReadonlyArray<{ readonly name?: string }>)[0]!.name, forged)
    }))

  it("a provider's multi-line error text and a stream protocol reason read as one line", () => {
    const error = new StreamError.ProviderStreamError({ provider: "anthropic-messages", errorType: "overloaded\r\nx", errorMessage: "line one\nline two\u0000three\u001bfour" })
    oneLine(error.message)
    assert.include(error.message, "line one\\nline two")
    const protocol = new StreamError.StreamProtocolError({ provider: "gemini", reason: "bad event\nforged" })
    oneLine(protocol.message)
  })

  it.effect("a repair log line about a tool name with a line break", () =>
    Effect.gen(function*() {
      const result = Repair.repair([Message.user("hi"), Message.assistant([Block.toolCall("c1", "a\rb\u001bc", {})]), Message.user("next")])
      assert.isAbove(result.actions.length, 0)
      for (const a of result.actions) oneLine(a.description)
    }))

  it.effect("a validation issue about a tool name with a line break", () =>
    Effect.gen(function*() {
      const error = yield* Conversation.validateAll([Message.user("hi"), Message.assistant([Block.toolCall("c1", "a\nb", {})]), Message.user("next")]).pipe(Effect.flip)
      assert.isAbove(error.issues.length, 0)
      for (const i of error.issues) oneLine(i.message)
      oneLine(error.message)
    }))
})

describe("the command line's line about unreadable input", () => {
  it("does not pass the input's control characters (a terminal escape) on to the terminal", () => {
    for (const text of ["\u001b[2J", "{\"role\":\"user\",\"content\":\"a\"}\n\u001b[2Jhello\n", "{\"role\":\"user\",\"content\":\"a\"}\n\u001a"]) {
      const read = Input.parseText(text, "log.jsonl", text.length)
      assert.isTrue(read instanceof Input.InputError, JSON.stringify(read))
      if (read instanceof Input.InputError) {
        oneLine(read.message)
        assert.notInclude(read.message, "\u001b")
      }
    }
  })
})

describe("the command line's stderr on names and keys that hold a terminal escape and a line break", () => {
  const cli = cliHarness("adversarial2")
  const hostile = "\u001b[31mRED\u001b[0m\nFORGED"

  it("every line it writes is its own: no raw escape, no forged line", () => {
    const files = [
      cli.file("unknown-key.json", [{ role: "user", content: "a", [hostile]: 1 }]),
      cli.file("call.json", { input: [{ role: "user", content: "hi" }, { type: "function_call", call_id: hostile, name: hostile, arguments: "{" }] })
    ]
    for (const file of files) {
      for (const args of [["check", file], ["check", file, "--provider", "anthropic"], ["convert", file, "--to", "anthropic", "--max-tokens", "5"], ["repair", file, "--provider", "anthropic"]]) {
        const { stderr } = cli.run(args)
        assert.isAbove(stderr.length, 0)
        for (const line of stderr.split("\n")) {
          oneLine(line)
          assert.isFalse(line.startsWith("FORGED"), stderr)
        }
      }
    }
  }, 120_000)
})
