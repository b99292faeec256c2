import {
  createLatencyHistogram,
  createRandom,
  encodeHistogram,
  recordLatencyUs,
} from "@taillab/core";
import { describe, expect, it } from "vitest";
import { cdfSeries } from "./cdf-series.ts";
import { analyseHistogram } from "./histogram-analysis.ts";

/** 20 000 latencies of a known shape, as a stored histogram. */
function histogramOf(draw: (random: ReturnType<typeof createRandom>) => number): string {
  const random = createRandom(3);
  const histogram = createLatencyHistogram();
  for (let index = 0; index < 20_000; index += 1) recordLatencyUs(histogram, draw(random));
  const encoded = encodeHistogram(histogram);
  histogram.destroy();
  return encoded;
}

const cases = [
  {
    name: "a queue (shifted exponential, 2 ms + mean 3 ms)",
    encoded: histogramOf((random) => 2000 + random.exponential(3000)),
    better: "exponential",
    logScale: false,
  },
  {
    name: "a long tail (lognormal, median 8 ms, σ 1.2)",
    encoded: histogramOf((random) => random.lognormal(8000, 1.2)),
    better: "lognormal",
    logScale: true,
  },
] as const;

describe("cdfSeries", () => {
  it.each(cases)("fits $name: $better fits better", ({ encoded, better, logScale }) => {
    const analysis = analyseHistogram(encoded);
    if (!analysis) throw new Error("no latencies");
    const data = cdfSeries(analysis, 42);
    expect(data.better.model).toBe(better);
    expect(data.better.ksDistance).toBe(
      Math.min(analysis.fits.exponential.ksDistance, analysis.fits.lognormal.ksDistance),
    );
    expect(data.better.predictedP99Ms).toBe(analysis.fits[better].predictedP99Ms);
    expect(data.logScale).toBe(logScale);
    expect(data.measuredP99Ms).toBe(42);
    // The measured CDF rises to 1; each model curve spans the chart's range and rises too.
    expect(data.measured.at(-1)?.y).toBe(1);
    for (const curve of [data.exponential, data.lognormal]) {
      expect(curve).toHaveLength(161);
      expect(curve[0]?.x).toBeCloseTo(data.fromMs, 9);
      expect(curve.at(-1)?.x).toBeCloseTo(data.toMs, 9);
      curve.slice(1).forEach((point, index) => {
        expect(point.y).toBeGreaterThanOrEqual((curve[index]?.y ?? 0) - 1e-12);
      });
    }
  });

  it("starts a linear axis at the exponential's t0, a log axis at the fastest request", () => {
    const linear = analyseHistogram(cases[0].encoded)!;
    expect(cdfSeries(linear, 1).fromMs).toBe(linear.fits.exponential.t0Ms);
    const log = analyseHistogram(cases[1].encoded)!;
    expect(cdfSeries(log, 1).fromMs).toBe(log.view.minMs);
  });

  it.each(cases)("ends the axis a little past every marker: $name", ({ encoded }) => {
    const analysis = analyseHistogram(encoded)!;
    // A small run's p99 is its slowest request; a model's may lie beyond it.
    for (const p99 of [analysis.view.maxMs, analysis.view.maxMs / 2]) {
      const data = cdfSeries(analysis, p99);
      const last = Math.max(analysis.view.maxMs, p99, data.better.predictedP99Ms);
      expect(data.toMs).toBeGreaterThan(last);
      const share = data.logScale
        ? Math.log(data.toMs / last) / Math.log(data.toMs / data.fromMs)
        : (data.toMs - last) / (data.toMs - data.fromMs);
      expect(share).toBeGreaterThan(0.02);
      expect(share).toBeLessThan(0.04);
    }
  });

  it("has nothing to fit in an empty histogram", () => {
    expect(analyseHistogram(encodeHistogram(createLatencyHistogram()))).toBeNull();
  });

  it.each(cases)("turns $name into its tail (CCDF) on a log fraction axis", ({ encoded }) => {
    const analysis = analyseHistogram(encoded)!;
    const cdf = cdfSeries(analysis, 42);
    const ccdf = cdfSeries(analysis, 42, { view: "ccdf" });
    expect(ccdf.view).toBe("ccdf");
    expect(ccdf.fractionMin).toBe(1 / analysis.view.totalCount);
    // The same latencies, each with the share of requests slower than it.
    const first = cdf.measured[0]!;
    expect(ccdf.measured[0]).toEqual({ x: first.x, y: 1 - first.y });
    for (const curve of [ccdf.measured, ccdf.exponential, ccdf.lognormal]) {
      expect(curve.every((point) => point.y >= ccdf.fractionMin && point.y <= 1)).toBe(true);
      curve.slice(1).forEach((point, index) => {
        expect(point.y).toBeLessThanOrEqual((curve[index]?.y ?? 1) + 1e-12);
      });
    }
  });

  it("takes the user's linear or log latency axis over its own choice", () => {
    const analysis = analyseHistogram(cases[1].encoded)!;
    expect(cdfSeries(analysis, 42).logScale).toBe(true);
    const linear = cdfSeries(analysis, 42, { log: false });
    expect(linear.logScale).toBe(false);
    expect(linear.fromMs).toBe(Math.max(0, analysis.fits.exponential.t0Ms));
  });
});
