import { defineConfig } from "tsup"
// @ts-expect-error: a plain ESM script, no declarations
import { effectImports } from "./scripts/effectImports.mjs"

// JavaScript only: declarations come from tsc (`tsconfig.build.json`), one .d.ts per
// module, so editors and compiler messages name our modules, not bundler chunks.
// `splitting` gives the CommonJS build shared chunks too, so each entry reuses the
// others' code instead of carrying a second copy of it.
const external = ["effect", "gpt-tokenizer", "jsonrepair", "@effect/platform-node"]

const adapters = ["OpenAiChat", "Anthropic", "OpenAiResponses", "Gemini", "EffectAi"]

const modules = [
  "Block",
  "Calibration",
  "Conversation",
  "ConversationContext",
  "GeminiEstimator",
  "Message",
  "MessageWindow",
  "Provider",
  "Repair",
  "Request",
  "Summarizer",
  "TokenEstimator",
  "ValidationError"
]

export default defineConfig([
  {
    // one entry per module too, so `effect-agent-messages/Message` loads the model alone
    entry: {
      index: "src/index.ts",
      ...Object.fromEntries(modules.map((m) => [m, `src/${m}.ts`])),
      "exact/index": "src/exact/index.ts",
      "providers/index": "src/providers/index.ts",
      ...Object.fromEntries(adapters.map((m) => [`providers/${m}`, `src/providers/${m}.ts`]))
    },
    format: ["esm", "cjs"],
    dts: false,
    splitting: true,
    clean: true,
    sourcemap: true,
    treeshake: true,
    target: "es2022",
    external,
    esbuildPlugins: [effectImports]
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
    external,
    esbuildPlugins: [effectImports]
  }
])
