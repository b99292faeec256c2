import type { LatencyStats } from "@taillab/api";
import { decodeRecordedBuckets, type HistogramBucket } from "./histogram-buckets.ts";
import { decodeHistogram } from "./latency-histogram.ts";

/** One bar of a latency histogram chart: requests with a latency in [lowMs, highMs). */
export interface HistogramBin {
  lowMs: number;
  highMs: number;
  count: number;
}

/** The fraction of requests with a latency at or below valueMs. */
export interface CdfPoint {
  valueMs: number;
  fraction: number;
}

export type BinScale = "log" | "linear";

export interface HistogramViewOptions {
  /** log (default): equal ratios per bin, so a 1 ms body and a 1 s stall both get bars. */
  binScale?: BinScale;
  binCount?: number;
  /** At most this many CDF points (plus the first and last); default 300. */
  maxCdfPoints?: number;
}

export interface HistogramView {
  totalCount: number;
  minMs: number;
  maxMs: number;
  binScale: BinScale;
  bins: HistogramBin[];
  cdf: CdfPoint[];
}

export const DEFAULT_BIN_COUNT = 50;
export const DEFAULT_CDF_POINTS = 300;

/** Chart data for one encoded histogram of µs (a stored PhaseHistograms field). */
export function histogramView(encoded: string, options: HistogramViewOptions = {}): HistogramView {
  return histogramViewFromBuckets(decodeRecordedBuckets(encoded), options);
}

export function histogramViewFromBuckets(
  buckets: readonly HistogramBucket[],
  options: HistogramViewOptions = {},
): HistogramView {
  const binScale = options.binScale ?? "log";
  const binCount = options.binCount ?? DEFAULT_BIN_COUNT;
  const maxCdfPoints = options.maxCdfPoints ?? DEFAULT_CDF_POINTS;
  if (!Number.isInteger(binCount) || binCount < 1) {
    throw new RangeError(`binCount must be a whole number of at least 1, got ${binCount}`);
  }
  if (!Number.isInteger(maxCdfPoints) || maxCdfPoints < 2) {
    throw new RangeError(`maxCdfPoints must be a whole number of at least 2, got ${maxCdfPoints}`);
  }
  const first = buckets[0];
  const last = buckets.at(-1);
  if (!first || !last) {
    return { totalCount: 0, minMs: 0, maxMs: 0, binScale, bins: [], cdf: [] };
  }
  const minMs = first.lowUs / 1000;
  const maxMs = (last.highUs + 1) / 1000;
  return {
    totalCount: buckets.reduce((sum, bucket) => sum + bucket.count, 0),
    minMs,
    maxMs,
    binScale,
    bins: binBuckets(buckets, minMs, maxMs, binScale, binCount),
    cdf: cdfPoints(buckets, maxCdfPoints),
  };
}

function binEdges(minMs: number, maxMs: number, scale: BinScale, binCount: number): number[] {
  return Array.from({ length: binCount + 1 }, (_, index) => {
    const position = index / binCount;
    return scale === "log"
      ? minMs * (maxMs / minMs) ** position
      : minMs + (maxMs - minMs) * position;
  });
}

function binBuckets(
  buckets: readonly HistogramBucket[],
  minMs: number,
  maxMs: number,
  scale: BinScale,
  binCount: number,
): HistogramBin[] {
  const edges = binEdges(minMs, maxMs, scale, binCount);
  const bins = edges.slice(0, -1).map((lowMs, index) => ({
    lowMs,
    highMs: edges[index + 1] as number,
    count: 0,
  }));
  const span = scale === "log" ? Math.log(maxMs / minMs) : maxMs - minMs;
  for (const bucket of buckets) {
    const valueMs = bucket.valueUs / 1000;
    const offset = scale === "log" ? Math.log(valueMs / minMs) : valueMs - minMs;
    const index = Math.min(binCount - 1, Math.max(0, Math.floor((offset / span) * binCount)));
    (bins[index] as HistogramBin).count += bucket.count;
  }
  return bins;
}

/**
 * The empirical CDF at each bucket's top (where HDR percentile queries land), thinned to about
 * `maxPoints`: a point is kept once the fraction has moved by 2/maxPoints or the log of the value
 * by 2/maxPoints of its range since the last kept point. Each rule alone keeps at most maxPoints/2
 * points, and the second keeps the sparse tail (p99.9 and beyond) that a fraction rule would drop.
 */
function cdfPoints(buckets: readonly HistogramBucket[], maxPoints: number): CdfPoint[] {
  const totalCount = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  const first = buckets[0] as HistogramBucket;
  const last = buckets.at(-1) as HistogramBucket;
  const logMin = Math.log(first.highUs);
  const logRange = Math.log(last.highUs) - logMin;
  const step = 2 / maxPoints;
  const points: CdfPoint[] = [];
  let cumulative = 0;
  let keptFraction = -Infinity;
  let keptLog = -Infinity;
  buckets.forEach((bucket, index) => {
    cumulative += bucket.count;
    const fraction = cumulative / totalCount;
    const logPosition = logRange > 0 ? (Math.log(bucket.highUs) - logMin) / logRange : 0;
    const isEnd = index === 0 || index === buckets.length - 1;
    if (isEnd || fraction - keptFraction >= step || logPosition - keptLog >= step) {
      points.push({ valueMs: bucket.highUs / 1000, fraction });
      keptFraction = fraction;
      keptLog = logPosition;
    }
  });
  return points;
}

/** A percentile on the "nines" axis: p90 → 1, p99 → 2, p99.9 → 3 (−log10 of the tail fraction). */
export function ninesOf(percentile: number): number {
  if (!(percentile > 0 && percentile < 100)) {
    throw new RangeError(`percentile must be above 0 and below 100, got ${percentile}`);
  }
  return -Math.log10(1 - percentile / 100);
}

export interface PercentilePoint {
  percentile: number;
  nines: number;
  valueMs: number;
}

export const LADDER_PERCENTILES: readonly number[] = [50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99];

/** The percentile ladder of an encoded histogram of µs (empty when it holds no values). */
export function percentileLadder(
  encoded: string,
  percentiles: readonly number[] = LADDER_PERCENTILES,
): PercentilePoint[] {
  const histogram = decodeHistogram(encoded);
  try {
    if (histogram.totalCount === 0) return [];
    return percentiles.map((percentile) => ({
      percentile,
      nines: ninesOf(percentile),
      valueMs: histogram.getValueAtPercentile(percentile) / 1000,
    }));
  } finally {
    histogram.destroy();
  }
}

/**
 * The ladder from a phase's summary figures, for a phase whose histogram is not at hand (an
 * interrupted run rebuilt from records): the five percentiles a summary keeps.
 */
export function percentileLadderFromStats(stats: LatencyStats): PercentilePoint[] {
  return (
    [
      [50, stats.p50],
      [90, stats.p90],
      [99, stats.p99],
      [99.9, stats.p999],
      [99.99, stats.p9999],
    ] as const
  ).map(([percentile, valueMs]) => ({ percentile, nines: ninesOf(percentile), valueMs }));
}

/**
 * A phase's ladder as the app's and the report's ladder charts draw it: from its stored histogram
 * (nine rungs), or from its summary's five figures when no histogram holds its latencies; empty
 * when no request of the phase succeeded.
 */
export function phaseLadder(
  histogram: string | null,
  stats: LatencyStats | null | undefined,
): PercentilePoint[] {
  const fromHistogram = histogram ? percentileLadder(histogram) : [];
  if (fromHistogram.length > 0) return fromHistogram;
  return stats ? percentileLadderFromStats(stats) : [];
}
