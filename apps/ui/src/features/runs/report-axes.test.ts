import type { IntervalStats } from "@taillab/api";
import { clientBoundSpans, compareRuns, modeComparison } from "@taillab/core";
import {
  analyseHistogram,
  cdfSeries,
  histogramSeries,
  latencyIndexSeries,
  modeTailAxis,
  overTimeLogScale,
  renderComparisonReport,
  renderRunReport,
} from "@taillab/report";
import { syntheticRun } from "@taillab/report/test-support";
import { REAL_RUN } from "@taillab/report/test-support/real-run";
import type { ChartConfiguration, Scale } from "chart.js";
import i18next, { type TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { initI18n, LANGUAGES } from "../../app/i18n.ts";
import { barsConfig } from "../compare/mode-comparison-card.tsx";
import { overTimeChartConfig, overTimeIntervalLabels } from "../../shared/chart-over-time.ts";
import { ratesOverTimeChartConfig } from "../../shared/chart-rates-over-time.ts";
import { TEST_THEME } from "../../shared/test-support/chart-theme-fixture.ts";
import { cdfConfig } from "./cdf-chart.tsx";
import { histogramConfig } from "./histogram-chart.tsx";
import { ladderConfig } from "./percentile-ladder-chart.tsx";
import { ladderLines } from "./percentile-ladder-data.ts";
import { timelineChartConfig } from "../../shared/chart-timeline.ts";
import { lineStyles, sweepConfig } from "./sweep-chart.tsx";
import { sweepAxes, sweepAxisValues, sweepChartLines } from "./sweep-chart-data.ts";

/**
 * The app's charts and the HTML report of one stored run show the same ticks on every axis both
 * draw. The report's figures carry their tick values (data-x-ticks, data-y-ticks); the app's
 * Chart.js axes are run through the hooks Chart.js calls (afterDataLimits, afterBuildTicks) with
 * the data limits Chart.js takes from the chart's datasets and the report's plot size.
 */

const RUNS = [
  {
    // A sweep of sizes and concurrencies, with stalls, so latency axes span decades (log).
    name: "a synthetic sweep",
    run: syntheticRun({
      spec: { objectSize: ["4KiB", "1MiB"], clients: [1, 32] },
      requestsPerPhase: 120,
      stallsPerPhase: 2,
    }),
    logSweepAxes: true,
  },
  // A size sweep of 30 requests a phase on the testbed's stalls profile: no axis spans decades.
  { name: "a real stored run", run: REAL_RUN, logSweepAxes: false },
];

/** The report's SVG plot: 840 × 330 px (renderChart's width and margins), 15 px tick labels. */
const PLOT = { width: 840, height: 330 };
const theme = { ...TEST_THEME, labelSize: 15 };
const t = ((key: string) => key) as unknown as TFunction<"runs">;

interface ReportAxes {
  x: number[];
  y: number[];
  xScale: string;
  yScale: string;
}

function reportFigures(report: string): Map<string, ReportAxes> {
  const figures = new Map<string, ReportAxes>();
  const values = (text: string | undefined) =>
    text ? text.split(" ").map(Number) : ([] as number[]);
  for (const match of report.matchAll(/<figure class="chart-figure"([^>]*)>/g)) {
    const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(match[1]!)?.[1];
    figures.set(attribute("data-chart")!, {
      x: values(attribute("data-x-ticks")),
      y: values(attribute("data-y-ticks")),
      xScale: attribute("data-x-scale")!,
      yScale: attribute("data-y-scale")!,
    });
  }
  return figures;
}

/** The report's `index`th chart (from 0) whose id ends in `-${kind}`, as its ids are c<n>-<kind>. */
function figureOf(figures: Map<string, ReportAxes>, kind: string, index = 0): ReportAxes {
  const found = [...figures].filter(([id]) => id.endsWith(`-${kind}`))[index];
  if (!found) throw new Error(`report has no chart ${kind} #${index}: ${[...figures.keys()]}`);
  return found[1];
}

type AnyConfig = ChartConfiguration<"line">;

/** What a run stored of one point's phase: its seconds, histograms or latency series. */
function ofPhase<T extends { pointIndex: number; op: string }>(
  entries: readonly T[],
  pointIndex: number,
  op: string,
): T {
  return entries.find((entry) => entry.pointIndex === pointIndex && entry.op === op)!;
}

/**
 * The ticks Chart.js ends with on one axis: its data limits as getMinMax finds them (the visible
 * datasets' values on that axis, the options' min and max where set), then the axis's hooks.
 */
function appTicks(config: AnyConfig, axisId: string, lengthPx: number): number[] {
  const options = config.options?.scales?.[axisId] as unknown as {
    type: string;
    min?: number;
    max?: number;
    afterDataLimits?: (scale: Scale) => void;
    afterBuildTicks?: (scale: Scale) => void;
  };
  const horizontal = axisId === "x";
  const log = options.type === "logarithmic";
  const values = config.data.datasets
    .filter((dataset) => !dataset.hidden)
    .filter((dataset) => horizontal || (dataset.yAxisID ?? "y") === axisId)
    .flatMap((dataset) =>
      // A bar chart's values are numbers at its labels' positions.
      (dataset.data as ({ x: number; y: number | null } | number | null)[]).map((point, index) =>
        typeof point === "number" || point === null
          ? { x: Number(config.data.labels?.[index]), y: point }
          : point,
      ),
    )
    .map((point) => (horizontal ? point.x : point.y))
    .filter((value): value is number => value !== null && Number.isFinite(value))
    .filter((value) => !log || value > 0);
  const userBounds = {
    min: options.min ?? Number.POSITIVE_INFINITY,
    max: options.max ?? Number.NEGATIVE_INFINITY,
    minDefined: options.min !== undefined,
    maxDefined: options.max !== undefined,
  };
  const scale = {
    min: Math.min(...values),
    max: Math.max(...values),
    ticks: [] as { value: number }[],
    width: horizontal ? lengthPx : 0,
    height: horizontal ? 0 : lengthPx,
    isHorizontal: () => horizontal,
    getUserBounds: () => userBounds,
    getMinMax: () => ({
      min: options.min ?? Math.min(...values),
      max: options.max ?? Math.max(...values),
    }),
  };
  options.afterDataLimits?.(scale as unknown as Scale);
  options.afterBuildTicks?.(scale as unknown as Scale);
  return scale.ticks.map((tick) => tick.value);
}

const overTimeLabels = {
  x: "s",
  y: "ms",
  cost: "cost",
  markers: "markers",
  clientBound: "client",
  interval: "interval",
  restsOn: (beyond: number) => String(beyond),
};

describe.each(RUNS)(
  "the app's chart axes and the HTML report's of $name",
  ({ run, logSweepAxes }) => {
    const summary = run.summary;
    const intervalsOf = (pointIndex: number, op: string): IntervalStats[] =>
      ofPhase(run.intervals, pointIndex, op).intervals;
    const figures = reportFigures(renderRunReport(run, { language: "en" }));
    const figure = (kind: string, index = 0) => figureOf(figures, kind, index);
    // The report draws each phase's charts in the order of the points and their phases.
    const phases = summary.points.flatMap((point, pointIndex) =>
      point.phases.map((phase) => ({ pointIndex, phase })),
    );

    it.each(phases.map((entry, index) => [index, entry] as const))(
      "phase %i: percentiles and rates over time",
      (index, { pointIndex, phase }) => {
        const intervals = intervalsOf(pointIndex, phase.op);
        const overTime = overTimeChartConfig(theme, intervals, {
          logScale: overTimeLogScale(intervals),
          labels: overTimeLabels,
          clientBound: clientBoundSpans(phase.client?.seconds ?? []),
        });
        const time = figure("time", index);
        expect(appTicks(overTime, "x", PLOT.width)).toEqual(time.x);
        expect(appTicks(overTime, "y", PLOT.height)).toEqual(time.y);
        expect(time.y.length).toBeGreaterThan(2);
        for (const kind of ["throughput", "data", "errors"] as const) {
          const rates = ratesOverTimeChartConfig(theme, intervals, {
            kind,
            labels: { x: "s", y: "/s", line: kind },
          });
          const drawn = figure(kind === "throughput" ? "ops" : kind, index);
          expect(appTicks(rates, "x", PLOT.width)).toEqual(drawn.x);
          expect(appTicks(rates, "y", PLOT.height)).toEqual(drawn.y);
        }
      },
    );

    it.each(phases.map((entry, index) => [index, entry] as const))(
      "phase %i: the CDF's latency and fraction axes",
      (index, { pointIndex, phase }) => {
        const stored = ofPhase(run.histograms, pointIndex, phase.op);
        const analysis = analyseHistogram(stored.latency)!;
        const measuredP99Ms = phase.latencyMs!.p99;
        const data = cdfSeries(analysis, measuredP99Ms);
        const config = cdfConfig(theme, data, [], t);
        const drawn = figure("cdf", index);
        expect(drawn.xScale).toBe(data.logScale ? "log" : "linear");
        expect(appTicks(config, "x", PLOT.width)).toEqual(drawn.x);
        expect(appTicks(config, "y", PLOT.height)).toEqual(drawn.y);
      },
    );

    it.each(phases.map((entry, index) => [index, entry] as const))(
      "phase %i: latency by request index and the histogram",
      (index, { pointIndex, phase }) => {
        const buckets = ofPhase(run.latencySeries, pointIndex, phase.op).buckets;
        const latency = latencyIndexSeries(buckets, phase.latencyMs!);
        const timeline = timelineChartConfig(theme, latency.columns, {
          logScale: latency.logScale,
          labels: { band: "", slowest: "", fastest: "", mean: "", x: "", y: "" },
          percentiles: [{ key: "p99", valueMs: latency.p99Ms, label: "p99" }],
        });
        const drawn = figure("index", index);
        expect(appTicks(timeline, "x", PLOT.width)).toEqual(drawn.x);
        expect(appTicks(timeline, "y", PLOT.height)).toEqual(drawn.y);

        const stored = ofPhase(run.histograms, pointIndex, phase.op);
        const bars = histogramSeries(analyseHistogram(stored.latency)!.view);
        const histogram = histogramConfig(theme, bars, true, t) as unknown as AnyConfig;
        const hist = figure("hist", index);
        expect(hist.xScale).toBe("log");
        // The report's histogram is 380 px tall, its plot 290 px.
        expect(appTicks(histogram, "x", PLOT.width)).toEqual(hist.x);
        expect(appTicks(histogram, "y", 290)).toEqual(hist.y);
        expect(hist.x.length).toBeGreaterThan(2);
      },
    );

    it("the sweep's charts against size and concurrency, their value axes log where they span decades", () => {
      const runs = [{ label: "run", summary }];
      let logAxes = 0;
      for (const axis of sweepAxes(runs)) {
        const prefix = axis === "objectSize" ? "size" : "conc";
        const charts = [
          { id: "mbps", metrics: ["throughputMBps"] as const, op: undefined },
          { id: "ops", metrics: ["opsPerSec"] as const, op: undefined },
          ...(["PUT", "GET"] as const).map((op) => ({
            id: `lat-${op}`,
            metrics: ["p50Ms", "p99Ms", "p999Ms"] as const,
            op,
          })),
        ];
        for (const chart of charts) {
          const lines = sweepChartLines(runs, axis, chart.metrics, chart.op);
          const styles = lineStyles({ lines, runs, metrics: chart.metrics, oneOp: !!chart.op, t });
          const drawn = figure(`sweep-${prefix}-${chart.id}`);
          const log = drawn.yScale === "log";
          logAxes += log ? 1 : 0;
          const config = sweepConfig(
            theme,
            lines,
            styles,
            {
              axis,
              latency: chart.op !== undefined,
              log,
              xValues: sweepAxisValues(runs, axis),
              title: "y",
            },
            t,
          );
          expect(appTicks(config, "x", PLOT.width)).toEqual(drawn.x);
          expect(appTicks(config, "y", PLOT.height)).toEqual(drawn.y);
        }
      }
      expect(logAxes > 0).toBe(logSweepAxes);
    });
  },
);

describe("the app's chart axes and the HTML report's of one point", () => {
  it("the percentile ladder of a point's phases", () => {
    // The report's ladder of a one-point run: one line per phase but the cleanup, as the app's.
    const single = syntheticRun({ requestsPerPhase: 200, stallsPerPhase: 1 });
    const [point] = single.summary.points;
    const lines = ladderLines(
      point!.phases
        .filter((phase) => phase.op !== "DELETE")
        .map((phase) => ({
          label: phase.op,
          histogram:
            single.histograms.find((entry) => entry.pointIndex === 0 && entry.op === phase.op)
              ?.latency ?? null,
          stats: phase.latencyMs,
        })),
    );
    const ladder = /<figure class="chart-figure"[^>]*data-chart="c\d+-ladder"[^>]*>/.exec(
      renderRunReport(single, { language: "en" }),
    )![0];
    const ticks = (axis: string) =>
      new RegExp(`data-${axis}-ticks="([^"]*)"`).exec(ladder)![1]!.split(" ").map(Number);
    const config = ladderConfig(theme, lines, true, t);
    expect(appTicks(config, "x", PLOT.width)).toEqual(ticks("x"));
    expect(appTicks(config, "y", PLOT.height)).toEqual(ticks("y"));
  });
});

/** One chart of a report as drawn: its title, axis titles, lines (read back to data) and legend. */
interface DrawnChart {
  title: string;
  axisLabels: string[];
  /**
   * Each line's legend label (none when it is the chart's one series) and its drawn stretches,
   * each point read back through the axes' ticks.
   */
  lines: { label: string | undefined; segments: [number, number][][] }[];
  /** How far a value read back may be off: a pixel's worth on each axis (paths round to 0.1). */
  tolerance: [number, number];
}

const unescape = (text: string) =>
  text
    .trim()
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");

function drawnChart(report: string, kind: string, index: number): DrawnChart {
  const figures = [
    ...report.matchAll(
      /<figure class="chart-figure"[^>]*data-chart="(c\d+-[^"]+)"[\s\S]*?<\/figure>/g,
    ),
  ].filter((match) => match[1]!.endsWith(`-${kind}`));
  const html = figures[index]![0];
  const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(html)![1]!;
  const axis = (name: "x" | "y", grid: RegExp) => {
    const values = attribute(`data-${name}-ticks`).split(" ").map(Number);
    const pixels = [...html.matchAll(grid)].map((match) => Number(match[1]));
    const log = attribute(`data-${name}-scale`) === "log";
    const at = (value: number) => (log ? Math.log10(value) : value);
    const [v0, v1, p0, p1] = [at(values[0]!), at(values.at(-1)!), pixels[0]!, pixels.at(-1)!];
    const perPx = (v1 - v0) / (p1 - p0);
    const valueAt = (px: number) => {
      const position = v0 + (px - p0) * perPx;
      return log ? 10 ** position : position;
    };
    return { valueAt, perPx: Math.abs(perPx) };
  };
  const x = axis("x", /<line class="grid grid-x" x1="([\d.]+)"/g);
  const y = axis("y", /<line class="grid" x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)"/g);
  const legend = new Map(
    [...html.matchAll(/data-series="([^"]+)"[^>]*>[\s\S]*?<span>([^<]*)<\/span>/g)].map((match) => [
      match[1]!,
      unescape(match[2]!),
    ]),
  );
  const lines = [...html.matchAll(/<g data-series="([^"]+)"><path class="line" d="([^"]+)"/g)].map(
    (match) => ({
      label: legend.get(match[1]!),
      segments: match[2]!
        .split("M")
        .filter(Boolean)
        .map((segment) =>
          segment.split("L").map((pair): [number, number] => {
            const [px, py] = pair.split(" ").map(Number);
            return [x.valueAt(px!), y.valueAt(py!)];
          }),
        ),
    }),
  );
  return {
    title: unescape(/<figcaption class="chart-title">([^<]*)</.exec(html)![1]!),
    axisLabels: [...html.matchAll(/<text class="axis-label"[^>]*>([^<]*)</g)].map((match) =>
      unescape(match[1]!),
    ),
    lines,
    tolerance: [x.perPx, y.perPx],
  };
}

