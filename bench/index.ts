/**
 * `npm run bench`: every benchmark, in one process, each printing its figures
 * next to a baseline measured in the same run.
 */
import { runAdaptersBench } from "./adapters.js"
import { runAdapters2Bench } from "./adapters2.js"
import { runAppendBench } from "./append.js"
import { runCalibrationBench } from "./calibration.js"
import { runCostBench } from "./cost.js"
import { runEstimatorBench } from "./estimator.js"
import { runFilesBench } from "./files.js"
import { runRequestTokensBench } from "./requestTokens.js"
import { runStreamsBench } from "./streams.js"
import { runAdversarialBench, runValidateBench } from "./validate.js"
import { runWindowBench } from "./window.js"

const started = performance.now()
await runEstimatorBench()
runCalibrationBench()
runAppendBench()
runValidateBench()
runAdversarialBench()
runRequestTokensBench()
runFilesBench()
runStreamsBench()
runAdaptersBench()
runAdapters2Bench()
await runWindowBench()
// adversarial cost: worst-case inputs for every pass at n, 4n and 16n
runCostBench()
console.log(`\nbench finished in ${((performance.now() - started) / 1000).toFixed(1)} s`)
