/**
 * The window's invariants as one checker, shared by the property tests: the
 * output is valid whenever the input is, fits or fails with a minimum that
 * works, is the pinned messages plus a suffix of the rest (a summary and
 * cleared messages in place, nothing else altered), and is minimal.
 */
import { assert, expect } from "@effect/vitest"
import { Effect, Result } from "effect"
import { Conversation, Message, MessageWindow, Request, Summarizer, TokenEstimator } from "../src/index.js"
import type { Provider } from "../src/index.js"

export const estimator = TokenEstimator.heuristic

/** A window on the default estimator with the extractive summarizer captured, and one without any summarizer. */
export const window = Effect.runSync(
  MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, estimator), Effect.provide(Summarizer.layerExtractive()))
)
export const windowWithoutSummarizer = Effect.runSync(MessageWindow.make.pipe(Effect.provideService(TokenEstimator.TokenEstimator, estimator)))

/** Every strategy, alone and after `clear_tool_results`, as the window's properties run them. */
export const allStrategies: ReadonlyArray<MessageWindow.Strategy | ReadonlyArray<MessageWindow.Strategy>> = [
  "drop_oldest",
  "drop_oldest_pair",
  "clear_tool_results",
  "summarize",
  ["clear_tool_results", "drop_oldest"],
  ["clear_tool_results", "drop_oldest_pair"],
  ["clear_tool_results", "summarize"]
]

export const fitSync = (
  w: MessageWindow.Service,
  messages: ReadonlyArray<Message.Message>,
  budget: number,
  options?: MessageWindow.FitOptions
): Result.Result<MessageWindow.Fitted, MessageWindow.FitError> => Effect.runSync(Effect.result(w.fit(messages, budget, options)))

export const isValidFor = (provider: Provider.Provider | undefined, messages: ReadonlyArray<Message.Message>): boolean =>
  provider === undefined
    ? Conversation.isValid(messages)
    : Result.isSuccess(Effect.runSync(Effect.result(Conversation.validateFor(provider)(messages))))

const firstNonSystem = (messages: ReadonlyArray<Message.Message>): Message.Message | undefined => messages.find((m) => m.role !== "system")

/** Anthropic and Gemini: after a cut the conversation still opens with a user message (unless it opens as the input did). */
export const opensWell = (provider: Provider.Provider | undefined, input: ReadonlyArray<Message.Message>, output: ReadonlyArray<Message.Message>): boolean => {
  if (provider !== "anthropic" && provider !== "gemini") return true
  const first = firstNonSystem(output)
  return first === undefined || first === firstNonSystem(input) || first.role === "user"
}

/** What the checker needs to know about the options it was given. */
export interface Case {
  readonly input: ReadonlyArray<Message.Message>
  readonly budget: number
  readonly options: MessageWindow.FitOptions
  /** Messages pinned by the caller (by identity, so they stay pinned when the conversation is rebuilt). */
  readonly marked: ReadonlySet<Message.Message>
}

const hasMode = (options: MessageWindow.FitOptions, s: MessageWindow.Strategy): boolean => {
  const st = options.strategy ?? "drop_oldest"
  return typeof st === "string" ? st === s : st.includes(s)
}

/** The pinned input indices, read independently of the window (turns from `Conversation.turnsOf`). */
export const pinnedIndices = (c: Case): Set<number> => {
  const { input, marked, options } = c
  const pinned = new Set<number>()
  let lastUser = -1
  for (let i = input.length - 1; i >= 0; i--) {
    if (input[i]!.role === "user") {
      lastUser = i
      break
    }
  }
  const turns = Conversation.turnsOf(input)
  const tailStart = lastUser !== -1 ? lastUser : turns.length > 0 ? turns[turns.length - 1]!.start : input.length
  let firstUser = options.pinFirstUser === true
  for (const turn of turns) {
    const head = input[turn.start]!
    let pin = turn.start >= tailStart || (head.role === "system" && !MessageWindow.isSummary(head))
    if (head.role === "user" && firstUser) {
      pin = true
      firstUser = false
    }
    for (let i = turn.start; i < turn.end; i++) if (marked.has(input[i]!)) pin = true
    if (pin) for (let i = turn.start; i < turn.end; i++) pinned.add(i)
  }
  return pinned
}

