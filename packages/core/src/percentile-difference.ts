import type { PercentileInterval } from "@taillab/api";

/**
 * Whether a percentile differs between two runs beyond what chance explains. Each run's figure
 * carries its 95 % order-statistic interval; the difference counts when the intervals do not
 * overlap. That is conservative (two independent 95 % intervals that miss each other put chance
 * below about 0.6 %), needs no assumption about the latency distribution, and is what a reader
 * can check by eye against the two intervals shown.
 */
export const PERCENTILE_DIFFERENCE_METHOD =
  "the two figures' 95 % order-statistic intervals do not overlap";

/** true: significant; false: within chance; null: a figure has no interval (an older run). */
export function percentileDifferenceSignificant(
  baseline: PercentileInterval | undefined,
  other: PercentileInterval | undefined,
): boolean | null {
  if (!baseline || !other) return null;
  // An end the requests do not bound is unbounded: 0 below, ∞ above.
  const below = (interval: PercentileInterval) => interval.lo ?? 0;
  const above = (interval: PercentileInterval) => interval.hi ?? Number.POSITIVE_INFINITY;
  return above(other) < below(baseline) || below(other) > above(baseline);
}
