/**
 * Huge inputs (megabytes of text, tool arguments of a megabyte, valid and
 * broken): the passes that were made cheaper keep their output, checked
 * against the code as it was written before (a reference here), and the huge
 * inputs go through whole. No timing is asserted: `bench/cost.ts` prints the
 * scaling.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Block, Message, TokenEstimator } from "../src/index.js"
import { parseBytes } from "../src/cli/Input.js"
import { stringify } from "../src/internal/json.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../src/providers/index.js"
import * as ToolArguments from "../src/providers/ToolArguments.js"
import * as Arb from "./arbitraries.js"

/** `Block.argsText` as it was written before: the kept text read again by `JSON.parse` with a reviver. */
const argsTextBefore = (call: Block.ToolCallBlock): string => {
  const raw = call.rawArgs
  const args = stringify(call.args)
  if (raw === undefined) return args
  let value: Schema.Json
  try {
    value = JSON.parse(raw, (_key, v: Schema.Json) => {
      if (v === Infinity || v === -Infinity) throw 0
      return v
    })
  } catch {
    return raw
  }
  const object = typeof value === "object" && value !== null && !Array.isArray(value)
  return stringify(value) === args || (!object && args === "{}") ? raw : args
}

const pick = <const A extends ReadonlyArray<string>>(values: A): Arbitrary.Arbitrary<A[number]> => Arbitrary.schema(Schema.Literals(values))

/** Kept argument text: JSON of a value (compact, indented, cut short, with a number too large for a double), or odd text. */
const keptText: Arbitrary.Arbitrary<string> = Arb.intBetween(0, 6).pipe(
  Arbitrary.flatMap((k): Arbitrary.Arbitrary<string> => {
    switch (k) {
      case 0:
        return Arb.jsonValue.pipe(Arbitrary.map((v) => JSON.stringify(v)))
      case 1:
        return Arb.argsObject.pipe(Arbitrary.map((v) => JSON.stringify(v, null, 2)))
      case 2:
        return Arbitrary.all([Arb.argsObject, Arb.intBetween(0, 40)]).pipe(Arbitrary.map(([v, n]) => JSON.stringify(v).slice(0, n)))
      case 3:
        return Arb.argsObject.pipe(Arbitrary.map((v) => JSON.stringify({ ...v, big: 0 }).replace('"big":0', '"big":1e999')))
      case 4:
        return pick(["", "  ", "null", "[1,2]", "\"text\"", "1e999", "[-1e400]", "{\"a\":1} x", "{\"__proto__\":{\"x\":1}}", "{\"n\":1.0}"])
      default:
        return Arb.text
    }
  })
)

describe("Block.argsText reads the kept text with a plain JSON.parse: the same text as before", () => {
  it.prop(
    "argsText is the text it gave when it read with a reviver",
    [keptText, Arb.intBetween(0, 2), Arb.argsObject],
    ([raw, how, other]) => {
      // args as a reader makes them from the text, as {} (an adapter's for text that is no object), or edited
      const read = ToolArguments.parse(raw).args
      const args = how === 0 ? read : how === 1 ? {} : other
      const call = Block.toolCall("c1", "f", args, { rawArgs: raw })
      assert.strictEqual(Block.argsText(call), argsTextBefore(call))
      assert.strictEqual(Block.argsText(Block.toolCall("c1", "f", args)), argsTextBefore(Block.toolCall("c1", "f", args)))
    },
    { timeout: 120_000 }
  )

  it("deeply nested kept text whose args were edited gives the args, as the adapters send them", () => {
    // a reviver recursed per level: past a few thousand levels it overflowed, and the text went out as it came,
    // however the args had been edited
    const depth = 20_000
    const raw = `{"path":"a","deep":${"[".repeat(depth)}${"]".repeat(depth)}}`
    const edited = Block.toolCall("c1", "f", { path: "[redacted]" }, { rawArgs: raw })
    assert.strictEqual(Block.argsText(edited), '{"path":"[redacted]"}')
    assert.strictEqual(Block.argsText(edited), ToolArguments.toText(edited))
    // the args the text gives: the text, as it came
    const kept = Block.toolCall("c1", "f", JSON.parse(raw) as Schema.Json, { rawArgs: raw })
    assert.strictEqual(Block.argsText(kept), raw)
    assert.strictEqual(ToolArguments.toText(kept), raw)
  })
})

const unit = "The quick brown fox jumps over the lazy dog; 天气很好 😀. \"q\"\n"
const textOf = (n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n)

