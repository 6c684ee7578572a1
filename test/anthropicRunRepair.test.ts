/**
 * `repairFor("anthropic")` reads turns as the Anthropic writer sends them on input that needs repair too: a run of
 * messages of one role is one wire message, an empty message in such a run with content is sent as nothing, and an
 * assistant message right after another continues its turn. Repair changes what the wire request needs changed,
 * and leaves the rest as it came.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic } from "../src/providers/index.js"
import { anthropicRuns, CONTINUES, FILLED, LEFT_OUT } from "../src/internal/anthropicSent.js"
import * as Arb from "./arbitraries.js"
import { call, result, type Step, steps as stepsUpTo, toolTraffic } from "./toolTraffic.js"
import { richConversation } from "./richConversation.js"

const ask = Message.user("Weather in Oslo and Bergen?")
const done = Message.assistant("Oslo 12°C, Bergen 9°C.")
/** A real issue, unrelated to what comes before it: a result that answers no call. */
const orphan = [Message.user("And Tromsø?"), Message.tool([result("zz")])]

const tags = (messages: ReadonlyArray<Message.Message>) => Conversation.issuesFor("anthropic", messages).map((issue) => issue._tag)
const described = (result: Repair.RepairResult) => result.actions.map((action) => action.description)

describe("repairFor(\"anthropic\") leaves what the writer sends well as it is, next to a real issue", () => {
  it.effect("an empty assistant message between calls and their results stays (the writer merges it away)", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c1")]), Message.assistant([]), Message.tool([result("c1")]), done, ...orphan]
      assert.deepStrictEqual(tags(messages), ["OrphanToolResult"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(described(repaired), [
        "messages[6].content[0]: removed tool result \"zz\" (get_weather): it answers no call of the preceding assistant message",
        "messages[6]: removed a tool message with no content left"
      ])
      assert.deepStrictEqual(repaired.messages, messages.slice(0, 6))
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))

  it.effect("calls of two assistant messages in a row answered by one tool message stay paired", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c1")]), Message.assistant([call("c2")]), Message.tool([result("c1"), result("c2")]), done, ...orphan]
      assert.deepStrictEqual(tags(messages), ["OrphanToolResult"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["RemovedOrphanResult", 6], ["RemovedEmptyMessage", 6]])
      assert.deepStrictEqual(repaired.messages, messages.slice(0, 6))
    }))

  it.effect("an empty user message opening a run with content stays; a message left empty by a fix in such a run too", () =>
    Effect.gen(function*() {
      const messages = [Message.user([]), ask, Message.assistant([Block.text(" ")]), done]
      assert.deepStrictEqual(tags(messages), ["EmptyTextBlock"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["RemovedBlock", 2]])
      assert.strictEqual(repaired.messages.length, 4)
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))

  it.effect("an empty message whose run loses its content to repair is removed", () =>
    Effect.gen(function*() {
      // the orphan result and the empty user message are one wire message: once the result goes, nothing is left
      const messages = [ask, done, Message.tool([result("zz")]), Message.user([]), Message.assistant("More?")]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["RemovedOrphanResult", 2], ["RemovedEmptyMessage", 2], ["RemovedEmptyMessage", 3]])
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))

  it.effect("text of a second assistant message after the calls of the first still ends the turn (the wire would put it after the calls)", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c1")]), Message.assistant("Checking."), Message.tool([result("c1")]), done]
      assert.deepStrictEqual(tags(messages), ["TextAfterToolCalls"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => a._tag), ["InsertedMissingResult", "RemovedOrphanResult", "RemovedEmptyMessage"])
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))

  it.effect("an empty user message whose run is moved after the results goes: its run has no content left where it stands", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c0")]), Message.user([]), Message.user("And Bergen?"), Message.assistant([]), Message.tool([result("c0")])]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["RemovedEmptyMessage", 2], ["MovedUserMessage", 3], ["RemovedEmptyMessage", 4]])
      assert.deepStrictEqual(repaired.messages, [0, 1, 5, 3].map((k) => messages[k]!))
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))

  it.effect("an empty message past the results stays in its run when the user message held before them is taken", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c0")]), Message.user("And Bergen?"), Message.tool([result("c0")]), Message.assistant([]), Message.assistant("Sure.")]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["MovedUserMessage", 2]])
      assert.deepStrictEqual(repaired.messages, [0, 1, 3, 2, 4, 5].map((k) => messages[k]!))
      assert.deepStrictEqual(tags(repaired.messages), [])
      // an empty message before the results is no past them: it is judged in the turn, and the one after them still waits
      const before = [ask, Message.assistant([call("c0")]), Message.user("And Bergen?"), Message.tool([]), Message.assistant([]), Message.tool([result("c0")]), Message.user([]), Message.assistant("Sure.")]
      const again = yield* Repair.repairFor("anthropic")(before)
      assert.deepStrictEqual(again.messages.slice(-3), [before[2]!, before[6]!, before[7]!])
      assert.deepStrictEqual(tags(again.messages), [])
    }))

  it.effect("a trailing empty assistant message does not hide a prefill's trailing whitespace", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant("Oslo: "), Message.assistant([])]
      assert.deepStrictEqual(tags(messages), ["TrailingWhitespacePrefill"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["TrimmedPrefill", 1]])
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))
})

