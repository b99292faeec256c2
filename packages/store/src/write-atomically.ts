import { randomBytes } from "node:crypto";
import { open, rename, unlink, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * How bytes reach a file. The default writes all of them at `position`; tests inject one that
 * fails part-way (ENOSPC) to prove a full disk keeps what was already written.
 */
export type WriteBytes = (file: FileHandle, bytes: Uint8Array, position: number) => Promise<void>;

export const writeAllBytes: WriteBytes = async (file, bytes, position) => {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await file.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
};

/** Appends bytes at the end of a file (created if missing) and fsyncs it. */
export async function appendToFile(
  path: string,
  bytes: Uint8Array,
  writeBytes: WriteBytes = writeAllBytes,
): Promise<void> {
  const file = await open(path, "a");
  try {
    await writeBytes(file, bytes, (await file.stat()).size);
    await file.sync();
  } finally {
    await file.close();
  }
}

/** `<name>.<pid>-<random>.tmp`: the pid says whether the process that left it is still alive. */
export function temporaryPathFor(path: string): string {
  return `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
}

/** The pid in a temporary file's name, or null when the name is not one of ours. */
export function temporaryFileOwner(name: string): number | null {
  const match = /\.(\d+)-[0-9a-f]{8}\.tmp$/.exec(name);
  return match ? Number(match[1]) : null;
}

/**
 * Replaces `path` so that a reader (or a crash) sees the old contents or the new, never a mix:
 * the new contents go to a temporary file beside it, which is fsynced, renamed over `path`, and
 * the directory is fsynced so the rename itself survives a power cut. `mode` is the new file's
 * from its creation on (0o600: its owner's only, never readable by others even for a moment).
 */
export async function writeFileAtomically(
  path: string,
  contents: string | Uint8Array,
  writeBytes: WriteBytes = writeAllBytes,
  mode = 0o666,
): Promise<void> {
  const temporary = temporaryPathFor(path);
  const bytes = typeof contents === "string" ? Buffer.from(contents) : contents;
  try {
    const file = await open(temporary, "wx", mode);
    try {
      await writeBytes(file, bytes, 0);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** JSON with a trailing newline, atomically. */
export function writeJsonAtomically(
  path: string,
  value: unknown,
  writeBytes?: WriteBytes,
  mode?: number,
): Promise<void> {
  return writeFileAtomically(path, `${JSON.stringify(value, null, 2)}\n`, writeBytes, mode);
}

/**
 * fsyncs a directory so the names created, renamed or removed in it are durable. Windows cannot
 * open a directory for this (and its file system journals names itself), so it is skipped there.
 */
export async function syncDirectory(path: string): Promise<void> {
  if (process.platform === "win32") return;
  const directory = await open(path, "r");
  try {
    await directory.sync();
  } catch (error) {
    // Some file systems (network shares) refuse fsync on a directory; the data files were synced.
    if (!isCode(error, "EINVAL") && !isCode(error, "ENOTSUP")) throw error;
  } finally {
    await directory.close();
  }
}

export function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
