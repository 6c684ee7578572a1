// Type-checks every ```ts code block of README.md against the package's sources, so the
// docs cannot drift from the API. Each block is its own module (a block is a complete
// example: it imports what it uses) and may use top-level await.
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { writeExampleTsconfig } from "./exampleTsconfig.mjs"

const root = path.resolve(import.meta.dirname, "..")
const out = path.join(root, ".readme-check")
fs.rmSync(out, { recursive: true, force: true })
fs.mkdirSync(out)

const readme = fs.readFileSync(path.join(root, "README.md"), "utf8")
const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1])
blocks.forEach((code, i) => fs.writeFileSync(path.join(out, `block${String(i + 1).padStart(2, "0")}.ts`), `${code}\nexport {}\n`))

writeExampleTsconfig(out)

try {
  execFileSync(path.join(root, "node_modules/.bin/node"), [path.join(root, "node_modules/typescript/bin/tsc"), "-p", out], { stdio: "inherit" })
  console.log(`README: ${blocks.length} TypeScript blocks type-check`)
  fs.rmSync(out, { recursive: true, force: true })
} catch {
  console.error(`README: a TypeScript block does not type-check (files kept in ${path.relative(root, out)}/)`)
  process.exit(1)
}
