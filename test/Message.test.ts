import { assert, describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Equal, Schema } from "effect"
import { Block, Conversation, Message, ValidationError } from "../src/index.js"
import * as Arb from "./arbitraries.js"

describe("Message constructors (seed 000 style)", () => {
  it("userMessage builds a user message with one text block", () => {
    const m = Message.userMessage("hi")
    expect(m.role).toBe("user")
    expect(m.content).toEqual([Block.text("hi")])
  })

  it("systemMessage builds a system message", () => {
    expect(Message.systemMessage("be terse").role).toBe("system")
    expect(Message.textOf(Message.systemMessage("be terse"))).toBe("be terse")
  })

  it("assistantMessage puts the text before the tool calls", () => {
    const m = Message.assistantMessage("Let me check.", [{ id: "c1", name: "weather", args: { city: "Oslo" } }])
    expect(m.content.map((b) => b._tag)).toEqual(["Text", "ToolCall"])
    expect(m.toolCalls[0]?.args).toEqual({ city: "Oslo" })
  })

  it("assistantMessage omits empty text when there are tool calls", () => {
    const m = Message.assistantMessage("", [Block.toolCall("c1", "weather", {})])
    expect(m.content.map((b) => b._tag)).toEqual(["ToolCall"])
  })

  it("assistantMessage keeps empty text when there are no tool calls", () => {
    expect(Message.assistantMessage("").content).toEqual([Block.text("")])
  })

  it("toolResultMessage builds one result, isError defaulting to false", () => {
    const m = Message.toolResultMessage("c1", "weather", "12°C")
    expect(m.role).toBe("tool")
    expect(m.content[0]?.toolCallId).toBe("c1")
    expect(m.content[0]?.isError).toBe(false)
    expect(Message.toolResultMessage("c1", "weather", "down", true).content[0]?.isError).toBe(true)
  })

  it("constructors carry metadata, name and provider options", () => {
    const m = Message.userMessage("hi", { name: "alice", metadata: { sessionId: "s1" }, providerOptions: { openai: { x: 1 } } })
    expect(m.name).toBe("alice")
    expect(m.metadata).toEqual({ sessionId: "s1" })
    expect(m.providerOptions).toEqual({ openai: { x: 1 } })
  })

  it("absent options stay absent", () => {
    const m = Message.userMessage("hi")
    expect("metadata" in m).toBe(false)
    expect("name" in m).toBe(false)
  })
})

describe("Message constructors (seed 004 style)", () => {
  it("userText, assistantMsg and toolResultMsg build from blocks in order", () => {
    expect(Message.userText("q").role).toBe("user")
    const a = Message.assistantMsg([Block.thinking("t", "s"), Block.text("x"), Block.toolCall("c1", "f", {})])
    expect(a.content.map((b) => b._tag)).toEqual(["Thinking", "Text", "ToolCall"])
    const t = Message.toolResultMsg([Block.toolResult("c1", "f", "a"), Block.toolResult("c2", "f", "b")])
    expect(t.content.length).toBe(2)
  })

  it("assistant keeps interleaved text, thinking and calls in order", () => {
    const blocks = [Block.text("a"), Block.toolCall("c1", "f"), Block.thinking("t"), Block.text("b"), Block.toolCall("c2", "g")]
    expect(Message.assistant(blocks).content).toEqual(blocks)
  })

  it("tool accepts a single result or several", () => {
    expect(Message.tool(Block.toolResult("c1", "f", "a")).content.length).toBe(1)
    expect(Message.tool([Block.toolResult("c1", "f", "a")]).content.length).toBe(1)
  })
})

