// Writes a CommonJS twin (.d.cts) of every declaration file tsc emitted into
// dist/types, with relative specifiers pointing at the twins, so `require`
// consumers get declarations that describe a CommonJS module.
import * as fs from "node:fs"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "../dist/types")
const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
  const p = path.join(dir, e.name)
  return e.isDirectory() ? walk(p) : [p]
})
let count = 0
for (const file of walk(root)) {
  if (!file.endsWith(".d.ts")) continue
  const text = fs.readFileSync(file, "utf8")
    .replace(/(from\s+|import\()(["'])(\.{1,2}\/[^"']+?)\.js\2/g, "$1$2$3.cjs$2")
    .replace(/\/\/# sourceMappingURL=(.+)\.d\.ts\.map/, "//# sourceMappingURL=$1.d.ts.map")
  fs.writeFileSync(file.replace(/\.d\.ts$/, ".d.cts"), text)
  count++
}
console.log(`dts-cjs: wrote ${count} .d.cts files`)
