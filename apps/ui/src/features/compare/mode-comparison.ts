import { RequestModeSchema, type RequestMode, type RunSummary } from "@taillab/api";
import type { ComparisonRow } from "@taillab/core";
import { phaseOnRow, type ComparedRun } from "./compare-model.ts";

/** One run's tail and its cost, for "normal vs hedged vs tied". */
export interface ModeEntry {
  runId: string;
  label: string;
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
 * The chosen point and phase of each run that has it, normal first, then hedged, tied and
 * adaptive (run order within a mode): the tail each mode reached and what its backups cost.
 */
export function modeComparison(runs: readonly ComparedRun[], row: ComparisonRow): ModeEntry[] {
  const entries = runs.flatMap((run, index): (ModeEntry & { order: number })[] => {
    const phase = phaseOnRow(run, row, index)?.phase;
    if (!phase?.latencyMs) return [];
    const summary = run.detail.summary;
    return [
      {
        order: MODE_ORDER.indexOf(summary.mode) * runs.length + index,
        runId: run.runId,
        label: run.label,
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
  return entries.sort((a, b) => a.order - b.order).map(({ order: _order, ...entry }) => entry);
}
