/**
 * s3bench's own output, byte for byte, with TailLab's figures in it: what a run started with
 * s3bench's flags prints, so scripts that parse s3bench's text and reports that quote it keep
 * working. Every format below is s3bench's (github.com/igneous-systems/s3bench, s3bench.go at
 * commit 7b81001); the line numbers cited are that file's.
 */
import type { LatencyStats, Operation, PhaseSummary, RunPointParams } from "@taillab/api";
import { goDurationOfMs, goFixed } from "./go-format.ts";
import { operationWord } from "./operation-words.ts";

/** What s3bench's Params.String() shows: the run's parameters as given. */
export interface S3benchParams extends RunPointParams {
  endpointUrls: readonly string[];
  bucket: string;
  objectNamePrefix: string;
  verbose: boolean;
}

const MIB = 1024 * 1024;
/** s3bench deletes in batches of this many keys (its commitSize, the most DeleteObjects takes). */
const S3BENCH_DELETE_BATCH = 1000;

/** Params.String() (lines 250–260). */
export function s3benchParamsText(params: S3benchParams): string {
  return [
    "Test parameters",
    // Go prints a []string with %s as "[a b]".
    `endpoint(s):      [${params.endpointUrls.join(" ")}]`,
    `bucket:           ${params.bucket}`,
    `objectNamePrefix: ${params.objectNamePrefix}`,
    `objectSize:       ${goFixed(params.objectSizeBytes / MIB, 4)} MB`,
    `numClients:       ${params.clients}`,
    `numSamples:       ${params.samples}`,
    // s3bench formats its bool with %d, which Go prints as this; scripts may expect it.
    `verbose:       %!d(bool=${params.verbose})`,
    "",
  ].join("\n");
}

/**
 * What s3bench prints before its first request (lines 68–81): the parameters, then its sample
 * data "Done" after `preparationMs` (TailLab's time from the start to the first request).
 */
export function s3benchOpeningText(params: S3benchParams, preparationMs: number): string {
  return `${s3benchParamsText(params)}\n\nGenerating in-memory sample data... Done (${goDurationOfMs(preparationMs)})\n\n`;
}

/** Before each test (lines 91 and 95). */
export function s3benchRunningLine(op: Operation): string {
  return `Running ${operationWord(op)} test...\n`;
}

/** -verbose: one answered request (lines 162–165). */
export interface S3benchCompletion {
  op: Operation;
  latencyMs: number;
  /** This request's number in its test, from 1, and the test's requests. */
  done: number;
  samples: number;
  /** Payload of the test's successful requests so far, and the time since the test began. */
  bytesSoFar: number;
  elapsedMs: number;
  error: string | null;
}

export function s3benchVerboseLine(completion: S3benchCompletion): string {
  const { op, latencyMs, done, samples, bytesSoFar, elapsedMs, error } = completion;
  const mbPerSecond = bytesSoFar / MIB / (elapsedMs / 1000);
  const errorText = error === null ? "" : `, error: ${error}`;
  return `${operationWord(op)} operation completed in ${goFixed(latencyMs / 1000, 2)}s (${done}/${samples}) - ${goFixed(mbPerSecond, 2)}MB/s${errorText}\n`;
}

const seconds = (ms: number) => `${goFixed(ms / 1000, 3)} s`;

/** The figures s3bench prints: TailLab's own, or those an imported s3bench run printed. */
function s3benchFigures(phase: PhaseSummary): S3benchFigures | null {
  if (phase.latencyMs) return phase.latencyMs;
  const { max, p99, p90, p75, p50, p25, min } = phase.toolLatencyMs ?? {};
  if (max === undefined || p99 === undefined || p90 === undefined || p75 === undefined) return null;
  if (p50 === undefined || p25 === undefined || min === undefined) return null;
  return { max, p99, p90, p75, p50, p25, min };
}

type S3benchFigures = Pick<LatencyStats, "max" | "p99" | "p90" | "p75" | "p50" | "p25" | "min">;

/** Result.String() (lines 271–288): percentile lines only when a request succeeded. */
export function s3benchResultText(phase: PhaseSummary): string {
  const word = operationWord(phase.op);
  const lines = [
    `Results Summary for ${word} Operation(s)`,
    `Total Transferred: ${goFixed(phase.bytes / MIB, 3)} MB`,
    `Total Throughput:  ${goFixed(phase.throughputMBps, 2)} MB/s`,
    `Total Duration:    ${seconds(phase.durationMs)}`,
    `Number of Errors:  ${phase.errors}`,
  ];
  const latency = s3benchFigures(phase);
  if (latency) {
    lines.push(
      "------------------------------------",
      `${word} times Max:       ${seconds(latency.max)}`,
      `${word} times 99th %ile: ${seconds(latency.p99)}`,
      `${word} times 90th %ile: ${seconds(latency.p90)}`,
      `${word} times 75th %ile: ${seconds(latency.p75)}`,
      `${word} times 50th %ile: ${seconds(latency.p50)}`,
      `${word} times 25th %ile: ${seconds(latency.p25)}`,
      `${word} times Min:       ${seconds(latency.min)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * After the tests (lines 100–104): the parameters again, then each test's summary, each followed
 * by Println's newline and separated by Println()'s.
 */
export function s3benchResultsText(params: S3benchParams, tests: readonly PhaseSummary[]): string {
  const results = tests.map((phase) => `${s3benchResultText(phase)}\n`).join("\n");
  return `${s3benchParamsText(params)}\n\n${results}`;
}

/** What the cleanup did, as s3bench's batches of keys 0 … samples − 1 report it. */
export interface S3benchCleanup {
  samples: number;
  /** Objects deleted, and how long the cleanup took. */
  deleted: number;
  durationMs: number;
  /** Failed DELETEs by the key's number in the run (0 … samples − 1): each one's error code. */
  failures: ReadonlyMap<number, string>;
}

/**
 * The cleanup (lines 107–140). s3bench sends a DeleteObjects per 1000 keys; TailLab deletes key
 * by key, so a batch "Failed" when any of its keys did, saying how many and why.
 */
export function s3benchCleanupText(cleanup: S3benchCleanup): string {
  const { samples, deleted, durationMs, failures } = cleanup;
  const lines = ["", `Cleaning up ${samples} objects...`];
  for (let first = 0; first < samples; first += S3BENCH_DELETE_BATCH) {
    const last = Math.min(first + S3BENCH_DELETE_BATCH, samples) - 1;
    const codes = new Map<string, number>();
    for (const [key, code] of failures) {
      if (key >= first && key <= last) codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    const failed = [...codes.values()].reduce((sum, count) => sum + count, 0);
    const outcome =
      failed === 0
        ? "Succeeded"
        : `Failed (${failed} of ${last - first + 1} deletes failed: ${[...codes]
            .map(([code, count]) => `${code} ${count}`)
            .join(", ")})`;
    lines.push(
      `Deleting a batch of ${last - first + 1} objects in range {${first}, ${last}}... ${outcome}`,
    );
  }
  lines.push(
    `Successfully deleted ${deleted}/${samples} objects in ${goDurationOfMs(durationMs)}`,
    "",
  );
  return lines.join("\n");
}
