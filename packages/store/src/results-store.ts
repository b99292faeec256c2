import {
  InputError,
  RUN_FOLDER_SCHEMA_VERSION,
  RunExportSchema,
  RunMetaSchema,
  runNameProblem,
  type PhaseHistograms,
  type RequestRecord,
  type RunEnvironment,
  type RunCleanup,
  type RunDamage,
  type RunExport,
  type RunIndexEntry,
  type RunMeta,
  type RunSpec,
  type RunStatus,
  type RunSummary,
} from "@taillab/api";
import {
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
} from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  refuseNewerVersion,
  upgradeDocuments,
  type FolderDocuments,
  type MigrationTable,
} from "./folder-migrations.ts";
import {
  ELBENCHO_JSON_START,
  formatIntervalLogLine,
  intervalLogHeader,
  intervalLogWithout,
} from "@taillab/core";
import { byPointThenOp, recordAt, type RecordColumns } from "./record-columns.ts";
import {
  countLogRecords,
  decodeRecordLog,
  loadRecordLog,
  readRecordBatches,
} from "./record-log-reader.ts";
import { createRecordLog } from "./record-log-writer.ts";
import { makeFolder } from "./make-folder.ts";
import { readIntervalLogFile } from "./interval-log-file.ts";
import { damageOf, describeProblem, readLogExtent } from "./run-damage.ts";
import { libraryEntryNames, strayDescription, strayEntryOf } from "./library-entries.ts";
import { emptyTrashFolder, moveToTrash, randomHex, restoreFromTrash, TRASH } from "./run-trash.ts";
import { RecordsSummarizer, type RebuiltResults } from "./records-summary.ts";
import { defaultResultsDir } from "./results-dir.ts";
import { ResultsStoreError } from "./results-error.ts";
import { readToolFileText, toolRunExport } from "./tool-run.ts";
import {
  checkDocuments,
  effectiveStatus,
  parseWith,
  readFolderDocuments,
  readRunFolder,
  RUN_FILES,
  RUN_ID_PATTERN,
  type RunFolderContents,
} from "./run-folder.ts";
import {
  indexEntryOf,
  INDEX_FILE,
  newestFirst,
  readIndex,
  sameEntry,
  unreadableEntryOf,
} from "./run-index.ts";
import { isLockHeld, isProcessAlive, newLock, readLock, releaseLockToken } from "./run-lock.ts";
import { FolderRunWriter, type RunWriter } from "./run-writer.ts";
import { isDiskFull } from "./write-failure.ts";
import {
  isCode,
  syncDirectory,
  temporaryFileOwner,
  writeAllBytes,
  writeFileAtomically,
  writeJsonAtomically,
  type WriteBytes,
} from "./write-atomically.ts";

export interface CreateRunInput {
  /** Becomes the folder name: letters, digits, ".", "_" and "-" (e.g. backend's newRunId()). */
  id: string;
  name: string;
  spec: RunSpec;
  environment: RunEnvironment;
  /** `<prefix>/<runId>/`: keys of the form `<keyPrefix><number>` are stored as numbers. */
  keyPrefix: string;
  /** When the run clock started (epoch ms): records and intervals count from it. */
  runStartEpochMs: number;
  tags?: string[];
  notes?: string;
  /** Defaults to now. */
  createdAt?: string;
  /** Called once if writing fails (e.g. the results disk is full): the host should stop the run. */
  onError?: (error: Error) => void;
}

/** One run as stored, with its status as of now (a dead writer's run is interrupted). */
export interface StoredRun {
  meta: RunMeta;
  status: RunStatus;
  /** Null until the run completes; summarizeFromRecords rebuilds one for the others. */
  summary: RunSummary | null;
  /** Of the phases that ended; rebuildFromRecords fills in the others of an unfinished run. */
  histograms: PhaseHistograms[];
  /** Records the log holds up to its first unreadable frame. */
  recordCount: number;
  /** What is wrong with the folder (files that could not be read, a cut or damaged log), or null. */
  damage: RunDamage | null;
}

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

const STAGING_PREFIX = ".staging-";
const UPGRADED_PREFIX = ".upgraded-";

