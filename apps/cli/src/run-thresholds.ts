import { writeFile } from "node:fs/promises";
import type { RunSummary } from "@taillab/api";
import { evaluateThresholds, parseThreshold, type ThresholdOutcome } from "@taillab/core";
import { renderThresholdsJunit } from "@taillab/report";

/** The run's thresholds (its spec's: the file's and --threshold's), judged on what it measured. */
export function judgeThresholds(summary: RunSummary): ThresholdOutcome[] {
  const thresholds = (summary.spec.thresholds ?? []).flatMap((text) => {
    // The spec was validated before the run: every expression parses.
    const parsed = parseThreshold(text);
    return parsed.ok ? [parsed.value] : [];
  });
  return evaluateThresholds(summary, thresholds);
}

/** `Thresholds: 2 of 3 held` and one line per threshold, for the end of a run's summary. */
export function formatThresholdLines(outcomes: readonly ThresholdOutcome[]): string {
  const held = outcomes.filter((outcome) => outcome.held).length;
  const lines = outcomes.map(
    ({ threshold, held, detail }) =>
      `  ${held ? "held  " : "FAILED"}  ${threshold.text}  ${detail}`,
  );
  return `Thresholds: ${held} of ${outcomes.length} held\n${lines.join("\n")}\n`;
}

export async function writeThresholdsJunit(
  path: string,
  summary: RunSummary,
  outcomes: readonly ThresholdOutcome[],
): Promise<void> {
  await writeFile(path, renderThresholdsJunit(summary.runId, outcomes, summary.finishedAt));
}
