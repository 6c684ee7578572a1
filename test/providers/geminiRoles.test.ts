/**
 * A Gemini content of a role Gemini never takes ("assistant", "system": a
 * message of another format in a Gemini body) is read as a user content, as
 * before, and kept for Gemini, but now said: the reading moved another
 * format's assistant words into the user's turn without a word.
 */
import { assert, describe, it } from "@effect/vitest"
import { Gemini } from "../../src/providers/index.js"
import { exact, ok } from "./adapterHelpers.js"

const body = (roles: ReadonlyArray<string | undefined>) => ({
  contents: roles.map((role, i) => ({ ...(role === undefined ? {} : { role }), parts: [{ text: `text ${i}` }] }))
})

describe("Gemini contents of a role Gemini never takes", () => {
  it("are read as the user's, kept for Gemini, and reported at their role", () => {
    const given = body(["user", "assistant", "model", "system"])
    const read = ok(Gemini.fromRequest(given))
    assert.deepStrictEqual(read.warnings.map((w) => [w._tag, w.message]), [
      ["UnknownProviderField", "unknown provider field contents[1].role was kept as provider data"],
      ["UnknownProviderField", "unknown provider field contents[3].role was kept as provider data"]
    ])
    assert.deepStrictEqual(read.value.messages.map((m) => m.role), ["user", "user", "assistant", "user"])
    // written back to Gemini as they came
    assert.deepStrictEqual<unknown>(exact(Gemini.toRequest(read.value)), given)
  })

  it("user, model, no role, and the function responses' older \"function\" and the SDKs' \"tool\" are read without a word", () => {
    const read = ok(Gemini.fromRequest({
      contents: [
        { role: "user", parts: [{ text: "Weather in Oslo?" }] },
        { role: "model", parts: [{ functionCall: { name: "weather", args: { city: "Oslo" } } }] },
        { role: "function", parts: [{ functionResponse: { name: "weather", response: { temp: 12 } } }] },
        { role: "model", parts: [{ functionCall: { name: "weather", args: { city: "Bergen" } } }] },
        { role: "tool", parts: [{ functionResponse: { name: "weather", response: { temp: 9 } } }] },
        { parts: [{ text: "Thanks." }] }
      ]
    }))
    assert.deepStrictEqual(read.warnings.map((w) => w.message), [])
  })
})
