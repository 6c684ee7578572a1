/**
 * A run of messages the Anthropic writer leaves out (content of which it
 * sends no block) is not on the wire, and when the runs on both sides of it
 * have one role the writer sends them as one message. Validation and repair
 * read that joined message as the writer sends it: calls before the left-out
 * run and calls after it are one turn, an empty message joined to one with
 * content adds nothing, and results answer the calls of the wire message
 * before theirs.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"
import { call, result, type Step, steps as stepsUpTo, toolTraffic } from "./toolTraffic.js"

// code Gemini ran: the Anthropic writer leaves it out (DroppedContent)
const geminiCode = Block.providerData("gemini", { executableCode: { language: "PYTHON", code: "print(1)" } })
const separate = { providerOptions: { anthropic: { $separateMessage: true } } }
const ask = Message.user("Weather in Oslo?")
const done = Message.assistant("Oslo 12°C.")

const tags = (messages: ReadonlyArray<Message.Message>, options?: Conversation.ProfileOptions) =>
  Conversation.issuesFor("anthropic", messages, options).map((issue) => issue._tag)

const wireOf = (messages: ReadonlyArray<Message.Message>) => Effect.runSync(Anthropic.toMessages(messages)).value.messages

// ---------------------------------------------------------------------------
// examples
// ---------------------------------------------------------------------------

describe("validateFor(\"anthropic\") reads runs joined across a left-out run", () => {
  it("calls on both sides of a left-out user message are one turn, answered by the results after them", () => {
    const messages = [ask, Message.assistant([call("c1")]), Message.user([geminiCode]), Message.assistant([call("c2")]), Message.tool([result("c1"), result("c2")]), done]
    assert.deepStrictEqual(wireOf(messages).map((m) => m.role), ["user", "assistant", "user", "assistant"])
    assert.deepStrictEqual(tags(messages), [])
  })

  it("several left-out runs in a row, of both roles, join the runs around them too", () => {
    const messages = [ask, Message.assistant([call("c1")]), Message.user([geminiCode]), Message.assistant([geminiCode]), Message.user([geminiCode]), Message.assistant([call("c2")]), Message.tool([result("c1"), result("c2")]), done]
    assert.deepStrictEqual(wireOf(messages).map((m) => m.role), ["user", "assistant", "user", "assistant"])
    assert.deepStrictEqual(tags(messages), [])
  })

  it("a message read from a message of its own still joins the run before a left-out run", () => {
    const messages = [ask, Message.assistant([call("c1")]), Message.user([geminiCode]), Message.assistant([call("c2")], separate), Message.tool([result("c1"), result("c2")]), done]
    assert.deepStrictEqual(wireOf(messages).map((m) => m.role), ["user", "assistant", "user", "assistant"])
    assert.deepStrictEqual(tags(messages), [])
  })

  it("results on both sides of a left-out user run read from a message of its own are one message", () => {
    // the wire: assistant [c1, c2], user [result c1, result c2]
    const messages = [ask, Message.assistant([call("c1"), call("c2")]), Message.tool([result("c1")]), Message.user([geminiCode], separate), Message.tool([result("c2")], separate), done]
    assert.deepStrictEqual(wireOf(messages).map((m) => m.role), ["user", "assistant", "user", "assistant"])
    assert.deepStrictEqual(tags(messages), [])
  })

  it("an empty message joined to a message with content adds nothing to it, on either side", () => {
    assert.deepStrictEqual(wireOf([ask, Message.assistant("Sure."), Message.user([geminiCode]), Message.assistant([])]).map((m) => m.role), ["user", "assistant"])
    assert.deepStrictEqual(tags([ask, Message.assistant("Sure."), Message.user([geminiCode]), Message.assistant([])]), [])
    assert.deepStrictEqual(wireOf([ask, Message.assistant([]), Message.user([geminiCode]), Message.assistant("Sure.")]).map((m) => m.role), ["user", "assistant"])
    assert.deepStrictEqual(tags([ask, Message.assistant([]), Message.user([geminiCode]), Message.assistant("Sure.")]), [])
  })

  it("text joined after calls is text after the calls; a left-out run at the start or the end joins nothing", () => {
    const after = [ask, Message.assistant([call("c1")]), Message.user([geminiCode]), Message.assistant("One moment.", separate), Message.tool([result("c1")]), done]
    assert.deepStrictEqual(tags(after), ["TextAfterToolCalls"])
    assert.deepStrictEqual(tags([Message.assistant([geminiCode]), ask, done]), [])
    assert.deepStrictEqual(tags([ask, Message.assistant([call("c1")]), Message.tool([result("c1")]), Message.assistant([geminiCode])]), [])
    // runs of two roles around a left-out run stay two messages: the calls are answered by no result
    assert.deepStrictEqual(tags([ask, Message.assistant([call("c1")]), Message.assistant([geminiCode], separate), Message.user("Thanks."), done]), ["MissingToolResult"])
  })

  it("the calls before a left-out run stay pending with the calls after it, for thinking too", () => {
    // a tool loop in progress: it starts with the thinking of the first assistant message of the joined message
    const thought = Message.assistant([Block.thinking("Need the weather.", "sig"), call("c1")])
    const messages = [ask, thought, Message.user([geminiCode]), Message.assistant([call("c2")]), Message.tool([result("c1"), result("c2")])]
    assert.deepStrictEqual(tags(messages, { thinking: true }), [])
  })
})

describe("validateFor(\"anthropic\") reads what the writer sends of each run (found by the property at high counts)", () => {
  it("a message of which the writer sends nothing, in a run it sends, ends no turn", () => {
    // the wire: assistant [c0], user [result c0]: the other provider's data is dropped from the run
    const messages = [ask, Message.assistant([call("c0")]), Message.user([geminiCode]), Message.tool([result("c0")]), done]
    assert.deepStrictEqual(wireOf(messages).map((m) => m.role), ["user", "assistant", "user", "assistant"])
    assert.deepStrictEqual(tags(messages), [])
  })

  it("an empty message read from a message of its own opens a wire message: the calls before it are not continued", () => {
    // the wire: assistant [c0], assistant ["Sure."], user [result c0]
    const messages = [ask, Message.assistant([call("c0")]), Message.assistant([], separate), Message.assistant("Sure."), Message.tool([result("c0")])]
    assert.deepStrictEqual(wireOf(messages).map((m) => m.role), ["user", "assistant", "assistant", "user"])
    assert.deepStrictEqual(tags(messages), ["MissingToolResult", "OrphanToolResult"])
  })

  it("results after an empty results message are in a second user message; an empty one alone answers nothing", () => {
    // the wire: assistant [c0], user [], user [result c0]
    const apart = [ask, Message.assistant([call("c0")]), Message.tool([]), Message.user([geminiCode], separate), Message.tool([result("c0")])]
    assert.deepStrictEqual(wireOf(apart).map((m) => m.role), ["user", "assistant", "user", "user"])
    assert.deepStrictEqual(tags(apart), ["EmptyMessage", "MissingToolResult"])
    // the wire: assistant [c0], user [result c0], user []
    assert.deepStrictEqual(tags([ask, Message.assistant([call("c0")]), Message.tool([result("c0")]), Message.tool([], separate)]), ["EmptyMessage"])
  })
})

describe("repairFor(\"anthropic\") reads runs joined across a left-out run", () => {
  it.effect("leaves calls answered after the joined message as they are", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c1")]), Message.user([geminiCode]), Message.assistant([call("c2")]), Message.tool([result("c1"), result("c2")]), done]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions, [])
      assert.strictEqual(repaired.messages, messages)
    }))

  it.effect("puts a missing result after an empty message joined to the calls' message, which then stays", () =>
    Effect.gen(function*() {
      // the wire: user, assistant [c0] (the empty assistant message joined to it)
      const messages = [ask, Message.assistant([call("c0")]), Message.user([geminiCode]), Message.assistant([])]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["InsertedMissingResult", 1]])
      assert.deepStrictEqual(repaired.messages.map((m) => m.role), ["user", "assistant", "user", "assistant", "tool"])
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))

  it.effect("answers the calls of a joined message after it when they have no result", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c1")]), Message.user([geminiCode]), Message.assistant([call("c2")], separate), Message.user("Thanks."), done]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["InsertedMissingResult", 1], ["InsertedMissingResult", 3]])
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))
})

// ---------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------

/** Messages the writer sends nothing of (another provider's data, a file Anthropic cannot take), each alone or read from a message of its own. */
const LEFT_OUT: ReadonlyArray<() => Message.Message> = [
  () => Message.user([geminiCode]),
  () => Message.assistant([geminiCode]),
  () => Message.user([geminiCode], separate),
  () => Message.assistant([geminiCode], separate),
  () => Message.user([Block.audio("UklGRiQAAABXQVZF", "audio/wav")]),
  () => Message.user([geminiCode, Block.providerData("openai-responses", { type: "compaction", id: "cmp_1" })], separate)
]

