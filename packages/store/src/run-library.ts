import { InputError, type RunStatus } from "@taillab/api";
import { lstat, stat } from "node:fs/promises";
import { join } from "node:path";
import type { MigrationTable } from "./folder-migrations.ts";
import { strayDescription } from "./library-entries.ts";
import { ResultsStoreError } from "./results-error.ts";
import {
  effectiveStatus,
  readRunFolder,
  RUN_FILES,
  RUN_ID_PATTERN,
  type RunFolderContents,
} from "./run-folder.ts";
import { isLockHeld, readLock } from "./run-lock.ts";
import type { WriteBytes } from "./write-atomically.ts";

/** A run folder as read now, with its status (a dead writer's run is interrupted). */
export interface InspectedRun extends RunFolderContents {
  folder: string;
  status: RunStatus;
}

/**
 * The results folder and what every job on it shares (the index, the reader, the writer's
 * creation, edits, the trash, imports): where a run's folder is, how it is read, and the
 * in-process queues that keep two changes to one run (or to the index) apart.
 */
export class RunLibrary {
  readonly dir: string;
  /** How bytes reach files; tests inject one that fails with ENOSPC. */
  readonly writeBytes: WriteBytes;
  /** Upgrades of older folders; tests inject one for a made-up older version. */
  readonly migrations: MigrationTable | undefined;

  constructor(dir: string, writeBytes: WriteBytes, migrations: MigrationTable | undefined) {
    this.dir = dir;
    this.writeBytes = writeBytes;
    this.migrations = migrations;
  }

  /** Runs `task` after the tasks queued before it on `name` (a run, the index) in this library. */
  inTurn<T>(name: string, task: () => Promise<T>): Promise<T> {
    return inTurn(`${this.dir}\0${name}`, task);
  }

  folderPath(id: string): string {
    return join(this.dir, id);
  }

  unknownRun(id: string): InputError {
    return InputError.of("runId", `no run with id "${id}" in ${this.dir}`);
  }

  /**
   * The folder of run `id`; an InputError when the library has no such run, a ResultsStoreError
   * saying what it is when the name is a stray (a file, a link that leads nowhere). A symbolic
   * link to a folder is refused, as list() skips it: it may lead anywhere out of the library.
   */
  async existingFolder(id: string): Promise<string> {
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

  async inspect(id: string): Promise<InspectedRun> {
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
}

/** Tasks on the same key run one at a time in this process. */
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

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
