import { InputError, type RunIndexEntry, type RunStatus } from "@taillab/api";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { removeAbandonedTemporaries } from "./folder-staging.ts";
import { libraryEntryNames, strayEntryOf } from "./library-entries.ts";
import { damageOf, readLogExtent } from "./run-damage.ts";
import { RUN_FILES } from "./run-folder.ts";
import {
  indexEntryOf,
  INDEX_FILE,
  newestFirst,
  readIndex,
  sameEntry,
  unreadableEntryOf,
} from "./run-index.ts";
import { exists, type InspectedRun, type RunLibrary } from "./run-library.ts";
import { isLockHeld, readLock } from "./run-lock.ts";
import { damageOfRun } from "./run-reader.ts";
import { writeJsonAtomically } from "./write-atomically.ts";

/**
 * Brings index.json in line with the folders and returns it. An entry is reused only if its
 * run's files are older than the index and its run is not running (whose writer may have died);
 * `reload` names runs just changed. A folder that cannot be opened is listed with why.
 */
export function syncIndex(
  library: RunLibrary,
  reload: ReadonlySet<string>,
): Promise<RunIndexEntry[]> {
  return library.inTurn("index", async () => {
    const indexPath = join(library.dir, INDEX_FILE);
    const index = await readIndex(indexPath);
    const cached = new Map(index?.entries.map((entry) => [entry.id, entry]));
    let changed = index === null;
    const entries: RunIndexEntry[] = [];
    const { folders, strays } = await libraryEntryNames(library.dir);
    for (const stray of strays) {
      const entry = await strayEntryOf(library.dir, stray);
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
        (await unchangedSince(library.folderPath(id), index.mtimeMs));
      const entry = reuse ? old : await entryFor(library, id, old);
      if (!entry) continue;
      if (!sameEntry(old, entry)) changed = true;
      entries.push(entry);
    }
    if (cached.size > 0) changed = true;
    const sorted = newestFirst(entries);
    // The index is only a cache of the folders: failing to write it (a full disk) loses nothing.
    if (changed) await writeJsonAtomically(indexPath, sorted, library.writeBytes).catch(() => {});
    return sorted;
  });
}

/** The run's index entry once the index has caught up with a change to it. */
export async function entryAfterChange(library: RunLibrary, id: string): Promise<RunIndexEntry> {
  const entries = await syncIndex(library, new Set([id]));
  const entry = entries.find((candidate) => candidate.id === id);
  if (!entry) throw library.unknownRun(id);
  return entry;
}

async function unchangedSince(folder: string, indexMtimeMs: number): Promise<boolean> {
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

async function entryFor(
  library: RunLibrary,
  id: string,
  old: RunIndexEntry | undefined,
): Promise<RunIndexEntry | null> {
  let run: InspectedRun;
  try {
    run = await library.inspect(id);
  } catch (error) {
    // Removed since the folders were listed: nothing to list.
    if (error instanceof InputError) return null;
    return unreadableEntry(library.folderPath(id), id, error as Error);
  }
  if (run.status === "interrupted" && old?.status !== "interrupted") {
    await removeAbandonedTemporaries(run.folder);
  }
  const { records, damage } = await damageOfRun(run);
  return indexEntryOf(run.meta, run.status, run.summary, records, damage);
}

/** A folder whose run.json cannot be used: listed by its id, with why and what it holds. */
async function unreadableEntry(folder: string, id: string, error: Error): Promise<RunIndexEntry> {
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
