/**
 * What the estimate properties share: each provider's writer and estimate, and a valid conversation with a run of
 * blocks put into one of its user or assistant messages (`estimateLeftOut`, `estimateSentPricedProperty`).
 */
import { Arbitrary, Effect } from "effect"
import { type Block, GeminiEstimator, Message, type Request, TokenEstimator } from "../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../src/providers/index.js"
import * as Arb from "./arbitraries.js"

const gemini = Effect.runSync(GeminiEstimator.make())

export const writers = {
  "openai-chat": (r: Request.Request) => OpenAiChat.toRequest(r),
  "openai-responses": (r: Request.Request) => OpenAiResponses.toRequest(r),
  anthropic: (r: Request.Request) => Anthropic.toRequest(r),
  gemini: (r: Request.Request) => Gemini.toRequest(r)
} as const

export type Target = keyof typeof writers

export const targets = Object.keys(writers) as ReadonlyArray<Target>

/** The body the writer sends, as JSON text (or why it sends none). */
export const written = (provider: Target, request: Request.Request): string => {
  const exit = Effect.runSyncExit(Effect.map(writers[provider](request) as Effect.Effect<{ readonly value: unknown }, unknown>, (out) => out.value))
  return exit._tag === "Success" ? JSON.stringify(exit.value) : `fails: ${String(exit.cause)}`
}

/** The request estimate of `provider` (Gemini's by the estimator fitted for it). */
export const estimate = (provider: Target, request: Request.Request): number =>
  (provider === "gemini" ? gemini : TokenEstimator.heuristic).estimateRequest(request, { provider }).total

/**
 * A valid conversation without and with one of `runs` put into one of its user or assistant messages (a run a user
 * message cannot hold, thinking or calls, gives `undefined`).
 */
export const putRun = (runs: ReadonlyArray<ReadonlyArray<Block.Block>>) =>
  Arb.validConversation.pipe(
    Arbitrary.flatMap((x) =>
      Arbitrary.all([Arb.intBetween(0, Math.max(0, x.length - 1)), Arb.intBetween(0, runs.length - 1), Arb.intBetween(0, 8)]).pipe(
        Arbitrary.map(([at, which, where]) => {
          const m = x[at]
          if (m === undefined || m.role === "tool" || m.role === "system") return undefined
          const run = runs[which]!
          if (m.role === "user" && !run.every((b) => b._tag === "Text" || b._tag === "File" || b._tag === "ProviderData")) return undefined
          const content: Array<Block.Block> = [...m.content]
          content.splice(where % (content.length + 1), 0, ...run)
          const y = x.slice()
          const { role: _, content: __, ...rest } = m
          y[at] = m.role === "user"
            ? new Message.UserMessage({ ...rest, role: "user", content: content as ReadonlyArray<Block.UserBlock> })
            : new Message.AssistantMessage({ ...rest, role: "assistant", content: content as ReadonlyArray<Block.AssistantBlock> })
          return { without: x, with: y, run }
        })
      )
    )
  )
