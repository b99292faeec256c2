import { describe, expect, it } from "vitest";
import { createRandom } from "./random.ts";
import { createTally, intervalLatencyMs, recordDuration, tallyStatsMs } from "./latency-tally.ts";
import { percentileRankInterval, restsOnFew } from "./percentile-interval.ts";
import { PERCENTILE_LEVELS, type PercentileName } from "@taillab/api";

describe("tallyStatsMs intervals", () => {
  it("bounds each percentile by the order statistics of its ranks, within the histogram's precision", () => {
    const random = createRandom(21);
    const tally = createTally();
    const valuesUs: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const valueUs = Math.round(1000 * -Math.log(1 - random.next()) + 200);
      valuesUs.push(valueUs);
      recordDuration(tally, valueUs);
    }
    valuesUs.sort((a, b) => a - b);
    const stats = tallyStatsMs(tally);
    const intervals = stats?.intervals;
    expect(intervals).toMatchObject({ confidence: 0.95, count: 3000, precisionPct: 0.1 });
    for (const name of Object.keys(PERCENTILE_LEVELS) as PercentileName[]) {
      const ranks = percentileRankInterval(3000, PERCENTILE_LEVELS[name]);
      const interval = intervals!.byLevel[name];
      for (const [rank, valueMs] of [
        [ranks.low, interval.lo],
        [ranks.high, interval.hi],
      ] as const) {
        if (rank === null) {
          expect(valueMs).toBeNull();
          continue;
        }
        const exactMs = (valuesUs[rank - 1] as number) / 1000;
        expect(Math.abs((valueMs as number) - exactMs)).toBeLessThanOrEqual(
          exactMs * 0.001 + 0.001,
        );
      }
      if (interval.lo !== null) expect(interval.lo).toBeLessThanOrEqual(stats![name]);
      if (interval.hi !== null) expect(interval.hi).toBeGreaterThanOrEqual(stats![name]);
    }
    // 3 000 requests leave 0 beyond p99.99: its interval is open above.
    expect(intervals!.byLevel.p9999.hi).toBeNull();
  });
});

describe("intervalLatencyMs intervals (a second's percentiles)", () => {
  // Values 1…n µs: below 2 048 µs the histogram holds each exactly, so the bounds are exact.
  it.each([
    [1, { p50: [null, null], p99: [1, null], p999: [1, null] }],
    [40, { p50: [14, 27], p99: [38, null], p999: [39, null] }],
    [2000, { p50: [956, 1045], p99: [1971, 1989], p999: [1995, null] }],
  ] as const)("of %i requests bound each percentile by its ranks' values", (count, ranksUs) => {
    const tally = createTally();
    for (let valueUs = 1; valueUs <= count; valueUs++) recordDuration(tally, valueUs);
    const figures = intervalLatencyMs(tally);
    for (const name of ["p50", "p99", "p999"] as const) {
      const ranks = percentileRankInterval(count, PERCENTILE_LEVELS[name]);
      const [lowUs, highUs] = ranksUs[name];
      expect([ranks.low, ranks.high]).toEqual([lowUs, highUs]);
      expect(figures.percentileIntervals?.[name]).toEqual({
        lo: lowUs === null ? null : lowUs / 1000,
        hi: highUs === null ? null : highUs / 1000,
      });
      const valueMs = figures[`${name}Ms`] as number;
      if (lowUs !== null) expect(lowUs / 1000).toBeLessThanOrEqual(valueMs);
      if (highUs !== null) expect(highUs / 1000).toBeGreaterThanOrEqual(valueMs);
    }
    // p99.9 of 2 000 rests on 2 requests, p99 on 20.
    expect(restsOnFew(count, PERCENTILE_LEVELS.p99)).toBe(count < 1000);
  });

  it("has no intervals for a second without an answer", () => {
    expect(intervalLatencyMs(null)).toEqual({
      p50Ms: null,
      p99Ms: null,
      p999Ms: null,
      maxMs: null,
    });
    expect(intervalLatencyMs(createTally()).percentileIntervals).toBeUndefined();
  });
});
