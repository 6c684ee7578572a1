#!/usr/bin/env bash
# Proves the built package loads by name, as a consumer would load it (self-reference
# through "exports"), from plain Node ESM and CJS scripts, main and exact entries.
set -euo pipefail
cd "$(dirname "$0")/.."
trap 'rm -f ./.smoke-esm.mjs ./.smoke-cjs.cjs' EXIT

cat > ./.smoke-esm.mjs <<'JS'
import { Effect } from "effect"
import { Message, TokenEstimator } from "effect-agent-messages"
import { layerO200k } from "effect-agent-messages/exact"
import * as GeminiEstimator from "effect-agent-messages/GeminiEstimator"
if (Message.textOf(Message.userMessage("hi")) !== "hi") throw new Error("esm import broken")
// Gemini's tokenizer writes a number digit by digit
if (GeminiEstimator.estimateText("12345678") !== 8) throw new Error("esm GeminiEstimator entry broken")
const n = await Effect.runPromise(
  TokenEstimator.TokenEstimator.use((t) => Effect.succeed(t.estimateMessage(Message.user("hello world")))).pipe(Effect.provide(layerO200k))
)
if (n !== 2 + 4) throw new Error(`esm exact entry counted ${n}`)
console.log("esm import ok (main, exact and GeminiEstimator entries)")
JS

cat > ./.smoke-cjs.cjs <<'JS'
const { Effect } = require("effect")
const { Message, TokenEstimator } = require("effect-agent-messages")
const { layerO200k } = require("effect-agent-messages/exact")
const GeminiEstimator = require("effect-agent-messages/GeminiEstimator")
if (Message.textOf(Message.userMessage("hi")) !== "hi") throw new Error("cjs require broken")
if (GeminiEstimator.estimateText("12345678") !== 8) throw new Error("cjs GeminiEstimator entry broken")
Effect.runPromise(
  TokenEstimator.TokenEstimator.use((t) => Effect.succeed(t.estimateMessage(Message.user("hello world")))).pipe(Effect.provide(layerO200k))
).then((n) => {
  if (n !== 2 + 4) throw new Error(`cjs exact entry counted ${n}`)
  console.log("cjs require ok (main, exact and GeminiEstimator entries)")
})
JS

node ./.smoke-esm.mjs
node ./.smoke-cjs.cjs

# dist reaches effect through its modules, never its index (see scripts/effectImports.mjs);
# the command line loads platform-node's two modules, never its index
if grep -lE "from ['\"](effect|effect/ai|effect/cli|effect/encoding|@effect/platform-node)['\"]|require\(['\"](effect|effect/ai|effect/cli|effect/encoding)['\"]\)" dist/*.js dist/*.cjs dist/*/*.js dist/*/*.cjs; then
  echo "dist imports an index module (listed above)" >&2
  exit 1
fi
echo "dist imports effect's modules, not its index"
