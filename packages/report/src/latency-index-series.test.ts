import { decimateSeries, type DecimatedBucket } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { LATENCY_INDEX_MAX_COLUMNS, latencyIndexSeries } from "./latency-index-series.ts";

const stats = (p50: number, max: number) => ({
  min: 1,
  p25: p50,
  p50,
  p75: p50,
  p90: p50,
  p99: max / 2,
  p999: max,
  p9999: max,
  max,
  mean: p50,
  stdev: 1,
});

const bucket = (firstIndex: number, lastIndex: number, min: number, max: number, mean: number) =>
  ({ firstIndex, lastIndex, count: lastIndex - firstIndex + 1, min, max, mean }) as DecimatedBucket;

describe("latencyIndexSeries", () => {
  it("keeps a stored series' columns as they are and counts their requests", () => {
    const columns = [bucket(0, 9, 1, 9, 4), bucket(10, 19, 2, 1000, 120)];
    const data = latencyIndexSeries(columns, stats(4, 20));
    expect(data.columns).toEqual(columns);
    expect(data.requests).toBe(20);
  });

  it.each([
    ["a flat run", 5, 50, false],
    ["a run with a stall 200× its median", 5, 1000, true],
    ["an empty phase", 0, 0, false],
  ])("draws %s on a log axis: %s", (_name, p50, max, logScale) => {
    expect(latencyIndexSeries([], stats(p50, max)).logScale).toBe(logScale);
  });

  it.each([
    [10, 10],
    [1000, 1000],
    [1_000_000, LATENCY_INDEX_MAX_COLUMNS],
  ])("keeps %d requests to at most %d columns, a stall included", (requests, columns) => {
    const values = Float64Array.from({ length: requests }, (_, index) =>
      index === Math.floor(requests / 2) ? 1000 : 5,
    );
    // Finer buckets than a stored series has, as a caller might send.
    const data = latencyIndexSeries(decimateSeries(values, 5000), stats(5, 1000));
    expect(data.columns).toHaveLength(columns);
    expect(data.requests).toBe(requests);
    expect(Math.max(...data.columns.map((column) => column.max))).toBe(1000);
    expect(data.p99Ms).toBe(500);
  });
});
