#!/usr/bin/env node
/**
 * The `agent-messages` executable: runs the command line on Node with
 * `@effect/platform-node` (an optional peer dependency: library users never
 * load it; the command line says how to install it when it is missing).
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
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

// the exit code is the run's value; the process ends with it once its output is written
run(VERSION).pipe(
  Effect.flatMap((code) =>
    Effect.sync(() => {
      process.exitCode = code
    })
  ),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
