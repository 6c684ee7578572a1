/**
 * The `agent-messages` program as a process: a bundle of `src/cli/main.ts`
 * built here with esbuild (as `npm run build` builds `dist/cli/main.js`),
 * run by Node with real pipes and devices. What the rest of the CLI tests
 * check in this process (see `cliBuild.ts`), these check where only a
 * process shows it: its exit codes, standard input as a pipe or a device, a
 * reader that closes the pipe early, output larger than a pipe holds, and a
 * missing @effect/platform-node.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as esbuild from "esbuild"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { buildCli, buildDirOf, inProcess, removeBuild, root, runCli } from "./cliBuild.js"

const buildDir = buildDirOf("process")
const bin = path.join(buildDir, "main.js")
const work = path.join(buildDir, "files")

beforeAll(async () => {
  fs.mkdirSync(work, { recursive: true })
  await buildCli(buildDir)
}, 120_000)

const cli = inProcess(path.join(buildDir, "in-process"))

afterAll(async () => {
  await cli.close()
  removeBuild(buildDir)
})

const file = (name: string, content: string): string => {
  const p = path.join(work, name)
  fs.writeFileSync(p, content)
  return p
}

/** Runs a shell command line from the repository's root, where `$CLI` runs the built command line. */
const shell = (command: string, shellName = "sh") =>
  spawnSync(shellName, ["-c", command.replaceAll("$CLI", '"$NODE" "$BIN"')], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NODE: process.execPath, BIN: bin },
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000
  })

const hasBash = spawnSync("bash", ["-c", "true"]).status === 0

// each test spawns Node several times: on a busy 2-core machine one spawn can take seconds
describe("the built command line as a process", { timeout: 300_000 }, () => {
  it("ends with exit code 0 for a valid conversation, 1 for issues found, 2 for unreadable input and for a usage error", () => {
    const valid = file("valid.json", '[{"role":"user","content":"hi"}]')
    const orphan = file("orphan.json", '[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c1","content":"42"}]')
    expect(runCli(bin, ["check", valid])).toMatchObject({ code: 0, stdout: "valid: 1 message\n" })
    expect(runCli(bin, ["check", orphan]).code).toBe(1)
    expect(runCli(bin, ["check", path.join(work, "missing.json")])).toMatchObject({ code: 2, stdout: "" })
    expect(runCli(bin, ["check", valid, "--bogus"])).toMatchObject({ code: 2, stdout: "" })
    expect(runCli(bin, ["--wizard"])).toMatchObject({ code: 2, stdout: "" })
    expect(runCli(bin, ["--version"])).toMatchObject({ code: 0, stdout: "agent-messages v0.1.0\n" })
  })

  it("reads standard input from a pipe", () => {
    const valid = file("piped.json", '[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]')
    const r = shell(`cat "${valid}" | $CLI check -`)
    expect([r.status, r.stdout]).toEqual([0, "valid: 2 messages\n"])
  })

  it("stops reading standard input at its first binary bytes: a device that never ends is refused, and the process ends", () => {
    const r = shell("$CLI check - < /dev/zero")
    expect([r.status, r.stdout]).toEqual([2, ""])
    expect(r.stderr).toContain("standard input is binary data")
    const piped = shell("head -c 100000000 /dev/zero | $CLI check -")
    expect(piped.status).toBe(2)
    expect(piped.stderr).toContain("standard input is binary data")
  })

  it.skipIf(!hasBash || !fs.existsSync("/dev/stdin"))("reads /dev/stdin and a process substitution as a stream", () => {
    const valid = file("sub.json", '[{"role":"user","content":"hi"}]')
    expect(shell(`$CLI check /dev/stdin < "${valid}"`, "bash")).toMatchObject({ status: 0, stdout: "valid: 1 message\n" })
    expect(shell(`$CLI check <(cat "${valid}")`, "bash")).toMatchObject({ status: 0, stdout: "valid: 1 message\n" })
  })

  it("a reader that closes the pipe early (| head -1) ends the run quietly, without a stack trace", () => {
    const messages = Array.from({ length: 50_000 }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `message ${i}` }))
    const many = file("many.json", JSON.stringify({ model: "gpt-4o", messages }))
    for (const command of ["tokens", "check --json"]) {
      const r = spawnSync("sh", ["-c", `"${process.execPath}" "${bin}" ${command} "${many}" | head -1`], { cwd: root, encoding: "utf8" })
      expect(r.stdout.split("\n").length).toBe(2)
      expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /)
    }
  })

  it("writes output many times larger than a pipe holds whole, through the pipe", () => {
    const count = 100_000
    const log = file("log.jsonl", Array.from({ length: count }, (_, i) => JSON.stringify({ role: i % 2 === 0 ? "user" : "assistant", content: `message ${i}` })).join("\n"))
    const r = shell(`$CLI convert "${log}" --to openai-chat | cat`)
    expect(r.status).toBe(0)
    const written = JSON.parse(r.stdout) as ReadonlyArray<{ readonly content: string }>
    expect([written.length, written[count - 1]?.content]).toEqual([count, `message ${count - 1}`])
  }, 300_000)

  it("says how to install @effect/platform-node when it is missing, with exit code 2", async () => {
    // effect bundled in, platform-node left to be imported: from a directory where it cannot be found
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-messages-"))
    try {
      const lone = path.join(dir, "main.mjs")
      await esbuild.build({
        entryPoints: [path.join(root, "src/cli/main.ts")],
        outfile: lone,
        bundle: true,
        platform: "node",
        format: "esm",
        target: "es2022",
        external: ["@effect/platform-node", "@effect/platform-node/*"],
        logLevel: "silent"
      })
      const r = spawnSync(process.execPath, [lone, "--version"], { cwd: dir, encoding: "utf8" })
      expect([r.status, r.stdout]).toEqual([2, ""])
      expect(r.stderr).toContain("npm install @effect/platform-node")
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it("ends with 143 on SIGTERM and 130 on SIGINT, even when the signal comes while one long step computes", async () => {
    // counting three million letters in a row exactly takes seconds, one step no handler runs during
    const big = file("one-long-message.json", JSON.stringify([{ role: "user", content: "a".repeat(3_000_000) }]))
    for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
      const child = spawn(process.execPath, [bin, "tokens", big, "--estimator", "o200k"], { stdio: ["ignore", "ignore", "pipe"] })
      const ended = new Promise<number | null>((resolve) => child.on("close", (exitCode) => resolve(exitCode)))
      // the input is read (the first line on stderr) before it is counted
      await new Promise<void>((resolve) => child.stderr.once("data", () => resolve()))
      child.kill(signal)
      expect([signal, await ended]).toEqual([signal, code])
    }
  }, 300_000)

  it("gives what the other CLI tests' in-process runs give: the same exit code, stdout and stderr", () => {
    const valid = file("same.json", '[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]')
    const orphan = file("same-orphan.json", '[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c1","content":"42"}]')
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string?]> = [
      [["check", valid]],
      [["check", orphan, "--json"]],
      [["tokens", "-"], '[{"role":"user","content":"hi"}]'],
      [["check", "-"], "\u0000binary"],
      [["convert", valid, "--to", "anthropic"]],
      [["trim", valid, "--budget", "1"]],
      [["check", path.join(work, "missing.json")]],
      [["check", "--bogus"]],
      [["check", "--help"]],
      [["--version"]],
      [["--wizard"]],
      [[]]
    ]
    for (const [args, input] of cases) expect(cli.run(args, input), args.join(" ")).toEqual(runCli(bin, args, input))
  }, 300_000)
})
