import type { Operation, PhaseHistograms } from "@taillab/api";
import {
  decodeRecordedBuckets,
  fitLatencyModels,
  histogramViewFromBuckets,
  weightedLatenciesFromHistogramBuckets,
  type HistogramView,
  type LatencyModelFits,
} from "@taillab/core";

/** What one phase's stored latency histogram gives the histogram and CDF charts. */
export interface PhaseAnalysis {
  view: HistogramView;
  fits: LatencyModelFits;
}

export function findHistograms(
  histograms: readonly PhaseHistograms[],
  pointIndex: number,
  op: Operation,
): PhaseHistograms | null {
  return histograms.find((entry) => entry.pointIndex === pointIndex && entry.op === op) ?? null;
}

/** Decodes the histogram once for both charts; null when it holds no latencies. */
export function analyseHistogram(encoded: string): PhaseAnalysis | null {
  const buckets = decodeRecordedBuckets(encoded);
  if (buckets.length === 0) return null;
  return {
    view: histogramViewFromBuckets(buckets),
    fits: fitLatencyModels(weightedLatenciesFromHistogramBuckets(buckets)),
  };
}
