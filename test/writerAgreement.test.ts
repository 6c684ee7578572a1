/**
 * `validateFor(p)` judges the request p's writer sends: for generated tool
 * traffic with empty messages, same-role runs, system messages and text
 * around the calls, the pairing, ordering and emptiness issues it reports
 * agree with a small, independent check of the written request (the wire
 * shape each provider's API checks: calls answered right after them,
 * results answering a call of the turn before, no empty message).
 *
 * Where a profile is stricter than its wire on purpose, the check says so:
 * the OpenAI profiles report an empty message their writer leaves out,
 * because a conversation validated for them is promised to pass the generic
 * rules too (`Validated<"openai-chat">` is a `Validated<"generic">`).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Block, Conversation, Message, Repair } from "../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../src/providers/index.js"
import { call, result, type Step, steps as stepsUpTo, toolTraffic } from "./toolTraffic.js"

// ---------------------------------------------------------------------------
// generated tool traffic
// ---------------------------------------------------------------------------

type Provider = "anthropic" | "openai-chat" | "openai-responses" | "gemini"

const steps = stepsUpTo(12)
const build = (given: ReadonlyArray<Step>, systemsLater: boolean): Array<Message.Message> =>
  toolTraffic(given, { systemFirst: true, systemsLater, blankText: false })

// ---------------------------------------------------------------------------
// what the validator says
// ---------------------------------------------------------------------------

/** The issues about pairing, ordering and emptiness each profile reports (its other rules are out of scope here). */
const PAIRING: Record<Provider, ReadonlySet<string>> = {
  "openai-chat": new Set(["MissingToolResult", "OrphanToolResult", "DuplicateToolResult", "EmptyMessage", "EmptyConversation"]),
  "openai-responses": new Set(["MissingToolResult", "OrphanToolResult", "DuplicateToolResult", "EmptyMessage", "EmptyConversation", "TextBetweenCallAndOutput"]),
  anthropic: new Set(["MissingToolResult", "OrphanToolResult", "DuplicateToolResult", "EmptyMessage", "EmptyConversation", "TextAfterToolCalls"]),
  gemini: new Set(["MissingToolResult", "OrphanToolResult", "DuplicateToolResult", "EmptyMessage", "EmptyConversation", "MisplacedFunctionCall", "ConsecutiveRole"])
}

const reported = (provider: Provider, messages: ReadonlyArray<Message.Message>): Array<string> =>
  Conversation.issuesFor(provider, messages).filter((issue) => PAIRING[provider]!.has(issue._tag)).map((issue) => `${issue._tag}@${(issue as { readonly index?: number }).index}`)

// ---------------------------------------------------------------------------
// independent checks of the written requests
// ---------------------------------------------------------------------------

type Obj = { readonly [key: string]: unknown }
const objects = (u: unknown): ReadonlyArray<Obj> => (Array.isArray(u) ? (u as ReadonlyArray<Obj>) : [])
const isEmptyContent = (content: unknown): boolean => content === "" || content === null || content === undefined || (Array.isArray(content) && content.length === 0)

/**
 * Anthropic Messages: no message without content; the calls of an assistant message answered by `tool_result`
 * blocks at the start of the very next (user) message, one per call, nothing else; no `tool_result` elsewhere; no
 * text after the last `tool_use` of a message.
 */
const anthropicWireProblems = (wire: ReadonlyArray<Obj>): Array<string> => {
  const problems: Array<string> = []
  if (wire.length === 0) problems.push("no messages")
  const answeredBy = new Set<number>()
  for (let k = 0; k < wire.length; k++) {
    const m = wire[k]!
    if (isEmptyContent(m["content"])) problems.push(`message ${k} is empty`)
    const blocks = objects(m["content"])
    if (m["role"] === "assistant") {
      const calls = blocks.filter((b) => b["type"] === "tool_use").map((b) => b["id"] as string)
      const lastCall = blocks.map((b) => b["type"]).lastIndexOf("tool_use")
      if (lastCall !== -1 && blocks.slice(lastCall + 1).some((b) => b["type"] === "text")) problems.push(`text after tool_use in ${k}`)
      if (calls.length === 0) continue
      const next = wire[k + 1]
      const lead: Array<string> = []
      for (const b of objects(next?.["content"])) {
        if (b["type"] !== "tool_result") break
        lead.push(b["tool_use_id"] as string)
      }
      if (next?.["role"] !== "user" || lead.length !== calls.length || !calls.every((id) => lead.includes(id))) problems.push(`calls of ${k} not answered right after`)
      else answeredBy.add(k + 1)
    }
    if (m["role"] === "user") {
      const results = blocks.filter((b) => b["type"] === "tool_result").length
      if (results > 0 && !answeredBy.has(k)) problems.push(`tool_result in ${k} answers no call before it`)
      const lead = blocks.findIndex((b) => b["type"] !== "tool_result")
      if (lead !== -1 && blocks.slice(lead).some((b) => b["type"] === "tool_result")) problems.push(`tool_result after other blocks in ${k}`)
    }
  }
  return problems
}