describe("Message readers", () => {
  const call = Block.toolCall("c1", "search", { q: "effect" })
  const a = Message.assistant([Block.thinking("plan"), Block.text("Looking. "), call, Block.text("Done.")])
  const t = Message.tool([Block.toolResult("c1", "search", "3 hits"), Block.toolResult("c2", "search", [Block.text("x"), Block.text("y")])])

  it("textOf concatenates text blocks and skips thinking and calls", () => {
    expect(Message.textOf(a)).toBe("Looking. Done.")
  })

  it("textOf of a tool message is its results' text, one per line", () => {
    expect(Message.textOf(t)).toBe("3 hits\nx\ny")
  })

  it("toolCallsOf returns the calls in order, and nothing for other roles", () => {
    expect(Message.toolCallsOf(a)).toEqual([call])
    expect(Message.toolCallsOf(Message.user("x"))).toEqual([])
    expect(Message.toolCallsOf(t)).toEqual([])
  })

  it("toolResultsOf returns a tool message's results", () => {
    expect(Message.toolResultsOf(t).length).toBe(2)
    expect(Message.toolResultsOf(a)).toEqual([])
  })

  it("isToolResultMessage is true only for tool messages", () => {
    expect(Message.isToolResultMessage(t)).toBe(true)
    expect(Message.isToolResultMessage(a)).toBe(false)
    expect(Message.isToolResultMessage(Message.user("x"))).toBe(false)
  })

  it("hasToolCalls is true only for assistants with calls", () => {
    expect(Message.hasToolCalls(a)).toBe(true)
    expect(Message.hasToolCalls(Message.assistant("x"))).toBe(false)
  })

  it("isCleanUserStart is true for user messages only", () => {
    expect(Message.isCleanUserStart(Message.user("x"))).toBe(true)
    expect(Message.isCleanUserStart(t)).toBe(false)
    expect(Message.isCleanUserStart(a)).toBe(false)
    expect(Message.isCleanUserStart(undefined)).toBe(false)
  })

  it("messageToText renders every block, tool traffic included", () => {
    expect(Message.messageToText(a)).toBe('Looking. \n[tool call search({"q":"effect"})]\nDone.')
  })

  it("transcriptOf labels roles and renders tool traffic", () => {
    const transcript = Message.transcriptOf([Message.user("Find effect"), a, t])
    expect(transcript.split("\n")[0]).toBe("User: Find effect")
    expect(transcript).toContain("Assistant: Looking.")
    expect(transcript).toContain("Tool: [tool result search: 3 hits]")
  })

  it("transcriptOf cuts long results at the configured length", () => {
    const long = Message.toolResultMessage("c1", "cat", "z".repeat(1000))
    expect(Message.transcriptOf([long], { maxResultLength: 5 })).toBe("Tool: [tool result cat: zzzzz…]")
  })
})

