/**
 * The core and the adapters run in browsers, Deno, Bun and edge runtimes: bundled for
 * the browser with esbuild (a Node built-in in the import graph fails the build), then
 * run in a context that has the web platform's globals and none of Node's (no
 * `process`, `Buffer`, `require`).
 */
import { describe, expect, it } from "@effect/vitest"
import * as esbuild from "esbuild"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as vm from "node:vm"

const here = path.dirname(fileURLToPath(import.meta.url))

describe("the core outside Node", () => {
  it("bundles for the browser with no Node built-in, and runs without Node's globals", async () => {
    const out = await esbuild.build({
      entryPoints: [path.join(here, "portable/entry.ts")],
      bundle: true,
      platform: "browser",
      format: "iife",
      target: "es2022",
      write: false,
      logLevel: "silent"
    })
    const code = out.outputFiles[0]!.text
    const context = vm.createContext({
      TextEncoder,
      TextDecoder,
      btoa,
      atob,
      URL,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      queueMicrotask,
      performance,
      structuredClone,
      console: { log() {}, warn() {}, error() {}, debug() {}, info() {} }
    })
    vm.runInContext(code, context)
    for (let i = 0; i < 200 && (context as { __result?: unknown }).__result === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const result = (context as { __result?: Record<string, unknown> }).__result
    expect(result).toBeDefined()
    expect(result?.["error"]).toBeUndefined()
    expect(result).toMatchObject({ repairActions: 2, kept: 5, back: 5, decoded: 5 })
    expect(result?.["wire"]).toEqual([5, 4, 5, 4])
  }, 120_000)
})
