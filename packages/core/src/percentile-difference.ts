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

/**
 * The change from baseline to other (%) that both intervals allow: from the other's low end
 * against the baseline's high end to the other's high end against the baseline's low end. An end
 * is null where an interval is open (or starts at 0) and so bounds nothing.
 */
export function percentileChangeRangePct(
  baseline: PercentileInterval,
  other: PercentileInterval,
): { lo: number | null; hi: number | null } {
  const change = (to: number | null, from: number | null) =>
    to === null || from === null || from === 0 ? null : (to / from - 1) * 100;
  return { lo: change(other.lo, baseline.hi), hi: change(other.hi, baseline.lo) };
}
