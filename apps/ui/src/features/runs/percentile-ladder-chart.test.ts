import { runLineColors } from "@taillab/report";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import "../../shared/test-support/render.tsx";
import { TEST_THEME } from "../../shared/test-support/chart-theme-fixture.ts";
import { ladderConfig } from "./percentile-ladder-chart.tsx";
import { ladderLines } from "./percentile-ladder-data.ts";

const t = i18next.getFixedT("en", "runs");
const stats = (p50: number) => ({
  ...{ min: p50 / 2, p25: p50, p50, p75: p50, p90: p50 * 2, p99: p50 * 3 },
  ...{ p999: p50 * 4, p9999: p50 * 5, max: p50 * 6, mean: p50, stdev: 1 },
});

describe("the percentile ladder of compared runs", () => {
  it("draws 22 runs of one mode as 22 different lines: colour, dash and marker", () => {
    const colors = runLineColors(Array.from({ length: 22 }, () => "normal" as const));
    const lines = ladderLines(
      colors.map((color, index) => ({
        label: `run ${index + 1}`,
        histogram: null,
        stats: stats(10 + index),
        color,
      })),
    );
    const datasets = ladderConfig(TEST_THEME, lines, true, t).data.datasets;
    expect(datasets).toHaveLength(22);
    const looks = datasets.map((set) => `${String(set.borderColor)} ${String(set.borderDash)}`);
    expect(new Set(looks).size).toBe(22);
    const marked = datasets.map((set) => `${String(set.borderColor)} ${String(set.pointStyle)}`);
    expect(new Set(marked).size).toBe(22);
    // The legend's swatches are lines in their dash, so the key tells the runs apart too.
    expect(ladderConfig(TEST_THEME, lines, true, t).options?.plugins?.legend?.labels).toMatchObject(
      { usePointStyle: true, pointStyle: "line" },
    );
  });

  it("keeps one run per mode solid, in its mode's colour", () => {
    const lines = ladderLines(
      runLineColors(["normal", "hedged"]).map((color, index) => ({
        label: `run ${index}`,
        histogram: null,
        stats: stats(10),
        color,
      })),
    );
    const datasets = ladderConfig(TEST_THEME, lines, true, t).data.datasets;
    expect(datasets.map((set) => set.borderColor)).toEqual([
      TEST_THEME.palette.modes.normal,
      TEST_THEME.palette.modes.hedged,
    ]);
    expect(datasets.map((set) => set.borderDash)).toEqual([[], []]);
  });
});
