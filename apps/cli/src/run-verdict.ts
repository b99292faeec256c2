import { cleanupLeftNothing, type RunCleanup, type RunSummary } from "@taillab/api";
import { ErrorCodeCounts, type ShardLeftovers, type ThresholdOutcome } from "@taillab/core";
import { EXIT } from "./exit-codes.ts";

/** Where a run's objects are: its bucket and `<prefix>/<runId>/`. */
export interface RunPlace {
  bucket: string;
  keyPrefix: string;
}

export interface RunVerdict {
  code: number;
  /** The last line: why the exit code is not 0 (none for 0). */
  line: string | null;
}

/**
 * The exit code of a run and the line that says why: a stop wins (130), then what the cleanup
 * left on the server (4), then failed thresholds (99), then request errors (1), unless an
 * "errors" threshold judged them.
 */
export function runVerdict(
  summary: RunSummary,
  cleanup: RunCleanup | null,
  thresholds: readonly ThresholdOutcome[] = [],
): RunVerdict {
  const place = {
    bucket: summary.spec.bucket,
    keyPrefix: `${summary.spec.keyPrefix}/${summary.runId}/`,
  };
  const left =
    cleanup && !cleanupLeftNothing(cleanup)
      ? `the cleanup left ${describeLeftovers(cleanup, place)}; taillab cleanup ${summary.runId} removes them`
      : null;
  const requestErrors = describeRequestErrors(summary);
  const gone = cleanup?.bucketGone
    ? `bucket ${summary.spec.bucket} no longer exists, so nothing of the run is left in it`
    : null;
  const failed = requestErrors && gone ? `${requestErrors}; ${gone}` : requestErrors;
  if (summary.status === "stopped") {
    return {
      code: EXIT.interrupted,
      line: `exit ${EXIT.interrupted} (stopped): ${left ?? describeStop(summary, cleanup)}`,
    };
  }
  if (left) {
    return {
      code: EXIT.leftovers,
      line: `exit ${EXIT.leftovers}: ${left}${failed ? `; ${failed}` : ""}`,
    };
  }
  const failedThresholds = thresholds.filter((outcome) => !outcome.held);
  if (failedThresholds.length > 0) {
    const which = failedThresholds.map((outcome) => outcome.threshold.text).join(", ");
    return {
      code: EXIT.thresholds,
      line: `exit ${EXIT.thresholds}: ${plural(failedThresholds.length, "threshold")} of ${thresholds.length} failed: ${which}`,
    };
  }
  const errorsJudged = thresholds.some(({ threshold }) =>
    ["errorCount", "errorPercent"].includes(threshold.figure.kind),
  );
  if (failed && !errorsJudged) {
    return { code: EXIT.requestErrors, line: `exit ${EXIT.requestErrors}: ${failed}` };
  }
  return { code: EXIT.ok, line: null };
}

/**
 * How far a stopped run got and what its cleanup removed, when it left nothing: `1 of 2 points
 * finished; the cleanup removed 8414 objects`.
 */
function describeStop(summary: RunSummary, cleanup: RunCleanup | null): string {
  const finished = summary.points.filter((point) => point.finished).length;
  const got = `${finished} of ${summary.pointCount} points finished`;
  if (!cleanup) return got;
  const { objects, uploads, buckets } = cleanup.removed;
  const removed = [
    plural(objects, "object"),
    ...(uploads > 0 ? [plural(uploads, "open multipart upload")] : []),
    ...(buckets > 0 ? [plural(buckets, "bucket")] : []),
  ];
  return `${got}; the cleanup removed ${removed.join(", ")}`;
}

/** `812 of 20000 requests failed (ECONNREFUSED 790, ClientTimeout 22)`, or null when none did. */
function describeRequestErrors(summary: RunSummary): string | null {
  const phases = summary.points.flatMap((point) => point.phases);
  const failed = phases.reduce((sum, phase) => sum + phase.errors, 0);
  if (failed === 0) return null;
  const requests = phases.reduce((sum, phase) => sum + phase.requests, 0);
  const byCode = new ErrorCodeCounts();
  for (const phase of phases) byCode.addAll(phase.errorsByCode);
  return `${failed} of ${requests} requests failed (${formatCodeCounts(byCode.toObject())})`;
}

/**
 * `6000 objects under taillab/r/ in bucket loadgen, 1 open multipart upload (ECONNREFUSED
 * 6001)`: what a cleanup could not remove, and why.
 */
export function describeLeftovers(cleanup: RunCleanup, place: RunPlace): string {
  const parts = [
    ...(cleanup.objectsLeft > 0
      ? [
          `${plural(cleanup.objectsLeft, "object")} under ${place.keyPrefix} in bucket ${place.bucket}`,
        ]
      : []),
    ...(cleanup.uploadsLeft > 0 ? [plural(cleanup.uploadsLeft, "open multipart upload")] : []),
    ...(cleanup.bucketsLeft.length > 0
      ? [
          `${cleanup.bucketsLeft.length === 1 ? "bucket" : "buckets"} ${cleanup.bucketsLeft.join(", ")}`,
        ]
      : []),
    ...(cleanup.unchecked.length > 0
      ? [`maybe ${cleanup.unchecked.join(" and ")} it could not list`]
      : []),
  ];
  const codes = formatCodeCounts(cleanup.errorsByCode);
  // A cleanup that did not get to its end (kept as pending) has no codes: say that instead.
  return `${parts.join(", ")} (${codes || "its cleanup did not finish"})`;
}

/** "left on the server: 504 objects of shard 2 (killed mid-run) under taillab/RUN-2/ …" */
export function killedShardLines(
  runId: string,
  bucket: string,
  leftovers: readonly ShardLeftovers[],
): string[] {
  return leftovers.map(
    ({ index, objects, keyPrefix }) =>
      `left on the server: ${plural(objects, "object")} of shard ${index} (killed mid-run, before its cleanup) under ${keyPrefix} in bucket ${bucket}; taillab cleanup ${runId} removes them`,
  );
}

/** The most frequent codes first: `ECONNREFUSED 790, ClientTimeout 22, …`. */
function formatCodeCounts(byCode: Record<string, number>): string {
  const sorted = Object.entries(byCode).sort(([, a], [, b]) => b - a);
  const shown = sorted.slice(0, 4).map(([code, count]) => `${code} ${count}`);
  return sorted.length > 4 ? `${shown.join(", ")}, …` : shown.join(", ");
}

/** `1 object`, `20 objects`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
