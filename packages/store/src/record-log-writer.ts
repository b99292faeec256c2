import type { RequestRecord } from "@taillab/api";
import { open, type FileHandle } from "node:fs/promises";
import { RecordFrameEncoder } from "./record-frame-encoder.ts";
import { assertLittleEndian, encodeLogHeader, LOG_HEADER_BYTES } from "./record-log-format.ts";
import { runWriteError } from "./write-failure.ts";
import { writeAllBytes, type WriteBytes } from "./write-atomically.ts";

/** Buffered records are written at least this often, and once this many are waiting. */
export const FLUSH_INTERVAL_MS = 200;
export const FLUSH_RECORDS = 8192;
/**
 * The log is fsynced at most this long after a write. A killed process loses nothing it wrote
 * (the OS has it); a power cut loses at most the last second of records and the buffered ones.
 */
export const FSYNC_INTERVAL_MS = 1000;

/** Creates an empty log (just its header), fsynced. */
export async function createRecordLog(
  path: string,
  writeBytes: WriteBytes = writeAllBytes,
): Promise<void> {
  const file = await open(path, "wx");
  try {
    await writeBytes(file, encodeLogHeader(), 0);
    await file.sync();
  } finally {
    await file.close();
  }
}

export interface RecordLogWriterOptions {
  path: string;
  keyPrefix: string;
  writeBytes?: WriteBytes;
  /** Called once, when a write fails; later records are dropped. */
  onFailure: (error: Error) => void;
}

/**
 * Appends records to a run's records.log. `append` only encodes; whole frames are written in
 * order by one chain of writes, every FLUSH_INTERVAL_MS or when FLUSH_RECORDS are waiting, so the
 * caller (the thread that receives worker reports) never waits for the disk.
 */
export class RecordLogWriter {
  private readonly path: string;
  private readonly file: FileHandle;
  private readonly writeBytes: WriteBytes;
  private readonly onFailure: (error: Error) => void;
  private readonly encoder: RecordFrameEncoder;
  private readonly timer: NodeJS.Timeout;
  private chain: Promise<void> = Promise.resolve();
  private flushQueued = false;
  private length: number;
  private lastSyncMs = Date.now();
  private unsynced = false;
  private closed = false;
  private writtenRecords = 0;
  private droppedRecords = 0;
  failure: Error | null = null;

  private constructor(options: RecordLogWriterOptions, file: FileHandle, length: number) {
    this.path = options.path;
    this.file = file;
    this.length = length;
    this.writeBytes = options.writeBytes ?? writeAllBytes;
    this.onFailure = options.onFailure;
    this.encoder = new RecordFrameEncoder(options.keyPrefix);
    this.timer = setInterval(() => this.tick(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Opens a log created by createRecordLog, to append after its header. */
  static async open(options: RecordLogWriterOptions): Promise<RecordLogWriter> {
    assertLittleEndian();
    const file = await open(options.path, "r+");
    return new RecordLogWriter(options, file, LOG_HEADER_BYTES);
  }

  /** Records written to the file so far (flushed, not necessarily fsynced). */
  get recordsWritten(): number {
    return this.writtenRecords;
  }

  /** Records dropped because an earlier write failed. */
  get recordsDropped(): number {
    return this.droppedRecords;
  }

  append(pointIndex: number, records: readonly RequestRecord[]): void {
    if (this.closed) throw new Error(`${this.path} is closed; no more records can be added`);
    if (this.failure) {
      this.droppedRecords += records.length;
      return;
    }
    this.encoder.add(pointIndex, records);
    if (this.encoder.pendingCount >= FLUSH_RECORDS && !this.flushQueued) void this.flush();
  }

  /** Writes the buffered records; resolves when they are in the file (not fsynced). */
  flush(): Promise<void> {
    this.flushQueued = true;
    return this.enqueue(async () => {
      this.flushQueued = false;
      await this.writePending();
    });
  }

  /** Writes the buffered records and fsyncs: everything appended so far is durable. */
  sync(): Promise<void> {
    return this.enqueue(async () => {
      await this.writePending();
      await this.syncFile();
    });
  }

  /** Flushes, fsyncs and closes; later appends throw. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.sync();
    await this.chain;
    await this.file.close();
  }

  private tick(): void {
    if (this.encoder.pendingCount > 0) {
      if (!this.flushQueued) void this.flush();
    } else if (this.unsynced && Date.now() - this.lastSyncMs >= FSYNC_INTERVAL_MS) {
      void this.enqueue(() => this.syncFile());
    }
  }

  /** Runs tasks one after another; a failed task records the failure and the chain goes on. */
  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(async () => {
      if (this.failure) return;
      try {
        await task();
      } catch (error) {
        this.fail(error);
      }
    });
    this.chain = run;
    return run;
  }

  private async writePending(): Promise<void> {
    const frames = this.encoder.takeFrames();
    if (!frames) return;
    try {
      await this.writeBytes(this.file, frames.bytes, this.length);
    } catch (error) {
      this.droppedRecords += frames.records;
      // A partial frame would fail its checksum anyway; cutting it keeps the file tidy.
      await this.file.truncate(this.length).catch(() => {});
      throw error;
    }
    this.length += frames.bytes.length;
    this.writtenRecords += frames.records;
    this.unsynced = true;
    if (Date.now() - this.lastSyncMs >= FSYNC_INTERVAL_MS) await this.syncFile();
  }

  private async syncFile(): Promise<void> {
    if (!this.unsynced) return;
    await this.file.sync();
    this.unsynced = false;
    this.lastSyncMs = Date.now();
  }

  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure = runWriteError(this.path, error);
    this.droppedRecords += this.encoder.takeFrames()?.records ?? 0;
    this.onFailure(this.failure);
  }
}
