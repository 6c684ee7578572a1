#!/usr/bin/env node
/**
 * The `agent-messages` executable: runs the command line on Node with
 * `@effect/platform-node` (an optional peer dependency: library users never
 * load it; the command line says how to install it when it is missing).
 *
 * @since 0.1.0
 */
import { Effect, Runtime } from "effect"
import { run } from "./Cli.js"

const VERSION = "0.1.0"

// the two modules it needs, not the package index, which loads every
// platform module (a Redis client and a WebSocket server among them)
const platform = await Promise.all([import("@effect/platform-node/NodeServices"), import("@effect/platform-node/NodeRuntime")])
  .catch((cause: unknown) => {
    process.stderr.write(
      `agent-messages: the command line runs on @effect/platform-node, which is not installed (npm install @effect/platform-node): ${cause instanceof Error ? cause.message.split("\n")[0] : String(cause)}\n`
    )
    process.exit(2)
  })
const [NodeServices, NodeRuntime] = platform

// a reader that stops early (`| head`) closes the pipe: the rest of the output is not wanted, which is no failure;
// any other write error is one line, never a stack trace
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") process.stderr.write(`agent-messages: cannot write the output: ${error.message}\n`)
  process.exit(error.code === "EPIPE" ? (typeof process.exitCode === "number" ? process.exitCode : 0) : 2)
})

// Ctrl-C or SIGTERM interrupts the run between its steps; one step (reading or counting one huge message) runs to its
// end first, as no handler runs while it computes. A signal that came during it still ends the run as a signal does,
// 130 for SIGINT and 143 for SIGTERM, never with the code of the work finished after it: a stopped run is no success
let signalled: number | undefined
const onSigint = (): void => void (signalled ??= 130)
const onSigterm = (): void => void (signalled ??= 143)
process.on("SIGINT", onSigint)
process.on("SIGTERM", onSigterm)

// the exit code is the run's value; the process ends with it once its output is written
run(VERSION).pipe(
  Effect.flatMap((code) =>
    Effect.sync(() => {
      process.exitCode = code
    })
  ),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({
    // a signal caught while the last step computed reaches its listeners only when the event loop next polls, which
    // may be after this turn's immediates: the exit code is settled two turns later, after that poll
    teardown: (exit, onExit) =>
      Runtime.defaultTeardown(exit, (code) =>
        setImmediate(() =>
          setImmediate(() => {
            process.removeListener("SIGINT", onSigint)
            process.removeListener("SIGTERM", onSigterm)
            onExit(signalled ?? code)
          })
        )
      )
  })
)
