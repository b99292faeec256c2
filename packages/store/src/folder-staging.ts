import type { PhaseHistograms, RunMeta, RunSummary } from "@taillab/api";
import { intervalLogHeader } from "@taillab/core";
import {
  copyFile,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  unlink,
} from "node:fs/promises";
import { join } from "node:path";
import { makeFolder } from "./make-folder.ts";
import { createRecordLog } from "./record-log-writer.ts";
import { RUN_FILES } from "./run-folder.ts";
import { exists, type InspectedRun, type RunLibrary } from "./run-library.ts";
import { isProcessAlive } from "./run-lock.ts";
import { randomHex, TRASH } from "./run-trash.ts";
import {
  syncDirectory,
  temporaryFileOwner,
  writeFileAtomically,
  writeJsonAtomically,
} from "./write-atomically.ts";

/**
 * Folders built whole before they appear: a new run, an import or an upgrade is written under
 * `.staging-<pid>-<hex>/` and renamed into place, and what a crashed process left half-made is
 * removed (or, for an upgrade already committed as `.upgraded-<id>/`, finished) at the next open.
 */
const STAGING_PREFIX = ".staging-";
const UPGRADED_PREFIX = ".upgraded-";

/** What a staged run folder is written from. */
export interface FolderContents {
  meta: RunMeta;
  summary: RunSummary | null;
  histograms: PhaseHistograms[];
  /** A records log to copy, or null for an empty one. */
  records: string | null;
  /** Copied when it exists (an upgrade of a folder that may have no log). */
  copyRecordsFrom?: string;
  /** The interval log's text; empty: a header alone (the run had none). */
  intervalLog: string;
}

/** Builds a folder under a dot-name and renames it to `<id>`: it appears whole or not at all. */
export async function commitFolder(
  library: RunLibrary,
  id: string,
  build: (staging: string) => Promise<void>,
): Promise<void> {
  const staging = await stageFolder(library, build);
  try {
    await rename(staging, library.folderPath(id));
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  await syncDirectory(library.dir);
}

export async function writeContents(
  library: RunLibrary,
  folder: string,
  contents: FolderContents,
): Promise<void> {
  const write = (file: string, value: unknown) =>
    writeJsonAtomically(join(folder, file), value, library.writeBytes);
  await write(RUN_FILES.meta, contents.meta);
  await writeFileAtomically(
    join(folder, RUN_FILES.intervals),
    contents.intervalLog || intervalLogHeader(Date.parse(contents.meta.createdAt)),
    library.writeBytes,
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
    await createRecordLog(target, library.writeBytes);
  }
}

/** `id`, or `id-<hex>` when the library has a run of that id already. */
export async function freeId(library: RunLibrary, id: string): Promise<string> {
  let candidate = id;
  while (await exists(library.folderPath(candidate))) candidate = `${id}-${randomHex()}`;
  return candidate;
}

export async function scratchFolder(library: RunLibrary): Promise<string> {
  await makeFolder(library.dir);
  return mkdtemp(join(library.dir, `${STAGING_PREFIX}${process.pid}-`));
}

/**
 * Rewrites an older folder at the current version: a full copy is staged and committed as
 * `.upgraded-<id>`, then swapped in; the old folder goes to the trash. A crash at any step
 * leaves either the old folder or the committed copy, which the next open swaps in.
 */
export async function upgradeInPlace(library: RunLibrary, run: InspectedRun): Promise<void> {
  const { id } = run.meta;
  const records = join(run.folder, RUN_FILES.records);
  const intervalLog = await readFile(join(run.folder, RUN_FILES.intervals), "utf8").catch(() => "");
  const staging = await stageFolder(library, (folder) =>
    writeContents(library, folder, {
      meta: run.meta,
      summary: run.summary,
      histograms: run.histograms,
      records: null,
      copyRecordsFrom: records,
      intervalLog,
    }),
  );
  await rename(staging, join(library.dir, `${UPGRADED_PREFIX}${id}`));
  await syncDirectory(library.dir);
  await swapUpgraded(library, id);
}

/** Removes what crashed processes left half-made and finishes interrupted upgrades. */
export async function recoverLibrary(library: RunLibrary): Promise<void> {
  for (const entry of await readdir(library.dir, { withFileTypes: true })) {
    const { name } = entry;
    if (entry.isDirectory() && name.startsWith(STAGING_PREFIX)) {
      const pid = Number(name.slice(STAGING_PREFIX.length).split("-")[0]);
      if (pid !== process.pid && !isProcessAlive(pid)) {
        await rm(join(library.dir, name), { recursive: true, force: true });
      }
    } else if (entry.isDirectory() && name.startsWith(UPGRADED_PREFIX)) {
      await swapUpgraded(library, name.slice(UPGRADED_PREFIX.length));
    } else if (entry.isFile()) {
      await removeIfAbandoned(join(library.dir, name), name);
    }
  }
}

/** The temporary files of atomic writes whose processes died before renaming them. */
export async function removeAbandonedTemporaries(folder: string): Promise<void> {
  for (const name of await readdir(folder).catch(() => [])) {
    await removeIfAbandoned(join(folder, name), name);
  }
}

async function stageFolder(
  library: RunLibrary,
  build: (staging: string) => Promise<void>,
): Promise<string> {
  const staging = join(library.dir, `${STAGING_PREFIX}${process.pid}-${randomHex()}`);
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

async function swapUpgraded(library: RunLibrary, id: string): Promise<void> {
  const current = library.folderPath(id);
  if (await exists(current)) {
    await mkdir(join(library.dir, TRASH), { recursive: true });
    await rename(current, join(library.dir, TRASH, `${id}.before-upgrade-${randomHex()}`));
  }
  await rename(join(library.dir, `${UPGRADED_PREFIX}${id}`), current);
  await syncDirectory(library.dir);
}

async function removeIfAbandoned(path: string, name: string): Promise<void> {
  const owner = temporaryFileOwner(name);
  if (owner !== null && owner !== process.pid && !isProcessAlive(owner)) {
    await unlink(path).catch(() => {});
  }
}

async function syncFile(path: string): Promise<void> {
  const file = await open(path, "r+");
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}
