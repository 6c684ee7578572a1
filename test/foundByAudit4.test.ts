/**
 * Issues a fourth audit found: text cut for summaries and transcripts could
 * end in half a surrogate pair (a lone `\ud83d` before the "…"), and decode
 * errors of flat-form messages named places that are not in the input
 * (`content[2].name` for the second of the flat `toolCalls`).
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Conversation, Message, Summarizer } from "../src/index.js"

// ---------------------------------------------------------------------------
// cuts never split a surrogate pair
// ---------------------------------------------------------------------------

/** A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const wellFormed = (s: string): boolean => !LONE_SURROGATE.test(s)

/** Pieces of text: ASCII, BMP letters, emoji, emoji with modifiers, ZWJ sequences, flags, astral letters. */
const PIECES = ["a", "b", " ", "\n", "é", "中", "😀", "👍🏽", "👨‍👩‍👧", "🇳🇴", "𝒳", "🏳️‍🌈"] as const

const astralText: Arbitrary.Arbitrary<string> = Arbitrary.array(Arbitrary.schema(Schema.Literals(PIECES)), { maxLength: 40 }).pipe(
  Arbitrary.map((pieces) => pieces.join(""))
)

const limit: Arbitrary.Arbitrary<number> = Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 80 })))

/** `cut` is `whole`, or a prefix of it followed by "…" no longer than `max` (plus the mark). */
const assertCutOf = (cut: string, whole: string, max: number): void => {
  assert.isTrue(wellFormed(cut), `lone surrogate in ${JSON.stringify(cut)}`)
  if (cut === whole) return
  assert.isTrue(cut.endsWith("…"), `no cut mark in ${JSON.stringify(cut)}`)
  const kept = cut.slice(0, -1)
  assert.isTrue(whole.startsWith(kept), `${JSON.stringify(kept)} is not a prefix of ${JSON.stringify(whole)}`)
  assert.isAtMost(kept.length, max)
}

describe("cuts of user text never split a surrogate pair", () => {
  it("Block.truncate backs off a cut that falls inside an emoji", () => {
    assert.strictEqual(Block.truncate("ab😀cd", 3), "ab…")
    assert.strictEqual(Block.truncate("ab😀cd", 4), "ab😀…")
  })

  it.prop("Block.truncate keeps a well-formed prefix of its input", [astralText, limit], ([text, max]) => {
    assertCutOf(Block.truncate(text, max), text, max)
  }, { arbitrary: { runs: 500 } })

  it.prop("Block.blockToText cuts tool results, tool arguments, JSON and provider data at whole characters", [astralText, limit], ([text, max]) => {
    const options = { maxArgsLength: max, maxResultLength: max }
    const result = Block.blockToText(Block.toolResult("c1", "f", text), options)
    assertCutOf(result.slice("[tool result f: ".length, -1), text, max)
    const json = JSON.stringify({ q: text })
    assertCutOf(Block.blockToText(Block.toolCall("c1", "f", { q: text }), options).slice("[tool call f(".length, -2), json, max)
    assertCutOf(Block.blockToText(Block.json({ q: text }), options), json, max)
    assert.isTrue(wellFormed(Block.blockToText(Block.providerData("p", { type: "x", q: text }), options)))
  }, { arbitrary: { runs: 300 } })

  it.prop("Message.transcriptOf cuts long results and arguments at whole characters", [astralText, limit], ([text, max]) => {
    const transcript = Message.transcriptOf(
      [Message.assistantMessage("", [{ id: "c1", name: "f", args: { q: text } }]), Message.toolResultMessage("c1", "f", text)],
      { maxArgsLength: max, maxResultLength: max }
    )
    assert.isTrue(wellFormed(transcript), `lone surrogate in ${JSON.stringify(transcript)}`)
    const mark = "\nTool: [tool result f: "
    assertCutOf(transcript.slice(transcript.indexOf(mark) + mark.length, -1), text, max)
  }, { arbitrary: { runs: 300 } })

  it.prop("Summarizer.extractive cuts lines and earlier notes at whole characters", [astralText, limit, limit], ([text, max, tokens]) => {
    const maxLineLength = Math.max(1, max)
    const summary = Summarizer.extractive(
      [Message.system(text), Message.user(text), Message.assistant(text)],
      tokens * 4,
      { maxLineLength }
    )
    assert.isTrue(wellFormed(summary), `lone surrogate in ${JSON.stringify(summary)}`)
    const line = Summarizer.extractive([Message.user(text)], 1_000, { maxLineLength })
    const oneLine = text.replace(/\s+/g, " ").trim()
    if (oneLine !== "") assertCutOf(line.slice("User: ".length), oneLine, maxLineLength)
  }, { arbitrary: { runs: 300 } })

  it("the auditor's question: a user line cut at an emoji keeps the emoji whole or leaves it out", () => {
    const summary = Summarizer.extractive([Message.user("x".repeat(159) + "😀😀😀 rest")], 1000)
    assert.strictEqual(summary, `User: ${"x".repeat(159)}…`)
  })
})

// ---------------------------------------------------------------------------
// flat-form decode errors name places in the input
// ---------------------------------------------------------------------------

const decodeError = (input: unknown) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(Message.decode(input))
    assert.strictEqual(error._tag, "MessageDecodeError")
    if (error._tag !== "MessageDecodeError") throw new Error("unreachable")
    return error
  })

const pathsOf = (error: { readonly problems?: ReadonlyArray<{ readonly path: ReadonlyArray<string | number> }> | undefined }) =>
  (error.problems ?? []).map((p) => p.path)

