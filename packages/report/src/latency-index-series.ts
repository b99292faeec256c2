import type { LatencyStats } from "@taillab/api";
import { DEFAULT_SERIES_BUCKETS, mergeDecimatedBuckets, type DecimatedBucket } from "@taillab/core";
import { wantsLogAxis } from "./chart-ticks.ts";

/**
 * Latency against request index as the app's timeline (Chart.js) and the report's chart (SVG)
 * draw it: the columns, the requests they hold, log or linear latency.
 */
export interface LatencyIndexSeries {
  columns: DecimatedBucket[];
  requests: number;
  logScale: boolean;
  p99Ms: number;
}

/**
 * At most this many columns are drawn: a stored series already has about that many, and a bigger
 * one (a caller's finer buckets) is folded further, so drawing time and a report's size stay
 * flat for any run size.
 */
export const LATENCY_INDEX_MAX_COLUMNS = DEFAULT_SERIES_BUCKETS;

export function latencyIndexSeries(
  buckets: readonly DecimatedBucket[],
  stats: LatencyStats,
): LatencyIndexSeries {
  const columns = mergeDecimatedBuckets(buckets, LATENCY_INDEX_MAX_COLUMNS);
  return {
    columns,
    requests: columns.reduce((sum, bucket) => sum + bucket.lastIndex - bucket.firstIndex + 1, 0),
    logScale: wantsLogAxis([stats.p50, stats.max]),
    p99Ms: stats.p99,
  };
}

/** Where a column is drawn: the middle of its requests. */
export function columnMiddle(column: Pick<DecimatedBucket, "firstIndex" | "lastIndex">): number {
  return (column.firstIndex + column.lastIndex) / 2;
}
