import { describe, expect, it } from "vitest";
import { decodeRecordedBuckets, recordedBuckets } from "./histogram-buckets.ts";
import {
  histogramView,
  ninesOf,
  percentileLadder,
  percentileLadderFromStats,
  type HistogramView,
} from "./histogram-view.ts";
import { createLatencyHistogram, encodeHistogram, recordLatencyUs } from "./latency-histogram.ts";
import { tallyOfHistogram, tallyStatsMs } from "./latency-tally.ts";

import { createRandom } from "./random.ts";

/** Lognormal latencies around 8 ms with a handful of 1 s stalls, as a stored histogram. */
function stalledHistogram(count: number, stalls: number): string {
  const random = createRandom(11);
  const histogram = createLatencyHistogram();
  for (let index = 0; index < count; index += 1) {
    recordLatencyUs(histogram, random.lognormal(8000, 0.4));
  }
  for (let index = 0; index < stalls; index += 1) recordLatencyUs(histogram, 1_000_000 + index);
  return encodeHistogram(histogram);
}

describe("recordedBuckets", () => {
  it("lists every recorded value range once with its count", () => {
    const histogram = createLatencyHistogram();
    for (const valueUs of [5, 5, 5, 1000, 123_456]) recordLatencyUs(histogram, valueUs);
    const buckets = recordedBuckets(histogram);
    expect(buckets.map((bucket) => bucket.count)).toEqual([3, 1, 1]);
    expect(buckets[0]).toEqual({ lowUs: 5, highUs: 5, valueUs: 5, count: 3 });
    const last = buckets[2]!;
    expect(last.lowUs).toBeLessThanOrEqual(123_456);
    expect(last.highUs).toBeGreaterThanOrEqual(123_456);
    expect(last.highUs - last.lowUs).toBeLessThan(123_456 * 0.001);
    expect(decodeRecordedBuckets(encodeHistogram(histogram))).toEqual(buckets);
  });
});

describe("histogramView", () => {
  const encoded = stalledHistogram(100_000, 5);

  it.each(["log", "linear"] as const)("bins every request into %s bins", (binScale) => {
    const view = histogramView(encoded, { binScale, binCount: 40 });
    expect(view.totalCount).toBe(100_005);
    expect(view.bins).toHaveLength(40);
    expect(view.bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(100_005);
    expect(view.bins[0]!.lowMs).toBe(view.minMs);
    expect(view.bins.at(-1)!.highMs).toBeCloseTo(view.maxMs, 9);
    view.bins.slice(1).forEach((bin, index) => expect(bin.lowMs).toBe(view.bins[index]!.highMs));
    // The stalls land in the last bin, on their own.
    expect(view.bins.at(-1)!.count).toBe(5);
  });

  it("spreads log bins by equal ratios", () => {
    const { bins } = histogramView(encoded, { binCount: 10 });
    const ratios = bins.map((bin) => bin.highMs / bin.lowMs);
    for (const ratio of ratios) expect(ratio).toBeCloseTo(ratios[0]!, 9);
  });

  it("thins the CDF to a few hundred points but keeps its ends and its tail", () => {
    const view: HistogramView = histogramView(encoded, { maxCdfPoints: 200 });
    expect(view.cdf.length).toBeLessThanOrEqual(202);
    expect(view.cdf.length).toBeGreaterThan(50);
    expect(view.cdf[0]!.valueMs).toBeLessThan(view.cdf[1]!.valueMs);
    expect(view.cdf.at(-1)).toEqual({ valueMs: expect.closeTo(1000.004, 0), fraction: 1 });
    view.cdf.slice(1).forEach((point, index) => {
      expect(point.valueMs).toBeGreaterThan(view.cdf[index]!.valueMs);
      expect(point.fraction).toBeGreaterThanOrEqual(view.cdf[index]!.fraction);
    });
    // Between the body (≈ 99.995 %) and the stalls there is a visible step, not a straight ramp.
    const beforeStalls = view.cdf.filter((point) => point.valueMs < 500).at(-1)!;
    expect(beforeStalls.fraction).toBeCloseTo(100_000 / 100_005, 6);
    // The measured p99 read off the CDF is the histogram's p99.
    const p99 = latencyStatsMsOf(encoded).p99;
    const firstAtP99 = view.cdf.find((point) => point.fraction >= 0.99)!;
    expect(firstAtP99.valueMs).toBeGreaterThanOrEqual(p99);
  });

  it("returns an empty view for an empty histogram and rejects bad options", () => {
    const empty = encodeHistogram(createLatencyHistogram());
    expect(histogramView(empty)).toEqual({
      totalCount: 0,
      minMs: 0,
      maxMs: 0,
      binScale: "log",
      bins: [],
      cdf: [],
    });
    expect(() => histogramView(encoded, { binCount: 0 })).toThrow(/binCount/);
    expect(() => histogramView(encoded, { maxCdfPoints: 1 })).toThrow(/maxCdfPoints/);
  });
});

function latencyStatsMsOf(encoded: string) {
  const histogram = createLatencyHistogram();
  for (const bucket of decodeRecordedBuckets(encoded)) {
    histogram.recordValueWithCount(bucket.valueUs, bucket.count);
  }
  return histogramStats(histogram);
}

describe("percentile ladder", () => {
  it.each([
    [50, Math.log10(2)],
    [90, 1],
    [99, 2],
    [99.9, 3],
    [99.99, 4],
  ])("p%d sits at %d nines", (percentile, nines) => {
    expect(ninesOf(percentile)).toBeCloseTo(nines, 9);
  });

  it("rejects p0 and p100, which have no place on a nines axis", () => {
    expect(() => ninesOf(100)).toThrow(/below 100, got 100/);
    expect(() => ninesOf(0)).toThrow(/above 0/);
  });

  it("reads rising percentiles from a histogram", () => {
    const ladder = percentileLadder(stalledHistogram(100_000, 20));
    expect(ladder.map((point) => point.percentile)).toEqual([
      50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
    ]);
    expect(ladder[0]!.valueMs).toBeCloseTo(8, 0);
    expect(ladder.at(-1)!.valueMs).toBeGreaterThan(999);
    ladder.slice(1).forEach((point, index) => {
      expect(point.valueMs).toBeGreaterThanOrEqual(ladder[index]!.valueMs);
    });
    expect(percentileLadder(encodeHistogram(createLatencyHistogram()))).toEqual([]);
  });

  const stats = {
    min: 1,
    p25: 2,
    p50: 3,
    p75: 4,
    p90: 5,
    p99: 6,
    p999: 7,
    p9999: 8,
    max: 9,
    mean: 3.5,
    stdev: 1,
  };
  it.each([
    [0, 50, Math.log10(2), 3],
    [1, 90, 1, 5],
    [2, 99, 2, 6],
    [3, 99.9, 3, 7],
    [4, 99.99, 4, 8],
  ])("builds rung %d (p%d) from summary figures", (index, percentile, nines, valueMs) => {
    const rung = percentileLadderFromStats(stats)[index]!;
    expect(rung.percentile).toBe(percentile);
    expect(rung.nines).toBeCloseTo(nines, 9);
    expect(rung.valueMs).toBe(valueMs);
  });
});

function histogramStats(histogram: ReturnType<typeof createLatencyHistogram>) {
  const stats = tallyStatsMs(tallyOfHistogram(histogram));
  if (!stats) throw new Error("an empty histogram has no stats");
  return stats;
}
