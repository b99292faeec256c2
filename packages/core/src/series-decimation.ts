/**
 * Consecutive requests [firstIndex, lastIndex] folded into one chart column. Keeping min and max
 * (not only the mean) is what lets a one-request stall among a thousand still show as a spike.
 */
export interface DecimatedBucket {
  firstIndex: number;
  lastIndex: number;
  /** Values that were finite; gaps (NaN, e.g. a failed request with no latency) are skipped. */
  count: number;
  min: number;
  max: number;
  mean: number;
}

export const DEFAULT_SERIES_BUCKETS = 1000;

export interface SeriesDecimator {
  /** Adds the value of the next index (0, 1, 2, …); a non-finite value is a gap. */
  add(value: number): void;
  /** The buckets that hold at least one finite value, in index order. */
  finish(): DecimatedBucket[];
}

function checkBucketCount(maxBuckets: number): void {
  if (!Number.isInteger(maxBuckets) || maxBuckets < 1) {
    throw new RangeError(`maxBuckets must be a whole number of at least 1, got ${maxBuckets}`);
  }
}

/**
 * Streams `totalCount` values into at most `maxBuckets` buckets of near-equal width (they differ by
 * at most one index), so a caller can read millions of records from disk without holding them.
 */
export function createSeriesDecimator(
  totalCount: number,
  maxBuckets = DEFAULT_SERIES_BUCKETS,
): SeriesDecimator {
  checkBucketCount(maxBuckets);
  if (!Number.isInteger(totalCount) || totalCount < 0) {
    throw new RangeError(`totalCount must be a whole number ≥ 0, got ${totalCount}`);
  }
  const bucketCount = Math.min(maxBuckets, totalCount);
  const buckets: DecimatedBucket[] = [];
  let index = 0;
  let current: {
    bucket: number;
    first: number;
    count: number;
    min: number;
    max: number;
    sum: number;
  } | null = null;

  const close = (): void => {
    if (current && current.count > 0) {
      buckets.push({
        firstIndex: current.first,
        lastIndex: firstIndexOf(current.bucket + 1) - 1,
        count: current.count,
        min: current.min,
        max: current.max,
        mean: current.sum / current.count,
      });
    }
  };
  const firstIndexOf = (bucket: number): number => Math.ceil((bucket * totalCount) / bucketCount);

  return {
    add(value) {
      if (index >= totalCount) {
        throw new RangeError(`series decimator: more than the ${totalCount} values announced`);
      }
      const bucket = Math.floor((index * bucketCount) / totalCount);
      if (!current || current.bucket !== bucket) {
        close();
        current = {
          bucket,
          first: firstIndexOf(bucket),
          count: 0,
          min: Infinity,
          max: -Infinity,
          sum: 0,
        };
      }
      index += 1;
      if (!Number.isFinite(value)) return;
      current.count += 1;
      current.sum += value;
      if (value < current.min) current.min = value;
      if (value > current.max) current.max = value;
    },
    finish() {
      close();
      current = null;
      return buckets;
    },
  };
}

/** Latency against request index, folded to at most `maxBuckets` buckets. */
export function decimateSeries(
  values: Float64Array | readonly number[],
  maxBuckets = DEFAULT_SERIES_BUCKETS,
): DecimatedBucket[] {
  const decimator = createSeriesDecimator(values.length, maxBuckets);
  for (let index = 0; index < values.length; index += 1) decimator.add(values[index] as number);
  return decimator.finish();
}

/** Folds already-decimated buckets further (a caller sent more than a chart should draw). */
export function mergeDecimatedBuckets(
  buckets: readonly DecimatedBucket[],
  maxBuckets = DEFAULT_SERIES_BUCKETS,
): DecimatedBucket[] {
  checkBucketCount(maxBuckets);
  if (buckets.length <= maxBuckets) return [...buckets];
  const merged: DecimatedBucket[] = [];
  for (let group = 0; group < maxBuckets; group += 1) {
    const start = Math.ceil((group * buckets.length) / maxBuckets);
    const end = Math.ceil(((group + 1) * buckets.length) / maxBuckets);
    let count = 0;
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let index = start; index < end; index += 1) {
      const bucket = buckets[index] as DecimatedBucket;
      count += bucket.count;
      sum += bucket.mean * bucket.count;
      min = Math.min(min, bucket.min);
      max = Math.max(max, bucket.max);
    }
    merged.push({
      firstIndex: (buckets[start] as DecimatedBucket).firstIndex,
      lastIndex: (buckets[end - 1] as DecimatedBucket).lastIndex,
      count,
      min,
      max,
      mean: count > 0 ? sum / count : 0,
    });
  }
  return merged;
}
