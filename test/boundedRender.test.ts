/**
 * Rendering a block as text writes a value only as far as the cut shows it: the same text as writing it whole and
 * cutting it, without writing the megabytes after the cut.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, type Schema } from "effect"
import { Block, Message, TokenEstimator } from "../src/index.js"
import { stringify, stringifyHead } from "../src/internal/json.js"
import { cutText } from "../src/internal/preview.js"
import { Conversion, OpenAiChat, ToolArguments } from "../src/providers/index.js"
import { intBetween } from "./arbitraries.js"

// ---------------------------------------------------------------------------
// the oracle: the rendering as it was, writing each value whole and then cutting it
// ---------------------------------------------------------------------------

/** The old one-line writer for values too deep for V8's, as it was. */
const writeFlatBefore = (value: object): string => {
  let out = ""
  const stack: Array<{ readonly o: Record<string, unknown>; readonly keys: ReadonlyArray<string> | undefined; i: number }> = []
  const onPath = new Set<object>()
  const open = (o: Record<string, unknown>): void => {
    if (onPath.has(o)) throw new TypeError("Converting circular structure to JSON")
    onPath.add(o)
    const keys = Array.isArray(o) ? undefined : Object.keys(o)
    out += keys ? "{" : "["
    stack.push({ o, keys, i: 0 })
  }
  open(value as Record<string, unknown>)
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!
    const { o, keys } = frame
    const i = frame.i++
    if (i >= (keys ?? (o as unknown as ReadonlyArray<unknown>)).length) {
      out += keys ? "}" : "]"
      onPath.delete(o)
      stack.pop()
      continue
    }
    if (i > 0) out += ","
    if (keys) out += `${JSON.stringify(keys[i])}:`
    const v = o[keys ? keys[i]! : i]
    if (typeof v === "object" && v !== null) open(v as Record<string, unknown>)
    else out += JSON.stringify(v) ?? "null"
  }
  return out
}

const stringifyBefore = (value: Schema.Json): string => {
  if (typeof value !== "object" || value === null) return JSON.stringify(value)
  try {
    return JSON.stringify(value)
  } catch {
    return writeFlatBefore(value)
  }
}

const hasInfinityBefore = (value: unknown): boolean =>
  typeof value === "number" ? !Number.isFinite(value) : typeof value === "object" && value !== null && Object.values(value).some(hasInfinityBefore)

const argsTextBefore = (call: Block.ToolCallBlock): string => {
  const raw = call.rawArgs
  if (raw === undefined) return stringifyBefore(call.args)
  let value: Schema.Json
  try {
    value = JSON.parse(raw) as Schema.Json
  } catch {
    return raw
  }
  if (hasInfinityBefore(value)) return raw
  const args = stringifyBefore(call.args)
  const object = typeof value === "object" && value !== null && !Array.isArray(value)
  return stringifyBefore(value) === args || (!object && args === "{}") ? raw : args
}

const resultContentTextBefore = (content: Block.ToolResultContent): string =>
  typeof content === "string"
    ? content
    : content.map((part) => (part._tag === "Text" ? part.text : part._tag === "File" ? Block.fileLabel(part) : stringifyBefore(part.value))).join("\n")

const blockToTextBefore = (block: Block.Block, options?: Block.RenderOptions): string => {
  switch (block._tag) {
    case "ProviderData": {
      const type = block.data["type"]
      return `[${block.provider}${typeof type === "string" ? ` ${type}` : ""}: ${cutText(stringifyBefore(block.data), options?.maxArgsLength ?? 200)}]`
    }
    case "Json":
      return cutText(stringifyBefore(block.value), options?.maxResultLength ?? 500)
    case "ToolCall":
      return `[tool call ${block.name}(${cutText(argsTextBefore(block), options?.maxArgsLength ?? 200)})]`
    case "ToolResult":
      return `[tool result ${block.toolName}${block.isError ? " (error)" : ""}: ${cutText(resultContentTextBefore(block.content), options?.maxResultLength ?? 500)}]`
    default:
      // text, thinking, refusals and files hold no value to write: rendered as they were
      return Block.blockToText(block, options)
  }
}

