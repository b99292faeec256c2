import { describe, expect, it } from "vitest";
import { createLatencyHistogram, recordLatencyUs } from "./latency-histogram.ts";
import {
  fitHolds,
  fitLatencyModels,
  fitLognormal,
  fitShiftedExponential,
  ksDistance,
  lognormalCdf,
  shiftedExponentialCdf,
  weightedLatenciesFromBuckets,
  weightedLatenciesFromHistogram,
  weightedLatenciesFromSamples,
  weightedPercentile,
  type WeightedLatencies,
} from "./latency-fit.ts";
import { standardNormalCdf } from "./normal-distribution.ts";
import { createRandom } from "./random.ts";

const COUNT = 20_000;
const SEEDS = [1, 7, 2024];

function exponentialSamples(seed: number, t0Ms: number, alphaPerMs: number): number[] {
  const random = createRandom(seed);
  return Array.from({ length: COUNT }, () => t0Ms + random.exponential(1 / alphaPerMs));
}

function lognormalSamples(seed: number, medianMs: number, sigma: number): number[] {
  const random = createRandom(seed);
  return Array.from({ length: COUNT }, () => random.lognormal(medianMs, sigma));
}

function viaHistogram(samplesMs: readonly number[]): WeightedLatencies {
  const histogram = createLatencyHistogram();
  for (const valueMs of samplesMs) recordLatencyUs(histogram, valueMs * 1000);
  return weightedLatenciesFromHistogram(histogram);
}

const SOURCES = [
  ["raw samples", weightedLatenciesFromSamples],
  ["an HDR histogram", viaHistogram],
] as const;

// With 20 000 draws the standard error of α̂ is about 0.7 % and of σ̂ about 0.5 %; KS distances of
// the right model stay near 1/√n ≈ 0.007, while the wrong model is off by 0.05 or more (a
// lognormal with σ = 1 is the closest to an exponential here, at about 0.06).
describe.each(SOURCES)("latency fits from %s", (_, toLatencies) => {
  describe.each(SEEDS)("seed %d", (seed) => {
    it.each([
      [2, 0.5],
      [5, 0.1],
      [40, 0.02],
    ])("recover a shifted exponential with t0 %d ms and α %d /ms", (t0Ms, alphaPerMs) => {
      const fits = fitLatencyModels(toLatencies(exponentialSamples(seed, t0Ms, alphaPerMs)));
      const fit = fits.exponential;
      expect(Math.abs(fit.t0Ms - t0Ms)).toBeLessThan(0.01 * t0Ms + 10 / (COUNT * alphaPerMs));
      expect(Math.abs(fit.alphaPerMs / alphaPerMs - 1)).toBeLessThan(0.03);
      const trueP99 = t0Ms + Math.log(100) / alphaPerMs;
      expect(Math.abs(fit.predictedP99Ms / trueP99 - 1)).toBeLessThan(0.03);
      expect(Math.abs(fit.measuredP99Ms / trueP99 - 1)).toBeLessThan(0.05);
      expect(fit.ksDistance).toBeLessThan(0.015);
      expect(fits.lognormal.ksDistance).toBeGreaterThan(Math.max(0.04, 3 * fit.ksDistance));
      expect(fit.count).toBe(COUNT);
    });

    it.each([
      [20, 0.5],
      [3, 0.3],
      [100, 1],
    ])("recover a lognormal with median %d ms and σ %d", (medianMs, sigma) => {
      const fits = fitLatencyModels(toLatencies(lognormalSamples(seed, medianMs, sigma)));
      const fit = fits.lognormal;
      expect(Math.abs(Math.exp(fit.mu) / medianMs - 1)).toBeLessThan(0.03);
      expect(Math.abs(fit.sigma / sigma - 1)).toBeLessThan(0.03);
      const trueP99 = medianMs * Math.exp(sigma * 2.3263478740408408);
      expect(Math.abs(fit.predictedP99Ms / trueP99 - 1)).toBeLessThan(0.05);
      expect(fit.ksDistance).toBeLessThan(0.015);
      expect(fits.exponential.ksDistance).toBeGreaterThan(Math.max(0.04, 3 * fit.ksDistance));
    });
  });
});

