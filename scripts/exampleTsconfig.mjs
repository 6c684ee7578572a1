/**
 * The tsconfig both example checkers (check-readme, check-examples) write into
 * their scratch directory: the project's settings, unused locals allowed (an
 * example may set up a value it only shows), and the package's names mapped to
 * the sources, so examples import `effect-agent-messages` as a user would.
 */
import * as fs from "node:fs"
import * as path from "node:path"

/** @param {string} dir */
export const writeExampleTsconfig = (dir) =>
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({
    extends: "../tsconfig.json",
    compilerOptions: {
      noEmit: true,
      noUnusedLocals: false,
      rootDir: "..",
      paths: {
        "effect-agent-messages": ["../src/index.ts"],
        "effect-agent-messages/*": ["../src/*/index.ts", "../src/*.ts"]
      }
    },
    include: ["*.ts"]
  }, null, 2))
