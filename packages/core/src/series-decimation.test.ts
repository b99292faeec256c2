import { describe, expect, it } from "vitest";
import { createRandom } from "./random.ts";
import {
  createSeriesDecimator,
  decimateSeries,
  mergeDecimatedBuckets,
  type DecimatedBucket,
} from "./series-decimation.ts";

function expectContiguous(buckets: readonly DecimatedBucket[], total: number): void {
  expect(buckets[0]?.firstIndex).toBe(0);
  expect(buckets.at(-1)?.lastIndex).toBe(total - 1);
  buckets.slice(1).forEach((bucket, index) => {
    expect(bucket.firstIndex).toBe((buckets[index] as DecimatedBucket).lastIndex + 1);
  });
}

describe("decimateSeries", () => {
  it.each([
    [10, 1000, 10],
    [1000, 1000, 1000],
    [1001, 1000, 1000],
    [1_000_000, 1000, 1000],
    [12_345, 7, 7],
  ])("folds %d values into at most %d buckets (%d)", (total, maxBuckets, expected) => {
    const values = Float64Array.from({ length: total }, (_, index) => index);
    const buckets = decimateSeries(values, maxBuckets);
    expect(buckets).toHaveLength(expected);
    expectContiguous(buckets, total);
    const widths = buckets.map((bucket) => bucket.lastIndex - bucket.firstIndex + 1);
    expect(Math.max(...widths) - Math.min(...widths)).toBeLessThanOrEqual(1);
    expect(buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(total);
    for (const bucket of buckets) {
      expect(bucket.min).toBe(bucket.firstIndex);
      expect(bucket.max).toBe(bucket.lastIndex);
      expect(bucket.mean).toBeCloseTo((bucket.firstIndex + bucket.lastIndex) / 2, 6);
    }
  });

  it("keeps a single stall among a million requests visible as a bucket maximum", () => {
    const random = createRandom(3);
    const values = Float64Array.from({ length: 1_000_000 }, () => random.lognormal(5, 0.3));
    values[654_321] = 1000;
    const buckets = decimateSeries(values);
    const spike = buckets.find((bucket) => bucket.max === 1000);
    expect(spike).toBeDefined();
    expect(spike!.firstIndex).toBeLessThanOrEqual(654_321);
    expect(spike!.lastIndex).toBeGreaterThanOrEqual(654_321);
    expect(buckets.filter((bucket) => bucket.max > 100)).toHaveLength(1);
    expect(spike!.mean).toBeLessThan(10);
  });

  it("skips gaps and drops buckets that are all gaps", () => {
    const buckets = decimateSeries([1, Number.NaN, 3, Number.NaN, Number.NaN, Number.NaN], 3);
    expect(buckets).toEqual([
      { firstIndex: 0, lastIndex: 1, count: 1, min: 1, max: 1, mean: 1 },
      { firstIndex: 2, lastIndex: 3, count: 1, min: 3, max: 3, mean: 3 },
    ]);
  });

  it("returns no buckets for no values and rejects a bad bucket count", () => {
    expect(decimateSeries([])).toEqual([]);
    expect(() => decimateSeries([1], 0)).toThrow(/at least 1, got 0/);
  });

  it("streams the same buckets as the array form and refuses extra values", () => {
    const values = Array.from({ length: 5000 }, (_, index) => Math.sin(index));
    const decimator = createSeriesDecimator(values.length, 64);
    values.forEach((value) => decimator.add(value));
    expect(decimator.finish()).toEqual(decimateSeries(values, 64));
    const full = createSeriesDecimator(1, 1);
    full.add(1);
    expect(() => full.add(2)).toThrow(/more than the 1 values/);
  });
});

describe("mergeDecimatedBuckets", () => {
  it("folds buckets further with weighted means and the extremes kept", () => {
    const values = Float64Array.from({ length: 100_000 }, (_, index) => (index % 997) + 1);
    const fine = decimateSeries(values, 10_000);
    const coarse = mergeDecimatedBuckets(fine, 100);
    const direct = decimateSeries(values, 100);
    expect(coarse).toHaveLength(100);
    expectContiguous(coarse, values.length);
    coarse.forEach((bucket, index) => {
      const expected = direct[index] as DecimatedBucket;
      expect(bucket.firstIndex).toBe(expected.firstIndex);
      expect(bucket.min).toBe(expected.min);
      expect(bucket.max).toBe(expected.max);
      expect(bucket.mean).toBeCloseTo(expected.mean, 6);
    });
    expect(mergeDecimatedBuckets(direct, 1000)).toEqual(direct);
  });
});
