import { PERCENTILE_LEVELS } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { exactPercentile } from "./exact-percentile.ts";
import {
  createLatencyHistogram,
  encodeHistogram,
  mergeEncodedHistogram,
  recordLatencyUs,
} from "./latency-histogram.ts";
import { tallyOfHistogram, tallyStatsMs } from "./latency-tally.ts";

/** A seeded generator so a failure can be replayed. */
function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lognormal latencies in µs with a heavy tail: median ~5 ms, some stalls of ~1 s. */
function latencySamples(count: number, seed: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => {
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const stall = random() < 0.01 ? 1_000_000 : 0;
    return Math.round(5000 * Math.exp(0.6 * normal)) + stall;
  });
}

/** HDR's promise at 3 significant digits: within 0.1 % of the exact value (plus rounding to µs). */
function expectWithinHdrPrecision(actualMs: number, exactUs: number): void {
  expect(Math.abs(actualMs * 1000 - exactUs)).toBeLessThanOrEqual(exactUs * 0.001 + 1);
}

describe("latency histograms", () => {
  it.each([1, 7, 1000, 100_000])("match exact percentiles on %d random values", (count) => {
    const values = latencySamples(count, count);
    const histogram = createLatencyHistogram();
    values.forEach((value) => recordLatencyUs(histogram, value));
    const sorted = [...values].sort((a, b) => a - b);
    const stats = histogramStats(histogram);
    for (const [name, level] of Object.entries(PERCENTILE_LEVELS)) {
      expectWithinHdrPrecision(
        stats[name as keyof typeof PERCENTILE_LEVELS],
        exactPercentile(sorted, level),
      );
    }
    expectWithinHdrPrecision(stats.min, sorted[0] as number);
    expectWithinHdrPrecision(stats.max, sorted.at(-1) as number);
    const mean = values.reduce((sum, value) => sum + value, 0) / count;
    expectWithinHdrPrecision(stats.mean, mean);
  });

  it("holds counts up to the largest value recorded, not for an hour up front", () => {
    // A run keeps three per operation and second: sized for an hour, each held 94 KB.
    const empty = createLatencyHistogram();
    expect(empty.estimatedFootprintInBytes).toBeLessThan(16 * 1024);
    const grown = createLatencyHistogram();
    latencySamples(10_000, 4).forEach((value) => recordLatencyUs(grown, value));
    expect(grown.estimatedFootprintInBytes).toBeLessThan(64 * 1024);
    recordLatencyUs(grown, 3_600_000_000);
    expect(histogramStats(grown).max).toBeCloseTo(3_600_000, -4);
  });

  it("merges per-worker histograms into the percentiles of all values", () => {
    const workers = [latencySamples(5000, 1), latencySamples(3000, 2), latencySamples(2000, 3)];
    const merged = createLatencyHistogram();
    for (const values of workers) {
      const own = createLatencyHistogram();
      values.forEach((value) => recordLatencyUs(own, value));
      mergeEncodedHistogram(merged, encodeHistogram(own));
    }
    const all = workers.flat().sort((a, b) => a - b);
    expect(merged.totalCount).toBe(all.length);
    const stats = histogramStats(merged);
    expectWithinHdrPrecision(stats.p99, exactPercentile(all, 99));
    expectWithinHdrPrecision(stats.p999, exactPercentile(all, 99.9));
  });

  it("has no stats for an empty histogram", () => {
    expect(tallyStatsMs(tallyOfHistogram(createLatencyHistogram()))).toBeNull();
  });
});

describe("exactPercentile", () => {
  it.each([
    [[1, 2, 3, 4], 50, 2],
    [[1, 2, 3, 4], 75, 3],
    [[1, 2, 3, 4], 100, 4],
    [[1, 2, 3, 4], 0, 1],
    [[10], 99.9, 10],
  ])("of %j at %d is %d", (values, level, expected) => {
    expect(exactPercentile(values, level)).toBe(expected);
  });
});

function histogramStats(histogram: ReturnType<typeof createLatencyHistogram>) {
  const stats = tallyStatsMs(tallyOfHistogram(histogram));
  if (!stats) throw new Error("an empty histogram has no stats");
  return stats;
}
