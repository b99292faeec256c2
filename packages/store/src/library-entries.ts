import { RUN_ID_PATTERN, type RunIndexEntry } from "@taillab/api";
import { lstat, readdir, readlink, stat } from "node:fs/promises";
import { join } from "node:path";
import { INDEX_FILE, unreadableEntryOf } from "./run-index.ts";
import { isCode, temporaryFileOwner } from "./write-atomically.ts";

/**
 * What the names in a results folder are: run folders, and strays — a file, a link that leads
 * nowhere or to a file, anything else named like a run id. A stray is what is left of a run
 * folder that was replaced or lost (a copy gone wrong, a link to a disk no longer mounted), so it
 * is listed as a damaged run saying what it is, never skipped in silence.
 */
export async function libraryEntryNames(
  dir: string,
): Promise<{ folders: string[]; strays: { id: string; description: string }[] }> {
  const folders: string[] = [];
  const strays: { id: string; description: string }[] = [];
  // A library that was never made (a store opened without creating it) holds no runs.
  const names = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if (isCode(error, "ENOENT")) return [];
    throw error;
  });
  for (const entry of names) {
    const { name } = entry;
    if (!RUN_ID_PATTERN.test(name)) continue;
    if (entry.isDirectory()) folders.push(name);
    else {
      const description = await strayDescription(dir, name);
      if (description !== null) strays.push({ id: name, description });
    }
  }
  return { folders, strays };
}

/**
 * What `<dir>/<id>` is when it is named like a run but is not a run folder, or null (a folder,
 * a link to one — the library's own files too — or nothing at all).
 */
export async function strayDescription(dir: string, id: string): Promise<string | null> {
  if (!RUN_ID_PATTERN.test(id) || id === INDEX_FILE || temporaryFileOwner(id) !== null) return null;
  const path = join(dir, id);
  const own = await lstat(path).catch(() => null);
  if (!own || own.isDirectory()) return null;
  if (!own.isSymbolicLink()) {
    return own.isFile()
      ? `${id} is a file, not a run folder; no run can be read from it`
      : `${id} is not a run folder (a special file); no run can be read from it`;
  }
  const target = await readlink(path).catch(() => "?");
  const followed = await stat(path).catch(() => null);
  if (followed?.isDirectory()) return null;
  return followed
    ? `${id} is a link to ${target}, which is not a run folder; no run can be read from it`
    : `${id} is a link to ${target}, which does not exist; the run it held is lost`;
}

/** A stray's index entry: listed by its name, with nothing to show but what it is. */
export async function strayEntryOf(
  dir: string,
  { id, description }: { id: string; description: string },
): Promise<RunIndexEntry> {
  const changed = (await lstat(join(dir, id))).mtime.toISOString();
  const damage = { problems: [description], skippedLogBytes: 0, lostRecords: null };
  return unreadableEntryOf(id, changed, "interrupted", 0, damage);
}
