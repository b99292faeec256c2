import type { IntervalStats } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { ratesOverTimeChartConfig } from "./chart-rates-over-time.ts";
import { seriesColor } from "./chart-theme.ts";
import { TEST_THEME as theme } from "./test-support/chart-theme-fixture.ts";

const labels = { x: "s", y: "per second", line: "line" };

const second = (startMs: number, requests: number, errors: number): IntervalStats => ({
  startMs,
  lengthMs: 1000,
  requests,
  errors,
  p50Ms: null,
  p99Ms: null,
  p999Ms: null,
  maxMs: null,
});

const intervals = [second(0, 120, 0), second(1000, 80, 4), second(2000, 0, 30)];

describe("ratesOverTimeChartConfig", () => {
  it("draws each second's answers per second at its middle, from 0, in the first colour", () => {
    const config = ratesOverTimeChartConfig(theme, intervals, { kind: "throughput", labels });
    const [line] = config.data.datasets;
    expect(line?.data).toEqual([
      { x: 0.5, y: 120 },
      { x: 1.5, y: 80 },
      { x: 2.5, y: 0 },
    ]);
    expect(line?.borderColor).toBe(seriesColor(theme, 0));
    expect(config.options?.scales?.y).toMatchObject({ type: "linear", beginAtZero: true });
  });

  it("draws each second's failures per second in the second colour", () => {
    const config = ratesOverTimeChartConfig(theme, intervals, { kind: "errors", labels });
    const [line] = config.data.datasets;
    expect(line?.data).toEqual([
      { x: 0.5, y: 0 },
      { x: 1.5, y: 4 },
      { x: 2.5, y: 30 },
    ]);
    expect(line?.borderColor).toBe(seriesColor(theme, 1));
  });

  it("labels no ticks before the first second", () => {
    const config = ratesOverTimeChartConfig(theme, [], { kind: "errors", labels });
    expect(config.options?.scales?.x?.ticks?.display).toBe(false);
  });
});
