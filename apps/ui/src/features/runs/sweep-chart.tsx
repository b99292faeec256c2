import type { Operation } from "@taillab/api";
import type { SweepAxis, SweepMetric } from "@taillab/core";
import {
  colorOf,
  familyShade,
  formatFixed,
  formatInteger,
  formatMs,
  formatSize,
  formatTick,
  lineMarksOf,
  runLineColors,
  type PercentileKey,
  type PointShape,
  wantsLogAxis,
} from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import type { TFunction } from "i18next";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { axis, legendAndTooltip } from "../../shared/chart-options.ts";
import { borderDashOf, seriesColor, type ChartTheme } from "../../shared/chart-theme.ts";
import { PercentileChooser } from "../../shared/percentile-chooser.tsx";
import {
  sweepAxisValues,
  sweepChartLines,
  type SweepChartLine,
  type SweepRun,
} from "./sweep-chart-data.ts";

/** The percentiles a sweep chart can draw, as sweep metrics. */
const PERCENTILE_METRICS: Record<PercentileKey, SweepMetric> = {
  p50: "p50Ms",
  p90: "p90Ms",
  p99: "p99Ms",
  p999: "p999Ms",
  p9999: "p9999Ms",
};
const PERCENTILE_KEYS = Object.keys(PERCENTILE_METRICS) as PercentileKey[];
const percentileOf = (metric: SweepMetric) =>
  PERCENTILE_KEYS.find((key) => PERCENTILE_METRICS[key] === metric);

/** Dash patterns in order, and their names for the key under a chart. */
const DASHES: readonly { pattern: number[]; name: string }[] = [
  { pattern: [], name: "solid" },
  { pattern: [8, 5], name: "dashed" },
  { pattern: [2, 4], name: "dotted" },
  { pattern: [10, 4, 2, 4], name: "dashDot" },
  { pattern: [16, 6], name: "long" },
];
const OP_ORDER: readonly Operation[] = ["PUT", "GET", "DELETE"];

/**
 * How the lines of a chart are told apart. Several runs: a hue per run (its mode's when the runs
 * are one per mode), its marker and one legend entry each, each percentile (or operation) a
 * shade of it and a dash; with one percentile and operation, the run's own dash. One run with
 * several groups of points: a hue per group, shaded and dashed the same way. One group: a colour
 * per percentile, the percentiles' own.
 */
interface LineStyle {
  color: (theme: ChartTheme) => string;
  dash: number[];
  point: PointShape;
  label: string;
  /** Legend entries of one group toggle together; only the first of a group is listed. */
  group: number;
}

interface StyleContext {
  lines: readonly SweepChartLine[];
  runs: readonly SweepRun[];
  metrics: readonly SweepMetric[];
  oneOp: boolean;
  t: TFunction<"runs">;
}

function fixedText(line: SweepChartLine, t: TFunction<"runs">): string {
  const { clients, samples, objectSizeBytes } = line.fixed;
  const count = (key: "clients" | "samples", value: number) =>
    t(`charts.fixed.${key}`, { count: value, value: formatInteger(value) });
  return [
    objectSizeBytes === undefined ? null : formatSize(objectSizeBytes),
    clients === undefined ? null : count("clients", clients),
    samples === undefined ? null : count("samples", samples),
    line.totalBytes === null
      ? null
      : t("charts.fixed.perPoint", { size: formatSize(line.totalBytes) }),
  ]
    .filter(Boolean)
    .join(" · ");
}

/** What tells lines apart by dash: the metric when there are several, else the operation. */
function dashKeyOf(context: StyleContext): "metric" | "op" {
  return context.metrics.length > 1 ? "metric" : "op";
}

function dashOf(line: SweepChartLine, context: StyleContext): number {
  return dashKeyOf(context) === "metric"
    ? context.metrics.indexOf(line.metric)
    : OP_ORDER.indexOf(line.op);
}

/** The dashes the chart's lines use, in order: a line's shade is its dash's place among them. */
function dashesPresent(context: StyleContext): number[] {
  return [...new Set(context.lines.map((line) => dashOf(line, context)))].sort((a, b) => a - b);
}