/** A Chart.js line's points as the report draws them: stretches between its gaps (null). */
function appSegments(data: unknown[]): [number, number][][] {
  const segments: [number, number][][] = [[]];
  for (const point of data as { x: number; y: number | null }[]) {
    if (point.y === null) {
      if (segments.at(-1)!.length > 0) segments.push([]);
    } else {
      segments.at(-1)!.push([point.x, point.y]);
    }
  }
  return segments.filter((segment) => segment.length > 0);
}

function expectSameLine(drawn: DrawnChart, app: { label?: string; data: unknown[] }): void {
  const line =
    drawn.lines.find((entry) => entry.label === app.label) ??
    (drawn.lines.length === 1 && drawn.lines[0]!.label === undefined ? drawn.lines[0] : undefined);
  expect(line, `report line "${app.label}" among ${drawn.lines.map((l) => l.label)}`).toBeDefined();
  const expected = appSegments(app.data);
  expect(line!.segments.map((segment) => segment.length)).toEqual(
    expected.map((segment) => segment.length),
  );
  line!.segments.flat().forEach(([x, y], index) => {
    const [ax, ay] = expected.flat()[index]!;
    expect(Math.abs(x - ax)).toBeLessThanOrEqual(drawn.tolerance[0]);
    expect(Math.abs(y - ay)).toBeLessThanOrEqual(drawn.tolerance[1]);
  });
}