describe("Message codec", () => {
  it.effect("decodes the canonical form", () =>
    Effect.gen(function* () {
      const m = yield* Message.decode({
        role: "assistant",
        content: [{ _tag: "Text", text: "hi" }, { _tag: "ToolCall", id: "c1", name: "f", args: { a: 1 } }],
        metadata: { k: [1, null] }
      })
      assert.isTrue(m instanceof Message.AssistantMessage)
      expect(Message.toolCallsOf(m)[0]).toBeInstanceOf(Block.ToolCallBlock)
      expect(m.metadata).toEqual({ k: [1, null] })
    }))

  it.effect("decodes seed 000's flat form", () =>
    Effect.gen(function* () {
      const a = yield* Message.decode({ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "f", args: { x: 1 } }] })
      expect(a.content).toEqual([Block.toolCall("c1", "f", { x: 1 })])
      const t = yield* Message.decode({ role: "tool", content: "2", toolCallId: "c1", toolName: "f", isError: true })
      expect(t).toEqual(Message.toolResultMessage("c1", "f", "2", true))
      const nullContent = yield* Message.decode({ role: "assistant", content: null, toolCalls: [{ id: "c1", name: "f" }] })
      expect(nullContent.content).toEqual([Block.toolCall("c1", "f", {})])
      const u = yield* Message.decode({ role: "user", content: "hi", metadata: { s: 1 } })
      expect(u).toEqual(Message.userMessage("hi", { metadata: { s: 1 } }))
    }))

  it.effect("a missing isError decodes as false", () =>
    Effect.gen(function* () {
      const t = yield* Message.decode({ role: "tool", content: [{ _tag: "ToolResult", toolCallId: "c1", toolName: "f", content: "x" }] })
      expect(Message.toolResultsOf(t)[0]?.isError).toBe(false)
    }))

  it.effect("a bad field fails with MessageDecodeError naming its path", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Message.decode({ role: "assistant", content: [{ _tag: "ToolCall", id: 7, name: "f", args: {} }] }, 3))
      assert.strictEqual(e._tag, "MessageDecodeError")
      if (e._tag !== "MessageDecodeError") return
      expect(e.path).toEqual(["content", 0, "id"])
      expect(e.index).toBe(3)
      expect(e.message).toBe("messages[3]: content[0].id: Expected string")
    }))

  it.effect("a message with 200,000 bad entries lists its first 100 problems and counts the rest, every path as found", () =>
    Effect.gen(function* () {
      const bad = yield* Effect.flip(Message.decode({ role: "user", content: Array.from({ length: 200_000 }, () => ({ _tag: "Text", text: 5 })) }))
      assert.strictEqual(bad._tag, "MessageDecodeError")
      if (bad._tag !== "MessageDecodeError") return
      expect(bad.problems).toHaveLength(100)
      expect(bad.problems?.[99]).toEqual({ path: ["content", 99, "text"], message: "Expected string" })
      expect(bad.moreProblems).toBe(199_900)
      expect(bad.message).toBe("content[0].text: Expected string (and at least 199999 more problems)")
      // a few problems are all listed, with no count beside them
      const few = yield* Effect.flip(Message.decode({ role: "user", content: [{ _tag: "Text", text: 5 }, { _tag: "Text", text: 6 }] }))
      if (few._tag === "MessageDecodeError") expect([few.problems?.length, few.moreProblems, few.message]).toEqual([2, undefined, "content[0].text: Expected string (and 1 more problem)"])
    }), 60_000)

  it.effect("an unknown field fails rather than being dropped", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Message.decode({ role: "assistant", content: [{ _tag: "ToolCall", id: "a", name: "f", args: {}, cache: 1 }] }))
      assert.strictEqual(e._tag, "MessageDecodeError")
      if (e._tag === "MessageDecodeError") expect(e.path).toEqual(["content", 0, "cache"])
      expect(e.message).toContain("unknown field")
    }))

  it.effect("an unknown role fails with a readable message", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Message.decode({ role: "bot", content: [] }))
      expect(e._tag).toBe("MessageDecodeError")
      expect(e.message).toContain("role")
    }))

  it.effect("a non-object fails without throwing", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Message.decode(42))
      expect(e.message).toBe("(message): Expected a message object")
      const e2 = yield* Effect.flip(Message.decodeAll({}))
      expect(e2._tag).toBe("MessageDecodeError")
    }))

  it.effect("tool calls on a user message fail with ToolCallsOnNonAssistant", () =>
    Effect.gen(function* () {
      const flat = yield* Effect.flip(Message.decode({ role: "user", content: "x", toolCalls: [{ id: "c1", name: "f", args: {} }] }))
      expect(flat).toBeInstanceOf(ValidationError.ToolCallsOnNonAssistant)
      const blocks = yield* Effect.flip(Message.decode({ role: "tool", content: [{ _tag: "ToolCall", id: "c9", name: "f", args: {} }] }))
      expect(blocks).toBeInstanceOf(ValidationError.ToolCallsOnNonAssistant)
      if (blocks._tag === "ToolCallsOnNonAssistant") expect(blocks.toolCallIds).toEqual(["c9"])
    }))

  it.effect("tool-result fields on an assistant fail with ToolResultFieldsOnNonTool", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Message.decode({ role: "assistant", content: "x", toolCallId: "c1" }, 2))
      expect(e).toBeInstanceOf(ValidationError.ToolResultFieldsOnNonTool)
      expect(e.message).toBe("messages[2]: an assistant message carries tool-result fields (toolCallId); only tool messages may")
      const b = yield* Effect.flip(Message.decode({ role: "user", content: [{ _tag: "ToolResult", toolCallId: "c1", toolName: "f", content: "" }] }))
      expect(b._tag).toBe("ToolResultFieldsOnNonTool")
    }))

  it.effect("a tool message without toolCallId or toolName fails with its own tag", () =>
    Effect.gen(function* () {
      const noId = yield* Effect.flip(Message.decode({ role: "tool", content: "x", toolName: "f" }))
      expect(noId._tag).toBe("MissingToolCallId")
      const noName = yield* Effect.flip(Message.decode({ role: "tool", content: [{ _tag: "ToolResult", toolCallId: "c1", content: "x" }] }))
      expect(noName._tag).toBe("MissingToolName")
      expect(noName.message).toBe("tool result at content[0] for c1 has no toolName")
    }))

  it.effect("decodeAll reports the index of the first bad message", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Message.decodeAll([{ role: "user", content: "ok" }, { role: "tool", content: "x" }]))
      expect(e._tag).toBe("MissingToolCallId")
      if (e._tag === "MissingToolCallId") expect(e.index).toBe(1)
    }))

  it("encode writes absent optional fields as absent", () => {
    const enc = Message.encode(Message.userMessage("hi"))
    expect(enc).toEqual({ role: "user", content: [{ _tag: "Text", text: "hi" }] })
  })

  it.effect.prop(
    "encode, then JSON, then decode is the identity",
    [Arb.message],
    ([m]) =>
      Effect.gen(function* () {
        const json = JSON.parse(JSON.stringify(Message.encode(m)))
        const back = yield* Message.decode(json)
        assert.deepStrictEqual(back, m)
        assert.isTrue(Equal.equals(back, m))
        assert.strictEqual(back.constructor, m.constructor)
      }),
    { arbitrary: { runs: 1000 } }
  )

  it.effect.prop(
    "whole conversations round-trip through decodeAll",
    [Arb.validConversation],
    ([ms]) =>
      Effect.gen(function* () {
        const back = yield* Message.decodeAll(JSON.parse(JSON.stringify(Message.encodeAll(ms))))
        assert.deepStrictEqual(back, ms)
      }),
    { arbitrary: { runs: 200 } }
  )
})