export function lineStyles(context: StyleContext): LineStyle[] {
  const { lines, runs, metrics, oneOp, t } = context;
  const metricName = (line: SweepChartLine) => t(`charts.metrics.${line.metric}`);
  const dash = (line: SweepChartLine) => DASHES[dashOf(line, context) % DASHES.length]!.pattern;
  const present = dashesPresent(context);
  const shaded = (theme: ChartTheme, base: string, line: SweepChartLine) =>
    familyShade(theme.palette, base, present.indexOf(dashOf(line, context)), present.length);
  if (runs.length > 1) {
    const colors = runLineColors(runs.map((run) => run.summary.mode));
    return lines.map((line) => {
      const runColor = colors[line.runIndex] ?? { series: 0 };
      const marks = lineMarksOf(runColor);
      return {
        color: (theme) => shaded(theme, colorOf(theme.palette, runColor), line),
        dash: present.length > 1 ? dash(line) : borderDashOf(marks.dash),
        point: marks.point,
        label: line.runLabel,
        group: line.runIndex,
      };
    });
  }
  const groups = new Set(lines.map((line) => line.group)).size;
  return lines.map((line, index) => {
    const parts = [metrics.length > 1 ? metricName(line) : null, oneOp ? null : line.op];
    const percentile = percentileOf(line.metric);
    if (groups === 1 && percentile) {
      return {
        color: (theme) => theme.palette.percentiles[percentile],
        dash: [],
        point: "circle",
        label: [metricName(line), oneOp ? null : line.op].filter(Boolean).join(" · "),
        group: index,
      };
    }
    return {
      color: (theme) => shaded(theme, seriesColor(theme, line.group), line),
      dash: dash(line),
      point: "circle",
      label: [...parts, fixedText(line, t)].filter(Boolean).join(" · "),
      group: index,
    };
  });
}

/** The key to the dashes, under a chart whose legend lists runs: "solid: p50 · dashed: p99". */
function dashKey(context: StyleContext): string | null {
  if (context.runs.length <= 1) return null;
  const { t } = context;
  const present = dashesPresent(context);
  if (present.length <= 1) return null;
  const what = (index: number) =>
    dashKeyOf(context) === "metric"
      ? t(`charts.metrics.${context.metrics[index]}`)
      : (OP_ORDER[index] ?? "");
  return present
    .map((index) =>
      t("charts.dashKey", {
        what: what(index),
        style: t(`charts.dashes.${DASHES[index % DASHES.length]!.name}`),
      }),
    )
    .join(" · ");
}

/**
 * The chart's configuration. "Log scale" puts both axes on a log scale: concurrency from 1 to 50
 * on a linear axis crowds 1, 2 and 5 into one label; object sizes are always on one.
 */
export function sweepConfig(
  theme: ChartTheme,
  lines: readonly SweepChartLine[],
  styles: readonly LineStyle[],
  options: { axis: SweepAxis; latency: boolean; log: boolean; xValues: number[]; title: string },
  t: TFunction<"runs">,
): ChartConfiguration<"line"> {
  const format = (value: number) =>
    options.latency ? `${formatMs(value)} ms` : formatFixed(value, value >= 100 ? 0 : 2);
  const firstOfGroup = (index: number) =>
    styles.findIndex((style) => style.group === styles[index]?.group) === index;
  return {
    type: "line",
    data: {
      datasets: lines.map((line, index) => {
        const style = styles[index]!;
        const color = style.color(theme);
        return {
          label: style.label,
          data: line.points.map((point) => ({ x: point.x, y: point.y })),
          borderColor: color,
          backgroundColor: color,
          borderWidth: theme.lineWidth,
          pointRadius: theme.lineWidth + 1.5,
          borderDash: style.dash,
          pointStyle: style.point,
        };
      }),
    },
    options: {
      parsing: false,
      interaction: { mode: "nearest", intersect: false },
      scales: {
        x:
          options.axis === "objectSize"
            ? axis(theme, {
                type: "logarithmic",
                title: t("charts.objectSize"),
                tickValues: options.xValues,
                tickLabel: formatSize,
              })
            : axis(theme, {
                type: options.log ? "logarithmic" : "linear",
                title: t("charts.concurrency"),
                tickValues: options.xValues,
                tickLabel: (value) => String(value),
              }),
        y: axis(theme, {
          type: options.log ? "logarithmic" : "linear",
          beginAtZero: !options.log,
          title: options.title,
          tickLabel: formatTick,
        }),
      },
      plugins: legendAndTooltip(theme, {
        // Several runs' legend shows each run's marker: their dashes may say the percentile.
        ...(new Set(lines.map((line) => line.runIndex)).size > 1 ? { swatches: "point" } : {}),
        inLegend: firstOfGroup,
        toggleTogether: (index) => styles[index]?.group ?? index,
        tooltipLabel: (label, value, index) => {
          const line = lines[index];
          const what = line ? [label, t(`charts.metrics.${line.metric}`), line.op] : [label];
          return `${[...new Set(what)].join(" · ")}: ${format(value)}`;
        },
      }),
    },
  };
}

