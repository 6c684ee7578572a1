#!/usr/bin/env node
/**
 * The `agent-messages` executable: runs the command line on Node with
 * `@effect/platform-node` (an optional peer dependency: library users never
 * load it; the command line says how to install it when it is missing).
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { Command } from "effect/cli"
import { command } from "./Cli.js"

const VERSION = "0.1.0"

const platform = await import("@effect/platform-node").catch((cause: unknown) => {
  process.stderr.write(
    `agent-messages: the command line runs on @effect/platform-node, which is not installed (npm install @effect/platform-node): ${cause instanceof Error ? cause.message.split("\n")[0] : String(cause)}\n`
  )
  process.exit(2)
})

Command.run(command, { version: VERSION }).pipe(Effect.provide(platform.NodeServices.layer), platform.NodeRuntime.runMain)
