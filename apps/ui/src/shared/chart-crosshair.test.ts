import type { Chart } from "chart.js";
import { describe, expect, it, vi } from "vitest";
import { createCrosshair, crosshairPlugin } from "./chart-crosshair.ts";
import { TEST_THEME } from "./test-support/chart-theme-fixture.ts";

/** A chart of seconds 0–10 over 100 px, as much of one as the plugin reads, its drawing kept. */
function stubChart(xRange = { min: 0, max: 10 }) {
  const strokes: [number, number][][] = [];
  let path: [number, number][] = [];
  const ctx = {
    save: () => undefined,
    restore: () => undefined,
    beginPath: () => (path = []),
    moveTo: (x: number, y: number) => path.push([x, y]),
    lineTo: (x: number, y: number) => path.push([x, y]),
    stroke: () => strokes.push(path),
  };
  const chart = {
    scales: {
      x: {
        ...xRange,
        getValueForPixel: (pixel: number) => pixel / 10,
        getPixelForValue: (value: number) => value * 10,
      },
    },
    ctx,
    chartArea: { top: 5, bottom: 95 },
    canvas: document.createElement("canvas"),
    draw: vi.fn(),
  };
  return { chart: chart as unknown as Chart, strokes, draw: chart.draw };
}

const pointer = (type: string, x: number | null = null, inChartArea = true) => ({
  event: { type, x, y: 50 },
  inChartArea,
  replay: false,
  changed: false,
});

describe("a crosshair shared by a run's time charts", () => {
  it("draws the second under the pointer on one chart as a line on the others", () => {
    const crosshair = createCrosshair();
    const plugin = crosshairPlugin(crosshair, TEST_THEME);
    const [hovered, other, zoomedAway] = [stubChart(), stubChart(), stubChart({ min: 6, max: 10 })];
    for (const { chart } of [hovered, other, zoomedAway]) plugin.install?.(chart, {}, {});

    const move = pointer("mousemove", 35);
    plugin.afterEvent?.(hovered.chart, move as never, {});
    expect(crosshair.at).toBe(3.5);
    expect(move.changed).toBe(true);
    expect(other.draw).toHaveBeenCalledTimes(1);
    expect(hovered.draw).not.toHaveBeenCalled();

    plugin.afterDatasetsDraw?.(other.chart, {} as never, {}, false);
    expect(other.strokes).toEqual([
      [
        [35, 5],
        [35, 95],
      ],
    ]);
    expect(other.chart.canvas.dataset.crosshairX).toBe("3.5");
    // A chart zoomed to seconds 6–10 has no 3.5 to draw.
    plugin.afterDatasetsDraw?.(zoomedAway.chart, {} as never, {}, false);
    expect(zoomedAway.strokes).toEqual([]);

    // Leaving the plot takes the line away everywhere.
    plugin.afterEvent?.(hovered.chart, pointer("mousemove", 2, false) as never, {});
    expect(crosshair.at).toBeNull();
    expect(other.draw).toHaveBeenCalledTimes(2);
    plugin.afterDatasetsDraw?.(other.chart, {} as never, {}, false);
    expect(other.strokes).toHaveLength(1);
    expect(other.chart.canvas.dataset.crosshairX).toBeUndefined();

    // A chart gone (another phase, another run) is no longer drawn.
    plugin.uninstall?.(other.chart, {}, {});
    plugin.afterEvent?.(hovered.chart, pointer("mousemove", 50) as never, {});
    expect(other.draw).toHaveBeenCalledTimes(2);
    expect(zoomedAway.draw).toHaveBeenCalledTimes(3);
  });
});
