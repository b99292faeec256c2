import { describe, expect, it } from "vitest";
import { PhaseIntervalsSchema } from "./stored-run.ts";

describe("a phase's percentiles over time", () => {
  const second = {
    startMs: 0,
    lengthMs: 1000,
    requests: 40,
    errors: 0,
    p50Ms: 2,
    p99Ms: 8,
    p999Ms: 9,
    maxMs: 9,
    backups: 0,
  };

  it("reads seconds recorded before their percentiles' intervals were kept", () => {
    const parsed = PhaseIntervalsSchema.parse({ pointIndex: 0, op: "GET", intervals: [second] });
    expect(parsed.intervals[0]?.percentileIntervals).toBeUndefined();
  });

  it("keeps each second's intervals, an unbounded end as null", () => {
    const percentileIntervals = {
      p50: { lo: 1.5, hi: 2.5 },
      p99: { lo: 7, hi: null },
      p999: { lo: 8, hi: null },
    };
    const parsed = PhaseIntervalsSchema.parse({
      pointIndex: 0,
      op: "GET",
      intervals: [{ ...second, percentileIntervals }],
    });
    expect(parsed.intervals[0]?.percentileIntervals).toEqual(percentileIntervals);
  });

  it("names the field of an interval that is not one", () => {
    const wrong = { ...second, percentileIntervals: { p50: { lo: "1", hi: 2 } } };
    const result = PhaseIntervalsSchema.safeParse({ pointIndex: 0, op: "GET", intervals: [wrong] });
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toContain(
      "intervals.0.percentileIntervals.p50.lo",
    );
  });
});