const transcriptBefore = (messages: ReadonlyArray<Message.Message>, options?: Block.RenderOptions): string =>
  messages
    .map((m) => `${m.role[0]!.toUpperCase()}${m.role.slice(1)}: ${m.content.map((b) => blockToTextBefore(b, options)).filter((t) => t !== "").join("\n")}`)
    .join("\n")

// ---------------------------------------------------------------------------
// generated JSON: unicode, lone surrogates, escapes, -0, big and small numbers, awkward keys, any nesting
// ---------------------------------------------------------------------------

/** Code units a cut can fall next to: ASCII, escapes, two-unit characters, and halves of pairs alone. */
const units = ["a", "Z", " ", "\"", "\\", "\n", "\u0001", "\u007f", "é", "日", "😀", "𝒳", "\ud800", "\udbff", "\udc00", "\udfff", "\u2028", "\ufeff"]

const pick = <A>(values: ReadonlyArray<A>): Arbitrary.Arbitrary<A> => intBetween(0, values.length - 1).pipe(Arbitrary.map((i) => values[i]!))

/** A string of the units above, sometimes repeated into a long one, so that cuts fall inside it. */
const jsonString: Arbitrary.Arbitrary<string> = Arbitrary.all([Arbitrary.array(pick(units), { maxLength: 12 }), pick([1, 1, 1, 3, 40, 400])]).pipe(
  Arbitrary.map(([parts, times]) => parts.join("").repeat(times))
)

const numbers = [0, -0, 1, -1, 0.1, 1e21, 1e-7, -1e-7, 5e-324, -5e-324, 1.7976931348623157e308, -1.7976931348623157e308, 2 ** 53 + 2, 123456789.125, 1e300, 1e-300]

const jsonNumber: Arbitrary.Arbitrary<number> = Arbitrary.all([pick(numbers), intBetween(-1_000_000, 1_000_000), pick([false, true])]).pipe(
  Arbitrary.map(([special, int, useInt]) => (useInt ? int : special))
)

const keys = ["a", "b", "__proto__", "constructor", "toString", "0", "1", "10", "-1", "", "日本", "\ud800", "k\"ey", "😀"]

const leaf: Arbitrary.Arbitrary<Schema.Json> = intBetween(0, 5).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<Schema.Json> =>
    k <= 1 ? jsonString : k === 2 ? jsonNumber : k === 3 ? pick([true, false]) : k === 4 ? Arbitrary.Constant(null) : pick(keys)
  )
)

/**
 * A JSON value built by a list of steps on a stack of open containers (open a list, open an object, close one,
 * or write a value), so that any shape and depth comes out of a flat list.
 */
const jsonValue: Arbitrary.Arbitrary<Schema.Json> = Arbitrary.all([
  Arbitrary.array(Arbitrary.all([intBetween(0, 9), leaf, jsonString, pick(keys), pick([false, true])]), { maxLength: 40 }),
  leaf,
  intBetween(0, 6)
]).pipe(
  Arbitrary.map(([steps, lone, rootKind]) => {
    if (rootKind === 0) return lone
    const root: Array<Schema.Json> | Record<string, Schema.Json> = rootKind % 2 === 1 ? [] : {}
    const stack: Array<Array<Schema.Json> | Record<string, Schema.Json>> = [root]
    const put = (into: Array<Schema.Json> | Record<string, Schema.Json>, key: string, value: Schema.Json): void => {
      if (Array.isArray(into)) into.push(value)
      else Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true })
    }
    for (const [op, value, longKey, key, useLongKey] of steps) {
      const top = stack[stack.length - 1]!
      const k = useLongKey ? longKey : key
      if (op <= 1) {
        const child: Array<Schema.Json> = []
        put(top, k, child)
        stack.push(child)
      } else if (op <= 3) {
        const child: Record<string, Schema.Json> = {}
        put(top, k, child)
        stack.push(child)
      } else if (op === 4 && stack.length > 1) {
        stack.pop()
      } else {
        put(top, k, value)
      }
    }
    // more than 64 values: written by the walk that stops at the cut, not by V8's writer (which takes small values)
    const pad = Array.from({ length: 65 }, (_, i) => i)
    return rootKind <= 2 ? root : rootKind <= 4 ? [root, ...pad] : { value: root, pad }
  })
)

