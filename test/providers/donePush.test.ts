import { assert, it } from "@effect/vitest"
import { Result } from "effect"
import { OpenAiChatStream, type OpenAiChatWire } from "../../src/providers/index.js"
const head = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1741570283, model: "gpt-4o-2024-08-06" }
const chunk = (delta: object, finish_reason: string | null = null) => ({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason }] }) as OpenAiChatWire.ChatCompletionChunk
it("events pushed after [DONE] (or a second one) are not read, as the SDKs stop at [DONE]", () => {
  const acc = OpenAiChatStream.make()
  for (const e of [chunk({ role: "assistant", content: "Hi" }), chunk({}, "stop"), "[DONE]", chunk({ content: "late" }), "[DONE]"]) acc.push(e as OpenAiChatWire.StreamEvent)
  const result = acc.done()
  assert.isTrue(Result.isSuccess(result))
  if (Result.isSuccess(result)) assert.strictEqual(result.success.choices[0]?.message.content, "Hi")
  const data = OpenAiChatStream.make()
  data.pushData(JSON.stringify(chunk({ role: "assistant", content: "Hi" }, "stop")))
  data.pushData("[DONE] ")
  data.pushData("{not json")
  assert.isTrue(Result.isSuccess(data.done()))
})
