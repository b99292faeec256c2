/**
 * A seeded pseudo-random source, so a latency profile or a load schedule can be replayed exactly
 * from its seed. `Math.random()` cannot be seeded, and a benchmark that cannot be replayed cannot
 * be debugged.
 */
export interface Random {
  /** Uniform in [0, 1), with 32 bits of resolution. */
  next(): number;
  /** Exponentially distributed with the given mean (e.g. the gap between Poisson arrivals). */
  exponential(meanValue: number): number;
  /** Lognormal: `median × e^(sigma × Z)`, so half the draws fall below `median`. */
  lognormal(median: number, sigma: number): number;
  /** Standard normal (mean 0, standard deviation 1). */
  normal(): number;
  /** True with the given probability. */
  chance(probability: number): boolean;
}

const TWO_POW_32 = 4294967296;

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): passes PractRand and BigCrush, is a
 * few 32-bit integer operations per draw, and its built-in counter guarantees a period of at least
 * 2^32 for every seed. Its state is seeded by splitmix32 so that nearby seeds (1, 2, 3…) still give
 * unrelated sequences.
 *
 * The seed is taken as a 32-bit unsigned integer (`seed >>> 0`).
 */
export function createRandom(seed: number): Random {
  let mixState = seed >>> 0;
  const splitmix32 = (): number => {
    mixState = (mixState + 0x9e3779b9) | 0;
    let z = mixState;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix32();
  let b = splitmix32();
  let c = splitmix32();
  let d = 1;

  const nextUint32 = (): number => {
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
  // The author's recommended warm-up, so the first outputs do not still echo the seed.
  for (let round = 0; round < 12; round += 1) nextUint32();

  const next = (): number => nextUint32() / TWO_POW_32;

  // Box–Muller yields normals in pairs; keeping the second halves the cost of lognormal latencies.
  let spareNormal: number | null = null;
  const normal = (): number => {
    if (spareNormal !== null) {
      const value = spareNormal;
      spareNormal = null;
      return value;
    }
    // 1 − next() is in (0, 1], so the logarithm is finite.
    const radius = Math.sqrt(-2 * Math.log(1 - next()));
    const angle = 2 * Math.PI * next();
    spareNormal = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };

  return {
    next,
    normal,
    exponential: (meanValue) => -meanValue * Math.log(1 - next()),
    lognormal: (median, sigma) => median * Math.exp(sigma * normal()),
    chance: (probability) => next() < probability,
  };
}