/** Cuts as callers give them: the defaults, small, none at all, and odd ones (negative, fractional, NaN, Infinity). */
const maxLength: Arbitrary.Arbitrary<number | undefined> = Arbitrary.all([intBetween(0, 700), pick<number | undefined>([undefined, 0, 1, 2, 3, -3, 2.5, 199.9, Number.NaN, Number.POSITIVE_INFINITY, 1e9]), pick([false, true])]).pipe(
  Arbitrary.map(([n, odd, useOdd]) => (useOdd ? odd : n))
)

const optionsOf = (maxArgsLength: number | undefined, maxResultLength: number | undefined): Block.RenderOptions => ({
  ...(maxArgsLength === undefined ? {} : { maxArgsLength }),
  ...(maxResultLength === undefined ? {} : { maxResultLength })
})

/** Every block that holds a value, built from it. */
const blocksOf = (value: Schema.Json, other: Schema.Json): Array<Block.Block> => {
  const data: Block.JsonObject = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Block.JsonObject) : { type: "item", value }
  return [
    Block.json(value),
    Block.providerData("openai-responses", data),
    Block.toolCall("c1", "f", value),
    // the provider's own text kept beside the args: it gives them, or the args were edited since
    Block.toolCall("c2", "f", value, { rawArgs: JSON.stringify(value, null, 1) }),
    Block.toolCall("c3", "f", other, { rawArgs: JSON.stringify(value, null, 1) }),
    Block.toolResult("c1", "f", [Block.json(value)]),
    Block.toolResult("c1", "f", [Block.text("first"), Block.json(value), Block.json(other), Block.text(typeof other === "string" ? other : "last")], true),
    Block.toolResult("c1", "f", typeof value === "string" ? value : JSON.stringify(value))
  ]
}

describe("rendering a value as text writes it only as far as the cut", () => {
  it.prop(
    "stringifyHead is stringify as far as a cut after max reads it, and the whole text when that is no longer",
    [jsonValue, maxLength],
    ([value, max]) => {
      const whole = stringifyBefore(value)
      const m = max ?? 200
      const head = stringifyHead(value, m)
      assert.strictEqual(cutText(head, m), cutText(whole, m))
      if (!(whole.length > m) || !(m < Infinity)) {
        assert.strictEqual(head, whole)
      } else {
        // longer than the cut, and the same as the whole text as far as the cut reads it
        const read = Math.max(0, Math.trunc(m)) + 1
        assert.isAbove(head.length, m)
        assert.strictEqual(head.slice(0, read), whole.slice(0, read))
      }
    },
    { arbitrary: { runs: 3000 }, timeout: 120_000 }
  )

  it.prop(
    "blockToText gives the same text as writing each value whole and cutting it, for every block that holds a value",
    [jsonValue, jsonValue, maxLength, maxLength],
    ([value, other, maxArgs, maxResult]) => {
      const options = optionsOf(maxArgs, maxResult)
      for (const block of blocksOf(value, other)) {
        assert.strictEqual(Block.blockToText(block, options), blockToTextBefore(block, options))
        assert.strictEqual(Block.blockToText(block), blockToTextBefore(block))
      }
    },
    { arbitrary: { runs: 500 }, timeout: 120_000 }
  )

  it.prop(
    "transcriptOf gives the same transcript as rendering each value whole and cutting it",
    [jsonValue, jsonValue, maxLength, maxLength],
    ([value, other, maxArgs, maxResult]) => {
      const blocks = blocksOf(value, other)
      const calls = blocks.filter((b): b is Block.ToolCallBlock => b._tag === "ToolCall")
      const messages = [
        Message.user("go"),
        Message.assistant([Block.text("calling"), ...calls, blocks[1]! as Block.ProviderDataBlock]),
        Message.tool(blocks.filter((b): b is Block.ToolResultBlock => b._tag === "ToolResult"))
      ]
      const options = optionsOf(maxArgs, maxResult)
      assert.strictEqual(Message.transcriptOf(messages, options), transcriptBefore(messages, options))
      assert.strictEqual(Message.transcriptOf(messages), transcriptBefore(messages))
    },
    { arbitrary: { runs: 300 }, timeout: 120_000 }
  )

  it("a value too deep for V8's writer is cut as its whole text is", () => {
    let deep: Schema.Json = "leaf"
    for (let i = 0; i < 30_000; i++) deep = i % 2 === 0 ? [deep] : { k: deep }
    const block = Block.json(deep)
    assert.strictEqual(Block.blockToText(block), blockToTextBefore(block))
    assert.strictEqual(Block.blockToText(block, { maxResultLength: 1e9 }), blockToTextBefore(block, { maxResultLength: 1e9 }))
  })
})

