import {
  type RequestRecord,
  type RunCleanup,
  type RunExport,
  type RunIndexEntry,
  type RunSummary,
} from "@taillab/api";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { MigrationTable } from "./folder-migrations.ts";
import { recoverLibrary, scratchFolder } from "./folder-staging.ts";
import { entryAfterChange, syncIndex } from "./library-index.ts";
import { makeFolder } from "./make-folder.ts";
import type { RecordColumns } from "./record-columns.ts";
import type { RebuiltResults } from "./records-summary.ts";
import { defaultResultsDir } from "./results-dir.ts";
import { ResultsStoreError } from "./results-error.ts";
import { createRun, type CreateRunInput } from "./run-creation.ts";
import { editRun, renameRun, tagRun, untagRun } from "./run-edits.ts";
import { importExport, importFile, importFolder } from "./run-import.ts";
import { RunLibrary } from "./run-library.ts";
import {
  exportOf,
  intervalLogOf,
  loadRecords,
  rebuild,
  recordsOf,
  storedRun,
  type StoredRun,
} from "./run-reader.ts";
import { checkRemovable, removeRun } from "./run-removal.ts";
import { emptyTrashFolder, restoreFromTrash } from "./run-trash.ts";
import type { RunWriter } from "./run-writer.ts";
import { isCode, writeAllBytes, type WriteBytes } from "./write-atomically.ts";

export type { CreateRunInput } from "./run-creation.ts";
export type { StoredRun } from "./run-reader.ts";

/**
 * The results library behind one interface. Each job is a module of its own: the index
 * (library-index.ts), the writer's creation (run-creation.ts) and the writer (run-writer.ts), the
 * reader (run-reader.ts), the lock (run-lock.ts), edits (run-edits.ts), removal (run-removal.ts),
 * the trash (run-trash.ts), imports (run-import.ts), and staged folders and crash leftovers
 * (folder-staging.ts); they share run-library.ts. This file only wires them to the public API.
 */
export interface ResultsStore {
  readonly dir: string;
  createRun(input: CreateRunInput): Promise<RunWriter>;
  /**
   * Every run folder, newest first, with interrupted runs detected; rebuilds index.json as
   * needed. A damaged folder is listed too, with what is wrong in its `damage`.
   */
  list(): Promise<RunIndexEntry[]>;
  get(runId: string): Promise<StoredRun>;
  /** Refuses (InputError naming runId) an id no run folder has; a damaged folder is a run too. */
  requireRun(runId: string): Promise<void>;
  /** All records as columns (charts); torn frames at the end of the log are left out. */
  loadRecords(runId: string): Promise<RecordColumns>;
  /** The records one by one (CSV export), read frame by frame. */
  records(runId: string): AsyncIterable<{ pointIndex: number; record: RequestRecord }>;
  /**
   * The run's percentiles over time as an HdrHistogram interval log; for a run that never wrote
   * its summary, the phases it did not finish are rebuilt from its records.
   */
  intervalLog(runId: string): Promise<string>;
  /** A summary rebuilt from the records (see records-summary.ts), for runs that have none. */
  summarizeFromRecords(runId: string): Promise<RunSummary>;
  /**
   * For a run that never wrote its summary (interrupted, failed): the summary rebuilt from the
   * records, and a histogram set for every phase: the stored ones of the phases that ended, the
   * others (the phase the run died in) rebuilt from the same records as the summary.
   */
  rebuildFromRecords(runId: string): Promise<RebuiltResults>;
  rename(runId: string, name: string): Promise<RunIndexEntry>;
  tag(runId: string, tag: string): Promise<RunIndexEntry>;
  untag(runId: string, tag: string): Promise<RunIndexEntry>;
  annotate(runId: string, notes: string): Promise<RunIndexEntry>;
  /** Keeps what the last cleanup of the run's leftovers did (run.json's `cleanup`). */
  recordCleanup(runId: string, cleanup: RunCleanup): Promise<RunIndexEntry>;
  /**
   * Moves the run to `<dir>/.trash/`, damaged or not; refuses a run that is still being written.
   */
  remove(runId: string): Promise<void>;
  /**
   * Refuses, as remove would (InputError naming runId), a run that cannot be removed: no such
   * run, or one still being written. Lets a host check several runs before removing any.
   */
  checkRemovable(runId: string): Promise<void>;
  /** Moves the run last removed under this id back from the trash. */
  restore(runId: string): Promise<RunIndexEntry>;
  /** Deletes everything in the trash; returns how many entries went. */
  emptyTrash(): Promise<number>;
  /** Copies a run folder in (under a new id if its id is taken). */
  importFolder(path: string): Promise<RunIndexEntry>;
  /** Imports a RunExport JSON file (meta, summary, histograms; no records). */
  importExport(path: string): Promise<RunIndexEntry>;
  /**
   * Imports a file: a RunExport, or another benchmark's results (warp's .csv.zst, s3bench's
   * printed output, fio's json+ report) as a run marked imported. A file that cannot be read
   * whole imports nothing.
   */
  importFile(path: string): Promise<RunIndexEntry>;
  exportRun(runId: string): Promise<RunExport>;
  /**
   * A new empty folder in the library for a host's temporary files (a merge's downloads): on the
   * library's disk, not a /tmp that may be memory, and removed by the next open of the library
   * if its process died before removing it.
   */
  scratchFolder(): Promise<string>;
}