describe("latency fit details", () => {
  it("uses the MLE t0 = min and α = 1/(mean − t0) on a small sample", () => {
    const fit = fitShiftedExponential(weightedLatenciesFromSamples([3, 1, 2, 6]));
    expect(fit.t0Ms).toBe(1);
    expect(fit.meanMs).toBe(3);
    expect(fit.alphaPerMs).toBe(0.5);
    expect(fit.predictedP99Ms).toBeCloseTo(1 + Math.log(100) / 0.5, 12);
  });

  it("gives weighted buckets the same fit as the samples they stand for", () => {
    const fromSamples = fitLatencyModels(weightedLatenciesFromSamples([1, 1, 1, 2, 2, 5]));
    const fromBuckets = fitLatencyModels(
      weightedLatenciesFromBuckets([
        { valueMs: 5, count: 1 },
        { valueMs: 1, count: 3 },
        { valueMs: 2, count: 2 },
        { valueMs: 9, count: 0 },
      ]),
    );
    expect(fromBuckets).toEqual(fromSamples);
  });

  it("fits identical values without dividing by zero", () => {
    const fits = fitLatencyModels(weightedLatenciesFromSamples([4, 4, 4]));
    expect(fits.exponential.alphaPerMs).toBe(Number.POSITIVE_INFINITY);
    expect(fits.exponential.predictedP99Ms).toBe(4);
    expect(fits.exponential.ksDistance).toBe(0);
    expect(fits.lognormal.sigma).toBe(0);
    expect(fits.lognormal.predictedP99Ms).toBeCloseTo(4, 12);
  });

  it.each([
    [[], /no latencies/],
    [[1, 0], /above 0 ms, got 0/],
    [[1, Number.NaN], /got NaN/],
  ])("rejects %j", (samples, message) => {
    expect(() => fitShiftedExponential(weightedLatenciesFromSamples(samples))).toThrow(message);
  });

  it("measures KS on both sides of every jump of the empirical CDF", () => {
    // One value at 1: Fn jumps from 0 to 1 there; a model with F(1) = 0.3 is 0.7 off.
    expect(ksDistance(weightedLatenciesFromSamples([1]), () => 0.3)).toBeCloseTo(0.7, 12);
    // Uniform on [0.5, 2.5]: F(1) = 0.25 (Fn goes 0 → 0.5), F(2) = 0.75 (Fn goes 0.5 → 1).
    expect(ksDistance(weightedLatenciesFromSamples([1, 2]), (t) => (t - 0.5) / 2)).toBeCloseTo(
      0.25,
      12,
    );
  });

  it.each([
    [0, 0.5],
    [1.959963984540054, 0.975],
    [-2.3263478740408408, 0.01],
  ])("standard normal CDF at %d is %d", (z, expected) => {
    expect(Math.abs(standardNormalCdf(z) - expected)).toBeLessThan(1e-7);
  });

  it("evaluates the model CDFs", () => {
    expect(shiftedExponentialCdf({ t0Ms: 2, alphaPerMs: 1 }, 1)).toBe(0);
    expect(shiftedExponentialCdf({ t0Ms: 2, alphaPerMs: 1 }, 3)).toBeCloseTo(1 - Math.exp(-1), 12);
    expect(lognormalCdf({ mu: Math.log(10), sigma: 0.5 }, 10)).toBeCloseTo(0.5, 7);
    expect(fitLognormal(weightedLatenciesFromSamples([1, 100])).mu).toBeCloseTo(Math.log(10), 12);
  });

  it.each([
    [50, 2],
    [75, 3],
    [100, 4],
    [0.1, 1],
  ])("weighted nearest-rank p%d is %d", (level, expected) => {
    expect(weightedPercentile(weightedLatenciesFromSamples([4, 3, 2, 1]), level)).toBe(expected);
  });
});

describe("whether a fit's p99 may be shown", () => {
  it.each([
    [
      "a model that follows the data",
      { ksDistance: 0.05, predictedP99Ms: 30, measuredP99Ms: 25 },
      true,
    ],
    // A stalled session: a few 10 s stalls pulled the exponential's mean up to minutes.
    [
      "a prediction of 939 597 ms for a measured 1 200",
      { ksDistance: 0.15, predictedP99Ms: 939_597, measuredP99Ms: 1200 },
      false,
    ],
    [
      "a model far from the data",
      { ksDistance: 0.35, predictedP99Ms: 30, measuredP99Ms: 25 },
      false,
    ],
    [
      "a prediction a tenth of the measured",
      { ksDistance: 0.1, predictedP99Ms: 2, measuredP99Ms: 25 },
      false,
    ],
  ])("%s", (_, fit, holds) => {
    expect(fitHolds(fit)).toBe(holds);
  });
});