/**
 * Chat Completions: an assistant message with `tool_calls` followed directly by one tool message per call; a tool
 * message only in that run, answering a call of it once; no assistant message without content or calls, no user
 * message with an empty content list.
 */
const chatWireProblems = (wire: ReadonlyArray<Obj>): Array<string> => {
  const problems: Array<string> = []
  if (!wire.some((m) => m["role"] !== "system")) problems.push("no messages")
  let open: Set<string> | undefined
  let seen = new Set<string>()
  const close = (k: number) => {
    if (open !== undefined && open.size > 0) problems.push(`calls unanswered before ${k}`)
    open = undefined
  }
  for (let k = 0; k < wire.length; k++) {
    const m = wire[k]!
    if (m["role"] === "tool") {
      const id = m["tool_call_id"] as string
      if (open === undefined || !open.has(id)) problems.push(`tool message ${k} answers no open call${seen.has(id) ? " (again)" : ""}`)
      open?.delete(id)
      seen.add(id)
      continue
    }
    close(k)
    const calls = objects(m["tool_calls"])
    if (m["role"] === "assistant" && calls.length === 0 && isEmptyContent(m["content"])) problems.push(`assistant ${k} is empty`)
    if (m["role"] === "user" && Array.isArray(m["content"]) && m["content"].length === 0) problems.push(`user ${k} is empty`)
    if (calls.length > 0) {
      open = new Set(calls.map((c) => c["id"] as string))
      seen = new Set()
    }
  }
  close(wire.length)
  return problems
}

/**
 * Responses input items: each `function_call` answered by a `function_call_output` before any message item comes;
 * an output answers an earlier call not answered yet; no message with an empty content list.
 */
const responsesWireProblems = (items: ReadonlyArray<Obj>): Array<string> => {
  const problems: Array<string> = []
  if (!items.some((item) => item["role"] !== "system")) problems.push("no items")
  const open = new Set<string>()
  const called = new Set<string>()
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!
    if (item["type"] === "function_call") {
      open.add(item["call_id"] as string)
      called.add(item["call_id"] as string)
    } else if (item["type"] === "function_call_output") {
      const id = item["call_id"] as string
      if (!open.has(id)) problems.push(`output ${k} answers no open call${called.has(id) ? " (late or again)" : ""}`)
      open.delete(id)
    } else if (item["role"] !== undefined) {
      if (open.size > 0) problems.push(`message ${k} between calls and their outputs`)
      open.clear()
      if (Array.isArray(item["content"]) && item["content"].length === 0) problems.push(`message ${k} is empty`)
    }
  }
  if (open.size > 0) problems.push("calls unanswered at the end")
  return problems
}

/**
 * Gemini contents: no content without parts; consecutive user contents are one (the API merges them), two model
 * contents in a row are not (not recorded: the portable rule); a function-call content follows a user content and is
 * followed by one with a response per call, and responses answer the calls of the content right before.
 */
const geminiWireProblems = (contents: ReadonlyArray<Obj>): Array<string> => {
  const problems: Array<string> = []
  if (contents.length === 0) problems.push("no contents")
  const merged: Array<{ readonly role: unknown; readonly parts: Array<Obj> }> = []
  for (let k = 0; k < contents.length; k++) {
    const c = contents[k]!
    const parts = objects(c["parts"])
    if (parts.length === 0) problems.push(`content ${k} has no parts`)
    const last = merged[merged.length - 1]
    if (last !== undefined && last.role === c["role"]) {
      if (c["role"] === "model") problems.push(`two model contents in a row at ${k}`)
      last.parts.push(...parts)
    } else merged.push({ role: c["role"], parts: [...parts] })
  }
  for (let k = 0; k < merged.length; k++) {
    const c = merged[k]!
    const calls = c.parts.filter((p) => p["functionCall"] !== undefined).map((p) => (p["functionCall"] as Obj)["id"] as string)
    const responses = c.parts.filter((p) => p["functionResponse"] !== undefined).map((p) => (p["functionResponse"] as Obj)["id"] as string)
    if (calls.length > 0) {
      if (merged[k - 1]?.role !== "user") problems.push(`function call ${k} does not follow a user turn`)
      // the responses first in the turn after (text after them is the user's next words), as Anthropic wants them
      const answers: Array<string> = []
      for (const p of merged[k + 1]?.parts ?? []) {
        if (p["functionResponse"] === undefined) break
        answers.push((p["functionResponse"] as Obj)["id"] as string)
      }
      if (answers.length !== calls.length || !calls.every((id) => answers.includes(id))) problems.push(`calls of ${k} not answered right after`)
    }
    const lead = c.parts.findIndex((p) => p["functionResponse"] === undefined)
    if (lead !== -1 && c.parts.slice(lead).some((p) => p["functionResponse"] !== undefined)) problems.push(`a response after other parts in ${k}`)
    if (responses.length > 0) {
      const before = merged[k - 1]?.parts.filter((p) => p["functionCall"] !== undefined).map((p) => (p["functionCall"] as Obj)["id"] as string) ?? []
      if (!responses.every((id) => before.includes(id))) problems.push(`responses of ${k} answer no call right before`)
    }
  }
  return problems
}

