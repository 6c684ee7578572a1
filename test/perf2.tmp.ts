import { Effect } from "effect"
import { makeRng, manyMessagesJson } from "./fuzz/generators.js"
import { Conversation } from "../src/index.js"
const N = Number(process.argv[2] ?? 200000)
const raw = manyMessagesJson({ ...makeRng(1), int: () => 0 } as any, N)
const text = raw.map((m) => JSON.stringify(m)).join("\n")
const s = performance.now()
const exit = Effect.runSyncExit(Conversation.decodeJsonl(text))
console.log(exit._tag, ((performance.now() - s) * 1000 / N).toFixed(2), "us/msg")
