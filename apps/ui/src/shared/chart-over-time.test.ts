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
  interval: "95 % interval",
  restsOn: (beyond: number) => `rests on ${beyond}`,
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
    // Each change's label is written on the chart at its line, hidden with the lines' entry.
    expect(config.plugins?.map((plugin) => plugin.id)).toContain("markerLabels");
    expect(config.options?.plugins?.markerLabels).toMatchObject({
      labels: [
        { x: 0.7, text: "mode hedged" },
        { x: 1.2, text: "stalls 5 %" },
      ],
      datasetIndex: 3,
      fontSize: theme.labelSize,
    });
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

  it("shades each shown percentile's intervals in its colour, one legend entry, values in its tooltip", () => {
    const bounded = second(0, {
      requests: 2000,
      percentileIntervals: {
        p50: { lo: 4.5, hi: 5.5 },
        p99: { lo: 18, hi: 23 },
        p999: { lo: 300, hi: null },
      },
    });
    const config = overTimeChartConfig(theme, [bounded, second(1000)], {
      logScale: false,
      labels,
      percentiles: ["p99", "p999"],
    });
    const bands = config.data.datasets.slice(2);
    expect(bands.map((band) => [band.label, band.fill ?? null])).toEqual([
      ["95 % interval", "+1"],
      ["95 % interval", null],
      ["95 % interval", "+1"],
      ["95 % interval", null],
    ]);
    // p99.9 is open above: drawn up to the second's slowest request; no band without intervals.
    expect(bands[2]?.data).toEqual([
      { x: 0.5, y: 500 },
      { x: 1.5, y: null },
    ]);
    expect(bands[3]?.data).toEqual([
      { x: 0.5, y: 300 },
      { x: 1.5, y: null },
    ]);
    const plugins = config.options?.plugins;
    const shown = config.data.datasets.filter((_dataset, datasetIndex) =>
      plugins?.legend?.labels?.filter?.({ datasetIndex } as never, config.data as never),
    );
    expect(shown.map((dataset) => dataset.label)).toEqual(["p99", "p99.9", "95 % interval"]);
    const tooltip = plugins?.tooltip;
    expect(tooltip?.filter?.({ datasetIndex: 2 } as never, 0, [], config.data as never)).toBe(
      false,
    );
    const label = (datasetIndex: number, dataIndex: number, y: number) =>
      (tooltip?.callbacks?.label as (item: unknown) => string)({
        dataset: config.data.datasets[datasetIndex],
        parsed: { y },
        datasetIndex,
        dataIndex,
      });
    // p99.9 of 2 000 requests rests on 2; p99 on 20 is not said to.
    expect(label(1, 0, 400)).toBe("p99.9: 400.00 ms [300.00, ∞] · rests on 2");
    expect(label(0, 0, 20)).toBe("p99: 20.000 ms [18.000, 23.000]");
    expect(label(0, 1, 20)).toBe("p99: 20.000 ms");
  });

  it("draws no band, and gives it no legend entry, for seconds recorded before intervals were kept", () => {
    const config = overTimeChartConfig(theme, intervals, { logScale: false, labels });
    expect(config.data.datasets.map((dataset) => dataset.label)).toEqual(["p50", "p99", "p99.9"]);
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
