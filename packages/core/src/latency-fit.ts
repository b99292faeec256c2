import type { HistogramBucket } from "./histogram-buckets.ts";
import { recordedBuckets } from "./histogram-buckets.ts";
import type { LatencyHistogram } from "./latency-histogram.ts";
import { standardNormalCdf } from "./normal-distribution.ts";

/**
 * Latencies in ms, sorted ascending, each with a weight: raw samples (weight 1 each) or the
 * (value, count) buckets of an HDR histogram. Fits work on either, so a stored run can be fitted
 * without its raw records.
 */
export interface WeightedLatencies {
  valuesMs: Float64Array;
  counts: Float64Array;
  totalCount: number;
}

function checkLatency(valueMs: number, where: string): void {
  if (!Number.isFinite(valueMs) || valueMs <= 0) {
    throw new RangeError(`${where}: latencies must be finite and above 0 ms, got ${valueMs}`);
  }
}

export function weightedLatenciesFromSamples(samplesMs: ArrayLike<number>): WeightedLatencies {
  const valuesMs = Float64Array.from(samplesMs);
  for (const value of valuesMs) checkLatency(value, "latency samples");
  valuesMs.sort();
  return {
    valuesMs,
    counts: new Float64Array(valuesMs.length).fill(1),
    totalCount: valuesMs.length,
  };
}

/** (value, count) pairs in any order; zero counts are dropped. */
export function weightedLatenciesFromBuckets(
  buckets: readonly { valueMs: number; count: number }[],
): WeightedLatencies {
  const kept = buckets.filter((bucket) => bucket.count > 0);
  for (const bucket of kept) checkLatency(bucket.valueMs, "latency buckets");
  kept.sort((a, b) => a.valueMs - b.valueMs);
  const valuesMs = Float64Array.from(kept, (bucket) => bucket.valueMs);
  const counts = Float64Array.from(kept, (bucket) => bucket.count);
  const totalCount = counts.reduce((sum, count) => sum + count, 0);
  return { valuesMs, counts, totalCount };
}

/** A histogram of µs, each bucket taken at the middle of its range. */
export function weightedLatenciesFromHistogram(histogram: LatencyHistogram): WeightedLatencies {
  return weightedLatenciesFromHistogramBuckets(recordedBuckets(histogram));
}

export function weightedLatenciesFromHistogramBuckets(
  buckets: readonly HistogramBucket[],
): WeightedLatencies {
  return weightedLatenciesFromBuckets(
    buckets.map((bucket) => ({ valueMs: bucket.valueUs / 1000, count: bucket.count })),
  );
}

/** Nearest rank, as exactPercentile and HDR histograms define it. */
export function weightedPercentile(latencies: WeightedLatencies, level: number): number {
  requireSamples(latencies, "weightedPercentile");
  const rank = Math.max(1, Math.ceil((level / 100) * latencies.totalCount));
  let cumulative = 0;
  for (let index = 0; index < latencies.valuesMs.length; index += 1) {
    cumulative += latencies.counts[index] as number;
    if (cumulative >= rank) return latencies.valuesMs[index] as number;
  }
  return latencies.valuesMs[latencies.valuesMs.length - 1] as number;
}

function requireSamples(latencies: WeightedLatencies, where: string): void {
  if (latencies.totalCount <= 0) throw new RangeError(`${where}: no latencies to fit`);
}

/**
 * Kolmogorov–Smirnov distance sup |Fn(t) − F(t)| between the empirical CDF and a continuous
 * model CDF. Fn jumps at each value, so both sides of every jump are compared.
 */
export function ksDistance(latencies: WeightedLatencies, cdf: (valueMs: number) => number): number {
  requireSamples(latencies, "ksDistance");
  let distance = 0;
  let cumulative = 0;
  for (let index = 0; index < latencies.valuesMs.length; index += 1) {
    const model = cdf(latencies.valuesMs[index] as number);
    const below = cumulative / latencies.totalCount;
    cumulative += latencies.counts[index] as number;
    const atOrBelow = cumulative / latencies.totalCount;
    distance = Math.max(distance, Math.abs(model - below), Math.abs(atOrBelow - model));
  }
  return distance;
}

function weightedMean(
  latencies: WeightedLatencies,
  transform: (valueMs: number) => number,
): number {
  let sum = 0;
  for (let index = 0; index < latencies.valuesMs.length; index += 1) {
    sum += (latencies.counts[index] as number) * transform(latencies.valuesMs[index] as number);
  }
  return sum / latencies.totalCount;
}

const P99 = 99;

/**
 * The labs' queueing model, an M/M/1-like service time after a fixed minimum:
 * F(t) = 1 − e^(−α(t − t0)) for t ≥ t0, 0 below.
 */
export interface ShiftedExponentialFit {
  model: "shifted-exponential";
  /** The fixed part of every request (the fastest one). */
  t0Ms: number;
  /** Rate of the exponential part, per ms; its mean is 1/α. Infinity when all values are equal. */
  alphaPerMs: number;
  meanMs: number;
  ksDistance: number;
  /** t0 + ln(100)/α: where the model puts the 99th percentile. */
  predictedP99Ms: number;
  /** Nearest-rank 99th percentile of the data fitted. */
  measuredP99Ms: number;
  count: number;
}

