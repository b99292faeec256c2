import type { PointSummary } from "@taillab/api";

/**
 * Points of a run that measured at least one request (answered or failed): a run stopped before
 * its first request ran none, one stopped in its fourth point ran four (three of them finished).
 */
export function pointsRan(points: readonly PointSummary[]): number {
  return points.filter((point) => point.phases.some((phase) => phase.requests + phase.errors > 0))
    .length;
}
