/**
 * Parallel calls recorded one assistant message each, their results after the last: one turn split over several
 * messages. Where the profile merges assistant messages, the repair joins them and keeps every result; it used to
 * answer the earlier calls "interrupted" and remove their real results as orphans.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit, Schema } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Gemini } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"

const value = <A, E>(effect: Effect.Effect<A, E>): A => Effect.runSync(effect)
const tags = (r: Repair.RepairResult) => r.actions.map((a) => a._tag)
const results = (messages: ReadonlyArray<Message.Message>) =>
  messages.flatMap((m) => (m.role === "tool" ? m.content.map((r) => `${r.toolCallId}=${JSON.stringify(r.content)}`) : []))

const split = [
  Message.user("weather in Paris and Rome?"),
  Message.assistantMessage("Looking both up.", [{ id: "c1", name: "weather", args: { city: "Paris" } }]),
  Message.assistantMessage("", [{ id: "c2", name: "weather", args: { city: "Rome" } }]),
  Message.tool([Block.toolResult("c1", "weather", "sunny"), Block.toolResult("c2", "weather", "rain")]),
  Message.user("thanks")
]

describe("repair: one turn of parallel calls split over assistant messages", () => {
  for (const provider of ["openai-chat", "openai-responses", "gemini"] as const) {
    it(`${provider}: the messages are joined, both real results kept`, () => {
      expect(Exit.isFailure(Effect.runSyncExit(Conversation.validateFor(provider)(split)))).toBe(true)
      const r = value(Repair.repairFor(provider)(split))
      expect(tags(r)).toEqual(["MergedConsecutive"])
      expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"])
      expect(r.messages[1]!.content.map((b) => b._tag)).toEqual(["Text", "ToolCall", "ToolCall"])
      expect(results(r.messages)).toEqual(results(split))
    })
  }

  it("the generic repair joins them too, and a later message's text stays after the call it followed", () => {
    const withText = [split[0]!, split[1]!, Message.assistantMessage("And Rome.", [{ id: "c2", name: "weather" }]), split[3]!]
    const r = Repair.repair(withText)
    expect(tags(r)).toEqual(["MergedConsecutive"])
    expect(r.messages[1]!.content.map((b) => b._tag)).toEqual(["Text", "ToolCall", "Text", "ToolCall"])
    expect(results(r.messages)).toEqual(results(withText))
    expect(r.actions[0]!.description).toBe("messages[2]: merged this assistant message into messages[1]")
  })

  it("a system message between the split turn and its results ends no turn: joined, the system message after the results", () => {
    const withSystem = [...split.slice(0, 3), Message.system("Answer in one line."), ...split.slice(3)]
    for (const provider of ["openai-chat", "openai-responses", "gemini"] as const) {
      const r = value(Repair.repairFor(provider)(withSystem))
      expect(tags(r).filter((t) => t !== "MovedSystemMessage")).toEqual(["MergedConsecutive"])
      expect(r.messages.filter((m) => m.role !== "system").map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"])
      expect(r.messages.findIndex((m) => m.role === "system")).not.toBe(2)
      expect(results(r.messages)).toEqual(results(split))
      expect(Conversation.issuesFor(provider, r.messages)).toEqual([])
    }
    const generic = Repair.repair(withSystem)
    expect(tags(generic)).toEqual(["MergedConsecutive", "MovedSystemMessage"])
    expect(results(generic.messages)).toEqual(results(split))
  })

  it("three messages of one call each, results in any order: one message of three calls", () => {
    const three = [
      Message.user("go"),
      Message.assistantMessage("", [{ id: "a", name: "t" }]),
      Message.assistantMessage("", [{ id: "b", name: "t" }]),
      Message.assistantMessage("", [{ id: "c", name: "t" }]),
      Message.tool([Block.toolResult("c", "t", "3"), Block.toolResult("a", "t", "1"), Block.toolResult("b", "t", "2")])
    ]
    const r = value(Repair.repairFor("openai-chat")(three))
    expect(tags(r)).toEqual(["MergedConsecutive", "MergedConsecutive"])
    expect(r.messages).toHaveLength(3)
    expect(results(r.messages)).toEqual(results(three))
  })

  it("an assistant message of text alone between the calls and their results joins the turn as well", () => {
    const x = [Message.user("go"), Message.assistantMessage("", [{ id: "a", name: "t" }]), Message.assistant("one moment"), Message.toolResultMessage("a", "t", "done")]
    const r = Repair.repair(x)
    expect(tags(r)).toEqual(["MergedConsecutive"])
    expect(results(r.messages)).toEqual(["a=\"done\""])
  })

  it("a turn answered by nothing after its run is still cut: the earlier call is interrupted", () => {
    // the tool message answers only the later call: the earlier one has no result to keep
    const later = [split[0]!, split[1]!, split[2]!, Message.tool([Block.toolResult("c2", "weather", "rain")])]
    expect(tags(Repair.repair(later))).toEqual(["InsertedMissingResult"])
    // a user message after the run: the calls were never answered
    const asked = [split[0]!, split[1]!, Message.assistant("Never mind."), Message.user("ok")]
    expect(tags(Repair.repair(asked))).toEqual(["InsertedMissingResult"])
  })

  it("a system message inside the run goes after the results, as one between calls and their results does", () => {
    const system = [split[0]!, split[1]!, Message.system("be brief"), split[2]!, split[3]!]
    const r = Repair.repair(system)
    expect(tags(r)).toEqual(["MovedSystemMessage", "MergedConsecutive"])
    expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "system"])
    expect(results(r.messages)).toEqual(results(split))
  })

  it("OpenAI Responses: a later message with text is not joined (text after a call is rejected there), and the loss is logged", () => {
    const withText = [split[0]!, split[1]!, Message.assistantMessage("And Rome.", [{ id: "c2", name: "weather" }]), split[3]!]
    const r = value(Repair.repairFor("openai-responses")(withText))
    expect(tags(r)).toEqual(["InsertedMissingResult", "RemovedOrphanResult"])
    expect(value(Conversation.validateFor("openai-responses")(r.messages).pipe(Effect.as(true)))).toBe(true)
  })

  it("Anthropic already reads the run as one wire message: nothing to repair", () => {
    expect(value(Repair.repairFor("anthropic")(split)).actions).toEqual([])
  })

  it("Gemini 3: each message's signed first call keeps its signature, and the joined turn is valid", () => {
    const model = "gemini-3-flash-preview"
    const signed = (id: string, city: string, sig: string) =>
      Message.assistant([Block.toolCall(id, "weather", { city }, { thoughtSignature: sig })])
    const x = [split[0]!, signed("c1", "Paris", "c2lnMQ=="), signed("c2", "Rome", "c2lnMg=="), split[3]!]
    const r = value(Repair.repairFor("gemini", { model })(x))
    expect(tags(r)).toEqual(["MergedConsecutive"])
    const wire = value(Gemini.toMessages(r.messages)).value
    expect(wire.contents[1]!.parts.map((p) => p.thoughtSignature)).toEqual(["c2lnMQ==", "c2lnMg=="])
    expect(wire.contents[2]!.parts).toHaveLength(2)
  })
})

/** A valid conversation with every assistant message of several client calls split before each call after the first. */
const splitConversation = Arb.validConversation.pipe(
  Arbitrary.map((x) => {
    const out: Array<Message.Message> = []
    for (const m of x) {
      const calls = m.role === "assistant" ? m.content.flatMap((b, k) => (b._tag === "ToolCall" && b.providerExecuted !== true ? [k] : [])) : []
      if (m.role !== "assistant" || calls.length < 2) {
        out.push(m)
        continue
      }
      const cuts = [0, ...calls.slice(1), m.content.length]
      for (let k = 0; k + 1 < cuts.length; k++) out.push(Message.assistant(m.content.slice(cuts[k], cuts[k + 1])))
    }
    return { x, out }
  })
)

