import {
  decodeRecordedBuckets,
  fitLatencyModels,
  histogramViewFromBuckets,
  weightedLatenciesFromHistogramBuckets,
  type HistogramView,
  type LatencyModelFits,
} from "@taillab/core";

/** What one phase's stored latency histogram gives its histogram and CDF charts. */
export interface HistogramAnalysis {
  view: HistogramView;
  fits: LatencyModelFits;
}

/**
 * The histogram decoded once for the app's charts and the report's alike; null when it holds no
 * latencies.
 */
export function analyseHistogram(encoded: string): HistogramAnalysis | null {
  const buckets = decodeRecordedBuckets(encoded);
  if (buckets.length === 0) return null;
  return {
    view: histogramViewFromBuckets(buckets),
    fits: fitLatencyModels(weightedLatenciesFromHistogramBuckets(buckets)),
  };
}