/** Opens (creating it if needed) a results folder, finishing any upgrade a crash cut short. */
export async function openResultsStore(
  dir: string = defaultResultsDir(),
  options: ResultsStoreOptions = {},
): Promise<ResultsStore> {
  const root = resolve(dir);
  if (options.create === false && !(await stat(root).catch(() => null))) {
    // Nothing to recover in a library that is not there.
    return new FolderResultsStore(root, options);
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
  const store = new FolderResultsStore(root, options);
  await store.recover();
  return store;
}

/** Tasks on the same key (a run, the index) run one at a time in this process. */
const queues = new Map<string, Promise<unknown>>();
function inTurn<T>(key: string, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(task, task);
  const settled = run.catch(() => {});
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

interface InspectedRun extends RunFolderContents {
  folder: string;
  status: RunStatus;
}

class FolderResultsStore implements ResultsStore {
  readonly dir: string;
  private readonly writeBytes: WriteBytes;
  private readonly migrations: MigrationTable | undefined;

  constructor(dir: string, options: ResultsStoreOptions) {
    this.dir = dir;
    this.writeBytes = options.writeBytes ?? writeAllBytes;
    this.migrations = options.migrations;
  }

  // ── runs being written ────────────────────────────────────────────────────────────────────

  async createRun(input: CreateRunInput): Promise<RunWriter> {
    const { id } = input;
    if (!RUN_ID_PATTERN.test(id)) {
      throw new Error(
        `run id "${id}" cannot be a folder name: use letters, digits, ".", "_" and "-", starting with a letter or digit`,
      );
    }
    const meta = parseWith(
      RunMetaSchema,
      {
        schemaVersion: RUN_FOLDER_SCHEMA_VERSION,
        id,
        name: input.name,
        tags: input.tags ?? [],
        notes: input.notes ?? "",
        createdAt: input.createdAt ?? new Date().toISOString(),
        spec: input.spec,
        environment: input.environment,
        keyPrefix: input.keyPrefix,
        status: "running",
        error: null,
        cleanup: null,
        recordsWritten: null,
      } satisfies RunMeta,
      `run ${id}: run.json`,
    );
    if (await exists(this.folderPath(id))) {
      throw new Error(`a run with id "${id}" already exists in ${this.dir}`);
    }
    const lock = await newLock();
    try {
      // The folder appears whole (run.json, lock, empty log) or not at all.
      await this.commitFolder(id, async (staging) => {
        await writeJsonAtomically(join(staging, RUN_FILES.meta), meta, this.writeBytes);
        await writeJsonAtomically(join(staging, RUN_FILES.lock), lock, this.writeBytes);
        await createRecordLog(join(staging, RUN_FILES.records), this.writeBytes);
        await writeFileAtomically(
          join(staging, RUN_FILES.intervals),
          intervalLogHeader(input.runStartEpochMs),
          this.writeBytes,
        );
      });
    } catch (error) {
      releaseLockToken(lock.token);
      const reason = isDiskFull(error) ? "the results disk is full" : (error as Error).message;
      throw new ResultsStoreError(`could not create run ${id} in ${this.dir}: ${reason}`, {
        cause: error,
      });
    }
    const writer = await FolderRunWriter.open({
      id,
      dir: this.folderPath(id),
      keyPrefix: meta.keyPrefix,
      lock,
      onError: input.onError,
      host: {
        writeBytes: this.writeBytes,
        updateMeta: (runId, change) => this.updateMeta(runId, change),
        refreshIndex: async (runId) => void (await this.syncIndex(new Set([runId]))),
      },
    });
    await this.syncIndex(new Set([id])).catch(() => {});
    return writer;
  }

  // ── reading ───────────────────────────────────────────────────────────────────────────────

  list(): Promise<RunIndexEntry[]> {
    return this.syncIndex(new Set());
  }

  async requireRun(runId: string): Promise<void> {
    await this.existingFolder(runId);
  }

  async get(runId: string): Promise<StoredRun> {
    const run = await this.inspect(runId);
    const { records, damage } = await this.damageOf(run);
    return {
      meta: { ...run.meta, status: run.status },
      status: run.status,
      summary: run.summary,
      histograms: run.histograms,
      recordCount: records,
      damage,
    };
  }

  async loadRecords(runId: string): Promise<RecordColumns> {
    const run = await this.inspect(runId);
    const path = join(run.folder, RUN_FILES.records);
    const where = `run ${runId}: ${RUN_FILES.records}`;
    // A log that is missing or cannot be read as one holds no records; get()'s damage says why.
    return loadRecordLog(path, run.meta.keyPrefix, where).catch(() =>
      decodeRecordLog(Buffer.alloc(0), run.meta.keyPrefix, where),
    );
  }

  async *records(runId: string): AsyncGenerator<{ pointIndex: number; record: RequestRecord }> {
    for await (const batch of this.recordBatches(await this.inspect(runId))) {
      for (let row = 0; row < batch.count; row += 1) {
        yield { pointIndex: batch.pointIndex[row] ?? 0, record: recordAt(batch, row) };
      }
    }
  }

  async intervalLog(runId: string): Promise<string> {
    return this.intervalLogOf(await this.inspect(runId));
  }

  async summarizeFromRecords(runId: string): Promise<RunSummary> {
    return (await this.rebuild(await this.inspect(runId))).summary;
  }

  async rebuildFromRecords(runId: string): Promise<RebuiltResults> {
    return this.rebuild(await this.inspect(runId));
  }

  async exportRun(runId: string): Promise<RunExport> {
    const run = await this.inspect(runId);
    // A complete run has histograms for its phases: none means histograms.json was lost.
    const rebuilt = run.summary && run.histograms.length > 0 ? null : await this.rebuild(run);
    const summary = run.summary ?? (rebuilt as RebuiltResults).summary;
    const histograms = rebuilt?.histograms ?? run.histograms;
    return {
      schemaVersion: RUN_FOLDER_SCHEMA_VERSION,
      kind: "taillab-run",
      meta: { ...run.meta, status: run.status },
      summary,
      histograms,
      intervalLog: await this.intervalLogOf(run),
    };
  }

  // ── the library: names, tags, notes, trash ────────────────────────────────────────────────

  rename(runId: string, name: string): Promise<RunIndexEntry> {
    const problem = runNameProblem(name);
    if (problem !== null) return Promise.reject(InputError.of("name", problem));
    return this.edit(runId, (meta) => ({ ...meta, name: name.trim() }));
  }

  tag(runId: string, tag: string): Promise<RunIndexEntry> {
    const trimmed = tag.trim();
    if (trimmed.length === 0) return Promise.reject(InputError.of("tag", "cannot be empty"));
    return this.edit(runId, (meta) =>
      meta.tags.includes(trimmed) ? meta : { ...meta, tags: [...meta.tags, trimmed] },
    );
  }

  untag(runId: string, tag: string): Promise<RunIndexEntry> {
    const trimmed = tag.trim();
    return this.edit(runId, (meta) => ({
      ...meta,
      tags: meta.tags.filter((existing) => existing !== trimmed),
    }));
  }

  annotate(runId: string, notes: string): Promise<RunIndexEntry> {
    return this.edit(runId, (meta) => ({ ...meta, notes }));
  }

  recordCleanup(runId: string, cleanup: RunCleanup): Promise<RunIndexEntry> {
    return this.edit(runId, (meta) => ({ ...meta, cleanup }));
  }

  async remove(runId: string): Promise<void> {
    await inTurn(this.key(`run:${runId}`), async () => {
      await this.checkRemovable(runId);
      await moveToTrash(this.dir, runId);
    });
    await this.syncIndex(new Set([runId]));
  }

  async checkRemovable(runId: string): Promise<void> {
    // A stray of the run's name goes to the trash as it is.
    if ((await strayDescription(this.dir, runId)) !== null) return;
    // Only the lock matters here, so a folder too damaged to open can still be removed.
    const folder = await this.existingFolder(runId);
    const lock = await readLock(join(folder, RUN_FILES.lock));
    if (await isLockHeld(lock)) {
      throw InputError.of(
        "runId",
        `run ${runId} is still being written (by process ${lock?.pid ?? "?"}); stop it before deleting it`,
      );
    }
  }

  async restore(runId: string): Promise<RunIndexEntry> {
    await inTurn(this.key(`run:${runId}`), () => restoreFromTrash(this.dir, runId));
    return this.entryAfterChange(runId);
  }

  emptyTrash(): Promise<number> {
    return inTurn(this.key("trash"), () => emptyTrashFolder(this.dir));
  }

  // ── import ────────────────────────────────────────────────────────────────────────────────

  async importFolder(path: string): Promise<RunIndexEntry> {
    const source = resolve(path);
    const where = `import of ${source}`;
    const stats = await stat(source).catch(() => null);
    if (!stats?.isDirectory()) throw InputError.of("path", `${source}: there is no such folder`);
    const read = await readFolderDocuments(source, where);
    const { documents } = upgradeDocuments(read.documents, where, this.migrations);
    const contents = checkDocuments(documents, where);
    const [problem] = [...read.problems, ...contents.problems];
    if (problem) throw new ResultsStoreError(`${where}: ${problem.file} ${problem.reason}`);
    const records = join(source, RUN_FILES.records);
    const hasRecords = await exists(records);
    // Refuses a file that is not a records log (or one from a newer TailLab) before copying.
    if (hasRecords)
      await countLogRecords(records, `${where}: ${RUN_FILES.records}`, { verify: true });
    const intervalLog = await readFile(join(source, RUN_FILES.intervals), "utf8").catch(() => "");
    return this.addImported({ ...contents, intervalLog }, hasRecords ? records : null, where);
  }

  async importExport(path: string): Promise<RunIndexEntry> {
    const source = resolve(path);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(source, "utf8"));
    } catch (error) {
      const reason = isCode(error, "ENOENT") ? "there is no such file" : (error as Error).message;
      throw InputError.of("path", `${source}: ${reason}`);
    }
    return this.importExported(parsed, source);
  }

  private async importExported(parsed: unknown, source: string): Promise<RunIndexEntry> {
    const where = `import of ${source}`;
    const exported = parsed as Partial<Record<keyof RunExport, unknown>> | null;
    if (exported?.kind !== "taillab-run") {
      throw InputError.of(
        "path",
        `${source}: it is not a TailLab run export (no "kind": "taillab-run")`,
      );
    }
    if (typeof exported.schemaVersion === "number") {
      refuseNewerVersion(exported.schemaVersion, where);
    }
    const { documents } = upgradeDocuments(
      {
        meta: (exported.meta ?? {}) as FolderDocuments["meta"],
        summary: exported.summary ?? null,
        histograms: exported.histograms ?? [],
      },
      where,
      this.migrations,
    );
    const checked = parseWith(
      RunExportSchema,
      { schemaVersion: RUN_FOLDER_SCHEMA_VERSION, kind: "taillab-run", ...documents },
      where,
    );
    return this.addImported(checked, null, where);
  }

  async importFile(path: string): Promise<RunIndexEntry> {
    const source = resolve(path);
    const read = await readToolFileText(source);
    const text = read.text.trimStart();
    // elbencho appends one JSON object per phase: a file of several is not one JSON document.
    const oneDocument = !text.startsWith(ELBENCHO_JSON_START);
    if (oneDocument && (source.endsWith(".json") || text.startsWith("{"))) {
      let parsed: { kind?: unknown } | null;
      try {
        parsed = JSON.parse(read.text) as { kind?: unknown } | null;
      } catch (error) {
        throw InputError.of("path", `${source}: ${(error as Error).message}`);
      }
      if (parsed?.kind === "taillab-run") return this.importExported(parsed, source);
    }
    const contents = toolRunExport(source, read, new Date());
    return this.addImported(contents, null, `import of ${source}`);
  }

  private async addImported(
    contents: Omit<RunFolderContents, "fromVersion" | "problems"> & { intervalLog: string },
    records: string | null,
    where: string,
  ): Promise<RunIndexEntry> {
    if (!RUN_ID_PATTERN.test(contents.meta.id)) {
      throw new ResultsStoreError(`${where}: run id "${contents.meta.id}" cannot be a folder name`);
    }
    const id = await this.freeId(contents.meta.id);
    // A copied run has no live writer: a run that had not ended is interrupted.
    const status = effectiveStatus(contents.meta.status, contents.summary !== null, false);
    await this.commitFolder(id, (staging) =>
      this.writeContents(staging, {
        meta: { ...contents.meta, id, status },
        summary: contents.summary && { ...contents.summary, runId: id },
        histograms: contents.histograms,
        records,
        intervalLog: contents.intervalLog,
      }),
    );
    return this.entryAfterChange(id);
  }

  // ── internals ─────────────────────────────────────────────────────────────────────────────

  /** Removes what crashed processes left half-made and finishes interrupted upgrades. */
  async recover(): Promise<void> {
    for (const entry of await readdir(this.dir, { withFileTypes: true })) {
      const { name } = entry;
      if (entry.isDirectory() && name.startsWith(STAGING_PREFIX)) {
        const pid = Number(name.slice(STAGING_PREFIX.length).split("-")[0]);
        if (pid !== process.pid && !isProcessAlive(pid)) {
          await rm(join(this.dir, name), { recursive: true, force: true });
        }
      } else if (entry.isDirectory() && name.startsWith(UPGRADED_PREFIX)) {
        await this.swapUpgraded(name.slice(UPGRADED_PREFIX.length));
      } else if (entry.isFile()) {
        await removeIfAbandoned(join(this.dir, name), name);
      }
    }
  }

  private key(name: string): string {
    return `${this.dir}\0${name}`;
  }

  private folderPath(id: string): string {
    return join(this.dir, id);
  }

  private unknownRun(id: string): InputError {
    return InputError.of("runId", `no run with id "${id}" in ${this.dir}`);
  }

  /**
   * The folder of run `id`; an InputError when the library has no such run, a ResultsStoreError
   * saying what it is when the name is a stray (a file, a link that leads nowhere). A symbolic
   * link to a folder is refused, as list() skips it: it may lead anywhere out of the library.
   */
  private async existingFolder(id: string): Promise<string> {
    const folder = this.folderPath(id);
    const stats = RUN_ID_PATTERN.test(id) ? await lstat(folder).catch(() => null) : null;
    if (stats?.isDirectory()) return folder;
    const stray = await strayDescription(this.dir, id);
    if (stray !== null) throw new ResultsStoreError(`run ${id}: ${stray}`);
    if (stats?.isSymbolicLink()) {
      throw InputError.of(
        "runId",
        `${folder} is a symbolic link, not a run folder: TailLab opens only folders inside its library`,
      );
    }
    throw this.unknownRun(id);
  }

  private async inspect(id: string): Promise<InspectedRun> {
    const folder = await this.existingFolder(id);
    const contents = await readRunFolder(folder, `run ${id}`, this.migrations);
    if (contents.meta.id !== id) {
      throw new ResultsStoreError(
        `run ${id}: its run.json names run "${contents.meta.id}"; a run folder must be named after its id (use import to copy a run in)`,
      );
    }
    const { meta, summary } = contents;
    const mayBeLive = meta.status === "running" || (meta.status === "complete" && !summary);
    const live = mayBeLive && (await isLockHeld(await readLock(join(folder, RUN_FILES.lock))));
    return { ...contents, folder, status: effectiveStatus(meta.status, summary !== null, live) };
  }

  /**
   * The log's batches. A log that is missing or cannot be opened as one holds none (get()'s
   * damage says why); one that fails while being read is a ResultsStoreError: what was read
   * stays with the caller.
   */
  private async *recordBatches(run: InspectedRun): AsyncGenerator<RecordColumns> {
    const path = join(run.folder, RUN_FILES.records);
    const where = `run ${run.meta.id}: ${RUN_FILES.records}`;
    let batches = 0;
    try {
      for await (const batch of readRecordBatches(path, run.meta.keyPrefix, where)) {
        batches += 1;
        yield batch;
      }
    } catch (error) {
      if (batches === 0) return;
      throw new ResultsStoreError(
        `${where} could not be read past its ${batches} first frames: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  private async rebuild(run: InspectedRun): Promise<RebuiltResults> {
    const rebuilt = await this.rebuildWhole(run);
    // The stored histograms are the engine's own and are kept. They agree with the rebuilt ones
    // (a phase's records are fsynced before its histograms are written): only the phase the run
    // died in has none.
    const stored = new Set(run.histograms.map(phaseKey));
    return {
      summary: rebuilt.summary,
      histograms: [
        ...run.histograms,
        ...rebuilt.histograms.filter((phase) => !stored.has(phaseKey(phase))),
      ].sort(byPointThenOp),
      intervalLines: rebuilt.intervalLines.filter((line) => !stored.has(phaseKey(line))),
    };
  }

  /** Every phase's summary, histograms and seconds, from the records alone. */
  private async rebuildWhole(run: InspectedRun): Promise<RebuiltResults> {
    const summarizer = new RecordsSummarizer(run.meta);
    for await (const batch of this.recordBatches(run)) summarizer.add(batch);
    return summarizer.finish(run.summary?.status ?? null);
  }

  /**
   * The stored log; for a run without a summary, the lines of its unfinished phases rebuilt from
   * their records in place of the seconds those phases had written. A log that cannot be used
   * whole (missing, torn, damaged: get()'s damage says which) is rebuilt whole from the records.
   */
  private async intervalLogOf(run: InspectedRun): Promise<string> {
    const file = await readIntervalLogFile(run.folder, {
      live: run.status === "running",
      fromVersion: run.fromVersion,
    });
    if (!file.sound) {
      const { intervalLines } = await this.rebuildWhole(run);
      const header = intervalLogHeader(file.runStartEpochMs ?? Date.parse(run.meta.createdAt));
      return header + intervalLines.map(formatIntervalLogLine).join("");
    }
    const stored = file.text;
    if (run.summary) return stored;
    const { intervalLines } = await this.rebuild(run);
    const ended = new Set(run.histograms.map(phaseKey));
    const kept = intervalLogWithout(
      stored,
      (pointIndex, op) => !ended.has(phaseKey({ pointIndex, op })),
    );
    const separator = kept.endsWith("\n") ? "" : "\n";
    return kept + separator + intervalLines.map(formatIntervalLogLine).join("");
  }

  /** What is wrong with a run's folder, and the records its log holds up to the damage. */
  private async damageOf(
    run: InspectedRun,
  ): Promise<{ records: number; damage: RunDamage | null }> {
    const log = await readLogExtent(run.folder, {
      status: run.status,
      recordsWritten: run.meta.recordsWritten,
      hasSummary: run.summary !== null,
    });
    const intervals = await readIntervalLogFile(run.folder, {
      live: run.status === "running",
      fromVersion: run.fromVersion,
    });
    const problems = [
      ...run.problems.map(describeProblem),
      intervals.sound ? null : intervals.problem,
    ];
    return { records: log.records, damage: damageOf(problems, log) };
  }

  /**
   * Brings index.json in line with the folders and returns it. An entry is reused only if its
   * run's files are older than the index and its run is not running (whose writer may have died);
   * `reload` names runs just changed. A folder that cannot be opened is listed with why.
   */
  private syncIndex(reload: ReadonlySet<string>): Promise<RunIndexEntry[]> {
    return inTurn(this.key("index"), async () => {
      const indexPath = join(this.dir, INDEX_FILE);
      const index = await readIndex(indexPath);
      const cached = new Map(index?.entries.map((entry) => [entry.id, entry]));
      let changed = index === null;
      const entries: RunIndexEntry[] = [];
      const { folders, strays } = await libraryEntryNames(this.dir);
      for (const stray of strays) {
        const entry = await strayEntryOf(this.dir, stray);
        if (!sameEntry(cached.get(stray.id), entry)) changed = true;
        cached.delete(stray.id);
        entries.push(entry);
      }
      for (const id of folders) {
        const old = cached.get(id);
        cached.delete(id);
        const reuse =
          old !== undefined &&
          index !== null &&
          !reload.has(id) &&
          old.status !== "running" &&
          (await this.unchangedSince(id, index.mtimeMs));
        const entry = reuse ? old : await this.entryFor(id, old);
        if (!entry) continue;
        if (!sameEntry(old, entry)) changed = true;
        entries.push(entry);
      }
      if (cached.size > 0) changed = true;
      const sorted = newestFirst(entries);
      // The index is only a cache of the folders: failing to write it (a full disk) loses nothing.
      if (changed) await writeJsonAtomically(indexPath, sorted, this.writeBytes).catch(() => {});
      return sorted;
    });
  }

  private async unchangedSince(id: string, indexMtimeMs: number): Promise<boolean> {
    const folder = this.folderPath(id);
    // The folder itself changes when a file in it is added, replaced or removed.
    const files = [
      "",
      RUN_FILES.meta,
      RUN_FILES.summary,
      RUN_FILES.histograms,
      RUN_FILES.records,
      RUN_FILES.intervals,
    ];
    for (const file of files) {
      const stats = await stat(join(folder, file)).catch(() => null);
      if (stats && stats.mtimeMs >= indexMtimeMs) return false;
    }
    return true;
  }

  private async entryFor(
    id: string,
    old: RunIndexEntry | undefined,
  ): Promise<RunIndexEntry | null> {
    let run: InspectedRun;
    try {
      run = await this.inspect(id);
    } catch (error) {
      // Removed since the folders were listed: nothing to list.
      if (error instanceof InputError) return null;
      return this.unreadableEntry(id, error as Error);
    }
    if (run.status === "interrupted" && old?.status !== "interrupted") {
      await removeAbandonedTemporaries(run.folder);
    }
    const { records, damage } = await this.damageOf(run);
    return indexEntryOf(run.meta, run.status, run.summary, records, damage);
  }

  /** A folder whose run.json cannot be used: listed by its id, with why and what it holds. */
  private async unreadableEntry(id: string, error: Error): Promise<RunIndexEntry> {
    const folder = this.folderPath(id);
    const live = await isLockHeld(await readLock(join(folder, RUN_FILES.lock)));
    const status: RunStatus = live
      ? "running"
      : (await exists(join(folder, RUN_FILES.summary)))
        ? "complete"
        : "interrupted";
    const log = await readLogExtent(folder, {
      status,
      recordsWritten: null,
      hasSummary: status === "complete",
    });
    const reason = error.message.replace(`run ${id}: `, "");
    const createdAt = (await stat(folder)).mtime.toISOString();
    return unreadableEntryOf(id, createdAt, status, log.records, damageOf([reason], log));
  }

  private async entryAfterChange(id: string): Promise<RunIndexEntry> {
    const entries = await this.syncIndex(new Set([id]));
    const entry = entries.find((candidate) => candidate.id === id);
    if (!entry) throw this.unknownRun(id);
    return entry;
  }

  private async edit(id: string, change: (meta: RunMeta) => RunMeta): Promise<RunIndexEntry> {
    await this.updateMeta(id, change);
    return this.entryAfterChange(id);
  }

  /** Read-modify-write of run.json; an older folder is upgraded first so it is all one version. */
  private updateMeta(id: string, change: (meta: RunMeta) => RunMeta): Promise<void> {
    return inTurn(this.key(`run:${id}`), async () => {
      let run = await this.inspect(id);
      if (run.fromVersion < RUN_FOLDER_SCHEMA_VERSION) {
        await this.upgradeInPlace(run);
        run = await this.inspect(id);
      }
      const next = parseWith(RunMetaSchema, change(run.meta), `run ${id}: run.json`);
      await writeJsonAtomically(join(run.folder, RUN_FILES.meta), next, this.writeBytes);
    });
  }

  /**
   * Rewrites an older folder at the current version: a full copy is staged and committed as
   * `.upgraded-<id>`, then swapped in; the old folder goes to the trash. A crash at any step
   * leaves either the old folder or the committed copy, which the next open swaps in.
   */
  private async upgradeInPlace(run: InspectedRun): Promise<void> {
    const { id } = run.meta;
    const records = join(run.folder, RUN_FILES.records);
    const intervalLog = await readFile(join(run.folder, RUN_FILES.intervals), "utf8").catch(
      () => "",
    );
    const staging = await this.stageFolder((folder) =>
      this.writeContents(folder, {
        meta: run.meta,
        summary: run.summary,
        histograms: run.histograms,
        records: null,
        copyRecordsFrom: records,
        intervalLog,
      }),
    );
    await rename(staging, join(this.dir, `${UPGRADED_PREFIX}${id}`));
    await syncDirectory(this.dir);
    await this.swapUpgraded(id);
  }

  private async swapUpgraded(id: string): Promise<void> {
    const current = this.folderPath(id);
    if (await exists(current)) {
      await mkdir(join(this.dir, TRASH), { recursive: true });
      await rename(current, join(this.dir, TRASH, `${id}.before-upgrade-${randomHex()}`));
    }
    await rename(join(this.dir, `${UPGRADED_PREFIX}${id}`), current);
    await syncDirectory(this.dir);
  }

  private async writeContents(
    folder: string,
    contents: {
      meta: RunMeta;
      summary: RunSummary | null;
      histograms: PhaseHistograms[];
      /** A records log to copy, or null for an empty one. */
      records: string | null;
      /** Copied when it exists (an upgrade of a folder that may have no log). */
      copyRecordsFrom?: string;
      /** The interval log's text; empty: a header alone (the run had none). */
      intervalLog: string;
    },
  ): Promise<void> {
    const write = (file: string, value: unknown) =>
      writeJsonAtomically(join(folder, file), value, this.writeBytes);
    await write(RUN_FILES.meta, contents.meta);
    await writeFileAtomically(
      join(folder, RUN_FILES.intervals),
      contents.intervalLog || intervalLogHeader(Date.parse(contents.meta.createdAt)),
      this.writeBytes,
    );
    if (contents.summary) await write(RUN_FILES.summary, contents.summary);
    if (contents.histograms.length > 0) await write(RUN_FILES.histograms, contents.histograms);
    const source =
      contents.records ??
      (contents.copyRecordsFrom && (await exists(contents.copyRecordsFrom))
        ? contents.copyRecordsFrom
        : null);
    const target = join(folder, RUN_FILES.records);
    if (source) {
      await copyFile(source, target);
      await syncFile(target);
    } else if (!contents.copyRecordsFrom) {
      await createRecordLog(target, this.writeBytes);
    }
  }

  /** Builds a folder under a dot-name and renames it to `<id>`: it appears whole or not at all. */
  private async commitFolder(id: string, build: (staging: string) => Promise<void>): Promise<void> {
    const staging = await this.stageFolder(build);
    try {
      await rename(staging, this.folderPath(id));
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    await syncDirectory(this.dir);
  }

  async scratchFolder(): Promise<string> {
    await makeFolder(this.dir);
    return mkdtemp(join(this.dir, `${STAGING_PREFIX}${process.pid}-`));
  }

  private async stageFolder(build: (staging: string) => Promise<void>): Promise<string> {
    const staging = join(this.dir, `${STAGING_PREFIX}${process.pid}-${randomHex()}`);
    await mkdir(staging);
    try {
      await build(staging);
      await syncDirectory(staging);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    return staging;
  }

  private async freeId(id: string): Promise<string> {
    let candidate = id;
    while (await exists(this.folderPath(candidate))) candidate = `${id}-${randomHex()}`;
    return candidate;
  }
}

function phaseKey(phase: Pick<PhaseHistograms, "pointIndex" | "op">): string {
  return `${phase.pointIndex}:${phase.op}`;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function syncFile(path: string): Promise<void> {
  const file = await open(path, "r+");
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/** A temporary file from an atomic write whose process died before renaming it. */
async function removeIfAbandoned(path: string, name: string): Promise<void> {
  const owner = temporaryFileOwner(name);
  if (owner !== null && owner !== process.pid && !isProcessAlive(owner)) {
    await unlink(path).catch(() => {});
  }
}

async function removeAbandonedTemporaries(folder: string): Promise<void> {
  for (const name of await readdir(folder).catch(() => [])) {
    await removeIfAbandoned(join(folder, name), name);
  }
}
