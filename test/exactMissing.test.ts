/**
 * The exact entry point when gpt-tokenizer (an optional peer dependency) is
 * not installed: importing the entry still works, and building a layer fails
 * with a tagged error naming the package to install.
 */
import { describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import { Effect, Layer } from "effect"

vi.mock("gpt-tokenizer/encoding/o200k_base", () => {
  throw new Error("Cannot find package 'gpt-tokenizer'")
})

describe("the exact entry without gpt-tokenizer", () => {
  it.effect("fails building the layer with TokenizerUnavailable naming the package", () =>
    Effect.gen(function*() {
      const exact = yield* Effect.promise(() => import("../src/exact/index.js"))
      const error = yield* Effect.flip(Layer.build(exact.layerO200k).pipe(Effect.scoped))
      expect(error._tag).toBe("TokenizerUnavailable")
      expect(error.message).toContain("npm install gpt-tokenizer")
    })
  )
})
