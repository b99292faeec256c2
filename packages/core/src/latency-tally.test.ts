import { describe, expect, it } from "vitest";
import { createRandom } from "./random.ts";
import { createTally, recordDuration, tallyStatsMs } from "./latency-tally.ts";
import { percentileRankInterval } from "./percentile-interval.ts";
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