/**
 * Checks what clearing changed: each cleared message stands where it says, changed only in the content of its
 * results (or lost its thinking), never a caller's pinned one, and the newest `keepToolResults` results of the input
 * (by place: a broken history can hold one message object twice) stay intact wherever they are kept.
 */
export const checkClearing = (c: Case, fitted: MessageWindow.Fitted): void => {
  const { input, options } = c
  let left = options.keepToolResults ?? 3
  const newest = new Set<string>()
  for (let i = input.length - 1; i >= 0 && left > 0; i--) {
    const results = Message.toolResultsOf(input[i]!)
    for (let k = results.length - 1; k >= 0 && left > 0; k--, left--) newest.add(`${i}:${k}`)
  }
  for (const x of fitted.cleared) {
    expect(c.marked.has(x.before)).toBe(false)
    expect(input[x.index]).toBe(x.before)
    expect(fitted.messages[x.at]).toBe(x.after)
    expect(x.after.role).toBe(x.before.role)
    if (x.before.role === "tool" && x.after.role === "tool") {
      const before = x.before
      expect(x.after.content.map((b) => [b.toolCallId, b.toolName, b.isError])).toEqual(before.content.map((b) => [b.toolCallId, b.toolName, b.isError]))
      x.after.content.forEach((b, k) => {
        if (newest.has(`${x.index}:${k}`)) expect(b).toBe(before.content[k])
        else if (b !== before.content[k]) expect(typeof b.content === "string" && b.content.startsWith(MessageWindow.CLEARED_PREFIX)).toBe(true)
      })
    } else {
      const calls = (m: Message.Message) => Message.toolCallsOf(m).map((b) => b.id)
      expect(calls(x.after)).toEqual(calls(x.before))
      expect(x.after.content.some((b) => b._tag === "Thinking" || b._tag === "RedactedThinking")).toBe(false)
      expect(x.thinking).toBeGreaterThan(0)
    }
  }
}