/** The left-out messages `build` inserted. */
const inserted = new WeakSet<Message.Message>()

type Insert = { readonly at: number; readonly kind: number }

const inserts: Arbitrary.Arbitrary<ReadonlyArray<Insert>> = Arbitrary.array(
  Arbitrary.all({ at: Arb.intBetween(0, 15), kind: Arb.intBetween(0, LEFT_OUT.length - 1) }),
  { maxLength: 5 }
)

/** Generated tool traffic with left-out messages inserted anywhere, and some messages read from messages of their own. */
const build = (given: ReadonlyArray<Step>, added: ReadonlyArray<Insert>, separateAt: number): Array<Message.Message> => {
  const out: Array<Message.Message> = toolTraffic(given, { systemFirst: true, systemsLater: true, blankText: false })
  const m = out[separateAt]
  if (m !== undefined) out[separateAt] = asSeparate(m)
  for (const { at, kind } of added) {
    const m = LEFT_OUT[kind]!()
    inserted.add(m)
    out.splice(Math.min(at, out.length), 0, m)
  }
  return out
}

/** The message as read from a message of its own. */
const asSeparate = (m: Message.Message): Message.Message => {
  switch (m.role) {
    case "user":
      return Message.user(m.content, separate)
    case "assistant":
      return Message.assistant(m.content, separate)
    case "tool":
      return Message.tool(m.content, separate)
    case "system":
      return m
  }
}