describe.each(LANGUAGES)(
  "a real stored run's series and labels over time, app and report, in %s",
  (language) => {
    initI18n();
    const tr = i18next.getFixedT(language, "runs");
    const report = renderRunReport(REAL_RUN, { language });
    const phases = REAL_RUN.summary.points.flatMap((point, pointIndex) =>
      point.phases.map((phase) => ({ pointIndex, phase })),
    );

    it.each(phases.map((entry, index) => [index, entry] as const))(
      "phase %i",
      (index, { pointIndex, phase }) => {
        const intervals = ofPhase(REAL_RUN.intervals, pointIndex, phase.op).intervals;
        const overTime = overTimeChartConfig(theme, intervals, {
          logScale: overTimeLogScale(intervals),
          labels: {
            ...overTimeLabels,
            x: tr("overTime.x"),
            y: tr("charts.latencyMs"),
            ...overTimeIntervalLabels(language),
          },
        });
        const time = drawnChart(report, "time", index);
        expect(time.title).toBe(tr("overTime.title"));
        expect(time.axisLabels).toEqual([tr("overTime.x"), tr("charts.latencyMs")]);
        expect(time.lines.map((line) => line.label)).toEqual(["p50", "p99", "p99.9"]);
        for (const dataset of overTime.data.datasets.slice(0, 3)) expectSameLine(time, dataset);

        for (const kind of ["throughput", "data", "errors"] as const) {
          const words = (key: string) => tr(`ratesOverTime.${kind}.${key}`);
          const rates = ratesOverTimeChartConfig(theme, intervals, {
            kind,
            labels: { x: tr("overTime.x"), y: words("y"), line: words("line") },
          });
          const drawn = drawnChart(report, kind === "throughput" ? "ops" : kind, index);
          expect(drawn.title).toBe(words("title"));
          expect(drawn.axisLabels).toEqual([tr("overTime.x"), words("y")]);
          const line = rates.data.datasets.find((dataset) => dataset.label === words("line"))!;
          expectSameLine(drawn, line);
        }
      },
    );
  },
);

