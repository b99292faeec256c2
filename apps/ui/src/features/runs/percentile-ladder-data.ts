import type { LatencyStats } from "@taillab/api";
import type { LineColor } from "@taillab/report";
import {
  ninesOf,
  percentileLadder,
  percentileLadderFromStats,
  type PercentilePoint,
} from "@taillab/core";

/** One line to draw: a phase of a run, with its stored histogram when there is one. */
export interface LadderInput {
  label: string;
  /** Encoded latency histogram (PhaseHistograms.latency); null when none was stored. */
  histogram: string | null;
  /** Null when no request of the phase succeeded. */
  stats: LatencyStats | null;
  /** To match other charts of the same runs; default: the input's position. */
  color?: LineColor;
}

export interface LadderLine {
  label: string;
  color: LineColor;
  points: PercentilePoint[];
}

/** Where the nines axis is labelled, as in the report: p50, p90, p99, p99.9, p99.99. */
const LADDER_TICK_PERCENTILES = [50, 90, 99, 99.9, 99.99] as const;
export const LADDER_TICKS = LADDER_TICK_PERCENTILES.map((percentile) => ({
  nines: ninesOf(percentile),
  label: `p${percentile}`,
}));

/**
 * Each input's ladder, p50 … p99.99, from its histogram (nine rungs), or from its summary's five
 * figures when no histogram is at hand. A phase without a successful request has no line.
 */
export function ladderLines(inputs: readonly LadderInput[]): LadderLine[] {
  return inputs.flatMap((input, index) => {
    const fromHistogram = input.histogram ? percentileLadder(input.histogram) : [];
    const points =
      fromHistogram.length > 0
        ? fromHistogram
        : input.stats
          ? percentileLadderFromStats(input.stats)
          : [];
    return points.length > 0
      ? [{ label: input.label, color: input.color ?? { series: index }, points }]
      : [];
  });
}
