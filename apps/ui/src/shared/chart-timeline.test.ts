import type { LatencySeriesData } from "@taillab/api";
import type { TooltipItem } from "chart.js";
import { describe, expect, it } from "vitest";
import { TEST_THEME as theme } from "./test-support/chart-theme-fixture.ts";
import { timelineChartConfig, type TimelineColumn } from "./chart-timeline.ts";

const labels = {
  band: "min–max",
  slowest: "slowest",
  fastest: "fastest",
  mean: "mean",
  x: "Request index",
  y: "Latency (ms)",
};
const columns: TimelineColumn[] = [
  { firstIndex: 0, lastIndex: 9, min: 0, max: 9, mean: 4 },
  { firstIndex: 10, lastIndex: 19, min: 2, max: 1000, mean: 120 },
];

const points = (config: ReturnType<typeof timelineChartConfig>, index: number) =>
  config.data.datasets[index]?.data;

describe("timelineChartConfig", () => {
  it.each([
    ["linear", false, [0, 2], undefined],
    ["log: a 0 ms column is floored", true, [0.001, 2], undefined],
  ])("draws the band and the mean at each column's middle (%s)", (_name, logScale, minima) => {
    const config = timelineChartConfig(theme, columns, { logScale, labels });
    expect(config.data.datasets).toHaveLength(3);
    expect(points(config, 0)).toEqual([
      { x: 4.5, y: 9 },
      { x: 14.5, y: 1000 },
    ]);
    expect((points(config, 1) as { y: number }[]).map((point) => point.y)).toEqual(minima);
    expect((points(config, 2) as { y: number }[]).map((point) => point.y)).toEqual([4, 120]);
    expect(config.data.datasets[2]?.borderWidth).toBe(4);
    expect(config.options?.scales?.y?.type).toBe(logScale ? "logarithmic" : "linear");
    expect(config.options?.plugins?.zoom).toBeUndefined();
  });

  it("labels ticks and legend at the theme's label size (20 px on a projector)", () => {
    const config = timelineChartConfig(theme, columns, { logScale: false, labels });
    expect(config.options?.scales?.x?.ticks?.font).toMatchObject({ size: 20 });
    expect(config.options?.scales?.y?.ticks?.font).toMatchObject({ size: 20 });
    expect(config.options?.plugins?.legend?.labels?.font).toMatchObject({ size: 20 });
  });

  it("labels no ticks before there is a request, and only whole request numbers", () => {
    const empty = timelineChartConfig(theme, [], { logScale: false, labels });
    expect(empty.options?.scales?.x?.ticks?.display).toBe(false);
    expect(empty.options?.scales?.y?.ticks?.display).toBe(false);
    const few = timelineChartConfig(theme, columns, { logScale: false, labels });
    expect(few.options?.scales?.x?.ticks?.display).toBe(true);
    const label = (value: number) =>
      (few.options?.scales?.x?.ticks?.callback as (value: number) => string)(value);
    expect([0, 0.5, 1, 1000].map(label)).toEqual(["0", "", "1", "1,000"]);
  });

  it("adds a dashed line per chosen percentile across the requests, and zoom when asked", () => {
    const config = timelineChartConfig(theme, columns, {
      logScale: false,
      labels,
      percentiles: [
        { key: "p99", valueMs: 500, label: "p99 500 ms" },
        { key: "p999", valueMs: 900, label: "p99.9 900 ms" },
      ],
      zoom: true,
    });
    expect(config.data.datasets[4]?.borderColor).toBe(theme.palette.percentiles.p999);
    const p99 = config.data.datasets[3];
    expect(p99?.label).toBe("p99 500 ms");
    expect(p99?.data).toEqual([
      { x: 0, y: 500 },
      { x: 19, y: 500 },
    ]);
    expect(p99?.borderColor).toBe(theme.palette.percentiles.p99);
    expect(config.options?.plugins?.zoom?.zoom?.wheel?.enabled).toBe(true);
    expect(config.options?.plugins?.zoom?.pan?.enabled).toBe(true);
  });

  it("draws the live screen's growing buckets with no p99 line and no zoom", () => {
    const buckets: LatencySeriesData["buckets"] = [
      { firstIndex: 0, lastIndex: 3, count: 4, min: 1, max: 8, mean: 3 },
      { firstIndex: 4, lastIndex: 5, count: 2, min: 2, max: 2.5, mean: 2.25 },
    ];
    const config = timelineChartConfig(theme, buckets, { logScale: true, labels });
    expect(config.data.datasets.map((dataset) => dataset.label)).toEqual([
      "min–max",
      "fastest",
      "mean",
    ]);
    expect(points(config, 2)).toEqual([
      { x: 1.5, y: 3 },
      { x: 4.5, y: 2.25 },
    ]);
    expect(config.options?.scales?.x).toMatchObject({ min: 0, max: 5 });
    expect(config.options?.plugins?.zoom).toBeUndefined();
  });

  it("leaves the axes free and draws no percentile line before the first column", () => {
    const config = timelineChartConfig(theme, [], {
      logScale: false,
      labels,
      percentiles: [{ key: "p99", valueMs: 500, label: "p99 500 ms" }],
    });
    expect(config.data.datasets).toHaveLength(3);
    expect(config.options?.scales?.x?.min).toBeUndefined();
    expect(config.options?.scales?.x?.max).toBeUndefined();
  });

  it.each([
    [0, "min–max", 1000, "slowest: 1,000.0 ms"],
    [1, "fastest", 2, "fastest: 2.000 ms"],
    [2, "mean", 120, "mean: 120.00 ms"],
  ])("names the band's edges in the tooltip (dataset %i)", (datasetIndex, label, y, expected) => {
    const config = timelineChartConfig(theme, columns, { logScale: false, labels });
    const tooltipLabel = config.options?.plugins?.tooltip?.callbacks?.label;
    const item = { dataset: { label }, parsed: { y }, datasetIndex } as TooltipItem<"line">;
    expect(tooltipLabel?.call({} as never, item)).toBe(expected);
  });

  it("keeps the band's lower edge out of the legend", () => {
    const config = timelineChartConfig(theme, columns, { logScale: false, labels });
    const filter = config.options?.plugins?.legend?.labels?.filter;
    const shown = [0, 1, 2].filter((datasetIndex) =>
      filter?.({ datasetIndex } as never, config.data as never),
    );
    expect(shown).toEqual([0, 2]);
  });
});
