import { formatTick, renderChart } from "@taillab/report";
import type { ChartConfiguration, Scale } from "chart.js";
import { describe, expect, it } from "vitest";
import { TEST_THEME } from "./test-support/chart-theme-fixture.ts";
import { axis, withTimeRange } from "./chart-options.ts";

describe("a chart axis", () => {
  it("names every category (a bar per mode), however large its labels", () => {
    const ticks = (type: "category" | "linear") =>
      (axis(TEST_THEME, { type, title: "" }).ticks as { autoSkip?: boolean }).autoSkip;
    expect(ticks("category")).toBe(false);
    expect(ticks("linear")).toBeUndefined();
  });

  it.each([
    [0.8, 1200],
    [3, 40],
    [0.05, 7],
    [4, 20],
  ])("has the ticks the HTML report draws on a log axis from %d to %d ms", (low, high) => {
    const report = renderChart({
      id: "latency",
      title: "latency",
      x: { label: "x", scale: "linear" },
      y: { label: "ms", scale: "log", min: low, max: high },
      series: [
        {
          kind: "line",
          key: "a",
          label: "a",
          color: "#000",
          points: [
            [0, low],
            [1, high],
          ],
        },
      ],
    }).text;
    const reportTicks = [
      ...report.matchAll(/<text class="tick"[^>]*text-anchor="end"[^>]*>([^<]*)</g),
    ];
    expect(reportTicks.length).toBeGreaterThan(1);
    // The report's vertical axis: 15 px labels over its 330 px plot.
    const scale = {
      min: low,
      max: high,
      height: 330,
      width: 0,
      ticks: [] as { value: number }[],
      isHorizontal: () => false,
    };
    const options = axis(
      { ...TEST_THEME, labelSize: 15 },
      {
        type: "logarithmic",
        title: "ms",
        tickLabel: formatTick,
      },
    ) as unknown as { afterBuildTicks: (scale: Scale) => void };
    options.afterBuildTicks(scale as unknown as Scale);
    expect(scale.ticks.map(({ value }) => formatTick(value))).toEqual(
      reportTicks.map((match) => match[1]),
    );
  });
});

describe("withTimeRange", () => {
  const config = (): ChartConfiguration<"line"> => ({
    type: "line",
    data: { datasets: [] },
    options: { scales: { x: { type: "linear", title: { text: "s" } } } },
  });

  it("draws the x axis over the shared range and keeps the rest of it", () => {
    const drawn = withTimeRange(config(), TEST_THEME, { min: 2, max: 5 }, () => undefined);
    expect(drawn.options?.scales?.x).toMatchObject({ type: "linear", min: 2, max: 5 });
  });

  it("draws all of it without a range, and hands a drag's ends on", () => {
    const ranges: unknown[] = [];
    const drawn = withTimeRange(config(), TEST_THEME, null, (range) => ranges.push(range));
    expect(drawn.options?.scales?.x).not.toHaveProperty("min");
    const zoom = drawn.options?.plugins?.zoom?.zoom;
    expect(zoom?.drag?.enabled).toBe(true);
    zoom?.onZoomComplete?.({ chart: { scales: { x: { min: 1.5, max: 4 } } } } as never);
    expect(ranges).toEqual([{ min: 1.5, max: 4 }]);
  });
});
