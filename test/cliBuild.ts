/**
 * The command line as the tests run it: a bundle of `src/cli/main.ts` built
 * with esbuild (as `npm run build` builds `dist/cli/main.js`, dependencies left
 * external) into a directory of its own per test process.
 */
import * as esbuild from "esbuild"
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
