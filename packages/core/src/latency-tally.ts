import {
  PERCENTILE_LEVELS,
  type EncodedTally,
  type IntervalStats,
  type LatencyStats,
  type LivePercentiles,
  type PercentileInterval,
  type PercentileIntervals,
  type PercentileName,
} from "@taillab/api";
import {
  HISTOGRAM_PRECISION_PCT,
  createLatencyHistogram,
  decodeHistogram,
  encodeHistogram,
  recordLatencyUs,
  type LatencyHistogram,
} from "./latency-histogram.ts";
import { PERCENTILE_CONFIDENCE, percentileRankInterval } from "./percentile-interval.ts";

/**
 * Durations of one kind (µs): an HDR histogram for the percentiles, beside the exact count, sum,
 * minimum and maximum. HDR rounds a decoded histogram's min and max to their buckets; keeping
 * them exact makes a tally merged from worker deltas equal, figure for figure, to one built from
 * the same requests' records, and lets no percentile exceed the real maximum.
 */
export interface LatencyTally {
  histogram: LatencyHistogram;
  count: number;
  /** Whole µs: a sum of integers, exact in a double up to 2^53. */
  sumUs: number;
  minUs: number;
  maxUs: number;
}

/** A tally as it crosses a thread or process boundary (api's EncodedTallySchema). */
export type { EncodedTally };

export function createTally(): LatencyTally {
  return {
    histogram: createLatencyHistogram(),
    count: 0,
    sumUs: 0,
    minUs: Number.POSITIVE_INFINITY,
    maxUs: 0,
  };
}

/**
 * Records a duration; below 1 µs (a clock tick of 0) counts as 1 µs, as in the histogram. A
 * negative one is an error of the clocks: PhaseAccount counts it before it gets here.
 */
export function recordDuration(tally: LatencyTally, durationUs: number): void {
  const valueUs = Math.max(1, Math.round(durationUs));
  recordLatencyUs(tally.histogram, valueUs);
  tally.count += 1;
  tally.sumUs += valueUs;
  if (valueUs < tally.minUs) tally.minUs = valueUs;
  if (valueUs > tally.maxUs) tally.maxUs = valueUs;
}

/** Records `count` durations of one value (a histogram bin another tool kept). */
export function recordDurations(tally: LatencyTally, durationUs: number, count: number): void {
  if (count === 0) return;
  const valueUs = Math.max(1, Math.round(durationUs));
  tally.histogram.recordValueWithCount(valueUs, count);
  tally.count += count;
  tally.sumUs += valueUs * count;
  if (valueUs < tally.minUs) tally.minUs = valueUs;
  if (valueUs > tally.maxUs) tally.maxUs = valueUs;
}

export function encodeTally(tally: LatencyTally): EncodedTally {
  return {
    histogram: encodeHistogram(tally.histogram),
    count: tally.count,
    sumUs: tally.sumUs,
    minUs: tally.minUs,
    maxUs: tally.maxUs,
  };
}

/** Adds an encoded tally into `target`: histograms merged, never percentiles averaged. */
export function mergeTally(target: LatencyTally, encoded: EncodedTally): void {
  if (encoded.count === 0) return;
  const histogram = decodeHistogram(encoded.histogram);
  addTally(target, { ...encoded, histogram });
  histogram.destroy();
}

/** Adds a tally in memory into `target` (the same merge, without encoding it first). */
export function addTally(target: LatencyTally, other: LatencyTally): void {
  if (other.count === 0) return;
  target.histogram.add(other.histogram);
  target.count += other.count;
  target.sumUs += other.sumUs;
  target.minUs = Math.min(target.minUs, other.minUs);
  target.maxUs = Math.max(target.maxUs, other.maxUs);
}

export function resetTally(tally: LatencyTally): void {
  tally.histogram.reset();
  tally.count = 0;
  tally.sumUs = 0;
  tally.minUs = Number.POSITIVE_INFINITY;
  tally.maxUs = 0;
}

/** The value (µs) at `level` %, within the histogram's precision and never outside [min, max]. */
export function tallyPercentileUs(tally: LatencyTally, level: number): number {
  const valueUs = tally.histogram.getValueAtPercentile(level);
  return Math.min(tally.maxUs, Math.max(tally.minUs, valueUs));
}

const US_PER_MS = 1000;

/** Milliseconds with microsecond resolution. */
function toMs(valueUs: number): number {
  return Math.round(valueUs) / US_PER_MS;
}

/**
 * The tally's value at each named level of PERCENTILE_LEVELS, ms. A percentile query only walks
 * the counts; HDR's mean and standard deviation make an object per recorded value, which a live
 * view asking ten times a second turned into most of the coordinator's garbage.
 */
