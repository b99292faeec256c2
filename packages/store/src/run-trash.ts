import { InputError } from "@taillab/api";
import { randomBytes } from "node:crypto";
import { lstat, mkdir, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { ResultsStoreError } from "./results-error.ts";
import { syncDirectory, isCode } from "./write-atomically.ts";

/**
 * The library's trash, `<dir>/.trash/`: a removed run's folder (or a stray of its name) is moved
 * there whole, under its id, or `<id>.<hex>` when the trash holds that id already; a restore
 * brings back the one removed last. Folders an upgrade replaced wait there too
 * (`<id>.before-upgrade-<hex>`) and are never restored as the run.
 */
export const TRASH = ".trash";

export async function moveToTrash(dir: string, id: string): Promise<void> {
  const trash = join(dir, TRASH);
  await mkdir(trash, { recursive: true });
  const taken = await lstat(join(trash, id)).then(
    () => true,
    () => false,
  );
  await moveOrSay(
    join(dir, id),
    join(trash, taken ? `${id}.${randomHex()}` : id),
    `could not move run ${id} to the trash`,
  );
  await syncDirectory(dir);
}

/**
 * Moves the run last removed under `id` back into the library. Bad input (naming runId) when
 * the trash holds no run of that id, or the library already has one.
 */
export async function restoreFromTrash(dir: string, id: string): Promise<void> {
  const trash = join(dir, TRASH);
  const removed = await removedUnder(trash, id);
  if (removed === null) {
    throw InputError.of("runId", `no run with id "${id}" in the trash (${trash})`);
  }
  if (await lstat(join(dir, id)).catch(() => null)) {
    throw InputError.of(
      "runId",
      `the library already has a run with id "${id}"; remove it first (taillab runs rm ${id})`,
    );
  }
  await moveOrSay(join(trash, removed), join(dir, id), `could not restore run ${id}`);
  await syncDirectory(dir);
  await syncDirectory(trash);
}

/** Deletes everything in the trash; returns how many entries went. */
export async function emptyTrashFolder(dir: string): Promise<number> {
  const trash = join(dir, TRASH);
  const names = await readdir(trash).catch((error: unknown) => {
    if (isCode(error, "ENOENT")) return [];
    throw error;
  });
  for (const name of names) await rm(join(trash, name), { recursive: true, force: true });
  return names.length;
}

/** The name in the trash of the run last removed under `id`, or null. */
async function removedUnder(trash: string, id: string): Promise<string | null> {
  const names = await readdir(trash).catch(() => [] as string[]);
  const again = new RegExp(`^${escapeRegExp(id)}\\.[0-9a-f]{6}$`);
  let newest: { name: string; changedMs: number } | null = null;
  for (const name of names.filter((each) => each === id || again.test(each))) {
    // A removal renames the folder, which sets its change time: the newest is the last removed.
    const changedMs = (await lstat(join(trash, name))).ctimeMs;
    if (!newest || changedMs > newest.changedMs) newest = { name, changedMs };
  }
  return newest?.name ?? null;
}

/** A rename whose failure (permissions, a read-only disk) is said in one line. */
async function moveOrSay(from: string, to: string, what: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    throw new ResultsStoreError(`${what}: ${(error as Error).message}`, { cause: error });
  }
}

export function randomHex(): string {
  return randomBytes(3).toString("hex");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