describe("Message validation", () => {
  it.effect("a well-formed message validates to itself", () =>
    Effect.gen(function* () {
      const m = Message.assistantMessage("x", [{ id: "c1", name: "f" }])
      expect(yield* Message.validate(m)).toBe(m)
    }))

  it.effect("an empty tool call id fails with EmptyToolCallId", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Message.validate(Message.assistantMessage("", [{ id: "", name: "f" }]), 4))
      expect(e).toBeInstanceOf(ValidationError.EmptyToolCallId)
      expect(e.message).toBe("messages[4]: content[0] (f) has an empty tool call id")
    }))

  it.effect("an empty tool name fails with EmptyToolName, on calls and on results", () =>
    Effect.gen(function* () {
      expect((yield* Effect.flip(Message.validate(Message.assistantMessage("", [{ id: "c1", name: "" }]))))._tag).toBe("EmptyToolName")
      expect((yield* Effect.flip(Message.validate(Message.toolResultMessage("c1", "", "x"))))._tag).toBe("EmptyToolName")
      expect((yield* Effect.flip(Message.validate(Message.toolResultMessage("", "f", "x"))))._tag).toBe("EmptyToolCallId")
    }))

  it.effect("two calls with one id in a message fail with DuplicateToolCallId", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Message.validate(Message.assistantMessage("", [{ id: "c1", name: "f" }, { id: "c1", name: "g" }])))
      expect(e._tag).toBe("DuplicateToolCallId")
      expect(e.message).toBe('tool call id "c1" is used twice (earlier in the same message)')
    }))

  it.effect("a message without content fails with EmptyMessage", () =>
    Effect.gen(function* () {
      expect((yield* Effect.flip(Message.validate(Message.assistant([]))))._tag).toBe("EmptyMessage")
    }))

  it("issuesOf collects every issue in one pass", () => {
    const m = Message.assistantMessage("", [{ id: "", name: "" }, { id: "c1", name: "f" }, { id: "c1", name: "f" }])
    expect(Message.issuesOf(m, 0).map((i) => i._tag)).toEqual(["EmptyToolCallId", "EmptyToolName", "DuplicateToolCallId"])
  })

  it.effect("errors can be handled by tag", () =>
    Effect.gen(function* () {
      const recovered = yield* Message.validate(Message.toolResultMessage("", "f", "x")).pipe(
        Effect.as("ok"),
        Effect.catchTags({
          EmptyToolCallId: (e) => Effect.succeed(`id at ${e.blockIndex}`),
          EmptyToolName: () => Effect.succeed("name"),
          DuplicateToolCallId: () => Effect.succeed("dup"),
          EmptyMessage: () => Effect.succeed("empty")
        })
      )
      expect(recovered).toBe("id at 0")
    }))

  it.prop("generated messages have no per-message issues unless their ids are empty", [Arb.message], ([m]) => {
    expect(Message.issuesOf(m).filter((i) => i._tag !== "EmptyMessage")).toEqual([])
  }, { arbitrary: { runs: 300 } })
})

