/**
 * The command line as the tests run it.
 *
 * Most tests run it in this process (`cliHarness`, `inProcess`): `Cli.run`
 * in a worker thread, loaded once per test file, with standard input, output
 * and error given and captured through a test `Stdio` layer, answering each
 * run synchronously. The tests whose point is the process itself (exit codes
 * of the built program, pipes, devices, a reader closing the pipe) run a
 * bundle of `src/cli/main.ts` built with esbuild as `npm run build` builds
 * `dist/cli/main.js` (`buildCli`, `runCli`).
 */
import { afterAll, beforeAll } from "@effect/vitest"
import * as esbuild from "esbuild"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads"
import type { Channel, Request } from "./cliWorker.js"

/** The repository's root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/** The version the command line prints. */
const VERSION = "0.1.0"

/** Where a test file's bundle and scratch files go (removed by `removeBuild`). */
export const buildDirOf = (name: string): string => path.join(root, `.cli-build-${name}-${process.pid}`)

const bundleOptions = (entry: string, outfile: string): esbuild.BuildOptions => ({
  entryPoints: [path.join(root, entry)],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "es2022",
  packages: "external",
  logLevel: "silent"
})

/** Bundles the command line into `dir/main.js` and returns that path. */
export const buildCli = async (dir: string): Promise<string> => {
  const bin = path.join(dir, "main.js")
  fs.mkdirSync(dir, { recursive: true })
  await esbuild.build(bundleOptions("src/cli/main.ts", bin))
  return bin
}

export const removeBuild = (dir: string): void => fs.rmSync(dir, { recursive: true, force: true })

/** What a run of the command line gave: its exit code, standard output and standard error. */
export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs the bundle at `bin` with `args` (and `input` on standard input) from the repository's root, as a user would. */
export const runCli = (bin: string, args: ReadonlyArray<string>, input?: string): Run => {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, input, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr }
}

/** How long one in-process run may take before it is reported as hung. */
const RUN_TIMEOUT_MS = 600_000

/**
 * The command line run in this process: `run` bundles the worker of
 * `cliWorker.ts` into `dir` on its first call, and `close` ends the worker.
 * Relative paths are read from the working directory, as a user's shell
 * gives them: when that is not the repository's root (a worker thread cannot
 * change it), each run spawns the built command line from the root instead.
 */
export const inProcess = (dir: string): {
  readonly run: (args: ReadonlyArray<string>, input?: string) => Run
  readonly close: () => Promise<void>
} => {
  let started: { readonly worker: Worker; readonly channel: Channel; readonly own: MessageChannel["port1"] } | undefined
  let bin: string | undefined
  const start = () => {
    if (started !== undefined) return started
    const script = path.join(dir, "worker.js")
    fs.mkdirSync(dir, { recursive: true })
    esbuild.buildSync(bundleOptions("test/cliWorker.ts", script))
    const { port1, port2 } = new MessageChannel()
    const channel: Channel = { port: port2, flag: new Int32Array(new SharedArrayBuffer(4)) }
    const worker = new Worker(script, { workerData: channel, transferList: [port2] })
    worker.unref()
    started = { worker, channel, own: port1 }
    return started
  }
  const spawned = (args: ReadonlyArray<string>, input?: string): Run => {
    if (bin === undefined) {
      bin = path.join(dir, "main.js")
      fs.mkdirSync(dir, { recursive: true })
      esbuild.buildSync(bundleOptions("src/cli/main.ts", bin))
    }
    return runCli(bin, args, input)
  }
  return {
    run: (args, input) => {
      if (process.cwd() !== root) return spawned(args, input)
      const { channel, own, worker } = start()
      Atomics.store(channel.flag, 0, 0)
      const request: Request = { args: [...args], input, version: VERSION }
      worker.postMessage(request)
      if (Atomics.wait(channel.flag, 0, 0, RUN_TIMEOUT_MS) === "timed-out") {
        throw new Error(`agent-messages ${args.join(" ")} gave no answer in ${RUN_TIMEOUT_MS / 1000} s`)
      }
      const answer = receiveMessageOnPort(own)
      if (answer === undefined) throw new Error(`agent-messages ${args.join(" ")}: the worker woke without an answer`)
      return answer.message as Run
    },
    close: async () => {
      if (started === undefined) return
      started.own.close()
      await started.worker.terminate()
      started = undefined
    }
  }
}

/**
 * The usual setup of a CLI test file: the command line run in this process
 * (see `inProcess`), with a scratch directory of its own (`name` keeps it
 * apart from other files') removed after its tests, `run` to run it, and
 * `file` to write a JSON file for it to read.
 */
export const cliHarness = (name: string): {
  readonly run: (args: ReadonlyArray<string>, input?: string) => Run
  readonly file: (name: string, content: unknown) => string
  readonly work: string
} => {
  const buildDir = buildDirOf(name)
  const work = path.join(buildDir, "files")
  const cli = inProcess(buildDir)
  beforeAll(() => {
    fs.mkdirSync(work, { recursive: true })
  })
  afterAll(async () => {
    await cli.close()
    removeBuild(buildDir)
  })
  return {
    run: cli.run,
    file: (fileName, content) => {
      const p = path.join(work, fileName)
      fs.writeFileSync(p, JSON.stringify(content))
      return p
    },
    work
  }
}
