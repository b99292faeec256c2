import hdr from "hdr-histogram-js";
import { decodeHistogram, type LatencyHistogram } from "./latency-histogram.ts";

/**
 * One recorded value range of an HDR histogram. Every value in [lowUs, highUs] was counted as the
 * same value; valueUs is the middle of that range, highUs is what HDR percentile queries report.
 */
export interface HistogramBucket {
  lowUs: number;
  highUs: number;
  valueUs: number;
  count: number;
}

/**
 * The non-empty buckets of a histogram, lowest first: the (value, count) pairs that fits, bins
 * and CDFs are computed from, so a run's stored histograms stand in for its raw latencies.
 */
export function recordedBuckets(histogram: LatencyHistogram): HistogramBucket[] {
  if (!(histogram instanceof hdr.JsHistogram)) {
    throw new TypeError(
      "recordedBuckets: expected a JavaScript HDR histogram (from createLatencyHistogram or decodeHistogram), not a WebAssembly one",
    );
  }
  const buckets: HistogramBucket[] = [];
  const iterator = histogram.recordedValuesIterator;
  iterator.reset();
  while (iterator.hasNext()) {
    const step = iterator.next();
    const highUs = step.valueIteratedTo;
    buckets.push({
      lowUs: histogram.lowestEquivalentValue(highUs),
      highUs,
      valueUs: histogram.medianEquivalentValue(highUs),
      count: step.countAtValueIteratedTo,
    });
  }
  return buckets;
}

/** The buckets of an encoded histogram (as stored in PhaseHistograms). */
export function decodeRecordedBuckets(encoded: string): HistogramBucket[] {
  const histogram = decodeHistogram(encoded);
  try {
    return recordedBuckets(histogram);
  } finally {
    histogram.destroy();
  }
}
