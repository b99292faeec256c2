import type { Operation, RunPointParams, RunSummary } from "@taillab/api";
import { comparisonMetricValue, type ComparisonMetric } from "./run-comparison.ts";

/** The figures a sweep chart can draw: a few of the compared ones. */
export type SweepMetric = Extract<
  ComparisonMetric,
  "throughputMBps" | "opsPerSec" | "p50Ms" | "p99Ms" | "p999Ms"
>;
export const SWEEP_METRICS: readonly SweepMetric[] = [
  "throughputMBps",
  "opsPerSec",
  "p50Ms",
  "p99Ms",
  "p999Ms",
];

export type SweepAxis = "objectSize" | "concurrency";

export interface SweepPoint {
  /** Object size in bytes, or clients. */
  x: number;
  y: number;
  pointIndex: number;
}

/** One line of a sweep chart: the points that share everything but the swept parameter. */
export interface SweepSeries {
  /** Stable id, e.g. "PUT c8 n256" or "GET n256 s32768". */
  key: string;
  op: Operation;
  axis: SweepAxis;
  metric: SweepMetric;
  /** The parameters held fixed along the line (clients and samples, or size and samples). */
  fixed: Partial<RunPointParams>;
  points: SweepPoint[];
}

export interface SweepView {
  /** Distinct object sizes and client counts, ascending. */
  objectSizes: number[];
  concurrencies: number[];
  ops: Operation[];
  bySize: Record<SweepMetric, SweepSeries[]>;
  byConcurrency: Record<SweepMetric, SweepSeries[]>;
}

/**
 * The charts the labs drew by hand from a sweep: each metric against object size (one line per
 * clients × samples) and against concurrency (one line per size × samples), per operation. A line
 * with a single point is still returned; a chart draws it as a dot.
 */
export function sweepView(
  summary: RunSummary,
  options: { ops?: readonly Operation[] } = {},
): SweepView {
  const wanted = options.ops;
  const ops: Operation[] = [];
  for (const point of summary.points) {
    for (const phase of point.phases) {
      if (!ops.includes(phase.op) && (!wanted || wanted.includes(phase.op))) ops.push(phase.op);
    }
  }
  const ascending = (values: Iterable<number>) => [...new Set(values)].sort((a, b) => a - b);
  const build = (axis: SweepAxis) =>
    Object.fromEntries(
      SWEEP_METRICS.map((metric) => [metric, seriesFor(summary, ops, axis, metric)]),
    ) as Record<SweepMetric, SweepSeries[]>;
  return {
    objectSizes: ascending(summary.points.map((point) => point.params.objectSizeBytes)),
    concurrencies: ascending(summary.points.map((point) => point.params.clients)),
    ops,
    bySize: build("objectSize"),
    byConcurrency: build("concurrency"),
  };
}

function seriesFor(
  summary: RunSummary,
  ops: readonly Operation[],
  axis: SweepAxis,
  metric: SweepMetric,
): SweepSeries[] {
  const series = new Map<string, SweepSeries>();
  for (const op of ops) {
    summary.points.forEach((point, pointIndex) => {
      const phase = point.phases.find((candidate) => candidate.op === op);
      if (!phase) return;
      const y = comparisonMetricValue(phase, metric);
      if (y === null) return;
      const { clients, samples, objectSizeBytes } = point.params;
      const fixed: Partial<RunPointParams> =
        axis === "objectSize" ? { clients, samples } : { objectSizeBytes, samples };
      const key =
        axis === "objectSize"
          ? `${op} c${clients} n${samples}`
          : `${op} n${samples} s${objectSizeBytes}`;
      let line = series.get(key);
      if (!line) {
        line = { key, op, axis, metric, fixed, points: [] };
        series.set(key, line);
      }
      line.points.push({
        x: axis === "objectSize" ? objectSizeBytes : clients,
        y,
        pointIndex,
      });
    });
  }
  for (const line of series.values()) line.points.sort((a, b) => a.x - b.x);
  return [...series.values()];
}
