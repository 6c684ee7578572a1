/**
 * Timing helpers for the benches: run a function repeatedly for at least a
 * minimum time, several rounds, and report the median time per call.
 */
export const now = (): number => performance.now()

/** Median milliseconds per call of `fn` over `rounds` rounds of at least `minMs` each. */
export const timePerCall = (fn: () => unknown, options: { readonly minMs?: number; readonly rounds?: number } = {}): number => {
  const minMs = options.minMs ?? 150
  const rounds = options.rounds ?? 5
  fn() // warm up
  const samples: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    let calls = 0
    const start = now()
    let elapsed = 0
    do {
      fn()
      calls++
      elapsed = now() - start
    } while (elapsed < minMs)
    samples.push(elapsed / calls)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)]!
}

/** Keeps a value alive so the optimizer cannot drop the work that made it. */
export let sink: unknown
export const consume = (value: unknown): void => {
  sink = value
}

export const fmt = (n: number, digits = 1): string => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })

/** Prints a table with padded columns. */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): void => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
  console.log(line(header))
  console.log(widths.map((w) => "-".repeat(w)).join("  "))
  for (const r of rows) console.log(line(r))
}
