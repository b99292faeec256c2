import type { PhaseSummary, SteadyOutcome } from "@taillab/api";

/**
 * One line per repetition of a phase run until steady: "stopped after 8,412 requests (3.1 s):
 * p99 steady within ±3.2 %", or "ran to its maximum, 20,000 requests (9.8 s): p99 not steady
 * within ±5 % (its interval ±12.4 %)".
 */
export function formatSteadyOutcome(outcome: SteadyOutcome): string {
  const label = `p${outcome.percentile}`;
  const requests = outcome.requests.toLocaleString("en-US");
  const seconds = (outcome.elapsedMs / 1000).toFixed(1);
  if (outcome.steady) {
    return `stopped after ${requests} requests (${seconds} s): ${label} steady within ±${outcome.withinPercent} %`;
  }
  const spread = outcome.withinPercent === null ? "open-ended" : `±${outcome.withinPercent} %`;
  return `ran to its maximum, ${requests} requests (${seconds} s): ${label} not steady within ±${outcome.tolerancePercent} % (its interval ${spread})`;
}

/** The s3bench-style block's lines for a phase run until steady; none otherwise. */
export function untilSteadyLines(phase: PhaseSummary): string[] {
  return (phase.untilSteady ?? []).map(
    (outcome) => `Until steady:      ${formatSteadyOutcome(outcome)}`,
  );
}
