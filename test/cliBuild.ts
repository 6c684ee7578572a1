/**
 * The command line as the tests run it: a bundle of `src/cli/main.ts` built
 * with esbuild (as `npm run build` builds `dist/cli/main.js`, dependencies left
 * external) into a directory of its own per test process.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import * as esbuild from "esbuild"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** The repository's root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/** Where a test file's bundle and scratch files go (removed by `removeBuild`). */
export const buildDirOf = (name: string): string => path.join(root, `.cli-build-${name}-${process.pid}`)

/** Bundles the command line into `dir/main.js` and returns that path. */
export const buildCli = async (dir: string): Promise<string> => {
  const bin = path.join(dir, "main.js")
  fs.mkdirSync(dir, { recursive: true })
  await esbuild.build({
    entryPoints: [path.join(root, "src/cli/main.ts")],
    outfile: bin,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "es2022",
    packages: "external",
    logLevel: "silent"
  })
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

/**
 * The usual setup of a CLI test file: a bundle of its own built before its
 * tests and removed after them (`name` keeps it apart from other files'),
 * `run` to run it, and `file` to write a JSON file for it to read.
 */
export const cliHarness = (name: string): {
  readonly run: (args: ReadonlyArray<string>, input?: string) => Run
  readonly file: (name: string, content: unknown) => string
  readonly work: string
} => {
  const buildDir = buildDirOf(name)
  const bin = path.join(buildDir, "main.js")
  const work = path.join(buildDir, "files")
  beforeAll(async () => {
    fs.mkdirSync(work, { recursive: true })
    await buildCli(buildDir)
  }, 120_000)
  afterAll(() => removeBuild(buildDir))
  return {
    run: (args, input) => runCli(bin, args, input),
    file: (fileName, content) => {
      const p = path.join(work, fileName)
      fs.writeFileSync(p, JSON.stringify(content))
      return p
    },
    work
  }
}
