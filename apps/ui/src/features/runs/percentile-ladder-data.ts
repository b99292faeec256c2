import type { LatencyStats } from "@taillab/api";
import type { LineColor } from "@taillab/report";
import { phaseLadder, type PercentilePoint } from "@taillab/core";

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

/**
 * Each input's ladder (core's phaseLadder, as the report draws it). A phase without a successful
 * request has no line.
 */
export function ladderLines(inputs: readonly LadderInput[]): LadderLine[] {
  return inputs.flatMap((input, index) => {
    const points = phaseLadder(input.histogram, input.stats);
    return points.length > 0
      ? [{ label: input.label, color: input.color ?? { series: index }, points }]
      : [];
  });
}
