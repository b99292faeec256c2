import type { IntervalStats } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { LOG_FLOOR_MS, percentilesOverTime, rateOverTime } from "./over-time-series.ts";

const answered = (startMs: number, p50Ms: number, lo: number | null): IntervalStats => ({
  startMs,
  lengthMs: 1000,
  requests: 40,
  errors: 2,
  p50Ms,
  p99Ms: p50Ms * 4,
  p999Ms: p50Ms * 8,
  maxMs: p50Ms * 8,
  percentileIntervals: {
    p50: { lo, hi: p50Ms * 2 },
    p99: { lo: null, hi: null },
    p999: { lo: null, hi: null },
  },
});
const silent: IntervalStats = {
  startMs: 1000,
  lengthMs: 1000,
  requests: 0,
  errors: 5,
  p50Ms: null,
  p99Ms: null,
  p999Ms: null,
  maxMs: null,
};
const seconds = [answered(0, 2, 1), silent, answered(2000, 0, null)];

describe("percentilesOverTime", () => {
  it("puts each second at its middle and leaves a gap where nothing was answered", () => {
    const [p50, p99, p999] = percentilesOverTime(seconds, { logScale: false });
    expect(p50?.points).toEqual([
      { x: 0.5, y: 2 },
      { x: 1.5, y: null },
      { x: 2.5, y: 0 },
    ]);
    expect([p50?.label, p99?.label, p999?.label]).toEqual(["p50", "p99", "p99.9"]);
    expect(p50?.band).toEqual([
      { x: 0.5, low: 1, high: 4 },
      { x: 1.5, low: null, high: null },
      { x: 2.5, low: 0, high: 0 },
    ]);
    // An interval open at both ends runs from 0 to the second's slowest request.
    expect(p999?.band[0]).toEqual({ x: 0.5, low: 0, high: 16 });
  });

  it("on a log axis sets a 0 ms second on the floor and leaves out intervals open down to 0", () => {
    const [p50] = percentilesOverTime(seconds, { logScale: true, percentiles: ["p50"] });
    expect(p50?.points.map((point) => point.y)).toEqual([2, null, LOG_FLOOR_MS]);
    expect(p50?.band.map((point) => point.low)).toEqual([1, null, null]);
  });

  it("draws only the percentiles asked for, in their order", () => {
    const lines = percentilesOverTime(seconds, { logScale: false, percentiles: ["p999", "p50"] });
    expect(lines.map((line) => line.key)).toEqual(["p999", "p50"]);
  });
});

describe("rateOverTime", () => {
  it("gives every second's answers and failures per second, a silent one at 0", () => {
    expect(rateOverTime(seconds, "throughput").map((point) => point.y)).toEqual([40, 0, 40]);
    expect(rateOverTime(seconds, "errors").map((point) => point.y)).toEqual([2, 5, 2]);
  });

  it("gives no MiB for seconds stored before they kept their bytes, not 0", () => {
    expect(rateOverTime(seconds, "data")).toEqual([]);
    const counted = { ...silent, bytes: 2 * 1024 * 1024, errorsByCode: {} };
    expect(rateOverTime([counted], "data")).toEqual([{ x: 1.5, y: 2 }]);
  });
});
