import type { RunSummary } from "@taillab/api";
import { expandSweep } from "@taillab/core";
import { operationWord } from "./operation-words.ts";
import { formatPointParams } from "./s3bench-text.ts";

/** `12:00:03 UTC (3.9 s into the run)`: when a run's server stopped answering. */
export function serverLostMoment(at: string, sinceMs: number): string {
  return `${at.slice(11, 19)} UTC (${(sinceMs / 1000).toFixed(1)} s into the run)`;
}

/**
 * What a silence left unanswered: `8 requests in a row got no answer over 3.0 s, the last
 * ClientTimeout`; a lone client's `1 request got no answer over 60.0 s (ClientTimeout)`.
 */
export function unansweredText(failures: number, silentMs: number, lastError: string): string {
  const over = `got no answer over ${(silentMs / 1000).toFixed(1)} s`;
  return failures === 1
    ? `1 request ${over} (${lastError})`
    : `${failures} requests in a row ${over}, the last ${lastError}`;
}

/** A phase the silence ended early, in a sentence: `the PUT phase`, `the mixed workload`. */
export function phaseText(phase: string): string {
  if (phase === "mix") return "the mixed workload";
  if (phase === "prepare") return "the preparation of the workload's objects";
  return `the ${phase} phase`;
}

/**
 * What the server's silence did to a run, for the end of its text: the phases it ended early,
 * and whether the run ended there. Empty for a run whose server always answered.
 */
export function formatServerLost(summary: RunSummary): string {
  const losses = summary.serverLosses ?? [];
  const gone = summary.serverGone;
  const lines = losses.map((loss) => {
    const where = summary.pointCount > 1 ? ` of point ${loss.pointIndex + 1}` : "";
    const phase = phaseText(loss.phase);
    return `Server stopped answering at ${serverLostMoment(loss.at, loss.sinceMs)}: ${unansweredText(loss.failures, loss.silentMs, loss.lastError)}; ${phase}${where} ended early`;
  });
  if (gone) {
    lines.push(
      `It did not answer again (${gone.probeError}): the run ended there; ${gone.notRun.length} ${gone.notRun.length === 1 ? "phase" : "phases"} not run`,
    );
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

/**
 * An s3bench heading for each phase a gone server kept from running, saying so instead of
 * figures (there were none); a sweep's points that never started are headed by their
 * parameters, as the points that ran are.
 */
export function formatNotRunS3bench(summary: RunSummary): string {
  const gone = summary.serverGone;
  if (!gone || gone.notRun.length === 0) return "";
  const reason = `Not run: the server stopped answering at ${serverLostMoment(gone.at, gone.sinceMs)}`;
  const params = expandSweep(summary.spec);
  const ran = summary.points.length;
  const blocks = gone.notRun.map(({ pointIndex, phase, repetition }, index) => {
    const point = params[pointIndex];
    const previous = gone.notRun[index - 1];
    const newPoint = pointIndex >= ran && previous?.pointIndex !== pointIndex && point;
    const heading = newPoint ? `=== ${formatPointParams({ params: point })} ===\n` : "";
    const word = phase === "mix" ? "Mixed workload" : operationWord(phase);
    const ofRepetition =
      repetition === undefined ? "" : `, repetition ${repetition + 1} of ${summary.spec.repeat}`;
    return `${heading}Results Summary for ${word} Operation(s)${ofRepetition}\n${reason}\n`;
  });
  return blocks.join("\n");
}