describe("rendering a huge value writes about the cut, not the value", () => {
  /** How many characters JSON.stringify writes while `f` runs. */
  const written = (f: () => unknown): number => {
    const original = JSON.stringify
    let total = 0
    JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
      const out = original(...args)
      total += typeof out === "string" ? out.length : 0
      return out
    }) as typeof JSON.stringify
    try {
      f()
    } finally {
      JSON.stringify = original
    }
    return total
  }

  const megabytes = { path: "a.txt", text: "The quick brown fox 😀 \"q\"\n".repeat(400_000), list: Array.from({ length: 100_000 }, (_, i) => ({ i })) }

  it("a JSON result of megabytes is written as far as 500 characters", () => {
    const block = Block.toolResult("c1", "read_file", [Block.json(megabytes)])
    const chars = written(() => Block.blockToText(block))
    assert.isBelow(chars, 5_000)
    assert.strictEqual(Block.blockToText(block), blockToTextBefore(block))
  }, 300_000)

  it("arguments, a JSON block and provider data of megabytes are written as far as their cut", () => {
    for (const block of [Block.toolCall("c1", "write_file", megabytes), Block.json(megabytes), Block.providerData("openai-responses", megabytes)]) {
      assert.isBelow(written(() => Block.blockToText(block)), 5_000)
      assert.strictEqual(Block.blockToText(block), blockToTextBefore(block))
    }
  }, 300_000)

  it("a transcript of megabytes of tool traffic is written as far as each cut", () => {
    const messages = [
      Message.user("go"),
      Message.assistant([Block.toolCall("c1", "write_file", megabytes)]),
      Message.tool([Block.toolResult("c1", "write_file", [Block.json(megabytes)])])
    ]
    assert.isBelow(written(() => Message.transcriptOf(messages)), 5_000)
    assert.strictEqual(Message.transcriptOf(messages), transcriptBefore(messages))
  }, 300_000)
})

