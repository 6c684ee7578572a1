/**
 * Another provider's settings that change what the model may do, and that
 * the model has no type for, are reported when the target cannot carry
 * them; the rest of another provider's options mean nothing to the target
 * and are left out without a word.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Message, Request } from "../../src/index.js"
import { Anthropic, Gemini, OpenAiChat, OpenAiResponses } from "../../src/providers/index.js"

const dropped = (warnings: ReadonlyArray<{ readonly _tag: string; readonly message: string }>): Array<string> =>
  warnings.filter((w) => w._tag === "DroppedContent").map((w) => w.message)

describe("another provider's settings", () => {
  it.effect("a tool choice the model could not read is reported by every other target, never by its own", () =>
    Effect.gen(function*() {
      const request = yield* Gemini.fromRequest({
        contents: [{ role: "user", parts: [{ text: "Weather?" }] }],
        tools: [{ functionDeclarations: [{ name: "a" }, { name: "b" }] }],
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["a", "b"] } }
      })
      expect(request.value.toolChoice).toBeUndefined()
      for (const written of [yield* OpenAiChat.toRequest(request.value), yield* Anthropic.toRequest(request.value), yield* OpenAiResponses.toRequest(request.value)]) {
        expect(dropped(written.warnings)).toEqual([
          expect.stringMatching(/^gemini's toolConfig \{"functionCallingConfig":\{"mode":"ANY","allowedFunctionNames":\["a","b"\]\}\} was left out: a tool choice the model has no type for/)
        ])
      }
      expect(dropped((yield* Gemini.toRequest(request.value)).warnings)).toEqual([])
    }))

  it.effect("Gemini's OpenAPI response schema is reported when it cannot go along", () =>
    Effect.gen(function*() {
      const request = Request.make([Message.user("Weather?")], {
        providerOptions: { gemini: { generationConfig: { responseMimeType: "application/json", responseSchema: { type: "OBJECT", properties: { a: { type: "STRING" } } } } } }
      })
      expect(dropped((yield* OpenAiChat.toRequest(request)).warnings)).toEqual([
        "gemini's generationConfig.responseSchema was left out: an OpenAPI response schema the model has no type for, so openai-chat gets no structured output from it"
      ])
      // settings that only tune the provider are not reported
      const tuned = Request.make([Message.user("hi")], { providerOptions: { gemini: { generationConfig: { temperature: 0.2 } }, anthropic: { metadata: { user_id: "u" } } } })
      expect((yield* OpenAiChat.toRequest(tuned)).warnings).toEqual([])
    }))
})