/** Checks every invariant of one fit; returns the fit result for further checks. */
export const checkFit = (c: Case, provider: Provider.Provider | undefined): Result.Result<MessageWindow.Fitted, MessageWindow.FitError> => {
  const { budget, input, options } = c
  const result = fitSync(window, input, budget, options)
  const available = budget - (options.fixedTokens ?? 0) - (options.reserve ?? 0)
  if (Result.isFailure(result)) {
    const error = result.failure
    expect(error._tag).toBe("BudgetTooSmall")
    if (error._tag !== "BudgetTooSmall") return result
    expect(error.minimumBudget).toBeGreaterThan(budget)
    // the smallest working budget really works
    const again = fitSync(window, input, error.minimumBudget, options)
    expect(Result.isSuccess(again)).toBe(true)
    return result
  }
  const fitted = result.success
  const output = fitted.messages
  // valid whenever the input is
  if (isValidFor(provider, input)) {
    expect(Conversation.issuesOf(output).map((i) => i.message)).toEqual([])
    if (provider !== undefined) expect(Conversation.issuesFor(provider, output).map((i) => i.message)).toEqual([])
    expect(opensWell(provider, input, output)).toBe(true)
  }
  // within the budget, with honest figures
  expect(fitted.tokensAfter).toBeLessThanOrEqual(available)
  expect(fitted.tokensAfter).toBe(estimator.estimateConversation(output))
  expect(fitted.tokensBefore).toBe(estimator.estimateConversation(input))
  if (!fitted.changed) {
    expect(output).toBe(input)
    expect(fitted.tokensBefore).toBeLessThanOrEqual(available)
    return result
  }

  // output = pinned + a suffix of the rest, the summary and cleared messages in place, in order
  const clearedAt = new Map(fitted.cleared.map((x) => [x.at, x]))
  const kept: Array<number> = []
  let prev = -1
  output.forEach((m, k) => {
    if (fitted.summary !== undefined && k === fitted.summary.at) {
      expect(m).toBe(fitted.summary.message)
      return
    }
    const cleared = clearedAt.get(k)
    let index: number
    if (cleared !== undefined) {
      expect(m).toBe(cleared.after)
      expect(cleared.before).toBe(input[cleared.index])
      index = cleared.index
    } else {
      index = input.indexOf(m, prev + 1)
    }
    expect(index).toBeGreaterThan(prev)
    kept.push(index)
    prev = index
  })
  const keptSet = new Set(kept)
  const droppedSet = new Set<number>()
  for (const d of fitted.dropped) {
    expect(d.messages).toEqual(input.slice(d.start, d.end))
    for (let i = d.start; i < d.end; i++) droppedSet.add(i)
  }
  for (let i = 0; i < input.length; i++) expect(keptSet.has(i) !== droppedSet.has(i)).toBe(true)
  const pinned = pinnedIndices(c)
  for (const i of pinned) expect(keptSet.has(i)).toBe(true)
  const firstFree = kept.find((i) => !pinned.has(i))
  if (firstFree !== undefined) for (let i = firstFree; i < input.length; i++) expect(keptSet.has(i)).toBe(true)

  checkClearing(c, fitted)
  // a summary only when summarizing, at a clean user start, in place of what was dropped
  if (fitted.summary !== undefined) {
    expect(hasMode(options, "summarize")).toBe(true)
    expect(MessageWindow.isSummary(fitted.summary.message)).toBe(true)
    expect(Message.isCleanUserStart(output[fitted.summary.at + 1])).toBe(true)
    expect(fitted.summary.replaces).toBe(droppedSet.size)
  } else if (hasMode(options, "summarize") && droppedSet.size > 0) {
    expect(fitted.notes.map((n) => n._tag)).toContain("SummarizerUnavailable")
  }

  checkMinimal(c, provider, fitted, droppedSet)
  return result
}

/** Minimal: putting back the last dropped unit (a turn, for drop_oldest_pair) would not fit, or would break the conversation; restoring the last cleared message would not fit. */
const checkMinimal = (c: Case, provider: Provider.Provider | undefined, fitted: MessageWindow.Fitted, droppedSet: ReadonlySet<number>): void => {
  const { input, options } = c
  const available = fitted.available
  // (summarize clears to leave the summary its room, so there the last clearing may have been for the summary)
  if (fitted.cleared.length > 0 && !hasMode(options, "summarize")) {
    const last = fitted.cleared[fitted.cleared.length - 1]!
    expect(fitted.tokensAfter + last.tokensSaved).toBeGreaterThan(available)
  }
  if (droppedSet.size === 0 || hasMode(options, "summarize") || fitted.notes.length > 0) return
  const dropped = [...droppedSet].sort((a, b) => a - b)
  const lastDropped = dropped[dropped.length - 1]!
  let from: number
  if (hasMode(options, "drop_oldest_pair")) {
    const users = dropped.filter((i) => input[i]!.role === "user")
    from = users.length > 0 ? users[users.length - 1]! : dropped[0]!
  } else {
    from = Conversation.turnsOf(input).find((t) => t.start <= lastDropped && lastDropped < t.end)!.start
  }
  const restoredIndices = new Set(dropped.filter((i) => i >= from))
  // the output with those messages back in place (the rest as the window left it)
  const restored: Array<Message.Message> = []
  const byIndex = new Map<number, Message.Message>()
  for (const x of fitted.cleared) byIndex.set(x.index, x.after)
  for (let i = 0; i < input.length; i++) {
    if (restoredIndices.has(i)) restored.push(input[i]!)
    else if (!droppedSet.has(i)) restored.push(byIndex.get(i) ?? input[i]!)
  }
  // the window never makes two messages of one role meet, even for a provider that would merge them
  // (Anthropic, Gemini): the output stays generically valid too, so such a restore is not a valid cut
  if (!isValidFor(provider, restored) || !Conversation.isValid(restored) || !opensWell(provider, input, restored)) return
  if (hasMode(options, "clear_tool_results")) {
    // even with everything clearable cleared, it does not fit
    const again = fitSync(window, restored, fitted.budget, { ...options, strategy: "clear_tool_results" })
    expect(Result.isFailure(again)).toBe(true)
  } else {
    expect(estimator.estimateConversation(restored)).toBeGreaterThan(available)
  }
}