describe("decode errors of flat-form messages point at the user's input", () => {
  it.effect("a flat tool call with a missing name is reported at toolCalls[i]", () =>
    Effect.gen(function*() {
      const error = yield* decodeError({ role: "assistant", content: "hello", toolCalls: [{ id: "c", name: "f", args: {} }, { id: "d", args: {} }] })
      assert.deepStrictEqual(error.path, ["toolCalls", 1, "name"])
      assert.strictEqual(error.message, "toolCalls[1].name: Missing key")
    }))

  it.effect("a flat tool call that names another block's _tag is reported at its _tag, not at a filled-in args (found by review)", () =>
    Effect.gen(function*() {
      const error = yield* decodeError({ role: "assistant", content: "x", toolCalls: [{ id: "c", name: "f" }, { _tag: "Text", text: "sneaky" }] })
      assert.deepStrictEqual(error.path, ["toolCalls", 1, "_tag"])
      assert.match(error.message, /^toolCalls\[1\]\._tag: Expected "ToolCall"/)
      // an explicit ToolCall tag is still a flat call
      yield* Message.decode({ role: "assistant", content: "x", toolCalls: [{ _tag: "ToolCall", id: "c", name: "f", args: {} }] })
    }))

  it.effect("a flat tool call with an unknown field is reported at toolCalls[i], whatever content holds", () =>
    Effect.gen(function*() {
      const calls = [{ id: "c", name: "f", args: {} }, { id: "d", name: "f", args: {}, extra: 1 }]
      for (const content of ["hello", "", null, undefined, [{ _tag: "Text", text: "a" }, { _tag: "Text", text: "b" }]]) {
        const error = yield* decodeError({ role: "assistant", ...(content === undefined ? {} : { content }), toolCalls: calls })
        assert.deepStrictEqual(error.path, ["toolCalls", 1, "extra"], JSON.stringify(content))
        assert.match(error.message, /^toolCalls\[1\]\.extra: unknown field/)
      }
    }))

  it.effect("a flat tool call of the wrong type or with a name that is not a string is reported at toolCalls[i]", () =>
    Effect.gen(function*() {
      const notObject = yield* decodeError({ role: "assistant", content: "hi", toolCalls: [5] })
      assert.deepStrictEqual(notObject.path, ["toolCalls", 0])
      const both = yield* decodeError({ role: "assistant", content: [{ _tag: "Text", text: "a" }], toolCalls: [{ id: "d", name: 5, args: {} }] })
      assert.deepStrictEqual(both.path, ["toolCalls", 0, "name"])
      const bareId = yield* decodeError({ role: "assistant", toolCalls: [{ id: 7, name: "f" }] })
      assert.deepStrictEqual(bareId.path, ["toolCalls", 0, "id"])
    }))

  it.effect("problems in content and in flat tool calls are each reported where they are", () =>
    Effect.gen(function*() {
      const error = yield* decodeError({
        role: "assistant",
        content: [{ _tag: "Text", text: 1 }],
        toolCalls: [{ id: "c", name: 2 }]
      })
      assert.deepStrictEqual(pathsOf(error), [["content", 0, "text"], ["toolCalls", 0, "name"]])
      assert.deepStrictEqual(error.path, ["content", 0, "text"])
    }))

  it.effect("a flat tool message's fields are reported at the message's own fields", () =>
    Effect.gen(function*() {
      const isError = yield* decodeError({ role: "tool", toolCallId: "c", toolName: "f", content: "x", isError: "yes" })
      assert.deepStrictEqual(isError.path, ["isError"])
      assert.strictEqual(isError.message, "isError: Expected boolean")
      const toolCallId = yield* decodeError({ role: "tool", toolCallId: 1, toolName: "f", content: "x" })
      assert.deepStrictEqual(toolCallId.path, ["toolCallId"])
      const toolName = yield* decodeError({ role: "tool", toolCallId: "c", toolName: ["f"], content: "x" })
      assert.deepStrictEqual(toolName.path, ["toolName"])
    }))

  it.effect("a flat tool message's content is reported at content, not inside a result block", () =>
    Effect.gen(function*() {
      const notContent = yield* decodeError({ role: "tool", toolCallId: "c", toolName: "f", content: 5 })
      assert.deepStrictEqual(notContent.path, ["content"])
      const badPart = yield* decodeError({ role: "tool", toolCallId: "c", toolName: "f", content: [{ _tag: "Text", text: 1 }] })
      assert.deepStrictEqual(badPart.path, ["content", 0, "text"])
      assert.strictEqual(badPart.message, "content[0].text: Expected string")
      const noFields = yield* decodeError({ role: "tool", toolCallId: "c", toolName: "f", content: 5, isError: 0 })
      assert.deepStrictEqual(pathsOf(noFields), [["content"], ["isError"]])
    }))

  it.effect("a list of flat messages reports the message's index and the place inside it", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Conversation.decode([{ role: "user", content: "hi" }, { role: "assistant", content: "", toolCalls: [{ id: "c", name: "f", args: {}, x: 1 }] }])
      )
      assert.strictEqual(error._tag, "MessageDecodeError")
      assert.match(error.message, /toolCalls\[0\]\.x: unknown field/)
    }))

  it.effect("the Codec's own Schema error names the place in the input", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Schema.decodeUnknownEffect(Message.Codec)({ role: "tool", toolCallId: "c", toolName: "f", content: "x", isError: "yes" }))
      assert.match(error.message, /at \["isError"\]/)
      assert.notMatch(error.message, /content/)
    }))
})
