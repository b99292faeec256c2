import { describe, expect, it } from "vitest";
import {
  percentileRankInterval,
  requestsBeyond,
  restsOnFew,
  PERCENTILE_CONFIDENCE,
} from "./percentile-interval.ts";

/**
 * The equal-tailed ranks by exact rational arithmetic: with q = a/b, B(k) ≤ 1/40 holds exactly
 * when 40 · Σ_{j≤k} C(n,j) a^j (b−a)^(n−j) ≤ b^n.
 */
function exactRanks(count: number, level: number): { low: number | null; high: number | null } {
  const scale = 10_000n;
  const a = BigInt(Math.round(level * 100));
  const n = BigInt(count);
  const whole = scale ** n;
  const sums: bigint[] = [];
  let choose = 1n;
  let sum = 0n;
  for (let k = 0n; k <= n; k++) {
    if (k > 0n) choose = (choose * (n - k + 1n)) / k;
    sum += choose * a ** k * (scale - a) ** (n - k);
    sums.push(sum);
  }
  const below = (k: number) => (k < 0 ? 0n : (sums[k] as bigint));
  let low: number | null = null;
  for (let l = 1; l <= count; l++) if (40n * below(l - 1) <= whole) low = l;
  let high: number | null = null;
  for (let u = count; u >= 1; u--) if (40n * below(u - 1) >= 39n * whole) high = u;
  return { low, high };
}

describe("percentileRankInterval", () => {
  it.each([
    // Textbook values for the median (e.g. Conover, Practical Nonparametric Statistics).
    { count: 10, level: 50, low: 2, high: 9 },
    { count: 20, level: 50, low: 6, high: 15 },
    { count: 100, level: 50, low: 40, high: 61 },
    // Too few values for the tail: the interval is open above.
    { count: 1000, level: 99.9, low: 997, high: null },
    { count: 6, level: 50, low: 1, high: 6 },
    { count: 5, level: 50, low: null, high: null },
    { count: 3, level: 50, low: null, high: null },
  ])("$count values, p$level: ranks [$low, $high]", ({ count, level, low, high }) => {
    const ranks = percentileRankInterval(count, level);
    expect({ low: ranks.low, high: ranks.high }).toEqual({ low, high });
    expect(exactRanks(count, level)).toEqual({ low, high });
  });

  it.each([
    [1, 50],
    [7, 25],
    [30, 90],
    [200, 99],
    [333, 75],
    [1500, 99.9],
    [2000, 99.99],
    [2000, 99],
    [800, 50],
  ])("matches exact binomial sums for %i values at p%d", (count, level) => {
    const ranks = percentileRankInterval(count, level);
    expect({ low: ranks.low, high: ranks.high }).toEqual(exactRanks(count, level));
    if (ranks.low !== null && ranks.high !== null) {
      expect(ranks.coverage).toBeGreaterThanOrEqual(PERCENTILE_CONFIDENCE);
    }
  });

  it("agrees with the normal approximation for a large count", () => {
    const count = 1_000_000;
    for (const level of [50, 99, 99.9, 99.99]) {
      const q = level / 100;
      const spread = 1.959964 * Math.sqrt(count * q * (1 - q));
      const ranks = percentileRankInterval(count, level);
      expect(Math.abs((ranks.low as number) - (count * q - spread))).toBeLessThan(3);
      expect(Math.abs((ranks.high as number) - (count * q + spread))).toBeLessThan(3);
    }
  });

  it("refuses a count below 1 and a level outside (0, 100)", () => {
    expect(() => percentileRankInterval(0, 50)).toThrow(/count of at least 1, got 0/);
    expect(() => percentileRankInterval(10, 100)).toThrow(/level between 0 and 100, got 100/);
  });
});

describe("requestsBeyond", () => {
  it.each([
    [4000, 99.9, 4, true],
    [10_000, 99.9, 10, false],
    [100_000, 99.99, 10, false],
    [999, 99, 9, true],
    [20, 50, 10, false],
  ])("%i requests at p%d rest on %i", (count, level, beyond, few) => {
    expect(requestsBeyond(count, level)).toBe(beyond);
    expect(restsOnFew(count, level)).toBe(few);
  });
});
