import type { Operation, RunPointParams, RunSummary } from "@taillab/api";
import { chartedOps, sweepView, type SweepAxis, type SweepMetric } from "@taillab/core";

export interface SweepRun {
  label: string;
  summary: RunSummary;
}

export interface SweepChartLine {
  key: string;
  runIndex: number;
  runLabel: string;
  op: Operation;
  metric: SweepMetric;
  /** What stays fixed along the line (clients and samples, or size and samples). */
  fixed: Partial<RunPointParams>;
  /** Bytes per point, when the line moves the same total at every point (core's SweepSeries). */
  totalBytes: number | null;
  /** Lines of the same fixed parameters share a group (and, in one run, a colour). */
  group: number;
  points: { x: number; y: number; pointIndex: number }[];
}

/** The axes a chart makes sense along: a parameter that takes several values in some run. */
export function sweepAxes(runs: readonly SweepRun[]): SweepAxis[] {
  const views = runs.map((run) => sweepView(run.summary));
  const axes: SweepAxis[] = [];
  if (views.some((view) => view.objectSizes.length > 1)) axes.push("objectSize");
  if (views.some((view) => view.concurrencies.length > 1)) axes.push("concurrency");
  return axes;
}

/** Every x value some run has along the axis, ascending: the chart's ticks. */
export function sweepAxisValues(runs: readonly SweepRun[], axis: SweepAxis): number[] {
  const values = runs.flatMap((run) => {
    const view = sweepView(run.summary);
    return axis === "objectSize" ? view.objectSizes : view.concurrencies;
  });
  return [...new Set(values)].sort((a, b) => a - b);
}

/**
 * The lines of one sweep chart: for each run, metric and charted operation (or only `only`),
 * core's sweep series along the axis (one per combination of the other parameters).
 */
export function sweepChartLines(
  runs: readonly SweepRun[],
  axis: SweepAxis,
  metrics: readonly SweepMetric[],
  only?: Operation,
): SweepChartLine[] {
  const charted = chartedOps(runs.map((run) => run.summary));
  const ops = only ? charted.filter((op) => op === only) : charted;
  const groups: string[] = [];
  return runs.flatMap((run, runIndex) => {
    const view = sweepView(run.summary, { ops });
    const byAxis = axis === "objectSize" ? view.bySize : view.byConcurrency;
    return metrics.flatMap((metric) =>
      byAxis[metric].map((series): SweepChartLine => {
        const groupKey = series.key.slice(series.op.length + 1);
        if (!groups.includes(groupKey)) groups.push(groupKey);
        return {
          key: `${runIndex} ${metric} ${series.key}`,
          runIndex,
          runLabel: run.label,
          op: series.op,
          metric,
          fixed: series.fixed,
          totalBytes: series.totalBytes,
          group: groups.indexOf(groupKey),
          points: series.points,
        };
      }),
    );
  });
}
