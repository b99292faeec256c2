import type { IntervalStats } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { intervalPercentileBand, secondsRestingOnFew } from "./interval-percentile-band.ts";

const second = (requests: number, fields: Partial<IntervalStats> = {}): IntervalStats => ({
  startMs: 0,
  lengthMs: 1000,
  requests,
  errors: 0,
  p50Ms: 5,
  p99Ms: 20,
  p999Ms: 40,
  maxMs: 50,
  percentileIntervals: {
    p50: { lo: 4.5, hi: 5.5 },
    p99: { lo: 18, hi: null },
    p999: { lo: null, hi: null },
  },
  ...fields,
});

describe("intervalPercentileBand", () => {
  it.each([
    ["p50", { lowMs: 4.5, highMs: 5.5 }],
    // Open above: drawn up to the second's slowest request.
    ["p99", { lowMs: 18, highMs: 50 }],
    ["p999", { lowMs: 0, highMs: 50 }],
  ] as const)("draws %s's interval at what the requests bound", (name, band) => {
    expect(intervalPercentileBand(second(100), name)).toEqual(band);
  });

  it("has none for a second without an answer, or one recorded before intervals were kept", () => {
    const silent = second(0, { p50Ms: null, p99Ms: null, p999Ms: null, maxMs: null });
    delete silent.percentileIntervals;
    const older = second(100);
    delete older.percentileIntervals;
    expect(intervalPercentileBand(silent, "p50")).toBeNull();
    expect(intervalPercentileBand(older, "p50")).toBeNull();
  });
});

describe("secondsRestingOnFew", () => {
  it("counts the seconds with fewer than 10 requests beyond the percentile", () => {
    // p99 of 999 requests rests on 9, of 1 000 on 10; p99.9 of 20 000 on 20; an empty second
    // has no figure to doubt.
    const seconds = [second(999), second(1000), second(0), second(20_000)];
    expect(secondsRestingOnFew(seconds, "p99")).toBe(1);
    expect(secondsRestingOnFew(seconds, "p999")).toBe(2);
    expect(secondsRestingOnFew(seconds, "p50")).toBe(0);
  });
});
