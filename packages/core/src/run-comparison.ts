import type {
  Operation,
  PercentileInterval,
  PercentileName,
  PhaseSummary,
  RunPointParams,
  RunSummary,
} from "@taillab/api";
import { phaseLatencyFigureMs } from "./imported-phase.ts";
import { percentileDifferenceSignificant } from "./percentile-difference.ts";
import { MIN_REPETITIONS, repetitionDifferenceSignificant } from "./repetition-difference.ts";
import { pairWithBaseline, type RunPairing } from "./point-pairing.ts";

export type ComparisonMetric =
  | "p50Ms"
  | "p90Ms"
  | "p99Ms"
  | "p999Ms"
  | "p9999Ms"
  | "maxMs"
  | "ttfbP50Ms"
  | "ttfbP99Ms"
  | "throughputMBps"
  | "opsPerSec"
  | "errors"
  | "hedgeExtraPct"
  | "hedgeWastedBytes";

/** Every compared figure, in table order, with the direction that counts as an improvement. */
export const COMPARISON_METRICS: readonly {
  metric: ComparisonMetric;
  better: "lower" | "higher";
}[] = [
  { metric: "p50Ms", better: "lower" },
  { metric: "p90Ms", better: "lower" },
  { metric: "p99Ms", better: "lower" },
  { metric: "p999Ms", better: "lower" },
  { metric: "p9999Ms", better: "lower" },
  { metric: "maxMs", better: "lower" },
  { metric: "ttfbP50Ms", better: "lower" },
  { metric: "ttfbP99Ms", better: "lower" },
  { metric: "throughputMBps", better: "higher" },
  { metric: "opsPerSec", better: "higher" },
  { metric: "errors", better: "lower" },
  { metric: "hedgeExtraPct", better: "lower" },
  { metric: "hedgeWastedBytes", better: "lower" },
];

/**
 * A phase's figure; null for a latency figure of a phase with no successful request (or a run
 * recorded before the figure existed). A phase without a hedge summary sent no backups, so its
 * hedge cost is 0 (not unknown).
 */
export function comparisonMetricValue(
  phase: PhaseSummary,
  metric: ComparisonMetric,
): number | null {
  switch (metric) {
    case "p50Ms":
      return phaseLatencyFigureMs(phase, "p50");
    case "p90Ms":
      return phaseLatencyFigureMs(phase, "p90");
    case "p99Ms":
      return phaseLatencyFigureMs(phase, "p99");
    case "p999Ms":
      return phaseLatencyFigureMs(phase, "p999");
    case "p9999Ms":
      return phaseLatencyFigureMs(phase, "p9999");
    case "maxMs":
      return phaseLatencyFigureMs(phase, "max");
    case "ttfbP50Ms":
      return phase.ttfbMs?.p50 ?? null;
    case "ttfbP99Ms":
      return phase.ttfbMs?.p99 ?? null;
    case "throughputMBps":
      return phase.throughputMBps;
    case "opsPerSec":
      return phase.opsPerSec;
    case "errors":
      return phase.errors;
    case "hedgeExtraPct":
      return phase.hedge?.extraPct ?? 0;
    case "hedgeWastedBytes":
      return phase.hedge?.wastedBytes ?? 0;
  }
}

/** One run's figure beside the baseline's; null where the run or the baseline lacks the phase. */
export interface ComparisonCell {
  value: number | null;
  /** value − baseline value. */
  delta: number | null;
  /** delta as a % of the baseline value; null when the baseline value is 0. */
  deltaPct: number | null;
  /**
   * A latency percentile's difference from the baseline is beyond chance (`significanceBy` says
   * how); null for other figures, the baseline itself, and runs recorded without intervals.
   */
  significant: boolean | null;
  /**
   * repetitions: both points were repeated at least MIN_REPETITIONS times, and their
   * repetitions' figures were compared (REPETITION_DIFFERENCE_METHOD); intervals: the two
   * figures' 95 % intervals (PERCENTILE_DIFFERENCE_METHOD); null where nothing was judged.
   */
  significanceBy: "repetitions" | "intervals" | null;
}

/** The latency percentile behind a metric, for the ones whose difference can be judged. */
const METRIC_PERCENTILE: Partial<Record<ComparisonMetric, PercentileName>> = {
  p50Ms: "p50",
  p90Ms: "p90",
  p99Ms: "p99",
  p999Ms: "p999",
  p9999Ms: "p9999",
};

function metricInterval(
  phase: PhaseSummary | undefined,
  metric: ComparisonMetric,
): PercentileInterval | undefined {
  const percentile = METRIC_PERCENTILE[metric];
  return percentile ? phase?.latencyMs?.intervals?.byLevel[percentile] : undefined;
}

export interface ComparisonRow {
  /** The baseline's point (a run paired in order has its own at `pointIndexes`). */
  params: RunPointParams;
  op: Operation;
  /** Which point of each run the row came from (null: the run has no such point and phase). */
  pointIndexes: (number | null)[];
  /** One cell per run, in the order the runs were given. */
  cells: Record<ComparisonMetric, ComparisonCell[]>;
}