describe("arguments of a megabyte", () => {
  it("valid JSON text with spaces is kept and sent as it came; its args are the value", () => {
    const value = { text: textOf(1_000_000), list: [1, 2, 3] }
    const raw = JSON.stringify(value, null, 1)
    const parsed = ToolArguments.parse(raw)
    assert.deepStrictEqual(parsed, { args: value, rawArgs: raw })
    const call = Block.toolCall("c1", "write_file", parsed.args, { rawArgs: raw })
    assert.strictEqual(Block.argsText(call), raw)
    assert.strictEqual(ToolArguments.toText(call), raw)
  }, 180_000)

  it("broken text over 32,768 characters is not repaired: args {}, the text kept and sent as it came", () => {
    const raw = `{"text": "${textOf(1_000_000).replace(/["\n]/g, " ")}", "more": [1, {"x": tru`
    const parsed = ToolArguments.parse(raw)
    assert.deepStrictEqual(parsed.args, {})
    assert.strictEqual(parsed.rawArgs, raw)
    assert.isString(parsed.parseError)
    const call = Block.toolCall("c1", "write_file", parsed.args, { rawArgs: raw, parseError: parsed.parseError! })
    assert.strictEqual(Block.argsText(call), raw)
    // the estimate counts the text that is sent, the name beside it
    const estimator = TokenEstimator.fromTextRule((t) => t.length)
    assert.strictEqual(estimator.estimateBlock(call), "write_file".length + raw.length)
  }, 180_000)
})

describe("the command line's reader on a transcript of megabytes", () => {
  it("a 4 MB JSON transcript and the same as JSONL read as the messages they hold", () => {
    const messages = [
      Message.user(textOf(4_000_000)),
      Message.assistant([Block.toolCall("c1", "write_file", { text: textOf(1_000_000) })]),
      Message.toolResultMessage("c1", "write_file", "ok")
    ]
    const encoded = Message.encodeAll(messages)
    const json = parseBytes(Buffer.from(JSON.stringify(encoded)), "t.json")
    assert.isTrue("kind" in json && json.kind === "json")
    if ("kind" in json && json.kind === "json") assert.deepStrictEqual(json.value, encoded)
    const jsonl = parseBytes(Buffer.from(encoded.map((m) => JSON.stringify(m)).join("\n")), "t.jsonl")
    assert.isTrue("kind" in jsonl && jsonl.kind === "jsonl")
    if ("kind" in jsonl && jsonl.kind === "jsonl") assert.deepStrictEqual(jsonl.values, encoded)
  }, 180_000)
})

describe("megabytes through the adapters", () => {
  it("2 MB of text and a megabyte of arguments (kept with their spaces, and broken) go out and come back as they were", () => {
    const pretty = JSON.stringify({ path: "a.txt", text: textOf(1_000_000) }, null, 1)
    const broken = `{"path": "a.txt", "text": "${textOf(1_000_000).replace(/["\n]/g, " ")}", "x": tru`
    const read = Effect.runSync(OpenAiChat.fromMessages([
      { role: "user", content: textOf(2_000_000) },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "write_file", arguments: pretty } },
          { id: "c2", type: "function", function: { name: "write_file", arguments: broken } }
        ]
      },
      { role: "tool", tool_call_id: "c1", content: "ok" },
      { role: "tool", tool_call_id: "c2", content: "ok" }
    ])).value
    const calls = read[1]!.content as ReadonlyArray<Block.ToolCallBlock>
    assert.strictEqual(Block.argsText(calls[0]!), pretty)
    assert.strictEqual(Block.argsText(calls[1]!), broken)
    const back = Effect.runSync(OpenAiChat.toMessages(read)).value as ReadonlyArray<{ readonly tool_calls?: ReadonlyArray<{ readonly function: { readonly arguments: string } }> }>
    assert.deepStrictEqual(back[1]!.tool_calls!.map((c) => c.function.arguments), [pretty, broken])
    const sent = Effect.runSync(OpenAiResponses.toMessages(read)).value as ReadonlyArray<{ readonly type?: string; readonly arguments?: string }>
    assert.deepStrictEqual(sent.filter((item) => item.type === "function_call").map((item) => item.arguments), [pretty, broken])
    // the text comes back whole from every adapter
    for (const roundTrip of [
      () => Effect.runSync(Anthropic.fromMessages(Effect.runSync(Anthropic.toMessages(read)).value)).value,
      () => Effect.runSync(Gemini.fromMessages(Effect.runSync(Gemini.toMessages(read)).value)).value,
      () => Effect.runSync(OpenAiResponses.fromMessages(Effect.runSync(OpenAiResponses.toMessages(read)).value as never)).value
    ]) {
      assert.strictEqual(Message.textOf(roundTrip()[0]!), textOf(2_000_000))
    }
  }, 180_000)
})
