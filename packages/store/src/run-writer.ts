import {
  PhaseHistogramsSchema,
  RunSummarySchema,
  type PhaseHistograms,
  type RequestRecord,
  type RunMeta,
  type RunSummary,
} from "@taillab/api";
import { formatIntervalLogLine, type IntervalLogLine } from "@taillab/core";
import { join } from "node:path";
import { byPointThenOp } from "./record-columns.ts";
import { RecordLogWriter } from "./record-log-writer.ts";
import { parseWith, RUN_FILES } from "./run-folder.ts";
import { releaseLockToken, removeLockFile, type RunLock } from "./run-lock.ts";
import { runWriteError } from "./write-failure.ts";
import {
  appendToFile,
  syncDirectory,
  writeJsonAtomically,
  type WriteBytes,
} from "./write-atomically.ts";

/**
 * Writes one run while it goes on. Call `finish` or `fail` exactly once at the end; a process
 * that dies before either leaves the run to be found as interrupted.
 */
export interface RunWriter {
  readonly id: string;
  /** The run's folder. */
  readonly dir: string;
  /** Why writing stopped (e.g. the results disk is full), or null while all is well. */
  readonly error: Error | null;
  /**
   * Buffers records; they reach the records log within FLUSH_INTERVAL_MS, in call order, one
   * call never split across frames. After a write failure, records are dropped (see `error`).
   */
  appendRecords(pointIndex: number, records: readonly RequestRecord[]): void;
  /** Writes and fsyncs everything appended so far. */
  flush(): Promise<void>;
  /**
   * A phase's merged histograms and percentiles over time, as it ends: its records are fsynced
   * first, then histograms.json is replaced and the interval lines appended to intervals.hlog.
   */
  addPhase(histograms: PhaseHistograms, intervalLines: readonly IntervalLogLine[]): Promise<void>;
  /**
   * Seconds of a phase that goes on, as they are over: appended to intervals.hlog in turn with
   * the writer's other writes. A failed write ends the run as failed (see `error`).
   */
  addIntervals(intervalLines: readonly IntervalLogLine[]): void;
  /** The run completed (or was stopped and kept): records fsynced, summary.json written last. */
  finish(summary: RunSummary): Promise<void>;
  /** The run failed: records so far are kept, run.json says failed with this reason. */
  fail(error: string): Promise<void>;
}

/** What a writer needs from its store. */
export interface RunWriterHost {
  writeBytes: WriteBytes;
  /** Read-modify-write of run.json, in turn with the store's other changes to the run. */
  updateMeta(id: string, change: (meta: RunMeta) => RunMeta): Promise<void>;
  /** The run's index entry is out of date. */
  refreshIndex(id: string): Promise<void>;
}

export interface RunWriterOptions {
  id: string;
  dir: string;
  keyPrefix: string;
  lock: RunLock;
  host: RunWriterHost;
  onError?: ((error: Error) => void) | undefined;
}

type WriterState = "open" | "ending" | "ended";

export class FolderRunWriter implements RunWriter {
  readonly id: string;
  readonly dir: string;
  private readonly log: RecordLogWriter;
  private readonly lock: RunLock;
  private readonly host: RunWriterHost;
  private readonly onError: ((error: Error) => void) | undefined;
  private histograms: PhaseHistograms[] = [];
  private state: WriterState = "open";
  private failure: Error | null = null;
  private failing: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(options: RunWriterOptions, log: RecordLogWriter) {
    this.id = options.id;
    this.dir = options.dir;
    this.lock = options.lock;
    this.host = options.host;
    this.onError = options.onError;
    this.log = log;
  }

  static async open(options: RunWriterOptions): Promise<FolderRunWriter> {
    let writer: FolderRunWriter | null = null;
    const log = await RecordLogWriter.open({
      path: join(options.dir, RUN_FILES.records),
      keyPrefix: options.keyPrefix,
      writeBytes: options.host.writeBytes,
      onFailure: (error) => void writer?.failWith(error),
    });
    writer = new FolderRunWriter(options, log);
    return writer;
  }

  get error(): Error | null {
    return this.failure;
  }

  appendRecords(pointIndex: number, records: readonly RequestRecord[]): void {
    if (this.failure) return;
    this.checkOpen("add records");
    this.log.append(pointIndex, records);
  }

  async flush(): Promise<void> {
    if (!this.failure && this.state === "open") await this.log.sync();
    await this.failing;
    if (this.failure) throw this.failure;
  }

