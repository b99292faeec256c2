import { lognormalCdf, shiftedExponentialCdf } from "@taillab/core";
import { cdfLatencyAxis, type BetterFit } from "@taillab/report";
import type { PhaseAnalysis } from "./phase-analysis.ts";

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

export interface CdfData {
  view: CdfView;
  measured: XY[];
  exponential: XY[];
  lognormal: XY[];
  logScale: boolean;
  better: BetterFit;
  measuredP99Ms: number;
  /** The latency axis (report's cdfLatencyAxis, as the HTML report's CDF draws it). */
  fromMs: number;
  toMs: number;
  /** The fraction axis: 0–1, or for a CCDF from 1 down to one request in all of them. */
  fractionMin: number;
  fractionMax: number;
}

/** Points per model curve: smooth at any size, cheap to draw. */
const MODEL_STEPS = 160;

function modelCurve(fromMs: number, toMs: number, logScale: boolean, cdf: (t: number) => number) {
  return Array.from({ length: MODEL_STEPS + 1 }, (_, index): XY => {
    const position = index / MODEL_STEPS;
    const x = logScale ? fromMs * (toMs / fromMs) ** position : fromMs + (toMs - fromMs) * position;
    return { x, y: cdf(x) };
  });
}

/**
 * The measured CDF (or CCDF) beside both fitted models on the report's CDF latency axis
 * (cdfLatencyAxis; `log` overrides its choice of scale), and which model fits better by
 * Kolmogorov–Smirnov distance.
 */
export function cdfChartData(
  analysis: PhaseAnalysis,
  measuredP99Ms: number,
  options: { log?: boolean; view?: CdfView } = {},
): CdfData {
  const { view, fits } = analysis;
  const { logScale, fromMs, toMs, better } = cdfLatencyAxis(view, fits, measuredP99Ms, options.log);
  const tail = options.view === "ccdf";
  // A CCDF's log axis cannot show 0 (the slowest request): it stops at one request in all.
  const fractionMin = tail ? 1 / Math.max(10, view.totalCount) : 0;
  const shown = (fraction: number) => (tail ? 1 - fraction : fraction);
  const onAxis = (point: XY) => !tail || point.y >= fractionMin;
  return {
    view: tail ? "ccdf" : "cdf",
    measured: view.cdf
      .map((point) => ({ x: point.valueMs, y: shown(point.fraction) }))
      .filter(onAxis),
    exponential: modelCurve(fromMs, toMs, logScale, (t) =>
      shown(shiftedExponentialCdf(fits.exponential, t)),
    ).filter(onAxis),
    lognormal: modelCurve(fromMs, toMs, logScale, (t) =>
      shown(lognormalCdf(fits.lognormal, t)),
    ).filter(onAxis),
    logScale,
    better,
    measuredP99Ms,
    fromMs,
    toMs,
    fractionMin,
    fractionMax: 1,
  };
}

/** A vertical marker line from the bottom to the top of the fraction axis. */
export function verticalMarker(
  x: number,
  data: Pick<CdfData, "fractionMin" | "fractionMax">,
): XY[] {
  return [
    { x, y: data.fractionMin },
    { x, y: data.fractionMax },
  ];
}

/** Where a CCDF's log axis is labelled: the nines, as a share slower and as a percentile. */
export const CCDF_TICKS: readonly { fraction: number; label: string }[] = [
  { fraction: 1, label: "100%" },
  { fraction: 0.1, label: "10% · p90" },
  { fraction: 0.01, label: "1% · p99" },
  { fraction: 0.001, label: "0.1% · p99.9" },
  { fraction: 0.0001, label: "0.01% · p99.99" },
  { fraction: 0.00001, label: "0.001% · p99.999" },
];
