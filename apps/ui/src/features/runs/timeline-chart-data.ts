import type { LatencyStats } from "@taillab/api";
import { DEFAULT_SERIES_BUCKETS, mergeDecimatedBuckets, type DecimatedBucket } from "@taillab/core";
import { wantsLogAxis } from "@taillab/report";

/** Latency against request index as the chart draws it (shared/chart-timeline.ts). */
export interface TimelineData {
  columns: DecimatedBucket[];
  requests: number;
  logScale: boolean;
  p99Ms: number;
}

/**
 * At most this many columns are drawn: a stored series already has about that many, and a bigger
 * one (a caller's finer buckets) is folded further, so drawing time stays flat for any run size.
 */
export const TIMELINE_MAX_COLUMNS = DEFAULT_SERIES_BUCKETS;

export function timelineChartData(
  buckets: readonly DecimatedBucket[],
  stats: LatencyStats,
): TimelineData {
  const columns = mergeDecimatedBuckets(buckets, TIMELINE_MAX_COLUMNS);
  return {
    columns,
    requests: columns.reduce((sum, bucket) => sum + bucket.lastIndex - bucket.firstIndex + 1, 0),
    logScale: wantsLogAxis([stats.p50, stats.max]),
    p99Ms: stats.p99,
  };
}
