import { formatTick, renderChart } from "@taillab/report";
import type { ChartConfiguration, Scale } from "chart.js";
import { describe, expect, it, vi } from "vitest";
import { TEST_THEME } from "./test-support/chart-theme-fixture.ts";
import { axis, rangeWithPoints, withTimeRange } from "./chart-options.ts";

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
  const seconds = [0.5, 1.5, 2.5, 3.5, 4.5];

  it("draws the x axis over the shared range and keeps the rest of it", () => {
    const drawn = withTimeRange(config(), TEST_THEME, { min: 2, max: 5 }, () => undefined, seconds);
    expect(drawn.options?.scales?.x).toMatchObject({ type: "linear", min: 2, max: 5 });
  });

  it("draws all of it without a range, and hands a drag's ends on", () => {
    const ranges: unknown[] = [];
    const drawn = withTimeRange(config(), TEST_THEME, null, (range) => ranges.push(range), seconds);
    expect(drawn.options?.scales?.x).not.toHaveProperty("min");
    const zoom = drawn.options?.plugins?.zoom?.zoom;
    expect(zoom?.drag?.enabled).toBe(true);
    zoom?.onZoomComplete?.({ chart: { scales: { x: { min: 1.5, max: 4 } } } } as never);
    expect(ranges).toEqual([{ min: 1.5, max: 4 }]);
  });

  it("widens a drag inside one second of a 2-second run to both its seconds, and draws that", () => {
    const ranges: unknown[] = [];
    const drawn = withTimeRange(
      config(),
      TEST_THEME,
      null,
      (range) => ranges.push(range),
      [0.5, 1.5],
    );
    const axisOptions: { min?: number; max?: number } = { min: 0.8, max: 1.1 };
    const chart = {
      scales: { x: { min: 0.8, max: 1.1 } },
      options: { scales: { x: axisOptions } },
      update: vi.fn(),
    };
    drawn.options?.plugins?.zoom?.zoom?.onZoomComplete?.({ chart } as never);
    expect(ranges).toEqual([{ min: 0.5, max: 1.5 }]);
    expect(axisOptions).toEqual({ min: 0.5, max: 1.5 });
    expect(chart.update).toHaveBeenCalledWith("none");
  });

  it("leaves a chart of one second as it was drawn: there is nothing to zoom into", () => {
    const ranges: unknown[] = [];
    const drawn = withTimeRange(config(), TEST_THEME, null, (range) => ranges.push(range), [0.5]);
    const axisOptions: { min?: number; max?: number } = { min: 0.2, max: 0.4 };
    const chart = {
      scales: { x: axisOptions },
      options: { scales: { x: axisOptions } },
      update: vi.fn(),
    };
    drawn.options?.plugins?.zoom?.zoom?.onZoomComplete?.({ chart } as never);
    expect(ranges).toEqual([]);
    expect(axisOptions).toEqual({ min: undefined, max: undefined });
  });
});

describe("rangeWithPoints", () => {
  it.each([
    ["two points inside: as dragged", { min: 1, max: 3 }, [0.5, 1.5, 2.5, 3.5], { min: 1, max: 3 }],
    [
      "one point inside: out to its neighbour",
      { min: 1.4, max: 1.6 },
      [0.5, 1.5, 2.5],
      { min: 0.5, max: 1.6 },
    ],
    [
      "none inside: out to the two around it",
      { min: 1.7, max: 1.9 },
      [0.5, 1.5, 2.5],
      { min: 1.5, max: 2.5 },
    ],
    [
      "past the last point: the last two",
      { min: 5, max: 6 },
      [0.5, 1.5, 2.5],
      { min: 1.5, max: 6 },
    ],
    [
      "before the first point: the first two",
      { min: 0, max: 0.2 },
      [1.5, 0.5, 2.5],
      { min: 0, max: 1.5 },
    ],
    [
      "a 2-second run, inside one second",
      { min: 0.8, max: 1.1 },
      [0.5, 1.5],
      { min: 0.5, max: 1.5 },
    ],
    ["fewer than two points: no zoom", { min: 0, max: 1 }, [0.5], null],
  ])("%s", (_name, range, pointsX, expected) => {
    expect(rangeWithPoints(range, pointsX)).toEqual(expected);
  });
});
