import { randomBytes } from "node:crypto";
import { readFile, unlink } from "node:fs/promises";
import { hostname } from "node:os";

/**
 * writer.lock: who is writing a run. A run whose run.json says "running" is live only while the
 * process named here exists; otherwise it was killed (or the machine lost power) and the run is
 * interrupted. The start token tells a live writer apart from a later process that happens to get
 * the same pid: in this process it must be a writer still open; elsewhere, on Linux, the process
 * start time recorded here must match the pid's.
 */
export interface RunLock {
  pid: number;
  token: string;
  /** Clock ticks after boot at which the process started (Linux /proc), else null. */
  processStart: string | null;
  /** For people reading the file. */
  host: string;
  createdAt: string;
}

export const LOCK_FILE = "writer.lock";

const liveTokens = new Set<string>();

export async function newLock(): Promise<RunLock> {
  const token = randomBytes(8).toString("hex");
  liveTokens.add(token);
  return {
    pid: process.pid,
    token,
    processStart: await processStartOf(process.pid),
    host: hostname(),
    createdAt: new Date().toISOString(),
  };
}

/** This process no longer writes the run. */
export function releaseLockToken(token: string): void {
  liveTokens.delete(token);
}

export async function removeLockFile(path: string): Promise<void> {
  await unlink(path).catch(() => {});
}

/** The lock at `path`, or null when there is none (or it cannot be read as one). */
export async function readLock(path: string): Promise<RunLock | null> {
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as Partial<RunLock>;
    if (typeof parsed.pid !== "number" || typeof parsed.token !== "string") return null;
    return {
      pid: parsed.pid,
      token: parsed.token,
      processStart: typeof parsed.processStart === "string" ? parsed.processStart : null,
      host: String(parsed.host ?? ""),
      createdAt: String(parsed.createdAt ?? ""),
    };
  } catch {
    return null;
  }
}

export async function isLockHeld(lock: RunLock | null): Promise<boolean> {
  if (!lock) return false;
  if (lock.pid === process.pid) return liveTokens.has(lock.token);
  if (!isProcessAlive(lock.pid)) return false;
  if (lock.processStart === null) return true;
  const start = await processStartOf(lock.pid);
  return start === null || start === lock.processStart;
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces). */
async function processStartOf(pid: number): Promise<string | null> {
  if (process.platform !== "linux") return null;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
