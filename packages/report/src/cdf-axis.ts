import { fitHolds, type HistogramView, type LatencyModelFits } from "@taillab/core";
import { LOG_AXIS_RATIO, wantsLogAxis } from "./chart-ticks.ts";

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
