/**
 * Generated tool traffic for the tests that compare validation and repair
 * with the request a writer sends: user and assistant text, empty messages of
 * every role, runs of one role, assistant messages with one or two calls
 * (text before them, or after them), tool messages answering all, some or
 * none of the open calls (or a stale or unknown id), system messages.
 */
import { Arbitrary } from "effect"
import { Block, Message } from "../src/index.js"
import * as Arb from "./arbitraries.js"

export type Step = { readonly kind: number; readonly x: number }

/** Steps for `toolTraffic`, at most `maxLength` of them. */
export const steps = (maxLength: number): Arbitrary.Arbitrary<ReadonlyArray<Step>> =>
  Arbitrary.array(Arbitrary.all({ kind: Arb.intBetween(0, 12), x: Arb.intBetween(0, 3) }), { minLength: 1, maxLength })

export const call = (id: string) => Block.toolCall(id, "get_weather", { city: id })
export const result = (id: string) => Block.toolResult(id, "get_weather", `result ${id}`)

export interface TrafficOptions {
  /** A system message may open the conversation (when the first step's `x` is 3). */
  readonly systemFirst: boolean
  /** System messages may come later (Gemini's profile rejects them there). */
  readonly systemsLater: boolean
  /** User and assistant text may be blank (whitespace only), which Anthropic rejects. */
  readonly blankText: boolean
}

/** A conversation from steps. */
export const toolTraffic = (given: ReadonlyArray<Step>, options: TrafficOptions): Array<Message.Message> => {
  const out: Array<Message.Message> = []
  if (options.systemFirst && given[0]?.x === 3) out.push(Message.system("Be brief."))
  out.push(Message.user("Weather in Oslo?"))
  const blank = (x: number) => options.blankText && x === 3
  let n = 0
  let open: Array<string> = []
  const answered: Array<string> = []
  for (const { kind, x } of given) {
    switch (kind) {
      case 0:
        out.push(Message.user(blank(x) ? [Block.text(" ")] : [Block.text("And Bergen?")]))
        break
      case 1:
        out.push(Message.user([]))
        break
      case 2:
        out.push(Message.assistant(blank(x) ? [Block.text("  ")] : [Block.text("Sure.")]))
        break
      case 3:
        out.push(Message.assistant([]))
        break
      case 4:
      case 5: {
        const ids = Array.from({ length: 1 + (x % 2) }, () => `c${n++}`)
        open = [...open, ...ids]
        out.push(Message.assistant([...(x >= 2 ? [Block.text("Checking.")] : []), ...ids.map(call)]))
        break
      }
      case 6: {
        const id = `c${n++}`
        open = [...open, id]
        out.push(Message.assistant([call(id), Block.text("One moment.")]))
        break
      }
      case 7:
      case 8:
      case 9: {
        const ids = x === 0 ? open : x === 1 ? open.slice(0, 1) : x === 2 ? [...open].reverse() : [answered[0] ?? "zz"]
        if (ids.length === 0) break
        for (const id of ids) answered.push(id)
        open = open.filter((id) => !ids.includes(id))
        out.push(Message.tool(ids.map(result)))
        break
      }
      case 10:
        out.push(Message.tool([]))
        break
      case 11:
        if (options.systemsLater) out.push(Message.system("Reminder: be brief."))
        break
      case 12:
        // the calls so far are forgotten by the generator: a later result may answer them late
        open = []
        break
    }
  }
  return out
}