type Obj = { readonly [key: string]: unknown }
const objects = (u: unknown): ReadonlyArray<Obj> => (Array.isArray(u) ? (u as ReadonlyArray<Obj>) : [])

/**
 * The pairing problems of the request the writer sends, read from its body alone: a `tool_use` whose `tool_result`
 * is not among the results the next message opens with, a `tool_result` after another kind of block, one that answers
 * no `tool_use` of the message before, or one answering a call a result of that message answered already.
 */
const wirePairing = (wire: ReadonlyArray<Obj>): Array<string> => {
  const problems: Array<string> = []
  for (let k = 0; k < wire.length; k++) {
    const blocks = objects(wire[k]!["content"])
    if (wire[k]!["role"] === "assistant") {
      const lead = new Set<unknown>()
      const next = wire[k + 1]
      for (const b of next?.["role"] === "user" ? objects(next["content"]) : []) {
        if (b["type"] !== "tool_result") break
        lead.add(b["tool_use_id"])
      }
      for (const b of blocks) if (b["type"] === "tool_use" && !lead.has(b["id"])) problems.push(`tool_use ${String(b["id"])} of ${k} unanswered`)
      continue
    }
    const calls = new Set(objects(wire[k - 1]?.["role"] === "assistant" ? wire[k - 1]!["content"] : []).filter((b) => b["type"] === "tool_use").map((b) => b["id"]))
    const answered = new Set<unknown>()
    let leading = true
    for (const b of blocks) {
      if (b["type"] !== "tool_result") {
        leading = false
        continue
      }
      const id = b["tool_use_id"]
      if (!leading) problems.push(`tool_result ${String(id)} of ${k} after other blocks`)
      if (!calls.has(id)) problems.push(`tool_result ${String(id)} of ${k} answers no call before`)
      if (answered.has(id)) problems.push(`tool_result ${String(id)} of ${k} answers again`)
      answered.add(id)
    }
  }
  return problems
}

const wireRole = (m: Message.Message): string => (m.role === "assistant" ? "assistant" : "user")

/**
 * Whether an action removes (or merges away) a message that was empty because another action changed the run it
 * went into: another action is at a message of its role with only messages of that role between them (system
 * messages, left-out ones and empty ones aside: the writer may join the runs around those).
 */
const emptiedAlong = (messages: ReadonlyArray<Message.Message>, action: Repair.RepairAction, all: ReadonlyArray<Repair.RepairAction>): boolean => {
  const m = messages[action.index]!
  if ((action._tag !== "RemovedEmptyMessage" && action._tag !== "MergedConsecutive") || m.content.length > 0) return false
  return all.some((other) => {
    // (merged into the results inserted for calls)
    if (action._tag === "MergedConsecutive" && other._tag === "InsertedMissingResult" && other.index === action.into) return true
    if (other === action || other.index === action.index) return false
    const [from, to] = other.index < action.index ? [other.index, action.index] : [action.index, other.index]
    for (let k = from; k <= to; k++) {
      const between = messages[k]!
      if (between.role !== "system" && !inserted.has(between) && between.content.length > 0 && wireRole(between) !== wireRole(m)) return false
    }
    return true
  })
}

/** Whether a message the writer sends after `k` in the wire message `k` opens (a run of one role) is one in `named`. */
const opensNamed = (messages: ReadonlyArray<Message.Message>, k: number, named: ReadonlySet<number | undefined>): boolean => {
  for (let j = k + 1; j < messages.length; j++) {
    const m = messages[j]!
    if (m.role === "system") continue
    if (wireRole(m) !== wireRole(messages[k]!) || m.providerOptions?.["anthropic"]?.["$separateMessage"] === true) return false
    if (named.has(j)) return true
  }
  return false
}

const PAIRING = new Set(["MissingToolResult", "OrphanToolResult", "DuplicateToolResult"])

