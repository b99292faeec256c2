import { PERCENTILE_LEVELS, type IntervalStats } from "@taillab/api";
import { restsOnFew } from "./percentile-interval.ts";

/** The percentiles each second keeps. */
export type IntervalPercentile = "p50" | "p99" | "p999";

/**
 * Where a chart draws a second's percentile interval, ms: an end the requests do not bound is
 * drawn at what is known of it, 0 below and the second's slowest request above (a tooltip or
 * table says it is open). Null where the second has no interval: no answer, or figures made
 * before intervals were kept.
 */
export function intervalPercentileBand(
  interval: IntervalStats,
  name: IntervalPercentile,
): { lowMs: number; highMs: number } | null {
  const bounds = interval.percentileIntervals?.[name];
  if (!bounds || interval.maxMs === null) return null;
  return { lowMs: bounds.lo ?? 0, highMs: bounds.hi ?? interval.maxMs };
}

/** The seconds whose `name` rests on fewer than FEW_REQUESTS_BEYOND slower requests. */
export function secondsRestingOnFew(
  intervals: readonly IntervalStats[],
  name: IntervalPercentile,
): number {
  return intervals.filter(
    (interval) => interval.requests > 0 && restsOnFew(interval.requests, PERCENTILE_LEVELS[name]),
  ).length;
}