export const fitRequestSync = (
  w: MessageWindow.Service,
  request: Request.Request,
  budget: number,
  options?: MessageWindow.FitOptions
): Result.Result<MessageWindow.FittedRequest, MessageWindow.FitError> => Effect.runSync(Effect.result(w.fitRequest(request, budget, options)))

/**
 * Checks one fit of a whole request: its messages are a valid fit (the same
 * invariants `checkFit` checks, read with the provider's rendering of each
 * message), the request's other fields are kept, and the whole fitted
 * request, as `estimateRequest` counts it, fits with the reserve; or it
 * fails with a budget that works.
 */
export const checkFitRequest = (c: Case, request: Request.Request, provider: Provider.Provider | undefined): void => {
  const { budget, input, options } = c
  const result = fitRequestSync(window, request, budget, options)
  const reserve = options.reserve ?? request.maxOutputTokens
  if (Result.isFailure(result)) {
    const error = result.failure
    assert(error._tag === "BudgetTooSmall")
    expect(error.minimumBudget).toBeGreaterThan(budget)
    expect(Result.isSuccess(fitRequestSync(window, request, error.minimumBudget, options))).toBe(true)
    return
  }
  const fitted = result.success
  const estimate = estimator.estimateRequest(request, provider === undefined ? undefined : { provider })
  expect(fitted.fixedTokens).toBe(estimate.tools + estimate.responseFormat + estimate.framing + (options.fixedTokens ?? 0))
  expect(fitted.available).toBe(budget - fitted.fixedTokens - (reserve ?? 0))
  // valid whenever the input is, with a suffix of what may go kept
  if (isValidFor(provider, input)) {
    expect(Conversation.issuesOf(fitted.messages).map((i) => i.message)).toEqual([])
    if (provider !== undefined) expect(Conversation.issuesFor(provider, fitted.messages).map((i) => i.message)).toEqual([])
    expect(opensWell(provider, input, fitted.messages)).toBe(true)
  }
  // the pinned messages and a suffix of the rest, in order, each as it was or cleared (the summary aside)
  const clearedAt = new Map(fitted.cleared.map((x) => [x.at, x.index]))
  const kept: Array<number> = []
  fitted.messages.forEach((m, k) => {
    if (fitted.summary !== undefined && k === fitted.summary.at) return
    kept.push(clearedAt.get(k) ?? input.indexOf(m, kept.length === 0 ? 0 : kept[kept.length - 1]! + 1))
  })
  for (let k = 1; k < kept.length; k++) expect(kept[k]).toBeGreaterThan(kept[k - 1]!)
  const keptSet = new Set(kept)
  const pinned = pinnedIndices(c)
  for (const i of pinned) expect(keptSet.has(i)).toBe(true)
  const firstFree = kept.find((i) => !pinned.has(i))
  if (firstFree !== undefined) for (let i = firstFree; i < input.length; i++) expect(keptSet.has(i)).toBe(true)
  expect(fitted.tokensAfter).toBeLessThanOrEqual(fitted.available)
  expect(fitted.request.messages).toEqual(fitted.messages)
  if (!fitted.changed) expect(fitted.request).toBe(request)
  const { messages: _a, ...before } = request
  const { messages: _b, ...after } = fitted.request
  expect(after).toEqual(before)
  // the whole request fits, the answer's reserve aside
  const whole = estimator.estimateRequest(fitted.request, provider === undefined ? undefined : { provider })
  expect(whole.total + (reserve ?? 0)).toBeLessThanOrEqual(budget)
}
