import type { IntervalStats } from "@taillab/api";
import { PALETTES } from "@taillab/report";
import { describe, expect, it } from "vitest";
import { extraPercentOf, overTimeChartConfig } from "./chart-over-time.ts";
import { TEST_THEME as theme } from "./test-support/chart-theme-fixture.ts";

const labels = {
  x: "s",
  y: "ms",
  cost: "extra %",
  markers: "knob changes",
  clientBound: "client was the bottleneck",
};

const second = (startMs: number, fields: Partial<IntervalStats> = {}): IntervalStats => ({
  startMs,
  lengthMs: 1000,
  requests: 100,
  errors: 0,
  p50Ms: 5,
  p99Ms: 20,
  p999Ms: 400,
  maxMs: 500,
  ...fields,
});

const intervals = [
  second(0, { backups: 0 }),
  second(1000, { backups: 10, errors: 25, p999Ms: null }),
];

describe("overTimeChartConfig", () => {
  it("draws p50, p99 and p99.9 per second in their own colours, a gap where none answered", () => {
    const config = overTimeChartConfig(theme, intervals, { logScale: false, labels });
    expect(config.data.datasets.map((dataset) => [dataset.label, dataset.borderColor])).toEqual([
      ["p50", theme.palette.percentiles.p50],
      ["p99", theme.palette.percentiles.p99],
      ["p99.9", theme.palette.percentiles.p999],
    ]);
    expect(config.data.datasets[2]?.data).toEqual([
      { x: 0.5, y: 400 },
      { x: 1.5, y: null },
    ]);
    expect(config.options?.scales?.cost).toBeUndefined();
  });

  it("draws only the percentiles chosen", () => {
    const config = overTimeChartConfig(theme, intervals, {
      logScale: true,
      labels,
      percentiles: ["p999"],
    });
    expect(config.data.datasets.map((dataset) => dataset.label)).toEqual(["p99.9"]);
    expect(config.options?.scales?.y?.type).toBe("logarithmic");
  });

  it("draws the extra requests of each second on a right axis in the cost colour", () => {
    const config = overTimeChartConfig(theme, intervals, { logScale: false, labels, cost: true });
    const cost = config.data.datasets[3];
    expect(cost?.label).toBe("extra %");
    expect(cost?.borderColor).toBe(PALETTES.light.cost);
    expect(cost?.yAxisID).toBe("cost");
    expect(cost?.data).toEqual([
      { x: 0.5, y: 0 },
      { x: 1.5, y: 8 },
    ]);
    expect(config.options?.scales?.cost).toMatchObject({ position: "right" });
  });

  it("marks each knob change with a line across the latency axis, one legend entry for all", () => {
    const config = overTimeChartConfig(theme, intervals, {
      logScale: false,
      labels,
      markers: [
        { atMs: 700, label: "mode hedged" },
        { atMs: 1200, label: "stalls 5 %" },
      ],
    });
    const [first, second] = config.data.datasets.slice(3);
    expect(first?.label).toBe("knob changes");
    expect(first?.data).toEqual([
      { x: 0.7, y: 0 },
      { x: 0.7, y: 400 },
    ]);
    expect(second?.label).toBe("stalls 5 %");
    const filter = config.options?.plugins?.legend?.labels?.filter;
    const shown = config.data.datasets.filter((_dataset, datasetIndex) =>
      filter?.({ datasetIndex } as never, config.data as never),
    );
    expect(shown.map((dataset) => dataset.label)).toEqual(["p50", "p99", "p99.9", "knob changes"]);
  });

  it("bars the client-bound stretches along the top, one legend entry for all", () => {
    const config = overTimeChartConfig(theme, intervals, {
      logScale: false,
      labels,
      markers: [{ atMs: 700, label: "mode hedged" }],
      clientBound: [
        { fromMs: 0, toMs: 1000 },
        { fromMs: 2000, toMs: 4000 },
      ],
    });
    const bars = config.data.datasets.slice(4);
    expect(bars.map((bar) => bar.label)).toEqual([
      "client was the bottleneck",
      "client was the bottleneck",
    ]);
    expect(bars[1]?.data).toEqual([
      { x: 2, y: 400 },
      { x: 4, y: 400 },
    ]);
    const filter = config.options?.plugins?.legend?.labels?.filter;
    const shown = config.data.datasets.filter((_dataset, datasetIndex) =>
      filter?.({ datasetIndex } as never, config.data as never),
    );
    expect(shown.map((dataset) => dataset.label)).toEqual([
      "p50",
      "p99",
      "p99.9",
      "knob changes",
      "client was the bottleneck",
    ]);
  });

  it("labels no ticks before the first second", () => {
    const config = overTimeChartConfig(theme, [], { logScale: false, labels });
    expect(config.options?.scales?.x?.ticks?.display).toBe(false);
    expect(config.options?.scales?.y?.ticks?.display).toBe(false);
  });
});

describe("extraPercentOf", () => {
  it("is backups per request answered or failed in the second, unknown without a count", () => {
    expect(extraPercentOf(second(0, { backups: 5 }))).toBe(5);
    expect(extraPercentOf(second(0, { backups: 5, requests: 0, errors: 0 }))).toBeNull();
    expect(extraPercentOf(second(0))).toBeNull();
  });
});