describe("repair: a split turn and a user message written while its tools ran", () => {
  // Each repair alone kept the results; together, the user message before the results hid them from the look-ahead
  // that joins the turn, so the first call was answered "interrupted" and its real result removed as an orphan.
  const x = [
    Message.user("Read a.txt and b.txt"),
    Message.assistant([Block.toolCall("a", "read_file", { path: "a.txt" })]),
    Message.assistant([Block.toolCall("b", "read_file", { path: "b.txt" })]),
    Message.user("also check c.txt later"),
    Message.toolResultMessage("a", "read_file", "contents of a"),
    Message.toolResultMessage("b", "read_file", "contents of b")
  ]
  const user = x[3]!

  it("the turn is joined, the user message goes after the results, and both results are kept", () => {
    const r = Repair.repair(x)
    expect(tags(r)).toEqual(["MergedConsecutive", "MovedUserMessage"])
    expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "user"])
    expect(results(r.messages)).toEqual(results(x))
    for (const provider of ["openai-chat", "openai-responses", "gemini", "anthropic"] as const) {
      const p = value(Repair.repairFor(provider)(x))
      expect(tags(p).filter((t) => t === "InsertedMissingResult" || t === "RemovedOrphanResult")).toEqual([])
      expect(results(p.messages)).toEqual(results(x))
      expect(Conversation.issuesFor(provider, p.messages)).toEqual([])
    }
  })

  it("the same with a user message of blank text or of another provider's data", () => {
    for (const between of [Message.user("  "), Message.user([Block.providerData("anthropic", { type: "container_upload", file_id: "f" })])]) {
      const y = x.map((m) => (m === user ? between : m))
      for (const provider of ["openai-chat", "openai-responses", "gemini"] as const) {
        const p = Effect.runSyncExit(Repair.repairFor(provider)(y))
        if (Exit.isSuccess(p)) expect(tags(p.value).filter((t) => t === "InsertedMissingResult" || t === "RemovedOrphanResult")).toEqual([])
      }
      expect(results(Repair.repair(y).messages)).toEqual(results(x))
    }
  })

  it("a user message with no result after it still ends the turn: the calls are interrupted", () => {
    const r = Repair.repair([...x.slice(0, 4), Message.assistant("I could not read them.")])
    expect(tags(r)).toContain("InsertedMissingResult")
  })
})

