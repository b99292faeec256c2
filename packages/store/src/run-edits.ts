import {
  InputError,
  runNameProblem,
  RUN_FOLDER_SCHEMA_VERSION,
  RunMetaSchema,
  type RunIndexEntry,
  type RunMeta,
} from "@taillab/api";
import { join } from "node:path";
import { upgradeInPlace } from "./folder-staging.ts";
import { entryAfterChange } from "./library-index.ts";
import { parseWith, RUN_FILES } from "./run-folder.ts";
import type { RunLibrary } from "./run-library.ts";
import { writeJsonAtomically } from "./write-atomically.ts";

/** Changes run.json and returns the run's index entry after the change. */
export async function editRun(
  library: RunLibrary,
  id: string,
  change: (meta: RunMeta) => RunMeta,
): Promise<RunIndexEntry> {
  await updateMeta(library, id, change);
  return entryAfterChange(library, id);
}

/** Read-modify-write of run.json; an older folder is upgraded first so it is all one version. */
export function updateMeta(
  library: RunLibrary,
  id: string,
  change: (meta: RunMeta) => RunMeta,
): Promise<void> {
  return library.inTurn(`run:${id}`, async () => {
    let run = await library.inspect(id);
    if (run.fromVersion < RUN_FOLDER_SCHEMA_VERSION) {
      await upgradeInPlace(library, run);
      run = await library.inspect(id);
    }
    const next = parseWith(RunMetaSchema, change(run.meta), `run ${id}: run.json`);
    await writeJsonAtomically(join(run.folder, RUN_FILES.meta), next, library.writeBytes);
  });
}

/** Renames a run; refuses (InputError on "name") a name runNameProblem refuses. */
export function renameRun(library: RunLibrary, id: string, name: string): Promise<RunIndexEntry> {
  const problem = runNameProblem(name);
  if (problem !== null) return Promise.reject(InputError.of("name", problem));
  return editRun(library, id, (meta) => ({ ...meta, name: name.trim() }));
}

/** Adds a tag once; refuses (InputError on "tag") an empty one. */
export function tagRun(library: RunLibrary, id: string, tag: string): Promise<RunIndexEntry> {
  const trimmed = tag.trim();
  if (trimmed.length === 0) return Promise.reject(InputError.of("tag", "cannot be empty"));
  return editRun(library, id, (meta) =>
    meta.tags.includes(trimmed) ? meta : { ...meta, tags: [...meta.tags, trimmed] },
  );
}

export function untagRun(library: RunLibrary, id: string, tag: string): Promise<RunIndexEntry> {
  const trimmed = tag.trim();
  return editRun(library, id, (meta) => ({
    ...meta,
    tags: meta.tags.filter((existing) => existing !== trimmed),
  }));
}
