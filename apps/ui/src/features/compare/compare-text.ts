import { compareRuns } from "@taillab/core";
import { formatModeComparison, formatRunComparison } from "@taillab/report";
import type { ComparedRun } from "./compare-model.ts";
import { differsByMode } from "@taillab/core";

/**
 * The comparison as text to paste, as `taillab compare` prints it: every point, phase and metric
 * with its change against the baseline, and the modes side by side when they differ.
 */
export function compareText(runs: readonly ComparedRun[], baselineIndex: number): string {
  const summaries = runs.map((run) => run.detail.summary);
  const table = formatRunComparison(
    compareRuns(summaries, baselineIndex),
    runs.map((run) => run.label),
  );
  return differsByMode(summaries) ? `${table}\n${formatModeComparison(summaries)}` : table;
}