/**
 * One sweep chart: metrics against object size or against concurrency, one line per run,
 * operation and combination of the other parameters (the labs' "clients-samples-size" lines).
 * A latency chart lets the user choose its percentiles; every one, a linear or log axis.
 */
export function SweepChart({
  runs,
  axis: sweepAxis,
  metrics: initialMetrics,
  op,
  title,
  testId,
}: {
  runs: readonly SweepRun[];
  axis: SweepAxis;
  metrics: readonly SweepMetric[];
  /** Only this operation's lines (a latency chart per operation). */
  op?: Operation;
  title: string;
  testId: string;
}) {
  const { t } = useTranslation("runs");
  const latency = initialMetrics.every((metric) => percentileOf(metric) !== undefined);
  const [chosen, setChosen] = useState<PercentileKey[]>(() =>
    initialMetrics.flatMap((metric) => percentileOf(metric) ?? []),
  );
  const metrics = useMemo(
    () => (latency ? chosen.map((key) => PERCENTILE_METRICS[key]) : initialMetrics),
    [latency, chosen, initialMetrics],
  );
  const lines = useMemo(
    () => sweepChartLines(runs, sweepAxis, metrics, op),
    [runs, sweepAxis, metrics, op],
  );
  const xValues = useMemo(() => sweepAxisValues(runs, sweepAxis), [runs, sweepAxis]);
  const context: StyleContext = { lines, runs, metrics, oneOp: op !== undefined, t };
  const styles = lineStyles(context);
  const key = dashKey(context);
  const yTitle = latency ? t("charts.latencyMs") : t(`charts.metrics.${metrics[0]}`);
  return (
    <figure className="card chart-card">
      <figcaption>
        <h3>{title}</h3>
        {key ? (
          <p className="muted" data-testid={`${testId}-dashes`}>
            {key}
          </p>
        ) : null}
      </figcaption>
      <ChartCanvas
        testId={testId}
        label={title}
        deps={[lines, styles.map((style) => style.label).join(), xValues, t]}
        // Throughput and ops across object sizes span decades too: every sweep chart may be log.
        logScale={wantsLogAxis(lines.flatMap((line) => line.points.map((p) => p.y)))}
        tools={
          latency ? (
            <PercentileChooser
              offered={PERCENTILE_KEYS}
              chosen={chosen}
              onChange={setChosen}
              testId={`${testId}-percentile`}
              // The chips wear the percentiles' colours where the lines do: one run, one group.
              colored={runs.length === 1 && new Set(lines.map((line) => line.group)).size === 1}
            />
          ) : null
        }
        build={(theme, view) =>
          sweepConfig(
            theme,
            lines,
            styles,
            { axis: sweepAxis, latency, log: view.log, xValues, title: yTitle },
            t,
          )
        }
        attributes={{
          "data-lines": lines.length,
          "data-axis": sweepAxis,
          "data-legend": new Set(styles.map((style) => style.group)).size,
        }}
      />
    </figure>
  );
}
