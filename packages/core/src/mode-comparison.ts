import { RequestModeSchema, type RequestMode, type RunSummary } from "@taillab/api";
import type { ComparisonRow } from "./run-comparison.ts";

/** One run's tail and its cost at one compared point and phase, for "normal vs hedged vs tied". */
export interface ModeEntry {
  /** The run's place among the compared summaries. */
  runIndex: number;
  mode: RequestMode;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  /** Backups as a % of requests; 0 where none were sent (normal mode). */
  extraPct: number;
  wastedBytes: number;
  wonByBackup: number;
  cancelled: number;
}

/** Whether the compared runs differ by request mode: then the mode comparison is worth showing. */
export function differsByMode(summaries: readonly RunSummary[]): boolean {
  return new Set(summaries.map((summary) => summary.mode)).size > 1;
}

const MODE_ORDER = RequestModeSchema.options;

/**
 * A comparison row's phase of each run that has it, normal first, then hedged, tied and
 * adaptive (run order within a mode): the tail each mode reached and what its backups cost.
 */
export function modeComparison(summaries: readonly RunSummary[], row: ComparisonRow): ModeEntry[] {
  const entries = summaries.flatMap((summary, runIndex) => {
    const pointIndex = row.pointIndexes[runIndex];
    const phase =
      pointIndex === null || pointIndex === undefined
        ? undefined
        : summary.points[pointIndex]?.phases.find((entry) => entry.op === row.op);
    // A phase with no successful request has no tail to compare.
    if (!phase?.latencyMs) return [];
    return [
      {
        runIndex,
        mode: summary.mode,
        p50Ms: phase.latencyMs.p50,
        p99Ms: phase.latencyMs.p99,
        p999Ms: phase.latencyMs.p999,
        extraPct: phase.hedge?.extraPct ?? 0,
        wastedBytes: phase.hedge?.wastedBytes ?? 0,
        wonByBackup: phase.hedge?.wonByBackup ?? 0,
        cancelled: phase.hedge?.cancelled ?? 0,
      },
    ];
  });
  const order = (entry: ModeEntry) =>
    MODE_ORDER.indexOf(entry.mode) * summaries.length + entry.runIndex;
  return entries.sort((a, b) => order(a) - order(b));
}
