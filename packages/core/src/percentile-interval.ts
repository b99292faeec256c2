/**
 * Distribution-free confidence intervals for percentiles, from order statistics.
 *
 * Of n independent requests, the number faster than the true q-quantile is Binomial(n, q). So the
 * l-th and u-th fastest requests bracket the quantile with probability
 * P(l ≤ K < u) = B(u − 1) − B(l − 1), whatever the latency distribution is. TailLab takes the
 * equal-tailed ranks: the largest l with B(l − 1) ≤ 2.5 % and the smallest u with
 * B(u − 1) ≥ 97.5 %. The binomial is summed exactly (no normal approximation), term by term
 * outwards from its mode, which costs a few thousand terms even for millions of requests.
 */

/** The confidence of every percentile interval TailLab reports. */
export const PERCENTILE_CONFIDENCE = 0.95;

/**
 * Below this many requests slower than a percentile, the figure rests on too few of them to mean
 * much, and every view says so ("p99.9 from 4 000 requests rests on 4").
 */
export const FEW_REQUESTS_BEYOND = 10;

/** The 1-based ranks of the sorted values that bound a percentile; null where the data does not. */
export interface RankInterval {
  /** null: even the fastest value is above the lower bound at this confidence. */
  low: number | null;
  /** null: even the slowest value is below the upper bound (the interval is open above). */
  high: number | null;
  /** P(the true percentile lies within [low, high]) with the open ends taken as unbounded. */
  coverage: number;
}

/** Terms below this fraction of the mode's weigh nothing next to a 2.5 % tail. */
const NEGLIGIBLE_TERM = 1e-20;

/**
 * The binomial distribution Binomial(n, q) over the counts that carry any weight: cdf(k) for
 * k in [from, from + cdf.length), 0 below and 1 above.
 */
function binomialCdf(n: number, q: number): (k: number) => number {
  const mode = Math.min(n, Math.floor((n + 1) * q));
  const odds = q / (1 - q);
  // Weights relative to the mode's, by the ratio of neighbouring terms: C(n,k+1)/C(n,k)·q/(1−q).
  const below: number[] = [];
  for (let k = mode, weight = 1; k > 0; k--) {
    weight *= k / (n - k + 1) / odds;
    if (weight < NEGLIGIBLE_TERM) break;
    below.push(weight);
  }
  const above: number[] = [];
  for (let k = mode, weight = 1; k < n; k++) {
    weight *= ((n - k) / (k + 1)) * odds;
    if (weight < NEGLIGIBLE_TERM) break;
    above.push(weight);
  }
  const weights = [...below.reverse(), 1, ...above];
  const from = mode - below.length;
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const cumulative: number[] = [];
  let sum = 0;
  for (const weight of weights) {
    sum += weight;
    cumulative.push(sum / total);
  }
  return (k) => {
    if (k < from) return 0;
    if (k >= from + cumulative.length) return 1;
    return cumulative[k - from] as number;
  };
}

/** The ranks that bound the `level` % percentile of n values at PERCENTILE_CONFIDENCE. */
export function percentileRankInterval(count: number, level: number): RankInterval {
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`percentileRankInterval: expected a count of at least 1, got ${count}`);
  }
  if (!(level > 0 && level < 100)) {
    throw new RangeError(
      `percentileRankInterval: expected a level between 0 and 100, got ${level}`,
    );
  }
  const cdf = binomialCdf(count, level / 100);
  const tail = (1 - PERCENTILE_CONFIDENCE) / 2;
  // cdf is non-decreasing, so walk from the quantile's own rank: few steps either way.
  let low = Math.max(1, Math.ceil((level / 100) * count));
  while (low > 0 && cdf(low - 1) > tail) low--;
  while (low < count && cdf(low) <= tail) low++;
  let high = Math.max(1, Math.ceil((level / 100) * count));
  while (high <= count && cdf(high - 1) < 1 - tail) high++;
  while (high > 1 && cdf(high - 2) >= 1 - tail) high--;
  const coverage = (high <= count ? cdf(high - 1) : 1) - (low >= 1 ? cdf(low - 1) : 0);
  return { low: low >= 1 ? low : null, high: high <= count ? high : null, coverage };
}

/** Requests slower than the `level` % percentile of `count`: what its figure rests on. */
export function requestsBeyond(count: number, level: number): number {
  return Math.floor(count * (1 - level / 100) + 1e-9);
}

/** Whether the `level` % percentile of `count` requests rests on fewer than FEW_REQUESTS_BEYOND. */
export function restsOnFew(count: number, level: number): boolean {
  return requestsBeyond(count, level) < FEW_REQUESTS_BEYOND;
}
