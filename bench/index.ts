/**
 * `npm run bench`: every benchmark, each printing ratios against a baseline
 * measured in the same process (never absolute goals asserted in tests).
 */
import { runAppendBench } from "./append.js"
import { runEstimatorBench } from "./estimator.js"
import { runRequestTokensBench } from "./requestTokens.js"
import { runStreamsBench } from "./streams.js"
import { runValidateBench } from "./validate.js"

const started = performance.now()
await runEstimatorBench()
runAppendBench()
runValidateBench()
runRequestTokensBench()
runStreamsBench()
console.log(`\nbench finished in ${((performance.now() - started) / 1000).toFixed(1)} s`)
