/**
 * An esbuild plugin for the build of `dist/`: rewrites our named imports from
 * the `effect` package's index modules (`import { Effect, Schema } from
 * "effect"`) into imports of the modules themselves (`import * as Effect from
 * "effect/Effect"`). Node loads every module an index names, so a cold start of
 * the command line (and of any Node program that reaches effect only through
 * this library) spent most of its time loading modules it never used. Bundlers
 * tree-shake either form, and the sources keep Effect's usual import style.
 */
import * as fs from "node:fs"

const indexes = {
  effect: "effect",
  "effect/ai": "effect/ai",
  "effect/cli": "effect/cli",
  "effect/encoding": "effect/encoding"
}

const pattern = /import\s+(type\s+)?\{([^}]*)\}\s+from\s+"(effect|effect\/ai|effect\/cli|effect\/encoding)"/g

/** @param {string} source */
export const rewriteEffectImports = (source) =>
  source.replace(pattern, (_all, typeOnly, names, from) => {
    const base = indexes[from]
    return names
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n.length > 0)
      .map((n) => {
        const isType = typeOnly !== undefined || n.startsWith("type ")
        const name = n.replace(/^type\s+/, "")
        if (name.includes(" as ")) throw new Error(`effectImports: renamed import "${name}" from "${from}" is not supported`)
        return `import ${isType ? "type " : ""}* as ${name} from "${base}/${name}"`
      })
      .join("; ")
  })

/** @type {import("esbuild").Plugin} */
export const effectImports = {
  name: "effect-module-imports",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, "utf8")
      return { contents: rewriteEffectImports(source), loader: "ts" }
    })
  }
}
