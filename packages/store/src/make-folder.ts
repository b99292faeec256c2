import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { isCode } from "./write-atomically.ts";

/**
 * `mkdir -p`, one level at a time. Node's recursive mkdir never settles for a path under /proc
 * (`/proc/x`: the parent exists, the child cannot be made, and it retries forever); this fails
 * with the error of the level that cannot be made.
 */
export async function makeFolder(path: string): Promise<void> {
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) return;
  const parent = dirname(path);
  if (parent !== path && !existing) await makeFolder(parent);
  try {
    await mkdir(path);
  } catch (error) {
    if (!isCode(error, "EEXIST") || !(await stat(path)).isDirectory()) throw error;
  }
}
