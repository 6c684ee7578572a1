/**
 * The command line run in a worker thread of the test process (see
 * `cliBuild.ts`, `inProcess`): `Cli.run` with standard input, output and
 * error those of a test `Stdio` layer, and Node's file system and path.
 * Each request is one run; its result is posted on the port it came with,
 * and the waiting thread is woken through the shared flag.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { Console, Effect, Layer, Sink, Stdio, Stream, Terminal } from "effect"
import { ChildProcessSpawner } from "effect/process"
import { format } from "node:util"
import { type MessagePort, parentPort, workerData } from "node:worker_threads"
import { run } from "../src/cli/Cli.js"

/** What the test thread asks for: one run. */
export interface Request {
  readonly args: ReadonlyArray<string>
  readonly input: string | undefined
  readonly version: string
}

/** Where answers go: posted on `port`, with `flag` set to 1 once one is there. */
export interface Channel {
  readonly port: MessagePort
  readonly flag: Int32Array
}

const unused = Effect.die("a terminal is not used in tests")

const services = Layer.mergeAll(
  NodeFileSystem.layer,
  NodePath.layer,
  Layer.succeed(
    Terminal.Terminal,
    Terminal.make({ columns: Effect.succeed(80), rows: Effect.succeed(24), size: unused, readInput: unused, readLine: unused, display: () => Effect.void })
  ),
  Layer.succeed(ChildProcessSpawner.ChildProcessSpawner, ChildProcessSpawner.make(() => Effect.die("no process is spawned in tests")))
)

const decoder = new TextDecoder()

/** One run: its exit code and what it wrote (help and version, written by effect's command line through `Console`, included). */
const runOnce = (args: ReadonlyArray<string>, input: string | undefined, version: string) => {
  const stdout: Array<string> = []
  const stderr: Array<string> = []
  const collect = (into: Array<string>) => Sink.forEach((chunk: string | Uint8Array) => Effect.sync(() => {
    into.push(typeof chunk === "string" ? chunk : decoder.decode(chunk))
  }))
  const out = (...values: ReadonlyArray<unknown>) => void stdout.push(`${format(...values)}\n`)
  const err = (...values: ReadonlyArray<unknown>) => void stderr.push(`${format(...values)}\n`)
  const console: Console.Console = { ...globalThis.console, log: out, info: out, debug: out, error: err, warn: err, trace: err }
  const stdio = Stdio.layerTest({
    args: Effect.succeed(args),
    stdin: input === undefined ? Stream.empty : Stream.make(new TextEncoder().encode(input)),
    stdout: () => collect(stdout),
    stderr: () => collect(stderr)
  })
  return run(version).pipe(
    Effect.catchCause((cause) => Effect.sync(() => err(`agent-messages: ${String(cause)}`)).pipe(Effect.as(1))),
    Effect.provide(Layer.merge(stdio, services)),
    Effect.provideService(Console.Console, console),
    Effect.map((code) => ({ code, stdout: stdout.join(""), stderr: stderr.join("") }))
  )
}

const { flag, port } = workerData as Channel

parentPort?.on("message", (request: Request) => {
  void Effect.runPromise(runOnce(request.args, request.input, request.version)).then(
    (result) => result,
    (cause: unknown) => ({ code: -1, stdout: "", stderr: String(cause) })
  ).then((result) => {
    port.postMessage(result)
    Atomics.store(flag, 0, 1)
    Atomics.notify(flag, 0)
  })
})
