/**
 * The fuzz harness finds what it says it finds: a suite that could not see a
 * defect would report zero defects forever.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { runCase, skip, type Target } from "./harness.js"

class Tagged extends Schema.TaggedError<Tagged>()("Tagged", { message: Schema.String }) {}

const busy = (ms: number): void => {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // spin: the harness times the call, not a timer
  }
}

const outcome = <I>(target: Target<I>, input: I, hangMs?: number) => {
  const { ms: _ms, ...rest } = runCase(target, input, hangMs === undefined ? undefined : { hangMs })
  return rest
}

describe("the fuzz harness", () => {
  it("tells a success, a skip and a readable tagged error from the defects", () => {
    assert.deepStrictEqual(outcome({ name: "ok", run: () => 1 }, 0), { kind: "success" })
    assert.deepStrictEqual(outcome({ name: "skip", run: () => skip("outside") }, 0), { kind: "skipped", reason: "outside" })
    assert.deepStrictEqual(outcome({ name: "fail", run: () => Effect.fail(new Tagged({ message: "bad input" })) }, 0), { kind: "failure", tag: "Tagged" })
    assert.deepStrictEqual(outcome({ name: "result", run: () => Result.fail(new Tagged({ message: "bad input" })) }, 0), { kind: "failure", tag: "Tagged" })
  })

  it("reports a throw, a die, a stack overflow, an unreadable error and a failed check", () => {
    const kind = (target: Target<number>) => {
      const o = outcome(target, 0)
      return o.kind === "defect" ? o.defect : o.kind
    }
    assert.strictEqual(kind({ name: "throw", run: () => { throw new Error("boom") } }), "throw")
    assert.strictEqual(kind({ name: "die", run: () => Effect.die(new Error("boom")) }), "die")
    assert.strictEqual(kind({ name: "untagged", run: () => Effect.fail(new Error("no tag")) }), "die")
    const deep = (n: number): number => (n === 0 ? 0 : 1 + deep(n - 1))
    assert.strictEqual(kind({ name: "overflow", run: () => deep(1e7) }), "stack-overflow")
    assert.strictEqual(kind({ name: "unreadable", run: () => Effect.fail(new Tagged({ message: "" })) }), "unreadable")
    assert.strictEqual(kind({ name: "check", run: () => 1, check: () => "lost an argument" }), "round-trip")
  })

  it("reports prototype pollution and restores the prototype", () => {
    const o = outcome({ name: "pollute", run: () => Object.assign(Object.prototype, { fuzzPolluted: true }) }, 0)
    assert.strictEqual(o.kind === "defect" ? o.defect : o.kind, "pollution")
    assert.isFalse("fuzzPolluted" in {})
  })

  it("times the call alone against the hang limit, times the passes it makes; a slow check is not a hang", () => {
    const slow = outcome({ name: "slow", run: () => busy(60) }, 0, 10)
    assert.strictEqual(slow.kind === "defect" ? slow.defect : slow.kind, "timeout")
    assert.deepStrictEqual(outcome({ name: "many passes", passes: 50, run: () => busy(30) }, 0, 10), { kind: "success" })
    assert.deepStrictEqual(outcome({ name: "slow check", run: () => 1, check: () => (busy(30), undefined) }, 0, 10), { kind: "success" })
  })

  it("judges a hang by the CPU time the call spent: a call that waits for the machine is slowed, not hung", () => {
    const idle = new Int32Array(new SharedArrayBuffer(4))
    // blocks the thread for 100 ms without computing, as a call waiting for a core on a shared machine does
    const waits = outcome({ name: "waits", run: () => Atomics.wait(idle, 0, 0, 100) }, 0, 10)
    assert.deepStrictEqual(waits, { kind: "success" })
    const spins = outcome({ name: "spins", run: () => busy(100) }, 0, 10)
    assert.strictEqual(spins.kind === "defect" ? spins.defect : spins.kind, "timeout")
  })
})