  addPhase(histograms: PhaseHistograms, intervalLines: readonly IntervalLogLine[]): Promise<void> {
    return this.inTurn(async () => {
      if (this.failure) throw this.failure;
      this.checkOpen("add a phase");
      const checked = parseWith(PhaseHistogramsSchema, histograms, `run ${this.id}: histograms`);
      await this.flush();
      const others = this.histograms.filter(
        (entry) => entry.pointIndex !== checked.pointIndex || entry.op !== checked.op,
      );
      const next = [...others, checked].sort(byPointThenOp);
      await this.writeOrFail(RUN_FILES.histograms, next);
      this.histograms = next;
      await this.appendIntervals(intervalLines);
    });
  }

  addIntervals(intervalLines: readonly IntervalLogLine[]): void {
    if (this.failure || intervalLines.length === 0) return;
    this.checkOpen("add intervals");
    // A failure is reported through onError and `error`, and fails the run's next step.
    void this.inTurn(async () => {
      if (!this.failure) await this.appendIntervals(intervalLines);
    }).catch(() => {});
  }

  finish(summary: RunSummary): Promise<void> {
    return this.inTurn(async () => {
      if (this.failure) throw this.failure;
      this.checkOpen("finish");
      const checked = parseWith(RunSummarySchema, summary, `run ${this.id}: summary`);
      if (checked.runId !== this.id) {
        throw new Error(`run ${this.id}: the summary is for run ${checked.runId}`);
      }
      this.state = "ending";
      try {
        await this.log.close();
      } catch (error) {
        throw await this.failAndReport(runWriteError(join(this.dir, RUN_FILES.records), error));
      }
      await this.failing;
      if (this.failure) throw this.failure;
      try {
        await this.host.updateMeta(this.id, (meta) => ({
          ...meta,
          status: checked.status,
          error: null,
          recordsWritten: this.log.recordsWritten,
        }));
      } catch (error) {
        throw await this.failAndReport(runWriteError(join(this.dir, RUN_FILES.meta), error));
      }
      // The commit point: a run is complete once its summary exists.
      await this.writeOrFail(RUN_FILES.summary, checked);
      await this.end();
    });
  }

  fail(error: string): Promise<void> {
    return this.inTurn(async () => {
      if (this.failing) return this.failing;
      if (this.state === "ended") return;
      this.failure = new Error(error);
      await this.endAsFailed(error);
    });
  }

  /** A write failed (the records log, or a file here): report it once and end the run failed. */
  private failWith(error: Error): Promise<void> {
    if (this.failing) return this.failing;
    this.failure = error;
    this.onError?.(error);
    this.failing = this.endAsFailed(error.message);
    return this.failing;
  }

  private async failAndReport(error: Error): Promise<Error> {
    await this.failWith(error);
    return this.failure ?? error;
  }

  /** Best effort: on a full disk even run.json may not be writable (the run is then interrupted). */
  private async endAsFailed(reason: string): Promise<void> {
    this.state = "ending";
    await this.log.close().catch(() => {});
    await this.host
      .updateMeta(this.id, (meta) => ({
        ...meta,
        status: "failed",
        error: reason,
        recordsWritten: this.log.recordsWritten,
      }))
      .catch(() => {});
    await this.end();
  }

  private async end(): Promise<void> {
    this.state = "ended";
    await removeLockFile(join(this.dir, RUN_FILES.lock));
    releaseLockToken(this.lock.token);
    await syncDirectory(this.dir).catch(() => {});
    // The index is a cache that list() rebuilds from the folders; failing to update it loses nothing.
    await this.host.refreshIndex(this.id).catch(() => {});
  }

  private async writeOrFail(file: string, value: unknown): Promise<void> {
    const path = join(this.dir, file);
    try {
      await writeJsonAtomically(path, value, this.host.writeBytes);
    } catch (error) {
      throw await this.failAndReport(runWriteError(path, error));
    }
  }

  private appendIntervals(intervalLines: readonly IntervalLogLine[]): Promise<void> {
    return this.appendOrFail(
      RUN_FILES.intervals,
      intervalLines.map(formatIntervalLogLine).join(""),
    );
  }

  private async appendOrFail(file: string, text: string): Promise<void> {
    if (text.length === 0) return;
    const path = join(this.dir, file);
    try {
      await appendToFile(path, Buffer.from(text), this.host.writeBytes);
    } catch (error) {
      throw await this.failAndReport(runWriteError(path, error));
    }
  }

  private checkOpen(action: string): void {
    if (this.state !== "open") {
      throw new Error(`run ${this.id} has ended; it cannot ${action} any more`);
    }
  }

  private inTurn<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }
}