export function tallyPercentilesMs<Name extends PercentileName>(
  tally: LatencyTally,
  names: readonly Name[],
): Record<Name, number> {
  const values = {} as Record<Name, number>;
  for (const name of names) values[name] = toMs(tallyPercentileUs(tally, PERCENTILE_LEVELS[name]));
  return values;
}

const ALL_PERCENTILES = Object.keys(PERCENTILE_LEVELS) as PercentileName[];

/** The summary's statistics in ms, or null when nothing was recorded. */
export function tallyStatsMs(tally: LatencyTally): LatencyStats | null {
  if (tally.count === 0) return null;
  return {
    min: toMs(tally.minUs),
    ...tallyPercentilesMs(tally, ALL_PERCENTILES),
    max: toMs(tally.maxUs),
    mean: toMs(tally.sumUs / tally.count),
    stdev: toMs(tally.histogram.stdDeviation),
    intervals: tallyIntervalsMs(tally),
  };
}

/**
 * The value (µs) of the rank-th fastest duration, within the histogram's precision. HDR rounds
 * a percentile's count up, so asking half a rank below lands on the rank itself despite the
 * floating point.
 */
export function tallyValueAtRankUs(tally: LatencyTally, rank: number): number {
  return tallyPercentileUs(tally, (100 * (rank - 0.5)) / tally.count);
}

/** The `level` % percentile's confidence interval, µs (core's percentileRankInterval). */
export function tallyPercentileIntervalUs(
  tally: LatencyTally,
  level: number,
): { lo: number | null; hi: number | null } {
  const ranks = percentileRankInterval(tally.count, level);
  return {
    lo: ranks.low === null ? null : tallyValueAtRankUs(tally, ranks.low),
    hi: ranks.high === null ? null : tallyValueAtRankUs(tally, ranks.high),
  };
}

/** The named percentile's confidence interval, ms. */
function tallyIntervalMs(tally: LatencyTally, name: PercentileName): PercentileInterval {
  const { lo, hi } = tallyPercentileIntervalUs(tally, PERCENTILE_LEVELS[name]);
  return { lo: lo === null ? null : toMs(lo), hi: hi === null ? null : toMs(hi) };
}

/** Each percentile's confidence interval, ms. */
function tallyIntervalsMs(tally: LatencyTally): PercentileIntervals {
  const byLevel = {} as PercentileIntervals["byLevel"];
  for (const name of ALL_PERCENTILES) byLevel[name] = tallyIntervalMs(tally, name);
  return {
    confidence: PERCENTILE_CONFIDENCE,
    count: tally.count,
    precisionPct: HISTOGRAM_PRECISION_PCT,
    byLevel,
  };
}

/** What a live view shows of a tally so far, or null before its first duration. */
export function livePercentilesOf(tally: LatencyTally): LivePercentiles | null {
  if (tally.count === 0) return null;
  const { p50, p90, p99, p999 } = tallyPercentilesMs(tally, ["p50", "p90", "p99", "p999"]);
  return {
    p50Ms: p50,
    p90Ms: p90,
    p99Ms: p99,
    p999Ms: p999,
    maxMs: toMs(tally.maxUs),
    count: tally.count,
  };
}

/**
 * An interval's latency figures, each percentile with its confidence interval as a phase's has;
 * null ones (and no intervals) before its first success.
 */
export function intervalLatencyMs(
  tally: LatencyTally | null,
): Pick<IntervalStats, "p50Ms" | "p99Ms" | "p999Ms" | "maxMs" | "percentileIntervals"> {
  if (!tally || tally.count === 0) return { p50Ms: null, p99Ms: null, p999Ms: null, maxMs: null };
  const { p50, p99, p999 } = tallyPercentilesMs(tally, ["p50", "p99", "p999"]);
  return {
    p50Ms: p50,
    p99Ms: p99,
    p999Ms: p999,
    maxMs: toMs(tally.maxUs),
    percentileIntervals: {
      p50: tallyIntervalMs(tally, "p50"),
      p99: tallyIntervalMs(tally, "p99"),
      p999: tallyIntervalMs(tally, "p999"),
    },
  };
}

/**
 * A tally of a histogram alone (one read back from disk): count, mean and extremes as the
 * histogram knows them, to the precision of its buckets, unless the exact maximum is known.
 */
export function tallyOfHistogram(histogram: LatencyHistogram, exactMaxUs?: number): LatencyTally {
  const count = histogram.totalCount;
  return {
    histogram,
    count,
    sumUs: Math.round(histogram.mean * count),
    minUs: count > 0 ? histogram.minNonZeroValue : Number.POSITIVE_INFINITY,
    maxUs: exactMaxUs ?? histogram.maxValue,
  };
}

export function destroyTally(tally: LatencyTally): void {
  tally.histogram.destroy();
}
