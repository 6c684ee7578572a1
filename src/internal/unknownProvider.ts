/**
 * A provider name none of ours, from a caller the types did not check (`as
 * any`, a string from a file): a programming error, said plainly.
 *
 * @internal
 */
import { all as allProviders } from "../Provider.js"
import { preview } from "./preview.js"

export const unknownProvider = (provider: never): never => {
  // shown clipped and deep-safe: `String` of a nested array overflows the stack, and of an object without `toString` throws
  throw new Error(`unknown provider ${preview(provider)}: expected one of ${allProviders.join(", ")}`)
}