describe("the app's mode comparison axes and the HTML comparison report's", () => {
  it.each([
    ["close tails (linear)", 0],
    ["a stall beside them (log)", 2],
  ])("%s: the tail's latency axis and the cost's", (_name, stallsPerPhase) => {
    const runs = (["normal", "hedged", "tied"] as const).map((mode, index) => {
      const run = syntheticRun({
        name: mode,
        mode,
        seed: index + 1,
        spec: { samples: [400] },
        stallsPerPhase,
      });
      run.summary.runId = `run-${mode}`;
      return run;
    });
    const page = renderComparisonReport(runs, { baselineIndex: 0, language: "en" });
    const figures = reportFigures(page);
    const summaries = runs.map((run) => run.summary);
    // The report's first mode charts are of the first compared row that is not the cleanup.
    const row = compareRuns(summaries, 0).rows.find((entry) => entry.op !== "DELETE")!;
    const entries = modeComparison(summaries, row);
    const categories = entries.map((entry) => entry.mode);
    const tail = figureOf(figures, "tail");
    const values = entries.flatMap((entry) => [entry.p50Ms, entry.p99Ms, entry.p999Ms]);
    const log = modeTailAxis(values).logScale;
    expect(tail.yScale).toBe(log ? "log" : "linear");
    expect(log).toBe(stallsPerPhase > 0);
    const tailConfig = barsConfig(
      theme,
      categories,
      (["p50", "p99", "p999"] as const).map((key) => ({
        label: key,
        values: entries.map((entry) => entry[`${key}Ms`]),
        color: () => "#000",
      })),
      { left: "ms", logLeft: log },
      String,
    ) as unknown as AnyConfig;
    // The mode charts are 360 px tall, their plot 270 px.
    expect(appTicks(tailConfig, "y", 270)).toEqual(tail.y);
    const costConfig = barsConfig(
      theme,
      categories,
      [{ label: "extra", values: entries.map((entry) => entry.extraPct), color: () => "#000" }],
      { left: "%" },
      String,
    ) as unknown as AnyConfig;
    expect(appTicks(costConfig, "y", 270)).toEqual(figureOf(figures, "cost").y);
  });
});
