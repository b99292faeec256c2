import type { Operation } from "@taillab/api";
import type { SweepAxis, SweepMetric } from "@taillab/core";
import { formatFixed, formatInteger, formatMs, formatSize, formatTick } from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { axis, legendAndTooltip } from "../../shared/chart-options.ts";
import { seriesColor, type ChartTheme } from "../../shared/chart-theme.ts";
import { wantsLogAxis } from "./log-axis.ts";
import {
  sweepAxisValues,
  sweepChartLines,
  type SweepChartLine,
  type SweepRun,
} from "./sweep-chart-data.ts";

const LATENCY_METRICS: readonly SweepMetric[] = ["p50Ms", "p99Ms", "p999Ms"];
/** Percentiles differ by dash, as in the report: p50 solid, p99 dashed, p99.9 dotted. */
const METRIC_DASH: Partial<Record<SweepMetric, number[]>> = { p99Ms: [8, 5], p999Ms: [2, 4] };
/** With one percentile, reads and writes differ by dash instead. */
const OP_DASH: Partial<Record<Operation, number[]>> = { GET: [8, 5], DELETE: [2, 4] };

function lineLabel(
  line: SweepChartLine,
  runs: number,
  metrics: number,
  withOp: boolean,
  t: TFunction<"runs">,
) {
  const { clients, samples, objectSizeBytes } = line.fixed;
  const count = (key: "clients" | "samples", value: number) =>
    t(`charts.fixed.${key}`, { count: value, value: formatInteger(value) });
  return [
    runs > 1 ? line.runLabel : null,
    metrics > 1 ? t(`charts.metrics.${line.metric}`) : null,
    withOp ? line.op : null,
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

function sweepConfig(
  theme: ChartTheme,
  lines: readonly SweepChartLine[],
  options: {
    axis: SweepAxis;
    metrics: readonly SweepMetric[];
    xValues: number[];
    runs: number;
    /** One operation per chart: it is in the title, not in every line's label. */
    oneOp: boolean;
  },
  t: TFunction<"runs">,
): ChartConfiguration<"line"> {
  const latency = options.metrics.every((metric) => LATENCY_METRICS.includes(metric));
  const logY = latency && wantsLogAxis(lines.flatMap((line) => line.points.map((p) => p.y)));
  const format = (value: number) =>
    latency ? `${formatMs(value)} ms` : formatFixed(value, value >= 100 ? 0 : 2);
  return {
    type: "line",
    data: {
      datasets: lines.map((line) => {
        const color = seriesColor(theme, options.runs > 1 ? line.runIndex : line.group);
        return {
          label: lineLabel(line, options.runs, options.metrics.length, !options.oneOp, t),
          data: line.points.map((point) => ({ x: point.x, y: point.y })),
          borderColor: color,
          backgroundColor: color,
          borderWidth: theme.lineWidth,
          pointRadius: theme.lineWidth + 1.5,
          borderDash: options.metrics.length > 1 ? METRIC_DASH[line.metric] : OP_DASH[line.op],
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
                type: "linear",
                title: t("charts.concurrency"),
                tickValues: options.xValues,
                tickLabel: (value) => String(value),
              }),
        y: axis(theme, {
          type: logY ? "logarithmic" : "linear",
          beginAtZero: !logY,
          title: latency ? t("charts.latencyMs") : t(`charts.metrics.${options.metrics[0]}`),
          tickLabel: formatTick,
        }),
      },
      plugins: legendAndTooltip(theme, {
        tooltipLabel: (label, value) => `${label}: ${format(value)}`,
      }),
    },
  };
}

/**
 * One sweep chart: metrics against object size or against concurrency, one line per run,
 * operation and combination of the other parameters (the labs' "clients-samples-size" lines).
 */
export function SweepChart({
  runs,
  axis: sweepAxis,
  metrics,
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
  const lines = useMemo(
    () => sweepChartLines(runs, sweepAxis, metrics, op),
    [runs, sweepAxis, metrics, op],
  );
  const xValues = useMemo(() => sweepAxisValues(runs, sweepAxis), [runs, sweepAxis]);
  return (
    <figure className="card chart-card">
      <figcaption>
        <h3>{title}</h3>
      </figcaption>
      <ChartCanvas
        testId={testId}
        label={title}
        deps={[lines, xValues, t]}
        build={(theme) =>
          sweepConfig(
            theme,
            lines,
            { axis: sweepAxis, metrics, xValues, runs: runs.length, oneOp: op !== undefined },
            t,
          )
        }
        attributes={{ "data-lines": lines.length, "data-axis": sweepAxis }}
      />
    </figure>
  );
}
