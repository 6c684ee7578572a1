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