describe("Message codec: both forms, every problem, hostile input", () => {
  it.effect("array content and flat toolCalls on one assistant message both decode, in order", () =>
    Effect.gen(function* () {
      const m = yield* Message.decode({
        role: "assistant",
        content: [{ _tag: "Text", text: "Checking." }],
        toolCalls: [{ id: "c1", name: "f", args: { x: 1 } }]
      })
      expect(m.content).toEqual([Block.text("Checking."), Block.toolCall("c1", "f", { x: 1 })])
    }))

  it.effect("array content and flat toolCallId/toolName on a tool message become one result with those parts", () =>
    Effect.gen(function* () {
      const m = yield* Message.decode({
        role: "tool",
        content: [{ _tag: "Text", text: "two files" }, { _tag: "Json", value: { count: 2 } }],
        toolCallId: "c1",
        toolName: "ls"
      })
      expect(m).toEqual(Message.tool(Block.toolResult("c1", "ls", [Block.text("two files"), Block.json({ count: 2 })])))
    }))

  it.effect("result blocks together with flat result fields fail instead of losing either", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(
        Message.decode({ role: "tool", content: [{ _tag: "ToolResult", toolCallId: "a", toolName: "f", content: "x" }], toolCallId: "b" })
      )
      expect(e._tag).toBe("MessageDecodeError")
      expect(e.message).toContain("both tool result blocks and flat")
    }))

  it.effect("a missing call id gets the same tag in both forms", () =>
    Effect.gen(function* () {
      const flat = yield* Effect.flip(Message.decode({ role: "tool", content: "x", toolName: "f" }))
      const block = yield* Effect.flip(Message.decode({ role: "tool", content: [{ _tag: "ToolResult", toolName: "f", content: "x" }] }))
      expect([flat._tag, block._tag]).toEqual(["MissingToolCallId", "MissingToolCallId"])
    }))

  it.effect("MessageDecodeError lists every problem and keeps the Schema error", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(
        Message.decode({ role: "assistant", content: [{ _tag: "ToolCall", id: 7, name: 8, args: {} }, { _tag: "Text", text: 9 }] })
      )
      assert.strictEqual(e._tag, "MessageDecodeError")
      if (e._tag !== "MessageDecodeError") return
      expect(e.problems?.map((p) => p.path)).toEqual([["content", 0, "id"], ["content", 0, "name"], ["content", 1, "text"]])
      expect(e.message).toBe("content[0].id: Expected string (and 2 more problems)")
      expect(Schema.isSchemaError(e.cause)).toBe(true)
    }))

  it.effect("an unknown role names the roles that are accepted", () =>
    Effect.gen(function* () {
      const e = yield* Effect.flip(Message.decode({ role: "developer", content: "Be terse." }))
      expect(e.message).toBe(
        `role: unknown role "developer": expected one of system, user, assistant, tool (OpenAI's "developer" messages are system messages: use role "system")`
      )
    }))

  it.effect("a throwing getter, a revoked proxy, a Map or a Date is a MessageDecodeError, never a throw or a defect", () =>
    Effect.gen(function* () {
      const { proxy, revoke } = Proxy.revocable({}, {})
      revoke()
      const hostile: ReadonlyArray<readonly [unknown, ReadonlyArray<string | number>]> = [
        [{ role: "user", get content(): unknown { throw new Error("boom") } }, ["content"]],
        [{ role: "assistant", content: [{ _tag: "ToolCall", id: "c", name: "f", args: { get x(): unknown { throw new Error("boom") } } }] }, ["content", 0, "args", "x"]],
        [proxy, []],
        [{ role: "assistant", content: [{ _tag: "ToolCall", id: "c", name: "f", args: new Map([["a", 1]]) }] }, ["content", 0, "args"]],
        [{ role: "user", content: "hi", metadata: { at: new Date(0) } }, ["metadata", "at"]],
        [{ role: "assistant", content: [{ _tag: "ToolCall", id: "c", name: "f", args: [1, undefined] }] }, ["content", 0, "args", 1]],
        [{ role: "user", content: "hi", metadata: { n: Number.NaN } }, ["metadata", "n"]]
      ]
      for (const [input, path] of hostile) {
        const exit = yield* Effect.exit(Message.decode(input))
        assert.isTrue(exit._tag === "Failure" && !Cause.hasDies(exit.cause), "a failure, not a defect")
        const e = yield* Effect.flip(Message.decode(input))
        assert.strictEqual(e._tag, "MessageDecodeError")
        if (e._tag === "MessageDecodeError") expect(e.path).toEqual(path)
      }
    }))

  it.effect("a cyclic value is refused", () =>
    Effect.gen(function* () {
      const args: Record<string, unknown> = {}
      args["self"] = args
      const e = yield* Effect.flip(Message.decode({ role: "assistant", content: [{ _tag: "ToolCall", id: "c", name: "f", args }] }))
      expect(e.message).toContain("cyclic")
    }))

  it.effect("a top-level __proto__ key is refused like any unknown field; inside args it is kept as data", () =>
    Effect.gen(function* () {
      const top = yield* Effect.flip(Message.decode(JSON.parse('{"role":"user","content":"x","__proto__":{"polluted":1}}')))
      expect(top.message).toContain(`unknown field "__proto__"`)
      const m = yield* Message.decode(
        JSON.parse('{"role":"assistant","content":[{"_tag":"ToolCall","id":"c","name":"f","args":{"__proto__":{"polluted":1},"constructor":{"prototype":1}}}]}')
      )
      const args = Message.toolCallsOf(m)[0]!.args as Record<string, unknown>
      expect(Object.keys(args)).toEqual(["__proto__", "constructor"])
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype)
      expect(JSON.stringify(Message.encode(m))).toContain('"__proto__":{"polluted":1}')
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
    }))

  it.effect("the unknown-field policy lives on the Codec: Schema.Array and fromJsonString refuse unknown fields with default options", () =>
    Effect.gen(function* () {
      const list = Schema.decodeUnknownEffect(Schema.Array(Message.Codec))
      const bad = yield* Effect.flip(list([{ role: "user", content: "x", extra: 1 }]))
      expect(bad.message).toContain("extra")
      const fromText = Schema.decodeUnknownEffect(Schema.fromJsonString(Schema.Array(Message.Codec)))
      const ok = yield* fromText(`[{"role":"user","content":"hi"},{"role":"assistant","content":"","toolCalls":[{"id":"c1","name":"f"}]}]`)
      expect(ok).toEqual([Message.user("hi"), Message.assistant([Block.toolCall("c1", "f", {})])])
      const encoded = yield* Schema.encodeEffect(Schema.Array(Message.Codec))(ok)
      expect(encoded).toEqual(Message.encodeAll(ok))
    }))

  it.effect("decoded messages are frozen and share nothing with the input", () =>
    Effect.gen(function* () {
      const args = { city: "Oslo" }
      const m = yield* Message.decode({ role: "assistant", content: [{ _tag: "ToolCall", id: "c", name: "f", args }] })
      args.city = "Bergen"
      expect(Message.toolCallsOf(m)[0]!.args).toEqual({ city: "Oslo" })
      assert.isTrue(Object.isFrozen(m) && Object.isFrozen(m.content) && Object.isFrozen(Message.toolCallsOf(m)[0]!.args))
    }))

  it.effect("arguments nested 10,000 levels deep decode, encode and serialize without overflowing the stack", () =>
    Effect.gen(function* () {
      let deep: Schema.Json = "leaf"
      for (let i = 0; i < 10_000; i++) deep = { a: deep }
      const m = Message.assistant([Block.toolCall("c", "f", deep)])
      const line = Conversation.encodeJsonl([m])
      const [back] = yield* Conversation.decodeJsonl(line)
      expect(Block.argsText(Message.toolCallsOf(back!)[0]!)).toBe(Block.argsText(Message.toolCallsOf(m)[0]!))
    }), 30_000)
})

