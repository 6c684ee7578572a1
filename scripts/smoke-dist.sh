#!/usr/bin/env bash
# Proves the built package loads by name from plain Node ESM and CJS scripts.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/esm.mjs" <<'JS'
import { Message } from "effect-agent-messages"
if (Message.textOf(Message.userMessage("hi")) !== "hi") throw new Error("esm import broken")
console.log("esm import ok")
JS
cat > "$tmp/cjs.cjs" <<'JS'
const { Message } = require("effect-agent-messages")
if (Message.textOf(Message.userMessage("hi")) !== "hi") throw new Error("cjs require broken")
console.log("cjs require ok")
JS
# resolve the package by name, as a consumer would (self-reference through "exports")
cp "$tmp/esm.mjs" ./.smoke-esm.mjs
cp "$tmp/cjs.cjs" ./.smoke-cjs.cjs
trap 'rm -rf "$tmp" ./.smoke-esm.mjs ./.smoke-cjs.cjs' EXIT
node ./.smoke-esm.mjs
node ./.smoke-cjs.cjs

# the optional exact entry loads from its own subpath and counts with gpt-tokenizer
cat > ./.smoke-exact.mjs <<'JS'
import { Effect } from "effect"
import { Message, TokenEstimator } from "effect-agent-messages"
import { layerO200k } from "effect-agent-messages/exact"
const n = await Effect.runPromise(
  TokenEstimator.TokenEstimator.use((t) => Effect.succeed(t.estimateMessage(Message.user("hello world")))).pipe(Effect.provide(layerO200k))
)
if (n !== 2 + 4) throw new Error(`exact entry counted ${n}`)
console.log("exact entry ok")
JS
trap 'rm -rf "$tmp" ./.smoke-esm.mjs ./.smoke-cjs.cjs ./.smoke-exact.mjs' EXIT
node ./.smoke-exact.mjs
