/**
 * Reading a streamed response: the provider's accumulator gives the
 * response the stream stands for, and the adapter's response decoder reads
 * it. A stream that ended early still yields what arrived: the partial
 * response is decoded too and carried by `IncompleteResponse`.
 *
 * @internal
 */
import { Effect } from "effect"
import { type Converted, type DecodedResponse, IncompleteResponse } from "../Conversion.js"
import type { IncompleteStream } from "../StreamError.js"

const isIncomplete = (u: unknown): u is IncompleteStream =>
  typeof u === "object" && u !== null && (u as { readonly _tag?: unknown })._tag === "IncompleteStream"

export const decodeStream = <Response, E, R, E2>(
  provider: string,
  accumulated: Effect.Effect<Response, E, R>,
  decode: (response: Response) => Effect.Effect<Converted<DecodedResponse>, E2>
): Effect.Effect<Converted<DecodedResponse>, Exclude<E, IncompleteStream> | E2 | IncompleteResponse, R> =>
  Effect.matchEffect(accumulated, {
    onSuccess: decode,
    onFailure: (error): Effect.Effect<never, Exclude<E, IncompleteStream> | IncompleteResponse> => {
      if (!isIncomplete(error)) return Effect.fail(error as Exclude<E, IncompleteStream>)
      const base = { provider, cut: error.cut, events: error.events }
      if (error.partial === undefined) return Effect.fail(new IncompleteResponse(base))
      return decode(error.partial as Response).pipe(
        Effect.matchEffect({
          onSuccess: (decoded) => Effect.fail(new IncompleteResponse({ ...base, partialMessage: decoded.value.message, partial: error.partial })),
          onFailure: () => Effect.fail(new IncompleteResponse({ ...base, partial: error.partial }))
        })
      )
    }
  })
