import { realpath, stat } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { UsageError } from "./cli-args.ts";

/**
 * Paths a command writes to (`--out`, `--results`, `--dir`), checked before anything is made, so
 * that a path that cannot be used is one line naming its flag (exit 2) and nothing is created:
 * not a crash halfway, a hang (Node's recursive mkdir never settles under /proc), or an empty
 * folder left behind by a command refused later.
 */

/** Kernel views, not storage: nothing of TailLab's belongs there. */
const SYSTEM_FOLDERS = ["/proc", "/sys"];

export type PathKind = "folder" | "file";

/**
 * A folder the command creates or writes into: an existing folder, or a new one in an existing
 * folder. A file the command writes: not a folder, in an existing folder.
 */
export async function checkPathFlag(
  field: string,
  path: string,
  kind: PathKind,
  what = `the --${field} ${kind}`,
): Promise<void> {
  const refuse = (why: string): never => {
    throw new UsageError(field, `${path}: ${why}`);
  };
  if (path.trim() === "") refuse(`expected a ${kind} path`);
  const absolute = resolve(path);
  const existing = await stat(absolute).catch(() => null);
  const parent = dirname(absolute);
  const folder = existing ? absolute : parent;
  const real = await realpath(folder).catch(() => folder);
  const system = SYSTEM_FOLDERS.find((root) => real === root || real.startsWith(root + sep));
  if (system) refuse(`is under ${system}, a view of the kernel, not a place to write ${kind}s`);
  if (existing) {
    if (kind === "folder" && !existing.isDirectory()) {
      throw new UsageError(field, `cannot use ${path} as ${what}: it is a file, not a folder`);
    }
    if (kind === "file" && existing.isDirectory()) refuse("is a folder; expected a file path");
    return;
  }
  const parentStats = await stat(parent).catch(() => null);
  if (!parentStats) refuse(`its folder ${parent} does not exist`);
  if (!parentStats?.isDirectory()) refuse(`${parent} is not a folder`);
}
