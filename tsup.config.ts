import { defineConfig } from "tsup"

// JavaScript only: declarations come from tsc (`tsconfig.build.json`), one .d.ts per
// module, so editors and compiler messages name our modules, not bundler chunks.
// `splitting` gives the CommonJS build shared chunks too, so the exact entry reuses
// the main entry's code instead of carrying a second copy of it.
export default defineConfig({
  entry: {
    index: "src/index.ts",
    "exact/index": "src/exact/index.ts"
  },
  format: ["esm", "cjs"],
  dts: false,
  splitting: true,
  clean: true,
  sourcemap: true,
  treeshake: true,
  target: "es2022",
  external: ["effect", "gpt-tokenizer", "jsonrepair"]
})
