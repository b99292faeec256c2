import { InputError } from "@taillab/api";
import { join } from "node:path";
import { strayDescription } from "./library-entries.ts";
import { syncIndex } from "./library-index.ts";
import { RUN_FILES } from "./run-folder.ts";
import type { RunLibrary } from "./run-library.ts";
import { isLockHeld, readLock } from "./run-lock.ts";
import { moveToTrash } from "./run-trash.ts";

/** Moves a run to the trash, damaged or not; refuses one still being written (checkRemovable). */
export async function removeRun(library: RunLibrary, id: string): Promise<void> {
  await library.inTurn(`run:${id}`, async () => {
    await checkRemovable(library, id);
    await moveToTrash(library.dir, id);
  });
  await syncIndex(library, new Set([id]));
}

/** Refuses (InputError naming runId) a run that is not there or is still being written. */
export async function checkRemovable(library: RunLibrary, id: string): Promise<void> {
  // A stray of the run's name goes to the trash as it is.
  if ((await strayDescription(library.dir, id)) !== null) return;
  // Only the lock matters here, so a folder too damaged to open can still be removed.
  const folder = await library.existingFolder(id);
  const lock = await readLock(join(folder, RUN_FILES.lock));
  if (await isLockHeld(lock)) {
    throw InputError.of(
      "runId",
      `run ${id} is still being written (by process ${lock?.pid ?? "?"}); stop it before deleting it`,
    );
  }
}
