/**
 * The linear solve of the corpus scripts' least-squares fits: the fit of the
 * estimator's costs (fit.ts) and the vocabulary study's correction.
 */

/** Solves the symmetric positive definite system `a x = b` (Cholesky; `a` is left intact). */
export const solve = (a: ReadonlyArray<Float64Array>, b: Float64Array): Float64Array => {
  const n = b.length
  const l = a.map((row) => Float64Array.from(row))
  for (let j = 0; j < n; j++) {
    const lj = l[j]!
    let d = lj[j]!
    for (let k = 0; k < j; k++) d -= lj[k]! * lj[k]!
    d = Math.sqrt(Math.max(d, 1e-12))
    lj[j] = d
    for (let i = j + 1; i < n; i++) {
      const li = l[i]!
      let s = li[j]!
      for (let k = 0; k < j; k++) s -= li[k]! * lj[k]!
      li[j] = s / d
    }
  }
  const y = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    let s = b[i]!
    for (let k = 0; k < i; k++) s -= l[i]![k]! * y[k]!
    y[i] = s / l[i]![i]!
  }
  const x = new Float64Array(n)
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!
    for (let k = i + 1; k < n; k++) s -= l[k]![i]! * x[k]!
    x[i] = s / l[i]![i]!
  }
  return x
}
