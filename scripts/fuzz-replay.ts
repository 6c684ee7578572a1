/**
 * Replays one fuzz case: `--domain NAME --class CLASS --seed N [--target NAME] [--short|--long]`,
 * printing the input (abridged) and the outcome of each target.
 */
import { makeRng, longSizes, shortSizes, type CaseClass } from "../test/fuzz/generators.js"
import { runCase } from "../test/fuzz/harness.js"
import { domains } from "../test/fuzz/targets.js"

const args = process.argv.slice(2)
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? undefined : args[i + 1]
}
const sizes = args.includes("--long") ? longSizes : shortSizes
const domain = domains.find((d) => d.name === flag("domain"))
if (domain === undefined) throw new Error(`no domain ${flag("domain")}; domains: ${domains.map((d) => d.name).join(", ")}`)
const input = domain.generate(flag("class") as CaseClass, makeRng(Number(flag("seed"))), sizes)
const show = (u: unknown): string => {
  try {
    return JSON.stringify(u, (_k, v) => (typeof v === "string" && v.length > 200 ? `${v.slice(0, 200)}…(${v.length})` : typeof v === "bigint" ? `${v}n` : v))?.slice(0, 3000) ?? String(u)
  } catch (e) {
    return `(unprintable: ${String(e)})`
  }
}
console.log("input:", show(input))
for (const target of domain.targets) {
  if (flag("target") !== undefined && target.name !== flag("target")) continue
  const outcome = runCase(target, input)
  console.log(`${target.name}: ${JSON.stringify(outcome)}`)
}