const wireProblems = (provider: Provider, messages: ReadonlyArray<Message.Message>): ReadonlyArray<string> => {
  switch (provider) {
    case "anthropic":
      return anthropicWireProblems(objects(Effect.runSync(Anthropic.toMessages(messages)).value.messages))
    case "openai-chat":
      return chatWireProblems(objects(Effect.runSync(OpenAiChat.toMessages(messages)).value))
    case "openai-responses":
      return responsesWireProblems(objects(Effect.runSync(OpenAiResponses.toMessages(messages)).value))
    case "gemini":
      return geminiWireProblems(objects(Effect.runSync(Gemini.toMessages(messages)).value.contents))
  }
}

/**
 * Where a profile is stricter than its wire on purpose: the OpenAI profiles keep every generic rule (a conversation
 * validated for them is a `Validated<"generic">`), so they also report an empty message their writer leaves out, and
 * calls answered after a second assistant message (the Responses writer sends both as items in a row).
 */
const keptStricter = (provider: Provider, messages: ReadonlyArray<Message.Message>): boolean =>
  (provider === "openai-chat" || provider === "openai-responses") && Conversation.issuesOf(messages).some((issue) => PAIRING[provider]!.has(issue._tag))

const PROVIDERS: ReadonlyArray<Provider> = ["anthropic", "openai-chat", "openai-responses", "gemini"]

describe("validateFor judges the request its writer sends", () => {
  for (const provider of PROVIDERS) {
    it.prop(
      `${provider}: pairing and emptiness issues are reported exactly when the written request breaks those rules`,
      [steps],
      ([given]) => {
        const messages = build(given, provider !== "gemini")
        const says = reported(provider, messages)
        const wire = wireProblems(provider, messages)
        const expected = wire.length > 0 || keptStricter(provider, messages)
        assert.strictEqual(
          says.length > 0,
          expected,
          `${provider}: validation says [${says.join(", ")}], the written request [${wire.join("; ")}], for ${JSON.stringify(Conversation.encodeJsonl(messages))}`
        )
      },
      { arbitrary: { runs: 400 }, timeout: 120_000 }
    )
  }
})

describe("repairFor agrees with validateFor on the writer's view", () => {
  for (const provider of PROVIDERS) {
    it.prop(
      `${provider}: repairFor leaves a conversation validateFor accepts as it is, and mends the rest into one it accepts`,
      [steps],
      ([given]) => {
        const messages = build(given, provider !== "gemini")
        const valid = Exit.isSuccess(Effect.runSync(Effect.exit(Conversation.validateFor(provider)(messages))))
        const exit = Effect.runSync(Effect.exit(Repair.repairFor(provider)(messages)))
        if (valid) {
          assert.isTrue(Exit.isSuccess(exit))
          if (Exit.isSuccess(exit)) {
            assert.deepStrictEqual(exit.value.actions.map((a) => a._tag), [], Conversation.encodeJsonl(messages))
            assert.strictEqual(exit.value.messages, messages)
          }
          return
        }
        // a history repair cannot mend fails as a value; what it returns passes
        if (Exit.isSuccess(exit)) assert.isTrue(Exit.isSuccess(Effect.runSync(Effect.exit(Conversation.validateFor(provider)(exit.value.messages)))))
      },
      { arbitrary: { runs: 300 }, timeout: 120_000 }
    )
  }
})

