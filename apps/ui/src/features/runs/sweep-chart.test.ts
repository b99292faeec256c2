import type { RunSummary } from "@taillab/api";
import { PALETTES } from "@taillab/report";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import "../../shared/test-support/render.tsx";
import { TEST_THEME } from "../../shared/test-support/chart-theme-fixture.ts";
import { lineStyles } from "./sweep-chart.tsx";
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

  it("gives several runs a colour each (their modes'), one legend entry each, dashes for the rest", () => {
    const runs = [
      { label: "normal run", summary: sweep("normal") },
      { label: "hedged run", summary: sweep("hedged") },
    ];
    const metrics = ["p50Ms", "p99Ms"] as const;
    const lines = sweepChartLines(runs, "objectSize", metrics, "GET");
    const styles = lineStyles({ lines, runs, metrics, oneOp: true, t });
    expect(new Set(styles.map((style) => style.group))).toEqual(new Set([0, 1]));
    expect(new Set(styles.map((style) => style.color(TEST_THEME)))).toEqual(
      new Set([PALETTES.light.modes.normal, PALETTES.light.modes.hedged]),
    );
    expect(new Set(styles.map((style) => style.label))).toEqual(
      new Set(["normal run", "hedged run"]),
    );
    expect(new Set(styles.map((style) => style.dash.join()))).toEqual(new Set(["", "8,5"]));
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
