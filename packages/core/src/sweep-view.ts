import type { Operation, RunPointParams, RunSummary } from "@taillab/api";
import { comparisonMetricValue, type ComparisonMetric } from "./run-comparison.ts";

/** The figures a sweep chart can draw: a few of the compared ones. */
export type SweepMetric = Extract<
  ComparisonMetric,
  "throughputMBps" | "opsPerSec" | "p50Ms" | "p90Ms" | "p99Ms" | "p999Ms" | "p9999Ms"
>;
export const SWEEP_METRICS: readonly SweepMetric[] = [
  "throughputMBps",
  "opsPerSec",
  "p50Ms",
  "p90Ms",
  "p99Ms",
  "p999Ms",
  "p9999Ms",
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
  /** Stable id, e.g. "PUT c8 n256", "GET n256 s32768", or "PUT c1" for a fixed-total sweep. */
  key: string;
  op: Operation;
  axis: SweepAxis;
  metric: SweepMetric;
  /**
   * The parameters held fixed along the line (clients and samples, or size and samples), less
   * those that move with the swept one: a fixed-total size sweep holds only its clients.
   */
  fixed: Partial<RunPointParams>;
  /** Bytes per point, when every point of the line moves the same total (samples × size). */
  totalBytes: number | null;
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
 * The operations worth a sweep line or a phase's charts, in the order the runs ran them: the
 * cleanup (DELETE) only when nothing else ran. The app's sweep and phase charts and the HTML
 * report's sweep charts all chart these.
 */
export function chartedOps(summaries: readonly RunSummary[]): Operation[] {
  const ops: Operation[] = [];
  for (const summary of summaries) {
    for (const point of summary.points) {
      for (const phase of point.phases) if (!ops.includes(phase.op)) ops.push(phase.op);
    }
  }
  return ops.length > 1 ? ops.filter((op) => op !== "DELETE") : ops;
}

/**
 * The charts the labs drew by hand from a sweep: each metric against object size (one line per
 * clients × samples) and against concurrency (one line per size × samples), per operation. A
 * parameter that moves with the swept one splits no lines: a size sweep at a fixed total (512 ×
 * 8 KiB … 2 × 2 MiB) is one line per operation. A line with a single point is still returned; a
 * chart draws it as a dot.
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

type PointParam = keyof RunPointParams;

const AXIS_PARAM: Record<SweepAxis, PointParam> = {
  objectSize: "objectSizeBytes",
  concurrency: "clients",
};
const KEY_LETTER: Record<PointParam, string> = { clients: "c", samples: "n", objectSizeBytes: "s" };

/**
 * Whether `param` moves with the swept parameter: it takes several values and each swept value
 * has one of them (512 × 8 KiB … 2 × 2 MiB). Such a parameter is part of the sweep, not a line of
 * its own; one that varies independently (clients × sizes) still splits lines.
 */
function movesWithAxis(
  points: readonly RunPointParams[],
  axisParam: PointParam,
  param: PointParam,
) {
  const valueAt = new Map<number, number>();
  for (const point of points) {
    const known = valueAt.get(point[axisParam]);
    if (known !== undefined && known !== point[param]) return false;
    valueAt.set(point[axisParam], point[param]);
  }
  return new Set(valueAt.values()).size > 1;
}

/** The total samples × size shared by every point of a line, or null when they differ. */
function sharedTotalBytes(points: readonly RunPointParams[]): number | null {
  const totals = new Set(points.map((point) => point.samples * point.objectSizeBytes));
  return totals.size === 1 ? [...totals][0]! : null;
}

function seriesFor(
  summary: RunSummary,
  ops: readonly Operation[],
  axis: SweepAxis,
  metric: SweepMetric,
): SweepSeries[] {
  const params = summary.points.map((point) => point.params);
  const axisParam = AXIS_PARAM[axis];
  // Key order as the labs write a point: clients, samples, size.
  const lineParams = (["clients", "samples", "objectSizeBytes"] as const).filter(
    (param) => param !== axisParam && !movesWithAxis(params, axisParam, param),
  );
  const series = new Map<string, { line: SweepSeries; params: RunPointParams[] }>();
  for (const op of ops) {
    summary.points.forEach((point, pointIndex) => {
      const phase = point.phases.find((candidate) => candidate.op === op);
      if (!phase) return;
      const y = comparisonMetricValue(phase, metric);
      if (y === null) return;
      const fixed: Partial<RunPointParams> = Object.fromEntries(
        lineParams.map((param) => [param, point.params[param]]),
      );
      const key = [
        op,
        ...lineParams.map((param) => `${KEY_LETTER[param]}${point.params[param]}`),
      ].join(" ");
      let entry = series.get(key);
      if (!entry) {
        entry = {
          line: { key, op, axis, metric, fixed, totalBytes: null, points: [] },
          params: [],
        };
        series.set(key, entry);
      }
      entry.params.push(point.params);
      entry.line.points.push({
        x: point.params[axisParam],
        y,
        pointIndex,
      });
    });
  }
  return [...series.values()].map(({ line, params: linePoints }) => {
    line.points.sort((a, b) => a.x - b.x);
    const samplesMove =
      !("samples" in line.fixed) && new Set(linePoints.map((p) => p.samples)).size > 1;
    return { ...line, totalBytes: samplesMove ? sharedTotalBytes(linePoints) : null };
  });
}
