import type { Random } from "./random.ts";

const TWO_POW_26 = 67108864;
const TWO_POW_53 = 9007199254740992;

/**
 * Uniform in [0, 1) with 53 bits of resolution, from two 32-bit draws. `Random.next()` has 32
 * bits, which is too coarse to index 10 million keys without bias (some keys would be drawn
 * 430 times for every 429 of others) or to place a range anywhere in a 5 GiB object.
 */
export function uniformFloat53(random: Random): number {
  const high = Math.floor(random.next() * 4294967296) >>> 5; // 27 bits
  const low = Math.floor(random.next() * 4294967296) >>> 6; // 26 bits
  return (high * TWO_POW_26 + low) / TWO_POW_53;
}

/** A whole number in [0, count), every value equally likely (bias below 2^−20 up to 2^33). */
export function uniformInt(random: Random, count: number): number {
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new RangeError(`count must be a whole number of at least 1, got ${count}`);
  }
  return Math.floor(uniformFloat53(random) * count);
}

/**
 * A weighted choice among indices 0 … weights.length − 1, by a binary search of the cumulative
 * weights (O(log n) a draw after O(n) set-up).
 */
export function createWeightedIndex(weights: readonly number[], random: Random): () => number {
  if (weights.length === 0 || weights.some((weight) => !(weight > 0) || !Number.isFinite(weight))) {
    throw new RangeError(`weights must be finite and greater than 0, got [${weights.join(", ")}]`);
  }
  const cumulative: number[] = [];
  let total = 0;
  for (const weight of weights) {
    total += weight;
    cumulative.push(total);
  }
  const last = weights.length - 1;
  return () => {
    const target = uniformFloat53(random) * total;
    let low = 0;
    let high = last;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] as number) > target) high = middle;
      else low = middle + 1;
    }
    return low;
  };
}