/** The split conversation with a user message (and sometimes a system message) after the first split turn, before its results. */
const splitWithUser = Arb.validConversation.pipe(
  Arbitrary.flatMap((x) =>
    Arbitrary.schema(Schema.Tuple([Schema.Literals(["hold on", "also check Bergen", "稍等"]), Schema.Literals(["alone", "system before", "system after"])])).pipe(
      Arbitrary.map(([text, shape]) => {
        const out: Array<Message.Message> = []
        let put = false
        for (const m of x) {
          const calls = m.role === "assistant" ? m.content.flatMap((b, k) => (b._tag === "ToolCall" && b.providerExecuted !== true ? [k] : [])) : []
          if (m.role !== "assistant" || calls.length < 2 || put) {
            out.push(m)
            continue
          }
          const cuts = [0, ...calls.slice(1), m.content.length]
          for (let k = 0; k + 1 < cuts.length; k++) out.push(Message.assistant(m.content.slice(cuts[k], cuts[k + 1])))
          const system = Message.system("Answer in one line.")
          out.push(...(shape === "alone" ? [Message.user(text)] : shape === "system before" ? [system, Message.user(text)] : [Message.user(text), system]))
          put = true
        }
        return { x, out }
      })
    )
  )
)

describe("repair: split turns, property", () => {
  it.prop(
    "a split turn with a user message written before its results keeps every result",
    [splitWithUser],
    ([{ out, x }]) => {
      const r = Repair.repair(out)
      expect(tags(r).filter((t) => t === "InsertedMissingResult" || t === "RemovedOrphanResult")).toEqual([])
      expect(results(r.messages)).toEqual(results(x))
      expect(Conversation.issuesOf(r.messages)).toEqual([])
      expect(Repair.repair(r.messages).actions).toEqual([])
      for (const provider of ["openai-chat", "gemini", "anthropic"] as const) {
        const p = Effect.runSyncExit(Repair.repairFor(provider)(out))
        if (Exit.isSuccess(p)) {
          expect(tags(p.value).filter((t) => t === "InsertedMissingResult" || t === "RemovedOrphanResult")).toEqual([])
          expect(Conversation.issuesFor(provider, p.value.messages)).toEqual([])
        }
      }
    },
    { arbitrary: { runs: 300 }, timeout: 60_000 }
  )

  it.prop(
    "a valid conversation with its parallel calls split one per message repairs back to it, every result kept",
    [splitConversation],
    ([{ out, x }]) => {
      const r = Repair.repair(out)
      expect(tags(r).filter((t) => t !== "MergedConsecutive")).toEqual([])
      expect(results(r.messages)).toEqual(results(x))
      expect(r.messages.map((m) => m.content)).toEqual(x.map((m) => m.content))
      for (const provider of ["openai-chat", "gemini"] as const) {
        const p = Effect.runSyncExit(Repair.repairFor(provider)(out))
        if (Exit.isSuccess(p)) {
          expect(tags(p.value).filter((t) => t === "InsertedMissingResult" || t === "RemovedOrphanResult")).toEqual([])
          expect(results(p.value.messages)).toEqual(results(x))
        }
      }
    },
    { arbitrary: { runs: 300 }, timeout: 60_000 }
  )
})