export function shiftedExponentialCdf(
  fit: Pick<ShiftedExponentialFit, "t0Ms" | "alphaPerMs">,
  valueMs: number,
): number {
  if (valueMs < fit.t0Ms) return 0;
  if (!Number.isFinite(fit.alphaPerMs)) return 1;
  return 1 - Math.exp(-fit.alphaPerMs * (valueMs - fit.t0Ms));
}

/**
 * Maximum likelihood: the likelihood ∏ α e^(−α(tᵢ − t0)) grows with t0 up to the smallest sample,
 * so t̂0 = min tᵢ; setting its derivative in α to zero gives α̂ = 1 / (mean − t̂0). (Both are the
 * plain MLE, slightly biased for small samples: t̂0 sits above the true t0 by about 1/(nα).)
 */
export function fitShiftedExponential(latencies: WeightedLatencies): ShiftedExponentialFit {
  requireSamples(latencies, "fitShiftedExponential");
  const t0Ms = latencies.valuesMs[0] as number;
  const meanMs = weightedMean(latencies, (value) => value);
  const excess = meanMs - t0Ms;
  const alphaPerMs = excess > 0 ? 1 / excess : Number.POSITIVE_INFINITY;
  const fit = { t0Ms, alphaPerMs };
  return {
    model: "shifted-exponential",
    t0Ms,
    alphaPerMs,
    meanMs,
    ksDistance: excess > 0 ? ksDistance(latencies, (t) => shiftedExponentialCdf(fit, t)) : 0,
    predictedP99Ms: excess > 0 ? t0Ms + Math.log(100) / alphaPerMs : t0Ms,
    measuredP99Ms: weightedPercentile(latencies, P99),
    count: latencies.totalCount,
  };
}

/** ln t ~ Normal(μ, σ²): a common fit for service times with a long right tail. */
export interface LognormalFit {
  model: "lognormal";
  /** Mean of ln(t / 1 ms); e^μ is the median in ms. */
  mu: number;
  sigma: number;
  ksDistance: number;
  /** e^(μ + σ·z₀.₉₉) with z₀.₉₉ ≈ 2.3263. */
  predictedP99Ms: number;
  measuredP99Ms: number;
  count: number;
}

/** The standard normal quantile at 0.99. */
const Z_99 = 2.3263478740408408;

export function lognormalCdf(fit: Pick<LognormalFit, "mu" | "sigma">, valueMs: number): number {
  if (valueMs <= 0) return 0;
  if (fit.sigma === 0) return Math.log(valueMs) >= fit.mu ? 1 : 0;
  return standardNormalCdf((Math.log(valueMs) - fit.mu) / fit.sigma);
}

/** Maximum likelihood: μ̂ = mean of ln t, σ̂² = mean of (ln t − μ̂)² (divided by n, not n − 1). */
export function fitLognormal(latencies: WeightedLatencies): LognormalFit {
  requireSamples(latencies, "fitLognormal");
  const mu = weightedMean(latencies, Math.log);
  const sigma = Math.sqrt(weightedMean(latencies, (value) => (Math.log(value) - mu) ** 2));
  const fit = { mu, sigma };
  return {
    model: "lognormal",
    mu,
    sigma,
    ksDistance: ksDistance(latencies, (t) => lognormalCdf(fit, t)),
    predictedP99Ms: Math.exp(mu + sigma * Z_99),
    measuredP99Ms: weightedPercentile(latencies, P99),
    count: latencies.totalCount,
  };
}

/**
 * Past this KS distance a model does not follow the data (its CDF is off by almost a third
 * somewhere); the labs' exponential on a lognormal service time is about 0.24, and still useful.
 */
export const MAX_FIT_KS_DISTANCE = 0.3;
/** A predicted p99 this many times above or below the measured one is not a prediction. */
export const MAX_FIT_P99_FACTOR = 10;

/**
 * Whether a fit's predicted p99 may be shown: the model follows the data, and the prediction is
 * within MAX_FIT_P99_FACTOR of what was measured. A stalled run's few huge latencies can pull an
 * exponential's mean so far that it "predicts" a p99 of minutes; such a fit is refused.
 */
export function fitHolds(
  fit: Pick<
    ShiftedExponentialFit | LognormalFit,
    "ksDistance" | "predictedP99Ms" | "measuredP99Ms"
  >,
): boolean {
  const ratio = fit.predictedP99Ms / fit.measuredP99Ms;
  return (
    fit.ksDistance <= MAX_FIT_KS_DISTANCE &&
    Number.isFinite(ratio) &&
    ratio <= MAX_FIT_P99_FACTOR &&
    ratio >= 1 / MAX_FIT_P99_FACTOR
  );
}

export interface LatencyModelFits {
  exponential: ShiftedExponentialFit;
  lognormal: LognormalFit;
}

export function fitLatencyModels(latencies: WeightedLatencies): LatencyModelFits {
  return { exponential: fitShiftedExponential(latencies), lognormal: fitLognormal(latencies) };
}
