import { describe, expect, it } from "vitest";
import type { ChartTheme } from "./chart-theme.ts";
import { timelineChartConfig, type TimelineColumn } from "./chart-timeline.ts";

const theme: ChartTheme = {
  grid: "#eeeeee",
  text: "#333333",
  lineWidth: 4,
  fontSize: 20,
  fontFamily: "sans-serif",
  series: ["#111111", "#222222", "#333333", "#444444", "#555555", "#666666"],
};
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

  it("adds a dashed p99 line across the requests, and zoom when asked", () => {
    const config = timelineChartConfig(theme, columns, {
      logScale: false,
      labels,
      p99: { valueMs: 500, label: "p99 500 ms" },
      zoom: true,
    });
    const p99 = config.data.datasets[3];
    expect(p99?.label).toBe("p99 500 ms");
    expect(p99?.data).toEqual([
      { x: 0, y: 500 },
      { x: 19, y: 500 },
    ]);
    expect(p99?.borderColor).toBe("#555555");
    expect(config.options?.plugins?.zoom?.zoom?.wheel?.enabled).toBe(true);
    expect(config.options?.plugins?.zoom?.pan?.enabled).toBe(true);
  });
});
