/**
 * The conversion matrix (see `conversionMatrix.ts`): every format to every
 * other format for a shared set of conversations, as each format produces
 * them. Asserted per cell: the warnings the target reports, exactly; that a
 * format carries its own conversations without a warning; and that no
 * block is lost without a warning saying so.
 *
 * A Responses web search or a Gemini code execution written to Anthropic is
 * left out and reported, like every other cell's foreign server tool: the
 * Anthropic adapter writes only its own server tool blocks.
 */
import { assert, describe, it } from "@effect/vitest"
import { cell, diagonal, fixtures, formats } from "./conversionMatrix.js"

const expected: Record<string, Record<string, ReadonlyArray<string>>> = {
  "tool loop": {
  },
  "parallel calls": {
  },
  "thinking": {
    "openai-chat -> anthropic": ["dropped: thinking without a signature"],
    "openai-chat -> openai-responses": ["dropped: thinking without a reasoning item id"],
    "anthropic -> openai-chat": ["dropped: thinking"],
    "anthropic -> openai-responses": ["dropped: thinking without a reasoning item id"],
    "anthropic -> gemini": ["dropped: thinking with another provider's replay data"],
    "openai-responses -> openai-chat": ["dropped: thinking"],
    "openai-responses -> anthropic": ["dropped: thinking without a signature"],
    "openai-responses -> gemini": ["dropped: thinking with another provider's replay data"],
    "gemini -> openai-chat": ["dropped: thinking"],
    "gemini -> anthropic": ["dropped: thinking without a signature"],
    "gemini -> openai-responses": ["dropped: thinking without a reasoning item id"],
    "effect-ai -> openai-chat": ["dropped: thinking"],
    "effect-ai -> openai-responses": ["dropped: thinking without a reasoning item id"],
    "effect-ai -> gemini": ["dropped: thinking with another provider's replay data"]
  },
  "images": {
    "anthropic -> openai-chat": ["dropped: an image/png file in the result of zoom"],
    "openai-responses -> openai-chat": ["dropped: an image/png file in the result of zoom"],
    "openai-responses -> anthropic": ["dropped: the detail setting of an image/* file", "dropped: the detail setting of an image/png file"],
    "gemini -> openai-chat": ["dropped: an image/png file in the result of zoom"],
    "effect-ai -> openai-chat": ["dropped: an image/png file in the result of zoom"]
  },
  "server tools": {
    "anthropic -> openai-chat": ["dropped: the call of web_search, a tool the provider ran itself", "dropped: the result of web_search, a tool the provider ran itself"],
    "anthropic -> openai-responses": ["dropped: the provider-executed call \"web_search\"", "dropped: the result of the provider-executed call \"web_search\""],
    "anthropic -> gemini": ["dropped: the provider-executed call \"web_search\"", "dropped: the result of the provider-executed call \"web_search\""],
    "openai-responses -> openai-chat": ["dropped: the call of web_search, a tool the provider ran itself"],
    "openai-responses -> anthropic": ["dropped: the provider-executed call \"web_search\""],
    "openai-responses -> gemini": ["dropped: the provider-executed call \"web_search\""],
    "gemini -> openai-chat": ["dropped: the call of code_execution, a tool the provider ran itself", "dropped: the result of code_execution, a tool the provider ran itself"],
    "gemini -> openai-responses": ["dropped: the provider-executed call \"code_execution\"", "dropped: the result of the provider-executed call \"code_execution\""],
    "gemini -> anthropic": ["dropped: the provider-executed call \"code_execution\"", "dropped: the result of the provider-executed call \"code_execution\""],
    "effect-ai -> openai-chat": ["dropped: the call of web_search, a tool the provider ran itself", "dropped: the result of web_search, a tool the provider ran itself"],
    "effect-ai -> openai-responses": ["dropped: the provider-executed call \"web_search\"", "dropped: the result of the provider-executed call \"web_search\""],
    "effect-ai -> gemini": ["dropped: the provider-executed call \"web_search\"", "dropped: the result of the provider-executed call \"web_search\""]
  }
}
for (const fixture of Object.keys(fixtures)) {
  describe(`conversion matrix: ${fixture}`, () => {
    it("each format carries its own conversation without a warning", () => {
      for (const format of formats) assert.deepStrictEqual(diagonal(fixture, format), [], format)
    })

    for (const source of formats) {
      it(`from ${source}: each target reports exactly what it cannot carry, and loses nothing unreported`, () => {
        for (const target of formats) {
          const name = `${source} -> ${target}`
          const got = cell(fixture, source, target)
          assert.deepStrictEqual(got.warnings, expected[fixture]?.[name] ?? [], name)
          if (got.lost.length > 0) assert.isNotEmpty(got.warnings, `${name} lost ${got.lost.join(", ")} without a warning`)
        }
      })
    }
  })
}