describe("validateFor(\"anthropic\"): an assistant message after an empty one that opens its run continues no turn", () => {
  it.effect("a call left unanswered before it is missing its result", () =>
    Effect.gen(function*() {
      // the wire: assistant [c1, c0], user [result c1], assistant ["Still checking."], user [result c0]
      const messages = [ask, Message.assistant([call("c1"), call("c0")]), Message.tool([result("c1")]), Message.assistant([]), Message.assistant("Still checking."), Message.tool([result("c0")]), done]
      assert.deepStrictEqual(tags(messages), ["MissingToolResult", "OrphanToolResult"])
      const written = yield* Anthropic.toMessages(messages)
      assert.deepStrictEqual(written.value.messages.map((m) => m.role), ["user", "assistant", "user", "assistant", "user", "assistant"])
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["InsertedMissingResult", 1], ["RemovedOrphanResult", 5], ["RemovedEmptyMessage", 5]])
      assert.deepStrictEqual(tags(repaired.messages), [])
    }))
})

// ---------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------

const steps = stepsUpTo(14)

/** Tool traffic with empty messages of every role, runs of one role, system messages, text around calls, late and stale results, blank text. */
const build = (given: ReadonlyArray<Step>): Array<Message.Message> => toolTraffic(given, { systemFirst: false, systemsLater: true, blankText: true })

/**
 * Real issues to put after a conversation, each repaired on its own: an orphan result, blank text, a call never
 * answered. Each ends with an assistant's answer: the request then continues no turn of the conversation before it
 * (the rules about the turn a request continues judge the issue's turn alone).
 */
const ISSUES: ReadonlyArray<ReadonlyArray<Message.Message>> = [
  [...orphan, Message.assistant("Sunny.")],
  [Message.user("And Tromsø?"), Message.assistant([Block.text(" "), Block.text("Cloudy.")]), Message.user("Thanks."), Message.assistant("You're welcome.")],
  [Message.user("And Tromsø?"), Message.assistant([call("n1")]), Message.user("Never mind."), Message.assistant("Fine.")]
]

const succeeds = (messages: ReadonlyArray<Message.Message>): boolean => Exit.isSuccess(Effect.runSync(Effect.exit(Conversation.validateFor("anthropic")(messages))))

/**
 * Whether the writer makes the same wire messages of `prefix` in `messages` as of `prefix` alone. An issue's first
 * (user) message joins a trailing user run of the prefix: a run the writer leaves out alone (its content all foreign
 * provider data, say) is sent then, with the fields of its messages, so the prefix alone being accepted says nothing
 * about it.
 */
