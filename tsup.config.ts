import { defineConfig } from "tsup"

// JavaScript only: declarations come from tsc (`tsconfig.build.json`), one .d.ts per
// module, so editors and compiler messages name our modules, not bundler chunks.
// `splitting` gives the CommonJS build shared chunks too, so each entry reuses the
// others' code instead of carrying a second copy of it.
const external = ["effect", "gpt-tokenizer", "jsonrepair", "@effect/platform-node"]

export default defineConfig([
  {
    entry: {
      index: "src/index.ts",
      "exact/index": "src/exact/index.ts",
      "providers/index": "src/providers/index.ts"
    },
    format: ["esm", "cjs"],
    dts: false,
    splitting: true,
    clean: true,
    sourcemap: true,
    treeshake: true,
    target: "es2022",
    external
  },
  {
    // the command line: ESM only (it awaits its runtime at the top level)
    entry: { "cli/main": "src/cli/main.ts" },
    format: ["esm"],
    dts: false,
    splitting: false,
    clean: false,
    sourcemap: true,
    treeshake: true,
    target: "es2022",
    platform: "node",
    external
  }
])
