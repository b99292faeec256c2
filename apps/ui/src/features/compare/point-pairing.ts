import type { RunPointParams, RunSummary } from "@taillab/api";
import { compareRuns, type RunComparison } from "@taillab/core";

export type PointParam = keyof RunPointParams;

/** The parameters of a point, in the order a difference is told. */
export const POINT_PARAMS: readonly PointParam[] = ["clients", "samples", "objectSizeBytes"];

/**
 * How a run's points meet the baseline's: the baseline itself; the same points (same clients,
 * samples and size, as core matches them); or, sharing none, paired in order.
 */
export type Pairing = "baseline" | "same-points" | "in-order";

export interface PairedComparison {
  comparison: RunComparison;
  /** One per run, in the order given. */
  pairings: Pairing[];
}

const pointKey = ({ clients, samples, objectSizeBytes }: RunPointParams) =>
  `${clients}|${samples}|${objectSizeBytes}`;

/** The parameters in which two points differ, in POINT_PARAMS order. */
export function differingParams(a: RunPointParams, b: RunPointParams): PointParam[] {
  return POINT_PARAMS.filter((param) => a[param] !== b[param]);
}

/**
 * Core's comparison, with runs that share no point with the baseline paired in order. Runs that
 * differ in one parameter (the same workload at 2 and at 8 clients) are the commonest comparison
 * in a lab, yet core matches points by identical parameters and would show them side by side with
 * nothing in common. Such a run's i-th point is compared with the baseline's i-th (each run's only
 * point, for single-point runs) by giving it the baseline's parameters for core's matching; its
 * point indexes are unchanged, so its own parameters stay at hand for saying what differs. A run
 * with at least one point in common keeps core's exact matching.
 */
export function comparePairedRuns(
  summaries: readonly RunSummary[],
  baselineIndex: number,
): PairedComparison {
  const baseline = summaries[baselineIndex];
  const baselineKeys = new Set(baseline?.points.map((point) => pointKey(point.params)));
  const pairings = summaries.map((summary, index): Pairing => {
    if (index === baselineIndex) return "baseline";
    const shares = summary.points.some((point) => baselineKeys.has(pointKey(point.params)));
    return shares || !baseline || baseline.points.length === 0 ? "same-points" : "in-order";
  });
  const aligned = summaries.map((summary, index): RunSummary => {
    if (pairings[index] !== "in-order" || !baseline) return summary;
    return {
      ...summary,
      points: summary.points.map((point, pointIndex) => {
        const partner = baseline.points[pointIndex];
        return partner ? { ...point, params: partner.params } : point;
      }),
    };
  });
  return { comparison: compareRuns(aligned, baselineIndex), pairings };
}
