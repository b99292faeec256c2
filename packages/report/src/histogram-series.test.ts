import { histogramViewFromBuckets } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { histogramSeries } from "./histogram-series.ts";

const buckets = [
  { lowUs: 1000, highUs: 1000, valueUs: 1000, count: 90 },
  { lowUs: 2000, highUs: 2001, valueUs: 2000, count: 9 },
  { lowUs: 999_000, highUs: 1_000_000, valueUs: 999_500, count: 1 },
];

describe("histogramSeries", () => {
  it.each([
    ["log", 10],
    ["linear", 10],
    ["log", 50],
  ] as const)("turns %s bins (%d) into bars that hold every request", (binScale, binCount) => {
    const data = histogramSeries(histogramViewFromBuckets(buckets, { binScale, binCount }));
    expect(data.bars).toHaveLength(binCount);
    expect(data.totalCount).toBe(100);
    expect(data.binScale).toBe(binScale);
    expect(data.bars.reduce((sum, bar) => sum + (bar.count ?? 0), 0)).toBe(100);
    // The lone one-second stall keeps a bar of its own at the far right.
    expect(data.bars.at(-1)?.count).toBe(1);
    // The axis runs from the first bar's left edge to the last one's right; each bar's middle
    // lies inside it.
    expect(data.fromMs).toBe(data.bars[0]?.lowMs);
    expect(data.toMs).toBeCloseTo(data.bars.at(-1)?.highMs ?? 0, 9);
    for (const bar of data.bars) {
      expect(bar.atMs).toBeGreaterThan(bar.lowMs);
      expect(bar.atMs).toBeLessThan(bar.highMs);
    }
  });

  it("leaves empty bins without a bar, as a log count axis cannot show 0", () => {
    const data = histogramSeries(histogramViewFromBuckets(buckets, { binCount: 10 }));
    expect(data.bars.filter((bar) => bar.count === null).length).toBeGreaterThan(0);
    expect(data.bars.some((bar) => bar.count === 0)).toBe(false);
  });

  it("has no bars for an empty histogram", () => {
    expect(histogramSeries(histogramViewFromBuckets([])).bars).toEqual([]);
  });
});