describe("Message constructors: JSON only, frozen", () => {
  it("refuse values JSON cannot hold at compile time", () => {
    const accepted = [Block.toolCall("c", "f", { a: [1, "x", null, { b: true }] }), Message.user("x", { metadata: { k: [1] } })]
    expect(accepted.length).toBe(2)
    // @ts-expect-error a Date is not JSON
    expect(() => Block.toolCall("c", "f", { at: new Date(0) })).toThrow()
    // @ts-expect-error a Map is not JSON
    expect(() => Block.toolCall("c", "f", new Map())).toThrow()
    // @ts-expect-error a BigInt is not JSON
    expect(() => Message.user("x", { metadata: { n: 1n } })).toThrow()
    // @ts-expect-error undefined inside an array is not JSON
    expect(() => Block.json([1, undefined])).toThrow()
  })

  it("return frozen messages whose content cannot be changed afterwards", () => {
    const m = Message.user("hi")
    assert.isTrue(Object.isFrozen(m) && Object.isFrozen(m.content) && Object.isFrozen(m.content[0]))
    expect(() => (m.content as Array<Block.UserBlock>).push(Block.text("more"))).toThrow(TypeError)
  })

  it("copy what they are given, so later changes to the caller's objects do not leak in", () => {
    const args = { q: "effect" }
    const blocks = [Block.text("a")]
    const call = Block.toolCall("c", "search", args)
    const m = Message.user(blocks)
    args.q = "changed"
    blocks.push(Block.text("b"))
    expect(call.args).toEqual({ q: "effect" })
    expect(m.content.length).toBe(1)
  })

  it("build files from URLs, data URLs and sources", () => {
    expect(Block.image("https://example.com/cat.png", { detail: "low" })).toMatchObject({ mediaType: "image/*", source: { _tag: "Url", url: "https://example.com/cat.png" }, detail: "low" })
    expect(Block.image("data:image/png;base64,iVBORw0KGgo=")).toMatchObject({ mediaType: "image/png", source: { _tag: "Base64", data: "iVBORw0KGgo=" } })
    expect(Block.document(Block.textSource("notes"), { title: "Q3", citationsEnabled: true })).toMatchObject({ mediaType: "text/plain", title: "Q3", citationsEnabled: true })
    expect(Block.document("https://example.com/a.pdf").mediaType).toBe("application/pdf")
    expect(Block.audio("UklGRg==", "audio/wav").source).toEqual({ _tag: "Base64", data: "UklGRg==" })
  })

  it("remember whether a call's provider text parsed", () => {
    const ok = Block.toolCall("c", "f", { a: 1 }, { rawArgs: '{"a": 1}' })
    const bad = Block.toolCall("c", "f", {}, { rawArgs: '{"a": ', parseError: "Unexpected end of JSON input" })
    expect([Block.argsParsed(ok), Block.argsParsed(bad)]).toEqual([true, false])
    expect([Block.argsText(ok), Block.argsText(bad), Block.argsText(Block.toolCall("c", "f", [1, 2]))]).toEqual(['{"a": 1}', '{"a": ', "[1,2]"])
  })
})
