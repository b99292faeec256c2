import { modeComparison as coreModeComparison, type ComparisonRow } from "@taillab/core";
import type { ModeEntry as CoreModeEntry } from "@taillab/core";
import type { ComparedRun } from "./compare-model.ts";

/** Core's mode entry with the run's id and the name the comparison shows. */
export interface ModeEntry extends CoreModeEntry {
  runId: string;
  label: string;
  /**
   * Requests the embedded testbed's replicas began to serve in the whole run (setup included):
   * the servers' work, which a tied twin dropped before service does not add to. Null when the
   * run was not on the testbed or was recorded before it was counted.
   */
  served: number | null;
}

function servedOf(run: ComparedRun | undefined): number | null {
  const replicas = run?.detail.summary.testbed;
  if (!replicas || !replicas.every((replica) => replica.served !== undefined)) return null;
  return replicas.reduce((sum, replica) => sum + (replica.served ?? 0), 0);
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
    served: servedOf(runs[entry.runIndex]),
  }));
}
