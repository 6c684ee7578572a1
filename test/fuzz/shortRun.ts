/**
 * The size of the short fuzz run that is part of `npm test` (the long run,
 * `npm run fuzz`, runs 100 times more light cases).
 */
export const SHORT_RUN = { seed: 20_260_101, casesPerClass: 3, heavyCases: 1 } as const
