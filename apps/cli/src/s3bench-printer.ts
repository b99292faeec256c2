import type { Operation, PointSummary, RequestRecord, RunNotice } from "@taillab/api";
import type { RunStart } from "@taillab/backend";
import { expandSweep } from "@taillab/core";
import {
  s3benchCleanupText,
  s3benchOpeningText,
  s3benchResultsText,
  s3benchRunningLine,
  s3benchVerboseLine,
  type S3benchParams,
} from "@taillab/report";

/** A test (s3bench's word for a phase) under way: what -verbose lines count. */
interface OpenTest {
  op: Operation;
  startUs: number;
  answered: number;
  bytes: number;
}

/**
 * A run's output as s3bench prints it, as the run goes (packages/report's s3bench-run-text.ts
 * has every format): each point is one s3bench run, its parameters and "Done" when its first
 * request is about to leave, "Running Write test..." as each test starts (-verbose: a line per
 * answer), then the parameters again, each test's results and the cleanup. The cleanup phase is
 * s3bench's cleanup, not a test. "Done" gives the time from the command's start (a sweep: the
 * previous point's end) to the point's first request: testbed, checks and worker threads.
 */
export class S3benchPrinter {
  readonly #verbose: boolean;
  readonly #write: (text: string) => void;
  #preparingSinceMs = performance.now();
  #testbedUrls: readonly string[] = [];
  #start: RunStart | null = null;
  #openedPoint = -1;
  #test: OpenTest | null = null;
  /** The point's failed cleanup DELETEs by key number, and its first key's number. */
  #deleteFailures = new Map<number, string>();
  #firstKey = Infinity;

  constructor(options: { verbose: boolean; write: (text: string) => void }) {
    this.#verbose = options.verbose;
    this.#write = options.write;
  }

  onNotice(notice: RunNotice): void {
    if (notice.code === "testbedStarted") this.#testbedUrls = notice.params.urls;
  }

  onRunStart(start: RunStart): void {
    this.#start = start;
  }

  onPhaseStart(pointIndex: number, op: Operation): void {
    this.#openPoint(pointIndex);
    this.#closeTest();
    if (op === "DELETE") return;
    const startUs = (Date.now() - (this.#start?.runStartEpochMs ?? Date.now())) * 1000;
    this.#test = { op, startUs, answered: 0, bytes: 0 };
    this.#write(s3benchRunningLine(op));
  }

  onRecords(records: readonly RequestRecord[]): void {
    const answers = records.filter((record) => record.winner && record.measured);
    for (const record of answers) if (record.op === "DELETE") this.#noteDelete(record);
    const test = this.#test;
    if (!this.#verbose || !test) return;
    const samples = this.#paramsOf(this.#openedPoint).samples;
    // s3bench prints its answers as they come: a batch's in the order they ended.
    const answered = answers
      .filter((record) => record.op === test.op)
      .sort((a, b) => a.endUs - b.endUs);
    for (const record of answered) {
      test.answered += 1;
      if (record.error === null) test.bytes += record.bytes;
      this.#write(
        s3benchVerboseLine({
          op: record.op,
          latencyMs: (record.endUs - record.intendedStartUs) / 1000,
          done: test.answered,
          samples,
          bytesSoFar: test.bytes,
          // A microsecond at least: s3bench's time since the test began is never zero.
          elapsedMs: Math.max(record.endUs - test.startUs, 1) / 1000,
          error: record.error,
        }),
      );
    }
  }

  /** The cleanup deletes keys firstKey … firstKey + samples − 1: s3bench's 0 … samples − 1. */
  #noteDelete(record: RequestRecord): void {
    const keyNumber = Number(/(\d+)$/.exec(record.key)?.[1]);
    if (!Number.isInteger(keyNumber)) return;
    this.#firstKey = Math.min(this.#firstKey, keyNumber);
    if (record.error !== null) this.#deleteFailures.set(keyNumber, record.error);
  }

  onPointDone(pointIndex: number, point: PointSummary): void {
    this.#openPoint(pointIndex);
    this.#closeTest();
    const params = { ...this.#paramsOf(pointIndex), ...point.params };
    const tests = point.phases.filter((phase) => phase.op !== "DELETE");
    this.#write(s3benchResultsText(params, tests));
    const cleanup = point.phases.find((phase) => phase.op === "DELETE");
    if (cleanup) {
      const failures = new Map(
        [...this.#deleteFailures].map(([key, code]) => [key - this.#firstKey, code]),
      );
      this.#write(
        s3benchCleanupText({
          samples: point.params.samples,
          deleted: cleanup.requests - cleanup.errors,
          durationMs: cleanup.durationMs,
          failures,
        }),
      );
    }
    this.#deleteFailures = new Map();
    this.#firstKey = Infinity;
    this.#preparingSinceMs = performance.now();
  }

  /** A point's opening, once, when its first test starts (or it ends without one). */
  #openPoint(pointIndex: number): void {
    if (pointIndex === this.#openedPoint) return;
    this.#openedPoint = pointIndex;
    const preparationMs = performance.now() - this.#preparingSinceMs;
    this.#write(s3benchOpeningText(this.#paramsOf(pointIndex), preparationMs));
  }

  /** The blank line s3bench prints after a test's last request. */
  #closeTest(): void {
    if (!this.#test) return;
    this.#test = null;
    this.#write("\n");
  }

  #paramsOf(pointIndex: number): S3benchParams {
    const spec = this.#start?.spec;
    if (!spec) throw new Error("s3bench's text: a point before the run started");
    const point = expandSweep(spec)[pointIndex];
    if (!point) throw new Error(`s3bench's text: the run has no point ${pointIndex}`);
    return {
      ...point,
      endpointUrls: spec.endpoints?.map((endpoint) => endpoint.url) ?? this.#testbedUrls,
      bucket: spec.bucket,
      objectNamePrefix: spec.keyPrefix,
      verbose: this.#verbose,
    };
  }
}