export interface RunComparison {
  baselineIndex: number;
  runIds: string[];
  /** One per run, in the order given: how its points were paired with the baseline's. */
  pairings: RunPairing[];
  rows: ComparisonRow[];
}

interface LocatedPhase {
  pointIndex: number;
  phase: PhaseSummary;
  params: RunPointParams;
  /** The same operation in each repetition of the point (none without --repeat). */
  repetitions: PhaseSummary[];
}

function alignmentKey(params: RunPointParams, op: Operation, occurrence: number): string {
  return `${params.clients}|${params.samples}|${params.objectSizeBytes}|${op}|${occurrence}`;
}

/** Each run's phases by (clients, samples, size, op), in run order; a repeat gets its own key. */
function phasesByKey(summary: RunSummary): Map<string, LocatedPhase> {
  const located = new Map<string, LocatedPhase>();
  const seen = new Map<string, number>();
  summary.points.forEach((point, pointIndex) => {
    for (const phase of point.phases) {
      const base = alignmentKey(point.params, phase.op, 0);
      const occurrence = seen.get(base) ?? 0;
      seen.set(base, occurrence + 1);
      located.set(alignmentKey(point.params, phase.op, occurrence), {
        pointIndex,
        phase,
        params: point.params,
        repetitions: (point.repetitions ?? []).flatMap((repetition) =>
          repetition.phases.filter((each) => each.op === phase.op),
        ),
      });
    }
  });
  return located;
}

/**
 * Compares runs against the one at `baselineIndex`, row by row: the baseline's points and phases
 * first in its own order, then any point and phase only other runs have. A run sharing at least one
 * point with the baseline is matched by (clients, samples, objectSizeBytes, op), not by position,
 * so runs with different sweeps line up where they overlap and show null where they do not. A run
 * sharing none is paired with the baseline point by point in order (see pairWithBaseline), and
 * `pairings` says so with what differs.
 */
export function compareRuns(summaries: readonly RunSummary[], baselineIndex = 0): RunComparison {
  if (summaries.length === 0) throw new RangeError("compareRuns: no runs to compare");
  if (!Number.isInteger(baselineIndex) || baselineIndex < 0 || baselineIndex >= summaries.length) {
    throw new RangeError(
      `compareRuns: baseline index ${baselineIndex} is not one of the ${summaries.length} runs (0–${summaries.length - 1})`,
    );
  }
  const { pairings, aligned } = pairWithBaseline(summaries, baselineIndex);
  const perRun = aligned.map(phasesByKey);
  const keys = new Set<string>();
  for (const index of [baselineIndex, ...summaries.keys()]) {
    for (const key of (perRun[index] as Map<string, LocatedPhase>).keys()) keys.add(key);
  }
  const rows = [...keys].map((key): ComparisonRow => {
    const located = perRun.map((phases) => phases.get(key) ?? null);
    const baseline = located[baselineIndex] ?? null;
    const any = located.find((entry) => entry !== null) as LocatedPhase;
    const cells = Object.fromEntries(
      COMPARISON_METRICS.map(({ metric }) => {
        const baseValue = baseline ? comparisonMetricValue(baseline.phase, metric) : null;
        return [
          metric,
          located.map((entry, index) => ({
            ...cell(entry ? comparisonMetricValue(entry.phase, metric) : null, baseValue),
            ...(index === baselineIndex
              ? { significant: null, significanceBy: null }
              : judgeDifference(baseline, entry, metric)),
          })),
        ];
      }),
    ) as Record<ComparisonMetric, ComparisonCell[]>;
    return {
      params: any.params,
      op: any.phase.op,
      pointIndexes: located.map((entry) => entry?.pointIndex ?? null),
      cells,
    };
  });
  return { baselineIndex, runIds: summaries.map((summary) => summary.runId), pairings, rows };
}

/** Both repeated enough: by their repetitions' spread; else by the figures' intervals. */
function judgeDifference(
  baseline: LocatedPhase | null,
  other: LocatedPhase | null,
  metric: ComparisonMetric,
): Pick<ComparisonCell, "significant" | "significanceBy"> {
  if (METRIC_PERCENTILE[metric] === undefined) return { significant: null, significanceBy: null };
  const repeated = (entry: LocatedPhase | null) =>
    (entry?.repetitions ?? []).flatMap((phase) => {
      const value = comparisonMetricValue(phase, metric);
      return value === null ? [] : [value];
    });
  const baseValues = repeated(baseline);
  const otherValues = repeated(other);
  if (baseValues.length >= MIN_REPETITIONS && otherValues.length >= MIN_REPETITIONS) {
    return {
      significant: repetitionDifferenceSignificant(baseValues, otherValues),
      significanceBy: "repetitions",
    };
  }
  const significant = percentileDifferenceSignificant(
    metricInterval(baseline?.phase, metric),
    metricInterval(other?.phase, metric),
  );
  return { significant, significanceBy: significant === null ? null : "intervals" };
}

function cell(
  value: number | null,
  baseline: number | null,
): Omit<ComparisonCell, "significant" | "significanceBy"> {
  if (value === null || baseline === null) return { value, delta: null, deltaPct: null };
  const delta = value - baseline;
  return { value, delta, deltaPct: baseline !== 0 ? (delta / baseline) * 100 : null };
}
