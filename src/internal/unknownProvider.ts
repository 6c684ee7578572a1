/**
 * A provider name none of ours, from a caller the types did not check (`as
 * any`, a string from a file): a programming error, said plainly.
 *
 * @internal
 */
import { all as allProviders } from "../Provider.js"

export const unknownProvider = (provider: never): never => {
  const given: unknown = provider
  throw new Error(`unknown provider ${typeof given === "string" ? JSON.stringify(given) : String(given)}: expected one of ${allProviders.join(", ")}`)
}
