import { defineConfig } from "vitest/config"

// `npm test`: the self-contained suite. Tests that read the recorded provider data in
// ../shared/data live in test/fixtures and run with `npm run test:fixtures`.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/fixtures/**", "node_modules/**"],
    typecheck: { enabled: false },
    // property tests run hundreds of cases: generous limits keep a busy 2-core CI machine green
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
