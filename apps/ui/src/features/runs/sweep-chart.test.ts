import type { RunSummary } from "@taillab/api";
import type { SweepMetric } from "@taillab/core";
import { PALETTES } from "@taillab/report";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import "../../shared/test-support/render.tsx";
import { TEST_THEME } from "../../shared/test-support/chart-theme-fixture.ts";
import { colorDistance } from "../../shared/test-support/color-distance.ts";
import { lineStyles, sweepConfig } from "./sweep-chart.tsx";
import { sweepChartLines } from "./sweep-chart-data.ts";
import { runDetailFixture } from "./test-support/run-fixtures.ts";

const t = i18next.getFixedT("en", "runs");
const sweep = (mode: RunSummary["mode"], clients = [1]) =>
  runDetailFixture({
    mode,
    spec: { clients, samples: [64], objectSize: ["4KiB", "64KiB"] },
    ops: ["PUT", "GET"],
  }).summary;

describe("sweep chart lines", () => {
  it("colours one group's percentiles each in its own colour, not all blue", () => {
    const runs = [{ label: "sizes", summary: sweep("normal") }];
    const metrics = ["p50Ms", "p99Ms", "p999Ms"] as const;
    const lines = sweepChartLines(runs, "objectSize", metrics, "GET");
    const styles = lineStyles({ lines, runs, metrics, oneOp: true, t });
    expect(styles.map((style) => style.color(TEST_THEME))).toEqual([
      PALETTES.light.percentiles.p50,
      PALETTES.light.percentiles.p99,
      PALETTES.light.percentiles.p999,
    ]);
    expect(styles.map((style) => style.label)).toEqual(["p50", "p99", "p99.9"]);
  });

  it("gives several runs a hue each (their modes'), one legend entry each, a shade and a dash per percentile", () => {
    const runs = [
      { label: "normal run", summary: sweep("normal") },
      { label: "hedged run", summary: sweep("hedged") },
      { label: "tied run", summary: sweep("tied") },
    ];
    const metrics = ["p50Ms", "p99Ms", "p999Ms"] as const;
    const lines = sweepChartLines(runs, "objectSize", metrics, "GET");
    const styles = lineStyles({ lines, runs, metrics, oneOp: true, t });
    expect(styles).toHaveLength(9);
    // The legend lists each run once: its lines share a group and a label.
    expect(new Set(styles.map((style) => style.group))).toEqual(new Set([0, 1, 2]));
    expect(new Set(styles.map((style) => style.label))).toEqual(
      new Set(["normal run", "hedged run", "tied run"]),
    );
    expect(new Set(styles.map((style) => style.dash.join()))).toEqual(new Set(["", "8,5", "2,4"]));
    // Every (run, percentile) line has a colour of its own…
    const colors = styles.map((style) => style.color(TEST_THEME));
    for (const [index, color] of colors.entries()) {
      for (const other of colors.slice(index + 1)) {
        expect(colorDistance(color, other)).toBeGreaterThan(10);
      }
    }
    // …of its run's hue, the middle percentile the run's colour itself.
    const bases = runs.map((run) => PALETTES.light.modes[run.summary.mode]);
    lines.forEach((line, index) => {
      const nearest = bases
        .map((base, run) => ({ run, distance: colorDistance(colors[index]!, base) }))
        .sort((a, b) => a.distance - b.distance)[0];
      expect(nearest?.run).toBe(line.runIndex);
      if (line.metric === "p99Ms") expect(colors[index]).toBe(bases[line.runIndex]);
    });
    // One percentile drawn: each run in its very colour.
    const p99 = sweepChartLines(runs, "objectSize", ["p99Ms"], "GET");
    const single = lineStyles({ lines: p99, runs, metrics: ["p99Ms"], oneOp: true, t });
    expect(single.map((style) => style.color(TEST_THEME))).toEqual(bases);
  });

  it("tells 8 runs of one mode apart by colour and marker, and by dash with one percentile", () => {
    const runs = Array.from({ length: 8 }, (_, index) => ({
      label: `run ${index}`,
      summary: sweep("normal"),
    }));
    const stylesOf = (metrics: SweepMetric[]) =>
      lineStyles({
        lines: sweepChartLines(runs, "objectSize", metrics, "GET"),
        ...{ runs, metrics, oneOp: true, t },
      });
    const p99 = stylesOf(["p99Ms"]);
    expect(new Set(p99.map((style) => `${style.color(TEST_THEME)} ${style.point}`)).size).toBe(8);
    expect(new Set(p99.map((style) => `${style.color(TEST_THEME)} ${style.dash}`)).size).toBe(8);
    // Two percentiles: the dashes say which; runs 0 and 6, both blue, differ by marker.
    const two = stylesOf(["p50Ms", "p99Ms"]);
    const pointOf = (run: number) => two.find((style) => style.group === run)?.point;
    expect(pointOf(6)).not.toBe(pointOf(0));
  });

  it("colours groups of points apart when one run has several", () => {
    const runs = [{ label: "grid", summary: sweep("normal", [1, 4]) }];
    const lines = sweepChartLines(runs, "objectSize", ["throughputMBps"]);
    const styles = lineStyles({ lines, runs, metrics: ["throughputMBps"], oneOp: false, t });
    expect(styles.map((style) => style.label)).toEqual([
      "PUT · 1 client · 64 requests",
      "PUT · 4 clients · 64 requests",
      "GET · 1 client · 64 requests",
      "GET · 4 clients · 64 requests",
    ]);
    expect(styles[0]!.color(TEST_THEME)).not.toBe(styles[1]!.color(TEST_THEME));
  });
});

describe("a concurrency sweep chart", () => {
  const runs = [{ label: "clients", summary: sweep("normal", [1, 2, 5, 10, 50]) }];
  const metrics = ["p99Ms"] as const;
  const lines = sweepChartLines(runs, "concurrency", metrics, "GET");
  const styles = lineStyles({ lines, runs, metrics, oneOp: true, t });
  const xAxisType = (log: boolean) => {
    const options = {
      axis: "concurrency" as const,
      latency: true,
      log,
      xValues: [1, 2, 5, 10, 50],
    };
    return sweepConfig(TEST_THEME, lines, styles, { ...options, title: "" }, t).options?.scales?.x
      ?.type;
  };

  it("puts concurrency on a log axis when Log scale is ticked, a linear one when not", () => {
    expect(xAxisType(true)).toBe("logarithmic");
    expect(xAxisType(false)).toBe("linear");
  });
});
