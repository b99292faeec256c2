/** The standard normal distribution, shared by the latency fits and the size distributions. */

/**
 * Complementary error function (Numerical Recipes' Chebyshev fit, relative error below 1.2e-7
 * everywhere): ample for a KS distance, which is itself a difference of probabilities.
 */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -z * z -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t *
                          (-1.13520398 +
                            t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const result = t * Math.exp(poly);
  return x >= 0 ? result : 2 - result;
}

export function standardNormalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}