describe("validateFor(\"anthropic\") reads a run of messages as the one message the writer sends", () => {
  const tags = (provider: Provider, messages: ReadonlyArray<Message.Message>) => Conversation.issuesFor(provider, messages).map((issue) => issue._tag)
  const ask = Message.user("Weather in Oslo and Bergen?")
  const done = Message.assistant("Oslo 12°C, Bergen 9°C.")

  it("an empty assistant message between calls and their results is merged away: nothing to report", () => {
    const messages = [ask, Message.assistant([call("c1")]), Message.assistant([]), Message.tool([result("c1")]), done]
    assert.deepStrictEqual(tags("anthropic", messages), [])
    // the generic rules still see a turn closed before its results
    assert.deepStrictEqual(Conversation.issuesOf(messages).map((issue) => issue._tag), ["EmptyMessage", "MissingToolResult", "OrphanToolResult"])
  })

  it("empty user and tool messages in a run with content add nothing to the message sent", () => {
    assert.deepStrictEqual(tags("anthropic", [ask, Message.assistant([call("c1")]), Message.user([]), Message.tool([result("c1")]), done]), [])
    assert.deepStrictEqual(tags("anthropic", [Message.user([]), ask, done]), [])
    assert.deepStrictEqual(tags("anthropic", [ask, Message.tool([]), done]), [])
  })

  it("calls of two assistant messages in a row are one turn, answered by the results after them", () => {
    assert.deepStrictEqual(tags("anthropic", [ask, Message.assistant([call("c1")]), Message.assistant([call("c2")]), Message.tool([result("c2"), result("c1")]), done]), [])
  })

  it("text of a second assistant message lands after the calls: TextAfterToolCalls, not a missing result", () => {
    const messages = [ask, Message.assistant([call("c1")]), Message.assistant("One moment."), Message.tool([result("c1")]), done]
    const issues = Conversation.issuesFor("anthropic", messages)
    assert.deepStrictEqual(issues.map((issue) => issue._tag), ["TextAfterToolCalls"])
    assert.deepInclude(issues[0], { index: 2, blockIndex: 0 })
  })

  it("text followed by a call of the next message of the run is not after the last call", () => {
    const messages = [ask, Message.assistant([call("c1"), Block.text("And Bergen:")]), Message.assistant([call("c2")]), Message.tool([result("c1"), result("c2")]), done]
    assert.deepStrictEqual(tags("anthropic", messages), [])
  })

  it("an empty message sent on its own is still reported, and a message read from a message of its own is not merged", () => {
    assert.deepStrictEqual(tags("anthropic", [ask, Message.assistant([]), Message.user("Hello?"), done]), ["EmptyMessage"])
    const separate = Message.assistant([call("c2")], { providerOptions: { anthropic: { $separateMessage: true } } })
    assert.deepStrictEqual(tags("anthropic", [ask, Message.assistant([call("c1")]), separate, Message.tool([result("c1"), result("c2")]), done]), ["MissingToolResult", "OrphanToolResult"])
  })

  it("the OpenAI profiles keep reporting an empty message their writer leaves out (they vouch for the generic rules)", () => {
    assert.deepStrictEqual(tags("openai-chat", [ask, Message.assistant([call("c1")]), Message.tool([]), Message.tool([result("c1")]), done]), ["EmptyMessage"])
    assert.deepStrictEqual(tags("openai-responses", [ask, Message.assistant([call("c1")]), Message.assistant([]), Message.tool([result("c1")]), done]), ["EmptyMessage", "MissingToolResult", "OrphanToolResult"])
  })

  it.effect("repairFor(\"anthropic\") leaves such a conversation as it is", () =>
    Effect.gen(function*() {
      const messages = [ask, Message.assistant([call("c1")]), Message.assistant([]), Message.assistant([call("c2")]), Message.tool([result("c1"), result("c2")]), done]
      const repaired = yield* Repair.repairFor("anthropic")(messages)
      assert.strictEqual(repaired.messages, messages)
      assert.deepStrictEqual(repaired.actions, [])
    }))
})

describe("validateFor(\"anthropic\"): a tool loop in progress, read from the run of assistant messages", () => {
  it("with manual thinking, the calls of a run whose last message is empty still make a tool loop that must start with thinking", () => {
    const messages = [Message.user("Weather?"), Message.assistant([call("c1")]), Message.assistant([]), Message.tool([result("c1")])]
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", messages, { thinking: true }).map((issue) => `${issue._tag}@${(issue as { readonly index?: number }).index}`), ["ThinkingNotFirst@1"])
    const thought = [Message.user("Weather?"), Message.assistant([Block.thinking("Need the weather.", "sig"), call("c1")]), Message.assistant([]), Message.tool([result("c1")])]
    assert.deepStrictEqual(Conversation.issuesFor("anthropic", thought, { thinking: true }), [])
  })
})

describe("validateFor(\"anthropic\"): a prefill, read from the run of assistant messages", () => {
  it("text ending in whitespace before an empty final assistant message is still the end of the prefill", () => {
    const messages = [Message.user("Write a haiku."), Message.assistant("Autumn moon "), Message.assistant([])]
    const issues = Conversation.issuesFor("anthropic", messages)
    assert.deepStrictEqual(issues.map((issue) => issue._tag), ["TrailingWhitespacePrefill"])
    assert.deepInclude(issues[0], { index: 1, blockIndex: 0 })
  })
})