const prefixWrittenAlike = (prefix: ReadonlyArray<Message.Message>, messages: ReadonlyArray<Message.Message>): boolean => {
  const alone = anthropicRuns(prefix)
  const joined = anthropicRuns(messages)
  return prefix.every((_, k) => alone[k] === joined[k])
}

/**
 * The input messages the writer sends nothing of that repair must leave: an empty message in a run of one role with
 * content (`FILLED`), where every message of the run with content comes out of repair with content (nothing of the
 * run is emptied or removed).
 */
const unsentKept = (messages: ReadonlyArray<Message.Message>, touched: ReadonlySet<number>): Array<number> => {
  const runs = anthropicRuns(messages)
  const out: Array<number> = []
  let members: Array<number> = []
  const close = () => {
    if (members.every((k) => messages[k]!.content.length === 0 || !touched.has(k))) {
      for (const k of members) if (messages[k]!.content.length === 0 && (runs[k]! & FILLED) !== 0) out.push(k)
    }
    members = []
  }
  for (let i = 0; i < messages.length; i++) {
    // (a run the writer leaves out parts no run: the runs on both sides of it are joined when of one role)
    if (messages[i]!.role === "system" || (runs[i]! & LEFT_OUT) !== 0) continue
    if ((runs[i]! & CONTINUES) === 0) close()
    members.push(i)
  }
  close()
  return out
}

/**
 * The input messages an action removed, merged away, emptied (a removed block, an orphan or duplicate result), or
 * took out of their run (a user message moved after the results of the calls before it).
 */
const touchedBy = (actions: ReadonlyArray<Repair.RepairAction>): Set<number> => {
  const out = new Set<number>()
  for (const action of actions) {
    switch (action._tag) {
      case "RemovedEmptyMessage":
      case "MergedConsecutive":
      case "RemovedBlock":
      case "RemovedOrphanResult":
      case "RemovedDuplicateResult":
      case "MovedUserMessage":
        out.add(action.index)
        break
      default:
        break
    }
  }
  return out
}

const removedOrMerged = (actions: ReadonlyArray<Repair.RepairAction>): Set<number> =>
  new Set(actions.filter((a) => a._tag === "RemovedEmptyMessage" || a._tag === "MergedConsecutive").map((a) => a.index))