export interface ResultsStoreOptions {
  /** How bytes reach files; tests inject one that fails with ENOSPC. */
  writeBytes?: WriteBytes;
  /** Upgrades of older folders; tests inject one for a made-up older version. */
  migrations?: MigrationTable;
  /**
   * false: a missing folder is read as an empty library and is not made, so that a command that
   * only reads (a report, a listing) leaves nothing behind where no library was. Default true.
   */
  create?: boolean;
}

/** Opens (creating it if needed) a results folder, finishing any upgrade a crash cut short. */
export async function openResultsStore(
  dir: string = defaultResultsDir(),
  options: ResultsStoreOptions = {},
): Promise<ResultsStore> {
  const root = resolve(dir);
  const library = new RunLibrary(root, options.writeBytes ?? writeAllBytes, options.migrations);
  if (options.create === false && !(await stat(root).catch(() => null))) {
    // Nothing to recover in a library that is not there.
    return new FolderResultsStore(library);
  }
  try {
    await makeFolder(root);
  } catch (error) {
    const notAFolder = isCode(error, "EEXIST") || isCode(error, "ENOTDIR");
    const reason = notAFolder ? "it is a file, not a folder" : (error as Error).message;
    throw new ResultsStoreError(`cannot use ${root} as the results folder: ${reason}`, {
      cause: error,
    });
  }
  await recoverLibrary(library);
  return new FolderResultsStore(library);
}

class FolderResultsStore implements ResultsStore {
  readonly dir: string;
  private readonly library: RunLibrary;

  constructor(library: RunLibrary) {
    this.dir = library.dir;
    this.library = library;
  }

  createRun(input: CreateRunInput): Promise<RunWriter> {
    return createRun(this.library, input);
  }

  list(): Promise<RunIndexEntry[]> {
    return syncIndex(this.library, new Set());
  }

  async requireRun(runId: string): Promise<void> {
    await this.library.existingFolder(runId);
  }

  async get(runId: string): Promise<StoredRun> {
    return storedRun(await this.library.inspect(runId));
  }

  async loadRecords(runId: string): Promise<RecordColumns> {
    return loadRecords(await this.library.inspect(runId));
  }

  async *records(runId: string): AsyncGenerator<{ pointIndex: number; record: RequestRecord }> {
    yield* recordsOf(await this.library.inspect(runId));
  }

  async intervalLog(runId: string): Promise<string> {
    return intervalLogOf(await this.library.inspect(runId));
  }

  async summarizeFromRecords(runId: string): Promise<RunSummary> {
    return (await rebuild(await this.library.inspect(runId))).summary;
  }

  async rebuildFromRecords(runId: string): Promise<RebuiltResults> {
    return rebuild(await this.library.inspect(runId));
  }

  async exportRun(runId: string): Promise<RunExport> {
    return exportOf(await this.library.inspect(runId));
  }

  rename(runId: string, name: string): Promise<RunIndexEntry> {
    return renameRun(this.library, runId, name);
  }

  tag(runId: string, tag: string): Promise<RunIndexEntry> {
    return tagRun(this.library, runId, tag);
  }

  untag(runId: string, tag: string): Promise<RunIndexEntry> {
    return untagRun(this.library, runId, tag);
  }

  annotate(runId: string, notes: string): Promise<RunIndexEntry> {
    return editRun(this.library, runId, (meta) => ({ ...meta, notes }));
  }

  recordCleanup(runId: string, cleanup: RunCleanup): Promise<RunIndexEntry> {
    return editRun(this.library, runId, (meta) => ({ ...meta, cleanup }));
  }

  remove(runId: string): Promise<void> {
    return removeRun(this.library, runId);
  }

  checkRemovable(runId: string): Promise<void> {
    return checkRemovable(this.library, runId);
  }

  async restore(runId: string): Promise<RunIndexEntry> {
    await this.library.inTurn(`run:${runId}`, () => restoreFromTrash(this.dir, runId));
    return entryAfterChange(this.library, runId);
  }

  emptyTrash(): Promise<number> {
    return this.library.inTurn("trash", () => emptyTrashFolder(this.dir));
  }

  importFolder(path: string): Promise<RunIndexEntry> {
    return importFolder(this.library, path);
  }

  importExport(path: string): Promise<RunIndexEntry> {
    return importExport(this.library, path);
  }

  importFile(path: string): Promise<RunIndexEntry> {
    return importFile(this.library, path);
  }

  scratchFolder(): Promise<string> {
    return scratchFolder(this.library);
  }
}