describe("argument text a reader parsed is not parsed again", () => {
  /** How many times JSON.parse reads `text` while `f` runs. */
  const parsesOf = (text: string, f: () => unknown): number => {
    const original = JSON.parse
    let count = 0
    JSON.parse = ((source: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      if (source === text) count++
      return original(source, reviver)
    }) as typeof JSON.parse
    try {
      f()
    } finally {
      JSON.parse = original
    }
    return count
  }

  const pretty = JSON.stringify({ path: "a.txt", text: "line\n".repeat(1000), list: [1, 2, 3] }, null, 1)

  it("argsText, blockToText and the estimate of a call an adapter read do not parse its text again", () => {
    const [call] = Effect.runSync(OpenAiChat.fromMessages([
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "write_file", arguments: pretty } }] }
    ])).value[0]!.content as ReadonlyArray<Block.ToolCallBlock>
    assert.strictEqual(call!.rawArgs, pretty)
    const estimator = TokenEstimator.fromTextRule((t) => t.length)
    assert.strictEqual(parsesOf(pretty, () => [Block.argsText(call!), Block.blockToText(call!), estimator.estimateBlock(call!)]), 0)
    assert.strictEqual(Block.argsText(call!), pretty)
  })

  it("a kept object text is parsed once to tell whether it still gives the args, not twice", () => {
    const kept = Block.toolCall("c1", "write_file", JSON.parse(pretty) as Schema.Json, { rawArgs: pretty })
    assert.strictEqual(parsesOf(pretty, () => ToolArguments.rawArgsHold(kept)), 1)
    assert.isTrue(ToolArguments.rawArgsHold(kept))
    const edited = Block.toolCall("c1", "write_file", { path: "[redacted]" }, { rawArgs: pretty })
    assert.strictEqual(parsesOf(pretty, () => Block.argsText(edited)), 1)
    assert.strictEqual(Block.argsText(edited), '{"path":"[redacted]"}')
  })

  /** Argument text as models send it: pretty or compact JSON, JSON that is no object, broken text, nothing. */
  const argumentText: Arbitrary.Arbitrary<string> = Arbitrary.all([jsonValue, intBetween(0, 6)]).pipe(
    Arbitrary.map(([value, how]) =>
      how === 0
        ? JSON.stringify(value, null, 1)
        : how === 1
        ? JSON.stringify(value)
        : how === 2
        ? JSON.stringify({ value })
        : how === 3
        ? JSON.stringify({ value }).slice(0, -1)
        : how === 4
        ? " "
        : how === 5
        ? '{"n": 1e999}'
        : `{"q": ${JSON.stringify(value)}, }`
    )
  )

  it.prop(
    "the text sent for a call a reader built is what it was when the text was read again",
    [argumentText, jsonValue, pick([false, true]), pick([false, true])],
    ([text, other, requireObject, edit]) => {
      const parsed = ToolArguments.fromText({ id: "c1", name: "f" }, text, { requireObject })
      if (parsed instanceof Conversion.InvalidToolArguments) return
      const read = parsed.block
      // the same call with its args edited is a new block, which the reading of the old one does not answer for
      const call = edit ? Block.toolCall("c1", "f", other, { rawArgs: text }) : read
      assert.strictEqual(Block.argsText(call), argsTextBefore(call))
      assert.strictEqual(ToolArguments.toText(call), argsTextBefore(call))
      assert.strictEqual(Block.blockToText(call), blockToTextBefore(call))
    },
    { arbitrary: { runs: 1000 }, timeout: 120_000 }
  )
})

describe("argument text nested past any writer's depth is not read", () => {
  /** How many times JSON.parse is called while `f` runs. */
  const parses = (f: () => unknown): number => {
    const original = JSON.parse
    let count = 0
    JSON.parse = ((source: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      count++
      return original(source, reviver)
    }) as typeof JSON.parse
    try {
      f()
    } finally {
      JSON.parse = original
    }
    return count
  }

  it("1.6 million unclosed brackets are kept as they came, refused without V8's parser (which took over a second)", () => {
    for (const text of ["[".repeat(1_600_000), '{"a":'.repeat(200_000), `{"q": ${"[1,".repeat(150_000)}`]) {
      let parsed: ToolArguments.ParsedArguments | undefined
      assert.strictEqual(parses(() => (parsed = ToolArguments.parse(text))), 0)
      assert.deepStrictEqual(parsed!.args, {})
      assert.strictEqual(parsed!.rawArgs, text)
      assert.include(parsed!.parseError, "nested deeper than 100,000 levels")
      assert.strictEqual(Block.argsText(Block.toolCall("c1", "f", {}, { rawArgs: text, parseError: parsed!.parseError! })), text)
    }
  }, 300_000)

  it("text 100,000 levels deep, and brackets, quotes and backslashes inside strings, are read as before", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000)
    const parsed = ToolArguments.parse(deep, { requireObject: false })
    assert.isUndefined(parsed.parseError)
    assert.strictEqual(stringify(parsed.args), deep)
    const value = { a: `\\"${"[".repeat(150_000)}`, b: "\\", c: ["x", "{".repeat(150_000)], d: '"', e: "\\\\\"[" }
    for (const text of [JSON.stringify(value), JSON.stringify(value, null, 1)]) {
      assert.deepStrictEqual(ToolArguments.parse(text).args, value)
    }
  }, 300_000)
})
