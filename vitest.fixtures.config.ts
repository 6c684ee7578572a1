import { defineConfig } from "vitest/config"

// `npm run test:fixtures`: tests against the recorded provider traffic in ../shared/data.
// Each file skips itself, saying so, when that folder is not there (a user's fresh clone).
export default defineConfig({
  test: {
    include: ["test/fixtures/**/*.test.ts"],
    typecheck: { enabled: false },
    // property tests run hundreds of cases: generous limits keep a busy 2-core CI machine green
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