describe("repairFor(\"anthropic\") properties on input that needs repair", () => {
  it.prop(
    "tool traffic: what repair returns validates clean, and an empty message the writer sends nothing of stays while its run keeps its content",
    [steps],
    ([given]) => {
      const messages = build(given)
      const exit = Effect.runSync(Effect.exit(Repair.repairFor("anthropic")(messages)))
      if (Exit.isFailure(exit)) return
      const { actions } = exit.value
      assert.isTrue(succeeds(exit.value.messages), Conversation.encodeJsonl(messages))
      const gone = removedOrMerged(actions)
      for (const k of unsentKept(messages, touchedBy(actions))) {
        assert.isFalse(gone.has(k), `messages[${k}] removed: ${described(exit.value).join("; ")} for ${Conversation.encodeJsonl(messages)}`)
      }
    },
    { arbitrary: { runs: 400 }, timeout: 120_000 }
  )

  it.prop(
    "tool traffic the profile accepts, then a real issue: repair changes only the issue",
    [steps, Arb.intBetween(0, ISSUES.length - 1)],
    ([given, which]) => {
      const valid = build(given)
      const messages = [...valid, ...ISSUES[which]!]
      if (!succeeds(valid) || !prefixWrittenAlike(valid, messages)) return
      const exit = Effect.runSync(Effect.exit(Repair.repairFor("anthropic")(messages)))
      assert.isTrue(Exit.isSuccess(exit), Conversation.encodeJsonl(messages))
      if (Exit.isFailure(exit)) return
      assert.isTrue(succeeds(exit.value.messages))
      assert.isAbove(exit.value.actions.length, 0)
      for (const action of exit.value.actions) {
        assert.isAtLeast(action.index, valid.length, `${action.description} for ${Conversation.encodeJsonl(messages).replaceAll("\n", " ")}`)
      }
      assert.deepStrictEqual(exit.value.messages.slice(0, valid.length), valid)
    },
    { arbitrary: { runs: 400 }, timeout: 120_000 }
  )

  it.prop(
    "rich histories the profile accepts, then a real issue: repair changes only the issue",
    [richConversation, Arb.intBetween(0, ISSUES.length - 1)],
    ([valid, which]) => {
      const messages = [...valid, ...ISSUES[which]!]
      if (!succeeds(valid) || !prefixWrittenAlike(valid, messages)) return
      const exit = Effect.runSync(Effect.exit(Repair.repairFor("anthropic")(messages)))
      assert.isTrue(Exit.isSuccess(exit), Exit.isFailure(exit) ? String(exit.cause) : "")
      if (Exit.isFailure(exit)) return
      assert.deepStrictEqual(tags(exit.value.messages), [])
      for (const action of exit.value.actions) assert.isAtLeast(action.index, valid.length, action.description)
    },
    { arbitrary: { runs: 200 }, timeout: 120_000 }
  )

  it.prop(
    "rich histories: what repair returns validates clean, and an empty message the writer sends nothing of stays while its run keeps its content",
    [richConversation],
    ([messages]) => {
      const exit = Effect.runSync(Effect.exit(Repair.repairFor("anthropic")(messages)))
      if (Exit.isFailure(exit)) return
      assert.deepStrictEqual(tags(exit.value.messages), [], described(exit.value).join("; "))
      const gone = removedOrMerged(exit.value.actions)
      for (const k of unsentKept(messages, touchedBy(exit.value.actions))) assert.isFalse(gone.has(k), `messages[${k}]: ${described(exit.value).join("; ")}`)
    },
    { arbitrary: { runs: 200 }, timeout: 120_000 }
  )
})

describe("Anthropic messages of which the writer sends no block", () => {
  // code Gemini ran: the Anthropic writer leaves it out (DroppedContent)
  const geminiCode = Block.providerData("gemini", { executableCode: { language: "PYTHON", code: "print(1)" } })

  it.effect("an assistant message the writer leaves out between a turn's results does not end the turn", () =>
    Effect.gen(function*() {
      // the wire: assistant [c1, c0], user [result c1, result c0]: the results on both sides of it meet
      const messages = [ask, Message.assistant([call("c1"), call("c0")]), Message.tool([result("c1")]), Message.assistant([geminiCode]), Message.tool([result("c0")]), done]
      const written = yield* Anthropic.toMessages(messages)
      assert.deepStrictEqual(written.value.messages.map((m) => m.role), ["user", "assistant", "user", "assistant"])
      assert.deepStrictEqual(tags(messages), [])
      const repaired = yield* Repair.repairFor("anthropic")([...messages, ...orphan])
      assert.deepStrictEqual(repaired.actions.map((a) => [a._tag, a.index]), [["RemovedOrphanResult", 7], ["RemovedEmptyMessage", 7]])
      assert.deepStrictEqual(repaired.messages, [...messages, orphan[0]!])
    }))

  it.effect("a user message holding only a file the writer leaves out is UnsupportedMediaType, which repair leaves to the caller", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c1")]), Message.user([Block.audio("UklGRiQAAABXQVZF", "audio/wav")]), Message.tool([result("c1")]), done]
      assert.include(tags(messages), "UnsupportedMediaType")
      const error = yield* Effect.flip(Repair.repairFor("anthropic")(messages))
      assert.strictEqual(error._tag, "CannotRepair")
      assert.strictEqual(error.issue._tag, "UnsupportedMediaType")
    }))
})
