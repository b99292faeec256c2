import { modeComparison as coreModeComparison, type ComparisonRow } from "@taillab/core";
import type { ModeEntry as CoreModeEntry } from "@taillab/core";
import type { ComparedRun } from "./compare-model.ts";

/** Core's mode entry with the run's id and the name the comparison shows. */
export interface ModeEntry extends CoreModeEntry {
  runId: string;
  label: string;
}

/** Core's mode comparison of the chosen point and phase, for the compared runs. */
export function modeComparison(runs: readonly ComparedRun[], row: ComparisonRow): ModeEntry[] {
  return coreModeComparison(
    runs.map((run) => run.detail.summary),
    row,
  ).map((entry) => ({
    ...entry,
    runId: runs[entry.runIndex]?.runId ?? "",
    label: runs[entry.runIndex]?.label ?? "",
  }));
}
