import {
  fitHolds,
  lognormalCdf,
  shiftedExponentialCdf,
  type HistogramView,
  type LatencyModelFits,
} from "@taillab/core";
import { LOG_AXIS_RATIO, wantsLogAxis } from "./chart-ticks.ts";
import type { HistogramAnalysis } from "./histogram-analysis.ts";

/**
 * A phase's CDF chart, the app's (Chart.js) and the report's (SVG): its latency axis and its
 * series, the measured CDF beside the two fitted models' curves, computed here once.
 */

export type FitModel = "exponential" | "lognormal";

/** The model that fits better by Kolmogorov–Smirnov distance, whose p99 a CDF chart marks. */
export interface BetterFit {
  model: FitModel;
  ksDistance: number;
  predictedP99Ms: number;
  /** Whether its predicted p99 may be shown (core's fitHolds). */
  holds: boolean;
}

export interface CdfLatencyAxis {
  logScale: boolean;
  /** From the exponential's t₀ (linear) or the fastest request (log)… */
  fromMs: number;
  /** …to a little past the slowest request and both p99 markers. */
  toMs: number;
  better: BetterFit;
}

/**
 * Room right of the last marker, as a share of the axis: in a small run the p99 is the slowest
 * request, and a marker there would sit on the chart's border.
 */
const RIGHT_PAD = 0.03;

/**
 * The latency axis of a phase's CDF chart, the app's and the report's: log once the latencies
 * span 1.5× the usual ratio (unless `log` says otherwise), the linear one starting at the
 * exponential's t₀, and ending past the measured p99 and the better model's (when it holds).
 */
export function cdfLatencyAxis(
  view: HistogramView,
  fits: LatencyModelFits,
  measuredP99Ms: number,
  log?: boolean,
): CdfLatencyAxis {
  const logScale = log ?? wantsLogAxis([view.minMs, view.maxMs], LOG_AXIS_RATIO * 1.5);
  const fromMs = logScale ? view.minMs : Math.max(0, fits.exponential.t0Ms);
  const model: FitModel =
    fits.lognormal.ksDistance < fits.exponential.ksDistance ? "lognormal" : "exponential";
  const better: BetterFit = {
    model,
    ksDistance: fits[model].ksDistance,
    predictedP99Ms: fits[model].predictedP99Ms,
    holds: fitHolds(fits[model]),
  };
  // A refused prediction (minutes, say) must not stretch the axis away from the data.
  const lastMs = Math.max(view.maxMs, measuredP99Ms, better.holds ? better.predictedP99Ms : 0);
  const toMs = logScale
    ? lastMs * (lastMs / fromMs) ** RIGHT_PAD
    : lastMs + (lastMs - fromMs) * RIGHT_PAD;
  return { logScale, fromMs, toMs, better };
}

/** A point of a line chart, in the axes' units. */
export interface XY {
  x: number;
  y: number;
}

/**
 * cdf: the fraction of requests at or below a latency, on a linear 0–1 axis. ccdf: the fraction
 * slower than it, on a log axis whose steps are the "nines" (10 % · p90, 1 % · p99, 0.1 % · p99.9):
 * the tail, which the CDF squeezes into its top pixel, gets most of the height.
 */
export type CdfView = "cdf" | "ccdf";

export interface CdfSeries extends CdfLatencyAxis {
  view: CdfView;
  measured: XY[];
  exponential: XY[];
  lognormal: XY[];
  measuredP99Ms: number;
  /** The fraction axis: 0–1, or for a CCDF from 1 down to one request in all of them. */
  fractionMin: number;
  fractionMax: number;
}

/** Points per model curve: smooth at any size, cheap to draw. */
const MODEL_STEPS = 160;

/** A fitted model's CDF along the latency axis, evenly spaced on its scale. */
function modelCurve(axis: CdfLatencyAxis, cdf: (valueMs: number) => number): XY[] {
  const { fromMs, toMs, logScale } = axis;
  return Array.from({ length: MODEL_STEPS + 1 }, (_, index): XY => {
    const position = index / MODEL_STEPS;
    const x = logScale ? fromMs * (toMs / fromMs) ** position : fromMs + (toMs - fromMs) * position;
    return { x, y: cdf(x) };
  });
}

/**
 * The measured CDF (or CCDF) beside both fitted models on the CDF latency axis (cdfLatencyAxis;
 * `log` overrides its choice of scale), and which model fits better by Kolmogorov–Smirnov
 * distance.
 */
export function cdfSeries(
  analysis: HistogramAnalysis,
  measuredP99Ms: number,
  options: { log?: boolean; view?: CdfView } = {},
): CdfSeries {
  const { view, fits } = analysis;
  const axis = cdfLatencyAxis(view, fits, measuredP99Ms, options.log);
  const tail = options.view === "ccdf";
  // A CCDF's log axis cannot show 0 (the slowest request): it stops at one request in all.
  const fractionMin = tail ? 1 / Math.max(10, view.totalCount) : 0;
  const shown = (fraction: number) => (tail ? 1 - fraction : fraction);
  const onAxis = (point: XY) => !tail || point.y >= fractionMin;
  return {
    ...axis,
    view: tail ? "ccdf" : "cdf",
    measured: view.cdf
      .map((point) => ({ x: point.valueMs, y: shown(point.fraction) }))
      .filter(onAxis),
    exponential: modelCurve(axis, (t) => shown(shiftedExponentialCdf(fits.exponential, t))).filter(
      onAxis,
    ),
    lognormal: modelCurve(axis, (t) => shown(lognormalCdf(fits.lognormal, t))).filter(onAxis),
    measuredP99Ms,
    fractionMin,
    fractionMax: 1,
  };
}
