import type { PhaseSummary, PointSummary } from "@taillab/api";

/** One figure (throughput, ops/s…) of a point that was run k times. */
export interface RepetitionStats {
  runs: number;
  method: "trimmed-mean" | "mean";
  /** The trimmed mean (k ≥ 3) or the plain mean (k < 3). */
  value: number;
  /** The values averaged, in the order given. */
  kept: number[];
  /** The one lowest and one highest value left out (empty for a plain mean). */
  dropped: number[];
  /** Spread of the kept values. */
  min: number;
  max: number;
  /** Sample standard deviation (n − 1) of the kept values; 0 for a single value. */
  stdev: number;
  /** Why the figure is not a trimmed mean, when it is not. */
  note: string | null;
}

/**
 * The cloud-testing paper's rule for repeated runs: run a point k times, drop the one highest
 * and one lowest result, average the rest (with 5 runs: the middle 3). With fewer than 3 runs
 * nothing can be dropped and the plain mean is given, with a note saying so.
 */
export function repetitionStats(values: readonly number[]): RepetitionStats {
  if (values.length === 0) throw new RangeError("repetitionStats: no runs to summarise");
  for (const value of values) {
    if (!Number.isFinite(value)) {
      throw new RangeError(`repetitionStats: every run needs a finite value, got ${value}`);
    }
  }
  const trimmed = values.length >= 3;
  const kept = [...values];
  let dropped: number[] = [];
  if (trimmed) {
    const lowest = kept.indexOf(Math.min(...kept));
    const [low] = kept.splice(lowest, 1) as [number];
    const highest = kept.indexOf(Math.max(...kept));
    const [high] = kept.splice(highest, 1) as [number];
    dropped = [low, high];
  }
  const mean = kept.reduce((sum, value) => sum + value, 0) / kept.length;
  const variance =
    kept.length > 1
      ? kept.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (kept.length - 1)
      : 0;
  return {
    runs: values.length,
    method: trimmed ? "trimmed-mean" : "mean",
    value: mean,
    kept,
    dropped,
    min: Math.min(...kept),
    max: Math.max(...kept),
    stdev: Math.sqrt(variance),
    note: trimmed
      ? null
      : `only ${values.length} run${values.length === 1 ? "" : "s"}: plain mean, nothing dropped (a trimmed mean needs at least 3)`,
  };
}

export interface RepeatedPhaseStats {
  throughputMBps: RepetitionStats;
  opsPerSec: RepetitionStats;
  errors: RepetitionStats;
}

/**
 * Rates of the same phase over repeated runs. Latency percentiles are deliberately absent:
 * percentiles are never averaged — merge the runs' histograms and read percentiles from that.
 */
export function repeatedPhaseStats(phases: readonly PhaseSummary[]): RepeatedPhaseStats {
  const ops = new Set(phases.map((phase) => phase.op));
  if (ops.size > 1) {
    throw new RangeError(
      `repeatedPhaseStats: phases of different operations (${[...ops].join(", ")})`,
    );
  }
  return {
    throughputMBps: repetitionStats(phases.map((phase) => phase.throughputMBps)),
    opsPerSec: repetitionStats(phases.map((phase) => phase.opsPerSec)),
    errors: repetitionStats(phases.map((phase) => phase.errors)),
  };
}

/**
 * What a point run more than once says of its runs beside their merged phases: each run's own
 * phases, and per operation (in the order they first ran) the trimmed means across the runs.
 * The engine's summary and the one the results store rebuilds from records both come from here.
 */
export function repetitionFigures(
  repetitions: readonly (readonly PhaseSummary[])[],
): Required<Pick<PointSummary, "repetitions" | "repetitionStats">> {
  const ops = [...new Set(repetitions.flatMap((phases) => phases.map((phase) => phase.op)))];
  return {
    repetitions: repetitions.map((phases) => ({ phases: [...phases] })),
    repetitionStats: ops.map((op) => ({
      op,
      ...repeatedPhaseStats(
        repetitions.flatMap((phases) => phases.filter((phase) => phase.op === op)),
      ),
    })),
  };
}