/** Whether a user message repair held after results is in the turn of calls an issue names (or of a message it names). */
const heldAfterNamed = (
  messages: ReadonlyArray<Message.Message>,
  at: number,
  actions: ReadonlyArray<Repair.RepairAction>,
  named: ReadonlySet<number | undefined>
): boolean => {
  // what the writer leaves out (empty messages, left-out ones), sends apart (system messages) or repair removes (a
  // tool message whose every result answered no call)
  const removed = new Set(actions.filter((a) => a._tag === "RemovedEmptyMessage").map((a) => messages[a.index]))
  const passed = (m: Message.Message): boolean => m.content.length === 0 || inserted.has(m) || m.role === "system" || removed.has(m)
  // back over the turn after the calls (the run's other held messages, the results between them) to the calls
  let j = at
  if (named.has(j)) return true
  while (j > 0 && !(messages[j - 1]!.role === "assistant" && !passed(messages[j - 1]!))) {
    j--
    if (named.has(j)) return true
  }
  // the calls: an issue names the first message of the assistant run the writer joins them into
  for (let i = j - 1; i >= 0 && (messages[i]!.role === "assistant" || passed(messages[i]!)); i--) if (named.has(i)) return true
  return false
}

const steps = stepsUpTo(12)

/** The property at a count CI runs; the defects of run reading show at high counts, so it was run at 30,000+ once. */
const RUNS = 300

describe("validateFor(\"anthropic\") and repairFor(\"anthropic\") on tool traffic with left-out runs anywhere", () => {
  it.prop(
    "a pairing issue is reported exactly when the written request has a call unanswered in the next message or a result that answers no call of the message before",
    [steps, inserts, Arb.intBetween(0, 30)],
    ([given, added, separateAt]) => {
      const messages = build(given, added, separateAt)
      const says = Conversation.issuesFor("anthropic", messages).filter((issue) => PAIRING.has(issue._tag)).map((issue) => issue.message)
      const wire = wirePairing(objects(wireOf(messages)))
      assert.strictEqual(says.length > 0, wire.length > 0, `validation says [${says.join("; ")}], the wire [${wire.join("; ")}], for ${Conversation.encodeJsonl(messages)}`)
    },
    { arbitrary: { runs: RUNS }, timeout: 120_000 }
  )

  it.prop(
    "what repair returns validates clean, and each of its actions is at a message an issue names",
    [steps, inserts, Arb.intBetween(0, 30)],
    ([given, added, separateAt]) => {
      const messages = build(given, added, separateAt)
      const exit = Effect.runSync(Effect.exit(Repair.repairFor("anthropic")(messages)))
      if (Exit.isFailure(exit)) return
      const input = Conversation.issuesFor("anthropic", messages)
      // (a missing result names where the results came apart too: `resumedAt`)
      const named = new Set(input.flatMap((issue) => [(issue as { readonly index?: number }).index, (issue as { readonly resumedAt?: number }).resumedAt]))
      // a missing result names the message of the turn's first calls, and every call it misses
      const missing = new Set(input.flatMap((issue) => (issue._tag === "MissingToolResult" ? issue.toolCallIds : [])))
      // text after calls is mended by answering the calls before it and removing the results after it
      const textAfter = input.filter((issue) => issue._tag === "TextAfterToolCalls").map((issue) => issue.index)
      const touches = (action: Repair.RepairAction): boolean =>
        named.has(action.index) || (action._tag === "InsertedMissingResult" && missing.has(action.toolCallId)) ||
        emptiedAlong(messages, action, exit.value.actions) ||
        // an empty message that opens the wire message of results an issue names, merged with them into the results
        // before it
        (action._tag === "MergedConsecutive" && messages[action.index]!.content.length === 0 && opensNamed(messages, action.index, named)) ||
        // a system message between messages merged into one now follows them
        (action._tag === "MovedSystemMessage" && exit.value.actions.some((other) => other._tag === "MergedConsecutive" && other.into < action.index && action.index < other.index)) ||
        // a user message written while the tools ran, held with the others of its run after the results: the run
        // follows the calls an issue names (the first of the run is where the results came apart)
        (action._tag === "MovedUserMessage" && heldAfterNamed(messages, action.index, exit.value.actions, named)) ||
        textAfter.some((k) =>
          action._tag === "InsertedMissingResult" ? action.index < k : (action._tag === "RemovedOrphanResult" || action._tag === "RemovedEmptyMessage") && action.index > k
        )
      const context = `for ${Conversation.encodeJsonl(messages)}: ${exit.value.actions.map((a) => a.description).join("; ")}`
      assert.deepStrictEqual(tags(exit.value.messages), [], context)
      for (const action of exit.value.actions) assert.isTrue(touches(action), `${action.description} touches no issue of [${input.map((i) => i.message).join("; ")}] ${context}`)
    },
    { arbitrary: { runs: RUNS }, timeout: 120_000 }
  )
})
