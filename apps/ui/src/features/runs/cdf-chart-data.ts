import { lognormalCdf, shiftedExponentialCdf } from "@taillab/core";
import { LOG_AXIS_RATIO, wantsLogAxis } from "./log-axis.ts";
import type { PhaseAnalysis } from "./phase-analysis.ts";

/** A point of a line chart, in the axes' units. */
export interface XY {
  x: number;
  y: number;
}

export type FitModel = "exponential" | "lognormal";

/** The model that fits better, as the chart's caption states it. */
export interface BetterFit {
  model: FitModel;
  ksDistance: number;
  predictedP99Ms: number;
}

export interface CdfData {
  measured: XY[];
  exponential: XY[];
  lognormal: XY[];
  logScale: boolean;
  better: BetterFit;
  measuredP99Ms: number;
  /** The latency axis: from the exponential's t₀ (linear) or the fastest request (log)… */
  fromMs: number;
  /** …to a little past the slowest request and both p99 markers. */
  toMs: number;
}

/** Points per model curve: smooth at any size, cheap to draw. */
const MODEL_STEPS = 160;

/**
 * Room right of the last marker, as a share of the axis: in a small run the p99 is the slowest
 * request, and a marker there would sit on the chart's border.
 */
const RIGHT_PAD = 0.03;

function modelCurve(fromMs: number, toMs: number, logScale: boolean, cdf: (t: number) => number) {
  return Array.from({ length: MODEL_STEPS + 1 }, (_, index): XY => {
    const position = index / MODEL_STEPS;
    const x = logScale ? fromMs * (toMs / fromMs) ** position : fromMs + (toMs - fromMs) * position;
    return { x, y: cdf(x) };
  });
}

/**
 * The measured CDF beside both fitted models, as the report's CDF chart draws it (a log axis once
 * the latencies span 1.5× the usual ratio, the linear one starting at the exponential's t₀), and
 * which model fits better by Kolmogorov–Smirnov distance.
 */
export function cdfChartData(analysis: PhaseAnalysis, measuredP99Ms: number): CdfData {
  const { view, fits } = analysis;
  const logScale = wantsLogAxis([view.minMs, view.maxMs], LOG_AXIS_RATIO * 1.5);
  const fromMs = logScale ? view.minMs : Math.max(0, fits.exponential.t0Ms);
  const model: FitModel =
    fits.lognormal.ksDistance < fits.exponential.ksDistance ? "lognormal" : "exponential";
  const better: BetterFit = {
    model,
    ksDistance: fits[model].ksDistance,
    predictedP99Ms: fits[model].predictedP99Ms,
  };
  const lastMs = Math.max(view.maxMs, measuredP99Ms, better.predictedP99Ms);
  const toMs = logScale
    ? lastMs * (lastMs / fromMs) ** RIGHT_PAD
    : lastMs + (lastMs - fromMs) * RIGHT_PAD;
  return {
    measured: view.cdf.map((point) => ({ x: point.valueMs, y: point.fraction })),
    exponential: modelCurve(fromMs, toMs, logScale, (t) =>
      shiftedExponentialCdf(fits.exponential, t),
    ),
    lognormal: modelCurve(fromMs, toMs, logScale, (t) => lognormalCdf(fits.lognormal, t)),
    logScale,
    better,
    measuredP99Ms,
    fromMs,
    toMs,
  };
}

/** A vertical marker line from the bottom to the top of a 0–1 axis. */
export function verticalMarker(x: number): XY[] {
  return [
    { x, y: 0 },
    { x, y: 1 },
  ];
}
